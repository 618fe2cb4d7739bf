"""The vector steps of the Krylov solvers, each one npgpu launch (or one fused reduction).

Scalars that steer the iteration (alpha, beta, omega...) stay on the device as 0-d arrays and
enter the fused updates as operands, so an iteration's only device-to-host traffic is the
convergence read: ``read`` takes a few 0-d results at once (one copy of a short vector).
"""
import numpy

from . import _xp as xp


@xp.fuse(kernel_name="sl_dot")
def _dot_real(a, b):
    return xp.sum(a * b)


@xp.fuse(kernel_name="sl_dotc")
def _dot_conj(a, b):
    return xp.sum(xp.conj(a) * b)


@xp.fuse(kernel_name="sl_nrm2c")
def _nrm2_sq_complex(a):
    re = xp.real(a)
    im = xp.imag(a)
    return xp.sum(re * re + im * im)


def dotc(a, b):
    """``vdot(a, b)`` (``dot`` for real a) as a 0-d device array: one fused reduction."""
    return _dot_conj(a, b) if a.dtype.kind == "c" else _dot_real(a, b)


def dotu(a, b):
    """``inner(a, b)`` without conjugation (SciPy's minres uses it)."""
    return _dot_real(a, b)


def nrm2_sq(a):
    """``||a||^2`` as a real 0-d device array."""
    return _nrm2_sq_complex(a) if a.dtype.kind == "c" else _dot_real(a, a)


def read(*scalars):
    """The host values of a few 0-d device arrays: one device-to-host copy."""
    if len(scalars) == 1:
        return (scalars[0].get()[()],)
    dt = numpy.result_type(*[s.dtype for s in scalars])
    host = xp.stack([s.astype(dt, copy=False) for s in scalars]).get()
    return tuple(host[i] if s.dtype == dt else
                 (host[i].real if s.dtype.kind != "c" else host[i]).astype(s.dtype)
                 for i, s in enumerate(scalars))


# ---- fused updates (in place, one launch each) ----

@xp.fuse(kernel_name="sl_cg_xr")
def cg_update(x, r, p, q, rho, pq):
    """x += alpha p; r -= alpha q with alpha = rho / pq (SciPy's order of rounding)."""
    alpha = rho / pq
    x += alpha * p
    r -= alpha * q
    return x, r


@xp.fuse(kernel_name="sl_scale_add")
def scale_add(p, z, num, den):
    """p = p * (num / den) + z."""
    p *= num / den
    p += z
    return p


@xp.fuse(kernel_name="sl_axpy")
def axpy(y, x, a):
    """y += a x."""
    y += a * x
    return y


@xp.fuse(kernel_name="sl_axmy")
def axmy(y, x, a):
    """y -= a x."""
    y -= a * x
    return y
