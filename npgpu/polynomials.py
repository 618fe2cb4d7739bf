"""Polynomials in NumPy's power form (highest power first): polyval, vander, and the
functions and class built on them -- poly, roots, polyadd, polysub, polymul, polydiv, polyder,
polyint, polyfit and ``poly1d``.

``polyval`` is Horner's scheme in one kernel: each thread walks the coefficients for its
element, and each step is NumPy's ``y * x + p[j]`` -- the multiply and add ufunc loops with
NumPy's casts between them, traced by :mod:`npgpu.fusion` -- so the result matches NumPy's
loop of array operations.  ``vander`` is one elementwise kernel over the element index.

The rest compose npgpu's public operations (convolve, concatenate, lstsq, eigvals, ...) in
NumPy's order of operations.  Where NumPy's answer has a size or dtype that depends on the
values (leading zeros trimmed by ``poly1d``, ``polymul``, ``polydiv`` and ``roots``; ``poly``
of conjugate pairs coming back real), one small read of a few integers or one flag says which.
"""
import operator
import warnings

import numpy as np

from ._codegen import compiler
from ._codegen import elementwise as _ew
from ._codegen.compiler import KernelSource, Param
from ._core.layout import c_shape_text
from ._core.ndarray import empty_array
from .creation import arange, asarray, empty, ones, zeros, zeros_like
from .fusion import _literal, _Trace, _Var
from .linalg import eigvals, inv, lstsq
from .linalg.products import dot, outer
from .logic import isclose
from .manipulation import atleast_1d, concatenate, stack
from .matrices import diag
from .numerical import convolve
from .reductions import all as _all
from .reductions import argmin as _argmin
from .reductions import sum as _sum
from .ufuncs import UFUNCS

__all__ = ["poly", "poly1d", "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul",
           "polysub", "polyval", "roots", "vander"]

_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)


# ---- polyval ----------------------------------------------------------------------------------
def _horner_steps(x_dt, p_dt):
    """(device functions, first step's lines, its result, later steps' lines, their result,
    result dtype) of ``y = y * x + p[j]`` with ``y`` starting as zeros of ``x``'s dtype;
    None when the later steps' dtype is not the first's (then NumPy's loop runs as is)."""
    tr = _Trace()
    xv, pv = _Var(tr, "xv", x_dt), _Var(tr, "pv", p_dt)
    zero = _Var(tr, _literal(x_dt.type(0), _ew.compute_dtype(x_dt)), x_dt)
    first = zero * xv + pv
    cut = len(tr.lines)
    nxt = _Var(tr, "y", first.dtype) * xv + pv
    if nxt.dtype != first.dtype:
        return None
    return tr.helpers, tr.lines[:cut], first.expr, tr.lines[cut:], nxt.expr, first.dtype


def _render_polyval(x_dt, p_dt):
    helpers, lines1, r1, lines, r, ydt = _horner_steps(x_dt, p_dt)
    ct = _ew.compute_dtype
    load_p = _ew.cast_expr("P[{}]", p_dt, ct(p_dt))
    src = ["@cuda.jit(device=True)\n" + h.strip("\n") + "\n" for h in helpers]
    body = ["def KERNEL(n, OUT, X, P):",
            "    m = P.shape[0]",
            "    i = cuda.grid(1)",
            "    step = cuda.gridsize(1)",
            "    while i < n:",
            f"        xv = {_ew.cast_expr('X[i]', x_dt, ct(x_dt))}",
            f"        pv = {load_p.format(0)}"]
    body += ["        " + ln for ln in lines1]
    body += [f"        y = {r1}",
             "        for j in range(1, m):",
             f"            pv = {load_p.format('j')}"]
    body += ["            " + ln for ln in lines]
    body += [f"            y = {r}",
             f"        OUT[i] = {_ew.cast_expr('y', ct(ydt), ydt)}",
             "        i += step"]
    text = "\n".join(src) + "\n\n" + "\n".join(body) + "\n"
    name = _ew._kernel_name("polyval", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", _I64), Param("array", ydt, 1, "C"), Param("array", x_dt, 1, "C"),
              Param("array", p_dt, 1, "C")]
    return KernelSource(name, text, params)


