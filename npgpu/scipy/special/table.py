"""The table of npgpu.scipy.special's ufuncs: one row per function, as npgpu.ufuncs.table.

Row: ``name: {loop key: code}``.  Which loop a call runs is SciPy's choice (its ufunc's
``resolve_dtypes``, :mod:`.ufuncs`): ``erf(int8)`` is float64, ``boxcox(True, 2)`` float64.
Keys and code follow :mod:`npgpu.ufuncs.table`: ``"f"`` (float32 and float64), ``"c"`` (SciPy's
complex loops, complex64 computed in complex128 as SciPy does: xlogy, xlog1py, and erf, erfc,
erfcx, ndtr, log_ndtr, erfi, dawsn, wofz from the Faddeeva function, :mod:`.faddeeva`; gamma,
loggamma, rgamma, digamma, :mod:`.complex_gamma`; zeta, :mod:`.complex_zeta`) or a dtype
name; a loop SciPy has and the row lacks raises TypeError.  ``$f`` in code becomes ``f`` in the
float32 loop and nothing in the float64 loop: the libdevice function of the
loop's precision (``libdevice.erf$f``).
On the simulator ``libdevice``'s special functions are scipy.special stand-ins
(npgpu/_codegen/simulator_fixes.py).
"""

from ...ufuncs import helpers as _helpers
from . import c99, lgamma  # noqa: F401 - registers h_cmul_c99, h_lgamma_f32, h_lgamma_f64
from .bessel_i import ROWS
from .complex_gamma import CODE as _CGAMMA
from .complex_zeta import CODE as _CZETA
from .faddeeva import CODE as _FADDEEVA, REAL as _FADDEEVA_REAL
from .gamma_family import BINARY as _GAMMA_BINARY, ROWS as _GAMMA_ROWS

_SQRT1_2 = "0.7071067811865476"


def _lib(code):
    """Loops for float32 and float64 from one code with ``$f``."""
    return {"float32": code.replace("$f", "f"), "float64": code.replace("$f", "")}


# log(ndtr(x)): below 0 through erfcx (ndtr(x) = erfcx(-x/sqrt2)/2 * exp(-x^2/2), no underflow),
# above it log1p of the upper tail (no cancellation near 1)
_LOG_NDTR = f"""t = x0 * type(x0)({_SQRT1_2})
if x0 < type(x0)(0):
    return h_log(type(x0)(0.5) * libdevice.erfcx$f(-t)) - t * t
return h_log1p(type(x0)(-0.5) * libdevice.erfc$f(t))"""

# SciPy's logit: log(x/(1-x)) away from 1/2, log1p(2(x-1/2)/(1-x)) near it
_LOGIT = """if x0 < type(x0)(0) or x0 > type(x0)(1):
    return type(x0)(math.nan)
if x0 == type(x0)(1):
    return type(x0)(math.inf)
if x0 == type(x0)(0):
    return type(x0)(-math.inf)
if x0 < type(x0)(0.3) or x0 > type(x0)(0.65):
    return type(x0)(math.log(x0 / (type(x0)(1) - x0)))
return type(x0)(math.log1p(type(x0)(2) * (x0 - type(x0)(0.5)) / (type(x0)(1) - x0)))"""

# exp of a non-positive argument only (no overflow), and no branch: both signs take one exp
# and one division, numerator 1 or e (a branch on the sign ran both sides in every warp of
# mixed-sign data: H200, 2^28 float32, 689 us against PyTorch's 521)
_EXPIT = """e = type(x0)(math.exp(-abs(x0)))
return (type(x0)(1) if x0 >= type(x0)(0) else e) / (type(x0)(1) + e)"""

# log(expit(x)) = min(x, 0) - log1p(exp(-|x|)), one exp and one log1p for either sign
_LOG_EXPIT = """t = type(x0)(math.log1p(math.exp(-abs(x0))))
return x0 - t if x0 < type(x0)(0) else -t"""

_ENTR = """if math.isnan(x0):
    return x0
if x0 > type(x0)(0):
    return -x0 * h_log(x0)
if x0 == type(x0)(0):
    return type(x0)(0)
return type(x0)(-math.inf)"""

