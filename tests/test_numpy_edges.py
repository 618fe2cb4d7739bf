"""Edges where NumPy 2 has a precise answer, checked against NumPy: comparisons with Python ints
outside the array's dtype (NEP 50), integer powers with negative exponents, the range edges of
the transcendental ufuncs (one table row per edge), creation functions' default dtypes, and the
``numpy.linalg`` Array API signatures (last two axes, keyword-only options, pinv's rtol), complex
exp/sinh/cosh past the real overflow threshold, and negative integer powers in ``power``'s
methods and fused functions."""
import operator
import warnings

import numpy as np
import pytest

import npgpu
from conftest import random_array

_INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
_CMP = ["less", "less_equal", "greater", "greater_equal", "equal", "not_equal"]
_PY_OPS = {"less": operator.lt, "less_equal": operator.le, "greater": operator.gt,
           "greater_equal": operator.ge, "equal": operator.eq, "not_equal": operator.ne}


def _outcome(f):
    """A call's result on the host, or its exception's type and message."""
    try:
        r = f()
    except Exception as e:   # noqa: BLE001 - the exception is the outcome compared
        return type(e), str(e)
    return r.get() if isinstance(r, npgpu.ndarray) else np.asarray(r)


def _same_outcome(got, expected):
    if isinstance(expected, tuple):
        assert got == expected
        return
    assert not isinstance(got, tuple), got
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if got.dtype.kind in "fc":
        # float results (e.g. ``** -1.0``): libdevice's pow and NumPy's may differ in the last ulp;
        # inf/NaN positions must match exactly (assert_allclose checks them)
        np.testing.assert_allclose(got, expected, rtol=4 * np.finfo(got.dtype).eps, atol=0)
    else:
        np.testing.assert_array_equal(got, expected)


def _edges(dt):
    """Python ints just inside and outside ``dt``'s range, and far outside (past 64 bits)."""
    info = np.iinfo(dt)
    return [info.max, info.max + 1, info.min - 1, info.min, 300, -200, 1000, 2 ** 63, 2 ** 64,
            -2 ** 63 - 1, 2 ** 100, -2 ** 100]


# ---- 1. comparisons with out-of-range Python ints ------------------------------------------------
@pytest.mark.parametrize("dt", _INT_DTYPES + ["bool"])
@pytest.mark.parametrize("name", _CMP)
def test_compare_python_int_out_of_range(name, dt):
    h = random_array((3, 5), dt, np.random.default_rng(1))
    if dt != "bool":
        info = np.iinfo(dt)
        h.flat[:2] = info.min, info.max                     # the range's own edges are elements
    values = _edges(dt) if dt != "bool" else [2, -1, 300, 2 ** 63 - 1, 2 ** 63, -2 ** 63 - 1]
    g = npgpu.asarray(h)
    for v in values:
        # ufunc form, either operand order
        _same_outcome(_outcome(lambda: getattr(npgpu, name)(g, v)),
                      _outcome(lambda: getattr(np, name)(h, v)))
        _same_outcome(_outcome(lambda: getattr(npgpu, name)(v, g)),
                      _outcome(lambda: getattr(np, name)(v, h)))
        # operators, including the reflected ``300 > a``
        op = _PY_OPS[name]
        _same_outcome(_outcome(lambda: op(g, v)), _outcome(lambda: op(h, v)))
        _same_outcome(_outcome(lambda: op(v, g)), _outcome(lambda: op(v, h)))


@pytest.mark.parametrize("dt", ["int8", "uint8", "int64", "uint64"])
def test_compare_out_of_range_layouts_and_options(dt):
    h = random_array((4, 6), dt, np.random.default_rng(2))
    big = 2 ** 70
    g = npgpu.asarray(h)
    cases = [(g[:, ::-2], h[:, ::-2]), (g.T, h.T), (g[1], h[1]), (g[0, 0], h[0, 0]),
             (g[:0], h[:0])]
    for gv, hv in cases:
        for v in (big, -big, np.iinfo(dt).max + 1):
            _same_outcome(_outcome(lambda: npgpu.less(gv, v)), _outcome(lambda: np.less(hv, v)))
            _same_outcome(_outcome(lambda: npgpu.equal(v, gv)), _outcome(lambda: np.equal(v, hv)))
    # NumPy scalar operand, out=, dtype=, signature=, casting=
    _same_outcome(_outcome(lambda: npgpu.less(h.dtype.type(3), 2 ** 65)),
                  _outcome(lambda: np.less(h.dtype.type(3), 2 ** 65)))
    out_g, out_h = npgpu.zeros((4, 6), np.int8), np.zeros((4, 6), np.int8)
    npgpu.greater_equal(g, -big, out=out_g)
    np.greater_equal(h, -big, out=out_h)
    np.testing.assert_array_equal(out_g.get(), out_h)
    _same_outcome(_outcome(lambda: npgpu.not_equal(g, big, dtype=bool)),
                  _outcome(lambda: np.not_equal(h, big, dtype=bool)))
    _same_outcome(_outcome(lambda: npgpu.less(g, big, signature=(None, None, np.bool_))),
                  _outcome(lambda: np.less(h, big, signature=(None, None, np.bool_))))
    _same_outcome(_outcome(lambda: npgpu.equal(g, big, casting="unsafe")),
                  _outcome(lambda: np.equal(h, big, casting="unsafe")))


