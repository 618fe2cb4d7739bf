"""``sort``, ``argsort`` and friends: NumPy's signatures on top of the radix sort.

Every sort is stable (NumPy's ``kind=``/``stable=`` are checked and accepted; the device sort
is always the stable one).  The axis is moved last and made C-contiguous (one copy when it is
not already), so a sort along an axis is a sort of ``nrow`` rows of ``m`` elements:

* one row (1-d, ``axis=None``): the radix sort of the values' key parts (:mod:`.keys`);
  integers and bool sort their keys alone and decode them, floats carry their bits beside the
  keys, complex sorts a permutation by its three key parts and gathers;
* several rows: the permutation of the flattened rows, sorted by the values' key parts and then
  by the row id (the most significant part), its indices taken ``% m``; ``sort`` gathers.
"""
import operator
import os

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .._codegen import compiler
from .._core.ndarray import empty_array, ndarray
from . import cub_sort as _cub
from . import keys as _keys
from . import radix as _radix
from . import segmented as _seg

_I64 = np.dtype(np.int64)
# Tiny calls (issues 14, 20): a C-contiguous array sorted along its last axis in rows the
# one-block row kernel takes (segmented.py; on the GPU up to 2048 elements) skips the general
# path's views, key-part objects and reshapes: its plan (kernel, block) is cached per (dtype, row
# length, argsort, descending), so a call is the argument checks, one allocation and one launch.
# Stub driver (benchmarks/experiments/sort_host_overhead.py): sort float32 16 26.3 -> 3.9 us.
# NPGPU_SORT_TINY=0 (or ``TINY = False``): the general path, for A/B runs.
TINY = os.environ.get("NPGPU_SORT_TINY", "1") != "0"
_TINY_PLANS = compiler.clears_with_memory_cache({})


def _asarray(a):
    if isinstance(a, ndarray):
        return a
    from ..creation import asarray
    return asarray(a)


def _check_kind(kind, stable, order):
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    if kind is not None:
        if stable is not None:
            raise ValueError("`kind` and keyword parameters can't be provided at the same time. "
                             "Use only one of them.")
        if isinstance(kind, bytes):         # NumPy takes bytes as their ASCII text
            kind = kind.decode("ascii", "replace")
            if not kind or kind[0].lower() not in "qmhs":
                raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' "
                                 f"(got {kind.encode()!r})")
        if not isinstance(kind, str):
            raise TypeError(f"sort kind must be str, not {type(kind).__name__}")
        if not kind or kind[0].lower() not in "qmhs":
            raise ValueError(f"sort kind must be one of 'quick', 'heap', or 'stable' "
                             f"(got {kind!r})")


def _check_dtype(a):
    if a.dtype.kind not in "biufc":
        raise TypeError(f"cannot sort arrays of dtype {a.dtype}")


def _axis_int(axis, arg=False):
    """An integer axis, NumPy's errors: sort, partition and lexsort parse it as a C int
    ("integer argument expected, got float" for floats), argsort and argpartition by
    ``__index__`` ("'float' object cannot be interpreted as an integer")."""
    if arg and isinstance(axis, (bool, np.bool_)):
        raise TypeError("an integer is required for the axis")
    try:
        return operator.index(axis)
    except TypeError:
        if not arg and isinstance(axis, float):
            raise TypeError("integer argument expected, got float") from None
        raise


def _rows(a, axis, arg=False):
    """(``a`` with ``axis`` last, C-contiguous; the normalised axis; was it moved)."""
    from ..creation import ascontiguousarray
    if axis is None:
        x = a.reshape(-1)
        return ascontiguousarray(x), None
    axis = normalize_axis_index(_axis_int(axis, arg), a.ndim)
    if axis != a.ndim - 1:
        from ..manipulation import moveaxis
        a = moveaxis(a, axis, -1)
    return ascontiguousarray(a), axis


def _restore(r, axis, ndim):
    """Move the last axis of ``r`` back to ``axis``, C-contiguous (NumPy's sort returns a new
    C-ordered array)."""
    if axis is None or axis == ndim - 1:
        return r
    from ..creation import ascontiguousarray
    from ..manipulation import moveaxis
    return ascontiguousarray(moveaxis(r, -1, axis))


