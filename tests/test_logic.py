"""Logic functions: where (3 and 1 arguments), select, isclose, allclose, array_equal,
array_equiv, iscomplex, isreal, iscomplexobj, isrealobj, isdtype, shape, ndim, size -- against
NumPy on random data, every dtype, NaN / inf, broadcasting, layouts, NumPy's errors."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import (ALL_DTYPES, LAYOUTS, assert_same, full_range_random, make_layout,
                      raises_like)

RNG = numpy.random.default_rng(1304)


def rand(shape, dt):
    return full_range_random(shape, dt, RNG, int_limit=100)


def rmask(shape):
    return RNG.random(shape) < 0.5


def with_specials(h):
    """Random data with NaN, +-inf and -0.0 planted (inexact dtypes)."""
    h = h.copy()
    if h.dtype.kind in "fc" and h.size >= 4:
        flat = h.reshape(-1)
        flat[0], flat[1], flat[2], flat[3] = numpy.nan, numpy.inf, -numpy.inf, -0.0
        if h.dtype.kind == "c" and h.size >= 5:
            flat[4] = complex(1.0, numpy.nan)
    return h


# ---- where ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_where_every_dtype(dt):
    c, x, y = rmask((4, 6)), with_specials(rand((4, 6), dt)), rand((4, 6), dt)
    got = np.where(np.asarray(c), np.asarray(x), np.asarray(y))
    assert_same(got, numpy.where(c, x, y))
    # a repeat call takes the cached plan (one allocation, one launch): same answer
    assert_same(np.where(np.asarray(c), np.asarray(x), np.asarray(y)), numpy.where(c, x, y))


@pytest.mark.parametrize("cdt", ALL_DTYPES, ids=str)
def test_where_condition_of_any_dtype(cdt):
    # the condition is tested in its own dtype inside the kernel: nonzero, NaN true, -0.0 false
    c = with_specials(rand(20, cdt))
    c[5:8] = 0
    x, y = rand(20, "f4"), rand(20, "f4")
    assert_same(np.where(np.asarray(c), np.asarray(x), np.asarray(y)), numpy.where(c, x, y))


@pytest.mark.parametrize("pair", [("i1", "u1"), ("i4", "f4"), ("u8", "i8"), ("f2", "f8"),
                                  ("b1", "c8"), ("f4", "c16"), ("u2", "f2"), ("i8", "u4")],
                         ids=str)
def test_where_promotes_mixed_dtypes(pair):
    c, x, y = rmask(15), rand(15, pair[0]), rand(15, pair[1])
    assert_same(np.where(np.asarray(c), np.asarray(x), np.asarray(y)), numpy.where(c, x, y))
    assert_same(np.where(np.asarray(c), np.asarray(y), np.asarray(x)), numpy.where(c, y, x))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("scalar", [3, -2.5, 1 + 2j, True, 300, numpy.float32(1.5), numpy.int16(-7)],
                         ids=repr)
@pytest.mark.matrix
def test_where_python_scalars_are_weak(dt, scalar):
    c, y = rmask(9), rand(9, dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # NumPy may warn on an out-of-range cast
        want = numpy.where(c, scalar, y)
        want2 = numpy.where(c, y, scalar)
    assert_same(np.where(np.asarray(c), scalar, np.asarray(y)), want)
    assert_same(np.where(np.asarray(c), np.asarray(y), scalar), want2)


def test_where_scalars_and_broadcasting():
    c, x, y = rmask((3, 1)), rand((1, 4), "f4"), rand(4, "i2")
    assert_same(np.where(np.asarray(c), np.asarray(x), np.asarray(y)), numpy.where(c, x, y))
    assert_same(np.where(np.asarray(c), 1.5, np.asarray(y)), numpy.where(c, 1.5, y))
    assert_same(np.where(True, 1, 2), numpy.where(True, 1, 2))            # all host scalars: 0-d
    assert_same(np.where(c.tolist(), x.tolist(), 0), numpy.where(c.tolist(), x.tolist(), 0))
    assert_same(np.where(numpy.bool_(False), np.asarray(x), np.asarray(y)),
                numpy.where(False, x, y))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_where_layouts(layout):
    h = rand((5, 6), "f8")
    d, hh = make_layout(h, layout)
    c = numpy.asarray(hh) > 0
    y = rand(hh.shape, "f8")
    assert_same(np.where(np.asarray(c), d, np.asarray(y)), numpy.where(c, hh, y))
    assert_same(np.where(d > 0, np.asarray(y), d), numpy.where(hh > 0, y, hh))


def test_where_errors():
    c = rmask(2)
    raises_like(lambda: numpy.where(c, 1), lambda: np.where(np.asarray(c), 1))
    raises_like(lambda: numpy.where(c, y=1), lambda: np.where(np.asarray(c), y=1))
    raises_like(lambda: numpy.where(c, numpy.zeros(3), 1),
                lambda: np.where(np.asarray(c), np.zeros(3), 1))
    raises_like(lambda: numpy.where(numpy.zeros((2, 3), bool), numpy.zeros((4, 5)), 1),
                lambda: np.where(np.zeros((2, 3), bool), np.zeros((4, 5)), 1))


# ---- select -----------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_select_every_dtype(dt):
    conds = [rmask((4, 5)) for _ in range(3)]
    choices = [rand((4, 5), dt) for _ in range(3)]
    default = rand((), dt)[()]
    got = np.select([np.asarray(c) for c in conds], [np.asarray(ch) for ch in choices], default)
    assert_same(got, numpy.select(conds, choices, default))
    assert_same(np.select([np.asarray(conds[0])], [np.asarray(choices[0])]),
                numpy.select([conds[0]], [choices[0]]))


def test_select_scalars_broadcasting_promotion():
    c1, c2 = rmask((3, 1)), rmask(4)
    a, b = rand((3, 4), "u1"), rand(4, "f4")
    assert_same(np.select([np.asarray(c1), np.asarray(c2)], [np.asarray(a), np.asarray(b)], -1),
                numpy.select([c1, c2], [a, b], -1))
    # weak Python scalars (NEP 50) and a default out of the choices' range (NumPy wraps it)
    i = a.astype("i1")
    assert_same(np.select([np.asarray(c2), c2[::-1].tolist()], [np.asarray(i), 300], default=-1),
                numpy.select([c2, c2[::-1].tolist()], [i, 300], default=-1))
    assert_same(np.select([np.asarray(c2)], [np.asarray(a)], default=-1),
                numpy.select([c2], [a], default=-1))
    assert_same(np.select([np.asarray(c1)], [2.5 + 1j]), numpy.select([c1], [2.5 + 1j]))
    assert_same(np.select([True, False], [1, 2]), numpy.select([True, False], [1, 2]))
    # non-contiguous conditions and choices
    big = rand((6, 8), "f8")
    cm = rmask((8, 6))
    assert_same(np.select([np.asarray(cm).T, np.asarray(big) > 0], [np.asarray(big)[:, ::-1], 0.5]),
                numpy.select([cm.T, big > 0], [big[:, ::-1], 0.5]))
    e = numpy.zeros((0, 3), bool)
    assert_same(np.select([np.asarray(e)], [np.zeros((0, 3))]), numpy.select([e], [numpy.zeros((0, 3))]))


def test_select_errors():
    c = rmask(3)
    raises_like(lambda: numpy.select([c], [1, 2]), lambda: np.select([np.asarray(c)], [1, 2]))
    raises_like(lambda: numpy.select([], []), lambda: np.select([], []))
    raises_like(lambda: numpy.select([c, c.astype(int)], [1, 2]),
                lambda: np.select([np.asarray(c), np.asarray(c.astype(int))], [1, 2]))
    raises_like(lambda: numpy.select([c, 1], [1, 2]), lambda: np.select([np.asarray(c), 1], [1, 2]))
    raises_like(lambda: numpy.select([c, rmask(4)], [1, 2]),
                lambda: np.select([np.asarray(c), np.asarray(rmask(4))], [1, 2]))
    raises_like(lambda: numpy.select([c], [numpy.zeros(3)], numpy.zeros(2)),
                lambda: np.select([np.asarray(c)], [np.zeros(3)], np.zeros(2)))
    u = rand(3, "u1")
    raises_like(lambda: numpy.select([c, c], [u, 7]),
                lambda: np.select([np.asarray(c), np.asarray(c)], [np.asarray(u), 7]))
    raises_like(lambda: numpy.select([c], [numpy.zeros(4)]),
                lambda: np.select([np.asarray(c)], [np.zeros(4)]))


# ---- isclose / allclose -----------------------------------------------------------------------
def close_pair(shape, dt):
    """(a, b): b near a for about half the elements, NaN / inf planted in both."""
    a = rand(shape, dt)
    b = a.copy()
    if dt.kind in "fc":
        noise = rand(shape, dt) * dt.type(1e-6 if dt.itemsize > 4 or dt.kind == "c" else 1e-3)
        b = (a + noise).astype(dt)
        far = rmask(shape)
        b[far] = rand(shape, dt)[far]
        fa, fb = a.reshape(-1), b.reshape(-1)
        fa[:6] = [numpy.nan, numpy.nan, numpy.inf, numpy.inf, -numpy.inf, 1.0]
        fb[:6] = [numpy.nan, 1.0, numpy.inf, -numpy.inf, -numpy.inf, numpy.inf]
    else:
        far = rmask(shape)
        b[far] = rand(shape, dt)[far]
    return a, b


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_every_dtype(dt, equal_nan):
    a, b = close_pair((6, 7), dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = numpy.isclose(a, b, equal_nan=equal_nan)
        want2 = numpy.isclose(b, a, rtol=1e-3, atol=0.5, equal_nan=equal_nan)
    assert_same(np.isclose(np.asarray(a), np.asarray(b), equal_nan=equal_nan), want)
    assert_same(np.isclose(np.asarray(b), np.asarray(a), rtol=1e-3, atol=0.5, equal_nan=equal_nan),
                want2)
    assert np.allclose(np.asarray(a), np.asarray(a), equal_nan=True) is True
    assert np.allclose(np.asarray(a), np.asarray(b), equal_nan=equal_nan) is bool(want.all())


def test_isclose_integers_and_mixed_dtypes():
    # abs(INT_MIN - INT_MAX) must not wrap: NumPy makes b inexact first
    for dt in ("i1", "i2", "i4", "i8"):
        info = numpy.iinfo(dt)
        a = numpy.array([info.min, info.max, 5, -3], dt)
        b = numpy.array([info.max, info.min, 5, -4], dt)
        assert_same(np.isclose(np.asarray(a), np.asarray(b)), numpy.isclose(a, b))
    for da, db in (("i4", "f2"), ("u1", "f4"), ("f2", "f8"), ("c8", "f4"), ("b1", "i8")):
        a, b = rand(12, da), rand(12, db)
        b[:6] = numpy.real(a[:6])
        assert_same(np.isclose(np.asarray(a), np.asarray(b), atol=2), numpy.isclose(a, b, atol=2))


@pytest.mark.parametrize("dt", ["f2", "f4", "f8", "c8", "i2", "u4"])
def test_isclose_python_scalars(dt):
    a = rand(10, dt)
    for s in (3, 2.5, -1 + 1j, True, numpy.float64(2.5), numpy.float32(3)):
        assert_same(np.isclose(np.asarray(a), s, atol=1), numpy.isclose(a, s, atol=1))
        assert_same(np.isclose(s, np.asarray(a), atol=1), numpy.isclose(s, a, atol=1))
    assert_same(np.isclose(1.0, 1.0 + 1e-9), numpy.asarray(numpy.isclose(1.0, 1.0 + 1e-9)))


def test_isclose_tolerance_arrays_broadcasting_layouts():
    a, b = close_pair((4, 5), numpy.dtype("f4"))
    rtol, atol = numpy.abs(rand(5, "f4")) * 1e-3, numpy.abs(rand((4, 1), "f8"))
    assert_same(np.isclose(np.asarray(a), np.asarray(b), rtol=np.asarray(rtol), atol=np.asarray(atol)),
                numpy.isclose(a, b, rtol=rtol, atol=atol))
    assert_same(np.isclose(np.asarray(a), np.asarray(b[0]), atol=[0.5] * 5),
                numpy.isclose(a, b[0], atol=[0.5] * 5))
    for layout in LAYOUTS:
        d, h = make_layout(a, layout)
        assert_same(np.isclose(d, np.asarray(h.copy()) + 1e-6),
                    numpy.isclose(h, h + numpy.float32(1e-6)))


def test_isclose_invalid_tolerance_warns():
    a = rand(4, "f8")
    with pytest.warns(RuntimeWarning, match="One of rtol or atol is not valid"):
        np.isclose(np.asarray(a), np.asarray(a), atol=numpy.nan)
    with pytest.warns(RuntimeWarning, match="One of rtol or atol is not valid"):
        np.isclose(np.asarray(a), np.asarray(a), rtol=np.asarray([1e-5, numpy.inf, 0, 0]))
    with numpy.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        np.isclose(np.asarray(a), np.asarray(a), atol=numpy.inf)


# ---- array_equal / array_equiv ----------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_array_equal_every_dtype(dt):
    a = with_specials(rand((3, 5), dt))
    b = a.copy()
    for eq_nan in (False, True):
        assert np.array_equal(np.asarray(a), np.asarray(b), equal_nan=eq_nan) is \
            numpy.array_equal(a, b, equal_nan=eq_nan)
    d = np.asarray(a)
    assert np.array_equal(d, d, equal_nan=True) is True
    assert np.array_equal(d, d) is numpy.array_equal(a, a)
    b.reshape(-1)[-1] = b.reshape(-1)[0] if dt.kind == "b" and b.reshape(-1)[0] != b.reshape(-1)[-1] \
        else rand((), dt)[()] + (dt.type(1) if dt.kind != "b" else True)
    assert np.array_equal(np.asarray(a), np.asarray(b)) is numpy.array_equal(a, b)


def test_array_equal_shapes_lists_layouts():
    a = rand((4, 6), "f4")
    assert np.array_equal(np.asarray(a), np.asarray(a[:3])) is False
    assert np.array_equal(np.asarray(a), a.tolist()) is True
    assert np.array_equal(np.asarray(a), a.astype("f8")) is True
    assert np.array_equal([1, 2], [[1, 2]]) is False
    assert np.array_equal(np.asarray(a).T, np.asarray(a.T.copy())) is True
    assert np.array_equal(np.zeros((0, 3)), np.zeros((0, 3))) is True
    assert np.array_equal(np.asarray(numpy.float64(numpy.nan)), numpy.nan, equal_nan=True) is True
    c = numpy.array([complex(numpy.nan, 1), 2], "c16")
    assert np.array_equal(np.asarray(c), numpy.array([complex(1, numpy.nan), 2]), equal_nan=True) \
        is numpy.array_equal(c, numpy.array([complex(1, numpy.nan), 2]), equal_nan=True)


def test_array_equiv():
    a = rand((3, 4), "i4")
    for b in (a[0], a, a[:1], numpy.tile(a[0], (3, 1)), a[:2], a.T, a + 1, a[0, :1]):
        assert np.array_equiv(np.asarray(a), np.asarray(b)) is numpy.array_equiv(a, b)
    assert np.array_equiv([1, 2], [[1, 2], [1, 2]]) is True
    assert np.array_equiv(np.zeros((0, 3)), np.zeros(3)) is True


# ---- complex or real --------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_iscomplex_isreal(dt):
    h = rand((4, 5), dt)
    if dt.kind == "c":
        h.reshape(-1)[:5] = [1, 2 + 0j, complex(0, -0.0), complex(0, numpy.nan), 3j]
    for layout in ("contiguous", "negative", "transposed", "zero_d", "empty"):
        d, hh = make_layout(h, layout)
        assert_same(np.iscomplex(d), numpy.asarray(numpy.iscomplex(hh)))
        assert_same(np.isreal(d), numpy.asarray(numpy.isreal(hh)))
    assert np.iscomplexobj(np.asarray(h)) is numpy.iscomplexobj(h)
    assert np.isrealobj(np.asarray(h)) is numpy.isrealobj(h)


def test_complexobj_of_host_data():
    for x in (1, 1.5, 1j, [1, 2j], numpy.complex64(1), numpy.zeros(2), [[1.0]]):
        assert np.iscomplexobj(x) is numpy.iscomplexobj(x)
        assert np.isrealobj(x) is numpy.isrealobj(x)
    assert_same(np.iscomplex([1, 2j]), numpy.iscomplex([1, 2j]))
    assert_same(np.isreal([1, 2j]), numpy.isreal([1, 2j]))


# ---- dtype and shape inspection ---------------------------------------------------------------
def test_isdtype():
    kinds = ("bool", "signed integer", "unsigned integer", "integral", "real floating",
             "complex floating", "numeric", ("integral", "real floating"), numpy.float32)
    for dt in ALL_DTYPES:
        for kind in kinds:
            assert np.isdtype(dt, kind) == numpy.isdtype(dt, kind)
    assert np.isdtype(np.asarray([1.0]).dtype, "real floating") is True
    raises_like(lambda: numpy.isdtype(numpy.float32, "floats"),
                lambda: np.isdtype(numpy.float32, "floats"))
    raises_like(lambda: numpy.isdtype(1, "bool"), lambda: np.isdtype(1, "bool"))


def test_shape_ndim_size():
    h = rand((2, 3, 4), "f4")
    d = np.asarray(h)
    for obj, host in ((d, h), (d[:, ::2], h[:, ::2]), (np.asarray(h[0, 0, 0]), h[0, 0, 0]),
                      ([[1, 2, 3]], [[1, 2, 3]]), (5, 5), (np.zeros((0, 2)), numpy.zeros((0, 2)))):
        assert np.shape(obj) == numpy.shape(host)
        assert np.ndim(obj) == numpy.ndim(host)
        assert np.size(obj) == numpy.size(host)
    for axis in (0, 1, -1, (0, 2), (-1, 0)):
        assert np.size(d, axis) == numpy.size(h, axis)
    raises_like(lambda: numpy.size(h, 3), lambda: np.size(d, 3))
    raises_like(lambda: numpy.size(h, (0, 0)), lambda: np.size(d, (0, 0)))


# ---- where(condition) = nonzero(condition) ----------------------------------------------------
@pytest.mark.parametrize("dt", ["b1", "i4", "f8", "c8"])
def test_where_one_argument_is_nonzero(dt):
    h = rand((4, 5), dt)
    h[rmask(h.shape)] = 0
    for got, want in zip(np.where(np.asarray(h)), numpy.where(h)):
        assert_same(got, want)
    for got, want in zip(np.where(np.asarray(h).T[::-1]), numpy.where(h.T[::-1])):
        assert_same(got, want)
    for got, want in zip(np.where(h.tolist()), numpy.where(h.tolist())):
        assert_same(got, want)
