"""Matrix and tensor products with NumPy's rules, all reduced to :func:`._gemm.gemm_into`."""
import operator
import warnings

import numpy as np
from numpy._core._exceptions import _UFuncInputCastingError, _UFuncOutputCastingError
from numpy.lib.array_utils import normalize_axis_index

from .._core import copy as _copy
from .._core.dtypes import check_dtype
from .._core.layout import c_shape_text as _shape, host_stand_in as _host_stand_in
from .._core.ndarray import (READONLY, _new as _new_array, empty_array, fail_unless_writeable,
                             ndarray)
from ..cuda.memory import alloc as _alloc
from ..creation import ones
from ..ufuncs import multiply, negative, subtract
from ..ufuncs import overrides as _overrides
from . import _gemm
from ._common import (asarray, check_core_ndim, conj, gufunc_broadcast_error,
                      gufunc_core_error)

_SIG = "(n?,k),(k,m?)->(n?,m?)"
_GUFUNC_DEFAULTS = {"casting": "same_kind", "order": "K", "dtype": None, "subok": True,
                    "axis": -1, "keepdims": False}


def _override(name, x1, x2, out, **opts):
    """NEP 13 for the gufuncs npgpu runs as functions: an operand with its own
    ``__array_ufunc__`` gets the call with NumPy's ufunc ``name`` (npgpu has no ufunc object
    for it; called back on npgpu arrays, NumPy's ufunc comes here) and the options given."""
    if x1.__class__ is ndarray and x2.__class__ is ndarray and out is None:
        return _overrides.NONE
    kw = {} if out is None else {"out": out}
    kw.update((k, v) for k, v in opts.items() if not _same(v, _GUFUNC_DEFAULTS[k]))
    return _overrides.dispatch(getattr(np, name), "__call__", (x1, x2), kw)


def _same(v, default):
    try:
        return v is default or v.__class__ is default.__class__ and v == default
    except (TypeError, ValueError):
        return False




def _result_dtype(*dts):
    return check_dtype(np.result_type(*dts))


def _operands_for(rt, *xs):
    """Cast operands to ``rt`` where the library computes (cuBLAS takes one dtype)."""
    if not _gemm.uses_library(rt):
        return xs
    return tuple(x if x.dtype == rt else x.astype(rt) for x in xs)


def _overlaps(out, *xs):
    return any(_copy.may_overlap(out, x) for x in xs)


def _matmul_nd(a2, b2, rt, out_view):
    """out_view[...] = a2 @ b2 (both >= 2-D, batch-broadcast), computed in dtype ``rt``.

    Returns the GEMM plan when it ran straight on a2, b2 and out_view (see
    :func:`._gemm.gemm_into`), else None."""
    a3, b3 = _operands_for(rt, a2, b2)
    if out_view.dtype == rt and not _overlaps(out_view, a3, b3):
        plan = _gemm.gemm_into(out_view, a3, b3)
        return plan if (a3 is a2 and b3 is b2) else None
    tmp = empty_array(out_view.shape, rt, "C")
    _gemm.gemm_into(tmp, a3, b3)
    _copy.copy_into(out_view, tmp)
    return None


# matmul(x1, x2) without out=/dtype= for one (dtypes, shapes, strides) signature whose
# product is one library call on the operands as they are: (result shape, strides,
# nbytes, dtype, F-contiguous, plan).  A hit costs a dict lookup, one allocation and
# the library call -- no type resolution, broadcasting or layout analysis.
_FAST = {}


def clear_plans():
    _FAST.clear()
    _gemm.clear_plans()


def use_float_kernel(enabled):
    """Float/complex products on the generated tiled kernel (True) instead of cuBLAS (False,
    the default; ``NPGPU_GEMM_KERNEL=1`` starts with True), e.g. to test that kernel's
    float code.  Forgets the cached plans; returns the previous setting."""
    prev = _gemm.set_float_kernel(enabled)
    clear_plans()
    return prev


