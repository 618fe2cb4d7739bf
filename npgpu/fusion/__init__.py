"""``@npgpu.fuse``: a Python function of arrays becomes one elementwise kernel.

The function is traced once per argument signature (dtypes; Python scalars
stay weak, as NEP 50 says) with proxy values.  Every ufunc the function
applies -- through operators or ``npgpu.<ufunc>(...)`` -- is resolved by the
ufunc's own NumPy rules and recorded; the records become one
:class:`~npgpu._codegen.elementwise.ScalarOp` whose body calls each ufunc's
loop as a device function, with the casts NumPy would do between steps
(an intermediate rounds to its dtype exactly as a stored array would).  The
fused op then runs through the ordinary elementwise template.
"""
import functools
import re

import numpy as np

from .._codegen import elementwise as _ew
from .._core.ndarray import _ops, empty_array, ndarray
from ..ufuncs import UFUNCS
from ..ufuncs.ufunc import _scalar, operands

__all__ = ["fuse"]

_NEG_POWER = "Integers to negative integer powers are not allowed."


class _Var:
    """A value inside a traced function: an input, a constant or a ufunc's result."""

    __slots__ = ("_fuse_trace", "expr", "dtype", "weak", "const")

    def __init__(self, trace, expr, dtype, weak=None, const=None):
        self._fuse_trace = trace
        self.expr = expr           # source naming the value (in its compute dtype)
        self.dtype = dtype         # NumPy dtype of the value (None for a weak Python scalar)
        self.weak = weak           # Python type (int/float/complex) of a weak scalar
        self.const = const         # its value, when it is a literal in the function

    def __array_ufunc__(self, *a, **k):
        return NotImplemented

    def __bool__(self):
        raise TypeError("a traced npgpu.fuse value has no truth value: use npgpu.where-free "
                        "arithmetic or compute conditions with ufuncs")

    def astype(self, dtype):
        return self._fuse_trace.cast(self, np.dtype(dtype))


def _binop(name, reverse=False):
    def f(self, other):
        args = (other, self) if reverse else (self, other)
        return self._fuse_trace.apply(UFUNCS[name], args)
    return f


for _py, _uf in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
                 ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power"),
                 ("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"),
                 ("lshift", "left_shift"), ("rshift", "right_shift")):
    setattr(_Var, f"__{_py}__", _binop(_uf))
    setattr(_Var, f"__r{_py}__", _binop(_uf, reverse=True))
for _py, _uf in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal"),
                 ("eq", "equal"), ("ne", "not_equal")):
    setattr(_Var, f"__{_py}__", _binop(_uf))
for _py, _uf in (("neg", "negative"), ("pos", "positive"), ("abs", "absolute"), ("invert", "invert")):
    setattr(_Var, f"__{_py}__", (lambda n: lambda self: self._fuse_trace.apply(UFUNCS[n], (self,)))(_uf))
_Var.__hash__ = None


class _Trace:
    """Records the ufunc applications of one traced call and renders them as one ScalarOp."""

    def __init__(self):
        self.lines = []
        self.funcs = {}            # source of a loop's device function -> its name here
        self.helpers = []
        self.counter = 0
        self.exponents = []        # signed integer power exponents known only at run time
        self.negative_literal = False   # a literal negative one: every non-empty call raises

    def _tmp(self):
        self.counter += 1
        return f"t{self.counter}"

    def _value_as(self, v, loop_dt):
        """Source of ``v`` converted to ``loop_dt``'s compute dtype, as a ufunc input."""
        if not isinstance(v, _Var):
            raise TypeError(f"npgpu.fuse: unsupported value {v!r} inside a fused function")
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

    def _lift(self, x):
        if isinstance(x, _Var):
            return x
        if type(x) in (int, float, complex, bool):
            if type(x) is bool:
                return _Var(self, repr(x), np.dtype(np.bool_))
            return _Var(self, None, None, weak=type(x), const=x)
        if isinstance(x, np.generic):
            return _Var(self, _literal(x, _ew.compute_dtype(x.dtype)), x.dtype, const=x)
        raise TypeError(f"npgpu.fuse: cannot use {type(x).__name__} inside a fused function")

    def apply(self, uf, args, kwargs=None):
        if kwargs:
            raise TypeError(f"npgpu.fuse: keyword arguments of {uf.__name__} are not supported "
                            "inside a fused function")
        vs = [self._lift(a) for a in args]
        keys = tuple(v.dtype if v.dtype is not None else v.weak for v in vs)
        loop_in, loop_out, op = uf.resolve(keys)
        fname = self.funcs.get(op.source)
        if fname is None:
            fname = self.funcs[op.source] = f"u{len(self.funcs)}"
            for h in op.helpers:
                if h not in self.helpers:
                    self.helpers.append(h)
            self.helpers.append(op.source.replace("def op(", f"def {fname}(", 1))
        srcs = [self._value_as(v, d) for v, d in zip(vs, loop_in)]
        if uf.__name__ == "power" and loop_in[1].kind == "i":
            srcs[1] = self._exponent(vs[1], srcs[1])
        call = f"{fname}({', '.join(srcs)})"
        t = self._tmp()
        self.lines.append(f"{t} = {call}")
        if len(loop_out) == 1:
            return _Var(self, t, loop_out[0])
        return tuple(_Var(self, f"{t}[{j}]", d) for j, d in enumerate(loop_out))

    def _exponent(self, v, src):
        """NumPy's integer power raises on a negative exponent: a literal is decided now, any
        other is kept in a temporary that the kernel's extra flag output tests."""
        if v.const is not None:
            self.negative_literal |= bool(v.const < 0)
            return src
        t = self._tmp()
        self.lines.append(f"{t} = {src}")
        self.exponents.append(t)
        return t

    def cast(self, v, dt):
        v = self._lift(v)
        t = self._tmp()
        self.lines.append(f"{t} = {self._value_as(v, dt)}")
        return _Var(self, t, dt)


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


