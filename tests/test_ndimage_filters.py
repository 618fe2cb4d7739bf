"""npgpu.scipy.ndimage filters against scipy.ndimage: every boundary mode, odd and even sizes,
origins, 1-D to 3-D, float32/float64 and integer inputs, non-contiguous inputs, output=, and
SciPy's errors for bad input."""
import warnings

import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd
from npgpu.scipy.ndimage import _boundary

snd = pytest.importorskip("scipy.ndimage")

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror",
         "grid-wrap"]
rng = np.random.default_rng(252)


def data(shape, dtype=np.float64):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return rng.standard_normal(shape).astype(dt)
    if dt.kind == "u":
        return rng.integers(0, 100, shape).astype(dt)
    return rng.integers(-100, 100, shape).astype(dt)


def tol(dt):
    return dict(rtol=2e-5, atol=2e-5) if np.dtype(dt) == np.float32 else \
        dict(rtol=1e-11, atol=1e-11)


def check(got, want, dt=np.float64):
    assert isinstance(got, npgpu.ndarray)
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape
    if want.dtype.kind in "fc":
        part = np.dtype(want.dtype.char.lower())    # complex64 -> float32 ...
        np.testing.assert_allclose(g, want, **tol(part))
    else:
        # float sums cast to integers: a sum within rounding of an integer may truncate
        # either way, and a sum at the type's range wraps (x86's cast, as SciPy's C cast does
        # it): 255.99.. and 256.0 stored as uint8 are 255 and 0.  Weights of denominator 49
        # make a sum an exact integer one time in 49, so with random data it does happen.
        d = np.abs(g.astype(np.int64) - want.astype(np.int64))
        if want.dtype.itemsize < 8:
            span = 1 << (8 * want.dtype.itemsize)
            d = np.minimum(d, span - d)
        assert d.max(initial=0) <= 1, (g, want)


# ---- _boundary: the rendered lines, run as Python, against SciPy's own extension ------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 5])
def test_boundary_lines_match_scipy_extension(mode, n):
    src = "\n".join(["def f(i, n):", "    oob = False"]
                    + _boundary.index_lines(mode, "i", "n", "j", "    ")
                    + ["    return -1 if oob else j"])
    ns = {}
    exec(src, ns)
    x = np.arange(n, dtype=np.float64)
    K = 6 * n + 1
    for pos in range(K):
        w = np.zeros(K)
        w[pos] = 1
        # out[i] = x[i + pos - K // 2] extended by the mode (cval -1 marks "outside")
        want = snd.correlate1d(x, w, mode=mode, cval=-1)
        got = [ns["f"](i + pos - K // 2, n) for i in range(n)]
        assert list(want) == got


def test_boundary_unknown_mode():
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        _boundary.index_lines("edge", "i", "n")


# ---- correlate1d / convolve1d ---------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("axis", [0, 1])
def test_correlate1d_modes(mode, axis):
    x = data((7, 9))
    for w, origin in (([0.5, -1.0, 2.0], 0), ([1.0, 2.0, -3.0, 0.25], 1),
                      ([1.0, 2.0, -3.0, 0.25], -2), (rng.standard_normal(13), 3)):
        check(gnd.correlate1d(npgpu.asarray(x), w, axis, mode=mode, cval=0.75, origin=origin),
              snd.correlate1d(x, w, axis, mode=mode, cval=0.75, origin=origin))
        check(gnd.convolve1d(npgpu.asarray(x), w, axis, mode=mode, cval=0.75, origin=origin),
              snd.convolve1d(x, w, axis, mode=mode, cval=0.75, origin=origin))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int16, np.uint8, np.int64])
def test_correlate1d_dtypes(dt):
    x = data((6, 11), dt)
    w = [0.25, 0.5, 0.25]
    for axis in (0, 1):
        check(gnd.correlate1d(npgpu.asarray(x), w, axis), snd.correlate1d(x, w, axis))
    check(gnd.correlate1d(npgpu.asarray(x), w, output=np.float64),
          snd.correlate1d(x, w, output=np.float64))


