"""Where the GPU idles in Dask's threaded compute of ``((x - x.mean(axis=0)) ** 2).sum()``
(issue 22; the case of ``benchmarks/dask_cases.py``).

Run (GPU): ``python3 benchmarks/experiments/dask_gpu_idle.py`` ((2^16, 2^14) float32 in 8 row
chunks); ``--smoke`` runs (256, 64) on the simulator in seconds.

Rows (medians of ``--reps`` calls, each bracketed by events and followed by a synchronize, as
``benchmarks/run.py`` times them):

* plain npgpu on the concatenated array;
* "chunk loop": the calls Dask's graph makes on the chunks (mean's per-chunk sums and counts,
  their combination, then per chunk the centred squares and their sum, then the sum of those),
  from one thread without Dask: the graph's GPU work with almost no host time between launches;
* Dask threaded (the default pool: a thread per CPU core; then 2 and 1 workers: fewer threads
  contend less for the GIL, which every driver call through ctypes hands over) and synchronous;
  threaded with two computes between the events (per compute: the second compute's host work
  may run while the first's kernels do);
* host only: ``compute()`` timed on the host from an idle GPU to its return, no synchronize.

Then one threaded compute as a timeline: every launch and device-to-device copy npgpu queues
is stamped with the host clock when queued and followed by an event on the same stream (under
one lock, so no other thread queues between the two); after a synchronize the events give when
the GPU finished each.  The GPU cannot start an operation before it was queued, so
``max(0, queued_k - done_{k-1})`` is GPU time lost waiting for the host: the sum, split into
before the first operation (Dask's optimisation and ordering) and between operations, is the
part of the Dask row above the chunk loop's that comes from host work.  The counts of
device-to-host reads and synchronisations in the compute come last (the tests hold them at 0).
"""
import argparse
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import npgpu as gp  # noqa: E402
from npgpu._codegen import launcher  # noqa: E402
from npgpu._core import transfer  # noqa: E402
from npgpu.cuda import runtime  # noqa: E402

import dask  # noqa: E402
import dask.array as da  # noqa: E402


def event_ms(fn, reps, per=1):
    """Median device milliseconds of ``per`` back-to-back ``fn()`` calls between two events,
    divided by ``per``."""
    fn()
    gp.cuda.Device().synchronize()
    out = []
    for _ in range(reps):
        start, end = runtime.Event(), runtime.Event()
        start.record()
        for _ in range(per):
            fn()
        end.record()
        end.synchronize()
        out.append(runtime.get_elapsed_time(start, end) / per)
    return statistics.median(out)


def host_ms(fn, reps):
    fn()
    out = []
    for _ in range(reps):
        gp.cuda.Device().synchronize()
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1e3)
    gp.cuda.Device().synchronize()
    return statistics.median(out)


def chunk_loop(chunks):
    """Dask's chunk calls for the expression, in graph order, without Dask."""
    dt = chunks[0].dtype
    sums = [gp.sum(c, axis=0, keepdims=True, dtype=dt) for c in chunks]
    counts = [gp.full_like(c, c.shape[0], shape=(1, c.shape[1]), dtype=dt) for c in chunks]
    mean = gp.divide(gp.concatenate(sums).sum(axis=0, dtype=dt),
                     gp.concatenate(counts).sum(axis=0, dtype=dt))
    parts = [gp.sum((c - mean) ** 2, axis=(0, 1), keepdims=True, dtype=dt) for c in chunks]
    return gp.concatenate(parts).sum(dtype=dt)