def _fresh(shape, strides, nbytes, dt, fcontig):
    """A new C-contiguous array of a cached layout (what empty_array makes, minus the layout math)."""
    mem = _alloc(nbytes)
    return _new_array(mem, mem.ptr, shape, strides, dt, None, (True, fcontig))


def _insert_ones(x, shape):
    """A view of ``x`` with ``shape`` (x's shape with size-1 dims inserted)."""
    if x.shape == shape:
        return x
    isz = x.itemsize
    it = iter(zip(x.shape, x._strides))
    strides = []
    cur = next(it, None)
    for n in shape:
        if cur is not None and cur[0] == n:
            strides.append(cur[1])
            cur = next(it, None)
        else:
            strides.append(isz)
    return x._view(0, shape, tuple(strides))


_UFUNCS = {"matmul": np.matmul, "vecdot": np.vecdot, "matvec": np.matvec, "vecmat": np.vecmat}


def _plain_out(out):
    """A gufunc's ``out=``: None, an array or a 1-tuple holding one (NumPy's errors)."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is None:
        return None
    if not isinstance(out, ndarray):
        raise TypeError("return arrays must be of ArrayType (npgpu.ndarray)")
    if out._ro:
        fail_unless_writeable(out, "output array")
    return out


def _loop_dtype(name, dts, dtype, casting, out):
    """The dtype a product gufunc computes in: NumPy's type resolution with its casting errors
    (the first thing NumPy checks, before any shape) and ComplexWarnings."""
    uf = _UFUNCS[name]
    rt = _result_dtype(*dts)
    if dtype is not None:
        rt = check_dtype(dtype)
        for i, dt in enumerate(dts):
            if not np.can_cast(dt, rt, casting=casting):
                raise _UFuncInputCastingError(uf, casting, dt, rt, i)
        for dt in dts:
            if dt.kind == "c":
                _copy.warn_complex(rt)
    if out is not None:
        if not np.can_cast(rt, out.dtype, casting=casting):
            raise _UFuncOutputCastingError(uf, casting, rt, out.dtype, 0)
        if rt.kind == "c":
            _copy.warn_complex(out.dtype)
    return rt


def _out_fits(out, batch, core):
    """Does ``out`` take a result of ``batch + core`` (NumPy's gufunc rule: the core dims
    equal, the loop dims of the inputs broadcast to out's own, leading ones aside)?"""
    nc = len(core)
    if out.ndim < nc or out.shape[out.ndim - nc:] != core:
        return False
    ob = out.shape[:out.ndim - nc]
    try:
        loop = np.broadcast_shapes(batch, ob)
    except ValueError:
        return False
    k = len(loop) - len(ob)
    return loop[k:] == ob and all(n == 1 for n in loop[:k])


def _numpy_out_error(name, a, b, out, rt, casting, kw=None):
    """NumPy's error for an ``out=`` of the wrong shape: its gufunc on data-free stand-ins."""
    stand = [_host_stand_in(x.shape, x.dtype) for x in (a, b)]
    o = _host_stand_in(out.shape, out.dtype, writeable=True)
    try:
        _UFUNCS[name](*stand, out=o, dtype=rt, casting=casting, **(kw or {}))
    except ValueError as e:
        return ValueError(str(e))
    return ValueError(f"{name}: output array of shape {out.shape} does not fit the result")


def _product_into(name, a, b, a2, b2, core, out, rt, casting, kw=None):
    """The gufunc product ``a2 @ b2`` (both >= 2-D, batch dims broadcast) of result core shape
    ``core`` (its matrix dims, size-1 ones squeezed away): a new array, or written into
    ``out`` (whose loop dims may be more than the inputs': the result is broadcast there)."""
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    full = batch + (a2.shape[-2], b2.shape[-1])
    shape = batch + core
    if out is None:
        res = empty_array(shape, rt, "C")
        _matmul_nd(a2, b2, rt, _insert_ones(res, full))
        return res
    if out.shape != shape:
        if not _out_fits(out, batch, core):
            raise _numpy_out_error(name, a, b, out, rt, casting, kw)
        res = empty_array(shape, rt, "C")
        _matmul_nd(a2, b2, rt, _insert_ones(res, full))
        _copy.copy_into(out, res)
        return out
    _matmul_nd(a2, b2, rt, _insert_ones(out, full))
    return out


def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True):
    """Matrix product with NumPy's ``matmul`` rules (1-D promotion, broadcast batch dims)."""
    if out is None and dtype is None and type(x1) is ndarray and type(x2) is ndarray:
        p = _FAST.get((x1.dtype, x2.dtype, x1.shape, x2.shape, x1._strides, x2._strides))
        if p is not None:
            res = _fresh(p[0], p[1], p[2], p[3], p[4])
            p[5](res._ptr, x1._ptr, x2._ptr)
            return res
    res = _override("matmul", x1, x2, out, casting=casting, order=order, dtype=dtype,
                    subok=subok)
    if res is not _overrides.NONE:
        return res
    out = _plain_out(out)
    a = asarray(x1)
    b = asarray(x2)
    rt = _loop_dtype("matmul", (a.dtype, b.dtype), dtype, casting, out)
    check_core_ndim("matmul", _SIG, (a, 1), (b, 1))
    a2 = a.reshape(1, a.shape[0]) if a.ndim == 1 else a
    b2 = b.reshape(b.shape[0], 1) if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise gufunc_core_error("matmul", _SIG, b2.shape[-2], a2.shape[-1])
    try:
        batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    except ValueError:
        raise gufunc_broadcast_error((a.shape, b.shape),
                                     (a2.shape[-2], b2.shape[-1])) from None
    core = ((a2.shape[-2],) if a.ndim > 1 else ()) + ((b2.shape[-1],) if b.ndim > 1 else ())
    if out is not None:
        return _product_into("matmul", a, b, a2, b2, core, out, rt, casting)
    res = empty_array(batch + core, rt, "C")
    plan = _matmul_nd(a2, b2, rt, _insert_ones(res, batch + (a2.shape[-2], b2.shape[-1])))
    if (plan is not None and dtype is None and a2._ptr == a._ptr
            and b2._ptr == b._ptr and type(x1) is ndarray and type(x2) is ndarray):
        if len(_FAST) >= 4096:
            _FAST.clear()
        _FAST[(a.dtype, b.dtype, a.shape, b.shape, a._strides, b._strides)] = (
            res.shape, res._strides, res.size * res.itemsize, rt, res._f_contig, plan)
    return res


