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

The order-based ones sort: ``median`` is one ``lexsort`` by (value, label), each index value's
run found by ``searchsorted`` on the sorted labels and its middle element(s) gathered;
``histogram`` bins each element (``searchsorted`` in the edges) and counts (label slot, bin)
pairs with one ``bincount``; ``labeled_comprehension`` sorts by label and calls ``func`` on
each run (a host loop, as SciPy's); ``value_indices`` sorts the values and unravels the
permutation.
"""
import numpy as np

from ..._core.ndarray import ndarray
from ...ufuncs.at import ufunc_at
from ._morphology import device

__all__ = ["sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum", "maximum",
           "minimum_position", "maximum_position", "extrema", "center_of_mass", "median",
           "histogram", "labeled_comprehension", "value_indices"]

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
        idx = _index_values(lab, index)
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


def _index_values(lab, index):
    """``index`` on the device as SciPy's label-wise statistics read it: truncated to integers
    where the labels take SciPy's bincount path (3.5 selects label 3)."""
    idx = device(index)
    if idx.dtype.kind == "f" and _bincount_labels(lab):
        idx = idx.astype(_I64)      # SciPy's bincount path: np.asanyarray(index, np.int_)
    return idx


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
            if vals.size == 0:        # SciPy's error: its positions come from a reduction
                raise ValueError("zero-size array to reduction operation "
                                 f"{'maximum' if positions == 'max' else 'minimum'} "
                                 "which has no identity")
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
            ufunc_at(uf, acc, g.gid, xf, check=False)
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
            ufunc_at(_minimum, pos, g.gid, cand, check=False)
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
    return _positions(device(input).shape,
                      *_select(input, labels, index, False, False, "max"))[1]


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


# ---- order statistics, histograms, per-label calls, value indices -----------------------------
def median(input, labels=None, index=None):
    """``scipy.ndimage.median``: the median of each label's values (the mean of the two middle
    ones for an even count); int and bool input give float64, floats keep their dtype. One
    group (``labels`` None, ``index`` None or a scalar) is ``npgpu.median`` of its values (NaN
    when it is empty, as NumPy's); a sequence ``index`` gives an array of its shape, where an
    index value that no element has reads, as in SciPy, the smallest value of the smallest
    label."""
    from ...sorting.order_stats import median as _median
    x, lab = _prepare(input, labels)
    if lab is None or index is None or np.isscalar(index):
        return _median(x if lab is None else x[_single_mask(lab, index)])
    if lab.size == 0:                       # SciPy takes labels.min() here
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    from ...indexing.routines import take
    from ...logic import where
    from ...sorting.functions import lexsort
    from ...sorting.searching import searchsorted
    from ...ufuncs import add, floor_divide, greater, subtract, true_divide
    idx = _index_values(lab, index)
    xf, lf = _flat(x), _flat(lab)
    order = lexsort((xf, lf))               # each label's values contiguous and ascending
    sv, sl = take(xf, order, mode="clip"), take(lf, order, mode="clip")
    first, end = searchsorted(sl, idx, "left"), searchsorted(sl, idx, "right")
    half = floor_divide(subtract(subtract(end, first), 1), 2)
    found = greater(end, first)
    # an absent value reads position 0 twice: SciPy's run tables start as zeros
    lo = where(found, add(first, half), 0)
    hi = where(found, subtract(subtract(end, 1), half), 0)
    a, b = take(sv, lo, mode="clip"), take(sv, hi, mode="clip")
    if sv.dtype.kind in "iub":              # SciPy: no integer overflow, no bool addition
        a, b = a.astype(_F64), b.astype(_F64)
    return true_divide(add(a, b), 2.0)


def _prepare_lc(input, labels, index):
    """``labeled_comprehension``'s (input, labels), with SciPy's errors for an index without
    labels and for shapes that do not broadcast."""
    if labels is None:
        if index is not None:
            raise ValueError("index without defined labels")
        return device(input), None
    try:
        return _prepare(input, labels)
    except ValueError as e:
        raise ValueError("input and labels must have the same shape "
                         "(excepting dimensions with width 1)") from e


def _lc_index(lab, index):
    """``index`` as ``labeled_comprehension`` reads it: a host array (a small parameter; a
    device one is read once), at least 1-d, in the labels' dtype; SciPy's errors where that
    cast loses precision and for an empty index."""
    idx = np.atleast_1d(index.get() if isinstance(index, ndarray) else np.asarray(index))
    with np.errstate(invalid="ignore"):
        if np.any(idx.astype(lab.dtype).astype(idx.dtype) != idx):
            raise ValueError(f"Cannot convert index values from <{idx.dtype}> to <{lab.dtype}> "
                             "(labels' type) without loss of precision")
    if idx.size == 0:                       # SciPy takes index.min() here
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    return idx.astype(lab.dtype)


def _nest(items, shape):
    """The flat list ``items`` as nested lists of ``shape`` (``ndarray.tolist``'s layout)."""
    for n in reversed(shape[1:]):
        items = [items[i:i + n] for i in range(0, len(items), n)]
    return items


def _binned(xf, g, edges):
    """int64 counts, (index entries, bins), of the flat values ``xf`` by the groups ``g`` over
    the host ``edges``: NumPy's histogram bins (the last closed; NaN and outliers dropped)."""
    from ...creation import zeros
    from ...indexing.routines import take
    from ...logic import where
    from ...sorting.counting import bincount
    from ...sorting.searching import searchsorted
    from ...ufuncs import add, equal, greater_equal, less, logical_and, multiply, subtract
    if np.any(edges[:-1] > edges[1:]):
        raise ValueError("`bins` must increase monotonically, when an array")
    nb = edges.size - 1
    if nb <= 0:
        return zeros((g.sel.size, 0), _I64)
    ct = np.result_type(xf.dtype, edges.dtype)      # NumPy compares in the common type
    v = xf.astype(ct)
    j = subtract(searchsorted(device(edges.astype(ct)), v, "right"), 1)
    j = where(equal(v, ct.type(edges[-1])), nb - 1, j)
    ok = logical_and(greater_equal(j, 0), less(j, nb))
    key = where(ok, add(multiply(g.gid, nb), j), g.k * nb)     # row k: the discard row
    table = bincount(key, minlength=(g.k + 1) * nb).reshape(g.k + 1, nb)
    return take(table, g.sel.reshape(-1), axis=0, mode="clip")


def histogram(input, min, max, bins, labels=None, index=None):
    """``scipy.ndimage.histogram``: int64 counts of the values in ``bins`` equal bins over
    [min, max] (NumPy's ``histogram`` with those edges). ``labels`` or ``index`` None: one
    device array. A scalar ``index``: that array, or None where the label does not occur. A
    sequence ``index``: a Python list of them (nested lists for an index of several
    dimensions) where SciPy returns an object array; the arrays are rows of one device
    array."""
    edges = np.linspace(min, max, bins + 1)     # SciPy's edges, and its errors for bins
    x, lab = _prepare_lc(input, labels, index)
    if lab is None or index is None:
        from ...sorting.counting import histogram as _histogram
        return _histogram(x if lab is None else x[_single_mask(lab, None)], edges)[0]
    idx = _lc_index(lab, index)
    g = _Groups(lab, idx)
    # where None stands depends on the data: one read of the per-entry counts
    present = g.back(g.bincount()).get().reshape(-1) > 0
    rows = _binned(_flat(x), g, edges) if present.any() else None
    out = [rows[i] if p else None for i, p in enumerate(present)]
    return out[0] if np.isscalar(index) else _nest(out, idx.shape)


def labeled_comprehension(input, labels, index, func, out_dtype, default,
                          pass_positions=False):
    """``scipy.ndimage.labeled_comprehension``: ``func`` called on each label's values (a 1-d
    npgpu array, C order; with ``pass_positions`` also their flat positions, int64), once per
    ``index`` entry whose label occurs, in ascending index order as SciPy's; the results cast
    to ``out_dtype`` in an npgpu array of ``index``'s shape (0-d for a scalar ``index``), with
    ``default`` where the label does not occur. ``labels`` or ``index`` None: ``func``'s own
    result on all values / those of positive labels. An object ``out_dtype`` gives a NumPy
    object array (npgpu has none), as SciPy's."""
    from ...indexing.routines import take
    from ...manipulation import stack
    from ...sorting.functions import argsort
    from ...sorting.searching import searchsorted
    x, lab = _prepare_lc(input, labels, index)
    if lab is None or index is None:
        from ...creation import arange
        from ...indexing.compaction import select_indices
        if lab is None:
            return func(*[_flat(x)] + ([arange(x.size, dtype=_I64)] if pass_positions else []))
        m = _single_mask(lab, None)
        return func(*[x[m]] + ([select_indices(m)] if pass_positions else []))
    idx = _lc_index(lab, index)
    out = np.empty(idx.shape, out_dtype)
    out[:] = default                        # NumPy's cast of default, and its errors
    lf = _flat(lab)
    order = argsort(lf)                     # stable: C order within a label
    sl = take(lf, order, mode="clip")
    flat = idx.reshape(-1)
    calls = np.argsort(flat, kind="stable")
    probe = device(flat[calls])
    # the runs' bounds steer the host loop: one read of 2 * len(index) integers
    bounds = stack([searchsorted(sl, probe, "left"), searchsorted(sl, probe, "right")]).get()
    sv = take(_flat(x), order, mode="clip")
    outf, later = out.reshape(-1), []
    for i, lo, hi in zip(calls, *bounds):
        if lo == hi:
            continue
        r = func(*[sv[lo:hi]] + ([order[lo:hi]] if pass_positions else []))
        if isinstance(r, ndarray) and out.dtype != object:
            if r.ndim:
                raise ValueError("setting an array element with a sequence.")
            later.append((i, r))            # a device result stays on the device
        else:
            outf[i] = r
    if out.dtype == object:
        return outf[0] if np.isscalar(index) else out
    res = device(out)
    if later:
        pos = device(np.array([i for i, _ in later], _I64))
        res.reshape(-1)[pos] = stack([r.astype(out.dtype) for _, r in later])
    return res.reshape(()) if np.isscalar(index) else res


def value_indices(arr, *, ignore_value=None):
    """``scipy.ndimage.value_indices``: a dict from each distinct value of the integer array
    ``arr`` (ascending; NumPy scalars of its dtype) to a tuple of int64 npgpu arrays, one per
    axis, of the positions holding it in C order (views of one device array per axis);
    ``ignore_value`` (cast to ``arr``'s dtype) is left out."""
    from ...indexing.routines import take
    from ...sorting.functions import argsort
    from ...sorting.sets import runs
    from ...ufuncs import floor_divide, remainder
    a = device(arr)
    skip = None if ignore_value is None else a.dtype.type(ignore_value)   # SciPy's cast first
    if a.dtype.kind not in "iu":
        raise ValueError("Parameter 'arr' must be an integer array")
    if a.size == 0:
        return {}
    flat = _flat(a)
    perm = argsort(flat)                    # stable: C order within a value
    r = runs(take(flat, perm, mode="clip"), counts=True)
    # the keys must reach the host, and the entries' sizes are data: one read of each
    keys, counts = r.values.get(), r.counts.get()
    coords, stride = [], a.size
    for d, n in enumerate(a.shape):
        stride //= n
        c = perm if stride == 1 else floor_divide(perm, stride)
        coords.append(remainder(c, n) if d else c)
    ends = np.cumsum(counts)
    return {k: tuple(c[e - m:e] for c in coords) for k, m, e in zip(keys, counts, ends)
            if skip is None or k != skip}
