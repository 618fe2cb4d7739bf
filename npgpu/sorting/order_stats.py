"""Order statistics: median, percentile, quantile and their NaN-skipping variants.

Every call is the same three steps:

1. host: NumPy's argument checks and result dtype, from a dry run of the NumPy function on a
   one-element stand-in (:func:`_dry_run`); ``q`` comes to the host (one small read when it is
   a device array) and is validated and divided as NumPy does;
2. the reduced axes are moved last and merged: ``x`` of shape ``(rows, n)``, sorted along its
   rows (:func:`npgpu.sorting.sort`); or, for one long row, the few order statistics a call
   needs are found by a radix select instead of a sort (:mod:`.select`);
3. one kernel (:func:`_render`) computes each output ``(q, row)``: the row's count (the NaN
   sorted last are found by a binary search: no extra pass), NumPy's virtual index for the
   method (each step rounded to NumPy's dtype for it: the dtype of ``q``), the two neighbours
   and NumPy's ``_lerp`` in the result dtype (or the mean of the middle pair, for medians).

``weights=`` (``method='inverted_cdf'``): a stable argsort of the rows carries the weights
along, their float64 cumulative sums (the existing scan) form the CDF, and a kernel searches
it per ``(q, row)``.  Value-dependent errors (negative weights, weights summing to zero or
non-finite) come back in one small read before anything is written to ``out``.
"""

import warnings

import numpy as np

from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import copy as _copy
from .._core.layout import prod as _prod
from .._core.ndarray import empty_array, ndarray
from .. import creation

_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)

# method -> (result kind, virtual index).  "take": an index, the value itself (NumPy's
# ``take``); "lerp": NumPy's ``_lerp`` of two neighbours.  Virtual index sources: ``nV`` is the
# count and ``m1`` the count - 1, both of q's dtype; ``vr(x)`` rounds a step to q's dtype.
_ALPHA_BETA = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5),
               "weibull": (0.0, 0.0), "median_unbiased": (1 / 3.0, 1 / 3.0),
               "normal_unbiased": (3 / 8.0, 3 / 8.0)}
METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest")
_TAKE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")


def _sort_rows(x):
    from . import sort
    return sort(x, axis=-1)


# ---- the kernel ---------------------------------------------------------------------------------
class _Arith:
    """Source helpers for arithmetic that rounds each step to ``dt`` as NumPy's loops do
    (float16 steps are computed in float32 and rounded)."""

    def __init__(self, dt):
        self.dt = dt
        self.ct = _ew.type_name(_ew.compute_dtype(dt))       # type the steps compute in

    def r(self, expr):
        if self.dt == _F16:
            return f"{self.ct}(float16({expr}))"
        return f"{self.ct}({expr})"

    def c(self, value):
        """A Python float constant converted to ``dt`` (NumPy's weak scalar), on the host."""
        return f"{self.ct}({float(np.asarray(value).astype(self.dt))!r})"

    def cast(self, expr, src):
        """``expr`` of dtype ``src`` converted to ``dt`` (one rounding), in the compute type."""
        e = _ew.cast_expr(expr, src, self.dt)
        return f"{self.ct}({e})" if self.dt == _F16 else e


