"""Tiny calls of the sorting family (issues 14, 20): the cached-plan paths of sort / argsort /
partition (``functions.TINY``: the one-block row kernel), unique (``sets.TINY``: one scatter
kernel for one tile, tile counts summed by the groups up to ``LOCAL_TILES``) and searchsorted
(``searching.TINY``) against NumPy, bit for bit, at sizes around each threshold, with the
switches off as the reference path too; the GPU forms of the new run-length kernels are
recorded for CI's PTX check."""
import itertools

import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES
from npgpu._codegen import compiler
from npgpu._codegen.stats import stats
from npgpu.sorting import functions as _f
from npgpu.sorting import searching as _search
from npgpu.sorting import segmented as _seg
from npgpu.sorting import sets
from test_sorting import data as _data

RNG = numpy.random.default_rng(2020)
SEEDS = itertools.count(2020)
# the longest row the one-block kernel takes (simulator 16, GPU 2048) and the sizes around it
ROW = _seg.max_row(4, 8)
SIZES = [1, 2, 3, ROW - 1, ROW, ROW + 1]
# unique: one tile (simulator 12, GPU 512); the most tiles the groups sum themselves
TILE = sets._group(sets.BLOCK, np.backend() != "cuda") * sets.ITEMS
LOCAL = sets.LOCAL_TILES * TILE


def data(shape, dt):
    """test_sorting's random values (ties; NaN, +-0.0, +-inf; complex NaN parts), a new seed
    each call."""
    return _data(shape, dt, next(SEEDS))


def same_bits(got, want):
    """Bit-exact equality (NaN payloads and signed zeros included), dtype and shape."""
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.shape)
    if want.dtype.kind in "fc":
        w = g.itemsize // (2 if want.dtype.kind == "c" else 1)
        g = numpy.ascontiguousarray(g).view(f"u{w}")
        want = numpy.ascontiguousarray(want).view(f"u{w}")
    numpy.testing.assert_array_equal(g, want)


@pytest.fixture(params=[True, False], ids=["tiny", "general"])
def tiny(request, monkeypatch):
    """Each test with the tiny paths on, then off (the general path gives the reference); the
    one-kernel unique on with them, on the GPU too (where it is off by default until checked)."""
    from npgpu.sorting import unique_block
    for mod in (_f, sets, _search):
        monkeypatch.setattr(mod, "TINY", request.param)
    monkeypatch.setattr(unique_block, "ENABLED", True)
    return request.param


def launches(f):
    before = stats["launches"]
    r = f()
    return r, stats["launches"] - before


# ---- sort, argsort -------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_sort_argsort_1d(tiny, dt):
    for n in [0] + SIZES:
        h = data(n, dt)
        g = np.asarray(h)
        same_bits(np.sort(g), numpy.sort(h, kind="stable"))
        same_bits(np.argsort(g), numpy.argsort(h, kind="stable"))
        same_bits(g.argsort(), numpy.argsort(h, kind="stable"))
        # descending: the exact reverse of the ascending order, ties in input order
        want = n - 1 - numpy.argsort(h[::-1], kind="stable")[::-1]
        same_bits(np.argsort(g, descending=True), want)
        same_bits(np.sort(g, descending=True), h[want])


@pytest.mark.parametrize("dt", [numpy.float32, numpy.int16, numpy.bool_, numpy.float16,
                                numpy.uint64], ids=str)
def test_sort_rows_every_axis_and_layout(tiny, dt):
    """2-d rows around the row kernel's limit along each axis; non-contiguous, negative-stride
    and transposed inputs (the general path copies them first)."""
    for m in (2, ROW - 1, ROW, ROW + 1):
        h = data((5, m), dt)
        g = np.asarray(h)
        views = [(g, h), (g[:, ::2], h[:, ::2]), (g[::-1, ::-1], h[::-1, ::-1]), (g.T, h.T),
                 (g[1:2], h[1:2]), (g[:0], h[:0])]
        for gv, hv in views:
            for axis in (-1, 0, 1, None):
                same_bits(np.sort(gv, axis=axis), numpy.sort(hv, axis=axis, kind="stable"))
                same_bits(np.argsort(gv, axis=axis),
                          numpy.argsort(hv, axis=axis, kind="stable"))
    h = data((3, 2, ROW), dt)
    same_bits(np.sort(np.asarray(h)), numpy.sort(h, kind="stable"))
    same_bits(np.argsort(np.asarray(h), axis=2), numpy.argsort(h, axis=2, kind="stable"))


def test_sort_zero_d_and_kinds(tiny):
    h = numpy.float32(2.5)
    g = np.asarray(h)
    same_bits(np.argsort(g), numpy.argsort(h))
    same_bits(np.sort(g, axis=None), numpy.sort(h, axis=None))
    x = data(ROW, numpy.float32)
    g = np.asarray(x)
    for kw in (dict(kind="quicksort"), dict(kind="stable"), dict(kind="m"), dict(stable=True),
               dict(kind=b"heapsort"), dict(axis=numpy.int64(0))):
        same_bits(np.sort(g, **kw), numpy.sort(x, kind="stable"))
        same_bits(np.argsort(g, **kw), numpy.argsort(x, kind="stable"))


