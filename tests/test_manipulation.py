"""Shape manipulation: views where NumPy gives views (checked against np.shares_memory), joins,
splits, flips and copyto."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, full_range_random

DTYPES = [numpy.dtype(t) for t in "? i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8 c8 c16".split()]
RNG = numpy.random.default_rng(5)


def rand(shape, dt):
    return full_range_random(shape, dt, RNG)


def same(g, h):
    assert isinstance(g, np.ndarray)
    assert_same(g, h)


def check_view(g_res, g_src, h_res, h_src):
    same(g_res, numpy.asarray(h_res))
    if h_res.size:
        assert (g_res._mem is g_src._mem) == numpy.shares_memory(h_res, h_src)


def pairs(h, g):
    return [(h, g), (h.T, g.T), (h[::-1, ..., ::2], g[::-1, ..., ::2])]


# ---- views ---------------------------------------------------------------------------------------
def test_reshape_ravel_transpose_functions():
    h = rand((2, 3, 4), "f4")
    g = np.asarray(h)
    for hv, gv in pairs(h, g):
        check_view(np.reshape(gv, (4, -1)), g, numpy.reshape(hv, (4, -1)), h)
        check_view(np.reshape(gv, (4, -1), order="F"), g, numpy.reshape(hv, (4, -1), order="F"), h)
        check_view(np.reshape(gv, shape=(-1,)), g, numpy.reshape(hv, shape=(-1,)), h)
        check_view(np.ravel(gv), g, numpy.ravel(hv), h)
        check_view(np.ravel(gv, "K"), g, numpy.ravel(hv, "K"), h)
        check_view(np.transpose(gv), g, numpy.transpose(hv), h)
        check_view(np.transpose(gv, (1, 2, 0)), g, numpy.transpose(hv, (1, 2, 0)), h)
        check_view(np.permute_dims(gv, (2, 0, 1)), g, numpy.permute_dims(hv, (2, 0, 1)), h)
        check_view(np.matrix_transpose(gv), g, numpy.matrix_transpose(hv), h)
        check_view(np.swapaxes(gv, 0, -1), g, numpy.swapaxes(hv, 0, -1), h)
    with pytest.raises(ValueError, match="cannot reshape"):
        np.reshape(g, (5, 5))
    with pytest.raises(TypeError):
        np.reshape(g, (24,), newshape=(24,))


def test_moveaxis_expand_squeeze():
    h = rand((2, 1, 3, 4), "i2")
    g = np.asarray(h)
    for src, dst in [(0, -1), (-1, 0), ((0, 1), (2, 3)), ([3, 0], [0, 1])]:
        check_view(np.moveaxis(g, src, dst), g, numpy.moveaxis(h, src, dst), h)
    with pytest.raises(ValueError, match="same number of elements"):
        np.moveaxis(g, (0, 1), 0)
    with pytest.raises(numpy.exceptions.AxisError):
        np.moveaxis(g, 4, 0)
    with pytest.raises(ValueError, match="repeated axis"):
        np.moveaxis(g, (0, 0), (1, 2))
    for ax in [0, -1, 2, (0, 2), (-1, 0, 3)]:
        check_view(np.expand_dims(g, ax), g, numpy.expand_dims(h, ax), h)
    with pytest.raises(numpy.exceptions.AxisError):
        np.expand_dims(g, 6)
    check_view(np.squeeze(g), g, numpy.squeeze(h), h)
    check_view(np.squeeze(g, 1), g, numpy.squeeze(h, 1), h)
    with pytest.raises(ValueError):
        np.squeeze(g, 0)
    g0 = np.asarray(numpy.float32(2))
    same(np.expand_dims(g0, 0), numpy.expand_dims(numpy.float32(2), 0))


def test_broadcast_to_and_arrays():
    h = rand((3, 1), "c8")
    g = np.asarray(h)
    for shape in [(3, 4), (2, 3, 5), (3, 1), (0, 3, 1)]:
        r = np.broadcast_to(g, shape)
        hr = numpy.broadcast_to(h, shape)
        same(r, hr)
        assert r._mem is g._mem
        assert [s for s, n in zip(r.strides, shape) if n > 1] == [s for s, n in zip(hr.strides, shape) if n > 1]
    same(np.broadcast_to(np.asarray(numpy.int8(4)), 5), numpy.broadcast_to(numpy.int8(4), 5))
    with pytest.raises(ValueError, match="broadcast"):
        np.broadcast_to(g, (4, 4))
    with pytest.raises(ValueError):
        np.broadcast_to(g, (3,))
    a, b, c = rand((4, 1, 3), "f8"), rand((5, 1), "i4"), rand((), "u1")
    ga, gb, gc = np.broadcast_arrays(np.asarray(a), np.asarray(b), np.asarray(c))
    ha, hb, hc = numpy.broadcast_arrays(a, b, c)
    for x, y in [(ga, ha), (gb, hb), (gc, hc)]:
        same(x, y)
        assert x.strides == y.strides
    with pytest.raises(ValueError, match="mismatch"):
        np.broadcast_arrays(np.zeros(3), np.zeros(4))
    assert np.broadcast_shapes((3, 1), (4,)) == (3, 4)
    same(np.broadcast_to(g, (2, 3, 4)).copy(), numpy.broadcast_to(h, (2, 3, 4)).copy())


def test_atleast():
    for h in [numpy.float64(3), rand((4,), "i8"), rand((2, 3), "f2"), rand((2, 3, 4), "u1")]:
        g = np.asarray(h)
        for gf, hf in [(np.atleast_1d, numpy.atleast_1d), (np.atleast_2d, numpy.atleast_2d),
                       (np.atleast_3d, numpy.atleast_3d)]:
            same(gf(g), hf(h))
            assert gf(g)._mem is g._mem
    r = np.atleast_2d(np.arange(3), np.asarray(5))
    assert isinstance(r, tuple) and [x.shape for x in r] == [(1, 3), (1, 1)]


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_flips_are_views(dt):
    h = rand((3, 4, 2), dt)
    g = np.asarray(h)
    for ax in [None, 0, 1, -1, (0, 2)]:
        check_view(np.flip(g, ax), g, numpy.flip(h, ax), h)
    check_view(np.fliplr(g), g, numpy.fliplr(h), h)
    check_view(np.flipud(g), g, numpy.flipud(h), h)
    check_view(np.flip(g.T[1:], 0), g, numpy.flip(h.T[1:], 0), h)
    with pytest.raises(ValueError):
        np.fliplr(np.arange(3))
    with pytest.raises(ValueError):
        np.flipud(np.asarray(numpy.float64(1)))


# ---- joins -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_concatenate_every_dtype(dt):
    a, b = rand((2, 3), dt), rand((4, 3), dt)
    ga, gb = np.asarray(a), np.asarray(b)
    same(np.concatenate([ga, gb]), numpy.concatenate([a, b]))
    same(np.concatenate([ga.T, gb.T[:, ::-1]], axis=1), numpy.concatenate([a.T, b.T[:, ::-1]], axis=1))
    same(np.concatenate([ga, gb], axis=None), numpy.concatenate([a, b], axis=None))
    same(np.concatenate([ga[:0], gb]), numpy.concatenate([a[:0], b]))


@pytest.mark.parametrize("dt", ["f4", "i8", "c16", "?", "f2"], ids=str)
def test_concatenate_contiguous_blocks(dt):
    # the copy-a-piece path (lists and tuples of C-contiguous arrays of one dtype along axis 0)
    # and the inputs that leave it for the full path: another dtype, a view, a rank or trailing
    # shape that differs, a numpy integer axis, 0-d and empty pieces
    a, b, c = rand((3, 2, 4), dt), rand((1, 2, 4), dt), rand((0, 2, 4), dt)
    ga, gb, gc = np.asarray(a), np.asarray(b), np.asarray(c)
    same(np.concatenate([ga, gb, gc]), numpy.concatenate([a, b, c]))
    same(np.concatenate((gc, gb, ga)), numpy.concatenate((c, b, a)))
    same(np.concatenate([ga]), numpy.concatenate([a]))
    same(np.concatenate([ga, gb], axis=numpy.int64(0)), numpy.concatenate([a, b], axis=0))
    same(np.concatenate([ga[:, :, ::2], gb[:, :, ::2]]),
         numpy.concatenate([a[:, :, ::2], b[:, :, ::2]]))
    same(np.concatenate([ga, gb.astype("f2")]), numpy.concatenate([a, b.astype("f2")]))
    x, y = rand(5, dt), rand(3, dt)
    r = np.concatenate([np.asarray(x), np.asarray(y)])
    same(r, numpy.concatenate([x, y]))
    r[0] = r[1]                                   # a new array, apart from its pieces
    same(np.asarray(x), x)
    with pytest.raises(ValueError, match="same number of dimensions"):
        np.concatenate([ga, np.asarray(x)])
    with pytest.raises(ValueError, match="must match exactly"):
        np.concatenate([ga, np.asarray(rand((1, 3, 4), dt))])
    with pytest.raises(ValueError, match="zero-dimensional"):
        np.concatenate([np.asarray(x)[0], np.asarray(y)[0]])


def test_concatenate_promotion_casting_out():
    a, b = rand((2, 3), "i2"), rand((1, 3), "f4")
    ga, gb = np.asarray(a), np.asarray(b)
    same(np.concatenate([ga, gb]), numpy.concatenate([a, b]))
    same(np.concatenate([ga, gb], dtype=numpy.int64, casting="unsafe"),
         numpy.concatenate([a, b], dtype=numpy.int64, casting="unsafe"))
    with pytest.raises(TypeError, match="Cannot cast"):
        np.concatenate([ga, gb], dtype=numpy.int64)
    out = np.zeros((3, 3), numpy.float64)
    r = np.concatenate([ga, gb], out=out)
    assert r is out
    same(out, numpy.concatenate([a, b]).astype(numpy.float64))
    with pytest.raises(ValueError):
        np.concatenate([ga, gb], out=np.zeros((4, 3)))
    with pytest.raises(TypeError):
        np.concatenate([ga, gb], out=out, dtype=numpy.float64)
    same(np.concatenate([ga, b]), numpy.concatenate([a, b]))       # host operand


def test_concatenate_errors_match_numpy():
    cases = [
        ([numpy.zeros((2, 3)), numpy.zeros((2, 4))], 0),
        ([numpy.zeros((2, 3)), numpy.zeros(3)], 0),
        ([numpy.zeros(()), numpy.zeros(())], 0),
        ([], 0),
    ]
    for arrs, axis in cases:
        with pytest.raises(ValueError) as he:
            numpy.concatenate(arrs, axis)
        with pytest.raises(ValueError) as ge:
            np.concatenate([np.asarray(x) for x in arrs], axis)
        assert str(ge.value) == str(he.value)
    with pytest.raises(numpy.exceptions.AxisError):
        np.concatenate([np.zeros(2), np.zeros(2)], axis=1)


def test_stack_family():
    a, b = rand((3, 4), "f8"), rand((3, 4), "f8")
    ga, gb = np.asarray(a), np.asarray(b)
    for ax in (0, 1, 2, -1):
        same(np.stack([ga, gb.T.T[::-1]], axis=ax), numpy.stack([a, b[::-1]], axis=ax))
    same(np.stack([ga, gb], dtype=numpy.float32), numpy.stack([a, b], dtype=numpy.float32))
    with pytest.raises(ValueError, match="same shape"):
        np.stack([ga, gb[:2]])
    with pytest.raises(ValueError, match="at least one array"):
        np.stack([])
    v, w = rand((4,), "i4"), rand((4,), "i4")
    gv, gw = np.asarray(v), np.asarray(w)
    for gf, hf in [(np.vstack, numpy.vstack), (np.hstack, numpy.hstack), (np.column_stack, numpy.column_stack),
                   (np.dstack, numpy.dstack)]:
        same(gf([gv, gw]), hf([v, w]))
        same(gf([ga, gb]), hf([a, b]))
    same(np.hstack([np.asarray(numpy.int32(1)), gv]), numpy.hstack([numpy.int32(1), v]))
    v16, w16 = v % 1000, w % 1000                  # in float16's range
    same(np.vstack([np.asarray(v16), np.asarray(w16)], dtype=numpy.float16),
         numpy.vstack([v16, w16], dtype=numpy.float16))


# ---- splits ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("how", [3, [1, 4], [2, 2, 9], [5, 1], 1, 7])
def test_array_split_views(how):
    h = rand((7, 4), "u4")
    g = np.asarray(h)
    for axis in (0,):
        gs, hs = np.array_split(g, how, axis), numpy.array_split(h, how, axis)
        assert len(gs) == len(hs)
        for x, y in zip(gs, hs):
            check_view(x, g, y, h)
    gs, hs = np.array_split(g.T, 3, axis=1), numpy.array_split(h.T, 3, axis=1)
    for x, y in zip(gs, hs):
        check_view(x, g, y, h)


def test_split_family():
    h = rand((4, 6, 2), "i8")
    g = np.asarray(h)
    for gf, hf, arg in [(np.split, numpy.split, 2), (np.split, numpy.split, [1, 3]), (np.hsplit, numpy.hsplit, 3),
                        (np.vsplit, numpy.vsplit, [1]), (np.dsplit, numpy.dsplit, 2)]:
        for x, y in zip(gf(g, arg), hf(h, arg)):
            check_view(x, g, y, h)
    with pytest.raises(ValueError, match="equal division"):
        np.split(g, 3)
    with pytest.raises(ValueError, match="larger than 0"):
        np.array_split(g, 0)
    with pytest.raises(ValueError):
        np.vsplit(np.arange(3), 1)


# ---- copyto --------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_copyto_where_every_dtype(dt):
    h = rand((3, 4), dt)
    src = rand((4,), dt)
    mask = RNG.random((3, 4)) > 0.5
    g = np.asarray(h)
    numpy.copyto(h, src, where=mask)
    np.copyto(g, np.asarray(src), where=np.asarray(mask))
    same(g, h)
    numpy.copyto(h[::-1, ::2], src[:2], where=mask[0, :2])
    np.copyto(g[::-1, ::2], np.asarray(src[:2]), where=mask[0, :2])
    same(g, h)
    v = rand((), dt)[()]
    numpy.copyto(h, v, where=mask.T.T)
    np.copyto(g, v, where=np.asarray(mask))
    same(g, h)


def test_copyto_casting_and_errors():
    h = rand((2, 3), "i4")
    g = np.asarray(h)
    f = rand((3,), "f8")
    with pytest.raises(TypeError, match="same_kind"):
        np.copyto(g, np.asarray(f))
    np.copyto(g, np.asarray(f), casting="unsafe")
    numpy.copyto(h, f, casting="unsafe")
    same(g, h)
    np.copyto(g, np.asarray(rand((2, 1), "i2")), casting="safe")        # broadcast, safe cast
    np.copyto(g, 7)                                                     # Python int: NEP 50 weak
    numpy.copyto(h, 7)
    same(g, h)
    with pytest.raises(TypeError):
        np.copyto(g, 1.5)                                               # float into int: same_kind fails
    with pytest.raises(OverflowError):
        np.copyto(np.zeros(2, numpy.int8), 300)
    with pytest.raises(ValueError, match="broadcast"):
        np.copyto(g, np.zeros(4, numpy.int32))
    with pytest.raises(TypeError):
        np.copyto(g, np.zeros(3, numpy.int32), where=np.asarray([1, 0, 1]))   # where must be bool
    with pytest.raises(TypeError):
        np.copyto(h, g)
    g2 = np.asarray(numpy.arange(6.0))
    np.copyto(g2[1:], g2[:-1])                                          # overlapping source
    same(g2, numpy.array([0.0, 0, 1, 2, 3, 4]))
    np.copyto(g2, 9.0, where=False)
    same(g2, numpy.array([0.0, 0, 1, 2, 3, 4]))


def test_reshape_repeats_of_one_layout_are_the_same_views():
    """Reshape remembers a view's layout per (layout, request, order): repeats on other arrays
    of the layout give NumPy's views; copies, errors and unhashable requests as NumPy's."""
    for _ in range(2):
        h = numpy.random.default_rng(3).uniform(-1, 1, (4, 6)).astype("f4")
        g = np.asarray(h)
        for view in (lambda z: z, lambda z: z.T, lambda z: z[:, ::2], lambda z: z[::-1]):
            for req, order in (((3, 8), "C"), ((-1,), "C"), (24, "F"), ((2, -1, 3), "A"),
                               ((numpy.int64(8), 3), "C")):
                hv = view(h)
                try:
                    want = hv.reshape(req, order=order)
                except ValueError:
                    continue
                got = view(g).reshape(req, order=order)
                assert got.shape == want.shape and got.strides == want.strides or \
                    not numpy.shares_memory(want, hv)
                numpy.testing.assert_array_equal(got.get(), want)
    with pytest.raises(TypeError):
        g.reshape((2, [12]))
    with pytest.raises(ValueError, match="cannot reshape array of size 24 into shape"):
        g.reshape(5, 5)
