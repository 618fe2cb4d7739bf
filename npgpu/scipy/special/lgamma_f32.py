"""float32 lgamma without libdevice's ``lgammaf`` (the float32 loop of gammaln; fast("gammaln")).

``lgammaf`` reflects, reduces and evaluates several branches per element: ~250 instructions
an element, so gammaln of float32 ran at ~52% of copy bandwidth on the H200 (issue 25).  Here,
for x > 0, every element takes the same straight-line steps (no divergence on mixed data):

* x >= 3.5: Stirling's series, (x - 1/2)(log x - 1) + (log(2 pi) - 1)/2 + r (1/12 - r^2/360 +
  r^4/1260 - r^6/1680), r = 1/x (DLMF 5.11.1; the next term is < 1e-7 of the value);
* y in [1, 2.5]: (y - 1)(y - 2) g(y - 2), g a degree-10 polynomial (both zeros of lgamma
  factored out: relative accuracy near x = 1 and 2);  x in (2.5, 3.5) is y = x - 1 plus
  log(x - 1);  x < 1 is lgamma(x + 1) - log x with a = x and b = x - 1 (x + 1 itself is not
  formed: its rounding would cost digits just below 1).
One ``logf`` serves every branch.  Within 3 ulp of SciPy's gammaln over (0, 1e30) in an
emulation of these steps (``scripts/fit_lgamma_f32.py`` fits g and measures; libdevice's
``logf`` adds at most 1 ulp of the log).  x <= 0 and NaN take libdevice's ``lgammaf``.
"""
from ...ufuncs import helpers as _helpers

# g's coefficients in b = y - 2, lowest degree first (scripts/fit_lgamma_f32.py)
G = (0.42278432846069336, -0.10031724721193314, 0.03296467661857605, -0.012386545538902283,
     0.005003975238651037, -0.002079625613987446, 0.0008956539095379412,
     -0.0005431099561974406, 0.00014713956625200808, 0.00014341298083309084,
     0.00023676120326854289)
STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680)
HALF_LOG_2PI_M_HALF = 0.4189385332046727      # (log(2 pi) - 1) / 2


def _fma_chain(var, coef):
    """Lines evaluating ``coef`` (lowest degree first) at ``var`` into ``p`` by FMAs."""
    lines = [f"    p = float32({coef[-1]!r})"]
    lines += [f"    p = libdevice.fmaf(p, {var}, float32({c!r}))" for c in coef[-2::-1]]
    return lines


_SOURCE = "\n".join([
    "def h_lgamma_f32(x):",
    "    if not (x > float32(0.0)):",
    "        return libdevice.lgammaf(x)",
    "    one = float32(1.0)",
    "    small = x < one",
    "    big = x >= float32(3.5)",
    "    shift = x > float32(2.5)",
    "    y = x - one if shift else x",
    "    a = x if small else y - one",
    "    b = x - one if small else y - float32(2.0)",
    *_fma_chain("b", G),
    "    pv = (a * b) * p",
    "    arg = y if shift else one",
    "    arg = x if small else arg",
    "    arg = x if big else arg",
    "    lg = float32(math.log(arg))",
    "    r = ptx.rcp_approx(x)",
    "    r2 = r * r",
    *[line.replace("p = ", "s = ").replace("(p,", "(s,") for line in _fma_chain("r2", STIRLING)],
    f"    st = libdevice.fmaf(x - float32(0.5), lg - one, float32({HALF_LOG_2PI_M_HALF!r})) + s * r",
    "    near = pv - lg if small else pv + lg",
    "    return st if big else near",
]) + "\n"

_helpers.register(_SOURCE)
