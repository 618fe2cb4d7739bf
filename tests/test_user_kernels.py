"""User kernels in Python (issue 18): hand-written Numba kernels on npgpu arrays,
ElementwiseKernel, ReductionKernel and vectorize, against NumPy."""
import math

import numpy as np
import pytest
from numba import cuda

import npgpu
from conftest import ALL_DTYPES, LAYOUTS, ON_GPU, assert_matches, make_layout, random_array, \
    raises_like, run_threads

NUM_DTYPES = [d for d in ALL_DTYPES if d.kind != "b"]


# --- hand-written Numba kernels -------------------------------------------------------------
@cuda.jit
def _scale_add(x, y, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = x[i] * 2 + y[i]


@cuda.jit
def _bump_2d(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] += i * 10 + j


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_numba_kernel_reads_and_writes_npgpu_memory(rng, dtype):
    hx, hy = random_array(37, dtype, rng), random_array(37, dtype, rng)
    x, y = npgpu.asarray(hx), npgpu.asarray(hy)
    out = npgpu.zeros(37, dtype)
    _scale_add[2, 32](x, y, out)
    assert_matches(out, (hx * 2 + hy).astype(dtype))


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided", "negative"])
def test_numba_kernel_views(rng, layout):
    host = random_array((5, 6), np.float64, rng)
    d, h = make_layout(host, layout)
    h = h.copy()
    _bump_2d[(2, 2), (4, 4)](d)
    h += np.arange(5)[:, None] * 10 + np.arange(6)
    assert_matches(d, h)


def test_numba_kernel_on_current_stream(rng):
    host = random_array(20, np.float32, rng)
    x = npgpu.asarray(host)
    out = npgpu.empty_like(x)
    s = npgpu.cuda.Stream()
    with s:
        _scale_add[1, 32, npgpu.cuda.as_numba_stream()](x, x, out)
    s.synchronize()
    assert_matches(out, host * 3)
    if not ON_GPU:
        assert npgpu.cuda.as_numba_stream() is not None


def test_numba_typing_fast_route():
    from numba.cuda import types
    from numba.cuda.typing.typeof import typeof
    a = npgpu.zeros((3, 4), np.float32)
    assert a.__cuda_memory__
    assert typeof(a) == types.Array(types.float32, 2, "C")
    assert typeof(a.T) == types.Array(types.float32, 2, "F")
    assert typeof(a[:, ::2]) == types.Array(types.float32, 2, "A")
    ro = npgpu.broadcast_to(npgpu.zeros(4, np.int16), (3, 4))
    assert typeof(ro) == types.Array(types.int16, 2, "A", readonly=True)
    if not ON_GPU:
        return                      # the launcher's view exists in real-CUDA Numba only
    shim = a[1:]._strided_memory_view_shim
    assert (shim.ptr, shim.shape, shim.size) == (a[1:].__cuda_array_interface__["data"][0],
                                                  (2, 4), 8)


def test_asarray_of_numba_device_array_is_zero_copy(rng):
    host = random_array(12, np.int32, rng)
    d = cuda.to_device(host)
    a = npgpu.asarray(d)
    a[3] = 77
    host[3] = 77
    np.testing.assert_array_equal(d.copy_to_host(), host)
    assert_matches(a, host)


def test_use_npgpu_allocator_in_numba():
    if not ON_GPU:
        assert npgpu.cuda.use_npgpu_allocator_in_numba() is None     # the simulator: no-op
        return
    from numba.cuda.cudadrv import driver as nd
    if any(d.primary_context is not None for d in nd.driver.devices.values()):
        # Numba made its context already in this process (kernels above): the error says so
        with pytest.raises(RuntimeError, match="before the first numba.cuda operation"):
            npgpu.cuda.use_npgpu_allocator_in_numba()
        return
    npgpu.cuda.use_npgpu_allocator_in_numba()
    pool = npgpu.get_default_memory_pool()
    before = pool.used_bytes()
    d = cuda.device_array(1 << 20, np.float32)
    assert pool.used_bytes() >= before + (4 << 20)
    d[:3] = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(npgpu.asarray(d)[:3].get(), np.arange(3, dtype=np.float32))


# --- ElementwiseKernel ----------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dtype", NUM_DTYPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_elementwise_kernel_layouts(rng, dtype, layout):
    k = npgpu.ElementwiseKernel("T x, T y", "T z", "z = x * 2 + y", "axpy_t")
    hx = random_array((4, 5), dtype, rng, -20, 20)
    hy = random_array((4, 5), dtype, rng, -20, 20)
    x, hx = make_layout(hx, layout)
    y, hy = make_layout(hy, layout)
    got = k(x, y)
    want = (hx * dtype.type(2) + hy).astype(dtype)
    assert_matches(got, want, rtol=1e-2 if dtype == np.float16 else None)


def test_elementwise_broadcast_scalars_and_out(rng):
    k = npgpu.ElementwiseKernel("T x, float32 y, int64 n", "float64 z", "z = x * y + n", "bsc")
    hx = random_array((3, 1, 4), np.float32, rng)
    hy = random_array((5, 1), np.float32, rng)
    got = k(npgpu.asarray(hx), npgpu.asarray(hy), 7)
    assert got.shape == (3, 5, 4) and got.dtype == np.float64
    assert_matches(got, (hx * hy).astype(np.float64) + 7, rtol=1e-6)
    out = npgpu.zeros((3, 5, 4), np.float64)[:, ::-1]
    res = k(npgpu.asarray(hx), npgpu.asarray(hy[::-1]), 7, out=out)
    assert res is out
    assert_matches(out, (hx * hy[::-1]).astype(np.float64) + 7, rtol=1e-6)
    # a NumPy scalar argument and outputs given positionally
    o2 = npgpu.empty((3, 5, 4), np.float64)
    k(npgpu.asarray(hx), np.float32(1.5), np.int64(-2), o2)
    assert_matches(o2, np.broadcast_to((hx * np.float32(1.5)).astype(np.float64) - 2,
                                      (3, 5, 4)), rtol=1e-6)


def test_elementwise_multiple_outputs_branches_and_index(rng):
    k = npgpu.ElementwiseKernel(
        "T x", "T lo, int64 where, T clipped",
        """
        if x < 0:
            lo = -x
        else:
            lo = x
        where = i
        clipped = min(max(x, T_lo), T_hi)
        """.replace("T_lo", "-5.0").replace("T_hi", "5.0"), "multi")
    hx = random_array((3, 4), np.float64, rng)
    lo, where, clipped = k(npgpu.asarray(hx).T)
    assert_matches(lo, np.abs(hx.T))
    assert_matches(where, np.arange(12).reshape(4, 3))
    assert_matches(clipped, np.clip(hx.T, -5, 5))


def test_elementwise_raw_and_size(rng):
    k = npgpu.ElementwiseKernel("raw T x, int64 n", "T y", "y = x[n - 1 - i] * 2", "rev")
    hx = random_array(11, np.int32, rng)
    assert_matches(k(npgpu.asarray(hx), 11, size=11), hx[::-1] * 2)
    k2 = npgpu.ElementwiseKernel("raw T m", "T y", "y = m[i // 3, i % 3]", "unravel")
    hm = random_array((4, 3), np.float32, rng)
    out = npgpu.empty(12, np.float32)
    k2(npgpu.asarray(hm)[::-1], out)
    assert_matches(out, hm[::-1].reshape(-1))


def test_elementwise_in_place_output_and_preamble(rng):
    k = npgpu.ElementwiseKernel("T x", "T acc", "acc += sq(x)", "accum",
                                preamble="def sq(v):\n    return v * v\n")
    hx = random_array((2, 3), np.float64, rng)
    acc = npgpu.ones((4, 2, 3), np.float64)
    k(npgpu.asarray(hx), acc)
    assert_matches(acc, np.broadcast_to(1 + hx * hx, (4, 2, 3)))


def test_elementwise_empty_and_zero_d(rng):
    k = npgpu.ElementwiseKernel("T x", "T y", "y = x + 1", "inc")
    assert k(npgpu.zeros((0, 3), np.int16)).shape == (0, 3)
    got = k(npgpu.asarray(np.float32(2.5)))
    assert got.shape == () and got.get() == np.float32(3.5)


@pytest.mark.parametrize("args,exc,match", [
    (("T x", "T y", "y = x +"), ValueError, "(?s)does not compile.*line 2: y = x \\+"),
    (("T x", "T y", "y = foo(x)"), ValueError, "unknown name 'foo'"),
    (("T x", "T y", "return x"), ValueError, "may not use 'return'"),
    (("T x, flaot32 w", "T y", "y = x"), TypeError, "unknown type 'flaot32' of parameter 'w'"),
    (("T x y", "T y", "y = x"), ValueError, "cannot parse parameter 'T x y'"),
    (("T x, T x", "T y", "y = x"), ValueError, "duplicate parameter name 'x'"),
    (("T x", "T x", "x = 1"), ValueError, "also an input"),
    (("T x", "", "x = 1"), ValueError, "at least one output"),
    (("T i", "T y", "y = i"), ValueError, "'i' is reserved"),
])
def test_elementwise_bad_definitions(args, exc, match):
    with pytest.raises(exc, match=match):
        npgpu.ElementwiseKernel(*args, name="bad")


def test_elementwise_bad_calls():
    k = npgpu.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add2")
    a = npgpu.zeros(3, np.float32)
    with pytest.raises(TypeError, match="wrong number of arguments"):
        k(a)
    with pytest.raises(TypeError, match="Type is mismatched: parameter 'y' is float64"):
        k(a, npgpu.zeros(3, np.float64))
    with pytest.raises(TypeError, match="host arrays are not copied"):
        k(a, np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="could not be broadcast"):
        k(a, npgpu.zeros(4, np.float32))
    with pytest.raises(ValueError, match="non-broadcastable output"):
        k(a, a, npgpu.zeros((2, 1), np.float32))
    with pytest.raises(ValueError, match="read-only"):
        k(a, a, npgpu.broadcast_to(a, (2, 3)))
    kz = npgpu.ElementwiseKernel("int64 n", "T z", "z = n", "undecided")
    with pytest.raises(TypeError, match="Cannot determine the type T of output 'z'"):
        kz(3)
    kr = npgpu.ElementwiseKernel("raw float32 x", "float32 z", "z = x[i]", "rawonly")
    with pytest.raises(ValueError, match="Loop size is undecided"):
        kr(a)
    with pytest.raises(TypeError, match="raw parameter 'x' is float32"):
        kr(npgpu.zeros(3, np.float64), size=3)
    kc = npgpu.ElementwiseKernel("float32 x", "float32 z", "z = x", "narrow")
    with pytest.raises(TypeError, match="Cannot cast parameter 'x' from complex64"):
        kc(npgpu.zeros(3, np.complex64))


# --- ReductionKernel ------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint16, np.float32, np.float64,
                                   np.complex64])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "negative", "broadcast",
                                    "empty"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reduction_kernel_sum_of_squares(rng, dtype, layout, axis):
    dtype = np.dtype(dtype)
    k = npgpu.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq")
    host = random_array((6, 5), dtype, rng, -10, 10)
    d, h = make_layout(host, layout)
    if layout == "empty" and axis == 1:
        return                      # (0,) has no axis 1
    ax = axis if layout != "empty" else None
    assert_matches(k(d, axis=ax), (h * h).sum(axis=ax, dtype=dtype), rtol=1e-4)


