"""1-d COO arrays (shape ``(n,)``), as SciPy 1.17's ``coo_array`` with one axis: the result of
``max``/``min``/``nanmax``/``nanmin`` over an axis of a sparse array, and what one does with it.

A 1-d array keeps its one index array in ``col`` (``coords == (col,)``) and zeros in ``row``,
so it is the ``(1, n)`` COO matrix read with another shape: ``view2d`` gives that matrix without
copies, and the reductions, ``sum_duplicates`` and ``reshape`` run on it.  Every public method
of ``coo_array`` answers a 1-d array by its row in ``ROWS`` (``install``): ``SAME`` (the 2-d
code serves as is), a 1-d function, or SciPy's error.  A method without a row raises
NotImplementedError for 1-d arrays: SciPy gives 1-d CSR/DOK results (sparse products,
comparisons, ``maximum``, indexing, ``tocsr``) that npgpu does not have.
"""
import functools
import inspect
import types

import numpy as np

from ...ufuncs.at import ufunc_at
from ._base import spbase, xp, index_dtype, asdevice, finish, is_shape, check_shape

SAME = None         # a row meaning: the 2-d method is right for 1-d arrays too

# special methods ``install`` also covers (public names are found by ``dir``)
_SPECIAL = ("_get", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
            "__truediv__", "__matmul__", "__rmatmul__", "__pow__", "__neg__", "__pos__",
            "__abs__", "__round__", "__eq__", "__ne__", "__lt__", "__gt__", "__le__", "__ge__",
            "__getitem__", "__setitem__", "__len__", "__bool__", "__repr__")


def make(data, idx, n, canonical=False):
    """The 1-d ``coo_array`` of shape ``(n,)`` holding ``data`` at ``idx``."""
    from ._coo import coo_array
    idx = idx.astype(index_dtype(n), copy=False)
    zeros = xp().zeros(idx.shape[0], idx.dtype)
    return coo_array._from_parts(data, zeros, idx, (n,), canonical)


def view2d(a):
    """The ``(1, n)`` COO array of the 1-d array ``a``, sharing its arrays."""
    return type(a)._from_parts(a.data, a.row, a.col, (1, a.shape[0]), a.has_canonical_format)


# ---- construction (``_coo_base.__init__`` asks ``parse`` first) ----------------------------
def parse(arg1, shape):
    """(data, index, shape or None, copy-implied) when ``arg1`` (with ``shape``) is 1-d input
    to ``coo_array`` other than a dense vector, else None.  SciPy's mismatch error when the
    index tuple and ``shape`` disagree."""
    if isinstance(arg1, spbase) or _is_scipy_sparse(arg1):
        if arg1.ndim != 1:
            return None
        if isinstance(arg1, spbase):
            return arg1.data, arg1.col, arg1.shape, True
        c = arg1.tocoo()
        return asdevice(c.data), asdevice(c.coords[0]), c.shape, False
    if not isinstance(arg1, tuple):
        return None
    if is_shape(arg1, (1,)):                                            # a shape (n,)
        (n,) = check_shape(arg1, (1,))
        return (xp().empty(0, np.float64), xp().empty(0, index_dtype(n)), (n,), False)
    if len(arg1) != 2 or not isinstance(arg1[1], (tuple, list)):
        return None
    ndim = len(arg1[1]) if shape is None else len(shape)
    if len(arg1[1]) != ndim:
        raise ValueError("mismatching number of index arrays for shape; got "
                         f"{len(arg1[1])}, expected {ndim}")
    if ndim != 1:
        return None
    return asdevice(arg1[0]), asdevice(arg1[1][0]), shape, False


def from_dense(dense):
    """(data, index) of a 1-d dense vector's nonzero entries."""
    idx = xp().nonzero(dense)[0]
    return dense[idx], idx


def init(self, data, idx, shape, dtype, copy):
    """Fill the new 1-d array ``self``: SciPy's checks of lengths, index type and bounds."""
    from ._coo import _host_int
    X = xp()
    if data.ndim != 1 or idx.ndim != 1 or data.shape[0] != idx.shape[0]:
        raise ValueError("all index and data arrays must have the same length")
    if idx.dtype.kind not in "iu":
        if shape is None:               # SciPy's operator.index of the largest index
            raise TypeError(f"'numpy.{idx.dtype.name}' object cannot be interpreted as an "
                            "integer")
        idx = idx.astype(np.int64)      # SciPy casts to its index type: truncated
    if shape is None:
        if idx.size == 0:
            raise ValueError("cannot infer dimensions from zero sized index arrays")
        shape = (_host_int(idx.max()) + 1,)
    shape, data, idx = finish(shape, dtype, copy, data, idx, allow_nd=(1,))
    n = shape[0]
    if idx.shape[0]:
        hi, lo = _host_int(idx.max()), _host_int(idx.min())
        if hi >= n:
            raise ValueError(f"axis 0 index {hi} exceeds matrix dimension {n}")
        if lo < 0:
            raise ValueError(f"negative axis 0 index: {lo}")
    idx = idx.astype(index_dtype(n), copy=False)
    self._shape, self.data, self.col = shape, data, idx
    self.row = X.zeros(idx.shape[0], idx.dtype)


def _is_scipy_sparse(x):
    from ._coo import _is_scipy_sparse as check      # (``_coo`` imports this module)
    return check(x)


# ---- the 1-d methods -----------------------------------------------------------------------
def toarray(self, order=None, out=None):
    X = xp()
    out = self._toarray_out(order, out)
    if self.nnz:
        ufunc_at(X.add, out, self.col, self.data, check=False)
    return out


