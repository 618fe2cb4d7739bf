"""Session 3 on the H200: reduce-then-scan vs look-back cumsum, and argmax loop shapes.

Run: ``python3 scripts/exp_reduce3.py [cumsum]`` (``cumsum``: that section only).  % of copy bandwidth (cumsum: 2 x bytes; argmax and
sum: bytes read once), CUDA events, next to PyTorch / CuPy.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _exp import cl, copy_bandwidth, cumsum_cases, fresh, gl, gp, timer, tl  # noqa: E402
from npgpu.reductions import reduce as R, scan, scan_lookback as lb  # noqa: E402

t = timer(20, 2.0)
n = 1 << 28
bw = copy_bandwidth(t)
rng = np.random.default_rng(1)

# ---- cumsum ----
for name, h in cumsum_cases(rng):
    x = gp.asarray(h)
    nbytes = 2 * h.nbytes if h.dtype != np.int32 else 3 * h.nbytes
    ref = np.cumsum(h[..., :100000].astype(np.float64), axis=-1)
    xt = tl.put(h)
    tt = t(tl, lambda: tl.torch.cumsum(xt, -1))
    print(f"{name:24s} torch {tt * 1e6:8.1f} us {nbytes / tt / bw * 100:6.1f}%", flush=True)
    for rts, block, items in [(False, 128, 32), (False, 128, 16), (False, 256, 16), (True, 128, 32),
                              (True, 256, 16), (True, 128, 16), (True, 256, 32)]:
        if h.dtype == np.int32 and items == 32:
            continue
        scan.REDUCE_THEN_SCAN = frozenset({4, 8}) if rts else frozenset()
        lb.BLOCK, lb.ITEMS, lb.BLOCK4, lb.ITEMS4 = block, min(items, 16), block, items
        fresh()
        try:
            tg = t(gl, lambda: gp.cumsum(x, axis=-1))
            ok = np.allclose(gp.cumsum(x, axis=-1).get()[..., :100000], ref, rtol=1e-4)
            print(f"{name:24s} {'rts' if rts else 'lookback':8s} {block}x{items}: {tg * 1e6:8.1f} us "
                  f"{nbytes / tg / bw * 100:6.1f}%  ok={ok}", flush=True)
        except Exception as e:
            print(f"{name:24s} {rts} {block}x{items}: {type(e).__name__}: {e}"[:200], flush=True)
    del x, xt
scan.REDUCE_THEN_SCAN = frozenset({8})
lb.BLOCK, lb.ITEMS, lb.BLOCK4, lb.ITEMS4 = 256, 16, 128, 32

# ---- argmax / sum loop shapes ----
if sys.argv[1:] == ["cumsum"]:
    sys.exit(0)
h = rng.random(n, dtype=np.float32)
x = gp.asarray(h)
xt, xc = tl.put(h), cl.put(h)
want = int(np.argmax(h))
print(f"argmax torch {t(tl, lambda: tl.torch.argmax(xt)) * 1e6:8.1f} us   "
      f"cupy {t(cl, lambda: cl.cp.argmax(xc)) * 1e6:8.1f} us", flush=True)
print(f"sum    torch {t(tl, lambda: tl.torch.sum(xt)) * 1e6:8.1f} us   "
      f"cupy {t(cl, lambda: cl.cp.sum(xc)) * 1e6:8.1f} us", flush=True)
del xt, xc
for unroll, block in [(8, 256), (4, 256), (16, 256), (8, 512), (4, 512), (16, 128), (8, 128)]:
    R.UNROLL, R.INNER_BLOCK = unroll, block
    fresh()
    ta = t(gl, lambda: gp.argmax(x))
    ok = int(gp.argmax(x).get()) == want
    ts = t(gl, lambda: gp.sum(x))
    print(f"unroll={unroll:2d} block={block:4d}: argmax {ta * 1e6:7.1f} us {4 * n / ta / bw * 100:6.1f}% "
          f"ok={ok}   sum {ts * 1e6:7.1f} us {4 * n / ts / bw * 100:6.1f}%", flush=True)
