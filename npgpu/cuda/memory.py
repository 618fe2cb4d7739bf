"""The one memory pool every device allocation goes through.

Two ways of keeping freed blocks, one pool API:

* default device memory on the GPU uses the driver's stream-ordered pool
  (``cuMemAllocFromPoolAsync``/``cuMemFreeAsync`` with the release threshold
  raised): the driver keeps freed blocks for O(1) reuse and orders reuse by
  stream, which makes it per-stream safe.  ~1.6 us per alloc/free pair.
* every other allocator (managed memory, the simulator's host buffers) goes
  through :class:`_BinCache`, a dict of size class -> free blocks, keyed by the
  stream a block was freed on so a block is only reused in that stream's order.

Out of memory: free cached blocks, retry once, then raise
:class:`~npgpu.cuda.OutOfMemoryError` naming requested and pooled bytes.

Threads: a pool is shared by every thread of its device.  The hot path takes no lock: a bin
is a list whose ``pop``/``append`` are single operations under the GIL (a thread finding a bin
emptied by another between the test and the pop falls to the backing allocator), bins are
created with ``setdefault`` and never removed while their stream lives, and the byte counters
change by single ``+=`` statements with no call inside, which CPython's GIL does not
interleave.  Driver calls use no shared out-parameter.  Slow paths (releasing cached blocks,
creating a device's pool) take ``_lock``.
"""
import ctypes
import threading
import weakref

import numpy as np

from .. import _backend
from . import runtime
from .runtime import _tls
from .errors import CUDADriverError, OutOfMemoryError

if _backend.IS_CUDA:
    from . import _driver as drv

class Memory:
    """One allocation. Freed back to its pool when the last reference goes away.

    ``ptr`` is the device address (on the simulator, the host buffer's address);
    ``host`` is the simulator's backing ``uint8`` NumPy buffer (``None`` on the GPU).
    """

    __slots__ = ("ptr", "size", "pool", "device_id", "host", "stream", "owner",
                 "__weakref__")

    def __init__(self, ptr, size, pool=None, device_id=0, host=None, stream=0, owner=None):
        self.ptr = ptr
        self.size = size
        self.pool = pool
        self.device_id = device_id
        self.host = host
        self.stream = stream
        self.owner = owner          # keeps foreign memory (CAI / DLPack producers) alive

    def __del__(self):
        pool = self.pool
        if pool is not None:
            self.pool = None
            try:
                pool._release(self)
            except Exception:  # interpreter shutdown: driver may be gone
                pass

    def __repr__(self):
        return f"<npgpu Memory ptr={self.ptr:#x} size={self.size}>"


class _BinCache:
    """Free blocks by (rounded size, stream): O(1) reuse in Python, no driver call.

    ``alloc(size, stream) -> (ptr, host)`` and ``free(block, stream)`` reach the
    backing allocator only on a miss and when cached blocks are released.
    """

    def __init__(self, alloc, free):
        self._alloc = alloc
        self._free = free
        self.bins = {}
        self.cached_bytes = 0

    def new(self, size, stream):
        return self._alloc(size, stream)

    def put(self, size, stream, block):
        lst = self.bins.get((size, stream))
        if lst is None:
            lst = self.bins.setdefault((size, stream), [])   # two threads: one list wins
        lst.append(block)
        self.cached_bytes += size

    def _drain(self, key, lst):
        # pop one block at a time: another thread may pop or append to the same list meanwhile
        while True:
            try:
                block = lst.pop()
            except IndexError:
                return
            self.cached_bytes -= key[0]
            self._free(block, key[1])

    def release_stream(self, stream):
        """Give back the cached blocks of ``stream`` (before the stream is destroyed)."""
        with _lock:
            for key in [k for k in list(self.bins) if k[1] == stream]:
                self._drain(key, self.bins.pop(key))

    def release_all(self):
        # the lists stay in ``bins``: a thread appending to one it just looked up is not lost
        with _lock:
            for key, lst in list(self.bins.items()):
                self._drain(key, lst)


def _sim_alloc(size, stream):
    try:
        buf = np.empty(size, dtype=np.uint8)
    except ValueError:      # a size past intp (rounded up by the pool): the device's OOM
        raise _DriverOOM() from None
    return buf.ctypes.data, buf


