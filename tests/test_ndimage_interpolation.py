"""npgpu.scipy.ndimage interpolation against scipy.ndimage: map_coordinates, affine_transform,
shift, zoom, rotate, spline_filter(1d) -- every order and mode, float/integer/complex inputs,
1-D to 3-D, non-contiguous inputs, output= and SciPy's errors."""
import warnings

import numpy as np
import pytest

import npgpu
import npgpu.scipy.ndimage as gn

nd = pytest.importorskip("scipy.ndimage")
import scipy  # noqa: E402

MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap",
         "grid-wrap"]
rng = np.random.default_rng(252)
# SciPy < 1.18 starts the reflect-family prefilter from a sum that aliases its first element
# (fixed in scipy#24615); npgpu computes the fixed sum, so short lines differ there by about
# z**(2n-1) (z the pole: up to 1e-4 on 6-sample lines); long lines agree to rounding
# (test_reflect_prefilter_long_lines).
_OLD_REFLECT = tuple(int(v) for v in scipy.__version__.split(".")[:2]) < (1, 18)


def tol(mode, order, dt=np.float64):
    if _OLD_REFLECT and order > 1 and mode in ("reflect", "grid-mirror", "nearest"):
        return dict(rtol=2e-3, atol=2e-3)
    if np.dtype(dt) == np.float32:
        return dict(rtol=2e-5, atol=2e-5)
    return dict(rtol=1e-10, atol=1e-10)


def check(got, want, **kw):
    assert isinstance(got, npgpu.ndarray)
    got = got.get()
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape,
                                                                 want.dtype, want.shape)
    np.testing.assert_allclose(got, want, **(kw or dict(rtol=1e-10, atol=1e-10)))


def img(shape, dt=np.float64):
    dt = np.dtype(dt)
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -50
        return rng.integers(lo, 100, shape).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


# ---- zoom: every order x mode (the template's core) ------------------------------------------
@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("mode", MODES)
def test_zoom_orders_modes(order, mode):
    x = img((6, 7))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = nd.zoom(x, (1.7, 0.6), order=order, mode=mode, cval=0.5)
        check(gn.zoom(npgpu.asarray(x), (1.7, 0.6), order=order, mode=mode, cval=0.5), want,
              **tol(mode, order))


@pytest.mark.parametrize("mode", ["grid-constant", "grid-wrap", "reflect", "nearest"])
def test_zoom_grid_mode(mode):
    x = img((5, 6))
    want = nd.zoom(x, 2.2, order=1, mode=mode, grid_mode=True)
    check(gn.zoom(npgpu.asarray(x), 2.2, order=1, mode=mode, grid_mode=True), want)


def test_zoom_grid_mode_warns_and_identity():
    x = img((4, 5))
    with pytest.warns(UserWarning, match="grid-constant"):
        gn.zoom(npgpu.asarray(x), 2, order=0, grid_mode=True)
    check(gn.zoom(npgpu.asarray(x), 1), nd.zoom(x, 1))
    check(gn.zoom(npgpu.asarray(x), 1, order=1, prefilter=False),
          nd.zoom(x, 1, order=1, prefilter=False))


# ---- map_coordinates: 1-D to 3-D, float32 input, float32 coordinates ---------------------------
@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("order", [0, 1, 3])
def test_map_coordinates_ndim(ndim, order):
    shape = (5, 4, 6)[:ndim]
    x = img(shape, np.float32)
    coords = np.stack([rng.uniform(-2.3, s + 1.3, (3, 4)) for s in shape])
    for mode in ("constant", "nearest", "mirror", "grid-wrap"):
        want = nd.map_coordinates(x, coords, order=order, mode=mode, cval=-1.5)
        got = gn.map_coordinates(npgpu.asarray(x), npgpu.asarray(coords), order=order,
                                 mode=mode, cval=-1.5)
        check(got, want, **tol(mode, order, np.float32))


