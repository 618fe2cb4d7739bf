"""npgpu.fft against numpy.fft, defects found by probing the public API from outside: the
deprecated ``None`` in ``s`` (its default taken from the array each step gets), ``axes`` that
NumPy indexes (a set, a 2-D array), and where ``s``'s deprecation warnings point."""
import warnings

import numpy as np
import pytest

import npgpu
import npgpu.fft as F
from conftest import assert_matches, raises_like


def _data(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("name, s, axes", [
    ("rfftn", (None, None), (0, 0)),         # rfft halves axis 0, then fft takes the half
    ("rfft2", (None, None), (1, -2)),
    ("rfftn", (None, 5, None), (1, 0, 1)),
    ("irfftn", [3, None], (1, -2)),          # ifft crops axis 1 to 3, irfft's n is then 4
    ("irfft2", (2, None), (0, 0)),
    ("irfftn", (2, 3, None), (0, 1, 0)),
    ("fftn", (None, 3), (1, 1)),
    ("ifftn", (None, None, 2), (1, 0, 1))])
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_none_in_s_with_repeated_axes(rng, name, s, axes, dtype):
    """A ``None`` length is the one-axis default of the array its step gets (NumPy passes
    ``n=None`` on), not of the input: they differ after a step along the same axis."""
    if name.startswith("rfft") and dtype == np.complex128:
        dtype = np.float64
    x = _data(rng, (3, 4, 6), dtype)
    with pytest.warns(DeprecationWarning, match="containing `None`"):
        want = getattr(np.fft, name)(x, s=s, axes=axes)
    with pytest.warns(DeprecationWarning, match="containing `None`"):
        got = getattr(F, name)(npgpu.asarray(x), s=s, axes=axes)
    assert_matches(got, want)


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "rfftn", "rfft2", "irfftn", "irfft2"])
def test_axes_set_refused(rng, name):
    """NumPy indexes ``axes``: a set is refused (not transformed in the set's order)."""
    x = _data(rng, (3, 4), np.float64 if name.startswith("rfft") else np.complex128)
    raises_like(lambda: getattr(np.fft, name)(x, s=(2, 3), axes={0, 1}),
                lambda: getattr(F, name)(npgpu.asarray(x), s=(2, 3), axes={0, 1}))


@pytest.mark.parametrize("name", ["fftn", "ifft2", "rfftn", "irfftn", "irfft2"])
def test_axes_2d_array(rng, name):
    """A 2-D ``axes`` without ``s``: NumPy's error (its ``None in s`` of an array length, or
    irfftn's shape lookup)."""
    x = _data(rng, (3, 4), np.float64 if name.startswith("rfft") else np.complex128)
    axes = np.array([[0, 1]])
    raises_like(lambda: getattr(np.fft, name)(x, axes=axes),
                lambda: getattr(F, name)(npgpu.asarray(x), axes=axes))


@pytest.mark.parametrize("axes", [np.array([1, 0]), range(2), (np.int8(0), np.uint16(1))])
def test_axes_sequences_still_taken(rng, axes):
    x = _data(rng, (3, 4), np.float32)
    assert_matches(F.rfftn(npgpu.asarray(x), axes=axes), np.fft.rfftn(x, axes=axes))
    assert_matches(F.irfftn(npgpu.asarray(x), s=(2, 4), axes=axes),
                   np.fft.irfftn(x, s=(2, 4), axes=axes))


def _warned_at(call):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        call()
    assert [x.category for x in w] == [DeprecationWarning]
    return w[0].filename


@pytest.mark.parametrize("name", ["rfftn", "irfftn"])
@pytest.mark.parametrize("kw", [dict(s=(2, 2)), dict(s=(2, None), axes=(0, 1))])
def test_s_warnings_point_at_the_caller(name, kw):
    """NumPy's rfftn / irfftn warn at their caller (so the default filters show the warning
    in ``__main__``); so do npgpu's, called directly or through NumPy's dispatch."""
    x = np.ones((4, 4))
    d = npgpu.asarray(x)
    assert _warned_at(lambda: getattr(np.fft, name)(x, **kw)) == __file__
    assert _warned_at(lambda: getattr(F, name)(d, **kw)) == __file__
    assert _warned_at(lambda: getattr(np.fft, name)(d, **kw)) == __file__


@pytest.mark.parametrize("name", ["fftn", "ifft2", "rfft2", "irfft2"])
def test_s_warnings_of_other_functions_stay_in_the_library(name):
    """NumPy's other n-D functions warn at a line of NumPy (hidden by the default filters)."""
    d = npgpu.asarray(np.ones((4, 4)))
    assert _warned_at(lambda: getattr(F, name)(d, s=(2, 2), axes=None)) != __file__