def dot(a, b, out=None):
    """NumPy's ``dot``: scalar product for 0-d, matmul up to 2-D b, sum over a[-1], b[-2] beyond."""
    a = asarray(a)
    b = asarray(b)
    if out is not None:
        rt = _result_dtype(a.dtype, b.dtype)
        if a.ndim == 0 or b.ndim == 0:
            shape = np.broadcast_shapes(a.shape, b.shape)
        elif b.ndim <= 2:
            shape = a.shape[:-1] + b.shape[:-2] + b.shape[-1:] if b.ndim == 2 else a.shape[:-1]
        else:
            shape = a.shape[:-1] + b.shape[:-2] + b.shape[-1:]
        if (not isinstance(out, ndarray) or out.dtype != rt or out.ndim != len(shape)
                or not out._c_contig or out._ro >= READONLY):
            raise ValueError("output array is not acceptable (must have the right datatype, "
                             "number of dimensions, and be a C-Array)")
        if out.shape != shape:
            raise ValueError("output array has wrong dimensions")
    if a.ndim == 0 or b.ndim == 0:
        return _to_out(_scalar_product(a, b), out)
    if b.ndim <= 2:
        if a.shape[-1] != b.shape[0]:
            raise ValueError(f"shapes {_shape(a.shape)} and {_shape(b.shape)} not aligned: {a.shape[-1]} (dim "
                             f"{a.ndim - 1}) != {b.shape[0]} (dim 0)")
        return matmul(a, b, out=out)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"shapes {_shape(a.shape)} and {_shape(b.shape)} not aligned: {a.shape[-1]} (dim "
                         f"{a.ndim - 1}) != {b.shape[-2]} (dim {b.ndim - 2})")
    r = tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2]))
    if out is not None:
        _copy.copy_into(out, r)
        return out
    return r


