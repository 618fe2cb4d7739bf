"""Occupancy knobs of the radix sort and of the mask-select scatter, swept on the GPU.

    python3 benchmarks/experiments/radix_knobs.py [VARIANT ...]

A variant is ``items,minblocks,tileminblocks[,onesweep[,count]]`` (``NPGPU_RADIX_ITEMS``,
``NPGPU_RADIX_MINBLOCKS``, ``NPGPU_TILE_SELECT_MINBLOCKS``, ``NPGPU_RADIX_ONESWEEP``,
``NPGPU_RADIX_COUNT``; 0 = the default, minblocks -1 = no launch bounds; onesweep 1: one
histogram kernel for every pass, then one look-back scatter a pass; count ``ballot`` or
``atomic``: how the count kernel adds a tile's digits).
The knobs are read at import, so every variant runs in its own process (which compiles its
kernels first):
sort float32 2^26, sort int32 2^24, argsort int32 2^24, ``a[mask]`` of 2^26 float32, sort and
argsort of float64 2^24, each
the median of CUDA-event timings, checked against NumPy.  Nsight Compute found the scatter at
140 registers and 44 KiB of shared memory a block (one 256-thread block an SM, 12.5%
occupancy) and the mask select's at 89 registers (25%); these variants trade items a thread
and register caps for occupancy.
"""
import os
import subprocess
import sys

# the split passes against onesweep, at the default 8 items and at 12 / 16 (onesweep has no
# count kernel: a larger tile costs it only look-back statuses), and with 4 blocks an SM (the
# mask select at its default, 4)
DEFAULT = ["8,0,4,0", "8,0,4,1", "12,0,4,1", "16,0,4,1", "8,4,4,0", "8,4,4,1"]
HERE = os.path.dirname(os.path.abspath(__file__))


def worker():
    sys.path.insert(0, HERE)
    from _common import SHIFT, gl, gp, timer
    import numpy as np
    t = timer(20, 3.0)
    rng = np.random.default_rng(0)
    f32 = rng.standard_normal((1 << 26) >> SHIFT).astype(np.float32)
    i32 = rng.integers(-2 ** 31, 2 ** 31, (1 << 24) >> SHIFT).astype(np.int32)
    f64 = rng.standard_normal((1 << 24) >> SHIFT)
    a = rng.random((1 << 26) >> SHIFT, np.float32)
    m = rng.random(a.size) < 0.5
    gf, gi, ga, gm, gd = (gp.asarray(x) for x in (f32, i32, a, m, f64))
    cases = [("sort f32 2^26", lambda: gp.sort(gf), lambda r: np.array_equal(r.get(), np.sort(f32))),
             ("sort i32 2^24", lambda: gp.sort(gi), lambda r: np.array_equal(r.get(), np.sort(i32))),
             ("argsort i32 2^24", lambda: gp.argsort(gi),
              lambda r: np.array_equal(r.get(), np.argsort(i32, kind="stable"))),
             ("a[m] f32 2^26", lambda: ga[gm], lambda r: np.array_equal(r.get(), a[m])),
             ("sort f64 2^24", lambda: gp.sort(gd), lambda r: np.array_equal(r.get(), np.sort(f64))),
             ("argsort f64 2^24", lambda: gp.argsort(gd),
              lambda r: np.array_equal(r.get(), np.argsort(f64, kind="stable")))]
    out = []
    for name, fn, ok in cases:
        good = ok(fn())
        out.append(f"{name} {t(gl, fn) * 1e6:8.1f} us{'' if good else ' WRONG'}")
    print(" | ".join(out), flush=True)


def main():
    for v in sys.argv[1:] or DEFAULT:
        items, mb, tmb, sweep, count = (v.split(",") + ["0", ""])[:5]
        env = dict(os.environ, NPGPU_RADIX_ITEMS=items, NPGPU_RADIX_MINBLOCKS=mb,
                   NPGPU_TILE_SELECT_MINBLOCKS=tmb, NPGPU_RADIX_ONESWEEP=sweep)
        if count:
            env["NPGPU_RADIX_COUNT"] = count
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker"], env=env,
                           capture_output=True, text=True, timeout=240)
        lines = [x for x in r.stdout.splitlines() if "|" in x]
        print(f"{v:18s} {lines[-1] if lines else 'FAILED: ' + r.stderr[-400:]}", flush=True)


if __name__ == "__main__":
    worker() if "--worker" in sys.argv else main()