def test_compare_out_of_range_where():
    # NumPy 2.4 crashes on where= here (a segfault), so the reference is the mask applied by hand
    h = np.array([1, 200, 7, 0], np.uint8)
    mask = np.array([True, False, True, False])
    out = npgpu.asarray(np.array([False, True, False, True]))
    npgpu.less(npgpu.asarray(h), 300, out=out, where=npgpu.asarray(mask))
    np.testing.assert_array_equal(out.get(), [True, True, True, True])
    npgpu.greater(npgpu.asarray(h), 300, out=out, where=mask)
    np.testing.assert_array_equal(out.get(), [False, True, False, True])


@pytest.mark.parametrize("dt", _INT_DTYPES + ["bool"])
@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "bitwise_and",
                                  "floor_divide", "power", "left_shift"])
def test_other_ufuncs_raise_for_out_of_range_python_int(name, dt):
    # only comparisons are special-cased: the rest raise NumPy's OverflowError and message
    h = random_array((5,), dt, np.random.default_rng(3), low=0, high=5)
    g = npgpu.asarray(h)
    info = np.iinfo(dt) if dt != "bool" else np.iinfo(np.int64)
    for v in (info.max + 1, info.min - 1, 2 ** 100):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            expected = _outcome(lambda: getattr(np, name)(h, v))
        got = _outcome(lambda: getattr(npgpu, name)(g, v))
        assert isinstance(expected, tuple) and expected[0] is OverflowError, expected
        assert got == expected


def test_compare_in_range_unchanged():
    h = np.array([0, 5, 255], np.uint8)
    g = npgpu.asarray(h)
    for v in (0, 5, 255, -0):
        for name in _CMP:
            _same_outcome(_outcome(lambda: getattr(npgpu, name)(g, v)),
                          _outcome(lambda: getattr(np, name)(h, v)))
    # Python floats and weak scalars of other kinds keep NumPy's float loop
    _same_outcome(_outcome(lambda: g < 300.5), _outcome(lambda: h < 300.5))
    _same_outcome(_outcome(lambda: g < True), _outcome(lambda: h < True))


# ---- 2. integer power with negative exponents ----------------------------------------------------
_NEG_POW = "Integers to negative integer powers are not allowed."


@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "int64", "uint8", "uint32", "bool"])
def test_negative_integer_power_like_numpy(dt):
    rng = np.random.default_rng(4)
    hb = random_array((3, 4), dt, rng, low=-3, high=3)
    gb = npgpu.asarray(hb)
    exps = [-1, -2, 0, 2, np.int8(-1), np.int64(-3), np.int64(2), np.uint8(3), -1.0,
            np.array([-1, 2, 3, 1], np.int8), np.array([1, 2, 3, 0], np.int8),
            np.array([[2], [-1], [0]], np.int64), np.array([1, 2, 3, 3], np.uint16),
            np.array([True, False, True, True]), np.array([-2, 1, 1, 1], np.int32)[::-1]]
    for e in exps:
        ge = npgpu.asarray(e) if isinstance(e, np.ndarray) else e
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            expected = _outcome(lambda: np.power(hb, e))
            expected_op = _outcome(lambda: hb ** e)
            expected_rev = _outcome(lambda: np.power(e, hb)) if isinstance(e, np.ndarray) else None
        _same_outcome(_outcome(lambda: npgpu.power(gb, ge)), expected)
        if not (dt == "bool" and type(e) is int and e == 2):     # NumPy's ``**`` runs square() for a Python 2: int8
            _same_outcome(_outcome(lambda: gb ** ge), expected_op)
        if expected_rev is not None:
            _same_outcome(_outcome(lambda: npgpu.power(ge, gb)), expected_rev)


def test_negative_integer_power_checks_only_computed_elements():
    h = np.array([1, 2, 3, 4], np.int64)
    g = npgpu.asarray(h)
    e = np.array([2, -1, 0, 3], np.int64)
    ge = npgpu.asarray(e)
    # empty results compute nothing, so nothing is checked
    assert npgpu.power(g[:0], -1).shape == (0,)
    assert npgpu.power(g[:0], ge[:0]).shape == (0,)
    assert npgpu.power(npgpu.asarray(np.ones((0, 1), np.int64)), ge).shape == (0, 4)
    # where=: only the elements under the mask
    mask = np.array([True, False, True, True])
    out_h, out_g = np.zeros(4, np.int64), npgpu.zeros(4, np.int64)
    np.power(h, e, where=mask, out=out_h)
    npgpu.power(g, ge, where=npgpu.asarray(mask), out=out_g)
    np.testing.assert_array_equal(out_g.get(), out_h)
    with pytest.raises(ValueError, match=_NEG_POW):
        npgpu.power(g, ge, where=npgpu.asarray(~mask), out=out_g)
    with pytest.raises(ValueError, match=_NEG_POW):
        npgpu.power(g, -1, where=mask, out=out_g)
    npgpu.power(g, -1, where=npgpu.zeros(4, bool), out=out_g)
    # a repeated call with the same dtypes is checked again (no cached plan skips it)
    assert (npgpu.power(g, g).get() == h ** h).all()
    with pytest.raises(ValueError, match=_NEG_POW):
        npgpu.power(g, -g)
    with pytest.raises(ValueError, match=_NEG_POW):
        npgpu.power(g, -g)
    # uint64 ** int64 is a float64 loop: no error, as NumPy
    ue = np.array([-1, 2], np.int64)
    np.testing.assert_allclose(npgpu.power(npgpu.asarray(np.array([2, 3], np.uint64)),
                                           npgpu.asarray(ue)).get(),
                               np.power(np.array([2, 3], np.uint64), ue))


