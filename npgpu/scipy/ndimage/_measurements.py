"""Measurements by labels (``scipy.ndimage.sum_labels``, ``mean``, ``minimum``...) from npgpu's
primitives: no kernels of their own.

* ``labels`` None, or ``index`` None / a scalar: one group (all elements, ``labels > 0`` or
  ``labels == index``), selected by a mask (``a[mask]``: a scan and a scatter) and reduced by
  npgpu's reductions -- SciPy's ``vals.sum()`` / ``vals.min()``, with its dtypes (and its error
  for an empty group).
* ``index`` a sequence or array: the distinct index values ``u`` (``unique``), each element's
  group ``searchsorted(u, label)`` (``len(u)``, a discard bin, when its label is not in ``u``),
  then ``bincount`` with weights (sums, counts, centred squares: float64 as in SciPy) or
  ``minimum.at`` / ``maximum.at`` (minima, maxima and first positions, in the input's dtype);
  results are gathered back in ``index``'s order and shape; absent labels give 0.

Results are npgpu arrays (0-d for one group); ``center_of_mass`` and ``extrema``'s positions
are host tuples as SciPy's are (one device-to-host copy).
"""
import numpy as np

from ..._core.ndarray import ndarray
from ._morphology import device

__all__ = ["sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum", "maximum",
           "minimum_position", "maximum_position", "extrema", "center_of_mass"]

_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)


def _prepare(input, labels):
    from ...manipulation import broadcast_arrays
    x = device(input)
    if labels is None:
        return x, None
    lab = device(labels)
    x, lab = broadcast_arrays(x, lab)
    return x, lab


def _single_mask(lab, index):
    from ...ufuncs import equal, greater
    return greater(lab, 0) if index is None else equal(lab, index)


class _Groups:
    """Per-element group ids for a sequence ``index``: ``gid`` (flat int64, ``k`` = the
    discard bin), ``k`` distinct values, ``sel`` (positions of ``index``'s values among them,
    index's shape)."""

    def __init__(self, lab, index):
        from ...indexing.routines import take
        from ...logic import where
        from ...sorting.searching import searchsorted
        from ...sorting.sets import unique
        from ...ufuncs import equal, minimum
        idx = device(index)
        if idx.dtype.kind == "f" and _bincount_labels(lab):
            idx = idx.astype(_I64)      # SciPy's bincount path: np.asanyarray(index, np.int_)
        u = unique(idx)
        self.k = k = u.size
        flat = lab.reshape(-1) if lab._c_contig else lab.copy().reshape(-1)
        if k == 0:
            self.gid = minimum(searchsorted(u, flat), 0)
        else:
            pos = minimum(searchsorted(u, flat), k - 1)
            self.gid = where(equal(take(u, pos), flat), pos, k)
        self.sel = searchsorted(u, idx)
        self.n = flat.size

    def bincount(self, weights=None):
        from ...sorting.counting import bincount
        return bincount(self.gid, weights, minlength=self.k + 1)

    def back(self, per_group):
        """Per-group values (k + 1 entries) in index's order and shape."""
        from ...indexing.routines import take
        return take(per_group, self.sel)


def _bincount_labels(lab):
    """SciPy's test for labelling groups by the labels themselves (no remapping): an integer
    dtype that casts safely to np.int_ and labels in 0..size; its index is then truncated to
    integers (3.5 selects label 3)."""
    dt = lab.dtype
    if not ((dt.kind == "i" and dt.itemsize <= 8) or (dt.kind == "u" and dt.itemsize < 8)):
        return False
    return lab.size > 0 and int(lab.min().get()) >= 0 and int(lab.max().get()) <= lab.size


def _check_index(index):
    """SciPy's error for a 0-d array ``index`` (not a scalar to ``np.isscalar``): its
    per-label counts become a NumPy scalar, which it then assigns into."""
    if getattr(index, "ndim", None) == 0 and not np.isscalar(index):
        raise TypeError("'numpy.int64' object does not support item assignment")


def _flat(x):
    return x.reshape(-1) if x._c_contig else x.copy().reshape(-1)


def _stats(input, labels, index, centered):
    """(count, sum[, centred sum of squares]) as SciPy's ``_stats``."""
    from ...reductions.functions import sum as _sum
    from ...ufuncs import subtract, multiply
    x, lab = _prepare(input, labels)
    if lab is None or index is None or np.isscalar(index):
        vals = x if lab is None else x[_single_mask(lab, index)]
        out = [vals.size, _sum(vals)]
        if centered:
            c = subtract(vals, _sum(vals) / vals.size if vals.size else 0)
            out.append(_sum(_abs2(c)))
        return out
    g = _Groups(lab, index)
    xf = _flat(x)
    counts = g.bincount()
    sums = g.bincount(xf)           # complex input: bincount's error for complex weights
    _check_index(index)
    out = [g.back(counts), g.back(sums)]
    if centered:
        from ...indexing.routines import take
        from ...ufuncs import divide, maximum
        means = divide(sums, maximum(counts, 1))
        c = subtract(xf, take(means, g.gid))
        out.append(g.back(g.bincount(_abs2(c))))
    return out


def _abs2(c):
    """SciPy's centred squares: ``c * c.conjugate()`` for complex input (a complex array)."""
    from ...ufuncs import conjugate, multiply
    return multiply(c, conjugate(c) if c.dtype.kind == "c" else c)


def sum_labels(input, labels=None, index=None):
    """``scipy.ndimage.sum_labels``."""
    return _stats(input, labels, index, False)[1]


sum = sum_labels


def mean(input, labels=None, index=None):
    """``scipy.ndimage.mean`` (float64)."""
    from ...ufuncs import true_divide
    count, s = _stats(input, labels, index, False)
    return true_divide(s, device(count, _F64) if isinstance(count, ndarray) else
                       np.float64(count))


