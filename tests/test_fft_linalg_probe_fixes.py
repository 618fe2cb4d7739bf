"""npgpu.fft / npgpu.linalg answer as NumPy 2.4 where a side-by-side probe found them apart:
exception classes and messages for bad input, result dtypes and edge-case values."""
import re
import warnings

import numpy as np
import pytest

import npgpu as gp

rng = np.random.default_rng(7)


def G(x):
    return gp.asarray(np.asarray(x))


def H(x):
    if isinstance(x, gp.ndarray):
        return x.get()
    if isinstance(x, tuple):
        return tuple(H(y) for y in x)
    return x


def same_error(f):
    """``f(np, A)`` raises; ``f(gp, G)`` raises NumPy's class with NumPy's message."""
    with pytest.raises(Exception) as ei:
        f(np, np.asarray)
    e = ei.value
    with pytest.raises(type(e), match="^" + re.escape(str(e)) + "$"):
        f(gp, G)


def same_result(f, rtol=1e-10, atol=1e-12):
    want = f(np, np.asarray)
    got = H(f(gp, G))
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
    else:
        want, got = (want,), (got,)
    for w, g in zip(want, got):
        w, g = np.asarray(w), np.asarray(g)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


# ---- fft -------------------------------------------------------------------------------------
X2 = rng.standard_normal((4, 6))


@pytest.mark.parametrize("fn", ["fft", "ifft", "irfft", "hfft"])
@pytest.mark.parametrize("n", [True, np.True_])
def test_fft_bool_n_refused_where_numpy_refuses(fn, n):
    same_error(lambda m, A: getattr(m.fft, fn)(A(X2), n=n))


@pytest.mark.parametrize("fn", ["rfft", "ihfft"])
@pytest.mark.parametrize("n", [True, np.True_])
def test_rfft_bool_n_is_a_length(fn, n):
    same_result(lambda m, A: getattr(m.fft, fn)(A(X2), n=n))


def test_fftn_bool_s():
    same_error(lambda m, A: m.fft.fftn(A(X2), s=(True, 4), axes=(0, 1)))
    same_error(lambda m, A: m.fft.irfftn(A(X2), s=(4, np.True_), axes=(0, 1)))
    same_result(lambda m, A: m.fft.rfftn(A(X2), s=(4, np.True_), axes=(0, 1)))


def test_fftfreq_integer_kinds():
    same_error(lambda m, A: m.fft.fftfreq(True))
    same_result(lambda m, A: m.fft.rfftfreq(True))
    for n in (np.int8(4), np.int16(5), np.int64(7)):
        same_result(lambda m, A: m.fft.fftfreq(n, 0.5))
        same_result(lambda m, A: m.fft.rfftfreq(n, 0.5))


@pytest.mark.parametrize("fn", ["fftfreq", "rfftfreq"])
@pytest.mark.parametrize("d", [np.array([2.0]), np.arange(1.0, 9.0), np.arange(1.0, 6.0),
                               np.array([[1.0], [2.0]])])
def test_fftfreq_array_spacing(fn, d):
    try:
        getattr(np.fft, fn)(8, d)
    except ValueError:
        same_error(lambda m, A: getattr(m.fft, fn)(8, d))
    else:
        same_result(lambda m, A: getattr(m.fft, fn)(8, d))


def test_rfftfreq_zero_n_array_spacing():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        same_result(lambda m, A: m.fft.rfftfreq(0, np.array([2.0, 4.0])))
        same_error(lambda m, A: m.fft.fftfreq(0, np.arange(1.0, 4.0)))


@pytest.mark.parametrize("fn", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [None, ()])
def test_fftshift_0d(fn, axes):
    same_error(lambda m, A: getattr(m.fft, fn)(A(np.float64(3.0)), axes=axes))
    same_result(lambda m, A: getattr(m.fft, fn)(A(np.arange(3.0)), axes=axes))


# ---- linalg: dtypes and solve ---------------------------------------------------------------
SQ = rng.standard_normal((3, 3)) + 3 * np.eye(3)
STACK = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
V3 = rng.standard_normal(3)


def test_float16_refused_with_other_operand():
    a16 = np.array([[2, 1], [1, 3]], np.float16)
    same_error(lambda m, A: m.linalg.solve(A(a16), A(np.ones(2))))
    same_error(lambda m, A: m.linalg.solve(A(a16), A(np.ones((2, 2)))))
    same_error(lambda m, A: m.linalg.lstsq(A(a16), A(np.arange(2))))


