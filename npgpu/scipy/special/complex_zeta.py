"""SciPy's complex loops of the Riemann zeta function (``zeta(z)``; ``zeta(z, q)`` takes it on the
real axis only): device helpers in complex128 from real arithmetic (SciPy's complex64 loop computes
in complex128 too).  Written from the mathematics; the regions and parameters are SciPy's (xsf's
zeta.h), so that npgpu carries the same truncation error as SciPy and agrees with it to rounding:

* Im z = 0: the real Riemann zeta (:func:`h_riemann_zeta` of gamma_family), imaginary part +0;
* Re z >= 1/2 with |Im z| <= 50 or Re z >= 50: Borwein's algorithm 2 with n = 50 (P. Borwein,
  "An efficient algorithm for the Riemann zeta function", 1995),
  zeta(z) = -1 / (1 - 2^(1-z)) sum_{k<n} (-1)^k (d_k/d_n - 1) / (k+1)^z,
  d_k = n sum_{i<=k} (n+i-1)! 4^i / ((n-i)! (2i)!): its error grows like e^(pi |Im z| / 2) /
  5.83^n, so SciPy's value, and npgpu's, are good to ~1e-5 relative near |Im z| = 50;
* Re z in [1/2, 50) with |Im z| > 50: Euler-Maclaurin summation (DLMF 2.10.1) with
  N = max(|Im z|/4, 50) terms sum_{j<N} j^-z + N^-z (1/2 + N/(z-1)) and the corrections
  B_2k/(2k)! z (z+1) ... (z+2k-2) N^(1-z-2k), each summed from its logarithm (no overflow) until
  it stops changing the sum; NaN where the remainder bound says not one digit is right, and for
  Re z < 2.5 past |Im z| = 1e9 (N would be 2.5e8: SciPy gives up there too);
* Re z < 1/2: the functional equation zeta(z) = 2 (2 pi)^(z-1) sin(pi z/2) Gamma(1-z) zeta(1-z)
  (DLMF 25.4.1), the factor from logarithms where the direct product overflows.

NaN or infinite imaginary parts, and Re z = -inf, give NaN + NaN i; Re z = +inf gives 1.
"""
import math
from fractions import Fraction

from ...ufuncs import helpers as _helpers
from . import complex_gamma  # noqa: F401 - registers h_cossinpi, h_sp_cgamma, h_sp_cloggamma
from .gamma_family import _zeta_int

_N = 50
_LN2 = math.log(2.0)
_LN_PI = math.log(math.pi)
_LN_2PI = math.log(2.0 * math.pi)
_EPS = 2.220446049250313e-16
_NAN2 = "complex128(complex(math.nan, math.nan))"


def _borwein_coef(n=_N):
    """(-1)^k (d_k/d_n - 1), k < n, from exact integers (the sum's terms, sign included)."""
    d, s = [], Fraction(0)
    for i in range(n + 1):
        s += Fraction(math.factorial(n + i - 1) * 4 ** i,
                      math.factorial(n - i) * math.factorial(2 * i))
        d.append(n * s)
    return tuple(float((-1) ** k * (d[k] - d[n]) / d[n]) for k in range(n))


_BW = _borwein_coef()
_LOGK = tuple(math.log(k + 1.0) for k in range(_N))      # log(k + 1), the terms' bases
# log |B_2k / (2k)!| = log 2 + log zeta(2k) - 2k log(2 pi), k < 50 (k = 0: log 1); from k = 50 on
# the kernel drops log zeta(2k) < 1e-30, as SciPy does
_LC = (0.0,) + tuple(_LN2 + math.log(_zeta_int(2 * k)) - 2 * k * _LN_2PI for k in range(1, _N))

# Borwein's sum for Re z >= 1/2 (the smaller terms first; k = 0's base is 1, exactly)
_helpers.register(f"""
def h_czeta_borwein(x, y):
    sr = 0.0
    si = 0.0
    for j in range({_N - 1}):
        lk = {_LOGK!r}[{_N - 1} - j]
        m = {_BW!r}[{_N - 1} - j] * math.exp(-x * lk)
        sr += m * math.cos(y * lk)
        si -= m * math.sin(y * lk)
    sr += {_BW[0]!r}
    p = math.exp((1.0 - x) * {_LN2!r})
    q = complex128(complex(1.0 - p * math.cos(y * {_LN2!r}), p * math.sin(y * {_LN2!r})))
    return -(complex128(complex(sr, si)) / q)
""")

