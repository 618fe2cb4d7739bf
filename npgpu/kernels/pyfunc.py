"""A Python scalar function as device-function source for the generator (``vectorize``).

The function's source (``inspect``) is rewritten without decorators; the globals and closure
cells it reads become what a rendered kernel can hold: numbers are inlined as constants, the
modules ``math``/``cmath``/``numpy`` are named as the kernel namespace names them, and plain
Python functions it calls are rendered the same way, before it.  So the kernel is ordinary
rendered source: cached on disk, dumped by ``NPGPU_DUMP_KERNELS``, PTX-checked in CI.
"""
import ast
import builtins
import cmath
import inspect
import math
import textwrap
import types

import numpy as np

from .._codegen import compiler
from .._codegen.elementwise import type_name

_MODULES = {id(math): "math", id(cmath): "cmath", id(np): "np"}


def _function_node(fn):
    """The ``ast.FunctionDef`` of ``fn`` (a ``def`` or a ``lambda``), decorators removed."""
    try:
        text = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        raise TypeError(f"vectorize: the source of {fn!r} is not available (define it in a "
                        "file, not interactively by exec)") from None
    try:
        tree = ast.parse(text)
    except SyntaxError:                     # a lambda inside a larger expression
        tree = ast.parse("(" + text.strip().rstrip(",").rstrip("\\") + ")")
    code = fn.__code__
    nargs = code.co_argcount
    argnames = list(code.co_varnames[:nargs])
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == fn.__name__ and \
                [a.arg for a in node.args.args] == argnames:
            node.decorator_list = []
            return node
        if isinstance(node, ast.Lambda) and fn.__name__ == "<lambda>" and \
                [a.arg for a in node.args.args] == argnames:
            return ast.FunctionDef(name="_lambda", args=node.args,
                                   body=[ast.Return(node.body)], decorator_list=[],
                                   returns=None, type_params=[])
    raise TypeError(f"vectorize: cannot find the source of {fn!r}")


class _Inline(ast.NodeTransformer):
    """Free names -> constants, kernel-namespace names, or rendered helper functions."""

    def __init__(self, fn, local, ns, render):
        self.fn, self.local, self.ns, self.render = fn, local, ns, render
        cells = fn.__closure__ or ()
        self.free = dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in cells)))

    def visit_Name(self, node):
        name = node.id
        if not isinstance(node.ctx, ast.Load) or name in self.local:
            return node
        if name in self.free:
            value = self.free[name]
        elif name in self.fn.__globals__:
            value = self.fn.__globals__[name]
        elif name in self.ns or hasattr(builtins, name):
            return node
        else:
            raise TypeError(f"vectorize: {self.fn.__name__} reads an undefined name {name!r}")
        if isinstance(value, (bool, int, float, complex, np.generic)) and \
                not isinstance(value, np.void):
            return ast.copy_location(ast.parse(_literal(value), mode="eval").body, node)
        if isinstance(value, types.ModuleType) and id(value) in _MODULES:
            return ast.copy_location(ast.Name(_MODULES[id(value)], ast.Load()), node)
        if isinstance(value, types.FunctionType):
            return ast.copy_location(ast.Name(self.render(value), ast.Load()), node)
        if name in self.ns and self.ns[name] is value:
            return node
        raise TypeError(f"vectorize: {self.fn.__name__} reads {name!r}, a "
                        f"{type(value).__name__}: only numbers, math/cmath/numpy and plain "
                        "Python functions can be compiled into the kernel")


def _literal(v):
    if isinstance(v, np.generic):
        if v.dtype.kind == "b":
            return repr(bool(v))
        return f"{type_name(v.dtype)}({_literal(v.item())})"
    if isinstance(v, complex):
        return f"complex({_literal(v.real)}, {_literal(v.imag)})"
    if isinstance(v, float) and not math.isfinite(v):
        return "math.nan" if v != v else ("math.inf" if v > 0 else "-math.inf")
    return repr(v)


def device_sources(fn):
    """``(helpers, name)``: sources of ``fn`` and the functions it calls (each a ``def``,
    callees first) and the name ``fn`` has among them."""
    ns = compiler.source_namespace()
    done = {}                       # id(function) -> rendered name
    out = []

    def render(f):
        if id(f) in done:
            return done[id(f)]
        node = _function_node(f)
        name = f"{node.name}_{len(done)}"
        done[id(f)] = name
        local = {a.arg for a in node.args.args}
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                local.add(n.id)
            elif isinstance(n, ast.comprehension):
                for t in ast.walk(n.target):
                    if isinstance(t, ast.Name):
                        local.add(t.id)
        node = _Inline(f, local, ns, render).visit(node)
        node.name = name
        out.append(ast.unparse(ast.fix_missing_locations(node)))
        return name

    mod = _MODULES.get(id(getattr(fn, "__self__", None)))
    if isinstance(fn, types.BuiltinFunctionType) and mod in ("math", "cmath"):
        # NumPy's vectorize(math.cos): a call of the namespace's own function, no source to read
        try:
            params = inspect.signature(fn).parameters
        except ValueError:
            raise TypeError(f"vectorize: the signature of {fn!r} is not available") from None
        args = ", ".join(f"x{k}" for k in range(len(params)))
        name = f"{fn.__name__}_0"
        return (f"def {name}({args}):\n    return {mod}.{fn.__name__}({args})\n",), name
    name = render(fn)
    return tuple(out), name
