#!/usr/bin/env python3
"""Charts of time against array size, one PNG per operation, a line per library (npgpu, CuPy,
PyTorch, NumPy).

    python3 benchmarks/plot.py [BENCH_JSON] [--out DIR]        # draw from a benchmark JSON
    python3 benchmarks/plot.py --measure [--smoke] [--out DIR]  # measure the charts' cases, draw

Drawing reads BENCH_JSON, else $OUT/bench.json, else benchmarks/last.json (what
``benchmarks/run.py`` writes) and draws every operation that has float32 rows at two sizes or
more, such as the ``sweep`` section's add, exp and sum.

``--measure`` times the four charts of the project's seed over sizes (add, transposed add
``x.T + y`` with x of shape (32, n/32), ``dot`` of two square matrices (size: elements of one),
and a fused saxpy ``2*x + y``), with run.py's timing (CUDA events, interleaved rounds; per-call
timing up to 2^16 elements) and writes them to $OUT/plot.json (else benchmarks/plot.json)
before drawing.  Each case prints a line as it finishes.  ``--smoke``: tiny sizes (simulator).

PNGs go to --out, else $OUT/plots, else benchmarks/plots.  Without matplotlib the script says
so and exits 0 (the JSON is still written by --measure).
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIBS = ("npgpu", "cupy", "torch", "numpy")
STYLE = {"npgpu": ("tab:green", "o"), "cupy": ("tab:blue", "s"), "torch": ("tab:red", "^"),
         "numpy": ("tab:gray", "v")}
XLABEL = {"dot": "elements of each square float32 operand (n x n)"}
# "add f32 2^20", "fused saxpy f32 1024": an operation, float32, one size (in elements)
_LABEL = re.compile(r"^(?P<op>[A-Za-z][\w .*()+-]*?) f32 (?:2\^(?P<k>\d+)|(?P<n>\d+))$")


def series(report):
    """{op: {lib: [(size, seconds)]}} from every section of a run.py / --measure report, for
    operations with at least two sizes."""
    found = {}
    for rows in report.get("sections", {}).values():
        for row in rows:
            m = _LABEL.match(row.get("case", ""))
            if m is None:
                continue
            size = 2 ** int(m["k"]) if m["k"] else int(m["n"])
            for lib, r in (row.get("results") or {}).items():
                if r and "time_s" in r:
                    found.setdefault(m["op"], {}).setdefault(lib, {})[size] = r["time_s"]
    out = {}
    for op, libs in found.items():
        if max(len(v) for v in libs.values()) >= 2:
            out[op] = {lib: sorted(v.items()) for lib, v in libs.items()}
    return out


def _caption(report):
    env = report.get("env", {})
    dev = env.get("device") or env.get("npgpu_backend") or "unknown device"
    return f"{dev}, {report.get('date', 'date not recorded')}"


def draw(report, out_dir, fmt="png"):
    """One chart per operation (``fmt``: png, or svg -- text, as the charts kept in the repo
    are); returns the paths written (None without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.fonttype"] = "none"      # text stays text: small files
        matplotlib.rcParams["svg.hashsalt"] = "npgpu"      # the same data, the same file
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is not installed (pip install matplotlib); no charts drawn")
        return None
    os.makedirs(out_dir, exist_ok=True)
    paths = []
    for op, libs in sorted(series(report).items()):
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        for lib in LIBS:
            pts = libs.get(lib)
            if not pts:
                continue
            colour, marker = STYLE[lib]
            ax.plot([p[0] for p in pts], [p[1] * 1e6 for p in pts], marker=marker,
                    color=colour, label=lib, markersize=4)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel(XLABEL.get(op, "array size (float32 elements)"))
        ax.set_ylabel("time per call (µs)")
        ax.set_title(f"{op}\n{_caption(report)}", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        path = os.path.join(out_dir, re.sub(r"[^\w]+", "_", op).strip("_") + "." + fmt)
        fig.savefig(path, dpi=110, **({"metadata": {"Date": None}} if fmt == "svg" else {}))
        plt.close(fig)
        paths.append(path)
        print(f"plot.py: wrote {path}")
    if not paths:
        print("plot.py: no operation with two or more float32 sizes in this report")
    return paths


# ---- --measure: the four charts' cases, timed by run.py's machinery ------------------------------

def chart_cases(cfg, run):
    """add, transposed add, dot and fused saxpy of float32 over sizes, as run.py Cases."""
    import numpy as np
    import fusion_cases
    import types
    H, Case, p2 = run.H, run.Case, run.p2
    api = types.SimpleNamespace(torch_of=run._t)
    f32 = np.float32
    if cfg["smoke"]:
        sizes, sides = [2 ** 4, 2 ** 6, 2 ** 8], [4, 8, 16]
    else:
        sizes, sides = [4 ** k for k in range(5, 15)], [2 ** k for k in range(5, 14)]
    kind = lambda n: "call" if n <= cfg["sweep_call_max"] else "bw"  # noqa: E731

    def saxpy_make(n):
        def make(lib):
            x, y = lib.put(H.rand(n, f32, "a")), lib.put(H.rand(n, f32, "b"))
            f = fusion_cases._fused(lib, api, lambda xp, a, b: 2.0 * a + b)
            return lambda: f(x, y)
        return make

    cases = []
    for n in sizes:
        r = 32 if n >= 2 ** 10 else 4
        cases += [
            Case(f"add f32 {p2(n)}", run.binop(lambda n=n: H.rand(n, f32, "a"),
                                               lambda n=n: H.rand(n, f32, "b"),
                                               lambda x, y: x + y), kind(n), 12 * n),
            Case(f"transposed add f32 {p2(n)}",
                 run.binop(lambda n=n, r=r: H.rand((r, n // r), f32, "a"),
                           lambda n=n, r=r: H.rand((n // r, r), f32, "b"),
                           lambda x, y: x.T + y), kind(n), 12 * n),
            Case(f"fused saxpy f32 {p2(n)}", saxpy_make(n), kind(n), 12 * n)]
    for s in sides:
        cases.append(Case(f"dot f32 {p2(s * s)}",
                          run.binop(lambda s=s: H.rand((s, s), f32, "a"),
                                    lambda s=s: H.rand((s, s), f32, "b"),
                                    lambda x, y: x @ y),
                          "call" if s * s <= cfg["sweep_call_max"] else "flop",
                          flops=2 * s ** 3))
    return cases


def _clocks_up(libs, seconds=0.3):
    """Keep the GPU busy a moment before an event-timed case: after the host-bound per-call
    sizes its clocks drop, and the first event-timed size then ran 5-10x slow for every
    library (the 2^18 point of the first H200 charts)."""
    import time
    lib = libs.get("npgpu")
    if lib is None or lib.xp.backend() != "cuda":
        return
    src = lib.xp.ones(1 << 26, dtype="float32")
    dst = lib.xp.empty_like(src)
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        for _ in range(20):
            lib.xp.copyto(dst, src)
        lib.sync()
    del src, dst


def measure(smoke, path):
    """Time the charts' cases; the report is rewritten to ``path`` after every case, so a run
    cut short (a device call's time limit) still leaves what it measured."""
    import time
    sys.path.insert(0, HERE)
    import run
    cfg = run.make_config(smoke)
    libs, load_errors = run.load_libs()
    rows = []
    report = {"config": cfg, "env": run.env_info(libs, load_errors),
              "date": time.strftime("%Y-%m-%d"), "sections": {"plot": rows}}
    cases = chart_cases(cfg, run)
    pcfg = dict(cfg, percall_n=cfg["sweep_percall_n"])
    for i, case in enumerate(cases, 1):
        run.log(f"[{i}/{len(cases)}]")
        if case.kind != "call":
            _clocks_up(libs)
        rows.append(run.derive(run.run_case(case, libs, load_errors, pcfg), None))
        with open(path, "w") as f:
            json.dump(report, f, indent=1, default=str)
    run.H.clear()
    return report


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", nargs="?", help="benchmark JSON to draw (default: $OUT/bench.json, "
                    "else benchmarks/last.json)")
    ap.add_argument("--measure", action="store_true", help="time the four charts' cases first")
    ap.add_argument("--smoke", action="store_true", help="with --measure: tiny sizes")
    ap.add_argument("--out", help="folder for the charts (default: $OUT/plots or benchmarks/plots)")
    ap.add_argument("--format", choices=("png", "svg"), default="png",
                    help="png (default), or svg (text; the charts kept in benchmarks/results/)")
    args = ap.parse_args(argv)
    out_env = os.environ.get("OUT")
    out_dir = args.out or os.path.join(out_env or HERE, "plots")
    if args.measure:
        path = os.path.join(out_env, "plot.json") if out_env else os.path.join(HERE, "plot.json")
        report = measure(args.smoke, path)
        print(f"plot.py: measurements written to {path}")
    else:
        path = args.json or (os.path.join(out_env, "bench.json")
                             if out_env and os.path.exists(os.path.join(out_env, "bench.json"))
                             else os.path.join(HERE, "last.json"))
        with open(path) as f:
            report = json.load(f)
        if "date" not in report:        # run.py records none: the file's own date
            import time
            report["date"] = time.strftime("%Y-%m-%d", time.localtime(os.path.getmtime(path)))
    draw(report, out_dir, args.format)
    return 0


if __name__ == "__main__":
    sys.exit(main())