# ---- 3. range edges of the transcendental ufuncs -------------------------------------------------
_INF, _NAN = np.inf, np.nan
_SPECIALS = [_NAN, _INF, -_INF, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0]

# One row per edge: (ufunc, dtype, inputs).  Inputs sit at least a few thousand result ulps away
# from an overflow / underflow threshold (so libdevice's few-ulp errors on the GPU cannot flip
# finite to inf or tiny to 0), or exactly on an edge whose result is exact (2**1024, ldexp).
# float32 rows avoid subnormal results, which libdevice may round differently.
EDGES = [
    # exp: overflow at log(max); float32 values past 709 take the float64 guard's path
    ("exp", "float64", [709.0, 709.7, 709.78, 709.7827128933, 709.7828, 710.0, 1e4]),
    ("exp", "float32", [88.0, 88.72, 88.7228, 88.7229, 89.0, 709.5, 709.9, 1e4]),
    ("exp", "float16", [11.0, 11.08, 11.1, 12.0, 1e4]),
    ("exp", "float64", [-700.0, -708.0, -750.0, -1000.0]),
    ("exp", "float32", [-80.0, -87.0, -110.0, -1000.0]),
    ("exp", "float16", [-9.0, -18.0, -100.0]),
    ("exp2", "float64", [1023.0, 1023.99, 1023.9999, 1024.0, 1024.5, 1100.0]),
    ("exp2", "float32", [127.0, 127.99, 128.0, 129.0, 1023.5, 1024.0]),
    ("exp2", "float16", [15.0, 15.99, 16.0, 17.0]),
    ("exp2", "float64", [-1022.0, -1080.0, -2000.0]),
    ("exp2", "float32", [-126.0, -151.0, -2000.0]),
    ("exp2", "float16", [-14.0, -26.0, -100.0]),
    ("expm1", "float64", [709.0, 709.7827128933, 709.7828, 710.0, -40.0, -1000.0, 1e-20, -1e-300]),
    ("expm1", "float32", [88.72, 88.7228, 88.7229, 709.5, 709.9, -20.0, -100.0, 1e-20]),
    ("expm1", "float16", [11.08, 11.1, -12.0, -100.0, 1e-4]),
    # sinh / cosh: overflow at log(2 * max), both signs
    ("sinh", "float64", [709.5, 710.0, 710.4758, 710.4759, 711.0, -710.4758, -710.4759, 1e-300]),
    ("sinh", "float32", [89.0, 89.41, 89.42, 90.0, 709.9, 710.47, -89.41, -89.42, 1e-30]),
    ("sinh", "float16", [11.0, 11.77, 11.8, -11.77, -11.8, 1e-3]),
    ("cosh", "float64", [709.5, 710.0, 710.4758, 710.4759, 711.0, -710.4758, -710.4759]),
    ("cosh", "float32", [89.0, 89.41, 89.42, 90.0, 709.9, 710.47, -89.41, -89.42]),
    ("cosh", "float16", [11.0, 11.77, 11.8, -11.77, -11.8]),
    ("tanh", "float64", [19.0, 20.0, 710.0, 1e308, -1e308, 1e-300]),
    ("tanh", "float32", [9.0, 10.0, 89.0, 3e38, 1e-30]),
    ("tanh", "float16", [4.0, 5.0, 65504.0]),
    # logarithms: zero, the smallest and largest finite values, just below the domain
    ("log", "float64", [5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -5e-324]),
    ("log", "float32", [1.1754944e-38, 3.4028235e38, -1.1754944e-38]),
    ("log", "float16", [6e-8, 6.104e-5, 65504.0, -6e-8]),
    ("log2", "float64", [5e-324, 1.7976931348623157e308, 0.9999999999999999, 1.0000000000000002]),
    ("log2", "float32", [1.1754944e-38, 3.4028235e38, 0.99999994, 1.0000001]),
    ("log2", "float16", [6e-8, 65504.0, 0.9995, 1.001]),
    ("log10", "float64", [5e-324, 1.7976931348623157e308, 1e-300, 1e300]),
    ("log10", "float32", [1.1754944e-38, 3.4028235e38, 1e-30, 1e30]),
    ("log10", "float16", [6e-8, 65504.0, 1e-4, 1e4]),
    ("log1p", "float64", [-0.9999999999999999, -1.0000000000000002, 1e-300, 1.7976931348623157e308]),
    ("log1p", "float32", [-0.99999994, -1.0000001, 1e-30, 3.4028235e38]),
    ("log1p", "float16", [-0.9995, -1.001, 1e-4, 65504.0]),
    # inverse trig / hyperbolic domains: one ulp either side of +-1
    ("arcsin", "float64", [0.9999999999999999, 1.0000000000000002, -0.9999999999999999,
                           -1.0000000000000002]),
    ("arcsin", "float32", [0.99999994, 1.0000001, -0.99999994, -1.0000001]),
    ("arcsin", "float16", [0.9995, 1.001, -0.9995, -1.001]),
    ("arccos", "float64", [0.9999999999999999, 1.0000000000000002, -0.9999999999999999,
                           -1.0000000000000002]),
    ("arccos", "float32", [0.99999994, 1.0000001, -0.99999994, -1.0000001]),
    ("arccos", "float16", [0.9995, 1.001, -0.9995, -1.001]),
    ("arccosh", "float64", [0.9999999999999999, 1.0000000000000002, 1e308, 1.7976931348623157e308]),
    ("arccosh", "float32", [0.99999994, 1.0000001, 3.4028235e38]),
    ("arccosh", "float16", [0.9995, 1.001, 65504.0]),
    ("arctanh", "float64", [0.9999999999999999, 1.0000000000000002, -0.9999999999999999,
                            -1.0000000000000002]),
    ("arctanh", "float32", [0.99999994, 1.0000001, -0.99999994, -1.0000001]),
    ("arctanh", "float16", [0.9995, 1.001, -0.9995, -1.001]),
    ("arcsinh", "float64", [1.7976931348623157e308, -1e308, 1e-300]),
    ("arcsinh", "float32", [3.4028235e38, -3e38, 1e-30]),
    ("arcsinh", "float16", [65504.0, -65504.0, 1e-4]),
    ("arctan", "float64", [1e308, -1e308, 1e-300]),
    ("arctan", "float32", [3e38, -3e38, 1e-30]),
    # trigonometric: huge arguments (full range reduction)
    ("sin", "float64", [1e22, 1e300, -1e308]),
    ("sin", "float32", [1e10, 3e38, -3e38]),
    ("cos", "float64", [1e22, 1e300, -1e308]),
    ("cos", "float32", [1e10, 3e38, -3e38]),
    ("tan", "float64", [1e22, 1e300, 1.5707963267948966]),
    ("tan", "float32", [1e10, 3e38, 1.5707964]),
    ("cbrt", "float64", [1e-310, 1.7976931348623157e308, -27.0, -1e-300]),
    ("cbrt", "float32", [1e-30, 3.4028235e38, -27.0]),
]

