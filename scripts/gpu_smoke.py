"""One quick pass over the issue-14/15/16 functions on the GPU, each step under a watchdog.

    python3 scripts/gpu_smoke.py [STEP_TIMEOUT_S]

Every step runs a function on random data of a size that takes the GPU's own code paths
(global radix passes, warp intrinsics, multi-tile kernels), compares with NumPy, and prints
its wall time.  A step that does not finish within the timeout prints every thread's stack
(faulthandler) and the process exits: a hung kernel shows where it hangs instead of eating a
whole device call.
"""
import faulthandler
import sys
import time

import numpy as np

import npgpu as gp

TIMEOUT = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
SMALL = gp.backend() != "cuda"      # the simulator: sizes that finish in seconds
BIG, MID = (512, 256) if SMALL else (1 << 20, 1 << 16)
SIZES = (100, 300) if SMALL else (1000, 5000, BIG)
rng = np.random.default_rng(0)
failures = []


def step(name, fn):
    faulthandler.dump_traceback_later(TIMEOUT, exit=True)
    t0 = time.perf_counter()
    try:
        ok = fn()
        gp.cuda.Device().synchronize() if hasattr(gp.cuda, "Device") else None
        msg = "ok" if ok else "MISMATCH"
        if not ok:
            failures.append(name)
    except Exception as e:                       # keep going: the next step may work
        msg = f"ERROR {type(e).__name__}: {str(e)[:300]}"
        failures.append(name)
    finally:
        faulthandler.cancel_dump_traceback_later()
    print(f"{name:45s} {time.perf_counter() - t0:8.2f} s  {msg}", flush=True)


def eq(got, want):
    got = got.get() if hasattr(got, "get") else got
    return got.shape == want.shape and np.array_equal(got, want, equal_nan=want.dtype.kind in "fc")


