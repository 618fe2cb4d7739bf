"""Decompositions, solvers and norms against NumPy, on both backends.

On the simulator the library calls go to the host stand-ins of ``npgpu.linalg._sim``
(cuSOLVER / cuBLAS entry points on LAPACK), so everything above the library -- argument
checks, batching, layouts, dtype routes, LinAlgError from the info flag -- runs there too;
sizes are smaller there (every copy and mask is a simulated kernel)."""
import numpy as np
import pytest

import npgpu
import npgpu as gp
import importlib

from npgpu.linalg import decomp
from npgpu.linalg._common import tri_copy

_solve = importlib.import_module("npgpu.linalg.solve")
from test_linalg_libs import lib_calls  # noqa: F401  (fixture)

SIM = npgpu.backend() != "cuda"
rng = np.random.default_rng(99)
FLOATS = [np.float32, np.float64, np.complex64, np.complex128]


def rand(shape, dt=np.float64):
    dt = np.dtype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if dt.kind in "iu":
        return rng.integers(-5, 5, size=shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def tol(dt):
    return dict(rtol=2e-3, atol=2e-3) if np.dtype(dt) in (np.float32, np.complex64) else \
        dict(rtol=1e-9, atol=1e-9)


def hpd(shape, dt):
    a = rand(shape, dt)
    n = shape[-1]
    return a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=dt)


def host_lu(a):
    """LU with partial pivoting on the host (test reference only), 1-based LAPACK pivots."""
    a = a.copy()
    n = a.shape[0]
    piv = np.zeros(n, np.int64)
    for j in range(n):
        p = j + int(np.argmax(np.abs(a[j:, j])))
        piv[j] = p + 1
        a[[j, p]] = a[[p, j]]
        if a[j, j] != 0:
            a[j + 1:, j] /= a[j, j]
            a[j + 1:, j + 1:] -= np.outer(a[j + 1:, j], a[j, j + 1:])
    return a, piv


# ---- simulator-testable pieces -------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
def test_slogdet_kernel_from_lu(dt):
    mats = rand((3, 4, 4), dt)
    mats[2, :, 1] = 0                       # singular
    lus, pivs = zip(*(host_lu(m) for m in mats))
    lu = gp.asarray(np.stack(lus))
    piv = gp.asarray(np.stack(pivs))
    mark = gp.asarray(mats.max(axis=(-2, -1)))       # no NaN: the LU's values are the result
    sgn, logd, det = _solve.slogdet_from_lu(lu, piv, mark)
    ws, wl = np.linalg.slogdet(mats)
    np.testing.assert_allclose(sgn.get(), ws, **tol(dt))
    np.testing.assert_allclose(logd.get(), wl, **tol(dt))
    np.testing.assert_allclose(det.get(), np.linalg.det(mats), **tol(dt))
    # a NaN mark (the matrix held one, whatever its LU shows): NaN log and det, as NumPy's
    mark = gp.asarray(np.where([True, False, True], np.nan, mats.max(axis=(-2, -1))).astype(dt))
    sgn, logd, det = _solve.slogdet_from_lu(lu, piv, mark)
    assert np.isnan(logd.get()).tolist() == [True, False, True]
    assert np.isnan(det.get()).tolist() == [True, False, True]
    if np.dtype(dt).kind == "c":
        assert np.isnan(sgn.get()).tolist() == [True, False, True]


@pytest.mark.parametrize("k", [0, 1, -1])
def test_tri_copy(k):
    a = rand((2, 3, 4))
    np.testing.assert_array_equal(tri_copy(gp.asarray(a), True, k).get(), np.tril(a, k))
    np.testing.assert_array_equal(tri_copy(gp.asarray(a)[:, ::-1], False, k).get(), np.triu(a[:, ::-1], k))
    c = rand((2, 4, 4), np.complex128)
    C = gp.asarray(c)
    np.testing.assert_array_equal(tri_copy(C.swapaxes(-1, -2), True, k, conjugate=True).get(),
                                  np.tril(np.conj(np.swapaxes(c, -1, -2)), k))
    r = tri_copy(C, False, k, conjugate=True, out=C)           # in place
    assert r is C
    np.testing.assert_array_equal(C.get(), np.triu(np.conj(c), k))


