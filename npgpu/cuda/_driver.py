"""A thin ctypes binding of the CUDA driver API: the few calls npgpu's hot paths use.

Why ctypes and not Numba's driver objects: Numba's ``DeviceNDArray`` and
kernel dispatch cost ~30 us a call in Python; one ctypes call costs ~1 us.
Only used on the real-CUDA backend; importing this module loads libcuda.
"""
import ctypes
from ctypes import POINTER, byref, c_char_p, c_int, c_size_t, c_uint, c_uint64, c_void_p

from .errors import CUDADriverError

_lib = None
for _name in ("libcuda.so.1", "libcuda.so"):
    try:
        _lib = ctypes.CDLL(_name)
        break
    except OSError:  # pragma: no cover - depends on the machine
        continue
if _lib is None:  # pragma: no cover
    raise ImportError("libcuda.so (the CUDA driver) was not found")

CUDA_SUCCESS = 0
CUDA_ERROR_OUT_OF_MEMORY = 2


def _error_text(rc):
    name = c_char_p()
    desc = c_char_p()
    _lib.cuGetErrorName(rc, byref(name))
    _lib.cuGetErrorString(rc, byref(desc))
    n = name.value.decode() if name.value else "CUDA_ERROR"
    d = desc.value.decode() if desc.value else "unknown error"
    return n, d


def check(rc, what):
    if rc != CUDA_SUCCESS:
        name, desc = _error_text(rc)
        raise CUDADriverError(rc, f"{what} failed: {name} ({desc})")


def _fn(name, *argtypes, v2=False):
    f = getattr(_lib, name + "_v2") if v2 else getattr(_lib, name)
    f.argtypes = argtypes
    f.restype = c_int
    return f


# --- initialisation, devices, contexts -------------------------------------
cuInit = _fn("cuInit", c_uint)
cuDeviceGetCount = _fn("cuDeviceGetCount", POINTER(c_int))
cuDeviceGet = _fn("cuDeviceGet", POINTER(c_int), c_int)
cuDeviceGetAttribute = _fn("cuDeviceGetAttribute", POINTER(c_int), c_int, c_int)
cuDeviceGetName = _fn("cuDeviceGetName", c_char_p, c_int, c_int)
cuDeviceTotalMem = _fn("cuDeviceTotalMem", POINTER(c_size_t), c_int, v2=True)
cuDevicePrimaryCtxRetain = _fn("cuDevicePrimaryCtxRetain", POINTER(c_void_p), c_int)
cuCtxSetCurrent = _fn("cuCtxSetCurrent", c_void_p)
cuCtxGetCurrent = _fn("cuCtxGetCurrent", POINTER(c_void_p))
cuCtxSynchronize = _fn("cuCtxSynchronize")
cuMemGetInfo = _fn("cuMemGetInfo", POINTER(c_size_t), POINTER(c_size_t), v2=True)

# --- streams and events ------------------------------------------------------
cuStreamCreate = _fn("cuStreamCreate", POINTER(c_void_p), c_uint)
cuStreamDestroy = _fn("cuStreamDestroy", c_void_p, v2=True)
cuStreamSynchronize = _fn("cuStreamSynchronize", c_void_p)
cuStreamQuery = _fn("cuStreamQuery", c_void_p)
cuStreamWaitEvent = _fn("cuStreamWaitEvent", c_void_p, c_void_p, c_uint)
cuEventCreate = _fn("cuEventCreate", POINTER(c_void_p), c_uint)
cuEventDestroy = _fn("cuEventDestroy", c_void_p, v2=True)
cuEventRecord = _fn("cuEventRecord", c_void_p, c_void_p)
cuEventSynchronize = _fn("cuEventSynchronize", c_void_p)
cuEventQuery = _fn("cuEventQuery", c_void_p)
cuEventElapsedTime = _fn("cuEventElapsedTime", POINTER(ctypes.c_float), c_void_p, c_void_p)

# --- memory ----------------------------------------------------------------
cuDeviceGetDefaultMemPool = _fn("cuDeviceGetDefaultMemPool", POINTER(c_void_p), c_int)
cuMemPoolSetAttribute = _fn("cuMemPoolSetAttribute", c_void_p, c_int, c_void_p)
cuMemPoolGetAttribute = _fn("cuMemPoolGetAttribute", c_void_p, c_int, c_void_p)
cuMemPoolTrimTo = _fn("cuMemPoolTrimTo", c_void_p, c_size_t)
cuMemAllocFromPoolAsync = _fn("cuMemAllocFromPoolAsync", POINTER(c_uint64), c_size_t,
                              c_void_p, c_void_p)
cuMemFreeAsync = _fn("cuMemFreeAsync", c_uint64, c_void_p)
cuMemAllocManaged = _fn("cuMemAllocManaged", POINTER(c_uint64), c_size_t, c_uint)
cuMemFree = _fn("cuMemFree", c_uint64, v2=True)
cuMemHostAlloc = _fn("cuMemHostAlloc", POINTER(c_void_p), c_size_t, c_uint)
cuMemFreeHost = _fn("cuMemFreeHost", c_void_p)
cuMemHostGetDevicePointer = _fn("cuMemHostGetDevicePointer", POINTER(c_uint64), c_void_p, c_uint,
                                v2=True)
