"""Products (matmul/dot/vdot/inner/outer/tensordot/kron/trace/cross/vec*/multi_dot/matrix_power)
against NumPy: float types on cuBLAS (on the simulator its host stand-in, the same call path),
integers and bool on the generated kernel (and floats there too through the float-kernel knob)."""
import numpy as np
import pytest

import npgpu
import npgpu as gp
from npgpu._codegen import compiler
from npgpu.linalg import products as _products

from test_linalg_libs import lib_calls  # noqa: F401  (fixture)

ON_GPU = npgpu.backend() == "cuda"
# TF32 rounding is the GPU's tensor cores' (the stand-in computes true float32 either way)
GPU = pytest.mark.skipif(npgpu.backend() != "cuda", reason="measures TF32 rounding on a real GPU")
rng = np.random.default_rng(1234)

ALL = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64,
       np.float16, np.float32, np.float64, np.complex64, np.complex128]


def rand(shape, dt):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -50
        return rng.integers(lo, 50, size=shape).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def tol(dt):
    dt = np.dtype(dt)
    if dt in (np.float16,):
        return dict(rtol=2e-2, atol=5e-2)
    if dt in (np.float32, np.complex64):
        return dict(rtol=1e-4, atol=1e-4)
    return dict(rtol=1e-10, atol=1e-10)


def check(got, want):
    assert isinstance(got, gp.ndarray)
    want = np.asarray(want)
    g = got.get()
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, **tol(want.dtype))


@pytest.mark.parametrize("dt", ALL)
def test_matmul_every_dtype(dt):
    a, b = rand((5, 6), dt), rand((6, 3), dt)
    before = compiler.stats["launches"]
    if np.dtype(dt) == np.float16:
        want = (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
    else:
        want = a @ b
    check(gp.asarray(a) @ gp.asarray(b), want)
    # integers and bool: the generated kernel; float types: one library call, no kernel
    assert (compiler.stats["launches"] > before) == (np.dtype(dt).kind in "biu")


@pytest.fixture
def float_kernel():
    prev = _products.use_float_kernel(True)
    yield
    _products.use_float_kernel(prev)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
def test_float_products_on_the_generated_kernel(float_kernel, dt):
    # the knob routes float products to the tiled kernel (its float code stays tested)
    cases = [((5, 6), (6, 3)), ((2, 3, 4), (4, 5)), ((4,), (4, 3)), ((3, 1, 2, 3), (2, 3, 2))]
    for sa, sb in cases:
        a, b = rand(sa, dt), rand(sb, dt)
        want = (a.astype(np.float32) @ b.astype(np.float32)).astype(dt) if np.dtype(dt) == np.float16 \
            else a @ b
        before = compiler.stats["launches"]
        check(gp.asarray(a) @ gp.asarray(b), want)
        assert compiler.stats["launches"] > before
    a = rand((6, 5), dt)
    A = gp.asarray(a)
    if np.dtype(dt) != np.float16:
        check(A[::-1, ::2].T @ A[:, :4], a[::-1, ::2].T @ a[:, :4])
        check(gp.tensordot(A, A, axes=([0], [0])), np.tensordot(a, a, axes=([0], [0])))


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16])
def test_matmul_integer_wraps_like_numpy(dt):
    a = rng.integers(0, 100, size=(3, 40)).astype(dt)
    b = rng.integers(0, 100, size=(40, 2)).astype(dt)
    check(gp.matmul(gp.asarray(a), gp.asarray(b)), a @ b)


@pytest.mark.parametrize("pair", [(np.int8, np.float32), (np.bool_, np.int16), (np.uint8, np.int8),
                                  (np.float32, np.float64), (np.float32, np.complex128)])
def test_matmul_mixed_dtypes(pair):
    a, b = rand((4, 5), pair[0]), rand((5, 3), pair[1])
    check(gp.asarray(a) @ gp.asarray(b), a @ b)


