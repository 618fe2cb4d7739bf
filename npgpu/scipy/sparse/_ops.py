"""Elementwise operations, reductions and the diagonal, each on the COO/CSR view with npgpu's
array operations (no host round trip: only nnz-sized scalar reads).

Sparse (+, -, multiply, maximum, minimum) sparse is one union: both operands canonical, their
entries concatenated and sorted by (row, col) (``lexsort``), each run's first value combined
with its second (0 where the entry is in one operand only), zeros dropped (as SciPy's
``csr_binop_csr``).
"""
import math
import numbers

import numpy as np

from ...ufuncs.at import ufunc_at
from ._base import spbase, xp, is_dense, asdevice, check_dtype, index_dtype
from ._products import _family


def _is_scalar(x):
    return isinstance(x, numbers.Number) or np.isscalar(x) or (
        is_dense(x) and x.ndim == 0) or (isinstance(x, np.ndarray) and x.ndim == 0)


def _csr(a):
    c = a.tocsr()
    if c is a:
        c = c.copy()
    c.sum_duplicates()
    return c


def from_sorted(rows, cols, data, shape, like):
    """CSR (in ``like``'s family) of entries already sorted by (row, col), unique."""
    from ._base import index_dtype
    from ._compressed import csr_array, csr_matrix
    from ._coo import sorted_indptr
    idt = index_dtype(max(max(shape), data.shape[0]))
    indptr = sorted_indptr(rows, shape[0], idt)
    cls = csr_array if like._is_array else csr_matrix
    return cls._from_parts(data, cols.astype(idt, copy=False), indptr, shape, canonical=True)


def union(a, b, op, negate_b=False):
    """``op(a_value, b_value)`` over the union of the patterns (0 where one operand lacks the
    entry), nonzero results kept: ``op`` need not be symmetric (comparisons)."""
    X = xp()
    if a.shape != b.shape:
        raise ValueError(f"inconsistent shapes {a.shape} and {b.shape}")
    if a.format == "csc":
        # SciPy's result has a CSC operand's format: the union of the transposes (CSR views)
        return union(a.T, b.T, op, negate_b).T
    dt = np.result_type(a.dtype, b.dtype)
    A, B = _csr(a), _csr(b)
    bd = B.data.astype(dt, copy=False)
    if negate_b:
        bd = -bd
    r = X.concatenate([A._major_index().astype(np.int64), B._major_index().astype(np.int64)])
    c = X.concatenate([A.indices.astype(np.int64), B.indices.astype(np.int64)])
    d = X.concatenate([A.data.astype(dt, copy=False), bd])
    from_a = X.concatenate([X.ones(A.nnz, dtype=bool), X.zeros(B.nnz, dtype=bool)])
    n = d.shape[0]
    if n == 0:
        return from_sorted(r, c, op(d, d), a.shape, a)
    from ._coo import sort_order
    # the radix sort is stable: in a run of two, a's entry comes first
    perm = sort_order(r, c, *a.shape)
    r, c, d, from_a = r[perm], c[perm], d[perm], from_a[perm]
    same = X.zeros(n, dtype=bool)
    same[:-1] = (r[1:] == r[:-1]) & (c[1:] == c[:-1])
    start = X.ones(n, dtype=bool)
    start[1:] = ~same[:-1]
    zero = X.zeros((), dt)
    following = X.zeros(n, dtype=dt)
    following[:-1] = d[1:]
    av = X.where(from_a, d, zero)
    bv = X.where(same, following, X.where(from_a, zero, d))
    val = op(av, bv)
    keep = start & (val != 0)
    return from_sorted(r[keep], c[keep], val[keep], a.shape, a)


def add(a, other, sign):
    X = xp()
    if isinstance(other, spbase):
        if a.shape != other.shape:
            raise ValueError("inconsistent shapes")
        if a.format == "dia" and other.format == "csc" and sign > 0:
            return union(other, a, X.add)       # SciPy: DIA lets the other operand add
        return _dia_if_both(a, other, union(a, other, X.add, negate_b=sign < 0))
    if _is_scalar(other):
        if other == 0:
            return a.copy()
        what = "adding a nonzero scalar to" if sign > 0 else "subtracting a nonzero scalar from"
        raise NotImplementedError(f"{what} a sparse array is not supported")
    other = asdevice(other)
    try:
        np.broadcast_shapes(a.shape, other.shape)
    except ValueError:
        raise ValueError(f"inconsistent shapes {a.shape} and {other.shape}") from None
    return a.toarray() + other if sign > 0 else a.toarray() - other


