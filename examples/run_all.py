#!/usr/bin/env python3
"""Run every worked example, one after another, at its fixed large size (on a GPU) or its small
one (``--small``, and always on the simulator), and sum up.

    python examples/run_all.py [--small] [--only NAME ...]

Each example runs in its own process, as a user starts it; its lines are echoed as they come
(prefixed by its name), so a long run shows progress.  At the end: one line per example with
its wall time (process start to exit: import, compiles and NumPy's side included) and whether
it passed its own NumPy checks, then the total.  With ``$OUT`` set the same summary, plus every
example's step lines (npgpu and NumPy times side by side), goes to ``$OUT/examples.md``.
Exits 1 if any example failed.
"""
import argparse
import os
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from timing_and_checks import CHECK_LINE  # noqa: E402

NOT_EXAMPLES = {"quickstart.py", "timing_and_checks.py", "run_all.py"}
TIMEOUT_S = 600


def examples():
    return sorted(p.stem for p in HERE.glob("*.py") if p.name not in NOT_EXAMPLES)


def run_one(name, small):
    """(seconds, passed, output lines) of one example, echoing its lines as they come."""
    cmd = [sys.executable, str(HERE / f"{name}.py")] + (["--small"] if small else [])
    t0 = time.perf_counter()
    lines = []
    with subprocess.Popen(cmd, cwd=HERE.parent, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, bufsize=1) as proc:
        try:
            for line in proc.stdout:
                line = line.rstrip("\n")
                lines.append(line)
                print(f"[{name}] {line}", flush=True)
            proc.wait(timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            lines.append(f"(killed after {TIMEOUT_S} s)")
    dt = time.perf_counter() - t0
    passed = proc.returncode == 0 and any(ln.startswith(CHECK_LINE) for ln in lines)
    return dt, passed, lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--small", action="store_true", help="the simulator's sizes on a GPU too")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="these examples only")
    args = ap.parse_args(argv)
    names = examples()
    if args.only:
        unknown = sorted(set(args.only) - set(names))
        if unknown:
            ap.error(f"no such example: {', '.join(unknown)} (have: {', '.join(names)})")
        names = [n for n in names if n in args.only]
    results = []
    t0 = time.perf_counter()
    for i, name in enumerate(names, 1):
        print(f"== [{i}/{len(names)}] {name}", flush=True)
        results.append((name, *run_one(name, args.small)))
    total = time.perf_counter() - t0
    summary = [f"{'example':<26s} {'wall s':>8s}  result"]
    summary += [f"{n:<26s} {dt:8.1f}  {'passed' if ok else 'FAILED'}" for n, dt, ok, _ in results]
    summary.append(f"{'all ' + str(len(results)):<26s} {total:8.1f}")
    print("\n".join(summary), flush=True)
    out = os.environ.get("OUT")
    if out:
        body = ["# Examples" + (" (small sizes)" if args.small else ""), "", "```",
                *summary, "```", ""]
        for n, dt, ok, lines in results:
            body += [f"## {n} ({dt:.1f} s, {'passed' if ok else 'FAILED'})", "", "```",
                     *lines, "```", ""]
        pathlib.Path(out, "examples.md").write_text("\n".join(body))
    return 0 if all(ok for _, _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
