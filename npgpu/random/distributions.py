"""The sampler table: one :class:`~.kernels.Sampler` per distribution, and NumPy's parameter checks.

Direct transforms are ``lanes`` samplers over a base variate (``u`` uniform [0, 1), ``o``
uniform (0, 1), ``n`` standard normal by Box-Muller); rejection and compound samplers are
``stream`` samplers whose device function (below) draws from the element's own sub-stream and
loops inside the kernel.  Algorithms: ``docs/random.md``.
"""
from .kernels import Sampler

# --- device functions of the stream samplers (st: the element's stream, philox.STREAM) -------
GAMMA = """
def std_gamma(st, shape):
    # Marsaglia & Tsang (2000); shape < 1 boosted by U**(1/shape)
    if shape == 0.0:
        return 0.0
    if shape == 1.0:
        return next_exp(st)
    boost = 1.0
    a = shape
    if shape < 1.0:
        boost = math.exp(math.log(next_open(st)) / shape)
        a = shape + 1.0
    d = a - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = next_normal(st)
        v = 1.0 + c * x
        while v <= 0.0:
            x = next_normal(st)
            v = 1.0 + c * x
        v = v * v * v
        u = next_open(st)
        if u < 1.0 - 0.0331 * (x * x) * (x * x):
            return d * v * boost
        if math.log(u) < 0.5 * x * x + d * (1.0 - v + math.log(v)):
            return d * v * boost
"""

POISSON = """
def poisson(st, lam):
    if lam == 0.0:
        return 0
    if lam < 10.0:
        # multiplication method
        enlam = math.exp(-lam)
        x = 0
        prod = next_double(st)
        while prod > enlam:
            prod *= next_double(st)
            x += 1
        return x
    # PTRS (Hoermann 1993), as NumPy
    slam = math.sqrt(lam)
    loglam = math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2.0)
    while True:
        U = next_double(st) - 0.5
        V = next_double(st)
        us = 0.5 - abs(U)
        k = math.floor((2.0 * a / us + b) * U + lam + 0.43)
        if us >= 0.07 and V <= vr:
            return int64(k)
        if k < 0.0 or (us < 0.013 and V > us):
            continue
        if (math.log(V) + math.log(invalpha) - math.log(a / (us * us) + b)) <= (
                -lam + k * loglam - math.lgamma(k + 1.0)):
            return int64(k)
"""

BINOMIAL = """
def binomial(st, n, p):
    if n == 0 or p == 0.0:
        return 0
    flip = p > 0.5
    q = 1.0 - p if flip else p
    if n * q <= 30.0:
        # inversion (NumPy's for n*p <= 30)
        qn = math.exp(n * math.log1p(-q))
        r = q / (1.0 - q)
        g = r * (n + 1)
        while True:
            x = 0
            px = qn
            u = next_double(st)
            ok = True
            while u > px:
                x += 1
                if x > n:
                    ok = False
                    break
                u -= px
                px = ((g / x) - r) * px
            if ok:
                break
    else:
        # BTRS (Hoermann 1993)
        spq = math.sqrt(n * q * (1.0 - q))
        b = 1.15 + 2.53 * spq
        a = -0.0873 + 0.0248 * b + 0.01 * q
        c = n * q + 0.5
        vr = 0.92 - 4.2 / b
        alpha = (2.83 + 5.1 / b) * spq
        lpq = math.log(q / (1.0 - q))
        m = math.floor((n + 1) * q)
        h = math.lgamma(m + 1.0) + math.lgamma(n - m + 1.0)
        while True:
            u = next_double(st) - 0.5
            v = next_open(st)
            us = 0.5 - abs(u)
            k = math.floor((2.0 * a / us + b) * u + c)
            if k < 0.0 or k > n:
                continue
            if us >= 0.07 and v <= vr:
                break
            v = math.log(v * alpha / (a / (us * us) + b))
            if v <= h - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0) + (k - m) * lpq:
                break
        x = int64(k)
    return n - x if flip else x
"""

