"""``numpy.polynomial.hermite``: physicists' Hermite series.  The basis's primitives; the
functions are built by :mod:`._series`, evaluation is Clenshaw's recurrence in one kernel."""
import numpy as np
import numpy.polynomial as _host_polynomial

from ..creation import asarray, full
from ..linalg import eigvalsh
from ..manipulation import concatenate
from ..reductions import max as _max
from ..reductions import sum as _sum
from ..ufuncs import UFUNCS
from . import _series
from . import polyutils as pu
from ._evaluate import Recurrence
from ._polybase import ABCPolyBase
from .legendre import _clenshaw_mul

_abs, _exp = UFUNCS["absolute"], UFUNCS["exp"]


class _Clenshaw(Recurrence):
    name = "herm"
    step_ints = (("ia", "2 * (nd - 1)", int),)
    vander_ints = (("ia", "2 * (i - 1)", int),)

    def prepare(self, x):
        return {"x2": x * 2}

    def step(self, s, ck, x, pre, k):
        return (ck - s[1] * k["ia"], s[0] + s[1] * pre["x2"])

    def result(self, s, x, pre):
        return s[0] + s[1] * pre["x2"]

    def v1(self, x, pre):
        return pre["x2"]

    def vstep(self, v1, v0, x, pre, k):
        return v1 * pre["x2"] - v0 * k["ia"]


class _Herm(_series.Basis):
    prefix = "herm"
    rec = _Clenshaw()
    x = (0, 1 / 2)
    roots_flipped = True

    def line_parts(self, off, scl):
        return (off, scl / 2)

    def _root2(self, c):
        return -.5 * c[0] / c[1]

    def _mulx(self, c):
        prd = concatenate((c[:1] * 0, c / 2))
        prd[:-2] += c[1:] * _series._ints(1, len(c), c)
        return prd

    def mul(self, c1, c2):
        def step(ck, c0, c1, nd):
            return (self.sub(ck, c1 * (2 * (nd - 1))), self.add(c0, self.mulx(c1) * 2))
        return _clenshaw_mul(self, c1, c2, step,
                             lambda c0, c1: self.add(c0, self.mulx(c1) * 2))

    def _der_step(self, c, n):
        return c[1:] * _series._col(2 * np.arange(1, n + 1), c)

    def _int_step(self, c, n):
        return concatenate((c[:1] * 0, c[:1] / 2,
                            c[1:] / _series._col(2 * np.arange(2, n + 1), c)))

    def _companion(self, c, n):
        scl = np.hstack((1., 1. / np.sqrt(2. * np.arange(n - 1, 0, -1))))
        scl = np.multiply.accumulate(scl)[::-1]
        mat = np.zeros((n, n), dtype=c.dtype)
        mat.reshape(-1)[1::n + 1] = np.sqrt(.5 * np.arange(1, n))
        mat.reshape(-1)[n::n + 1] = mat.reshape(-1)[1::n + 1]
        mat = asarray(mat)           # (the constant matrix is made on the host, as NumPy does)
        mat[:, -1] -= asarray(scl) * c[:-1] / (2.0 * c[-1])
        return mat

    def _poly_short(self, c):
        if len(c) == 2:
            c[1] *= 2
        return c if len(c) < 3 else None

    def _poly_step(self, ck, c0, c1, i, P):
        return P.polysub(ck, c1 * (2 * (i - 1))), P.polyadd(c0, P.polymulx(c1) * 2)

    def _poly_last(self, c0, c1, P):
        return P.polyadd(c0, P.polymulx(c1) * 2)


_B = _Herm()
__all__ = _series.export(globals(), _B, __name__) + [
    "hermgauss", "hermweight", "Hermite"]
__getattr__ = _series.module_getattr(globals(), _B, __name__)




def _normed_n(x, n, norm, step):
    """The normalised Hermite function of degree ``n`` at ``x`` (no overflow for large
    ``n``): NumPy's recurrence, a few device operations a degree."""
    if n == 0:
        return full(x.shape, 1 / np.sqrt(np.sqrt(norm)))
    c0 = 0.
    c1 = 1. / np.sqrt(np.sqrt(norm))
    nd = float(n)
    for _ in range(n - 1):
        tmp = c0
        c0 = -c1 * np.sqrt((nd - 1.) / nd)
        c1 = tmp + c1 * x * np.sqrt(step / nd)
        nd = nd - 1.0
    return c0, c1


def _normed_hermite_n(x, n):
    r = _normed_n(x, n, np.pi, 2.)
    return r if n == 0 else r[0] + r[1] * x * np.sqrt(2)


def _hermite_gauss(basis, deg, normed, scale, total):
    """Gauss quadrature of the Hermite kinds: normalised functions keep large degrees
    finite."""
    ideg = pu._as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    c = np.array([0] * deg + [1], dtype=np.float64)
    x = eigvalsh(basis.companion(c))
    dy = normed(x, ideg)
    df = normed(x, ideg - 1) * np.sqrt(scale * ideg)
    x -= dy / df
    fm = normed(x, ideg - 1)
    fm /= _max(_abs(fm))
    w = 1 / (fm * fm)
    w = (w + w[::-1]) / 2
    x = (x - x[::-1]) / 2
    w *= total / _sum(w)
    return x, w


def hermgauss(deg):
    """Gauss-Hermite quadrature points and weights."""
    return _hermite_gauss(_B, deg, _normed_hermite_n, 2, np.sqrt(np.pi))


def hermweight(x):
    """The weight ``exp(-x**2)`` of the Hermite polynomials."""
    return _exp(-asarray(x)**2)


class Hermite(ABCPolyBase):
    """``numpy.polynomial.Hermite``: a Hermite series with device coefficients."""

    _basis = _B
    _host_class = _host_polynomial.Hermite
    basis_name = "H"
