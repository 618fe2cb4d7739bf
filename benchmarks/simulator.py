#!/usr/bin/env python3
"""How long npgpu takes on Numba's CUDA simulator (a machine without a GPU, e.g. CI's).

    python3 benchmarks/simulator.py [--only NAME ...] [--timeout S] [--tree DIR]

Each case runs in a fresh process on the simulator (NPGPU_BACKEND=simulator) and is timed
from just before its first npgpu call to its last result on the host, so kernel rendering
and the simulator's compile are included (what a user waits for).  Wall seconds and the
process's CPU seconds (all its threads) are shown: on a shared machine the CPU seconds are the
steadier number.  ``ten-lines`` is the
README's "Ten lines" snippet as written, import included.  A case past ``--timeout`` seconds is
stopped and reported as ``> S``.  ``--tree`` times another checkout (e.g. an older commit
unpacked with ``git archive``) with the same cases.  Prints one table.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

_PRELUDE = """
import time, warnings
import numpy
warnings.simplefilter("ignore")
import npgpu as np
rng = numpy.random.default_rng(0)
"""

# name -> (what it measures, setup source, timed source); the timed source ends with a host copy
CASES = {
    "add": ("x + y, 10^6 float32",
            "x = np.asarray(rng.standard_normal(10**6, dtype=numpy.float32)); y = x * 1",
            "(x + y).get()"),
    "exp": ("np.exp(x), 10^6 float32",
            "x = np.asarray(rng.standard_normal(10**6, dtype=numpy.float32))",
            "np.exp(x).get()"),
    "add-transposed": ("x + x.T, 1000 x 1000 float32",
                       "x = np.asarray(rng.standard_normal((1000, 1000), dtype=numpy.float32))",
                       "(x + x.T).get()"),
    "sum": ("np.sum(x), 10^6 float32",
            "x = np.asarray(rng.standard_normal(10**6, dtype=numpy.float32))",
            "np.sum(x).get()"),
    "matmul": ("x @ x, 64 x 64 float32",
               "x = np.asarray(rng.standard_normal((64, 64), dtype=numpy.float32))",
               "(x @ x).get()"),
}


_START = "t0, c0 = time.perf_counter(), time.process_time()\n"
_STOP = "\nprint('SECONDS', time.perf_counter() - t0, time.process_time() - c0)\n"


def readme_snippet(root=ROOT):
    """The README's "Ten lines" code block, as written."""
    with open(os.path.join(root, "README.md")) as f:
        text = f.read()
    m = re.search(r"^## Ten lines\s*\n+```python\n(.*?)^```", text, re.S | re.M)
    if m is None:
        raise RuntimeError("README.md has no '## Ten lines' python block")
    return m.group(1)


def _program(name, root):
    if name == "ten-lines":
        snippet = readme_snippet(root)
        return ("import time, warnings\nwarnings.simplefilter('ignore')\n" + _START + snippet
                + _STOP)
    _, setup, timed = CASES[name]
    return _PRELUDE + setup + "\n" + _START + timed + "\n" + _STOP


def run_case(name, root, timeout):
    """(wall, CPU) seconds the case took in a fresh simulator process, or None past
    ``timeout``."""
    env = dict(os.environ, NPGPU_BACKEND="simulator", PYTHONPATH=root)
    try:
        p = subprocess.run([sys.executable, "-c", _program(name, root)], cwd=root, env=env,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode:
        raise RuntimeError(f"{name} failed:\n{p.stderr[-3000:]}")
    wall, cpu = p.stdout.rsplit("SECONDS", 1)[1].split()
    return float(wall), float(cpu)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    names = ["ten-lines", *CASES]
    ap.add_argument("--only", nargs="+", choices=names, default=names)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--tree", default=ROOT, help="checkout to time (default: this one)")
    args = ap.parse_args()
    root = os.path.abspath(args.tree)
    what = {"ten-lines": "README 'Ten lines' as written (1000 x 1000 float32)"}
    what.update({k: v[0] for k, v in CASES.items()})
    print(f"npgpu on the simulator: {root} ({os.cpu_count()} cores)")
    print(f"{'case':<16}{'wall s':>9}{'CPU s':>9}  what", flush=True)
    for name in args.only:
        secs = run_case(name, root, args.timeout)
        if secs is None:
            wall, cpu = f"> {args.timeout:.0f}", "-"
        else:
            wall, cpu = f"{secs[0]:.1f}", f"{secs[1]:.1f}"
        print(f"{name:<16}{wall:>9}{cpu:>9}  {what[name]}", flush=True)


if __name__ == "__main__":
    main()
