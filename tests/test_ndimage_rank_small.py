"""The small-window rank path of npgpu.scipy.ndimage (median/rank/percentile filters of at
most 27 taps: ``_rank_small.py``) against scipy.ndimage: float32/float64 (with NaN and
infinities: SciPy's quickselect result), integer and bool inputs, every mode, sizes 2-5, footprints,
origins, 1-D to 3-D, non-contiguous input, other output dtypes, in-place output; and the
selection networks against sorting on every 0/1 input (a comparator network selects the rank
of every input iff it does for 0/1 inputs)."""
import itertools

import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd
from npgpu.scipy.ndimage import _rank_small

snd = pytest.importorskip("scipy.ndimage")

MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror",
         "grid-wrap"]
rng = np.random.default_rng(2525)


def data(shape, dtype, nan=False):
    dt = np.dtype(dtype)
    if dt.kind == "f":
        x = (rng.standard_normal(shape) * 4).round(1).astype(dt)     # ties too
        if nan:
            x[rng.random(shape) < 0.15] = np.nan
            x.flat[1] = np.inf
            x.flat[-2] = -np.inf
        return x
    lo = 0 if dt.kind == "u" else -50
    return rng.integers(lo, 50, shape).astype(dt)


def same(got, want):
    assert isinstance(got, npgpu.ndarray)
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape
    np.testing.assert_array_equal(g, want)        # exact: a rank filter selects a value


@pytest.mark.parametrize("n", range(1, 11))
def test_networks_select_every_rank(n):
    for rank in range(n):
        ops, res = _rank_small.selection_ops(n, rank)
        for bits in itertools.product((0, 1), repeat=n):
            env = {f"w{i}_0": b for i, b in enumerate(bits)}
            for kind, dst, a, b in ops:
                env[dst] = min(env[a], env[b]) if kind == "min" else max(env[a], env[b])
            assert env[res] == sorted(bits)[rank], (n, rank, bits)


@pytest.mark.parametrize("n", [25, 27])
def test_large_networks_random(n):
    for rank in (1, n // 2, n - 2):
        ops, res = _rank_small.selection_ops(n, rank)
        for _ in range(50):
            v = rng.integers(0, 6, n)
            env = {f"w{i}_0": int(x) for i, x in enumerate(v)}
            for kind, dst, a, b in ops:
                env[dst] = min(env[a], env[b]) if kind == "min" else max(env[a], env[b])
            assert env[res] == np.sort(v)[rank]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_median_3x3_nan_every_mode(mode, dt):
    x = data((7, 9), dt, nan=True)
    same(gnd.median_filter(npgpu.asarray(x), 3, mode=mode, cval=0.5),
         snd.median_filter(x, 3, mode=mode, cval=0.5))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.uint8, np.int64])
def test_rank_percentile_dtypes(dt):
    x = data((6, 8), dt, nan=np.dtype(dt).kind == "f")
    g = npgpu.asarray(x)
    # rank -3 of 9 taps is rank 6, the 70th percentile's: one network (a kernel of ~3.6 s in
    # CI's PTX check) per dtype; other ranks run in the tests below
    same(gnd.rank_filter(g, -3, size=3, mode="wrap"), snd.rank_filter(x, -3, size=3, mode="wrap"))
    same(gnd.percentile_filter(g, 70, size=3, mode="constant", cval=3),
         snd.percentile_filter(x, 70, size=3, mode="constant", cval=3))


@pytest.mark.parametrize("size", [2, 4, 5])
def test_sizes_and_origins(size):
    x = data((9, 10), np.float32, nan=True)
    g = npgpu.asarray(x)
    o = (size - 1) // 2
    same(gnd.median_filter(g, size, mode="mirror"), snd.median_filter(x, size, mode="mirror"))
    same(gnd.rank_filter(g, 1, size=(size, 2), origin=(o, -1), mode="nearest"),
         snd.rank_filter(x, 1, size=(size, 2), origin=(o, -1), mode="nearest"))


def test_footprints():
    x = data((8, 9), np.float64, nan=True)
    g = npgpu.asarray(x)
    cross = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
    same(gnd.median_filter(g, footprint=cross, mode="reflect"),
         snd.median_filter(x, footprint=cross, mode="reflect"))
    ring = np.ones((5, 5), bool)
    ring[1:4, 1:4] = False
    ring[2, 2] = True
    same(gnd.percentile_filter(g, 40, footprint=ring, origin=(1, -2), mode="wrap"),
         snd.percentile_filter(x, 40, footprint=ring, origin=(1, -2), mode="wrap"))


def test_1d_and_3d():
    # 1-D: SciPy >= 1.15 filters 1-D input by a sliding-window algorithm whose NaN results
    # depend on the window's history; the NaN-free results are the same
    x1 = data((13,), np.float64)
    same(gnd.median_filter(npgpu.asarray(x1), 5, mode="wrap"),
         snd.median_filter(x1, 5, mode="wrap"))
    i1 = data((12,), np.int16)
    same(gnd.rank_filter(npgpu.asarray(i1), 1, 4, origin=1),
         snd.rank_filter(i1, 1, 4, origin=1))
    x3 = data((4, 5, 6), np.float32, nan=True)
    g3 = npgpu.asarray(x3)
    same(gnd.median_filter(g3, 3, mode="constant", cval=-1.0),
         snd.median_filter(x3, 3, mode="constant", cval=-1.0))
    same(gnd.rank_filter(g3, 3, size=(2, 2, 3), mode="mirror"),
         snd.rank_filter(x3, 3, size=(2, 2, 3), mode="mirror"))


def test_layouts_and_outputs():
    x = data((10, 12), np.float32, nan=True)
    g = npgpu.asarray(x)
    # non-contiguous and negative strides
    same(gnd.median_filter(g[::2, ::-1], 3), snd.median_filter(x[::2, ::-1], 3))
    same(gnd.median_filter(g.T, 3), snd.median_filter(x.T, 3))
    # another output dtype, and an output that is the input
    same(gnd.median_filter(g, 3, output=np.float64), snd.median_filter(x, 3, output=np.float64))
    xi = data((6, 7), np.int32)
    gi = npgpu.asarray(xi)
    gnd.median_filter(gi, 3, output=gi)
    same(gi, snd.median_filter(xi, 3))
    # an axes subset: the footprint of the other axes is 1
    same(gnd.median_filter(g, 3, axes=0), snd.median_filter(x, 3, axes=0))
    # empty
    e = np.zeros((0, 4), np.float32)
    same(gnd.median_filter(npgpu.asarray(e), 3), snd.median_filter(e, 3))


@pytest.mark.parametrize("cval", [0.0, 0.5, 1.0])
def test_bool_input(cval):
    x = rng.random((7, 8)) < 0.5
    g = npgpu.asarray(x)
    same(gnd.median_filter(g, 3, mode="constant", cval=cval),
         snd.median_filter(x, 3, mode="constant", cval=cval))
    same(gnd.rank_filter(g, 2, size=(2, 3), mode="reflect"),
         snd.rank_filter(x, 2, size=(2, 3), mode="reflect"))


def test_large_windows_take_the_general_path():
    x = data((7, 8), np.float64)
    same(gnd.median_filter(npgpu.asarray(x), (4, 7)), snd.median_filter(x, (4, 7)))
