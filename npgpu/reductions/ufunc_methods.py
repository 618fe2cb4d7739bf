"""``ufunc.reduce`` / ``ufunc.accumulate`` / ``ufunc.reduceat`` for every binary ufunc.

The combine of the reduction (or scan) is the ufunc's own scalar op from the
ufunc table (:func:`combine_op`), so a new table row gets these methods for
free.  Reorderable ufuncs (NumPy's notion: add, maximum, logical_and, ...)
reduce by trees and scan in parallel; the others (subtract, power, arctan2,
...) fold in order along the axis, in parallel across the other axes.
"""
import copy

import numpy as np

from .._codegen.elementwise import compute_dtype
from .._core import copy as _copy
from .._core.dtypes import check_dtype
from . import reduce as _r
from .template import ReduceSpec, as_input, literal

# Identities for reorderable ufuncs NumPy gives none: values every element beats.
_SENTINEL = {
    "maximum": {"f": -np.inf, "c": complex(-np.inf, -np.inf), "i": "min", "u": 0, "b": False},
    "minimum": {"f": np.inf, "c": complex(np.inf, np.inf), "i": "max", "u": "max", "b": True},
    "fmax": {"f": np.nan, "c": complex(np.nan, np.nan), "i": "min", "u": 0, "b": False},
    "fmin": {"f": np.nan, "c": complex(np.nan, np.nan), "i": "max", "u": "max", "b": True},
}


def ufunc_by_name(name):
    """The npgpu ufunc called ``name`` (the ufuncs package fills its table at import)."""
    from ..ufuncs import UFUNCS
    return UFUNCS[name]


def combine_op(name, dt, uf=None):
    """The ScalarOp ``op(x0, x1)`` of ufunc ``name`` (or ``uf``: scipy.special's ufuncs are in
    no by-name table) for loop dtype ``dt`` (its table row)."""
    from ..ufuncs import UFUNCS
    uf = uf if uf is not None else UFUNCS.get(name)
    if uf is None:
        raise TypeError(f"ufunc '{name}' is not available on the GPU")
    try:
        return uf._op_for((dt, dt))          # the ufunc's own loop lookup
    except TypeError:
        raise TypeError(f"ufunc '{name}' has no GPU loop for dtype {dt}") from None


def sentinel(name, dt):
    s = _SENTINEL[name][dt.kind]
    if s == "min":
        return np.iinfo(dt).min
    if s == "max":
        return np.iinfo(dt).max if dt.kind in "iu" else True
    return s


_REORDER = {}


def declare_ordered(names):
    """Reductions of the ufuncs named ``names`` fold in order, never as a tree (SciPy's binary
    ufuncs: NumPy's multi-axis test below would call those with an identity reorderable)."""
    _REORDER.update({name: False for name in names})


def reorderable(np_uf):
    """NumPy's answer: may this ufunc's reduction be reordered (multi-axis, trees)?"""
    r = _REORDER.get(np_uf.__name__)
    if r is None:
        r = False
        for t in np_uf.types:
            ins, outs = t.split("->")
            if len(set(ins + outs)) == 1:
                try:
                    np_uf.reduce(np.zeros((1, 1), ins[0]), axis=(0, 1))
                    r = True
                except (ValueError, TypeError):
                    r = False
                break
        _REORDER[np_uf.__name__] = r
    return r


def identity_value(uf, dt):
    """The identity the reduction starts from, or None."""
    if uf.__name__ in _SENTINEL:
        return sentinel(uf.__name__, dt)
    ident = uf._np.identity
    if ident is None:
        return None
    return ident


_SPECS = {}


def reduce_spec(uf, dt, scan=False):
    """ReduceSpec of ``uf.reduce`` with loop dtype ``dt`` (cached: callers copy before changing it).

    ``scan``: the spec of a scan (``accumulate``, cumsum): sums keep their own precision there,
    as NumPy's and PyTorch's float32 cumsum do -- every partial sum is an output in that
    precision anyway, and a 4-byte state takes the look-back scan's one-word status."""
    key = (uf.__name__, dt, scan)
    r = _SPECS.get(key)
    if r is None:
        r = _SPECS[key] = _reduce_spec(uf, dt, wide=not scan)
    return r


