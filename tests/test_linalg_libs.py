"""The cuBLAS / cuSOLVER entry points npgpu calls, called directly on device memory.

One test body for both backends: on the GPU these are nvmath's bindings, on the simulator
the host stand-ins of ``npgpu.linalg._sim`` (what ``_handles.cublas_module()`` /
``cusolver_module()`` return) -- so the GPU suite checks that the stand-ins keep the
libraries' contract: column-major layout with padded leading dimensions (padding NaN, never
read), host alpha/beta, strided batches, LAPACK's ``info`` values and pivots, and the
library's own error for invalid arguments.

``Recorder`` (used by the other linalg tests) wraps either module and records its calls."""
import numpy as np
import pytest

import npgpu as gp
from npgpu.linalg import _handles as H
from npgpu.linalg import _solver

rng = np.random.default_rng(2024)
FLOATS = [np.dtype(c) for c in "fdFD"]
PRE = {"f": "s", "d": "d", "F": "c", "D": "z"}


class Recorder:
    """Delegates to a library module (nvmath's or the stand-in), recording (name, args)."""

    def __init__(self, lib):
        self._lib = lib
        self.calls = []

    def __getattr__(self, name):
        attr = getattr(self._lib, name)
        if not callable(attr) or isinstance(attr, type):
            return attr

        def recorded(*args):
            self.calls.append((name, args))
            return attr(*args)
        return recorded

    def names(self):
        """The computing calls' names (no handle/parameter set-up, no workspace queries)."""
        setup = ("create", "destroy", "set_", "xgesvdj_set_")
        return [n for n, _ in self.calls
                if not n.startswith(setup) and not n.endswith("_buffer_size")]


def record_libs(monkeypatch):
    """Route npgpu's calls of both libraries through Recorders sharing one call list (in call
    order); returns the cuBLAS one.  Cached GEMM plans, which hold the functions bound when
    made, are forgotten first (and by the ``lib_calls`` fixture after)."""
    from npgpu.linalg import products
    rb, rs = Recorder(H.cublas_module()), Recorder(H.cusolver_module())
    rs.calls = rb.calls
    products.clear_plans()
    monkeypatch.setattr(H, "cublas_module", lambda: rb)
    monkeypatch.setattr(H, "cusolver_module", lambda: rs)
    monkeypatch.setattr(_solver, "_gesvdj_params", {})
    return rb


@pytest.fixture
def lib_calls(monkeypatch):
    from npgpu.linalg import products
    yield record_libs(monkeypatch)
    products.clear_plans()


def rand(shape, dt):
    dt = np.dtype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def tol(dt):
    return dict(rtol=2e-4, atol=2e-4) if np.dtype(dt).char in "fFe" else dict(rtol=1e-10, atol=1e-10)


def to_dev(a, ld=None):
    """A column-major device copy of the host matrix (or stack, batch first) ``a``, leading
    dimension ``ld`` (default rows + 2, the padding NaN): returns the device array whose
    storage is it."""
    a = np.asarray(a)
    rows, cols = a.shape[-2:]
    ld = rows + 2 if ld is None else ld
    h = np.full(a.shape[:-2] + (cols, ld), np.nan, a.dtype)
    h[..., :rows] = np.swapaxes(a, -1, -2)
    return gp.asarray(h)


def from_dev(d, rows):
    return np.swapaxes(d.get()[..., :rows], -1, -2)


def ld_of(d):
    return d.shape[-1]


def scalar(v, dt):
    return H.host_scalar(v, dt)


def info_of(info):
    return info.get().tolist()


# ---- cuBLAS ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("ta,tb", [(0, 0), (1, 0), (0, 2), (2, 1)])
def test_gemm_ops_alpha_beta_padding(dt, ta, tb):
    cb = H.cublas_module()
    m, n, k = 5, 4, 3
    opm = lambda x, t: x if t == 0 else (x.T if t == 1 else np.conj(x).T)
    a = rand((m, k) if ta == 0 else (k, m), dt)
    b = rand((k, n) if tb == 0 else (n, k), dt)
    c = rand((m, n), dt)
    A, B, C = to_dev(a), to_dev(b), to_dev(c)
    getattr(cb, PRE[dt.char] + "gemm")(H.cublas_handle(), ta, tb, m, n, k, scalar(2, dt), A._ptr,
                                       ld_of(A), B._ptr, ld_of(B), scalar(0.5, dt), C._ptr, ld_of(C))
    np.testing.assert_allclose(from_dev(C, m), 2 * opm(a, ta) @ opm(b, tb) + 0.5 * c, **tol(dt))
    assert np.isnan(C.get()[:, m:]).all()                  # padding untouched


