"""Host <-> device transfers and zero-copy import of foreign device arrays (CUDA Array Interface)."""
import ctypes
import sys
import threading

import numpy as np

from .. import _backend
from ..cuda import memory as _memory
from ..cuda import runtime as _runtime
from . import layout as _layout
from .dtypes import check_dtype
from .exchange_cache import exchange_cache as _xcache
from .ndarray import READONLY, READONLY_FOREIGN, WRITEABLE, _new, empty_array, ndarray

if _backend.IS_CUDA:
    from ..cuda import _driver as drv


def _stream_handle(stream):
    if stream is None:
        return _runtime.current_stream_handle()
    return stream.ptr if hasattr(stream, "ptr") else int(stream)


def _copy_stream(stream):
    """The handle a copy runs on; a ``stream`` other than the current one first waits (an
    event, no host wait) for the work queued so far on the current stream, where npgpu made
    and last wrote the array: ``x.get(stream=s)`` on a non-blocking ``s`` must not read ``x``
    before the upload or the kernel that filled it (seen on the H200: a 30-byte upload still
    in flight when ``get(out=pinned, stream=s)`` read its block)."""
    cur = _runtime.current_stream_handle()
    if stream is None:
        return cur
    s = _stream_handle(stream)
    _runtime.stream_wait(s, cur)
    return s


_STAGE_MIN = 16 << 20          # pageable copies from this size go through our staging buffers
_CHUNK = 32 << 20
_stage = None                  # (two pinned buffers, two events, thread pool), made on first use
_stage_lock = threading.Lock()  # one staged copy at a time: the buffers are the process's


def _page_locked(ptr):
    """Whether the driver knows host address ``ptr`` as page-locked (ours, CuPy's, torch's...)."""
    kind = ctypes.c_uint(0)
    rc = drv.cuPointerGetAttribute(ctypes.byref(kind), 2, ptr)   # CU_POINTER_ATTRIBUTE_MEMORY_TYPE
    return rc == 0 and kind.value == 1                            # CU_MEMORYTYPE_HOST


def _staging():
    global _stage
    if _stage is None:          # under _stage_lock
        from concurrent.futures import ThreadPoolExecutor
        from ..cuda.memory import PinnedMemory
        bufs = [PinnedMemory(_CHUNK), PinnedMemory(_CHUNK)]
        evs = [_runtime.Event(disable_timing=True), _runtime.Event(disable_timing=True)]
        _stage = (bufs, evs, ThreadPoolExecutor(4, thread_name_prefix="npgpu-stage"))
    return _stage


def _staged_h2d(dst_ptr, src_ptr, nbytes, s):
    """Pageable host -> device, double-buffered: while the DMA engine copies one pinned chunk,
    four threads fill the other (ctypes.memmove releases the GIL). The driver's own pageable
    path stages through one CPU thread."""
    with _stage_lock:
        _staged_copy(dst_ptr, src_ptr, nbytes, s)


