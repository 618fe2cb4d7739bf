"""npgpu.scipy.sparse.linalg against scipy.sparse.linalg: LinearOperator algebra, the Krylov
solvers (iterates, iteration counts, info, callbacks, x0, M), norm, spsolve,
spsolve_triangular, eigsh and svds, on dense npgpu arrays and npgpu sparse matrices."""

import zlib

import numpy as np
import pytest

import npgpu
import npgpu.scipy.sparse as gsp
from npgpu.scipy.sparse import linalg as gl

ss = pytest.importorskip("scipy.sparse")
sl = pytest.importorskip("scipy.sparse.linalg")

rng = np.random.default_rng(24)


@pytest.fixture(autouse=True)
def _seed(request):
    """Each test draws from its own seed: its data do not depend on which tests ran before it
    in the same worker (float32 cgs does not converge on every random system)."""
    global rng
    rng = np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))

# iterates agree to rounding: the same steps in the same precision
TOL = {np.float32: dict(rtol=2e-4, atol=2e-5), np.float64: dict(rtol=1e-9, atol=1e-11),
       np.complex64: dict(rtol=2e-4, atol=2e-5), np.complex128: dict(rtol=1e-9, atol=1e-11)}
REAL = [np.float32, np.float64]
ALL = REAL + [np.complex64, np.complex128]


def _rand(shape, dt):
    a = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dt)


def _hpd(n, dt):
    """Hermitian positive definite, condition number about 10."""
    B = _rand((n, n), dt)
    return (B @ B.conj().T / n + np.eye(n)).astype(dt)


def _nonsym(n, dt):
    return (4 * np.eye(n) + 0.4 * _rand((n, n), dt)).astype(dt)


def _system(kind, n, dt):
    A = _hpd(n, dt) if kind == "hpd" else _nonsym(n, dt)
    x = _rand(n, dt)
    return A, x, (A @ x).astype(dt)


def _host(x):
    return x.get() if hasattr(x, "get") else np.asarray(x)


# ---------------------------------------------------------------- LinearOperator

def test_custom_operator_products_and_dtype():
    A = _rand((5, 3), np.float64)
    Ad = npgpu.asarray(A)
    op = gl.LinearOperator((5, 3), matvec=lambda v: Ad @ v, rmatvec=lambda v: Ad.T @ v)
    assert op.dtype == np.float64 and op.shape == (5, 3)
    x = _rand(3, np.float64)
    X = _rand((3, 4), np.float64)
    y = _rand(5, np.float64)
    np.testing.assert_allclose(op.matvec(npgpu.asarray(x)).get(), A @ x)
    assert op.matvec(npgpu.asarray(x.reshape(3, 1))).shape == (5, 1)
    np.testing.assert_allclose(op.matmat(npgpu.asarray(X)).get(), A @ X)     # column by column
    np.testing.assert_allclose((op @ npgpu.asarray(X)).get(), A @ X)
    np.testing.assert_allclose(op.rmatvec(npgpu.asarray(y)).get(), A.T @ y)
    np.testing.assert_allclose(op.H.matvec(npgpu.asarray(y)).get(), A.T @ y)
    np.testing.assert_allclose(op.T.matvec(npgpu.asarray(y)).get(), A.T @ y)
    np.testing.assert_allclose(op(x).get(), A @ x)                     # host x: copied over
    assert repr(op) == "<5x3 _CustomLinearOperator with dtype=float64>"