def test_eig_pair_unpacking_kernel():
    # real LAPACK encoding: columns (re, im) for the pair with +im first
    vr = rand((1, 3, 3))
    w = np.array([[1.0 + 0j, 2 + 3j, 2 - 3j]], np.complex128)
    v = decomp._unpack_pairs(gp.asarray(np.asfortranarray(vr[0])[None]), gp.asarray(w),
                             np.dtype(np.complex128)).get()
    want = np.empty((1, 3, 3), np.complex128)
    want[0, :, 0] = vr[0, :, 0]
    want[0, :, 1] = vr[0, :, 1] + 1j * vr[0, :, 2]
    want[0, :, 2] = vr[0, :, 1] - 1j * vr[0, :, 2]
    np.testing.assert_allclose(v, want)


@pytest.mark.parametrize("ord", [None, 2, 1, 0, np.inf, -np.inf, 3, 0.5, -1])
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128, np.int32])
def test_vector_norm(ord, dt):
    x = rand((3, 5), dt)
    x[0, 1] = 0
    X = gp.asarray(x)
    t = tol(dt) if np.dtype(dt).kind != "i" else tol(np.float64)
    np.testing.assert_allclose(gp.linalg.norm(X[1], ord).get(), np.linalg.norm(x[1], ord), **t)
    np.testing.assert_allclose(gp.linalg.norm(X, ord, axis=1).get(), np.linalg.norm(x, ord, axis=1), **t)
    r = gp.linalg.vector_norm(X, axis=0, ord=2 if ord is None else ord, keepdims=True)
    np.testing.assert_allclose(r.get(), np.linalg.vector_norm(x, axis=0, ord=2 if ord is None else ord,
                                                              keepdims=True), **t)
    assert r.get().dtype == np.linalg.vector_norm(x, axis=0).dtype


@pytest.mark.parametrize("ord", [None, "fro", 1, -1, np.inf, -np.inf])
def test_matrix_norm_without_svd(ord):
    x = rand((2, 3, 4))
    X = gp.asarray(x)
    np.testing.assert_allclose(gp.linalg.norm(X, ord, axis=(1, 2)).get(),
                               np.linalg.norm(x, ord, axis=(1, 2)), rtol=1e-10)
    np.testing.assert_allclose(gp.linalg.norm(X, ord, axis=(2, 0), keepdims=True).get(),
                               np.linalg.norm(x, ord, axis=(2, 0), keepdims=True), rtol=1e-10)
    if ord in (None, "fro"):
        np.testing.assert_allclose(gp.linalg.norm(X).get(), np.linalg.norm(x), rtol=1e-10)
        np.testing.assert_allclose(gp.linalg.matrix_norm(X).get(), np.linalg.matrix_norm(x), rtol=1e-10)


def test_norm_errors():
    X = gp.asarray(rand((2, 3, 4)))
    with pytest.raises(ValueError):
        gp.linalg.norm(X, "fro", axis=0)
    with pytest.raises(ValueError):
        gp.linalg.norm(X, 3, axis=(0, 1))
    with pytest.raises(ValueError):
        gp.linalg.norm(X, axis=(0, 1, 2))


def test_error_type_and_switches():
    assert issubclass(gp.linalg.LinAlgError, np.linalg.LinAlgError)
    prev = gp.linalg.set_error_check(False)
    assert gp.linalg.get_error_check() is False
    gp.linalg.set_error_check(prev)
    prev = gp.linalg.set_tf32(True)
    assert gp.linalg.get_tf32() is True
    gp.linalg.set_tf32(prev)
    with pytest.raises(np.linalg.LinAlgError):
        gp.linalg.cholesky(gp.ones(3))
    with pytest.raises(np.linalg.LinAlgError):
        gp.linalg.inv(gp.ones((2, 3)))
    with pytest.raises(TypeError):
        gp.linalg.inv(gp.ones((2, 2), np.float16))


