"""Joining and splitting beyond manipulation.py: concat (NumPy 2's name), block, unstack, append.

block computes the whole layout on the host first (shapes of every nested level, NumPy's
checks and messages, the memory order NumPy's concatenations would give), then copies each
leaf into its slice of one output: one allocation and one copy kernel per leaf, no intermediate
concatenations.
"""
import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from ._core import copy as _copy
from ._core.ndarray import empty_array, ndarray
from .creation import asarray
from .manipulation import _empty_strided, _perm_strides, _stride_perm, concatenate

concat = concatenate     # NumPy 2 (and the Array API) name the same function concat


def _where(index):
    return "arrays" + "".join(f"[{i}]" for i in index if i is not None)


def _depths(arrays, index=()):
    """(bottom index, leaves as (index, array)): NumPy's checks of the nesting; a bottom index
    ending in None marks an empty list (NumPy reports mismatched depths before it)."""
    if isinstance(arrays, tuple):
        raise TypeError(f"{_where(index)} is a tuple. Only lists can be used to arrange blocks, "
                        "and np.block does not allow implicit conversion from tuple to ndarray.")
    if not isinstance(arrays, list):
        return index, [(index, asarray(arrays))]
    if not arrays:
        return index + (None,), []
    first, leaves = None, []
    for i, item in enumerate(arrays):
        bottom, sub = _depths(item, index + (i,))
        if first is None:
            first = bottom
        elif len(bottom) != len(first):
            raise ValueError(f"List depths are mismatched. First element was at depth "
                             f"{len(first)}, but there is an element at depth {len(bottom)} "
                             f"({_where(bottom)})")
        elif bottom[-1] is None:
            first = bottom
        leaves += sub
    return first, leaves


def _concat_shape(shapes, axis):
    nd = len(shapes[0])
    out = list(shapes[0])
    for i, s in enumerate(shapes[1:], 1):
        for d in range(nd):
            if d != axis % nd and s[d] != out[d]:
                raise ValueError("all the input array dimensions except for the concatenation "
                                 f"axis must match exactly, but along dimension {d}, the array at "
                                 f"index 0 has size {out[d]} and the array at index {i} has size "
                                 f"{s[d]}")
        out[axis] += s[axis]
    return tuple(out)


def _layout(arrays, depth, list_ndim, ndim, leaf, isz):
    """(shape, strides, [(offsets, array)]) of the block ``arrays`` at nesting ``depth``; the
    strides are those of NumPy's concatenation of this level (its memory order)."""
    if depth == list_ndim:
        a = next(leaf)
        a = a.reshape((1,) * (ndim - a.ndim) + a.shape)
        return a.shape, a._strides, [((0,) * ndim, a)]
    parts = [_layout(x, depth + 1, list_ndim, ndim, leaf, isz) for x in arrays]
    axis = ndim - (list_ndim - depth)
    shape = _concat_shape([p[0] for p in parts], axis)
    perm = _stride_perm([p[:2] for p in parts], ndim)
    placed, pos = [], 0
    for s, _, items in parts:
        for offs, a in items:
            placed.append((offs[:axis] + (offs[axis] + pos,) + offs[axis + 1:], a))
        pos += s[axis]
    return shape, _perm_strides(shape, perm, isz), placed


def block(arrays):
    bottom, leaves = _depths(arrays)
    if bottom and bottom[-1] is None:
        raise ValueError(f"List at {_where(bottom)} cannot be empty")
    list_ndim = len(bottom)
    arrs = [a for _, a in leaves]
    ndim = max(list_ndim, max(a.ndim for a in arrs))
    dt = np.result_type(*(a.dtype for a in arrs))
    shape, strides, placed = _layout(arrays, 0, list_ndim, ndim, iter(arrs), dt.itemsize)
    # NumPy's memory order: nested concatenations (their strides), a single array copied in C
    # order; past its size threshold, one allocation in F order when every piece is F
    if list_ndim * sum(a.size for a in arrs) > 2 * 512 * 512:
        f_order = all(a._f_contig for _, a in placed) and not all(a._c_contig
                                                                  for _, a in placed)
        out = empty_array(shape, dt, "F" if f_order else "C")
    elif list_ndim == 0:
        out = empty_array(shape, dt)
    else:
        out = _empty_strided(shape, strides, dt)
    for offs, a in placed:
        _copy.copy_into(out[tuple(slice(o, o + n) for o, n in zip(offs, a.shape))], a)
    return out


def unstack(x, /, *, axis=0):
    """Views ``x[..., i, ...]`` along ``axis``."""
    if not isinstance(x, ndarray):
        x = asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = normalize_axis_index(axis, x.ndim, "source")      # NumPy's message (moveaxis)
    head = (slice(None),) * axis
    return tuple(x[head + (i,)] for i in range(x.shape[axis]))


def append(arr, values, axis=None):
    arr = asarray(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        values = asarray(values).ravel()
        axis = arr.ndim - 1
    return concatenate((arr, values), axis=axis)
