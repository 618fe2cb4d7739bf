"""Device-function helpers that ufunc loops call by name (sources, rendered into kernels).

Each entry is the source of one ``def``.  A table row's code names the helpers
it calls; :func:`needed` finds them (and the helpers they call), in the order
they are defined here, so a helper may only call helpers defined above it.

Rules every helper keeps (the same source runs on the simulator, where values
are NumPy scalars and ``math`` is CPython's, and is typed by Numba for the GPU):

* constants take the type of an input, ``type(x)(0.5)``: a bare ``0.5`` would
  make Numba compute a float32 loop in float64, and a bare ``0`` mixes int64 into
  uint64 arithmetic (which Numba types as float64);
* ``type(v)`` only of a variable that is never reassigned (Numba would see two types);
* special values (NaN, +-inf, +-0, out-of-domain) are decided explicitly before a
  ``math`` call: CPython's ``math`` raises where IEEE returns NaN/inf, and
  ``math.floor``/``ceil``/``trunc``/``round`` return integers (Python semantics).
"""
import os
import re

SOURCES = {}


def _h(src):
    name = re.match(r"\s*def (\w+)\(", src).group(1)
    SOURCES[name] = src.strip("\n") + "\n"


# ---- rounding (float in, float out; +-0, inf and NaN kept) -------------------------------------
# |x| >= 2**52 is already integral in every float type; below it the int64 result is exact, and
# copysign restores the sign of zero results (floor(-0.0) = -0.0, ceil(-0.5) = -0.0).
for _name, _fn in (("h_floor", "math.floor"), ("h_ceil", "math.ceil"),
                   ("h_trunc", "int"), ("h_rint", "round")):
    _h(f"""
def {_name}(x):
    if not (abs(x) < type(x)(4503599627370496.0)):
        return x
    return type(x)(math.copysign(type(x)({_fn}(x)), x))
""")

_h("""
def h_crint(z):
    return type(z)(complex(h_rint(z.real), h_rint(z.imag)))
""")

# ---- exp / log / powers with IEEE special values ----------------------------------------------
# Overflow guards: CPython's math raises OverflowError where IEEE gives inf, so each guard is the
# smallest float64 at which math.<fn> overflows (exp/expm1: log(DBL_MAX) rounded up; exp2: 1024;
# sinh/cosh: log(2 * DBL_MAX) rounded up).  Compared with ``<`` they are exact for float64; in a
# float32 loop the constant rounds to a float32 whose predecessor is still finite in float64
# (the float32 result then overflows on its cast, as NumPy's does).
_EXP_MAX = "709.7827128933841"
_SINH_MAX = "710.475860073944"
for _name, _fn, _top in (("h_exp", "math.exp", _EXP_MAX), ("h_exp2", "math.exp2", "1024.0"),
                         ("h_expm1", "math.expm1", _EXP_MAX)):
    _h(f"""
def {_name}(x):
    if x < type(x)({_top}):
        return type(x)({_fn}(x))
    return x * type(x)(math.inf)
""")

for _name, _fn in (("h_log", "math.log"), ("h_log2", "math.log2"), ("h_log10", "math.log10")):
    _h(f"""
def {_name}(x):
    if x > type(x)(0):
        return type(x)({_fn}(x))
    if x == type(x)(0):
        return type(x)(-math.inf)
    return type(x)(math.nan)
""")

_h("""
def h_log1p(x):
    if x > type(x)(-1):
        return type(x)(math.log1p(x))
    if x == type(x)(-1):
        return type(x)(-math.inf)
    return type(x)(math.nan)
""")

_h("""
def h_sqrt(x):
    if x >= type(x)(0):
        return type(x)(math.sqrt(x))
    return type(x)(math.nan)
""")

# float power with C99's results at an infinite base, where the H200's libdevice pow gave
# (-inf) ** 1.5 = -inf in float64 (C99 and NumPy: +inf; an odd integer exponent keeps the sign)
_h("""
def h_fpow(x, y):
    if math.isinf(x) and not math.isnan(y) and y != type(y)(0):
        odd = math.isfinite(y) and math.floor(y) == y and math.fmod(y, 2.0) != 0.0
        if x > type(x)(0) or not odd:
            return type(x)(math.inf) if y > type(y)(0) else type(x)(0)
        return type(x)(-math.inf) if y > type(y)(0) else type(x)(-0.0)
    return x ** y
""")

# NumPy's float power loop for an exponent that is one value for the whole loop (table.py's
# ONE_OPERAND): the same branch for every element, so no divergence
_h("""
def h_pow_one(b, e):
    if e == type(e)(0.5):
        return h_sqrt(b)
    if e == type(e)(2):
        return b * b
    if e == type(e)(-1):
        return type(b)(1) / b
    if e == type(e)(1):
        return b
    if e == type(e)(0):
        return type(b)(1)
    return h_fpow(b, e)
""")

# cbrt: no math.cbrt on the GPU; pow on |x| then one Newton step (in float64)
_h("""
def h_cbrt(x):
    if x == type(x)(0) or not math.isfinite(x):
        return x
    a = abs(float64(x))
    r = math.pow(a, 1.0 / 3.0)
    r = r - (r - a / (r * r)) / 3.0
    return type(x)(math.copysign(r, float64(x)))
""")

_h("""
def h_logaddexp(x, y):
    if x == y:
        return x + type(x)(0.6931471805599453)
    d = x - y
    if d > type(x)(0):
        return x + type(x)(math.log1p(math.exp(-d)))
    if d <= type(x)(0):
        return y + type(x)(math.log1p(math.exp(d)))
    return d
""")

_h("""
def h_logaddexp2(x, y):
    if x == y:
        return x + type(x)(1)
    d = x - y
    if d > type(x)(0):
        return x + type(x)(math.log1p(math.exp2(-d)) * 1.4426950408889634)
    if d <= type(x)(0):
        return y + type(x)(math.log1p(math.exp2(d)) * 1.4426950408889634)
    return d
""")

