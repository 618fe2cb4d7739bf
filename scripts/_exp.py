"""Shared setup of the H200 experiment scripts (``scripts/exp_*.py``): the libraries, CUDA-event
timing, cache reset between kernel variants, and the copy-bandwidth reference."""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
from _timing import CupyLib, NpgpuLib, TorchLib  # noqa: E402

from npgpu._codegen import compiler  # noqa: E402
from npgpu.reductions import reduce as R  # noqa: E402

gl, tl, cl = NpgpuLib(), TorchLib(), CupyLib()
gp = gl.gp


def timer(reps, budget_s):
    """``t(lib, fn)``: median device seconds of one ``fn()`` call."""
    def t(lib, fn):
        return lib.time_events(fn, reps=reps, warmup=3, budget_s=budget_s)["time_s"]
    return t


def fresh():
    """Forget compiled kernels and reduction plans (a changed knob takes effect)."""
    compiler.clear_memory_cache()
    R.FAST.clear()
    R._PLANS.clear()


def copy_bandwidth(t, n=1 << 28):
    """Device-to-device copy bandwidth (bytes/s) of ``n`` float32, printed."""
    src, dst = gp.empty(n, np.float32), gp.empty(n, np.float32)
    bw = 2 * 4 * n / t(gl, lambda: gp.copyto(dst, src))
    del src, dst
    print(f"copy bandwidth {bw / 1e9:.0f} GB/s", flush=True)
    return bw


def cumsum_cases(rng):
    """(name, host array) of the cumsum experiments: 1-D float32, rows of float32, int32."""
    return [("cumsum f32 2^26", rng.random(1 << 26, dtype=np.float32)),
            ("cumsum f32 (64, 2^20)", rng.random((64, 1 << 20), dtype=np.float32)),
            ("cumsum i32 2^26", rng.integers(0, 9, 1 << 26, dtype=np.int32))]


def carry_time(t, x):
    """Device seconds of the look-back scan's tile work alone on float32 ``x`` (1-D): the carry
    kernel of reduce-then-scan, from zero tile carries (its sums are not checked)."""
    from npgpu.reductions import scan_lookback as lb
    from npgpu.reductions import ufunc_methods as um
    n = x.size
    spec, _ = um.reduce_spec(gp.add, np.dtype(np.float32), scan=True)
    out = gp.empty(n, np.float32)
    vals, ovals = R._arr(x._ptr, [n], [4], 4), R._arr(out._ptr, [n], [4], 4)
    cin = gp.zeros(-(-n // lb.tile_size(spec)), np.float32)
    return t(gl, lambda: lb.run_carry(spec, x, out, 0, 1, n, vals, ovals, cin))
