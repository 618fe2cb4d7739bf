"""Plan replay of the ndimage interpolation entry points (zoom, shift, affine_transform,
rotate): a repeat call with the same layout replays a cached plan, so every argument that
changes between calls (data, output=, cval, mode, zoom, shift, matrix, angle, prefilter, the
input's strides) must still give SciPy's result -- a stale plan must never be used."""
import warnings

import numpy as np
import pytest

import npgpu
import npgpu.scipy.ndimage as gn
from npgpu.scipy.ndimage import _interpolation as _interp

nd = pytest.importorskip("scipy.ndimage")

rng = np.random.default_rng(4077)
TOL = dict(rtol=1e-10, atol=1e-10)


def check(got, want, **kw):
    assert isinstance(got, npgpu.ndarray)
    got = got.get()
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape,
                                                                 want.dtype, want.shape)
    np.testing.assert_allclose(got, want, **(kw or TOL))


def same_layout_calls(fn, host_fn, hosts, **kw):
    """``fn`` on each host array's device copy (one layout: the later calls replay)."""
    for h in hosts:
        check(fn(npgpu.asarray(h), **kw), host_fn(h, **kw))


@pytest.fixture(autouse=True)
def fresh_plans():
    _interp._plans.clear()
    yield
    _interp._plans.clear()


def test_zoom_repeat_changed_data():
    hosts = [rng.random((7, 9)) for _ in range(3)]
    same_layout_calls(gn.zoom, nd.zoom, hosts, zoom=2, order=1)
    assert len(_interp._plans) == 1         # the later calls found the first call's plan


def test_zoom_repeat_changed_zoom_and_grid_mode():
    h = rng.random((6, 8))
    x = npgpu.asarray(h)
    for z in (2, 2.0, 1.5, (2, 0.5), [1.5, 3], 2, np.float64(1.5)):
        for grid in (False, True):
            check(gn.zoom(x, z, order=1, mode="nearest", grid_mode=grid),
                  nd.zoom(h, z, order=1, mode="nearest", grid_mode=grid))


def test_zoom_repeat_changed_cval_and_mode():
    h = rng.random((5, 7))
    x = npgpu.asarray(h)
    for mode in ("constant", "grid-constant", "constant", "wrap", "grid-wrap", "constant"):
        for cval in (0.0, -2.5, 3, -0.0, 0.0):
            want = nd.zoom(h, 1.7, order=1, mode=mode, cval=cval, grid_mode=mode.startswith("g"))
            got = gn.zoom(x, 1.7, order=1, mode=mode, cval=cval, grid_mode=mode.startswith("g"))
            check(got, want)
            assert np.array_equal(np.signbit(got.get()), np.signbit(want))


def test_zoom_repeat_changed_output():
    h = rng.random((6, 6)).astype(np.float32)
    x = npgpu.asarray(h)
    for output in (None, np.float64, "float32", np.dtype(np.int16), None, np.float64):
        want = nd.zoom(h * 100, 1.5, output=output, order=1)
        got = gn.zoom(x * 100, 1.5, output=output, order=1)
        check(got, want, rtol=2e-5, atol=2e-5)
    # output arrays: two buffers of one layout, then a strided view of another
    for _ in range(2):
        o = npgpu.empty((9, 9), np.float64)
        r = gn.zoom(x, 1.5, output=o, order=1)
        assert r is o
        check(o, nd.zoom(h, 1.5, output=np.float64, order=1))
    big = npgpu.zeros((9, 18), np.float64)
    view = big[:, ::2]
    gn.zoom(x, 1.5, output=view, order=1)
    check(view, nd.zoom(h, 1.5, output=np.float64, order=1))
    check(big[:, 1::2], np.zeros((9, 9)))
    with pytest.raises(RuntimeError, match="output shape not correct"):
        gn.zoom(x, 1.5, output=npgpu.empty((8, 9)), order=1)


