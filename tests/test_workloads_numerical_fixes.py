"""Minimal reproductions of the defects the numerical workloads (test_workloads_numerical.py)
found, each against NumPy."""
import numpy
import pytest

import npgpu
from conftest import assert_matches


def test_clip_out_in_place():
    # the ufunc fast path for out= unpacked three operands as two (ValueError)
    h = numpy.array([[-2.0, 0.5, 3.0], [1.5, -0.25, 0.75]])
    for lo, hi in ((-1, 1), (numpy.zeros(3), numpy.ones(3))):
        want = h.copy()
        numpy.clip(want, lo, hi, out=want)
        got = npgpu.asarray(h)
        r = npgpu.clip(got, lo if numpy.isscalar(lo) else npgpu.asarray(lo),
                       hi if numpy.isscalar(hi) else npgpu.asarray(hi), out=got)
        assert r is got
        assert_matches(got, want)
    x = npgpu.asarray(h.astype(numpy.float32))
    x.clip(-1, 1, out=x)
    assert_matches(x, numpy.clip(h.astype(numpy.float32), -1, 1))


def test_roll_by_device_shift():
    # np.roll(x, -np.argmax(x)): the shift is a 0-d device array (NumPy reads it as an int)
    h = numpy.array([[3.0, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8]])
    x = npgpu.asarray(h)
    assert_matches(npgpu.roll(x, -npgpu.argmax(x)), numpy.roll(h, -numpy.argmax(h)))
    assert_matches(npgpu.roll(x, npgpu.asarray(1), axis=1), numpy.roll(h, 1, axis=1))
    assert_matches(npgpu.roll(x, (npgpu.asarray(1), 2), axis=(0, 1)),
                   numpy.roll(h, (1, 2), axis=(0, 1)))
    assert_matches(npgpu.roll(x, npgpu.asarray([1, -1]), axis=(1, 0)),
                   numpy.roll(h, [1, -1], axis=(1, 0)))


def test_shape_and_arange_from_device_count():
    # np.zeros(labels.max() + 1), np.arange(labels.max() + 1): a 0-d device int as the size
    lab = numpy.array([3, 1, 4, 1, 5])
    d = npgpu.asarray(lab)
    assert_matches(npgpu.zeros(d.max() + 1), numpy.zeros(lab.max() + 1))
    assert_matches(npgpu.ones(numpy.array(3), dtype=npgpu.float32),
                   numpy.ones(numpy.array(3), dtype=numpy.float32))
    assert npgpu.empty(d[0]).shape == (3,)
    assert_matches(npgpu.arange(d.max() + 1), numpy.arange(lab.max() + 1))
    assert_matches(npgpu.arange(d[1], d[4], npgpu.asarray(1.5)), numpy.arange(1, 5, 1.5))
    f = npgpu.asarray(2.5, dtype=npgpu.float32)
    assert_matches(npgpu.arange(f), numpy.arange(numpy.float32(2.5)))
    for bad in (numpy.array(3.0), npgpu.asarray(3.0)):
        with pytest.raises(TypeError) as got:
            npgpu.zeros(bad)
        with pytest.raises(TypeError) as want:
            numpy.zeros(numpy.array(3.0))
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("name, adt, odt, values", [
    ("add", "f8", "i4", [0.5, 0.6, 0.7, -0.9, 2.9]),      # NumPy: 3 (adds in float64)
    ("multiply", "f8", "i8", [1.5, 1.5]),                 # NumPy: 2
    ("add", "i4", "f4", [2 ** 24, 1, 1]),                 # NumPy: 16777218 (float64 loop)
    ("add", "i4", "f2", [60000, 60000, -60000]),          # NumPy: 60000, not inf
    ("maximum", "f8", "i8", [2.7, 1.5]),
    ("add", "f8", "?", [0.5, -0.5]),                      # NumPy: False (0.0)
    ("add", "u1", "i1", [200, 200]),
])
def test_reduce_into_out_of_another_dtype(name, adt, odt, values):
    # NumPy's loop for a reduction into out= is the ufunc's loop for (out, array), not out's
    h = numpy.asarray(values, dtype=adt)
    want = numpy.zeros((), dtype=odt)
    getattr(numpy, name).reduce(h, out=want)
    got = npgpu.zeros((), dtype=odt)
    getattr(npgpu, name).reduce(npgpu.asarray(h), out=got)
    assert_matches(got, want)


def test_sum_functions_into_integer_out():
    h = numpy.array([[0.5, 0.6, 0.7], [-0.9, 2.9, 1.7]]) + 1
    for fn in ("sum", "prod", "nansum", "mean", "max"):
        want = numpy.zeros(3, dtype=numpy.int32)
        getattr(numpy, fn)(h, axis=0, out=want)
        got = npgpu.zeros(3, dtype=npgpu.int32)
        getattr(npgpu, fn)(npgpu.asarray(h), axis=0, out=got)
        assert_matches(got, want)
    # initial= goes into out first: 1.7 into int64 starts at 1 (NumPy: [2, 1])
    h2 = numpy.array([[0.6, 0.3], [0.5, 0.5]])
    want = numpy.zeros(2, dtype=numpy.int64)
    numpy.add.reduce(h2, axis=0, out=want, initial=1.7)
    got = npgpu.zeros(2, dtype=npgpu.int64)
    npgpu.add.reduce(npgpu.asarray(h2), axis=0, out=got, initial=1.7)
    assert_matches(got, want)
    want = numpy.zeros(2, dtype=numpy.int64)
    numpy.sum(h2, axis=1, out=want, initial=1.7, where=h2 > 0.4)
    got = npgpu.zeros(2, dtype=npgpu.int64)
    npgpu.sum(npgpu.asarray(h2), axis=1, out=got, initial=1.7, where=npgpu.asarray(h2 > 0.4))
    assert_matches(got, want)


def test_around_float_decimals():
    # np.around(x, 1.5): NumPy's TypeError (npgpu truncated the decimals with int())
    h = numpy.array([1.25, -2.675, 3.5])
    x = npgpu.asarray(h)
    with pytest.raises(TypeError) as want:
        numpy.around(h, 1.5)
    with pytest.raises(TypeError) as got:
        npgpu.around(x, 1.5)
    assert str(got.value) == str(want.value)
    assert_matches(npgpu.around(x, npgpu.asarray(1)), numpy.around(h, 1))