# ---- trigonometric / hyperbolic domains --------------------------------------------------------
for _name, _fn in (("h_sin", "math.sin"), ("h_cos", "math.cos"), ("h_tan", "math.tan")):
    _h(f"""
def {_name}(x):
    if math.isinf(x):
        return type(x)(math.nan)
    return type(x)({_fn}(x))
""")

# float32 cos (the "float32" loop of cos; fast("cos")): libdevice's cosf inlines Payne-Hanek's
# reduction per element (registers, a branch region each).  Here |x| <= 105615 reduces by
# Cody-Waite in FMAs (libdevice's three-part pi/2: exact to that bound) with the quadrant
# rounded by the 1.5 * 2^23 shift (no F2I/I2F), then libdevice's kernel polynomials
# (coefficients chosen by the quadrant's parity, one evaluation); the rest (larger |x|, inf,
# NaN) calls the libdevice helper.  <= 1.5 ulp (fma() on the simulator rounds once too).  cos's
# quadrant is j + 1, added as a float (exact: j's ulp is 1), so q is float_as_int's int32
# itself: an int32 sum is int64 in Numba, and its bit tests took 64-bit compares.  (sin takes
# h_sin_f32 below: a reduction by pi and one polynomial, fewer instructions, <= 1.7 ulp; the
# same for cos would reduce by a half-integer multiple of pi, where the first FMA is not exact.)
_h("""
def h_cos_f32(x):
    if not (abs(x) <= float32(105615.0)):
        return h_cos(x)
    j = libdevice.fmaf(x, float32(0.6366197466850281), float32(12582912.0))
    q = libdevice.float_as_int(j + float32(1.0))
    k = j - float32(12582912.0)
    r = libdevice.fmaf(k, float32(-1.570796251296997), x)
    r = libdevice.fmaf(k, float32(-7.549789415861596e-08), r)
    r = libdevice.fmaf(k, float32(-5.390302953474238e-15), r)
    s = r * r
    odd = (q & int32(1)) != int32(0)
    z = libdevice.fmaf(s, float32(2.4279579520225525e-05), float32(-0.0013887860113754869)) \
        if odd else float32(-0.00019574658654164523)
    z = libdevice.fmaf(s, z, float32(0.041666727513074875) if odd else float32(0.00833270326256752))
    z = libdevice.fmaf(s, z, float32(-0.4999999701976776) if odd else float32(-0.16666662693023682))
    t = float32(1.0) if odd else r
    y = libdevice.fmaf(z, libdevice.fmaf(t, s, float32(0.0)), t)
    return -y if (q & int32(2)) != int32(0) else y
""")

# float32 sin alone (the "float32" loop of sin; fast("sin")): a reduction by pi instead of
# pi/2, so one odd polynomial serves every x and no per-quadrant coefficient selects are needed
# (its fast path 20 SASS instructions against the quadrant form's 27; H200 2026-12-04,
# fused_chain_parts.py: the fused 10-op chain 86.1 -> 92.0% of copy, the sin ufunc 99.2 ->
# 100.4%).  |x| <= 105615: k =
# rint(x / pi) by the 1.5 * 2^23 shift, r = x - k pi in three FMAs (twice libdevice's pi/2
# parts: the same exact products as the quadrant form's even quadrants), |r| <= pi/2 + 0.01;
# sin(r) = r + r s q(s), s = r^2, q of degree 3 (minimax of the relative error on that range,
# coefficients rounded to float32 one by one, each refit after the last: 6.8e-9); the sign
# flips for odd k.  <= 1.7 ulp (1.67 on every 7th float32 in [2^-12, 8) and 1.66 on 2e6
# uniform in [0, 105615], against float64 sin; the quadrant form's worst is 1.5), the error
# largest near |r| = pi/2 where r s q is -0.6 of r.  fma(r, s, +0) keeps sin(-0) = -0.
_h("""
def h_sin_f32(x):
    if not (abs(x) <= float32(105615.0)):
        return h_sin(x)
    j = libdevice.fmaf(x, float32(0.31830987334251404), float32(12582912.0))
    k = j - float32(12582912.0)
    r = libdevice.fmaf(k, float32(-3.141592502593994), x)
    r = libdevice.fmaf(k, float32(-1.5099578831723193e-07), r)
    r = libdevice.fmaf(k, float32(-1.0780605906948477e-14), r)
    s = r * r
    q = libdevice.fmaf(float32(2.605112740639015e-06), s, float32(-0.00019809434888884425))
    q = libdevice.fmaf(q, s, float32(0.00833306647837162))
    q = libdevice.fmaf(q, s, float32(-0.16666659712791443))
    y = libdevice.fmaf(q, libdevice.fmaf(r, s, float32(0.0)), r)
    return -y if (libdevice.float_as_int(j) & int32(1)) != int32(0) else y
""")

# log u in float32 for u positive, normal and finite (the float32 Box-Muller's u,
# npgpu/random/philox.py): libdevice's logf step for step (constants and order from its PTX for
# sm_90) less its zero, negative, subnormal and inf branches.  (Measured and dropped: float32
# gammaln's log by this core with a subnormal scaling, H200 2026-12-04: 742-754 us against
# 736-737 us with libdevice's logf.)
LOGNORMAL_F32 = """
def h_lognormal_f32(u):
    iu = libdevice.float_as_int(u)
    e = int32(int32(iu - int32(1059760811)) & int32(-8388608))
    f = libdevice.int_as_float(int32(iu - e)) - float32(1.0)
    p = libdevice.fmaf(float32(-0.13018856942653656), f, float32(0.1408461034297943))
    p = libdevice.fmaf(p, f, float32(-0.12148627638816833))
    p = libdevice.fmaf(p, f, float32(0.1398061066865921))
    p = libdevice.fmaf(p, f, float32(-0.16684235632419586))
    p = libdevice.fmaf(p, f, float32(0.20012299716472626))
    p = libdevice.fmaf(p, f, float32(-0.24999669194221497))
    p = libdevice.fmaf(p, f, float32(0.333331823348999))
    p = libdevice.fmaf(p, f, float32(-0.5))
    p = libdevice.fmaf(p * f, f, f)
    return libdevice.fmaf(float32(e) * float32(1.1920928955078125e-07),
                          float32(0.6931471824645996), p)
"""
_h(LOGNORMAL_F32)

