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


def sqrt(x):
    return UFUNCS["sqrt"](_fix_negative(x))


def log(x):
    return UFUNCS["log"](_fix_negative(x))


def log10(x):
    return UFUNCS["log10"](_fix_negative(x))


def log2(x):
    return UFUNCS["log2"](_fix_negative(x))


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


def arccos(x):
    return UFUNCS["arccos"](_fix_abs_above_one(x))


def arcsin(x):
    return UFUNCS["arcsin"](_fix_abs_above_one(x))


def arctanh(x):
    return UFUNCS["arctanh"](_fix_abs_above_one(x))
