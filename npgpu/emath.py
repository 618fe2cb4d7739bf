"""``npgpu.emath`` (NumPy's ``numpy.emath``): square roots, logarithms, powers and inverse
trigonometric functions whose real input outside the real function's domain gives the complex
answer instead of NaN.

As NumPy decides, the whole array turns complex when any real element is outside the domain
(negative for sqrt/log/power, |x| > 1 for arccos/arcsin/arctanh): that test is one device read
of a boolean; the functions are npgpu's ufuncs.
"""
import numpy as np

from .creation import asarray
from .ufuncs import UFUNCS

__all__ = ["sqrt", "log", "log2", "logn", "log10", "power", "arccos", "arcsin", "arctanh"]

# dtypes NumPy's emath widens to complex64 (the rest to complex128)
_TO_C64 = {np.dtype(t) for t in (np.float32, np.int8, np.int16, np.uint8, np.uint16,
                                  np.complex64)}


def _complex(x):
    return x.astype(np.complex64 if x.dtype in _TO_C64 else np.complex128)


def _any_real(x, outside):
    """Whether a real element of ``x`` satisfies ``outside`` (one device read)."""
    real = UFUNCS["equal"](x.imag, 0) if x.dtype.kind == "c" else True
    return bool(UFUNCS["logical_and"](real, outside).any())


def _fix_negative(x):
    x = asarray(x)
    return _complex(x) if _any_real(x, UFUNCS["less"](x, 0)) else x


def _fix_abs_above_one(x):
    x = asarray(x)
    return _complex(x) if _any_real(x, UFUNCS["greater"](UFUNCS["absolute"](x), 1)) else x


def _unary(name, fix, domain):
    uf = UFUNCS[name]

    def f(x):
        return uf(fix(x))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"NumPy's ``emath.{name}``: complex results for real input {domain}."
    return f


sqrt = _unary("sqrt", _fix_negative, "below 0")
log = _unary("log", _fix_negative, "below 0")
log10 = _unary("log10", _fix_negative, "below 0")
log2 = _unary("log2", _fix_negative, "below 0")
arccos = _unary("arccos", _fix_abs_above_one, "outside [-1, 1]")
arcsin = _unary("arcsin", _fix_abs_above_one, "outside [-1, 1]")
arctanh = _unary("arctanh", _fix_abs_above_one, "outside [-1, 1]")


def logn(n, x):
    """The base-``n`` logarithm of ``x``."""
    return UFUNCS["true_divide"](log(x), log(n))


def power(x, p):
    """``x ** p``; a negative integer exponent turns the computation to floats (NumPy's)."""
    x = _fix_negative(x)
    p = asarray(p)
    if _any_real(p, UFUNCS["less"](p, 0)):
        p = UFUNCS["multiply"](p, 1.0)
    return UFUNCS["power"](x, p)
