"""Advanced (integer-array) indexing against NumPy: getitem, setitem, the placement rule,
device bounds checks with NumPy's messages, last-wins assignment."""
import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, assert_same, make_layout, random_array, error_of as _err

RNG = numpy.random.default_rng(13)
INT_DTYPES = [numpy.dtype(t) for t in "i1 i2 i4 i8 u1 u2 u4 u8".split()]


def _dev(idx):
    """The index with every host array moved to the device (lists stay host lists)."""
    if isinstance(idx, tuple):
        return tuple(_dev(i) for i in idx)
    if isinstance(idx, numpy.ndarray):
        return np.asarray(idx)
    return idx


I = numpy.array
# (3, 4, 5) array: every kind of advanced index NumPy has, and where its axes land
INDICES = [
    [0, 2, -1], I([2, 0, 2, 1]), I([[0, 1], [2, -3]]), ([0, 1], [3, -1]), ([0, 1], [3, -1], [4, 0]),
    (slice(None), [1, 3]), (Ellipsis, [0, 4, 4]), (slice(None), [[0], [1]], [1, 2, 3]),
    ([0, 1], slice(None), [0, 1]),                     # separated by a slice: index dims first
    (slice(None), [0, 1], None, [0, 1]),               # separated by None: first
    (slice(None), [0, 1], [2, 3]),                     # adjacent: in place
    (0, slice(None), [0, 1]),                          # an integer counts as an index array
    (slice(None), 1, [0, 1]),                          # adjacent with the integer: in place
    (slice(None, None, -1), I([1, 2]), slice(1, None, 2)),
    (None, [1, 2], Ellipsis, None), ([], slice(None)), (I([], numpy.int8),),
    (I(1), [0, 1]), (slice(None), I(2), [0, 1]), (I(-1),), (True,), (False, 1),
    (True, [0, 1]), (Ellipsis, True), (I([True, False, True]), 1),
    (slice(None), I([True, False, False, True])), (I([[1], [2]]), I([[True, False, True, False, True]] * 4)),
    (slice(1, 3), [[0, 1], [1, 0]], slice(None, None, -2)),
    I([True, False, True]), (I([[True, False, True, False]] * 3),),      # a mask alone
    (Ellipsis, I([False, True, True, False, True])), (I([0, 2]), I([True, False, False, True])),
]


@pytest.mark.matrix
@pytest.mark.parametrize("k", range(len(INDICES)))
def test_getitem_matches_numpy(k):
    idx = INDICES[k]
    h = random_array((3, 4, 5), "f4", RNG)
    for layout in ("contiguous", "transposed", "negative", "strided"):
        g, hl = make_layout(h, layout)
        if layout == "transposed":
            g, hl = g.transpose(1, 2, 0)[::-1].transpose(2, 0, 1), \
                hl.transpose(1, 2, 0)[::-1].transpose(2, 0, 1)
        expect = hl[idx]
        assert_same(g[idx], expect)
        assert_same(g[_dev(idx)], expect)


@pytest.mark.matrix
@pytest.mark.parametrize("k", range(len(INDICES)))
def test_setitem_matches_numpy(k):
    idx = INDICES[k]
    h = random_array((3, 4, 5), "i4", RNG)
    shape = h[idx].shape
    val = random_array(shape, "i4", RNG)
    for dev in (False, True):
        g = np.asarray(h)
        hh = h.copy()
        ix = _dev(idx) if dev else idx
        hh[idx] = 77
        g[ix] = 77
        assert_same(g, hh)
        g[ix] = np.asarray(val)
        hh[idx] = val
        assert_same(g, hh)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_every_dtype(dt):
    h = random_array((6, 5), dt, RNG)
    g = np.asarray(h)
    for idx in ([4, 0, -2], (slice(None, None, -1), [1, 1, 3]), ([[0], [5]], [0, 4])):
        assert_same(g[idx], h[idx])
        v = random_array(h[idx].shape, dt, RNG)
        hh, gg = h.copy(), np.asarray(h)
        hh[idx] = v
        gg[idx] = np.asarray(v)
        assert_same(gg, hh)
        s = v.reshape(-1)[0]
        hh[idx] = s
        gg[idx] = s
        assert_same(gg, hh)


