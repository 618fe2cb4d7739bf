"""The float32 loops of npgpu.scipy.special computed in float32 (i0, i0e, i1, i1e, digamma,
gammainc, gammaincc) against SciPy's float64 values: dense grids over the test domains and the
benchmark ranges, both sides of each branch point, and special values."""
import numpy as np
import pytest

import npgpu
import npgpu.scipy.special as gs
from npgpu.ufuncs import helpers as _helpers

sp = pytest.importorskip("scipy.special")

rng = np.random.default_rng(32)
F32 = np.float32


def check(got, want, rtol, atol=0.0):
    got = got.get()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=rtol, atol=atol,
                               equal_nan=True)


def ref(name, *args):
    with np.errstate(all="ignore"):
        return getattr(sp, name)(*(a.astype(np.float64) for a in args))


# the fits are below 0.2 ulp; x^2 and exp(-|x|) rounding and the GPU's expf leave a few ulp
@pytest.mark.parametrize("name", ["i0", "i0e", "i1", "i1e"])
def test_bessel_i_grid(name):
    x = np.concatenate([np.linspace(-20, 20, 241), np.nextafter(F32(8), F32([0, 20])),
                        -np.nextafter(F32(8), F32([0, 20])), rng.uniform(-30, 30, 40),
                        np.geomspace(8, 1e6, 40), -np.geomspace(1e-30, 8, 20)]).astype(F32)
    want = ref(name, x)
    keep = np.abs(want) < 3e38          # where float32 overflows SciPy's is inf too
    x, want = x[keep], want[keep]
    check(getattr(gs, name)(npgpu.asarray(x)), want, rtol=2e-6)


@pytest.mark.parametrize("name", ["i0", "i0e", "i1", "i1e"])
def test_bessel_i_edges(name):
    x = np.array([0.0, -0.0, 1e-38, -1e-38, 88.0, 89.0, 95.0, -95.0, 1e30, -1e30, np.inf,
                  -np.inf, np.nan], F32)
    got = getattr(gs, name)(npgpu.asarray(x)).get()
    with np.errstate(over="ignore"):
        want = ref(name, x).astype(F32)
    np.testing.assert_allclose(got, want, rtol=2e-6, equal_nan=True)
    assert got.dtype == F32


def test_digamma_grid():
    """Away from the negative zeros (where the reflection's cancellation is absolute) and from
    0 to 3 (the recurrence) a few to ~15 ulp; the positive zero keeps its relative accuracy."""
    x0 = 1.4616321449683622
    pos = np.concatenate([np.linspace(1e-4, 30, 300), np.geomspace(1e-30, 1e30, 30),
                          x0 + np.linspace(-0.25, 0.25, 61)]).astype(F32)
    check(gs.digamma(npgpu.asarray(pos)), ref("digamma", pos), rtol=3e-6)
    near = (x0 + np.array([1e-7, -1e-7, 1e-5, -3e-4])).astype(F32)   # psi ~ 1e-7 .. 3e-4
    check(gs.psi(npgpu.asarray(near)), ref("digamma", near), rtol=3e-6)
    neg = rng.uniform(-10, 0, 300).astype(F32)
    check(gs.digamma(npgpu.asarray(neg)), ref("digamma", neg), rtol=2e-5, atol=2e-6)


def test_digamma_edges():
    x = np.array([0.0, -0.0, -1.0, -2.0, -1e30, 3.0, np.nextafter(F32(3), F32(0)), -0.5, -2.5,
                  np.inf, -np.inf, np.nan, 1e-38, -1e-38], F32)
    got = gs.digamma(npgpu.asarray(x)).get()
    np.testing.assert_allclose(got, ref("digamma", x).astype(F32), rtol=3e-6, equal_nan=True)