def _index_source(method, V, take_int):
    """Lines setting ``lo``, ``hi`` (int64 positions in the row's valid prefix of ``cnt``) and,
    for "lerp" methods, ``g`` (gamma, of q's dtype); ``q`` of q's dtype is loaded."""
    v = _Arith(V)
    r, c = v.r, v.c
    L = [f"nV = {r(f'{v.ct}(cnt)')}", f"m1 = {r(f'{v.ct}(cnt - 1)')}"]
    if take_int:                                    # linear with an integer q: an exact index
        return L + ["lo = int64(m1 * q)", "hi = lo"]
    if method == "inverted_cdf" or method == "closest_observation":
        # NumPy rounds n * q to q's dtype, then the difference (two roundings for float16)
        L.append(f"x = {r(r('nV * q') + ' - ' + c(1))}")
        if method == "closest_observation":
            L.append(f"x = {r(f'x - {c(0.5)}')}")
        L += ["p = int64(math.floor(x))", f"gm = {r(f'x - {v.ct}(p)')}",
              "odd = p % 2 == 1" if method == "closest_observation" else "odd = True",
              # NumPy's next index is floor + 1 in q's dtype (float16 rounds it)
              f"lo = p if (gm == 0 and odd) else int64({r(f'{v.ct}(p) + {c(1)}')})",
              "if lo < 0:", "    lo = 0", "hi = lo"]
        return L
    if method in ("lower", "higher", "nearest"):
        L.append(f"x = {r('m1 * q')}")
        if method == "lower":
            L.append("lo = int64(math.floor(x))")
        elif method == "higher":
            L.append("lo = int64(math.ceil(x))")
        else:                                       # np.around: halves to even
            L += ["lo = int64(math.floor(x))", f"fr = x - {v.ct}(lo)",
                  "if fr > 0.5 or (fr == 0.5 and lo % 2 != 0):", "    lo += 1"]
        return L + ["hi = lo"]
    if method == "linear":
        L.append(f"v = {r('m1 * q')}")
    elif method == "averaged_inverted_cdf":
        L.append(f"v = {r(r('nV * q') + ' - ' + c(1))}")
    elif method == "midpoint":
        fc = r(f"{v.ct}(math.floor(x)) + {v.ct}(math.ceil(x))")
        L += [f"x = {r('m1 * q')}", f"v = {r(c(0.5) + ' * ' + fc)}"]
    else:
        alpha, beta = _ALPHA_BETA[method]
        L += [f"t1 = {r('nV * q')}", f"t2 = {r(f'q * {c(1 - alpha - beta)}')}",
              f"t3 = {r(f'{c(alpha)} + t2')}", f"v = {r(r('t1 + t3') + ' - ' + c(1))}"]
    # NumPy's _get_indexes and _get_gamma: the neighbours, clamped; gamma from the clamped
    # previous index (a float64 difference rounded to q's dtype)
    L += ["lo = int64(math.floor(v))", f"hi = int64({r(f'{v.ct}(lo) + {c(1)}')})",
          f"if v >= {v.ct}(cnt - 1):", "    lo = -1", "    hi = -1",
          "if v < 0:", "    lo = 0", "    hi = 0",
          "gd = float64(v) - float64(lo)"]
    if method == "averaged_inverted_cdf":
        L.append(f"g = {c(0.5)} if gd == 0.0 else {c(1.0)}")
    elif method == "midpoint":
        L.append(f"g = {c(0.0)} if v == {v.ct}(math.floor(v)) else {c(0.5)}")
    else:
        L.append(f"g = {r('gd')}")
    L += ["if lo < 0:", "    lo = cnt - 1", "if hi < 0:", "    hi = cnt - 1"]
    return L


