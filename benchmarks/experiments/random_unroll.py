"""Blocks a thread computes a round in the random direct transforms (``NPGPU_RANDOM_UNROLL``, 1
shipped, 2: two independent Philox chains side by side), issue 15: ``random`` float32 / float64
at 87 / 83% of the write bandwidth against a 90% target, ``standard_normal`` 0.87-0.90x CuPy.
Each case's bytes are its output written once, against the copy bandwidth measured in the same
process; a sample of each result is checked against the same generator's other setting by
the tests (the numbers do not depend on the setting).  One process per setting, in turn:

    for u in 1 2 1 2; do NPGPU_RANDOM_UNROLL=$u python3 benchmarks/experiments/random_unroll.py; done
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, copy_bandwidth, gl, gp, pct, timer  # noqa: E402

t = timer(20, 2.0)
n32 = (1 << 28) >> SHIFT
n64 = n32 // 2
bw = copy_bandwidth(t)
g = gp.random.default_rng(1)
o32 = gp.empty(n32, np.float32)
o64 = gp.empty(n64, np.float64)
cases = {
    "random f32": lambda: g.random(dtype=np.float32, out=o32),
    "random f64": lambda: g.random(out=o64),
    "standard_normal f32": lambda: g.standard_normal(dtype=np.float32, out=o32),
    "standard_normal f64": lambda: g.standard_normal(out=o64),
    "exponential f64": lambda: g.standard_exponential(out=o64),
}
print(f"NPGPU_RANDOM_UNROLL={os.environ.get('NPGPU_RANDOM_UNROLL', '1')}", flush=True)
for name, fn in cases.items():
    print(f"  {name:22s} {pct(bw, 4 * n32, t(gl, fn))}", flush=True)
x = g.random(1 << 16, dtype=np.float32).get()
assert 0.45 < x.mean() < 0.55 and x.min() >= 0 and x.max() < 1, "random: wrong result"
