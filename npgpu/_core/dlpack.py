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

Streams: an export orders our pending work before the consumer's stream, an import
asks the producer to order its work before ours; both by an event recorded on one
stream and waited on by the other (``cuda.runtime.stream_wait``), never a host or
device-wide synchronisation.
"""
import ctypes
import operator
import struct
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int32, c_int64, c_uint8, c_uint16,
                    c_uint32, c_uint64, c_void_p, py_object)

import numpy as np

from .. import _backend
from ..cuda import memory as _memory
from ..cuda import runtime as _runtime
from . import layout as _layout
from . import transfer as _transfer
from .dtypes import check_dtype
from .exchange_cache import exchange_cache as _xcache
from .ndarray import READONLY, READONLY_FOREIGN, WRITEABLE, _new, ndarray

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


# The same layouts as struct formats: an export packs one buffer and an import unpacks one copy of
# the header (ctypes Structure objects cost microseconds each, and an exchange is a few of them).
_TENSOR = "QiiiBBHQQQ"      # data, device (type, id), ndim, dtype (code, bits, lanes), shape, strides, byte_offset
_VSTRUCT = struct.Struct("<IIQQQ" + _TENSOR)     # version, manager_ctx, deleter, flags, dl_tensor
_LSTRUCT = struct.Struct("<" + _TENSOR + "QQ")   # dl_tensor, manager_ctx, deleter
assert _VSTRUCT.size == ctypes.sizeof(DLManagedTensorVersioned)
assert _LSTRUCT.size == ctypes.sizeof(DLManagedTensor)
assert DLManagedTensorVersioned.dl_tensor.offset == 32 and DLManagedTensor.deleter.offset == 56


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
_capsule_name = ctypes.PYFUNCTYPE(c_char_p, py_object)(("PyCapsule_GetName", _api))
# The destructor gets a capsule whose refcount is already 0: take it as a raw pointer
# (py_object would incref/decref a dying object) and use raw-pointer variants here.
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, c_void_p, c_char_p)(("PyCapsule_IsValid", _api))
_raw_get = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(("PyCapsule_GetPointer", _api))
_raw_name = ctypes.PYFUNCTYPE(c_char_p, c_void_p)(("PyCapsule_GetName", _api))
_capsule_set_destructor = ctypes.PYFUNCTYPE(ctypes.c_int, py_object, c_void_p)(
    ("PyCapsule_SetDestructor", _api))

# Exported tensors still owned by a capsule or a consumer:
# address of the managed struct -> (its buffer, keep-alive object, DLPack flags).
_exports = {}


def _release(addr):
    try:
        _exports.pop(addr, None)
    except Exception:   # interpreter shutdown
        pass


# Called by a consumer (or our capsule destructor): drop the struct and the array ref.
_deleter = _Deleter(_release)
_DELETER_ADDR = ctypes.cast(_deleter, c_void_p).value


@_Destructor
def _capsule_destructor(cap):
    # Only an unconsumed capsule still carries its original name; a consumer renamed it.
    try:
        name = _raw_name(cap)
        if name == _NAME or name == _VNAME:
            _release(_raw_get(cap, name))
    except Exception:   # interpreter shutdown
        pass


# ---- dtypes -------------------------------------------------------------------------------------
_DL_CODES = {"b": kDLBool, "i": kDLInt, "u": kDLUInt, "f": kDLFloat, "c": kDLComplex}
_dtypes = {}        # (code, bits, lanes) -> NumPy dtype, filled on first use


def _np_dtype(dl):
    """The NumPy dtype of a DLDataType."""
    return _dtype_of(dl.code, dl.bits, dl.lanes)


def _dtype_of(code, bits, lanes):
    dt = _dtypes.get((code, bits, lanes))
    if dt is None:
        dt = _dtypes[(code, bits, lanes)] = _dtype_uncached(code, bits, lanes)
    return dt


def _dtype_uncached(code, bits, lanes):
    if lanes != 1:
        raise BufferError(f"DLPack vector dtypes (lanes={lanes}) are not supported")
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
    """A ``__dlpack__`` ``stream`` argument as a driver handle, or None for "do not synchronise".

    The Array API's CUDA values: None or 1 the legacy default stream, 2 the per-thread default
    stream (its handle is 2 too), -1 no synchronisation, any other positive int a stream
    handle; 0 is ambiguous and refused."""
    if stream.__class__ is int and stream > 0:          # what every peer passes
        return 0 if stream == 1 else stream
    if stream is None:
        return 0
    if isinstance(stream, (bool, np.bool_)) or not hasattr(stream, "__index__"):
        raise TypeError(f"stream must be None or an int (a CUDA stream handle), not "
                        f"{type(stream).__name__}")
    stream = operator.index(stream)
    if stream == -1:
        return None
    if stream == 0:
        raise ValueError("stream=0 is ambiguous for CUDA (use 1 for the legacy default stream, "
                         "2 for the per-thread default stream)")
    if stream < -1:
        raise ValueError(f"stream must be None, -1 or a positive integer stream handle, not {stream}")
    return 0 if stream == 1 else stream


_VERSIONS = {(1, 0): (1, 0), (1, 1): (1, 1)}     # what peers pass -> the version we write


def _capsule_version(max_version):
    """The DLPack version to write for a consumer's ``max_version``: None for a legacy capsule
    (no max_version, or major 0), else ours, lowered to the consumer's 1.x minor."""
    if max_version is None:
        return None
    if max_version.__class__ is tuple:
        v = _VERSIONS.get(max_version)
        if v is not None and max_version[0].__class__ is int and max_version[1].__class__ is int:
            return v                         # torch's (1, 0), npgpu's own (1, 1): no checks left
    try:
        major, minor = (operator.index(v) for v in max_version)
    except (TypeError, ValueError):
        raise TypeError(f"max_version must be None or a (major, minor) tuple of ints, not "
                        f"{max_version!r}") from None
    if major < 1:
        return None
    return (1, min(minor, VERSION[1])) if major == 1 else VERSION


