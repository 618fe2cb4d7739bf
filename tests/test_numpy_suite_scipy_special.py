"""npgpu.scipy.special where SciPy 1.17's own special-function tests (scripts/numpy_tests.py on
scipy/special/tests: test_basic, test_support_alternative_backends, test_nan_inputs,
test_ufunc_signatures, ...) and sweeps in their spirit found it apart from SciPy: complex
xlog1py left of -1 with a -0.0 imaginary part, dawsn/wofz near the float64 maximum, beta/betaln
at non-positive integers past SciPy's C int, logsumexp's float16 result.  The last two tests
are SciPy's test_nan_inputs and test_ufunc_signatures for npgpu's own ufuncs (SciPy's modules
iterate SciPy's ufuncs)."""
import warnings

import numpy as np
import pytest
import scipy.special as ss

import npgpu
import npgpu.scipy.special as gs
from conftest import make_layout

LAYOUTS = ("contiguous", "strided", "negative", "zero_d", "empty")


def _scipy(name):
    """SciPy's ufunc of npgpu's ``name`` (the private zeta ufuncs live in ``_ufuncs``)."""
    return getattr(ss, name, None) or getattr(ss._ufuncs, name)


def _host(x):
    return x.get() if isinstance(x, npgpu.ndarray) else np.asarray(x)


def _same(got, want, rtol, atol=0.0, signs=True):
    """Values within rtol/atol, NaN where SciPy's are, zeros with SciPy's signs, same dtype."""
    got, want = _host(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    for g, w in ((got.real, want.real), (got.imag, want.imag)) if signs else ():
        zero = (g == 0) & (w == 0)
        np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(w[zero]))


@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_xlog1py_complex_keeps_negative_zero_imaginary_part(dt, layout):
    # log1p(y) = log(1 + y) adds 1 to the real part only: y = -2.5 - 0i has arg -pi (SciPy),
    # not +pi; y = -1 +- 0i is -inf (was a domain error on the simulator)
    rng = np.random.default_rng(31)
    re = np.concatenate([[-2.5, -1.0, -1.0, -0.5, 3.0, -7.0, -np.inf, np.nan],
                         rng.uniform(-6, 3, 24)])
    im = np.concatenate([[-0.0, -0.0, 0.0, -0.0, -0.0, 0.0, -0.0, -0.0],
                         rng.choice([0.0, -0.0], 24)])
    y = (re + 1j * im).astype(dt)
    y.imag[:] = im                      # (re + 1j * -0.0 loses the sign)
    x = (rng.uniform(-3, 3, 32) + 1j * rng.uniform(-3, 3, 32)).astype(dt)
    x[:4] = [1, 1j, -1j, 2 + 1j]
    dx, hx = make_layout(x, layout)
    dy, hy = make_layout(y, layout)
    with np.errstate(all="ignore"):
        want = ss.xlog1py(hx, hy)
    _same(gs.xlog1py(dx, dy), want, rtol=1e-13 if dt == np.complex128 else 1e-6)


# (wofz has complex loops only, as SciPy's: no float64 case)
@pytest.mark.parametrize("name, dt", [(n, t) for n in ("dawsn", "wofz", "erfi", "erfcx")
                                      for t in (np.float64, np.complex128)
                                      if (n, t) != ("wofz", np.float64)])
def test_faddeeva_family_near_float64_max(name, dt):
    # w(x + iy) for y < 1 adds exp(-z^2) (cos 2xy, -sin 2xy): -2xy overflowed to inf for x near
    # 1.7e308 and inf * 0 made the whole of w NaN (SciPy: dawsn(1.7e308) = 2.9e-309)
    x = np.array([1.7e308, -1.7e308, 1.79e308, 1e308, -9e307, 5e307, 1e300, 2e154, 27.5, -30.0])
    if dt == np.complex128:
        x = np.concatenate([x + 1j * y for y in (0.0, 1e-300, 0.5, -0.5, 0.99)])
    with np.errstate(all="ignore"):
        want = getattr(ss, name)(x)
    # (zero signs not compared: an underflowed part, e.g. Im dawsn(2e154 + 1e-300i), is -0.0
    # in SciPy, +0.0 in npgpu)
    _same(getattr(gs, name)(npgpu.asarray(x)), want, rtol=1e-13, signs=False)


