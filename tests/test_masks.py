"""Boolean masks and compaction: a[mask], a[mask] = v, nonzero, argwhere, flatnonzero, compress,
extract, place, putmask -- against NumPy on random data, every dtype and layout, NumPy's errors."""
import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, assert_same, full_range_random, raises_like
from npgpu._codegen.stats import stats
from npgpu._core import transfer as _transfer
from npgpu.indexing import compaction, masks

RNG = numpy.random.default_rng(1313)


def rand(shape, dt):
    return full_range_random(shape, dt, RNG, int_limit=100)


def rmask(shape, p=0.5):
    return RNG.random(shape) < p


def _with_zeros(h):
    """Random data with about half the elements zero (and -0.0 / NaN for floats)."""
    h = h.copy()
    z = rmask(h.shape)
    h[z] = 0
    if h.dtype.kind in "fc" and h.size > 3:
        flat = h.reshape(-1)
        flat[1] = -0.0
        flat[2] = numpy.nan
    if h.dtype.kind == "c" and h.size > 4:
        h.reshape(-1)[3] = 1j                        # real part zero: still non-zero
    return h


# ---- a[mask] ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_mask_select_every_dtype(dt):
    h = rand((5, 7), dt)
    m = rmask(h.shape)
    g, gm = np.asarray(h), np.asarray(m)
    assert_same(masks.mask_select(g, gm), h[m])
    assert_same(g[gm], h[m])                                    # through the operator
    # non-contiguous, negative-stride data; the mask a comparison on a transposed array
    ht = h.T[::-1]
    mt = rand((5, 7), "f4")
    assert_same(masks.mask_select(g.T[::-1], np.asarray(mt).T[::-1] > 0), ht[mt.T[::-1] > 0])


@pytest.mark.parametrize("case", ["contig", "negative", "transposed", "strided_mask", "all_false",
                                  "all_true", "empty", "empty_mask_axis", "zero_d_true",
                                  "zero_d_false", "rows", "rows_3d", "zero_d_mask_2d",
                                  "one_element"])
def test_mask_select_layouts(case):
    h = rand((6, 8), "f4")
    m = rmask(h.shape)
    g = None
    if case == "negative":
        base = rand((6, 16), "f4")
        g, h = np.asarray(base)[::-1, ::-2], base[::-1, ::-2]
        m = rmask(h.shape)
    elif case == "transposed":
        h = h.T
        m = rmask(h.shape)
    elif case == "strided_mask":
        big = rmask((12, 16))
        g, gm = np.asarray(h), np.asarray(big)[::2, ::-2]
        assert_same(masks.mask_select(g, gm), h[big[::2, ::-2]])
        return
    elif case == "all_false":
        m = numpy.zeros(h.shape, bool)
    elif case == "all_true":
        m = numpy.ones(h.shape, bool)
    elif case == "empty":
        h, m = rand((0, 5), "f4"), numpy.zeros((0, 5), bool)
    elif case == "empty_mask_axis":
        h, m = rand((4, 0), "f4"), rmask((4,))
    elif case in ("zero_d_true", "zero_d_false"):
        h, m = rand((), "f8"), numpy.array(case == "zero_d_true")
    elif case == "rows":
        m = rmask((6,))
    elif case == "rows_3d":
        h = rand((4, 3, 5), "i4")
        m = rmask((4, 3))
    elif case == "zero_d_mask_2d":
        m = numpy.array(True)
    elif case == "one_element":
        h, m = rand((1,), "c8"), numpy.array([True])
    if g is None:
        g = np.asarray(h)
    assert_same(masks.mask_select(g, np.asarray(m)), h[m])
    assert_same(g[np.asarray(m)], h[m])


def test_mask_select_operator_comparisons():
    h = rand((9, 10), "i8")
    g = np.asarray(h)
    assert_same(g[g > 5], h[h > 5])
    assert_same(g[(g > 5) & (g < 50)], h[(h > 5) & (h < 50)])
    assert_same(g.T[g.T > 0], h.T[h.T > 0])
    assert_same(g[g[:, 0] > 0], h[h[:, 0] > 0])                # a row mask
    # assignment through the operator: scalar, count values, broadcast row
    want = h.copy()
    want[want > 5] = -1
    g[g > 5] = -1
    assert_same(g, want)
    n = int((want < 0).sum())
    v = rand((n,), "i8")
    want[want < 0] = v
    g[g < 0] = np.asarray(v)
    assert_same(g, want)
    rows = h[:, 1] > 0
    want[rows] = numpy.arange(10)
    g[np.asarray(rows)] = numpy.arange(10)
    assert_same(g, want)


