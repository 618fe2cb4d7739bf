"""DIA: ``data`` (ndiag, L) and ``offsets``; stored value ``data[d, j]`` sits at
``(j - offsets[d], j)``.  Every operation goes through COO/CSR; only the layout lives here."""
import numpy as np

from ...ufuncs.at import ufunc_at
from ._base import spbase, xp, check_dtype, check_shape, asdevice, shape_only


class _dia_base(spbase):
    format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if shape_only(arg1, dtype) or isinstance(arg1, spbase) or not isinstance(arg1, tuple):
            if isinstance(arg1, spbase):
                src = arg1
            else:
                from ._coo import coo_array
                src = coo_array(arg1, dtype=dtype)
            d = from_coo(src.tocoo())
            data, offsets, shape = d.data, d.offsets, src.shape
        else:
            try:
                data, offsets = arg1
            except (TypeError, ValueError):
                raise ValueError("unrecognized form for dia_array constructor") from None
            if shape is None:
                raise ValueError("expected a shape argument")
            data = asdevice(data)
            if data.ndim == 1:
                data = data.reshape((1, -1))
            offsets = np.atleast_1d(np.asarray(offsets.get() if hasattr(offsets, "get")
                                               else offsets)).astype(np.int64)
            if data.ndim != 2:
                raise ValueError("expected data to have at most 2 dimensions")
            if data.shape[0] != offsets.shape[0]:
                raise ValueError(f"number of diagonals ({data.shape[0]}) does not match the "
                                 f"number of offsets ({offsets.shape[0]})")
            if len(np.unique(offsets)) != len(offsets):
                raise ValueError("offset array contains duplicate values")
        if dtype is not None:
            data = data.astype(check_dtype(dtype))
        check_dtype(data.dtype)
        self.data = data.copy() if copy else data
        self.offsets = np.asarray(offsets, dtype=np.int64)
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
        return self.tocoo().transpose().todia()

    def _get(self, stream=None):
        import scipy.sparse as ss
        cls = ss.dia_array if self._is_array else ss.dia_matrix
        return cls((self.data.get(), self.offsets), shape=self.shape)


def from_coo(c):
    """DIA of COO ``c``: the distinct offsets (one small read), one scatter of the values."""
    X = xp()
    m, n = c.shape
    cls = dia_array if c._is_array else dia_matrix
    if c.nnz == 0:
        return cls._from_parts(X.zeros((0, n), c.dtype), np.zeros(0, np.int64), c.shape)
    diff = c.col.astype(np.int64) - c.row.astype(np.int64)
    offsets = X.unique(diff)
    host = offsets.get()
    data = X.zeros((host.shape[0], n), c.dtype)
    ufunc_at(X.add, data, (X.searchsorted(offsets, diff), c.col), c.data, check=False)
    return cls._from_parts(data, host, c.shape)


class dia_matrix(_dia_base):
    """Diagonal-storage sparse matrix on the device (``scipy.sparse.dia_matrix``)."""


class dia_array(_dia_base):
    """Diagonal-storage sparse array on the device (``scipy.sparse.dia_array``)."""
    _is_array = True