def test_single_precision_only_when_all_single():
    a32 = SQ.astype(np.float32)
    same_result(lambda m, A: m.linalg.solve(A(a32), A(np.arange(3, dtype=np.int8))), rtol=1e-5)
    same_result(lambda m, A: m.linalg.solve(A(a32), A(V3.astype(np.complex64))), rtol=1e-5)
    same_result(lambda m, A: m.linalg.solve(A(a32), A(V3.astype(np.float32))), rtol=1e-4)


def test_solve_messages():
    same_error(lambda m, A: m.linalg.solve(A(SQ), A(np.ones(4))))          # solve1
    same_error(lambda m, A: m.linalg.solve(A(SQ), A(np.ones((4, 2)))))
    same_error(lambda m, A: m.linalg.solve(A(SQ), A(np.array(1.0))))
    same_error(lambda m, A: m.linalg.solve(A(np.zeros((0, 3, 3))), A(np.ones((2, 3, 2)))))


def test_solve_singular_without_right_hand_sides():
    a = np.stack([SQ, np.zeros((3, 3))])
    same_error(lambda m, A: m.linalg.solve(A(a), A(np.zeros((3, 0)))))
    same_result(lambda m, A: m.linalg.solve(A(SQ), A(np.zeros((3, 0)))))


# ---- decompositions ------------------------------------------------------------------------
SPD = SQ @ SQ.T + np.eye(3)


@pytest.mark.parametrize("uplo", ["l", "u", "L", "U"])
def test_eigh_uplo_case(uplo):
    same_result(lambda m, A: m.linalg.eigvalsh(A(SPD), UPLO=uplo))
    same_result(lambda m, A: m.linalg.eigh(A(SPD), UPLO=uplo)[0])


@pytest.mark.parametrize("uplo", [None, 0, "X"])
def test_eigh_bad_uplo(uplo):
    same_error(lambda m, A: m.linalg.eigh(A(SPD), UPLO=uplo))
    same_error(lambda m, A: m.linalg.eigvalsh(A(SPD), UPLO=uplo))


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (2, 3, 3)])
def test_qr_deprecated_modes(shape):
    a = rng.standard_normal(shape)
    for mode in ("full", "f"):
        with pytest.warns(DeprecationWarning, match="'full' option is deprecated"):
            q, r = gp.linalg.qr(G(a), mode=mode)
        np.testing.assert_allclose(q.get() @ r.get(), a, atol=1e-12)
        assert q.shape == np.linalg.qr(a)[0].shape and r.shape == np.linalg.qr(a)[1].shape
    for mode in ("economic", "e"):
        with pytest.warns(DeprecationWarning, match="'economic' option is deprecated"):
            h = gp.linalg.qr(G(a), mode=mode)
        with pytest.warns(DeprecationWarning):
            want = np.linalg.qr(a, mode=mode)
        assert h.shape == want.shape and h.dtype == want.dtype
        # the packed R (upper triangle) is geqrf's, up to the signs of its rows
        np.testing.assert_allclose(np.abs(np.triu(h.get()[..., :min(shape[-2:]), :])),
                                   np.abs(np.triu(want[..., :min(shape[-2:]), :])), atol=1e-12)
    with pytest.warns(DeprecationWarning):
        same_error(lambda m, A: m.linalg.qr(A(np.ones(3)), mode="full"))


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_reads_one_triangle(dt, upper):
    a = SPD.astype(dt)
    if np.dtype(dt).kind == "c":
        a = a + 1j * (np.triu(np.ones((3, 3)), 1) - np.tril(np.ones((3, 3)), -1))
    b = a.copy()
    if upper:
        b[np.tril_indices(3, -1)] = 99        # the triangle NumPy does not read
    else:
        b[np.triu_indices(3, 1)] = 99
    same_result(lambda m, A: m.linalg.cholesky(A(b), upper=upper), rtol=1e-5, atol=1e-5)


def test_cholesky_bool_not_positive_definite():
    same_error(lambda m, A: m.linalg.cholesky(A(np.array([[True, False], [True, True]]))))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_eig_non_finite(bad):
    a = np.array([[1.0, bad], [0.0, 1.0]])
    same_error(lambda m, A: m.linalg.eig(A(a)))
    same_error(lambda m, A: m.linalg.eigvals(A(a)))
    same_error(lambda m, A: m.linalg.eigvals(A(a.astype(np.complex64))))


