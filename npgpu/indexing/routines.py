"""Indexing routines on the gather / scatter plans of :mod:`.advanced`: take, put,
take_along_axis, put_along_axis, choose; index generators (diag_indices, tril/triu_indices, ix_,
mask_indices, unravel_index, ravel_multi_index) and fill_diagonal.

Each builds a :class:`~.advanced.Plan` (or an advanced index) and runs the one gather / check /
scatter template; arithmetic on indices is one elementwise launch.  Bounds in ``mode='raise'`` are
checked on the device, the record brought to the host once, as in ``a[idx]``."""
import itertools
import operator

import numpy as np

from .. import _remap
from .._codegen import elementwise as _ew
from .._core import copy as _copy
from .._core import layout as _layout
from .._core.call_cache import store
from .._core import transfer as _transfer
from .._core.ndarray import _new, empty_array, fail_unless_writeable, ndarray
from ..cuda import memory as _memory
from ..cuda import runtime as _rt
from ..creation import arange, asarray
from . import advanced as _adv

_I64 = np.dtype(np.int64)
_I64_MIN, _I64_MAX = -2**63, 2**63 - 1
_WEAK = (bool, int, float, complex)      # Python scalars: weak in NumPy's type promotion
_MODES = ("raise", "wrap", "clip")


def _mode(mode):
    if mode not in _MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    return mode


def _int_index(indices, rule="safe", convert=False):
    """A device integer array from ``indices`` (host data copied once), NumPy's cast of index
    arrays to intp under ``rule`` ('same_kind' for take, 'safe' for put and choose; None:
    ravel_multi_index's and unravel_index's "only int indices"): booleans count as 0 and 1.
    ``convert``: take's and put's reading of indices that are not arrays (lists, Python and
    NumPy scalars): NumPy builds them as intp directly, each element through ``int()``."""
    if isinstance(indices, ndarray):
        x = indices
    elif _holds_device(indices):
        x = _adv._device_sequence(indices)     # NumPy's asarray of it, on the device
    else:
        h = np.asarray(indices)
        if convert and not isinstance(indices, np.ndarray) and h.dtype.kind not in "biu":
            h = np.array(indices, dtype=np.intp)
        if h.size == 0 and h.dtype.kind == "f" and rule is None:
            if not isinstance(indices, np.ndarray):
                raise TypeError("indices must be integral: the provided empty sequence was "
                                "inferred as float. Wrap it with "
                                "'np.array(indices, dtype=np.intp)'")
        x = h
    if rule is None:
        if x.dtype.kind not in "biu":
            raise TypeError("only int indices permitted")
    elif not np.can_cast(x.dtype, _I64, rule):
        what = "scalar" if x.ndim == 0 else "array data"
        raise TypeError(f"Cannot cast {what} from {x.dtype!r} to dtype('int64') according "
                        f"to the rule '{rule}'")
    x = x if isinstance(x, ndarray) else asarray(x)
    return x.astype(_I64) if x.dtype.kind == "b" else x


def _holds_device(x):
    return isinstance(x, (list, tuple)) and any(
        isinstance(y, ndarray) or _holds_device(y) for y in x)


def _put_out(res, out, shape_error=None):
    if out is None:
        return res
    if not isinstance(out, ndarray):
        raise TypeError("out must be an npgpu array")
    if out.shape != res.shape:
        raise shape_error or ValueError("output array does not match result of ndarray.take")
    _copy.copy_into(out, res)
    return out


def _empty_axis(a, axis, idx):
    # NumPy's error only where the result is not empty (else the index's bounds error)
    if a.shape[axis] == 0 and idx.size and _layout.prod(a.shape[:axis] + a.shape[axis + 1:]):
        raise IndexError("cannot do a non-empty take from an empty axes.")


