"""The ``npgpu.ufunc`` object: NumPy's type resolution, out=/where=/dtype=/casting=, one launch.

Each ufunc is built from one row of :mod:`npgpu.ufuncs.table`; this module is
the only code path from a call to the elementwise generator.
"""
import inspect
import math
import operator
import sys
import warnings
from functools import partial

import numpy as np

from .. import _hostmode
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.launcher import warnings_lock
from .._core import copy as _copy
from .._core.dtypes import check_dtype
from .._core import layout as _layout
from .._core.layout import c_shape_text
from .._core.ndarray import _ops, empty_array, fail_unless_writeable, ndarray
from ..cuda import runtime as _runtime
from . import overrides as _overrides

_multi_device = _runtime.multi_device

_PY_WEAK = {int: int, float: float, complex: complex}
_PY_SCALAR = frozenset((int, float, complex, bool))
# the operand types of the (array, scalar) fast path: Python's (weak, NEP 50) and NumPy's numbers
_FAST_SCALAR = _PY_SCALAR | frozenset(np.dtype(c).type for c in "?bBhHiIlLqQefdFD")
_prod = math.prod           # an array's size from its shape (the ``size`` property loops in Python)
_grids = _ew.GRIDS          # (elements, launcher) -> (blocks, threads), read before _ew._grid
_BOOL = np.dtype(np.bool_)

