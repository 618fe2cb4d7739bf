"""The one-kernel paths of tiny sorting-family calls (issue 14): ``unique`` of up to one block's
tile, sorted and run-length encoded by one kernel (``sorting/unique_block.py``), and
``searchsorted``'s direct entry into its cached plan -- against NumPy, and bit for bit against
the general path (the ``TINY`` switches off): random data with NaN (several payloads), +-0,
+-inf and duplicates, every real dtype, every output of unique, both sides, sorter, N-d,
non-contiguous, 0-d and empty operands; the GPU forms recorded for CI's PTX check."""
import itertools
import re

import numpy
import pytest

import npgpu as np
from conftest import raises_like
from npgpu._codegen import compiler
from npgpu._codegen.stats import stats
from npgpu._core import transfer
from npgpu.sorting import functions as _f
from npgpu.sorting import searching as _search
from npgpu.sorting import segmented as _seg
from npgpu.sorting import sets
from npgpu.sorting import unique_block

REAL = [numpy.dtype(t) for t in (numpy.bool_, numpy.int8, numpy.int16, numpy.int32,
                                 numpy.int64, numpy.uint8, numpy.uint16, numpy.uint32,
                                 numpy.uint64, numpy.float16, numpy.float32, numpy.float64)]
SEEDS = itertools.count(1400)
# the most keys the one-block kernel takes (simulator 16, GPU 2048) and sizes around it
ROW = _seg.max_row(8, 8)
SIZES = [1, 2, 3, ROW - 1, ROW, ROW + 1]
# every combination of unique's outputs
FLAGS = [dict(zip(("return_index", "return_inverse", "return_counts"), f))
         for f in itertools.product((False, True), repeat=3)]


def data(shape, dt):
    """Random values of ``dt`` with duplicates; floats with NaN of three payloads (one
    negative), +-0 and +-inf among them."""
    rng = numpy.random.default_rng(next(SEEDS))
    dt = numpy.dtype(dt)
    n = int(numpy.prod(shape, dtype=numpy.int64))
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        pool = numpy.array([info.min, info.max, 0, 1, 2, info.max - 1, info.min + 1], dt)
        pool = numpy.concatenate([pool, rng.integers(max(info.min, -9), min(info.max, 9), 4,
                                                     endpoint=True).astype(dt)])
        return pool[rng.integers(0, pool.size, n)].reshape(shape)
    u = numpy.dtype(f"u{dt.itemsize}")
    nans = [numpy.array(numpy.nan, dt).view(u), numpy.array(-numpy.nan, dt).view(u),
            numpy.array(numpy.nan, dt).view(u) | u.type(1)]
    pool = numpy.array([0.0, -0.0, numpy.inf, -numpy.inf, 1.5, -2.0, 3.0], dt)
    pool = numpy.concatenate([pool, numpy.array(nans, u).view(dt)])
    return pool[rng.integers(0, pool.size, n)].reshape(shape)


@pytest.fixture(autouse=True)
def block_unique_on(monkeypatch):
    """The one-kernel unique under test on every backend (the GPU's default is off until a
    GPU run has checked it)."""
    from npgpu.sorting import unique_block
    monkeypatch.setattr(unique_block, "ENABLED", True)


@pytest.fixture
def paths(monkeypatch):
    """``paths(f)``: ``f()`` with the tiny paths on, then off (the general path)."""
    def run(f):
        out = []
        for on in (True, False):
            for mod in (_f, sets, _search):
                monkeypatch.setattr(mod, "TINY", on)
            out.append(f())
        for mod in (_f, sets, _search):
            monkeypatch.setattr(mod, "TINY", True)
        return out
    return run


def bits(x):
    """Host copy of ``x`` as comparable bits (floats as unsigned words)."""
    h = numpy.ascontiguousarray(x.get() if isinstance(x, np.ndarray) else x)
    return h.view(f"u{h.itemsize}") if h.dtype.kind == "f" else h


def same_bits(got, want):
    g, w = bits(got), bits(want)
    assert got.dtype == want.dtype and g.shape == w.shape, (got.dtype, g.shape, w.shape)
    numpy.testing.assert_array_equal(g, w)


def as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


def check_unique(paths, g, h, **kw):
    """Tiny path = general path bit for bit; both = NumPy (NaN runs: NumPy keeps one NaN, its
    payload whichever it sorted first); the one-block path's outputs are arrays of their own."""
    fast, ref = paths(lambda: as_tuple(np.unique(g, **kw)))
    want = as_tuple(numpy.unique(h, **kw))
    assert len(fast) == len(ref) == len(want)
    # NaNs kept apart: NumPy's unstable sort may number them in another order than the
    # stable one; the inverse is compared by the values it gives back
    nan_order = not kw.get("equal_nan", True) and kw.get("return_inverse")
    one_block = (0 < g.size <= ROW and g.flags.c_contiguous
                 and all(v.__class__ is bool for v in kw.values()))
    for k, (a, b, c) in enumerate(zip(fast, ref, want)):
        same_bits(a, b)
        assert a.dtype == c.dtype and a.shape == c.shape, (a.dtype, a.shape, c.shape)
        if nan_order and k == 1 + bool(kw.get("return_index")):
            numpy.testing.assert_array_equal(fast[0].get()[a.get()], h)
        else:
            numpy.testing.assert_array_equal(a.get(), c)
        assert a.flags.c_contiguous and (a.base is None or not one_block)
    return fast


