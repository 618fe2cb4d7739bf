"""Defects found by NumPy's own lib/tests/test_arraysetops.py, test_nanfunctions.py and
test_histograms.py run against npgpu (scripts/numpy_tests.py), each checked against NumPy.

histogram's ``range=`` given as device values (a device array, as NumPy's test_precision
passes an array, or the 0-d results of ``(x.min(), x.max())``) is read back as NumPy's
unpacking of a host array would give it."""
import numpy
import pytest

import npgpu as np
from conftest import assert_matches, assert_same, raises_like

RNG = numpy.random.default_rng(77)
DTYPES = [numpy.float16, numpy.float32, numpy.float64, numpy.int8, numpy.int32, numpy.uint16,
          numpy.int64]


def _data(dt, n=41):
    return (RNG.standard_normal(n) * 20).astype(dt)


def _check(got, want):
    (h, e), (H, E) = got, want
    assert_same(h, H)
    assert_matches(e, E)


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize("layout", ["contiguous", "strided", "negative"])
def test_histogram_device_range(dt, layout):
    base = _data(dt)
    view = {"contiguous": slice(None), "strided": slice(None, None, 2),
            "negative": slice(None, None, -3)}[layout]
    x, g = base[view], np.asarray(base)[view]
    lo, hi = x.min(), x.max()
    # 0-d device values, as reductions return them
    _check(np.histogram(g, bins=5, range=(g.min(), g.max())),
           numpy.histogram(x, bins=5, range=(lo, hi)))
    # a device array of the range's own dtype, and a float32 one (NumPy keeps its dtype)
    for r in (numpy.array([lo, hi]), numpy.array([-7.5, 11.25], numpy.float32)):
        _check(np.histogram(g, bins=4, range=np.asarray(r)), numpy.histogram(x, 4, range=r))
        assert_matches(np.histogram_bin_edges(g, bins=3, range=np.asarray(r)),
                       numpy.histogram_bin_edges(x, bins=3, range=r))
    # one device and one host value
    _check(np.histogram(g, bins=6, range=(np.asarray(lo), float(hi))),
           numpy.histogram(x, bins=6, range=(lo, float(hi))))


@pytest.mark.parametrize("small, large", [(numpy.float16, numpy.float32),
                                          (numpy.float16, numpy.float64)])
def test_histogram_device_range_precision(small, large):
    # NumPy's test_precision: bounds that round to 1 in the data's dtype, kept in theirs
    eps = numpy.finfo(large).eps
    for r in ([1.0 + eps, 2.0], [0.0, 1.0 - eps]):
        arr = numpy.array([1.0], small)
        rng_h = numpy.array(r, large)
        h, e = np.histogram(np.asarray(arr), bins=1, range=np.asarray(rng_h))
        H, E = numpy.histogram(arr, bins=1, range=rng_h)
        assert_same(h, H)
        assert_same(e, E)


@pytest.mark.parametrize("rule", ["auto", "stone", "scott"])
def test_histogram_rule_device_range(rule):
    x = RNG.standard_normal(30)
    r = numpy.array([-1.0, 1.5])
    _check(np.histogram(np.asarray(x), bins=rule, range=np.asarray(r)),
           numpy.histogram(x, bins=rule, range=r))


def test_histogramdd_device_range():
    x, y = RNG.standard_normal(25), RNG.uniform(0, 4, 25).astype(numpy.float32)
    r = numpy.array([[-1.0, 1.0], [0.5, 3.0]])
    h, ex, ey = np.histogram2d(np.asarray(x), np.asarray(y), bins=3, range=np.asarray(r))
    H, EX, EY = numpy.histogram2d(x, y, bins=3, range=r)
    assert_same(h, H)
    assert_matches(ex, EX)
    assert_matches(ey, EY)
    gx = np.asarray(x)
    s = numpy.stack([x, x], 1)
    h, edges = np.histogramdd(np.asarray(s), bins=4, range=[(gx.min(), gx.max())] * 2)
    H, EDGES = numpy.histogramdd(s, bins=4, range=[(x.min(), x.max())] * 2)
    assert_same(h, H)
    for e, E in zip(edges, EDGES):
        assert_matches(e, E)


@pytest.mark.parametrize("r", [[2.0, 1.0], [numpy.nan, 1.0], [0.0, numpy.inf]])
def test_histogram_device_range_errors(r):
    x = RNG.standard_normal(10)
    r = numpy.array(r)
    raises_like(lambda: numpy.histogram(x, 3, range=r),
                lambda: np.histogram(np.asarray(x), 3, range=np.asarray(r)))
    raises_like(lambda: numpy.histogram(x, 3, range=(r[0], r[1])),
                lambda: np.histogram(np.asarray(x), 3,
                                     range=(np.asarray(r[0]), np.asarray(r[1]))))
