"""The GPU's sorting primitive, CUB's onesweep kernels (``sorting/cub_sort.py``), and the NaN
repair after it (``sorting/nan_tail.py``), against NumPy's stable sort, exactly."""
import numpy
import pytest

import npgpu as np
from npgpu.sorting import cub_sort as _cub
from npgpu.sorting import keys as _keys
from npgpu.sorting import nan_tail as _nan

from conftest import ON_GPU, needs_gpu
from test_sort_onesweep import data as _onesweep_data

CUB_DTYPES = [numpy.dtype(d) for d in (
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float32", "float64")]


def data(n, dt, seed=0, nans=True):
    """Random values with ties; floats with NaNs of both signs and several payloads, +-0,
    +-inf; integers over their whole range with the extremes."""
    dt = numpy.dtype(dt)
    if dt.kind in "biu":                                 # the generated sort's test data
        return _onesweep_data(n, dt, seed)
    rng = numpy.random.default_rng(seed)
    h = (rng.standard_normal(n) * 100).astype(dt)
    h[: n // 4] = numpy.round(h[: n // 4])              # ties
    u = f"u{dt.itemsize}"
    sign = numpy.array(1 << (8 * dt.itemsize - 1), u)
    qnan = numpy.array(numpy.nan, dt).view(u)
    specials = [numpy.array(v, dt) for v in (0.0, -0.0, numpy.inf, -numpy.inf)]
    if nans:
        specials += [qnan.view(dt), (qnan | sign).view(dt), (qnan + 5).view(dt),
                     ((qnan + 3) | sign).view(dt)]
    k = min(n // 2, 8 * len(specials))
    pos = rng.choice(n, k, replace=False)
    h[pos] = numpy.array(specials * 8, dt)[:k]
    rng.shuffle(h)
    return h


def same_bits(got, want):
    got = got.get()
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f":
        got, want = got.view(f"u{want.itemsize}"), want.view(f"u{want.itemsize}")
    bad = numpy.flatnonzero(got != want)
    assert bad.size == 0, (bad[:10], got[bad[:10]], want[bad[:10]])


# ---- the NaN repair on every backend, from a CUB-ordered result made on the host ----------
def cub_order(h):
    """The stable order CUB gives floats: bits twiddled (sign set: all inverted, else the sign
    bit set), -0.0 as +0.0, NaNs by those bits."""
    u = f"u{h.itemsize}"
    b = h.view(u).copy()
    sign = numpy.array(1 << (8 * h.itemsize - 1), u)
    b[b == sign] = 0                                     # -0.0 -> +0.0
    key = numpy.where(b & sign, ~b, b | sign)
    return numpy.argsort(key, kind="stable")


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("case", ["mixed", "positive", "none", "all", "negative"])
@pytest.mark.parametrize("index", [False, True])
def test_nan_tail_repairs_cub_order(dt, case, index):
    n = 103 + 24 * (case == "mixed")
    h = data(n, dt, seed=7, nans=case != "none")
    u = f"u{h.itemsize}"
    isnan = numpy.isnan(h)
    if case == "positive":
        h[isnan] = numpy.abs(h[isnan])
    elif case == "negative":
        h[isnan] = (h[isnan].view(u) | numpy.array(1 << (8 * h.itemsize - 1), u)).view(h.dtype)
    elif case == "all":
        h[:] = numpy.nan
        h[::3] = -numpy.nan
    perm = cub_order(h)
    X = np.asarray(h)
    S = np.asarray(h[perm])
    if index:
        PL = np.asarray(perm.astype(numpy.int32))
        T = np.empty(n, np.int32)
    else:
        PL = S
        T = np.empty(n, h.dtype)
    _nan.place(X, S, PL, T, np.zeros(2, np.int32))
    if index:
        same_bits(PL, numpy.argsort(h, kind="stable").astype(numpy.int32))
    else:
        same_bits(PL, numpy.sort(h, kind="stable"))


# ---- CUB's kernels (GPU) ----------------------------------------------------------------------
@pytest.fixture
def cub_everywhere(monkeypatch):
    """Every 1-d sort of a CUB dtype takes CUB's kernels, small sizes too."""
    monkeypatch.setattr(_cub, "MIN_N", 1)


@needs_gpu
def test_cub_is_available():
    assert _cub.ENABLED and _cub.plan("float", None) is not None, (
        "CUB's kernels did not build: set NPGPU_CUB_SORT_DEBUG=1 to see why")


@needs_gpu
@pytest.mark.parametrize("dt", CUB_DTYPES, ids=str)
@pytest.mark.parametrize("n", [1, 37, 8191, 70001])
def test_sort_and_argsort(cub_everywhere, dt, n):
    h = data(n, dt, seed=n)
    a = np.asarray(h)
    same_bits(np.sort(a), numpy.sort(h, kind="stable"))
    same_bits(np.argsort(a), numpy.argsort(h, kind="stable"))


@needs_gpu
@pytest.mark.parametrize("dt", ["int32", "float32", "float64", "uint8"])
def test_look_back_zeroed_each_pass(cub_everywhere, monkeypatch, dt):
    """Sorts whose look-back statuses exceed ``LOOK_AHEAD_BYTES`` zero one region before each
    pass instead of every pass's at the start: both give NumPy's order."""
    monkeypatch.setattr(_cub, "LOOK_AHEAD_BYTES", 0)
    monkeypatch.setattr(_cub, "_layouts", {})
    h = data(70001, dt, seed=5)
    a = np.asarray(h)
    same_bits(np.sort(a), numpy.sort(h, kind="stable"))
    same_bits(np.argsort(a), numpy.argsort(h, kind="stable"))


@needs_gpu
@pytest.mark.parametrize("dt", ["int32", "float32", "float64"])
def test_default_size_threshold(dt):
    """At the default threshold and one portion's tiles: 2^17 + 3 elements, non-contiguous."""
    n = _cub.MIN_N + 3
    h = data(2 * n, dt, seed=1)[::-2]
    a = np.asarray(data(2 * n, dt, seed=1))[::-2]
    assert _cub.applies(_keys.parts_for(np.ascontiguousarray(a)), n, "index", 0)
    same_bits(np.sort(a), numpy.sort(h, kind="stable"))
    same_bits(np.argsort(a), numpy.argsort(h, kind="stable"))
    # NumPy's unique sorts unstably: which NaN (payload) or zero (sign) it keeps is its sort's
    numpy.testing.assert_array_equal(np.unique(a).get(), numpy.unique(h))


@needs_gpu
def test_descending_and_rows_keep_the_generated_sort(cub_everywhere):
    h = data(5000, "float32", seed=2)
    a = np.asarray(h)
    got = np.argsort(a, descending=True).get()
    want = numpy.flip(numpy.argsort(numpy.flip(h), kind="stable"))
    assert numpy.array_equal(got, h.size - 1 - want)
    h2 = data(3 * 4096, "int32", seed=3).reshape(3, 4096)
    same_bits(np.sort(np.asarray(h2), axis=1), numpy.sort(h2, axis=1, kind="stable"))


def test_cpu_backends_never_take_cub():
    if not ON_GPU:
        assert not _cub.ENABLED
    assert not _cub.applies([], 1 << 20, None, 0)
    # descending keys and row ids stay with the generated sort
    parts = _keys.parts_for(np.arange(10.0), descending=True)
    assert _cub.key_type(parts[0]) is None
    assert _cub.key_type(_keys.row_part(4, 10)) is None


def test_cub_source_compiles_without_a_gpu():
    """NVRTC compiles CUB's kernels from the installed headers on any machine (CI has no GPU):
    a header upgrade that breaks the dispatch shows here, not as a silent fallback on the GPU."""
    import re
    inc = _cub._cccl_include()
    if inc is None:
        pytest.skip("no CCCL headers (nvidia-cuda-cccl) installed")
    with open(f"{inc}/cub/version.cuh") as f:
        version = int(re.search(r"#define CUB_VERSION (\d+)", f.read()).group(1))
    if version // 100 != 3005:
        pytest.skip(f"CUB {version}: npgpu drives 3.5's kernels (the GPU sorts with its own)")
    m = _cub.module("int", "int", 90, (256, 16), inc)
    for name in _cub._NAMES.values():
        m.get_function(name)
    m.get_function("npgpu_cub_policy")
