"""Quick check of the real-CUDA path: backend, pool, copies, ufunc launch, overheads."""
import os, sys, time, json
t0 = time.perf_counter()
import numpy as np
import npgpu as gp
t_import = time.perf_counter() - t0
print("backend", gp.backend(), "import s", round(t_import, 3), flush=True)
t0 = time.perf_counter(); x = gp.empty(1); t_ctx = time.perf_counter() - t0
print("first alloc (ctx) s", round(t_ctx, 3), flush=True)
rng = np.random.default_rng(0)
a = rng.standard_normal((3, 4)).astype(np.float32); b = rng.standard_normal(4).astype(np.float32)
A, B = gp.asarray(a), gp.asarray(b)
t0 = time.perf_counter(); C = A + B; gp.cuda.Device().synchronize(); print("first kernel s", round(time.perf_counter() - t0, 3), flush=True)
t0 = time.perf_counter(); D = A - B; gp.cuda.Device().synchronize(); print("second kernel s", round(time.perf_counter() - t0, 3), flush=True)
assert np.allclose(C.get(), a + b)
assert np.allclose((A.T[::-1] * 2.5).get(), a.T[::-1] * 2.5)
i8 = gp.asarray(np.array([100, -100, 5], np.int8)); print((i8 + 100).get())
h = gp.asarray(np.array([1, 2, 3], np.float16)); print((h / 3).get())
print(gp.exp(gp.asarray(np.array([1 + 1j]))).get(), np.exp(1 + 1j))
print(gp.sin(A).get() - np.sin(a))
z = gp.zeros((2, 3), dtype=np.int16); z[1] = 7; print(z.get())
print(gp._codegen.stats)
# per-call overheads
s = gp.asarray(rng.standard_normal(16).astype(np.float32))
for f, name in ((lambda: gp.empty(16, np.float32), "empty16"), (lambda: s + s, "add16")):
    for _ in range(200): f()
    gp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    for _ in range(5000): f()
    gp.cuda.Device().synchronize()
    print(name, "us/call", round((time.perf_counter() - t0) / 5000 * 1e6, 2), flush=True)
# bandwidth of a+b float32 2^28
n = 2 ** 28
a = gp.asarray(rng.standard_normal(n, dtype=np.float32)); b = gp.asarray(rng.standard_normal(n, dtype=np.float32))
o = gp.empty(n, np.float32)
for _ in range(3): gp.add(a, b, out=o)
e0, e1 = gp.cuda.Event(), gp.cuda.Event()
ts = []
for _ in range(20):
    e0.record(); gp.add(a, b, out=o); e1.record(); e1.synchronize(); ts.append(gp.cuda.get_elapsed_time(e0, e1))
ms = float(np.median(ts)); print("add f32 2^28 ms", ms, "TB/s", 3 * 4 * n / ms / 1e9, flush=True)
assert np.allclose(o[:1000].get(), a[:1000].get() + b[:1000].get())
try:
    import cupy as cp
    ca = cp.asarray(a.get()); cb = cp.asarray(b.get()); co = cp.empty_like(ca)
    for _ in range(3): cp.add(ca, cb, out=co)
    s0, s1 = cp.cuda.Event(), cp.cuda.Event(); ts = []
    for _ in range(20):
        s0.record(); cp.add(ca, cb, out=co); s1.record(); s1.synchronize(); ts.append(cp.cuda.get_elapsed_time(s0, s1))
    print("cupy add ms", float(np.median(ts)))
    cs = cp.asarray(s.get())
    for _ in range(200): cs + cs
    cp.cuda.Device().synchronize(); t0 = time.perf_counter()
    for _ in range(5000): cs + cs
    cp.cuda.Device().synchronize(); print("cupy add16 us", (time.perf_counter() - t0) / 5000 * 1e6)
    t0 = time.perf_counter()
    for _ in range(5000): cp.empty(16, cp.float32)
    print("cupy empty16 us", (time.perf_counter() - t0) / 5000 * 1e6)
except Exception as e:
    print("cupy failed", e)