def test_svd_nan_raises_inf_gives_nan():
    a = np.array([[1.0, np.nan], [0.0, 1.0]])
    same_error(lambda m, A: m.linalg.svd(A(a)))
    same_error(lambda m, A: m.linalg.svd(A(a), compute_uv=False))
    same_error(lambda m, A: m.linalg.pinv(A(a)))
    same_error(lambda m, A: m.linalg.matrix_rank(A(a)))
    b = np.array([[1.0, np.inf], [0.0, 1.0]])
    same_result(lambda m, A: m.linalg.svdvals(A(b)))
    # on the GPU cuSOLVER returns numbers for an infinity: npgpu puts NaN in those matrices
    same_result(lambda m, A: m.linalg.svd(A(np.stack([b, np.eye(2)])), compute_uv=False))
    same_result(lambda m, A: tuple(m.linalg.svd(A(b))))
    same_result(lambda m, A: m.linalg.matrix_rank(A(b)))


@pytest.mark.parametrize("x", [SQ, SPD, STACK, SQ.astype(np.float32), SQ + 1j * SQ.T,
                               np.array([[True, False], [True, True]])])
def test_svd_hermitian_uses_lower_triangle(x):
    tol = 1e-4 if x.dtype == np.float32 else 1e-10
    same_result(lambda m, A: m.linalg.svd(A(x), hermitian=True, compute_uv=False), rtol=tol)
    same_result(lambda m, A: m.linalg.svd(A(x), hermitian=True)[1], rtol=tol)
    u, s, vh = gp.linalg.svd(G(x), hermitian=True)
    low = np.tril(x, -1)                  # what eigh reads: the lower triangle, a real diagonal
    lower = low + np.conj(np.swapaxes(low, -1, -2)) + np.real(x * np.eye(x.shape[-1]))
    np.testing.assert_allclose((u.get() * s.get()[..., None, :]) @ vh.get(), lower,
                               rtol=tol, atol=tol * 10)
    same_result(lambda m, A: m.linalg.pinv(A(x), hermitian=True), rtol=tol * 10, atol=tol)
    same_result(lambda m, A: m.linalg.matrix_rank(A(x), hermitian=True))


@pytest.mark.parametrize("shape", [(2, 4), (0, 3), (3, 0)])
def test_svd_hermitian_non_square(shape):
    same_error(lambda m, A: m.linalg.svd(A(np.ones(shape)), hermitian=True))
    same_error(lambda m, A: m.linalg.matrix_rank(A(np.ones(shape)), hermitian=True))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 0, 4)])
def test_pinv_empty(shape):
    same_result(lambda m, A: m.linalg.pinv(A(np.ones(shape)), hermitian=True))
    same_result(lambda m, A: m.linalg.pinv(A(np.ones(shape, np.int64))))


def test_matrix_rank_tolerances():
    same_error(lambda m, A: m.linalg.matrix_rank(A(SQ), tol=0.1, rtol=0.1))
    s = STACK.copy()
    s[1, 2] = s[1, 1]
    same_result(lambda m, A: m.linalg.matrix_rank(A(s), rtol=np.array([0.1, 0.5])))
    same_result(lambda m, A: m.linalg.matrix_rank(A(s), rtol=np.array([1e-12, 1e-12])))
    for v in (np.zeros(3), np.ones(3), np.array(2.0), np.array([np.nan])):
        got = gp.linalg.matrix_rank(G(v))
        assert type(got) is int and got == np.linalg.matrix_rank(v)


# ---- cond, lstsq ---------------------------------------------------------------------------
@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"])
@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (2, 0, 0)])
def test_cond_empty(p, shape):
    same_error(lambda m, A: m.linalg.cond(A(np.zeros(shape)), p))


@pytest.mark.parametrize("p", [None, 1, "fro", np.inf, "nuc"])
def test_cond_not_2d(p):
    same_error(lambda m, A: m.linalg.cond(A(np.ones(3)), p))


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, np.inf, -np.inf, "fro"])
@pytest.mark.parametrize("x", [np.array([[1.0, 2.0], [2.0, 4.0]]), np.zeros((2, 2)),
                               np.stack([SQ, np.zeros((3, 3))]), SQ,
                               np.array([[np.nan, 0.0], [0.0, 1.0]])])
def test_cond_singular_is_inf(p, x):
    if np.isnan(x).any() and p in (None, 2, -2):
        same_error(lambda m, A: m.linalg.cond(A(x), p))
        return
    with np.errstate(all="ignore"):
        same_result(lambda m, A: m.linalg.cond(A(x), p), rtol=1e-8)


