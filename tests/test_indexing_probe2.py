"""Second, deeper probe of indexing against NumPy 2 (random data): ``a[index]`` / ``a[index] = v``
over every index kind and combination, and the indexing routines.  The first part holds the
differences the probe found (each fixed), the second a regression sweep of what already
matched: values, dtype and shape, views where NumPy gives one, the exception class and message,
and NumPy's warnings."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import assert_matches, assert_same, matches_numpy, raises_like, random_array

RNG = numpy.random.default_rng(31415)
A = random_array((4, 5, 6), numpy.int32, RNG)


def _dev(x):
    """Index parts or values as npgpu arrays (host arrays become device arrays)."""
    if isinstance(x, numpy.ndarray):
        return np.asarray(x)
    if isinstance(x, tuple):
        return tuple(_dev(y) for y in x)
    return x


def _warned(fn):
    """(result, warning classes) of ``fn()``."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn()
    return r, sorted(x.category.__name__ for x in w)


def _assigned(host, index, value, device_index=True, device_value=True):
    """NumPy's and npgpu's ``a[index] = value`` on copies of ``host``: both arrays and the
    warnings each gave."""
    def on_host():
        h = host.copy()
        h[index] = value
        return h

    def on_device():
        d = np.asarray(host)
        d[_dev(index) if device_index else index] = _dev(value) if device_value else value
        return d
    return _warned(on_host), _warned(on_device)


def check_setitem(host, index, value, **kw):
    (h, hw), (d, dw) = _assigned(host, index, value, **kw)
    assert_same(d, h)
    assert dw == hw


# === fixed differences ===========================================================================
# --- a boolean axis of length 0 selects nothing: NumPy does not check it against the array -----
@pytest.mark.parametrize("mask_shape, lead", [((0,), 0), ((4, 0), 0), ((0,), 1), ((0, 5), 0)])
@pytest.mark.parametrize("device", [True, False])
def test_mask_zero_length_axis_getitem(mask_shape, lead, device):
    m = numpy.zeros(mask_shape, bool)
    index = (slice(None),) * lead + (m,)
    got = np.asarray(A)[_dev(index) if device else index]
    assert_same(got, A[index])


@pytest.mark.parametrize("value", [7, numpy.array([3]), numpy.zeros((0, 5, 6), numpy.int32)])
def test_mask_zero_length_axis_setitem(value):
    check_setitem(A, numpy.zeros(0, bool), value)
    check_setitem(A, (numpy.zeros(0, bool), [0]), value if numpy.ndim(value) < 2 else 5)


def test_mask_zero_length_axis_bad_value_and_other_axes_checked():
    m = numpy.zeros(0, bool)
    raises_like(lambda: A.copy().__setitem__(m, numpy.ones(3)),
                lambda: np.asarray(A).__setitem__(np.asarray(m), np.ones(3)))
    # (0, 3): axis 0 is not checked, axis 1 is
    m2 = numpy.zeros((0, 3), bool)
    raises_like(lambda: A[m2], lambda: np.asarray(A)[np.asarray(m2)])
    raises_like(lambda: A[:, m2], lambda: np.asarray(A)[:, m2])


# --- complex arrays assigned into real arrays: NumPy's ComplexWarning ---------------------------
def _complex(shape):
    return random_array(shape, numpy.complex128, RNG)


@pytest.mark.parametrize("index, vshape", [
    ([0, 2], (2, 5, 6)), ((slice(None), [1, 1, 3]), (3, 6)), (A > 0, (int((A > 0).sum()),)),
    ((A > 0)[:, :, 0], (int((A[:, :, 0] > 0).sum()), 6))])
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.int16, numpy.bool_])
def test_complex_array_into_real_warns(index, vshape, dtype):
    host = random_array(A.shape, dtype, RNG)
    value = _complex(vshape)
    check_setitem(host, index, value)
    check_setitem(host, index, value, device_value=False)


def test_complex_array_put_flat_put_along_axis_warn():
    h = random_array((4, 6), numpy.float64, RNG)
    c = _complex((3,))

    def both(fn):
        e, d = h.copy(), np.asarray(h)
        (_, hw), (_, dw) = _warned(lambda: fn(numpy, e, c)), _warned(lambda: fn(np, d, _dev(c)))
        assert_same(d, e)
        assert dw == hw == ["ComplexWarning"]
    both(lambda xp, a, v: xp.put(a, [5, 1, 5], v))
    both(lambda xp, a, v: a.flat.__setitem__([0, 7, 9], v))
    both(lambda xp, a, v: xp.put_along_axis(a, xp.asarray(numpy.array([[0, 2, 1]])), v[None],
                                            axis=1))


