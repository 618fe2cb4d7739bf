"""Tracing: proxy values that record a fused function's elementwise work as ScalarOp lines.

A :class:`_Var` stands for a value inside ``@npgpu.fuse``: an argument, a constant, or the
result of a ufunc, cast, ``where``.  Every such step becomes one line ``tK = ...`` of a
:class:`_Trace` (each ufunc's loop a device function, NumPy's casts between, an intermediate
rounded to its dtype as a stored array would be).  Values carry their shape (arguments are
real arrays of this call), so broadcasting errors are NumPy's, raised where the function
does the step.  A value a non-fusable step needs (matmul, indexing, sort, ``.get()``...) is
*materialized*: the lines it depends on become one elementwise kernel, and the value then
stands for the array that kernel wrote.
"""
import hashlib
import re

import numpy as np

from .._codegen import elementwise as _ew
from .._codegen.stats import stats as _cstats
from .._core import copy as _copy
from .._core.ndarray import _ops, empty_array, ndarray
from ..ufuncs import UFUNCS
from ..ufuncs.ufunc import _casting_error, _scalar

_NEG_POWER = "Integers to negative integer powers are not allowed."
_NAME = re.compile(r"\b([tx])(\d+)\b")
_WEAK = (int, float, complex)
_NO_TRUTH = ("a traced npgpu.fuse value has no truth value: Python control flow (if/while/and/"
             "or/bool) on array values cannot be fused; compute both branches and choose with "
             "npgpu.where(condition, x, y)")


class NotFusable(TypeError):
    """A step ``fuse(strict=True)`` cannot put in a kernel."""


class _Var:
    """A value inside a traced function: an input, a constant or a ufunc's result."""

    __slots__ = ("_fuse_trace", "expr", "dtype", "weak", "const", "shape", "array")

    def __init__(self, trace, expr, dtype, weak=None, const=None, shape=(), array=False):
        self._fuse_trace = trace
        self.array = array         # an npgpu array argument (0-d ones too): updated in place
        self.expr = expr           # source naming the value (in its compute dtype)
        self.dtype = dtype         # NumPy dtype of the value (None for a weak Python scalar)
        self.weak = weak           # Python type (int/float/complex) of a weak scalar
        self.const = const         # its value, when it is a literal in the function
        self.shape = shape

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))
    itemsize = property(lambda self: self.dtype.itemsize)

    def __array_ufunc__(self, *a, **k):
        return NotImplemented

    def __bool__(self):
        raise TypeError(_NO_TRUTH)

    __int__ = __float__ = __complex__ = __index__ = __bool__

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        raise TypeError("iterating over a traced npgpu.fuse value is not fusable: use array "
                        "operations (or npgpu.where) instead of Python loops over elements")

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        dt = np.dtype(dtype)
        src = self.dtype if self.dtype is not None else np.dtype(self.weak)
        if not np.can_cast(src, dt, casting=casting):
            raise TypeError(f"Cannot cast array data from {src!r} to {dt!r} according to the "
                            f"rule {casting!r}")
        return self._fuse_trace.cast(self, dt)

    # a complex value's parts are one line each (a real value is its own real part)
    real = property(lambda self: self._fuse_trace.part(self, "real"))
    imag = property(lambda self: self._fuse_trace.part(self, "imag"))

    # non-fusable uses: the value becomes an array first
    @property
    def __cuda_array_interface__(self):
        return self._fuse_trace.materialize(self, "the CUDA array interface").__cuda_array_interface__

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._fuse_trace.materialize(self, f"'.{name}'"), name)

    def __getitem__(self, index):
        return self._fuse_trace.materialize(self, "indexing")[index]

    def __setitem__(self, index, value):
        tr = self._fuse_trace
        arr = tr.materialize(self, "item assignment", own=True)
        if isinstance(value, _Var):
            value = tr.materialize(value, "item assignment")
        arr[index] = value

    def __matmul__(self, other):
        return self._fuse_trace.opaque("matmul", _ops["matmul"], self, other)

    def __rmatmul__(self, other):
        return self._fuse_trace.opaque("matmul", _ops["matmul"], other, self)

    def __divmod__(self, other):
        return self._fuse_trace.apply(UFUNCS["divmod"], (self, other))

    def __rdivmod__(self, other):
        return self._fuse_trace.apply(UFUNCS["divmod"], (other, self))

    def __pow__(self, other):
        # NumPy's ndarray shortcut: x ** 2 is square, float or complex x ** -1 is reciprocal
        # and x ** 0.5 sqrt
        if type(other) is int and other == 2:
            return self._fuse_trace.apply(UFUNCS["square"], (self,), python_op=True)
        if self.dtype is not None and self.dtype.kind in "fc":
            if type(other) is int and other == -1:
                return self._fuse_trace.apply(UFUNCS["reciprocal"], (self,))
            if type(other) is float and other == 0.5:
                return self._fuse_trace.apply(UFUNCS["sqrt"], (self,))
        return self._fuse_trace.apply(UFUNCS["power"], (self, other), python_op=True)

    def __rpow__(self, other):
        return self._fuse_trace.apply(UFUNCS["power"], (other, self), python_op=True)

    def __ipow__(self, other):
        if self.shape == () and not self.array:          # an immutable scalar: rebinds
            return self.__pow__(other)
        return self._fuse_trace.apply(UFUNCS["power"], (self, other), {"out": self})

    # reductions and the other ndarray methods inside a fused function
    def _method(name):
        def m(self, *args, **kwargs):
            return _ops[name](self, *args, **kwargs)
        m.__name__ = name
        return m

    for _m in ("sum", "prod", "min", "max", "mean", "var", "std", "any", "all", "argmax",
               "argmin", "clip"):
        locals()[_m] = _method(_m)
    del _m, _method

    def __repr__(self):
        return f"<npgpu.fuse value {self.dtype or self.weak.__name__} {self.shape}>"


