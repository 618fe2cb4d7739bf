"""npgpu.scipy.ndimage median, histogram, labeled_comprehension and value_indices against
scipy.ndimage: repeated values, labels absent from index, index None / scalar / list / array,
no labels, 1-d to 3-d, non-contiguous inputs, empty labels and SciPy's errors."""
import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd

from conftest import assert_same, raises_like

snd = pytest.importorskip("scipy.ndimage")

# SciPy and NumPy warn for an empty group (0 / 0): the NaN is what both return
pytestmark = [pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:Mean of empty slice:RuntimeWarning")]

SHAPES = [(24,), (5, 7), (3, 4, 5)]
# label 3 is never present (labels are drawn from {0, 1, 2, 4}); 7 and -1 are out of range
INDEXES = [None, 2, 3, [1, 3, 0, 7, -1, 4], np.array([[2, 1], [4, 4]]), np.array(1), []]


def _data(shape, dtype, seed):
    """Few distinct values (many repeats) and labels {0, 1, 2, 4}: (x, labels) on the host,
    then both on the device."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-4, 5, shape)
    x = (x * 0.75 if np.dtype(dtype).kind == "f" else x).astype(dtype)
    lab = rng.choice(np.array([0, 1, 2, 4]), shape)
    return x, lab, npgpu.asarray(x), npgpu.asarray(lab)


def _same(got, want):
    """npgpu result vs SciPy's: arrays bit-exact (SciPy's NumPy scalars as 0-d arrays)."""
    assert_same(got, np.asarray(want))


def _same_hist(got, want):
    """SciPy's histogram (an array, None, or an object array of them) vs npgpu's (an array,
    None, or a list of them)."""
    if want is None or isinstance(got, npgpu.ndarray):
        assert (got is None) == (want is None)
        if want is not None:
            assert_same(got, want)
        return
    assert isinstance(got, list) and len(got) == len(want)
    for g, w in zip(got, want):
        _same_hist(g, w)


# ---- median ------------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_median_by_index(dtype, shape):
    x, lab, d, dl = _data(shape, dtype, 1)
    _same(gnd.median(d), snd.median(x))
    for index in INDEXES:
        _same(gnd.median(d, dl, index), snd.median(x, lab, index))


def test_median_label_kinds_and_layouts():
    x, lab, d, dl = _data((6, 8), np.float64, 2)
    # float labels, negative labels, a label past the size: SciPy's remapping path
    for lab2, index in ((lab * 0.5, [0.5, 1.0, 2.0, 0.25]), (lab - 2, [-2, 0, 2, 1]),
                        (lab * 100, [100, 200, 400, 300])):
        _same(gnd.median(d, npgpu.asarray(lab2), index), snd.median(x, lab2, index))
    # float index, integer labels: truncated (1.7 selects label 1)
    _same(gnd.median(d, dl, [1.7, 4.2, 0.0]), snd.median(x, lab, [1.7, 4.2, 0.0]))
    # non-contiguous input and labels, labels broadcast against the input
    _same(gnd.median(d.T[::-1], dl.T[::-1], [1, 2, 4]), snd.median(x.T[::-1], lab.T[::-1],
                                                                  [1, 2, 4]))
    _same(gnd.median(d[:, ::3], dl[:, ::3], 2), snd.median(x[:, ::3], lab[:, ::3], 2))
    _same(gnd.median(d, dl[:1], [0, 1, 2, 4]), snd.median(x, lab[:1], [0, 1, 2, 4]))
    _same(gnd.median(d[::-2]), snd.median(x[::-2]))


def test_median_empty_and_errors():
    x, lab, d, dl = _data((4, 6), np.float64, 3)
    e, el = np.zeros((0, 3)), np.zeros((0, 3), np.int64)
    de, del_ = npgpu.asarray(e), npgpu.asarray(el)
    _same(gnd.median(de), snd.median(e))                       # NaN
    _same(gnd.median(de, del_), snd.median(e, el))
    _same(gnd.median(de, del_, 1), snd.median(e, el, 1))
    _same(gnd.median(d, npgpu.zeros_like(dl)), snd.median(x, np.zeros_like(lab)))
    raises_like(lambda: snd.median(e, el, [1, 2]), lambda: gnd.median(de, del_, [1, 2]))
    raises_like(lambda: snd.median(x, lab[:3, :2], [1]), lambda: gnd.median(d, dl[:3, :2], [1]))


# ---- histogram ---------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_histogram_by_index(dtype, shape):
    x, lab, d, dl = _data(shape, dtype, 4)
    # the edges cut through repeated values; some values lie outside [min, max]
    for lo, hi, bins in ((-3, 3, 4), (-3.0, 2.25, 7)):
        _same_hist(gnd.histogram(d, lo, hi, bins), snd.histogram(x, lo, hi, bins))
        for index in [None, 2, 3, [1, 3, 0, 7, 4], np.array([4, 2]), np.array(1), [1, 1]]:
            _same_hist(gnd.histogram(d, lo, hi, bins, dl, index),
                       snd.histogram(x, lo, hi, bins, lab, index))


def test_histogram_edges_layouts_nd_index():
    x, lab, _, dl = _data((6, 8), np.float64, 5)
    x[0, :3] = np.nan, 3.0, -3.0            # NaN is not counted, the last edge is
    d = npgpu.asarray(x)
    for lo, hi, bins in ((-3, 3, 6), (0, 0, 3), (-1, 2, 1), (0, 5, 0)):
        _same_hist(gnd.histogram(d, lo, hi, bins, dl, [2, 4, 3]),
                   snd.histogram(x, lo, hi, bins, lab, [2, 4, 3]))
        _same_hist(gnd.histogram(d, lo, hi, bins), snd.histogram(x, lo, hi, bins))
    _same_hist(gnd.histogram(d, -3, 3, 5, dl.T[::-1].T, [1, 2]),
               snd.histogram(x, -3, 3, 5, lab.T[::-1].T, [1, 2]))
    _same_hist(gnd.histogram(d[::2, 1::2], -3, 3, 5, dl[::2, 1::2]),
               snd.histogram(x[::2, 1::2], -3, 3, 5, lab[::2, 1::2]))
    _same_hist(gnd.histogram(d, -3, 3, 4, npgpu.asarray(lab * 0.5), [0.5, 2.0, 1.5]),
               snd.histogram(x, -3, 3, 4, lab * 0.5, [0.5, 2.0, 1.5]))
    # an index of two dimensions (SciPy cannot fill an object array so): nested lists
    got = gnd.histogram(d, -3, 3, 4, dl, np.array([[1, 3], [4, 2]]))
    want = [[snd.histogram(x, -3, 3, 4, lab, v) for v in row] for row in ((1, 3), (4, 2))]
    for g, w in zip(got, want):
        _same_hist(g, w)
    # empty labels: every label absent
    e, el = np.zeros((0,)), np.zeros((0,), np.int64)
    _same_hist(gnd.histogram(npgpu.asarray(e), 0, 1, 3, npgpu.asarray(el), [1, 2]),
               snd.histogram(e, 0, 1, 3, el, [1, 2]))
    _same_hist(gnd.histogram(npgpu.asarray(e), 0, 1, 3), snd.histogram(e, 0, 1, 3))


@pytest.mark.parametrize("args", [
    (0, 8, 2.0), (8, 0, 3), (0, 8, -2), (0, 8, 3, None, 1), (0, 8, 3, "lab", [1.5]),
    (0, 8, 3, "short", [1]), (0, 8, 3, "lab", []), (8, 0, 3, "lab", [2])])
def test_histogram_errors(args):
    x, lab, d, dl = _data((4, 6), np.float64, 6)

    def call(mod, a, l):
        sub = {"lab": l, "short": l[:1, :3]}
        return mod.histogram(a, *[sub.get(v, v) if isinstance(v, str) else v for v in args])
    raises_like(lambda: call(snd, x, lab), lambda: call(gnd, d, dl))


# ---- labeled_comprehension ---------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_labeled_comprehension(dtype, shape):
    x, lab, d, dl = _data(shape, dtype, 7)
    for index in [2, 3, [1, 3, 0, 7, 4], np.array([4, 2, 4]), np.array(1)]:
        # a device result (npgpu.max, a 0-d array), a host one (a Python float)
        _same(gnd.labeled_comprehension(d, dl, index, npgpu.max, np.float32, -1.5),
              snd.labeled_comprehension(x, lab, index, np.max, np.float32, -1.5))
        _same(gnd.labeled_comprehension(d, dl, index, lambda v: float(v.size), int, 0),
              snd.labeled_comprehension(x, lab, index, lambda v: float(v.size), int, 0))
    # the values' own result where no index is given
    _same(gnd.labeled_comprehension(d, dl, None, npgpu.sum, float, 0),
          snd.labeled_comprehension(x, lab, None, np.sum, float, 0))
    _same(gnd.labeled_comprehension(d, None, None, npgpu.min, float, 0),
          snd.labeled_comprehension(x, None, None, np.min, float, 0))


def test_labeled_comprehension_positions_and_order():
    x, lab, d, dl = _data((5, 6), np.float64, 8)
    seen = []

    def weigh(v, p):                        # order-free, so SciPy's unstable sort agrees
        seen.append(v.size)
        return (v * p).sum() + p.max()
    r = snd.labeled_comprehension(x, lab, [4, 1, 3, 2], weigh, np.float64, 0, True)
    scipy_seen, seen[:] = list(seen), []
    _same(gnd.labeled_comprehension(d, dl, [4, 1, 3, 2], weigh, np.float64, 0, True), r)
    assert seen == scipy_seen                   # called in ascending index order
    for labels, index in ((None, None), (lab, None)):
        want = snd.labeled_comprehension(x, labels, index, weigh, float, 0, True)
        got = gnd.labeled_comprehension(d, None if labels is None else dl, index, weigh, float,
                                        0, True)
        _same(got, want)
    # positions are flat C-order, values in C order within a label
    got = gnd.labeled_comprehension(d.T, dl.T, [2], lambda v, p: p[1] * 100 + p[0], int, 0,
                                    True)
    pos = np.flatnonzero(lab.T == 2)
    assert int(got.get()[0]) == pos[1] * 100 + pos[0]
    # object out_dtype: a host object array of the results, as SciPy's
    got = gnd.labeled_comprehension(d, dl, [1, 3], lambda v: v[:2], object, None)
    assert got.dtype == object and got[1] is None
    assert_same(got[0], x[lab == 1][:2])


def test_labeled_comprehension_empty_and_errors():
    x, lab, d, dl = _data((4, 6), np.float64, 9)
    e, el = np.zeros((0,)), np.zeros((0,), np.int64)
    _same(gnd.labeled_comprehension(npgpu.asarray(e), npgpu.asarray(el), [1, 2], npgpu.mean,
                                    float, -1),
          snd.labeled_comprehension(e, el, [1, 2], np.mean, float, -1))
    _same(gnd.labeled_comprehension(d, dl, [1, 9], npgpu.mean, float, None),   # None: NaN
          snd.labeled_comprehension(x, lab, [1, 9], np.mean, float, None))
    for call in (lambda m, a, l, f: m.labeled_comprehension(a, None, 1, f, float, 0),
                 lambda m, a, l, f: m.labeled_comprehension(a, l[:2, :1], [1], f, float, 0),
                 lambda m, a, l, f: m.labeled_comprehension(a, l, [1.5], f, float, 0),
                 lambda m, a, l, f: m.labeled_comprehension(a, l, [], f, float, 0),
                 lambda m, a, l, f: m.labeled_comprehension(a, l, [1], f, int, None),
                 lambda m, a, l, f: m.labeled_comprehension(a, l, [1], lambda v: v, float, 0)):
        raises_like(lambda: call(snd, x, lab, np.mean), lambda: call(gnd, d, dl, npgpu.mean))


# ---- value_indices -----------------------------------------------------------------------------
def _same_indices(got, want):
    assert list(got) == list(want)
    assert [type(k) for k in got] == [type(k) for k in want]
    for k in want:
        assert len(got[k]) == len(want[k])
        for g, w in zip(got[k], want[k]):
            assert_same(g, w)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.int64, np.uint8])
def test_value_indices(dtype, shape):
    a = _data(shape, np.int64, 10)[0].astype(dtype)       # uint8: negatives wrap
    d = npgpu.asarray(a)
    _same_indices(gnd.value_indices(d), snd.value_indices(a))
    _same_indices(gnd.value_indices(d, ignore_value=0), snd.value_indices(a, ignore_value=0))
    if a.ndim > 1:
        _same_indices(gnd.value_indices(d.T[::-1]), snd.value_indices(a.T[::-1]))


def test_value_indices_edges_and_errors():
    a = _data((4, 5), np.int64, 11)[0]
    _same_indices(gnd.value_indices(npgpu.asarray(a), ignore_value=1.7),   # cast: 1
                  snd.value_indices(a, ignore_value=1.7))
    _same_indices(gnd.value_indices(npgpu.asarray(a[::2, 1:4])),
                  snd.value_indices(a[::2, 1:4]))
    for host in (np.array(5), np.zeros((0, 3), np.int64), [3, 1, 3]):
        dev = npgpu.asarray(host) if isinstance(host, np.ndarray) else host
        _same_indices(gnd.value_indices(dev), snd.value_indices(host))
    f = a.astype(np.float32)
    for call in (lambda m, x: m.value_indices(x[0]),
                 lambda m, x: m.value_indices(x[1] > 0),
                 lambda m, x: m.value_indices(x[2], ignore_value=-1),
                 lambda m, x: m.value_indices(x[3], ignore_value="x")):
        raises_like(lambda: call(snd, (f, a, a.astype(np.uint8), a)),
                    lambda: call(gnd, (npgpu.asarray(f), npgpu.asarray(a),
                                       npgpu.asarray(a.astype(np.uint8)), npgpu.asarray(a))))


def test_labels_from_label_pipeline():
    """The usual pipeline: label a mask, then the new statistics of every object."""
    img = np.round(np.random.default_rng(12).random((7, 8)) * 8) / 8
    lab, n = snd.label(img > 0.5)
    glab, gn = gnd.label(npgpu.asarray(img) > 0.5)
    idx = np.arange(1, n + 1)
    d = npgpu.asarray(img)
    _same(gnd.median(d, glab, npgpu.asarray(idx)), snd.median(img, lab, idx))
    _same_hist(gnd.histogram(d, 0, 1, 4, glab, idx), snd.histogram(img, 0, 1, 4, lab, idx))
    got = gnd.value_indices(glab, ignore_value=0)
    want = snd.value_indices(lab, ignore_value=0)
    assert [int(k) for k in got] == [int(k) for k in want]
    for k, gk in zip(want, got):
        for g, w in zip(got[gk], want[k]):
            assert_same(g, w)
