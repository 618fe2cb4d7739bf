"""Devices, streams and events: the one notion of "current device" and "current stream".

On the real backend these wrap driver handles (ctypes); on the simulator they
keep the same API, run synchronously, and events read the host clock.
"""
import threading
import time

from .. import _backend

class _ThreadState(threading.local):
    """Per-thread current device and stream (class defaults: no getattr fallbacks on hot paths)."""
    device = 0
    stream = None
    ctx_dev = None


_tls = _ThreadState()
_initialized = set()     # device ids whose primary context is retained
_ctx = {}                # device id -> CUcontext handle
multi_device = [False]   # set once a second device is used: operations then check devices

if _backend.IS_CUDA:
    import ctypes
    from . import _driver as drv


def _device_count():
    if not _backend.IS_CUDA:
        return 1
    n = ctypes.c_int()
    drv.check(drv.cuDeviceGetCount(ctypes.byref(n)), "cuDeviceGetCount")
    return n.value


def ensure_context(device_id=None):
    """Make the primary context of ``device_id`` (default: current) current on this thread."""
    if device_id is None:
        device_id = get_device_id()
    if _tls.ctx_dev == device_id:
        return
    _backend.require()
    if _backend.IS_CUDA:
        if device_id not in _ctx:
            drv.check(drv.cuInit(0), "cuInit")
            if not 0 <= device_id < _device_count():
                raise ValueError(f"Invalid device ordinal {device_id}: "
                                 f"{_device_count()} device(s) present")
            dev = ctypes.c_int()
            drv.check(drv.cuDeviceGet(ctypes.byref(dev), device_id), "cuDeviceGet")
            ctx = ctypes.c_void_p()
            drv.check(drv.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
            _ctx[device_id] = ctx.value
            if len(_ctx) > 1:
                multi_device[0] = True
        drv.check(drv.cuCtxSetCurrent(_ctx[device_id]), "cuCtxSetCurrent")
    elif device_id != 0:
        raise ValueError(f"Invalid device ordinal {device_id}: the simulator has one device")
    _tls.ctx_dev = device_id


def get_device_id():
    return _tls.device


class Device:
    """A CUDA device; ``with Device(i):`` makes it current for this thread."""

    def __init__(self, device=None):
        if device is None:
            device = get_device_id()
        self.id = int(device)
        self._prev = []

    def __repr__(self):
        return f"<CUDA Device {self.id}>"

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("npgpu.Device", self.id))

    def __int__(self):
        return self.id

    def use(self):
        ensure_context(self.id)
        _tls.device = self.id

    def __enter__(self):
        prev = get_device_id()
        self.use()                  # may raise (bad ordinal): then nothing is pushed
        self._prev.append(prev)
        return self

    def __exit__(self, *exc):
        prev = self._prev.pop()
        _tls.device = prev
        ensure_context(prev)

    def synchronize(self):
        ensure_context(self.id)
        if _backend.IS_CUDA:
            drv.check(drv.cuCtxSynchronize(), "cuCtxSynchronize")

    def _attr(self, code):
        if not _backend.IS_CUDA:
            return 0
        v = ctypes.c_int()
        drv.check(drv.cuDeviceGetAttribute(ctypes.byref(v), code, self.id), "cuDeviceGetAttribute")
        return v.value

    @property
    def compute_capability(self):
        """Two digits as a string, e.g. ``'90'`` (the simulator reports ``'90'``)."""
        if not _backend.IS_CUDA:
            return "90"
        return "%d%d" % (self._attr(drv.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                         self._attr(drv.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR))

    @property
    def multiprocessor_count(self):
        if not _backend.IS_CUDA:
            return 1
        return self._attr(drv.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)

    @property
    def name(self):
        if not _backend.IS_CUDA:
            return "Numba CUDA simulator"
        buf = ctypes.create_string_buffer(256)
        drv.check(drv.cuDeviceGetName(buf, 256, self.id), "cuDeviceGetName")
        return buf.value.decode()

    @property
    def mem_info(self):
        """(free, total) bytes of device memory."""
        if not _backend.IS_CUDA:
            return (0, 0)
        ensure_context(self.id)
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        drv.check(drv.cuMemGetInfo(ctypes.byref(free), ctypes.byref(total)), "cuMemGetInfo")
        return free.value, total.value

    @property
    def attributes(self):
        return {"MultiProcessorCount": self.multiprocessor_count,
                "ComputeCapability": self.compute_capability, "Name": self.name}


def get_device_count():
    _backend.require()
    return _device_count()


class Stream:
    """A CUDA stream. ``with stream:`` makes it current; ``Stream.null`` is the legacy default."""

    null = None  # set below

    def __init__(self, non_blocking=False, *, _handle=None):
        self._prev = []
        self.device_id = get_device_id()
        if _handle is not None or not _backend.IS_CUDA:
            self.ptr = _handle or 0
            self._owned = False
            self._vp = ctypes.c_void_p(self.ptr) if (self.ptr and _backend.IS_CUDA) else None
            return
        ensure_context()
        h = ctypes.c_void_p()
        flags = drv.CU_STREAM_NON_BLOCKING if non_blocking else 0
        drv.check(drv.cuStreamCreate(ctypes.byref(h), flags), "cuStreamCreate")
        self.ptr = h.value or 0
        self._owned = True
        self._vp = ctypes.c_void_p(self.ptr) if self.ptr else None   # for the launcher
        from . import memory
        memory.stream_created(self.ptr)

    def __del__(self):
        if getattr(self, "_owned", False) and _backend.IS_CUDA and drv is not None:
            try:
                from . import memory
                memory.stream_destroyed(self.ptr)
            except Exception:           # interpreter shutdown: modules may be gone
                pass
            drv.cuStreamDestroy(self.ptr)

    def __repr__(self):
        return f"<npgpu.cuda.Stream {self.ptr:#x}>"

    def __eq__(self, other):
        return isinstance(other, Stream) and other.ptr == self.ptr

    def __hash__(self):
        return hash(self.ptr)

    def __enter__(self):
        self._prev.append(get_current_stream())
        _tls.stream = self
        return self

    def __exit__(self, *exc):
        _tls.stream = self._prev.pop()

    def use(self):
        _tls.stream = self
        return self

    def synchronize(self):
        if _backend.IS_CUDA:
            ensure_context()
            drv.check(drv.cuStreamSynchronize(self.ptr), "cuStreamSynchronize")

    def record(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def wait_event(self, event):
        if _backend.IS_CUDA:
            drv.check(drv.cuStreamWaitEvent(self.ptr, event.ptr, 0), "cuStreamWaitEvent")

    @property
    def done(self):
        if not _backend.IS_CUDA:
            return True
        return drv.cuStreamQuery(self.ptr) == 0

    # CUDA Array Interface consumers ask for an integer stream handle
    def __int__(self):
        return self.ptr


Stream.null = Stream(_handle=0)


def get_current_stream():
    s = _tls.stream
    return s if s is not None else Stream.null


def current_stream_handle():
    """The raw handle of the current stream (hot path)."""
    s = _tls.stream
    return s.ptr if s is not None else 0


class Event:
    """A CUDA event; on the simulator it stores the host clock at ``record``."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self._t = None
        self.ptr = 0
        if _backend.IS_CUDA:
            ensure_context()
            h = ctypes.c_void_p()
            flags = drv.CU_EVENT_DISABLE_TIMING if disable_timing else drv.CU_EVENT_DEFAULT
            drv.check(drv.cuEventCreate(ctypes.byref(h), flags), "cuEventCreate")
            self.ptr = h.value

    def __del__(self):
        if self.ptr and _backend.IS_CUDA and drv is not None:
            drv.cuEventDestroy(self.ptr)

    def record(self, stream=None):
        stream = stream if stream is not None else get_current_stream()
        if _backend.IS_CUDA:
            drv.check(drv.cuEventRecord(self.ptr, stream.ptr), "cuEventRecord")
        else:
            self._t = time.perf_counter()
        return self

    def synchronize(self):
        if _backend.IS_CUDA:
            drv.check(drv.cuEventSynchronize(self.ptr), "cuEventSynchronize")

    @property
    def done(self):
        if not _backend.IS_CUDA:
            return True
        return drv.cuEventQuery(self.ptr) == 0


def get_elapsed_time(start, end):
    """Milliseconds between two recorded events (waits for ``end``)."""
    if not _backend.IS_CUDA:
        return (end._t - start._t) * 1e3
    end.synchronize()
    ms = ctypes.c_float()
    drv.check(drv.cuEventElapsedTime(ctypes.byref(ms), start.ptr, end.ptr), "cuEventElapsedTime")
    return ms.value
