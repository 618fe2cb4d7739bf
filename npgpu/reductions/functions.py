"""NumPy's reduction and statistics functions (and the ndarray methods of the same names).

Each is a :class:`~.template.ReduceSpec` (or a ufunc's reduce) run by
:func:`.reduce.run`; NumPy's argument handling and result dtypes come from a
dry run of the NumPy function on a one-element stand-in (:func:`.reduce.dry_run`).
Results of full reductions are 0-d npgpu arrays (no host round-trip).
"""
import builtins
import copy
import functools
import warnings

import numpy as np

from .. import _hostmode
from .._codegen import elementwise as _ew
from .._codegen.elementwise import compute_dtype, type_name
from .._core import copy as _copy
from .._core.dtypes import check_dtype
from . import reduce as _r
from . import scan
from . import ufunc_methods as _um
from .ufunc_methods import ufunc_by_name
from .template import ReduceSpec, literal

NoValue = _r.NoValue
_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)
_C128 = np.dtype(np.complex128)
_BOOL = np.dtype(np.bool_)
_NP_REDUCE = {"add": np.sum, "multiply": np.prod, "maximum": np.max, "minimum": np.min}


def _on_host(np_func, a, **kw):
    """A host-mode ``@npgpu.fuse`` call (:mod:`npgpu._hostmode`) with a host ``a``: NumPy's
    ``np_func`` with the arguments given (those left at their defaults left out); else None."""
    if a.__class__ is _r.ndarray or not _hostmode.on_host(a, kw.get("out")):
        return None
    kw = {k: v for k, v in kw.items()
          if v is not NoValue and not (k in ("where", "out", "dtype") and v is _HOST_DEFAULT[k])}
    return (np_func(a, **kw),)


_HOST_DEFAULT = {"where": True, "out": None, "dtype": None}


def _drive(np_func, a, axis, out, keepdims, where, make_spec, np_kw=None, post_args=(),
           dtype=None, extra=None):
    """Run a custom-spec reduction with NumPy's argument handling.

    Without out=/where= a repeat of the call (same ``np_func``, array layout, axis,
    keepdims, dtype and ``extra``: whatever else ``make_spec``/``post_args`` depend on)
    replays the first call's launch (:func:`.reduce.fast_lookup`).
    """
    host = _on_host(np_func, a, axis=axis, out=out, keepdims=keepdims, where=where,
                    dtype=dtype, **(np_kw or {}))
    if host is not None:
        return host[0]
    key = None
    if out is None and where is True:
        key, f = _r.fast_lookup(np_func, a, axis, keepdims, (dtype, extra))
        if f is not None:
            return f(a)
    a = _r.as_array(a)
    out = _r.single_out(out)
    mask = _r.where_mask(where, a.shape)
    kw = {"axis": axis, "keepdims": keepdims}
    kw.update(np_kw or {})
    if dtype is not None:
        kw["dtype"] = dtype
    res = _r.dry_run(np_func, a, kw, where=mask, out=out)
    axes = _r.reduce_axes(axis, a.ndim)
    spec = make_spec(a.dtype, check_dtype(res.dtype), mask is not None)
    shape = _r.result_shape(a.shape, axes, keepdims)
    r = _r.prepare_out(out, shape, check_dtype(res.dtype))
    target = r
    if out is not None and (_copy.may_overlap(r, a) or
                            (mask is not None and _copy.may_overlap(r, mask))):
        target = _r.empty_array(shape, r.dtype)
    _r.run(spec, a, axes, target, keepdims=keepdims, mask=mask, post_args=post_args)
    if target is not r:
        _copy.copy_into(r, target)
    _r.remember(key, spec, a, axes, keepdims, r, post_args)
    return r


