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

import npgpu as gp
from npgpu._codegen import launcher
from npgpu.kernels import reduction as KR

LOG2 = int(sys.argv[1]) if len(sys.argv) > 1 else 28
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
REPS = 20
n = 1 << LOG2
h = np.random.default_rng(0).random(n, dtype=np.float32)
x = gp.asarray(h)
k = gp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq_bench")
sync = gp.cuda.Device().synchronize
real = launcher.Launcher.__call__
pending = []                   # the start event to record at the next launch (kernels rows)


def spy(self, grid, block, values, stream=None):
    if pending:
        pending.pop().record()
    return real(self, grid, block, values, stream)


launcher.Launcher.__call__ = spy


def variant(replay, fn):
    def run():
        KR.REPLAY = replay
        return fn()
    return run


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
times = {(name, mode): [] for name in CASES for mode in ("call", "kernels")}
start, end = gp.cuda.Event(), gp.cuda.Event()
for _ in range(ROUNDS):
    for name, fn in CASES.items():
        for mode in ("call", "kernels"):
            fn()
            sync()
            for _ in range(REPS):
                if mode == "call":
                    start.record()
                else:
                    pending.append(start)
                fn()
                end.record()
                pending.clear()
                end.synchronize()
                times[name, mode].append(gp.cuda.get_elapsed_time(start, end) * 1e3)
gbs = 4 * n / 1e3
for (name, mode), ts in times.items():
    med = statistics.median(ts)
    print(f"{name:10s} {mode:8s} median {med:8.1f} us  min {min(ts):8.1f}  "
          f"({gbs / med:.0f} GB/s of one read of x), {len(ts)} calls")
KR.REPLAY = True
launcher.Launcher.__call__ = real
