"""norm, vector_norm, matrix_norm, cond, matrix_rank.

Sums (ord 1, 2/'fro', 0, p) are products with a ones vector (the GEMM);
max/min (ord +-inf) use a small generated row-reduction kernel; the spectral
and nuclear norms use the singular values.
"""
import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core.ndarray import empty_array
from ..creation import ones, zeros
from ..ufuncs import less, multiply, sqrt, true_divide
from ._common import LinAlgError, asarray
from .decomp import svd
from .products import _matmul_nd, _sum_last

_ABS2 = {"c": "x0.real * x0.real + x0.imag * x0.imag", "": "x0 * x0"}
_ABS = {"c": "math.sqrt(x0.real * x0.real + x0.imag * x0.imag)", "": "abs(x0)"}


def _real(dt):
    return np.dtype(f"f{dt.itemsize // 2}") if dt.kind == "c" else dt


def _map(x, what, rd, p=None):
    """Elementwise |x|^2, |x|, |x|^p or (x != 0) into a new real array of dtype ``rd``."""
    k = "c" if x.dtype.kind == "c" else ""
    if what == "abs2":
        op = _ew.ScalarOp.from_expr(f"norm_abs2_{k}", 1, _ABS2[k])
    elif what == "abs":
        op = _ew.ScalarOp.from_expr(f"norm_abs_{k}", 1, _ABS[k])
    elif what == "nz":
        op = _ew.ScalarOp.from_expr("norm_nz", 1, "1 if x0 != 0 else 0")
    else:
        op = _ew.ScalarOp.from_expr(f"norm_absp_{k}", 2, f"({_ABS[k]}) ** x1")
    out = empty_array(x.shape, rd, "C")
    ins = [x] if p is None else [x, np.dtype(rd).type(p)]
    loop_in = [x.dtype] if p is None else [x.dtype, rd]
    _ew.launch(op, ins, loop_in, [out], [rd], name="norm")
    return out


def _sum_rows(x2):
    """Row sums of a 2-D real array (R, S) as a GEMM with ones."""
    R, S = x2.shape
    out = empty_array((R, 1), x2.dtype, "C")
    _matmul_nd(x2, ones((S, 1), x2.dtype), x2.dtype, out)
    return out.reshape(R)


def _render_rowreduce(dt, is_max):
    # float16 compares as float32 (exact; the GPU has no linked half comparisons)
    ct = np.dtype(np.float32) if dt == np.float16 else dt
    cmp = ">" if is_max else "<"
    name = f"rowreduce_{'max' if is_max else 'min'}_{dt.str[1:]}"
    src = (f"def {name}(out, X, R, S):\n"
           "    r = cuda.grid(1)\n"
           "    if r < R:\n"
           f"        acc = {_ew.cast_expr('X[r, 0]', dt, ct)}\n"
           "        for j in range(1, S):\n"
           f"            v = {_ew.cast_expr('X[r, j]', dt, ct)}\n"
           f"            if v {cmp} acc or v != v:\n"
           "                acc = v\n"
           "            if acc != acc:\n"
           "                break\n"
           f"        out[r] = {_ew.cast_expr('acc', ct, dt)}\n")
    return KernelSource(name, src, [Param("array", dt, 1, "C"), Param("array", dt, 2, "A"),
                                    Param("scalar", np.int64), Param("scalar", np.int64)])