def rsub(a, other):
    """``other - a``."""
    if _is_scalar(other) and other != 0:
        raise NotImplementedError("subtracting a sparse array from a nonzero scalar is not "
                                  "supported")
    if isinstance(other, spbase) or _is_scalar(other):
        return add(-a, other, 1)
    # dense: ``other - a.toarray()`` as SciPy (negating an unsigned ``a`` first would wrap)
    other = asdevice(other)
    try:
        np.broadcast_shapes(a.shape, other.shape)
    except ValueError:
        raise ValueError(f"inconsistent shapes {a.shape} and {other.shape}") from None
    return other - a.toarray()


def _dia_if_both(a, b, result):
    """SciPy 1.17's DIA arithmetic: two DIA operands give a DIA result."""
    return result.todia() if a.format == "dia" and b.format == "dia" else result


def scale(a, s):
    return a._with_data(a._data * s)


def divide(a, other):
    """``a / other`` as SciPy: by a scalar, the data times ``1 / other`` in float64 (complex
    types keep theirs); by a dense array, ``multiply`` by its reciprocal (sparse COO); by a
    sparse array, dense (0 / 0 is NaN where neither stores a value)."""
    X = xp()
    if isinstance(other, spbase):
        if other.shape != a.shape:
            raise ValueError("inconsistent shapes")
        dt = np.float64 if np.can_cast(a.dtype, np.float64) else a.dtype
        with np.errstate(divide="ignore", invalid="ignore"):
            return (a.toarray().astype(dt) / other.toarray()).astype(dt, copy=False)
    if not _is_scalar(other):
        return multiply(a, X.divide(1, asdevice(other)))
    if is_dense(other):                       # a 0-d device array: SciPy takes it as a scalar
        other = other.get()[()]
    r = 1 / other
    if np.can_cast(a.dtype, np.float64):
        return a._with_data(a._data.astype(np.float64) * r)
    return a._with_data(a._data * r)


def multiply(a, other):
    X = xp()
    if isinstance(other, spbase):
        if a.shape != other.shape:
            return _broadcast_multiply(a, other)
        return _dia_if_both(a, other, union(a, other, X.multiply))
    if _is_scalar(other):
        return scale(a, other)
    other = asdevice(other)
    try:
        ok = other.ndim <= 2 and np.broadcast_shapes(a.shape, other.shape) == a.shape
    except ValueError:
        ok = False
    if not ok:
        if a.format == "dia" and 0 not in a.shape + other.shape and 1 not in a.shape:
            raise ValueError("inconsistent shapes")         # DIA's own multiply
        raise ValueError(f"inconsistent shapes {a.shape} and {other.shape}")
    c = a.tocoo()
    vals = X.broadcast_to(other, a.shape)[c.row, c.col]
    out = type(c)._from_parts(c.data * vals, c.row, c.col, a.shape)
    return out.todia() if a.format == "dia" else out      # SciPy's formats: COO (DIA's own)


def _broadcast_multiply(a, b):
    """SciPy's ``_multiply_2d_with_broadcasting`` of two sparse operands of different shapes:
    a ``(1, 1)`` one scales, a row or a column scales through a diagonal matrix's product
    (whose format SciPy's result keeps), a row times a column is their outer product."""
    from ._products import spgemm
    if a.format in ("coo", "dia"):
        a = a.tocsr()                       # SciPy broadcasts through CSR
    if b.shape == (1, 1):
        return scale(a, b.toarray().get()[0, 0])
    if a.shape == (1, 1):
        return scale(b, a._deduped_data().sum().get()[()])
    (sM, sN), (oM, oN) = a.shape, b.shape
    if sM == 1 and oN == 1:
        return spgemm(b, a.tocsc())
    if sN == 1 and oM == 1:
        return spgemm(a, b.tocsc())
    if oM == 1 and sN == oN:
        return spgemm(a, _diagonal(b, a))
    if sM == 1 and sN == oN:
        return spgemm(b, _diagonal(a, a))
    if oN == 1 and sM == oM:
        return spgemm(_diagonal(b, a), a)
    if sN == 1 and sM == oM:
        return spgemm(_diagonal(a, a), b)
    raise ValueError(f"inconsistent shapes {a.shape} and {b.shape}")


