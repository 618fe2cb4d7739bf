"""``A[key] = x`` as SciPy's, on the device: the key validated as for indexing
(``_index.validate``), the targeted places made into two int64 arrays, then one merge of the
stored entries with the new ones -- the targeted places found among the stored ones by a
``searchsorted`` of flat positions, the kept and the new entries compressed again (CSR/CSC) or
appended (COO)."""
import numpy as np

from ._base import xp, spbase
from ._index import validate


def setitem(a, key, x):
    """``a[key] = x`` in place, as SciPy's CSR/CSC: every targeted place is stored (explicit
    zeros too; the last of repeated places wins), a sparse ``x`` first zeroes the targeted
    places and then stores its own entries; SparseEfficiencyWarning where places are added.
    ``coo_array`` as SciPy's: the targeted places are dropped, ``x``'s nonzeros appended."""
    X = xp()
    index, _, shape_x = validate(key, a.shape, a.format)
    row, col = index
    if a.format == "coo":
        _setitem_coo(a, row, col, shape_x, x)
        return
    if isinstance(row, int) and isinstance(col, int):
        # (NumPy's asarray with the dtype: a Python complex into a real matrix a TypeError)
        v = x.toarray() if isinstance(x, spbase) else X.asarray(x, dtype=a.dtype)
        if v.size != 1:
            raise ValueError("Trying to assign a sequence to an item")
        one = X.asarray([0], dtype=np.int64)
        _set_many(a, one + row, one + col, v.reshape(1).astype(a.dtype))
        return
    i, j = _places(row, col, a.shape)
    if isinstance(x, spbase):
        _set_sparse(a, i, j, x)
        return
    v = X.asarray(x, dtype=a.dtype)
    if v.squeeze().shape != i.squeeze().shape:
        # NumPy's error where the shapes do not broadcast
        np.broadcast_to(np.broadcast_to(np.zeros(()), v.shape), i.shape)
        v = X.broadcast_to(v, i.shape)
    if v.size == 0:
        return
    _set_many(a, i.reshape(-1), j.reshape(-1), X.ascontiguousarray(v).reshape(-1))


def _places(row, col, shape):
    """The targeted places of ``A[row, col] = x`` as two int64 device arrays of one shape
    (SciPy's: a slice of rows is a column, a slice of columns a row)."""
    X = xp()
    i, j = _axis_positions(row, shape[0]), _axis_positions(col, shape[1])
    if isinstance(row, slice):
        i = i[:, None]
    if isinstance(col, slice):
        j = j[None, :]
        if i.ndim == 1:
            i = i[:, None]
    both = np.broadcast_shapes(tuple(i.shape), tuple(j.shape))
    return X.broadcast_to(i, both), X.broadcast_to(j, both)


def _setitem_coo(a, row, col, shape, x):
    """SciPy's COO assignment: ``x`` broadcast to the index's ``shape``, the targeted places
    dropped, then ``x``'s nonzeros stored (an element's value even if zero), the first of
    repeated places kept."""
    X = xp()
    store = None
    if isinstance(x, spbase):
        if 0 in x.shape:
            return
        v = x.toarray().astype(a.dtype)
        c = x.tocoo()
        # x's stored places are stored, zeros among them too (a cast may make them zero)
        ones = X.ones(c.nnz, dtype=bool)
        store = type(c)._from_parts(ones, c.row, c.col, c.shape).toarray()
        xs = tuple(v.shape)
        while len(xs) > len(shape):         # SciPy squeezes a 2-d x's ends to a 1-d shape
            if xs[0] == 1:
                xs = xs[1:]
            elif xs[-1] == 1:
                xs = xs[:-1]
            else:
                raise ValueError("shape mismatch in assignment")
        if any(nx not in (1, nn) for nn, nx in zip(shape, xs)):
            raise ValueError("shape mismatch in assignment")
        v = X.broadcast_to(v.reshape(xs), shape)
        store = X.ascontiguousarray(X.broadcast_to(store.reshape(xs), shape)).reshape(-1)
    else:
        v = X.asarray(x, dtype=a.dtype)
        if v.size == 0:
            return
        if tuple(v.shape) != shape:
            # NumPy's error where the shapes do not broadcast
            np.broadcast_to(np.broadcast_to(np.zeros(()), v.squeeze().shape), shape)
            v = X.broadcast_to(v.squeeze(), shape)
    if isinstance(row, int) and isinstance(col, int):
        i, j = (X.asarray([k], dtype=np.int64) for k in (row, col))
    else:
        i, j = _places(row, col, a.shape)
    v = X.ascontiguousarray(v).reshape(-1)
    if shape == ():
        store = X.ones(1, dtype=bool)       # an element is stored even if zero
    _set_many(a, i.reshape(-1), j.reshape(-1), v, store=store)


def _axis_positions(k, n):
    """An index of one axis as an int64 device array of positions (1-d for an int)."""
    X = xp()
    if isinstance(k, slice):
        return X.arange(*k.indices(n), dtype=np.int64)
    if isinstance(k, int):
        return X.asarray([k], dtype=np.int64)
    return k


