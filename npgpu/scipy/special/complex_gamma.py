"""SciPy's complex loops of loggamma, gamma, rgamma and digamma (psi): device helpers in complex128
built from real arithmetic (SciPy's complex64 loops compute in complex128 too).  Written from the
mathematics; the regions, branch and special values are those of SciPy's (xsf's loggamma.h,
digamma.h: Hare, "Computing the principal branch of log-Gamma", J. Algorithms 1997), so that the
imaginary part of loggamma is continuous, and poles, inf/NaN parts and the zeros' signs on the real
axis come out as SciPy 1.17's do.

loggamma(z), z = x + iy, the principal branch (analytic off (-inf, 0], real on (0, inf)):

* x > 7 or |y| > 7: Stirling's series (z - 1/2) log z - z + log(2 pi)/2 + sum B_2k / (2k (2k-1)
  z^(2k-1)), k = 1..8 (the error near the negative axis is e^(-2 pi |y|), negligible past 7);
* |z - 1| < 0.2: the Taylor series at 1, loggamma(1 + w) = -euler w + sum (-1)^k zeta(k) w^k / k
  (25 terms; gamma_family's coefficients); |z - 2| < 0.2: log1p(z - 2) + loggamma(z - 1) so;
* x < 0.1: the reflection log pi - log sin(pi z) - loggamma(1 - z) + 2 pi i sgn(y)
  floor(x/2 + 1/4) (the term that makes Im loggamma continuous; Hare's Prop. 3.1), sin(pi z)
  from cos(pi x), sin(pi x) of an exact half-turn reduction;
* otherwise the recurrence loggamma(z) = loggamma(z + n) - log(z (z+1) ... (z+n-1)) to Re > 7,
  the principal log of the product corrected by 2 pi i per crossing of the negative real axis
  (y < 0 by conjugation).

gamma = exp(loggamma), rgamma = exp(-loggamma) (C99's complex exp), with SciPy's poles (gamma:
NaN; rgamma: 0) and the values SciPy's arithmetic gives for infinite parts.

digamma(z): the first negative root (|z - x_1| < 0.3, x_1 = -0.5040830...) as
psi(x_1 + d) = d (F(d) + 1/(x_1 (x_1 + d)) + 1/((x_1 + 1)(x_1 + 1 + d))), F the Taylor series of
psi(z + 2) there (psi(z) = psi(z + 2) - 1/z - 1/(z + 1) with the poles' differences taken exactly:
relative accuracy at the root); the reflection psi(z) = psi(1 - z) - pi cot(pi z) for x < 0,
|y| < 16 (cot from the exact half-turn reduction, its denominator sin^2(pi x) + sinh^2(pi y) free
of cancellation); one step psi(z) = psi(z + 1) - 1/z for |z| < 0.5; the Taylor series at the
positive root 1.4616... within 0.2 of it; else the recurrence up to Re z >= 10 (or |z| >= 16) and
the asymptotic series log z - 1/(2z) - sum B_2k / (2k z^2k), k = 1..8.
"""
from fractions import Fraction

from ...ufuncs import helpers as _helpers
from . import c99  # noqa: F401 - registers h_sp_clog1p, used below
from .faddeeva import _horner_re_im
from .gamma_family import (_B, LGAMMA1P_COEF, PSI_NEAR_ZERO_COEF, _hurwitz_py, _PSI_ZERO_HI,
                           _PSI_ZERO_LO)

_TWO_PI = "6.283185307179586"
_LOG_PI = "1.1447298858494002"
_HALF_LOG_2PI = "0.9189385332046728"
_STIRLING_COEF = [float(_B[2 * k] / (2 * k * (2 * k - 1))) for k in range(1, 9)]
_PSI_ASYM_COEF = [float(_B[2 * k] / (2 * k)) for k in range(1, 9)]

# digamma's first negative zero (DLMF 5.4.iii) as hi + lo, and the Taylor coefficients of
# psi(z + 2) there, (-1)^(n+1) zeta(n + 1, x_1 + 2), n = 1..28 (|d| < 0.3: 0.2^28 ~ 3e-20)
_NEG_ROOT = Fraction("-0.50408300826445540925826930453330249895538")
_NEG_HI = float(_NEG_ROOT)
_NEG_LO = float(_NEG_ROOT - Fraction(_NEG_HI))
_NEG_COEF = [(-1) ** (n + 1) * _hurwitz_py(n + 1.0, _NEG_HI + 2.0) for n in range(1, 29)]


def _poly(coef, zr, zi, indent="    "):
    """Source computing sum coef[k] (zr + i zi)^k into pr, pi (real arithmetic)."""
    return _horner_re_im(coef[::-1], zr, zi).replace("    ", indent)


# 1/z (rr, ri; 0 past |z|^2 = inf) and 1/z^2 (wr, wi) for the asymptotic series
_INV_Z_Z2 = """    d = 1.0 / (x * x + y * y)
    rr = x * d
    ri = -y * d
    wr = rr * rr - ri * ri
    wi = 2.0 * rr * ri"""

