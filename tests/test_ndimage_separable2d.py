"""The fused separable template (``npgpu/scipy/ndimage/_separable2d.py``): a weighted filter of
the last two axes in one launch, against scipy.ndimage and against the two line passes it
replaces (bit-identical: same sums, same rounding of the intermediate to the output dtype).

The simulator's tiles are 4 x 4 outputs (and its grid y / z limit 2), so these small images
span interior, edge and partial tiles and loop over tile rows and batch images."""
import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd
from npgpu.scipy.ndimage import _filters, _separable2d

from test_ndimage_filters import MODES, check, data, rng

snd = pytest.importorskip("scipy.ndimage")


@pytest.fixture
def fused(monkeypatch):
    """Counts the fused launches (and makes sure the fused route is on)."""
    monkeypatch.setattr(_separable2d, "ROUTE", "fused")
    calls = []
    real = _separable2d.fused_pass

    def spy(*a):
        ok = real(*a)
        calls.append(ok)
        return ok
    monkeypatch.setattr(_separable2d, "fused_pass", spy)
    return calls


def both_routes(monkeypatch, f):
    """f() under the fused route and under the two passes (host arrays)."""
    out = []
    for route in ("fused", "passes"):
        monkeypatch.setattr(_separable2d, "ROUTE", route)
        out.append(f().get())
    return out


@pytest.mark.parametrize("mode", MODES)
def test_gaussian_modes(fused, mode):
    x = data((11, 13))
    for dt in (np.float64, np.float32):
        xd = x.astype(dt)
        check(gnd.gaussian_filter(npgpu.asarray(xd), (0.5, 1.0), mode=mode, cval=1.25),
              snd.gaussian_filter(xd, (0.5, 1.0), mode=mode, cval=1.25))
    assert fused == [True, True]


@pytest.mark.parametrize("modes", [("reflect", "constant"), ("constant", "wrap"),
                                   ("nearest", "mirror"), ("grid-wrap", "grid-constant")])
def test_per_axis_modes(fused, modes):
    x = data((9, 10), np.float32)
    check(gnd.gaussian_filter(npgpu.asarray(x), 1.0, mode=modes, cval=-2.5),
          snd.gaussian_filter(x, 1.0, mode=modes, cval=-2.5))
    assert fused == [True]


@pytest.mark.parametrize("origins", [(0, 0), (-2, 1), (2, -4), (1, 3)])
@pytest.mark.parametrize("modes", [("reflect", "constant"), ("wrap", "nearest")])
def test_origins(fused, origins, modes):
    # the public separable filters pass origin 0; the plan carries any origin (two
    # correlate1d calls are the reference)
    x = data((10, 9))
    w0, w1 = rng.standard_normal(5), rng.standard_normal(9)
    plan = [(0, w0, origins[0], modes[0]), (1, w1, origins[1], modes[1])]
    got = _filters._passes("corr", npgpu.asarray(x), npgpu.empty(x.shape, x.dtype), plan, 0.75)
    want = snd.correlate1d(x, w0, 0, mode=modes[0], cval=0.75, origin=origins[0])
    want = snd.correlate1d(want, w1, 1, mode=modes[1], cval=0.75, origin=origins[1])
    check(got, want)
    assert fused == [True]


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int16, np.uint8, np.int64])
@pytest.mark.parametrize("out", [None, np.float32, np.float64, np.uint8, np.int32])
def test_dtypes(fused, dt, out):
    x = data((7, 9), dt)
    if out is not None and np.dtype(out).kind == "u":
        x = np.abs(x)       # a negative sum cast to an unsigned output is undefined (see below)
    check(gnd.gaussian_filter(npgpu.asarray(x), 1.0, output=out, mode="constant", cval=3.5),
          snd.gaussian_filter(x, 1.0, output=out, mode="constant", cval=3.5))
    assert fused == [True]