def _ufunc_reduce(name, a, axis, dtype, out, keepdims, initial, where, pre="x", np_func=None):
    """``ufunc.reduce`` with an optional pre-map (nansum & co); NumPy's checks via ``np_func``.

    Without out=/where=/initial= a repeat of the call replays the first one's launch
    (the pre-map is determined by ``np_func``, so ``np_func or name`` names the function).
    """
    host = _on_host(np_func or _NP_REDUCE[name], a, axis=axis, out=out, keepdims=keepdims,
                    where=where, dtype=dtype, initial=initial)
    if host is not None:
        return host[0]
    key = None
    if out is None and where is True and initial is NoValue:
        key, f = _r.fast_lookup(np_func or name, a, axis, keepdims, dtype)
        if f is not None:
            return f(a)
    if pre == "x" and np_func is None:
        uf = ufunc_by_name(name)
        r = _um.ufunc_reduce(uf, a, axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                             initial=initial, where=where)
        if key is not None:
            # the spec ufunc_reduce ran: its loop dtype is the result's (no out=, no initial=)
            spec, _ = _um.reduce_spec(uf, r.dtype)
            seed_first = not spec.reorderable and uf._np.identity is None
            _r.remember(key, spec, a, _r.reduce_axes(axis, a.ndim), keepdims, r,
                        seed_first=seed_first)
        return r
    uf = ufunc_by_name(name)
    a = _r.as_array(a)
    out = _r.single_out(out)
    mask = _r.where_mask(where, a.shape)
    kw = {"axis": axis, "keepdims": keepdims}
    if dtype is not None:
        kw["dtype"] = dtype
    if initial is not NoValue:
        kw["initial"] = initial
    res = _r.dry_run(np_func, a, kw, where=mask, out=out)
    dt = check_dtype(dtype) if dtype is not None else \
        check_dtype(_um._out_loop_dtype(uf, a.dtype, out.dtype) if out is not None else res.dtype)
    spec, _ = _um.reduce_spec(uf, dt)
    if pre != "x":
        spec = copy.copy(spec)
        spec.pre = pre(dt)
        spec.key = spec.key + (spec.pre,)
    axes = _r.reduce_axes(axis, a.ndim)
    init = None if initial is NoValue or initial is None else \
        _um.initial_value(initial, out, dt)
    spec = _um.with_initial(spec, uf, init)
    shape = _r.result_shape(a.shape, axes, keepdims)
    r = _r.prepare_out(out, shape, dt)
    target = r if out is None or not _copy.may_overlap(r, a) else _r.empty_array(shape, dt)
    _r.run(spec, a, axes, target, keepdims=keepdims, mask=mask, initial=init)
    if target is not r:
        _copy.copy_into(r, target)
    _r.remember(key, spec, a, axes, keepdims, r)
    return r


# ---- ufunc-based reductions ---------------------------------------------------------------------
def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=NoValue, where=True):
    return _ufunc_reduce("add", a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=NoValue, where=True):
    return _ufunc_reduce("multiply", a, axis, dtype, out, keepdims, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=NoValue, where=True):
    return _ufunc_reduce("maximum", a, axis, None, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=NoValue, where=True):
    return _ufunc_reduce("minimum", a, axis, None, out, keepdims, initial, where)


amax = max
amin = min


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    return _ufunc_reduce("logical_or", a, axis, None, out, keepdims, NoValue, where,
                         pre="x", np_func=np.any)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    return _ufunc_reduce("logical_and", a, axis, None, out, keepdims, NoValue, where,
                         pre="x", np_func=np.all)


def _nan_to(value):
    """Pre-map replacing NaN by ``value`` (of the loop dtype): nansum, nanprod, nancumsum..."""
    return lambda dt: f"return x if x == x else {literal(value, dt)}"


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=NoValue, where=True):
    return _ufunc_reduce("add", a, axis, dtype, out, keepdims, initial, where,
                         pre=_nan_to(0), np_func=np.nansum)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=NoValue, where=True):
    return _ufunc_reduce("multiply", a, axis, dtype, out, keepdims, initial, where,
                         pre=_nan_to(1), np_func=np.nanprod)


def nanmax(a, axis=None, out=None, keepdims=False, initial=NoValue, where=True):
    return _ufunc_reduce("fmax", a, axis, None, out, keepdims, initial, where, pre="x",
                         np_func=np.nanmax)


def nanmin(a, axis=None, out=None, keepdims=False, initial=NoValue, where=True):
    return _ufunc_reduce("fmin", a, axis, None, out, keepdims, initial, where, pre="x",
                         np_func=np.nanmin)