def _set_sparse(a, i, j, x):
    """SciPy's ``_set_arrayXarray_sparse``: zero the stored values at every place of (i, j),
    then store ``x``'s entries, ``x`` broadcast along a length-1 axis."""
    X = xp()
    if 0 in x.shape:
        return
    if i.ndim == 1:
        i, j = i[None], j[None]
    from ._coo1d import view2d
    c = x.tocoo() if x.ndim == 2 else view2d(x)         # SciPy's _shape_as_2d
    # a new object: summing its duplicates leaves x as it was
    c = type(c)._from_parts(c.data, c.row, c.col, c.shape, c.has_canonical_format)
    M, N = i.shape
    brow, bcol = c.shape[0] == 1 and M != 1, c.shape[1] == 1 and N != 1
    if not ((brow or c.shape[0] == M) and (bcol or c.shape[1] == N)):
        raise ValueError("shape mismatch in assignment")
    c.sum_duplicates()
    n = a.shape[1]
    _zero_at(a, (i.astype(np.int64) * n + j).reshape(-1))
    r, k, v = c.row.astype(np.int64), c.col.astype(np.int64), c.data.astype(a.dtype)
    if v.shape[0] == 0:
        return
    if brow:
        r, k, v = (X.repeat(X.arange(M, dtype=np.int64), r.shape[0]), X.tile(k, M),
                   X.tile(v, M))
    if bcol:
        r, k, v = X.repeat(r, N), X.tile(X.arange(N, dtype=np.int64), k.shape[0]), X.repeat(v, N)
    _set_many(a, i[r, k], j[r, k], v)


def _keys(a):
    c = a.tocoo()
    return c, c.row.astype(np.int64) * a.shape[1] + c.col.astype(np.int64)


def _member(sorted_keys, keys):
    """Whether each of ``keys`` is among ``sorted_keys`` (ascending)."""
    X = xp()
    if sorted_keys.shape[0] == 0:
        return X.zeros(keys.shape[0], dtype=bool)
    pos = X.minimum(X.searchsorted(sorted_keys, keys), sorted_keys.shape[0] - 1)
    return sorted_keys[pos] == keys


def _zero_at(a, tk):
    """The stored values at the flat places ``tk`` set to zero (no place added)."""
    X = xp()
    c, ek = _keys(a)
    hit = _member(X.sort(tk), ek)
    # CSR/CSC's COO view keeps their storage order: its values are theirs
    a.data = X.where(hit, X.zeros((), a.dtype), c.data)


def _set_many(a, i, j, v, store=None):
    """Store ``v`` at the places ``(i, j)`` (int64 device arrays; of a repeated place the last
    wins, for COO the first): stored values there are replaced, the other places added (for
    COO those flagged in ``store``, by default the nonzeros)."""
    X = xp()
    from ._coo import compress
    n = a.shape[1]
    tk = i.astype(np.int64) * n + j.astype(np.int64)
    order = X.argsort(tk, kind="stable")
    tk, v = tk[order], v[order]
    if store is not None:
        store = store[order]
    one = X.ones(tk.shape[0], dtype=bool)
    if a.format == "coo":
        one[1:] = tk[1:] != tk[:-1]
    else:
        one[:-1] = tk[1:] != tk[:-1]
    tk, v = tk[one], v[one]
    c, ek = _keys(a)
    hit = _member(tk, ek)
    if a.format == "coo":
        keep = ~hit
        new = v != 0 if store is None else store[one]
        a.row = X.concatenate([c.row[keep].astype(np.int64), (tk // n)[new]])
        a.col = X.concatenate([c.col[keep].astype(np.int64), (tk % n)[new]])
        a.data = X.concatenate([c.data[keep], v[new]])
        a._check()
        a.has_canonical_format = False
        return
    hits, places = (int(t) for t in X.stack([X.count_nonzero(hit),
                                             X.count_nonzero(_member(X.sort(ek), tk))]).get())
    if hits > places:                   # a place stored twice is targeted: SciPy sums first
        a.sum_duplicates()
        c, ek = _keys(a)
        hit = _member(tk, ek)
    if places < tk.shape[0]:
        import warnings
        from ._base import SparseEfficiencyWarning
        warnings.warn(f"Changing the sparsity structure of a {type(a).__name__} is "
                      "expensive. lil and dok are more efficient.", SparseEfficiencyWarning,
                      stacklevel=4)
    keep = ~hit
    rows = X.concatenate([c.row[keep].astype(np.int64), tk // n])
    cols = X.concatenate([c.col[keep].astype(np.int64), tk % n])
    data = X.concatenate([c.data[keep], v])
    major, minor = a._swap((rows, cols))
    canonical = a.has_canonical_format
    a.indptr, a.indices, a.data = compress(major, minor, data, *a._swap(a.shape),
                                           sum_duplicates=False)
    a.has_canonical_format = canonical
    a.has_sorted_indices = True
