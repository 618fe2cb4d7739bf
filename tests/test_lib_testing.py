"""npgpu.lib.stride_tricks (views with NumPy's layouts over device memory) and npgpu.testing
(NumPy's assertions, npgpu arrays read for them), against NumPy on random data."""
import numpy
import pytest

import npgpu as np

RNG = numpy.random.default_rng(43)


def _layouts():
    h = RNG.uniform(-5, 5, (6, 7)).astype("f4")
    g = np.asarray(h)
    return [(g, h), (g.T, h.T), (g[::2, ::-1], h[::2, ::-1]), (g[1], h[1])]


@pytest.mark.parametrize("args", [((3,), {}), ((2, 2), {}), ((3,), {"axis": 0}),
                                  ((2, 3), {"axis": (1, 0)}), ((2,), {"axis": -1})])
def test_sliding_window_view_is_numpys_view(args):
    shape, kw = args
    for g, h in _layouts():
        if len(shape) != (h.ndim if "axis" not in kw else len(numpy.atleast_1d(kw["axis"]))):
            continue
        if "axis" in kw and max(numpy.atleast_1d(kw["axis"])) >= h.ndim:
            continue
        want = numpy.lib.stride_tricks.sliding_window_view(h, shape, **kw)
        got = np.lib.stride_tricks.sliding_window_view(g, shape, **kw)
        assert got.shape == want.shape and got.strides == want.strides
        numpy.testing.assert_array_equal(got.get(), want)
        assert not got.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            got[...] = 0
        # NumPy's own function takes npgpu arrays (dispatch)
        d = numpy.lib.stride_tricks.sliding_window_view(g, shape, **kw)
        assert isinstance(d, np.ndarray) and d.shape == want.shape


def test_sliding_window_view_errors_and_writes_are_numpys():
    g = np.asarray(RNG.uniform(-5, 5, (4, 5)))
    for bad, match in [(((5, 1),), "window shape cannot be larger than input array shape"),
                       (((-1, 1),), "`window_shape` cannot contain negative values"),
                       (((2,),), "Since axis is `None`, must provide window_shape for all"),
                       (((2, 2), 0), "Must provide matching length window_shape and axis")]:
        with pytest.raises(ValueError, match=match):
            np.lib.stride_tricks.sliding_window_view(g, *bad)
    w = np.lib.stride_tricks.sliding_window_view(g, 2, axis=1, writeable=True)
    w[0, 1, 0] = 99.0                          # the same memory as g[0, 1]
    assert float(g[0, 1]) == 99.0


def test_as_strided_is_numpys_view():
    for g, h in _layouts()[:1]:
        for shape, strides in [((3, 4), (8, 4)), ((5, 2), (4, 4)), (None, None),
                               ((2, 3), (0, 4))]:
            want = numpy.lib.stride_tricks.as_strided(h, shape, strides)
            got = np.lib.stride_tricks.as_strided(g, shape, strides)
            assert got.shape == want.shape and got.strides == want.strides
            numpy.testing.assert_array_equal(got.get(), want)
    ro = np.lib.stride_tricks.as_strided(g, (3, 4), (8, 4), writeable=False)
    assert not ro.flags.writeable
    assert np.lib.NumpyVersion is numpy.lib.NumpyVersion
    assert np.lib.array_utils.normalize_axis_index(-1, 3) == 2


def test_testing_assertions_read_npgpu_arrays():
    h = RNG.uniform(-5, 5, (3, 4)).astype("f4")
    g = np.asarray(h)
    np.testing.assert_allclose(g, h)
    np.testing.assert_allclose(g * 1.00001, g, rtol=1e-4)
    np.testing.assert_array_equal(g[::-1], h[::-1])
    np.testing.assert_equal({"a": [g, 1]}, {"a": [h, 1]})
    np.testing.assert_array_less(g, g + 1)
    np.testing.assert_array_max_ulp(g, g, maxulp=0)
    np.testing.assert_almost_equal(g.sum(), h.sum(), decimal=4)
    with pytest.raises(AssertionError, match="Not equal to tolerance") as got:
        np.testing.assert_allclose(g, g + 1, err_msg="why")
    with pytest.raises(AssertionError) as want:
        numpy.testing.assert_allclose(h, h + 1, err_msg="why")
    assert str(got.value) == str(want.value)
    with pytest.raises(AssertionError):
        np.testing.assert_array_equal(g, h.astype("f8"), strict=True)
    assert np.testing.assert_raises is numpy.testing.assert_raises
    assert np.testing.suppress_warnings is numpy.testing.suppress_warnings