def test_map_coordinates_coordinate_dtypes_and_output():
    x = img((6, 5))
    c32 = rng.uniform(-1, 6, (2, 7)).astype(np.float32)
    check(gn.map_coordinates(npgpu.asarray(x), npgpu.asarray(c32), order=1),
          nd.map_coordinates(x, c32, order=1))
    ci = rng.integers(-1, 7, (2, 7))
    check(gn.map_coordinates(npgpu.asarray(x), ci, order=1, mode="wrap"),
          nd.map_coordinates(x, ci, order=1, mode="wrap"))
    out = npgpu.zeros((7,), np.float32)
    r = gn.map_coordinates(npgpu.asarray(x), c32, output=out, order=1)
    assert r is out
    check(out, nd.map_coordinates(x, c32, output=np.float32, order=1), rtol=1e-6, atol=1e-6)


# ---- integer inputs and outputs: SciPy's rounding ---------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.uint8, np.int16, np.int32, np.bool_])
@pytest.mark.parametrize("order", [1, 3])
def test_shift_integer_dtypes(dt, order):
    x = img((7, 6), dt) if dt is not np.bool_ else rng.random((7, 6)) > 0.5
    want = nd.shift(x, (1.3, -0.6), order=order, mode="reflect")
    check(gn.shift(npgpu.asarray(x), (1.3, -0.6), order=order, mode="reflect"), want,
          rtol=0, atol=0 if order == 1 else 1)


def test_shift_float_to_int_output_saturates():
    x = img((9,)) * 300
    for dt in (np.uint8, np.int8):
        want = nd.shift(x, 0.4, order=1, output=dt)
        check(gn.shift(npgpu.asarray(x), 0.4, order=1, output=dt), want, rtol=0, atol=0)


# ---- affine_transform: the matrix forms ------------------------------------------------------
@pytest.mark.parametrize("order", [0, 1, 3])
def test_affine_matrix_forms(order):
    x = img((6, 7))
    m = np.array([[0.9, 0.3], [-0.2, 1.1]])
    off = (0.4, -1.2)
    for mode in ("constant", "reflect", "grid-constant"):
        t = tol(mode, order)
        check(gn.affine_transform(npgpu.asarray(x), m, off, order=order, mode=mode),
              nd.affine_transform(x, m, off, order=order, mode=mode), **t)
        h = np.eye(3)
        h[:2, :2], h[:2, 2] = m, off
        check(gn.affine_transform(npgpu.asarray(x), h, order=order, mode=mode,
                                  output_shape=(5, 8)),
              nd.affine_transform(x, h, order=order, mode=mode, output_shape=(5, 8)), **t)
        check(gn.affine_transform(npgpu.asarray(x), h[:2], order=order, mode=mode),
              nd.affine_transform(x, h[:2], order=order, mode=mode), **t)
        check(gn.affine_transform(npgpu.asarray(x), [1.3, 0.7], 0.5, order=order, mode=mode),
              nd.affine_transform(x, [1.3, 0.7], 0.5, order=order, mode=mode), **t)


def test_affine_other_output_rank_and_3d():
    x = img((5, 6))
    m = np.array([[0.5], [1.2]])
    check(gn.affine_transform(npgpu.asarray(x), m, (0.3, 0.1), output_shape=(7,), order=1),
          nd.affine_transform(x, m, (0.3, 0.1), output_shape=(7,), order=1))
    x3 = img((4, 5, 3), np.float32)
    m3 = np.array([[1.0, 0.1, 0.0], [0.05, 0.9, 0.1], [0.0, 0.2, 1.1]])
    check(gn.affine_transform(npgpu.asarray(x3), m3, order=1, mode="nearest"),
          nd.affine_transform(x3, m3, order=1, mode="nearest"), rtol=2e-6, atol=2e-6)