def _combine_source(kind, A, V, R):
    """Lines computing ``res`` (of R's compute type) from ``a``/``b`` (the values at lo/hi)."""
    rt = _Arith(R)
    if kind == "take":
        return [f"res = {_ew.cast_expr('a', A, _ew.compute_dtype(R))}"]
    if kind == "median":
        # NumPy's mean of the middle one or two: sum and division in the mean's dtype M
        # (complex stays complex: NumPy's median of complex numbers is complex)
        M = A if A.kind == "c" else _F32 if A.kind == "f" and A.itemsize <= 4 else _F64
        ma = _Arith(M)
        am, bm = _ew.cast_expr("a", A, M), _ew.cast_expr("b", A, M)
        if A.kind == "f":
            # NumPy's mean sums from its identity +0.0: a median of -0.0 values is +0.0
            am = ma.r(f"{am} + {ma.c(0)}")
        two = f"{ma.ct}(2.0)" if A.kind == "c" else ma.c(2)
        mean2 = ma.r(ma.r(f"{am} + {bm}") + " / " + two)
        return ["if lo == hi:", f"    res = {rt.r(am)}", "else:", f"    res = {rt.r(mean2)}"]
    # NumPy's _lerp: diff in A's dtype, then a + diff*t, or b - diff*(1 - t) where t >= 0.5;
    # every operand converted to R first (NumPy's promotion), each step rounded to R
    at, vt = _Arith(A), _Arith(V)
    cV = _ew.compute_dtype(V)
    d = _ew.cast_expr(at.r("b - a") if A.kind == "f" else "b - a", A, A)
    return [f"d = {rt.cast(d, A)}",
            f"tR = {rt.cast('g', cV)}",
            f"res = {rt.r(rt.cast('a', A) + ' + ' + rt.r('d * tR'))}",
            "if g >= 0.5:",
            f"    omt = {rt.cast(vt.r(vt.c(1) + ' - g'), cV)}",
            f"    res = {rt.r(rt.cast('b', A) + ' - ' + rt.r('d * omt'))}"]


def _render(method, A, V, R, nan_skip, source, take_int=False):
    """The order-statistic kernel: one thread per output ``t = qi * rows + row``.

    source: "sort" (values at S[row, i] of the sorted rows), "select" (the one row's values at
    the ranks a "plan" launch asked for, in T[2 qi], T[2 qi + 1]; the NaN count in NANC[0]) or
    "plan" (writes those ranks).  method "median": no q; the mean of the middle one or two."""
    kind = "median" if method == "median" else "take" if (method in _TAKE or take_int) else "lerp"
    fl = A.kind in "fc"          # kinds with NaN (complex: NaN in either part sorts last)
    args, params = [], []
    if source == "sort":
        args.append("S"), params.append(Param("array", A, 2, "C"))
    elif source == "select":
        args.append("T"), params.append(Param("array", A, 1, "C"))
    if method != "median":
        args.append("Q"), params.append(Param("array", V, 1, "C"))
    if source == "plan":
        args.append("RK"), params.append(Param("array", _I64, 1, "C"))
    else:
        args.append("OUT"), params.append(Param("array", R, 1, "C"))
    if source != "sort":
        args.append("NANC"), params.append(Param("array", _I64, 1, "C"))
    args += ["n", "rows", "total"]
    params += [Param("scalar", _I64)] * 3
    L = [f"def KERNEL({', '.join(args)}):",
         "    t = cuda.grid(1)", "    step = cuda.gridsize(1)", "    while t < total:",
         "        qi = t // rows", "        row = t - qi * rows", "        cnt = n",
         "        bad = False"]
    P = "        "
    # float16 values are read as float32 (exact): Numba's own float16 comparisons and
    # arithmetic call cuda_fp16 functions that npgpu's link step does not include
    ld = "float32({})" if A == _F16 else "{}"
    if fl and source == "sort":
        if nan_skip:        # NaN sort last: the valid prefix ends at the first NaN
            L += [P + s for s in ("lo = int64(0)", "hi = n", "while lo < hi:",
                                  "    mid = (lo + hi) // 2",
                                  "    sm = " + ld.format("S[row, mid]"), "    if sm != sm:",
                                  "        hi = mid", "    else:", "        lo = mid + 1",
                                  "cnt = lo", "bad = cnt == 0")]
        else:
            L += [P + "sl = " + ld.format("S[row, n - 1]"), P + "bad = sl != sl"]
    elif fl:
        L.append(P + ("cnt = n - NANC[0]\n" + P + "bad = cnt == 0" if nan_skip
                      else "bad = NANC[0] > 0"))
    L.append(P + "if bad:")
    if source == "plan":
        L += [P + "    RK[2 * qi] = 0", P + "    RK[2 * qi + 1] = 0"]
    elif R.kind == "c" and source == "sort" and not nan_skip:
        # NumPy's median of complex with a NaN is the NaN element that sorts last
        L.append(P + "    OUT[t] = " + _ew.cast_expr("S[row, n - 1]", A, R))
    elif R.kind in "fc":
        nan = "math.nan" if R.kind == "f" else "complex(math.nan, 0.0)"
        L.append(P + f"    OUT[t] = {_ew.type_name(R)}({nan})")
    else:
        L.append(P + "    pass")
    L.append(P + "else:")
    P2 = P + "    "
    if method == "median":
        L += [P2 + "lo = (cnt - 1) // 2", P2 + "hi = cnt // 2"]
    else:
        L.append(P2 + "q = Q[qi]" if V != _F16 else P2 + "q = float32(Q[qi])")
        L += [P2 + s for s in _index_source(method, V, take_int)]
        L += [P2 + "if lo > cnt - 1:", P2 + "    lo = cnt - 1",
              P2 + "if hi > cnt - 1:", P2 + "    hi = cnt - 1"]
    if source == "plan":
        L += [P2 + "RK[2 * qi] = lo", P2 + "RK[2 * qi + 1] = hi"]
    else:
        if source == "sort":
            L += [P2 + "a = " + ld.format("S[row, lo]"), P2 + "b = " + ld.format("S[row, hi]")]
        else:
            L += [P2 + "a = " + ld.format("T[2 * qi]"), P2 + "b = " + ld.format("T[2 * qi + 1]")]
        L += [P2 + s for s in _combine_source(kind, A, V, R)]
        L.append(P2 + f"OUT[t] = {_ew.cast_expr('res', _ew.compute_dtype(R), R)}")
    L.append(P + "t += step")
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"order_stat_{source}", text)
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _arr(x):
    return _ew._arr_values(x._ptr, x.shape, x._strides, x.itemsize)


