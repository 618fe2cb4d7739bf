"""Adding and removing elements: insert, delete, resize, trim_zeros; ediff1d.

Host positions (ints, slices, lists, NumPy arrays) are index metadata: NumPy itself checks them
on the host (its errors and messages), then the data moves on the device -- single positions
as slice copies into one output, many as one gather (:mod:`._remap`'s ``table`` map, the table
of source positions uploaded once).  Device index arrays for ``delete`` go through the indexing
package (``keep[obj] = False`` and ``nonzero``); ``insert`` at device positions sorts them
(stable argsort) and builds its gather table from a binary search of the sorted, shifted
positions (:func:`_insert_device`), one small read for NumPy's bounds check.
"""
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import _remap
from ._core import copy as _copy
from ._core.layout import broadcasts_to, c_shape_text
from ._core.ndarray import empty_array, ndarray
from ._remap import AxisMap, ident
from .creation import arange, asarray, ones, zeros
from .manipulation import broadcast_to, concatenate, moveaxis, stack
from .reductions import any as _any
from .reductions import argmax as _argmax
from .ufuncs import UFUNCS

_I64 = np.dtype(np.int64)


def _flat_axis(arr, axis):
    if axis is None:
        arr = arr.ravel() if arr.ndim != 1 else arr
        return arr, arr.ndim - 1
    return arr, normalize_axis_index(axis, arr.ndim)


def _at(axis, sl):
    return (slice(None),) * axis + (sl,)


def _gather(arr, axis, table):
    """``arr`` with positions ``table`` (host or device int64) taken along ``axis``."""
    table = table if isinstance(table, ndarray) else asarray(np.asarray(table, np.int64))
    maps = [ident(n) for n in arr.shape]
    maps[axis] = AxisMap("table", table.size, table=table)
    return _remap.remap(arr, maps)


# ---- delete ---------------------------------------------------------------------------------------
def delete(arr, obj, axis=None):
    arr = asarray(arr)
    # NumPy's slice and single-index paths keep a Fortran-ordered array's order
    order = "F" if arr.flags.f_contiguous and not arr.flags.c_contiguous else "C"
    arr, axis = _flat_axis(arr, axis)
    n = arr.shape[axis]
    if isinstance(obj, ndarray) and obj.size != 1:
        return _delete_device(arr, obj, axis, n)
    if isinstance(obj, ndarray):
        obj = obj.get()
    if isinstance(obj, slice):
        start, stop, step = obj.indices(n)
        r = range(start, stop, step)
        if step < 0:
            r = r[::-1]
        if not len(r):
            return arr.copy(order=order)
        if r.step == 1:                     # one run removed: two slice copies
            return _without_run(arr, axis, r.start, r.stop, order)
        if order == "F":                    # gathered C-ordered along the reversed axes
            return delete(arr.T, obj, arr.ndim - 1 - axis).T
    elif isinstance(obj, (int, np.integer)) and not isinstance(obj, (bool, np.bool_)):
        i = operator.index(obj)
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
        i += n if i < 0 else 0
        return _without_run(arr, axis, i, i + 1, order)
    else:
        h = np.asarray(obj)
        if h.size == 1 and h.dtype.kind in "ui":
            return delete(arr, h.reshape(-1)[0], axis)
        if h.dtype == bool and h.shape != (n,):
            raise ValueError("boolean array argument obj to delete must be one dimensional and "
                             f"match the axis length of {n}")
    keep = np.ones(n, bool)
    if isinstance(obj, slice):
        keep[obj] = False
    elif h.dtype == bool:
        keep = ~h
    else:
        if h.size == 0 and not isinstance(obj, np.ndarray):
            h = h.astype(np.intp)
        keep[h,] = False                    # NumPy's index checks and messages
    return _gather(arr, axis, np.flatnonzero(keep))


