"""Numerical ranges and grids: linspace, logspace, geomspace, meshgrid, indices.

Each is one elementwise kernel over the element's linear index (see creation's device-side
constructors); only scalar metadata is computed on the host, with NumPy's scalar rules."""
import operator as _operator

import numpy as np

from . import _array_api as _api
from ._codegen import elementwise as _ew
from ._core.dtypes import check_dtype
from ._core.ndarray import empty_array, ndarray
from .creation import _BOOL, _I64, _from_index, _op, _rnd, _run, arange, asarray, empty, full
from .manipulation import broadcast_arrays, broadcast_to, expand_dims, moveaxis


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
    if device is not None:
        with _api.device_scope(device):
            return linspace(start, stop, num, endpoint, retstep, dtype, axis)
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
    if isinstance(base, ndarray) and base.ndim:
        # NumPy: a non-scalar base broadcasts with start and stop (ndmin) and gets an axis at
        # `axis`; a scalar one stays a scalar (a Python float weak: float16 y stays float16)
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
        return tuple(x.copy() for x in output)
    return output               # NumPy returns its list of views as it is


def indices(dimensions, dtype=int, sparse=False):
    dimensions = tuple(_operator.index(d) for d in dimensions)
    dt = check_dtype(dtype)
    N = len(dimensions)
    ones_ = (1,) * N
    if not sparse and any(d < 0 for d in dimensions):
        raise ValueError("negative dimensions are not allowed")     # NumPy's np.empty's
    res = () if sparse else empty_array((N,) + dimensions, dt)
    for i, dim in enumerate(dimensions):
        idx = arange(dim, dtype=dt).reshape(ones_[:i] + (dim,) + ones_[i + 1:])
        if sparse:
            res = res + (idx,)
        else:
            res[i] = idx
    return res