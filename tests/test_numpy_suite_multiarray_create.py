"""Defects found by NumPy's own creation tests (``_core/tests/test_multiarray.py``: TestArange,
TestArrayCreationCopyArgument, TestCreation, TestAttributes), each checked against NumPy:
``arange``'s keyword ``stop``; NumPy's ``copy=`` converter (``numpy._CopyMode``, ``numpy.False_``)
in ``array``/``asarray``/``reshape``; the size and dimension limits of new arrays;
``ndarray(shape, dtype, buffer=, offset=, strides=)`` with NumPy's bounds checks."""
import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, assert_same, random_array, raises_like

RNG = numpy.random.default_rng(5150)
NEVER, IF_NEEDED, ALWAYS = numpy._CopyMode.NEVER, numpy._CopyMode.IF_NEEDED, numpy._CopyMode.ALWAYS


# --- arange: ``stop`` by keyword, NumPy's error without one -------------------------------------
@pytest.mark.parametrize("args, kwargs", [
    ((), {"stop": 7}), ((2,), {"stop": 9}), ((), {"start": 3, "stop": 11}),
    ((), {"stop": 10, "step": 3}), ((), {"start": 9, "stop": 1, "step": -2}),
    ((), {"stop": 5.5, "dtype": numpy.float32}), ((1,), {"stop": 4, "dtype": numpy.complex64}),
    ((5, None), {}), ((5, None, 2), {}), ((1, 6, None), {}), ((7,), {"dtype": numpy.int16}),
])
def test_arange_stop_keyword(args, kwargs):
    assert_same(np.arange(*args, **kwargs), numpy.arange(*args, **kwargs))


@pytest.mark.parametrize("kwargs", [{}, {"step": 3}, {"dtype": "int64"}, {"start": 4},
                                    {"start": 4, "step": 2}])
def test_arange_requires_stop(kwargs):
    raises_like(lambda: numpy.arange(**kwargs), lambda: np.arange(**kwargs))


# --- copy=: NumPy's converter (the _CopyMode enum, any truth value) ----------------------------
@pytest.mark.parametrize("never", [False, NEVER, numpy.False_, 0])
def test_copy_never_spellings(never):
    h = random_array((4, 6), numpy.float32, RNG)
    d = np.asarray(h)
    for f in (np.array, np.asarray):
        assert f(d, copy=never) is d
        raises_like(lambda: numpy.asarray(h[::2], order="C", copy=never),
                    lambda: f(d[::2], order="C", copy=never))
        raises_like(lambda: numpy.array(h, dtype=numpy.float64, copy=never),
                    lambda: f(d, dtype=numpy.float64, copy=never))
    with pytest.raises(ValueError):            # host data always copies to the device
        np.asarray(h, copy=never)
    raises_like(lambda: h.T.reshape(24, copy=never), lambda: d.T.reshape(24, copy=never))
    assert np.shares_memory(d.reshape(2, 12, copy=never), d)


# views made the same way of a host array and of its device copy
VIEWS = {
    "contiguous": lambda x: x,
    "transposed": lambda x: x.T,
    "strided": lambda x: x[::2, 1::2],
    "negative": lambda x: x[::-1, ::-1],
    "zero_d": lambda x: x[1, 2, ...],
    "empty": lambda x: x[:0],
}


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_copy_modes_match_numpy(dtype, view):
    host = random_array((4, 6), dtype, RNG)
    d, h = VIEWS[view](np.asarray(host)), VIEWS[view](host)
    wide = numpy.complex128 if h.dtype.kind == "c" else numpy.float64
    for copy in (IF_NEEDED, None, ALWAYS, True, numpy.True_):
        for order in ("K", "C", "F"):
            got, want = np.array(d, copy=copy, order=order), numpy.array(h, copy=copy,
                                                                       order=order)
            assert_same(got, want)
            assert np.shares_memory(got, d) == numpy.shares_memory(want, h)
            assert got.flags.c_contiguous == want.flags.c_contiguous
            assert got.flags.f_contiguous == want.flags.f_contiguous
        got = np.asarray(d, dtype=wide, copy=copy)
        assert_same(got, numpy.asarray(h, dtype=wide, copy=copy))
        if copy is IF_NEEDED and d.size:
            assert np.reshape(d, -1, copy=copy).size == d.size
            assert np.shares_memory(d.reshape(-1, copy=copy), d) == \
                numpy.shares_memory(h.reshape(-1, copy=copy), h)


def test_copy_mode_errors():
    d = np.arange(6)
    raises_like(lambda: numpy.array(numpy.arange(6), copy="never"),
                lambda: np.array(d, copy="never"))

    class Raises:
        def __bool__(self):
            raise ValueError("no truth value")
    with pytest.raises(ValueError, match="no truth value"):
        np.array(d, copy=Raises())
    # astype keeps NumPy's refusal of the enum
    raises_like(lambda: numpy.arange(6).astype(float, copy=NEVER),
                lambda: d.astype(float, copy=NEVER))


# --- sizes and dimensions of new arrays: NumPy's limits -----------------------------------------
@pytest.mark.parametrize("shape, dtype", [
    ((2 ** 62,), "u2"), ((2 ** 31, 2 ** 32), "u1"), ((0, 2 ** 40, 2 ** 40), "u1"),
    ((2 ** 40, 2 ** 40, 0), "f4"), ((0, 2 ** 62, 2), "u1"), ((2 ** 63,), "u1"),
    ((0, 2 ** 63), "u1"), ((3, 2 ** 64), "i8"),
])
@pytest.mark.parametrize("make", ["empty", "zeros", "ones", "full"])
def test_too_big_arrays(shape, dtype, make):
    args = (7,) if make == "full" else ()
    raises_like(lambda: getattr(numpy, make)(shape, *args, dtype=dtype),
                lambda: getattr(np, make)(shape, *args, dtype=dtype))


