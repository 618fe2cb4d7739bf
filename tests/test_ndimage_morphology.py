"""npgpu.scipy.ndimage morphology, label, find_objects and distance_transform_edt against
scipy.ndimage on random images (1-D to 3-D, several structures, non-contiguous inputs)."""
import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd

snd = pytest.importorskip("scipy.ndimage")

rng = np.random.default_rng(2025)
SHAPES = [(37,), (9, 12), (4, 5, 6)]


def _mask(shape, p=0.55):
    return rng.random(shape) < p


def _layouts(host):
    """(host, device) pairs: contiguous, a strided slice, a negative-stride / transposed view."""
    d = npgpu.asarray(host)
    yield host, d
    sl = tuple(slice(None, None, 2) if k == 0 else slice(None) for k in range(host.ndim))
    yield host[sl], d[sl]
    yield host.T[::-1], d.T[::-1]


def _structures(nd):
    yield None
    yield snd.generate_binary_structure(nd, nd)
    yield np.ones((2,) * nd, bool)
    s = rng.random((3,) * nd) < 0.6
    s[(1,) * nd] = False                         # a structure without its centre
    yield s


# ---- structures ----------------------------------------------------------------------------
@pytest.mark.parametrize("rank,conn", [(0, 1), (1, 1), (2, 1), (2, 2), (3, 2), (3, 0)])
def test_generate_binary_structure(rank, conn):
    np.testing.assert_array_equal(gnd.generate_binary_structure(rank, conn),
                                  snd.generate_binary_structure(rank, conn))


@pytest.mark.parametrize("it", [1, 2, 3])
def test_iterate_structure(it):
    s = snd.generate_binary_structure(2, 1)
    np.testing.assert_array_equal(gnd.iterate_structure(s, it), snd.iterate_structure(s, it))
    if it < 2:
        return
    r, o = snd.iterate_structure(s, it, origin=(1, 0))
    g, go = gnd.iterate_structure(s, it, origin=(1, 0))
    np.testing.assert_array_equal(g, r)
    assert list(go) == list(o)


# ---- binary morphology ----------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation"])
def test_binary_structures_borders(shape, name):
    a = _mask(shape)
    for s in _structures(len(shape)):
        for bv in (0, 1):
            r = getattr(snd, name)(a, structure=s, border_value=bv)
            g = getattr(gnd, name)(npgpu.asarray(a), structure=s, border_value=bv)
            assert g.dtype == np.bool_
            np.testing.assert_array_equal(g.get(), r)


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening",
                                  "binary_closing"])
def test_binary_layouts_origin_iterations(name):
    a = _mask((10, 9), 0.6)
    for h, d in _layouts(a):
        for kw in ({}, dict(origin=(1, -1)), dict(iterations=2), dict(iterations=0),
                   dict(structure=np.ones((3, 2), bool), origin=(1, -1))):
            np.testing.assert_array_equal(getattr(gnd, name)(d, **kw).get(),
                                          getattr(snd, name)(h, **kw), err_msg=str(kw))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.uint8])
def test_binary_nonbool_input_mask_output(dtype):
    a = (rng.integers(0, 3, (8, 11)) * (rng.random((8, 11)) < 0.6)).astype(dtype)
    m = _mask(a.shape, 0.7)
    for iters in (1, 3, -1):
        r = snd.binary_dilation(a, iterations=iters, mask=m)
        g = gnd.binary_dilation(npgpu.asarray(a), iterations=iters, mask=npgpu.asarray(m))
        np.testing.assert_array_equal(g.get(), r)
    out = npgpu.zeros(a.shape, np.int32)
    res = gnd.binary_erosion(npgpu.asarray(a), output=out)
    assert res is out
    np.testing.assert_array_equal(out.get(), snd.binary_erosion(a).astype(np.int32))


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation"])
def test_binary_small_and_large_structures(name):
    # at most 27 elements: offsets rendered as constants; more: the offset-table kernel
    f, g = getattr(snd, name), getattr(gnd, name)
    a3 = _mask((5, 6, 7), 0.7)
    m3 = _mask(a3.shape, 0.8)
    s27 = np.ones((3, 3, 3), bool)
    for kw in (dict(iterations=2, mask=m3), dict(border_value=1, origin=(0, 1, -1)),
               dict(iterations=-1, brute_force=True)):
        want = f(a3, s27, **kw)
        kw = {k: npgpu.asarray(v) if k == "mask" else v for k, v in kw.items()}
        np.testing.assert_array_equal(g(npgpu.asarray(a3), s27, **kw).get(), want)
    a2 = _mask((9, 13), 0.75)
    big = np.random.default_rng(35).random((5, 7)) < 0.9     # 28 > 27 (whatever ran first)
    big[2, 3] = True
    assert big.sum() > 27
    for kw in ({}, dict(border_value=1, iterations=2), dict(origin=(1, -2))):
        np.testing.assert_array_equal(g(npgpu.asarray(a2), big, **kw).get(), f(a2, big, **kw))
    a1 = _mask((40,), 0.7)
    np.testing.assert_array_equal(g(npgpu.asarray(a1)[::-2], np.ones(4, bool), origin=1).get(),
                                  f(a1[::-2], np.ones(4, bool), origin=1))


