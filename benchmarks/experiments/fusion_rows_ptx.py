"""PTX of the GPU rendering of @npgpu.fuse's row kernel (any backend, the simulator too).

Run: ``python3 benchmarks/experiments/fusion_rows_ptx.py [cols [values a thread]]``: traces the row
normalisation on a small array, renders its row kernel as the GPU would for ``cols`` columns
(default 2^14: 1024 threads x 16 values), compiles it for sm_90 and prints instruction
counts by opcode (loads, stores, float64 work, shuffles, barriers).  ``ROWS_FN=softmax``
(``log_softmax``, ``logsumexp``): SciPy's fused function of that name instead."""
import collections
import os
import pickle
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import numpy as np  # noqa: E402

import npgpu  # noqa: E402
from npgpu._codegen import compiler  # noqa: E402
from npgpu.fusion import rows  # noqa: E402


def main():
    cols = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 14
    kind = os.environ.get("ROWS_FN", "rownorm")
    if kind == "rownorm":
        f = npgpu.fuse(lambda x: (x - x.mean(axis=1, keepdims=True))
                       / x.std(axis=1, keepdims=True))
    else:                                   # softmax, log_softmax, logsumexp (SciPy's)
        import importlib
        lse = importlib.import_module("npgpu.scipy.special.logsumexp")
        f = lse._fused(kind, 1)
    x = npgpu.asarray(np.random.default_rng(0).standard_normal((4, 32)).astype(np.float32))
    f(x)
    rep = next(iter(f._replays.values()))
    p = rep.rows
    rows._SIM = False                       # the GPU's block reduction (warp shuffles)
    target = int(sys.argv[2]) if len(sys.argv) > 2 else rows.VPT_TARGET_GPU
    block = 32
    while block < 1024 and block * target < cols:
        block *= 2
    vpt = -(-cols // block)
    ks = rows.render(p, [np.dtype(np.float32)], block, vpt, cols == vpt * block)
    # compiled in a process without the simulator (as npgpu._codegen.ptxcheck does)
    with tempfile.NamedTemporaryFile(suffix=".pkl", delete=False) as fh:
        pickle.dump((ks.name, ks.source, ks.params, ks.launch_bounds), fh)
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="0", NPGPU_BACKEND="compile-only")
    ptx = subprocess.run([sys.executable, __file__, "--compile", fh.name], env=env, check=False,
                         stdout=subprocess.PIPE, text=True).stdout
    os.unlink(fh.name)
    ops = collections.Counter()
    for line in ptx.splitlines():
        m = re.match(r"\s+(?:@%p\d+\s+)?([a-z][\w.]*)", line)
        if m and not line.strip().startswith((".", "//")):
            ops[m.group(1)] += 1
    print(f"{ks.name}: block {block}, {vpt} values a thread, launch bounds {ks.launch_bounds}, "
          f"{sum(ops.values())} PTX lines")
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as fh:
        # (NVVM may emit a newer PTX ISA than the local ptxas reads; this kernel needs none of it)
        fh.write(re.sub(r"^\.version .*$", ".version 8.0", ptx, count=1, flags=re.M))
    # registers a thread (ptxas, where installed): 2 blocks of 1024 need <= 32, of 512 <= 64
    r = subprocess.run(["ptxas", "-arch=sm_90", "-v", "-o", os.devnull, fh.name]
                       + os.environ.get("PTXAS_FLAGS", "").split(),
                       capture_output=True, text=True)
    print("\n".join(ln for ln in (r.stderr + r.stdout).splitlines()
                    if "Used" in ln or "spill" in ln or "rror" in ln))
    os.unlink(fh.name)
    for op, n in sorted(ops.items(), key=lambda kv: -kv[1])[:40]:
        print(f"  {n:6d} {op}")


def compile_only(path):
    from npgpu._codegen import ptxcheck
    from npgpu._codegen.compiler import KernelSource
    ptxcheck._setup(False)                  # sm_90 without a device
    with open(path, "rb") as fh:
        name, source, params, bounds = pickle.load(fh)
    ks = KernelSource(name, source, params, bounds)
    sys.stdout.write(compiler.compile_ptx(compiler.python_function(ks), ks.params, (9, 0),
                                          launch_bounds=bounds))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--compile"]:
        compile_only(sys.argv[2])
    else:
        main()
