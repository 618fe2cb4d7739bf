"""``numpy.polynomial.laguerre``: Laguerre series.  The basis's primitives; the functions
are built by :mod:`._series`, evaluation is Clenshaw's recurrence in one kernel."""
import numpy as np
import numpy.polynomial as _host_polynomial

from ..creation import asarray, empty
from ..manipulation import concatenate
from ..ufuncs import UFUNCS
from . import _series
from . import polyutils as pu
from ._evaluate import Recurrence
from ._polybase import ABCPolyBase
from .legendre import _clenshaw_mul, _gauss

_exp = UFUNCS["exp"]


class _Clenshaw(Recurrence):
    name = "lag"
    step_ints = (("ia", "nd - 1", int), ("ib", "nd", int), ("ic", "2 * nd - 1", int))
    vander_ints = (("ia", "2 * i - 1", int), ("ib", "i - 1", int), ("ic", "i", int))

    def step(self, s, ck, x, pre, k):
        return (ck - (s[1] * k["ia"]) / k["ib"], s[0] + (s[1] * (k["ic"] - x)) / k["ib"])

    def result(self, s, x, pre):
        return s[0] + s[1] * (1 - x)

    def v1(self, x, pre):
        return 1 - x

    def vstep(self, v1, v0, x, pre, k):
        return (v1 * (k["ia"] - x) - v0 * k["ib"]) / k["ic"]


class _Lag(_series.Basis):
    prefix = "lag"
    rec = _Clenshaw()
    domain = (0.0, 1.0)
    x = (1, -1)

    def line_parts(self, off, scl):
        return (off + scl, -scl)

    def _root2(self, c):
        return 1 + c[0] / c[1]

    def _mulx(self, c):
        i = _series._ints(1, len(c), c)
        prd = concatenate((c[:1], -c[:1], (-c[1:]) * (i + 1)))
        prd[1:-1] += c[1:] * (2 * i + 1)
        prd[:-2] -= c[1:] * i
        return prd

    def mul(self, c1, c2):
        def step(ck, c0, c1, nd):
            return (self.sub(ck, (c1 * (nd - 1)) / nd),
                    self.add(c0, self.sub((2 * nd - 1) * c1, self.mulx(c1)) / nd))
        return _clenshaw_mul(self, c1, c2, step,
                             lambda c0, c1: self.add(c0, self.sub(c1, self.mulx(c1))))

    def _der_step(self, c, n):
        der = empty((n,) + c.shape[1:], c.dtype)
        for j in range(n, 1, -1):
            der[j - 1] = -c[j]
            c[j - 1] += c[j]
        der[0] = -c[1]
        return der

    def _int_step(self, c, n):
        tmp = concatenate((c[:1], -c))
        tmp[1:n] += c[1:]
        return tmp

    def _companion(self, c, n):
        mat = np.zeros((n, n), dtype=c.dtype)
        mat.reshape(-1)[1::n + 1] = -np.arange(1, n)
        mat.reshape(-1)[0::n + 1] = 2. * np.arange(n) + 1.
        mat.reshape(-1)[n::n + 1] = mat.reshape(-1)[1::n + 1]
        mat = asarray(mat)           # (the constant matrix is made on the host, as NumPy does)
        mat[:, -1] += (c[:-1] / c[-1]) * n
        return mat

    def from_poly(self, pol):
        [pol] = pu.as_series([pol])
        res = 0
        for p in pol[::-1]:
            res = self.add(self.mulx(res), p)
        return res

    def _poly_short(self, c):
        return c if len(c) == 1 else None

    def _poly_step(self, ck, c0, c1, i, P):
        return (P.polysub(ck, (c1 * (i - 1)) / i),
                P.polyadd(c0, P.polysub((2 * i - 1) * c1, P.polymulx(c1)) / i))

    def _poly_last(self, c0, c1, P):
        return P.polyadd(c0, P.polysub(c1, P.polymulx(c1)))


_B = _Lag()
__all__ = _series.export(globals(), _B, __name__) + [
    "laggauss", "lagweight", "Laguerre"]
__getattr__ = _series.module_getattr(globals(), _B, __name__)




def laggauss(deg):
    """Gauss-Laguerre quadrature points and weights."""
    return _gauss(_B, deg, None)


def lagweight(x):
    """The weight ``exp(-x)`` of the Laguerre polynomials."""
    return _exp(-asarray(x))


class Laguerre(ABCPolyBase):
    """``numpy.polynomial.Laguerre``: a Laguerre series with device coefficients."""

    _basis = _B
    _host_class = _host_polynomial.Laguerre
    basis_name = "L"