def test_bool_input(fused):
    # (a bool output is left out: both routes cast a sum to bool as NumPy does, != 0, where
    # SciPy's C cast truncates first)
    x = rng.random((7, 9)) < 0.5
    for out in (np.float32, np.float64, np.uint8):
        check(gnd.gaussian_filter(npgpu.asarray(x), 1.0, output=out),
              snd.gaussian_filter(x, 1.0, output=out))
    assert fused == [True] * 3


@pytest.mark.parametrize("dt,out", [(np.float32, None), (np.float64, np.float32),
                                    (np.uint8, None), (np.float32, np.int16)])
def test_same_as_two_passes(monkeypatch, dt, out):
    # the intermediate rounds to the output dtype where SciPy's (and the passes') does
    x = data((3, 10, 11), dt) * (40 if np.dtype(dt).kind == "f" else 1)
    a, b = both_routes(monkeypatch, lambda: gnd.gaussian_filter(
        npgpu.asarray(x), (0.7, 1.1), output=out, mode=("mirror", "constant"), cval=7.0,
        axes=(1, 2)))
    np.testing.assert_array_equal(a, b)


def test_sigma_sequences_and_fallbacks(fused):
    x = data((12, 10), np.float32)
    g = npgpu.asarray(x)
    # one pass only (sigma 0 on an axis): no fused launch
    check(gnd.gaussian_filter(g, (0, 1.0)), snd.gaussian_filter(x, (0, 1.0)))
    check(gnd.gaussian_filter(g, (1.0, 0)), snd.gaussian_filter(x, (1.0, 0)))
    assert fused == []
    # a window longer than MAX_TAPS: the two line passes
    big = (_separable2d.MAX_TAPS + 1) / 8.0
    check(gnd.gaussian_filter(g, (big, 0.5)), snd.gaussian_filter(x, (big, 0.5)))
    assert fused == []
    check(gnd.gaussian_filter(g, (0.5, 1.0), truncate=3.0),
          snd.gaussian_filter(x, (0.5, 1.0), truncate=3.0))
    check(gnd.gaussian_filter(g, 1.0, radius=(2, 4)), snd.gaussian_filter(x, 1.0, radius=(2, 4)))
    assert fused == [True, True]


@pytest.mark.parametrize("order", [(0, 1), (2, 0), (1, 1)])
def test_gaussian_orders_and_edge_filters(fused, order):
    x = data((8, 11))
    check(gnd.gaussian_filter(npgpu.asarray(x), 1.0, order=order),
          snd.gaussian_filter(x, 1.0, order=order))
    assert fused == [True]


def test_sobel_prewitt(fused):
    x = data((9, 8), np.int16)
    g = npgpu.asarray(x)
    # axis 0 first: the fused order (axis -2 then -1); axis 1 first: the passes
    for f in ("sobel", "prewitt"):
        for axis in (0, 1):
            for mode in ("reflect", "constant"):
                check(getattr(gnd, f)(g, axis, mode=mode, cval=2.0),
                      getattr(snd, f)(x, axis, mode=mode, cval=2.0))
    assert fused == [True, True, True, True]


def test_layouts(fused):
    x = data((14, 18))
    g = npgpu.asarray(x)
    views = [(slice(None, None, 2), slice(None, None, 3)),
             (slice(None, None, -1), slice(1, None, 2)), (slice(2, 9), slice(None, None, -1))]
    for idx in views:
        check(gnd.gaussian_filter(g[idx], (1.0, 0.5)), snd.gaussian_filter(x[idx], (1.0, 0.5)))
    assert fused == [True] * 3


def test_transposed_view(fused):
    x = data((9, 12), np.float32)
    check(gnd.gaussian_filter(npgpu.asarray(x).T, 1.0), snd.gaussian_filter(x.T, 1.0))
    assert fused == [True]