def test_correlate1d_layouts_and_3d():
    x = data((5, 6, 7))
    w = [1.0, -2.0, 0.5, 3.0]
    for axis in (0, 1, 2):
        check(gnd.correlate1d(npgpu.asarray(x), w, axis, mode="wrap"),
              snd.correlate1d(x, w, axis, mode="wrap"))
    g = npgpu.asarray(x)
    for view, hview in ((g.transpose(2, 0, 1), x.transpose(2, 0, 1)),
                        (g[::-1, ::2, 1:], x[::-1, ::2, 1:]), (g[:, 3], x[:, 3])):
        for axis in range(hview.ndim):
            check(gnd.correlate1d(view, w, axis, mode="mirror"),
                  snd.correlate1d(hview, w, axis, mode="mirror"))
    x1 = data(17)
    check(gnd.correlate1d(npgpu.asarray(x1), w), snd.correlate1d(x1, w))
    e = np.zeros((0, 4))
    assert gnd.correlate1d(npgpu.asarray(e), w).shape == (0, 4)


def test_output_argument_and_overlap():
    x = data((6, 8))
    g = npgpu.asarray(x)
    out = npgpu.empty((6, 8), np.float32)
    r = gnd.gaussian_filter(g, 1.0, output=out)
    assert r is out
    check(out, snd.gaussian_filter(x, 1.0, output=np.float32))
    check(gnd.uniform_filter(g, 3, output="float32"), snd.uniform_filter(x, 3, output="float32"))
    g2 = npgpu.asarray(x)
    gnd.correlate1d(g2, [1.0, 2.0, 3.0], output=g2)           # in place
    check(g2, snd.correlate1d(x, [1.0, 2.0, 3.0]))
    g3 = npgpu.asarray(x)
    gnd.median_filter(g3, 3, output=g3)
    check(g3, snd.median_filter(x, 3))
    g4 = npgpu.asarray(x)
    gnd.correlate(g4, np.ones((2, 3)), output=g4)
    check(g4, snd.correlate(x, np.ones((2, 3))))
    tview = npgpu.empty((8, 6)).T                            # non-contiguous output
    gnd.gaussian_filter(g, 1.0, output=tview)
    check(tview, snd.gaussian_filter(x, 1.0))


# ---- correlate / convolve -------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_correlate_convolve_nd(mode):
    for shape, wshape in (((13,), (4,)), ((7, 8), (3, 2)), ((5, 6, 4), (3, 1, 2))):
        x = data(shape)
        w = rng.standard_normal(wshape)
        w.flat[0] = 0        # SciPy skips zero weights
        for f, sf in ((gnd.correlate, snd.correlate), (gnd.convolve, snd.convolve)):
            check(f(npgpu.asarray(x), w, mode=mode, cval=1.5),
                  sf(x, w, mode=mode, cval=1.5))
    x = data((7, 8))
    w = rng.standard_normal((3, 4))
    check(gnd.correlate(npgpu.asarray(x), w, origin=(1, -2)), snd.correlate(x, w, origin=(1, -2)))
    check(gnd.convolve(npgpu.asarray(x), w, origin=(-1, 1)), snd.convolve(x, w, origin=(-1, 1)))
    check(gnd.correlate(npgpu.asarray(x)[::-1, ::2], w), snd.correlate(x[::-1, ::2], w))
    check(gnd.correlate(npgpu.asarray(x), w[0], axes=1), snd.correlate(x, w[0], axes=1))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.int32, np.uint8])
def test_correlate_dtypes(dt):
    x = data((6, 7), dt)
    w = np.array([[1, 2, 1], [0, 1, 0], [1, 0, 1]]) / 8.0
    check(gnd.correlate(npgpu.asarray(x), w), snd.correlate(x, w))


