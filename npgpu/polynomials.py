"""Polynomial evaluation and the Vandermonde matrix: polyval, vander.

``polyval`` is Horner's scheme in one kernel: each thread walks the coefficients for its
element, and each step is NumPy's ``y * x + p[j]`` -- the multiply and add ufunc loops with
NumPy's casts between them, traced by :mod:`npgpu.fusion` -- so the result matches NumPy's
loop of array operations.  ``vander`` is one elementwise kernel over the element index.
"""
import operator

import numpy as np

from ._codegen import compiler
from ._codegen import elementwise as _ew
from ._codegen.compiler import KernelSource, Param
from ._core.layout import c_shape_text
from ._core.ndarray import empty_array
from .creation import asarray, empty, zeros_like
from .fusion import _literal, _Trace, _Var

_I64 = np.dtype(np.int64)


# ---- polyval ----------------------------------------------------------------------------------
def _horner_steps(x_dt, p_dt):
    """(device functions, first step's lines, its result, later steps' lines, their result,
    result dtype) of ``y = y * x + p[j]`` with ``y`` starting as zeros of ``x``'s dtype;
    None when the later steps' dtype is not the first's (then NumPy's loop runs as is)."""
    tr = _Trace()
    xv, pv = _Var(tr, "xv", x_dt), _Var(tr, "pv", p_dt)
    zero = _Var(tr, _literal(x_dt.type(0), _ew.compute_dtype(x_dt)), x_dt)
    first = zero * xv + pv
    cut = len(tr.lines)
    nxt = _Var(tr, "y", first.dtype) * xv + pv
    if nxt.dtype != first.dtype:
        return None
    return tr.helpers, tr.lines[:cut], first.expr, tr.lines[cut:], nxt.expr, first.dtype


def _render_polyval(x_dt, p_dt):
    helpers, lines1, r1, lines, r, ydt = _horner_steps(x_dt, p_dt)
    ct = _ew.compute_dtype
    load_p = _ew.cast_expr("P[{}]", p_dt, ct(p_dt))
    src = ["@cuda.jit(device=True)\n" + h.strip("\n") + "\n" for h in helpers]
    body = ["def KERNEL(n, OUT, X, P):",
            "    m = P.shape[0]",
            "    i = cuda.grid(1)",
            "    step = cuda.gridsize(1)",
            "    while i < n:",
            f"        xv = {_ew.cast_expr('X[i]', x_dt, ct(x_dt))}",
            f"        pv = {load_p.format(0)}"]
    body += ["        " + ln for ln in lines1]
    body += [f"        y = {r1}",
             "        for j in range(1, m):",
             f"            pv = {load_p.format('j')}"]
    body += ["            " + ln for ln in lines]
    body += [f"            y = {r}",
             f"        OUT[i] = {_ew.cast_expr('y', ct(ydt), ydt)}",
             "        i += step"]
    text = "\n".join(src) + "\n\n" + "\n".join(body) + "\n"
    name = _ew._kernel_name("polyval", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", _I64), Param("array", ydt, 1, "C"), Param("array", x_dt, 1, "C"),
              Param("array", p_dt, 1, "C")]
    return KernelSource(name, text, params)


def polyval(p, x):
    """``numpy.polyval``: ``p[0] * x**(N-1) + ... + p[N-1]`` by Horner's scheme (one kernel for
    1-d coefficients), with NumPy's dtypes and rounding at every step."""
    p = asarray(p)
    x = asarray(x)
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    steps = _horner_steps(x.dtype, p.dtype) if p.ndim == 1 and p.shape[0] else None
    if steps is None:
        # NumPy's loop as it is: no coefficients, or rows of coefficients broadcasting
        if p.shape[0]:
            try:
                np.broadcast_shapes(x.shape, p.shape[1:])
            except ValueError:       # (NumPy's message of its first ``y * x + p[0]``)
                raise ValueError(f"operands could not be broadcast together with shapes "
                                 f"{c_shape_text(x.shape)} {c_shape_text(p.shape[1:])} ") from None
        y = zeros_like(x)
        for j in range(p.shape[0]):
            y = y * x + p[j]
        return y
    ydt = steps[-1]
    out = empty_array(x.shape, ydt)
    n = out.size
    if n:
        xc = x if x._c_contig else x.copy()
        pc = p if p._c_contig else p.copy()
        kern = compiler.get_kernel(("polyval", x.dtype, p.dtype),
                                   lambda: _render_polyval(x.dtype, p.dtype))
        vals = [n]
        for a in (out, xc, pc):
            vals += [0, 0, a.size, a.itemsize, a._ptr, a.size, a.itemsize]
        kern(*_ew._grid(n, 1), vals)
    return out


# ---- vander -----------------------------------------------------------------------------------
# element (i, k) of the matrix: x[i] to the power of its column's exponent, by repeated
# multiplication in the result dtype (NumPy's multiply.accumulate along the row)
_VANDER = {inc: _ew.ScalarOp.from_expr(("vander", inc), 3, (
    "c = x0 % x2\n"
    f"e = {'c' if inc else 'x2 - 1 - c'}\n"
    "r = type(x1)(1)\n"
    "if e > 0:\n"
    "    r = x1\n"
    "    for _ in range(e - 1):\n"
    "        r = r * x1\n"
    "return r")) for inc in (False, True)}


def vander(x, N=None, increasing=False):
    """``numpy.vander``: columns ``x**(N-1), ..., x, 1`` (reversed with ``increasing``)."""
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    N = len(x) if N is None else operator.index(N)     # (NumPy's shape argument's TypeError)
    dt = np.promote_types(x.dtype, _I64)
    out = empty((len(x), N), dtype=dt)
    if out.size:
        _ew.launch(_VANDER[bool(increasing)], [_ew.INDEX, x.reshape((len(x), 1)), np.int64(N)],
                   [_I64, dt, _I64], [out], [dt], name="vander")
    return out
