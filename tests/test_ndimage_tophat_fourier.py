"""npgpu.scipy.ndimage's composed grey operators (white/black top-hat, morphological gradient
and Laplace) and Fourier-domain filters against scipy.ndimage on small random data: dtypes,
ranks 1-3, non-contiguous views, every boundary mode, ``output=`` as a dtype and as an
array, ``axes``, real-FFT inputs (``n > 0``) and SciPy's errors."""
import warnings

import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd

from conftest import raises_like

snd = pytest.importorskip("scipy.ndimage")

rng = np.random.default_rng(2031)
MORPH = ["white_tophat", "black_tophat", "morphological_gradient", "morphological_laplace"]
FOURIER = ["fourier_gaussian", "fourier_uniform", "fourier_ellipsoid", "fourier_shift"]
MODES = ["reflect", "constant", "nearest", "mirror", "wrap", "grid-constant", "grid-mirror",
         "grid-wrap"]
# a structure of integer values (non-integer ones: test_grey_structure_as_scipys_c_loop)
STRUCT2 = np.array([[0, 1, 0], [2, 0, 1], [0, 3, 1]], np.float64)


def _views(host):
    """(host, device) pairs: contiguous, a strided slice, a reversed transpose."""
    d = npgpu.asarray(host)
    yield host, d
    yield host[::2], d[::2]
    yield host.T[::-1], d.T[::-1]


def _grey_data(shape, dtype):
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(shape) * 10).astype(dtype)
    return rng.integers(0, 40, shape).astype(dtype)


def _same(got, want):
    assert isinstance(got, npgpu.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got.get(), want)


# ---- grey compositions ------------------------------------------------------------------------
@pytest.mark.parametrize("name", MORPH)
@pytest.mark.parametrize("case", [
    ((12,), np.float64, dict(size=3)),
    ((9, 10), np.float32, dict(footprint=[[1, 0, 1], [1, 1, 0]])),
    ((4, 5, 6), np.int16, dict(size=(2, 3, 2), origin=(0, 1, 0))),
    ((9, 10), np.float32, dict(structure=STRUCT2, cval=2.5)),
], ids=["1d-size", "2d-footprint", "3d-int-origin", "2d-structure"])
def test_morph_layouts(name, case):
    shape, dtype, kw = case
    x = _grey_data(shape, dtype)
    for h, d in _views(x):
        _same(getattr(gnd, name)(d, **kw), getattr(snd, name)(h, **kw))


@pytest.mark.parametrize("mode", MODES)
def test_morph_modes(mode):
    x = _grey_data((7, 9), np.float64)
    d = npgpu.asarray(x)
    for name in MORPH:
        for kw in (dict(size=(3, 2)), dict(structure=STRUCT2)):
            _same(getattr(gnd, name)(d, mode=mode, cval=-1.5, **kw),
                  getattr(snd, name)(x, mode=mode, cval=-1.5, **kw))


def test_morph_bool():
    """Bool top-hats are xors (SciPy's special case); bool gradient / Laplace subtract bools
    and fail as NumPy does; a non-bool output takes the subtraction."""
    x = rng.random((8, 9)) < 0.5
    d = npgpu.asarray(x)
    for name in ("white_tophat", "black_tophat"):
        _same(getattr(gnd, name)(d, size=3), getattr(snd, name)(x, size=3))
        _same(getattr(gnd, name)(d, size=(1, 3), output=np.uint8),
              getattr(snd, name)(x, size=(1, 3), output=np.uint8))
    for name in ("morphological_gradient", "morphological_laplace"):
        raises_like(lambda: getattr(snd, name)(x, size=3), lambda: getattr(gnd, name)(d, size=3))


@pytest.mark.parametrize("name", MORPH)
def test_morph_output(name):
    x = _grey_data((6, 8), np.uint8)
    d = npgpu.asarray(x)
    f, g = getattr(snd, name), getattr(gnd, name)
    # a dtype: the top-hats compute into it, gradient and Laplace ignore it (SciPy's code)
    _same(g(d, size=3, output=np.int16), f(x, size=3, output=np.int16))
    _same(g(d, size=3, output=np.dtype(np.float32)), f(x, size=3, output=np.float32))
    # an array: filled and returned
    want = f(x, size=3, output=np.zeros(x.shape, np.int32))
    out = npgpu.zeros(x.shape, np.int32)
    got = g(d, size=3, output=out)
    assert got is out
    _same(got, want)
    # casting errors from the subtraction into the output
    fx = x.astype(np.float64)
    raises_like(lambda: f(fx, size=3, output=np.zeros(x.shape, np.int32)),
                lambda: g(npgpu.asarray(fx), size=3, output=npgpu.zeros(x.shape, np.int32)))
    with pytest.raises(TypeError, match="npgpu array"):
        g(d, size=3, output=np.zeros(x.shape))