def counted(f):
    l0, d0 = stats["launches"], transfer.d2h_count
    r = f()
    return r, stats["launches"] - l0, transfer.d2h_count - d0


# ---- unique ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", REAL, ids=str)
def test_unique_every_output(paths, dt):
    for n in SIZES:
        h = data(n, dt)
        g = np.asarray(h)
        for kw in FLAGS:
            check_unique(paths, g, h, **kw)
        if dt.kind == "f":
            check_unique(paths, g, h, equal_nan=False, return_counts=True, return_inverse=True)
            check_unique(paths, g, h, equal_nan=False)


@pytest.mark.parametrize("dt", [numpy.float32, numpy.int16, numpy.bool_, numpy.float16],
                         ids=str)
def test_unique_one_launch_one_read(dt):
    """Up to ROW keys: one launch and one 8-byte read whatever the outputs; past ROW the
    general path (a sort, then the run-length kernels)."""
    for n in (1, ROW):
        g = np.asarray(data(n, dt))
        for kw in FLAGS:
            _, launches, reads = counted(lambda: np.unique(g, **kw))
            assert (launches, reads) == (1, 1), kw
    g = np.asarray(data(ROW + 1, dt))
    assert counted(lambda: np.unique(g, return_counts=True))[1] >= 2


def test_unique_layouts(paths):
    """N-d C-contiguous input read where it lies (inverse of its shape), non-contiguous and
    negative-stride views copied first, 0-d and empty inputs, non-bool flags."""
    side = max(2, int(ROW ** 0.5))
    h = data((side, ROW // side), numpy.float32)
    g = np.asarray(h)
    views = [(g, h), (g.T, h.T), (g[::-1, ::2], h[::-1, ::2]), (g[0], h[0]),
             (g[:, :1], h[:, :1]), (g[:0], h[:0]), (g.reshape(1, 1, -1), h.reshape(1, 1, -1))]
    for gv, hv in views:
        for kw in FLAGS:
            check_unique(paths, gv, hv, **kw)
    for dt in (numpy.float64, numpy.int8, numpy.bool_):
        h0 = data((), dt)
        check_unique(paths, np.asarray(h0), h0, return_index=True, return_inverse=True,
                     return_counts=True)
    check_unique(paths, g, h, return_counts=numpy.True_, return_index=1)
    check_unique(paths, g, h, return_inverse=True, equal_nan=numpy.False_)
    check_unique(paths, g, h, return_inverse=True, sorted=False)
    assert counted(lambda: np.unique(g, axis=0))[1] > 1        # rows: not this path


def test_unique_array_api_variants(paths):
    h = data(ROW - 3, numpy.float32)
    g = np.asarray(h)
    for name in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
        fast, ref = paths(lambda: as_tuple(getattr(np, name)(g)))
        want = as_tuple(getattr(numpy, name)(h))
        for a, b, c in zip(fast, ref, want):
            same_bits(a, b)
            # (NumPy keeps NaNs apart here: equal_nan=False; values may come in any order)
            numpy.testing.assert_array_equal(numpy.sort(a.get(), axis=None),
                                             numpy.sort(numpy.asarray(c), axis=None))


def test_unique_outputs_own_their_memory():
    """The shortened outputs share one allocation, each its own part: writing one changes no
    other, and a later call leaves them as they were."""
    h = numpy.array([3, 1, 3, 2, 1, 3], numpy.int32)
    v, i, inv, c = np.unique(np.asarray(h), return_index=True, return_inverse=True,
                             return_counts=True)
    v[0] = 7
    i[:] = -1
    w, d = np.unique(np.asarray(h[::-1].copy()), return_counts=True)
    numpy.testing.assert_array_equal(v.get(), [7, 2, 3])
    numpy.testing.assert_array_equal(i.get(), [-1, -1, -1])
    numpy.testing.assert_array_equal(inv.get(), [2, 0, 2, 1, 0, 2])
    numpy.testing.assert_array_equal(c.get(), [2, 1, 3])
    numpy.testing.assert_array_equal(w.get(), [1, 2, 3])
    numpy.testing.assert_array_equal(d.get(), [2, 1, 3])
    inv.resize(8)
    numpy.testing.assert_array_equal(inv.get(), [2, 0, 2, 1, 0, 2, 0, 0])
    numpy.testing.assert_array_equal(c.get(), [2, 1, 3])


def test_unique_set_functions_on_tiny_inputs(paths):
    a, b = data(ROW - 1, numpy.float64), data(5, numpy.float64)
    ga, gb = np.asarray(a), np.asarray(b)
    for name in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
        fast, ref = paths(lambda: getattr(np, name)(ga, gb))
        same_bits(fast, ref)
        numpy.testing.assert_array_equal(fast.get(), getattr(numpy, name)(a, b))


def test_unique_gpu_variants_render():
    """The GPU's forms of the one-block kernel (warp ranks in the sort, the shared scan of the
    run counts) recorded for CI's PTX check; their static shared memory fits 48 KiB."""
    sizes = {"uint8": 1, "uint16": 2, "int32": 4, "uint32": 4, "uint64": 8, "int64": 8}
    for ks in unique_block.gpu_variants():
        assert "ballot_sync" in ks.source and "syncthreads" in ks.source
        shared = sum(int(n) * sizes[t] for n, t in
                     re.findall(r"cuda\.shared\.array\((\d+), (\w+)\)", ks.source))
        assert shared <= 48 * 1024, (ks.name, shared)
        compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)


# ---- searchsorted ---------------------------------------------------------------------------
PAIRS = [("f4", "f4"), ("f2", "f2"), ("f2", "f8"), ("?", "?"), ("?", "i1"), ("i8", "i8"),
         ("u2", "i4"), ("u8", "u8"), ("i1", "f4"), ("f8", "f8"), ("u4", "f2")]


@pytest.mark.parametrize("adt, vdt", PAIRS, ids=str)
def test_searchsorted_sides_and_shapes(paths, adt, vdt):
    for n in (1, 3, 40):
        a = numpy.sort(data(n, adt), kind="stable")
        ga = np.asarray(a)
        for shape in ((1,), (7,), (2, 3), (), (0,), (2, 0)):
            v = data(shape, vdt)
            gv = np.asarray(v)
            for side in ("left", "right"):
                fast, ref = paths(lambda: np.searchsorted(ga, gv, side=side))
                same_bits(fast, ref)
                same_bits(fast, numpy.searchsorted(a, v, side=side))


def test_searchsorted_layouts_sorter_and_launches(paths):
    a = data(30, numpy.float32)
    srt = numpy.argsort(a, kind="stable")
    s = numpy.sort(a, kind="stable")
    v = data((4, 6), numpy.float32)
    ga, gs, gv = np.asarray(a), np.asarray(s), np.asarray(v)
    cases = [(gs, gv, s, v, {}), (gs[::2], gv, s[::2], v, {}), (gs, gv.T, s, v.T, {}),
             (gs, gv[:, ::-1], s, v[:, ::-1], {}), (gs[::-1][::-1], gv[1], s, v[1], {}),
             (ga, gv, a, v, dict(sorter=srt)), (ga, gv, a, v, dict(sorter=np.asarray(srt)))]
    for x, q, hx, hq, kw in cases:
        for side in ("left", "right"):
            fast, ref = paths(lambda: np.searchsorted(x, q, side=side, **kw))
            same_bits(fast, ref)
            same_bits(fast, numpy.searchsorted(hx, hq, side=side, **kw))
    for q in (gv, gv[0], gv[0, 0]):
        r, launches, reads = counted(lambda: np.searchsorted(gs, q, side="right"))
        assert (launches, reads) == (1, 0)
    # host queries and Python scalars: the general path, NumPy's results
    for q in (v, 0.5, [1, 2], 2 ** 70):
        same_bits(np.searchsorted(gs, q), numpy.searchsorted(s, q))


@pytest.mark.parametrize("side", ["x", "", "LEFT", "r", None, 3, b"right", b"q"])
def test_searchsorted_sides_as_numpy(side):
    s = numpy.sort(data(9, numpy.float32))
    v = data(4, numpy.float32)
    try:
        want = numpy.searchsorted(s, v, side=side)
    except Exception:           # noqa: BLE001 - the class and message are compared
        raises_like(lambda: numpy.searchsorted(s, v, side=side),
                    lambda: np.searchsorted(np.asarray(s), np.asarray(v), side=side))
        return
    same_bits(np.searchsorted(np.asarray(s), np.asarray(v), side=side), want)


def test_digitize_through_the_plan(paths):
    x = data((3, 5), numpy.float64)
    for bins in (numpy.array([-1.0, 0.0, 0.0, 2.0, numpy.inf]),
                 numpy.array([3.0, 1.0, 1.0, -numpy.inf])):
        for right in (False, True):
            fast, ref = paths(lambda: np.digitize(np.asarray(x), np.asarray(bins), right))
            same_bits(fast, ref)
            same_bits(fast, numpy.digitize(x, bins, right))