# ---- the library call sequences (both backends: the recorder wraps nvmath's or the stand-in) ----
_solver_mod = importlib.import_module("npgpu.linalg._solver")


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("blocked", [False, True])
def test_cholesky_call_path(lib_calls, monkeypatch, dt, blocked):
    # the blocked route is opt-in (one Xpotrf measured faster on the H200)
    monkeypatch.setenv("NPGPU_CHOLESKY_ALGO", "blocked" if blocked else "xpotrf_lower")
    monkeypatch.setattr(_solver_mod, "BLOCKED_MIN_N", 8 if blocked else 10 ** 9)
    monkeypatch.setattr(_solver_mod, "BLOCK", 5)
    a = hpd((2, 13, 13), dt)
    for upper in (False, True):
        lib_calls.calls.clear()
        got = gp.linalg.cholesky(gp.asarray(a), upper=upper)
        np.testing.assert_allclose(got.get(), np.linalg.cholesky(a, upper=upper), **tol(dt))
        calls = [(n, args) for n, args in lib_calls.calls if n in lib_calls.names()]
        pre = {"f": "s", "d": "d", "F": "c", "D": "z"}[np.dtype(dt).char]
        rank_k = pre + ("herk" if np.dtype(dt).kind == "c" else "syrk")
        names = [n for n, _ in calls]
        if blocked:     # 3 block columns (5, 5, 3) per matrix
            assert names == ["xpotrf", pre + "trsm", rank_k, "xpotrf", pre + "trsm", rank_k,
                             "xpotrf"] * 2
            # potrf order, trsm (m, n), syrk/herk (n, k)
            assert [calls[0][1][3], calls[1][1][5:7], calls[2][1][3:5], calls[6][1][3]] == \
                [5, (8, 5), (8, 5), 3]
        else:
            assert names == ["xpotrf", "xpotrf"]
    bad = a.copy()
    bad[1, 12, 12] = -100.0                 # fails only in the last diagonal block
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        gp.linalg.cholesky(gp.asarray(bad))


class NonConverging:
    """Wraps the cuSOLVER stand-in: the typed gesvdj calls report non-convergence
    (info = min(m, n) + 1) when ``on``.  The flag is written in host memory: simulator only."""

    def __init__(self, lib):
        self._lib = lib
        self.on = False

    def __getattr__(self, name):
        attr = getattr(self._lib, name)
        if not name.endswith("gesvdj"):
            return attr

        def gesvdj(h, jobz, econ, m, n, *rest):
            attr(h, jobz, econ, m, n, *rest)
            if self.on:
                from npgpu.linalg._sim import put_info
                put_info(rest[-2], min(m, n) + 1)
        return gesvdj


@pytest.mark.parametrize("dt", FLOATS)
def test_svd_call_path(lib_calls, dt, monkeypatch):
    from npgpu.linalg import _handles
    monkeypatch.setattr(decomp, "JACOBI_SVD", [True])       # the opt-in Jacobi path
    pre = {"f": "s", "d": "d", "F": "c", "D": "z"}[np.dtype(dt).char]
    fault = None
    if SIM:     # inject non-converged sweeps (gesvd must then recompute)
        fault = NonConverging(_handles.cusolver_module())
        monkeypatch.setattr(_handles, "cusolver_module", lambda: fault)
    for shape in [(6, 4), (4, 6), (2, 5, 5), (2, 3, 7)]:
        a = rand(shape, dt)
        for full in (True, False):
            for nonconv in (False, True) if SIM else (False,):
                if fault is not None:
                    fault.on = nonconv
                lib_calls.calls.clear()
                u, s, vh = (x.get() for x in gp.linalg.svd(gp.asarray(a), full_matrices=full))
                names = set(lib_calls.names())
                assert names == ({pre + "gesvdj", "xgesvd"} if nonconv else {pre + "gesvdj"})
                nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
                assert u.shape == nu.shape and vh.shape == nvh.shape and s.shape == ns.shape
                np.testing.assert_allclose(s, ns, **tol(dt))
                k = s.shape[-1]
                np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, **tol(dt))
                for q in (u, vh):
                    eye = np.conj(np.swapaxes(q, -1, -2)) @ q if q is u else q @ np.conj(np.swapaxes(q, -1, -2))
                    np.testing.assert_allclose(eye, np.broadcast_to(np.eye(eye.shape[-1]), eye.shape), **tol(dt))
        if fault is not None:
            fault.on = False
        np.testing.assert_allclose(gp.linalg.svdvals(gp.asarray(a)).get(), np.linalg.svd(a)[1], **tol(dt))