# binary rows: (ufunc, dtype, [(x, y), ...])
EDGES2 = [
    ("power", "float64", [(2.0, 1023.0), (2.0, 1024.0), (10.0, 308.0), (10.0, 309.0),
                          (0.0, -1.0), (-0.0, -1.0), (-0.0, -2.0), (-1.0, _INF), (1.0, _NAN),
                          (_NAN, 0.0), (-8.0, 1 / 3), (_INF, -1.0), (-_INF, 3.0), (0.5, _INF),
                          (2.0, -_INF), (1e-300, 2.0), (-2.0, 0.5), (1e10, 40.0)]),
    ("power", "float32", [(2.0, 127.0), (2.0, 128.0), (10.0, 38.0), (10.0, 39.0), (0.0, -1.0),
                          (-0.0, -3.0), (-1.0, _INF), (1.0, _NAN), (-8.0, 0.5), (1e-30, 2.0)]),
    ("power", "float16", [(2.0, 15.0), (2.0, 16.0), (10.0, 4.0), (10.0, 5.0), (0.0, -1.0),
                          (-0.0, -3.0), (1.0, _NAN)]),
    ("float_power", "float64", [(2.0, 1024.0), (10.0, 308.0), (0.0, -1.0), (-8.0, 1 / 3)]),
    ("logaddexp", "float64", [(1e308, 1e308), (_INF, _INF), (-_INF, -_INF), (_INF, -_INF),
                              (-_INF, 5.0), (_NAN, 1.0), (800.0, 800.0), (-800.0, -800.0),
                              (0.0, -800.0), (710.0, 709.0)]),
    ("logaddexp", "float32", [(3e38, 3e38), (_INF, _INF), (-_INF, -_INF), (_INF, -_INF),
                              (100.0, 100.0), (-100.0, -100.0), (0.0, -100.0)]),
    ("logaddexp", "float16", [(60000.0, 60000.0), (_INF, -_INF), (11.0, 11.0), (-20.0, 0.0)]),
    ("logaddexp2", "float64", [(1e308, 1e308), (_INF, _INF), (-_INF, -_INF), (_INF, -_INF),
                               (1100.0, 1100.0), (-1100.0, -1100.0), (0.0, -1100.0)]),
    ("logaddexp2", "float32", [(3e38, 3e38), (_INF, -_INF), (130.0, 130.0), (0.0, -200.0)]),
    ("logaddexp2", "float16", [(60000.0, 60000.0), (_INF, -_INF), (16.0, 16.0), (-30.0, 0.0)]),
    ("hypot", "float64", [(1e308, 1e308), (1e200, 1e200), (_INF, _NAN), (5e-324, 5e-324)]),
    ("hypot", "float32", [(3e38, 3e38), (1e30, 1e30), (_INF, _NAN)]),
    ("arctan2", "float64", [(0.0, -0.0), (-0.0, -0.0), (_INF, _INF), (-_INF, -_INF), (1e-300, 1e300)]),
]