# ---- gaussian -------------------------------------------------------------------------------
@pytest.mark.parametrize("order", [0, 1, 2, 3])
def test_gaussian_orders(order):
    x = data((9, 10))
    check(gnd.gaussian_filter1d(npgpu.asarray(x), 1.3, 0, order),
          snd.gaussian_filter1d(x, 1.3, 0, order))
    check(gnd.gaussian_filter(npgpu.asarray(x), [1.0, 0.7], order=[order, 0], mode="nearest"),
          snd.gaussian_filter(x, [1.0, 0.7], order=[order, 0], mode="nearest"))


def test_gaussian_options():
    x = data((6, 7, 8))
    g = npgpu.asarray(x)
    check(gnd.gaussian_filter(g, 1.2, truncate=2.0), snd.gaussian_filter(x, 1.2, truncate=2.0))
    check(gnd.gaussian_filter(g, 2.0, radius=[1, 2, 3]),
          snd.gaussian_filter(x, 2.0, radius=[1, 2, 3]))
    check(gnd.gaussian_filter(g, [0.8, 0, 1.5], mode=["wrap", "constant", "mirror"], cval=2.0),
          snd.gaussian_filter(x, [0.8, 0, 1.5], mode=["wrap", "constant", "mirror"], cval=2.0))
    check(gnd.gaussian_filter(g, 1.0, axes=(0, 2)), snd.gaussian_filter(x, 1.0, axes=(0, 2)))
    check(gnd.gaussian_filter(g, 0), snd.gaussian_filter(x, 0))
    check(gnd.gaussian_filter1d(g, 5.0, axis=1), snd.gaussian_filter1d(x, 5.0, axis=1))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.uint8, np.int16])
def test_gaussian_dtypes(dt):
    x = data((8, 9), dt)
    check(gnd.gaussian_filter(npgpu.asarray(x), 1.5), snd.gaussian_filter(x, 1.5))


# ---- uniform, minimum, maximum --------------------------------------------------------------
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_uniform_sizes_origins(size):
    x = data((7, 9))
    for origin in {0, -(size // 2), (size - 1) // 2}:
        check(gnd.uniform_filter(npgpu.asarray(x), size, origin=origin),
              snd.uniform_filter(x, size, origin=origin))
        check(gnd.uniform_filter1d(npgpu.asarray(x), size, 0, mode="constant", cval=1.0,
                                   origin=origin),
              snd.uniform_filter1d(x, size, 0, mode="constant", cval=1.0, origin=origin))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int16, np.uint8])
def test_uniform_min_max_dtypes(dt):
    x = data((7, 10), dt)
    g = npgpu.asarray(x)
    check(gnd.uniform_filter(g, 5), snd.uniform_filter(x, 5))
    check(gnd.minimum_filter(g, (3, 4)), snd.minimum_filter(x, (3, 4)))
    check(gnd.maximum_filter1d(g, 4, 0, mode="wrap"), snd.maximum_filter1d(x, 4, 0, mode="wrap"))


@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_min_max_modes_and_footprints(mode):
    x = data((8, 9))
    g = npgpu.asarray(x)
    check(gnd.minimum_filter1d(g, 3, 1, mode=mode, cval=-0.5),
          snd.minimum_filter1d(x, 3, 1, mode=mode, cval=-0.5))
    check(gnd.maximum_filter(g, size=(2, 5), mode=mode, cval=0.5, origin=(0, 1)),
          snd.maximum_filter(x, size=(2, 5), mode=mode, cval=0.5, origin=(0, 1)))
    fp = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 1]], bool)
    check(gnd.minimum_filter(g, footprint=fp, mode=mode, cval=0.25),
          snd.minimum_filter(x, footprint=fp, mode=mode, cval=0.25))
    check(gnd.maximum_filter(g, footprint=fp, mode=mode, cval=0.25, origin=-1),
          snd.maximum_filter(x, footprint=fp, mode=mode, cval=0.25, origin=-1))


