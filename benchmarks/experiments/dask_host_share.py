"""How much of a Dask compute's host time is npgpu's (issue 22): the benchmark expression
``((x - x.mean(axis=0)) ** 2).sum()`` over the same small Dask array (8 row chunks) with NumPy
chunks and with npgpu chunks, computed alternately, host time per ``compute()``.

Run (CPU machine, any backend): ``python3 benchmarks/experiments/dask_host_share.py [--reps N]``.
npgpu runs with every driver call a C stub returning at once (``host_overhead.stub_driver()``:
the GPU's whole host path, nothing executed), so both rows are host time alone: NumPy's row is
what Dask costs around any chunk library (its graph optimisation, ordering and task execution;
NumPy's own work on 2^11-element chunks is a few microseconds), npgpu's row minus it is npgpu's
share.  The H200 target of 1.3x plain npgpu's 6.2 ms leaves 1.9 ms for everything around the
GPU work.  "Before the first task": host time from ``compute()`` to its first task (NumPy
chunks), when the GPU can have no work of the compute yet (a lower bound's first term).

``--cluster``: the same expression with NumPy chunks on distributed's ``LocalCluster`` with one
worker process of one thread (what ``LocalCUDACluster`` starts per GPU): the time of one
``compute()`` that the scheduler, the worker and their messages take whatever the chunks are.
The H200 target of 1.5x plain npgpu leaves 3.1 ms for all of it."""
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
    ap.add_argument("--cluster", action="store_true")
    args = ap.parse_args()
    if args.cluster:
        return cluster(args.reps)
    host_overhead.stub_driver()
    import dask
    import dask.array as da

    def expr(backend):
        with dask.config.set({"array.backend": backend}):
            x = da.random.default_rng(22).standard_normal(
                (1 << 8, 1 << 6), chunks=(1 << 5, 1 << 6), dtype="float32")
        x = x.persist(scheduler="sync")
        return ((x - x.mean(axis=0)) ** 2).sum()

    from dask.callbacks import Callback

    first = []

    class FirstTask(Callback):
        # the host clock when the compute's first task starts: no chunk library is called (so
        # no GPU work can be queued) before Dask has optimised and ordered the graph
        def _pretask(self, key, dsk, state):
            if not first:
                first.append(time.perf_counter())

    exprs = {b: expr(b) for b in ("numpy", "npgpu")}
    for sched in ("sync", "threads"):
        times = {b: [] for b in exprs}
        before = []
        for e in exprs.values():
            e.compute(scheduler=sched)
        for _ in range(args.reps):           # alternating: the machine's drift hits both
            for b, e in exprs.items():
                t = time.perf_counter()
                e.compute(scheduler=sched)
                times[b].append(time.perf_counter() - t)
            first.clear()
            with FirstTask():
                t = time.perf_counter()
                exprs["numpy"].compute(scheduler=sched)
            before.append(first[0] - t)
        med = {b: statistics.median(v) * 1e3 for b, v in times.items()}
        print(f"{sched:8s} numpy chunks {med['numpy']:7.2f} ms   npgpu chunks {med['npgpu']:7.2f}"
              f" ms   npgpu's share {med['npgpu'] - med['numpy']:6.2f} ms   before the first"
              f" task {statistics.median(before) * 1e3:5.2f} ms")


def cluster(reps):
    import dask.array as da
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=None) as c, Client(c) as client:
        x = da.random.default_rng(22).standard_normal(
            (1 << 8, 1 << 6), chunks=(1 << 5, 1 << 6), dtype="float32").persist()
        e = ((x - x.mean(axis=0)) ** 2).sum()
        e.compute()
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            e.compute()
            times.append(time.perf_counter() - t)
        ntasks = len(e.__dask_graph__())
    print(f"LocalCluster 1 worker x 1 thread, numpy chunks: {statistics.median(times) * 1e3:.2f} ms"
          f" a compute (median of {reps}; min {min(times) * 1e3:.2f} ms; {ntasks} tasks before"
          f" optimisation)")


if __name__ == "__main__":
    main()