@pytest.mark.parametrize("shape", [(0, 2 ** 63 - 1, 1), (2 ** 62, 0), (0,), (3, 0, 5)])
def test_empty_arrays_at_the_limit(shape):
    assert_same(np.zeros(shape, numpy.uint8), numpy.zeros(shape, numpy.uint8))


def test_huge_allocation_is_a_memory_error():
    # NumPy's MemoryError; the simulator's host allocation of a size near intp's limit too
    with pytest.raises(MemoryError):
        np.empty(numpy.iinfo(numpy.intp).max, dtype=numpy.uint8)
    with pytest.raises(MemoryError):
        np.empty(2 ** 62 - 1, dtype=numpy.uint16)


# --- ndarray(shape, dtype, buffer=, offset=, strides=) ------------------------------------------
@pytest.mark.parametrize("dtype", [numpy.int8, numpy.uint16, numpy.int64, numpy.float32,
                                   numpy.complex128])
@pytest.mark.parametrize("shape, offset, strides", [
    ((4,), 4, -1), ((7,), 3, 1), ((8,), 3, 0), ((4,), 0, None), ((2, 3), 2, None),
    ((3, 2), 0, (2, 3)), ((2, 3), 9, (-3, -1)), ((0,), 10, None), ((0, 5), 0, (1, 100)),
    ((), 5, None), ((), 5, ()), ((5,), 5, None),
])
def test_ndarray_buffer_views(dtype, shape, offset, strides):
    h = random_array((10,), dtype, RNG)
    d = np.asarray(h)
    isz = h.itemsize
    st = None if strides is None else numpy.multiply(strides, isz).tolist() \
        if isinstance(strides, tuple) else strides * isz
    want = numpy.ndarray(shape, dtype, buffer=h, offset=offset * isz, strides=st)
    got = np.ndarray(shape, dtype, buffer=d, offset=offset * isz, strides=st)
    assert_same(got, want)
    assert got.strides == want.strides
    assert got.base is d and not got.flags.owndata
    if got.size:                 # a view: writes reach the buffer
        got.fill(1)
        want.fill(1)
        assert_same(d, h)


@pytest.mark.parametrize("shape, offset, strides", [
    ((4,), 4, -2), ((4,), 2, -1), ((8,), 3, 1), ((2, 3), 5, (-2, -3)), ((11,), 0, None),
    ((4,), 7, None), ((4,), 11, None), ((4,), 11, 1), ((2,), 0, (1, 1)), ((2, 2), 0, (1,)),
])
def test_ndarray_buffer_errors(shape, offset, strides):
    h, d = numpy.arange(10), np.arange(10)
    st = None if strides is None else numpy.multiply(strides, 8).tolist() \
        if isinstance(strides, tuple) else strides * 8
    raises_like(lambda: numpy.ndarray(shape, int, buffer=h, offset=offset * 8, strides=st),
                lambda: np.ndarray(shape, int, buffer=d, offset=offset * 8, strides=st))


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.int64, numpy.complex128])
def test_ndarray_buffer_size_limit(dtype):
    # zero strides reach one element of the buffer, whatever the length: up to intp's bytes
    h, d = numpy.zeros(100), np.zeros(100)
    n = numpy.iinfo(numpy.intp).max // numpy.dtype(dtype).itemsize
    got = np.ndarray((n,), dtype, buffer=d, strides=(0,))
    assert got.shape == numpy.ndarray((n,), dtype, buffer=h, strides=(0,)).shape == (n,)
    raises_like(lambda: numpy.ndarray((n + 1,), dtype, buffer=h, strides=(0,)),
                lambda: np.ndarray((n + 1,), dtype, buffer=d, strides=(0,)))


def test_ndarray_buffer_layouts():
    h, d = numpy.arange(10), np.arange(10)
    # an F-contiguous buffer is read in memory order, as NumPy's buffer protocol gives it
    got = np.ndarray((2, 5), int, buffer=d.reshape(2, 5).T)
    assert_same(got, numpy.ndarray((2, 5), int, buffer=h.reshape(2, 5).T))
    for view in (lambda x: x[::2], lambda x: x[::-1]):
        raises_like(lambda: numpy.ndarray((2,), int, buffer=view(h)),
                    lambda: np.ndarray((2,), int, buffer=view(d)))
    d.flags.writeable = False
    assert not np.ndarray((3,), int, buffer=d).flags.writeable
    with pytest.raises(ValueError, match="non-negative"):   # (NumPy reads before the buffer)
        np.ndarray((2,), int, buffer=d, offset=-8)
    with pytest.raises(TypeError, match="npgpu array"):
        np.ndarray((2,), int, buffer=h)
    with pytest.raises(ValueError, match="aligned"):        # npgpu's aligned views
        np.ndarray((2,), int, buffer=d, offset=4)


@pytest.mark.parametrize("strides", [(80,), (-8,), 16, (8, 8), (0,), (8,), 8, ()])
def test_ndarray_strides_without_buffer(strides):
    # a fresh allocation holds what the shape needs: the strides must stay in it
    def make(xp):
        return xp.ndarray((4,), numpy.float64, strides=strides)
    try:
        want = make(numpy)
    except ValueError:
        raises_like(lambda: make(numpy), lambda: make(np))
        return
    assert make(np).strides == want.strides