def polyval(p, x):
    """``numpy.polyval``: ``p[0] * x**(N-1) + ... + p[N-1]`` by Horner's scheme (one kernel for
    1-d coefficients), with NumPy's dtypes and rounding at every step; a poly1d ``x`` gives
    the composed polynomial ``p(x(t))``."""
    p = _coeffs_of(p)
    if isinstance(x, poly1d):
        # NumPy's loop on poly1d arithmetic: the composition p(x(t)) as a poly1d
        y = 0
        for pv in p:
            y = y * x + pv
        return y
    x = asarray(x)
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    steps = _horner_steps(x.dtype, p.dtype) if p.ndim == 1 and p.shape[0] else None
    if steps is None:
        # NumPy's loop as it is: no coefficients, or rows of coefficients broadcasting
        if p.shape[0]:
            try:
                np.broadcast_shapes(x.shape, p.shape[1:])
            except ValueError:       # (NumPy's message of its first ``y * x + p[0]``)
                raise ValueError(f"operands could not be broadcast together with shapes "
                                 f"{c_shape_text(x.shape)} {c_shape_text(p.shape[1:])} ") from None
        y = zeros_like(x)
        for j in range(p.shape[0]):
            y = y * x + p[j]
        return y
    ydt = steps[-1]
    out = empty_array(x.shape, ydt)
    n = out.size
    if n:
        xc = x if x._c_contig else x.copy()
        pc = p if p._c_contig else p.copy()
        kern = compiler.get_kernel(("polyval", x.dtype, p.dtype),
                                   lambda: _render_polyval(x.dtype, p.dtype))
        vals = [n]
        for a in (out, xc, pc):
            vals += [0, 0, a.size, a.itemsize, a._ptr, a.size, a.itemsize]
        kern(*_ew._grid(n, 1), vals)
    return out


# ---- vander -----------------------------------------------------------------------------------
# element (i, k) of the matrix: x[i] to the power of its column's exponent, by repeated
# multiplication in the result dtype (NumPy's multiply.accumulate along the row)
_VANDER = {inc: _ew.ScalarOp.from_expr(("vander", inc), 3, (
    "c = x0 % x2\n"
    f"e = {'c' if inc else 'x2 - 1 - c'}\n"
    "r = type(x1)(1)\n"
    "if e > 0:\n"
    "    r = x1\n"
    "    for _ in range(e - 1):\n"
    "        r = r * x1\n"
    "return r")) for inc in (False, True)}


def vander(x, N=None, increasing=False):
    """``numpy.vander``: columns ``x**(N-1), ..., x, 1`` (reversed with ``increasing``)."""
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    N = len(x) if N is None else operator.index(N)     # (NumPy's shape argument's TypeError)
    dt = np.promote_types(x.dtype, _I64)
    out = empty((len(x), N), dtype=dt)
    if out.size:
        _ew.launch(_VANDER[bool(increasing)], [_ew.INDEX, x.reshape((len(x), 1)), np.int64(N)],
                   [_I64, dt, _I64], [out], [dt], name="vander")
    return out


# ---- coefficient helpers ----------------------------------------------------------------------
def _coeffs_of(p):
    """Coefficients as a device array: a poly1d's own, anything else through ``asarray``."""
    return p.coeffs if isinstance(p, poly1d) else asarray(p)


def _leading_true(*masks):
    """For each 1-d boolean mask, how many of its first elements are True (host ints).  The
    sizes NumPy's trimming gives depend on the values, so the counts are read back: all of
    them in one small transfer."""
    counts = [_argmin(m) + _all(m) * len(m) for m in masks if len(m)]
    got = iter(stack(counts).get().tolist() if counts else ())
    return [next(got) if len(m) else 0 for m in masks]


def _poly1d_coeffs(*objs):
    """The coefficients ``poly1d(obj)`` holds for each object: 1-d, leading zeros dropped (a
    lone zero if nothing is left); a poly1d's own unchanged."""
    cs = [o.coeffs if isinstance(o, poly1d) else atleast_1d(o) for o in objs]
    if any(c.ndim > 1 for c in cs):
        raise ValueError("Polynomial must be 1d only.")
    todo = [i for i, o in enumerate(objs) if not isinstance(o, poly1d)]
    for i, lead in zip(todo, _leading_true(*[cs[i] == 0 for i in todo])):
        c = cs[i][lead:]
        cs[i] = c if len(c) else zeros((1,), c.dtype)
    return cs


