"""What every example shares: the ``--size`` option, npgpu-vs-NumPy timing lines, checks.

Not an example itself.  The examples import it from their own folder (``python examples/x.py``
puts that folder on ``sys.path``).
"""
import argparse
import time
import warnings

import numpy as np

# on a machine without a GPU npgpu warns once that it runs on the simulator; the banner says so
warnings.filterwarnings("ignore", message="npgpu: no usable CUDA device")
import npgpu  # noqa: E402

ON_GPU = npgpu.backend() == "cuda"
CHECK_LINE = "all checks passed"          # tests/test_examples.py looks for this line
_t_start = time.perf_counter()


def size_from_args(doc, gpu_size, sim_size, what="size"):
    """Parse ``--size N`` and ``--small``; the default size is ``gpu_size`` on a GPU and
    ``sim_size`` on the simulator (or with ``--small``).  Prints a banner naming the backend and
    the size."""
    p = argparse.ArgumentParser(description=doc.strip().splitlines()[0])
    p.add_argument("--size", type=int, default=None,
                   help=f"{what} (default: {gpu_size} on a GPU, {sim_size} on the simulator)")
    p.add_argument("--small", action="store_true",
                   help="the simulator's size on a GPU too (a quick check, as in the tests)")
    args = p.parse_args()
    n = args.size
    if n is None:
        n = gpu_size if ON_GPU and not args.small else sim_size
    if n <= 0:
        p.error("--size must be positive")
    where = npgpu.cuda.Device().name if ON_GPU else "Numba's CUDA simulator"
    print(f"npgpu {npgpu.__version__} on {npgpu.backend()} ({where}), {what} = {n}", flush=True)
    if not ON_GPU:
        print("  (simulator: the kernels are interpreted, so its times say nothing about a GPU)")
    return n


def sync():
    """Wait for the device: timings must include the work, not only its launch."""
    if ON_GPU:
        npgpu.cuda.Device().synchronize()


def _clock(fn, repeat):
    best, out = None, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        sync()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return out, best


def _ms(t):
    return f"{t * 1e3:10.2f} ms" if t is not None else "         --   "


def step(name, gpu_fn, numpy_fn=None, repeat=3):
    """Run one step with npgpu and with NumPy and print one line with both times.

    On a GPU ``gpu_fn`` runs once first (compiles its kernels) and then ``repeat`` times (the
    best time is shown); on the simulator it runs once.  NumPy runs once.  Returns
    ``(npgpu result, NumPy result)``; the functions must not change their inputs."""
    if ON_GPU:
        gpu_fn()
        sync()
    g, tg = _clock(gpu_fn, repeat if ON_GPU else 1)
    h, th = _clock(numpy_fn, 1) if numpy_fn is not None else (None, None)
    ratio = f"   numpy/npgpu {th / tg:7.1f}x" if (th and tg and ON_GPU) else ""
    print(f"  {name:<44s} npgpu {_ms(tg)}   numpy {_ms(th)}{ratio}", flush=True)
    return g, h


def note(text):
    print(f"  {text}", flush=True)


def skipped(name, why="needs a GPU"):
    print(f"  {name:<44s} skipped: {why}", flush=True)


def host(x):
    """A host copy (npgpu arrays are never turned into NumPy ones implicitly)."""
    return x.get() if isinstance(x, npgpu.ndarray) else np.asarray(x)


def check(name, got, expected, rtol, atol=0.0):
    """Assert ``got`` (npgpu or NumPy) is close to ``expected`` and print the largest error."""
    got, expected = host(got), host(expected)
    assert got.shape == expected.shape, f"{name}: shape {got.shape} != {expected.shape}"
    err = np.abs(got.astype(np.float64) - expected.astype(np.float64))
    worst = float(err.max()) if err.size else 0.0
    ok = np.allclose(got, expected, rtol=rtol, atol=atol)
    print(f"  check {name:<38s} max abs err {worst:.3g} (rtol {rtol:g}, atol {atol:g}): "
          f"{'ok' if ok else 'FAILED'}", flush=True)
    assert ok, f"{name}: not within rtol={rtol}, atol={atol} of NumPy (max abs err {worst})"


def check_true(name, cond, detail=""):
    print(f"  check {name:<38s} {detail}: {'ok' if cond else 'FAILED'}", flush=True)
    assert cond, f"{name}: {detail}"


def done():
    print(f"{CHECK_LINE} ({time.perf_counter() - _t_start:.1f} s)", flush=True)
