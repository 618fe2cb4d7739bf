"""Defects found by NumPy's own indexing, index_tricks and item-selection tests, each checked
against NumPy: an assignment reads index arrays and putmask's mask that share the destination's
memory from a copy; NumPy's limits on the number of index arrays; a fancy-indexing result in the
index arrays' F order; index and value shapes past 32 dimensions; flat iterators as flat
indices; unravel_index / ravel_multi_index overflow checks; choose's weak Python scalars and
choice limit."""
import inspect
import warnings

import numpy
import pytest

import npgpu as np
from conftest import assert_same, raises_like, random_array

RNG = numpy.random.default_rng(2718)
DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float32, numpy.complex128]


# --- an index that shares memory with the destination --------------------------------------
@pytest.mark.parametrize("dt", [numpy.int8, numpy.int32, numpy.uint64, numpy.int64])
def test_setitem_index_overlapping_destination(dt):
    h = RNG.integers(0, 4, 12).astype(dt)
    val = random_array((4,), dt, RNG)
    cases = [
        lambda x: x[4:].__setitem__(x[:-4], 3),
        lambda x: x[4:].__setitem__((None, x[:-4]), 3),
        lambda x: x[4:].__setitem__(x[:4], x[:4] * 0 + val[0]),
        lambda x: x.reshape(3, 4)[1:].__setitem__((slice(None), x[:3]), 1),
        lambda x: x[::-1][4:].__setitem__(x[8:], 2),
    ]
    for case in cases:
        want, got = h.copy(), np.asarray(h)
        case(want)
        case(got)
        assert_same(got, want)


def test_setitem_bool_index_overlapping_destination():
    # NumPy's gh-26844 with a boolean mask of the destination's own memory
    h = RNG.random(9) > 0.5
    for sl in (slice(1, None), slice(None, -1)):
        want, got = h.copy(), np.asarray(h)
        other = slice(None, -1) if sl.start else slice(1, None)
        want[sl][want[other]] = False
        got[sl][got[other]] = False
        assert_same(got, want)


# --- NumPy's limits on the number of index arrays -------------------------------------------
@pytest.mark.parametrize("ndim, num, index", [(1, 64, True), (1, 64, False), (1, 80, True),
                                              (64, 64, "array"), (2, 65, "array")])
def test_too_many_index_arrays(ndim, num, index):
    def idx(xp):
        return (xp.array([0]) if index == "array" else index,) * num

    raises_like(lambda: numpy.ones((1,) * ndim)[idx(numpy)],
                lambda: np.ones((1,) * ndim)[idx(np)])

    def assign(xp):
        xp.ones((1,) * ndim)[idx(xp)] = 1.0
    raises_like(lambda: assign(numpy), lambda: assign(np))


# --- the result's memory order --------------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES)
def test_fancy_result_keeps_index_order(dt):
    # with no subspace, NumPy's result follows the index arrays' (F) order
    h = random_array((12, 1), dt, RNG)
    f = numpy.asfortranarray(RNG.integers(-12, 12, (3, 4)))
    f3 = numpy.asfortranarray(RNG.integers(0, 12, (2, 3, 2)))
    # (array, index) from (array, F index, C index, F 3-d index)
    cases = [lambda a, f, c, f3: (a[:, 0], f), lambda a, f, c, f3: (a[:, 0], f[::-1, ::2]),
             lambda a, f, c, f3: (a, f), lambda a, f, c, f3: (a, (f, 0)),
             lambda a, f, c, f3: (a[:, 0], c), lambda a, f, c, f3: (a[:, 0], f3),
             lambda a, f, c, f3: (a.reshape(3, 4), (f % 3, f % 4)),
             lambda a, f, c, f3: (a.reshape(3, 4), (f % 3, c % 4)),
             lambda a, f, c, f3: (a.reshape(3, 4), (f % 3, 1))]
    dev = (np.asarray(h), np.asfortranarray(np.asarray(f)), np.asarray(f).copy(order="C"),
           np.asfortranarray(np.asarray(f3)))
    for case in cases:
        a, idx = case(h, f, numpy.ascontiguousarray(f), f3)
        want = a[idx]
        a, idx = case(*dev)
        got = a[idx]
        assert_same(got, want)
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.f_contiguous == want.flags.f_contiguous


# --- more than 32 dimensions (NumPy's broadcast_shapes stops at 32) -------------------------
def test_index_and_value_past_32_dims():
    shape = (3,) + (1,) * 31 + (2, 2)
    h = random_array(shape, numpy.float64, RNG)
    val = random_array((2,) + shape[1:], numpy.float64, RNG)
    want, got = h.copy(), np.asarray(h)
    want[[0, 2]] = val
    got[[0, 2]] = np.asarray(val)
    assert_same(got, want)
    ix = RNG.integers(0, 5, (1,) * 33 + (2,))
    a = random_array((5,), numpy.int32, RNG)
    assert_same(np.asarray(a)[np.asarray(ix)], a[ix])


# --- flat iterators --------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["__array__", "copy"])
def test_flatiter_signatures(name):
    assert inspect.signature(getattr(np.flatiter, name)) == \
        inspect.signature(getattr(numpy.flatiter, name))


