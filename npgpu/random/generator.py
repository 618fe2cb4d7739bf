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
    if not dt.isnative:
        raise ValueError("Providing a dtype with a non-native byteorder is not supported. If "
                         "you require platform-independent byteorder, call byteswap when "
                         "required.")
    if dt.kind not in "biu":
        raise TypeError(f"Unsupported dtype {dt!r} for integers")
    info = (0, 1) if dt.kind == "b" else (int(np.iinfo(dt).min), int(np.iinfo(dt).max))
    got = (dt, info, "bool" if dt.kind == "b" else dt.name)
    try:
        _INT_DTYPES[dtype] = got
    except TypeError:
        pass
    return got


def _bounds_error(closed, low_zero):
    """NumPy's message for empty integer ranges (``format_bounds_error``)."""
    if low_zero:
        return "high < 0" if closed else "high <= 0"
    return "low > high" if closed else "low >= high"


def _exact_int(x):
    """An ``integers`` bound array's integer values for the checks: floats truncated (NumPy's
    forced cast; ``[0, 2**63]`` is a float64 list), bools as int64, integers as given (uint64,
    Python ints)."""
    if x.dtype.kind == "b":
        return x.astype(_I64)
    return _xp(x).trunc(x) if x.dtype.kind == "f" else x


def _wrap64(x, pdt):
    """Checked integer bounds as ``pdt`` modulo 2**64 (object arrays of Python ints too)."""
    if x.dtype == object:
        x = np.array([int(v) & (2 ** 64 - 1) for v in x.ravel()], _U64).reshape(x.shape)
    elif x.dtype.kind == "f":
        # in [-2**63, 2**64]: the negative part through int64, the rest through uint64
        # (an open uint64 high of 2**64 wraps to 0: high - 1 is then the max)
        xp = _xp(x)
        x = xp.where(x >= 2.0 ** 64, x - 2.0 ** 64, x)
        x = xp.where(x < 0, x, 0).astype(_I64).astype(_U64) + xp.where(x < 0, 0, x).astype(_U64)
    return x if x.dtype == pdt else x.astype(pdt)


def _lowest(dt):
    return int(np.iinfo(dt).min) if dt.kind in "iu" else 0 if dt.kind == "b" else -np.inf


def _highest(dt):
    return int(np.iinfo(dt).max) if dt.kind in "iu" else 1 if dt.kind == "b" else np.inf


def _no_elements(size):
    """``size`` (not None) asks for no elements (NumPy: ``np.prod(size) == 0``, with its
    errors: ``size='a'`` is numpy's UFuncTypeError there)."""
    return np.prod(size) == 0


# --- parameters -----------------------------------------------------------------------------
def _param(x, dt, safe=False):
    """A parameter as a NumPy scalar of ``dt``, a host array of ``dt`` or an npgpu array of
    ``dt``.  ``safe``: arrays (host or device, 0-d too) must cast safely, as NumPy converts
    its distribution parameters (a float array for an integer parameter is a TypeError);
    scalars and lists convert as numbers (truncated, as NumPy's)."""
    if isinstance(x, ndarray):
        if safe and x.dtype != dt and _unsafe_cast(x.dtype, dt):
            _unsafe(x.dtype, dt, x.ndim == 0)
        return x if x.dtype == dt else x.astype(dt)
    a = np.asarray(x)
    if a.dtype == object:
        if isinstance(x, np.ndarray):
            _unsafe(a.dtype, dt, a.ndim == 0)
        raise TypeError(f"unsupported parameter type {type(x).__name__}")
    if safe and a.dtype != dt and _unsafe_cast(a.dtype, dt):
        if a.dtype.kind == "c" and a.ndim == 0 and not isinstance(x, np.ndarray):
            raise TypeError("float() argument must be a string or a real number, not "
                            f"'{type(x).__name__}'")
        if a.dtype.kind == "c" or isinstance(x, np.ndarray):
            # NumPy converts array parameters with safe casting (a scalar or a list is
            # converted as numbers)
            _unsafe(a.dtype, dt, a.ndim == 0)
    a = a.astype(dt)
    return a[()] if a.ndim == 0 else a


