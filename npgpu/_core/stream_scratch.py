"""Device buffers kept per (device, stream), zeroed when made, for kernels that coordinate their
blocks through global memory: the decoupled look-back scan's status words (tagged by epoch, so
never re-zeroed between calls) and the split reductions' arrival counters (each kernel sets the
counters it used back to zero).  Calls on one stream run in order, so one buffer serves all of
them; another stream has its own.

Threads: the lock gives each call its own entry update; a caller keeps the returned Memory
referenced until its launch has returned, so another thread growing the buffer frees the old
one after that launch, in stream order.
"""
import threading

from ..cuda import memory as _memory
from ..cuda import runtime as _runtime
from .transfer import zero as _zero


class StreamScratch:
    """``take(n, unit)``: a zeroed-when-made buffer of at least ``n`` units of ``unit`` bytes
    for the current stream.  ``buffers`` maps (device, stream handle) to [Memory, capacity in
    units, calls served]."""

    def __init__(self):
        self.buffers = {}
        self._lock = threading.Lock()
        _memory.on_stream_destroyed(self._forget)

    def take(self, n, unit, renew=None):
        """(Memory, calls served counting this one); ``renew(entry)`` True makes the buffer
        afresh (zeroed) as when it is first made or too small."""
        key = (_runtime._tls.device, _runtime.current_stream_handle())
        with self._lock:
            e = self.buffers.get(key)
            if e is None or e[1] < n or (renew is not None and renew(e)):
                cap = n if e is None else max(n, e[1])
                mem = _memory.alloc(unit * cap)     # an old buffer is freed in stream order
                _zero(mem.ptr, unit * cap)
                e = self.buffers[key] = [mem, cap, 0]
            e[2] += 1
            return e[0], e[2]

    def discard(self):
        """Drop the current stream's buffer: the next ``take`` makes a zeroed one.  For a
        launch that raised part way (the simulator runs kernels in Python) and may have left
        the buffer as the kernels that use it do not expect."""
        key = (_runtime._tls.device, _runtime.current_stream_handle())
        with self._lock:
            self.buffers.pop(key, None)

    def _forget(self, handle):
        """A destroyed stream's buffers go (the driver may hand its handle to a new stream)."""
        with self._lock:
            for key in [k for k in self.buffers if k[1] == handle]:
                del self.buffers[key]
