"""argmax and sum of float32 2^28 on the GPU: variants of the reduction template's loop knobs,
timed in interleaved rounds with CuPy and PyTorch, each result checked against NumPy.

Run: ``python3 benchmarks/experiments/argmax_screen.py [--op argmax|sum|sum1] [VARIANT ...]``.
A variant is ``default`` (the module's values) or comma-separated ``knob=value`` pairs of
``npgpu.reductions.reduce``:

  screen_unroll=4   loads in flight per thread of the screened words kernel (argmin/argmax)
  min_blocks=0      its launch bounds' blocks per SM (0: ptxas's choice)
  unroll=8          loads in flight per thread of the other reduction loops (sum)
  block=256         threads per block on the contiguous axis (``INNER_BLOCK``)
  words_min=32768   reduced extent from which 4-byte rows are read as uint64 words (huge: never)

e.g. ``default screen_unroll=8 block=512 min_blocks=6``.  Ops: ``argmax`` (default), ``sum``
(1-D), ``sum1`` (``sum(axis=1)`` of (2^14, 2^14)).  Times are medians of 3 rounds (all three
printed), % of npgpu's copy bandwidth with the bytes read once.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import (SHIFT, R, cl, copy_bandwidth, fresh, gl, gp, pct, rounds,  # noqa: E402
                     timer, tl)

NAMES = {"screen_unroll": "SCREEN_UNROLL", "min_blocks": "SCREEN_MIN_BLOCKS", "unroll": "UNROLL",
         "block": "INNER_BLOCK", "words_min": "WORDS_MIN"}
DEFAULTS = {k: getattr(R, k) for k in NAMES.values()}


def setv(v):
    """Set the knobs of variant ``v`` (from the defaults) and forget compiled kernels."""
    for k, val in DEFAULTS.items():
        setattr(R, k, val)
    for kv in ([] if v == "default" else v.split(",")):
        k, val = kv.split("=")
        if k not in NAMES:
            raise SystemExit(f"unknown knob {k!r}")
        setattr(R, NAMES[k], (int(val) or None) if k == "min_blocks" else int(val))
    fresh()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="*")
    ap.add_argument("--op", choices=("argmax", "sum", "sum1"), default="argmax")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    t = timer(30, 1.0)
    bw = copy_bandwidth(t)
    n = 1 << (28 - 2 * (SHIFT // 2))
    h = np.random.default_rng(5).random(n, dtype=np.float32)
    if args.op == "sum1":
        h = h.reshape(1 << (14 - SHIFT // 2), -1)
    x, xc, xt = gp.asarray(h), cl and cl.put(h), tl and tl.put(h)
    call = {"argmax": lambda m, a: m.argmax(a),
            "sum": lambda m, a: m.sum(a),
            "sum1": lambda m, a: m.sum(a, axis=1)}[args.op]
    want = call(np, h.astype(np.float64)) if args.op != "argmax" else int(np.argmax(h))

    def run(v):
        if v == "cupy":
            return t(cl, lambda: call(cl.cp, xc)), ""
        if v == "torch":
            tcall = {"argmax": lambda: tl.torch.argmax(xt), "sum": lambda: tl.torch.sum(xt),
                     "sum1": lambda: tl.torch.sum(xt, 1)}[args.op]
            return t(tl, tcall), ""
        setv(v)
        got = call(gp, x).get()
        ok = got == want if args.op == "argmax" else np.allclose(got, want, rtol=1e-4)
        return t(gl, lambda: call(gp, x)), f"ok={bool(np.all(ok))}"

    print(f"{args.op} float32 {h.shape}: median of {args.rounds} rounds (all)", flush=True)
    rounds(["cupy", "torch"] + (args.variants or ["default"]), run,
           lambda s: pct(bw, 4 * n, s), args.rounds)
    setv("default")


if __name__ == "__main__":
    main()
