"""bincount, histogram, histogram_bin_edges, histogram2d and histogramdd against NumPy: random
data with duplicates, NaN and +-inf, every supported dtype, weights (real, integer, complex),
shared-memory and global accumulation (histograms wider than the simulator's shared one),
non-contiguous inputs, empty inputs, rule strings, density, and NumPy's errors."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, assert_matches, assert_same, raises_like
from npgpu.sorting.counting import (bincount, histogram, histogram2d, histogram_bin_edges,
                                    histogramdd, minmax)

RNG = numpy.random.default_rng(2024)
INTS = [d for d in ALL_DTYPES if d.kind in "biu"]
REALS = [d for d in ALL_DTYPES if d.kind in "iuf"]


@pytest.mark.matrix
@pytest.mark.parametrize("dt", INTS, ids=str)
@pytest.mark.parametrize("hi", [3, 40])          # 40 bins: past the simulator's shared histogram
def test_bincount(dt, hi):
    hi = min(hi, numpy.iinfo(dt).max if dt.kind != "b" else 1)
    x = RNG.integers(0, hi, 57, endpoint=True).astype(dt)
    g = np.asarray(x)
    assert_same(bincount(g), numpy.bincount(x))
    assert_same(bincount(g, minlength=hi + 5), numpy.bincount(x, minlength=hi + 5))
    w = RNG.standard_normal(57)
    assert_matches(bincount(g, np.asarray(w)), numpy.bincount(x, w))
    wi = RNG.integers(-5, 5, 57).astype(numpy.int16)
    assert_matches(bincount(g, np.asarray(wi), minlength=2), numpy.bincount(x, wi, minlength=2))


def test_bincount_layouts_and_empty():
    x = RNG.integers(0, 9, 60)
    w = RNG.standard_normal(60).astype(numpy.float32)
    assert_same(bincount(np.asarray(x)[::-3]), numpy.bincount(x[::-3]))
    assert_matches(bincount(np.asarray(x)[1::2], np.asarray(w)[::2]),
                   numpy.bincount(x[1::2], w[::2]))
    assert_same(bincount([]), numpy.bincount([]))
    assert_same(bincount(np.asarray(numpy.array([], numpy.int8)), minlength=4),
                numpy.bincount(numpy.array([], numpy.int8), minlength=4))
    assert_same(bincount(np.asarray(numpy.array([], numpy.int8)), weights=[], minlength=2),
                numpy.bincount(numpy.array([], numpy.int8), weights=[], minlength=2))
    assert_matches(bincount([0, 1, 1], [1, 2, 3.5]), numpy.bincount([0, 1, 1], [1, 2, 3.5]))
    assert_same(bincount(np.asarray(numpy.array([7])), minlength=numpy.int8(3)),
                numpy.bincount(numpy.array([7]), minlength=numpy.int8(3)))


def test_bincount_errors():
    x = numpy.array([0, 1, 1])
    g = np.asarray(x)
    for bad in (numpy.array([1.5, 2]), numpy.array([], float), numpy.array([[1, 2]]),
                numpy.int64(3), numpy.array([1, -2])):
        raises_like(lambda: numpy.bincount(bad), lambda: bincount(np.asarray(bad)))
    for kw in (dict(minlength=-1), dict(minlength=None), dict(minlength=2.0),
               dict(weights=[1, 2]), dict(weights=[1j, 2, 3]), dict(weights=[[1, 2, 3]]),
               dict(weights=numpy.array([1j, 2, 3]))):
        dkw = dict(kw)
        if isinstance(kw.get("weights"), numpy.ndarray):
            dkw["weights"] = np.asarray(kw["weights"])
        raises_like(lambda: numpy.bincount(x, **kw), lambda: bincount(g, **dkw))


@pytest.mark.parametrize("dt", ["i1", "u8", "f2", "f4", "f8", "?"])
def test_minmax(dt):
    h = (RNG.standard_normal(50) * 20).astype(dt) if dt != "u8" else \
        RNG.integers(0, 2 ** 64 - 1, 50, dtype=numpy.uint64, endpoint=True)
    lo, hi = minmax(np.asarray(h))
    assert (lo, hi) == (h.min(), h.max()) and type(lo) is type(h.min())
    if dt[0] == "f":
        h[17] = numpy.nan
        lo, hi = minmax(np.asarray(h))
        assert numpy.isnan(lo) and numpy.isnan(hi)


def data(n, dt, special=True):
    dt = numpy.dtype(dt)
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        return RNG.integers(max(info.min, -60), min(info.max, 60), n, endpoint=True).astype(dt)
    x = (RNG.standard_normal(n) * 4).astype(dt)
    if special:
        x[:4] = 0.0, -0.0, 1.0, 1.0          # duplicates, signed zero
    return x


@pytest.mark.matrix
@pytest.mark.parametrize("dt", REALS, ids=str)
@pytest.mark.parametrize("bins", [1, 6, 50])
def test_histogram_count_bins(dt, bins):
    a = data(70, dt)
    h, e = histogram(np.asarray(a), bins)
    H, E = numpy.histogram(a, bins)
    assert_same(h, H)
    assert_same(e, E)
    h, e = histogram(np.asarray(a), bins, range=(-2, 3.5))
    H, E = numpy.histogram(a, bins, range=(-2, 3.5))
    assert_same(h, H)
    assert_same(e, E)


def near_edges(edges, dt, lo, hi, ulps=2):
    """Every edge and its neighbours up to ``ulps`` steps each way, in ``dt``, kept in
    [lo, hi] (so an autodetected range stays the same)."""
    if dt.kind in "iu":
        v = numpy.floor(edges)[:, None] + numpy.arange(-ulps, ulps + 2)
        v = v[(v >= lo) & (v <= hi)]
        return v.astype(dt)
    e = edges.astype(dt)
    out = [e]
    up, down = e.copy(), e.copy()
    for _ in range(ulps):
        up = numpy.nextafter(up, dt.type(numpy.inf))
        down = numpy.nextafter(down, dt.type(-numpy.inf))
        out += [up, down]
    v = numpy.concatenate(out)
    return v[(v >= lo) & (v <= hi)]


@pytest.mark.parametrize("dt", ["f2", "f4", "f8", "i2", "u1"])
def test_histogram_values_on_edges(dt):
    """Equal-width bins: values on and next to every edge land in NumPy's bins (the
    reciprocal form of counting._reciprocal and its skipped fix-ups; NumPy's division where
    it is not proven), range autodetected and given, both forms of the kernel."""
    from npgpu.sorting import counting
    gen = numpy.random.default_rng(14)   # (the module's RNG left to the other tests)
    dt = numpy.dtype(dt)
    if dt.kind == "f":
        lo, hi = dt.type(-2.75), dt.type(3.5)
        cases = [(None, 2), (None, 7), (None, 256), ((0, 1), 256), ((0.1, 0.9), 50),
                 ((-3, 5), 1000), ((numpy.float32(-1), numpy.float32(2)), 33), ((1000, 1001), 16)]
    else:
        lo, hi = dt.type(0), dt.type(120)
        cases = [(None, 120), (None, 7), ((0, 256), 256), ((0.5, 99.5), 30)]
    for rng, bins in cases:
        base = numpy.concatenate([[lo, hi], gen.uniform(lo, hi, 40).astype(dt)])
        try:
            e = numpy.histogram_bin_edges(base, bins, range=rng)
        except ValueError:          # float16: too many bins for the range
            continue
        a = numpy.concatenate([base, near_edges(e, dt, *(rng or (lo, hi)))]).astype(dt)
        if dt.kind == "f":
            a = numpy.concatenate([a, numpy.array([-7, 9, 0.0, -0.0], dt)])
        a = gen.permutation(a)
        H, E = numpy.histogram(a, bins, range=rng)
        for reciprocal in (True, False):
            saved, counting.RECIPROCAL = counting.RECIPROCAL, reciprocal
            try:
                h, g = histogram(np.asarray(a), bins, range=rng)
            finally:
                counting.RECIPROCAL = saved
            assert_same(h, H)
            assert_same(g, E)


@pytest.mark.parametrize("hist_bytes", [64, 16384])
def test_histogram_gpu_loop_shape(hist_bytes, monkeypatch):
    """The counting kernel as the GPU renders it (4 loads in flight, warp-sized replica groups,
    the shared accumulator for up to 4096 bins) on any backend: every element counted once at
    every length, the grid-stride loop's partial last round included (the H200 found elements
    counted twice there when a clamped index fed the next one)."""
    from npgpu._codegen import compiler
    from npgpu.sorting import counting
    monkeypatch.setattr(counting, "UNROLL", 4)
    monkeypatch.setattr(counting, "WARP_SHIFT", 5)
    monkeypatch.setattr(counting, "HIST_BYTES", hist_bytes)
    compiler.clear_memory_cache()
    gen = numpy.random.default_rng(15)
    try:
        for n in (1, 5, 37, 130, 1001):
            for dt, bins in (("f4", 7), ("f8", 256), ("i2", 33)):
                a = (gen.random(n) * 100).astype(dt)
                assert_same(histogram(np.asarray(a), bins)[0], numpy.histogram(a, bins)[0])
                w = gen.random(n)
                assert_matches(histogram(np.asarray(a), bins, weights=np.asarray(w))[0],
                               numpy.histogram(a, bins, weights=w)[0])
    finally:
        compiler.clear_memory_cache()       # the kernels above are not the simulator's own


def test_histogram_constant_and_infinite():
    """first == last (NumPy widens the range by 0.5 each way); +-inf outside a given range is
    dropped, in an autodetected one it is NumPy's error."""
    for dt in ("f4", "f8", "i4"):
        a = numpy.full(9, 3, dt)
        for bins in (1, 4, 256):
            h, e = histogram(np.asarray(a), bins)
            H, E = numpy.histogram(a, bins)
            assert_same(h, H)
            assert_same(e, E)
    a = numpy.array([numpy.inf, -numpy.inf, 0.25, 0.5, 1.0, 0.0], numpy.float32)
    h, e = histogram(np.asarray(a), 4, range=(0, 1))
    assert_same(h, numpy.histogram(a, 4, range=(0, 1))[0])
    raises_like(lambda: numpy.histogram(a, 4), lambda: histogram(np.asarray(a), 4))