def test_reduction_kernel_two_inputs_post_map_keepdims(rng):
    k = npgpu.ReductionKernel("T x, T w", "float64 y", "abs(x * w)", "a + b",
                              "y = math.sqrt(a / n)", 0, "wrms")
    hx = random_array((4, 7), np.float32, rng)
    hw = random_array(7, np.float32, rng)
    want = np.sqrt(np.abs(hx * hw).astype(np.float64).mean(axis=1, keepdims=True))
    assert_matches(k(npgpu.asarray(hx), npgpu.asarray(hw), axis=1, keepdims=True), want,
                   rtol=1e-6)
    out = npgpu.empty(7, np.float64)
    assert k(npgpu.asarray(hx), npgpu.asarray(hw), axis=0, out=out) is out
    assert_matches(out, np.sqrt(np.abs(hx * hw).astype(np.float64).mean(axis=0)), rtol=1e-6)


def test_reduction_kernel_max_identity_and_reduce_type(rng):
    k = npgpu.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", "-math.inf", "rmax")
    host = random_array((3, 8), np.float64, rng)
    assert_matches(k(npgpu.asarray(host), axis=(0, 1)), host.max())
    assert_matches(k(npgpu.zeros((0, 2), np.float64), axis=0), np.full(2, -np.inf))
    cnt = npgpu.ReductionKernel("T x", "int32 y", "x > 0", "a + b", "y = a", 0, "npos",
                                reduce_type="int64")
    hi = random_array(50, np.int16, rng)
    assert_matches(cnt(npgpu.asarray(hi)), np.int32((hi > 0).sum()))


