"""``A[i]``, ``A[a:b]``, ``A[:, j]``, ``A[i, j]``: integers and slices (any step) on rows and
columns, by one mask over the COO entries and a remap of the kept ones (no host data); an
integer or boolean index array on one axis (``A[[3, 1, 3]]``, ``A[:, mask]``) gathers whole
rows (columns) of the CSR (CSC) arrays: their lengths' cumsum is the new ``indptr``, a
``searchsorted`` of every output position in it finds its source entry (one host read: the
new number of entries)."""
import operator

import numpy as np

from ._base import xp


def _index_array(k, dim, axis):
    """``k`` as an int64 device array of in-range indices, or None for an integer or slice."""
    if isinstance(k, slice) or k is Ellipsis:
        return None
    try:
        operator.index(k)
        return None
    except TypeError:
        pass
    X = xp()
    try:
        a = X.asarray(k)
    except (TypeError, ValueError):
        raise IndexError("npgpu.scipy.sparse supports integer, slice and integer or boolean "
                         "array indices only") from None
    if a.size == 0 and a.ndim == 1:
        a = a.astype(np.int64)          # [] indexes nothing (NumPy: an integer index)
    if a.dtype == np.bool_:
        if a.ndim != 1 or a.shape[0] != dim:
            raise IndexError(f"bool index {axis} has shape {(dim,)} instead of {a.shape}")
        return X.flatnonzero(a)
    if a.dtype.kind not in "iu" or a.ndim != 1:
        raise IndexError("npgpu.scipy.sparse supports integer, slice and 1-D integer or "
                         "boolean array indices only")
    a = a.astype(np.int64)
    if a.size:
        lo, hi = (int(v) for v in X.stack([a.min(), a.max()]).get())
        if lo < -dim or hi >= dim:
            raise IndexError(f"index ({hi if hi >= dim else lo}) out of range")
        a = X.where(a < 0, a + dim, a)
    return a


def _take_major(s, idx):
    """The major slices ``idx`` (int64 device array) of compressed ``s``, in that order."""
    X = xp()
    ip = s.indptr.astype(np.int64)
    start = X.take(ip, idx)
    indptr = X.concatenate([X.zeros(1, np.int64), X.cumsum(X.take(ip, idx + 1) - start)])
    nnz = int(indptr[-1].get())
    p = X.arange(nnz, dtype=np.int64)
    j = X.searchsorted(indptr, p, side="right") - 1
    src = X.take(start, j) + (p - X.take(indptr, j))
    shape = s._swap((idx.shape[0], s._swap(s.shape)[1]))
    return type(s)._from_parts(X.take(s.data, src), X.take(s.indices, src),
                               indptr.astype(s.indptr.dtype), shape, s.has_canonical_format)


def _norm(k, dim):
    """(range of kept indices, is_int) of one index on an axis of length ``dim``."""
    if isinstance(k, slice):
        return range(*k.indices(dim)), False
    try:
        i = operator.index(k)
    except TypeError:
        raise IndexError("npgpu.scipy.sparse supports integer, slice and integer or boolean "
                         "array indices only") from None
    if i < -dim or i >= dim:
        raise IndexError(f"index ({i}) out of range")
    i %= dim
    return range(i, i + 1), True


def _mask(idx, rg):
    """(kept flags, new index) of ``idx`` (int64) under the range ``rg``."""
    if rg.step > 0:
        inside = (idx >= rg.start) & (idx < rg.stop)
    else:
        inside = (idx <= rg.start) & (idx > rg.stop)
    rel = idx - rg.start
    if rg.step != 1:
        inside &= (rel % rg.step) == 0
    return inside, rel // rg.step


def getitem(a, key):
    if not isinstance(key, tuple):
        key = (key, slice(None))
    if len(key) == 1:
        key = (key[0], slice(None))
    if len(key) != 2:
        raise IndexError("too many indices for sparse matrix")
    if any(k is Ellipsis for k in key):
        key = tuple(slice(None) if k is Ellipsis else k for k in key)
    rows, cols = _index_array(key[0], a.shape[0], 0), _index_array(key[1], a.shape[1], 1)
    if rows is not None and cols is not None:
        raise IndexError("npgpu.scipy.sparse indexes with one index array at a time")
    if rows is not None or cols is not None:
        fmt = "csc" if a.format == "csc" else "csr"
        if rows is not None:
            got, rest = _take_major(a.tocsr(), rows), (slice(None), key[1])
        else:
            got, rest = _take_major(a.tocsc(), cols), (key[0], slice(None))
        if rest != (slice(None), slice(None)):
            got = getitem(got, rest)
        return got.asformat(fmt)
    (rr, ri), (cr, ci) = _norm(key[0], a.shape[0]), _norm(key[1], a.shape[1])
    X = xp()
    c = a.tocoo()
    r64, c64 = c.row.astype(np.int64), c.col.astype(np.int64)
    keep_r, nr = _mask(r64, rr)
    keep_c, nc = _mask(c64, cr)
    keep = keep_r & keep_c
    if ri and ci:
        return X.sum(X.where(keep, c.data, X.zeros((), c.dtype))).get()[()]
    from ._coo import coo_array, coo_matrix
    cls = coo_array if a._is_array else coo_matrix
    shape = (len(rr), len(cr))
    out = cls((c.data[keep], (nr[keep], nc[keep])), shape=shape)
    return out.asformat("csc" if a.format == "csc" else "csr")
