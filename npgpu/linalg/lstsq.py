"""Least squares and the pseudo-inverse, through the SVD: ``lstsq``, ``pinv``.

Above the decompositions (``svd``) and the norms (column sums of squares)."""
import numpy as np

from .._codegen import elementwise as _ew
from .._core.ndarray import empty_array
from ..creation import ones
from ..ufuncs import isfinite, less, multiply
from ._common import LinAlgError, asarray, assert_stacked_2d, conj, get_error_check
from .decomp import svd
from .norms import _sum_abs2_axis0
from .products import matmul
from .solve import _real, linalg_dtype

def pinv(a, rcond=None, hermitian=False, *, rtol=np._NoValue):
    """Pseudo-inverse via the SVD: V diag(1/s, s > cutoff) U^H.

    NumPy's tolerances: ``rcond`` (default 1e-15) or ``rtol`` (``None``: max(M, N) * eps), a
    scalar or an array broadcast against the stack of matrices (an npgpu array stays on the
    device; a host array is copied there)."""
    from .._core.ndarray import ndarray
    a = asarray(a)
    assert_stacked_2d(a)
    m, n = a.shape[-2:]
    if rcond is None:
        if rtol is np._NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(m, n) * np.finfo(a.dtype).eps     # NumPy's: a ValueError for integers
        else:
            rcond = rtol
    elif rtol is not np._NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    if not isinstance(rcond, ndarray) and np.ndim(rcond) == 0:
        rcond = np.asarray(rcond)[()]       # a NumPy scalar: NumPy's 0-d array promotes the same
    else:
        rcond = asarray(rcond)[..., None]   # one tolerance per matrix of the stack
    if a.size == 0 and m * n == 0:       # NumPy: an empty result of a's dtype, no SVD
        return empty_array(a.shape[:-2] + (n, m), a.dtype, "C")
    u, s, vh = svd(a, full_matrices=False, hermitian=hermitian)
    cutoff = multiply(rcond, s[..., :1])    # s descends: its first value is the largest
    keep = less(cutoff, s)
    inv_s = _where_recip(s, keep)
    # V diag(inv_s) U^H
    vs = multiply(conj(vh).swapaxes(-1, -2), inv_s[..., None, :])
    return matmul(vs, conj(u).swapaxes(-1, -2))


_RECIP = _ew.ScalarOp.from_expr("linalg_recip_where", 2, "1 / x0 if x1 else x0 - x0")


def _where_recip(s, keep):
    out = empty_array(s.shape, s.dtype, "C")
    _ew.launch(_RECIP, [s, keep], [s.dtype, keep.dtype], [out], [s.dtype], name="recip")
    return out


def lstsq(a, b, rcond=None):
    """Least-squares solution via the SVD (NumPy's outputs: x, residuals, rank, s)."""
    a = asarray(a)
    b = asarray(b)
    vec = b.ndim == 1
    b2 = b.reshape(-1, 1) if vec else b
    for x in (a, b2):                   # NumPy's _assert_2d(a, b)
        if x.ndim != 2:
            raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be "
                              "two-dimensional")
    m, n = a.shape
    if b2.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    rt = linalg_dtype(a.dtype, b.dtype)
    # NumPy computes in double (LAPACK's gelsd): its default is float64's epsilon times
    # max(m, n); gelsd replaces an rcond outside (0, 1) by dlamch('E'), half that epsilon
    if rcond is None:
        rcond = np.finfo(np.float64).eps * max(m, n)
    elif np.ndim(rcond) == 0 and not 0 < rcond < 1:
        rcond = np.finfo(np.float64).eps / 2
    if get_error_check() and a.size and not bool(isfinite(a).all()):
        raise LinAlgError("SVD did not converge in Linear Least Squares")
    u, s, vh = svd(a.astype(rt, copy=False), full_matrices=False)
    cutoff = multiply(s[:1], np.asarray(rcond, s.dtype)[()])
    keep = less(cutoff, s)
    inv_s = _where_recip(s, keep)
    uhb = matmul(conj(u).swapaxes(-1, -2), b2.astype(rt, copy=False))
    x = matmul(conj(vh).swapaxes(-1, -2), multiply(uhb, inv_s[:, None]))
    rank_arr = _count_true(keep)
    rank = np.int32(rank_arr.get())   # NumPy returns rank as a host int32
    if rank == n and m > n:
        r = b2.astype(rt, copy=False) - matmul(a.astype(rt, copy=False), x)
        resid = _sum_abs2_axis0(r)
    else:
        resid = empty_array((0,), _real(rt), "C")
    if vec:
        x = x[:, 0]
        if resid.size:
            resid = resid.reshape(1)
    return x, resid, rank, s


def _count_true(mask):
    return matmul(mask.astype(np.int64), ones(mask.shape[-1], np.int64))
