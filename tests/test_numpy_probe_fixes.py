"""Differences from NumPy found by probing indexing, manipulation, sorting, sets and statistics,
each checked against NumPy: values, dtype and shape, or the exception class and message."""
import re
import warnings

import numpy
import pytest

import npgpu as np
from conftest import assert_same

RNG = numpy.random.default_rng(1414)


def _ints(shape, dt=numpy.int64, lo=-50, hi=50):
    return RNG.integers(lo, hi, shape).astype(dt)


def _raises_as_numpy(np_call, gp_call):
    """npgpu raises NumPy's exception class with NumPy's message."""
    with pytest.raises(Exception) as e:
        np_call()
    with pytest.raises(type(e.value), match="^" + re.escape(str(e.value)) + "$"):
        gp_call()


def _host(r):
    if isinstance(r, tuple):
        return tuple(_host(x) for x in r)
    return r.get() if isinstance(r, np.ndarray) else numpy.asarray(r)


# --- NumPy scalars cast unsafely by assignment through an index array or a mask ------------------
def _fancy(xp, a, v):
    a[xp.asarray(numpy.array([0, 2]))] = v


def _mask(xp, a, v):
    a[a > 0] = v


def _put(xp, a, v):
    xp.put(a, [1, 3], v)


def _fill_diagonal(xp, a, v):
    xp.fill_diagonal(a.reshape(2, 3), v)


def _put_along_axis(xp, a, v):
    xp.put_along_axis(a.reshape(2, 3), xp.asarray(numpy.array([[2], [0]])), v, axis=1)


@pytest.mark.parametrize("assign", [_fancy, _mask, _put, _fill_diagonal, _put_along_axis])
@pytest.mark.parametrize("value", [numpy.int64(300), numpy.uint16(65535), numpy.float64(-1e3),
                                   numpy.array(1000), 300])
def test_numpy_scalar_assigned_unsafely(assign, value):
    h = numpy.abs(_ints(6, numpy.int8)) + 1
    g = np.asarray(h)
    if isinstance(value, int):      # a Python int must fit, in both
        _raises_as_numpy(lambda: assign(numpy, h.copy(), value), lambda: assign(np, g, value))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assign(numpy, h, value)
        assign(np, g, value)
    assert_same(g, h)


# --- boolean index arrays cast to intp -----------------------------------------------------------
@pytest.mark.parametrize("kind", ["take", "put", "choose", "ravel_multi_index", "unravel_index"])
def test_bool_index_arrays(kind):
    b = RNG.random(5) < 0.5
    b[:2] = [True, False]
    h = _ints(4)

    v = _ints(3)

    def call(xp, wrap):
        A = xp.asarray
        idx = wrap(b)
        if kind == "take":
            return xp.take(A(h), idx)
        if kind == "put":
            a = A(h.copy())
            xp.put(a, idx, A(v))
            return a
        if kind == "choose":
            return xp.choose(idx, [A(h[:1]), A(h[1:2])])
        if kind == "ravel_multi_index":
            return xp.ravel_multi_index((idx, wrap(~b)), (3, 4))
        return xp.unravel_index(idx, (3, 4))

    expect = call(numpy, lambda x: x)
    for wrap in (np.asarray, lambda x: x, list):
        got = _host(call(np, wrap))
        if isinstance(expect, tuple):
            for g, e in zip(got, expect):
                assert_same(g, e)
        else:
            assert_same(got, numpy.asarray(expect))


@pytest.mark.parametrize("kind, idx", [("take", numpy.array([1.0])),
                                       ("put", numpy.array([1], numpy.uint64)),
                                       ("choose", numpy.array([1], numpy.uint64)),
                                       ("ravel_multi_index", numpy.array([1.0])),
                                       ("unravel_index", numpy.array([1 + 0j]))])
def test_index_array_cast_errors(kind, idx):
    def call(xp):
        i = xp.asarray(idx)
        if kind == "take":
            return xp.take(xp.asarray(_ints(4)), i)
        if kind == "put":
            return xp.put(xp.asarray(_ints(4)), i, 1)
        if kind == "choose":
            return xp.choose(i, [xp.asarray(_ints(2)), xp.asarray(_ints(2))])
        if kind == "ravel_multi_index":
            return xp.ravel_multi_index((i, i), (3, 4))
        return xp.unravel_index(i, (3, 4))
    _raises_as_numpy(lambda: call(numpy), lambda: call(np))


# --- 0-d arrays along axis 0 / -1 --------------------------------------------------------------
@pytest.mark.parametrize("fn", ["take", "repeat", "cumsum", "cumprod", "nancumsum"])
@pytest.mark.parametrize("axis", [0, -1, 1])
def test_zero_d_along_an_axis(fn, axis):
    h = numpy.array(RNG.standard_normal())
    args = {"take": (0,), "repeat": (3,)}.get(fn, ())

    def call(xp, a):
        return getattr(xp, fn)(a, *args, axis=axis)
    if axis == 1:
        _raises_as_numpy(lambda: call(numpy, h), lambda: call(np, np.asarray(h)))
        return
    for _ in range(2):          # the second call replays the first
        assert_same(call(np, np.asarray(h)), numpy.asarray(call(numpy, h)))


