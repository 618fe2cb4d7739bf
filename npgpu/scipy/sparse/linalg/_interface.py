"""SciPy's ``LinearOperator`` algebra on npgpu arrays (``scipy.sparse.linalg._interface``).

An operator is its shape, its dtype and the products it can form; sums, products, scalings,
powers, adjoints and transposes are lazy operators over their operands, as in SciPy.  Vectors
handed to ``matvec`` & co. are npgpu arrays (host arrays and lists are copied to the device
explicitly, as ``npgpu.asarray`` does); a matrix handed to ``aslinearoperator`` is anything with
``.shape``, ``.dtype`` and ``@`` (dense npgpu arrays, npgpu's sparse matrices).
"""
import warnings

import numpy

from . import _xp as xp

__all__ = ["LinearOperator", "aslinearoperator", "IdentityOperator", "MatrixLinearOperator"]


def _isshape(shape):
    return (len(shape) == 2 and all(isinstance(s, (int, numpy.integer)) and not isinstance(s, bool)
                                    and s >= 0 for s in shape))


def _is_matrix_like(x):
    """npgpu's sparse matrices (and other device matrices) pass through untouched."""
    return (not isinstance(x, (xp.ndarray, numpy.ndarray)) and hasattr(x, "shape")
            and hasattr(x, "dtype") and hasattr(x, "__matmul__") and hasattr(x, "nnz"))


def _device(x):
    """``x`` as an npgpu array (host data copied to the device explicitly)."""
    if isinstance(x, xp.ndarray) or _is_matrix_like(x):
        return x
    return xp.asarray(x)


def _conj(x):
    return x.conj() if x.dtype.kind == "c" else x


def _hstack(cols):
    return xp.hstack(cols) if cols else None