def _diagonal(v, like):
    """The CSR matrix (array) with the values of the vector ``v`` on its diagonal."""
    X = xp()
    from ._compressed import csr_array, csr_matrix
    d = v.toarray().reshape(-1)
    n = d.shape[0]
    cls = csr_array if like._is_array else csr_matrix
    idt = index_dtype(n)
    return cls._from_parts(d, X.arange(n, dtype=idt), X.arange(n + 1, dtype=idt), (n, n),
                           canonical=True)


def extremum(a, other, name):
    X = xp()
    op = getattr(X, name)
    if isinstance(other, spbase):
        if a.shape != other.shape:
            raise ValueError(f"inconsistent shapes self.shape={a.shape} "
                             f"other.shape={other.shape}")
        return union(a, other, op)
    if _is_scalar(other):
        s = other.get()[()] if is_dense(other) else other
        if op(np.zeros((), a.dtype), s) == 0:
            c = _csr(a.T).T if a.format == "csc" else _csr(a)     # SciPy keeps CSC's format
            out = c._with_data(op(c.data, s))
            out.eliminate_zeros()
            return out
        import warnings
        from ._base import SparseEfficiencyWarning
        warnings.warn(f"Taking {name} with a {'positive' if name == 'maximum' else 'negative'}"
                      " number results in a dense matrix.", SparseEfficiencyWarning,
                      stacklevel=3)
        return _family(a, _dense_to_csr(op(a.toarray(), s), a)).asformat(a.format)
    return op(a.toarray(), asdevice(other))


def _dense_to_csr(d, like):
    from ._compressed import csr_array, csr_matrix
    return (csr_array if like._is_array else csr_matrix)(d)


def matrix_power(a, n):
    """SciPy's ``sparse.linalg.matrix_power``: ``A ** 0`` is ``eye_array`` (DIA, even for a
    matrix), ``A ** 1`` a copy, higher powers products (whose formats follow A's)."""
    from ._base import _intlike
    if a.shape[0] != a.shape[1]:
        raise TypeError("sparse matrix is not square")
    if not _intlike(n):
        raise ValueError("exponent must be an integer")
    n = int(n)
    if n < 0:
        raise ValueError("exponent must be >= 0")
    if n == 0:
        from ._construct import eye_array
        return eye_array(a.shape[0], dtype=a.dtype)
    if n == 1:
        return a.copy()
    half = matrix_power(a, n // 2)
    return a @ half @ half if n % 2 else half @ half


def rmatmul(a, other):
    from . import _products
    if isinstance(other, spbase):
        return _products.spgemm(other, a)
    other = asdevice(other)
    if other.ndim == 1:
        return _products.matmul(a.T, other)
    if other.ndim == 2:
        if other.shape[1] != a.shape[0]:
            # SciPy's message: that of a.T @ other.T
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={a.shape[0]}),"
                             f"(k={other.shape[1]},m)->(n,m)")
        return _products.matmul(a.T, other.T).T
    raise ValueError("matmul: dimension mismatch: only 1-d and 2-d operands")


# ---- reductions ----------------------------------------------------------------------------
def _axis(a, axis):
    """SciPy's ``validateaxis``: None (every axis; a 1-d array's only axis) or 0 or 1."""
    from ._minmax import validate_axis
    return validate_axis(axis, a.ndim)


def _sum_dtype(dt):
    return np.zeros(1, dt).sum().dtype


def _shape_result(a, out, axis):
    if a._is_array:
        return out
    return out.reshape((1, -1)) if axis == 0 else out.reshape((-1, 1))


def check_out(a, axis, out, minor_route=True):
    """SciPy's checks of ``sum``'s (and ``mean``'s) ``out``: the result's shape exactly (a
    matrix's total: ``(1, 1)``), else ValueError -- SciPy's own message where it checks,
    NumPy's where SciPy hands the reduction to NumPy (every total; CSR's row sums, CSC's
    column sums (``minor_route``), DIA's), found by running that reduction on broadcast zeros
    of the shapes."""
    if out is None:
        return
    matrix = not a._is_array
    if axis is None:
        want = (1, 1) if matrix else ()
    elif matrix:
        want = (1, a.shape[1]) if axis == 0 else (a.shape[0], 1)
    else:
        want = (a.shape[1 - axis],)
    if tuple(out.shape) == want:
        if not is_dense(out):
            raise TypeError(f"output must be an npgpu array, not {type(out).__name__}")
        return
    minor = minor_route and axis == {"csr": 1, "csc": 0}.get(a.format)
    if axis is not None and a.format != "dia" and not minor:
        raise ValueError("out dimensions do not match shape")
    if axis is None:
        # SciPy: np.sum of the values (a row for a matrix; DIA: of its row sums)
        n = 1 if a.format == "dia" else max(a._deduped_data().shape[0], 1)
        src = (a.shape[0], 1) if a.format == "dia" else ((1, n) if matrix else (n,))
        kw = {"axis": None}
    else:
        src, kw = want, {"axis": ()}
    kw["keepdims"] = matrix                 # np.matrix's reductions keep two dimensions
    try:
        np.add.reduce(np.broadcast_to(np.zeros(()), src), out=np.empty(out.shape), **kw)
    except ValueError as e:
        raise ValueError(str(e)) from None
    raise ValueError("out dimensions do not match shape")


