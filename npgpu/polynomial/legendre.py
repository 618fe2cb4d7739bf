"""``numpy.polynomial.legendre``: Legendre series.  The basis's primitives; the functions are
built by :mod:`._series`, evaluation is Clenshaw's recurrence in one kernel."""
import numpy as np
import numpy.polynomial as _host_polynomial

from ..creation import asarray, empty
from ..linalg import eigvalsh
from ..manipulation import concatenate
from ..reductions import max as _max
from ..reductions import sum as _sum
from ..ufuncs import UFUNCS
from . import _series
from . import polyutils as pu
from ._evaluate import Recurrence
from ._polybase import ABCPolyBase

_abs = UFUNCS["absolute"]


class _Clenshaw(Recurrence):
    name = "leg"
    step_ints = (("fa", "(nd - 1) / nd", float), ("fb", "(2 * nd - 1) / nd", float))
    vander_ints = (("ia", "2 * i - 1", int), ("ib", "i - 1", int), ("ic", "i", int))

    def step(self, s, ck, x, pre, k):
        return (ck - s[1] * k["fa"], s[0] + s[1] * x * k["fb"])

    def vstep(self, v1, v0, x, pre, k):
        return (v1 * x * k["ia"] - v0 * k["ib"]) / k["ic"]


def _clenshaw_mul(basis, c1, c2, step, last):
    """NumPy's product of two series of an orthogonal basis: Clenshaw's recurrence run on
    series, the shorter one's coefficients scaling the longer one."""
    [c1, c2] = pu.as_series([c1, c2])
    c, xs = (c2, c1) if len(c1) > len(c2) else (c1, c2)
    if len(c) == 1:
        c0, c1 = c[0] * xs, 0
    elif len(c) == 2:
        c0, c1 = c[0] * xs, c[1] * xs
    else:
        nd = len(c)
        c0, c1 = c[-2] * xs, c[-1] * xs
        for i in range(3, len(c) + 1):
            nd = nd - 1
            c0, c1 = step(c[-i] * xs, c0, c1, nd)
    return last(c0, c1)


class _Leg(_series.Basis):
    prefix = "leg"
    rec = _Clenshaw()

    def _mulx(self, c):
        n = len(c)
        i = np.arange(1, n)
        s = 2 * i + 1
        prd = concatenate((c[:1] * 0, c[:1], (c[1:] * _series._col(i + 1, c))
                           / _series._col(s, c)))
        prd[:-2] += (c[1:] * _series._col(i, c)) / _series._col(s, c)
        return prd

    def mul(self, c1, c2):
        def step(ck, c0, c1, nd):
            return (self.sub(ck, (c1 * (nd - 1)) / nd),
                    self.add(c0, (self.mulx(c1) * (2 * nd - 1)) / nd))
        return _clenshaw_mul(self, c1, c2, step, lambda c0, c1: self.add(c0, self.mulx(c1)))

    def _der_step(self, c, n):
        der = empty((n,) + c.shape[1:], c.dtype)
        for j in range(n, 2, -1):
            der[j - 1] = (2 * j - 1) * c[j]
            c[j - 2] += c[j]
        if n > 1:
            der[1] = 3 * c[2]
        der[0] = c[1]
        return der

    def _int_step(self, c, n):
        t = c[1:] / _series._col(2 * np.arange(1, n) + 1, c)
        tmp = concatenate((c[:1] * 0, c[:1], t))
        if n > 2:
            tmp[1:n - 1] -= t[1:]
        return tmp

    def _companion(self, c, n):
        scl = 1. / np.sqrt(2 * np.arange(n) + 1)
        mat = np.zeros((n, n), dtype=c.dtype)
        top = np.arange(1, n) * scl[:n - 1] * scl[1:n]
        mat.reshape(-1)[1::n + 1] = top
        mat.reshape(-1)[n::n + 1] = mat.reshape(-1)[1::n + 1]
        mat = asarray(mat)           # (the constant matrix is made on the host, as NumPy does)
        mat[:, -1] -= (c[:-1] / c[-1]) * asarray(scl / scl[-1]) * (n / (2 * n - 1))
        return mat

    def _poly_step(self, ck, c0, c1, i, P):
        return (P.polysub(ck, (c1 * (i - 1)) / i),
                P.polyadd(c0, (P.polymulx(c1) * (2 * i - 1)) / i))


_B = _Leg()
__all__ = _series.export(globals(), _B, __name__) + [
    "leggauss", "legweight", "Legendre"]
__getattr__ = _series.module_getattr(globals(), _B, __name__)




def _gauss(basis, deg, total):
    """Gauss quadrature of an orthogonal basis whose values do not overflow (Legendre,
    Laguerre): the companion matrix's eigenvalues, one Newton step, weights from the
    derivative; ``total`` the weights' sum (None: no symmetrisation, weights normalised)."""
    ideg = pu._as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = np.array([0] * deg + [1])
    x = eigvalsh(basis.companion(c))
    dy = basis.val(x, c)
    df = basis.val(x, basis.der(c))
    x -= dy / df
    fm = basis.val(x, c[1:])
    fm /= _max(_abs(fm))
    df /= _max(_abs(df))
    w = 1 / (fm * df)
    if total is None:
        return x, w / _sum(w)
    w = (w + w[::-1]) / 2
    x = (x - x[::-1]) / 2
    w *= total / _sum(w)
    return x, w


def leggauss(deg):
    """Gauss-Legendre quadrature points and weights."""
    return _gauss(_B, deg, 2.)


def legweight(x):
    """The weight (1) of the Legendre polynomials."""
    return asarray(x) * 0.0 + 1.0


class Legendre(ABCPolyBase):
    """``numpy.polynomial.Legendre``: a Legendre series with device coefficients."""

    _basis = _B
    _host_class = _host_polynomial.Legendre
    basis_name = "P"
