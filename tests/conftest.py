"""Shared test fixtures: random data per dtype, comparison with NumPy, layouts."""
import collections
import os
import time
import warnings

import numpy as np
import pytest

warnings.filterwarnings("ignore", message="npgpu: no usable CUDA device")
import npgpu  # noqa: E402

ON_GPU = npgpu.backend() == "cuda"


def _check_kernel_keys():
    """Every hit of the kernel cache re-renders its kernel and checks that the key still names
    the same source: a key that leaves out something the source depends on (a module constant
    a test changes, such as random's ``SMALL``, once sizing a shared array) would hand a kernel
    made for another value to a later call (on the GPU an illegal address, and the worker's
    context lost).  ``NPGPU_CHECK_KERNEL_KEYS=0`` turns the check off."""
    import sys
    from npgpu._codegen import compiler
    plain = compiler.get_kernel

    def get_kernel(key, render):
        k = compiler._memory.get(key)
        if k is None:
            return plain(key, render)
        ks = render()
        if ks.digest() != k.source.digest():
            raise AssertionError(f"kernel cache key {key!r} names two kernels: {k.name} (cached) "
                                 f"and {ks.name} (rendered now); the key lacks what the "
                                 "source depends on")
        return k
    get_kernel.__doc__ = plain.__doc__
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "").startswith("npgpu") and \
                getattr(mod, "get_kernel", None) is plain:
            mod.get_kernel = get_kernel


if os.environ.get("NPGPU_CHECK_KERNEL_KEYS", "1") != "0":
    _check_kernel_keys()
needs_gpu = pytest.mark.skipif(not ON_GPU, reason="needs a real CUDA device (runs in the GPU suite)")
# The GPU suite samples (CI's simulator run and its PTX check take every case): one in GPU_SAMPLE
# of the ``matrix`` cases (large dtype x layout matrices, each kernel compiling cold on every
# device machine) and one in FAMILY_SAMPLE of the cases of any other test function with at least
# FAMILY_MIN parametrized cases (at least one of each).  Which ones rotates with SAMPLE_SEED (the
# UTC date unless NPGPU_GPU_SAMPLE_SEED is given), so over sessions every case runs on a GPU, and
# the shards of one day's calls stay disjoint.  NPGPU_GPU_SAMPLE=1 NPGPU_GPU_SAMPLE_FAMILY=1:
# everything.
GPU_SAMPLE = int(os.environ.get("NPGPU_GPU_SAMPLE", "4")) if ON_GPU else 1
FAMILY_SAMPLE = int(os.environ.get("NPGPU_GPU_SAMPLE_FAMILY", "2")) if ON_GPU else 1
FAMILY_MIN = 8
SAMPLE_SEED = os.environ.get("NPGPU_GPU_SAMPLE_SEED") or time.strftime("%Y-%m-%d", time.gmtime())


# NPGPU_TEST_SHARD="k/n" runs the k-th of n disjoint parts of the suite (by test id), so a suite
# longer than one device call's 10 minutes runs over several calls.
SHARD = tuple(int(v) for v in os.environ["NPGPU_TEST_SHARD"].split("/")) \
    if os.environ.get("NPGPU_TEST_SHARD") else None


def _sampled(items):
    """The items the GPU's sample keeps (all of them off the GPU)."""
    import zlib
    if GPU_SAMPLE <= 1 and FAMILY_SAMPLE <= 1:
        return items
    fams = collections.defaultdict(list)
    for item in items:
        fams[item.nodeid.split("[")[0]].append(item)
    keep = set()
    for group in fams.values():
        rates = [GPU_SAMPLE if it.get_closest_marker("matrix") is not None
                 else FAMILY_SAMPLE if len(group) >= FAMILY_MIN else 1 for it in group]
        hs = [zlib.crc32(f"{SAMPLE_SEED}:{it.nodeid}".encode()) for it in group]
        kept = [it for it, r, h in zip(group, rates, hs) if r <= 1 or h % r == 0]
        keep.update(id(it) for it in kept or [group[hs.index(min(hs))]])
    return [it for it in items if id(it) in keep]


def pytest_collection_modifyitems(config, items):
    import zlib
    kept = _sampled(items)
    if SHARD is not None:
        kept = [it for it in kept
                if zlib.crc32(f"shard:{it.nodeid}".encode()) % SHARD[1] == SHARD[0] - 1]
    if len(kept) < len(items):
        ids = set(id(it) for it in kept)
        config.hook.pytest_deselected(items=[it for it in items if id(it) not in ids])
        items[:] = kept


ALL_DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
                                    np.uint16, np.uint32, np.uint64, np.float16, np.float32,
                                    np.float64, np.complex64, np.complex128)]


def random_array(shape, dtype, rng=None, low=-100, high=100):
    """Random host data of ``dtype`` (never all zeros/ones)."""
    rng = rng or np.random.default_rng(12345)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(info.min, low), min(info.max, high)
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 10).astype(dtype)
    re = rng.standard_normal(shape) * 10
    im = rng.standard_normal(shape) * 10
    return (re + 1j * im).astype(dtype)