# sin(pi t) for |t| <= 1/2 in float32: t (pi + t^2 q(t^2)), q of degree 4 (a Chebyshev fit of
# (sin(pi t)/t - pi)/t^2 on t^2 in [0, 1/4], mpmath), pi in two parts (the leading product's
# rounding); within ~2 ulp.  With t = x - rint(x) exact, sin(pi x) = (-1)^rint(x) sinpi(t) and
# cos(pi x) = (-1)^rint(x) sinpi(1/2 - |t|): the float32 Box-Muller's sin and cos by half turns
# (npgpu/random/philox.py) and digamma's cot(pi x) = sinpi(1/2 - |t|) / sinpi(t).
SINPI_F32 = """
def h_sinpi_f32(t):
    z = t * t
    q = libdevice.fmaf(z, float32(-0.007084488868713379), float32(0.08208371698856354))
    q = libdevice.fmaf(z, q, float32(-0.5992590188980103))
    q = libdevice.fmaf(z, q, float32(2.550163984298706))
    q = libdevice.fmaf(z, q, float32(-5.167712688446045))
    return libdevice.fmaf(t, float32(3.1415927410125732),
                          libdevice.fmaf(t, float32(-8.742277657347586e-08), (t * z) * q))
"""
_h(SINPI_F32)

# float32 expit (npgpu.scipy.special's expit; fast("expit")): SciPy's loop's branch-free form,
# e = exp(-|x|) (libdevice's expf, ~10 instructions, subnormal results kept) and (1 or e) / (1 + e),
# the division as one MUFU.RCP (1 + e is in [1, 2]) and a Newton step from the quotient: within
# half an ulp of the IEEE quotient, where the IEEE division is ~10 instructions and a branch to a
# called slow path per element (which also kept the loads of the 4 elements from being hoisted).
_h("""
def h_expit_f32(x):
    e = float32(math.exp(-abs(x)))
    d = float32(1.0) + e
    rd = ptx.rcp_approx(d)
    num = float32(1.0) if x >= float32(0.0) else e
    y = num * rd
    return libdevice.fmaf(libdevice.fmaf(-d, y, num), rd, y)
""")

for _name, _fn in (("h_arcsin", "math.asin"), ("h_arccos", "math.acos")):
    _h(f"""
def {_name}(x):
    if abs(x) <= type(x)(1):
        return type(x)({_fn}(x))
    return type(x)(math.nan)
""")

_h("""
def h_arccosh(x):
    if x >= type(x)(1):
        return type(x)(math.acosh(x))
    return type(x)(math.nan)
""")

_h("""
def h_arctanh(x):
    if abs(x) < type(x)(1):
        return type(x)(math.atanh(x))
    if abs(x) == type(x)(1):
        return type(x)(math.copysign(math.inf, x))
    return type(x)(math.nan)
""")

_h(f"""
def h_sinh(x):
    if abs(x) < type(x)({_SINH_MAX}):
        return type(x)(math.sinh(x))
    return x * type(x)(math.inf)
""")

_h(f"""
def h_cosh(x):
    if abs(x) < type(x)({_SINH_MAX}):
        return type(x)(math.cosh(x))
    return abs(x) * type(x)(math.inf)
""")

# ---- float bit-level functions -------------------------------------------------------------------
_h("""
def h_fmod(x, y):
    if y == type(x)(0) or math.isinf(x) or math.isnan(x) or math.isnan(y):
        return type(x)(math.nan)
    if math.isinf(y):
        return x
    return type(x)(math.fmod(x, y))
""")

# NumPy's npy_divmod: (floor quotient, remainder with the divisor's sign)
_h("""
def h_divmod(a, b):
    mod = h_fmod(a, b)
    if b == type(a)(0):
        return a / b, mod
    div = (a - mod) / b
    if mod != type(a)(0):
        if (b < type(a)(0)) != (mod < type(a)(0)):
            mod = mod + b
            div = div - type(a)(1)
    else:
        mod = type(a)(math.copysign(type(a)(0), b))
    if div != type(a)(0):
        fl = h_floor(div)
        if div - fl > type(a)(0.5):
            fl = fl + type(a)(1)
    else:
        fl = type(a)(math.copysign(type(a)(0), a / b))
    return fl, mod
""")

# nextafter in a float type with p mantissa bits, minimum normal frexp exponent emin and
# largest finite value fmax; half: NumPy's float16 rules (x == y gives x) (so float16 loops, computed in float32, step in float16 ulps)
_h("""
def h_nextafter(x, y, half, p, emin, fmax):
    if math.isnan(x) or math.isnan(y):
        return x + y
    if x == y:
        return x if half else y
    if x == type(x)(0):
        return type(x)(math.copysign(math.ldexp(1.0, emin - p), y))
    if math.isinf(x):
        return type(x)(math.copysign(fmax, x))
    m, e = math.frexp(x)
    if e < emin:
        e = emin
    ulp = type(x)(math.ldexp(1.0, e - p))
    if (y > x) == (x > type(x)(0)):
        r = x + ulp if x > type(x)(0) else x - ulp
        if abs(r) > type(x)(fmax):
            r = type(x)(math.copysign(math.inf, x))
        return r
    if abs(m) == 0.5 and e > emin:
        ulp = ulp * type(x)(0.5)
    r = x - ulp if x > type(x)(0) else x + ulp
    if r == type(x)(0):
        return type(x)(math.copysign(0.0, x))    # a step to zero keeps the sign (bit decrement)
    return r
""")

# NumPy: toward +-inf by the sign of x (+0 for -0.0); float16's loop always steps toward +inf
_h("""
def h_spacing(x, up, p, emin, fmax):
    if math.isinf(x):
        return type(x)(math.nan)
    if up or x >= type(x)(0):
        return h_nextafter(x, type(x)(math.inf), up, p, emin, fmax) - x
    return h_nextafter(x, type(x)(-math.inf), up, p, emin, fmax) - x
""")

