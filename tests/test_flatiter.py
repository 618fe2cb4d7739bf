"""ndarray.flat (npgpu/indexing/flatiter.py), getfield/setfield and the in-place resize
(npgpu/_core/fields.py) against NumPy on random data: dtypes, non-contiguous / negative-stride /
0-d / empty arrays, NumPy's errors and messages."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, assert_same, make_layout, random_array, raises_like

RNG = numpy.random.default_rng(1313)
LAYOUTS = ("contiguous", "transposed", "strided", "negative", "broadcast", "zero_d", "empty")
WRITABLE = ("contiguous", "transposed", "strided", "negative")


def rand(shape, dt):
    return random_array(shape, dt, RNG)


def read_keys(n):
    keys = [0, -1, n // 2, numpy.int32(1), slice(None), slice(1, None, 2), slice(None, None, -3),
            slice(5, 2), Ellipsis, (), (slice(2, 7),), [1, -2, 1], numpy.array([[0, 3], [-1, 2]]),
            numpy.zeros(0, numpy.intp), [], numpy.array(2)]
    if n == 0:
        return [Ellipsis, (), slice(None), slice(1, None, 2), [], numpy.zeros(0, numpy.intp)]
    if n == 1:
        return [0, -1, Ellipsis, slice(None), [0, 0], numpy.array(0)]
    return keys


# ---- reading ----------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_flat_read_dtypes(dt):
    for lay in LAYOUTS:
        g, h = make_layout(rand((3, 4), dt), lay)
        n = h.size
        for key in read_keys(n):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)   # [] is a float list
                got, ref = g.flat[key], h.flat[key]
            assert_same(got, numpy.asarray(ref))
        mask = RNG.random(n) > 0.5
        assert_same(g.flat[mask], h.flat[mask])
        assert_same(g.flat[np.asarray(mask)], h.flat[mask])
        assert len(g.flat) == len(h.flat)
        assert_same(g.flat.copy(), h.flat.copy())


def test_flat_read_device_keys_and_results():
    g, h = make_layout(rand((4, 5), "f8"), "negative")
    idx = RNG.integers(-20, 20, (3, 2))
    assert_same(g.flat[np.asarray(idx)], h.flat[idx])
    assert_same(g.flat[np.asarray(idx.astype(numpy.uint8) % 20)], h.flat[idx.astype(numpy.uint8) % 20])
    assert_same(g.flat[np.asarray(7)], numpy.asarray(h.flat[7]))
    # results are copies: writing into the array afterwards does not change them
    s, one, sl = g.flat[3], g.flat[3:6], g.flat[...]
    g[...] = 0
    assert_same(s, numpy.asarray(h.flat[3]))
    assert_same(one, h.flat[3:6])
    assert_same(sl, h.flat[...])
    a = np.arange(6)
    assert a.flat.base is a
    assert isinstance(a.flat[2], np.ndarray) and a.flat[2].ndim == 0


def test_flat_iteration():
    for lay in ("contiguous", "transposed", "negative", "zero_d", "empty"):
        g, h = make_layout(rand((2, 3), "i4"), lay)
        it, hit = g.flat, h.flat
        assert (it.index, it.coords) == (hit.index, hit.coords)
        got = [int(x) for x in it]
        assert got == [int(x) for x in hit]
        assert (it.index, it.coords) == (hit.index, hit.coords)
    it, hit = np.asarray(numpy.arange(6).reshape(2, 3)).flat, numpy.arange(6).reshape(2, 3).flat
    for _ in range(4):
        next(it), next(hit)
    assert (it.index, it.coords) == (hit.index, hit.coords)


def test_flat_read_errors():
    h = rand((3, 4), "f4")
    g = np.asarray(h)
    for key in [12, -13, [15], [0, -13], numpy.array([[1, 12]]), (1, 2), None, "a",
                [True, False], numpy.ones(5, bool), numpy.ones((3, 4), bool), g.get() > 0,
                numpy.array([0.5, 1.5])]:
        raises_like(lambda: h.flat[key], lambda: g.flat[key])
    raises_like(lambda: h.flat[numpy.ones(5, bool)], lambda: g.flat[np.ones(5, bool)])
    raises_like(lambda: h.flat[numpy.array([1, 12])], lambda: g.flat[np.asarray([1, 12])])
    with pytest.warns(DeprecationWarning):
        ref = h.flat[1.0]
    with pytest.warns(DeprecationWarning):
        assert_same(g.flat[1.0], numpy.asarray(ref))
    with pytest.raises(TypeError, match="Implicit conversion"):
        numpy.asarray(g.flat)


# ---- writing ----------------------------------------------------------------------------------
def write_cases(n):
    return [(0, 7), (-1, 3), (slice(None), 5), (slice(1, None, 2), [1, 2]),
            (slice(None, None, -3), numpy.arange(3)), (Ellipsis, [9, 8, 7]), ((2,), 4),
            ([1, -2, 1], [5, 6, 7]), (numpy.array([[0, 3], [-1, 2]]), [1]),
            ([0, 1, 2, 3, 4], [11, 12]), (numpy.zeros(0, numpy.intp), 3), ([0], []),
            (numpy.arange(n) % 3 == 1, [1, 2, 3]), (slice(2, 9), numpy.array([[5, 6]]))]


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_flat_write_dtypes(dt):
    for lay in WRITABLE:
        base = rand((3, 4), dt)
        for key, value in write_cases(base.size):
            g, h = make_layout(base.copy(), lay)
            h.flat[key] = value
            g.flat[key] = value
            assert_same(g, h)


def test_flat_write_device_values_keys_and_layouts():
    for lay in WRITABLE:
        base = rand((4, 5), "f4")
        g, h = make_layout(base.copy(), lay)
        vals = rand((3,), "f8")
        idx = RNG.integers(-20, 20, 7)
        h.flat[idx] = vals
        g.flat[np.asarray(idx)] = np.asarray(vals)
        assert_same(g, h)
        mask = RNG.random(20) > 0.4
        h.flat[mask] = vals
        g.flat[np.asarray(mask)] = np.asarray(vals)
        assert_same(g, h)
        h.flat = vals[:2]
        g.flat = np.asarray(vals[:2])
        assert_same(g, h)
        h.flat = 2.5
        g.flat = 2.5
        assert_same(g, h)
    # a 0-d and an empty array; unsafe casts of array values, Python-scalar errors
    for lay in ("zero_d", "empty"):
        g, h = make_layout(rand((3,), "i2"), lay)
        h.flat = [4, 5]
        g.flat = [4, 5]
        assert_same(g, h)
    h = numpy.arange(4, dtype=numpy.int8)
    g = np.asarray(h)
    h.flat[:] = numpy.array([300.7, 1.5])
    g.flat[:] = np.asarray([300.7, 1.5])
    assert_same(g, h)
    raises_like(lambda: h.flat.__setitem__(slice(None), 300), lambda: g.flat.__setitem__(slice(None), 300))
    # repeated indices: the last value wins
    h = numpy.arange(6.0)
    g = np.asarray(h)
    h.flat[[1, 1, 1]] = [5, 6, 7]
    g.flat[[1, 1, 1]] = [5, 6, 7]
    assert_same(g, h)


def test_flat_write_errors():
    h = numpy.arange(12.0).reshape(3, 4)
    g = np.asarray(h)
    for key, value in [([20], 1), (12, 1), (-13, 1), (None, 1), ("x", 1), ([True, False], 1),
                       (3, [1, 2, 3]), (3, [1]), ((0, 1), 1), (numpy.ones(5, bool), 1),
                       ((), 1), ((Ellipsis,), 1), (numpy.True_, 1)]:
        raises_like(lambda: h.copy().flat.__setitem__(key, value),
                   lambda: g.flat.__setitem__(key, value))
    # nothing is written when an index is out of bounds (checked on the device first)
    raises_like(lambda: h.copy().flat.__setitem__(numpy.array([0, 30]), 1),
               lambda: g.flat.__setitem__(np.asarray([0, 30]), 1))
    assert_same(g, h)
    hr = numpy.arange(3)
    hr.flags.writeable = False
    gr = np.asarray(hr)
    gr.flags.writeable = False
    raises_like(lambda: hr.flat.__setitem__(0, 1), lambda: gr.flat.__setitem__(0, 1))
    raises_like(lambda: hr.flat.__setitem__([0], 1), lambda: gr.flat.__setitem__([0], 1))

    def set_flat(a):
        a.flat = 1
    raises_like(lambda: set_flat(hr), lambda: set_flat(gr))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        h.flat[[0.5]] = -1
        g.flat[[0.5]] = -1
    assert_same(g, h)


# ---- getfield / setfield ----------------------------------------------------------------------
FIELD_CASES = [("f8", "i4", 4), ("f8", "i4", 0), ("i8", "u2", 6), ("c16", "f8", 8), ("c8", "f4", 4),
               ("c16", "c8", 8), ("u4", "i1", 3), ("f4", "f2", 2), ("i2", "bool", 1), ("f8", "f8", 0),
               ("i8", (numpy.int16, (2,)), 4), ("u8", (numpy.uint8, (2, 2)), 0)]


@pytest.mark.parametrize("src,dst,off", FIELD_CASES, ids=str)
def test_getfield(src, dst, off):
    for lay in ("contiguous", "transposed", "strided", "negative", "zero_d", "empty"):
        g, h = make_layout(rand((3, 4), src), lay)
        got, ref = g.getfield(dst, off), h.getfield(dst, off)
        assert_same(got, ref)
        assert got.base is not None and got.flags.owndata == ref.flags.owndata


@pytest.mark.parametrize("src,dst,off", FIELD_CASES[:8], ids=str)
def test_setfield(src, dst, off):
    for lay in WRITABLE:
        g, h = make_layout(rand((3, 4), src), lay)
        # float values in the field's range: a negative float cast to an unsigned field is
        # undefined in C (x86 wraps, the GPU's cvt saturates to 0; NumPy warns)
        for val in [rand((3, 4), dst), numpy.abs(rand((4,), "f8")), 3]:
            h.setfield(val, dst, off)
            g.setfield(np.asarray(val) if isinstance(val, numpy.ndarray) else val, dst, off)
            assert_same(g, h)
    # getfield is a view: writing it writes the array
    h = rand((5,), "c16")
    g = np.asarray(h)
    g.getfield("f8", 8)[1:3] = 1.5
    h.getfield("f8", 8)[1:3] = 1.5
    assert_same(g, h)


def test_field_errors():
    h = rand((2, 3), "i8")
    g = np.asarray(h)
    for args in [(numpy.int32, 5), (numpy.int32, -1), (numpy.int64, 1), (numpy.complex128,)]:
        raises_like(lambda: h.getfield(*args), lambda: g.getfield(*args))
        raises_like(lambda: h.setfield(1, *args), lambda: g.setfield(1, *args))
    hr, gr = h.copy(), g.copy()
    hr.flags.writeable = gr.flags.writeable = False
    raises_like(lambda: hr.setfield(7, numpy.int32, 0), lambda: gr.setfield(7, numpy.int32, 0))
    assert not gr.getfield(numpy.int32, 4).flags.writeable
    with pytest.raises(ValueError, match="would not be aligned"):
        g.getfield("i2", 3)                 # NumPy allows it; device loads must be aligned


# ---- resize (the method) -----------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_resize_method_dtypes(dt):
    for shape in [(2, 4), (8,), (2, 2), (3, 2), (), (0,), (5, 0), (2, 3, 2)]:
        for order in "CF":
            h = numpy.array(rand((2, 3), dt), order=order)
            g = np.asarray(h).copy(order=order)
            assert (g.flags.f_contiguous, g.flags.owndata) == (h.flags.f_contiguous, True)
            h.resize(shape, refcheck=False)
            g.resize(shape)
            assert_same(g, h)
            if h.ndim and h.size:    # (NumPy leaves 0-d and empty flags as they were)
                assert (g.flags.c_contiguous, g.flags.f_contiguous) == (h.flags.c_contiguous,
                                                                        h.flags.f_contiguous)
            assert g.flags.owndata


def test_resize_method_forms_and_views():
    h = rand((6,), "f4")
    for args in [(2, 3), ((3, 2),), ([6],), (numpy.int64(9),), (None,), ()]:
        hh, g = h.copy(), np.asarray(h)
        hh.resize(*args, refcheck=False)
        g.resize(*args)
        assert_same(g, hh)
    h0 = numpy.array(2.5)
    g0 = np.asarray(h0)
    h0.resize(3, refcheck=False)
    g0.resize(3)
    assert_same(g0, h0)
    # a view of the same size may change shape; a view keeps the old memory after its owner grows
    g = np.arange(12.0)
    v = g.reshape(3, 4)
    v.resize(4, 3)
    assert v.shape == (4, 3) and v.base is g
    w = g[:4]
    g.resize(16, refcheck=True)             # refcheck needs no check on npgpu (docstring)
    assert_same(w, numpy.arange(4.0))
    assert_same(g, numpy.concatenate([numpy.arange(12.0), numpy.zeros(4)]))


def test_resize_method_errors():
    h = numpy.arange(12.0)
    g = np.asarray(h)
    for args in [((2, -1),), (2.5,), ((2, 2), (1,))]:
        raises_like(lambda: h.copy().resize(*args), lambda: g.copy().resize(*args))
    raises_like(lambda: h.reshape(3, 4)[:, ::2].resize(2, 3),
               lambda: g.reshape(3, 4)[:, ::2].resize(2, 3))
    raises_like(lambda: h[::2].resize(4), lambda: g[::2].resize(4))
    raises_like(lambda: h[:6].resize(4), lambda: g[:6].resize(4))
