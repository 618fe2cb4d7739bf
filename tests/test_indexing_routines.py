"""take, put, take_along_axis, put_along_axis, choose, the index generators and fill_diagonal
against NumPy: every dtype, modes, non-contiguous inputs, errors with NumPy's class and message."""
import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, assert_same, make_layout, random_array, error_of as _err

RNG = numpy.random.default_rng(1313)


def _same_tuple(got, expect):
    assert len(got) == len(expect)
    for g, e in zip(got, expect):
        assert_same(g, numpy.asarray(e).astype(numpy.int64))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_take_every_dtype_and_mode(dt):
    h = random_array((4, 6), dt, RNG)
    for layout in ("contiguous", "transposed", "negative"):
        g, hl = make_layout(h, layout)
        ix = RNG.integers(-6, 6, (2, 3))
        for axis in (None, 0, 1, -1):
            n = hl.size if axis is None else hl.shape[axis]
            ok = ix % n if axis is not None and n < 6 else ix
            assert_same(np.take(g, ok, axis=axis), numpy.take(hl, ok, axis=axis))
        big = RNG.integers(-20, 20, 7)
        for mode in ("wrap", "clip"):
            assert_same(g.take(np.asarray(big), axis=1, mode=mode),
                        hl.take(big, axis=1, mode=mode))
            assert_same(np.take(g, big, mode=mode), numpy.take(hl, big, mode=mode))
    g = np.asarray(h)
    assert_same(np.take(g, 3), numpy.asarray(numpy.take(h, 3)))
    out = np.empty((4, 2), dt)
    r = np.take(g, [1, 0], axis=1, out=out)
    assert r is out
    assert_same(out, numpy.take(h, [1, 0], axis=1))


def test_take_errors():
    h = numpy.arange(12.0).reshape(3, 4)
    g = np.asarray(h)
    for args in [([12],), ([0, -13],), ([4], 1), ([1], 0, "foo"), ([1], 2)]:
        kw = {}
        if len(args) > 1:
            kw["axis"] = args[1]
        if len(args) > 2:
            kw["mode"] = args[2]
        he = _err(lambda: numpy.take(h, args[0], **kw))
        assert he is not None
        assert _err(lambda: np.take(g, args[0], **kw)) == he, args
    assert _err(lambda: np.take(np.zeros((0,)), [1], mode="wrap")) == \
        _err(lambda: numpy.take(numpy.zeros((0,)), [1], mode="wrap"))
    with pytest.raises(TypeError):
        np.take(g, numpy.array([1.0]))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_put_every_dtype(dt):
    h = random_array((3, 5), dt, RNG)
    for layout in ("contiguous", "transposed"):
        g, hl = make_layout(h, layout)
        hl = hl.copy()
        ind = numpy.array([0, 14, -1, 3, 3, 7])
        v = random_array((4,), dt, RNG)                 # cycled over the indices
        numpy.put(hl, ind, v)
        np.put(g, np.asarray(ind), np.asarray(v))
        assert_same(g, hl)
        s = v[0]
        numpy.put(hl, [2, 2], s)
        g.put([2, 2], s)
        assert_same(g, hl)
        for mode in ("wrap", "clip"):
            numpy.put(hl, [40, -33, 6], v[:3], mode=mode)
            np.put(g, [40, -33, 6], np.asarray(v[:3]), mode=mode)
            assert_same(g, hl)


def test_put_last_wins_and_errors():
    h = numpy.zeros(6)
    g = np.zeros(6)
    v = RNG.standard_normal(8)
    ind = [1, 4, 1, 1, 0, 4, 2, 1]
    for i, x in zip(ind, v):
        h[i] = x
    np.put(g, ind, v)
    assert_same(g, h)
    before = g.get()
    he = _err(lambda: numpy.put(h.copy(), [0, 6], [1, 2]))
    assert _err(lambda: np.put(g, [0, 6], [1, 2])) == he
    assert_same(g, before)                      # nothing written
    assert _err(lambda: np.put(g, [0], [1], mode="x")) == \
        _err(lambda: numpy.put(h, [0], [1], mode="x"))


