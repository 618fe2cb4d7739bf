"""Host (Python) cost of tiny sorting-family calls, microseconds per call (issue 14 / 20).

Run: ``python3 benchmarks/experiments/sort_host_overhead.py [--profile [CASE ...]] [CASE ...]``
(CASE: a substring of a case's name).

On the simulator with a C compiler: :func:`host_overhead.stub_driver` makes every kernel a GPU
launcher whose driver entry points are C stubs that return at once, and this script also plans
the sorting, set, search and scan modules with the GPU's constants (digits, blocks, items), so a
call runs the GPU's whole host path -- argument checks, planning, pool allocations, argument
packing, ctypes -- with nothing run on a device.  A device-to-host read (the output length of
``unique``) copies host memory here and is answered with ``n`` (the kernels did not run); on
the GPU each such read is also a synchronisation.

Each case prints the median of interleaved batches (a shared machine drifts) in microseconds,
then the launches, pool allocations and device-to-host reads of one call.  ``--profile``
prints, per case, cProfile's functions by own time (microseconds a call).  Where a module has
a switch (``functions.TINY``, ``sets.TINY``, ``searching.TINY``), ``--ab`` runs every case
with it on and off in interleaved batches.
"""
import argparse
import ast
import cProfile
import inspect
import os
import pstats
import sys
import time
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import host_overhead as ho  # noqa: E402  (puts the repository on sys.path)

gp = ho.gp
# a device-to-host read's answer while the kernels do not run (unique's output length)
READ_VALUE = [16]


def gpu_constants(mod):
    """Rebind ``mod``'s simulator-dependent constants to the GPU's: the ``else`` branches of
    ``if _SIM:`` / ``if _backend.IS_SIM:`` and of ``X = a if _SIM else b``."""
    def sim_test(t):
        return getattr(t, "id", None) == "_SIM" or getattr(t, "attr", None) == "IS_SIM"
    for node in ast.parse(inspect.getsource(mod)).body:
        if isinstance(node, ast.If) and sim_test(node.test):
            exec(compile(ast.Module(node.orelse, []), "<gpu constants>", "exec"), vars(mod))
        elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp)
              and sim_test(node.value.test)):
            exec(" = ".join(map(ast.unparse, (*node.targets, node.value.orelse))), vars(mod))
    if hasattr(mod, "_SIM"):
        mod._SIM = False
    if hasattr(mod, "_backend"):        # ``_backend.IS_SIM`` read at call time
        mod._backend = types.SimpleNamespace(IS_SIM=False, IS_CUDA=False)


def stub():
    """The stub driver, GPU constants in the sorting family and the scans it calls."""
    from npgpu._core import transfer
    from npgpu.reductions import scan, scan_lookback
    from npgpu.sorting import (cub_sort, nan_tail, presence, radix, searching, segmented,
                               sets, unique_block)
    ho.stub_driver()

    def occupancy(ref, func, block, shared):
        ref._obj.value = 8
        return 0
    ho.launcher.drv.cuOccupancyMaxActiveBlocksPerMultiprocessor = occupancy
    for mod in (scan, scan_lookback, radix, segmented, sets, searching, nan_tail, presence,
                cub_sort, unique_block):
        gpu_constants(mod)
    radix.items_for.__defaults__ = (False, False)
    segmented.MAX_BLOCK = radix.BLOCK
    searching._sm_count = lambda: 132
    real = transfer._d2h

    def d2h(host, src_ptr, nbytes, stream=None):
        real(host, src_ptr, nbytes, stream)
        host[...] = 0
        if host.dtype.kind in "iu" and host.size:      # a length (or counts summing to one)
            host.flat[0] = READ_VALUE[0]
    transfer._d2h = d2h
    return transfer