def _get(self, stream=None):
    import scipy.sparse as ss
    return ss.coo_array((self.data.get(), (self.col.get(),)), shape=self.shape)


def transpose(self, axes=None, copy=False):
    if axes is not None and tuple(axes) != (0,):
        raise ValueError("axes don't match matrix dimensions")
    t = type(self)._from_parts(self.data, self.row, self.col, self.shape,
                               self.has_canonical_format)
    return t.copy() if copy else t


def sum_duplicates(self):
    if self.has_canonical_format:
        return
    v = view2d(self)
    v.sum_duplicates()
    self.data, self.row, self.col = v.data, v.row, v.col
    self.has_canonical_format = True


def nonzero(self):
    # SciPy's: duplicates are not summed first
    return (self.col[self.data != 0],)


def _one_axis(axis):
    # SciPy's 1-d CSR (its 1-d COO fails with an IndexError here): 0 and -1 mean all
    if axis is not None and axis not in (0, -1):
        raise ValueError("axis out of bounds")


def count_nonzero(self, axis=None):
    _one_axis(axis)
    self.sum_duplicates()                  # in place, as SciPy
    return int(xp().count_nonzero(self.data))


def getnnz(self, axis=None):
    _one_axis(axis)
    return self.nnz


def _scalar(x):
    from ._ops import _is_scalar
    return _is_scalar(x)


def _unsupported(name):
    def method(self, *args, **kwargs):
        raise NotImplementedError(
            f"{name} of a 1-d sparse array is not implemented: npgpu's 1-d sparse arrays are "
            "COO only (toarray() gives the dense vector)")
    return method


# SciPy's messages for a nonzero scalar, by (subtract, reflected)
_NONZERO_SCALAR = {
    (False, False): "adding a nonzero scalar to a sparse array is not supported",
    (False, True): "adding a nonzero scalar to a sparse array is not supported",
    (True, False): "subtracting a nonzero scalar from a sparse array is not supported",
    (True, True): "subtracting a sparse array from a nonzero scalar is not supported"}


def _add(name, subtract, reflected):
    def method(self, other):
        if not _scalar(other):
            return _unsupported(name)(self)
        if other != 0:
            raise NotImplementedError(_NONZERO_SCALAR[subtract, reflected])
        return -self if subtract and reflected else self.copy()
    return method


def _scale(name):
    def method(self, other):
        if not _scalar(other):
            return _unsupported(name)(self)
        from ._ops import scale
        return scale(self, other)
    return method


def truediv(self, other):
    if not _scalar(other):
        return _unsupported("__truediv__")(self)
    from ._ops import divide
    return divide(self, other)


def _raise(cls, message):
    def method(self, *args, **kwargs):
        raise cls(message)
    return method


ROWS = {
    "toarray": toarray, "_get": _get, "transpose": transpose,
    "sum_duplicates": sum_duplicates, "nonzero": nonzero,
    "count_nonzero": count_nonzero, "getnnz": getnnz,
    "__add__": _add("__add__", False, False), "__radd__": _add("__radd__", False, True),
    "__sub__": _add("__sub__", True, False), "__rsub__": _add("__rsub__", True, True),
    "__mul__": _scale("__mul__"), "__rmul__": _scale("__rmul__"),
    "multiply": _scale("multiply"), "dot": _scale("dot"), "__truediv__": truediv,
    "tocsc": _raise(ValueError, "Cannot convert. CSC format must be 2D. Got 1D"),
    "todia": _raise(ValueError, "Cannot convert. DIA format must be 2D. Got 1D"),
    "diagonal": _raise(ValueError, "diagonal requires two dimensions"),
    # SciPy's own error (its unpacking of a 2-d shape)
    "setdiag": _raise(ValueError, "not enough values to unpack (expected 2, got 1)"),
    # through toarray, _get, transpose, sum_duplicates, _with_data or as_2d (reductions)
    **dict.fromkeys(
        ("copy", "tocoo", "asformat", "astype", "conj", "conjugate", "todense", "get", "getH",
         "eliminate_zeros", "power", "reshape", "trace", "sum", "mean", "max", "min",
         "nanmax", "nanmin", "argmax", "argmin", "__neg__", "__pos__", "__abs__",
         "__round__", "__pow__", "__len__", "__bool__", "__repr__", "resize"), SAME),
}


def install(cls):
    """Give every public method of ``cls`` (and ``_SPECIAL``) its 1-d row: a dispatch on the
    number of dimensions, or the 2-d method untouched for ``SAME``."""
    from ._base import _UFUNCS_ZERO_AT_ZERO
    rows = dict(ROWS, **dict.fromkeys(_UFUNCS_ZERO_AT_ZERO, SAME))
    names = [n for n in dir(cls) if not n.startswith("_") or n in _SPECIAL]
    for name in names:
        two_d = inspect.getattr_static(cls, name)
        if not isinstance(two_d, types.FunctionType):
            continue                        # properties, classmethods, plain attributes
        one_d = rows.get(name, _unsupported(name))
        if one_d is SAME:
            continue
        setattr(cls, name, _dispatch(two_d, one_d))


def _dispatch(two_d, one_d):
    @functools.wraps(two_d)
    def method(self, *args, **kwargs):
        if len(self._shape) == 1:
            return one_d(self, *args, **kwargs)
        return two_d(self, *args, **kwargs)
    return method