@pytest.mark.parametrize("call, err", [
    (dict(kind="x"), ValueError), (dict(kind=3), TypeError), (dict(order="f"), ValueError),
    (dict(kind="stable", stable=True), ValueError), (dict(axis=1), numpy.exceptions.AxisError),
    (dict(axis=-2), numpy.exceptions.AxisError), (dict(axis=0.0), TypeError)])
def test_sort_errors_as_numpy(tiny, call, err):
    h = data(8, numpy.float32)
    g = np.asarray(h)
    for f, nf in ((np.sort, numpy.sort), (np.argsort, numpy.argsort)):
        with pytest.raises(err) as want:
            nf(h, **call)
        with pytest.raises(err) as got:
            f(g, **call)
        assert str(got.value) == str(want.value)


def test_sort_tiny_is_one_launch_and_cached():
    """A tiny sort is one launch through a plan cached per (dtype, row, argsort,
    descending); the general path (switch off) gives the same bits."""
    h = data(ROW, numpy.float32)
    g = np.asarray(h)
    np.sort(g)
    assert (numpy.dtype(numpy.float32), ROW, False, False) in _f._TINY_PLANS
    for f, nf in ((np.sort, numpy.sort), (np.argsort, numpy.argsort)):
        r, k = launches(lambda: f(g))
        assert k == 1
        same_bits(r, nf(h, kind="stable"))
    # a non-contiguous row: the copy, then the same plan
    r, k = launches(lambda: np.sort(g[::-1]))
    same_bits(r, numpy.sort(h[::-1], kind="stable"))
    assert k <= 2


# ---- partition -----------------------------------------------------------------------------
@pytest.mark.parametrize("dt", [numpy.float32, numpy.int8, numpy.bool_, numpy.float64],
                         ids=str)
