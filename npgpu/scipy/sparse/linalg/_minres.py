"""MINRES for symmetric systems with SciPy 1.17's recurrences and stopping tests.

The Lanczos vectors and x live on the device; the scalar recurrence (plane rotations, norm
and condition estimates) runs on the host as in SciPy, fed by two reads an iteration: alpha
with beta^2, then ||x|| (SciPy's ``ynorm``, used by its stopping tests).
"""
import math

import numpy

from . import _xp as xp

from . import _vector_ops as vo
from ._iterative import make_system

__all__ = ["minres"]


@xp.fuse(kernel_name="sl_minres_y")
def _lanczos_step(y, r2, alfa, beta):
    return y - (alfa / beta) * r2


@xp.fuse(kernel_name="sl_minres_w")
def _direction(v, w1, w2, oldeps, delta, denom):
    return (v - oldeps * w1 - delta * w2) * denom


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None,
           show=False, check=False):
    """Solve ``(A - shift I) x = b`` for symmetric ``A`` (SPD preconditioner ``M``): ``(x, info)``,
    info 0 when a stopping test passed, ``maxiter`` when the iteration limit was reached."""
    A, M, x, b, given = make_system(A, M, x0, b)
    matvec = A.matvec
    psolve = M.matvec
    n = A.shape[0]
    if maxiter is None:
        maxiter = 5 * n
    istop = 0
    itn = 0
    xtype = x.dtype
    eps = numpy.finfo(xtype).eps
    r1 = b - matvec(x) if given else b.copy()
    y = psolve(r1)
    beta1, = vo.read(vo.dotu(r1, y))
    if beta1 < 0:
        raise ValueError("indefinite preconditioner")
    elif beta1 == 0:
        return (x, 0)
    bnorm = numpy.sqrt(vo.read(vo.nrm2_sq(b))[0])
    if bnorm == 0:
        return (b, 0)
    beta1 = math.sqrt(beta1)        # Python floats as in SciPy: they set the dtypes
    if check:
        w = matvec(y)
        r2 = matvec(w)
        s, t = vo.read(vo.dotu(w, w), vo.dotu(y, r2))
        if abs(s - t) > (s + eps) * eps ** (1.0 / 3.0):
            raise ValueError("non-symmetric matrix")
        r2 = psolve(y)
        s, t = vo.read(vo.dotu(y, y), vo.dotu(r1, r2))
        if abs(s - t) > (s + eps) * eps ** (1.0 / 3.0):
            raise ValueError("non-symmetric preconditioner")
    oldb = 0
    beta = beta1
    dbar = 0
    epsln = 0
    phibar = beta1
    rhs1 = beta1
    rhs2 = 0
    tnorm2 = 0
    gmax = 0
    gmin = numpy.finfo(xtype).max
    cs = -1
    sn = 0
    w = xp.zeros(n, dtype=xtype)
    w2 = xp.zeros(n, dtype=xtype)
    r2 = r1
    while itn < maxiter:
        itn += 1
        s = 1.0 / beta
        v = s * y
        y = matvec(v)
        if shift != 0:                  # y - 0 v == y: SciPy's subtraction changes nothing
            y = y - shift * v
        if itn >= 2:
            y = y - (beta / oldb) * r1
        alfa_d = vo.dotu(v, y)
        y = _lanczos_step(y, r2, alfa_d, beta)
        r1 = r2
        r2 = y
        y = psolve(r2)
        oldb = beta
        alfa, beta = vo.read(alfa_d, vo.dotu(r2, y))     # read 1 of 2
        if beta < 0:
            raise ValueError("non-symmetric matrix")
        beta = math.sqrt(beta)
        tnorm2 += alfa ** 2 + oldb ** 2 + beta ** 2
        if itn == 1 and beta / beta1 <= 10 * eps:
            istop = -1
        oldeps = epsln
        delta = cs * dbar + sn * alfa
        gbar = sn * dbar - cs * alfa
        epsln = sn * beta
        dbar = - cs * beta
        root = numpy.linalg.norm([gbar, dbar])
        gamma = numpy.linalg.norm([gbar, beta])
        gamma = max(gamma, eps)
        cs = gbar / gamma
        sn = beta / gamma
        phi = cs * phibar
        phibar = sn * phibar
        denom = 1.0 / gamma
        w1 = w2
        w2 = w
        w = _direction(v, w1, w2, oldeps, delta, denom)
        x = x + phi * w
        gmax = max(gmax, gamma)
        gmin = min(gmin, gamma)
        z = rhs1 / gamma
        rhs1 = rhs2 - delta * z
        rhs2 = - epsln * z
        Anorm = math.sqrt(tnorm2)
        ynorm = numpy.sqrt(vo.read(vo.nrm2_sq(x))[0])   # read 2 of 2
        epsx = Anorm * ynorm * eps
        rnorm = phibar
        test1 = numpy.inf if (ynorm == 0 or Anorm == 0) else rnorm / (Anorm * ynorm)
        test2 = numpy.inf if Anorm == 0 else root / Anorm
        Acond = gmax / gmin
        if istop == 0:
            t1 = 1 + test1
            t2 = 1 + test2
            if t2 <= 1:
                istop = 2
            if t1 <= 1:
                istop = 1
            if itn >= maxiter:
                istop = 6
            if Acond >= 0.1 / eps:
                istop = 4
            if epsx >= beta1:
                istop = 3
            if test2 <= rtol:
                istop = 2
            if test1 <= rtol:
                istop = 1
        if show:
            print(f"{itn:6g} {test1:10.3e} {test2:10.3e} {Anorm:8.1e} {Acond:8.1e}")
        if callback is not None:
            callback(x)
        if istop != 0:
            break
    # in the system's dtype, as SciPy 1.18 (1.17 returned float64 for float32 systems)
    return (x.astype(xtype, copy=False), maxiter if istop == 6 else 0)