def _reduce_rows(x2, is_max):
    """Row max/min (NaN propagating) of a 2-D real array with S >= 1 columns."""
    dt = x2.dtype
    R, S = x2.shape
    if S == 0:
        if is_max:                      # NumPy's norms take the max with initial=0
            return zeros((R,), dt)
        raise ValueError("zero-size array to reduction operation minimum which has no identity")
    out = empty_array((R,), dt, "C")
    if R == 0:
        return out
    kern = compiler.get_kernel(("rowreduce", dt, is_max), lambda: _render_rowreduce(dt, is_max))
    vals = [0, 0, R, dt.itemsize, out._ptr, R, dt.itemsize,
            0, 0, x2.size, dt.itemsize, x2._ptr, R, S, *x2._strides, R, S]
    block = 32 if _backend.IS_SIM else 128
    kern(-(-R // block), block, vals)
    return out


def _to_rows(x, axes):
    """Move ``axes`` last and reshape to (rows, reduced): returns (x2, kept shape)."""
    keep = [i for i in range(x.ndim) if i not in axes]
    kshape = tuple(x.shape[i] for i in keep)
    R = 1
    for n in kshape:
        R *= n
    S = 1
    for i in axes:
        S *= x.shape[i]
    return x.transpose(keep + list(axes)).reshape(R, S), kshape


def _norm_dtype(dt):
    if dt.kind in "biu":
        return np.dtype(np.float64)
    return dt


def _keepdims(r, shape, axes, keepdims):
    if not keepdims:
        return r
    full = tuple(1 if i in axes else n for i, n in enumerate(shape))
    return r.reshape(full)


def _is(ord, value):
    """``ord == value`` for a numeric ``ord`` (a string ord equals no number)."""
    return not isinstance(ord, str) and ord == value


def _vector(x, axes, ord):
    """The ``ord`` vector norm of ``x`` (float or complex) over the normalized ``axes``
    (reduced away)."""
    rd = _real(x.dtype)
    cd = np.dtype(np.float32) if rd == np.float16 else rd      # compute float16 in float32

    def total(y):
        # sums in float32, stored as float16 as NumPy's float16 sums are (past 65504: inf)
        s = _sum_rows(y)
        return s.astype(rd) if s.dtype != rd else s

    x2, kshape = _to_rows(x, axes)
    if ord is None or _is(ord, 2):
        r = sqrt(total(_map(x2, "abs2", cd)))
    elif _is(ord, 1):
        r = total(_map(x2, "abs", cd))
    elif _is(ord, np.inf):
        r = _reduce_rows(_map(x2, "abs", cd), True)
    elif _is(ord, -np.inf):
        r = _reduce_rows(_map(x2, "abs", cd), False)
    elif _is(ord, 0):
        r = total(_map(x2, "nz", cd))
    else:
        p = float(ord)
        s = total(_map(x2, "absp", cd, p))
        r = _map(s, "absp", rd, 1.0 / p)
    if r.dtype != rd:
        r = r.astype(rd)
    return r.reshape(kshape)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """Vector p-norm over ``axis`` (all axes flattened when None), NumPy's ``vector_norm``:
    its checks and their order (a tuple ``axis`` is flattened into one, then :func:`norm`)."""
    x = asarray(x)
    shape = list(x.shape)
    if axis is None:
        y, _axis = x.reshape(-1), 0
    elif isinstance(axis, tuple):
        normalized = normalize_axis_tuple(axis, x.ndim)
        rest = tuple(i for i in range(x.ndim) if i not in normalized)
        size = 1
        for i in axis:
            size *= x.shape[i]
        y = x.transpose(tuple(axis) + rest).reshape((size, *[x.shape[i] for i in rest]))
        _axis = 0
    else:
        y, _axis = x, axis
    res = norm(y, axis=_axis, ord=ord)
    if keepdims:
        for i in normalize_axis_tuple(range(len(shape)) if axis is None else axis, len(shape)):
            shape[i] = 1
        res = res.reshape(tuple(shape))
    return res


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def norm(x, ord=None, axis=None, keepdims=False):
    """NumPy's ``linalg.norm`` for every ord/axis combination it allows, with its checks in
    its order."""
    x = asarray(x)
    dt = _norm_dtype(x.dtype)
    if x.dtype != dt:
        x = x.astype(dt)
    nd = x.ndim
    if axis is None and (ord is None or (isinstance(ord, str) and ord in ("f", "fro") and nd == 2)
                         or (_is(ord, 2) and nd == 1)):
        r = _vector(x, list(range(nd)), 2)
        return r.reshape((1,) * nd) if keepdims else r
    if axis is None:
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = int(axis)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
        axis = (axis,)
    if len(axis) == 1:
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        ax = normalize_axis_index(axis[0], nd)
        r = _vector(x, [ax], ord)
        return _keepdims(r, x.shape, [ax], keepdims)
    if len(axis) != 2:
        raise ValueError("Improper number of dimensions to norm.")
    r0 = normalize_axis_index(axis[0], nd)
    c0 = normalize_axis_index(axis[1], nd)
    if r0 == c0:
        raise ValueError("Duplicate axes given.")
    if _is(ord, 2) or _is(ord, -2) or ord == "nuc":
        xm = _last_two(x, r0, c0)
        s = svd(xm, compute_uv=False)
        if ord == "nuc":
            r = _sum_last(s, s.dtype)
        else:
            lead = s.shape[:-1]
            s2 = s.reshape(-1, s.shape[-1]) if s.size else s.reshape(int(np.prod(lead)), s.shape[-1])
            r = _reduce_rows(s2, _is(ord, 2)).reshape(lead)
    elif _is(ord, 1) or _is(ord, -1):
        col = _vector(x, [r0], 1)                 # sums down each column
        c = c0 - (1 if c0 > r0 else 0)
        m2, kshape = _to_rows(col, [c])
        r = _reduce_rows(m2, _is(ord, 1)).reshape(kshape)
    elif _is(ord, np.inf) or _is(ord, -np.inf):
        row = _vector(x, [c0], 1)
        rr = r0 - (1 if r0 > c0 else 0)
        m2, kshape = _to_rows(row, [rr])
        r = _reduce_rows(m2, _is(ord, np.inf)).reshape(kshape)
    elif ord is None or ord == "fro" or ord == "f":
        r = _vector(x, [r0, c0], 2)
    else:
        raise ValueError("Invalid norm order for matrices.")
    return _keepdims(r, x.shape, [r0, c0], keepdims)


def _last_two(x, r0, c0):
    keep = [i for i in range(x.ndim) if i not in (r0, c0)]
    return x.transpose(keep + [r0, c0])


def cond(x, p=None):
    """Condition number (NumPy's ``cond``): extreme singular values' ratio (p None/2/-2) or
    norm(x) * norm(inv(x)); a singular matrix gives inf (NaN where ``x`` holds a NaN)."""
    from .. import logic as _logic
    from ..ufuncs import isnan, logical_and, logical_not
    from ._common import assert_stacked_2d, assert_stacked_square
    from .solve import _real as _real_of, inv_with_info, linalg_dtype
    x = asarray(x)
    if x.size == 0 and int(np.prod(x.shape[-2:])) == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    if p is None or _is(p, 2) or _is(p, -2):
        s = svd(x, compute_uv=False)
        r = true_divide(s[..., -1], s[..., 0]) if _is(p, -2) else true_divide(s[..., 0], s[..., -1])
    else:
        assert_stacked_2d(x)
        assert_stacked_square(x)
        rd = _real_of(linalg_dtype(x.dtype))
        invx, info = inv_with_info(x)
        if info is not None:            # NumPy's inverse of a singular matrix is NaN
            bad = less(0, info.reshape(x.shape[:-2] + (1, 1)))
            invx = _logic.where(bad, np.nan, invx).astype(invx.dtype, copy=False)
        r = multiply(norm(x, p, axis=(-2, -1)), norm(invx, p, axis=(-2, -1)))
        if r.dtype != rd:
            r = r.astype(rd)
    # NaN -> inf, unless the matrix itself holds a NaN
    from ..reductions.functions import any as _any
    mask = logical_and(isnan(r), logical_not(_any(isnan(x), axis=(-2, -1))))
    return _logic.where(mask, np.inf, r).astype(r.dtype, copy=False)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """Number of singular values above the tolerance (stacked), NumPy's ``matrix_rank``."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    from .._core.ndarray import ndarray
    A = asarray(A)
    if A.ndim < 2:                       # NumPy's host int: int(not all(A == 0))
        nz = _map(A.reshape(-1), "nz", np.dtype(np.float64))
        return int(bool(less(0, _sum_last(nz, np.dtype(np.float64)))))
    s = svd(A, compute_uv=False, hermitian=hermitian)
    if s.shape[-1] == 0:
        return zeros(s.shape[:-1], np.int64)     # empty matrices have rank 0
    smax = _reduce_rows(s.reshape(-1, s.shape[-1]), True).reshape(s.shape[:-1] + (1,))
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * np.finfo(s.dtype).eps
        if isinstance(rtol, ndarray) or np.ndim(rtol):
            tol_arr = multiply(smax, asarray(rtol)[..., None])     # one per matrix
        else:
            tol_arr = multiply(smax, np.asarray(rtol, s.dtype)[()])
    else:
        tol_arr = asarray(tol)
        if tol_arr.ndim:
            tol_arr = tol_arr[..., None]
    big = less(tol_arr, s)
    return _sum_last(big, np.dtype(np.int64))


def _sum_abs2_axis0(r):
    """sum(|r|^2, axis=0) of a 2-D array (lstsq residuals)."""
    rd = _real(r.dtype)
    return _sum_rows(_map(r.swapaxes(0, 1), "abs2", rd))