# --- isclose / allclose of lists and tuples ----------------------------------------------------
@pytest.mark.parametrize("fn", ["isclose", "allclose"])
@pytest.mark.parametrize("kind", ["lists", "tuples", "device_and_list", "bool_list"])
def test_isclose_of_sequences(fn, kind):
    x = RNG.standard_normal(6)
    y = x + RNG.choice([0.0, 1e-9, 1e-3], 6)
    if kind == "lists":
        a, b, ga, gb = list(x), list(y), list(x), list(y)
    elif kind == "tuples":
        a, b, ga, gb = tuple(x), tuple(y), tuple(x), tuple(y)
    elif kind == "device_and_list":
        a, b, ga, gb = x, list(y), np.asarray(x), list(y)
    else:
        a, b, ga, gb = list(x > 0), [True] * 6, list(x > 0), [True] * 6
    expect = getattr(numpy, fn)(a, b)
    got = getattr(np, fn)(ga, gb)
    if fn == "allclose":
        assert got is bool(expect)
    else:
        assert_same(got, expect)


@pytest.mark.parametrize("a, b", [([1.0, 2.0], "a"), ("a", [1.0, 2.0]),
                                  (numpy.zeros((2, 3)), [1.0, 2.0]),
                                  (numpy.zeros(2), numpy.zeros(3))])
def test_isclose_errors(a, b):
    ga = np.asarray(a) if isinstance(a, numpy.ndarray) else a
    gb = np.asarray(b) if isinstance(b, numpy.ndarray) else b
    _raises_as_numpy(lambda: numpy.isclose(a, b), lambda: np.isclose(ga, gb))


# --- index forms: lists of device arrays, range, and NumPy's errors ------------------------------
_MASK = RNG.random((4, 5)) < 0.5
_INDICES = {
    "device_list": lambda A: [A(numpy.array([0, 3])), A(numpy.array([2, 1]))],
    "device_and_host_list": lambda A: ([A(numpy.array([0, 3])), [2, 1]], A(numpy.array([4, 0]))),
    "device_bool_list": lambda A: [A(row) for row in _MASK],      # rows of a 2-d mask
    "range": lambda A: range(1, 4),
    "ranges": lambda A: (range(2), range(1, 5, 2)),
}


@pytest.mark.parametrize("name", sorted(_INDICES))
def test_index_forms(name):
    h = _ints((4, 5))
    g = np.asarray(h)
    idx = _INDICES[name]
    assert_same(g[idx(np.asarray)], h[idx(numpy.asarray)])
    v = _ints(h[idx(numpy.asarray)].shape)
    h[idx(numpy.asarray)] = v
    g[idx(np.asarray)] = np.asarray(v)
    assert_same(g, h)


@pytest.mark.parametrize("index", [
    [0, [1, 2]],                        # ragged: ValueError
    (None,) * 70, (None,) * 63 + ([[0]],),            # more than 64 dims
    numpy.uint64(2 ** 63), 2 ** 64 - 1, (2 ** 63, [0]),  # [2**63, 2**64): OverflowError
    2 ** 70, -2 ** 63 - 1,              # beyond: not a valid index
    [1.0, 2.0], ["a"],                  # lists of non-integers: not valid indices
    numpy.array([1.0, 2.0]),            # a float array: integer arrays only
], ids=repr)
def test_index_errors(index):
    h = _ints((5, 2))
    g = np.asarray(h)
    _raises_as_numpy(lambda: h[index], lambda: g[index])


def test_index_error_ragged_device_list():
    h = _ints(5)
    g = np.asarray(h)
    _raises_as_numpy(lambda: h[[numpy.array([0, 1]), numpy.array([2])]],
                     lambda: g[[np.asarray(numpy.array([0, 1])), np.asarray(numpy.array([2]))]])


# --- tri, tril_indices, triu_indices: negative and float arguments -------------------------------
@pytest.mark.parametrize("args", [(-2,), (3, 0, -1), (3.0,), (3, 1.5), (4, -0.5, 2.5),
                                  (3.5, 0.5, 2.5), (numpy.float64(4), 1, 3), (4, 1, 3)],
                         ids=repr)
def test_tri_indices_arguments(args):
    for fn in ("tril_indices", "triu_indices"):
        got, expect = getattr(np, fn)(*args), getattr(numpy, fn)(*args)
        for g, e in zip(got, expect):
            assert_same(g, e)
    n, k, m = (args + (0, None))[:3]
    assert_same(np.tri(n, m, k), numpy.tri(n, m, k))
    h = RNG.standard_normal((3, 4))
    for fn in ("tril_indices_from", "triu_indices_from"):
        for g, e in zip(getattr(np, fn)(np.asarray(h), k), getattr(numpy, fn)(h, k)):
            assert_same(g, e)