def _tiny_plan(x, arg, descending):
    """The row plan (:func:`.segmented.plan`) sorting rows like ``x``'s, or False."""
    m = x.shape[-1]
    if x.dtype.kind not in "biuf":
        return False
    parts = _keys.parts_for(x, descending)
    if not _seg.applies(parts, m):
        return False
    pay = "index" if arg else None if parts[0].invertible else "values"
    return _seg.plan(parts[0], m, pay)


def tiny_rows(x, arg=False, descending=False):
    """Each row (the last axis) of C-contiguous ``x`` sorted (``arg``: its int64 sorting
    permutation within the row) through a cached row plan; None where the row kernel does not
    take ``x`` (then the general path runs)."""
    shape = x.shape
    if not shape:
        return None
    m = shape[-1]
    key = (x.dtype, m, arg, descending)
    p = _TINY_PLANS.get(key)
    if p is None:
        if not 1 < m <= 1 << 16:           # (keys of rows the row kernel may take)
            return None
        p = _TINY_PLANS[key] = _tiny_plan(x, arg, descending)
    if p is False:
        return None
    nrow = 1
    for s in shape[:-1]:
        nrow *= s
    if not nrow:
        return None
    out = empty_array(shape, _I64 if arg else x.dtype)
    _seg.launch(p, nrow, m, x._ptr, out)
    return out


def _tiny(a, axis, arg, descending):
    """:func:`tiny_rows` of ``a`` when ``axis`` is its last (an int), ``a`` is C-contiguous and
    ``descending`` a bool; else None."""
    if not a._c_contig or axis.__class__ is not int or descending.__class__ is not bool:
        return None
    nd = len(a.shape)
    if axis != -1 and axis != nd - 1:
        return None
    return tiny_rows(a, arg, descending)


def _one_row_cub(a, axis, arg, descending):
    """1-d C-contiguous ``a`` of a size CUB's kernels sort (the GPU: :mod:`.cub_sort`) sorted
    (``arg``: its int64 sorting permutation) by them directly, else None.  The general path's
    views, key parts and planning cost ~10 us of host time before the first launch, and the
    device idles (a timed call counts it) -- ~2% of a 2^24-element sort."""
    if not _cub.ENABLED or len(a._shape) != 1 or not a._c_contig or descending is not False:
        return None
    if axis is not None and (axis.__class__ is not int or axis not in (-1, 0)):
        return None
    n = a._shape[0]
    dt = a._dtype
    if not _cub.MIN_N <= n <= _cub.MAX_N or dt.kind not in "biuf":
        return None
    part = _keys.parts_for(a)[0]
    if _cub.key_type(part) is None:
        return None
    out = empty_array((n,), _I64 if arg else dt)
    if _cub.sort(part, n, "index" if arg else None, out if arg else _keys.bits_view(out)) is None:
        return None
    return out


def permutation(x, descending=False, parts=None):
    """int64 sorting permutation of each row of C-contiguous ``x`` (the last axis), as indices
    within the row (``parts``: key parts to sort by instead of ``x``'s own, least significant
    first; rows still come from ``x.shape``)."""
    if TINY and parts is None:
        r = tiny_rows(x, True, descending)
        if r is not None:
            return r
    m = x.shape[-1] if x.ndim else 1
    n = x.size
    nrow = n // m if m else 0
    parts = list(_keys.parts_for(x, descending) if parts is None else parts)
    if n and _seg.applies(parts, m):
        return _seg.sort_rows(parts[0], nrow, m, "index").reshape(x.shape)
    row = _keys.row_part(nrow, m)
    if row is not None:
        parts.append(row)
    out = _radix.sort(parts, n, payload="index", mod=m if row is not None else 0)
    return out.reshape(x.shape)