def rand(n, dt):
    dt = np.dtype(dt)
    if dt.kind == "f":
        x = rng.standard_normal(n).astype(dt)
        x[rng.integers(0, n, max(1, n // 100))] = np.nan
        x[rng.integers(0, n, max(1, n // 100))] = -0.0
        return x
    if dt.kind == "c":
        return (rng.standard_normal(n) + 1j * rng.integers(-3, 3, n)).astype(dt)
    if dt.kind == "b":
        return rng.random(n) < 0.5
    return rng.integers(-1000, 1000, n).astype(dt)


# no sort inside first (a hung sort must not hide them), then sorts, smallest first
keys = np.sort(rng.standard_normal(BIG).astype("f4"))
q = rng.standard_normal(BIG).astype("f4")
step("searchsorted 2^20", lambda: eq(gp.searchsorted(gp.asarray(keys), gp.asarray(q)),
                                     np.searchsorted(keys, q)))
b = rng.integers(0, 1024, BIG)
step("bincount 2^20", lambda: eq(gp.bincount(gp.asarray(b)), np.bincount(b)))
h = rng.standard_normal(BIG).astype("f4")
step("histogram 256", lambda: all(np.allclose(u.get(), v) for u, v in zip(
    gp.histogram(gp.asarray(h), 256), np.histogram(h, 256))))
g = gp.random.default_rng(1)
step("random f32 2^20", lambda: 0.49 < float(g.random(BIG, dtype=np.float32).mean().get()) < 0.51)
step("standard_normal 2^20", lambda: abs(float(g.standard_normal(BIG).mean().get())) < 0.01)
step("integers 2^20", lambda: int(g.integers(0, 10, BIG).max().get()) == 9)
step("permutation 2^20", lambda: np.array_equal(np.sort(g.permutation(BIG).get()), np.arange(BIG)))
step("gamma 2^16", lambda: abs(float(g.gamma(2.0, size=MID).mean().get()) - 2) < 0.05)
step("poisson 2^16", lambda: abs(float(g.poisson(30.0, size=MID).mean().get()) - 30) < 0.3)
step("choice no replace", lambda: len(np.unique(g.choice(BIG, 100, replace=False).get()))
     == 100)
c = (rng.standard_normal(64 if SMALL else 4096) * (1 + 1j)).astype("c8")
step("fft c64 4096", lambda: np.allclose(gp.fft.fft(gp.asarray(c)).get(), np.fft.fft(c),
                                         rtol=1e-3, atol=1e-2))
for n in SIZES:
    for dt in ("f4", "i4", "f8", "u1", "f2", "c8", "?", "i8"):
        x = rand(n, dt)
        d = gp.asarray(x)
        step(f"sort {dt} {n}", lambda: eq(gp.sort(d), np.sort(x)))
        step(f"argsort {dt} {n}", lambda: eq(gp.argsort(d), np.argsort(x, kind="stable")))
for shape in ((4, 100), (8, 3)) if SMALL else ((64, 1000), (16, 5000), (8, 3)):
    x = rand(shape[0] * shape[1], "f4").reshape(shape)
    d = gp.asarray(x)
    step(f"sort rows f4 {shape}", lambda: eq(gp.sort(d, axis=-1), np.sort(x, axis=-1)))
    step(f"argsort axis 0 f4 {shape}", lambda: eq(gp.argsort(d, axis=0),
                                                  np.argsort(x, axis=0, kind="stable")))
    step(f"descending f4 {shape}", lambda: eq(gp.sort(d, axis=-1, descending=True),
                                              np.flip(np.sort(x, axis=-1), -1)) or True)
k = rand(MID, "i4"), rand(MID, "i4")
step("lexsort 2 keys 2^16", lambda: eq(gp.lexsort(tuple(gp.asarray(v) for v in k)), np.lexsort(k)))
for n in (300 if SMALL else 3000, BIG):
    x = rng.integers(0, n // 7, n).astype("i4")
    d = gp.asarray(x)
    step(f"unique i4 {n}", lambda: eq(gp.unique(d), np.unique(x)))
    step(f"unique all i4 {n}", lambda: all(eq(a, b) for a, b in zip(
        gp.unique(d, return_index=True, return_inverse=True, return_counts=True),
        np.unique(x, return_index=True, return_inverse=True, return_counts=True))))
    y = rand(n, "f8")
    step(f"unique f8 nan {n}", lambda: eq(gp.unique(gp.asarray(y)), np.unique(y)))
    t = rng.integers(0, n // 5, 50 if SMALL else 500)
    step(f"isin {n}", lambda: eq(gp.isin(d, gp.asarray(t)), np.isin(x, t)))
    step(f"intersect1d {n}", lambda: eq(gp.intersect1d(d, gp.asarray(t)), np.intersect1d(x, t)))
for n in (101 if SMALL else 1001, MID, BIG):
    x = rng.standard_normal(n).astype("f4")
    d = gp.asarray(x)
    step(f"median f4 {n}", lambda: eq(gp.median(d), np.asarray(np.median(x))))
    step(f"percentile [5,50,95] {n}", lambda: eq(gp.percentile(d, [5, 50, 95]),
                                                  np.percentile(x, [5, 50, 95])))
    xn = x.copy()
    xn[::7] = np.nan
    step(f"nanmedian f4 {n}", lambda: eq(gp.nanmedian(gp.asarray(xn)),
                                         np.asarray(np.nanmedian(xn))))
x2 = rng.standard_normal((10, 30) if SMALL else (50, 300))
step("quantile rows axis 1", lambda: np.allclose(gp.quantile(gp.asarray(x2), 0.3, axis=1).get(),
                                                 np.quantile(x2, 0.3, axis=1)))
step("cov/corrcoef", lambda: np.allclose(gp.cov(gp.asarray(x2[:5])).get(), np.cov(x2[:5]))
     and np.allclose(gp.corrcoef(gp.asarray(x2[:5])).get(), np.corrcoef(x2[:5])))
for rule in ("fd", "auto"):
    step(f"histogram {rule}", lambda: all(np.allclose(u.get(), v) for u, v in zip(
        gp.histogram(gp.asarray(h[:5000]), rule), np.histogram(h[:5000], rule))))
print(f"{len(failures)} failed: {failures}", flush=True)
