"""The ufunc table: one row per ufunc, the scalar code of its loops.

Row: ``name: {loop key: code}``.  A loop key is either

* a type class: the ``kind`` of the loop's first input dtype (``b`` bool,
  ``i`` signed, ``u`` unsigned, ``f`` float, ``c`` complex; several letters
  share code; ``""`` is the default), or
* a dtype signature, more specific and tried first: the loop's input dtype
  names joined by commas (``"int64,uint64"``) or the first input's dtype name
  (``"float16"``).

The code is one expression of ``x0 .. x{nin-1}``, or a function body with
``return`` (several values for ufuncs with several outputs).

What the code may rely on:
* inputs arrive already cast to the loop's dtypes (NumPy's resolution), with
  float16 loops computed in float32; the result is cast to the output dtype
  by the kernel (explicitly, with NumPy's cast rules), so integer results may
  be computed wider and wrap on store;
* ``math``, ``cmath``, Numba's scalar types (``int64``, ``float32``, ...)
  and the helpers of :mod:`npgpu.ufuncs.helpers` (found by name in the code);
* the same source runs on Numba's simulator (NumPy scalar rules) and is
  compiled by Numba for the GPU, so use only constructs valid in both; typed
  constants are written ``type(x0)(c)`` (see the helpers' module docstring).
"""

from .helpers import fast

# (p mantissa bits, min normal frexp exponent, max finite) per float type, for nextafter/spacing
_F16 = "11, -13, 65504.0"
_F32 = "24, -125, 3.4028234663852886e+38"
_F64 = "53, -1021, 1.7976931348623157e+308"

_INT_FLOORDIV = "type(x0)(0) if x1 == type(x1)(0) else (-x0 if x1 == type(x1)(-1) else x0 // x1)"
_UINT_FLOORDIV = "type(x0)(0) if x1 == type(x1)(0) else x0 // x1"
_INT_MOD = ("type(x0)(0) if x1 == type(x1)(0) or x1 == type(x1)(-1) else x0 % x1")
_UINT_MOD = "type(x0)(0) if x1 == type(x1)(0) else x0 % x1"

