"""SpMV of the sparse benchmark's matrix (CSR float32, 2^22 rows, 16 random nonzeros a row) by
every route and kernel shape, two ways: one call between CUDA events (as benchmarks/run.py
times it: host time before the launch counts) and 50 calls back to back (host time hidden:
the kernels' own throughput).

Run: ``python3 benchmarks/experiments/spmv_routes.py [--rows LOG2]`` (GPU; PyTorch and CuPy
rows where installed).  npgpu rows: the generated kernel with lanes a row (group) and
nonzeros a lane per pass (unroll) and the matrix loads (plain or ``ld.global.cs``) varied,
and the cuSPARSE route.
"""
import argparse
import statistics

import numpy as np

import npgpu as gp
from npgpu.scipy.sparse import _kernels, _products


def _events(make, elapsed_ms):
    """An event class over a library's events: ``make()`` one, ``elapsed_ms(a, b)``."""
    class Event:
        def __init__(self):
            self.e = make()

        def record(self):
            self.e.record()

        def synchronize(self):
            self.e.synchronize()

        def elapsed(self, other):
            return elapsed_ms(self.e, other.e) * 1e3
    return Event


def _timer(sync, event):
    def one(f):
        s, e = event(), event()
        out = []
        for _ in range(30):
            s.record()
            f()
            e.record()
            e.synchronize()
            out.append(s.elapsed(e))
        return statistics.median(out)

    def many(f, n=50):
        best = float("inf")
        for _ in range(5):
            s, e = event(), event()
            sync()
            s.record()
            for _ in range(n):
                f()
            e.record()
            e.synchronize()
            best = min(best, s.elapsed(e) / n)
        return best
    return one, many


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=22)
    args = ap.parse_args()
    m = 1 << args.rows
    per_row = 16
    nnz = m * per_row
    rng = np.random.default_rng(0)
    p = np.arange(0, nnz + 1, per_row, dtype=np.int32)
    j = np.minimum(rng.random(nnz, np.float32) * m, m - 1).astype(np.int32)
    v = rng.random(nnz, np.float32)
    xh = rng.random(m, np.float32)
    rows = []

    one, many = _timer(gp.cuda.Device().synchronize,
                       _events(gp.cuda.Event, gp.cuda.get_elapsed_time))
    a = gp.scipy.sparse.csr_matrix((gp.asarray(v), gp.asarray(j), gp.asarray(p)), shape=(m, m))
    x = gp.asarray(xh)
    ref = a @ x
    for route in ("kernel", "cusparse"):
        _products._ROUTE["spmv"] = route
        shapes = [(None, None, "plain")] if route == "cusparse" else \
            [(None, u, ld) for u in (2, 4) for ld in ("plain", "cs")] + [(None, 8, "plain")]
        for group, unroll, loads in shapes:
            _kernels._SPMV_LOADS = loads
            if unroll is not None:
                _kernels._SPMV_UNROLL = unroll
            if group is not None:
                orig = _kernels.spmv_group
                _kernels.spmv_group = lambda m_, nnz_, g=group: g
            try:
                y = a @ x
                err = float(gp.abs(y - ref).max())
                name = route if route == "cusparse" else \
                    f"kernel group={group or _kernels.spmv_group(m, nnz)} unroll={unroll} {loads}"
                rows.append((f"npgpu {name}", one(lambda: a @ x), many(lambda: a @ x), err))
            finally:
                if group is not None:
                    _kernels.spmv_group = orig
    _kernels._SPMV_UNROLL, _kernels._SPMV_LOADS = 2, "plain"
    _products._ROUTE["spmv"] = "kernel"
    try:
        import torch
        tp, tj, tv = (torch.from_numpy(z).cuda() for z in (p, j, v))
        ta = torch.sparse_csr_tensor(tp, tj, tv, size=(m, m))
        tx = torch.from_numpy(xh).cuda()

        o, mny = _timer(torch.cuda.synchronize,
                        _events(lambda: torch.cuda.Event(enable_timing=True),
                                lambda a, b: a.elapsed_time(b)))
        rows.append(("torch", o(lambda: ta @ tx), mny(lambda: ta @ tx), 0.0))
    except ImportError:
        pass
    try:
        import cupy as cp
        import cupyx.scipy.sparse as cps
        ca = cps.csr_matrix((cp.asarray(v), cp.asarray(j), cp.asarray(p)), shape=(m, m))
        cx = cp.asarray(xh)

        o, mny = _timer(cp.cuda.Device().synchronize,
                        _events(cp.cuda.Event, cp.cuda.get_elapsed_time))
        rows.append(("cupy", o(lambda: ca @ cx), mny(lambda: ca @ cx), 0.0))
    except ImportError:
        pass
    print(f"SpMV csr f32, {m} rows x {per_row}: us per call (one call between events | "
          f"50 back to back), max |error| against the default route")
    for name, t1, tn, err in rows:
        print(f"  {name:34s} {t1:9.1f} {tn:9.1f}   {err:.2e}")


if __name__ == "__main__":
    main()
