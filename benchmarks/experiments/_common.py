"""Shared setup of the GPU experiments in this folder: the libraries, CUDA-event timing, cache
reset between kernel variants, interleaved rounds, and the copy-bandwidth reference."""
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)                                  # `import npgpu` from a checkout
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
from _timing import CupyLib, NpgpuLib, TorchLib  # noqa: E402

from npgpu._codegen import compiler  # noqa: E402
from npgpu.reductions import reduce as R  # noqa: E402



def _peer(cls):
    """A peer library, or None where it is missing (its rows are then left out)."""
    try:
        return cls()
    except Exception as e:
        print(f"[{cls.__name__}: {type(e).__name__}: {e}]", flush=True)
        return None


gl, tl, cl = NpgpuLib(), _peer(TorchLib), _peer(CupyLib)
gp = gl.gp
OUT = os.environ.get("OUT", "/tmp")
# smoke test (e.g. on the simulator): every experiment's sizes shrink by 2**SHIFT
SHIFT = int(os.environ.get("EXP_SHIFT", "0"))


def timer(reps, budget_s):
    """``t(lib, fn)``: median device seconds of one ``fn()`` call."""
    def t(lib, fn):
        return lib.time_events(fn, reps=reps, warmup=3, budget_s=budget_s)["time_s"]
    return t


def fresh():
    """Forget compiled kernels, reduction plans and fast paths (a changed knob takes effect)."""
    compiler.clear_memory_cache()
    for cache in (R.FAST, R._PLANS, getattr(R, "_DRY", {})):
        cache.clear()


def copy_bandwidth(t, n=1 << 28):
    """Device-to-device copy bandwidth (bytes/s) of ``n >> SHIFT`` float32, printed."""
    n >>= SHIFT
    src, dst = gp.empty(n, np.float32), gp.empty(n, np.float32)
    bw = 2 * 4 * n / t(gl, lambda: gp.copyto(dst, src))
    del src, dst
    print(f"copy bandwidth {bw / 1e9:.0f} GB/s", flush=True)
    return bw


def pct(bw, nbytes, s):
    """``s`` seconds moving ``nbytes``: microseconds and % of copy bandwidth ``bw``."""
    return f"{s * 1e6:8.1f} us {nbytes / s / bw * 100:6.1f}%"


def rounds(variants, run, fmt, nrounds=3):
    """Time every variant ``nrounds`` times, interleaved (the H200's speed drifts by several %
    from minute to minute); ``run(v)`` returns (seconds, note).  Prints each variant's median,
    all its times and its first note; a variant that raises is reported and dropped."""
    res = {v: [] for v in variants if (v, tl) != ("torch", None) and (v, cl) != ("cupy", None)}
    for _ in range(nrounds):
        for v in list(res):
            try:
                res[v].append(run(v))
            except Exception as e:              # one failing variant must not end the run
                print(f"  {v!s:28s} FAILED: {type(e).__name__}: {e}"[:300], flush=True)
                del res[v]
    for v, rs in res.items():
        ts = sorted(s for s, _ in rs)
        print(f"  {v!s:28s} median {fmt(ts[len(ts) // 2])}   all "
              + " ".join(f"{s * 1e6:.1f}" for s in ts) + f"   {rs[0][1]}", flush=True)
    return res


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


def call_and_kernel_times(cases, rounds, reps=20):
    """``{(name, "call" | "kernels"): [us, ...]}`` for ``cases`` ({name: fn}), rounds
    interleaved: "call" times a whole call between CUDA events (host work before its first
    launch counts, as benchmarks/run.py sees it), "kernels" starts the timer at the call's
    first launch (the device time alone; npgpu's launcher is wrapped for the run)."""
    from npgpu._codegen import launcher
    real = launcher.Launcher.__call__
    pending = []                         # the start event to record at the next launch

    def spy(self, *a, **k):
        if pending:
            pending.pop().record()
        return real(self, *a, **k)

    launcher.Launcher.__call__ = spy
    sync = gp.cuda.Device().synchronize
    times = {(name, mode): [] for name in cases for mode in ("call", "kernels")}
    start, end = gp.cuda.Event(), gp.cuda.Event()
    try:
        for _ in range(rounds):
            for name, fn in cases.items():
                for mode in ("call", "kernels"):
                    fn()
                    sync()
                    for _ in range(reps):
                        if mode == "call":
                            start.record()
                        else:
                            pending.append(start)
                        fn()
                        end.record()
                        pending.clear()
                        end.synchronize()
                        times[name, mode].append(gp.cuda.get_elapsed_time(start, end) * 1e3)
    finally:
        launcher.Launcher.__call__ = real
    return times


def with_setting(module, name, value, fn):
    """``fn`` that first sets ``module.name = value`` (an A/B switch read on every call), so
    interleaved rounds can alternate the setting call by call."""
    def run():
        setattr(module, name, value)
        return fn()
    return run


def per_call_us(fn, calls=200, batches=5, wait=True):
    """Best microseconds a call over ``batches`` batches of ``calls`` back-to-back calls, each
    batch from a synchronized device: ``wait`` ends a batch with a synchronize (the GPU's rate
    where it is the slower side: the sweep's per-call timing); without, host time alone."""
    sync = gp.cuda.Device().synchronize
    best = float("inf")
    for _ in range(batches):
        sync()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        if wait:
            sync()
        best = min(best, (time.perf_counter() - t0) / calls)
    sync()
    return best * 1e6


def gather_data(log2=26):
    """The random gather experiments' data: ``(n, ha, hi, a, idx, want)`` -- 2^log2 float32
    (``>> SHIFT``) and as many uniform int64 indices, on the host and the device, and NumPy's
    ``ha[hi]``."""
    n = 1 << (log2 - SHIFT)
    rng = np.random.default_rng(0)
    ha = rng.random(n, dtype=np.float32)
    hi = rng.integers(0, n, n)
    return n, ha, hi, gp.asarray(ha), gp.asarray(hi), ha[hi]
