"""npgpu and hand-written Numba kernels: arrays, streams and Numba's allocations.

* npgpu arrays are typed by Numba through ``_numba_type_`` (the attribute Numba's C dispatcher
  reads first, before the DLPack and CUDA Array Interface parses) and passed to a kernel
  through ``__cuda_memory__`` + ``_strided_memory_view_shim`` (what Numba's own device arrays
  give its launcher); :func:`numba_type` and :func:`memory_view_shim` build both, the ndarray
  class only forwards to them.
* :func:`as_numba_stream` turns an npgpu stream (default: the current one) into the Numba
  stream of the same handle, so ``kernel[grid, block, as_numba_stream()](...)`` runs in order
  with npgpu's work.
* :func:`use_npgpu_allocator_in_numba` makes npgpu's pool Numba's external memory manager.

On the simulator npgpu's memory is host memory, and ``simulator_fixes`` hands Numba's
simulated kernels NumPy views of it, so reads and writes reach npgpu's arrays there too.
Nothing here imports ``numba.cuda`` before it is called.
"""
import os
import weakref

from .. import _backend

_types = {}         # (dtype, ndim, layout, readonly) -> numba Array type


def numba_type(arr):
    """The Numba type of npgpu array ``arr`` as a kernel argument (Numba's rules for its own
    device arrays: 'C', then 'F', 'A' when broadcast or strided)."""
    c, f = arr._c_contig, arr._f_contig
    if (c or f) and arr.size and 0 in arr._strides:
        c = f = False
    layout = "C" if c else "F" if f else "A"
    key = (arr.dtype, len(arr.shape), layout, arr._ro >= 2)
    t = _types.get(key)
    if t is None:
        from numba.cuda import types
        from numba.cuda.np.numpy_support import from_dtype
        t = _types[key] = types.Array(from_dtype(arr.dtype), key[1], layout, readonly=key[3])
    return t


_shim = []          # Numba's (StridedMemoryViewShim, StridedLayoutShim) classes, once found


def memory_view_shim(arr):
    """What Numba's launcher reads of a device array: pointer, shape, dtype, size, strides."""
    if not _shim:
        from numba.cuda.cudadrv.devicearray import _StridedLayoutShim, _StridedMemoryViewShim
        _shim[:] = [_StridedMemoryViewShim, _StridedLayoutShim]
    view_cls, layout_cls = _shim
    c, f = arr._c_contig, arr._f_contig
    return view_cls(ptr=arr._ptr, shape=arr.shape, dtype=arr.dtype, size=arr.size,
                    _layout=layout_cls(strides_in_bytes=arr._strides, is_contiguous_c=c,
                                       is_contiguous_f=f, is_contiguous_any=c or f))


def device_ctypes_pointer(arr):
    """The data pointer as Numba's memory objects give it (``c_size_t``)."""
    import ctypes
    return ctypes.c_size_t(arr._ptr)


# --- streams ------------------------------------------------------------------------------------
def as_numba_stream(stream=None):
    """The Numba stream for npgpu ``stream`` (default: the current stream).

    ``kernel[grid, block, npgpu.cuda.as_numba_stream()](x, out)`` launches a ``numba.cuda.jit``
    kernel on npgpu's current stream.  The legacy default stream (handle 0) maps to Numba's
    ``legacy_default_stream()``, any other to ``numba.cuda.external_stream(handle)`` (made
    once per npgpu stream).  On the simulator every launch is synchronous: Numba's default
    stream is returned."""
    from numba import cuda
    from . import runtime
    if stream is None:
        stream = runtime.get_current_stream()
    if _backend.IS_SIM:
        return cuda.default_stream()
    if not stream.ptr:
        return cuda.legacy_default_stream()
    ns = getattr(stream, "_numba_stream", None)
    if ns is None:
        runtime.ensure_context(stream.device_id)
        ns = stream._numba_stream = cuda.external_stream(stream.ptr)
    return ns


# --- Numba's allocations from npgpu's pool ----------------------------------------------------
_plugin = []        # the EMM plugin class, made on first use (needs numba.cuda)
_new = object.__new__


