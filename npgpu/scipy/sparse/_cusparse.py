"""cuSPARSE's generic API (SpMV, SpMM) through nvmath-python's bindings.

Handles are per thread and device, bound to npgpu's current stream (the pattern of
``npgpu/linalg/_handles.py``); descriptors live for one call; work buffers come from npgpu's
pool and are freed stream-ordered after the call.  Alpha/beta are host scalars (the default
host pointer mode), kept alive by ``linalg._handles.host_scalar``.

Used on the GPU only, for float32/float64/complex64/complex128 values; the simulator and other
dtypes take the generated kernels of ``_kernels.py`` (``_products.py`` chooses).
"""
import os
import threading

from ...cuda import runtime as _rt
from ...cuda.memory import alloc as _alloc

LIB_DTYPES = frozenset("fdFD")
# cuSPARSE's SpMV/SpMM algorithm numbers (nvmath's SpMVAlg / SpMMAlg); 0 is DEFAULT
SPMV_ALG = int(os.environ.get("NPGPU_SPMV_ALG", "0"))
SPMM_ALG = int(os.environ.get("NPGPU_SPMM_ALG", "0"))


class _Handles(threading.local):
    """This thread's cuSPARSE handles: device id -> [handle, bound stream]."""

    def __init__(self):
        self.by_device = {}


_h = _Handles()


def module():
    from nvmath.bindings import cusparse
    return cusparse


def handle():
    """The cuSPARSE handle of the current device, bound to the current stream."""
    dev = _rt.get_device_id()
    h = _h.by_device.get(dev)
    cs = module()
    if h is None:
        _rt.ensure_context(dev)
        h = _h.by_device[dev] = [cs.create(), None]
    s = _rt.current_stream_handle()
    if h[1] != s:
        cs.set_stream(h[0], s)
        h[1] = s
    return h[0]


def _types(indptr, data):
    from ...linalg._cuda_types import cuda_data_type
    cs = module()
    it = cs.IndexType.INDEX_64I if indptr.dtype.itemsize == 8 else cs.IndexType.INDEX_32I
    return int(it), cuda_data_type(data.dtype)


def _csr(cs, shape, indptr, indices, data):
    it, vt = _types(indptr, data)
    return cs.create_csr(shape[0], shape[1], data.shape[0], indptr._ptr, indices._ptr,
                         data._ptr, it, it, int(cs.IndexBase.ZERO), vt)


def _scalars(dt):
    from ...linalg._handles import host_scalar
    return host_scalar(1, dt), host_scalar(0, dt)


def spmv(shape, indptr, indices, data, x, y):
    """``y = A @ x`` (CSR ``A``; ``x``, ``y`` contiguous 1-d of data's dtype)."""
    cs = module()
    h = handle()
    _, vt = _types(indptr, data)
    a = _csr(cs, shape, indptr, indices, data)
    vx = cs.create_dn_vec(shape[1], x._ptr, vt)
    vy = cs.create_dn_vec(shape[0], y._ptr, vt)
    try:
        one, zero = _scalars(data.dtype)
        op = int(cs.Operation.NON_TRANSPOSE)
        size = cs.sp_mv_buffer_size(h, op, one, a, vx, zero, vy, vt, SPMV_ALG)
        buf = _alloc(size) if size else None
        cs.sp_mv(h, op, one, a, vx, zero, vy, vt, SPMV_ALG, buf.ptr if buf else 0)
    finally:
        cs.destroy_dn_vec(vy)
        cs.destroy_dn_vec(vx)
        cs.destroy_sp_mat(a)


def spmm(shape, indptr, indices, data, b, c):
    """``c = A @ b`` (CSR ``A``; ``b``, ``c`` C-contiguous 2-d of data's dtype)."""
    cs = module()
    h = handle()
    _, vt = _types(indptr, data)
    a = _csr(cs, shape, indptr, indices, data)
    row = int(cs.Order.ROW)
    k, ncol = b.shape
    mb = cs.create_dn_mat(k, ncol, ncol, b._ptr, vt, row)
    mc = cs.create_dn_mat(shape[0], ncol, ncol, c._ptr, vt, row)
    try:
        one, zero = _scalars(data.dtype)
        op = int(cs.Operation.NON_TRANSPOSE)
        size = cs.sp_mm_buffer_size(h, op, op, one, a, mb, zero, mc, vt, SPMM_ALG)
        buf = _alloc(size) if size else None
        cs.sp_mm(h, op, op, one, a, mb, zero, mc, vt, SPMM_ALG, buf.ptr if buf else 0)
    finally:
        cs.destroy_dn_mat(mc)
        cs.destroy_dn_mat(mb)
        cs.destroy_sp_mat(a)
