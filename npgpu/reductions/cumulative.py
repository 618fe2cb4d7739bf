"""``cumulative_sum`` and ``cumulative_prod`` (the Array API's scans, NumPy >= 2.1's names).

NumPy's rules: a 0-d input is scanned as one element, ``axis`` may be left out only for
arrays of at most one dimension, ``include_initial`` puts the identity before each scan.
One allocation: the identity is filled into the first slice along the axis and the scan of
:mod:`.scan` writes straight into the slice after it (no concatenation, no second copy).
"""
import numpy as np

from .._core import copy as _copy
from .._core import layout as _layout
from . import reduce as _r
from . import scan as _scan
from . import ufunc_methods as _um


def _cumulative(name, np_func, x, axis, dtype, out, include_initial):
    a = _r.as_array(x)
    if a.ndim == 0:
        a = a.reshape(1)
    if axis is None:
        if a.ndim >= 2:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument "
                             "is required.")
        axis = 0
    ax = _layout.normalize_axis(axis, a.ndim)
    kw = {"axis": ax, "include_initial": bool(include_initial)}
    if dtype is not None:
        kw["dtype"] = dtype
    res = _r.dry_run(np_func, a, kw, out=out)      # NumPy's dtype and argument errors
    dt = res.dtype if out is None else np.dtype(dtype or res.dtype)
    shape = list(a.shape)
    if include_initial:
        shape[ax] += 1
    r = _r.prepare_out(out, tuple(shape), dt)
    if r.size == 0:
        return r
    body = r
    if include_initial:
        lead = (slice(None),) * ax
        _copy.fill(r[lead + (slice(0, 1),)], 0 if name == "add" else 1)
        body = r[lead + (slice(1, None),)]
    if body.size:
        _scan._accumulate(_um.ufunc_by_name(name), a, ax, dt, body)
    return r


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """``numpy.cumulative_sum``: running sums along ``axis``; ``include_initial`` starts each
    with 0 (the result is one longer along the axis)."""
    return _cumulative("add", np.cumulative_sum, x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """``numpy.cumulative_prod``: running products along ``axis``; ``include_initial`` starts
    each with 1."""
    return _cumulative("multiply", np.cumulative_prod, x, axis, dtype, out, include_initial)
