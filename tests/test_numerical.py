"""Numerical routines: nan_to_num, real_if_close, interp, convolve, correlate, trapezoid,
gradient, polyval, vander -- against NumPy on random data, every dtype they take, NaN / inf,
layouts, 0-d and empty inputs, NumPy's errors."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import (ALL_DTYPES, assert_matches, assert_same, full_range_random, make_layout,
                      raises_like)

RNG = numpy.random.default_rng(1305)


def rand(shape, dt, limit=100):
    return full_range_random(shape, dt, RNG, int_limit=limit)


def specials(h):
    h = h.copy()
    flat = h.reshape(-1)
    if h.dtype.kind in "fc" and flat.size >= 4:
        flat[:4] = [numpy.nan, numpy.inf, -numpy.inf, -0.0]
        if h.dtype.kind == "c" and flat.size >= 7:
            flat[4:7] = [complex(numpy.inf, numpy.nan), complex(1, -numpy.inf),
                         complex(numpy.nan, 2)]
    return h


# ---- nan_to_num -------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_nan_to_num_every_dtype(dt):
    h = specials(rand((4, 6), dt))
    assert_same(np.nan_to_num(np.asarray(h)), numpy.nan_to_num(h))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # NumPy warns when 1e300 overflows a float32 copy
        want = numpy.nan_to_num(h, nan=-1.5, posinf=1e300, neginf=-7)
    assert_same(np.nan_to_num(np.asarray(h), nan=-1.5, posinf=1e300, neginf=-7), want)


@pytest.mark.parametrize("layout", ["transposed", "negative", "strided", "zero_d", "empty"])
def test_nan_to_num_layouts_and_copy(layout):
    d, h = make_layout(specials(rand((4, 5), "c16")), layout)
    assert_same(np.nan_to_num(d), numpy.asarray(numpy.nan_to_num(h)))
    # copy=False writes into the array itself
    g = np.asarray(specials(rand(8, "f4")))
    want = numpy.nan_to_num(g.get())
    res = np.nan_to_num(g, copy=False)
    assert res is g
    assert_same(g, want)
    # copy=True leaves the input alone
    g = np.asarray(specials(rand(8, "f2")))
    before = g.get()
    assert_same(np.nan_to_num(g), numpy.nan_to_num(before))
    assert_same(g, before)
    assert_same(np.nan_to_num([1.0, numpy.nan]), numpy.nan_to_num([1.0, numpy.nan]))


# ---- real_if_close ----------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_real_if_close(dt):
    h = rand(12, dt)
    if dt.kind == "c":
        small = (h.real + 1j * numpy.finfo(dt).eps * 10).astype(dt)
        for x, tol in ((h, 100), (small, 100), (small, 5), (small, 1e-3), (small, 0.5)):
            got, want = np.real_if_close(np.asarray(x), tol=tol), numpy.real_if_close(x, tol=tol)
            assert_same(got, want)
    else:
        assert_same(np.real_if_close(np.asarray(h)), numpy.real_if_close(h))


# ---- interp -----------------------------------------------------------------------------------
def interp_points(m, cplx=False):
    xp = numpy.sort(RNG.uniform(-5, 5, m))
    fp = RNG.standard_normal(m) * 10
    if cplx:
        fp = fp + 1j * RNG.standard_normal(m)
    return xp, fp


@pytest.mark.parametrize("xdt", [d for d in ALL_DTYPES if d.kind != "c"], ids=str)
def test_interp_x_dtypes(xdt):
    xp, fp = interp_points(9)
    x = rand(30, xdt, limit=7)
    assert_same(np.interp(np.asarray(x), np.asarray(xp), np.asarray(fp)), numpy.interp(x, xp, fp))


@pytest.mark.parametrize("cplx", [False, True])
@pytest.mark.parametrize("m", [1, 2, 3, 5, 40])
def test_interp_edges_nan_inf(cplx, m):
    xp, fp = interp_points(m, cplx)
    x = RNG.uniform(-7, 7, 50)
    x[:m] = xp                                  # exactly at the sample points
    x[-4:] = [numpy.nan, numpy.inf, -numpy.inf, xp[-1]]
    for kw in ({}, {"left": -100, "right": 100}, {"left": 2.5}, {"right": numpy.nan}):
        if cplx and kw:
            kw = {k: v + 1j for k, v in kw.items()}
        assert_same(np.interp(np.asarray(x), xp, fp, **kw), numpy.interp(x, xp, fp, **kw))
    # infinite and NaN samples: NumPy's fall-backs (the other end, the equal ends)
    fp2 = fp.copy()
    if m >= 3:
        fp2[1] = numpy.inf
        fp2[2] = numpy.inf
    with numpy.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = numpy.interp(x, xp, fp2)
        got = np.interp(np.asarray(x), xp, fp2)
    assert_same(got, want)


def test_interp_layouts_and_types():
    xp, fp = interp_points(12)
    h = RNG.uniform(-6, 6, (5, 6))
    for layout in ("transposed", "negative", "strided", "zero_d", "empty"):
        d, hh = make_layout(h, layout)
        assert_same(np.interp(d, xp, fp), numpy.asarray(numpy.interp(hh, xp, fp)))
    assert_same(np.interp(2.5, xp.tolist(), fp.tolist()), numpy.asarray(numpy.interp(2.5, xp, fp)))
    xpd = np.asarray(numpy.repeat(xp, 2))[::2]             # non-contiguous sample points
    assert_same(np.interp(np.asarray(h), xpd, np.asarray(fp.astype("f4"))),
                numpy.interp(h, xp, fp.astype("f4")))
    assert_same(np.interp(np.asarray(h), xp, fp.astype("c8")), numpy.interp(h, xp, fp.astype("c8")))


@pytest.mark.parametrize("cplx", [False, True])
def test_interp_period(cplx):
    xp = RNG.uniform(-400, 400, 11)               # unsorted, spanning several periods
    fp = RNG.standard_normal(11) + (1j * RNG.standard_normal(11) if cplx else 0)
    x = RNG.uniform(-1000, 1000, 40)
    x[:3] = [numpy.nan, xp[0], xp[0] + 360]
    for period in (360, -360.0, 7.5):
        assert_matches(np.interp(np.asarray(x), np.asarray(xp), np.asarray(fp), period=period,
                                 left=5),
                       numpy.interp(x, xp, fp, period=period, left=5), rtol=1e-12, atol=1e-12)


def test_interp_errors():
    xp, fp = interp_points(4)
    x = numpy.array([0.5])
    raises_like(lambda: numpy.interp(x, [], []), lambda: np.interp(np.asarray(x), [], []))
    raises_like(lambda: numpy.interp(x, xp, fp[:3]), lambda: np.interp(np.asarray(x), xp, fp[:3]))
    raises_like(lambda: numpy.interp(x, xp, fp, period=0),
                lambda: np.interp(np.asarray(x), xp, fp, period=0))
    raises_like(lambda: numpy.interp(x, xp, fp[:3], period=2),
                lambda: np.interp(np.asarray(x), xp, fp[:3], period=2))
    raises_like(lambda: numpy.interp(x, xp[None], fp[None], period=2),
                lambda: np.interp(np.asarray(x), xp[None], fp[None], period=2))
    raises_like(lambda: numpy.interp(x + 1j, xp, fp), lambda: np.interp(np.asarray(x + 1j), xp, fp))
    raises_like(lambda: numpy.interp(x, numpy.zeros((2, 2)), fp),
                lambda: np.interp(np.asarray(x), np.zeros((2, 2)), fp))


# ---- convolve / correlate ---------------------------------------------------------------------
def _tol(dt):
    # NumPy sums floats in BLAS order: allow a few ulps of the sum's magnitude
    return {"e": 2e-2, "f": 1e-4, "d": 1e-11, "F": 1e-4, "D": 1e-11}.get(dt.char, 0)


def assert_sum_close(got, want):
    got_h = got.get()
    assert got_h.dtype == want.dtype and got_h.shape == want.shape
    tol = _tol(want.dtype)
    if tol == 0:
        numpy.testing.assert_array_equal(got_h, want)
    else:
        scale = max(1.0, float(numpy.max(numpy.abs(want.astype("c16")))) if want.size else 1.0)
        numpy.testing.assert_allclose(got_h, want, rtol=tol, atol=tol * scale)


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_correlate_every_dtype(dt, mode):
    a, v = rand(13, dt, limit=20), rand(4, dt, limit=20)
    if dt.kind in "iu" and dt.itemsize == 1:
        a, v = rand(13, dt), rand(4, dt)           # products that wrap
    for x, y in ((a, v), (v, a), (a, a[::-1])):
        assert_sum_close(np.convolve(np.asarray(x), np.asarray(y), mode), numpy.convolve(x, y, mode))
        assert_sum_close(np.correlate(np.asarray(x), np.asarray(y), mode),
                         numpy.correlate(x, y, mode))


@pytest.mark.parametrize("pair", [("i1", "u1"), ("f4", "c8"), ("b1", "i2"), ("u8", "f2"),
                                  ("c16", "f4")], ids=str)
def test_convolve_correlate_mixed_dtypes_layouts(pair):
    a, v = rand(20, pair[0], limit=10), rand(7, pair[1], limit=10)
    da = np.asarray(numpy.repeat(a, 2))[::2]            # strided
    dv = np.asarray(v[::-1].copy())[::-1]               # negative stride
    for mode in ("full", "same", "valid", 0, 1, 2):
        assert_sum_close(np.convolve(da, dv, mode), numpy.convolve(a, v, mode))
        assert_sum_close(np.correlate(dv, da, mode), numpy.correlate(v, a, mode))
        assert_sum_close(np.correlate(da, dv, mode), numpy.correlate(a, v, mode))
    assert_sum_close(np.convolve(3, v.tolist()), numpy.convolve(3, v.tolist()))
    assert_sum_close(np.convolve(np.asarray(numpy.float32(2)), np.asarray(v)),
                     numpy.convolve(numpy.float32(2), v))


def test_convolve_correlate_errors():
    a, v = numpy.arange(5.0), numpy.arange(2.0)
    for f, g in ((numpy.convolve, np.convolve), (numpy.correlate, np.correlate)):
        raises_like(lambda: f(a, v, "foo"), lambda: g(np.asarray(a), np.asarray(v), "foo"))
        raises_like(lambda: f(a, v, None), lambda: g(np.asarray(a), np.asarray(v), None))
        raises_like(lambda: f(a, [], "full"), lambda: g(np.asarray(a), np.zeros(0), "full"))
        raises_like(lambda: f([], v, "full"), lambda: g(np.zeros(0), np.asarray(v), "full"))
        raises_like(lambda: f(numpy.zeros((2, 2)), v), lambda: g(np.zeros((2, 2)), np.asarray(v)))
    raises_like(lambda: numpy.correlate(numpy.float64(2), v),
                lambda: np.correlate(np.asarray(numpy.float64(2)), np.asarray(v)))


# ---- trapezoid --------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", [d for d in ALL_DTYPES if d.kind != "b"], ids=str)
def test_trapezoid_dtypes(dt):
    y = rand((5, 7), dt, limit=20)
    for kw in ({}, {"dx": 0.5}, {"axis": 0}, {"dx": 2, "axis": -2}):
        want = numpy.trapezoid(y, **kw)
        # the final sum's order differs from NumPy's (float16: npgpu accumulates in float32)
        atol = 1e-2 * float(numpy.abs(want).max()) if dt.char == "e" else None
        assert_matches(np.trapezoid(np.asarray(y), **kw), want, atol=atol)


def test_trapezoid_sample_points_layouts():
    y = rand((6, 8), "f8")
    x1 = numpy.sort(RNG.uniform(0, 10, 8))
    x0 = numpy.sort(RNG.uniform(0, 10, 6))
    x2 = numpy.sort(RNG.uniform(0, 10, (6, 8)), axis=0)
    assert_matches(np.trapezoid(np.asarray(y), np.asarray(x1)), numpy.trapezoid(y, x1))
    assert_matches(np.trapezoid(np.asarray(y), x0, axis=0), numpy.trapezoid(y, x0, axis=0))
    assert_matches(np.trapezoid(np.asarray(y), np.asarray(x2), axis=0),
                   numpy.trapezoid(y, x2, axis=0))
    assert_matches(np.trapezoid(np.asarray(y.T.copy()).T), numpy.trapezoid(y))
    assert_matches(np.trapezoid(np.asarray(y)[::-1, ::2]), numpy.trapezoid(y[::-1, ::2]))
    assert_matches(np.trapezoid(y[0].tolist()), numpy.trapezoid(y[0].tolist()))
    assert_matches(np.trapezoid(np.zeros(0)), numpy.trapezoid(numpy.zeros(0)))
    assert_matches(np.trapezoid(np.asarray(y[:1])), numpy.trapezoid(y[:1]))


# ---- gradient ---------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", [d for d in ALL_DTYPES if d.kind != "b"], ids=str)
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_dtypes(dt, edge_order):
    f = rand((5, 6), dt, limit=50)
    want = numpy.gradient(f, edge_order=edge_order)
    got = np.gradient(np.asarray(f), edge_order=edge_order)
    for g, w in zip(got, want):
        assert_same(g, w)


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_spacings(edge_order):
    f = rand((6, 5, 4), "f8")
    xs = [numpy.sort(RNG.uniform(0, 10, n)) for n in f.shape]
    uniform = numpy.arange(6) * 0.5                                 # constant step: the scalar route
    cases = [((2.0,), {}), ((0.5, 2, numpy.float32(3)), {}), (tuple(xs), {}),
             ((xs[1],), {"axis": 1}), ((uniform, 1.5), {"axis": (0, 2)}),
             ((numpy.arange(4),), {"axis": -1}), ((), {"axis": (2, 0)})]
    for args, kw in cases:
        want = numpy.gradient(f, *args, edge_order=edge_order, **kw)
        got = np.gradient(np.asarray(f), *[np.asarray(a) if isinstance(a, numpy.ndarray) else a
                                           for a in args], edge_order=edge_order, **kw)
        if isinstance(want, numpy.ndarray):
            want, got = [want], [got]
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)


def test_gradient_float32_coordinates_layouts():
    f = rand((7, 5), "f4")
    x = numpy.sort(RNG.uniform(0, 3, 7)).astype("f4")
    for g, w in zip(np.gradient(np.asarray(f), np.asarray(x), 1.0),
                    numpy.gradient(f, x, 1.0)):
        assert_same(g, w)
    for g, w in zip(np.gradient(np.asarray(f.T.copy()).T[::-1]), numpy.gradient(f[::-1])):
        assert_same(g, w)
    assert_same(np.gradient(np.asarray(f[:, 0])), numpy.gradient(f[:, 0]))
    assert_same(np.gradient(f[:, 0].tolist()), numpy.gradient(f[:, 0].tolist()))


def test_gradient_errors():
    f = numpy.zeros((3, 4))
    d = np.asarray(f)
    raises_like(lambda: numpy.gradient(f, 1, 2, 3), lambda: np.gradient(d, 1, 2, 3))
    raises_like(lambda: numpy.gradient(f, numpy.zeros((3, 1)), 1),
                lambda: np.gradient(d, np.zeros((3, 1)), 1))
    raises_like(lambda: numpy.gradient(f, numpy.arange(4.0), 1),
                lambda: np.gradient(d, np.arange(4.0), 1))
    raises_like(lambda: numpy.gradient(f, edge_order=3), lambda: np.gradient(d, edge_order=3))
    raises_like(lambda: numpy.gradient(f[:2], edge_order=2), lambda: np.gradient(d[:2], edge_order=2))
    raises_like(lambda: numpy.gradient(f, axis=2), lambda: np.gradient(d, axis=2))


# ---- polyval ----------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("xdt", ALL_DTYPES, ids=str)
def test_polyval_x_dtypes(xdt):
    x = rand((3, 5), xdt, limit=4)
    for pdt in ("i8", "f4", "c16", "u1", "b1"):
        p = rand(5, pdt, limit=4)
        with numpy.errstate(all="ignore"):
            want = numpy.polyval(p, x)
        # complex products: NumPy's SIMD loops may round differently in the last bit
        check = assert_matches if want.dtype.kind == "c" else assert_same
        check(np.polyval(np.asarray(p), np.asarray(x)), want)


def test_polyval_forms():
    p = [3.0, -2, 0.5, numpy.nan]
    x = specials(rand(10, "f8"))
    with numpy.errstate(all="ignore"):
        assert_same(np.polyval(p, np.asarray(x)), numpy.polyval(p, x))
        assert_same(np.polyval(np.asarray(p)[::-1], np.asarray(x)[::2]),
                    numpy.polyval(p[::-1], x[::2]))
    assert_same(np.polyval([1, 2, 3], 2), numpy.asarray(numpy.polyval([1, 2, 3], 2)))
    assert_same(np.polyval([], np.asarray(x)), numpy.polyval([], x))
    assert_same(np.polyval([2.5], np.zeros((0, 3), "f4")), numpy.polyval([2.5], numpy.zeros((0, 3), "f4")))
    p2 = rand((3, 4), "f8")                      # rows of coefficients broadcast (NumPy's loop)
    with numpy.errstate(all="ignore"):
        assert_same(np.polyval(np.asarray(p2), np.asarray(x[:4])), numpy.polyval(p2, x[:4]))
    raises_like(lambda: numpy.polyval(numpy.array(3), 2), lambda: np.polyval(np.asarray(3), 2))


# ---- vander -----------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_vander_dtypes(dt):
    x = rand(6, dt, limit=9)
    for N, inc in ((None, False), (4, True), (1, False), (0, True), (8, False)):
        with numpy.errstate(all="ignore"):
            want = numpy.vander(x, N, increasing=inc)
        check = assert_matches if want.dtype.kind == "c" else assert_same
        check(np.vander(np.asarray(x), N, increasing=inc), want)


def test_vander_layouts_errors():
    x = specials(rand(8, "f8"))
    assert_same(np.vander(np.asarray(x)[::-2]), numpy.vander(x[::-2]))
    assert_same(np.vander([1, 2, 3]), numpy.vander([1, 2, 3]))
    assert_same(np.vander(np.zeros(0)), numpy.vander(numpy.zeros(0)))
    raises_like(lambda: numpy.vander(numpy.zeros((2, 2))), lambda: np.vander(np.zeros((2, 2))))
    raises_like(lambda: numpy.vander(numpy.zeros(2), -1), lambda: np.vander(np.zeros(2), -1))
