"""Defects found by NumPy's own _core/tests/test_regression.py, each checked against NumPy:
arange's length for an underflowing quotient or an infinite step and its size error for
integers past 64 bits; reshape's strides (a plain view for the same shape, NumPy's strides for
the new shape's leftover 1-dims); logspace with a scalar base keeps the dtype of start and stop;
copy.copy/deepcopy keep the memory layout."""
import copy

import numpy
import pytest

import npgpu as np
from conftest import assert_matches, assert_same, raises_like, random_array

# ---- arange ------------------------------------------------------------------------------------
_TINY = numpy.finfo(numpy.float64)


@pytest.mark.parametrize("args", [
    (0, 1, numpy.inf), (0, 1, -numpy.inf), (0, -1, numpy.inf), (0, -1, -numpy.inf),
    (1, 1, numpy.inf), (0.5, 7.25, numpy.inf), (-3, 2.5, -numpy.inf),
    (0, _TINY.eps, _TINY.max), (0, -5e-324, 1e300), (0, 5e-324, -1e300),
    (numpy.float32(0), numpy.float32(1e-30), numpy.float32(1e30)),
    (0, 1, 10), (0.0, 1.0, 0.3), (0, 1 + 0j, numpy.inf)])
@pytest.mark.parametrize("dtype", [None, "float32", "float16", "int64", "complex64"])
def test_arange_underflowing_length(args, dtype):
    # NumPy: a quotient (stop - start) / step that is +0.0 while stop != start gives one value
    inf_int = dtype is not None and numpy.dtype(dtype).kind in "iu" and numpy.isinf(args[2])
    if inf_int or (numpy.iscomplexobj(args[1]) and dtype is not None
                   and numpy.dtype(dtype).kind != "c"):
        try:
            want = numpy.arange(*args, dtype=dtype)
        except (TypeError, ValueError, OverflowError):
            pass        # NumPy's error (an inf step cast to an integer, a complex length)
        else:
            assert_same(np.arange(*args, dtype=dtype), want)
            return
        raises_like(lambda: numpy.arange(*args, dtype=dtype),
                    lambda: np.arange(*args, dtype=dtype))
        return
    assert_same(np.arange(*args, dtype=dtype), numpy.arange(*args, dtype=dtype))


