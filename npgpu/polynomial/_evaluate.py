"""Evaluation and Vandermonde rows of a series: one kernel per call, every basis.

Each basis states its recurrence once (a :class:`Recurrence`: Horner for power series,
Clenshaw for the orthogonal bases, the three-term recurrence for Vandermonde rows) with plain
arithmetic operators.  The same methods run

* traced by :mod:`npgpu.fusion`'s ``_Trace`` (as ``polyval`` in ``npgpu/polynomials.py`` traces
  its Horner step): each step becomes the ufunc loops with NumPy's casts between them, so every
  value rounds as NumPy's array expression does, and one kernel walks the coefficients for each
  output element;
* on polynomial objects (``p(q)`` composes series), where no kernel is involved.

A recurrence's state may change dtype over its first steps (float32 coefficients and float64
points: the state becomes float64 after a step or two).  Those steps are rendered one by one
("peeled"); the loop then runs with the state's final dtypes.
"""
import numpy as np

from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core.ndarray import empty_array, ndarray
from ..creation import asarray
from ..fusion import _Trace, _Var
from ..fusion.trace import broadcast
from ..manipulation import atleast_1d, broadcast_to
from ..ufuncs import UFUNCS
from .polyutils import _as_coeffs, _as_int

_I64 = np.dtype(np.int64)
_WEAK = (int, float, complex)


class Recurrence:
    """One basis's evaluation and Vandermonde recurrences.

    ``first`` coefficients (the highest ones) make the starting state; each further step takes
    the next lower coefficient.  ``step_ints``/``vander_ints``: ``(name, source, type)`` of the
    Python scalars a step computes from ``nd`` (Clenshaw) or ``i`` (Vandermonde); in a kernel
    they are computed per step and enter the arithmetic as weak Python scalars, as in NumPy."""

    name = None
    first = 2
    step_ints = ()
    vander_ints = ()

    def prepare(self, x):
        """Values computed once from ``x`` (a dict)."""
        return {}

    def start(self, cs, x, pre):
        """The state from the highest coefficients ``cs`` (lowest first)."""
        return (cs[0], 0) if len(cs) == 1 else (cs[0], cs[1])

    def step(self, s, ck, x, pre, k):
        raise NotImplementedError

    def result(self, s, x, pre):
        return s[0] + s[1] * x

    def v1(self, x, pre):
        """The Vandermonde column of degree 1."""
        return x

    def vstep(self, v1, v0, x, pre, k):
        """The column of degree ``i`` from those of degrees ``i - 1`` and ``i - 2``."""
        raise NotImplementedError


# ---- evaluation on host objects (polynomial composition) ------------------------------------
def _ints(defs, **names):
    return {n: eval(src, {}, names) for n, src, _ in defs}   # (sources are the basis's own)


def _evaluate_objects(rec, x, c):
    """The recurrence run with ``x`` an object (a polynomial) and the coefficients one by one,
    NumPy's Python loop as it is."""
    m = len(c)
    first = min(m, rec.first)
    pre = rec.prepare(x)
    s = rec.start([c[m - first + j] for j in range(first)], x, pre)
    for kk in range(m - first - 1, -1, -1):
        s = rec.step(s, c[kk], x, pre, _ints(rec.step_ints, nd=kk + 2))
    return rec.result(s, x, pre)


# ---- tracing ----------------------------------------------------------------------------------
_OPS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/"}
_UF = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide"}


def _py_source(v):
    return repr(v) if np.isfinite(v) else f"{type(v).__name__}({str(v)!r})"


class _Weak(_Var):
    """A Python scalar point (``polyval(0.5, c)``): arithmetic of it with Python scalars stays
    Python arithmetic (a weak float64/int64/complex128 value in the kernel), as in NumPy; with
    a traced array value it is the weak operand of that ufunc."""

    __slots__ = ()

    def _op(self, name, other, reverse):
        tr = self._fuse_trace
        if type(other) in _WEAK or isinstance(other, _Weak):
            a, b = (other, self) if reverse else (self, other)
            kind = type(_OPS_PY[name](a.weak(1) if isinstance(a, _Weak) else a,
                                      b.weak(1) if isinstance(b, _Weak) else b))
            src = [v.expr if isinstance(v, _Weak) else _py_source(v) for v in (a, b)]
            t = tr._tmp()
            tr.lines.append(f"{t} = ({src[0]}) {_OPS[name]} ({src[1]})")
            return _Weak(tr, t, None, weak=kind)
        args = (other, self) if reverse else (self, other)
        return tr.apply(UFUNCS[_UF[name]], args)

    def __neg__(self):
        return self._op("mul", -1, False)


