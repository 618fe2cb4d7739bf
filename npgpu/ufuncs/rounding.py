"""NumPy's rounding functions that are not ufuncs: around/round (with decimals) and fix."""
import math
import operator

import numpy as np

from .._codegen import elementwise as _ew
from .._core.ndarray import empty_array, fail_unless_writeable, ndarray
from . import helpers as _helpers

_F64 = np.dtype(np.float64)


def _power_of_ten(n):
    """10.0 ** n as NumPy's around computes it: exact to 1e8, then repeated float64 products
    (not the correctly rounded power: from 1e23 on they differ, and so do the rounded values)."""
    if n < 9:
        return 10.0 ** n
    r = 1e9
    while n > 9 and r != math.inf:     # a Python float product overflows to inf, as C's
        r *= 10.0
        n -= 1
    return r


def _c_int(n):
    """``decimals`` as NumPy's C int argument takes it: its OverflowError past int32."""
    if -2**31 <= n < 2**31:
        return n
    if not -2**63 <= n < 2**63:
        raise OverflowError("Python int too large to convert to C long")
    raise OverflowError("signed integer is "
                        + ("greater than maximum" if n > 0 else "less than minimum"))


def _op(kind, scale_up, f16):
    """x -> rint(x * f) / f (scale_up) or rint(x / f) * f, each step rounded to float16 for f16.

    NumPy's around is multiply, rint, divide ufunc calls, each rounding to the dtype; a float16
    loop computes in float32, so intermediates are rounded back to float16 explicitly."""
    r = (lambda e: f"float32(float16({e}))") if f16 else (lambda e: e)
    a, b = ("*", "/") if scale_up else ("/", "*")
    if kind == "c":
        part = lambda p: f"h_rint({r(f'x0.{p} {a} x1')}) {b} x1"   # noqa: E731
        code = f"type(x0)(complex({part('real')}, {part('imag')}))"
    else:
        code = f"h_rint({r(f'x0 {a} x1')}) {b} x1"
    helpers = [_helpers.SOURCES[h] for h in _helpers.needed(code)]
    return _ew.ScalarOp.from_expr(("around", kind, scale_up, f16), 2, code, helpers=helpers)


def around(a, decimals=0, out=None):
    """``numpy.around``: round half to even to ``decimals`` places (negative: tens, hundreds...)."""
    from ..creation import asarray
    from .registry import UFUNCS
    a = a if isinstance(a, ndarray) else asarray(a)
    if isinstance(out, ndarray) and out._ro:      # some paths below launch into out directly
        fail_unless_writeable(out, "output array")
    decimals = _c_int(operator.index(decimals))    # NumPy's TypeError for a float
    dt = a.dtype
    if dt.kind == "c" and out is not None and out.dtype.kind != "c":
        # NumPy rounds a complex array part by part into out.real, then out.imag
        out[...] = around(a.real, decimals)
        raise TypeError("array does not have imaginary part to set")
    if dt.kind == "b" and decimals and out is None:
        # NumPy scales into a bool result: its multiply/divide same_kind error
        UFUNCS["multiply" if decimals > 0 else "divide"](a, 10.0,
                                                         out=empty_array(a.shape, dt))
    if dt.kind in "iu" and decimals >= 0:      # bool is not NumPy's integer here: rint, float16
        if out is None:
            return a.copy(order="K")       # NumPy's copy keeps the layout
        if not np.can_cast(dt, out.dtype, "same_kind"):
            raise TypeError(f"Cannot cast array data from {dt!r} to {out.dtype!r} according "
                            "to the rule 'same_kind'")
        UFUNCS["positive"](a, out=out, casting="unsafe")
        return out
    if decimals == 0:
        return UFUNCS["rint"](a, out=out)
    loop = dt if dt.kind in "fc" else _F64
    if out is not None and dt.kind != "c" and out.dtype != loop:
        # NumPy scales into out, rounds there and scales back there: every step in out's dtype
        # (and each ufunc's casting error)
        f = _power_of_ten(abs(decimals))     # a Python float (weak), as NumPy's
        UFUNCS["multiply" if decimals > 0 else "divide"](a, f, out=out)
        UFUNCS["rint"](out, out=out)
        UFUNCS["divide" if decimals > 0 else "multiply"](out, f, out=out)
        return out
    if out is None:
        out = empty_array(a.shape, dt, "F" if (a._f_contig and not a._c_contig) else "C")
    # the scale is a scalar of the computing dtype (float64 for integers, as NumPy)
    comp = (_F64 if dt.kind in "biu" else
            np.dtype(f"f{dt.itemsize // 2}") if dt.kind == "c" else dt)
    with np.errstate(over="ignore"):          # 1e30 is inf in float16, as NumPy's scale
        f = comp.type(_power_of_ten(abs(decimals)))
    op = _op(dt.kind if dt.kind == "c" else "f", decimals >= 0, dt == np.float16)
    _ew.launch(op, [a, f], [loop, comp], [out], [loop], name="around")
    return out


round = around


def fix(x, out=None):
    """``numpy.fix``: round toward zero (``trunc``, keeping the input dtype)."""
    from .registry import UFUNCS
    return UFUNCS["trunc"](x, out=out)