# ---- numerics against NumPy (cuSOLVER, or its stand-in) --------------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("batch", [(), (3,), (2, 2)])
def test_solve_inv(dt, batch):
    a = rand(batch + (5, 5), dt) + 5 * np.eye(5, dtype=dt)
    b = rand(batch + (5, 2), dt)
    A, B = gp.asarray(a), gp.asarray(b)
    np.testing.assert_allclose(gp.linalg.solve(A, B).get(), np.linalg.solve(a, b), **tol(dt))
    np.testing.assert_allclose(gp.linalg.solve(A, B[..., 0]).get() if not batch else
                               gp.linalg.solve(A, gp.asarray(b[..., 0])[..., :, None])[..., 0].get(),
                               np.linalg.solve(a, b[..., 0:1])[..., 0], **tol(dt))
    np.testing.assert_allclose(gp.linalg.inv(A).get(), np.linalg.inv(a), **tol(dt))
    np.testing.assert_allclose(gp.linalg.inv(A.swapaxes(-1, -2)).get(),
                               np.linalg.inv(np.swapaxes(a, -1, -2)), **tol(dt))


def test_solve_broadcast_and_vector():
    a = rand((4, 4)) + 4 * np.eye(4)
    b = rand((3, 4, 2))
    np.testing.assert_allclose(gp.linalg.solve(gp.asarray(a), gp.asarray(b)).get(), np.linalg.solve(a, b))
    v = rand(4)
    np.testing.assert_allclose(gp.linalg.solve(gp.asarray(a), gp.asarray(v)).get(), np.linalg.solve(a, v))
    ai = rng.integers(1, 9, size=(3, 3)) + 10 * np.eye(3, dtype=np.int64)
    r = gp.linalg.solve(gp.asarray(ai), gp.asarray(v[:3]))
    assert r.dtype == np.float64
    np.testing.assert_allclose(r.get(), np.linalg.solve(ai, v[:3]))


def test_singular_raises_and_check_switch():
    s = np.ones((3, 3))
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        gp.linalg.solve(gp.asarray(s), gp.ones(3))
    with pytest.raises(gp.linalg.LinAlgError):
        gp.linalg.inv(gp.asarray(s))
    prev = gp.linalg.set_error_check(False)
    try:
        gp.linalg.inv(gp.asarray(s))           # no raise, no sync
    finally:
        gp.linalg.set_error_check(prev)


@pytest.mark.parametrize("dt", FLOATS)
def test_det_slogdet(dt):
    a = rand((2, 3, 4, 4), dt)
    a[1, 2] = 0
    np.testing.assert_allclose(gp.linalg.det(gp.asarray(a)).get(), np.linalg.det(a), **tol(dt))
    s, l = gp.linalg.slogdet(gp.asarray(a))
    ws, wl = np.linalg.slogdet(a)
    np.testing.assert_allclose(s.get(), ws, **tol(dt))
    np.testing.assert_allclose(l.get(), wl, **tol(dt))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dt, upper):
    a = hpd((3, 5, 5), dt)
    got = gp.linalg.cholesky(gp.asarray(a), upper=upper).get()
    np.testing.assert_allclose(got, np.linalg.cholesky(a, upper=upper), **tol(dt))


def test_cholesky_not_pd():
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        gp.linalg.cholesky(gp.asarray(-np.eye(3)))


# the blocked Cholesky's sizes: past BLOCKED_MIN_N on the GPU; the simulator lowers the
# thresholds instead (every copy there is a simulated kernel)
BIG = 40 if SIM else 1100


@pytest.fixture
def big_blocks(monkeypatch):
    if SIM:
        monkeypatch.setattr(_solver_mod, "BLOCKED_MIN_N", 32)
        monkeypatch.setattr(_solver_mod, "BLOCK", 16)