# ---- argmin / argmax --------------------------------------------------------------------------
_CGT = "def rh_better(a, b):\n    return a.real {op} b.real or (a.real == b.real and a.imag {op} b.imag)\n"
_RGT = "def rh_better(a, b):\n    return a {op} b\n"
_ARG_COMB = """if a0 != a0:
    if b0 != b0 and b1 < a1:
        return (b0, b1)
    return (a0, a1)
if b0 != b0:
    return (b0, b1)
if rh_better(b0, a0) or (b0 == a0 and b1 < a1):
    return (b0, b1)
return (a0, a1)"""


# one thread visits increasing indices: a later element wins only if strictly better, or if it
# is the first NaN, or if the state still holds the identity (i < a1 only then)
_ARG_ACC = """if rh_better(x, a0) or (x != x and a0 == a0) or (x == a0 and i < a1):
    return (x, i)
return (a0, a1)"""


@functools.lru_cache(maxsize=None)
def _arg_spec(dt, largest, skip_nan):
    v = np.dtype(np.int32) if dt.kind == "b" else compute_dtype(dt)
    helper = (_CGT if dt.kind == "c" else _RGT).format(op=">" if largest else "<")
    worst = _um.sentinel("maximum" if largest else "minimum", dt if dt.kind != "b" else v)
    ident = (literal(worst, v), literal(np.iinfo(np.int64).max, _I64))
    pre = "(x, i)"
    acc = _ARG_ACC
    nan_skipped = skip_nan and dt.kind in "fc"
    if nan_skipped:
        # NumPy's nanargmax/nanargmin: a NaN counts as -inf/+inf (a tie with a real -inf/+inf
        # goes to the first), complex ones as complex(-inf/+inf, 0); all-NaN slices are
        # refused before (see _arg)
        inf = -np.inf if largest else np.inf
        repl = literal(complex(inf, 0) if dt.kind == "c" else inf, v)
        pre = f"if x != x:\n    return ({repl}, i)\nreturn (x, i)"
        acc = f"if x != x:\n    x = {repl}\n" + acc
    if dt.kind == "c" and not nan_skipped:
        # a NaN state is final (the first NaN wins): complex order compares the real parts
        # first, so a later larger real part would otherwise replace a NaN in the imaginary one
        acc = "if a0 != a0:\n    return (a0, a1)\n" + acc
    screen = None
    if dt.kind != "c":
        # the screen of the acc path: only a strictly better x, a NaN x (argmax: the first
        # NaN wins; a NaN state makes it True too, harmlessly) or the identity state (whose
        # sentinel an equal first element must still replace) may change the state
        op, neg = (">", "<=") if largest else ("<", ">=")
        better = f"(x {op} a0)" if nan_skipped else f"(not (x {neg} a0))"
        screen = f"{better} | (a1 == {ident[1]})"
    return ReduceSpec(("arg", largest, skip_nan), dt, (v, _I64), ident, pre, _ARG_COMB, "a1",
                      _I64, helpers=(helper,), uses_index=True, accumulate=acc, screen=screen)


def _arg(np_func, a, axis, out, keepdims, largest, skip_nan):
    host = _on_host(np_func, a, axis=axis, out=out, keepdims=keepdims)
    if host is not None:
        return host[0]
    a = _r.as_array(a)
    kd = False if keepdims is NoValue else keepdims
    if skip_nan and a.dtype.kind in "fc" and a.size:
        # NumPy refuses an all-NaN slice before anything is written: one scalar comes back
        # (an empty slice: argmin's own error, from the dry run)
        if builtins.bool(any(all(ufunc_by_name("isnan")(a), axis=axis))):
            raise ValueError("All-NaN slice encountered")
    if out is not None:
        o = _r.single_out(out)
        if o is not None and o.shape != _r.result_shape(a.shape, _r.reduce_axes(axis, a.ndim),
                                                        kd):
            raise ValueError("output array does not match result of "
                             f"np.{'argmax' if largest else 'argmin'}.")
    return _drive(np_func, a, axis, out, kd, True,
                  lambda dt, rdt, m: _arg_spec(dt, largest, skip_nan))