# x = m * 2**ex with 0.5 <= |m| < 1, so x * 2**e is finite in float64 iff ex + e <= 1024 (CPython's
# ldexp raises beyond); |e| is bounded first so that ex + e cannot wrap on the GPU
_h("""
def h_ldexp(x, n):
    if x == type(x)(0) or not math.isfinite(x):
        return x
    e = int(n)
    if e > 4096:
        return type(x)(math.copysign(math.inf, x))
    if e < -4096:
        return type(x)(math.copysign(0.0, x))
    m, ex = math.frexp(x)
    if ex + e > 1024:
        return type(x)(math.copysign(math.inf, x))
    return type(x)(math.ldexp(x, e))
""")

_h("""
def h_frexp(x):
    if x == type(x)(0) or not math.isfinite(x):
        return x, int32(0)
    m, e = math.frexp(x)
    return type(x)(m), int32(e)
""")

_h("""
def h_modf(x):
    if math.isnan(x):
        return x, x
    if math.isinf(x):
        return type(x)(math.copysign(0.0, x)), x
    t = h_trunc(x)
    return type(x)(math.copysign(x - t, x)), t
""")

_h("""
def h_sign(x):
    if x > type(x)(0):
        return type(x)(1)
    if x < type(x)(0):
        return type(x)(-1)
    if x == type(x)(0):
        return type(x)(0)
    return x
""")

_h("""
def h_heaviside(x, h0):
    if x < type(x)(0):
        return type(x)(0)
    if x > type(x)(0):
        return type(x)(1)
    if x == type(x)(0):
        return h0
    return x
""")

# ---- integers ----------------------------------------------------------------------------------
# integer power by squaring (wraps like NumPy); negative exponents: 1, -1 exact, else 0
_h("""
def h_ipow(b, e):
    one = type(b)(1)
    if e < type(e)(0):
        if b == one:
            return one
        if b == type(b)(0) - one:
            return one if (e % type(e)(2)) == type(e)(0) else b
        return type(b)(0)
    r = one
    base = b
    n = e
    while n > type(e)(0):
        if n & type(e)(1):
            r = r * base
        base = base * base
        n = n >> type(e)(1)
    return r
""")

# popcount of a uint64 (no popc intrinsic on the simulator)
_h("""
def h_popcount(v):
    v = v - ((v >> uint64(1)) & uint64(0x5555555555555555))
    v = (v & uint64(0x3333333333333333)) + ((v >> uint64(2)) & uint64(0x3333333333333333))
    v = (v + (v >> uint64(4))) & uint64(0x0F0F0F0F0F0F0F0F)
    return (v * uint64(0x0101010101010101)) >> uint64(56)
""")

# |x| as uint64 (INT_MIN included) for signed integers
_h("""
def h_uabs(x):
    y = int64(x)
    if y < 0:
        y = -y
    return uint64(y)
""")

_h("""
def h_gcdu(a, b):
    while b != uint64(0):
        t = a % b
        a = b
        b = t
    return a
""")

_h("""
def h_lcmu(a, b):
    g = h_gcdu(a, b)
    if g == uint64(0):
        return uint64(0)
    return (a // g) * b
""")

# int64 vs uint64 three-way comparison (NumPy's qQ loops compare exactly)
_h("""
def h_cmp_iu(a, b):
    if a < 0:
        return -1
    ua = uint64(a)
    if ua < b:
        return -1
    if ua == b:
        return 0
    return 1
""")

# ---- complex -------------------------------------------------------------------------------------
# NumPy orders complex lexicographically; a NaN anywhere makes the "real part decides" branch false
_h("""
def h_clt(a, b):
    return ((a.real < b.real and not math.isnan(a.imag) and not math.isnan(b.imag))
            or (a.real == b.real and a.imag < b.imag))
""")

_h("""
def h_cle(a, b):
    return ((a.real < b.real and not math.isnan(a.imag) and not math.isnan(b.imag))
            or (a.real == b.real and a.imag <= b.imag))
""")

_h("""
def h_cisnan(a):
    return math.isnan(a.real) or math.isnan(a.imag)
""")

# hypot whose result is finite wherever it is representable: the GPU's float64 hypot (libdevice)
# rounds hypot(1, DBL_MAX) up to inf (NumPy: DBL_MAX); the scaled form answers the rare inf
_h("""
def h_hypot(x, y):
    r = math.hypot(x, y)
    if math.isinf(r) and math.isfinite(x) and math.isfinite(y):
        a = max(abs(x), abs(y))
        q = min(abs(x), abs(y)) / a
        r = a * math.sqrt(q * q + type(q)(1))
    return r
""")

_h("""
def h_csign(z):
    a = h_hypot(z.real, z.imag)
    if math.isnan(a):
        return type(z)(complex(math.nan, math.nan))
    if math.isinf(a):
        if math.isinf(z.real):
            if math.isinf(z.imag):
                return type(z)(complex(math.nan, math.nan))
            return type(z)(complex(math.copysign(1.0, z.real), 0.0))
        return type(z)(complex(0.0, math.copysign(1.0, z.imag)))
    if a == 0.0:
        return type(z)(0)
    return type(z)(complex(z.real / a, z.imag / a))
""")

# exp(x) * cos(y) may be finite where exp(x) overflows (x past ~709.78, float32 ~88.72): there
# exp(x / 2) is applied twice, as C99's cexp scales, so only a result that overflows is inf.
# exp(+-inf + iy), y inf or NaN: glibc's (NumPy's) inf + i NaN, and 0 + i copysign(0, y)
_h("""
def h_cexp(z):
    x = z.real
    y = z.imag
    r = h_exp(x)
    if y == type(x)(0):
        return type(z)(complex(r, y))
    if math.isinf(x) and not math.isfinite(y):
        return type(z)(complex(r, y - y if x > type(x)(0) else math.copysign(type(x)(0), y)))
    c = h_cos(y)
    s = h_sin(y)
    if math.isinf(r) and math.isfinite(x):
        e = h_exp(x * type(x)(0.5))
        return type(z)(complex((e * c) * e, (e * s) * e))
    return type(z)(complex(r * c, r * s))
""")