@pytest.mark.parametrize("sa,sb", [((4,), (4,)), ((4,), (4, 3)), ((2, 4), (4,)), ((3, 2, 4), (4,)),
                                   ((4,), (3, 4, 2)), ((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (2, 1, 4, 2)),
                                   ((0, 3), (3, 2)), ((3, 0), (0, 2)), ((2, 0, 3), (3, 4))])
def test_matmul_shapes(sa, sb):
    a, b = rand(sa, np.float64), rand(sb, np.float64)
    check(gp.matmul(gp.asarray(a), gp.asarray(b)), np.matmul(a, b))


def test_matmul_layouts():
    a = rand((6, 5), np.float32)
    b = rand((4, 6), np.float32)
    A, B = gp.asarray(a), gp.asarray(b)
    check(A.T @ B.T, a.T @ b.T)                                   # transposed
    check(A[::-1, ::2] @ B.T[::2, ::-1], a[::-1, ::2] @ b.T[::2, ::-1])   # negative strides
    c = rand((3, 6, 5), np.complex64)
    check(gp.asarray(c).swapaxes(-1, -2) @ gp.asarray(c), c.swapaxes(-1, -2) @ c)
    check(gp.asarray(c)[:, ::2] @ A[:5, :2], c[:, ::2] @ a[:5, :2])


def test_matmul_fortran_operands():
    a = np.asfortranarray(rand((5, 4), np.float64))
    b = np.asfortranarray(rand((4, 3), np.float64))
    A = gp.asarray(a)
    assert A.flags.f_contiguous and not A.flags.c_contiguous
    check(A @ gp.asarray(b), a @ b)


def test_matmul_out_and_dtype():
    a, b = rand((2, 3, 4), np.float32), rand((4, 5), np.float32)
    out = gp.empty((2, 3, 5), np.float64)
    r = gp.matmul(gp.asarray(a), gp.asarray(b), out=out)
    assert r is out
    np.testing.assert_allclose(out.get(), a.astype(np.float64) @ b, rtol=1e-5)
    ai, bi = rand((3, 4), np.int8), rand((4, 2), np.int8)
    check(gp.matmul(gp.asarray(ai), gp.asarray(bi), dtype=np.int64), np.matmul(ai, bi, dtype=np.int64))
    # out overlapping an input
    x = gp.asarray(rand((3, 3), np.float64))
    xh = x.get()
    gp.matmul(x, x, out=x)
    np.testing.assert_allclose(x.get(), xh @ xh)


def test_matmul_errors():
    a = gp.asarray(rand((3, 4), np.float64))
    with pytest.raises(ValueError, match="enough dimensions"):
        gp.matmul(a, gp.asarray(np.float64(2.0)))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        a @ a
    with pytest.raises(ValueError):
        gp.matmul(gp.ones((2, 3, 4)), gp.ones((3, 4, 2)))
    with pytest.raises(TypeError):
        gp.matmul(a, a.T, out=gp.empty((3, 3), np.int32))
    with pytest.raises(ValueError):
        gp.matmul(a, a.T, out=gp.empty((3, 4)))


def test_matmul_operator_host_operand():
    a = rand((3, 4), np.float64)
    b = rand((4, 2), np.float64)
    check(gp.asarray(a) @ b, a @ b)
    check(a.tolist() @ gp.asarray(b), a @ b)


@pytest.mark.parametrize("sa,sb", [((), (3,)), ((3,), ()), ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 2)),
                                   ((3, 4), (4, 2)), ((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)),
                                   ((3, 4), (2, 4, 5))])
def test_dot(sa, sb):
    a, b = rand(sa, np.float64), rand(sb, np.float64)
    A = gp.asarray(a) if sa else gp.asarray(np.asarray(a))
    B = gp.asarray(b) if sb else gp.asarray(np.asarray(b))
    check(gp.dot(A, B), np.dot(a, b))