@pytest.mark.parametrize("name", MORPH)
def test_morph_axes(name):
    x = _grey_data((5, 6, 7), np.float32)
    d = npgpu.asarray(x)
    f, g = getattr(snd, name), getattr(gnd, name)
    for kw in (dict(size=3, axes=(0, 2)), dict(size=(2, 3), axes=(-1, 1), origin=(0, 1)),
               dict(footprint=[1, 0, 1], axes=1, origin=-1),
               dict(structure=STRUCT2, axes=(0, 1), mode="wrap")):
        _same(g(d, **kw), f(x, **kw))


def test_morph_errors():
    x = _grey_data((6, 7), np.float64)
    d = npgpu.asarray(x)
    for name in MORPH:
        f, g = getattr(snd, name), getattr(gnd, name)
        for kw in (dict(), dict(size=3, axes=(0, 3)), dict(size=3, axes=(1, 1)),
                   dict(footprint=np.ones((3, 3), bool), origin=2),
                   dict(structure=STRUCT2, axes=0), dict(size=3, mode="bogus"),
                   dict(footprint=np.zeros((2, 2), bool))):
            raises_like(lambda: f(x, **kw), lambda: g(d, **kw))
        raises_like(lambda: f(x + 1j, size=3), lambda: g(d + 1j, size=3))
    with pytest.warns(UserWarning, match="ignoring size"):
        gnd.white_tophat(d, size=3, footprint=np.ones((3, 3), bool))


def test_grey_opening_closing_axes():
    x = _grey_data((5, 7), np.float64)
    d = npgpu.asarray(x)
    for name in ("grey_opening", "grey_closing", "grey_erosion", "grey_dilation"):
        for kw in (dict(size=3, axes=1), dict(structure=STRUCT2[0], axes=(0,), origin=1)):
            _same(getattr(gnd, name)(d, **kw), getattr(snd, name)(x, **kw))


# ---- Fourier filters -------------------------------------------------------------------------
PARAMS = {"fourier_gaussian": [1.3, 0.7, 2.0], "fourier_uniform": [2.5, 4.0, 1.5],
          "fourier_ellipsoid": [2.1, 1.4, 3.0], "fourier_shift": [1.7, -2.25, 0.5]}


