"""cuFFT through ``nvmath.bindings.cufft``: plans, and one transform over consecutive dimensions.

Every call follows one order (as CuPy's library calls do): build the plan key from the
arrays' layout, look the plan up in :mod:`.plan_cache` (a miss: ``cufftCreate``,
``cufftSetAutoAllocation(0)``, ``cufftMakePlanMany64`` -> work size), then under the plan's
lock ``cufftSetStream`` (only when the stream changed), a work area from npgpu's pool
(``cufftSetWorkArea`` only when its address changed) and ``cufftExec*`` once per loop.
On the simulator :func:`cufft_module` returns the stand-in of :mod:`._sim.cufft`, which takes
the same calls.

:func:`transform` maps dimensions ``p .. q-1`` (at most 3) of C-contiguous arrays to cuFFT's
advanced layout: with ``outer`` elements before them and ``inner`` after,

* ``inner == 1``: unit stride, one batch of ``outer`` transforms, one execution;
* otherwise stride ``inner``: either a batch of ``inner`` interleaved transforms executed
  ``outer`` times, or a batch of ``outer`` executed ``inner`` times (the fewer executions).

The strided forms are for C2C only: cuFFT fails R2C / C2R executions of strided layouts
(``CUFFT_INVALID_VALUE`` on the H200), so the callers give real transforms ``inner == 1``.
"""
import threading

import numpy as np

from .. import _backend
from ..cuda import memory as _memory
from ..cuda import runtime as _rt
from . import plan_cache

FORWARD = -1          # CUFFT_FORWARD
INVERSE = 1           # CUFFT_INVERSE

# (kind, dtype char of the complex side) -> (cufftType name, exec entry point, C function)
_TYPES = {
    ("c2c", "F"): ("C2C", "exec_c2c", "cufftExecC2C"),
    ("c2c", "D"): ("Z2Z", "exec_z2z", "cufftExecZ2Z"),
    ("r2c", "F"): ("R2C", "exec_r2c", "cufftExecR2C"),
    ("r2c", "D"): ("D2Z", "exec_d2z", "cufftExecD2Z"),
    ("c2r", "F"): ("C2R", "exec_c2r", "cufftExecC2R"),
    ("c2r", "D"): ("Z2D", "exec_z2d", "cufftExecZ2D"),
}
_TYPE_NAMES = {}       # cufftType value -> name, filled on first use


class CuFFTError(RuntimeError):
    """A cuFFT call failed: the message names the call, the transform and its layout;
    ``status`` is the cufftResult name."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


_module = []           # the bindings, once imported
_TYPE_VALUES = {}      # cufftType name -> value


def cufft_module():
    """nvmath's ``cufft`` bindings; the DFT stand-in on the simulator."""
    if _module:
        return _module[0]
    if _backend.IS_SIM:
        from ._sim.cufft import CUFFT as cf
    else:
        from nvmath.bindings import cufft as cf
    _TYPE_VALUES.update({t.name: int(t) for t in cf.Type})
    _TYPE_NAMES.update({int(t): t.name for t in cf.Type})
    _module.append(cf)
    return cf


def _describe(key):
    dev, t, n, inembed, istride, idist, onembed, ostride, odist, batch = key
    cufft_module()
    return (f"{_TYPE_NAMES.get(t, t)} transform of shape {list(n)}, batch {batch} (input "
            f"embed {list(inembed)} stride {istride} dist {idist}, output embed "
            f"{list(onembed)} stride {ostride} dist {odist}) on device {dev}")


def _error(call, key, err):
    status = str(err)
    return CuFFTError(f"{call} failed with {status} for a {_describe(key)}", status)


class Plan:
    """A cuFFT plan handle, its work size and the state of its last execution.

    ``lock`` serialises executions (setting the stream and work area, then enqueueing);
    ``stream`` / ``work_ptr`` are what the handle was last given."""

    __slots__ = ("key", "handle", "work_size", "device", "lock", "stream", "work_ptr")

    def __init__(self, key, handle, work_size):
        self.key = key
        self.handle = handle
        self.work_size = int(work_size)
        self.device = key[0]
        self.lock = threading.Lock()
        self.stream = None
        self.work_ptr = 0

    def destroy(self):
        """``cufftDestroy`` (in the plan's device context), once no one is executing it."""
        with self.lock:
            h, self.handle = self.handle, None
        if h is not None:
            _rt.in_context(self.device, cufft_module().destroy, h)

    def __repr__(self):
        state = "destroyed" if self.handle is None else f"work {self.work_size} B"
        return f"<cuFFT plan: {_describe(self.key)}, {state}>"


