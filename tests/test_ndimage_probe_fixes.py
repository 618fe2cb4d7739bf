"""Regressions from a probe of npgpu.scipy.ndimage against SciPy: spline prefilter outputs and
boundary, measurements with complex input and label sequences, binary morphology outputs
(tiny random arrays: the simulator interprets every kernel)."""
import warnings

import numpy
import pytest
import scipy.ndimage as snd

import npgpu as gp
import npgpu.scipy.ndimage as gnd

rng = numpy.random.default_rng(2024)
F = rng.standard_normal((5, 7)) * 10
F32 = (rng.standard_normal((5, 7)) * 10).astype(numpy.float32)
C = rng.standard_normal((5, 7)) + 1j * rng.standard_normal((5, 7))
LAB = rng.integers(0, 5, (5, 7))
B = rng.random((6, 7)) > 0.45


def _dev(v):
    return gp.asarray(v) if isinstance(v, numpy.ndarray) else v


def _call(mod, name, *args, **kw):
    if mod is gnd:
        args = [_dev(a) for a in args]
        kw = {k: _dev(v) for k, v in kw.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(mod, name)(*args, **kw)


def _same_error(name, *args, **kw):
    with pytest.raises(Exception) as se:
        _call(snd, name, *args, **kw)
    with pytest.raises(Exception) as ge:
        _call(gnd, name, *args, **kw)
    assert type(ge.value) is type(se.value)
    assert str(ge.value) == str(se.value)


def _host(v):
    if isinstance(v, (tuple, list)):
        return type(v)(_host(i) for i in v)
    return v.get() if isinstance(v, gp.ndarray) else v


def _check(got, want, tol):
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w, tol)
        return
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def _same_result(name, *args, tol=1e-12, **kw):
    _check(_host(_call(gnd, name, *args, **kw)), _call(snd, name, *args, **kw), tol)


# ---- 1. spline_filter / spline_filter1d outputs -----------------------------------------------
@pytest.mark.parametrize("name", ["spline_filter", "spline_filter1d"])
@pytest.mark.parametrize("output", [numpy.float32, numpy.int16, numpy.uint8, numpy.bool_,
                                    "float32", numpy.complex64])
def test_spline_output_dtypes(name, output):
    x = F * 20                  # values past 255: the integer and bool stores truncate
    if numpy.dtype(output).kind == "c":
        _same_error(name, x, output=output)      # real input, complex output: SciPy's C error
        _same_result(name, C, output=output, tol=1e-5)
    else:
        _same_result(name, x, output=output, tol=1e-4)


@pytest.mark.parametrize("name", ["spline_filter", "spline_filter1d"])
def test_spline_output_arrays(name):
    for dt in ("f4", "i4", "?"):
        want = numpy.full(F.shape, 3, dt)
        got = gp.full(F.shape, 3, dt)
        r = gnd.__dict__[name](gp.asarray(F), output=got)
        assert r is got
        snd.__dict__[name](F, output=want)
        numpy.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5)
    _same_error(name, F, output=numpy.zeros((7, 5)))
    _same_error(name, F, output=numpy.zeros(F.shape, numpy.float16))
    _same_error(name, F, output=numpy.zeros(F.shape, numpy.complex128))
    _same_error(name, F, output="bool")
    _same_error(name, C, output=numpy.zeros(F.shape))
    _same_error(name, C, output="float64")
    want = numpy.zeros(F.shape, numpy.complex64)
    got = gp.zeros(F.shape, numpy.complex64)
    snd.__dict__[name](C, output=want)
    gnd.__dict__[name](gp.asarray(C), output=got)
    numpy.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kw", [dict(order=6), dict(order=-1), dict(order=2.5),
                                dict(mode="bogus"), dict(order=1.5, axis=0)])
def test_spline_bad_arguments(kw):
    _same_error("spline_filter1d", F, **kw)
    kw.pop("axis", None)
    _same_error("spline_filter", F, **kw)


@pytest.mark.parametrize("order", [0, 1])
def test_spline_low_orders_copy(order):
    _same_result("spline_filter1d", F32, order=order, output=numpy.int8)
    _same_result("spline_filter1d", F, order=order, mode="bogus")