class Fused:
    """The callable ``@fuse`` returns; one kernel per argument signature."""

    def __init__(self, func, kernel_name=None):
        self.func = func
        # the kernel's name: an identifier (a lambda's __name__ is "<lambda>")
        self.name = re.sub(r"\W", "_", kernel_name or getattr(func, "__name__", "fused"))
        self._cache = {}
        functools.update_wrapper(self, func)

    def _build(self, keys):
        tr = _Trace()
        nin = len(keys)
        params = []
        for i, k in enumerate(keys):
            if isinstance(k, np.dtype):
                params.append(_Var(tr, f"x{i}", k))
            else:
                params.append(_Var(tr, f"x{i}", None, weak=k))
        res = self.func(*params)
        outs = res if isinstance(res, tuple) else (res,)
        outs = [tr._lift(o) for o in outs]
        out_dtypes = []
        rets = []
        for o in outs:
            if o.dtype is None:        # a bare Python scalar result: its default dtype
                o = tr.cast(o, np.dtype(o.weak))
            out_dtypes.append(o.dtype)
            rets.append(o.expr)
        if tr.exponents:           # last output: does this element meet a negative exponent?
            rets.append(" or ".join(f"{t} < type({t})(0)" for t in tr.exponents))
            out_dtypes.append(np.dtype(np.bool_))
        body = "\n".join(tr.lines + [f"return {', '.join(rets)}" if len(rets) > 1
                                     else f"return {rets[0]}"])
        op = _ew.ScalarOp.from_expr(("fuse", self.name, id(self), keys), nin, body,
                                    nout=len(rets), helpers=tr.helpers)
        return op, tuple(out_dtypes), isinstance(res, tuple), tr.negative_literal, \
            bool(tr.exponents)

    def __call__(self, *args):
        inputs, keys = operands(args)
        entry = self._cache.get(keys)
        if entry is None:
            entry = self._cache[keys] = self._build(keys)
        op, out_dtypes, is_tuple, negative_literal, flagged = entry
        # weak Python scalars were baked into the kernel as constants only where they are
        # literals in the function; arguments are passed as parameters of their default dtype
        kin, loop_in = [], []
        for a, k in zip(inputs, keys):
            if isinstance(a, ndarray):
                kin.append(a)
                loop_in.append(a.dtype)
            else:
                dt = k if isinstance(k, np.dtype) else np.dtype(k)
                kin.append(_scalar(a, dt))
                loop_in.append(dt)
        arrays = [a for a in inputs if isinstance(a, ndarray)]
        shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
        if negative_literal and 0 not in shape:
            raise ValueError(_NEG_POWER)
        outs = [empty_array(shape, d) for d in out_dtypes]
        _ew.launch(op, kin, loop_in, outs, out_dtypes, name=f"fused_{self.name}")
        if flagged:                # one reduction and one scalar read, as the plain call's check
            flag = outs.pop()
            if flag.size and _ops["any"](flag).item():
                raise ValueError(_NEG_POWER)
        return tuple(outs) if is_tuple else outs[0]


def fuse(*args, kernel_name=None):
    """Decorator: ``@npgpu.fuse`` or ``@npgpu.fuse(kernel_name=...)``."""
    if len(args) == 1 and callable(args[0]):
        return Fused(args[0], kernel_name)
    return lambda f: Fused(f, kernel_name)
