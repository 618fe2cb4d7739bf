"""A few extreme eigenpairs of a Hermitian operator (``eigsh``) and singular triplets
(``svds``) by thick-restart Lanczos with full reorthogonalisation.

The Krylov basis (``ncv`` + 1 rows of n) lives on the device.  Each step is one product with
A and two classical Gram-Schmidt passes against the whole basis (two matrix-vector products
each): the projected matrix's new column and the new norm come to the host in one read.  At a
restart the small projected matrix is diagonalised by ``npgpu.linalg.eigh`` (cuSOLVER syevd);
the wanted Ritz vectors, formed by one product with the basis, are kept with the residual
direction (Wu and Simon's thick restart, the symmetric Krylov-Schur method).  A Ritz pair has
converged when ``|beta_m s_m| <= tol |theta|`` (``tol`` 0: machine epsilon), ARPACK's test,
or when that estimate reaches the rounding level ``16 eps max|theta|``.
"""
import numpy
from scipy.sparse.linalg import ArpackNoConvergence

from . import _xp as xp

from . import _vector_ops as vo
from ._interface import LinearOperator, aslinearoperator

__all__ = ["eigsh", "svds", "ArpackNoConvergence"]

_WHICH = ("LM", "SM", "LA", "SA")


def _order(theta, which):
    """Indices of theta, most wanted first."""
    key = {"LM": -numpy.abs(theta), "SM": numpy.abs(theta), "LA": -theta, "SA": theta}[which]
    return numpy.argsort(key, kind="stable")


def _start_vector(n, dt, seed):
    g = xp.default_rng(seed)
    v = g.uniform(-1.0, 1.0, n)
    if dt.kind == "c":
        v = v + 1j * g.uniform(-1.0, 1.0, n)
    return v.astype(dt)


def _orthogonalise(V, w, j):
    """w minus its components along V[:j], twice (classical Gram-Schmidt, repeated for
    orthogonality to working precision); returns (w, the coefficients as a device vector)."""
    B = V[:j]
    Bh = B.conj() if B.dtype.kind == "c" else B
    h = Bh @ w
    w = w - h @ B
    h2 = Bh @ w
    return w - h2 @ B, h + h2


