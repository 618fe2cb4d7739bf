"""npgpu.scipy.special answers bad and unusual input as SciPy does (a probe's findings): complex
input (SciPy's error, a complex loop, or npgpu's TypeError saying it has none), argument counts
and out=/dtype=/signature=/casting=/order= errors (NumPy's ufunc messages), and the result dtype
of every bool/int/float array and Python scalar mix (SciPy's loop resolution)."""
import warnings

import numpy as np
import pytest
import scipy.special as ss

import npgpu
import npgpu.scipy.special as gs
from conftest import raises_like

UFUNC_NAMES = sorted(n for n in gs.__all__ if isinstance(getattr(ss, n), np.ufunc))
# SciPy computes these for complex input; npgpu has no complex loop for them
NO_COMPLEX = set()
# npgpu's complex loops (the error-function family: tests/test_special_complex.py; the gamma
# family, wofz, erfi, dawsn: tests/test_special_complex_gamma.py)
HAS_COMPLEX = {"xlogy", "xlog1py", "erf", "erfc", "erfcx", "ndtr", "log_ndtr", "gamma",
               "loggamma", "digamma", "psi", "rgamma", "wofz", "erfi", "dawsn"}
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64]
PY = [True, 3, 2.5]


def _result_or_error(fn):
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            r = fn()
    except Exception as e:      # noqa: BLE001 - class and message are compared
        return type(e), str(e)
    return np.asarray(r.get() if isinstance(r, npgpu.ndarray) else r).dtype


def _dev(x):
    return npgpu.asarray(x) if isinstance(x, np.ndarray) and x.dtype != object else x


@pytest.mark.parametrize("name", UFUNC_NAMES)
@pytest.mark.parametrize("cdt", [np.complex64, np.complex128])
def test_complex_input(name, cdt):
    rng = np.random.default_rng(5)
    sp, g = getattr(ss, name), getattr(gs, name)
    z = (rng.uniform(-3, 3, 8) + 1j * rng.uniform(-3, 3, 8)).astype(cdt)
    args = [z] * sp.nin
    try:
        sp(*args)
    except TypeError as e:
        with pytest.raises(TypeError) as got:       # SciPy refuses: the same error
            g(*map(_dev, args))
        assert str(got.value) == str(e)
        return
    if name in NO_COMPLEX:
        with pytest.raises(TypeError, match=f"npgpu.scipy.special.{g.__name__} does not "
                                            "support complex input"):
            g(*map(_dev, args))
    else:
        assert name in HAS_COMPLEX


def _complex_data(rng, n, cdt):
    """Random complex values over a wide range, near the axes and the unit circle, with
    zeros, NaN and inf parts."""
    mag = 10.0 ** rng.uniform(-8, 8, n)
    z = mag * np.exp(1j * rng.uniform(-np.pi, np.pi, n))
    z[:6] = z[:6].real                      # on the real axis (both signs)
    z[6:12] = 1j * z[6:12].imag             # on the imaginary axis
    z[12:18] = np.exp(1j * rng.uniform(-3, 3, 6)) - 1 + 1e-7 * rng.standard_normal(6)
    z[18:24] = 1e-5 * (rng.standard_normal(6) + 1j * rng.standard_normal(6))
    z[24:30] = [np.nan, complex(np.inf, 1), complex(-np.inf, 2), complex(1, np.inf),
                complex(np.nan, 1), complex(np.nan, np.inf)]
    return z.astype(cdt)


@pytest.mark.parametrize("name", ["xlogy", "xlog1py"])
@pytest.mark.parametrize("cdt", [np.complex64, np.complex128])
def test_complex_xlog(name, cdt):
    rng = np.random.default_rng(11)
    n = 60
    y = _complex_data(rng, n, cdt)
    x = (rng.uniform(-4, 4, n) + 1j * rng.uniform(-4, 4, n)).astype(cdt)
    x[30:36] = 0
    x[36:38] = [np.nan, complex(0, np.inf)]
    y[36:40] = [1.5, -0.25, complex(np.nan, 0), 0.5]
    x[38] = 0                               # 0 * log(NaN): NaN
    want = getattr(ss, name)(x, y)
    got = getattr(gs, name)(npgpu.asarray(x), npgpu.asarray(y)).get()
    assert got.dtype == want.dtype
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(np.isnan(part(got)), np.isnan(part(want)))
    ok = np.isfinite(want)
    rtol = 2e-6 if cdt == np.complex64 else 1e-13
    np.testing.assert_allclose(got[ok], want[ok], rtol=rtol, atol=0)
    np.testing.assert_array_equal(got[~ok & ~np.isnan(want)], want[~ok & ~np.isnan(want)])


