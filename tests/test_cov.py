"""cov and corrcoef against NumPy: every dtype, rowvar, bias, ddof, fweights, aweights, y,
dtype=, layouts, degenerate inputs and NumPy's errors (value checks of the weights included)."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, assert_matches, make_layout, raises_like

RNG = numpy.random.default_rng(1415)


def data(shape, dt):
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return RNG.random(shape) > 0.5
    if dt.kind in "iu":
        return RNG.integers(0, 20, size=shape).astype(dt)
    h = RNG.standard_normal(shape) * 5
    if dt.kind == "c":
        h = h + 1j * RNG.standard_normal(shape) * 5
    return h.astype(dt)


def close(got, want, dt=None):
    want = numpy.asarray(want)
    dt = numpy.dtype(dt or want.dtype)
    half = dt.kind in "fc" and dt.itemsize // (2 if dt.kind == "c" else 1) <= 4
    rtol = {2: 2e-2, 4: 2e-4}.get(dt.itemsize if dt.kind == "f" else dt.itemsize // 2, 1e-10) \
        if half else 1e-10
    assert_matches(got, want, rtol=rtol, atol=rtol)


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_cov_every_dtype(dt):
    h = data((3, 8), dt)
    close(np.cov(np.asarray(h)), numpy.cov(h), dt)
    close(np.cov(np.asarray(h), rowvar=False), numpy.cov(h, rowvar=False), dt)
    close(np.corrcoef(np.asarray(h)), numpy.corrcoef(h), dt)


@pytest.mark.parametrize("kw", [{}, {"bias": True}, {"ddof": 0}, {"ddof": 3}, {"rowvar": False},
                                {"fweights": "f"}, {"aweights": "a"},
                                {"fweights": "f", "aweights": "a"},
                                {"fweights": "f", "aweights": "a", "ddof": 2},
                                {"fweights": "f", "bias": True}, {"aweights": "a", "ddof": 0}])
@pytest.mark.parametrize("dt", ["f8", "f4", "c16"])
def test_cov_options(kw, dt):
    h = data((4, 9), dt)
    kw = dict(kw)
    nobs = h.shape[0] if kw.get("rowvar") is False else h.shape[1]
    host_kw, dev_kw = dict(kw), dict(kw)
    if "fweights" in kw:
        f = RNG.integers(0, 4, nobs)
        host_kw["fweights"], dev_kw["fweights"] = f, np.asarray(f)
    if "aweights" in kw:
        a = RNG.random(nobs)
        host_kw["aweights"], dev_kw["aweights"] = a, list(a)       # host weights work too
    close(np.cov(np.asarray(h), **dev_kw), numpy.cov(h, **host_kw), dt)


def test_cov_with_y_and_dtype():
    x, y = data((2, 6), "f4"), data((6,), "i4")
    close(np.cov(np.asarray(x), np.asarray(y)), numpy.cov(x, y))
    close(np.cov(np.asarray(x).T, np.asarray(y), rowvar=False), numpy.cov(x.T, y, rowvar=False))
    close(np.cov(np.asarray(x), dtype=numpy.float32), numpy.cov(x, dtype=numpy.float32))
    close(np.corrcoef(np.asarray(x), np.asarray(y), dtype=numpy.float32),
          numpy.corrcoef(x, y, dtype=numpy.float32))
    # one variable: a 0-d result
    v = data((7,), "f8")
    close(np.cov(np.asarray(v)), numpy.cov(v))
    close(np.corrcoef(np.asarray(v)), numpy.corrcoef(v))


@pytest.mark.parametrize("layout", ["transposed", "strided", "negative", "broadcast"])
def test_layouts(layout):
    d, h = make_layout(data((4, 6), "f8"), layout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # a broadcast row has zero variance
        close(np.cov(d), numpy.cov(h))
        close(np.corrcoef(d), numpy.corrcoef(h))
    assert d.shape == (4, 6)                  # the input is not centred in place


def test_corrcoef_complex_and_degenerate():
    h = data((3, 5), "c8")
    close(np.corrcoef(np.asarray(h)), numpy.corrcoef(h), "c8")
    h = data((3, 5), "f8")
    h[1] = 2.0                               # zero variance: NaN row and column, as NumPy
    h[2, 0] = numpy.inf
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        close(np.corrcoef(np.asarray(h)), numpy.corrcoef(h))
        close(np.cov(np.asarray(h[:, :1])), numpy.cov(h[:, :1]))        # dof <= 0
    assert np.cov(np.asarray(numpy.zeros((0, 3)))).shape == (0, 0)


@pytest.mark.parametrize("call", [
    lambda m, x: m.cov(x, ddof=1.5),
    lambda m, x: m.cov(x.reshape(2, 2, 5)),
    lambda m, x: m.cov(x, x.reshape(2, 2, 5)),
    lambda m, x: m.cov(x, fweights=[1, 2, 1.5, 1, 1]),
    lambda m, x: m.cov(x, fweights=[1, 2, 1, 1, -1]),
    lambda m, x: m.cov(x, fweights=[[1, 2, 1, 1, 1]]),
    lambda m, x: m.cov(x, fweights=[1, 2, 1]),
    lambda m, x: m.cov(x, aweights=[1, 2, 1, 1, -1.0]),
    lambda m, x: m.cov(x, aweights=[1, 2, 1]),
    lambda m, x: m.cov(x, aweights=[[1, 2, 1, 1, 1]]),
    lambda m, x: m.cov(x, fweights=[0, 0, 0, 0, 0]),
])
def test_errors(call):
    h = data((4, 5), "f8")

    def dev(x):
        return call(np, np.asarray(x))
    raises_like(lambda: call(numpy, h), lambda: dev(h))


def test_integer_dtype_refused():
    # NumPy's in-place centring refuses the float mean into an integer X (a UFuncTypeError,
    # npgpu's ufuncs raise a TypeError with the same message)
    h = data((4, 5), "f8")
    with pytest.raises(TypeError) as want:
        numpy.cov(h, dtype=numpy.int64)
    with pytest.raises(TypeError) as got:
        np.cov(np.asarray(h), dtype=numpy.int64)
    assert str(got.value) == str(want.value)


def test_numpy_dispatch():
    h = data((3, 6), "f8")
    close(numpy.cov(np.asarray(h)), numpy.cov(h))
    close(numpy.corrcoef(np.asarray(h)), numpy.corrcoef(h))
