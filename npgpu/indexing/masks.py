"""Boolean masks and the routines built on compaction: ``a[mask]``, ``a[mask] = v``,
``nonzero``, ``argwhere``, ``flatnonzero``, ``compress``, ``extract``, ``place``, ``putmask``.

Each is argument checks with NumPy's errors, then one :mod:`.compaction` call.  Costs (launches,
device-to-host reads): ``a[mask]`` with a C-contiguous bool mask is the scan, one scatter kernel
and one 4-byte read of the count; ``a[mask] = scalar`` and ``putmask`` need no count (one kernel,
no read); ``a[mask] = values`` scans to check the number of values (scan, one kernel, one read).
A mask that is not a C-contiguous bool array costs one more elementwise kernel (``!= 0``).
"""
import numpy as np

from .._core import copy as _copy
from .._core import layout as _layout
from .._core.ndarray import empty_array, fail_unless_writeable, ndarray
from . import advanced as _adv
from . import compaction as _cp

_BOOL = np.dtype(np.bool_)


def _device(x):
    if isinstance(x, ndarray):
        return x
    from ..creation import asarray
    return asarray(x)


_shape_str = _layout.c_shape_text


def _mask(mask):
    m = _device(mask)
    if m.dtype != _BOOL:
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    return m


def check_mask(shape, mshape, start=0):
    """NumPy's IndexError when a boolean index of shape ``mshape`` does not fit ``shape`` from
    axis ``start`` on; False when it fits only because NumPy leaves a boolean axis of length 0
    unchecked (it selects nothing: the caller takes the general path, :func:`.advanced.parse`)."""
    end = start + len(mshape)
    if shape[start:end] == mshape:
        return True
    if end > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but {end} were indexed")
    for k, m in enumerate(mshape, start):
        if shape[k] != m and m:
            raise IndexError(f"boolean index did not match indexed array along axis {k}; size "
                             f"of axis is {shape[k]} but size of corresponding boolean axis is "
                             f"{m}")
    return False


# ---- a[mask] ----------------------------------------------------------------------------------
def mask_select(a, mask):
    """``a[mask]``: ``mask`` a boolean array whose shape is ``a.shape`` or a leading part of it
    (0-d included); a new array of shape ``(count,) + a.shape[mask.ndim:]``."""
    mask = _mask(mask)
    if not check_mask(a.shape, mask.shape):
        return _adv.gather(_adv.parse(a, mask))
    return _cp.select_values(a, mask)


def _scalar(value, dtype):
    """NumPy's conversion of a scalar assigned through a mask: NumPy scalars cast unsafely,
    Python scalars must fit (OverflowError for out-of-range ints, TypeError for complex into
    real, ...)."""
    return _adv.host_scalar(dtype, value)


def _assigned(a, value):
    """``value`` as a NumPy scalar of a's dtype, or a device array (cast on load, unsafely, as
    NumPy's setitem casts)."""
    if isinstance(value, ndarray):
        return value
    if isinstance(value, np.ndarray):
        return _scalar(value, a.dtype) if value.ndim == 0 else _device(value)
    if isinstance(value, (list, tuple, range)):     # range: a sequence, as NumPy's
        return _device(np.asarray(value, dtype=a.dtype))
    return _scalar(value, a.dtype)


