"""solve, inv, det, slogdet (LU on cuSOLVER), lstsq, pinv, tensorsolve, tensorinv."""
import operator

import numpy as np

from .._codegen import compiler
from .._codegen.compiler import KernelSource, Param
from .._codegen.elementwise import cast_expr, type_name
from .._core import copy as _copy
from .._core.ndarray import empty_array
from .. import _backend
from ..creation import zeros
from . import _solver
from . import products as _p
from ._common import (LinAlgError, asarray, assert_stacked_2d, assert_stacked_square,
                      gufunc_broadcast_error, gufunc_core_error,
                      batch_f_array, check_info)


_F4, _F8 = np.dtype(np.float32), np.dtype(np.float64)
_C8, _C16 = np.dtype(np.complex64), np.dtype(np.complex128)


def linalg_dtype(*dts):
    """NumPy's linalg result dtype (its ``_commonType``): single precision only when every
    operand is float32/complex64, else double (integers and bool count as double); complex
    when any operand is; an operand of any other inexact type (float16) is rejected."""
    single = True
    cplx = False
    for dt in dts:
        dt = np.dtype(dt)
        if dt.kind in "fc":
            cplx = cplx or dt.kind == "c"
            if dt in (_F8, _C16):
                single = False
            elif dt not in (_F4, _C8):
                raise TypeError(f"array type {dt.name} is unsupported in linalg")
        else:
            single = False
    if cplx:
        return _C8 if single else _C16
    return _F4 if single else _F8


def _real(dt):
    return np.dtype(f"f{dt.itemsize // 2}") if dt.kind == "c" else dt


def solve(a, b):
    """Solve ``a @ x = b`` (stacked, broadcast): LU (getrf) and getrs, on cuSOLVER."""
    a = asarray(a)
    b = asarray(b)
    assert_stacked_2d(a)
    assert_stacked_square(a)
    rt = linalg_dtype(a.dtype, b.dtype)
    n = a.shape[-1]
    vec = b.ndim == 1                   # NumPy's gufunc solve1, else solve
    name, sig = ("solve1", "(m,m),(m)->(m)") if vec else ("solve", "(m,m),(m,n)->(m,n)")
    if not vec and b.ndim < 2:
        raise ValueError(f"solve: Input operand 1 does not have enough dimensions (has "
                         f"{b.ndim}, gufunc core with signature {sig} requires 2)")
    b2 = b.reshape(b.shape[0], 1) if vec else b
    if b2.shape[-2] != n:
        raise gufunc_core_error(name, sig, b2.shape[-2], n)
    try:
        batch = np.broadcast_shapes(a.shape[:-2], b2.shape[:-2])
    except ValueError:
        raise gufunc_broadcast_error((a.shape, b.shape), b.shape[-2:]) from None
    k = b2.shape[-1]
    x = batch_f_array(batch + (n, k), rt)
    _copy.copy_into(x, b2)
    if n and 0 not in batch:
        # factor even without right-hand sides: NumPy raises for a singular ``a`` then too
        lu = empty_array(batch + (n, n), rt, "C")       # column-major A^T
        _copy.copy_into(lu, a)
        ipiv, info = _solver.getrf(lu)
        check_info(info, "Singular matrix")
        if k:
            _solver.getrs(lu, ipiv, x, 1)
    return x[..., 0] if vec else x


def inv(a):
    """Inverse of each matrix of ``a``: solve against the identity."""
    return _inv(a, True)[0]


def inv_with_info(a):
    """(the inverses, getrf's device ``info`` array or None): no check for singular
    matrices (``cond``'s inverse, whose singular matrices give inf)."""
    return _inv(a, False)


def _inv(a, check):
    a = asarray(a)
    assert_stacked_2d(a)
    assert_stacked_square(a)
    rt = linalg_dtype(a.dtype)
    n = a.shape[-1]
    x = batch_f_array(a.shape, rt)
    _copy.fill(x, 0)
    info = None
    if x.size:
        d = x._view(0, a.shape[:-1], x._strides[:-2] + (x._strides[-2] + x._strides[-1],))
        _copy.fill(d, 1)
        lu = empty_array(a.shape, rt, "C")
        _copy.copy_into(lu, a)
        ipiv, info = _solver.getrf(lu)
        if check:
            check_info(info, "Singular matrix")
        _solver.getrs(lu, ipiv, x, 1)
    return x, info


def matrix_power(a, n):
    """``a`` raised to the integer power ``n`` by repeated squaring (``n < 0`` inverts first)."""
    a = asarray(a)
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("exponent must be an integer") from None
    if n == 0:
        r = zeros(a.shape, a.dtype)
        m = a.shape[-1]
        d = _p.diagonal(r, 0, -2, -1)
        d.flags.writeable = True       # NumPy's diagonal is read-only; this one is ours to fill
        _copy.fill(d, 1)
        return r
    if n < 0:
        a = inv(a)
        n = -n
    result = None
    z = a
    while True:
        if n & 1:
            result = z if result is None else _p.matmul(result, z)
        n >>= 1
        if not n:
            break
        z = _p.matmul(z, z)
    return result if result is not a else a.copy()