def make_plan(key):
    """A new :class:`Plan` for ``key`` (:func:`transform` builds keys)."""
    dev, t, n, inembed, istride, idist, onembed, ostride, odist, batch = key
    cf = cufft_module()
    _rt.ensure_context(dev)
    try:
        h = cf.create()
    except cf.cuFFTError as e:
        raise _error("cufftCreate", key, e) from None
    try:
        cf.set_auto_allocation(h, 0)          # work areas come from npgpu's pool
        ws = cf.make_plan_many64(h, len(n), n, inembed, istride, idist, onembed, ostride, odist,
                                 t, batch)
    except cf.cuFFTError as e:
        cf.destroy(h)
        raise _error("cufftMakePlanMany64", key, e) from None
    return Plan(key, h, ws)


def _execute(plan, entry, call, calls, direction):
    """Run ``calls`` ((input pointer, output pointer) pairs) on ``plan``: its lock is held."""
    cf = _module[0]
    h = plan.handle
    s = _rt._tls.stream
    s = s.ptr if s is not None else 0
    try:
        if plan.stream != s:
            cf.set_stream(h, s)
            plan.stream = s
        work = None
        if plan.work_size:
            work = _memory.alloc(plan.work_size)      # back to the pool after the enqueue
            if work.ptr != plan.work_ptr:
                cf.set_work_area(h, work.ptr)
                plan.work_ptr = work.ptr
        fn = getattr(cf, entry)
        if direction is None:
            for i, o in calls:
                fn(h, i, o)
        else:
            for i, o in calls:
                fn(h, i, o, direction)
    except cf.cuFFTError as e:
        plan.stream = None
        raise _error(call, plan.key, e) from None


def _prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


class Layout:
    """What one group's transform needs besides the arrays' addresses: the plan key, the entry
    point, and the (input, output) byte offsets of each execution.  A call that repeats a
    layout (the fast path of :mod:`._transforms`) reuses it."""

    __slots__ = ("key", "entry", "call", "offsets", "direction")

    def __init__(self, key, entry, call, offsets, direction):
        self.key, self.entry, self.call = key, entry, call
        self.offsets, self.direction = offsets, direction

    def run(self, iptr, optr):
        """Execute on the arrays at ``iptr`` / ``optr`` (on the current stream)."""
        calls = [(iptr + i, optr + o) for i, o in self.offsets]
        plan_cache.get_plan_cache().run(
            self.key, make_plan,
            lambda plan: _execute(plan, self.entry, self.call, calls, self.direction))


def layout(kind, src, dst, p, q, n, direction=None):
    """The :class:`Layout` of cuFFT over dimensions ``p .. q-1`` (1 to 3 of them) of
    C-contiguous ``src`` into C-contiguous ``dst`` (see :func:`transform`)."""
    cplx = dst.dtype if kind != "c2r" else src.dtype
    tname, entry, call = _TYPES[kind, cplx.char]
    ishape, oshape = src.shape, dst.shape
    outer, inner = _prod(ishape[:p]), _prod(ishape[q:])
    inembed, onembed = tuple(ishape[p:q]), tuple(oshape[p:q])
    ivol, ovol = _prod(inembed), _prod(onembed)
    isz, osz = src.itemsize, dst.itemsize
    if inner == 1:
        lay = (inembed, 1, ivol, onembed, 1, ovol, outer)
        offsets = ((0, 0),)
    elif outer <= inner:
        lay = (inembed, inner, 1, onembed, inner, 1, inner)
        offsets = [(b * ivol * inner * isz, b * ovol * inner * osz) for b in range(outer)]
    else:
        lay = (inembed, inner, ivol * inner, onembed, inner, ovol * inner, outer)
        offsets = [(t * isz, t * osz) for t in range(inner)]
    if not _module:
        cufft_module()
    key = (_rt._tls.device, _TYPE_VALUES[tname], tuple(n)) + lay
    return Layout(key, entry, call, offsets, direction if kind == "c2c" else None)


def transform(kind, src, dst, p, q, n, direction=None):
    """cuFFT over dimensions ``p .. q-1`` (1 to 3 of them) of C-contiguous ``src`` into
    C-contiguous ``dst`` (``dst`` may be ``src``: in place, C2C only); returns the
    :class:`Layout`.

    ``kind``: ``c2c`` (``direction`` FORWARD or INVERSE), ``r2c`` or ``c2r`` (the last of the
    dimensions halved on the complex side); ``n``: the logical lengths.  The arrays agree on
    every other dimension."""
    lay = layout(kind, src, dst, p, q, n, direction)
    lay.run(src._ptr, dst._ptr)
    return lay
