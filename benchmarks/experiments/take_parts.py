"""Where take along axis 1 spends its time (issue 13: 74.7% of copy bandwidth against 85%):
the whole call between CUDA events (as benchmarks/run.py times it) against the device time
from its first launch, for ``mode='raise'`` (the bounds record read back: one device-to-host
read), ``'clip'`` and ``'wrap'`` (no record), beside pad and roll of the benchmark's sizes.
(8192, 8192) float32, ``perm`` int64 uniform over the axis; medians of 3 interleaved rounds of
20 calls, % of the copy bandwidth of the same run; every result checked against NumPy.

    python3 benchmarks/experiments/take_parts.py        (EXP_SHIFT=10 on the simulator)
"""
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, call_and_kernel_times, copy_bandwidth, gl, gp, timer  # noqa: E402

bw = copy_bandwidth(timer(10, 1.0))
side = 8192 >> (SHIFT // 2)
rng = np.random.default_rng(0)
h = rng.random((side, side), np.float32)
hp = (rng.random(side) * side).astype(np.int64)
a, perm = gp.asarray(h), gp.asarray(hp)
tb = 2 * 4 * side * side + 8 * side
cases = {f"take {m}": (lambda m=m: gp.take(a, perm, axis=1, mode=m), tb) for m in
         ("raise", "clip", "wrap")}
cases["pad 64 reflect"] = (lambda: gp.pad(a, 64 >> (SHIFT // 2), mode="reflect"),
                           4 * side * side + 4 * (side + 2 * (64 >> (SHIFT // 2))) ** 2)
cases["roll 12345"] = (lambda: gp.roll(a.reshape(-1), 12345), 2 * 4 * side * side)
want = np.take(h, hp, axis=1)
for m in ("raise", "clip", "wrap"):
    assert np.array_equal(cases[f"take {m}"][0]().get(), want)
times = call_and_kernel_times({k: f for k, (f, _) in cases.items()}, rounds=3)
for k, (_, nbytes) in cases.items():
    row = []
    for mode in ("call", "kernels"):
        us = statistics.median(times[k, mode])
        row.append(f"{mode} {us:8.1f} us {nbytes / (us * 1e-6) / bw * 100:6.1f}%")
    print(f"  {k:16s} " + "   ".join(row), flush=True)
