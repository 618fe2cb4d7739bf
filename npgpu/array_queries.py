"""Questions about arrays that NumPy answers from pointers, shapes and strides: ``isfortran``,
``shares_memory``, ``may_share_memory``; and ``min_scalar_type``.

The overlap questions are NumPy's own: each npgpu array is shown to NumPy as a host array
header over its device address (``__array_interface__``: pointer, shape, strides; nothing is
ever read through it), so ``numpy.shares_memory`` solves the exact problem and
``numpy.may_share_memory`` the bounds check.  Device addresses are unified with the host's,
so a device array and a host array never share memory.
"""
import numpy as np

from ._core.ndarray import ndarray


class _Header:
    """A NumPy-visible header of a device array's memory layout (never dereferenced)."""

    __slots__ = ("__array_interface__",)

    def __init__(self, a):
        if isinstance(a, ndarray):
            iface = {"data": (a._ptr, False), "shape": a.shape, "strides": a._strides,
                     "typestr": a.dtype.str}
        else:               # another library's device array (CuPy, PyTorch, Numba, ...)
            cai = a.__cuda_array_interface__
            iface = {k: cai.get(k) for k in ("data", "shape", "strides", "typestr")}
        self.__array_interface__ = dict(iface, version=3)


def _on_device(x):
    return isinstance(x, ndarray) or hasattr(x, "__cuda_array_interface__")


def _headers(a, b):
    """(a, b) as NumPy arrays over their device addresses, or None when only one is on the
    device (device and host memory never overlap)."""
    da, db = _on_device(a), _on_device(b)
    if da != db:
        return None
    if not da:
        return a, b
    return np.asarray(_Header(a)), np.asarray(_Header(b))


def shares_memory(a, b, /, max_work=None):
    """NumPy's ``shares_memory``: exactly whether ``a`` and ``b`` have an element in common."""
    h = _headers(a, b)
    return False if h is None else np.shares_memory(*h, max_work=max_work)


def may_share_memory(a, b, /, max_work=None):
    """NumPy's ``may_share_memory``: whether the memory bounds of ``a`` and ``b`` overlap."""
    h = _headers(a, b)
    return False if h is None else np.may_share_memory(*h, max_work=max_work)


def isfortran(a):
    """NumPy's ``isfortran``: Fortran-contiguous and not also C-contiguous."""
    if not isinstance(a, ndarray):
        return np.isfortran(a)
    return a.flags.f_contiguous and not a.flags.c_contiguous


def min_scalar_type(a, /):
    """NumPy's ``min_scalar_type``: an array's dtype unchanged; for a 0-d array the smallest
    dtype holding its value (one read of that value: NumPy's answer depends on it)."""
    if not isinstance(a, ndarray):
        return np.min_scalar_type(a)
    return a.dtype if a.ndim else np.min_scalar_type(a.get())
