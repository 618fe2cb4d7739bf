"""The Array API surface (2024.12): namespace, inspection info, devices, device=, to_device,
cumulative_sum / cumulative_prod against NumPy."""
import sys

import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, error_of, make_layout, random_array
from test_reductions import check
from test_scans import small_values as _small

sys.setswitchinterval(5e-4)          # cheaper simulator barriers (see test_reductions)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

DEV = np.cuda.Device(0)
BAD_DEVICES = ["cpu", "cuda", 1.0, True, np.cuda.get_device_count(), -1]


# ---- namespace -------------------------------------------------------------------------------
def test_namespace_and_version():
    x = np.arange(3)
    assert np.__array_api_version__ == "2024.12" == numpy.__array_api_version__
    assert x.__array_namespace__() is np
    for v in ("2021.12", "2022.12", "2023.12", "2024.12"):
        assert x.__array_namespace__(api_version=v) is np
    for bad in ("2019.12", "2025.12", 2024):
        assert error_of(lambda: x.__array_namespace__(api_version=bad)) == \
            error_of(lambda: numpy.arange(3).__array_namespace__(api_version=bad))


def test_namespace_info():
    info = np.__array_namespace_info__()
    ref = numpy.__array_namespace_info__()
    caps = info.capabilities()
    assert caps == ref.capabilities()
    assert info.default_device() == DEV and isinstance(info.default_device(), np.cuda.Device)
    assert info.devices() == [np.cuda.Device(i) for i in range(np.cuda.get_device_count())]
    assert info.default_dtypes() == ref.default_dtypes()
    assert info.default_dtypes(device=DEV) == info.default_dtypes(device=0)
    kinds = [None, "bool", "signed integer", "unsigned integer", "integral", "real floating",
             "complex floating", "numeric", ("bool", "real floating"),
             ("signed integer", "complex floating")]
    for kind in kinds:
        got = info.dtypes(kind=kind, device=DEV)
        exp = {k: numpy.dtype(v) for k, v in ref.dtypes(kind=kind).items()}
        assert got == exp, kind
        assert list(got) == list(exp)        # the standard's order, as NumPy
    assert "float16" not in info.dtypes()   # supported by npgpu, not a standard dtype
    assert error_of(lambda: info.dtypes(kind="foo")) == error_of(lambda: ref.dtypes(kind="foo"))
    for bad in BAD_DEVICES:
        with pytest.raises(ValueError):
            info.dtypes(device=bad)
        with pytest.raises(ValueError):
            info.default_dtypes(device=bad)


# ---- devices ---------------------------------------------------------------------------------
def test_device_and_to_device():
    h = random_array((4, 5), numpy.float32)
    for layout in ("contiguous", "transposed", "negative", "zero_d", "empty"):
        d, ref = make_layout(h, layout)
        assert d.device == DEV and isinstance(d.device, np.cuda.Device)
        assert d.to_device(DEV) is d
        assert d.to_device(0) is d
        assert d.to_device(d.device, stream=np.cuda.get_current_stream()) is d
        numpy.testing.assert_array_equal(d.to_device(DEV).get(), ref)
    x = np.arange(3)
    for bad in BAD_DEVICES:
        with pytest.raises(ValueError):
            x.to_device(bad)
    with pytest.raises(TypeError, match="stream"):
        x.to_device(DEV, stream="s")
    with pytest.raises(TypeError):
        x.to_device(device=DEV)           # positional only, as the standard


