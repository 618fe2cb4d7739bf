"""Devices, streams and events: the one notion of "current device" and "current stream".

On the real backend these wrap driver handles (ctypes); on the simulator they
keep the same API, run synchronously, and events read the host clock.
"""
import threading
import time

from .. import _backend

class _ThreadState(threading.local):
    """What is per thread: the current device and stream, the device whose context is current
    on this thread (``ctx_dev``, None until npgpu first needs one here), the current device's
    pool (``pool``, None until this thread's first allocation on that device: the slow path
    makes the context current) and the launcher's packing buffers (``launch``, None until this
    thread's first launch: the slow path makes the context current).  Class defaults: no
    getattr fallbacks on hot paths."""
    device = 0
    stream = None
    ctx_dev = None
    pool = None
    launch = None

    def __init__(self):
        # ``with`` blocks nest per thread: one Stream/Device object (Stream.null) may be entered
        # by several threads at once, so what __exit__ restores is kept here, not on the object
        self.stream_stack = []
        self.device_stack = []


_tls = _ThreadState()
_ctx = {}                # device id -> CUcontext handle (primary contexts, shared by all threads)
_ctx_lock = threading.Lock()     # one cuDevicePrimaryCtxRetain per device
multi_device = [False]   # set once a second device is used: operations then check devices
# (created, destroyed) callbacks of a stream handle: the memory pool (a layer above) sets them
# at import, so that caches keyed by stream drop a dead stream's blocks before cuStreamDestroy
_stream_hooks = [lambda handle: None, lambda handle: None]


