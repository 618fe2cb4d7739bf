"""max/min/nanmax/nanmin and argmax/argmin as SciPy's ``_minmax_mixin``, without densifying.

Over an axis every reduction runs on the lines (rows for axis 1, columns for axis 0) of a
canonical CSR (of the transpose for axis 0): ``ufunc.reduceat`` over the nonempty lines, an
implicit zero joining the extreme of a line with fewer stored values than its length (unless
``explicit``).  max/min give SciPy's sparse result: the nonzero extremes (NaN included) as a
1-d ``coo_array`` of the kept axis, or a ``(1, n)``/``(m, 1)`` ``coo_matrix``.
argmax/argmin take the first position holding the line's extreme and the first missing index of
the line (where ``indices`` differs from the position within the line), and choose between them
as SciPy does.  A 1-d COO array has one axis: it reduces as its ``(1, n)`` matrix over all.
"""
import operator

import numpy as np

from ._base import xp, index_dtype

_ARG = {"maximum": ("argmax", np.greater), "minimum": ("argmin", np.less)}


def validate_axis(axis, ndim=2):
    """SciPy's ``validateaxis``: None (all axes) or the one axis left (0 or 1)."""
    if axis is None:
        return None
    if axis == ():
        raise ValueError("sparse does not accept 0D axis (). Either use toarray (for dense) "
                         "or copy (for sparse).")
    if not isinstance(axis, tuple):
        if not np.issubdtype(np.dtype(type(axis)), np.integer):
            raise TypeError(f"axis must be an integer/tuple of ints, not {type(axis)}")
        axis = (axis,)
    canon = []
    for ax in axis:
        try:
            ax = operator.index(ax)
        except TypeError:
            raise TypeError(f"axis must be an integer. (given {ax})") from None
        ax = ax + ndim if ax < 0 else ax
        if not 0 <= ax < ndim:
            raise ValueError("axis out of range for ndim")
        canon.append(ax)
    if len(canon) != len(set(canon)):
        raise ValueError("duplicate value in axis")
    return None if len(canon) == ndim else canon[0]


def as_2d(a):
    """``a`` itself, or a 1-d COO array's ``(1, n)`` matrix (``_coo1d.view2d``)."""
    if a.ndim == 2:
        return a
    from ._coo1d import view2d
    return view2d(a)


def _lines(a, axis):
    """The canonical CSR whose rows are the lines reduced along ``axis``."""
    from ._ops import _csr
    return _csr(a.T if axis == 0 else a)


def _line_reduce(c, ufunc):
    """(counts, nonempty lines, their starts, ``ufunc`` of each nonempty line)."""
    X = xp()
    counts = X.diff(c.indptr)
    lines = X.nonzero(counts)[0]
    starts = c.indptr[lines]
    values = ufunc.reduceat(c.data, starts) if lines.shape[0] else c.data[:0]
    return counts, lines, starts, values


def extremum(a, axis, out, name, explicit):
    """max (``name`` maximum), min, nanmax (fmax), nanmin (fmin)."""
    X = xp()
    if out is not None:
        raise ValueError("Sparse min/max does not support an 'out' parameter.")
    axis = validate_axis(axis, a.ndim)
    a = as_2d(a)
    ufunc = getattr(X, name)
    zero = X.zeros((), a.dtype)
    if axis is None:
        if 0 in a.shape:
            raise ValueError("zero-size array to reduction operation")
        if a.nnz == 0:
            return zero
        c = _lines(a, 1)
        v = ufunc.reduce(c.data)
        if c.nnz != a.shape[0] * a.shape[1] and not explicit:
            v = ufunc(zero, v)
        return v
    if a.shape[axis] == 0:
        raise ValueError("zero-size array to reduction operation")
    c = _lines(a, axis)
    counts, lines, _, v = _line_reduce(c, ufunc)
    if not explicit:
        v = X.where(counts[lines] < c.shape[1], ufunc(v, zero), v)
    return _sparse_result(a, lines, v, axis)


