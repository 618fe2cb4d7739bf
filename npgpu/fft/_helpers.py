"""numpy.fft's helpers on the device: fftfreq, rfftfreq (one generated kernel over the
output index), fftshift, ifftshift (``roll``: one gather kernel)."""
import numpy as np

from .. import _array_api
from .._codegen import elementwise as _ew
from .._core.layout import c_shape_text
from .._core.ndarray import empty_array, ndarray
from ..creation import asarray
from ..rearranging import roll

_I64 = np.dtype(np.int64)
# frequency of output element i: the signed bin (i below the split, i - n from it on) times val
_FREQ = _ew.ScalarOp.from_expr("fft:fftfreq", 4, "(x0 if x0 < x1 else x0 - x2) * x3")


def _float_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        raise ValueError(f"dtype must be a real floating-point dtype, not {dtype}")
    return dtype


def _freqs(n, d, device, real, dtype):
    if not isinstance(n, (int, np.integer)):
        raise ValueError("n should be an integer")
    val = 1.0 / (n * d)
    if not real and isinstance(n, bool):         # NumPy's empty(True) refuses a bool
        raise TypeError(f"expected a sequence of integers or a single integer, got '{n!r}'")
    n = int(n)                                   # NumPy integer scalars: Python ints
    if isinstance(val, ndarray) or np.ndim(val):
        # an array spacing: NumPy's int bins times the array (broadcast as NumPy does)
        from ..ufuncs import multiply
        with _array_api.device_scope(device):
            bins = _bins(n, real, _I64, 1)
            vshape = tuple(np.shape(val))
            try:
                np.broadcast_shapes(bins.shape, vshape)
            except ValueError:
                raise ValueError("operands could not be broadcast together with shapes "
                                 f"({bins.size},) {c_shape_text(vshape)} ") from None
            out = multiply(bins, asarray(val))
        return out if dtype is None else out.astype(_float_dtype(dtype))
    # NumPy multiplies an int array by val: its result dtype (float64, or complex128 for a
    # complex spacing); the bins convert to it exactly as NumPy converts them
    dt = np.result_type(_I64, val)
    if dtype is not None:                  # the Array API's keyword: a real floating dtype
        dtype = _float_dtype(dtype)
    with _array_api.device_scope(device):
        return _bins(n, real, dt, val, dtype)


def _bins(n, real, dt, val, dtype=None):
    """The signed bins of ``n`` points (rfft's ``n // 2 + 1`` with ``real``) times ``val``,
    computed in ``dt`` (into a ``dtype`` result)."""
    size = max(n // 2 + 1, 0) if real else n         # (NumPy's arange: empty; its empty: error)
    if size < 0:
        raise ValueError("negative dimensions are not allowed")
    split = size if real else (n - 1) // 2 + 1       # bins from ``split`` on are negative
    out = empty_array((size,), dt if dtype is None else dtype)
    if size > 0:
        ins = [_ew.INDEX, _I64.type(split), _I64.type(n), dt.type(val)]
        _ew.launch(_FREQ, ins, [_I64, _I64, _I64, dt], [out], [dt], name="fftfreq")
    return out


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of :func:`fft`'s terms: ``[0, 1, ..., -2, -1] / (d * n)``
    (``numpy.fft.fftfreq``); ``device``: an npgpu device (default: the current one);
    ``dtype`` (the Array API's): the result's real floating dtype (default NumPy's)."""
    return _freqs(n, d, device, False, dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of :func:`rfft`'s ``n // 2 + 1`` terms: ``[0, 1, ..., n // 2] /
    (d * n)`` (``numpy.fft.rfftfreq``); ``device`` and ``dtype`` as :func:`fftfreq`'s."""
    return _freqs(n, d, device, True, dtype)


def _shifts(x, axes, sign):
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (dim // 2) for dim in x.shape]
    elif isinstance(axes, (int, np.integer)):
        shift = sign * (x.shape[axes] // 2)
    else:
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    if x.ndim == 0 and not shift:
        # NumPy's roll of a 0-d array by no shifts fails (unpacking zip() of nothing)
        raise ValueError("not enough values to unpack (expected 2, got 0)")
    return shift, axes


def fftshift(x, axes=None):
    """Move the zero-frequency term to the centre (``numpy.fft.fftshift``)."""
    x = asarray(x)
    shift, axes = _shifts(x, axes, 1)
    return roll(x, shift, axes)


def ifftshift(x, axes=None):
    """The inverse of :func:`fftshift` (``numpy.fft.ifftshift``)."""
    x = asarray(x)
    shift, axes = _shifts(x, axes, -1)
    return roll(x, shift, axes)
