"""Host (Python) cost of tiny calls, microseconds per call: where a 16-element call's time goes.

Run: ``python3 benchmarks/experiments/host_overhead.py [--stub-launch [--sim-plan]]``.

* default (GPU): the steps of a tiny add one by one -- pool allocation, ``empty``, the
  launcher with the add's own arguments, argument packing alone, a bare ``cuLaunchKernel`` --
  then whole tiny calls (add, sum, argmax, var, ...), each followed by CuPy's where it is
  installed.  Back-to-back calls between two synchronizes, the best of 3 batches.
* ``--stub-launch`` (any backend, the simulator too): every kernel launch is a no-op, so what
  is left is argument handling, planning, allocation and packing.  The reductions are planned
  with the GPU's block/grid constants (one pass for 16 elements); ``--sim-plan`` keeps the
  simulator's (tiny blocks: two passes).  Best of 40 short batches (a shared machine).
"""
import argparse
import ast
import ctypes
import inspect
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import npgpu as gp  # noqa: E402
from npgpu._codegen import launcher  # noqa: E402


def bench(f, n, batches, sync):
    for _ in range(min(n, 500)):
        f()
    sync()
    best = float("inf")
    for _ in range(batches):
        t = time.perf_counter()
        for _ in range(n):
            f()
        sync()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def gpu_reduce_constants():
    """Run the GPU branch of reduce.py's ``if _SIM: ... else: ...`` constants block."""
    from npgpu.reductions import reduce as r
    for node in ast.parse(inspect.getsource(r)).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "_SIM":
            exec(compile(ast.Module(node.orelse, []), "<gpu constants>", "exec"), vars(r))


def cases():
    a = gp.asarray(np.arange(16, dtype=np.float32))
    b = gp.asarray(np.arange(16, dtype=np.float32))
    m = gp.asarray(np.arange(16, dtype=np.float32).reshape(4, 4))
    return [("add(a, b)", lambda: gp.add(a, b)),
            ("a + b", lambda: a + b),
            ("sum(a)", lambda: gp.sum(a)),
            ("a.sum()", lambda: a.sum()),
            ("mean(a)", lambda: gp.mean(a)),
            ("max(a)", lambda: gp.max(a)),
            ("argmax(a)", lambda: gp.argmax(a)),
            ("any(a)", lambda: gp.any(a)),
            ("cumsum(a)", lambda: gp.cumsum(a)),
            ("sum(m, axis=0)", lambda: gp.sum(m, axis=0)),
            ("var(a)", lambda: gp.var(a)),
            ("std(m, axis=1, ddof=1)", lambda: gp.std(m, axis=1, ddof=1))]