def test_operator_algebra_matches_dense():
    A = _rand((4, 4), np.complex128)
    B = _rand((4, 4), np.complex128)
    a, b = gl.aslinearoperator(npgpu.asarray(A)), gl.aslinearoperator(npgpu.asarray(B))
    x = _rand(4, np.complex128)
    xd = npgpu.asarray(x)
    cases = [(a + b, A + B), (a - b, A - B), (a * b, A @ B), (a @ b, A @ B), (3 * a, 3 * A),
             (a * 2.5, 2.5 * A), (a / 2, A / 2), (-a, -A), (a ** 3, A @ A @ A), (a ** 0, np.eye(4)),
             (a.H, A.conj().T), (a.T, A.T), ((a @ b).H, (A @ B).conj().T),
             ((2j * a).H, (2j * A).conj().T), ((a + b).T, (A + B).T), (a.H.H, A)]
    for op, dense in cases:
        np.testing.assert_allclose(op.matvec(xd).get(), dense @ x, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(op.rmatvec(xd).get(), dense.conj().T @ x, rtol=1e-12,
                                   atol=1e-12)
    np.testing.assert_allclose((x @ a).get(), x @ A, rtol=1e-12)        # __rmatmul__ via .T
    np.testing.assert_allclose(a.__rmatmul__(xd).get(), x @ A, rtol=1e-12)
    assert (a * 2.5).dtype == np.complex128
    assert (gl.aslinearoperator(npgpu.asarray(A.real.astype(np.float32))) * 2.0).dtype == np.float64


def test_subclass_and_identity():
    class Diag(gl.LinearOperator):
        def __init__(self, d):
            super().__init__(d.dtype, (d.size, d.size))
            self.d = d

        def _matvec(self, x):
            return self.d * x.ravel()

        def _adjoint(self):
            return self

    d = _rand(6, np.float32)
    op = Diag(npgpu.asarray(d))
    X = _rand((6, 2), np.float32)
    np.testing.assert_allclose(op.matmat(npgpu.asarray(X)).get(), d[:, None] * X, rtol=1e-6)
    np.testing.assert_allclose(op.rmatvec(npgpu.asarray(X[:, 0])).get(), d * X[:, 0], rtol=1e-6)
    ident = gl.IdentityOperator((6, 6))
    np.testing.assert_array_equal(ident.matvec(npgpu.asarray(d)).get(), d)

    class Empty(gl.LinearOperator):
        pass
    with pytest.warns(RuntimeWarning, match="at least one of _matvec and _matmat"):
        Empty(np.float64, (2, 2))


def test_aslinearoperator_inputs():
    A = _rand((5, 4), np.float64)
    x = _rand(4, np.float64)
    for src in (npgpu.asarray(A), A, gsp.csr_matrix(npgpu.asarray(A)), ss.csr_matrix(A)):
        op = gl.aslinearoperator(src)
        assert op.shape == (5, 4) and op.dtype == np.float64
        np.testing.assert_allclose(op.matvec(npgpu.asarray(x)).get(), A @ x, rtol=1e-12)
        np.testing.assert_allclose(op.H.matvec(npgpu.asarray(A @ x)).get(), A.T @ (A @ x),
                                   rtol=1e-12)

    class HasMatvec:
        shape = (5, 4)
        dtype = np.dtype(np.float64)

        def matvec(self, v):
            return npgpu.asarray(A) @ v
    np.testing.assert_allclose(gl.aslinearoperator(HasMatvec()).matvec(x).get(), A @ x)
    op = gl.aslinearoperator(npgpu.asarray(A))
    assert gl.aslinearoperator(op) is op
    assert gl.aslinearoperator(npgpu.asarray(x)).shape == (1, 4)
    with pytest.raises(ValueError, match="array must have ndim <= 2"):
        gl.aslinearoperator(npgpu.zeros((2, 2, 2)))
    with pytest.raises(TypeError, match="type not understood"):
        gl.aslinearoperator("abc")


def test_operator_bad_input():
    op = gl.aslinearoperator(npgpu.asarray(_rand((3, 2), np.float64)))
    with pytest.raises(ValueError, match="dimension mismatch"):
        op.matvec(npgpu.zeros(3))
    with pytest.raises(ValueError, match="dimension mismatch"):
        op.rmatvec(npgpu.zeros(2))
    with pytest.raises(ValueError, match="expected 2-d ndarray or matrix, not 1-d"):
        op.matmat(npgpu.zeros(2))
    with pytest.raises(ValueError, match=r"dimension mismatch: \(3, 2\), \(3, 1\)"):
        op.matmat(npgpu.zeros((3, 1)) + 1)
    with pytest.raises(ValueError, match="Scalar operands are not allowed"):
        op @ 2
    with pytest.raises(ValueError, match="Can only divide a linear operator by a scalar"):
        op / op
    with pytest.raises(ValueError, match="shape mismatch"):
        op + op.H
    with pytest.raises(ValueError, match="square LinearOperator expected"):
        op ** 2
    with pytest.raises(ValueError, match="invalid shape"):
        gl.LinearOperator((2, 2, 2), matvec=lambda v: v)
    with pytest.raises(NotImplementedError):
        gl.LinearOperator((2, 2), matvec=lambda v: v).rmatvec(npgpu.zeros(2))


# ---------------------------------------------------------------- Krylov solvers

SOLVERS = {"cg": "hpd", "minres": "hpd", "cgs": "nonsym", "bicgstab": "nonsym",
           "gmres": "nonsym"}


def _run(lib, name, A, b, **kw):
    count = []
    if name == "gmres":
        kw.setdefault("callback_type", "x")
    x, info = getattr(lib, name)(A, b, callback=lambda xk: count.append(_host(xk).copy()), **kw)
    return _host(x), info, count


@pytest.mark.matrix
@pytest.mark.parametrize("name", list(SOLVERS))
@pytest.mark.parametrize("dt", ALL)
def test_solver_matches_scipy(name, dt):
    if name == "minres" and np.dtype(dt).kind == "c":
        pytest.skip("SciPy's minres uses the unconjugated inner product: real systems only")
    n = 24
    A, x_true, b = _system(SOLVERS[name], n, dt)
    rtol = 1e-6 if dt in (np.float64, np.complex128) else 1e-4
    xs, infos, its_s = _run(sl, name, A, b, rtol=rtol)
    x, info, its = _run(gl, name, npgpu.asarray(A), npgpu.asarray(b), rtol=rtol)
    assert info == infos == 0
    assert abs(len(its) - len(its_s)) <= 1
    # minres: SciPy 1.18 keeps float32 (1.17 returned float64); npgpu follows 1.18
    assert x.dtype == (xs.dtype if name != "minres" else np.result_type(A.dtype, b.dtype))
    # both stop once the residual is below rtol: their answers agree to about cond(A) (about
    # 10) times rtol, not to rounding (cgs in single precision drifts apart by ~1e-3 relative)
    assert np.linalg.norm(x - xs) <= 50 * rtol * np.linalg.norm(xs)
    assert np.linalg.norm(x - x_true) <= 50 * rtol * np.linalg.norm(x_true)
    for a, b_ in zip(its[:3], its_s[:3]):                 # the first iterates, step by step
        np.testing.assert_allclose(a, b_, **TOL[dt])


@pytest.mark.parametrize("name", list(SOLVERS))
def test_solver_maxiter_x0_preconditioner(name):
    dt = np.float64
    n = 20
    A, _, b = _system(SOLVERS[name], n, dt)
    x0 = _rand(n, dt)
    Minv = np.diag(1 / np.diag(A))                       # Jacobi
    kw = {"restart": 4} if name == "gmres" else {}
    # maxiter exhausted: info = maxiter, and x is SciPy's x after that many steps
    xs, infos, _ = _run(sl, name, A, b, rtol=1e-14, maxiter=3, x0=x0, M=Minv, **kw)
    x, info, its = _run(gl, name, npgpu.asarray(A), npgpu.asarray(b), rtol=1e-14, maxiter=3,
                        x0=npgpu.asarray(x0), M=npgpu.asarray(Minv), **kw)
    assert info == infos == 3
    np.testing.assert_allclose(x, xs, rtol=1e-10, atol=1e-12)
    # preconditioner as a LinearOperator, atol instead of rtol
    Md = npgpu.asarray(np.diag(Minv))
    M = gl.LinearOperator((n, n), matvec=lambda v: Md * v, dtype=dt)
    kw = {"rtol": 1e-9} if name == "minres" else {"rtol": 0, "atol": 1e-8}
    xs, infos, _ = _run(sl, name, A, b, M=Minv, **kw)
    x, info, _ = _run(gl, name, npgpu.asarray(A), npgpu.asarray(b), M=M, **kw)
    assert info == infos == 0
    np.testing.assert_allclose(x, xs, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("name", list(SOLVERS))
def test_solver_sparse_and_operator_input(name):
    n = 16
    A, x_true, b = _system(SOLVERS[name], n, np.float64)
    A[np.abs(A) < 0.3] = 0                              # sparsify; keep it solvable
    A = (A + A.T) / 2 + 2 * np.eye(n) if SOLVERS[name] == "hpd" else A
    if SOLVERS[name] == "hpd":
        A = A + (np.abs(np.linalg.eigvalsh(A)).max()) * np.eye(n)
    xs, _, _ = _run(sl, name, ss.csr_matrix(A), b)
    for src in (gsp.csr_matrix(npgpu.asarray(A)), gsp.csc_matrix(npgpu.asarray(A)),
                gl.aslinearoperator(npgpu.asarray(A))):
        x, info, _ = _run(gl, name, src, npgpu.asarray(b))
        assert info == 0
        np.testing.assert_allclose(x, xs, rtol=1e-8, atol=1e-10)


def test_gmres_restart_and_callback_types():
    n = 30
    A, _, b = _system("nonsym", n, np.float64)
    A += 2 * _rand((n, n), np.float64) / np.sqrt(n)       # needs restarts at restart=5
    for cb_type in ("pr_norm", "legacy", "x"):
        got, ref = [], []
        xs, infos = sl.gmres(A, b, restart=5, rtol=1e-8, callback=ref.append,
                             callback_type=cb_type)
        x, info = gl.gmres(npgpu.asarray(A), npgpu.asarray(b), restart=5, rtol=1e-8,
                           callback=got.append, callback_type=cb_type)
        assert info == infos
        assert abs(len(got) - len(ref)) <= 1
        if cb_type != "x":
            np.testing.assert_allclose(got[:5], ref[:5], rtol=1e-8)
        np.testing.assert_allclose(x.get(), xs, rtol=1e-7, atol=1e-9)
    with pytest.warns(DeprecationWarning, match="callback_type"):
        gl.gmres(npgpu.asarray(A), npgpu.asarray(b), callback=lambda r: None)
    with pytest.raises(ValueError, match="Unknown callback_type: 'y'"):
        gl.gmres(npgpu.asarray(A), npgpu.asarray(b), callback_type="y")


def test_solver_edge_cases_and_bad_input():
    A = npgpu.asarray(_hpd(6, np.float64))
    for f in (gl.cg, gl.cgs, gl.bicgstab, gl.gmres, gl.minres):
        x, info = f(A, npgpu.zeros(6))                   # b == 0: x = b, info 0
        assert info == 0 and not x.get().any()
        with pytest.raises(ValueError, match=r"shapes of A \(6, 6\) and b \(5,\) are incompatible"):
            f(A, npgpu.zeros(5))
        with pytest.raises(ValueError, match="expected square matrix"):
            f(npgpu.zeros((6, 5)), npgpu.zeros(6))
        with pytest.raises(ValueError, match="incompatible"):
            f(A, npgpu.ones(6), x0=npgpu.zeros(4))
        with pytest.raises(ValueError, match="different shapes"):
            f(A, npgpu.ones(6), M=npgpu.eye(5))
    with pytest.raises(ValueError, match="invalid `atol`"):
        gl.cg(A, npgpu.ones(6), atol=-1)
    # integer b is solved in float64, as SciPy does
    x, info = gl.cg(A, npgpu.arange(6))
    assert x.dtype == np.float64 and info == 0
    # x0='Mb'
    xs, _ = sl.cg(A.get(), np.arange(6.0), x0="Mb")
    np.testing.assert_allclose(gl.cg(A, npgpu.arange(6.0), x0="Mb")[0].get(), xs, rtol=1e-9)


def test_bicgstab_cgs_breakdown():
    # rtilde . A p == 0 at once: a skew-symmetric A with rtilde = r = b
    A = np.array([[0., 1.], [-1., 0.]])
    b = np.array([1., 0.])
    for name in ("bicgstab", "cgs"):
        assert getattr(gl, name)(npgpu.asarray(A), npgpu.asarray(b))[1] == \
            getattr(sl, name)(A, b)[1] == -11


# ---------------------------------------------------------------- norm

def _sparse_pair(m, n, dt, density=0.4):
    h = ss.random(m, n, density=density, format="csr", dtype=np.float64, random_state=rng)
    if np.dtype(dt).kind == "c":
        h = h + 1j * ss.random(m, n, density=density, format="csr", random_state=rng)
    h = h.astype(dt)
    return h, gsp.csr_matrix(h)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128])