def _without_run(arr, axis, start, stop, order="C"):
    shape = list(arr.shape)
    shape[axis] -= stop - start
    new = empty_array(tuple(shape), arr.dtype, order)
    _copy.copy_into(new[_at(axis, slice(None, start))], arr[_at(axis, slice(None, start))])
    _copy.copy_into(new[_at(axis, slice(start, None))], arr[_at(axis, slice(stop, None))])
    return new


def _delete_device(arr, obj, axis, n):
    from .indexing.masks import nonzero       # the compaction primitive (indexing package)
    if obj.dtype == np.bool_:
        if obj.shape != (n,):
            raise ValueError("boolean array argument obj to delete must be one dimensional and "
                             f"match the axis length of {n}")
        keep = UFUNCS["logical_not"](obj)
    else:
        keep = ones(n, np.bool_)
        keep[obj.reshape(-1)] = False          # integer-array setitem: bounds checked on device
    return _gather(arr, axis, nonzero(keep)[0])


# ---- insert ---------------------------------------------------------------------------------------
def insert(arr, obj, values, axis=None):
    arr, axis = _flat_axis(asarray(arr), axis)
    n = arr.shape[axis]
    if isinstance(obj, ndarray) and obj.dtype == np.bool_:
        if obj.ndim != 1:
            raise ValueError("boolean array argument obj to insert must be one dimensional")
        from .indexing.masks import nonzero   # the compaction primitive (indexing package)
        obj = nonzero(obj)[0]                 # NumPy's flatnonzero; a single position -> host
    if isinstance(obj, ndarray):
        if obj.size != 1:
            return _insert_device(arr, obj, values, axis, n)
        obj = obj.get()
    if isinstance(obj, slice):
        idx = np.arange(*obj.indices(n), dtype=np.intp)
    else:
        idx = np.array(obj)
        if idx.dtype == bool:
            if obj.ndim != 1:            # (NumPy asks obj: a list or a bool has no ndim)
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            idx = np.flatnonzero(idx)
        elif idx.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or "
                             "scalar")
    vals = _values(arr, values)
    if idx.size == 1:
        i = idx.reshape(-1)[0].item()
        if not -n <= i <= n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        if idx.dtype.kind not in "iu":   # NumPy slices at the one position
            raise TypeError("slice indices must be integers or None or have an __index__ method")
        i += n if i < 0 else 0
        vals = vals.reshape((1,) * (arr.ndim - vals.ndim) + vals.shape)
        if idx.ndim == 0:
            vals = moveaxis(vals, 0, axis)
        k = vals.shape[axis]
        shape = list(arr.shape)
        shape[axis] += k
        _fits(vals.shape, tuple(shape[:axis]) + (k,) + tuple(shape[axis + 1:]))
        new = empty_array(tuple(shape), arr.dtype)
        _copy.copy_into(new[_at(axis, slice(None, i))], arr[_at(axis, slice(None, i))])
        _copy.copy_into(new[_at(axis, slice(i, i + k))], vals)
        _copy.copy_into(new[_at(axis, slice(i + k, None))], arr[_at(axis, slice(i, None))])
        return new
    if idx.size == 0 and not isinstance(obj, np.ndarray):
        idx = idx.astype(np.intp)
    if idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    # NumPy's positions: negatives wrap, then each new element lands after the earlier ones
    _shift_check(idx.dtype)
    idx = idx.astype(np.intp)
    idx[idx < 0] += n
    k = len(idx)
    idx[np.argsort(idx, kind="stable")] += np.arange(k)
    old = np.ones(n + k, bool)
    old[idx] = False                             # NumPy's bounds check and message
    vals = _broadcast_values(arr, vals, axis, k)
    # the table reads the old elements then the new ones from one joined source
    table = np.empty(n + k, np.int64)
    table[old] = np.arange(n)
    table[idx] = n + np.arange(k)
    return _gather(concatenate((arr, vals), axis=axis), axis, table)


