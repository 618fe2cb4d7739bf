"""Where a fresh process's first npgpu call spends its time, with an empty and a warm kernel cache.

Run: ``python3 benchmarks/experiments/startup_profile.py [--rounds N] [--profile]``

Runs N rounds (default 2) of two fresh processes sharing a new ``NPGPU_CACHE_DIR``: the first
finds it empty (every kernel is compiled: Numba's typing, NVVM, the driver's linker), the second
finds every cubin there.  Each process does ``import numpy; import npgpu``, makes the context
current, then the benchmark's workload ``a = asarray(h); r = (a * 2 + 1).sum(); float(r)`` and
prints, per step, its wall time, the kernels it compiled or loaded from disk, and the time spent
inside the compiler's and driver's steps (inclusive, so nested steps overlap); then npgpu's
costliest modules at import (``-X importtime`` self time) and whether Numba was imported at
all.  The floor (``import numpy`` + ``cuInit`` + primary context, what any CUDA library pays)
is timed in its own process.  ``--profile``: the warm process's workload under cProfile too.
Runs on the simulator (no compile/disk steps there, and no floor).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHILD = r"""
import json, sys, time
T = time.perf_counter
t0 = T()
N = int(sys.argv[1])
PROFILE = sys.argv[2] == "1"
steps, inner = [], {}

def step(name, t):
    steps.append((name, (T() - t) * 1e3, dict(stats) if stats is not None else {}))

stats = None
t = T(); import numpy as np; step("import numpy", t)
t = T(); import npgpu; step("import npgpu (incl. cuInit probe)", t)
from npgpu._codegen import compiler, launcher
from npgpu.cuda import runtime
stats = compiler.stats
numba_after_import = sorted(m for m in sys.modules if m == "numba" or m.startswith("numba."))

def wrap(owner, name, label):
    f = getattr(owner, name, None)
    if f is None:
        return
    def timed(*a, **k):
        t = T()
        try:
            return f(*a, **k)
        finally:
            c, s = inner.get(label, (0, 0.0))
            inner[label] = (c + 1, s + (T() - t) * 1e3)
    setattr(owner, name, timed)

targets = [(compiler, ("_compile_gpu", "_toolchain_tag", "_disk_key", "_disk_read", "_disk_write",
                       "python_function", "compile_ptx"))]
if npgpu.backend() == "cuda":
    from npgpu.cuda import _driver as drv
    targets.append((drv, ("link_ptx_to_cubin", "load_function")))
for mod, names in targets:
    for n in names:
        wrap(mod, n, f"{mod.__name__.split('.')[-1]}.{n}")
wrap(launcher.Launcher, "__init__", "Launcher.__init__")

t = T(); runtime.ensure_context(); step("context (primary, current)", t)
h = np.random.default_rng(0).random(N, dtype=np.float32)
t = T(); a = npgpu.asarray(h); step("asarray (pool, H2D)", t)
if PROFILE:
    import cProfile, pstats, io
    pr = cProfile.Profile(); pr.enable()
t = T(); b = a * 2; step("a * 2 (first ufunc: multiply)", t)
t = T(); c = b + 1; step("+ 1 (add)", t)
t = T(); r = c.sum(); step(".sum()", t)
t = T(); v = float(r); step("float() (D2H, sync)", t)
if PROFILE:
    pr.disable(); s = io.StringIO()
    pstats.Stats(pr, stream=s).sort_stats("cumtime").print_stats(25)
    profile = s.getvalue()
else:
    profile = ""
total = (T() - t0) * 1e3
numba_after = sorted(m for m in sys.modules if m == "numba" or m.startswith("numba."))
print("PROFILEJSON " + json.dumps({
    "backend": npgpu.backend(), "steps": steps, "inner": inner, "total_ms": total,
    "numba_after_import": len(numba_after_import), "numba_after_workload": len(numba_after),
    "numba_cuda_compiler": "numba.cuda.compiler" in sys.modules,
    "scipy_linalg": "scipy.linalg" in sys.modules, "profile": profile}))