def test_dot_int_and_method_and_out():
    a, b = rand((3, 4), np.int16), rand((4, 2), np.int16)
    check(gp.asarray(a).dot(gp.asarray(b)), a.dot(b))
    out = gp.empty((3, 2), np.int16)
    assert gp.dot(gp.asarray(a), gp.asarray(b), out=out) is out
    np.testing.assert_array_equal(out.get(), a.dot(b))
    with pytest.raises(ValueError, match="not acceptable"):
        gp.dot(gp.asarray(a), gp.asarray(b), out=gp.empty((3, 2), np.float64))
    with pytest.raises(ValueError, match="not aligned"):
        gp.dot(gp.asarray(a), gp.asarray(a))


@pytest.mark.parametrize("dt", [np.float64, np.complex64, np.int32])
def test_vdot_inner_outer(dt):
    a, b = rand((2, 3), dt), rand((2, 3), dt)
    check(gp.vdot(gp.asarray(a), gp.asarray(b)), np.vdot(a, b))
    c = rand((4, 3), dt)
    check(gp.inner(gp.asarray(a), gp.asarray(c)), np.inner(a, c))
    check(gp.outer(gp.asarray(a), gp.asarray(c[0])), np.outer(a, c[0]))
    with pytest.raises(ValueError):
        gp.vdot(gp.asarray(a), gp.asarray(c))


@pytest.mark.parametrize("axes", [0, 1, 2, ([1, 0], [0, 1]), ([2], [0]), (-1, 1)])
def test_tensordot(axes):
    a = rand((3, 4, 2), np.float32)
    b = rand((4, 2, 5) if axes != ([2], [0]) and axes != (-1, 1) else (2, 2, 3), np.float32)
    if axes == 0:
        a, b = rand((2, 3), np.float32), rand((3,), np.float32)
    if axes == 1:
        b = rand((2, 3), np.float32)
    if axes == ([1, 0], [0, 1]):
        b = rand((4, 3, 2), np.float32)
    check(gp.tensordot(gp.asarray(a), gp.asarray(b), axes=axes), np.tensordot(a, b, axes=axes))


def test_tensordot_errors():
    with pytest.raises(ValueError, match="shape-mismatch"):
        gp.tensordot(gp.ones((2, 3)), gp.ones((2, 3)), axes=1)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.bool_, np.float32, np.complex128])
def test_trace_and_diagonal(dt):
    a = rand((4, 5, 3), dt)
    A = gp.asarray(a)
    check(gp.trace(A), np.trace(a))
    check(gp.trace(A, offset=1, axis1=1, axis2=2), np.trace(a, offset=1, axis1=1, axis2=2))
    check(gp.trace(A, offset=-2), np.trace(a, offset=-2))
    check(A.trace(offset=3), a.trace(offset=3))
    np.testing.assert_array_equal(gp.diagonal(A, 1, 0, 2).get(), np.diagonal(a, 1, 0, 2))


@pytest.mark.parametrize("sa,sb", [((2, 3), (3, 2)), ((3,), (2, 2)), ((2, 1, 2), (3, 2))])
def test_kron(sa, sb):
    a, b = rand(sa, np.float64), rand(sb, np.int32)
    check(gp.kron(gp.asarray(a), gp.asarray(b)), np.kron(a, b))


def test_cross():
    a, b = rand((4, 3), np.float64), rand((4, 3), np.float64)
    check(gp.cross(gp.asarray(a), gp.asarray(b)), np.cross(a, b))
    a2, b2 = rand((4, 2), np.float64), rand((4, 2), np.float64)
    check(gp.cross(gp.asarray(a2), gp.asarray(b2)), np.cross(a2, b2))
    check(gp.cross(gp.asarray(a), gp.asarray(b2)), np.cross(a, b2))
    check(gp.cross(gp.asarray(a2), gp.asarray(b)), np.cross(a2, b))
    c, d = rand((3, 4), np.float64), rand((3, 4), np.float64)
    check(gp.cross(gp.asarray(c), gp.asarray(d), axis=0), np.cross(c, d, axis=0))
    with pytest.raises(ValueError):
        gp.cross(gp.ones((2, 4)), gp.ones((2, 4)))