# (cos(pi x), sin(pi x)) as one complex128, x finite: x = n/2 + t, |t| <= 1/4 exact, the quadrant
# n mod 4 (|x| >= 2^51: t = 0); cos(pi x) is +0 at the half-integers, as SciPy's cospi
_helpers.register("""
def h_cossinpi(x):
    n = h_rint(2.0 * x)
    a = math.pi * (x - 0.5 * n)
    c = math.cos(a)
    s = math.sin(a)
    q = n - 4.0 * h_floor(0.25 * n)
    if q == 0.0:
        return complex128(complex(c, s))
    if q == 1.0:
        return complex128(complex(0.0 - s, c))
    if q == 2.0:
        return complex128(complex(-c, -s))
    return complex128(complex(s, -c))
""")

# Stirling's series, |z| >= 7 finite (1/z is 0 past |z|^2 = inf)
_helpers.register(f"""
def h_lgam_stirling(x, y):
    lr = math.log(math.hypot(x, y))
    li = math.atan2(y, x)
{_INV_Z_Z2}
{_poly(_STIRLING_COEF, "wr", "wi")}
    return complex128(complex((x - 0.5) * lr - y * li - x + {_HALF_LOG_2PI} + (rr * pr - ri * pi),
                              (x - 0.5) * li + y * lr - y + (rr * pi + ri * pr)))
""")

# loggamma(1 + w), |w| < 0.2; on the real axis the zeros' signs SciPy's series gives (Im: -0 for
# w < 0 with +0; Re at w = 0: -0)
_helpers.register(f"""
def h_lgam_taylor1(wr, wi):
{_poly(LGAMMA1P_COEF, "wr", "wi")}
    if wi == 0.0:
        return complex128(complex(wr * pr, -0.0 if (wr < 0.0 and math.copysign(1.0, wi) > 0.0)
                                  else 0.0))
    return complex128(complex(wr * pr - wi * pi, wr * pi + wi * pr))
""")

# loggamma(z + n) - log(z (z+1) ... (z+n-1)) for 0.1 <= x <= 7, 0 <= y <= 7: 2 pi i per
# crossing of the product into the lower half-plane (its argument passing pi, 3pi)
_helpers.register(f"""
def h_lgam_shift(x, y):
    pr = x
    pi = y
    flips = 0.0
    below = False
    x = x + 1.0
    while x <= 7.0:
        pr, pi = pr * x - pi * y, pr * y + pi * x
        now = pi < 0.0
        if now and not below:
            flips += 1.0
        below = now
        x += 1.0
    s = h_lgam_stirling(x, y)
    return complex128(complex(s.real - math.log(math.hypot(pr, pi)),
                              s.imag - math.atan2(pi, pr) - flips * {_TWO_PI}))
""")

# loggamma off the reflection's half-plane: x >= 0.1, or x > 7, or |y| > 7 (finite)
_helpers.register("""
def h_lgam_right(x, y):
    if x > 7.0 or abs(y) > 7.0:
        return h_lgam_stirling(x, y)
    if math.hypot(x - 1.0, y) < 0.2:
        return h_lgam_taylor1(x - 1.0, y)
    if math.hypot(x - 2.0, y) < 0.2:
        return h_sp_clog1p(complex128(complex(x - 2.0, y))) + h_lgam_taylor1(x - 2.0, y)
    if math.copysign(1.0, y) > 0.0:
        return h_lgam_shift(x, y)
    s = h_lgam_shift(x, -y)
    return complex128(complex(s.real, -s.imag))
""")

_NAN2 = "complex128(complex(math.nan, math.nan))"

# SciPy's loggamma: NaN for a NaN or infinite real part and at the poles; (-inf or NaN) + NaN i
# for an infinite imaginary part (what Stirling's formula gives there)
_helpers.register(f"""
def h_sp_cloggamma(z):
    x = z.real
    y = z.imag
    if math.isnan(x) or math.isnan(y) or math.isinf(x):
        return {_NAN2}
    if math.isinf(y):
        return complex128(complex(-math.inf if x < 0.5 else math.nan, math.nan))
    if y == 0.0 and x <= 0.0 and x == h_floor(x):
        return {_NAN2}
    if x < 0.1 and abs(y) <= 7.0:
        cs = h_cossinpi(x)
        py = math.pi * y
        sr = cs.imag * math.cosh(py)
        si = cs.real * math.sinh(py)
        k = math.copysign({_TWO_PI}, y) * h_floor(0.5 * x + 0.25)
        r = h_lgam_right(1.0 - x, -y)
        return complex128(complex({_LOG_PI} - math.log(math.hypot(sr, si)) - r.real,
                                  k - math.atan2(si, sr) - r.imag))
    return h_lgam_right(x, y)
""")

# gamma = exp(loggamma): NaN where loggamma is (the poles, -inf + 0i among them); 0 - 0i where its
# real part is -inf (SciPy's exp(-inf + NaN i), an infinite imaginary part with x < 1/2)
_helpers.register("""
def h_sp_cgamma(z):
    g = h_sp_cloggamma(z)
    if g.real == -math.inf:
        return complex128(complex(0.0, -0.0))
    return h_cexp(g)
""")