def _shift_check(dt):
    """NumPy shifts the positions in place (``indices[order] += arange``): unsigned ones raise
    its same_kind casting error, reproduced on a two-element stand-in."""
    if dt.kind == "u":
        stand_in = np.zeros(2, dt)
        stand_in += np.arange(2)


def _values(arr, values):
    if isinstance(values, ndarray):
        return values.astype(arr.dtype, copy=False)
    if isinstance(values, np.ndarray) or _holds_device(values):
        return asarray(np.asarray(values) if isinstance(values, np.ndarray) else values
                       ).astype(arr.dtype, copy=False)
    # NumPy builds host values in arr's dtype: its OverflowError / ValueError for Python scalars
    return asarray(np.array(values, dtype=arr.dtype))


def _holds_device(x):
    return isinstance(x, (list, tuple)) and any(
        isinstance(y, ndarray) or _holds_device(y) for y in x)


def _fits(vshape, shape):
    """NumPy's assignment check of the values into their slot of the new array."""
    if not broadcasts_to(vshape, shape):
        raise ValueError(f"could not broadcast input array from shape {c_shape_text(vshape)} "
                         f"into shape {c_shape_text(shape)}")


def _broadcast_values(arr, vals, axis, k):
    shape = list(arr.shape)
    shape[axis] = k
    try:
        return broadcast_to(vals, tuple(shape))
    except ValueError:
        raise ValueError(f"shape mismatch: value array of shape {c_shape_text(vals.shape)} could "
                         f"not be broadcast to indexing result of shape {c_shape_text(shape)}"
                         ) from None


def _insert_device(arr, obj, values, axis, n):
    """``insert`` at a device array of positions, NumPy's algorithm on the device: negatives
    wrap once, a stable argsort orders the positions (several values at one position keep
    their order) and the j-th sorted one moves j places on (``t``, strictly increasing).
    Output coordinate ``p`` then holds new value ``order[j]`` when ``t[j] == p`` for
    ``j = searchsorted(t, p)``, else old element ``p - j``: a gather table, no scatter.
    NumPy's bounds check (``old_mask[t] = False`` on ``n + k`` slots) comes back in one small
    read: the first bad position in ``obj``'s order and its value."""
    from .logic import where
    from .reductions import min as _amin
    from .sorting.functions import argsort
    from .sorting.searching import searchsorted
    if obj.ndim > 1:
        raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    if obj.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    _shift_check(obj.dtype)
    k = obj.size
    vals = _broadcast_values(arr, _values(arr, values), axis, k)
    if k == 0:
        return arr.copy()
    idx = obj.astype(_I64)
    idx = where(idx < 0, idx + n, idx)
    order = argsort(idx, kind="stable")
    t = _gather(idx, 0, order) + arange(k, dtype=_I64)
    m = n + k
    bad = (t < -m) | (t >= m)
    first = _amin(where(bad, order, k))
    bad_value = _amin(where(order == first, t, np.iinfo(np.int64).max))
    first, bad_value, negative = (int(v) for v in stack(
        [first, bad_value, _any(t < 0).astype(_I64)]).get())
    if first < k:
        raise IndexError(f"index {bad_value} is out of bounds for axis 0 with size {m}")
    if negative:
        return _insert_wrapped(arr, vals, axis, order, t, m)
    p = arange(m, dtype=_I64)
    j = searchsorted(t, p)
    jc = UFUNCS["minimum"](j, k - 1)
    hit = UFUNCS["equal"](_gather(t, 0, jc), p)
    table = where(hit, _gather(order, 0, jc) + n, p - j)
    return _gather(concatenate((arr, vals), axis=axis), axis, table)


