"""DLPack export (``__dlpack__``, ``__dlpack_device__``) and import (``npgpu.from_dlpack``).

Written with ctypes from the DLPack spec (dlpack.h, v1.x) and the Array API's
``__dlpack__`` protocol.  A capsule holds a ``DLManagedTensor`` ("dltensor",
legacy) or a ``DLManagedTensorVersioned`` ("dltensor_versioned", DLPack >= 1.0,
given when the consumer passes ``max_version >= (1, 0)``).  The consumer renames
the capsule to "used_..." and later calls our deleter; a capsule that is never
consumed calls the deleter from its destructor.

Device: on the GPU arrays are ``(kDLCUDA, device id)``.  On the simulator the
"device" memory is host memory, so it is ``(kDLCPU, 0)``: NumPy can consume it
and NumPy arrays can be imported without copies, which makes this testable in CI.
"""
import ctypes
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int32, c_int64, c_uint8, c_uint16,
                    c_uint32, c_uint64, c_void_p, py_object)

import numpy as np

from .. import _backend
from ..cuda import memory as _memory
from ..cuda import runtime as _runtime
from . import layout as _layout
from .dtypes import check_dtype
from .ndarray import READONLY, READONLY_FOREIGN, WRITEABLE, _new, ndarray

if _backend.IS_CUDA:
    from ..cuda import _driver as drv

kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13
_DEVICE_NAMES = {1: "kDLCPU", 2: "kDLCUDA", 3: "kDLCUDAHost", 4: "kDLOpenCL", 7: "kDLVulkan",
                 8: "kDLMetal", 10: "kDLROCM", 11: "kDLROCMHost", 13: "kDLCUDAManaged",
                 14: "kDLOneAPI"}
kDLInt, kDLUInt, kDLFloat, kDLBfloat, kDLComplex, kDLBool = 0, 1, 2, 4, 5, 6
FLAG_READ_ONLY, FLAG_IS_COPIED = 1, 2
VERSION = (1, 1)                  # the DLPack ABI we write (struct layout of every 1.x)
CUDA_STREAM_PER_THREAD = 2        # CU_STREAM_PER_THREAD handle


# ---- the C structs (dlpack.h) -------------------------------------------------------------------
class DLDevice(Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class DLDataType(Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class DLTensor(Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", c_int32),
                ("dtype", DLDataType), ("shape", POINTER(c_int64)),
                ("strides", POINTER(c_int64)),       # in elements; NULL means C-contiguous
                ("byte_offset", c_uint64)]


_Deleter = CFUNCTYPE(None, c_void_p)   # void deleter(DLManagedTensor[Versioned] *self)


class DLManagedTensor(Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p), ("deleter", _Deleter)]


class DLPackVersion(Structure):
    _fields_ = [("major", c_uint32), ("minor", c_uint32)]


class DLManagedTensorVersioned(Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", c_void_p), ("deleter", _Deleter),
                ("flags", c_uint64), ("dl_tensor", DLTensor)]


# ---- PyCapsule C API through ctypes.pythonapi ---------------------------------------------------
_NAME = b"dltensor"
_USED = b"used_dltensor"
_VNAME = b"dltensor_versioned"
_VUSED = b"used_dltensor_versioned"
_Destructor = CFUNCTYPE(None, c_void_p)   # PyCapsule_Destructor(PyObject *)

_api = ctypes.pythonapi
_capsule_new = ctypes.PYFUNCTYPE(py_object, c_void_p, c_char_p, _Destructor)(
    ("PyCapsule_New", _api))
_capsule_get = ctypes.PYFUNCTYPE(c_void_p, py_object, c_char_p)(("PyCapsule_GetPointer", _api))
_capsule_set_name = ctypes.PYFUNCTYPE(ctypes.c_int, py_object, c_char_p)(("PyCapsule_SetName", _api))
_capsule_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, py_object, c_char_p)(("PyCapsule_IsValid", _api))
# The destructor gets a capsule whose refcount is already 0: take it as a raw pointer
# (py_object would incref/decref a dying object) and use raw-pointer variants here.
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, c_void_p, c_char_p)(("PyCapsule_IsValid", _api))
_raw_get = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(("PyCapsule_GetPointer", _api))

