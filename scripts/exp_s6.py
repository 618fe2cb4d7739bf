"""Session 6 on the H200: the look-back scan's status reads (relaxed loads, several statuses per
lane a round) and a per-tile timeline of where a tile's time goes (``%globaltimer`` trace).

Run: ``python3 scripts/exp_s6.py [trace] [VARIANT ...]`` where a variant is
``kr,relaxed,min_blocks,spin`` (e.g. ``4,1,8,200``); with none, the built-in list.  Prints
medians of interleaved rounds with PyTorch's cumsum in the same rounds (% of copy bandwidth,
2 x bytes); with ``trace``, a timeline summary of the first and the fastest variant (raw
traces to $OUT/trace_*.npy).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _exp import carry_time, cl, copy_bandwidth, fresh, gl, gp, timer, tl  # noqa: E402
from npgpu.reductions import reduce as R, scan_lookback as lb  # noqa: E402
from npgpu.reductions import ufunc_methods as um  # noqa: E402

t = timer(30, 1.0)
bw = copy_bandwidth(t)
rng = np.random.default_rng(6)
OUT = os.environ.get("OUT", "/tmp")


def pct(nbytes, s):
    return f"{s * 1e6:8.1f} us {nbytes / s / bw * 100:6.1f}%"


def parse(v):
    kr, rx, mb, spin = (int(x) for x in v.split(","))
    return kr, bool(rx), mb or None, spin


def setv(v):
    lb.LANE_READS, lb.RELAXED, lb.MIN_BLOCKS4, lb.SPIN_NS = parse(v)
    fresh()


args = [v for v in sys.argv[1:] if v not in ("trace", "argmax")]
variants = ["torch"] + (args or ["1,0,0,200", "1,0,7,200", "1,0,8,200"])
nc = 1 << 26
h = rng.random(nc, dtype=np.float32)
hi = rng.integers(-1000, 1000, nc, dtype=np.int32)
x, xi = gp.asarray(h), gp.asarray(hi)
xt = tl.put(h)
ref = np.cumsum(h.astype(np.float64))
refi = np.cumsum(hi, dtype=np.int32)
print(f"tile work alone (carry kernel) {pct(8 * nc, carry_time(t, x))}", flush=True)

def kernel_only(v):
    """Device seconds of the look-back kernel alone: the start event is recorded once the
    statuses' memset is queued (the call's host work and the memset fall outside).  (Variant
    ``kernel:...``; only for scans that still zero their statuses: 8-byte states.)"""
    setv(v)
    gp.cumsum(x)
    start, end = gl.events()
    real = lb._zero

    def z(p, n):
        real(p, n)
        start.record()
    lb._zero = z
    out = []
    try:
        for _ in range(20):
            gp.cumsum(x)
            end.record()
            end.synchronize()
            out.append(gl.elapsed_s(start, end))
    finally:
        lb._zero = real
    return sorted(out)[len(out) // 2]


res = {v: [] for v in variants}
for r in range(3):
    for v in list(res):
        if v == "torch":
            res[v].append(t(tl, lambda: tl.torch.cumsum(xt, 0)))
            continue
        if v.startswith("kernel:"):
            res[v].append(kernel_only(v[7:]))
            continue
        try:
            setv(v)
            if r == 0:
                ok = bool(np.allclose(gp.cumsum(x).get(), ref, rtol=1e-4, atol=1e-2))
                ok &= bool((gp.cumsum(xi, dtype=np.int32).get() == refi).all())
                if not ok:
                    print(f"  {v}: WRONG RESULT", flush=True)
            res[v].append(t(gl, lambda: gp.cumsum(x)))
        except Exception as e:                  # one failing variant must not end the run
            print(f"  {v} FAILED: {type(e).__name__}: {e}", flush=True)
            del res[v]
print("variant kr,relaxed,min_blocks,spin_ns: median of 3 rounds (all)", flush=True)
for v, ts in res.items():
    ts = sorted(ts)
    print(f"  {v:12s} {pct(8 * nc, ts[1])}  all " + " ".join(f"{s * 1e6:.1f}" for s in ts),
          flush=True)

# ---- per-tile timeline ----------------------------------------------------------------------
spec, _ = um.reduce_spec(gp.add, np.dtype(np.float32), scan=True)
ntile = -(-nc // lb.tile_size(spec))
out = gp.empty(nc, np.float32)
vals, ovals = R._arr(x._ptr, [nc], [4], 4), R._arr(out._ptr, [nc], [4], 4)


def q(a, ps=(10, 50, 90, 99)):
    return "/".join(f"{np.percentile(a, p):.2f}" for p in ps)


mine = [v for v in res if v != "torch"]
for v in (mine[:1] + sorted(mine, key=lambda v: sorted(res[v])[1])[:1]
          if "trace" in sys.argv else []):
    setv(v)
    tr = gp.zeros(8 * ntile, np.int64)
    for _ in range(3):                                 # warm, then the traced run kept
        tr[...] = 0
        lb.run(spec, x, out, 0, 1, nc, vals, ovals, trace=tr)
    ok = bool(np.allclose(out.get(), ref, rtol=1e-4, atol=1e-2))
    a = tr.get().reshape(ntile, 8).astype(np.float64)
    np.save(os.path.join(OUT, f"trace_{v.replace(',', '_')}.npy"), a)
    t0 = a[:, 0].min()
    st, ag, inc, nr, end = (a[:, 0] - t0) / 1e3, (a[:, 1] - t0) / 1e3, (a[:, 2] - t0) / 1e3, \
        a[:, 3], (a[:, 4] - t0) / 1e3
    span = end.max()
    print(f"trace {v} ok={ok}: span {span:.1f} us (start->end of all tiles), "
          f"timer ticks {np.unique(np.diff(np.unique(a[:, 0]))).min():.0f} ns", flush=True)
    print(f"  per tile us, p10/p50/p90/p99: load+scan {q(ag - st)}  look-back {q(inc - ag)}  "
          f"store {q(end - inc)}  life {q(end - st)}", flush=True)
    print(f"  look-back rounds: " + ", ".join(f"{int(k)}:{int(c)}" for k, c in
                                              zip(*np.unique(nr[1:], return_counts=True))),
          flush=True)
    # in flight over time and the inclusive frontier's lag behind the starts
    for frac in (0.1, 0.3, 0.5, 0.7, 0.9):
        tt = frac * span
        fly = int(((st <= tt) & (end > tt)).sum())
        started = int((st <= tt).sum())
        done = int((inc <= tt).sum())
        print(f"  t={tt:6.1f} us: in flight {fly:5d}, started {started:6d}, inclusive {done:6d},"
              f" ended {int((end <= tt).sum()):6d}", flush=True)
    # starts per microsecond (dispatch rate) and frontier speed
    print(f"  start rate {ntile / st.max():.1f} tiles/us; inclusive rate "
          f"{ntile / inc.max():.1f} tiles/us", flush=True)

# ---- argmax: screened words kernel, (unroll, block) in rounds with CuPy ------------------------
if "argmax" in sys.argv:
    n = 1 << 28
    h = rng.random(n, dtype=np.float32)
    xa = gp.asarray(h)
    xc = cl.put(h)
    want_i = int(np.argmax(h))

    def run_arg(v):
        if v == "cupy":
            return t(cl, lambda: cl.cp.argmax(xc))
        R.SCREEN_UNROLL, R.INNER_BLOCK = v
        fresh()
        assert int(gp.argmax(xa).get()) == want_i
        return t(gl, lambda: gp.argmax(xa))
    ares = {v: [] for v in ["cupy", (4, 256), (4, 512), (8, 256)]}
    for r in range(3):
        for v in ares:
            ares[v].append(run_arg(v))
    R.SCREEN_UNROLL, R.INNER_BLOCK = 4, 256
    print("argmax f32 2^28 (unroll, block): median of 3 rounds (all)", flush=True)
    for v, ts in ares.items():
        ts = sorted(ts)
        print(f"  {v!s:12s} {pct(4 * n, ts[1])}  all " + " ".join(f"{s * 1e6:.1f}" for s in ts),
              flush=True)