def _staged_copy(dst_ptr, src_ptr, nbytes, s):
    bufs, evs, pool = _staging()
    k = 0
    for off in range(0, nbytes, _CHUNK):
        n = min(_CHUNK, nbytes - off)
        buf, ev = bufs[k & 1], evs[k & 1]
        ev.synchronize()                          # the DMA that last read this buffer is done
        part = -(-n // 4)
        jobs = [pool.submit(ctypes.memmove, buf.ptr + q, src_ptr + off + q, min(part, n - q))
                for q in range(0, n, part)]
        for j in jobs:
            j.result()
        drv.check(drv.cuMemcpyHtoDAsync(dst_ptr + off, buf.ptr, n, s), "cuMemcpyHtoDAsync")
        drv.check(drv.cuEventRecord(ev.ptr, s), "cuEventRecord")
        k += 1
    # the source may be freed once we return: pinned buffers are ours, so only wait for the
    # last reads of them before they are reused (next call's ev.synchronize()).


def _h2d(dst_ptr, host, nbytes, stream=None):
    if not nbytes:
        return
    if _backend.IS_CUDA:
        _runtime.ensure_context()      # a thread's first driver call may be a copy
        s = _copy_stream(stream)
        if nbytes >= _STAGE_MIN and not _page_locked(host.ctypes.data):
            _staged_h2d(dst_ptr, host.ctypes.data, nbytes, s)
            return
        drv.check(drv.cuMemcpyHtoDAsync(dst_ptr, host.ctypes.data, nbytes, s), "cuMemcpyHtoDAsync")
    else:
        ctypes.memmove(dst_ptr, host.ctypes.data, nbytes)


# device-to-host copies so far (@npgpu.fuse replays no traced call that read values back)
d2h_count = 0


def _d2h(host, src_ptr, nbytes, stream=None):
    global d2h_count
    d2h_count += 1
    if not nbytes:
        return
    if _backend.IS_CUDA:
        _runtime.ensure_context()
        s = _copy_stream(stream)
        drv.check(drv.cuMemcpyDtoHAsync(host.ctypes.data, src_ptr, nbytes, s), "cuMemcpyDtoHAsync")
        # pageable copies are synchronous already; pinned ones must finish before we return
        drv.check(drv.cuStreamSynchronize(s), "cuStreamSynchronize")
    else:
        ctypes.memmove(host.ctypes.data, src_ptr, nbytes)


def zero(ptr, nbytes, stream=None):
    """Set ``nbytes`` at device address ``ptr`` to zero on ``stream`` (default: the current
    one): a memset, no kernel, no host wait."""
    memset(ptr, nbytes, b"\0", stream)


_MEMSET_UNITS = (1, 2, 4)


def memset_unit(pattern, ptr, nbytes):
    """The width (1, 2 or 4 bytes) of a driver memset that writes ``pattern`` (an element's
    bytes) repeated over ``nbytes`` at ``ptr``, or 0 where none does (a pattern that does not
    repeat every 4 bytes, e.g. float64 1.0; an unaligned address)."""
    for u in _MEMSET_UNITS:
        if len(pattern) % u or pattern != pattern[:u] * (len(pattern) // u):
            continue
        return u if not ptr % u and not nbytes % u else 0
    return 0


def memset(ptr, nbytes, pattern, stream=None):
    """Write ``pattern`` (1, 2 or 4 bytes, :func:`memset_unit`) repeated over ``nbytes`` at
    device address ``ptr`` on ``stream``: the driver's memset, which writes at the full memory
    bandwidth (H200: 107% of the copy rate for 1 GiB, where a fill kernel of 4-byte stores
    reached 74%; ``benchmarks/experiments/random_write_parts.py``)."""
    if not nbytes:
        return
    u = len(pattern)
    if _backend.IS_CUDA:
        what = f"cuMemsetD{8 * u}Async"
        drv.check(getattr(drv, what)(ptr, int.from_bytes(pattern, sys.byteorder), nbytes // u,
                                     _stream_handle(stream) or None), what)
    elif pattern == b"\0" * u:
        ctypes.memset(ptr, 0, nbytes)        # simulated device memory is host memory
    else:
        ctypes.memmove(ptr, pattern * (nbytes // u), nbytes)


def d2d(dst_ptr, src_ptr, nbytes, stream=None):
    if not nbytes:
        return
    if _backend.IS_CUDA:
        _runtime.ensure_context()
        drv.check(drv.cuMemcpyDtoDAsync(dst_ptr, src_ptr, nbytes, _stream_handle(stream)),
                  "cuMemcpyDtoDAsync")
    else:
        ctypes.memmove(dst_ptr, src_ptr, nbytes)


def peer_copy(dst_ptr, dst_dev, src_ptr, src_dev, nbytes, src_stream=0, stream=None):
    """Copy ``nbytes`` from device ``src_dev`` to device ``dst_dev`` on ``stream`` (a stream of
    ``dst_dev``; default its current one): peer-to-peer when the two devices allow it, staged
    through host memory by the driver otherwise. Ordered by events both ways, never by a host
    wait: the copy waits for the work queued on ``src_stream`` (the source's stream), and that
    stream waits for the copy before it may reuse the source's memory."""
    if not nbytes:
        return
    if not _backend.IS_CUDA:            # the simulator has one device
        ctypes.memmove(dst_ptr, src_ptr, nbytes)
        return
    _runtime.enable_peer_access(dst_dev, src_dev)
    with _runtime.Device(src_dev):
        src_ready = _runtime.Event(disable_timing=True)
        drv.check(drv.cuEventRecord(src_ready.ptr, src_stream), "cuEventRecord")
    with _runtime.Device(dst_dev):
        s = _stream_handle(stream)
        drv.check(drv.cuStreamWaitEvent(s, src_ready.ptr, 0), "cuStreamWaitEvent")
        drv.check(drv.cuMemcpyPeerAsync(dst_ptr, _runtime.context_handle(dst_dev), src_ptr,
                                        _runtime.context_handle(src_dev), nbytes, s),
                  "cuMemcpyPeerAsync")
        copied = _runtime.Event(disable_timing=True)
        drv.check(drv.cuEventRecord(copied.ptr, s), "cuEventRecord")
    with _runtime.Device(src_dev):
        drv.check(drv.cuStreamWaitEvent(src_stream, copied.ptr, 0), "cuStreamWaitEvent")


def from_host(host, dtype=None, order="K", stream=None):
    """Copy a NumPy array (or anything ``np.asarray`` accepts) to a new device array."""
    if not isinstance(host, np.ndarray):
        host = np.asarray(host, dtype=dtype)
    elif dtype is not None and host.dtype != dtype:
        host = host.astype(dtype)
    if host.dtype.byteorder == ">":     # non-native byte order: device data is little-endian
        host = host.astype(host.dtype.newbyteorder("="))
    dt = check_dtype(host.dtype)
    if order in ("F", "A", "K") and host.flags.f_contiguous and not host.flags.c_contiguous:
        host_c = np.asfortranarray(host)
        out = empty_array(host.shape, dt, "F")
    else:
        if order == "F":
            host_c = np.asfortranarray(host)
            out = empty_array(host.shape, dt, "F")
        else:
            host_c = np.ascontiguousarray(host)
            out = empty_array(host.shape, dt, "C")
    _h2d(out._ptr, host_c, out.nbytes, stream)
    return out


def to_host(arr, stream=None, order="C", out=None, blocking=True):
    """``npgpu.asnumpy``: copy a device array to the host (other objects pass to ``np.asarray``)."""
    if not isinstance(arr, ndarray):
        return np.asarray(arr, order=order)
    if order == "A":
        order = "F" if arr._f_contig and not arr._c_contig else "C"
    if order == "K":
        order = "F" if arr._f_contig and not arr._c_contig else "C"
    src = arr
    contig = arr._c_contig if order == "C" else arr._f_contig
    if not contig:
        src = arr.copy(order=order)
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError("out must be a numpy.ndarray")
        if not out.flags.writeable:      # the copy engine would ignore NumPy's flag
            raise ValueError("output array is read-only")
        if out.shape != arr.shape or out.dtype != arr.dtype:
            raise ValueError(f"out has shape {out.shape} and dtype {out.dtype}, expected "
                             f"{arr.shape} and {arr.dtype}")
        ok = out.flags.c_contiguous if order == "C" else out.flags.f_contiguous
        if ok:
            _d2h(out, src._ptr, src.nbytes, stream)
            return out
        tmp = to_host(src, stream, order)
        np.copyto(out, tmp)
        return out
    host = np.empty(arr.shape, arr.dtype, order=order)
    _d2h(host, src._ptr, src.nbytes, stream)
    return host


# ---- CUDA Array Interface ----------------------------------------------------------------------
def cuda_array_interface(arr):
    """``ndarray.__cuda_array_interface__``: a fresh dict a read (a consumer may keep or change
    it), copied from one made once per array (``exchange_cache``); only ``stream`` is read anew."""
    c = _xcache(arr)
    d = c.cai
    if d is None:
        d = c.cai = {
            "shape": arr.shape,
            "typestr": arr.dtype.str,
            "descr": [("", arr.dtype.str)],
            "data": (arr._ptr if arr.size else 0, arr._ro >= READONLY),     # (pointer, read-only)
            "strides": None if arr._c_contig else arr._strides,
            "version": 3,
        }
    d = d.copy()
    d["descr"] = d["descr"][:]          # (the one mutable value a consumer could change)
    st = _runtime._tls.stream
    # CAI v3: 1 means the legacy default stream; 0 is not allowed
    d["stream"] = (st.ptr if st is not None else 0) or 1
    return d


# Libraries whose arrays are immutable: their memory is imported read-only (a write through an
# npgpu view would change a value they assume constant), whatever their export says.
_IMMUTABLE_PRODUCERS = ("jax", "jaxlib")


def immutable(obj):
    """Whether ``obj`` is an array of a library whose arrays never change (JAX)."""
    cls = obj.__class__
    ro = _immutable_types.get(cls)
    if ro is None:
        if len(_immutable_types) > 256:         # (classes made on the fly: keep it small)
            _immutable_types.clear()
        ro = _immutable_types[cls] = type(obj).__module__.partition(".")[0] in \
            _IMMUTABLE_PRODUCERS
    return ro


_immutable_types = {}   # producer class -> immutable(obj), asked on every import


def _cai_stream(s):
    """A CAI v3 ``stream`` entry as a driver handle (None: no synchronisation needed)."""
    if s is None:
        return None
    if isinstance(s, bool) or not isinstance(s, int):
        raise TypeError(f"__cuda_array_interface__ 'stream' must be None or an int, not {s!r}")
    if s == 0:
        raise ValueError("__cuda_array_interface__ 'stream' 0 is not allowed (CAI v3: 1 is the "
                         "legacy default stream, 2 the per-thread default stream)")
    return 0 if s == 1 else s


def foreign_extent(shape, strides, isz):
    """(lowest, highest + 1) byte offsets of a foreign view's elements from its data pointer, and
    its (C, F) contiguity where it is cheap to tell (1-D), else None."""
    if len(shape) == 1:
        n, st = shape[0], strides[0]
        if n == 0:
            return 0, 0, (True, True)
        contig = n == 1 or st == isz
        if st >= 0:
            return 0, st * (n - 1) + isz, (contig, contig)
        return st * (n - 1), isz, (contig, contig)
    if 0 in shape:
        return 0, 0, None
    lo = sum(st * (n - 1) for st, n in zip(strides, shape) if st < 0)
    hi = sum(st * (n - 1) for st, n in zip(strides, shape) if st > 0) + isz
    return lo, hi, None


_typestrs = {}          # CAI typestr -> checked NumPy dtype


def from_cuda_array_interface(obj, cai=None):
    """Wrap a foreign device array without copying; ``obj`` is kept alive by the result.
    ``cai``: its ``__cuda_array_interface__`` when the caller read it already (PyTorch's is a
    property that builds the dict on every read).

    A ``stream`` entry (CAI v3) orders the producer's pending work before ours: our current
    stream waits on an event recorded on the producer's stream (no synchronisation)."""
    if cai is None:
        cai = obj.__cuda_array_interface__
    shape = cai["shape"]
    if shape.__class__ is not tuple:
        shape = tuple(shape)
    ts = cai["typestr"]
    dt = _typestrs.get(ts)
    if dt is None:
        dt = _typestrs[ts] = check_dtype(np.dtype(ts))
    if cai.get("mask") is not None:
        raise TypeError("masked CUDA arrays are not supported")
    data = cai["data"]
    ptr, readonly = data[0] or 0, bool(data[1])    # (pointer, read-only)
    strides = cai.get("strides")
    if strides is None:
        strides = _layout.c_strides(shape, dt.itemsize)
        if ptr % dt.alignment:          # (C strides are multiples of the itemsize)
            _layout.check_aligned(ptr, shape, strides, dt, "this foreign device array")
    else:
        if strides.__class__ is not tuple:
            strides = tuple(strides)
        _layout.check_aligned(ptr, shape, strides, dt, "this foreign device array")
    s = cai.get("stream")
    if s is not None:
        producer = _cai_stream(s)
        if _backend.IS_CUDA:
            _runtime.stream_wait(_runtime.current_stream_handle(), producer)
    lo, hi, contig = foreign_extent(shape, strides, dt.itemsize)
    mem = _memory.Memory(ptr + lo, hi - lo, None, _runtime._tls.device, None, 0, obj)
    return _new(mem, ptr, shape, strides, dt, None, contig,
                READONLY_FOREIGN if readonly or immutable(obj) else WRITEABLE)
