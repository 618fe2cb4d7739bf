"""Column reductions (``sum(axis=0)`` of C-contiguous (rows, cols) float32): the ``outer``
mapping's columns a block (``reduce.OUTER_TX``; blocks of ``OUTER_BLOCK`` threads, the rest of
the block on rows) against PyTorch, % of the same run's copy bandwidth.

H200 size sweep (2026-12-05): ``sum(axis=0)`` of (2^20, 256) float32 took 459 us (56.9% of
copy) against PyTorch's 349; (2^18, 256) 142 us (49.7%).  A 32-column block reads one 128-byte
line of each 1 KiB row: does a block that spans whole rows read faster?

Run: ``python3 benchmarks/experiments/reduce_outer_tx.py [TX ...]`` (default 32 64 128 256).
"""
import sys

import numpy as np

from _common import SHIFT, copy_bandwidth, fresh, gl, gp, pct, rounds, timer, tl
from npgpu.reductions import reduce as R

SHAPES = [(1 << 20, 256), (1 << 18, 256), (1 << 16, 256), (1 << 22, 64), (1 << 18, 1024),
          (1 << 14, 1 << 14), (1 << 12, 1 << 16)]


def main():
    txs = [int(v) for v in sys.argv[1:]] or [32, 64, 128, 256]
    t = timer(20, 1.5)
    bw = copy_bandwidth(t)
    rng = np.random.default_rng(0)
    for r, c in SHAPES:
        r = max(1, r >> SHIFT)
        h = rng.standard_normal((r, c)).astype(np.float32)
        g = gl.put(h)
        want = h.sum(axis=0, dtype=np.float64)
        nbytes = h.nbytes + 4 * c
        tt = tl.put(h) if tl is not None else None
        print(f"sum(axis=0) float32 ({r}, {c})", flush=True)

        def run(v):
            if v == "torch":
                return t(tl, lambda: tt.sum(0)), ""
            R.OUTER_TX = v
            fresh()
            got = gp.sum(g, axis=0).get()
            ok = np.allclose(got, want, rtol=1e-4, atol=1e-3 * np.sqrt(r))
            return t(gl, lambda: gp.sum(g, axis=0)), "" if ok else "WRONG"
        rounds(txs + (["torch"] if tl is not None else []), run,
               lambda s: pct(bw, nbytes, s))
    R.OUTER_TX = 32


if __name__ == "__main__":
    main()