"""

FLOOR = r"""
import time, json, ctypes
t0 = time.perf_counter()
import numpy
t1 = time.perf_counter()
cu = ctypes.CDLL("libcuda.so.1")
dev, ctx = ctypes.c_int(), ctypes.c_void_p()
assert cu.cuInit(0) == 0
t2 = time.perf_counter()
assert cu.cuDeviceGet(ctypes.byref(dev), 0) == 0
assert cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev) == 0
assert cu.cuCtxSetCurrent(ctx) == 0
t3 = time.perf_counter()
print("PROFILEJSON " + json.dumps({"import numpy": (t1 - t0) * 1e3, "cuInit": (t2 - t1) * 1e3,
                                   "primary context": (t3 - t2) * 1e3, "total": (t3 - t0) * 1e3}))
"""


def run(code, args, env, importtime=False):
    cmd = [sys.executable] + (["-X", "importtime"] if importtime else []) + ["-c", code, *args]
    p = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    for line in p.stdout.splitlines():
        if line.startswith("PROFILEJSON "):
            return json.loads(line[len("PROFILEJSON "):]), p.stderr
    raise RuntimeError(f"child exited {p.returncode}: {p.stderr.strip()[-2000:]}")


def import_top(stderr, k=8):
    """npgpu's modules with the largest import self time, from ``-X importtime``."""
    rows = []
    for line in stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            parts = line[len("import time:"):].split("|")
            name = parts[2].strip()
            if name.startswith("npgpu") and parts[0].strip().isdigit():
                rows.append((int(parts[0]), int(parts[1]), name))
    rows.sort(reverse=True)
    return rows[:k]


def report(tag, res, stderr):
    print(f"\n== {tag}: backend {res['backend']}, workload process total {res['total_ms']:.1f} ms "
          f"(from the child's first line)")
    prev = {}
    for name, ms, st in res["steps"]:
        d = {k: st.get(k, 0) - prev.get(k, 0) for k in ("compiles", "disk_hits", "shipped", "launches")}
        prev = st
        kern = ", ".join(f"{v} {k}" for k, v in d.items() if v)
        print(f"  {name:36s} {ms:9.2f} ms   {kern}")
    if res["inner"]:
        print("  inside (inclusive; calls, ms):")
        for name, (calls, ms) in sorted(res["inner"].items(), key=lambda x: -x[1][1]):
            print(f"    {name:34s} {calls:4d} {ms:9.2f} ms")
    print(f"  numba modules: {res['numba_after_import']} after import, "
          f"{res['numba_after_workload']} after the workload; numba.cuda.compiler imported: "
          f"{res['numba_cuda_compiler']}; scipy.linalg imported (numba-cuda's BLAS probe): "
          f"{res['scipy_linalg']}")
    print("  npgpu import, largest self times (self / cumulative ms):")
    for s, c, name in import_top(stderr):
        print(f"    {name:40s} {s / 1e3:7.2f} / {c / 1e3:7.2f}")
    if res["profile"]:
        print(res["profile"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("-n", type=int, default=2 ** 20, help="elements of the workload's array")
    args = ap.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    subprocess.run([sys.executable, "-c", "import npgpu"], env=env, cwd=ROOT,
                   capture_output=True)        # .pyc files and the OS file cache, untimed
    for r in range(args.rounds):
        try:
            floor, _ = run(FLOOR, [], env)
            print(f"\n== floor (round {r + 1}): " + ", ".join(f"{k} {v:.1f} ms"
                                                           for k, v in floor.items()))
        except RuntimeError as e:
            print(f"\n== floor (round {r + 1}): not measured ({str(e).splitlines()[-1]})")
        with tempfile.TemporaryDirectory(prefix="npgpu-startup-") as d:
            env["NPGPU_CACHE_DIR"] = d
            for tag in ("cold (empty kernel cache)", "warm (same cache again)"):
                prof = "1" if args.profile and tag.startswith("warm") else "0"
                res, stderr = run(CHILD, [str(args.n), prof], env, importtime=True)
                report(f"{tag}, round {r + 1}", res, stderr)


if __name__ == "__main__":
    main()
