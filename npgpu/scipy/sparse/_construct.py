"""Building sparse matrices: eye, identity, diags, random, kron, hstack, vstack, tril, triu
(SciPy's ``scipy.sparse._construct``).  Each assembles COO entries with npgpu array
operations and converts to the requested format once."""
import numbers

import numpy as np

from ._base import spbase, xp, check_dtype, asdevice
from ._coo import coo_array, coo_matrix


def _coo_cls(is_array):
    return coo_array if is_array else coo_matrix


def _diag_entries(diagonals, offsets, shape, dtype):
    X = xp()
    m, n = shape
    rows, cols, vals = [], [], []
    for j, (d, k) in enumerate(zip(diagonals, offsets)):
        k = int(k)
        # SciPy's length: a diagonal of none is allowed, a longer one cut
        length = min(m + k, n - k, m, n)
        if length < 0:
            raise ValueError(f"Offset {k} (index {j}) out of bounds")
        d = asdevice(d)
        if d.ndim == 0 or d.shape[0] == 1:
            d = X.broadcast_to(d.reshape(-1), (length,))
        elif d.shape[0] < length:
            raise ValueError(f"Diagonal length (index {j}: {d.shape[0]} at offset {k}) does "
                             f"not agree with array size ({m}, {n}).")
        d = d[:length]
        idx = X.arange(length, dtype=np.int64)
        rows.append(idx + max(-k, 0))
        cols.append(idx + max(k, 0))
        vals.append(d.astype(dtype))
    if not vals:
        return (X.zeros(0, dtype), (X.zeros(0, np.int64), X.zeros(0, np.int64)))
    return (X.concatenate(vals), (X.concatenate(rows), X.concatenate(cols)))


def _diags(diagonals, offsets, shape, format, dtype, is_array):
    if isinstance(offsets, numbers.Integral) or np.ndim(offsets) == 0:
        diagonals, offsets = [diagonals], [int(offsets)]
    else:
        offsets = [int(o) for o in offsets]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if shape is None:
        m = len(diagonals[0]) + abs(int(offsets[0]))
        shape = (m, m)
    if dtype is None or dtype is _NoValue:
        dts = [asdevice(d).dtype for d in diagonals]
        future = np.result_type(*dts)
        if dtype is None:
            dtype = future
        else:
            # SciPy 1.17's default (deprecated): np.common_type, so ints give float64
            dtype = np.dtype(np.common_type(*[np.empty(0, d) for d in dts]))
            if dtype != future:
                import warnings
                warnings.warn(f"Input has data type {future}, but the output has been cast to "
                              f"{dtype}.  In the future, the output data type will match the "
                              "input. To avoid this warning, set the `dtype` parameter to "
                              "`None` to have the output dtype match the input, or set it to "
                              "the desired output data type.", FutureWarning, stacklevel=3)
    dtype = check_dtype(dtype)
    entries = _diag_entries(diagonals, offsets, shape, dtype)
    c = _coo_cls(is_array)(entries, shape=shape)
    return c.asformat(format or "dia")


class _NoValueType:
    """SciPy's ``_NoValue``: ``dtype`` not given (its deprecated common_type default)."""

    def __repr__(self):
        return "<no value>"


_NoValue = _NoValueType()


def diags(diagonals, offsets=0, shape=None, format=None, dtype=_NoValue):
    """Sparse matrix from diagonals (``scipy.sparse.diags``)."""
    return _diags(diagonals, offsets, shape, format, dtype, False)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=_NoValue):
    return _diags(diagonals, offsets, shape, format, dtype, True)


def spdiags(data, diags, m=None, n=None, format=None):
    data = asdevice(data)
    if m is None and n is None:             # SciPy's: square, of the diagonals' length
        m = n = data.shape[-1]
    shape = (m, n) if n is not None else m
    from ._dia import dia_matrix
    return dia_matrix((data, diags), shape=shape).asformat(format)


def _eye(m, n, k, dtype, format, is_array):
    n = m if n is None else n
    dtype = check_dtype(dtype)
    length = min(m + k, n - k, m, n)           # SciPy's (through diags)
    cls = _coo_cls(is_array)
    if length < 0:
        raise ValueError(f"Offset {k} (index 0) out of bounds")
    if length == 0:
        return cls((m, n), dtype=dtype).asformat(format or "dia")
    ones = xp().ones(length, dtype=dtype)
    return cls(_diag_entries([ones], [k], (m, n), dtype), shape=(m, n)).asformat(
        format or "dia")


def eye(m, n=None, k=0, dtype=float, format=None):
    """Ones on diagonal ``k`` (``scipy.sparse.eye``)."""
    return _eye(m, n, k, dtype, format, False)


def eye_array(m, n=None, *, k=0, dtype=float, format=None):
    return _eye(m, n, k, dtype, format, True)


def identity(n, dtype="d", format=None):
    return _eye(n, n, 0, dtype, format, False)


