"""NumPy's own host objects re-exported by npgpu (npgpu/host_objects.py) and NumPy's printing of
npgpu arrays (npgpu/printing.py): the same objects as NumPy's, usable with npgpu arrays, and the
printing functions giving NumPy's text for the array's values under NumPy's print options."""
import numpy
import pytest

import npgpu as np
from npgpu import host_objects, printing


@pytest.mark.parametrize("name", host_objects.__all__)
def test_the_objects_are_numpys(name):
    assert getattr(np, name) is getattr(numpy, name)


def test_type_helpers_on_npgpu_dtypes():
    x = np.arange(6, dtype=np.float32)
    assert np.issubdtype(x.dtype, np.floating) and not np.issubdtype(x.dtype, np.integer)
    assert isinstance(x.sum().get()[()], np.inexact)
    assert np.common_type(x, np.arange(3, dtype=np.int16)) is \
        numpy.common_type(x.get(), numpy.arange(3, dtype=numpy.int16))
    assert not np.isscalar(x) and np.isscalar(3.0)
    assert np.iterable(x)


def test_index_helpers_index_npgpu_arrays():
    h = numpy.random.default_rng(0).uniform(-1, 1, (4, 5))
    g = np.asarray(h)
    for ix in (np.s_[1:3, ::2], np.index_exp[::-1], np.s_[..., 2]):
        numpy.testing.assert_array_equal(g[ix].get(), h[ix])
    got = [float(g[i].get()) for i in np.ndindex(2, 3)]
    assert got == [h[i] for i in numpy.ndindex(2, 3)]


def test_errstate_and_seterr_run_and_restore():
    x = np.asarray(numpy.array([0.0, 1.0, -1.0]))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.log(x)
    numpy.testing.assert_array_equal(r.get(), [-numpy.inf, 0.0, numpy.nan])
    old = np.seterr(all="warn")
    try:
        assert np.geterr()["divide"] == "warn"
    finally:
        np.seterr(**old)
    assert np.geterr() == old


@pytest.mark.parametrize("dt", ["f4", "f8", "i2", "c8", "?"])
def test_printing_is_numpys_text(dt):
    h = numpy.random.default_rng(1).uniform(-5, 5, (3, 4))
    h = (h > 0) if dt == "?" else (h + 1j * h if dt == "c8" else h).astype(dt)
    g = np.asarray(h)
    assert np.array2string(g, precision=3) == numpy.array2string(h, precision=3)
    assert np.array_repr(g) == numpy.array_repr(h) == repr(g)
    assert np.array_str(g[::-1, 1:]) == numpy.array_str(h[::-1, 1:]) == str(g[::-1, 1:])
    # NumPy's own functions dispatch to npgpu's for npgpu arrays
    assert numpy.array_repr(g) == numpy.array_repr(h)
    with np.printoptions(precision=2, suppress=True):
        assert repr(g) == repr(h)
        assert np.get_printoptions()["precision"] == 2
    assert np.get_printoptions()["precision"] == numpy.get_printoptions()["precision"]
    assert printing.binary_repr(5, width=8) == "00000101" and np.base_repr(255, 16) == "FF"
    assert np.format_float_positional(numpy.float32(0.1)) == "0.1"


def test_printing_errors_are_numpys():
    g = np.arange(4)
    with pytest.raises(TypeError):
        np.array2string(g, badkw=1)
