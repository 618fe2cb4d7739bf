"""Shape manipulation: views where NumPy gives views, one copy kernel per piece otherwise.

Everything here is stride arithmetic on the host plus, for joins and masked copies,
the shared elementwise copy kernel; shapes, broadcasting and axis checks reuse NumPy's
own host-side helpers so errors read as NumPy's.
"""
import operator
import warnings
from math import prod as _prod

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ._codegen import elementwise as _ew
from ._core import copy as _copy
from ._core import layout as _layout
from ._core import transfer as _transfer
from ._core.dtypes import check_dtype
from ._core.ndarray import (READONLY, WARN_ON_WRITE, _new, empty_array, fail_unless_writeable,
                            ndarray)
from .creation import asarray
from .cuda import runtime as _runtime

_BOOL = np.dtype(np.bool_)
_WHERE = _ew.ScalarOp.from_expr("copyto_where", 3, "x1 if x2 else x0")


# ---- views --------------------------------------------------------------------------------------
def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    if newshape is not None:
        if shape is not None:
            raise TypeError("You cannot specify 'newshape' and 'shape' arguments at the same time.")
        shape = newshape
    if shape is None:
        raise TypeError("reshape() missing 1 required positional argument: 'shape'")
    return asarray(a).reshape(shape, order=order, copy=copy)


def ravel(a, order="C"):
    return asarray(a).ravel(order)


def transpose(a, axes=None):
    return asarray(a).transpose(axes)


def permute_dims(a, axes=None):
    return transpose(a, axes)


def matrix_transpose(x):
    return asarray(x).mT


def swapaxes(a, axis1, axis2):
    return asarray(a).swapaxes(axis1, axis2)


def moveaxis(a, source, destination):
    a = asarray(a)
    source = normalize_axis_tuple(source, a.ndim, "source")
    destination = normalize_axis_tuple(destination, a.ndim, "destination")
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return a.transpose(order)


def squeeze(a, axis=None):
    return asarray(a).squeeze(axis)


def expand_dims(a, axis):
    a = asarray(a)
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    out_ndim = len(axis) + a.ndim
    axis = normalize_axis_tuple(axis, out_ndim)
    it = iter(a.shape)
    shape = tuple(1 if d in axis else next(it) for d in range(out_ndim))
    return a.reshape(shape)


def _host_dummy(shape):
    """A host array of ``shape`` that owns no memory (all strides 0): lets NumPy check and
    report broadcasting exactly as it does for real arrays."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, np.int8), shape, (0,) * len(shape))


def _broadcast_view(a, shape):
    off = len(shape) - a.ndim
    strides = [0] * off
    for i, n in enumerate(a.shape):
        strides.append(0 if n == 1 and shape[off + i] != 1 else a._strides[i])
    return a._view(0, tuple(shape), tuple(strides))


def broadcast_to(array, shape, subok=False):
    a = asarray(array)
    # Python ints: NumPy integers given (scipy.stats computes shapes with NumPy) must not leak
    # into .shape, whose entries later reach ctypes and kernel signatures
    shape = ((operator.index(shape),) if isinstance(shape, (int, np.integer))
             else tuple(operator.index(n) for n in shape))
    np.broadcast_to(_host_dummy(a.shape), shape)        # NumPy's checks and messages
    v = _broadcast_view(a, shape)
    v._ro = READONLY             # elements may repeat in memory: NumPy's view is read-only
    return v


def broadcast_shapes(*shapes):
    return np.broadcast_shapes(*shapes)


def broadcast_arrays(*args, subok=False):
    arrs = [asarray(x) for x in args]
    shape = np.broadcast_shapes(*(x.shape for x in arrs))
    return tuple(x if x.shape == shape else _warn_on_write(_broadcast_view(x, shape)) for x in arrs)


def _warn_on_write(v):
    """NumPy 2's broadcast_arrays views: writeable when their array is, but a write warns (and
    reading ``flags.writeable`` warns that a future NumPy makes them read-only)."""
    if v._ro < READONLY:
        v._ro = WARN_ON_WRITE
    return v


def atleast_1d(*arys):
    res = tuple(a if a.ndim >= 1 else a.reshape(1) for a in map(asarray, arys))
    return res[0] if len(res) == 1 else res


def atleast_2d(*arys):
    res = []
    for a in map(asarray, arys):
        if a.ndim == 0:
            a = a.reshape(1, 1)
        elif a.ndim == 1:
            a = a[None, :]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    res = []
    for a in map(asarray, arys):
        if a.ndim == 0:
            a = a.reshape(1, 1, 1)
        elif a.ndim == 1:
            a = a[None, :, None]
        elif a.ndim == 2:
            a = a[:, :, None]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def flip(m, axis=None):
    m = asarray(m)
    axes = range(m.ndim) if axis is None else normalize_axis_tuple(axis, m.ndim)
    index = [slice(None)] * m.ndim
    for ax in axes:
        index[ax] = slice(None, None, -1)
    return m[tuple(index)]


def fliplr(m):
    m = asarray(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    m = asarray(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


# ---- joins --------------------------------------------------------------------------------------
def _check_cast(src_dt, dst_dt, casting, what="array data"):
    if src_dt == dst_dt:                # every rule casts a dtype to itself (no NumPy call)
        return
    if not np.can_cast(src_dt, dst_dt, casting=casting):
        if isinstance(casting, bytes):      # (NumPy names the rule decoded)
            casting = casting.decode("latin-1")
        raise TypeError(f"Cannot cast {what} from {src_dt!r} to {dst_dt!r} according to the "
                        f"rule '{casting}'")


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_INTC_MAX = int(np.iinfo(np.intc).max)


def _stride_perm(layouts, ndim):
    """NumPy's memory order of a join's result (PyArray_CreateMultiSortedStridePerm): the axes
    sorted by stride, largest first, over every (shape, strides) of ``layouts``; axes of length
    1 tell nothing, and where the inputs disagree C order wins."""
    perm = list(range(ndim))
    for i0 in range(1, ndim):
        ipos, ax0 = i0, perm[i0]
        for i1 in range(i0 - 1, -1, -1):
            ax1, ambig, swap = perm[i1], True, False
            for shape, strides in layouts:
                if shape[ax0] != 1 and shape[ax1] != 1:
                    if abs(strides[ax0]) <= abs(strides[ax1]):
                        swap = False
                    elif ambig:
                        swap = True
                    ambig = False
            if not ambig:
                if not swap:
                    break
                ipos = i1
        perm[ipos + 1:i0 + 1] = perm[ipos:i0]
        perm[ipos] = ax0
    return perm


def _perm_strides(shape, perm, itemsize):
    """Contiguous strides of ``shape`` with the axes in memory in ``perm``'s order."""
    strides, s = [0] * len(shape), itemsize
    for p in reversed(perm):
        strides[p] = s
        s *= shape[p]
    return tuple(strides)