def test_zoom_repeat_changed_strides_and_dtype():
    h = rng.random((8, 10))
    for x, hx in ((npgpu.asarray(h), h), (npgpu.asarray(h)[::-1, ::2], h[::-1, ::2]),
                  (npgpu.asarray(h).T, h.T), (npgpu.asarray(h), h)):
        check(gn.zoom(x, 1.5, order=1), nd.zoom(hx, 1.5, order=1))
    # one shape, different strides (and offsets)
    d = npgpu.asarray(h)
    for x, hx in ((d[:, :5], h[:, :5]), (d[:, ::2], h[:, ::2]), (d[::-1, 5:], h[::-1, 5:]),
                  (d[:, 1::2], h[:, 1::2])):
        check(gn.zoom(x, 1.5, order=1), nd.zoom(hx, 1.5, order=1))
    for dt in (np.int32, np.uint8, np.float32, np.int32):
        hd = (h * 50).astype(dt)
        check(gn.zoom(npgpu.asarray(hd), 1.5, order=1), nd.zoom(hd, 1.5, order=1),
              rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("mode", ["nearest", "grid-constant", "mirror"])
def test_zoom_repeat_prefiltered(mode):
    # orders > 1 prefilter (and pad for 'nearest' / 'grid-constant', with cval) on each call
    for cval in (0.0, 1.5):
        h = rng.random((6, 7))
        check(gn.zoom(npgpu.asarray(h), 1.5, order=3, mode=mode, cval=cval),
              nd.zoom(h, 1.5, order=3, mode=mode, cval=cval), rtol=2e-3, atol=2e-3)
    h = rng.random((6, 7))
    check(gn.zoom(npgpu.asarray(h), 1.5, order=3, mode=mode, prefilter=False),
          nd.zoom(h, 1.5, order=3, mode=mode, prefilter=False))


def test_zoom_repeat_warns_each_call():
    x = npgpu.asarray(rng.random((4, 5)))
    for _ in range(2):
        with pytest.warns(UserWarning, match="grid-constant"):
            gn.zoom(x, 2, order=1, mode="constant", grid_mode=True)


def test_zoom_repeat_errors_kept():
    x = npgpu.asarray(rng.random((4, 5)))
    gn.zoom(x, 2, order=1)
    with pytest.raises(TypeError):
        gn.zoom(x, 2, order=1, cval=1j)
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        gn.zoom(x, 2, order=1, mode=["constant"])
    with pytest.raises(RuntimeError, match="sequence argument must have length"):
        gn.zoom(x, (2, 2, 2), order=1)
    with pytest.raises(RuntimeError, match="spline order not supported"):
        gn.zoom(x, 2, order=6)


def test_shift_repeat_changed_shift_and_data():
    for s in (1.25, -0.5, (0.5, -1.5), 1.25, [0.0, -0.0]):
        h = rng.random((6, 7))
        for mode in ("constant", "reflect"):
            check(gn.shift(npgpu.asarray(h), s, order=1, mode=mode, cval=0.5),
                  nd.shift(h, s, order=1, mode=mode, cval=0.5))


def test_affine_repeat_changed_host_matrix():
    h = rng.random((6, 7))
    x = npgpu.asarray(h)
    m = np.array([[0.9, 0.2], [-0.1, 1.1]])
    for _ in range(2):
        check(gn.affine_transform(x, m, offset=0.5, order=1),
              nd.affine_transform(h, m, offset=0.5, order=1))
        m[0, 1] = -0.3                      # the same host array, changed in place
    for mat, off in (([1.5, 0.8], 0.0), ([1.5, 0.8], (0.5, -1.0)), ([[1.0, 0.1], [0.0, 1.0]], 1),
                     (np.array([[1.0, 0.0, 0.5], [0.0, 1.0, -0.5], [0, 0, 1]]), 0.0)):
        for _ in range(2):
            check(gn.affine_transform(x, mat, offset=off, order=1, output_shape=(5, 8)),
                  nd.affine_transform(h, mat, offset=off, order=1, output_shape=(5, 8)))


def test_rotate_repeat_changed_angle():
    h = rng.random((6, 9))
    x = npgpu.asarray(h)
    for angle in (30, 30.0, 45, -0.0, 0.0, 30):
        for reshape in (True, False):
            check(gn.rotate(x, angle, reshape=reshape, order=1),
                  nd.rotate(h, angle, reshape=reshape, order=1))
    h3 = rng.random((3, 5, 4))       # batched planes: the full path each call
    for _ in range(2):
        check(gn.rotate(npgpu.asarray(h3), 20, axes=(2, 1), order=1),
              nd.rotate(h3, 20, axes=(2, 1), order=1))


def test_map_coordinates_repeat_changed_coordinates():
    h = rng.random((6, 7))
    x = npgpu.asarray(h)
    for dt in (np.float64, np.float64, np.float32, np.int64):
        c = (rng.random((2, 3, 4)) * 6).astype(dt)
        for mode, cval in (("constant", 0.0), ("constant", 2.0), ("wrap", 0.0)):
            check(gn.map_coordinates(x, npgpu.asarray(c), order=1, mode=mode, cval=cval),
                  nd.map_coordinates(h, c, order=1, mode=mode, cval=cval))
    # non-contiguous coordinates (the full path copies them) and a strided input
    c = rng.random((2, 6, 4)) * 6 - 1
    for _ in range(2):
        check(gn.map_coordinates(x, npgpu.asarray(c)[:, ::2], order=1),
              nd.map_coordinates(h, c[:, ::2], order=1))
        check(gn.map_coordinates(x[:, ::2], npgpu.asarray(c[:, :3]), order=1),
              nd.map_coordinates(h[:, ::2], c[:, :3], order=1))