def _creators():
    """(name, call taking device=) of every creation function with ``device=``."""
    h = random_array((3, 4), numpy.int16)
    g = np.asarray(h)
    return [
        ("empty", lambda **k: np.empty((2, 3), **k), None),
        ("zeros", lambda **k: np.zeros((2, 3), **k), numpy.zeros((2, 3))),
        ("ones", lambda **k: np.ones(4, dtype=numpy.int8, **k), numpy.ones(4, numpy.int8)),
        ("full", lambda **k: np.full((2, 2), 7.5, **k), numpy.full((2, 2), 7.5)),
        ("empty_like", lambda **k: np.empty_like(g, **k), None),
        ("zeros_like", lambda **k: np.zeros_like(g, **k), numpy.zeros_like(h)),
        ("ones_like", lambda **k: np.ones_like(g, dtype=numpy.float32, **k),
         numpy.ones_like(h, dtype=numpy.float32)),
        ("full_like", lambda **k: np.full_like(g, 3, **k), numpy.full_like(h, 3)),
        ("arange", lambda **k: np.arange(2, 11, 3, **k), numpy.arange(2, 11, 3)),
        ("linspace", lambda **k: np.linspace(0, 1, 7, **k), numpy.linspace(0, 1, 7)),
        ("eye", lambda **k: np.eye(3, 4, 1, **k), numpy.eye(3, 4, 1)),
        ("asarray host", lambda **k: np.asarray(h, **k), h),
        ("asarray list", lambda **k: np.asarray([[1, 2], [3, 4]], dtype=numpy.float32, **k),
         numpy.asarray([[1, 2], [3, 4]], dtype=numpy.float32)),
        ("asarray device", lambda **k: np.asarray(g, **k), h),
        ("astype", lambda **k: np.astype(g, numpy.float64, **k), h.astype(numpy.float64)),
        ("from_dlpack", lambda **k: np.from_dlpack(g, **k), h),
    ]


@pytest.mark.parametrize("name,make,exp", _creators(), ids=lambda v: v if isinstance(v, str) else "")
def test_device_keyword(name, make, exp):
    for dev in (None, DEV, 0, np.cuda.Device()):
        out = make(device=dev)
        assert isinstance(out, np.ndarray) and out.device == DEV
        if exp is not None:
            numpy.testing.assert_array_equal(out.get(), exp)
            assert out.dtype == exp.dtype
    for bad in BAD_DEVICES:
        with pytest.raises(ValueError):
            make(device=bad)


def test_asarray_device_keeps_copy_rules():
    g = np.arange(4)
    assert np.asarray(g, device=DEV) is g
    assert np.asarray(g, device=DEV, copy=False) is g
    c = np.asarray(g, device=DEV, copy=True)
    assert c is not g and c._mem is not g._mem
    numpy.testing.assert_array_equal(c.get(), numpy.arange(4))


# ---- cumulative_sum / cumulative_prod --------------------------------------------------------
def check_both_cumulatives(h, **kw):
    """cumulative_sum and cumulative_prod of host array ``h`` (copied to the device) match NumPy's."""
    check(np.cumulative_sum(np.asarray(h), **kw), numpy.cumulative_sum(h, **kw))
    check(np.cumulative_prod(np.asarray(h), **kw), numpy.cumulative_prod(h, **kw))


def _rtol(dt):
    return 1e-2 if numpy.dtype(dt).itemsize <= 2 else 1e-5


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_cumulative_dtypes_axes(dt):
    hs = random_array((3, 4, 5), dt, rng=numpy.random.default_rng(1))
    hp = _small((3, 4, 5), dt, 2)
    ds, dp = np.asarray(hs), np.asarray(hp)
    for axis in (0, 1, 2, -1, -3):
        for init in (False, True):
            check(np.cumulative_sum(ds, axis=axis, include_initial=init),
                  numpy.cumulative_sum(hs, axis=axis, include_initial=init), hs)
            check(np.cumulative_prod(dp, axis=axis, include_initial=init),
                  numpy.cumulative_prod(hp, axis=axis, include_initial=init), rtol=_rtol(dt))
    h1, d1 = hs[1, 2], ds[1, 2]              # 1-d: axis may be left out
    for init in (False, True):
        check(np.cumulative_sum(d1, include_initial=init),
              numpy.cumulative_sum(h1, include_initial=init), h1)
        check(np.cumulative_prod(dp[0, 0], include_initial=init),
              numpy.cumulative_prod(hp[0, 0], include_initial=init), rtol=_rtol(dt))


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided", "negative",
                                    "broadcast", "zero_d", "empty"])
