"""Miscellaneous mathematical functions: nan_to_num, real_if_close, interp, convolve, correlate,
sinc, unwrap.

``nan_to_num`` is one elementwise kernel; ``interp`` one kernel binary-searching ``xp`` per
element of ``x`` (NumPy's compiled loop, element for element); ``convolve`` / ``correlate`` one
direct-sum kernel (an output element per thread, NumPy's dot loop and accumulator types).
``sinc`` and ``unwrap`` are NumPy's formulas written with npgpu's own operations (``where``,
``diff``, ``mod``, ``copyto``, ``cumsum``), so their dtypes and rounding are NumPy's.
"""
import builtins
import operator

import numpy as np

from ._codegen import compiler
from ._codegen import elementwise as _ew
from ._codegen.compiler import KernelSource, Param
from ._core import copy as _copy
from ._core import layout as _layout
from ._core.ndarray import empty_array, ndarray
from .creation import array, asarray
from .fusion import Fused
from .logic import where
from .manipulation import copyto
from .reductions import all as _all
from .reductions import diff
from .ufuncs import UFUNCS

_F64 = np.dtype(np.float64)
_C128 = np.dtype(np.complex128)
_I64 = np.dtype(np.int64)


def _arr(a):
    """Launcher values of a 1-d (or flattened C-contiguous) array."""
    n = a.size
    return [0, 0, n, a.itemsize, a._ptr, n, a._strides[0] if a.ndim == 1 else a.itemsize]


def _scalar_values(v):
    return [v.real, v.imag] if v.dtype.kind == "c" else [v]


def _kernel(prefix, lines, params):
    """KernelSource of ``lines`` (the kernel written as ``def KERNEL(``), named by its text."""
    text = "\n".join(lines) + "\n"
    name = _ew._kernel_name(prefix, text)
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


# ---- nan_to_num -------------------------------------------------------------------------------
_NAN_TO_NUM_PART = """
def h_nan_to_num(v, n, p, m):
    if math.isnan(v):
        return n
    if math.isinf(v):
        return p if v > type(v)(0) else m
    return v
"""
_NAN_TO_NUM = {
    "f": _ew.ScalarOp.from_expr("nan_to_num", 4, "h_nan_to_num(x0, x1, x2, x3)",
                                helpers=[_NAN_TO_NUM_PART]),
    "c": _ew.ScalarOp.from_expr("nan_to_num_c", 4,
                                "type(x0)(complex(h_nan_to_num(x0.real, x1, x2, x3), "
                                "h_nan_to_num(x0.imag, x1, x2, x3)))",
                                helpers=[_NAN_TO_NUM_PART]),
}


def _real_dtype(dt):
    return np.dtype(f"f{dt.itemsize // 2}") if dt.kind == "c" else dt


def _fill_operand(v, rdt, shape):
    """``v`` as NumPy's ``copyto(part, v, where=...)`` takes it into a part (real, or a part of
    complex) of ``shape`` and dtype ``rdt``, as a kernel operand: host values converted by
    NumPy's own copyto (its cast errors, NEP 50 for Python scalars, its overflow warnings; a
    scalar stays a NumPy scalar, an array is copied to the device), a device array checked for
    the same_kind cast; an array must broadcast into ``shape`` (leading ones are dropped)."""
    if isinstance(v, ndarray):
        if v.dtype != rdt and not np.can_cast(v.dtype, rdt, "same_kind"):
            what = "scalar" if v.ndim == 0 else "array data"
            raise TypeError(f"Cannot cast {what} from {v.dtype!r} to {rdt!r} according to "
                            "the rule 'same_kind'")
    else:
        h = np.empty(np.shape(v), rdt)
        np.copyto(h, v)
        if h.ndim == 0:
            return h[()]
        v = asarray(h)
    k = 0
    while v.ndim - k > len(shape) and v.shape[k] == 1:      # NumPy drops leading ones
        k += 1
    v = v.reshape(v.shape[k:])
    if not _layout.broadcasts_to(v.shape, shape):
        raise ValueError(f"could not broadcast input array from shape "
                         f"{_layout.c_shape_text(v.shape)} into shape "
                         f"{_layout.c_shape_text(shape)}")
    return v


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """``numpy.nan_to_num``: NaN -> ``nan``, +-inf -> ``posinf`` / ``neginf`` (the dtype's
    largest finite values by default), both parts of complex numbers; each value a scalar or
    an array broadcast into ``x`` (NumPy's ``copyto`` rules); one kernel, in place when
    ``copy`` is false."""
    a = asarray(x, copy=False if copy is False else None)
    fresh = a is not x           # host data was copied to the device: that copy is ours
    if a.dtype.kind not in "fc":
        return a.copy() if copy and not fresh else a
    rdt = _real_dtype(a.dtype)
    info = np.finfo(rdt)
    consts = [_fill_operand(v, rdt, a.shape) for v in
              (nan, info.max if posinf is None else posinf, info.min if neginf is None else neginf)]
    out = empty_array(a.shape, a.dtype) if copy and not fresh else a
    if any(isinstance(c, ndarray) and _copy.may_overlap(out, c) for c in consts):
        consts = [c.copy() if isinstance(c, ndarray) else c for c in consts]
    _ew.launch(_NAN_TO_NUM[a.dtype.kind], [a, *consts], [a.dtype, rdt, rdt, rdt], [out],
               [a.dtype], name="nan_to_num")
    return out