def _lanczos(A, k, which, v0, ncv, maxiter, tol, seed):
    """(theta (k,), Ritz vectors (n, k) on the device) of the k most wanted eigenpairs."""
    n = A.shape[0]
    dt = numpy.dtype(A.dtype)
    rdt = numpy.dtype(dt.char.lower())
    eps = numpy.finfo(rdt).eps
    tol = eps if tol == 0 else tol
    m = ncv
    V = xp.zeros((m + 1, n), dtype=dt)
    v = _start_vector(n, dt, seed) if v0 is None else xp.asarray(v0).astype(dt)
    V[0] = v / numpy.sqrt(vo.read(vo.nrm2_sq(v))[0])
    T = numpy.zeros((m, m), dtype=dt)
    start = 0
    beta = 0.0
    for restart in range(maxiter):
        for j in range(start, m):
            w, h = _orthogonalise(V, A.matvec(V[j]), j + 1)
            host = xp.concat([h, vo.nrm2_sq(w).astype(dt).reshape(1)]).get()   # one read
            T[:j + 1, j] = host[:j + 1]
            T[j, :j + 1] = host[:j + 1].conj()
            beta = numpy.sqrt(host[j + 1].real)
            scale = max(numpy.abs(T[:j + 1, :j + 1]).max(), eps)
            if beta <= eps * scale * numpy.sqrt(n):
                # an invariant subspace: continue from a random vector orthogonal to it
                beta = 0.0
                if j + 1 >= n:
                    m = j + 1
                    break
                r, _ = _orthogonalise(V, _start_vector(n, dt, seed + 1 + j), j + 1)
                V[j + 1] = r / numpy.sqrt(vo.read(vo.nrm2_sq(r))[0])
            else:
                V[j + 1] = w / beta
        Ts = (T[:m, :m] + T[:m, :m].conj().T) / 2
        theta_d, S_d = xp.linalg.eigh(xp.asarray(Ts))
        theta = theta_d.get()
        last = S_d[m - 1].get()
        order = _order(theta, which)
        want = order[:k]
        resid = numpy.abs(beta * last[want])
        # ARPACK's test, floored at the rounding level of the reorthogonalised basis (a few
        # eps ||A||), which small wanted eigenvalues ('SM') could not otherwise pass
        bound = numpy.maximum(tol * numpy.abs(theta[want]), 16 * eps * numpy.abs(theta).max())
        done = bool(numpy.all(resid <= bound))
        if done or restart == maxiter - 1 or m < ncv:
            X = S_d[:, xp.asarray(want)].T @ V[:m]          # (k, n) Ritz vectors
            if not done and m == ncv:
                conv = int(numpy.sum(resid <= bound))
                raise ArpackNoConvergence(
                    f"No convergence ({maxiter} iterations, {conv}/{k} "
                    "eigenvectors converged)", theta[want], X.T)
            return theta[want], X.T
        keep = min(m - 1, k + (m - k) // 2)
        sel = order[:keep]
        newV = S_d[:, xp.asarray(sel)].T @ V[:m]
        V[:keep] = newV
        V[keep] = V[m]
        T[:] = 0
        T[numpy.arange(keep), numpy.arange(keep)] = theta[sel]
        start = keep
    raise AssertionError("unreachable")


def eigsh(A, k=6, M=None, sigma=None, which="LM", v0=None, ncv=None, maxiter=None, tol=0,
          return_eigenvectors=True, Minv=None, OPinv=None, mode="normal", rng=None):
    """k eigenvalues (ascending) and eigenvectors of a real symmetric or complex Hermitian
    ``A`` ('LM', 'SM', 'LA', 'SA').  The generalised and shift-invert modes (``M``,
    ``sigma``, ``Minv``, ``OPinv``) and ``which='BE'`` are not implemented."""
    if M is not None or sigma is not None or Minv is not None or OPinv is not None:
        raise NotImplementedError("npgpu's eigsh solves the standard problem only "
                                  "(M, sigma, Minv, OPinv are not supported)")
    if mode != "normal":
        raise NotImplementedError(f"mode={mode!r} is not supported")
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix (shape={A.shape})")
    n = A.shape[0]
    if k <= 0:
        raise ValueError("k must be greater than 0.")
    if k >= n:
        raise ValueError(f"k must be less than ndim(A), k={k}")
    if which == "BE":
        raise NotImplementedError("which='BE' is not supported")
    if which not in _WHICH:
        raise ValueError(f"which must be one of {' '.join(_WHICH + ('BE',))}")
    if numpy.dtype(A.dtype).char not in "fdFD":
        raise ValueError("matrix type must be 'f', 'd', 'F', or 'D'")
    if maxiter is None:
        maxiter = n * 10
    if maxiter <= 0:
        raise ValueError(f"maxiter must be positive, maxiter={maxiter}")
    ncv = min(max(2 * k + 1, 20), n) if ncv is None else ncv
    if ncv > n or ncv <= k:
        raise ValueError(f"ncv must be k<ncv<=n, ncv={ncv}")
    seed = rng if isinstance(rng, (int, numpy.integer)) else 0
    theta, X = _lanczos(A, k, which, v0, ncv, maxiter, tol, int(seed))
    idx = numpy.argsort(theta, kind="stable")
    w = xp.asarray(theta[idx])
    if not return_eigenvectors:
        return w
    return w, X[:, xp.asarray(idx)]


def svds(A, k=6, ncv=None, tol=0, which="LM", v0=None, maxiter=None,
         return_singular_vectors=True, solver="arpack", rng=None, options=None):
    """k largest ('LM') or smallest ('SM') singular values (ascending) and vectors, from
    ``eigsh`` of ``A^H A`` (or ``A A^H``, the smaller), as SciPy's ARPACK route does."""
    solver = str(solver).lower()
    if solver not in {"arpack", "lobpcg", "propack"}:
        raise ValueError(f"solver must be one of {({'arpack', 'lobpcg', 'propack'})}.")
    if solver != "arpack":
        raise NotImplementedError("npgpu's svds has the 'arpack' (Lanczos) route only")
    A = aslinearoperator(A)
    if not numpy.issubdtype(A.dtype, numpy.number):
        raise ValueError("`A` must be of numeric data type.")
    if A.shape[0] * A.shape[1] == 0:
        raise ValueError("`A` must not be empty.")
    if int(k) != k or not (0 < k <= min(A.shape) - 1):
        raise ValueError("`k` must be an integer satisfying `0 < k < min(A.shape)`.")
    k = int(k)
    if ncv is not None and (int(ncv) != ncv or not (k < ncv < min(A.shape))):
        raise ValueError("`ncv` must be an integer satisfying `k < ncv < min(A.shape)`.")
    if tol < 0 or not numpy.isfinite(tol):
        raise ValueError("`tol` must be a non-negative floating point value.")
    which = str(which).upper()
    if which not in {"LM", "SM"}:
        raise ValueError(f"`which` must be in {({'LM', 'SM'})}.")
    if maxiter is not None and (int(maxiter) != maxiter or maxiter <= 0):
        raise ValueError("`maxiter` must be a positive integer.")
    if return_singular_vectors not in {True, False, "vh", "u"}:
        raise ValueError(f"`return_singular_vectors` must be in {({True, False, 'vh', 'u'})}.")
    dt = numpy.dtype(A.dtype)
    if dt.char not in "fdFD":
        dt = numpy.dtype(numpy.float64)
    n, m = A.shape
    transpose = n < m
    X = A.H if transpose else A
    XH_X = LinearOperator(shape=(X.shape[1], X.shape[1]), dtype=dt,
                          matvec=lambda x: X.rmatvec(X.matvec(x)),
                          matmat=lambda x: X.rmatmat(X.matmat(x)))
    if v0 is not None:
        v0 = xp.atleast_1d(xp.asarray(v0))
        if v0.dtype.kind not in "fc":
            raise ValueError("`v0` must be of floating or complex floating data type.")
        if v0.shape != (min(A.shape),):
            raise ValueError(f"`v0` must have shape {(min(A.shape),)}.")
    ncv = min(max(2 * k + 1, 20), min(A.shape)) if ncv is None else ncv
    _, eigvec = eigsh(XH_X, k=k, tol=tol ** 2, maxiter=maxiter, ncv=ncv,
                      which="LA" if which == "LM" else "SA", v0=v0, rng=rng)
    eigvec, _ = xp.linalg.qr(eigvec)              # Ritz vectors: orthonormal to rounding
    Av = X.matmat(eigvec)
    if not return_singular_vectors:
        return xp.linalg.svd(Av, compute_uv=False)[::-1]
    u, s, vh = xp.linalg.svd(Av, full_matrices=False)
    u, s, vh = u[:, ::-1], s[::-1], vh[::-1]
    jobu = return_singular_vectors in {True, "u"}
    jobv = return_singular_vectors in {True, "vh"}
    if transpose:
        u_tmp = eigvec @ vh.conj().T if jobu else None
        vh = u.conj().T if jobv else None
        u = u_tmp
    else:
        u = u if jobu else None
        vh = vh @ eigvec.conj().T if jobv else None
    return u, s, vh