# Sums of single-precision data accumulate in double precision: free on a
# bandwidth-bound kernel, and more accurate than NumPy's pairwise float32 sum.
_WIDE_SUM = {np.dtype(np.float32): np.dtype(np.float64), np.dtype(np.complex64): np.dtype(np.complex128)}


def _reduce_spec(uf, dt, wide=True):
    op = combine_op(uf.__name__, dt, uf)
    cdt = compute_dtype(dt)
    if uf.__name__ == "add" and wide:
        cdt = _WIDE_SUM.get(cdt, cdt)
    ident = identity_value(uf, dt)
    if uf.__name__ == "add" and not wide and cdt.kind in "fc":
        # a scan's identity only pads partial states (never an output): -0.0 is the exact
        # one (x + -0.0 == x for every x, -0.0 included), so a run of -0.0 keeps its sign
        ident = complex(-0.0, -0.0) if cdt.kind == "c" else -0.0
    reorder = reorderable(uf._np)
    ident_src = literal(ident if ident is not None else 0, cdt)
    return ReduceSpec(("ufunc", uf.__name__, op.key), dt, (cdt,), (ident_src,), "x",
                      "op(a0, b0)", "a0", dt, helpers=tuple(op.helpers) + (op.source,),
                      reorderable=reorder), ident is not None


def with_initial(spec, uf, init):
    """``spec`` for a reduction given ``initial=``: a float sum's states start from -0.0, the
    exact identity (x + -0.0 == x), so that -0.0 summed onto initial=-0.0 stays -0.0 as in
    NumPy's loop, which starts from the initial (without one, NumPy's sums start from +0.0)."""
    if init is None or uf.__name__ != "add" or spec.state[0].kind not in "fc":
        return spec
    spec = copy.copy(spec)
    spec.identity = (literal(complex(-0.0, -0.0) if spec.state[0].kind == "c" else -0.0,
                             spec.state[0]),)
    return spec


_NEG_POWER = "Integers to negative integer powers are not allowed."


def check_power_exponents(uf, a, dt, ax, first=1, mask=None, segments=None):
    """NumPy's integer power loop raises on a negative exponent among the elements it computes.

    A fold along axis ``ax`` raises every element from ``first`` on to the running power (1, or
    0 after an initial value), only where ``mask`` is set; reduceat folds each of its
    ``segments`` (start indices) from its start on.  Exponents are ``a`` cast to the loop dtype ``dt``; an
    unsigned or bool array that casts safely has none below zero.  Costs one reduction and one
    scalar read (which synchronises), as the plain call's check does."""
    if uf.__name__ != "power" or dt.kind != "i" or a.size == 0:
        return
    if a.dtype.kind in "bu" and np.can_cast(a.dtype, dt, "safe"):
        return
    from .._core.ndarray import _ops
    lead = (slice(None),) * ax
    if segments is not None:
        # a segment's elements after its first (a segment idx[i] >= idx[i+1] is one element)
        bounds = [int(i) for i in segments] + [a.shape[ax]]
        pos = sorted({j for lo, hi in zip(bounds, bounds[1:]) for j in range(lo + 1, hi)})
        if not pos:
            return
        e = a[lead + (np.asarray(pos, np.int64),)]
    else:
        e = a[lead + (slice(first, None),)] if first else a
        if e.size == 0:
            return
    if e.dtype != dt:
        e = e.astype(dt)
    if mask is not None:
        bad = _ops["any"](_ops["logical_and"](_ops["less"](e, 0), mask)).item()
    else:
        bad = _ops["min"](e).item() < 0
    if bad:
        raise ValueError(_NEG_POWER)


