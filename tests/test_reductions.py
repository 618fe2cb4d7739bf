"""Reductions and statistics against NumPy: dtypes x axes x keepdims x layouts, NumPy's errors."""
import sys
import warnings

import numpy
import pytest

import npgpu as np
from npgpu._codegen import compiler
from conftest import ALL_DTYPES, make_layout, random_array

# The simulator runs one OS thread per CUDA thread and its barriers hand the GIL
# around: a short switch interval makes block-level barriers much cheaper.
sys.setswitchinterval(5e-4)
# simulated kernels compute with NumPy scalars in worker threads: integer wrap-around
# (what the GPU does silently) shows up as RuntimeWarnings there
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

AXES = [None, 0, 1, -1, (0, 2), (1, 2), (0, 1, 2)]
# one dtype of each kind and size (the others: the same template paths)
AXES_DTYPES = {numpy.dtype(t) for t in ("?", "i1", "u4", "i8", "f2", "f4", "c16")}


def check(got, exp, src=None, rtol=None, check_dtype=True):
    """Compare with NumPy; float tolerances scale with the sum of |x| (rounding of long sums)."""
    g = got.get() if isinstance(got, np.ndarray) else numpy.asarray(got)
    e = numpy.asarray(exp)
    if check_dtype:
        assert g.dtype == e.dtype, f"dtype {g.dtype} != {e.dtype}"
    assert g.shape == e.shape, f"shape {g.shape} != {e.shape}"
    if e.dtype.kind in "fc":
        bits = e.dtype.itemsize // (2 if e.dtype.kind == "c" else 1)
        r = rtol if rtol is not None else {2: 4e-3, 4: 2e-5, 8: 1e-12}[bits]
        scale = 1.0 if src is None else float(numpy.abs(numpy.asarray(src, dtype=numpy.complex128)).sum()) + 1
        numpy.testing.assert_allclose(g.astype(numpy.complex128), e.astype(numpy.complex128),
                                      rtol=r, atol=r * scale, equal_nan=True)
    else:
        numpy.testing.assert_array_equal(g, e)


def host_and_dev(shape, dt, seed=0, **kw):
    h = random_array(shape, dt, rng=numpy.random.default_rng(seed), **kw)
    return h, np.asarray(h)


# ---- sum / prod / min / max over every dtype, axis and keepdims -----------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("name", ["sum", "max", "min"])
def test_dtype_axes_keepdims(name, dt):
    h, d = host_and_dev((3, 5, 4), dt, seed=1)
    # min is max's code with the other sentinel and compare: a full row and a column cover its
    # combine in both kernel shapes (each is a kernel CI compiles); a full row, a column and a
    # multi-axis reduction cover the kernel shapes for the dtypes whose kind and size another
    # dtype of the list runs every axis in
    every_axis = name != "min" and dt in AXES_DTYPES
    for axis in AXES if every_axis else [None, 1] if name == "min" else [None, 1, (0, 2)]:
        for kd in (False, True):
            exp = getattr(numpy, name)(h, axis=axis, keepdims=kd)
            check(getattr(np, name)(d, axis=axis, keepdims=kd), exp, h)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_prod(dt):
    rng = numpy.random.default_rng(2)
    if dt.kind in "fc":
        h = (rng.uniform(0.5, 1.5, (4, 6)) * (1 + 0j if dt.kind == "c" else 1)).astype(dt)
    else:
        h = random_array((4, 6), dt, rng=rng, low=-3, high=3)
    d = np.asarray(h)
    for axis in (None, 0, 1):
        check(np.prod(d, axis=axis), numpy.prod(h, axis=axis), rtol=1e-2 if dt.itemsize <= 2 else None)


LAYOUT_CASES = ["contiguous", "transposed", "strided", "negative", "broadcast", "zero_d", "empty"]


