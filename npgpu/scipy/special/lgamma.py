"""lgamma without libdevice's ``lgammaf``/``lgamma``: gammaln's loops (fast("gammaln")).

libdevice's lgamma reflects, reduces and evaluates several branches an element (float32
~250 instructions), so gammaln ran at ~52% (float32) and ~32% (float64) of copy bandwidth on
the H200 (issue 25).  Here every x > 0 takes the same straight-line steps (no divergence on
mixed data), one template for both precisions:

* x >= T: Stirling's series, (x - 1/2)(log x - 1) + (log(2 pi) - 1)/2 + sum_n c_n / x^(2n-1),
  c_n = B_2n / (2n (2n - 1)) (DLMF 5.11.1), to the term below an ulp at T;
* y in [L, 2.5]: (y - 1)(y - 2) g(y - 2), g a polynomial fitted there (both zeros of lgamma
  factored out: relative accuracy near x = 1 and 2); x in (2.5, T) is shifted down into it by
  exact subtractions of 1 and the log of their product added;
* x in [L - 1, L): lgamma(x + 1) - log x, with b = x - 1 (exact) and a = x: x + 1 itself is
  never formed (its rounding would cost digits just below 1);
* x < L - 1 (float64): lgamma(x + 2) - log(x (x + 1)), with b = x.
One ``log`` serves every branch.  x <= 0 and NaN take libdevice's lgamma (-inf gives -inf, as
SciPy 1.18).  float32: L = 1, g of degree 10, T = 3.5 (4 terms, one shift); float64: L = 1.5
(a shorter interval: degree 17, not 23), T = 8 (9 terms, up to six shifts).  Fits and the
float32 emulation: ``scripts/fit_lgamma.py``
(float32 within 3 ulp of SciPy's float64 gammaln over (0, 1e30); float64 within 2 ulp of
mpmath on the simulator except on (1, 1.5), where lgamma(x + 1) - log x cancels near lgamma's
minimum: up to 5 ulp there, and the GPU's log's own ulp counts ~3 times; elsewhere the GPU's
log adds at most 1 ulp; tests/test_scipy_special_f32.py).
"""
from ...ufuncs import helpers as _helpers

# g's coefficients in b = y - 2 on y in [L, 2.5], lowest degree first (scripts/fit_lgamma.py)
G32 = (0.42278432846069336, -0.10031724721193314, 0.03296467661857605, -0.012386545538902283,
       0.005003975238651037, -0.002079625613987446, 0.0008956539095379412,
       -0.0005431099561974406, 0.00014713956625200808, 0.00014341298083309084,
       0.00023676120326854289)
G64 = (0.42278433509846713, -0.10031730167435392, 0.03296500062115359, -0.012384192193370187,
       0.004998641164935539, -0.0021081308340708213, 0.0009153769125034467,
       -0.00040570739282122026, 0.0001825528384749248, -8.309522194522792e-05,
       3.816660521241466e-05, -1.7660582561314307e-05, 8.237480092806218e-06,
       -3.854638204471003e-06, 1.7490455959473325e-06, -8.247315690240863e-07,
       5.236653065073167e-07, -2.4893842449587776e-07)
# B_2n / (2n (2n - 1)), n = 1..9
STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156,
            -3617 / 122400, 43867 / 244188)
HALF_LOG_2PI_M_HALF = 0.4189385332046727      # (log(2 pi) - 1) / 2
# precision -> (g, L, Stirling terms, T, shifts, FMA, constant wrapper, 1/x, log, libdevice's)
PLANS = {
    "f32": (G32, 1.0, 4, 3.5, 1, "libdevice.fmaf", "float32({})", "ptx.rcp_approx(x)",
            "float32(math.log({}))", "libdevice.lgammaf"),
    "f64": (G64, 1.5, 9, 8.0, 6, "libdevice.fma", "{}", "1.0 / x", "math.log({})",
            "libdevice.lgamma"),
}


def source(prec):
    """The device function ``h_lgamma_<prec>`` (module docstring)."""
    g, low, terms, big, shifts, fma, k, rcp, log, lib = PLANS[prec]

    def c(v):
        return k.format(repr(float(v)))

    def horner(name, var, coef):
        return [f"    {name} = {c(coef[-1])}"] + [
            f"    {name} = {fma}({name}, {var}, {c(v)})" for v in coef[-2::-1]]
    return "\n".join([
        f"def h_lgamma_{prec}(x):",
        f"    if not (x > {c(0)}):",
        f"        return x if x == {k.format('-math.inf')} else {lib}(x)",
        f"    one = {c(1)}",
        f"    mid = x < {c(low)}",
        f"    big = x >= {c(big)}",
        "    y = x",
        "    q = one",
        *[line for _ in range(shifts) for line in (f"    if y > {c(2.5)}:", "        y -= one",
                                                    "        q *= y")],
        f"    b = x - one if mid else y - {c(2)}",
        "    a = x if mid else y - one",
        *([f"    small = x < {c(low - 1)}", "    b = x if small else b",
           "    a = x + one if small else a"] if low > 1 else []),
        *horner("p", "b", g),
        "    pv = (a * b) * p",
        "    arg = x if mid else q",
        *(["    arg = x * (x + one) if small else arg"] if low > 1 else []),
        "    arg = x if big else arg",
        f"    lg = {log.format('arg')}",
        f"    r = {rcp}",
        "    r2 = r * r",
        *horner("s", "r2", STIRLING[:terms]),
        f"    st = {fma}(x - {c(0.5)}, lg - one, {c(HALF_LOG_2PI_M_HALF)}) + s * r",
        "    near = pv - lg if mid else pv + lg",
        "    return st if big else near",
    ]) + "\n"


for _prec in PLANS:
    _helpers.register(source(_prec))
