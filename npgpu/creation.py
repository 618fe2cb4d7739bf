"""Array creation: empty/zeros/ones/full (and _like), asarray/array, contiguous copies."""
import numpy as np

from ._core import copy as _copy
from ._core import layout as _layout
from ._core import transfer as _transfer
from ._core.dtypes import check_dtype
from ._core.ndarray import empty_array, ndarray

_F64 = np.dtype(np.float64)


def _order(order):
    if order in ("C", None, "K", "A"):
        return "C"
    if order == "F":
        return "F"
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def empty(shape, dtype=float, order="C"):
    if shape.__class__ is int and shape >= 0 and order == "C":     # the hot path: empty(n)
        return empty_array((shape,), check_dtype(_F64 if dtype is None else dtype), "C")
    shape = _layout.normalize_shape(shape)
    return empty_array(shape, check_dtype(_F64 if dtype is None else dtype), _order(order))


def _like_args(a, dtype, order, shape):
    dt = a.dtype if dtype is None else check_dtype(dtype)
    if order in ("K", "A", None):
        order = "F" if isinstance(a, ndarray) and a._f_contig and not a._c_contig else "C"
    return (a.shape if shape is None else shape), dt, order


def empty_like(a, dtype=None, order="K", subok=None, shape=None):
    a = asarray(a)
    shape, dt, order = _like_args(a, dtype, order, shape)
    return empty(shape, dt, order)


def zeros(shape, dtype=float, order="C"):
    return full(shape, 0, _F64 if dtype is None else dtype, order)


def ones(shape, dtype=float, order="C"):
    return full(shape, 1, _F64 if dtype is None else dtype, order)


def full(shape, fill_value, dtype=None, order="C"):
    """``numpy.full``: without ``dtype``, the dtype of ``asarray(fill_value)``; an array
    ``fill_value`` is broadcast (one copy kernel)."""
    if not isinstance(fill_value, ndarray) and np.ndim(fill_value) != 0:
        fill_value = asarray(fill_value)
    if dtype is None:
        dtype = fill_value.dtype if isinstance(fill_value, ndarray) else np.asarray(fill_value).dtype
    out = empty(shape, dtype, order)
    _copy.fill(out, fill_value)
    return out


def zeros_like(a, dtype=None, order="K", subok=None, shape=None):
    out = empty_like(a, dtype, order, shape=shape)
    _copy.fill(out, 0)
    return out


def ones_like(a, dtype=None, order="K", subok=None, shape=None):
    out = empty_like(a, dtype, order, shape=shape)
    _copy.fill(out, 1)
    return out


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None):
    out = empty_like(a, dtype, order, shape=shape)
    _copy.fill(out, fill_value)
    return out


def _is_device_foreign(obj):
    return hasattr(obj, "__cuda_array_interface__") and not isinstance(obj, np.ndarray)


def asarray(a, dtype=None, order=None, *, copy=None, blocking=False):
    """Convert to a device array: device arrays pass through; foreign CUDA arrays are wrapped
    without copying (CUDA Array Interface, DLPack); host data is copied to the device."""
    if isinstance(a, ndarray):
        out = a
        if dtype is not None and check_dtype(dtype) != a.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return a.astype(dtype, order=order or "K")
        if copy:
            return a.copy(order=order or "K")
        if order == "C" and not a._c_contig or order == "F" and not a._f_contig:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return a.copy(order=order)
        return out
    if _is_device_foreign(a):
        out = _transfer.from_cuda_array_interface(a)
        return asarray(out, dtype=dtype, order=order, copy=copy)
    if hasattr(a, "__dlpack__") and not isinstance(a, (np.ndarray, np.generic)):
        from ._core.dlpack import from_dlpack
        try:
            out = from_dlpack(a)
        except (BufferError, TypeError, ValueError):
            out = None
        if out is not None:
            return asarray(out, dtype=dtype, order=order, copy=copy)
    if copy is False:
        raise ValueError("Unable to avoid copy while creating a device array from host data.")
    if isinstance(a, (list, tuple)) and any(isinstance(x, ndarray) for x in _flat_items(a)):
        from .manipulation import stack
        return asarray(stack([asarray(x) for x in a]), dtype=dtype, order=order)
    host = np.asarray(a, dtype=dtype)
    if host.dtype == object:
        raise TypeError(f"npgpu does not support dtype object (from {type(a).__name__})")
    return _transfer.from_host(host, order=order or "K")


