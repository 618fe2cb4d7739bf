"""Radix select: the few order statistics one long row needs, without sorting it.

A median or a handful of quantiles of one row of ``n`` elements reads a few ranks of its sorted
order.  Instead of sorting (:mod:`.radix`: several passes that read *and write* every key), the
values at those ranks are found digit by digit, most significant first, on the sort keys of
:mod:`.keys` (NaN above +inf, so a rank below the NaN count never lands on one):

1. ``hist`` pass 0: a 256-bin histogram of the top 8 key bits of every element (shared-memory
   counters per block, flushed with global atomics), and the NaN count;
2. ``plan``: the order-statistic kernel of :mod:`.order_stats` in its "plan" rendering writes
   the ranks each output needs (two per quantile: the neighbours it interpolates), from the
   count of valid elements;
3. ``pick`` (one block): per target rank, the digit whose cumulative count passes the rank;
   the rank becomes a rank inside that digit's bucket and the digit joins the target's prefix;
4. ``hist`` pass p > 0: per target, the histogram of the next 8 bits of the elements whose
   higher bits equal its prefix; then ``pick`` again -- 4 passes for 32-bit keys, 8 for 64;
5. the last ``pick`` decodes each prefix (now the whole key) to the value's bits, and the
   order-statistic kernel's "select" rendering combines them as the sort path would.

Each pass reads the row once and writes nothing but counters: for 2^24 float32, four reads of
64 MB where a sort reads and writes the keys (and a payload) per pass.
"""
import numpy as np

from .. import _backend
from .. import creation
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from . import keys as _keys

_I64 = np.dtype(np.int64)
_I32 = np.dtype(np.int32)
# a row this long (or longer) is selected, not sorted; at most this many target ranks
SELECT_MIN = 32 if _backend.IS_SIM else 1 << 15
MAX_TARGETS = 8
_MAX_BLOCKS = 1024        # histogram blocks: each flushes up to 256 x targets global atomics


def _device_src(A):
    return _keys.float_key_source(A.itemsize) if A.kind == "f" else ""


def _key_expr(A, X, e):
    """Source of the key of element ``e`` of the unsigned view ``X`` of an ``A`` array."""
    t = _keys.uint_name(A.itemsize)
    if A.kind == "f":
        return f"fkey{A.itemsize}({X}[{e}])"
    flip = (1 << (8 * A.itemsize - 1)) if A.kind == "i" else 0
    return f"{t}({X}[{e}] ^ {t}({flip:#x}))" if flip else f"{t}({X}[{e}])"


def _decode_expr(A, k):
    """The bits of the value whose key is ``k`` (floats: +0.0 for a zero, one NaN for NaN)."""
    t = _keys.uint_name(A.itemsize)
    w = 8 * A.itemsize
    sign, ones = 1 << (w - 1), (1 << w) - 1
    if A.kind == "f":
        return f"({t}({k} ^ {t}({sign:#x})) if {k} >= {t}({sign:#x}) else {t}({k} ^ {t}({ones:#x})))"
    if A.kind == "i":
        return f"{t}({k} ^ {t}({sign:#x}))"
    return f"{t}({k})"


