"""Issue 18: vectorize and ElementwiseKernel with and without the repeat-call replay, beside the
built-in ufunc and a copy, whole call and kernels only.

    python3 benchmarks/experiments/elementwise_kernel_ab.py [LOG2_N=28] [ROUNDS=10]

Rows (medians of CUDA-event-timed single calls, rounds interleaved, as benchmarks/run.py
times them: host work before the first launch counts in "call"; "kernels" starts its timer
at the first launch, so it is the device time alone); GB/s of one read and one write of a
float32 array, and % of the copy row's:
  copy           x.copy()
  negative       npgpu.negative(x) (the ufuncs' cached plan)
  vec replay     vectorize(kernels_cases._vec_body)(x), the repeat-call replay
                 (npgpu.kernels.elementwise.REPLAY = True, the default)
  vec full       the same with REPLAY = False (binding, broadcasting, layout analysis)
  ewk replay     ElementwiseKernel("T x", "T z", <the same branch>) with the replay
  ewk full       the same with REPLAY = False
"""
import statistics
import sys

import numpy as np

from _common import call_and_kernel_times, gp, with_setting   # (puts benchmarks/ on the path)
from kernels_cases import _vec_body
from npgpu.kernels import elementwise as KE

LOG2 = int(sys.argv[1]) if len(sys.argv) > 1 else 28
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
REPS = 20
n = 1 << LOG2
h = np.random.default_rng(0).random(n, dtype=np.float32)
x = gp.asarray(h)
vec = gp.vectorize(_vec_body)
ewk = gp.ElementwiseKernel("T x", "T z", "z = x * x if x > 0.5 else x - x * x", "vec_body_ewk")
sync = gp.cuda.Device().synchronize


def variant(replay, fn):
    return with_setting(KE, "REPLAY", replay, fn)


CASES = {"copy": variant(True, lambda: x.copy()),
         "negative": variant(True, lambda: gp.negative(x)),
         "vec replay": variant(True, lambda: vec(x)),
         "vec full": variant(False, lambda: vec(x)),
         "ewk replay": variant(True, lambda: ewk(x)),
         "ewk full": variant(False, lambda: ewk(x))}
want = np.where(h > 0.5, h * h, h - h * h)
for name, fn in CASES.items():
    if name.startswith(("vec", "ewk")):
        got = fn().get()
        print(f"{name:10s} check: {got.dtype}, max |diff| {np.abs(got - want).max():.1e}")
    for _ in range(5):
        fn()
    sync()
times = call_and_kernel_times(CASES, ROUNDS, REPS)
gb = 2 * 4 * n / 1e3
copy = {mode: statistics.median(times["copy", mode]) for mode in ("call", "kernels")}
for (name, mode), ts in times.items():
    med = statistics.median(ts)
    print(f"{name:10s} {mode:8s} median {med:8.1f} us  min {min(ts):8.1f}  "
          f"({gb / med:.0f} GB/s, {100 * copy[mode] / med:.1f}% of copy), {len(ts)} calls")
KE.REPLAY = True
