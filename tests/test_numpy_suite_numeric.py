"""Defects found by NumPy's own numeric tests (``_core/tests/test_numeric.py``), each checked
against NumPy: ``flags`` equality; clip's positional/keyword bound rules; the layout of
``*_like`` results (order 'K' keeps the prototype's axis order); the signatures of
empty/zeros/ones and ``broadcast``; ``astype`` of a NumPy scalar."""
import inspect

import numpy
import pytest

import npgpu as np
from conftest import assert_same, raises_like, random_array

RNG = numpy.random.default_rng(4242)


# --- ndarray.flags compares by value --------------------------------------------------------
def _flag_layouts(xp):
    a = xp.arange(24, dtype=xp.float32).reshape(4, 6)
    ro = xp.arange(24, dtype=xp.float32).reshape(4, 6)
    ro.flags.writeable = False
    return [a, a.copy(), a.T, a[:, ::2], a[::-1], ro, a.reshape(24), a[0:1],
            xp.asarray(a.T, order="C")]


def test_flags_equality_matches_numpy():
    hs, ds = _flag_layouts(numpy), _flag_layouts(np)
    for i in range(len(hs)):
        for j in range(len(hs)):
            assert (ds[i].flags == ds[j].flags) == (hs[i].flags == hs[j].flags), (i, j)
            assert (ds[i].flags != ds[j].flags) == (hs[i].flags != hs[j].flags), (i, j)


def test_flags_compare_other_types_and_unhashable():
    d = np.ones(3)
    assert (d.flags == 1) is False
    assert d.flags.__eq__(d) is NotImplemented
    with pytest.raises(TypeError, match="unhashable"):
        hash(d.flags)


def test_clip_result_flags_equal_to_ufunc_result():
    # NumPy's clip tests compare clip's flags with minimum(maximum(...))'s
    for dt in (numpy.int16, numpy.float32, numpy.complex128):
        h = random_array((5, 3), dt, RNG)
        d = np.asarray(h)
        got = np.clip(d, h.real.min() / 2, h.real.max() / 2)
        ref = np.minimum(np.maximum(d, h.real.min() / 2), h.real.max() / 2)
        assert got.flags == ref.flags
        assert_same(got, numpy.clip(h, h.real.min() / 2, h.real.max() / 2))


# --- clip: NumPy's argument rules -----------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.clip(a, 2),
    lambda xp, a: xp.clip(a, a_max=2),
    lambda xp, a: xp.clip(a, a_min=2),
    lambda xp, a: xp.clip(a, 2, 3, max=3),
    lambda xp, a: xp.clip(a, 2, 3, min=2),
    lambda xp, a: xp.clip(a, a_min=2, min=2),
    lambda xp, a: xp.clip(a, 2, None, min=1, max=4),
])
def test_clip_bound_argument_errors(call):
    h = numpy.arange(5)
    raises_like(lambda: call(numpy, h), lambda: call(np, np.asarray(h)))


@pytest.mark.parametrize("dt", [numpy.int8, numpy.uint32, numpy.float64])
def test_clip_min_max_keywords(dt):
    h = random_array((7,), dt, RNG)
    d = np.asarray(h)
    lo, hi = dt(h.min() + 1), dt(h.max() - 1)
    assert_same(np.clip(d), numpy.clip(h))
    assert_same(np.clip(d, min=lo, max=hi), numpy.clip(h, min=lo, max=hi))
    assert_same(np.clip(d, min=None, max=hi), numpy.clip(h, min=None, max=hi))
    assert_same(np.clip(d, min=lo), numpy.clip(h, min=lo))
    assert_same(np.clip(d, None, hi), numpy.clip(h, None, hi))
    assert_same(d.clip(lo), h.clip(lo))


# --- *_like: NumPy's layout of the result ---------------------------------------------------
_VIEWS = [
    ((2, 3), lambda x: x.T.copy().T),                       # F-contiguous
    ((2, 3, 4), lambda x: x.swapaxes(0, 1)),
    ((2, 3, 4), lambda x: x.transpose(2, 0, 1)[:, ::-1]),
    ((1, 3, 1, 4), lambda x: x[:, :, :, ::2].transpose(2, 1, 0, 3)),
    ((4, 3), lambda x: x[::-1]),
    ((4, 6), lambda x: x[:, ::2]),
    ((0, 3), lambda x: x.T),
    ((), lambda x: x),
]


def _prototypes(dt):
    """(host, device) prototypes of the same values and strides."""
    for shape, view in _VIEWS:
        h = random_array(shape, dt, RNG)
        yield view(h), view(np.asarray(h))


