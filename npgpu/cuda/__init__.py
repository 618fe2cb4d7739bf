"""npgpu's CUDA runtime: devices, streams, events, the memory pool, pinned host memory."""
from .errors import CUDADriverError, OutOfMemoryError
from .memory import (Memory, MemoryPool, PinnedArray, PinnedMemory, alloc_pinned_memory,
                     get_allocator, get_default_memory_pool, is_pinned, malloc_device,
                     malloc_managed, pinned_empty, set_allocator)
from .numba_interop import as_numba_stream, use_npgpu_allocator_in_numba
from .runtime import (Device, Event, Stream, get_current_stream, get_device_count,
                      get_elapsed_time)

__all__ = ["CUDADriverError", "OutOfMemoryError", "Memory", "MemoryPool", "PinnedArray",
           "PinnedMemory", "alloc_pinned_memory", "get_allocator", "get_default_memory_pool",
           "is_pinned", "malloc_device", "malloc_managed", "pinned_empty", "set_allocator",
           "Device", "Event", "Stream", "get_current_stream", "get_device_count",
           "get_elapsed_time", "as_numba_stream", "use_npgpu_allocator_in_numba"]