@pytest.mark.parametrize("shape", SHAPES)
def test_binary_fill_holes(shape):
    a = _mask(shape, 0.7)
    for s in (None, snd.generate_binary_structure(len(shape), len(shape))):
        np.testing.assert_array_equal(gnd.binary_fill_holes(npgpu.asarray(a), s).get(),
                                      snd.binary_fill_holes(a, s))


def test_binary_bad_input():
    a = npgpu.asarray(_mask((5, 6)))
    with pytest.raises(RuntimeError, match="same dimensionality"):
        gnd.binary_erosion(a, structure=np.ones(3, bool))
    with pytest.raises(RuntimeError, match="must not be empty"):
        gnd.binary_erosion(a, structure=np.ones((0, 3), bool))
    with pytest.raises(RuntimeError, match="equal sizes"):
        gnd.binary_dilation(a, mask=npgpu.ones((5, 5), bool))
    with pytest.raises(TypeError, match="Complex type not supported"):
        gnd.binary_erosion(npgpu.ones((3, 3), np.complex64))
    with pytest.raises(TypeError, match="should be an integer"):
        gnd.binary_erosion(a, iterations=1.5)
    with pytest.raises(ValueError, match="invalid origin"):
        gnd.binary_erosion(a, origin=2)


# ---- grey morphology ------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "wrap", "constant"])
def test_grey(dtype, mode):
    x = (rng.standard_normal((7, 9)) * 20).astype(dtype)
    d = npgpu.asarray(x)
    for kw in (dict(size=3), dict(size=(2, 3)), dict(footprint=[[1, 0, 1], [0, 1, 1]]),
               dict(structure=[[1, 2, 0], [0, 1, 3]])):
        for name in ("grey_erosion", "grey_dilation"):
            r = getattr(snd, name)(x, mode=mode, cval=1.5, **kw)
            g = getattr(gnd, name)(d, mode=mode, cval=1.5, **kw)
            assert g.dtype == r.dtype
            np.testing.assert_allclose(g.get(), r, err_msg=f"{name} {kw}")


@pytest.mark.parametrize("name", ["grey_erosion", "grey_dilation", "grey_opening",
                                  "grey_closing"])
def test_grey_layouts_3d(name):
    x = rng.standard_normal((4, 6, 5))
    for h, d in _layouts(x):
        for kw in (dict(size=(3, 2, 3)), dict(size=2, origin=(0, -1, 0))):
            np.testing.assert_allclose(getattr(gnd, name)(d, **kw).get(),
                                       getattr(snd, name)(h, **kw))


def test_grey_bad_input():
    d = npgpu.asarray(rng.standard_normal((5, 6)))
    with pytest.raises(ValueError, match="must be specified"):
        gnd.grey_erosion(d)
    with pytest.raises(RuntimeError):
        gnd.grey_erosion(d, footprint=np.ones(3, bool))
    with pytest.raises(RuntimeError):
        gnd.grey_dilation(d, size=3, mode="bogus")


# ---- label / find_objects -------------------------------------------------------------------
@pytest.mark.parametrize("shape", SHAPES)
def test_label_find_objects(shape):
    nd = len(shape)
    a = _mask(shape, 0.5)
    for conn in range(1, nd + 1):
        s = snd.generate_binary_structure(nd, conn)
        for h, d in _layouts(a):
            r, n = snd.label(h, s)
            g, m = gnd.label(d, s)
            assert m == n and isinstance(m, int) and g.dtype == np.int32
            np.testing.assert_array_equal(g.get(), r)
            assert gnd.find_objects(g) == snd.find_objects(r)