def steps(sync):
    """The parts of a tiny add on the GPU, then CuPy's add and empty."""
    from npgpu._core.ndarray import empty_array
    from npgpu.cuda import _driver as drv
    from npgpu.cuda import memory
    a = gp.asarray(np.arange(16, dtype=np.float32))
    seen = []                                   # the add's own launcher and arguments
    real = launcher.Launcher.__call__

    def spy(self, grid, block, values, stream=None):
        seen.append((self, grid, block, list(values)))
        return real(self, grid, block, values, stream)
    launcher.Launcher.__call__ = spy
    try:
        gp.add(a, a)
    finally:
        launcher.Launcher.__call__ = real
    kern, grid, block, vals = seen[-1]
    g3, b3 = ((grid, 1, 1), (block, 1, 1)) if grid.__class__ is int else (grid, block)
    dt = np.dtype(np.float32)
    # the launcher's argument layout: one 8-byte slot per value, and the void*[] of the slots
    buf = ctypes.create_string_buffer(8 * max(len(vals), 1))
    ptrs = (ctypes.c_void_p * max(len(vals), 1))(
        *[ctypes.addressof(buf) + 8 * i for i in range(len(vals))])
    ptrs_addr = ctypes.c_void_p(ctypes.addressof(ptrs))
    kern._pack(buf, 0, *vals)
    rows = [("alloc 64 B", lambda: memory.alloc(64)),
            ("empty_array((16,))", lambda: empty_array((16,), dt)),
            ("gp.empty(16)", lambda: gp.empty(16, np.float32)),
            ("launcher (add's arguments)", lambda: kern(grid, block, vals)),
            ("argument packing alone", lambda: kern._pack(buf, 0, *vals)),
            ("bare cuLaunchKernel", lambda: drv.cuLaunchKernel(
                kern._func_vp, *g3, *b3, 0, None, ptrs_addr, None))]
    # the same launch through ctypes without argtypes (the launcher's entry) and through
    # cuda.bindings' Cython wrapper (handles made once)
    from cuda.bindings import driver as cb
    from npgpu._codegen.launcher import _cuLaunchKernel as raw_launch
    cf = cb.CUfunction(kern._func_vp.value)
    cs = cb.CUstream(0)
    pa = ptrs_addr.value
    # cuLaunchKernelEx: grid, block, shared memory and stream in a struct built once, so ctypes
    # converts 4 arguments instead of 11

    class LaunchConfig(ctypes.Structure):
        _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                    ("shared", ctypes.c_uint), ("stream", ctypes.c_void_p),
                    ("attrs", ctypes.c_void_p), ("nattrs", ctypes.c_uint)]
    cfg = LaunchConfig((ctypes.c_uint * 3)(*g3), (ctypes.c_uint * 3)(*b3), 0, None, None, 0)
    cfg_p = ctypes.c_void_p(ctypes.addressof(cfg))
    launch_ex = drv._lib["cuLaunchKernelEx"]
    rc = launch_ex(cfg_p, kern._func_vp, ptrs_addr, None)
    if rc:
        print(f"cuLaunchKernelEx failed: {drv.error_name(rc) if hasattr(drv, 'error_name') else rc}")
    rows += [("ctypes cuLaunchKernel, no argtypes", lambda: raw_launch(
                kern._func_vp, *g3, *b3, 0, None, ptrs_addr, None)),
             ("cuda.bindings cuLaunchKernel", lambda: cb.cuLaunchKernel(
                cf, *g3, *b3, 0, cs, pa, 0)),
             ("ctypes cuLaunchKernelEx, built config", lambda: launch_ex(
                cfg_p, kern._func_vp, ptrs_addr, None))]
    for name, f in rows:
        print(f"{name:28s} {bench(f, 20000, 3, sync):7.2f} us", flush=True)
    # host time alone: 200 launches queued (well inside the driver's queue), timed without
    # waiting for the GPU; the GPU's own rate for back-to-back tiny kernels is the row above
    for name, f in rows[-4:]:
        best = float("inf")
        for _ in range(30):
            sync()
            t = time.perf_counter()
            for _ in range(200):
                f()
            best = min(best, (time.perf_counter() - t) / 200)
        print(f"{name + ', host only':28s} {best * 1e6:7.2f} us", flush=True)
    sync()
    try:
        import cupy as cp
    except ImportError:
        return
    ca = cp.arange(16, dtype=cp.float32)
    for name, f in [("cupy a + b", lambda: ca + ca),
                    ("cupy empty(16)", lambda: cp.empty(16, cp.float32))]:
        print(f"{name:28s} {bench(f, 20000, 3, cp.cuda.Device().synchronize):7.2f} us")
    try:
        import torch
    except ImportError:
        return
    ta = torch.arange(16, dtype=torch.float32, device="cuda")
    for name, f in [("torch a + b", lambda: ta + ta), ("torch a.sum()", lambda: ta.sum())]:
        print(f"{name:28s} {bench(f, 20000, 3, torch.cuda.synchronize):7.2f} us")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stub-launch", action="store_true")
    ap.add_argument("--sim-plan", action="store_true")
    args = ap.parse_args()
    sync = gp.cuda.Device().synchronize
    if not args.stub_launch:
        steps(sync)
        for name, f in cases():
            best = float("inf")
            for _ in range(30):             # host time alone: 200 calls queued, no wait
                sync()
                t = time.perf_counter()
                for _ in range(200):
                    f()
                best = min(best, (time.perf_counter() - t) / 200)
            sync()
            print(f"{name:28s} {bench(f, 20000, 3, sync):7.2f} us   host only "
                  f"{best * 1e6:6.2f} us", flush=True)
        return
    if not args.sim_plan:
        gpu_reduce_constants()
    real = launcher.Launcher.__call__
    launcher.Launcher.__call__ = lambda self, grid, block, values, stream=None: None
    try:
        for name, f in cases():
            print(f"{name:28s} {bench(f, 2000, 40, lambda: None):7.2f} us", flush=True)
    finally:
        launcher.Launcher.__call__ = real


if __name__ == "__main__":
    main()