def vdot(a, b, /):
    """Dot product of the flattened arrays, the first conjugated."""
    a = asarray(a)
    b = asarray(b)
    if a.size != b.size:
        raise ValueError("cannot reshape array of size %d into shape (%d,)" % (b.size, a.size))
    return dot(conj(a).reshape(-1), b.reshape(-1))


def _scalar_product(a, b):
    """a * b where one is 0-d: an (N, 1) x (1, 1) product (keeps NumPy's array result dtype)."""
    if a.ndim == 0:
        s, v = a, b
    else:
        s, v = b, a
    rt = _result_dtype(a.dtype, b.dtype)
    res = empty_array((v.size, 1), rt, "C")
    vm = v.reshape(v.size, 1)
    sm = s.reshape(1, 1)
    _matmul_nd(vm, sm, rt, res)
    return res.reshape(v.shape)


def inner(a, b, /):
    a = asarray(a)
    b = asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return _scalar_product(a, b)
    if a.shape[-1] != b.shape[-1]:
        # NumPy's message: a dot with b's last two axes swapped
        bs = b.shape if b.ndim < 2 else b.shape[:-2] + (b.shape[-1], b.shape[-2])
        raise ValueError(f"shapes {_shape(a.shape)} and {_shape(bs)} not aligned: {a.shape[-1]} "
                         f"(dim {a.ndim - 1}) != {b.shape[-1]} (dim {max(b.ndim - 2, 0)})")
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def outer(a, b, out=None):
    a = asarray(a).reshape(-1)
    b = asarray(b).reshape(-1)
    return multiply(a.reshape(a.size, 1), b.reshape(1, b.size), out=out)


def _axes_list(ax, ndim):
    if isinstance(ax, (int, np.integer)):
        ax = [ax]
    out = []
    for x in ax:
        x = operator.index(x)
        if not -ndim <= x < ndim:
            from numpy.exceptions import AxisError
            raise AxisError(x, ndim)
        out.append(x % ndim)
    return out


def _tensordot_axes(sa, sb, axes):
    """NumPy's tensordot axes handling (its steps, so its errors): the summed axes of a and b,
    normalized."""
    try:
        iter(axes)
    except Exception:
        axes_a, axes_b = list(range(-axes, 0)), list(range(axes))
    else:
        axes_a, axes_b = axes
    pair = []
    for ax in (axes_a, axes_b):
        try:
            pair.append(list(ax))
        except TypeError:
            pair.append([ax])
    axes_a, axes_b = pair
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("duplicate axes are not allowed in tensordot")
    if len(axes_a) != len(axes_b) or any(sa[i] != sb[j] for i, j in zip(axes_a, axes_b)):
        raise ValueError("shape-mismatch for sum")
    return [i % len(sa) for i in axes_a], [j % len(sb) for j in axes_b]


def tensordot(a, b, axes=2):
    """Sum products over the given axes: transpose+reshape to one matrix product."""
    a = asarray(a)
    b = asarray(b)
    ax_a, ax_b = _tensordot_axes(a.shape, b.shape, axes)
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [i for i in range(b.ndim) if i not in ax_b]
    K = 1
    for i in ax_a:
        K *= a.shape[i]
    Ma = 1
    for i in free_a:
        Ma *= a.shape[i]
    Nb = 1
    for i in free_b:
        Nb *= b.shape[i]
    am = a.transpose(free_a + ax_a).reshape(Ma, K)
    bm = b.transpose(ax_b + free_b).reshape(K, Nb)
    rt = _result_dtype(a.dtype, b.dtype)
    res = empty_array((Ma, Nb), rt, "C")
    _matmul_nd(am, bm, rt, res)
    return res.reshape(tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b))


