"""Host (Python) cost of tiny calls, microseconds per call: where a 16-element call's time goes.

Run: ``python3 benchmarks/experiments/host_overhead.py [--stub-launch [--sim-plan] | --stub-driver]``.

* default (GPU): the steps of a tiny add one by one -- pool allocation, ``empty``, the
  launcher with the add's own arguments, argument packing alone, a bare ``cuLaunchKernel`` --
  then whole tiny calls (add, sum, argmax, var, ...), each followed by CuPy's where it is
  installed.  Back-to-back calls between two synchronizes, the best of 3 batches.  The
  launcher's rows and the whole calls are measured with ``launcher.LAUNCH_EX`` on
  (``cuLaunchKernelEx``, cached launch configs) and off (``cuLaunchKernel``, what
  ``NPGPU_LAUNCH_EX=0`` gives): the A/B in one run.
* ``--stub-launch`` (any backend, the simulator too): every kernel launch is a no-op, so what
  is left is argument handling, planning, allocation and packing.  The reductions are planned
  with the GPU's block/grid constants (one pass for 16 elements); ``--sim-plan`` keeps the
  simulator's (tiny blocks: two passes).  Best of 40 short batches (a shared machine).
* ``--stub-driver`` (the simulator, with a C compiler): every kernel is a GPU launcher whose
  driver entry points are C functions that return 0 (compiled with ``cc``), planned with the
  GPU's elementwise and reduction constants: the whole host path of the GPU, ctypes included,
  with nothing run.  ``LAUNCH_EX`` on and off in interleaved batches, medians.
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


RAW = r"""
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


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
            ("std(m, axis=1, ddof=1)", lambda: gp.std(m, axis=1, ddof=1)),
            ("a * 2.0", lambda: a * 2.0),
            ("a + np.float32(1)", lambda: a + np.float32(1)),
            ("a += b", lambda: a.__iadd__(b)),
            ("sqrt(a, out=b)", lambda: gp.sqrt(a, out=b)),
            ("m - m.mean(axis=0)", lambda: m - m.mean(axis=0)),
            ("outer(a, b)", lambda: gp.outer(a, b))]


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
    def ex(on, f):
        def run():
            launcher.LAUNCH_EX = on
            return f()
        return run
    saved_ex = launcher.LAUNCH_EX
    # the launcher and RawKernel (issue 18: per call no slower than CuPy's), each with
    # cuLaunchKernelEx and a cached config, then cuLaunchKernel
    ab_rows = [("launcher, LAUNCH_EX=1", ex(True, lambda: kern(grid, block, vals))),
               ("launcher, LAUNCH_EX=0", ex(False, lambda: kern(grid, block, vals)))]
    rk = gp.RawKernel(RAW, "axpy")
    y = gp.arange(16, dtype=np.float32)
    rargs = (a, y, np.float32(2), np.int32(16))
    ab_rows += [("RawKernel axpy, LAUNCH_EX=1", ex(True, lambda: rk((1,), (32,), rargs))),
                ("RawKernel axpy, LAUNCH_EX=0", ex(False, lambda: rk((1,), (32,), rargs)))]
    rows = [("alloc 64 B", lambda: memory.alloc(64)),
            ("empty_array((16,))", lambda: empty_array((16,), dt)),
            ("gp.empty(16)", lambda: gp.empty(16, np.float32)),
            *ab_rows,
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
    for name, f in ab_rows + rows[-4:]:
        print(f"{name + ', host only':28s} {host_only(f, sync):7.2f} us", flush=True)
    launcher.LAUNCH_EX = saved_ex
    sync()
    try:
        import cupy as cp
    except ImportError:
        return
    ca = cp.arange(16, dtype=cp.float32)
    cy = cp.arange(16, dtype=cp.float32)
    ck = cp.RawKernel(RAW, "axpy")
    cargs = (ca, cy, np.float32(2), np.int32(16))
    for name, f in [("cupy a + b", lambda: ca + ca),
                    ("cupy empty(16)", lambda: cp.empty(16, cp.float32)),
                    ("cupy RawKernel axpy", lambda: ck((1,), (32,), cargs))]:
        print(f"{name:28s} {bench(f, 20000, 3, cp.cuda.Device().synchronize):7.2f} us")
    try:
        import torch
    except ImportError:
        return
    ta = torch.arange(16, dtype=torch.float32, device="cuda")
    for name, f in [("torch a + b", lambda: ta + ta), ("torch a.sum()", lambda: ta.sum())]:
        print(f"{name:28s} {bench(f, 20000, 3, torch.cuda.synchronize):7.2f} us")


def host_only(f, sync):
    """Host time alone: 200 calls queued, no wait; the best of 30."""
    best = float("inf")
    for _ in range(30):
        sync()
        t = time.perf_counter()
        for _ in range(200):
            f()
        best = min(best, (time.perf_counter() - t) / 200)
    sync()
    return best * 1e6


_STUB_C = """
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned shared, void *stream, void **params, void **extra)
{ return 0; }
int cuLaunchKernelEx(const void *config, void *f, void **params, void **extra) { return 0; }
"""


def stub_driver():
    """Every kernel a GPU-path Launcher (no compile) whose driver entry points are C stubs;
    GPU constants in the elementwise and reduction planners."""
    import subprocess
    import tempfile
    import types
    from npgpu._codegen import compiler
    from npgpu._codegen import elementwise as ew
    from npgpu.reductions import reduce as red
    d = tempfile.mkdtemp()
    with open(os.path.join(d, "stub.c"), "w") as f:
        f.write(_STUB_C)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", os.path.join(d, "stub.so"),
                    os.path.join(d, "stub.c")], check=True)
    lib = ctypes.CDLL(os.path.join(d, "stub.so"))

    def max_threads(ref, attr, func):
        ref._obj.value = 1024
        return 0
    def occupancy(ref, func, block, shared):
        ref._obj.value = 2048 // block
        return 0
    launcher.drv = types.SimpleNamespace(cuFuncGetAttribute=max_threads,
                                         cuOccupancyMaxActiveBlocksPerMultiprocessor=occupancy,
                                         check=lambda rc, what: None)
    launcher._cuLaunchKernel = lib["cuLaunchKernel"]
    launcher._cuLaunchKernelEx = lib["cuLaunchKernelEx"]
    compiler._load = lambda render: launcher.Launcher(render(), func=0x7F0000001000)
    compiler._memory.clear()
    for mod in (ew, red):       # ``X = a if _SIM else b`` and ``if _SIM: ... else: ...``
        for node in ast.parse(inspect.getsource(mod)).body:
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "_SIM":
                exec(compile(ast.Module(node.orelse, []), "<gpu constants>", "exec"), vars(mod))
            elif (isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp)
                  and getattr(node.value.test, "id", None) == "_SIM"):
                exec(" = ".join(map(ast.unparse, (*node.targets, node.value.orelse))),
                     vars(mod))
        mod._SIM = False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stub-launch", action="store_true")
    ap.add_argument("--sim-plan", action="store_true")
    ap.add_argument("--stub-driver", action="store_true")
    args = ap.parse_args()
    sync = gp.cuda.Device().synchronize
    saved_ex = launcher.LAUNCH_EX
    if args.stub_driver:
        stub_driver()
        for name, f in cases():
            f()
            times = {True: [], False: []}
            for _ in range(40):             # interleaved batches: a shared machine drifts
                for on in (True, False):
                    launcher.LAUNCH_EX = on
                    t = time.perf_counter()
                    for _ in range(1000):
                        f()
                    times[on].append((time.perf_counter() - t) * 1e3)
            print(f"{name:28s} LAUNCH_EX=1 {np.median(times[True]):6.2f} us   "
                  f"LAUNCH_EX=0 {np.median(times[False]):6.2f} us", flush=True)
        launcher.LAUNCH_EX = saved_ex
        return
    if not args.stub_launch:
        steps(sync)
        for name, f in cases():
            for on in (True, False):
                launcher.LAUNCH_EX = on
                f()
                print(f"{name:28s} LAUNCH_EX={int(on)} {bench(f, 20000, 3, sync):7.2f} us   "
                      f"host only {host_only(f, sync):6.2f} us", flush=True)
        launcher.LAUNCH_EX = saved_ex
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
