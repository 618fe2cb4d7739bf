"""cProfile of one tiny call repeated: which Python functions a per-call case spends its time in.

Run: ``python3 benchmarks/experiments/host_profile.py [CASE ...] [--calls N] [--top K]``.
Each case is set up, called 500 times unprofiled (compiles, caches), then ``N`` times under
cProfile; the table lists the top ``K`` functions by own time (µs per call of the case).
Cases needing PyTorch are skipped where it is missing; the rest run on the simulator too.
"""
import argparse
import cProfile
import os
import pstats
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import npgpu as gp  # noqa: E402


def _torch():
    import torch
    return torch


def dlpack_round():
    torch = _torch()
    x = gp.arange(16, dtype=np.float32)
    return lambda: gp.from_dlpack(torch.from_dlpack(x))


def to_torch():
    torch = _torch()
    x = gp.arange(16, dtype=np.float32)
    return lambda: torch.from_dlpack(x)


def from_torch():
    torch = _torch()
    t = torch.arange(16, dtype=torch.float32, device="cuda")
    return lambda: gp.from_dlpack(t)


def tiny_fuse():
    @gp.fuse
    def saxpy(a, x, y):
        return a * x + y
    x, y = gp.arange(16, dtype=np.float32), gp.ones(16, dtype=np.float32)
    return lambda: saxpy(np.float32(2), x, y)


def tiny_gather():
    a = gp.arange(16, dtype=np.float32)
    idx = gp.asarray(np.array([3, 1, 4, 1]))
    return lambda: a[idx]


cuda = None        # numba.cuda once imported (a module global: the simulator swaps it there)


def _numba_axpy(on_npgpu):
    """A hand-written Numba kernel on npgpu arrays or on Numba's own device arrays."""
    global cuda
    from numba import cuda

    @cuda.jit
    def axpy(o, x, y):
        i = cuda.grid(1)
        if i < o.size:
            o[i] = 2 * x[i] + y[i]
    h = np.arange(16, dtype=np.float32)
    x, y, o = (gp.asarray(h) if on_npgpu else cuda.to_device(h) for _ in range(3))
    return lambda: axpy[1, 32](o, x, y)


def numba_on_npgpu():
    return _numba_axpy(True)


def numba_on_numba():
    """The same kernel on Numba's own device arrays: the reference the issue compares with."""
    return _numba_axpy(False)


def device_array_pool():
    """``numba.cuda.device_array`` served by npgpu's pool (run it first in its process: the
    allocator must be installed before Numba's first CUDA call)."""
    gp.cuda.use_npgpu_allocator_in_numba()
    from numba import cuda
    return lambda: cuda.device_array(256, np.float32)


def raw_kernel():
    k = gp.RawKernel(r'''
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}''', "axpy")
    x, y = gp.arange(16, dtype=np.float32), gp.ones(16, dtype=np.float32)
    args = (x, y, np.float32(2), np.int32(16))
    return lambda: k((1,), (32,), args)


def tiny_add():
    x = gp.arange(16, dtype=np.float32)
    return lambda: x + x


def tiny_sum():
    x = gp.arange(16, dtype=np.float32)
    return lambda: x.sum()


def spmv_small():
    """``A @ x`` of a CSR float32 matrix of 2^12 rows, 16 nonzeros a row: host-bound (the
    benchmark's 2^22 rows spend the same host time before a 500 us kernel)."""
    rng = np.random.default_rng(0)
    m = 1 << 12
    p = np.arange(0, 16 * m + 1, 16, dtype=np.int32)
    j = rng.integers(0, m, 16 * m).astype(np.int32)
    a = gp.scipy.sparse.csr_matrix((gp.asarray(rng.random(16 * m, np.float32)), gp.asarray(j),
                                    gp.asarray(p)), shape=(m, m))
    x = gp.asarray(rng.random(m, np.float32))
    return lambda: a @ x


def fft2_8192():
    """The fft2 benchmark case's size: any host step that waits on the GPU shows up here."""
    side = 32 if gp.backend() != "cuda" else 8192
    c = gp.ones((side, side), dtype=np.complex64)
    return lambda: gp.fft.fft2(c)


def histogram_256():
    """The sorting benchmark's histogram (256 bins, range found on the device) of 2^22 float32
    (2^26 in the benchmark): the ~150 us between its launches and the end of the call."""
    x = gp.asarray(np.random.default_rng(0).random(1 << (22 if gp.backend() == "cuda" else 10),
                                                   np.float32))
    return lambda: gp.histogram(x, bins=256)


CASES = {f.__name__: f for f in (dlpack_round, to_torch, from_torch, tiny_fuse, tiny_gather,
                                 numba_on_npgpu, numba_on_numba, device_array_pool, raw_kernel,
                                 tiny_add, tiny_sum, spmv_small, fft2_8192, histogram_256)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", choices=[[]] + list(CASES), default=[])
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--top", type=int, default=18)
    args = ap.parse_args()
    for name in args.cases or list(CASES):
        try:
            f = CASES[name]()
        except ImportError as e:
            print(f"== {name}: skipped ({e})")
            continue
        for _ in range(min(500, args.calls)):
            f()
        gp.cuda.Device().synchronize()
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(args.calls):
            f()
        prof.disable()
        gp.cuda.Device().synchronize()
        st = pstats.Stats(prof)
        total = sum(v[2] for v in st.stats.values()) / args.calls * 1e6
        print(f"== {name}: {total:.2f} µs own time per call under cProfile; top by own time")
        rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:args.top]
        for (fn, line, func), (cc, nc, tt, ct, _) in rows:
            print(f"  {tt / args.calls * 1e6:7.2f} µs  {ct / args.calls * 1e6:7.2f} cum  "
                  f"{nc / args.calls:5.1f}x  {os.path.basename(fn)}:{line} {func}")


if __name__ == "__main__":
    main()