# --- put converts its values even when there is nothing to put ----------------------------------
@pytest.mark.parametrize("ind", [[], numpy.array([], numpy.int64)])
def test_put_converts_values_for_empty_indices(ind):
    h = random_array((3, 4), numpy.float32, RNG)
    raises_like(lambda: numpy.put(h.copy(), ind, 1 + 1j), lambda: np.put(np.asarray(h), ind, 1 + 1j))
    d, e = np.asarray(h), h.copy()
    np.put(d, ind, [1.5, 2.5])
    numpy.put(e, ind, [1.5, 2.5])
    assert_same(d, e)
    raises_like(lambda: numpy.put(numpy.zeros(0), [0], 1), lambda: np.put(np.zeros(0), [0], 1))


# --- unravel_index: NumPy's order of checks --------------------------------------------------------
@pytest.mark.parametrize("indices", [1.5, numpy.array([1.5]), [], [2]])
def test_unravel_index_order_checked_before_indices(indices):
    raises_like(lambda: numpy.unravel_index(indices, (4, 5), order="X"),
                lambda: np.unravel_index(_dev(indices), (4, 5), order="X"))


@pytest.mark.parametrize("indices", [numpy.array([0, 5]), [[1], [2]], numpy.array([3], numpy.uint64),
                                     numpy.array([-1]), numpy.array([0, 0]), [[0]]])
def test_unravel_index_zero_d_shape_bounds_first(indices):
    raises_like(lambda: numpy.unravel_index(indices, ()),
                lambda: np.unravel_index(_dev(indices), ()))


# --- mask_indices ---------------------------------------------------------
@pytest.mark.parametrize("fn", ["triu", "tril"])
@pytest.mark.parametrize("n, k", [(3, 0), (5, 1), (4, -2), (0, 0), (3, 5)])
def test_mask_indices(fn, n, k):
    got = np.mask_indices(n, getattr(np, fn), k)
    want = numpy.mask_indices(n, getattr(numpy, fn), k)
    assert len(got) == len(want) == 2
    for g, w in zip(got, want):
        assert_same(g, w)
    h = random_array((n, n), numpy.float64, RNG)
    assert_same(np.asarray(h)[got], h[want])


# --- a.flat with a 0-d boolean index (NumPy 2.4: deprecated, True is index 0) ----------------------
@pytest.mark.parametrize("key", [True, False, numpy.array(True), numpy.array(False), "dev-true"])
def test_flat_zero_d_bool(key):
    h = random_array((3, 4), numpy.int64, RNG)
    hkey = numpy.array(True) if key == "dev-true" else key
    dkey = np.asarray(numpy.array(True)) if key == "dev-true" else key
    want, hw = _warned(lambda: h.flat[hkey])
    got, dw = _warned(lambda: np.asarray(h).flat[dkey])
    assert_matches(got, want)
    assert dw == hw == ["DeprecationWarning"]
    e, d = h.copy(), np.asarray(h)
    _, hw = _warned(lambda: e.flat.__setitem__(hkey, 99))
    _, dw = _warned(lambda: d.flat.__setitem__(dkey, 99))
    assert_same(d, e)
    assert dw == hw


def test_flat_numpy_bool_scalar_refused():
    h = random_array((3, 4), numpy.int64, RNG)
    raises_like(lambda: h.flat[numpy.True_], lambda: np.asarray(h).flat[numpy.True_])


# --- array_split: split points are slice bounds (NumPy's TypeError for floats) ---------------------
@pytest.mark.parametrize("points", [[1.5], [numpy.float64(2)], [1, 2.0]])
def test_array_split_float_points(points):
    h = random_array((5, 3), numpy.float32, RNG)
    raises_like(lambda: numpy.array_split(h, points), lambda: np.array_split(np.asarray(h), points))
    raises_like(lambda: numpy.split(h, points), lambda: np.split(np.asarray(h), points))


