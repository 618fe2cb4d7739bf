"""A complex128 product as C99 Annex G (and SciPy's C++) makes it, and SciPy's complex log1p:
device helpers for the complex loops of npgpu.scipy.special (xlogy, xlog1py, erf, erfc, ndtr,
loggamma near z = 2)."""

from ...ufuncs import helpers as _helpers

# a complex128 product as C99 Annex G (and SciPy's C++) makes it: where the plain formula gives
# NaN + NaN i from an infinite factor, the infinities recovered ((0.5 - 1.2i) (NaN + inf i) is
# inf + inf i, not NaN + NaN i as NumPy's product)
_helpers.register("""
def h_c99_box(v):
    return math.copysign(1.0 if math.isinf(v) else 0.0, v)
""")
_helpers.register("""
def h_c99_nan0(v):
    return math.copysign(0.0, v) if math.isnan(v) else v
""")
_helpers.register("""
def h_cmul_c99(z, w):
    a = z.real
    b = z.imag
    c = w.real
    d = w.imag
    x = a * c - b * d
    y = a * d + b * c
    if math.isnan(x) and math.isnan(y):
        inf_z = math.isinf(a) or math.isinf(b)
        inf_w = math.isinf(c) or math.isinf(d)
        big = (math.isinf(a * c) or math.isinf(b * d) or math.isinf(a * d)
               or math.isinf(b * c))
        if inf_z or inf_w or big:
            a = h_c99_box(a) if inf_z else h_c99_nan0(a)
            b = h_c99_box(b) if inf_z else h_c99_nan0(b)
            c = h_c99_box(c) if inf_w else h_c99_nan0(c)
            d = h_c99_box(d) if inf_w else h_c99_nan0(d)
            x = math.inf * (a * c - b * d)
            y = math.inf * (a * d + b * c)
    return complex128(complex(x, y))
""")

# SciPy's complex log1p (scipy/special/_cunity.pxd clog1p): log1p of the real axis from -1 on,
# 0.5 log1p(|z|^2 + 2 Re z) + i atan2(Im z, 1 + Re z) inside |z| < 0.707 (|z|^2 + 2 Re z with one
# FMA where SciPy switches to double-double arithmetic: the real part there is accurate to an ulp
# of |z|^2, the complex value to an ulp of |z|), log(1 + z) elsewhere
_helpers.register("""
def h_sp_clog1p(z):
    x = z.real
    y = z.imag
    if math.isfinite(x) and math.isfinite(y):
        if y == 0.0 and x >= -1.0:
            return complex128(complex(h_log1p(x), 0.0))
        if math.hypot(x, y) < 0.707:
            return complex128(complex(0.5 * math.log1p(cuda.fma(y, y, 2.0 * x) + x * x),
                                      math.atan2(y, x + 1.0)))
    # 1 + z adds to the real part only: Im z = -0.0 stays -0.0 (arg -pi left of -1, as SciPy)
    return h_clog(complex128(complex(x + 1.0, y)))
""")
