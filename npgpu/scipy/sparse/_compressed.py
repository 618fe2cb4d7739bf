"""CSR and CSC: one implementation.  A CSC matrix of shape ``(m, n)`` holds exactly the arrays
of the CSR matrix of its transpose (shape ``(n, m)``), so every operation is written for the
"major" axis (rows of CSR, columns of CSC) and ``_swap`` orders a pair as (major, minor).
Products always run on CSR (``_products.py``); a CSC operand is converted first.
"""
import numpy as np

from ._base import (spbase, sparray, spmatrix, xp, index_dtype, asdevice, finish, shape_only,
                    check_shape, reject_scalar, check_dtype)
from ._coo import compress, sorted_indptr, _is_scipy_sparse, _host_int
from . import _kernels


def _as_2d(shape):
    """SciPy's ``_shape_as_2d``: a 1-d shape ``(n,)`` read as one row ``(1, n)``."""
    return (1, shape[0]) if len(shape) == 1 else tuple(shape)


class _compressed_base(spbase):
    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None):
        """SciPy's steps: the arrays of the input (a shape, ``(data, (row, col))``,
        ``(data, indices, indptr)``, sparse or dense), then ``shape`` if given replaces the
        input's and the structure is checked against it.  A 1-d input is the one-row CSR
        SciPy holds a 1-d array in; a 1-d result (SciPy's 1-d CSR) is NotImplementedError."""
        X = xp()
        reject_scalar(self, arg1)
        self._set_maxprint(maxprint)
        self.has_canonical_format = False
        name = type(self).__name__
        if isinstance(arg1, spbase) or _is_scipy_sparse(arg1):
            data, indices, indptr, natural, canonical, copy = self._of_sparse(arg1, copy)
            self.has_canonical_format = canonical
        elif shape_only(arg1, dtype, self._allow_nd):
            natural, dt, idt = shape_only(arg1, dtype, self._allow_nd)
            data, indices = X.empty(0, dt), X.empty(0, idt)
            indptr = X.zeros(self._swap(_as_2d(natural))[0] + 1, idt)
            self.has_canonical_format = True
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            coo = self._coo_cls()(arg1, shape=shape, dtype=dtype)
            data, indices, indptr, natural = self._of_coo(coo)
            self.has_canonical_format = True
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            # the values read in ``dtype`` (SciPy's ``np.array(data, dtype)``)
            data = asdevice(arg1[0], None if dtype is None else check_dtype(dtype))
            indices, indptr = (asdevice(a) for a in arg1[1:])
            natural = None
            self.has_canonical_format = None        # unknown: checked when asked
            if shape is None:
                # SciPy: len(indptr) - 1 rows and indices.max() + 1 columns, or this error
                if indptr.ndim != 1 or indices.ndim != 1 or indices.size == 0:
                    raise ValueError("unable to infer matrix dimensions")
                natural = self._swap((indptr.shape[0] - 1, _host_int(indices.max()) + 1))
        elif isinstance(arg1, tuple):
            raise ValueError(f"unrecognized {name} constructor input: {arg1}")
        else:
            try:
                dense = asdevice(arg1)
            except Exception:
                raise ValueError(f"unrecognized {name} constructor input: {arg1}") from None
            if self._is_array and dense.ndim != 2 and self.format == "csc":
                raise ValueError(f"CSC arrays don't support {dense.ndim}D input. Use 2D")
            if dense.ndim > 2:
                raise ValueError(f"CSR arrays don't yet support {dense.ndim}D.")
            coo = self._coo_cls()(dense, dtype=dtype)
            data, indices, indptr, natural = self._of_coo(coo)
            self.has_canonical_format = True
        if shape is None:
            shape = natural
        else:
            shape = check_shape(shape, self._allow_nd)
        self._shape, self.data, self.indices, self.indptr = finish(
            _as_2d(shape), dtype, copy, data, indices, indptr)
        self.check_format(full_check=False)
        if natural is not None and self._swap(_as_2d(shape))[1] < self._swap(
                _as_2d(natural))[1] and self.nnz:
            # SciPy keeps the indices beyond a narrower given shape (an invalid matrix);
            # npgpu's kernels would write outside the result, so they are refused
            self.check_format(full_check=True)
        if len(shape) == 1:
            raise NotImplementedError(
                f"a 1-d {name} is not implemented: npgpu's 1-d sparse arrays are COO only "
                "(coo_array; toarray() gives the dense vector)")

    def _coo_cls(self):
        from ._coo import coo_array, coo_matrix
        return coo_array if self._is_array else coo_matrix

    def _of_coo(self, coo):
        """(data, indices, indptr, shape) of a COO: the one-row CSR of a 1-d array (read as
        this format, as SciPy), duplicates summed."""
        if coo.ndim == 1:
            c = coo.copy()
            c.sum_duplicates()
            X = xp()
            indptr = X.asarray([0, c.nnz], dtype=c.col.dtype)
            return c.data, c.col, indptr, coo.shape
        src = coo.tocsr() if self.format == "csr" else coo.tocsc()
        return src.data, src.indices, src.indptr, coo.shape

    def _of_sparse(self, arg1, copy):
        """(data, indices, indptr, shape, canonical, copy) of an npgpu or SciPy sparse input."""
        if arg1.ndim == 1:
            if self.format == "csc":
                raise ValueError("Cannot convert. CSC format must be 2D. Got 1D")
            from ._coo import coo_array
            coo = arg1 if isinstance(arg1, spbase) else coo_array(arg1)
            return self._of_coo(coo) + (True, False)
        if isinstance(arg1, spbase):
            src = arg1 if arg1.format == self.format else arg1.asformat(self.format)
            # (as SciPy: without ``copy`` the new object shares the arrays)
            return (src.data, src.indices, src.indptr, arg1.shape, src.has_canonical_format,
                    copy)
        src = arg1.asformat(self.format)
        return (asdevice(src.data), asdevice(src.indices), asdevice(src.indptr), src.shape,
                None, False)

    __setitem__ = spbase._setitem

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

    # SciPy's flags: known from the operation that made the arrays, else found from them on
    # first use (one device read) and kept with the arrays they describe
    @property
    def has_canonical_format(self):
        if self._canonical is None:
            self._canonical = self._in_order(strict=True)
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        self._canonical = None if value is None else bool(value)

    @property
    def has_sorted_indices(self):
        if getattr(self, "_sorted", None) is self.indices or self._canonical:
            return True
        if getattr(self, "_unsorted", None) is self.indices:
            return False
        self.has_sorted_indices = self._in_order(strict=False)
        return self.has_sorted_indices

    @has_sorted_indices.setter
    def has_sorted_indices(self, value):
        self._sorted, self._unsorted = (self.indices, None) if value else (None, self.indices)

    def _in_order(self, strict):
        """Whether the indices ascend within every major slice (strictly: no duplicates)."""
        X = xp()
        if self.nnz < 2:
            return True
        idx, major = self.indices, self._major_index()
        step = idx[1:] > idx[:-1] if strict else idx[1:] >= idx[:-1]
        return bool(X.all(step | (major[1:] != major[:-1])).get())

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
        if self.has_sorted_indices:
            return
        major = self._major_index()
        self.indptr, self.indices, self.data = compress(
            major, self.indices, self.data, *self._swap(self.shape), sum_duplicates=False)
        self.has_sorted_indices = True
        self.has_canonical_format = None        # canonical now if no place is stored twice

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
        if axes is not None and axes != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter "
                             "because swapping dimensions is the only logical permutation.")
        other = "csc" if self.format == "csr" else "csr"
        cls = globals()[other + ("_array" if self._is_array else "_matrix")]
        t = cls._from_parts(self.data, self.indices, self.indptr, self.shape[::-1],
                            self.has_canonical_format)
        return t.copy() if copy else t

    def tocsr(self, copy=False):
        if self.format == "csr":
            return self.copy() if copy else self
        return self._other()

    def tocsc(self, copy=False):
        if self.format == "csc":
            return self.copy() if copy else self
        return self._other()

    def _other(self):
        """The other compressed format, as SciPy's ``csr_tocsc``: indices sorted, duplicates
        and explicit zeros kept (canonical only if this one is)."""
        other = "csc" if self.format == "csr" else "csr"
        cls = globals()[other + ("_array" if self._is_array else "_matrix")]
        minor = self._major_index()
        M, N = self._swap(self.shape)
        indptr, indices, data = compress(self.indices, minor, self.data, N, M,
                                         sum_duplicates=False)
        out = cls._from_parts(data, indices, indptr, self.shape, self.has_canonical_format)
        out.has_sorted_indices = True
        return out


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


class csr_matrix(_csr_base, spmatrix):
    """Compressed sparse row matrix on the device (``scipy.sparse.csr_matrix``)."""


class csr_array(_csr_base, sparray):
    """Compressed sparse row array on the device (``scipy.sparse.csr_array``)."""
    _is_array = True
    _allow_nd = (1, 2)          # SciPy's 1-d CSR: NotImplementedError in npgpu


class csc_matrix(_csc_base, spmatrix):
    """Compressed sparse column matrix on the device (``scipy.sparse.csc_matrix``)."""


class csc_array(_csc_base, sparray):
    """Compressed sparse column array on the device (``scipy.sparse.csc_array``)."""
    _is_array = True
