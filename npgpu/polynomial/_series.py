"""What the six bases share: a :class:`Basis` holds one basis's primitives (``mulx``, ``mul``,
the derivative and integral steps, the companion matrix, the evaluation recurrence) and builds
every module function of ``numpy.polynomial.<basis>`` from them; :func:`export` names them as
NumPy does (``chebadd``, ``legval``...).

The steps follow NumPy's order of operations.  Where NumPy loops over coefficients writing
independent elements, the loop is one array operation; where each step reads the previous
one (derivatives of the Chebyshev, Legendre and Laguerre series, divisions), it stays a loop
of device operations over the (few) coefficients.
"""
import functools

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ..creation import asarray, zeros
from ..linalg import eigvals
from ..manipulation import moveaxis
from ..reductions import all as _all
from ..sorting.functions import sort
from . import _evaluate
from . import polyutils as pu

_F64 = np.dtype(np.float64)


def _col(values, c):
    """Host constants (a few small integers or floats) as a device column of ``c``'s dtype
    that broadcasts over ``c``'s trailing axes (Python scalars in NumPy's loop: weak)."""
    v = asarray(np.asarray(values).astype(c.dtype))
    return v.reshape((-1,) + (1,) * (c.ndim - 1))


def _ints(start, stop, c):
    return _col(np.arange(start, stop), c)


