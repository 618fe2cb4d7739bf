"""Modified Bessel functions of the first kind, orders 0 and 1 (i0, i0e, i1, i1e): helpers for
the rows of :mod:`.table` (libdevice has no cyl_bessel_i0/i1 in numba-cuda).

exp(-|x|) I0(x) and exp(-|x|) I1(x) / x on [0, 8] as Chebyshev series in t = x/4 - 1, and
sqrt(x) exp(-x) I0(x), sqrt(x) exp(-x) I1(x) on [8, inf) as series in u = 16/x - 1 (the factor
is smooth there and tends to 1/sqrt(2 pi)).  The coefficients were interpolated at 27 and 21
Chebyshev points from SciPy's i0e/i1e (numpy.polynomial.chebyshev.chebinterpolate); relative
error below 2e-14 against SciPy over [0, 1e8].  The float64 loops compute in float64.

The float32 loops compute in float32 (the GPU runs float64 at half the rate): I0(x) and I1(x)/x
on |x| <= 8 as polynomials in x^2 (all coefficients positive: Horner loses nothing), and
sqrt(x) exp(-x) I0(x), sqrt(x) exp(-x) I1(x) on |x| > 8 as polynomials in 1/x.  Relative
near-minimax fits (weighted least squares with Lawson reweighting, in float64 against SciPy)
of degree 9 and 5; fit error below 1.1e-8 (0.2 float32 ulp).  Both polynomials are evaluated
and one picked per element (a select, not a branch: data mixing both sides in a warp would run
both; picking each coefficient instead took a select a step on the integer pipe), and
1/sqrt(max(|x|, 8)) is ``rsqrt.approx`` and one Newton step (the IEEE square root and division
took ~20 instructions and two slow-path tests): SASS 536 -> 304 instructions a thread.
"""
from ...ufuncs import helpers as _helpers

I0_SMALL = (
    0.338397637204738, -0.3046826723431984, 0.1716209015222087, -0.09490109704804758,
    0.049305284239670594, -0.023737414805899394, 0.010546460394594859, -0.004324309995050436,
    0.0016394756169410083, -0.0005763755745382599, 0.00018850288509531172,
    -5.754195010038669e-05, 1.6448448070051408e-05, -4.416738357916873e-06,
    1.1173875383368798e-06, -2.6707938466066476e-07, 6.046994912928055e-08,
    -1.3000249279602769e-08, 2.6598226514332344e-09, -5.189788023198229e-10,
    9.675717634512655e-11, -1.7267607097279678e-11, 2.954229453659233e-12,
    -4.850687752701156e-13, 7.610167640092624e-14, -1.1133069774713375e-14,
    9.894348714830677e-16,
)
I0_LARGE = (
    0.40224520550705445, 0.0033691164782557064, 6.889758346917898e-05, 2.891370520855794e-06,
    2.048918589191854e-07, 2.2666689890068038e-08, 3.396231882639321e-09, 4.940602438981289e-10,
    1.1889017186442996e-11, -3.1499136175659984e-11, -1.3215924171081827e-11,
    -1.794163209347878e-12, 7.179016253565791e-13, 3.8526310451499386e-13,
    1.5349003233289648e-14, -4.151499450738644e-14, -9.567158264376188e-15,
    3.815066508112358e-15, 1.5346912824968791e-15, -3.522844772620183e-16,
    -9.900305332665426e-16,
)
I1_SMALL = (
    0.1262935932218168, -0.176416518357834, 0.10264365868984705, -0.05294598120809493,
    0.024726449030626454, -0.010564084894626133, 0.004156422944312806, -0.0015135724506311458,
    0.0005122859561684287, -0.00016176081582570319, 4.7815651075264484e-05,
    -1.3273163655775392e-05, 3.4702513078298866e-06, -8.568720261505737e-07,
    2.0032947497389264e-07, -4.4450590879393147e-08, 9.381536900984241e-09,
    -1.8872492991919432e-09, 3.625585494833954e-10, -6.663447137816858e-11,
    1.1735773232842325e-11, -1.983614789914091e-12, 3.2203046813534726e-13,
    -5.0110507307418625e-14, 7.312116447312756e-15, -8.225801727011504e-16,
    -1.6987440261046955e-16,
)
I1_LARGE = (
    0.38928811750914005, -0.009761097491361495, -0.00011058893876259895, -3.882564808874962e-06,
    -2.5122362382060293e-07, -2.6314688462614963e-08, -3.835380530312561e-09,
    -5.589743371389015e-10, -1.8975063930243212e-11, 3.252605365665065e-11,
    1.4125662331698961e-11, 2.0356457959584554e-12, -7.199638857632612e-13,
    -4.083560414487511e-13, -2.1037397700954616e-14, 4.27176053566761e-14,
    1.0402442030027843e-14, -3.807321219615309e-15, -2.1144961422123046e-15,
    3.569282277540514e-16, -2.435831174299094e-16,
)


def _clenshaw(name, coef):
    """A helper summing sum(coef[k] T_k(t)) by Clenshaw's recurrence, unrolled (constants
    inline: device functions cannot index module-level tuples on both backends alike)."""
    body = ["    t2 = 2.0 * t", "    b1 = 0.0", "    b2 = 0.0"]
    for c in coef[:0:-1]:
        body += [f"    b0 = t2 * b1 - b2 + {c!r}", "    b2 = b1", "    b1 = b0"]
    body.append(f"    return t * b1 - b2 + {coef[0]!r}")
    return f"def {name}(t):\n" + "\n".join(body) + "\n"