def test_norm_matches_scipy(dt):
    h, g = _sparse_pair(7, 9, dt)
    tol = dict(rtol=2e-6) if dt in (np.float32, np.complex64) else dict(rtol=1e-12)
    for ord_, axis in [(None, None), ("fro", None), (1, None), (-1, None), (np.inf, None),
                       (-np.inf, None), ("fro", (0, 1)), (1, (1, 0)),
                       (None, 0), (None, 1), (1, 0), (np.inf, 1), (-np.inf, 0), (0, 1),
                       (3, 0), (2, -1)]:
        got = gl.norm(g, ord=ord_, axis=axis)
        ref = np.asarray(sl.norm(h, ord=ord_, axis=axis))
        if ref.ndim == 2 and got.ndim == 1:     # SciPy 1.18: a (1, n) np.matrix for p=3
            ref = ref.ravel()
        np.testing.assert_allclose(got.get(), ref, **tol, err_msg=f"{ord_} {axis}")
    np.testing.assert_allclose(gl.norm(g, ord=2).get(), sl.norm(h, ord=2), rtol=1e-4)
    # duplicates count once
    d = gsp.coo_matrix((npgpu.asarray(np.array([1.0, 2.0], dtype=dt)),
                        (npgpu.asarray([0, 0]), npgpu.asarray([1, 1]))), shape=(2, 2))
    np.testing.assert_allclose(gl.norm(d).get(), 3.0, rtol=1e-6)