def _sparse_result(a, lines, v, axis):
    """SciPy's COO of the line extremes ``v`` at ``lines`` (ascending): zeros dropped, NaN
    kept, int32 coordinates while the kept axis fits."""
    X = xp()
    from ._coo import coo_matrix
    m = a.shape[1 - axis]
    keep = v != 0
    idx = lines[keep].astype(index_dtype(m), copy=False)
    v = v[keep]
    if a._is_array:
        from ._coo1d import make
        return make(v, idx, m, canonical=True)
    zeros = X.zeros(idx.shape[0], idx.dtype)
    if axis == 0:
        return coo_matrix._from_parts(v, zeros, idx, (1, m), canonical=True)
    return coo_matrix._from_parts(v, idx, zeros, (m, 1), canonical=True)


def argextremum(a, axis, out, name, explicit):
    """argmax (``name`` maximum) or argmin: Python int over all, int64 per line."""
    fn, _ = _ARG[name]
    if out is not None:
        raise ValueError(f"Sparse {fn} does not support an 'out' parameter.")
    axis = validate_axis(axis, a.ndim)
    a = as_2d(a)
    if axis is not None:
        if a.shape[axis] == 0:
            raise ValueError(f"Cannot apply {fn} along a zero-sized dimension.")
        from ._ops import _shape_result
        return _shape_result(a, _arg_lines(_lines(a, axis), name, explicit), axis)
    if 0 in a.shape:
        raise ValueError(f"Cannot apply {fn} to an empty matrix.")
    if a.nnz == 0:
        if explicit:
            raise ValueError(f"Cannot apply {fn} to zero matrix when explicit=True.")
        return 0
    return _arg_all(_lines(a, 1), name, explicit)


def _arg_all(c, name, explicit):
    X = xp()
    fn, beyond = _ARG[name]
    k = int(getattr(X, fn)(c.data))
    if explicit:
        return k            # SciPy: the position among the stored values, not a flat index
    m, n = c.shape
    v = c.data[k].get()[()]
    flat = c._major_index().astype(np.int64) * n + c.indices.astype(np.int64)
    if beyond(v, 0) or c.nnz == m * n:
        return int(flat[k])
    # canonical: flat indices ascend, so the first implicit zero is where flat[i] != i
    missing = X.concatenate([flat != X.arange(c.nnz), X.ones(1, dtype=bool)])
    z = int(X.argmax(missing))
    return min(z, k) if v == 0 else z


def _arg_lines(c, name, explicit):
    X = xp()
    _, beyond = _ARG[name]
    nlines, size = c.shape
    ret = X.zeros(nlines, dtype=np.int64)
    counts, lines, starts, ext = _line_reduce(c, getattr(X, name))
    if lines.shape[0] == 0:
        return ret
    nnz = c.nnz
    major = c._major_index()
    pos = X.arange(nnz, dtype=np.int64)
    per_line = X.zeros(nlines, dtype=c.dtype)
    per_line[lines] = ext
    e = per_line[major]
    hit = c.data == e
    if c.dtype.kind in "fc":                    # argmax/argmin stop at the first NaN
        hit |= X.isnan(c.data) & X.isnan(e)
    first = X.minimum.reduceat(X.where(hit, pos, nnz), starts)
    col = c.indices[first].astype(np.int64)
    if explicit:
        ret[lines] = col
        return ret
    local = pos - c.indptr[major].astype(np.int64)
    gap = X.minimum.reduceat(X.where(c.indices != local, local, counts[major]), starts)
    zero = X.zeros((), c.dtype)
    take = getattr(X, beyond.__name__)(ext, zero) | (counts[lines] == size)
    # a stored extreme of 0 before the first gap sits at its own position (columns 0..k)
    fallback = X.where(ext == zero, X.minimum(first - starts, gap), gap)
    ret[lines] = X.where(take, col, fallback)
    return ret
