"""npgpu.scipy.special.zeta of complex input (npgpu/scipy/special/complex_zeta.py) against SciPy's.

Every region of SciPy's algorithm is sampled: Borwein's sum (Re z >= 1/2, |Im z| <= 50, and
Re z >= 50), Euler-Maclaurin (1/2 <= Re z < 50, |Im z| > 50), the functional equation (Re z < 1/2,
its factor overflowing from about Re z < -170 or |Im z| > 450), their borders, zeros on the
critical line, the real axis, and non-finite parts.

Tolerance, per component: |got - want| <= RTOL |want| (the modulus: a component may be a small
part of the value) + 1e-15 (zeros of zeta on the critical line).  npgpu uses SciPy's algorithms
with SciPy's parameters, so the two share their truncation error and differ by rounding: its
gamma(1 - z) differs from SciPy's by a few ulp of loggamma (4e-13 relative at |z| ~ 1e3), and the
Euler-Maclaurin sums of a few hundred terms add rounding of their own.
"""
import warnings

import numpy as np
import pytest
import scipy.special as ss

import npgpu
import npgpu.scipy.special as gs

RTOL = 1e-11


def _regions(rng, n=12):
    sgn = rng.choice([-1, 1], n)
    return np.concatenate([
        rng.uniform(0.5, 3, n) + 1j * rng.uniform(-50, 50, n),            # Borwein
        rng.uniform(3, 60, n) + 1j * rng.uniform(-50, 50, n),
        rng.uniform(50, 80, n) + 1j * rng.uniform(-1e3, 1e3, n),          # Borwein, Re >= 50
        rng.uniform(0.5, 5, n) + 1j * sgn * rng.uniform(50, 400, n),      # Euler-Maclaurin
        rng.uniform(5, 49, n) + 1j * sgn * rng.uniform(50, 200, n),
        rng.uniform(-30, 0.5, n) + 1j * rng.uniform(-60, 60, n),          # reflection
        rng.uniform(-5, 0.5, n) + 1j * sgn * rng.uniform(50, 400, n),
        rng.uniform(-200, -150, n) + 1j * rng.uniform(-5, 5, n),          # its factor overflows
        rng.uniform(-4, 0.5, n) + 1j * sgn * rng.uniform(450, 1000, n),
        0.5 + 1j * sgn * rng.uniform(0, 100, n),                           # critical line
        rng.uniform(-60, 60, n) + 0j,                                      # the real axis
        np.array([0.5 + 14.134725141734693j, 0.5 - 21.022039638771555j,  # zeros
                  0.5 + 50j, 0.5 + 50.0001j, 50 + 60j, 49.999 + 60j, 0.4999 + 3j,  # borders
                  1 + 1e-300j, 1 - 1e-12j, 1e-300 + 1e-300j, -2 + 1e-20j, 1e-8j]),
    ])


SPECIAL = np.array([np.nan + 1j, 1 + np.nan * 1j, np.nan + 0j, np.inf + 0j, np.inf + 1j,
                    np.inf - 3j, -np.inf + 1j, -np.inf + 0j, np.inf * 1j, -np.inf * 1j,
                    2 + np.inf * 1j, 1 + 0j, 0j, -0j, -2 + 0j, -3 + 0j, 1e300 + 1j, 60 + 1e300j,
                    -171.5 + 2j, -180 - 0.5j])


def _zeta(*args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want = ss.zeta(*args)
        got = gs.zeta(*(npgpu.asarray(a) if isinstance(a, np.ndarray) else a for a in args))
    return got.get(), want


def _check(got, want, rtol=RTOL):
    assert got.dtype == want.dtype and got.shape == want.shape
    want = want.astype(np.complex128)
    mod = np.abs(want)
    for part in ("real", "imag"):
        g, w = getattr(got, part).astype(np.float64), getattr(want, part)
        assert np.array_equal(np.isnan(g), np.isnan(w)), part
        inf = np.isinf(w)
        assert np.array_equal(g[inf], w[inf]), part
        fin = np.isfinite(w) & np.isfinite(mod)
        bad = np.abs(g[fin] - w[fin]) > rtol * mod[fin] + 1e-15
        assert not bad.any(), (part, g[fin][bad], w[fin][bad])


def test_regions_against_scipy():
    z = _regions(np.random.default_rng(25))
    _check(*_zeta(z))


def test_special_values():
    _check(*_zeta(SPECIAL))


def test_complex64_computes_in_complex128():
    z = _regions(np.random.default_rng(26), 4).astype(np.complex64)
    got, want = _zeta(z)
    assert got.dtype == np.complex64
    _check(got, want, rtol=1e-6)


def test_layouts():
    """Negative strides, non-contiguous views, 0-d, empty, and out=."""
    z = _regions(np.random.default_rng(27), 4)[:48].reshape(6, 8)
    zg = npgpu.asarray(z)
    _check(gs.zeta(zg[::-2, 1::3]).get(), ss.zeta(z[::-2, 1::3]))
    _check(gs.zeta(zg[2, 3]).get(), np.asarray(ss.zeta(z[2, 3])))
    _check(gs.zeta(zg[:0]).get(), ss.zeta(z[:0]))
    out = npgpu.empty((6, 8), np.complex128)
    assert gs.zeta(zg, out=out) is out
    _check(out.get(), ss.zeta(z))


def test_types_list_the_complex_loops():
    assert gs.zeta.__name__ == "zeta"
    from npgpu.scipy.special.ufuncs import UFUNCS
    for name in ("_riemann_zeta", "_zeta"):
        assert UFUNCS[name].types == getattr(ss._ufuncs, name).types


@pytest.mark.parametrize("dts", [(np.complex128, np.float64), (np.complex64, np.float32),
                                 (np.complex64, np.float64)])
def test_hurwitz_of_complex_x(dts):
    """zeta(z, q) with complex z (SciPy's Dd->D, Ff->F): the real Hurwitz zeta on the real axis,
    NaN off it (q = 1 is left out: SciPy 1.17 gives NaN there for Im z != 0 and for x < 1)."""
    rng = np.random.default_rng(28)
    x = np.concatenate([rng.uniform(1.5, 10, 8) + 0j, rng.uniform(-5, 5, 8) + 1j,
                        [1 + 0j, 0.5 + 0j, 3 + 0j, np.nan + 0j]]).astype(dts[0])
    q = np.concatenate([rng.uniform(0.5, 4, 16), [2.0, 3.0, 2.0, 2.0]]).astype(dts[1])
    got, want = _zeta(x, q)
    _check(got, want, rtol=1e-6 if want.dtype == np.complex64 else 1e-12)
    got, want = _zeta(x[:, None], q[None, :4])                  # broadcast
    _check(got, want, rtol=1e-6 if want.dtype == np.complex64 else 1e-12)
