"""SciPy's complex loops of erf, erfc, erfcx, ndtr and log_ndtr: device helpers built on the
Faddeeva function w(z) = exp(-z^2) erfc(-iz), in complex128 (SciPy's complex64 loops compute in
complex128 too).  Written from the mathematics; the branches, special values and formulas around
w are those of SciPy's Faddeeva package (xsf/faddeeva.h, xsf/stats.h), so that axes, signed
zeros, infinities and NaNs come out as SciPy's do.

w(z) in the upper half-plane (the lower one by w(z) = 2 exp(-z^2) - w(-z), as SciPy):

* |Re z| < 6 and Im z < 6: Weideman's rational approximation (SIAM J. Numer. Anal. 31, 1994)
  with N = 40 terms, w(z) = 2 p(Z) / (L - iz)^2 + 1 / (sqrt(pi) (L - iz)),
  Z = (L + iz) / (L - iz), L = sqrt(N / sqrt 2), p's coefficients the Fourier coefficients of
  exp(-t^2) (L^2 + t^2), t = L tan(theta / 2) (computed below, at import, by the trapezoidal
  rule): within 1.5e-14 of w relative to |w| there (measured against mpmath and SciPy);
* elsewhere Laplace's continued fraction w(z) = (i / sqrt pi) / (z - 1/2 / (z - 1 / (z - ...)))
  with Poppe & Wijers' term count (ACM TOMS 16, 1990) plus two, and exp(-z^2) added near the real
  axis, which the truncated fraction leaves out (it gives Re w = exp(-x^2) of a real x); past
  |x| + |y| = 1e7 its first term, i / (sqrt(pi) z), scaled against overflow;
* on the axes SciPy's exact forms: w(iy) = erfcx(y), w(x) = exp(-x^2) + i Im w(x), with Im w(x)
  (2/sqrt(pi) times Dawson's integral) by its Taylor series below |x| = 0.5; within 0.05 of the
  real axis (|x| < 6) Taylor's series in iy about it, so that Re w keeps its relative accuracy
  where it is exp(-x^2)-small.

Against SciPy 1.17 the composed functions agree to ~1e-13 of the value's modulus (SciPy's own
w is off by up to ~4e-14 near x = 10: tests/test_special_complex.py).
"""
import math

from ...ufuncs import helpers as _helpers
from . import c99  # noqa: F401 - registers h_cmul_c99, used below

_ISPI = repr(1 / math.sqrt(math.pi))          # 1 / sqrt(pi)
_TWO_ISPI = repr(2 / math.sqrt(math.pi))      # 2 / sqrt(pi)


def _weideman(n):
    """(L, [a_n ... a_1]) of Weideman's approximation with ``n`` terms: a_k are the cosine
    coefficients of f(theta) = exp(-t^2) (L^2 + t^2), t = L tan(theta / 2), by the trapezoidal
    rule on 4n points (f vanishes at theta = pi)."""
    m = 2 * n
    lam = math.sqrt(n / math.sqrt(2.0))
    f = []
    for k in range(-m + 1, m):
        t = lam * math.tan(k * math.pi / (2 * m))
        f.append((k, math.exp(-t * t) * (lam * lam + t * t)))
    a = [sum(fk * math.cos(j * k * math.pi / m) for k, fk in f) / (2 * m) for j in range(1, n + 1)]
    return lam, a[::-1]


def _horner_re_im(coefs, zr, zi):
    """Source lines evaluating the real polynomial ``coefs`` (highest first) at zr + i zi into
    pr, pi in real arithmetic."""
    lines = [f"    pr = {coefs[0]!r}", "    pi = 0.0"]
    for c in coefs[1:]:
        lines.append(f"    pr, pi = pr * {zr} - pi * {zi} + {c!r}, pr * {zi} + pi * {zr}")
    return "\n".join(lines)


_L, _A = _weideman(40)