def test_label_dtypes_output():
    a = rng.integers(0, 3, (11, 13)) * (rng.random((11, 13)) < 0.4)
    for dt in (np.int32, np.float64, np.uint8):
        r, n = snd.label(a.astype(dt))
        g, m = gnd.label(npgpu.asarray(a.astype(dt)))
        assert m == n
        np.testing.assert_array_equal(g.get(), r)
    g, m = gnd.label(npgpu.asarray(a), output=np.int64)
    assert g.dtype == np.int64 and m == n
    out = npgpu.zeros(a.shape, np.int32)
    assert gnd.label(npgpu.asarray(a), output=out) == n
    np.testing.assert_array_equal(out.get(), r)
    # scalar and empty
    assert gnd.label(npgpu.asarray(3))[1] == 1
    assert gnd.label(npgpu.zeros((0, 4), bool))[1] == 0


def test_label_long_runs():
    """Runs longer than phase 0's 32-element chunks, solid areas and one long 1-D run."""
    a = np.ones((3, 150), bool)
    a[1, 70] = a[2, :] = False
    a[2, 5] = True
    a[2, 100:140] = True
    for conn in (1, 2):
        s = snd.generate_binary_structure(2, conn)
        r, n = snd.label(a, s)
        g, m = gnd.label(npgpu.asarray(a), s)
        assert m == n
        np.testing.assert_array_equal(g.get(), r)
    b = np.ones(200, bool)
    b[[3, 64, 65, 130]] = False
    r, n = snd.label(b)
    g, m = gnd.label(npgpu.asarray(b))
    assert m == n
    np.testing.assert_array_equal(g.get(), r)


def test_find_objects_max_label_and_gaps():
    lab = rng.integers(0, 6, (7, 8))
    lab[lab == 3] = 0
    d = npgpu.asarray(lab)
    assert gnd.find_objects(d) == snd.find_objects(lab)
    assert gnd.find_objects(d, max_label=3) == snd.find_objects(lab, max_label=3)
    assert gnd.find_objects(d.astype(np.int16)[::-1]) == snd.find_objects(lab[::-1])


def test_label_bad_input():
    a = npgpu.asarray(_mask((5, 6)))
    with pytest.raises(RuntimeError, match="equal rank"):
        gnd.label(a, np.ones(3, bool))
    with pytest.raises(ValueError, match="equal to 3"):
        gnd.label(a, np.ones((3, 2), bool))
    with pytest.raises(ValueError, match="output shape"):
        gnd.label(a, output=npgpu.zeros((6, 5), np.int32))
    with pytest.raises(TypeError, match="Complex"):
        gnd.label(npgpu.ones(4, np.complex128))


# ---- distance_transform_edt -----------------------------------------------------------------
@pytest.mark.parametrize("shape,sampling", [((30,), None), ((9, 11), None),
                                            ((9, 11), (1.5, 0.7)), ((4, 5, 6), 2.0)])
def test_edt(shape, sampling):
    a = _mask(shape, 0.7)
    for h, d in _layouts(a):
        r = snd.distance_transform_edt(h, sampling=sampling)
        g, gi = gnd.distance_transform_edt(d, sampling=sampling, return_indices=True)
        assert g.dtype == np.float64 and gi.dtype == np.int32 and gi.shape == (h.ndim,) + h.shape
        np.testing.assert_allclose(g.get(), r, rtol=1e-12)
        # the indices name a zero element at that distance (ties may pick another than SciPy)
        gi = gi.get()
        assert not h[tuple(gi)].any()
        w = np.broadcast_to(np.asarray(1.0 if sampling is None else sampling), (h.ndim,))
        dist = np.sqrt(((gi - np.indices(h.shape)) ** 2
                        * (w ** 2).reshape((-1,) + (1,) * h.ndim)).sum(0))
        np.testing.assert_allclose(dist, r, rtol=1e-12)


def test_edt_outputs_and_errors():
    a = _mask((6, 7), 0.7)
    d = npgpu.asarray(a)
    gi = gnd.distance_transform_edt(d, return_distances=False, return_indices=True)
    assert gi.shape == (2, 6, 7)
    dist = npgpu.zeros((6, 7), np.float64)
    assert gnd.distance_transform_edt(d, distances=dist) is None
    np.testing.assert_allclose(dist.get(), snd.distance_transform_edt(a))
    with pytest.raises(RuntimeError, match="at least one"):
        gnd.distance_transform_edt(d, return_distances=False)
    with pytest.raises(RuntimeError, match="length equal to input rank"):
        gnd.distance_transform_edt(d, sampling=(1.0, 2.0, 3.0))
