"""Modified Bessel functions of the first kind, orders 0 and 1 (i0, i0e, i1, i1e): helpers for
the rows of :mod:`.table` (libdevice has no cyl_bessel_i0/i1 in numba-cuda).

exp(-|x|) I0(x) and exp(-|x|) I1(x) / x on [0, 8] as Chebyshev series in t = x/4 - 1, and
sqrt(x) exp(-x) I0(x), sqrt(x) exp(-x) I1(x) on [8, inf) as series in u = 16/x - 1 (the factor
is smooth there and tends to 1/sqrt(2 pi)).  The coefficients are the functions' Chebyshev
coefficients (64-point interpolation in mpmath at 40 digits), cut where they fall below 5e-18
(30 and 26 terms): series error below 4e-16 (1.3e-16 above x = 8); the sums lose up to 1.6e-15
near x = 8, where the terms cancel to e^-8 I1(8)/8; i0(0) = i0e(0) = 1 exactly.  The float64
loops compute in float64.

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
    0.33839763720473803, -0.3046826723431984, 0.17162090152220877, -0.09490109704804764,
    0.04930528423967071, -0.02373741480589947, 0.010546460394594998, -0.004324309995050576,
    0.0016394756169413357, -0.0005763755745385824, 0.00018850288509584165, -5.754195010082104e-05,
    1.6448448070728896e-05, -4.4167383584587505e-06, 1.1173875391201037e-06, -2.670793853940612e-07,
    6.046995022541919e-08, -1.300025009986248e-08, 2.6598237246823866e-09, -5.189795601635263e-10,
    9.675809035373237e-11, -1.726826291441556e-11, 2.95505266312964e-12, -4.856446783111929e-13,
    7.676185498604936e-14, -1.1685332877993451e-14, 1.715391285555133e-15, -2.431279846547955e-16,
    3.3307945188222384e-17, -4.4153416464793395e-18,
)
I0_LARGE = (
    0.4022452055070544, 0.0033691164782556943, 6.889758346916825e-05, 2.8913705208347567e-06,
    2.0489185894690638e-07, 2.266668990498178e-08, 3.3962320257083865e-09, 4.94060238822497e-10,
    1.1889147107846439e-11, -3.1499165279632416e-11, -1.3215811840447713e-11,
    -1.7941785315068062e-12, 7.180124451383666e-13, 3.8527783827421426e-13, 1.54008621752141e-14,
    -4.150569347287222e-14, -9.554846698828307e-15, 3.8116806693526224e-15, 1.7725601330565263e-15,
    -3.425485619677219e-16, -2.8276239805165836e-16, 3.461222867697461e-17, 4.46562142029676e-17,
    -4.830504485944182e-18, -7.233180487874754e-18, 9.921475412173699e-19,
)
I1_SMALL = (
    0.12629359322181682, -0.17641651835783406, 0.1026436586898471, -0.05294598120809499,
    0.024726449030626516, -0.010564084894626197, 0.004156422944312888, -0.0015135724506312532,
    0.0005122859561685758, -0.00016176081582589674, 4.781565107550054e-05, -1.3273163656039436e-05,
    3.4702513081376785e-06, -8.568720264695455e-07, 2.0032947535521353e-07, -4.445059128796328e-08,
    9.381537386495773e-09, -1.8872497517228294e-09, 3.625590281552117e-10, -6.663489723502027e-11,
    1.1736186298890901e-11, -1.9839743977649436e-12, 3.223793365945575e-13, -5.042185504727912e-14,
    7.600684294735408e-15, -1.1055969477353862e-15, 1.5536319577362005e-16, -2.111421214358166e-17,
    2.7779141127610464e-18, -3.541581772542136e-19,
)
I1_LARGE = (
    0.38928811750914005, -0.009761097491361469, -0.00011058893876262371, -3.882564808877691e-06,
    -2.512236237870209e-07, -2.6314688468895196e-08, -3.835380385964237e-09, -5.589743462196584e-10,
    -1.8974958123505413e-11, 3.2526035830154884e-11, 1.4125807436613782e-11, 2.0356285441470896e-12,
    -7.198551776245908e-13, -4.0835511110921974e-13, -2.1015418427726643e-14, 4.272440016711951e-14,
    1.0420276984128802e-14, -3.8144030724370075e-15, -1.8803547755107825e-15,
    3.3082023109209285e-16, 2.96262899764595e-16, -3.209525921993424e-17, -4.6503053684893586e-17,
    4.414348323071708e-18, 7.517296310842105e-18, -9.314178867326884e-19,
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
