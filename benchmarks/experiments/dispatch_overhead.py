"""What ``__array_function__`` adds to a call: ``numpy.f(g)`` against ``npgpu.f(g)``, in us.

Run: ``python3 benchmarks/experiments/dispatch_overhead.py``.  Small arrays (16 elements), so the
difference is the dispatch: NumPy's dispatcher collecting the arguments, ``ndarray``'s method,
the table lookup and the ``types`` check.  Batches of the two calls alternate and the best batch
of each counts (a shared machine).  The last rows time the dispatch alone: the table entry
replaced by a function that returns at once.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
import npgpu as gp  # noqa: E402
from npgpu import _dispatch  # noqa: E402
from host_overhead import bench as best_us  # noqa: E402  (best batch, us per call)


def main():
    sync = gp.cuda.get_current_stream().synchronize
    sim = gp.backend() != "cuda"
    a = gp.asarray(np.arange(16.0))
    b = gp.asarray(np.arange(16.0) + 1)
    h = np.arange(16.0)
    cases = [
        ("concatenate", lambda: np.concatenate([a, b]), lambda: gp.concatenate([a, b])),
        ("sum", lambda: np.sum(a), lambda: gp.sum(a)),
        ("where", lambda: np.where(a > 3, a, b), lambda: gp.where(a > 3, a, b)),
        ("shape", lambda: np.shape(a), lambda: gp.shape(a)),
        ("result_type", lambda: np.result_type(a, 1.0), lambda: np.result_type(h, 1.0)),
    ]
    print(f"backend {gp.backend()}; us per call, best batch")
    print(f"{'function':14s} {'numpy.f(g)':>11s} {'npgpu.f(g)':>11s} {'added':>8s}")
    for name, via_numpy, direct in cases:
        fast = name in ("shape", "result_type")
        n, batches = (20000, 7) if fast else ((300, 5) if sim else (2000, 7))
        x = y = float("inf")
        for _ in range(3):                          # interleave: drift hits both alike
            x = min(x, best_us(via_numpy, n, batches, sync))
            y = min(y, best_us(direct, n, batches, sync))
        print(f"{name:14s} {x:11.2f} {y:11.2f} {x - y:8.2f}")

    # the dispatch alone: NumPy's side and npgpu's, with an implementation that does nothing
    table = _dispatch.table()
    saved = table[np.concatenate], table[np.shape]
    table[np.concatenate] = table[np.shape] = lambda *args, **kwargs: None
    try:
        for name, f in (("concatenate", lambda: np.concatenate([a, b])),
                        ("shape", lambda: np.shape(a))):
            print(f"dispatch only, {name:12s} {best_us(f, 50000, 7, lambda: None):6.2f}")
    finally:
        table[np.concatenate], table[np.shape] = saved


if __name__ == "__main__":
    main()
