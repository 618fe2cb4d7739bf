"""Simulator fixes: a thread-safe ``cuda.shared.array``, stand-ins for libdevice bitcasts, and a
faster launch path for npgpu's kernels.

``LIBDEVICE_BITS`` replaces ``libdevice`` in the namespace of kernels run on the
simulator, whose own libdevice functions are stubs returning None.  Only the
bit reinterpretations kernels use are provided (``int_as_float``,
``float_as_int``, ``longlong_as_double``, ``double_as_longlong``), and ``umulhi``
and ``sincospi``/``sincospif`` (npgpu.random's Philox and Box-Muller), and the special
functions of npgpu.scipy.special (``erf``, ``lgamma``, ``j0``, ... via scipy.special); anything
else raises AttributeError.

The shared-array fix:

Numba's simulator runs each CUDA thread as an OS thread and finds a block's
shared array by the calling source line in a dict, without a lock: two threads
that reach the line together can each create their own array, so "shared"
memory silently is not shared and block reductions/scans give wrong results now
and then.  This wraps the lookup in a lock (same keying, same semantics).
Kernels for the GPU are unaffected.  Installed by the compiler before the first
simulated kernel runs.

npgpu's launches (a kernel whose namespace holds :data:`LIBDEVICE_BITS`) take a path of
their own, with the simulator's semantics (blocks one after another, a block's threads meeting
at ``syncthreads``, ``cuda`` swapped into the kernel's globals for the launch).  Measured on 2
cores (``x + x`` over 10^4 float32, one simulated thread): Numba's block manager busy-polls its
threads while they run, taking half the interpreter from them (1.5 s -> 0.3 s without it); of
the thread's own time, 35% went to calling Numba type objects (``float32(v)`` is
``Type.__call__`` -> ``np.float32(v)``) and 25% to entering and leaving
``swapped_cuda_module`` on every device-function call; and every simulated thread is an OS
thread, started per block and switched at every barrier (milliseconds each on a busy machine).
So npgpu's launches

* run a block's simulated threads as greenlets of the launching thread (:func:`_run_block`):
  no OS threads, no polling, a barrier is a greenlet switch (~1 us);
* swap the fake ``cuda`` module into the device functions' namespaces once per launch and call
  them as plain functions;
* cast with NumPy's scalar types (what Numba's ``cast_python_value`` calls);
* pass arrays as NumPy views instead of the simulator's wrappers.
A kernel written with ``numba.cuda.jit`` by hand keeps Numba's launch path; its arguments that
speak the CUDA Array Interface (npgpu's arrays) reach it as NumPy views of their memory (Numba's
simulator would pass them through as Python objects, whose item assignment never reaches the
array), and Numba's simulated device arrays get a ``__cuda_array_interface__`` of their own.
"""
import copy
import sys
import threading
from contextlib import ExitStack

_lock = threading.Lock()


def install():
    from numba.cuda.simulator import kernel, kernelapi
    from numba.cuda.simulator.kernelapi import FakeCUDAShared

    if getattr(FakeCUDAShared.array, "_npgpu_locked", False):
        return
    np = kernelapi.np
    numpy_support = kernelapi.numpy_support
    types = kernelapi.types
    original = FakeCUDAShared.array

    def array(self, shape, dtype, alignment=None):
        # ``alignment`` (which Numba's simulator refuses) only matters to the GPU's vector
        # accesses (ptx.load16/store16); the simulator's stand-ins index elements
        if shape == 0:
            return original(self, shape, dtype)
        if isinstance(dtype, types.Type):
            dtype = numpy_support.as_dtype(dtype)
        f = sys._getframe(1)
        caller = (f.f_code.co_filename, f.f_lineno)
        with _lock:
            res = self._allocations.get(caller)
            if res is None:
                res = np.empty(shape, dtype)
                self._allocations[caller] = res
        return res

    array._npgpu_locked = True
    FakeCUDAShared.array = array
    # the cache-hinted loads and stores (``cuda.ldcs(a, i)``, ...) are plain element accesses
    # to the simulator (Numba's leaves them None there): one kernel source for both
    fake = kernelapi.FakeCUDAModule
    for name in ("ldca", "ldcg", "ldcs", "ldlu", "ldcv"):
        if getattr(fake, name, None) is None:
            setattr(fake, name, staticmethod(_hinted_load))
    for name in ("stcg", "stcs", "stwb", "stwt"):
        if getattr(fake, name, None) is None:
            setattr(fake, name, staticmethod(_hinted_store))
    _install_launch(kernel, kernelapi)