# --- the stack family: generators refused, casting= as bytes ------------------------------------
@pytest.mark.parametrize("fn", ["hstack", "vstack", "dstack", "column_stack", "stack"])
def test_stack_family_refuses_generators(fn):
    hs = [RNG.standard_normal(3) for _ in range(2)]
    _raises_as_numpy(lambda: getattr(numpy, fn)(h for h in hs),
                     lambda: getattr(np, fn)(np.asarray(h) for h in hs))
    assert_same(getattr(np, fn)([np.asarray(h) for h in hs]), getattr(numpy, fn)(hs))


@pytest.mark.parametrize("fn", ["concatenate", "stack", "hstack", "vstack"])
@pytest.mark.parametrize("casting", [b"safe", b"same_kind", b"unsafe", b"foo"])
def test_casting_as_bytes(fn, casting):
    hs = [RNG.standard_normal(3), RNG.standard_normal(3)]
    gs = [np.asarray(h) for h in hs]
    try:
        expect = getattr(numpy, fn)(hs, dtype=numpy.int64, casting=casting)
    except Exception:                   # noqa: BLE001 - compared below
        _raises_as_numpy(lambda: getattr(numpy, fn)(hs, dtype=numpy.int64, casting=casting),
                         lambda: getattr(np, fn)(gs, dtype=numpy.int64, casting=casting))
        return
    assert_same(getattr(np, fn)(gs, dtype=numpy.int64, casting=casting), expect)


# --- sorting, searching, sets, order statistics -------------------------------------------------
@pytest.mark.parametrize("dt", [numpy.int64, numpy.uint8, numpy.uint64, numpy.float64, numpy.bool_])
@pytest.mark.parametrize("v", [2 ** 65, -2 ** 65, 2 ** 64, [2 ** 65, 3, -2 ** 70], [[2 ** 64], [1]]],
                         ids=repr)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_python_ints_beyond_int64(dt, v, side):
    h = numpy.sort(RNG.integers(0, 2 if dt is numpy.bool_ else 100, 12)).astype(dt)
    got = np.searchsorted(np.asarray(h), v, side=side)
    assert_same(got, numpy.asarray(numpy.searchsorted(h, v, side=side)))
    perm = RNG.permutation(12)
    inv = numpy.argsort(perm)
    got = np.searchsorted(np.asarray(h[perm]), v, side=side, sorter=np.asarray(inv))
    assert_same(got, numpy.asarray(numpy.searchsorted(h[perm], v, side=side, sorter=inv)))


@pytest.mark.parametrize("x, t", [
    (numpy.array([-1, 5, 7]), numpy.array([2 ** 63, 5], numpy.uint64)),
    (numpy.array([1, 5, 2 ** 63 + 1], numpy.uint64),
     numpy.array([2 ** 63 + 1, 2 ** 63 + 3, 5], numpy.uint64)),
    (numpy.array([1, 5, 7], numpy.uint64), numpy.array([2 ** 64 - 1, 0], numpy.uint64)),
])
def test_isin_table_of_a_huge_range(x, t):
    with pytest.raises(Exception) as e:
        numpy.isin(x, t, kind="table")
    # (NumPy's MemoryError is its host's; npgpu's, where the device cannot hold the table, is
    # npgpu.cuda.OutOfMemoryError, a MemoryError naming the device's sizes)
    want = MemoryError if isinstance(e.value, MemoryError) else type(e.value)
    with pytest.raises(want):
        np.isin(np.asarray(x), np.asarray(t), kind="table")
    # the other kinds answer, as NumPy's
    for kind in (None, "sort"):
        assert_same(np.isin(np.asarray(x), np.asarray(t), kind=kind), numpy.isin(x, t, kind=kind))


def test_isin_table_of_a_small_uint64_range():
    t = numpy.array([2 ** 63 + 1, 2 ** 63 + 3, 5], numpy.uint64)[:2]
    x = numpy.array([2 ** 63 + 1, 2 ** 63 + 2, 5, 2 ** 63 + 3], numpy.uint64)
    assert_same(np.isin(np.asarray(x), np.asarray(t), kind="table"), numpy.isin(x, t, kind="table"))


@pytest.mark.parametrize("fn", ["sort", "argsort", "partition", "argpartition", "lexsort"])
@pytest.mark.parametrize("axis", [1.5, numpy.float64(0), "a", None, [0]], ids=repr)
def test_sort_axis_errors(fn, axis):
    h = _ints(7)

    def call(xp, a):
        if fn == "lexsort":
            return xp.lexsort((a,), axis=axis)
        if fn in ("partition", "argpartition"):
            return getattr(xp, fn)(a, 2, axis=axis)
        return getattr(xp, fn)(a, axis=axis)
    try:
        expect = call(numpy, h)
    except TypeError:
        _raises_as_numpy(lambda: call(numpy, h), lambda: call(np, np.asarray(h)))
        return
    got = call(np, np.asarray(h))
    if fn == "argpartition":
        # the order inside each side is unspecified (ties: other valid indices than NumPy's)
        got = np.asarray(h)[got]
        expect = h[expect]
    if fn in ("partition", "argpartition"):
        g = got.get()
        assert g.dtype == expect.dtype and g.shape == expect.shape and g[2] == expect[2]
        assert (g[:2] <= g[2]).all() and (g[3:] >= g[2]).all()
        assert sorted(g) == sorted(expect)
        return
    assert_same(got, expect)