# ---- roots and coefficients -------------------------------------------------------------------
def poly(seq_of_zeros):
    """``numpy.poly``: coefficients of the monic polynomial with the given roots, or of a square
    matrix's characteristic polynomial; 1.0 for no roots."""
    z = atleast_1d(_coeffs_of(seq_of_zeros))
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = eigvals(z)
    elif z.ndim == 1:
        z = z.astype(np.dtype(np.mintypecode(z.dtype.char)))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    n = len(z)
    if n == 0:
        return 1.0
    dt = z.dtype
    # the factors (1, -z_k) as rows, multiplied in one at a time as NumPy does (same rounding)
    factors = concatenate((ones((n, 1), dt), (-z).reshape(n, 1)), axis=1)
    a = ones((1,), dt)
    for k in range(n):
        a = convolve(a, factors[k])
    if dt.kind == "c":
        from .sorting.functions import sort      # (sorting imports after this module)
        zc = z.astype(np.complex128)
        # NumPy's dtype depends on the roots: real when they come in conjugate pairs (one flag)
        if bool(_all(sort(zc) == sort(UFUNCS["conjugate"](zc)))):
            a = a.real.copy()
    return a


def roots(p):
    """``numpy.roots``: the roots of a polynomial (highest power first), as the eigenvalues of
    its companion matrix, with a zero root for each trailing zero coefficient."""
    p = atleast_1d(_coeffs_of(p))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    zero = p == 0
    # the companion matrix's size depends on where the nonzero coefficients start and end
    lead, trail = _leading_true(zero, zero[::-1])
    if lead == len(p):
        return zeros((0,), _F64)
    p = p[lead:len(p) - trail]
    if p.dtype.kind not in "fc":
        p = p.astype(_F64)
    n = len(p)
    if n > 1:
        comp = diag(ones((n - 2,), p.dtype), -1)
        comp[0, :] = -p[1:] / p[0]
        r = eigvals(comp)
    else:
        r = zeros((0,), _F64)
    return concatenate((r, zeros((trail,), r.dtype)))


# ---- calculus ---------------------------------------------------------------------------------
def polyint(p, m=1, k=None):
    """``numpy.polyint``: the ``m``-th antiderivative; ``k`` gives the integration constants
    (one for all steps, or one per step, the first step's first)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    if k is None:
        k = zeros((m,), _F64)
    k = atleast_1d(k)
    if len(k) == 1 and m > 1:
        k = k[0] * ones((m,), _F64)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    p = _coeffs_of(p)
    for j in range(m):
        p = concatenate((p / arange(len(p), 0, -1), k[j:j + 1]))
    return poly1d(p) if truepoly else p


def polyder(p, m=1):
    """``numpy.polyder``: the ``m``-th derivative."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    p = _coeffs_of(p)
    for _ in range(m):
        n = len(p) - 1       # (before indexing: len's TypeError for 0-d coefficients, as NumPy)
        p = p[:-1] * arange(n, 0, -1)
    if p.ndim != 1:
        # NumPy forms one derivative more than it returns; only for 0-d or n-d coefficients can
        # that raise (len's TypeError, a broadcasting ValueError), so only they repeat it
        n = len(p) - 1
        p[:-1] * arange(n, 0, -1)
    return poly1d(p) if truepoly else p


# ---- arithmetic -------------------------------------------------------------------------------
def _aligned(a1, a2):
    """The two coefficient arrays, the shorter one padded with leading zeros of its dtype."""
    a1, a2 = atleast_1d(_coeffs_of(a1)), atleast_1d(_coeffs_of(a2))
    diff = len(a2) - len(a1)
    if diff > 0:
        a1 = concatenate((zeros((diff,), a1.dtype), a1))
    elif diff < 0:
        a2 = concatenate((zeros((-diff,), a2.dtype), a2))
    return a1, a2


def polyadd(a1, a2):
    """``numpy.polyadd``: the sum of two polynomials (a poly1d if either is one)."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    b1, b2 = _aligned(a1, a2)
    val = b1 + b2
    return poly1d(val) if truepoly else val


def polysub(a1, a2):
    """``numpy.polysub``: the difference ``a1 - a2`` (a poly1d if either is one)."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    b1, b2 = _aligned(a1, a2)
    val = b1 - b2
    return poly1d(val) if truepoly else val


