"""Repeat calls of binary morphology and the small rank filters (their replayed launch plans)
against scipy.ndimage: new data in the same layout, and a changed structure, border_value,
origin, output, mode or cval between calls must never reuse a stale plan."""
import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd

snd = pytest.importorskip("scipy.ndimage")

rng = np.random.default_rng(77)
NAMES = ["binary_erosion", "binary_dilation", "binary_opening", "binary_closing"]


def _mask(shape, p=0.6):
    return rng.random(shape) < p


def _check(name, h, d, **kw):
    g = getattr(gnd, name)(d, **kw)
    np.testing.assert_array_equal(g.get(), getattr(snd, name)(h, **kw), err_msg=f"{name} {kw}")
    return g


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("shape", [(23,), (7, 9), (3, 4, 5)])
def test_repeat_new_data(name, shape):
    nd = len(shape)
    for s in (None, snd.generate_binary_structure(nd, nd)):
        for _ in range(3):                   # the first call stores the plan, the rest replay
            h = _mask(shape)
            _check(name, h, npgpu.asarray(h), structure=s)


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation"])
def test_repeat_changed_arguments(name):
    h = _mask((8, 10))
    d = npgpu.asarray(h)
    s = rng.random((3, 3)) < 0.6
    for kw in (dict(structure=s), dict(structure=s, border_value=1), dict(structure=s),
               dict(structure=s, origin=1), dict(structure=s, origin=-1),
               dict(structure=s, origin=(1, 0)), dict(structure=s.astype(np.int8) * 3),
               dict(structure=np.ones((2, 3), bool)), dict(structure=np.ones((2, 3), bool)),
               dict(structure=s, iterations=2), dict(structure=s, iterations=-1),
               dict(structure=s, mask=_mask((8, 10), 0.7)),
               dict(structure=s, border_value=True), dict(structure=s, border_value=np.int64(1)),
               dict(structure=s, iterations=np.int32(1))):
        kw_d = {k: npgpu.asarray(v) if k == "mask" else v for k, v in kw.items()}
        g = getattr(gnd, name)(d, **kw_d)
        np.testing.assert_array_equal(g.get(), getattr(snd, name)(h, **kw), err_msg=str(kw))
    # the same structure array changed in place: a new key, not the stale plan
    t = s.copy()
    _check(name, h, d, structure=t)
    t[...] = ~t
    t[1, 1] = True
    _check(name, h, d, structure=t)
    # a device structure (full path) after a host one of the same values
    g = getattr(gnd, name)(d, structure=npgpu.asarray(t))
    np.testing.assert_array_equal(g.get(), getattr(snd, name)(h, structure=t))


def test_repeat_erosion_dilation_share_no_plan():
    h = _mask((6, 7))
    d = npgpu.asarray(h)
    s = np.array([[0, 1, 1], [0, 1, 0], [1, 0, 0]], bool)
    for name in ("binary_erosion", "binary_dilation") * 2:
        _check(name, h, d, structure=s)


def test_repeat_large_structure():
    # more than 27 elements: the offset-table kernel's plan
    big = np.ones((5, 7), bool)
    big[0, 0] = False
    for name in ("binary_erosion", "binary_dilation"):
        for bv in (0, 0, 1):
            h = _mask((9, 11), 0.8)
            _check(name, h, npgpu.asarray(h), structure=big, border_value=bv)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float32])
def test_repeat_layouts_and_dtypes(dtype):
    for _ in range(2):
        h = (rng.integers(0, 3, (9, 8)) * _mask((9, 8))).astype(dtype)
        d = npgpu.asarray(h)
        for hv, dv in ((h, d), (h[::2], d[::2]), (h.T[::-1], d.T[::-1])):
            for name in ("binary_erosion", "binary_dilation"):
                _check(name, hv, dv)


def test_repeat_outputs():
    s = snd.generate_binary_structure(2, 1)
    for _ in range(2):
        h = _mask((6, 8))
        d = npgpu.asarray(h)
        want = snd.binary_erosion(h, s)
        out = npgpu.zeros((6, 8), np.int32)
        assert gnd.binary_erosion(d, s, output=out) is out
        np.testing.assert_array_equal(out.get(), want.astype(np.int32))
        g = gnd.binary_erosion(d, s, output=np.float32)     # SciPy ignores a dtype: bool
        assert g.dtype == np.bool_
        np.testing.assert_array_equal(g.get(), want)
        g = gnd.binary_erosion(d, s)
        assert g.dtype == np.bool_ and g is not d
        np.testing.assert_array_equal(g.get(), want)
        # in place: the output is the input
        assert gnd.binary_erosion(d, s, output=d) is d
        np.testing.assert_array_equal(d.get(), want)
        # a replayed call keeps the errors of the full one
        with pytest.raises(RuntimeError, match="output shape not correct"):
            gnd.binary_erosion(d, s, output=npgpu.zeros((6, 7), bool))
        with pytest.raises(TypeError, match="Complex output type not supported"):
            gnd.binary_erosion(d, s, output=npgpu.zeros((6, 8), np.complex64))
    with pytest.raises(ValueError, match="invalid origin"):
        gnd.binary_erosion(d, s, origin=2)
    e = npgpu.zeros((0, 8), bool)
    for _ in range(2):
        assert gnd.binary_erosion(e, s).shape == (0, 8)


def test_repeat_rank_small():
    fp = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]], bool)
    for dtype in (np.float32, np.int16):
        for mode, cval in (("reflect", 0.0), ("reflect", 0.0), ("constant", 2.0),
                           ("constant", -1.0), ("nearest", 0.0), ("wrap", 0.0)):
            h = (rng.random((7, 9)) * 20).astype(dtype)
            d = npgpu.asarray(h)
            np.testing.assert_array_equal(gnd.median_filter(d, 3, mode=mode, cval=cval).get(),
                                          snd.median_filter(h, 3, mode=mode, cval=cval))
            np.testing.assert_array_equal(
                gnd.rank_filter(d, 2, footprint=fp, mode=mode, cval=cval).get(),
                snd.rank_filter(h, 2, footprint=fp, mode=mode, cval=cval))
    h = rng.random((7, 9)).astype(np.float32)
    d = npgpu.asarray(h)
    for origin in (0, 1, 0, -1):
        np.testing.assert_array_equal(gnd.median_filter(d, 3, origin=origin).get(),
                                      snd.median_filter(h, 3, origin=origin))
    with pytest.raises(RuntimeError, match="boundary mode not supported"):
        gnd.median_filter(d, 3, mode="bogus")
    for _ in range(2):
        e = npgpu.zeros((0, 4), np.float32)
        assert gnd.median_filter(e, 3).shape == (0, 4)