@pytest.mark.parametrize("args", [(0, 1 + 0j, numpy.inf), (0, 2 + 0j, 1), (0j, 3),
                                  (0, 3, 1 + 0j), (0, 2 + 1j, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8"])
def test_arange_complex_arguments_real_dtype(args, dtype):
    # NumPy reads the length's quotient as a real number for a real dtype: a TypeError
    raises_like(lambda: numpy.arange(*args, dtype=dtype), lambda: np.arange(*args, dtype=dtype))


def test_arange_numpy_complex_scalar_real_dtype():
    # a NumPy complex scalar converts (real part) with NumPy's ComplexWarning
    args = (0, numpy.complex128(3 + 1j), 1)
    with pytest.warns(numpy.exceptions.ComplexWarning):
        want = numpy.arange(*args, dtype="float64")
    with pytest.warns(numpy.exceptions.ComplexWarning):
        got = np.arange(*args, dtype="float64")
    assert_same(got, want)


@pytest.mark.parametrize("args", [(2 ** 64,), (0, 2 ** 64), (-2 ** 64, 2 ** 65, 1),
                                  (0, 2 ** 70, 3)])
def test_arange_huge_python_ints(args):
    # NumPy's size error comes before the (object) dtype is looked at
    with pytest.raises(ValueError, match="^Maximum allowed size exceeded$"):
        numpy.arange(*args)
    with pytest.raises(ValueError, match="^Maximum allowed size exceeded$"):
        np.arange(*args)


def test_arange_inf_and_nan_errors_unchanged():
    for args, msg in (((0.0, numpy.inf, 1), "Maximum allowed size exceeded"),
                      ((0, numpy.nan, 1), "arange: cannot compute length")):
        with pytest.raises(ValueError, match=msg):
            numpy.arange(*args)
        with pytest.raises(ValueError, match=msg):
            np.arange(*args)


# ---- reshape strides ---------------------------------------------------------------------------
def _views(dtype, rng):
    """(device, host) views of random data: contiguous, sliced, transposed, negative, 0-d."""
    host = random_array((4, 6, 2), dtype, rng)
    dev = np.asarray(host)
    return [(dev, host), (dev[::2], host[::2]), (dev[:, ::3], host[:, ::3]),
            (dev.transpose(2, 0, 1), host.transpose(2, 0, 1)), (dev[::-1, 1:, :1],
                                                                host[::-1, 1:, :1]),
            (dev[1, ::2, 0], host[1, ::2, 0]), (dev[0, 0, 0], host[0, 0, 0]),
            (dev[:, :0], host[:, :0]), (np.asfortranarray(dev), numpy.asfortranarray(host))]


def _factor_shapes(size):
    out = [(size,), (size, 1), (1, size), (1, size, 1), (size, 1, 1)]
    for d in range(2, size):
        if size % d == 0:
            out += [(d, size // d), (d, size // d, 1), (d, 1, size // d), (1, d, 1, size // d)]
    return out


@pytest.mark.parametrize("dtype", ["int8", "int32", "float64", "complex64"])
def test_reshape_strides_match_numpy(dtype, rng):
    for d, h in _views(dtype, rng):
        for shape in _factor_shapes(h.size) + [h.shape]:
            for order in "CFA":
                want = h.reshape(shape, order=order)
                got = d.reshape(shape, order=order)
                assert_same(got, want)
                if numpy.shares_memory(want, h) or want.size == 0:
                    # a view in NumPy: the same strides here (its 1-dims' strides included)
                    if want.size:
                        assert got.strides == want.strides, (h.shape, h.strides, shape, order)
                    assert got.flags.c_contiguous == want.flags.c_contiguous
                    assert got.flags.f_contiguous == want.flags.f_contiguous


def test_reshape_trailing_ones_strides():
    # NumPy's gh-2949 case: a non-contiguous array's trailing new 1-dims
    h = numpy.zeros(12, dtype=numpy.int32)[::2]
    d = np.zeros(12, dtype=np.int32)[::2]
    for order, strides in (("C", (16, 8, 8, 8)), ("F", (8, 24, 48, 48))):
        assert d.reshape(3, 2, 1, 1, order=order).strides == strides
        assert h.reshape(3, 2, 1, 1, order=order).strides == strides


def test_reshape_same_shape_keeps_strides(rng):
    # NumPy: a reshape to the array's own shape is a plain view, its strides unchanged
    h = random_array((3, 1, 4), "float32", rng)[:, :, ::2]
    d = np.asarray(random_array((3, 1, 4), "float32", rng))[:, :, ::2]
    for order in "CFA":
        assert d.reshape(d.shape, order=order).strides == d.strides
        assert h.reshape(h.shape, order=order).strides == h.strides
    d.shape = d.shape
    assert d.strides == np.asarray(numpy.zeros((3, 1, 4), "float32"))[:, :, ::2].strides


def test_shape_setter_strides_match_numpy(rng):
    h = random_array((4, 6), "int16", rng)[::2]
    d = np.asarray(h.base)[::2]
    h2, d2 = h.view(), d.view()
    h2.shape = d2.shape = (2, 1, 6, 1)
    assert d2.strides == h2.strides
    assert_same(d2, h2)


# ---- logspace ----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("base", [10.0, 2, numpy.float32(3.0), numpy.float64(2.5), "0d"])
@pytest.mark.parametrize("out_dtype", [None, "float32", "complex64"])
def test_logspace_scalar_base_keeps_dtype(dtype, base, out_dtype, rng):
    # NumPy broadcasts only a non-scalar base; a scalar one is a scalar operand of power (a
    # Python float weak, so float16 start/stop give float16 values before the final cast)
    start = (rng.random(3) * 2).astype(dtype)
    stop = (rng.random(3) * 2 - 1).astype(dtype)
    hb, db = (numpy.asarray(2.0), np.asarray(2.0)) if base == "0d" else (base, base)
    for axis in (0, 1, -1):
        want = numpy.logspace(start, stop, num=5, base=hb, axis=axis, dtype=out_dtype)
        got = np.logspace(np.asarray(start), np.asarray(stop), num=5, base=db, axis=axis,
                          dtype=out_dtype)
        assert_matches(got, want)


def test_logspace_gh24957():
    start = np.array([0, 2], dtype=np.float16)
    stop = np.array([2, 0], dtype=np.float16)
    out = np.logspace(start, stop, num=5, axis=1, dtype=np.float32)
    want = numpy.array([[1., 3.1621094, 10., 31.625, 100.],
                        [100., 31.625, 10., 3.1621094, 1.]], dtype=numpy.float32)
    assert_same(out, want)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_logspace_array_base_unchanged(axis, rng):
    start = rng.random((2, 1)).astype(numpy.float32)
    base = numpy.array([2.0, 3.0, 5.0])
    want = numpy.logspace(start, 2, num=4, base=base, axis=axis)
    assert_matches(np.logspace(np.asarray(start), 2, num=4, base=np.asarray(base), axis=axis),
                   want)


# ---- copy.copy / copy.deepcopy -----------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "complex128"])
@pytest.mark.parametrize("func", [copy.copy, copy.deepcopy])
def test_copy_module_keeps_layout(dtype, func, rng):
    host = random_array((3, 4, 5), dtype, rng)
    dev = np.asarray(host)
    cases = [(np.asfortranarray(dev), numpy.asfortranarray(host)),
             (dev.transpose(2, 0, 1), host.transpose(2, 0, 1)),
             (dev[::-1, :, ::2], host[::-1, :, ::2]), (dev[:, 1], host[:, 1]),
             (dev[0, 0, 0], host[0, 0, 0]), (dev[:0], host[:0])]
    for d, h in cases:
        got, want = func(d), func(h)
        assert_same(got, want)
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.f_contiguous == want.flags.f_contiguous
        if want.size:
            assert got.strides == want.strides
        assert got.flags.owndata