# === regression sweep (matched NumPy when probed) ================================================
GET_INDICES = [
    0, -1, -4, 3, numpy.int8(2), numpy.uint64(3), (1, -2), (Ellipsis, 2), (None, 1, None, 2, None),
    (), Ellipsis, (None, Ellipsis, None), slice(None, None, -1), slice(-1, -100, -2),
    slice(10 ** 20, -10 ** 20, -3), slice(3, 1), (slice(None), slice(1, 2 ** 70)),
    numpy.array([0, -1, 2]), [0, 1], [[0, 1], [2, 3]], numpy.array(2), numpy.array([], numpy.intp),
    [], numpy.array([3], numpy.uint64), numpy.array([-1, 2], numpy.int8), [True, False, True, False],
    (numpy.array([1, 0]), slice(1, 3), numpy.array([2, 5])), ([0, 1], 1, [4, 5]),
    (1, [0, 2], [1, 3]), ([0, 1], None, [1, 2]), ([[0], [3]], ..., [0, 1, 2]), (None, [1, 2]),
    ([0, 1], ..., 0), (slice(None), [[0], [1]], [1, 2, 3]), (numpy.array(1), slice(None)),
    A > 0, (A > 0)[:, :, 0], (A > 0)[:, 0, 0], numpy.True_, False, numpy.array(False), (True, 1),
    (slice(None), (A > 0)[0, :, 0]), (1, (A > 0)[0, :, 0]), ((A > 0)[:, :, 0], [0]),
    (None, (A > 0)[:, :, 0]), ((A > 0)[:, 0, 0], [0]),
]


@pytest.mark.parametrize("index", GET_INDICES, ids=range(len(GET_INDICES)))
@pytest.mark.parametrize("layout", ["contiguous", "negative", "transposed"])
def test_getitem_sweep(index, layout):
    if layout == "negative":
        host = A[::-1, :, ::-1]
        dev = np.asarray(A)[::-1, :, ::-1]
    elif layout == "transposed":
        host = numpy.ascontiguousarray(A.transpose(2, 1, 0)).transpose(2, 1, 0)
        dev = np.asarray(numpy.ascontiguousarray(A.transpose(2, 1, 0))).transpose(2, 1, 0)
    else:
        host, dev = A, np.asarray(A)
    assert_matches(dev[_dev(index)], host[index])
    assert_matches(dev[index], host[index])


BAD_GET = [4, -5, 10 ** 20, 2 ** 63, (0, 0, 0, 0), 1.0, (1, 1.5), "a", slice(1.0, 2), [1.0],
           numpy.array([1.0]), numpy.array([4]), numpy.array([-5]), ([0, 1], [0, 1, 2]),
           ([[0], [1]], slice(None), [[0, 1, 2]] * 3), (..., ...), [[0, 1], [1]],
           numpy.zeros(3, bool), (A > 0)[:3], numpy.ones((4, 5, 6, 1), bool), ([0, 9], [9, 1]),
           (slice(None), [-6]), numpy.array([2 ** 63 + 5], numpy.uint64), slice(None, None, 0)]


@pytest.mark.parametrize("index", BAD_GET, ids=range(len(BAD_GET)))
def test_getitem_errors_sweep(index):
    raises_like(lambda: A[index], lambda: np.asarray(A)[_dev(index)])
    raises_like(lambda: A.copy().__setitem__(index, 1),
                lambda: np.asarray(A).__setitem__(_dev(index), 1))


def _r(*shape):
    return random_array(shape, numpy.float64, RNG)


SET_CASES = [
    (0, 1.5), (-1, _r(5, 6)), ((1, 2), _r(1, 6)), (slice(None, None, -1), _r(4, 5, 6)), (..., 7),
    (numpy.array([0, 0, 1]), 2.0), (numpy.array([1, 3]), _r(1, 1, 5, 6)), ([0, 2], _r(2, 1, 6)),
    ((slice(None), [0, 1]), _r(4, 2, 6)), (([0, 1], slice(None), [0, 1]), _r(5)),
    (([0, 1], slice(None), [0, 1]), _r(2, 5)), (A > 0, 0), (A > 0, _r(int((A > 0).sum()))),
    (A > 0, _r(1)), ((A > 0)[:, :, 0], _r(6)), ((slice(None), (A > 0)[0, :, 0]), 1), (numpy.True_, _r(5, 6)),
    (numpy.False_, 3), (0, [1, 2, 3, 4, 5, 6]), (numpy.array([], numpy.intp), _r(1, 5, 6)),
    (numpy.zeros((4, 5, 6), bool), _r(1)), (([0, 0], [1, 1], [2, 2]), numpy.array([1., 2.])),
]