def _empty_strided(shape, strides, dt):
    """An uninitialised array owning its memory, laid out with contiguous ``strides``."""
    if strides == _layout.c_strides(shape, dt.itemsize):
        return empty_array(shape, dt)
    mem = empty_array((_layout.prod(shape),), dt)
    return _new(mem._mem, mem._ptr, shape, strides, dt)


def _casting_arg(casting):
    """NumPy's check of a ``casting=`` argument (str, or bytes as NumPy takes them too)."""
    if not isinstance(casting, (str, bytes)):
        raise TypeError(f"casting must be str, not {type(casting).__name__}")
    if (casting.decode("latin-1") if isinstance(casting, bytes) else casting) not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' "
                         f"(got {casting!r})")


def _concat_blocks(arrays):
    """``concatenate(arrays)`` along axis 0 of a list or tuple of C-contiguous arrays of one
    native dtype, rank and trailing shape on this device (one device in use), by a copy a
    piece; None where that does not hold (the full path answers).  Its host time counts
    before the first copy starts (a 2 x 2^25 float32 concatenate: ~8 us of checks on the
    full path, ~3 here; CPU, copies stubbed)."""
    first = arrays[0]
    if first.__class__ is not ndarray or _runtime.multi_device[0]:
        return None
    shape, dt = first._shape, first._dtype
    if not shape or not dt.isnative:
        return None
    rest, n0 = shape[1:], 0
    for x in arrays:
        if not (x.__class__ is ndarray and x._c_contig and x._shape[1:] == rest
                and len(x._shape) == len(shape) and (x._dtype is dt or x._dtype == dt)):
            return None
        n0 += x._shape[0]
    return _copy_blocks(empty_array((n0,) + rest, dt), arrays)