# ldexp rows: (dtype, exponent dtype, [(x, n), ...]); ldexp is exact, subnormal results included
EDGES_LDEXP = [
    ("float64", "int32", [(1.0, 1023), (1.0, 1024), (0.75, 1024), (0.5, 1025), (-1.0, 1024),
                          (1.0, -1022), (1.0, -1074), (1.0, -1075), (1.5, -1075), (1.0, -1076),
                          (_INF, -5), (_NAN, 3), (-0.0, 10), (1e-300, 2000), (1e300, -2000),
                          (1.0, 2 ** 31 - 1), (-1.0, -2 ** 31)]),
    ("float64", "int64", [(1.0, 2 ** 40), (-1.0, 2 ** 62), (1.0, -2 ** 62), (3.0, 1023)]),
    ("float32", "int32", [(1.0, 127), (1.0, 128), (3.0, 127), (1.0, -149), (1.0, -150),
                          (1.5, -150), (1.0, 1000), (1.0, 1024), (1.0, 1100), (1.0, -1100)]),
    ("float32", "int64", [(1.0, 2 ** 40), (1.0, -2 ** 40)]),
    ("float16", "int32", [(1.0, 15), (1.0, 16), (1.0, -24), (1.0, -25), (1.5, -25),
                          (1.0, 300), (1.0, -300)]),
]

_ULP_RTOL = {"float16": 2e-3, "float32": 4e-6, "float64": 8e-15}     # a few ulps


def _edge_check(name, got, expected):
    """Exact where NumPy gives inf, NaN or 0 (and their signs); a few ulps elsewhere."""
    got = got.get()
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=f"{name}: NaN")
    special = np.isinf(expected) | (expected == 0)
    np.testing.assert_array_equal(got[special], expected[special], err_msg=f"{name}: inf/0")
    np.testing.assert_array_equal(np.signbit(got[special]), np.signbit(expected[special]),
                                  err_msg=f"{name}: sign")
    finite = ~(special | np.isnan(expected))
    assert not np.isinf(got[finite]).any(), (name, got, expected)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=_ULP_RTOL[expected.dtype.name],
                               err_msg=name)


def _np(name, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(np, name)(*args)


def _cast(values, dt):
    with np.errstate(all="ignore"):
        return np.array(values, np.float64).astype(dt)


@pytest.mark.parametrize("name,dt,values", EDGES,
                         ids=[f"{n}-{d}-{v[0]:g}" for n, d, v in EDGES])
def test_unary_range_edge(name, dt, values):
    x = _cast(values + [-v for v in values], dt)       # both signs of every edge
    _edge_check(name, getattr(npgpu, name)(npgpu.asarray(x)), _np(name, x))


_UNARY = sorted({n for n, _, _ in EDGES})


@pytest.mark.parametrize("dt", ["float16", "float32", "float64"])
@pytest.mark.parametrize("name", _UNARY)
def test_unary_specials(name, dt):
    x = _cast(_SPECIALS, dt)
    _edge_check(name, getattr(npgpu, name)(npgpu.asarray(x)), _np(name, x))


@pytest.mark.parametrize("name,dt,pairs", EDGES2,
                         ids=[f"{n}-{d}-{p[0][0]:g},{p[0][1]:g}" for n, d, p in EDGES2])
def test_binary_range_edge(name, dt, pairs):
    x = _cast([p[0] for p in pairs], dt)
    y = _cast([p[1] for p in pairs], dt)
    _edge_check(name, getattr(npgpu, name)(npgpu.asarray(x), npgpu.asarray(y)), _np(name, x, y))


@pytest.mark.parametrize("dt,et,pairs", EDGES_LDEXP,
                         ids=[f"{d}-{e}-{p[0][1]}" for d, e, p in EDGES_LDEXP])
def test_ldexp_range_edge(dt, et, pairs):
    x = _cast([p[0] for p in pairs], dt)
    n = np.array([p[1] for p in pairs], et)
    _edge_check("ldexp", npgpu.ldexp(npgpu.asarray(x), npgpu.asarray(n)), _np("ldexp", x, n))


def test_exp_reported_case():
    x = np.array([709.7, 1023.5], np.float64)
    got = npgpu.exp(npgpu.asarray(x[:1])).get()
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, np.exp(x[:1]), rtol=_ULP_RTOL["float64"])
    np.testing.assert_allclose(npgpu.exp2(npgpu.asarray(x[1:])).get(), np.exp2(x[1:]),
                               rtol=_ULP_RTOL["float64"])