# C99 (Annex G) csinh/ccosh, which NumPy's follow: sinh(x+iy) = sinh(x)cos(y) + i cosh(x)sin(y),
# cosh(x+iy) = cosh(x)cos(y) + i sinh(x)sin(y).  Where cosh(x) overflows, |sinh(x)| = cosh(x) =
# exp(|x| / 2)**2 / 2 to every float type's precision, scaled like h_cexp.  The remaining special
# values (glibc's, which NumPy calls): y == 0 keeps the zero imaginary part; y inf/NaN with
# x = +-0 gives (x, NaN) for sinh, (NaN, x) for cosh, with x = +-inf (inf, NaN) for both;
# IEEE arithmetic gives the rest.  h_cexp likewise: exp(+-inf + i inf/NaN) = (inf, NaN) /
# (0, copysign(0, y)).
_h("""
def h_csinh(z):
    x = z.real
    y = z.imag
    if y == type(x)(0):
        return type(z)(complex(h_sinh(x), y))
    if not math.isfinite(y) and (x == type(x)(0) or math.isinf(x)):
        return type(z)(complex(x if x == type(x)(0) else abs(x), y - y))
    if math.isinf(h_cosh(x)) and math.isfinite(x):
        e = h_exp(abs(x) * type(x)(0.5))
        h = e * type(x)(0.5)
        re = (h * h_cos(y)) * e
        return type(z)(complex(re if x > type(x)(0) else -re, (h * h_sin(y)) * e))
    return type(z)(complex(h_sinh(x) * h_cos(y), h_cosh(x) * h_sin(y)))
""")

_h("""
def h_ccosh(z):
    x = z.real
    y = z.imag
    if y == type(x)(0):
        return type(z)(complex(h_cosh(x), y * type(x)(math.copysign(1.0, x))))
    if not math.isfinite(y) and x == type(x)(0):
        return type(z)(complex(y - y, x))
    if not math.isfinite(y) and math.isinf(x):
        return type(z)(complex(abs(x), y - y))
    if math.isinf(h_cosh(x)) and math.isfinite(x):
        e = h_exp(abs(x) * type(x)(0.5))
        h = e * type(x)(0.5)
        im = (h * h_sin(y)) * e
        return type(z)(complex((h * h_cos(y)) * e, im if x > type(x)(0) else -im))
    return type(z)(complex(h_cosh(x) * h_cos(y), h_sinh(x) * h_sin(y)))
""")

# |z|**2 - 1 for 0.5 <= |z|**2 <= 2, in float64 with the squares split exactly (Dekker's
# product; kernels are compiled without FMA) and the sum compensated: log|z| near |z| = 1 is
# half its log1p, without the cancellation of log(hypot) (NumPy's clog: glibc's __x2y2m1)
_h("""
def h_x2y2m1(x, y):
    c = float64(134217729.0) * x
    xh = c - (c - x)
    xl = x - xh
    d = float64(134217729.0) * y
    yh = d - (d - y)
    yl = y - yh
    p = x * x
    pe = ((xh * xh - p) + float64(2) * xh * xl) + xl * xl
    q = y * y
    qe = ((yh * yh - q) + float64(2) * yh * yl) + yl * yl
    a = p - float64(1)
    ab = a - p
    ae = (p - (a - ab)) + (float64(-1) - ab)
    t = a + q
    tb = t - a
    te = (a - (t - tb)) + (q - tb)
    return t + (((pe + qe) + ae) + te)
""")

# log|z| in float64 (x, y: |parts| in float64) where the part type's hypot loses bits or
# overflows: as glibc's clog (NumPy's), float64 parts both subnormal are scaled by 2**53 (53 ln 2
# taken back), a part above DBL_MAX / 2 by 1/2 (ln 2 added); a float32 part is normal in float64
_h("""
def h_cloga(x, y):
    m = max(x, y)
    if m < float64(2.2250738585072014e-308):
        s = float64(9007199254740992.0)
        return h_log(float64(h_hypot(x * s, y * s))) - float64(36.7368005696771)
    if m > float64(8.988465674311579e+307):
        h = float64(0.5)
        return h_log(float64(h_hypot(x * h, y * h))) + float64(0.6931471805599453)
    return h_log(float64(h_hypot(x, y)))
""")

# |z|**2 below 2**-250 (a float32 hypot would be subnormal) or above 2**254 (it would overflow;
# a float64 one past DBL_MAX) takes h_cloga, one compare past the |z| ~ 1 test; other moduli take
# log(hypot) in the part type, NaN parts too (an inf part goes to h_cloga: log(inf) is inf)
_h("""
def h_clog(z):
    x = float64(abs(z.real))
    y = float64(abs(z.imag))
    r2 = x * x + y * y
    if r2 < float64(0.5):
        if r2 < float64(5.527147875260445e-76):
            return type(z)(complex(type(z.real)(h_cloga(x, y)), math.atan2(z.imag, z.real)))
    elif r2 <= float64(2):
        re = float64(0.5) * math.log1p(h_x2y2m1(x, y))
        return type(z)(complex(type(z.real)(re), math.atan2(z.imag, z.real)))
    elif r2 > float64(2.894802230932905e+76):
        return type(z)(complex(type(z.real)(h_cloga(x, y)), math.atan2(z.imag, z.real)))
    return type(z)(complex(h_log(type(z.real)(h_hypot(z.real, z.imag))),
                           math.atan2(z.imag, z.real)))
""")

# log2, log10: the log scaled part by part (a complex product with (k + 0i) would turn the
# imaginary part of log(0) = -inf + 0i into NaN; NumPy's is 0)
_h("""
def h_clogk(z, k):
    w = h_clog(z)
    return type(z)(complex(w.real * type(z.real)(k), w.imag * type(z.real)(k)))
""")