@pytest.mark.parametrize("dt", FLOATS)
def test_cholesky_blocked(dt, big_blocks):
    # n >= BLOCKED_MIN_N (1024): block columns of 256, the last one 76 wide (simulator: 40, 16, 8)
    n = BIG
    assert n >= _solver_mod.BLOCKED_MIN_N
    a = hpd((n, n), dt)
    A = gp.asarray(a)
    lo = gp.linalg.cholesky(A).get()
    up = gp.linalg.cholesky(A, upper=True).get()
    want = np.linalg.cholesky(a)
    t = dict(rtol=2e-3, atol=2e-3 * np.sqrt(n)) if np.dtype(dt) in (np.float32, np.complex64) else \
        dict(rtol=1e-9, atol=1e-9 * np.sqrt(n))
    np.testing.assert_allclose(lo, want, **t)
    np.testing.assert_allclose(up, np.conj(want).T, **t)
    assert np.all(np.triu(lo, 1) == 0) and np.all(np.tril(up, -1) == 0)
    hi = np.complex128 if np.dtype(dt).kind == "c" else np.float64
    rec = lo.astype(hi) @ np.conj(lo.astype(hi)).T
    scale = np.abs(a).max()
    assert np.abs(rec - a).max() <= 10 * np.abs(want.astype(hi) @ np.conj(want.astype(hi)).T - a).max() + \
        50 * np.finfo(dt).eps * scale
    # batched large matrices take the blocked path per matrix
    b2 = np.stack([a, hpd((n, n), dt)])
    np.testing.assert_allclose(gp.linalg.cholesky(gp.asarray(b2)).get(), np.linalg.cholesky(b2), **t)


def test_cholesky_blocked_not_pd(big_blocks):
    n = BIG
    a = hpd((n, n), np.float64)
    bad = a.copy()
    bad[n - 1, n - 1] = -1e6             # fails in the last diagonal block only
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        gp.linalg.cholesky(gp.asarray(bad))
    bad2 = a.copy()
    bad2[BIG * 3 // 11, BIG * 3 // 11] = -1e6    # fails in the second block; later ones see garbage
    with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
        gp.linalg.cholesky(gp.asarray(bad2), upper=True)
    prev = gp.linalg.set_error_check(False)
    try:
        gp.linalg.cholesky(gp.asarray(bad))          # no raise, no sync
    finally:
        gp.linalg.set_error_check(prev)
    # a good matrix after a failed one: no stale state
    np.testing.assert_allclose(gp.linalg.cholesky(gp.asarray(a)).get(), np.linalg.cholesky(a),
                               rtol=1e-9, atol=1e-9 * np.sqrt(n))


def _svd_errors(a, u, s, vh):
    """Max reconstruction error and max orthogonality errors of U and V^H (in float64/complex128)."""
    hi = np.complex128 if a.dtype.kind == "c" else np.float64
    u, vh = u.astype(hi), vh.astype(hi)
    k = s.shape[-1]
    rec = np.abs((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :] - a).max()
    eu = np.conj(np.swapaxes(u, -1, -2)) @ u
    ev = vh @ np.conj(np.swapaxes(vh, -1, -2))
    ou = np.abs(eu - np.eye(eu.shape[-1])).max()
    ov = np.abs(ev - np.eye(ev.shape[-1])).max()
    return rec, ou, ov


def _scaled(shape):
    return tuple(max(2, d // 10) for d in shape) if SIM else shape


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("shape,rank", [((256, 256), None), ((300, 120), None), ((120, 300), None),
                                        ((200, 200), 40), ((3, 40, 24), None)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_accuracy(dt, shape, rank, full):
    shape = _scaled(shape)
    rank = rank and _scaled((rank,))[0]
    a = rand(shape, dt)
    if rank is not None:                 # rank-deficient: U, V must still be unitary
        a = (rand(shape[:-1] + (rank,), dt) @ rand((rank, shape[-1]), dt)).astype(dt)
    u, s, vh = gp.linalg.svd(gp.asarray(a), full_matrices=full)
    u, s, vh = u.get(), s.get(), vh.get()
    nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
    assert u.shape == nu.shape and s.shape == ns.shape and vh.shape == nvh.shape
    assert u.dtype == nu.dtype and s.dtype == ns.dtype and vh.dtype == nvh.dtype
    assert np.all(np.diff(s, axis=-1) <= 0)                       # descending
    eps = np.finfo(dt).eps
    smax = np.abs(ns).max()
    np.testing.assert_allclose(s, ns, rtol=0, atol=10 * max(shape[-2:]) * eps * smax)
    mine = _svd_errors(a, u, s, vh)
    ref = _svd_errors(a, nu, ns, nvh)
    floor = (smax, 1.0, 1.0)
    for got, want, f in zip(mine, ref, floor):
        assert got <= 10 * want + 10 * eps * f, (mine, ref)


def test_svd_1024_float32():
    n = 48 if SIM else 1024
    a = rand((n, n), np.float32)
    u, s, vh = (x.get() for x in gp.linalg.svd(gp.asarray(a)))
    nu, ns, nvh = np.linalg.svd(a)
    mine = _svd_errors(a, u, s, vh)
    ref = _svd_errors(a, nu, ns, nvh)
    eps = np.finfo(np.float32).eps
    for got, want, f in zip(mine, ref, (ns.max(), 1.0, 1.0)):
        assert got <= 10 * want + 10 * eps * f, (mine, ref)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(dt, uplo):
    a = hpd((2, 6, 6), dt)
    # garbage in the ignored triangle must not matter
    junk = a.copy()
    iu = np.triu_indices(6, 1) if uplo == "L" else np.tril_indices(6, -1)
    junk[:, iu[0], iu[1]] = 123.0
    w, v = gp.linalg.eigh(gp.asarray(junk), UPLO=uplo)
    w, v = w.get(), v.get()
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a), **tol(dt))
    np.testing.assert_allclose(a @ v, v * w[..., None, :], **tol(dt))
    np.testing.assert_allclose(np.conj(np.swapaxes(v, -1, -2)) @ v, np.broadcast_to(np.eye(6), a.shape), **tol(dt))
    np.testing.assert_allclose(gp.linalg.eigvalsh(gp.asarray(junk), UPLO=uplo).get(), w, **tol(dt))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 5), (2, 3, 7)])
