#!/usr/bin/env python3
"""Write the PTX that npgpu ships for its most common kernels (``npgpu/_codegen/shipped.py``).

    python3 scripts/ship_ptx.py [--out DIR] [--any-backend]

Runs the workload below with every rendered kernel recorded, then compiles each recorded
kernel to PTX for sm_90 (Numba and NVVM, npgpu's options) into ``DIR`` (default: the package's
``npgpu/_codegen/shipped_ptx/``; on the device machine write to ``$OUT/shipped_ptx`` and copy
it back).  Run it on a GPU: the GPU renders its own launch shapes (words, grid-covering
kernels, one-pass reductions), and only those keys match a GPU process's kernels.
``--any-backend`` runs on the simulator too (the tests check the files and keys that way).

The workload is what a first session nearly always runs: the start-up benchmark's
``(a * 2 + 1).sum()`` and ``float()``, the four arithmetic operators, exp/sqrt, sum/mean/max,
astype and arange/zeros/ones, in float32 and float64, at a tiny and a large size.  int16
subtract (the start-up benchmark's "new kernel" row) is left out on purpose: that row
measures a real compile.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
ARCH = (9, 0)


def workload(npgpu, sizes):
    import numpy as np
    for dt in (np.float32, np.float64):
        other = np.float64 if dt == np.float32 else np.float32
        for n in sizes:
            h = np.random.default_rng(0).random(n).astype(dt)
            a = npgpu.asarray(h)
            b = npgpu.asarray(h[::-1].copy())
            float((a * 2 + 1).sum())
            for r in (a + b, a - b, a * b, a / b, npgpu.exp(a), npgpu.sqrt(a), a.astype(other)):
                r.get()
            for r in (a.sum(), a.mean(), a.max()):
                float(r)
            for r in (npgpu.arange(n, dtype=dt), npgpu.zeros(n, dt), npgpu.ones(n, dt)):
                r.get()


def compile_recorded(rec, out):
    """Phase 2, in its own process (Numba's real compiler, no simulator, no device): each
    recorded kernel's PTX for sm_90 into the store folder ``out``."""
    from npgpu._codegen import compiler, ptxcheck, shipped
    from npgpu._codegen.compiler import KernelSource
    ptxcheck._setup(False)
    total = 0
    for path in sorted(glob.glob(os.path.join(rec, "*.json"))):
        with open(path) as f:
            meta = json.load(f)
        ks = KernelSource.from_record(meta)
        ptx = compiler.compile_ptx(compiler.python_function(ks), ks.params, ARCH,
                                   launch_bounds=ks.launch_bounds, f64_table=ks.f64_table)
        shipped.store(ks, compiler._OPTIONS, ptx, compiler.ptx_entry(ptx), ARCH, directory=out)
        total += len(ptx)
        print(f"{ks.name}: {len(ptx) / 1024:.0f} KiB", flush=True)
    n = len(glob.glob(os.path.join(out, "*.ptx")))
    print(f"ship_ptx.py: {n} kernels in {out} ({total / 2**20:.2f} MiB written)", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=None, help="folder to write (default: the package's store)")
    ap.add_argument("--any-backend", action="store_true", help="run on the simulator too")
    ap.add_argument("--tiny", action="store_true", help="the tiny size only (a quick check)")
    ap.add_argument("--compile-from", help=argparse.SUPPRESS)     # phase 2 (own process)
    args = ap.parse_args(argv)
    if args.compile_from:
        compile_recorded(args.compile_from, args.out)
        return 0
    rec = tempfile.mkdtemp(prefix="npgpu-ship-")
    os.environ["NPGPU_RECORD_KERNELS"] = rec           # before npgpu is imported
    import npgpu
    from npgpu._codegen import shipped
    if npgpu.backend() != "cuda" and not args.any_backend:
        print("ship_ptx.py: needs a GPU (the GPU's kernels differ from the simulator's); "
              "--any-backend to run anyway", file=sys.stderr)
        return 2
    workload(npgpu, (16,) if args.tiny else (16, 1 << 20))
    out = os.path.abspath(args.out or shipped.STORE)
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="0", NPGPU_BACKEND="compile-only")
    env.pop("NPGPU_RECORD_KERNELS")
    return subprocess.run([sys.executable, os.path.abspath(__file__), "--compile-from", rec,
                           "--out", out], env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
