"""``unique`` of 2^24 int32 on the GPU, in parts, with CuPy and PyTorch: where the time goes
(the sort, the run-length encoding of :mod:`npgpu.sorting.sets`) and how the encoding's tile
knobs move it.  Every npgpu result is checked against NumPy once.

Run: ``python3 benchmarks/experiments/unique_parts.py [--values N] [VARIANT ...]``.  A variant
is ``default`` (the module's values) or comma-separated ``knob=value`` pairs of
``npgpu.sorting.sets``: ``block=256`` (threads per block), ``items=16`` (rounds of 32
elements in a warp's tile).  ``--values``: the keys are drawn from ``[0, N)`` (default 2^24:
about 63% distinct; small N: long runs).  Rows, medians of 3 interleaved rounds (all printed):

  sort            npgpu.sort alone
  minmax          the keys' range (one read, one 16-byte read back: the bitmap's test)
  runs            the encoding alone, of already sorted keys (count, scan, one read, scatter)
  unique          npgpu.unique (sort + runs; a bitmap for a span of at most 2^18 values)
  unique_wide     npgpu.unique with the wide bitmap on (presence.WIDE, NPGPU_UNIQUE_BITMAP_WIDE):
                  spans of up to 8 values an element marked by global atomics, no sort
  unique_all      with return_index, return_inverse, return_counts (argsort + gather + runs)
  torch / cupy    torch.unique(sorted=True) / cupy.unique of the same keys
  *_all           the peers with every return (torch: return_inverse, return_counts)
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, cl, copy_bandwidth, fresh, gl, gp, pct, rounds, timer, tl  # noqa: E402

from npgpu.sorting import presence as P  # noqa: E402
from npgpu.sorting import sets as S  # noqa: E402
from npgpu.sorting.counting import minmax  # noqa: E402

KNOBS = {"block": "BLOCK", "items": "ITEMS"}
DEFAULTS = {k: getattr(S, k) for k in KNOBS.values()}


def setv(v):
    for k, val in DEFAULTS.items():
        setattr(S, k, val)
    for kv in ([] if v == "default" else v.split(",")):
        k, val = kv.split("=")
        setattr(S, KNOBS[k], int(val))
    fresh()


def wide(f):
    """``f()`` with the wide bitmap switched on."""
    P.WIDE = True
    try:
        return f()
    finally:
        P.WIDE = False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--values", type=int, default=1 << 24)
    ap.add_argument("variants", nargs="*", default=["default"])
    args = ap.parse_args()
    n = (1 << 24) >> SHIFT
    host = np.random.default_rng(0).integers(0, args.values, n).astype(np.int32)
    want = np.unique(host, return_index=True, return_inverse=True, return_counts=True)
    print(f"unique of {n} int32 in [0, {args.values}): {want[0].size} distinct", flush=True)
    t = timer(20, 2.0)
    bw = copy_bandwidth(t)
    g = gl.put(host)
    gs = gp.sort(g)
    for v in args.variants:
        setv(v)
        print(f"variant {v}: BLOCK={S.BLOCK} ITEMS={S.ITEMS}", flush=True)
        got = gp.unique(g, return_index=True, return_inverse=True, return_counts=True)
        for a, b in zip(got, want):
            assert np.array_equal(a.get(), b), "npgpu.unique differs from NumPy"
        assert np.array_equal(gp.unique(g).get(), want[0])
        assert np.array_equal(wide(lambda: gp.unique(g)).get(), want[0])
        calls = {
            "sort": (gl, lambda: gp.sort(g)),
            "minmax": (gl, lambda: minmax(g)),
            "runs": (gl, lambda: S.runs(gs)),
            "unique": (gl, lambda: gp.unique(g)),
            "unique_wide": (gl, lambda: wide(lambda: gp.unique(g))),
            "unique_all": (gl, lambda: gp.unique(g, return_index=True, return_inverse=True,
                                                 return_counts=True)),
        }
        if tl is not None:
            tg = tl.put(host)
            calls["torch"] = (tl, lambda: tl.torch.unique(tg, sorted=True))
            calls["torch_all"] = (tl, lambda: tl.torch.unique(tg, sorted=True,
                                                              return_inverse=True,
                                                              return_counts=True))
        if cl is not None:
            cg = cl.put(host)
            calls["cupy"] = (cl, lambda: cl.cp.unique(cg))
            calls["cupy_all"] = (cl, lambda: cl.cp.unique(cg, return_index=True,
                                                          return_inverse=True,
                                                          return_counts=True))
        rounds(list(calls), lambda k: (t(calls[k][0], calls[k][1]), ""),
               lambda s: pct(bw, 2 * 4 * n, s))


if __name__ == "__main__":
    main()