@pytest.mark.parametrize("full", [True, False])
def test_svd(dt, shape, full):
    a = rand(shape, dt)
    u, s, vh = gp.linalg.svd(gp.asarray(a), full_matrices=full)
    u, s, vh = u.get(), s.get(), vh.get()
    nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
    assert u.shape == nu.shape and vh.shape == nvh.shape and s.shape == ns.shape
    np.testing.assert_allclose(s, ns, **tol(dt))
    k = s.shape[-1]
    np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, **tol(dt))
    eye_u = np.conj(np.swapaxes(u, -1, -2)) @ u
    np.testing.assert_allclose(eye_u, np.broadcast_to(np.eye(u.shape[-1]), eye_u.shape), **tol(dt))
    np.testing.assert_allclose(gp.linalg.svdvals(gp.asarray(a)).get(), ns, **tol(dt))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (2, 5, 5)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r", "raw"])
def test_qr(dt, shape, mode):
    a = rand(shape, dt)
    if mode == "raw" and len(shape) > 2:
        a = a[0]
    got = gp.linalg.qr(gp.asarray(a), mode=mode)
    want = np.linalg.qr(a, mode=mode)
    if mode == "r":
        np.testing.assert_allclose(np.abs(got.get()), np.abs(want), **tol(dt))
        return
    if mode == "raw":
        h, tau = got
        assert h.shape == want[0].shape and tau.shape == want[1].shape
        return
    q, r = got[0].get(), got[1].get()
    assert q.shape == want[0].shape and r.shape == want[1].shape
    np.testing.assert_allclose(q @ r, a, **tol(dt))
    np.testing.assert_allclose(np.triu(r), r)
    eye = np.conj(np.swapaxes(q, -1, -2)) @ q
    np.testing.assert_allclose(eye, np.broadcast_to(np.eye(q.shape[-1]), eye.shape), **tol(dt))