def _hinted_load(a, i):
    return a[i]


def _hinted_store(a, i, v):
    a[i] = v


# --- npgpu's launches -----------------------------------------------------------------------
def _fast_casts(g):
    """Replace Numba scalar types in namespace ``g`` by what calling them does (NumPy's scalar
    type of the same name, ``bool`` for ``boolean``): same values, no ``Type.__call__``."""
    import numpy as np
    from numba.core import types

    for name, v in list(g.items()):
        if isinstance(v, types.Boolean):
            g[name] = bool
        elif isinstance(v, (types.Integer, types.Float, types.Complex)):
            g[name] = getattr(np, v.name)


class _Globals:
    """Stands for a function in ``swapped_cuda_module``, which only reads ``__globals__``."""

    def __init__(self, g):
        self.__globals__ = g


_prepared = {}     # id(kernel namespace) -> (the namespace, kept alive; its _Globals list)


def _prepare(g, kernel_cls):
    """Namespaces (``g`` and those of the device functions it reaches) whose ``cuda`` a launch
    swaps; device-function wrappers in them become the plain functions.  Done once per
    kernel namespace."""
    hit = _prepared.get(id(g))
    if hit is not None:
        return hit[1]
    spaces, todo, seen = [], [g], set()
    while todo:
        ns = todo.pop()
        if id(ns) in seen:
            continue
        seen.add(id(ns))
        spaces.append(_Globals(ns))
        for name, v in list(ns.items()):
            if isinstance(v, kernel_cls) and v._device:
                ns[name] = v.fn
                todo.append(v.fn.__globals__)
            elif callable(v) and getattr(v, "__globals__", None) is not None and \
                    v.__globals__ is not ns and v.__globals__.get("libdevice") is LIBDEVICE_BITS:
                todo.append(v.__globals__)      # a device function already unwrapped
        _fast_casts(ns)
    _prepared[id(g)] = (g, spaces)
    return spaces


_TURN = ("blockIdx", "threadIdx", "thread_id", "syncthreads", "syncthreads_count",
         "syncthreads_and", "syncthreads_or")


def _run_block(fn, args, grid_point, block_dim, dim3):
    """Run one block: every simulated thread a greenlet of the calling thread.  In thread
    order each runs to its next ``syncthreads`` (or its end); when every thread still running
    waits there, they go on.  Before a thread's turn its ``blockIdx``/``threadIdx`` are set on
    the calling thread's object, where the simulator's ``cuda`` looks them up.  A thread that
    raises ends the launch with Numba's message (``tid=[..] ctaid=[..]: ...``)."""
    import numpy as np
    from greenlet import GreenletExit, getcurrent, greenlet

    me = threading.current_thread()
    main = getcurrent()
    votes = np.zeros(block_dim, dtype=np.bool_)
    turn = [None]

    def syncthreads():
        main.switch()

    def vote(value):
        votes[turn[0]] = value
        main.switch()
        seen = votes.copy()
        main.switch()
        return seen

    me.syncthreads = syncthreads
    me.syncthreads_count = lambda v: int(np.count_nonzero(vote(v)))
    me.syncthreads_and = lambda v: int(bool(np.all(vote(v))))
    me.syncthreads_or = lambda v: int(bool(np.any(vote(v))))
    me.blockIdx = dim3(*grid_point)
    running = [(greenlet(lambda: fn(*args)), p) for p in np.ndindex(*block_dim)]
    try:
        while running:
            waiting = []
            for g, p in running:
                me.threadIdx = dim3(*p)
                me.thread_id = p[0] + block_dim[0] * (p[1] + block_dim[1] * p[2])
                turn[0] = p
                try:
                    g.switch()
                except Exception as e:
                    msg = f"tid={list(p)} ctaid={list(grid_point)}"
                    raise type(e)(f"{msg}: {e}" if str(e) else msg).with_traceback(
                        e.__traceback__) from None
                if not g.dead:
                    waiting.append((g, p))
            running = waiting
    finally:
        for g, _ in running:
            if not g.dead:
                g.throw(GreenletExit)


