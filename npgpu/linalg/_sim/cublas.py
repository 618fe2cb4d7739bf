"""Stand-in for ``nvmath.bindings.cublas`` on the simulator: the entry points npgpu calls.

GEMMs (typed, strided-batched, ``*_ex``) compute ``C = alpha op(A) op(B) + beta C`` with
NumPy in the compute type (float16 storage: float32, as ``CUBLAS_COMPUTE_32F``); ``C`` is
not read when beta is 0.  ``trsm`` and ``syrk``/``herk`` read only the triangle named and
write only what cuBLAS writes.  Enumerations are nvmath's own (plain Python enums, usable
without a driver)."""
import numpy as np
from nvmath.bindings.cublas import (ComputeType, DiagType, FillMode, GemmAlgo, Math,  # noqa: F401
                                    Operation, PointerMode, SideMode, Status)

from . import batch, dtype_of, host_scalar, matrix, new_handle


class cuBLASError(Exception):
    """What nvmath raises for a failed cuBLAS status (here: invalid arguments only)."""

    def __init__(self, status):
        self.status = int(status)
        super().__init__(f"{Status(self.status).name} ({self.status})")


def _require(ok):
    if not ok:
        raise cuBLASError(Status.INVALID_VALUE)


_OPS = (int(Operation.N), int(Operation.T), int(Operation.C))


def _op(x, op):
    """op(X) of a stack of matrices: X, X^T or X^H."""
    if op == Operation.N:
        return x
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if op == Operation.C else x


def _compute_dtype(compute_type, storage):
    """The dtype a ``cublasComputeType_t`` computes ``storage`` in (64F: double, else single)."""
    wide = "64F" in ComputeType(int(compute_type)).name
    if storage.kind == "c":
        return np.dtype(np.complex128 if wide else np.complex64)
    return np.dtype(np.float64 if wide else np.float32)


