"""Look-back cumsum on the GPU: variants of the scan's module knobs, timed in interleaved rounds
with PyTorch's cumsum, each checked against NumPy; optionally the tile work alone and a per-tile
timeline of where a tile's time goes.

Run: ``python3 benchmarks/experiments/scan_lookback_knobs.py [--case f32|rows|i32] [--carry]
[--trace] [VARIANT ...]``.  A variant is ``default`` (the module's values) or comma-separated
``knob=value`` pairs:

  tile=128x32     4-byte states' tile, threads x items (``BLOCK4 x ITEMS4``)
  tile8=256x16    8-byte states' tile (``BLOCK x ITEMS``)
  min_blocks=7    launch bounds' blocks per SM of the 4-byte kernel (0: ptxas's choice)
  spin=200        ns a look-back lane sleeps on an unpublished status (0: none)
  lane_reads=1    statuses each look-back lane reads a round
  relaxed=0       relaxed loads/stores of the status words instead of atomics
  block_ids=1     tile = blockIdx.x (0: tile ids from an atomic counter)
  rts=0           reduce-then-scan instead of looking back, for this case's state size

e.g. ``default spin=0 min_blocks=0 tile=128x16,min_blocks=0``.  Cases: ``f32`` float32 2^26
(default), ``rows`` float32 (64, 2^20) along the last axis, ``i32`` int32 2^26 (int64 states).
Times are medians of 3 rounds (all three printed), % of npgpu's copy bandwidth with 2 x bytes.
``--carry``: the tile work alone (carry kernel of reduce-then-scan: same loads, scans, stores,
no look-back).  ``--trace``: thread 0 of every tile stamps ``%globaltimer`` at its start,
aggregate, inclusive prefix and end; prints a timeline summary of the first and the fastest
variant (float32 1-D only; raw stamps to ``$OUT/trace_*.npy``).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import (OUT, SHIFT, R, carry_time, copy_bandwidth, fresh, gl, gp, pct,  # noqa: E402
                     rounds, timer, tl)
from npgpu.reductions import scan, scan_lookback as lb  # noqa: E402
from npgpu.reductions import ufunc_methods as um  # noqa: E402

KNOBS = ("BLOCK", "ITEMS", "BLOCK4", "ITEMS4", "MIN_BLOCKS4", "SPIN_NS", "LANE_READS", "RELAXED",
         "BLOCK_IDS")
DEFAULTS = {k: getattr(lb, k) for k in KNOBS}
DEFAULT_RTS = scan.REDUCE_THEN_SCAN


def setv(v, state_size):
    """Set the module knobs of variant ``v`` (from the defaults) and forget compiled kernels."""
    for k, val in DEFAULTS.items():
        setattr(lb, k, val)
    scan.REDUCE_THEN_SCAN = DEFAULT_RTS
    for kv in ([] if v == "default" else v.split(",")):
        k, val = kv.split("=")
        if k in ("tile", "tile8"):
            b, i = (int(s) for s in val.split("x"))
            lb.BLOCK4, lb.ITEMS4 = (b, i) if k == "tile" else (lb.BLOCK4, lb.ITEMS4)
            lb.BLOCK, lb.ITEMS = (b, i) if k == "tile8" else (lb.BLOCK, lb.ITEMS)
        elif k == "min_blocks":
            lb.MIN_BLOCKS4 = int(val) or None
        elif k == "spin":
            lb.SPIN_NS = int(val)
        elif k == "lane_reads":
            lb.LANE_READS = int(val)
        elif k in ("relaxed", "block_ids"):
            setattr(lb, k.upper(), bool(int(val)))
        elif k == "rts":
            on = DEFAULT_RTS | {state_size} if int(val) else DEFAULT_RTS - {state_size}
            scan.REDUCE_THEN_SCAN = frozenset(on)
        else:
            raise SystemExit(f"unknown knob {k!r}")
    lb.TILE = lb.BLOCK * lb.ITEMS
    fresh()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="*")
    ap.add_argument("--case", choices=("f32", "rows", "i32"), default="f32")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--carry", action="store_true")
    ap.add_argument("--trace", action="store_true")
    args = ap.parse_args()
    t = timer(30, 1.0)
    bw = copy_bandwidth(t)
    rng = np.random.default_rng(6)
    n = 1 << (26 - SHIFT)
    h = {"f32": lambda: rng.random(n, dtype=np.float32),
         "rows": lambda: rng.random((64, n >> 6), dtype=np.float32),
         "i32": lambda: rng.integers(-1000, 1000, n, dtype=np.int32)}[args.case]()
    state_size = 8 if args.case == "i32" else 4
    x, xt = gp.asarray(h), tl and tl.put(h)
    if h.dtype == np.int32:
        ref = np.cumsum(h, axis=-1)                 # NumPy: int32 sums in int64
        ok_of = lambda got: bool((got == ref).all())                                # noqa: E731
    else:
        ref = np.cumsum(h.astype(np.float64), axis=-1)
        ok_of = lambda got: bool(np.allclose(got, ref, rtol=1e-4, atol=1e-2))       # noqa: E731
    nbytes = 2 * h.nbytes

    def run(v):
        if v == "torch":
            return t(tl, lambda: tl.torch.cumsum(xt, -1)), ""
        setv(v, state_size)
        ok = ok_of(gp.cumsum(x, axis=-1).get())
        return t(gl, lambda: gp.cumsum(x, axis=-1)), f"ok={ok}"

    variants = ["torch"] + (args.variants or ["default"])
    print(f"cumsum {args.case} {h.shape}: median of {args.rounds} rounds (all)", flush=True)
    res = rounds(variants, run, lambda s: pct(bw, nbytes, s), args.rounds)
    setv("default", state_size)
    if args.carry and args.case == "f32":
        print(f"tile work alone (carry kernel) {pct(bw, nbytes, carry_time(t, x))}", flush=True)
    if args.trace and args.case == "f32":
        mine = [v for v in res if v != "torch"]
        fastest = sorted(mine, key=lambda v: sorted(s for s, _ in res[v])[len(res[v]) // 2])
        for v in dict.fromkeys(mine[:1] + fastest[:1]):
            trace(v, x, ref)
        setv("default", state_size)


def trace(v, x, ref):
    """Run the tracing rendering of variant ``v`` and print where the tiles' time went."""
    setv(v, 4)
    nc = x.size
    spec, _ = um.reduce_spec(gp.add, np.dtype(np.float32), scan=True)
    ntile = -(-nc // lb.tile_size(spec))
    out = gp.empty(nc, np.float32)
    vals, ovals = R._arr(x._ptr, [nc], [4], 4), R._arr(out._ptr, [nc], [4], 4)
    tr = gp.zeros(8 * ntile, np.int64)
    for _ in range(3):                                 # warm, then the traced run kept
        tr[...] = 0
        lb.run(spec, x, out, 0, 1, nc, vals, ovals, trace=tr)
    ok = bool(np.allclose(out.get(), ref, rtol=1e-4, atol=1e-2))
    a = tr.get().reshape(ntile, 8).astype(np.float64)
    np.save(os.path.join(OUT, f"trace_{v.replace(',', '_').replace('=', '')}.npy"), a)
    t0 = a[:, 0].min()
    st, ag, inc, nr, end = ((a[:, 0] - t0) / 1e3, (a[:, 1] - t0) / 1e3, (a[:, 2] - t0) / 1e3,
                            a[:, 3], (a[:, 4] - t0) / 1e3)
    span = end.max()

    def q(d, ps=(10, 50, 90, 99)):
        return "/".join(f"{np.percentile(d, p):.2f}" for p in ps)
    print(f"trace {v} ok={ok}: span {span:.1f} us (start->end of all tiles), "
          f"timer ticks {np.unique(np.diff(np.unique(a[:, 0]))).min():.0f} ns", flush=True)
    print(f"  per tile us, p10/p50/p90/p99: load+scan {q(ag - st)}  look-back {q(inc - ag)}  "
          f"store {q(end - inc)}  life {q(end - st)}", flush=True)
    print("  look-back rounds: " + ", ".join(
        f"{int(k)}:{int(c)}" for k, c in zip(*np.unique(nr[1:], return_counts=True))), flush=True)
    for frac in (0.1, 0.3, 0.5, 0.7, 0.9):      # in flight, and the inclusive frontier's lag
        tt = frac * span
        print(f"  t={tt:6.1f} us: in flight {int(((st <= tt) & (end > tt)).sum()):5d}, "
              f"started {int((st <= tt).sum()):6d}, inclusive {int((inc <= tt).sum()):6d}, "
              f"ended {int((end <= tt).sum()):6d}", flush=True)
    print(f"  start rate {ntile / st.max():.1f} tiles/us; inclusive rate "
          f"{ntile / inc.max():.1f} tiles/us", flush=True)


if __name__ == "__main__":
    main()