SAMPLERS_SRC = """
def beta(st, a, b):
    if a <= 1.0 and b <= 1.0:
        if a < 3e-103 and b < 3e-103:
            # NumPy's: below this a sample is 0 or 1 but for a chance under 1e-100
            U = next_double(st)
            return 1.0 if (a + b) * U < a else 0.0
        # Johnk's algorithm, as NumPy for small shapes
        while True:
            U = next_double(st)
            V = next_double(st)
            X = math.pow(U, 1.0 / a)
            Y = math.pow(V, 1.0 / b)
            XpY = X + Y
            if XpY <= 1.0 and U + V > 0.0:
                if X > 0.0 and Y > 0.0:
                    return X / XpY
                # X or Y underflowed: X / (X + Y) from the logarithms (NumPy's gh-24475)
                delta = math.log(U) / a - math.log(V) / b
                if delta > 0.0:
                    return math.exp(-math.log1p(math.exp(-delta)))
                return math.exp(delta - math.log1p(math.exp(delta)))
    X = std_gamma(st, a)
    Y = std_gamma(st, b)
    return X / (X + Y)


def chisq(st, df):
    return 2.0 * std_gamma(st, df / 2.0)


def noncentral_chisq(st, df, nonc):
    if nonc == 0.0:
        return chisq(st, df)
    if df > 1.0:
        c = chisq(st, df - 1.0)
        z = next_normal(st) + math.sqrt(nonc)
        return c + z * z
    i = poisson(st, nonc / 2.0)
    return chisq(st, df + 2.0 * i)


def f_dist(st, dfnum, dfden):
    return (chisq(st, dfnum) * dfden) / (chisq(st, dfden) * dfnum)


def noncentral_f(st, dfnum, dfden, nonc):
    t = noncentral_chisq(st, dfnum, nonc) * dfden
    return t / (chisq(st, dfden) * dfnum)


def student_t(st, df):
    num = next_normal(st)
    denom = std_gamma(st, df / 2.0)
    return math.sqrt(df / 2.0) * num / math.sqrt(denom)


def wald(st, mean, scale):
    # NumPy's form since 2.3.4: mean + mean / (2 scale) * (Y - sqrt(4 scale Y + Y^2)) cancels
    # (negative samples for a large mean / scale)
    Y = next_normal(st)
    Y = mean * Y * Y
    X = mean
    if Y != 0.0:        # (C's 4 scale / 0 is inf and X the mean; Python's raises)
        X = mean * (1.0 - 2.0 / (1.0 + math.sqrt(1.0 + 4.0 * scale / Y)))
    U = next_double(st)
    if U <= mean / (mean + X):
        return X
    return mean * mean / X


def vonmises(st, mu, kappa):
    # Best & Fisher (1979), NumPy's variant
    if kappa < 1e-8:
        return 3.141592653589793 * (2.0 * next_double(st) - 1.0)
    if kappa < 1e-5:
        s = 1.0 / kappa + kappa
    elif kappa <= 1e6:
        r = 1.0 + math.sqrt(1.0 + 4.0 * kappa * kappa)
        rho = (r - math.sqrt(2.0 * r)) / (2.0 * kappa)
        s = (1.0 + rho * rho) / (2.0 * rho)
    else:
        # a wrapped normal approximation for very large kappa
        res = mu + math.sqrt(1.0 / kappa) * next_normal(st)
        if res < -3.141592653589793:
            res += 6.283185307179586
        if res > 3.141592653589793:
            res -= 6.283185307179586
        return res
    while True:
        U = next_double(st)
        Z = math.cos(3.141592653589793 * U)
        W = (1.0 + s * Z) / (s + Z)
        Y = kappa * (s - W)
        V = next_double(st)
        if (Y * (2.0 - Y) - V >= 0.0) or (math.log(Y / V) + 1.0 - Y >= 0.0):
            break
    U = next_double(st)
    result = math.acos(W)
    if U < 0.5:
        result = -result
    result += mu
    if not abs(result) < math.inf:
        return result - result          # NaN, as C's fmod of an infinity
    neg = result < 0.0
    mod = math.fmod(abs(result) + 3.141592653589793, 6.283185307179586) - 3.141592653589793
    return -mod if neg else mod


def neg_binomial(st, n, p):
    if p == 1.0:
        return 0
    y = std_gamma(st, n) * ((1.0 - p) / p)
    return poisson(st, y)


def hypergeometric(st, good, bad, sample):
    total = good + bad
    m = sample if sample <= total - sample else total - sample
    if m >= 10:
        return hypergeometric_hrua(st, good, bad, sample, total, m)
    # sequential draws of the smaller of sample and total - sample (under 10)
    g = good
    left = total
    k = 0
    for _ in range(m):
        if next_double(st) * left < g:
            g -= 1
            k += 1
        left -= 1
    return k if m == sample else good - k


def hypergeometric_hrua(st, good, bad, sample, total, m):
    # NumPy's ratio-of-uniforms rejection (Stadlober's HRUA): O(1) expected draws for any
    # sample size (the sequential draws would take m of them)
    mingb = good if good < bad else bad
    maxgb = bad if good < bad else good
    p = mingb / total
    q = maxgb / total
    a = m * p + 0.5
    c = math.sqrt(float(total - m) * m * p * q / (total - 1) + 0.5)
    h = 1.7155277699214135 * c + 0.8989161620588988
    mode = math.floor((m + 1.0) * (mingb + 1.0) / (total + 2.0))
    g = (math.lgamma(mode + 1.0) + math.lgamma(mingb - mode + 1.0)
         + math.lgamma(m - mode + 1.0) + math.lgamma(maxgb - m + mode + 1.0))
    # the support's end, or 16 standard deviations past the mean
    b = (m if m < mingb else mingb) + 1.0
    tail = math.floor(a + 16.0 * c) * 1.0
    if tail < b:
        b = tail
    k = 0
    while True:
        U = next_open(st)
        V = next_double(st)
        X = a + h * (V - 0.5) / U
        if X < 0.0 or X >= b:
            continue
        k = math.floor(X)
        T = g - (math.lgamma(k + 1.0) + math.lgamma(mingb - k + 1.0)
                 + math.lgamma(m - k + 1.0) + math.lgamma(maxgb - m + k + 1.0))
        if U * (4.0 - U) - 3.0 <= T:
            break
        if U * (U - T) >= 1.0:
            continue
        if 2.0 * math.log(U) <= T:
            break
    kk = int64(k)
    if good > bad:
        kk = m - kk
    if m < sample:
        kk = good - kk
    return kk


def zipf(st, a):
    if a >= 1025.0:
        # (NumPy's answer: 2^(a - 1) overflows and the loop would never end; a value above 1
        # has a probability under 3e-309)
        return int64(1)
    am1 = a - 1.0
    b = math.pow(2.0, am1)
    # U in (Umin, 1], as NumPy (gh-9829): a smaller U gives an X above 2^63 - 1, rejected;
    # for a near 1 nearly every U in (0, 1] would be, and the loop would not end
    Umin = math.pow(9223372036854775807.0, -am1)
    while True:
        U01 = next_double(st)
        U = U01 * Umin + (1.0 - U01)
        V = next_double(st)
        # (U^(-1/(a-1)) overflows for a near 1: C's inf, rejected; Python's pow raises)
        if -math.log(U) > 43.7 * am1:              # X above 9.2e18
            continue
        X = math.floor(math.pow(U, -1.0 / am1))
        if X > 9.2e18 or X < 1.0:
            continue
        T = math.pow(1.0 + 1.0 / X, am1)
        if V * X * (T - 1.0) / (b - 1.0) <= T / b:
            return int64(X)


def logseries(st, p):
    r = math.log1p(-p)
    while True:
        V = next_double(st)
        if V >= p:
            return 1
        U = next_double(st)
        q = -math.expm1(r * U)
        if V <= q * q:
            res = math.floor(1.0 + math.log(V) / math.log(q))
            if res < 1.0 or V == 0.0:
                continue
            return int64(res)
        if V >= q:
            return 1
        return 2
"""

