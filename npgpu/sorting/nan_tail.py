"""NaNs last, in input order, after CUB's sort of floats (:mod:`.cub_sort`).

CUB orders NaNs by their bits: those with the sign bit set (``a`` of them) before -inf, the
others (``b``) after +inf, each group by payload.  NumPy's stable sort puts every NaN last in
input order.  Three generated kernels repair the sorted result ``PL`` (the values, or the
permutation of an argsort) on the device.  Each first looks at the sorted keys ``S``: without
a NaN at either end there is no NaN at all, and the kernel returns at once -- no host read, no
scan, three launches that end at once (the counters ``NA`` are zeroed by CUB's own init
kernel, in the sort's workspace):

1. ``count``: each block counts the NaNs of its tile (``BLOCK * ITEMS`` inputs, read
   coalesced) into ``C[tile]``, and adds them to ``NA[1]`` (N), the sign-bit ones to ``NA[0]`` (a);
2. ``place``: each block sums ``C`` of the tiles before its own (its first NaN's rank; quadratic
   in the tiles, but only when there are NaNs), then ranks its tile's NaNs in input order (a
   block scan a row of the tile) and writes each to ``n - N + rank``.  When ``a == 0`` the
   non-NaN part is already at the front and only the NaN slots are rewritten; else the non-NaN
   part moves down by ``a``: the whole result is built in ``T`` and
3. ``copy`` (``a > 0`` only) moves it back to ``PL``.
"""
import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param

_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
# threads a block and rows of a tile (a tile: BLOCK * ITEMS inputs, row k the k-th BLOCK)
ITEMS = 3 if _backend.IS_SIM else 16
BLOCK = 8 if _backend.IS_SIM else 256
_COPY_BLOCKS = 8 if _backend.IS_SIM else 2048

_GATE = ["    if not (S[0] != S[0] or S[uint64(n - 1)] != S[uint64(n - 1)]):",
         "        return"]


