"""The Array API standard's (2024.12) inspection and device surface.

``npgpu.__array_namespace_info__()``, ``ndarray.__array_namespace__``, the ``device=`` keyword
of the creation functions and ``ndarray.to_device``.  A device is an ``npgpu.cuda.Device`` (or
its ordinal); ``device=None`` means the current device (``with npgpu.cuda.Device(i):``).

Sits beside ``creation``: imports only ``_core`` and ``cuda``, so creation and ranges may
import it.
"""
import contextlib
import operator
import sys

import numpy as np

from ._core import copy as _copy
from ._core.ndarray import ndarray
from .cuda import runtime as _runtime

__array_api_version__ = "2024.12"
# versions whose namespace npgpu's top level serves (each later one is a superset in practice)
SUPPORTED_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")
# the largest ndim a generated kernel takes: NumPy's own limit (NPY_MAXDIMS)
MAX_DIMS = 64

_NULL = contextlib.nullcontext()


def check_api_version(api_version):
    """``__array_namespace__``'s check: None or a supported version string (NumPy's errors)."""
    if api_version is None:
        return
    if not isinstance(api_version, str):
        raise ValueError("Only None and strings are allowed as the Array API version, but "
                         f"received: {api_version}.")
    if api_version not in SUPPORTED_VERSIONS:
        raise ValueError(f'Version "{api_version}" of the Array API Standard is not supported.')


def namespace(api_version=None):
    """``ndarray.__array_namespace__``: the ``npgpu`` module (every supported version is served
    by the same top level)."""
    check_api_version(api_version)
    return sys.modules[__package__]


# ---- devices --------------------------------------------------------------------------------
def device_ordinal(device):
    """The ordinal of an Array API ``device`` argument: an ``npgpu.cuda.Device`` or an int of
    an existing device; anything else raises ``ValueError``."""
    if isinstance(device, _runtime.Device):
        did = device.id
    elif isinstance(device, (bool, np.bool_)) or not hasattr(device, "__index__"):
        raise ValueError(f"Device not understood: {device!r}; npgpu arrays live on CUDA devices "
                         "(an npgpu.cuda.Device or a device ordinal)")
    else:
        did = operator.index(device)
    n = _runtime.get_device_count()
    if not 0 <= did < n:
        raise ValueError(f"Invalid device ordinal {did}: {n} device(s) present")
    return did


def device_scope(device, like=None):
    """A context in which to allocate for ``device=``: a no-op for the current device, else
    ``Device(i)`` (made current for the ``with`` block).  ``device=None`` with ``like`` (the
    ``*_like`` functions): the device of ``like``, as the standard asks."""
    if device is None:
        if like is None or not isinstance(like, ndarray):
            return _NULL
        did = like._mem.device_id
    else:
        did = device_ordinal(device)
    return _NULL if did == _runtime.get_device_id() else _runtime.Device(did)


def to_device(x, device, stream=None):
    """``ndarray.to_device``: ``x`` itself on its own device; else a copy on ``device``.

    ``stream``: an ``npgpu.cuda.Stream`` of the target device on which the copy runs (default:
    that device's current stream).  A cross-device copy is peer-to-peer where the devices allow
    it, ordered after the source's pending work by an event (``_core/copy.copy_from_device``)."""
    did = device_ordinal(device)
    if stream is not None and not isinstance(stream, _runtime.Stream):
        raise TypeError(f"to_device: stream must be an npgpu.cuda.Stream or None, not "
                        f"{type(stream).__name__}")
    if did == x._mem.device_id:
        return x
    with _runtime.Device(did):
        return _copy.copy_from_device(x, "C", stream=stream)


# ---- __array_namespace_info__ ---------------------------------------------------------------
_D = np.dtype
_KINDS = {
    "bool": (_D(np.bool_),),
    "signed integer": (_D(np.int8), _D(np.int16), _D(np.int32), _D(np.int64)),
    "unsigned integer": (_D(np.uint8), _D(np.uint16), _D(np.uint32), _D(np.uint64)),
    "real floating": (_D(np.float32), _D(np.float64)),
    "complex floating": (_D(np.complex64), _D(np.complex128)),
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]
_ALL = _KINDS["bool"] + _KINDS["numeric"]


class ArrayNamespaceInfo:
    """What ``npgpu.__array_namespace_info__()`` returns (the standard's inspection API).

    Dtypes are the standard's (float16 is supported by npgpu but is not one of them)."""

    __module__ = "npgpu"

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": MAX_DIMS}

    def default_device(self):
        return _runtime.Device(_runtime.get_device_id())

    def devices(self):
        return [_runtime.Device(i) for i in range(_runtime.get_device_count())]

    def default_dtypes(self, *, device=None):
        if device is not None:
            device_ordinal(device)
        return {"real floating": _D(np.float64), "complex floating": _D(np.complex128),
                "integral": _D(np.int64), "indexing": _D(np.int64)}

    def dtypes(self, *, device=None, kind=None):
        if device is not None:
            device_ordinal(device)
        if kind is None:
            found = _ALL
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            found = ()
            for k in kinds:
                try:
                    found += _KINDS[k]
                except (KeyError, TypeError):
                    raise ValueError(f"unsupported kind: {k!r}") from None
        return {dt.name: dt for dt in _ALL if dt in found}

    def __repr__(self):
        return "<npgpu.__array_namespace_info__ object>"


_INFO = ArrayNamespaceInfo()


def __array_namespace_info__():
    """The standard's inspection namespace: capabilities, devices and dtypes of npgpu."""
    return _INFO