def _plugin_class():
    if _plugin:
        return _plugin[0]
    from numba.cuda.cudadrv.driver import GetIpcHandleMixin, HostOnlyCUDAMemoryManager
    from numba.cuda.cudadrv.driver import MemoryInfo, MemoryPointer, _SizeNotSet
    from cuda.bindings.driver import CUdeviceptr
    from . import memory, runtime

    class NpgpuMemoryManager(GetIpcHandleMixin, HostOnlyCUDAMemoryManager):
        """Numba's device allocations from npgpu's pool (host allocations stay Numba's)."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            # what Numba's pointers hold (Numba also makes one manager with no context, to
            # check the plugin's interface version)
            ctx = self.context
            self._ctx_proxy = weakref.proxy(ctx) if ctx is not None else None

        def initialize(self):
            # Numba's deferred frees of host allocations flush at a fraction of this capacity
            # (what Numba's own manager sets)
            if self.deallocations.memory_capacity == _SizeNotSet:
                self.deallocations.memory_capacity = self.get_memory_info().total

        def memalloc(self, size):
            # one per cuda.device_array: the pool block lives as long as the pointer object.
            # PoolPointer.__init__ inlined: three stores, no second Python call
            p = _new(PoolPointer)
            p.context = self._ctx_proxy
            p.size = p._cuda_memsize_ = size
            p._npgpu_mem = memory.alloc(size)
            return p

        def get_memory_info(self):
            free, total = runtime.Device().mem_info
            return MemoryInfo(free=free, total=total)

        def reset(self):
            super().reset()
            memory.get_default_memory_pool().free_all_blocks()

        @property
        def interface_version(self):
            return 1

    class DevicePointer:
        """``device_pointer`` and ``handle`` of a :class:`PoolPointer`: the driver's
        ``CUdeviceptr``, made on the first read and then kept in the pointer's ``__dict__``
        (``cuda.device_array`` itself reads neither)."""

        def __get__(self, p, cls=None):
            if p is None:
                return self
            d = p.__dict__
            ptr = d["device_pointer"] = d["handle"] = CUdeviceptr(p._npgpu_mem.ptr)
            return ptr

    class PoolPointer(MemoryPointer):
        """Numba's ``MemoryPointer`` over a pool block, without Numba's ``weakref.finalize``
        (a few us an allocation): the pointer holds the npgpu
        :class:`~npgpu.cuda.memory.Memory`, which returns to the pool when the pointer dies
        (or at ``free()``), as a finalizer would return it.  What is the same for every
        pointer is a class attribute (``refct``: Numba's views count on the instance)."""

        is_managed = True               # it owns its block (as a pointer with a finalizer)
        refct = 1
        _owner = None
        device_pointer = handle = DevicePointer()

        def __init__(self, context, mem, size):
            self.context = context
            self.size = self._cuda_memsize_ = size
            self._npgpu_mem = mem

        def free(self):
            if self._npgpu_mem is None:
                raise RuntimeError("Freeing dead memory")
            self.device_pointer                 # noqa: B018 - the address outlives the block
            self._npgpu_mem = None

    _plugin.append(NpgpuMemoryManager)
    return NpgpuMemoryManager


def use_npgpu_allocator_in_numba():
    """Make npgpu's memory pool Numba's external memory manager (EMM plugin): ``cuda.device_array``
    and every other Numba device allocation then comes from npgpu's pool.

    Numba gives a memory manager to a context when it creates the context, so this must be
    called before Numba's first CUDA operation in the process (``RuntimeError`` otherwise).
    Calling it again is harmless.  On the simulator it does nothing (Numba's simulated
    allocations are NumPy arrays).

    It also gives Numba's context check around its top-level calls a fast path for contexts
    it has already checked (:mod:`npgpu.cuda.numba_context`; ``NPGPU_NUMBA_CONTEXT_CHECK=0``
    leaves Numba's own), and ``cuda.device_array`` one for requests it has seen
    (:mod:`npgpu.cuda.numba_device_array`; ``NPGPU_NUMBA_DEVICE_ARRAY=0``: not); measured in
    docs/kernels.md."""
    if _backend.IS_SIM:
        return
    _backend.require()
    from numba.cuda.cudadrv import driver as nd
    cls = _plugin_class()
    if nd._memory_manager is cls:
        return
    made = [d for d in nd.driver.devices.values() if d.primary_context is not None] \
        if nd.driver.is_initialized else []
    if made:
        raise RuntimeError(
            "use_npgpu_allocator_in_numba() was called after Numba created its CUDA context "
            f"(device {made[0].id}): Numba applies a memory manager only to contexts created "
            "after it is set. Call it before the first numba.cuda operation (device_array, "
            "to_device, a kernel launch).")
    nd.set_memory_manager(cls)
    if os.environ.get("NPGPU_NUMBA_CONTEXT_CHECK", "1") != "0":
        from . import numba_context
        check = numba_context.install()
        if os.environ.get("NPGPU_NUMBA_DEVICE_ARRAY", "1") != "0":
            from . import numba_device_array
            numba_device_array.install(check)