@pytest.mark.parametrize("shape,axis", [((16,), None), ((3000,), None), ((6, 700), 1),
                                        ((6, 700), 0)])
def test_reduction_kernel_repeats_replay(rng, monkeypatch, shape, axis):
    """A repeat call replays the first call's launches (reduce's fast path, as npgpu.sum):
    no parameter binding or planning, the same launches (both passes of a split row: 3000
    elements on the simulator), fresh results that follow the data; with two inputs too."""
    from npgpu._codegen import compiler
    from npgpu.kernels import params as P, reduction as KR
    from npgpu.reductions import reduce as R
    sq = npgpu.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq_rep")
    dot = npgpu.ReductionKernel("T x, T w", "float64 y", "x * w", "a + b", "y = a / n", "0",
                                "wmean_rep")
    hx, hw = random_array(shape, np.float32, rng), random_array(shape, np.float32, rng)
    x, w = npgpu.asarray(hx), npgpu.asarray(hw)
    calls = [(sq, (x,), lambda: (hx.astype(np.float64) ** 2).sum(axis=axis)),
             (dot, (x, w), lambda: (hx * hw).astype(np.float64).mean(axis=axis))]
    first = [k(*args, axis=axis) for k, args, _ in calls]
    per_call = []
    for k, args, _ in calls:
        before = compiler.stats["launches"]
        k(*args, axis=axis)
        per_call.append(compiler.stats["launches"] - before)

    def boom(*a, **kw):
        raise AssertionError("the slow path ran on what should be a replay")
    with monkeypatch.context() as m:
        m.setattr(R, "_plan", boom)
        m.setattr(P, "resolve", boom)
        for _ in range(2):
            hx[...] = random_array(shape, np.float32, rng)
            hw[...] = random_array(shape, np.float32, rng)
            x[...], w[...] = npgpu.asarray(hx), npgpu.asarray(hw)
            for (k, args, want), n, r1 in zip(calls, per_call, first):
                before = compiler.stats["launches"]
                r = k(*args, axis=axis)
                assert compiler.stats["launches"] - before == n
                assert r is not r1 and r._mem is not r1._mem
                assert (r.shape, r.dtype, r._strides) == (r1.shape, r1.dtype, r1._strides)
                assert_matches(r, want().astype(r.dtype), rtol=1e-4)
        # off: the full path (which the monkeypatched resolve fails)
        m.setattr(KR, "REPLAY", False)
        with pytest.raises(AssertionError, match="slow path"):
            sq(x, axis=axis)
    # calls that may not replay take the full path: out=, a scalar input
    out = npgpu.empty(first[0].shape, np.float32)
    assert sq(x, axis=axis, out=out) is out
    assert_matches(out, (hx.astype(np.float64) ** 2).sum(axis=axis).astype(np.float32),
                   rtol=1e-4)
    assert_matches(dot(x, np.float32(2), axis=axis),
                   (hx * 2).astype(np.float64).mean(axis=axis), rtol=1e-4)