# Weideman's w(x + iy), y >= 0, |z| below ~8.5: q = 1 / (L - iz), Z = (L + iz) q,
# w = q (2 p(Z) q + 1/sqrt(pi))
_helpers.register(f"""
def h_fad_weideman(x, y):
    lr = {_L!r} + y
    d = 1.0 / (lr * lr + x * x)
    qr = lr * d
    qi = x * d
    ur = {_L!r} - y
    zr = ur * qr - x * qi
    zi = ur * qi + x * qr
{_horner_re_im(_A, "zr", "zi")}
    tr = 2.0 * (pr * qr - pi * qi) + {_ISPI}
    ti = 2.0 * (pr * qi + pi * qr)
    return complex128(complex(qr * tr - qi * ti, qr * ti + qi * tr))
""")

# Laplace's continued fraction of w(x + iy), y >= 0, finite: nu terms, nu = Poppe & Wijers'
# 3 + 1442 / (26 rho + 77) plus two, rho = |(x / 6.3, y / 4.4)|; the first term alone, scaled
# (i / (sqrt(pi) z) as Smith's quotient), past |x| + y = 1e7, where |z|^2 may overflow
_helpers.register(f"""
def h_fad_cf(x, y):
    ax = abs(x)
    if ax + y > 1e7:
        if ax > y:
            r = y / x
            d = {_ISPI} / (x + r * y)
            return complex128(complex(d * r, d))
        r = x / y
        d = {_ISPI} / (r * x + y)
        return complex128(complex(d, d * r))
    nu = int(5.0 + 1442.0 / (26.0 * math.hypot(ax / 6.3, y / 4.4) + 77.0))
    tr = x
    ti = y
    for j in range(nu - 1, 0, -1):
        d = (0.5 * j) / (tr * tr + ti * ti)
        tr = x - tr * d
        ti = y + ti * d
    d = {_ISPI} / (tr * tr + ti * ti)
    return complex128(complex(d * ti, d * tr))
""")

# w(x + iy) for y >= 0, both finite
_helpers.register("""
def h_fad_upper(x, y):
    if abs(x) < 6.0 and y < 6.0:
        return h_fad_weideman(x, y)
    w = h_fad_cf(x, y)
    if y < 1.0:
        e = h_exp((y - x) * (x + y))
        if e != 0.0:        # (else |x| is past 27; -2xy may overflow there: inf * 0)
            a = -2.0 * x * y
            w = w + complex128(complex(e * h_cos(a), e * h_sin(a)))
    return w
""")

# Im w(x) of a real x (2/sqrt(pi) times Dawson's integral): the Taylor series
# 2/sqrt(pi) sum (-2)^n x^(2n+1) / (2n+1)!! below |x| = 0.5 (13 terms: 1e-19 at 0.5)
_DAWSON = []
for _n in range(13):
    _DAWSON.append(2 / math.sqrt(math.pi) * (-2.0) ** _n / math.prod(range(1, 2 * _n + 2, 2)))
_helpers.register(f"""
def h_fad_im(x):
    if math.isnan(x):
        return x
    if math.isinf(x):
        return math.copysign(0.0, x)
    if abs(x) < 0.5:
        t = x * x
        s = {_DAWSON[-1]!r}
""" + "".join(f"        s = s * t + {c!r}\n" for c in _DAWSON[-2::-1]) + """        return s * x
    return h_fad_upper(x, 0.0).imag
""")