def launch(method, A, V, R, nan_skip, source, arrays, n, rows, total, take_int=False):
    """Run the kernel of :func:`_render` over ``total`` outputs; ``arrays`` in its order."""
    key = ("order_stat", method, A, V, R, nan_skip, source, take_int)
    kern = compiler.get_kernel(key, lambda: _render(method, A, V, R, nan_skip, source,
                                                    take_int))
    values = []
    for x in arrays:
        values += _arr(x)
    values += [n, rows, total]
    grid, block = _ew._grid(total, 1)
    kern(grid, block, values)


# ---- the weighted kernel (method='inverted_cdf', weights=) ------------------------------------
def _render_weighted(A, V, nan_skip):
    """One thread per output ``(qi, row)``: NumPy's weighted inverted CDF.  S: the sorted rows,
    C: float64 cumulative sums of their weights.  The CDF ``C / C[cnt - 1]`` (cast to q's dtype
    when q is a float; zeros read as -1, so leading zero weights are skipped) is searched for
    the first entry >= q.  FLAG[0] is set when a row's weights sum to zero or a non-finite value
    (NumPy raises then)."""
    fl = A.kind in "fc"          # kinds with NaN (complex: NaN in either part sorts last)
    qa = _Arith(V) if V.kind == "f" else _Arith(_F64)
    L = ["def KERNEL(S, C, Q, OUT, FLAG, n, rows, total):",
         "    t = cuda.grid(1)", "    step = cuda.gridsize(1)", "    while t < total:",
         "        qi = t // rows", "        row = t - qi * rows", "        cnt = n",
         "        bad = False"]
    P = "        "
    nan_out = f"OUT[t] = {_ew.type_name(A)}(math.nan)" if fl else "pass"
    ld = "float32({})" if A == _F16 else "{}"        # as in _render: no float16 operators
    if fl and nan_skip:
        L += [P + s for s in ("lo = int64(0)", "hi = n", "while lo < hi:",
                              "    mid = (lo + hi) // 2",
                                  "    sm = " + ld.format("S[row, mid]"), "    if sm != sm:",
                              "        hi = mid", "    else:", "        lo = mid + 1",
                              "cnt = lo")]
    elif fl:
        L += [P + "sl = " + ld.format("S[row, n - 1]"), P + "bad = sl != sl"]
    L += [P + "if cnt == 0:", P + "    " + nan_out, P + "else:"]
    P2 = P + "    "
    L += [P2 + s for s in (
        "tot = C[row, cnt - 1]",
        "if not (tot != 0.0 and tot - tot == 0.0):", "    FLAG[0] = 1",
        "if bad:", "    " + nan_out, "else:",
        f"    q = {qa.ct}(Q[qi])", "    lo = int64(0)", "    hi = cnt", "    while lo < hi:",
        "        mid = (lo + hi) // 2", f"        c = {qa.r('C[row, mid] / tot')}",
        "        if c == 0:", "            c = -1", "        if c >= q:", "            hi = mid",
        "        else:", "            lo = mid + 1", "    if lo > cnt - 1:", "        lo = cnt - 1",
        "    OUT[t] = S[row, lo]")]
    L.append(P + "t += step")
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name("order_stat_weighted", text)
    params = [Param("array", A, 2, "C"), Param("array", _F64, 2, "C"), Param("array", V, 1, "C"),
              Param("array", A, 1, "C"), Param("array", _I32, 1, "C")] + \
        [Param("scalar", _I64)] * 3
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


