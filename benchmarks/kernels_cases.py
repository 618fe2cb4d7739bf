"""Benchmark cases of issue 18 (user kernels): npgpu's ElementwiseKernel, ReductionKernel,
vectorize and RawKernel against CuPy's, and hand-written Numba kernels on npgpu arrays.

The first case installs npgpu's pool as Numba's memory manager (it must come before Numba's
first CUDA operation in the process); its note also carries the medians of 10^4 single
``device_array`` calls measured in two fresh processes, one with npgpu's pool and one with
Numba's default allocator (one process cannot hold both).  GPU-only cases (RawKernel, the
child processes) are left out under ``--smoke``."""
import json
import os
import subprocess
import sys

import numpy as np

import _timing

PEERS = ("npgpu", "cupy")

RAW = r"""
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

_CHILD = r"""
import json, statistics, sys, time
import numpy as np
import npgpu
if sys.argv[1] == "pool":
    npgpu.cuda.use_npgpu_allocator_in_numba()
from numba import cuda
for _ in range(100):
    cuda.device_array(256, np.float32)
ts = []
for _ in range(10000):
    t0 = time.perf_counter()
    cuda.device_array(256, np.float32)
    ts.append(time.perf_counter() - t0)
print(json.dumps(statistics.median(ts) * 1e6))
"""


def _child_median_us(mode):
    """Median µs of 10^4 ``cuda.device_array(256 f32)`` calls in a fresh process."""
    try:
        out = subprocess.run([sys.executable, "-c", _CHILD, mode], capture_output=True,
                             text=True, timeout=300, env=dict(os.environ))
        return float(json.loads(out.stdout.strip().splitlines()[-1]))
    except Exception as e:                      # noqa: BLE001 - shown in the note
        return f"{type(e).__name__}"


def _vec_body(x):
    # a branch: compiled, not traced (float32 in, float32 out under Numba's typing)
    if x > 0.5:
        return x * x
    return x - x * x


cuda = None          # numba.cuda, imported once npgpu has chosen the backend


def _numba_axpy():
    """A hand-written kernel (module level: the simulator swaps ``cuda`` among its globals)."""
    global cuda, _axpy
    if cuda is None:
        from numba import cuda as numba_cuda
        cuda = numba_cuda

        @cuda.jit
        def _axpy(x, y, z):
            i = cuda.grid(1)
            if i < z.shape[0]:
                z[i] = x[i] * 2 + y[i]
    return _axpy


def cases(cfg, api):
    Case, p2, H = api.Case, api.p2, api.H
    smoke = cfg["smoke"]
    n = 1 << 10 if smoke else 1 << 28
    small = 16
    f32 = np.float32
    a = lambda: H.rand(n, f32, "a")  # noqa: E731
    b = lambda: H.rand(n, f32, "b")  # noqa: E731
    out = []

    # -- Numba's allocations from npgpu's pool (first: before Numba's context exists) --------
    def alloc(lib):
        from numba import cuda
        note = "EMM: npgpu pool"
        try:
            lib.gp.cuda.use_npgpu_allocator_in_numba()
        except RuntimeError as e:
            note = f"EMM not installed here ({str(e)[:60]}...)"
        if not smoke:
            # the measure: the median of 10^4 single calls (allocation and the free
            # of the array dropped at once), here and in two fresh processes
            import statistics
            import time
            ts = []
            for _ in range(10000):
                t0 = time.perf_counter()
                cuda.device_array(256, f32)
                ts.append(time.perf_counter() - t0)
            note += (f"; median of 10^4 single calls here {statistics.median(ts) * 1e6:.2f} us,"
                     f" in fresh processes: pool {_child_median_us('pool')} us,"
                     f" Numba default {_child_median_us('default')} us")
        return (lambda: cuda.device_array(256, f32)), note
    out.append(Case("numba device_array(256 f32), npgpu pool", alloc, kind="call",
                    libs=("npgpu",)))

    # -- generated kernels against CuPy's --------------------------------------------------
    def ewk(lib):
        x, y = lib.put(a()), lib.put(b())
        k = lib.xp.ElementwiseKernel("T x, T y", "T z", "z = x * 2 + y", "axpy_bench")
        return lambda: k(x, y)
    out.append(Case(f"ElementwiseKernel z = x * 2 + y f32 {p2(n)}", ewk, nbytes=3 * 4 * n,
                    libs=PEERS))

    def rdk(lib):
        x = lib.put(a())
        k = lib.xp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq_bench")
        return lambda: k(x)
    out.append(Case(f"ReductionKernel sum(x * x) f32 {p2(n)}", rdk, nbytes=4 * n, libs=PEERS))

    def vec(lib):
        x = lib.put(a())
        f = lib.xp.vectorize(_vec_body)
        return lambda: f(x)
    out.append(Case(f"vectorize (branchy x -> x*x | x - x*x) f32 {p2(n)}", vec,
                    nbytes=2 * 4 * n, libs=PEERS))

    # -- RawKernel per call (GPU only) -----------------------------------------------------
    if not smoke:
        def raw(lib):
            x, y = lib.put(H.rand(small, f32, "a")), lib.put(H.rand(small, f32, "b"))
            k = lib.xp.RawKernel(RAW, "axpy")
            args = (x, y, f32(2), np.int32(small))
            return lambda: k((1,), (32,), args)
        out.append(Case(f"RawKernel axpy f32 {small} (per call)", raw, kind="call",
                        libs=PEERS))

    # -- a hand-written Numba kernel: npgpu arrays against Numba's own ----------------------
    def numba_kernel(on):
        def make(lib):
            axpy = _numba_axpy()
            hx, hy = H.rand(small, f32, "a"), H.rand(small, f32, "b")
            if on == "npgpu":
                x, y, z = lib.put(hx), lib.put(hy), lib.gp.empty(small, f32)
            else:
                x, y = cuda.to_device(hx), cuda.to_device(hy)   # (cuda: set by _numba_axpy)
                z = cuda.device_array(small, f32)
            fn = lambda: axpy[1, 32](x, y, z)  # noqa: E731
            if on != "npgpu" or smoke:
                return fn
            # the comparison, both kinds of arrays taking turns in one measurement (as
            # separate rows, minutes apart, the host's drift decides it)
            nx, ny = cuda.to_device(hx), cuda.to_device(hy)
            nz = cuda.device_array(small, f32)
            both = _timing.time_per_call_interleaved(
                {"npgpu": (lib, fn), "numba": (lib, lambda: axpy[1, 32](nx, ny, nz))},
                2000, 50, rounds=9)
            if any("time_s" not in both[k] for k in both):
                return fn, f"taking turns failed: {both}"
            a_us, b_us = (both[k]["time_s"] * 1e6 for k in ("npgpu", "numba"))
            return fn, (f"taking turns (9 rounds of 2000): npgpu arrays {a_us:.2f} us, Numba's "
                        f"arrays {b_us:.2f} us, ratio {a_us / b_us:.3f}")
        return make
    out.append(Case(f"numba kernel on npgpu arrays f32 {small} (per call)",
                    numba_kernel("npgpu"), kind="call", libs=("npgpu",)))
    out.append(Case(f"numba kernel on numba device arrays f32 {small} (per call)",
                    numba_kernel("numba"), kind="call", libs=("npgpu",)))
    return out
