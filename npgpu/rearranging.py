"""Tiling and rearranging elements: tile, repeat, roll, rot90, rollaxis; the function astype.

tile, repeat and roll are one gather kernel each (:mod:`._remap`: every output element maps its
coordinates to the source's); rot90 and rollaxis are views.  Per-element repeat counts find
their output positions with a cumulative sum of the counts (the scan kernels) and one 8-byte
read of the total (and of the smallest count) to size the output.
"""
import operator

import numpy as np
from numpy.exceptions import AxisError
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from . import _array_api as _api
from . import _remap
from ._core import transfer as _transfer
from ._core.dtypes import check_dtype
from ._core.layout import c_strides
from ._core.ndarray import empty_array, ndarray
from ._remap import AxisMap, ident
from .creation import asarray
from .cuda import runtime as _runtime
from .manipulation import flip, stack, transpose
from .reductions import cumsum
from .reductions import min as _amin
from .ufuncs import UFUNCS as _ufuncs

_I64 = np.dtype(np.int64)


def tile(A, reps):
    a = asarray(A)
    key = _remap.call_key("tile", a, reps)
    out = _remap.call_replay(key, a)
    if out is not None:
        return out
    try:
        reps = tuple(operator.index(r) for r in reps)
    except TypeError:
        reps = (operator.index(reps),)
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    nd = max(len(reps), a.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    if nd > a.ndim:
        a = a.reshape((1,) * (nd - a.ndim) + a.shape)
    # a repeated axis is two: the repetition over a zero-stride axis, then the axis itself, so
    # every map is the identity (no division; rows of the rows form are plain copies)
    shape, strides = [], []
    for n, r, s in zip(a.shape, reps, a._strides):
        if r != 1:
            shape.append(r)
            strides.append(0)
        shape.append(n)
        strides.append(s)
    view = a._view(0, tuple(shape), tuple(strides))
    # the result in its final shape, written through a C-contiguous view of the expanded one
    out = empty_array(tuple(n * r for n, r in zip(a.shape, reps)), a.dtype)
    if out.size:
        maps = [ident(n) for n in shape]
        launched = out._view(0, tuple(shape), c_strides(shape, a.itemsize))
        _remap.remap(view, maps, out=launched)
        _remap.remember(key, a, maps, out, launched, view)
    return out


def _counts_on_host(repeats, n, is_array=False):
    """Host repeat counts as int64 of length ``n`` (or one scalar), NumPy's checks (an array
    of counts too deep is "too deep", a nested list too deep to convert)."""
    is_array = is_array or isinstance(repeats, np.ndarray)
    r = np.asarray(repeats)
    if r.ndim > 1:
        raise ValueError("object too deep for desired array" if is_array else
                         "setting an array element with a sequence. The requested array would "
                         "exceed the maximum number of dimension of 1.")
    r = r.astype(np.intp)
    if r.size == 1:                    # one count for every element: an output dimension
        if r.reshape(-1)[0] < 0:
            raise ValueError("negative dimensions are not allowed")
        return int(r.reshape(-1)[0])
    if r.size and r.min() < 0:
        raise ValueError("repeats may not contain negative values.")
    if r.size != n:
        raise ValueError(f"operands could not be broadcast together with shape ({n},) ({r.size},)")
    return r


def repeat(a, repeats, axis=None):
    """NumPy's repeat.  A scalar count is a division of the output coordinate; per-element
    counts are found by a binary search of the output coordinate in their cumulative sum."""
    a = asarray(a)
    if axis is None:
        a = a.ravel()
        axis = 0
    else:
        if a.ndim == 0:             # NumPy repeats a 0-d array along an axis as of shape (1,)
            a = a.reshape(1)
        axis = normalize_axis_index(axis, a.ndim)
    n = a.shape[axis]
    maps = [ident(s) for s in a.shape]
    if isinstance(repeats, (ndarray, np.ndarray)) and not np.can_cast(repeats.dtype, np.intp):
        # NumPy casts an array of counts safely (lists and Python numbers it converts)
        what = "scalar" if repeats.ndim == 0 else "array data"
        raise TypeError(f"Cannot cast {what} from {repeats.dtype!r} to "
                        f"{np.dtype(np.intp)!r} according to the rule 'safe'")
    on_device = isinstance(repeats, ndarray)
    if on_device and repeats.ndim > 1:
        raise ValueError("object too deep for desired array")
    if on_device and repeats.size != 1:
        if repeats.size != n:
            raise ValueError(f"operands could not be broadcast together with shape ({n},) "
                             f"({repeats.size},)")
        if n == 0:
            return a.copy()
        cs = cumsum(repeats, dtype=_I64)
        total, low = (int(v) for v in stack([cs[-1], _amin(repeats).astype(_I64)]).get())
        if low < 0:
            raise ValueError("repeats may not contain negative values.")
        maps[axis] = AxisMap("search", total, table=cs)
        return _remap.remap(a, maps)
    if on_device:
        repeats = repeats.get()
    r = _counts_on_host(repeats, n, on_device)
    if isinstance(r, int):
        maps[axis] = AxisMap("div", n * r, max(r, 1)) if r != 1 else ident(n)
    else:
        maps[axis] = AxisMap("search", int(r.sum()), table=asarray(np.cumsum(r, dtype=np.int64)))
    return _remap.remap(a, maps)


def roll(a, shift, axis=None):
    a = asarray(a)
    # device shifts (np.roll(x, -np.argmax(x))): NumPy reads them as host ints, one small read
    if isinstance(shift, ndarray):
        shift = shift.get()
    elif isinstance(shift, (tuple, list)) and any(isinstance(s, ndarray) for s in shift):
        shift = [s.get() if isinstance(s, ndarray) else s for s in shift]
    if type(shift) is int and (axis is None or type(axis) is int) and a._c_contig and a.size:
        out = _roll_by_copies(a, shift, axis)
        if out is not None:
            return out
    key = _remap.call_key("roll", a, shift, axis)
    out = _remap.call_replay(key, a)
    if out is not None:
        return out
    if axis is None:
        if a.ndim != 1:
            return roll(a.ravel(), shift, 0).reshape(a.shape)
        axis = 0
    shifts = [0] * a.ndim
    if type(shift) is int and type(axis) is int:     # the common call: no broadcasting
        shifts[normalize_axis_index(axis, a.ndim)] = shift
    else:
        axes = normalize_axis_tuple(axis, a.ndim, allow_duplicate=True)
        pairs = np.broadcast(np.asarray(shift), np.asarray(axes))     # NumPy's mismatch error
        if pairs.nd > 1:
            raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
        for s, ax in pairs:
            shifts[int(ax)] += int(s)      # NumPy's int(): bools and floats (truncated) too
    maps = [ident(n) if n == 0 or s % n == 0 else AxisMap("rot", n, (-s) % n, n)
            for n, s in zip(a.shape, shifts)]
    out = _remap.remap(a, maps)
    _remap.remember(key, a, maps, out)
    return out


def _roll_by_copies(a, shift, axis):
    """A C-contiguous array rolled along its flattened order (``axis=None``, 1-D, or an axis
    with only length-1 axes before it) is two contiguous blocks swapped: the driver's two
    copies, at copy bandwidth whatever the shift's alignment (H200, 2^26 float32 shifted by
    12345: 144 us against the gather kernel's 165, remap_knobs.py).  None for other axes."""
    if axis is None:
        n, unit = a.size, a.itemsize
    else:
        d = normalize_axis_index(axis, a.ndim)
        if any(m != 1 for m in a.shape[:d]):
            return None
        n, unit = a.shape[d], a.nbytes // a.shape[d]
    if _runtime.multi_device[0] and a._mem.device_id != _runtime._tls.device:
        return None
    out = empty_array(a.shape, a.dtype)
    block = shift % n * unit                # bytes that wrap to the front
    _transfer.d2d(out._ptr + block, a._ptr, a.nbytes - block)
    _transfer.d2d(out._ptr, a._ptr + a.nbytes - block, block)
    return out


def rot90(m, k=1, axes=(0, 1)):
    """A view, as NumPy's: flips and a transpose."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = asarray(m)
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if not all(-m.ndim <= ax < m.ndim for ax in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k = k % 4             # (NumPy takes any number: a float k selects as its remainder)
    if k == 0:
        return m[:]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(m, axes[1]), perm)
    return flip(transpose(m, perm), axes[1])


def rollaxis(a, axis, start=0):
    """A view: ``axis`` moved to before ``start`` (NumPy's older moveaxis)."""
    a = asarray(a)
    n = a.ndim
    axis = normalize_axis_index(axis, n)
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    order = [d for d in range(n) if d != axis]
    order.insert(start, axis)
    return a.transpose(order)


# ---- changing kind --------------------------------------------------------------------------------
def astype(x, dtype, /, *, copy=True, device=None):
    """The Array API's ``astype``: ``x.astype(dtype, copy=copy)`` on ``x``'s device; a NumPy
    scalar, which NumPy's ``astype`` also takes, becomes a 0-d array first."""
    if isinstance(x, np.generic):
        x, copy = asarray(x), False                       # already a fresh device copy
    if not isinstance(x, ndarray):
        raise TypeError(f"Input should be an npgpu array or scalar. It is a {type(x)} instead.")
    if device is not None and _api.device_ordinal(device) != x._mem.device_id:
        x, copy = _api.to_device(x, device), False        # already a fresh copy
    return x.astype(check_dtype(dtype), copy=copy)


# NumPy's names of the types in its 'same_value' error
_C_NAMES = {"?": "bool", "b": "byte", "h": "short", "i": "int", "l": "long", "q": "longlong",
            "B": "ubyte", "H": "ushort", "I": "uint", "L": "ulong", "Q": "ulonglong", "e": "half",
            "f": "float", "d": "double", "F": "cfloat", "D": "cdouble"}


def _keeps_values(f, t):
    """Whether every value of dtype ``f`` is a value of ``t`` (bool: NumPy never refuses)."""
    if f.kind == "b" or t.kind == "b" or f == t:
        return True
    if not np.can_cast(f, t, "safe"):
        return False
    if f.kind in "iu" and t.kind in "fc":      # 'safe', yet int64 -> float64 rounds
        return f.itemsize * 8 - (f.kind == "i") <= np.finfo(t).nmant + 1
    return True


def _changed(x, y):
    """Booleans: where real ``y`` (``x`` cast) is not ``x``'s value; NaN stays NaN."""
    f, t = x.dtype, y.dtype
    if f.kind in "iu" and t.kind in "iu":
        lo, hi = np.iinfo(t), np.iinfo(f)
        bad = (x < lo.min) if lo.min > hi.min else None
        if lo.max < hi.max:
            bad = (x > lo.max) if bad is None else bad | (x > lo.max)
        return bad
    if f.kind in "iu":
        # back to the integer type from within its range (an overflowed y, inf or 2**63, is
        # clamped to a float that differs from x; out-of-range float -> int casts are undefined)
        info, top = np.iinfo(f), float(np.finfo(t).max)
        hi = float(info.max) + 1                     # a power of two: exact where finite
        hi = top if hi > top else np.nextafter(t.type(hi), t.type(0)).item()
        back = _ufuncs["maximum"](_ufuncs["minimum"](y, hi), max(-top, float(info.min)))
        return back.astype(f) != x
    if t.kind in "iu":
        info, top = np.iinfo(t), float(np.finfo(f).max)
        ok = _ufuncs["isfinite"](x)
        if float(info.min) >= -top:
            ok &= x >= float(info.min)
        if float(info.max) + 1 <= top:
            ok &= x < float(info.max) + 1            # a power of two: exact in every float type
        return ~ok | (y.astype(f) != x)
    return (y.astype(f) != x) & ~_ufuncs["isnan"](x)


def check_same_value(x, y):
    """``x.astype(y.dtype, casting='same_value')``'s check of the cast ``y``: NumPy's
    ValueError where a value changed (the host reads a flag, or the first failing element)."""
    f, t = x.dtype, y.dtype
    if _keeps_values(f, t) or x.size == 0:
        return
    msg = f"could not cast 'same_value' {_C_NAMES[f.char]} to {_C_NAMES[t.char]}"
    if f.kind == "c" and t.kind != "c":
        # NumPy stops at the first element that fails, its real part checked before its
        # imaginary part: that element's reason is the message (C order here)
        bad_real = _changed(x.real, y).ravel()
        bad = bad_real | (x.imag != 0).ravel()
        i = int(bad.argmax())
        if bool(bad[i]):
            raise ValueError(msg if bool(bad_real[i]) else msg + ": imag is not 0")
        return
    if f.kind == "c":
        bad = _changed(x.real, y.real) | _changed(x.imag, y.imag)
    else:
        bad = _changed(x, y.real if t.kind == "c" else y)
    if bad.any():
        raise ValueError(msg)
