"""The one launcher: runs a compiled kernel with raw arguments on the current stream.

Arguments are given as a flat list of *values* in Numba's kernel ABI, which
``pack_array`` / the caller produce:

* an array parameter flattens to ``meminfo(0), parent(0), nitems, itemsize,
  data pointer, shape[ndim], strides[ndim]`` (8 bytes each);
* a scalar parameter is one value of its dtype (complex: two values).

On the GPU the values are packed with one ``struct.pack_into`` into a buffer
of the calling thread, and ``cuLaunchKernelEx`` is called through ctypes with a
pre-built ``void*[]`` that points into it: no Numba dispatch on the hot path.
Grid, block, dynamic shared memory and stream go in a ``CUlaunchConfig`` built once per
distinct (grid, block, shared bytes, stream) and kept in ``_configs`` (``launch_config``):
ctypes then converts 4 arguments, not ``cuLaunchKernel``'s 11 (H200, host time of a launch:
3.60 against 3.96 us).  A config is an immutable ``bytes`` object (ctypes passes bytes as a
pointer to their data; the driver only reads it), so threads share the cache and no struct
is ever written while the driver may be reading it.  ``NPGPU_LAUNCH_EX=0`` (or
``LAUNCH_EX = False`` at run time) launches with ``cuLaunchKernel`` instead: the A/B of
``benchmarks/experiments/host_overhead.py``.
Every value takes one 8-byte slot, so one buffer and one pointer array per
thread serve every kernel; per thread because ctypes releases the GIL during
the launch, and a buffer of the kernel's own would be repacked by
another thread launching the same kernel before the driver had read it.  (The
driver copies the parameters before the launch returns, so the
thread's next launch may reuse the buffer.)  A thread's first launch makes
the context current on it.
A module loads into one context, so a kernel's handle serves one device: the launcher keeps
the device it was loaded on and, for each other device a thread launches it on, a handle of
the same image loaded there on first use (one attribute compare a launch on the first device).
On the simulator the same call runs the Numba-simulated kernel with NumPy
views of the simulated device memory; the simulator runs one kernel at a time
in a process (its threads find ``blockIdx`` on the Python thread object and
``cuda`` swapped into the kernel's globals), so launches take ``_sim_lock``.
"""
import ctypes
import operator
import os
import struct
import threading
import warnings

import numpy as np

from .. import _backend
from ..cuda import runtime as _runtime
from ..cuda.runtime import _tls
from .stats import stats as _stats

_SCALAR_FMT = {
    "b1": "?7x", "i1": "b7x", "u1": "B7x", "i2": "h6x", "u2": "H6x", "i4": "i4x", "u4": "I4x",
    "i8": "q", "u8": "Q", "f2": "e6x", "f4": "f4x", "f8": "d", "c8": "f4xf4x", "c16": "dd",
}


def _param_format(params):
    fmt = "<"
    count = 0
    for p in params:
        if p.kind == "array":
            fmt += "qqqqQ" + "q" * (2 * p.ndim)
            count += 5 + 2 * p.ndim
        else:
            code = p.dtype.kind + str(p.dtype.itemsize)
            if p.dtype.kind == "b":
                code = "b1"
            fmt += _SCALAR_FMT[code]
            count += 2 if p.dtype.kind == "c" else 1
    return fmt, count


# the driver's entry points, without ctypes argtypes: converting 11 arguments through argtypes
# costs ~1.8 us a call; plain ints, bytes and prebuilt c_void_p objects take ctypes' fast path.
# (Module globals: tests/test_launch_config.py stands Python stubs in for them on the CPU.)
drv = _cuLaunchKernel = _cuLaunchKernelEx = None
LAUNCH_EX = os.environ.get("NPGPU_LAUNCH_EX", "1") != "0"
if _backend.IS_CUDA:
    from ..cuda import _driver as drv
    _cuLaunchKernel = drv._lib["cuLaunchKernel"]
    try:
        _cuLaunchKernelEx = drv._lib["cuLaunchKernelEx"]
    except AttributeError:      # pragma: no cover - a driver older than CUDA 12.0
        LAUNCH_EX = False

# CUlaunchConfig: gridDim xyz, blockDim xyz, sharedMemBytes (uint32 each), 4 bytes of padding,
# hStream, then zeros: attrs (NULL), numAttrs (0) and padding; 56 bytes
_CONFIG = struct.Struct("<7I4xQ16x")
# (grid, block, shared bytes, stream handle) -> CUlaunchConfig bytes, shared by every launcher
# and RawKernel; a program launches with few distinct configs, but grids follow sizes: bounded
_configs = {}
_CONFIGS_MAX = 1024