def variance(input, labels=None, index=None):
    """``scipy.ndimage.variance``: the mean centred square (population variance)."""
    from ...ufuncs import true_divide
    count, _, c2 = _stats(input, labels, index, True)
    return true_divide(c2, device(count, _F64) if isinstance(count, ndarray) else
                       np.float64(count))


def standard_deviation(input, labels=None, index=None):
    """``scipy.ndimage.standard_deviation``."""
    from ...ufuncs import sqrt
    return sqrt(variance(input, labels, index))


def _select(input, labels, index, want_min, want_max, positions):
    """[min][, max][, min position, max position] (flat C-order positions, first occurrence)."""
    from ...reductions.functions import argmax, argmin, max as _max, min as _min
    x, lab = _prepare(input, labels)
    if lab is None or index is None or np.isscalar(index):
        if lab is None:
            vals, where_ = _flat(x), None
        else:
            from ...indexing.compaction import select_indices
            m = _single_mask(lab, index)
            vals = x[m]
            where_ = select_indices(m) if positions else None
        out = []
        if want_min:
            out.append(_min(vals))
        if want_max:
            out.append(_max(vals))
        if positions:
            lo, hi = argmin(vals), argmax(vals)
            if where_ is not None:
                lo, hi = where_[lo], where_[hi]
            out += [int(lo.get()), int(hi.get())]
        return out
    from ...creation import arange, full
    from ...indexing.routines import take
    from ...logic import where
    from ...ufuncs import equal, maximum as _maximum, minimum as _minimum
    g = _Groups(lab, index)
    xf = _flat(x)
    empty = equal(g.bincount(), 0)
    dt = xf.dtype
    if dt.kind in "fc":                 # complex: NumPy's lexicographic order
        hi_v, lo_v = (np.inf, -np.inf) if dt.kind == "f" else \
            (complex(np.inf, np.inf), complex(-np.inf, -np.inf))
    elif dt.kind == "b":
        hi_v, lo_v = True, False
    else:
        hi_v, lo_v = np.iinfo(dt).max, np.iinfo(dt).min
    out, ext = [], []
    for want, init, uf in ((want_min, hi_v, _minimum), (want_max, lo_v, _maximum)):
        if want or positions:
            acc = full((g.k + 1,), init, dt)
            uf.at(acc, g.gid, xf)
            acc = where(empty, np.zeros((), dt), acc)
            ext.append(acc)
            if want:
                out.append(g.back(acc))
    if positions:
        n = g.n
        ids = arange(n, dtype=_I64)
        for acc in ext:
            cand = where(equal(xf, take(acc, g.gid)), ids, n)
            pos = full((g.k + 1,), n, _I64)
            _minimum.at(pos, g.gid, cand)
            pos = where(equal(pos, n), 0, pos)
            out.append(g.back(pos))
    return out


def minimum(input, labels=None, index=None):
    """``scipy.ndimage.minimum`` (input's dtype; 0 for a label that does not occur)."""
    return _select(input, labels, index, True, False, False)[0]


def maximum(input, labels=None, index=None):
    """``scipy.ndimage.maximum``."""
    return _select(input, labels, index, False, True, False)[0]


def _positions(shape, lo, hi):
    """The flat positions ``lo``, ``hi`` of :func:`_select` as SciPy gives them: coordinate
    tuples on the host (one read), a list of them for a sequence ``index``."""
    if isinstance(lo, int) or lo.ndim == 0:        # one group (a 0-d index too: SciPy's)
        return tuple(np.unravel_index(int(lo), shape)), tuple(np.unravel_index(int(hi), shape))
    lo, hi = lo.get().reshape(-1), hi.get().reshape(-1)
    return ([tuple(np.unravel_index(p, shape)) for p in lo],
            [tuple(np.unravel_index(p, shape)) for p in hi])


def extrema(input, labels=None, index=None):
    """``scipy.ndimage.extrema``: (minimums, maximums, min positions, max positions); the
    positions are coordinate tuples on the host (a list of them for a sequence ``index``),
    each the first occurrence in C order."""
    mins, maxs, lo, hi = _select(input, labels, index, True, True, True)
    return (mins, maxs) + _positions(device(input).shape, lo, hi)


def minimum_position(input, labels=None, index=None):
    """``scipy.ndimage.minimum_position``: the coordinates of the first minimum in C order (a
    list of tuples for a sequence ``index``; (0, ...) for a label that does not occur)."""
    return _positions(device(input).shape, *_select(input, labels, index, False, False, True))[0]


def maximum_position(input, labels=None, index=None):
    """``scipy.ndimage.maximum_position``: as :func:`minimum_position`, of the maximum."""
    return _positions(device(input).shape, *_select(input, labels, index, False, False, True))[1]


def center_of_mass(input, labels=None, index=None):
    """``scipy.ndimage.center_of_mass``: a tuple of floats (a list of tuples for a sequence
    ``index``), read from the device in one copy."""
    from ...creation import arange
    from ...manipulation import stack
    from ...ufuncs import multiply, true_divide
    x = device(input)
    norm = sum_labels(x, labels, index)
    res = []
    for d, n in enumerate(x.shape):
        shape = [1] * x.ndim
        shape[d] = n
        grid = arange(n, dtype=_F64).reshape(shape)
        res.append(true_divide(sum_labels(multiply(x, grid), labels, index), norm))
    if not res:
        return ()
    host = stack(res).get()
    if np.isscalar(index) or index is None or labels is None:
        return tuple(host)           # NumPy scalars, as SciPy's
    return [tuple(v) for v in host.T]        # SciPy's layout, for any index shape