@pytest.mark.parametrize("dt", [np.float64, np.complex128, np.int16])
def test_vecdot_matvec_vecmat(dt):
    x = rand((2, 3, 4), dt)
    y = rand((3, 4), dt)
    check(gp.vecdot(gp.asarray(x), gp.asarray(y)), np.vecdot(x, y))
    check(gp.vecdot(gp.asarray(x), gp.asarray(x), axis=1), np.vecdot(x, x, axis=1))
    m = rand((2, 5, 4), dt)
    check(gp.matvec(gp.asarray(m), gp.asarray(y)[:, None, :]), np.matvec(m, y[:, None, :]))
    v = rand((5,), dt)
    check(gp.vecmat(gp.asarray(v), gp.asarray(m)), np.vecmat(v, m))


def test_multi_dot_and_matrix_power():
    arrs = [rand(s, np.float64) for s in [(4,), (4, 6), (6, 2), (2, 5), (5,)]]
    check(gp.linalg.multi_dot([gp.asarray(x) for x in arrs]), np.linalg.multi_dot(arrs))
    arrs2 = [rand(s, np.float64) for s in [(3, 6), (6, 2), (2, 5)]]
    check(gp.linalg.multi_dot([gp.asarray(x) for x in arrs2]), np.linalg.multi_dot(arrs2))
    m = rand((2, 3, 3), np.float64) / 2
    for n in (0, 1, 2, 3, 5):
        check(gp.linalg.matrix_power(gp.asarray(m), n), np.linalg.matrix_power(m, n))
    mi = rand((3, 3), np.int64) // 10
    check(gp.linalg.matrix_power(gp.asarray(mi), 3), np.linalg.matrix_power(mi, 3))
    with pytest.raises(np.linalg.LinAlgError):
        gp.linalg.matrix_power(gp.ones((2, 3)), 2)


def test_matrix_transpose():
    a = rand((2, 3, 4), np.float32)
    np.testing.assert_array_equal(gp.matrix_transpose(gp.asarray(a)).get(), np.matrix_transpose(a))


# ---- the cuBLAS call path (both backends: the recorder wraps nvmath's cublas or the stand-in) ---
# The library path's host side -- op flags, leading dimensions, batch strides, operand order,
# the plan caches of _gemm and matmul -- as the calls it makes.
def _gemm_calls(rec):
    """GEMM calls as (name, transa, transb, m, n, k, lda, ldb, ldc, stride a, b, c, count)."""
    out = []
    for name, a in rec.calls:
        if "gemm" not in name:
            continue
        ex = name.endswith("_ex")
        if "strided_batched" in name:
            lda, sa, ldb, sb, ldc, sc, nb = ((a[9], a[10], a[13], a[14], a[18], a[19], a[20]) if ex
                                             else (a[8], a[9], a[11], a[12], a[15], a[16], a[17]))
        else:
            lda, ldb, ldc = (a[9], a[12], a[16]) if ex else (a[8], a[10], a[13])
            sa = sb = sc = 0
            nb = 1
        out.append((name,) + tuple(a[1:6]) + (lda, ldb, ldc, sa, sb, sc, nb))
    return out


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
def test_library_path(lib_calls, dt):
    cases = [((4, 4), (4, 4)), ((5,), (5, 3)), ((3, 5), (5,)), ((6,), (6,)), ((2, 3, 4), (4, 5)),
             ((3, 1, 4, 2), (5, 2, 3)), ((1, 5), (5, 1))]
    for sa, sb in cases:
        a, b = rand(sa, dt), rand(sb, dt)
        want = (a.astype(np.float32) @ b.astype(np.float32)).astype(dt) if np.dtype(dt) == np.float16 \
            else a @ b
        A, B = gp.asarray(a), gp.asarray(b)
        for _ in range(2):           # the second call takes the cached fast path
            check(A @ B, want)
    a, b = rand((6, 5), dt), rand((4, 6), dt)
    A, B = gp.asarray(a), gp.asarray(b)
    for x, y, hx, hy in [(A.T, B.T, a.T, b.T), (gp.asfortranarray(B), A, np.asfortranarray(b), a),
                         (A[::-1, ::2], B.T[::2, ::-1], a[::-1, ::2], b.T[::2, ::-1]),
                         (A[:, :4].T, A, a[:, :4].T, a)]:
        want = (hx.astype(np.float32) @ hy.astype(np.float32)).astype(dt) if np.dtype(dt) == np.float16 \
            else hx @ hy
        for _ in range(2):
            check(x @ y, want)
    out = gp.empty((5, 5), dt)
    r = gp.matmul(A.T, A, out=out)
    assert r is out
    np.testing.assert_allclose(out.get().astype(np.complex128), (a.T @ a).astype(np.complex128),
                               **tol(np.float16 if np.dtype(dt) == np.float16 else dt))
    assert _gemm_calls(lib_calls)


