"""The ufunc call's host fast paths (npgpu/ufuncs/ufunc.py ``__call__``): (array, scalar) with a
Python or NumPy scalar launching its remembered kernel, and ``out=`` alone (``x += y``,
``np.add(x, y, out=x)``, ``np.sqrt(x, out=y)``) launching the remembered plan into the output.
Repeat calls must give NumPy's values for new data and scalars, and every call off the fast path
(casting, overlap, read-only or wrong-shape outputs, out-of-range scalars) NumPy's answer or
error."""
import numpy
import pytest

import npgpu as np
from npgpu.ufuncs.ufunc import ufunc as _Ufunc

RNG = numpy.random.default_rng(31)
pytestmark = pytest.mark.filterwarnings("ignore:divide by zero")


def _data(dt, n=37):
    x = RNG.uniform(-5, 5, n)
    if numpy.dtype(dt).kind == "c":
        x = x + 1j * RNG.uniform(-5, 5, n)
    if numpy.dtype(dt).kind in "iu":
        x = numpy.abs(x) * 3
    if numpy.dtype(dt).kind == "b":
        x = x > 0
    return x.astype(dt)


def _close(got, want):
    got = got.get() if isinstance(got, np.ndarray) else got
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 1e-6 if want.dtype in (numpy.float32, numpy.complex64) else 1e-13
    numpy.testing.assert_allclose(got, want, rtol=tol, atol=0)


@pytest.fixture
def no_full_path(monkeypatch):
    """Calls inside ``with no_full_path():`` fail if they leave the fast path."""
    import contextlib

    @contextlib.contextmanager
    def ctx():
        def boom(*a, **k):
            raise AssertionError("the full path ran on a fast-path call")
        with monkeypatch.context() as m:
            m.setattr(_Ufunc, "_call", boom)
            yield
    return ctx


SCALARS = [("add", "f4", 1), ("multiply", "f8", 2.5), ("subtract", "i2", 3),
           ("add", "c8", 1 + 2j), ("maximum", "u1", True), ("true_divide", "i4", 4),
           ("add", "f4", numpy.float64(0.5)), ("multiply", "i1", numpy.int16(3)),
           ("arctan2", "f4", 2.0), ("logical_and", "?", False), ("less", "f8", 0.25)]


@pytest.mark.parametrize("name,dt,s", SCALARS, ids=[f"{n}-{d}-{type(s).__name__}"
                                                    for n, d, s in SCALARS])
@pytest.mark.parametrize("pos", [0, 1])
def test_scalar_repeats_follow_data_and_scalar(name, dt, s, pos, no_full_path):
    f, nf = getattr(np, name), getattr(numpy, name)

    def both(x, sc):
        return (f(np.asarray(x), sc), nf(x, sc)) if pos else (f(sc, np.asarray(x)), nf(sc, x))
    _close(*both(_data(dt), s))                              # the plan is made
    for k in range(3):
        x = _data(dt)
        sc = type(s)(s * (k + 2)) if not isinstance(s, (bool, numpy.bool_)) else s
        with no_full_path():
            got, want = both(x, sc)
        _close(got, want)


def test_scalar_fast_path_keeps_numpys_errors_and_layouts():
    a = np.asarray(_data("i1"))
    a + 1                                                     # the plan of (int8, int, 1)
    with pytest.raises(OverflowError, match="Python integer 300 out of bounds for int8"):
        a + 300
    m = np.asarray(_data("f4", 24).reshape(4, 6))
    m + 1.0
    f = m.T                                                   # F-contiguous: its own layout
    r = f + 1.0
    assert r.flags.f_contiguous
    _close(r, m.get().T + numpy.float32(1))
    _close(m[:, ::2] + 1.0, m.get()[:, ::2] + numpy.float32(1))     # strided: the full path
    e = np.asarray(numpy.zeros((0, 3), "f4"))
    assert (e + 1.0).shape == (0, 3)


INPLACE = [("add", "f4", "array"), ("multiply", "f8", "scalar"), ("subtract", "i4", "array"),
           ("true_divide", "f4", "scalar"), ("add", "c16", "array"),
           ("bitwise_xor", "u1", "scalar")]


@pytest.mark.parametrize("name,dt,other", INPLACE, ids=[f"{n}-{d}-{o}" for n, d, o in INPLACE])
def test_out_repeats_follow_the_data(name, dt, other, no_full_path):
    f, nf = getattr(np, name), getattr(numpy, name)
    for k in range(4):
        x, y = _data(dt), _data(dt)
        y = y if other == "array" else y.flat[0].item()
        if name == "true_divide" and other == "scalar":
            y = y or 1.5
        gx = np.asarray(x)
        gy = np.asarray(y) if other == "array" else y
        gout = np.empty(x.shape, nf(x, y).dtype)
        if k:
            with no_full_path():
                r1 = f(gx, gy, out=gx)                        # in place: same elements
                r2 = f(gx, gy, out=(gout,))                   # apart
        else:
            r1 = f(gx, gy, out=gx)
            r2 = f(gx, gy, out=(gout,))
        assert r1 is gx and r2 is gout
        want = nf(x, y)
        _close(gx, want)
        _close(gout, nf(want, y))


