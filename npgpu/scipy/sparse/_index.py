"""``A[key]`` as SciPy's ``IndexMixin``: the key is validated as ``_validate_indices`` does
(Ellipsis, ``None``, integers, slices, integer and boolean arrays; SciPy's errors), then:

* integers, slices and one index array an axis select a submatrix: integers and slices (any
  step) by one mask over the COO entries and a remap of the kept ones (no host data); an
  index array on an axis (``A[[3, 1, 3]]``, ``A[:, mask]``) gathers whole rows (columns) of
  the CSR (CSC) arrays: their lengths' cumsum is the new ``indptr``, a ``searchsorted`` of
  every output position in it finds its source entry (one host read: the new number of
  entries); a column of row indices with a row of column indices is the same (outer);
* two index arrays of one broadcast shape pick single elements (inner): a ``searchsorted``
  of their flat positions in the canonical entries' ones; a 1-d pick is dense (a matrix's
  is one row, as NumPy's ``matrix``), a 2-d one sparse.

The result as SciPy packages it: a matrix stays two-dimensional; an array loses the axis of
an integer, so a row of a CSR array is a 1-d ``coo_array`` (SciPy's reshape of its 2-d
result).  CSR and CSC answer in their format, ``coo_array`` in COO; ``coo_matrix`` and DIA,
which SciPy does not index, answer in CSR."""
import operator

import numpy as np

from ._base import xp, spbase, is_dense, _intlike


# ---- SciPy's ``_validate_indices`` for a 2-d array ---------------------------------------
def _bool_index(k):
    """``k`` as an array when it is a boolean array (or a list starting with a bool)."""
    if not hasattr(k, "ndim"):
        try:
            first = next(iter(k), None)
            for _ in range(2):
                if isinstance(first, bool):
                    break
                first = next(iter(first), None)
            else:
                return None
        except TypeError:
            return None
        k = np.asanyarray(k)
    return k if k.dtype.kind == "b" else None


def _as_indices(k, n, fmt):
    """An integer index array as an int64 device array in ``[0, n)`` (SciPy's checks)."""
    X = xp()
    a = k
    if (fmt != "coo" and a.ndim not in (1, 2)) or (fmt == "coo" and a.ndim == 0):
        raise IndexError(f"Index dimension must be 1 or 2. Got {a.ndim}")
    if isinstance(a, np.ndarray) or (a.size != 0 and a.dtype.kind not in "iu"):
        # (a host array here holds a dtype npgpu refuses)
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if a.size == 0:
        return a.astype(np.int64)
    a = a.astype(np.int64)
    lo, hi = (int(v) for v in X.stack([a.min(), a.max()]).get())
    if hi >= n:
        raise IndexError(f"index ({hi}) out of range")
    if lo < -n:
        raise IndexError(f"index ({lo}) out of range")
    return X.where(a < 0, a + n, a) if lo < 0 else a


def validate(key, shape, fmt):
    """(index, new shape, that shape without the ``None`` axes): ``index`` two entries (an
    int, a slice or an int64 device array each), the shape as NumPy's rules give it."""
    if key is Ellipsis:
        return (slice(None), slice(None)), tuple(shape), tuple(shape)
    if not isinstance(key, tuple):
        key = [key]
    ellipsis, first, nd = None, [], 0
    for i, k in enumerate(key):
        if k is Ellipsis:
            if ellipsis is not None:
                raise IndexError("an index can only have a single ellipsis")
            ellipsis = i
        elif k is None:
            first.append(k)
        elif isinstance(k, slice) or _intlike(k):
            first.append(k)
            nd += 1
        elif (b := _bool_index(k)) is not None:
            first.append(b)
            nd += b.ndim
        elif isinstance(k, spbase):
            raise IndexError("Indexing with sparse matrices is not supported except boolean "
                             "indexing where matrix and index are equal shapes.")
        else:
            try:
                first.append(xp().asarray(k))
            except (ValueError, TypeError, MemoryError):
                # a dtype npgpu refuses ("foo"): the host array, for SciPy's dimension check
                try:
                    first.append(np.asarray(k))
                except (ValueError, TypeError, MemoryError):
                    raise IndexError("invalid index") from None
            nd += 1
    if nd > 2:
        raise IndexError("Too many indices for array or tuple index out of range. "
                         f"Key {key} needs {nd}D. Array is 2D")
    fill = [slice(None)] * (2 - nd)
    first = first + fill if ellipsis is None else first[:ellipsis] + fill + first[ellipsis:]
    X = xp()
    new_shape, index, arrays, arr_int = [], [], [], []
    for i, k in enumerate(first):
        ax = len(index)
        if k is None:
            new_shape.append(None)
        elif isinstance(k, slice):
            index.append(k)
            new_shape.append(len(range(*k.indices(shape[ax]))))
        elif _intlike(k):
            n, k = shape[ax], operator.index(k)
            if not -n <= k < n:
                raise IndexError(f"index ({k}) out of range")
            index.append(k + n if k < 0 else k)
            arr_int.append(ax)
        elif k.dtype.kind == "b":
            want = tuple(shape[ax:ax + k.ndim])
            if tuple(k.shape) != want:
                raise IndexError(f"bool index {i} has shape {want} instead of {k.shape}")
            # (a sparse boolean mask: its stored True places, as SciPy's ``nonzero``)
            for a in k.nonzero() if isinstance(k, spbase) else X.nonzero(X.asarray(k)):
                arrays.append(len(index))
                arr_int.append(len(index))
                index.append(a.astype(np.int64))
        else:
            arrays.append(ax)
            arr_int.append(ax)
            index.append(_as_indices(k, shape[ax], fmt))
    if arrays:
        shapes = [tuple(index[i].shape) for i in arrays]
        try:
            arr_shape = list(np.broadcast_shapes(*shapes))
        except ValueError:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                             f"with shapes {' '.join(str(s) for s in shapes)}") from None
        if len(arr_int) != arr_int[-1] - arr_int[0] + 1:
            new_shape = arr_shape + new_shape       # arrays apart: their axes go first
        else:
            pos = arr_int[0]
            new_shape = new_shape[:pos] + arr_shape + new_shape[pos:]
    return (tuple(index), tuple(1 if d is None else d for d in new_shape),
            tuple(d for d in new_shape if d is not None))


