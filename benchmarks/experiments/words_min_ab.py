"""Mid-size elementwise calls: the ``words`` layout (two elements a load) against the element
kernel, by ``elementwise.WORDS_MIN``, interleaved in one process.  The size sweep (benchmarks/
run.py, section sweep) has add and exp of float32 jump from ~11 us at 2^14 elements to ~18 us
at 2^16 where PyTorch stays at ~10 us; 2^15 is where the words layout starts.  Per size and
variant: the call between CUDA events, the device time from its first launch (npgpu's launcher
wrapped: the kernel alone), and the best per-call time of 200 calls back to back.

    python3 benchmarks/experiments/words_min_ab.py [LOG2 ...]
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, call_and_kernel_times, fresh, gp, per_call_us  # noqa: E402
from npgpu._codegen import elementwise as E  # noqa: E402

sizes = [int(a) for a in sys.argv[1:]] or [12, 14, 15, 16, 17, 18, 20, 22]
VARIANTS = {"words from 2^15": 1 << 15, "element kernel": 1 << 62}
saved = E.WORDS_MIN


rng = np.random.default_rng(0)
for lg in sizes:
    n = 1 << max(lg - SHIFT, 2)
    h = rng.random(n, dtype=np.float32)
    x, y = gp.asarray(h), gp.asarray(h[::-1].copy())
    ops = {"add": (lambda: x + y, h + h[::-1]), "exp": (lambda: gp.exp(x), np.exp(h))}
    for name, (fn, ref) in ops.items():
        for v, wm in VARIANTS.items():
            E.WORDS_MIN = wm
            fresh()
            np.testing.assert_allclose(fn().get(), ref, rtol=1e-6)
            times = call_and_kernel_times({name: fn}, rounds=3)
            call = sorted(times[name, "call"])[len(times[name, "call"]) // 2]
            kern = sorted(times[name, "kernels"])[len(times[name, "kernels"]) // 2]
            print(f"{name} 2^{lg - SHIFT} {v:18s} call {call:6.1f} us  kernels {kern:6.1f} us"
                  f"  back to back {per_call_us(fn):6.1f} us", flush=True)
E.WORDS_MIN = saved
fresh()