@pytest.mark.parametrize("dt", FLOATS + [np.dtype(np.float16)])
def test_gemm_strided_batched_broadcast_and_beta_zero(dt):
    cb = H.cublas_module()
    m, n, k, nb = 3, 4, 5, 3
    a = rand((nb, m, k), dt)
    b = rand((k, n), dt)                                   # stride 0: one B for every product
    A, B = to_dev(a, m), to_dev(b, k)
    C = to_dev(np.full((nb, m, n), np.nan, dt), m)         # beta 0: C is never read
    h = H.cublas_handle()
    if dt == np.float16:
        t = H.cuda_data_type(dt)
        one, zero = scalar(1, np.float32), scalar(0, np.float32)
        cb.gemm_strided_batched_ex(h, 0, 0, m, n, k, one, A._ptr, t, m, m * k, B._ptr, t, k, 0, zero,
                                   C._ptr, t, m, m * n, nb, int(cb.ComputeType.COMPUTE_32F),
                                   int(cb.GemmAlgo.DFALT))
        want = (a.astype(np.float32) @ b.astype(np.float32)).astype(dt)
        np.testing.assert_allclose(from_dev(C, m), want, rtol=2e-2, atol=5e-2)
        return
    getattr(cb, PRE[dt.char] + "gemm_strided_batched")(h, 0, 0, m, n, k, scalar(1, dt), A._ptr, m,
                                                       m * k, B._ptr, k, 0, scalar(0, dt), C._ptr, m,
                                                       m * n, nb)
    np.testing.assert_allclose(from_dev(C, m), a @ b, **tol(dt))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("side,uplo,trans,diag", [(1, 0, 1, 0), (0, 0, 0, 0), (0, 1, 2, 1),
                                                  (1, 1, 0, 1)])
def test_trsm(dt, side, uplo, trans, diag):
    cb = H.cublas_module()
    m, n = 4, 3
    na = m if side == 0 else n
    t = rand((na, na), dt) + 4 * np.eye(na, dtype=dt)
    tri = np.tril(t) if uplo == 0 else np.triu(t)          # the other triangle is garbage
    if diag == 1:
        np.fill_diagonal(tri, 1)
    op = tri if trans == 0 else (tri.T if trans == 1 else np.conj(tri).T)
    b = rand((m, n), dt)
    T, B = to_dev(t), to_dev(b)
    getattr(cb, PRE[dt.char] + "trsm")(H.cublas_handle(), side, uplo, trans, diag, m, n,
                                       scalar(2, dt), T._ptr, ld_of(T), B._ptr, ld_of(B))
    x = from_dev(B, m)
    np.testing.assert_allclose(op @ x if side == 0 else x @ op, 2 * b, **tol(dt))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("uplo,trans", [(0, 0), (1, 1)])
def test_syrk_herk_write_one_triangle(dt, uplo, trans):
    cb = H.cublas_module()
    n, k = 4, 3
    herm = dt.kind == "c"
    if herm and trans == 1:
        trans = 2
    a = rand((n, k) if trans == 0 else (k, n), dt)
    c = rand((n, n), dt)
    A, C = to_dev(a), to_dev(c)
    real = np.dtype(dt.char.lower())
    sdt = real if herm else dt
    getattr(cb, PRE[dt.char] + ("herk" if herm else "syrk"))(
        H.cublas_handle(), uplo, trans, n, k, scalar(-1, sdt), A._ptr, ld_of(A), scalar(2, sdt),
        C._ptr, ld_of(C))
    x = a if trans == 0 else (np.conj(a).T if herm else a.T)
    want = -(x @ (np.conj(x).T if herm else x.T)) + 2 * c
    got = from_dev(C, n)
    idx = np.tril_indices(n) if uplo == 0 else np.triu_indices(n, 0)
    other = np.triu_indices(n, 1) if uplo == 0 else np.tril_indices(n, -1)
    if herm:
        want[np.diag_indices(n)] = want[np.diag_indices(n)].real
    np.testing.assert_allclose(got[idx], want[idx], **tol(dt))
    np.testing.assert_array_equal(got[other], c[other])


def test_cublas_invalid_leading_dimension():
    cb = H.cublas_module()
    A = gp.zeros((4, 4), np.float64)
    with pytest.raises(cb.cuBLASError):
        cb.dgemm(H.cublas_handle(), 0, 0, 4, 4, 4, scalar(1, np.float64), A._ptr, 3, A._ptr, 4,
                 scalar(0, np.float64), A._ptr, 4)