def test_mask_select_errors():
    h = rand((3, 4), "f4")
    g = np.asarray(h)
    for m in (numpy.ones(4, bool), numpy.ones((3, 3), bool), numpy.ones((2, 4), bool)):
        raises_like(lambda: h[m], lambda: masks.mask_select(g, np.asarray(m)))
        raises_like(lambda: h[m], lambda: g[np.asarray(m)])
    m3 = numpy.ones((3, 4, 2), bool)
    raises_like(lambda: h[m3], lambda: masks.mask_select(g, np.asarray(m3)))
    with pytest.raises(IndexError, match="integer \\(or boolean\\)"):
        masks.mask_select(g, np.asarray(h))


# ---- a[mask] = value ----------------------------------------------------------------------------
def _set_both(h, m, v, vg=None, op=False):
    want = h.copy()
    want[m] = v
    g = np.asarray(h)
    if op:
        g[np.asarray(m)] = v if vg is None else vg
    else:
        masks.mask_setitem(g, np.asarray(m), v if vg is None else vg)
    assert_same(g, want)


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_mask_setitem_every_dtype(dt):
    h = rand((5, 6), dt)
    m = rmask(h.shape)
    v = rand((int(m.sum()),), dt)
    s = rand((), dt)[()]
    _set_both(h, m, s)                                          # scalar: no scan
    _set_both(h, m, v, np.asarray(v))                           # exactly count values
    _set_both(h, m, v[:1], np.asarray(v[:1]))                   # one value broadcast
    rows = rmask((5,))
    rv = rand((6,), dt)
    _set_both(h, rows, rv, np.asarray(rv))                      # row mask, broadcast row
    # operator route (whatever advanced.setitem does with a mask, NumPy's result)
    _set_both(h, m, s, op=True)


@pytest.mark.parametrize("case", ["negative_dst", "transposed_dst", "strided_value", "cast",
                                  "host_list", "host_array", "complex_into_real", "all_false",
                                  "zero_d", "zero_d_mask_2d", "prefix_2d_value", "empty",
                                  "overlap"])
def test_mask_setitem_layouts(case):
    h = rand((6, 8), "f8")
    m = rmask(h.shape)
    n = int(m.sum())
    if case == "negative_dst":
        base = rand((6, 16), "f8")
        g = np.asarray(base)[::-1, ::-2]
        want = base[::-1, ::-2].copy()
        v = rand((n,), "f8")
        want[m] = v
        masks.mask_setitem(g, np.asarray(m), np.asarray(v))
        assert_same(g, want)
        return
    if case == "transposed_dst":
        base = rand((8, 6), "f4")
        g = np.asarray(base).T
        want = base.T.copy()
        want[m] = 7.5
        masks.mask_setitem(g, np.asarray(m), 7.5)
        assert_same(g, want)
        return
    if case == "strided_value":
        v = rand((2 * n,), "f8")
        _set_both(h, m, v[::-2], np.asarray(v)[::-2])
    elif case == "cast":
        v = rand((n,), "f4")
        _set_both(h.astype("i4"), m, v.astype("i4"), np.asarray(v).astype("i4"))
        hi = rand((6, 8), "i2")
        _set_both(hi, m, numpy.float64(3.75))                  # NumPy truncates on assignment
        vi = rand((n,), "i8")
        _set_both(h, m, vi, np.asarray(vi))                    # int64 values into float64
    elif case == "host_list":
        v = rand((n,), "f8")
        _set_both(h, m, list(v))
    elif case == "host_array":
        v = rand((n,), "f4")
        _set_both(h, m, v)
    elif case == "complex_into_real":
        raises_like(lambda: h.copy().__setitem__(m, 1 + 2j),
                    lambda: masks.mask_setitem(np.asarray(h), np.asarray(m), 1 + 2j))
    elif case == "all_false":
        z = numpy.zeros(h.shape, bool)
        _set_both(h, z, 1.0)
        _set_both(h, z, numpy.ones(0), np.asarray(numpy.ones(0)))
    elif case == "zero_d":
        h0 = rand((), "i4")
        _set_both(h0, numpy.array(True), 9)
        _set_both(h0, numpy.array(False), 9)
        _set_both(h0, numpy.array(True), numpy.array([4], "i4"), np.asarray(numpy.array([4], "i4")))
    elif case == "zero_d_mask_2d":
        v = rand((8,), "f8")
        _set_both(h, numpy.array(True), v, np.asarray(v))
        _set_both(h, numpy.array(False), v, np.asarray(v))
    elif case == "prefix_2d_value":
        h3 = rand((4, 3, 5), "f4")
        rows = rmask((4,))
        v = rand((3, 1), "f4")
        _set_both(h3, rows, v, np.asarray(v))
        v2 = rand((int(rows.sum()), 3, 5), "f4")
        _set_both(h3, rows, v2, np.asarray(v2))
    elif case == "empty":
        e = rand((0, 3), "f4")
        _set_both(e, numpy.zeros((0, 3), bool), 1.0)
    elif case == "overlap":
        # the values are a view of the destination: read before written
        want = h.copy()
        want[m] = h.reshape(-1)[:n]
        g = np.asarray(h)
        masks.mask_setitem(g, np.asarray(m), g.reshape(-1)[:n])
        assert_same(g, want)


