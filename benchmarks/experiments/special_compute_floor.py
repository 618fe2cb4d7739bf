"""Are the slow special functions bound by memory or by instructions?  (issue 25: each at >= 95%
of copy bandwidth.)  Each case of benchmarks/scipy_special_cases.py (same value ranges) is
timed at the benchmark's size (2^28 float32, 2^27 float64: DRAM) and at sizes whose input and
output stay in L2 (2^20 and 2^21 float32, 2^19 and 2^20 float64: 20 calls queued behind a 1 GiB
copy, between one pair of events): the slope between those two is the kernel's instruction work
an element alone (a launch's fixed cost, its first and last wave, cancels).  Printed per case:

* ``dram``: the benchmark's time and % of copy bandwidth;
* ``compute``: picoseconds an element on L2-resident data, and ``ceiling``, the % of copy
  bandwidth that this compute time alone allows at the benchmark's size (no memory system
  can overlap past it: a kernel whose ceiling is below 95% cannot meet the target with its
  instructions, whatever its memory access);
* ``budget``: warp instructions an element the SMs can issue in the 95%-of-copy time
  (SMs x 4 schedulers x clock, one warp instruction a scheduler a cycle), to hold against the
  kernel's SASS per element (``sass_counts.py``);
* the same two times for PyTorch's ``torch.special`` function where it has one.

    python3 benchmarks/experiments/special_compute_floor.py [NAME ...]
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, copy_bandwidth, gl, gp, timer, tl  # noqa: E402

t = timer(20, 1.0)
bw = copy_bandwidth(t)
rng = np.random.default_rng(0)
f32, f64 = np.float32, np.float64
# name, dtype, low, high, arguments (benchmarks/scipy_special_cases.py's ranges)
CASES = [("negative", f32, -3.0, 3.0, 1), ("erf", f32, -3.0, 3.0, 1), ("expit", f32, -20.0, 20.0, 1),
         ("ndtri", f32, 0.0, 1.0, 1), ("i0e", f32, -20.0, 20.0, 1),
         ("gammaln", f32, 0.1, 50.0, 1), ("gammaln", f64, 0.1, 50.0, 1),
         ("digamma", f32, -10.0, 30.0, 1), ("gammainc", f32, 0.1, 20.0, 2)]
want = set(sys.argv[1:])


def issue_rate():
    """Warp instructions a second the whole GPU can issue (4 schedulers an SM)."""
    from numba import cuda
    dev = cuda.get_current_device()
    return dev.MULTIPROCESSOR_COUNT * 4 * dev.CLOCK_RATE * 1e3


_BUSY = {}


def _busy(lib):
    """A 1 GiB device-to-device copy in ``lib`` (its buffers made once)."""
    if lib.name not in _BUSY:
        if lib is tl:
            src, dst = (tl.torch.empty(1 << 28, device="cuda") for _ in range(2))
            _BUSY[lib.name] = lambda: dst.copy_(src)
        else:
            src, dst = gp.empty(1 << (28 - SHIFT), np.float32), gp.empty(1 << (28 - SHIFT),
                                                                          np.float32)
            _BUSY[lib.name] = lambda: gp.copyto(dst, src)
    return _BUSY[lib.name]


def l2_rate(lib, fn, reps=20, batches=5):
    """Device seconds of one call on L2-resident data: ``reps`` calls queued behind a 1 GiB
    copy (the host queues them while the GPU copies, so no launch waits for the host) between
    one pair of events; the median of ``batches``."""
    busy = _busy(lib)

    def batch():
        for _ in range(reps):
            fn()
    times = []
    for _ in range(batches):
        lib.sync()
        busy()              # queued before the start event: the batch's launches wait on it
        times += lib.event_samples(batch, 1)
    times = [s / reps for s in times]
    return sorted(times)[len(times) // 2]


def function(lib, name):
    """``name`` in npgpu.scipy.special or torch.special (negative: the memory-bound reference,
    a trivial kernel's time at the same sizes); None where the library lacks it."""
    if lib == "torch":
        if tl is None:
            return None
        return tl.torch.neg if name == "negative" else getattr(tl.torch.special, name, None)
    return gp.negative if name == "negative" else getattr(gp.scipy.special, name)


def args_of(dt, lo, hi, k, n, lib):
    host = [(lo + (hi - lo) * rng.random(n)).astype(dt) for _ in range(k)]
    if lib == "torch":
        return [tl.torch.as_tensor(h, device="cuda") for h in host]
    return [gp.asarray(h) for h in host]


try:
    rate = issue_rate()
except Exception as e:          # the simulator has no clock
    print(f"[issue rate unknown: {type(e).__name__}]")
    rate = None
print(f"issue rate {rate / 1e12 if rate else float('nan'):.3f} T warp instructions/s",
      flush=True)
for name, dt, lo, hi, k in CASES:
    if want and name not in want:
        continue
    n_big = (1 << (28 if dt is f32 else 27)) >> SHIFT
    n_l2 = (1 << (21 if dt is f32 else 20)) >> SHIFT
    nbytes = (k + 1) * np.dtype(dt).itemsize * n_big
    t_target = nbytes / (0.95 * bw)
    budget = rate * t_target / (n_big / 32) if rate else float("nan")
    line = f"{name:9s} {np.dtype(dt).name:8s}"
    for lib in ("npgpu", "torch"):
        f = function(lib, name)
        if f is None:
            continue
        big = args_of(dt, lo, hi, k, n_big, lib)
        small = args_of(dt, lo, hi, k, n_l2, lib)
        half = [x[: n_l2 // 2] for x in small]
        lb = tl if lib == "torch" else gl
        s_big = t(lb, lambda: f(*big))
        del big
        # the slope between n_l2 / 2 and n_l2 elements: a launch's fixed cost (its first and
        # last wave) cancels
        per = (l2_rate(lb, lambda: f(*small)) - l2_rate(lb, lambda: f(*half))) / (n_l2 // 2)
        ceiling = nbytes / bw / (per * n_big) * 100
        line += (f" | {lib}: dram {s_big * 1e6:8.1f} us {nbytes / s_big / bw * 100:5.1f}%"
                 f"  compute {per * 1e12:6.2f} ps/element  ceiling {ceiling:6.1f}%")
    print(line + f" | budget {budget:5.1f} warp instr/element at 95%", flush=True)
