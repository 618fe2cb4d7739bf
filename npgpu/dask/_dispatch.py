"""Dask's data-directed dispatch for npgpu chunks: what Dask's ``array/backends.py`` registers
for CuPy, registered for :class:`npgpu.ndarray` (plus ``sizeof`` and tokens).

Dask looks these up per chunk type inside tasks (``concatenate_lookup.dispatch(type(chunk))``),
so once registered a Dask graph of npgpu chunks never touches NumPy's implementations.
"""
import threading
import uuid
import weakref

import numpy

import npgpu
from dask.array import backends as _dask_backends
from dask.array import dispatch as _dd
from dask.sizeof import sizeof
from dask.tokenize import normalize_token
from dask.utils import Dispatch

# Moves a chunk to npgpu (Dask's ``Array.to_backend("npgpu")``); the counterpart of Dask's
# ``to_numpy_dispatch`` / ``to_cupy_dispatch``.
to_npgpu_dispatch = Dispatch("to_npgpu_dispatch")

_registered = False
_lock = threading.Lock()


def _einsum(*operands, **kwargs):
    # Dask passes NumPy's full keyword set (dtype, casting, order, optimize); npgpu takes them all.
    return npgpu.einsum(*operands, **kwargs)


def _divide(x1, x2, out=None, dtype=None):
    # Dask's divide carries ``dtype=`` (the mean/var chunk functions pass it)
    result = npgpu.divide(x1, x2, out=out)
    return result if dtype is None else result.astype(dtype, copy=False)


def _to_numpy(data, **kwargs):
    return data.get()


def _to_cupy(data, **kwargs):
    import cupy           # only reached when a user moves npgpu chunks to CuPy

    return cupy.asarray(data, **kwargs)      # zero-copy through __cuda_array_interface__


def _sizeof(x):
    # the bytes the chunk's view spans on the device (Dask's memory accounting, spilling)
    return int(x.nbytes)


# Tokens name the array object, not its contents: hashing a chunk would copy it to the host.
# Idempotent for an object's lifetime (Dask's rule for unhashable objects), fresh afterwards.
_tokens = {}


def _normalize_ndarray(x):
    key = id(x)
    token = _tokens.get(key)
    if token is None:
        token = _tokens[key] = uuid.uuid4().hex
        weakref.finalize(x, _tokens.pop, key, None)
    return ("npgpu.ndarray", token, x.shape, x.dtype.str)


def register_dispatch():
    """Register npgpu's implementations with Dask's dispatch tables (idempotent)."""
    global _registered
    with _lock:
        if _registered:
            return
        nd = npgpu.ndarray
        _dd.concatenate_lookup.register(nd, npgpu.concatenate)
        _dd.take_lookup.register(nd, npgpu.take)
        _dd.tensordot_lookup.register(nd, npgpu.tensordot)
        _dd.einsum_lookup.register(nd, _einsum)
        _dd.empty_lookup.register(nd, npgpu.empty)
        _dd.divide_lookup.register(nd, _divide)
        # Dask's own per-chunk percentile (npgpu.percentile through __array_function__)
        _dd.percentile_lookup.register(nd, _dask_backends.percentile)
        # counts stay npgpu arrays (mean/var divide by them on the device)
        _dd.numel_lookup.register(nd, _dask_backends._numel_arraylike)
        _dd.nannumel_lookup.register(nd, _dask_backends._nannumel)
        _dd.to_numpy_dispatch.register(nd, _to_numpy)
        _dd.to_cupy_dispatch.register(nd, _to_cupy)
        to_npgpu_dispatch.register(nd, lambda data, **kwargs: data)
        to_npgpu_dispatch.register((numpy.ndarray, object), npgpu.asarray)
        sizeof.register(nd, _sizeof)
        normalize_token.register(nd, _normalize_ndarray)
        from ._streams import CallerStreamOrder
        CallerStreamOrder().register()
        from ._linalg import install as install_linalg
        install_linalg()
        _registered = True
