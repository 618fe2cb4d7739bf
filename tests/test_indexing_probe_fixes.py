"""Differences from NumPy found by probing the indexing routines and array manipulation
functions, each checked against NumPy (random data): values, dtype and shape, or the
exception class and message."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, raises_like

RNG = numpy.random.default_rng(2718)


def _ints(shape, dt=numpy.int64, lo=0, hi=100):
    return RNG.integers(lo, hi, shape).astype(dt)


# --- take / put: indices that are not arrays are built as intp (int() of each element) ----------
@pytest.mark.parametrize("ind", [[1.0, 2.0], [1.5, -1.5], 2.7, numpy.float64(1.0), (1, 2.0),
                                 [True, 2.5]])
def test_take_put_convert_non_array_indices(ind):
    h = _ints((3, 5))
    assert_same(np.take(np.asarray(h), ind), numpy.take(h, ind))
    assert_same(np.take(np.asarray(h), ind, axis=1, mode="clip"),
                numpy.take(h, ind, axis=1, mode="clip"))
    d, e = np.asarray(h), h.copy()
    np.put(d, ind, 9)
    numpy.put(e, ind, 9)
    assert_same(d, e)


@pytest.mark.parametrize("ind", [numpy.array([1.0]), numpy.array(1.0), [1j]])
def test_take_put_float_arrays_refused(ind):
    h = _ints((3, 5))
    raises_like(lambda: numpy.take(h, ind), lambda: np.take(np.asarray(h), ind))
    raises_like(lambda: numpy.put(h.copy(), ind, 1),
                     lambda: np.put(np.asarray(h), ind, 1))


def test_take_list_of_device_arrays():
    h = _ints((3, 5))
    idx = [np.asarray(numpy.array(1)), np.asarray(numpy.array(4))]
    assert_same(np.take(np.asarray(h), idx), numpy.take(h, [1, 4]))


# --- choose ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("a", [1.0, numpy.float32(1), numpy.array(1.0), [], [1.0]])
def test_choose_float_index_message(a):
    raises_like(lambda: numpy.choose(a, [1, 2]), lambda: np.choose(a, [1, 2]))


def test_choose_out_shape():
    h = _ints((3, 4), lo=0, hi=2)
    ch = [_ints((3, 4)), _ints((3, 4))]
    raises_like(lambda: numpy.choose(h, ch, out=numpy.zeros((3, 3), numpy.int64)),
                     lambda: np.choose(np.asarray(h), [np.asarray(c) for c in ch],
                                       out=np.zeros((3, 3), np.int64)))


# --- unravel_index / ravel_multi_index --------------------------------------------------------------
@pytest.mark.parametrize("empty", [[], ()])
def test_unravel_ravel_empty_sequence(empty):
    raises_like(lambda: numpy.unravel_index(empty, (3, 4)),
                     lambda: np.unravel_index(empty, (3, 4)))
    raises_like(lambda: numpy.ravel_multi_index((empty, empty), (3, 4)),
                     lambda: np.ravel_multi_index((empty, empty), (3, 4)))
    e = numpy.array([], numpy.float64)
    raises_like(lambda: numpy.unravel_index(e, (3, 4)), lambda: np.unravel_index(e, (3, 4)))


def test_ravel_multi_index_broadcast_message():
    a, b, c = _ints(2, hi=3), _ints(3, hi=3), _ints((2, 1), hi=3)
    raises_like(lambda: numpy.ravel_multi_index((a, b, c), (3, 4, 5)),
                     lambda: np.ravel_multi_index((np.asarray(a), b.tolist(), c), (3, 4, 5)))
    r = numpy.ravel_multi_index((a[:, None], b), (3, 4))
    assert_same(np.ravel_multi_index((np.asarray(a[:, None]), np.asarray(b)), (3, 4)), r)


# --- fill_diagonal: NumPy looks at ndim first ---------------------------------------------------------
def test_fill_diagonal_list_and_read_only():
    raises_like(lambda: numpy.fill_diagonal([[1, 2], [3, 4]], 0),
                     lambda: np.fill_diagonal([[1, 2], [3, 4]], 0))
    h = numpy.zeros((2, 3, 3))
    h.flags.writeable = False
    d = np.zeros((2, 3, 3))
    d.flags.writeable = False
    raises_like(lambda: numpy.fill_diagonal(h, 1), lambda: np.fill_diagonal(d, 1))


# --- insert ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("obj", [[1.0, 2.0], numpy.array([1.5]), 1.5, [1.0], numpy.float64(1),
                                 numpy.array([], float), True, [True, False, True, False, True],
                                 10.5])
def test_insert_bad_positions(obj):
    h = _ints((3, 5))
    raises_like(lambda: numpy.insert(h, obj, 9, axis=1),
                     lambda: np.insert(np.asarray(h), obj, 9, axis=1))


@pytest.mark.parametrize("vals", [300, -1, numpy.nan, [1.5, 2.5], [[1, 2, 3]], [[1], [2], [3]]])
def test_insert_values_as_numpy(vals):
    h = _ints((3, 4), numpy.int8)
    for obj in (1, [1, 2]):
        try:
            expected = numpy.insert(h, obj, vals, axis=1)
        except Exception:
            raises_like(lambda: numpy.insert(h, obj, vals, axis=1),
                             lambda: np.insert(np.asarray(h), obj, vals, axis=1))
        else:
            assert_same(np.insert(np.asarray(h), obj, vals, axis=1), expected)


def test_insert_value_shape_messages():
    h = _ints((3, 4))
    raises_like(lambda: numpy.insert(h, 1, [], axis=1),
                     lambda: np.insert(np.asarray(h), 1, [], axis=1))
    raises_like(lambda: numpy.insert(h, [0, 1], [[1, 2]], axis=0),
                     lambda: np.insert(np.asarray(h), [0, 1], [[1, 2]], axis=0))


# --- trim_zeros: a list in, a list out ----------------------------------------------------------------
@pytest.mark.parametrize("filt", [[0, 1, 2, 0], (0, 0, 3, 0), [0, 0], [], [[0, 1], [0, 0]]])
@pytest.mark.parametrize("trim", ["fb", "f", "b"])
def test_trim_zeros_sequences(filt, trim):
    try:
        expected = numpy.trim_zeros(filt, trim)
    except Exception:
        raises_like(lambda: numpy.trim_zeros(filt, trim), lambda: np.trim_zeros(filt, trim))
        return
    got = np.trim_zeros(filt, trim)
    assert type(got) is type(expected) and got == expected


# --- rot90, vander, pad: argument reading ------------------------------------------------------------
@pytest.mark.parametrize("k", [1.0, 1.5, 2.0, -1.0, numpy.int8(3)])
def test_rot90_float_k(k):
    h = _ints((3, 4))
    assert_same(np.rot90(np.asarray(h), k), numpy.rot90(h, k))


def test_vander_float_n():
    h = _ints(4, lo=-3, hi=4)
    raises_like(lambda: numpy.vander(h, 2.0), lambda: np.vander(np.asarray(h), 2.0))
    assert_same(np.vander(np.asarray(h), numpy.int16(3)), numpy.vander(h, numpy.int16(3)))


def test_pad_device_width():
    h = _ints((3, 4))
    w = numpy.array([[1, 2], [0, 3]])
    assert_same(np.pad(np.asarray(h), np.asarray(w)), numpy.pad(h, w))


# --- isdtype ------------------------------------------------------------------------------------------
def test_isdtype_array_argument():
    with pytest.raises(TypeError, match=r"^dtype argument must be a NumPy dtype, but it is a "
                                        r"<class 'npgpu\.ndarray'>\.$"):
        np.isdtype(np.zeros(3), "numeric")


# --- messages of convolve, trapezoid, gradient, polyval -------------------------------------------
def test_convolve_integer_mode_message():
    a, v = _ints(7), _ints(3)
    for fn in ("convolve", "correlate"):
        raises_like(lambda: getattr(numpy, fn)(a, v, mode=3),
                         lambda: getattr(np, fn)(np.asarray(a), np.asarray(v), mode=3))


def test_trapezoid_broadcast_message():
    y = RNG.standard_normal((3, 4))
    raises_like(lambda: numpy.trapezoid(y, numpy.arange(4.0), axis=0),
                     lambda: np.trapezoid(np.asarray(y), np.arange(4.0), axis=0))
    raises_like(lambda: numpy.trapezoid(y, dx=numpy.ones(2)),
                     lambda: np.trapezoid(np.asarray(y), dx=numpy.ones(2)))
    numpy.testing.assert_allclose(np.trapezoid(np.asarray(y), dx=numpy.ones(3)).get(),
                                  numpy.trapezoid(y, dx=numpy.ones(3)), rtol=1e-12)


def test_gradient_bool_message():
    h = RNG.random((3, 3)) > 0.5
    raises_like(lambda: numpy.gradient(h), lambda: np.gradient(np.asarray(h)))
    raises_like(lambda: numpy.gradient(h[:1, 0]), lambda: np.gradient(np.asarray(h[:1, 0])))


def test_polyval_rows_broadcast_message():
    p, x = RNG.standard_normal((3, 2)), RNG.standard_normal((4, 3))
    raises_like(lambda: numpy.polyval(p, x), lambda: np.polyval(np.asarray(p), np.asarray(x)))


# --- assignment: leading unit dims of the value, NumPy's broadcast message ------------------------------
def test_mask_of_leading_axes_value_with_unit_dims():
    h = _ints((3, 4, 5))
    m = numpy.array([True, False, True])
    v = _ints((1, 1, 2, 4, 5))
    d = np.asarray(h)
    d[m] = np.asarray(v)
    e = h.copy()
    e[m] = v
    assert_same(d, e)


def test_basic_assignment_value_with_unit_dims_and_message():
    h = _ints((3, 5))
    d, e = np.asarray(h), h.copy()
    v = _ints((1, 1, 5))
    d[:] = np.asarray(v)
    e[:] = v
    assert_same(d, e)
    bad = _ints((1, 2, 5))
    raises_like(lambda: h.copy().__setitem__(slice(None), bad),
                     lambda: np.asarray(h).__setitem__(slice(None), np.asarray(bad)))
    raises_like(lambda: h.copy().__setitem__((slice(None), 1), numpy.ones(4)),
                     lambda: np.asarray(h).__setitem__((slice(None), 1), np.ones(4)))
