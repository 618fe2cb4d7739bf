"""COO: ``data``, ``row``, ``col`` (npgpu arrays), duplicates and any order allowed.

The conversion to the compressed formats is where duplicates are summed and indices sorted,
all on the device with npgpu's primitives: one radix sort (``npgpu/sorting/radix.py``) of
(major, minor) on only the bits the extents need, one gather of the three arrays,
``compaction.rank`` of the run starts (a scan and one scalar read: the output nnz),
``add.at`` of the values into their runs, one kernel writing ``indptr`` from the sorted major
indices.
"""
import operator

import numpy as np

from ...ufuncs.at import ufunc_at
from ._base import (spbase, sparray, spmatrix, xp, index_dtype, asdevice, finish, shape_only,
                    check_shape, reject_scalar, check_dtype)
from . import _coo1d


def _host_int(x):
    return int(x.get()) if hasattr(x, "get") else int(x)


def sort_order(major, minor, nmajor, nminor):
    """The permutation sorting the entries by (major, minor): one LSD radix sort
    (``sorting/radix.py``) whose key parts carry only the bits the extents need (a 2^22 x 2^22
    matrix: 3 + 3 passes of 8 bits instead of lexsort's 4 + 4), int32 indices below 2^31."""
    from ...sorting import keys, radix
    X = xp()
    n = major.shape[0]
    parts = []
    for a, extent in ((minor, nminor), (major, nmajor)):
        bits = int(max(extent - 1, 0)).bit_length()
        if bits:
            a = X.ascontiguousarray(a)
            parts.append(keys.KeyPart("xor", keys.bits_view(a), bits, a.dtype.itemsize))
    if not parts:
        return X.arange(n)
    return radix.sort(parts, n, payload="index",
                      index_dtype=np.int32 if n < 2 ** 31 else np.int64)


def compress(major, minor, data, nmajor, nminor, sum_duplicates=True):
    """(indptr, indices, data) of the entries ``(major, minor, data)``: sorted by
    (major, minor), duplicates summed (``sum_duplicates``), index dtype from the sizes."""
    major, minor, data = canonical(major, minor, data, nmajor, nminor, sum_duplicates)
    idt = index_dtype(max(nmajor, nminor, data.shape[0]))
    return sorted_indptr(major, nmajor, idt), minor.astype(idt, copy=False), data


def canonical(major, minor, data, nmajor, nminor, sum_duplicates=True):
    """The entries sorted by (major, minor), duplicates summed (``sum_duplicates``): memory of
    the number of entries, not of the shape (a 2**33-row COO sums its duplicates)."""
    X = xp()
    from ...indexing import compaction
    nnz = data.shape[0]
    if nnz > 1:
        perm = sort_order(major, minor, nmajor, nminor)
        major, minor, data = major[perm], minor[perm], data[perm]
        if sum_duplicates:
            flag = X.empty(nnz, dtype=bool)
            flag[:1] = True
            flag[1:] = (major[1:] != major[:-1]) | (minor[1:] != minor[:-1])
            rk = compaction.rank(flag)
            if rk.count < nnz:
                summed = X.zeros(rk.count, dtype=data.dtype)
                ufunc_at(X.add, summed, rk.ranks - 1, data, check=False)
                major = compaction.select_values(major, rk.flags)
                minor = compaction.select_values(minor, rk.flags)
                data = summed
    return major, minor, data


def sorted_indptr(major, nmajor, idt):
    """``indptr`` (dtype ``idt``) of the sorted major indices ``major``: one kernel."""
    from . import _kernels
    X = xp()
    return _kernels.indptr_of_sorted(X.ascontiguousarray(major), nmajor,
                                     X.empty(nmajor + 1, idt))


def _from_tuple(arg1, shape, allow_nd, dtype=None):
    """(data, row, col, shape) of SciPy's ``(data, (row, col))``: the shape inferred from the
    largest indices when not given, then checked against the number of index arrays."""
    try:
        obj, coords = arg1
        coords = tuple(coords)
    except (TypeError, ValueError):
        raise TypeError("invalid input format") from None
    coords = tuple(asdevice(c) for c in coords)
    if shape is None:
        if any(c.ndim != 1 or c.shape[0] == 0 for c in coords):
            raise ValueError("cannot infer dimensions from zero sized index arrays")
        for c in coords:
            if c.dtype.kind not in "iu":        # SciPy's operator.index of their maximum
                raise TypeError(f"'numpy.{c.dtype.name}' object cannot be interpreted as an "
                                "integer")
        shape = tuple(_host_int(c.max()) + 1 for c in coords)
    shape = check_shape(shape, allow_nd)
    if len(coords) != len(shape):
        raise ValueError("mismatching number of index arrays for shape; got "
                         f"{len(coords)}, expected {len(shape)}")
    # SciPy casts the index arrays to its index type: float indices are truncated
    row, col = (c if c.dtype.kind in "iu" else c.astype(np.int64) for c in coords)
    # the values read in ``dtype`` (SciPy's ``np.array(obj, dtype)``: 2**63 + 1 exact as uint64)
    return asdevice(obj, None if dtype is None else check_dtype(dtype)), row, col, shape