def _copy_blocks(res, arrays):
    """``res`` with the C-contiguous ``arrays`` (its dtype) copied in one after another: a
    driver copy a piece."""
    off = res._ptr
    for x in arrays:
        nb = x._dtype.itemsize * _prod(x._shape)
        _transfer.d2d(off, x._ptr, nb)
        off += nb
    return res


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    if (out is None and dtype is None and axis.__class__ is int and axis == 0
            and casting == "same_kind" and arrays.__class__ in (list, tuple) and arrays):
        res = _concat_blocks(arrays)
        if res is not None:
            return res
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")
    _casting_arg(casting)
    if not hasattr(arrays, "__len__") and not isinstance(arrays, ndarray):
        raise TypeError("The first input argument needs to be a sequence")
    if not isinstance(arrays, ndarray) and len(arrays) > _INTC_MAX:
        # NumPy's limit, checked before the arrays are read
        raise ValueError(f"concatenate() only supports up to {_INTC_MAX} arrays but got "
                         f"{len(arrays)}.")
    arrs = [asarray(a) for a in arrays]
    if not arrs:
        raise ValueError("need at least one array to concatenate")
    # Python scalars are weak (NEP 50): they take the arrays' dtype, their cast unchecked
    weak = {} if isinstance(arrays, ndarray) else {
        i: v for i, v in enumerate(arrays) if type(v) in (int, float, complex)}
    flat = axis is None
    zero_d = {i for i, a in enumerate(arrs) if a.ndim == 0}     # NumPy's "scalar" in messages
    if flat:
        arrs = [a.ravel() for a in arrs]
        axis = 0
    nd = arrs[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for i, a in enumerate(arrs[1:], 1):
        if a.ndim != nd:
            raise ValueError("all the input arrays must have same number of dimensions, but the array "
                             f"at index 0 has {nd} dimension(s) and the array at index {i} has "
                             f"{a.ndim} dimension(s)")
    axis = _layout.normalize_axis(axis, nd)
    shape = list(arrs[0].shape)
    for i, a in enumerate(arrs[1:], 1):
        for d in range(nd):
            if d != axis and a.shape[d] != shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation axis "
                                 f"must match exactly, but along dimension {d}, the array at index 0 "
                                 f"has size {shape[d]} and the array at index {i} has size {a.shape[d]}")
        shape[axis] += a.shape[axis]
    shape = tuple(shape)
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("'out' must be an npgpu array")
        # NumPy's messages (axis=None: its flattened concatenate's)
        if out.ndim != len(shape):
            raise ValueError("Output array must be 1D" if flat
                             else "Output array has wrong dimensionality")
        if out.shape != shape:
            raise ValueError(f"Output array is the wrong {'size' if flat else 'shape'}")
        if out._ro:
            fail_unless_writeable(out, "assignment destination")
        dt = out.dtype
    else:
        dt = check_dtype(dtype) if dtype is not None else arrs[0].dtype
        if dtype is None and (weak or not dt.isnative or any(a.dtype != dt for a in arrs)):
            dt = np.result_type(*(weak.get(i, a.dtype) for i, a in enumerate(arrs)))
    for i, a in enumerate(arrs):
        if i not in weak:
            _check_cast(a.dtype, dt, casting, "scalar" if i in zero_d else "array data")
    if out is not None:
        res = out
    elif nd == 1 or all(a._c_contig for a in arrs):
        res = empty_array(shape, dt)
    else:                   # NumPy's result follows the inputs' memory order (F inputs: F)
        perm = _stride_perm([(a.shape, a._strides) for a in arrs], nd)
        res = _empty_strided(shape, _perm_strides(shape, perm, dt.itemsize), dt)
    if out is None and all(n == 1 for n in shape[:axis]) and all(
            a._c_contig and a.dtype == dt for a in arrs):
        # every piece is one contiguous block of the new result: a memcpy each, without the
        # views and overlap checks of copy_into (their host time, before the first copy starts,
        # was 14% of a 2 x 2^25 float32 concatenate on the H200)
        # (one launch copying every piece in 16-byte units, a Numba template measured on the
        # H200 on 2026-12-04, 2 x 2^25 float32: the kernel 143.5 us against 142.0 for the two
        # driver copies, the whole concatenate 159.0 us against 146.2: not kept;
        # benchmarks/experiments/copy_pieces.py has the CUDA C forms)
        return _copy_blocks(res, arrs)
    pos = 0
    for a in arrs:
        n = a.shape[axis]
        if n:
            index = (slice(None),) * axis + (slice(pos, pos + n),)
            _copy.copy_into(res[index], a)
        pos += n
    return res


