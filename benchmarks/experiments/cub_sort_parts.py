"""Where a CUB sort's time goes (H200): the whole ``npgpu.sort``, CUB's kernels alone, the NaN
repair of :mod:`npgpu.sorting.nan_tail` alone (no NaN: its kernels return at once) for a few
``ITEMS``, and the scan under it.

Run: ``python3 benchmarks/experiments/cub_sort_parts.py [--log2 24 26]``
"""
import argparse

import numpy

import npgpu
from npgpu.sorting import cub_sort, nan_tail
from npgpu.reductions.functions import cumsum


def timed(fn, reps=20):
    fn()
    fn()
    s, e = npgpu.cuda.Event(), npgpu.cuda.Event()
    out = []
    for _ in range(reps):
        s.record()
        fn()
        e.record()
        e.synchronize()
        out.append(npgpu.cuda.get_elapsed_time(s, e) * 1e3)
    return float(numpy.median(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log2", type=int, nargs="+", default=[24, 26])
    args = ap.parse_args()
    rng = numpy.random.default_rng(0)
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
                for items in (256, 1024, 4096):
                    nan_tail.ITEMS = items
                    line += f" | nan_tail ITEMS={items} {timed(lambda: nan_tail.place(x, S, S, T)):7.1f}"
                    C = npgpu.zeros((-(-n // items),), numpy.int32)
                    line += f" (cumsum {timed(lambda: cumsum(C, dtype=numpy.int32)):6.1f})"
                nan_tail.ITEMS = 256
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


if __name__ == "__main__":
    main()
