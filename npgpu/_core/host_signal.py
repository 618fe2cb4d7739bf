"""A page-locked pair of words through which a kernel answers the host before it has finished.

A call that must raise on bad input checked on the device (take's ``mode='raise'``) used to
read the bounds record back after the whole kernel: the read waits for the kernel's last
block.  Where the check is complete early in the kernel (the indexed take maps every index in
each block's first phase), a block writes the record's value into this mapped host memory as
soon as it knows it, and the host waits only that long; the kernel runs on.

Protocol: word 1 the value, then (after a system fence) word 0 the launch's token.
:meth:`Signal.arm` draws a new token, which the launch takes as a scalar (a replay refills it);
the launch that will write the words sets ``armed``; :meth:`Signal.wait` waits for its own
token, so a write of an earlier launch whose wait was cut short (an interrupt) is never taken
for this one's.  A wait that goes on past a short spin synchronizes the stream instead (the
GIL released), and one whose stream went idle without the token returns None: the caller reads
the record itself (a failed kernel never writes the words).
"""
import threading

import numpy as np

from .. import _backend
from ..cuda import runtime as _runtime
from ..cuda.memory import PinnedMemory, pinned_empty
from . import transfer as _transfer

_SPINS = 2000       # word reads before the wait synchronizes the stream (~0.1-0.2 ms)


class Signal:
    __slots__ = ("mem", "buf", "ptr", "armed", "token")

    def __init__(self):
        self.mem = PinnedMemory(16, mapped=True)
        self.buf = self.mem.as_numpy((2,), "int64")
        self.buf[0] = 0
        self.ptr = self.mem.device_ptr
        self.armed = False
        self.token = 0

    def arm(self):
        """Before the launch: a new token, no launch committed to write it yet."""
        self.token += 1
        self.armed = False
        return self

    def wait(self):
        """The value the armed launch wrote, or None where its stream went idle without it
        (the caller then reads the record)."""
        buf, token = self.buf, self.token
        for _ in range(_SPINS):
            if buf[0] == token:
                return int(buf[1])          # (x86 keeps the two reads in order)
        _synchronize()
        return int(buf[1]) if buf[0] == token else None


def _synchronize():
    """Wait for the current stream (errors are left to the caller's record read)."""
    if _backend.IS_CUDA:
        from ..cuda import _driver as drv
        drv.cuStreamSynchronize(_runtime.current_stream_handle())


# --- per-stream signals; a device word read back ---------------------------------------------
class _Signals(threading.local):
    def __init__(self):
        self.by_stream = {}     # (device, stream) -> Signal


_signals = _Signals()


def stream_signal(key=None):
    """This thread's host signal for ``key`` = (device, stream) (default: the current ones),
    armed with a new token."""
    if key is None:
        key = (_runtime.get_device_id(), _runtime.current_stream_handle())
    sig = _signals.by_stream.get(key)
    if sig is None:
        sig = _signals.by_stream[key] = Signal()
    return sig.arm()


# A device word the host must know (a bounds record, a count): copied into this thread's
# page-locked word, then the stream synchronized.  Measured against a one-thread launch writing
# the word into the stream's mapped signal (H200 2026-12-03, benchmarks/results/
# 2026-12-03-h200-gather-relay-device-array-per-call-turns.md): the relay took 9.8 us of GPU
# time (two system-scope fences), a 16-element gather 32.3 us a call against 19.8, a mask
# select of 2^26 491 against 388 us, and the 2^26 gather within the run-to-run spread.
class _Word(threading.local):
    def __init__(self):
        self.buf = None


_word = _Word()


def read_word(ptr):
    """The int64 at device address ``ptr`` once the work queued on the current stream has
    written it (one 8-byte copy into this thread's page-locked word)."""
    buf = _word.buf
    if buf is None:
        buf = _word.buf = pinned_empty(1, np.int64)
    _transfer._d2h(buf, ptr, 8)
    return int(buf[0])