@pytest.mark.parametrize("dt", [numpy.bool_, numpy.int16, numpy.float32, numpy.complex128])
@pytest.mark.parametrize("func", ["empty_like", "zeros_like", "ones_like", "full_like"])
def test_like_functions_layout(func, dt):
    args = (3,) if func == "full_like" else ()
    for h, d in _prototypes(dt):
        # NumPy 2.4 gives empty arrays zero strides: only their flags are compared
        assert d.strides == h.strides or h.size == 0
        for shape in (None, (5,), (3, 2), (5, 6, 7), (1, 3, 1, 2), 4, ()):
            for order in ("K", "A", "C", "F", None):
                kw = {"shape": shape, "order": order}
                want = getattr(numpy, func)(h, *args, **kw)
                got = getattr(np, func)(d, *args, **kw)
                assert got.shape == want.shape and got.dtype == want.dtype
                assert got.strides == want.strides or want.size == 0, (h.strides, shape, order)
                assert got.flags.c_contiguous == want.flags.c_contiguous
                assert got.flags.f_contiguous == want.flags.f_contiguous
                assert got.flags.owndata and got.base is None
                if func != "empty_like":
                    assert_same(got, want)


def test_like_keep_order_with_new_dtype():
    h = numpy.arange(24, dtype=numpy.int8).reshape(2, 3, 4).transpose(1, 2, 0)
    d = np.asarray(numpy.ascontiguousarray(h.transpose(2, 0, 1))).transpose(1, 2, 0)
    for dt in (numpy.float64, numpy.complex64, numpy.uint16):
        assert np.empty_like(d, dtype=dt).strides == numpy.empty_like(h, dtype=dt).strides
        assert_same(np.full_like(d, 7, dtype=dt), numpy.full_like(h, 7, dtype=dt))


# --- signatures -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["empty", "zeros", "ones", "full"])
def test_creation_signatures(name):
    ours = inspect.signature(getattr(np, name)).parameters
    theirs = inspect.signature(getattr(numpy, name)).parameters
    assert list(ours) == list(theirs)
    for p in theirs.values():
        assert ours[p.name].kind == p.kind and ours[p.name].default == p.default, p.name


def test_creation_dtype_none_is_float64():
    for f in (np.empty, np.zeros, np.ones):
        assert f((2, 3), None).dtype == numpy.float64
    assert_same(np.zeros(4, dtype=None), numpy.zeros(4, dtype=None))


def test_broadcast_signature():
    params = inspect.signature(np.broadcast).parameters
    assert list(params) == ["arrays"]
    assert params["arrays"].kind == inspect.Parameter.VAR_POSITIONAL
    reset = inspect.signature(np.broadcast.reset).parameters
    assert list(reset) == ["self"]
    assert reset["self"].kind == inspect.Parameter.POSITIONAL_ONLY
    b = np.broadcast(np.ones((2, 1)), np.ones(3))
    assert b.shape == (2, 3)
    b.reset()


# --- astype of a NumPy scalar ---------------------------------------------------------------
@pytest.mark.parametrize("value", [numpy.int64(10), numpy.float32(-2.5), numpy.bool_(True),
                                   numpy.complex64(1 - 2j), numpy.uint8(200)])
@pytest.mark.parametrize("dt", [numpy.float64, numpy.int16, numpy.complex128])
def test_astype_numpy_scalar(value, dt):
    got = np.astype(value, dt)
    want = numpy.astype(value, dt)
    assert isinstance(got, np.ndarray) and got.shape == ()
    assert_same(got, numpy.asarray(want))


def test_astype_rejects_non_arrays():
    for bad in ([1, 2], 3, numpy.arange(3)):
        with pytest.raises(TypeError, match="Input should be an npgpu array or scalar"):
            np.astype(bad, numpy.float64)


@pytest.mark.parametrize("src", ["complex64", "complex128"])
@pytest.mark.parametrize("dst", ["float32", "float64", "int8", "uint16", "bool", "complex64"])
def test_astype_complex_to_real_warns(src, dst):
    """ndarray.astype of complex into a real integer or float dtype: NumPy's ComplexWarning
    (bool and complex targets take the values silently); npgpu's own casts stay silent."""
    import warnings
    h = (numpy.random.default_rng(3).standard_normal(6) * 3
         + 1j * numpy.random.default_rng(4).standard_normal(6)).astype(src)
    d = np.asarray(h)[::-1]
    with warnings.catch_warnings(record=True) as wh:
        warnings.simplefilter("always")
        want = h[::-1].astype(dst)
    with warnings.catch_warnings(record=True) as wd:
        warnings.simplefilter("always")
        got = d.astype(dst)
    kinds = [w.category for w in wh if issubclass(w.category, numpy.exceptions.ComplexWarning)]
    assert [w.category for w in wd
            if issubclass(w.category, numpy.exceptions.ComplexWarning)] == kinds
    assert all(w.filename == __file__ for w in wd)
    numpy.testing.assert_array_equal(got.get(), want)
    with warnings.catch_warnings():
        warnings.simplefilter("error", numpy.exceptions.ComplexWarning)
        np.sort(d)
        np.abs(d)