@pytest.mark.parametrize("dt", ["f4", "i8", "c8", "?", "u2"])
def test_along_axis(dt):
    h = random_array((3, 4, 5), dt, RNG)
    for layout in ("contiguous", "negative"):
        g, hl = make_layout(h, layout)
        for axis, ishape in [(0, (2, 4, 5)), (1, (3, 6, 1)), (-1, (1, 4, 3)), (2, (3, 4, 0))]:
            n = hl.shape[axis]
            ix = RNG.integers(-n, n, ishape)
            assert_same(np.take_along_axis(g, np.asarray(ix), axis), numpy.take_along_axis(hl, ix, axis))
        hc = hl.copy()
        ix = numpy.argsort(RNG.random((3, 4, 5)), axis=1)[:, :2]
        vals = random_array((3, 2, 5), dt, RNG)
        numpy.put_along_axis(hc, ix, vals, 1)
        g2 = np.asarray(hl)
        np.put_along_axis(g2, np.asarray(ix), np.asarray(vals), 1)
        assert_same(g2, hc)
    ix = numpy.array([4, 0, 2])
    hf = h.reshape(-1)
    assert_same(np.take_along_axis(np.asarray(h), ix, None), numpy.take_along_axis(h, ix, None))
    del hf
    for bad in [(numpy.array([[0]]), 0), (numpy.zeros((3, 4, 1)), 1)]:
        assert _err(lambda: np.take_along_axis(np.asarray(h), bad[0], bad[1])) == \
            _err(lambda: numpy.take_along_axis(h, bad[0], bad[1]))
    assert _err(lambda: np.take_along_axis(np.asarray(h), numpy.full((3, 1, 5), 4), 1)) == \
        _err(lambda: numpy.take_along_axis(h, numpy.full((3, 1, 5), 4), 1))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_choose(dt):
    cs = [random_array((3, 4), dt, RNG) for _ in range(3)]
    a = RNG.integers(0, 3, (3, 4))
    assert_same(np.choose(np.asarray(a), [np.asarray(c) for c in cs]), numpy.choose(a, cs))
    assert_same(np.asarray(a).choose(np.asarray(numpy.stack(cs))), numpy.choose(a, cs))
    row = RNG.integers(0, 3, 4)                             # broadcast: index row over choices
    assert_same(np.choose(row, cs), numpy.choose(row, cs))
    wild = RNG.integers(-5, 8, (3, 4))
    for mode in ("wrap", "clip"):
        assert_same(np.choose(wild, cs, mode=mode), numpy.choose(wild, cs, mode=mode))
    assert _err(lambda: np.choose(wild, cs)) == _err(lambda: numpy.choose(wild, cs))


def test_index_generators():
    _same_tuple(np.diag_indices(4), numpy.diag_indices(4))
    _same_tuple(np.diag_indices(3, 3), numpy.diag_indices(3, 3))
    h = numpy.zeros((3, 3, 3))
    _same_tuple(np.diag_indices_from(np.asarray(h)), numpy.diag_indices_from(h))
    for bad in (numpy.zeros(3), numpy.zeros((3, 4))):
        assert _err(lambda: np.diag_indices_from(np.asarray(bad))) == \
            _err(lambda: numpy.diag_indices_from(bad))
    for n, k, m in [(4, 0, None), (4, -1, None), (3, 2, 5), (5, 1, 2), (0, 0, None)]:
        _same_tuple(np.tril_indices(n, k, m), numpy.tril_indices(n, k, m))
        _same_tuple(np.triu_indices(n, k, m), numpy.triu_indices(n, k, m))
    a = numpy.zeros((3, 5))
    _same_tuple(np.tril_indices_from(np.asarray(a), 1), numpy.tril_indices_from(a, 1))
    _same_tuple(np.triu_indices_from(np.asarray(a), -1), numpy.triu_indices_from(a, -1))
    assert _err(lambda: np.tril_indices_from(np.zeros(3))) == \
        _err(lambda: numpy.tril_indices_from(numpy.zeros(3)))
    got = np.ix_([0, 2], numpy.array([True, False, True, True]), np.asarray(numpy.array([1])))
    exp = numpy.ix_([0, 2], numpy.array([True, False, True, True]), numpy.array([1]))
    _same_tuple(got, exp)
    h = random_array((3, 4, 2), "f4", RNG)
    assert_same(np.asarray(h)[got], h[exp])
    assert _err(lambda: np.ix_([[0]])) == _err(lambda: numpy.ix_([[0]]))