# ---- 2. the reflect family's prefilter (grid-mirror, reflect, nearest) ---------------------------
def _scipy_sums_in_place():
    """SciPy before scipy/scipy#24615 summed the reflect family's causal start into c[0] in
    place: short lines came out wrong (the coefficients no longer interpolate the samples).
    npgpu gives the corrected sum; against such a SciPy the tests check the interpolation
    identity and give SciPy npgpu's coefficients instead of its own."""
    x = numpy.array([1.0, -2.0, 3.0])
    c = snd.spline_filter1d(x, order=3, mode="reflect")
    back = snd.map_coordinates(c, numpy.arange(3.0)[None], order=3, mode="reflect",
                               prefilter=False)
    return not numpy.allclose(back, x, rtol=0, atol=1e-12)


SCIPY_IN_PLACE = _scipy_sums_in_place()


@pytest.mark.parametrize("order", [2, 3, 4, 5])
@pytest.mark.parametrize("mode", ["grid-mirror", "reflect", "nearest"])
def test_spline_reflect_prefilter(order, mode):
    if not SCIPY_IN_PLACE:
        _same_result("spline_filter", F, order=order, mode=mode)
        _same_result("spline_filter1d", F, order=order, mode=mode, axis=0)
        _same_result("spline_filter1d", F32, order=order, mode=mode, output=numpy.float32,
                     tol=1e-5)
    if mode == "nearest" and order > 3:
        return          # nearest's edge: the spline of order 4-5 does not pass the samples
    # the coefficients interpolate the samples, on short lines too (2 and 5 long)
    for x in (F, F[:2]):
        c = _host(gnd.spline_filter(gp.asarray(x), order=order, mode=mode))
        grid = numpy.indices(x.shape, dtype=numpy.float64)
        back = snd.map_coordinates(c, grid, order=order, mode=mode, prefilter=False)
        numpy.testing.assert_allclose(back, x, rtol=0, atol=1e-11)


def _same_interpolation(name, x, *args, order, mode, tol=1e-12, **kw):
    """``_same_result`` of a prefiltering interpolation; against a SciPy that sums the causal
    start in place, SciPy interpolates npgpu's (corrected) coefficients."""
    got = _host(_call(gnd, name, x, *args, order=order, mode=mode, **kw))
    if SCIPY_IN_PLACE and mode in ("grid-mirror", "reflect", "nearest"):
        x = _host(gnd.spline_filter(gp.asarray(x), order=order, mode=mode))
        kw["prefilter"] = False
    _check(got, _call(snd, name, x, *args, order=order, mode=mode, **kw), tol)


@pytest.mark.parametrize("order", [3, 5])
def test_interpolation_grid_mirror(order):
    x = F[:, :6]
    c = rng.uniform(-3, 9, (2, 6))
    _same_interpolation("map_coordinates", x, c, order=order, mode="grid-mirror")
    _same_interpolation("zoom", x, 1.4, order=order, mode="grid-mirror", grid_mode=True)
    _same_interpolation("shift", x, (0.3, -1.7), order=order, mode="grid-mirror")
    _same_interpolation("rotate", x, 23, order=order, mode="grid-mirror", tol=1e-11)
    _same_interpolation("affine_transform", x, numpy.array([[0.9, 0.2], [-0.1, 1.1]]),
                        offset=(0.5, -0.4), order=order, mode="reflect")


def test_interpolation_bool_output():
    # SciPy stores the double into an npy_bool byte: the truncated low byte (-7.9 -> True,
    # 256.5 -> False)
    x = F[:, :6] * 30
    _same_result("zoom", x, 1.5, order=1, output=numpy.bool_)
    _same_result("shift", x, 0.4, order=3, output=numpy.bool_)


# ---- 3. measurements: complex input and label sequences ------------------------------------------
INDEXES = [None, 2, [1, 2, 3], numpy.array([[4, 1], [0, 7]]), (2, 3), [], [2.0, 3.5]]


@pytest.mark.parametrize("index", INDEXES)
@pytest.mark.parametrize("name", ["minimum", "maximum", "extrema"])
def test_min_max_complex(name, index):
    _same_result(name, C, LAB, index)
    _same_result(name, C.astype(numpy.complex64), LAB, index, tol=1e-6)


@pytest.mark.parametrize("index", INDEXES)
@pytest.mark.parametrize("name", ["minimum", "maximum", "extrema", "sum_labels", "mean",
                                  "variance", "standard_deviation"])
