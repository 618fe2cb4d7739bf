"""A fast path for ``numba.cuda.device_array`` once npgpu's pool is Numba's memory manager.

Numba's ``device_array`` spends most of a pooled allocation in Python it repeats for every call
of the same request: its context check around the call, the shape, strides and dtype
normalised (``prepare_shape_strides_dtype``, then the array's own loop over the shape), the
layout model (``dummyarray.Array``, which its views and reshapes derive from) looked up, the
buffer size computed, the context looked up again (H200: a pooled call 6-11 us before, 4.0-4.6
us in fresh processes after, Numba's default allocator 30-36 us; ``benchmarks/kernels_cases.py``).
:func:`install` replaces it by a function that, for a request seen before (the same shape of
ints, dtype, order and no strides), copies the array's fields from the first array Numba made
for it and takes a new block from the pool; the layout model is shared between such arrays
(Numba shares it too, and never changes it).  Any other request, a size-0 array, or a thread
whose current context Numba's check has not accepted yet (:mod:`.numba_context`) goes through
Numba's own function.
``NPGPU_NUMBA_DEVICE_ARRAY=0`` leaves Numba's function in place.
"""
import numpy as np

__all__ = ["fast_device_array", "install"]

_FIELDS = ("ndim", "_dummy", "shape", "strides", "dtype", "size", "alloc_size")
_ALL_FIELDS = frozenset(_FIELDS + ("gpu_data", "stream"))
_KEEP = 256         # requests remembered (a program allocates few distinct shapes)


def fast_device_array(slow, cls, check):
    """A stand-in for ``numba.cuda.device_array`` (module docstring): ``slow`` is Numba's own,
    ``cls`` its ``DeviceNDArray``, ``check`` the installed
    :class:`~npgpu.cuda.numba_context.ContextCheck` (its current-context read and the contexts
    it has accepted).  A closure, not an object with ``__call__``: ~0.6 us less a call on the
    CPU machine.  ``device_array.templates``: the requests seen; ``device_array.slow``:
    Numba's function."""
    templates = {}
    current, known = check.current, check.known
    new = cls.__new__

    def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
        if strides is None:
            t = type(shape)
            # exact ints only: a float shape hashes as the int it equals, and must raise
            if t is int or (t is tuple and all(type(s) is int for s in shape)):
                try:
                    tpl = templates.get((shape, dtype, order))
                except TypeError:           # an unhashable dtype spec
                    tpl = None
                if tpl is not None:
                    ctx = known.get(current())
                    if ctx is not None and ctx.device.primary_context is ctx:
                        arr = new(cls)
                        d = arr.__dict__ = tpl.copy()
                        d["gpu_data"] = ctx.memory_manager.memalloc(d["alloc_size"])
                        d["stream"] = stream
                        return arr
                arr = slow(shape, dtype, strides, order, stream)
                # (only an array with exactly the fields this copies: another numba-cuda may
                # set more in its constructor, which its arrays would then lack)
                if (tpl is None and arr.size and len(templates) < _KEEP
                        and arr.__dict__.keys() == _ALL_FIELDS):
                    try:
                        templates[(shape, dtype, order)] = {
                            f: arr.__dict__[f] for f in _FIELDS}
                    except TypeError:
                        pass
                return arr
        return slow(shape, dtype, strides, order, stream)

    device_array.templates = templates
    device_array.slow = device_array.__wrapped__ = slow
    device_array.__doc__ = slow.__doc__
    device_array.npgpu_fast_path = True
    return device_array


def install(check):
    """Put :func:`fast_device_array` in place of ``numba.cuda.device_array`` (once), over the
    context check ``check``."""
    import numba.cuda as nc
    from numba.cuda import api
    from numba.cuda.cudadrv.devicearray import DeviceNDArray
    if getattr(api.device_array, "npgpu_fast_path", False):
        return
    fast = fast_device_array(api.device_array, DeviceNDArray, check)
    # (api's own callers, e.g. device_array_like, look the module's name up at each call)
    api.device_array = fast
    if getattr(nc, "device_array", None) is fast.slow:
        nc.device_array = fast
