"""Logic functions: where, select, isclose, allclose, array_equal, array_equiv, iscomplex,
isreal, iscomplexobj, isrealobj, isposinf, isneginf; and the dtype / shape inspectors isdtype,
shape, ndim, size.

``where`` and ``select`` are one elementwise kernel each (the conditions are read in their own
dtype and tested in the kernel); ``isclose`` is NumPy's formula traced by :mod:`npgpu.fusion`
into one kernel, so every intermediate has the dtype and rounding NumPy gives it.  Functions
that answer a Python bool reduce on the device (``npgpu.all``) and read that one bool back.
"""
import builtins
import math
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from . import _hostmode
from ._codegen import compiler
from ._codegen import elementwise as _ew
from ._core.dtypes import check_dtype
from ._core.layout import c_shape_text
from ._core.ndarray import empty_array, ndarray
from .creation import asarray, ones, zeros
from .cuda import runtime as _runtime
from .fusion import Fused
from .indexing.masks import nonzero
from .reductions import all as _all
from .ufuncs import UFUNCS
from .ufuncs.ufunc import _SELECT, operands

_BOOL = np.dtype(np.bool_)
_WEAK = (int, float, complex)          # Python scalars NEP 50 treats as weak (bool is not)
_multi_device = _runtime.multi_device


def _result_type(values, keys):
    """NumPy's promotion of operands normalised by :func:`npgpu.ufuncs.ufunc.operands`: Python
    int/float/complex take part as values (weak), everything else by its dtype."""
    return check_dtype(np.result_type(*(v if type(v) in _WEAK else k
                                        for v, k in zip(values, keys))))


def _scalar_as(v, dt):
    """Host scalar ``v`` as a NumPy scalar of ``dt``, cast as ``copyto`` would (a weak Python int
    out of range wraps: NumPy's where and select convert it through its default dtype; a float
    overflowing ``dt`` gives NumPy's cast warning, under the caller's errstate)."""
    if isinstance(v, np.generic) and v.dtype == dt:
        return v
    return np.asarray(v).astype(dt)[()]


def _shape_of(v):
    return v.shape if isinstance(v, ndarray) else ()


_shape_str = c_shape_text


# ---- where ------------------------------------------------------------------------------------
# (condition, x, y) dtypes -> (contig launcher or None, out dtype, words args or None): a repeat
# call on C-contiguous arrays of one shape is one allocation and one launch (the ufuncs' plan)
_where_plans = compiler.clears_with_memory_cache({})   # (launchers: cleared with them)


def where(condition, x=np._NoValue, y=np._NoValue, /):
    """``numpy.where``: ``x`` where ``condition`` else ``y`` (one kernel); with the condition
    alone, ``nonzero(condition)``."""
    if (x.__class__ is ndarray and y.__class__ is ndarray and condition.__class__ is ndarray
            and not _multi_device[0]):
        plan = _where_plans.get((condition.dtype, x.dtype, y.dtype))
        if (plan is not None and condition._c_contig and x._c_contig and y._c_contig
                and condition.shape == x.shape == y.shape):
            kern, odt, words = plan
            out = empty_array(x.shape, odt)
            n = out.size
            if words is not None and n >= _ew.WORDS_MIN:
                _ew.launch_words(words, kern, n, (out, condition, x, y))
            elif n:
                iso, isc, isx, isy = odt.itemsize, condition.itemsize, x.itemsize, y.itemsize
                g, blk = _ew._grid(n, kern)
                kern(g, blk, (n, 0, 0, n, iso, out._ptr, n, iso,
                              0, 0, n, isc, condition._ptr, n, isc,
                              0, 0, n, isx, x._ptr, n, isx, 0, 0, n, isy, y._ptr, n, isy))
            return out
    if x is np._NoValue and y is np._NoValue:
        return nonzero(asarray(condition))
    if x is np._NoValue or y is np._NoValue:
        raise ValueError("either both or neither of x and y should be given")
    for v in (condition, x, y):          # inside @npgpu.fuse: traced (or NumPy's on the host)
        trace = getattr(v, "_fuse_trace", None)
        if trace is not None:
            return trace.where(condition, x, y)
    if _hostmode.on_host(condition, x, y):
        return np.where(condition, x, y)
    return _where3(condition, x, y)


