"""The base of every sparse format: what SciPy's ``_spbase`` holds, written once in terms of
each format's ``tocoo``/``tocsr`` (``_coo.py``, ``_compressed.py``), plus the checks and dtype
rules that SciPy applies to all of them.

Matrix vs array semantics as SciPy's: for ``*_matrix`` classes ``*`` is the matrix product and
``**`` the matrix power; for ``*_array`` classes both are elementwise.  Reductions over an axis
of a ``*_matrix`` keep two dimensions (npgpu has no ``np.matrix``: a 2-d ndarray stands in).
"""
import numbers
import operator

import numpy as np

_SUPPORTED = [np.dtype(c) for c in ("?", "b", "B", "h", "H", "i", "I", "l", "L", "q", "Q",
                                     "f", "d", "g", "F", "D", "G")]
_NAMES = ("bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, longlong, "
          "ulonglong, float32, float64, longdouble, complex64, complex128, clongdouble")


_products = None       # ._products, set on the first product (it imports this module)


def _load_products():
    global _products
    from . import _products as p
    _products = p
    return p


class SparseEfficiencyWarning(Warning):
    """An operation whose result is dense (SciPy's warning of the same name)."""


def xp():
    """The npgpu namespace (imported late: npgpu imports this package while it starts)."""
    import npgpu
    return npgpu


def check_dtype(dt):
    dt = np.dtype(dt)
    if dt not in _SUPPORTED:
        raise ValueError(f"scipy.sparse does not support dtype {dt.name}. The only supported "
                         f"types are: {_NAMES}.")
    return dt


def index_dtype(maxval):
    """int32 while every index and count fits, else int64 (SciPy's rule)."""
    return np.dtype(np.int32) if maxval <= np.iinfo(np.int32).max else np.dtype(np.int64)


def check_shape(shape, allow_nd=(2,)):
    """SciPy's ``check_shape`` of a constructor's ``shape``: a tuple of ints whose length is
    in ``allow_nd`` (the class's ``_allow_nd``), none negative.  npgpu holds one or two
    dimensions: an n-d shape SciPy's ``coo_array`` takes is NotImplementedError."""
    if len(shape) == 0:
        raise TypeError("function missing 1 required positional argument: 'shape'")
    if len(shape) == 1:
        try:
            it = iter(shape[0])
        except TypeError:
            new = (operator.index(shape[0]),)
        else:
            new = tuple(operator.index(s) for s in it)
    else:
        new = tuple(operator.index(s) for s in shape)
    if len(new) not in allow_nd:
        raise ValueError(f"shape must have length in {allow_nd}. Got new_shape={new}")
    if any(d < 0 for d in new):
        raise ValueError("'shape' elements cannot be negative")
    if len(new) > 2:
        raise NotImplementedError(f"npgpu's sparse arrays have one or two dimensions, not "
                                  f"{len(new)} (SciPy's n-d coo_array)")
    return tuple(int(d) for d in new)


def finish(shape, dtype, copy, data, *index, allow_nd=(2,)):
    """The checked shape, then ``data`` cast to ``dtype`` (if given) and the index arrays,
    C-contiguous, copied when ``copy``: the common tail of every constructor."""
    shape = check_shape(shape, allow_nd)
    if dtype is not None:
        data = data.astype(check_dtype(dtype), copy=False)
    check_dtype(data.dtype)
    # the kernels and cuSPARSE read the arrays as C-contiguous
    arrays = tuple(xp().ascontiguousarray(a) for a in (data,) + index)
    return (shape,) + (tuple(a.copy() for a in arrays) if copy else arrays)


def _intlike(x):
    """SciPy's ``isintlike``: an integer scalar; an integral float is SciPy's error."""
    if (x.ndim if is_dense(x) else np.ndim(x)) != 0:
        return False
    try:
        operator.index(x)
    except (TypeError, ValueError):
        try:
            loose = bool(int(x) == x)
        except (TypeError, ValueError):
            return False
        if loose:
            raise ValueError("Inexact indices into sparse matrices are not allowed")
        return False
    return True


def is_shape(x, allow_nd=(2,)):
    """SciPy's ``isshape``: ``x`` a tuple of ints of a length in ``allow_nd``."""
    return isinstance(x, tuple) and len(x) in allow_nd and all(_intlike(d) for d in x)


def shape_only(arg1, dtype, allow_nd=(2,)):
    """(shape, value dtype, index dtype) when ``arg1`` is a shape such as ``(M, N)`` (an empty
    matrix), else None."""
    if not is_shape(arg1, allow_nd):
        return None
    shape = check_shape(arg1, allow_nd)
    dt = np.dtype(np.float64) if dtype is None else check_dtype(dtype)
    return shape, dt, index_dtype(max(shape))