@pytest.mark.parametrize("layout", LAYOUT_CASES)
@pytest.mark.parametrize("dt", [numpy.dtype("f4"), numpy.dtype("i4"), numpy.dtype("c16")], ids=str)
def test_layouts(layout, dt):
    h0 = random_array((6, 9), dt, rng=numpy.random.default_rng(3))
    d, h = make_layout(h0, layout)
    axes = [None] + list(range(h.ndim)) + ([(0, 1)] if h.ndim == 2 else [])
    for axis in axes:
        check(np.sum(d, axis=axis), numpy.sum(h, axis=axis), h)
        check(np.mean(d, axis=axis), numpy.mean(h, axis=axis), h)
        if h.size:
            check(np.max(d, axis=axis), numpy.max(h, axis=axis))
            if axis is None or isinstance(axis, int):
                check(np.argmax(d, axis=axis), numpy.argmax(h, axis=axis))
                check(np.argmin(d, axis=axis), numpy.argmin(h, axis=axis))


def test_3d_layouts_all_axes():
    h = random_array((4, 6, 5), numpy.float64, rng=numpy.random.default_rng(4))
    views = [(np.asarray(h), h),
             (np.asarray(numpy.ascontiguousarray(h.transpose(2, 0, 1))).transpose(1, 2, 0), h),
             (np.asarray(h)[::-1, :, ::2], h[::-1, :, ::2]),
             (np.asarray(h)[:, ::-2, 1:], h[:, ::-2, 1:])]
    for d, hh in views:
        for axis in AXES:
            check(np.sum(d, axis=axis), numpy.sum(hh, axis=axis), hh)
            check(np.var(d, axis=axis), numpy.var(hh, axis=axis), hh)
        for axis in (None, 0, 1, 2):
            check(np.argmin(d, axis=axis), numpy.argmin(hh, axis=axis))


def test_long_rows_take_two_passes():
    # long enough that the reduced range is split across blocks and a second launch combines
    for shape, axis in [((2000,), None), ((3, 700), 1), ((700, 3), 0), ((40, 50), None),
                        ((50, 40), 0), ((5, 9, 40), (0, 2))]:
        h, d = host_and_dev(shape, numpy.float32, seed=5)
        check(np.sum(d, axis=axis), numpy.sum(h, axis=axis), h)
        check(np.max(d, axis=axis), numpy.max(h, axis=axis))
        check(np.std(d, axis=axis), numpy.std(h, axis=axis), rtol=1e-4)
        if not isinstance(axis, tuple):
            check(np.argmax(d, axis=axis), numpy.argmax(h, axis=axis))


# ---- accumulation dtypes ----------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_result_dtypes_match_numpy(dt):
    h, d = host_and_dev((5, 3), dt, seed=6)
    for fn in ("sum", "prod", "mean", "max", "any", "all", "argmax", "count_nonzero"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp = numpy.asarray(getattr(numpy, fn)(h, axis=0))
        got = getattr(np, fn)(d, axis=0)
        if fn == "count_nonzero":
            assert got.get().tolist() == exp.tolist()
            continue
        assert got.dtype == exp.dtype, (fn, got.dtype, exp.dtype)
        check(got, exp, h, rtol=1e-2 if dt.itemsize <= 2 and dt.kind in "fc" else None)


def test_int8_sum_does_not_overflow_and_dtype_kwarg():
    h = numpy.full(300, 100, numpy.int8)
    d = np.asarray(h)
    assert np.sum(d).get() == 30000 and np.sum(d).dtype == numpy.int64
    check(np.sum(d, dtype=numpy.int8), numpy.sum(h, dtype=numpy.int8))
    check(np.sum(d, dtype=numpy.float32), numpy.sum(h, dtype=numpy.float32))
    b = numpy.random.default_rng(7).random(50) > 0.3
    assert np.sum(np.asarray(b)).get() == b.sum() and np.sum(np.asarray(b)).dtype == numpy.int64


def test_float16_accumulates_in_float32():
    h = numpy.full(3000, 0.1, numpy.float16)
    got = np.sum(np.asarray(h)).get()
    assert got.dtype == numpy.float16
    assert abs(float(got) - 0.1 * 3000) < 1.0            # a float16 accumulator would stall at 256
    check(np.mean(np.asarray(h)), numpy.mean(h))


# ---- statistics -------------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", [numpy.dtype(t) for t in ("i2", "u4", "f2", "f4", "f8", "c8", "c16", "?")],
                         ids=str)
