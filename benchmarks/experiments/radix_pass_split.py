"""Where a radix sort's time goes: every launch of ``npgpu.sort`` timed on its own.

    python3 benchmarks/experiments/radix_pass_split.py [CASE ...]     (cases: f32 i32 argsort)

Each pass of the LSD radix sort (npgpu/sorting/radix.py) is three launches: ``count``, the
``cumsum`` of the (digit, tile) counts, ``scatter``.  This wraps the kernels that radix.py
gets from the compiler and the cumsum it calls with CUDA events (one sort after warm-up
sorts, each launch bracketed by its own pair of events; the events add ~2 us a launch), and
prints every launch's device time, its % of the copy bandwidth for the bytes it must move,
and the sum against the whole sort timed without events.
"""
import sys

from _common import SHIFT, copy_bandwidth, gl, gp, timer

import numpy as np

from npgpu.cuda import runtime as rt
from npgpu.sorting import radix

CASES = {"f32": (np.float32, 1 << 26, "sort"), "i32": (np.int32, 1 << 24, "sort"),
         "argsort": (np.int32, 1 << 24, "argsort")}
log = []          # (label, start event, end event, bytes)


def _timed(label, fn, nbytes):
    def run(*a, **k):
        s, e = rt.Event().record(), None
        r = fn(*a, **k)
        e = rt.Event().record()
        log.append((label, s, e, nbytes(a, k)))
        return r
    return run


def main():
    t = timer(20, 4.0)
    bw = copy_bandwidth(t)
    names = sys.argv[1:] or list(CASES)
    from npgpu.reductions import functions as F
    get_kernel, cumsum = radix.compiler.get_kernel, F.cumsum
    for name in names:
        dt, n, op = CASES[name]
        n >>= SHIFT
        rng = np.random.default_rng(0)
        host = (rng.standard_normal(n).astype(dt) if dt == np.float32 else
                rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(dt))
        x = gp.asarray(host)
        f = getattr(gp, op)
        whole = t(gl, lambda: f(x))
        ebytes = np.dtype(dt).itemsize

        def wrapped(key, render):
            k = get_kernel(key, render)
            kind = key[0]
            return _timed(kind, k, lambda a, kw: 0)
        radix.compiler.get_kernel = wrapped
        F.cumsum = _timed("cumsum", cumsum, lambda a, kw: 2 * a[0].nbytes)
        try:
            for _ in range(3):
                f(x)
            log.clear()
            f(x)
            rt.get_current_stream().synchronize()
        finally:
            radix.compiler.get_kernel, F.cumsum = get_kernel, cumsum
        total = 0.0
        print(f"{name}: {op} {np.dtype(dt).name} n=2^{n.bit_length() - 1}: whole sort "
              f"{whole * 1e6:.1f} us", flush=True)
        for i, (label, s, e, nb) in enumerate(log):
            ms = rt.get_elapsed_time(s, e)
            total += ms
            if label == "radix_count":
                nb = n * ebytes
            elif label == "radix_scatter":
                nb = 2 * n * ebytes + (n * 4 if op == "argsort" else 0) * 2
            print(f"  {i:2d} {label:14s} {ms * 1e3:9.1f} us"
                  + (f"  {nb / (ms * 1e-3) / bw * 100:5.1f}% of copy BW (for {nb / 1e6:.0f} MB)"
                     if nb else ""), flush=True)
        print(f"  sum of launches {total * 1e3:.1f} us", flush=True)


if __name__ == "__main__":
    main()