def launch_config(grid, block, shared, stream, key=None):
    """The ``CUlaunchConfig`` (bytes) of a launch, remembered in ``_configs`` under ``key``
    (default ``(grid, block, shared, stream)``).  ``grid``/``block``: an int or a 3-tuple;
    ``stream``: a handle (0: the legacy default stream).  Values wrap to 32 bits as ctypes
    passes an int to ``cuLaunchKernel``'s ``unsigned int`` parameters, so the driver sees what
    it saw there (a bad value is its error to report)."""
    g = tuple(grid) if isinstance(grid, tuple) else (grid, 1, 1)
    b = tuple(block) if isinstance(block, tuple) else (block, 1, 1)
    cfg = _CONFIG.pack(*[operator.index(v) & 0xFFFFFFFF for v in (*g, *b, shared)], stream)
    if len(_configs) >= _CONFIGS_MAX:
        _configs.clear()
    _configs[(grid, block, shared, stream) if key is None else key] = cfg
    return cfg


# lists that each launched Launcher is appended to while they are here (``@npgpu.fuse``'s
# ``launches()`` and ``kernel_sources()``: which kernels one call runs)
recorders = []
_sim_lock = threading.RLock()
# warnings.catch_warnings saves and restores the process-wide filters: two threads inside it
# at once can leave the other's "ignore" installed for good.  npgpu holds this lock around each.
warnings_lock = threading.RLock()
# 8-byte slots in a thread's packing buffer: 4096 hold 32 KiB of parameters, the most the
# driver takes (CUDA 12.1+ on Volta and later); kernels with more values pack into buffers
# of their own per launch (_WideLauncher)
SLOTS = 4096


def _slots(count):
    """A packing buffer of ``count`` 8-byte slots and the ``void*[]`` pointing at each slot, as
    bytes: ctypes passes a bytes object as the address of its data, with no conversion object
    to allocate (a c_void_p argument makes one), and the array never changes."""
    buf = ctypes.create_string_buffer(8 * max(count, 1))
    addr = ctypes.addressof(buf)
    return buf, struct.pack(f"<{max(count, 1)}Q", *[addr + 8 * i for i in range(max(count, 1))])


def _thread_slots():
    """This thread's first launch: make the context current here, make its packing buffer."""
    _runtime.ensure_context()
    slots = _tls.launch = _slots(SLOTS)
    return slots