_OPS_PY = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b,
           "mul": lambda a, b: a * b, "truediv": lambda a, b: a / b}
for _n in _OPS:
    setattr(_Weak, f"__{_n}__", (lambda n: lambda self, o: self._op(n, o, False))(_n))
    setattr(_Weak, f"__r{_n}__", (lambda n: lambda self, o: self._op(n, o, True))(_n))
del _n


def _setup(rec, x_dt, x_weak, map_dt, vander=False):
    """A trace with the point ``x`` (mapped by ``off + scl * x`` when ``map_dt``), its
    prepared values and the step scalars as traced values."""
    tr = _Trace("npoly")
    x = _Weak(tr, "xr", None, weak=x_weak) if x_weak else _Var(tr, "xr", x_dt)
    if map_dt is not None:
        x = _Var(tr, "offv", map_dt) + _Var(tr, "sclv", map_dt) * x
    if vander:
        x = x + 0.0                   # NumPy's ``x + 0.0``: at least float
    ints = {n: _Weak(tr, n, None, weak=t) for n, _, t in
            (rec.vander_ints if vander else rec.step_ints)}
    return tr, x, rec.prepare(x), ints


def _dtypes(state):
    return tuple(getattr(v, "dtype", None) for v in state)


def _stable(rec, x_dt, x_weak, c_dt, map_dt, dts):
    """Whether a step from a state of dtypes ``dts`` keeps them (then the loop may start)."""
    if any(d is None for d in dts):
        return False
    tr, x, pre, ints = _setup(rec, x_dt, x_weak, map_dt)
    s = tuple(_Var(tr, f"s{j}", d) for j, d in enumerate(dts))
    return _dtypes(rec.step(s, _Var(tr, "ck", c_dt), x, pre, ints)) == dts


def _load(expr, dt):
    return _ew.cast_expr(expr, dt, _ew.compute_dtype(dt))


def _helpers(tr):
    return "".join("@cuda.jit(device=True)\n" + h.strip("\n") + "\n\n" for h in tr.helpers)


def _indent(lines, n):
    return [" " * n + ln for ln in lines]


def _int_lines(defs, var, value):
    return [f"{var} = {value}"] + [f"{n} = {src}" for n, src, _ in defs]