# ---- host side: checks, dtypes, layout --------------------------------------------------------
def _host(x):
    """A host NumPy value of ``x`` (a device array costs one read)."""
    return x.get() if isinstance(x, ndarray) else x


def _q_valid(q):
    # NumPy's _quantile_is_valid, including its loop for short 1-d q
    if q.ndim == 1 and q.size < 10:
        return all(0.0 <= q[i] <= 1.0 for i in range(q.size))
    return bool(q.min() >= 0 and q.max() <= 1)


def _prepare_q(q, percent):
    """(weak, q as given on the host, q divided and validated) -- NumPy's steps."""
    weak = type(q) in (int, float)
    q0 = _host(q)
    if percent:
        qh = np.asanyarray(np.true_divide(q0, 100))
        if not _q_valid(qh):
            raise ValueError("Percentiles must be in the range [0, 100]")
    else:
        qh = np.asanyarray(q0)
        if not _q_valid(qh):
            raise ValueError("Quantiles must be in the range [0, 1]")
    if qh.dtype == object:          # Fraction or Decimal q: NumPy computes in object dtype
        raise TypeError(f"npgpu does not support dtype object (from {type(q0).__name__})")
    return weak, q0, qh


_dtypes = {}      # dry-run signature -> result dtype (a repeat call skips NumPy's dry run)


def _result_dtype(np_func, a, args, kw, weak, qh):
    """NumPy's remaining argument errors and the result dtype, from NumPy's own function on a
    one-element stand-in.  Neither depends on the values of a or q: a repeat of a signature
    answers from :data:`_dtypes`."""
    w = kw.get("weights")
    try:
        sig = (np_func, a.dtype, _standin_shape(a.shape), kw.get("axis"), kw.get("method"),
               kw.get("keepdims"), weak, None if qh is None else (qh.dtype, qh.shape),
               None if w is None else (w.dtype, w.shape))
        hash(sig)
    except TypeError:                 # an unhashable axis: no caching
        sig = None
    R = _dtypes.get(sig) if sig is not None else None
    if R is None:
        skw = dict(kw)
        if w is not None:
            skw["weights"] = np.ones(_standin_shape(w.shape), w.dtype)
        R = np.asarray(np_func(np.zeros(_standin_shape(a.shape), a.dtype), *args, **skw)).dtype
        if sig is not None:
            _dtypes[sig] = R
    return R


def _standin_shape(shape):
    return tuple(min(d, 1) for d in shape)


