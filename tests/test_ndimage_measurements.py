"""npgpu.scipy.ndimage measurements by labels (sum_labels, mean, variance, standard_deviation,
minimum, maximum, extrema, center_of_mass) against scipy.ndimage: index None / scalar / list
/ array, labels None, int and float labels, non-contiguous inputs."""
import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd

snd = pytest.importorskip("scipy.ndimage")

# SciPy warns where a label is absent (0 / 0): the NaN is what both return
pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")

rng = np.random.default_rng(77)
STATS = ["sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum", "maximum"]
INDEXES = [None, 2, [1, 3, 0, 7], np.array([[2, 1], [3, 3]])]


def _data(shape, dtype):
    x = rng.permutation(np.arange(int(np.prod(shape)))).reshape(shape) - 10   # distinct
    return (x * 1.25 if np.dtype(dtype).kind == "f" else x).astype(dtype)


def _check(r, g):
    if isinstance(g, npgpu.ndarray):
        g = g.get()
    assert np.shape(g) == np.shape(r)
    np.testing.assert_allclose(g, r, rtol=1e-6, equal_nan=True)


@pytest.mark.matrix
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
@pytest.mark.parametrize("name", STATS)
def test_stats_by_index(name, dtype):
    x = _data((6, 7), dtype)
    lab = rng.integers(0, 4, x.shape)
    with np.errstate(all="ignore"):
        for index in INDEXES:
            r = getattr(snd, name)(x, lab, index)
            g = getattr(gnd, name)(npgpu.asarray(x), npgpu.asarray(lab), index)
            _check(r, g)
            if index is None or np.isscalar(index):
                assert g.dtype == np.asarray(r).dtype, (index, g.dtype, np.asarray(r).dtype)


@pytest.mark.parametrize("name", STATS)
def test_stats_no_labels_layouts_float_labels(name):
    x = _data((5, 8), np.float64)
    lab = rng.integers(-1, 3, x.shape).astype(np.float32)     # negative and float labels
    d, dl = npgpu.asarray(x), npgpu.asarray(lab)
    _check(getattr(snd, name)(x), getattr(gnd, name)(d))
    _check(getattr(snd, name)(x.T[::-1], lab.T[::-1], [2.0, -1.0]),
           getattr(gnd, name)(d.T[::-1], dl.T[::-1], [2.0, -1.0]))
    _check(getattr(snd, name)(x[:, ::2], lab[:, ::2], index=None),
           getattr(gnd, name)(d[:, ::2], dl[:, ::2], index=None))
    # labels broadcast against the input
    _check(getattr(snd, name)(x, lab[:1], [0, 1, 2]), getattr(gnd, name)(d, dl[:1], [0, 1, 2]))


@pytest.mark.parametrize("shape", [(20,), (5, 6), (3, 4, 5)])
def test_center_of_mass(shape):
    x = _data(shape, np.float64) + 30
    lab = rng.integers(0, 4, shape)
    d, dl = npgpu.asarray(x), npgpu.asarray(lab)
    for index in INDEXES:
        r = snd.center_of_mass(x, lab, index)
        g = gnd.center_of_mass(d, dl, index)
        assert type(g) is type(r) and len(g) == len(r)
        np.testing.assert_allclose(np.array(g, dtype=float), np.array(r, dtype=float))
    np.testing.assert_allclose(gnd.center_of_mass(d), snd.center_of_mass(x))


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_extrema(dtype):
    x = _data((6, 5), dtype)
    lab = rng.integers(0, 4, x.shape)
    d = npgpu.asarray(x)
    for args in ((), (lab,), (lab, 2), (lab, [1, 3, 2, 9])):
        r = snd.extrema(x, *args)
        g = gnd.extrema(d, *[npgpu.asarray(a) if isinstance(a, np.ndarray) else a
                             for a in args])
        _check(r[0], g[0])
        _check(r[1], g[1])
        assert [tuple(int(v) for v in p) for p in np.atleast_2d(r[2])] == \
            [tuple(int(v) for v in p) for p in np.atleast_2d(g[2])]
        assert [tuple(int(v) for v in p) for p in np.atleast_2d(r[3])] == \
            [tuple(int(v) for v in p) for p in np.atleast_2d(g[3])]


def test_labels_from_label():
    """The usual pipeline: label a mask, then measure every object."""
    img = rng.random((12, 14))
    lab, n = snd.label(img > 0.6)
    glab, gn = gnd.label(npgpu.asarray(img) > 0.6)
    idx = np.arange(1, n + 1)
    for name in ("sum_labels", "mean", "maximum"):
        _check(getattr(snd, name)(img, lab, idx),
               getattr(gnd, name)(npgpu.asarray(img), glab, npgpu.asarray(idx)))


def test_bad_input():
    d = npgpu.asarray(_data((4, 5), np.float64))
    with pytest.raises(ValueError):
        gnd.sum_labels(d, npgpu.zeros((3, 5), np.int64), [1])
