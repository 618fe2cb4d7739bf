"""``npgpu.linalg``: NumPy's linear algebra on cuBLAS and cuSOLVER.

* Products (matmul, dot, einsum, ...) of float16/32/64 and complex64/128 run on
  cuBLAS; integer and bool products run on a generated tiled kernel with
  NumPy's result dtypes.
* float32 products are true float32 by default.  TF32 tensor cores are an
  explicit opt-in: :func:`set_tf32` (``True``) or ``NPGPU_ALLOW_TF32=1``.
* Decompositions and solvers run on cuSOLVER (64-bit generic API where it
  exists).  :class:`LinAlgError` (a ``numpy.linalg.LinAlgError``) is raised for
  singular / non-positive-definite / non-converging inputs; that needs the
  library's info flag on the host (a wait for the GPU).  :func:`set_error_check`
  (``False``) or ``NPGPU_LINALG_CHECK=0`` skips the check and keeps calls
  asynchronous.
* On the simulator, cuBLAS and cuSOLVER are host stand-ins (:mod:`._sim`: NumPy and
  LAPACK on the simulated device memory) with the same entry points, so every
  function runs there through the same code as on the GPU.
"""
from ._common import LinAlgError, get_error_check, set_error_check
from ._handles import get_tf32, set_tf32
from .products import dot, inner, kron, matvec, multi_dot, vdot, vecmat
from .array_api import (cross, diagonal, matmul, matrix_transpose, outer, tensordot, trace,
                        vecdot)
from .einsum import einsum, einsum_path
from .solve import det, inv, matrix_power, slogdet, solve, tensorinv, tensorsolve
from .lstsq import lstsq, pinv
from .decomp import cholesky, eig, eigh, eigvals, eigvalsh, qr, svd, svdvals
from .norms import cond, matrix_norm, matrix_rank, norm, vector_norm


def _install_methods():
    from .._core.ndarray import ndarray
    from .products import diagonal, dot, trace

    def dot_method(self, b, out=None):
        return dot(self, b, out=out)

    def trace_method(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return trace(self, offset, axis1, axis2, dtype, out)

    def diagonal_method(self, offset=0, axis1=0, axis2=1):
        return diagonal(self, offset, axis1, axis2)

    for name, f in (("dot", dot_method), ("trace", trace_method), ("diagonal", diagonal_method)):
        if not hasattr(ndarray, name):
            setattr(ndarray, name, f)


_install_methods()

__all__ = ["LinAlgError", "set_error_check", "get_error_check", "set_tf32", "get_tf32",
           "cross", "dot", "inner", "kron", "matmul", "matrix_power", "matvec", "multi_dot",
           "outer", "tensordot", "trace", "vdot", "vecdot", "vecmat", "einsum", "einsum_path",
           "det", "inv", "pinv", "lstsq", "slogdet", "solve", "tensorinv", "tensorsolve",
           "cholesky", "eig", "eigh", "eigvals", "eigvalsh", "qr", "svd", "svdvals",
           "cond", "matrix_norm", "matrix_rank", "norm", "vector_norm", "matrix_transpose"]
