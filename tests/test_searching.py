"""searchsorted, digitize and count_nonzero(axis, keepdims) against NumPy: random sorted data
with duplicates, NaN, +-0, +-inf, every real and complex dtype, sorter, N-d / non-contiguous /
negative-stride / 0-d / empty queries, both phases of the search (shared samples, then global),
and NumPy's errors."""
import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, LAYOUTS, assert_same, make_layout, raises_like
from npgpu.sorting import searching
from npgpu.sorting.searching import digitize, searchsorted

RNG = numpy.random.default_rng(1414)


def pool(n, dt, size=9):
    """``n`` random values of ``dt`` from a small pool (duplicates), with NaN, +-0 and +-inf
    among them for floats (NaN in either part for complex)."""
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return RNG.random(n) < 0.5
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        base = RNG.integers(max(info.min, -50), min(info.max, 50), size=size, endpoint=True)
        return base.astype(dt)[RNG.integers(0, size, n)]
    base = (RNG.standard_normal(size) * 10).astype(dt)
    if dt.kind == "f":
        base[:5] = numpy.nan, 0.0, -0.0, numpy.inf, -numpy.inf
    else:
        base[:3] = complex(numpy.nan, 1), complex(1, numpy.nan), complex(base[3].real, 2)
        base[4] = complex(base[3].real, -numpy.inf)
    return base[RNG.integers(0, size, n)]


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("n", [0, 1, 5, 37])
def test_searchsorted_dtypes(dt, side, n):
    # n = 37 > the simulator's shared sample (8 elements): both phases run
    a = numpy.sort(pool(n, dt))
    v = pool(24, dt).reshape(4, 6)
    assert_same(searchsorted(np.asarray(a), np.asarray(v), side), numpy.searchsorted(a, v, side))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_searchsorted_query_layouts(layout):
    a = numpy.sort(pool(30, "f8"))
    d, h = make_layout(pool(12, "f8").reshape(3, 4), layout)
    assert_same(searchsorted(np.asarray(a), d, "right"), numpy.searchsorted(a, h, "right"))


def test_searchsorted_strided_sorted_array():
    big = numpy.sort(pool(90, "i4"))
    v = pool(20, "i4")
    assert_same(searchsorted(np.asarray(big)[::3], np.asarray(v)), numpy.searchsorted(big[::3], v))
    rev = numpy.asarray(big[::-1])
    assert_same(searchsorted(np.asarray(rev)[::-2], np.asarray(v), "right"),
                numpy.searchsorted(rev[::-2], v, "right"))


@pytest.mark.parametrize("dt", ["i2", "u4", "f4", "c8"])
def test_searchsorted_mixed_dtypes_and_scalars(dt):
    a = numpy.sort(pool(25, dt))
    for v in (3, -1, 1000, 2.5, True, numpy.float64(0.5), [1, 2, 70000]):
        assert_same(searchsorted(np.asarray(a), v), numpy.asarray(numpy.searchsorted(a, v)))
    assert_same(searchsorted(np.asarray(numpy.array([1, 2, 3], numpy.int8)), 300),
                numpy.asarray(numpy.searchsorted(numpy.array([1, 2, 3], numpy.int8), 300)))


@pytest.mark.parametrize("sdt", ["i8", "i4", "u1"])
def test_searchsorted_sorter(sdt):
    a = pool(40, "f8")
    srt = numpy.argsort(a, kind="stable").astype(sdt)
    v = pool(15, "f8")
    for side in ("left", "right"):
        assert_same(searchsorted(np.asarray(a), np.asarray(v), side, sorter=np.asarray(srt)),
                    numpy.searchsorted(a, v, side, sorter=srt))
    # a host list, and a strided device sorter
    assert_same(searchsorted(np.asarray(a), np.asarray(v), sorter=list(srt)),
                numpy.searchsorted(a, v, sorter=srt))
    wide = numpy.repeat(srt, 2)
    assert_same(searchsorted(np.asarray(a), np.asarray(v), sorter=np.asarray(wide)[::2]),
                numpy.searchsorted(a, v, sorter=srt))