cuMemcpyHtoDAsync = _fn("cuMemcpyHtoDAsync", c_uint64, c_void_p, c_size_t, c_void_p, v2=True)
cuMemcpyDtoHAsync = _fn("cuMemcpyDtoHAsync", c_void_p, c_uint64, c_size_t, c_void_p, v2=True)
cuMemcpyDtoDAsync = _fn("cuMemcpyDtoDAsync", c_uint64, c_uint64, c_size_t, c_void_p, v2=True)
cuMemcpyHtoD = _fn("cuMemcpyHtoD", c_uint64, c_void_p, c_size_t, v2=True)
cuMemcpyDtoH = _fn("cuMemcpyDtoH", c_void_p, c_uint64, c_size_t, v2=True)
cuMemsetD8Async = _fn("cuMemsetD8Async", c_uint64, ctypes.c_ubyte, c_size_t, c_void_p)
cuMemsetD16Async = _fn("cuMemsetD16Async", c_uint64, ctypes.c_ushort, c_size_t, c_void_p)
cuMemsetD32Async = _fn("cuMemsetD32Async", c_uint64, c_uint, c_size_t, c_void_p)
cuPointerGetAttribute = _fn("cuPointerGetAttribute", c_void_p, c_int, c_uint64)
# several devices: peer access and copies between contexts
cuDeviceCanAccessPeer = _fn("cuDeviceCanAccessPeer", POINTER(c_int), c_int, c_int)
cuCtxEnablePeerAccess = _fn("cuCtxEnablePeerAccess", c_void_p, c_uint)
cuMemcpyPeerAsync = _fn("cuMemcpyPeerAsync", c_uint64, c_void_p, c_uint64, c_void_p, c_size_t,
                        c_void_p)
CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704

# --- modules and launch ---------------------------------------------------------
cuModuleLoadData = _fn("cuModuleLoadData", POINTER(c_void_p), c_void_p)
cuModuleGetFunction = _fn("cuModuleGetFunction", POINTER(c_void_p), c_void_p, c_char_p)
cuLaunchKernel = _fn("cuLaunchKernel", c_void_p, c_uint, c_uint, c_uint, c_uint, c_uint,
                     c_uint, c_uint, c_void_p, c_void_p, c_void_p)
cuLinkCreate = _fn("cuLinkCreate", c_uint, c_void_p, c_void_p, POINTER(c_void_p), v2=True)
cuLinkAddData = _fn("cuLinkAddData", c_void_p, c_int, c_void_p, c_size_t, c_char_p, c_uint,
                    c_void_p, c_void_p, v2=True)
cuLinkComplete = _fn("cuLinkComplete", c_void_p, POINTER(c_void_p), POINTER(c_size_t))
cuLinkDestroy = _fn("cuLinkDestroy", c_void_p)
cuFuncGetAttribute = _fn("cuFuncGetAttribute", POINTER(c_int), c_int, c_void_p)
cuOccupancyMaxActiveBlocksPerMultiprocessor = _fn(
    "cuOccupancyMaxActiveBlocksPerMultiprocessor", POINTER(c_int), c_void_p, c_int, c_size_t)

# constants used by npgpu
CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4
CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT = 5
CU_MEMPOOL_ATTR_USED_MEM_CURRENT = 7
CU_MEM_ATTACH_GLOBAL = 1
CU_MEMHOSTALLOC_PORTABLE = 1
CU_MEMHOSTALLOC_DEVICEMAP = 2
CU_EVENT_DEFAULT = 0
CU_EVENT_DISABLE_TIMING = 2
CU_STREAM_NON_BLOCKING = 1
CU_JIT_INPUT_PTX = 1
CU_JIT_ERROR_LOG_BUFFER = 5
CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9


def link_ptx_to_cubin(ptx: bytes) -> bytes:
    """Assemble one PTX module into a cubin with the driver's linker (a failure carries the
    linker's error log)."""
    state = c_void_p()
    log = ctypes.create_string_buffer(8192)
    opts = (ctypes.c_int * 2)(CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
    vals = (c_void_p * 2)(ctypes.cast(log, c_void_p), c_void_p(len(log)))
    check(cuLinkCreate(2, opts, vals, byref(state)), "cuLinkCreate")
    try:
        buf = ctypes.create_string_buffer(ptx)
        what = "cuLinkAddData"
        rc = cuLinkAddData(state, CU_JIT_INPUT_PTX, ctypes.cast(buf, c_void_p), len(ptx),
                           b"npgpu.ptx", 0, None, None)
        if rc == 0:
            out = c_void_p()
            size = c_size_t()
            what = "cuLinkComplete"
            rc = cuLinkComplete(state, byref(out), byref(size))
        if rc:
            text = log.value.decode(errors="replace").strip()
            check(rc, what + (f" (linker log: {text})" if text else ""))
        return ctypes.string_at(out, size.value)
    finally:
        cuLinkDestroy(state)


def load_function(image: bytes, entry: str):
    """Load a cubin (or PTX) image into the current context; return (module, CUfunction).
    (CUDA 12's library API, whose kernels serve every device, was tried: the H200's driver
    answers cuFuncGetAttribute on such a kernel with CUDA_ERROR_INVALID_HANDLE, so kernels
    on a second device need a handle table of their own: issue 23.)"""
    mod = c_void_p()
    buf = ctypes.create_string_buffer(image, len(image))
    check(cuModuleLoadData(byref(mod), buf), "cuModuleLoadData")
    fn = c_void_p()
    check(cuModuleGetFunction(byref(fn), mod, entry.encode()), "cuModuleGetFunction")
    return mod.value, fn.value