# Exported tensors still owned by a capsule or a consumer:
# address of the managed struct -> (struct, shape, strides, keep-alive object).
_exports = {}


@_Deleter
def _deleter(addr):
    # Called by the consumer (or our capsule destructor): drop the struct and the array ref.
    try:
        _exports.pop(addr, None)
    except Exception:   # interpreter shutdown
        pass


@_Destructor
def _capsule_destructor(cap):
    # Only an unconsumed capsule still carries its original name; a consumer renamed it.
    try:
        for name in (_NAME, _VNAME):
            if _raw_is_valid(cap, name):
                _deleter(_raw_get(cap, name))
                return
    except Exception:   # interpreter shutdown
        pass


# ---- dtypes -------------------------------------------------------------------------------------
def _dl_dtype(dt):
    kind = dt.kind
    code = {"b": kDLBool, "i": kDLInt, "u": kDLUInt, "f": kDLFloat, "c": kDLComplex}[kind]
    return DLDataType(code, dt.itemsize * 8, 1)


def _np_dtype(dl):
    if dl.lanes != 1:
        raise BufferError(f"DLPack vector dtypes (lanes={dl.lanes}) are not supported")
    code, bits = dl.code, dl.bits
    names = {kDLInt: "int", kDLUInt: "uint", kDLFloat: "float", kDLComplex: "complex"}
    if code == kDLBool and bits == 8:
        return np.dtype(np.bool_)
    if code in names:
        try:
            return check_dtype(f"{names[code]}{bits}")
        except TypeError:
            pass
    what = "bfloat" if code == kDLBfloat else f"type code {code}"
    raise BufferError(f"npgpu cannot import DLPack dtype {what} with {bits} bits")


# ---- export -------------------------------------------------------------------------------------
def dlpack_device(arr):
    """``__dlpack_device__``: (kDLCUDA, id) on the GPU; (kDLCPU, 0) on the simulator (host memory)."""
    if _backend.IS_SIM:
        return (kDLCPU, 0)
    return (kDLCUDA, arr._mem.device_id)


def _consumer_stream(stream):
    """Translate a ``__dlpack__``/CAI stream integer into a driver handle (None: no sync)."""
    if stream is None or stream == 1:
        return 0                  # the legacy default stream
    if stream == -1:
        return None               # the consumer asks us not to synchronize
    if stream == 0:
        raise ValueError("stream=0 is ambiguous for CUDA (use 1 for the legacy default stream, "
                         "2 for the per-thread default stream)")
    if not isinstance(stream, int) or stream < -1:
        raise ValueError(f"stream must be None, -1 or a positive integer stream handle, not {stream!r}")
    return CUDA_STREAM_PER_THREAD if stream == 2 else stream


def _sync_to(consumer):
    """Make the consumer's stream wait for the work queued on our current stream."""
    ours = _runtime.current_stream_handle()
    if not _backend.IS_CUDA or consumer is None or consumer == ours:
        return
    ev = _runtime.Event(disable_timing=True)
    drv.check(drv.cuEventRecord(ev.ptr, ours), "cuEventRecord")
    drv.check(drv.cuStreamWaitEvent(consumer, ev.ptr, 0), "cuStreamWaitEvent")