@pytest.mark.parametrize("fn", ["partition", "argpartition"])
@pytest.mark.parametrize("kth", [[[1]], [[[1]]], numpy.array([[1]]), "device"], ids=repr)
def test_partition_kth_too_deep(fn, kth):
    h = _ints(6)
    hk = numpy.array([[1]]) if isinstance(kth, str) else kth
    gk = np.asarray(hk) if isinstance(kth, str) else kth
    _raises_as_numpy(lambda: getattr(numpy, fn)(h, hk), lambda: getattr(np, fn)(np.asarray(h), gk))


@pytest.mark.parametrize("fn", ["argmax", "argmin", "nanargmax", "nanargmin"])
@pytest.mark.parametrize("oshape, kw", [((2,), {"axis": 0}), ((1, 4), {"axis": 0}),
                                        ((4,), {"axis": 0, "keepdims": True}), ((2,), {}),
                                        ((4,), {"axis": 0})])
def test_argmax_out_shape(fn, oshape, kw):
    h = RNG.standard_normal((3, 4))

    def call(xp, a):
        o = xp.zeros(oshape, numpy.int64)
        getattr(xp, fn)(a, out=o, **kw)
        return o
    if oshape == (4,) and "keepdims" not in kw:
        assert_same(call(np, np.asarray(h)), call(numpy, h))
    else:
        _raises_as_numpy(lambda: call(numpy, h), lambda: call(np, np.asarray(h)))


@pytest.mark.parametrize("fn, q", [("quantile", 0.3), ("percentile", [50, 20]),
                                   ("nanquantile", 0.5), ("median", None), ("nanmedian", None)])
@pytest.mark.parametrize("oshape, kw", [((3, 1), {"axis": 1}), ((1, 3), {"axis": 1}),
                                        ((4,), {"axis": 1}), ((3, 3), {"axis": 1}),
                                        ((2, 4), {"axis": 0, "keepdims": True}),
                                        ((2, 1, 4), {"axis": 0, "keepdims": True})])
def test_order_statistics_out_shape(fn, q, oshape, kw):
    h = RNG.standard_normal((3, 4))
    h[1, 2] = numpy.nan if fn.startswith("nan") else h[1, 2]
    args = () if q is None else (q,)

    def call(xp, a):
        o = xp.zeros(oshape)
        getattr(xp, fn)(a, *args, out=o, **kw)
        return o
    try:
        expect = call(numpy, h)
    except ValueError:
        _raises_as_numpy(lambda: call(numpy, h), lambda: call(np, np.asarray(h)))
        return
    numpy.testing.assert_allclose(call(np, np.asarray(h)).get(), expect, rtol=1e-12)


# --- NumPy's wording of indexing-routine errors ---------------------------------------------------
def _routine_calls():
    h = _ints((3, 4))
    idx = numpy.array([1, 0])
    z = numpy.zeros(0, numpy.int64)
    return {
        "take_empty_axis": lambda xp: xp.take(xp.zeros((3, 0)), xp.asarray(idx), axis=1),
        "take_empty_flat": lambda xp: xp.take(xp.zeros(0), xp.asarray(idx), mode="clip"),
        "put_empty_wrap": lambda xp: xp.put(xp.zeros(0), xp.asarray(idx), 5.0, mode="wrap"),
        "put_empty_raise": lambda xp: xp.put(xp.zeros(0), xp.asarray(idx), 5.0),
        "choose_broadcast": lambda xp: xp.choose(xp.asarray(idx[:1].repeat(4)), [
            xp.asarray(h), xp.asarray(h), xp.asarray(h[0, :3])]),
        "where_0d_bool": lambda xp: xp.where(xp.asarray(numpy.array(True))),
        "nonzero_0d_int": lambda xp: xp.nonzero(xp.asarray(numpy.array(3))),
        "unravel_order": lambda xp: xp.unravel_index(xp.asarray(idx), (3, 4), order="X"),
        "unravel_order_A": lambda xp: xp.unravel_index(xp.asarray(idx), (3, 4), order="A"),
        "ravel_order": lambda xp: xp.ravel_multi_index((xp.asarray(idx),) * 2, (3, 4), order="X"),
        "unravel_negative": lambda xp: xp.unravel_index(xp.asarray(idx), (3, -1)),
        "ravel_negative": lambda xp: xp.ravel_multi_index((xp.asarray(idx),) * 2, (3, -4)),
        "unravel_float_dims": lambda xp: xp.unravel_index(xp.asarray(idx), (3.0, 4)),
        "unravel_float_dim": lambda xp: xp.unravel_index(xp.asarray(idx), 3.0),
        "ravel_float_dims": lambda xp: xp.ravel_multi_index((xp.asarray(idx),) * 2, (3.0, 4)),
        "ravel_none_dims": lambda xp: xp.ravel_multi_index((xp.asarray(idx),) * 2, None),
        "ravel_modes": lambda xp: xp.ravel_multi_index((xp.asarray(idx),) * 2, (3, 4),
                                                       mode=("wrap",)),
        "repeat_2d_array": lambda xp: xp.repeat(xp.asarray(idx), xp.asarray(numpy.array([[1, 2]])),
                                                axis=0),
        "repeat_2d_list": lambda xp: xp.repeat(xp.asarray(idx), [[1, 2]], axis=0),
        "unravel_ok_c": lambda xp: xp.unravel_index(xp.asarray(idx), (3, 4), order="c"),
        "unravel_ok_empty_negative": lambda xp: xp.unravel_index(xp.asarray(z), (3, -1)),
    }