class Launcher:
    """A loaded kernel and what it needs to be launched fast."""

    def __init__(self, ks, func=None, module=None, sim_kernel=None, image=None):
        self.source = ks
        self.name = ks.name
        self.params = ks.params
        self._func = func
        self._module = module
        self._sim = sim_kernel
        self.shared_bytes = 0       # dynamic shared memory per block
        self.elements_per_thread = getattr(ks, "elements_per_thread", 1)
        self.threads = getattr(ks, "threads", 256)     # block size the layout was tuned for
        self.covers = getattr(ks, "covers", False)     # no grid-stride loop: grid covers n
        self.max_threads = 1024     # the most threads a block of this kernel can have
        self._occupancy = {}        # block size -> blocks per SM
        if func is not None:
            # registers per thread bound the block size (a wide reduction state, unrolled
            # loads): launching more fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
            v = ctypes.c_int(0)
            drv.check(drv.cuFuncGetAttribute(ctypes.byref(v), 0, func), "cuFuncGetAttribute")
            self.max_threads = v.value
        fmt, count = _param_format(ks.params)
        self._nvalues = count
        if func is not None:
            self._func_vp = ctypes.c_void_p(func)
            self._device = _tls.device       # the device whose context loaded ``func``
            self._image = image              # (cubin, entry): loaded again for other devices
            self._others = {}                # device id -> c_void_p handle
            self._pack = struct.Struct(fmt).pack_into
            if count > SLOTS:
                self.__class__ = _WideLauncher

    def blocks_per_sm(self, block):
        """How many blocks of ``block`` threads of this kernel one SM holds at once (its
        registers and shared memory decide); None on the simulator."""
        if self._func is None:
            return None
        # (the first device's handle: the devices of one process are alike in npgpu's use)
        cached = self._occupancy.get(block)
        if cached is None:
            _runtime.ensure_context()
            v = ctypes.c_int(0)
            drv.check(drv.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                ctypes.byref(v), self._func, block, self.shared_bytes),
                "cuOccupancyMaxActiveBlocksPerMultiprocessor")
            cached = self._occupancy[block] = max(1, v.value)
        return cached

    def __call__(self, grid, block, values, stream=None):
        """Launch on ``stream`` (a handle; default the current stream).

        ``grid``/``block``: ints (1-D) or 3-tuples."""
        _stats["launches"] += 1
        if recorders:
            for r in recorders:
                r.append(self)
        if self._func is not None:
            t = _tls
            fvp = self._func_vp if t.device == self._device else self._handle_on(t.device)
            slots = t.launch
            if slots is None:
                slots = _thread_slots()
            self._pack(slots[0], 0, *values)
            if LAUNCH_EX:
                if stream is None:
                    st = t.stream
                    stream = st.ptr if st is not None else 0
                cfg = _configs.get((grid, block, self.shared_bytes, stream))
                if cfg is None:
                    cfg = launch_config(grid, block, self.shared_bytes, stream)
                rc = _cuLaunchKernelEx(cfg, fvp, slots[1], None)
            else:
                if stream is None:
                    st = t.stream
                    sv = st._vp if st is not None else None
                else:
                    sv = ctypes.c_void_p(stream) if stream else None
                if grid.__class__ is tuple:
                    gx, gy, gz = grid
                    bx, by, bz = block
                else:
                    gx, gy, gz, bx, by, bz = grid, 1, 1, block, 1, 1
                rc = _cuLaunchKernel(fvp, gx, gy, gz, bx, by, bz, self.shared_bytes, sv,
                                     slots[1], None)
            if rc:
                drv.check(rc, f"{'cuLaunchKernelEx' if LAUNCH_EX else 'cuLaunchKernel'}"
                              f"({self.name}, grid={grid}, block={block})")
        else:
            args = _sim_args(self.params, values)
            # The simulator computes with NumPy scalars: silence their overflow/invalid warnings
            # (the GPU wraps silently too). Its threads do not inherit np.errstate, so filter
            # the warnings process-wide for the duration of the launch (under the lock: the
            # filters are process-wide too).
            with _sim_lock, warnings_lock, warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                self._sim[grid, block](*args)


    def _handle_on(self, device):
        """This kernel's handle in ``device``'s context (loaded there on first use)."""
        fvp = self._others.get(device)
        if fvp is None:
            if self._image is None:
                raise RuntimeError(f"kernel {self.name} was loaded without its image: it "
                                   f"cannot run on device {device}")
            with _load_lock:
                fvp = self._others.get(device)
                if fvp is None:
                    _runtime.ensure_context(device)
                    _, fn = drv.load_function(*self._image)
                    fvp = self._others[device] = ctypes.c_void_p(fn)
        return fvp


_load_lock = threading.Lock()


class _WideLauncher(Launcher):
    """A kernel with more parameter values than a thread's packing buffer holds: packs into a
    buffer of its own each launch."""

    def __call__(self, grid, block, values, stream=None):
        prev = _tls.launch
        if prev is None:
            prev = _thread_slots()
        _tls.launch = _slots(self._nvalues)
        try:
            Launcher.__call__(self, grid, block, values, stream)
        finally:
            _tls.launch = prev


def _sim_args(params, values):
    """Rebuild simulator arguments (NumPy views of simulated memory) from flat ABI values."""
    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

    out = []
    i = 0
    for p in params:
        if p.kind == "array":
            nd = p.ndim
            nitems, itemsize, ptr = values[i + 2], values[i + 3], values[i + 4]
            shape = tuple(values[i + 5:i + 5 + nd])
            strides = tuple(values[i + 5 + nd:i + 5 + 2 * nd])
            i += 5 + 2 * nd
            out.append(FakeCUDAArray(_host_view(ptr, shape, strides, p.dtype)))
        elif p.dtype.kind == "c":
            out.append(p.dtype.type(complex(values[i], values[i + 1])))
            i += 2
        else:
            out.append(p.dtype.type(values[i]))
            i += 1
    return out


def _host_view(ptr, shape, strides, dtype):
    """A NumPy view of simulated device memory at address ``ptr``."""
    if 0 in shape:
        return np.empty(shape, dtype)
    # the extent of the view, from its lowest to its highest byte
    lo = sum(s * (n - 1) for s, n in zip(strides, shape) if s < 0)
    hi = sum(s * (n - 1) for s, n in zip(strides, shape) if s > 0) + dtype.itemsize
    buf = (ctypes.c_char * (hi - lo)).from_address(ptr + lo)
    return np.ndarray(shape, dtype, buffer=buf, offset=-lo, strides=strides)
