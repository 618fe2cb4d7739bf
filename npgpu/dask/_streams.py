"""Ordering between the thread that calls ``compute()`` and Dask's local worker threads.

Dask's threaded scheduler runs the tasks on pool threads, whose current npgpu stream is their
own default (the legacy default stream), not the caller's.  A caller inside ``with
npgpu.cuda.Stream(non_blocking=True):`` would then read results the workers' kernels are still
writing (a non-blocking stream is not ordered with the legacy one), and the workers could read
chunks the caller's stream has not finished.  This callback, run by Dask in the caller's thread
at the start and the end of every local compute, orders the two both ways with an event each
(``runtime.stream_wait``; nothing for the legacy stream or a blocking stream, which the driver
orders itself).  The distributed scheduler's workers are other processes: results reach the
caller through serialisation, which reads them in order.
"""
import threading

from dask.callbacks import Callback

from ..cuda import runtime


class CallerStreamOrder(Callback):
    """Registered once by :func:`npgpu.dask._dispatch.register_dispatch`."""

    def __init__(self):
        super().__init__()
        self._callers = threading.local()     # per calling thread: a stack (nested computes)

    def _start(self, dsk):
        s = runtime.current_stream_handle()
        stack = self._callers.__dict__.setdefault("stack", [])
        stack.append(s)
        if s:
            runtime.stream_wait(0, s)         # the workers' work after the caller's so far

    def _finish(self, dsk, state, errored):
        stack = self._callers.__dict__.get("stack")
        s = stack.pop() if stack else 0
        if s:
            runtime.stream_wait(s, 0)         # the caller's later work after the workers'