_h("""
def h_clog1p(z):
    re = z.real + type(z.real)(1)
    return type(z)(complex(h_log(type(z.real)(h_hypot(re, z.imag))), math.atan2(z.imag, re)))
""")

# A non-finite part: exp(z) - 1 by components, which gives the Array API's table (-inf + iy ->
# -1 + i0 sin(y), +inf + iy -> inf cis(y) - 1, NaN + i0 -> NaN + i0); NumPy's loop computes the
# finite formula there too and returns NaN for ten of them (tests/test_complex_special_values.py).
_h("""
def h_cexpm1(z):
    x = z.real
    y = z.imag
    if not (math.isfinite(x) and math.isfinite(y)):
        w = h_cexp(z)
        return type(z)(complex(w.real - type(x)(1), w.imag))
    a = h_sin(y * type(x)(0.5))
    return type(z)(complex(h_expm1(x) * h_cos(y) - type(x)(2) * a * a, h_exp(x) * h_sin(y)))
""")

# NumPy's complex division loop (Smith's method, scaled by one reciprocal): Numba's complex
# quotient raises ZeroDivisionError for a zero divisor, which a GPU kernel cannot raise (the
# element was left unwritten); NumPy divides the parts by |0| there (inf/nan by part)
_h("""
def h_cdiv(a, b):
    ar = a.real
    ai = a.imag
    br = b.real
    bi = b.imag
    abr = abs(br)
    abi = abs(bi)
    if abr >= abi:
        if abr == type(abr)(0) and abi == type(abi)(0):
            return type(a)(complex(ar / abr, ai / abr))
        rat = bi / br
        scl = type(br)(1) / (br + bi * rat)
        return type(a)(complex((ar + ai * rat) * scl, (ai - ar * rat) * scl))
    rat = br / bi
    scl = type(bi)(1) / (bi + br * rat)
    return type(a)(complex((ar * rat + ai) * scl, (ai * rat - ar) * scl))
""")

# NumPy's complex product (npymath's cmul, which its power's integer path multiplies with):
# the naive formula, whose 0 * inf gives NaN parts (the operator's order, written out)
_h("""
def h_cmul(z, w):
    a = z.real
    b = z.imag
    c = w.real
    d = w.imag
    return type(z)(complex(a * c - b * d, a * d + b * c))
""")

# C's complex product (C99 Annex G.5.1; libgcc's __muldc3, as glibc's cpow multiplies): the
# naive product unless both parts are NaN; then an infinite factor is boxed to parts +-1/+-0, NaN
# parts of the other factor become +-0, and the product is recomputed times inf
_h("""
def h_box(v):
    return type(v)(math.copysign(type(v)(1) if math.isinf(v) else type(v)(0), v))
""")

_h("""
def h_unnan(v):
    return type(v)(math.copysign(type(v)(0), v)) if math.isnan(v) else v
""")

_h("""
def h_cmul99(z, w):
    a = z.real
    b = z.imag
    c = w.real
    d = w.imag
    ac = a * c
    bd = b * d
    ad = a * d
    bc = b * c
    x = ac - bd
    y = ad + bc
    if not (math.isnan(x) and math.isnan(y)):
        return type(z)(complex(x, y))
    p = a
    q = b
    r = c
    s = d
    boxed = False
    if math.isinf(a) or math.isinf(b):
        p = h_box(a)
        q = h_box(b)
        r = h_unnan(c)
        s = h_unnan(d)
        boxed = True
    if math.isinf(r) or math.isinf(s):
        r = h_box(r)
        s = h_box(s)
        p = h_unnan(p)
        q = h_unnan(q)
        boxed = True
    if not boxed and (math.isinf(ac) or math.isinf(bd) or math.isinf(ad) or math.isinf(bc)):
        p = h_unnan(p)
        q = h_unnan(q)
        r = h_unnan(r)
        s = h_unnan(s)
        boxed = True
    if not boxed:
        return type(z)(complex(x, y))
    inf = type(ac)(math.inf)
    return type(z)(complex(inf * (p * r - q * s), inf * (p * s + q * r)))
""")

# NumPy's complex power (npy_cpow): b == 0 gives 1, a zero base 0 (Re b > 0) or nan+nanj,
# integral b with |b| < 100 multiplies by squaring with the naive product; other b take the C
# library's cpow, which glibc computes as cexp(b * clog(a)) with C's product, written out here
# (Numba's pow is CPython's polar formula, with other special values).  glibc's cexp(-inf + iy),
# y inf or NaN, is 0 + i copysign(0, y); the NaN that reaches it is made by inf * 0 or inf - inf
# (NaN operands of the product are boxed away first), which on x86 is negative: NumPy gives -0.
_h("""
def h_cpow(a, b):
    ar = a.real
    ai = a.imag
    br = b.real
    bi = b.imag
    zero = type(br)(0)
    if br == zero and bi == zero:
        return type(a)(1)
    if ar == zero and ai == zero:
        if br > zero:
            return type(a)(0)
        return type(a)(complex(math.nan, math.nan))
    if bi == zero and abs(br) < type(br)(100) and br == type(br)(int(br)):
        n = int(br)
        if n == 1:
            return a
        if n == 2:
            return h_cmul(a, a)
        if n == 3:
            return h_cmul(a, h_cmul(a, a))
        if n < 0:
            n = -n
        r = type(a)(1)
        p = a
        mask = 1
        while True:
            if n & mask:
                r = h_cmul(r, p)
            mask = mask << 1
            if n < mask:
                break
            p = h_cmul(p, p)
        if br < zero:
            return h_cdiv(type(a)(1), r)
        return r
    w = h_cmul99(b, h_clog(a))
    if w.real == type(br)(-math.inf) and not math.isfinite(w.imag):
        return type(a)(complex(0.0, math.copysign(0.0, w.imag) if math.isinf(w.imag) else -0.0))
    return h_cexp(w)
""")

