"""npgpu from many Python threads at once: contexts, streams, launches, pool, caches.

Every thread checks every result against NumPy.  The GPU runs 16 threads x 200 iterations
(some threads on streams of their own, some on the legacy default stream); the simulator,
which runs one kernel at a time, 4 threads x 10 iterations of small arrays.
"""
import os
import subprocess
import sys
import threading
import uuid

import numpy
import pytest
from numba import cuda       # a module global: the simulator swaps globals named cuda

import npgpu as np
from npgpu._codegen import compiler
from npgpu._codegen.compiler import KernelSource, Param
from npgpu.cuda import Stream

from conftest import ON_GPU, assert_matches, needs_gpu

THREADS, ITERS, N, M = (16, 200, 4099, 64) if ON_GPU else (4, 10, 37, 4)
# a row long enough to be split: its blocks meet in the stream's arrival counters (the tail)
LONG = 1 << 17 if ON_GPU else 300


def _work(seed, iters, n, m, stream):
    """One thread's mix: elementwise, reductions (split rows among them), a scan, a float32
    matmul (cuBLAS on the GPU), transfers both ways; a list of failures (empty: every result
    equals NumPy's)."""
    rng = numpy.random.default_rng(seed)
    bad = []
    hl = rng.integers(-1000, 1000, LONG).astype(numpy.int32)
    hf = rng.standard_normal(LONG).astype(numpy.float32)
    with stream if stream is not None else Stream.null:
        gl, gf = np.asarray(hl), np.asarray(hf)
        for it in range(iters):
            k = int(rng.integers(1, 9))
            h = rng.standard_normal(n).astype(numpy.float32)
            hi = rng.integers(-50, 50, n).astype(numpy.int32)
            ha = rng.standard_normal((m, m)).astype(numpy.float32)
            hb = rng.standard_normal((m, m)).astype(numpy.float32)
            g, gi = np.asarray(h), np.asarray(hi)
            checks = [
                (g * (k + 1) + g, h * numpy.float32(k + 1) + h),
                (np.sqrt(np.abs(g)), numpy.sqrt(numpy.abs(h))),
                (gi - k, hi - k),
                (gi.sum(), hi.sum()),
                (g.max(), h.max()),
                (np.cumsum(gi), numpy.cumsum(hi)),
                (np.asarray(ha) @ np.asarray(hb), ha @ hb),
                (g[::-2].copy(), h[::-2]),
                ((gl + k).sum(), (hl + k).sum()),
                (np.argmax(gf * (k - 4.5)), numpy.argmax(hf * numpy.float32(k - 4.5))),
            ]
            for got, want in checks:
                try:
                    rtol = 1e-4 if want.ndim == 2 else None
                    assert_matches(got, want, rtol=rtol, atol=1e-4 if rtol else None)
                except AssertionError as e:
                    bad.append((seed, it, str(e)[:300]))
            total = float(g.sum())
            if not numpy.isclose(total, h.sum(dtype=numpy.float64), rtol=1e-4, atol=1e-3):
                bad.append((seed, it, f"float(sum) {total} != {h.sum()}"))
    return bad


def _run_threads(fn, count):
    errors, results = [], [None] * count

    def body(i):
        try:
            results[i] = fn(i)
        except BaseException as e:        # reported below, with the thread's number
            errors.append((i, repr(e)))

    ts = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors
    return results


def test_threads_mixed_work():
    """THREADS threads at once: even ones on a stream of their own, odd ones on the legacy
    default stream (entered by all of them at once: ``with`` restores per thread)."""
    def job(i):
        stream = Stream(non_blocking=True) if i % 2 == 0 else None
        bad = _work(1000 + i, ITERS, N, M, stream)
        if stream is not None:
            stream.synchronize()
        return bad

    failures = [b for r in _run_threads(job, THREADS) for b in r]
    assert not failures, failures[:5]
    assert np.cuda.get_current_stream() == Stream.null


def test_threads_first_touch_without_warm_up():
    """A process whose main thread never allocated nor launched: worker threads make the
    context current on themselves, at once, on their first operation."""
    code = f"""
import threading, numpy, warnings
warnings.filterwarnings("ignore", message="npgpu: no usable CUDA device")
import npgpu as np
out = []
def job(i):
    try:
        h = numpy.arange(1000, dtype=numpy.float32) * (i + 1)
        g = np.asarray(h)
        r = g * {3} + g
        ok = numpy.array_equal(r.get(), h * 3 + h) and float(r.sum()) == float((h * 3 + h).sum())
        out.append(ok)
    except BaseException as e:
        out.append(repr(e))
ts = [threading.Thread(target=job, args=(i,)) for i in range(8)]
[t.start() for t in ts]
[t.join() for t in ts]
print(out)
assert out == [True] * 8, out
"""
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]