def test_unary_out_and_inplace_operators(no_full_path):
    x = numpy.abs(_data("f4")) + 0.5
    gx, go = np.asarray(x), np.empty(x.shape, numpy.float32)
    np.sqrt(gx, out=go)
    for _ in range(2):
        x = numpy.abs(_data("f4")) + 0.5
        gx[...] = np.asarray(x)
        with no_full_path():
            assert np.sqrt(gx, out=go) is go
            assert np.sqrt(gx, out=gx) is gx
        _close(go, numpy.sqrt(x))
        _close(gx, numpy.sqrt(x))
    a, b = _data("i8"), _data("i8")
    ga, gb = np.asarray(a), np.asarray(b)
    for _ in range(2):           # the second round replays every plan
        ga += 3
        ga *= gb
        ga -= gb
        ga //= 7
        a += 3
        a *= b
        a -= b
        a //= 7
        _close(ga, a)


def test_out_off_the_fast_path_answers_as_numpy():
    x = _data("f4")
    gx = np.asarray(x)
    np.add(gx, gx, out=np.empty(x.shape, numpy.float32))     # the plan exists
    # partial overlap: the input is read as before the call
    buf = RNG.uniform(-3, 3, 40).astype("f4")
    gbuf = np.asarray(buf)
    np.add(gbuf[0:37], gbuf[3:40], out=gbuf[2:39])
    numpy.add(buf[0:37], buf[3:40], out=buf[2:39])
    _close(gbuf, buf)
    # another output dtype: cast (same_kind), or NumPy's casting error
    o64 = np.empty(x.shape, numpy.float64)
    _close(np.add(gx, gx, out=o64), numpy.add(x, x, out=numpy.empty(x.shape, "f8")))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from dtype\\('float32'\\) "
                                        "to dtype\\('int32'\\) with casting rule 'same_kind'"):
        np.add(gx, gx, out=np.empty(x.shape, numpy.int32))
    gi = np.asarray(_data("i1"))
    gi + 1.5
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output"):
        gi += 1.5
    # read-only and wrong-shape outputs
    ro = np.empty(x.shape, numpy.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="output array is read-only"):
        np.add(gx, gx, out=ro)
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        np.add(gx, gx, out=np.empty(1, numpy.float32))
    # a broadcast output of another shape, a non-contiguous one: the full path, NumPy's values
    o2 = np.empty((2, 37), numpy.float32)
    _close(np.add(gx, 1.0, out=o2), numpy.add(x, numpy.float32(1), out=numpy.empty((2, 37), "f4")))
    os = np.empty(74, numpy.float32)[::2]
    _close(np.multiply(gx, gx, out=os), x * x)


LAYOUTS = ["row", "col", "T", "view", "both_T", "int8+f4"]
_ROWS = (slice(None, None, 2), slice(1, None))
_ODD = (slice(1, None, 2), slice(None, -1))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_broadcast_and_view_repeats(layout, no_full_path):
    """Two arrays of other layouts replay the remembered resolution and result layout: NumPy's
    values, dtype and memory order for new data."""
    def operands():
        # host arrays and a function making the same views of their device copies
        m, t = _data("f4", 42).reshape(6, 7), _data("f4", 42).reshape(7, 6)
        same = (lambda g: g, lambda g: g)
        if layout == "row":
            return m, m.mean(axis=0), same
        if layout == "col":
            return m, m[:, :1].copy(), same
        if layout == "T":
            return m, t, (lambda g: g.T, lambda g: g)
        if layout == "view":
            return m, m, (lambda g: g[_ROWS], lambda g: g[_ODD])
        if layout == "both_T":
            return t, t.copy(), (lambda g: g.T, lambda g: g.T)
        return _data("i1", 42).reshape(6, 7), _data("f4", 7), same
    for k in range(3):
        x, y, (vx, vy) = operands()
        gx, gy = vx(np.asarray(x)), vy(np.asarray(y))
        hx, hy = vx(x), vy(y)
        if k:
            with no_full_path():
                r = np.subtract(gx, gy)
        else:
            r = np.subtract(gx, gy)
        want = numpy.subtract(hx, hy)
        _close(r, want)
        assert r.flags.c_contiguous == want.flags.c_contiguous
        assert r.flags.f_contiguous == want.flags.f_contiguous


def test_out_none_is_a_fresh_result_and_int_scalars_round_as_numpy(no_full_path):
    x = _data("f4")
    gx = np.asarray(x)
    np.add(gx, gx)
    with no_full_path():
        r = np.add(gx, gx, out=None)
    _close(r, x + x)
    # a Python int in a float loop: converted once, rounded as NumPy's astype
    for dt, v in (("f4", 16777217), ("f2", 70000), ("f2", 2049), ("c8", -(1 << 40)),
                  ("f8", (1 << 53) + 1), ("f4", 1 << 60)):
        h = _data(dt, 5)
        with numpy.errstate(over="ignore"):
            want = h + v
        _close(np.asarray(h) + v, want)