def test_stacks_and_leading_axes(fused):
    x = data((5, 11, 9), np.float32)
    g = npgpu.asarray(x)
    # a batch of images (more than the simulator's grid z: the batch loop)
    check(gnd.gaussian_filter(g, (1.0, 0.5), axes=(1, 2)),
          snd.gaussian_filter(x, (1.0, 0.5), axes=(1, 2)))
    check(gnd.gaussian_filter(g[::-2, :, ::2], 1.0, axes=(-2, -1)),
          snd.gaussian_filter(x[::-2, :, ::2], 1.0, axes=(-2, -1)))
    assert fused == [True, True]
    # three filtered axes: a line pass along axis 0, then the last two fused (its input the
    # intermediate in the output dtype); sobel's derivative axis comes first
    check(gnd.gaussian_filter(g, 0.5), snd.gaussian_filter(x, 0.5))
    # a uint8 output of non-negative sums: a negative float cast to uint8 is undefined (C and
    # NumPy wrap on x86, the GPU's conversion saturates to 0), so the data stay in range
    u = np.abs(x) * 40
    check(gnd.gaussian_filter(npgpu.asarray(u), (0.5, 1.0, 0.7), output=np.uint8,
                              mode=("wrap", "reflect", "constant")),
          snd.gaussian_filter(u, (0.5, 1.0, 0.7), output=np.uint8,
                              mode=("wrap", "reflect", "constant")))
    check(gnd.sobel(g, 0, mode="nearest"), snd.sobel(x, 0, mode="nearest"))
    assert fused == [True] * 5
    # the last two passes not along the last two axes: the passes
    check(gnd.gaussian_filter(g, 1.0, axes=(0, 1)), snd.gaussian_filter(x, 1.0, axes=(0, 1)))
    check(gnd.sobel(g, 2), snd.sobel(x, 2))
    check(gnd.gaussian_filter(g, 1.0, axes=(2, 1)), snd.gaussian_filter(x, 1.0, axes=(2, 1)))
    assert fused == [True] * 5
    # 4-D: leading axes that collapse (fused), and ones that do not (the passes)
    y = data((2, 3, 6, 7))
    gy = npgpu.asarray(y)
    check(gnd.gaussian_filter(gy, 1.0, axes=(2, 3)), snd.gaussian_filter(y, 1.0, axes=(2, 3)))
    check(gnd.gaussian_filter(gy[:, ::2], 1.0, axes=(2, 3), output=np.float32),
          snd.gaussian_filter(y[:, ::2], 1.0, axes=(2, 3), output=np.float32))
    assert fused[5:] == [True, False]


def test_small_and_empty(fused):
    for shape in [(1, 1), (1, 7), (6, 1), (2, 3)]:
        x = data(shape, np.float32)
        for mode in ("mirror", "reflect", "wrap", "constant"):
            check(gnd.gaussian_filter(npgpu.asarray(x), 1.0, mode=mode),
                  snd.gaussian_filter(x, 1.0, mode=mode))
    for shape in [(0, 5), (4, 0), (0, 3, 4)]:
        x = data(shape, np.float32)
        check(gnd.gaussian_filter(npgpu.asarray(x), 1.0), snd.gaussian_filter(x, 1.0))


def test_output_argument_and_in_place(fused):
    x = data((10, 9))
    want = snd.gaussian_filter(x, 1.0, mode="nearest")
    g = npgpu.asarray(x)
    out = npgpu.empty((10, 9), np.float64)
    assert gnd.gaussian_filter(g, 1.0, output=out, mode="nearest") is out
    check(out, want)
    # output is the input: SciPy's result, through a temporary
    assert gnd.gaussian_filter(g, 1.0, output=g, mode="nearest") is g
    check(g, want)
    # a non-contiguous output view
    big = npgpu.zeros((10, 18), np.float32)
    gnd.gaussian_filter(npgpu.asarray(x), 1.0, output=big[:, ::2], mode="nearest")
    check(big[:, ::2], want.astype(np.float32))
    assert not big[:, 1::2].get().any()
    assert fused == [True, True, True]


def test_complex_input(fused):
    x = data((7, 8)) + 1j * data((7, 8))
    check(gnd.gaussian_filter(npgpu.asarray(x), 1.0, mode="constant", cval=1 + 2j),
          snd.gaussian_filter(x, 1.0, mode="constant", cval=1 + 2j))
    assert fused == [True, True]
