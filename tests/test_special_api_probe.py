"""npgpu.scipy.special called the ways users call it, against SciPy: ufunc attributes and
methods, special values at the edges of rel_entr, inv_boxcox, beta/betaln and gammainc, and the
axis, dtype, weight and complex forms of logsumexp, softmax and log_softmax (a probe's
findings)."""
import warnings

import numpy as np
import pytest
import scipy.special as ss

import npgpu
import npgpu.scipy.special as gs
from conftest import raises_like

UFUNC_NAMES = sorted(n for n in gs.__all__ if isinstance(getattr(ss, n), np.ufunc))


def _get(r):
    return r.get() if isinstance(r, npgpu.ndarray) else np.asarray(r)


def _close(got, want, rtol):
    got, want = _get(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True)
    # signed zeros and infinities as SciPy's
    num = ~np.isnan(want.real)
    assert np.array_equal(np.signbit(got.real[num]), np.signbit(want.real[num]))


def _scipy(fn, *args, **kw):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


@pytest.mark.parametrize("name", UFUNC_NAMES)
def test_ufunc_identity_and_name(name):
    sp, g = getattr(ss, name), getattr(gs, name)
    assert g.identity == sp.identity
    assert g.__name__ == sp.__name__ and repr(g) == repr(sp)


def test_reduce_of_empty_gives_identity():
    # SciPy's binary ufuncs with identity 0 (boxcox, rel_entr, kl_div, huber, inv_boxcox)
    for name in ("boxcox", "rel_entr", "huber"):
        e = getattr(ss, name).reduce(np.array([]))
        r = getattr(gs, name).reduce(npgpu.asarray(np.array([])))
        _close(r, e, 0)


@pytest.mark.parametrize("name", ["kl_div", "inv_boxcox", "rel_entr", "huber", "xlogy", "beta"])
def test_reduce_folds_in_order_from_identity(name):
    # NumPy folds kl_div.reduce from 0 in order (no tree); accumulate starts at the first element
    sp, g = getattr(ss, name), getattr(gs, name)
    x = np.array([2.0, 3.0, 0.5, 1.5])
    m = np.arange(1.0, 9.0).reshape(2, 2, 2) / 3
    gx, gm = npgpu.asarray(x), npgpu.asarray(m)
    _close(g.reduce(gx), _scipy(sp.reduce, x), 1e-13)
    if sp.identity is None:         # several axes: NumPy's error
        raises_like(lambda: sp.reduce(m, axis=(0, 2)), lambda: g.reduce(gm, axis=(0, 2)))
    else:
        _close(g.reduce(gm[::-1], axis=(0, 2)), _scipy(sp.reduce, m[::-1], axis=(0, 2)), 1e-13)
        _close(g.reduce(gm, axis=None), _scipy(sp.reduce, m, axis=None), 1e-13)
        _close(g.reduce(npgpu.asarray(x[:0])), sp.reduce(x[:0]), 0)
    _close(g.accumulate(gx), _scipy(sp.accumulate, x), 1e-13)
    _close(g.reduceat(gx, [0, 2]), _scipy(sp.reduceat, x, [0, 2]), 1e-13)


def test_digamma_errors_name_psi():
    raises_like(lambda: ss.digamma(np.ones(2), np.ones(2), np.ones(2)),
                lambda: gs.digamma(npgpu.ones(2), npgpu.ones(2), npgpu.ones(2)))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_rel_entr_ratio_out_of_range(dt):
    # x/y overflows, underflows to a subnormal, or is near 1 (SciPy's three branches)
    big, tiny = (1e30, 1e-30) if dt == np.float32 else (1e300, 1e-310)
    x = np.array([1.0, 0.5, 2.0, tiny, big, 30.0, 1.0, 1.0 + 1e-6, 3.0, 0.7], dt)
    y = np.array([tiny, tiny, tiny, big, tiny, tiny, 1.0 + 1e-6, 1.0, 1.7, 1.3], dt)
    _close(gs.rel_entr(npgpu.asarray(x), npgpu.asarray(y)), ss.rel_entr(x, y),
           2e-6 if dt == np.float32 else 1e-13)
    _close(gs.rel_entr(npgpu.asarray(x)[::-2], npgpu.asarray(y)[::-2]),
           ss.rel_entr(x[::-2], y[::-2]), 2e-6 if dt == np.float32 else 1e-13)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_kl_div_ratio_out_of_range(dt):
    # SciPy's float32 loop computes in float64: x/y overflowing float32 stays finite
    big, tiny = (1e29, 3e-23) if dt == np.float32 else (1e300, 1e-300)
    x = np.array([big, tiny, 2.0, 1e-30, 5.0, 0.0, 1.0, 3.0], dt)
    y = np.array([tiny, big, 1e-40, 2.0, 5.0, 2.0, 0.0, 1.7], dt)
    _close(gs.kl_div(npgpu.asarray(x), npgpu.asarray(y)), _scipy(ss.kl_div, x, y),
           2e-6 if dt == np.float32 else 1e-13)


