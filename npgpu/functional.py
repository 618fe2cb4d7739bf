"""fromfunction, apply_along_axis, apply_over_axes, piecewise: NumPy's functional helpers,
composed of npgpu's own operations.

The Python-level loops are NumPy's (one call of the user's function per 1-D slice, per axis,
per condition); every array they touch stays on the device. piecewise reads how many elements
each condition selects, as NumPy's algorithm does (``x[cond]`` has that many elements).
"""
import collections.abc

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import _like
from ._core.ndarray import ndarray
from .creation import asanyarray, asarray, zeros, zeros_like
from .logic import ndim as _ndim
from .manipulation import concatenate, expand_dims
from .ranges import indices
from .reductions import any as _any

__all__ = ["fromfunction", "apply_along_axis", "apply_over_axes", "piecewise"]


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """``function(*indices(shape, dtype), **kwargs)``: the function sees one device array of
    coordinates per axis. ``like`` is accepted for NumPy's signature (results are npgpu's)."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(fromfunction, like, locals())
    return function(*indices(shape, dtype=dtype), **kwargs)


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d`` applied to each 1-D slice of ``arr`` along ``axis``; its results (scalars or
    arrays of one shape) fill the new axes that replace ``axis``."""
    arr = asanyarray(arr)
    nd = arr.ndim
    axis = normalize_axis_index(axis, nd)
    dims = list(range(nd))
    view = arr.transpose(dims[:axis] + dims[axis + 1:] + [axis])
    # the trailing Ellipsis keeps each slice an array, never a scalar (NumPy's gh-8642)
    inds = (ind + (Ellipsis,) for ind in np.ndindex(view.shape[:-1]))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0") from None
    res = asanyarray(func1d(view[ind0], *args, **kwargs))
    # results are stored with the iteration axes first, so each store is one contiguous block
    buff = zeros(view.shape[:-1] + res.shape, dtype=res.dtype)
    buff[ind0] = res
    for ind in inds:
        buff[ind] = asanyarray(func1d(view[ind], *args, **kwargs))
    bd = list(range(buff.ndim))
    split = buff.ndim - res.ndim
    return buff.transpose(bd[:axis] + bd[split:] + bd[axis:split])


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` repeated over ``axes``; a result that lost ``axis`` gets it back with
    length 1, so each step keeps the number of dimensions."""
    val = asarray(a)
    n = a.ndim
    if _ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = n + axis
        res = func(val, axis)
        if res.ndim != val.ndim:
            res = expand_dims(res, axis)
            if res.ndim != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        val = res
    return val


def _one_condition(condlist, x):
    """Whether ``condlist`` is a single condition, by NumPy's test (a scalar, or its first
    entry is neither a list nor an array). A device array is judged by its ndim: its 0-d
    arrays stand where NumPy has scalars (``x < 0`` of a 0-d ``x``), and indexing one row
    gives NumPy a scalar where npgpu gives a 0-d array."""
    if isinstance(condlist, ndarray):
        return condlist.ndim == 0 or (condlist.ndim == 1 and x.ndim != 0)
    if np.isscalar(condlist):
        return True
    first = condlist[0]             # a 0-d host condlist raises IndexError here, as in NumPy
    return not isinstance(first, (list, np.ndarray, ndarray)) and x.ndim != 0


def piecewise(x, condlist, funclist, *args, **kw):
    """An array like ``x`` holding ``funclist[i](x[cond_i], *args, **kw)`` where ``cond_i``
    holds (later conditions win); a scalar entry is a constant, an extra last entry covers
    the elements no condition selects, elements no entry covers are 0."""
    x = asanyarray(x)
    n2 = len(funclist)
    if _one_condition(condlist, x):
        condlist = [condlist]
    condlist = asarray(condlist, dtype=bool)
    n = len(condlist)
    if n == n2 - 1:
        condelse = ~_any(condlist, axis=0, keepdims=True)
        condlist = concatenate([condlist, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(
            f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(x)
    for cond, func in zip(condlist, funclist):
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y