@pytest.mark.parametrize("index, value", SET_CASES, ids=range(len(SET_CASES)))
@pytest.mark.parametrize("device_value", [True, False])
def test_setitem_sweep(index, value, device_value):
    check_setitem(A.astype(numpy.float64), index, value, device_value=device_value)
    check_setitem(A.astype(numpy.float64), index, value, device_index=False,
                  device_value=device_value)


BAD_SET = [(0, _r(2, 5, 6)), (numpy.array([0, 1]), _r(3)), (A > 0, _r(3)), (A > 0, _r(2, 3)),
           ((A > 0)[:, :, 0], _r(2, 5)), (([0, 1], slice(None), [0, 1]), _r(5, 2)), (0, "abc"),
           ((0, 0, 0), 1 + 2j), (numpy.array([0]), 1 + 2j),
           (A > 0, 1 + 2j)]


@pytest.mark.parametrize("index, value", BAD_SET, ids=range(len(BAD_SET)))
def test_setitem_errors_sweep(index, value):
    raises_like(lambda: A.astype(numpy.float64).__setitem__(index, value),
                lambda: np.asarray(A.astype(numpy.float64)).__setitem__(_dev(index), _dev(value)))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint8, numpy.bool_, numpy.float32])
@pytest.mark.parametrize("value", [300, -129, 2.7, -2.7, numpy.int64(300), numpy.float64(1e10),
                                   numpy.nan, 1 + 1j, numpy.complex128(1 + 2j), 2 ** 64,
                                   numpy.uint64(2 ** 64 - 1), numpy.array(300), True])
def test_setitem_scalar_casts(dtype, value):
    host = random_array((6,), dtype, RNG)
    for index in (0, slice(0, 2), numpy.array([0, 1]), host != host[0], [1, 3]):
        try:
            _assigned(host, index, value, device_value=False)
        except Exception:       # noqa: BLE001 - NumPy's error (or OverflowError), compared
            raises_like(lambda: host.copy().__setitem__(index, value),
                        lambda: np.asarray(host).__setitem__(_dev(index), value))
            continue
        check_setitem(host, index, value, device_value=False)


@pytest.mark.parametrize("index", [0, (1, slice(None, None, -1)), (Ellipsis, 2),
                                   (None, 1, slice(1, 4)), slice(None, None, -2), (), Ellipsis])
def test_basic_index_is_a_view(index):
    h, d = A.copy(), np.asarray(A)
    hv, dv = h[index], d[index]
    hv[...] = 77
    dv[...] = 77
    assert_same(d, h)
    h[...] = -3 * h
    d[...] = -3 * d
    assert_same(dv, hv)


@pytest.mark.parametrize("index", [[0, 1], A > 0, (slice(None), [1, 1])])
def test_advanced_index_is_a_copy(index):
    d = np.asarray(A)
    r = d[_dev(index)]
    r[...] = 0
    assert_same(d, A)


@pytest.mark.parametrize("index, value", [(0, 1), (slice(None), 1), ([0], 1), (A > 0, 1),
                                          ((0, 0, 0), 5), (99, 1), ([99], 1), (..., 2)])
def test_read_only_destination(index, value):
    h, d = A.copy(), np.asarray(A)
    h.flags.writeable = False
    d.flags.writeable = False
    raises_like(lambda: h.__setitem__(index, value), lambda: d.__setitem__(_dev(index), value))
    raises_like(lambda: h[0].__setitem__(0, value), lambda: d[0].__setitem__(0, value))


def test_repeated_indices_last_wins():
    h = random_array((10,), numpy.float64, RNG)
    idx = RNG.integers(-10, 10, (6, 8))
    v = random_array((6, 8), numpy.float64, RNG)
    check_setitem(h, idx, v)
    check_setitem(A, ([0, 0], slice(None), [1, 1]), random_array((2, 5), numpy.int32, RNG))