def _sim_free(block, stream):
    pass


def _managed_alloc(size, stream):
    runtime.ensure_context()
    p = ctypes.c_uint64()
    rc = drv.cuMemAllocManaged(ctypes.byref(p), size, drv.CU_MEM_ATTACH_GLOBAL)
    if rc == drv.CUDA_ERROR_OUT_OF_MEMORY:
        raise _DriverOOM()
    drv.check(rc, "cuMemAllocManaged")
    return p.value, None


def _managed_free(block, stream):
    drv.cuMemFree(block[0])


class _DriverOOM(Exception):
    pass


# Allocator names accepted by MemoryPool / set_allocator.
malloc_device = "device"
malloc_managed = "managed"


class MemoryPool:
    """Caching device-memory pool (CuPy-like API).

    ``MemoryPool()`` allocates ordinary device memory; ``MemoryPool(malloc_managed)``
    allocates CUDA managed (unified) memory, usable for arrays larger than the GPU.
    Freed blocks are kept per (size, stream) and reused in O(1) without a driver
    call; the backing allocator is reached only on a miss.
    """

    def __init__(self, allocator=malloc_device):
        if allocator not in (malloc_device, malloc_managed):
            raise ValueError(f"allocator must be 'device' or 'managed', not {allocator!r}")
        self.kind = allocator
        self._used = 0
        self._peak = 0
        self._limit = 0
        self._driver_pool = None
        self._device = runtime.get_device_id()      # the device whose driver pool backs this one
        if _backend.IS_SIM:
            self._cache = _BinCache(_sim_alloc, _sim_free)
        elif allocator == malloc_managed:
            self._cache = _BinCache(_managed_alloc, _managed_free)
        else:
            self._cache = _BinCache(self._device_alloc, self._device_free)
        self._bins = self._cache.bins
        _live_pools.add(self)

    # -- statistics -----------------------------------------------------------
    def used_bytes(self):
        """Bytes in live arrays."""
        return self._used

    def peak_bytes(self):
        """Largest ``used_bytes`` since the last :meth:`reset_peak`."""
        return self._peak

    def reset_peak(self):
        self._peak = self._used

    def free_bytes(self):
        """Bytes held by the pool for reuse."""
        return self._cache.cached_bytes

    def total_bytes(self):
        """Bytes held by the pool: in use plus cached for reuse."""
        return self._used + self._cache.cached_bytes

    def set_limit(self, size=None, fraction=None):
        """Cap ``used_bytes`` (0 or None: no limit). ``fraction`` is of the device's memory."""
        if fraction is not None:
            total = runtime.Device().mem_info[1]
            size = int(total * fraction)
        self._limit = int(size or 0)

    def get_limit(self):
        return self._limit

    def free_all_blocks(self, stream=None):
        """Return every cached (unused) block to the driver / system."""
        if _backend.IS_CUDA:
            runtime.in_context(self._device, self._free_all_blocks)
        else:
            self._cache.release_all()

    def _free_all_blocks(self):
        drv.check(drv.cuCtxSynchronize(), "cuCtxSynchronize")
        self._cache.release_all()
        if self._driver_pool is not None:
            drv.check(drv.cuCtxSynchronize(), "cuCtxSynchronize")
            drv.check(drv.cuMemPoolTrimTo(self._driver_pool, 0), "cuMemPoolTrimTo")

    # -- backing allocator of default device memory ----------------------------------
    def _init_driver_pool(self):
        pool = ctypes.c_void_p()
        drv.check(drv.cuDeviceGetDefaultMemPool(ctypes.byref(pool), self._device),
                  "cuDeviceGetDefaultMemPool")
        # keep freed memory in the driver's pool instead of returning it at every sync
        thr = ctypes.c_uint64(2 ** 64 - 1)
        drv.check(drv.cuMemPoolSetAttribute(pool, drv.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                            ctypes.byref(thr)), "cuMemPoolSetAttribute")
        self._driver_pool = pool.value

    def _device_alloc(self, size, stream):
        # a miss (~1 us in the driver): make sure this thread has the context, and use an
        # out-parameter of its own (a shared one, written while ctypes has released the GIL,
        # handed one pointer to two threads)
        runtime.ensure_context(self._device)
        if self._driver_pool is None:
            self._init_driver_pool()
        out = ctypes.c_uint64()
        rc = drv.cuMemAllocFromPoolAsync(ctypes.byref(out), size, self._driver_pool, stream)
        if rc == drv.CUDA_ERROR_OUT_OF_MEMORY:
            raise _DriverOOM()
        drv.check(rc, "cuMemAllocFromPoolAsync")
        return out.value, None

    @staticmethod
    def _device_free(block, stream):
        drv.cuMemFreeAsync(block[0], stream)

    # -- allocation -------------------------------------------------------------------------
    def malloc(self, nbytes, stream=None):
        """Allocate ``nbytes`` (rounded up to 512) on the current stream; returns :class:`Memory`."""
        size = (nbytes + 511) & ~511 if nbytes else 512
        if self._limit and self._used + size > self._limit:
            self.free_all_blocks()
            raise OutOfMemoryError(nbytes, self._used, self._limit)
        if stream is None:
            st = _tls.stream
            s = st.ptr if st is not None else 0
        else:
            s = stream
        lst = self._bins.get((size, s))
        if lst:
            try:
                block = lst.pop()
                self._cache.cached_bytes -= size
            except IndexError:          # another thread took the last block since the test
                block = self._new_block(size, s, nbytes)
        else:
            block = self._new_block(size, s, nbytes)
        self._used += size
        if self._used > self._peak:
            self._peak = self._used
        return Memory(block[0], size, self, _tls.device, block[1], s)

    def _new_block(self, size, s, nbytes):
        try:
            return self._cache.new(size, s)
        except (_DriverOOM, MemoryError):
            pass
        # out of memory: give cached blocks back, retry once
        self.free_all_blocks()
        try:
            return self._cache.new(size, s)
        except (_DriverOOM, MemoryError):
            raise OutOfMemoryError(nbytes, self._used, self._limit,
                                   kind="managed" if self.kind == malloc_managed else "device") from None

    def _release(self, mem):
        self._used -= mem.size
        if mem.stream in _destroyed_streams:
            # its stream is gone: no cache key would stay valid, and a freed handle can
            # crash the driver; free on the legacy default stream now (in the block's context:
            # the last reference may go on any thread)
            if _backend.IS_CUDA:
                runtime.in_context(mem.device_id, self._cache._free, (mem.ptr, mem.host), 0)
            else:
                self._cache._free((mem.ptr, mem.host), 0)
            return
        self._cache.put(mem.size, mem.stream, (mem.ptr, mem.host))