# ---- cuSOLVER ----------------------------------------------------------------------------------
def _ws(sizes):
    return _solver._workspace(sizes[0]), _solver._host_buffer(sizes[1]), sizes


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("uplo", [0, 1])
def test_potrf_info_is_order_of_failing_minor(dt, uplo):
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    n = 5
    g = rand((n, n), dt)
    a = g @ np.conj(g).T + n * np.eye(n, dtype=dt)
    t = H.cuda_data_type(dt)
    for bad, want in ((None, 0), (2, 3)):
        x = a.copy()
        if bad is not None:
            x[bad, bad] = -50                      # the leading minor of order bad+1 fails
        nine = np.full((n, n), 9, dt)            # the triangle not named: never read
        X = to_dev(np.tril(x) + np.triu(nine, 1) if uplo == 0 else np.triu(x) + np.tril(nine, -1))
        info = _solver._info(1)
        work, hw, (dsz, hsz) = _ws(cs.xpotrf_buffer_size(h, params, uplo, n, t, X._ptr, ld_of(X), t))
        cs.xpotrf(h, params, uplo, n, t, X._ptr, ld_of(X), t, work.ptr, dsz, hw, hsz, info._ptr)
        assert info_of(info) == [want]
        if bad is None:
            got = from_dev(X, n)
            if uplo == 0:
                np.testing.assert_allclose(np.tril(got), np.linalg.cholesky(a), **tol(dt))
                np.testing.assert_array_equal(np.triu(got, 1), np.triu(nine, 1))
            else:
                np.testing.assert_allclose(np.triu(got), np.linalg.cholesky(a, upper=True), **tol(dt))


@pytest.mark.parametrize("dt", FLOATS)
def test_getrf_pivots_info_and_getrs(dt):
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    n = 4
    t = H.cuda_data_type(dt)
    a = rand((n, n), dt) + 0
    X = to_dev(a)
    ipiv = gp.empty((n,), np.int64)
    info = _solver._info(1)
    work, hw, (dsz, hsz) = _ws(cs.xgetrf_buffer_size(h, params, n, n, t, X._ptr, ld_of(X), t))
    cs.xgetrf(h, params, n, n, t, X._ptr, ld_of(X), ipiv._ptr, t, work.ptr, dsz, hw, hsz, info._ptr)
    assert info_of(info) == [0]
    lu = from_dev(X, n)
    piv = ipiv.get()
    assert piv.min() >= 1 and piv.max() <= n                       # 1-based, as LAPACK's
    p = np.arange(n)
    for j, q in enumerate(piv - 1):
        p[[j, q]] = p[[q, j]]
    l, u = np.tril(lu, -1) + np.eye(n), np.triu(lu)
    np.testing.assert_allclose(l @ u, a[p], **tol(dt))
    b = rand((n, 2), dt)
    for trans, op in ((0, a), (1, a.T), (2, np.conj(a).T)):
        B = to_dev(b)
        cs.xgetrs(h, params, trans, n, 2, t, X._ptr, ld_of(X), ipiv._ptr, t, B._ptr, ld_of(B),
                  info._ptr)
        assert info_of(info) == [0]
        np.testing.assert_allclose(op @ from_dev(B, n), b, **tol(dt))
    s = a.copy()
    s[:, 1] = 0                                   # U[1, 1] is exactly zero: info 2 (1-based)
    X = to_dev(s)
    cs.xgetrf(h, params, n, n, t, X._ptr, ld_of(X), ipiv._ptr, t, work.ptr, dsz, hw, hsz, info._ptr)
    assert info_of(info) == [2]


@pytest.mark.parametrize("dt", FLOATS)
def test_geqrf_orgqr(dt):
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    m, n = 6, 4
    t = H.cuda_data_type(dt)
    a = rand((m, n), dt)
    X = to_dev(a)
    tau = gp.empty((n,), dt)
    info = _solver._info(1)
    work, hw, (dsz, hsz) = _ws(cs.xgeqrf_buffer_size(h, params, m, n, t, X._ptr, ld_of(X), t,
                                                     tau._ptr, t))
    cs.xgeqrf(h, params, m, n, t, X._ptr, ld_of(X), t, tau._ptr, t, work.ptr, dsz, hw, hsz, info._ptr)
    assert info_of(info) == [0]
    r = np.triu(from_dev(X, m)[:n])
    name = PRE[dt.char] + ("ungqr" if dt.kind == "c" else "orgqr")
    lwork = getattr(cs, name + "_buffer_size")(h, m, n, n, X._ptr, ld_of(X), tau._ptr)
    w2 = _solver._workspace(lwork * dt.itemsize)
    getattr(cs, name)(h, m, n, n, X._ptr, ld_of(X), tau._ptr, w2.ptr, lwork, info._ptr)
    assert info_of(info) == [0]
    q = from_dev(X, m)
    np.testing.assert_allclose(q @ r, a, **tol(dt))
    np.testing.assert_allclose(np.conj(q).T @ q, np.eye(n), **tol(dt))
    np.testing.assert_allclose(np.abs(r), np.abs(np.linalg.qr(a)[1]), **tol(dt))


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("uplo", [0, 1])
def test_syevd_reads_one_triangle(dt, uplo):
    from nvmath.bindings.cusolver import EigMode
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    n = 5
    g = rand((n, n), dt)
    a = g + np.conj(g).T
    junk = np.tril(a) + np.triu(np.full((n, n), 7, dt), 1) if uplo == 0 else \
        np.triu(a) + np.tril(np.full((n, n), 7, dt), -1)
    X = to_dev(junk)
    real = np.dtype(dt.char.lower())
    w = gp.empty((n,), real)
    t, tw = H.cuda_data_type(dt), H.cuda_data_type(real)
    info = _solver._info(1)
    jobz = int(EigMode.VECTOR)
    work, hw, (dsz, hsz) = _ws(cs.xsyevd_buffer_size(h, params, jobz, uplo, n, t, X._ptr, ld_of(X),
                                                     tw, w._ptr, t))
    cs.xsyevd(h, params, jobz, uplo, n, t, X._ptr, ld_of(X), tw, w._ptr, t, work.ptr, dsz, hw, hsz,
              info._ptr)
    assert info_of(info) == [0]
    ww, v = w.get(), from_dev(X, n)
    np.testing.assert_allclose(ww, np.linalg.eigvalsh(a), **tol(dt))
    np.testing.assert_allclose(a @ v, v * ww, **tol(dt))


