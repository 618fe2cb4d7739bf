"""``Generator`` and ``default_rng``: NumPy's Generator API on the Philox4x32-10 kernels.

Every distribution method is: check the parameters (NumPy's errors, before any draw kernel),
broadcast them with ``size``, allocate, one launch of the sampler's kernel
(:func:`.kernels.launch`).  Host scalars become kernel parameters; host arrays are checked on
the host and copied; device arrays are checked on the device (one small read per check).
With ``size=None`` and scalar parameters a 0-d device array is returned (NumPy returns a
scalar; returning one would read the device).
"""
import operator

import numpy as np

from .._core.ndarray import empty_array, ndarray
from . import distributions as _d
from . import kernels
from .bit_generator import BitGenerator, Philox

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
_U64 = np.dtype(np.uint64)


def _gp():
    import npgpu
    return npgpu


_ARRAYISH = (ndarray, np.ndarray, list, tuple)
_INT_DTYPES = {}


def _int_dtype(dtype):
    """``(dtype, (min, max), name)`` of an ``integers`` dtype, found once per ``dtype``
    argument (np.iinfo and dtype names cost microseconds a call)."""
    try:
        return _INT_DTYPES[dtype]
    except (KeyError, TypeError):
        pass
    dt = np.dtype(dtype)
    if dt.kind not in "biu":
        raise TypeError(f"Unsupported dtype {dt!r} for integers")
    info = (0, 1) if dt.kind == "b" else (int(np.iinfo(dt).min), int(np.iinfo(dt).max))
    got = (dt, info, "bool" if dt.kind == "b" else dt.name)
    try:
        _INT_DTYPES[dtype] = got
    except TypeError:
        pass
    return got


# --- parameters -----------------------------------------------------------------------------
def _param(x, dt):
    """A parameter as a NumPy scalar of ``dt``, a host array of ``dt`` or an npgpu array of ``dt``."""
    if isinstance(x, ndarray):
        return x if x.dtype == dt else x.astype(dt)
    a = np.asarray(x)
    if a.dtype == object:
        raise TypeError(f"unsupported parameter type {type(x).__name__}")
    a = a.astype(dt)
    return a[()] if a.ndim == 0 else a


def _any(cond):
    """``cond`` (host or device bool array / scalar) true anywhere, as a Python bool."""
    if isinstance(cond, ndarray):
        return bool(_gp().any(cond).get())
    if cond.__class__ is np.bool_:
        return bool(cond)
    return bool(np.any(cond))


def _xp(x):
    return _gp() if isinstance(x, ndarray) else np


def _out_shape(size, params):
    if size is not None and all(isinstance(p, np.generic) for p in params):
        return (size,) if size.__class__ is int else _size_tuple(size)
    shapes = [np.shape(p) if not isinstance(p, ndarray) else p.shape for p in params]
    if size is None:
        return np.broadcast_shapes(*shapes) if shapes else ()
    size = _size_tuple(size)
    if shapes:
        try:
            b = np.broadcast_shapes(size, *shapes)
        except ValueError as e:
            raise ValueError(str(e).replace("arg 0", "arg 0")) from None
        if b != size:
            raise ValueError(f"Output size {size} is not compatible with broadcast dimensions "
                             f"of inputs {np.broadcast_shapes(*shapes)}.")
    return size


def _size_tuple(size):
    if np.iterable(size):
        return tuple(operator.index(s) for s in size)
    return (operator.index(size),)


def _to_device(params):
    """Host arrays -> npgpu arrays; scalars stay kernel parameters."""
    out = []
    for p in params:
        if isinstance(p, np.ndarray):
            p = _gp().asarray(np.ascontiguousarray(p))
        out.append(p)
    return out


# name -> (parameter names, parameter dtypes, checks, output dtype)
# check: (function of (xp, *params) -> bool condition, exception, message)
_F = (_F64,)
_ge0 = lambda what: (lambda xp, x: x < 0, ValueError, f"{what} < 0")      # noqa: E731
_gt0 = lambda what: (lambda xp, x: x <= 0, ValueError, f"{what} <= 0")    # noqa: E731