def test_cond_nuc_singular():
    same_error(lambda m, A: m.linalg.cond(A(np.array([[1.0, 2.0], [2.0, 4.0]])), "nuc"))


def test_lstsq_checks():
    a = rng.standard_normal((4, 3))
    same_error(lambda m, A: m.linalg.lstsq(A(a), A(np.array(1.0))))
    same_error(lambda m, A: m.linalg.lstsq(A(a), A(np.ones((1, 4, 2)))))
    same_error(lambda m, A: m.linalg.lstsq(A(np.ones(4)), A(np.ones(4))))
    a2 = a.copy()
    a2[0, 0] = np.nan
    same_error(lambda m, A: m.linalg.lstsq(A(a2), A(np.ones(4))))
    # (NumPy's LAPACK loops forever on some matrices with an inf: a small one that returns)
    same_error(lambda m, A: m.linalg.lstsq(A(np.array([[1.0, np.inf], [0.0, 1.0]])),
                                           A(np.ones(2))))


@pytest.mark.parametrize("rcond", [None, -1, 1e-10])
def test_lstsq_rank_deficient_rcond(rcond):
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    x, res, rank, s = gp.linalg.lstsq(G(a), G(np.array([1.0, 2.0])), rcond=rcond)
    wx, wres, wrank, ws = np.linalg.lstsq(a, np.array([1.0, 2.0]), rcond=rcond)
    np.testing.assert_allclose(x.get(), wx, rtol=1e-10)
    assert type(rank) is type(wrank) and rank == wrank
    assert res.shape == wres.shape and res.dtype == wres.dtype


# ---- norms ---------------------------------------------------------------------------------
VEC = rng.standard_normal(5)
T3 = rng.standard_normal((2, 3, 4))


@pytest.mark.parametrize("ord", ["fro", "nuc", "f", "bogus"])
@pytest.mark.parametrize("axis", [None, 0, -1, 5])
def test_vector_norm_string_ord(ord, axis):
    same_error(lambda m, A: m.linalg.vector_norm(A(VEC), ord=ord, axis=axis))
    same_error(lambda m, A: m.linalg.norm(A(VEC), ord=ord, axis=axis if axis is not None else 0))


@pytest.mark.parametrize("ord", [2, 1, np.inf, 0.5, "fro"])
def test_vector_norm_repeated_axes(ord):
    same_error(lambda m, A: m.linalg.vector_norm(A(T3), ord=ord, axis=(0, 0)))
    same_error(lambda m, A: m.linalg.vector_norm(A(T3), ord=ord, axis=(0, 5)))


@pytest.mark.parametrize("ord", [None, 2, np.inf, "nuc"])
def test_norm_axis_checks(ord):
    same_error(lambda m, A: m.linalg.norm(A(VEC), ord=ord, axis=(0, 1, 2)))
    same_error(lambda m, A: m.linalg.norm(A(T3), ord=ord, axis=[0, 1]))
    same_error(lambda m, A: m.linalg.matrix_norm(A(VEC), ord=ord))
    same_error(lambda m, A: m.linalg.matrix_norm(A(np.array(2.0)), ord=ord))


def _same_outcome(f):
    """``f(module, to_array)``: NumPy's ValueError where NumPy raises one, else its result."""
    try:
        f(np, np.asarray)
    except ValueError:
        same_error(f)
    else:
        same_result(f)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0)])