def _scalar(x, dt):
    """A host scalar parameter converted as NumPy's scalar path does (``PyFloat_AsDouble`` /
    a C ``int64_t``): its errors for strings, None, NaN, infinity and out-of-range ints."""
    if isinstance(x, (str, bytes)) or x is None:
        np.array(x, dtype=dt)        # NumPy's error for a non-number string (None as an int)
        raise TypeError(f"must be real number, not {type(x).__name__}" if dt.kind == "f" else
                        "an integer is required")
    if dt.kind == "f":
        return dt.type(float(x))
    v = int(x)                                  # NaN: ValueError, inf: OverflowError
    if not -2 ** 63 <= v < 2 ** 63:
        raise OverflowError("Python int too large to convert to C long")
    return dt.type(v)


def _unsafe_cast(frm, to):
    return not np.can_cast(frm, to, "safe")


def _unsafe(frm, to, scalar):
    what = "scalar" if scalar else "array data"
    raise TypeError(f"Cannot cast {what} from {frm!r} to {to!r} according to the rule 'safe'")


def _any(cond):
    """``cond`` (host or device bool array / scalar) true anywhere, as a Python bool."""
    if isinstance(cond, ndarray):
        return bool(_gp().any(cond).get())
    if cond.__class__ is np.bool_:
        return bool(cond)
    return bool(np.any(cond))


def _xp(x):
    return _gp() if isinstance(x, ndarray) else np


def _out_shape(size, params, size_last=False):
    if size is not None and all(isinstance(p, np.generic) for p in params):
        return (size,) if size.__class__ is int and size >= 0 else _size_tuple(size)
    shapes = [np.shape(p) if not isinstance(p, ndarray) else p.shape for p in params]
    if size is None:
        return np.broadcast_shapes(*shapes) if shapes else ()
    size = _size_tuple(size)
    if shapes:
        # NumPy's message names the arguments in its order (integers: low, high, size)
        b = np.broadcast_shapes(*shapes, size) if size_last else \
            np.broadcast_shapes(size, *shapes)
        if b != size:
            raise ValueError(f"Output size {size} is not compatible with broadcast dimensions "
                             f"of inputs {b}.")
    return size


_VOID0 = np.dtype([])


def _size_tuple(size):
    """``size`` as a shape tuple, converted as NumPy's ``np.empty(size)`` (its errors: a
    string, a bool, a float, a negative dimension); a 0-byte dtype allocates nothing."""
    return np.empty(size, _VOID0).shape


def _shape(size):
    """The output shape of ``size`` (None: a 0-d result)."""
    if size is None:
        return ()
    return (size,) if size.__class__ is int and size >= 0 else _size_tuple(size)


def _to_device(params):
    """Host arrays -> npgpu arrays; scalars stay kernel parameters."""
    out = []
    for p in params:
        if isinstance(p, np.ndarray):
            p = _gp().asarray(np.ascontiguousarray(p))
        out.append(p)
    return out


def _check_out(out, dt, size, c_only=False):
    """NumPy's checks of an ``out=`` array (``check_output``): layout, dtype, size.
    ``c_only``: a Fortran-ordered out refused too (NumPy's samplers with parameters)."""
    # NumPy takes a C- or Fortran-contiguous out (filled in memory order)
    if isinstance(out, np.ndarray):
        ok = (out.flags.c_contiguous or out.flags.f_contiguous and not c_only) and \
            out.flags.writeable and out.flags.aligned and out.dtype.isnative
    else:
        ok = isinstance(out, ndarray) and (out._c_contig or out._f_contig and not c_only)
    if not ok:
        raise ValueError(f"Supplied output array must be {'C-' if c_only else ''}contiguous, "
                         "writable, aligned, and in machine byte-order.")
    if out.dtype != dt:
        raise TypeError(f"Supplied output array has the wrong type. Expected {dt}, "
                        f"got {out.dtype}")
    if size is not None:
        try:
            tup = tuple(size)
        except TypeError:
            tup = (size,)
        if tup != out.shape:
            raise ValueError("size must match out.shape when used together")


# name -> (parameter names, parameter dtypes, checks, output dtype)
# check: (function of (xp, *params) -> bool condition, exception, message[, message when a
# parameter is an array: NumPy's "contains NaNs" for its scalars' "is NaN"])
_F = (_F64,)
# NumPy's CONS_NON_NEGATIVE: the sign bit of a non-NaN value (-0.0 is refused, NaN passes)
_ge0 = lambda what: (lambda xp, x: xp.signbit(x) & (x == x), ValueError,  # noqa: E731
                     f"{what} < 0")
