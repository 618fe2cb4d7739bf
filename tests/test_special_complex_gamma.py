"""npgpu.scipy.special's complex loops of loggamma, gamma, rgamma, digamma/psi
(npgpu/scipy/special/complex_gamma.py) and wofz, erfi, dawsn (faddeeva.py), and the new real loops
of rgamma, erfi and dawsn, against SciPy's.

Tolerance, per component c of SciPy's value b: |got_c - b_c| <= rtol |b_c| + arel |b| + extra.
rtol is asked of a component not small next to the other; arel admits an error relative to the
modulus in a component much smaller than it (a complex function carries its error relative to
|b|: Im loggamma(3 + 1e-9 i) is 1e-9 of |loggamma|).  extra, by function:

* gamma, rgamma = exp(+-loggamma): the absolute error of loggamma becomes a relative error of the
  result, and loggamma's is a few ulp of |loggamma| (ulp(2000) = 2e-13 for |z| near 1e3, in SciPy
  as here): 4e-16 |loggamma(z)| |b|;
* digamma near its negative zeros past the first (-1.57, -2.61, ...): the reflection
  psi(1 - z) - pi cot(pi z) cancels to the small result, in SciPy too: 4e-16 (|psi(1 - z)| + 1) of
  absolute error;
* loggamma: the reflection and the recurrence subtract logs of size log|sin(pi z)| and
  log|z (z+1)...|; the result is accurate to a few ulp of those: 4e-16 (1 + |log|z||) absolute.

complex64 computes in complex128 and rounds (SciPy too): rtol 1e-5 on the rounded values.
"""
import warnings

import numpy as np
import pytest
import scipy.special as ss

import npgpu
import npgpu.scipy.special as gs

GAMMA = ["loggamma", "gamma", "rgamma", "digamma", "psi"]
FADDEEVA = ["wofz", "erfi", "dawsn"]


def _data(rng, n=40):
    """|z| from 1e-8 to 1e3 at every angle, near and on both axes, near the poles and the negative
    real axis (the branch cut), the regions' borders, and non-finite and signed-zero parts."""
    r = 10 ** rng.uniform(-8, 3, n)
    sgn = rng.choice([-1, 1], n)
    near = sgn * 10 ** rng.uniform(-12, -2, n)
    poles = -rng.integers(0, 30, n) + sgn * 10 ** rng.uniform(-10, -1, n)
    v = [0.0, -0.0, 1e-300, 1e-8, 0.3, 1.0, 2.0, 2.5, 3.0, 7.0, 7.5, 16.0, 30.0, 1e8, 1e300,
         np.inf, np.nan]
    v = v + [-a for a in v[2:]]
    return np.concatenate([
        r * np.exp(1j * rng.uniform(-np.pi, np.pi, n)),
        r * sgn * (1 + 1j * near), 1j * r * sgn * (1 + 1j * near),       # near the axes
        r * sgn + 0j, 1j * r * sgn, -r + 0j, -r - 0j,                      # on them, the cut
        poles + 1j * near, poles + 0j,                                     # near the poles
        -r + 1j * near * 1e4,                                              # near the cut
        rng.uniform(-20, 20, n) + 1j * rng.uniform(-20, 20, n),
        rng.uniform(-8, 8, n) + 1j * rng.uniform(-8, 8, n),
        1 + 0.25 * np.exp(1j * rng.uniform(-np.pi, np.pi, n)),          # Taylor disks' borders
        2 + 0.19 * np.exp(1j * rng.uniform(-np.pi, np.pi, n)),
        -0.504083 + 0.31 * rng.uniform(0, 1, n) * np.exp(1j * rng.uniform(-np.pi, np.pi, n)),
        1.4616 + 0.3 * rng.uniform(0, 1, n) * np.exp(1j * rng.uniform(-np.pi, np.pi, n)),
        rng.uniform(0.05, 0.15, n) + 1j * rng.uniform(-7.5, 7.5, n),      # reflection's border
        np.array([complex(a, b) for a in v for b in v])])


def _call(name, z):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        got, want = getattr(gs, name)(npgpu.asarray(z)).get(), getattr(ss, name)(z)
    return got, _limits_at_infinite_imaginary(name, z, want)