class LinearOperator:
    """Common interface for performing matrix-vector products (SciPy's ``LinearOperator``).

    ``LinearOperator(shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None)``
    builds one from callables; subclasses implement ``_matvec`` or ``_matmat`` (and optionally
    ``_rmatvec``/``_rmatmat``/``_adjoint``) and call ``super().__init__(dtype, shape)``.
    """

    ndim = 2
    # NumPy's operators must not try to broadcast an operator as an object array
    __array_ufunc__ = None

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            return super().__new__(_CustomLinearOperator)
        obj = super().__new__(cls)
        if (type(obj)._matvec == LinearOperator._matvec
                and type(obj)._matmat == LinearOperator._matmat):
            warnings.warn("LinearOperator subclass should implement at least one of _matvec "
                          "and _matmat.", category=RuntimeWarning, stacklevel=2)
        return obj

    def __init__(self, dtype, shape):
        if dtype is not None:
            dtype = numpy.dtype(dtype)
        shape = tuple(shape)
        if not _isshape(shape):
            raise ValueError(f"invalid shape {shape!r} (must be 2-d)")
        self.dtype = dtype
        self.shape = shape

    def _init_dtype(self):
        """The dtype of ``matvec`` of an int8 zero vector (int8 promotes to anything)."""
        if self.dtype is None:
            self.dtype = self.matvec(xp.zeros(self.shape[-1], dtype=numpy.int8)).dtype

    # ---- defaults: each product from another one ----
    def _matmat(self, X):
        return _hstack([self.matvec(col.reshape(-1, 1)) for col in X.T])

    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def _rmatvec(self, x):
        if type(self)._adjoint == LinearOperator._adjoint:
            if type(self)._rmatmat != LinearOperator._rmatmat:
                return self._rmatmat(x.reshape(-1, 1)).reshape(-1)
            raise NotImplementedError
        return self.H.matvec(x)

    def _rmatmat(self, X):
        if type(self)._adjoint == LinearOperator._adjoint:
            return _hstack([self.rmatvec(col.reshape(-1, 1)) for col in X.T])
        return self.H.matmat(X)

    # ---- checked products ----
    def matvec(self, x):
        """``A @ x`` for x of shape (N,) or (N, 1); the result has shape (M,) or (M, 1)."""
        x = _device(x)
        M, N = self.shape
        if x.shape != (N,) and x.shape != (N, 1):
            raise ValueError("dimension mismatch")
        y = _device(self._matvec(x))
        if x.ndim == 1:
            return y.reshape(M)
        return y.reshape(M, 1)

    def rmatvec(self, x):
        """``A^H @ x`` for x of shape (M,) or (M, 1)."""
        x = _device(x)
        M, N = self.shape
        if x.shape != (M,) and x.shape != (M, 1):
            raise ValueError("dimension mismatch")
        y = _device(self._rmatvec(x))
        if x.ndim == 1:
            return y.reshape(N)
        return y.reshape(N, 1)

    def matmat(self, X):
        """``A @ X`` for a 2-D X."""
        X = _device(X)
        if X.ndim != 2:
            raise ValueError(f"expected 2-d ndarray or matrix, not {X.ndim}-d")
        if X.shape[0] != self.shape[1]:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return self._matmat(X)

    def rmatmat(self, X):
        """``A^H @ X`` for a 2-D X."""
        X = _device(X)
        if X.ndim != 2:
            raise ValueError(f"expected 2-d ndarray or matrix, not {X.ndim}-d")
        if X.shape[0] != self.shape[0]:
            raise ValueError(f"dimension mismatch: {self.shape}, {X.shape}")
        return self._rmatmat(X)

    # ---- operators ----
    def __call__(self, x):
        return self @ x

    def __mul__(self, x):
        return self.dot(x)

    def __truediv__(self, other):
        if not numpy.isscalar(other):
            raise ValueError("Can only divide a linear operator by a scalar.")
        return _ScaledLinearOperator(self, 1.0 / other)

    def dot(self, x):
        """An operator for an operator or a scalar, else the product with a 1-D or 2-D array."""
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if numpy.isscalar(x):
            return _ScaledLinearOperator(self, x)
        x = _device(x)
        if x.ndim == 1 or x.ndim == 2 and x.shape[1] == 1:
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    def __matmul__(self, other):
        if numpy.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__mul__(other)

    def __rmatmul__(self, other):
        if numpy.isscalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__rmul__(other)

    def __rmul__(self, x):
        if numpy.isscalar(x):
            return _ScaledLinearOperator(self, x)
        return self._rdot(x)

    def _rdot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(x, self)
        if numpy.isscalar(x):
            return _ScaledLinearOperator(self, x)
        x = _device(x)
        # x A = (A^T x^T)^T: the transpose avoids conjugating twice
        if x.ndim == 1 or x.ndim == 2 and x.shape[0] == 1:
            return self.T.matvec(x.T).T
        if x.ndim == 2:
            return self.T.matmat(x.T).T
        raise ValueError(f"expected 1-d or 2-d array or matrix, got {x!r}")

    def __pow__(self, p):
        if numpy.isscalar(p):
            return _PowerLinearOperator(self, p)
        return NotImplemented

    def __add__(self, x):
        if isinstance(x, LinearOperator):
            return _SumLinearOperator(self, x)
        return NotImplemented

    def __neg__(self):
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, x):
        return self.__add__(-x)

    def __repr__(self):
        M, N = self.shape
        dt = "unspecified dtype" if self.dtype is None else "dtype=" + str(self.dtype)
        return f"<{M}x{N} {self.__class__.__name__} with {dt}>"

    def adjoint(self):
        """The Hermitian adjoint (conjugate transpose), also ``.H``."""
        return self._adjoint()

    H = property(adjoint)

    def transpose(self):
        """The transpose, also ``.T``."""
        return self._transpose()

    T = property(transpose)

    def _adjoint(self):
        return _AdjointLinearOperator(self)

    def _transpose(self):
        return _TransposedLinearOperator(self)


