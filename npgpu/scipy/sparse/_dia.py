"""DIA: ``data`` (ndiag, L) and ``offsets``; stored value ``data[d, j]`` sits at
``(j - offsets[d], j)``.  Every operation goes through COO/CSR; only the layout lives here."""
import numpy as np

from ...ufuncs.at import ufunc_at
from ._base import (spbase, sparray, spmatrix, xp, check_dtype, check_shape, asdevice,
                    shape_only, reject_scalar)


class _dia_base(spbase):
    format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None):
        """SciPy's forms: a shape, ``(data, offsets)`` with ``shape``, a sparse array or
        matrix (``shape`` ignored), dense data (through COO, whose shape rules apply)."""
        from ._coo import coo_array, coo_matrix, _is_scipy_sparse
        reject_scalar(self, arg1)
        self._set_maxprint(maxprint)
        if isinstance(arg1, spbase) or _is_scipy_sparse(arg1):
            if arg1.ndim != 2:
                raise ValueError("Cannot convert. DIA format must be 2D. Got 1D")
            if isinstance(arg1, spbase) and arg1.format == "dia":
                data, offsets = arg1.data, arg1.offsets     # shared without ``copy``
            else:
                d = from_coo((coo_array if self._is_array else coo_matrix)(arg1))
                data, offsets = d.data, d.offsets
            shape = arg1.shape
        elif shape_only(arg1, dtype):
            shape, dt, _ = shape_only(arg1, dtype)
            data, offsets = xp().zeros((0, 0), dt), np.zeros(0, np.int64)
        elif isinstance(arg1, tuple):
            try:
                data, offsets = arg1
            except (TypeError, ValueError):
                raise ValueError("unrecognized form for dia_array constructor") from None
            if shape is None:
                raise ValueError("expected a shape argument")
            data = asdevice(data, dtype)
            if data.ndim < 2:
                data = data.reshape((1, -1))            # SciPy's np.atleast_2d
            offsets = np.atleast_1d(np.asarray(_host(offsets))).astype(np.int64)
            shape = check_shape(shape)
        else:
            try:
                dense = asdevice(arg1)
            except Exception:
                raise ValueError(f"unrecognized form for {self.format}_matrix "
                                 "constructor") from None
            if self._is_array and dense.ndim != 2:
                raise ValueError(f"DIA arrays don't support {dense.ndim}D input. Use 2D")
            c = (coo_array if self._is_array else coo_matrix)(dense, dtype=dtype, shape=shape)
            d = from_coo(c)
            data, offsets, shape = d.data, d.offsets, c.shape
        if dtype is not None:
            data = data.astype(check_dtype(dtype), copy=False)
        check_dtype(data.dtype)
        if offsets.ndim != 1:
            raise ValueError("offsets array must have rank 1")
        if data.ndim != 2:
            raise ValueError("data array must have rank 2")
        if data.shape[0] != offsets.shape[0]:
            raise ValueError(f"number of diagonals ({data.shape[0]}) does not match the "
                             f"number of offsets ({offsets.shape[0]})")
        if len(np.unique(offsets)) != len(offsets):
            raise ValueError("offset array contains duplicate values")
        self.data = data.copy() if copy else data
        self.offsets = np.array(offsets, dtype=np.int64)
        self._shape = check_shape(shape)

    @classmethod
    def _from_parts(cls, data, offsets, shape):
        self = cls.__new__(cls)
        self.data, self.offsets, self._shape = data, np.asarray(offsets, np.int64), shape
        return self


    @property
    def nnz(self):
        m, n = self.shape
        L = self.data.shape[1]
        total = 0
        for k in self.offsets.tolist():
            total += max(0, min(m + k, n, L) - max(0, k))
        return total

    def _with_data(self, data):
        return type(self)._from_parts(data, self.offsets.copy(), self.shape)

    def copy(self):
        return self._with_data(self.data.copy())

    def _assign(self, other):
        d = from_coo(other.tocoo())
        self.data, self.offsets = d.data, d.offsets

    def tocoo(self, copy=False):
        X = xp()
        from ._coo import coo_array, coo_matrix
        m, n = self.shape
        nd, L = self.data.shape
        cols = X.broadcast_to(X.arange(L, dtype=np.int64), (nd, L))
        rows = cols - X.asarray(self.offsets).reshape((-1, 1))
        keep = (rows >= 0) & (rows < m) & (cols < n) & (self.data != 0)
        cls = coo_array if self._is_array else coo_matrix
        return cls((self.data[keep], (rows[keep], cols[keep])), shape=self.shape)

    def tocsr(self, copy=False):
        return self.tocoo().tocsr()

    def tocsc(self, copy=False):
        return self.tocoo().tocsc()

    def todia(self, copy=False):
        return self.copy() if copy else self

    def transpose(self, axes=None, copy=False):
        if axes is not None and axes != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        return self.tocoo().transpose().todia()

    def _get(self, stream=None):
        import scipy.sparse as ss
        cls = ss.dia_array if self._is_array else ss.dia_matrix
        return cls((self.data.get(), self.offsets), shape=self.shape)


def _host(x):
    """Offsets on the host: device arrays read, lists and tuples of them too."""
    if hasattr(x, "get"):
        return x.get()
    if isinstance(x, (list, tuple)):
        return [_host(v) for v in x]
    return x


def from_coo(c):
    """DIA of COO ``c``: the distinct offsets and the largest column (one small read), one
    scatter of the values; SciPy's layout: rows as long as the largest column + 1."""
    X = xp()
    cls = dia_array if c._is_array else dia_matrix
    if c.nnz == 0:
        return cls._from_parts(X.zeros((0, 0), c.dtype), np.zeros(0, np.int64), c.shape)
    diff = c.col.astype(np.int64) - c.row.astype(np.int64)
    offsets = X.unique(diff)
    host = X.concatenate([offsets, X.max(c.col).astype(np.int64).reshape(1)]).get()
    host, width = host[:-1], int(host[-1]) + 1
    data = X.zeros((host.shape[0], width), c.dtype)
    ufunc_at(X.add, data, (X.searchsorted(offsets, diff), c.col), c.data, check=False)
    return cls._from_parts(data, host, c.shape)


class dia_matrix(_dia_base, spmatrix):
    """Diagonal-storage sparse matrix on the device (``scipy.sparse.dia_matrix``)."""


class dia_array(_dia_base, sparray):
    """Diagonal-storage sparse array on the device (``scipy.sparse.dia_array``)."""
    _is_array = True