def test_min_max_3d_axes():
    x = data((5, 6, 7))
    g = npgpu.asarray(x)
    check(gnd.maximum_filter(g, 3, mode=["wrap", "reflect", "nearest"]),
          snd.maximum_filter(x, 3, mode=["wrap", "reflect", "nearest"]))
    check(gnd.minimum_filter(g, 3, axes=(1, 2)), snd.minimum_filter(x, 3, axes=(1, 2)))
    fp = rng.random((2, 3, 2)) > 0.4
    fp[0, 0, 0] = True
    fp[1, 2, 1] = False
    check(gnd.minimum_filter(g[:, ::-1], footprint=fp),
          snd.minimum_filter(x[:, ::-1], footprint=fp))


# ---- the line pass: whole and partial tap chunks, edge windows, staged and direct rows -------
# (the simulator's line pass loads 3 taps a chunk, stages windows of up to 7 taps: sizes 1, 2,
# 5 and 8 and 13 run one, two, three and five chunks, staged and direct rows)
def _line_filter(mod, op, x, K, axis, **kw):
    if op == "corr":
        w = np.linspace(-1.0, 2.0, K) ** 2 - 0.5
        return mod.correlate1d(x, w, axis, **kw)
    f = {"mean": mod.uniform_filter1d, "min": mod.minimum_filter1d,
         "max": mod.maximum_filter1d}[op]
    return f(x, K, axis, **kw)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op", ["corr", "mean", "min", "max"])
def test_line_pass_windows_modes_origins(op, mode):
    x = data((23, 21))
    g = npgpu.asarray(x)
    for i, K in enumerate((1, 2, 5, 8, 13)):
        origin = (0, -(K // 2), (K - 1) // 2)[i % 3]
        for axis in (0, 1):
            kw = dict(mode=mode, cval=-0.75, origin=origin)
            check(_line_filter(gnd, op, g, K, axis, **kw),
                  _line_filter(snd, op, x, K, axis, **kw))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.int16, np.uint8])
@pytest.mark.parametrize("op", ["corr", "mean", "max"])
def test_line_pass_dtypes(op, dt):
    x = data((19, 22), dt)
    g = npgpu.asarray(x)
    for axis, K in ((0, 8), (1, 5), (1, 13)):
        check(_line_filter(gnd, op, g, K, axis, mode="reflect"),
              _line_filter(snd, op, x, K, axis, mode="reflect"))


def test_line_pass_3d_and_views():
    x = data((6, 17, 15))
    g = npgpu.asarray(x)
    for op, K in (("corr", 7), ("min", 8)):
        for axis in (0, 1, 2):
            check(_line_filter(gnd, op, g, K, axis, mode="mirror"),
                  _line_filter(snd, op, x, K, axis, mode="mirror"))
        for view, hview in ((g[::-1, 1:, ::2], x[::-1, 1:, ::2]), (g.transpose(2, 1, 0),
                                                                    x.transpose(2, 1, 0))):
            for axis in (0, 2):
                check(_line_filter(gnd, op, view, K, axis, mode="nearest"),
                      _line_filter(snd, op, hview, K, axis, mode="nearest"))
    # a float32 image through both passes of the separable filters
    x32 = data((20, 26), np.float32)
    g32 = npgpu.asarray(x32)
    check(gnd.gaussian_filter(g32, 2.0), snd.gaussian_filter(x32, 2.0))
    check(gnd.uniform_filter(g32, 5, mode="wrap"), snd.uniform_filter(x32, 5, mode="wrap"))


# ---- rank filters ---------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_median_modes(mode):
    x = data((9, 10))
    check(gnd.median_filter(npgpu.asarray(x), 3, mode=mode, cval=0.5),
          snd.median_filter(x, 3, mode=mode, cval=0.5))


