"""``ufunc.at(a, indices, b)``: unbuffered in-place ``a[indices] = ufunc(a[indices], b)``.

Repeated indices accumulate, in index order, like NumPy.  Steps:

1. ``indices`` (ints, slices, int arrays on the host or device, tuples of them) become a
   device array of element offsets into ``a`` (NumPy's advanced-indexing shape rules),
   built with ufuncs; ``b`` is broadcast to that shape in the loop's dtype.
2. One generic kernel template, parameterised by the ufunc's ScalarOp:
   * atomic path (add/subtract/maximum/minimum/bitwise_and/or/xor where ``cuda.atomic``
     has the dtype): one atomic per update;
   * ordered path (everything else: float16, complex, power, divide...): every update is
     pushed on a per-element list with ``atomic.exch``; the thread that owns the list head
     applies its element's updates one by one in increasing update order.  Cost per
     element is quadratic in its number of repeats (fine for typical repeat counts).

Host index arrays are bounds-checked like NumPy (IndexError); device index arrays are not
checked on the host (that would need a device->host copy) -- out-of-range offsets are
skipped by the kernel, never written.
"""
import numpy as np

from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import copy as _copy
from .._core.ndarray import empty_array, fail_unless_writeable, ndarray

_I64 = np.dtype(np.int64)
_ATOMIC = {"add": "add", "subtract": "add", "maximum": "max", "minimum": "min",
           "bitwise_and": "and_", "bitwise_or": "or_", "bitwise_xor": "xor"}
_ATOMIC_DTYPES = {np.dtype(t) for t in ("i4", "i8", "u4", "u8", "f4", "f8")}

_AFFINE = _ew.ScalarOp.from_expr("at_affine", 3, "x1 + x2 * x0")          # start + step * i
_WRAP = _ew.ScalarOp.from_expr("at_wrap", 3, "(x0 + x1 if x0 < 0 else x0) * x2")


def _const(v):
    return np.int64(v)


def _offsets_of(item, n, stride):
    """(kind, value) for one index item on an axis of length n and element stride."""
    from ..creation import asarray
    if isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
        i = int(item)
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for axis with size {n}")
        return "adv", _const((i + n if i < 0 else i) * stride)
    if isinstance(item, slice):
        start, stop, step = item.indices(n)
        length = len(range(start, stop, step))
        out = empty_array((length,), _I64)
        _ew.launch(_AFFINE, [_ew.INDEX, _const(start * stride), _const(step * stride)],
                   [_I64, _I64, _I64], [out], [_I64], name="at_index")
        return "slice", out
    if isinstance(item, ndarray):
        idx = item
    else:
        host = np.asarray(item)
        if host.dtype == bool:
            return "adv", _offsets_of(np.nonzero(host)[0], n, stride)[1]
        if host.dtype.kind not in "iu" and host.size:
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        host = host.astype(np.int64)
        if host.size and (host.max() >= n or host.min() < -n):
            bad = host[(host >= n) | (host < -n)][0]
            raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
        idx = asarray(host)
    if idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    out = empty_array(idx.shape, _I64)
    _ew.launch(_WRAP, [idx, _const(n), _const(stride)], [_I64, _I64, _I64], [out], [_I64],
               name="at_index")
    return "adv", out


def _extent(a):
    lo, hi = _copy.extent(a)
    return lo, (hi - lo) // a.itemsize


def _masks_as_indices(a, indices):
    """Boolean arrays (host, device, lists of bools) as their ``nonzero()`` index arrays, as
    NumPy's at takes them: a k-d mask spans k axes, its shape checked against them."""
    from ..indexing import masks
    items = []
    for it in indices:
        if type(it) is list and it and isinstance(it[0], (bool, np.bool_, list)):
            try:
                it = np.asarray(it)
            except (TypeError, ValueError):
                pass
        items.append(it)
    is_mask = [isinstance(it, (ndarray, np.ndarray)) and it.dtype == np.bool_ and it.ndim >= 1
               for it in items]
    if not any(is_mask):
        return indices
    width = [it.ndim if m else 0 if it is Ellipsis else 1 for it, m in zip(items, is_mask)]
    out = []
    for k, (it, m) in enumerate(zip(items, is_mask)):
        if not m:
            out.append(it)
            continue
        after_ellipsis = any(i is Ellipsis for i in items[:k])
        axis = a.ndim - sum(width[k:]) if after_ellipsis else sum(width[:k])
        masks.check_mask(a.shape, it.shape, max(axis, 0))
        out += list(np.nonzero(it) if isinstance(it, np.ndarray) else masks.nonzero(it))
    return tuple(out)