# name -> {loop key: code}
TABLE = {
    # ---- arithmetic ----
    "add": {"b": "x0 or x1", "": "x0 + x1"},
    "subtract": {"": "x0 - x1"},
    "multiply": {"b": "x0 and x1", "": "x0 * x1"},
    "divide": {"c": "h_cdiv(x0, x1)", "": "x0 / x1"},
    "floor_divide": {"i": _INT_FLOORDIV, "u": _UINT_FLOORDIV, "f": "h_divmod(x0, x1)[0]"},
    "remainder": {"i": _INT_MOD, "u": _UINT_MOD, "f": "h_divmod(x0, x1)[1]"},
    "divmod": {"i": f"return ({_INT_FLOORDIV}), ({_INT_MOD})",
               "u": f"return ({_UINT_FLOORDIV}), ({_UINT_MOD})",
               "f": "return h_divmod(x0, x1)"},
    # C remainder (sign of the dividend); x % 0 == 0 and INT_MIN % -1 == 0 like NumPy
    "fmod": {"i": ("if x1 == type(x1)(0) or x1 == type(x1)(-1):\n    return type(x0)(0)\n"
                   "m = x0 % x1\n"
                   "if m != type(x0)(0) and (m < type(x0)(0)) != (x0 < type(x0)(0)):\n"
                   "    m = m - x1\nreturn m"),
             "u": _UINT_MOD, "f": "h_fmod(x0, x1)"},
    "power": {"iu": "h_ipow(x0, x1)", "c": "h_cpow(x0, x1)", "": "h_fpow(x0, x1)"},
    # h_fpow: C99's (-inf) ** 1.5 = inf, where the GPU's pow gave -inf (as power's row)
    "float_power": {"c": "h_cpow(x0, x1)", "": "h_fpow(x0, x1)"},
    "negative": {"u": "type(x0)(0) - x0", "": "-x0"},
    "positive": {"": "x0"},
    "absolute": {"bu": "x0", "i": "x0 if x0 >= type(x0)(0) else -x0",
                 "c": "h_hypot(x0.real, x0.imag)", "": "abs(x0)"},
    "fabs": {"": "abs(x0)"},
    "sign": {"i": "type(x0)(1) if x0 > type(x0)(0) else (type(x0)(-1) if x0 < type(x0)(0) else type(x0)(0))",
             "u": "type(x0)(1) if x0 > type(x0)(0) else type(x0)(0)",
             "f": "h_sign(x0)", "c": "h_csign(x0)"},
    # integer reciprocal truncates 1/x; 1/0 is what NumPy gives on x86-64 (int32/int64: INT_MIN)
    "reciprocal": {"int32": "x0 if (x0 == type(x0)(1) or x0 == type(x0)(-1)) else "
                            "(type(x0)(-2147483648) if x0 == type(x0)(0) else type(x0)(0))",
                   "int64": "x0 if (x0 == type(x0)(1) or x0 == type(x0)(-1)) else "
                            "(type(x0)(-9223372036854775808) if x0 == type(x0)(0) else type(x0)(0))",
                   "i": "x0 if (x0 == type(x0)(1) or x0 == type(x0)(-1)) else type(x0)(0)",
                   "u": "x0 if x0 == type(x0)(1) else type(x0)(0)",
                   "c": "h_crecip(x0)", "": "type(x0)(1) / x0"},
    "square": {"": "x0 * x0"},
    "sqrt": {"f": "h_sqrt(x0)", "c": "h_csqrt(x0)"},
    "cbrt": {"f": "h_cbrt(x0)"},
    "conjugate": {"c": "x0.conjugate()", "": "x0"},
    # ---- exp / log ----
    "exp": {"f": "h_exp(x0)", "c": "h_cexp(x0)"},
    "exp2": {"f": "h_exp2(x0)",   # x * ln2 per part: a complex product makes inf * 0 = NaN
             "c": "h_cexp(type(x0)(complex(x0.real * type(x0.real)(0.6931471805599453), "
                  "x0.imag * type(x0.real)(0.6931471805599453))))"},
    "expm1": {"f": "h_expm1(x0)", "c": "h_cexpm1(x0)"},
    "log": {"f": "h_log(x0)", "c": "h_clog(x0)"},
    "log2": {"f": "h_log2(x0)", "c": "h_clogk(x0, 1.4426950408889634)"},
    "log10": {"f": "h_log10(x0)", "c": "h_clogk(x0, 0.4342944819032518)"},
    "log1p": {"f": "h_log1p(x0)", "c": "h_clog1p(x0)"},
    "logaddexp": {"f": "h_logaddexp(x0, x1)"},
    "logaddexp2": {"f": "h_logaddexp2(x0, x1)"},
    # ---- trigonometric / hyperbolic ----
    "sin": {**({"float32": "h_sin_f32(x0)"} if fast("sin") else {}),
            "f": "h_sin(x0)", "c": "h_csin(x0)"},
    "cos": {**({"float32": "h_cos_f32(x0)"} if fast("cos") else {}),
            "f": "h_cos(x0)", "c": "h_ccos(x0)"},
    "tan": {"f": "h_tan(x0)", "c": "h_ctan(x0)"},
    "arcsin": {"f": "h_arcsin(x0)", "c": "h_casin(x0)"},
    "arccos": {"f": "h_arccos(x0)", "c": "h_cacos(x0)"},
    "arctan": {"f": "type(x0)(math.atan(x0))", "c": "h_catan(x0)"},
    "sinh": {"f": "h_sinh(x0)", "c": "h_csinh(x0)"},
    "cosh": {"f": "h_cosh(x0)", "c": "h_ccosh(x0)"},
    "tanh": {"f": "type(x0)(math.tanh(x0))", "c": "h_ctanh(x0)"},
    "arcsinh": {"f": "type(x0)(math.asinh(x0))", "c": "h_casinh(x0)"},
    "arccosh": {"f": "h_arccosh(x0)", "c": "h_cacosh(x0)"},
    "arctanh": {"f": "h_arctanh(x0)", "c": "h_catanh(x0)"},
    "arctan2": {"f": "type(x0)(math.atan2(x0, x1))"},
    "hypot": {"f": "type(x0)(h_hypot(x0, x1))"},
    "deg2rad": {"f": "x0 * (type(x0)(math.pi) / type(x0)(180.0))"},
    "radians": {"f": "x0 * (type(x0)(math.pi) / type(x0)(180.0))"},
    "rad2deg": {"f": "x0 * (type(x0)(180.0) / type(x0)(math.pi))"},
    "degrees": {"f": "x0 * (type(x0)(180.0) / type(x0)(math.pi))"},
    # ---- rounding ----
    "floor": {"biu": "x0", "f": "h_floor(x0)"},
    "ceil": {"biu": "x0", "f": "h_ceil(x0)"},
    "trunc": {"biu": "x0", "f": "h_trunc(x0)"},
    "rint": {"f": "h_rint(x0)", "c": "h_crint(x0)"},
    # ---- comparison ----
    "equal": {"int64,uint64": "h_cmp_iu(x0, x1) == 0", "uint64,int64": "h_cmp_iu(x1, x0) == 0",
              "": "x0 == x1"},
    "not_equal": {"int64,uint64": "h_cmp_iu(x0, x1) != 0", "uint64,int64": "h_cmp_iu(x1, x0) != 0",
                  "": "x0 != x1"},
    "less": {"int64,uint64": "h_cmp_iu(x0, x1) < 0", "uint64,int64": "h_cmp_iu(x1, x0) > 0",
             "c": "h_clt(x0, x1)", "": "x0 < x1"},
    "less_equal": {"int64,uint64": "h_cmp_iu(x0, x1) <= 0", "uint64,int64": "h_cmp_iu(x1, x0) >= 0",
                   "c": "h_cle(x0, x1)", "": "x0 <= x1"},
    "greater": {"int64,uint64": "h_cmp_iu(x0, x1) > 0", "uint64,int64": "h_cmp_iu(x1, x0) < 0",
                "c": "h_clt(x1, x0)", "": "x0 > x1"},
    "greater_equal": {"int64,uint64": "h_cmp_iu(x0, x1) >= 0",
                      "uint64,int64": "h_cmp_iu(x1, x0) <= 0",
                      "c": "h_cle(x1, x0)", "": "x0 >= x1"},
    "logical_and": {"": "(x0 != type(x0)(0)) and (x1 != type(x1)(0))"},
    "logical_or": {"": "(x0 != type(x0)(0)) or (x1 != type(x1)(0))"},
    "logical_xor": {"": "(x0 != type(x0)(0)) != (x1 != type(x1)(0))"},
    "logical_not": {"": "x0 == type(x0)(0)"},
    # maximum/minimum propagate NaN, fmax/fmin ignore it; equal values give x1 (as NumPy's loops),
    # but x0 in float16 (NumPy's half loops test >=, <=: maximum(0.0, -0.0) is 0.0 there)
    "maximum": {"float16": "x0 if (x0 >= x1 or math.isnan(x0)) else x1",
                "biu": "x0 if x0 > x1 else x1",
                "f": "x0 if (x0 > x1 or math.isnan(x0)) else x1",
                "c": "x0 if (h_cisnan(x0) or h_cle(x1, x0)) else x1"},
    "minimum": {"float16": "x0 if (x0 <= x1 or math.isnan(x0)) else x1",
                "biu": "x0 if x0 < x1 else x1",
                "f": "x0 if (x0 < x1 or math.isnan(x0)) else x1",
                "c": "x0 if (h_cisnan(x0) or h_cle(x0, x1)) else x1"},
    "fmax": {"float16": "x0 if (x0 >= x1 or math.isnan(x1)) else x1",
             "biu": "x0 if x0 > x1 else x1",
             "f": "x0 if (x0 > x1 or math.isnan(x1)) else x1",
             "c": "x0 if (h_cisnan(x1) or h_cle(x1, x0)) else x1"},
    "fmin": {"float16": "x0 if (x0 <= x1 or math.isnan(x1)) else x1",
             "biu": "x0 if x0 < x1 else x1",
             "f": "x0 if (x0 < x1 or math.isnan(x1)) else x1",
             "c": "x0 if (h_cisnan(x1) or h_cle(x0, x1)) else x1"},
    # ---- bitwise ----
    "bitwise_and": {"": "x0 & x1"},
    "bitwise_or": {"": "x0 | x1"},
    "bitwise_xor": {"": "x0 ^ x1"},
    "invert": {"b": "not x0", "": "~x0"},
    # shifts past the bit width give 0 (left) or the sign fill (right); wider-than-dtype results
    # truncate on store, so only shifts >= 64 (or negative) need the explicit branch
    "left_shift": {"i": "type(x0)(0) if (x1 < type(x1)(0) or x1 >= type(x1)(64)) else x0 << x1",
                   "u": "type(x0)(0) if x1 >= type(x1)(64) else x0 << x1"},
    "right_shift": {"i": ("(type(x0)(-1) if x0 < type(x0)(0) else type(x0)(0)) "
                          "if (x1 < type(x1)(0) or x1 >= type(x1)(64)) else x0 >> x1"),
                    "u": "type(x0)(0) if x1 >= type(x1)(64) else x0 >> x1"},
    "bitwise_count": {"i": "h_popcount(h_uabs(x0))", "u": "h_popcount(uint64(x0))"},
    "gcd": {"i": "int64(h_gcdu(h_uabs(x0), h_uabs(x1)))", "u": "h_gcdu(uint64(x0), uint64(x1))"},
    "lcm": {"i": "int64(h_lcmu(h_uabs(x0), h_uabs(x1)))", "u": "h_lcmu(uint64(x0), uint64(x1))"},
    # ---- floating point ----
    "isnan": {"biu": "False", "f": "math.isnan(x0)", "c": "cmath.isnan(x0)"},
    "isinf": {"biu": "False", "f": "math.isinf(x0)", "c": "cmath.isinf(x0)"},
    "isfinite": {"biu": "True", "f": "math.isfinite(x0)", "c": "cmath.isfinite(x0)"},
    "signbit": {"f": "math.copysign(type(x0)(1), x0) < type(x0)(0)"},
    "copysign": {"f": "type(x0)(math.copysign(x0, x1))"},
    "nextafter": {"float16": f"h_nextafter(x0, x1, True, {_F16})",
                  "float32": f"h_nextafter(x0, x1, False, {_F32})",
                  "float64": f"h_nextafter(x0, x1, False, {_F64})"},
    "spacing": {"float16": f"h_spacing(x0, True, {_F16})", "float32": f"h_spacing(x0, False, {_F32})",
                "float64": f"h_spacing(x0, False, {_F64})"},
    "ldexp": {"f": "h_ldexp(x0, x1)"},
    "frexp": {"f": "return h_frexp(x0)"},
    "modf": {"f": "return h_modf(x0)"},
    "heaviside": {"f": "h_heaviside(x0, x1)"},
}