@pytest.mark.parametrize("args,exc,match", [
    (("T x", "T y", "x *", "a + b", "y = a", 0), ValueError, "map_expr does not compile"),
    (("T x", "T y", "x", "a + c", "y = a", 0), ValueError, "unknown name 'c'"),
    (("T x", "T y", "x", "a + b", "z = a", 0), ValueError, "must assign the output 'y'"),
    (("T x", "T y", "x", "a + b", "y = a", None), ValueError, "needs the identity"),
    (("raw T x", "T y", "x", "a + b", "y = a", 0), ValueError, "raw parameter 'x'"),
    (("T x", "T y, T w", "x", "a + b", "y = a", 0), ValueError, "exactly one output"),
])
def test_reduction_kernel_bad_definitions(args, exc, match):
    with pytest.raises(exc, match=match):
        npgpu.ReductionKernel(*args, name="bad")


@pytest.mark.parametrize("rows", [2, 5])
def test_reduction_kernel_out_overlapping_its_input(rows):
    """``out`` a view of the input: the result NumPy's reduction of the input as it was (the
    rows are reduced into a temporary, then copied), split rows included."""
    n = 300 if not ON_GPU else 1 << 17
    h = np.arange(rows * n, dtype=np.float64).reshape(rows, n)
    x = npgpu.asarray(h)
    rk = npgpu.ReductionKernel("T x", "T z", "x", "a + b", "z = a", "0", "row_sum_overlap")
    got = rk(x, axis=1, out=x[rows - 1, 8:8 + rows])
    want = h.sum(axis=1)
    np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(x.get()[rows - 1, 8:8 + rows], want)


