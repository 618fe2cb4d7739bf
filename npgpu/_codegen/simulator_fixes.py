"""Simulator fixes: a thread-safe ``cuda.shared.array``, and stand-ins for libdevice bitcasts.

``LIBDEVICE_BITS`` replaces ``libdevice`` in the namespace of kernels run on the
simulator, whose own libdevice functions are stubs returning None.  Only the
bit reinterpretations kernels use are provided (``int_as_float``,
``float_as_int``, ``longlong_as_double``, ``double_as_longlong``); anything
else raises AttributeError.

The shared-array fix:

Numba's simulator runs each CUDA thread as an OS thread and finds a block's
shared array by the calling source line in a dict, without a lock: two threads
that reach the line together can each create their own array, so "shared"
memory silently is not shared and block reductions/scans give wrong results now
and then.  This wraps the lookup in a lock (same keying, same semantics).
Kernels for the GPU are unaffected.  Installed by the compiler before the first
simulated kernel runs.
"""
import sys
import threading

_lock = threading.Lock()


def install():
    from numba.cuda.simulator import kernelapi
    from numba.cuda.simulator.kernelapi import FakeCUDAShared

    if getattr(FakeCUDAShared.array, "_npgpu_locked", False):
        return
    np = kernelapi.np
    numpy_support = kernelapi.numpy_support
    types = kernelapi.types
    original = FakeCUDAShared.array

    def array(self, shape, dtype, alignment=None):
        if alignment is not None or shape == 0:
            return original(self, shape, dtype, alignment)
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


def _reinterpret(src, dst):
    """A function giving the bits of a ``src`` value read as ``dst`` (both NumPy dtypes)."""
    def f(v):
        import numpy as np
        return np.asarray(v).astype(src).view(dst)[()]
    return f


class _LibdeviceBits:
    """The simulator's ``libdevice``: NumPy views that reinterpret bits, as the GPU's do."""
    int_as_float = staticmethod(_reinterpret("int32", "float32"))
    float_as_int = staticmethod(_reinterpret("float32", "int32"))
    longlong_as_double = staticmethod(_reinterpret("int64", "float64"))
    double_as_longlong = staticmethod(_reinterpret("float64", "int64"))


LIBDEVICE_BITS = _LibdeviceBits()