# ---- 4. creation functions' default dtypes -------------------------------------------------------
_CREATION = [
    ("empty", ((2, 3),)), ("zeros", ((2, 3),)), ("ones", ((2, 3),)), ("zeros", (4,)),
    ("ones", (0,)), ("full", ((2, 3), 7)), ("full", ((2, 3), 2.5)), ("full", ((3,), True)),
    ("full", ((3,), 1 - 2j)), ("full", ((3,), np.float32(1.5))), ("full", ((2, 3), [1, 2, 3])),
    ("full", ((2, 3), [1.5, -2, 3])), ("eye", (3,)), ("eye", (2, 4, 1)), ("identity", (3,)),
    ("arange", (5,)), ("arange", (0.5, 5)), ("arange", (0, 5, True)), ("arange", (1, 2, 0.25)),
    ("linspace", (0, 5, 4)), ("linspace", (0j, 5, 4)), ("logspace", (0, 2, 3)),
    ("geomspace", (1, 100, 3)), ("tri", (3,)), ("indices", ((2, 3),)),
]


@pytest.mark.parametrize("name,args", _CREATION, ids=[f"{n}{i}" for i, (n, _) in enumerate(_CREATION)])
def test_creation_dtype_none_like_numpy(name, args):
    expected = getattr(np, name)(*args, dtype=None)
    got = getattr(npgpu, name)(*args, dtype=None)
    assert got.dtype == expected.dtype
    if name != "empty":
        np.testing.assert_allclose(got.get(), expected, rtol=1e-12)
    omitted = getattr(npgpu, name)(*args)
    assert omitted.dtype == getattr(np, name)(*args).dtype


@pytest.mark.parametrize("name", ["empty_like", "zeros_like", "ones_like"])
def test_like_dtype_none_like_numpy(name):
    h = random_array((2, 3), np.int16)
    for src_h, src_g in ((h, npgpu.asarray(h)), ([1, 2.5], [1, 2.5]), (h.T, npgpu.asarray(h).T)):
        assert getattr(npgpu, name)(src_g, dtype=None).dtype == getattr(np, name)(src_h, dtype=None).dtype
    got = npgpu.full_like(npgpu.asarray(h), 2.5, dtype=None)
    np.testing.assert_array_equal(got.get(), np.full_like(h, 2.5, dtype=None))


# ---- 5. numpy.linalg's Array API functions -------------------------------------------------------
def test_linalg_diagonal_and_trace_take_the_last_two_axes():
    h = random_array((2, 3, 4), np.float64, np.random.default_rng(5))
    g = npgpu.asarray(h)
    for off in (0, 1, -2, 5):
        np.testing.assert_array_equal(npgpu.linalg.diagonal(g, offset=off).get(),
                                      np.linalg.diagonal(h, offset=off))
        np.testing.assert_allclose(npgpu.linalg.trace(g, offset=off).get(),
                                   np.linalg.trace(h, offset=off), rtol=1e-12)
    hi = random_array((3, 4, 4), np.int8)
    got = npgpu.linalg.trace(npgpu.asarray(hi), dtype=np.int16)
    assert got.dtype == np.int16
    np.testing.assert_array_equal(got.get(), np.linalg.trace(hi, dtype=np.int16))
    assert npgpu.linalg.trace(npgpu.asarray(hi)).dtype == np.linalg.trace(hi).dtype
    # the NumPy-namespace functions keep axes 0 and 1
    np.testing.assert_array_equal(npgpu.diagonal(g).get(), np.diagonal(h))
    np.testing.assert_allclose(npgpu.trace(g).get(), np.trace(h), rtol=1e-12)
    np.testing.assert_array_equal(g.diagonal(1).get(), h.diagonal(1))
    for f in (npgpu.linalg.diagonal, npgpu.linalg.trace):
        with pytest.raises(TypeError):
            f(g, 1)                       # offset is keyword-only
        with pytest.raises(ValueError, match="at least two dimensions"):
            f(npgpu.asarray(h[0, 0]))