def _layout(a, axis):
    """(axes reduced, rows x n view or copy of ``a``, kept shape with keepdims ones)."""
    from numpy.lib.array_utils import normalize_axis_tuple
    nd = a.ndim
    axes = tuple(range(nd)) if axis is None else tuple(sorted(normalize_axis_tuple(axis, nd)))
    kept = [i for i in range(nd) if i not in axes]
    rows = int(np.prod([a.shape[i] for i in kept], dtype=np.int64))
    n = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
    x = a.transpose(kept + list(axes)) if nd else a
    x = x.reshape((rows, n))
    kd_shape = tuple(1 if i in axes else a.shape[i] for i in range(nd))
    return axes, kept, x, kd_shape


def _check_out_shape(np_func, a, args, kw, out, shape, kd_shape):
    """An ``out=`` of another shape than the result: NumPy's own error for it (a dry run on a
    zero-stride host stand-in of ``a``), or nothing where NumPy broadcasts the result into it.
    The stand-in keeps one or two elements along the reduced axes, as many as the middle of
    ``a``'s reduced length (the parity NumPy's median branches on; its message names that
    shape), so NumPy's run costs the size of the result, not of ``a``; with ``weights``
    (whose shape must match ``a``'s) it is ``a``'s shape."""
    if out.shape == shape:
        return
    kw = dict(kw)
    stand = a.shape
    reduced = [i for i in range(a.ndim) if a.shape[i] != kd_shape[i]]
    if a.size and reduced:
        stand = list(kd_shape)
        n = a.size // _prod(kd_shape)
        stand[reduced[-1]] = 2 if n % 2 == 0 else 1
        stand = tuple(stand)
    if kw.get("weights") is not None:
        w = kw["weights"]
        kw["weights"] = np.broadcast_to(np.ones((), w.dtype), w.shape)
        stand = a.shape
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        np_func(np.broadcast_to(np.zeros((), a.dtype), stand), *args,
                out=np.zeros(out.shape, out.dtype), **kw)


def _finish(res, q_shape, a, kept, kd_shape, keepdims, out):
    shape = tuple(q_shape) + (kd_shape if keepdims else tuple(a.shape[i] for i in kept))
    res = res.reshape(shape)
    if out is None:
        return res
    if not isinstance(out, ndarray):
        raise TypeError("out must be an npgpu array")
    target = out
    if out.shape != shape:
        # (an out NumPy takes, _check_out_shape having run its own checks): with keepdims
        # NumPy writes at index 0 of out's reduced axes, and broadcasts the result into it
        if keepdims:
            target = out[(Ellipsis,) + tuple(slice(None) if i in kept else 0
                                             for i in range(a.ndim))]
            res = res.reshape(tuple(q_shape) + tuple(a.shape[i] for i in kept))
        if np.broadcast_shapes(target.shape, res.shape) != target.shape:
            raise ValueError(f"output parameter has shape {out.shape}, expected {shape}")
    _copy.copy_into(target, res)
    return out


def _empty(np_func, a, args, kw, out):
    """An empty input: NumPy's own answer (NaN with its warnings, or its error) -- a host
    computation on no data."""
    kw = {k: (_host(v) if k == "weights" and v is not None else v) for k, v in kw.items()}
    res = np.asarray(np_func(np.empty(a.shape, a.dtype), *args, **kw))
    d = creation.asarray(res)
    if out is None:
        return d
    _copy.copy_into(out, d)
    return out


def _weights_layout(w, a, axes_given, x_perm, rows, n):
    """NumPy's _weights_are_valid, then the weights laid out as the rows of ``x``."""
    from ..reductions.functions import weights_are_valid
    w = weights_are_valid(w, a, axes_given)
    if w.shape != a.shape:
        w = w._view(0, a.shape, tuple(_ew.broadcast_strides(w.shape, w._strides, a.shape)))
    wx = w.transpose(x_perm) if w.ndim else w
    return wx.reshape((rows, n))