_where_dtypes = {}      # (x key, y key) -> result dtype (NEP 50: weak scalars by type alone)


def _where3(condition, x, y):
    inputs, keys = operands((condition, x, y))
    dt = _where_dtypes.get(keys[1:])
    if dt is None:
        dt = _where_dtypes[keys[1:]] = _result_type(inputs[1:], keys[1:])
    shapes = [_shape_of(v) for v in inputs]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError("operands could not be broadcast together with shapes "
                         + "".join(_shape_str(s) + " " for s in shapes)) from None
    loop_in = (_BOOL, dt, dt)
    inputs = [v if isinstance(v, ndarray) else _scalar_as(v, d) for v, d in zip(inputs, loop_in)]
    out = empty_array(shape, dt)
    if all(isinstance(v, ndarray) and v._c_contig and v.shape == shape for v in inputs):
        _make_where_plan(tuple(v.dtype for v in inputs), dt, loop_in)
    _ew.launch(_SELECT, inputs, loop_in, [out], [dt], name="where")
    return out


def _make_where_plan(dts, dt, loop_in):
    # as the ufuncs' plans: the words kernel (4-byte operands) is compiled on first use
    words = _ew.words_plan(_SELECT, dts, (dt,), loop_in, (dt,), "where")
    kern = (None if words is not None and _ew.WORDS_MIN <= 1
            else _ew.contig_kernel(_SELECT, dts, (dt,), loop_in, (dt,), "where"))
    _where_plans[dts] = (kern, dt, words)


# ---- select -----------------------------------------------------------------------------------
_select_ops = {}        # number of conditions -> ScalarOp: the first true condition's choice


def _select_op(k):
    op = _select_ops.get(k)
    if op is None:
        body = "\n".join(f"if x{i}:\n    return x{k + i}" for i in range(k))
        op = _select_ops[k] = _ew.ScalarOp.from_expr(("select", k), 2 * k + 1,
                                                     f"{body}\nreturn x{2 * k}")
    return op


def select(condlist, choicelist, default=0):
    """``numpy.select``: per element, the choice of the first true condition, else ``default``
    (one kernel over every condition and choice)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    k = len(condlist)
    choices, ckeys = operands(list(choicelist) + [default])
    dt = _result_type(choices, ckeys)
    conds, _ = operands(list(condlist))
    cshape = np.broadcast_shapes(*(_shape_of(c) for c in conds))
    chshape = np.broadcast_shapes(*(_shape_of(c) for c in choices))
    for i, c in enumerate(conds):
        cdt = c.dtype if isinstance(c, (ndarray, np.generic)) else np.asarray(c).dtype
        if cdt != _BOOL:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    shape = np.broadcast_shapes(cshape, chshape)
    for c in choices[:-1]:
        # NumPy copies each choice in with copyto (same_kind), a weak Python scalar as an array
        # of its default dtype: an int choice with an unsigned result is refused
        if type(c) in _WEAK and not np.can_cast(np.asarray(c).dtype, dt, "same_kind"):
            raise TypeError(f"Cannot cast array data from {np.asarray(c).dtype!r} to {dt!r} "
                            "according to the rule 'same_kind'")
    inputs = [c if isinstance(c, ndarray) else np.bool_(c) for c in conds]
    inputs += [c if isinstance(c, ndarray) else _scalar_as(c, dt) for c in choices]
    out = empty_array(shape, dt)
    _ew.launch(_select_op(k), inputs, [_BOOL] * k + [dt] * (k + 1), [out], [dt], name="select")
    return out


# ---- closeness and equality -------------------------------------------------------------------
def _isclose_formula(equal_nan):
    isfinite, isnan, less_equal = UFUNCS["isfinite"], UFUNCS["isnan"], UFUNCS["less_equal"]

    def formula(x, y, atol, rtol):
        # NumPy 2: y is made inexact first (abs of INT_MIN), which casts x in what follows
        if y.dtype is not None:
            y = y.astype(np.result_type(y.dtype, 1.0))
        r = (less_equal(abs(x - y), atol + rtol * abs(y)) & isfinite(y)) | (x == y)
        if equal_nan:
            r = r | (isnan(x) & isnan(y))
        return r
    return formula


_ISCLOSE = (Fused(_isclose_formula(False), "isclose"), Fused(_isclose_formula(True), "isclose_nan"))
_EQUAL_NAN = Fused(lambda x, y: (x == y) | (UFUNCS["isnan"](x) & UFUNCS["isnan"](y)),
                   "equal_nan")


def _tolerance(t):
    """A tolerance as NumPy's isclose keeps it: Python scalars as they are, else an array."""
    if isinstance(t, (int, float, complex, ndarray, np.generic)):
        return t
    return asarray(t)


