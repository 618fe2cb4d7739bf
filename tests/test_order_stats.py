"""Order statistics: median, percentile, quantile (every method, weights=) and the NaN-skipping
variants, against NumPy on random data with duplicates, NaN, +-0 and +-inf; both routes (the
sort of rows, and the radix select of one long row); layouts, keepdims, out=, errors."""
import warnings

import numpy
import pytest

import npgpu as np
from npgpu.sorting import order_stats, select
from conftest import make_layout, raises_like

RNG = numpy.random.default_rng(1414)
REAL = [numpy.dtype(t) for t in ("?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2",
                                 "f4", "f8")]
# longer than the select threshold (one row of it takes the select route, rows the sort)
N_SELECT = max(select.SELECT_MIN, 8) + 5


def data(shape, dt, specials=True):
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return RNG.random(shape) > 0.5
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        h = RNG.integers(max(info.min, -50), min(info.max, 50), size=shape, endpoint=True)
        h = h.astype(dt)
    else:
        h = (RNG.standard_normal(shape) * 20).astype(dt)
    flat = h.reshape(-1)
    if flat.size >= 8:
        flat[1::4] = flat[0]                            # duplicates
        if specials and dt.kind == "f":
            flat[2:6] = [numpy.nan, -0.0, numpy.inf, -numpy.inf]
            flat[7] = 0.0
        RNG.shuffle(flat)
    return h


def same(got, want):
    got = got.get() if isinstance(got, np.ndarray) else numpy.asarray(got)
    want = numpy.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    numpy.testing.assert_array_equal(got, want)


