"""Basic indexing: views that share memory, __setitem__ with broadcasting and NumPy's casts."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, full_range_random

DTYPES = [numpy.dtype(t) for t in "? i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8 c8 c16".split()]
RNG = numpy.random.default_rng(7)


def rand(shape, dt):
    return full_range_random(shape, dt, RNG)


def same(g, h):
    assert isinstance(g, np.ndarray)
    assert_same(g, h)


INDICES = [
    0, -1, 2, (1, 2), (-3, -1, 0), slice(None), slice(1, 3), slice(None, None, -1), slice(3, 0, -2),
    slice(-2, None), slice(5, 1), (slice(None), 1), (Ellipsis, 1), (1, Ellipsis), (None, 1),
    (slice(None), None, slice(None, None, -1)), (Ellipsis, None), (None, Ellipsis, None),
    (1, slice(None, None, -2), None, 0), (slice(None, None, 2), slice(1, None, 3), slice(None, None, -1)),
    (), Ellipsis, (slice(0, 0),), (slice(10, 20), 0), (numpy.int64(1), numpy.int8(-1)),
]


@pytest.mark.parametrize("index", range(len(INDICES)))
def test_basic_getitem_views(index):
    idx = INDICES[index]
    h = rand((3, 4, 5), "f4")
    g = np.asarray(h)
    r, hr = g[idx], h[idx]
    hr = numpy.asarray(hr)
    same(r, hr)
    assert r.base is g and r._mem is g._mem          # a view sharing memory
    if hr.ndim:
        assert [s for s, n in zip(r.strides, r.shape) if n > 1] == \
            [s for s, n in zip(hr.strides, hr.shape) if n > 1]
    # views of views of a transposed, negative-stride array
    ht = h.transpose(2, 0, 1)[::-1]
    gt = g.transpose(2, 0, 1)[::-1]
    if idx != (-3, -1, 0) or True:
        try:
            expect = numpy.asarray(ht[idx])
        except IndexError:
            with pytest.raises(IndexError):
                gt[idx]
        else:
            same(gt[idx], expect)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_getitem_every_dtype(dt):
    h = rand((4, 6), dt)
    g = np.asarray(h)
    for idx in [(1,), (slice(None, None, -1), slice(1, None, 2)), (Ellipsis, -1), (2, 3)]:
        same(g[idx], numpy.asarray(h[idx]))
    same(g[::-1][1:, ::-3].copy(), h[::-1][1:, ::-3].copy())


def test_zero_d_and_empty_indexing():
    g0 = np.asarray(numpy.float64(3.5))
    same(g0[()], numpy.asarray(3.5))
    same(g0[...], numpy.asarray(3.5))
    same(g0[None], numpy.asarray([3.5]))
    with pytest.raises(IndexError, match="too many indices"):
        g0[0]
    e = np.zeros((0, 3))
    same(e[:, 1], numpy.zeros((0,)))
    with pytest.raises(IndexError, match="out of bounds"):
        e[0]


def test_index_errors_match_numpy():
    h = numpy.zeros((2, 3))
    g = np.zeros((2, 3))
    for idx in [2, -3, (0, 3), (0, -4), (0, 0, 0)]:
        with pytest.raises(IndexError) as he:
            h[idx]
        with pytest.raises(IndexError) as ge:
            g[idx]
        assert str(ge.value) == str(he.value)
    with pytest.raises(IndexError, match="single ellipsis"):
        g[..., ...]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        g[::0]
    with pytest.raises(IndexError):
        g[1.0]


def test_view_writes_show_in_base():
    h = rand((4, 5), "i4")
    g = np.asarray(h)
    v = g[1:3, ::-2]
    v[...] = 7
    h[1:3, ::-2] = 7
    same(g, h)
    g[..., 0][::-1][1] = -9
    h[..., 0][::-1][1] = -9
    same(g, h)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_setitem_scalar_every_dtype(dt):
    h = rand((4, 5), dt)
    g = np.asarray(h)
    v = rand((), dt)[()]
    for idx in [(1,), (slice(None), 2), (slice(None, None, -2), slice(1, 4)), (Ellipsis,), (3, 4)]:
        h[idx] = v
        g[idx] = v
        same(g, h)
    h[0, 0] = 1
    g[0, 0] = 1
    h[1] = True
    g[1] = True
    same(g, h)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_setitem_array_with_broadcast_and_cast(dt):
    h = rand((4, 6), dt)
    g = np.asarray(h)
    src = rand((6,), "f8" if dt.kind in "fcb" else dt)
    for idx in [Ellipsis, (slice(None, None, -1),), (slice(1, 3),)]:
        with numpy.errstate(all="ignore"):
            h[idx] = src
        g[idx] = np.asarray(src)
        same(g, h)
    col = rand((4, 1), dt)
    h[:, ::-2] = col
    g[:, ::-2] = np.asarray(col)            # (4, 1) broadcast to (4, 3)
    same(g, h)
    h[2] = col[:3, 0].repeat(2)             # a host NumPy array
    g[2] = col[:3, 0].repeat(2)
    same(g, h)
    h[1, 1:3] = [1, 0]                       # a list
    g[1, 1:3] = [1, 0]
    same(g, h)


def test_setitem_overlapping_self():
    h = rand((10,), "i8")
    g = np.asarray(h)
    h[1:] = h[:-1].copy()
    g[1:] = g[:-1]
    same(g, h)
    h[::-1] = h.copy()
    g[::-1] = g
    same(g, h)
    h2 = rand((4, 4), "f4")
    g2 = np.asarray(h2)
    h2[...] = h2.T.copy()
    g2[...] = g2.T
    same(g2, h2)


def test_setitem_python_scalar_rules():
    g = np.zeros(3, numpy.int8)
    with pytest.raises(OverflowError):
        g[0] = 300
    with pytest.raises(ValueError, match="NaN"):
        g[1] = float("nan")
    with pytest.raises(TypeError):
        g[1] = 1j
    g[2] = 2.9                                   # NumPy truncates
    g[0] = -1
    same(g, numpy.array([-1, 0, 2], numpy.int8))
    u = np.zeros(2, numpy.uint8)
    with pytest.raises(OverflowError):
        u[0] = -1
    f = np.zeros(2, numpy.float16)
    with numpy.errstate(over="ignore"):         # NumPy warns about the overflow to inf, as here
        f[0] = 1e6
    assert numpy.isinf(f.get()[0])


def test_setitem_shape_errors():
    g = np.zeros((3, 4))
    with pytest.raises(ValueError, match="broadcast"):
        g[...] = np.zeros(3)
    with pytest.raises(ValueError):
        g[0] = numpy.zeros(5)
    with pytest.raises(IndexError):
        g[3] = 1
    with pytest.raises(TypeError):
        g[0] = ["a", object()]
