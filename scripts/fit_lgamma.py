"""Fit the polynomials of npgpu's lgamma (npgpu/scipy/special/lgamma.py); check the float32
one against SciPy's float64 gammaln, emulating its float32 steps with NumPy.

lgamma(y) = (y - 1)(y - 2) g(y - 2) on y in [1, 2.5]: g is smooth there (the two zeros of
lgamma are factored out, so the relative accuracy near them is g's), fitted here as a degree-10
polynomial in b = y - 2 by least squares of the relative error on Chebyshev nodes, its
coefficients rounded to float32.  The emulation rounds every step to float32 and takes an FMA
as one rounding of the exact result; ``log`` is the correctly rounded one (libdevice's
``logf`` is within 1 ulp).  Prints the coefficients and the largest error in ulp by range.

float64 (``--f64``, needs mpmath): g on b in [-0.5, 0.5] (y in [1.5, 2.5]), degree 17, fitted
the same way against mpmath's loggamma at 40 digits (relative error of the fit < 1e-17); the
whole float64 function is checked on the simulator by tests/test_scipy_special_f32.py.

Run: ``python scripts/fit_lgamma.py [--f64]`` (needs SciPy).
"""
import sys

import numpy as np
import scipy.special as sp

F32 = np.float32
LO, HI, DEG = -1.0, 0.5, 10
STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680)     # DLMF 5.11.1, in 1/x (odd powers)


def fit():
    """float32 coefficients of g, lowest degree first."""
    t = np.cos(np.pi * (np.arange(8 * DEG) + 0.5) / (8 * DEG))
    b = t * (HI - LO) / 2 + (HI + LO) / 2
    g = sp.gammaln(2 + b) / (b * (b + 1))
    v = np.vander(b, DEG + 1, increasing=True) / g[:, None]
    coef, *_ = np.linalg.lstsq(v, np.ones_like(b), rcond=None)
    return coef.astype(F32)


def fit_f64(lo=-0.5, hi=0.5, deg=17):
    """float64 coefficients of g on [lo, hi], and the fit's largest relative error."""
    import mpmath as mp
    mp.mp.dps = 40

    def g(b):
        b = mp.mpf(b)
        return mp.loggamma(2 + b) / (b * (b + 1))
    n = 4 * deg
    bs = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / n) * (hi - lo) / 2 + mp.mpf(hi + lo) / 2
          for k in range(n)]
    gv = [g(b) for b in bs]
    a = mp.matrix([[b ** j / v for j in range(deg + 1)] for b, v in zip(bs, gv)])
    coef = mp.lu_solve(a.T * a, a.T * mp.matrix([1] * n))
    coef = [float(coef[j]) for j in range(deg + 1)]
    worst = 0
    for x in np.linspace(lo, hi, 2001):
        if abs(x) > 1e-9 and abs(x + 1) > 1e-9:
            p = mp.mpf(0)
            for c in reversed(coef):
                p = p * x + c
            worst = max(worst, abs(p / g(x) - 1))
    return coef, float(worst)


def _fma(a, b, c):
    return (np.float64(a) * b + c).astype(F32)


def emulate(x, coef):
    """The float32 helper's steps on float32 ``x`` (> 0), each rounded to float32."""
    one = F32(1)
    mid, big, shift = x < one, x >= F32(3.5), x > F32(2.5)
    y = np.where(shift, x - one, x).astype(F32)
    q = np.where(shift, y, one).astype(F32)
    b = np.where(mid, x - one, y - F32(2)).astype(F32)
    a = np.where(mid, x, y - one).astype(F32)
    p = np.full_like(b, coef[-1])
    for c in coef[-2::-1]:
        p = _fma(p, b, F32(c))
    pv = ((a * b).astype(F32) * p).astype(F32)
    arg = np.where(big | mid, x, q).astype(F32)
    lg = np.log(arg.astype(np.float64)).astype(F32)
    r = (1 / x.astype(np.float64)).astype(F32)
    r2 = (r * r).astype(F32)
    s = np.full_like(x, F32(STIRLING[-1]))
    for c in STIRLING[-2::-1]:
        s = _fma(s, r2, F32(c))
    st = (_fma((x - F32(0.5)).astype(F32), (lg - one).astype(F32),
               F32(0.5 * np.log(2 * np.pi) - 0.5)) + (s * r).astype(F32)).astype(F32)
    return np.where(big, st, np.where(mid, pv - lg, pv + lg).astype(F32))


def main():
    if "--f64" in sys.argv:
        coef, worst = fit_f64()
        print("float64 coefficients (b = y - 2, lowest degree first):")
        print("    " + ",\n    ".join(repr(c) for c in coef))
        print(f"largest relative error of the fit: {worst:.2e}")
        return
    coef = fit()
    print("coefficients (b = y - 2, lowest degree first):")
    print("    " + ", ".join(repr(c) for c in coef))
    with np.errstate(over="ignore", invalid="ignore"):
        xs = np.concatenate([np.geomspace(1e-37, 1e30, 400001), np.linspace(0.01, 12, 2000001),
                             1 + np.linspace(-1e-3, 1e-3, 20001),
                             2 + np.linspace(-1e-3, 1e-3, 20001)]).astype(F32)
        xs = xs[(xs > 0) & (xs < 1e30)]
        got = emulate(xs, coef).astype(np.float64)
        want = sp.gammaln(xs.astype(np.float64))
        err = np.abs(got - want) / np.spacing(np.abs(want.astype(F32))).astype(np.float64)
    for lo, hi in ((0, 0.5), (0.5, 1), (1, 2), (2, 2.5), (2.5, 3.5), (3.5, 8), (8, 1e30)):
        m = (xs >= lo) & (xs < hi)
        print(f"x in [{lo}, {hi}): at most {err[m].max():.2f} ulp")


if __name__ == "__main__":
    main()