def polymul(a1, a2):
    """``numpy.polymul``: the product (a poly1d if either is one); as NumPy, leading zero
    coefficients are dropped first."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    val = convolve(*_poly1d_coeffs(a1, a2))
    return poly1d(val) if truepoly else val


def polydiv(u, v):
    """``numpy.polydiv``: quotient and remainder of ``u / v`` (poly1d's if either is one), in
    floating point; the remainder's leading terms close to zero are dropped."""
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    u = atleast_1d(_coeffs_of(u)) + 0.0
    v = atleast_1d(_coeffs_of(v)) + 0.0
    w = u[0] + v[0]
    m, n = len(u) - 1, len(v) - 1
    scale = 1.0 / v[0]
    q = zeros((max(m - n + 1, 1),), w.dtype)
    r = u.astype(w.dtype)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    # the remainder's length depends on its values: one read of how many terms to drop
    r = r[_leading_true(isclose(r[:-1], 0, rtol=1e-14))[0]:]
    if truepoly:
        return poly1d(q), poly1d(r)
    return q, r


# ---- least squares ----------------------------------------------------------------------------
def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """``numpy.polyfit``: least-squares coefficients of degree ``deg`` (a column per data set
    of a 2-d ``y``); ``full`` adds residuals, rank, singular values and rcond, ``cov`` the
    covariance matrix (``'unscaled'``: without the residual factor); ``w`` weights the
    points."""
    order = int(deg) + 1
    x = asarray(x) + 0.0
    y = asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = len(x) * np.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs *= w[:, None]
        rhs *= w[:, None] if rhs.ndim == 2 else w
    # columns scaled to unit length: a better conditioned problem for the SVD
    scale = UFUNCS["sqrt"](_sum(lhs * lhs, axis=0))
    lhs /= scale
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    vbase = inv(dot(lhs.T, lhs))
    vbase /= outer(scale, scale)
    if isinstance(cov, str) and cov == "unscaled":
        fac = 1
    else:
        if len(x) <= order:
            raise ValueError("the number of data points must exceed order to scale the "
                             "covariance matrix")
        fac = resids / (len(x) - order)
    return c, (vbase * fac if y.ndim == 1 else vbase[:, :, None] * fac)


# ---- poly1d -----------------------------------------------------------------------------------
class poly1d:
    """``numpy.poly1d``: a polynomial in one variable whose coefficients (highest power first)
    stay on the device.  Arithmetic, calls, ``deriv``, ``integ`` and ``roots`` give device
    results; ``repr`` and ``str`` read the coefficients to the host to print them."""

    __hash__ = None
    # NumPy's scalars and arrays leave their operators to this class's reflected ones
    __array_ufunc__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if set(c_or_r.__dict__) - set(self.__dict__):
                warnings.warn("In the future extra properties will not be copied across when "
                              "constructing one poly1d from another", FutureWarning,
                              stacklevel=2)
                self.__dict__.update(c_or_r.__dict__)
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        self._coeffs = _poly1d_coeffs(c_or_r)[0]
        self._variable = "x" if variable is None else variable

    # ---- attributes ----
    @property
    def coeffs(self):
        """The coefficients, highest power first (a device array)."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    @property
    def variable(self):
        """The name of the variable in the printed form."""
        return self._variable

    @property
    def order(self):
        """The degree: one less than the number of coefficients."""
        return len(self._coeffs) - 1

    @property
    def roots(self):
        """The roots (``numpy.roots`` of the coefficients)."""
        return roots(self._coeffs)

    r = roots
    c = coef = coefficients = coeffs
    o = order

    # ---- conversions and printing ----
    def __array__(self, t=None, copy=None):
        return self._coeffs.__array__(t, copy=copy)      # (the device array's TypeError)

    @property
    def __cuda_array_interface__(self):
        return self._coeffs.__cuda_array_interface__

    def __repr__(self):
        return f"poly1d({repr(self._coeffs.get())[6:-1]})"

    def __str__(self):
        # printing is explicit: NumPy's layout of the host copy
        return str(np.poly1d(self._coeffs.get(), variable=self._variable))

    def __len__(self):
        return self.order

    def __call__(self, val):
        return polyval(self._coeffs, val)

    # ---- arithmetic ----
    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if np.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other):
        if np.isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not np.isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res = [1]
        for _ in range(val):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if np.isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if np.isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(poly1d(other), self)

    # ---- comparison (device booleans, as the arrays' own comparisons) ----
    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return _all(self._coeffs == other._coeffs)

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return True
        return UFUNCS["logical_not"](_all(self._coeffs == other._coeffs))

    # ---- coefficients by power ----
    def __getitem__(self, val):
        ind = self.order - val
        if val > self.order or val < 0:
            return zeros((), self._coeffs.dtype)
        return self._coeffs[ind]

    def __setitem__(self, key, val):
        ind = self.order - key
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            pad = zeros((key - self.order,), self._coeffs.dtype)
            self._coeffs = concatenate((pad, self._coeffs))
            ind = 0
        self._coeffs[ind] = val

    def __iter__(self):
        return iter(self._coeffs)

    # ---- calculus ----
    def integ(self, m=1, k=0):
        """The ``m``-th antiderivative with integration constants ``k`` (see polyint)."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """The ``m``-th derivative (see polyder)."""
        return poly1d(polyder(self._coeffs, m=m))
