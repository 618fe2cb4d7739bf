"""How much of a Dask compute's host time is npgpu's (issue 22): the benchmark expression
``((x - x.mean(axis=0)) ** 2).sum()`` over the same small Dask array (8 row chunks) with NumPy
chunks and with npgpu chunks, computed alternately, host time per ``compute()``.

Run (CPU machine, any backend): ``python3 benchmarks/experiments/dask_host_share.py [--reps N]``.
npgpu runs with every driver call a C stub returning at once (``host_overhead.stub_driver()``:
the GPU's whole host path, nothing executed), so both rows are host time alone: NumPy's row is
what Dask costs around any chunk library (its graph optimisation, ordering and task execution;
NumPy's own work on 2^11-element chunks is a few microseconds), npgpu's row minus it is npgpu's
share.  The H200 target of 1.3x plain npgpu's 6.2 ms leaves 1.9 ms for everything around the
GPU work."""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npgpu  # noqa: E402,F401
import host_overhead  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=40)
    args = ap.parse_args()
    host_overhead.stub_driver()
    import dask
    import dask.array as da

    def expr(backend):
        with dask.config.set({"array.backend": backend}):
            x = da.random.default_rng(22).standard_normal(
                (1 << 8, 1 << 6), chunks=(1 << 5, 1 << 6), dtype="float32")
        x = x.persist(scheduler="sync")
        return ((x - x.mean(axis=0)) ** 2).sum()

    exprs = {b: expr(b) for b in ("numpy", "npgpu")}
    for sched in ("sync", "threads"):
        times = {b: [] for b in exprs}
        for e in exprs.values():
            e.compute(scheduler=sched)
        for _ in range(args.reps):           # alternating: the machine's drift hits both
            for b, e in exprs.items():
                t = time.perf_counter()
                e.compute(scheduler=sched)
                times[b].append(time.perf_counter() - t)
        med = {b: statistics.median(v) * 1e3 for b, v in times.items()}
        print(f"{sched:8s} numpy chunks {med['numpy']:7.2f} ms   npgpu chunks {med['npgpu']:7.2f}"
              f" ms   npgpu's share {med['npgpu'] - med['numpy']:6.2f} ms")


if __name__ == "__main__":
    main()
