"""Window functions (bartlett, blackman, hamming, hanning, kaiser), sinc, unwrap, isposinf and
isneginf -- against NumPy on random data: the dtypes NumPy takes, layouts, 0-d and empty inputs,
``out=``, and NumPy's errors."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import assert_matches, assert_same, make_layout, matches_numpy, raises_like

RNG = numpy.random.default_rng(1313)
COSINE_WINDOWS = ("bartlett", "blackman", "hamming", "hanning")
# M values NumPy takes: empty and single-point windows, even / odd lengths, a float M (NumPy's
# arithmetic takes it), bool and NumPy scalars (promoted with a float64 zero: float64 windows)
GOOD_M = (0, -3, 1, 1.0, 2, 5, 6, 6.5, 17, True, False, numpy.int8(4), numpy.float32(4.5))
# M values NumPy refuses (TypeError from its comparison, ValueError from arange or np.array)
BAD_M = ("a", None, [3], numpy.inf, numpy.nan)


def close(got, want):
    """The windows are NumPy's formula in NumPy's order: float64 rounding apart (the ends of
    blackman are about -1e-17, hence the small atol)."""
    assert_matches(got, want, rtol=1e-13, atol=1e-15)


# ---- windows ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", COSINE_WINDOWS)
def test_cosine_window_matches_numpy(name):
    for M in GOOD_M:
        got, want = getattr(np, name)(M), getattr(numpy, name)(M)
        assert isinstance(got, np.ndarray)
        close(got, want)


@pytest.mark.parametrize("name", COSINE_WINDOWS + ("kaiser",))
def test_window_bad_m_raises_numpys_error(name):
    extra = (2.0,) if name == "kaiser" else ()
    for M in BAD_M:
        if name == "kaiser" and isinstance(M, str):
            continue            # NumPy's error comes from arange of a str dtype: checked below
        raises_like(lambda: getattr(numpy, name)(M, *extra), lambda: getattr(np, name)(M, *extra))


def test_kaiser_matches_numpy():
    # beta 0 is a rectangle; a float M gives NumPy's NaN past the last point (sqrt of < 0)
    for M, beta in ((5, 3.0), (6, 0), (1, 2), (0, 1.0), (-2, 1), (4.5, 2.5), (16, 14),
                    (7, -3), (3, numpy.float32(2)), (True, 5), (numpy.int16(9), 8.6)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = numpy.kaiser(M, beta)
        close(np.kaiser(M, beta), want)


def test_window_odd_arguments():
    # a complex M is promoted to complex128, as NumPy's arithmetic does
    for M in (3 + 0j, 4 + 1j):
        for name in COSINE_WINDOWS:
            close(getattr(np, name)(M), getattr(numpy, name)(M))
    raises_like(lambda: numpy.kaiser(5, 1j), lambda: np.kaiser(5, 1j))
    with pytest.raises(TypeError):
        np.kaiser("5", 2.0)
    # a 0-d device length is read, as arange/zeros/linspace read theirs (NumPy's own tests
    # pass ``array(M, dtype)[()]``, a 0-d device array in npgpu)
    close(np.hamming(np.asarray(5)), numpy.hamming(5))


def test_windows_export():
    import npgpu.windows
    assert set(npgpu.windows.__all__) == {"bartlett", "blackman", "hamming", "hanning", "kaiser"}
    for name in npgpu.windows.__all__:
        assert getattr(np, name) is getattr(npgpu.windows, name)


# ---- sinc -------------------------------------------------------------------------------------
def sinc_data(shape, dt):
    """Random data of ``dt`` with zeros planted (the x == 0 branch)."""
    h = RNG.uniform(-4, 4, shape)
    if numpy.dtype(dt).kind == "c":
        h = h + 1j * RNG.uniform(-2, 2, shape)
    h = h.astype(dt)
    h.reshape(-1)[:2] = 0
    return h


@pytest.mark.parametrize("dt", ["f2", "f4", "f8", "i2", "u1", "?", "c8", "c16"])
def test_sinc_dtypes(dt):
    h = sinc_data((3, 7), dt)
    assert_matches(np.sinc(np.asarray(h)), numpy.sinc(h))


@pytest.mark.parametrize("layout", ["transposed", "negative", "strided", "zero_d", "empty"])
def test_sinc_layouts(layout):
    d, h = make_layout(sinc_data((4, 6), "f8"), layout)
    assert_matches(np.sinc(d), numpy.asarray(numpy.sinc(h)))


def test_sinc_host_inputs():
    assert_matches(np.sinc(0), numpy.asarray(numpy.sinc(0)))
    assert_matches(np.sinc(0.5), numpy.asarray(numpy.sinc(0.5)))
    assert_matches(np.sinc([0, 1.5, -2, 1e-9]), numpy.sinc([0, 1.5, -2, 1e-9]))
    # the special values: inf gives NaN (sin(inf)), NaN stays NaN
    h = numpy.array([numpy.inf, -numpy.inf, numpy.nan, -0.0])
    with numpy.errstate(invalid="ignore"):
        want = numpy.sinc(h)
    assert_matches(np.sinc(np.asarray(h)), want)


# ---- unwrap -----------------------------------------------------------------------------------
def phases(shape, dt):
    """A random walk with steps of up to +-5: jumps past pi (and past small integer periods)."""
    h = numpy.cumsum(RNG.uniform(-5, 5, shape), axis=-1)
    if numpy.dtype(dt).kind == "b":
        return h > 0
    return h.astype(dt)


UNWRAP_CASES = [
    ("f8", {}),
    ("f4", {}),
    ("f2", {}),
    ("i8", {}),                             # integers with the float period: float64
    ("u1", {}),                             # uint8 steps wrap in diff, as NumPy's
    ("i8", {"period": 6}),                  # integer period: integer arithmetic
    ("i2", {"period": 7}),                  # odd period: no ambiguous boundary
    ("?", {"period": 2}),
    ("f8", {"period": 4, "discont": 1.0}),
    ("f8", {"discont": 5.0}),
    ("f4", {"period": numpy.float32(3.5)}),
]


@pytest.mark.parametrize("dt, kw", UNWRAP_CASES, ids=[f"{d}-{k}" for d, k in UNWRAP_CASES])
def test_unwrap_matches_numpy(dt, kw):
    h = phases((3, 9), dt)
    for axis in (-1, 0):
        want = numpy.unwrap(h, axis=axis, **kw)
        got = np.unwrap(np.asarray(h), axis=axis, **kw)
        if want.dtype.kind in "iub":
            assert_same(got, want)
        else:
            assert_matches(got, want)


def test_unwrap_boundary_steps():
    # steps of exactly +-period/2: a positive one keeps +period/2 (NumPy's correction)
    for h, kw in ((numpy.array([0, 3, 6, 3, 0, -3, 1]), {"period": 6}),
                  (numpy.array([0, 3, 6, 3, 0, -3, 1]), {"period": 6, "discont": 0}),
                  (numpy.array([0.0, numpy.pi, 0.0, -numpy.pi, 2 * numpy.pi]), {}),
                  (numpy.array([0.0, 2.0, 4.0, 0.0, -2.0]), {"period": 4.0, "discont": 1.5})):
        assert_same(np.unwrap(np.asarray(h), **kw), numpy.unwrap(h, **kw))


@pytest.mark.parametrize("layout", ["transposed", "negative", "strided", "empty"])
def test_unwrap_layouts(layout):
    d, h = make_layout(phases((4, 6), "f8"), layout)
    assert_matches(np.unwrap(d), numpy.unwrap(h))
    assert_matches(np.unwrap(d, axis=0), numpy.unwrap(h, axis=0))


def test_unwrap_other_inputs():
    h = phases((2, 3, 5), "f8")
    assert_matches(np.unwrap(np.asarray(h), axis=1), numpy.unwrap(h, axis=1))
    assert_matches(np.unwrap(h[0, 0].tolist()), numpy.unwrap(h[0, 0].tolist()))
    assert_matches(np.unwrap(np.zeros((3, 0))), numpy.unwrap(numpy.zeros((3, 0))))
    # a device period (NumPy: a 0-d array, a strong int64): its boundary test stays on the device
    hi = phases(9, "i8")
    assert_same(np.unwrap(np.asarray(hi), period=np.asarray(6)),
                numpy.unwrap(hi, period=numpy.asarray(6)))
    # the input is not modified
    d = np.asarray(h)
    np.unwrap(d)
    assert_same(d, h)


def test_unwrap_errors():
    matches_numpy(lambda xp: xp.unwrap(xp.asarray(1.5)))                   # 0-d: diff's error
    for axis in (2, -3):
        raises_like(lambda: numpy.unwrap(numpy.zeros((2, 3)), axis=axis),
                    lambda: np.unwrap(np.zeros((2, 3)), axis=axis))
    # NEP 50: -period/2 does not fit uint8
    h = phases(6, "u1")
    raises_like(lambda: numpy.unwrap(h, period=6), lambda: np.unwrap(np.asarray(h), period=6))
    # complex data: remainder has no complex loop
    c = sinc_data(6, "c16")
    raises_like(lambda: numpy.unwrap(c), lambda: np.unwrap(np.asarray(c)))


# ---- isposinf / isneginf ----------------------------------------------------------------------
def inf_data(shape, dt):
    """Random data of ``dt`` with +-inf, NaN and -0.0 planted (floats)."""
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return RNG.random(shape) < 0.5
    h = (RNG.standard_normal(shape) * 20).astype(dt)
    if dt.kind == "f":
        h.reshape(-1)[:5] = [numpy.inf, -numpy.inf, numpy.nan, -0.0, -numpy.inf]
        RNG.shuffle(h.reshape(-1))
    return h


@pytest.mark.parametrize("dt", ["f2", "f4", "f8", "i4", "u1", "?"])
def test_isposinf_isneginf_dtypes(dt):
    h = inf_data((3, 8), dt)
    assert_same(np.isposinf(np.asarray(h)), numpy.isposinf(h))
    assert_same(np.isneginf(np.asarray(h)), numpy.isneginf(h))


@pytest.mark.parametrize("layout", ["negative", "strided", "zero_d", "empty"])
def test_isposinf_isneginf_layouts(layout):
    d, h = make_layout(inf_data((4, 6), "f8"), layout)
    assert_same(np.isposinf(d), numpy.asarray(numpy.isposinf(h)))
    assert_same(np.isneginf(d), numpy.asarray(numpy.isneginf(h)))


def test_isposinf_isneginf_out_and_host_inputs():
    h = inf_data(10, "f4")
    for fn in ("isposinf", "isneginf"):
        for odt in ("?", "i8", "f4"):
            out = np.zeros(10, odt)
            want_out = numpy.zeros(10, odt)
            res = getattr(np, fn)(np.asarray(h), out)
            assert res is out
            assert_same(out, getattr(numpy, fn)(h, want_out))
        out = np.zeros(10, "?")
        assert getattr(np, fn)(np.asarray(h), out=out) is out
        assert_same(out, getattr(numpy, fn)(h))
        lst = [numpy.inf, -numpy.inf, 1.0, numpy.nan]
        assert_same(getattr(np, fn)(lst), getattr(numpy, fn)(lst))
        assert_same(getattr(np, fn)(-numpy.inf), numpy.asarray(getattr(numpy, fn)(-numpy.inf)))
        # a sequence holding device arrays goes through npgpu.asarray
        seq = [np.asarray(numpy.inf), np.asarray(-numpy.inf)]
        assert_same(getattr(np, fn)(seq), getattr(numpy, fn)([numpy.inf, -numpy.inf]))


def test_isposinf_isneginf_errors():
    for fn in ("isposinf", "isneginf"):
        for c in (inf_data(6, "f8") + 1j, inf_data(6, "f4").astype("c8")):
            raises_like(lambda: getattr(numpy, fn)(c), lambda: getattr(np, fn)(np.asarray(c)))
        raises_like(lambda: getattr(numpy, fn)(1j), lambda: getattr(np, fn)(1j))
        s = numpy.array(["a", "b"])
        raises_like(lambda: getattr(numpy, fn)(s), lambda: getattr(np, fn)(s))
        # an out of the wrong shape
        x = inf_data(6, "f8")
        raises_like(lambda: getattr(numpy, fn)(x, numpy.zeros(3, bool)),
                    lambda: getattr(np, fn)(np.asarray(x), np.zeros(3, bool)))
