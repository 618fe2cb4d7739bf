"""Issue 18: the ReductionKernel sumsq benchmark against x.sum(), whole call and kernels only.

    python3 benchmarks/experiments/reduction_kernel_ab.py [LOG2_N=28] [ROUNDS=10]

Rows (medians of CUDA-event-timed single calls, rounds interleaved, as benchmarks/run.py
times them: host work before the first launch counts in "call"; "kernels" starts its timer
at the first launch, so it is the device time alone):
  sum            x.sum() (float64 accumulation, its replay fast path)
  rk replay      ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0") with the
                 repeat-call replay (npgpu.kernels.reduction.REPLAY = True, the default)
  rk full        the same kernel with REPLAY = False (every call binds, plans, allocates:
                 the path before the replay)
"""
import statistics
import sys

import numpy as np

from _common import call_and_kernel_times, gp, with_setting
from npgpu.kernels import reduction as KR

LOG2 = int(sys.argv[1]) if len(sys.argv) > 1 else 28
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
REPS = 20
n = 1 << LOG2
h = np.random.default_rng(0).random(n, dtype=np.float32)
x = gp.asarray(h)
k = gp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq_bench")
sync = gp.cuda.Device().synchronize


def variant(replay, fn):
    return with_setting(KR, "REPLAY", replay, fn)


CASES = {"sum": variant(True, lambda: x.sum()),
         "rk replay": variant(True, lambda: k(x)),
         "rk full": variant(False, lambda: k(x))}
want = float((h.astype(np.float64) ** 2).sum())
for name, fn in CASES.items():
    got = float(fn().get()) if name != "sum" else float((x * x).sum().get())
    print(f"{name:10s} check: {got:.7g} vs float64 {want:.7g} (rel {abs(got - want) / want:.1e})")
    for _ in range(5):
        fn()
    sync()
times = call_and_kernel_times(CASES, ROUNDS, REPS)
gbs = 4 * n / 1e3
for (name, mode), ts in times.items():
    med = statistics.median(ts)
    print(f"{name:10s} {mode:8s} median {med:8.1f} us  min {min(ts):8.1f}  "
          f"({gbs / med:.0f} GB/s of one read of x), {len(ts)} calls")
KR.REPLAY = True
