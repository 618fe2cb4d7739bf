"""Look-back scan shapes on the H200: tile (BLOCK x ITEMS) and spin back-off, float32 cumsum.

Run: ``python3 scripts/exp_scan.py``.  Prints % of copy bandwidth (2 x bytes) next to PyTorch.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _exp import copy_bandwidth, cumsum_cases, gl, gp, timer, tl  # noqa: E402
from npgpu.reductions import scan_lookback as lb  # noqa: E402

t = timer(20, 3.0)
bw = copy_bandwidth(t)
rng = np.random.default_rng(1)
for name, h in cumsum_cases(rng):
    x = gp.asarray(h)
    ref = np.cumsum(h[..., :100000].astype(np.float64), axis=-1)
    nbytes = 2 * h.nbytes if h.dtype != np.int32 else h.nbytes + 2 * h.nbytes
    xt = tl.put(h)
    tt = t(tl, lambda: tl.torch.cumsum(xt, -1))
    print(f"{name:34s} torch {tt * 1e6:8.1f} us {nbytes / tt / bw * 100:6.1f}%")
    for block, items, spin in [(256, 16, 0), (256, 8, 0), (512, 8, 0), (128, 16, 0),
                               (256, 16, 100), (512, 16, 0), (128, 32, 0)]:
        lb.BLOCK, lb.ITEMS, lb.BLOCK4, lb.ITEMS4, lb.SPIN_NS = block, items, block, items, spin
        lb.TILE = block * items
        try:
            tg = t(gl, lambda: gp.cumsum(x, axis=-1))
            got = gp.cumsum(x, axis=-1).get()[..., :100000]
            ok = np.allclose(got, ref, rtol=1e-5)
            print(f"{name:34s} npgpu block={block} items={items} spin={spin}: {tg * 1e6:8.1f} us "
                  f"{nbytes / tg / bw * 100:6.1f}%  ok={ok}", flush=True)
        except Exception as e:
            print(f"{name:34s} block={block} items={items}: {type(e).__name__}: {e}"[:200])