# ---- real_if_close ----------------------------------------------------------------------------
_SMALL = Fused(lambda v, tol: abs(v) < tol, "abs_below")


def real_if_close(a, tol=100):
    """``numpy.real_if_close``: the real part when every imaginary part is below ``tol``
    (machine epsilons when ``tol > 1``); one kernel, one reduction, one bool read back."""
    a = asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    if builtins.bool(_all(_SMALL(a.imag, tol))):
        a = a.real
    return a


# ---- interp -----------------------------------------------------------------------------------
# One part (real, or real / imaginary of complex) of NumPy's interpolation between xp[j] and
# xp[j+1]: if the line through the left point gives NaN, the right one; then the equal end value.
_LERP = """
def h_lerp(slope, v, x0, x1, y0, y1):
    r = slope * (v - x0) + y0
    if math.isnan(r):
        r = slope * (v - x1) + y1
        if math.isnan(r) and y0 == y1:
            r = y0
    return r
"""


def _render_interp(x_dt, cplx):
    v = _ew.cast_expr("X[i]", x_dt, _F64)
    if cplx:
        nan_val = "complex128(complex(v, 0.0))"
        lerp = ["            inv = 1.0 / (XP[j + 1] - XP[j])",
                "            y0 = FP[j]",
                "            y1 = FP[j + 1]",
                "            r = complex128(complex(",
                "                h_lerp((y1.real - y0.real) * inv, v, XP[j], XP[j + 1], y0.real, y1.real),",
                "                h_lerp((y1.imag - y0.imag) * inv, v, XP[j], XP[j + 1], y0.imag, y1.imag)))"]
    else:
        nan_val = "v"
        lerp = ["            slope = (FP[j + 1] - FP[j]) / (XP[j + 1] - XP[j])",
                "            r = h_lerp(slope, v, XP[j], XP[j + 1], FP[j], FP[j + 1])"]
    lines = ["@cuda.jit(device=True)", _LERP.strip("\n"), "", "",
             "def KERNEL(n, OUT, X, XP, FP, lfill, rfill, lset, rset):",
             "    m = XP.shape[0]",
             # the fill values: given ones, else fp's ends (read here: no host read of fp)
             "    lval = lfill if lset else FP[0]",
             "    rval = rfill if rset else FP[m - 1]",
             "    i = cuda.grid(1)",
             "    step = cuda.gridsize(1)",
             "    while i < n:",
             f"        v = {v}",
             "        if m == 1:",
             "            r = lval if v < XP[0] else (rval if v > XP[0] else FP[0])",
             "        elif math.isnan(v):",
             f"            r = {nan_val}",
             "        elif v < XP[0]:",
             "            r = lval",
             "        elif v > XP[m - 1]:",
             "            r = rval",
             "        else:",
             # the last j with XP[j] <= v (what NumPy's search with a guess finds in sorted xp)
             "            lo = 0",
             "            hi = m",
             "            while lo < hi:",
             "                mid = (lo + hi) >> 1",
             "                if v >= XP[mid]:",
             "                    lo = mid + 1",
             "                else:",
             "                    hi = mid",
             "            j = lo - 1",
             "            if j == m - 1 or XP[j] == v:",
             "                r = FP[j]",
             "            else:",
             *["    " + ln for ln in lerp],
             "        OUT[i] = r",
             "        i += step"]
    fdt = _C128 if cplx else _F64
    params = [Param("scalar", _I64), Param("array", fdt, 1, "C"), Param("array", x_dt, 1, "C"),
              Param("array", _F64, 1, "C"), Param("array", fdt, 1, "C"), Param("scalar", fdt),
              Param("scalar", fdt), Param("scalar", np.bool_), Param("scalar", np.bool_)]
    return _kernel("interp", lines, params)