def test_measurements_float_index(name, index):
    # integer labels in 0..size: SciPy truncates the index (3.5 selects label 3)
    _same_result(name, F, LAB, index)
    # float labels: remapped, the index compared exactly (3.5 matches nothing)
    _same_result(name, F, LAB + 0.5 * (LAB == 3), index)


@pytest.mark.parametrize("name", ["sum_labels", "mean", "variance", "standard_deviation",
                                  "center_of_mass"])
def test_stats_complex_and_0d_index(name):
    _same_result(name, C, LAB, None)
    _same_result(name, C, LAB, 2)
    _same_error(name, C, LAB, [1, 2])           # bincount's error for complex weights
    _same_error(name, F, LAB, numpy.array(2))   # SciPy assigns into a NumPy scalar
    _same_error(name, C, LAB, numpy.array(2))


@pytest.mark.parametrize("name", ["minimum", "maximum", "extrema"])
def test_select_0d_index(name):
    got = _host(_call(gnd, name, F, LAB, numpy.array(3)))
    want = _call(snd, name, F, LAB, numpy.array(3))
    _check(got if name == "extrema" else got[()], want, 1e-12)


# ---- 4. binary morphology outputs ----------------------------------------------------------------
BINARY = ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing",
          "binary_fill_holes", "binary_hit_or_miss", "binary_propagation"]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("output", [numpy.float32, numpy.int8, "float32", numpy.complex64])
def test_binary_output_dtype_ignored(name, output):
    _same_result(name, B, output=output)         # SciPy returns bool whatever dtype is asked


@pytest.mark.parametrize("name", BINARY)
def test_binary_output_arrays(name):
    x = B.astype(numpy.float64) * rng.integers(1, 4, B.shape)
    for dt in ("f4", "i8", "u2", "?"):
        want = numpy.full(x.shape, 7, dt)
        got = gp.full(x.shape, 7, dt)
        rw = snd.__dict__[name](x, output=want)
        rg = gnd.__dict__[name](gp.asarray(x), output=got)
        assert (rg is None) if rw is None else (rg is got)
        numpy.testing.assert_array_equal(got.get(), want)
    _same_error(name, x, output=numpy.zeros(x.shape, numpy.float16))
    _same_error(name, x, output=numpy.zeros(x.shape, numpy.complex64))
    _same_error(name, x, output=numpy.zeros((7, 6), numpy.float32))


def test_binary_hit_or_miss_and_propagation():
    s1 = numpy.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
    s2 = numpy.array([[1, 0, 0], [0, 0, 0], [0, 0, 1]], bool)
    _same_result("binary_hit_or_miss", B, s1, s2)
    _same_result("binary_hit_or_miss", B, s1, s2, origin1=(0, 1), origin2=(-1, 0))
    _same_result("binary_hit_or_miss", B, numpy.ones((3, 3), bool))
    _same_result("binary_hit_or_miss", B, s1[:, :2], origin1=-1)
    m = rng.random(B.shape) > 0.3
    _same_result("binary_propagation", B & (rng.random(B.shape) > 0.8), mask=m)
    _same_result("binary_propagation", B & (rng.random(B.shape) > 0.8), mask=m,
                 border_value=1, structure=numpy.ones((3, 3), bool))
    _same_error("binary_hit_or_miss", B.astype(complex))
    _same_error("binary_propagation", B.astype(complex))


# --- minimum_position / maximum_position ---------------------------------------------------------
@pytest.mark.parametrize("fn", ["minimum_position", "maximum_position"])
@pytest.mark.parametrize("dt", [numpy.float64, numpy.int16, numpy.uint8])
@pytest.mark.parametrize("index", [None, 2, [1, 3, 7, 2], numpy.array(3), "unlabelled"])
def test_extreme_positions(fn, dt, index):
    rng = numpy.random.default_rng(41)
    # distinct values: SciPy's positions of ties under a sequence index come from NumPy's
    # unstable argsort (npgpu gives the first occurrence, as SciPy does for one label)
    x = (rng.standard_normal((6, 7)) * 40).astype(dt) if dt == numpy.float64 else \
        rng.permutation(250)[:42].reshape(6, 7).astype(dt)
    lab = rng.integers(0, 4, (6, 7))
    args = (None,) if index == "unlabelled" else (lab, index)
    want = getattr(snd, fn)(x, *args)
    got = getattr(gnd, fn)(gp.asarray(x), *(a if not isinstance(a, numpy.ndarray) or a.ndim == 0
                                               else gp.asarray(a) for a in args))
    assert got == want
