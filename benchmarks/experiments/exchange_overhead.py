"""Host microseconds per step of zero-copy exchange and user-kernel calls (issues 18 and 19).

Run: ``python3 benchmarks/experiments/exchange_overhead.py [--numba-default]`` (GPU or
simulator).  On the GPU npgpu's pool is installed as Numba's memory manager first (the
``device_array`` row), unless ``--numba-default`` keeps Numba's own allocator.

Each row is the best of 25 batches of back-to-back calls (no synchronisation: these steps queue
no device work, except the launches, which are host-bound at 16 elements).  Consumers and
producers are called the way PyTorch calls them (``__dlpack_device__``, then
``__dlpack__(stream=1, max_version=(1, 0))``; ``as_tensor`` reads
``__cuda_array_interface__``).  On the simulator NumPy stands in for the peer library (its
``from_dlpack`` is a C consumer, its ``__dlpack__`` a C producer with a C deleter: npgpu's
simulated device memory is host memory); on the GPU PyTorch rows are added when it is
installed.  Numba rows: typing and argument views of a kernel argument (what Numba's launcher
reads), then whole launches on the GPU.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import npgpu as gp  # noqa: E402
from host_overhead import bench as _host_bench  # noqa: E402

N = 16
RAW = r"""
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


def bench(f, n=4000, batches=25):
    """Best host microseconds per call of ``f`` (host_overhead.py's timer, no device sync)."""
    return _host_bench(f, n, batches, lambda: None)


# the DLPack-only wrapper of the benchmark cases
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from exchange_cases import _Wrapped as Wrapped  # noqa: E402


class CAIProperty:
    """``__cuda_array_interface__`` of ``a`` as a property read anew each time (as PyTorch's)."""

    def __init__(self, a):
        self.a = a

    @property
    def __cuda_array_interface__(self):
        return self.a.__cuda_array_interface__


class CAI:
    """A foreign array that only has ``__cuda_array_interface__`` (a v3 dict with a stream)."""

    def __init__(self, d):
        self.__cuda_array_interface__ = d


def rows():
    x = gp.arange(N, dtype=np.float32)
    w = Wrapped(x)
    sim = gp.backend() == "simulator"
    foreign = CAI(dict(x.__cuda_array_interface__, stream=1))
    prop = CAIProperty(x)
    out = [
        ("__dlpack_device__", lambda: x.__dlpack_device__()),
        ("__dlpack__(stream=1, max_version=(1, 0)), unconsumed",
         lambda: x.__dlpack__(stream=1, max_version=(1, 0))),
        ("__dlpack__(stream=1) legacy, unconsumed", lambda: x.__dlpack__(stream=1)),
        ("from_dlpack(wrapper of npgpu array)", lambda: gp.from_dlpack(w)),
        ("__cuda_array_interface__", lambda: x.__cuda_array_interface__),
        ("asarray(CAI object, stream 1)", lambda: gp.asarray(foreign)),
        ("asarray(CAI property of an npgpu array)", lambda: gp.asarray(prop)),
    ]
    if sim:
        h = np.arange(N, dtype=np.float32)
        out += [("numpy.from_dlpack(npgpu array) (C consumer)", lambda: np.from_dlpack(x)),
                ("npgpu.from_dlpack(numpy array) (C producer)", lambda: gp.from_dlpack(h)),
                ("npgpu -> numpy -> npgpu (DLPack)",
                 lambda: gp.from_dlpack(np.from_dlpack(x)))]
    out += [("_numba_type_ (read twice, as Numba's typeof)",
             lambda: (x._numba_type_, x._numba_type_)),
            ("device_ctypes_pointer", lambda: x.device_ctypes_pointer)]
    if not sim:       # Numba's simulator has no memory-view shim classes
        out.append(("_strided_memory_view_shim", lambda: x._strided_memory_view_shim))
    try:
        k = gp.RawKernel(RAW, "axpy").compile()
        y = gp.arange(N, dtype=np.float32)
        args = (x, y, np.float32(2), np.int32(N))
        fn = k._fn
        out.append(("RawKernel argument packing (4 args)", lambda: fn.pack(args, "axpy")))
        if not sim:
            out.append(("RawKernel axpy call", lambda: k((1,), (32,), args)))
    except Exception as e:                       # noqa: BLE001 - no NVRTC here
        print(f"(RawKernel rows skipped: {type(e).__name__}: {e})")
    out += _peer_rows(x, sim)
    return out


def _peer_rows(x, sim):
    out = []
    from numba import cuda

    @cuda.jit
    def axpy(a, b, c):
        i = cuda.grid(1)
        if i < c.shape[0]:
            c[i] = a[i] * 2 + b[i]
    y, z = gp.arange(N, dtype=np.float32), gp.empty(N, np.float32)
    if not sim:
        nx, ny, nz = (cuda.to_device(np.arange(N, dtype=np.float32)) for _ in range(3))
        out += [("numba kernel on npgpu arrays", lambda: axpy[1, 32](x, y, z)),
                ("numba kernel on numba arrays", lambda: axpy[1, 32](nx, ny, nz)),
                ("numba device_array(256 f32)", lambda: cuda.device_array(256, np.float32))]
    try:
        import torch
    except ImportError:
        return out
    if sim or not torch.cuda.is_available():
        return out
    t = torch.arange(N, dtype=torch.float32, device="cuda")
    out += [("torch.from_dlpack(npgpu)", lambda: torch.from_dlpack(x)),
            ("npgpu.from_dlpack(torch)", lambda: gp.from_dlpack(t)),
            ("torch.as_tensor(npgpu) (CAI)", lambda: torch.as_tensor(x, device="cuda")),
            ("npgpu.asarray(torch) (CAI)", lambda: gp.asarray(t)),
            ("npgpu -> torch -> npgpu (DLPack)", lambda: gp.from_dlpack(torch.from_dlpack(x))),
            ("npgpu -> torch -> npgpu (CAI)",
             lambda: gp.asarray(torch.as_tensor(x, device="cuda"))),
            ("torch's own __dlpack__ (unconsumed)", lambda: t.__dlpack__(stream=1))]
    return out


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--numba-default", action="store_true",
                    help="keep Numba's own allocator for cuda.device_array")
    if not ap.parse_args().numba_default:
        gp.cuda.use_npgpu_allocator_in_numba()      # before Numba's first CUDA operation
    print(f"backend: {gp.backend()}")
    for name, f in rows():
        print(f"{name:56s} {bench(f):7.2f} us", flush=True)


if __name__ == "__main__":
    main()