# --- take / put ----------------------------------------------------------------------------------
def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of ``a`` at ``indices`` along ``axis`` (the flattened array when None)."""
    if out is not None and not isinstance(out, ndarray):
        # (NumPy's argument parser, before anything else)
        raise TypeError("out must be an npgpu array" if isinstance(out, np.ndarray)
                        else "output must be an array")
    key = None
    if (type(a) is ndarray and type(indices) is ndarray and type(axis) is int and a.ndim
            and type(mode) is str and (out is None or (type(out) is ndarray and not out._ro))):
        # a repeat call (same layouts, alignment, axis and mode) replays the rows launch
        key = (_rt.get_device_id(), a.shape, a._strides, a.dtype, a._ptr & 15, indices.shape,
               indices._strides, indices.dtype, axis, mode)
        e = _take_calls.get(key)
        if e is not None:
            _take_out(out, a, e[8])
            return _put_out(_take_replay(e, a, indices, mode), out)
    mode = _mode(mode)
    a = a if isinstance(a, ndarray) else asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    else:
        if a.ndim == 0:             # NumPy takes along an axis of a 0-d array as of shape (1,)
            a = a.reshape(1)
        axis = _layout.normalize_axis(axis, a.ndim)
    idx = _int_index(indices, "same_kind", convert=True)
    shape = a.shape[:axis] + idx.shape + a.shape[axis + 1:]
    _take_out(out, a, shape)
    _empty_axis(a, axis, idx)
    if not _layout.prod(a.shape[:axis]):
        # no row to take from: NumPy reads no index (none is checked)
        return _put_out(empty_array(shape, a.dtype), out)
    if axis == a.ndim - 1 and _staged_take(a, idx):
        return _put_out(_take_rows(a, idx, axis, mode, key), out)
    entries = [("slice", slice(None), d) for d in range(axis)] + [("arr", idx, axis)]
    entries += [("slice", slice(None), d) for d in range(axis + 1, a.ndim)]
    return _put_out(_adv.gather(_adv._plan(a, entries), mode), out)


def _take_out(out, a, shape):
    """NumPy's checks of take's ``out=``, in its order, before any index is read: the result's
    shape, a safe cast of out's dtype to a's (NumPy writes through a copy of out in a's dtype),
    writeable."""
    if out is None:
        return
    if out.shape != shape:
        raise ValueError("output array does not match result of ndarray.take")
    if not np.can_cast(out.dtype, a.dtype, "safe"):
        raise TypeError(f"Cannot cast {'scalar' if out.ndim == 0 else 'array data'} from "
                        f"{out.dtype!r} to {a.dtype!r} according to the rule 'safe'")
    if out._ro:
        fail_unless_writeable(out, "WRITEBACKIFCOPY base")


def _staged_take(a, idx):
    """Does a take along ``a``'s last axis run as the remap's rows form with the source row
    staged in shared memory (rows that fit, long enough output rows)?"""
    return (a.shape[-1] and a.shape[-1] * a.itemsize <= _remap.STAGE_MAX
            and idx.size >= _remap.ROWS_MIN and idx.dtype.kind in "iu" and idx.itemsize <= 8
            and not (idx.dtype.kind == "u" and idx.itemsize == 8))


def _flat_index(idx):
    """``idx`` as the rows form's table: flat, C-contiguous int64."""
    if idx.ndim == 1 and idx.dtype == _I64 and idx._c_contig:
        return idx
    flat = idx.reshape(-1)
    if flat.dtype != _I64 or not flat._c_contig:
        flat = flat.astype(_I64)
    return flat


def _table(flat, n, mode):
    if mode == "wrap":
        # the indices reduced once (NumPy's remainder: in [0, n)), not once per output
        # element: the rows then read a plain table
        from ..ufuncs import UFUNCS
        return UFUNCS["remainder"](flat, n)
    return flat


def _take_rows(a, idx, axis, mode, key=None):
    """``take`` along the last axis: a block a row, the row read once into shared memory and
    gathered from there; ``mode='raise'`` checks in the same launch (the first bad position
    recorded, brought to the host once).  ``key``: take's replay key of this call, its launch
    stored under it."""
    flat = _flat_index(idx)
    n = a.shape[-1]
    maps = [_remap.ident(s) for s in a.shape[:-1]]
    table = _table(flat, n, mode)
    kind = "table" if mode == "wrap" else "take_" + mode
    maps.append(_remap.AxisMap(kind, flat.size, *(() if mode == "wrap" else (n,)), table=table))
    rec, sig = _adv._raise_checks() if mode == "raise" else (None, None)
    res = _remap.remap(a, maps, record=rec, signal=sig)
    shape = a.shape[:-1] + idx.shape
    if key is not None and res.size:
        plan = _remap.stored_plan(a, maps, res, rec, sig)
        if plan is not None:
            store(_take_calls, key, (plan, n, axis, res._ptr & 15, res.shape, res._strides,
                                     (res._c_contig, res._f_contig), res.size * res.itemsize,
                                     shape, flat is idx))
    _check_record(rec, flat, n, axis, sig)
    return res if res.shape == shape else res.reshape(shape)


# take's stored launches: key -> (remap plan, axis length, axis, output alignment, output
# shape, strides, contiguity, bytes, result shape, whether the indices are the table as given)
_take_calls = {}


def _take_replay(e, a, idx, mode):
    plan, n, axis, align, oshape, ostrides, contig, nbytes, shape, direct = e
    flat = idx if direct else _flat_index(idx)
    table = _table(flat, n, mode)
    rec, sig = _adv._raise_checks() if mode == "raise" else (None, None)
    mem = _memory.alloc(nbytes)        # the output straight from the pool
    if mem.ptr & 15 != align:          # another alignment: another launch form
        del mem
        return _take_rows(a, idx, axis, mode)
    res = _new(mem, mem.ptr, oshape, ostrides, a.dtype, None, contig)
    _remap.replay(plan, a, res, [table], rec, sig)
    _check_record(rec, flat, n, axis, sig)
    return res if oshape == shape else res.reshape(shape)


def _check_record(rec, flat, n, axis, sig=None):
    """NumPy's IndexError for the first bad index ``rec`` (the bounds record of a 'raise'
    launch, or None) holds.  Where the launch armed the host signal ``sig``, its value, which
    the kernel writes once every index is checked (before the gather); else the record is
    read into a page-locked buffer of this thread: the driver copies it straight there (a
    pageable read goes through its own staging)."""
    if rec is None:
        return
    bad = sig.wait() if sig is not None and sig.armed else None
    if bad is None:
        bad = _adv._read_record(rec)        # (re-armed there when set)
    elif bad != _adv._NONE:
        _copy.fill(rec, _adv._NONE)       # re-armed for the next check
    if bad != _adv._NONE:
        host = np.empty(1, _I64)
        _transfer._d2h(host, flat._ptr + 8 * bad, 8)
        raise _adv.out_of_bounds(int(host[0]), n, axis)


def _cycled(v, n):
    """``v`` flattened and repeated to ``n`` elements (NumPy's put / flat assignment)."""
    v = v.reshape(-1)
    if v.size == n:
        return v
    return _adv.gather(_adv._plan(v, [("arr", arange(n), 0)]), "wrap")


def put(a, ind, v, mode="raise"):
    """``a.flat[ind] = v`` (``v`` repeated as needed; the last of repeated indices wins)."""
    if not isinstance(a, ndarray):
        raise TypeError(f"put() argument 1 must be npgpu.ndarray, not {type(a).__name__}")
    if a._ro:
        fail_unless_writeable(a, "put: output array")
    mode = _mode(mode)
    idx = _int_index(ind, convert=True).reshape(-1)
    if idx.size and a.size == 0:
        raise IndexError("cannot replace elements of an empty array")
    val = _adv.value_for(a.dtype, v)     # (NumPy converts it even when nothing is put)
    if idx.size == 0:
        return
    if isinstance(val, ndarray):
        if val.size == 0:
            return
        val = _cycled(val, idx.size)
    flat = a.reshape(-1) if a._c_contig else a.copy()
    target = flat if a._c_contig else flat.reshape(-1)
    _adv.scatter(_adv._plan(target, [("arr", idx, 0)]), val, mode)
    if not a._c_contig:
        _copy.copy_into(a, flat)


# --- along an axis -------------------------------------------------------------------------------
def _along(arr, indices, axis):
    """(arr, advanced index tuple) pairing every axis of ``arr`` with ``indices`` NumPy's way."""
    arr = arr if isinstance(arr, ndarray) else asarray(arr)
    idx = indices if isinstance(indices, ndarray) else asarray(np.asarray(indices))
    if idx.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if idx.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        arr, axis = arr.ravel(), 0
    else:
        axis = _layout.normalize_axis(axis, arr.ndim)
    if idx.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    index = []
    for d, n in enumerate(arr.shape):
        if d == axis:
            index.append(idx)
        else:
            shape = [1] * arr.ndim
            shape[d] = n
            index.append(arange(n).reshape(tuple(shape)))
    return arr, tuple(index)


def take_along_axis(arr, indices, axis=-1):
    arr, index = _along(arr, indices, axis)
    return _adv.gather(_adv.parse(arr, index))


def put_along_axis(arr, indices, values, axis):
    if not isinstance(arr, ndarray):
        raise TypeError("put_along_axis: arr must be an npgpu array")
    if arr._ro:
        fail_unless_writeable(arr, "assignment destination")
    target, index = _along(arr, indices, axis)
    if target is not arr and not arr._c_contig:
        tmp = arr.copy()
        put_along_axis(tmp, indices, values, axis)
        _copy.copy_into(arr, tmp)
        return
    _adv.scatter(_adv.parse(target, index), values)


def choose(a, choices, out=None, mode="raise"):
    """``choices[a[i]][i]`` for every ``i`` (all broadcast together)."""
    from ..manipulation import broadcast_to, stack
    if isinstance(out, ndarray) and out._ro:
        fail_unless_writeable(out, "output array")
    mode = _mode(mode)
    idx = _int_index(a)
    if isinstance(choices, ndarray):
        cs = [choices[j] for j in range(choices.shape[0])]
    else:
        cs = [c if isinstance(c, ndarray) or type(c) in _WEAK else asarray(c) for c in choices]
    if not cs:
        raise ValueError("0-length sequence.")
    if len(cs) > 63:
        # NumPy's iterator takes 64 operands, the index among them
        raise ValueError("Need at least 0 and at most 64 array objects.")
    # Python scalars are weak (NEP 50) and cast unsafely to the result type: NumPy's
    # choose(i, (1000, uint8 array)) is uint8, 1000 wrapping to 232
    dt = np.result_type(*(c if type(c) in _WEAK else c.dtype for c in cs))
    cs = [asarray(np.asarray(c).astype(dt)) if type(c) in _WEAK else c for c in cs]
    shape = np.broadcast_shapes(*(c.shape for c in cs), idx.shape)   # (NumPy's arg order)
    table = stack([broadcast_to(c, shape) for c in cs]).astype(dt, copy=False)
    # iteration over the result; the index picks the row of the stacked table
    lo, m = _adv._extent(table)
    isz = table.itemsize
    p = _adv.Plan(a=table, lo=lo, m=m, shape=shape, base=(table._ptr - lo) // isz,
                  strides=tuple(s // isz for s in table._strides[1:]), bshape=shape,
                  adv=(0, len(shape)), arrays=[_broadcast(idx, shape)], sizes=[len(cs)],
                  steps=[table._strides[0] // isz], axes=[0])
    # (mode='raise': a negative entry is invalid too, not counted from the end)
    res = _adv.gather(p, "nonneg" if mode == "raise" else mode,
                      lambda v, n, ax: ValueError("invalid entry in choice array"))
    return _put_out(res, out, TypeError("choose: invalid shape for output array."))


def _broadcast(x, shape):
    return x._view(0, shape, tuple(_ew.broadcast_strides(x.shape, x._strides, shape)))


# --- index generators ---------------------------------------------------------------------------
def diag_indices(n, ndim=2):
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def tril_indices(n, k=0, m=None):
    from ..matrices import tri
    from .masks import nonzero
    return nonzero(tri(n, m, k=k, dtype=bool))


def triu_indices(n, k=0, m=None):
    from ..matrices import tri
    from ..ufuncs import UFUNCS
    from .masks import nonzero
    return nonzero(UFUNCS["logical_not"](tri(n, m, k=k - 1, dtype=bool)))


def tril_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def mask_indices(n, mask_func, k=0):
    """The indices where ``mask_func(ones((n, n)), k)`` is nonzero (``mask_func``: e.g.
    ``npgpu.triu``), as NumPy's."""
    from ..creation import ones
    from ..ufuncs import UFUNCS
    from .masks import nonzero
    return nonzero(UFUNCS["not_equal"](mask_func(ones((n, n), int), k), 0))


def ix_(*args):
    out = []
    nd = len(args)
    for k, x in enumerate(args):
        if not isinstance(x, ndarray):
            h = np.asarray(x)
            if h.size == 0:
                h = h.astype(np.intp)
            x = asarray(h)
        if x.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if x.dtype.kind == "b":
            from .masks import nonzero
            x = nonzero(x)[0]
        out.append(x.reshape((1,) * k + (x.size,) + (1,) * (nd - k - 1)))
    return tuple(out)


def _checked(idx, size, error):
    """Device check that every element of ``idx`` is in [0, size): one check launch."""
    p = _adv.Plan(a=idx, shape=idx.shape, bshape=idx.shape, adv=(0, idx.ndim), arrays=[idx],
                  sizes=[size], steps=[0], axes=[None])
    _adv.check(p, "nonneg", error)


def _order_arg(order):
    """NumPy's parse of unravel_index's / ravel_multi_index's ``order``: 'C' or 'F'."""
    return "C" if order is None else _layout.check_order(order, "CF")


def _dims_arg(dims):
    """NumPy's parse of a ``dims`` / ``shape`` argument: its TypeErrors; negative dims kept
    (NumPy lets every index fail the bounds check against them)."""
    if dims is None:
        raise TypeError("Use () not None as shape arguments")
    try:
        out = (operator.index(dims),)
    except TypeError:
        if not hasattr(dims, "__len__"):
            raise TypeError(f"expected a sequence of integers or a single integer, got '{dims}'"
                            ) from None
        out = tuple(operator.index(d) for d in dims)
    if any(not _I64_MIN <= d <= _I64_MAX for d in out):
        raise ValueError("Maximum allowed dimension exceeded")
    return out


def _in_intp(products, error):
    """``products`` (partial products of dims), raising ``error`` at the first that leaves intp:
    NumPy multiplies with an overflow check at every step, so the order of the dims counts."""
    for s in products:
        if not _I64_MIN <= s <= _I64_MAX:
            raise ValueError(error)


_DIVMOD = _ew.ScalarOp.from_expr("unravel_coord", 3, "(x0 // x1) % x2")


def unravel_index(indices, shape, order="C"):
    shape = _dims_arg(shape)        # (NumPy's order: the arguments, then the indices' dtype)
    order = _order_arg(order)
    # (a zero dimension ends NumPy's product before the dimensions after it)
    _in_intp(itertools.accumulate(shape[:shape.index(0)] if 0 in shape else shape,
                                  operator.mul),
             "dimensions are too large; arrays and shapes with a total size greater than "
             "'intp' are not supported.")
    idx = _int_index(indices, None)
    size = _layout.prod(shape)
    _checked(idx, size, lambda v, n, ax: ValueError(
        f"index {v} is out of bounds for array with size {n}"))
    if not shape and idx.ndim:
        raise ValueError("multiple indices are not supported for 0d arrays")
    strides = (_layout.c_strides if order == "C" else _layout.f_strides)(shape, 1)
    out = []
    for n, s in zip(shape, strides):
        o = empty_array(idx.shape, _I64)
        _ew.launch(_DIVMOD, [idx, np.int64(s), np.int64(n)], [_I64] * 3, [o], [_I64],
                   name="unravel_index")
        out.append(o)
    return tuple(out)


def _ravel_op(modes):
    k = len(modes)
    terms = []
    for j, md in enumerate(modes):
        x, n, s = f"x{j}", f"x{k + j}", f"x{2 * k + j}"
        v = {"raise": x, "wrap": f"({x} % {n})", "clip": f"min(max({x}, 0), {n} - 1)"}[md]
        terms.append(f"{v} * {s}")
    return _ew.ScalarOp.from_expr(f"ravel_multi_index_{'_'.join(modes)}", 3 * k,
                                  " + ".join(terms))


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    dims = _dims_arg(dims)
    k = len(dims)
    modes = (mode,) * k if isinstance(mode, str) else tuple(mode)
    if len(modes) != k:
        raise ValueError(f"list of clipmodes has wrong length ({len(modes)} instead of {k})")
    modes = tuple(_mode(m) for m in modes)
    order = _order_arg(order)
    _in_intp(itertools.accumulate(dims[::-1] if order == "C" else dims, operator.mul),
             "invalid dims: array size defined by dims is larger than the maximum possible size.")
    if any(n < 0 for n in dims) and modes != ("raise",) * k:
        # (mode='raise': NumPy finds every coordinate invalid, as the check below does)
        raise ValueError("negative dimensions are not allowed")
    if len(multi_index) != k:
        raise ValueError(f"parameter multi_index must be a sequence of length {k}")
    arrs = [_int_index(x, None) for x in multi_index]
    try:
        shape = np.broadcast_shapes(*(x.shape for x in arrs))
    except ValueError:
        raise ValueError("operands could not be broadcast together with shapes "
                         + "".join(_adv.shape_text(x.shape) + " " for x in arrs)) from None
    strides = (_layout.c_strides if order == "C" else _layout.f_strides)(dims, 1)
    if 0 in dims and _layout.prod(shape):
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    raised = [(x, n) for x, n, md in zip(arrs, dims, modes) if md == "raise"]
    if raised:
        p = _adv.Plan(a=arrs[0], shape=shape, bshape=shape, adv=(0, len(shape)),
                      arrays=[_broadcast(x, shape) for x, _ in raised],
                      sizes=[n for _, n in raised], steps=[0] * len(raised),
                      axes=[None] * len(raised))
        _adv.check(p, "nonneg", lambda v, n, ax: ValueError("invalid entry in coordinates array"))
    out = empty_array(shape, _I64)
    ins = arrs + [np.int64(n) for n in dims] + [np.int64(s) for s in strides]
    _ew.launch(_ravel_op(modes), ins, [_I64] * (3 * k), [out], [_I64], name="ravel_multi_index")
    return out


def fill_diagonal(a, val, wrap=False):
    """``a``'s main diagonal set to ``val`` (cycled), NumPy's ``a.flat[:end:step] = val``."""
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    if a._ro:
        fail_unless_writeable(a, "underlying array")      # NumPy's a.flat says so
    if a.ndim == 2 and wrap and a.shape[0] > a.shape[1] + 1:
        # the wrapped diagonal restarts every n + 1 rows: NumPy's flat positions
        flat = a.reshape(-1) if a._c_contig else a.copy().reshape(-1)
        view = flat[::a.shape[1] + 1]
        _assign_cycled(view, val)
        if not a._c_contig:
            _copy.copy_into(a, flat.reshape(a.shape))
        return
    n = min(a.shape)
    view = a._view(0, (n,), (sum(a._strides),))
    _assign_cycled(view, val)


def _assign_cycled(view, val):
    v = _adv.value_for(view.dtype, val)
    if isinstance(v, ndarray):
        if v.size == 0:
            return
        v = _cycled(v, view.size)
    _copy.setitem(view, Ellipsis, v)
