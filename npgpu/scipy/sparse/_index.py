"""``A[i]``, ``A[a:b]``, ``A[:, j]``, ``A[i, j]``: integers and slices (any step) on rows and
columns, by one mask over the COO entries and a remap of the kept ones (no host data)."""
import operator

import numpy as np

from ._base import xp


def _norm(k, dim):
    """(range of kept indices, is_int) of one index on an axis of length ``dim``."""
    if isinstance(k, slice):
        return range(*k.indices(dim)), False
    try:
        i = operator.index(k)
    except TypeError:
        raise IndexError("npgpu.scipy.sparse supports integer and slice indices only") \
            from None
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