def timeline(expr):
    """One threaded compute with every queued operation stamped (see the module docstring)."""
    lock = threading.Lock()
    ops = []                                    # (name, thread, host seconds, Event)
    real_launch, real_d2d = launcher.Launcher.__call__, transfer.d2d

    def stamp(name, t):
        ops.append((name, threading.get_ident(), t, runtime.Event().record()))

    def launch(self, grid, block, values, stream=None):
        with lock:
            t = time.perf_counter()
            real_launch(self, grid, block, values, stream)
            stamp(self.name.rsplit("_", 1)[0], t)

    def d2d(dst, src, nbytes, stream=None):
        with lock:
            t = time.perf_counter()
            real_d2d(dst, src, nbytes, stream)
            stamp(f"d2d {nbytes} B", t)

    expr.compute(scheduler="threads")
    gp.cuda.Device().synchronize()
    launcher.Launcher.__call__, transfer.d2d = launch, d2d
    try:
        start = runtime.Event()
        start.record()
        t0 = time.perf_counter()
        expr.compute(scheduler="threads")
        t_ret = time.perf_counter()
        end = runtime.Event().record()
        end.synchronize()
    finally:
        launcher.Launcher.__call__, transfer.d2d = real_launch, real_d2d
    threads, prev_done, idle = {}, 0.0, []
    print(f"{'op':24s} {'thread':>6s} {'queued ms':>10s} {'GPU done ms':>12s} {'GPU idle before':>16s}")
    for name, tid, t, ev in ops:
        queued = (t - t0) * 1e3
        done = runtime.get_elapsed_time(start, ev)
        gap = max(0.0, queued - prev_done)
        idle.append(gap)
        prev_done = done
        print(f"{name:24s} {threads.setdefault(tid, len(threads)):6d} {queued:10.3f} "
              f"{done:12.3f} {gap:16.3f}")
    total = runtime.get_elapsed_time(start, end)
    print(f"compute: {total:.3f} ms on the GPU's clock, compute() returned after "
          f"{(t_ret - t0) * 1e3:.3f} ms; {len(ops)} operations from {len(threads)} threads; "
          f"GPU idle waiting for the host: {idle[0]:.3f} ms before the first operation, "
          f"{sum(idle[1:]):.3f} ms between operations, {total - prev_done:.3f} ms after the last")


def count_waits(expr):
    """Device-to-host reads and synchronising driver/runtime calls in one threaded compute."""
    counts = {}
    patched = [(transfer, "_d2h"), (transfer, "_h2d"), (runtime, "stream_wait"),
               (runtime.Stream, "synchronize"), (runtime.Event, "synchronize"),
               (runtime.Device, "synchronize")]
    if gp.backend() == "cuda":
        from npgpu.cuda import _driver
        patched += [(_driver, n) for n in ("cuStreamSynchronize", "cuCtxSynchronize",
                                           "cuEventSynchronize", "cuStreamWaitEvent")]
    saved = [(o, n, getattr(o, n)) for o, n in patched]

    def wrap(real, name):
        def w(*a, **k):
            counts[name] = counts.get(name, 0) + 1
            return real(*a, **k)
        return w
    for o, n, real in saved:
        setattr(o, n, wrap(real, n))
    try:
        r = expr.compute(scheduler="threads")
        during = dict(counts)
        counts.clear()
        r.get()
    finally:
        for o, n, real in saved:
            setattr(o, n, real)
    print(f"waits during compute: {during or 'none'}; reading the result: {counts}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()
    rows, cols = (256, 64) if args.smoke else (1 << 16, 1 << 14)
    with dask.config.set({"array.backend": "npgpu"}):
        x = da.random.default_rng(22).standard_normal((rows, cols), chunks=(rows // 8, cols),
                                                      dtype="float32")
    x = x.persist(scheduler="threads")
    expr = ((x - x.mean(axis=0)) ** 2).sum()
    plain = x.compute(scheduler="threads")
    chunks = [x.blocks[i].compute(scheduler="sync") for i in range(x.numblocks[0])]
    print(f"{gp.backend()}: ({rows}, {cols}) float32, {len(chunks)} chunks; ms on the GPU's clock")
    rows_ = [("plain npgpu", lambda: gp.sum((plain - plain.mean(axis=0)) ** 2), 1),
             ("chunk loop (no Dask)", lambda: chunk_loop(chunks), 1),
             ("dask threads", lambda: expr.compute(scheduler="threads"), 1),
             ("dask threads, 2 workers", lambda: expr.compute(scheduler="threads", num_workers=2), 1),
             ("dask threads, 1 worker", lambda: expr.compute(scheduler="threads", num_workers=1), 1),
             ("dask sync", lambda: expr.compute(scheduler="sync"), 1),
             ("dask threads, 2 back to back", lambda: expr.compute(scheduler="threads"), 2)]
    for name, fn, per in rows_:
        print(f"{name:32s} {event_ms(fn, args.reps, per):9.3f} ms", flush=True)
    print(f"{'dask threads, host only':32s} "
          f"{host_ms(lambda: expr.compute(scheduler='threads'), args.reps):9.3f} ms", flush=True)
    timeline(expr)
    count_waits(expr)


if __name__ == "__main__":
    main()