def _limits_at_infinite_imaginary(name, z, want):
    """npgpu keeps SciPy 1.17's gamma and rgamma at a finite real part and an infinite imaginary
    one (gamma 0 - 0i, rgamma inf + NaN i for x < 1/2; NaN + NaN i from x = 1/2 on: what
    exp(+-loggamma) gives there); SciPy 1.18 answers NaN + NaN i at all of them
    (docs/scipy_special.md); rgamma(-inf +- 0i) is 0 in 1.17 (the poles' value), NaN in 1.18.
    Against such a SciPy, those points expect 1.17's values."""
    if name not in ("gamma", "rgamma"):
        return want
    want = want.copy()
    if name == "rgamma":
        pole = (z.real == -np.inf) & (z.imag == 0)
        if pole.any() and np.isnan(want[pole].real).all():
            want[pole] = 0
    at = np.isfinite(z.real) & np.isinf(z.imag)
    if not at.any() or not np.isnan(want[at].real).all():
        return want
    small = at & (z.real < 0.5)
    want[at] = complex(np.nan, np.nan)
    if name == "gamma":
        want[small] = complex(0.0, -0.0)
    else:
        want.real[small] = np.inf
    return want


def _extra(name, z, want):
    """The absolute error each function's formula carries (module docstring)."""
    z = z.astype(np.complex128)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name in ("gamma", "rgamma"):
            return 4e-16 * np.abs(ss.loggamma(z)) * np.abs(want)
        if name in ("digamma", "psi"):
            return 4e-16 * (np.abs(ss.psi(1 - z)) + 1)
        if name == "loggamma":
            return 4e-16 * (1 + np.abs(np.log(np.abs(z))))
    return 0.0


def _check(name, z, got, want, rtol, arel):
    assert got.dtype == want.dtype
    w128 = want.astype(np.complex128)
    with np.errstate(all="ignore"):
        mod = np.abs(w128)
        extra = np.broadcast_to(_extra(name, z, w128), z.shape)
    worst = 0.0
    for part in ("real", "imag"):
        g = getattr(got, part).astype(np.float64)
        w = getattr(w128, part)
        assert np.array_equal(np.isnan(g), np.isnan(w)), (name, part, z[np.isnan(g) != np.isnan(w)])
        inf = np.isinf(w)
        assert np.array_equal(g[inf], w[inf]), (name, part, z[inf][g[inf] != w[inf]])
        fin = np.isfinite(w) & np.isfinite(mod)
        err = np.abs(g[fin] - w[fin])
        tol = rtol * np.abs(w[fin]) + arel * mod[fin] + np.nan_to_num(extra[fin])
        bad = err > tol
        assert not bad.any(), (name, part, z[fin][bad], g[fin][bad], w[fin][bad])
        with np.errstate(all="ignore"):
            worst = max(worst, np.max(err / np.maximum(mod[fin], 1e-300), initial=0.0))
    return worst


def _zero_signs(got, want, z, name):
    """A zero part where SciPy's is zero, with SciPy's sign.  exp(loggamma) that underflows takes
    its zeros' signs from cos/sin of Im loggamma, which past ~1e15 is no number's (an ulp of it
    exceeds 2 pi): those are left out."""
    keep = np.ones(z.shape, bool)
    if name in ("gamma", "rgamma"):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            keep = ~(np.abs(ss.loggamma(z.astype(np.complex128)).imag) > 1e15)
    for part in ("real", "imag"):
        g, w = getattr(got, part)[keep], getattr(want, part)[keep]
        zero = w == 0
        assert np.array_equal(g[zero], w[zero]), (name, part)
        bad = np.signbit(g[zero]) != np.signbit(w[zero])
        assert not bad.any(), (name, part, z[keep][zero][bad])


def _scipy_psi_16(z):
    """Where SciPy 1.17's psi returns psi(z + 1): Re z < 0 and |z| exactly 16 (its forward
    recurrence runs -1 steps); npgpu's value is psi(z) there."""
    return (z.real < 0) & (np.abs(z) == 16)


@pytest.mark.parametrize("name", GAMMA + FADDEEVA)
def test_complex128(name):
    z = _data(np.random.default_rng(11))
    if name in ("digamma", "psi"):
        z = z[~_scipy_psi_16(z)]
    got, want = _call(name, z)
    _check(name, z, got, want, 1e-12, 1e-13)
    _zero_signs(got, want, z, name)


@pytest.mark.parametrize("name", GAMMA + FADDEEVA)
def test_complex64(name):
    z = _data(np.random.default_rng(12), 20).astype(np.complex64)
    if name in ("digamma", "psi"):
        z = z[~_scipy_psi_16(z)]
    got, want = _call(name, z)
    _check(name, z, got, want, 1e-5, 1e-6)


@pytest.mark.parametrize("name", ["loggamma", "digamma"])
def test_branch_cut_continuity(name):
    """Im loggamma is continuous off the negative real axis (2 pi i k corrections), and the values
    on the axis are the limits from the side of the zero's sign, as SciPy's (digamma, which has
    no cut, on the same points)."""
    x = -np.linspace(0.05, 12.0, 60) + 0.013
    for y in (1e-12, 1e-6, 0.5, 6.99, 7.01):
        z = np.concatenate([x + 1j * y, x - 1j * y, x + 0j, x - 0j])
        got, want = _call(name, z)
        _check(name, z, got, want, 1e-12, 1e-13)
    if name == "digamma":
        return
    got, _ = _call(name, x + 1e-9j)
    on, _ = _call(name, x + 0j)
    np.testing.assert_allclose(got.imag, on.imag, rtol=0, atol=1e-7)