@pytest.mark.parametrize("key", [3, -1, slice(2, 20, 3), slice(None, None, -1), [1, 5, -2],
                                 numpy.array([[0, 1], [2, 3]]), (A > 0).ravel(), Ellipsis,
                                 numpy.array([], numpy.intp)])
def test_flat_sweep(key):
    t = A.transpose(1, 0, 2)
    assert_matches(np.asarray(A).transpose(1, 0, 2).flat[_dev(key)], t.flat[key])
    e, d = A.copy(), np.asarray(A)
    v = 41 if isinstance(key, int) else numpy.arange(7) * 3
    e.transpose(1, 0, 2).flat[key] = v
    d.transpose(1, 0, 2).flat[_dev(key)] = _dev(v)
    assert_same(d, e)


# --- indexing routines --------------------------------------------------------------------------
H2 = random_array((4, 5), numpy.float32, RNG)


@pytest.mark.parametrize("ind", [numpy.array([0, -1, 3]), [[0, 1], [2, 3]], 2,
                                 numpy.array([9, -9]), numpy.array([], numpy.intp),
                                 numpy.array([1, 2], numpy.int8), numpy.array([1], numpy.uint64)])
@pytest.mark.parametrize("axis", [None, 0, -1, 2])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take_sweep(ind, axis, mode):
    try:
        want = numpy.take(H2, ind, axis=axis, mode=mode)
    except Exception:           # noqa: BLE001 - NumPy's error, compared next
        raises_like(lambda: numpy.take(H2, ind, axis=axis, mode=mode),
                    lambda: np.take(np.asarray(H2), _dev(ind), axis=axis, mode=mode))
        return
    assert_same(np.take(np.asarray(H2), _dev(ind), axis=axis, mode=mode), want)


@pytest.mark.parametrize("ind", [numpy.array([0, -1, 3]), [1, 1, 1], numpy.array([25, -30]),
                                 numpy.array([[1, 2]])])
@pytest.mark.parametrize("v", [7, [1, 2], numpy.array([1.5, 2.5, 3.5])])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put_sweep(ind, v, mode):
    e, d = H2.copy(), np.asarray(H2)
    try:
        numpy.put(e, ind, v, mode=mode)
    except Exception:           # noqa: BLE001 - NumPy's error, compared next
        raises_like(lambda: numpy.put(H2.copy(), ind, v, mode=mode),
                    lambda: np.put(d, _dev(ind), _dev(v), mode=mode))
        return
    np.put(d, _dev(ind), _dev(v), mode=mode)
    assert_same(d, e)


def test_routines_sweep():
    idx = RNG.integers(-4, 4, (4, 5))
    d = np.asarray(H2)
    for ax in (0, 1, -1):
        assert_same(np.take_along_axis(d, np.asarray(idx), axis=ax),
                    numpy.take_along_axis(H2, idx, axis=ax))
    raises_like(lambda: numpy.take_along_axis(H2, idx + 10, axis=0),
                lambda: np.take_along_axis(d, np.asarray(idx + 10), axis=0))
    sel = RNG.integers(0, 3, (4, 5))
    ch = [random_array((4, 5), numpy.int64, RNG), random_array((5,), numpy.float64, RNG), 7]
    for mode in ("raise", "wrap", "clip"):
        assert_same(np.choose(np.asarray(sel), [_dev(c) for c in ch], mode=mode),
                    numpy.choose(sel, ch, mode=mode))
    cond = RNG.integers(0, 2, 5).astype(bool)
    for ax in (None, 1):
        assert_same(np.compress(np.asarray(cond), d, axis=ax), numpy.compress(cond, H2, axis=ax))
    assert_same(np.extract(d > 0, d), numpy.extract(H2 > 0, H2))
    e, g = H2.copy(), np.asarray(H2)
    numpy.place(e, e > 0, [1, 2, 3])
    np.place(g, g > 0, [1, 2, 3])
    assert_same(g, e)
    e, g = H2.copy(), np.asarray(H2)
    numpy.putmask(e, e > 0, [9, 8])
    np.putmask(g, np.asarray(H2 > 0), [9, 8])
    assert_same(g, e)
    c0, c1 = H2 > 5, H2 < -5
    assert_same(np.select([np.asarray(c0), np.asarray(c1)], [d, -d], default=99),
                numpy.select([c0, c1], [H2, -H2], default=99))
    for x in (H2, H2 > 0, numpy.zeros((0, 3)), H2[:, ::-2]):
        for f in ("nonzero", "argwhere", "flatnonzero"):
            got, want = getattr(np, f)(np.asarray(x)), getattr(numpy, f)(x)
            for g, w in zip(got if f == "nonzero" else [got], want if f == "nonzero" else [want]):
                assert_same(g, w)
    for f in ("tril_indices", "triu_indices"):
        for args in ((4,), (4, 1), (4, -1, 6), (0,)):
            for g, w in zip(getattr(np, f)(*args), getattr(numpy, f)(*args)):
                assert_same(g, w)
    for g, w in zip(np.ix_([0, 2], np.asarray(numpy.array([1, 3, 4]))), numpy.ix_([0, 2], [1, 3, 4])):
        assert_same(g, w)
    for order in ("C", "F"):
        for g, w in zip(np.unravel_index(np.asarray(numpy.array([0, 5, 19])), (4, 5), order=order),
                        numpy.unravel_index([0, 5, 19], (4, 5), order=order)):
            assert_same(g, w)
        for mode in ("raise", "wrap", "clip", ("clip", "wrap")):
            mi = ([1, 3], [2, 4]) if mode == "raise" else ([-1, 5], [2, 9])
            assert_same(np.ravel_multi_index(tuple(np.asarray(numpy.array(m)) for m in mi), (4, 5),
                                             mode=mode, order=order),
                        numpy.ravel_multi_index(mi, (4, 5), mode=mode, order=order))
    raises_like(lambda: numpy.ravel_multi_index(([4, 0], [0, 5]), (4, 5)),
                lambda: np.ravel_multi_index(([4, 0], [0, 5]), (4, 5)))
    for g, w in zip(np.diag_indices(3, 3), numpy.diag_indices(3, 3)):
        assert_same(g, w)


