"""Building matrices: tri, tril, triu, diag, diagflat (eye and identity live in creation).

Each is one elementwise kernel over the element's linear index, or a view of a diagonal."""
import operator as _operator

import numpy as np

from ._codegen import elementwise as _ew
from ._core.dtypes import check_dtype
from ._core import copy as _copy
from ._core.ndarray import READONLY, empty_array
from .creation import _BOOL, _F64, _I64, _diagonal_view, _mn, _run, asarray, zeros
from .manipulation import broadcast_to


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """``out[i, j] = j <= i + k``: one INDEX kernel."""
    N, M = _mn(N, M)
    k = _operator.index(k)
    out = empty_array((N, M), check_dtype(_F64 if dtype is None else dtype))
    if out.size:
        _run("(x0 % x2) <= (x0 // x2) + x1", [_ew.INDEX, np.int64(k), np.int64(M)],
             [_I64, _I64, _I64], out, _BOOL, name="tri")
    return out


def _tri_mask(m, k, lower):
    a = asarray(m)
    if a.ndim < 2:
        raise ValueError(f"input array must be at least 2-d (got {a.ndim}-d)") if a.ndim else \
            ValueError("input array must be at least 1-d")
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