def argmax(a, axis=None, out=None, *, keepdims=NoValue):
    return _arg(np.argmax, a, axis, out, keepdims, True, False)


def argmin(a, axis=None, out=None, *, keepdims=NoValue):
    return _arg(np.argmin, a, axis, out, keepdims, False, False)


def nanargmax(a, axis=None, out=None, *, keepdims=NoValue):
    return _arg(np.nanargmax, a, axis, out, keepdims, True, True)


def nanargmin(a, axis=None, out=None, *, keepdims=NoValue):
    return _arg(np.nanargmin, a, axis, out, keepdims, False, True)


# ---- mean, var, std ------------------------------------------------------------------------------
def _acc_dtype(rdt, dtype):
    """Accumulator of a mean: float64 for integers, float32 for float16, else the dtype."""
    dt = check_dtype(dtype) if dtype is not None else rdt
    if dt.kind in "biu":
        return _F64 if dtype is None else dt
    return _um._WIDE_SUM.get(compute_dtype(dt), compute_dtype(dt))


@functools.lru_cache(maxsize=None)
def _mean_spec(dt, rdt, masked, dtype, skip_nan):
    acc = _acc_dtype(rdt, dtype)
    z = literal(0, acc)
    if skip_nan and dt.kind in "fc" or masked:
        pre = "(x, int64(1))"
        if skip_nan and dt.kind in "fc":
            pre = f"if x != x:\n    return ({z}, int64(0))\nreturn (x, int64(1))"
        return ReduceSpec(("mean2", skip_nan), acc, (acc, _I64), (z, "int64(0)"), pre,
                          "(a0 + b0, a1 + b1)", _divide("a0", "a1", acc), rdt)
    return ReduceSpec(("mean",), acc, (acc,), (z,), "x", "a0 + b0", _divide("a0", "m", acc), rdt)


def _divide(num, count, acc):
    """``num / count`` for a count: complex parts divide separately, because Numba's complex
    division returns 0 for a zero divisor on the GPU where NumPy gives nan+nanj."""
    if acc.kind == "c":
        return f"type({num})(complex({num}.real / {count}, {num}.imag / {count}))"
    return f"{num} / {count}"


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    return _drive(np.mean, a, axis, out, keepdims, where,
                  lambda dt, rdt, m: _mean_spec(dt, rdt, m, dtype, False), dtype=dtype)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    # (NumPy's "Mean of empty slice" for a slice left empty by NaNs or where= is not given:
    # knowing of one takes a device-to-host read a call; empty slices by shape are warned of)
    return _drive(np.nanmean, a, axis, out, keepdims, where,
                  lambda dt, rdt, m: _mean_spec(dt, rdt, m, dtype, True), dtype=dtype)


_mean = mean                # (var's parameter ``mean`` hides the function there)


# Chan et al.'s pairwise update of (count, mean, M2): stable in any combine order.
_CHAN = """n = a0 + b0
if n == 0.0:
    return (a0, a1, a2)
d = b1 - a1
f = b0 / n
return (n, a1 + d * f, a2 + b2 + {sq} * (a0 * f))"""


@functools.lru_cache(maxsize=None)
def _var_spec(dt, rdt, masked, skip_nan, root):
    w = _C128 if dt.kind == "c" else _F64
    sq = "(d.real * d.real + d.imag * d.imag)" if dt.kind == "c" else "(d * d)"
    z = literal(0, w)
    pre = f"(float64(1.0), x, float64(0.0))"
    post = "dof = a0 - q0\n"
    nan_mode = skip_nan and dt.kind in "fc"
    if nan_mode:
        pre = f"if x != x:\n    return (float64(0.0), {z}, float64(0.0))\nreturn {pre}"
        post += "if dof <= 0.0:\n    return math.nan\n"      # nanvar: NaN, not x / 0
    post += "if dof < 0.0:\n    dof = 0.0\nv = a2 / dof\n"
    post += "return math.sqrt(v)" if root else "return v"
    return ReduceSpec(("var", nan_mode, root), w, (_F64, w, _F64),
                      ("float64(0.0)", z, "float64(0.0)"), pre, _CHAN.format(sq=sq), post,
                      compute_dtype(rdt) if rdt.kind == "f" else _F64, post_params=(_F64,))