# ---- determinants: LU, then one thread per matrix walks the diagonal -------------------------
def _render_slogdet(dt):
    rd = _real(dt)
    cplx = dt.kind == "c"
    rt = type_name(rd)
    lines = ["def KERNEL(sgn, logd, det, LU, piv, mark, nb):",
             "    i = cuda.grid(1)",
             "    if i < nb:",
             "        n = LU.shape[1]",
             f"        s = {type_name(dt)}(1)",
             f"        acc = {type_name(rd)}(0)",
             "        zero = False",
             "        for j in range(n):",
             "            d = LU[i, j, j]",
             "            if piv[i, j] != j + 1:",
             "                s = -s",
             "            ad = abs(d)",
             "            if ad == 0:",
             "                zero = True",
             "            else:"]
    if cplx:
        lines.append("                s = s * (d / ad)")
    else:
        lines.append("                if d < 0:")
        lines.append("                    s = -s")
    lines += ["                acc += math.log(ad)",
              # a NaN anywhere in the matrix (its max is NaN): NumPy's LAPACK carries it into the
              # result; a GPU LU need not (cuSOLVER's pivoting passed it by on the H100)
              "        if mark[i] != mark[i]:",
              f"            acc = {type_name(rd)}(math.nan)",
              "            zero = False"]
    if cplx:
        lines.append(f"            s = {type_name(dt)}(complex(math.nan, math.nan))")
    lines += ["        if zero:",
              f"            sgn[i] = {type_name(dt)}(0)",
              f"            logd[i] = {type_name(rd)}(-math.inf)",
              f"            det[i] = {type_name(dt)}(0)",
              "        else:",
              f"            sgn[i] = {cast_expr('s', dt, dt)}",
              f"            logd[i] = {cast_expr('acc', rd, rd)}",
              # CPython's math.exp (the simulator's) raises past log(DBL_MAX); the GPU's is inf.
              # Written so that a NaN log (a NaN in the matrix) still reaches exp: det NaN
              f"            e = math.exp(acc) if not acc >= {rt}(709.7827128933841) "
              f"else {rt}(math.inf)",
              f"            det[i] = {cast_expr('s * e', dt, dt)}"]
    text = "\n".join(lines) + "\n"
    name = f"slogdet_{dt.str[1:]}"
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("array", dt, 1, "C"), Param("array", rd, 1, "C"), Param("array", dt, 1, "C"),
              Param("array", dt, 3, "A"), Param("array", np.int64, 2, "A"), Param("array", dt, 1, "C"),
              Param("scalar", np.int64)]
    return KernelSource(name, text, params)


def slogdet_from_lu(lu, ipiv, mark):
    """(sign, logabsdet, det) of stacked LU factors (batch.., n, n) with 1-based pivots
    (batch.., n); ``mark`` (batch..): NaN where the factored matrix held a NaN."""
    dt = lu.dtype
    batch = lu.shape[:-2]
    n = lu.shape[-1]
    nb = 1
    for s in batch:
        nb *= s
    sgn = empty_array(batch, dt, "C")
    logd = empty_array(batch, _real(dt), "C")
    det = empty_array(batch, dt, "C")
    if nb == 0:
        return sgn, logd, det
    lu3 = lu.reshape((nb, n, n))
    piv = ipiv.reshape((nb, n))
    kern = compiler.get_kernel(("slogdet", dt), lambda: _render_slogdet(dt))
    vals = []
    for arr in (sgn, logd, det):
        vals += [0, 0, nb, arr.itemsize, arr._ptr, nb, arr.itemsize]
    vals += [0, 0, lu3.size, lu3.itemsize, lu3._ptr, *lu3.shape, *lu3._strides]
    vals += [0, 0, piv.size, piv.itemsize, piv._ptr, *piv.shape, *piv._strides]
    mark = mark.reshape((nb,))
    vals += [0, 0, nb, mark.itemsize, mark._ptr, nb, mark.itemsize]
    vals.append(nb)
    block = 32 if _backend.IS_SIM else 128
    kern(-(-nb // block), block, vals)
    return sgn, logd, det


def _lu_for_det(a):
    a = asarray(a)
    assert_stacked_2d(a)
    assert_stacked_square(a)
    rt = linalg_dtype(a.dtype)
    lu = empty_array(a.shape, rt, "C")
    _copy.copy_into(lu, a)
    if lu.size == 0:
        ipiv = empty_array(a.shape[:-1], np.dtype(np.int64), "C")
        return lu, ipiv, zeros(a.shape[:-2], rt)
    # NaN propagates through max: the mark of a matrix holding one (read by slogdet_from_lu)
    mark = lu.max(axis=(-2, -1)) if rt.kind in "fc" and a.dtype.kind in "fc" else \
        zeros(a.shape[:-2], rt)
    ipiv, _info = _solver.getrf(lu)     # info > 0 means exactly singular: det 0, not an error
    return lu, ipiv, mark


def slogdet(a):
    """Sign and natural log of the absolute determinant (NumPy's ``SlogdetResult``)."""
    sgn, logd, _ = slogdet_from_lu(*_lu_for_det(a))
    return np.linalg._linalg.SlogdetResult(sgn, logd)


def det(a):
    """Determinant (from the LU: sign * exp(log|det|), as NumPy computes it)."""
    return slogdet_from_lu(*_lu_for_det(a))[2]


def tensorsolve(a, b, axes=None):
    a = asarray(a)
    b = asarray(b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = a.transpose(allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    prod = 1
    for k in oldshape:
        prod *= k
    if a.size != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement \
            prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    a = a.reshape(prod, prod)
    b = b.reshape(prod)
    return solve(a, b).reshape(oldshape)


def tensorinv(a, ind=2):
    a = asarray(a)
    oldshape = a.shape
    prod = 1
    if ind > 0:
        invshape = oldshape[ind:] + oldshape[:ind]
        for k in oldshape[ind:]:
            prod *= k
    else:
        raise ValueError("Invalid ind argument.")
    a = a.reshape(prod, -1)
    ia = inv(a)
    if not invshape:                    # NumPy: ``ia.reshape(*())`` fails the same way
        raise TypeError("reshape() takes exactly 1 argument (0 given)")
    return ia.reshape(*invshape)
