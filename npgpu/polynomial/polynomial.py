"""``numpy.polynomial.polynomial``: power series ``c[0] + c[1] x + c[2] x**2 + ...`` (lowest
power first, unlike ``npgpu.polyval``).  The primitives of the basis; the functions are built
by :mod:`._series`, evaluation is Horner's scheme in one kernel (:mod:`._evaluate`)."""
import numpy as np
import numpy.polynomial as _host_polynomial

from ..creation import asarray, ones
from ..manipulation import concatenate
from ..matrices import diag
from ..numerical import convolve
from ..reductions import prod as _prod
from . import _series
from . import polyutils as pu
from ._evaluate import Recurrence
from ._polybase import ABCPolyBase

_F64 = np.dtype(np.float64)


class _Horner(Recurrence):
    name = "poly"
    first = 1

    def start(self, cs, x, pre):
        return (cs[0] + x * 0,)

    def step(self, s, ck, x, pre, k):
        return (ck + s[0] * x,)

    def result(self, s, x, pre):
        return s[0]

    def vstep(self, v1, v0, x, pre, k):
        return v1 * x


class _Power(_series.Basis):
    prefix = "poly"
    rec = _Horner()
    maxpower = None
    roots_flipped = False

    def _mulx(self, c):
        return concatenate((c[:1] * 0, c))

    def mul(self, c1, c2):
        [c1, c2] = pu.as_series([c1, c2])
        return pu.trimseq(convolve(c1, c2))

    def div(self, c1, c2):
        c1, c2, done = pu._div_start(c1, c2)
        if done:
            return done
        lc1, lc2 = len(c1), len(c2)
        scl = c2[-1]
        c2 = c2[:-1] / scl
        i, j = lc1 - lc2, lc1 - 1
        while i >= 0:
            c1[i:j] -= c2 * c1[j]
            i -= 1
            j -= 1
        return c1[j + 1:] / scl, pu.trimseq(c1[:j + 1])

    def pow(self, c, pow, maxpower=None):
        # NumPy multiplies by convolution, without trimming between the factors
        return pu._pow(convolve, c, pow, maxpower)

    def _der_step(self, c, n):
        return c[1:] * _series._ints(1, n + 1, c)

    def _int_step(self, c, n):
        return concatenate((c[:1] * 0, c[:1], c[1:] / _series._ints(2, n + 1, c)))

    def _companion(self, c, n):
        mat = diag(ones((n - 1,), c.dtype), -1)
        mat[:, -1] -= c[:-1] / c[-1]
        return mat


_B = _Power()
__all__ = _series.export(globals(), _B, __name__) + [
    "polyvalfromroots", "Polynomial"]
__getattr__ = _series.module_getattr(globals(), _B, __name__)


def polyvalfromroots(x, r, tensor=True):
    """The product of ``x - r`` over the roots ``r`` (along the first axis of ``r``)."""
    r = pu._as_coeffs(r)
    if isinstance(x, (tuple, list)):
        x = asarray(x)
    if hasattr(x, "ndim") and not isinstance(x, np.generic):
        x = asarray(x)
        if tensor:
            r = r.reshape(r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return _prod(x - r, axis=0)


class Polynomial(ABCPolyBase):
    """``numpy.polynomial.Polynomial``: a power series with device coefficients."""

    _basis = _B
    _host_class = _host_polynomial.Polynomial
    basis_name = None