def call_both(name, h, *args, **kw):
    """NumPy's result and npgpu's on the device copy of ``h`` (warnings of all-NaN slices and
    empty inputs are NumPy's, silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(numpy, name)(h, *args, **kw)
        got = getattr(np, name)(np.asarray(h), *args, **kw)
    return got, want


# ---- every dtype, both routes ------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", REAL, ids=str)
@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median_every_dtype(dt, name):
    for h, axis in ((data((3, 8), dt), 1), (data((3, 8), dt), 0), (data((N_SELECT,), dt), None),
                    (data((N_SELECT - 1,), dt), None), (data((2, 3, 4), dt), (0, 2))):
        same(*call_both(name, h, axis=axis))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [d for d in REAL if d.kind != "b"], ids=str)
@pytest.mark.parametrize("name", ["quantile", "nanpercentile"])
def test_quantile_every_dtype(dt, name):
    q = [0.0, 0.3, 0.5, 1.0]
    if name.endswith("percentile"):
        q = [v * 100 for v in q]
    for h, axis in ((data((3, 9), dt), 1), (data((N_SELECT,), dt), None)):
        same(*call_both(name, h, q, axis=axis))


@pytest.mark.parametrize("method", order_stats.METHODS)
def test_every_method(method):
    # q forms: weak float, list, float32 array (rounding in float32), 0-d float64 (not weak),
    # float16 array, integer q (an exact index for 'linear')
    qs = (0.37, [0.0, 0.1, 0.5, 0.9, 1.0], numpy.array([0.25, 0.61], numpy.float32),
          numpy.float64(0.5), numpy.array([0.3, 0.75], numpy.float16), 1)
    # every q form for an interpolating, a taking and an averaging method; a scalar and a list
    # for the others (each method x q dtype x route is a kernel for CI's PTX check, and the q
    # forms take the same template path for every method)
    if method not in ("linear", "nearest", "averaged_inverted_cdf"):
        qs = qs[:2]
    for h, axis in ((data((4, 7), "f4"), 1), (data((4, 7), "i2"), 0),
                    (data((N_SELECT,), "f8"), None)):
        for q in qs:
            if numpy.ndim(q) and numpy.size(q) > 2 and axis is None:
                q = q[:2]                          # at most 4 ranks: the select route
            same(*call_both("quantile", h, q, axis=axis, method=method))
            same(*call_both("nanquantile", h, q, axis=axis, method=method))


@pytest.mark.parametrize("method", ["linear", "lower", "nearest", "weibull"])
def test_select_many_quantiles_falls_back_to_sort(method):
    h = data((N_SELECT,), "f4")
    q = numpy.linspace(0, 1, 7)
    same(*call_both("quantile", h, q, method=method))


def test_nan_rows_and_all_nan():
    h = data((4, 9), "f8")
    h[1] = numpy.nan
    h[2, 3] = numpy.nan
    for name in ("median", "nanmedian"):
        same(*call_both(name, h, axis=1))
    for name in ("quantile", "nanquantile"):
        same(*call_both(name, h, [0.2, 0.9], axis=1, method="hazen"))
        same(*call_both(name, h, [0.2, 0.9], axis=1, method="lower"))
    for fill in (numpy.nan, numpy.inf):
        row = numpy.full(N_SELECT, fill)
        row[:3] = [1.0, -2.0, 5.0]
        for name in ("median", "nanmedian"):
            same(*call_both(name, row))
        same(*call_both("nanquantile", numpy.full(N_SELECT, numpy.nan), 0.5))


# ---- axes, keepdims, out=, layouts --------------------------------------------------------------
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (2, 0), (0, 1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_axes_and_keepdims(axis, keepdims):
    h = data((3, 4, 5), "f4")
    same(*call_both("median", h, axis=axis, keepdims=keepdims))
    same(*call_both("nanpercentile", h, [10, 90], axis=axis, keepdims=keepdims))


def test_out():
    h = data((4, 6), "f8")
    want = numpy.quantile(h, [0.25, 0.75], axis=1)
    out = np.empty(want.shape, want.dtype)
    assert np.quantile(np.asarray(h), [0.25, 0.75], axis=1, out=out) is out
    same(out, want)
    want = numpy.median(h, axis=0, keepdims=True)
    out = np.empty(want.shape, numpy.float32)               # cast into out's dtype
    np.median(np.asarray(h), axis=0, keepdims=True, out=out, overwrite_input=True)
    same(out, want.astype(numpy.float32))


@pytest.mark.parametrize("layout", ["transposed", "strided", "negative", "broadcast", "zero_d",
                                    "empty"])
def test_layouts(layout):
    h0 = data((5, 6), "f4")
    # the broadcast layout repeats the first row: a NaN first in it makes column 0 all NaN, where
    # NumPy's nanquantile dtype depends on the data (test_nanquantile_all_nan_first_slice_dtype)
    if numpy.isnan(h0[0, 0]):
        h0[0, 0] = 1.5
    d, h = make_layout(h0, layout)
    for axis in ([None] if h.ndim == 0 else [None, 0, -1]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name, args in (("median", ()), ("nanmedian", ()), ("nanquantile", ([0.5],)),
                               ("percentile", (40,))):
                try:
                    want = getattr(numpy, name)(h, *args, axis=axis)
                except IndexError:               # quantile of an empty axis
                    with pytest.raises(IndexError):
                        getattr(np, name)(d, *args, axis=axis)
                    continue
                same(getattr(np, name)(d, *args, axis=axis), want)


def test_nanquantile_all_nan_first_slice_dtype():
    """NumPy 2.4 gives float32 when the first slice it visits is all NaN, float64 otherwise (its
    apply_along_axis sizes the output from the first slice); npgpu's dtype does not depend on the
    data: float64 both ways (docs/order_stats.md, "Differences from NumPy"); the values agree."""
    h = numpy.broadcast_to(numpy.array([numpy.nan, 1, 2, 7], numpy.float32), (5, 4)).copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, q in (("nanquantile", [0.5]), ("nanpercentile", [40.0])):
            want = getattr(numpy, name)(h, q, axis=0)
            assert want.dtype == numpy.float32                # NumPy's data-dependent dtype
            assert getattr(numpy, name)(h[:, ::-1], q, axis=0).dtype == numpy.float64
            got = getattr(np, name)(np.asarray(h), q, axis=0)
            assert got.dtype == numpy.float64
            numpy.testing.assert_array_equal(got.get(), want.astype(numpy.float64))
            same(getattr(np, name)(np.asarray(h[:, ::-1]), q, axis=0),
                 getattr(numpy, name)(h[:, ::-1], q, axis=0))


def test_device_q_and_empty_q():
    h = data((3, 8), "f8")
    qd = np.asarray(numpy.array([0.1, 0.8]))
    same(np.quantile(np.asarray(h), qd, axis=1), numpy.quantile(h, [0.1, 0.8], axis=1))
    same(*call_both("quantile", h, numpy.zeros((0,)), axis=1))
    same(*call_both("quantile", h, numpy.array([[0.1, 0.2], [0.3, 1.0]]), axis=0))


# ---- weights (method='inverted_cdf') -------------------------------------------------------------
@pytest.mark.parametrize("dt", ["f4", "i4", "f8"])
@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_weights(dt, name):
    h = data((3, 7), dt)
    pct = 100 if name.endswith("percentile") else 1
    cases = [((3, 7), None), ((3, 7), 1), ((3, 7), (0, 1))]
    if not name.startswith("nan"):
        cases += [((7,), 1), ((3,), 0)]     # NumPy 2.4's nan* index these weights wrongly
    for wshape, axis in cases:
        # positive weights but a leading zero one (NumPy raises where a slice's weights are
        # all zero: a draw of zeros failed this test on the GPU machine)
        w = RNG.integers(1, 4, wshape).astype(float)
        w.reshape(-1)[0] = 0.0
        for q in (0.3, [0.0, 0.5, 1.0], numpy.float32(0.5)):
            q = numpy.asarray(q) * pct if pct != 1 else q
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = getattr(numpy, name)(h, q, axis=axis, method="inverted_cdf", weights=w)
            got = getattr(np, name)(np.asarray(h), q, axis=axis, method="inverted_cdf",
                                    weights=np.asarray(w))
            same(got, want)


def test_weight_errors():
    h = data((3, 5), "f8")
    d = np.asarray(h)
    for w, kw in ((-numpy.ones((3, 5)), {}), (numpy.zeros((3, 5)), {}),
                  (numpy.full((3, 5), numpy.inf), {}), (numpy.ones(5), {}),
                  (numpy.ones(4), {"axis": 1}), (numpy.ones((3, 5)), {"method": "linear"})):
        kw.setdefault("method", "inverted_cdf")
        raises_like(lambda: numpy.quantile(h, 0.5, weights=w, **kw),
                    lambda: np.quantile(d, 0.5, weights=np.asarray(w), **kw))


# ---- errors ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda m, x: m.quantile(x, 1.5),
    lambda m, x: m.quantile(x, [0.5, -0.1]),
    lambda m, x: m.percentile(x, [10, 101]),
    lambda m, x: m.nanpercentile(x, -1),
    lambda m, x: m.quantile(x, 0.5, method="foo"),
    lambda m, x: m.quantile(x, 0.5, axis=2),
    lambda m, x: m.median(x, axis=(0, 0)),
    lambda m, x: m.quantile(x.astype(complex), 0.5),
    lambda m, x: m.quantile(x > 0, 0.5),
    lambda m, x: m.quantile(x, numpy.zeros((2, 2, 2))),
    lambda m, x: m.quantile(x[:0], 0.5),
])
def test_errors(call):
    h = data((3, 5), "f8")
    raises_like(lambda: call(numpy, h), lambda: call(np, np.asarray(h)))


def test_numpy_dispatch():
    h = data((3, 6), "f4")
    d = np.asarray(h)
    assert isinstance(numpy.median(d, axis=1), np.ndarray)
    same(numpy.percentile(d, 30, axis=0), numpy.percentile(h, 30, axis=0))


def test_float16_q_rounds_the_index_as_numpy():
    """With a float16 q, NumPy rounds n * q, the differences and floor + 1 to float16: once
    the index passes 2048, floor + 1 rounds (found on the H200 at 2^15 + 5 elements)."""
    h = data((4501,), "f8")
    q = numpy.array([0.3, 0.61, 0.75, 0.9], numpy.float16)
    for method in ("inverted_cdf", "closest_observation", "averaged_inverted_cdf", "linear",
                   "hazen", "nearest"):
        same(*call_both("nanquantile", h, q, method=method))
        same(*call_both("quantile", h[~numpy.isnan(h)], q, method=method))


@pytest.mark.parametrize("dt", ["c8", "c16"])
def test_complex_median(dt):
    """NumPy's median of complex numbers is complex (the mean of the middle two in
    lexicographic order); with a NaN in a row, the NaN element that sorts last."""
    h = (RNG.standard_normal((4, 7)) + 1j * RNG.integers(-2, 3, (4, 7))).astype(dt)
    h[1, 2] = complex(numpy.nan, 0)
    h[2, 5] = complex(1, numpy.nan)
    h[3, 0], h[3, 6] = complex(numpy.nan, numpy.nan), complex(2, numpy.nan)
    for axis in (1, None):
        same(*call_both("median", h, axis=axis))
    same(*call_both("median", h[:, :6], axis=1))
    same(*call_both("median", h[0], axis=0))


def test_quantile_out_takes_same_kind_casting():
    # quantile / percentile add into out= (NumPy's UFuncTypeError for an integer out); the
    # nan* forms and median copy into it
    from conftest import error_of
    h = numpy.arange(12.).reshape(3, 4)
    for name, q in (("quantile", 0.5), ("percentile", 50), ("nanquantile", 0.5),
                    ("nanpercentile", 50), ("median", None)):
        args = () if q is None else (q,)
        for od in ("i8", "f4", "f8"):
            want = error_of(lambda: getattr(numpy, name)(h, *args, axis=1,
                                                         out=numpy.zeros(3, od)))
            got = error_of(lambda: getattr(np, name)(np.asarray(h), *args, axis=1,
                                                     out=np.zeros(3, od)))
            assert got == want, (name, od)


@pytest.mark.parametrize("dt", ["f2", "f4", "f8"])
def test_median_of_negative_zeros_is_positive_zero(dt):
    # NumPy's median is a mean, summed from +0.0: -0.0 never comes back (odd and even counts,
    # the sorted and the select paths, nanmedian with NaNs skipped)
    for n in (1, 2, 3, 4, select.SELECT_MIN + 1):
        h = numpy.full(n, -0.0, dt)
        h2 = numpy.concatenate([h, numpy.array([numpy.nan], dt)])
        for name, x in (("median", h), ("nanmedian", h), ("nanmedian", h2)):
            want = getattr(numpy, name)(x)
            got = getattr(np, name)(np.asarray(x)).get()
            assert want == got and numpy.signbit(want) == numpy.signbit(got), (name, n)