def mask_setitem(a, mask, value):
    """``a[mask] = value`` with NumPy's rules: a mask of a's full shape takes a scalar, one
    value, or a 1-d array of exactly ``count`` values; a mask of leading axes takes anything
    that broadcasts to ``(count,) + a.shape[mask.ndim:]``.  Checked before anything is written."""
    mask = _mask(mask)
    if not check_mask(a.shape, mask.shape):
        _adv.scatter(_adv.parse(a, mask), value)
        return
    v = _assigned(a, value)
    if isinstance(v, np.generic):
        _cp.masked_fill(a, mask, v)
        return
    if v.dtype.kind == "c":
        _copy.warn_complex(a.dtype)
    if _copy.may_overlap(a, v):
        v = v.copy()
    rest = a.shape[mask.ndim:]
    if mask.ndim == a.ndim:                          # NumPy's boolean-assignment path
        if v.ndim > 1:
            raise TypeError("NumPy boolean array indexing assignment requires a 0 or "
                            f"1-dimensional input, input has {v.ndim} dimensions")
        if v.size == 1:
            _cp.masked_cycle(a, mask, v.reshape(1))
            return
        rk = _cp.rank(mask)
        if v.size != rk.count:
            raise ValueError(f"NumPy boolean array indexing assignment cannot assign {v.size} "
                             f"input values to the {rk.count} output values where the mask is "
                             "true")
        _cp.expand(a, rk, v.reshape((rk.count, 1)))
        return
    vs = v.shape
    while len(vs) > len(rest) + 1 and vs[0] == 1:   # NumPy drops leading unit dims of the value
        vs = vs[1:]
    if len(vs) <= len(rest) or vs[0] == 1:
        # the same value for every selected row: no count to read, one masked copy
        vr = vs[1:] if len(vs) > len(rest) else vs
        if not _layout.broadcasts_to(vr, rest):
            raise ValueError(f"shape mismatch: value array of shape {_shape_str(v.shape)} could "
                             "not be broadcast to indexing result of shape "
                             f"{_shape_str((_cp.rank(mask).count,) + rest)}")
        from ..manipulation import copyto
        copyto(a, v.reshape(vr), casting="unsafe",
               where=mask.reshape(mask.shape + (1,) * len(rest)))
        return
    rk = _cp.rank(mask)
    target = (rk.count,) + rest
    if not _layout.broadcasts_to(vs, target):
        raise ValueError(f"shape mismatch: value array of shape {_shape_str(v.shape)} could "
                         f"not be broadcast to indexing result of shape {_shape_str(target)}")
    v = v.reshape(vs)
    from ..manipulation import broadcast_to
    inner = int(np.prod(rest, dtype=np.int64))
    packed = broadcast_to(v, target).reshape((rk.count, inner))
    _cp.expand(a, rk, packed)


# ---- nonzero and friends ------------------------------------------------------------------------
def nonzero(a):
    """Indices of the non-zero elements: a tuple of ``a.ndim`` int64 arrays, C order (the columns
    of one ``(count, ndim)`` array, as NumPy's are)."""
    a = _device(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use "
                         "np.atleast_1d(scalar).nonzero() instead."
                         + (" If the context of this error is of the form `arr[nonzero(cond)]`, "
                            "just use `arr[cond]`." if a.dtype == np.bool_ else ""))
    if a.ndim == 1:
        return (_cp.select_indices(a),)
    coords = _cp.select_coords(a)
    return tuple(coords[:, d] for d in range(a.ndim))


def argwhere(a):
    """``(count, a.ndim)`` int64 coordinates of the non-zero elements (``(count, 0)`` for 0-d)."""
    a = _device(a)
    if a.ndim == 0:
        return _cp.select_coords(a.reshape(1))[:, :0]
    return _cp.select_coords(a)


def flatnonzero(a):
    """C-order linear indices of the non-zero elements of ``a`` (int64)."""
    return _cp.select_indices(_device(a))


# ---- compress / extract -------------------------------------------------------------------------
def _check_out(out, res):
    if not isinstance(out, ndarray):
        raise TypeError("output must be an npgpu array")
    if out.shape != res.shape:
        raise ValueError("output array does not match result of ndarray.take")
    if not np.can_cast(out.dtype, res.dtype, "safe"):
        # (NumPy's take checks the cast from ``out`` to the data's dtype)
        raise TypeError(f"Cannot cast array data from {out.dtype!r} to {res.dtype!r} "
                        "according to the rule 'safe'")


