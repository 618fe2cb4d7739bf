"""Every NumPy ufunc as an ``npgpu.ufunc`` built from one table row."""
import numpy as np

from .._codegen.elementwise import ScalarOp
from . import helpers as _helpers
from .table import ALIASES, HELPERS, TABLE
from .ufunc import ufunc


def _build(name, row):
    npuf = getattr(np, name)
    loops = {}
    helper_src = [_helpers.SOURCES[h] for h in HELPERS.get(name, ())]
    for classes, code in row.items():
        op = ScalarOp.from_expr(("ufunc", name, classes), npuf.nin, code, nout=npuf.nout,
                                helpers=helper_src)
        if classes == "":
            loops[""] = op
        for c in classes:
            loops[c] = op
    return ufunc(name, npuf, loops)


UFUNCS = {name: _build(name, row) for name, row in TABLE.items()}
for _alias, _target in ALIASES.items():
    if _target in UFUNCS:
        UFUNCS[_alias] = UFUNCS[_target]

__all__ = sorted(UFUNCS) + ["ufunc"]
globals().update(UFUNCS)
