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
        length = min(m + min(k, 0), n - max(k, 0))
        if length <= 0:
            raise ValueError(f"Offset {k} (index {j}) out of bounds")
        d = asdevice(d)
        if d.ndim == 0 or d.shape[0] == 1:
            d = X.broadcast_to(d.reshape(-1), (length,))
        elif d.shape[0] != length:
            raise ValueError(f"Diagonal length (index {j}: {d.shape[0]} at offset {k}) does "
                             f"not agree with array size ({m}, {n}).")
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
    shape = (m, n) if n is not None else m
    from ._dia import dia_matrix
    return dia_matrix((data, diags), shape=shape).asformat(format)


def _eye(m, n, k, dtype, format, is_array):
    n = m if n is None else n
    dtype = check_dtype(dtype)
    length = min(m + min(k, 0), n - max(k, 0))
    cls = _coo_cls(is_array)
    if length <= 0:
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


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None, data_sampler=None):
    import scipy.sparse as ss
    h = ss.random_array(shape, density=density, format="coo", dtype=dtype, rng=rng,
                        data_sampler=data_sampler)
    return coo_array(h).asformat(format)


def _as_sparse(x):
    if isinstance(x, spbase):
        return x
    return coo_matrix(x)


def kron(A, B, format=None):
    """Kronecker product of sparse (or dense) ``A`` and ``B``."""
    a, b = _as_sparse(A).tocoo(), _as_sparse(B).tocoo()
    mb, nb = b.shape
    shape = (a.shape[0] * mb, a.shape[1] * nb)
    dt = np.result_type(a.dtype, b.dtype)
    cls = _coo_cls(a._is_array and b._is_array)
    ar, ac = a.row.astype(np.int64).reshape((-1, 1)), a.col.astype(np.int64).reshape((-1, 1))
    rows = (ar * mb + b.row.astype(np.int64)).reshape(-1)
    cols = (ac * nb + b.col.astype(np.int64)).reshape(-1)
    data = (a.data.astype(dt).reshape((-1, 1)) * b.data.astype(dt)).reshape(-1)
    return cls((data, (rows, cols)), shape=shape).asformat(format or "coo")


def kronsum(A, B, format=None):
    a, b = _as_sparse(A), _as_sparse(B)
    if a.shape[0] != a.shape[1] or b.shape[0] != b.shape[1]:
        raise ValueError("A and B must be square")
    dt = np.result_type(a.dtype, b.dtype)
    L = kron(identity(b.shape[0], dtype=dt), a, format="csr")
    R = kron(b, identity(a.shape[0], dtype=dt), format="csr")
    return (L + R).asformat(format or "csr")


def _stack(blocks, format, dtype, axis):
    X = xp()
    blocks = [_as_sparse(b) for b in blocks]
    if not blocks:
        raise ValueError("blocks must not be empty")
    other = 1 - axis
    want = blocks[0].shape[other]
    for i, b in enumerate(blocks):
        if b.shape[other] != want:
            if axis == 1:
                raise ValueError(f"blocks[0,:] has incompatible row dimensions. Got "
                                 f"blocks[0,{i}].shape[0] == {b.shape[0]}, expected {want}.")
            raise ValueError(f"blocks[:,0] has incompatible column dimensions. Got "
                             f"blocks[{i},0].shape[1] == {b.shape[1]}, expected {want}.")
    dt = check_dtype(dtype) if dtype is not None else np.result_type(*[b.dtype
                                                                       for b in blocks])
    rows, cols, vals, off = [], [], [], 0
    for b in blocks:
        c = b.tocoo()
        r, k = c.row.astype(np.int64), c.col.astype(np.int64)
        if axis == 0:
            r = r + off
        else:
            k = k + off
        rows.append(r)
        cols.append(k)
        vals.append(c.data.astype(dt))
        off += b.shape[axis]
    shape = (off, want) if axis == 0 else (want, off)
    is_array = all(b._is_array for b in blocks)
    out = _coo_cls(is_array)((X.concatenate(vals), (X.concatenate(rows), X.concatenate(cols))),
                             shape=shape)
    if format is None:
        fmts = {b.format for b in blocks}
        # SciPy's bmat: all-CSR blocks give CSR and all-CSC give CSC, along either axis
        format = fmts.pop() if fmts in ({"csr"}, {"csc"}) else "coo"
    return out.asformat(format)


def hstack(blocks, format=None, dtype=None):
    return _stack(blocks, format, dtype, 1)


def vstack(blocks, format=None, dtype=None):
    return _stack(blocks, format, dtype, 0)


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
