"""``median`` (and a percentile pair) of one long float32 row on the GPU: the radix select of
:mod:`npgpu.sorting.select` against the sort route of :mod:`npgpu.sorting.order_stats` and the
peers (CuPy, PyTorch).  Every npgpu result is checked against NumPy once.

Run: ``python3 benchmarks/experiments/order_stats_select.py [--n LOG2] [--dtype f4]``.
Rows, medians of 3 interleaved rounds:

  select / sort        npgpu.median by radix select / with the select switched off (a sort)
  pct_select           npgpu.percentile(x, [25, 75]) by radix select (4 target ranks)
  nanmedian            npgpu.nanmedian (NaN count from the first pass)
  torch / cupy         torch.median(x) (lower median, no mean) / cupy.median(x)
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, cl, copy_bandwidth, gl, gp, pct, rounds, timer, tl  # noqa: E402

from npgpu.sorting import select as SEL  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=24)
    ap.add_argument("--dtype", default="f4")
    args = ap.parse_args()
    n = (1 << args.n) >> SHIFT
    h = np.random.default_rng(0).standard_normal(n).astype(args.dtype)
    t = timer(reps=20, budget_s=2.0)
    bw = copy_bandwidth(t)
    x = gp.asarray(h)
    want = np.median(h)
    threshold = SEL.SELECT_MIN
    for v, sel in (("select", True), ("sort", False)):
        SEL.SELECT_MIN = threshold if sel else 1 << 62
        got = gp.median(x).get()
        assert got == want, (v, got, want)
    assert np.array_equal(gp.percentile(x, [25, 75]).get(), np.percentile(h, [25, 75]))
    xc = cl.put(h) if cl else None
    xt = tl.put(h) if tl else None

    def run(v):
        SEL.SELECT_MIN = 1 << 62 if v == "sort" else threshold
        if v in ("select", "sort"):
            s = t(gl, lambda: gp.median(x))
        elif v == "pct_select":
            s = t(gl, lambda: gp.percentile(x, [25, 75]))
        elif v == "nanmedian":
            s = t(gl, lambda: gp.nanmedian(x))
        elif v == "cupy":
            s = t(cl, lambda: cl.cp.median(xc))
        else:
            s = t(tl, lambda: tl.torch.median(xt))
        return s, ""

    print(f"median of {n} {np.dtype(args.dtype)} (one read: {pct(bw, h.nbytes, h.nbytes / bw)})")
    rounds(["select", "sort", "pct_select", "nanmedian", "cupy", "torch"], run,
           lambda s: pct(bw, h.nbytes, s))
    SEL.SELECT_MIN = threshold


if __name__ == "__main__":
    main()