def test_batched_product_is_one_strided_batched_call(lib_calls):
    a, b = rand((64, 16, 16), np.float32), rand((64, 16, 16), np.float32)
    A, B = gp.asarray(a), gp.asarray(b)
    for _ in range(2):
        lib_calls.calls.clear()
        before = compiler.stats["launches"]
        r = A @ B
        assert compiler.stats["launches"] == before          # no copy / fill kernels
        calls = _gemm_calls(lib_calls)
        assert len(calls) == 1 and calls[0][0] == "sgemm_strided_batched"
        # row-major C = A B computed as C^T = B^T A^T: no transposes, ld 16, stride 256, 64 matrices
        assert calls[0][1:] == (0, 0, 16, 16, 16, 16, 16, 16, 256, 256, 256, 64)
        check(r, a @ b)
    # broadcast batch: the broadcast operand has batch stride 0, still one call
    lib_calls.calls.clear()
    check(A @ B[0], a @ b[0])
    calls = _gemm_calls(lib_calls)
    assert len(calls) == 1 and calls[0][9] == 0 and calls[0][10] == 256   # X = B[0] (swapped)


def test_handle_rebinds_only_on_stream_or_mode_change(lib_calls):
    from npgpu.linalg import _handles
    _handles._h.last = None           # this thread's handle rebinds on its next call
    _handles._h.cublas.clear()        # (a new handle: binds stream and mode once)
    A = gp.asarray(rand((4, 4), np.float32))
    A @ A
    A @ A
    binds = [c for c in lib_calls.calls if c[0] in ("set_stream", "set_math_mode")]
    assert len(binds) == 2                       # the first call binds stream and math mode once
    prev = gp.linalg.set_tf32(not gp.linalg.get_tf32())
    try:
        A @ A
    finally:
        gp.linalg.set_tf32(prev)
    A @ A
    modes = [c for c in lib_calls.calls if c[0] == "set_math_mode"]
    assert len(modes) == 3
    # another current stream (simulator streams all have handle 0: stand one in)
    from npgpu.cuda import runtime

    class OtherStream:
        ptr = 0x5000

    other = gp.cuda.Stream() if ON_GPU else OtherStream()
    prev_stream = runtime._tls.stream
    runtime._tls.stream = other
    try:
        A @ A
        A @ A
    finally:
        runtime._tls.stream = prev_stream
    A @ A
    streams = [c[1][1] for c in lib_calls.calls if c[0] == "set_stream"]
    first = streams[0]
    assert streams == [first, other.ptr, first]


# ---- cuBLAS specifics (smaller sizes on the simulator) ------------------------------------------------------------------
def test_transposed_and_fortran_operands_are_not_copied():
    n = 512 if ON_GPU else 16
    a = gp.asarray(rand((n, n), np.float32))
    b = gp.asfortranarray(gp.asarray(rand((n, n), np.float32)))
    pool = gp.get_default_memory_pool()
    out = gp.empty((n, n), np.float32)
    gp.cuda.Device().synchronize()
    pool.reset_peak()
    base = pool.used_bytes()
    gp.matmul(a.T, b, out=out)
    gp.matmul(b.T, a.T, out=out)
    gp.cuda.Device().synchronize()
    assert pool.peak_bytes() - base < n * n * 4      # no operand copy
    np.testing.assert_allclose(out.get(), b.get().T @ a.get().T, rtol=1e-4, atol=1e-3)