def test_partition_kth_forms(tiny, dt):
    for n in (1, 2, ROW, ROW + 1):
        h = data(n, dt)
        g = np.asarray(h)
        for kth in [0, n - 1, -1, -n, n // 2, numpy.int64(n // 2), (0, n - 1), [n // 2]]:
            got = np.partition(g, kth).get()
            idx = np.argpartition(g, kth).get()
            ks = numpy.atleast_1d(numpy.asarray(kth))
            want = numpy.partition(h, kth)
            numpy.testing.assert_array_equal(got[ks], want[ks])
            numpy.testing.assert_array_equal(h[idx][ks], want[ks])
            # npgpu sorts the whole axis (stable)
            same_bits(np.asarray(got), numpy.sort(h, kind="stable"))
    h = data((4, ROW), numpy.float32)
    for axis in (-1, 0, None):
        got = np.partition(np.asarray(h), 1, axis=axis).get()
        numpy.testing.assert_array_equal(numpy.take(got, [1], axis=axis),
                                         numpy.take(numpy.partition(h, 1, axis=axis), [1],
                                                    axis=axis))


@pytest.mark.parametrize("kth, axis", [(5, -1), (-6, -1), (2 ** 63, -1), (True, -1),
                                       (1.0, -1), (0, 1), (0, 2.0), ([[0]], -1)])
def test_partition_errors_as_numpy(tiny, kth, axis):
    h = data(5, numpy.float32)
    g = np.asarray(h)
    for f, nf in ((np.partition, numpy.partition), (np.argpartition, numpy.argpartition)):
        with pytest.raises(Exception) as want:
            nf(h, kth, axis=axis)
        with pytest.raises(want.type) as got:
            f(g, kth, axis=axis)
        assert str(got.value) == str(want.value)


# ---- unique --------------------------------------------------------------------------------
RETURNS = [dict(), dict(return_counts=True), dict(return_index=True),
           dict(return_inverse=True),
           dict(return_index=True, return_inverse=True, return_counts=True)]


def check_unique(g, h, **kw):
    got, want = np.unique(g, **kw), numpy.unique(h, **kw)
    if not isinstance(want, tuple):
        got, want = (got,), (want,)
    assert len(got) == len(want)
    for a, b in zip(got, want):
        if b.dtype.kind in "fc":
            # NumPy keeps one NaN of a run (its payload is the first one sorted)
            numpy.testing.assert_array_equal(a.get(), b)
        else:
            same_bits(a, b)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_unique_around_tiles(tiny, dt):
    for n in (0, 1, 2, TILE - 1, TILE, TILE + 1, 2 * TILE + 1):
        h = data(n, dt)
        g = np.asarray(h)
        for kw in RETURNS:
            check_unique(g, h, **kw)
        check_unique(g, h, equal_nan=False, return_counts=True)


@pytest.mark.parametrize("n", [LOCAL - 1, LOCAL, LOCAL + 1])
def test_unique_around_local_tiles(tiny, n):
    """The groups summing the tile counts (up to LOCAL_TILES tiles) and the scan beyond."""
    h = RNG.integers(0, n // 3, n).astype(numpy.int32)
    g = np.asarray(h)
    for kw in (dict(return_counts=True), dict(return_index=True, return_inverse=True)):
        check_unique(g, h, **kw)
    check_unique(np.asarray(h.astype(numpy.float32)), h.astype(numpy.float32))


def test_unique_layouts_and_launches(tiny):
    h = data((3, 5), numpy.float32)
    g = np.asarray(h)
    for gv, hv in ((g, h), (g[:, ::-2], h[:, ::-2]), (g.T, h.T), (g[0], h[0])):
        for kw in RETURNS:
            check_unique(gv, hv, **kw)
    check_unique(np.asarray(numpy.float64(3.0)), numpy.float64(3.0), return_counts=True)
    x = np.asarray(data(TILE, numpy.float32))
    # one tile: one kernel sorts and encodes it (with the counts too) when tiny
    for kw in (dict(), dict(return_counts=True)):
        k = launches(lambda: np.unique(x, **kw))[1]
        assert k == 1 if tiny else k >= 4
    r = np.unique(x, return_counts=True)
    assert all(a.flags.c_contiguous and a.base is None for a in r)


def test_unique_values_of_its_own_after_the_call():
    """The shortened outputs own their memory: writing them changes nothing else, and a later
    call does not reuse it while they live."""
    h = numpy.array([3, 1, 3, 2, 1], numpy.int32)
    v, c = np.unique(np.asarray(h), return_counts=True)
    w, d = np.unique(np.asarray(h[::-1]), return_counts=True)
    v[0] = 7
    numpy.testing.assert_array_equal(v.get(), [7, 2, 3])
    numpy.testing.assert_array_equal(w.get(), [1, 2, 3])
    numpy.testing.assert_array_equal(c.get(), [2, 1, 2])
    numpy.testing.assert_array_equal(d.get(), [2, 1, 2])


def test_unique_gpu_variants_render():
    """The GPU's forms of the new run-length scatters (one tile with the counts, tile counts
    summed by the groups) rendered and recorded for CI's PTX check."""
    every = sets.OUTPUTS
    cases = [("i4", True, every), ("f4", True, ("values",)), ("f8", True, ("values", "starts")),
             ("c8", False, ("values", "inverse")), ("?", False, ("indices", "starts")),
             ("f2", True, every)]
    for dt, equal_nan, outs in cases:
        for offsets in ("single", "local"):
            ks = sets._render("scatter", numpy.dtype(dt), False, equal_nan, outs, block=256,
                              items=16, sim=False, offsets=offsets)
            assert "ballot_sync" in ks.source and "syncthreads" not in ks.source
            assert ("syncwarp" in ks.source) == (offsets == "single" and "starts" in outs)
            compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)


# ---- searchsorted --------------------------------------------------------------------------
@pytest.mark.parametrize("adt, vdt", [("f4", "f4"), ("i4", "f8"), ("u1", "i2"), ("?", "?"),
                                      ("f2", "f4"), ("i8", "u8"), ("c8", "f4"), ("f8", "c16")])
def test_searchsorted_dtypes_and_sides(tiny, adt, vdt):
    for n in (1, 2, 16, 17, 100):
        a = numpy.sort(data(n, adt))
        ga = np.asarray(a)
        for m in (1, 5, 16):
            v = data(m, vdt)
            for side in ("left", "right"):
                got = np.searchsorted(ga, np.asarray(v), side=side)
                same_bits(got, numpy.searchsorted(a, v, side=side))


def test_searchsorted_layouts(tiny):
    a = numpy.sort(data(40, numpy.float32))
    v = data((3, 4), numpy.float32)
    ga, gv = np.asarray(a), np.asarray(v)
    for av, ha in ((ga, a), (ga[::2], a[::2]), (ga[::-1][::-1], a)):
        for vv, hv in ((gv, v), (gv.T, v.T), (gv[:, ::-1], v[:, ::-1]), (gv[0, 0], v[0, 0]),
                       (gv[:0], v[:0])):
            same_bits(np.searchsorted(av, vv), numpy.searchsorted(ha, hv))
    srt = numpy.argsort(v.reshape(-1))
    same_bits(np.searchsorted(gv.reshape(-1), ga, sorter=np.asarray(srt)),
              numpy.searchsorted(v.reshape(-1), a, sorter=srt))
    q = np.asarray(data(8, numpy.float32))
    r, k = launches(lambda: np.searchsorted(ga, q))
    assert k == 1
    assert np.searchsorted(ga, q, side="right").shape == (8,)
    with pytest.raises(ValueError):
        np.searchsorted(ga, q, side="x")
    with pytest.raises(ValueError):
        np.searchsorted(np.asarray(v), q)
