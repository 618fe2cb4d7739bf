"""``numpy.polynomial.chebyshev``: Chebyshev series of the first kind.  Products and quotients
go through NumPy's z-series (a Chebyshev series as a symmetric Laurent series, so a product is
one convolution); evaluation is Clenshaw's recurrence in one kernel (:mod:`._evaluate`)."""
import numpy as np
import numpy.polynomial as _host_polynomial

from ..creation import asarray, empty, ones, zeros
from ..linalg.products import dot
from ..manipulation import concatenate, flip
from ..numerical import convolve
from ..ranges import arange, linspace
from ..ufuncs import UFUNCS
from . import _series
from . import polyutils as pu
from ._evaluate import Recurrence
from ._polybase import ABCPolyBase

_cos, _sin, _sqrt = UFUNCS["cos"], UFUNCS["sin"], UFUNCS["sqrt"]


class _Clenshaw(Recurrence):
    name = "cheb"

    def prepare(self, x):
        return {"x2": 2 * x}

    def step(self, s, ck, x, pre, k):
        return (ck - s[1], s[0] + s[1] * pre["x2"])

    def vstep(self, v1, v0, x, pre, k):
        return v1 * pre["x2"] - v0


# ---- z-series ---------------------------------------------------------------------------------
def _cseries_to_zseries(c):
    n = c.size
    zs = concatenate((zeros((n - 1,), c.dtype), c / 2))
    return zs + flip(zs)


def _zseries_to_cseries(zs):
    n = (zs.size + 1) // 2
    c = zs[n - 1:].copy()
    c[1:n] *= 2
    return c


def _zseries_div(z1, z2):
    z1 = z1.copy()
    z2 = z2.copy()
    lc1, lc2 = len(z1), len(z2)
    if lc2 == 1:
        z1 /= z2
        return z1, z1[:1] * 0
    if lc1 < lc2:
        return z1[:1] * 0, z1
    dlen = lc1 - lc2
    scl = z2[0].copy()          # (a view would change with z2)
    z2 /= scl
    quo = empty((dlen + 1,), z1.dtype)
    i, j = 0, dlen
    while i < j:
        r = z1[i]
        quo[i] = z1[i]
        quo[dlen - i] = r
        tmp = r * z2
        z1[i:i + lc2] -= tmp
        z1[j:j + lc2] -= tmp
        i += 1
        j -= 1
    r = z1[i]
    quo[i] = r
    z1[i:i + lc2] -= r * z2
    quo /= scl
    return quo, z1[i + 1:i - 1 + lc2].copy()


class _Cheb(_series.Basis):
    prefix = "cheb"
    rec = _Clenshaw()

    def _mulx(self, c):
        if len(c) == 1:
            return concatenate((c[:1] * 0, c[:1]))
        tmp = c[1:] / 2
        prd = concatenate((c[:1] * 0, c[:1], tmp))
        prd[0:-2] += tmp
        return prd

    def mul(self, c1, c2):
        [c1, c2] = pu.as_series([c1, c2])
        prd = convolve(_cseries_to_zseries(c1), _cseries_to_zseries(c2))
        return pu.trimseq(_zseries_to_cseries(prd))

    def div(self, c1, c2):
        c1, c2, done = pu._div_start(c1, c2)
        if done:
            return done
        quo, rem = _zseries_div(_cseries_to_zseries(c1), _cseries_to_zseries(c2))
        return pu.trimseq(_zseries_to_cseries(quo)), pu.trimseq(_zseries_to_cseries(rem))

    def pow(self, c, pow, maxpower=16):
        # z-series multiplied by convolution, without trimming between the factors
        return pu._pow(convolve, c, pow, maxpower, _cseries_to_zseries, _zseries_to_cseries)

    def _der_step(self, c, n):
        # each step reads the coefficient the step before updated: a loop over them
        der = empty((n,) + c.shape[1:], c.dtype)
        for j in range(n, 2, -1):
            der[j - 1] = (2 * j) * c[j]
            c[j - 2] += (j * c[j]) / (j - 2)
        if n > 1:
            der[1] = 4 * c[2]
        der[0] = c[1]
        return der

    def _int_step(self, c, n):
        tmp = concatenate((c[:1] * 0, c[:1], c[1:] / _series._col(2 * np.arange(2, n + 1), c)))
        if n > 2:
            tmp[1:n - 1] -= c[2:] / _series._col(2 * np.arange(1, n - 1), c)
        return tmp

    def _companion(self, c, n):
        scl = np.array([1.] + [np.sqrt(.5)] * (n - 1))
        mat = np.zeros((n, n), dtype=c.dtype)
        top = mat.reshape(-1)[1::n + 1]
        top[0] = np.sqrt(.5)
        top[1:] = 1 / 2
        mat.reshape(-1)[n::n + 1] = top
        mat = asarray(mat)           # (the constant matrix is made on the host, as NumPy does)
        mat[:, -1] -= (c[:-1] / c[-1]) * asarray(scl / scl[-1]) * .5
        return mat

    def _poly_step(self, ck, c0, c1, i, P):
        return P.polysub(ck, c1), P.polyadd(c0, P.polymulx(c1) * 2)