@pytest.mark.parametrize("name", ["gammainc", "gammaincc"])
def test_gammainc_grid(name):
    """The benchmark's range (a, x in [0.1, 20]), where the series and the continued fraction
    mix, and the test domain's scales; x = a + 1 on both sides."""
    a, x = (v.ravel() for v in np.meshgrid(np.linspace(0.1, 20, 17), np.linspace(0.1, 20, 17)))
    la, lx = np.exp(rng.uniform(-4, 6, 120)), np.exp(rng.uniform(-5, 6.5, 120))
    b = rng.uniform(0.05, 30, 20)
    a = np.concatenate([a, la, b, b]).astype(F32)
    x = np.concatenate([x, lx, b + 1, b + 1.001]).astype(F32)
    check(getattr(gs, name)(npgpu.asarray(a), npgpu.asarray(x)), ref(name, a, x),
          rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("name", ["gammainc", "gammaincc"])
def test_gammainc_edges(name):
    e = np.array([np.nan, np.inf, 0.0, 1e-30, 0.15, 0.5, 1.0, 2.5, 1e3, 2e6, -1.0], F32)
    a, x = (v.ravel() for v in np.meshgrid(e, e))
    a = np.concatenate([a, [3e6, 3e6, 1e7]]).astype(F32)        # Temme's range, float64
    x = np.concatenate([x, [3e6 + 100, 2.9e6, 1.0001e7]]).astype(F32)
    check(getattr(gs, name)(npgpu.asarray(a), npgpu.asarray(x)), ref(name, a, x),
          rtol=2e-5, atol=2e-6)


# the ulp bounds are npgpu's own lgamma's (NPGPU_FAST_MATH_HELPERS without gammaln: libdevice's)
_FAST_GAMMALN = pytest.mark.skipif(not _helpers.fast("gammaln"), reason="libdevice's lgamma")


# gammaln float32: npgpu's straight-line lgamma (lgamma.py), emulated within 3 ulp of
# SciPy; the GPU's logf adds up to 1 ulp of the log.  Every branch point from both sides, both
# zeros of lgamma closely (relative accuracy there), subnormals, huge values, and x <= 0 / NaN
# (libdevice's lgammaf), against SciPy's float64 gammaln.
@_FAST_GAMMALN
def test_gammaln_f32_ulps():
    edges = F32([0.5, 1, 2, 2.5, 3.5])
    x = np.concatenate([np.linspace(0.01, 12, 601), rng.uniform(0.1, 50, 200),
                        np.geomspace(1e-38, 1e30, 120), np.geomspace(1e-45, 1e-38, 8),
                        1 + np.geomspace(1e-7, 1e-2, 30), 1 - np.geomspace(6e-8, 1e-2, 30),
                        2 + np.geomspace(2.4e-7, 1e-2, 30), 2 - np.geomspace(1.2e-7, 1e-2, 30),
                        np.nextafter(edges, F32(0)), edges, np.nextafter(edges, F32(9))])
    x = x.astype(F32)
    got = gs.gammaln(npgpu.asarray(x)).get().astype(np.float64)
    want = ref("gammaln", x)
    ulp = np.spacing(np.abs(want).astype(F32)).astype(np.float64)
    err = np.abs(got - want) / ulp
    assert err.max() <= 4.0, (x[np.argmax(err)], err.max())


def test_gammaln_f32_special_values():
    x = F32([0.0, -0.0, -1.0, -2.5, -0.5, np.inf, -np.inf, np.nan, 3e38, 5e36, 4e36])
    with np.errstate(all="ignore"):
        want = sp.gammaln(x)
    got = gs.gammaln(npgpu.asarray(x)).get()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, equal_nan=True)


# gammaln float64: the same plan in float64 (lgamma.py), within 5 ulp of mpmath's loggamma on
# the simulator (2 outside (1, 1.5)).  Away from the zeros against SciPy (within
# ~2 ulp of mpmath there; on (0.5, 3) SciPy is accurate only in absolute terms: 45 ulp at x =
# 0.97, 12 at 1.73); within 1e-2 of the zeros against lgamma(1 + t) = -gamma t + sum_k>=2
# (-1)^k zeta(k) t^k / k (DLMF 5.7.3) and lgamma(2 + t) = lgamma(1 + t) + log1p(t).
def _lgamma_near_zeros(t, two):
    s = 0.0
    for k in range(12, 1, -1):
        s = (s + (-1) ** k * sp.zeta(k, 1) / k) * t
    s = (s - np.euler_gamma) * t
    return s + np.log1p(t) if two else s


@_FAST_GAMMALN
def test_gammaln_f64_ulps():
    edges = np.array([0.5, 1, 1.5, 2, 2.5, 8])
    away = np.concatenate([np.linspace(0.001, 30, 901), rng.uniform(0.1, 50, 200),
                           np.geomspace(1e-300, 1e300, 120), np.nextafter(edges[[0, 2, 4, 5]], 0),
                           edges[[0, 2, 4, 5]], np.nextafter(edges[[0, 2, 4, 5]], 9)])
    near = away[(away > 0.5) & (away < 3)]
    away = away[(away <= 0.5) | (away >= 3)]
    np.testing.assert_allclose(gs.gammaln(npgpu.asarray(near)).get(), sp.gammaln(near),
                               rtol=0, atol=4e-16)
    t = np.concatenate([np.geomspace(1e-16, 1e-2, 30), -np.geomspace(1e-16, 1e-2, 30), [0.0]])
    x = np.concatenate([away, 1 + t, 2 + t])
    n = away.size + t.size
    want = np.concatenate([sp.gammaln(away), _lgamma_near_zeros(x[away.size:n] - 1, False),
                           _lgamma_near_zeros(x[n:] - 2, True)])
    got = gs.gammaln(npgpu.asarray(x)).get()
    err = np.abs(got - want) / np.spacing(np.abs(want))
    err[want == 0] = np.abs(got[want == 0]) / 5e-324
    assert err.max() <= 6.0, (x[np.argmax(err)], err.max())
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3e305])
    np.testing.assert_array_equal(gs.gammaln(npgpu.asarray(special)).get(), sp.gammaln(special))
    # subnormal x: SciPy gives inf; lgamma(x) = -log(x) there (as libdevice's lgamma gives)
    tiny = np.array([5e-324, 1e-310])
    np.testing.assert_allclose(gs.gammaln(npgpu.asarray(tiny)).get(), -np.log(tiny), rtol=1e-15)