def _var(np_func, a, axis, dtype, out, ddof, keepdims, where, mean, correction, skip_nan, root):
    host = _on_host(np_func, a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims,
                    where=where, mean=mean, correction=correction)
    if host is not None:
        return host[0]
    if correction is not NoValue:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    a = _r.as_array(a)
    nan_mode = skip_nan and a.dtype.kind in "fc"
    if mean is None and not nan_mode:
        mean = NoValue                   # NumPy's var: mean=None computes the mean
    if mean is NoValue and dtype is not None and (check_dtype(dtype).kind in "biu" or (
            a.dtype.kind == "c" and check_dtype(dtype).kind != "c")):
        # NumPy's mean in ``dtype`` first (an integer mean truncated, a complex array's mean
        # of its real parts), then the deviations from it: the route of a given mean
        mean = (nanmean if nan_mode else _mean)(a, axis, dtype=dtype, keepdims=True,
                                                where=where)
    _dof_warning(a, axis, ddof, nan_mode)
    if mean is not NoValue:
        r = _var_about(np_func, a, axis, dtype, out, ddof, keepdims, where, mean, skip_nan,
                       root)
    else:
        r = _drive(np_func, a, axis, out, keepdims, where,
                   lambda dt, rdt, m: _var_spec(dt, rdt, m, skip_nan, root),
                   np_kw={"ddof": ddof}, post_args=(float(ddof),), dtype=dtype, extra=ddof)
    return r


def _dof_warning(a, axis, ddof, nan_mode):
    """NumPy's "Degrees of freedom <= 0 for slice" (nanvar's ends in a period) where the
    shapes decide it: ``ddof`` at least the reduced length, which no slice exceeds."""
    n = _reduced_length(a.shape, axis)
    if n is not None and ddof >= n:
        warnings.warn("Degrees of freedom <= 0 for slice" + ("." if nan_mode else ""),
                      RuntimeWarning, stacklevel=4)


def _prod_of(shape, axes):
    n = 1
    for ax in axes:
        n *= shape[ax]
    return n


def has_nan(r):
    """Whether the device array ``r`` holds a NaN: one read (of ``r`` itself when small: no
    launch; else of a reduction's bool)."""
    if r.size <= 4096:
        return builtins.bool(np.isnan(r.get()).any())
    return builtins.bool(any(ufunc_by_name("isnan")(r)))


def _reduced_length(shape, axis):
    """The number of elements a slice reduces over (None for an ``axis`` NumPy refuses: its
    dry run raises), without the full path's axis normalisation."""
    try:
        return _prod_of(shape, range(len(shape)) if axis is None else
                        dict.fromkeys(axis if isinstance(axis, tuple) else (axis,)))
    except (IndexError, TypeError):
        return None


@functools.lru_cache(maxsize=None)
def _sq_spec(dt, rdt, counted, nan_bad, root):
    """Sum of |x|^2 over the degrees of freedom: var/std of deviations ``x`` (dtype ``dt``)
    from a given mean.  Unmasked: q0 = ddof, q1 = the element count; counted (where= or
    NaNs skipped): a state component counts the elements.  nan_bad: dof <= 0 gives NaN
    (nanvar) instead of the division's inf/NaN (var)."""
    # squares in the deviations' type, as NumPy's square does; their sum in float64
    if dt.kind == "c":
        ft = "float32" if dt.itemsize == 8 else "float64"
        sq = f"float64({ft}({ft}(x.real * x.real) + {ft}(x.imag * x.imag)))"
    else:
        tn = type_name(compute_dtype(dt))
        sq = f"float64({tn}(x * x))"
    if counted:
        state, ident, pre, comb = ((_F64, _I64), ("float64(0.0)", "int64(0)"),
                                   f"({sq}, int64(1))", "(a0 + b0, a1 + b1)")
        post = "dof = float64(a1) - q0\n"
        params = (_F64,)
    else:
        state, ident, pre, comb = (_F64,), ("float64(0.0)",), sq, "a0 + b0"
        post = "dof = q1 - q0\n"
        params = (_F64, _F64)
    if nan_bad:
        post += "if dof <= 0.0:\n    return math.nan\n"
    post += "if dof < 0.0:\n    dof = 0.0\nv = a0 / dof\n"
    post += "return math.sqrt(v)" if root else "return v"
    return ReduceSpec(("var_about", counted, nan_bad, root), dt, state, ident, pre, comb, post,
                      rdt, post_params=params)