def _moveaxis_last(x, axis):
    axis = _axes_list(axis, x.ndim)[0]
    order = [i for i in range(x.ndim) if i != axis] + [axis]
    return x.transpose(order)


def vecdot(x1, x2, /, out=None, *, axis=-1, keepdims=False, casting="same_kind", order="K",
           dtype=None, subok=True):
    """Vector dot product over ``axis`` (first argument conjugated), broadcasting the rest;
    NumPy's gufunc options (``keepdims`` puts the reduced axis back, size 1, at ``axis``)."""
    axis = operator.index(axis)         # NumPy's TypeError for a tuple
    if not isinstance(keepdims, (bool, np.bool_)):
        raise TypeError("'keepdims' must be a boolean")
    res = _override("vecdot", x1, x2, out, axis=axis, keepdims=keepdims, casting=casting,
                    order=order, dtype=dtype, subok=subok)
    if res is not _overrides.NONE:
        return res
    out = _plain_out(out)
    a0 = asarray(x1)
    b0 = asarray(x2)
    rt = _loop_dtype("vecdot", (a0.dtype, b0.dtype), dtype, casting, out)
    check_core_ndim("vecdot", "(n),(n)->()", (a0, 1), (b0, 1))
    a = _moveaxis_last(a0, axis)
    b = _moveaxis_last(b0, axis)
    if a.shape[-1] != b.shape[-1]:
        raise gufunc_core_error("vecdot", "(n),(n)->()", b.shape[-1], a.shape[-1])
    try:
        batch = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"[original->remapped]: {_shape(a0.shape)}->{_shape(a.shape[:-1])} "
                         f"{_shape(b0.shape)}->{_shape(b.shape[:-1])}  and requested "
                         "shape ()") from None
    kept = normalize_axis_index(axis, len(batch) + 1) if keepdims else None
    o = out
    if out is not None and keepdims:
        if out.ndim != len(batch) + 1 or out.shape[kept] != 1:
            raise _numpy_out_error("vecdot", a0, b0, out, rt, casting,
                                   {"axis": axis, "keepdims": True})
        o = out.reshape(out.shape[:kept] + out.shape[kept + 1:])
    r = _product_into("vecdot", a0, b0, conj(a)[..., None, :], b[..., :, None], (), o, rt,
                      casting, {"axis": axis})
    if out is not None:
        return out
    return r.reshape(r.shape[:kept] + (1,) + r.shape[kept:]) if keepdims else r


def _check_vector_gufunc(name, sig, a, b, na, nb):
    """NumPy's checks for matvec (na, nb = 2, 1) and vecmat (1, 2), in its order: operand
    dimensions, the shared core dimension n (a's last, b's first core one), batch broadcast."""
    check_core_ndim(name, sig, (a, na), (b, nb))
    if b.shape[-nb] != a.shape[-1]:
        raise gufunc_core_error(name, sig, b.shape[-nb], a.shape[-1])
    try:
        np.broadcast_shapes(a.shape[:a.ndim - na], b.shape[:b.ndim - nb])
    except ValueError:
        m = a.shape[-2] if na == 2 else b.shape[-1]
        raise gufunc_broadcast_error((a.shape, b.shape), (m,), (na, nb)) from None