_gt0 = lambda what: (lambda xp, x: x <= 0, ValueError, f"{what} <= 0")    # noqa: E731


def _on(i, check):
    fn, exc, msg = check
    return (lambda xp, *p: fn(xp, p[i]), exc, msg)


_PROB_NAN = "p <= 0, p > 1 or p contains NaNs"
TABLE = {
    "uniform": (("low", "high"), _F * 2, [
        (lambda xp, lo, hi: ~xp.isfinite(hi - lo), OverflowError,
         "high - low range exceeds valid bounds", "Range exceeds valid bounds"),
        # NumPy's CONS_NON_NEGATIVE on high - low: uniform(0.0, -0.0) is refused
        (lambda xp, lo, hi: xp.signbit(hi - lo), ValueError, "high - low < 0")], _F64),
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
        (lambda xp, lam: ~(lam >= 0), ValueError, "lam < 0 or lam is NaN",
         "lam < 0 or lam contains NaNs"),
        (lambda xp, lam: lam > 9.223372006484771e18, ValueError, "lam value too large")], _I64),
    "binomial": (("n", "p"), (_I64, _F64), [
        _on(0, _ge0("n")),
        (lambda xp, n, p: ~((p >= 0) & (p <= 1)), ValueError, "p < 0, p > 1 or p is NaN",
         "p < 0, p > 1 or p contains NaNs")],
        _I64),
    "negative_binomial": (("n", "p"), _F * 2, [
        _on(0, _gt0("n")), (lambda xp, n, p: n != n, ValueError, "n must not be NaN"),
        (lambda xp, n, p: ~((p > 0) & (p <= 1)), ValueError, _PROB_NAN),
        # the Poisson mean the gamma-Poisson mixture may reach: NumPy's limit (its sampler's)
        (lambda xp, n, p: (1 - p) / p * (n + 10 * xp.sqrt(n)) > 9.223372006484771e18,
         ValueError, "n too large or p too small, see Generator.negative_binomial Notes")],
        _I64),
    "hypergeometric": (("ngood", "nbad", "nsample"), (_I64,) * 3, [
        (lambda xp, g, b, s: g + b < s, ValueError, "ngood + nbad < nsample"),
        _on(0, _ge0("ngood")), _on(1, _ge0("nbad")), _on(2, _ge0("nsample")),
        (lambda xp, g, b, s: (g >= 1000000000) | (b >= 1000000000), ValueError,
         "both ngood and nbad must be less than 1000000000")], _I64),
    "zipf": (("a",), _F, [(lambda xp, a: ~(a > 1), ValueError, "a <= 1 or a is NaN",
                           "a <= 1 or a contains NaNs")], _I64),
    "logseries": (("p",), _F, [(lambda xp, p: ~((p >= 0) & (p < 1)), ValueError,
                                "p < 0, p >= 1 or p is NaN", "p < 0, p >= 1 or p contains NaNs")],
                  _I64),
}

# array parameters checked in NumPy's order where it differs from the scalars'
ARRAY_CHECKS = {
    "poisson": [(lambda xp, lam: ~(lam <= 9.223372006484771e18), ValueError,
                 "lam value too large"),
                (lambda xp, lam: lam < 0, ValueError, "lam < 0 or lam contains NaNs")],
}

# RandomState's (legacy) checks where they differ from Generator's
LEGACY_CHECKS = {
    # NumPy's legacy messages; NaN n, p == 0 and an n too large for p pass its checks and give
    # x86's cast of inf/NaN to int64 (INT64_MIN) or 0: npgpu refuses them with Generator's
    # errors (the sampler would not end on an infinite mean; docs/random.md)
    "negative_binomial": [
        _on(0, _gt0("n")),
        (lambda xp, n, p: ~((p >= 0) & (p <= 1)), ValueError, "p < 0, p > 1 or p is NaN",
         "p < 0, p > 1 or p contains NaNs")] + TABLE["negative_binomial"][2][1:],
    "uniform": [(lambda xp, lo, hi: ~xp.isfinite(hi - lo), OverflowError,
                 "Range exceeds valid bounds")],
    "hypergeometric": [
        (lambda xp, g, b, s: g + b < s, ValueError, "ngood + nbad < nsample"),
        _on(0, _ge0("ngood")), _on(1, _ge0("nbad")),
        (lambda xp, g, b, s: s < 1, ValueError, "nsample < 1 or nsample is NaN",
         "nsample < 1 or nsample contains NaNs")],
}