def test_linalg_array_api_signatures_and_errors():
    rng = np.random.default_rng(6)
    a = random_array((2, 3, 3), np.float64, rng)
    b = random_array((2, 3, 3), np.float64, rng)
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    L, NL = npgpu.linalg, np.linalg
    np.testing.assert_array_equal(L.matrix_transpose(ga).get(), NL.matrix_transpose(a))
    np.testing.assert_allclose(L.matmul(ga, gb).get(), NL.matmul(a, b), rtol=1e-12)
    np.testing.assert_allclose(L.tensordot(ga, gb.T, axes=1).get(), NL.tensordot(a, b.T, axes=1),
                               rtol=1e-12)
    np.testing.assert_allclose(L.tensordot(ga[0], gb[0]).get(), NL.tensordot(a[0], b[0]),
                               rtol=1e-12)
    np.testing.assert_allclose(L.vecdot(ga, gb, axis=1).get(), NL.vecdot(a, b, axis=1), rtol=1e-12)
    np.testing.assert_allclose(L.cross(ga, gb, axis=1).get(), NL.cross(a, b, axis=1), rtol=1e-12)
    np.testing.assert_allclose(L.outer(ga[0, 0], gb[0, :, 1]).get(), NL.outer(a[0, 0], b[0, :, 1]),
                               rtol=1e-12)
    np.testing.assert_allclose(L.vector_norm(ga, axis=(0, 2), keepdims=True, ord=3).get(),
                               NL.vector_norm(a, axis=(0, 2), keepdims=True, ord=3), rtol=1e-12)
    np.testing.assert_allclose(L.matrix_norm(ga, ord=1, keepdims=True).get(),
                               NL.matrix_norm(a, ord=1, keepdims=True), rtol=1e-12)
    # positional-only operands and keyword-only options, as numpy.linalg
    for call in (lambda m: m.linalg.tensordot(ga if m is npgpu else a, gb if m is npgpu else b, 1),
                 lambda m: m.linalg.vecdot(ga if m is npgpu else a, gb if m is npgpu else b, -1),
                 lambda m: m.linalg.matmul(ga if m is npgpu else a, gb if m is npgpu else b, None),
                 lambda m: m.linalg.matmul(x1=ga if m is npgpu else a, x2=gb if m is npgpu else b),
                 lambda m: m.linalg.vector_norm(ga if m is npgpu else a, None)):
        with pytest.raises(TypeError):
            call(np)
        with pytest.raises(TypeError):
            call(npgpu)
    # NumPy's errors and messages
    cases = [(lambda m, x, y: m.linalg.outer(x, y[0, 0]), "one-dimensional"),
             (lambda m, x, y: m.linalg.cross(x[..., :2], y), "3-dimensional vectors"),
             (lambda m, x, y: m.linalg.matrix_transpose(x[0, 0]), "at least 2-dimensional")]
    for f, msg in cases:
        expected = _outcome(lambda: f(np, a, b))
        assert expected[0] is ValueError and msg in expected[1]
        assert _outcome(lambda: f(npgpu, ga, gb)) == expected