def _order_stat(np_func, a, q, axis, out, method, keepdims, weights, percent, nan_skip):
    from numpy.lib.array_utils import normalize_axis_tuple
    a = creation.asarray(a)
    if keepdims is np._NoValue:
        keepdims = False
    if q is _MEDIAN:                                       # median / nanmedian
        weak, q0, qh = False, None, None
        args, kw = (), {"axis": axis, "keepdims": keepdims}
    else:
        if a.dtype.kind == "c":
            raise TypeError("a must be an array of real numbers")
        weak, q0, qh = _prepare_q(q, percent)
        args = (q if weak else q0,)
        kw = {"axis": axis, "method": method, "keepdims": keepdims}
    axes_given = None
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
        if axis is not None:
            axes_given = normalize_axis_tuple(axis, a.ndim, argname="axis")
        weights = creation.asarray(weights)
        kw["weights"] = weights
    if a.size == 0:
        return _empty(np_func, a, args, kw, out)
    # NumPy's remaining argument errors and the result dtype, on a one-element stand-in
    R = _result_dtype(np_func, a, args, kw, weak, qh)
    if out is not None and np_func in (np.quantile, np.percentile) and method not in (
            "inverted_cdf", "closest_observation", "lower", "higher", "nearest"):
        # NumPy's quantile adds into out= under same_kind casting (its nan* forms and median
        # copy): its own error for an output that cannot take the result's dtype
        with np.errstate(all="ignore"):
            np.add(np.zeros((), R), np.zeros((), R), out=np.empty((), getattr(out, "dtype", R)))
    if (out is not None and weights is None and np_func in (np.quantile, np.percentile)
            and method in ("closest_observation", "lower", "higher", "nearest",
                           "inverted_cdf")
            and not np.can_cast(getattr(out, "dtype", R), a.dtype, "safe")):
        # NumPy takes these methods' elements straight into out= (safe casting to the
        # data's dtype): its error for an output the data's dtype cannot stand for
        what = "scalar" if getattr(out, "ndim", 1) == 0 else "array data"
        raise TypeError(f"Cannot cast {what} from {out.dtype!r} to {a.dtype!r} according to "
                        "the rule 'safe'")
    axes, kept, x, kd_shape = _layout(a, axis)
    if isinstance(out, ndarray):
        _check_out_shape(np_func, a, args, kw, out, (() if qh is None else qh.shape)
                         + (kd_shape if keepdims else tuple(a.shape[i] for i in kept)), kd_shape)
    rows, n = x.shape
    A = a.dtype
    nan_skip = nan_skip and A.kind in "fc"
    if qh is None:
        q_shape, nq, V, take_int, meth = (), 1, _F64, False, "median"
    else:
        q_shape, nq = qh.shape, max(qh.size, 1) if qh.ndim else 1
        V = qh.dtype if qh.dtype.kind == "f" else _F64
        take_int = qh.dtype.kind != "f" and method == "linear"
        meth = method
        if qh.size == 0:
            return _finish(empty_array((0,), R), q_shape, a, kept, kd_shape,
                           keepdims, out)
        Q = creation.asarray(np.ascontiguousarray(qh.reshape(-1), dtype=V))
    total = nq * rows
    res = empty_array((total,), R)
    S = None
    if weights is not None:
        S = _weighted(x, weights, a, axes_given, kept, axes, Q, res, nan_skip)
    else:
        from . import select as _select
        if not _select.try_select(meth, x, None if qh is None else Q, res, A, V, R, nan_skip,
                                  take_int):
            S = _sort_rows(x)
            launch(meth, A, V, R, nan_skip, "sort", [S] + ([] if qh is None else [Q]) + [res],
                   n, rows, total, take_int)
    if nan_skip and R.kind == "c" and (not kept or n >= 600):
        _all_nan_slices(x, S, res)
    _out_cast_check(x, out, R, nan_skip, scalar=not kept)
    return _finish(res, q_shape, a, kept, kd_shape, keepdims, out)


