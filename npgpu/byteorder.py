"""Byte order: ``ndarray.byteswap`` as one elementwise kernel on an unsigned view.

The element (each component, for complex) is read as an unsigned integer of its width and its
bytes reversed with shifts and masks in uint64, so every dtype shares one template per width.
"""
import numpy as np

from ._codegen import elementwise as _ew
from ._core.ndarray import empty_array, fail_unless_writeable

_OPS = {}       # byte width -> ScalarOp reversing that many bytes


def _swap_op(w):
    op = _OPS.get(w)
    if op is None:
        terms = [f"(((uint64(x0) >> uint64({8 * i})) & uint64(255)) << uint64({8 * (w - 1 - i)}))"
                 for i in range(w)]
        op = _OPS[w] = _ew.ScalarOp.from_expr(("byteswap", w), 1, " | ".join(terms))
    return op


def byteswap(a, inplace=False):
    """``a`` with the bytes of every element (every component of a complex) reversed: a new
    array, or ``a`` itself swapped in place."""
    if inplace and a._ro:
        fail_unless_writeable(a, "array")
    w = a.itemsize // 2 if a.dtype.kind == "c" else a.itemsize
    out = a if inplace else empty_array(a.shape, a.dtype)
    if w == 1 or a.size == 0:
        if not inplace:
            out[...] = a
        return out
    ut = np.dtype(f"u{w}")
    comps = 2 if a.dtype.kind == "c" else 1
    # unsigned views of the components: the source keeps its strides (one kernel, any layout)
    src = a._view(0, a.shape + (comps,), a._strides + (w,), ut)
    dst = out._view(0, out.shape + (comps,), out._strides + (w,), ut)
    _ew.launch(_swap_op(w), [src], [ut], [dst], [ut], name="byteswap")
    return out
