"""The one matrix-product entry point: ``gemm_into(c, a, b)`` = batched ``c = a @ b``.

Float types (float16/32/64, complex64/128) go to cuBLAS on the GPU; integer
and bool products, and every product on the simulator, go to the generated
tiled kernel (:mod:`.gemm_kernel`).

cuBLAS is column-major.  Each operand's matrices are described by how their
storage reads in column-major: ``'col'`` (the storage is the matrix: unit
stride down a column) or ``'row'`` (the storage is the transpose: unit stride
along a row, i.e. C order).  A row-major result ``C = A B`` is computed as the
column-major ``C^T = B^T A^T`` by swapping the operands, so transposed and
Fortran-ordered operands become op flags, never copies.  Only operands with
other strides (or batch strides that are not one constant) are copied, once.
"""
import numpy as np

from .. import _backend
from .._core import copy as _copy
from .._core.ndarray import empty_array
from . import gemm_kernel

_LIB = {np.dtype(c) for c in "efdFD"}


def uses_library(dtype):
    """True when products of result dtype ``dtype`` run on cuBLAS."""
    return _backend.IS_CUDA and dtype in _LIB


def _mat_layout(rows, cols, s0, s1, isz):
    """('row'|'col', ld) describing a rows x cols matrix with byte strides s0, s1; None if neither."""
    if (cols <= 1 or s1 == isz) and (rows <= 1 or (s0 > 0 and s0 % isz == 0 and s0 // isz >= cols)):
        return "row", (s0 // isz if rows > 1 else max(1, cols))
    if (rows <= 1 or s0 == isz) and (cols <= 1 or (s1 > 0 and s1 % isz == 0 and s1 // isz >= rows)):
        return "col", (s1 // isz if cols > 1 else max(1, rows))
    return None


def _batch_stride(batch, x):
    """One element stride stepping through ``x``'s matrices in C order of ``batch`` (x broadcast
    to it), or None when its batch strides are not one constant step."""
    xb = x.shape[:-2]
    st = x._strides[:-2]
    off = len(batch) - len(xb)
    strides = [0] * off + [0 if n == 1 else s for n, s in zip(xb, st)]
    step = None
    acc = 1
    for n, s in zip(reversed(batch), reversed(strides)):
        if n == 1:
            continue
        if step is None:
            step, acc = s, n
        elif s != step * acc:
            return None
        else:
            acc *= n
    step = step or 0
    if step % x.itemsize:
        return None
    return step // x.itemsize


def _prepare(x, batch):
    """(array, layout, ld, batch stride), copying ``x`` only if cuBLAS cannot read it as is."""
    r, c = x.shape[-2:]
    lay = _mat_layout(r, c, x._strides[-2], x._strides[-1], x.itemsize)
    bs = _batch_stride(batch, x)
    if lay is None or bs is None:
        # materialise the broadcast batch too, so one batch stride steps through it
        full = empty_array(batch + (r, c), x.dtype, "C")
        _copy.copy_into(full, x)
        x = full
        lay = _mat_layout(r, c, x._strides[-2], x._strides[-1], x.itemsize)
        bs = _batch_stride(batch, x)
    return x, lay[0], lay[1], bs


def gemm_into(c, a, b):
    """``c[...] = a @ b``: a (.., M, K), b (.., K, N) broadcast over c's batch (.., M, N).

    ``c`` must not overlap ``a``/``b``.  On the library path a and b must
    already have c's dtype.
    """
    if c.size == 0:
        return
    if not uses_library(c.dtype):
        gemm_kernel.gemm(c, a, b)
        return
    K = a.shape[-1]
    if K == 0:
        _copy.fill(c, 0)
        return
    batch = c.shape[:-2]
    lc = _mat_layout(c.shape[-2], c.shape[-1], c._strides[-2], c._strides[-1], c.itemsize)
    bc = _batch_stride(batch, c)
    if lc is None or bc is None or (bc == 0 and any(n > 1 for n in batch)):
        tmp = empty_array(c.shape, c.dtype, "C")
        gemm_into(tmp, a, b)
        _copy.copy_into(c, tmp)
        return
    a, la, lda, sa = _prepare(a, batch)
    b, lb, ldb, sb = _prepare(b, batch)
    M, N = c.shape[-2:]
    nbatch = 1
    for n in batch:
        nbatch *= n
    if lc[0] == "row":
        # C^T (N x M) = B^T A^T
        opp = 0 if lb == "row" else 1
        opq = 0 if la == "row" else 1
        _call(c.dtype, opp, opq, N, M, K, b._ptr, ldb, sb, a._ptr, lda, sa, c._ptr, lc[1], bc, nbatch)
    else:
        opp = 0 if la == "col" else 1
        opq = 0 if lb == "col" else 1
        _call(c.dtype, opp, opq, M, N, K, a._ptr, lda, sa, b._ptr, ldb, sb, c._ptr, lc[1], bc, nbatch)


_FUNCS = {}


def _call(dt, opa, opb, m, n, k, pa, lda, sa, pb, ldb, sb, pc, ldc, sc, nbatch):
    from . import _handles as H
    cb = H.cublas_module()
    h = H.cublas_handle()
    code = dt.char
    if code == "e":
        # float16 storage, float32 compute (cublasGemmEx), alpha/beta float32
        one = H.host_scalar(1.0, np.float32)
        zero = H.host_scalar(0.0, np.float32)
        t = H.cuda_data_type(dt)
        ct = int(cb.ComputeType.COMPUTE_32F)   # fp16 products are exact in fp32
        algo = int(cb.GemmAlgo.DFALT)
        if nbatch == 1:
            cb.gemm_ex(h, opa, opb, m, n, k, one, pa, t, lda, pb, t, ldb, zero, pc, t, ldc, ct, algo)
        else:
            cb.gemm_strided_batched_ex(h, opa, opb, m, n, k, one, pa, t, lda, sa, pb, t, ldb, sb,
                                       zero, pc, t, ldc, sc, nbatch, ct, algo)
        return
    one = H.host_scalar(1, dt)
    zero = H.host_scalar(0, dt)
    f = _FUNCS.get((code, nbatch == 1))
    if f is None:
        prefix = {"f": "s", "d": "d", "F": "c", "D": "z"}[code]
        f = _FUNCS[(code, nbatch == 1)] = getattr(cb, prefix + ("gemm" if nbatch == 1 else "gemm_strided_batched"))
    if nbatch == 1:
        f(h, opa, opb, m, n, k, one, pa, lda, pb, ldb, zero, pc, ldc)
    else:
        f(h, opa, opb, m, n, k, one, pa, lda, sa, pb, ldb, sb, zero, pc, ldc, sc, nbatch)