def _all_finite(t):
    if isinstance(t, ndarray):
        return builtins.bool(_all(UFUNCS["isfinite"](t)))
    return builtins.bool(np.all(np.isfinite(t)))


def _close_operand(x):
    """An isclose operand: npgpu arrays and scalars as given, anything else (lists, tuples,
    host arrays) as a host array."""
    if isinstance(x, (ndarray, np.generic, int, float, complex)):
        return x
    return np.asarray(x)


def isclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """``numpy.isclose``: ``|a - b| <= atol + rtol * |b|`` (and finite ``b``), or ``a == b``;
    NumPy 2's formula and dtypes, in one kernel."""
    if isinstance(b, int):              # bool included, as in NumPy
        b = float(b)
    a, b = _close_operand(a), _close_operand(b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):     # lists, tuples, host arrays
        if any(isinstance(x, np.ndarray) and x.dtype.kind not in "biufc" for x in (a, b)):
            # NumPy's own error for a str / object operand (a dry run on 0-d stand-ins)
            np.isclose(*(np.zeros((), x.dtype) if isinstance(x, ndarray) else x
                         for x in (a, b)))
        a, b = (asarray(x) if isinstance(x, np.ndarray) else x for x in (a, b))
    sa, sb = getattr(a, "shape", ()), getattr(b, "shape", ())
    if sa != sb and sa and sb:
        try:
            np.broadcast_shapes(sa, sb)
        except ValueError:
            # NumPy's message (the fused kernel's own would name its function)
            from .indexing.advanced import shape_text
            raise ValueError("operands could not be broadcast together with shapes "
                             f"{shape_text(sa)} {shape_text(sb)} ") from None
    atol, rtol = _tolerance(atol), _tolerance(rtol)
    if not (_all_finite(atol) and _all_finite(rtol)):
        msg = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
        err = np.geterr()["invalid"]
        if err == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=2)
        elif err == "raise":
            raise FloatingPointError(msg)
        elif err == "print":
            print(msg)
    return _ISCLOSE[builtins.bool(equal_nan)](a, b, atol, rtol)