# w(x + iy) for |y| < 0.05, |x| < 6 (where Weideman's absolute error would swamp Re w ~ exp(-x^2)):
# Taylor's series in iy about the real axis, sum w^(n)(x) (iy)^n / n!, with w(x) = exp(-x^2) +
# i Im w(x) and w' = -2 z w + 2i / sqrt(pi), w^(n+1) = -2x w^(n) - 2n w^(n-1) (real recurrences:
# the real parts are exp(-x^2)'s derivatives, accurate to their last bits); 20 terms
# (|2xy| <= 0.6: 0.6^20 / 20! ~ 1e-23)
_helpers.register(f"""
def h_fad_axis(x, y):
    r0 = h_exp(-x * x)
    i0 = h_fad_im(x)
    r1 = -2.0 * x * r0
    i1 = -2.0 * x * i0 + {_TWO_ISPI}
    re = r0 - y * i1
    im = i0 + y * r1
    pr = 0.0
    pi = y
    for n in range(2, 20):
        r2 = -2.0 * x * r1 - 2.0 * (n - 1) * r0
        i2 = -2.0 * x * i1 - 2.0 * (n - 1) * i0
        pr, pi = -pi * y / n, pr * y / n
        re += r2 * pr - i2 * pi
        im += r2 * pi + i2 * pr
        r0 = r1
        i0 = i1
        r1 = r2
        i1 = i2
    return complex128(complex(re, im))
""")

# w(z): SciPy's axes (w(iy) = erfcx(y) with Re z's zero, w(x) = exp(-x^2) + i Im w(x)), its
# non-finite values, and w(z) = 2 exp(-z^2) - w(-z) below the real axis
_helpers.register("""
def h_faddeeva(z):
    x = z.real
    y = z.imag
    if x == 0.0:
        return complex128(complex(libdevice.erfcx(y), x))
    if y == 0.0:
        return complex128(complex(h_exp(-x * x), h_fad_im(x)))
    if math.isnan(x) or math.isnan(y):
        return complex128(complex(math.nan, math.nan))
    if math.isinf(y):
        if y > 0.0:
            return complex128(0.0)
        return complex128(complex(math.nan, math.nan))
    if math.isinf(x):
        return complex128(complex(0.0, math.copysign(0.0, x)))
    if abs(y) < 0.05 and abs(x) < 6.0:
        return h_fad_axis(x, y)
    if y > 0.0:
        return h_fad_upper(x, y)
    e = h_cexp(complex128(complex((y - x) * (x + y), -2.0 * x * y)))
    w = h_fad_upper(-x, -y)
    return complex128(complex(2.0 * e.real - w.real, 2.0 * e.imag - w.imag))
""")

# erf: SciPy's branches -- the imaginary axis (erf(iy) = i exp(y^2) Im w(y)), the underflow of
# exp(-z^2) (+-1), the Taylor series of erf near 0 and of erf(x + iy) in x about the imaginary
# axis (|x| and |xy| below 5e-3), and 1 - exp(-z^2) w(iz) (x >= 0) or exp(-z^2) w(-iz) - 1,
# with exp(Re(-z^2)) applied as a real factor (an overflow gives +-inf, not NaN)
_C = 2 / math.sqrt(math.pi)
_helpers.register(f"""
def h_sp_cerf(z):
    x = z.real
    y = z.imag
    if x == 0.0:
        if y * y > 720.0:
            return complex128(complex(x, math.copysign(math.inf, y)))
        return complex128(complex(x, h_exp(y * y) * h_fad_im(y)))
    mre = (y - x) * (x + y)
    mim = -2.0 * x * y
    if mre < -750.0:
        return complex128(1.0 if x >= 0.0 else -1.0)
    if abs(x) < 5e-3:
        if abs(y) < 5e-3:
            m = complex128(complex(mre, mim))
            return z * ({_C!r} + m * ({_C / 3!r} + m * {_C / 10!r}))
        if abs(mim) < 5e-3:
            x2 = x * x
            y2 = y * y
            e = h_exp(y2)
            re = x * ({_C!r} - x2 * ({_C / 3!r} + {2 * _C / 3!r} * y2)
                      + x2 * x2 * ({_C / 10!r} + y2 * ({0.4 * _C!r} + {2 * _C / 15!r} * y2)))
            im = h_fad_im(y) - x2 * y * ({_C!r} - x2 * ({_C / 2!r} + {_C / 3!r} * y2))
            return complex128(complex(e * re, e * im))
    if math.isnan(x):
        return complex128(complex(math.nan, 0.0 if y == 0.0 else math.nan))
    c = complex128(complex(h_cos(mim), h_sin(mim)))
    s = h_exp(mre)
    if x >= 0.0:
        p = h_cmul_c99(c, h_faddeeva(complex128(complex(-y, x))))
        return complex128(complex(1.0 - s * p.real, -(s * p.imag)))
    p = h_cmul_c99(c, h_faddeeva(complex128(complex(y, -x))))
    return complex128(complex(s * p.real - 1.0, s * p.imag))
""")

