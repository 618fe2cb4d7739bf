"""Element iteration in Python, which is host-side: ``ndenumerate`` and ``broadcast`` iterate a host
copy of their npgpu arrays, read once when the iteration starts (an element-by-element read of
device memory would cost a transfer per element), and yield NumPy scalars as NumPy's do.
``broadcast``'s shape, ``ndim``, ``size`` and ``numiter`` need no read (NumPy's answer on host
stand-ins of the operands' shapes, its errors included)."""
import numpy as _np

from ._core.ndarray import host_values as _host
from ._core.ndarray import ndarray as _ndarray
from .creation import asarray
from .manipulation import _host_dummy


def _stand_in(a):
    """A host array of ``a``'s shape owning no memory, for shape questions."""
    return _host_dummy(a.shape if isinstance(a, _ndarray) else _np.shape(a))


def ndenumerate(arr):
    """``numpy.ndenumerate`` of ``arr``'s values (an npgpu array is read to the host once)."""
    return _np.ndenumerate(_host(asarray(arr)))


class broadcast:
    """``numpy.broadcast`` of npgpu arrays (and anything NumPy broadcasts): the shape
    attributes from the operands' shapes; iterating (``next``, ``for``, ``iters``, ``index``)
    reads the npgpu operands to the host once."""

    def __init__(self, *arrays):                 # NumPy's signature: (*arrays)
        self._args = arrays
        self._shape = _np.broadcast(*map(_stand_in, arrays))    # NumPy's checks and errors
        self._it = None

    def _host_it(self):
        if self._it is None:
            self._it = _np.broadcast(*map(_host, self._args))
        return self._it

    shape = property(lambda self: self._shape.shape)
    ndim = property(lambda self: self._shape.ndim)
    nd = property(lambda self: self._shape.ndim)
    size = property(lambda self: self._shape.size)
    numiter = property(lambda self: self._shape.numiter)
    index = property(lambda self: self._it.index if self._it is not None else 0)
    iters = property(lambda self: self._host_it().iters)

    def reset(self, /):
        if self._it is not None:
            self._it.reset()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._host_it())


__all__ = ["broadcast", "ndenumerate"]