def test_mean_var_std(dt):
    h, d = host_and_dev((6, 7), dt, seed=8)
    # every axis for a bool, a real and a complex dtype; the rows for the others (each axis of
    # each function and dtype is a kernel for CI's PTX check: the same template paths), whose
    # whole-array reductions run below
    for axis in (None, 0, 1) if dt.str[1:] in ("b1", "f4", "c16") else (1,):
        for ddof in (0, 1):
            check(np.var(d, axis=axis, ddof=ddof), numpy.var(h, axis=axis, ddof=ddof), rtol=2e-3 if dt.itemsize <= 2 else 1e-4)
            check(np.std(d, axis=axis, ddof=ddof), numpy.std(h, axis=axis, ddof=ddof), rtol=2e-3 if dt.itemsize <= 2 else 1e-4)
        check(np.mean(d, axis=axis), numpy.mean(h, axis=axis), h)
    check(np.mean(d, dtype=numpy.float32), numpy.mean(h, dtype=numpy.float32), h, rtol=1e-4) \
        if dt.kind != "c" else None
    check(np.std(d, correction=1), numpy.std(h, correction=1), rtol=1e-3)


def test_var_accuracy_with_large_offset():
    h = (1e6 + numpy.random.default_rng(9).random(500)).astype(numpy.float64)
    check(np.var(np.asarray(h)), numpy.var(h), rtol=1e-9)