def _render(which, fdt, pdt):
    A = lambda d: Param("array", d, 1, "C")      # noqa: E731
    n = Param("scalar", _I64)
    tile = BLOCK * ITEMS
    head = ["    tid = int64(cuda.threadIdx.x)",
            "    b = int64(cuda.blockIdx.x)",
            f"    base = b * {tile}"]
    if which == "count":
        L = ["def KERNEL(n, nt, X, S, C, NA):"] + _GATE + head + [
             "    cnt = cuda.shared.array(2, int32)",
             "    if tid == 0:",
             "        cnt[0] = int32(0)",
             "        cnt[1] = int32(0)",
             "    cuda.syncthreads()",
             "    c = int32(0)",
             "    neg = int32(0)",
             f"    for k in range({ITEMS}):",
             f"        i = base + k * {BLOCK} + tid",
             "        if i < n:",
             "            v = X[uint64(i)]",
             "            if v != v:",
             "                c += int32(1)",
             "                if math.copysign(1.0, v) < 0:",
             "                    neg += int32(1)",
             "    if c != int32(0):",
             "        cuda.atomic.add(cnt, 0, c)",
             "    if neg != int32(0):",
             "        cuda.atomic.add(cnt, 1, neg)",
             "    cuda.syncthreads()",
             "    if tid == 0:",
             "        C[uint64(b)] = cnt[0]",
             "        if cnt[0] != int32(0):",
             "            cuda.atomic.add(NA, 1, cnt[0])",
             "        if cnt[1] != int32(0):",
             "            cuda.atomic.add(NA, 0, cnt[1])"]
        params = [n, n, A(fdt), A(fdt), A(_I32), A(_I32)]
    elif which == "place":
        put = "i" if pdt.kind in "iu" else "v"
        L = ["def KERNEL(n, nt, X, S, C, NA, PL, T):"] + _GATE + head + [
             f"    sc = cuda.shared.array({BLOCK}, int32)",
             "    N = int64(NA[1])",
             "    a = int64(NA[0])",
             # this tile's first rank: the NaNs of the tiles before it (a block reduction)
             "    p = int32(0)",
             "    j = tid",
             "    while j < b:",
             "        p += C[uint64(j)]",
             f"        j += {BLOCK}",
             "    sc[tid] = p",
             "    cuda.syncthreads()",
             f"    h = {BLOCK // 2}",
             "    while h > 0:",
             "        if tid < h:",
             "            sc[tid] += sc[tid + h]",
             "        cuda.syncthreads()",
             "        h //= 2",
             "    r0 = n - N + int64(sc[0])",
             "    cuda.syncthreads()",
             # row by row in input order: an inclusive block scan of the NaN flags
             f"    for k in range({ITEMS}):",
             f"        i = base + k * {BLOCK} + tid",
             "        f = int32(0)",
             "        v = X[uint64(0)]",
             "        if i < n:",
             "            v = X[uint64(i)]",
             "            if v != v:",
             "                f = int32(1)",
             "        sc[tid] = f",
             "        cuda.syncthreads()",
             "        h = 1",
             f"        while h < {BLOCK}:",
             "            y = int32(0)",
             "            if tid >= h:",
             "                y = sc[tid - h]",
             "            cuda.syncthreads()",
             "            sc[tid] += y",
             "            cuda.syncthreads()",
             "            h *= 2",
             "        if f != int32(0):",
             "            r = r0 + int64(sc[tid] - 1)",
             "            if a > 0:",
             f"                T[uint64(r)] = {_ew.type_name(pdt)}({put})",
             "            else:",
             f"                PL[uint64(r)] = {_ew.type_name(pdt)}({put})",
             f"        r0 += int64(sc[{BLOCK - 1}])",
             "        cuda.syncthreads()",
             "    if a > 0:",
             f"        j = b * {BLOCK} + tid",
             "        while j < n - N:",
             "            T[uint64(j)] = PL[uint64(j + a)]",
             f"            j += nt * {BLOCK}"]
        params = [n, n, A(fdt), A(fdt), A(_I32), A(_I32), A(pdt), A(pdt)]
    else:
        L = ["def KERNEL(n, NA, T, PL):",
             "    if NA[0] == 0:",
             "        return",
             "    j = int64(cuda.grid(1))",
             "    while j < n:",
             "        PL[uint64(j)] = T[uint64(j)]",
             "        j += int64(cuda.gridsize(1))"]
        params = [n, A(_I32), A(pdt), A(pdt)]
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"nan_tail_{which}", text + repr([p.key() for p in params]))
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _kernel(which, fdt, pdt):
    return compiler.get_kernel(("nan_tail", which, fdt.str, pdt.str, BLOCK, ITEMS),
                               lambda: _render(which, fdt, pdt))


def _v(a):
    return _ew._arr_values(a._ptr, (a.size,), (a.itemsize,), a.itemsize)


def place(X, S, PL, T, NA):
    """Put the NaNs of ``X`` (1-d floats, the sort's input) last in ``PL`` in input order:
    ``S`` the sorted keys, ``PL`` the result to repair (``S`` itself for a sort, the int32
    permutation for an argsort), ``T`` scratch of ``PL``'s size and dtype, ``NA`` two int32
    counters, zero."""
    from .._core.ndarray import empty_array
    n = X.size
    if n == 0:
        return
    fdt, pdt = X.dtype, PL.dtype
    nt = -(-n // (BLOCK * ITEMS))
    C = empty_array((nt,), _I32)       # written by every block when there are NaNs
    _kernel("count", fdt, pdt)(nt, BLOCK, [n, nt] + _v(X) + _v(S) + _v(C) + _v(NA))
    _kernel("place", fdt, pdt)(nt, BLOCK, [n, nt] + _v(X) + _v(S) + _v(C) + _v(NA)
                               + _v(PL) + _v(T))
    _kernel("copy", fdt, pdt)(min(-(-n // BLOCK), _COPY_BLOCKS), BLOCK,
                              [n] + _v(NA) + _v(T) + _v(PL))