def test_reduction_kernel_bad_calls():
    k = npgpu.ReductionKernel("T x", "T y", "x", "a + b", "y = a", 0, "rsum")
    with pytest.raises(TypeError, match="wrong number of arguments"):
        k()
    with pytest.raises(TypeError, match="not copied implicitly"):
        k(np.zeros(3))
    with pytest.raises(np.exceptions.AxisError):
        k(npgpu.zeros(3), axis=1)


# --- vectorize ------------------------------------------------------------------------------
OFFSET = 1.5


def _helper(v):
    return v * OFFSET


def _branchy(x, y):
    if x > y:
        return _helper(x) - y
    s = 0.0
    for k in range(3):
        s += math.sin(y) * k
    return s


@pytest.mark.matrix
@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.uint8, np.float32, np.float64])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "negative", "broadcast",
                                    "zero_d", "empty"])
def test_vectorize_branches_matches_numpy(rng, dtype, layout):
    # (size 0 needs otypes, as in NumPy)
    f = npgpu.vectorize(_branchy, otypes="d" if layout == "empty" else None)
    hx = random_array((3, 4), dtype, rng, 0, 20)
    hy = random_array((3, 4), dtype, rng, 0, 20)
    x, hx = make_layout(hx, layout)
    y, hy = make_layout(hy, layout)
    want = np.vectorize(_branchy, otypes=[np.float64])(hx, hy)
    assert_matches(f(x, y), want, rtol=1e-6)


def test_vectorize_otypes_tuples_scalars_and_decorator(rng):
    g = npgpu.vectorize(lambda x: (x + 1, x > 0), otypes=[np.int64, bool])
    a, b = g(npgpu.arange(-2, 3))
    assert_matches(a, np.arange(-1, 4))
    assert_matches(b, np.arange(-2, 3) > 0)

    @npgpu.vectorize(otypes="f")
    def half(v):
        return v / 2
    hx = random_array(9, np.int32, rng)
    assert_matches(half(npgpu.asarray(hx)), (hx / 2).astype(np.float32))
    assert half.__name__ == "half"
    h = npgpu.vectorize(lambda x, y=3: x * y)
    assert_matches(h(npgpu.arange(4, dtype=np.int16)), np.arange(4) * 3)    # int16 * int64
    assert_matches(h(2.5, y=2), np.float64(5.0))
    assert_matches(h([1, 2]), np.array([3, 6]))


def test_vectorize_inferred_type_is_numbas():
    f = npgpu.vectorize(lambda x: x * 2.0)
    assert f(npgpu.ones(3, np.float32)).dtype == np.float64     # Numba: float32 * float -> f8
    c = npgpu.vectorize(lambda x: x > 1)
    assert c(npgpu.arange(3)).dtype == np.bool_


def test_vectorize_errors():
    raises_like(lambda: np.vectorize(_branchy, otypes="x"),
                lambda: npgpu.vectorize(_branchy, otypes="x"))
    raises_like(lambda: np.vectorize(_branchy, otypes=3),
                lambda: npgpu.vectorize(_branchy, otypes=3))
    raises_like(lambda: np.vectorize(lambda x: x)(np.zeros(0)),
                lambda: npgpu.vectorize(lambda x: x)(npgpu.zeros(0)))
    with pytest.raises(TypeError, match="missing a required argument"):
        npgpu.vectorize(_branchy)(npgpu.zeros(2))
    with pytest.raises(TypeError, match="does not compile"):
        npgpu.vectorize(lambda x: x.nonexistent)(npgpu.zeros(2))
    obj = object()
    with pytest.raises(TypeError, match="reads 'obj'"):
        npgpu.vectorize(lambda x: x + obj)(npgpu.zeros(2))
    with pytest.raises(NotImplementedError, match="signature"):
        npgpu.vectorize(_branchy, signature="(n)->()")