def _on(i, check):
    fn, exc, msg = check
    return (lambda xp, *p: fn(xp, p[i]), exc, msg)


_PROB_NAN = "p <= 0, p > 1 or p contains NaNs"
TABLE = {
    "uniform": (("low", "high"), _F * 2, [
        (lambda xp, lo, hi: ~xp.isfinite(hi - lo), OverflowError,
         "high - low range exceeds valid bounds")], _F64),
    "normal": (("loc", "scale"), _F * 2, [_on(1, _ge0("scale"))], _F64),
    "lognormal": (("mean", "sigma"), _F * 2, [_on(1, _ge0("sigma"))], _F64),
    "exponential": (("scale",), _F, [_on(0, _ge0("scale"))], _F64),
    "laplace": (("loc", "scale"), _F * 2, [_on(1, _ge0("scale"))], _F64),
    "logistic": (("loc", "scale"), _F * 2, [_on(1, _ge0("scale"))], _F64),
    "gumbel": (("loc", "scale"), _F * 2, [_on(1, _ge0("scale"))], _F64),
    "weibull": (("a",), _F, [_on(0, _ge0("a"))], _F64),
    "pareto": (("a",), _F, [_on(0, _gt0("a"))], _F64),
    "power": (("a",), _F, [_on(0, _gt0("a"))], _F64),
    "rayleigh": (("scale",), _F, [_on(0, _ge0("scale"))], _F64),
    "standard_cauchy": ((), (), [], _F64),
    "triangular": (("left", "mode", "right"), _F * 3, [
        (lambda xp, l, m, r: l > m, ValueError, "left > mode"),
        (lambda xp, l, m, r: m > r, ValueError, "mode > right"),
        (lambda xp, l, m, r: l == r, ValueError, "left == right")], _F64),
    "geometric": (("p",), _F, [(lambda xp, p: ~((p > 0) & (p <= 1)), ValueError, _PROB_NAN)],
                  _I64),
    "standard_gamma": (("shape",), _F, [_on(0, _ge0("shape"))], _F64),
    "gamma": (("shape", "scale"), _F * 2, [_on(0, _ge0("shape")), _on(1, _ge0("scale"))], _F64),
    "beta": (("a", "b"), _F * 2, [_on(0, _gt0("a")), _on(1, _gt0("b"))], _F64),
    "chisquare": (("df",), _F, [_on(0, _gt0("df"))], _F64),
    "noncentral_chisquare": (("df", "nonc"), _F * 2, [_on(0, _gt0("df")), _on(1, _ge0("nonc"))],
                             _F64),
    "f": (("dfnum", "dfden"), _F * 2, [_on(0, _gt0("dfnum")), _on(1, _gt0("dfden"))], _F64),
    "noncentral_f": (("dfnum", "dfden", "nonc"), _F * 3, [
        _on(0, _gt0("dfnum")), _on(1, _gt0("dfden")), _on(2, _ge0("nonc"))], _F64),
    "standard_t": (("df",), _F, [_on(0, _gt0("df"))], _F64),
    "wald": (("mean", "scale"), _F * 2, [_on(0, _gt0("mean")), _on(1, _gt0("scale"))], _F64),
    "vonmises": (("mu", "kappa"), _F * 2, [_on(1, _ge0("kappa"))], _F64),
    "poisson": (("lam",), _F, [
        (lambda xp, lam: ~(lam >= 0), ValueError, "lam < 0 or lam is NaN"),
        (lambda xp, lam: lam > 9.223372006484771e18, ValueError, "lam value too large")], _I64),
    "binomial": (("n", "p"), (_I64, _F64), [
        _on(0, _ge0("n")),
        (lambda xp, n, p: ~((p >= 0) & (p <= 1)), ValueError, "p < 0, p > 1 or p is NaN")],
        _I64),
    "negative_binomial": (("n", "p"), _F * 2, [
        _on(0, _gt0("n")), (lambda xp, n, p: ~((p > 0) & (p <= 1)), ValueError, _PROB_NAN)],
        _I64),
    "hypergeometric": (("ngood", "nbad", "nsample"), (_I64,) * 3, [
        (lambda xp, g, b, s: g + b < s, ValueError, "ngood + nbad < nsample"),
        _on(0, _ge0("ngood")), _on(1, _ge0("nbad")), _on(2, _ge0("nsample"))], _I64),
    "zipf": (("a",), _F, [(lambda xp, a: ~(a > 1), ValueError, "a <= 1 or a is NaN")], _I64),
    "logseries": (("p",), _F, [(lambda xp, p: ~((p >= 0) & (p < 1)), ValueError,
                                "p < 0, p >= 1 or p is NaN")], _I64),
}