def matvec(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True):
    """Matrix-vector products over the last axes, batch dims broadcast (NumPy's gufunc)."""
    res = _override("matvec", x1, x2, out, casting=casting, order=order, dtype=dtype,
                    subok=subok)
    if res is not _overrides.NONE:
        return res
    out = _plain_out(out)
    a = asarray(x1)
    b = asarray(x2)
    rt = _loop_dtype("matvec", (a.dtype, b.dtype), dtype, casting, out)
    _check_vector_gufunc("matvec", "(m,n),(n)->(m)", a, b, 2, 1)
    return _product_into("matvec", a, b, a, b[..., :, None], (a.shape[-2],), out, rt, casting)


def vecmat(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True):
    """Vector-matrix products (the vector conjugated), batch dims broadcast (NumPy's gufunc)."""
    res = _override("vecmat", x1, x2, out, casting=casting, order=order, dtype=dtype,
                    subok=subok)
    if res is not _overrides.NONE:
        return res
    out = _plain_out(out)
    a = asarray(x1)
    b = asarray(x2)
    rt = _loop_dtype("vecmat", (a.dtype, b.dtype), dtype, casting, out)
    _check_vector_gufunc("vecmat", "(n),(n,m)->(m)", a, b, 1, 2)
    return _product_into("vecmat", a, b, conj(a)[..., None, :], b, (b.shape[-1],), out, rt,
                         casting)


def _to_out(r, out):
    if out is None:
        return r
    if out._ro:
        fail_unless_writeable(out, "output array")
    if out.shape != r.shape:
        raise ValueError(f"output shape {out.shape} does not match result shape {r.shape}")
    _copy.copy_into(out, r)
    return out


def _sum_last(x, dt):
    """Sum over the last axis as a product with a ones vector (one mechanism: the GEMM)."""
    return matmul(x, ones(x.shape[-1], dt), dtype=dt, casting="unsafe")   # as sum(dtype=)


def _sum_dtype(dt):
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return np.dtype(np.int64)
    if dt.kind == "u" and dt.itemsize < 8:
        return np.dtype(np.uint64)
    return dt


def diagonal(a, offset=0, axis1=0, axis2=1):
    """A view of the diagonal (the axes removed, the diagonal last), as NumPy's ``diagonal``."""
    a = asarray(a)
    offset = operator.index(offset)      # a NumPy integer too (Dask's chunk offsets)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    ax1 = normalize_axis_index(operator.index(axis1), a.ndim, "axis1")   # NumPy's message
    ax2 = normalize_axis_index(operator.index(axis2), a.ndim, "axis2")
    if ax1 == ax2:
        raise ValueError("axis1 and axis2 cannot be the same")
    n1, n2 = a.shape[ax1], a.shape[ax2]
    s1, s2 = a._strides[ax1], a._strides[ax2]
    off = 0
    if offset >= 0:
        length = max(0, min(n1, n2 - offset))
        if length:
            off = offset * s2
    else:
        length = max(0, min(n1 + offset, n2))
        if length:
            off = -offset * s1
    rest = [i for i in range(a.ndim) if i not in (ax1, ax2)]
    shape = tuple(a.shape[i] for i in rest) + (length,)
    strides = tuple(a._strides[i] for i in rest) + (s1 + s2,)
    d = a._view(off, shape, strides)
    d._ro = READONLY           # NumPy: diagonal() is a read-only view
    return d


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    a = asarray(a)
    d = diagonal(a, offset, axis1, axis2)
    dt = _sum_dtype(d.dtype) if dtype is None else check_dtype(dtype)
    if isinstance(out, ndarray) and out.shape != d.shape[:-1]:
        # NumPy's error (its sum's): NumPy's trace on data-free stand-ins
        try:
            np.trace(_host_stand_in(a.shape, a.dtype), offset, axis1, axis2, dtype,
                     _host_stand_in(out.shape, out.dtype, writeable=True))
        except ValueError as e:
            raise ValueError(str(e)) from None
    r = _sum_last(d, dt)
    return _to_out(r, out)