def test_random_call_sequences_match_numpy():
    """A few hundred random calls mixing the fast paths (scalars of both kinds, out= into the
    same or other arrays, broadcasting, views) and the full path, each against NumPy."""
    rng = numpy.random.default_rng(5)
    names = ["add", "subtract", "multiply", "maximum", "minimum", "true_divide", "hypot",
             "greater", "arctan2", "copysign"]
    unary = ["sqrt", "negative", "absolute", "exp", "sin", "floor", "square"]
    dts = ["f4", "f8", "i4", "i2", "u1"]
    for _ in range(300):
        dt = dts[rng.integers(len(dts))]
        shape = [(8,), (3, 8), (4, 1), (1, 8)][rng.integers(4)]
        h = (numpy.abs(RNG.uniform(-9, 9, shape)) + 1).astype(dt)
        g = np.asarray(h)
        kind = rng.integers(5)
        if kind == 0:                       # unary, fresh or out= the input itself
            name = unary[rng.integers(len(unary))]
            if rng.integers(2) and numpy.result_type(getattr(numpy, name)(h[:1])) == h.dtype:
                getattr(np, name)(g, out=g)
                getattr(numpy, name)(h, out=h)
                got, want = g, h
            else:
                got, want = getattr(np, name)(g), getattr(numpy, name)(h)
        else:
            name = names[rng.integers(len(names))]
            f, nf = getattr(np, name), getattr(numpy, name)
            if kind == 1:                   # a scalar, Python or NumPy, either side
                s = [2, 1.5, numpy.float32(3), numpy.int16(2), True][rng.integers(5)]
                got, want = (f(g, s), nf(h, s)) if rng.integers(2) else (f(s, g), nf(s, h))
            elif kind == 2:                 # broadcasting against another shape, or a view
                osh = (max(shape[0], 3), 8) if len(shape) == 2 else (3, 8)
                o = (numpy.abs(RNG.uniform(-9, 9, osh)) + 1).astype(dts[rng.integers(5)])
                go = np.asarray(o)
                got, want = f(g, go[::-1]), nf(h, o[::-1])
            else:                           # out= (the input, or a fresh array)
                w = nf(h, h)
                target = h if w.dtype == h.dtype and kind == 3 else numpy.empty_like(w)
                gt = g if target is h else np.asarray(target)
                f(g, g, out=gt)
                nf(h, h, out=target)
                got, want = gt, target
        want = numpy.asarray(want)
        got = got.get()
        assert got.dtype == want.dtype and got.shape == want.shape, (name, dt, shape, kind)
        numpy.testing.assert_allclose(got, want, rtol=1e-6, equal_nan=True,
                                      err_msg=f"{name} {dt} {shape} {kind}")


def test_clip_with_scalar_bounds_repeats(no_full_path):
    """clip(array, scalar, scalar) replays its resolution: new bounds and data, NumPy's dtypes;
    an out-of-range Python int bound takes the full path (NumPy's answer)."""
    for dt, lo, hi in (("f4", 0, 1), ("f4", -0.5, numpy.float64(0.5)), ("i2", 1, 2.5),
                       ("u1", 3, 7), ("f8", numpy.nan, 1.0)):
        for k in range(3):
            h = (RNG.uniform(-2, 9, (4, 6)) if dt[0] == "f" else RNG.integers(0, 9, (4, 6)))
            h = h.astype(dt)
            g = np.asarray(h)
            lo_k = type(lo)(lo + k) if not numpy.isnan(lo) else lo
            if k:
                with no_full_path():
                    got = np.clip(g, lo_k, hi)
                    got_t = np.clip(g.T, lo_k, hi)
            else:
                got, got_t = np.clip(g, lo_k, hi), np.clip(g.T, lo_k, hi)
            _close(got, numpy.clip(h, lo_k, hi))
            want_t = numpy.clip(h.T, lo_k, hi)
            _close(got_t, want_t)
            assert got_t.flags.f_contiguous == want_t.flags.f_contiguous
    g = np.asarray(numpy.arange(5, dtype=numpy.int8))
    np.clip(g, 0, 3)
    want = numpy.clip(numpy.arange(5, dtype=numpy.int8), 0, 300)
    _close(np.clip(g, 0, 300), want)


def test_clip_python_int_bounds_past_the_dtype_bound_nothing():
    h = numpy.arange(-3, 6, dtype=numpy.int8)
    g = np.asarray(h)
    for lo, hi in ((0, 300), (-300, 2), (-128, 127), (-1000, 1000), (None, 500), (-500, None)):
        _close(np.clip(g, lo, hi), numpy.clip(h, lo, hi))
    with pytest.raises(OverflowError, match="Python integer 200 out of bounds for int8"):
        np.clip(g, 200, 300)
    u = numpy.arange(5, dtype=numpy.uint8)
    _close(np.clip(np.asarray(u), -1, 3), numpy.clip(u, -1, 3))
