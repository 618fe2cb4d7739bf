"""Krylov solvers with SciPy 1.17's steps and stopping rules: cg, cgs, bicgstab, gmres.

Every vector operation runs on the device (npgpu ufuncs, fused updates and fused dot
reductions of ``_vector_ops``); the host reads only the scalars the stopping tests need, a few
0-d results copied together: cg one read per iteration, cgs and bicgstab two (their breakdown
tests sit between the two halves of an iteration), gmres one per inner step (the new column of
the Hessenberg matrix, whose Givens rotations SciPy also applies on the host) plus one per
restart (the true residual norm).
"""
import numpy

from . import _xp as xp

from . import _vector_ops as vo
from ._interface import IdentityOperator, LinearOperator, aslinearoperator

__all__ = ["cg", "cgs", "bicgstab", "gmres"]

_COERCE = "fdFD"


def _coerce(x, y):
    x = x if x in _COERCE else "d"
    y = y if y in _COERCE else "d"
    return numpy.result_type(x, y).char


def make_system(A, M, x0, b):
    """(A, M, x, b, x0_given): operators, the initial guess and b as 1-D device arrays of the
    solver's dtype, with SciPy's checks and messages (``scipy.sparse.linalg._isolve.utils``)."""
    A_ = A
    A = aslinearoperator(A)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"expected square matrix, but got shape={(A.shape,)}")
    N = A.shape[0]
    b = xp.asarray(b)
    if not (b.shape == (N, 1) or b.shape == (N,)):
        raise ValueError(f"shapes of A {A.shape} and b {b.shape} are incompatible")
    if b.dtype.char not in _COERCE:
        b = b.astype("d")
    xtype = A.dtype.char if A.dtype is not None else A.matvec(b).dtype.char
    xtype = _coerce(xtype, b.dtype.char)
    b = b.astype(xtype, copy=False).ravel()
    if M is None:
        psolve = getattr(A_, "psolve", None)
        rpsolve = getattr(A_, "rpsolve", None)
        if psolve is None and rpsolve is None:
            M = IdentityOperator(shape=A.shape, dtype=A.dtype)
        else:
            M = LinearOperator(A.shape, matvec=psolve or (lambda v: v),
                               rmatvec=rpsolve or (lambda v: v), dtype=A.dtype)
    else:
        M = aslinearoperator(M)
        if A.shape != M.shape:
            raise ValueError("matrix and preconditioner have different shapes")
    if x0 is None:
        x = xp.zeros(N, dtype=xtype)
    elif isinstance(x0, str):
        if x0 != "Mb":
            raise ValueError(f"x0 must be an array, None or 'Mb', not {x0!r}")
        x = M.matvec(b.copy()).astype(xtype, copy=False)
    else:
        x = xp.array(x0, dtype=xtype)
        if not (x.shape == (N, 1) or x.shape == (N,)):
            raise ValueError(f"shapes of A {A.shape} and x0 {x.shape} are incompatible")
        x = x.ravel()
    return A, M, x, b, x0 is not None


def get_atol(name, b_norm, atol, rtol):
    if atol == "legacy" or atol is None or atol < 0:
        raise ValueError(f"'scipy.sparse.linalg.{name}' called with invalid `atol`={atol}; "
                         "if set, `atol` must be a real, non-negative number.")
    return max(float(atol), float(rtol) * float(b_norm))


def _norm(v):
    """||v|| on the host (one read), in v's real precision as NumPy's norm returns it."""
    return numpy.sqrt(vo.read(vo.nrm2_sq(v))[0])


def _residual(A, b, x, x0_given):
    # SciPy skips the product for an all-zero x (a read of x.any()); x0=None is known zero
    return b - A.matvec(x) if x0_given else b.copy()


def _psolve(M):
    return None if isinstance(M, IdentityOperator) else M.matvec


def _setup(name, A, b, x0, M, rtol, atol, maxiter):
    """make_system, then SciPy's tolerance and default maxiter; A is None when b == 0 (the
    solution is b, info 0)."""
    A, M, x, b, given = make_system(A, M, x0, b)
    bnrm2 = _norm(b)
    atol = get_atol(name, bnrm2, atol, rtol)
    if bnrm2 == 0:
        return None, M, x, b, given, atol, maxiter
    return A, M, x, b, given, atol, len(b) * 10 if maxiter is None else maxiter


