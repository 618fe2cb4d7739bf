"""A user's Python operation as the body of a device function ``op``, checked before anything
is compiled: syntax, names, no ``return``.  Errors quote the generated source line."""
import ast
import builtins
import hashlib
import textwrap

from .._codegen import compiler
from .._codegen.elementwise import ScalarOp, compute_dtype, type_name


def _fail(exc_type, msg, src, lineno):
    lines = src.splitlines()
    line = lines[lineno - 1] if lineno and 0 < lineno <= len(lines) else ""
    raise exc_type(f"{msg}\n  generated source line {lineno}: {line.strip()}\n"
                   f"--- generated source ---\n{src}")


def split_preamble(preamble):
    """Top-level ``def``s of a Python preamble (helper device functions), one source each."""
    if not preamble:
        return (), set()
    text = textwrap.dedent(preamble)
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        _fail(ValueError, f"preamble does not compile: {e.msg}", text, e.lineno)
    out, names = [], set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            _fail(ValueError, "preamble may only hold function definitions", text, node.lineno)
        out.append(ast.get_source_segment(text, node))
        names.add(node.name)
    return tuple(out), names


def _known_names():
    return set(compiler.source_namespace()) | set(dir(builtins))


def check_body(body, params, known, what="operation"):
    """Check statement list ``body`` (source text, a function body) over the names ``params``:
    it parses, has no ``return``, and reads no name it neither defines nor is given."""
    src = f"def op({', '.join(params)}):\n" + textwrap.indent(body, "    ") + "\n"
    try:
        tree = ast.parse(src)
    except SyntaxError as e:
        _fail(ValueError, f"{what} does not compile: {e.msg}", src, e.lineno)
    defined = set(params)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.Lambda)) and node is not tree.body[0]:
            _fail(ValueError, f"{what} may not define functions (use preamble=)", src,
                  node.lineno)
        elif isinstance(node, ast.Return):
            _fail(ValueError, f"{what} may not use 'return'", src, node.lineno)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                node.id not in defined and node.id not in known:
            _fail(ValueError, f"{what} uses an unknown name {node.id!r}", src, node.lineno)
    return tree


def reads(tree, name):
    """Whether the operation reads ``name`` (a load, or an augmented assignment)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                node.target.id == name:
            return True
    return False


def uses(tree, name):
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(tree))


def make_op(params, body, results, init, helpers=(), tag="uk"):
    """The ScalarOp ``def op(params): <init>; <body>; return <results>``.

    init: (name, dtype) of results not given as parameters, set to zero of their compute type
    first so every path defines them (the store after ``op`` casts to the output's dtype)."""
    lines = [f"{n} = {type_name(compute_dtype(d))}(0)" for n, d in init]
    ret = results[0] if len(results) == 1 else "(" + ", ".join(results) + ",)"
    text = "\n".join(lines + [body, f"return {ret}"])
    src = f"def op({', '.join(params)}):\n" + textwrap.indent(text, "    ") + "\n"
    h = hashlib.sha1((src + "\0".join(helpers)).encode()).hexdigest()[:16]
    return ScalarOp((tag, h), len(params), len(results), src, helpers)


def dedent(text, what):
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    return textwrap.dedent(text).strip("\n")