@pytest.mark.parametrize("idt", INT_DTYPES, ids=str)
def test_every_index_dtype(idt):
    h = random_array((40,), "f8", RNG)
    g = np.asarray(h)
    ix = RNG.integers(0, 40, 25).astype(idt)
    assert_same(g[ix], h[ix])
    assert_same(g[np.asarray(ix)], h[ix])
    assert_same(g[np.asarray(ix)[::-2]], h[ix[::-2]])        # a negative-stride index array
    if idt.kind == "i":
        neg = (-RNG.integers(1, 40, 10)).astype(idt)
        assert_same(g[np.asarray(neg)], h[neg])


def test_value_cast_and_broadcast():
    h = random_array((4, 5), "i2", RNG)
    g = np.asarray(h)
    v = random_array((5,), "f8", RNG)
    h[[0, 2]] = v
    g[[0, 2]] = np.asarray(v)                 # float64 -> int16, broadcast over the index dim
    assert_same(g, h)
    h[[1, 3], 1:3] = [[1.5], [-2.5]]
    g[[1, 3], 1:3] = [[1.5], [-2.5]]          # a host list value
    assert_same(g, h)
    c = np.asarray(random_array((3, 4), "c8", RNG))
    hc = c.get()
    hc[[0, 2]] = numpy.arange(4) * 1.5
    c[[0, 2]] = np.asarray(numpy.arange(4) * 1.5)
    assert_same(c, hc)
    with pytest.raises(OverflowError):
        g[[0]] = 1 << 40                       # a Python int out of int16's range, as NumPy
    h2 = random_array((4, 5), "f4", RNG)
    g2 = np.asarray(h2)
    g2[[0, 1]] = g2[[2, 3]][:, ::-1]          # value read from the same array
    h2[[0, 1]] = h2[[2, 3]][:, ::-1]
    assert_same(g2, h2)
    g2[[3, 2, 1]] = g2[0:3]                   # overlapping view as the value
    h2[[3, 2, 1]] = h2[0:3]
    assert_same(g2, h2)


def test_duplicates_last_wins():
    for dt in ("f4", "i8", "c16", "?"):
        h = random_array((8, 3), dt, RNG)
        g = np.asarray(h)
        idx = numpy.array([5, 1, 5, 5, 0, 1, 7, 5])
        v = random_array((8, 3), dt, RNG)
        expect = h.copy()
        for j, i in enumerate(idx):             # sequential assignment: the last one wins
            expect[i] = v[j]
        for _ in range(3):                       # every run
            g2 = np.asarray(h)
            g2[np.asarray(idx)] = np.asarray(v)
            assert_same(g2, expect)
        # 2-d index arrays: last in C order of the index result
        r = numpy.array([[1, 1], [2, 1]])
        c = numpy.array([[0, 0], [2, 0]])
        w = random_array((2, 2), dt, RNG)
        e2 = h.copy()
        for (i, j), val in zip(zip(r.ravel(), c.ravel()), w.ravel()):
            e2[i, j] = val
        g[r, c] = w
        assert_same(g, e2)
    # duplicates across a separated placement: index dims first, then the slice
    h = random_array((4, 3, 4), "i4", RNG)
    g = np.asarray(h)
    v = random_array((3, 3), "i4", RNG)
    e = h.copy()
    for j, (i0, i2) in enumerate([(1, 2), (1, 2), (0, 3)]):
        e[i0, :, i2] = v[j]
    g[[1, 1, 0], :, [2, 2, 3]] = np.asarray(v)
    assert_same(g, e)


def test_empty_and_zero_d():
    h = random_array((5, 3), "f8", RNG)
    g = np.asarray(h)
    e = numpy.zeros((0, 2), numpy.int64)
    assert_same(g[e], h[e])
    assert_same(g[np.asarray(e)], h[e])
    assert_same(g[:, np.asarray(e)], h[:, e])
    g[np.asarray(e)] = 5.0                       # nothing to write
    assert_same(g, h)
    z = np.asarray(numpy.array(3))
    assert_same(g[z], h[3])
    assert_same(g[z, z - 1], numpy.asarray(h[3, 2]))
    g0 = np.asarray(numpy.float32(2.5))
    assert_same(g0[True], numpy.float32(2.5)[None] * 1)
    assert_same(g0[False], numpy.zeros(0, numpy.float32))
    assert_same(np.zeros((0, 3))[:, [1, 2]], numpy.zeros((0, 2)))