for _name, _coef in (("h_i0_small", I0_SMALL), ("h_i0_large", I0_LARGE),
                     ("h_i1_small", I1_SMALL), ("h_i1_large", I1_LARGE)):
    _helpers.register(_clenshaw(_name, _coef))

# x is float64 in all four; NaN falls through to the large branch and stays NaN
_helpers.register("""
def h_i0e(x):
    a = abs(x)
    if a <= 8.0:
        return h_i0_small(0.25 * a - 1.0)
    return h_i0_large(16.0 / a - 1.0) / math.sqrt(a)
""")

_helpers.register("""
def h_i1e(x):
    a = abs(x)
    if a <= 8.0:
        r = a * h_i1_small(0.25 * a - 1.0)
    else:
        r = h_i1_large(16.0 / a - 1.0) / math.sqrt(a)
    if x < 0.0:
        return -r
    return r
""")

# I(x) = Ie(x) exp(|x|), the exponential in two halves so that it overflows only where I does;
# at +-inf this is 0 * inf = NaN, as SciPy's
for _n in ("i0", "i1"):
    _helpers.register(f"""
def h_{_n}(x):
    h = h_exp(0.5 * abs(x))
    return h_{_n}e(x) * h * h
""")

# float32: degree 9 in x^2 below |x| = 8, degree 5 in 1/x above (the near-minimax fits of the
# module docstring, rounded to float32)
I0_SMALL_F32 = (1.0, 0.2500000596046448, 0.01562494970858097, 0.0004340438172221184,
                6.779313935112441e-06, 6.800496521464083e-08, 4.6235223982726836e-10,
                2.6341841034838165e-12, 5.815665958926403e-15, 5.716064863436207e-17)
I1_SMALL_F32 = (0.5, 0.0625000074505806, 0.002604162786155939, 5.425457493402064e-05,
                6.780215926482924e-07, 5.662105895254399e-09, 3.3182838421463856e-11,
                1.617821409607631e-13, 3.5045665261335536e-16, 2.7504392296459836e-18)
I0_LARGE_F32 = (0.3989422917366028, 0.049869585782289505, 0.027898823842406273,
                0.0337846502661705, -0.013846635818481445, 0.3879546523094177)
I1_LARGE_F32 = (0.3989422917366028, -0.14960545301437378, -0.04657580330967903,
                -0.04615556076169014, 0.009692160412669182, -0.4523574709892273)


def _horner_pick_f32(small, large):
    """Lines of the float32 polynomial in ``v``: ``small`` where ``lo`` else ``large``, both
    evaluated (FMAs; NVVM does not contract here) and one picked: the coefficients picked per
    step took a select each, on the integer pipe (9 a element against 5 more FMAs)."""
    lines = [f"    ps = float32({small[-1]!r})"]
    lines += [f"    ps = cuda.fma(ps, v, float32({c!r}))" for c in small[-2::-1]]
    lines += [f"    pl = float32({large[-1]!r})"]
    lines += [f"    pl = cuda.fma(pl, v, float32({c!r}))" for c in large[-2::-1]]
    return "\n".join(lines + ["    p = ps if lo else pl"])


# a = |x|; lo: a <= 8 (NaN goes high and stays NaN, as does r); the high side's 1/sqrt(a)
# of max(a, 8), so that no element divides by 0; r = 0 at a = inf (the Newton step would make
# 0 * inf).  At a = inf r = 0: i0e = i1e = 0, and i0, i1
# are 0 * inf = NaN as in the float64 loops.
_F32_HEAD = """    a = abs(x)
    lo = a <= float32(8.0)
    m = float32(8.0) if lo else a
    r = ptx.rsqrt_approx(m)
    r = r * cuda.fma(float32(-0.5) * m, r * r, float32(1.5))
    r = float32(0.0) if a == float32(math.inf) else r
    v = a * a if lo else r * r
"""
_F32_TAIL = {
    "i0e": "    return p * (float32(math.exp(-a)) if lo else r)",
    "i1e": """    q = p * (a * float32(math.exp(-a)) if lo else r)
    return -q if x < float32(0.0) else q""",
    "i0": """    h = h_exp(a * float32(0.5))
    return p if lo else p * r * h * h""",
    "i1": """    h = h_exp(a * float32(0.5))
    q = a * p if lo else p * r * h * h
    return -q if x < float32(0.0) else q""",
}
for _n, _tail in _F32_TAIL.items():
    _coef = (I0_SMALL_F32, I0_LARGE_F32) if _n.startswith("i0") else (I1_SMALL_F32, I1_LARGE_F32)
    _helpers.register(f"def h_{_n}_f32(x):\n{_F32_HEAD}{_horner_pick_f32(*_coef)}\n{_tail}\n")

ROWS = {name: {"float32": f"h_{name}_f32(x0)", "float64": f"type(x0)(h_{name}(float64(x0)))"}
        for name in ("i0", "i0e", "i1", "i1e")}