def test_histogram_reciprocal_gate(monkeypatch):
    """Where the reciprocal form is proven (and so used): float32 256 bins on [0, 1); where
    not: float16 precision, a range far from zero for its width, huge bin counts."""
    from npgpu.sorting import counting
    from npgpu.sorting.counting import _reciprocal, _uniform_types
    monkeypatch.setattr(counting, "RECIPROCAL", True)

    def gate(bt, first, last, nbins):
        precision = _uniform_types(numpy.dtype(bt), first, last)[2]
        return _reciprocal(precision, first, last, nbins) is not None
    f2, f4 = numpy.float16, numpy.float32
    assert gate("f4", f4(0), f4(1), 256) and gate("f4", 0, 1, 256)
    assert gate("f8", 0, 1, 10 ** 6) and gate("f8", 0.1, 0.9, 1000)
    assert not gate("f2", f2(0), f2(1), 256)
    assert not gate("f4", f4(1e6), f4(1e6 + 64), 8)
    assert not gate("f4", f4(0), f4(1), 1 << 20)
    assert not gate("f4", f4(0), f4(1e-37), 4)         # subnormal edges


@pytest.mark.parametrize("dt", ["f4", "f8", "i4"])
def test_histogram_range_forms(dt):
    a = data(80, dt)
    for rng in [(0, 5), (-1.5, 1.5), (numpy.float32(-1), numpy.float32(2)), (2, 2), (-100, 100)]:
        for bins in (7, 256):
            h, e = histogram(np.asarray(a), bins, range=rng)
            H, E = numpy.histogram(a, bins, range=rng)
            assert_same(h, H)
            assert_same(e, E)


