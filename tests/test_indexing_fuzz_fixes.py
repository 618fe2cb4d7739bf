"""Differences from NumPy found by the indexing fuzzer (tests/test_indexing_fuzz.py), each
reduced to its minimal case and checked against NumPy: values, dtype and shape, or the
exception class and message."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, raises_like


def _set(a, idx, v):
    a[idx] = v


# --- slice steps and integers are checked, in order, before the index arrays broadcast ---------
@pytest.mark.parametrize("idx", [([3, 0], slice(None), numpy.array([], numpy.uint16), -1),
                                 ([2, 4], slice(None, None, 0), [0, 1, 2])])
def test_int_and_slice_checked_before_broadcast(idx):
    h = numpy.zeros((2, 0, 1, 0)) if len(idx) == 4 else numpy.zeros((2, 3, 4))
    raises_like(lambda: h[idx], lambda: np.asarray(h)[idx])
    raises_like(lambda: _set(h, idx, 1), lambda: _set(np.asarray(h), idx, 1))


# --- an assignment converts its value before the index arrays broadcast -----------------------
def test_value_converted_before_broadcast():
    h = numpy.zeros((2, 3))
    idx = ([0, 1], [0, 1, 2])
    raises_like(lambda: _set(h, idx, 1j), lambda: _set(np.asarray(h), idx, 1j))


# --- a 0-d array's boolean index: NumPy's boolean-assignment rules for the value ----------------
@pytest.mark.parametrize("idx", [False, True, (True,), numpy.array(False)])
@pytest.mark.parametrize("shape", [(1, 0), (1, 1), (3,)])
def test_0d_boolean_assignment_value_checks(idx, shape):
    h = numpy.zeros(())
    v = numpy.ones(shape)
    raises_like(lambda: _set(h.copy(), idx, v), lambda: _set(np.asarray(h), idx, v))
    raises_like(lambda: _set(h.copy(), idx, v), lambda: _set(np.asarray(h), idx, np.asarray(v)))


# --- a value with leading unit dims: NumPy's message names it with as many dropped as fit -------
def test_broadcast_message_drops_leading_unit_dims():
    h = numpy.zeros((2, 1, 0, 2))
    v = numpy.zeros((1, 2, 1, 0, 1, 2))
    raises_like(lambda: _set(h, ..., v), lambda: _set(np.asarray(h), ..., np.asarray(v)))
    h1 = numpy.zeros(1, bool)
    v1 = numpy.zeros((1, 0, 2), bool)
    raises_like(lambda: _set(h1, slice(1, None, 2), v1),
                lambda: _set(np.asarray(h1), slice(1, None, 2), np.asarray(v1)))


# --- a sequence into one element: the dtype's own conversion (bool([1, 0]) is True) ---------------
@pytest.mark.parametrize("dt", ["?", "i4", "f4", "c8"])
@pytest.mark.parametrize("v", [[1], [1, 0], [], [[1], [1, 2]], numpy.array([1])])
def test_sequence_into_one_element(dt, v):
    h = numpy.zeros(2, dt)
    try:
        h[1] = v
    except Exception:           # noqa: BLE001 - the class and message are compared
        raises_like(lambda: _set(numpy.zeros(2, dt), 1, v), lambda: _set(np.zeros(2, dt), 1, v))
        return
    g = np.zeros(2, dt)
    g[1] = v
    assert_same(g, h)


# --- a 0-d device index array is bounds-checked even where the broadcast is empty ----------------
def test_0d_device_index_checked_when_broadcast_empty():
    h = numpy.zeros((3, 2))
    for i in (5, -3):
        with pytest.raises(IndexError, match=f"index {i} is out of bounds for axis 1 with size 2"):
            np.asarray(h)[[], np.asarray(numpy.array(i))]
        with pytest.raises(IndexError, match=f"index {i} is out of bounds"):
            np.asarray(h)[[], np.asarray(numpy.array(i))] = 1
    assert np.asarray(h)[[], np.asarray(numpy.array(1))].shape == (0,)


# --- Python integers beyond intp: NumPy's conversion error, as the index is parsed ---------------
@pytest.mark.parametrize("idx", [(2 ** 63, 1.0), 2 ** 64, (-2 ** 63 - 1,), (5, 2 ** 63),
                                 (0, 2 ** 63, [0])])
def test_huge_python_int_index(idx):
    h = numpy.zeros(4) if idx != (0, 2 ** 63, [0]) else numpy.zeros((1, 2, 2))
    for a in (h, numpy.zeros(())):
        raises_like(lambda: a[idx], lambda: np.asarray(a)[idx])
        raises_like(lambda: _set(a, idx, 1), lambda: _set(np.asarray(a), idx, 1))


# --- compress past an axis' end on empty arrays: NumPy's take rules ------------------------------
@pytest.mark.parametrize("shape, cond, axis", [((0, 0), [True], 1), ((0, 0), [True], 0),
                                               ((0, 0), [True], None), ((0,), [True], None),
                                               ((0, 2), [1, 1, 1], 1), ((2, 0), [1], 1),
                                               ((2, 0, 0), [1], 1)])
def test_compress_past_end_of_empty(shape, cond, axis):
    h = numpy.zeros(shape)
    try:
        want = numpy.compress(cond, h, axis=axis)
    except IndexError:
        raises_like(lambda: numpy.compress(cond, h, axis=axis),
                    lambda: np.compress(cond, np.asarray(h), axis=axis))
        return
    assert_same(np.compress(cond, np.asarray(h), axis=axis), want)


# --- take from an empty axis: NumPy's "non-empty take" error only for a non-empty result ------
def test_take_empty_axis_empty_result():
    h = numpy.zeros((1, 0, 0))
    raises_like(lambda: numpy.take(h, 0, axis=1), lambda: np.take(np.asarray(h), 0, axis=1))
    h2 = numpy.zeros((2, 0, 3))
    raises_like(lambda: numpy.take(h2, [0], axis=1), lambda: np.take(np.asarray(h2), [0], axis=1))
