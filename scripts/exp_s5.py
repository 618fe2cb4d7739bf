"""Session 5 on the H200: the look-back scan's spin back-off; argmax's words kernel unroll and
block size.  (The other look-back variants measured this session -- statuses per lane, first
window, in-place thread scans, persistent blocks -- are recorded in scan_lookback.py.)

Run: ``python3 scripts/exp_s5.py [scan] [argmax]``.  % of copy bandwidth (cumsum: 2 x bytes),
CUDA events, medians of interleaved rounds, next to PyTorch / CuPy.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _exp import carry_time, cl, copy_bandwidth, fresh, gl, gp, timer, tl  # noqa: E402
from npgpu.reductions import reduce as R, scan_lookback as lb  # noqa: E402

want = set(sys.argv[1:]) or {"scan", "argmax"}
t = timer(30, 1.0)
bw = copy_bandwidth(t)
rng = np.random.default_rng(5)


def pct(nbytes, s):
    return f"{s * 1e6:8.1f} us {nbytes / s / bw * 100:6.1f}%"


def rounds(variants, run, nbytes, nrounds=3):
    res = {v: [] for v in variants}
    for r in range(nrounds):
        for v in list(res):
            try:
                res[v].append(run(v))
            except Exception as e:              # one failing variant must not end the run
                print(f"  {v!s:24s} FAILED: {e}", flush=True)
                del res[v]
    for v in res:
        ts = sorted(x[0] for x in res[v])
        print(f"  {v!s:24s} median {pct(nbytes, ts[len(ts) // 2])}   all "
              + " ".join(f"{x * 1e6:.1f}" for x in ts) + "   " + str(res[v][0][1]), flush=True)


if "scan" in want:
    nc = 1 << 26
    h = rng.random(nc, dtype=np.float32)
    hi = rng.integers(-1000, 1000, nc, dtype=np.int32)
    x, xi = gp.asarray(h), gp.asarray(hi)
    xt = tl.put(h)
    print(f"cumsum torch {pct(8 * nc, t(tl, lambda: tl.torch.cumsum(xt, 0)))}", flush=True)
    del xt
    ref = np.cumsum(h.astype(np.float64))
    refi = np.cumsum(hi, dtype=np.int32)

    def run(v):
        lb.SPIN_NS = v
        fresh()
        r = gp.cumsum(x).get()
        ok = bool(np.allclose(r, ref, rtol=1e-4, atol=1e-2))
        ok &= bool((gp.cumsum(xi, dtype=np.int32).get() == refi).all())
        return t(gl, lambda: gp.cumsum(x)), f"ok={ok}"
    print("cumsum f32 2^26, 128 x 32 tiles: nanoseconds a spinning lane sleeps", flush=True)
    spins = [200, 500, 1000, 2000]
    rounds(spins, run, 8 * nc)
    lb.SPIN_NS = spins[0]
    print(f"tile work alone (carry kernel) {pct(8 * nc, carry_time(t, x))}", flush=True)
    for name, hh in (("f32 (64, 2^20)", rng.random((64, 1 << 20), dtype=np.float32)),
                     ("i32 2^26 (int64 states)", hi)):
        d, dt = gp.asarray(hh), tl.put(hh)
        ok = np.allclose(gp.cumsum(d, axis=-1).get(), np.cumsum(hh.astype(np.float64), axis=-1),
                         rtol=1e-4, atol=1e-2)
        print(f"ok={ok}", end=" ")
        print(f"cumsum {name}: npgpu {pct(8 * hh.size, t(gl, lambda: gp.cumsum(d, axis=-1)))}"
              f"  torch {pct(8 * hh.size, t(tl, lambda: tl.torch.cumsum(dt, -1)))}", flush=True)
        del d, dt
    del x, xi

if "argmax" in want and "noargmax" not in want:
    n = 1 << 28
    h = rng.random(n, dtype=np.float32)
    x = gp.asarray(h)
    xc, xt = cl.put(h), tl.put(h)
    print(f"argmax torch {pct(4 * n, t(tl, lambda: tl.torch.argmax(xt)))}  "
          f"cupy {pct(4 * n, t(cl, lambda: cl.cp.argmax(xc)))}", flush=True)
    del xt
    want_i = int(np.argmax(h))

    def run_arg(v):
        if v == "cupy":
            return t(cl, lambda: cl.cp.argmax(xc)), ""
        R.SCREEN_UNROLL, R.INNER_BLOCK, R.SCREEN_MIN_BLOCKS = v
        fresh()
        ok = int(gp.argmax(x).get()) == want_i
        return t(gl, lambda: gp.argmax(x)), f"ok={ok}"
    print("argmax f32 2^28: (unroll, block, min blocks)", flush=True)
    rounds(["cupy", (4, 256, None), (8, 256, None), (4, 512, None)], run_arg, 4 * n)
    R.SCREEN_UNROLL, R.INNER_BLOCK, R.SCREEN_MIN_BLOCKS = 4, 256, None
    fresh()
    print(f"sum {pct(4 * n, t(gl, lambda: gp.sum(x)))}", flush=True)
