"""Set routines against NumPy: unique (every return, axis, equal_nan), NumPy 2's unique_*,
isin (every kind, invert), intersect1d, union1d, setdiff1d, setxor1d -- random data with
duplicates, NaNs, +-0 and +-inf, every dtype, non-contiguous / negative-stride / broadcast /
0-d / empty inputs, and NumPy's errors."""
import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, assert_same, raises_like
from npgpu.sorting import sets

RNG = numpy.random.default_rng(1414)


def keys(shape, dt, pool=12, extremes=True):
    """Random values of ``dt`` drawn from a small pool (duplicates), with NaN, -0.0, +0.0 and
    +-inf among them for floats, NaN in either part for complex, the integer type's limits
    (``extremes``) for integers."""
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return RNG.random(shape) < 0.5
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        base = RNG.integers(max(info.min, -1000), min(info.max, 1000), size=pool,
                            endpoint=True, dtype=dt)
        if extremes:
            base[:2] = info.min, info.max
        return base[RNG.integers(0, pool, size=shape)]
    base = (RNG.standard_normal(pool) * 50).astype(dt)
    if dt.kind == "f":
        special = [numpy.nan, -0.0, 0.0, numpy.inf, -numpy.inf]
    else:
        special = [complex(numpy.nan, 1), complex(2, numpy.nan), complex(0, -0.0),
                   complex(-0.0, 0), complex(numpy.inf, -1), complex(3, numpy.inf)]
    k = min(len(special), pool - 1)            # a random value or more stays in the pool
    base[:k] = special[:k]
    if dt.kind == "c" and pool > k + 1:
        base[k] = base[k + 1].real + 1j * base[k].imag      # equal real parts, different imag
    return base[RNG.integers(0, pool, size=shape)]


