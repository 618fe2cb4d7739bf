"""Which values of a small integer range occur: a bitmap, and its set positions in order.

``unique`` of integers whose values span at most ``MAX_SPAN`` (2^18) needs no sort: one bit a
value of ``[lo, lo + span)``.

1. ``mark``: each block ORs the bits of its elements into a bitmap in shared memory (32 KiB
   at most), then ORs its nonzero words into the global bitmap ``G`` -- one read of the input,
   shared atomics, a few thousand global ones a block;
2. ``bitwise_count`` of the words and their ``cumsum`` (the project's ufunc and scan): each
   word's first output position; the total is the result's length (one 8-byte read);
3. ``expand``: each word writes ``lo + 32 w + b`` for its set bits ``b`` in order.

A wider span (up to ``WIDE_PER_ELEMENT`` bits an element, so the bitmap takes no more bytes
than the input has elements, and at most ``MAX_WIDE_SPAN``) marks the global bitmap directly
(``mark_wide``: one global atomic an element, into a bitmap that stays in L2 up to tens of MiB)
when ``NPGPU_UNIQUE_BITMAP_WIDE=1``.  Measured on the H200 (2026-12-05, 2^24 int32 in
[0, 2^24), ``benchmarks/experiments/unique_parts.py``): 590 us against the sort path's 647
(PyTorch 526): faster than the sort, not than PyTorch, and unmeasured for denser spans (more
atomics on each bitmap word), so it stays off by default.

The values come out sorted with no comparison at all.  Used when ``NPGPU_UNIQUE_BITMAP=1``
(``sets.UNIQUE_BITMAP``): not yet measured on the GPU.  (A table of bytes written by a scatter
instead, measured: 2^24 stores into a 64 KiB table serialise in L2 -- 1.16 ms on the H200
against the sort path's 0.70-0.84 ms.)
"""
import os

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import transfer as _transfer
from .._core.ndarray import empty_array

_I64 = np.dtype(np.int64)
_U32 = np.dtype(np.uint32)
MAX_SPAN = 1 << 18                     # 8192 words: 32 KiB of shared memory a block
_WORDS = MAX_SPAN // 32
BLOCK = 8 if _backend.IS_SIM else 256
_BLOCKS_PER_SM = 4                     # mark: blocks loop over the input (each flushes once)
WIDE = os.environ.get("NPGPU_UNIQUE_BITMAP_WIDE", "0") == "1"
WIDE_PER_ELEMENT = 8
MAX_WIDE_SPAN = 1 << 30                # a 128 MiB bitmap


def takes(span, n):
    """Whether ``n`` values spanning ``span`` go through the bitmap (module docstring)."""
    if span <= MAX_SPAN:
        return True
    return WIDE and span <= min(MAX_WIDE_SPAN, WIDE_PER_ELEMENT * n)


def _render(which, dt):
    A = lambda d: Param("array", d, 1, "C")      # noqa: E731
    n = Param("scalar", _I64)
    if which == "mark":
        L = ["def KERNEL(n, lo, W, X, G):",
             f"    sb = cuda.shared.array({_WORDS}, uint32)",
             "    tid = int64(cuda.threadIdx.x)",
             "    w = tid",
             "    while w < W:",
             "        sb[w] = uint32(0)",
             f"        w += {BLOCK}",
             "    cuda.syncthreads()",
             f"    i = int64(cuda.blockIdx.x) * {BLOCK} + tid",
             f"    step = int64(cuda.gridDim.x) * {BLOCK}",
             "    while i < n:",
             "        r = int64(X[uint64(i)]) - lo",
             "        cuda.atomic.or_(sb, r >> 5, uint32(1) << uint32(r & 31))",
             "        i += step",
             "    cuda.syncthreads()",
             "    w = tid",
             "    while w < W:",
             "        v = sb[w]",
             "        if v != uint32(0):",
             "            cuda.atomic.or_(G, w, v)",
             f"        w += {BLOCK}"]
        params = [n, n, n, A(dt), A(_U32)]
    elif which == "mark_wide":
        L = ["def KERNEL(n, lo, X, G):",
             "    i = int64(cuda.grid(1))",
             f"    step = int64(cuda.gridDim.x) * {BLOCK}",
             "    while i < n:",
             "        r = int64(X[uint64(i)]) - lo",
             "        cuda.atomic.or_(G, r >> 5, uint32(1) << uint32(r & 31))",
             "        i += step"]
        params = [n, n, A(dt), A(_U32)]
    else:
        t = _ew.type_name(dt)
        L = ["def KERNEL(W, lo, G, E, OUT):",
             "    w = int64(cuda.grid(1))",
             "    if w >= W:",
             "        return",
             "    v = G[uint64(w)]",
             "    if v == uint32(0):",
             "        return",
             "    p = int64(E[uint64(w)]) - int64(cuda.popc(v))",   # inclusive -> first
             "    b = int64(0)",
             "    while v != uint32(0):",
             "        if v & uint32(1):",
             f"            OUT[uint64(p)] = {t}(lo + w * 32 + b)",
             "            p += 1",
             "        v = uint32(v >> uint32(1))",
             "        b += 1"]
        params = [n, n, A(_U32), A(_I64), A(dt)]
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"presence_{which}", text + repr([p.key() for p in params]))
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _kernel(which, dt):
    return compiler.get_kernel(("presence", which, dt.str, BLOCK),
                               lambda: _render(which, dt))


def _v(a):
    return _ew._arr_values(a._ptr, (a.size,), (a.itemsize,), a.itemsize)


def present_values(x, lo, span):
    """The distinct values of 1-d integer ``x`` (C-contiguous, every value in ``[lo, lo +
    span)``, ``takes(span, x.size)``), sorted, in ``x``'s dtype."""
    from ..creation import zeros
    from ..cuda import runtime as _rt
    from ..reductions.functions import cumsum
    from ..ufuncs import UFUNCS
    n = x.shape[0]
    assert 0 < span and takes(span, n)
    W = -(-span // 32)
    G = zeros((W,), _U32)
    grid = max(1, min(-(-n // BLOCK), _BLOCKS_PER_SM * _rt.sm_count()))
    if span <= MAX_SPAN:
        _kernel("mark", x.dtype)(grid, BLOCK, [n, lo, W] + _v(x) + _v(G))
    else:
        _kernel("mark_wide", x.dtype)(grid, BLOCK, [n, lo] + _v(x) + _v(G))
    E = cumsum(UFUNCS["bitwise_count"](G), dtype=_I64)
    host = np.empty(1, _I64)
    _transfer._d2h(host, E._ptr + (W - 1) * 8, 8)
    out = empty_array((int(host[0]),), x.dtype)
    _kernel("expand", x.dtype)(-(-W // BLOCK), BLOCK, [W, lo] + _v(G) + _v(E) + _v(out))
    return out