# ---- rotate -----------------------------------------------------------------------------------
@pytest.mark.parametrize("reshape", [True, False])
def test_rotate_2d(reshape):
    x = img((6, 8))
    for order, mode in ((1, "constant"), (3, "mirror")):
        check(gn.rotate(npgpu.asarray(x), 27.0, reshape=reshape, order=order, mode=mode),
              nd.rotate(x, 27.0, reshape=reshape, order=order, mode=mode))


def test_rotate_3d_axes():
    x = img((5, 4, 6))
    for axes in ((0, 2), (2, 1), (-1, 0)):
        check(gn.rotate(npgpu.asarray(x), -33.0, axes=axes, order=1),
              nd.rotate(x, -33.0, axes=axes, order=1))
    check(gn.rotate(npgpu.asarray(x), 50.0, axes=(1, 2), order=3, mode="nearest",
                    reshape=False),
          nd.rotate(x, 50.0, axes=(1, 2), order=3, mode="nearest", reshape=False))


# ---- layouts ----------------------------------------------------------------------------------
def test_non_contiguous_and_negative_strides():
    base = img((9, 12))
    for view in (lambda a: a[::2, 1::3], lambda a: a[::-1, ::-2], lambda a: a.T):
        x = view(base)
        gx = view(npgpu.asarray(base))
        check(gn.shift(gx, (0.3, 1.6), order=1, mode="wrap"),
              nd.shift(x, (0.3, 1.6), order=1, mode="wrap"))
        check(gn.zoom(gx, 1.5, order=3, mode="mirror"), nd.zoom(x, 1.5, order=3, mode="mirror"))


def test_empty_and_complex():
    x = img((0, 4))
    check(gn.shift(npgpu.asarray(x), 1.0, order=1), nd.shift(x, 1.0, order=1))
    xc = img((5, 6), np.complex128)
    check(gn.shift(npgpu.asarray(xc), (0.5, -1.2), order=3, cval=1 + 2j),
          nd.shift(xc, (0.5, -1.2), order=3, cval=1 + 2j))
    check(gn.zoom(npgpu.asarray(xc), 1.4, order=1), nd.zoom(xc, 1.4, order=1))


# ---- spline filters ---------------------------------------------------------------------------
@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_spline_filter1d_modes(order):
    x = img((6, 14))
    for mode in MODES:
        for axis in (0, -1):
            check(gn.spline_filter1d(npgpu.asarray(x), order, axis, mode=mode),
                  nd.spline_filter1d(x, order, axis, mode=mode), **tol(mode, order))


@pytest.mark.parametrize("mode", ["reflect", "grid-mirror"])
def test_reflect_prefilter_long_lines(mode):
    x = img((40,))
    check(gn.spline_filter1d(npgpu.asarray(x), 5, mode=mode),
          nd.spline_filter1d(x, 5, mode=mode))
    c = rng.uniform(-3, 43, (1, 9))
    check(gn.map_coordinates(npgpu.asarray(x), c, order=4, mode=mode),
          nd.map_coordinates(x, c, order=4, mode=mode))


def test_spline_filter_dtypes():
    x = img((5, 6, 4), np.float32)
    check(gn.spline_filter(npgpu.asarray(x), 3, output=np.float32),
          nd.spline_filter(x, 3, output=np.float32), rtol=1e-6, atol=1e-6)
    xi = img((7, 5), np.int16)
    check(gn.spline_filter(npgpu.asarray(xi), 2, mode="grid-wrap"),
          nd.spline_filter(xi, 2, mode="grid-wrap"))
    check(gn.spline_filter1d(npgpu.asarray(xi), 1), nd.spline_filter1d(xi, 1))


@pytest.mark.parametrize("mode", ["nearest", "grid-constant", "wrap"])
def test_prefilter_false(mode):
    x = img((6, 6))
    f = nd.spline_filter(x, 3, mode=mode)
    check(gn.shift(npgpu.asarray(f), 0.7, order=3, mode=mode, prefilter=False),
          nd.shift(f, 0.7, order=3, mode=mode, prefilter=False))


