"""Building matrices: tri, tril, triu, diag, diagflat (eye and identity live in creation).

Each is one elementwise kernel over the element's linear index, or a view of a diagonal."""
import operator as _operator

import numpy as np

from . import _like
from ._codegen import elementwise as _ew
from ._core.dtypes import check_dtype
from ._core import copy as _copy
from ._core.ndarray import READONLY, empty_array
from .creation import _BOOL, _F64, _I64, _diagonal_view, _run, asarray, zeros
from .manipulation import broadcast_to


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """``out[i, j] = j <= i + k``: one INDEX kernel."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(tri, like, locals())
    dt = check_dtype(_F64 if dtype is None else dtype)
    try:
        N, M, k = (_operator.index(v) for v in (N, N if M is None else M, k))
    except TypeError:
        return _tri_numpy(N, M, k, dt)
    if N < 0 or M < 0:
        return _tri_numpy(N, M, k, dt)
    out = empty_array((N, M), dt)
    if out.size:
        _run("(x0 % x2) <= (x0 // x2) + x1", [_ew.INDEX, np.int64(k), np.int64(M)],
             [_I64, _I64, _I64], out, _BOOL, name="tri")
    return out


def _min_int(low, high):
    """NumPy's tri: the smallest integer type holding [low, high]."""
    for t in (np.int8, np.int16, np.int32):
        if np.iinfo(t).min <= low and high <= np.iinfo(t).max:
            return t
    return np.int64


def _tri_numpy(N, M, k, dt):
    """``tri`` of what NumPy's formula takes beyond non-negative integers (negative, float or
    NumPy-scalar ``N``, ``M``, ``k``): its two aranges (host scalars' ranges, of lengths N
    and M) compared on the device as NumPy's ``greater_equal.outer``."""
    from .ufuncs import UFUNCS
    if M is None:
        M = N
    rows = np.arange(N, dtype=_min_int(0, N))
    cols = np.arange(-k, M - k, dtype=_min_int(-k, M - k))
    ge = UFUNCS["greater_equal"](asarray(rows).reshape(-1, 1), asarray(cols).reshape(1, -1))
    return ge.astype(dt, copy=False)


def _tri_mask(m, k, lower):
    a = asarray(m)
    if a.ndim < 2:
        # a 0-d input: NumPy's class (its tri() is called with no N)
        raise ValueError(f"input array must be at least 2-d (got {a.ndim}-d)") if a.ndim else \
            TypeError("input array must be at least 1-d")
    n, mm = a.shape[-2], a.shape[-1]
    out = empty_array(a.shape, a.dtype)
    if out.size:
        cond = "<=" if lower else ">="
        zero = "False" if a.dtype.kind == "b" else f"{_ew.type_name(_ew.compute_dtype(a.dtype))}(0)"
        # the matrix shape is a parameter, not a literal: one kernel serves every shape
        expr = f"x1 if (x0 % x3) {cond} ((x0 // x3) % x4) + x2 else {zero}"
        _run(expr, [_ew.INDEX, a, np.int64(k), np.int64(mm), np.int64(n)],
             [_I64, a.dtype, _I64, _I64, _I64], out, name="tril" if lower else "triu")
    return out


def tril(m, k=0):
    a = asarray(m)
    if a.ndim < 2:
        a = broadcast_to(a, (a.shape[0], a.shape[0])) if a.ndim == 1 else a
    return _tri_mask(a, _operator.index(k), True)


def triu(m, k=0):
    a = asarray(m)
    if a.ndim == 1:
        a = broadcast_to(a, (a.shape[0], a.shape[0]))
    return _tri_mask(a, _operator.index(k), False)


def diag(v, k=0):
    v = asarray(v)
    k = _operator.index(k)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = zeros((n, n), v.dtype)
        if v.size:
            _copy.copy_into(_diagonal_view(out, k), v)
        return out
    if v.ndim == 2:
        d = _diagonal_view(v, k)
        d._ro = READONLY       # NumPy's diag of a 2-D array: a read-only view of the diagonal
        return d
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    v = asarray(v).ravel()
    return diag(v, k)