def test_float32_loops_compute_in_float64():
    # SciPy's 'ff->f' loops: kl_div near x = y (float32 cancels), boxcox's expm1 and huber's r^2
    # past float32's range with a finite result
    cases = {"kl_div": ([4.411628, 2.0, 1.0001], [4.3961954, 2.0001, 1.0]),
             "rel_entr": ([4.411628, 1e30, 3e-30], [4.3961954, 1e-30, 2e30]),
             "boxcox": ([483.35083, 2.0, 0.5], [14.37937, -3.0, 1e-20]),
             "huber": ([3e19, 1.0, -1.0], [2.1e19, 0.5, 2.0]),
             "inv_boxcox": ([1e30, 3.0, 10.0], [1e30, 0.5, 7.0])}
    for name, (x, y) in cases.items():
        x, y = np.array(x, np.float32), np.array(y, np.float32)
        want = _scipy(getattr(ss, name), x, y)
        _close(getattr(gs, name)(npgpu.asarray(x), npgpu.asarray(y)), want, 2e-7)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_inv_boxcox_product_overflow(dt):
    big = 1e30 if dt == np.float32 else 1e300
    x = np.array([big, big, 10.0, -big, big, np.inf, 2.0, -np.inf, 1.5, -0.3], dt)
    lm = np.array([big, 1e10, big, -big, -big, 2.0, np.inf, -2.0, 0.0, 0.7], dt)
    _close(gs.inv_boxcox(npgpu.asarray(x), npgpu.asarray(lm)), _scipy(ss.inv_boxcox, x, lm),
           2e-6 if dt == np.float32 else 1e-13)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["beta", "betaln"])
def test_beta_infinite_and_pole_of_sum(name, dt):
    # inf with a negative non-integer: Gamma(b)'s sign (beta(inf, -0.5) = -inf); a + b a
    # non-positive integer: a zero with the sign of Gamma(a) Gamma(b)
    a = np.array([np.inf, -0.5, np.inf, -1.5, -0.5, -0.3, 0.5, 1.5, 2.5, 0.5], dt)
    b = np.array([-0.5, np.inf, 2.0, -np.inf, -0.5, -1.7, -0.5, -1.5, -3.5, -1.5], dt)
    sp, g = getattr(ss, name), getattr(gs, name)
    _close(g(npgpu.asarray(a), npgpu.asarray(b)), _scipy(sp, a, b), 1e-6)


def test_gammainc_subnormal_a_is_finite():
    # the series' 1/a overflowed (nan); P(a, x) -> 1 as a -> 0
    a = np.array([1e-310, 1e-310, 5e-324, 0.5])
    x = np.array([0.5, 1e-3, 0.9, 0.5])
    r = gs.gammainc(npgpu.asarray(a), npgpu.asarray(x)).get()
    assert np.array_equal(r[:3], [1.0, 1.0, 1.0])
    np.testing.assert_allclose(r[3], ss.gammainc(0.5, 0.5), rtol=1e-14)
    q = gs.gammaincc(npgpu.asarray(a), npgpu.asarray(x)).get()
    assert np.all(np.isfinite(q)) and np.all(q[:3] >= 0) and np.all(q[:3] < 1e-300)


AXES_BAD = [[0, 1], 1.5, (0, 0), (0, -2), 2, -3, (0, 2), np.float64(1)]


@pytest.mark.parametrize("fn", ["logsumexp", "softmax", "log_softmax"])
@pytest.mark.parametrize("axis", AXES_BAD, ids=repr)
def test_axis_errors(fn, axis):
    x = np.arange(6.0).reshape(2, 3)
    raises_like(lambda: getattr(ss, fn)(x, axis=axis),
                lambda: getattr(gs, fn)(npgpu.asarray(x), axis=axis))


