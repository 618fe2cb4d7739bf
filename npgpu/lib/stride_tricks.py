"""``numpy.lib.stride_tricks`` on npgpu arrays: views with other shapes and strides over the same
device memory, no copy.

The new shape and strides are NumPy's own answer: its function runs on a host stand-in with the
array's shape, strides and dtype over a one-element buffer (nothing is read), so the layouts,
argument handling and errors are NumPy's; the view is then made over the device memory.  As in
NumPy, ``as_strided`` checks no bounds (a view past the memory reads garbage); unlike NumPy's,
its strides must keep elements aligned (device loads fault otherwise), and the views of
``sliding_window_view`` are read-only unless ``writeable=True``."""
import numpy as _np

from .._core import layout as _layout
from .._core.ndarray import READONLY, _new, ndarray
from ..creation import asarray
from ..manipulation import broadcast_arrays, broadcast_shapes, broadcast_to


def _stand_in(x):
    """A host array of ``x``'s shape, strides and dtype whose data is one element (never read)."""
    return _np.lib.stride_tricks.as_strided(_np.zeros(1, x.dtype), x.shape, x.strides)


def _view(x, like, writeable):
    """The view of ``x``'s memory with ``like``'s shape and strides (an offset of 0: NumPy's
    stride tricks start where the array does)."""
    return _new(x._mem, x._ptr, like.shape, like.strides, x.dtype, x._root(), None,
                x._ro if writeable else READONLY)


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """``numpy.lib.stride_tricks.as_strided``: a view of ``x``'s memory with ``shape`` and
    ``strides`` (bytes), unchecked."""
    x = asarray(x)
    like = _np.lib.stride_tricks.as_strided(_stand_in(x), shape, strides, subok, writeable)
    _layout.check_aligned(x._ptr, like.shape, like.strides, x.dtype, "a view with these strides")
    return _view(x, like, writeable)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """``numpy.lib.stride_tricks.sliding_window_view``: every window of ``window_shape`` along
    ``axis`` as trailing dimensions of a view (read-only unless ``writeable``)."""
    x = asarray(x)
    like = _np.lib.stride_tricks.sliding_window_view(_stand_in(x), window_shape, axis,
                                                     subok=subok, writeable=writeable)
    return _view(x, like, writeable)


__all__ = ["as_strided", "broadcast_arrays", "broadcast_shapes", "broadcast_to",
           "sliding_window_view"]