# --- lanes helpers -----------------------------------------------------------------------------
LANE_SRC = """
def exp_inf(x):
    # exp with C's overflow to inf (Python's math, the simulator's, raises)
    if x > 709.782712893384:
        return math.inf
    return math.exp(x)


def pareto(v, a):
    x = -math.log(v) / a
    if x > 709.782712893384:
        return math.inf
    return math.expm1(x)


def laplace(v, loc, scale):
    if v >= 0.5:
        return loc - scale * math.log(2.0 - v - v)
    return loc + scale * math.log(v + v)


def weibull(v, a):
    if a == 0.0:
        return 0.0
    e = -math.log(v)
    # (-log v <= 37: only a < 1/8 can overflow; C's pow gives inf, Python's raises)
    if a < 0.125 and e > 1.0 and math.log(e) > 709.782712893384 * a:
        return math.inf
    return math.pow(e, 1.0 / a)


def triangular(u, left, mode, right):
    base = right - left
    leftbase = mode - left
    ratio = leftbase / base
    if u <= ratio:
        return left + math.sqrt(u * leftbase * base)
    return right - math.sqrt((1.0 - u) * (right - mode) * base)


def geometric(v, p):
    if p == 1.0:
        return 1
    x = math.log(v) / math.log1p(-p)
    if x >= 9.2e18:         # (inf for a tiny p: ceil would raise on the simulator)
        return 9223372036854775807
    return int64(math.ceil(x))
"""