@pytest.mark.parametrize("name", sorted(_routine_calls()))
def test_routine_errors_as_numpy(name):
    call = _routine_calls()[name]
    try:
        expect = call(numpy)
    except Exception:               # noqa: BLE001 - compared below
        _raises_as_numpy(lambda: call(numpy), lambda: call(np))
        return
    for g, e in zip(call(np), expect):
        assert_same(g, numpy.asarray(e))


@pytest.mark.parametrize("axis", [(0,), [1], 1.5, "a", numpy.float64(0), 2, -1], ids=repr)
def test_unique_axis_errors(axis):
    h = RNG.integers(0, 2, (3, 2)).astype(numpy.float64)
    try:
        expect = numpy.unique(h, axis=axis)
    except Exception:               # noqa: BLE001 - compared below
        _raises_as_numpy(lambda: numpy.unique(h, axis=axis),
                         lambda: np.unique(np.asarray(h), axis=axis))
        return
    assert_same(np.unique(np.asarray(h), axis=axis), expect)


# --- order statistics, nan_to_num and statistics: a probe against NumPy 2 ------------------
from conftest import assert_matches, matches_numpy, raises_like  # noqa: E402

_R = numpy.random.default_rng(2027)       # (the tests above draw from RNG as they run)


def _answers(call):
    """(result on the host, warnings as (class, message)) of ``call(xp)``; floating-point
    warnings ("... encountered in ...") left out: npgpu has none (docs/differences.md)."""
    def run(xp):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            r = call(xp)
        return r, {(w.category, str(w.message)) for w in seen
                   if "encountered in" not in str(w.message)
                   and "CUDA device" not in str(w.message)}
    return run(numpy), run(np)


# warnings NumPy gives where the data decide them (a slice left empty by NaNs or where=): npgpu
# does not read device data to warn (docs/differences.md); where the shapes decide, it warns
_DATA_WARNINGS = ("All-NaN slice encountered", "Mean of empty slice",
                  "Degrees of freedom <= 0 for slice", "Degrees of freedom <= 0 for slice.")


def _as_numpy(call, rtol=None, data_warnings=False):
    """``call(xp)`` gives NumPy's values, dtype, shape (NaN positions per complex part) and
    warnings (``data_warnings``: NumPy's may add those of :data:`_DATA_WARNINGS`); a tuple
    result item by item."""
    (want, wwant), (got, wgot) = _answers(call)
    if data_warnings:
        assert wgot <= wwant and all(m in _DATA_WARNINGS for _, m in wwant - wgot)
    else:
        assert wgot == wwant
    pairs = zip(want, got) if isinstance(want, tuple) else [(want, got)]
    for w, g in pairs:
        w = numpy.asarray(w)
        assert_matches(g, w, rtol=rtol)
        if w.dtype.kind == "c":
            gh = _host(g)
            assert (numpy.isnan(gh.real) == numpy.isnan(w.real)).all()
            assert (numpy.isnan(gh.imag) == numpy.isnan(w.imag)).all()


def _dev(xp, v):
    return xp.asarray(v) if isinstance(v, numpy.ndarray) and xp is np else v


def _complex_with_nans(shape, dt=numpy.complex128):
    x = (_R.standard_normal(shape) + 1j * _R.standard_normal(shape)).astype(dt)
    m = _R.random(shape)
    x[m < 0.1] = complex(numpy.nan, 1.5)
    x[(m >= 0.1) & (m < 0.2)] = complex(2.5, numpy.nan)
    x[(m >= 0.2) & (m < 0.3)] = complex(numpy.nan, numpy.nan)
    return x


_CX = _complex_with_nans((3, 4, 6))
_CX[:, 1] = complex(numpy.nan, 3.0)          # all-NaN slices along the last axis and (0, 2)
_CX[-1, 1, -1] = complex(1.0, numpy.nan)
_CX[0, 2] = numpy.nan
_CX_ROW = numpy.full(5, complex(numpy.nan, 2.0))
_CX_ROW[-1] = complex(4.0, numpy.nan)


@pytest.mark.parametrize("fn", ["nanmedian", "median"])
@pytest.mark.parametrize("dt", [numpy.complex128, numpy.complex64])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (-1, True), ((0, 2), False),
                                           ((0, 1, 2), True), (1, False)])
