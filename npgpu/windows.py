"""Window functions: bartlett, blackman, hamming, hanning, kaiser.

Each is NumPy's formula written with npgpu's own operations (``arange``, ``cos``, ``where``,
``sqrt``, ``i0`` and arithmetic), in NumPy's operation order so the values round as NumPy's do.
The window length ``M`` (and ``beta``) are host values (a device array is read, as ``arange``
reads its bounds): they are promoted on the host with a float64 zero, as NumPy does, so an
integer ``M`` gives a float64 window and NumPy's errors for a bad ``M`` come from the same
comparisons.
"""
import numpy as np

from ._core.ndarray import ndarray
from .creation import arange, empty, ones
from .logic import where
from .ufuncs import UFUNCS

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]

_cos = UFUNCS["cos"]
_sqrt = UFUNCS["sqrt"]
_less_equal = UFUNCS["less_equal"]


def _promoted(*args):
    """``args`` promoted together with a float64 zero (at least float64; complex stays complex),
    and the promoted dtype.  Device arrays (a 0-d length as ``a.max()`` or ``a[()]`` gives) are
    read: the window's length must be known on the host."""
    values = np.array([0.0, *(a.get() if isinstance(a, ndarray) else a for a in args)])
    return values[1:], values.dtype


def _symmetric(M):
    """``(M, n, None)`` with ``n`` the odd (or even) points ``1 - M, 3 - M, ..., M - 1`` that the
    cosine windows sample, or ``(M, None, window)`` for the trivial lengths: empty for
    ``M < 1``, a single one for ``M == 1``."""
    (m,), dt = _promoted(M)
    if m < 1:
        return m, None, empty((0,), dt)
    if m == 1:
        return m, None, ones(1, dt)
    return m, arange(1 - m, m, 2), None


def bartlett(M):
    """``numpy.bartlett``: the triangular window of ``M`` points (float64)."""
    M, n, w = _symmetric(M)
    if w is None:
        w = where(_less_equal(n, 0), 1 + n / (M - 1), 1 - n / (M - 1))
    return w


def blackman(M):
    """``numpy.blackman``: the Blackman window of ``M`` points (float64)."""
    M, n, w = _symmetric(M)
    if w is None:
        w = 0.42 + 0.5 * _cos(np.pi * n / (M - 1)) + 0.08 * _cos(2.0 * np.pi * n / (M - 1))
    return w


def hamming(M):
    """``numpy.hamming``: the Hamming window of ``M`` points (float64)."""
    M, n, w = _symmetric(M)
    if w is None:
        w = 0.54 + 0.46 * _cos(np.pi * n / (M - 1))
    return w


def hanning(M):
    """``numpy.hanning``: the Hann window of ``M`` points (float64)."""
    M, n, w = _symmetric(M)
    if w is None:
        w = 0.5 + 0.5 * _cos(np.pi * n / (M - 1))
    return w


def kaiser(M, beta):
    """``numpy.kaiser``: the Kaiser window of ``M`` points with shape parameter ``beta``
    (float64): ``i0(beta * sqrt(1 - ((n - alpha) / alpha)**2)) / i0(beta)``."""
    from .scipy.special.numpy_i0 import i0       # npgpu.scipy is imported after this module
    (M, beta), dt = _promoted(M, beta)
    if M == 1:
        return ones(1, dt)
    n = arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * _sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(beta)