def random(m, n, density=0.01, format="coo", dtype=None, rng=None, data_rvs=None,
           random_state=None):
    """A random sparse matrix: SciPy draws it on the host (the same entries as
    ``scipy.sparse.random`` for the same seed), one host-to-device copy."""
    import scipy.sparse as ss
    kw = {"rng": rng} if rng is not None else {"random_state": random_state}
    h = ss.random(m, n, density=density, format="coo", dtype=dtype, data_rvs=data_rvs, **kw)
    return coo_matrix(h).asformat(format)


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None, data_sampler=None,
                 random_state=None):
    import scipy.sparse as ss
    kw = {"rng": rng} if rng is not None else {"random_state": random_state}
    h = ss.random_array(shape, density=density, format="coo", dtype=dtype,
                        data_sampler=data_sampler, **kw)
    return coo_array(h).asformat(format)


def _as_sparse(x):
    if isinstance(x, spbase):
        return x
    return coo_matrix(x)


def _any_array(*xs):
    """SciPy's rule for a constructor's result: an array if any operand is a sparse array."""
    return any(isinstance(x, spbase) and x._is_array for x in xs)


def kron(A, B, format=None):
    """Kronecker product of sparse (or dense) ``A`` and ``B`` (COO unless ``format``; SciPy
    answers a dense-ish ``B`` with BSR, which npgpu does not have)."""
    a, b = _as_sparse(A).tocoo(), _as_sparse(B).tocoo()
    mb, nb = b.shape
    shape = (a.shape[0] * mb, a.shape[1] * nb)
    dt = np.result_type(a.dtype, b.dtype)
    cls = _coo_cls(_any_array(A, B))
    ar, ac = a.row.astype(np.int64).reshape((-1, 1)), a.col.astype(np.int64).reshape((-1, 1))
    rows = (ar * mb + b.row.astype(np.int64)).reshape(-1)
    cols = (ac * nb + b.col.astype(np.int64)).reshape(-1)
    data = (a.data.astype(dt).reshape((-1, 1)) * b.data.astype(dt)).reshape(-1)
    return cls((data, (rows, cols)), shape=shape).asformat(format or "coo")


def kronsum(A, B, format=None):
    """``kron(I_m, A) + kron(B, I_n)`` (SciPy's; CSR unless ``format``)."""
    is_array = _any_array(A, B)
    a, b = _coo_cls(is_array)(A), _coo_cls(is_array)(B)
    if a.shape[0] != a.shape[1]:
        raise ValueError("A is not square")
    if b.shape[0] != b.shape[1]:
        raise ValueError("B is not square")
    dt = np.result_type(a.dtype, b.dtype)
    eye_ = eye_array if is_array else identity
    L = kron(eye_(b.shape[0], dtype=dt), a, format="coo")
    R = kron(b, eye_(a.shape[0], dtype=dt), format="coo")
    return (L + R).asformat(format)


def _block(blocks, format, dtype, is_array):
    """SciPy's ``_block``: a 2-d grid of sparse or dense blocks (None: empty) assembled from
    their COO entries on the device.  All-CSR (all-CSC) grids give CSR (CSC) with SciPy's
    stacking messages, others COO (or ``format``)."""
    X = xp()
    grid = _grid(blocks)
    M, N = grid.shape
    for fmt, axis in (("csr", 0), ("csc", 1)):
        if format in (None, fmt) and grid.size and all(
                isinstance(b, spbase) and b.format == fmt for b in grid.flat):
            _check_compressed(grid, axis)
            format = fmt
            break
    cls = _coo_cls(is_array)
    brow, bcol = np.zeros(M, np.int64), np.zeros(N, np.int64)
    for i in range(M):
        for j in range(N):
            if grid[i, j] is None:
                continue
            b = grid[i, j] = grid[i, j] if isinstance(grid[i, j], spbase) else coo_array(
                grid[i, j])
            r, c = b.shape
            if brow[i] == 0:
                brow[i] = r
            elif brow[i] != r:
                raise ValueError(f"blocks[{i},:] has incompatible row dimensions. Got "
                                 f"blocks[{i},{j}].shape[0] == {r}, expected {brow[i]}.")
            if bcol[j] == 0:
                bcol[j] = c
            elif bcol[j] != c:
                raise ValueError(f"blocks[:,{j}] has incompatible column dimensions. Got "
                                 f"blocks[{i},{j}].shape[1] == {c}, expected {bcol[j]}.")
    present = [(i, j) for i in range(M) for j in range(N) if grid[i, j] is not None]
    if dtype is not None:
        dt = check_dtype(dtype)
    elif present:
        dt = np.result_type(*[grid[i, j].dtype for i, j in present])
    else:
        dt = np.dtype(np.float64)
    roff, coff = np.concatenate([[0], np.cumsum(brow)]), np.concatenate([[0], np.cumsum(bcol)])
    shape = (int(roff[-1]), int(coff[-1]))
    rows, cols, vals = [X.zeros(0, np.int64)], [X.zeros(0, np.int64)], [X.zeros(0, dt)]
    for i, j in present:
        c = grid[i, j].tocoo()
        rows.append(c.row.astype(np.int64) + int(roff[i]))
        cols.append(c.col.astype(np.int64) + int(coff[j]))
        vals.append(c.data.astype(dt))
    out = cls((X.concatenate(vals), (X.concatenate(rows), X.concatenate(cols))), shape=shape)
    return out.asformat(format)