def _install_launch(kernel, kernelapi):
    from numba.cuda.errors import normalize_kernel_dimensions
    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray, FakeWithinKernelCUDAArray

    from .launcher import _sim_lock

    np = kernel.np
    cls = kernel.FakeCUDAKernel
    numba_call = cls.__call__

    def unwrap(a):
        if isinstance(a, FakeWithinKernelCUDAArray):
            a = a._item
        return a._ary if isinstance(a, FakeCUDAArray) else a

    def __call__(self, *args):
        if self._device:
            return numba_call(self, *args)
        # One launch at a time in the process, npgpu's and a user's alike: the simulator's kernel
        # context and the launching thread's block/thread attributes are process-wide, and a
        # launch from another thread meanwhile failed (AttributeError: blockIdx) or ran as a
        # device-function call.  A kernel called from inside a launch is on the thread holding
        # the lock (re-entrant).
        with _sim_lock:
            if kernel._kernel_context is not None:
                return numba_call(self, *args)
            if self.fn.__globals__.get("libdevice") is not LIBDEVICE_BITS:
                # a user's kernel: device arrays of other libraries (npgpu's included) as NumPy
                # views of their memory, which on the simulator is host memory, so writes land
                return numba_call(self, *[_cai_view(a, FakeCUDAArray) for a in args])
            _launch(self, args)

    def _launch(self, args):
        grid_dim, block_dim = normalize_kernel_dimensions(self.grid_dim, self.block_dim)
        module = kernelapi.FakeCUDAModule(grid_dim, block_dim, self.dynshared_size)
        args = [unwrap(a) for a in args]
        me = threading.current_thread()
        saved = {k: me.__dict__[k] for k in _TURN if k in me.__dict__}
        with kernel._push_kernel_context(module), ExitStack() as swaps:
            for space in _prepare(self.fn.__globals__, cls):
                swaps.enter_context(kernelapi.swapped_cuda_module(space, module))
            try:
                for grid_point in np.ndindex(*grid_dim):
                    _run_block(self.fn, args, grid_point, block_dim, kernelapi.Dim3)
            finally:
                for k in _TURN:
                    me.__dict__.pop(k, None)
                me.__dict__.update(saved)

    def __getitem__(self, configuration):
        # ``kernel[grid, block]`` configures a copy, as the GPU's dispatcher does: Numba's
        # simulator set the dimensions on the kernel object itself, so two threads launching one
        # kernel with different configurations could each run with the other's
        conf = copy.copy(self)
        conf.grid_dim, conf.block_dim = normalize_kernel_dimensions(*configuration[:2])
        conf.dynshared_size = configuration[3] if len(configuration) == 4 else 0
        return conf

    cls.__call__ = __call__
    cls.__getitem__ = __getitem__
    # Numba's simulated device arrays speak the CUDA Array Interface too (host pointers, as
    # npgpu's simulated memory), so npgpu.asarray wraps them without a copy
    FakeCUDAArray.__cuda_array_interface__ = property(_fake_cai)


def _cai_view(a, fake_cls):
    """``a`` as the simulator takes it: an object with ``__cuda_array_interface__`` (not one of
    the simulator's own arrays) becomes a simulated device array over the same memory."""
    if isinstance(a, fake_cls) or not hasattr(a, "__cuda_array_interface__"):
        return a
    import numpy as np
    from .launcher import _host_view

    cai = a.__cuda_array_interface__
    dt = np.dtype(cai["typestr"])
    shape = tuple(cai["shape"])
    strides = cai.get("strides")
    if strides is None:
        strides = _c_strides(shape, dt.itemsize)
    view = _host_view(cai["data"][0], shape, tuple(strides), dt)
    if cai["data"][1]:
        view.flags.writeable = False
    return fake_cls(view)


def _c_strides(shape, itemsize):
    out, s = [], itemsize
    for n in reversed(shape):
        out.append(s)
        s *= max(n, 1)
    return tuple(reversed(out))


def _fake_cai(self):
    ary = self._ary
    return {"shape": ary.shape, "typestr": ary.dtype.str, "descr": [("", ary.dtype.str)],
            "data": (ary.ctypes.data if ary.size else 0, not ary.flags.writeable),
            "strides": None if ary.flags.c_contiguous else ary.strides, "version": 3,
            "stream": None}


def _reinterpret(src, dst):
    """A function giving the bits of a ``src`` value read as ``dst`` (both NumPy dtypes)."""
    import numpy as np
    src_type, dst_type = np.dtype(src).type, np.dtype(dst).type

    def f(v):
        if type(v) is src_type:
            return v.view(dst_type)         # the common case, 10x faster than the array route
        return np.asarray(v).astype(src).view(dst)[()]
    return f