# --- per-array caching of what Numba's launcher reads, and pooled Numba allocations ---------
def test_numba_type_and_view_are_cached_until_the_array_changes(rng):
    from numba.cuda import types
    a = npgpu.asarray(random_array(12, np.float32, rng))
    t = a._numba_type_
    assert a._numba_type_ is t and t == types.Array(types.float32, 1, "C")
    a.resize((3, 4))
    assert a._numba_type_ == types.Array(types.float32, 2, "C")
    a.flags.writeable = False
    assert a._numba_type_ == types.Array(types.float32, 2, "C", readonly=True)
    a.flags.writeable = True
    out = npgpu.zeros(12, np.float32)
    b = a.reshape(12)
    _scale_add[1, 32](b, b, out)
    _scale_add[1, 32](b, b, out)                  # the second launch reads the cached values
    assert_matches(out, b.get() * 3)
    if not ON_GPU:
        return                      # the launcher's view exists in real-CUDA Numba only
    v = b._strided_memory_view_shim
    assert b._strided_memory_view_shim is v and (v.ptr, v.shape) == (b.data.ptr, (12,))
    a.resize((20,))                               # new memory: a new view
    v2 = a._strided_memory_view_shim
    assert (v2.ptr, v2.shape, v2.size) == (a.data.ptr, (20,), 20)


def test_numba_launch_reads_enter_no_python_after_the_first(monkeypatch):
    # what Numba reads of an array argument on every launch: _typeof.cpp's _typecode_fallback
    # (PyObject_HasAttr, then PyObject_GetAttrString "_numba_type_"), then
    # devicearray._to_strided_memory_view (obj.__cuda_memory__, obj._strided_memory_view_shim):
    # after the first launch each is a dictionary hit in C, as on Numba's own arrays
    import sys
    from npgpu.cuda import numba_interop
    if not ON_GPU:                  # the simulator has no view classes: stand-ins, same fields
        class View:
            def __init__(self, **kw):
                self.__dict__.update(kw)
        monkeypatch.setattr(numba_interop, "_shim", [View, View])

    def numba_reads(a):
        assert hasattr(a, "_numba_type_")
        t = getattr(a, "_numba_type_")
        assert a.__cuda_memory__
        return t, a._strided_memory_view_shim

    def python_calls(f):
        calls = []
        sys.setprofile(lambda frame, event, arg: event == "call" and calls.append(
            frame.f_code.co_name))
        try:
            f()
        finally:
            sys.setprofile(None)
        return [c for c in calls if c not in ("<lambda>", "numba_reads")]

    a = npgpu.zeros((3, 4), np.float32)
    for v in (a, a.T, a[:, ::2]):
        assert python_calls(lambda: numba_reads(v))          # the first launch makes them
        t, shim = numba_reads(v)
        assert python_calls(lambda: numba_reads(v)) == []
        assert numba_reads(v) == (t, shim) and t is v._numba_type_
        assert (shim.ptr, shim.shape, shim.size, shim._layout.strides_in_bytes) == (
            v.data.ptr, v.shape, v.size, v.strides)
    a.flags.writeable = False       # in-place changes drop them: the next read makes them anew
    assert python_calls(lambda: numba_reads(a)) and not a._numba_type_.mutable
    a.resize((12,))
    assert numba_reads(a)[1].shape == (12,) and a._numba_type_.ndim == 1