def test_complex_mixed_and_scalars():
    rng = np.random.default_rng(2)
    x = rng.uniform(-2, 2, 16)
    y = (rng.uniform(-2, 2, 16) + 1j * rng.uniform(-2, 2, 16)).astype(np.complex64)
    for a, b in [(x, y), (x.astype(np.float32), y), (2.5, y), (x, 1 + 2j),
                 (x.astype(np.float32), 1 + 2j)]:
        want = ss.xlogy(a, b)
        got = gs.xlogy(_dev(a), _dev(b)).get()
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=2e-6 if want.dtype == np.complex64 else 1e-13)
    # zeta(complex): SciPy's loop (complex64 in complex128)
    np.testing.assert_allclose(gs.zeta(npgpu.asarray(y)).get(), ss.zeta(y), rtol=2e-6)
    # dtype= complex on real input: SciPy's complex loop
    got = gs.gamma(npgpu.asarray(x), dtype=np.complex128).get()
    np.testing.assert_allclose(got, ss.gamma(x, dtype=np.complex128), rtol=1e-13)


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_result_dtypes(name):
    """Every bool/int/float array and Python scalar mix: SciPy's dtype or error.  The arrays are
    empty: the resolution is all that is compared, and each dtype mix would otherwise render a
    kernel of its own (2,000 of them, 6 minutes of CI's PTX check); one mix in five again with
    NumPy scalars of 4 random values' first (a kernel each)."""
    sp, g = getattr(ss, name), getattr(gs, name)
    rng = np.random.default_rng(3)
    kinds = DTYPES + PY
    combos = [(a,) for a in kinds] if sp.nin == 1 else \
        [(a, b) for a in kinds for b in kinds if not (a in PY and b in PY) or a is True]
    for i, c in enumerate(combos):
        host = [(rng.uniform(0.1, 3, 4) * (1 if np.dtype(k).kind in "fiu" else 0.4)).astype(k)
                if isinstance(k, type) else k for k in c]
        empty = [h[:0] if isinstance(h, np.ndarray) else h for h in host]
        want = _result_or_error(lambda: sp(*empty))
        got = _result_or_error(lambda: g(*map(_dev, empty)))
        assert got == want, (c, want, got)
        if i % 5 == 0:
            scal = [h[0] if isinstance(h, np.ndarray) else h for h in host]     # NumPy scalars
            assert _result_or_error(lambda: g(*scal)) == _result_or_error(lambda: sp(*scal)), c


def test_boxcox_bool_python_int_values():
    want = ss.boxcox(True, 2)
    got = gs.boxcox(True, 2)
    assert got.dtype == np.float64 == np.asarray(want).dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-13)
    b = np.array([True, False, True, True])
    lam = np.random.default_rng(4).uniform(-1, 2, 4)
    for args in [(b, 2), (2, b), (b, lam)]:
        w = ss.boxcox(*args)
        r = gs.boxcox(*map(_dev, args)).get()
        assert r.dtype == w.dtype == np.float64
        np.testing.assert_allclose(r, w, rtol=1e-13)


def _calls(name):
    """(label, args, kwargs) of bad and unusual calls, as host values."""
    nin = getattr(ss, name).nin
    x = np.random.default_rng(7).uniform(0.1, 0.9, 3)
    xs = (x,) * nin
    return [
        ("no arguments", (), {}),
        ("too few", xs[:-1], {}),
        ("too many", xs + (x, x), {}),
        ("positional out and out=", xs + (np.empty(3),), {"out": np.empty(3)}),
        ("out= int", xs, {"out": np.empty(3, np.int64)}),
        ("out= tuple of two", xs, {"out": (np.empty(3), np.empty(3))}),
        ("out= empty tuple", xs, {"out": ()}),
        ("out= list", xs, {"out": [np.empty(3)]}),
        ("out= float", xs, {"out": 3.0}),
        ("out= str", xs, {"out": "a"}),
        ("out= wrong shape", xs, {"out": np.empty(4)}),
        ("out= too big", xs, {"out": np.empty((2, 4))}),
        ("unknown keyword", xs, {"foo": 1}),
        ("axis=", xs, {"axis": 0}),
        ("dtype= int", xs, {"dtype": np.int64}),
        ("dtype= float16", xs, {"dtype": np.float16}),
        ("dtype= float32, safe", xs, {"dtype": np.float32, "casting": "safe"}),
        ("bad casting", xs, {"casting": "bogus"}),
        ("bad order", xs, {"order": "X"}),
        ("signature int", xs, {"signature": "l" * nin + "->l"}),
        ("str input", ("a",) * nin, {}),
        ("None input", (None,) * nin, {}),
        ("object array", (np.array([1, 2], dtype=object),) * nin, {}),
    ]


@pytest.mark.parametrize("name", ["erf", "gammaln", "boxcox", "gammainc", "xlogy", "i0",
                                  "digamma", "expit"])
def test_call_errors(name):
    sp, g = getattr(ss, name), getattr(gs, name)
    for label, args, kw in _calls(name):
        dkw = {k: tuple(map(_dev, v)) if isinstance(v, tuple) else _dev(v)
               for k, v in kw.items()}
        raises_like(lambda: sp(*args, **kw), lambda: g(*map(_dev, args), **dkw))


@pytest.mark.parametrize("name", ["erf", "boxcox", "expit", "gammainc"])
def test_signature_and_dtype(name):
    sp, g = getattr(ss, name), getattr(gs, name)
    x = np.random.default_rng(8).uniform(0.1, 0.9, 5)
    xs = (x,) * sp.nin
    for kw in [{"signature": "f" * sp.nin + "->f"}, {"signature": (None,) * sp.nin + (np.float32,)},
               {"dtype": np.float32}, {"signature": "d" * sp.nin + "->d"}]:
        want = sp(*xs, **kw)
        got = g(*map(npgpu.asarray, xs), **kw).get()
        assert got.dtype == want.dtype, kw
        np.testing.assert_allclose(got, want, rtol=2e-6)
    # out= and where= still work, positional out too
    o = npgpu.zeros(5)
    g(*map(npgpu.asarray, xs), o)
    np.testing.assert_allclose(o.get(), sp(*xs), rtol=2e-6)
    mask = np.array([True, False, True, False, True])
    o = npgpu.zeros(5)
    g(*map(npgpu.asarray, xs), out=o, where=npgpu.asarray(mask))
    np.testing.assert_allclose(o.get(), np.where(mask, sp(*xs), 0), rtol=2e-6)
    # a list input and a NumPy array input go to the device
    np.testing.assert_allclose(g(*[list(v) for v in xs]).get(), sp(*xs), rtol=2e-6)
