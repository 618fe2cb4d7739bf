"""How close ``random`` of 2^28 float32 can come to the write bandwidth (issue 15's >= 90%
target), and what holds it back: the same bytes written by the driver's memset, by npgpu's
fill kernel and by three CUDA C kernels storing 4, 8 or 16 bytes a thread in a grid-stride loop
over the resident grid (the write-only ceilings: does a write-only kernel need wide stores?),
the raw words of the stream (Philox and the stores, no
float conversion), and ``random`` itself with other block sizes and with element stores instead
of a block's one 16-byte store (``kernels.store_width``), beside CuPy's and PyTorch's
generators.  Variants take
turns in 3 rounds; % of the copy bandwidth measured here, counting the output written once.

    python3 benchmarks/experiments/random_write_parts.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, cl, copy_bandwidth, fresh, gl, gp, pct, rounds, timer, tl  # noqa: E402
from npgpu._core.transfer import zero  # noqa: E402
from npgpu.random import kernels as K  # noqa: E402

t = timer(20, 2.0)
n = 1 << (28 - SHIFT)
bw = copy_bandwidth(t)
g = gp.random.default_rng(1)
out = gp.empty(n, np.float32)
default = (K._THREADS_LANES, True)
_width = K.store_width
STORES = r"""
extern "C" __global__ void w4(float* o, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) o[i] = 1.5f;
}
extern "C" __global__ void w8(float2* o, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) o[i] = make_float2(1.5f, 1.5f);
}
extern "C" __global__ void w16(float4* o, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x)
        o[i] = make_float4(1.5f, 1.5f, 1.5f, 1.5f);
}
"""
SMS = gp.cuda.runtime.sm_count()


def use(threads, wide):
    K._THREADS_LANES = threads
    K.store_width = _width if wide else (lambda out_dt, per: 0)
    K._PLANS.clear()
    K._RESIDENT.clear()
    fresh()


def run(v):
    if v == "memset":
        return t(gl, lambda: zero(out._ptr, 4 * n)), ""
    if v == "fill 1.5":
        return t(gl, lambda: out.fill(1.5)), ""
    if v == "cupy":
        cg = cl.cp.random.default_rng(1)
        return t(cl, lambda: cg.random(n, dtype=np.float32)), ""
    if v == "torch":
        tt = tl.torch
        return t(tl, lambda: tt.rand(n, dtype=tt.float32, device="cuda")), ""
    if v[0] == "store":
        width, grid = v[1], v[2]
        k = gp.RawKernel(STORES, f"w{width}")
        args = (out, np.uint64(4 * n // width))
        s = t(gl, lambda: k((grid,), (256,), args))
        x = out.get()
        return s, "ok" if (x == 1.5).all() else "WRONG RESULT"
    kind, threads, wide = v
    use(threads, wide)
    if kind == "raw":
        fn = lambda: K.raw_words(g.bit_generator, n)      # noqa: E731
    elif kind == "random f64":                            # the same bytes: 2^27 float64
        o64 = out.view(np.float64)
        fn = lambda: g.random(out=o64)                    # noqa: E731
    else:
        fn = lambda: g.random(dtype=np.float32, out=out)  # noqa: E731
    s = t(gl, fn)
    x = g.random(1 << 16, dtype=np.float32).get()
    ok = 0.45 < x.mean() < 0.55 and x.min() >= 0 and x.max() < 1
    use(*default)
    return s, "ok" if ok else "WRONG RESULT"


variants = ["memset", "fill 1.5", ("store", 4, 8 * SMS), ("store", 8, 8 * SMS),
            ("store", 16, 8 * SMS), ("store", 4, 4 * n // 4 // 256), ("store", 16, n // 4 // 256),
            ("raw", 1024, True), ("random", 256, True), ("random", 1024, True),
            ("random f64", 1024, True), ("random", 1024, False), "cupy", "torch"]
print(f"2^{28 - SHIFT} float32: {4 * n / 1e6:.0f} MB written", flush=True)
rounds(variants, run, lambda s: pct(bw, 4 * n, s))