@pytest.mark.parametrize("name", ["loggamma", "gamma", "digamma", "wofz", "dawsn"])
def test_layouts(name):
    """Negative strides, non-contiguous views, broadcasting and 0-d inputs."""
    rng = np.random.default_rng(4)
    a = (rng.uniform(-6, 6, (6, 8)) + 1j * rng.uniform(-6, 6, (6, 8)))
    g = npgpu.asarray(a)
    for sl in (np.s_[::2, ::-3], np.s_[:, 1], np.s_[3, 2]):
        got = getattr(gs, name)(g[sl]).get()
        np.testing.assert_allclose(got, getattr(ss, name)(a[sl]), rtol=1e-13)
    out = npgpu.zeros((6, 8), np.complex128)
    getattr(gs, name)(g.T.T, out=out)
    np.testing.assert_allclose(out.get(), getattr(ss, name)(a), rtol=1e-13)


@pytest.mark.parametrize("name", ["gamma", "loggamma", "rgamma", "digamma", "erfi", "dawsn"])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_real_keeps_real_loop(name, dt):
    x = np.linspace(0.3, 4.0, 12).astype(dt)
    got = getattr(gs, name)(npgpu.asarray(x)).get()
    assert got.dtype == dt
    np.testing.assert_allclose(got, getattr(ss, name)(x), rtol=2e-6 if dt == np.float32 else 1e-13)


def _ulps(got, want):
    """|got - want| in ulps of want (its dtype's), 0 where both are equal (inf, NaN)."""
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(all="ignore"):
        d = np.abs(got.astype(np.float64) - want.astype(np.float64)) / np.spacing(
            np.abs(want)).astype(np.float64)
    return np.where(same, 0.0, d)


def _real_data(rng, dt):
    x = np.concatenate([rng.uniform(-8, 8, 200), 10 ** rng.uniform(-30, 2.7, 60),
                        -(10 ** rng.uniform(-30, 2.7, 60)), rng.uniform(-30, 30, 60),
                        [0.0, -0.0, 1e-310, 0.5, 5.9, 6.1, 25.0, 26.7, 27.0, 45.0, 5e7, 1e300,
                         -1e300, np.inf, -np.inf, np.nan]])
    return x.astype(dt)


@pytest.mark.parametrize("name", ["erfi", "dawsn", "rgamma"])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_real_loops(name, dt):
    """Against SciPy: float32 within 2 ulp (both round float64); float64 within 20 ulp: npgpu's
    Im w(x) is within 12 ulp of the exact value (a 50-digit Taylor sum: ~5 below x = 6, 12 just
    above, where the continued fraction takes over) and SciPy's own is off by up to 15 ulp near
    x = 0.02 (17 ulp in erfi) and 9 ulp near x = 20 to 27; erfi = exp(x^2) Im w(x) carries
    x^2's rounding besides (up to x^2 ulps, in both); rgamma is 1/Gamma (a few ulp of libdevice's tgamma; SciPy's own
    uses 1/Gamma past |x| = 4 and a Chebyshev series below)."""
    x = _real_data(np.random.default_rng(21), dt)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        got = getattr(gs, name)(npgpu.asarray(x)).get()
        want = getattr(ss, name)(x)
    assert got.dtype == want.dtype == dt
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(np.signbit(got[got == 0]), np.signbit(want[got == 0]))
    u = _ulps(got, want)
    limit = 2.0 if dt == np.float32 else 20.0
    if name == "erfi" and dt == np.float64:
        limit = 20.0 + 2.0 * x.astype(np.float64) ** 2
    bad = u > limit
    assert not bad.any(), (x[bad], got[bad], want[bad], u[bad])


def test_aliases_and_types():
    assert gs.psi is gs.digamma
    for name in ("loggamma", "gamma", "rgamma", "digamma", "erfi", "dawsn"):
        assert getattr(gs, name).types == getattr(ss, name).types
    assert sorted(gs.wofz.types) == sorted(ss.wofz.types) == ["D->D", "F->F"]
    # wofz has no real loop in SciPy: a real argument takes the complex one
    got = gs.wofz(npgpu.asarray(np.array([0.5, 2.0]))).get()
    assert got.dtype == np.complex128
    np.testing.assert_allclose(got, ss.wofz(np.array([0.5, 2.0])), rtol=1e-13)