def test_norm_bad_input():
    _, g = _sparse_pair(3, 3, np.float64)
    with pytest.raises(TypeError, match="input is not sparse"):
        gl.norm(npgpu.ones((2, 2)))
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        gl.norm(g, ord=3)
    with pytest.raises(ValueError, match="Invalid norm order for vectors"):
        gl.norm(g, ord="fro", axis=0)
    with pytest.raises(ValueError, match="Duplicate axes given"):
        gl.norm(g, axis=(0, 0))
    with pytest.raises(ValueError, match="Invalid axis"):
        gl.norm(g, axis=2)
    with pytest.raises(TypeError, match="'axis' must be None"):
        gl.norm(g, axis=1.5)
    with pytest.raises(NotImplementedError):
        gl.norm(g, ord=-2)


# ---------------------------------------------------------------- direct solvers

@pytest.mark.parametrize("dt", ALL)
def test_spsolve_matches_scipy(dt):
    n = 12
    A = _nonsym(n, dt)
    A[np.abs(A) < 0.3] = 0
    h = ss.csc_matrix(A)
    b = _rand(n, dt)
    B = _rand((n, 3), dt)
    tol = TOL[dt]
    for g in (gsp.csr_matrix(h), gsp.csc_matrix(h)):
        np.testing.assert_allclose(gl.spsolve(g, npgpu.asarray(b)).get(), sl.spsolve(h, b), **tol)
        x = gl.spsolve(g, npgpu.asarray(b[:, None]))
        assert x.shape == (n,)
        np.testing.assert_allclose(gl.spsolve(g, npgpu.asarray(B)).get(), sl.spsolve(h, B), **tol)