@pytest.mark.parametrize("wdt", ["f8", "f4", "i2", "c16"])
def test_histogram_weights_density(wdt):
    a = data(64, "f8").reshape(8, 8)
    w = (RNG.standard_normal(64) * 3).astype(wdt).reshape(8, 8) if wdt[0] != "c" else \
        (RNG.standard_normal(64) + 1j * RNG.standard_normal(64)).reshape(8, 8)
    for bins in (5, 30, [-3, -1, 0, 0, 0.5, 4]):
        h, e = histogram(np.asarray(a), bins, weights=np.asarray(w))
        H, E = numpy.histogram(a, bins, weights=w)
        assert_matches(h, H, rtol=1e-5, atol=1e-5)
        assert_same(e, E)
    for bins in (5, [-3, -1, 0, 0.5, 4]):
        assert_matches(histogram(np.asarray(a), bins, density=True)[0],
                       numpy.histogram(a, bins, density=True)[0])


@pytest.mark.parametrize("dt", ["f4", "i8", "u1"])
def test_histogram_edges(dt):
    a = data(60, dt).astype(dt)
    if dt == "f4":
        a[5:8] = numpy.nan, numpy.inf, -numpy.inf
    many = numpy.linspace(-10, 10, 45)          # more edges than the simulator's shared table
    for bins in ([-3, -1, 0, 0, 0.5, 4], [0, 1, 1], [0, 2, 2], many, numpy.array([1, 5, 9], dt)):
        h, e = histogram(np.asarray(a), bins)
        H, E = numpy.histogram(a, bins)
        assert_same(h, H)
        assert_same(e, E)
    h, e = histogram(np.asarray(a)[::-2], np.asarray(many))
    assert_same(h, numpy.histogram(a[::-2], many)[0])


