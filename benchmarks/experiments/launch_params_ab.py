"""Does a launch cost more with more kernel parameter values?  The same float32 add kernel with
its arrays passed three ways: raw pointers (``CPointer``: 4 values, 32 bytes), Numba arrays
(7 values each: 22 values, 176 bytes, what npgpu's element kernels take) and Numba arrays plus
uint64 word views of them (43 values, 344 bytes, what the ``words`` layout takes).  H200
(words_min_ab.py, 2026-12-03): a words call spent 3-4 us more before its kernel started than
an element call, of which only ~0.9 us is Python (stubbed driver on a CPU).

Per variant and size: host time of a launch (pack and ``cuLaunchKernelEx``, 200 queued
without waiting, best of 30), 200 launches back to back with a synchronize (best of 5), and one
launch between CUDA events (median of 50); every variant's result checked.  GPU only.

    python3 benchmarks/experiments/launch_params_ab.py
"""
import ctypes
import os
import re
import statistics
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, gp, per_call_us  # noqa: E402
from numba import cuda as ncuda  # noqa: E402
from numba.cuda import types as nt  # noqa: E402
from npgpu._codegen import launcher as L  # noqa: E402
from npgpu.cuda import _driver as drv  # noqa: E402


def add_ptrs(n, o, a, b):
    i = ncuda.grid(1)
    if i < n:
        o[i] = a[i] + b[i]


def add_arrays(n, o, a, b):
    i = ncuda.grid(1)
    if i < n:
        o[i] = a[i] + b[i]


def add_words(n, o, a, b, ow, aw, bw):
    i = ncuda.grid(1)
    if i < n:
        o[i] = a[i] + b[i]


A, W, P = nt.Array(nt.float32, 1, "C"), nt.Array(nt.uint64, 1, "C"), nt.CPointer(nt.float32)
VARIANTS = {"pointers, 4 values": (add_ptrs, (nt.int64, P, P, P)),
            "arrays, 22 values": (add_arrays, (nt.int64, A, A, A)),
            "arrays + words, 43 values": (add_words, (nt.int64, A, A, A, W, W, W))}


def load(fn, sig):
    ptx, _ = ncuda.compile_ptx(fn, sig, cc=(9, 0))
    entry = re.search(r"\.entry\s+([\w$]+)\s*\(", ptx).group(1)
    return ctypes.c_void_p(drv.load_function(ptx.encode() + b"\0", entry)[1])


def values(name, n, arrays):
    if name.startswith("pointers"):
        return [n] + [x._ptr for x in arrays]
    out = [n]
    for x in arrays:
        out += [0, 0, n, 4, x._ptr, n, 4]
    if "words" in name:
        for x in arrays:
            out += [0, 0, n // 2, 8, x._ptr, n // 2, 8]
    return out


def main():
    sync = gp.cuda.Device().synchronize
    start, end = gp.cuda.Event(), gp.cuda.Event()
    funcs = {name: load(*v) for name, v in VARIANTS.items()}
    for lg in (4, 16, 20):
        n = 1 << max(lg - SHIFT, 2)
        h = np.random.default_rng(lg).random(n, dtype=np.float32)
        a, b = gp.asarray(h), gp.asarray(h[::-1].copy())
        block = 256
        grid = -(-n // block)
        cfg = L.launch_config(grid, block, 0, 0)
        for name, func in funcs.items():
            o = gp.zeros(n, np.float32)
            vals = values(name, n, (o, a, b))
            buf = ctypes.create_string_buffer(8 * len(vals))
            struct.pack_into("<q" + "Q" * (len(vals) - 1), buf, 0, *vals)
            base = ctypes.addressof(buf)
            slots = struct.pack(f"<{len(vals)}Q", *[base + 8 * i for i in range(len(vals))])
            pack = struct.Struct("<q" + "Q" * (len(vals) - 1)).pack_into

            def launch():
                pack(buf, 0, *vals)
                rc = L._cuLaunchKernelEx(cfg, func, slots, None)
                if rc:
                    drv.check(rc, name)
            launch()
            sync()
            np.testing.assert_array_equal(o.get(), h + h[::-1])
            host = per_call_us(launch, batches=30, wait=False)
            b2b = per_call_us(launch)
            ev = []
            for _ in range(50):
                start.record()
                launch()
                end.record()
                end.synchronize()
                ev.append(gp.cuda.get_elapsed_time(start, end) * 1e3)
            print(f"2^{lg - SHIFT:<3d} {name:26s} host {host:5.2f} us   back to back "
                  f"{b2b:5.2f} us   events {statistics.median(ev):5.2f} us", flush=True)


if __name__ == "__main__":
    main()
