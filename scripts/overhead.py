"""Per-call host overhead of the tiny-op path, step by step (GPU)."""
import time
import numpy as np
import npgpu as gp
from npgpu._core.ndarray import empty_array
from npgpu.cuda import memory

def bench(f, n=20000):
    for _ in range(500): f()
    gp.cuda.Device().synchronize()
    best = 1e9
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(n): f()
        gp.cuda.Device().synchronize()
        best = min(best, (time.perf_counter() - t) / n * 1e6)
    return round(best, 2)

a = gp.asarray(np.arange(16, dtype=np.float32)); b = gp.asarray(np.arange(16, dtype=np.float32))
c = a + b
kern, odt = gp.add._plans[(a.dtype, b.dtype)]
vals = (16, 0, 0, 16, 4, c._ptr, 16, 4, 0, 0, 16, 4, a._ptr, 16, 4, 0, 0, 16, 4, b._ptr, 16, 4)
dt = np.dtype(np.float32)
pool = gp.get_default_memory_pool()
print("alloc 64B", bench(lambda: memory.alloc(64)))
print("empty_array", bench(lambda: empty_array((16,), dt)))
print("gp.empty(16)", bench(lambda: gp.empty(16, np.float32)))
print("launcher only", bench(lambda: kern(1, 256, vals)))
print("pack only", bench(lambda: kern._pack(kern._buf, 0, *vals)))
from npgpu.cuda import _driver as drv
f, p = kern._func, kern._ptrs_addr
print("raw ctypes cuLaunchKernel", bench(lambda: drv.cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, 0, p, None)))
print("gp.add(a,b)", bench(lambda: gp.add(a, b)))
print("a+b", bench(lambda: a + b))
try:
    import cupy as cp
    ca = cp.arange(16, dtype=cp.float32); cb = cp.arange(16, dtype=cp.float32)
    def cb_(): ca + cb
    t = time.perf_counter()
    for _ in range(500): ca + cb
    cp.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(20000): ca + cb
    cp.cuda.Device().synchronize()
    print("cupy a+b", round((time.perf_counter() - t) / 20000 * 1e6, 2))
    t = time.perf_counter()
    for _ in range(20000): cp.empty(16, cp.float32)
    print("cupy empty", round((time.perf_counter() - t) / 20000 * 1e6, 2))
except Exception as e:
    print("cupy:", e)
