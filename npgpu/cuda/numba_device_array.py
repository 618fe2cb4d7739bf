"""A fast path for ``numba.cuda.device_array`` once npgpu's pool is Numba's memory manager.

Numba's ``device_array`` spends most of a pooled allocation in Python it repeats for every call
of the same request: the shape, strides and dtype normalised, a ``dummyarray.Array`` (the
layout model its views and reshapes derive from) built dimension by dimension, the buffer size
computed, the context looked up (H200 host: ~4 of a pooled call's 7-11 us, Numba's default
allocator 32 us; ``benchmarks/kernels_cases.py``).  :func:`install` replaces it by a function
that, for a request seen before (the same shape of ints, dtype, order and no strides), copies
the array's fields from the first array Numba made for it and takes a new block from the
pool; the layout model is shared between such arrays (Numba derives new ones from it and
never changes it).  Any other request, a size-0 array, or a thread whose current context
Numba's check has not accepted yet (:mod:`.numba_context`) goes through Numba's own function.
``NPGPU_NUMBA_DEVICE_ARRAY=0`` leaves Numba's function in place.
"""
import numpy as np

__all__ = ["FastDeviceArray", "install"]

_FIELDS = ("ndim", "_dummy", "shape", "strides", "dtype", "size", "alloc_size")
_KEEP = 256         # requests remembered (a program allocates few distinct shapes)


class FastDeviceArray:
    """Stands in for ``numba.cuda.device_array`` (module docstring).  ``slow``: Numba's own;
    ``cls``: its ``DeviceNDArray``; ``check``: the installed
    :class:`~npgpu.cuda.numba_context.ContextCheck` (its current-context read and the contexts
    it has accepted)."""

    def __init__(self, slow, cls, check):
        self.slow, self.cls, self.check = slow, cls, check
        self.templates = {}
        self.__wrapped__ = slow
        self.__doc__ = slow.__doc__

    def __call__(self, shape, dtype=np.float64, strides=None, order="C", stream=0):
        if strides is None:
            t = type(shape)
            # exact ints only: a float shape hashes as the int it equals, and must raise
            if t is int or (t is tuple and all(type(s) is int for s in shape)):
                try:
                    tpl = self.templates.get((shape, dtype, order))
                except TypeError:           # an unhashable dtype spec
                    tpl = None
                if tpl is not None:
                    c = self.check
                    h = c.current()
                    ctx = c.known.get(h) if h else None
                    if ctx is not None and ctx.device.primary_context is ctx:
                        arr = self.cls.__new__(self.cls)
                        d = arr.__dict__
                        d.update(tpl)
                        d["gpu_data"] = ctx.memory_manager.memalloc(tpl["alloc_size"])
                        d["stream"] = stream
                        return arr
                arr = self.slow(shape, dtype, strides, order, stream)
                if tpl is None and arr.size and len(self.templates) < _KEEP:
                    try:
                        self.templates[(shape, dtype, order)] = {
                            f: arr.__dict__[f] for f in _FIELDS}
                    except TypeError:
                        pass
                return arr
        return self.slow(shape, dtype, strides, order, stream)


def install(check):
    """Put :class:`FastDeviceArray` in place of ``numba.cuda.device_array`` (once), over the
    context check ``check``."""
    import numba.cuda as nc
    from numba.cuda import api
    from numba.cuda.cudadrv.devicearray import DeviceNDArray
    if isinstance(api.device_array, FastDeviceArray):
        return
    fast = FastDeviceArray(api.device_array, DeviceNDArray, check)
    # (api's own callers, e.g. device_array_like, look the module's name up at each call)
    api.device_array = fast
    if getattr(nc, "device_array", None) is fast.slow:
        nc.device_array = fast