class Basis:
    """One basis: subclasses give the primitives, this class the functions built on them."""

    prefix = None                # "poly", "cheb", ...
    rec = None                   # its _evaluate.Recurrence
    maxpower = 16                # the ``*pow`` default
    domain = (-1.0, 1.0)
    x = (0, 1)                   # the coefficients of the series ``x``
    roots_flipped = True         # eigenvalues of the companion matrix flipped on both axes
    der_zero_moved = False       # hermeder's c[:1] * 0 keeps the moved axis (NumPy's)

    # ---- primitives a basis gives ----
    def line_parts(self, off, scl):
        return (off, scl)

    def _mulx(self, c):
        raise NotImplementedError

    def mul(self, c1, c2):
        raise NotImplementedError

    def _der_step(self, c, n):
        """The derivative (without the factor ``scl``) of ``c`` of length ``n + 1``."""
        raise NotImplementedError

    def _int_step(self, c, n):
        """The antiderivative of ``c`` of length ``n`` before its constant is fixed."""
        raise NotImplementedError

    def _companion(self, c, n):
        raise NotImplementedError

    def _root2(self, c):
        """The root of a series of degree 1 (a 0-d array)."""
        return -c[0] / c[1]

    # ---- functions ----
    def line(self, off, scl):
        return pu._line(off, scl, self.line_parts)

    def fromroots(self, roots):
        return pu._fromroots(self.line, self.mul, roots)

    def add(self, c1, c2):
        return pu._add(c1, c2)

    def sub(self, c1, c2):
        return pu._sub(c1, c2)

    def mulx(self, c):
        [c] = pu.as_series([c])
        # NumPy returns a lone zero unchanged: one read of that flag for length-1 series
        if len(c) == 1 and bool((c[0] == 0).get()):
            return c
        return self._mulx(c)

    def div(self, c1, c2):
        return pu._div(self.mul, c1, c2)

    def pow(self, c, pow, maxpower=None):
        return pu._pow(self.mul, c, pow, maxpower)

    def val(self, x, c, tensor=True):
        return _evaluate.evaluate(self.rec, x, c, tensor)

    def val2d(self, x, y, c):
        return pu._valnd(self.val, c, x, y)

    def val3d(self, x, y, z, c):
        return pu._valnd(self.val, c, x, y, z)

    def grid2d(self, x, y, c):
        return pu._gridnd(self.val, c, x, y)

    def grid3d(self, x, y, z, c):
        return pu._gridnd(self.val, c, x, y, z)

    def vander(self, x, deg):
        return _evaluate.vander(self.rec, x, deg)

    def vander2d(self, x, y, deg):
        return pu._vander_nd_flat((self.vander, self.vander), (x, y), deg)

    def vander3d(self, x, y, z, deg):
        return pu._vander_nd_flat((self.vander,) * 3, (x, y, z), deg)

    def fit(self, x, y, deg, rcond=None, full=False, w=None):
        return pu._fit(self.vander, x, y, deg, rcond, full, w)

    def trim(self, c, tol=0):
        return pu.trimcoef(c, tol)

    def companion(self, c):
        [c] = pu.as_series([c])
        if len(c) < 2:
            raise ValueError("Series must have maximum degree of at least 1.")
        if len(c) == 2:
            return self._root2(c).reshape(1, 1)
        return self._companion(c, len(c) - 1)

    def roots(self, c):
        [c] = pu.as_series([c])
        if len(c) < 2:
            return zeros((0,), c.dtype)
        if len(c) == 2:
            return self._root2(c).reshape(1)
        m = self._companion(c, len(c) - 1)
        if self.roots_flipped:
            m = m[::-1, ::-1]
        return sort(eigvals(m))

    def der(self, c, m=1, scl=1, axis=0):
        c = pu._as_coeffs(c, copy=True)
        cnt = pu._as_int(m, "the order of derivation")
        iaxis = pu._as_int(axis, "the axis")
        if cnt < 0:
            raise ValueError("The order of derivation must be non-negative")
        iaxis = normalize_axis_index(iaxis, c.ndim)
        if cnt == 0:
            return c
        c = moveaxis(c, iaxis, 0)
        n = len(c)
        if cnt >= n:
            c = c[:1] * 0
            if self.der_zero_moved:
                return c
        else:
            for _ in range(cnt):
                n = n - 1
                c *= scl
                c = self._der_step(c, n)
        return moveaxis(c, 0, iaxis)

    def integ(self, c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006 (NumPy's signature)
        c = pu._as_coeffs(c, copy=True)
        if not np.iterable(k):
            k = [k]
        cnt = pu._as_int(m, "the order of integration")
        iaxis = pu._as_int(axis, "the axis")
        if cnt < 0:
            raise ValueError("The order of integration must be non-negative")
        if len(k) > cnt:
            raise ValueError("Too many integration constants")
        if np.ndim(lbnd) != 0:
            raise ValueError("lbnd must be a scalar.")
        if np.ndim(scl) != 0:
            raise ValueError("scl must be a scalar.")
        iaxis = normalize_axis_index(iaxis, c.ndim)
        if cnt == 0:
            return c
        c = moveaxis(c, iaxis, 0)
        k = list(k) + [0] * (cnt - len(k))
        for i in range(cnt):
            n = len(c)
            c *= scl
            # a zero constant series only takes its constant: one read of that flag
            if n == 1 and bool(_all(c[0] == 0).get()):
                c[0] += k[i]
            else:
                tmp = self._int_step(c, n)
                tmp[0] += k[i] - self.val(lbnd, tmp)
                c = tmp
        return moveaxis(c, 0, iaxis)

    # ---- conversion from and to power series (NumPy's loops over the coefficients) ----
    def _poly_short(self, c):
        """The power series of a short series ``c`` (None: the recurrence decides)."""
        return c if len(c) < 3 else None

    def _poly_step(self, ck, c0, c1, i, P):
        """One step of the recurrence building the power series (``P``: its module)."""
        raise NotImplementedError

    def _poly_last(self, c0, c1, P):
        return P.polyadd(c0, P.polymulx(c1))

    def to_poly(self, c):
        from . import polynomial as P
        [c] = pu.as_series([c])
        short = self._poly_short(c)
        if short is not None:
            return short
        c0, c1 = c[-2], c[-1]
        for i in range(len(c) - 1, 1, -1):
            c0, c1 = self._poly_step(c[i - 2], c0, c1, i, P)
        return self._poly_last(c0, c1, P)

    def from_poly(self, pol):
        [pol] = pu.as_series([pol])
        res = 0
        for i in range(len(pol) - 1, -1, -1):
            res = self.add(self.mulx(res), pol[i])
        return res


def _named(f, name, module):
    @functools.wraps(f)
    def g(*args, **kwargs):
        return f(*args, **kwargs)
    g.__name__ = g.__qualname__ = name
    g.__module__ = module
    return g


# module function suffix -> Basis method
_FUNCS = {"line": "line", "fromroots": "fromroots", "add": "add", "sub": "sub",
          "mulx": "mulx", "mul": "mul", "div": "div", "pow": "pow", "val": "val",
          "val2d": "val2d", "val3d": "val3d", "grid2d": "grid2d", "grid3d": "grid3d",
          "vander": "vander", "vander2d": "vander2d", "vander3d": "vander3d", "fit": "fit",
          "trim": "trim", "companion": "companion", "roots": "roots", "der": "der",
          "int": "integ"}


def export(ns, basis, module):
    """Put ``<prefix><suffix>`` functions of ``basis`` into the module namespace ``ns``; return
    their names."""
    p = basis.prefix
    funcs = {p + suffix: meth for suffix, meth in _FUNCS.items()}
    if p != "poly":
        funcs.update({"poly2" + p: "from_poly", p + "2poly": "to_poly"})
    for name, meth in funcs.items():
        ns[name] = _named(getattr(basis, meth), name, module)
    return list(funcs) + [p + "zero", p + "one", p + "x", p + "domain"]


def constants(basis, name):
    """The module constants (``chebzero``, ``chebone``, ``chebx``, ``chebdomain``) as device
    arrays, made on first use (importing npgpu touches no device)."""
    p = basis.prefix
    table = {p + "zero": (np.array([0]),), p + "one": (np.array([1]),),
             p + "x": (np.array(basis.x),), p + "domain": (np.array(basis.domain),)}
    if name not in table:
        return None
    return asarray(table[name][0])


def module_getattr(ns, basis, module):
    """A module ``__getattr__`` making the constants on first use and keeping them."""
    def __getattr__(name):
        v = constants(basis, name)
        if v is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        ns[name] = v
        return v
    return __getattr__