@pytest.mark.parametrize("name", ["beta", "betaln"])
def test_beta_nonpositive_integer_past_c_int(name):
    # SciPy takes a non-positive integer argument as a C int (1 - a as well): below
    # -2147483646 the value is inf; above it (-1)^b B(1 - a - b, b) as before
    a = np.array([-2147483646.0, -2147483645.0, -2147483647.0, -2147483648.0, -2147483649.0,
                  -3e9, -1e10, -3.3842860047749115e18, -2147483646.0, -2147483600.0, -5.0,
                  -np.inf])
    b = np.array([3.0, 1.0, 3.0, 2.0, 2.0, 2.0, 1e9, 5.162671173509251e17, 2147483646.0,
                  10.0, 3.0, 2.0])
    f = getattr(gs, name)
    for p, q in ((a, b), (b, a)):
        want = getattr(ss, name)(p, q)
        _same(f(npgpu.asarray(p), npgpu.asarray(q)), want, rtol=1e-12)


def test_betaln_large_intp_arguments():
    # SciPy's test_support_alternative_backends: betaln of int64 over the whole range
    rng = np.random.default_rng(984254252920492019)
    ii = np.iinfo(np.intp)
    a = rng.integers(ii.min, ii.max, size=20, dtype=np.intp)
    b = rng.integers(ii.min, ii.max, size=20, dtype=np.intp)
    for name in ("beta", "betaln"):
        want = getattr(ss, name)(a, b)
        _same(getattr(gs, name)(npgpu.asarray(a), npgpu.asarray(b)), want, rtol=1e-12)


@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp_float16_keeps_float16(axis, keepdims):
    # the fused path sums in complex64 (ties as the imaginary part): its result was float32
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((5, 6)) * 3).astype(np.float16)
    a[1, 2] = a[1, 3]
    want = ss.logsumexp(a, axis=axis, keepdims=keepdims)
    got = gs.logsumexp(npgpu.asarray(a), axis=axis, keepdims=keepdims)
    _same(got, want, rtol=2e-3, atol=2e-3)
    for dt in (np.float32, np.float64):     # unchanged: the input's dtype
        want = ss.logsumexp(a.astype(dt), axis=axis, keepdims=keepdims)
        got = gs.logsumexp(npgpu.asarray(a.astype(dt)), axis=axis, keepdims=keepdims)
        _same(got, want, rtol=1e-5 if dt == np.float32 else 1e-13, atol=1e-6)


_FLOAT_DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("name", sorted(gs.UFUNCS))
def test_nan_inputs(name):
    # SciPy's test_nan_inputs for npgpu's ufuncs: NaN in every argument gives NaN, in SciPy's
    # loop's dtype, for every dtype SciPy has a loop for (and SciPy's TypeError where none)
    f = gs.UFUNCS[name]
    for dt in _FLOAT_DTYPES:
        args = [np.full(3, np.nan, dtype=dt) for _ in range(f.nin)]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = _scipy(name)(*args)
        except TypeError:
            with pytest.raises(TypeError):
                f(*[npgpu.asarray(x) for x in args])
            continue
        got = _host(f(*[npgpu.asarray(x) for x in args]))
        assert got.dtype == want.dtype, (dt, got.dtype, want.dtype)
        assert np.isnan(got).all(), (dt, got)
    got = _host(f(*(np.nan,) * f.nin))
    assert got.dtype == np.asarray(_scipy(name)(*(np.nan,) * f.nin)).dtype and np.isnan(got)


@pytest.mark.parametrize("name", sorted(gs.UFUNCS))
def test_ufunc_types_as_scipy(name):
    # SciPy's test_ufunc_signatures: every float64 loop has its float32 twin; npgpu's loops are
    # SciPy's, less the long double ones ('g', out of scope)
    f = gs.UFUNCS[name]
    theirs = _scipy(name)
    assert f.types == [t for t in theirs.types if "g" not in t]
    assert (f.nin, f.nout, f.nargs, f.identity, f.signature, f.__name__) == (
        theirs.nin, theirs.nout, theirs.nargs, theirs.identity, theirs.signature,
        theirs.__name__)
    types = {t for t in f.types if not any(c in t for c in "liqp")}
    twins = set()
    for t in types:
        twins.update([t.replace("d", "f").replace("D", "F"),
                      t.replace("f", "d").replace("F", "D")])
    assert types == twins