def _render_hist(A, p, H):
    """Histogram of digit ``p`` (from the top) of every key whose higher digits equal one of
    the ``H`` prefixes (pass 0: of every key, and the NaN count)."""
    t = _keys.uint_name(A.itemsize)
    w = 8 * A.itemsize
    shift = w - 8 * (p + 1)
    L = [_device_src(A), "def KERNEL(X, HIST, PFX, NANC, n):",
         f"    sh = cuda.shared.array({H * 256}, int32)",
         "    tid = cuda.threadIdx.x", "    nt = cuda.blockDim.x",
         f"    for j in range(tid, {H * 256}, nt):", "        sh[j] = 0",
         "    nanc = int64(0)", "    cuda.syncthreads()",
         "    i = cuda.grid(1)", "    step = cuda.gridsize(1)", "    while i < n:",
         f"        k = {_key_expr(A, 'X', 'i')}",
         f"        d = int64((k >> {t}({shift})) & {t}(255))"]
    if p == 0:
        if A.kind == "f":
            L += ["        if k == " + f"{t}({(1 << w) - 1:#x}):", "            nanc += 1"]
        L.append("        cuda.atomic.add(sh, d, int32(1))")
    else:
        L += [f"        hi = {t}(k >> {t}({shift + 8}))",
              f"        for h in range({H}):",
              "            if hi == PFX[h]:",
              "                cuda.atomic.add(sh, h * 256 + d, int32(1))"]
    L += ["        i += step", "    cuda.syncthreads()",
          f"    for j in range(tid, {H * 256}, nt):", "        c = sh[j]", "        if c != 0:",
          "            cuda.atomic.add(HIST, j, int64(c))"]
    if p == 0 and A.kind == "f":
        L += ["    if nanc != 0:", "        cuda.atomic.add(NANC, 0, nanc)"]
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"select_hist{p}", text)
    uA = np.dtype(t)
    params = [Param("array", uA, 1, "C"), Param("array", _I64, 1, "C"),
              Param("array", uA, 1, "C"), Param("array", _I64, 1, "C"), Param("scalar", _I64)]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _render_pick(A, p, K, last):
    """One block: thread k < K moves target k one digit down (pass ``p``), then the block
    clears the histograms for the next pass; the last pass writes the values' bits."""
    t = _keys.uint_name(A.itemsize)
    h = "0" if p == 0 else "k * 256"
    L = ["def KERNEL(HIST, PFX, RK, OUT):", "    k = cuda.threadIdx.x", f"    if k < {K}:",
         f"        base = {h}", "        r = RK[k]", "        c = int64(0)", "        d = 0",
         "        while d < 255 and c + HIST[base + d] <= r:",
         "            c += HIST[base + d]", "            d += 1",
         "        RK[k] = r - c",
         f"        pf = {t}(d)" if p == 0 else f"        pf = {t}((PFX[k] << {t}(8)) | {t}(d))",
         "        PFX[k] = pf"]
    if last:
        L.append(f"        OUT[k] = {_decode_expr(A, 'pf')}")
    L += ["    cuda.syncthreads()",
          f"    for j in range(k, {(1 if p == 0 else K) * 256}, cuda.blockDim.x):",
          "        HIST[j] = 0"]
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"select_pick{p}", text)
    uA = np.dtype(t)
    params = [Param("array", _I64, 1, "C"), Param("array", uA, 1, "C"),
              Param("array", _I64, 1, "C"), Param("array", uA, 1, "C")]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _values(x):
    return _ew._arr_values(x._ptr, x.shape, x._strides, x.itemsize)


def try_select(method, x, Q, res, A, V, R, nan_skip, take_int):
    """The order statistics of ``x`` (shape ``(1, n)``) into ``res`` by radix select, when it
    is one row of at least :data:`SELECT_MIN` elements and at most :data:`MAX_TARGETS` ranks
    are needed; False (nothing launched) otherwise, and for complex rows (two-part keys)."""
    from . import order_stats as _os
    rows, n = x.shape
    nq = 1 if Q is None else Q.size
    K = 2 * nq
    if rows != 1 or n < SELECT_MIN or K > MAX_TARGETS or A.kind == "c":
        return False
    if not x._c_contig:
        x = x.copy()
    uA = np.dtype(_keys.uint_name(A.itemsize))
    X = x.reshape(-1).view(uA)
    st = creation.zeros((K * 256 + K + 1,), _I64)       # histograms, ranks, NaN count
    hist, rk, nanc = st[:K * 256], st[K * 256:K * 257], st[K * 257:]
    pfx = creation.empty((K,), uA)
    T = creation.empty((K,), A)
    tbits = T.view(uA)
    grid, block = _ew._grid(n, 8)
    if not _backend.IS_SIM:
        grid = min(grid, _MAX_BLOCKS)
    passes = A.itemsize                 # 8-bit digits
    q_args = [] if Q is None else [Q]
    for p in range(passes):
        H = 1 if p == 0 else K
        kern = compiler.get_kernel(("select_hist", A, p, H), lambda: _render_hist(A, p, H))
        kern(grid, block, _values(X) + _values(hist) + _values(pfx) + _values(nanc) + [n])
        if p == 0:
            _os.launch(method, A, V, R, nan_skip, "plan", q_args + [rk, nanc], n, 1, nq,
                       take_int)
        last = p == passes - 1
        kern = compiler.get_kernel(("select_pick", A, p, K, last),
                                   lambda: _render_pick(A, p, K, last))
        kern(1, 256 if not _backend.IS_SIM else 8,
             _values(hist) + _values(pfx) + _values(rk) + _values(tbits))
    _os.launch(method, A, V, R, nan_skip, "select", [T] + q_args + [res, nanc], n, 1, res.size,
               take_int)
    return True