def test_searchsorted_errors():
    a = numpy.array([1, 2, 3], numpy.int8)
    g = np.asarray(a)
    raises_like(lambda: numpy.searchsorted(a, 2, sorter=[3, 3, 3]),
                lambda: searchsorted(g, 2, sorter=[3, 3, 3]))
    for s in (numpy.array([0.0, 1, 2]), numpy.array([0, 1]), numpy.array([[0, 1, 2]]),
              numpy.array([0, 1, 2], numpy.uint64)):
        raises_like(lambda: numpy.searchsorted(a, 2, sorter=s),
                    lambda: searchsorted(g, 2, sorter=np.asarray(s)))
    for side in ("middle", "", "l", "Right", None, 3):
        raises_like(lambda: numpy.searchsorted(a, 2, side=side),
                    lambda: searchsorted(g, 2, side=side))
    raises_like(lambda: numpy.searchsorted(numpy.zeros((2, 2)), 1),
                lambda: searchsorted(np.zeros((2, 2)), 1))
    raises_like(lambda: numpy.searchsorted(numpy.float64(1), 1),
                lambda: searchsorted(np.asarray(1.0), 1))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [d for d in ALL_DTYPES if d.kind != "c"], ids=str)
@pytest.mark.parametrize("right", [False, True])
def test_digitize(dt, right):
    bins = numpy.unique(pool(30, dt))
    bins = bins[~numpy.isnan(bins)] if dt.kind == "f" else bins
    x = pool(20, dt)
    for b in (bins, bins[::-1]):
        assert_same(digitize(np.asarray(x), np.asarray(b), right), numpy.digitize(x, b, right))


def test_digitize_edge_cases():
    x = numpy.array([0.5, 1.5, 3.0, numpy.nan, -numpy.inf])
    for b in ([2.0, 2, 2], [], [3.0, 2, 2, 1], [1.0], [True, False]):
        for right in (False, True):
            assert_same(digitize(np.asarray(x), b, right), numpy.digitize(x, b, right))
    assert_same(digitize(1.5, [1, 2]), numpy.asarray(numpy.digitize(1.5, [1, 2])))
    raises_like(lambda: numpy.digitize(x, [1, 3, 2]), lambda: digitize(np.asarray(x), [1, 3, 2]))
    raises_like(lambda: numpy.digitize(x, [numpy.nan, 1, 2]),
                lambda: digitize(np.asarray(x), [numpy.nan, 1, 2]))
    raises_like(lambda: numpy.digitize(x, [1j, 2]), lambda: digitize(np.asarray(x), [1j, 2]))
    raises_like(lambda: numpy.digitize(x, [[1, 2]]), lambda: digitize(np.asarray(x), [[1, 2]]))
    raises_like(lambda: numpy.digitize([1j], [1, 2]), lambda: digitize([1j], [1, 2]))


def test_monotonicity_long_bins():
    # more bins than the check kernel's block: every thread takes several pairs
    b = numpy.sort(RNG.standard_normal(300))
    assert searching.monotonicity(np.asarray(b)) == 1
    assert searching.monotonicity(np.asarray(b[::-1])) == -1
    b[200] = b[10]
    assert searching.monotonicity(np.asarray(b)) == 0


@pytest.mark.parametrize("dt", ["?", "i4", "f8", "c16"])
def test_count_nonzero_axis_keepdims(dt):
    h = pool(60, dt).reshape(3, 4, 5)
    d = np.asarray(h)
    for axis in (None, 0, 2, -1, (0, 2), (0, 1, 2)):
        for kd in (False, True):
            assert_same(np.count_nonzero(d, axis=axis, keepdims=kd),
                        numpy.asarray(numpy.count_nonzero(h, axis=axis, keepdims=kd)))
    assert_same(np.count_nonzero(d[:, ::-2], axis=1), numpy.count_nonzero(h[:, ::-2], axis=1))