def _var_about(np_func, a, axis, dtype, out, ddof, keepdims, where, mean, skip_nan, root):
    """var/std (nanvar/nanstd) about a given ``mean``, NumPy's route: deviations
    ``d = a - mean`` (a broadcasting subtract; NaN-skipping variants cast them to ``a``'s dtype
    as NumPy does), then one reduction of ``|d|^2 / max(count - ddof, 0)``."""
    from ..ufuncs import UFUNCS
    a = _r.as_array(a)
    out = _r.single_out(out)
    mask = _r.where_mask(where, a.shape)
    nan_mode = skip_nan and a.dtype.kind in "fc"
    if nan_mode and mean is None:               # NumPy's nanvar subtracts None
        kind = "complex" if a.dtype.kind == "c" else "float"
        raise TypeError(f"unsupported operand type(s) for -: '{kind}' and 'NoneType'")
    # NumPy's dtype resolution and argument checks, with a stand-in of the mean
    if isinstance(mean, (int, float, complex, np.generic)):
        m_stand = mean
    else:
        m_host = mean if isinstance(mean, (_r.ndarray, np.ndarray)) else np.asarray(mean)
        m_stand = np.zeros(tuple(builtins.min(n, 1) for n in m_host.shape), m_host.dtype)
    kw = {"axis": axis, "keepdims": keepdims, "ddof": ddof, "mean": m_stand}
    if dtype is not None:
        kw["dtype"] = dtype
    rdt = check_dtype(_r.dry_run(np_func, a, kw, where=mask, out=out).dtype)
    if nan_mode:
        d = _r.empty_array(a.shape, a.dtype)
        UFUNCS["subtract"](a, mean, out=d, casting="unsafe")
        ok = UFUNCS["equal"](a, a)                     # False at NaNs
        mask = ok if mask is None else UFUNCS["logical_and"](ok, mask)
    else:
        d = UFUNCS["subtract"](a, mean)
        if mask is not None and d.shape != a.shape:
            raise ValueError(f"npgpu: var/std with where= needs mean= to broadcast to the "
                             f"array's shape {a.shape} (the keepdims=True shape of the mean); "
                             f"got a mean broadcasting to {d.shape}")
    axes = _r.normalize_axes(axis, d.ndim)
    counted = mask is not None
    spec = _sq_spec(d.dtype, rdt, counted, nan_mode, root)
    if counted:
        post_args = (float(ddof),)
    else:
        # NumPy counts the elements of ``a`` (not of the deviations) along ``axis``
        post_args = (float(ddof), float(_prod_of(a.shape, _r.normalize_axes(axis, a.ndim))))
    shape = _r.result_shape(d.shape, axes, keepdims)
    r = _r.prepare_out(out, shape, rdt)
    target = r
    if out is not None and mask is not None and _copy.may_overlap(r, mask):
        target = _r.empty_array(shape, r.dtype)
    _r.run(spec, d, axes, target, keepdims=keepdims, mask=mask, post_args=post_args)
    if target is not r:
        _copy.copy_into(r, target)
    return r


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=NoValue, correction=NoValue):
    return _var(np.var, a, axis, dtype, out, ddof, keepdims, where, mean, correction, False, False)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
        mean=NoValue, correction=NoValue):
    return _var(np.std, a, axis, dtype, out, ddof, keepdims, where, mean, correction, False, True)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=NoValue, correction=NoValue):
    return _var(np.nanvar, a, axis, dtype, out, ddof, keepdims, where, mean, correction, True,
                False)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=NoValue, correction=NoValue):
    return _var(np.nanstd, a, axis, dtype, out, ddof, keepdims, where, mean, correction, True,
                True)