def test_complex_medians_with_nans(fn, dt, axis, keepdims):
    # nanmedian skips NaN in either part; an all-NaN slice warns and is NaN+0j (NumPy's masked
    # path) or the slice's last element (its one-row path: no kept axes)
    x = _CX.astype(dt)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, x), axis=axis, keepdims=keepdims),
              data_warnings=True)


@pytest.mark.parametrize("x", [_CX_ROW, _CX_ROW[:1].reshape(()), _complex_with_nans((7,))])
def test_complex_nanmedian_one_row(x):
    _as_numpy(lambda xp: xp.nanmedian(_dev(xp, x)), data_warnings=True)


def test_complex_nanmedian_long_rows():
    # rows of 600 or more: NumPy's apply_along_axis path, the last element of an all-NaN row
    x = _complex_with_nans((2, 600))
    x[0] = complex(numpy.nan, 9.0)
    x[0, -1] = complex(3.0, numpy.nan)
    _as_numpy(lambda xp: xp.nanmedian(_dev(xp, x), axis=1), data_warnings=True)
    # one long complex row: no radix select
    _as_numpy(lambda xp: xp.median(_dev(xp, x[1:])), data_warnings=True)


@pytest.mark.parametrize("fn", ["nanmedian", "median"])
@pytest.mark.parametrize("axis,keepdims", [(0, False), (None, True), (1, True)])
@pytest.mark.parametrize("out_dt", [numpy.complex128, numpy.float64])
def test_complex_medians_out(fn, axis, keepdims, out_dt):
    x = _complex_with_nans((4, 6))
    x[1] = numpy.nan
    shape = numpy.median(numpy.zeros((4, 6)), axis=axis, keepdims=keepdims).shape

    def call(xp):
        out = xp.zeros(shape, out_dt)
        r = getattr(xp, fn)(_dev(xp, x), axis=axis, out=out, keepdims=keepdims)
        assert r is out
        return out
    if fn == "median" and out_dt == numpy.float64:     # NumPy's cast of the NaN into out
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
            raises_like(lambda: call(numpy), lambda: call(np))
        with pytest.warns(numpy.exceptions.ComplexWarning), pytest.raises(TypeError):
            call(np)
        return
    _as_numpy(call, data_warnings=True)


@pytest.mark.parametrize("fn,q", [("nanmedian", None), ("nanpercentile", [10, 90]),
                                  ("nanquantile", 0.3)])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_all_nan_slice_warning(fn, q, axis):
    x = _R.standard_normal((3, 5)).astype(numpy.float32)
    x[1] = numpy.nan
    x[0, 2] = numpy.nan
    args = () if q is None else (q,)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, x), *args, axis=axis), data_warnings=True)


def test_all_nan_one_long_row():
    # the radix-select path (one row of at least select.SELECT_MIN elements)
    x = numpy.full(40000, numpy.nan, numpy.float32)
    _as_numpy(lambda xp: xp.nanmedian(_dev(xp, x)), data_warnings=True)
    x[::7] = _R.standard_normal(x[::7].size)
    _as_numpy(lambda xp: xp.nanmedian(_dev(xp, x)), data_warnings=True)


@pytest.mark.parametrize("fn", ["percentile", "quantile", "nanpercentile", "nanquantile"])
def test_complex_quantiles_refused(fn):
    x = _complex_with_nans((6,))
    raises_like(lambda: getattr(numpy, fn)(x, 0.5), lambda: getattr(np, fn)(np.asarray(x), 0.5))


# --- nan_to_num: array-valued nan / posinf / neginf (NumPy's copyto into each part) -------------
def _specials(shape, dt):
    if numpy.dtype(dt).kind == "i":
        return _R.integers(-50, 50, shape).astype(dt)
    x = _R.standard_normal(shape) * 10
    if numpy.dtype(dt).kind == "c":
        x = x + 1j * _R.standard_normal(shape)
    x = numpy.asarray(x).astype(dt)
    f = x.reshape(-1)
    for i, v in enumerate([numpy.nan, numpy.inf, -numpy.inf] * 4):
        if 2 * i >= f.size:
            break
        if numpy.dtype(dt).kind != "c":
            f[2 * i] = v
        else:
            f[2 * i] = complex(v, f[2 * i].imag) if i % 2 else complex(f[2 * i].real, v)
    return x


_VALUES = [dict(nan=numpy.arange(4.0) + 0.5),
           dict(nan=_R.standard_normal(4), posinf=_R.standard_normal((3, 4)),
                neginf=numpy.float32(-3)),
           dict(nan=numpy.arange(3)[:, None], posinf=numpy.array(5, numpy.int8)),
           dict(nan=numpy.ones((1, 1, 4)), neginf=[[1.0, 2.0, 3.0, 4.0]]),
           dict(posinf=numpy.array([True, False, True, True]))]


@pytest.mark.parametrize("dt", [numpy.float64, numpy.float32, numpy.float16, numpy.complex128,
                                numpy.complex64, numpy.int32])
