"""``zeta`` and ``polygamma``: Python functions over the ufuncs, as SciPy's are.

SciPy's ``zeta(x, q=None)`` is its Riemann zeta ufunc when ``q`` is omitted and its Hurwitz
zeta ufunc otherwise (they differ for x < 1, where Hurwitz is NaN); ``polygamma(n, x)`` is
``digamma`` at n = 0 and (-1)^(n+1) n! zeta(n + 1, x) elsewhere."""
from ...creation import asarray
from ...logic import where
from .ufuncs import UFUNCS


def zeta(x, q=None, out=None):
    """scipy.special.zeta on npgpu arrays: Riemann zeta(x) when ``q`` is None, else the Hurwitz
    zeta sum over k >= 0 of (k + q)^-x (real arguments only)."""
    if q is None:
        return UFUNCS["_riemann_zeta"](x, out=out)
    return UFUNCS["_zeta"](x, q, out=out)


def polygamma(n, x):
    """scipy.special.polygamma on npgpu arrays: the n-th derivative of digamma (n integral)."""
    n, x = asarray(n), asarray(x)
    fac2 = (-1.0) ** (n + 1) * UFUNCS["gamma"](n + 1.0) * zeta(n + 1, x)
    return where(n == 0, UFUNCS["digamma"](x), fac2)