# rgamma = exp(-loggamma): 0 at the poles (-inf + 0i among them); an infinite imaginary part gives
# inf + NaN i (x < 1/2) or NaN
_helpers.register(f"""
def h_sp_crgamma(z):
    x = z.real
    y = z.imag
    if y == 0.0 and x <= 0.0 and x == h_floor(x):
        return complex128(0.0)
    if math.isnan(x) or math.isnan(y) or math.isinf(x):
        return {_NAN2}
    if math.isinf(y):
        return complex128(complex(math.inf, math.nan)) if x < 0.5 else {_NAN2}
    g = h_sp_cloggamma(z)
    return h_cexp(complex128(complex(-g.real, -g.imag)))
""")

# SciPy's real rgamma: 1/Gamma(x) (x itself at 0 and below 1e-20, where Gamma overflows for
# subnormal x; 0 at the poles, -inf among them)
_helpers.register("""
def h_rgamma(x):
    if x == 0.0:
        return x
    if x < 0.0 and x == h_floor(x):
        return 0.0
    if abs(x) < 1e-20:
        return x + 0.5772156649015329 * x * x
    return 1.0 / libdevice.tgamma(x)
""")

# psi's asymptotic series, |z| >= 10 (Re z >= 10 or |z| >= 16)
_helpers.register(f"""
def h_cpsi_asym(x, y):
{_INV_Z_Z2}
{_poly(_PSI_ASYM_COEF, "wr", "wi")}
    return complex128(complex(math.log(math.hypot(x, y)) - 0.5 * rr - (wr * pr - wi * pi),
                              math.atan2(y, x) - 0.5 * ri - (wr * pi + wi * pr)))
""")

# psi within 0.3 of its first negative zero x_1 (d = z - x_1):
# d (F(d) + 1/(x_1 (x_1 + d)) + 1/((x_1 + 1)(x_1 + 1 + d)))
_helpers.register(f"""
def h_cpsi_negroot(x, y):
    dr = (x - {_NEG_HI!r}) - {_NEG_LO!r}
    di = y
{_poly(_NEG_COEF, "dr", "di")}
    u = {_NEG_HI!r} + dr
    q = 1.0 / ({_NEG_HI!r} * (u * u + di * di))
    pr += u * q
    pi -= di * q
    u = {_NEG_HI + 1.0!r} + dr
    q = 1.0 / ({_NEG_HI + 1.0!r} * (u * u + di * di))
    pr += u * q
    pi -= di * q
    return complex128(complex(dr * pr - di * pi, dr * pi + di * pr))
""")

# SciPy's complex digamma; a zero imaginary part is +0 (SciPy's sums start at 0); -1/z by
# Smith's quotient and cot's sin and sinh scaled by the larger (|z|, |z + n| may be 1e-300)
_helpers.register(f"""
def h_sp_cdigamma(z):
    x = z.real
    y = z.imag
    if y == 0.0 and x <= 0.0 and x == h_floor(x):
        return {_NAN2}
    a = math.hypot(x, y)
    if math.isinf(a):
        if x < 0.0 and abs(y) < 16.0:
            return {_NAN2}
        return complex128(complex(math.inf, 0.0 + math.atan2(y, x)))
    if math.isnan(a):
        return {_NAN2}
    if math.hypot(x - {_NEG_HI!r}, y) < 0.3:
        r = h_cpsi_negroot(x, y)
        return complex128(complex(r.real, 0.0 + r.imag))
    rr = 0.0
    ri = 0.0
    if x < 0.0 and abs(y) < 16.0:
        cs = h_cossinpi(x)
        sh = math.sinh(math.pi * y)
        m = max(abs(cs.imag), abs(sh))
        s = cs.imag / m
        t = sh / m
        q = math.pi / ((s * s + t * t) * m)
        rr = -q * s * cs.real
        ri = q * t * math.cosh(math.pi * y)
        x = 1.0 - x
        y = -y
    if a < 0.5:
        if abs(x) >= abs(y):
            t = y / x
            q = 1.0 / (x + y * t)
            rr -= q
            ri += t * q
        else:
            t = x / y
            q = 1.0 / (x * t + y)
            rr -= t * q
            ri += q
        x += 1.0
    if math.hypot(x - {_PSI_ZERO_HI!r}, y) < 0.2:
        dr = (x - {_PSI_ZERO_HI!r}) - {_PSI_ZERO_LO!r}
        di = y
{_poly(PSI_NEAR_ZERO_COEF, "dr", "di", indent="        ")}
        return complex128(complex(rr + (dr * pr - di * pi), 0.0 + (ri + dr * pi + di * pr)))
    while x < 10.0 and x * x + y * y < 256.0:
        q = 1.0 / (x * x + y * y)
        rr -= x * q
        ri += y * q
        x += 1.0
    s = h_cpsi_asym(x, y)
    return complex128(complex(rr + s.real, 0.0 + (ri + s.imag)))
""")

# table code of the complex loops: complex64 computes in complex128 and rounds, as SciPy's
CODE = {name: f"type(x0)(h_sp_c{name}(complex128(x0)))"
        for name in ("loggamma", "gamma", "rgamma", "digamma")}