def reject_scalar(obj, arg1):
    """SciPy's sparse array classes refuse a scalar (its matrices read it as ``(1, 1)``)."""
    if obj._is_array and np.isscalar(arg1):
        raise ValueError("scipy sparse array classes do not support instantiation from a "
                         "scalar")


def operator_index(s):
    return operator.index(s)


def is_dense(x):
    return isinstance(x, xp().ndarray)


def isscalarlike(x):
    """SciPy's ``isscalarlike``: a scalar or a 0-d array (host or device)."""
    return np.isscalar(x) or ((isinstance(x, np.ndarray) or is_dense(x)) and x.ndim == 0)


def _no_operand(x):
    """Not an array of any kind (``A @ None``): SciPy returns NotImplemented, so Python's
    TypeError answers (or the other operand's method)."""
    if isinstance(x, spbase) or is_dense(x) or hasattr(x, "tocoo"):
        return False
    a = np.asanyarray(x)
    return a.ndim == 0 and a.dtype == object


def asdevice(x, dtype=None):
    """An npgpu array of ``x`` (host data is copied to the device explicitly)."""
    return xp().asarray(x, dtype=dtype)


_DEVICE_ATTRS = frozenset(("data", "indices", "indptr", "row", "col"))


class spbase:
    """Methods shared by every format.  Subclasses define ``format``, ``shape``, ``dtype``,
    ``nnz``, ``tocoo``, ``tocsr``, ``tocsc``, ``copy``, ``_with_data`` (same pattern, new
    values) and ``_data`` (the stored values)."""

    __array_priority__ = 10.1
    _is_array = False
    _allow_nd = (2,)            # SciPy's: the shape lengths the constructor takes
    ndim = 2
    # every format keeps its values in ``data`` and its shape in ``_shape``
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self.data.dtype)
    _data = property(lambda self: self.data)
    maxprint = 50           # SciPy's MAXPRINT: the entries ``str`` lists (a constructor keyword)

    def _set_maxprint(self, maxprint):
        if maxprint is not None:
            self.maxprint = maxprint

    def __setattr__(self, name, value):
        # SciPy's arrays are plain attributes a user may replace (``A.indices = host``):
        # host data is copied to the device here, never met by a kernel
        if name in _DEVICE_ATTRS and not is_dense(value):
            value = asdevice(value)
        object.__setattr__(self, name, value)

    @classmethod
    def __class_getitem__(cls, arg, /):
        """SciPy's parametrized type, ``csr_array[np.float32]`` (typing only)."""
        from types import GenericAlias
        return GenericAlias(cls, arg)

    # ---- conversions -------------------------------------------------------------------
    def asformat(self, format, copy=False):
        if format is None or format == self.format:
            return self.copy() if copy else self
        return getattr(self, "to" + format)(copy=copy)

    def toarray(self, order=None, out=None):
        return self.tocoo().toarray(order=order, out=out)

    def _toarray_out(self, order, out):
        """SciPy's ``_process_toarray_args``: ``out`` (an npgpu array) zeroed, or new zeros."""
        if out is None:
            return xp().zeros(self.shape, dtype=self.dtype, order=order or "C")
        if order is not None:
            raise ValueError("order cannot be specified if out is not None")
        if out.shape != self.shape or out.dtype != self.dtype:
            raise ValueError("out array must be same dtype and shape as sparse array")
        if not is_dense(out):
            raise TypeError(f"output must be an npgpu array, not {type(out).__name__}")
        out[...] = 0
        return out

    def todia(self, copy=False):
        return self.tocoo().todia()

    def todense(self, order=None, out=None):
        return self.toarray(order=order, out=out)

    def get(self, stream=None):
        """The SciPy sparse object of this matrix (a device-to-host copy)."""
        return self._get(stream)

    def astype(self, dtype, casting="unsafe", copy=True):
        """As SciPy's: a new dtype gives a copy with duplicates summed (``self`` untouched)."""
        dtype = check_dtype(dtype)
        if dtype == self.dtype:
            return self.copy() if copy else self
        m = self._with_data(self._data.astype(dtype, casting=casting))
        if hasattr(m, "sum_duplicates"):
            m.sum_duplicates()
        return m

    def conj(self, copy=True):
        if self.dtype.kind == "c":
            return self._with_data(xp().conj(self._data))
        return self.copy() if copy else self

    conjugate = conj

    @property
    def real(self):
        return self._with_data(xp().real(self._data).copy())

    @property
    def imag(self):
        return self._with_data(xp().imag(self._data).copy())

    @property
    def T(self):
        return self.transpose()

    def count_nonzero(self, axis=None):
        """Nonzero values after duplicates are summed; with ``axis``, per column (0) or row (1)
        as a device array of SciPy's dtype (``_axis_counts``)."""
        if hasattr(self, "sum_duplicates"):
            self.sum_duplicates()               # in place, as SciPy (DIA has no duplicates)
        c = self.tocoo()
        if axis is None:
            return int(xp().count_nonzero(c.data))
        return self._axis_counts(c, axis, nonzero=True)

    def _axis_counts(self, coo, axis, nonzero):
        if self.format == "dia":                  # SciPy's DIA has neither
            what = "count_nonzero" if nonzero else "_getnnz"
            raise NotImplementedError(f"{what} over an axis is not implemented for DIA format")
        try:
            axis = operator_index(axis)
        except TypeError:
            raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an "
                            "integer") from None
        if not -2 <= axis < 2:
            raise ValueError("axis out of bounds")
        axis %= 2
        X = xp()
        coord = coo.col if axis == 0 else coo.row
        every = True
        if nonzero:
            kept = coord[coo.data != 0]
            every, coord = kept.shape[0] == coord.shape[0], kept
        counts = X.bincount(coord.astype(np.int64, copy=False), minlength=self.shape[1 - axis])
        # SciPy: int64 (bincount), but along the compressed axis of CSR/CSC np.diff(indptr),
        # in the index dtype, unless a stored zero makes count_nonzero count line by line
        if every and axis == {"csr": 1, "csc": 0}.get(self.format):
            counts = counts.astype(self.indptr.dtype, copy=False)
        return counts

    @property
    def size(self):
        return self.nnz

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def getnnz(self, axis=None):
        """Stored values (explicit zeros and duplicates included); per column or row with
        ``axis``."""
        if axis is None:
            return self.nnz
        return self._axis_counts(self.tocoo(), axis, nonzero=False)

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0
        raise ValueError("The truth value of an array with more than one element is "
                         "ambiguous. Use a.any() or a.all().")

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        return (f"<npgpu {self.format.upper()} sparse {kind} of dtype '{self.dtype}'\n"
                f"\twith {self.nnz} stored elements and shape {self.shape}>")

    def __str__(self):
        """SciPy's listing: the repr, then an ``  (i, j)\tvalue`` line an entry, the middle
        ones left out past ``maxprint`` entries (the listed entries read to the host)."""
        out = repr(self)
        if self.nnz == 0:
            return out
        A = self.tocoo()

        def lines(part):
            coords = zip(*(c[part].get().tolist() for c in A.coords))
            return "\n".join(f"  {ij}\t{v}" for ij, v in zip(coords, A.data[part].get()))

        out += "\n  Coords\tValues\n"
        m = self.maxprint
        if self.nnz > m:
            return out + lines(slice(m // 2)) + "\n  :\t:\n" + lines(slice(-(m - m // 2), None))
        return out + lines(slice(None))

    # ---- arithmetic (``_ops.py`` holds the implementations) ---------------------------
    def __neg__(self):
        if self.dtype == np.bool_:
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._with_data(-self._data)

    def __pos__(self):
        return self.copy()

    def _deduped_data(self):
        """The stored values, duplicates summed first (in place, as SciPy; DIA has none)."""
        if hasattr(self, "sum_duplicates"):
            self.sum_duplicates()
        return self._data

    def __abs__(self):
        return self._with_data(xp().abs(self._deduped_data()))

    def __round__(self, ndigits=0):
        data = xp().round(self._deduped_data(), ndigits)
        check_dtype(data.dtype)             # SciPy's error for float16 (of bool)
        return self._with_data(data)

    def __add__(self, other):
        from . import _ops
        return _ops.add(self, other, 1)

    def __radd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        from . import _ops
        return _ops.add(self, other, -1)

    def __rsub__(self, other):
        from . import _ops
        return _ops.rsub(self, other)

    def __mul__(self, other):
        from . import _ops
        if self._is_array:
            return self.multiply(other)
        if isscalarlike(other):
            return _ops.scale(self, other)
        return self @ other

    def __rmul__(self, other):
        from . import _ops
        if isscalarlike(other) or self._is_array:
            return self.__mul__(other)
        return (self.T @ other.T).T if is_dense(other) else _ops.rmatmul(self, other)

    def __truediv__(self, other):
        from . import _ops
        return _ops.divide(self, other)

    def __matmul__(self, other):
        p = _products or _load_products()
        y = p.spmv_fast(self, other)
        if y is not None:
            return y
        if isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if _no_operand(other):
            return NotImplemented
        return p.matmul(self, other)

    def __rmatmul__(self, other):
        if isscalarlike(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if _no_operand(other):
            return NotImplemented
        from . import _ops
        return _ops.rmatmul(self, other)

    def dot(self, other):
        # SciPy's: a 0-d array goes to ``@`` (COO's own ``dot``: multiplies by it)
        if np.isscalar(other) or (self.format == "coo" and isscalarlike(other)):
            return self * other
        return self @ other

    def __pow__(self, other):
        from . import _ops
        if self._is_array:
            return self.power(other)
        return _ops.matrix_power(self, other)

    def multiply(self, other):
        from . import _ops
        return _ops.multiply(self, other)

    def maximum(self, other):
        from . import _ops
        return _ops.extremum(self, other, "maximum")

    def minimum(self, other):
        from . import _ops
        return _ops.extremum(self, other, "minimum")

    def power(self, n, dtype=None):
        if not isinstance(n, numbers.Number) and not (is_dense(n) and n.ndim == 0):
            raise NotImplementedError("input is not scalar")
        if n == 0:
            raise NotImplementedError("zero power is not supported as it would densify the "
                                      "matrix.\nUse `np.ones(A.shape, dtype=A.dtype)` for this "
                                      "case.")
        data = self._deduped_data()
        data = data if dtype is None else data.astype(dtype)
        return self._with_data(data ** n)       # SciPy's ``**``: bool ** 2 is int8, as NumPy

    # ---- comparisons (``_compare.py``): sparse bool results, as SciPy --------------------
    def __eq__(self, other):
        from . import _compare
        return _compare.compare(self, other, operator.eq)

    def __ne__(self, other):
        from . import _compare
        return _compare.compare(self, other, operator.ne)

    def __lt__(self, other):
        from . import _compare
        return _compare.compare(self, other, operator.lt)

    def __gt__(self, other):
        from . import _compare
        return _compare.compare(self, other, operator.gt)

    def __le__(self, other):
        from . import _compare
        return _compare.compare(self, other, operator.le)

    def __ge__(self, other):
        from . import _compare
        return _compare.compare(self, other, operator.ge)

    __hash__ = None     # as SciPy's: comparisons are elementwise

    # ---- reductions -----------------------------------------------------------------
    def sum(self, axis=None, dtype=None, out=None):
        from . import _ops
        return _ops.reduce_sum(self, axis, dtype, out)

    def mean(self, axis=None, dtype=None, out=None):
        from . import _ops
        return _ops.mean(self, axis, dtype, out)

    def max(self, axis=None, out=None, *, explicit=False):
        from . import _minmax
        return _minmax.extremum(self, axis, out, "maximum", explicit)

    def min(self, axis=None, out=None, *, explicit=False):
        from . import _minmax
        return _minmax.extremum(self, axis, out, "minimum", explicit)

    def nanmax(self, axis=None, out=None, *, explicit=False):
        from . import _minmax
        return _minmax.extremum(self, axis, out, "fmax", explicit)

    def nanmin(self, axis=None, out=None, *, explicit=False):
        from . import _minmax
        return _minmax.extremum(self, axis, out, "fmin", explicit)

    def argmax(self, axis=None, out=None, *, explicit=False):
        from . import _minmax
        return _minmax.argextremum(self, axis, out, "maximum", explicit)

    def argmin(self, axis=None, out=None, *, explicit=False):
        from . import _minmax
        return _minmax.argextremum(self, axis, out, "minimum", explicit)

    def diagonal(self, k=0):
        from . import _ops
        return _ops.diagonal(self, k)

    def setdiag(self, values, k=0):
        from . import _ops
        _ops.setdiag(self, values, k)

    def trace(self, offset=0):
        return self.diagonal(offset).sum()

    def reshape(self, *args, **kwargs):
        """A COO of the new shape (this object when the shape is unchanged and not ``copy``);
        ``order`` 'C' or 'F', as SciPy's."""
        from . import _shape
        order, copy = kwargs.pop("order", "C"), kwargs.pop("copy", False)
        if kwargs:
            raise TypeError("reshape() got unexpected keywords arguments: "
                            f"{', '.join(kwargs.keys())}")
        return _shape.reshape(self, args, order, copy)

    def resize(self, *shape):
        """In place, as SciPy: entries outside the new shape are dropped."""
        from . import _shape
        _shape.resize(self, shape)

    def __getitem__(self, key):
        from . import _index
        return _index.getitem(self, key)

    def _setitem(self, key, x):
        """``self[key] = x`` (``__setitem__`` of CSR, CSC and COO arrays, as SciPy's)."""
        from . import _assign
        _assign.setitem(self, key, x)

    def _result_format(self, m):
        """``m`` (any format) in this object's family: matrix or array."""
        return m

    def nonzero(self):
        """SciPy's: the coordinates of the stored values that are not zero, duplicates not
        summed (a place stored twice is listed twice, even when its values cancel), in
        storage order; CSC's stably sorted by row, DIA's in CSR order."""
        if self.format == "dia":
            return self.tocsr().nonzero()
        c = self.tocoo()
        keep = c.data != 0
        row, col = c.row[keep], c.col[keep]
        if self.format == "csc":
            order = xp().argsort(row, kind="stable")
            row, col = row[order], col[order]
        return row, col


class sparray:
    """SciPy's base of the sparse array classes (``isinstance(A, sparray)``)."""


class spmatrix:
    """SciPy's ``spmatrix``: the methods only the ``*_matrix`` classes have."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # a matrix reshapes in place by ``A.shape = ...`` (SciPy's); the arrays' ``shape``
        # stays read-only (spbase's property comes first in a matrix class's MRO)
        cls.shape = property(spbase.shape.fget, spmatrix.set_shape)

    def _line_index(self, i, n):
        i = int(i)
        if i < 0:
            i += n
        if i < 0 or i >= n:
            # CSR/CSC's own message; the other formats' is the base class's
            raise IndexError(f"index ({i}) out of range" if self.format in ("csr", "csc")
                             else "index out of bounds")
        return i

    def getrow(self, i):
        """Row ``i`` as a ``(1, n)`` CSR matrix (every format, as SciPy)."""
        return self.tocsr()[self._line_index(i, self.shape[0]), :]

    def getcol(self, j):
        """Column ``j`` as an ``(m, 1)`` matrix: CSC for CSC, else CSR (as SciPy)."""
        col = self.tocsc()[:, self._line_index(j, self.shape[1])]
        return col if self.format == "csc" else col.tocsr()

    def getformat(self):
        return self.format

    @property
    def H(self):
        """The conjugate transpose (SciPy's sparse arrays have no ``H``)."""
        return self.transpose().conj()

    def getH(self):
        return self.H

    def getmaxprint(self):
        return self.maxprint

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        """In place: this matrix reshaped (SciPy's ``set_shape``)."""
        new = self.reshape(shape, copy=False).asformat(self.format)
        self.__dict__ = new.__dict__

    def asfptype(self):
        """This matrix if its dtype is float32/64 or complex64/128, else the first of them
        it casts to safely."""
        if self.dtype.char in "fdFD":
            return self
        for t in "fdFD":
            if self.dtype <= np.dtype(t):
                return self.astype(t)
        raise TypeError(f"cannot upcast [{self.dtype.name}] to a floating point format")


# SciPy's ufuncs with f(0) == 0: methods applied to the summed stored values
_UFUNCS_ZERO_AT_ZERO = ("sin", "tan", "arcsin", "arctan", "sinh", "tanh", "arcsinh", "arctanh",
                        "rint", "sign", "expm1", "log1p", "deg2rad", "rad2deg", "floor", "ceil",
                        "trunc", "sqrt")


def _ufunc_method(name):
    def method(self):
        data = getattr(xp(), name)(self._deduped_data())
        check_dtype(data.dtype)             # SciPy's error for float16 (of bool and int8)
        return self._with_data(data)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Element-wise {name}.\n\nSee `numpy.{name}` for more information."
    return method


for _name in _UFUNCS_ZERO_AT_ZERO:
    setattr(spbase, _name, _ufunc_method(_name))


def issparse(x):
    return isinstance(x, spbase)


def isspmatrix(x):
    return isinstance(x, spbase) and not x._is_array


def _fmt_check(fmt):
    def check(x):
        return isspmatrix(x) and x.format == fmt
    check.__name__ = f"isspmatrix_{fmt}"
    check.__doc__ = f"Whether ``x`` is a ``{fmt}_matrix``."
    return check


isspmatrix_csr = _fmt_check("csr")
isspmatrix_csc = _fmt_check("csc")
isspmatrix_coo = _fmt_check("coo")
isspmatrix_dia = _fmt_check("dia")