def test_cumulative_layouts(layout):
    h0 = random_array((5, 7), numpy.float64, rng=numpy.random.default_rng(3))
    d, h = make_layout(h0, layout)
    axes = [None] if h.ndim <= 1 else [0, 1, -1]
    for axis in axes:
        for init in (False, True):
            for f, nf in ((np.cumulative_sum, numpy.cumulative_sum),
                          (np.cumulative_prod, numpy.cumulative_prod)):
                check(f(d, axis=axis, include_initial=init), nf(h, axis=axis, include_initial=init),
                      h)


def test_cumulative_long_rows_and_dtype():
    # rows of many tiles: the scan writes into the slice after the identity
    h = random_array((2, 300), numpy.int32, rng=numpy.random.default_rng(4))
    d = np.asarray(h)
    for axis in (0, 1):
        check(np.cumulative_sum(d, axis=axis, include_initial=True),
              numpy.cumulative_sum(h, axis=axis, include_initial=True))
    hb = random_array((40,), numpy.bool_, rng=numpy.random.default_rng(5))
    for dtype in (None, numpy.int8, numpy.float32, numpy.complex64):
        for init in (False, True):
            check_both_cumulatives(hb, dtype=dtype, include_initial=init)


def test_cumulative_out():
    h = random_array((3, 4), numpy.int16, rng=numpy.random.default_rng(6))
    d = np.asarray(h)
    for init in (False, True):
        shape = (3, 5) if init else (3, 4)
        out, hout = np.zeros(shape, numpy.float64), numpy.zeros(shape, numpy.float64)
        r = np.cumulative_sum(d, axis=1, out=out, include_initial=init)
        numpy.cumulative_sum(h, axis=1, out=hout, include_initial=init)
        assert r is out
        check(out, hout)
    bad = np.zeros((3, 4))
    with pytest.raises(ValueError):
        np.cumulative_sum(d, axis=1, out=bad, include_initial=True)


def test_cumulative_zero_d_and_empty():
    for h in (numpy.float32(2.5), numpy.array(-3, numpy.int8), numpy.array(True)):
        for init in (False, True):
            check_both_cumulatives(h, include_initial=init)
    for shape, axis in (((0,), None), ((2, 0), 1), ((2, 0), 0), ((0, 3), 0), ((0, 3), 1)):
        h = numpy.zeros(shape, numpy.float32)
        for init in (False, True):
            check_both_cumulatives(h, axis=axis, include_initial=init)


def test_cumulative_errors():
    h = random_array((2, 3), numpy.float64)
    d = np.asarray(h)
    for f, nf in ((np.cumulative_sum, numpy.cumulative_sum),
                  (np.cumulative_prod, numpy.cumulative_prod)):
        for kw in ({}, {"axis": 2}, {"axis": -3}, {"axis": 1.0}, {"dtype": "S3", "axis": 0}):
            e = error_of(lambda: nf(h, **kw))
            assert e is not None
            assert error_of(lambda: f(d, **kw)) == e, kw
        e = error_of(lambda: nf(numpy.float64(1.0), axis=1))
        assert error_of(lambda: f(np.asarray(1.0), axis=1)) == e
        with pytest.raises(TypeError):
            f(d, 0)                              # axis is keyword-only


def test_array_api_compat_recognises_npgpu():
    # array_api_compat knows no npgpu by name: it asks the array for __array_namespace__
    compat = pytest.importorskip("array_api_compat")
    g = np.arange(3.0)
    assert compat.is_array_api_obj(g)
    assert compat.array_namespace(g) is np
    assert compat.array_namespace(g, np.ones(2), api_version="2024.12") is np
    assert compat.device(g) == DEV
    assert compat.to_device(g, DEV) is g
    assert compat.size(np.empty((2, 3))) == 6