def _close(got, want, rtol=1e-12):
    """Relative to each value, with an absolute floor at ``rtol`` of the largest (a filter's
    zeros are computed by two libraries)."""
    assert isinstance(got, npgpu.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    scale = np.nanmax(np.abs(want), initial=0.0)      # NaN where SciPy divides by zero
    np.testing.assert_allclose(got.get(), want, rtol=rtol, atol=rtol * scale)


def _param(name, ndim, per_axis):
    p = PARAMS[name]
    return p[:ndim] if per_axis else p[0]


@pytest.mark.parametrize("shape", [(10,), (9, 12), (4, 5, 6)], ids=["1d", "2d", "3d"])
def test_fourier_complex(shape):
    """Complex transforms (fftn of random data) and their non-contiguous views; one and
    per-axis parameters."""
    x = np.fft.fftn(rng.standard_normal(shape))
    for name in FOURIER:
        for per_axis in (False, True):
            for h, d in _views(x):
                p = _param(name, h.ndim, per_axis)
                _close(getattr(gnd, name)(d, p), getattr(snd, name)(h, p))


@pytest.mark.parametrize("name", FOURIER)
def test_fourier_rfft(name):
    """``n > 0``: the input is rfft output of ``n`` samples along ``axis`` (odd and even n)."""
    for shape, axis in (((9, 11), -1), ((8, 6), 0), ((3, 4, 7), 1)):
        a = rng.standard_normal(shape)
        x = np.fft.rfftn(a, axes=[axis] + [k for k in range(a.ndim) if k != axis % a.ndim])
        p = _param(name, a.ndim, True)
        want = getattr(snd, name)(x, p, n=shape[axis], axis=axis)
        _close(getattr(gnd, name)(npgpu.asarray(x), p, n=shape[axis], axis=axis), want)


@pytest.mark.parametrize("name", FOURIER)
def test_fourier_dtypes(name):
    """complex64 and float32 stay (SciPy computes in float64 and rounds); int and bool give
    float64 (complex128 for the shift); a real input is a real 'transform'."""
    base = rng.standard_normal((6, 7))
    for dt in (np.complex64, np.float32, np.int16, np.bool_, np.float64):
        x = (base * 10).astype(dt) if dt != np.bool_ else base > 0
        want = getattr(snd, name)(x, 1.5, axis=0)
        rtol = 1e-12 if want.dtype in (np.float64, np.complex128) else 1e-6
        _close(getattr(gnd, name)(npgpu.asarray(x), 1.5, axis=0), want, rtol)


@pytest.mark.parametrize("name", FOURIER)
def test_fourier_output(name):
    x = np.fft.fft2(rng.standard_normal((5, 8)))
    d = npgpu.asarray(x)
    f, g = getattr(snd, name), getattr(gnd, name)
    _close(g(d, 2.0, output=np.complex64), f(x, 2.0, output=np.complex64), 1e-6)
    out = npgpu.zeros(x.shape, np.complex128)
    got = g(d, 2.0, output=out)
    assert got is out
    _close(got, f(x, 2.0, output=np.zeros(x.shape, np.complex128)))
    r = x.real.copy()
    rd = npgpu.asarray(r)
    if name != "fourier_shift":     # real outputs of real inputs
        _close(g(rd, 2.0, output=np.float32), f(r, 2.0, output=np.float32), 1e-6)
        _close(g(rd, 2.0, output=np.complex128), f(r, 2.0, output=np.complex128))
    # in place: the output is the input
    y = x.copy()
    yd = npgpu.asarray(y)
    got = g(yd, 2.0, output=yd)
    assert got is yd
    _close(got, f(y, 2.0, output=y))


@pytest.mark.parametrize("name", FOURIER)
def test_fourier_errors(name):
    x = np.fft.fft2(rng.standard_normal((4, 6)))
    d = npgpu.asarray(x)
    f, g = getattr(snd, name), getattr(gnd, name)
    r = x.real.astype(np.float32)
    rd = npgpu.asarray(r)
    for h, dv, args, kw in (
            (x, d, (1.0,), dict(output=np.int32)),              # output type
            (x, d, (1.0,), dict(output=float)),                 # not a NumPy scalar type
            (x, d, (1.0,), dict(output=np.dtype(np.float64))),  # SciPy's shape test fails
            (x, d, (1.0,), dict(output="f8")),                  # no shape at all
            (x, d, (1.0,), dict(output=np.float64)),            # complex input, real output
            (x, d, ([1.0, 2.0, 3.0],), {}),                     # sequence length
            (x, d, (1.0,), dict(axis=2)),                       # axis
            (x, d, (1.0,), dict(n=2.5)),                        # n not an integer
            (x, d, ("a",), {}),
            (r.astype(np.float16), rd.astype(np.float16), (1.0,), {}),
            (r, rd, (1.0,), dict(output=np.zeros((4, 5)))),
            (np.ones(()), npgpu.ones(()), (1.0,), {})):
        if isinstance(kw.get("output"), np.ndarray):
            dkw = dict(kw, output=npgpu.asarray(kw["output"]))
        else:
            dkw = kw
        raises_like(lambda: f(h, *args, **kw), lambda: g(dv, *args, **dkw))
    if name == "fourier_ellipsoid":
        raises_like(lambda: f(np.ones((2, 2, 2, 2)), 1.0),
                    lambda: g(npgpu.ones((2, 2, 2, 2)), 1.0))
    # SciPy's C loop raises at its first element: an empty float16 input passes
    e = np.ones((0, 3), np.float16)
    _close(g(npgpu.asarray(e), 1.0), f(e, 1.0))


def test_fourier_edge_parameters():
    """Axes of one term, zero and negative parameters, n = 0 (SciPy's C divides by zero)."""
    x = np.fft.fftn(rng.standard_normal((1, 6, 5)))
    d = npgpu.asarray(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name, p in (("fourier_uniform", [0.0, -1.0, 2.0]), ("fourier_gaussian", 0.0),
                        ("fourier_ellipsoid", [1.0, -2.0, 0.0]), ("fourier_shift", 0.0)):
            _close(getattr(gnd, name)(d, p), getattr(snd, name)(x, p))
            _close(getattr(gnd, name)(d, p, n=0, axis=1), getattr(snd, name)(x, p, n=0, axis=1))


@pytest.mark.parametrize("dt", ["i2", "u1", "i8", "f4", "?"])
@pytest.mark.parametrize("fn", ["grey_dilation", "grey_erosion", "white_tophat"])
def test_grey_structure_as_scipys_c_loop(dt, fn):
    """Non-integer and negative structure values on integer, float and bool input: SciPy's C
    loop (the first tap in double, later taps in the input's type) value for value."""
    rng = np.random.default_rng(5)
    st = np.array([[-0.5, 1.7, -2.2], [1.2, 0.0, -2.9], [0.1, -3.3, 0.6]])
    x = (rng.random((5, 6)) > 0.5 if dt == "?" else
         (rng.standard_normal((5, 6)) * 5).astype(dt) if dt == "f4" else
         rng.integers(0, 10, (5, 6)).astype(dt))
    for mode in ("reflect", "constant"):
        want = getattr(snd, fn)(x, structure=st, mode=mode, cval=1.5)
        got = getattr(gnd, fn)(npgpu.asarray(x).T.T, structure=st, mode=mode, cval=1.5)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)