@pytest.mark.parametrize("ord", [1, -1, 2, -2, np.inf, -np.inf, "fro", "nuc"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm_empty(shape, ord, keepdims):
    x = np.zeros(shape)
    _same_outcome(lambda m, A: m.linalg.matrix_norm(A(x), ord=ord, keepdims=keepdims))


@pytest.mark.parametrize("ord", [np.inf, -np.inf])
def test_vector_norm_empty_max_min(ord):
    for x, axis in ((np.zeros(0), None), (np.zeros((0, 3)), 0), (np.zeros((3, 0)), 1)):
        _same_outcome(lambda m, A: m.linalg.vector_norm(A(x), ord=ord, axis=axis))


@pytest.mark.parametrize("ord", [None, 2, 1, -1, np.inf, -np.inf, 0, 3, 0.5, "fro", "nuc"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2), (2, 0)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_norm_values_unchanged(ord, axis, keepdims):
    x = T3 if axis is not None else T3[0]
    try:
        np.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)
    except ValueError:
        same_error(lambda m, A: m.linalg.norm(A(x), ord=ord, axis=axis, keepdims=keepdims))
    else:
        same_result(lambda m, A: m.linalg.norm(A(x), ord=ord, axis=axis, keepdims=keepdims),
                    rtol=1e-10)


# ---- tensors and products ------------------------------------------------------------------
def test_tensorsolve_tensorinv_errors():
    same_error(lambda m, A: m.linalg.tensorsolve(A(np.ones((6, 2, 2))), A(np.ones(6))))
    same_error(lambda m, A: m.linalg.tensorinv(A(np.array(2.0)), ind=1))


A23, A34, A45 = rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), rng.standard_normal((4, 5))


def test_multi_dot_rules():
    same_result(lambda m, A: m.linalg.multi_dot([A(np.array(2.0)), A(A23)]))
    same_error(lambda m, A: m.linalg.multi_dot([A(A23), A(np.ones((2, 3, 4))), A(A45)]))
    same_error(lambda m, A: m.linalg.multi_dot([A(A23), A(A45)]))
    same_error(lambda m, A: m.linalg.multi_dot([A(A23), A(A34)], out=A(np.zeros((2, 5)))))
    same_error(lambda m, A: m.linalg.multi_dot([A(A23), A(A34)],
                                               out=A(np.zeros((2, 4), np.float32))))
    same_error(lambda m, A: m.linalg.multi_dot([A(A23), A(A34), A(A45)],
                                               out=A(np.zeros((2, 5), np.int64))))
    same_error(lambda m, A: m.linalg.multi_dot([A(A23), A(A34), A(A45)],
                                               out=A(np.zeros((2, 4)))))
    same_error(lambda m, A: m.linalg.multi_dot([A(np.ones(3)), A(A34), A(np.ones(4))],
                                               out=A(np.zeros(()))))

    def with_out(m, A):
        o = A(np.zeros((2, 5)))
        r = m.linalg.multi_dot([A(A23), A(A34), A(A45)], out=o)
        return r, o
    same_result(with_out)

    def vec_out(m, A):
        o = A(np.zeros((1, 5)))
        r = m.linalg.multi_dot([A(np.ones(3)), A(A34), A(A45)], out=o)
        return r, o
    same_result(vec_out)


def test_dot_messages():
    same_error(lambda m, A: m.dot(A(A23), A(A45)))
    same_error(lambda m, A: m.dot(A(np.ones(3)), A(np.ones(4))))
    for b in ((4, 5), (5,), (4, 5, 6), (2, 4, 5, 7)):
        same_error(lambda m, A: m.inner(A(A23), A(np.ones(b))))
    same_error(lambda m, A: m.dot(A(A23), A(A34), out=A(np.zeros((2, 5)))))
    same_error(lambda m, A: m.dot(A(A23), A(A34), out=A(np.zeros(8))))


def test_vecdot_tensordot_errors():
    same_error(lambda m, A: m.linalg.vecdot(A(np.ones((2, 3))), A(np.ones((4, 3)))))
    same_error(lambda m, A: m.linalg.tensordot(A(np.array(1.0)), A(V3), axes=1))
    same_error(lambda m, A: m.tensordot(A(V3), A(np.ones((3, 3))), axes=2))


def test_cross_checks_and_deprecation():
    same_error(lambda m, A: m.cross(A(np.array(1.0)), A(V3)))
    same_error(lambda m, A: m.cross(A(V3), A(V3), axisa=2))
    same_error(lambda m, A: m.cross(A(V3), A(V3), axisb=-3))
    same_error(lambda m, A: m.cross(A(V3), A(V3), axisc=1))
    with pytest.warns(DeprecationWarning, match="Arrays of 2-dimensional vectors are deprecated"):
        r = gp.cross(G(np.ones(2)), G(np.array([1.0, 2.0])))
    with pytest.warns(DeprecationWarning):
        np.testing.assert_array_equal(r.get(), np.cross(np.ones(2), np.array([1.0, 2.0])))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same_result(lambda m, A: m.cross(A(V3), A(V3[::-1])))


def test_matmul_and_solve_batch_broadcast_messages():
    """The (m,n)-core gufuncs' batch broadcast error, NumPy's text (one helper for both)."""
    same_error(lambda m, A: m.matmul(A(np.ones((2, 3, 3))), A(np.ones((4, 3, 3)))))
    same_error(lambda m, A: m.linalg.solve(A(np.eye(3) + np.zeros((2, 3, 3))),
                                           A(np.ones((4, 3, 1)))))
