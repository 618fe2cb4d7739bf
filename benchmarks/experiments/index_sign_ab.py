"""Signed or unsigned indices in the contiguous elementwise kernels (``_ew.UINT_INDEX``,
NPGPU_EW_UINT_INDEX), interleaved in one process: built-in ufuncs (negative, add, exp, erf)
and the user kernels (vectorize of a branch, ElementwiseKernel) on 2^28 float32.  Two separate
benchmark runs (2026-12-03) gave vectorize 90.0% with unsigned and 101.3% with signed, the
first run being unsigned: this asks whether that was the index or the order.  Each switch
renders the kernels afresh (the disk cache keeps both); rounds alternate; % of copy.

    python3 benchmarks/experiments/index_sign_ab.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, copy_bandwidth, fresh, gl, gp, pct, rounds, timer  # noqa: E402
from kernels_cases import _vec_body  # noqa: E402
from npgpu._codegen import elementwise as E  # noqa: E402
import npgpu.scipy.special as S  # noqa: E402

t = timer(20, 2.0)
n = 1 << (28 - SHIFT)
bw = copy_bandwidth(t)
h = np.random.default_rng(0).random(n, dtype=np.float32)
x, y = gp.asarray(h), gp.asarray(h[::-1].copy())
vec = gp.vectorize(_vec_body)
ewk = gp.ElementwiseKernel("T x", "T z", "z = x * x if x > 0.5 else x - x * x", "vec_body_ewk")
CASES = {"negative": (lambda: gp.negative(x), 8), "add": (lambda: x + y, 12),
         "exp": (lambda: gp.exp(x), 8), "erf": (lambda: S.erf(x), 8),
         "vectorize": (lambda: vec(x), 8), "ElementwiseKernel": (lambda: ewk(x), 8)}
default = E.UINT_INDEX
for name, (fn, b) in CASES.items():
    def run(v, fn=fn):
        E.UINT_INDEX = v == "uint64"
        fresh()
        fn()
        return t(gl, fn), ""
    print(f"{name}: {b * n / 1e6:.0f} MB", flush=True)
    rounds(["uint64", "int64"], run, lambda s, b=b: pct(bw, b * n, s), nrounds=4)
E.UINT_INDEX = default
