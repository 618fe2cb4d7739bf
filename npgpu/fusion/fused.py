"""The callable ``@npgpu.fuse`` returns: trace, replay, inspect.

A call traces the function with proxy values over this call's arguments (:mod:`.trace`);
elementwise steps accumulate as lines, reductions launch with the lines before them as their
map (:mod:`.reduce`), non-fusable steps materialize what they read and run as ordinary calls,
and the returned values (and arguments updated in place) are written by one elementwise launch
per result shape.  A function whose trace was elementwise only is remembered per signature
(dtypes, ndims, which arguments are scalars) as one kernel launch: later calls with that
signature skip Python entirely.  The kernels themselves are cached like every kernel (in
memory and in ``NPGPU_CACHE_DIR``), keyed by their source.
"""
import functools
import linecache
import re

import numpy as np

from .._codegen import elementwise as _ew
from .._codegen import launcher as _launcher
from .._core.ndarray import _ops, empty_array, ndarray
from ..ufuncs.ufunc import _scalar
from . import host as _host
from . import program as _program
from . import reduce as _reduce  # noqa: F401  (installs _Trace.reduce_into)
from .trace import _NAME, _NEG_POWER, _Trace, _Var, broadcast, guard_overlap, shape_str


class _Program:
    """A traced call that was one elementwise launch over the arguments: replayed as such."""

    def __init__(self, op, slots, loop_in, out_dtypes, flagged, neg, writebacks, results,
                 is_tuple, name):
        self.op = op
        self.slots = slots              # the kernel's inputs: argument indices
        self.loop_in = loop_in
        self.out_dtypes = out_dtypes
        self.flagged = flagged          # last kernel output: a negative integer exponent met
        self.neg = neg                  # a literal negative exponent: every non-empty call raises
        self.writebacks = writebacks    # argument indices written (kernel outputs after results)
        self.results = results          # per returned value: ("k", j) | ("arg", i)
        self.is_tuple = is_tuple
        self.name = name

    def fast(self, nargs):
        """``call(args, shape)`` for calls whose ``nargs`` arguments are all C-contiguous arrays
        of one shape (the ufuncs' fast path: a prepared launcher and its argument values), or
        None where this program needs the general :meth:`run`."""
        if self.flagged or self.neg or self.writebacks or self.slots != list(range(nargs)) \
                or any(kind != "k" for kind, _ in self.results):
            return None
        loop_in = tuple(self.loop_in)       # (array arguments: their own dtypes)
        plan = _ew.ContigPlan(self.op, loop_in, loop_in, self.out_dtypes, f"fused_{self.name}")
        picks, is_tuple = [j for _, j in self.results], self.is_tuple
        if len(plan.out_dtypes) == 1 and picks == [0] and not is_tuple:
            odt = plan.out_dtypes[0]

            def call1(args, shape):         # one output (the common case)
                out = empty_array(shape, odt)
                plan(out.size, (out, *args))
                return out
            return call1

        def call(args, shape):
            outs = [empty_array(shape, d) for d in plan.out_dtypes]
            plan(outs[0].size, (*outs, *args))
            res = [outs[j] for j in picks]
            return tuple(res) if is_tuple else res[0]
        return call

    def run(self, args):
        arrays = [a for a in args if a.__class__ is ndarray]
        if len(arrays) == 1:
            shape = arrays[0].shape
        else:
            shape = broadcast([a.shape for a in arrays]) if arrays else ()
        if self.neg and 0 not in shape:
            raise ValueError(_NEG_POWER)
        kin = [args[k] if args[k].__class__ is ndarray else _scalar(args[k], d)
               for k, d in zip(self.slots, self.loop_in)]
        nres = len(self.out_dtypes) - len(self.writebacks)
        outs = [empty_array(shape, d) for d in self.out_dtypes[:nres]]
        for i in self.writebacks:
            w = args[i]
            if w.shape != shape:
                raise ValueError(f"non-broadcastable output operand with shape "
                                 f"{shape_str(w.shape)} doesn't match the broadcast shape "
                                 f"{shape_str(shape)}")
            outs.append(w)
        if self.writebacks:
            guard_overlap(kin, outs)
        loop_out = self.out_dtypes
        if self.flagged:
            outs.append(empty_array(shape, np.dtype(np.bool_)))
            loop_out = loop_out + (np.dtype(np.bool_),)
        _ew.launch(self.op, kin, self.loop_in, outs, loop_out, name=f"fused_{self.name}")
        if self.flagged:
            flag = outs.pop()
            if flag.size and _ops["any"](flag).item():
                raise ValueError(_NEG_POWER)
        res = [outs[j] if kind == "k" else args[j] for kind, j in self.results]
        return tuple(res) if self.is_tuple else res[0]