@pytest.mark.parametrize("dt", ["f4", "i2", "c8"])
def test_mask_of_leading_axes_with_one_value_a_row_reads_no_count(monkeypatch, dt):
    """A value that is the same for every selected row (shape of the trailing axes, leading
    unit axes, a size-1 value) is one masked copy: the mask's count is never read."""
    from npgpu.indexing import compaction
    real = compaction.rank
    monkeypatch.setattr(compaction, "rank", lambda *a, **k: pytest.fail("count read"))
    base = rand((5, 4, 6), dt)
    rows, plane = rmask((5,)), rmask((5, 4))
    for m, v in [(rows, rand((4, 6), dt)), (rows, rand((6,), dt)), (rows, rand((1, 4, 1), dt)),
                 (rows, rand((1, 1, 1, 6), dt)), (plane, rand((6,), dt)),
                 (plane, rand((1, 1), dt)), (numpy.zeros(5, bool), rand((4, 1), dt))]:
        _set_both(base, m, v, np.asarray(v))
        _set_both(base, m, v, np.asarray(v), op=True)
    g = np.asarray(base)[::-1, :, ::2]                 # a strided, reversed destination
    want = base[::-1, :, ::2].copy()
    v = rand((4, 3), dt)
    want[rows] = v
    masks.mask_setitem(g, np.asarray(rows), np.asarray(v))
    assert_same(g, want)
    monkeypatch.setattr(compaction, "rank", real)     # the error's message reads it
    raises_like(lambda: base.copy().__setitem__(rows, rand((5,), dt)),
                lambda: masks.mask_setitem(np.asarray(base), np.asarray(rows),
                                           np.asarray(rand((5,), dt))))


def test_mask_setitem_errors_write_nothing():
    h = rand((3, 4), "f4")
    m = h > 0
    n = int(m.sum())
    cases = [
        (m, numpy.ones(n + 2, "f4")),                 # wrong count
        (m, numpy.ones(0, "f4")),
        (m, numpy.ones((n, 1), "f4")),                # 2-d value with a full mask: TypeError
        (numpy.ones(4, bool), 1.0),                   # wrong mask shape
        (m[:, :3], 1.0),
        (numpy.array([True, False, True]), numpy.ones(3, "f4")),     # prefix: shape mismatch
        (numpy.array([True, False, True]), numpy.ones((3, 1, 4), "f4")),
        (numpy.array(True), numpy.ones((2, 2), "f4")),
    ]
    for mk, v in cases:
        g = np.asarray(h)

        def host():
            h.copy()[mk] = v

        def dev():
            masks.mask_setitem(g, np.asarray(mk), np.asarray(v) if isinstance(v, numpy.ndarray)
                               else v)
        raises_like(host, dev)
        assert_same(g, h)                             # nothing written
    g = np.asarray(h)
    with pytest.raises(OverflowError):
        masks.mask_setitem(np.asarray(rand((3, 4), "i1")), np.asarray(m), 300)


