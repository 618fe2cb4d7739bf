"""The one matrix-product entry point: ``gemm_into(c, a, b)`` = batched ``c = a @ b``.

Float types (float16/32/64, complex64/128) go to cuBLAS (on the simulator, its
host stand-in :mod:`._sim.cublas`: the same call path); integer and bool
products go to the generated tiled kernel (:mod:`.gemm_kernel`), as do float
products while :func:`set_float_kernel` (``NPGPU_GEMM_KERNEL=1``) is on.

cuBLAS is column-major.  Each operand's matrices are described by how their
storage reads in column-major: ``'col'`` (the storage is the matrix: unit
stride down a column) or ``'row'`` (the storage is the transpose: unit stride
along a row, i.e. C order).  A row-major result ``C = A B`` is computed as the
column-major ``C^T = B^T A^T`` by swapping the operands, so transposed and
Fortran-ordered operands become op flags, never copies.  Only operands with
other strides (or batch strides that are not one constant) are copied, once.
"""
import os

import numpy as np

from .._core import copy as _copy
from .._core.ndarray import empty_array
from . import gemm_kernel

_LIB = {np.dtype(c) for c in "efdFD"}
# float products on the generated kernel instead of cuBLAS (tests and experiments only)
_FLOAT_KERNEL = [os.environ.get("NPGPU_GEMM_KERNEL", "0") not in ("", "0")]


def uses_library(dtype):
    """True when products of result dtype ``dtype`` run on cuBLAS."""
    return dtype in _LIB and not _FLOAT_KERNEL[0]


def set_float_kernel(enabled):
    """Run float/complex products on the generated kernel (True) or cuBLAS (False, the
    default); returns the previous setting.  Callers clear the plan caches
    (``products.use_float_kernel`` does both)."""
    prev = _FLOAT_KERNEL[0]
    _FLOAT_KERNEL[0] = bool(enabled)
    return prev


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
    """(array, layout, ld, batch stride, copied), copying ``x`` only if cuBLAS cannot read it as is."""
    r, c = x.shape[-2:]
    lay = _mat_layout(r, c, x._strides[-2], x._strides[-1], x.itemsize)
    bs = _batch_stride(batch, x)
    if lay is not None and bs is not None:
        return x, lay[0], lay[1], bs, False
    # materialise the broadcast batch too, so one batch stride steps through it
    full = empty_array(batch + (r, c), x.dtype, "C")
    _copy.copy_into(full, x)
    lay = _mat_layout(r, c, full._strides[-2], full._strides[-1], full.itemsize)
    return full, lay[0], lay[1], _batch_stride(batch, full), True


# Plans: everything host-side about one product signature (dtype, shapes and strides of
# c, a, b) -- op flags, leading dimensions, batch strides and count, operand order, the
# bound library function and alpha/beta addresses -- computed once.  A plan is a closure
# ``run(c_ptr, a_ptr, b_ptr)`` doing one cuBLAS call; signatures that need an operand
# copy get no plan.
_PLANS = {}
_MAX_PLANS = 4096


def clear_plans():
    """Forget every cached plan (they hold the library functions bound when made)."""
    _PLANS.clear()


def gemm_into(c, a, b):
    """``c[...] = a @ b``: a (.., M, K), b (.., K, N) broadcast over c's batch (.., M, N).

    ``c`` must not overlap ``a``/``b``.  On the library path a and b must
    already have c's dtype.  Returns the plan that ran -- ``plan(c_ptr, a_ptr,
    b_ptr)`` repeats the product for arrays of the same dtype, shapes and
    strides -- or None (generated kernel, operand copies, empty or K == 0).
    """
    if c.size == 0:
        return None
    dt = c.dtype
    if not uses_library(dt):
        gemm_kernel.gemm(c, a, b)
        return None
    key = (dt, c.shape, c._strides, a.shape, a._strides, b.shape, b._strides)
    run = _PLANS.get(key)
    if run is not None:
        run(c._ptr, a._ptr, b._ptr)
        return run
    K = a.shape[-1]
    if K == 0:
        _copy.fill(c, 0)
        return None
    batch = c.shape[:-2]
    lc = _mat_layout(c.shape[-2], c.shape[-1], c._strides[-2], c._strides[-1], c.itemsize)
    bc = _batch_stride(batch, c)
    if lc is None or bc is None or (bc == 0 and any(n > 1 for n in batch)):
        tmp = empty_array(c.shape, dt, "C")
        gemm_into(tmp, a, b)
        _copy.copy_into(c, tmp)
        return None
    a2, la, lda, sa, ca = _prepare(a, batch)
    b2, lb, ldb, sb, cb = _prepare(b, batch)
    M, N = c.shape[-2:]
    nbatch = 1
    for n in batch:
        nbatch *= n
    if lc[0] == "row":
        # C^T (N x M) = B^T A^T: b is the first library operand
        run = _make_plan(dt, True, 0 if lb == "row" else 1, 0 if la == "row" else 1, N, M, K,
                         ldb, sb, lda, sa, lc[1], bc, nbatch)
    else:
        run = _make_plan(dt, False, 0 if la == "col" else 1, 0 if lb == "col" else 1, M, N, K,
                         lda, sa, ldb, sb, lc[1], bc, nbatch)
    run(c._ptr, a2._ptr, b2._ptr)
    if ca or cb:
        return None
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    _PLANS[key] = run
    return run


def _make_plan(dt, swap, opx, opy, m, n, k, ldx, sx, ldy, sy, ldc, sc, nbatch):
    """The closure ``run(pc, pa, pb)`` for one signature: X = b, Y = a when ``swap``
    (row-major result computed as C^T = B^T A^T), else X = a, Y = b."""
    from . import _handles as H
    cb = H.cublas_module()
    handle = H.cublas_handle
    if dt.char == "e":
        # float16 storage, float32 compute (cublasGemmEx), alpha/beta float32:
        # fp16 products are exact in fp32
        one = H.host_scalar(1.0, np.float32)
        zero = H.host_scalar(0.0, np.float32)
        t = H.cuda_data_type(dt)
        ct = int(cb.ComputeType.COMPUTE_32F)
        algo = int(cb.GemmAlgo.DFALT)
        if nbatch == 1:
            f = cb.gemm_ex

            def run(pc, pa, pb):
                if swap:
                    pa, pb = pb, pa
                f(handle(), opx, opy, m, n, k, one, pa, t, ldx, pb, t, ldy, zero, pc, t, ldc, ct, algo)
        else:
            f = cb.gemm_strided_batched_ex

            def run(pc, pa, pb):
                if swap:
                    pa, pb = pb, pa
                f(handle(), opx, opy, m, n, k, one, pa, t, ldx, sx, pb, t, ldy, sy, zero, pc, t, ldc,
                  sc, nbatch, ct, algo)
        return run
    one = H.host_scalar(1, dt)
    zero = H.host_scalar(0, dt)
    prefix = {"f": "s", "d": "d", "F": "c", "D": "z"}[dt.char]
    if nbatch == 1:
        f = getattr(cb, prefix + "gemm")

        def run(pc, pa, pb):
            if swap:
                pa, pb = pb, pa
            f(handle(), opx, opy, m, n, k, one, pa, ldx, pb, ldy, zero, pc, ldc)
    else:
        # one strided-batched call for the whole batch (no pointer arrays, no copies)
        f = getattr(cb, prefix + "gemm_strided_batched")

        def run(pc, pa, pb):
            if swap:
                pa, pb = pb, pa
            f(handle(), opx, opy, m, n, k, one, pa, ldx, sx, pb, ldy, sy, zero, pc, ldc, sc, nbatch)
    return run