def set_stream_hooks(created, destroyed):
    _stream_hooks[:] = [created, destroyed]

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
        ctx = _ctx.get(device_id)
        if ctx is None:
            ctx = _retain(device_id)
        # the driver's current context is per thread: every thread that uses npgpu comes here
        # once (launcher, pool and runtime objects call this on their slow paths)
        drv.check(drv.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    elif device_id != 0:
        raise ValueError(f"Invalid device ordinal {device_id}: the simulator has one device")
    _tls.ctx_dev = device_id


def _retain(device_id):
    with _ctx_lock:
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
        return _ctx[device_id]


def in_context(device_id, fn, *args):
    """``fn(*args)`` with ``device_id``'s context current, then this thread's own again.

    For driver calls on an object of a given device (a stream, an event) from any thread, and
    for finalizers: the garbage collector runs them on whichever thread drops the last
    reference, which may have no context yet, or another device's."""
    prev = _tls.ctx_dev
    ensure_context(device_id)
    try:
        return fn(*args)
    finally:
        if prev is not None and prev != device_id:
            ensure_context(prev)


def _check(fn, what, *args):
    drv.check(fn(*args), what)


def get_device_id():
    return _tls.device


class Device:
    """A CUDA device; ``with Device(i):`` makes it current for this thread."""

    def __init__(self, device=None):
        if device is None:
            device = get_device_id()
        self.id = int(device)

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
        t = _tls
        if t.device != self.id:
            t.device = self.id
            t.pool = None               # the next allocation finds this device's pool
            s = t.stream
            if s is not None and s.ptr and s.device_id != self.id:
                t.stream = None         # another device's stream: this device's default stream

    def __enter__(self):
        t = _tls
        prev = (t.device, t.stream)
        self.use()                  # may raise (bad ordinal): then nothing is pushed
        t.device_stack.append(prev)
        return self

    def __exit__(self, *exc):
        t = _tls
        prev, stream = t.device_stack.pop()
        if t.device != prev:
            t.device = prev
            t.pool = None
        t.stream = stream
        ensure_context(prev)

    def synchronize(self):
        if _backend.IS_CUDA:
            in_context(self.id, _check, drv.cuCtxSynchronize, "cuCtxSynchronize")
        else:
            ensure_context(self.id)

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
        """Streaming multiprocessors (a driver query; :func:`sm_count` remembers it)."""
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
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        in_context(self.id, _check, drv.cuMemGetInfo, "cuMemGetInfo", ctypes.byref(free),
                   ctypes.byref(total))
        return free.value, total.value

    @property
    def attributes(self):
        return {"MultiProcessorCount": self.multiprocessor_count,
                "ComputeCapability": self.compute_capability, "Name": self.name}


_peer = {}              # (device, peer) -> whether device's context reaches peer's memory directly
_peer_lock = threading.Lock()


def enable_peer_access(device_id, peer_id):
    """Let ``device_id``'s context read and write ``peer_id``'s memory directly (NVLink or PCIe
    peer-to-peer) when the hardware allows; once per pair. Returns whether it does: without
    peer access, copies between the two are staged through host memory by the driver."""
    key = (device_id, peer_id)
    ok = _peer.get(key)
    if ok is None:
        with _peer_lock:
            ok = _peer.get(key)
            if ok is None:
                ok = False
                if _backend.IS_CUDA and device_id != peer_id:
                    can = ctypes.c_int(0)
                    drv.check(drv.cuDeviceCanAccessPeer(ctypes.byref(can), device_id, peer_id),
                              "cuDeviceCanAccessPeer")
                    if can.value:
                        rc = in_context(device_id, drv.cuCtxEnablePeerAccess,
                                        context_handle(peer_id), 0)
                        # refused (e.g. too many peers): copies are staged instead, still correct
                        ok = rc in (0, drv.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
                _peer[key] = ok
    return ok


def context_handle(device_id):
    """The primary context of ``device_id`` (retained on first use)."""
    ctx = _ctx.get(device_id)
    return ctx if ctx is not None else _retain(device_id)


def get_device_count():
    _backend.require()
    return _device_count()


class Stream:
    """A CUDA stream. ``with stream:`` makes it current; ``Stream.null`` is the legacy default."""

    null = None  # set below

    def __init__(self, non_blocking=False, *, _handle=None):
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
        _blocking_streams[self.ptr] = not non_blocking                # for stream_wait
        _stream_hooks[0](self.ptr)

    def __del__(self):
        if getattr(self, "_owned", False) and _backend.IS_CUDA and drv is not None:
            try:
                in_context(self.device_id, self._destroy)
            except Exception:           # interpreter shutdown: modules may be gone
                pass

    def _destroy(self):
        _blocking_streams.pop(self.ptr, None)
        try:
            _stream_hooks[1](self.ptr)
        finally:
            drv.cuStreamDestroy(self.ptr)

    def __repr__(self):
        return f"<npgpu.cuda.Stream {self.ptr:#x}>"

    def __eq__(self, other):
        return isinstance(other, Stream) and other.ptr == self.ptr

    def __hash__(self):
        return hash(self.ptr)

    def __enter__(self):
        t = _tls
        t.stream_stack.append(t.stream)
        t.stream = self
        return self

    def __exit__(self, *exc):
        t = _tls
        t.stream = t.stream_stack.pop()

    def use(self):
        _tls.stream = self
        return self

    def _device(self):
        # the legacy default stream (handle 0) is the current context's
        return self.device_id if self.ptr else get_device_id()

    def synchronize(self):
        if _backend.IS_CUDA:
            in_context(self._device(), _check, drv.cuStreamSynchronize, "cuStreamSynchronize",
                       self.ptr)

    def record(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def wait_event(self, event):
        if _backend.IS_CUDA:
            in_context(self._device(), _check, drv.cuStreamWaitEvent, "cuStreamWaitEvent",
                       self.ptr, event.ptr, 0)

    @property
    def done(self):
        if not _backend.IS_CUDA:
            return True
        return in_context(self._device(), drv.cuStreamQuery, self.ptr) == 0

    # CUDA Array Interface consumers ask for an integer stream handle
    def __int__(self):
        return self.ptr


Stream.null = Stream(_handle=0)


_SMS = {}          # device id -> multiprocessors


def sm_count(device=None):
    """Multiprocessors of ``device`` (default: the current one), asked once per device: the
    launch planners' resident grids."""
    dev = _tls.device if device is None else device
    n = _SMS.get(dev)
    if n is None:
        n = _SMS[dev] = Device(dev).multiprocessor_count
    return n


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
        self.device_id = get_device_id()
        if _backend.IS_CUDA:
            ensure_context()
            h = ctypes.c_void_p()
            flags = drv.CU_EVENT_DISABLE_TIMING if disable_timing else drv.CU_EVENT_DEFAULT
            drv.check(drv.cuEventCreate(ctypes.byref(h), flags), "cuEventCreate")
            self.ptr = h.value

    def __del__(self):
        try:                            # at interpreter shutdown the module globals are None
            if self.ptr and _backend.IS_CUDA and drv is not None:
                in_context(self.device_id, drv.cuEventDestroy, self.ptr)
        except Exception:
            pass

    def record(self, stream=None):
        stream = stream if stream is not None else get_current_stream()
        if _backend.IS_CUDA:
            in_context(self.device_id, _check, drv.cuEventRecord, "cuEventRecord", self.ptr,
                       stream.ptr)
        else:
            self._t = time.perf_counter()
        return self

    def synchronize(self):
        if _backend.IS_CUDA:
            in_context(self.device_id, _check, drv.cuEventSynchronize, "cuEventSynchronize",
                       self.ptr)

    @property
    def done(self):
        if not _backend.IS_CUDA:
            return True
        return in_context(self.device_id, drv.cuEventQuery, self.ptr) == 0


def get_elapsed_time(start, end):
    """Milliseconds between two recorded events (waits for ``end``)."""
    if not _backend.IS_CUDA:
        return (end._t - start._t) * 1e3
    end.synchronize()
    ms = ctypes.c_float()
    in_context(end.device_id, _check, drv.cuEventElapsedTime, "cuEventElapsedTime",
               ctypes.byref(ms), start.ptr, end.ptr)
    return ms.value


# ---- ordering two streams (DLPack / CUDA Array Interface exchange) -----------------------------
_order_events = threading.local()      # per thread: device id -> the Event stream_wait records
# handle -> whether the stream synchronises with the legacy default stream (created without
# CU_STREAM_NON_BLOCKING), for the streams npgpu created; 2, the per-thread default, always does
_blocking_streams = {2: True}


def stream_wait(waiter, signaller):
    """Order the work later queued on stream handle ``waiter`` after the work queued so far on
    ``signaller`` (raw handles of the current device; 0 legacy, 2 per-thread default): an event
    recorded on one and waited on by the other, never a host or device-wide synchronisation.
    Nothing is needed for equal handles, nor between the legacy default stream and a blocking
    stream (the driver orders those two itself: work on the legacy stream waits for the
    blocking streams' earlier work, and theirs for its); a stream npgpu did not create counts as
    non-blocking.  One event per thread and device is reused: a wait captures the event's state
    when it is queued, and later records do not change it (per thread, so another thread's
    record cannot come between this record and its wait)."""
    if waiter == signaller or not _backend.IS_CUDA:
        return
    if (waiter == 0 and _blocking_streams.get(signaller)) or \
            (signaller == 0 and _blocking_streams.get(waiter)):
        return
    did = _tls.device
    if _tls.ctx_dev != did:
        ensure_context(did)
    events = getattr(_order_events, "by_device", None)
    if events is None:
        events = _order_events.by_device = {}
    ev = events.get(did)
    if ev is None:
        ev = events[did] = Event(disable_timing=True)
    drv.check(drv.cuEventRecord(ev.ptr, signaller), "cuEventRecord")
    drv.check(drv.cuStreamWaitEvent(waiter, ev.ptr, 0), "cuStreamWaitEvent")