class Generator:
    """NumPy's ``Generator`` on a :class:`~.bit_generator.Philox` (see ``docs/random.md``)."""

    def __init__(self, bit_generator):
        if isinstance(bit_generator, type) and issubclass(bit_generator, BitGenerator):
            raise ValueError("Invalid bit generator. The bit generator must be instantiated.")
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

    def __str__(self):
        return "Generator(Philox4x32)"          # as NumPy's: repr without the address

    def __getstate__(self):
        return {"bit_generator": self._bit_generator}

    def __setstate__(self, d):
        self._bit_generator = d["bit_generator"]

    # -- the one route of every table distribution --------------------------------------
    def _dist(self, name, args, size, sampler=None, out_dt=None, compute=_F64, legacy=False):
        names, dts, checks, dt = TABLE[name]
        params = [np.float64(a) if a.__class__ is float and d is _F64 else
                  _param(a, d, True) if isinstance(a, _ARRAYISH) or np.ndim(a) else _scalar(a, d)
                  for a, d in zip(args, dts)]
        if legacy:
            checks = LEGACY_CHECKS.get(name, checks)
        elif name in ARRAY_CHECKS and any(not isinstance(p, np.generic) for p in params):
            checks = ARRAY_CHECKS[name]
        if any(isinstance(p, ndarray) for p in params):
            gp = _gp()
            cast = [gp.asarray(p) if not isinstance(p, ndarray) else p for p in params]
            for fn, exc, *msg in checks:
                if _any(fn(gp, *cast)):
                    raise exc(msg[-1])
        elif checks:
            with np.errstate(invalid="ignore", over="ignore"):
                for fn, exc, *msg in checks:
                    if _any(fn(np, *params)):
                        arrays = any(not isinstance(p, np.generic) for p in params)
                        raise exc(msg[-1] if arrays else msg[0])
        shape = _out_shape(size, params)
        out = empty_array(shape, out_dt or dt)
        return kernels.launch(self._bit_generator, sampler or _d.SAMPLERS[name], out,
                              _to_device(params), compute)

    # -- floats with dtype= / out= ------------------------------------------------------
    def _float(self, name, size, dtype, out):
        dt = np.dtype(dtype)
        if dt not in (_F32, _F64):
            raise TypeError(f"Unsupported dtype {dt!r} for {name}")
        sampler = (_d.SAMPLERS_F32 if dt == _F32 else _d.SAMPLERS)[name]
        if out is not None:
            _check_out(out, dt, size)
            if isinstance(out, np.ndarray):
                # a host out: drawn on the device, copied into it
                out[...] = kernels.launch(self._bit_generator, sampler,
                                          empty_array(out.shape, dt), [], dt).get()
                return out
            if not out._c_contig:
                # Fortran order: its transpose is C-contiguous, the same memory
                kernels.launch(self._bit_generator, sampler, out.T, [], dt)
                return out
            return kernels.launch(self._bit_generator, sampler, out, [], dt)
        return kernels.launch(self._bit_generator, sampler, empty_array(_shape(size), dt), [], dt)

    def random(self, size=None, dtype=np.float64, out=None):
        """Uniform floats in [0, 1): 53 random bits (float64) or 24 (float32)."""
        return self._float("random", size, dtype, out)

    def standard_normal(self, size=None, dtype=np.float64, out=None):
        return self._float("standard_normal", size, dtype, out)

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None):
        # NumPy takes any method other than 'zig' as inversion; both are one sampler here
        return self._float("standard_exponential", size, dtype, out)

    def standard_gamma(self, shape, size=None, dtype=np.float64, out=None):
        dt = np.dtype(dtype)
        if dt not in (_F32, _F64):
            raise TypeError(f"Unsupported dtype {dt!r} for standard_gamma")
        if out is not None:
            _check_out(out, dt, size, c_only=True)
            res = self._dist("standard_gamma", (shape,), out.shape, out_dt=dt)
            out[...] = res.get() if isinstance(out, np.ndarray) else res
            return out
        return self._dist("standard_gamma", (shape,), size, out_dt=dt)

    # -- integers ----------------------------------------------------------------------
    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        """Unbiased integers in [low, high) (or [low, high] with ``endpoint``): Lemire's
        multiply-and-reject; 32-bit words when the range fits 32 bits, else 64-bit."""
        dt, info, dname = _int_dtype(dtype)
        if high is None:
            low, high = 0, low
        if size is not None and (size == 0 if size.__class__ is int else _no_elements(size)):
            # NumPy returns an empty array before looking at the bounds
            return empty_array(_size_tuple(size), dt)
        arrays = isinstance(low, _ARRAYISH) or isinstance(high, _ARRAYISH)
        if not arrays:
            lo, hi = int(low), int(high)
            if not endpoint:
                hi -= 1
            if lo < info[0]:
                raise ValueError(f"low is out of bounds for {dname}")
            if hi > info[1]:
                raise ValueError(f"high is out of bounds for {dname}")
            if lo > hi:
                raise ValueError(_bounds_error(endpoint, lo == 0))
            m = hi - lo + 1
            wide = m > 2 ** 32
            shape = _shape(size)
            params = [np.uint64(lo & (2 ** 64 - 1)), np.uint64(m & (2 ** 64 - 1))]
        else:
            wide = dt.itemsize == 8
            pdt = _U64 if dt.kind == "u" else _I64
            # NumPy's order: low's bound, high's bound (on the values given), then low < high
            lo0 = low if isinstance(low, ndarray) else np.asarray(low)
            hi0 = high if isinstance(high, ndarray) else np.asarray(high)
            hbound = info[1] if endpoint else info[1] + 1
            if _lowest(lo0.dtype) < info[0] and _any(lo0 < info[0]):
                raise ValueError(f"low is out of bounds for {dname}")
            if _highest(hi0.dtype) > hbound and _any(hi0 > hbound):
                raise ValueError(f"high is out of bounds for {dname}")
            # compared as given (a uint64 or Python-int high of 2**63 is int64's open bound),
            # then wrapped to 64 bits: the checks keep high - 1 and the range in pdt
            lo, hi = _exact_int(lo0), _exact_int(hi0)
            if isinstance(lo, ndarray) or isinstance(hi, ndarray):
                gp = _gp()
                if lo.dtype == object or hi.dtype == object:
                    lo, hi = (x.get() if isinstance(x, ndarray) else x for x in (lo, hi))
                else:
                    lo, hi = gp.asarray(lo), gp.asarray(hi)
            if _any(lo > hi) if endpoint else _any(lo >= hi):
                raise ValueError(_bounds_error(endpoint, not _any(lo != 0)))
            lo, hi = _wrap64(lo, pdt), _wrap64(hi, pdt)
            if not endpoint:
                hi = hi - pdt.type(1)
            shape = _out_shape(size, [lo, hi], size_last=True)
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
        return self._nonc("noncentral_chisquare", (df, nonc), size)

    def f(self, dfnum, dfden, size=None):
        return self._dist("f", (dfnum, dfden), size)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        return self._nonc("noncentral_f", (dfnum, dfden, nonc), size)

    def _nonc(self, name, args, size):
        """A noncentral distribution: NumPy gives NaN where ``nonc`` is NaN (the samplers
        never see a NaN: it is drawn as 0 and the element replaced)."""
        nonc = args[-1]
        if isinstance(nonc, ndarray):
            gp = _gp()
            bad = gp.isnan(nonc) if nonc.dtype.kind == "f" else None
            if bad is None or not _any(bad):
                return self._dist(name, args, size)
            res = self._dist(name, args[:-1] + (gp.where(bad, 0.0, nonc),), size)
            return gp.where(bad, np.nan, res)
        h = np.asarray(nonc)
        if h.dtype.kind != "f" or not np.isnan(h).any():
            return self._dist(name, args, size)
        bad = np.isnan(h)
        res = self._dist(name, args[:-1] + (np.where(bad, 0.0, h),), size)
        return _gp().where(_gp().asarray(bad), np.nan, res)

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
        # NumPy converts these two as float arrays: None is NaN (its "n must not be NaN")
        n, p = (np.nan if x is None else x for x in (n, p))
        return self._dist("negative_binomial", (n, p), size)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return self._dist("hypergeometric", (ngood, nbad, nsample), size)

    def zipf(self, a, size=None):
        return self._dist("zipf", (a,), size)

    def logseries(self, p, size=None):
        return self._dist("logseries", (p,), size)

    # -- multivariate -------------------------------------------------------------------
    def dirichlet(self, alpha, size=None, _legacy=False):
        """Gamma(alpha_k) draws normalised along the last axis."""
        alpha_h = alpha.get() if isinstance(alpha, ndarray) else np.asarray(alpha, _F64)
        if alpha_h.ndim == 0:
            raise TypeError("len() of unsized object" if isinstance(alpha, (np.ndarray, ndarray))
                            else f"object of type '{type(alpha).__name__}' has no len()")
        if alpha_h.ndim != 1:
            raise ValueError("alpha must be a one-dimensional sequence of floats")
        if _legacy:
            if np.any(alpha_h <= 0):
                raise ValueError("alpha <= 0")
        elif np.any(alpha_h < 0):
            raise ValueError("alpha < 0")
        shape = (() if size is None else _size_tuple(size)) + alpha_h.shape
        if np.any(np.isnan(alpha_h)):
            # NumPy: every component NaN (no gamma draw can take a NaN shape)
            return _gp().full(shape, np.nan, dtype=_F64)
        a = alpha_h.astype(_F64) + 0.0
        if not _legacy and a.size and a.max() < 0.1:
            return self._dirichlet_sticks(a, shape)
        # + 0.0: an alpha of -0.0 is NumPy's 0 (its gammas skip standard_gamma's sign check)
        g = self._dist("standard_gamma", (a,), shape)
        return g / g.sum(axis=-1, keepdims=True)

    def _dirichlet_sticks(self, a, shape):
        """NumPy's small-alpha Dirichlet (every alpha < 0.1): stick breaking by betas, one
        launch per component; no 0/0 when every gamma would underflow to 0."""
        gp = _gp()
        out = gp.zeros(shape, dtype=_F64)
        tail = np.cumsum(a[::-1])[::-1]          # tail[j] = sum(a[j:])
        if tail[0] == 0 or out.size == 0:
            return out
        acc = gp.ones(shape[:-1], dtype=_F64)
        k = a.size
        for j in range(k - 1):
            if tail[j + 1] == 0:
                # beta(a_j, 0) is 1: the rest of the stick goes here, the others stay 0
                out[..., j] = acc
                return out
            if a[j] == 0:
                continue                        # beta(0, b) is 0
            v = self._dist("beta", (a[j], tail[j + 1]), shape[:-1])
            out[..., j] = acc * v
            acc = acc * (1.0 - v)
        out[..., k - 1] = acc
        return out

    def multinomial(self, n, pvals, size=None):
        """Sequential conditional binomials: one launch per category.  ``pvals`` may have
        leading dimensions, broadcast with ``n`` (NumPy's vector form)."""
        gp = _gp()
        p = pvals.get() if isinstance(pvals, ndarray) else np.asarray(pvals)
        p64 = p.astype(_F64)
        if p64.ndim == 0 or p64.shape[-1] == 0:
            raise ValueError("pvals must have at least 1 dimension and the last dimension of "
                             "pvals must be greater than 0.")
        if np.any(p64 < 0) or np.any(p64 > 1) or np.any(np.isnan(p64)):
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if p64.size and np.max(p64[..., :-1].sum(axis=-1)) > 1.0 + 1e-12:
            part = "[:-1]" if p64.ndim == 1 else "[...,:-1]"
            # NumPy's hint when a float16/float32 array sums to 1 before the cast
            if isinstance(pvals, (ndarray, np.ndarray)) and p.dtype.kind == "f" and \
                    p.dtype != _F64 and p.sum() < 1.0001:
                raise ValueError(f"sum(pvals{part}.astype(np.float64)) > 1.0. The pvals array "
                                 "is cast to 64-bit floating point prior to checking the sum. "
                                 "Precision changes when casting may cause problems even if "
                                 "the sum of the original pvals is valid.")
            raise ValueError(f"sum(pvals{part}) > 1.0")
        n_h = np.asarray(n.get() if isinstance(n, ndarray) else n, _I64)
        if np.any(n_h < 0):
            raise ValueError("n < 0")
        batch = p64.shape[:-1]
        if n_h.ndim or batch:
            shape = _out_shape(size, [n_h, np.empty(batch, np.int8)])
        else:
            shape = _shape(size)
        k = p64.shape[-1]
        out = gp.empty(shape + (k,), dtype=_I64)
        if out.size == 0:
            return out
        left = gp.asarray(np.broadcast_to(n_h, shape).copy()) if shape else gp.asarray(n_h)
        rest = np.ones(batch)
        for j in range(k - 1):
            pj = p64[..., j]
            with np.errstate(divide="ignore", invalid="ignore"):
                q = np.where(rest > 0, np.clip(pj / rest, 0.0, 1.0), 0.0)
            q = q[()] if q.ndim == 0 else q
            draw = self._dist("binomial", (left, q), shape)
            out[..., j] = draw
            left = left - draw
            rest = rest - pj
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
        if method == "count" and total > imax // 8:
            # NumPy's bound (its count method allocates sum(colors) 8-byte indices)
            raise ValueError(f"When method is 'count', sum(colors) must not exceed {imax // 8}")
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
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        m = np.asarray(mean.get() if isinstance(mean, ndarray) else mean)
        c = np.asarray(cov.get() if isinstance(cov, ndarray) else cov)
        if m.dtype.kind == "c" or c.dtype.kind == "c":
            raise TypeError("mean and cov must not be complex")
        m, c = m.astype(_F64), c.astype(_F64)
        if m.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        try:
            # the host factorisation of the (small) cov
            dec = np.linalg.cholesky(c) if method == "cholesky" else \
                np.linalg.eigh(c) if method == "eigh" else np.linalg.svd(c)
        except np.linalg.LinAlgError as e:
            # npgpu.linalg's class (a subclass), so `except npgpu.linalg.LinAlgError` catches it
            from ..linalg._common import LinAlgError
            raise LinAlgError(*e.args) from None
        if method == "cholesky":
            factor = dec
        elif method == "eigh":
            s, u = dec
            if check_valid != "ignore":
                if check_valid not in ("warn", "raise"):
                    raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
                if np.any(s < -tol):
                    if check_valid == "warn":
                        warnings.warn("covariance is not symmetric positive-semidefinite.",
                                      RuntimeWarning, stacklevel=2)
                    else:
                        raise ValueError("covariance is not symmetric positive-semidefinite.")
            factor = u * np.sqrt(np.abs(s))
        else:
            u, s, vh = dec
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

    def permuted(self, x, *, axis=None, out=None):
        from . import permutations as shuffle
        return shuffle.permuted(self._bit_generator, x, axis, out)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        from . import permutations as _s
        return _s.choice(self, a, size, replace, p, axis, shuffle)

    def bytes(self, length):
        """``length`` random bytes (a host ``bytes`` object: read back from the device)."""
        if isinstance(length, (float, np.floating)):
            length = int(length)                 # as NumPy (a C integer argument)
        try:
            length = operator.index(length)
        except TypeError:
            raise TypeError("an integer is required") from None
        if length < 0:
            # NumPy's arithmetic on a negative length: int((length - 1) / 4) + 1 words (C
            # division), sliced [:length]
            nw = max(int((length - 1) / 4) + 1, 0)
            words = kernels.raw_words(self._bit_generator, (nw,))
            return words.get().tobytes()[:length] if nw else b""
        words = kernels.raw_words(self._bit_generator, (-(-length // 4),))
        return words.get().tobytes()[:length]


def default_rng(seed=None):
    """A :class:`Generator` on Philox4x32-10 seeded through ``SeedSequence(seed)``; a
    Generator passes through, a bit generator is wrapped."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, BitGenerator):
        return Generator(seed)
    from .legacy import RandomState
    if isinstance(seed, RandomState):
        # as NumPy: a Generator on the RandomState's bit generator
        return Generator(seed._gen.bit_generator)
    return Generator(Philox(seed))