def compress(condition, a, axis=None, out=None):
    """The slices of ``a`` along ``axis`` (the flattened array for None) where ``condition``
    (1-d, truth of each element) is true.  A shorter condition counts as false past its end;
    a true entry past the axis' end is NumPy's out-of-bounds IndexError."""
    if isinstance(out, ndarray) and out._ro:      # NumPy writes through a copy of out
        fail_unless_writeable(out, "WRITEBACKIFCOPY base")
    cond = _device(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    a = _device(a)
    if axis is None:
        ax, n = 0, a.size
    else:
        if a.ndim == 0:
            a = a.reshape(1)
        ax = _layout.normalize_axis(axis, a.ndim)
        n = a.shape[ax]
    if cond.size > n:
        extra = _cp.select_indices(cond[n:])
        if extra.size and axis is not None and not _layout.prod(a.shape[:ax]):
            # NumPy's take checks nothing for an empty result: its shape counts every true
            shape = list(a.shape)
            shape[ax] = int(_cp.select_indices(cond).size)
            res = empty_array(tuple(shape), a.dtype)
            if out is None:
                return res
            _check_out(out, res)
            return out
        if extra.size and n == 0 and (axis is None or _layout.prod(a.shape[ax + 1:])):
            raise IndexError("cannot do a non-empty take from an empty axes.")
        if extra.size:
            raise IndexError(f"index {n + int(extra[0])} is out of bounds for axis {ax} "
                             f"with size {n}")
        cond = cond[:n]
    if axis is None:
        # flags over a's elements in C order: no flattening copy of a strided ``a``
        res = _cp.select_values(a, cond, axis=None) if cond.size == n else \
            _cp.select_values(a.reshape(-1)[:cond.size], cond)
    else:
        sl = (slice(None),) * ax + (slice(0, cond.size),)
        res = _cp.select_values(a[sl], cond, axis=ax)
    if out is None:
        return res
    _check_out(out, res)
    _copy.copy_into(out, res)
    return out


def extract(condition, arr):
    """``arr``'s elements where ``condition`` (both flattened, C order) is true."""
    cond = _device(condition)
    return compress(cond.reshape(-1), _device(arr))


# ---- place / putmask ------------------------------------------------------------------------------
def _fill_values(a, values):
    """Values of ``place``/``putmask`` as a 1-d device array: host lists and scalars converted to
    a's dtype as NumPy converts them; arrays must cast to it safely (NumPy's TypeError)."""
    if isinstance(values, (ndarray, np.ndarray)):
        if not np.can_cast(values.dtype, a.dtype, "safe"):
            raise TypeError(f"Cannot cast array data from {values.dtype!r} to {a.dtype!r} "
                            "according to the rule 'safe'")
        v = _device(values)
    else:
        v = _device(np.asarray(values, dtype=a.dtype))
    if _copy.may_overlap(a, v):
        v = v.copy()
    return v.reshape(-1)


def place(arr, mask, vals):
    """``arr.flat[mask.flat] = vals``, cycling through ``vals`` (NumPy's ``place``)."""
    if not isinstance(arr, ndarray):
        raise TypeError(f"place() argument 1 must be npgpu.ndarray, not {type(arr).__name__}")
    if arr._ro:
        fail_unless_writeable(arr, "WRITEBACKIFCOPY base")      # NumPy's words
    mask = _device(mask)
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    v = _fill_values(arr, vals)
    rk = _cp.rank(mask)
    if rk.count and v.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    rk = _cp.Ranks(rk.flags.reshape(arr.shape), rk.ranks, rk.count)
    if rk.count:
        _cp.expand(arr, rk, v.reshape((v.size, 1)), cyclic=True)


def putmask(a, /, mask, values):
    """``a.flat[i] = values.flat[i % values.size]`` where ``mask.flat[i]`` (NumPy's
    ``putmask``: the value is chosen by the element's position, not by the mask's count)."""
    if not isinstance(a, ndarray):
        raise TypeError("putmask: first argument must be an array")
    if a._ro:
        fail_unless_writeable(a, "putmask: output array")
    mask = _device(mask)
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    if _copy.may_overlap(a, mask):
        mask = mask.copy()          # NumPy reads a mask that shares a's memory first (gh-6272)
    v = _fill_values(a, values)
    _cp.masked_cycle(a, mask, v)