@pytest.mark.parametrize("dims", [(2, -1), (-1,), (-3, 2)])
def test_indices_negative_dimensions(dims):
    raises_like(lambda: numpy.indices(dims), lambda: np.indices(dims))


# --- basic-index assignment of values with dimensions (_core/copy.setitem) ----------------------
_A3, _B0, _A2 = random_array((2, 3, 4), numpy.float64), numpy.zeros(()), numpy.zeros((2, 3))


@pytest.mark.parametrize("base,idx,value", [
    (_A3, (0, 0, 0), [1]), (_A3, (0, 0, 0), numpy.array([5.0])), (_A3, (0, 0, 0), numpy.array(5.0)),
    (_A3, (0, 0), [[1, 2, 3, 4]]), (_A3, (0, 0), [1, 2, 3, 4]), (_A3, (0,), numpy.ones((1, 3, 4))),
    (_B0, (), [1]), (_B0, Ellipsis, [1]), (_B0, Ellipsis, numpy.array([5.0])),
    (_B0, Ellipsis, [[2.0]]), (_A2, (0, slice(0, 1)), [[1]]), (_A2, (0, Ellipsis, 0), [1]),
    (_A2, (numpy.int64(0), 1), [1]), (_A2, (0, -1), [[1]]), (_A2, 0, numpy.ones((2, 3))),
    (_A3, (0, 0, 0), "device (1,)"), (_A3, (0,), "device (1, 3, 4)")], ids=repr)
def test_basic_setitem_values_with_dimensions(base, idx, value):
    """NumPy's "setting an array element with a sequence." for a value with dimensions into one
    element (integer index), and for a list nested deeper than the destination; arrays drop
    leading unit dims."""
    def run(xp):
        t = base.copy() if xp is numpy else np.asarray(base)
        v = value
        if isinstance(value, str):
            shape = (1,) if value == "device (1,)" else (1, 3, 4)
            v = xp.full(shape, 2.5)
        t[idx] = v
        return t
    matches_numpy(run)


def test_basic_setitem_complex_into_real_warns():
    t = np.asarray(random_array((5,), numpy.float32))
    for value in (np.ones(4, dtype=numpy.complex64), numpy.ones(4, numpy.complex128)):
        with pytest.warns(numpy.exceptions.ComplexWarning):
            t[1:] = value
    b = np.zeros(4, dtype=bool)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b[:] = np.ones(4, dtype=numpy.complex64)           # bool takes them silently, as NumPy