def full_range_random(shape, dtype, rng, int_limit=None):
    """Random host data over the dtype's whole integer range (or +-int_limit), floats in
    [-50, 50), complex with both parts random: the data the exactness tests use."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(shape) > 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = info.min, info.max
        if int_limit is not None:
            lo, hi = max(lo, -int_limit), min(hi, int_limit)
        return rng.integers(lo, hi, size=shape, endpoint=True, dtype=dt)
    x = rng.uniform(-50, 50, size=shape)
    if dt.kind == "c":
        x = x + 1j * rng.uniform(-50, 50, size=shape)
    return x.astype(dt)


def assert_same(got, expected):
    """Bit-exact equality of values, dtype and shape (an npgpu array or a host array)."""
    if isinstance(got, npgpu.ndarray):
        got = got.get()
    assert isinstance(got, np.ndarray)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


def tolerance(dtype):
    """(rtol, atol) suited to a dtype: exact for bool/int, a few ulp for floats."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "fc":
        return 0, 0
    bits = dtype.itemsize // (2 if dtype.kind == "c" else 1)
    return {2: (2e-3, 1e-3), 4: (2e-5, 1e-6), 8: (1e-12, 1e-14)}[bits]


def assert_matches(got, expected, rtol=None, atol=None, check_dtype=True):
    """Compare an npgpu result with NumPy's: dtype, shape, values (NaN positions equal)."""
    if isinstance(got, npgpu.ndarray):
        got_h = got.get()
    else:
        got_h = np.asarray(got)
    expected = np.asarray(expected)
    if check_dtype:
        assert got_h.dtype == expected.dtype, f"dtype {got_h.dtype} != {expected.dtype}"
    assert got_h.shape == expected.shape, f"shape {got_h.shape} != {expected.shape}"
    r, a = tolerance(expected.dtype)
    np.testing.assert_allclose(got_h, expected, rtol=rtol if rtol is not None else r,
                               atol=atol if atol is not None else a, equal_nan=True)


LAYOUTS = ("contiguous", "transposed", "strided", "negative", "broadcast", "zero_d", "empty")


def make_layout(host, layout):
    """(device array, host reference) pair with the given memory layout and equal values."""
    if layout == "contiguous":
        return npgpu.asarray(host), host
    if layout == "transposed":
        h = np.ascontiguousarray(host.T).T if host.ndim >= 2 else host
        d = npgpu.asarray(np.ascontiguousarray(host.T)).T if host.ndim >= 2 else npgpu.asarray(host)
        return d, h
    if layout == "strided":
        big = np.repeat(host[..., None], 3, axis=-1)
        return npgpu.asarray(big)[..., 1], big[..., 1]
    if layout == "negative":
        d = npgpu.asarray(host[::-1].copy())[::-1]
        return d, host
    if layout == "broadcast":
        # a zero-stride view: one row repeated
        row = host.reshape(-1)[: host.shape[-1]].copy() if host.ndim else host
        h = np.broadcast_to(row, host.shape)
        d = npgpu.asarray(row)
        d = d._view(0, host.shape, (0,) * (host.ndim - 1) + (d.strides[-1],)) if host.ndim else d
        return d, h
    if layout == "zero_d":
        h = host.reshape(-1)[:1].reshape(())
        return npgpu.asarray(h), h
    if layout == "empty":
        h = host.reshape(-1)[:0]
        return npgpu.asarray(h), h
    raise ValueError(layout)


@pytest.fixture
def rng():
    return np.random.default_rng(20261130)


def raises_like(np_call, gpu_call):
    """``gpu_call`` raises NumPy's exception class with NumPy's message (``np_call``'s)."""
    with pytest.raises(Exception) as want:
        np_call()
    with pytest.raises(want.type) as got:
        gpu_call()
    assert str(got.value) == str(want.value)


def matches_numpy(call, exc=ValueError):
    """``call(xp)`` with ``xp`` NumPy and npgpu: NumPy's result (assert_matches), or where NumPy
    raises ``exc``, npgpu's same class and message."""
    import npgpu
    try:
        want = call(np)
    except exc:
        raises_like(lambda: call(np), lambda: call(npgpu))
        return
    assert_matches(call(npgpu), want)


def error_of(fn):
    """(exception class, message) of ``fn()``, or None: compared between NumPy and npgpu."""
    try:
        fn()
    except Exception as e:          # noqa: BLE001 - the class and message are compared
        return type(e), str(e)
    return None


class DLPackOnly:
    """Only the DLPack protocol of an array ``a`` (a foreign producer: ``from_dlpack`` and
    ``asarray`` cannot take their shortcuts for npgpu or NumPy arrays)."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def run_threads(work, args):
    """Run ``work(a)`` for each ``a`` of ``args`` on its own thread, all at once; the first
    exception any of them raised is raised here (a failed assertion inside a thread)."""
    import threading
    errors = []

    def guarded(a):
        try:
            work(a)
        except BaseException as e:          # noqa: BLE001 - re-raised below
            errors.append(e)
    ts = [threading.Thread(target=guarded, args=(a,)) for a in args]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        raise errors[0]


def launched(fn):
    """``fn()`` and the kernels (launchers, with ``.source``) it launched, in order."""
    from npgpu._codegen import launcher
    seen = []
    launcher.recorders.append(seen)
    try:
        out = fn()
    finally:
        launcher.recorders.remove(seen)
    return out, seen