def test_rank_percentile_footprints():
    x = data((8, 9))
    g = npgpu.asarray(x)
    check(gnd.rank_filter(g, 2, size=(2, 3)), snd.rank_filter(x, 2, size=(2, 3)))
    check(gnd.rank_filter(g, -2, size=3), snd.rank_filter(x, -2, size=3))
    check(gnd.percentile_filter(g, 30, size=(3, 2), origin=(1, 0)),
          snd.percentile_filter(x, 30, size=(3, 2), origin=(1, 0)))
    check(gnd.percentile_filter(g, -20, size=3), snd.percentile_filter(x, -20, size=3))
    fp = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]], bool)
    check(gnd.median_filter(g, footprint=fp, mode="mirror"),
          snd.median_filter(x, footprint=fp, mode="mirror"))
    # a window past the register network: selection from a local array
    check(gnd.rank_filter(g, 17, size=(4, 7), mode="wrap"),
          snd.rank_filter(x, 17, size=(4, 7), mode="wrap"))
    check(gnd.median_filter(g, 4, axes=1), snd.median_filter(x, 4, axes=1))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.int16, np.uint8])
def test_median_dtypes_ties_and_3d(dt):
    x = data((4, 5, 6), dt)
    x[1, 2] = x[1, 1]          # ties
    check(gnd.median_filter(npgpu.asarray(x), 3), snd.median_filter(x, 3))
    x1 = data(23, dt)
    check(gnd.median_filter(npgpu.asarray(x1), 5), snd.median_filter(x1, 5))


# ---- derivatives ----------------------------------------------------------------------------
def test_derivatives():
    x = data((7, 8))
    g = npgpu.asarray(x)
    for axis in (0, 1):
        check(gnd.sobel(g, axis), snd.sobel(x, axis))
        check(gnd.prewitt(g, axis, mode="constant"), snd.prewitt(x, axis, mode="constant"))
    check(gnd.laplace(g), snd.laplace(x))
    check(gnd.gaussian_laplace(g, 1.1), snd.gaussian_laplace(x, 1.1))
    check(gnd.gaussian_gradient_magnitude(g, [1.0, 0.6]),
          snd.gaussian_gradient_magnitude(x, [1.0, 0.6]))
    x3 = data((4, 5, 6), np.int16)
    check(gnd.sobel(npgpu.asarray(x3), 1), snd.sobel(x3, 1))
    x32 = data((6, 7), np.float32)
    check(gnd.laplace(npgpu.asarray(x32), axes=(1,)), snd.laplace(x32, axes=(1,)))
    check(gnd.gaussian_laplace(npgpu.asarray(x32), 1.0), snd.gaussian_laplace(x32, 1.0))


def test_complex_input_linear_filters():
    x = (data((6, 7)) + 1j * data((6, 7))).astype(np.complex64)
    g = npgpu.asarray(x)
    w = [0.5, -1.0, 2.0]
    check(gnd.correlate1d(g, w, 0, mode="constant", cval=1 + 2j),
          snd.correlate1d(x, w, 0, mode="constant", cval=1 + 2j))
    k = np.arange(4.0).reshape(2, 2)
    check(gnd.convolve(g, k), snd.convolve(x, k))
    check(gnd.gaussian_filter(g, 1.0, output=np.complex128),
          snd.gaussian_filter(x, 1.0, output=np.complex128))
    check(gnd.uniform_filter(g, 3), snd.uniform_filter(x, 3))
    check(gnd.uniform_filter1d(g, 4, 1), snd.uniform_filter1d(x, 4, 1))
    check(gnd.sobel(g, 0), snd.sobel(x, 0))
    with pytest.raises(RuntimeError, match="output must have complex dtype"):
        gnd.correlate1d(g, w, output=npgpu.empty((6, 7), np.float32))


