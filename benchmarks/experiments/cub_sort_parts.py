"""Where a CUB sort's time goes (H200): the whole ``npgpu.sort``, CUB's kernels alone, the NaN
repair of :mod:`npgpu.sorting.nan_tail` alone (no NaN: its kernels return at once), the
whole ``argsort``, and both with NaNs.

``--tune T,I ...``: instead, the keys-only sorts of float32 and float64 with each onesweep tile
shape (T threads, I items a thread, optionally B bits a digit; ``cub_sort.TUNE``), CUB's own
first, int32 (full range) beside them.

Run: ``python3 benchmarks/experiments/cub_sort_parts.py [--log2 24 26] [--tune 384,20 512,20,7]``
"""
import argparse

import numpy

from _common import gl, timer

import npgpu
from npgpu.sorting import cub_sort, nan_tail


_t = timer(20, 2.0)


def timed(fn):
    """Median device microseconds of one ``fn()`` (CUDA events, _common.timer)."""
    return _t(gl, fn) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log2", type=int, nargs="+", default=[24, 26])
    ap.add_argument("--tune", nargs="*", default=None)
    args = ap.parse_args()
    rng = numpy.random.default_rng(0)
    if args.tune is not None:
        return tune(args, rng)
    for lg in args.log2:
        n = 1 << lg
        for dt in ("float32", "int32", "float64"):
            x = npgpu.asarray(rng.standard_normal(n).astype(dt) * 1000 if dt != "int32"
                              else rng.integers(-2**31, 2**31 - 1, n, dtype=dt))
            full = timed(lambda: npgpu.sort(x))
            line = f"2^{lg} {dt}: sort {full:8.1f} us"
            if dt != "int32":
                keep = nan_tail.place
                nan_tail.place = lambda *a: None
                try:
                    line += f" | CUB alone {timed(lambda: npgpu.sort(x)):8.1f}"
                finally:
                    nan_tail.place = keep
                S = npgpu.sort(x)
                T = npgpu.empty_like(S)
                NA = npgpu.zeros(2, numpy.int32)
                line += f" | nan_tail alone {timed(lambda: nan_tail.place(x, S, S, T, NA)):7.1f}"
                line += f" | argsort {timed(lambda: npgpu.argsort(x)):8.1f}"
            print(line, flush=True)
            # with NaNs of both signs: the repair's real work
            if dt != "int32":
                h = x.get()
                h[::1000] = numpy.nan
                h[5::3000] = -numpy.nan
                y = npgpu.asarray(h)
                print(f"   with 0.13% NaNs: sort {timed(lambda: npgpu.sort(y)):8.1f} us, argsort"
                      f" {timed(lambda: npgpu.argsort(y)):8.1f} us", flush=True)
    print("plans:", {k: (v.threads, v.items, v.hist_blocks) for k, v in cub_sort._plans.items()
                     if not isinstance(v, Exception)})


def tune(args, rng):
    xs = {}
    for lg in args.log2:
        for dt in ("float32", "float64", "int32"):
            h = ((rng.standard_normal(1 << lg) * 1000).astype(dt) if dt != "int32"
                 else rng.integers(-2**31, 2**31 - 1, 1 << lg, dtype=dt))
            xs[lg, dt] = npgpu.asarray(h)
    for t in [None] + [tuple(int(v) for v in s.split(",")) for s in args.tune]:
        for key, dt in (("float", "float32"), ("double", "float64"), ("int", "int32")):
            if t is None:
                cub_sort.TUNE.pop((key, None), None)
            else:
                cub_sort.TUNE[key, None] = t
            p = cub_sort.plan(key, None)
            if p is None:
                print(f"{key} {t}: did not build")
                continue
            line = f"{key:6s} tile {p.threads}x{p.items}, {p.bits} bits:"
            for lg in args.log2:
                x = xs[lg, dt]
                got = npgpu.sort(x)
                ok = bool((got[1:] >= got[:-1]).all())
                line += f"  2^{lg} {timed(lambda: npgpu.sort(x)):8.1f} us{'' if ok else ' WRONG'}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