# erfc: SciPy's branches -- the imaginary axis, the real axis (exp(-x^2) erfcx(x), 2 minus it
# below 0), the underflow of exp(-z^2) (0 or 2), exp(-z^2) w(iz) (x >= 0) or 2 - exp(-z^2) w(-iz)
# with C99's complex exp and product
_helpers.register("""
def h_sp_cerfc(z):
    x = z.real
    y = z.imag
    if x == 0.0:
        if y * y > 720.0:
            return complex128(complex(1.0, -math.copysign(math.inf, y)))
        return complex128(complex(1.0, -(h_exp(y * y) * h_fad_im(y))))
    if y == 0.0:
        if x * x > 750.0:
            return complex128(0.0 if x >= 0.0 else 2.0)
        if x >= 0.0:
            return complex128(h_exp(-x * x) * libdevice.erfcx(x))
        return complex128(2.0 - h_exp(-x * x) * libdevice.erfcx(-x))
    mre = (y - x) * (x + y)
    mim = -2.0 * x * y
    if mre < -750.0:
        return complex128(0.0 if x >= 0.0 else 2.0)
    e = h_cexp(complex128(complex(mre, mim)))
    if x >= 0.0:
        return h_cmul_c99(e, h_faddeeva(complex128(complex(-y, x))))
    p = h_cmul_c99(e, h_faddeeva(complex128(complex(y, -x))))
    return complex128(complex(2.0 - p.real, -p.imag))
""")

_helpers.register("""
def h_sp_cerfcx(z):
    return h_faddeeva(complex128(complex(-z.imag, z.real)))
""")

_SQRT1_2 = repr(math.sqrt(0.5))

# ndtr(z) = erfc(-z / sqrt 2) / 2
_helpers.register(f"""
def h_sp_cndtr(z):
    e = h_sp_cerfc(complex128(complex(-z.real * {_SQRT1_2}, -z.imag * {_SQRT1_2})))
    return complex128(complex(0.5 * e.real, 0.5 * e.imag))
""")

# log(ndtr(z)), SciPy's: -erfc(z / sqrt 2) / 2 where Re z > 6 and that is below 1e-8 in
# modulus (log(1 - t) ~ -t); else, with u = -z / sqrt 2, the principal log of
# exp(-u^2) w(iu) / 2: Re(-u^2) + i (Im(-u^2) reduced mod 2 pi), plus log w(iu) - log 2, the
# imaginary part brought into [-pi, pi)
_helpers.register(f"""
def h_sp_clog_ndtr(z):
    if z.real > 6.0:
        e = h_sp_cerfc(complex128(complex(z.real * {_SQRT1_2}, z.imag * {_SQRT1_2})))
        t = complex128(complex(-0.5 * e.real, -0.5 * e.imag))
        if math.hypot(t.real, t.imag) < 1e-8:
            return t
    x = z.real * -{_SQRT1_2}
    y = z.imag * -{_SQRT1_2}
    im = h_fmod(-2.0 * x * y, {2 * math.pi!r})
    if im > math.pi:
        im -= {2 * math.pi!r}
    v = h_clog(h_faddeeva(complex128(complex(-y, x))))
    im = im + v.imag
    if im >= math.pi:
        im -= {2 * math.pi!r}
    if im < -math.pi:
        im += {2 * math.pi!r}
    re = (y - x) * (x + y) + v.real - {math.log(2)!r}
    if z.imag == 0.0:
        # a real z: the real loop's form, without the cancellation of -u^2 against log w(iu)
        # (SciPy's complex loop lands within an ulp of it there; the GPU's w: 8 ulps of 8 off)
        t = z.real * {_SQRT1_2}
        if t < 0.0:
            re = h_log(0.5 * libdevice.erfcx(-t)) - t * t
        else:
            re = h_log1p(-0.5 * libdevice.erfc(t))
    return complex128(complex(re, im))
""")

