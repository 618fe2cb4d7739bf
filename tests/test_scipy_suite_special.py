"""npgpu.scipy.special where SciPy's own test modules (scripts/numpy_tests.py on
scipy/special/tests) found it apart from SciPy: boxcox past expm1's overflow, zeta of large
negative x (overflow on the way to a finite result, accuracy), gammainc's small lower tail for
large a, i0/i0e at 0.  References are SciPy's, or mpmath's (50 digits) where SciPy's own value
is off."""
import numpy as np
import pytest
import scipy.special as ss

import npgpu
import npgpu.scipy.special as gs
from conftest import make_layout

LAYOUTS = ("contiguous", "strided", "negative", "zero_d", "empty")


def _close(got, want, rtol, atol=0.0):
    got = got.get() if isinstance(got, npgpu.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_boxcox_lmbda_log_x_past_expm1_overflow(dt, layout):
    # lmbda log(x) >= 709.78: x^lmbda overflows, x^lmbda / lmbda need not (SciPy's branch)
    rng = np.random.default_rng(11)
    x = np.concatenate([[100.0, 0.01, 2.0, 0.5], 10 ** rng.uniform(-3, 3, 28)])
    lm = np.concatenate([[155.0, -155.0, 1030.0, -1030.0],
                         rng.choice([-1, 1], 28) * rng.uniform(100, 400, 28)])
    hx, hl = x.astype(dt), lm.astype(dt)
    dx, hx = make_layout(hx, layout)
    dl, hl = make_layout(hl, layout)
    with np.errstate(all="ignore"):
        want = ss.boxcox(hx, hl)
        got = gs.boxcox(dx, dl)
    _close(got, want, rtol=1e-14 if dt == np.float64 else 1e-6)
    if dt == np.float64 and layout == "contiguous":
        assert np.isfinite(got.get()[:2]).all()
        back = gs.inv_boxcox(got, dl)       # SciPy's round trip of these values
        _close(back, ss.inv_boxcox(want, hl), rtol=1e-14)
        _close(back[:2], np.array([100.0, 0.01]), rtol=1e-14)


def test_boxcox_ordinary_range_unchanged():
    rng = np.random.default_rng(12)
    x = rng.uniform(0.01, 50, 40)
    lm = rng.uniform(-3, 3, 40)
    lm[:3] = [0.0, 1e-20, -1e-20]
    _close(gs.boxcox(npgpu.asarray(x), npgpu.asarray(lm)), ss.boxcox(x, lm), rtol=1e-14)


# zeta(x) for x < -0.5 (mpmath, 50 digits): finite results whose Gamma(1 - x) or power factor
# alone overflows, and large |x| where exp(lgamma(1 - x)) lost 1e-13
_ZETA_NEG = [(-260.00000000001, -5.6966307844402683127e+297),      # SciPy's test, mpmath
             (-259.9, 3.907358885604961e+307), (-255.1, 4.4431229186555665565e+300),
             (-150.1, 7.329019784476169e+141), (-100.7, -2.8092842824039024e+78),
             (-50.3, 1.0136782931767341e+24), (-9.5, -0.006672172296466641)]


@pytest.mark.parametrize("layout", ["contiguous", "negative", "zero_d"])
def test_zeta_large_negative_x_against_mpmath(layout):
    x = np.array([v for v, _ in _ZETA_NEG])
    want = np.array([w for _, w in _ZETA_NEG])
    dx, hx = make_layout(x, layout)
    _, hw = make_layout(want, layout)
    _close(gs.zeta(dx), hw, rtol=5e-15)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_zeta_negative_x_against_scipy(dt):
    rng = np.random.default_rng(13)
    x = np.concatenate([-rng.uniform(0.5, 300, 40), [-270.1, -300.3, -1000.5, -1e20, -258.0,
                                                     -np.inf, np.nan]]).astype(dt)
    with np.errstate(all="ignore"):
        want = ss.zeta(x)
    # SciPy's own error reaches 7e-14 here (npgpu's 3e-15 against mpmath)
    _close(gs.zeta(npgpu.asarray(x)), want, rtol=2e-13 if dt == np.float64 else 1e-6)


# P(a, x) for large a, x < a (mpmath: the series at 60 digits).  SciPy's local data's points
# and a few more: P is tiny where 1 - Q would round to 0 (a > 1e6, Temme's expansion) or lose
# 1e-12 to log1p(m) - m (a ~ 1e6, the series' prefactor)
_GAMMAINC_TAIL = [
    (837096.9437965838, 820422.1489999401, 1.73501486919492e-75),
    (1851839.4962720878, 1814951.2435726959, 2.8509055821322606e-164),
    (845203.0643058915, 812068.7015094178, 2.4116632709739327e-292),
    (175905.12697374166, 162538.9535121924, 5.080479810702613e-235),
    (2500000.0, 2450000.0, 1.0323141699010042e-222),
    (30000000.0, 29900000.0, 6.230387693687427e-75),
    (1200000.0, 1190000.0, 2.746068459968701e-20),
    (833250.5281001468, 829125.9779208903, 3.0118679717380053e-06),    # SciPy: 3.01186e-06
    (800000.0, 790000.0, 1.504345177478729e-29),
    (5445743.01243849, 5433919.008341998, 1.9853717790404513e-07),    # SciPy: 1.97005e-07
    (6776154.801189221, 6759422.142253787, 6.250030151997162e-11),
    (5000000.0, 5010000.0, 0.9999960763294027),
]


@pytest.mark.parametrize("layout", ["contiguous", "strided", "negative"])
def test_gammainc_large_a_small_lower_tail(layout):
    a = np.array([r[0] for r in _GAMMAINC_TAIL])
    x = np.array([r[1] for r in _GAMMAINC_TAIL])
    p = np.array([r[2] for r in _GAMMAINC_TAIL])
    da, _ = make_layout(a, layout)
    dx, _ = make_layout(x, layout)
    _close(gs.gammainc(da, dx), p, rtol=2e-13)
    # Q = 1 - P where P is small: the complement rounds as SciPy's
    _close(gs.gammaincc(da, dx)[:-1], 1.0 - p[:-1], rtol=1e-15)


def test_gammainc_large_a_p_plus_q_near_a():
    # a > 1e6, |x - a| < 0.3 a on both sides: Temme's P and Q forms are complements (SciPy's
    # P is off by up to 0.8% in this range: the mpmath points above are the reference)
    rng = np.random.default_rng(14)
    a = 10 ** rng.uniform(6, 7, 40)
    x = a * (1 + rng.uniform(-0.004, 0.004, 40))
    p = gs.gammainc(npgpu.asarray(a), npgpu.asarray(x)).get()
    q = gs.gammaincc(npgpu.asarray(a), npgpu.asarray(x)).get()
    assert (p > 0).all() and (q > 0).all()
    np.testing.assert_allclose(p + q, np.ones(40), rtol=0, atol=3e-15)


@pytest.mark.parametrize("name", ["i0", "i0e"])
def test_i0_at_zero_is_one(name):
    f = getattr(gs, name)
    for dt in (np.float32, np.float64):
        z = npgpu.asarray(np.array([0.0, -0.0], dtype=dt))
        np.testing.assert_array_equal(f(z).get(), np.ones(2, dt))
    assert float(f(npgpu.asarray(0.0)).get()) == 1.0
    np.testing.assert_array_equal(npgpu.i0(npgpu.asarray([0.0])).get(), np.i0([0.0]))


@pytest.mark.parametrize("name", ["i0", "i0e", "i1", "i1e"])
@pytest.mark.parametrize("layout", ["contiguous", "negative", "zero_d", "empty"])
def test_bessel_i_float64_against_scipy(name, layout):
    rng = np.random.default_rng(15)
    x = np.concatenate([rng.uniform(-9, 9, 30), [1e-300, 1e-8, 8.0, -8.0, 40.0, 1e6]])
    dx, hx = make_layout(x, layout)
    # the series sums cancel near |x| = 8 (i1: to e^-8 I1(8)/8 from terms of ~0.2)
    _close(getattr(gs, name)(dx), getattr(ss, name)(hx),
           rtol=1e-15 if name.startswith("i0") else 3e-15)