def allclose(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    """``numpy.allclose``: a Python bool (one reduction on the device, one bool read back)."""
    return builtins.bool(_all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def _as_arrays(a1, a2):
    try:
        return asarray(a1), asarray(a2)
    except Exception:       # NumPy: anything that is not an array is simply not equal
        return None


def array_equal(a1, a2, equal_nan=False):
    """``numpy.array_equal``: same shape and elements (NaNs equal with ``equal_nan``)."""
    arrs = _as_arrays(a1, a2)
    if arrs is None:
        return False
    a1, a2 = arrs
    if a1.shape != a2.shape:
        return False
    if equal_nan and a1 is a2:
        return True
    if equal_nan and (a1.dtype.kind in "fc" or a2.dtype.kind in "fc"):
        return builtins.bool(_all(_EQUAL_NAN(a1, a2)))
    return builtins.bool(_all(UFUNCS["equal"](a1, a2)))


def array_equiv(a1, a2):
    """``numpy.array_equiv``: broadcastable shapes and equal elements."""
    arrs = _as_arrays(a1, a2)
    if arrs is None:
        return False
    a1, a2 = arrs
    try:
        np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return builtins.bool(_all(UFUNCS["equal"](a1, a2)))


# ---- complex or real --------------------------------------------------------------------------
def iscomplex(x):
    """``numpy.iscomplex``: elementwise ``imag != 0`` (all False for real dtypes)."""
    ax = asarray(x)
    if ax.dtype.kind == "c":
        return UFUNCS["not_equal"](ax.imag, 0)
    return zeros(ax.shape, _BOOL)


def isreal(x):
    """``numpy.isreal``: elementwise ``imag == 0`` (all True for real dtypes)."""
    ax = asarray(x)
    if ax.dtype.kind == "c":
        return UFUNCS["equal"](ax.imag, 0)
    return ones(ax.shape, _BOOL)


def iscomplexobj(x):
    """``numpy.iscomplexobj``: is the dtype of ``x`` (or of ``asarray(x)``) complex?"""
    try:
        # NumPy's duck typing: any ``dtype`` with a ``type`` (pandas' extension dtypes) decides
        type_ = x.dtype.type
    except AttributeError:
        try:
            type_ = np.asarray(x).dtype.type  # host data: no device copy needed to know it
        except TypeError:
            type_ = asarray(x).dtype.type     # a sequence holding device arrays
    return issubclass(type_, np.complexfloating)


def isrealobj(x):
    """``numpy.isrealobj``: not :func:`iscomplexobj`."""
    return not iscomplexobj(x)


# ---- infinities of one sign -------------------------------------------------------------------
def _signed_inf(x, out, negative):
    """``isinf(x) & (signbit(x) == negative)`` into ``out``: NumPy's isposinf / isneginf."""
    if not isinstance(x, ndarray):
        try:
            h = np.asarray(x)       # host data: its dtype decides; numeric data go over once
        except TypeError:           # a sequence holding device arrays
            x = asarray(x)
        else:
            # other dtypes stay on the host, where isinf raises NumPy's error for them
            x = asarray(h) if h.dtype.kind in "biufc" else h
    if x.dtype.kind == "c":         # NumPy: signbit has no complex loop
        raise TypeError(f"This operation is not supported for {x.dtype} values because it "
                        "would be ambiguous.")
    is_inf = UFUNCS["isinf"](x)
    sign = UFUNCS["signbit"](x)
    return UFUNCS["logical_and"](is_inf, sign if negative else ~sign, out)


def isposinf(x, out=None):
    """``numpy.isposinf``: elementwise ``x == +inf`` (bool, or into ``out``); complex raises."""
    return _signed_inf(x, out, negative=False)


def isneginf(x, out=None):
    """``numpy.isneginf``: elementwise ``x == -inf`` (bool, or into ``out``); complex raises."""
    return _signed_inf(x, out, negative=True)


# ---- dtype and shape inspection ---------------------------------------------------------------
def isdtype(dtype, kind):
    """``numpy.isdtype`` (NumPy 2 / Array API): ``kind`` a dtype, a kind name ('bool',
    'signed integer', 'unsigned integer', 'integral', 'real floating', 'complex floating',
    'numeric') or a tuple of those."""
    if isinstance(dtype, ndarray):
        raise TypeError(f"dtype argument must be a NumPy dtype, but it is a {type(dtype)}.")
    return np.isdtype(dtype, kind)


def shape(a):
    """``numpy.shape`` (no device copy for npgpu arrays)."""
    return a.shape if isinstance(a, ndarray) else np.shape(a)


def ndim(a):
    """``numpy.ndim``."""
    return a.ndim if isinstance(a, ndarray) else np.ndim(a)


def size(a, axis=None):
    """``numpy.size``: element count, or the product of the lengths along ``axis`` (an int or a
    tuple, NumPy 2.4)."""
    if axis is None:
        return a.size if isinstance(a, ndarray) else np.size(a)
    s = shape(a)
    return math.prod(s[ax] for ax in normalize_axis_tuple(axis, len(s), allow_duplicate=False))