def _umulhi(a, b):
    """libdevice's umulhi: the high 32 bits of the 64-bit product of two 32-bit integers."""
    import numpy as np
    return np.int32(np.uint32(((int(a) & 0xFFFFFFFF) * (int(b) & 0xFFFFFFFF)) >> 32).view(
        np.int32))


def _sincospi(x, dt):
    """libdevice's sincospi(f): (sin(pi x), cos(pi x)), exact at multiples of 1/2 as on the
    GPU: x is reduced exactly to |r| <= 1/4 first (then sin/cos in float64)."""
    import math
    import numpy as np
    x = float(x)
    q = round(2.0 * x)              # exact: x - q/2 has no rounding error
    r = math.pi * (x - 0.5 * q)
    s, c = math.sin(r), math.cos(r)
    s, c = ((s, c), (c, -s), (-s, -c), (-c, s))[int(q) % 4]
    t = np.dtype(dt).type
    return t(s), t(c)


def _fma(dt):
    """libdevice's fma(f): a * b + c rounded once, as the GPU's FFMA/DFMA (the simulator's own
    ``cuda.fma`` rounds the product first, which breaks the exact range reductions of the fast
    helpers in npgpu/ufuncs/helpers.py).  float32: the product is exact in float64 and TwoSum
    gives the sum's error, so only a float64 sum on a float32 tie (or a float32 value) needs a
    step towards the exact value; float64 through fractions.  inf/NaN operands by IEEE."""
    import math
    from fractions import Fraction
    import numpy as np
    t = np.dtype(dt).type

    def f(a, b, c):
        a, b, c = float(a), float(b), float(c)
        if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
            with np.errstate(all="ignore"):
                return t(np.float64(a) * np.float64(b) + np.float64(c))
        with np.errstate(over="ignore", under="ignore"):
            if t is np.float32:
                p = a * b
                d = p + c
                z = d - p
                err = (p - (d - z)) + (c - z)           # TwoSum: d + err == p + c exactly
                if err != 0.0 and (np.float64(d).view(np.int64) & 0x1FFFFFFF) in (0, 0x10000000):
                    d = math.nextafter(d, math.inf if err > 0.0 else -math.inf)
                return t(d)
            exact = Fraction(a) * Fraction(b) + Fraction(c)
            if exact == 0:      # the sign of an exact zero: IEEE's (+0 unless both terms are -0)
                return t(a * b + c)
            try:
                return t(float(exact))                  # rounds correctly
            except OverflowError:
                return t(math.inf if exact > 0 else -math.inf)
    return staticmethod(f)


class _LibdeviceBits:
    """The simulator's ``libdevice``: NumPy views that reinterpret bits, as the GPU's do."""
    int_as_float = staticmethod(_reinterpret("int32", "float32"))
    float_as_int = staticmethod(_reinterpret("float32", "int32"))
    longlong_as_double = staticmethod(_reinterpret("int64", "float64"))
    double_as_longlong = staticmethod(_reinterpret("float64", "int64"))
    umulhi = staticmethod(_umulhi)
    sincospif = staticmethod(lambda x: _sincospi(x, "float32"))
    sincospi = staticmethod(lambda x: _sincospi(x, "float64"))
    fmaf = _fma("float32")
    fma = _fma("float64")


# libdevice's special functions (npgpu.scipy.special's loops): the simulator computes them with
# scipy.special in float64 and rounds, which is what SciPy's own float32 loops do
_SPECIAL = {"erf": "erf", "erfc": "erfc", "erfcx": "erfcx", "erfinv": "erfinv",
            "erfcinv": "erfcinv", "tgamma": "gamma", "lgamma": "gammaln", "normcdf": "ndtr",
            "normcdfinv": "ndtri", "j0": "j0", "j1": "j1", "y0": "y0", "y1": "y1"}


def _special(sp_name, dt):
    def f(x):
        import numpy as np
        import scipy.special        # the test extra; only the simulator needs it
        t = np.dtype(dt).type
        return t(getattr(scipy.special, sp_name)(np.float64(x)))
    return staticmethod(f)


for _ld, _sp in _SPECIAL.items():
    setattr(_LibdeviceBits, _ld, _special(_sp, "float64"))
    setattr(_LibdeviceBits, _ld + "f", _special(_sp, "float32"))

LIBDEVICE_BITS = _LibdeviceBits()