def cg(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """Conjugate gradients for Hermitian positive-definite ``A``: returns ``(x, info)``, info 0
    on convergence (``||b - A x|| <= max(rtol ||b||, atol)``), else the iteration count."""
    A, M, x, b, given, atol, maxiter = _setup("cg", A, b, x0, M, rtol, atol, maxiter)
    if A is None:
        return b, 0
    psolve = _psolve(M)
    r = _residual(A, b, x, given)
    rho_prev = p = None
    for iteration in range(maxiter):
        rr = vo.nrm2_sq(r)
        if numpy.sqrt(vo.read(rr)[0]) < atol:              # the iteration's one read
            return x, 0
        if psolve is None:
            z, rho = r, (rr if r.dtype.kind != "c" else vo.dotc(r, r))
        else:
            z = psolve(r)
            rho = vo.dotc(r, z)
        if iteration > 0:
            vo.scale_add(p, z, rho, rho_prev)
        else:
            p = z.copy()
        q = A.matvec(p)
        vo.cg_update(x, r, p, q, rho, vo.dotc(p, q))
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def cgs(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """Conjugate gradients squared: ``(x, info)``; info -10 / -11 on SciPy's breakdowns."""
    A, M, x, b, given, atol, maxiter = _setup("cgs", A, b, x0, M, rtol, atol, maxiter)
    if A is None:
        return b, 0
    psolve = M.matvec
    rhotol = numpy.finfo(x.dtype.char).eps ** 2
    r = _residual(A, b, x, given)
    rtilde = r.copy()
    rho_prev = p = u = q = None
    for iteration in range(maxiter):
        rho_d = vo.dotc(rtilde, r)
        rr, rho = vo.read(vo.nrm2_sq(r), rho_d)
        if numpy.sqrt(rr) < atol:
            return x, 0
        if numpy.abs(rho) < rhotol:
            return x, -10
        if iteration > 0:
            beta = rho / rho_prev
            u = r + beta * q
            p *= beta
            p += q
            p *= beta
            p += u
        else:
            p = r.copy()
            u = r.copy()
        phat = psolve(p)
        vhat = A.matvec(phat)
        rv_d = vo.dotc(rtilde, vhat)
        rv, = vo.read(rv_d)
        if rv == 0:
            return x, -11
        alpha_d = rho_d / rv_d            # as the host's rho / rv, and no upload
        q = u.copy()
        vo.axmy(q, vhat, alpha_d)
        uhat = psolve(u + q)
        vo.axpy(x, uhat, alpha_d)
        # the true residual, as SciPy computes it (rounding builds up in the recurrence)
        r = b - A.matvec(x)
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0., maxiter=None, M=None, callback=None):
    """BiConjugate gradients stabilized: ``(x, info)``; info -10 / -11 on SciPy's breakdowns."""
    A, M, x, b, given, atol, maxiter = _setup("bicgstab", A, b, x0, M, rtol, atol, maxiter)
    if A is None:
        return b, 0
    psolve = M.matvec
    rhotol = numpy.finfo(x.dtype.char).eps ** 2
    omegatol = rhotol
    r = _residual(A, b, x, given)
    rtilde = r.copy()
    rho_prev = omega_d = alpha = p = v = None
    for iteration in range(maxiter):
        rho_d = vo.dotc(rtilde, r)
        if iteration == 0:
            rr, rho = vo.read(vo.nrm2_sq(r), rho_d)
        else:
            rr, rho, omega = vo.read(vo.nrm2_sq(r), rho_d, omega_d)
        if numpy.sqrt(rr) < atol:
            return x, 0
        if numpy.abs(rho) < rhotol:
            return x, -10
        if iteration > 0:
            if numpy.abs(omega) < omegatol:
                return x, -11
            beta = (rho / rho_prev) * (alpha / omega)
            vo.axmy(p, v, omega_d)
            p *= beta
            p += r
        else:
            p = r.copy()
        phat = psolve(p)
        v = A.matvec(phat)
        rv_d = vo.dotc(rtilde, v)
        # alpha stays on the device; the one read below also checks rv == 0
        alpha_d = rho_d / rv_d
        vo.axmy(r, v, alpha_d)
        rv, ss = vo.read(rv_d, vo.nrm2_sq(r))
        if rv == 0:
            return x, -11
        alpha = rho / rv
        if numpy.sqrt(ss) < atol:
            vo.axpy(x, phat, alpha_d)
            return x, 0
        s = r
        shat = psolve(s)
        t = A.matvec(shat)
        omega_d = vo.dotc(t, s) / vo.dotc(t, t)
        vo.axpy(x, phat, alpha_d)
        vo.axpy(x, shat, omega_d)
        vo.axmy(r, t, omega_d)
        rho_prev = rho
        if callback:
            callback(x)
    return x, maxiter


def _lartg(f, g, dt):
    """LAPACK's plane rotation [c s; -conj(s) c] [f; g] = [r; 0] (on the host, as SciPy)."""
    from scipy.linalg import get_lapack_funcs
    return get_lapack_funcs("lartg", dtype=dt)(f, g)


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0., restart=None, maxiter=None, M=None,
          callback=None, callback_type=None):
    """Restarted GMRES (SciPy's steps: modified Gram-Schmidt, Givens rotations, the gh-8400
    tolerance control): ``(x, info)``.  ``callback_type`` 'x', 'pr_norm' or 'legacy'."""
    if callback is not None and callback_type is None:
        import warnings
        warnings.warn("scipy.sparse.linalg.gmres called without specifying `callback_type`. "
                      "The default value will be changed in a future release. For "
                      "compatibility, specify a value for `callback_type` explicitly, e.g., "
                      "``gmres(..., callback_type='pr_norm')``, or to retain the old behavior "
                      "``gmres(..., callback_type='legacy')``", category=DeprecationWarning,
                      stacklevel=2)
    if callback_type is None:
        callback_type = "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    if callback is None:
        callback_type = None
    A, M, x, b, given = make_system(A, M, x0, b)
    psolve = M.matvec
    n = len(b)
    bnrm2 = _norm(b)
    atol = get_atol("gmres", bnrm2, atol, rtol)
    if bnrm2 == 0:
        return b, 0
    dt = x.dtype
    eps = numpy.finfo(dt.char).eps
    if maxiter is None:
        maxiter = n * 10
    restart = min(20 if restart is None else restart, n)
    Mb_nrm2 = _norm(psolve(b))
    ptol_max_factor = 1.
    ptol = Mb_nrm2 * min(ptol_max_factor, atol / bnrm2)
    presid = 0.
    v = xp.empty((restart + 1, n), dtype=dt)
    h = numpy.zeros((restart, restart + 1), dtype=dt)
    givens = numpy.zeros((restart, 2), dtype=dt)
    inner_iter = 0
    rnorm = None
    for iteration in range(maxiter):
        if iteration == 0:
            r = _residual(A, b, x, given)
            if _norm(r) < atol:
                return x, 0
        v[0] = psolve(r)
        tmp = _norm(v[0])
        v[0] *= (1 / tmp)
        S = numpy.zeros(restart + 1, dtype=dt)
        S[0] = tmp
        breakdown = False
        for col in range(restart):
            w = psolve(A.matvec(v[col]))
            h0_d = vo.nrm2_sq(w)
            coeffs = []
            for k in range(col + 1):               # modified Gram-Schmidt on the device
                c = vo.dotc(v[k], w)
                vo.axmy(w, v[k], c)
                coeffs.append(c)
            vals = vo.read(h0_d, *coeffs, vo.nrm2_sq(w))
            h0 = numpy.sqrt(vals[0])
            h[col, :col + 1] = vals[1:-1]
            h1 = numpy.sqrt(vals[-1])
            h[col, col + 1] = h1
            v[col + 1] = w
            if h1 <= eps * h0:                     # exact solution indicator
                h[col, col + 1] = 0
                breakdown = True
            else:
                v[col + 1] *= (1 / h1)
            for k in range(col):                   # past rotations on the new column
                c, s = givens[k, 0], givens[k, 1]
                n0, n1 = h[col, [k, k + 1]]
                h[col, [k, k + 1]] = [c * n0 + s * n1, -s.conj() * n0 + c * n1]
            c, s, mag = _lartg(h[col, col], h[col, col + 1], dt)
            givens[col, :] = [c, s]
            h[col, [col, col + 1]] = mag, 0
            tmp = -numpy.conjugate(s) * S[col]
            S[[col, col + 1]] = [c * S[col], tmp]
            presid = numpy.abs(tmp)
            inner_iter += 1
            if callback_type in ("legacy", "pr_norm"):
                callback(presid / bnrm2)
            if callback_type == "legacy" and inner_iter == maxiter:
                break
            if presid <= ptol or breakdown:
                break
        if h[col, col] == 0:
            S[col] = 0
        y = numpy.zeros([col + 1], dtype=dt)
        y[:] = S[:col + 1]
        for k in range(col, 0, -1):                # back substitution, pseudo-solving zeros
            if y[k] != 0:
                y[k] /= h[k, k]
                y[:k] -= y[k] * h[k, :k]
        if y[0] != 0:
            y[0] /= h[0, 0]
        x += xp.asarray(y) @ v[:col + 1]
        r = b - A.matvec(x)
        rnorm = _norm(r)
        if callback_type == "legacy" and inner_iter == maxiter:
            return x, 0 if rnorm <= atol else maxiter
        if callback_type == "x":
            callback(x)
        if rnorm <= atol:
            break
        elif breakdown:
            break
        elif presid <= ptol:
            ptol_max_factor = max(eps, 0.25 * ptol_max_factor)
        else:
            ptol_max_factor = min(1.0, 1.5 * ptol_max_factor)
        ptol = presid * min(ptol_max_factor, atol / rnorm)
    info = 0 if (rnorm is not None and rnorm <= atol) else maxiter
    return x, info
