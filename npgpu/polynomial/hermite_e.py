"""``numpy.polynomial.hermite_e``: probabilists' Hermite series.  The basis's primitives;
the functions are built by :mod:`._series`, evaluation is Clenshaw's recurrence in one
kernel."""
import numpy as np
import numpy.polynomial as _host_polynomial

from ..creation import asarray
from ..manipulation import concatenate
from ..ufuncs import UFUNCS
from . import _series
from ._evaluate import Recurrence
from ._polybase import ABCPolyBase
from .hermite import _hermite_gauss, _normed_n
from .legendre import _clenshaw_mul

_exp = UFUNCS["exp"]


class _Clenshaw(Recurrence):
    name = "herme"
    step_ints = (("ia", "nd - 1", int),)
    vander_ints = (("ia", "i - 1", int),)

    def step(self, s, ck, x, pre, k):
        return (ck - s[1] * k["ia"], s[0] + s[1] * x)

    def vstep(self, v1, v0, x, pre, k):
        return v1 * x - v0 * k["ia"]


class _HermE(_series.Basis):
    prefix = "herme"
    rec = _Clenshaw()
    der_zero_moved = True

    def _mulx(self, c):
        prd = concatenate((c[:1] * 0, c))
        prd[:-2] += c[1:] * _series._ints(1, len(c), c)
        return prd

    def mul(self, c1, c2):
        def step(ck, c0, c1, nd):
            return (self.sub(ck, c1 * (nd - 1)), self.add(c0, self.mulx(c1)))
        return _clenshaw_mul(self, c1, c2, step, lambda c0, c1: self.add(c0, self.mulx(c1)))

    def _der_step(self, c, n):
        return c[1:] * _series._ints(1, n + 1, c)

    def _int_step(self, c, n):
        return concatenate((c[:1] * 0, c[:1], c[1:] / _series._ints(2, n + 1, c)))

    def _companion(self, c, n):
        scl = np.hstack((1., 1. / np.sqrt(np.arange(n - 1, 0, -1))))
        scl = np.multiply.accumulate(scl)[::-1]
        mat = np.zeros((n, n), dtype=c.dtype)
        mat.reshape(-1)[1::n + 1] = np.sqrt(np.arange(1, n))
        mat.reshape(-1)[n::n + 1] = mat.reshape(-1)[1::n + 1]
        mat = asarray(mat)           # (the constant matrix is made on the host, as NumPy does)
        mat[:, -1] -= asarray(scl) * c[:-1] / c[-1]
        return mat

    def _poly_step(self, ck, c0, c1, i, P):
        return P.polysub(ck, c1 * (i - 1)), P.polyadd(c0, P.polymulx(c1))


_B = _HermE()
__all__ = _series.export(globals(), _B, __name__) + [
    "hermegauss", "hermeweight", "HermiteE"]
__getattr__ = _series.module_getattr(globals(), _B, __name__)




def _normed_hermite_e_n(x, n):
    r = _normed_n(x, n, 2 * np.pi, 1.)
    return r if n == 0 else r[0] + r[1] * x


def hermegauss(deg):
    """Gauss-HermiteE quadrature points and weights."""
    return _hermite_gauss(_B, deg, _normed_hermite_e_n, 1, np.sqrt(2 * np.pi))


def hermeweight(x):
    """The weight ``exp(-x**2 / 2)`` of the HermiteE polynomials."""
    return _exp(-.5 * asarray(x)**2)


class HermiteE(ABCPolyBase):
    """``numpy.polynomial.HermiteE``: a HermiteE series with device coefficients."""

    _basis = _B
    _host_class = _host_polynomial.HermiteE
    basis_name = "He"