def _render_periodic_sort(fdt):
    # xp (already reduced modulo the period) sorted with fp, and one point wrapped onto each end,
    # as NumPy's argsort + concatenate: each element's rank is counted (stable; NaN last), so
    # this is O(len(xp)^2) work -- sample point sets are small; a sort kernel can replace it
    lines = ["def KERNEL(m, XS, FS, XP, FP, period):",
             "    i = cuda.grid(1)",
             "    step = cuda.gridsize(1)",
             "    while i < m:",
             "        v = XP[i]",
             "        vnan = math.isnan(v)",
             "        r = 0",
             "        for k in range(m):",
             "            w = XP[k]",
             "            wnan = math.isnan(w)",
             "            if (w < v or (vnan and not wnan)) or (k < i and (w == v or (vnan and wnan))):",
             "                r += 1",
             "        XS[r + 1] = v",
             "        FS[r + 1] = FP[i]",
             "        if r == 0:",
             "            XS[m + 1] = v + period",
             "            FS[m + 1] = FP[i]",
             "        if r == m - 1:",
             "            XS[0] = v - period",
             "            FS[0] = FP[i]",
             "        i += step"]
    params = [Param("scalar", _I64), Param("array", _F64, 1, "C"), Param("array", fdt, 1, "C"),
              Param("array", _F64, 1, "C"), Param("array", fdt, 1, "C"), Param("scalar", _F64)]
    return _kernel("interp_period", lines, params)


def _safe_1d(a, dt):
    """``a`` as a contiguous 1-d array of ``dt`` (NumPy's ContiguousFromAny(a, dt, 1, 1))."""
    a = asarray(a)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim > 1
                         else "object of too small depth for desired array")
    return _safe_cast(a, dt)


def _safe_cast(a, dt):
    if not np.can_cast(a.dtype, dt, "safe"):
        raise TypeError(f"Cannot cast array data from {a.dtype!r} to {dt!r} according to the "
                        "rule 'safe'")
    if a.dtype != dt or not a._c_contig:
        a = a.astype(dt, order="C")
    return a


def _grid(n):
    return _ew._grid(n, 1)


def interp(x, xp, fp, left=None, right=None, period=None):
    """``numpy.interp``: piecewise-linear interpolation of (``xp``, ``fp``) at ``x`` (``xp``
    increasing, as NumPy assumes); float64 or complex128 result of ``x``'s shape."""
    fp = asarray(fp)
    cplx = fp.dtype.kind == "c"
    fdt = _C128 if cplx else _F64
    x = asarray(x)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        x = x.astype(_F64)
        xp = asarray(xp).astype(_F64)
        fp = fp.astype(fdt)
        if xp.ndim != 1 or fp.ndim != 1:
            raise ValueError("Data points must be 1-D sequences")
        if xp.shape[0] != fp.shape[0]:
            raise ValueError("fp and xp are not of the same length")
        x = UFUNCS["remainder"](x, period)
        xp = UFUNCS["remainder"](xp, period)
        m = xp.shape[0]
        if m:
            xs, fs = empty_array((m + 2,), _F64), empty_array((m + 2,), fdt)
            fpc = fp if fp._c_contig else fp.copy()
            kern = compiler.get_kernel(("interp_period", fdt),
                                       lambda: _render_periodic_sort(fdt))
            kern(*_grid(m), [m] + _arr(xs) + _arr(fs) + _arr(xp) + _arr(fpc)
                 + [np.float64(period)])
            xp, fp = xs, fs
    fp = _safe_1d(fp, fdt)
    xp = _safe_1d(xp, _F64)
    m = xp.shape[0]
    if m == 0:
        raise ValueError("array of sample points is empty")
    if fp.shape[0] != m:
        raise ValueError("fp and xp are not of the same length.")
    if not np.can_cast(x.dtype, _F64, "safe"):
        raise TypeError(f"Cannot cast array data from {x.dtype!r} to {_F64!r} according to the "
                        "rule 'safe'")
    xc = x if x._c_contig else x.copy()
    fills = [_fill(v, fdt) for v in (left, right)]
    out = empty_array(x.shape, fdt)
    n = out.size
    if n:
        kern = compiler.get_kernel(("interp", xc.dtype, cplx),
                                   lambda: _render_interp(xc.dtype, cplx))
        kern(*_grid(n), [n] + _arr(out) + _arr(xc) + _arr(xp) + _arr(fp)
             + _scalar_values(fills[0]) + _scalar_values(fills[1])
             + [left is not None, right is not None])
    return out