_STREAM = (GAMMA, POISSON, BINOMIAL, SAMPLERS_SRC)


def _lanes(key, base, value):
    return Sampler(key, base, value, (LANE_SRC,))


def _stream(key, value):
    return Sampler(key, None, value, _STREAM)


# name -> sampler.  ``v``: the lane's base variate; ``p0..``: parameters (float64, or int64
# where the table in generator.py says so).
SAMPLERS = {
    "random": _lanes("random", "u", "v"),
    "uniform": _lanes("uniform", "u", "p0 + (p1 - p0) * v"),
    "standard_normal": _lanes("standard_normal", "n", "v"),
    "normal": _lanes("normal", "n", "p0 + p1 * v"),
    "lognormal": _lanes("lognormal", "n", "exp_inf(p0 + p1 * v)"),
    "standard_exponential": _lanes("standard_exponential", "o", "-math.log(v)"),
    "exponential": _lanes("exponential", "o", "p0 * -math.log(v)"),
    "laplace": _lanes("laplace", "o", "laplace(v, p0, p1)"),
    "logistic": _lanes("logistic", "o", "p0 + p1 * math.log(v / (1.0 - v))"),
    "gumbel": _lanes("gumbel", "o", "p0 - p1 * math.log(-math.log(v))"),
    "weibull": _lanes("weibull", "o", "weibull(v, p0)"),
    "pareto": _lanes("pareto", "o", "pareto(v, p0)"),
    "power": _lanes("power", "o", "math.pow(1.0 - v, 1.0 / p0)"),
    "rayleigh": _lanes("rayleigh", "o", "p0 * math.sqrt(-2.0 * math.log(v))"),
    "standard_cauchy": _lanes("standard_cauchy", "o", "math.tan(3.141592653589793 * (v - 0.5))"),
    "triangular": _lanes("triangular", "u", "triangular(v, p0, p1, p2)"),
    "geometric": _lanes("geometric", "o", "geometric(v, p0)"),
    "standard_gamma": _stream("standard_gamma", "std_gamma(st, p0)"),
    "gamma": _stream("gamma", "std_gamma(st, p0) * p1"),
    "beta": _stream("beta", "beta(st, p0, p1)"),
    "chisquare": _stream("chisquare", "chisq(st, p0)"),
    "noncentral_chisquare": _stream("noncentral_chisquare", "noncentral_chisq(st, p0, p1)"),
    "f": _stream("f", "f_dist(st, p0, p1)"),
    "noncentral_f": _stream("noncentral_f", "noncentral_f(st, p0, p1, p2)"),
    "standard_t": _stream("standard_t", "student_t(st, p0)"),
    "wald": _stream("wald", "wald(st, p0, p1)"),
    "vonmises": _stream("vonmises", "vonmises(st, p0, p1)"),
    "poisson": _stream("poisson", "poisson(st, p0)"),
    "binomial": _stream("binomial", "binomial(st, p0, p1)"),
    "negative_binomial": _stream("negative_binomial", "neg_binomial(st, p0, p1)"),
    "hypergeometric": _stream("hypergeometric", "hypergeometric(st, p0, p1, p2)"),
    "zipf": _stream("zipf", "zipf(st, p0)"),
    "logseries": _stream("logseries", "logseries(st, p0)"),
}

# float32 variants of the dtype= distributions: computed in float32 from 24-bit uniforms
SAMPLERS_F32 = {
    "random": _lanes("random", "u", "v"),
    "standard_normal": _lanes("standard_normal", "n", "v"),
    "standard_exponential": _lanes("standard_exponential32", "o", "-float32(math.log(v))"),
}

# integers: a lane's word(s) -> an offset in [0, m) (Lemire), added to low
INT32 = Sampler("integers32", "w32",
                "uint64(p0) + bounded32(v, uint64(p1), k0, k1, clo, chi, uint64(b), LANE)",
                (LANE_SRC,))
INT64 = Sampler("integers64", "w64",
                "uint64(p0) + bounded64(v[0], v[1], uint64(p1), k0, k1, clo, chi, uint64(b), LANE)",
                (LANE_SRC,))