@pytest.mark.skipif(not ON_GPU, reason="Numba's memory manager is a real-CUDA feature")
def test_numba_allocations_from_the_pool_in_a_fresh_process():
    import subprocess
    import sys
    code = """
import gc, numpy as np, npgpu
npgpu.cuda.use_npgpu_allocator_in_numba()
from numba import cuda
pool = npgpu.get_default_memory_pool()
base = pool.used_bytes()
h = np.random.default_rng(5).standard_normal(1000).astype(np.float32)
d = cuda.device_array(1000, np.float32)
assert pool.used_bytes() >= base + 4000
d.copy_to_device(h)
v = d[10:20]
np.testing.assert_array_equal(v.copy_to_host(), h[10:20])
np.testing.assert_array_equal(npgpu.asarray(v).get(), h[10:20])
del d
gc.collect()
np.testing.assert_array_equal(v.copy_to_host(), h[10:20])     # a view keeps the block
del v
gc.collect()
assert pool.used_bytes() == base, (pool.used_bytes(), base)
e = cuda.device_array(1000, np.float32)
e.gpu_data.free()                                              # an explicit free returns it
assert pool.used_bytes() == base
# the context check's fast path (npgpu/cuda/numba_context.py): the context Numba checked once
from numba.cuda.cudadrv import devices
from npgpu.cuda.numba_context import ContextCheck
check = devices._runtime.ensure_context
assert isinstance(check, ContextCheck) and len(check.known) == 1, check.known
f = cuda.to_device(h)
np.testing.assert_array_equal(f.copy_to_host(), h)
import threading
got = []
def other():        # a thread with no current context: Numba's own check makes one current
    got.append(cuda.to_device(h[:7]).copy_to_host())
t = threading.Thread(target=other)
t.start()
t.join()
np.testing.assert_array_equal(got[0], h[:7])
assert devices._runtime._get_attached_context() is None
# device_array's fast path (npgpu/cuda/numba_device_array.py): a repeat request gets the fields
# Numba's own function gave the first, its own pool block, and works as Numba's arrays do
assert cuda.device_array.npgpu_fast_path
for shape, order in [(1000, "C"), ((30, 7), "F"), ((2, 3, 4), "C")]:
    a = cuda.device_array(shape, np.float32, order=order)
    b = cuda.device_array(shape, np.float32, order=order)
    c = cuda.device_array.slow(shape, np.float32, order=order)
    for x in (b, c):
        assert (x.shape, x.strides, x.dtype, x.size, x.alloc_size, x.ndim) == \
            (a.shape, a.strides, a.dtype, a.size, a.alloc_size, a.ndim)
        assert x.is_c_contiguous() == a.is_c_contiguous() and type(x) is type(a)
    assert b.device_ctypes_pointer.value != a.device_ctypes_pointer.value
    hv = np.random.default_rng(1).standard_normal(a.shape).astype(np.float32)
    b.copy_to_device(np.asfortranarray(hv) if order == "F" else hv)
    np.testing.assert_array_equal(b.copy_to_host(), hv)
    np.testing.assert_array_equal(npgpu.asarray(b).get(), hv)
    np.testing.assert_array_equal(b.reshape(-1, order=order).copy_to_host(),
                                  hv.reshape(-1, order=order))
used = pool.used_bytes()
del a, b, c, x
gc.collect()
assert pool.used_bytes() < used
try:
    cuda.device_array(1000.0, np.float32)
except TypeError:
    pass
else:
    raise AssertionError("a float shape must raise as Numba's does")
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


def test_reduction_kernel_replay_layouts_and_threads(rng):
    # repeat calls on views of one shape and other strides (transposed, reversed), empty and
    # 0-d inputs each take their own replay and match NumPy every time; so do repeat calls
    # from several threads at once
    sq = npgpu.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq_layouts")
    h = random_array((40, 40), np.float32, rng)
    g = npgpu.asarray(h)
    views = [(g, h), (g.T, h.T), (g[::-1], h[::-1]), (g[:, ::-3], h[:, ::-3]),
             (g[:0], h[:0]), (g[3, 4], h[3, 4])]
    for _ in range(3):
        for axis in (None, 0, 1):
            for gv, hv in views:
                if hv.ndim == 0 and axis is not None:
                    continue
                want = (hv.astype(np.float64) ** 2).sum(axis=axis).astype(np.float32)
                assert_matches(sq(gv, axis=axis), want, rtol=1e-4)

    def work(seed):
        r = np.random.default_rng(seed)
        for _ in range(5):
            hh = random_array((16, 50), np.float32, r)
            got = sq(npgpu.asarray(hh), axis=1)
            want = (hh.astype(np.float64) ** 2).sum(axis=1).astype(np.float32)
            np.testing.assert_allclose(got.get(), want, rtol=1e-4)

    run_threads(work, range(4))