def test_batched_broadcast_strided_gemm():
    a = rand((3, 1, 64, 32), np.float64)
    b = rand((4, 32, 16), np.float64)
    check(gp.asarray(a) @ gp.asarray(b), a @ b)
    check(gp.asarray(a).swapaxes(-1, -2).swapaxes(-1, -2) @ gp.asarray(b).swapaxes(-1, -2)[..., :, :].swapaxes(-1, -2), a @ b)


@GPU
def test_gpu_tf32_switch_and_true_float32():
    a = rand((256, 256), np.float32)
    b = rand((256, 256), np.float32)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    prev = gp.linalg.set_tf32(False)
    try:
        r = (gp.asarray(a) @ gp.asarray(b)).get()
        assert np.abs(r - exact).max() < 1e-3        # true fp32 (TF32 errors are ~1e-2 here)
        gp.linalg.set_tf32(True)
        assert gp.linalg.get_tf32()
        r2 = (gp.asarray(a) @ gp.asarray(b)).get()
        np.testing.assert_allclose(r2, exact, rtol=5e-2, atol=5e-1)
    finally:
        gp.linalg.set_tf32(prev)


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
def test_cublas_dtypes_batched(dt):
    a, b = rand((2, 33, 17), dt), rand((2, 17, 9), dt)
    want = a @ b if np.dtype(dt) != np.float16 else (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16)
    check(gp.asarray(a) @ gp.asarray(b), want)
    check(gp.asarray(a[0]) @ gp.asarray(b[0]), want[0])


def test_integer_matmul_uses_kernel():
    m, k, n = (70, 40, 50) if ON_GPU else (7, 5, 6)
    a, b = rand((m, k), np.int32), rand((k, n), np.int32)
    before = compiler.stats["launches"]
    check(gp.asarray(a) @ gp.asarray(b), a @ b)
    assert compiler.stats["launches"] > before


class _CountingCublas:
    """Delegates to the real cuBLAS bindings, counting calls by name."""

    def __init__(self, real):
        self._real = real
        self.counts = {}

    def __getattr__(self, name):
        attr = getattr(self._real, name)
        if not callable(attr) or isinstance(attr, type):
            return attr

        def counted(*args):
            self.counts[name] = self.counts.get(name, 0) + 1
            return attr(*args)
        return counted


def test_batched_gemm_is_one_call_and_plans_repeat(monkeypatch):
    from npgpu.linalg import _handles, products
    counting = _CountingCublas(_handles.cublas_module())
    products.clear_plans()
    monkeypatch.setattr(_handles, "cublas_module", lambda: counting)
    try:
        nb, n = (512, 64) if ON_GPU else (8, 8)
        a, b = rand((nb, n, n), np.float32), rand((nb, n, n), np.float32)
        A, B = gp.asarray(a), gp.asarray(b)
        gp.cuda.Device().synchronize()
        for i in range(3):                       # plan made, then the cached fast path
            before = compiler.stats["launches"]
            r = A @ B
            assert compiler.stats["launches"] == before       # no copy/fill kernels
            check(r, a @ b)
        assert counting.counts.get("sgemm_strided_batched") == 3
        assert "sgemm" not in counting.counts
        # tiny products through the fast path, on another stream and with TF32 toggled
        x, y = rand((4, 4), np.float32), rand((4, 4), np.float32)
        X, Y = gp.asarray(x), gp.asarray(y)
        for _ in range(3):
            check(X @ Y, x @ y)
        s = gp.cuda.Stream()
        with s:
            r = X @ Y
            s.synchronize()
        check(r, x @ y)
        prev = gp.linalg.set_tf32(True)
        try:
            np.testing.assert_allclose((X @ Y).get(), x @ y, rtol=5e-2, atol=5e-2)
        finally:
            gp.linalg.set_tf32(prev)
        check(X @ Y, x @ y)
        d = rand((64, 48), np.float64)
        D = gp.asarray(d)
        for _ in range(2):
            check(D.T @ D, d.T @ d)
        assert counting.counts.get("dgemm") == 2
    finally:
        products.clear_plans()
