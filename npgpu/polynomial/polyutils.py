"""``numpy.polynomial.polyutils``: coefficient series helpers shared by the six bases.

Coefficients live on the device.  NumPy trims trailing zero coefficients in almost every
operation (``as_series``, ``trimseq``), so the length of a result depends on its values: those
lengths are read back as one small integer read per trim (``_kept_lengths``), never the
coefficients themselves.  ``format_float`` is host-side printing and is NumPy's own.
"""
import functools
import operator
import warnings

import numpy as np
from numpy.polynomial.polyutils import format_float  # noqa: F401  (host-side printing)
from numpy.polynomial.polyutils import trimseq as _host_trimseq

from .._core.ndarray import ndarray
from ..creation import asarray, ones, zeros
from ..linalg import lstsq
from ..logic import where
from ..manipulation import atleast_1d, broadcast_to, concatenate, stack
from ..polynomials import _leading_true
from ..reductions import max as _max
from ..reductions import min as _min
from ..reductions import sum as _sum
from ..sorting.functions import sort
from ..ufuncs import UFUNCS

__all__ = ["as_series", "trimseq", "trimcoef", "getdomain", "mapdomain", "mapparms",
           "format_float"]

_sqrt = UFUNCS["sqrt"]
_F64 = np.dtype(np.float64)
_INTLIKE = "?bBhHiIlLqQpP"


# ---- series -----------------------------------------------------------------------------------
def _kept_lengths(*seqs):
    """For each 1-d series, its length with trailing zeros dropped (at least 1, 0 for an empty
    one).  The lengths depend on the values: one small read of the counts for all of them."""
    trailing = _leading_true(*[s[::-1] == 0 for s in seqs])
    return [min(len(s), max(len(s) - t, 1)) for s, t in zip(seqs, trailing)]


def trimseq(seq):
    """The series without its trailing zeros (one left if all are zero)."""
    if isinstance(seq, (list, tuple)):
        # a host sequence: NumPy's own loop, its type kept (NumPy returns a list for a list)
        return _host_trimseq(seq)
    return seq[:_kept_lengths(seq)[0]] if len(seq) else seq


def _common_dtype(arrays):
    """NumPy's ``common_type`` of the arrays (integers -> float64); bool counts as an integer
    here (NumPy falls back to object arrays, which npgpu has not)."""
    dts = [np.dtype(_F64) if a.dtype.char in _INTLIKE else a.dtype for a in arrays]
    if any(d.kind not in "fc" for d in dts):
        raise ValueError("Coefficient arrays have no common type")
    return np.common_type(*[np.empty(0, d) for d in dts])