def _stack_sequence(arrays):
    """NumPy's refusal of a generator (anything that cannot be indexed) by the stack family."""
    if not hasattr(arrays, "__getitem__"):
        raise TypeError('arrays to stack must be passed as a "sequence" type such as list or '
                        'tuple.')


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    _casting_arg(casting)
    _stack_sequence(arrays)
    arrs = [asarray(a) for a in arrays]
    if not arrs:
        raise ValueError("need at least one array to stack")
    if any(a.shape != arrs[0].shape for a in arrs):
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis_tuple(axis, arrs[0].ndim + 1)[0]
    sh = arrs[0].shape
    sh = sh[:axis] + (1,) + sh[axis:]           # each array with the new axis: a view
    return concatenate([a.reshape(sh) for a in arrs], axis=axis, out=out, dtype=dtype,
                       casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    _stack_sequence(tup)
    arrs = atleast_2d(*tup)
    arrs = arrs if isinstance(arrs, tuple) else (arrs,)
    return concatenate(arrs, 0, dtype=dtype, casting=casting)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    # NumPy 2's deprecated alias warns
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


row_stack.__doc__ = vstack.__doc__


def hstack(tup, *, dtype=None, casting="same_kind"):
    _stack_sequence(tup)
    arrs = atleast_1d(*tup)
    arrs = arrs if isinstance(arrs, tuple) else (arrs,)
    if arrs and arrs[0].ndim == 1:
        return concatenate(arrs, 0, dtype=dtype, casting=casting)
    return concatenate(arrs, 1, dtype=dtype, casting=casting)


def dstack(tup):
    _stack_sequence(tup)
    arrs = atleast_3d(*tup)
    arrs = arrs if isinstance(arrs, tuple) else (arrs,)
    return concatenate(arrs, 2)


def column_stack(tup):
    _stack_sequence(tup)
    arrs = []
    for v in tup:
        a = asarray(v)
        if a.ndim < 2:
            a = atleast_2d(a).T
        arrs.append(a)
    return concatenate(arrs, 1)


# ---- splits (views) -----------------------------------------------------------------------------
def array_split(ary, indices_or_sections, axis=0):
    ary = asarray(ary)
    axis = _layout.normalize_axis(axis, ary.ndim)
    total = ary.shape[axis]
    try:
        points = [0] + list(indices_or_sections) + [total]
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(total, sections)
        sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
        points = list(np.cumsum(sizes))
    head = (slice(None),) * axis
    # (the points as slice bounds, unconverted: NumPy's TypeError for float or bool points)
    return [ary[head + (slice(points[i], points[i + 1]),)] for i in range(len(points) - 1)]


def split(ary, indices_or_sections, axis=0):
    ary = asarray(ary)
    try:
        len(indices_or_sections)
    except TypeError:
        sections = indices_or_sections
        n = ary.shape[_layout.normalize_axis(axis, ary.ndim)]
        if n % sections:        # (sections 0: NumPy's ZeroDivisionError, from this modulo)
            raise ValueError("array split does not result in an equal division") from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    ary = asarray(ary)
    if ary.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


# ---- copyto -------------------------------------------------------------------------------------
def copyto(dst, src, casting="same_kind", where=True):
    """NumPy's copyto: src broadcast into dst, cast by ``casting``, only where ``where``."""
    if not isinstance(dst, ndarray):
        raise TypeError(f"copyto() argument 1 must be npgpu.ndarray, not {type(dst).__name__}")
    if dst._ro:
        fail_unless_writeable(dst, "assignment destination")
    _casting_arg(casting)
    if isinstance(src, (int, float, complex, np.generic)) or (isinstance(src, np.ndarray) and src.ndim == 0):
        # a scalar: NumPy's own assignment into a 0-d host array checks the cast (NEP 50)
        tmp = np.empty((), dst.dtype)
        np.copyto(tmp, src, casting=casting)
        src = tmp[()]
    else:
        src = asarray(src)
        _check_cast(src.dtype, dst.dtype, casting)
        if src.shape != dst.shape and not _layout.broadcasts_to(src.shape, dst.shape):
            raise ValueError("could not broadcast input array from shape "     # NumPy's message
                             f"{_layout.c_shape_text(src.shape)} into shape "
                             f"{_layout.c_shape_text(dst.shape)}")
    if where is True:
        _copy.copy_into(dst, src) if isinstance(src, ndarray) else _copy.fill(dst, src)
        return
    if isinstance(where, (ndarray, np.ndarray)):
        where = asarray(where)
        _check_cast(where.dtype, _BOOL, "safe")
    else:
        # NumPy's: a list or scalar is discovered as bool ([[0, 1], [1, 0]] is a mask)
        where = asarray(where, dtype=_BOOL)
    if not _layout.broadcasts_to(where.shape, dst.shape):
        raise ValueError("could not broadcast where mask from shape "         # NumPy's message
                         f"{_layout.c_shape_text(where.shape)} into shape "
                         f"{_layout.c_shape_text(dst.shape)}")
    if dst.size == 0:
        return
    if isinstance(src, ndarray) and _copy.may_overlap(dst, src) and not _copy.same_elements(dst, src, dst.shape):
        src = src.copy()
    _ew.launch(_WHERE, [dst, src, where], [dst.dtype, dst.dtype, _BOOL], [dst], [dst.dtype],
               name="copyto")