# ---- nonzero / argwhere / flatnonzero -------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_nonzero_every_dtype(dt):
    h = _with_zeros(rand((4, 5), dt))
    g = np.asarray(h)
    for hh, gg in ((h, g), (h.T[::-1], g.T[::-1]), (h[1], g[1]), (h[:, ::-2], g[:, ::-2])):
        got, want = np.nonzero(gg), numpy.nonzero(hh)
        assert isinstance(got, tuple) and len(got) == len(want)
        for a, b in zip(got, want):
            assert_same(a, b.astype(numpy.int64))
        assert_same(np.argwhere(gg), numpy.argwhere(hh).astype(numpy.int64))
        assert_same(np.flatnonzero(gg), numpy.flatnonzero(hh).astype(numpy.int64))
    for a, b in zip(g.nonzero(), h.nonzero()):                  # the method
        assert_same(a, b.astype(numpy.int64))


@pytest.mark.parametrize("shape", [(0,), (3, 0), (7,), (2, 3, 4), (1, 1, 5)])
def test_nonzero_shapes(shape):
    h = _with_zeros(rand(shape, "i2"))
    g = np.asarray(h)
    for a, b in zip(np.nonzero(g), numpy.nonzero(h)):
        assert_same(a, b.astype(numpy.int64))
    assert_same(np.argwhere(g), numpy.argwhere(h).astype(numpy.int64))
    assert_same(np.flatnonzero(g), numpy.flatnonzero(h).astype(numpy.int64))
    for fill in (0, 1):                                          # all false, all true
        hf = numpy.full(shape, fill, "u1")
        for a, b in zip(np.nonzero(np.asarray(hf)), numpy.nonzero(hf)):
            assert_same(a, b.astype(numpy.int64))


def test_nonzero_zero_d_and_host_input():
    raises_like(lambda: numpy.nonzero(numpy.array(3)), lambda: np.nonzero(np.asarray(numpy.array(3))))
    raises_like(lambda: numpy.array(0).nonzero(), lambda: np.asarray(numpy.array(0)).nonzero())
    for v in (0, 3):
        h = numpy.array(v, "f4")
        assert_same(np.argwhere(np.asarray(h)), numpy.argwhere(h).astype(numpy.int64))
        assert_same(np.flatnonzero(np.asarray(h)), numpy.flatnonzero(h).astype(numpy.int64))
    lst = [[1, 0, 2], [0, 0, 3]]
    for a, b in zip(np.nonzero(lst), numpy.nonzero(lst)):
        assert_same(a, b.astype(numpy.int64))


# ---- compress / extract -------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_compress_every_dtype(dt):
    h = rand((4, 6), dt)
    g = np.asarray(h)
    for axis, n in ((None, 24), (0, 4), (1, 6), (-1, 6)):
        c = rmask((n,))
        assert_same(np.compress(np.asarray(c), g, axis=axis), numpy.compress(c, h, axis=axis))
    c = rmask((6,))
    assert_same(g.T[::-1].compress(np.asarray(c), axis=0), h.T[::-1].compress(c, axis=0))


def test_compress_conditions_and_out():
    h = rand((3, 5), "i4")
    g = np.asarray(h)
    cases = [([True, False], 1), ([0.5, 0, 1], 0), ([True, False, True, True, False, False], 1),
             ([], 0), ([True] * 15, None), ([1, 0, 1, 1], None), (numpy.array([2, 0, -1]), 0)]
    for c, axis in cases:
        assert_same(np.compress(c, g, axis=axis), numpy.compress(c, h, axis=axis))
        assert_same(np.compress(np.asarray(numpy.asarray(c, dtype=float)), g, axis=axis),
                    numpy.compress(numpy.asarray(c, dtype=float), h, axis=axis))
    # a strided condition, a 0-d array, all false
    c = rmask((10,))
    assert_same(np.compress(np.asarray(c)[::2], g, axis=1), numpy.compress(c[::2], h, axis=1))
    h0 = numpy.array(5.0)
    for axis in (None, 0, -1):
        assert_same(np.compress([True, False], np.asarray(h0), axis=axis),
                    numpy.compress([True, False], h0, axis=axis))
    assert_same(np.compress([False] * 3, g, axis=0), numpy.compress([False] * 3, h, axis=0))
    # out=
    for odt in ("i4", "i2", "?"):                     # NumPy checks the cast out -> data
        out = np.asarray(numpy.zeros((2, 5), odt))
        r = np.compress([True, False, True], g, axis=0, out=out)
        assert r is out
        want = numpy.zeros((2, 5), odt)
        numpy.compress([True, False, True], h, axis=0, out=want)
        assert_same(out, want)
    strided = np.asarray(numpy.zeros((4, 5), "i4"))[::2]
    np.compress([True, False, True], g, axis=0, out=strided)
    assert_same(strided, numpy.compress([True, False, True], h, axis=0))
    for o in (numpy.zeros((2, 4), "i4"), numpy.zeros((2, 5), "f8"), numpy.zeros((2, 5), "i8")):
        raises_like(lambda: numpy.compress([True, False, True], h, axis=0, out=o),
                    lambda: np.compress([True, False, True], g, axis=0, out=np.asarray(o)))