def test_out_of_bounds_messages_and_nothing_written():
    h = random_array((5, 6), "f4", RNG)
    g = np.asarray(h)
    cases = [[0, 10], ([1], [2, -7]), (slice(None), [3, 6]), ([-6],), (2, [0, 9, 20]),
             ([[0, 1], [7, 2]], [0, 8]), (numpy.array([2, 5], numpy.uint8),),
             ([4, 5], slice(None), None)]
    for idx in cases:
        he, ge = _err(lambda: h[idx]), _err(lambda: g[idx])
        assert he is not None and ge == he, (idx, ge, he)
        assert _err(lambda: g[_dev(idx)]) == he
        before = g.get()
        assert _err(lambda: g.__setitem__(_dev(idx), 1.0)) == he
        assert _err(lambda: g.__setitem__(_dev(idx), np.asarray(numpy.float32(2.5)))) == he
        assert_same(g, before)                 # nothing written
    # an empty result still checks its indices, as NumPy
    assert _err(lambda: np.zeros((0, 3))[:, [5]]) == _err(lambda: numpy.zeros((0, 3))[:, [5]])
    # after an error the next call is clean (the record is re-armed)
    assert_same(g[[1, 2]], h[[1, 2]])


def test_index_errors_match_numpy():
    h = numpy.zeros((5, 6))
    g = np.zeros((5, 6))
    cases = [numpy.array([1.0]), (slice(None), numpy.array([0.5, 1])), 1.0, "a",
             ([0], [0], [0]), (numpy.ones(5, bool), 0, 0), numpy.ones(4, bool),
             (slice(None), numpy.ones(3, bool)), ([0, 1], [1, 2, 3]),
             (numpy.zeros((2, 3), int), numpy.zeros((4, 1, 2), int)), [0, slice(None)],
             (Ellipsis, [0], Ellipsis)]
    for idx in cases:
        he = _err(lambda: h[idx])
        assert he is not None
        assert _err(lambda: g[idx]) == he, idx
        assert _err(lambda: g[_dev(idx)]) == he, idx
    with pytest.raises(IndexError, match="integer"):
        g[np.asarray(numpy.array([1.0, 2.0]))]
    for idx, val in [([0, 1], numpy.zeros(3)), (([0, 1], 0), numpy.zeros((2, 2))),
                     (([0, 1],), numpy.zeros((3, 6)))]:
        he = _err(lambda: h.__setitem__(idx, val))
        assert he is not None
        assert _err(lambda: g.__setitem__(idx, np.asarray(val))) == he


def test_launches_and_reads_per_call(monkeypatch):
    """a[idx]: one gather launch and one 8-byte device-to-host read of the bounds record."""
    from npgpu._codegen.stats import stats
    from npgpu.indexing import advanced
    g = np.asarray(random_array((64,), "f4", RNG))
    ix = np.asarray(RNG.integers(-64, 64, 16))
    g[ix]                                          # compile, allocate the record
    want = g.get()[ix.get()]
    reads = []
    real = advanced._transfer._d2h
    monkeypatch.setattr(advanced._transfer, "_d2h",
                        lambda host, ptr, n, *a: (reads.append(n), real(host, ptr, n, *a)))
    before = stats["launches"]
    got = g[ix]
    assert stats["launches"] - before == 1
    assert reads == [8]
    numpy.testing.assert_array_equal(got.get(), want)
    # a bad index after good ones: raised with NumPy's message, and the record re-armed
    bad = np.asarray(numpy.array([3, 64, -65]))
    with pytest.raises(IndexError, match="index 64 is out of bounds for axis 0 with size 64"):
        g[bad]
    numpy.testing.assert_array_equal(g[ix].get(), want)


def test_an_empty_ellipsis_separates_advanced_indices():
    # an Ellipsis of no axes between two advanced indices makes them non-adjacent (NumPy: the
    # broadcast axes go first), for getitem and setitem, with arrays, integers and masks
    h = numpy.arange(24).reshape(2, 3, 4)
    for idx in ((slice(None), [0, 2], Ellipsis, [0, 2]), (slice(None), [0, 1], Ellipsis, 1),
                ([0, 1], Ellipsis, [0, 2], slice(None)), (Ellipsis, [0, 1], [1, 2], [0, 3]),
                (slice(None), [1, 2], Ellipsis, I([True, False, True, False]))):
        d = _dev(tuple(I(i) if isinstance(i, list) else i for i in idx))
        want = h[idx]
        assert_same(np.asarray(h)[d], want)
        hw, g = h.copy(), np.asarray(h)
        hw[idx] = want * 10
        g[d] = np.asarray(want * 10)
        assert_same(g, hw)