# ---- selection ------------------------------------------------------------------------------
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


def _everything(k):
    return isinstance(k, slice) and k == slice(None)


def _range(k, n):
    return range(k, k + 1) if isinstance(k, int) else range(*k.indices(n))


def _submatrix(a, row, col, fmt):
    """``a[row][:, col]`` for an int, a slice or a 1-d int64 device array on each axis: a 2-d
    sparse result in format ``fmt`` of ``a``'s family."""
    if is_dense(row):
        got = _take_major(a.tocsr(), row)
        if _everything(col):
            return got.asformat(fmt)
        return _submatrix(got, slice(None), col, fmt)
    if is_dense(col):
        got = _take_major(a.tocsc(), col)
        return got.asformat(fmt) if _everything(row) else _submatrix(got, row, slice(None), fmt)
    X = xp()
    rr, cr = _range(row, a.shape[0]), _range(col, a.shape[1])
    c = a.tocoo()
    keep_r, nr = _mask(c.row.astype(np.int64), rr)
    keep_c, nc = _mask(c.col.astype(np.int64), cr)
    keep = keep_r & keep_c
    from ._coo import coo_array, coo_matrix
    cls = coo_array if a._is_array else coo_matrix
    out = cls((c.data[keep], (nr[keep], nc[keep])), shape=(len(rr), len(cr)))
    return out.asformat(fmt)


def _element(a, i, j):
    """``a[i, j]`` (ints): the sum of the values stored there, a NumPy scalar of a's dtype."""
    X = xp()
    c = a.tocoo()
    hit = (c.row == i) & (c.col == j)
    return X.sum(X.where(hit, c.data, X.zeros((), c.dtype)), dtype=c.dtype).get()[()]


def _pick(a, row, col):
    """The values at the pairs ``(row[k], col[k])`` (int64 device arrays of one shape): a
    ``searchsorted`` of their flat positions in the canonical entries'."""
    X = xp()
    from ._ops import _csr
    n = a.shape[1]
    q = (row * n + col).reshape(-1)
    c = _csr(a)
    if c.nnz == 0:
        return X.zeros(q.shape[0], a.dtype)
    keys = c._major_index().astype(np.int64) * n + c.indices.astype(np.int64)
    pos = X.minimum(X.searchsorted(keys, q), c.nnz - 1)
    return X.where(keys[pos] == q, c.data[pos], X.zeros((), a.dtype))


def getitem(a, key):
    fmt = a.format if a.format in ("csr", "csc") or a._is_array else "csr"
    index, new_shape, _ = validate(key, a.shape, a.format)
    if len(new_shape) > 2:
        if fmt == "coo":
            raise NotImplementedError("npgpu's sparse arrays have one or two dimensions, not "
                                      f"{len(new_shape)} (SciPy's n-d coo_array)")
        raise IndexError("Indexing that leads to >2D is not supported by "
                         f"{a.format} format. Try converting to COO format")
    row, col = index
    if isinstance(row, int) and isinstance(col, int):
        res = _element(a, row, col)
    elif is_dense(row) and is_dense(col):
        res = _arrays(a, row, col, fmt)
    else:
        row, col = (k.reshape(-1) if is_dense(k) else k for k in (row, col))
        res = _submatrix(a, row, col, fmt)
    if isinstance(res, np.generic) and new_shape != ():
        # an element with None axes: a device array (SciPy's COO: a COO array)
        res = xp().asarray(res)
        if fmt == "coo":
            return type(a)(res.reshape(new_shape))
    if not a._is_array:
        if new_shape == () or (len(new_shape) == 1 and res.ndim != 0):
            return res
        if len(new_shape) == 1:
            new_shape = (1,) + new_shape
        return res if new_shape == res.shape else res.reshape(new_shape)
    return res if res.shape == new_shape else res.reshape(new_shape)


def _arrays(a, row, col, fmt):
    """Two index arrays: outer (a column of rows with a row of columns) or inner (picks)."""
    X = xp()
    if row.ndim == 2 and row.shape[1] == 1 and (col.ndim == 1 or col.shape[0] == 1):
        return _submatrix(a, row[:, 0], col.reshape(-1), fmt)
    shape = np.broadcast_shapes(row.shape, col.shape)
    row, col = X.broadcast_to(row, shape), X.broadcast_to(col, shape)
    cls = type(a) if a.format in ("csr", "csc") or a._is_array else _csr_class(a)
    if row.size == 0:
        return cls((1, 0) if len(shape) == 1 else shape, dtype=a.dtype)
    vals = _pick(a, row, col)
    if fmt == "coo":                        # SciPy's COO picks are sparse
        return cls(vals.reshape(shape))
    if len(shape) == 1:                     # dense; a matrix's as one row (np.matrix)
        return vals if a._is_array else vals.reshape((1, -1))
    return cls(vals.reshape(shape))


def _csr_class(a):
    from ._compressed import csr_array, csr_matrix
    return csr_array if a._is_array else csr_matrix