@pytest.mark.parametrize("dt", FLOATS)
def test_eig(dt):
    a = rand((2, 5, 5), dt)
    w, v = gp.linalg.eig(gp.asarray(a))
    w, v = w.get(), v.get()
    np.testing.assert_allclose(a.astype(v.dtype) @ v, v * w[..., None, :], **tol(dt))
    np.testing.assert_allclose(np.sort_complex(w.ravel()), np.sort_complex(np.linalg.eigvals(a).ravel()),
                               **tol(dt))
    sym = a + np.swapaxes(a, -1, -2)
    if np.dtype(dt).kind == "f":
        ws = gp.linalg.eigvals(gp.asarray(sym))
        assert ws.dtype == np.linalg.eigvals(sym).dtype     # real when all eigenvalues are real


def test_lstsq_pinv_rank_cond_norms():
    a = rand((6, 3))
    b = rand((6, 2))
    x, res, rank, s = gp.linalg.lstsq(gp.asarray(a), gp.asarray(b))
    nx, nres, nrank, ns = np.linalg.lstsq(a, b)
    np.testing.assert_allclose(x.get(), nx, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(res.get(), nres, rtol=1e-9)
    assert rank == nrank
    np.testing.assert_allclose(gp.linalg.pinv(gp.asarray(a)).get(), np.linalg.pinv(a), atol=1e-9)
    r = rand((5, 2)) @ rand((2, 5))
    assert int(gp.linalg.matrix_rank(gp.asarray(r)).get()) == np.linalg.matrix_rank(r)
    sq = rand((4, 4))
    for p in (None, 2, -2, 1, np.inf, "fro"):
        np.testing.assert_allclose(gp.linalg.cond(gp.asarray(sq), p).get(), np.linalg.cond(sq, p), rtol=1e-8)
    for o in (2, -2, "nuc"):
        np.testing.assert_allclose(gp.linalg.norm(gp.asarray(sq), o).get(), np.linalg.norm(sq, o), rtol=1e-9)


def test_tensorsolve_tensorinv_matrix_power_negative():
    a = rand((6, 2, 3)) + 0
    a = a.reshape(6, 6) + 6 * np.eye(6)
    a = a.reshape(6, 2, 3)
    b = rand(6)
    np.testing.assert_allclose(gp.linalg.tensorsolve(gp.asarray(a), gp.asarray(b)).get(),
                               np.linalg.tensorsolve(a, b), rtol=1e-9)
    t = (rand((4, 6)) + 0).reshape(4, 6)
    t = (rand((24, 24)) + 24 * np.eye(24)).reshape(4, 6, 8, 3)
    np.testing.assert_allclose(gp.linalg.tensorinv(gp.asarray(t), ind=2).get(),
                               np.linalg.tensorinv(t, ind=2), rtol=1e-9, atol=1e-12)
    m = rand((3, 3)) + 3 * np.eye(3)
    np.testing.assert_allclose(gp.linalg.matrix_power(gp.asarray(m), -2).get(),
                               np.linalg.matrix_power(m, -2), rtol=1e-9)


@pytest.mark.parametrize("shape", [(0, 2, 2), (0, 3, 2), (0, 2, 3), (3, 0, 2), (2, 2, 0), (0, 0, 0)])
def test_empty_stacks_and_matrices(shape):
    # an empty stack or empty matrices: NumPy's result shapes and dtypes, no library call
    rng = np.random.default_rng(5)
    a = rng.standard_normal(shape)
    cases = [("svd", {}), ("svd", {"full_matrices": False}), ("svdvals", {}), ("qr", {}),
             ("qr", {"mode": "complete"}), ("qr", {"mode": "r"}), ("qr", {"mode": "raw"}),
             ("matrix_rank", {}), ("pinv", {})]
    for name, kw in cases:
        got = getattr(gp.linalg, name)(gp.asarray(a), **kw)
        want = getattr(np.linalg, name)(a, **kw)
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        assert len(got) == len(want), name
        for g_, w in zip(got, want):
            w = np.asarray(w)
            assert (g_.shape, g_.dtype) == (w.shape, w.dtype), (name, kw)
            np.testing.assert_allclose(g_.get(), w, atol=1e-12)
