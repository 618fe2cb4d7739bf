"""Session 4 on the H200: word loads in the reduction template (argmax, sum) and the look-back
scan's tile shapes against its tile work alone (the carry kernel of reduce-then-scan).

Run: ``python3 scripts/exp_s4.py [reduce] [scan]``.  % of copy bandwidth (cumsum: 2 x bytes),
CUDA events, next to PyTorch / CuPy.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _exp import carry_time, cl, copy_bandwidth, gl, gp, timer, tl  # noqa: E402
from npgpu.reductions import reduce as R, scan_lookback as lb  # noqa: E402

want = set(sys.argv[1:]) or {"reduce", "scan"}
t = timer(30, 1.0)
n = 1 << 28
bw = copy_bandwidth(t)
rng = np.random.default_rng(1)


def pct(nbytes, s):
    return f"{s * 1e6:8.1f} us {nbytes / s / bw * 100:6.1f}%"


def rounds(variants, run, nrounds=3):
    """Time every variant ``nrounds`` times, interleaved (the H200's run-to-run drift is
    several %); print each round and the median per variant."""
    res = {v: [] for v in variants}
    for r in range(nrounds):
        for v in variants:
            res[v].append(run(v))
    for v in variants:
        ts = sorted(x[0] for x in res[v])
        print(f"  {v!s:28s} median {ts[len(ts) // 2] * 1e6:8.1f} us   all "
              + " ".join(f"{x * 1e6:.1f}" for x in ts) + "   " + str(res[v][0][1]), flush=True)
    return res


if "reduce" in want:
    h = rng.random(n, dtype=np.float32)
    x = gp.asarray(h)
    xt, xc = tl.put(h), cl.put(h)
    m2 = h.reshape(1 << 14, 1 << 14)
    x2, xc2 = x.reshape(1 << 14, 1 << 14), xc.reshape(1 << 14, 1 << 14)
    for r in range(2):
        print(f"argmax torch {pct(4 * n, t(tl, lambda: tl.torch.argmax(xt)))}  "
              f"cupy {pct(4 * n, t(cl, lambda: cl.cp.argmax(xc)))}", flush=True)
        print(f"sum    torch {pct(4 * n, t(tl, lambda: tl.torch.sum(xt)))}  "
              f"cupy {pct(4 * n, t(cl, lambda: cl.cp.sum(xc)))}   "
              f"sum1 cupy {pct(4 * n, t(cl, lambda: cl.cp.sum(xc2, axis=1)))}", flush=True)
    del xt, xc
    print("argmax f32 2^28, words: launch bounds' min blocks per SM", flush=True)
    want_i = int(np.argmax(h))

    def run_arg(mb):
        R.SCREEN_MIN_BLOCKS = mb
        R._PLANS.clear()
        R.FAST.clear()
        ok = int(gp.argmax(x).get()) == want_i
        return t(gl, lambda: gp.argmax(x)), f"ok={ok}"
    rounds([None, 5, 6], run_arg)
    R.SCREEN_MIN_BLOCKS = None
    R._PLANS.clear()
    R.FAST.clear()
    ts = t(gl, lambda: gp.sum(x))
    t1 = t(gl, lambda: gp.sum(x2, axis=1))
    print(f"sum {pct(4 * n, ts)}   sum(axis=1) {pct(4 * n, t1)}", flush=True)
    del x, x2, xc2, m2


if "scan" in want:
    nc = 1 << 26
    h = rng.random(nc, dtype=np.float32)
    x = gp.asarray(h)
    xt = tl.put(h)
    ref = np.cumsum(h[:200000].astype(np.float64))
    for r in range(2):
        print(f"cumsum torch {pct(8 * nc, t(tl, lambda: tl.torch.cumsum(xt, 0)))}", flush=True)
    del xt

    def run(v):
        lb.BLOCK_IDS, lb.MIN_BLOCKS4, lb.SPIN_NS = v
        tg = t(gl, lambda: gp.cumsum(x))
        ok = np.allclose(gp.cumsum(x).get()[:200000], ref, rtol=1e-4)
        ok &= np.allclose(gp.cumsum(x).get()[-1], ref_last, rtol=1e-3)
        return tg, f"ok={ok} {pct(8 * nc, tg)}"
    ref_last = np.sum(h.astype(np.float64))
    print("cumsum f32 2^26, 128 x 32 tiles: (tile = blockIdx.x, min blocks per SM, spin ns)",
          flush=True)
    rounds([(False, None, 200), (True, None, 200), (True, 10, 200), (True, 12, 200),
            (True, 10, 0), (False, 10, 200)], run)
    print(f"tile work alone (carry kernel) {pct(8 * nc, carry_time(t, x))}", flush=True)