class Cublas:
    """The cuBLAS entry points npgpu uses (see the module docstring); one instance,
    :data:`CUBLAS`, serves every handle.  Tests subclass or wrap it to observe calls."""

    ComputeType, DiagType, FillMode, GemmAlgo = ComputeType, DiagType, FillMode, GemmAlgo
    Math, Operation, PointerMode, SideMode, Status = Math, Operation, PointerMode, SideMode, Status
    cuBLASError = cuBLASError

    # ---- handles: dummies; streams and math modes change nothing here --------------------
    def create(self):
        return new_handle()

    def destroy(self, handle):
        pass

    def set_stream(self, handle, stream_id):
        pass

    def set_math_mode(self, handle, mode):
        Math(int(mode))          # an unknown mode is an error there too

    # ---- GEMM ------------------------------------------------------------------------------
    def _gemm(self, dt, ct, transa, transb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc,
              sc, count, scalar_dt):
        _require(transa in _OPS and transb in _OPS and min(m, n, k, count) >= 0)
        ar, ac = (m, k) if transa == Operation.N else (k, m)
        br, bc = (k, n) if transb == Operation.N else (n, k)
        _require(lda >= max(1, ar) and ldb >= max(1, br) and ldc >= max(1, m))
        if m == 0 or n == 0 or count == 0:
            return
        al = host_scalar(alpha, scalar_dt)
        be = host_scalar(beta, scalar_dt)
        cm = batch(c, dt, m, n, ldc, sc, count)
        with np.errstate(all="ignore"):     # cuBLAS raises no floating-point errors
            if k == 0 or al == 0:
                prod = np.zeros(cm.shape, ct)
            else:
                am = _op(batch(a, dt, ar, ac, lda, sa, count), transa).astype(ct)
                bm = _op(batch(b, dt, br, bc, ldb, sb, count), transb).astype(ct)
                prod = np.matmul(am, bm)
                if al != 1:
                    prod *= al
            if be != 0:      # beta == 0: C is write-only (NaN garbage in it does not propagate)
                prod += be * cm.astype(ct)
            cm[...] = prod.astype(dt)

    def gemm_ex(self, handle, transa, transb, m, n, k, alpha, a, atype, lda, b, btype, ldb, beta, c,
                ctype, ldc, compute_type, algo):
        self.gemm_strided_batched_ex(handle, transa, transb, m, n, k, alpha, a, atype, lda, 0, b,
                                     btype, ldb, 0, beta, c, ctype, ldc, 0, 1, compute_type, algo)

    def gemm_strided_batched_ex(self, handle, transa, transb, m, n, k, alpha, a, atype, lda,
                                stride_a, b, btype, ldb, stride_b, beta, c, ctype, ldc, stride_c,
                                batch_count, compute_type, algo):
        dt = dtype_of(ctype)
        _require(dtype_of(atype) == dt and dtype_of(btype) == dt)
        GemmAlgo(int(algo))
        ct = _compute_dtype(compute_type, dt)
        self._gemm(dt, ct, transa, transb, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta,
                   c, ldc, stride_c, batch_count, ct)

    # ---- level-3 triangular routines (the blocked Cholesky's panel and trailing update) ----
    def _trsm(self, dt, handle, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb):
        """Solve op(A) X = alpha B (left) or X op(A) = alpha B (right); X overwrites B (m x n)."""
        from scipy.linalg import solve_triangular      # SciPy only where LAPACK is needed
        _require(trans in _OPS and min(m, n) >= 0)
        na = m if side == SideMode.LEFT else n
        _require(lda >= max(1, na) and ldb >= max(1, m))
        if m == 0 or n == 0:
            return
        lower = uplo == FillMode.LOWER
        t = matrix(a, dt, na, na, lda)
        t = np.tril(t) if lower else np.triu(t)          # only that triangle is read
        if diag == DiagType.UNIT:
            np.fill_diagonal(t, 1)
        opa = _op(t, trans)
        op_lower = lower == (trans == Operation.N)
        bm = matrix(b, dt, m, n, ldb)
        rhs = host_scalar(alpha, dt) * bm
        if side == SideMode.LEFT:
            x = solve_triangular(opa, rhs, lower=op_lower)
        else:                     # X op(A) = R  <=>  op(A)^T X^T = R^T
            x = solve_triangular(opa.T, rhs.T, lower=not op_lower).T
        bm[...] = x

    def _rank_k(self, dt, herm, handle, uplo, trans, n, k, alpha, a, lda, beta, c, ldc):
        """C = alpha op(A) op(A)^H + beta C (syrk: ^T), only the ``uplo`` triangle of C written."""
        _require(trans in _OPS and min(n, k) >= 0)
        ar, ac = (n, k) if trans == Operation.N else (k, n)
        _require(lda >= max(1, ar) and ldc >= max(1, n))
        if n == 0:
            return
        sdt = np.dtype(dt.char.lower()) if herm else dt      # herk's alpha/beta are real
        al = host_scalar(alpha, sdt)
        be = host_scalar(beta, sdt)
        x = _op(matrix(a, dt, ar, ac, lda), trans)          # n x k
        prod = al * (x @ (np.conj(x).T if herm else x.T))
        cm = matrix(c, dt, n, n, ldc)
        if be != 0:
            prod = prod + be * cm
        idx = np.tril_indices(n) if uplo == FillMode.LOWER else np.triu_indices(n)
        cm[idx] = prod[idx]
        if herm:
            d = np.arange(n)
            cm[d, d] = cm[d, d].real


def _install_typed():
    """The typed entry points: {s,d,c,z}gemm[_strided_batched], {s,d,c,z}trsm, {s,d}syrk, {c,z}herk."""
    for pre, ch in zip("sdcz", "fdFD"):
        dt = np.dtype(ch)

        def gemm(self, handle, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, _dt=dt):
            self._gemm(_dt, _dt, transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc,
                       0, 1, _dt)

        def gemm_sb(self, handle, transa, transb, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b,
                    beta, c, ldc, stride_c, batch_count, _dt=dt):
            self._gemm(_dt, _dt, transa, transb, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b,
                       beta, c, ldc, stride_c, batch_count, _dt)

        def trsm(self, handle, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb, _dt=dt):
            self._trsm(_dt, handle, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)

        def rank_k(self, handle, uplo, trans, n, k, alpha, a, lda, beta, c, ldc, _dt=dt):
            self._rank_k(_dt, _dt.kind == "c", handle, uplo, trans, n, k, alpha, a, lda, beta, c, ldc)

        for name, f in ((pre + "gemm", gemm), (pre + "gemm_strided_batched", gemm_sb),
                        (pre + "trsm", trsm), (pre + ("herk" if dt.kind == "c" else "syrk"), rank_k)):
            f.__name__ = f.__qualname__ = name
            setattr(Cublas, name, f)


_install_typed()
CUBLAS = Cublas()