def _fill(v, fdt):
    """``left`` / ``right`` as NumPy reads them (PyFloat_AsDouble, PyComplex_*AsDouble); None:
    a placeholder (the kernel takes fp's end)."""
    if v is None:
        return fdt.type(0)
    if isinstance(v, ndarray):
        v = v.item()         # a device scalar: one small read, as NumPy's float() of it
    return fdt.type(complex(v) if fdt.kind == "c" else float(v))


# ---- convolve / correlate ---------------------------------------------------------------------
_MODES = {"valid": 0, "same": 1, "full": 2}


def _mode(mode):
    if isinstance(mode, str):
        if mode not in _MODES:
            if mode[:1] in ("v", "V", "s", "S", "f", "F"):   # NumPy's expired inexact match
                raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate "
                                 "mode")
            raise ValueError(f"mode must be one of 'valid', 'same', or 'full' (got {mode!r})")
        return _MODES[mode]
    try:
        m = operator.index(mode)
    except TypeError:
        raise TypeError("convolve/correlate mode not understood") from None
    if m not in (0, 1, 2):
        raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
    return m


def _acc_dtype(dt):
    """NumPy's dot accumulator: bool OR-of-ANDs, int64 / uint64 for integers (wrapping back),
    float32 for float16, the dtype itself otherwise."""
    if dt.kind in "iu":
        return np.dtype(f"{dt.kind}8")
    return _ew.compute_dtype(dt)


def _render_correlate(a_dt, b_dt, dt, conj_a, conj_b):
    acc = _acc_dtype(dt)
    ld = {}
    for name, sdt in (("A", a_dt), ("B", b_dt)):
        e = _ew.cast_expr(f"{name}[{'j + off' if name == 'A' else 'j'}]", sdt, dt)
        ld[name] = _ew.cast_expr(e, dt, acc) if dt.kind != "b" else e
    a = f"({ld['A']}).conjugate()" if conj_a else ld["A"]
    b = f"({ld['B']}).conjugate()" if conj_b else ld["B"]
    if dt.kind == "b":
        init, step = "False", f"acc = acc or ({a} and {b})"
    else:
        init, step = f"{_ew.type_name(acc)}(0)", f"acc += {a} * {b}"
    store = _ew.cast_expr("acc", acc, dt)
    lines = ["def KERNEL(L, OUT, A, B, nleft, inverted):",
             "    n1 = A.shape[0]",
             "    n2 = B.shape[0]",
             "    i = cuda.grid(1)",
             "    step = cuda.gridsize(1)",
             "    while i < L:",
             "        k = L - 1 - i if inverted else i",
             "        off = k - nleft",
             "        j0 = -off if off < 0 else 0",
             "        j1 = n1 - off if n1 - off < n2 else n2",
             f"        acc = {init}",
             "        for j in range(j0, j1):",
             f"            {step}",
             f"        OUT[i] = {store}",
             "        i += step"]
    params = [Param("scalar", _I64), Param("array", dt, 1, "C"), Param("array", a_dt, 1, "A"),
              Param("array", b_dt, 1, "A"), Param("scalar", _I64), Param("scalar", np.bool_)]
    return _kernel("correlate", lines, params)