# NumPy's complex reciprocal (Smith's division of 1 by z, not the complex quotient 1 / z): its
# zero and infinity results differ from the quotient's (1/0 is nan+nanj, 1/(inf+0j) is 0-0j)
_h("""
def h_crecip(z):
    x = z.real
    y = z.imag
    one = type(x)(1)
    if abs(y) <= abs(x):
        r = y / x
        d = x + y * r
        return type(z)(complex(one / d, -r / d))
    r = x / y
    d = x * r + y
    return type(z)(complex(r / d, -one / d))
""")

# Numba's GPU cmath.sqrt (npy_csqrt's fallback) scales parts >= MAX / (1 + sqrt 2) by 1/4 and
# doubles only the real part back (complex128 1e308+1e308j: imaginary part 2.3e153, NumPy 4.6e153;
# complex64, computed in float64 there, from 1.41e38 on), and its hypot of subnormal parts loses
# bits (5e-324+5e-324j: real part 2.22e-162, NumPy 2.44e-162).  So moduli past 1e38 are
# scaled here by 1/4 (the root by 2) and float64 ones below 2**-1019 by 2**54 (the root by
# 2**-27), both exact; in float32 the small bound is 0 (that loop computes in float64).
_h("""
def h_csqrt(z):
    x = z.real
    y = z.imag
    s = abs(x) + abs(y)
    if s >= type(x)(1.7800590868057611e-307) and s < type(x)(1e38):
        return type(z)(cmath.sqrt(z))
    if not (math.isfinite(x) and math.isfinite(y)):
        return type(z)(cmath.sqrt(z))
    if s < type(x)(1e38):
        k = type(x)(1.8014398509481984e16)
        w = cmath.sqrt(type(z)(complex(x * k, y * k)))
        r = type(x)(7.450580596923828e-09)
        return type(z)(complex(w.real * r, w.imag * r))
    q = type(x)(0.25)
    w = cmath.sqrt(type(z)(complex(x * q, y * q)))
    return type(z)(complex(w.real * type(x)(2), w.imag * type(x)(2)))
""")

# CPython's c_acos, c_acosh, c_asinh for finite parts, in float64 (as Numba's cmath computes
# complex64 too), with h_csqrt: Numba's GPU versions call its own square root, whose tiny-part
# error gave acos(1 + 5e-324j) = 0 - inf j (NumPy: 2.2e-162 - 2.2e-162j).  The large-argument
# branch (a part past DBL_MAX / 4) is CPython's; Numba's takes it from FLT_MAX / 4 on.
_h("""
def h_cacos_f(x, y):
    if abs(x) > 4.49423283715579e+307 or abs(y) > 4.49423283715579e+307:
        m = math.log(math.hypot(x * 0.5, y * 0.5)) + 1.3862943611198906
        return math.atan2(abs(y), x), (-math.copysign(m, y) if x < 0.0 else math.copysign(m, -y))
    s1 = h_csqrt(complex(1.0 - x, -y))
    s2 = h_csqrt(complex(1.0 + x, y))
    return (2.0 * math.atan2(s1.real, s2.real),
            math.asinh(s2.real * s1.imag - s2.imag * s1.real))
""")

_h("""
def h_cacosh_f(x, y):
    if abs(x) > 4.49423283715579e+307 or abs(y) > 4.49423283715579e+307:
        return (math.log(math.hypot(x * 0.5, y * 0.5)) + 1.3862943611198906,
                math.atan2(y, x))
    s1 = h_csqrt(complex(x - 1.0, y))
    s2 = h_csqrt(complex(x + 1.0, y))
    return (math.asinh(s1.real * s2.real + s1.imag * s2.imag),
            2.0 * math.atan2(s1.imag, s2.real))
""")

_h("""
def h_casinh_f(x, y):
    if abs(x) > 4.49423283715579e+307 or abs(y) > 4.49423283715579e+307:
        m = math.log(math.hypot(x * 0.5, y * 0.5)) + 1.3862943611198906
        re = math.copysign(m, x) if y >= 0.0 else -math.copysign(m, -x)
        return re, math.atan2(y, abs(x))
    s1 = h_csqrt(complex(1.0 + y, -x))
    s2 = h_csqrt(complex(1.0 - y, x))
    return (math.asinh(s1.real * s2.imag - s2.real * s1.imag),
            math.atan2(y, s1.real * s2.real - s1.imag * s2.imag))
""")

# ---- complex special values (C99 Annex G, as the Array API lists them) ---------------------------
# Each function tests "both parts finite" first and then calls cmath (Numba's implementation on the
# GPU, CPython's on the simulator), so finite input pays one well-predicted branch.  The non-finite
# parts are decided here: CPython's cmath raises ValueError for several of them, and Numba's loses
# signs or NaNs in others.  Where the standard leaves a sign open, NumPy's choice is taken.
# tanh is odd and conjugate-symmetric: ctanh(+inf + iy) = 1 + i0 sin(2y); +-0 + i inf/NaN keeps
# the zero; NaN + i0 keeps the zero.
_h("""
def h_ctanh(z):
    x = z.real
    y = z.imag
    if math.isfinite(x) and math.isfinite(y):
        return type(z)(cmath.tanh(z))
    one = type(x)(math.copysign(1.0, x))
    if math.isinf(x):
        if math.isfinite(y):
            return type(z)(complex(one, math.copysign(0.0, h_sin(y + y))))
        return type(z)(complex(one, math.copysign(0.0, y) if math.isinf(y) else 0.0))
    if x == type(x)(0):
        return type(z)(complex(x, y - y))
    if math.isnan(x) and y == type(y)(0):
        return type(z)(complex(x, y))
    return type(z)(complex(x + y - y, x + y - y))
""")

