"""``pad``: every string mode of NumPy's pad.

constant, edge, wrap, and reflect/symmetric with the default ``reflect_type='even'`` are index
maps (each output coordinate names a source coordinate, or a constant): one gather kernel
(:mod:`._remap`) writes the whole padded array.  The modes whose pad values are computed --
linear_ramp, maximum, minimum, mean, median, and reflect/symmetric with ``reflect_type='odd'``
-- follow NumPy's axis-by-axis algorithm on device views (the centre copied once, then per axis
a few kernels: a reduction, a median (:func:`npgpu.median` of the edge slab: a segmented sort
of its lines) or a ramp, and a broadcast copy per side), so their rounding is NumPy's.

Omitted, and documented: a callable ``mode`` (it would run a Python function per 1-d line).
"""

import numpy as np

from . import _remap
from ._core import copy as _copy
from ._core.ndarray import empty_array, ndarray
from ._remap import AxisMap, ident
from .creation import asarray
from .ranges import linspace
from .reductions import max as _amax
from .reductions import mean as _mean
from .reductions import min as _amin
from .sorting.order_stats import median as _median
from .ufuncs import FUNCTIONS, UFUNCS

_ALLOWED = {"empty": (), "edge": (), "wrap": (), "constant": ("constant_values",),
            "linear_ramp": ("end_values",), "maximum": ("stat_length",),
            "mean": ("stat_length",), "median": ("stat_length",), "minimum": ("stat_length",),
            "reflect": ("reflect_type",), "symmetric": ("reflect_type",)}
_STATS = {"maximum": _amax, "minimum": _amin, "mean": _mean, "median": _median}


def _pairs(x, ndim, as_index=False):
    """``x`` broadcast to ``ndim`` (before, after) pairs, NumPy's rules and messages."""
    if x is None:
        return [(None, None)] * ndim
    x = np.array(x.get() if isinstance(x, ndarray) else x)
    if as_index:
        x = np.round(x).astype(np.intp, copy=False)
        if x.size and x.min() < 0:
            raise ValueError("index can't contain negative values")
    if x.ndim < 3 and x.size == 1:
        v = x.reshape(-1)[0]
        return [(v, v)] * ndim
    if x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        v = x.reshape(-1)
        return [(v[0], v[1])] * ndim
    return [tuple(p) for p in np.broadcast_to(x, (ndim, 2)).tolist()]


def _widths(pad_width, ndim):
    if type(pad_width) is int and pad_width >= 0:     # the common call, without NumPy arrays
        return [(pad_width, pad_width)] * ndim
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * ndim
        for axis, w in pad_width.items():
            seq[axis] = (w, w) if isinstance(w, int) else tuple(w)
        pad_width = seq
    pw = np.asarray(pad_width.get() if isinstance(pad_width, ndarray) else pad_width)
    if pw.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return [(int(b), int(e)) for b, e in _pairs(pw, ndim, as_index=True)]


def _scalar(v, dt):
    """``v`` as NumPy assigns it into an array of ``dt``."""
    tmp = np.empty((), dt)
    tmp[()] = v
    return tmp[()]