def _flat_items(seq):
    for x in seq:
        if isinstance(x, (list, tuple)):
            yield from _flat_items(x)
        else:
            yield x


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, blocking=False):
    out = asarray(obj, dtype=dtype, order=None if order == "K" else order, copy=copy)
    if copy and isinstance(obj, ndarray) and out is obj:
        out = obj.copy(order=order)
    if out.ndim < ndmin:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def ascontiguousarray(a, dtype=None):
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape(1)
    return a if a._c_contig else a.copy(order="C")


def asfortranarray(a, dtype=None):
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape(1)
    return a if a._f_contig else a.copy(order="F")


def copy(a, order="K", subok=False):
    return asarray(a).copy(order=order)


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    """Copy a device array to the host (NumPy); other inputs go through ``numpy.asarray``."""
    return _transfer.to_host(a, stream=stream, order=order, out=out)


# ==== values computed on the device ==========================================================
# Every range / matrix constructor below is one elementwise kernel whose op reads the element's
# C-order linear index (elementwise.INDEX) and scalar parameters; only tiny scalar metadata
# (lengths, first/second value, step) is computed on the host, with NumPy's own scalar rules.
import math as _math
import operator as _operator

from ._codegen import elementwise as _ew

_I64 = np.dtype(np.int64)
_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_BOOL = np.dtype(np.bool_)
_ops_cache = {}


def _op(expr, nin, nout=1):
    """The ScalarOp of ``expr`` (cached: its source is its key)."""
    key = (expr, nin, nout)
    op = _ops_cache.get(key)
    if op is None:
        op = _ops_cache[key] = _ew.ScalarOp.from_expr("creation:" + expr, nin, expr, nout)
    return op


def _run(expr, inputs, loop_in, out, loop_out=None, name="create"):
    """Launch ``expr`` (of x0..) over ``out`` (C-contiguous when an input is INDEX)."""
    _ew.launch(_op(expr, len(inputs)), inputs, list(loop_in), [out],
               [out.dtype if loop_out is None else loop_out], name=name)
    return out


def _rnd(dt):
    """Template rounding a computed value to ``dt`` and back to its compute type: NumPy rounds
    every float16 ufunc result to float16 (we compute float16 in float32)."""
    if dt == _F16:
        return "float32(float16({}))"
    return _ew.type_name(dt) + "({})"


def _from_index(dt, var):
    """``var`` (an int64 index) converted to ``dt`` the way NumPy's arange fill does."""
    if dt == _F16:
        return f"float32(float16(float32({var})))"
    if dt.kind == "c":
        return f"{_ew.type_name(dt)}({_ew.type_name(np.dtype(f'f{dt.itemsize // 2}'))}({var}))"
    return f"{_ew.type_name(dt)}({var})"


# ---- arange -----------------------------------------------------------------------------------
def _arange_dtype(values):
    # NumPy: at least the default integer, promoted with each argument's type
    dts = [_I64]
    for v in values:
        if isinstance(v, ndarray):
            raise TypeError("arange() arguments must be scalars, not npgpu arrays")
        dts.append(np.asarray(v).dtype)
    return np.result_type(*dts)


def _arange_length(start, stop, step):
    try:
        q = (stop - start) / step
    except ZeroDivisionError:
        raise ZeroDivisionError("division by zero") from None
    # NumPy: min of the ceilings of both parts only when the quotient itself is complex
    parts = (q.real, q.imag) if isinstance(q, (complex, np.complexfloating)) else (q,)
    n = None
    for p in parts:
        p = float(p)
        if _math.isnan(p):
            raise ValueError("arange: cannot compute length")
        if _math.isinf(p) or p > 2 ** 63 - 1:
            raise ValueError("Maximum allowed size exceeded")
        c = _math.ceil(p)
        n = c if n is None else min(n, c)
    return max(n, 0)


