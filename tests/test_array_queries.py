"""isfortran, shares_memory, may_share_memory (NumPy's answers from the device arrays' pointers,
shapes and strides), require, asarray_chkfinite -- against NumPy on the same views of host
arrays."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, raises_like

H = numpy.random.default_rng(7).standard_normal((4, 6))
HC = H + 1j * H[::-1]

VIEWS = {
    "same": (lambda x: x, lambda x: x),
    "halves": (lambda x: x[:2], lambda x: x[2:]),
    "interleaved": (lambda x: x[:, ::2], lambda x: x[:, 1::2]),
    "reversed": (lambda x: x[::-1], lambda x: x),
    "transposed_row": (lambda x: x.T, lambda x: x[1]),
    "empty": (lambda x: x[:0], lambda x: x),
    "diagonal_column": (lambda x: x[::7].reshape(-1), lambda x: x[:, 0]),
    "reshaped_tail": (lambda x: x.reshape(-1)[5:9], lambda x: x[1, ::-3]),
}


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("fn", ["shares_memory", "may_share_memory"])
def test_overlap_as_numpy(view, fn):
    f, g = VIEWS[view]
    d = np.asarray(H)
    want = getattr(numpy, fn)(f(H), g(H))
    assert getattr(np, fn)(f(d), g(d)) is want
    assert getattr(numpy, fn)(f(d), g(d)) is want            # NumPy's call dispatches here


def test_overlap_fields_devices_and_host():
    d = np.asarray(HC)
    for fn in ("shares_memory", "may_share_memory"):
        assert getattr(np, fn)(d.real, d.imag) is getattr(numpy, fn)(HC.real, HC.imag)
        assert getattr(np, fn)(d, np.asarray(HC)) is False        # another allocation
        assert getattr(np, fn)(d, HC) is False                    # device vs host memory
        assert getattr(np, fn)(H, H[1:]) is getattr(numpy, fn)(H, H[1:])
    assert np.shares_memory(d, d, max_work=10) is True


@pytest.mark.parametrize("make", [lambda x: x, lambda x: x.T, lambda x: x[:, ::2],
                                  lambda x: x[:1], lambda x: x[0], lambda x: x[:0].T])
def test_isfortran(make):
    assert np.isfortran(make(np.asarray(H))) is numpy.isfortran(make(H))


@pytest.mark.parametrize("req", [None, "C", "F", "A", "W", "O", "E", "CW", ["F", "A"],
                                 ["C_CONTIGUOUS", "ALIGNED"], ["fortran", "owndata"],
                                 ["ENSUREARRAY"]])
@pytest.mark.parametrize("make", [lambda x: x, lambda x: x[:, ::2], lambda x: x.T])
def test_require(req, make):
    d, h = make(np.asarray(H)), make(H)
    got, want = np.require(d, None, req), numpy.require(h, None, req)
    assert_same(got, want)
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "WRITEABLE"):
        assert got.flags[flag] == want.flags[flag], flag
    assert (got is d) == (want is h)                  # copied exactly when NumPy copies


def test_require_dtype_and_errors():
    assert_same(np.require(np.asarray(H), "f4", "C"), numpy.require(H, "f4", "C"))
    assert_same(np.require([1, 2, 3], requirements="W"), numpy.require([1, 2, 3],
                                                                       requirements="W"))
    for req in ("CF", ["C", "FORTRAN"], "Z"):
        raises_like(lambda: numpy.require(H, requirements=req),
                    lambda: np.require(np.asarray(H), requirements=req))


@pytest.mark.parametrize("data", [H, HC, H.astype("f4"), numpy.arange(5), [1.5, 2.0]])
def test_asarray_chkfinite(data):
    d = np.asarray(data) if isinstance(data, numpy.ndarray) else data
    assert_same(np.asarray_chkfinite(d), numpy.asarray_chkfinite(data))
    bad = numpy.array(data, dtype=float if not numpy.iscomplexobj(data) else complex)
    for v in (numpy.nan, numpy.inf, complex(0, numpy.inf)):
        if isinstance(v, complex) and bad.dtype.kind != "c":
            continue
        b = bad.copy()
        b.reshape(-1)[-1] = v
        raises_like(lambda: numpy.asarray_chkfinite(b),
                    lambda: np.asarray_chkfinite(np.asarray(b)))
    if not numpy.iscomplexobj(data):
        assert_same(np.asarray_chkfinite(d, dtype="f4"),
                    numpy.asarray_chkfinite(data, dtype="f4"))


@pytest.mark.parametrize("value", [numpy.arange(4, dtype="i8"), numpy.float64(3.5),
                                   numpy.array(300, "i8"), numpy.array(-2.5, "f8"),
                                   numpy.array(1e300), numpy.array(True), numpy.array(2 + 1j)])
def test_min_scalar_type(value):
    want = numpy.min_scalar_type(value)
    assert np.min_scalar_type(np.asarray(value)) == want
    assert numpy.min_scalar_type(np.asarray(value)) == want      # NumPy's call dispatches here
    assert np.min_scalar_type(value) == want