_B = _Cheb()
__all__ = _series.export(globals(), _B, __name__) + [
    "chebpts1", "chebpts2", "chebgauss", "chebweight", "chebinterpolate", "Chebyshev"]
__getattr__ = _series.module_getattr(globals(), _B, __name__)




def chebinterpolate(func, deg, args=()):
    """The Chebyshev series of degree ``deg`` interpolating ``func`` at the Chebyshev points of
    the first kind."""
    deg = np.asarray(deg)
    if deg.ndim > 0 or deg.dtype.kind not in "iu" or deg.size == 0:
        raise TypeError("deg must be an int")
    if deg < 0:
        raise ValueError("expected deg >= 0")
    order = int(deg) + 1
    xcheb = chebpts1(order)
    yfunc = func(xcheb, *args)
    m = chebvander(xcheb, int(deg))      # noqa: F821 (exported above)
    c = dot(m.T, asarray(yfunc))
    c[0] /= order
    c[1:] /= 0.5 * order
    return c


def chebgauss(deg):
    """Gauss-Chebyshev quadrature points and weights."""
    ideg = pu._as_int(deg, "deg")
    if ideg <= 0:
        raise ValueError("deg must be a positive integer")
    x = _cos(np.pi * arange(1, 2 * ideg, 2) / (2.0 * ideg))
    w = ones((ideg,)) * (np.pi / ideg)
    return x, w


def chebweight(x):
    """The weight ``1 / sqrt(1 - x**2)`` of the Chebyshev polynomials."""
    x = asarray(x)
    return 1. / (_sqrt(1. + x) * _sqrt(1. - x))


def _npts(npts, least):
    n = int(npts)
    if n != npts:
        raise ValueError("npts must be integer")
    if n < least:
        raise ValueError(f"npts must be >= {least}")
    return n


def chebpts1(npts):
    """The Chebyshev points of the first kind."""
    n = _npts(npts, 1)
    return _sin(0.5 * np.pi / n * arange(-n + 1, n + 1, 2))


def chebpts2(npts):
    """The Chebyshev points of the second kind."""
    return _cos(linspace(-np.pi, 0, _npts(npts, 2)))


class Chebyshev(ABCPolyBase):
    """``numpy.polynomial.Chebyshev``: a Chebyshev series with device coefficients."""

    _basis = _B
    _host_class = _host_polynomial.Chebyshev
    basis_name = "T"

    @classmethod
    def interpolate(cls, func, deg, domain=None, args=()):
        if domain is None:
            domain = cls.domain
        coef = chebinterpolate(lambda x: func(pu.mapdomain(x, cls.window, domain), *args), deg)
        return cls(coef, domain=domain)