# rel_entr and kl_div: x log(x/y) (+ y - x) for x, y > 0; the x = 0 value; inf elsewhere
_ENTROPY = """if math.isnan(x0) or math.isnan(x1):
    return type(x0)(math.nan)
if x0 > type(x0)(0) and x1 > type(x0)(0):
    return x0 * h_log(x0 / x1){tail}
if x0 == type(x0)(0) and x1 >= type(x0)(0):
    return {zero}
return type(x0)(math.inf)"""
# SciPy's rel_entr: log1p of the relative difference for x/y near 1, the log of x/y where it is a
# normal number, else the difference of the logs (x/y overflows or underflows)
_REL_ENTR = _ENTROPY.format(tail="", zero="type(x0)(0)").replace(
    "return x0 * h_log(x0 / x1)", """r = x0 / x1
    if r > type(x0)(0.5) and r < type(x0)(2):
        return x0 * h_log1p((x0 - x1) / x1)
    if r > type(x0)(2.2250738585072014e-308) and r < type(x0)(math.inf):
        return x0 * h_log(r)
    return x0 * (h_log(x0) - h_log(x1))""")
_KL_DIV = _ENTROPY.format(tail=" - x0 + x1", zero="x1")


def _f32_in_f64(name, code):
    """Loops of the binary float64 code ``code`` for float32 as SciPy's 'ff->f' loops run: in
    float64, rounded (kl_div's x log(x/y) - x + y cancels in float32; boxcox's expm1, huber's
    r^2 and x/y overflow there where the float32 result is finite)."""
    body = "\n".join("    " + line for line in code.splitlines())
    _helpers.register(f"def h_sp_{name}(x0, x1):\n{body}\n")
    return {"float64": code, "float32": f"type(x0)(h_sp_{name}(float64(x0), float64(x1)))"}


# log|gamma(x)| -> -inf as x -> -inf (SciPy 1.18; 1.17 and C's lgamma give +inf).  Both loops
# take npgpu's own straight-line lgamma (lgamma.py, which keeps the -inf case; fast("gammaln");
# NPGPU_FAST_MATH_HELPERS without it: libdevice's, below)
_GAMMALN = """if x0 == type(x0)(-math.inf):
    return x0
return libdevice.lgamma$f(x0)"""

_HUBER = """if x0 < type(x0)(0):
    return type(x0)(math.inf)
a = abs(x1)
if a <= x0:
    return type(x0)(0.5) * x1 * x1
return x0 * (a - type(x0)(0.5) * x0)"""

# SciPy's: past expm1's overflow, exp(t - log|lmbda|) keeps a finite x^lmbda / lmbda finite
_BOXCOX = """if abs(x1) < type(x1)(1e-19):
    return h_log(x0)
t = x1 * h_log(x0)
if t < type(x1)(709.78):
    return h_expm1(t) / x1
return math.copysign(type(x1)(1), x1) * h_exp(t - h_log(abs(x1))) - type(x1)(1) / x1"""

# SciPy's: where lmbda * x overflows, log1p of it is log|lmbda| + log|x|
_INV_BOXCOX = """if x1 == type(x1)(0):
    return h_exp(x0)
t = x1 * x0
if t == type(x1)(math.inf):
    return h_exp((h_log(abs(x1)) + h_log(abs(x0))) / x1)
return h_exp(h_log1p(t) / x1)"""

# SciPy's complex xlogy/xlog1py (DD->D; FF->F computes in complex128 and rounds): 0 for x = 0
# unless y has a NaN part, else x * log(y) (log1p(y))
_XLOG = ("type(x0)(0) if (x0 == type(x0)(0) and not (math.isnan(x1.real) or math.isnan(x1.imag)))"
         " else type(x0)(h_cmul_c99(complex128(x0), {log}(complex128(x1))))")