class _coo_base(spbase):
    format = "coo"
    # 1-d arrays (``coo_array`` only, ``_coo1d.py``) have one index array, ``col``
    ndim = property(lambda self: len(self._shape))
    coords = property(lambda self: (self.col,) if len(self._shape) == 1
                      else (self.row, self.col))

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None):
        """SciPy's forms: a shape, ``(data, (row, col))`` (``(data, (idx,))`` for a 1-d
        array), a sparse array or matrix (``shape`` ignored, as SciPy), or dense data
        (a matrix takes a 0-d or 1-d input as one row; ``shape`` must equal its shape)."""
        X = xp()
        reject_scalar(self, arg1)
        self._set_maxprint(maxprint)
        self.has_canonical_format = False
        one_d = _coo1d.parse(arg1, shape) if self._is_array else None
        if one_d is not None:
            data, idx, shape, implied = one_d
            _coo1d.init(self, data, idx, shape, dtype, copy or implied)
            return
        if isinstance(arg1, spbase):
            c = arg1.tocoo()
            data, row, col, shape = c.data, c.row, c.col, arg1.shape
            # SciPy keeps the flag of a COO copied, else leaves it unknown (False)
            self.has_canonical_format = bool(copy and c is arg1 and c.has_canonical_format)
        elif _is_scipy_sparse(arg1):
            c = arg1.tocoo()
            data, row, col = (asdevice(c.data), asdevice(c.row), asdevice(c.col))
            shape, copy = c.shape, False
        elif shape_only(arg1, dtype, self._allow_nd):
            shape, dt, idt = shape_only(arg1, dtype, self._allow_nd)
            data, row, col = X.empty(0, dt), X.empty(0, idt), X.empty(0, idt)
            self.has_canonical_format = True
        elif isinstance(arg1, tuple):
            data, row, col, shape = _from_tuple(arg1, shape, self._allow_nd, dtype)
        else:
            dense = asdevice(arg1)
            if not self._is_array and dense.ndim < 2:
                dense = dense.reshape((1, -1))            # SciPy's np.atleast_2d
            if not self._is_array and dense.ndim != 2:
                raise TypeError(f"expected 2D array or matrix, not {dense.ndim}D")
            natural = check_shape(dense.shape, self._allow_nd)
            if shape is not None and check_shape(shape, self._allow_nd) != natural:
                raise ValueError(f"inconsistent shapes: {shape} != {natural}")
            if dense.ndim == 1:
                data, idx = _coo1d.from_dense(dense)
                _coo1d.init(self, data, idx, dense.shape, dtype, copy)
                self.has_canonical_format = True
                return
            row, col = X.nonzero(dense)
            data = dense[row, col]
            shape = natural
            self.has_canonical_format = True
        # (``allow_nd``: a SciPy n-d coo_array is NotImplementedError, as n-d shapes elsewhere)
        self._shape, self.data, self.row, self.col = finish(shape, dtype, copy, data, row, col,
                                                            allow_nd=self._allow_nd)
        self._check()

    def _check(self):
        arrays = (self.data, self.row, self.col)
        if any(len(a) != len(self.data) for a in arrays):      # (len: a 0-d array's TypeError)
            raise ValueError("all index and data arrays must have the same length")
        if any(a.ndim != 1 for a in arrays):
            raise ValueError("coordinates and data arrays must be 1-D")
        for i, idx in enumerate((self.row, self.col)):
            if idx.dtype.kind not in "iu":
                raise TypeError(f"index array {i} has non-integer dtype ({idx.dtype.name})")
        idt = index_dtype(max(self.shape))
        self.row = self.row.astype(idt, copy=False)
        self.col = self.col.astype(idt, copy=False)
        if self.nnz:
            for i, idx in enumerate((self.row, self.col)):
                hi, lo = _host_int(idx.max()), _host_int(idx.min())
                if hi >= self.shape[i]:
                    raise ValueError(f"axis {i} index {hi} exceeds matrix dimension "
                                     f"{self.shape[i]}")
                if lo < 0:
                    raise ValueError(f"negative axis {i} index: {lo}")

    @classmethod
    def _from_parts(cls, data, row, col, shape, canonical=False):
        self = cls.__new__(cls)
        self.data, self.row, self.col, self._shape = data, row, col, tuple(shape)
        self.has_canonical_format = canonical
        return self

    nnz = property(lambda self: int(self.data.shape[0]))

    def _with_data(self, data):
        return type(self)._from_parts(data, self.row.copy(), self.col.copy(), self.shape,
                                      self.has_canonical_format)

    def copy(self):
        return self._with_data(self.data.copy())

    def _assign(self, other):
        c = other.tocoo()
        self.data, self.row, self.col = c.data, c.row, c.col
        self.has_canonical_format = c.has_canonical_format

    def transpose(self, axes=None, copy=False):
        """SciPy's: an array takes any order of its axes, a matrix only ``(1, 0)``."""
        if axes is not None and self._is_array:
            if not hasattr(axes, "__len__") or len(axes) != 2:
                raise ValueError("axes don't match matrix dimensions")
            if len(set(axes)) != 2:
                raise ValueError("repeated axis in transpose")
            if tuple(operator.index(ax) % 2 for ax in axes) == (0, 1):
                t = type(self)._from_parts(self.data, self.row, self.col, self.shape)
                return t.copy() if copy else t
        elif axes is not None and axes != (1, 0):
            raise ValueError("Sparse matrices do not support an 'axes' parameter because "
                             "swapping dimensions is the only logical permutation.")
        t = type(self)._from_parts(self.data, self.col, self.row, self.shape[::-1])
        return t.copy() if copy else t

    def tocoo(self, copy=False):
        return self.copy() if copy else self

    def _compressed(self, cls, major, minor, nmajor):
        nminor = self.shape[0] + self.shape[1] - nmajor
        indptr, indices, data = compress(major, minor, self.data, nmajor, nminor)
        return cls._from_parts(data, indices, indptr, self.shape, canonical=True)

    def tocsr(self, copy=False):
        from ._compressed import csr_array, csr_matrix
        cls = csr_array if self._is_array else csr_matrix
        return self._compressed(cls, self.row, self.col, self.shape[0])

    def tocsc(self, copy=False):
        from ._compressed import csc_array, csc_matrix
        cls = csc_array if self._is_array else csc_matrix
        return self._compressed(cls, self.col, self.row, self.shape[1])

    def todia(self, copy=False):
        from ._dia import from_coo
        return from_coo(self)

    def sum_duplicates(self):
        """Sort by (row, col) and sum duplicate entries, in place."""
        if self.has_canonical_format:
            return
        rows, cols, data = canonical(self.row, self.col, self.data, *self.shape)
        idt = index_dtype(max(*self.shape, data.shape[0]))
        self.data, self.row, self.col = data, rows.astype(idt), cols.astype(idt)
        self.has_canonical_format = True

    def eliminate_zeros(self):
        keep = self.data != 0
        self.data, self.row, self.col = self.data[keep], self.row[keep], self.col[keep]

    def toarray(self, order=None, out=None):
        X = xp()
        out = self._toarray_out(order, out)
        if self.nnz:
            ufunc_at(X.add, out, (self.row, self.col), self.data, check=False)
        return out

    def _get(self, stream=None):
        import scipy.sparse as ss
        cls = ss.coo_array if self._is_array else ss.coo_matrix
        return cls((self.data.get(), (self.row.get(), self.col.get())), shape=self.shape)


def _is_scipy_sparse(x):
    try:
        import scipy.sparse as ss
    except ImportError:
        return False
    return ss.issparse(x)


class coo_matrix(_coo_base, spmatrix):
    """COO sparse matrix on the device (``scipy.sparse.coo_matrix``)."""


class coo_array(_coo_base, sparray):
    """COO sparse array on the device (``scipy.sparse.coo_array``)."""
    _is_array = True
    _allow_nd = range(1, 65)        # SciPy's n-d COO; npgpu's hold one or two dimensions

    def __setitem__(self, key, x):      # (SciPy's coo_matrix has none)
        self._setitem(key, x)


_coo1d.install(coo_array)