def arange(start, stop=None, step=None, dtype=None, *, device=None, like=None):
    """``numpy.arange``: values ``first + i*delta`` computed in the result dtype on the device,
    where ``first`` and the second value are ``start`` and ``start + step`` cast to it and
    ``delta`` is their difference in it (NumPy's fill rule)."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if dtype is None:
        dt = check_dtype(_arange_dtype([start, stop, step]))
    else:
        _arange_dtype([start, stop, step])
        dt = check_dtype(dtype)
    if step == 0:
        raise ZeroDivisionError("division by zero")
    n = _arange_length(start, stop, step)
    if dt.kind == "b" and n > 2:
        raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
    out = empty_array((n,), dt)
    if n == 0:
        return out
    nxt = start + step
    # the first two values are NumPy's setitem of start and start+step into the dtype
    first = np.empty((), dt)
    second = np.empty((), dt)
    with np.errstate(all="ignore"):
        first[()] = start
        second[()] = nxt if n > 1 else start
        first, second = first[()], second[()]
        if dt.kind in "biu":
            # integer fill arithmetic wraps: do it in int64 (same bits modulo 2**n)
            f, s = first.astype(np.int64), second.astype(np.int64)
            d = np.int64(s - f)
            return _run("x1 if x0 == 0 else (x2 if x0 == 1 else x1 + x0 * x3)",
                        [_ew.INDEX, f, s, d], [_I64] * 4, out, _I64, name="arange")
        cdt = _ew.compute_dtype(dt)
        f, s = cdt.type(first), cdt.type(second)
        d = cdt.type(s - f)
    if dt.kind == "c":
        ft = np.dtype(f"f{dt.itemsize // 2}")
        tn = _ew.type_name(ft)
        expr = (f"x1 if x0 == 0 else (x2 if x0 == 1 else complex({tn}(x1.real + {tn}(x0) * x3.real), "
                f"{tn}(x1.imag + {tn}(x0) * x3.imag)))")
    else:
        tn = _ew.type_name(cdt)
        expr = f"x1 if x0 == 0 else (x2 if x0 == 1 else {tn}(x1 + {tn}(x0) * x3))"
    return _run(expr, [_ew.INDEX, f, s, d], [_I64, cdt, cdt, cdt], out, dt, name="arange")


# ---- linspace / logspace / geomspace ------------------------------------------------------------
def _num(num):
    num = _operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    return num


def _operand(x):
    """Scalars stay host scalars (kernel parameters); anything else becomes a device array."""
    if isinstance(x, ndarray):
        return x
    if isinstance(x, (int, float, complex, np.generic)) or (isinstance(x, np.ndarray) and x.ndim == 0):
        return x[()] if isinstance(x, np.ndarray) else x
    return asarray(x)


def _shape(x):
    return x.shape if isinstance(x, ndarray) else np.shape(x)


def _key(x):
    """What np.result_type needs (Python scalars stay weak, NEP 50)."""
    return x.dtype if isinstance(x, (ndarray, np.generic)) else x


def _device_any(mask):
    """``bool(mask.any())`` for a device bool array, by halving OR-kernels (log2(n) launches);
    only the final bool comes back to the host."""
    m = mask.copy().reshape(-1) if mask.ndim != 1 or not mask._c_contig else mask.copy()
    n = m.size
    while n > 1:
        h = (n + 1) // 2
        lo, hi = m[:n - h], m[h:n]
        _run("x0 or x1", [lo, hi], [_BOOL, _BOOL], lo, name="any")
        n = h
    return bool(m[0]) if m.size else False


def _linspace_parts(start, stop, num, endpoint, dt):
    """(start, stop, delta, step, step_is_zero) in ``dt``; host scalars when both ends are
    scalars, else device arrays of the broadcast shape (computed by a kernel)."""
    div = (num - 1) if endpoint else num
    if not isinstance(start, ndarray) and not isinstance(stop, ndarray):
        with np.errstate(all="ignore"):
            s0, s1 = np.asarray(start, dt)[()], np.asarray(stop, dt)[()]
            delta = np.subtract(s1, s0, dtype=dt)
            step = delta / div if div > 0 else dt.type(np.nan)
        return s0, s1, delta, step, bool(div > 0 and step == 0), div
    shape = np.broadcast_shapes(_shape(start), _shape(stop))
    s0 = full(shape, start, dt) if not isinstance(start, ndarray) else start.astype(dt)
    s1 = full(shape, stop, dt) if not isinstance(stop, ndarray) else stop.astype(dt)
    s0 = broadcast_to(s0, shape).copy()
    s1 = broadcast_to(s1, shape).copy()
    delta = empty(shape, dt)
    step = empty(shape, dt)
    r = _rnd(dt)
    ct = _ew.compute_dtype(dt)
    divv = ct.type(div if div > 0 else 1)
    body = f"d = {r.format('x1 - x0')}\nreturn d, {r.format('d / x2')}"
    _ew.launch(_op(body, 3, 2), [s0, s1, divv], [dt, dt, dt], [delta, step], [dt, dt], name="linspace_step")
    if div <= 0:
        step.fill(np.nan)
        return s0, s1, delta, step, False, div
    zero = empty(shape, _BOOL)
    _run("x0 == 0", [step], [dt], zero, name="linspace_zero")
    return s0, s1, delta, step, _device_any(zero), div


def _linspace_fill(out, start, stop, delta, step, step_zero, div, num, endpoint, dt, integer):
    """The kernel: out (C-contiguous, shape (num, *S)) = NumPy's linspace formula at row k."""
    inner = max(1, out.size // num) if num else 1
    r = _rnd(dt)
    lines = [f"k = x0 // {inner}", f"y = {_from_index(dt, 'k')}"]
    if div > 0 and step_zero:
        lines += [f"y = {r.format('y / x5')}", f"y = {r.format('y * x3')}"]
    elif div > 0:
        lines.append(f"y = {r.format('y * x4')}")
    else:
        lines.append(f"y = {r.format('y * x3')}")
    lines.append(f"y = {r.format('y + x1')}")
    if endpoint and num > 1:
        lines.append(f"if k == {num - 1}:\n    y = x2")
    if integer:
        # np.floor without going through an integer (no overflow for large values)
        lines.append("f = math.fmod(y, 1.0)\ny = y - f\nif f < 0:\n    y = y - 1.0")
    lines.append("return y")
    ct = _ew.compute_dtype(dt)
    divv = ct.type(div if div > 0 else 1)
    ins = [_ew.INDEX, start, stop, delta, step, divv]
    # array ends broadcast along the rows (INDEX is still the output's linear index)
    ins = [x.reshape((1,) + x.shape) if isinstance(x, ndarray) else x for x in ins]
    return _run("\n".join(lines), ins, [_I64, dt, dt, dt, dt, dt], out, dt, name="linspace")


def _inexact_dtype(*keys):
    dt = np.result_type(*keys)
    if dt.kind not in "fc":
        dt = np.result_type(dt, 0.0)
    return check_dtype(dt)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    num = _num(num)
    start, stop = _operand(start), _operand(stop)
    dt = _inexact_dtype(_key(start), _key(stop))
    odt = dt if dtype is None else check_dtype(dtype)
    integer = odt.kind in "iu"
    if integer and dt.kind == "c":
        raise TypeError("ufunc 'floor' not supported for the input types (complex linspace with an "
                        f"integer dtype {odt})")
    s0, s1, delta, step, step_zero, div = _linspace_parts(start, stop, num, endpoint, dt)
    shape = (num,) + _shape(delta)
    y = empty_array(shape, dt)
    if y.size:
        _linspace_fill(y, s0, s1, delta, step, step_zero, div, num, endpoint, dt, integer)
    if axis != 0:
        y = moveaxis(y, 0, axis)
    if odt != dt:
        y = y.astype(odt)
    if retstep:
        return y, step
    return y


def _rkey(x):
    """Operand key for ``ufunc.resolve_dtypes`` (Python scalars stay weak types, NEP 50)."""
    if isinstance(x, (ndarray, np.generic)):
        return x.dtype
    return np.dtype(np.bool_) if isinstance(x, bool) else type(x)


def _power(base, y):
    """base ** y (NumPy's power loop) into a new array, broadcast."""
    loop = np.power.resolve_dtypes((_rkey(base), y.dtype, None))
    out = empty(np.broadcast_shapes(base.shape if isinstance(base, ndarray) else (), y.shape), loop[2])
    if not isinstance(base, ndarray):
        base = loop[0].type(base)
    return _run("x0 ** x1", [base, y], loop[:2], out, loop[2], name="power")


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    num = _num(num)
    start, stop, base = _operand(start), _operand(stop), _operand(base)
    if isinstance(base, ndarray) or isinstance(start, ndarray) or isinstance(stop, ndarray):
        # NumPy: ndmin so that start, stop and base broadcast; base gets an axis at `axis`
        nd = len(np.broadcast_shapes(*(x.shape if isinstance(x, ndarray) else () for x in (start, stop, base))))
        start, stop, base = (asarray(x) if not isinstance(x, ndarray) else x for x in (start, stop, base))
        start, stop, base = (x.reshape((1,) * (nd - x.ndim) + x.shape) for x in (start, stop, base))
        y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
        base = expand_dims(base, axis)
    else:
        y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    out = _power(base, y)
    return out if dtype is None else out.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    num = _num(num)
    start, stop = _operand(start), _operand(stop)
    scalar = not isinstance(start, ndarray) and not isinstance(stop, ndarray)
    # NumPy: result_type(asanyarray(start), asanyarray(stop), float(num), zeros((), dtype))
    dt = check_dtype(np.result_type(*(x.dtype if isinstance(x, ndarray) else np.asarray(x)
                                       for x in (start, stop)), float(num), np.zeros((), dtype)))
    odt = dt if dtype is None else check_dtype(dtype)
    if scalar:
        with np.errstate(all="ignore"):
            s0, s1 = np.asarray(start, dt)[()], np.asarray(stop, dt)[()]
            if s0 == 0 or s1 == 0:
                raise ValueError("Geometric sequence cannot include zero")
            sign = np.sign(s0)
            s0 = s0 / sign
            s1 = s1 / sign
            l0, l1 = np.log10(s0), np.log10(s1)
    else:
        shape = np.broadcast_shapes(_shape(start), _shape(stop))
        a = broadcast_to(asarray(start).astype(dt), shape)
        b = broadcast_to(asarray(stop).astype(dt), shape)
        zero = empty(shape, _BOOL)
        _run("x0 == 0 or x1 == 0", [a, b], [dt, dt], zero, name="geomspace_zero")
        if _device_any(zero):
            raise ValueError("Geometric sequence cannot include zero")
        s0, s1, sign, l0, l1 = (empty(shape, dt) for _ in range(5))
        fl = "cmath" if dt.kind == "c" else "math"
        sg = "x0 / abs(x0)" if dt.kind == "c" else "(1.0 if x0 > 0 else -1.0)"
        r = _rnd(dt)
        body = (f"sg = {r.format(sg)}\na = {r.format('x0 / sg')}\nb = {r.format('x1 / sg')}\n"
                f"return a, b, sg, {r.format(fl + '.log10(a)')}, {r.format(fl + '.log10(b)')}")
        _ew.launch(_op(body, 2, 5), [a, b], [dt, dt], [s0, s1, sign, l0, l1], [dt] * 5,
                   name="geomspace_prep")
    res = logspace(l0, l1, num=num, endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:
        res[0] = s0
        if num > 1 and endpoint:
            res[-1] = s1
    fixed = empty_array(res.shape, dt)
    sgn = sign.reshape((1,) + sign.shape) if isinstance(sign, ndarray) else sign
    _run(_rnd(dt).format("x0 * x1"), [res, sgn], [dt, dt], fixed, dt, name="geomspace_sign")
    if axis != 0:
        fixed = moveaxis(fixed, 0, axis)
    return fixed if odt == dt else fixed.astype(odt)


# ---- matrices ----------------------------------------------------------------------------------
def _mn(N, M):
    N = _operator.index(N)
    M = N if M is None else _operator.index(M)
    if N < 0 or M < 0:
        raise ValueError("negative dimensions are not allowed")
    return N, M


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """Zeros, then one fill kernel on the diagonal (a strided view)."""
    N, M = _mn(N, M)
    k = _operator.index(k)
    out = zeros((N, M), dtype, order)
    diagonal = _diagonal_view(out, k)
    if diagonal.size:
        _copy.fill(diagonal, 1)
    return out


def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=float if dtype is None else dtype)


def tri(N, M=None, k=0, dtype=float, *, like=None):
    """``out[i, j] = j <= i + k``: one INDEX kernel."""
    N, M = _mn(N, M)
    k = _operator.index(k)
    out = empty_array((N, M), check_dtype(_F64 if dtype is None else dtype))
    if out.size:
        _run("(x0 % x2) <= (x0 // x2) + x1", [_ew.INDEX, np.int64(k), np.int64(M)],
             [_I64, _I64, _I64], out, _BOOL, name="tri")
    return out


def _tri_mask(m, k, lower):
    a = asarray(m)
    if a.ndim < 2:
        raise ValueError(f"input array must be at least 2-d (got {a.ndim}-d)") if a.ndim else \
            ValueError("input array must be at least 1-d")
    n, mm = a.shape[-2], a.shape[-1]
    out = empty_array(a.shape, a.dtype)
    if out.size:
        cond = "<=" if lower else ">="
        zero = "False" if a.dtype.kind == "b" else f"{_ew.type_name(_ew.compute_dtype(a.dtype))}(0)"
        # the matrix shape is a parameter, not a literal: one kernel serves every shape
        expr = f"x1 if (x0 % x3) {cond} ((x0 // x3) % x4) + x2 else {zero}"
        _run(expr, [_ew.INDEX, a, np.int64(k), np.int64(mm), np.int64(n)],
             [_I64, a.dtype, _I64, _I64, _I64], out, name="tril" if lower else "triu")
    return out


def tril(m, k=0):
    a = asarray(m)
    if a.ndim < 2:
        a = broadcast_to(a, (a.shape[0], a.shape[0])) if a.ndim == 1 else a
    return _tri_mask(a, _operator.index(k), True)


def triu(m, k=0):
    a = asarray(m)
    if a.ndim == 1:
        a = broadcast_to(a, (a.shape[0], a.shape[0]))
    return _tri_mask(a, _operator.index(k), False)


def _diagonal_view(a, k):
    """The k-th diagonal of 2-D ``a`` as a strided view."""
    n, m = a.shape
    s0, s1 = a._strides
    if k >= 0:
        length = max(0, min(n, m - k))
        off = k * s1 if length else 0
    else:
        length = max(0, min(n + k, m))
        off = -k * s0 if length else 0
    return a._view(off, (length,), (s0 + s1,))


def diag(v, k=0):
    v = asarray(v)
    k = _operator.index(k)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = zeros((n, n), v.dtype)
        if v.size:
            _copy.copy_into(_diagonal_view(out, k), v)
        return out
    if v.ndim == 2:
        # NumPy returns a (read-only) view of the diagonal; npgpu views share memory too
        return _diagonal_view(v, k)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    v = asarray(v).ravel()
    return diag(v, k)


# ---- grids -------------------------------------------------------------------------------------
def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    ndim = len(xi)
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    s0 = (1,) * ndim
    output = [asarray(x).reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        output[0] = output[0].reshape((1, -1) + s0[2:])
        output[1] = output[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        output = broadcast_arrays(*output)
    if copy:
        output = [x.copy() for x in output]
    return tuple(output)


def indices(dimensions, dtype=int, sparse=False):
    dimensions = tuple(_operator.index(d) for d in dimensions)
    dt = check_dtype(dtype)
    N = len(dimensions)
    ones_ = (1,) * N
    res = () if sparse else empty_array((N,) + dimensions, dt)
    for i, dim in enumerate(dimensions):
        idx = arange(dim, dtype=dt).reshape(ones_[:i] + (dim,) + ones_[i + 1:])
        if sparse:
            res = res + (idx,)
        else:
            res[i] = idx
    return res


from .manipulation import broadcast_arrays, broadcast_to, expand_dims, moveaxis  # noqa: E402