# Streams and the pools' per-stream caches: Stream.__del__ calls stream_destroyed() before
# cuStreamDestroy, so that no cached block keeps a dead stream handle (freeing on one
# segfaulted inside the driver on the H200).
_live_pools = weakref.WeakSet()
_destroyed_streams = set()


_stream_listeners = []


def on_stream_destroyed(fn):
    """Call ``fn(handle)`` whenever a stream is destroyed (caches keyed by stream drop it)."""
    _stream_listeners.append(fn)


def stream_destroyed(handle):
    for fn in _stream_listeners:
        fn(handle)
    for pool in list(_live_pools):
        pool._cache.release_stream(handle)
    _destroyed_streams.add(handle)


def stream_created(handle):
    _destroyed_streams.discard(handle)      # the driver reuses handles


runtime.set_stream_hooks(stream_created, stream_destroyed)


_pools = {}
_allocator = None   # a user-set allocator: callable nbytes -> Memory
_lock = threading.RLock()   # slow paths only: pool creation, releasing cached blocks


def get_default_memory_pool():
    """The pool of the current device."""
    dev = runtime.get_device_id()
    pool = _pools.get(dev)
    if pool is None:
        with _lock:
            pool = _pools.get(dev)
            if pool is None:
                pool = _pools[dev] = MemoryPool()
    return pool


def set_allocator(allocator=None):
    """Route every npgpu allocation through ``allocator`` (``pool.malloc``), or back to the default.

    Managed memory in two lines::

        pool = npgpu.cuda.MemoryPool(npgpu.cuda.malloc_managed)
        npgpu.cuda.set_allocator(pool.malloc)
    """
    global _allocator
    _allocator = allocator


