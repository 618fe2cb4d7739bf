"""Every NumPy ufunc as an ``npgpu.ufunc`` built from one table row."""
from .._core.ndarray import _ops
from .registry import UFUNCS
from .ufunc import ufunc
from . import at as _at
from . import interop as _interop
from .misc import angle, clip, imag, real
from .rounding import around, fix, round

FUNCTIONS = {"angle": angle, "clip": clip, "imag": imag, "real": real, "around": around,
             "fix": fix, "round": round}

_ops["ufunc_at"] = _at.ufunc_at
_ops["array_ufunc"] = _interop.array_ufunc

__all__ = sorted(UFUNCS) + sorted(FUNCTIONS) + ["ufunc"]
globals().update(UFUNCS)
