"""A page-locked word through which a kernel answers the host before it has finished.

A call that must raise on bad input checked on the device (take's ``mode='raise'``) used to
read the bounds record back after the whole kernel: the read waits for the kernel's last
block.  Where the check is complete early in the kernel (the indexed take maps every index in
each block's first phase), a block writes the record's value into this mapped host word as
soon as it knows it, and the host waits only that long; the kernel runs on.

Protocol: :meth:`Signal.arm` writes :data:`PENDING` (no record value is negative); the launch
that will write the word sets ``armed``; :meth:`Signal.wait` spins on the word, and falls back
to None (the caller reads the record itself) if the stream goes idle without it.
"""
from .. import _backend
from ..cuda import runtime as _runtime
from ..cuda.memory import PinnedMemory

PENDING = -1
_SPINS = 256        # word reads between stream queries (a failed kernel never writes the word)


class Signal:
    __slots__ = ("mem", "buf", "ptr", "armed")

    def __init__(self):
        self.mem = PinnedMemory(8, mapped=True)
        self.buf = self.mem.as_numpy((1,), "int64")
        self.ptr = self.mem.device_ptr
        self.armed = False

    def arm(self):
        """Before the launch: the word pending, no launch committed to write it yet."""
        self.buf[0] = PENDING
        self.armed = False
        return self

    def wait(self):
        """The value the armed launch wrote, or None where the stream went idle without it
        (the caller then reads the record)."""
        buf = self.buf
        spins = 0
        while True:
            v = int(buf[0])
            if v != PENDING:
                return v
            spins += 1
            if spins % _SPINS == 0 and _stream_idle():
                v = int(buf[0])
                return None if v == PENDING else v


def _stream_idle():
    if not _backend.IS_CUDA:
        return True
    from ..cuda import _driver as drv
    return drv.cuStreamQuery(_runtime.current_stream_handle()) != 600    # NOT_READY
