"""Replay of traced calls with reductions: the steps recorded once per signature, launched again.

A traced call records its steps (:attr:`_Trace.steps <npgpu.fusion.trace._Trace.steps>`):
elementwise kernels and reductions, each reading slots that are the call's arguments or
earlier steps' results.  When nothing else ran during the trace (no non-fusable step, no
kernel or device-to-host copy outside the trace's own steps, no in-place update, no
negative-exponent flag), the call is *closed*: its steps depend only on the signature and the
arguments' shapes, so a later call with both equal runs the steps without running Python.
A program whose reductions all run along the rows that its elementwise result then combines
with runs as one kernel instead (:mod:`.rows`).
"""
import numpy as np

from .._core import transfer as _transfer
from .._core.ndarray import empty_array, ndarray
from .._codegen import elementwise as _ew
from ..ufuncs.ufunc import _scalar
from . import rows as _rows
from .trace import _launch_count


class Watch:
    """Counts launches and device-to-host copies while a trace runs."""

    def __init__(self):
        self.launches = _launch_count()
        self.d2h = _transfer.d2h_count

    def closed(self, tr):
        """Did only the trace's own steps launch, and nothing read device values back?"""
        return (_launch_count() - self.launches == tr.own_launches
                and _transfer.d2h_count == self.d2h)


def shapes_of(args):
    return tuple(a.shape if a.__class__ is ndarray else None for a in args)


class Replay:
    """The recorded steps of a closed call, and where each result comes from."""

    def __init__(self, steps, results, is_tuple, name, args):
        self.steps = [(kind, what, srcs) for kind, what, _, srcs in steps]
        self.results = results            # per result: ("arg", i) | ("step", j, o) | None
        self.is_tuple = is_tuple
        self.name = name
        self.rows = _rows.plan(self.steps, results, args)

    def run(self, args):
        if self.rows is not None:
            res = self.rows.run(args)
            if res is not None:
                return self._pack(res, args, None)
        outs = []
        for kind, what, srcs in self.steps:
            vals = [args[s[1]] if s[0] == "arg" else outs[s[1]][s[2]] for s in srcs]
            if kind == "reduce":
                outs.append((what.run(vals),))
                continue
            op, dts, shape, loop_in = what
            kin = [x if x.__class__ is ndarray else _scalar(x, d) for x, d in zip(vals, loop_in)]
            o = [empty_array(shape, d) for d in dts]
            _ew.launch(op, kin, list(loop_in), o, list(dts), name=f"fused_{self.name}")
            outs.append(o)
        return self._pack(None, args, outs)

    def _pack(self, row_outs, args, outs):
        res = []
        for r in self.results:
            if r is None:
                res.append(None)
            elif r[0] == "arg":
                res.append(args[r[1]])
            elif row_outs is not None:
                res.append(row_outs[r[1], r[2]])
            else:
                res.append(outs[r[1]][r[2]])
        return tuple(res) if self.is_tuple else res[0]


def record(tr, watch, results, is_tuple, name, args):
    """The :class:`Replay` of a finished trace, or None when the call was not closed."""
    if not (tr.recordable and tr.steps and not tr.writebacks and watch.closed(tr)):
        return None
    where = []
    for r in results:
        if r is None:
            where.append(None)
            continue
        k = next((i for i, a in enumerate(args) if a is r), None)
        if k is not None:
            where.append(("arg", k))
        elif id(r) in tr.produced:
            where.append(tr.produced[id(r)])
        else:
            return None
    if any(isinstance(a, np.ndarray) for a in args):
        return None
    return Replay(tr.steps, where, is_tuple, name, args)
