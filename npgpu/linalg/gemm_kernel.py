"""The generated tiled matrix-product kernel: ``C[b.., m, n] = sum_k A[b.., m, k] * B[b.., k, n]``.

Used for integer and bool products (no library does NumPy's wrapping integer
arithmetic); float products run on cuBLAS (its stand-in on the simulator)
unless ``products.use_float_kernel(True)`` routes them here too.

One kernel shape for everything: A, B and C are N-d arrays of the same batch
shape (broadcast operands carry zero strides, so nothing is copied) with any
strides.  Each block computes one ``T x T`` tile of C with the classic shared
memory scheme; blocks stride over (batch, tile row, tile col).  The launcher
is 1-D, so the 2-D thread position is decoded from ``threadIdx.x``.

Accumulation dtype (NumPy's): the result dtype, except float16 (float32, as
NumPy's half matmul does) and bool (an int32 count of true products; stored
as ``count != 0``).  Integer sums wrap, as NumPy's do: products are computed
in the result dtype modulo 2**bits, which a wider accumulator cast back on
store gives exactly.
"""
import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen.compiler import KernelSource, Param
from .._codegen.elementwise import _collapse, cast_expr, type_name

# tile edge: 16 on the GPU (256 threads); the simulator runs one OS thread per
# CUDA thread, so it uses small tiles (the source differs only in this number)
TILE = 4 if _backend.IS_SIM else 16
_MAX_BLOCKS = 4 if _backend.IS_SIM else 65535 * 8


def acc_dtype(out_dtype):
    """The dtype tiles and the accumulator hold for a result of ``out_dtype``."""
    k = out_dtype.kind
    if k == "b":
        return np.dtype(np.int32)
    if out_dtype == np.float16:
        return np.dtype(np.float32)
    return out_dtype


def _load(expr, dt, ct, dc):
    """An operand element as the accumulator's ``ct``, through the result dtype ``dc`` where
    the two differ (bool, float16): NumPy casts the operands into its loop's dtype first
    (int32 2 and -2 into a bool product are True and True, not a sum of 0)."""
    if dt != dc and ct != dc:
        expr = cast_expr(expr, dt, dc)
        dt = dc
    return cast_expr(expr, dt, ct)


def _render(nb, da, db, dc, conj_a):
    ct = acc_dtype(dc)
    ctn = type_name(ct)
    T = TILE
    bidx = [f"i{d}" for d in range(nb)]
    pre = "".join(f"{i}, " for i in bidx)
    load_a = _load(f"A[{pre}row, ka]", da, ct, dc)
    if conj_a and da.kind == "c" and ct.kind == "c":
        load_a = f"({load_a}).conjugate()"
    load_b = _load(f"B[{pre}kb, col]", db, ct, dc)
    store = cast_expr("acc", ct, dc)
    lines = [
        "def KERNEL(C, A, B, K, tiles_m, tiles_n, ntiles):",
        f"    sa = cuda.shared.array(({T}, {T}), {ctn})",
        f"    sb = cuda.shared.array(({T}, {T}), {ctn})",
        "    tid = cuda.threadIdx.x",
        f"    tx = tid % {T}",
        f"    ty = tid // {T}",
        f"    M = C.shape[{nb}]",
        f"    N = C.shape[{nb + 1}]",
        "    zero = " + f"{ctn}(0)",
        "    t = cuda.blockIdx.x",
        "    while t < ntiles:",
        "        tn = t % tiles_n",
        "        r = t // tiles_n",
        "        tm = r % tiles_m",
        "        r = r // tiles_m",
    ]
    for d in range(nb - 1, -1, -1):
        if d:
            lines.append(f"        i{d} = r % C.shape[{d}]")
            lines.append(f"        r = r // C.shape[{d}]")
        else:
            lines.append("        i0 = r")
    lines += [
        f"        row = tm * {T} + ty",
        f"        col = tn * {T} + tx",
        "        acc = zero",
        f"        for k0 in range(0, K, {T}):",
        "            ka = k0 + tx",
        "            if row < M and ka < K:",
        f"                sa[ty, tx] = {load_a}",
        "            else:",
        "                sa[ty, tx] = zero",
        "            kb = k0 + ty",
        "            if kb < K and col < N:",
        f"                sb[ty, tx] = {load_b}",
        "            else:",
        "                sb[ty, tx] = zero",
        "            cuda.syncthreads()",
        f"            for kk in range({T}):",
        "                acc += sa[ty, kk] * sb[kk, tx]",
        "            cuda.syncthreads()",
        "        if row < M and col < N:",
        f"            C[{pre}row, col] = {store}",
        "        t += cuda.gridDim.x",
    ]
    text = "\n".join(lines) + "\n"
    tag = f"{nb}_{da.str[1:]}_{db.str[1:]}_{dc.str[1:]}{'_c' if conj_a else ''}_t{T}"
    name = f"gemm_{tag}"
    text = text.replace("def KERNEL(", f"def {name}(")
    nd = nb + 2
    params = [Param("array", dc, nd, "A"), Param("array", da, nd, "A"), Param("array", db, nd, "A"),
              Param("scalar", np.int64), Param("scalar", np.int64), Param("scalar", np.int64),
              Param("scalar", np.int64)]
    return KernelSource(name, text, params)


def _values(arr_ptr, shape, strides, itemsize):
    n = 1
    for s in shape:
        n *= s
    return [0, 0, n, itemsize, arr_ptr, *shape, *strides]


def gemm(c, a, b, conj_a=False):
    """``c[...] = a @ b`` for arrays already shaped (batch.., M, K), (batch.., K, N), (batch.., M, N).

    ``a`` and ``b`` may have broadcast batch shapes (size-1 or missing dims);
    ``c`` has the full batch shape.  Any strides; ``c`` must not overlap a or b.
    """
    M, N = c.shape[-2], c.shape[-1]
    K = a.shape[-1]
    batch = c.shape[:-2]
    if c.size == 0:
        return
    nbt = len(batch)
    sa = _bcast(a, batch)
    sb = _bcast(b, batch)
    sc = list(c._strides[:-2])
    # collapse batch dims that are contiguous for all three (fewer index divisions)
    bshape, (bsc, bsa, bsb) = _collapse(batch, [sc, sa, sb]) if nbt else ((), [(), (), ()])
    nb = len(bshape)
    key = ("gemm", nb, a.dtype, b.dtype, c.dtype, bool(conj_a), TILE)
    kern = compiler.get_kernel(key, lambda: _render(nb, a.dtype, b.dtype, c.dtype, bool(conj_a)))
    tiles_m = -(-M // TILE)
    tiles_n = -(-N // TILE)
    nbatch = 1
    for s in bshape:
        nbatch *= s
    ntiles = tiles_m * tiles_n * nbatch
    vals = _values(c._ptr, bshape + (M, N), tuple(bsc) + c._strides[-2:], c.itemsize)
    vals += _values(a._ptr, bshape + (M, K), tuple(bsa) + a._strides[-2:], a.itemsize)
    vals += _values(b._ptr, bshape + (K, N), tuple(bsb) + b._strides[-2:], b.itemsize)
    vals += [K, tiles_m, tiles_n, ntiles]
    kern(min(ntiles, _MAX_BLOCKS), TILE * TILE, vals)


def _bcast(x, batch):
    """Batch strides of ``x`` broadcast to ``batch`` (zero on broadcast dims)."""
    xb = x.shape[:-2]
    st = x._strides[:-2]
    off = len(batch) - len(xb)
    out = [0] * off
    for i, n in enumerate(xb):
        out.append(0 if n == 1 else st[i])
    return out