# acos(conj z) = conj(acos z); the imaginary part is -inf (by y's sign) wherever a part is infinite
_h("""
def h_cacos(z):
    x = z.real
    y = z.imag
    if math.isfinite(x) and math.isfinite(y):
        re, im = h_cacos_f(float64(x), float64(y))
        return type(z)(complex(re, im))
    if math.isinf(x):
        if math.isnan(y):
            return type(z)(complex(y, -math.inf))
        if math.isinf(y):
            re = 0.7853981633974483 if x > type(x)(0) else 2.356194490192345
        else:
            re = 0.0 if x > type(x)(0) else math.pi
        return type(z)(complex(re, -math.copysign(math.inf, y)))
    if math.isinf(y):
        re = 1.5707963267948966 if math.isfinite(x) else math.nan
        return type(z)(complex(re, -y))
    if x == type(x)(0):
        return type(z)(complex(1.5707963267948966, y))
    return type(z)(complex(math.nan, math.nan))
""")

# acosh(conj z) = conj(acosh z); the real part is +inf wherever a part is infinite
_h("""
def h_cacosh(z):
    x = z.real
    y = z.imag
    if math.isfinite(x) and math.isfinite(y):
        re, im = h_cacosh_f(float64(x), float64(y))
        return type(z)(complex(re, im))
    inf = math.inf
    if math.isinf(x):
        if math.isnan(y):
            return type(z)(complex(inf, y))
        if math.isinf(y):
            im = 0.7853981633974483 if x > type(x)(0) else 2.356194490192345
        else:
            im = 0.0 if x > type(x)(0) else math.pi
        return type(z)(complex(inf, math.copysign(im, y)))
    if math.isinf(y):
        if math.isnan(x):
            return type(z)(complex(inf, x))
        return type(z)(complex(inf, math.copysign(1.5707963267948966, y)))
    if x == type(x)(0):
        return type(z)(complex(math.nan, 1.5707963267948966))
    return type(z)(complex(math.nan, math.nan))
""")

# asinh is odd and conjugate-symmetric: the real part takes x's sign, the imaginary part y's
_h("""
def h_casinh(z):
    x = z.real
    y = z.imag
    if math.isfinite(x) and math.isfinite(y):
        re, im = h_casinh_f(float64(x), float64(y))
        return type(z)(complex(re, im))
    if math.isinf(x):
        if math.isnan(y):
            return type(z)(complex(x, y))
        im = 0.7853981633974483 if math.isinf(y) else 0.0
        return type(z)(complex(x, math.copysign(im, y)))
    if math.isinf(y):
        if math.isnan(x):
            return type(z)(complex(math.inf, x))
        return type(z)(complex(math.copysign(math.inf, x), math.copysign(1.5707963267948966, y)))
    if math.isnan(x) and y == type(y)(0):
        return type(z)(complex(x, y))
    return type(z)(complex(math.nan, math.nan))
""")

# atanh is odd and conjugate-symmetric; +-1 + i0 is its pole (CPython's cmath raises there)
_h("""
def h_catanh(z):
    x = z.real
    y = z.imag
    if math.isfinite(x) and math.isfinite(y):
        if y == type(y)(0) and abs(x) == type(x)(1):
            return type(z)(complex(math.copysign(math.inf, x), y))
        return type(z)(cmath.atanh(z))
    if math.isinf(y):
        re = 0.0 if math.isnan(x) else math.copysign(0.0, x)
        return type(z)(complex(re, math.copysign(1.5707963267948966, y)))
    if math.isinf(x):
        if math.isnan(y):
            return type(z)(complex(math.copysign(0.0, x), y))
        return type(z)(complex(math.copysign(0.0, x), math.copysign(1.5707963267948966, y)))
    if x == type(x)(0):
        return type(z)(complex(x, y))
    return type(z)(complex(math.nan, math.nan))
""")

# The circular functions are the hyperbolic ones rotated, as the Array API defines their special
# values: sin(z) = -i sinh(iz), cos(z) = cosh(iz), tan(z) = -i tanh(iz), asin(z) = -i asinh(iz),
# atan(z) = -i atanh(iz), with iz = -y + ix by components (a complex product would make
# inf * 0 = NaN).  CPython's and Numba's cmath rotate the same way.
for _name, _hyp, _rot in (("h_csin", "h_csinh", True), ("h_ccos", "h_ccosh", False),
                          ("h_ctan", "h_ctanh", True), ("h_casin", "h_casinh", True),
                          ("h_catan", "h_catanh", True)):
    _ret = ("type(z)(complex(w.imag, -w.real))" if _rot else "w")
    _h(f"""
def {_name}(z):
    w = {_hyp}(type(z)(complex(-z.imag, z.real)))
    return {_ret}
""")


# NPGPU_FAST_MATH_HELPERS: which table rows use the cheaper helpers written for them (sin, cos
# and expit float32) instead of the libdevice-based code, and which float64 rows run in the
# elementwise template's heavy form (erf, erfc: npgpu/scipy/special/table.py HEAVY): unset or
# "1" all, "0" none, or a comma list of names ("sin,expit,erf").  Read once, when the tables are built,
# so an A/B of the two needs two processes (benchmarks/experiments/fast_math_helpers.py).
_FAST = os.environ.get("NPGPU_FAST_MATH_HELPERS", "1").strip()


def fast(name):
    """Whether the table row of ``name`` takes its fast helper (NPGPU_FAST_MATH_HELPERS)."""
    if _FAST in ("", "1"):
        return True
    return name in {n.strip() for n in _FAST.split(",")}


_CALL = re.compile(r"\b(h_\w+)\(")
_CALLS = {}        # helper name -> the helpers its source calls (filled on first use)


def register(src):
    """Add a helper defined outside this module (npgpu.scipy.special's); it may call any
    helper registered before it."""
    _h(src)
    _CALLS.clear()


def needed(code):
    """Names of the helpers ``code`` calls, directly or through other helpers, in definition order.

    One regex scan per text (a search per helper name per text cost ~40 ms at import)."""
    if not _CALLS:
        for name, src in SOURCES.items():
            _CALLS[name] = [c for c in _CALL.findall(src) if c in SOURCES and c != name]
    found = set()
    todo = [c for c in _CALL.findall(code) if c in SOURCES]
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(_CALLS[name])
    return [n for n in SOURCES if n in found]
