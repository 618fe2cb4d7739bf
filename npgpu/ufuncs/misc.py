"""NumPy functions built on ufuncs: clip (NumPy's ``umath.clip`` ufunc), real, imag, angle."""
import math

import numpy as np

from .._core.ndarray import ndarray

# NumPy's clip loops: max then min, NaN-propagating for floats, lexicographic for complex
_CLIP_ROW = {
    "biu": "t = x0 if x0 > x1 else x1\nreturn t if t < x2 else x2",
    "f": ("t = x0 if (math.isnan(x0) or x0 > x1) else x1\n"
          "return t if (math.isnan(t) or t < x2) else x2"),
    "c": ("t = x0 if (h_cisnan(x0) or h_clt(x1, x0)) else x1\n"
          "return t if (h_cisnan(t) or h_clt(t, x2)) else x2"),
}
_clip_ufunc = None


def _asarray(x):
    from ..creation import asarray
    return x if isinstance(x, ndarray) else asarray(x)


def clip(a, a_min=np._NoValue, a_max=np._NoValue, out=None, *, min=np._NoValue, max=np._NoValue,
         **kwargs):
    """``numpy.clip``: ``minimum(maximum(a, a_min), a_max)`` in one kernel."""
    global _clip_ufunc
    # NumPy's argument rules: both positional bounds or only the min=/max= keywords
    if a_min is np._NoValue and a_max is np._NoValue:
        a_min = None if min is np._NoValue else min
        a_max = None if max is np._NoValue else max
    elif a_min is np._NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_min'")
    elif a_max is np._NoValue:
        raise TypeError("clip() missing 1 required positional argument: 'a_max'")
    elif min is not np._NoValue or max is not np._NoValue:
        raise ValueError("Passing `min` or `max` keyword argument when `a_min` and `a_max` "
                         "are provided is forbidden.")
    kind = getattr(getattr(a, "dtype", None), "kind", "")
    if kind in ("i", "u"):
        # NumPy: a Python int bound at or past the integer dtype's range bounds nothing
        info = np.iinfo(a.dtype)
        if type(a_min) is int and a_min <= info.min:
            a_min = None
        if type(a_max) is int and a_max >= info.max:
            a_max = None
    from .registry import UFUNCS, build_ufunc
    if a_min is None and a_max is None:
        return UFUNCS["positive"](a, out=out, **kwargs)
    if a_min is None:
        return UFUNCS["minimum"](a, a_max, out=out, **kwargs)
    if a_max is None:
        return UFUNCS["maximum"](a, a_min, out=out, **kwargs)
    if _clip_ufunc is None:
        _clip_ufunc = build_ufunc("clip", np._core.umath.clip, _CLIP_ROW)
    return _clip_ufunc(a, a_min, a_max, out=out, **kwargs)


def real(val):
    """``numpy.real``: a view of the real part (the array itself for real dtypes)."""
    return _asarray(val).real


def imag(val):
    """``numpy.imag``: a view of the imaginary part (zeros for real dtypes)."""
    return _asarray(val).imag


def angle(z, deg=False):
    """``numpy.angle``: ``arctan2(z.imag, z.real)`` (``arctan2(0, z)`` for real input)."""
    from .registry import UFUNCS
    z = _asarray(z)
    if z.dtype.kind == "c":
        a = UFUNCS["arctan2"](z.imag, z.real)
    else:
        a = UFUNCS["arctan2"](0, z)
    if deg:
        a = UFUNCS["multiply"](a, 180 / math.pi, out=a)
    return a