def _loop_dtype(uf, a, axis, dtype, out, keepdims, initial, where):
    kw = {"axis": axis, "keepdims": keepdims}
    if dtype is not None:
        kw["dtype"] = dtype
    if initial is not _r.NoValue:
        kw["initial"] = initial
    res = _r.dry_run(uf._np.reduce, a, kw, where=None if where is None else True, out=out)
    if dtype is not None:
        return check_dtype(dtype)
    if out is not None:
        o = out[0] if isinstance(out, tuple) else out
        return check_dtype(_out_loop_dtype(uf, a.dtype, o.dtype))
    return check_dtype(res.dtype)


def initial_value(initial, out, dt):
    """``initial=`` as NumPy uses it: stored into ``out`` first (so cast to its dtype: 1.7
    into an int64 ``out`` starts the sum at 1), then in the loop's dtype."""
    v = np.asarray(initial)
    if out is not None:
        with np.errstate(all="ignore"):
            v = v.astype(out.dtype)
    return v.astype(compute_dtype(dt))[()]


def _out_loop_dtype(uf, adt, odt):
    """NumPy's loop for a reduction into ``out=`` without ``dtype=``: the ufunc's loop for the
    operands (out, array), so float64 summed into an int32 ``out`` adds in float64, then casts."""
    try:
        return uf._np.resolve_dtypes((odt, adt, None))[0]
    except (TypeError, ValueError):     # no such loop: NumPy's dry run has raised before this
        return odt


def ufunc_reduce(uf, array, axis=0, dtype=None, out=None, keepdims=False, initial=_r.NoValue,
                 where=True):
    if uf.nin != 2 or uf.nout != 1:
        raise ValueError("reduce only supported for binary functions")
    a = _r.as_array(array)
    out = _r.single_out(out)
    mask = _r.where_mask(where, a.shape)
    dt = _loop_dtype(uf, a, axis, dtype, out, keepdims, initial, mask)
    axes = _r.reduce_axes(axis, a.ndim)
    spec, _ = reduce_spec(uf, dt)
    init = None if initial is _r.NoValue or initial is None else \
        initial_value(initial, out, dt)
    spec = with_initial(spec, uf, init)
    seed_first = not spec.reorderable and init is None and uf._np.identity is None
    if len(axes) == 1:
        check_power_exponents(uf, a, dt, axes[0], first=int(init is None), mask=mask)
    shape = _r.result_shape(a.shape, axes, keepdims)
    res = _r.prepare_out(out, shape, dt)
    target = res
    if out is not None and (_copy.may_overlap(res, a) or
                            (mask is not None and _copy.may_overlap(res, mask))):
        target = _r.empty_array(shape, res.dtype)
    _r.run(spec, a, axes, target, keepdims=keepdims, mask=mask, initial=init,
           seed_first=seed_first)
    if target is not res:
        _copy.copy_into(res, target)
    return res


# ---- reduceat ------------------------------------------------------------------------------------
def _render_reduceat(spec, nk, in_storage, out_storage):
    """Thread per (row, segment): fold the segment in order (NumPy's reduceat rules)."""
    import hashlib

    from .._codegen.compiler import KernelSource, Param
    from .._codegen.elementwise import cast_expr
    from . import template as _t

    kd = [f"k{d}_" for d in range(nk)]
    kidx = "".join(f"{k}, " for k in kd)

    def load(j):
        return f"red_pre_t({as_input(spec, f'in0[{kidx}{j}]', in_storage)}, int64(0))"

    od = spec.out_dtype
    store = cast_expr(cast_expr("red_post(s, int64(0))", compute_dtype(od), od), od, out_storage)
    L = ["def KERNEL(nrow, nseg, m, out0, in0, idx):",
         "    t = int64(cuda.grid(1))",
         "    gs = int64(cuda.gridsize(1))",
         "    while t < nrow * nseg:",
         "        row = t // nseg",
         "        seg = t - row * nseg"]
    L += _t._decompose("row", kd, "in0", 0, "        ")
    L += ["        lo = idx[seg]",
          "        hi = m",
          "        if seg + 1 < nseg:",
          "            hi = idx[seg + 1]",
          f"        s = {load('lo')}",
          "        j = lo + 1",
          "        while j < hi:",
          f"            s = red_comb_t(s, {load('j')})",
          "            j += 1",
          f"        out0[{kidx}seg] = {store}",
          "        t += gs"]
    text = spec.device_source() + "\n\n" + "\n".join(L) + "\n"
    name = f"reduceat_{hashlib.sha1(text.encode()).hexdigest()[:10]}"
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", np.int64)] * 3 + [Param("array", out_storage, nk + 1, "A"),
                                                 Param("array", in_storage, nk + 1, "A"),
                                                 Param("array", np.int64, 1, "C")]
    return KernelSource(name, text, params)