@pytest.mark.parametrize("dt", FLOATS)
def test_geev_pairs_and_gesvd(dt):
    from nvmath.bindings.cusolver import EigMode
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    n = 4
    t = H.cuda_data_type(dt)
    cdt = np.dtype(np.complex64 if dt.char in "fF" else np.complex128)
    a = rand((n, n), dt)
    X, VR = to_dev(a), to_dev(np.zeros((n, n), dt))
    w = gp.empty((n,), cdt)
    info = _solver._info(1)
    nov, vec = int(EigMode.NOVECTOR), int(EigMode.VECTOR)
    tw = H.cuda_data_type(cdt)
    work, hw, (dsz, hsz) = _ws(cs.xgeev_buffer_size(h, params, nov, vec, n, t, X._ptr, ld_of(X), tw,
                                                    w._ptr, t, 0, n, t, VR._ptr, ld_of(VR), t))
    cs.xgeev(h, params, nov, vec, n, t, X._ptr, ld_of(X), tw, w._ptr, t, 0, n, t, VR._ptr, ld_of(VR),
             t, work.ptr, dsz, hw, hsz, info._ptr)
    assert info_of(info) == [0]
    ww, vr = w.get(), from_dev(VR, n)
    if dt.kind == "f":                 # LAPACK's real encoding: (re, im) columns per pair
        v = vr.astype(cdt)
        for j in range(n):
            if ww[j].imag > 0:
                v[:, j] = vr[:, j] + 1j * vr[:, j + 1]
            elif ww[j].imag < 0:
                v[:, j] = vr[:, j - 1] - 1j * vr[:, j]
    else:
        v = vr
    np.testing.assert_allclose(a @ v, v * ww, **tol(dt))
    # gesvd of a tall matrix with padded U, V^H
    m = 6
    b = rand((m, n), dt)
    X, U, VT = to_dev(b), to_dev(np.zeros((m, m), dt)), to_dev(np.zeros((n, n), dt))
    real = np.dtype(dt.char.lower())
    s = gp.empty((n,), real)
    ts = H.cuda_data_type(real)
    A_ = ord("A")
    work, hw, (dsz, hsz) = _ws(cs.xgesvd_buffer_size(h, params, A_, A_, m, n, t, X._ptr, ld_of(X), ts,
                                                     s._ptr, t, U._ptr, ld_of(U), t, VT._ptr,
                                                     ld_of(VT), t))
    cs.xgesvd(h, params, A_, A_, m, n, t, X._ptr, ld_of(X), ts, s._ptr, t, U._ptr, ld_of(U), t,
              VT._ptr, ld_of(VT), t, work.ptr, dsz, hw, hsz, info._ptr)
    assert info_of(info) == [0]
    u, ss, vt = from_dev(U, m), s.get(), from_dev(VT, n)
    np.testing.assert_allclose(ss, np.linalg.svd(b, compute_uv=False), **tol(dt))
    np.testing.assert_allclose((u[:, :n] * ss) @ vt, b, **tol(dt))


def test_cusolver_invalid_leading_dimension():
    from nvmath.bindings.cusolver import cuSOLVERError
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    t = H.cuda_data_type(np.dtype(np.float64))
    X = gp.zeros((4, 4), np.float64)
    info = _solver._info(1)
    work = _solver._workspace(1 << 16)
    hw = _solver._host_buffer(1 << 16)
    with pytest.raises(cuSOLVERError):
        cs.xpotrf(h, params, 0, 4, t, X._ptr, 3, t, work.ptr, 1 << 16, hw, 1 << 16, info._ptr)