def element_offsets(a, indices):
    """Device int64 array: offsets (in elements, from a's lowest address) of a[indices]."""
    from .registry import UFUNCS
    if not isinstance(indices, tuple):
        indices = (indices,)
    indices = _masks_as_indices(a, indices)
    if any(i is Ellipsis for i in indices):
        k = next(j for j, i in enumerate(indices) if i is Ellipsis)   # no == on arrays
        indices = indices[:k] + (slice(None),) * (a.ndim - len(indices) + 1) + indices[k + 1:]
    if len(indices) > a.ndim:
        raise IndexError(f"too many indices for array: array is {a.ndim}-dimensional, "
                         f"but {len(indices)} were indexed")
    indices = indices + (slice(None),) * (a.ndim - len(indices))
    lo, _ = _extent(a)
    parts = [_offsets_of(it, n, s // a.itemsize)
             for it, n, s in zip(indices, a.shape, a._strides)]
    adv = [k for k, (kind, _) in enumerate(parts) if kind == "adv"]
    has_array = any(isinstance(v, ndarray) for kind, v in parts if kind == "adv")
    if not has_array:          # ints are plain dimension removals
        adv_shape = ()
    else:
        adv_shape = np.broadcast_shapes(*(np.shape(v) if not isinstance(v, ndarray) else v.shape
                                          for kind, v in parts if kind == "adv"))
    contiguous = not adv or adv == list(range(adv[0], adv[-1] + 1))
    # result dims: slices keep their place; the advanced block goes in place or first (NumPy)
    layout = []
    placed = False
    for k, (kind, v) in enumerate(parts):
        if kind == "slice":
            layout.append(("slice", k))
        elif has_array and not placed and contiguous:
            layout.append(("adv", None))
            placed = True
    if has_array and not contiguous:
        layout.insert(0, ("adv", None))
    shape = []
    for kind, k in layout:
        shape += list(adv_shape) if kind == "adv" else [parts[k][1].shape[0]]
    total = _const((a._ptr - lo) // a.itemsize)
    pos = {}
    p = 0
    for kind, k in layout:
        if kind == "adv":
            pos["adv"] = p
            p += len(adv_shape)
        else:
            pos[k] = p
            p += 1
    nd = len(shape)
    for k, (kind, v) in enumerate(parts):
        if not isinstance(v, ndarray):
            total = total + v if not isinstance(total, ndarray) else UFUNCS["add"](total, v)
            continue
        if kind == "slice":
            view_shape = [1] * nd
            view_shape[pos[k]] = v.shape[0]
        else:
            start = pos["adv"]
            vs = (1,) * (len(adv_shape) - v.ndim) + v.shape
            view_shape = [1] * start + list(vs) + [1] * (nd - start - len(adv_shape))
        total = UFUNCS["add"](total, v.reshape(tuple(view_shape)))
    if not isinstance(total, ndarray):
        out = empty_array((), _I64)
        _copy.fill(out, total)
        total = out
    return total, tuple(shape)


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


def ufunc_at(uf, a, indices, b=None):
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
    off, shape = element_offsets(a, indices)
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
    loop_in, loop_out, op = uf.resolve(keys, casting="unsafe")     # NumPy's at casts back unsafely
    if loop_out[0].kind == "c":
        _copy.warn_complex(a.dtype)
    n = off.size
    if n == 0:
        return None
    bv = None
    if b is not None:
        if isinstance(b, ndarray) and np.broadcast_shapes(b.shape, shape) != shape:
            raise ValueError(f"operands could not be broadcast together with remapped shapes "
                             f"{b.shape} {shape}")
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