def pad(array, pad_width, mode="constant", **kwargs):
    a = asarray(array)
    key = _remap.call_key("pad", a, pad_width, mode, tuple(sorted(kwargs.items())))
    out = _remap.call_replay(key, a)
    if out is not None:
        return out
    widths = _widths(pad_width, a.ndim)
    if callable(mode):
        raise NotImplementedError("npgpu.pad does not take a callable mode (it would run a "
                                  "Python function on every 1-d line); use a string mode")
    if mode not in _ALLOWED:
        raise ValueError(f"mode '{mode}' is not supported")
    extra = set(kwargs) - set(_ALLOWED[mode])
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {extra}")
    shape = tuple(n + b + e for n, (b, e) in zip(a.shape, widths))
    # NumPy pads an F-ordered (and not C-ordered) array into an F-ordered result
    order = "F" if a._f_contig and not a._c_contig else "C"
    if mode == "constant":
        values = _pairs(kwargs.get("constant_values", 0), a.ndim)
        maps = [ident(n) if b == e == 0 else
                AxisMap("const", n + b + e, b, n,
                        fill=(_scalar(v[0], a.dtype), _scalar(v[1], a.dtype)))
                for n, (b, e), v in zip(a.shape, widths, values)]
        return _remembered(key, a, maps, order)
    if mode == "empty":
        out = empty_array(shape, a.dtype, order)
        _copy.copy_into(out[_centre(a, widths)], a)
        return out
    if a.size == 0:
        for axis, (n, w) in enumerate(zip(a.shape, widths)):
            if n == 0 and any(w):
                raise ValueError(f"can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
        return empty_array(shape, a.dtype)
    odd = kwargs.get("reflect_type", "even") == "odd"
    if mode in ("edge", "wrap") or (mode in ("reflect", "symmetric") and not odd):
        maps = [ident(n) if b == e == 0 else _index_map(mode, n, b, n + b + e)
                for n, (b, e) in zip(a.shape, widths)]
        return _remembered(key, a, maps, order)
    if mode in _STATS:
        lengths = _pairs(kwargs.get("stat_length"), a.ndim, as_index=True)
        for n, pair in zip(a.shape, lengths):   # NumPy checks unpadded axes too
            _stat_lengths(n, pair, mode)
    out = empty_array(shape, a.dtype, order)
    centre = _centre(a, widths)
    _copy.copy_into(out[centre], a)
    for axis, (b, e) in enumerate(widths):
        if b == e == 0:
            continue
        # NumPy's region of interest: earlier axes padded, later ones the original extent
        roi = out[(slice(None),) * (axis + 1) + centre[axis + 1:]]
        if mode == "linear_ramp":
            _ramps(roi, axis, b, e, _pairs(kwargs.get("end_values", 0), a.ndim)[axis])
        elif mode in _STATS:
            _stats(roi, axis, b, e, lengths[axis], mode)
        else:
            _reflect_odd(roi, axis, b, e, a.shape[axis], mode == "symmetric")
    return out


def _remembered(key, a, maps, order):
    """``remap(a, maps)``, its launch stored for repeat calls of ``key``; in F order: the
    C-ordered gather of the transposes, transposed (not stored: replays make C order)."""
    if order == "F":
        # a corner takes the last padded axis's constant: reversed maps would take the first's
        if len({v.tobytes() for m in maps if m.kind == "const" for v in m.fill}) <= 1:
            return _remap.remap(a.T, maps[::-1]).T
        out = empty_array(tuple(m.size for m in maps), a.dtype, "F")
        _copy.copy_into(out, _remap.remap(a, maps))
        return out
    out = _remap.remap(a, maps)
    _remap.remember(key, a, maps, out)
    return out


def _centre(a, widths):
    return tuple(slice(b, b + n) for n, (b, _) in zip(a.shape, widths))


def _index_map(mode, m, b, size):
    """The axis map of an index mode: output coordinate c reads source coordinate f(c - b)."""
    e = size - m - b
    if mode == "edge":
        return AxisMap("edge", size, b, m)
    # pads no wider than one wrap / reflection take the division-free forms
    if mode == "wrap":
        if b <= m and e <= m:
            return AxisMap("wrap1", size, b, m)
        return AxisMap("mod", size, (-b) % m, m)
    if mode == "reflect":
        if m == 1:
            return AxisMap("zero", size)
        if b < m and e < m:
            return AxisMap("reflect1", size, b, m)
        return AxisMap("reflect", size, (-b) % (2 * m - 2), 2 * m - 2)
    if b <= m and e <= m:
        return AxisMap("symmetric1", size, b, m)
    return AxisMap("symmetric", size, (-b) % (2 * m), 2 * m)


def _side(axis, start, stop, step=None):
    return (slice(None),) * axis + (slice(start, stop, step),)


def _set(roi, axis, b, e, left, right):
    n = roi.shape[axis]
    if b:
        _copy.copy_into(roi[_side(axis, None, b)], left)
    if e:
        _copy.copy_into(roi[_side(axis, n - e, None)], right)


def _ramps(roi, axis, b, e, ends):
    n = roi.shape[axis]
    ramps = []
    for end, width, edge in ((ends[0], b, roi[_side(axis, b, b + 1)]),
                             (ends[1], e, roi[_side(axis, n - e - 1, n - e)])):
        ramps.append(linspace(end, edge.squeeze(axis),
                              width, endpoint=False, dtype=roi.dtype, axis=axis))
    _set(roi, axis, b, e, ramps[0], ramps[1][_side(axis, None, None, -1)])


def _stat_lengths(span, lengths, mode):
    """The (left, right) stat lengths on an axis of ``span`` values, NumPy's clipping and
    error."""
    ll, rl = (span if x is None or x > span else int(x) for x in lengths)
    if (ll == 0 or rl == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    return ll, rl


def _stats(roi, axis, b, e, lengths, mode):
    lo, hi = b, roi.shape[axis] - e
    span = hi - lo
    ll, rl = _stat_lengths(span, lengths, mode)
    stat = _STATS[mode]
    left = stat(roi[_side(axis, lo, lo + ll)], axis=axis, keepdims=True)
    right = left if ll == rl == span else stat(roi[_side(axis, hi - rl, hi)], axis=axis,
                                                keepdims=True)
    if roi.dtype.kind in "iu":         # NumPy rounds a statistic going into integers
        left, right = (FUNCTIONS["round"](x) if x.dtype.kind in "fc" else x for x in (left, right))
    _set(roi, axis, b, e, left, right)


def _reflect_odd(roi, axis, b, e, period, symmetric):
    """NumPy's iterative reflection with ``reflect_type='odd'``: chunks of at most one period,
    each ``2 * edge - mirrored chunk`` of the values padded so far."""
    if period == 1:                   # NumPy extends a singleton axis with its edge value
        n = roi.shape[axis]
        _set(roi, axis, b, e, roi[_side(axis, b, b + 1)], roi[_side(axis, n - e - 1, n - e)])
        return
    mul, sub = UFUNCS["multiply"], UFUNCS["subtract"]
    while b > 0 or e > 0:
        n = roi.shape[axis]
        old = n - b - e
        if symmetric:
            old, off = old // period * period, 1
        else:
            old, off = (old - 1) // (period - 1) * (period - 1), 0
        if b > 0:
            k = min(old, b)
            chunk = roi[_side(axis, b - off + k, b - off, -1)]
            chunk = sub(mul(2, roi[_side(axis, b, b + 1)]), chunk)
            _copy.copy_into(roi[_side(axis, b - k, b)], chunk)
            b -= k
        if e > 0:
            k = min(old, e)
            start = n - e + off - 2
            chunk = roi[_side(axis, start, start - k if start - k >= 0 else None, -1)]
            chunk = sub(mul(2, roi[_side(axis, n - e - 1, n - e)]), chunk)
            _copy.copy_into(roi[_side(axis, n - e, n - e + k)], chunk)
            e -= k