def test_unravel_and_ravel_multi_index():
    idx = RNG.integers(0, 60, (2, 5))
    for order in ("C", "F"):
        _same_tuple(np.unravel_index(np.asarray(idx), (3, 4, 5), order=order),
                    numpy.unravel_index(idx, (3, 4, 5), order=order))
        coords = numpy.unravel_index(idx, (3, 4, 5), order=order)
        assert_same(np.ravel_multi_index(tuple(np.asarray(c) for c in coords), (3, 4, 5),
                                         order=order),
                    numpy.ravel_multi_index(coords, (3, 4, 5), order=order).astype(numpy.int64))
    _same_tuple(np.unravel_index(17, (4, 5)), numpy.unravel_index(17, (4, 5)))
    for bad in (60, -1):
        assert _err(lambda: np.unravel_index(numpy.array([0, bad]), (3, 4, 5))) == \
            _err(lambda: numpy.unravel_index(numpy.array([0, bad]), (3, 4, 5)))
    assert _err(lambda: np.unravel_index(numpy.array([1.0]), (3,))) == \
        _err(lambda: numpy.unravel_index(numpy.array([1.0]), (3,)))
    wild = (RNG.integers(-7, 9, 6), RNG.integers(-7, 9, 6))
    for mode in ("wrap", "clip", ("clip", "wrap")):
        assert_same(np.ravel_multi_index(wild, (4, 5), mode=mode),
                    numpy.ravel_multi_index(wild, (4, 5), mode=mode).astype(numpy.int64))
    assert _err(lambda: np.ravel_multi_index(wild, (4, 5))) == \
        _err(lambda: numpy.ravel_multi_index(wild, (4, 5)))
    assert _err(lambda: np.ravel_multi_index(wild, (4, 5), mode=("raise", "wrap"))) == \
        _err(lambda: numpy.ravel_multi_index(wild, (4, 5), mode=("raise", "wrap")))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_fill_diagonal(dt):
    for shape, wrap in [((4, 4), False), ((6, 3), False), ((7, 3), True), ((3, 5), True),
                        ((3, 3, 3), False)]:
        h = random_array(shape, dt, RNG)
        v = random_array((2,), dt, RNG)
        for layout in ("contiguous", "transposed"):
            g, hl = make_layout(h, layout)
            hl = hl.copy()
            numpy.fill_diagonal(hl, v, wrap=wrap)
            np.fill_diagonal(g, np.asarray(v), wrap=wrap)
            assert_same(g, hl)
            numpy.fill_diagonal(hl, v[1], wrap=wrap)
            np.fill_diagonal(g, v[1], wrap=wrap)
            assert_same(g, hl)
    for bad in (numpy.zeros(3), numpy.zeros((2, 3, 3))):
        assert _err(lambda: np.fill_diagonal(np.asarray(bad), 1)) == \
            _err(lambda: numpy.fill_diagonal(bad, 1))


def test_argument_checks_found_from_outside():
    # each against NumPy's own answer or error: choose's negative entries under 'raise', float
    # repeat counts given as arrays, take's out= dtype, casting= values, generators to stack and
    # concatenate, empty dims in ravel_multi_index, several indices into a 0-d shape
    from conftest import error_of
    D = np.asarray

    def same(f):
        def run(m, X):
            r = f(m, X)
            if isinstance(r, tuple):
                return tuple(numpy.asarray(x.get() if hasattr(x, "get") else x) for x in r)
            return numpy.asarray(r.get() if hasattr(r, "get") else r)
        w, g = error_of(lambda: run(numpy, numpy.asarray)), error_of(lambda: run(np, D))
        assert w == g, (w, g)
        if w is None:
            a, b = run(numpy, numpy.asarray), run(np, D)
            assert str(a) == str(b)
    for idx in ([0, -1], [1, 0], [2, 0]):
        same(lambda m, X: m.choose(X(numpy.array(idx)), [X(numpy.array([1, 2])),
                                                         X(numpy.array([3, 4]))]))
    a = numpy.array([10., 20., 30.])
    for r in (numpy.array([1.5, 0.7, 2.]), numpy.array(2.0), numpy.array([1, 0, 2], "u8"),
              numpy.array([True, False, True]), numpy.array([1, 0, 2], "i1")):
        same(lambda m, X: m.repeat(X(a), X(r)))
    i32 = numpy.arange(4, dtype="i4")
    for od in ("f8", "i8", "i2", "i4", "u4"):
        same(lambda m, X: m.take(X(i32), X(numpy.array([0, 1])), out=m.zeros(2, od)))
    for c in ("foo", None, "unsafe"):
        for name in ("concatenate", "stack", "vstack", "hstack"):
            same(lambda m, X: getattr(m, name)((X(numpy.array([1.])), X(numpy.array([2.]))),
                                               casting=c))
    for name in ("concatenate", "stack"):
        same(lambda m, X: getattr(m, name)(x for x in (X(numpy.array([1])),
                                                       X(numpy.array([2])))))
    one = numpy.array([1])
    for mode in ("raise", "wrap", "clip"):
        same(lambda m, X: m.ravel_multi_index((X(one), X(one)), (3, 0), mode=mode))
    for idx in (numpy.array([0]), numpy.array(0), numpy.array([], "i8")):
        same(lambda m, X: m.unravel_index(X(idx), ()))