# ---- bad input ------------------------------------------------------------------------------
def _both(call, exc, match=None):
    with pytest.raises(exc, match=match):
        call(snd, lambda a: a)
    with pytest.raises(exc, match=match):
        call(gnd, npgpu.asarray)


def test_errors():
    x = data((5, 6))
    _both(lambda m, c: m.correlate1d(c(x), [1, 2], mode="edge"), RuntimeError,
          "boundary mode not supported")
    _both(lambda m, c: m.median_filter(c(x), 3, mode="unknown"), RuntimeError,
          "boundary mode not supported")
    _both(lambda m, c: m.correlate1d(c(x), [1, 2, 3], origin=2), ValueError, "Invalid origin")
    _both(lambda m, c: m.correlate1d(c(x), []), RuntimeError, "no filter weights given")
    _both(lambda m, c: m.correlate(c(x), np.ones(3)), RuntimeError, "must match")
    _both(lambda m, c: m.correlate(c(x), np.ones((3, 3)), mode=["reflect", "wrap"]),
          RuntimeError, "A sequence of modes is not supported")
    _both(lambda m, c: m.uniform_filter1d(c(x), 0), RuntimeError, "incorrect filter size")
    _both(lambda m, c: m.uniform_filter(c(x), 3, origin=2), ValueError, "invalid origin")
    _both(lambda m, c: m.minimum_filter(c(x)), RuntimeError, "no footprint provided")
    _both(lambda m, c: m.minimum_filter(c(x), footprint=np.zeros((2, 2))), ValueError,
          "All-zero footprint")
    _both(lambda m, c: m.median_filter(c(x), footprint=np.ones((3, 3, 3))), RuntimeError,
          "must match")
    _both(lambda m, c: m.rank_filter(c(x), 9, size=3), RuntimeError, "rank not within")
    _both(lambda m, c: m.percentile_filter(c(x), 120, size=3), RuntimeError,
          "invalid percentile")
    _both(lambda m, c: m.gaussian_filter1d(c(x), 1.0, order=-1), ValueError,
          "order must be non-negative")
    _both(lambda m, c: m.gaussian_filter(c(x), 1.0, radius=-1), ValueError,
          "Radius must be a nonnegative integer")
    _both(lambda m, c: m.gaussian_filter(c(x), [1.0, 2.0, 3.0]), RuntimeError,
          "sequence argument must have length")
    _both(lambda m, c: m.uniform_filter(c(x), 3, axes=(0, 3)), ValueError, "out of range")
    _both(lambda m, c: m.uniform_filter(c(x), 3, axes=(1, 1)), ValueError, "axes must be unique")
    _both(lambda m, c: m.median_filter(c(x + 1j), 3), TypeError, "Complex type not supported")
    _both(lambda m, c: m.minimum_filter1d(c(x + 1j), 3), TypeError,
          "Complex type not supported")
    with pytest.raises(RuntimeError, match="output shape not correct"):
        snd.uniform_filter(x, 3, output=np.empty((6, 5)))
    with pytest.raises(RuntimeError, match="output shape not correct"):
        gnd.uniform_filter(npgpu.asarray(x), 3, output=npgpu.empty((6, 5)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="ignoring size"):
            gnd.median_filter(npgpu.asarray(x), size=3, footprint=np.ones((3, 3)))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_benchmark_filters_at_small_size(dt):
    # big enough for the GPU's interior paths (8 consecutive rows a thread, the staged row
    # segment of a 17-tap window), small enough for the simulator
    x = data((37, 70), dt)
    g = npgpu.asarray(x)
    check(gnd.gaussian_filter(g, 2), snd.gaussian_filter(x, 2))
    check(gnd.uniform_filter(g, 5), snd.uniform_filter(x, 5))
    check(gnd.median_filter(g, 3), snd.median_filter(x, 3))
    check(gnd.minimum_filter(g, (9, 4), mode="wrap"), snd.minimum_filter(x, (9, 4), mode="wrap"))