def test_spsolve_singular_and_bad_input():
    A = _nonsym(5, np.float64)
    A[2] = 0
    g = gsp.csr_matrix(npgpu.asarray(A))
    with pytest.warns(sl.MatrixRankWarning, match="Matrix is exactly singular"):
        x = gl.spsolve(g, npgpu.ones(5))
    assert np.isnan(x.get()).all()
    with pytest.raises(ValueError, match=r"matrix must be square \(has shape \(5, 4\)\)"):
        gl.spsolve(gsp.csr_matrix(npgpu.ones((5, 4))), npgpu.ones(5))
    with pytest.raises(ValueError, match=r"matrix - rhs dimension mismatch \(\(5, 5\) - 4\)"):
        gl.spsolve(g, npgpu.ones(4))
    with pytest.warns(gsp.SparseEfficiencyWarning, match="CSC or CSR"):
        gl.spsolve(npgpu.asarray(np.eye(3)), npgpu.ones(3))


@pytest.mark.parametrize("dt", ALL)
def test_spsolve_triangular(dt):
    n = 10
    A = _nonsym(n, dt)
    b = _rand(n, dt)
    B = _rand((n, 2), dt)
    for lower in (True, False):
        T = np.tril(A) if lower else np.triu(A)
        for unit in (False, True):
            for rhs in (b, B):
                ref = sl.spsolve_triangular(ss.csr_matrix(T), rhs, lower=lower,
                                            unit_diagonal=unit)
                got = gl.spsolve_triangular(gsp.csr_matrix(ss.csr_matrix(T)), npgpu.asarray(rhs),
                                            lower=lower, unit_diagonal=unit)
                assert got.shape == ref.shape and got.dtype == ref.dtype
                np.testing.assert_allclose(got.get(), ref, rtol=TOL[dt]["rtol"] * 10,
                                           atol=TOL[dt]["atol"] * 10)


