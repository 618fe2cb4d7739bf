"""Scans against NumPy: cumsum, cumprod, nancumsum, nancumprod, over dtypes, axes and layouts."""
import sys

import numpy
import pytest

import npgpu as np
from npgpu._codegen import compiler
from conftest import ALL_DTYPES, make_layout, random_array
from test_reductions import check

sys.setswitchinterval(5e-4)          # cheaper simulator barriers (see test_reductions)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def small_values(shape, dt, seed):
    """Data whose running products stay finite: values near 1 (floats) or in [-2, 2] (ints)."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dt)
    if dt.kind in "fc":
        x = rng.uniform(0.7, 1.3, shape) * rng.choice([-1, 1], shape)
        if dt.kind == "c":
            x = x + 0.1j * rng.uniform(-1, 1, shape)
        return x.astype(dt)
    return random_array(shape, dt, rng=rng, low=-2, high=2)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_cumsum_cumprod_dtypes_axes(dt):
    h, hp = random_array((3, 4, 5), dt, rng=numpy.random.default_rng(1)), small_values((3, 4, 5), dt, 2)
    d, dp = np.asarray(h), np.asarray(hp)
    for axis in (None, 0, 1, 2, -1):
        check(np.cumsum(d, axis=axis), numpy.cumsum(h, axis=axis), h)
        check(np.cumprod(dp, axis=axis), numpy.cumprod(hp, axis=axis), rtol=1e-2 if dt.itemsize <= 2 else 1e-5)


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided", "negative", "broadcast",
                                    "zero_d", "empty"])
def test_layouts(layout):
    h0 = random_array((5, 7), numpy.float64, rng=numpy.random.default_rng(3))
    d, h = make_layout(h0, layout)
    for axis in [None] + list(range(h.ndim)):
        check(np.cumsum(d, axis=axis), numpy.cumsum(h, axis=axis), h)


def test_long_rows_use_three_phases():
    # rows longer than one tile: tile totals, scan of totals, rescan with carry-in
    for shape, axis, dt in [((700,), 0, "f8"), ((3, 150), 1, "i4"), ((2, 3, 90), -1, "f4"),
                            ((333,), 0, "u1"), ((130,), 0, "c8")]:
        h = random_array(shape, dt, rng=numpy.random.default_rng(4))
        check(np.cumsum(np.asarray(h), axis=axis), numpy.cumsum(h, axis=axis), h, rtol=1e-5)
    b = numpy.random.default_rng(5).random(300) > 0.5
    check(np.cumsum(np.asarray(b)), numpy.cumsum(b))
    p = small_values((200,), "f8", 6)
    check(np.cumprod(np.asarray(p)), numpy.cumprod(p), rtol=1e-10)


def test_dtype_out_and_methods():
    h = random_array((4, 6), numpy.int8, rng=numpy.random.default_rng(7))
    d = np.asarray(h)
    assert np.cumsum(d).dtype == numpy.cumsum(h).dtype
    check(np.cumsum(d, axis=1, dtype=numpy.float32), numpy.cumsum(h, axis=1, dtype=numpy.float32), h)
    check(np.cumsum(d, axis=0, dtype=numpy.int8), numpy.cumsum(h, axis=0, dtype=numpy.int8))
    o = np.zeros((4, 6), numpy.int64)
    assert np.cumsum(d, axis=1, out=o) is o
    check(o, numpy.cumsum(h, axis=1))
    check(d.cumsum(axis=0), h.cumsum(axis=0))
    check(d.cumprod(), h.cumprod())
    x = np.asarray(h.astype(numpy.int64))
    np.cumsum(x, axis=1, out=x)                       # in place
    check(x, numpy.cumsum(h.astype(numpy.int64), axis=1))
    with pytest.raises(numpy.exceptions.AxisError):
        np.cumsum(d, axis=2)
    with pytest.raises(ValueError):
        np.cumsum(d, out=np.zeros(5))


@pytest.mark.parametrize("dt", ["f2", "f4", "f8", "c16", "i4"])
def test_nancumsum_nancumprod(dt):
    h = small_values((4, 9), dt, 8)
    if h.dtype.kind in "fc":
        h[0, 0] = numpy.nan
        h[2, 4:7] = numpy.nan
    d = np.asarray(h)
    for axis in (None, 0, 1):
        check(np.nancumsum(d, axis=axis), numpy.nancumsum(h, axis=axis), numpy.nan_to_num(h))
        check(np.nancumprod(d, axis=axis), numpy.nancumprod(h, axis=axis), rtol=1e-2 if dt == "f2" else 1e-5)


def test_tiny_scan_is_one_launch():
    d = np.asarray(numpy.arange(12, dtype=numpy.float32))
    np.cumsum(d)
    before = compiler.stats["launches"]
    r = np.cumsum(d)
    assert compiler.stats["launches"] - before == 1
    check(r, numpy.cumsum(numpy.arange(12, dtype=numpy.float32)))


def test_scan_sources_are_parallel():
    np.cumsum(np.asarray(numpy.arange(100.0)))
    srcs = [s for n, s in np.kernel_sources().items() if n.startswith("scan_block")]
    assert srcs and all("cuda.syncthreads()" in s for s in srcs)
    if np.backend() == "cuda":
        assert any("shfl_up_sync" in s for s in srcs)
    else:                            # the simulator's rendering: shared-memory scan, no warp intrinsics
        assert any("shfl_up_sync" not in s for s in srcs)