# NEP 50: a comparison of an integer array with a Python int outside its dtype's range has one
# answer for every element, so NumPy 2 runs a constant loop instead of raising OverflowError
_COMPARISONS = {"equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
                "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge}
_CONSTANT = {v: _ew.ScalarOp.from_expr(("constant", v), 2, str(v)) for v in (False, True)}


def _arg_key(x):
    """What NumPy's resolver needs to know of an operand (weak Python scalars stay types)."""
    if isinstance(x, ndarray):
        return x.dtype
    t = type(x)
    if t in _PY_WEAK:
        return t
    if t is bool:
        return _BOOL
    if isinstance(x, np.generic):
        return check_dtype(x.dtype)
    return None


def _host_operand(x):
    """Anything that is not an npgpu array or a scalar (lists, NumPy arrays) goes to the device."""
    from ..creation import asarray
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return x[()]
    return asarray(x)


def operands(args):
    """(operands, resolver keys): npgpu arrays and scalars as they are, anything else (lists,
    NumPy arrays) copied to the device; keys as NumPy's resolver wants them."""
    inputs = []
    keys = []
    for x in args:
        k = _arg_key(x)
        if k is None:
            x = _host_operand(x)
            k = _arg_key(x)
        inputs.append(x)
        keys.append(k)
    return inputs, tuple(keys)


class _SignatureOf:
    """``__signature__``: the NumPy ufunc's parameters, for ``inspect.signature``.  A descriptor
    rather than a property because ``inspect.signature(ufunc)`` of the class reads the class
    attribute and rejects a property object; absent on the class and where NumPy's ufunc has no
    signature of its own (inspect then falls back to ``__call__``)."""

    def __get__(self, obj, objtype=None):
        if obj is not None:
            try:
                return inspect.signature(obj._np)
            except (TypeError, ValueError):
                pass
        raise AttributeError("__signature__")


def _unpickle(module, name):
    """A pickled ufunc: the one of its name in its public module (NumPy's _ufunc_reconstruct)."""
    import importlib
    return getattr(importlib.import_module(module), name)


class ufunc:
    """A universal function running as generated kernels (NumPy's ``ufunc`` interface)."""

    __signature__ = _SignatureOf()
    _home = "npgpu"         # the public module holding the ufunc under its __name__ (pickling)

    def __reduce__(self):
        # by reference, as NumPy's ufuncs pickle: the plan caches hold compiled kernels, and
        # the unpickled object is the same ufunc (``pickle.loads(pickle.dumps(sin)) is sin``)
        if getattr(sys.modules.get(self._home), self.__name__, None) is not self:
            import pickle
            raise pickle.PicklingError(f"Can't pickle {self!r}: it is not "
                                       f"{self._home}.{self.__name__}")
        return _unpickle, (self._home, self.__name__)

    def __init__(self, name, np_ufunc, loops, doc=None):
        self.__name__ = name
        self._np = np_ufunc
        self._loops = loops          # type-class key -> ScalarOp
        self._resolved = {}          # (arg keys, dtype, casting) -> (loop_in, loop_out, op)
        # input dtypes -> (launcher, out dtype, words args): the fast path (emptied with the
        # kernel cache, so an experiment's changed knob takes effect)
        self._plans = compiler.clears_with_memory_cache({})
        # (array dtype, scalar type, its position) -> resolution (+ its kernel, see _scalar_call)
        self._splans = compiler.clears_with_memory_cache({})
        # two arrays of other layouts (broadcasting, views): (dtypes, shapes, strides) ->
        # (resolution, result shape and order), the launch then replayed by _ew.launch
        self._bplans = {}
        self._nin1 = np_ufunc.nin == 1 and np_ufunc.nout == 1
        self._nin2 = np_ufunc.nin == 2 and np_ufunc.nout == 1
        self._nin3 = np_ufunc.nin == 3 and np_ufunc.nout == 1
        self._compare = _COMPARISONS.get(name)
        # checks of operand values NumPy's loop makes (raising); True: a cached plan would skip it
        self._value_check = _negative_power_check if name == "power" else None
        self.__doc__ = doc or np_ufunc.__doc__

    # the same ufunc with the loops NumPy runs when the second operand is one value for the whole
    # inner loop (OneOperandUfunc; ufunc.at's one-element updates take them too)
    _single = None

    # attributes NumPy users read
    nin = property(lambda self: self._np.nin)
    nout = property(lambda self: self._np.nout)
    nargs = property(lambda self: self._np.nargs)
    ntypes = property(lambda self: len(self.types))
    identity = property(lambda self: self._np.identity)
    signature = property(lambda self: None)

    @property
    def types(self):
        """The loops NumPy has and npgpu runs (supported dtypes only)."""
        ok = set("?bBhHiIlLqQefdFD")
        return [t for t in self._np.types if set(t.replace("->", "")) <= ok]

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    # ---- type resolution ------------------------------------------------------------------------
    def _op_for(self, loop_in):
        # most specific first: full input signature, first input dtype, its kind, the default
        loops = self._loops
        op = (loops.get(",".join(d.name for d in loop_in)) or loops.get(loop_in[0].name)
              or loops.get(loop_in[0].kind) or loops.get(""))
        if op is None:
            raise TypeError(f"ufunc '{self.__name__}' not supported for the input types "
                            f"{tuple(str(d) for d in loop_in)} on the GPU")
        return op

    def resolve(self, keys, dtype=None, casting="same_kind", signature=None):
        """(loop input dtypes, loop output dtypes, op): NumPy's loop for operands of ``keys``
        (``signature=`` picks it as NumPy does; ``dtype=`` is the outputs' signature)."""
        ck = (keys, dtype, casting, signature)
        r = self._resolved.get(ck)
        if r is not None:
            return r
        sig = signature
        if dtype is not None:
            dt = check_dtype(dtype)
            sig = (None,) * self.nin + (dt,) * self.nout
        kw = {"signature": sig} if sig is not None else {}
        dts = self._np.resolve_dtypes(tuple(keys) + (None,) * self.nout, casting=casting, **kw)
        loop_in = tuple(dts[:self.nin])
        loop_out = tuple(dts[self.nin:])
        for d in loop_in + loop_out:
            check_dtype(d)
        r = (loop_in, loop_out, self._op_for(loop_in))
        self._resolved[ck] = r
        return r

    def resolve_dtypes(self, dtypes, *, signature=None, casting=None, reduction=False):
        """NumPy's ``ufunc.resolve_dtypes``: the operand dtypes of the loop a call with these
        dtypes runs (NumPy's answer and errors); a loop npgpu does not run (an unsupported
        dtype) is npgpu's TypeError, as the call would be."""
        # NumPy rejects signature=None and casting=None passed explicitly: pass only those given
        kw = {"reduction": reduction}
        if signature is not None:
            kw["signature"] = signature
        if casting is not None:
            kw["casting"] = casting
        dts = self._np.resolve_dtypes(dtypes, **kw)
        for d in dts:
            check_dtype(d)
        self._op_for(dts[:self.nin])
        return dts

    # ---- call ------------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        # Fast path: no options, C-contiguous npgpu arrays of one shape, one output.
        # Everything host-side is cached per input dtypes in ``_plans``.
        if not kwargs and not _multi_device[0]:
            if self._nin2 and len(args) == 2:
                a, b = args
                if (a.__class__ is ndarray and b.__class__ is ndarray and a._c_contig
                        and b._c_contig and a._shape == b._shape):
                    plan = self._plans.get((a._dtype, b._dtype))
                    if plan is not None:
                        kern, odt, words = plan
                        out = empty_array(a._shape, odt)
                        n = _prod(a._shape)
                        if words is not None and n >= _ew.WORDS_MIN:
                            _ew.launch_words(words, kern, n, (out, a, b))
                        elif n:
                            _launch2(kern, n, out, a, b)
                        return out
                if a.__class__ is ndarray and b.__class__ is ndarray:
                    # broadcasting and views (x - x.mean(axis=0)): the remembered resolution and
                    # result layout, no dry run (CPU, launch stubbed: 17 -> 8 us)
                    bp = self._bplans.get((a._dtype, b._dtype, a._shape, b._shape, a._strides,
                                           b._strides))
                    if bp is not None:
                        loop_in, loop_out, op, shape, order = bp
                        out = empty_array(shape, loop_out[0], order)
                        _ew.launch(op, [a, b], loop_in, [out], loop_out, name=self.__name__)
                        return out
                # one array and a scalar (x * 2, 1.0 - x, x + np.float32(1)): the resolution
                # is the scalar's type's (NEP 50), remembered per (array dtype, type, position)
                if a.__class__ is ndarray and b.__class__ in _FAST_SCALAR:
                    plan = self._splans.get((a._dtype, b.__class__, 1))
                    if plan is not None:
                        return self._scalar_call(plan, args, a, 1)
                elif b.__class__ is ndarray and a.__class__ in _FAST_SCALAR:
                    plan = self._splans.get((b._dtype, a.__class__, 0))
                    if plan is not None:
                        return self._scalar_call(plan, args, b, 0)
            elif self._nin1 and len(args) == 1:
                a = args[0]
                if a.__class__ is ndarray and a._c_contig:
                    plan = self._plans.get(a._dtype)
                    if plan is not None:
                        kern, odt, words = plan
                        out = empty_array(a._shape, odt)
                        n = _prod(a._shape)
                        if words is not None and n >= _ew.WORDS_MIN:
                            _ew.launch_words(words, kern, n, (out, a))
                        elif n:
                            _launch1(kern, n, out, a)
                        return out
            elif self._nin3 and len(args) == 3:
                # clip(x, 0, 1): one array first, two scalars (their types' resolution)
                a, lo, hi = args
                if (a.__class__ is ndarray and lo.__class__ in _FAST_SCALAR
                        and hi.__class__ in _FAST_SCALAR):
                    plan = self._splans.get((a._dtype, lo.__class__, hi.__class__))
                    if plan is not None:
                        return self._scalars_call(plan, args, a)
        elif len(kwargs) == 1 and not _multi_device[0] and len(args) == self.nin:
            # out= alone, the in-place form (x += y, np.add(x, y, out=x)): as above when the
            # output is a writeable C-contiguous array of the loop's dtype and shape that each
            # input is either apart from or the same elements as (CPU, launch stubbed: 18 -> 5 us)
            o = kwargs.get("out", False)
            if o is None:       # out=None (library code passing its own out= on): no keywords
                return self(*args)
            if o.__class__ is tuple and len(o) == 1:
                o = o[0]
            if o.__class__ is ndarray and o._c_contig and not o._ro:
                r = self._out_call(args, o)
                if r is not None:
                    return r
        return self._call(*args, **kwargs)

    def _out_call(self, args, o):
        """The fast path's launch into ``o`` (see :meth:`__call__`); None where it does not
        apply (the full path then answers)."""
        shape = o._shape
        for x in args:
            if x.__class__ is ndarray:
                if not (x._c_contig and x._shape == shape and _apart_or_same(x, o)):
                    return None
            elif x.__class__ not in _FAST_SCALAR or len(args) == 1:
                return None
        n = _prod(shape)
        if len(args) == 1:
            plan = self._plans.get(args[0]._dtype)
            if plan is None or plan[1] != o._dtype:
                return None
            kern, odt, words = plan
            a = args[0]
            if words is not None and n >= _ew.WORDS_MIN:
                _ew.launch_words(words, kern, n, (o, a))
            elif n:
                _launch1(kern, n, o, a)
            return o
        if len(args) != 2:      # clip(x, lo, hi, out=x): the ternary plans are keyed otherwise
            return None
        a, b = args
        if a.__class__ is ndarray and b.__class__ is ndarray:
            plan = self._plans.get((a._dtype, b._dtype))
            if plan is None or plan[1] != o._dtype:
                return None
            kern, odt, words = plan
            if words is not None and n >= _ew.WORDS_MIN:
                _ew.launch_words(words, kern, n, (o, a, b))
            elif n:
                _launch2(kern, n, o, a, b)
            return o
        pos = 0 if a.__class__ is not ndarray else 1
        if args[1 - pos].__class__ is not ndarray:
            return None
        plan = self._splans.get((args[1 - pos]._dtype, args[pos].__class__, pos))
        if plan is None or plan[1][0] != o._dtype:
            return None
        return self._scalar_call(plan, args, args[1 - pos], pos, o)

    def _scalar_call(self, plan, args, a, pos, out=None):
        """The remembered resolution of (array, scalar) applied: the scalar converted to its
        loop dtype (an out-of-range int takes the full path: NumPy's error or constant).
        A C-contiguous array off the ``words`` layout launches the kernel its first such call
        took (``plan[3]``) with the values put in here (CPU, launch stubbed: 7.0 -> 4 us).
        ``out``: a C-contiguous output checked by :meth:`_out_call`."""
        loop_in, loop_out, op, direct = plan
        try:
            sc = _scalar(args[pos], loop_in[pos])
        except OverflowError:
            return self._call(*args) if out is None else self._call(*args, out=out)
        if a._c_contig:
            if out is None:
                out = empty_array(a._shape, loop_out[0])
            n = _prod(a._shape)
            kern = direct[0]
            if kern is not None and n and not (direct[1] and _ew.words_size(n)):
                iso, isa = out._dtype.itemsize, a._dtype.itemsize
                s = (sc.real, sc.imag) if loop_in[pos].kind == "c" else (sc,)
                arr = (0, 0, n, isa, a._ptr, n, isa)
                g, blk = _grids.get((n, kern)) or _ew._grid(n, kern)
                kern(g, blk, (n, 0, 0, n, iso, out._ptr, n, iso)
                     + ((*arr, *s) if pos else (*s, *arr)))
                return out
        else:
            out = empty_array(a._shape, loop_out[0], "F" if a._f_contig else "C")
        kern = _ew.launch(op, [a, sc] if pos else [sc, a], loop_in, [out], loop_out,
                          name=self.__name__)
        if kern is not None and direct[0] is None and a._c_contig:
            direct[0] = kern
        return out

    def _scalars_call(self, plan, args, a):
        """The remembered resolution of (array, scalar, scalar) applied (``clip``), the scalars
        converted to their loop dtypes (an out-of-range int: the full path)."""
        loop_in, loop_out, op = plan
        try:
            ins = [a, _scalar(args[1], loop_in[1]), _scalar(args[2], loop_in[2])]
        except OverflowError:
            return self._call(*args)
        out = empty_array(a._shape, loop_out[0], "F" if a._f_contig and not a._c_contig else "C")
        _ew.launch(op, ins, loop_in, [out], loop_out, name=self.__name__)
        return out

    def _make_plan(self, inputs, loop_in, loop_out, op):
        """Remember the launcher of the all-contiguous-arrays case for these input dtypes."""
        dts = tuple(x.dtype for x in inputs)
        # the words kernel (large 4-byte operands) is compiled on its first use; where words
        # take every size (the simulator), so is the element kernel (misaligned views only)
        words = _ew.words_plan(op, dts, loop_out, loop_in, loop_out, self.__name__)
        kern = (None if words is not None and _ew.WORDS_MIN <= 1 else
                _ew.contig_kernel(op, dts, loop_out, loop_in, loop_out, self.__name__))
        self._plans[dts[0] if len(dts) == 1 else dts] = (kern, loop_out[0], words)

    def _call(self, *args, **kwargs):
        """Every call off the fast path: a fused or host-mode call handed on, else NumPy's errors
        for the call (:meth:`_check`), then :meth:`_run`."""
        for x in args:          # inside @npgpu.fuse: record instead of running
            trace = getattr(x, "_fuse_trace", None)
            if trace is not None:
                return trace.apply(self, args, _options(kwargs))
        out = kwargs.get("out")
        if _hostmode.on_host(*args, *(out if isinstance(out, tuple) else (out,))):
            # a host-mode @npgpu.fuse call: NumPy inputs compute with NumPy
            return self._np(*args, **kwargs)
        res = _overrides.dispatch(self, "__call__", args, kwargs)
        if res is not _overrides.NONE:
            return res
        nin = self.nin
        ins, err = [], None
        for x in args[:nin]:    # lists and the like to the device, unless npgpu cannot hold them
            if not isinstance(x, _AS_IS):
                try:
                    x = _host_operand(x)
                except (TypeError, ValueError) as e:
                    err = e     # NumPy's check below names the problem where NumPy has one
            ins.append(x)
        args = tuple(ins) + args[nin:]
        kwargs = self._check(args, kwargs)
        if err is not None:
            raise err
        return self._run(*args, **kwargs)

    def _check(self, args, kwargs):
        """NumPy's error class and message for this call (argument counts, out=, dtype=,
        signature=, casting=, order=, where='s dtype, unknown keywords, operand types): its ufunc
        run on 0-d stand-ins (:func:`dry_run`); shapes and values are checked by the call.
        Returns the keywords :meth:`_run` takes."""
        dry_run(self._np, args, kwargs)
        if len(args) > 2 and self.__name__ in ("maximum", "minimum"):
            # NumPy 2.4's deprecation of a positional out (the dry run silences NumPy's own)
            warnings.warn(_EXTREMUM_OUT, DeprecationWarning, stacklevel=_caller_level())
        if kwargs.get("where", True) is not True and "out" not in kwargs and \
                len(args) <= self.nin:
            # NumPy's warning (the dry run silences it): the masked-out elements are garbage
            warnings.warn("'where' used without 'out', expect unitialized memory in output. "
                          "If this is intentional, use out=None.", UserWarning,
                          stacklevel=_caller_level())
        if "sig" in kwargs or kwargs.get("out", None) is Ellipsis:
            # NumPy's alias of signature=; out=... (results as arrays, never scalars) is what
            # npgpu always returns
            kwargs = dict(kwargs)
            if "sig" in kwargs:
                kwargs["signature"] = kwargs.pop("sig")
            if kwargs.get("out") is Ellipsis:
                kwargs["out"] = None
        return kwargs

    def _run(self, *args, out=None, where=True, casting="same_kind", order="K", dtype=None,
             subok=True, signature=None):
        nin, nout = self.nin, self.nout
        if len(args) > nin:
            out = args[nin:]
            args = args[:nin]
        outs = self._normalize_out(out)
        inputs, keys = operands(args)
        const = None
        if self._compare is not None and keys[0] is int and keys[1] is int:   # (dtype == int)
            # two Python ints: NumPy compares them exactly (its object loop), whatever their size
            const = _CONSTANT[bool(self._compare(*inputs))]
            inputs, keys = [False, False], (_BOOL, _BOOL)      # unread by the constant loop
        elif nin == 1 and keys[0] is int:
            # a lone Python int converts by its value, as NumPy's (2**63 is uint64); past uint64
            # NumPy's object loop: its error, else npgpu's (no object dtype)
            dt = np.asarray(inputs[0]).dtype
            err = numpy_error(self._np, inputs, {}) if dt.kind == "O" else None
            if err is not None:
                raise err
            keys = (check_dtype(dt),)
        loop_in, loop_out, op = self.resolve(tuple(keys), dtype, casting, signature)
        if _multi_device[0]:
            _check_devices(inputs, outs)
        # scalars become NumPy scalars of the loop's input dtype (NumPy's overflow errors included)
        op0 = op
        if const is not None:
            op = const
        arrays = []
        for i, x in enumerate(inputs):
            if isinstance(x, ndarray):
                arrays.append(x)
            else:
                try:
                    inputs[i] = _scalar(x, loop_in[i])
                except OverflowError:
                    op = self._out_of_range(inputs, i, loop_in, keys)
                    if op is None:
                        raise
                    inputs[i] = loop_in[i].type(0)    # unread by the constant loop
        if len(arrays) == 1:
            shape = arrays[0].shape
        else:
            try:
                shape = np.broadcast_shapes(*(a.shape for a in arrays))
            except ValueError:
                raise _operands_error(inputs, outs) from None
        checked = self._value_check is not None and self._value_check(inputs, loop_in, shape, where)
        if where is not True:
            return self._call_where(inputs, loop_in, loop_out, op, shape, outs, where, casting, order)
        fresh = outs is None
        # (the plans hold the resolution and kernels, not the output: out= calls make them too)
        if (dtype is None and casting == "same_kind" and nin == 2 and self.nout == 1
                and len(arrays) == 1 and op is op0 and self._value_check is None
                and order == "K" and signature is None):
            pos = 0 if args[1] is arrays[0] else 1
            if args[pos].__class__ in _FAST_SCALAR and args[1 - pos].__class__ is ndarray:
                # (direct: [the contiguous kernel once launched, whether the words layout
                # could take these operands instead])
                self._splans[(arrays[0].dtype, args[pos].__class__, pos)] = \
                    (loop_in, loop_out, op, [None, _ew.words_dtypes((arrays[0].dtype,
                                                                     *loop_out))])
        if (fresh and dtype is None and casting == "same_kind" and self._nin3
                and len(arrays) == 1 and args[0] is arrays[0] and op is op0
                and self._value_check is None and order == "K" and signature is None
                and args[1].__class__ in _FAST_SCALAR and args[2].__class__ in _FAST_SCALAR):
            self._splans[(arrays[0].dtype, args[1].__class__, args[2].__class__)] = \
                (loop_in, loop_out, op)
        # (not from an empty call: the plan compiles its kernel, which an empty call never runs)
        if (dtype is None and casting == "same_kind" and self.nout == 1
                and len(arrays) == nin and self.nin <= 2 and not checked and signature is None
                and 0 not in shape
                and (arrays[0].dtype if nin == 1 else tuple(a.dtype for a in arrays))
                not in self._plans):
            self._make_plan(inputs, loop_in, loop_out, op)
        outs = self._prepare_out(outs, shape, loop_out, casting, order, arrays, inputs)
        if (fresh and self._nin2 and len(arrays) == 2 and dtype is None and op is op0
                and casting == "same_kind" and order == "K" and signature is None
                and self._value_check is None and 0 not in shape):
            a, b = arrays
            if len(self._bplans) > 1024:
                self._bplans.clear()
            self._bplans[(a.dtype, b.dtype, a.shape, b.shape, a._strides, b._strides)] = (
                loop_in, loop_out, op, shape, "F" if outs[0]._f_contig and not outs[0]._c_contig
                else "C")
        if not fresh:   # a new output cannot overlap the inputs
            self._guard_overlap(inputs, outs, shape)
        _ew.launch(op, inputs, loop_in, outs, loop_out, name=self.__name__)
        return outs[0] if nout == 1 else tuple(outs)

    def _out_of_range(self, inputs, i, loop_in, keys):
        """The constant loop of a comparison of an integer array (or NumPy integer) with a Python
        int outside its dtype's range (NumPy 2's special case); None where NumPy raises (a bool
        operand, Python's or NumPy's, is no integer here: its loop is int64's)."""
        if self._compare is None:
            return None
        x, other = inputs[i], keys[1 - i]      # (the other operand may be converted already)
        if (type(x) is not int or loop_in[i].kind not in "iu"
                or not isinstance(other, np.dtype) or other.kind not in "iu"):
            return None
        info = np.iinfo(loop_in[i])
        edge = info.max if x > info.max else info.min    # every element compares as the edge does
        return _CONSTANT[bool(self._compare(x, edge) if i == 0 else self._compare(edge, x))]

    def _normalize_out(self, out):
        if out is None:
            return None
        if not isinstance(out, tuple):
            out = (out,)
        for o in out:           # NumPy's check has seen the count and the non-arrays
            if o is not None:
                if not isinstance(o, ndarray):
                    raise TypeError("return arrays must be of ArrayType (npgpu.ndarray, not "
                                    f"{type(o).__module__}.{type(o).__name__})")
                if o._ro:
                    fail_unless_writeable(o, "output array")
        return out

    def _prepare_out(self, outs, shape, loop_out, casting, order, arrays, inputs=None,
                     where=None):
        if order in ("K", "A"):
            order = "F" if arrays and all(a._f_contig and not a._c_contig for a in arrays) else "C"
        res = []
        for j in range(self.nout):
            o = None if outs is None else outs[j]
            if o is None:
                o = empty_array(shape, loop_out[j], order)
            else:
                if o.shape != shape:
                    try:
                        full = np.broadcast_shapes(o.shape, shape)
                    except ValueError:
                        raise _operands_error(arrays if inputs is None else inputs,
                                              outs, where) from None
                    if full != o.shape:
                        raise ValueError("non-broadcastable output operand with shape "
                                         f"{c_shape_text(o.shape)} doesn't match the broadcast "
                                         f"shape {c_shape_text(full)}")
                if not np.can_cast(loop_out[j], o.dtype, casting=casting):
                    raise _casting_error(self.__name__, loop_out[j], o.dtype, casting, j)
            res.append(o)
        return res

    @staticmethod
    def _guard_overlap(inputs, outs, shape):
        """Inputs that overlap an output other than element-for-element are copied first."""
        for i, x in enumerate(inputs):
            if isinstance(x, ndarray):
                for o in outs:
                    if _copy.may_overlap(o, x) and not _copy.same_elements(o, x, o.shape):
                        inputs[i] = x.copy()
                        break

    def _call_where(self, inputs, loop_in, loop_out, op, shape, outs, where, casting, order):
        from ..creation import asarray
        mask = asarray(False if where is None else where)    # NumPy: None selects nothing
        if mask.dtype != _BOOL:
            mask = mask.astype(_BOOL)
        try:
            shape = np.broadcast_shapes(shape, mask.shape)
        except ValueError:
            raise _operands_error(inputs, outs, mask) from None
        arrays = [x for x in inputs if isinstance(x, ndarray)]
        outs = self._prepare_out(outs, shape, loop_out, casting, order, arrays, inputs, mask)
        tmp = [empty_array(shape, d) for d in loop_out]
        self._guard_overlap(inputs, tmp, shape)
        _ew.launch(op, inputs, loop_in, tmp, loop_out, name=self.__name__)
        for o, t in zip(outs, tmp):
            masked_copy(o, t, mask)
        return outs[0] if self.nout == 1 else tuple(outs)

    # ---- methods ---------------------------------------------------------------------------------
    def _method(self, name, run, args, kwargs):
        """``run(*args, **kwargs)``, NumPy's ufunc method ``name`` on the same call answering
        for every error: where npgpu raises, NumPy's exception (from host stand-ins,
        :func:`numpy_error`) is raised if it has one.  A non-bool ``where=`` array, which npgpu
        would cast, is NumPy's error before anything runs."""
        res = _overrides.dispatch_method(self, name, args, kwargs)
        if res is not _overrides.NONE:
            return res
        func = getattr(self._np, name)
        if kwargs.get("out", None) is Ellipsis:       # npgpu's results are arrays already
            kwargs = {**kwargs, "out": None}
        where = kwargs.get("where", args[6] if name == "reduce" and len(args) > 6 else True)
        if isinstance(where, _ARRAYS) and where.dtype != _BOOL:
            err = numpy_error(func, args, kwargs)
            if err is not None:
                raise err
        try:
            return run(*args, **kwargs)
        except (TypeError, ValueError, IndexError):
            err = numpy_error(func, args, kwargs, writable=name == "at")
            if err is None:
                raise
        raise err

    def outer(self, *args, **kwargs):
        return self._method("outer", self._outer, args, kwargs)

    def _outer(self, A, B, **kwargs):
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        from ..creation import asarray
        # NumPy's outer makes every operand an array: a Python scalar is not weak there
        A = np.asarray(A) if np.isscalar(A) else asarray(A)
        B = np.asarray(B) if np.isscalar(B) else asarray(B)
        if isinstance(A, ndarray) and isinstance(B, ndarray):
            A = A.reshape(A.shape + (1,) * B.ndim)
        return self(A, B, **kwargs)

    def reduce(self, *args, **kwargs):
        return self._method("reduce", partial(_ops["ufunc_reduce"], self), args, kwargs)

    def accumulate(self, *args, **kwargs):
        return self._method("accumulate", partial(_ops["ufunc_accumulate"], self), args, kwargs)

    def reduceat(self, *args, **kwargs):
        return self._method("reduceat", partial(_ops["ufunc_reduceat"], self), args, kwargs)

    def at(self, *args, **kwargs):
        return self._method("at", partial(_ops["ufunc_at"], self), args, kwargs)


class OneOperandUfunc(ufunc):
    """A ufunc whose NumPy loops take other paths where the second operand is one value for the
    whole inner loop (table.py's ``ONE_OPERAND``: power): such calls run ``_single``, the same
    ufunc with those loops (its own plans, as every call it takes has such an operand)."""

    def __init__(self, name, np_ufunc, loops, single_loops):
        super().__init__(name, np_ufunc, loops)
        self._single = ufunc(name, np_ufunc, single_loops)

    def __call__(self, *args, **kwargs):
        if not (len(args) == 2 and not kwargs and args[0].__class__ is ndarray
                and (args[1].__class__ is ndarray or args[1].__class__ in _FAST_SCALAR)):
            # an override gets this ufunc, not _single
            res = _overrides.dispatch(self, "__call__", args, kwargs)
            if res is not _overrides.NONE:
                return res
        if len(args) >= 2 and _one_value(self, args, kwargs):
            return self._single(*args, **kwargs)
        return ufunc.__call__(self, *args, **kwargs)


def _one_value(uf, args, kwargs):
    """Does NumPy's inner loop read ``args[1]`` with a zero stride?  A scalar or 0-d array, or
    an array of one value (one element, a broadcast view of one) that NumPy's iterator
    broadcasts, does; one element read by NumPy's trivial loop (every other operand 0-d or of
    its shape, no where= mask, an output of the loop's dtype) keeps its stride.  An operand
    broadcast along some axes only (a column) is taken as elementwise: NumPy reads it through
    its iterator's buffer or not depending on sizes."""
    e = args[1]
    if e.__class__ in _FAST_SCALAR or isinstance(e, np.generic):
        return True
    if isinstance(e, (ndarray, np.ndarray)):
        shape, strides = e.shape, (e._strides if isinstance(e, ndarray) else e.strides)
    else:
        try:
            shape = np.shape(e)     # a list: contiguous
        except (TypeError, ValueError):
            return False
        strides = (1,) * len(shape)
    if not shape:
        return True
    if 0 in shape or any(n > 1 and s for n, s in zip(shape, strides)):
        return False
    if _prod(shape) > 1 or kwargs.get("where", True) is not True:
        return True     # a view of one element (no trivial loop), or NumPy's masked loop
    out = kwargs.get("out", args[2] if len(args) > 2 else None)
    if isinstance(out, tuple):
        out = out[0] if len(out) == 1 else None
    try:
        if any(np.shape(x) not in ((), shape) for x in (args[0], out) if x is not None):
            return True
        if out is not None:
            kw = {k: v for k, v in kwargs.items() if k in ("dtype", "casting", "signature")}
            return dry_run(uf._np, args[:2], kw) != out.dtype
    except (TypeError, ValueError):
        pass        # the call itself raises NumPy's error
    return False


def _check_devices(inputs, out):
    """Operands must live on the current device (checked once several devices are in use)."""
    cur = _runtime.get_device_id()
    for x in list(inputs) + list(out or ()):
        if isinstance(x, ndarray) and x._mem.device_id != cur:
            raise ValueError(f"array on device {x._mem.device_id} cannot be used in an operation "
                             f"on device {cur}; copy it with npgpu.asarray inside "
                             f"`with npgpu.cuda.Device({cur}):` first")


def _negative_power_check(inputs, loop_in, shape, where):
    """NumPy's integer power loop raises on a negative exponent among the elements it computes.

    A scalar exponent is tested on the host; a signed array exponent on the device (its minimum,
    or with ``where=`` any negative under the mask: one reduction and one scalar read, which
    synchronises). Returns True where the answer depends on array values, so no plan caches
    the call."""
    e = inputs[1]
    scalar = not isinstance(e, ndarray)
    if loop_in[1].kind not in "iu" or not (scalar or e.dtype.kind == "i"):
        return False
    if scalar and not e < 0:
        return False
    if 0 not in shape:      # an empty result computes nothing, so NumPy checks nothing
        ops = _ops
        if where is not True:
            from ..creation import asarray
            mask = asarray(where)
            bad = ops["any"](mask if scalar else ops["logical_and"](ops["less"](e, 0), mask))
            bad = bad.item()
        else:
            bad = scalar or ops["min"](e).item() < 0
        if bad:
            raise ValueError("Integers to negative integer powers are not allowed.")
    return True


_DEFAULTS = {"out": None, "dtype": None, "casting": "same_kind", "where": True, "order": "K",
             "subok": True, "signature": None}
_LAYOUT_ONLY = ("order", "subok")      # no bearing on a fused function's values


def _options(kwargs):
    """The keyword arguments of a call that differ from the defaults (for @npgpu.fuse)."""
    return {k: v for k, v in kwargs.items()
            if k not in _LAYOUT_ONLY and not (k in _DEFAULTS and v is _DEFAULTS[k])}


# ---- NumPy's errors for a call: its ufunc on 0-d stand-ins -------------------------------
# operands a check sees as they are (others become npgpu arrays first, as the call makes them):
# arrays, scalars, and what no array holds (NumPy's "did not contain a loop" & co)
_AS_IS = (ndarray, np.ndarray, np.generic, int, float, complex, str, bytes, type(None))
_ARRAY_TYPES = (ndarray, np.ndarray)
_ARRAYS = _ARRAY_TYPES + (np.generic,)
_DRY = {}


def stand_in(x):
    """A keyword's host stand-in for an npgpu or NumPy array: one element of its dtype, 0-d or 1-d
    as it is (NumPy's where= cast error names a scalar or "array data"); tuples mapped; anything
    else (NumPy scalars included: NumPy takes where=np.float64(1) as a Python float) as it is."""
    if isinstance(x, _ARRAY_TYPES):
        return np.zeros((1,) if x.ndim else (), x.dtype)
    if isinstance(x, tuple):
        return tuple(map(stand_in, x))
    return x


def _dry_key(x):
    """What of a keyword value a check depends on: an array's dtype, else the typed value."""
    if isinstance(x, _ARRAY_TYPES):
        return x.dtype, x.ndim > 0
    if isinstance(x, tuple):
        return tuple(map(_dry_key, x))
    return x.__class__, x


def numpy_error(func, args, kwargs, writable=False):
    """The exception ``func(*args, **kwargs)`` -- a NumPy ufunc method -- raises on host
    stand-ins of the npgpu arrays, or None where it raises none: the first operand zeros
    broadcast to its shape (no memory; ``writable``: allocated, for ``at``), every other array
    copied (index values and shapes are what NumPy checks).  For error paths: NumPy computes
    where it finds nothing wrong."""
    def host(x):
        if isinstance(x, tuple):
            return tuple(map(host, x))
        return x.get() if isinstance(x, ndarray) else x
    first = args[0] if args else None
    if isinstance(first, ndarray):
        first = np.zeros(first.shape, first.dtype) if writable else \
            _layout.host_stand_in(first.shape, first.dtype)
        args = (first,) + args[1:]
    try:
        with warnings_lock, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                func(*map(host, args), **{k: host(v) for k, v in kwargs.items()})
    except Exception as e:          # noqa: BLE001 - NumPy's answer, handed to the caller
        return e
    return None


def _operand_stand_in(x):
    """An operand's stand-in: 0-d (broadcasting against anything: shapes are the call's to
    check), a Python scalar as the zero of its type (NEP 50 looks at the type only)."""
    if x.__class__ in _PY_SCALAR:
        return x.__class__(0)
    return np.zeros((), x.dtype) if isinstance(x, _ARRAYS) else stand_in(x)


def _operand_key(x):
    if x.__class__ in _PY_SCALAR:
        return x.__class__
    return x.dtype if isinstance(x, _ARRAYS) else _dry_key(x)


def dry_run(func, args, kwargs):
    """The result dtype (a tuple of them for several outputs) of ``func(*args, **kwargs)`` -- a
    NumPy or SciPy ufunc -- run on stand-ins of the operands (:func:`_operand_stand_in`) and
    keywords (:func:`stand_in`), so that the call raises ``func``'s error class and message.
    Answers are remembered per (func, operand dtypes/types, keywords); an unhashable keyword
    (a list) asks every time."""
    nin = getattr(func, "nin", len(args))     # positional outputs stand in as out= does
    try:
        key = (func, tuple(map(_operand_key, args[:nin])), tuple(map(_dry_key, args[nin:])),
               tuple((k, _dry_key(v)) for k, v in kwargs.items()))
        r = _DRY.get(key)
    except TypeError:
        key = r = None
    if r is None:
        ins = [_operand_stand_in(x) for x in args[:nin]] + [stand_in(x) for x in args[nin:]]
        # a sequence where= as the bool array NumPy makes of it (any values): its shape must
        # not meet the stand-ins'
        kw = {k: stand_in(np.asarray(v, bool) if k == "where" and v.__class__ in (list, tuple)
                          else v)
              for k, v in kwargs.items()}
        with warnings_lock, warnings.catch_warnings():      # the filters are process-wide
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                res = func(*ins, **kw)
        r = (tuple(np.asarray(v).dtype for v in res) if isinstance(res, tuple)
             else np.asarray(res).dtype)
        if key is not None:
            if len(_DRY) > 4096:
                _DRY.clear()
            _DRY[key] = r
    return r


_EXTREMUM_OUT = ("Passing more than 2 positional arguments to np.maximum and np.minimum is "
                 "deprecated. If you meant to use the third argument as an output, use the `out` "
                 "keyword argument instead. If you hoped to work with more than 2 inputs, combine "
                 "them into a single array and get the extrema for the relevant axis.")


def _caller_level():
    """warnings.warn's stacklevel naming the first frame outside this module (a warning
    about the user's call points at it)."""
    f, level = sys._getframe(1), 1
    while f is not None and f.f_globals.get("__name__") == __name__:
        f, level = f.f_back, level + 1
    return level


def _launch1(kern, n, out, a):
    """The contiguous element kernel of a unary loop over ``n`` elements of C-contiguous ``out``
    and ``a``."""
    iso, isa = out._dtype.itemsize, a._dtype.itemsize
    g, blk = _grids.get((n, kern)) or _ew._grid(n, kern)
    kern(g, blk, (n, 0, 0, n, iso, out._ptr, n, iso, 0, 0, n, isa, a._ptr, n, isa))


def _launch2(kern, n, out, a, b):
    """The contiguous element kernel of a binary loop over ``n`` elements of C-contiguous
    ``out``, ``a``, ``b``."""
    iso, isa, isb = out._dtype.itemsize, a._dtype.itemsize, b._dtype.itemsize
    g, blk = _grids.get((n, kern)) or _ew._grid(n, kern)
    kern(g, blk, (n, 0, 0, n, iso, out._ptr, n, iso, 0, 0, n, isa, a._ptr, n, isa, 0, 0, n, isb,
                  b._ptr, n, isb))


def _apart_or_same(x, o):
    """Are C-contiguous ``x`` and ``o`` (one shape) elementwise-safe as input and output: the
    same elements (same address and itemsize), or no byte in common?"""
    if x._ptr == o._ptr:
        return x._dtype.itemsize == o._dtype.itemsize
    n = _prod(o._shape)
    return x._ptr + n * x._dtype.itemsize <= o._ptr or o._ptr + n * o._dtype.itemsize <= x._ptr


def _scalar(x, dt):
    if isinstance(x, np.generic) and x.dtype == dt:
        return x
    if dt.kind in "iu" and isinstance(x, int) and not isinstance(x, bool):
        return _copy.int_scalar(x, dt)     # NumPy's OverflowError for out-of-range ints
    if x.__class__ is float and dt.kind in "fc" or x.__class__ is complex and dt.kind == "c":
        return dt.type(x)      # what astype gives (rounding, inf, nan), without an array
    if x.__class__ is int and dt.kind in "fc" and -(1 << 53) <= x <= 1 << 53:
        return dt.type(x)      # exact in float64, rounded once to the loop's type as astype does
    if x.__class__ is bool and dt.kind == "b":
        return dt.type(x)
    return np.asarray(x).astype(dt)[()]


def _operands_error(inputs, outs, where=None):
    """NumPy's error for operands (inputs, then any ``out=`` arrays, then ``where``) that do not
    broadcast."""
    shapes = [np.shape(x) if not isinstance(x, ndarray) else x.shape for x in inputs]
    shapes += [o.shape for o in (outs or ()) if o is not None]
    if where is not None:
        shapes.append(where.shape)
    return ValueError("operands could not be broadcast together with shapes "
                      + "".join(c_shape_text(sh) + " " for sh in shapes))


def _casting_error(name, frm, to, casting, j):
    return TypeError(f"Cannot cast ufunc '{name}' output from {frm!r} to {to!r} with casting "
                     f"rule '{casting}'")


_SELECT = _ew.ScalarOp.from_expr("where_select", 3, "x1 if x0 else x2")


def masked_copy(dst, src, mask):
    """dst[mask] = src[mask] elementwise (broadcasting src and mask to dst)."""
    _ew.launch(_SELECT, [mask, src, dst], [_BOOL, dst.dtype, dst.dtype], [dst], [dst.dtype],
               name="where")