# ---- ptp, count_nonzero -------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _ptp_spec(dt, rdt):
    c = compute_dtype(dt)
    mx = _um.combine_op("maximum", dt)
    mn = _um.combine_op("minimum", dt)
    # two ufunc ops in one kernel: rename them apart
    hx = tuple(mx.helpers) + (mx.source.replace("def op(", "def op_max("),)
    hn = tuple(mn.helpers) + (mn.source.replace("def op(", "def op_min("),)
    ident = (literal(_um.sentinel("maximum", dt), dt), literal(_um.sentinel("minimum", dt), dt))
    return ReduceSpec(("ptp", mx.key, mn.key), dt, (c, c), ident, "(x, x)",
                      "(op_max(a0, b0), op_min(a1, b1))", "a0 - a1", rdt,
                      helpers=_dedupe(hx + hn))


def _dedupe(srcs):
    seen, out = set(), []
    for s in srcs:
        if s not in seen:
            seen.add(s)
            out.append(s)
    return tuple(out)


def ptp(a, axis=None, out=None, keepdims=False):
    if out is not None:
        # NumPy's route: the maximum cast into ``out`` first, then ``out`` - the minimum
        from ..ufuncs import UFUNCS
        return UFUNCS["subtract"](max(a, axis, out=out, keepdims=keepdims),
                                  min(a, axis, keepdims=keepdims), out=out)
    return _drive(np.ptp, a, axis, out, keepdims, True, lambda dt, rdt, m: _ptp_spec(dt, rdt))


def count_nonzero(a, axis=None, *, keepdims=False):
    spec = lambda dt, rdt, m: ReduceSpec(("count_nonzero",), dt, (_I64,), ("int64(0)",),
                                         "int64(x != 0)", "a0 + b0", "a0", _I64)
    return _drive(np.count_nonzero, a, axis, None, keepdims, True, spec)


# ---- average -----------------------------------------------------------------------------------
def weights_are_valid(weights, a, axis):
    """NumPy's ``_weights_are_valid``: ``weights`` as an npgpu array broadcasting against ``a``
    (of ``a``'s shape, or of its lengths along the normalized ``axis`` tuple: then transposed
    to their order and given ones elsewhere)."""
    w = _r.as_array(weights)
    if a.shape != w.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.shape != tuple(a.shape[ax] for ax in axis):
            raise ValueError("Shape of weights must be consistent with shape of a along "
                             "specified axis.")
        w = w.transpose(tuple(int(i) for i in np.argsort(axis)))
        w = w.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))
    return w


def average(a, axis=None, weights=None, returned=False, *, keepdims=NoValue):
    """NumPy's steps: the mean, or the weighted sum over the sum of the weights (NumPy's
    result dtype, its zero-sum error after one read); ``returned`` adds that sum (or the
    count) broadcast to the average's shape."""
    from numpy.lib.array_utils import normalize_axis_tuple
    from .. import creation
    from ..ufuncs import UFUNCS
    a = _r.as_array(a)
    if axis is not None:
        axis = normalize_axis_tuple(axis, a.ndim, argname="axis")
    kd = {} if keepdims is NoValue else {"keepdims": keepdims}
    if weights is None:
        avg = mean(a, axis, **kd)
        scl = creation.full((), avg.dtype.type(a.size / avg.size), dtype=avg.dtype)
    else:
        w = weights_are_valid(weights, a, axis)
        rt = check_dtype(np.result_type(a.dtype, w.dtype, *((_F64,) if a.dtype.kind in "biu"
                                                             else ())))
        scl = sum(w, axis=axis, dtype=rt, **kd)
        if builtins.bool(any(scl == 0.0)):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = UFUNCS["true_divide"](sum(UFUNCS["multiply"](a, w, dtype=rt), axis, **kd), scl)
    if returned:
        if scl.shape != avg.shape:
            scl = _broadcast(scl, avg.shape).copy()
        return avg, scl
    return avg


def _broadcast(x, shape):
    st = _ew.broadcast_strides(x.shape, x._strides, shape)
    return x._view(0, tuple(shape), tuple(st))


# ---- diff -------------------------------------------------------------------------------------
_NE = _ew.ScalarOp.from_expr("diff_ne", 2, "x0 != x1")