# ---- bad input --------------------------------------------------------------------------------
def test_errors():
    x = npgpu.asarray(img((4, 5)))
    for order in (-1, 6):
        for fn in (lambda: gn.zoom(x, 2, order=order), lambda: gn.shift(x, 1, order=order),
                   lambda: gn.map_coordinates(x, np.zeros((2, 3)), order=order),
                   lambda: gn.affine_transform(x, np.eye(2), order=order),
                   lambda: gn.spline_filter1d(x, order), lambda: gn.spline_filter(x, order)):
            with pytest.raises(RuntimeError, match="spline order not supported"):
                fn()
    with pytest.raises(RuntimeError, match="spline order not supported"):
        gn.spline_filter(x, 1)
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        gn.shift(x, 1, order=1, mode="edge")
    with pytest.raises(RuntimeError, match="invalid shape for coordinate array"):
        gn.map_coordinates(x, np.zeros((3, 4)))
    with pytest.raises(TypeError, match="Complex type not supported"):
        gn.map_coordinates(x, np.zeros((2, 4), complex))
    with pytest.raises(RuntimeError, match="affine matrix has wrong number of rows"):
        gn.affine_transform(x, np.ones((3, 2)))
    with pytest.raises(RuntimeError, match="affine matrix has wrong number of columns"):
        gn.affine_transform(x, np.ones((2, 1)))
    with pytest.raises(ValueError, match="bottom row"):
        gn.affine_transform(x, np.ones((3, 3)))
    with pytest.raises(RuntimeError, match="sequence argument must have length"):
        gn.shift(x, (1, 2, 3))
    with pytest.raises(RuntimeError, match="output shape not correct"):
        gn.shift(x, 1, output=npgpu.zeros((3, 3)))
    with pytest.raises(RuntimeError, match="input and output rank must be > 0"):
        gn.zoom(npgpu.asarray(np.float64(1.0)), 2)
    with pytest.raises(ValueError, match="input array should be at least 2D"):
        gn.rotate(npgpu.zeros(4), 10)
    with pytest.raises(ValueError, match="invalid rotation plane"):
        gn.rotate(x, 10, axes=(0, 2))
    h = npgpu.asarray(np.zeros((4, 5), np.float16))
    with pytest.raises(RuntimeError, match="array type dtype.'float16'. not supported"):
        gn.shift(h, 1)
    with pytest.raises(RuntimeError, match="data type not supported"):
        gn.shift(h, 1, order=1)
    with pytest.raises(RuntimeError, match="data type not supported"):
        gn.shift(x, 1, order=1, output=np.complex64)
    with pytest.raises(RuntimeError, match="coordinate array data type not supported"):
        gn.map_coordinates(x, np.zeros((2, 3), np.float16), order=1)
    with pytest.raises(TypeError, match="output must be an npgpu array or a dtype"):
        gn.zoom(x, 2, output=np.zeros((8, 10)))
    with pytest.raises(RuntimeError, match="output must have complex dtype"):
        gn.shift(npgpu.asarray(img((3,), np.complex64)), 1, output=npgpu.zeros(3))


# ---- the rendered variants: mode, order, index width, layouts, outputs a thread ---------------
@pytest.mark.parametrize("order", [1, 3])
@pytest.mark.parametrize("mode", MODES)
def test_map_coordinates_every_mode(order, mode):
    # coordinates far outside (several periods), at the edges and NaN (SciPy: cval, except
    # for the modes that never test the coordinate, where NaN is undefined in SciPy)
    x = img((5, 7))
    c = rng.uniform(-13.0, 19.0, (2, 5, 6))
    c[:, 0, :3] = [[-0.5, 0.0, 4.0], [6.0, -1.0, 6.5]]
    c[:, 0, 3:] = [[1e9, -3e9, 0.2], [-1e9, 2.5e9, 5e10]]     # beyond 32-bit taps
    if mode not in ("nearest", "grid-constant"):
        c[1, 1, 1] = np.nan
    want = nd.map_coordinates(x, c, order=order, mode=mode, cval=2.5)
    check(gn.map_coordinates(npgpu.asarray(x), npgpu.asarray(c), order=order, mode=mode,
                             cval=2.5), want, **tol(mode, order))