# Euler-Maclaurin for 1/2 <= Re z < 50, |Im z| > 50
_helpers.register(f"""
def h_czeta_em(x, y):
    n = h_floor(max(abs(y) * 0.25, 50.0))
    sr = 0.0
    si = 0.0
    j = 1.0
    while j < n:
        lj = math.log(j)
        m = math.exp(-x * lj)
        tr = m * math.cos(y * lj)
        ti = -(m * math.sin(y * lj))
        sr += tr
        si += ti
        if x > 1.0 and math.hypot(tr, ti) <= {_EPS!r} * math.hypot(sr, si):
            return complex128(complex(sr, si))
        j += 1.0
    ln = math.log(n)
    m = math.exp(-x * ln)
    b = complex128(complex(m * math.cos(y * ln), -(m * math.sin(y * ln))))
    b = b * (complex128(n) / complex128(complex(x - 1.0, y)) + complex128(0.5))
    sr += b.real
    si += b.imag
    # log(z (z+1) ... (z+2k-2)) and log(N^(1-z-2k)) at step k
    pr = math.log(math.hypot(x, y))
    pa = math.atan2(y, x)
    fr = -(x + 1.0) * ln
    fa = -y * ln
    k = 1
    while k <= n:
        c = {_LC!r}[k] if k < {_N} else {_LN2!r} - 2.0 * k * {_LN_2PI!r}
        e = h_exp(c + fr + pr)
        a = fa + pa + (math.pi if k % 2 == 0 else 0.0)
        tr = e * math.cos(a)
        ti = e * math.sin(a)
        sr += tr
        si += ti
        if math.hypot(tr, ti) <= {_EPS!r} * math.hypot(sr, si):
            return complex128(complex(sr, si))
        u = x + (2.0 * k - 1.0)
        pr += math.log(math.hypot(u, y)) + math.log(math.hypot(u + 1.0, y))
        pa += math.atan2(y, u) + math.atan2(y, u + 1.0)
        fr -= 2.0 * ln
        k += 1
    # no convergence within N corrections: the remainder bound |(z + 2N + 1) / (Re z + 2N + 1)|
    # |T(N + 1)| relative to the sum decides whether to answer
    c = {_LN2!r} - 2.0 * k * {_LN_2PI!r}
    u = x + 2.0 * n + 1.0
    err = h_exp(c + fr + pr) * math.hypot(u, y) / u / math.hypot(sr, si)
    if not err <= 0.1:
        return {_NAN2}
    return complex128(complex(sr, si))
""")

_helpers.register(f"""
def h_czeta_right(x, y):
    if x < 50.0 and abs(y) > 50.0:
        if x < 2.5 and abs(y) > 1e9:
            return {_NAN2}
        return h_czeta_em(x, y)
    return h_czeta_borwein(x, y)
""")

# sin(pi (x + iy)), x and y finite: cosh and sinh scaled where they overflow and the sine and
# cosine of pi x are small
_helpers.register("""
def h_csinpi(x, y):
    cs = h_cossinpi(x)
    py = math.pi * y
    if abs(py) < 700.0:
        return complex128(complex(cs.imag * math.cosh(py), cs.real * math.sinh(py)))
    e = h_exp(0.5 * abs(py))
    h = 0.5 * e
    return complex128(complex((cs.imag * h) * e, math.copysign(1.0, y) * ((cs.real * h) * e)))
""")

# log sin(pi (x + iy)) on some branch (it is only exponentiated): far from the real axis
# sin(pi w) = +-(i/2) e^(pi |y|) e^(-+i pi x) to double precision
_helpers.register(f"""
def h_clogsinpi(x, y):
    if abs(y) < 200.0:
        s = h_csinpi(x, y)
        return complex128(complex(h_log(math.hypot(s.real, s.imag)), math.atan2(s.imag, s.real)))
    if y > 0.0:
        return complex128(complex(math.pi * y - {_LN2!r}, math.pi * (0.5 - x)))
    return complex128(complex(-math.pi * y - {_LN2!r}, math.pi * (x - 0.5)))
""")

# the functional equation for Re z < 1/2 (Im z != 0): the factor 2 (2 pi)^(z-1) sin(pi z/2)
# Gamma(1-z) as C99 products, from logarithms where that overflows; where zeta(1 - z) is 1 the
# factor alone (an infinite factor times 1 + 0i would turn an infinite part into NaN)
_helpers.register(f"""
def h_czeta_reflect(x, y):
    g = h_sp_cgamma(complex128(complex(1.0 - x, -y)))
    a = 2.0 * h_exp((x - 1.0) * {_LN_2PI!r})
    p = complex128(complex(a * math.cos(y * {_LN_2PI!r}), a * math.sin(y * {_LN_2PI!r})))
    f = h_cmul_c99(h_cmul_c99(p, h_csinpi(0.5 * x, 0.5 * y)), g)
    if not (math.isfinite(f.real) and math.isfinite(f.imag)):
        t = h_clogsinpi(0.5 * x, 0.5 * y) + h_sp_cloggamma(complex128(complex(1.0 - x, -y)))
        f = h_cexp(complex128(complex(x * {_LN2!r} + (x - 1.0) * {_LN_PI!r} + t.real,
                                      y * ({_LN2!r} + {_LN_PI!r}) + t.imag)))
    r = h_czeta_right(1.0 - x, -y)
    if r.real == 1.0 and r.imag == 0.0:
        return f
    return h_cmul_c99(f, r)
""")

_helpers.register(f"""
def h_sp_czeta(z):
    x = z.real
    y = z.imag
    if y == 0.0:
        return complex128(complex(h_riemann_zeta(x), 0.0))
    if math.isnan(x) or math.isnan(y) or math.isinf(y) or x == -math.inf:
        return {_NAN2}
    if x >= 0.5:
        return h_czeta_right(x, y)
    return h_czeta_reflect(x, y)
""")

# SciPy 1.17's complex Hurwitz loop (Dd->D): the real zeta(x, q) on the real axis, else NaN
_helpers.register(f"""
def h_sp_czeta_q(z, q):
    if z.imag == 0.0:
        return complex128(complex(h_zeta(z.real, q), 0.0))
    return {_NAN2}
""")

# table code of the complex loops: complex64 computes in complex128 and rounds, as SciPy's
CODE = {"_riemann_zeta": "type(x0)(h_sp_czeta(complex128(x0)))",
        "_zeta": "type(x0)(h_sp_czeta_q(complex128(x0), float64(x1)))"}