class _CustomLinearOperator(LinearOperator):
    """An operator from user callables."""

    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        super().__init__(dtype, shape)
        self.args = ()
        self.__matvec_impl = matvec
        self.__rmatvec_impl = rmatvec
        self.__rmatmat_impl = rmatmat
        self.__matmat_impl = matmat
        self._init_dtype()

    def _matmat(self, X):
        if self.__matmat_impl is not None:
            return self.__matmat_impl(X)
        return super()._matmat(X)

    def _matvec(self, x):
        return self.__matvec_impl(x)

    def _rmatvec(self, x):
        if self.__rmatvec_impl is None:
            raise NotImplementedError("rmatvec is not defined")
        return self.__rmatvec_impl(x)

    def _rmatmat(self, X):
        if self.__rmatmat_impl is not None:
            return self.__rmatmat_impl(X)
        return super()._rmatmat(X)

    def _adjoint(self):
        return _CustomLinearOperator(shape=(self.shape[1], self.shape[0]),
                                     matvec=self.__rmatvec_impl, rmatvec=self.__matvec_impl,
                                     matmat=self.__rmatmat_impl, rmatmat=self.__matmat_impl,
                                     dtype=self.dtype)


class _AdjointLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(dtype=A.dtype, shape=(A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return self.A._rmatvec(x)

    def _rmatvec(self, x):
        return self.A._matvec(x)

    def _matmat(self, x):
        return self.A._rmatmat(x)

    def _rmatmat(self, x):
        return self.A._matmat(x)


class _TransposedLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(dtype=A.dtype, shape=(A.shape[1], A.shape[0]))
        self.A = A
        self.args = (A,)

    def _matvec(self, x):
        return _conj(self.A._rmatvec(_conj(x)))

    def _rmatvec(self, x):
        return _conj(self.A._matvec(_conj(x)))

    def _matmat(self, x):
        return _conj(self.A._rmatmat(_conj(x)))

    def _rmatmat(self, x):
        return _conj(self.A._matmat(_conj(x)))


def _get_dtype(operators, dtypes=None):
    dtypes = list(dtypes or [])
    for obj in operators:
        if obj is not None and getattr(obj, "dtype", None) is not None:
            dtypes.append(obj.dtype)
    return numpy.result_type(*dtypes)


class _SumLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape != B.shape:
            raise ValueError(f"cannot add {A} and {B}: shape mismatch")
        self.args = (A, B)
        super().__init__(_get_dtype([A, B]), A.shape)

    def _matvec(self, x):
        return self.args[0].matvec(x) + self.args[1].matvec(x)

    def _rmatvec(self, x):
        return self.args[0].rmatvec(x) + self.args[1].rmatvec(x)

    def _rmatmat(self, x):
        return self.args[0].rmatmat(x) + self.args[1].rmatmat(x)

    def _matmat(self, x):
        return self.args[0].matmat(x) + self.args[1].matmat(x)

    def _adjoint(self):
        A, B = self.args
        return A.H + B.H


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if not isinstance(A, LinearOperator) or not isinstance(B, LinearOperator):
            raise ValueError("both operands have to be a LinearOperator")
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        super().__init__(_get_dtype([A, B]), (A.shape[0], B.shape[1]))
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(self.args[1].matvec(x))

    def _rmatvec(self, x):
        return self.args[1].rmatvec(self.args[0].rmatvec(x))

    def _rmatmat(self, x):
        return self.args[1].rmatmat(self.args[0].rmatmat(x))

    def _matmat(self, x):
        return self.args[0].matmat(self.args[1].matmat(x))

    def _adjoint(self):
        A, B = self.args
        return B.H @ A.H


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if not numpy.isscalar(alpha):
            raise ValueError("scalar expected as alpha")
        if isinstance(A, _ScaledLinearOperator):
            A, alpha_original = A.args
            alpha = alpha * alpha_original
        super().__init__(_get_dtype([A], [type(alpha)]), A.shape)
        self.args = (A, alpha)

    def _matvec(self, x):
        return self.args[1] * self.args[0].matvec(x)

    def _rmatvec(self, x):
        return numpy.conj(self.args[1]) * self.args[0].rmatvec(x)

    def _rmatmat(self, x):
        return numpy.conj(self.args[1]) * self.args[0].rmatmat(x)

    def _matmat(self, x):
        return self.args[1] * self.args[0].matmat(x)

    def _adjoint(self):
        A, alpha = self.args
        return A.H * numpy.conj(alpha)


class _PowerLinearOperator(LinearOperator):
    def __init__(self, A, p):
        if not isinstance(A, LinearOperator):
            raise ValueError("LinearOperator expected as A")
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"square LinearOperator expected, got {A!r}")
        if not _isintlike(p) or p < 0:
            raise ValueError("non-negative integer expected as p")
        super().__init__(_get_dtype([A]), A.shape)
        self.args = (A, int(p))

    def _power(self, fun, x):
        res = x.copy()
        for _ in range(self.args[1]):
            res = fun(res)
        return res

    def _matvec(self, x):
        return self._power(self.args[0].matvec, x)

    def _rmatvec(self, x):
        return self._power(self.args[0].rmatvec, x)

    def _rmatmat(self, x):
        return self._power(self.args[0].rmatmat, x)

    def _matmat(self, x):
        return self._power(self.args[0].matmat, x)

    def _adjoint(self):
        A, p = self.args
        return A.H ** p


def _isintlike(p):
    if numpy.ndim(p) != 0:
        return False
    try:
        return int(p) == p
    except (TypeError, ValueError):
        return False


class MatrixLinearOperator(LinearOperator):
    """An operator over a matrix: a dense npgpu array or a sparse matrix (anything with ``@``)."""

    def __init__(self, A):
        super().__init__(A.dtype, A.shape)
        self.A = A
        self.__adj = None
        self.args = (A,)

    def _matmat(self, X):
        return self.A @ X

    def _matvec(self, x):
        return self.A @ x

    def _adjoint(self):
        if self.__adj is None:
            self.__adj = _AdjointMatrixOperator(self.A)
        return self.__adj


class _AdjointMatrixOperator(MatrixLinearOperator):
    def __init__(self, adjoint_array):
        At = adjoint_array.T
        self.A = At.conj() if adjoint_array.dtype.kind == "c" else At
        self.args = (adjoint_array,)
        self.shape = adjoint_array.shape[1], adjoint_array.shape[0]

    @property
    def dtype(self):
        return self.args[0].dtype

    def _adjoint(self):
        return MatrixLinearOperator(self.args[0])


class IdentityOperator(LinearOperator):
    """The identity: every product returns its argument."""

    def __init__(self, shape, dtype=None):
        super().__init__(dtype, shape)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x

    def _rmatmat(self, x):
        return x

    def _matmat(self, x):
        return x

    def _adjoint(self):
        return self


def aslinearoperator(A):
    """``A`` as a LinearOperator: operators as they are; npgpu (or host, copied to the device)
    arrays of ndim <= 2; sparse matrices (anything with ``.shape``, ``.dtype`` and ``@``);
    objects with ``.shape`` and ``.matvec`` (and optionally ``rmatvec``, ``rmatmat``, ``dtype``).
    """
    if isinstance(A, LinearOperator):
        return A
    if isinstance(A, (xp.ndarray, numpy.ndarray)):
        if A.ndim > 2:
            raise ValueError("array must have ndim <= 2")
        return MatrixLinearOperator(xp.atleast_2d(xp.asarray(A)))
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              rmatmat=getattr(A, "rmatmat", None),
                              dtype=getattr(A, "dtype", None))
    if (hasattr(A, "shape") and hasattr(A, "dtype") and hasattr(A, "__matmul__")
            and len(A.shape) == 2):
        if type(A).__module__.startswith("scipy."):
            # a SciPy (host) sparse matrix: copied to the device explicitly, as asarray does
            from .. import _compressed, _coo, _dia
            kinds = {"csc": _compressed.csc_matrix, "coo": _coo.coo_matrix,
                     "dia": _dia.dia_matrix}
            A = kinds.get(A.format, _compressed.csr_matrix)(A)
        return MatrixLinearOperator(A)
    raise TypeError("type not understood")