def get_allocator():
    return _allocator or get_default_memory_pool().malloc


def alloc(nbytes):
    """Allocate device memory through the current allocator (the hot path)."""
    if _allocator is not None:
        return _allocator(nbytes)
    pool = _tls.pool
    if pool is None:
        pool = _thread_pool()
    return pool.malloc(nbytes)


def _thread_pool():
    """This thread's first allocation on its current device: make the device's context current
    here (a thread starts with none) and remember the device's pool for the hot path.  On the
    simulator, Numba's simulator is patched now (``_codegen/simulator_fixes``): a user's
    ``numba.cuda.jit`` kernel may be the first kernel an npgpu array meets (after a memset
    ``zeros``, say), and only the patched simulator hands it views of npgpu's memory."""
    if _backend.IS_SIM:
        from .._codegen.simulator_fixes import install
        install()
    runtime.ensure_context()
    pool = _tls.pool = get_default_memory_pool()
    return pool


# --- pinned host memory ----------------------------------------------------------
class PinnedMemory:
    """Page-locked host memory (``cuMemHostAlloc``); plain host memory on the simulator.
    ``mapped``: kernels may read and write it too, at ``device_ptr`` (None when not mapped)."""

    def __init__(self, nbytes, mapped=False):
        self.size = nbytes
        self._keep = None
        self.device_ptr = None
        if _backend.IS_CUDA and nbytes:
            self._device = runtime.get_device_id()
            runtime.ensure_context()
            p = ctypes.c_void_p()
            flags = drv.CU_MEMHOSTALLOC_PORTABLE | (drv.CU_MEMHOSTALLOC_DEVICEMAP if mapped else 0)
            drv.check(drv.cuMemHostAlloc(ctypes.byref(p), nbytes, flags), "cuMemHostAlloc")
            self.ptr = p.value
            self._pinned = True
            if mapped:
                d = ctypes.c_uint64()
                drv.check(drv.cuMemHostGetDevicePointer(ctypes.byref(d), self.ptr, 0),
                          "cuMemHostGetDevicePointer")
                self.device_ptr = d.value
        else:
            self._keep = np.empty(max(nbytes, 1), np.uint8)
            self.ptr = self._keep.ctypes.data
            self._pinned = False
            if mapped and not _backend.IS_CUDA:     # (simulated kernels address host memory)
                self.device_ptr = self.ptr

    def __del__(self):
        if getattr(self, "_pinned", False):
            try:
                runtime.in_context(self._device, drv.cuMemFreeHost, self.ptr)
            except Exception:           # interpreter shutdown
                pass

    def as_numpy(self, shape, dtype):
        dtype = np.dtype(dtype)
        n = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        buf = (ctypes.c_ubyte * max(self.size, 1)).from_address(self.ptr)
        arr = np.frombuffer(buf, np.uint8, count=n).view(dtype).reshape(shape).view(PinnedArray)
        arr.pinned = self     # the array (and its views) keep the block alive
        return arr


class PinnedArray(np.ndarray):
    """A NumPy array whose memory is page-locked; ``.pinned`` is its :class:`PinnedMemory`."""

    def __array_finalize__(self, obj):
        self.pinned = getattr(obj, "pinned", None)


def alloc_pinned_memory(nbytes):
    """Allocate ``nbytes`` of page-locked host memory."""
    return PinnedMemory(nbytes)


def pinned_empty(shape, dtype=np.float64):
    """A NumPy array in page-locked host memory (fast transfers)."""
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(shape)
    dtype = np.dtype(dtype)
    n = int(np.prod(shape)) * dtype.itemsize
    return PinnedMemory(n).as_numpy(shape, dtype)


def is_pinned(arr):
    return isinstance(arr, PinnedArray) and arr.pinned is not None and arr.pinned._pinned


__all__ = ["Memory", "MemoryPool", "get_default_memory_pool", "set_allocator", "get_allocator",
           "alloc", "malloc_managed", "malloc_device", "PinnedMemory", "alloc_pinned_memory",
           "pinned_empty", "is_pinned", "OutOfMemoryError", "CUDADriverError"]