def sorted_values(x, descending=False):
    """Each row of C-contiguous ``x`` (the last axis) sorted, a new C-contiguous array."""
    if TINY:
        r = tiny_rows(x, False, descending)
        if r is not None:
            return r
    n = x.size
    m = x.shape[-1] if x.ndim else 1
    parts = _keys.parts_for(x, descending)
    if n == 0:
        return empty_array(x.shape, x.dtype)
    payload = None if parts[0].invertible else "values"
    if _seg.applies(parts, m):
        r = _seg.sort_rows(parts[0], n // m, m, payload)
        return r.view(x.dtype).reshape(x.shape)
    if m == n and len(parts) == 1:
        out = empty_array(x.shape, x.dtype)
        _radix.sort(parts, n, payload=payload, out=_keys.bits_view(out))
        return out
    # rows, complex: the permutation of the flattened array, then one gather
    parts = list(parts)
    row = _keys.row_part(n // m, m)
    if row is not None:
        parts.append(row)
    perm = _radix.sort(parts, n, payload="index")
    from ..indexing.routines import take
    return take(x.reshape(-1), perm).reshape(x.shape)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """A sorted copy of ``a`` (NumPy's ``sort``; ``descending`` as the Array API's: the exact
    reverse of the ascending order, ties in input order, NaN first).  Always stable."""
    if a.__class__ is ndarray:
        _check_kind(kind, stable, order)
        r = _tiny(a, axis, False, descending) if TINY else None
        if r is None:
            r = _one_row_cub(a, axis, False, descending)
        if r is not None:
            return r
    a = _asarray(a)
    _check_kind(kind, stable, order)
    _check_dtype(a)
    ndim = a.ndim
    x, ax = _rows(a, axis)
    return _restore(sorted_values(x, bool(descending)), ax, ndim)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """int64 indices that sort ``a`` along ``axis`` (NumPy's ``argsort``; stable; ``descending``
    as the Array API's: ties keep their input order)."""
    if a.__class__ is ndarray:
        _check_kind(kind, stable, order)
        r = _tiny(a, axis, True, descending) if TINY else None
        if r is None:
            r = _one_row_cub(a, axis, True, descending)
        if r is not None:
            return r
    a = _asarray(a)
    _check_kind(kind, stable, order)
    _check_dtype(a)
    if a.ndim == 0 and axis is not None:
        # NumPy: the 0-d array as a 1-element one (the axis checked against one dimension)
        normalize_axis_index(_axis_int(axis, True), 1)
        axis = None
    ndim = a.ndim
    x, ax = _rows(a, axis, True)
    return _restore(permutation(x, bool(descending)), ax, ndim)


def lexsort(keys, axis=-1):
    """int64 indices sorting by several keys, the last the primary one (NumPy's ``lexsort``):
    one radix sort by every key's parts, the first key's least significant first."""
    axis = _axis_int(axis)                    # NumPy parses the axis before the keys
    if isinstance(keys, ndarray):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    elif isinstance(keys, (list, tuple)):
        keys = [_asarray(k) for k in keys]
    else:
        keys = _asarray(keys)
        return lexsort(keys, axis)
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    for k in keys:
        _check_dtype(k)
    if len(shape) == 0:
        if axis not in (-1, 0):                 # NumPy: a 0-d key sorts as a 1-element one
            raise np.exceptions.AxisError(axis, 0)
        from ..creation import zeros
        return zeros((), _I64)
    ndim = len(shape)
    xs = []
    for k in keys:
        x, ax = _rows(k, axis)
        xs.append(x)
    parts = [p for x in xs for p in _keys.parts_for(x)]
    return _restore(permutation(xs[0], parts=parts), ax, ndim)


def sort_complex(a):
    """``a`` sorted along its last axis as complex (NumPy's ``sort_complex``: int8/uint8/
    int16/uint16 give complex64, other real dtypes complex128)."""
    a = _asarray(a)
    b = sort(a)
    if b.dtype.kind == "c":
        return b
    if b.dtype.char in "bhBH":
        return b.astype(np.complex64)
    return b.astype(np.complex128)


def _check_kth(kth, a, axis, kind, order, arg=False):
    """NumPy's checks of ``partition``'s arguments; returns the normalised axis."""
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    text = kind.decode("ascii", "replace") if isinstance(kind, bytes) else kind
    if not isinstance(text, str):
        raise TypeError(f"select kind must be str, not {type(kind).__name__}")
    if text != "introselect":
        raise ValueError(f"select kind must be 'introselect' (got {kind!r})")
    if kth.__class__ is int and -2 ** 63 <= kth < 2 ** 63 and (
            axis is None or axis.__class__ is int and a.ndim):
        # one Python int (the usual call): the checks below without a host array
        n = a.size if axis is None else a.shape[normalize_axis_index(axis, a.ndim)]
        w = kth + n if kth < 0 else kth
        if n and not 0 <= w < n:
            raise ValueError(f"kth(={w}) out of bounds ({n})")
        return
    is_array = isinstance(kth, (ndarray, np.ndarray))
    if isinstance(kth, ndarray):
        kth = kth.get()
    elif isinstance(kth, (list, tuple)):        # device scalars among the indices (0-d arrays)
        kth = [v.get() if isinstance(v, ndarray) else v for v in kth]
    k = np.asarray(kth)
    if k.dtype == np.bool_:
        raise ValueError("Booleans unacceptable as partition index")
    if k.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    if k.ndim > 1:
        # (NumPy: an array is too deep, a nested list too deep to convert)
        raise ValueError("object too deep for desired array" if is_array else
                         "setting an array element with a sequence. The requested array "
                         "would exceed the maximum number of dimension of 1.")
    n = a.size if axis is None else \
        a.shape[normalize_axis_index(_axis_int(axis, arg), a.ndim)] if a.ndim else None
    if n is None:
        normalize_axis_index(_axis_int(axis, arg), a.ndim)    # NumPy's AxisError for 0-d
    if k.dtype == np.uint64:
        k = k.view(np.int64)        # NumPy takes kth as intp: values past int64 wrap
    if n:
        for v in k.reshape(-1):
            v = int(v)
            w = v + n if v < 0 else v
            if not 0 <= w < n:
                raise ValueError(f"kth(={w}) out of bounds ({n})")


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A copy of ``a`` in which every ``kth`` element is where a sort would put it, smaller
    ones before and larger after (NumPy's contract).  The device sorts the whole axis (a
    sorted array satisfies the contract for every ``kth``)."""
    a = _asarray(a)
    _check_dtype(a)
    _check_kth(kth, a, axis, kind, order)
    return sort(a, axis=axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """int64 indices partitioning ``a`` (NumPy's ``argpartition``): those of a stable argsort,
    which satisfy the contract for every ``kth``."""
    a = _asarray(a)
    _check_dtype(a)
    if a.ndim == 0 and axis is not None:
        normalize_axis_index(_axis_int(axis, True), 1)    # NumPy: as a 1-element array
        axis = None
    _check_kth(kth, a, axis, kind, order, True)
    return argsort(a, axis=axis)


# ---- ndarray methods (through the _ops registry) -------------------------------------------------
def _method_axis(axis):
    """The in-place methods take an integer axis only (NumPy: no ``axis=None`` flattening)."""
    if axis is None:
        raise TypeError("'NoneType' object cannot be interpreted as an integer")


def sort_inplace(a, axis=-1, kind=None, order=None, *, stable=None):
    """``ndarray.sort``: ``a`` sorted in place."""
    from .._core.ndarray import fail_unless_writeable
    _method_axis(axis)
    if a._ro:
        fail_unless_writeable(a, "sort array")
    r = sort(a, axis=axis, kind=kind, order=order, stable=stable)
    a[...] = r


def partition_inplace(a, kth, axis=-1, kind="introselect", order=None):
    """``ndarray.partition``: ``a`` partitioned in place."""
    from .._core.ndarray import fail_unless_writeable
    _method_axis(axis)
    if a._ro:
        fail_unless_writeable(a, "partition array")
    r = partition(a, kth, axis=axis, kind=kind, order=order)
    a[...] = r
