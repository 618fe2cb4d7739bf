"""The ufunc objects: one ``npgpu.ufunc`` built from each table row (``UFUNCS``, by name).

Below the modules that use ufuncs by name (at, misc, rounding, interop), which import it."""
import numpy as np

from .._codegen.elementwise import ScalarOp
from . import helpers as _helpers
from .table import ALIASES, ONE_OPERAND, TABLE
from .ufunc import OneOperandUfunc, ufunc

_KINDS = set("biufc")


def build_ufunc(name, npuf, row, heavy=(), f64_table=(), single=None):
    """An npgpu.ufunc for NumPy ufunc ``npuf`` from a table row ``{loop key: code}``; the loops
    keyed in ``heavy`` are compute-bound (ScalarOp's ``heavy``: their own contiguous layout),
    those in ``f64_table`` read their float64 constants from a table (ScalarOp's).  ``single``:
    the row's loops replaced where the second operand is one value (table.py's ONE_OPERAND)."""
    loops = _loops(name, npuf, row, heavy, f64_table)
    if single:
        return OneOperandUfunc(name, npuf, loops, {**loops, **_loops(name, npuf, single, heavy,
                                                                     f64_table, "one")})
    return ufunc(name, npuf, loops)


def _loops(name, npuf, row, heavy, f64_table, variant=None):
    loops = {}
    for key, code in row.items():
        helper_src = [_helpers.SOURCES[h] for h in _helpers.needed(code)]
        op = ScalarOp.from_expr(("ufunc", name, key) + ((variant,) if variant else ()),
                                npuf.nin, code, nout=npuf.nout,
                                helpers=helper_src, heavy=key in heavy,
                                f64_table=key in f64_table)
        if key and not set(key) <= _KINDS:
            loops[key] = op              # a dtype signature ("int64,uint64", "float16")
        elif key == "":
            loops[""] = op
        else:
            for c in key:
                loops[c] = op
    return loops


UFUNCS = {name: build_ufunc(getattr(np, name).__name__, getattr(np, name), row,
                            single=ONE_OPERAND.get(name))
          for name, row in TABLE.items()}
for _alias, _target in ALIASES.items():
    if _target in UFUNCS:
        UFUNCS[_alias] = UFUNCS[_target]
