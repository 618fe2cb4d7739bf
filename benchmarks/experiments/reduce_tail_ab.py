"""Split inner reductions: one launch whose last block folds the splits (``reduce.TAIL``) against
the second pass, the tail plans' elements per split (``reduce.TAIL_MIN_CHUNK``) and
(TAIL_BOUNDS=1) the tail kernels' launch bounds (``reduce.TAIL_MIN_BLOCKS``), (BIG_CHUNKS=1)
chunks of 2^15 and 2^16 elements and one block a row (no split), interleaved in one process
over sizes 2^14 .. 2^22 (or the LOG2 sizes given): sum, argmax and var of float32, sum of
float64, and row sums of 8 rows (CASES=regex: those whose name matches).  Device time of one call between CUDA events (host
work before the first launch included), % of copy bandwidth, and the best per-call time of 200
calls back to back (the sweep's timing); every variant's result checked against NumPy.

    python3 benchmarks/experiments/reduce_tail_ab.py [LOG2 ...]
"""
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import (R, SHIFT, copy_bandwidth, fresh, gl, gp, pct, per_call_us, rounds,  # noqa: E402
                     timer)

# (TAIL, TAIL_MIN_BLOCKS, TAIL_MIN_CHUNK); every tail variant without reduce.TAIL_MAX's limit
VARIANTS = {"two-pass": (False, None, R.MIN_CHUNK), "tail": (True, None, R.MIN_CHUNK),
            "tail, chunk 2048": (True, None, 2048), "tail, chunk 1024": (True, None, 1024)}
if os.environ.get("TAIL_BOUNDS"):
    VARIANTS["tail, bounds 8"] = (True, 8, R.MIN_CHUNK)
if os.environ.get("BIG_CHUNKS"):
    VARIANTS.update({"tail, chunk 2^15": (True, None, 1 << 15),
                     "tail, chunk 2^16": (True, None, 1 << 16),
                     "one block": (True, None, 1 << 62)})
    del VARIANTS["tail, chunk 2048"], VARIANTS["tail, chunk 1024"]
t = timer(20, 1.0)
bw = copy_bandwidth(t)
sizes = [int(a) for a in sys.argv[1:]] or list(range(14, 23, 2))
rng = np.random.default_rng(0)
saved = R.TAIL, R.TAIL_MIN_BLOCKS, R.TAIL_MIN_CHUNK, R.TAIL_MAX
R.TAIL_MAX = 1 << 62
for lg in sizes:
    n = 1 << max(lg - SHIFT, 4)
    h32 = rng.random(n, dtype=np.float32)
    x32 = gp.asarray(h32)
    x64 = gp.asarray(h32[: n // 2].astype(np.float64))
    rows = x32.reshape(8, -1)
    cases = {"sum f32": (lambda: gp.sum(x32), 4 * n, h32.sum(dtype=np.float64)),
             "argmax f32": (lambda: gp.argmax(x32), 4 * n, h32.argmax()),
             "var f32": (lambda: gp.var(x32), 4 * n, h32.astype(np.float64).var()),
             "sum f64 (n/2)": (lambda: gp.sum(x64), 4 * n, h32[: n // 2].sum(dtype=np.float64)),
             "sum(axis=1) f32 (8, n/8)": (lambda: gp.sum(rows, axis=1), 4 * n,
                                          h32.reshape(8, -1).sum(axis=1, dtype=np.float64))}
    for name, (fn, nbytes, ref) in cases.items():
        if not re.search(os.environ.get("CASES", ""), name):
            continue

        def run(v, fn=fn, ref=ref):
            R.TAIL, R.TAIL_MIN_BLOCKS, R.TAIL_MIN_CHUNK = VARIANTS[v]
            fresh()
            got = fn().get()
            if not np.allclose(got, ref, rtol=1e-4):
                raise AssertionError(f"{got} != {ref}")
            plans = [p for p in R._PLANS.values() if p]
            return t(gl, fn), (f"nsplit {max(p.nsplit for p in plans)}, back to back "
                               f"{per_call_us(fn):.1f} us")
        print(f"{name} 2^{lg - SHIFT}: {nbytes / 1e6:.1f} MB", flush=True)
        rounds(list(VARIANTS), run, lambda s, b=nbytes: pct(bw, b, s))
R.TAIL, R.TAIL_MIN_BLOCKS, R.TAIL_MIN_CHUNK, R.TAIL_MAX = saved
fresh()
