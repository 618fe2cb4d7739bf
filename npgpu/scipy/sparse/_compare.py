"""Comparisons ``==, !=, <, >, <=, >=`` as SciPy's ``_spbase._comparison``.

A scalar ``s`` with ``op(0, s)`` false keeps the pattern: ``op`` of the summed values, False
dropped (``_scalar_binopt``).  With ``op(0, s)`` true the result is mostly True: SciPy warns,
compares with the negated operator and subtracts that from an all-True matrix, so a NaN value
compared by ``<=``/``>=``/``==`` comes out True (its negation is False); reproduced here.
Sparse operands go through ``_ops.union`` the same way; dense operands give dense results.
The format of a sparse result is that of ``self`` when CSR/CSC, else CSR.
"""
import operator
import warnings

import numpy as np

from ._base import spbase, xp, is_dense, asdevice, SparseEfficiencyWarning

_SYM = {operator.eq: "==", operator.ne: "!=", operator.lt: "<", operator.gt: ">",
        operator.le: "<=", operator.ge: ">="}
_NEG = {operator.eq: operator.ne, operator.ne: operator.eq, operator.lt: operator.ge,
        operator.ge: operator.lt, operator.gt: operator.le, operator.le: operator.gt}
_UFUNC = {operator.eq: "equal", operator.ne: "not_equal", operator.lt: "less",
          operator.gt: "greater", operator.le: "less_equal", operator.ge: "greater_equal"}


def compare(a, other, op):
    from ._ops import _is_scalar
    X = xp()
    if _is_scalar(other):
        s = other.get()[()] if is_dense(other) else other    # a 0-d device array: one read
        if not op(0, s):
            if np.isnan(s):
                return type(a)(a.shape, dtype=np.bool_)
            return _scalar_binopt(_cs(a), s, op)
        warnings.warn(f"Comparing a sparse matrix with {other} using {_SYM[op]} is "
                      f"inefficient. Try using {_SYM[_NEG[op]]} instead.",
                      SparseEfficiencyWarning, stacklevel=3)
        if np.isnan(s):                                     # op is !=: all True
            return type(a)(X.ones(a.shape, dtype=np.bool_))
        cs = _cs(a)
        return _complement(cs, _scalar_binopt(cs, s, _NEG[op]))
    if isinstance(other, spbase):
        if a.shape != other.shape:
            if op in (operator.eq, operator.ne):           # SciPy: a Python bool
                return op is operator.ne
            raise ValueError("inconsistent shape")
        from ._ops import union
        cs = _cs(a)
        if not op(0, 0):
            return union(cs, other, getattr(X, _UFUNC[op]))
        warnings.warn(f"Comparing two sparse matrices using {_SYM[op]} is inefficient. Try "
                      f"using {_SYM[_NEG[op]]} instead.", SparseEfficiencyWarning, stacklevel=3)
        return _complement(cs, union(cs, other, getattr(X, _UFUNC[_NEG[op]])))
    if not is_dense(other):
        host = np.asanyarray(other)
        if host.ndim == 0 and host.dtype == object:        # not array-like: let Python decide
            return NotImplemented
        other = asdevice(host)
    return op(a.toarray(), other)


def _cs(a):
    return a if a.format in ("csr", "csc") else a.tocsr()


def _scalar_binopt(cs, s, op):
    """``op`` of the summed values (summed in place, as SciPy), False entries dropped."""
    cs.sum_duplicates()
    res = cs._with_data(getattr(xp(), _UFUNC[op])(cs.data, s))
    res.eliminate_zeros()
    return res


def _complement(cs, inv):
    """True everywhere but at the entries of ``inv`` (SciPy's ``all_true - inv``), in the
    class of ``cs``."""
    X = xp()
    dense = X.ones(cs.shape, dtype=np.bool_)
    c = inv.tocoo()
    dense[c.row, c.col] = False
    return type(cs)(dense)