def _all_nan_slices(x, S, res):
    """The complex medians of all-NaN slices as NumPy's one-row path gives them (a result of no
    kept axes, or rows of 600 or more): the row's last element in input order (the kernel
    wrote NaN+0j, the value of NumPy's masked path), on the device.  ``S``: the sorted rows,
    NaN last, so a row starting with one is all NaN.  (NumPy's RuntimeWarning "All-NaN slice
    encountered" is not given: knowing of such a slice takes a device-to-host read a call.)"""
    from ..logic import where
    from ..ufuncs import UFUNCS
    res[...] = where(UFUNCS["isnan"](S[:, 0]), x[:, -1], res)


def _out_cast_check(x, out, R, nan_skip, scalar):
    """NumPy's casts into ``out``: a complex result into a real ``out`` warns (ComplexWarning);
    NumPy copies the NaN of a slice holding one into ``out`` under same_kind casting (not
    the nan* forms, which skip them): its error for an ``out`` that cannot take the data's
    dtype so (an integer ``out`` for float data; "scalar" where the result has no kept axes).
    One read, only for such an ``out``.
    (NumPy's data-dependent result dtypes for NaN are not followed: docs/order_stats.md.)"""
    from ..reductions.functions import has_nan
    if not isinstance(out, ndarray):
        return
    A = x.dtype
    if R.kind == "c" and out.dtype.kind != "c":
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=4)
    if (A.kind in "fc" and x.size and not nan_skip
            and not np.can_cast(A, out.dtype, "same_kind") and has_nan(x)):
        what = "scalar" if scalar else "array data"
        raise TypeError(f"Cannot cast {what} from {A!r} to {out.dtype!r} according to "
                        "the rule 'same_kind'")


def _weighted(x, weights, a, axes_given, kept, axes, Q, res, nan_skip):
    from ..indexing.routines import take_along_axis
    from ..reductions.functions import any as _any, cumsum
    from ..ufuncs import UFUNCS
    from . import argsort
    rows, n = x.shape
    wx = _weights_layout(weights, a, axes_given, kept + list(axes), rows, n)
    neg = _any(UFUNCS["less"](weights, 0))
    order = argsort(x, axis=-1)
    S = take_along_axis(x, order, -1)
    C = cumsum(take_along_axis(wx, order, -1), axis=-1, dtype=_F64)
    flag = creation.zeros((2,), _I32)
    A, V = x.dtype, Q.dtype
    key = ("order_stat_weighted", A, V, nan_skip)
    kern = compiler.get_kernel(key, lambda: _render_weighted(A, V, nan_skip))
    total = res.size
    values = []
    for arr in (S, C, Q, res, flag):
        values += _arr(arr)
    values += [n, rows, total]
    grid, block = _ew._grid(total, 1)
    kern(grid, block, values)
    _copy.copy_into(flag[1:], neg)
    host = flag.get()                                    # the one read
    if host[1]:
        raise ValueError("Weights must be non-negative.")
    if host[0]:
        raise ValueError("Weights included NaN, inf or were all zero.")
    return S


# ---- the public functions ---------------------------------------------------------------------
_MEDIAN = object()          # the "q" of median and nanmedian (q=None is quantile's error)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return _order_stat(np.median, a, _MEDIAN, axis, out, None, keepdims, None, False, False)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=np._NoValue):
    return _order_stat(np.nanmedian, a, _MEDIAN, axis, out, None, keepdims, None, False, True)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False,
             *, weights=None):
    return _order_stat(np.quantile, a, q, axis, out, method, keepdims, weights, False, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None):
    return _order_stat(np.percentile, a, q, axis, out, method, keepdims, weights, True, False)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=np._NoValue, *, weights=None):
    return _order_stat(np.nanquantile, a, q, axis, out, method, keepdims, weights, False, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=np._NoValue, *, weights=None):
    return _order_stat(np.nanpercentile, a, q, axis, out, method, keepdims, weights, True, True)