@pytest.mark.parametrize("dt", ["float32", "float64", "complex128"])
def test_pinv_tolerance_arrays_broadcast_over_the_stack(dt):
    rng = np.random.default_rng(7)
    h = random_array((3, 5, 4), dt, rng)
    h[1, :, 3] = h[1, :, 0] + h[1, :, 1] * (1 + 1e-4)        # nearly rank deficient
    g = npgpu.asarray(h)
    tol = np.array([1e-6, 1e-3, 0.5])
    for kw in ({}, {"rtol": None}, {"rtol": 1e-3}, {"rcond": 0.2}, {"rtol": tol}, {"rcond": tol},
               {"rtol": tol[1:2]}, {"rcond": tol, "hermitian": False}):
        expected = np.linalg.pinv(h, **kw)
        for conv in (npgpu.asarray, lambda v: v):     # npgpu arrays and host arrays/scalars
            gkw = {k: conv(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
            got = npgpu.linalg.pinv(g, **gkw)
            assert got.dtype == expected.dtype and got.shape == expected.shape
            rtol = 2e-3 if dt == "float32" else 1e-8
            np.testing.assert_allclose(got.get(), expected, rtol=rtol, atol=rtol, err_msg=str(kw))
    with pytest.raises(ValueError, match="can't be both set"):
        npgpu.linalg.pinv(g, rcond=0.1, rtol=0.1)
    assert npgpu.linalg.pinv(npgpu.asarray(np.ones((2, 0, 3)))).shape == (2, 3, 0)


# ---- complex exp / sinh / cosh past the real overflow threshold -------------------------------
def _assert_same_complex(got, expected):
    """Real and imaginary parts close (4 ulps), with inf/NaN in the same places and signs."""
    assert got.dtype == expected.dtype and got.shape == expected.shape
    tol = 4 * np.finfo(got.real.dtype).eps
    for g, e in ((got.real, expected.real), (got.imag, expected.imag)):
        np.testing.assert_allclose(g, e, rtol=tol, atol=0)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_exp_sinh_cosh_scale_large_real_parts(dt):
    # exp(710.3) overflows float64, exp(710.3) * cos(1.4) does not (float32: exp(88.9) likewise);
    # cosh/sinh likewise past 710.48; expm1 does not scale in NumPy (it overflows at 709.78)
    big = 710.3 if dt == "complex128" else 88.9
    rng = np.random.default_rng(20)
    re = np.concatenate([rng.uniform(big - 2, big + 3, 12), -rng.uniform(big - 2, big + 3, 6),
                         [big, -big, 2 * big, -2 * big, 3 * big, 0.0, -0.0, 1.5,
                          np.inf, -np.inf, np.nan]])
    im = np.array([1.4, -1.4, 0.5, 3.0, 0.0, -0.0, 1e-30, np.inf, -np.inf, np.nan])
    h = np.empty((len(re), len(im)), dt)
    h.real = re[:, None]
    h.imag = im
    h.imag[:18, :4] = rng.uniform(-3, 3, (18, 4))     # random imaginary parts beside the grid
    g = npgpu.asarray(h)
    with np.errstate(all="ignore"):
        for name in ("exp", "exp2", "expm1", "sinh", "cosh"):
            f, gf = getattr(np, name), getattr(npgpu, name)
            if name == "expm1":
                # at infinite or NaN parts npgpu's expm1 gives the Array API's (C99 Annex G)
                # values where NumPy's gives NaNs: tests/test_complex_special_values.py
                fin = np.isfinite(h)
                _assert_same_complex(gf(g).get()[fin], f(h)[fin])
                continue
            _assert_same_complex(gf(g).get(), f(h))
            _assert_same_complex(gf(g[::-2, 1::3]).get(), f(h[::-2, 1::3]))   # strided views
            _assert_same_complex(gf(g[3, 0]).get(), f(h[3, 0]))                 # 0-d
            assert gf(g[:0]).shape == (0, len(im))
        z = np.asarray(710.3 + 1.4j, dt)
        _assert_same_complex(npgpu.exp(npgpu.asarray(z)).get(), np.exp(z))
        if dt == "complex128":
            assert np.isfinite(npgpu.exp(npgpu.asarray(z)).get().real)


# ---- negative integer powers in ufunc methods and fused functions ---------------------------
_NEG_POW = "Integers to negative integer powers are not allowed."


@pytest.mark.parametrize("dt", ["int8", "int32", "int64", "uint8", "uint64"])
def test_integer_power_methods_check_negative_exponents_like_numpy(dt):
    rng = np.random.default_rng(21)
    good = random_array((3, 4), dt, rng, low=0, high=3)
    bad = good.copy()
    if np.dtype(dt).kind == "i":
        bad[1, 2] = -1                 # an exponent along axis 0 and along axis 1
        bad[0, 1] = -2                 # the first row is only a base for reduce(axis=0)
    cases = [
        lambda m, x: m.power.reduce(x, axis=0),
        lambda m, x: m.power.reduce(x, axis=1),
        lambda m, x: m.power.reduce(x[:, ::-1], axis=-1),
        lambda m, x: m.power.reduce(x, axis=0, initial=1),
        lambda m, x: m.power.reduce(x, axis=0, initial=2, where=x[:1] > 0),
        lambda m, x: m.power.reduce(x, axis=0, dtype=np.float64),
        lambda m, x: m.power.reduce(x[:1], axis=0),          # one element: nothing to raise
        lambda m, x: m.power.reduce(x[:0], axis=1),          # empty
        lambda m, x: m.power.accumulate(x, axis=0),
        lambda m, x: m.power.accumulate(x[::-1, 1:], axis=1),
        lambda m, x: m.power.reduceat(x, [0, 2, 1], axis=1),
        lambda m, x: m.power.reduceat(x, [0, 1], axis=0),
        lambda m, x: m.power.reduceat(x, [2, 0], axis=0),
    ]
    for k, f in enumerate(cases):
        for h in (good, bad):
            expected = _outcome(lambda: f(np, h))
            got = _outcome(lambda: f(npgpu, npgpu.asarray(h)))
            if isinstance(expected, tuple):
                assert expected[1] == _NEG_POW or expected[0] is not ValueError, (k, expected)
            _same_outcome(got, expected)


@pytest.mark.parametrize("dt", ["int16", "int64", "uint32"])
def test_integer_power_at_and_fuse_check_negative_exponents_like_numpy(dt):
    rng = np.random.default_rng(22)
    a = random_array((6,), dt, rng, low=1, high=5)
    signed = np.dtype(dt).kind == "i"
    exps = random_array((5,), dt, rng, low=0, high=3)
    if signed:
        exps[2] = -1
    idx = np.array([0, 3, 3, 5, 1])
    # power.at skips the updates with negative exponents, applies the others, then raises
    # (exponents of a's dtype: NumPy's casting path leaves uninitialised values in the skipped
    # elements of small integer types)
    for b, ix in ((exps, idx), (exps[:2], idx[:2]), (exps[::-1], idx),
                  (np.dtype(dt).type(-1 if signed else 2), 4), (exps[3], slice(None, None, 2))):
        h, g = a.copy(), npgpu.asarray(a)
        expected = _outcome(lambda: np.power.at(h, ix, b))
        got = _outcome(lambda: npgpu.power.at(g, ix, npgpu.asarray(b)
                                              if isinstance(b, np.ndarray) else b))
        assert (got if isinstance(got, tuple) else None) == \
            (expected if isinstance(expected, tuple) else None)
        np.testing.assert_array_equal(g.get(), h)

    def pow_shifted(x, y):
        return (x + 1) ** (y - 1)

    def pow_literal(x, y):
        return x * y + x ** -1

    def pow_both(x, y):
        return x ** 2, y ** x

    for f in (pow_shifted, pow_literal, pow_both):
        fused = npgpu.fuse(f)
        for x, y in ((a[:5], exps), (a[:5], exps + 1), (a[4::-1], exps[::-1]),
                     (np.zeros(0, dt), np.zeros(0, dt))):   # empty: computes nothing, no error
            with np.errstate(all="ignore"):
                expected = _outcome(lambda: np.stack(f(x, y)))
            got = _outcome(lambda: npgpu.stack(fused(npgpu.asarray(x), npgpu.asarray(y))))
            _same_outcome(got, expected)
