"""``@npgpu.fuse``'s ``sum((a - b) ** 2)`` of f32 2^28 against ``sum(a)``: what keeps the
two-input map below the one-input sum's share of copy bandwidth (issue 17: 79.9% against ~95%).

Run: ``python3 benchmarks/experiments/fused_sum_map.py [VARIANT ...]``.  Variants (default:
all), each in 3 interleaved rounds with its result checked:

* ``sum1``: ``sum(a)`` (the reference: one input, word loads, 8 loads in flight);
* ``fused``: the fused function as it runs today (words, ``reduce.UNROLL`` loads per input);
* ``unroll=N``: the fused kernel with N loads (words) per input in flight a trip;
* ``nowords``: element loads instead of 8-byte words;
* ``offset=K``: ``b`` starts K bytes after a 1 GiB boundary of ``a``'s (two arrays 2^30 bytes
  apart map every pair a[i], b[i] to the same DRAM channel; does an offset change the time?);
* ``torch``/``cupy``: their ``sum((a - b) ** 2)`` (torch.compile's, CuPy's plain one).
"""
import sys

import numpy as np

from _common import R, cl, copy_bandwidth, fresh, gl, gp, pct, rounds, tl, timer, SHIFT

N = (1 << 28) >> SHIFT
DEFAULT = ["sum1", "fused", "unroll=2", "unroll=4", "unroll=16", "nowords", "offset=4096",
           "offset=1048576", "torch", "cupy"]


def main(variants):
    t = timer(20, 2.0)
    bw = copy_bandwidth(t)
    rng = np.random.default_rng(0)
    ha, hb = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    ref = float(np.sum((ha.astype(np.float64) - hb) ** 2))
    a = gp.asarray(ha)
    b = gp.asarray(hb)
    keep = {}

    def run(v):
        unroll0, words0 = R.UNROLL, R.WORDS_MIN
        x, y = a, b
        try:
            if v == "sum1":
                r = gp.sum(a)
                return t(gl, lambda: gp.sum(a)), f"{float(r.get()):.6g} (sum of a)"
            if v == "torch":
                ta, tb = tl.put(ha), tl.put(hb)
                g = keep.setdefault("torch", tl.torch.compile(lambda p, q: ((p - q) ** 2).sum()))
                g(ta, tb)
                return t(tl, lambda: g(ta, tb)), ""
            if v == "cupy":
                ca, cb = cl.put(ha), cl.put(hb)
                return t(cl, lambda: cl.xp.sum((ca - cb) ** 2)), ""
            if v.startswith("unroll="):
                R.UNROLL = int(v.split("=")[1])
            elif v == "nowords":
                R.WORDS_MIN = 1 << 62
            elif v.startswith("offset="):
                off = int(v.split("=")[1])
                big = gp.empty(N + off // 4, np.float32)
                y = big[off // 4:]
                y[...] = b
            fresh()
            g = gp.fuse(lambda p, q: gp.sum((p - q) ** 2))
            r = float(g(x, y).get())
            assert abs(r - ref) <= 1e-4 * ref, (r, ref)
            return t(gl, lambda: g(x, y)), f"{r:.6g}, {g.launches(x, y)} launches"
        finally:
            R.UNROLL, R.WORDS_MIN = unroll0, words0
            fresh()
    rounds(variants, run, lambda s: pct(bw, 2 * 4 * N, s))


if __name__ == "__main__":
    main(sys.argv[1:] or DEFAULT)
