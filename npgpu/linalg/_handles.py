"""cuBLAS / cuSOLVER handles (one per thread and device), bound to npgpu's current stream.

The libraries are reached through nvmath-python's low-level bindings
(``nvmath.bindings.cublas`` / ``cusolverDn``), which take raw integer pointers
and handles, imported on first use.  On the simulator the same two functions
return host stand-ins with the same entry points (:mod:`._sim`), so every
library call path runs there too, without the libraries.

Per call the host work is: two thread-local reads and a compare with the
thread's last (device, stream, TF32 mode); ``set_stream`` / ``set_math_mode``
run only when one of those changed.
"""
import os
import threading

import numpy as np

from .. import _backend
from ..cuda import runtime as _rt
from ._cuda_types import cuda_data_type  # noqa: F401  (callers use H.cuda_data_type)


class _Handles(threading.local):
    """This thread's library handles: device id -> [handle, bound stream, math mode].

    cuBLAS/cuSOLVER handles are not meant to be shared by threads with different
    streams, so each thread gets its own (created on its first call)."""
    cublas = {}
    cusolver = {}
    last = None        # (device, stream, tf32, handle) of this thread's last cublas_handle()

    def __init__(self):
        self.cublas = {}
        self.cusolver = {}
        self.last = None


_h = _Handles()
_tls = _rt._tls

_tf32 = os.environ.get("NPGPU_ALLOW_TF32", "0") not in ("", "0")


def set_tf32(enabled):
    """Allow (True) or forbid (False, the default) TF32 tensor cores for float32 GEMMs.

    By default float32 products are true float32 (``CUBLAS_DEFAULT_MATH``).  TF32
    rounds inputs to a 10-bit mantissa: faster, less accurate.  The environment
    variable ``NPGPU_ALLOW_TF32=1`` sets the initial value.  Returns the previous value.
    """
    global _tf32
    prev = _tf32
    _tf32 = bool(enabled)
    return prev


def get_tf32():
    return _tf32


def cublas_module():
    """nvmath's ``cublas`` bindings; the NumPy stand-in on the simulator."""
    if _backend.IS_SIM:
        from ._sim.cublas import CUBLAS
        return CUBLAS
    from nvmath.bindings import cublas
    return cublas


def cusolver_module():
    """nvmath's ``cusolverDn`` bindings; the LAPACK (SciPy) stand-in on the simulator."""
    if _backend.IS_SIM:
        from ._sim.cusolver import CUSOLVER_DN
        return CUSOLVER_DN
    from nvmath.bindings import cusolverDn
    return cusolverDn


def cublas_handle():
    """The cuBLAS handle of the current device, bound to the current stream and math mode.

    Hot path: when device, stream and TF32 mode are those of this thread's last
    call, that is two thread-local reads and one tuple compare."""
    t = _tls
    dev = t.device
    s = t.stream
    s = s.ptr if s is not None else 0
    h = _h
    last = h.last
    if last is not None and last[0] == dev and last[1] == s and last[2] is _tf32:
        return last[3]
    return _bind_cublas(dev, s)


def _bind_cublas(dev, s):
    h = _h.cublas.get(dev)
    cb = cublas_module()
    if h is None:
        _rt.ensure_context(dev)
        h = _h.cublas[dev] = [cb.create(), None, None]
    if h[1] != s:
        cb.set_stream(h[0], s)
        h[1] = s
    mode = _tf32
    if h[2] is not mode:
        cb.set_math_mode(h[0], cb.Math.TF32_TENSOR_OP_MATH if mode else cb.Math.DEFAULT_MATH)
        h[2] = mode
    _h.last = (dev, s, mode, h[0])
    return h[0]


def cusolver_handle():
    """(handle, params) of cuSOLVER-Dn for the current device, bound to the current stream."""
    dev = _rt.get_device_id()
    h = _h.cusolver.get(dev)
    if h is None:
        _rt.ensure_context(dev)
        cs = cusolver_module()
        handle = cs.create()
        params = cs.create_params()
        h = _h.cusolver[dev] = [handle, None, params]
    s = _rt.current_stream_handle()
    if h[1] != s:
        cusolver_module().set_stream(h[0], s)
        h[1] = s
    return h[0], h[2]


# Host scalars for alpha/beta (pointer mode host): kept alive here, address reused.
_SCALARS = {}


def host_scalar(value, dtype):
    """Address of a persistent host scalar ``value`` of ``dtype`` (host pointer mode)."""
    dtype = np.dtype(dtype)
    key = (value, dtype.str)
    a = _SCALARS.get(key)
    if a is None:
        # setdefault: two threads missing at once keep one array, whose address both pass on
        # (the array, kept alive here, and its address: ``.ctypes.data`` costs ~1 us a read)
        arr = np.array([value], dtype=dtype)
        a = _SCALARS.setdefault(key, (arr, arr.ctypes.data))
    return a[1]