class Generator:
    """NumPy's ``Generator`` on a :class:`~.bit_generator.Philox` (see ``docs/random.md``)."""

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, BitGenerator):
            raise TypeError("bit_generator must be an npgpu.random bit generator (Philox)")
        self._bit_generator = bit_generator

    @property
    def bit_generator(self):
        return self._bit_generator

    def spawn(self, n_children):
        return [Generator(b) for b in self._bit_generator.spawn(n_children)]

    def __repr__(self):
        return f"Generator(Philox4x32) at 0x{id(self):X}"

    def __getstate__(self):
        return {"bit_generator": self._bit_generator}

    def __setstate__(self, d):
        self._bit_generator = d["bit_generator"]

    # -- the one route of every table distribution --------------------------------------
    def _dist(self, name, args, size, sampler=None, out_dt=None, compute=_F64):
        names, dts, checks, dt = TABLE[name]
        params = [np.float64(a) if a.__class__ is float and d is _F64 else _param(a, d)
                  for a, d in zip(args, dts)]
        if any(isinstance(p, ndarray) for p in params):
            gp = _gp()
            cast = [gp.asarray(p) if not isinstance(p, ndarray) else p for p in params]
            for fn, exc, msg in checks:
                if _any(fn(gp, *cast)):
                    raise exc(msg)
        elif checks:
            with np.errstate(invalid="ignore", over="ignore"):
                for fn, exc, msg in checks:
                    if _any(fn(np, *params)):
                        raise exc(msg)
        shape = _out_shape(size, params)
        out = empty_array(shape, out_dt or dt)
        return kernels.launch(self._bit_generator, sampler or _d.SAMPLERS[name], out,
                              _to_device(params), compute)

    # -- floats with dtype= / out= ------------------------------------------------------
    def _float(self, name, size, dtype, out):
        dt = np.dtype(dtype)
        if dt not in (_F32, _F64):
            raise TypeError(f"Unsupported dtype {dt!r} for {name}")
        if out is not None:
            if not isinstance(out, ndarray):
                raise TypeError("out must be an npgpu array")
            if size is not None and _size_tuple(size) != out.shape:
                raise ValueError("size must match out.shape when used together")
            if out.dtype != dt:
                raise TypeError(f"Supplied output array has the wrong type. Expected {dt}, "
                                f"got {out.dtype}")
            if not out._c_contig:
                raise ValueError("Supplied output array is not contiguous, writable or aligned.")
            target = out
        else:
            target = empty_array(() if size is None else _size_tuple(size), dt)
        sampler = (_d.SAMPLERS_F32 if dt == _F32 else _d.SAMPLERS)[name]
        return kernels.launch(self._bit_generator, sampler, target, [], dt)

    def random(self, size=None, dtype=np.float64, out=None):
        """Uniform floats in [0, 1): 53 random bits (float64) or 24 (float32)."""
        return self._float("random", size, dtype, out)

    def standard_normal(self, size=None, dtype=np.float64, out=None):
        return self._float("standard_normal", size, dtype, out)

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None):
        if method not in ("zig", "inv"):
            raise ValueError("method must be either 'inv' or 'zig'")
        return self._float("standard_exponential", size, dtype, out)

    def standard_gamma(self, shape, size=None, dtype=np.float64, out=None):
        dt = np.dtype(dtype)
        if dt not in (_F32, _F64):
            raise TypeError(f"Unsupported dtype {dt!r} for standard_gamma")
        if out is not None:
            res = self._dist("standard_gamma", (shape,), out.shape if size is None else size,
                             out_dt=dt)
            out[...] = res
            return out
        return self._dist("standard_gamma", (shape,), size, out_dt=dt)

    # -- integers ----------------------------------------------------------------------
    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        """Unbiased integers in [low, high) (or [low, high] with ``endpoint``): Lemire's
        multiply-and-reject; 32-bit words when the range fits 32 bits, else 64-bit."""
        dt, info, dname = _int_dtype(dtype)
        omitted = high is None
        if omitted:
            low, high = 0, low
        arrays = isinstance(low, _ARRAYISH) or isinstance(high, _ARRAYISH)
        if not arrays:
            lo, hi = int(low), int(high)
            if not endpoint:
                if omitted and hi <= 0:
                    raise ValueError("high <= 0")
                if lo >= hi:
                    raise ValueError("low >= high")
                hi -= 1
            elif lo > hi:
                raise ValueError("low > high")
            if lo < info[0]:
                raise ValueError(f"low is out of bounds for {dname}")
            if hi > info[1]:
                raise ValueError(f"high is out of bounds for {dname}")
            m = hi - lo + 1
            wide = m > 2 ** 32
            shape = () if size is None else (size,) if size.__class__ is int else _size_tuple(size)
            params = [np.uint64(lo & (2 ** 64 - 1)), np.uint64(m & (2 ** 64 - 1))]
        else:
            wide = dt.itemsize == 8
            pdt = _U64 if dt.kind == "u" else _I64
            lo, hi = _param(low, pdt), _param(high, pdt)
            xp = _xp(lo) if isinstance(lo, ndarray) else _xp(hi)
            if xp is not np:
                gp = _gp()
                lo, hi = gp.asarray(lo), gp.asarray(hi)
            if not endpoint:
                if _any(lo >= hi):
                    raise ValueError("low >= high")
                hi = hi - pdt.type(1)
            elif _any(lo > hi):
                raise ValueError("low > high")
            if _any(lo < info[0]):
                raise ValueError(f"low is out of bounds for {dname}")
            if _any(hi > info[1]):
                raise ValueError(f"high is out of bounds for {dname}")
            shape = _out_shape(size, [lo, hi])
            m = (hi.astype(_U64) - lo.astype(_U64)) + _U64.type(1)
            params = [lo.astype(_U64), m]
            params = [p[()] if isinstance(p, np.ndarray) and p.ndim == 0 else p for p in params]
            params = _to_device(params)
        out = empty_array(shape, dt)
        return kernels.launch(self._bit_generator, _d.INT64 if wide else _d.INT32, out, params)

    # -- table distributions ------------------------------------------------------------
    def uniform(self, low=0.0, high=1.0, size=None):
        return self._dist("uniform", (low, high), size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._dist("normal", (loc, scale), size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return self._dist("lognormal", (mean, sigma), size)

    def exponential(self, scale=1.0, size=None):
        return self._dist("exponential", (scale,), size)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        return self._dist("laplace", (loc, scale), size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        return self._dist("logistic", (loc, scale), size)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return self._dist("gumbel", (loc, scale), size)

    def weibull(self, a, size=None):
        return self._dist("weibull", (a,), size)

    def pareto(self, a, size=None):
        return self._dist("pareto", (a,), size)

    def power(self, a, size=None):
        return self._dist("power", (a,), size)

    def rayleigh(self, scale=1.0, size=None):
        return self._dist("rayleigh", (scale,), size)

    def standard_cauchy(self, size=None):
        return self._dist("standard_cauchy", (), size)

    def triangular(self, left, mode, right, size=None):
        return self._dist("triangular", (left, mode, right), size)

    def geometric(self, p, size=None):
        return self._dist("geometric", (p,), size)

    def gamma(self, shape, scale=1.0, size=None):
        return self._dist("gamma", (shape, scale), size)

    def beta(self, a, b, size=None):
        return self._dist("beta", (a, b), size)

    def chisquare(self, df, size=None):
        return self._dist("chisquare", (df,), size)

    def noncentral_chisquare(self, df, nonc, size=None):
        return self._dist("noncentral_chisquare", (df, nonc), size)

    def f(self, dfnum, dfden, size=None):
        return self._dist("f", (dfnum, dfden), size)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        return self._dist("noncentral_f", (dfnum, dfden, nonc), size)

    def standard_t(self, df, size=None):
        return self._dist("standard_t", (df,), size)

    def wald(self, mean, scale, size=None):
        return self._dist("wald", (mean, scale), size)

    def vonmises(self, mu, kappa, size=None):
        return self._dist("vonmises", (mu, kappa), size)

    def poisson(self, lam=1.0, size=None):
        return self._dist("poisson", (lam,), size)

    def binomial(self, n, p, size=None):
        return self._dist("binomial", (n, p), size)

    def negative_binomial(self, n, p, size=None):
        return self._dist("negative_binomial", (n, p), size)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return self._dist("hypergeometric", (ngood, nbad, nsample), size)

    def zipf(self, a, size=None):
        return self._dist("zipf", (a,), size)

    def logseries(self, p, size=None):
        return self._dist("logseries", (p,), size)

    # -- multivariate -------------------------------------------------------------------
    def dirichlet(self, alpha, size=None):
        """Gamma(alpha_k) draws normalised along the last axis."""
        alpha_h = alpha.get() if isinstance(alpha, ndarray) else np.asarray(alpha, _F64)
        if alpha_h.ndim != 1:
            raise ValueError("alpha must be a one-dimensional sequence of floats")
        if np.any(alpha_h < 0) or np.any(np.isnan(alpha_h)):
            raise ValueError("alpha < 0")
        shape = (() if size is None else _size_tuple(size)) + alpha_h.shape
        g = self._dist("standard_gamma", (alpha_h.astype(_F64),), shape)
        return g / g.sum(axis=-1, keepdims=True)

    def multinomial(self, n, pvals, size=None):
        """Sequential conditional binomials: one launch per category."""
        gp = _gp()
        p = pvals.get() if isinstance(pvals, ndarray) else np.asarray(pvals, _F64)
        if p.ndim != 1:
            raise ValueError("pvals must have at least 1 dimension")
        if np.any(p < 0) or np.any(p > 1) or np.any(np.isnan(p)):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if p[:-1].sum() > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        n_h = np.asarray(n.get() if isinstance(n, ndarray) else n, _I64)
        if np.any(n_h < 0):
            raise ValueError("n < 0")
        shape = _out_shape(size, [n_h])
        k = p.shape[0]
        out = gp.empty(shape + (k,), dtype=_I64)
        left = gp.asarray(np.broadcast_to(n_h, shape).copy()) if shape else gp.asarray(n_h)
        rest = 1.0
        for j in range(k - 1):
            q = min(max(p[j] / rest, 0.0), 1.0) if rest > 0 else 0.0
            draw = self._dist("binomial", (left, q), shape)
            out[..., j] = draw
            left = left - draw
            rest -= p[j]
        out[..., k - 1] = left
        return out

    def multivariate_hypergeometric(self, colors, nsample, size=None, method="marginals"):
        """Counts of each color in ``nsample`` draws without replacement from an urn holding
        ``colors[j]`` items of color ``j``; shape ``size + (len(colors),)``, int64.

        ``marginals``: one hypergeometric launch per color (color ``j`` against the colors
        after it, conditioned on the draws so far).  ``count``: the urn's items drawn
        without replacement (the first ``nsample`` entries of a random permutation of
        ``range(sum(colors))`` per sample, :func:`.permutations.indices`), each item's color
        found by ``searchsorted`` in the cumulative counts, and counted with ``bincount``:
        memory proportional to ``nsample`` per sample."""
        gp = _gp()
        imax = np.iinfo(np.int64).max
        if method not in ("count", "marginals"):
            raise ValueError('method must be "count" or "marginals".')
        try:
            nsample = operator.index(nsample)
        except TypeError:
            raise ValueError("nsample must be an integer") from None
        if nsample < 0:
            raise ValueError("nsample must be nonnegative.")
        if nsample > imax:
            raise ValueError(f"nsample must not exceed {imax}")
        c = colors.get() if isinstance(colors, ndarray) else colors
        try:
            c = np.asarray(c)
            bad = c.ndim != 1 or (c.size > 0 and not np.issubdtype(c.dtype, np.integer)) or \
                bool(np.any((c < 0) | (c > imax)))
        except (ValueError, TypeError):
            bad = True
        if bad:
            raise ValueError("colors must be a one-dimensional sequence of nonnegative "
                             f"integers not exceeding {imax}.")
        c = c.astype(_I64)
        total = sum(int(x) for x in c)
        if total > imax:
            raise ValueError("sum(colors) must not exceed the maximum value of a 64 bit signed "
                             f"integer ({imax})")
        if method == "marginals" and total >= 1000000000:
            raise ValueError('When method is "marginals", sum(colors) must be less than '
                             "1000000000.")
        if nsample > total:
            raise ValueError("nsample > sum(colors)")
        shape = () if size is None else _size_tuple(size)
        k = c.size
        rows = int(np.prod(shape, dtype=np.int64))
        out = gp.zeros(shape + (k,), dtype=_I64)
        if k == 0 or rows == 0 or nsample == 0:
            return out
        if method == "marginals":
            left = gp.full(shape, nsample, dtype=_I64)
            remaining = total
            for j in range(k - 1):
                if c[j] == 0:
                    continue
                draw = self._dist("hypergeometric", (c[j], np.int64(remaining - int(c[j])),
                                                     left), shape)
                out[..., j] = draw
                left = left - draw
                remaining -= int(c[j])
            out[..., k - 1] = left
            return out
        from . import permutations as _s
        items = _s.indices(self._bit_generator, total, rows, nsample)
        color = gp.searchsorted(gp.asarray(np.cumsum(c)), items, side="right")
        flat = color + (gp.arange(rows, dtype=_I64) * k)[:, None]
        counts = gp.bincount(flat.reshape(-1), minlength=rows * k)
        return counts.astype(_I64).reshape(shape + (k,))

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8,
                            *, method="svd"):
        """mean + z @ factor, z standard normal; factor from the host SVD (or Cholesky /
        eigh) of ``cov`` (a small matrix)."""
        import warnings
        gp = _gp()
        m = np.asarray(mean.get() if isinstance(mean, ndarray) else mean, _F64)
        c = np.asarray(cov.get() if isinstance(cov, ndarray) else cov, _F64)
        if m.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        if method == "cholesky":
            factor = np.linalg.cholesky(c)
        elif method == "eigh":
            s, u = np.linalg.eigh(c)
            factor = u * np.sqrt(np.abs(s))
        else:
            u, s, vh = np.linalg.svd(c)
            if check_valid != "ignore":
                if check_valid not in ("warn", "raise"):
                    raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
                psd = np.allclose(np.dot(vh.T * s, vh), c, rtol=tol, atol=tol)
                if not psd:
                    if check_valid == "warn":
                        warnings.warn("covariance is not symmetric positive-semidefinite.",
                                      RuntimeWarning, stacklevel=2)
                    else:
                        raise ValueError("covariance is not symmetric positive-semidefinite.")
            factor = (vh.T * np.sqrt(s)).T.T
        shape = (() if size is None else _size_tuple(size)) + m.shape
        z = self.standard_normal(shape)
        x = gp.matmul(z, gp.asarray(np.ascontiguousarray(factor.T)))
        return x + gp.asarray(m)

    # -- permutations and choice (npgpu/random/shuffle.py) --------------------------------
    def permutation(self, x, axis=0):
        from . import permutations as shuffle
        return shuffle.permutation(self._bit_generator, x, axis)

    def shuffle(self, x, axis=0):
        from . import permutations as shuffle
        shuffle.shuffle(self._bit_generator, x, axis)

    def permuted(self, x, axis=None, out=None):
        from . import permutations as shuffle
        return shuffle.permuted(self._bit_generator, x, axis, out)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        from . import permutations as _s
        return _s.choice(self, a, size, replace, p, axis, shuffle)

    def bytes(self, length):
        """``length`` random bytes (a host ``bytes`` object: read back from the device)."""
        length = operator.index(length)
        words = kernels.raw_words(self._bit_generator, (-(-length // 4),))
        return words.get().tobytes()[:length]


def default_rng(seed=None):
    """A :class:`Generator` on Philox4x32-10 seeded through ``SeedSequence(seed)``; a
    Generator passes through, a bit generator is wrapped."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    return Generator(Philox(seed))