def as_series(alist, trim=True):
    """The arrays as 1-d device series of one common inexact dtype (copies); trailing zeros
    dropped when ``trim``."""
    arrays = [atleast_1d(asarray(a)) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [a[:n] for a, n in zip(arrays, _kept_lengths(*arrays))]
    dtype = _common_dtype(arrays)
    return [a.astype(dtype, copy=True) for a in arrays]


def _as_coeffs(c, copy=False):
    """``np.array(c, ndmin=1)`` with integer and bool coefficients made float64 (the start of
    every ``*val``, ``*der`` and ``*int``)."""
    c = atleast_1d(asarray(c))
    if c.dtype.char in _INTLIKE:
        return c.astype(_F64)
    return c.copy() if copy else c


def trimcoef(c, tol=0):
    """Trailing coefficients of magnitude at most ``tol`` dropped (one zero left if all go)."""
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [c] = as_series([c])
    small = UFUNCS["logical_not"](UFUNCS["absolute"](c) > tol)
    # how many to keep depends on the values: one read of the count
    keep = len(c) - _leading_true(small[::-1])[0]
    if keep == 0:
        return c[:1] * 0
    return c[:keep].copy()


# ---- domains ----------------------------------------------------------------------------------
def getdomain(x):
    """The smallest interval (a rectangle's corners for complex ``x``) holding the points, as a
    2-element device array."""
    [x] = as_series([x], trim=False)
    if x.dtype.kind == "c":
        lo = UFUNCS["add"](_min(x.real), 1j * _min(x.imag))
        hi = UFUNCS["add"](_max(x.real), 1j * _max(x.imag))
        return stack((lo, hi)).astype(np.complex128)
    return stack((_min(x), _max(x)))


def mapparms(old, new):
    """``(off, scl)`` of the linear map ``off + scl * x`` taking ``old`` onto ``new``."""
    oldlen = old[1] - old[0]
    newlen = new[1] - new[0]
    off = (old[1] * new[0] - old[0] * new[1]) / oldlen
    scl = newlen / oldlen
    return off, scl


def mapdomain(x, old, new):
    """``x`` mapped linearly from the interval ``old`` onto ``new``."""
    if type(x) not in (int, float, complex) and not isinstance(x, np.generic):
        x = asarray(x)
    off, scl = mapparms(old, new)
    return off + scl * x


def _host_interval(d):
    """A domain or window as NumPy keeps it: a small host array (class metadata; a device
    domain is read once, two numbers)."""
    if isinstance(d, ndarray):
        d = d.get()
    [d] = [np.array(d, ndmin=1, copy=True)]
    if d.size == 0:
        raise ValueError("Coefficient array is empty")
    if d.ndim != 1:
        raise ValueError("Coefficient array is not 1-d")
    return d.astype(np.common_type(d) if d.dtype.char not in _INTLIKE else _F64)


# ---- arithmetic shared by the bases -------------------------------------------------------
def _padded(c, n):
    """``c`` with zeros appended up to length ``n``."""
    if len(c) >= n:
        return c
    return concatenate((c, zeros((n - len(c),), c.dtype)))


def _add(c1, c2):
    [c1, c2] = as_series([c1, c2])
    n = max(len(c1), len(c2))
    return trimseq(_padded(c1, n) + _padded(c2, n))


def _sub(c1, c2):
    [c1, c2] = as_series([c1, c2])
    n = max(len(c1), len(c2))
    if len(c1) > len(c2):
        return trimseq(c1 - _padded(c2, n))
    # NumPy negates c2 and adds c1 into it: (-c2) + c1 rounds as c1 - c2
    return trimseq((-c2) + _padded(c1, n))


def _check_divisor(c2):
    # the error depends on the value of the leading coefficient: one read of a flag
    if bool((c2[-1] == 0).get()):
        raise ZeroDivisionError


def _div_start(c1, c2):
    """``(c1, c2, answer)``: the series of a division, and its quotient and remainder when a
    short divisor or dividend decides them (else None)."""
    [c1, c2] = as_series([c1, c2])
    _check_divisor(c2)
    if len(c1) < len(c2):
        return c1, c2, (c1[:1] * 0, c1)
    if len(c2) == 1:
        return c1, c2, (c1 / c2[-1], c1[:1] * 0)
    return c1, c2, None


def _div(mul_f, c1, c2):
    """Division by repeated subtraction of ``mul_f(x**i, c2)``, for bases without a faster
    rule."""
    c1, c2, done = _div_start(c1, c2)
    if done:
        return done
    lc1, lc2 = len(c1), len(c2)
    quo = zeros((lc1 - lc2 + 1,), c1.dtype)
    rem = c1
    for i in range(lc1 - lc2, -1, -1):
        p = mul_f([0] * i + [1], c2)
        q = rem[-1] / p[-1]
        rem = rem[:-1] - q * p[:-1]
        quo[i] = q
    return quo, trimseq(rem)


def _pow(mul_f, c, pow, maxpower, into=None, back=None):
    """``c`` to an integer power by repeated ``mul_f``; ``into``/``back`` carry the factors
    into and out of another representation (Chebyshev z-series)."""
    [c] = as_series([c])
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return ones((1,), c.dtype)
    if power == 1:
        return c
    z = into(c) if into else c
    prd = z
    for _ in range(2, power + 1):
        prd = mul_f(prd, z)
    return back(prd) if back else prd


def _as_int(x, desc):
    try:
        return operator.index(x)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {x}") from e


def _fromroots(line_f, mul_f, roots):
    """The product of the linear factors ``(x - r)``, multiplied pairwise as a tree."""
    if len(roots) == 0:
        return ones((1,), _F64)
    [roots] = as_series([roots], trim=False)
    # every factor's line at once: the rows of one (n, 2) array
    p = list(line_f(-sort(roots), 1).T)
    n = len(p)
    while n > 1:
        m, r = divmod(n, 2)
        tmp = [mul_f(p[i], p[i + m]) for i in range(m)]
        if r:
            tmp[0] = mul_f(tmp[0], p[-1])
        p = tmp
        n = m
    return p[0]


def _line(off, scl, parts):
    """``np.array(parts(off, scl))`` on the device (the ``*line`` functions); just ``[off]``
    for a zero slope."""
    if isinstance(scl, ndarray):
        nonzero = bool((scl != 0).get())       # (a device slope: one read of a flag)
    else:
        nonzero = scl != 0
    vals = parts(off, scl) if nonzero else (off,)
    if not any(isinstance(v, ndarray) for v in vals):
        return asarray(np.array(vals))
    # NumPy's np.array([...]) types Python scalars strongly (an int is int64)
    dt = np.result_type(*[v.dtype if isinstance(v, ndarray) else np.asarray(v).dtype
                          for v in vals])
    shape = np.broadcast_shapes(*[np.shape(v) for v in vals])
    return stack([broadcast_to(asarray(v).astype(dt), shape) for v in vals])


# ---- evaluation over several dimensions ---------------------------------------------------
def _valnd(val_f, c, *args):
    args = [asarray(a) for a in args]
    shape0 = args[0].shape
    if not all(a.shape == shape0 for a in args[1:]):
        if len(args) == 3:
            raise ValueError("x, y, z are incompatible")
        if len(args) == 2:
            raise ValueError("x, y are incompatible")
        raise ValueError("ordinates are incompatible")
    it = iter(args)
    c = val_f(next(it), c)
    for xi in it:
        c = val_f(xi, c, tensor=False)
    return c


def _gridnd(val_f, c, *args):
    for xi in args:
        c = val_f(xi, c)
    return c


def _vander_nd(vander_fs, points, degrees):
    n_dims = len(vander_fs)
    if n_dims != len(points):
        raise ValueError(f"Expected {n_dims} dimensions of sample points, got {len(points)}")
    if n_dims != len(degrees):
        raise ValueError(f"Expected {n_dims} dimensions of degrees, got {len(degrees)}")
    if n_dims == 0:
        raise ValueError("Unable to guess a dtype or shape when no points are given")
    points = tuple(stack([asarray(p) for p in points]) + 0.0)
    arrays = []
    for i in range(n_dims):
        sl = [None] * n_dims
        sl[i] = slice(None)
        arrays.append(vander_fs[i](points[i], degrees[i])[(Ellipsis,) + tuple(sl)])
    return functools.reduce(operator.mul, arrays)


def _vander_nd_flat(vander_fs, points, degrees):
    v = _vander_nd(vander_fs, points, degrees)
    return v.reshape(v.shape[:-len(degrees)] + (-1,))


# ---- least squares ----------------------------------------------------------------------------
def _fit(vander_f, x, y, deg, rcond=None, full=False, w=None):
    x = asarray(x) + 0.0
    y = asarray(y) + 0.0
    deg = np.asarray(deg.get() if isinstance(deg, ndarray) else deg)
    if deg.ndim > 1 or deg.dtype.kind not in "iu" or deg.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if deg.min() < 0:
        raise ValueError("expected deg >= 0")
    # NumPy's checks in its order (each test only runs when the ones before passed)
    for bad, msg in ((lambda: x.ndim != 1, "expected 1D vector for x"),
                     (lambda: x.size == 0, "expected non-empty vector for x"),
                     (lambda: y.ndim < 1 or y.ndim > 2, "expected 1D or 2D array for y"),
                     (lambda: len(x) != len(y), "expected x and y to have same length")):
        if bad():
            raise TypeError(msg)
    if deg.ndim == 0:
        lmax = int(deg)
        order = lmax + 1
        van = vander_f(x, lmax)
    else:
        deg = np.sort(deg)
        lmax = int(deg[-1])
        order = len(deg)
        van = vander_f(x, lmax)[:, asarray(deg)]
    lhs = van.T
    rhs = y.T
    if w is not None:
        w = asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if len(x) != len(w):
            raise TypeError("expected x and w to have same length")
        lhs = lhs * w
        rhs = rhs * w
    if rcond is None:
        rcond = len(x) * np.finfo(x.dtype).eps
    sq = UFUNCS["square"]
    if lhs.dtype.kind == "c":
        scl = _sqrt(_sum(sq(lhs.real) + sq(lhs.imag), axis=1))
    else:
        scl = _sqrt(_sum(sq(lhs), axis=1))
    scl = where(scl == 0, scl.dtype.type(1), scl)
    c, resids, rank, s = lstsq(lhs.T / scl, rhs.T, rcond)
    c = (c.T / scl).T
    if deg.ndim > 0:
        cc = zeros((lmax + 1,) + c.shape[1:], c.dtype)
        cc[asarray(deg)] = c
        c = cc
    if rank != order and not full:
        warnings.warn("The fit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=3)
    if full:
        return c, [resids, rank, s, rcond]
    return c
