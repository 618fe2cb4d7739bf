"""Every NumPy ufunc as an ``npgpu.ufunc`` built from one table row."""
import numpy as np

from .._codegen.elementwise import ScalarOp
from .._core.ndarray import _ops
from . import helpers as _helpers
from .table import ALIASES, TABLE
from .ufunc import ufunc

_KINDS = set("biufc")


def build_ufunc(name, npuf, row):
    """An npgpu.ufunc for NumPy ufunc ``npuf`` from a table row ``{loop key: code}``."""
    loops = {}
    for key, code in row.items():
        helper_src = [_helpers.SOURCES[h] for h in _helpers.needed(code)]
        op = ScalarOp.from_expr(("ufunc", name, key), npuf.nin, code, nout=npuf.nout,
                                helpers=helper_src)
        if key and not set(key) <= _KINDS:
            loops[key] = op              # a dtype signature ("int64,uint64", "float16")
        elif key == "":
            loops[""] = op
        else:
            for c in key:
                loops[c] = op
    return ufunc(name, npuf, loops)


UFUNCS = {name: build_ufunc(getattr(np, name).__name__, getattr(np, name), row)
          for name, row in TABLE.items()}
for _alias, _target in ALIASES.items():
    if _target in UFUNCS:
        UFUNCS[_alias] = UFUNCS[_target]

from . import at as _at  # noqa: E402
from . import interop as _interop  # noqa: E402
from .misc import angle, clip, imag, real  # noqa: E402
from .rounding import around, fix, round  # noqa: E402

FUNCTIONS = {"angle": angle, "clip": clip, "imag": imag, "real": real, "around": around,
             "fix": fix, "round": round}

_ops["ufunc_at"] = _at.ufunc_at
_ops["array_ufunc"] = _interop.array_ufunc

__all__ = sorted(UFUNCS) + sorted(FUNCTIONS) + ["ufunc"]
globals().update(UFUNCS)