def test_histogram_bool_and_empty():
    b = RNG.random(30) < 0.5
    with pytest.warns(RuntimeWarning):
        h, e = histogram(np.asarray(b), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        H, E = numpy.histogram(b, 3)
    assert_same(h, H)
    assert_same(e, E)
    empty = numpy.array([], numpy.float32)
    for bins in (4, [0, 1, 2]):
        h, e = histogram(np.asarray(empty), bins)
        H, E = numpy.histogram(empty, bins)
        assert_same(h, H)
        assert_same(e, E)


@pytest.mark.parametrize("rule", ["sqrt", "sturges", "rice", "scott", "doane", "stone"])
def test_histogram_rules(rule):
    a = data(120, "f8", special=False)
    for kw in (dict(), dict(range=(-2, 3))):
        e = histogram_bin_edges(np.asarray(a), rule, **kw)
        assert_matches(e, numpy.histogram_bin_edges(a, rule, **kw))
    ai = data(60, "i2")
    assert_matches(histogram_bin_edges(np.asarray(ai), rule),
                   numpy.histogram_bin_edges(ai, rule))


@pytest.mark.parametrize("rule", ["fd", "auto"])
def test_histogram_rules_percentile(rule):
    pytest.importorskip("npgpu.sorting.order_stats")
    a = data(120, "f8", special=False)
    assert_matches(histogram_bin_edges(np.asarray(a), rule), numpy.histogram_bin_edges(a, rule))


def test_histogram_errors():
    a = numpy.array([1.0, 2, 3])
    g = np.asarray(a)
    cases = [dict(bins=0), dict(bins=2.5), dict(bins="nope"), dict(bins=[[1, 2]]),
             dict(bins=[3, 2, 1]), dict(range=(2, 1)), dict(range=(0, numpy.inf)),
             dict(bins="sqrt", weights=numpy.ones(3)), dict(weights=numpy.ones(4)),
             dict(bins=10 ** 6, range=(1.0, 1.0 + 1e-12))]
    for kw in cases:
        dkw = {k: (np.asarray(v) if isinstance(v, numpy.ndarray) else v) for k, v in kw.items()}
        raises_like(lambda: numpy.histogram(a, **kw), lambda: histogram(g, **dkw))
    nan = numpy.array([1.0, numpy.nan])
    raises_like(lambda: numpy.histogram(nan), lambda: histogram(np.asarray(nan)))
    raises_like(lambda: numpy.histogram(a, bins=numpy.array([3.0, 1.0])),
                lambda: histogram(g, bins=np.asarray(numpy.array([3.0, 1.0]))))


@pytest.mark.parametrize("dt", ["f8", "f4", "i4"])
def test_histogramdd(dt):
    s = data(90, dt, special=False).reshape(30, 3)
    w = RNG.standard_normal(30)
    for bins in (4, (3, 2, 5), (3, [-1, 0, 1, 2], numpy.linspace(-5, 5, 30)), [2, 3, [0, 1]]):
        for kw in (dict(), dict(weights=w), dict(density=True),
                   dict(range=[(-1, 1), None, (0, 4)])):
            dkw = {k: (np.asarray(v) if isinstance(v, numpy.ndarray) else v)
                   for k, v in kw.items()}
            h, e = histogramdd(np.asarray(s), bins, **dkw)
            H, E = numpy.histogramdd(s, bins, **kw)
            assert_matches(h, H)
            assert len(e) == len(E)
            for p, q in zip(e, E):
                assert_same(p, q)
    # a sequence of coordinate arrays (NumPy's other form), one of them strided
    x, y = data(40, dt), data(80, dt)[::2]
    h, e = histogramdd([np.asarray(x), np.asarray(data(80, dt))[::2] * 0 + np.asarray(y)], 5)
    assert_matches(h, numpy.histogramdd([x, y], 5)[0])


def test_histogram2d():
    x, y = data(50, "f8"), data(50, "f8")
    for bins in (6, (3, 4), [[-1, 0, 2], [0, 1, 3, 5]], numpy.array([-2, 0, 1, 2.5])):
        got = histogram2d(np.asarray(x), np.asarray(y), bins)
        want = numpy.histogram2d(x, y, bins)
        for p, q in zip(got, want):
            assert_matches(p, q)
    raises_like(lambda: numpy.histogram2d(x, y[:3]), lambda: histogram2d(np.asarray(x),
                                                                         np.asarray(y[:3])))
    s = numpy.ones((5, 2))
    for kw in (dict(bins=[2, 3, 4]), dict(range=[(0, 1)]), dict(bins=[0, 2]),
               dict(bins=[[2, 1], 3]), dict(bins=[[[1]], 3])):
        raises_like(lambda: numpy.histogramdd(s, **kw), lambda: histogramdd(np.asarray(s), **kw))


def test_bincount_argument_ranges_and_complex_nd_histograms():
    from conftest import error_of
    x = numpy.array([1, 2])
    assert error_of(lambda: bincount(np.asarray(x), minlength=2 ** 65)) == \
        error_of(lambda: numpy.bincount(x, minlength=2 ** 65))
    big = numpy.array([2 ** 63, 3], numpy.uint64)
    assert error_of(lambda: bincount(np.asarray(big))) == \
        error_of(lambda: numpy.bincount(big))
    c = np.asarray(numpy.array([1 + 1j, 2]))
    for call in (lambda: histogram2d(c, np.asarray(numpy.array([1., 2]))),
                 lambda: np.histogramdd(c.reshape(2, 1))):
        with pytest.raises(TypeError, match="complex data is not supported"):
            call()