def test_compress_errors():
    h = rand((3, 4), "f4")
    g = np.asarray(h)
    for c, axis in (([True, False, True, True, True], 1), ([True] * 20, None),
                    ([[True, False]], 0), (True, 0), ([True], 2), ([True, False], -3)):
        raises_like(lambda: numpy.compress(c, h, axis=axis), lambda: np.compress(c, g, axis=axis))
    raises_like(lambda: numpy.compress([True], numpy.array(1.0), axis=1),
                lambda: np.compress([True], np.asarray(numpy.array(1.0)), axis=1))


@pytest.mark.parametrize("dt", ["?", "u2", "f2", "c16"])
def test_extract(dt):
    h = rand((4, 5), dt)
    g = np.asarray(h)
    c = _with_zeros(rand((4, 5), "f4"))
    assert_same(np.extract(np.asarray(c), g), numpy.extract(c, h))
    assert_same(np.extract(np.asarray(c).T, g.T[::-1]), numpy.extract(c.T, h.T[::-1]))
    cs = rmask((7,))
    assert_same(np.extract(cs, g), numpy.extract(cs, h))                 # shorter condition
    long = numpy.zeros(30, bool)
    long[rmask(20).nonzero()[0]] = True
    assert_same(np.extract(long, g), numpy.extract(long, h))             # false tail
    long[25] = True
    raises_like(lambda: numpy.extract(long, h), lambda: np.extract(long, g))


# ---- place / putmask -------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_place_putmask_every_dtype(dt):
    h = rand((4, 5), dt)
    m = rmask(h.shape)
    v = rand((3,), dt)
    for fn, nfn in ((np.place, numpy.place), (np.putmask, numpy.putmask)):
        want = h.copy()
        nfn(want, m, v)
        g = np.asarray(h)
        fn(g, np.asarray(m), np.asarray(v))
        assert_same(g, want)
        # strided destination, mask of another shape (same size), host values
        base = rand((4, 10), dt)
        want = base[:, ::-2].copy()
        m2 = rmask((2, 10))
        nfn(want, m2, list(v))
        g = np.asarray(base)[:, ::-2]
        fn(g, np.asarray(m2), list(v))
        assert_same(g, want)


def test_place_putmask_values_and_errors():
    # the module's RNG draws depend on which tests ran before in the process (pytest-xdist
    # order): h > 0 was all False in 1 run of ~64, and NumPy's empty-values error below then did
    # not happen (the GPU suite's intermittent "DID NOT RAISE <class 'Exception'>").  Signs fixed.
    h = numpy.abs(rand((6,), "f8")) + 0.5
    h[[1, 4]] *= -1
    hi = numpy.arange(6)
    m = h > 0
    assert m.any() and not m.all()
    for fn, nfn in ((np.place, numpy.place), (np.putmask, numpy.putmask)):
        for mk, vals in ((m, [10, 20]), (m, 2.5), (numpy.zeros(6, bool), []),
                         (h, [1, 2]), (numpy.ones((2, 3), bool), numpy.arange(4.0).reshape(2, 2)),
                         (m, numpy.arange(6.0)), (m, numpy.arange(9.0))):
            want = h.copy()
            nfn(want, mk, vals)
            g = np.asarray(h)
            fn(g, np.asarray(mk), np.asarray(vals) if isinstance(vals, numpy.ndarray) else vals)
            assert_same(g, want)
        want = hi.copy()
        nfn(want, hi > 2, [2.7, 3.9])                           # lists convert to a's dtype
        g = np.asarray(hi)
        fn(g, g > 2, [2.7, 3.9])
        assert_same(g, want)
        # errors: NumPy's messages; nothing written
        for x, mk, vals in ((h, numpy.ones(5, bool), [1]), (hi, m, numpy.array([2.7])),
                            (h, m, numpy.array([1 + 1j])), (h, m, 1 + 1j)):
            g = np.asarray(x)
            raises_like(lambda: nfn(x.copy(), mk, vals),
                        lambda: fn(g, np.asarray(mk), np.asarray(vals)
                                   if isinstance(vals, numpy.ndarray) else vals))
            assert_same(g, x)
        with pytest.raises(TypeError):
            fn([1, 2, 3], [True, False, True], [9])
    # empty values: place raises when a flag is set, putmask does nothing
    raises_like(lambda: numpy.place(h.copy(), m, []), lambda: np.place(np.asarray(h), m, []))
    g = np.asarray(h)
    np.putmask(g, m, [])
    assert_same(g, h)
    with pytest.raises(OverflowError):
        np.putmask(np.asarray(numpy.arange(6, dtype="i1")), numpy.ones(6, bool), [300])


