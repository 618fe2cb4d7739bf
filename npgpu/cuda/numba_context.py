"""A fast path for the context check Numba makes around each top-level ``numba.cuda`` call.

Numba wraps ``cuda.device_array``, ``to_device`` and its other top-level calls in
``_Runtime.ensure_context()``: a generator context manager that asks the driver for the current
context and device through Numba's logged wrappers, takes a lock, looks the device's primary
context up and compares handles, then attaches that context to the thread for the call.  On the
H200 that is 8.5 us of a pooled ``device_array``'s 15 (``benchmarks/experiments/
numba_alloc_parts.py``), while npgpu's allocation is 2.

:class:`ContextCheck` gives the same answer from one ``cuCtxGetCurrent`` (ctypes): a context
handle that Numba's own check has already accepted (its primary context of a device, made
ready) is attached directly; anything else (no current context, a handle seen for the first
time, a primary context Numba has since reset) goes through Numba's check unchanged, which
also raises Numba's errors.  :func:`install` puts it in place of Numba's method;
``use_npgpu_allocator_in_numba()`` calls it (``NPGPU_NUMBA_CONTEXT_CHECK=0``: not).
"""
import ctypes
import threading

__all__ = ["ContextCheck", "install"]


def _driver_current():
    """The calling thread's current context handle (0: none), one ctypes call."""
    from . import _driver as drv
    get = drv.cuCtxGetCurrent

    class Slot(threading.local):
        def __init__(self):
            self.h = ctypes.c_void_p()
            self.ref = ctypes.byref(self.h)     # made once a thread (~0.1 us a call)
    tls = Slot()

    def current():
        t = tls
        if get(t.ref):
            return 0                    # an error: Numba's own check reports it
        return t.h.value or 0
    return current


def _value(handle):
    """A context handle as an int (``cuda.bindings``' ``CUcontext`` or a ctypes pointer)."""
    try:
        return int(handle)
    except TypeError:
        return handle.value or 0


class ContextCheck:
    """Stands in for ``numba.cuda.cudadrv.devices._runtime.ensure_context`` (module docstring).

    ``runtime``: Numba's ``_Runtime``; ``slow``: its own ``ensure_context`` (bound);
    ``current``: the thread's current context handle (an int, 0 for none)."""

    def __init__(self, runtime, slow, current):
        self.runtime, self.slow, self.current = runtime, slow, current
        self.known = {}     # context handle -> the Numba Context its check attached for it

    def __call__(self):
        return _Scope(self)


class _Scope:
    """One ``with ensure_context():``: the known context attached, the thread's previous one
    restored at the end (as Numba's method does), or Numba's method itself."""
    __slots__ = ("check", "old", "numba")

    def __init__(self, check):
        self.check = check

    def __enter__(self):
        c = self.check
        h = c.current()
        ctx = c.known.get(h) if h else None
        # a reset primary context is replaced by a new object: the old one is not attached
        if ctx is None or ctx.device.primary_context is not ctx:
            self.numba = cm = c.slow()
            cm.__enter__()
            got = c.runtime._get_attached_context()
            if h and got is not None and _value(got.handle) == h:
                c.known[h] = got
            return None
        self.numba = None
        tls = c.runtime._tls
        self.old = getattr(tls, "attached_context", None)
        tls.attached_context = ctx
        return None

    def __exit__(self, *exc):
        if self.numba is not None:
            return self.numba.__exit__(*exc)
        self.check.runtime._tls.attached_context = self.old
        return False


def install():
    """Put :class:`ContextCheck` in place of Numba's ``ensure_context`` (once); returns it."""
    from numba.cuda.cudadrv import devices
    rt = devices._runtime
    check = rt.__dict__.get("ensure_context")
    if not isinstance(check, ContextCheck):
        check = rt.ensure_context = ContextCheck(rt, rt.ensure_context, _driver_current())
    return check