def _make_capsule(ptr, shape, byte_strides, dt, device, keep, versioned, flags):
    isz = dt.itemsize
    if any(s % isz for s in byte_strides):
        raise BufferError("DLPack strides are counted in elements; this view has byte strides "
                          f"{byte_strides} that are not multiples of the itemsize {isz}")
    nd = len(shape)
    shp = (c_int64 * max(nd, 1))(*shape)
    std = (c_int64 * max(nd, 1))(*(s // isz for s in byte_strides))
    t = DLTensor(ptr, DLDevice(*device), nd, _dl_dtype(dt), shp, std, 0)
    if versioned:
        m = DLManagedTensorVersioned(DLPackVersion(*VERSION), None, _deleter, flags, t)
    else:
        m = DLManagedTensor(t, None, _deleter)
    addr = ctypes.addressof(m)
    _exports[addr] = (m, shp, std, keep)
    return _capsule_new(addr, _VNAME if versioned else _NAME, _capsule_destructor)


def to_dlpack(arr, *, stream=None, max_version=None, dl_device=None, copy=None):
    """``ndarray.__dlpack__`` (Array API semantics).

    ``max_version``: a versioned capsule when the consumer supports DLPack >= 1.0.
    ``stream``: the consumer's stream (CUDA ints: 1 legacy default, 2 per-thread,
    -1 no sync); our pending work is ordered before it.  ``dl_device``: the array's
    own device, or ``(kDLCPU, 0)`` to receive a host copy (unless ``copy=False``).
    ``copy=True`` always exports a fresh copy.
    """
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    own = dlpack_device(arr)
    consumer = _consumer_stream(stream) if (own[0] == kDLCUDA or stream is not None) else None
    if dl_device is not None and tuple(dl_device) != own:
        dl_device = tuple(dl_device)
        if dl_device != (kDLCPU, 0):
            raise BufferError(f"npgpu cannot export an array on {own} to DLPack device {dl_device}")
        if copy is False:
            raise BufferError("exporting to the CPU needs a copy, but copy=False was given")
        host = arr.get()       # explicit (the consumer asked for host memory); get() synchronizes
        return _make_capsule(host.ctypes.data, host.shape, host.strides, host.dtype,
                             (kDLCPU, 0), host, versioned, FLAG_IS_COPIED)
    flags = 0
    if copy:
        arr = arr.copy()       # queued on our current stream, like the work it copies
        flags = FLAG_IS_COPIED
    elif arr._ro >= READONLY:
        if not versioned:      # NumPy's rule: a legacy capsule cannot say "read-only"
            raise BufferError("Cannot export readonly array since signalling readonly is "
                              "unsupported by DLPack (supported by newer DLPack version).")
        flags = FLAG_READ_ONLY
    _sync_to(consumer)
    return _make_capsule(arr._ptr, arr.shape, arr._strides, arr.dtype, own, arr, versioned, flags)


# ---- import -------------------------------------------------------------------------------------
class _Imported:
    """Owner of imported DLPack memory: calls the producer's deleter when the last view dies."""

    __slots__ = ("managed", "deleter")

    def __init__(self, managed, deleter):
        self.managed = managed
        self.deleter = deleter

    def __del__(self):
        d, self.deleter = self.deleter, None
        if d:
            try:
                d(self.managed)
            except Exception:   # interpreter shutdown
                pass


def _accepted_devices():
    if _backend.IS_SIM:
        return (kDLCPU,)
    return (kDLCUDA, kDLCUDAManaged)


def _check_device(dev, what):
    dtype_, did = int(dev[0]), int(dev[1])
    name = _DEVICE_NAMES.get(dtype_, f"device type {dtype_}")
    if dtype_ not in _accepted_devices():
        if _backend.IS_SIM:
            raise BufferError(f"npgpu.from_dlpack on the simulator takes host (kDLCPU) tensors; "
                              f"{what} is on {name}")
        raise BufferError(f"npgpu.from_dlpack needs a CUDA tensor (kDLCUDA or kDLCUDAManaged); {what} "
                          f"is on {name}. Use npgpu.asarray() to copy host data to the GPU.")
    cur = _runtime.get_device_id()
    if _backend.IS_CUDA and dtype_ == kDLCUDA and did != cur:
        raise BufferError(f"{what} is on CUDA device {did}, but the current device is {cur}; "
                          f"use `with npgpu.cuda.Device({did}):`")
    return dtype_, did


def _from_capsule(cap):
    if _capsule_is_valid(cap, _VNAME):
        addr = _capsule_get(cap, _VNAME)
        m = DLManagedTensorVersioned.from_address(addr)
        if m.version.major > VERSION[0]:
            # per the spec: leave the tensor to the producer (do not rename or delete)
            raise BufferError(f"DLPack version {m.version.major}.{m.version.minor} is newer than "
                              f"npgpu supports ({VERSION[0]}.x)")
        used = _VUSED
        ro = READONLY_FOREIGN if m.flags & FLAG_READ_ONLY else WRITEABLE
    elif _capsule_is_valid(cap, _NAME):
        addr = _capsule_get(cap, _NAME)
        m = DLManagedTensor.from_address(addr)
        used = _USED
        ro = WRITEABLE
    else:
        raise ValueError("not a DLPack capsule (or one already consumed): expected a capsule "
                         "named 'dltensor' or 'dltensor_versioned'")
    t = m.dl_tensor
    dt = _np_dtype(t.dtype)
    dev_type, dev_id = _check_device((t.device.device_type, t.device.device_id), "the DLPack tensor")
    nd = t.ndim
    shape = tuple(int(t.shape[i]) for i in range(nd))
    if t.strides:
        # byte strides as signed 64-bit values: CuPy's capsule for a negative-stride view came
        # back as 2**64 - 24 for -24 (seen on the H200); reading modulo 2**64 gives both right
        strides = tuple(((int(t.strides[i]) * dt.itemsize + 2 ** 63) % 2 ** 64) - 2 ** 63
                        for i in range(nd))
    else:
        strides = _layout.c_strides(shape, dt.itemsize)
    ptr = (t.data or 0) + t.byte_offset
    # we own the tensor now: mark the capsule consumed, and call the deleter when done
    _capsule_set_name(cap, used)
    deleter = m.deleter if m.deleter else None     # a NULL deleter is allowed
    owner = _Imported(addr, deleter)
    lo = sum(s * (n - 1) for s, n in zip(strides, shape) if s < 0)
    hi = sum(s * (n - 1) for s, n in zip(strides, shape) if s > 0) + dt.itemsize
    if 0 in shape:
        lo, hi = 0, 0
    dev = dev_id if dev_type != kDLCPU else _runtime.get_device_id()
    mem = _memory.Memory(ptr + lo, hi - lo, None, dev, None, 0, owner=owner)
    return _new(mem, ptr, shape, strides, dt, None, None, ro)


def from_dlpack(x, /, *, device=None, copy=None):
    """Import any DLPack producer (an object with ``__dlpack__``, or a capsule) as an npgpu array.

    Zero-copy: the result shares the producer's memory and keeps it alive.  On the GPU
    the tensor must be CUDA memory of the current device; on the simulator, host
    (kDLCPU) memory such as a NumPy array.  ``copy=True`` returns a copy;
    ``device`` must be None or the current device.
    """
    if device is not None:
        did = device.id if isinstance(device, _runtime.Device) else int(device)
        if did != _runtime.get_device_id():
            raise ValueError(f"from_dlpack(device={did}) must be the current device "
                             f"({_runtime.get_device_id()}); use `with npgpu.cuda.Device({did}):`")
    _runtime.ensure_context()
    if isinstance(x, ndarray):
        out = x._view(0, x.shape, x._strides)
    elif type(x).__name__ == "PyCapsule":
        out = _from_capsule(x)
    else:
        if not hasattr(x, "__dlpack__"):
            raise TypeError(f"from_dlpack needs an object with __dlpack__ (or a DLPack capsule), "
                            f"not {type(x).__name__}")
        if hasattr(x, "__dlpack_device__"):
            _check_device(x.__dlpack_device__(), f"the {type(x).__name__}")
        if _backend.IS_SIM:
            stream = None       # kDLCPU producers take no stream
        else:
            s = _runtime.current_stream_handle()
            stream = s if s else 1
        try:
            cap = x.__dlpack__(stream=stream, max_version=VERSION)
        except TypeError:       # a producer older than the Array API 2023 signature
            cap = x.__dlpack__(stream=stream) if stream is not None else x.__dlpack__()
        out = _from_capsule(cap)
    return out.copy() if copy else out