@pytest.mark.parametrize("kw", _VALUES)
@pytest.mark.parametrize("copy", [True, False])
def test_nan_to_num_array_values(dt, kw, copy):
    x = _specials((3, 4), dt)

    def call(xp):
        d = x.copy() if xp is numpy else np.asarray(x)
        r = xp.nan_to_num(d, copy=copy, **{k: _dev(xp, v) for k, v in kw.items()})
        assert (r is d) == (not copy)
        return r
    _as_numpy(call)


@pytest.mark.parametrize("kw", [dict(nan=numpy.array([1j, 2j])), dict(nan=1j),
                                dict(nan=numpy.complex64(1j)), dict(nan=numpy.ones((2, 2))),
                                dict(nan="a"), dict(nan=None), dict(neginf=[1.0, 2.0, 3.0]),
                                dict(nan=numpy.ones((2, 3, 4))), dict(nan=numpy.array(1j)),
                                dict(posinf=numpy.ones(4, numpy.complex64))])
@pytest.mark.parametrize("dt", [numpy.float64, numpy.complex64])
@pytest.mark.parametrize("device", [True, False])
def test_nan_to_num_value_errors(kw, dt, device):
    x = _specials((3, 4), dt)
    conv = (lambda v: np.asarray(v) if isinstance(v, numpy.ndarray) else v) if device else \
        (lambda v: v)
    raises_like(lambda: numpy.nan_to_num(x.copy(), **kw),
                lambda: np.nan_to_num(np.asarray(x), **{k: conv(v) for k, v in kw.items()}))


def test_nan_to_num_values_of_zero_d_and_overflow():
    x = numpy.asarray(numpy.float32(numpy.inf))
    _as_numpy(lambda xp: xp.nan_to_num(_dev(xp, x), posinf=numpy.array([7.5])[0:1].reshape(())))
    y = _specials((5,), numpy.float32)
    # a host value overflowing float32: NumPy's cast warning
    _as_numpy(lambda xp: xp.nan_to_num(_dev(xp, y), neginf=[-1e300] * 5, posinf=1e300))
    # the values overlap the array written in place
    z = _specials((6,), numpy.float64)

    def in_place(xp):
        d = z.copy() if xp is numpy else np.asarray(z)
        xp.nan_to_num(d, copy=False, nan=d[::-1])
        return d
    _as_numpy(in_place)


# --- average, mean/var/std and their nan* forms, ptp, scans, argmin, cov --------------------
_A = _R.standard_normal((3, 4, 5))


@pytest.mark.parametrize("dt", ["f8", "f2", "i4", "?", "c16", "u1"])
@pytest.mark.parametrize("kw", [
    dict(axis=(1, 2), weights=_R.random((4, 5))),
    dict(axis=(2, 1), weights=_R.random((5, 4)), returned=True),
    dict(axis=1, weights=_R.random(4).astype(numpy.float32)),
    dict(axis=1, weights=_R.random(4).astype(numpy.complex64), keepdims=True, returned=True),
    dict(axis=2, weights=_R.integers(1, 5, 5), returned=True),
    dict(weights=_R.random((3, 4, 5)), returned=True, keepdims=True),
    dict(axis=0, returned=True), dict(returned=True)])
def test_average(dt, kw):
    a = (_A * 20).astype(dt)
    _as_numpy(lambda xp: xp.average(_dev(xp, a), **{k: _dev(xp, v) for k, v in kw.items()}),
              rtol=5e-3 if dt == "f2" else None)


@pytest.mark.parametrize("kw", [dict(axis=1, weights=_R.random((4, 5))), dict(axis=3),
                                dict(axis=(0, 0)), dict(weights=_R.random(4)),
                                dict(axis=1, weights=numpy.array([1, -1, 2, -2.0])),
                                dict(axis=1, weights=_R.random(5))])
def test_average_errors(kw):
    raises_like(lambda: numpy.average(_A, **kw),
                lambda: np.average(np.asarray(_A), **{k: _dev(np, v) for k, v in kw.items()}))


def test_average_empty():
    e = numpy.zeros((0, 3))
    _as_numpy(lambda xp: xp.average(_dev(xp, e), axis=0, returned=True))
    raises_like(lambda: numpy.average(e, axis=1), lambda: np.average(np.asarray(e), axis=1))


_S = _R.standard_normal((4, 5)) * 5
_S_NAN = _S.copy()
_S_NAN.reshape(-1)[::3] = numpy.nan
_WHERE = _R.random((4, 5)) > 0.45
_WHERE[:, 0] = False


@pytest.mark.parametrize("fn", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("dt", ["f8", "f4", "c16", "i8"])
@pytest.mark.parametrize("kw", [dict(axis=0, ddof=4), dict(axis=0, ddof=5), dict(ddof=25),
                                dict(axis=1, where=_WHERE, ddof=2), dict(axis=0, where=_WHERE),
                                dict(correction=1, axis=1)])
def test_var_degrees_of_freedom(fn, dt, kw):
    # dof <= 0: NumPy's warning (nanvar's ends in a period); nanvar gives NaN there, var x / 0
    a = (_S_NAN if fn.startswith("nan") else _S).astype(dt) if dt != "i8" else \
        (_S * 10).astype(dt)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, a), **{k: _dev(xp, v) for k, v in kw.items()}),
              rtol=1e-5 if dt == "f4" else None, data_warnings=True)


