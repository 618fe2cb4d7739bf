"""``ufunc.at(a, indices, b)``: unbuffered in-place ``a[indices] = ufunc(a[indices], b)``.

Repeated indices accumulate, in index order, like NumPy.  Steps:

1. ``indices`` (every form NumPy's indexing takes) become a device array of element
   offsets into ``a`` in the shape of ``a[indices]`` (advanced indexing's parser: NumPy's
   rules and errors), built with ufuncs; ``b`` is broadcast to that shape in the loop's dtype.
2. One generic kernel template, parameterised by the ufunc's ScalarOp:
   * atomic path (add/subtract/maximum/minimum/bitwise_and/or/xor where ``cuda.atomic``
     has the dtype): one atomic per update;
   * ordered path (everything else: float16, complex, power, divide...): every update is
     pushed on a per-element list with ``atomic.exch``; the thread that owns the list head
     applies its element's updates one by one in increasing update order.  Cost per
     element is quadratic in its number of repeats (fine for typical repeat counts).

Index arrays, host or device, are bounds-checked before anything is written (NumPy's
IndexError): advanced indexing's check kernel, one 8-byte read.
"""
import numpy as np

from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import copy as _copy
from .._core import layout as _layout
from .._core.ndarray import empty_array, fail_unless_writeable, ndarray

_I64 = np.dtype(np.int64)
_ATOMIC = {"add": "add", "subtract": "add", "maximum": "max", "minimum": "min",
           "bitwise_and": "and_", "bitwise_or": "or_", "bitwise_xor": "xor"}
_ATOMIC_DTYPES = {np.dtype(t) for t in ("i4", "i8", "u4", "u8", "f4", "f8")}

_AFFINE = _ew.ScalarOp.from_expr("at_affine", 3, "x1 + x2 * x0")          # start + step * i
# start + wrapped index * step
_WRAP = _ew.ScalarOp.from_expr("at_wrap", 4, "x3 + (x0 + x1 if x0 < 0 else x0) * x2")


def _const(v):
    return np.int64(v)


def _extent(a):
    lo, hi = _copy.extent(a)
    return lo, (hi - lo) // a.itemsize


def element_offsets(a, indices, check=True):
    """(device int64 array of the shape of ``a[indices]``: the offsets, in elements from a's
    lowest address, of its elements; that shape).  The index is read by advanced indexing's
    parser, so every form NumPy's ``at`` takes (None, Ellipsis, slices, negative and 0-d
    integers, boolean masks and scalars, host or device arrays, tuples mixing them) has
    NumPy's meaning and errors; index arrays are bounds-checked on the device (one read)."""
    from ..indexing import advanced as _adv     # (at runs after the namespace is built)
    from .registry import UFUNCS
    lo, _ = _extent(a)
    isz = a.itemsize
    p = _adv.parse(a, indices)
    if isinstance(p, tuple):            # basic: the offsets of a view
        off, shape, strides = _layout.basic_index(a.shape, a._strides, p[1])
        base, strides, arrays = (a._ptr - lo + off) // isz, [s // isz for s in strides], ()
    else:
        if check:
            _adv.check(p)
        base, shape, strides = p.base, p.shape, p.strides
        arrays = zip(p.arrays, p.sizes, p.steps)
    nd = len(shape)
    total = None                        # the first term carries the base offset
    for d, (n, s) in enumerate(zip(shape, strides)):
        if n > 1 and s:                 # a basic dim: i * stride along it
            v = empty_array((n,), _I64)
            _ew.launch(_AFFINE, [_ew.INDEX, _const(0 if total is not None else base),
                                 _const(s)], [_I64] * 3, [v], [_I64], name="at_index")
            v = v.reshape((1,) * d + (n,) + (1,) * (nd - d - 1))
            total = v if total is None else UFUNCS["add"](total, v)
    for x, n, t in arrays:              # index arrays, broadcast to the shape: wrapped * step
        if t:
            w = empty_array(shape, _I64)
            _ew.launch(_WRAP, [x, _const(n), _const(t), _const(0 if total is not None else base)],
                       [_I64] * 4, [w], [_I64], name="at_index")
            total = w if total is None else UFUNCS["add"](total, w)
    if total is None or total.shape != shape:
        out = empty_array(shape, _I64)
        _copy.copy_into(out, total if total is not None else _const(base))
        total = out
    return total, shape


# an update whose exponent (x0) is negative gets offset -1, which the kernel skips
_SKIP_NEGATIVE = _ew.ScalarOp.from_expr("at_skip_negative", 2,
                                        "int64(-1) if x0 < type(x0)(0) else x1")


def _negative_exponents(uf, bv, loop_in):
    """Does integer ``power.at`` meet a negative exponent in ``bv`` (its loop-dtype operand)?

    One reduction and one scalar read, as the plain call's check."""
    if uf.__name__ != "power" or loop_in[1].kind != "i" or bv is None:
        return False
    from .registry import UFUNCS
    return bool(UFUNCS["minimum"].reduce(bv.reshape(-1)).item() < 0)