def diff(a, n=1, axis=-1, prepend=NoValue, append=NoValue):
    from .. import creation
    from .._core import layout as _layout
    from ..ufuncs import UFUNCS
    if n == 0:
        return _r.as_array(a)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    a = _r.as_array(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = _layout.normalize_axis(axis, a.ndim)
    parts = []
    for extra in (prepend, append):
        if extra is NoValue:
            parts.append(None)
            continue
        shp = list(a.shape)
        shp[ax] = 1
        if np.isscalar(extra):
            e = creation.full(tuple(shp), extra, dtype=np.asarray(extra).dtype)
        else:
            e = _r.as_array(extra)
            if e.ndim == 0:
                e = _broadcast(e, tuple(shp))
        parts.append(e)
    if parts[0] is not None or parts[1] is not None:
        seq = [p for p in (parts[0], a, parts[1]) if p is not None]
        a = _concat(seq, ax)
    for _ in range(n):
        m = a.shape[ax]
        hi = _slice_axis(a, ax, 1, m)
        lo = _slice_axis(a, ax, 0, builtins.max(m - 1, 0))
        if a.dtype == _BOOL:
            ne = UFUNCS.get("not_equal")
            if ne is not None:
                a = ne(hi, lo)
            else:
                out = _r.empty_array(hi.shape, _BOOL)
                _ew.launch(_NE, [hi, lo], [_BOOL, _BOOL], [out], [_BOOL], name="diff")
                a = out
        else:
            a = UFUNCS["subtract"](hi, lo)
    return a


def _slice_axis(a, ax, start, stop):
    idx = [slice(None)] * a.ndim
    idx[ax] = slice(start, stop)
    return a[tuple(idx)]


def _concat(seq, ax):
    # concatenate's shape checks and messages, NumPy's (diff's own concatenate call)
    from ..manipulation import concatenate
    return concatenate(seq, axis=ax)


# ---- scans (implemented in .scan) ----------------------------------------------------------------
def cumsum(a, axis=None, dtype=None, out=None):
    return scan.cumulative("add", a, axis, dtype, out, np.cumsum)


def cumprod(a, axis=None, dtype=None, out=None):
    return scan.cumulative("multiply", a, axis, dtype, out, np.cumprod)


def nancumsum(a, axis=None, dtype=None, out=None):
    return _nan_scan("add", a, axis, dtype, out, np.nancumsum, 0)


def nancumprod(a, axis=None, dtype=None, out=None):
    return _nan_scan("multiply", a, axis, dtype, out, np.nancumprod, 1)


_NAN_FILL = {v: _ew.ScalarOp.from_expr(f"nan_to_{v}", 1, f"x0 if x0 == x0 else type(x0)({v})")
             for v in (0, 1)}


def _nan_scan(name, a, axis, dtype, out, np_func, fill):
    """A scan with NaN read as ``fill``: in the scan's loop (:func:`_nan_to`), or, where
    ``dtype=`` would lose the NaN before it (an integer dtype; a real one for complex data),
    first in the data's own dtype (NumPy replaces them before the cast)."""
    if dtype is not None:
        a = _r.as_array(a)
        dt = check_dtype(dtype)
        if a.dtype.kind in "fc" and (dt.kind not in "fc" or (a.dtype.kind == "c"
                                                             and dt.kind != "c")):
            clean = _r.empty_array(a.shape, a.dtype)
            _ew.launch(_NAN_FILL[fill], [a], [a.dtype], [clean], [a.dtype],
                       name=f"nan_to_{fill}")
            return scan.cumulative(name, clean, axis, dtype, out, np_func)
    return scan.cumulative(name, a, axis, dtype, out, np_func, pre=_nan_to(fill))


# ---- ndarray methods -------------------------------------------------------------------------------
# The functions themselves: as class attributes they bind the array to ``a`` (no wrapper call
# on the small-call path).
METHODS = {"sum": sum, "prod": prod, "min": min, "max": max, "argmin": argmin, "argmax": argmax,
           "mean": mean, "var": var, "std": std, "any": any, "all": all, "ptp": ptp,
           "cumsum": cumsum, "cumprod": cumprod}