def _binop(name, reverse=False):
    def f(self, other):
        args = (other, self) if reverse else (self, other)
        return self._fuse_trace.apply(UFUNCS[name], args, python_op=True)
    return f


def _inplace(name):
    def f(self, other):
        if self.shape == () and not self.array:
            # a Python or NumPy scalar (or a 0-d result, a scalar in NumPy) is immutable:
            # `s += 1` binds s to a new value, as outside a fused function
            return self._fuse_trace.apply(UFUNCS[name], (self, other), python_op=True)
        return self._fuse_trace.apply(UFUNCS[name], (self, other), {"out": self})
    return f


for _py, _uf in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
                 ("floordiv", "floor_divide"), ("mod", "remainder"),
                 ("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"),
                 ("lshift", "left_shift"), ("rshift", "right_shift")):
    setattr(_Var, f"__{_py}__", _binop(_uf))
    setattr(_Var, f"__r{_py}__", _binop(_uf, reverse=True))
    setattr(_Var, f"__i{_py}__", _inplace(_uf))
for _py, _uf in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal"),
                 ("eq", "equal"), ("ne", "not_equal")):
    setattr(_Var, f"__{_py}__", _binop(_uf))
for _py, _uf in (("neg", "negative"), ("pos", "positive"), ("abs", "absolute"), ("invert", "invert")):
    setattr(_Var, f"__{_py}__",
            (lambda n: lambda self: self._fuse_trace.apply(UFUNCS[n], (self,), python_op=True))(_uf))
_Var.__hash__ = None


def shape_str(s):
    return "(" + ",".join(str(n) for n in s) + ("," if len(s) == 1 else "") + ")"