def ufunc_reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    from .. import _backend
    from .._codegen import compiler
    from .._core import layout as _layout
    from .._core.ndarray import ndarray
    from .._core.transfer import from_host

    if uf.nin != 2 or uf.nout != 1:
        raise ValueError("reduceat only supported for binary functions")
    a = _r.as_array(array)
    # indices are tiny metadata: validated on the host (as NumPy does), then sent once
    idx = indices.get() if isinstance(indices, ndarray) else np.asarray(indices)
    out = _r.single_out(out)
    kw = {"axis": axis}
    if dtype is not None:
        kw["dtype"] = dtype
    if a.ndim == 0:
        raise ValueError("reduceat: the array must be at least one-dimensional")
    if axis is None and a.ndim > 1:
        raise ValueError("reduceat does not allow multiple axes")
    ax = 0 if axis is None else _layout.normalize_axis(axis, a.ndim)   # None: NumPy's 1-D axis
    if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
        raise TypeError("reduceat: indices must be a 1-D sequence of integers")
    n = a.shape[ax]
    for i in idx.tolist():
        if not 0 <= i < n:
            raise IndexError(f"index {i} out-of-bounds in {uf.__name__}.reduceat [0, {n})")
    # NumPy's dtype resolution and checks on a one-element stand-in
    stand = np.zeros((1,) * a.ndim, a.dtype)
    import warnings

    from .._codegen.launcher import warnings_lock
    with warnings_lock, warnings.catch_warnings():       # the filters are process-wide
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            res = uf._np.reduceat(stand, np.zeros(1, np.intp), **kw)
    dt = check_dtype(dtype) if dtype is not None else \
        check_dtype(out.dtype if out is not None else res.dtype)
    idx = idx.astype(np.int64).reshape(-1)
    shape = list(a.shape)
    shape[ax] = idx.size
    shape = tuple(shape)
    r = _r.prepare_out(out, shape, dt)
    if r.size == 0:
        return r
    check_power_exponents(uf, a, dt, ax, segments=idx)
    spec, _ = reduce_spec(uf, dt)
    nd = a.ndim
    kept = [d for d in range(nd) if d != ax]
    nk = len(kept)
    nrow = 1
    for d in kept:
        nrow *= a.shape[d]
    dev_idx = from_host(idx)
    target = r
    if _copy.may_overlap(r, a):
        target = _r.empty_array(shape, r.dtype)
    ish = [a.shape[d] for d in kept] + [a.shape[ax]]
    ist = [a._strides[d] for d in kept] + [a._strides[ax]]
    osh = [shape[d] for d in kept] + [idx.size]
    ost = [target._strides[d] for d in kept] + [target._strides[ax]]
    key = ("reduceat", spec.full_key(), nk, a.dtype.str, target.dtype.str)
    k = compiler.get_kernel(key, lambda: _render_reduceat(spec, nk, a.dtype, target.dtype))
    block = 8 if _backend.IS_SIM else 128
    total = nrow * idx.size
    grid = max(1, min(-(-total // block), 2 if _backend.IS_SIM else 132 * 16))
    k(grid, block, [nrow, idx.size, a.shape[ax]] + _r._arr(target._ptr, osh, ost, target.itemsize)
      + _r._arr(a._ptr, ish, ist, a.itemsize) + _r._arr(dev_idx._ptr, [idx.size], [8], 8))
    if target is not r:
        _copy.copy_into(r, target)
    return r