def test_spsolve_triangular_bad_input():
    T = np.tril(_nonsym(4, np.float64))
    T[1, 1] = 0
    g = gsp.csr_matrix(ss.csr_matrix(T))
    with pytest.raises(np.linalg.LinAlgError, match="A is singular: zero entry on diagonal"):
        gl.spsolve_triangular(g, npgpu.ones(4))
    gl.spsolve_triangular(g, npgpu.ones(4), unit_diagonal=True)      # diagonal not read
    with pytest.raises(ValueError, match="A must be a square matrix"):
        gl.spsolve_triangular(gsp.csr_matrix(npgpu.ones((4, 3))), npgpu.ones(4))
    with pytest.raises(ValueError, match="b must have 1 or 2 dims"):
        gl.spsolve_triangular(g, npgpu.ones((4, 1, 1)), unit_diagonal=True)
    with pytest.raises(ValueError, match="The size of the dimensions of A must be equal"):
        gl.spsolve_triangular(g, npgpu.ones(3), unit_diagonal=True)


# ---------------------------------------------------------------- eigsh, svds

@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("which", ["LM", "SM", "LA", "SA"])
def test_eigsh(dt, which):
    n = 20
    B = _rand((n, n), dt)
    A = ((B + B.conj().T) / 2).astype(dt)
    w_all = np.linalg.eigvalsh(A.astype(np.complex128 if np.dtype(dt).kind == "c" else
                                        np.float64))
    key = {"LM": -np.abs(w_all), "SM": np.abs(w_all), "LA": -w_all, "SA": w_all}[which]
    ref = np.sort(w_all[np.argsort(key)[:3]])
    w, X = gl.eigsh(npgpu.asarray(A), k=3, which=which, ncv=16)
    tol = 2e-4 if dt == np.float32 else 1e-10
    np.testing.assert_allclose(w.get(), ref, rtol=tol, atol=tol)
    np.testing.assert_allclose(np.sort(sl.eigsh(A, k=3, which=which, ncv=16,
                                                return_eigenvectors=False)), w.get(),
                               rtol=tol, atol=tol)
    Xh = X.get()
    np.testing.assert_allclose(A @ Xh, Xh * w.get(), atol=tol * 10 * np.abs(w_all).max())
    np.testing.assert_allclose(Xh.conj().T @ Xh, np.eye(3), atol=tol * 10)


