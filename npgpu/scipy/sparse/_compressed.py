"""CSR and CSC: one implementation.  A CSC matrix of shape ``(m, n)`` holds exactly the arrays
of the CSR matrix of its transpose (shape ``(n, m)``), so every operation is written for the
"major" axis (rows of CSR, columns of CSC) and ``_swap`` orders a pair as (major, minor).
Products always run on CSR (``_products.py``); a CSC operand is converted first.
"""
import numpy as np

from ._base import spbase, xp, index_dtype, asdevice, finish, shape_only
from ._coo import compress, sorted_indptr, _is_scipy_sparse, _host_int
from . import _kernels


class _compressed_base(spbase):
    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        X = xp()
        self.has_canonical_format = False
        if isinstance(arg1, spbase):
            src = arg1 if arg1.format == self.format else arg1.asformat(self.format)
            data, indices, indptr = src.data, src.indices, src.indptr
            self.has_canonical_format = src.has_canonical_format
            shape = arg1.shape if shape is None else shape
            copy = copy or src is arg1
        elif _is_scipy_sparse(arg1):
            src = arg1.asformat(self.format)
            data, indices, indptr = (asdevice(src.data), asdevice(src.indices),
                                     asdevice(src.indptr))
            shape = src.shape if shape is None else shape
            copy = False
        elif shape_only(arg1, dtype):
            shape, dt, idt = shape_only(arg1, dtype)
            data, indices = X.empty(0, dt), X.empty(0, idt)
            indptr = X.zeros(self._swap(shape)[0] + 1, idt)
            self.has_canonical_format = True
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            from ._coo import coo_array
            c = coo_array(arg1, shape=shape, dtype=dtype)
            src = c.tocsr() if self.format == "csr" else c.tocsc()
            data, indices, indptr, shape = src.data, src.indices, src.indptr, c.shape
            self.has_canonical_format = True
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = (asdevice(a) for a in arg1)
            if shape is None:
                if indptr.ndim != 1:
                    raise ValueError("data, indices, and indptr should be 1-D")
                major = indptr.shape[0] - 1
                minor = _host_int(indices.max()) + 1 if indices.size else 0
                shape = self._swap((major, minor))
            copy = copy
        else:
            from ._coo import coo_array
            dense = asdevice(arg1)
            if dense.ndim != 2:
                raise ValueError(f"{self.format.upper()} arrays don't support {dense.ndim}D "
                                 "input. Use 2D")
            c = coo_array(dense)
            src = c.tocsr() if self.format == "csr" else c.tocsc()
            data, indices, indptr, shape = src.data, src.indices, src.indptr, dense.shape
            self.has_canonical_format = True
        self._shape, self.data, self.indices, self.indptr = finish(shape, dtype, copy, data,
                                                                   indices, indptr)
        self.check_format(full_check=False)

    @classmethod
    def _from_parts(cls, data, indices, indptr, shape, canonical=False):
        self = cls.__new__(cls)
        self.data, self.indices, self.indptr = data, indices, indptr
        self._shape = tuple(shape)
        self.has_canonical_format = canonical
        return self


    @property
    def nnz(self):
        # construction prunes data to indptr[-1] entries, so no device read is needed
        return int(self.data.shape[0])

    @property
    def has_sorted_indices(self):
        # sort_indices keeps duplicates (not canonical): it records the indices it sorted
        return self.has_canonical_format or getattr(self, "_sorted", None) is self.indices

    def check_format(self, full_check=True):
        """SciPy's structure checks (sizes always; index ranges with ``full_check``)."""
        for x in (self.data, self.indices, self.indptr):
            if x.ndim != 1:
                raise ValueError("data, indices, and indptr should be 1-D")
        if self.indices.dtype.kind not in "iu" or self.indptr.dtype.kind not in "iu":
            raise ValueError("indices and indptr should be integer arrays")
        M, N = self._swap(self.shape)
        if self.indptr.shape[0] != M + 1:
            raise ValueError(f"index pointer size {self.indptr.shape[0]} should be {M + 1}")
        if _host_int(self.indptr[0]) != 0:
            raise ValueError("index pointer should start with 0")
        if self.indices.shape[0] != self.data.shape[0]:
            raise ValueError("indices and data should have the same size")
        last = _host_int(self.indptr[-1])
        if last > self.indices.shape[0]:
            raise ValueError("Last value of index pointer should be less than the size of "
                             "index and data arrays")
        idt = index_dtype(max(M, N, last))
        if self.indices.dtype != idt or self.indptr.dtype != idt:
            idt = np.promote_types(idt, np.promote_types(self.indices.dtype,
                                                          self.indptr.dtype))
            idt = np.dtype(np.int64) if idt.itemsize > 4 or idt.kind == "u" else \
                np.dtype(np.int32)
            self.indices = self.indices.astype(idt, copy=False)
            self.indptr = self.indptr.astype(idt, copy=False)
        if last < self.data.shape[0]:           # SciPy's prune
            self.data, self.indices = self.data[:last], self.indices[:last]
        if full_check and last:
            hi, lo = _host_int(self.indices.max()), _host_int(self.indices.min())
            if hi >= N:
                raise ValueError(f"indices must be < {N}")
            if lo < 0:
                raise ValueError("indices must be >= 0")
            if M and _host_int(xp().diff(self.indptr).min()) < 0:
                raise ValueError("indptr must be a non-decreasing sequence")

    def _with_data(self, data):
        return type(self)._from_parts(data, self.indices.copy(), self.indptr.copy(),
                                      self.shape, self.has_canonical_format)

    def copy(self):
        return self._with_data(self.data.copy())

    def _assign(self, other):
        o = other.asformat(self.format)
        self.data, self.indices, self.indptr = o.data, o.indices, o.indptr
        self.has_canonical_format = o.has_canonical_format

    # ---- the major/minor view ------------------------------------------------------------
    def _major_index(self):
        """The major index of every stored entry (the expansion of ``indptr``)."""
        nnz = self.data.shape[0]
        out = xp().empty(nnz, dtype=self.indptr.dtype)
        return _kernels.csr_rows(self.indptr, nnz, out)

    def tocoo(self, copy=False):
        from ._coo import coo_array, coo_matrix
        cls = coo_array if self._is_array else coo_matrix
        major = self._major_index()
        minor = self.indices.copy() if copy else self.indices
        data = self.data.copy() if copy else self.data
        r, c = self._swap((major, minor))
        return cls._from_parts(data, r, c, self.shape, self.has_canonical_format)

    def _get(self, stream=None):
        import scipy.sparse as ss
        name = self.format + ("_array" if self._is_array else "_matrix")
        return getattr(ss, name)((self.data.get(), self.indices.get(), self.indptr.get()),
                                 shape=self.shape)

    def toarray(self, order=None, out=None):
        return self.tocoo().toarray(order=order, out=out)

    def sum_duplicates(self):
        """Sort the indices of every major slice and sum duplicates, in place."""
        if self.has_canonical_format:
            return
        major = self._major_index()
        self.indptr, self.indices, self.data = compress(major, self.indices, self.data,
                                                        *self._swap(self.shape))
        self.has_canonical_format = True

    def sort_indices(self):
        """Sort the indices of every major slice, in place (duplicates stay)."""
        if self.has_canonical_format:
            return
        major = self._major_index()
        self.indptr, self.indices, self.data = compress(
            major, self.indices, self.data, *self._swap(self.shape), sum_duplicates=False)
        self._sorted = self.indices

    def sorted_indices(self):
        c = self.copy()
        c.sort_indices()
        return c

    def eliminate_zeros(self):
        """Drop the stored zeros, in place."""
        keep = self.data != 0
        major = self._major_index()[keep]
        self.data, self.indices = self.data[keep], self.indices[keep]
        self.indptr = sorted_indptr(major, self.indptr.shape[0] - 1, self.indptr.dtype)

    def prune(self):
        self.check_format(full_check=False)

    def transpose(self, axes=None, copy=False):
        """The transpose: the same arrays read as the other compressed format."""
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse matrices do not support an 'axes' parameter because "
                             "swapping dimensions is the only logical permutation.")
        other = "csc" if self.format == "csr" else "csr"
        cls = globals()[other + ("_array" if self._is_array else "_matrix")]
        t = cls._from_parts(self.data, self.indices, self.indptr, self.shape[::-1],
                            self.has_canonical_format)
        return t.copy() if copy else t

    def tocsr(self, copy=False):
        if self.format == "csr":
            return self.copy() if copy else self
        return self.tocoo().tocsr()

    def tocsc(self, copy=False):
        if self.format == "csc":
            return self.copy() if copy else self
        return self.tocoo().tocsc()


class _csr_base(_compressed_base):
    format = "csr"

    @staticmethod
    def _swap(x):
        return x


class _csc_base(_compressed_base):
    format = "csc"

    @staticmethod
    def _swap(x):
        return x[1], x[0]


class csr_matrix(_csr_base):
    """Compressed sparse row matrix on the device (``scipy.sparse.csr_matrix``)."""


class csr_array(_csr_base):
    """Compressed sparse row array on the device (``scipy.sparse.csr_array``)."""
    _is_array = True


class csc_matrix(_csc_base):
    """Compressed sparse column matrix on the device (``scipy.sparse.csc_matrix``)."""


class csc_array(_csc_base):
    """Compressed sparse column array on the device (``scipy.sparse.csc_array``)."""
    _is_array = True