# ---- the compaction primitive and its cost -----------------------------------------------------------
def test_compaction_api():
    h = rand((5, 6, 3), "f4")
    f = rmask((6,))
    g = np.asarray(h)
    assert_same(compaction.select_values(g, np.asarray(f), axis=1), h[:, f])
    rk = compaction.rank(np.asarray(f))
    assert rk.count == int(f.sum())
    assert_same(compaction.select_values(g[0], rk), h[0][f])    # one scan, two selects
    assert_same(compaction.select_indices(np.asarray(f)), numpy.flatnonzero(f).astype("i8"))
    f2 = rmask(90)                      # flags over a transposed array's elements, C order
    assert_same(compaction.select_values(g.T, np.asarray(f2), axis=None), h.T.reshape(-1)[f2])
    with pytest.raises(ValueError):
        compaction.select_values(g, np.asarray(rmask((6,))), axis=0)


def test_mask_select_cost(monkeypatch):
    """a[mask] with a C-contiguous bool mask: the tile counts, their scan, one scatter, one
    small host read (tile_select.py)."""
    reads = []
    d2h = _transfer._d2h

    def counting(host, ptr, nbytes, stream=None):
        reads.append(nbytes)
        return d2h(host, ptr, nbytes, stream)
    h = rand((40,), "f4")
    g, gm = np.asarray(h), np.asarray(rmask(40))
    monkeypatch.setattr(_transfer, "_d2h", counting)
    before = stats["launches"]
    r = masks.mask_select(g, gm)
    scan_and_scatter = stats["launches"] - before
    assert len(reads) == 1 and reads[0] <= 8
    # the scan is npgpu.cumsum of the tile counts: as many launches as cumsum alone takes,
    # plus the count and the scatter kernels
    counts = np.ones(3, dtype=numpy.int64)
    before = stats["launches"]
    np.cumsum(counts)
    assert scan_and_scatter == stats["launches"] - before + 2
    # a scalar assignment needs no count: one kernel, no read (function and operator)
    for assign in (lambda: masks.mask_setitem(g, gm, 1.0), lambda: g.__setitem__(gm, 2.0)):
        reads.clear()
        before = stats["launches"]
        assign()
        assert stats["launches"] - before == 1 and not reads
    # the operator route costs what the function does
    reads.clear()
    before = stats["launches"]
    g[gm]
    assert stats["launches"] - before == scan_and_scatter and len(reads) == 1
    monkeypatch.undo()
    assert r.size == int(gm.sum())


@pytest.mark.parametrize("dt", ["f4", "i8", "c16", "?", "f2", "u1"])
@pytest.mark.parametrize("m", [1, 7, 127, 128, 129, 300, 520])
def test_tile_select_across_tiles(m, dt):
    """a[mask] and flatnonzero through the tile path: sizes around the tile (128 flags on the
    simulator), partial words and tiles, rows of several elements, every density."""
    from npgpu.indexing import tile_select
    assert tile_select.TILE in (128, 8192)
    for p in (0.0, 0.3, 1.0):
        mk = rmask(m, p)
        h = rand((m,), dt)
        assert_same(np.asarray(h)[np.asarray(mk)], h[mk])
        assert_same(np.flatnonzero(np.asarray(mk)), numpy.flatnonzero(mk))
    h3 = rand((m, 3), dt)
    mk = rmask(m, 0.6)
    assert_same(np.asarray(h3)[np.asarray(mk)], h3[mk])