def _signature(args):
    sig = []
    for a in args:
        if a.__class__ is ndarray:
            sig.append((a.dtype, a.ndim))
        elif type(a) in (int, float, complex):
            sig.append(type(a))
        elif isinstance(a, np.generic) or type(a) is bool:
            sig.append(("s", np.asarray(a).dtype))
        else:                    # passed to the function as it is: part of the signature
            try:
                hash(a)
            except TypeError:
                return None
            sig.append(("static", type(a), a))
    return tuple(sig)


class Fused:
    """The callable ``@fuse`` returns (see :func:`fuse`)."""

    def __init__(self, func, kernel_name=None, strict=False):
        self.func = func
        # the kernel's name: an identifier (a lambda's __name__ is "<lambda>")
        self.name = re.sub(r"\W", "_", kernel_name or getattr(func, "__name__", "fused"))
        self.strict = strict
        self._programs = {}          # signature -> _Program (elementwise-only traces)
        self._replays = {}           # (signature, shapes) -> program.Replay (with reductions)
        self._fast = {}              # (dtypes, ndim) -> _Program.fast() of all-array calls
        functools.update_wrapper(self, func)

    def __call__(self, *args):
        if self._fast:
            # C-contiguous npgpu arrays of one shape: the prepared launch (see _Program.fast)
            shape = None
            dts = []
            for a in args:
                if a.__class__ is not ndarray or not a._c_contig or \
                        shape is not None and a.shape != shape:
                    break
                shape = a.shape
                dts.append(a.dtype)
            else:
                f = self._fast.get((tuple(dts), len(shape or ())))
                if f is not None:
                    return f(args, shape)
        sig = _signature(args)
        prog = self._programs.get(sig)
        if prog is not None:
            return prog.run(args)
        if self._replays:
            rep = self._replays.get((sig, _program.shapes_of(args)))
            if rep is not None:
                return rep.run(args)
        if any(isinstance(a, _Var) for a in args):     # called inside another fused function
            return self.func(*args)
        if _host.is_host_call(args):
            return _host.run(self.func, args)
        return self._traced(args, sig)

    def _traced(self, args, sig):
        tr = _Trace(self.name, self.strict)
        params = []
        for i, a in enumerate(args):
            n = len(tr.slots)
            params.append(tr.argument(a))
            if len(tr.slots) > n and tr.slots[-1] is a or type(a) in (int, float, complex, bool) \
                    or isinstance(a, np.generic):
                tr.slot_src[-1] = ("arg", i)
        nargs = len(tr.slots)
        watch = _program.Watch()
        try:
            res = self.func(*params)
            out = self._finish(tr, res, args, sig, nargs)
            if tr.reductions and sig is not None:
                rep = _program.record(tr, watch, list(out) if isinstance(out, tuple) else [out],
                                      isinstance(out, tuple), self.name, args)
                if rep is not None:
                    if len(self._replays) > 256:
                        self._replays.clear()
                    self._replays[(sig, _program.shapes_of(args))] = rep
            return out
        except Exception as e:
            _name_line(e, self.func)
            raise
        finally:
            tr.end()

    def _finish(self, tr, res, args, sig, nargs):
        is_tuple = isinstance(res, tuple)
        vals = list(res) if is_tuple else [res]
        results = [None] * len(vals)
        pending = []                             # (result index, _Var)
        wb = {}
        for arr, v in tr.writebacks:             # the last update of each array wins
            wb[id(arr)] = (arr, v)
        wb_vars = {id(v): arr for arr, v in wb.values()}
        for i, v in enumerate(vals):
            if isinstance(v, _Var):
                if id(v) in wb_vars:
                    results[i] = wb_vars[id(v)]   # x += ...; return x: x itself, as NumPy
                    continue
                m = _NAME.fullmatch(v.expr) if v.expr else None
                if m and m.group(1) == "x" and isinstance(tr.slots[int(m.group(2))], ndarray) \
                        and tr.slots[int(m.group(2))].dtype == v.dtype:
                    results[i] = tr.slots[int(m.group(2))]
                    continue
                pending.append((i, v))
            elif isinstance(v, ndarray) or v is None:
                results[i] = v
            else:
                pending.append((i, tr._lift(v)))
        # one launch per result shape: returned values and arguments updated in place
        groups = {}
        for i, v in pending:
            groups.setdefault(v.shape, []).append((i, None, v))
        for arr, v in wb.values():
            groups.setdefault(arr.shape, []).append((None, arr, v))
        if tr.pure and sig is not None and len(groups) <= 1 and not tr.reductions:
            prog = self._program(tr, groups, results, is_tuple, args, nargs)
            if prog is not None:
                self._programs[sig] = prog
                if args and all(a.__class__ is ndarray for a in args):
                    fast = prog.fast(len(args))
                    if fast is not None:
                        self._fast[(tuple(a.dtype for a in args), args[0].ndim)] = fast
                return prog.run(args)
        for shape, items in groups.items():
            outs = tr.run_kernel([v for _, _, v in items], shape, [a for _, a, _ in items])
            for (i, _, _), o in zip(items, outs):
                if i is not None:
                    results[i] = o
        return tuple(results) if is_tuple else results[0]

    def _program(self, tr, groups, results, is_tuple, args, nargs):
        """The replay of an elementwise-only trace, or None where a replay could differ."""
        arrays = [a for a in args if isinstance(a, ndarray)]
        full = broadcast([a.shape for a in arrays]) if arrays else ()
        items = next(iter(groups.values()), [])
        if groups and next(iter(groups)) != full:
            return None                          # results of another shape than the call's
        exprs, dts = [], []
        for _, arr, v in items:
            if v.dtype is None:
                v = tr.cast(v, np.dtype(v.weak))
            exprs.append(v.expr)
            dts.append(v.dtype)
        if not items:
            return None
        op, slots, flagged, neg = tr.scalar_op(exprs, dts)
        if any(k >= nargs for k in slots):
            return None
        # every array argument read: the result's shape is theirs broadcast, on every call
        if {k for k, a in enumerate(args) if isinstance(a, ndarray)} - set(slots):
            return None
        arg_of = {id(a): k for k, a in enumerate(args)}
        kouts, wbs = [], []
        for j, (i, arr, _) in enumerate(items):
            if arr is None:
                kouts.append(j)
            elif id(arr) in arg_of:
                wbs.append(arg_of[id(arr)])
            else:
                return None
        order = kouts + [j for j, (i, arr, _) in enumerate(items) if arr is not None]
        spec = []
        for r_i, r in enumerate(results):
            if r is None:
                j = next((q for q, (i, _, _) in enumerate(items) if i == r_i), None)
                if j is None:            # the function returned None (it only wrote in place)
                    return None
                spec.append(("k", kouts.index(j)))
            elif id(r) in arg_of:
                spec.append(("arg", arg_of[id(r)]))
            else:
                return None
        if len(spec) != len(results) or any(s is None for s in spec):
            return None
        if order != list(range(len(items))):
            return None
        loop_in = [tr.slot_dtypes[k] for k in slots]
        return _Program(op, slots, loop_in, tuple(dts), flagged, neg, wbs, spec, is_tuple,
                        self.name)

    # ---- inspection ----------------------------------------------------------------------------
    def _recorded(self, args, copy=True):
        """The launchers one call with (copies of) ``args`` runs."""
        if copy:
            args = [a.copy() if isinstance(a, ndarray) else a for a in args]
        rec = []
        _launcher.recorders.append(rec)
        try:
            self(*args)
        finally:
            _launcher.recorders.remove(rec)
        return rec

    def launches(self, *args):
        """How many kernels a call with these arguments launches (run on copies of them)."""
        return len(self._recorded(args))

    def kernel_sources(self, *args):
        """``{kernel name: source}`` of the kernels a call with these arguments launches."""
        return {k.name: k.source.source for k in self._recorded(args)}


def _name_line(e, func):
    """Name the line of the user's function an error was raised at (in its message when that
    is a plain string, else as a note)."""
    tb, line = e.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code is func.__code__:
            line = tb.tb_lineno
        tb = tb.tb_next
    if line is None or getattr(e, "_fuse_named", False):
        return
    fname = func.__code__.co_filename
    text = linecache.getline(fname, line).strip()
    where = f"in fused function '{func.__qualname__}', {fname}:{line}: {text}"
    if type(e) in (TypeError, ValueError) or type(e).__name__ == "NotFusable":
        if e.args and isinstance(e.args[0], str):
            e.args = (f"{e.args[0]} ({where})",) + e.args[1:]
    else:
        e.add_note(where)
    try:
        e._fuse_named = True
    except AttributeError:
        pass