def _render(op, a_dt, b_dt, loop_in, loop_out, mode, atomic):
    ct = _ew.compute_dtype
    lines = [op.device_source(), ""]
    has_b = b_dt is not None
    args = "n, A, OFF, NXT, HEAD" + (", B" if has_b else "")
    lines.append(f"def KERNEL({args}):")
    lines.append("    i = cuda.grid(1)")
    lines.append("    step = cuda.gridsize(1)")
    lines.append("    m = A.shape[0]")
    lines.append("    while i < n:")
    lines.append("        o = OFF[i]")
    if mode == "atomic":
        val = "B[i]"
        if atomic[1]:          # subtract: add the negation (wraps for unsigned)
            val = f"{_ew.type_name(b_dt)}(0) - B[i]" if b_dt.kind == "u" else "-B[i]"
        lines.append("        if o >= 0 and o < m:")
        lines.append(f"            cuda.atomic.{atomic[0]}(A, o, {val})")
    elif mode == "link":
        lines.append("        if o >= 0 and o < m:")
        lines.append("            NXT[i] = cuda.atomic.exch(HEAD, o, i)")
    else:
        xa = _ew.cast_expr(_ew.cast_expr("A[o]", a_dt, loop_in[0]), loop_in[0], ct(loop_in[0]))
        xs = [xa]
        if has_b:
            xs.append(_ew.cast_expr(_ew.cast_expr("B[best]", b_dt, loop_in[1]), loop_in[1],
                                    ct(loop_in[1])))
        res = _ew.cast_expr(_ew.cast_expr("r", ct(loop_out[0]), loop_out[0]), loop_out[0], a_dt)
        lines += [
            "        if o >= 0 and o < m and HEAD[o] == i:",
            "            last = -1",
            "            while True:",
            "                best = -1",
            "                j = i",
            "                while j >= 0:",
            "                    if j > last and (best < 0 or j < best):",
            "                        best = j",
            "                    j = NXT[j]",
            "                if best < 0:",
            "                    break",
            f"                r = op({', '.join(xs)})",
            f"                A[o] = {res}",
            "                last = best",
        ]
    lines.append("        i += step")
    text = "\n".join(lines) + "\n"
    name = _ew._kernel_name(f"ufunc_at_{mode}", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", _I64), Param("array", a_dt, 1, "C"), Param("array", _I64, 1, "C"),
              Param("array", _I64, 1, "C"), Param("array", _I64, 1, "C")]
    if has_b:
        params.append(Param("array", b_dt, 1, "C"))
    return KernelSource(name, text, params)


def _arr(ptr, n, itemsize):
    return [0, 0, n, itemsize, ptr, n, itemsize]


def ufunc_at(uf, a, indices, b=None, *, check=True):
    """``uf.at(a, indices, b)``; ``check=False`` for npgpu's own callers, whose index arrays
    are in range by construction: no bounds check (a kernel and a synchronising read)."""
    from ..creation import asarray
    from .ufunc import _arg_key
    if not isinstance(a, ndarray):
        raise TypeError("ufunc.at: the first operand must be an npgpu array")
    if uf.nout != 1:
        raise ValueError("Only single output ufuncs supported at this time")
    if uf.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if uf.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    off, shape = element_offsets(a, indices, check)
    if a._ro:
        fail_unless_writeable(a, "operand array with iterator write flag set")
    keys = (a.dtype,)
    if b is not None:
        k = _arg_key(b)
        if k is None:
            b = asarray(b)
            k = b.dtype
        elif isinstance(k, type) and np.asarray(b).dtype != object:
            k = np.asarray(b).dtype     # NumPy's at makes a Python scalar an array: not weak
        keys += (k,)
    # NumPy's at calls its loop once an element: loops of one-value operands (power's fast
    # paths); casts back unsafely
    loop_in, loop_out, op = (uf._single or uf).resolve(keys, casting="unsafe")
    if loop_out[0].kind == "c":
        _copy.warn_complex(a.dtype)
    if isinstance(b, ndarray) and not _layout.broadcasts_to(b.shape, shape):
        raise ValueError(f"operands could not be broadcast together with remapped shapes "
                         f"{b.shape} {shape}")      # (the method raises NumPy's message)
    n = off.size
    if n == 0:
        return None
    bv = None
    if b is not None:
        bv = empty_array(shape, loop_in[1])
        _copy.copy_into(bv, b if isinstance(b, ndarray) else _copy.scalar_of(b, loop_in[1]))
    offc = off if off._c_contig else off.copy()
    neg_power = _negative_exponents(uf, bv, loop_in)
    if neg_power:      # NumPy skips those updates, applies the others, then raises
        skip = empty_array(offc.shape, _I64)
        _ew.launch(_SKIP_NEGATIVE, [bv, offc], [bv.dtype, _I64], [skip], [_I64], name="at_index")
        offc = skip
    lo, m = _extent(a)
    b_dt = bv.dtype if bv is not None else None
    atomic = None
    name = uf.__name__
    if (name in _ATOMIC and a.dtype in _ATOMIC_DTYPES and loop_in[0] == a.dtype
            and loop_in[1] == a.dtype and loop_out[0] == a.dtype
            and not (name in ("maximum", "minimum") and a.dtype.kind == "f")
            and not (name.startswith("bitwise") and a.dtype.kind == "f")):
        atomic = (_ATOMIC[name], name == "subtract")
    dummy = empty_array((1,), _I64)
    modes = ["atomic"] if atomic else ["link", "apply"]
    head = nxt = dummy
    if not atomic:
        head = empty_array((m,), _I64)
        _copy.fill(head, -1)
        nxt = empty_array((n,), _I64)
        _copy.fill(nxt, -1)
    for mode in modes:
        key = ("ufunc_at", op.key, mode, a.dtype, b_dt, loop_in, loop_out, atomic)
        kern = compiler.get_kernel(key, lambda: _render(op, a.dtype, b_dt, loop_in, loop_out,
                                                        mode, atomic))
        values = [n] + _arr(lo, m, a.itemsize) + _arr(offc._ptr, n, 8)
        values += _arr(nxt._ptr, nxt.size, 8) + _arr(head._ptr, head.size, 8)
        if bv is not None:
            values += _arr(bv._ptr, n, bv.itemsize)
        grid, block = _ew._grid(n, 1)
        kern(grid, block, values)
    if neg_power:
        raise ValueError("Integers to negative integer powers are not allowed.")
    return None