@pytest.mark.parametrize("mode", MODES)
def test_affine_every_mode(mode):
    x = img((6, 5))
    m = np.array([[1.3, -0.4], [0.5, 0.8]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = nd.affine_transform(x, m, (-2.0, 1.5), output_shape=(7, 9), order=1, mode=mode,
                                   cval=-1.0)
    check(gn.affine_transform(npgpu.asarray(x), m, (-2.0, 1.5), output_shape=(7, 9), order=1,
                              mode=mode, cval=-1.0), want)


@pytest.mark.parametrize("order", [0, 1, 2, 3, 4, 5])
def test_zoom_wide_rows(order):
    # rows wider than a block times the outputs a thread, and a ragged last block
    x = img((3, 37))
    for zoom, mode in (((1.4, 2.3), "wrap"), ((0.7, 0.45), "mirror")):
        check(gn.zoom(npgpu.asarray(x), zoom, order=order, mode=mode),
              nd.zoom(x, zoom, order=order, mode=mode), **tol(mode, order))


@pytest.mark.parametrize("ndim", [1, 3])
def test_zoom_ndim_and_grid(ndim):
    x = img((4, 5, 6)[-ndim:], np.float32)
    for order, mode, grid in ((1, "grid-constant", True), (3, "nearest", False),
                              (0, "grid-wrap", True)):
        want = nd.zoom(x, 1.6, order=order, mode=mode, grid_mode=grid)
        check(gn.zoom(npgpu.asarray(x), 1.6, order=order, mode=mode, grid_mode=grid), want,
              **tol(mode, order, np.float32))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.int32, np.uint16, np.float64])
@pytest.mark.parametrize("out_dt", [np.float64, np.float32, np.int16])
def test_zoom_input_output_dtypes(dt, out_dt):
    x = img((5, 6), dt)
    for order in (1, 3):
        want = nd.zoom(x, (1.5, 0.8), order=order, mode="mirror", output=out_dt)
        got = gn.zoom(npgpu.asarray(x), (1.5, 0.8), order=order, mode="mirror", output=out_dt)
        if np.dtype(out_dt).kind == "i":
            check(got, want, rtol=0, atol=1)
        else:
            check(got, want, **tol("mirror", order, np.float32 if np.float32 in (dt, out_dt)
                                   else np.float64))


def test_strided_output_and_input():
    # "A"-layout variants: a transposed view as output, a stepped view as input
    base = img((10, 16))
    x = base[::2, 1::2]
    for order in (1, 3):
        want = nd.zoom(x, (1.8, 1.2), order=order, mode="wrap")
        out = npgpu.empty(want.shape[::-1]).T
        r = gn.zoom(npgpu.asarray(base)[::2, 1::2], (1.8, 1.2), output=out, order=order,
                    mode="wrap")
        assert r is out
        check(out, want)


def test_wide_index_variant(monkeypatch):
    # the 64-bit index kernels (rendered for extents >= 2**30) on small data
    from npgpu.scipy.ndimage import _interpolation
    monkeypatch.setattr(_interpolation, "_NARROW_BELOW", 0)
    x = img((6, 7))
    for order, mode in ((1, "grid-constant"), (3, "reflect"), (1, "wrap")):
        check(gn.zoom(npgpu.asarray(x), (1.5, 2.1), order=order, mode=mode),
              nd.zoom(x, (1.5, 2.1), order=order, mode=mode), **tol(mode, order))
    c = rng.uniform(-4.0, 10.0, (2, 9))
    check(gn.map_coordinates(npgpu.asarray(x), c, order=1, mode="mirror"),
          nd.map_coordinates(x, c, order=1, mode="mirror"))