def _grid(blocks):
    """``blocks`` as a 2-d object array (each block kept whole, dense ones too)."""
    # a row is a list, tuple or object array (a sparse or dense block is not a row)
    if isinstance(blocks, spbase) or any(
            isinstance(r, spbase) or not isinstance(r, (list, tuple, np.ndarray))
            for r in blocks):
        raise ValueError("blocks must be 2-D")
    rows = [list(r) for r in blocks]
    n = len(rows[0]) if rows else 0
    if any(len(r) != n for r in rows):
        raise ValueError("blocks must be 2-D")
    grid = np.empty((len(rows), n), dtype=object)
    for i, r in enumerate(rows):
        for j, b in enumerate(r):
            grid[i, j] = b
    return grid


def _check_compressed(grid, axis):
    """SciPy's checks of an all-CSR (``axis`` 0) or all-CSC (1) grid: the lines of blocks
    along the minor axis first (a set of the mismatching sizes), then the major stack."""
    other = 1 - axis
    lines = [grid[i, :] for i in range(grid.shape[0])] if axis == 0 else \
        [grid[:, j] for j in range(grid.shape[1])]
    if grid.shape[other] > 1:
        for line in lines:
            dims = {b.shape[axis] for b in line}
            if len(dims) > 1:
                raise ValueError(f"Mismatching dimensions along axis {axis}: {dims}")
    want = sum(b.shape[other] for b in lines[0])
    for line in lines:
        if sum(b.shape[other] for b in line) != want:
            raise ValueError(f"incompatible dimensions for axis {other}")


def hstack(blocks, format=None, dtype=None):
    return _block([list(blocks)], format, dtype, _any_array(*blocks))


def vstack(blocks, format=None, dtype=None):
    return _block([[b] for b in blocks], format, dtype, _any_array(*blocks))


def bmat(blocks, format=None, dtype=None):
    """Sparse matrix from a 2-d grid of blocks (``None``: zeros)."""
    return _block(blocks, format, dtype, _any_array(*[b for r in blocks for b in r]))


def block_array(blocks, *, format=None, dtype=None):
    return _block(blocks, format, dtype, True)


def block_diag(mats, format=None, dtype=None):
    """The blocks ``mats`` (sparse, dense, lists or numbers) along the diagonal: COO unless
    ``format``; a dense array's zeros are stored, as SciPy's."""
    from ._coo import _is_scipy_sparse
    X = xp()
    rows, cols, vals = [X.zeros(0, np.int64)], [X.zeros(0, np.int64)], []
    r0 = c0 = 0
    for a in mats:
        if isinstance(a, (list, numbers.Number)):
            a = coo_array(asdevice(np.atleast_2d(a)))        # SciPy's: its zeros dropped
        if isinstance(a, spbase) or _is_scipy_sparse(a):
            c = (a if isinstance(a, spbase) else coo_array(a)).tocoo()
        else:
            d = asdevice(a)
            m, n = d.shape
            idx = X.arange(m * n, dtype=np.int64)
            c = coo_array._from_parts(d.reshape(-1), idx // max(n, 1), idx % max(n, 1), (m, n))
        rows.append(c.row.astype(np.int64) + r0)
        cols.append(c.col.astype(np.int64) + c0)
        vals.append(c.data)
        m, n = c.shape if c.ndim == 2 else (1, c.shape[0])     # a 1-d array: one row
        r0, c0 = r0 + m, c0 + n
    data = X.concatenate(vals) if vals else X.zeros(0)
    out = _coo_cls(_any_array(*mats))((data, (X.concatenate(rows), X.concatenate(cols))),
                                      shape=(r0, c0), dtype=dtype)
    return out.asformat(format)


def find(A):
    """(row, col, values) of the nonzero entries of ``A`` after duplicates are summed, sorted
    by row and column (SciPy's ``find``; ``A`` untouched)."""
    c = coo_array(A, copy=True)
    c.sum_duplicates()
    keep = c.data != 0
    return c.row[keep], c.col[keep], c.data[keep]


def rand(m, n, density=0.01, format="coo", dtype=None, rng=None, random_state=None):
    """``random`` with SciPy's ``rand`` signature."""
    return random(m, n, density, format, dtype, rng=rng, random_state=random_state)


def _tri(A, k, format, lower):
    a = _as_sparse(A)
    c = a.tocoo()
    d = c.col.astype(np.int64) - c.row.astype(np.int64)
    keep = d <= k if lower else d >= k
    out = type(c)((c.data[keep], (c.row[keep], c.col[keep])), shape=a.shape)
    return out.asformat(format or "coo")


def tril(A, k=0, format=None):
    """The lower triangle of ``A`` (on and below diagonal ``k``)."""
    return _tri(A, k, format, True)


def triu(A, k=0, format=None):
    """The upper triangle of ``A`` (on and above diagonal ``k``)."""
    return _tri(A, k, format, False)