# erfi(z) = -i erf(iz); the real loop exp(x^2) Im w(x) (+-inf past x^2 = 720, as SciPy)
_helpers.register("""
def h_sp_cerfi(z):
    e = h_sp_cerf(complex128(complex(-z.imag, z.real)))
    return complex128(complex(e.imag, -e.real))
""")
_helpers.register("""
def h_sp_erfi(x):
    if x * x > 720.0:
        return math.copysign(math.inf, x)
    return h_exp(x * x) * h_fad_im(x)
""")

_SPI2 = repr(math.sqrt(math.pi) / 2)

# Dawson's integral F(z) = sqrt(pi)/2 exp(-z^2) erfi(z) = i sqrt(pi)/2 (exp(-z^2) - w(z)) (y >= 0;
# i sqrt(pi)/2 (w(-z) - exp(-z^2)) below, where w(-z) is the small one), SciPy's axes: F(x) =
# sqrt(pi)/2 Im w(x) with -y's zero, F(iy) = i sqrt(pi)/2 (exp(y^2) - erfcx(y)) (y's odd
# Taylor series below y^2 = 2.5e-5); near 0 (|x|, |y| < 5e-3) F(z) = z (1 - 2z^2/3 + 4z^4/15)
# (exp(-z^2) - w(z) cancels there)
_helpers.register(f"""
def h_sp_cdawsn(z):
    x = z.real
    y = z.imag
    if y == 0.0:
        return complex128(complex({_SPI2} * h_fad_im(x), -y))
    if x == 0.0:
        y2 = y * y
        if y2 < 2.5e-5:
            return complex128(complex(x, y * (1.0 + y2 * ({2 / 3!r} + y2 * {4 / 15!r}))))
        if y >= 0.0:
            return complex128(complex(x, {_SPI2} * (h_exp(y2) - libdevice.erfcx(y))))
        return complex128(complex(x, {_SPI2} * (libdevice.erfcx(-y) - h_exp(y2))))
    if math.isnan(y):
        return complex128(complex(math.nan, math.nan))
    mre = (y - x) * (x + y)
    mim = -2.0 * x * y
    if abs(x) < 5e-3 and abs(y) < 5e-3:
        m = complex128(complex(mre, mim))
        return z * (1.0 + m * ({2 / 3!r} + m * {4 / 15!r}))
    e = h_cexp(complex128(complex(mre, mim)))
    if mre == -math.inf and math.isinf(mim):
        e = complex128(complex(0.0, math.copysign(0.0, mim)))     # C99's cexp, glibc's signs
    if y >= 0.0:
        w = h_faddeeva(z)
        rr = e.real - w.real
        ri = e.imag - w.imag
    else:
        w = h_faddeeva(complex128(complex(-x, -y)))
        rr = w.real - e.real
        ri = w.imag - e.imag
    return complex128(complex({_SPI2} * -ri, {_SPI2} * rr))
""")

# table code of the complex loops: complex64 computes in complex128 and rounds, as SciPy's
CODE = {name: f"type(x0)(h_sp_c{name}(complex128(x0)))"
        for name in ("erf", "erfc", "erfcx", "ndtr", "log_ndtr", "erfi", "dawsn")}
CODE["wofz"] = "type(x0)(h_faddeeva(complex128(x0)))"
# the real loops of erfi and dawsn (float64; float32 computes in float64 and rounds, as SciPy's)
REAL = {"erfi": "type(x0)(h_sp_erfi(float64(x0)))",
        "dawsn": f"type(x0)({_SPI2} * h_fad_im(float64(x0)))"}