def broadcast(shapes):
    """np.broadcast_shapes with the message NumPy's ufuncs give."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError("operands could not be broadcast together with shapes "
                         + "".join(shape_str(s) + " " for s in shapes)) from None


class _Trace:
    """Records the steps of one traced call; renders the elementwise ones as ScalarOps.

    ``slots``: the call's inputs (arrays, NumPy scalars, Python scalars), named ``x{k}`` in the
    lines; ``lines``: ``tK = expr`` in order (SSA: a value's name never changes meaning)."""

    def __init__(self, name="fused", strict=False):
        self.name = name
        self.strict = strict
        self.lines = []
        self.funcs = {}            # source of a loop's device function -> its name here
        self.helpers = []
        self.counter = 0
        self.exponents = []        # signed integer power exponents known only at run time
        self.negative_literal = False   # a literal negative one: every non-empty call raises
        self.negative_lines = set()     # ... the temporaries computed with one
        self.slots = []            # input values
        self.slot_dtypes = []      # loop dtype of each slot (weak scalars: their default)
        self.pure = True           # only elementwise steps over the arguments so far
        self.writebacks = []       # (argument array, _Var): in-place updates of arguments
        self.reductions = 0
        # the recording a replay is built from (:mod:`.program`): steps in order, where each
        # slot's value comes from, and whether anything ran outside the trace's own steps
        self.steps = []            # ("ew"|"reduce", ...) records, see program.py
        self.slot_src = []         # per slot: ("arg", i) | ("step", j, o) | None (unknown)
        self.produced = {}         # id(array a step wrote) -> ("step", j, o)
        self.kept = []             # those arrays (their ids stay theirs while tracing)
        self.recordable = True
        self.own_launches = 0
        self.result_class = None   # the class of the reductions' results while tracing
        self.results = []          # those results

    def traced_result(self, arr):
        """A reduction's result ``arr``, made an array whose ufunc calls this trace records
        (``log(x.sum(axis=1, keepdims=True))``: a step of the call, not a launch outside it):
        until :meth:`end`, its class is a subclass of ndarray naming the trace (the ufuncs'
        fast paths then leave it to their traced call), otherwise the array it is."""
        if arr.__class__ is ndarray:
            if self.result_class is None:
                # (its parts and casts are steps too)
                self.result_class = type("TracedResult", (ndarray,), {
                    "__slots__": (), "_fuse_trace": self,
                    "real": property(lambda a: self._lift(a).real),
                    "imag": property(lambda a: self._lift(a).imag),
                    "astype": lambda a, *args, **kw: self._lift(a).astype(*args, **kw)})
            arr.__class__ = self.result_class
            self.results.append(arr)
        return arr

    def end(self):
        """The reductions' results are plain arrays again (the trace is over)."""
        for arr in self.results:
            arr.__class__ = ndarray
        self.results = []

    def _tmp(self):
        self.counter += 1
        return f"t{self.counter}"

    # ---- inputs -----------------------------------------------------------------------------
    def add_slot(self, value, dtype, weak=None, shape=()):
        k = len(self.slots)
        self.slots.append(value)
        self.slot_dtypes.append(dtype if dtype is not None else np.dtype(weak))
        self.slot_src.append(self.produced.get(id(value)) if isinstance(value, ndarray) else None)
        return _Var(self, f"x{k}", dtype, weak=weak, shape=shape,
                    array=isinstance(value, ndarray))

    def argument(self, a):
        """The proxy of one argument of the call."""
        if isinstance(a, ndarray):
            return self.add_slot(a, a.dtype, shape=a.shape)
        t = type(a)
        if t in _WEAK:
            return self.add_slot(a, None, weak=t)
        if t is bool:
            return self.add_slot(np.bool_(a), np.dtype(np.bool_))
        if isinstance(a, np.generic):
            return self.add_slot(a, a.dtype)
        if isinstance(a, np.ndarray) and a.ndim == 0:
            return self.argument(a[()])
        if isinstance(a, np.ndarray):
            # mixed with npgpu arrays, a NumPy array is an input like any other array-like
            # (npgpu.add(gpu, host) copies host to the device too)
            from ..creation import asarray
            return self.argument(asarray(a))
        return a       # None, a tuple, a string...: the function sees it as it is

    def _lift(self, x):
        if isinstance(x, _Var):
            if x._fuse_trace is not self:
                raise TypeError("npgpu.fuse: a value of another fused call was used here")
            return x
        if type(x) in _WEAK:
            return _Var(self, None, None, weak=type(x), const=x)
        if type(x) is bool:
            return _Var(self, repr(x), np.dtype(np.bool_), const=x)
        if isinstance(x, np.generic):
            return _Var(self, _literal(x, _ew.compute_dtype(x.dtype)), x.dtype, const=x)
        if isinstance(x, ndarray):
            # an array made inside the function (or a non-fusable step's result)
            self.pure = False
            return self.add_slot(x, x.dtype, shape=x.shape)
        if isinstance(x, np.ndarray):
            if x.ndim == 0:
                return self._lift(x[()])
            from ..creation import asarray          # host data: copied, as ufuncs do
            return self._lift(asarray(x))
        if isinstance(x, (list, tuple)):
            from ..creation import asarray
            return self._lift(asarray(x))
        raise TypeError(f"npgpu.fuse: cannot use {type(x).__name__} inside a fused function")

    def _value_as(self, v, loop_dt):
        """Source of ``v`` converted to ``loop_dt``'s compute dtype, as a ufunc input."""
        if v.dtype is None:        # weak Python scalar: NumPy converts it to the loop dtype
            if v.const is not None:
                return _literal(_scalar(v.const, loop_dt), _ew.compute_dtype(loop_dt))
            src = np.dtype(v.weak)                 # an argument, passed in its default dtype
            e = _ew.cast_expr(v.expr, src, loop_dt)
            return _ew.cast_expr(e, loop_dt, _ew.compute_dtype(loop_dt))
        cd = _ew.compute_dtype(v.dtype)
        e = _ew.cast_expr(v.expr, cd, v.dtype)              # round as a stored array would
        e = _ew.cast_expr(e, v.dtype, loop_dt)
        return _ew.cast_expr(e, loop_dt, _ew.compute_dtype(loop_dt))

    @staticmethod
    def _key(v):
        return v.dtype if v.dtype is not None else v.weak

    # ---- elementwise steps ------------------------------------------------------------------
    def apply(self, uf, args, kwargs=None, python_op=False):
        """One ufunc step.  ``python_op``: an operator (``+``, ``-x``, ...), which on Python
        scalars alone is Python's arithmetic: its result stays a weak scalar (NEP 50)."""
        kwargs = dict(kwargs or {})
        out = kwargs.pop("out", None)
        dtype = kwargs.pop("dtype", None)
        casting = kwargs.pop("casting", "same_kind")
        if kwargs:
            raise TypeError(f"npgpu.fuse: keyword argument '{next(iter(kwargs))}' of "
                            f"{uf.__name__} is not supported inside a fused function")
        if len(args) > uf.nin:                     # outputs given positionally
            if out is not None:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            args, out = args[:uf.nin], args[uf.nin:]
        if len(args) != uf.nin:
            raise TypeError(f"{uf.__name__}() takes from {uf.nin} to {uf.nin + uf.nout} "
                            f"positional arguments but {len(args)} were given")
        vs = [self._lift(a) for a in args]
        # a 0-d second operand is one value for the whole loop (power's fast paths)
        loops = uf._single if uf._single is not None and vs[1].shape == () else uf
        loop_in, loop_out, op = loops.resolve(tuple(self._key(v) for v in vs), dtype, casting)
        shape = broadcast([v.shape for v in vs]) if len(vs) > 1 else vs[0].shape
        fname = self.funcs.get(op.source)
        if fname is None:
            fname = self.funcs[op.source] = f"fz{len(self.funcs)}"
            for h in op.helpers:
                if h not in self.helpers:
                    self.helpers.append(h)
            self.helpers.append(op.source.replace("def op(", f"def {fname}(", 1))
        srcs = [self._value_as(v, d) for v, d in zip(vs, loop_in)]
        if uf.__name__ == "power" and loop_in[1].kind == "i":
            srcs[1] = self._exponent(vs[1], srcs[1])
        t = self._tmp()
        self.lines.append(f"{t} = {fname}({', '.join(srcs)})")
        if any(n in self.negative_lines for n in names(srcs)):
            self.negative_lines.add(t)
        if python_op and len(loop_out) == 1 and loop_out[0].kind in "ifc" and \
                all(v.dtype is None for v in vs):
            # computed in the Python type's default dtype, as a weak argument is passed
            return _Var(self, t, None, weak={"i": int, "f": float, "c": complex}[
                loop_out[0].kind])
        if len(loop_out) == 1:
            res = (_Var(self, t, loop_out[0], shape=shape),)
        else:
            res = tuple(_Var(self, f"{t}[{j}]", d, shape=shape) for j, d in enumerate(loop_out))
        if out is not None:
            outs = out if isinstance(out, tuple) else (out,)
            if len(outs) != len(res):
                raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
            for j, (o, r) in enumerate(zip(outs, res)):
                if o is not None:
                    self.assign(o, r, uf.__name__, casting, j)
            return outs[0] if len(outs) == 1 else outs
        return res[0] if len(res) == 1 else res

    def _exponent(self, v, src):
        """NumPy's integer power raises on a negative exponent: a literal is decided now, any
        other is kept in a temporary that the kernel's extra flag output tests."""
        if v.const is not None:
            if v.const < 0:
                self.negative_literal = True
                t = self._tmp()
                self.lines.append(f"{t} = {src}")
                self.negative_lines.add(t)
                return t
            return src
        t = self._tmp()
        self.lines.append(f"{t} = {src}")
        self.exponents.append(t)
        return t

    def cast(self, v, dt):
        v = self._lift(v)
        t = self._tmp()
        self.lines.append(f"{t} = {self._value_as(v, dt)}")
        return _Var(self, t, dt, shape=v.shape)

    def part(self, v, name):
        """``v.real`` / ``v.imag`` of a traced array value (NumPy's: the real part of a real
        value is itself, its imaginary part zeros of its dtype)."""
        if v.dtype is None:                 # a Python scalar argument: Python's attribute
            return getattr(self.materialize(v, f"'.{name}'"), name)
        if v.dtype.kind != "c":
            if name == "real":
                return v
            t = self._tmp()
            self.lines.append(f"{t} = {_literal(v.dtype.type(0), _ew.compute_dtype(v.dtype))}")
            return _Var(self, t, v.dtype, shape=v.shape)
        t = self._tmp()
        self.lines.append(f"{t} = ({v.expr}).{name}")
        return _Var(self, t, np.dtype(f"f{v.dtype.itemsize // 2}"), shape=v.shape)

    def where(self, cond, x, y):
        """``npgpu.where(cond, x, y)``: NumPy's result type (weak scalars by kind), one line."""
        c, a, b = (self._lift(v) for v in (cond, x, y))
        keys = [v.weak(0) if v.dtype is None and v.const is None else
                (v.const if v.dtype is None else v.dtype) for v in (a, b)]
        dt = np.result_type(*keys)
        shape = broadcast([c.shape, a.shape, b.shape])
        t = self._tmp()
        self.lines.append(f"{t} = {self._value_as(a, dt)} if {self._value_as(c, np.dtype(bool))} "
                          f"else {self._value_as(b, dt)}")
        return _Var(self, t, dt, shape=shape)

    def assign(self, o, r, name, casting, j=0):
        """``out=o`` (or ``o op= ...``): ``o`` takes the value ``r`` cast to ``o``'s dtype."""
        if isinstance(o, ndarray):
            o = self._lift(o)
        if not isinstance(o, _Var) or o.dtype is None:
            raise TypeError("return arrays must be of ArrayType (npgpu.ndarray)")
        if r.shape != o.shape and broadcast([r.shape, o.shape]) != o.shape:
            raise ValueError(f"non-broadcastable output operand with shape {shape_str(o.shape)} "
                             f"doesn't match the broadcast shape {shape_str(r.shape)}")
        if not np.can_cast(r.dtype, o.dtype, casting=casting):
            raise _casting_error(name, r.dtype, o.dtype, casting, j)
        v = self.cast(r, o.dtype)
        if o.expr is not None and _NAME.fullmatch(o.expr) and o.expr[0] == "x" and \
                isinstance(self.slots[int(o.expr[1:])], ndarray):
            arr = self.slots[int(o.expr[1:])]
            self.writebacks.append((arr, o))   # an input array: written when the call ends
        o.expr = v.expr                       # later steps read the new value
        return o

    # ---- non-fusable steps ------------------------------------------------------------------
    def opaque(self, what, func, *args, **kwargs):
        """Run ``func`` as an ordinary call on materialized arguments."""
        args = [self.materialize(a, what) if isinstance(a, _Var) else a for a in args]
        return func(*args, **kwargs)

    def refuse(self, what):
        if self.strict:
            raise NotFusable(f"npgpu.fuse(strict=True): {what} is not fusable")
        self.pure = False
        self.recordable = False

    def materialize(self, v, what, own=False):
        """The array holding ``v``'s value now: its lines become one kernel (or it is an
        argument already).  ``own``: the caller will write to the array, so an argument is
        written itself and a computed value gets an array the proxy then stands for."""
        self.refuse(what)
        return self.array_of(v)

    def array_of(self, v):
        """:meth:`materialize` for a step that is part of the fused call (a reduction)."""
        if v.dtype is None:
            return v.const if v.const is not None else self.slots[int(v.expr[1:])]
        m = _NAME.fullmatch(v.expr)
        if m and m.group(1) == "x" and isinstance(self.slots[int(m.group(2))], ndarray):
            arr = self.slots[int(m.group(2))]
            if arr.dtype == v.dtype:
                return arr
        arr = self.run_kernel([v], v.shape)[0]
        k = len(self.slots)
        self.slots.append(arr)
        self.slot_dtypes.append(arr.dtype)
        self.slot_src.append(self.produced.get(id(arr)))
        v.expr = f"x{k}"
        return arr

    # ---- kernels ------------------------------------------------------------------------------
    def body(self, exprs):
        """(lines ``exprs`` need, in order; input slots they read, sorted)."""
        keep, need = live_lines(self.lines, names(exprs))
        slots = sorted(int(n[1:]) for n in need if n[0] == "x")
        return keep, slots

    def scalar_op(self, exprs, out_dtypes, kind="fuse"):
        """(ScalarOp over the slots it reads, those slots, whether it adds a negative-exponent
        flag output, whether it met a literal negative exponent) returning ``exprs`` (sources
        in the compute dtypes of ``out_dtypes``)."""
        lines, slots = self.body(exprs)
        names = {ln.split(" = ", 1)[0] for ln in lines}
        flags = [t for t in self.exponents if t in names]
        neg = bool(names & self.negative_lines)
        rets = list(exprs)
        if flags:              # last output: does this element meet a negative exponent?
            rets.append(" or ".join(f"{t} < type({t})(0)" for t in flags))
        local = {k: i for i, k in enumerate(slots)}
        ren = lambda m: f"x{local[int(m.group(2))]}" if m.group(1) == "x" else m.group(0)
        text = "\n".join([_NAME.sub(ren, ln) for ln in lines] +
                         ["return " + ", ".join(_NAME.sub(ren, r) for r in rets)])
        helpers = tuple(self.helpers)
        digest = hashlib.sha1("\n".join((text,) + helpers).encode()).hexdigest()[:16]
        op = _ew.ScalarOp.from_expr((kind, self.name, digest), len(slots), text,
                                    nout=len(rets), helpers=helpers)
        return op, slots, bool(flags), neg

    def kernel_inputs(self, slots):
        """(kernel inputs, loop dtypes) of these slots (Python scalars as their default dtype)."""
        kin, loop_in = [], []
        for k in slots:
            a, dt = self.slots[k], self.slot_dtypes[k]
            kin.append(a if isinstance(a, ndarray) else _scalar(a, dt))
            loop_in.append(dt)
        return kin, loop_in

    def run_kernel(self, vs, shape, outs=None):
        """One elementwise launch computing ``vs`` (shape ``shape``) into ``outs`` (new arrays
        of their dtypes where None)."""
        exprs = []
        for v in vs:
            if v.dtype is None:
                v = self.cast(v, np.dtype(v.weak))
            exprs.append((v.expr, v.dtype))
        dts = [d for _, d in exprs]
        op, slots, flagged, neg = self.scalar_op([e for e, _ in exprs], dts)
        if neg and 0 not in shape:
            raise ValueError(_NEG_POWER)
        kin, loop_in = self.kernel_inputs(slots)
        outs = list(outs) if outs is not None else [None] * len(dts)
        outs = [o if o is not None else empty_array(shape, d) for o, d in zip(outs, dts)]
        guard_overlap(kin, outs)
        loop_out = list(dts)
        if flagged:
            outs.append(empty_array(shape, np.dtype(np.bool_)))
            loop_out.append(np.dtype(np.bool_))
        self.record("ew", outs, (op, tuple(dts), shape, tuple(loop_in)), slots)
        before = _launch_count()
        _ew.launch(op, kin, loop_in, outs, loop_out, name=f"fused_{self.name}")
        self.own_launches += _launch_count() - before
        if flagged:
            self.recordable = False          # its test reads the flag back: not replayed
            flag = outs.pop()
            if flag.size and _ops["any"](flag).item():
                raise ValueError(_NEG_POWER)
        return outs

    def record(self, kind, outs, what, slots):
        """Record a step reading ``slots`` and writing ``outs`` (only arrays no other value
        holds are replayable outputs)."""
        j = len(self.steps)
        srcs = [self.slot_src[k] for k in slots]
        if None in srcs:
            self.recordable = False          # an array made in the function some other way
        self.steps.append((kind, what, list(slots), srcs))
        for o, arr in enumerate(outs):
            if arr is not None:
                if id(arr) in self.produced or any(arr is s for s in self.slots):
                    self.recordable = False  # written in place (an argument, a value read)
                self.produced[id(arr)] = ("step", j, o)
                self.kept.append(arr)


def names(srcs):
    """The trace's names (``tK`` lines, ``xK`` inputs) that the sources ``srcs`` read."""
    return {m.group(0) for s in srcs for m in _NAME.finditer(s)}


def live_lines(lines, need, given=()):
    """(the ``name = rhs`` lines of ``lines`` that compute the names in ``need``, in order,
    names in ``given`` taken as computed already; every name those and ``need`` read)."""
    need, keep = set(need), []
    for line in reversed(lines):
        name, rhs = line.split(" = ", 1)
        if name in need and name not in given:
            keep.append(line)
            need |= names([rhs])
    keep.reverse()
    return keep, need


def _launch_count():
    return _cstats["launches"]


def guard_overlap(kin, outs):
    """Inputs that overlap an output other than element for element are copied first (an
    argument updated in place and read through another view of it)."""
    for i, x in enumerate(kin):
        if isinstance(x, ndarray):
            for o in outs:
                if _copy.may_overlap(o, x) and not _copy.same_elements(o, x, o.shape):
                    kin[i] = x.copy()
                    break


def _literal(x, dt):
    """Source for a constant of dtype ``dt``."""
    name = _ew.type_name(dt)
    if dt.kind == "c":
        return f"{name}(complex({float(x.real)!r}, {float(x.imag)!r}))"
    if dt.kind == "f":
        return f"{name}(float({repr(float(x))!r}))" if not np.isfinite(x) else f"{name}({float(x)!r})"
    if dt.kind == "b":
        return f"boolean({bool(x)!r})"
    return f"{name}({int(x)})"
