"""Session 4 on the H200: word loads in the reduction template (argmax, sum) and the look-back
scan's tile shapes against its tile work alone (the carry kernel of reduce-then-scan).

Run: ``python3 scripts/exp_s4.py [reduce] [scan]``.  % of copy bandwidth (cumsum: 2 x bytes),
CUDA events, next to PyTorch / CuPy.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _exp import cl, copy_bandwidth, gl, gp, timer, tl  # noqa: E402
from npgpu.reductions import reduce as R, scan_lookback as lb  # noqa: E402
from npgpu.reductions import ufunc_methods as um  # noqa: E402

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
    wmin = R.WORDS_MIN
    state = {}
    for words, unroll in [(True, 8), (True, 4), (False, 8)]:
        R.WORDS_MIN, R.UNROLL = (wmin if words else 1 << 62), unroll
        R._PLANS, R.FAST = {}, {}
        ok = int(gp.argmax(x).get()) == int(np.argmax(h))
        ok &= np.allclose(gp.sum(x2[:64], axis=1).get(), m2[:64].sum(axis=1), rtol=1e-4)
        gp.sum(x), gp.sum(x2, axis=1)
        state[(words, unroll)] = (R._PLANS, R.FAST, ok)

    for name, f in [("argmax", lambda: gp.argmax(x)), ("sum", lambda: gp.sum(x)),
                    ("sum(axis=1)", lambda: gp.sum(x2, axis=1))]:
        print(f"{name}: (words, unroll)", flush=True)

        def run(v):
            R._PLANS, R.FAST, ok = state[v]
            return t(gl, f), f"ok={ok}"
        rounds(list(state), run)
    R.WORDS_MIN, R.UNROLL = wmin, 8
    R._PLANS, R.FAST = {}, {}
    del x, x2, xc2

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
        lb.READ, lb.SPIN_NS, (lb.BLOCK4, lb.ITEMS4) = v[0], v[1], v[2]
        tg = t(gl, lambda: gp.cumsum(x))
        ok = np.allclose(gp.cumsum(x).get()[:200000], ref, rtol=1e-4)
        return tg, f"ok={ok} {pct(8 * nc, tg)}"
    print("cumsum f32 2^26: (read, spin ns, tile)", flush=True)
    rounds([("atomic", 0, (128, 32)), ("ldcv", 0, (128, 32)), ("ldcv", 100, (128, 32)),
            ("ldcv", 400, (128, 32)), ("atomic", 200, (128, 32)), ("ldcv", 0, (256, 32)),
            ("ldcv", 100, (256, 32))], run)
    lb.READ, lb.SPIN_NS, lb.BLOCK4, lb.ITEMS4 = "atomic", 0, 128, 32