def _insert_wrapped(arr, vals, axis, order, t, m):
    """NumPy's steps as they are, for shifted positions that are themselves negative (a
    position below ``-n`` in ``obj``: NumPy wraps such a one a second time when it indexes);
    each advanced-index step checks on the device."""
    pos = empty_array((t.size,), _I64)
    pos[order] = t
    old = ones(m, np.bool_)
    old[pos] = False
    shape = list(arr.shape)
    shape[axis] = m
    new = empty_array(tuple(shape), arr.dtype)
    new[_at(axis, pos)] = vals
    new[_at(axis, old)] = arr
    return new


# ---- resize ---------------------------------------------------------------------------------------
def resize(a, new_shape):
    """NumPy's resize: the flattened ``a`` repeated to fill ``new_shape`` (one gather)."""
    if isinstance(new_shape, (int, np.integer)):
        new_shape = (new_shape,)
    new_shape = tuple(operator.index(s) for s in new_shape)
    if any(s < 0 for s in new_shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    a = asarray(a).ravel()
    size = int(np.prod(new_shape, dtype=np.int64))
    if a.size == 0 or size == 0:
        return zeros(new_shape, a.dtype)
    return _remap.remap(a, [AxisMap("mod", size, 0, a.size)]).reshape(new_shape)


# ---- trim_zeros -----------------------------------------------------------------------------------
def trim_zeros(filt, trim="fb", axis=None):
    """A view without the leading/trailing zero hyperplanes; the bounds (2 per axis) are found
    on the device and read back in one small transfer."""
    a = asarray(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(a.ndim)) if axis is None else normalize_axis_tuple(axis, a.ndim, "axis")
    if not axes:
        return filt
    if a.size == 0:
        return _trimmed(filt, a, [slice(0, 0) if d in axes else slice(None)
                                  for d in range(a.ndim)])
    nz = UFUNCS["not_equal"](a, 0)
    parts = [_any(nz)]
    for d in axes:
        rows = _any(nz, axis=tuple(x for x in range(a.ndim) if x != d)) if a.ndim > 1 else nz
        parts += [_argmax(rows), _argmax(rows[::-1])]
    vals = [int(v) for v in stack([p.astype(_I64) for p in parts]).get()]
    sl = []
    for d in range(a.ndim):
        if d not in axes:
            sl.append(slice(None))
            continue
        if not vals[0]:                          # all zero: NumPy slices every axis empty
            sl.append(slice(0, 0))
            continue
        first, last = vals[1 + 2 * axes.index(d)], vals[2 + 2 * axes.index(d)]
        sl.append(slice(first if "f" in trim else None,
                        a.shape[d] - last if "b" in trim else None))
    return _trimmed(filt, a, sl)


def _trimmed(filt, a, sl):
    """NumPy slices the input itself: a list or tuple stays one (1-d; a nested list refuses the
    tuple index, NumPy's TypeError)."""
    if isinstance(filt, (list, tuple)):
        return filt[sl[0]] if len(sl) == 1 else filt[tuple(sl)]
    return a[tuple(sl)]


# ---- ediff1d --------------------------------------------------------------------------------------
def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of the flattened ``ary`` between ``to_begin`` and ``to_end``: one
    allocation, the two ends copied in, the subtraction written into the middle."""
    a = asarray(ary).ravel()
    ends = []
    for name, v in (("to_begin", to_begin), ("to_end", to_end)):
        if v is None:
            ends.append(None)
            continue
        v = v if isinstance(v, ndarray) else np.asanyarray(v)
        if not np.can_cast(v.dtype, a.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the "
                            "`same_kind` rule.")
        ends.append(asarray(v).ravel())
    nb = ends[0].size if ends[0] is not None else 0
    ne = ends[1].size if ends[1] is not None else 0
    nd = max(a.size - 1, 0)
    out = empty_array((nb + nd + ne,), a.dtype)
    if nb:
        _copy.copy_into(out[:nb], ends[0])
    if ne:
        _copy.copy_into(out[nb + nd:], ends[1])
    UFUNCS["subtract"](a[1:], a[:-1], out=out[nb:nb + nd])
    return out