def _render_val(rec, x_dt, x_weak, c_dt, map_dt, first, steps):
    """The kernel evaluating a series of ``first + steps`` coefficients (a runtime count when
    the steps end in a loop) at each output element."""
    tr, x, pre, ints = _setup(rec, x_dt, x_weak, map_dt)
    cs = [_Var(tr, f"cs{j}", c_dt) for j in range(first)]
    s = rec.start(cs, x, pre)
    head = list(tr.lines)
    ck = _Var(tr, "ck", c_dt)
    load_ck = f"ck = {_load('P[kk, ci]', c_dt)}"
    body = []
    peeled = 0
    while peeled < steps and not _stable(rec, x_dt, x_weak, c_dt, map_dt, _dtypes(s)):
        mark = len(tr.lines)
        s = rec.step(s, ck, x, pre, ints)
        body += _int_lines(rec.step_ints, "kk", f"m - {first + 1 + peeled}")[:1]
        body += _int_lines(rec.step_ints, "nd", "kk + 2")
        body += [load_ck] + tr.lines[mark:]
        peeled += 1
    if peeled < steps:
        loop_s = tuple(_Var(tr, f"s{j}", d) for j, d in enumerate(_dtypes(s)))
        body.append(", ".join(v.expr for v in loop_s) + " = " + ", ".join(v.expr for v in s))
        mark = len(tr.lines)
        new = rec.step(loop_s, ck, x, pre, ints)
        body.append(f"for kk in range(m - {first + 1 + peeled}, -1, -1):")
        body += _indent(_int_lines(rec.step_ints, "nd", "kk + 2") + [load_ck]
                        + tr.lines[mark:], 4)
        body.append("    " + ", ".join(v.expr for v in loop_s) + " = "
                    + ", ".join(v.expr for v in new))
        s = loop_s
    mark = len(tr.lines)
    res = tr._lift(rec.result(s, x, pre))
    tail = tr.lines[mark:]
    ydt = res.dtype
    xl = _load("X[(e // XD) % NX]", np.dtype(x_weak) if x_weak else x_dt)
    lines = [f"xr = {xl}", "ci = (e // CD) % NC"]
    if map_dt is not None:
        lines += [f"offv = {_load('OFF', map_dt)}", f"sclv = {_load('SCL', map_dt)}"]
    lines += [f"cs{j} = {_load(f'P[m - {first - j}, ci]', c_dt)}" for j in range(first)]
    lines += head + body + tail
    lines.append(f"OUT[e] = {_ew.cast_expr(res.expr, _ew.compute_dtype(ydt), ydt)}")
    maps = ", OFF, SCL" if map_dt is not None else ""
    text = _helpers(tr) + "\n".join(
        [f"def KERNEL(n, OUT, X, P, XD, NX, CD, NC{maps}):",
         "    m = P.shape[0]",
         "    e = cuda.grid(1)",
         "    stride = cuda.gridsize(1)",
         "    while e < n:"] + _indent(lines, 8) + ["        e += stride"]) + "\n"
    name = _ew._kernel_name(f"npoly_{rec.name}val", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    xs = np.dtype(x_weak) if x_weak else x_dt
    params = [Param("scalar", _I64), Param("array", ydt, 1, "C"), Param("array", xs, 1, "C"),
              Param("array", c_dt, 2, "C")] + [Param("scalar", _I64)] * 4
    if map_dt is not None:
        params += [Param("scalar", map_dt)] * 2
    return KernelSource(name, text, params), ydt


_KERNELS = {}


def _peel_count(rec, x_dt, x_weak, c_dt, map_dt, first):
    """How many steps the state takes to settle its dtypes (peeled before the loop)."""
    tr, x, pre, ints = _setup(rec, x_dt, x_weak, map_dt)
    s = rec.start([_Var(tr, f"cs{j}", c_dt) for j in range(first)], x, pre)
    n = 0
    while not _stable(rec, x_dt, x_weak, c_dt, map_dt, _dtypes(s)):
        s = rec.step(s, _Var(tr, "ck", c_dt), x, pre, ints)
        n += 1
    return n


def _kernel_val(rec, x_dt, x_weak, c_dt, map_dt, m):
    """(kernel, result dtype) for a series of ``m`` coefficients: kernels differ by the
    coefficients the start takes and the steps rendered before the loop, not by ``m``."""
    first = min(m, rec.first)
    steps = m - first
    key = (rec.name, x_dt, x_weak, c_dt, map_dt, first)
    if steps:
        if key not in _KERNELS:
            _KERNELS[key] = _peel_count(rec, x_dt, x_weak, c_dt, map_dt, first)
        peel = _KERNELS[key]
        key += (min(steps, peel), steps > peel)
        steps = min(steps, peel + 1)
    got = _KERNELS.get(key + ("kernel",))
    if got is None:
        src, ydt = _render_val(rec, x_dt, x_weak, c_dt, map_dt, first, steps)
        got = _KERNELS[key + ("kernel",)] = (
            compiler.get_kernel(("npoly_val",) + key, lambda: src), ydt)
    return got


def _array_vals(a):
    return [0, 0, a.size, a.itemsize, a._ptr, *a.shape, *a.strides]


def _scalar_vals(v, dt):
    v = dt.type(v)
    return [v.real, v.imag] if dt.kind == "c" else [v]


def _point(x):
    """(device array of the points, weak Python type or None, whether NumPy would treat ``x``
    as an array for ``tensor``)."""
    if type(x) in _WEAK:
        return asarray(np.asarray(x)), type(x), False
    is_array = isinstance(x, (ndarray, np.ndarray, list, tuple))
    return asarray(x), None, is_array


def evaluate(rec, x, c, tensor=True, mapping=None):
    """``*val(x, c, tensor)``: the series ``c`` (coefficients along the first axis) at the
    points ``x``; ``mapping`` = ``(off, scl)`` maps the points first (a class's call)."""
    if hasattr(x, "_polynomial_object"):
        if mapping is not None:
            x = mapping[0] + mapping[1] * x
        return _evaluate_objects(rec, x, _as_coeffs(c))
    c = _as_coeffs(c)
    xa, weak, is_array = _point(x)
    if c.shape[0] == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    m = c.shape[0]
    cs = c.shape[1:]
    nc = int(np.prod(cs, dtype=np.int64))
    if is_array and tensor:
        shape = cs + xa.shape
        xd, nx, cd, ncs = 1, xa.size, max(xa.size, 1), nc
    else:
        shape = broadcast([cs, xa.shape])
        n = int(np.prod(shape, dtype=np.int64))
        if xa.size != 1 and xa.shape != shape:
            xa = broadcast_to(xa, shape)
        if nc != 1 and cs != shape:
            c = broadcast_to(c, (m,) + shape)
            nc = n
        xd, nx, cd, ncs = 1, max(xa.size, 1), 1, max(nc, 1)
    map_dt = None
    if mapping is not None:
        map_dt = np.result_type(*mapping)
    kern, ydt = _kernel_val(rec, xa.dtype, weak, c.dtype, map_dt, m)
    out = empty_array(shape, ydt)
    n = out.size
    if n:
        xc = xa.reshape(-1) if xa._c_contig else xa.copy().reshape(-1)
        cc = c if c._c_contig else c.copy()
        cc = cc.reshape(m, -1)
        vals = [n] + _array_vals(out.reshape(-1)) + _array_vals(xc) + _array_vals(cc)
        vals += [xd, nx, cd, ncs]
        if map_dt is not None:
            vals += _scalar_vals(mapping[0], map_dt) + _scalar_vals(mapping[1], map_dt)
        kern(*_ew._grid(n, 1), vals)
    return out


# ---- Vandermonde ------------------------------------------------------------------------------
def _render_vander(rec, x_dt):
    tr, x, pre, ints = _setup(rec, x_dt, None, None, vander=True)
    vdt = x.dtype
    st = lambda e: f"{_ew.cast_expr(e.expr, _ew.compute_dtype(vdt), vdt)}"
    v0 = tr.cast(x * 0 + 1, vdt)
    head = list(tr.lines)
    mark = len(tr.lines)
    v1 = tr.cast(rec.v1(x, pre), vdt)
    one = tr.lines[mark:]
    va, vb = _Var(tr, "va", vdt), _Var(tr, "vb", vdt)
    mark = len(tr.lines)
    new = tr.cast(rec.vstep(vb, va, x, pre, ints), vdt)
    loop = [f"{n} = {src}" for n, src, _ in rec.vander_ints] + tr.lines[mark:]
    lines = [f"xr = {_load('X[e]', x_dt)}"] + head + [f"OUT[e, 0] = {st(v0)}",
                                                      "if D >= 1:"]
    lines += _indent(one + [f"OUT[e, 1] = {st(v1)}", f"va = {v0.expr}", f"vb = {v1.expr}",
                            "for i in range(2, D + 1):"], 4)
    lines += _indent(loop + [f"OUT[e, i] = {st(new)}", "va = vb", f"vb = {new.expr}"], 8)
    text = _helpers(tr) + "\n".join(
        ["def KERNEL(n, OUT, X, D):",
         "    e = cuda.grid(1)",
         "    stride = cuda.gridsize(1)",
         "    while e < n:"] + _indent(lines, 8) + ["        e += stride"]) + "\n"
    name = _ew._kernel_name(f"npoly_{rec.name}vander", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", _I64), Param("array", vdt, 2, "C"), Param("array", x_dt, 1, "C"),
              Param("scalar", _I64)]
    return KernelSource(name, text, params)


def vander(rec, x, deg):
    """``*vander(x, deg)``: shape ``x.shape + (deg + 1,)``, column ``i`` the basis polynomial of
    degree ``i`` at ``x`` (one kernel: a thread per point walks the recurrence)."""
    ideg = _as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    x = atleast_1d(asarray(x))
    kern = compiler.get_kernel(("npoly_vander", rec.name, x.dtype),
                               lambda: _render_vander(rec, x.dtype))
    vdt = np.result_type(x.dtype, 0.0)
    out = empty_array(x.shape + (ideg + 1,), vdt)
    n = x.size
    if n:
        xc = x.reshape(-1) if x._c_contig else x.copy().reshape(-1)
        vals = [n] + _array_vals(out.reshape(n, ideg + 1)) + _array_vals(xc) + [ideg]
        kern(*_ew._grid(n, 1), vals)
    return out