def kron(a, b):
    """Kronecker product: a broadcast product of interleaved reshapes."""
    a = asarray(a)
    b = asarray(b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    ia = tuple(x for n in sa for x in (n, 1))
    ib = tuple(x for n in sb for x in (1, n))
    r = multiply(a.reshape(ia), b.reshape(ib))
    return r.reshape(tuple(x * y for x, y in zip(sa, sb)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross product of 2- or 3-component vectors (NumPy's rules, 2-D vectors give the z part)."""
    a = asarray(a)
    b = asarray(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    axisa = normalize_axis_index(axisa, a.ndim, msg_prefix="axisa")
    axisb = normalize_axis_index(axisb, b.ndim, msg_prefix="axisb")
    a = _moveaxis_last(a, axisa)
    b = _moveaxis_last(b, axisb)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    shape = np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    if a.shape[-1] == 3 or b.shape[-1] == 3:
        axisc = normalize_axis_index(axisc, len(shape) + 1, msg_prefix="axisc")
    rt = _result_dtype(a.dtype, b.dtype)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return subtract(multiply(a0, b1), multiply(a1, b0)).astype(rt, copy=False)
    # NumPy's order of operations (so bool input fails on its first one: negative, else subtract)
    res = empty_array(shape + (3,), rt, "C")
    if a.shape[-1] == 3 and b.shape[-1] == 3:
        a2, b2 = a[..., 2], b[..., 2]
        subtract(multiply(a1, b2), multiply(a2, b1), out=res[..., 0])
        subtract(multiply(a2, b0), multiply(a0, b2), out=res[..., 1])
    elif a.shape[-1] == 3:        # b has z = 0
        a2 = a[..., 2]
        _copy.copy_into(res[..., 0], negative(multiply(a2, b1)))
        _copy.copy_into(res[..., 1], multiply(a2, b0))
    else:                         # a has z = 0
        b2 = b[..., 2]
        _copy.copy_into(res[..., 0], multiply(a1, b2))
        _copy.copy_into(res[..., 1], negative(multiply(a0, b2)))
    subtract(multiply(a0, b1), multiply(a1, b0), out=res[..., 2])
    order = list(range(res.ndim - 1))
    order.insert(axisc, res.ndim - 1)
    return res.transpose(order)


def multi_dot(arrays, *, out=None):
    """Chain product in the cheapest parenthesisation (dynamic programming on the shapes);
    NumPy's rules: two arrays are one :func:`dot`, and ``out=`` is ``dot``'s (the exact
    dtype of the 2-D chain's result, C-contiguous)."""
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return dot(arrays[0], arrays[1], out=out)
    arrays = [asarray(x) for x in arrays]
    first_1d = arrays[0].ndim == 1
    last_1d = arrays[-1].ndim == 1
    if first_1d:
        arrays[0] = arrays[0].reshape(1, -1)
    if last_1d:
        arrays[-1] = arrays[-1].reshape(-1, 1)
    for x in arrays:
        if x.ndim != 2:
            from ._common import LinAlgError
            raise LinAlgError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    if out is not None:
        rt = _result_dtype(*[x.dtype for x in arrays])
        shape = (arrays[0].shape[0], arrays[-1].shape[1])
        if (not isinstance(out, ndarray) or out.dtype != rt or out.ndim != 2
                or not out._c_contig or out._ro >= READONLY):
            raise ValueError("output array is not acceptable (must have the right datatype, "
                             "number of dimensions, and be a C-Array)")
        if out.shape != shape:
            raise ValueError("output array has wrong dimensions")
    dims = [arrays[0].shape[0]] + [x.shape[1] for x in arrays]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j] = c
                    split[i][j] = k

    def chain(i, j):
        if i == j:
            return arrays[i]
        k = split[i][j]
        return dot(chain(i, k), chain(k + 1, j))

    r = chain(0, n - 1)
    if out is not None:
        _copy.copy_into(out, r)
        r = out
    if first_1d and last_1d:
        return r.reshape(())
    if first_1d or last_1d:
        return r.reshape(-1)
    return r
