"""From NumPy's _core/tests/test_mem_overlap.py: ufunc methods with axis=None on 1-D input, and
the overlap questions about other libraries' device arrays."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, tolerance

RNG = numpy.random.default_rng(5604)


@pytest.mark.parametrize("dt", [numpy.int16, numpy.float32, numpy.complex64], ids=str)
def test_accumulate_and_reduceat_axis_none_on_1d(dt):
    h = (RNG.integers(-50, 50, 17) + (1j * RNG.integers(-9, 9, 17) if dt == numpy.complex64
                                      else 0)).astype(dt)
    for view in (h, h[::-2], h[3:3]):
        g = np.asarray(view)
        assert_same(np.add.accumulate(g, axis=None), numpy.add.accumulate(view, axis=None))
        got, want = np.multiply.accumulate(g, axis=None), numpy.multiply.accumulate(view, axis=None)
        assert got.dtype == want.dtype      # products round in the scan's order
        numpy.testing.assert_allclose(got.get(), want, *tolerance(dt))
        if view.size:
            idx = [0, 4, 2, view.size - 1]
            assert_same(np.add.reduceat(g, idx, axis=None),
                        numpy.add.reduceat(view, idx, axis=None))


@pytest.mark.parametrize("method", ["accumulate", "reduceat"])
def test_axis_none_beyond_1d_is_numpys_error(method):
    h = RNG.random((3, 4))
    args = ([0, 1],) if method == "reduceat" else ()
    with pytest.raises(ValueError) as want:
        getattr(numpy.add, method)(h, *args, axis=None)
    with pytest.raises(ValueError) as got:
        getattr(np.add, method)(np.asarray(h), *args, axis=None)
    assert str(got.value) == str(want.value) == f"{method} does not allow multiple axes"


class _Foreign:
    """Another library's device array: only ``__cuda_array_interface__``."""

    def __init__(self, a):
        self.__cuda_array_interface__ = a.__cuda_array_interface__


def test_overlap_questions_read_other_libraries_device_arrays():
    x = np.arange(12.0)
    h = numpy.arange(12.0)
    for left, right in [(slice(None, None, 2), slice(1, None, 2)), (slice(2, None), slice(3, 5)),
                        (slice(0, 0), slice(None)), (slice(None, None, -1), slice(4, 6)),
                        (slice(0, 6), slice(6, None))]:
        want_exact = numpy.shares_memory(h[left], h[right])
        want_bounds = numpy.may_share_memory(h[left], h[right])
        assert np.shares_memory(_Foreign(x[left]), x[right]) == want_exact
        assert np.shares_memory(x[left], _Foreign(x[right])) == want_exact
        assert np.may_share_memory(_Foreign(x[left]), x[right]) == want_bounds
    # device memory and host memory never overlap
    assert not np.shares_memory(_Foreign(x), h)
    assert not np.may_share_memory(h, _Foreign(x))
    assert not np.shares_memory(_Foreign(x), _Foreign(np.arange(3.0)))


# ---- misaligned views: NumPy buffers them, a device load of one faults ----------------------
def _misaligned(x):
    from npgpu.lib.stride_tricks import as_strided
    v8 = x.view(numpy.uint8)
    return {
        "view at an odd byte": lambda: v8[1:1 + 2 * 8].view(numpy.int16),
        "as_strided odd stride": lambda: as_strided(x, (7,), (1,)),
        "as_strided 2-d": lambda: as_strided(x, (3, 3), (8, 3)),
        "ndarray strides": lambda: np.ndarray((3,), numpy.int32, memptr=x.data, strides=(2,)),
        "same size, wider alignment":
            lambda: x.view(numpy.float32)[1:5].view(numpy.complex64).view(numpy.float64),
    }


@pytest.mark.parametrize("case", ["view at an odd byte", "as_strided odd stride",
                                  "as_strided 2-d", "ndarray strides",
                                  "same size, wider alignment"])
def test_misaligned_views_are_refused(case):
    x = np.arange(32, dtype=numpy.int16)
    with pytest.raises(ValueError, match="would not be aligned for .* multiples of"):
        _misaligned(x)[case]()


def test_aligned_views_still_made():
    from npgpu.lib.stride_tricks import as_strided
    h = RNG.integers(-1000, 1000, 32).astype(numpy.int16)
    x = np.asarray(h)
    assert_same(x.view(numpy.uint8)[2:2 + 2 * 8].view(numpy.int16),
                h.view(numpy.uint8)[2:2 + 2 * 8].view(numpy.int16))
    # an axis of one element may carry any stride; an empty view has no element to misplace
    assert_same(as_strided(x, (1, 4), (3, 2)), numpy.lib.stride_tricks.as_strided(h, (1, 4), (3, 2)))
    assert as_strided(x, (0, 4), (3, 2)).shape == (0, 4)
    assert_same(x.view(numpy.float32)[2:6].view(numpy.float64),
                h.view(numpy.float32)[2:6].view(numpy.float64))


@pytest.mark.parametrize("dt", [numpy.int16, numpy.float32, numpy.complex128], ids=str)
def test_in_place_on_an_internally_overlapping_view_reads_a_copy(dt):
    # NumPy's test_mem_overlap: elements (0, 1) and (1, 0) share a place; in place, each place
    # gets the function of its value before the call (NumPy copies the input first)
    from npgpu.lib.stride_tricks import as_strided
    h = RNG.integers(-30000, 30000, 40).astype(dt)
    g = np.asarray(h)
    isz = h.itemsize
    for shape, strides in [((7, 5), (isz, isz)), ((4, 6), (2 * isz, isz)), ((3, 3), (0, isz))]:
        hv = numpy.lib.stride_tricks.as_strided(h.copy(), shape, strides)
        gv = as_strided(np.asarray(h), shape, strides)
        numpy.negative(hv.copy(), out=hv)           # NumPy's answer: from a copy of the input
        np.negative(gv, out=gv)
        assert_same(gv, hv)
    assert np.shares_memory(g, g)


def test_distinct_places_rule():
    from npgpu._core.copy import distinct_places
    assert distinct_places((4, 5), (20, 4), 4) and distinct_places((4, 5), (4, 16), 4)
    assert distinct_places((3, 1, 2), (-8, 999, 4), 4)
    assert not distinct_places((7, 5), (2, 2), 2)
    assert not distinct_places((2, 3), (4, 0), 4)


@pytest.mark.parametrize("strides", [None, (2,), (3,)])
def test_misaligned_foreign_device_arrays_are_refused(strides):
    x = np.arange(16, dtype=numpy.int16)
    ptr = x.__cuda_array_interface__["data"][0]
    shift = 1 if strides != (3,) else 0

    class Foreign:
        __cuda_array_interface__ = {"data": (ptr + shift, False), "shape": (4,),
                                    "typestr": "<i2", "strides": strides, "version": 3}
    with pytest.raises(ValueError, match="foreign device array would not be aligned"):
        np.asarray(Foreign())
    Foreign.__cuda_array_interface__ = dict(Foreign.__cuda_array_interface__,
                                            data=(ptr + 2, False), strides=None)
    assert_same(np.asarray(Foreign()), numpy.arange(1, 5, dtype=numpy.int16))
