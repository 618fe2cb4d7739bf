"""Make the CUDA simulator's ``cuda.shared.array`` thread-safe (simulator only).

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