def check(got, want):
    """Compare an npgpu result (array or tuple) with NumPy's."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        assert type(got).__name__ == type(want).__name__
        if hasattr(want, "_fields"):
            assert got._fields == want._fields
        for g, w in zip(got, want):
            check(g, w)
    else:
        assert_same(got, want)


# ---- unique ---------------------------------------------------------------------------------
RETURNS = [dict(), dict(return_index=True), dict(return_inverse=True), dict(return_counts=True),
           dict(return_index=True, return_inverse=True, return_counts=True)]


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("kw", RETURNS, ids=lambda k: "+".join(k) or "values")
def test_unique_every_dtype(dt, kw):
    h = keys((41,), dt)
    check(np.unique(np.asarray(h), **kw), numpy.unique(h, **kw))


INT_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


@pytest.mark.parametrize("dt", INT_DTYPES)
@pytest.mark.parametrize("spread", ["narrow", "negative", "full", "wide"])
@pytest.mark.parametrize("kw", [{}, {"return_counts": True},
                                {"return_index": True, "return_inverse": True}])
def test_unique_integers_by_bitmap(monkeypatch, dt, spread, kw):
    """Values alone of integers over a small range come from a bitmap of the range, not a sort
    (the range: the type's for 8 and 16 bits, else the data's): every dtype, ranges at zero,
    below it, over the whole type, too wide for the bitmap; other returns take the sort."""
    from npgpu.sorting import presence
    dt = numpy.dtype(dt)
    n = 3 * sets.RANGE_MIN + 5
    if dt.kind == "b":
        h = RNG.random(n) < 0.3
    else:
        info = numpy.iinfo(dt)
        lo, hi = {"narrow": (0, 40), "negative": (max(info.min, -60), max(info.min, -60) + 50),
                  "full": (info.min, info.max),
                  "wide": (info.min, info.max)}[spread]
        h = RNG.integers(lo, hi, size=n, endpoint=True, dtype=dt)
        if spread in ("full", "wide"):
            h[:2] = info.min, info.max
    monkeypatch.setattr(sets, "UNIQUE_BITMAP", True)
    monkeypatch.setattr(presence, "WIDE", False)
    bitmap = []
    real_bitmap = presence.present_values
    monkeypatch.setattr(presence, "present_values",
                        lambda *a: bitmap.append(a[1:]) or real_bitmap(*a))
    if spread == "wide":
        monkeypatch.setattr(presence, "MAX_SPAN", 40)
    a = np.asarray(h)[::-1]
    check(np.unique(a, **kw), numpy.unique(h[::-1], **kw))
    if dt.itemsize <= 2:
        info = numpy.iinfo(numpy.uint8 if dt.kind == "b" else dt)
        rlo, rhi = int(info.min), int(info.max)
    else:
        rlo, rhi = int(h.min()), int(h.max())
    assert bool(bitmap) == (not kw and rhi - rlo < presence.MAX_SPAN)
    if bitmap:
        assert bitmap == [(rlo, rhi - rlo + 1)]


@pytest.mark.parametrize("dt", ["i4", "u4", "i8", "u8"])
@pytest.mark.parametrize("per_element", [1, 3])
def test_unique_wide_bitmap(monkeypatch, dt, per_element):
    """A span past the shared-memory bitmap's marks the global bitmap directly (switched on):
    the same sorted values, a span of up to WIDE_PER_ELEMENT bits an element, and a wider one
    goes back to the sort."""
    from npgpu.sorting import presence
    monkeypatch.setattr(sets, "UNIQUE_BITMAP", True)
    monkeypatch.setattr(presence, "WIDE", True)
    monkeypatch.setattr(presence, "MAX_SPAN", 32)
    marks = []
    real_kernel = presence._kernel
    monkeypatch.setattr(presence, "_kernel", lambda w, d: marks.append(w) or real_kernel(w, d))
    n = 3 * sets.RANGE_MIN + 7
    lo = -70 if numpy.dtype(dt).kind == "i" else 2 ** 31 + 5
    span = per_element * n
    h = (lo + RNG.integers(0, span, size=n)).astype(dt)
    h[:2] = lo, lo + span - 1
    a = np.asarray(h)[::-1]
    check(np.unique(a), numpy.unique(h[::-1]))
    assert marks == ["mark_wide", "expand"]
    marks.clear()
    h[2] = lo - presence.WIDE_PER_ELEMENT * n         # now too wide for n elements
    check(np.unique(np.asarray(h)), numpy.unique(h))
    assert marks == []


@pytest.mark.parametrize("dt", ["f4", "f8", "f2", "c8", "c16"])
@pytest.mark.parametrize("equal_nan", [True, False])
def test_unique_equal_nan(dt, equal_nan):
    h = keys((45,), dt)
    kw = dict(return_index=True, return_inverse=True, return_counts=True, equal_nan=equal_nan)
    check(np.unique(np.asarray(h), **kw), numpy.unique(h, **kw))
    allnan = numpy.full(7, numpy.nan, dt)
    check(np.unique(np.asarray(allnan), equal_nan=equal_nan),
          numpy.unique(allnan, equal_nan=equal_nan))


@pytest.mark.parametrize("case", ["transposed", "negative", "broadcast", "zero_d", "empty",
                                  "empty_2d", "one", "all_same", "all_distinct", "long"])
def test_unique_layouts(case):
    kw = dict(return_index=True, return_inverse=True, return_counts=True)
    if case == "transposed":
        h = keys((6, 9), "i4")
        g, h = np.asarray(h).T[1:, ::2], h.T[1:, ::2]
    elif case == "negative":
        h = keys((30,), "f4")
        g, h = np.asarray(h)[::-3], h[::-3]
    elif case == "broadcast":
        h = keys((5,), "i2")
        g, h = np.broadcast_to(np.asarray(h), (4, 5)), numpy.broadcast_to(h, (4, 5))
    elif case == "zero_d":
        h = numpy.array(3.5, "f8")
        g = np.asarray(h)
    elif case == "empty":
        h = numpy.zeros(0, "i8")
        g = np.asarray(h)
    elif case == "empty_2d":
        h = numpy.zeros((3, 0), "f4")
        g = np.asarray(h)
    elif case == "one":
        h = numpy.array([7], "u1")
        g = np.asarray(h)
    elif case == "all_same":
        h = numpy.full(23, -4, "i4")
        g = np.asarray(h)
    elif case == "all_distinct":
        h = RNG.permutation(29).astype("i8")
        g = np.asarray(h)
    else:            # many tiles, runs crossing tile and thread boundaries
        h = numpy.repeat(RNG.integers(0, 40, size=15), RNG.integers(1, 20, size=15)).astype("i4")
        g = np.asarray(h)
    check(np.unique(g), numpy.unique(h))
    check(np.unique(g, **kw), numpy.unique(h, **kw))


def test_unique_host_input_and_sorted_flag():
    h = [3, 1, 2, 3, 1]
    check(np.unique(h), numpy.unique(h))
    check(np.unique(np.asarray(h), sorted=False), numpy.sort(numpy.unique(h, sorted=False)))


@pytest.mark.parametrize("dt", ["i4", "f8", "b1", "c8"])
@pytest.mark.parametrize("shape,axis", [((9, 3), 0), ((4, 10), 1), ((4, 10), -1),
                                        ((3, 8, 2), 1), ((6, 2, 3), 0), ((5,), 0)])
def test_unique_axis(dt, shape, axis):
    h = keys(shape, dt, pool=3)            # few values: many duplicate rows
    kw = dict(return_index=True, return_inverse=True, return_counts=True)
    check(np.unique(np.asarray(h), axis=axis), numpy.unique(h, axis=axis))
    check(np.unique(np.asarray(h), axis=axis, **kw), numpy.unique(h, axis=axis, **kw))


@pytest.mark.parametrize("shape,axis", [((0, 3), 0), ((3, 0), 0), ((3, 0), 1), ((0, 3), 1)])
def test_unique_axis_empty(shape, axis):
    h = numpy.zeros(shape, "f4")
    kw = dict(return_index=True, return_inverse=True, return_counts=True)
    check(np.unique(np.asarray(h), axis=axis, **kw), numpy.unique(h, axis=axis, **kw))


def test_unique_axis_nan_rows_and_strided():
    h = numpy.array([[numpy.nan, 1], [numpy.nan, 1], [0.0, 2], [-0.0, 2], [1, numpy.inf]])
    check(np.unique(np.asarray(h), axis=0, return_counts=True),
          numpy.unique(h, axis=0, return_counts=True))
    h = keys((7, 12), "i8", pool=2)
    g = np.asarray(h)[::-1, ::3]
    check(np.unique(g, axis=1, return_inverse=True), numpy.unique(h[::-1, ::3], axis=1,
                                                                  return_inverse=True))


def test_unique_errors():
    h = numpy.arange(6).reshape(2, 3)
    g = np.asarray(h)
    raises_like(lambda: numpy.unique(h, axis=2), lambda: np.unique(g, axis=2))
    raises_like(lambda: numpy.unique(h, axis=-3), lambda: np.unique(g, axis=-3))
    raises_like(lambda: numpy.unique(h[0], axis=1), lambda: np.unique(g[0], axis=1))
    raises_like(lambda: numpy.unique(h[0, 0], axis=0), lambda: np.unique(g[0, 0], axis=0))


@pytest.mark.parametrize("dt", ["i4", "f4", "c16", "b1"])
def test_unique_array_api_functions(dt):
    h = keys((4, 9), dt)
    g = np.asarray(h)
    # NumPy may return unique_values unsorted (a hash table); npgpu's are sorted
    check(np.unique_values(g), numpy.sort(numpy.unique_values(h)))
    for name in ("unique_counts", "unique_all"):
        check(getattr(np, name)(g), getattr(numpy, name)(h))
    # NumPy's unique_inverse sorts unstably: which NaN run an NaN maps to is NumPy's accident;
    # the values, the inverse of every other element, and the reconstruction are exact
    got, want = np.unique_inverse(g), numpy.unique_inverse(h)
    assert type(got).__name__ == "UniqueInverseResult" and got._fields == want._fields
    check(got.values, want.values)
    inv = got.inverse_indices.get()
    nan = numpy.isnan(h)
    assert_same(inv[~nan], want.inverse_indices[~nan])
    assert_same(want.values[inv], h)


def test_runs_primitive_rows_and_keys():
    """runs() on sorted keys directly: what the other set functions build on."""
    h = numpy.sort(keys((50,), "f8"))
    perm = numpy.arange(50, dtype=numpy.int64)
    r = sets.runs(np.asarray(h), np.asarray(perm), equal_nan=True, indices=True, inverse=True,
                  counts=True)
    v, i, inv, c = numpy.unique(h, return_index=True, return_inverse=True, return_counts=True)
    for got, want in zip(r, (v, i, inv, c)):
        assert_same(got, want)


# ---- isin -----------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt,kind", [(dt, kind) for kind in (None, "sort", "table")
                                     for dt in ALL_DTYPES
                                     if kind != "table" or dt.kind not in "fc"], ids=str)
def test_isin_every_dtype(dt, kind):
    # (kind="table" of floats is an error: test_isin_errors)
    x = keys((5, 7), dt, pool=20)
    t = keys((11,), dt, pool=20, extremes=kind != "table")
    if kind == "table" and t.dtype.kind == "i":
        t //= 2                                   # a range that fits the dtype (else an error)
    for invert in (False, True):
        check(np.isin(np.asarray(x), np.asarray(t), invert=invert, kind=kind),
              numpy.isin(x, t, invert=invert, kind=kind))


@pytest.mark.parametrize("kind", [None, "sort", "table"])
def test_isin_mixed_and_layouts(kind):
    x = keys((6, 8), "i2", pool=30)
    t = keys((4, 5), "i8", pool=30, extremes=kind != "table")
    gx, gt = np.asarray(x), np.asarray(t)
    check(np.isin(gx.T[::-1], gt[:, ::2], kind=kind), numpy.isin(x.T[::-1], t[:, ::2], kind=kind))
    check(np.isin(gx, t.tolist(), kind=kind), numpy.isin(x, t.tolist(), kind=kind))
    check(np.isin(np.asarray(x[0, 0]), gt, kind=kind), numpy.isin(x[0, 0], t, kind=kind))
    e = numpy.zeros((0,), "i8")
    check(np.isin(gx, np.asarray(e), kind=kind), numpy.isin(x, e, kind=kind))
    check(np.isin(np.asarray(e), gt, invert=True, kind=kind),
          numpy.isin(e, t, invert=True, kind=kind))
    b = RNG.random(9) < 0.5                       # bool against ints
    check(np.isin(np.asarray(b), np.asarray([1, 5]), kind=kind), numpy.isin(b, [1, 5], kind=kind))
    if kind != "table":
        big = numpy.array([-(2 ** 40), 3, 2 ** 40], "i8")     # too wide for kind=None's table
        check(np.isin(gx, np.asarray(big), kind=kind), numpy.isin(x, big, kind=kind))
        f = keys((13,), "f4")
        check(np.isin(gx, np.asarray(f), kind=kind), numpy.isin(x, f, kind=kind))
        check(np.isin(np.asarray(f), np.asarray(f[::2]), kind=kind),
              numpy.isin(f, f[::2], kind=kind))


def test_isin_errors():
    x, t = numpy.arange(4.0), numpy.arange(3.0)
    gx, gt = np.asarray(x), np.asarray(t)
    raises_like(lambda: numpy.isin(x, t, kind="bad"), lambda: np.isin(gx, gt, kind="bad"))
    raises_like(lambda: numpy.isin(x, t, kind="table"), lambda: np.isin(gx, gt, kind="table"))
    wide = numpy.array([-(2 ** 63), 2 ** 63 - 1])          # range past int64: no table
    raises_like(lambda: numpy.isin(wide, wide, kind="table"),
                lambda: np.isin(np.asarray(wide), np.asarray(wide), kind="table"))


# ---- two-array functions ---------------------------------------------------------------------
PAIR_DTYPES = ["i4", "u8", "f8", "c8", "b1", "f2"]


@pytest.mark.parametrize("dt", PAIR_DTYPES)
def test_union_setdiff_setxor(dt):
    a, b = keys((5, 6), dt), keys((17,), dt)
    ga, gb = np.asarray(a), np.asarray(b)
    check(np.union1d(ga, gb), numpy.union1d(a, b))
    check(np.setdiff1d(ga, gb), numpy.setdiff1d(a, b))
    check(np.setxor1d(ga, gb), numpy.setxor1d(a, b))
    ua, ub = numpy.unique(a), numpy.unique(b)
    gua, gub = np.asarray(ua[::-1]), np.asarray(ub)
    check(np.setdiff1d(gua, gub, assume_unique=True), numpy.setdiff1d(ua[::-1], ub, True))
    check(np.setxor1d(np.asarray(ua), gub, assume_unique=True), numpy.setxor1d(ua, ub, True))


@pytest.mark.parametrize("dt", PAIR_DTYPES)
def test_intersect1d(dt):
    a, b = keys((4, 7), dt), keys((3, 5), dt)
    ga, gb = np.asarray(a), np.asarray(b)
    check(np.intersect1d(ga, gb), numpy.intersect1d(a, b))
    check(np.intersect1d(ga.T, gb, return_indices=True),
          numpy.intersect1d(a.T, b, return_indices=True))
    ua, ub = numpy.unique(a), numpy.unique(b)
    check(np.intersect1d(np.asarray(ua), np.asarray(ub), assume_unique=True,
                         return_indices=True),
          numpy.intersect1d(ua, ub, assume_unique=True, return_indices=True))


def test_pairs_empty_and_mixed():
    e = numpy.zeros(0, "f4")
    a = keys((9,), "i4")
    ge, ga = np.asarray(e), np.asarray(a)
    for name in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
        check(getattr(np, name)(ge, ge), getattr(numpy, name)(e, e))
        check(getattr(np, name)(ga, ge), getattr(numpy, name)(a, e))
        check(getattr(np, name)(ge, ga), getattr(numpy, name)(e, a))
    b = keys((8,), "f8")
    check(np.union1d(ga, np.asarray(b)), numpy.union1d(a, b))
    check(np.intersect1d([1, 2, 3, 2], [2, 3, 4], return_indices=True),
          numpy.intersect1d([1, 2, 3, 2], [2, 3, 4], return_indices=True))


def test_numpy_functions_dispatch():
    """numpy.unique(npgpu array) & co. run npgpu's (``__array_function__``)."""
    h = keys((30,), "i4")
    g = np.asarray(h)
    got = numpy.unique(g, return_counts=True)
    assert isinstance(got[0], np.ndarray)
    check(got, numpy.unique(h, return_counts=True))
    check(numpy.unique_all(g), numpy.unique_all(h))
    check(numpy.isin(g, np.asarray(h[:5])), numpy.isin(h, h[:5]))
    check(numpy.setxor1d(g, np.asarray(h[::2] + 1)), numpy.setxor1d(h, h[::2] + 1))


def test_run_length_gpu_variants_render():
    """The GPU's warp-tiled forms of the run-length kernels (the simulator runs the block-wide
    form): rendered and recorded for CI's PTX check -- 1-d keys of each kind with every output,
    equal_nan floats and complex, float16, and rows."""
    from npgpu._codegen import compiler
    every = sets.OUTPUTS
    cases = [("i4", False, True, every), ("f8", False, True, ("values", "inverse")),
             ("c8", False, True, ("values", "starts")), ("f2", False, False, ("values",)),
             ("?", False, False, ("indices",)), ("u2", True, False, every)]
    for dt, rows, equal_nan, outs in cases:
        for mode in ("count", "scatter"):
            ks = sets._render(mode, numpy.dtype(dt), rows, equal_nan,
                              () if mode == "count" else outs, block=256, items=16, sim=False)
            assert ("shfl_xor_sync" if mode == "count" else "ballot_sync") in ks.source
            assert "syncthreads" not in ks.source
            assert ("a15 = S[j15]" in ks.source) == (not rows)
            compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