def test_var_ddof_too_large_gives_inf_or_nan():
    h = numpy.array([1.0, 2.0, 4.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(np.var(np.asarray(h), ddof=3), numpy.var(h, ddof=3))
        check(np.var(np.asarray(h[:1]), ddof=1), numpy.var(h[:1], ddof=1))


def test_methods():
    h, d = host_and_dev((4, 5), numpy.float64, seed=10)
    for name in ("sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std", "any", "all",
                 "cumsum", "cumprod"):
        check(getattr(d, name)(axis=1), getattr(h, name)(axis=1), h)
    check(d.ptp(axis=0), numpy.ptp(h, axis=0))
    check(d.std(ddof=1), h.std(ddof=1))
    check(d.sum(0, keepdims=True), h.sum(0, keepdims=True), h)


# ---- NaN handling, first occurrence ------------------------------------------------------------------
@pytest.mark.parametrize("dt", ["f2", "f4", "f8", "c8", "c16"])
def test_nan_propagation_and_nan_functions(dt):
    rng = numpy.random.default_rng(11)
    h = random_array((5, 8), dt, rng=rng)
    h[1, 3] = numpy.nan
    h[3, :] = numpy.nan              # an all-NaN row
    h[4, 2] = numpy.nan
    d = np.asarray(h)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # every axis for a real and a complex dtype; the rows for the others (each axis of
        # each function and dtype is a kernel for CI's PTX check: the same template paths)
        for axis in (None, 0, 1) if dt in ("f4", "c16") else (1,):
            check(np.max(d, axis=axis), numpy.max(h, axis=axis))
            check(np.min(d, axis=axis), numpy.min(h, axis=axis))
            check(np.nanmax(d, axis=axis), numpy.nanmax(h, axis=axis))
            check(np.nanmin(d, axis=axis), numpy.nanmin(h, axis=axis))
            check(np.nansum(d, axis=axis), numpy.nansum(h, axis=axis), numpy.nan_to_num(h))
            check(np.nanmean(d, axis=axis), numpy.nanmean(h, axis=axis), numpy.nan_to_num(h))
            check(np.nanvar(d, axis=axis), numpy.nanvar(h, axis=axis), rtol=3e-3)
            check(np.nanstd(d, axis=axis, ddof=1), numpy.nanstd(h, axis=axis, ddof=1), rtol=3e-3)
            if axis is not None:
                check(np.argmax(d, axis=axis), numpy.argmax(h, axis=axis))
                check(np.argmin(d, axis=axis), numpy.argmin(h, axis=axis))
        check(np.argmax(d), numpy.argmax(h))
        ok = numpy.delete(h, 3, axis=0)
        check(np.nanargmax(np.asarray(ok), axis=1), numpy.nanargmax(ok, axis=1))
        check(np.nanargmin(np.asarray(ok)), numpy.nanargmin(ok))
        small = numpy.where(numpy.isnan(h), 1, h).astype(dt)
        small[1, 3] = numpy.nan
        check(np.nanprod(np.asarray(small[:, :3]), axis=1), numpy.nanprod(small[:, :3], axis=1),
              rtol=5e-3)
    with pytest.raises(ValueError, match="All-NaN"):
        np.nanargmax(d, axis=1)


def test_arg_first_occurrence_with_ties():
    h = numpy.array([[3, 7, 7, 1, 7], [1, 1, 0, 0, 5], [2, 2, 2, 2, 2]], numpy.int16)
    d = np.asarray(h)
    for axis in (None, 0, 1):
        check(np.argmax(d, axis=axis), numpy.argmax(h, axis=axis))
        check(np.argmin(d, axis=axis), numpy.argmin(h, axis=axis))
    f = numpy.array([-numpy.inf, 2.0, numpy.inf, numpy.inf, -numpy.inf, 0.0])
    check(np.argmax(np.asarray(f)), numpy.argmax(f))
    check(np.argmin(np.asarray(f)), numpy.argmin(f))
    b = numpy.array([False, True, True, False])
    check(np.argmax(np.asarray(b)), numpy.argmax(b))
    check(np.argmin(np.asarray(b)), numpy.argmin(b))
    long = numpy.zeros(500, numpy.float32)
    long[[77, 300, 412]] = 5.0
    check(np.argmax(np.asarray(long)), 77)
    check(np.argmax(np.asarray(long), keepdims=True), numpy.argmax(long, keepdims=True))


# ---- any / all / ptp / count_nonzero ---------------------------------------------------------------
@pytest.mark.parametrize("dt", ["?", "i1", "u8", "f2", "f4", "c8"])
def test_any_all_count_nonzero_ptp(dt):
    rng = numpy.random.default_rng(12)
    h = random_array((4, 6), dt, rng=rng)
    h[1] = 0
    h[:, 2] = 0
    if dt != "?":
        h[0, 0] = 0
    d = np.asarray(h)
    # every axis for a bool and a real dtype; the rows for the others (each axis of each
    # function and dtype is a kernel for CI's PTX check: the same template paths)
    for axis in (None, 0, 1) if dt in ("?", "f4") else (1,):
        check(np.any(d, axis=axis), numpy.any(h, axis=axis))
        check(np.all(d, axis=axis), numpy.all(h, axis=axis))
        assert np.count_nonzero(d, axis=axis).get().tolist() == \
            numpy.asarray(numpy.count_nonzero(h, axis=axis)).tolist()
        if dt != "?":
            check(np.ptp(d, axis=axis), numpy.ptp(h, axis=axis))
    check(np.any(d, axis=1, keepdims=True), numpy.any(h, axis=1, keepdims=True))
    assert np.count_nonzero(d, axis=(0, 1), keepdims=True).get().tolist() == \
        numpy.count_nonzero(h, axis=(0, 1), keepdims=True).tolist()
    check(np.all(np.asarray(numpy.zeros((0, 3), h.dtype)), axis=0),
          numpy.all(numpy.zeros((0, 3), h.dtype), axis=0))


# ---- where= / initial= / out= ------------------------------------------------------------------------------
def test_where_initial_out():
    rng = numpy.random.default_rng(13)
    h = random_array((5, 6), numpy.float64, rng=rng)
    m = rng.random((5, 6)) > 0.4
    d, dm = np.asarray(h), np.asarray(m)
    for axis in (None, 0, 1):
        check(np.sum(d, axis=axis, where=dm), numpy.sum(h, axis=axis, where=m), h)
        check(np.sum(d, axis=axis, initial=3.5), numpy.sum(h, axis=axis, initial=3.5), h)
        check(np.max(d, axis=axis, where=dm, initial=-50),
              numpy.max(h, axis=axis, where=m, initial=-50))
        check(np.min(d, axis=axis, initial=-5), numpy.min(h, axis=axis, initial=-5))
        check(np.mean(d, axis=axis, where=dm), numpy.mean(h, axis=axis, where=m), h)
        check(np.var(d, axis=axis, where=dm), numpy.var(h, axis=axis, where=m), rtol=1e-9)
        check(np.prod(d[:, :2], axis=axis, where=dm[:, :2]), numpy.prod(h[:, :2], axis=axis, where=m[:, :2]))
    row = m[0]                                           # broadcast mask
    check(np.sum(d, axis=0, where=np.asarray(row)), numpy.sum(h, axis=0, where=row), h)
    check(np.sum(d, axis=1, where=[True, False] * 3), numpy.sum(h, axis=1, where=[True, False] * 3), h)
    o = np.zeros(6, numpy.float64)
    r = np.sum(d, axis=0, out=o)
    assert r is o
    check(o, h.sum(axis=0), h)
    o2 = np.zeros((5, 1), numpy.float32)
    np.mean(d, axis=1, keepdims=True, out=o2)
    check(o2, h.mean(axis=1, keepdims=True).astype(numpy.float32), h, rtol=1e-5)
    big = np.zeros((3, 8), numpy.float64)
    np.max(d[:, :3].T, axis=1, out=big[:, ::2][:, 1])    # strided out
    check(big[:, 2], h[:, :3].T.max(axis=1))
    oi = np.zeros((), numpy.int64)
    np.argmax(d, out=oi)
    check(oi, numpy.argmax(h))
    # out overlapping the input
    x = np.asarray(h.copy())
    np.sum(x, axis=0, out=x[0])
    check(x[0], h.sum(axis=0), h)


def test_empty_reductions():
    e = numpy.zeros((0, 4), numpy.float32)
    d = np.asarray(e)
    check(np.sum(d), numpy.sum(e))
    check(np.sum(d, axis=0), numpy.sum(e, axis=0))
    check(np.sum(d, axis=1), numpy.sum(e, axis=1))
    check(np.prod(d, axis=0), numpy.prod(e, axis=0))
    check(np.max(d, axis=1), numpy.max(e, axis=1))         # empty result: fine
    check(np.max(d, axis=0, initial=2.0), numpy.max(e, axis=0, initial=2.0))
    check(np.any(d), numpy.any(e))
    check(np.all(d, axis=0), numpy.all(e, axis=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(np.mean(d, axis=0), numpy.mean(e, axis=0))
        check(np.var(d, axis=0), numpy.var(e, axis=0))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        np.max(d)
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        np.min(d, axis=0)
    with pytest.raises(ValueError, match="empty sequence"):
        np.argmax(d)
    with pytest.raises(ValueError):
        np.ptp(d, axis=0)


def test_zero_d():
    h = numpy.array(2.5, numpy.float32)
    d = np.asarray(h)
    for fn in ("sum", "prod", "max", "mean", "var", "argmax", "any"):
        check(getattr(np, fn)(d), getattr(numpy, fn)(h))
    check(np.sum(d, axis=0) if False else np.sum(d, keepdims=True), numpy.sum(h, keepdims=True))


def test_errors_match_numpy():
    d = np.asarray(numpy.ones((2, 3)))
    with pytest.raises(numpy.exceptions.AxisError):
        np.sum(d, axis=2)
    with pytest.raises(numpy.exceptions.AxisError):
        np.argmax(d, axis=-3)
    with pytest.raises(ValueError, match="duplicate"):
        np.sum(d, axis=(0, 0))
    with pytest.raises(TypeError):
        np.argmax(d, axis=(0, 1))
    with pytest.raises(ValueError, match="wrong shape"):
        np.sum(d, axis=0, out=np.zeros(2))
    with pytest.raises(ValueError, match="identity"):
        np.max(d, where=np.asarray(numpy.ones((2, 3), bool)))
    with pytest.raises(ValueError):
        np.sum(d, where=np.asarray(numpy.ones(4, bool)))
    with pytest.raises(TypeError):
        np.argmax(d, out=np.zeros((), numpy.float32))


# ---- average, diff --------------------------------------------------------------------------------
def test_average():
    rng = numpy.random.default_rng(14)
    h = random_array((4, 5), numpy.float32, rng=rng)
    w = rng.random((4, 5)).astype(numpy.float64)
    w1 = rng.random(5)
    d = np.asarray(h)
    check(np.average(d), numpy.average(h), h)
    check(np.average(d, axis=1), numpy.average(h, axis=1), h)
    check(np.average(d, axis=0, weights=np.asarray(w)), numpy.average(h, axis=0, weights=w), h, rtol=1e-6)
    check(np.average(d, axis=1, weights=np.asarray(w1)), numpy.average(h, axis=1, weights=w1), h, rtol=1e-6)
    a1, s1 = np.average(d, axis=1, weights=np.asarray(w1), returned=True)
    e1, es1 = numpy.average(h, axis=1, weights=w1, returned=True)
    check(a1, e1, h, rtol=1e-6)
    check(s1, es1, rtol=1e-6)
    a2, s2 = np.average(d, axis=0, returned=True, keepdims=True)
    e2, es2 = numpy.average(h, axis=0, returned=True, keepdims=True)
    check(a2, e2, h)
    check(s2, es2)
    hi = random_array((3, 4), numpy.int32, rng=rng)
    check(np.average(np.asarray(hi), axis=0, weights=np.asarray(w[:3, :4])),
          numpy.average(hi, axis=0, weights=w[:3, :4]), hi, rtol=1e-12)
    with pytest.raises(ZeroDivisionError):
        np.average(d, axis=0, weights=np.zeros((4, 5)))
    with pytest.raises(TypeError):
        np.average(d, weights=np.asarray(w1))


@pytest.mark.parametrize("dt", ["?", "i1", "u2", "f4", "c16"])
def test_diff(dt):
    h = random_array((4, 6), dt, rng=numpy.random.default_rng(15))
    d = np.asarray(h)
    for n in (1, 2, 3):
        for axis in (-1, 0):
            check(np.diff(d, n=n, axis=axis), numpy.diff(h, n=n, axis=axis))
    check(np.diff(d[:, ::-2]), numpy.diff(h[:, ::-2]))
    if dt != "?":
        check(np.diff(d, prepend=0), numpy.diff(h, prepend=0))
        check(np.diff(d, axis=0, append=np.asarray(h[:1])), numpy.diff(h, axis=0, append=h[:1]))
    check(np.diff(d, n=0), h)
    with pytest.raises(ValueError):
        np.diff(d, n=-1)


# ---- kernels: launches, memory ------------------------------------------------------------------------
def test_tiny_reduction_is_one_launch():
    d = np.asarray(numpy.arange(8, dtype=numpy.float32))
    for fn in (np.sum, np.argmax, np.var):
        fn(d)                                     # compile
        before = compiler.stats["launches"]
        r = fn(d)
        assert compiler.stats["launches"] - before == 1
        check(r, getattr(numpy, fn.__name__)(d.get()))


def test_axis_sums_need_no_transposed_copy():
    h = random_array((64, 48), numpy.float64, rng=numpy.random.default_rng(16))
    d = np.asarray(h)
    pool = np.get_default_memory_pool()
    for axis in (0, 1):
        np.sum(d, axis=axis)                      # compile outside the measurement
        pool.reset_peak()
        base = pool.used_bytes()
        r = np.sum(d, axis=axis)
        out_bytes = r.nbytes
        # the result plus a small workspace of per-split states; never a copy of the input
        assert pool.peak_bytes() - base <= out_bytes + 4096
        assert out_bytes + 4096 < d.nbytes / 4
        check(r, h.sum(axis=axis), h)


def test_kernel_sources_show_simulator_or_warp_variant():
    d = np.asarray(numpy.arange(40, dtype=numpy.float32))
    np.sum(d)
    srcs = [s for n, s in np.kernel_sources().items() if n.startswith("red_inner")]
    if np.backend() == "cuda":
        assert any("shfl_down_sync" in s for s in srcs)
    else:                            # shared-memory tree with barriers, no warp intrinsics
        assert any("shfl_down_sync" not in s and "cuda.syncthreads()" in s for s in srcs)


# ---- accuracy on the GPU ----------------------------------------------------------------------------
@pytest.mark.skipif(np.backend() != "cuda", reason="10^8-element sums need a real GPU")
def test_float32_sum_accuracy_vs_numpy_pairwise():
    errs_gpu, errs_np = [], []
    for seed in range(5):
        h = numpy.random.default_rng(seed).random(10 ** 8, dtype=numpy.float32)
        truth = h.sum(dtype=numpy.float64)
        errs_np.append(abs(float(h.sum()) - truth) / truth)
        errs_gpu.append(abs(float(np.sum(np.asarray(h)).get()) - truth) / truth)
    assert numpy.mean(errs_gpu) <= numpy.mean(errs_np)


def _gpu_variant_specs():
    from npgpu.reductions import functions as F
    from npgpu.reductions import ufunc_methods as U
    from npgpu.ufuncs import UFUNCS
    d = numpy.dtype
    out = []
    for name, dt in (("add", "f4"), ("add", "i8"), ("add", "c8"), ("maximum", "f2"), ("minimum", "u8"),
                     ("logical_or", "?"), ("multiply", "i2"), ("subtract", "f8")):
        uf = UFUNCS[name] if name in UFUNCS else F._uf(name)
        spec, _ = U.reduce_spec(uf, d(dt))
        out.append((spec, d(dt), d(dt)))
    out.append((F._arg_spec(d("f4"), True, False), d("f4"), d("i8")))
    out.append((F._arg_spec(d("c16"), False, True), d("c16"), d("i8")))
    out.append((F._var_spec(d("c8"), d("f4"), False, False, True), d("c8"), d("f4")))
    out.append((F._mean_spec(d("i1"), d("f8"), True, None, False), d("i1"), d("f8")))
    return out


def test_gpu_variants_are_rendered_for_the_ptx_check():
    """Render (never launch) the GPU renderings -- warp shuffles, 256-thread blocks -- so that
    NPGPU_RECORD_KERNELS + ptxcheck compile them too, not only the simulator's variants."""
    from npgpu.reductions import scan, template
    n = 0
    # each (kept dims, reduced dims, mask) shape once per pass across the specs, not for every
    # spec: the shapes change indexing, the specs change types (CI compiles each render)
    shapes = ((1, 1, False), (2, 2, True), (0, 1, False))
    for q, (spec, in_dt, out_dt) in enumerate(_gpu_variant_specs()):
        # outer/fold GPU renderings differ from the simulator's (which CI compiles too) only in
        # block constants; inner ones differ in the warp-shuffle block reduction
        modes = ["fold"] if not spec.reorderable else ["inner"]
        for mode in modes:
            # (True, True, True): the one-launch form whose row's last block folds the splits
            passes = ([(True, True, False)] if mode == "fold" else
                      [(True, True, False), (True, False, False), (False, True, False)]
                      + ([(True, True, True)] if spec.k <= 2 and all(
                          s.kind in template.TAIL_STATES for s in spec.state) else []))
            for first, last, tail in passes:
                block, tx = (256, 1) if mode == "inner" else ((256, 32) if mode == "outer" else (128, 128))
                for nk, nr, mask in (shapes[(q + first + last) % 3],):
                    if not first:
                        nr, mask = 0, False
                    ks = template.render(spec, mode, nk=nk, nr=nr, in_storage=in_dt, out_storage=out_dt,
                                         has_mask=mask, has_init=mask and spec.k == 1, first=first,
                                         last=last, block=block, tx=tx, sim=False,
                                         seed_first=mode == "fold" and not mask, unroll=8,
                                         tail=tail)
                    if mode == "inner":
                        assert "shfl_down_sync" in ks.source
                    assert ("cuda.ldcg(ws0" in ks.source) is tail
                    compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
                    n += 1
        if spec.k == 1:
            for first, last, carry, shift in ((True, True, False, 0), (False, False, False, 1),
                                              (True, True, True, 0)):
                ks = scan.render_block(spec, nk=1 if first else 0, in_storage=in_dt, out_storage=out_dt,
                                       first=first, last=last, has_carry=carry, shift=shift,
                                       block=256, sim=False)
                assert "shfl_up_sync" in ks.source
                compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
                n += 1
    assert n > 50


@pytest.mark.parametrize("dt", ["c8", "c16"])
def test_complex_argmax_argmin_first_nan_wins(dt):
    # a NaN in either part is the first NaN's index (NumPy), also when a later element has a
    # larger real part: complex order compares the real parts first
    rng = numpy.random.default_rng(5)
    for n in (2, 6, 33, 200):
        x = (rng.integers(0, 4, n) + 1j * rng.integers(0, 4, n)).astype(dt)
        for k, v in ((n // 3, complex(1, numpy.nan)), (n - 1, complex(numpy.nan, 2))):
            x[k] = v
            for f in ("argmax", "argmin"):
                assert int(getattr(np, f)(np.asarray(x))) == getattr(numpy, f)(x), (f, n, k)
                x2 = numpy.stack([x, x[::-1], numpy.roll(x, 3)])
                got = getattr(np, f)(np.asarray(x2), axis=1).get()
                assert numpy.array_equal(got, getattr(numpy, f)(x2, axis=1)), (f, n, k)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "any", "all", "argmax", "argmin",
                                  "count_nonzero", "nansum", "nanmax", "mean", "std"])
def test_zero_d_reductions_take_axis_0_and_minus_1(name):
    # NumPy's ufunc.reduce takes axis 0 or -1 of a 0-d array as no axis (mean and std still
    # raise AxisError there, as NumPy's do; axis 1 raises for every one)
    from conftest import error_of
    for dt in ("f8", "i4", "?"):
        h = numpy.array(3, dt)
        for ax in (0, -1, (0,), 1):
            want = error_of(lambda: getattr(numpy, name)(h, axis=ax))
            got = error_of(lambda: getattr(np, name)(np.asarray(h), axis=ax))
            assert got == want, (name, dt, ax)
            if want is None:
                r = getattr(np, name)(np.asarray(h), axis=ax)
                w = getattr(numpy, name)(h, axis=ax)
                assert numpy.asarray(r.get() if hasattr(r, "get") else r).tolist() == \
                    numpy.asarray(w).tolist()