def reduce_sum(a, axis=None, dtype=None, out=None, minor_route=True):
    """SciPy's ``sum``: over all, duplicates summed in place first, as SciPy."""
    X = xp()
    axis = _axis(a, axis)
    check_out(a, axis, out, minor_route)
    rdt = np.dtype(dtype) if dtype is not None else _sum_dtype(a.dtype)
    if axis is None and a.format != "dia":
        data = a._deduped_data()
        s = X.sum(data, dtype=rdt) if data.shape[0] else X.zeros((), rdt)
        if out is not None:
            out[...] = s
            return out
        return s
    c = a.tocoo()
    if axis is None:
        s = X.sum(c.data, dtype=rdt) if c.nnz else X.zeros((), rdt)
        if out is not None:
            out[...] = s
            return out
        return s
    length = a.shape[1 - axis]
    res = X.zeros(length, rdt)
    if c.nnz:
        ufunc_at(X.add, res, c.col if axis == 0 else c.row,
                 c.data.astype(rdt, copy=False), check=False)
    res = _shape_result(a, res, axis)
    if out is not None:
        out[...] = res
        return out
    return res


def mean(a, axis=None, dtype=None, out=None):
    """SciPy's steps: the values in float64 (integers, bool) or their own type, scaled by
    ``1 / n`` first, summed, then cast to ``dtype`` (unless ``out``)."""
    ax = _axis(a, axis)
    inter = np.dtype(np.float64) if a.dtype.kind in "biu" else a.dtype
    n = math.prod(a.shape) if ax is None else a.shape[ax]
    scaled = scale(a.astype(inter, copy=False), 1.0 / n)    # n == 0: SciPy's ZeroDivisionError
    # SciPy hands sum() its checked axis, a tuple: CSR/CSC then take the general route
    res = reduce_sum(scaled, ax, dtype=inter, out=out, minor_route=False)
    if dtype is not None and out is None:
        return res.astype(dtype, copy=False)
    return res


def diagonal(a, k=0):
    X = xp()
    m, n = a.shape
    length = min(m + min(k, 0), n - max(k, 0))
    if length <= 0:
        return X.zeros(0, a.dtype)
    c = a.tocoo()
    res = X.zeros(length, a.dtype)
    if c.nnz:
        on = (c.col.astype(np.int64) - c.row.astype(np.int64)) == k
        pos = (c.row if k >= 0 else c.col)[on]
        ufunc_at(X.add, res, pos, c.data[on], check=False)
    return res


def setdiag(a, values, k=0):
    X = xp()
    from ._coo import coo_array
    m, n = a.shape
    if (k > 0 and k >= n) or (k < 0 and -k >= m):
        raise ValueError("k exceeds array dimensions")
    length = min(m + min(k, 0), n - max(k, 0))
    vals = asdevice(values)
    check_dtype(vals.dtype)
    if vals.ndim == 0:
        vals = X.broadcast_to(vals, (length,))
    else:
        vals = vals.reshape(-1)[:length]
    nv = vals.shape[0]
    dt = a.dtype
    c = a.tocoo()
    r64, c64 = c.row.astype(np.int64), c.col.astype(np.int64)
    i = r64 if k >= 0 else c64
    keep = ~(((c64 - r64) == k) & (i < nv))
    idx = X.arange(nv, dtype=np.int64)
    rows = X.concatenate([r64[keep], idx + max(-k, 0)])
    cols = X.concatenate([c64[keep], idx + max(k, 0)])
    data = X.concatenate([c.data[keep], vals.astype(dt)])
    new = coo_array((data, (rows, cols)), shape=a.shape).asformat(a.format)
    a._assign(new)
