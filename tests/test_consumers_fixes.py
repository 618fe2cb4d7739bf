"""Minimal reproductions of defects found running scikit-learn and SciPy on npgpu arrays
(tests/test_consumers_sklearn.py, tests/test_consumers_scipy_array_api.py), without either."""
import numpy as np
import pytest

import npgpu


@pytest.mark.parametrize("shape", [(np.int64(2), np.int64(3)), np.array([2, 3]),
                                   (np.int32(2), 3)])
def test_broadcast_to_shape_of_numpy_integers(shape):
    # scipy.stats computes broadcast shapes with NumPy (np.int64 entries); they leaked into
    # .shape and concatenate's copy then passed a NumPy integer to ctypes.memmove
    a = npgpu.arange(3.0)
    b = npgpu.broadcast_to(a, shape)
    assert b.shape == (2, 3)
    assert all(type(n) is int for n in b.shape)
    assert all(type(n) is int for n in b.strides)
    c = npgpu.concat([b, b], axis=0)
    assert c.shape == (4, 3)
    npgpu.testing.assert_array_equal(c, np.broadcast_to(np.arange(3.0), (4, 3)))


def test_broadcast_to_scalar_numpy_integer():
    b = npgpu.broadcast_to(npgpu.asarray(1.5), np.int64(4))
    assert b.shape == (4,) and type(b.shape[0]) is int
    npgpu.testing.assert_array_equal(b, np.full(4, 1.5))


def test_broadcast_to_errors_unchanged():
    a = npgpu.arange(3.0)
    with pytest.raises(TypeError):
        npgpu.broadcast_to(a, (2.0, 3))
    with pytest.raises(ValueError):
        npgpu.broadcast_to(a, (np.int64(2), np.int64(4)))


def test_from_dlpack_host_producer_with_device():
    # the standard: device= with copy=None copies where the move needs it (scikit-learn's
    # move_to calls xp.from_dlpack(numpy_array, device=x.device)); on the GPU a host producer
    # was refused unless copy=True.  Without device= it still is (no implicit transfer).
    h = np.arange(6.0).reshape(2, 3)
    dev = npgpu.asarray(h).device
    for d in (dev, dev.id):
        g = npgpu.from_dlpack(h, device=d)
        assert isinstance(g, npgpu.ndarray) and g.device == dev
        npgpu.testing.assert_array_equal(g, h)
    if npgpu.backend() == "cuda":
        with pytest.raises(BufferError):
            npgpu.from_dlpack(h)
        with pytest.raises(BufferError):
            npgpu.from_dlpack(h, device=dev, copy=False)


def test_scipy_special_ufuncs_run_npgpus_on_npgpu_arrays():
    """``scipy.special.erf(x)`` of an npgpu array reaches ``__array_ufunc__`` with SciPy's ufunc:
    npgpu's own runs (methods too); a SciPy ufunc npgpu lacks gives NumPy's TypeError."""
    ss = pytest.importorskip("scipy.special")
    import inspect
    h = np.linspace(0.1, 3.0, 9, dtype=np.float32)
    x = npgpu.asarray(h)
    for name in ("erf", "gammaln", "expit", "i0e", "digamma", "erfcx"):
        f = getattr(ss, name)
        f = f if isinstance(f, np.ufunc) else inspect.unwrap(f)   # SCIPY_ARRAY_API=1
        r = f(x)
        assert isinstance(r, npgpu.ndarray) and r.dtype == f(h).dtype
        np.testing.assert_allclose(r.get(), f(h), rtol=2e-6)
    xlogy = ss.xlogy if isinstance(ss.xlogy, np.ufunc) else inspect.unwrap(ss.xlogy)
    o = npgpu.empty_like(x)
    xlogy(x, x, out=o)
    np.testing.assert_allclose(o.get(), xlogy(h, h), rtol=2e-6)
    np.testing.assert_allclose(float(xlogy.reduce(x)), xlogy.reduce(h), rtol=1e-5)
    ellipk = ss.ellipk if isinstance(ss.ellipk, np.ufunc) else inspect.unwrap(ss.ellipk)
    with pytest.raises(TypeError, match="__array_ufunc__"):
        ellipk(x)
    assert npgpu.special is npgpu.scipy.special
