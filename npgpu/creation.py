"""Array creation: empty/zeros/ones/full (and _like), asarray/array, contiguous copies."""
import numpy as np

from ._core import copy as _copy
from ._core import layout as _layout
from ._core import transfer as _transfer
from ._core.dtypes import check_dtype
from ._core.ndarray import empty_array, ndarray

_F64 = np.dtype(np.float64)


def _order(order):
    if order in ("C", None, "K", "A"):
        return "C"
    if order == "F":
        return "F"
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def empty(shape, dtype=float, order="C"):
    shape = _layout.normalize_shape(shape)
    return empty_array(shape, check_dtype(_F64 if dtype is None else dtype), _order(order))


def _like_args(a, dtype, order, shape):
    dt = a.dtype if dtype is None else check_dtype(dtype)
    if order in ("K", "A", None):
        order = "F" if isinstance(a, ndarray) and a._f_contig and not a._c_contig else "C"
    return (a.shape if shape is None else shape), dt, order


def empty_like(a, dtype=None, order="K", subok=None, shape=None):
    a = asarray(a)
    shape, dt, order = _like_args(a, dtype, order, shape)
    return empty(shape, dt, order)


def zeros(shape, dtype=float, order="C"):
    return full(shape, 0, dtype, order)


def ones(shape, dtype=float, order="C"):
    return full(shape, 1, dtype, order)


def full(shape, fill_value, dtype=None, order="C"):
    if dtype is None:
        if isinstance(fill_value, ndarray):
            dtype = fill_value.dtype
        else:
            dtype = np.asarray(fill_value).dtype
    out = empty(shape, dtype, order)
    _copy.fill(out, fill_value)
    return out


def zeros_like(a, dtype=None, order="K", subok=None, shape=None):
    out = empty_like(a, dtype, order, shape=shape)
    _copy.fill(out, 0)
    return out


def ones_like(a, dtype=None, order="K", subok=None, shape=None):
    out = empty_like(a, dtype, order, shape=shape)
    _copy.fill(out, 1)
    return out


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None):
    out = empty_like(a, dtype, order, shape=shape)
    _copy.fill(out, fill_value)
    return out


def _is_device_foreign(obj):
    return hasattr(obj, "__cuda_array_interface__") and not isinstance(obj, np.ndarray)


def asarray(a, dtype=None, order=None, *, copy=None, blocking=False):
    """Convert to a device array: device arrays pass through; foreign CUDA arrays are wrapped
    without copying (CUDA Array Interface, DLPack); host data is copied to the device."""
    if isinstance(a, ndarray):
        out = a
        if dtype is not None and check_dtype(dtype) != a.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return a.astype(dtype, order=order or "K")
        if copy:
            return a.copy(order=order or "K")
        if order == "C" and not a._c_contig or order == "F" and not a._f_contig:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return a.copy(order=order)
        return out
    if _is_device_foreign(a):
        out = _transfer.from_cuda_array_interface(a)
        return asarray(out, dtype=dtype, order=order, copy=copy)
    if hasattr(a, "__dlpack__") and not isinstance(a, (np.ndarray, np.generic)):
        from ._core.dlpack import from_dlpack
        try:
            out = from_dlpack(a)
        except (BufferError, TypeError, ValueError):
            out = None
        if out is not None:
            return asarray(out, dtype=dtype, order=order, copy=copy)
    if copy is False:
        raise ValueError("Unable to avoid copy while creating a device array from host data.")
    if isinstance(a, (list, tuple)) and any(isinstance(x, ndarray) for x in _flat_items(a)):
        from .manipulation import stack
        return asarray(stack([asarray(x) for x in a]), dtype=dtype, order=order)
    host = np.asarray(a, dtype=dtype)
    if host.dtype == object:
        raise TypeError(f"npgpu does not support dtype object (from {type(a).__name__})")
    return _transfer.from_host(host, order=order or "K")


def _flat_items(seq):
    for x in seq:
        if isinstance(x, (list, tuple)):
            yield from _flat_items(x)
        else:
            yield x


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, blocking=False):
    out = asarray(obj, dtype=dtype, order=None if order == "K" else order, copy=copy)
    if copy and isinstance(obj, ndarray) and out is obj:
        out = obj.copy(order=order)
    if out.ndim < ndmin:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def ascontiguousarray(a, dtype=None):
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape(1)
    return a if a._c_contig else a.copy(order="C")


def asfortranarray(a, dtype=None):
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape(1)
    return a if a._f_contig else a.copy(order="F")


def copy(a, order="K", subok=False):
    return asarray(a).copy(order=order)


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    """Copy a device array to the host (NumPy); other inputs go through ``numpy.asarray``."""
    return _transfer.to_host(a, stream=stream, order=order, out=out)