# name -> {loop key: code}
TABLE = {
    # ---- error function and the normal distribution ----
    "erf": {**_lib("libdevice.erf$f(x0)"), "c": _FADDEEVA["erf"]},
    "erfc": {**_lib("libdevice.erfc$f(x0)"), "c": _FADDEEVA["erfc"]},
    "erfcx": {**_lib("libdevice.erfcx$f(x0)"), "c": _FADDEEVA["erfcx"]},
    "erfinv": _lib("libdevice.erfinv$f(x0)"),
    "erfcinv": _lib("libdevice.erfcinv$f(x0)"),
    "ndtr": {**_lib("libdevice.normcdf$f(x0)"), "c": _FADDEEVA["ndtr"]},
    "ndtri": _lib("libdevice.normcdfinv$f(x0)"),
    "log_ndtr": {**_lib(_LOG_NDTR), "c": _FADDEEVA["log_ndtr"]},
    "erfi": {"f": _FADDEEVA_REAL["erfi"], "c": _FADDEEVA["erfi"]},
    "dawsn": {"f": _FADDEEVA_REAL["dawsn"], "c": _FADDEEVA["dawsn"]},
    "wofz": {"c": _FADDEEVA["wofz"]},
    # ---- gamma ----
    "gamma": {**_lib("libdevice.tgamma$f(x0)"), "c": _CGAMMA["gamma"]},
    "rgamma": {"f": "type(x0)(h_rgamma(float64(x0)))", "c": _CGAMMA["rgamma"]},
    "gammaln": ({"float32": "h_lgamma_f32(x0)", "float64": "h_lgamma_f64(x0)"}
                if _helpers.fast("gammaln") else _lib(_GAMMALN)),
    # ---- Bessel functions of integer order ----
    "j0": _lib("libdevice.j0$f(x0)"),
    "j1": _lib("libdevice.j1$f(x0)"),
    "y0": _lib("libdevice.y0$f(x0)"),
    "y1": _lib("libdevice.y1$f(x0)"),
    # ---- logistic ----
    "expit": {**({"float32": "h_expit_f32(x0)"} if _helpers.fast("expit") else {}),
              "f": _EXPIT},
    "logit": {"f": _LOGIT},
    "log_expit": {"f": _LOG_EXPIT},
    # ---- information theory and convex functions ----
    "xlogy": {"f": "type(x0)(0) if (x0 == type(x0)(0) and not math.isnan(x1)) "
                   "else x0 * h_log(x1)",
              "c": _XLOG.format(log="h_clog")},
    "xlog1py": {"f": "type(x0)(0) if (x0 == type(x0)(0) and not math.isnan(x1)) "
                     "else x0 * h_log1p(x1)",
                "c": _XLOG.format(log="h_sp_clog1p")},
    "entr": {"f": _ENTR},
    "rel_entr": _f32_in_f64("rel_entr", _REL_ENTR),
    "kl_div": _f32_in_f64("kl_div", _KL_DIV),
    "huber": _f32_in_f64("huber", _HUBER),
    "boxcox": _f32_in_f64("boxcox", _BOXCOX),
    "inv_boxcox": _f32_in_f64("inv_boxcox", _INV_BOXCOX),
}

TABLE.update(ROWS)
TABLE.update(_GAMMA_ROWS)
for _name in ("loggamma", "digamma"):
    TABLE[_name] = {**TABLE[_name], "c": _CGAMMA[_name]}
for _name in ("_riemann_zeta", "_zeta"):
    TABLE[_name] = {**TABLE[_name], "c": _CZETA[_name]}

# compute-bound loops, by row: rendered in the elementwise template's heavy contiguous form (8
# elements a thread, <= 64 registers: npgpu/_codegen/elementwise.py HEAVY_EPT).  libdevice's
# float64 erf is ~37 DFMAs over 34 float64 constants an element, each constant two UMOVs per
# use unless the thread's elements share it; fast("erf") (NPGPU_FAST_MATH_HELPERS) decides.
HEAVY = {name: {"float64"} for name in ("erf", "erfc", "gammaln") if _helpers.fast(name)}
# float64 loops whose kernels read their float64 constants from a constant table (npgpu/_codegen/
# ptx_constants.py: ptxas otherwise rebuilds each per use with two UMOVs).  H200 2026-12-04,
# NPGPU_PTX_F64_TABLE=1 against 0, two rounds: gammaln 1.207 / 1.23 ms against 1.317 / 1.317
# (39.5 -> 43.4% of copy); erf 786 / 778 us against 530 / 537 (slower: its registers spill), so
# erf keeps its immediates.
F64_TABLE = {name: {"float64"} for name in ("gammaln",) if _helpers.fast(name)}

# the number of inputs of the binary rows (the rest take one)
BINARY = ({"xlogy", "xlog1py", "rel_entr", "kl_div", "huber", "boxcox", "inv_boxcox"}
          | _GAMMA_BINARY)
