"""Random gather ``a[idx]`` of 2^26 float32 (issue 13: no slower than the faster peer; H200
2026-12-03: 1.809 ms against CuPy 1.777 and PyTorch 1.783): the gather kernel's elements a
thread (``indexing.advanced.EPT``: loads in flight a thread) beside CuPy and PyTorch, results
checked against NumPy.  Variants take turns in 3 rounds; % of the copy bandwidth counting the
index and the output once and the source's 4-byte elements once each (the sectors a random
gather really reads are 8 times that).

    python3 benchmarks/experiments/gather_ept.py [EPT ...]        (default: 4 8 16)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import (SHIFT, cl, copy_bandwidth, fresh, gather_data, gl, gp, pct,  # noqa: E402
                     rounds, timer, tl)
from npgpu.indexing import advanced as A  # noqa: E402

t = timer(20, 2.0)
bw = copy_bandwidth(t)
n, ha, hi, a, idx, want = gather_data()
shipped = A.EPT


def use(ept):
    A.EPT = ept
    A._fast.clear()
    fresh()


def run(v):
    if v == "cupy":
        ca, ci = cl.cp.asarray(ha), cl.cp.asarray(hi)
        return t(cl, lambda: ca[ci]), ""
    if v == "torch":
        tt = tl.torch
        ta, ti = tt.as_tensor(ha, device="cuda"), tt.as_tensor(hi, device="cuda")
        return t(tl, lambda: ta[ti]), ""
    use(v)
    s = t(gl, lambda: a[idx])
    ok = np.array_equal(a[idx].get(), want)
    use(shipped)
    return s, "ok" if ok else "WRONG RESULT"


variants = [int(x) for x in sys.argv[1:]] or [4, 8, 16]
print(f"a[idx]: 2^{26 - SHIFT} float32, int64 indices", flush=True)
rounds(variants + ["cupy", "torch"], run, lambda s: pct(bw, 16 * n, s))