def _as_dl_device(dl_device):
    try:
        dev_type, dev_id = dl_device
        return operator.index(dev_type), operator.index(dev_id)
    except (TypeError, ValueError):
        raise TypeError(f"dl_device must be None or a (device type, device id) tuple of ints, "
                        f"not {dl_device!r}") from None


_INT64S = {}


def _int64s(n):
    """A struct of ``n`` int64 (shape, strides), cached per length."""
    st = _INT64S.get(n)
    if st is None:
        st = _INT64S[n] = struct.Struct(f"<{n}q")
    return st


_BUFS = {}                           # size -> ctypes char-array type (create_string_buffer's cost
_SHAPE_PTRS = struct.Struct("<QQ")   # is its Python wrapper); the (shape, strides) pointer pair


def _template(ptr, shape, byte_strides, dt, device, version, flags):
    """One export's bytes, less the addresses of shape and strides (they point into each
    capsule's own buffer): (buffer type, image, offset of the shape pointer, header size,
    capsule name, flags).  A "dltensor_versioned" struct of DLPack ``version`` (with ``flags``), or a
    legacy "dltensor" one where ``version`` is None, then shape and strides."""
    isz = dt.itemsize
    strides = [s // isz for s in byte_strides]
    if any(s * isz != b for s, b in zip(strides, byte_strides)):
        raise BufferError("DLPack strides are counted in elements; this view has byte strides "
                          f"{byte_strides} that are not multiples of the itemsize {isz}")
    nd = len(shape)
    head = _LSTRUCT if version is None else _VSTRUCT
    size = head.size + 16 * nd
    typ = _BUFS.get(size)
    if typ is None:
        typ = _BUFS[size] = ctypes.c_char * size
    buf = bytearray(size)
    tensor = (ptr, device[0], device[1], nd, _DL_CODES[dt.kind], 8 * isz, 1, 0, 0, 0)
    if version is None:
        head.pack_into(buf, 0, *tensor, 0, _DELETER_ADDR)
        name, off = _NAME, 24
    else:
        head.pack_into(buf, 0, version[0], version[1], 0, _DELETER_ADDR, flags, *tensor)
        name, off = _VNAME, 32 + 24
    _int64s(2 * nd).pack_into(buf, head.size, *shape, *strides)
    return typ, bytes(buf), off, head.size, name, flags


def _emit(t, keep):
    """A capsule of template ``t`` that keeps ``keep`` alive until the consumer's deleter (or
    the destructor of an unconsumed capsule) runs."""
    typ, image, off, hsize, name, flags = t
    buf = typ()
    buf.raw = image
    addr = ctypes.addressof(buf)
    shp = addr + hsize
    _SHAPE_PTRS.pack_into(buf, off, shp, shp + (len(image) - hsize) // 2)
    _exports[addr] = (buf, keep, flags)
    return _capsule_new(addr, name, _capsule_destructor)


def _make_capsule(ptr, shape, byte_strides, dt, device, keep, version, flags):
    return _emit(_template(ptr, shape, byte_strides, dt, device, version, flags), keep)


def _export(arr, device, version, flags):
    """A capsule of ``arr`` itself: its template is made once per (version, flags) and kept
    with the array (``exchange_cache``)."""
    c = _xcache(arr)
    dl = c.dl
    if dl is None:
        dl = c.dl = {}
    t = dl.get((version, flags))
    if t is None:
        t = dl[(version, flags)] = _template(arr._ptr, arr.shape, arr._strides, arr.dtype,
                                             device, version, flags)
    return _emit(t, arr)


def to_dlpack(arr, *, stream=None, max_version=None, dl_device=None, copy=None):
    """``ndarray.__dlpack__`` (Array API 2023.12 semantics).

    ``max_version``: a versioned capsule (read-only arrays flagged read-only) when the consumer
    supports DLPack >= 1.0; otherwise a legacy capsule, which cannot say "read-only", so a
    read-only array raises BufferError.  ``stream``: the consumer's stream (CUDA ints: 1 legacy
    default, 2 per-thread default, -1 no synchronisation); the consumer's stream waits on an
    event recorded on our current stream.  ``dl_device``: the array's own device, or
    ``(kDLCPU, 0)`` to receive a host copy (BufferError with ``copy=False``).  ``copy=True``
    always exports a fresh copy; ``copy=False`` never copies.
    """
    version = _capsule_version(max_version)
    own = (kDLCPU, 0) if _backend.IS_SIM else (kDLCUDA, arr._mem.device_id)
    consumer = _consumer_stream(stream)
    if dl_device is not None:
        dl_device = _as_dl_device(dl_device)
        if dl_device != own:
            if dl_device != (kDLCPU, 0):
                raise BufferError(f"npgpu cannot export an array on {own} to DLPack device "
                                  f"{dl_device}")
            if copy is False:
                raise BufferError("exporting to the CPU needs a copy, but copy=False was given")
            host = arr.get()   # explicit (the consumer asked for host memory); get() synchronizes
            return _make_capsule(host.ctypes.data, host.shape, host.strides, host.dtype,
                                 (kDLCPU, 0), host, version, FLAG_IS_COPIED)
    flags = 0
    if copy:
        arr = arr.copy()       # queued on our current stream, like the work it copies
        flags = FLAG_IS_COPIED
    elif arr._ro >= READONLY:
        if version is None:    # NumPy's rule: a legacy capsule cannot say "read-only"
            raise BufferError("Cannot export readonly array since signalling readonly is "
                              "unsupported by DLPack (supported by newer DLPack version).")
        flags = FLAG_READ_ONLY
    if consumer is not None and _backend.IS_CUDA:
        st = _runtime._tls.stream
        ours = st.ptr if st is not None else 0
        if consumer != ours:                    # (the same stream: nothing to order)
            _runtime.stream_wait(consumer, ours)
    return _export(arr, own, version, flags)


# ---- import ----------------------------------------------------------------------------------
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


_foreign_deleters = {}      # address -> ctypes function of a producer's deleter (made once)


def _foreign_deleter(addr):
    d = _foreign_deleters.get(addr)
    if d is None:
        d = _foreign_deleters[addr] = _Deleter(addr)
    return d


_HOME = kDLCPU if _backend.IS_SIM else kDLCUDA     # where device arrays live


def _accepted_devices():
    if _backend.IS_SIM:
        return (kDLCPU,)
    return (kDLCUDA, kDLCUDAManaged)


def _check_device(dev, what):
    dtype_, did = int(dev[0]), int(dev[1])
    if dtype_ == _HOME and (did == _runtime.get_device_id() or _backend.IS_SIM):
        return dtype_, did                   # the common case: memory of the current device
    name = _DEVICE_NAMES.get(dtype_, f"device type {dtype_}")
    if dtype_ not in _accepted_devices():
        if _backend.IS_SIM:
            raise BufferError(f"npgpu.from_dlpack on the simulator takes host (kDLCPU) tensors; "
                              f"{what} is on {name}")
        raise BufferError(f"npgpu.from_dlpack needs a CUDA tensor (kDLCUDA or kDLCUDAManaged); {what} "
                          f"is on {name}. Use npgpu.asarray() or from_dlpack(x, copy=True) to copy "
                          "host data to the GPU.")
    cur = _runtime.get_device_id()
    if _backend.IS_CUDA and dtype_ == kDLCUDA and did != cur:
        raise BufferError(f"{what} is on CUDA device {did}, but the current device is {cur}; "
                          f"use `with npgpu.cuda.Device({did}):`")
    return dtype_, did


_string_at = ctypes._string_at          # ctypes.string_at without its Python wrapper
_MAJOR = struct.Struct("<I")            # a versioned struct's first field
_VSIZE, _LSIZE = _VSTRUCT.size, _LSTRUCT.size


def _from_capsule(cap, read_only=False):
    """The array a capsule describes (zero copy) and the producer's DLPack flags.  ``read_only``
    marks a legacy capsule's tensor read-only (a producer known to be immutable)."""
    try:        # every peer of DLPack 1.x gives a versioned capsule: no name query first
        addr = _capsule_get(cap, _VNAME)
        name = _VNAME
    except ValueError:      # another name (or not a capsule): CPython's error, ours below
        try:
            name = _capsule_name(cap)
        except ValueError:
            name = None
        addr = _capsule_get(cap, _NAME) if name == _NAME else None
    mine = _exports.get(addr)
    if mine is not None and mine[1].__class__ is ndarray and \
            mine[1]._mem.device_id == _runtime._tls.device and \
            (name == _NAME or _MAJOR.unpack_from(mine[0])[0] <= VERSION[0]):
        # npgpu's own export of a device array: a view of that array (nothing to parse); the
        # struct is released now, the array keeps the memory (no deleter to call back later)
        _capsule_set_name(cap, _VUSED if name == _VNAME else _USED)
        _capsule_set_destructor(cap, None)
        _, src, flags = _exports.pop(addr)
        return _new(src._mem, src._ptr, src.shape, src._strides, src.dtype, src._root(),
                    (src._c_contig, src._f_contig),
                    READONLY_FOREIGN if read_only or flags & FLAG_READ_ONLY else WRITEABLE), flags
    if name == _VNAME:
        (major, minor, _ctx, deleter, flags, data, dev_type, dev_id, nd, code, bits, lanes,
         shp, std, offset) = _VSTRUCT.unpack(_string_at(addr, _VSIZE))
        if major > VERSION[0]:
            # per the spec: leave the tensor to the producer (do not rename or delete)
            raise BufferError(f"DLPack version {major}.{minor} is newer than npgpu supports "
                              f"({VERSION[0]}.x)")
        used = _VUSED
        read_only = read_only or bool(flags & FLAG_READ_ONLY)
    elif name == _NAME:
        (data, dev_type, dev_id, nd, code, bits, lanes, shp, std, offset, _ctx,
         deleter) = _LSTRUCT.unpack(_string_at(addr, _LSIZE))
        used = _USED
        flags = 0
    else:
        raise ValueError("not a DLPack capsule (or one already consumed): expected a capsule "
                         "named 'dltensor' or 'dltensor_versioned'")
    dt = _dtype_of(code, bits, lanes)
    if dev_type != _HOME or not (_backend.IS_SIM or dev_id == _runtime._tls.device):
        dev_type, dev_id = _check_device((dev_type, dev_id), "the DLPack tensor")
    isz = dt.itemsize
    if std and std == shp + 8 * nd:          # shape and strides side by side (ours are)
        both = _int64s(2 * nd).unpack(_string_at(shp, 16 * nd))
        shape, estrides = both[:nd], both[nd:]
    else:
        shape = _int64s(nd).unpack(_string_at(shp, 8 * nd)) if nd else ()
        estrides = _int64s(nd).unpack(_string_at(std, 8 * nd)) if std and nd else None
    # byte strides, modulo 2**64 as signed 64-bit values: CuPy's capsule of a negative-stride
    # view holds the element stride as (2**64 - 24) // 4 for -24 bytes (seen on the H200), a
    # positive int64 whose byte stride is -24 only modulo 2**64
    if estrides is None:
        strides = _layout.c_strides(shape, isz)
    else:
        strides = tuple([((s * isz + 2 ** 63) % 2 ** 64) - 2 ** 63 for s in estrides])
    ptr = data + offset
    # we own the tensor now: mark the capsule consumed, and call the deleter when done
    _capsule_set_name(cap, used)
    if deleter == _DELETER_ADDR:
        # our own export of host memory (a CPU copy): the exported object keeps it alive
        _capsule_set_destructor(cap, None)
        owner = _exports.pop(addr)[1]
    else:
        owner = _Imported(addr, _foreign_deleter(deleter) if deleter else None)  # NULL allowed
    lo, hi, contig = _transfer.foreign_extent(shape, strides, isz)
    dev = dev_id if dev_type != kDLCPU else _runtime._tls.device
    mem = _memory.Memory(ptr + lo, hi - lo, None, dev, None, 0, owner)
    return _new(mem, ptr, shape, strides, dt, None, contig,
                READONLY_FOREIGN if read_only else WRITEABLE), flags


def _device_ordinal(device):
    # the Array API's device argument: an npgpu.cuda.Device or an ordinal (None: no request)
    if device is None or isinstance(device, _runtime.Device):
        return None if device is None else device.id
    if isinstance(device, (bool, np.bool_)) or not hasattr(device, "__index__"):
        raise ValueError(f"Device not understood: {device!r}; npgpu arrays live on CUDA devices "
                         "(an npgpu.cuda.Device or a device ordinal)")
    return operator.index(device)


def _request(x, stream, copy):
    """``x.__dlpack__`` with the Array API 2023.12 arguments, or the older signature."""
    try:
        if copy is None:
            return x.__dlpack__(stream=stream, max_version=VERSION)
        return x.__dlpack__(stream=stream, max_version=VERSION, copy=copy)
    except TypeError:       # a producer older than the Array API 2023.12 signature
        return x.__dlpack__(stream=stream) if stream is not None else x.__dlpack__()


def from_dlpack(x, /, *, device=None, copy=None):
    """Import any DLPack producer (an object with ``__dlpack__``, or a capsule) as an npgpu array.

    Zero copy: the result shares the producer's memory and keeps it alive.  On the GPU the
    tensor must be CUDA memory; the producer is given our current stream, so its pending work
    is ordered before ours (it records, our stream waits; no synchronisation).  On the
    simulator, host (kDLCPU) memory such as a NumPy array.  ``copy=True`` returns a copy (and
    takes host tensors, copied to the device); ``copy=False`` never copies (BufferError where
    one is needed).  ``device``: an ``npgpu.cuda.Device`` or ordinal to place the result on
    (a producer on another device is copied there unless ``copy=False``).  Producers whose
    arrays are immutable (JAX) import read-only.
    """
    tls = _runtime._tls
    here = tls.device
    if device is not None:
        want = _device_ordinal(device)
        if want is not None and want != here:
            with _runtime.Device(want):
                return from_dlpack(x, device=want, copy=copy)
    if tls.ctx_dev != here:
        _runtime.ensure_context()
    cls = x.__class__
    if cls is ndarray or isinstance(x, ndarray):
        out = x._view(0, x.shape, x._strides)
        return out.copy() if copy else out
    if cls.__name__ == "PyCapsule":
        out, flags = _from_capsule(x)
    elif cls is _torch_tensor() and copy is None and (cap := _torch_capsule(x, tls)) is not None:
        out, flags = _from_capsule(cap)
    else:
        if not hasattr(x, "__dlpack__"):
            raise TypeError(f"from_dlpack needs an object with __dlpack__ (or a DLPack capsule), "
                            f"not {type(x).__name__}")
        dev = x.__dlpack_device__() if hasattr(x, "__dlpack_device__") else None
        if dev is not None and not (dev[0] == _HOME and (dev[1] == here or _backend.IS_SIM)):
            # device= asks for the move: copy=None then copies where needed (the standard;
            # scikit-learn's move_to sends NumPy arrays so); without device=, only copy=True
            moved = _from_elsewhere(x, dev, here,
                                    True if copy is None and device is not None else copy)
            if moved is not None:
                return moved
        # the producer orders its pending work before our current stream (1: legacy default)
        if _backend.IS_SIM:
            stream = None
        else:
            st = tls.stream
            stream = (st.ptr if st is not None else 0) or 1
        out, flags = _from_capsule(_request(x, stream, copy), read_only=_transfer.immutable(x))
    return out.copy() if copy and not flags & FLAG_IS_COPIED else out


# ---- PyTorch's tensors: the same exchange without PyTorch's Python-level __dlpack__ ------------
# ``torch.Tensor.__dlpack__(stream=...)`` spends ~11 us of Python (on the H200: default and
# current stream objects, device-index lookups) before its C export, which takes ~1 us.  For a
# plain CUDA tensor on the current device npgpu does the same steps itself with PyTorch's C
# functions: the same checks and messages, the same ordering (PyTorch's current stream on the
# tensor's device, then ours waits on it through an event when they differ), the same
# versioned capsule.  Anything else (subclasses, other devices, copy=, a PyTorch without these
# functions) takes the protocol path.
_torch_fast = {}        # "tensor": torch.Tensor, "export", "stream": its C functions; False: none


def _torch_tensor():
    t = _torch_fast.get("tensor")
    if t is None:
        import sys
        torch = sys.modules.get("torch")
        if torch is None:
            return None                     # not imported yet: no tensor can be passed
        try:
            _torch_fast["export"] = torch._C._to_dlpack_versioned
            _torch_fast["stream"] = torch._C._cuda_getCurrentRawStream
            _torch_fast["strided"] = torch.strided
            t = torch.Tensor
        except AttributeError:
            t = False
        _torch_fast["tensor"] = t
    return t


def _torch_capsule(x, tls):
    """A versioned capsule of CUDA tensor ``x``, PyTorch's pending work on it ordered before our
    current stream; None where the protocol path must run instead."""
    if _backend.IS_SIM or x.get_device() != tls.device:
        return None
    if x.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    if x.is_conj():
        raise BufferError("Can't export tensors with the conjugate bit set")
    if x.layout is not _torch_fast["strided"]:
        raise BufferError("Can't export tensors with layout other than torch.strided")
    st = tls.stream
    _runtime.stream_wait(st.ptr if st is not None else 0, _torch_fast["stream"](tls.device))
    return _torch_fast["export"](x)


def _from_elsewhere(x, dev, here, copy):
    """A producer not on the current device: host memory copied over (``copy=True``), another
    CUDA device's memory imported there and copied here (unless ``copy=False``); None where it
    is usable in place (managed memory), else the error."""
    dev_type, dev_id = int(dev[0]), int(dev[1])
    if _backend.IS_CUDA and dev_type == kDLCPU and copy:
        return _transfer.from_host(np.from_dlpack(x))    # NumPy reads it; we copy it over
    if _backend.IS_CUDA and dev_type == kDLCUDA and dev_id != here:
        if copy is False:
            raise BufferError(f"the {type(x).__name__} is on CUDA device {dev_id}, not device "
                              f"{here}; placing it here needs a copy, but copy=False was given")
        if not 0 <= dev_id < _runtime.get_device_count():
            raise BufferError(f"the {type(x).__name__} is on CUDA device {dev_id}, which this "
                              f"process does not see ({_runtime.get_device_count()} device(s))")
        with _runtime.Device(dev_id):
            src = from_dlpack(x)
        return src.to_device(here)
    _check_device(dev, f"the {type(x).__name__}")
    return None