def _correlate(a, v, mode, conj):
    """NumPy's ``_pyarray_correlate``: the longer input slides over the shorter (then the
    result is reversed), ``mode`` 0 valid, 1 same, 2 full."""
    dt = np.result_type(a.dtype, v.dtype)
    n1, n2 = a.shape[0], v.shape[0]
    if n1 == 0:
        raise ValueError("first array argument cannot be empty")
    if n2 == 0:
        raise ValueError("second array argument cannot be empty")
    inverted = n1 < n2
    if inverted:
        a, v, n1, n2 = v, a, n2, n1
    if mode == 0:
        length, nleft = n1 - n2 + 1, 0
    elif mode == 1:
        length, nleft = n1, n2 // 2
    else:
        length, nleft = n1 + n2 - 1, n2 - 1
    conj = conj and dt.kind == "c"
    conj_a, conj_b = conj and inverted, conj and not inverted    # the original second input
    out = empty_array((length,), dt)
    kern = compiler.get_kernel(("correlate", a.dtype, v.dtype, dt, conj_a, conj_b),
                               lambda: _render_correlate(a.dtype, v.dtype, dt, conj_a, conj_b))
    kern(*_grid(length), [length] + _arr(out) + _arr(a) + _arr(v) + [nleft, inverted])
    return out


def _as_1d(a, ndmin1=False):
    a = asarray(a)
    if ndmin1 and a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim > 1
                         else "object of too small depth for desired array")
    return a


def correlate(a, v, mode="valid"):
    """``numpy.correlate``: ``c[k] = sum_n a[n + k] * conj(v[n])`` (modes 'valid', 'same',
    'full'); one kernel."""
    mode = _mode(mode)
    return _correlate(_as_1d(a), _as_1d(v), mode, conj=True)


def convolve(a, v, mode="full"):
    """``numpy.convolve``: the discrete linear convolution of two 1-d sequences; one kernel."""
    a, v = asarray(a), asarray(v)
    if a.ndim == 0:
        a = a.reshape(1)
    if v.ndim == 0:
        v = v.reshape(1)
    if len(a) == 0:
        raise ValueError("a cannot be empty")
    if len(v) == 0:
        raise ValueError("v cannot be empty")
    if len(v) > len(a):
        a, v = v, a
    mode = _mode(mode)
    return _correlate(_as_1d(a), _as_1d(v)[::-1], mode, conj=False)


# ---- sinc / unwrap ----------------------------------------------------------------------------
def sinc(x):
    """``numpy.sinc``: ``sin(pi x) / (pi x)``, 1 where ``x`` is 0 (float16 / float32 / complex
    keep their dtype, integers and bool give float64)."""
    y = np.pi * asarray(x)
    # zeros become a tiny value whose sine over itself rounds to exactly 1
    tiny = np.finfo(y.dtype).eps if y.dtype.kind == "f" else 1e-20
    y = where(y, y, tiny)
    return UFUNCS["sin"](y) / y


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """``numpy.unwrap``: steps along ``axis`` larger than ``discont`` (default ``period / 2``)
    replaced by their value modulo ``period``; integer data with an integer ``period`` stay
    integers."""
    p = asarray(p)
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dt = np.result_type(dd.dtype, period.dtype if isinstance(period, ndarray) else period)
    if np.issubdtype(dt, np.integer):
        high, rem = divmod(period, 2)
        ambiguous = rem == 0        # an odd integer period has no step of exactly half of it
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = UFUNCS["mod"](dd - low, period) + low
    # a step of exactly +-period/2 came out as -period/2: a positive one keeps its sign
    if isinstance(ambiguous, ndarray):          # a device period: in the mask, not read back
        copyto(ddmod, high, where=(ddmod == low) & (dd > 0) & ambiguous)
    elif ambiguous:
        copyto(ddmod, high, where=(ddmod == low) & (dd > 0))
    correction = ddmod - dd
    copyto(correction, 0, where=abs(dd) < discont)
    later = [slice(None)] * p.ndim
    later[axis] = slice(1, None)
    later = tuple(later)
    up = array(p, dtype=dt, copy=True)
    up[later] = p[later] + correction.cumsum(axis)
    return up