def test_eigsh_sparse_operator_and_bad_input():
    n = 16
    h = ss.random(n, n, density=0.3, random_state=rng, format="csr")
    h = h + h.T
    ref = np.sort(sl.eigsh(h, k=2, which="LA", return_eigenvectors=False))
    g = gsp.csr_matrix(h)
    np.testing.assert_allclose(gl.eigsh(g, k=2, which="LA", return_eigenvectors=False).get(),
                               ref, rtol=1e-10)
    np.testing.assert_allclose(gl.eigsh(gl.aslinearoperator(g), k=2, which="LA")[0].get(), ref,
                               rtol=1e-10)
    with pytest.raises(ValueError, match="k must be greater than 0"):
        gl.eigsh(g, k=0)
    with pytest.raises(ValueError, match="k must be less than ndim"):
        gl.eigsh(g, k=n)
    with pytest.raises(ValueError, match="which must be one of"):
        gl.eigsh(g, k=2, which="XX")
    with pytest.raises(ValueError, match="ncv must be k<ncv<=n"):
        gl.eigsh(g, k=2, ncv=2)
    with pytest.raises(ValueError, match="expected square matrix"):
        gl.eigsh(npgpu.ones((3, 4)), k=1)
    with pytest.raises(NotImplementedError):
        gl.eigsh(g, k=2, sigma=1.0)
    with pytest.raises(gl.ArpackNoConvergence, match="No convergence"):
        gl.eigsh(g, k=2, which="SM", ncv=5, maxiter=1)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", [(18, 12), (12, 18)])
@pytest.mark.parametrize("which", ["LM", "SM"])
def test_svds(dt, shape, which):
    A = _rand(shape, dt)
    s_all = np.linalg.svd(A, compute_uv=False)
    ref = np.sort(s_all[:3] if which == "LM" else s_all[-3:])
    u, s, vh = gl.svds(npgpu.asarray(A), k=3, which=which, ncv=10)
    tol = 2e-4 if dt == np.float32 else 1e-9
    np.testing.assert_allclose(s.get(), ref, rtol=tol)
    np.testing.assert_allclose(A @ vh.get().conj().T, u.get() * s.get(), atol=tol * 10 * s_all[0])
    np.testing.assert_allclose(np.sort(sl.svds(A, k=3, which=which, ncv=10,
                                               return_singular_vectors=False)), s.get(), rtol=tol)


def test_svds_options_and_bad_input():
    A = _rand((10, 8), np.float64)
    s_all = np.linalg.svd(A, compute_uv=False)
    s = gl.svds(npgpu.asarray(A), k=2, return_singular_vectors=False)
    np.testing.assert_allclose(s.get(), s_all[1::-1], rtol=1e-9)
    u, s, vh = gl.svds(gsp.csr_matrix(npgpu.asarray(A)), k=2, return_singular_vectors="u")
    assert vh is None and u.shape == (10, 2)
    u, s, vh = gl.svds(npgpu.asarray(A), k=2, return_singular_vectors="vh")
    assert u is None and vh.shape == (2, 8)
    with pytest.raises(ValueError, match="`k` must be an integer"):
        gl.svds(npgpu.asarray(A), k=8)
    with pytest.raises(ValueError, match="`which` must be in"):
        gl.svds(npgpu.asarray(A), k=2, which="LA")
    with pytest.raises(ValueError, match="`ncv` must be an integer"):
        gl.svds(npgpu.asarray(A), k=2, ncv=9)
    with pytest.raises(ValueError, match="`return_singular_vectors` must be in"):
        gl.svds(npgpu.asarray(A), k=2, return_singular_vectors="x")
    with pytest.raises(ValueError, match="solver must be one of"):
        gl.svds(npgpu.asarray(A), k=2, solver="xx")