def _probe_source(tag, c):
    name = f"thread_probe_{tag}"
    src = (f"def {name}(out, x):\n"
           f"    i = cuda.grid(1)\n"
           f"    if i < out.shape[0]:\n"
           f"        out[i] = x[i] + float32({c})\n")
    f4 = numpy.dtype(numpy.float32)
    return KernelSource(name, src, [Param("array", f4, 1, "C"), Param("array", f4, 1, "C")])


def test_cache_miss_in_two_threads_compiles_once():
    """Two threads missing the kernel cache for one new kernel at the same moment: one compile
    (the source is new to the disk cache too), both get the same launcher, both launch it."""
    tag = uuid.uuid4().hex[:12]
    key = ("test_threads_probe", tag)
    c = 0.5 + int(tag[:4], 16) % 100
    barrier = threading.Barrier(2)

    def render():
        return _probe_source(tag, c)

    before = compiler.stats["compiles"] + compiler.stats["disk_hits"]

    def job(i):
        barrier.wait()
        k = compiler.get_kernel(key, render)
        h = numpy.arange(50, dtype=numpy.float32) * (i + 2)
        x, out = np.asarray(h), np.empty(50, numpy.float32)
        vals = [0, 0, 50, 4, out._ptr, 50, 4, 0, 0, 50, 4, x._ptr, 50, 4]
        k(1, 64, vals)
        assert_matches(out, h + numpy.float32(c))
        return k

    k0, k1 = _run_threads(job, 2)
    assert k0 is k1
    assert compiler.stats["compiles"] + compiler.stats["disk_hits"] == before + 1


def test_per_thread_device_and_stream_state():
    """Current stream and ``with`` nesting are per thread; a stream entered in one thread is
    not current in another."""
    s = Stream(non_blocking=True)
    seen = []
    inside = threading.Event()
    leave = threading.Event()

    def holder():
        with s:
            with Stream.null:
                seen.append(np.cuda.get_current_stream() == Stream.null)
            seen.append(np.cuda.get_current_stream() == s)
            inside.set()
            leave.wait(60)
        seen.append(np.cuda.get_current_stream() == Stream.null)

    t = threading.Thread(target=holder)
    t.start()
    inside.wait(60)
    with Stream.null:                       # entered here while the other thread is inside s
        assert np.cuda.get_current_stream() == Stream.null
    assert np.cuda.get_current_stream() == Stream.null
    leave.set()
    t.join()
    assert seen == [True, True, True]


@needs_gpu
def test_thread_launches_do_not_share_packing_buffers():
    """One launcher, many threads, distinct arguments: every output holds its own input
    (a packing buffer shared by the threads would hand one thread's pointers to another)."""
    h = [numpy.full(257, i, numpy.float32) for i in range(16)]
    xs = [np.asarray(x) for x in h]

    def job(i):
        for _ in range(300):
            r = xs[i] + xs[i]
            if not numpy.array_equal(r.get(), h[i] * 2):
                return False
        return True

    assert all(_run_threads(job, 16))


def test_user_kernels_from_threads_beside_npgpu():
    """A hand-written ``numba.cuda.jit`` kernel launched from several threads, with a launch
    configuration of each thread's own, while other threads run npgpu's kernels.  On the
    simulator such a launch beside another thread's failed (AttributeError: blockIdx) or ran as
    a device-function call, and ``kernel[grid, block]`` configured the shared kernel object."""
    @cuda.jit
    def scaled(out, x, k):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = k * x[i]

    h = numpy.arange(40, dtype=numpy.float64)

    def job(i):
        g = np.asarray(h + i)
        for r in range(6):
            if i % 2:
                assert_matches(g * 2 - i, (h + i) * 2 - i)
            else:
                out = np.empty_like(g)
                threads = 8 * (i + 1)
                scaled[-(-h.size // threads), threads](out, g, float(i + r))
                assert_matches(out, (h + i) * (i + r))
        return True

    assert all(_run_threads(job, 4))


@pytest.mark.skipif(ON_GPU, reason="the simulator's serialised launches")
def test_simulator_launches_from_threads_are_serialised():
    """Numba's simulator runs one kernel at a time in a process: launches from several threads
    wait for each other instead of failing with AttributeError (blockIdx)."""
    h = numpy.arange(40, dtype=numpy.int64)

    def job(i):
        g = np.asarray(h + i)
        for _ in range(5):
            assert_matches(g * 2 - i, (h + i) * 2 - i)
        return True

    assert all(_run_threads(job, 4))