@pytest.mark.parametrize("dt", DTYPES)
def test_flat_index_by_flatiter(dt):
    h = random_array((3, 4), dt, RNG)
    for key in (RNG.integers(0, 12, (2, 3)), numpy.array(5), numpy.array([1.0, 7.0]),
                numpy.array([], float)):
        with warnings.catch_warnings(record=True) as w_np:
            warnings.simplefilter("always")
            want = h.flat[key.flat]
        with warnings.catch_warnings(record=True) as w_gpu:
            warnings.simplefilter("always")
            got = np.asarray(h).flat[np.asarray(key).flat]
        assert_same(got, want)
        assert [type(w.message) for w in w_gpu] == [type(w.message) for w in w_np]
        want, got = h.copy(), np.asarray(h)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            want.flat[key.flat] = h.flat[0]
            got.flat[np.asarray(key).flat] = h.flat[0]
        assert_same(got, want)
    mask = numpy.arange(12) % 3 == 0
    raises_like(lambda: h.flat[mask.flat], lambda: np.asarray(h).flat[np.asarray(mask).flat])


# --- unravel_index / ravel_multi_index ------------------------------------------------------
@pytest.mark.parametrize("dims", [(2**63,), (-2**63 - 1, 2), (2**32 - 1, 2**31 + 1),
                                  (2**62, 2, 0), (0, 2**62, 2), (-2**62, 4), (2**62, -4),
                                  2**63])
def test_unravel_index_size_overflow(dims):
    raises_like(lambda: numpy.unravel_index(1, dims), lambda: np.unravel_index(1, dims))


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("dims", [(2**62, 2, 0), (0, 2, 2**62), (-2**62, 4), (2**63, 2),
                                  (2**62, 2)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_ravel_multi_index_dims_overflow(n, dims, order):
    # NumPy multiplies the dims in the order's direction, checking each step
    idx = ([0],) * n
    raises_like(lambda: numpy.ravel_multi_index(idx, dims, order=order),
                lambda: np.ravel_multi_index(idx, dims, order=order))


def test_ravel_unravel_half_max():
    half = numpy.iinfo(numpy.intp).max // 2
    for order in "CF":
        got = np.ravel_multi_index(([0, 1], [1, 0]), (half, 2), order=order)
        assert_same(got, numpy.ravel_multi_index(([0, 1], [1, 0]), (half, 2), order=order))
    got = np.unravel_index(np.asarray([5, half]), (half, 2))
    want = numpy.unravel_index([5, half], (half, 2))
    for g, w in zip(got, want):
        assert_same(g, w.astype(numpy.int64))


# --- choose ----------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", [numpy.uint8, numpy.int16, numpy.float32, numpy.complex64])
@pytest.mark.parametrize("scalar", [1000, -1, 1.5, True, 2 + 1j, 2**70])
def test_choose_python_scalars_are_weak(dt, scalar):
    idx = RNG.integers(0, 2, (2, 3))
    arr = random_array((3,), dt, RNG)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
            want = numpy.choose(idx, (scalar, arr))
    except Exception:
        raises_like(lambda: numpy.choose(idx, (scalar, arr)),
                    lambda: np.choose(np.asarray(idx), (scalar, np.asarray(arr))))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        got = np.choose(np.asarray(idx), (scalar, np.asarray(arr)))
    assert_same(got, want)


def test_choose_strong_operands():
    idx = numpy.array([0, 1, 1])
    arr = numpy.array([3, 4, 5], numpy.int8)
    for first in (numpy.int64(7), [1000], numpy.array(1000), numpy.float32(2.5)):
        dev = np.asarray(first) if isinstance(first, numpy.ndarray) else first
        assert_same(np.choose(np.asarray(idx), (dev, np.asarray(arr))),
                    numpy.choose(idx, (first, arr)))
    assert_same(np.choose(np.asarray(idx), (3, 7)), numpy.choose(idx, (3, 7)))


def test_choose_choice_limit():
    idx = numpy.zeros(3, numpy.intp)
    assert_same(np.choose(np.asarray(idx), [0] * 63), numpy.choose(idx, [0] * 63))
    raises_like(lambda: numpy.choose(idx, [0] * 64), lambda: np.choose(np.asarray(idx), [0] * 64))
    raises_like(lambda: numpy.choose(idx, numpy.zeros((64, 3))),
                lambda: np.choose(np.asarray(idx), np.zeros((64, 3))))


# --- putmask ---------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES)
def test_putmask_mask_overlapping_destination(dt):
    h = random_array((10,), dt, RNG)
    h[::3] = 0
    vals = random_array((3,), dt, RNG)
    want, got = h.copy(), np.asarray(h)
    numpy.putmask(want[1:], want[:-1], vals)
    np.putmask(got[1:], got[:-1], np.asarray(vals))
    assert_same(got, want)
    want, got = h.copy(), np.asarray(h)
    numpy.putmask(want[:-1], want[1:], want[1:])        # values overlapping too
    np.putmask(got[:-1], got[1:], got[1:])
    assert_same(got, want)


def test_putmask_first_argument_positional_only():
    raises_like(lambda: numpy.putmask(a=numpy.zeros(2), mask=[0, 1], values=[1, 2]),
                lambda: np.putmask(a=np.zeros(2), mask=[0, 1], values=[1, 2]))
    x = np.zeros(2)
    np.putmask(x, values=[-1, -2], mask=[0, 1])
    assert_same(x, numpy.array([0.0, -2.0]))


def test_testing_helpers_of_numpy_tests():
    # NumPy's test modules import these from numpy.testing
    import npgpu.testing
    assert npgpu.testing.check_support_sve is numpy.testing.check_support_sve
    assert npgpu.testing.runstring is numpy.testing.runstring