@pytest.mark.parametrize("fn", ["mean", "nanmean", "var", "nanvar"])
@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((3, 0), 1), ((0, 3), 1)])
def test_empty_reduction_warnings(fn, shape, axis):
    e = numpy.zeros(shape)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, e), axis=axis))
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, e), axis=axis))     # a repeat call too


@pytest.mark.parametrize("fn", ["mean", "nanmean"])
def test_mean_of_masked_or_all_nan_slices(fn):
    a = _S_NAN.copy()
    a[:, 1] = numpy.nan
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, a if fn == "nanmean" else _S), axis=0,
                                         where=_dev(xp, _WHERE)), data_warnings=True)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, a), axis=0), data_warnings=True)


@pytest.mark.parametrize("fn", ["var", "std", "nanvar", "nanstd", "mean", "nanmean"])
@pytest.mark.parametrize("dt", ["c16", "c8"])
@pytest.mark.parametrize("kw", [dict(dtype=numpy.float32), dict(axis=0, dtype=numpy.float64)])
def test_complex_data_real_dtype(fn, dt, kw):
    # NumPy casts the data (its mean: of the real parts) and warns ComplexWarning
    a = (_S_NAN if fn.startswith("nan") else _S) * (1 + 0.5j)
    a = a.astype(dt)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, a), **kw), rtol=1e-5)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, a), **kw), rtol=1e-5)   # a repeat call too


@pytest.mark.parametrize("fn", ["var", "std"])
def test_integer_dtype_var(fn):
    a = (_S * 10).astype(numpy.int64)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, a), dtype=int))
    call = lambda xp: getattr(xp, fn)(_dev(xp, a), axis=1, dtype=numpy.int32)  # noqa: E731
    if fn == "std":                   # NumPy's sqrt into an integer array refuses the cast
        raises_like(lambda: call(numpy), lambda: call(np))
    else:
        _as_numpy(call)


@pytest.mark.parametrize("fn", ["mean", "var", "nanmean"])
@pytest.mark.parametrize("out_dt", ["f8", "f4"])
def test_complex_result_into_real_out(fn, out_dt):
    a = _S * (1 - 2j)

    def call(xp):
        out = xp.zeros((5,), out_dt)
        assert getattr(xp, fn)(_dev(xp, a), axis=0, out=out) is out
        return out
    _as_numpy(call, rtol=1e-5)


@pytest.mark.parametrize("dt", ["f8", "?", "c16", "i1"])
@pytest.mark.parametrize("out_dt", ["f8", "c8", "i4"])
def test_ptp_out(dt, out_dt):
    # NumPy: the maximum cast into out, then out - the minimum (bool data works there)
    a = (_S * 5).astype(dt)

    def call(xp):
        out = xp.zeros((5,), out_dt)
        return xp.ptp(_dev(xp, a), axis=0, out=out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        err = None
        try:
            call(numpy)
        except TypeError as e:
            err = e
    if err is not None:
        with pytest.raises(TypeError, match=re.escape(str(err))):
            call(np)
        return
    _as_numpy(call, rtol=1e-6)


@pytest.mark.parametrize("fn", ["nancumsum", "nancumprod"])
@pytest.mark.parametrize("dt", ["f8", "f2", "c16", "c8"])
@pytest.mark.parametrize("dtype", [int, numpy.float32, numpy.uint8])
def test_nan_scans_with_a_dtype(fn, dt, dtype):
    # NumPy replaces the NaN (in either part) before the cast to dtype
    a = (_S_NAN[:3, :4] / 4 * (1 + 1j if dt[0] == "c" else 1)).astype(dt)
    if numpy.dtype(dtype).kind == "u":
        a = abs(a.real) + (a - a.real)      # a negative float's cast to uint8 is C's undefined
    if dt[0] == "c":
        a[0, 1] = complex(1.0, numpy.nan)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, a), axis=1, dtype=dtype), rtol=5e-3)


@pytest.mark.parametrize("fn", ["nanargmin", "nanargmax"])
@pytest.mark.parametrize("shape,axis", [((0,), None), ((0, 3), 0), ((0, 3), 1)])
def test_nanarg_of_empty(fn, shape, axis):
    e = numpy.zeros(shape)
    matches_numpy(lambda xp: getattr(xp, fn)(_dev(xp, e), axis=axis))


@pytest.mark.parametrize("fn", ["cov", "corrcoef"])
def test_cov_complex_to_real_dtype(fn):
    m = _S[:3] * (1 + 1j)
    _as_numpy(lambda xp: getattr(xp, fn)(_dev(xp, m), dtype=numpy.float32), rtol=1e-5)
