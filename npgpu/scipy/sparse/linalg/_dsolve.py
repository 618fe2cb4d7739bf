"""Direct solves: ``spsolve`` (LU of the densified matrix: cuSOLVER getrf/getrs through
``npgpu.linalg.solve``) and ``spsolve_triangular`` (cuBLAS trsm on the densified triangle).

Both densify A on the device, so they are for matrices up to ``DENSE_LIMIT`` rows; SciPy's
checks, messages and singular-matrix behaviour (a ``MatrixRankWarning`` and a NaN result in
``spsolve``; ``LinAlgError`` in ``spsolve_triangular``) are kept.
"""
import warnings

import numpy
from scipy.sparse.linalg import MatrixRankWarning

from . import _xp as xp
from npgpu.linalg import LinAlgError

from .._base import SparseEfficiencyWarning, issparse

__all__ = ["spsolve", "spsolve_triangular", "MatrixRankWarning", "DENSE_LIMIT"]

# n x n dense float64 of 2^15 rows is 8 GiB: past this an iterative solver is the tool
DENSE_LIMIT = 1 << 15


def _efficiency_warning(msg):
    warnings.warn(msg, SparseEfficiencyWarning, stacklevel=3)


def _is_sparse(x):
    return bool(issparse(x))


def _format(x):
    return getattr(x, "format", None)


def _dense(A, dtype):
    """A on the device as a dense array of ``dtype``."""
    if _is_sparse(A):
        return A.toarray().astype(dtype, copy=False)
    return xp.asarray(A).astype(dtype, copy=False)


def _check_size(n):
    if n > DENSE_LIMIT:
        raise NotImplementedError(f"npgpu's spsolve densifies A; n = {n} is above its limit "
                                  f"{DENSE_LIMIT} (use an iterative solver such as gmres)")


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """Solve ``A x = b``; x is 1-D when b is a vector ((N,) or (N, 1)), sparse when b is."""
    if not (_is_sparse(A) and _format(A) in ("csc", "csr")):
        _efficiency_warning("spsolve requires A be CSC or CSR matrix format")
    b_is_sparse = _is_sparse(b)
    if not b_is_sparse:
        b = xp.asarray(b)
    b_is_vector = b.ndim == 1 or (b.ndim == 2 and b.shape[1] == 1)
    a_dtype = A.dtype if A.dtype.kind in "fc" else numpy.dtype(numpy.float64)
    result_dtype = numpy.promote_types(a_dtype, b.dtype)
    M, N = A.shape
    if M != N:
        raise ValueError(f"matrix must be square (has shape {(M, N)})")
    if M != b.shape[0]:
        raise ValueError(f"matrix - rhs dimension mismatch ({A.shape} - {b.shape[0]})")
    _check_size(N)
    Ad = _dense(A, result_dtype)
    bd = _dense(b, result_dtype)
    try:
        x = xp.linalg.solve(Ad, bd)
    except LinAlgError:
        warnings.warn("Matrix is exactly singular", MatrixRankWarning, stacklevel=2)
        x = xp.full(bd.shape, numpy.nan, dtype=result_dtype)
    if b_is_vector:
        return x.ravel()
    if b_is_sparse:
        return type(b)(x)
    return x


def _trsm(a_f, b_f, lower, unit_diagonal):
    """b_f := inv(tri(a_f)) b_f in place; both column-major on the device, dtype fdFD."""
    from npgpu.linalg import _handles as H
    cb = H.cublas_module()
    n, k = b_f.shape
    dt = a_f.dtype
    f = getattr(cb, {"f": "s", "d": "d", "F": "c", "D": "z"}[dt.char] + "trsm")
    uplo = int(cb.FillMode.LOWER if lower else cb.FillMode.UPPER)
    diag = int(cb.DiagType.UNIT if unit_diagonal else cb.DiagType.NON_UNIT)
    f(H.cublas_handle(), int(cb.SideMode.LEFT), uplo, int(cb.Operation.N), diag, n, k,
      H.host_scalar(1, dt), a_f._ptr, max(n, 1), b_f._ptr, max(n, 1))


def spsolve_triangular(A, b, lower=True, overwrite_A=False, overwrite_b=False,
                       unit_diagonal=False):
    """Solve ``A x = b`` for triangular A (only the triangle named by ``lower`` is read)."""
    if not (_is_sparse(A) and _format(A) in ("csc", "csr")):
        _efficiency_warning("CSC or CSR matrix format is required. Converting to CSC matrix.")
    M, N = A.shape
    if M != N:
        raise ValueError(f"A must be a square matrix but its shape is {A.shape}.")
    if not unit_diagonal:
        diag = A.diagonal() if _is_sparse(A) else xp.diagonal(xp.asarray(A))
        if bool(xp.any(diag == 0)):                    # one read
            raise LinAlgError("A is singular: zero entry on diagonal.")
    b = xp.asarray(b)
    if b.ndim not in [1, 2]:
        raise ValueError(f"b must have 1 or 2 dims but its shape is {b.shape}.")
    if M != b.shape[0]:
        raise ValueError("The size of the dimensions of A must be equal to the size of the "
                         f"first dimension of b but the shape of A is {A.shape} and the shape "
                         f"of b is {b.shape}.")
    _check_size(N)
    result_dtype = numpy.promote_types(numpy.promote_types(A.dtype, numpy.float32), b.dtype)
    a_f = xp.asfortranarray(_dense(A, result_dtype))
    x = xp.array(b.reshape(N, -1), dtype=result_dtype, order="F")    # trsm overwrites it
    if N and x.shape[1]:
        _trsm(a_f, x, lower, unit_diagonal)
    return x.reshape(b.shape)
