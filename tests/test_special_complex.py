"""npgpu.scipy.special's complex loops of the error-function family (erf, erfc, erfcx, ndtr,
log_ndtr: npgpu/scipy/special/faddeeva.py) against SciPy's.

Tolerance, per component c of SciPy's value b: |got_c - b_c| <= rtol |b_c| + arel |b| (+ for
log_ndtr an absolute 4e-15 (1 + |z|^2)).  rtol is the relative error asked of a component that is
not small next to the other; the arel term admits an error relative to the modulus in a component
much smaller than it (a complex w(z) carries its error relative to |w|: Re erfcx(5 + 1e-10 i) is
1e-10 of |erfcx|), and SciPy's own w is only that good (up to ~4e-14 of |w| near |Re z| = 10).
log_ndtr's formula, Re(-u^2) + log|w(iu)| - log 2, cancels to a small result from terms of size
|z|^2 / 2, in SciPy as here: its absolute error is a few ulp of |z|^2.  complex64 computes in
complex128 and rounds (SciPy too): rtol 1e-5 on the rounded values.
"""
import warnings

import numpy as np
import pytest
import scipy.special as ss

import npgpu
import npgpu.scipy.special as gs

NAMES = ["erf", "erfc", "erfcx", "ndtr", "log_ndtr"]


def _data(rng, n=40):
    """|z| from 1e-10 to 1e3 at every angle, near and on both axes, a box where erf overflows
    and underflows, and the non-finite and signed-zero parts."""
    r = 10 ** rng.uniform(-10, 3, n)
    sgn = rng.choice([-1, 1], n)
    near = sgn * 10 ** rng.uniform(-12, -2, n)
    v = [0.0, -0.0, 1e-300, 1e-10, 0.3, 5.0, 6.5, 26.0, 30.0, 1e8, np.inf, np.nan]
    v = v + [-a for a in v[2:]]
    return np.concatenate([
        r * np.exp(1j * rng.uniform(-np.pi, np.pi, n)),
        r * sgn * (1 + 1j * near), 1j * r * sgn * (1 + 1j * near),       # near the axes
        r * sgn + 0j, 1j * r * sgn,                                        # on them
        rng.uniform(-30, 30, n) + 1j * rng.uniform(-30, 30, n),
        rng.uniform(-8, 8, n) + 1j * rng.uniform(-8, 8, n),
        np.array([complex(a, b) for a in v for b in v])])


def _call(name, z):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(gs, name)(npgpu.asarray(z)).get(), getattr(ss, name)(z)


def _check(name, z, got, want, rtol, arel):
    assert got.dtype == want.dtype
    w128 = want.astype(np.complex128)
    with np.errstate(all="ignore"):
        mod = np.abs(w128)
        extra = 4e-15 * (1 + np.abs(z.astype(np.complex128)) ** 2) if name == "log_ndtr" else 0
    for part in ("real", "imag"):
        g = getattr(got, part).astype(np.float64)
        w = getattr(w128, part)
        assert np.array_equal(np.isnan(g), np.isnan(w)), (name, part, z[np.isnan(g) != np.isnan(w)])
        fin = np.isfinite(w)
        assert np.array_equal(g[~fin & ~np.isnan(w)], w[~fin & ~np.isnan(w)]), (name, part)
        fin &= np.isfinite(mod)
        err = np.abs(g[fin] - w[fin])
        tol = rtol * np.abs(w[fin]) + arel * mod[fin] + (extra[fin] if name == "log_ndtr" else 0)
        bad = err > tol
        assert not bad.any(), (name, part, z[fin][bad], g[fin][bad], w[fin][bad])


@pytest.mark.parametrize("name", NAMES)
def test_complex128(name):
    z = _data(np.random.default_rng(11))
    got, want = _call(name, z)
    _check(name, z, got, want, 1e-12, 1e-13)
    # a zero part where SciPy's is zero (the axes), with SciPy's sign
    for part in ("real", "imag"):
        g, w = getattr(got, part), getattr(want, part)
        zero = w == 0
        assert np.array_equal(g[zero], w[zero])
        assert np.array_equal(np.signbit(g[zero]), np.signbit(w[zero])), (name, part)


@pytest.mark.parametrize("name", NAMES)
def test_complex64(name):
    z = _data(np.random.default_rng(12)).astype(np.complex64)
    got, want = _call(name, z)
    _check(name, z, got, want, 1e-5, 1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_layouts(name):
    rng = np.random.default_rng(13)
    z = (rng.uniform(-4, 4, (6, 10)) + 1j * rng.uniform(-4, 4, (6, 10)))
    a = npgpu.asarray(z)
    got = getattr(gs, name)(a[::2, 1::3].T).get()
    np.testing.assert_allclose(got, getattr(ss, name)(z[::2, 1::3].T), rtol=1e-13)
    s = np.complex128(0.7 - 1.3j)
    got0 = getattr(gs, name)(npgpu.asarray(s))
    assert got0.shape == () and got0.dtype == np.complex128
    np.testing.assert_allclose(got0.get(), getattr(ss, name)(s), rtol=1e-13)
    out = npgpu.empty((6, 10), np.complex64)
    getattr(gs, name)(a.astype(np.complex64), out=out)
    np.testing.assert_allclose(out.get(), getattr(ss, name)(z.astype(np.complex64)), rtol=1e-5)


def test_real_input_keeps_real_loops():
    x = np.linspace(-5, 5, 11)
    for name in NAMES:
        for dt in (np.float32, np.float64):
            got = getattr(gs, name)(npgpu.asarray(x.astype(dt)))
            assert got.dtype == dt
        assert getattr(gs, name).types == getattr(ss, name).types
        # dtype= complex on real input: the complex loop, at the real loop's values (SciPy's
        # complex log_ndtr is up to 1.4e-9 off them there: its -u^2 + log w(iu) cancels; npgpu
        # takes the real form for a real z, which mpmath confirms)
        got = getattr(gs, name)(npgpu.asarray(x), dtype=np.complex128).get()
        np.testing.assert_allclose(got, getattr(ss, name)(x).astype(np.complex128), rtol=1e-13)