# Loops that replace a row's where its second operand is one value for the whole inner loop
# (NumPy's loop sees a zero stride: a scalar, a 0-d array, one element broadcast, every
# one-element call of ufunc.at): NumPy's float32/float64 power then computes x ** -1 as 1 / x,
# x ** 0 as 1, x ** 0.5 as sqrt (-0.0 ** 0.5 is -0.0 and -inf ** 0.5 NaN, not pow's +0.0 and
# inf), x ** 1 as x and x ** 2 as x * x.  Its float16 and complex loops have no such paths.
ONE_OPERAND = {
    "power": {"float32": "h_pow_one(x0, x1)", "float64": "h_pow_one(x0, x1)"},
}

# aliases NumPy exports under other names (the ufunc keeps NumPy's own name)
ALIASES = {
    "true_divide": "divide",
    "mod": "remainder",
    "abs": "absolute",
    "conj": "conjugate",
    "pow": "power",
    "bitwise_not": "invert",
    "bitwise_invert": "invert",
    "bitwise_left_shift": "left_shift",
    "bitwise_right_shift": "right_shift",
    "acos": "arccos", "asin": "arcsin", "atan": "arctan", "atan2": "arctan2",
    "acosh": "arccosh", "asinh": "arcsinh", "atanh": "arctanh",
}