@pytest.mark.parametrize("fn", ["logsumexp", "softmax", "log_softmax"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0,), 5, (0, -1, 0)], ids=repr)
def test_axis_of_0d(fn, axis):
    x = np.array(2.5)
    kw = {"keepdims": True} if fn == "logsumexp" else {}
    try:
        want = getattr(ss, fn)(x, axis=axis, **kw)
    except Exception:       # noqa: BLE001 - the class and message are compared
        raises_like(lambda: getattr(ss, fn)(x, axis=axis, **kw),
                    lambda: getattr(gs, fn)(npgpu.asarray(x), axis=axis, **kw))
        return
    _close(getattr(gs, fn)(npgpu.asarray(x), axis=axis, **kw), want, 1e-15)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.int32, np.int64])
def test_softmax_of_integers(fn, dt):
    # SciPy's formula on the input dtype: int8 exponentiates to float16, int16 to float32
    x = np.array([[1, 2, 0], [3, 1, 1]], dt)
    for axis in (None, 0, -1):
        want = _scipy(getattr(ss, fn), x, axis=axis)
        got = getattr(gs, fn)(npgpu.asarray(x), axis=axis)
        _close(got, want, 2e-3 if want.dtype == np.float16 else 1e-6)


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
def test_softmax_bool_and_empty_errors(fn):
    b = np.array([True, False, True])
    raises_like(lambda: getattr(ss, fn)(b), lambda: getattr(gs, fn)(npgpu.asarray(b)))
    for shape, axis in (((0,), None), ((2, 0), -1), ((0, 3), 0)):
        e = np.zeros(shape)
        raises_like(lambda: getattr(ss, fn)(e, axis=axis),
                    lambda: getattr(gs, fn)(npgpu.asarray(e), axis=axis))
    e = np.zeros((2, 0))                 # nothing reduced over an empty axis: empty result
    _close(getattr(gs, fn)(npgpu.asarray(e), axis=0), getattr(ss, fn)(e, axis=0), 0)


def test_logsumexp_b_of_more_dimensions():
    # a and b broadcast before axis is read: axis=-1 is the common shape's last axis
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=3), rng.uniform(0.5, 2, (2, 3))
    for axis in (-1, 0, None, (0, 1)):
        for kw in ({}, {"return_sign": True}, {"keepdims": True}):
            want = ss.logsumexp(a, axis=axis, b=b, **kw)
            got = gs.logsumexp(npgpu.asarray(a), axis=axis, b=npgpu.asarray(b), **kw)
            for g, w in zip(got, want) if isinstance(want, tuple) else [(got, want)]:
                _close(g, w, 1e-13)
    _close(gs.logsumexp(npgpu.asarray(2.0), b=npgpu.asarray(3.0), keepdims=True),
           ss.logsumexp(2.0, b=3.0, keepdims=True), 1e-15)


def test_logsumexp_b_broadcast_error():
    a = np.ones((2, 3))
    for b in (np.ones(5), np.ones((3, 1, 2))):
        raises_like(lambda: ss.logsumexp(a, b=b),
                    lambda: gs.logsumexp(npgpu.asarray(a), b=npgpu.asarray(b)))


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_logsumexp_complex(dt):
    rng = np.random.default_rng(7)
    a = (rng.normal(size=(3, 4)) * 3 + 1j * rng.normal(size=(3, 4)) * 4).astype(dt)
    rtol = 2e-5 if dt == np.complex64 else 1e-12
    ga = npgpu.asarray(a)
    for axis in (None, 0, -1, (0, 1)):
        _close(gs.logsumexp(ga, axis=axis), ss.logsumexp(a, axis=axis), rtol)
        out, sgn = gs.logsumexp(ga[:, ::-1], axis=axis, return_sign=True, keepdims=True)
        e_out, e_sgn = ss.logsumexp(a[:, ::-1], axis=axis, return_sign=True, keepdims=True)
        _close(out, e_out, rtol)
        _close(sgn, e_sgn, rtol)
    b = rng.uniform(-1, 2, 4)
    out, sgn = gs.logsumexp(ga, axis=-1, b=npgpu.asarray(b), return_sign=True)
    e_out, e_sgn = ss.logsumexp(a, axis=-1, b=b, return_sign=True)
    _close(out, e_out, rtol)
    _close(sgn, e_sgn, rtol)
    z = np.array([1 + 1j, 2 - 3j, -np.inf + 0j, 0.5 + 10j])
    _close(gs.logsumexp(npgpu.asarray(z)), ss.logsumexp(z), 1e-12)
    # a real array with complex weights is complex (SciPy's promotion)
    x, w = np.array([1.0, 2.0]), np.array([1j, 1.0])
    _close(gs.logsumexp(npgpu.asarray(x), b=npgpu.asarray(w)), ss.logsumexp(x, b=w), 1e-12)