def cases():
    rng = np.random.default_rng(0)
    out = []
    for n in (16, 1024):
        f = gp.asarray(rng.standard_normal(n).astype(np.float32))
        i = gp.asarray(rng.integers(-1000, 1000, n).astype(np.int32))
        few = gp.asarray(rng.integers(0, 8, n).astype(np.float32))
        out += [(f"sort f32 {n}", n, lambda f=f: gp.sort(f)),
                (f"sort i32 {n}", n, lambda i=i: gp.sort(i)),
                (f"argsort f32 {n}", n, lambda f=f: gp.argsort(f)),
                (f"unique f32 {n}", n, lambda x=few: gp.unique(x)),
                (f"unique counts f32 {n}", n, lambda x=few: gp.unique(x, return_counts=True)),
                (f"partition f32 {n}", n, lambda f=f: gp.partition(f, 3)),
                (f"argpartition f32 {n}", n, lambda f=f: gp.argpartition(f, 3))]
    m = gp.asarray(rng.standard_normal((16, 16)).astype(np.float32))
    out.append(("sort (16,16) axis=-1", 16, lambda: gp.sort(m, axis=-1)))
    out.append(("argsort (16,16) axis=-1", 16, lambda: gp.argsort(m, axis=-1)))
    keys = gp.asarray(np.sort(rng.standard_normal(1024)).astype(np.float32))
    q16 = gp.asarray(rng.standard_normal(16).astype(np.float32))
    out.append(("searchsorted 16 in 1024", 16, lambda: gp.searchsorted(keys, q16)))
    return out


def counts(f, transfer):
    """(launches, pool allocations, device-to-host reads) of one call of ``f``."""
    from npgpu._codegen.stats import stats
    from npgpu.cuda import memory
    pool = memory.get_default_memory_pool()
    n_alloc = [0]
    real = pool.malloc

    def malloc(nbytes, stream=None):
        n_alloc[0] += 1
        return real(nbytes, stream)
    pool.malloc = malloc
    l0, d0 = stats["launches"], transfer.d2h_count
    try:
        f()
    finally:
        del pool.malloc
    return stats["launches"] - l0, n_alloc[0], transfer.d2h_count - d0


def timed(f, batches=30, calls=200):
    times = []
    for _ in range(batches):
        t = time.perf_counter()
        for _ in range(calls):
            f()
        times.append((time.perf_counter() - t) / calls * 1e6)
    return times


def profile(name, f, calls=2000, top=18):
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(calls):
        f()
    pr.disable()
    st = pstats.Stats(pr)
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:top]
    print(f"-- {name}: own time per call (us), calls per call", flush=True)
    for (file, line, fn), (cc, nc, tt, ct, _) in rows:
        where = f"{os.path.relpath(file, ROOT) if file.startswith('/') else file}:{line}"
        print(f"   {tt / calls * 1e6:7.2f} {ct / calls * 1e6:8.2f} cum {nc / calls:5.1f}x  "
              f"{fn}  ({where})")


def switches():
    """(label, module, attribute) of the sorting family's switches, where present."""
    from npgpu.sorting import functions, searching, sets
    out = []
    for mod, attr in ((functions, "TINY"), (sets, "TINY"), (searching, "TINY")):
        if hasattr(mod, attr):
            out.append((f"{mod.__name__.rsplit('.', 1)[1]}.{attr}", mod, attr))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--ab", action="store_true", help="every switch on and off, interleaved")
    ap.add_argument("--batches", type=int, default=30)
    ap.add_argument("select", nargs="*")
    args = ap.parse_args()
    transfer = stub()
    sw = switches() if args.ab else []
    for name, n, f in cases():
        if args.select and not any(s in name for s in args.select):
            continue
        READ_VALUE[0] = n
        f()
        ln, al, rd = counts(f, transfer)
        if args.profile:
            profile(name, f)
            continue
        if not sw:
            t = np.median(timed(f, args.batches))
            print(f"{name:26s} {t:7.2f} us   launches {ln}  allocs {al}  d2h {rd}", flush=True)
            continue
        res = {True: [], False: []}
        for _ in range(args.batches):
            for on in (True, False):
                for _, mod, attr in sw:
                    setattr(mod, attr, on)
                res[on] += timed(f, 1)
        for _, mod, attr in sw:
            setattr(mod, attr, True)
        off = counts(f, transfer)
        for _, mod, attr in sw:
            setattr(mod, attr, False)
        off = counts(f, transfer)
        for _, mod, attr in sw:
            setattr(mod, attr, True)
        print(f"{name:26s} on {np.median(res[True]):7.2f} us (launches {ln}, allocs {al}, "
              f"d2h {rd})   off {np.median(res[False]):7.2f} us (launches {off[0]}, allocs "
              f"{off[1]}, d2h {off[2]})", flush=True)


if __name__ == "__main__":
    main()
