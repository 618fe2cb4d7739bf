"""The fused separable template of ``npgpu.scipy.ndimage``: a weighted filter along the last two
axes of an array (2-D images; leading axes a batch) in one launch, where the line template
(``_filter_kernels.line_pass``) takes one launch per axis and writes and reads the whole image
between them.

One block computes a tile of ``TH x TW`` outputs of one image:

1. pass 1 (axis -2) of the ``TH`` tile rows at the ``TW + K1 - 1`` columns that pass 2 reads
   (the tile and its halo along axis -1), into shared memory.  A work item is ``R1``
   consecutive rows of one column: its ``R1 + K0 - 1`` input values load once each (a warp's
   loads are row runs, coalesced) and every weight serves ``R1`` FMAs.  A halo column outside
   the image is mapped by axis -1's mode (pass 1 at the mapped column), or is ``cval`` in the
   constant mode: exactly what the second of two passes reads there.  Rows map by axis -2's
   mode inside the item (edge items only).
2. ``cuda.syncthreads()``, then pass 2 (axis -1) from shared memory: thread ``(tx, ty)``
   computes column ``tx`` of rows ``ty + o * (THREADS / TW)`` (a warp reads consecutive words:
   no bank conflicts; its stores are coalesced rows).

Exactness: SciPy stores the first pass in the output dtype, so the intermediate is cast to the
output dtype and back to pass 2's work dtype before it is staged -- the same values the two
line passes produce (each pass's FMAs in the same order, from a zero accumulator), so both
routes give bit-identical results.  Work dtypes are ``_filter_kernels.work_dtype``'s for each
pass: (input, output) for pass 1 and (output, output) for pass 2.

The window lengths are compile-time (the loops unroll, the weights sit in registers); the
weights themselves are small device arrays, so one kernel serves every sigma of one window
length.  Windows longer than :data:`MAX_TAPS` (or a tile over the static shared-memory limit)
take the two line passes; ``NPGPU_NDI_SEPARABLE=passes`` (read at import) makes every call take
them, so both routes can be timed.
"""
import os

import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ...cuda import runtime as _rt
from . import _boundary
from ._filter_kernels import device_table, run_launch, work_dtype
from ._image_launch import GRID_YZ, replay

_I64 = np.dtype(np.int64)
_SIM = _ew._SIM
# "fused" (default) or "passes": the route of a 2-D separable weighted filter
ROUTE = "passes" if os.environ.get("NPGPU_NDI_SEPARABLE", "").strip() == "passes" else "fused"
# threads a block, tile width (outputs along axis -1; a multiple of the warp for coalesced
# rows), tile rows by pass 2's work itemsize (the staged tile fits the shared memory), rows a
# pass-1 item computes.  The simulator runs every thread in Python: a few threads, tiny tiles
# (the tests' small images then span several tiles, edge and interior ones)
_THREADS = 256 if not _SIM else 8
_TW = 64 if not _SIM else 4
_TH = {4: 64, 8: 32} if not _SIM else {4: 4, 8: 4}
_R1 = 8 if not _SIM else 2
# longest window of either axis (unrolled code, weights in registers); the simulator's is
# short so that the tests reach the fallback with small windows
MAX_TAPS = 33 if not _SIM else 9
_SHARED_LIMIT = 48 * 1024
# resident blocks an SM keeps, by whether a pass works in 8-byte floats: ptxas fits the
# registers to it (64 a thread for 4 blocks of 256; 128 for 2: float64 weights and sums take
# register pairs, and 64 would spill)
_MIN_BLOCKS = {False: 4, True: 2}


def _fetch_source(in_dt, wk):
    """Device function ``fetch(X, b, i, c, n, mode, cval)``: ``X[b, i, c]`` with row ``i`` (any
    integer) mapped into ``[0, n)`` by the mode, in the work dtype (edge items of pass 1)."""
    L = ["@cuda.jit(device=True)", "def fetch(X, b, i, c, n, mode, cval):", "    oob = False"]
    L += _boundary.any_mode_lines("mode", "i", "n", "j", "    ")
    L += ["    if oob:", "        return cval",
          "    return " + _ew.cast_expr("X[uint64(b), uint64(j), uint64(c)]", in_dt, wk)]
    return "\n".join(L) + "\n"


def _render(in_dt, out_dt, K0, K1):
    wk1 = work_dtype("corr", in_dt, out_dt)
    wk2 = work_dtype("corr", out_dt, out_dt)
    tn1, tn2 = _ew.type_name(wk1), _ew.type_name(wk2)
    T, TW, TH, R1 = _THREADS, _TW, _TH[wk2.itemsize], _R1
    W2 = TW + K1 - 1             # staged columns: the tile and pass 2's halo
    G = TH // R1                 # pass-1 items a column
    S = T // TW                  # rows apart of a pass-2 thread's outputs
    O = TH // S                  # outputs a pass-2 thread computes

    def inter(acc):
        # SciPy's intermediate: pass 1 stored in the output dtype, read back in pass 2's
        return _ew.cast_expr(_ew.cast_expr(acc, wk1, out_dt), out_dt, wk2)

    def load(row):
        return _ew.cast_expr(f"X[uint64(b), uint64({row}), uint64(jj)]", in_dt, wk1)

    L = ["def KERNEL(X, Y, W0, W1, r0, r1, cval0, cval1, mode0, mode1):",
         "    nb = X.shape[0]", "    n0 = X.shape[1]", "    n1 = X.shape[2]",
         f"    sh = cuda.shared.array({TH * W2}, {tn2})",
         "    t = int64(cuda.threadIdx.x)",
         f"    tx = t % {TW}", f"    ty = t // {TW}",
         f"    c0 = int64(cuda.blockIdx.x) * {TW}",
         "    b = int64(cuda.blockIdx.z)",
         "    while b < nb:",
         f"        rt = int64(cuda.blockIdx.y) * {TH}",
         "        while rt < n0:"]
    P, Q, E = " " * 12, " " * 16, " " * 20
    # ---- pass 1: items (column j, row group g) a block of threads apart
    L += [f"{P}item = t", f"{P}while item < {W2 * G}:",
          f"{Q}j = item % {W2}", f"{Q}g = item // {W2}",
          f"{Q}oob = False"]
    L += _boundary.any_mode_lines("mode1", "c0 + j - r1", "n1", "jj", Q)
    L += [f"{Q}s = rt + g * {R1} - r0",
          f"{Q}base = g * {R1 * W2} + j",
          f"{Q}if oob:"]
    L += [f"{E}sh[uint64(base + {o * W2})] = cval1" for o in range(R1)]
    # interior rows: each of the R1 + K0 - 1 values loads once and feeds the outputs whose
    # window holds it (tap order ascending for every output: the line pass's sums)
    L += [f"{Q}elif s >= 0 and s + {R1 + K0 - 1} <= n0:"]
    L += [f"{E}a{o} = {tn1}(0)" for o in range(R1)]
    for i in range(R1 + K0 - 1):
        L.append(f"{E}v = {load(f's + {i}')}")
        L += [f"{E}a{o} = cuda.fma(w0_{i - o}, v, a{o})" for o in range(R1) if 0 <= i - o < K0]
    L += [f"{E}sh[uint64(base + {o * W2})] = {inter(f'a{o}')}" for o in range(R1)]
    # rows near the image's edges (or past its end in the last tile: staged, never stored)
    L += [f"{Q}else:"]
    for o in range(R1):
        L += [f"{E}a = {tn1}(0)", f"{E}for k in range({K0}):",
              f"{E}    a = cuda.fma(W0[uint64(k)], fetch(X, b, s + {o} + k, jj, n0, mode0, "
              f"cval0), a)",
              f"{E}sh[uint64(base + {o * W2})] = {inter('a')}"]
    L += [f"{Q}item += {T}",
          # every staged value is written before any thread reads its windows
          f"{P}cuda.syncthreads()"]
    # ---- pass 2: column tx of rows ty + o * S, from shared memory
    # pass 2's weights: loaded here, not with pass 1's (registers), uniform cached loads
    L += [f"{P}w1_{k} = W1[{k}]" for k in range(K1)]
    L += [f"{P}a{o} = {tn2}(0)" for o in range(O)]
    for k in range(K1):
        L += [f"{P}a{o} = cuda.fma(w1_{k}, sh[uint64({(o * S) * W2 + k} + ty * {W2} + tx)], a{o})"
              for o in range(O)]
    L += [f"{P}c = c0 + tx", f"{P}if c < n1:"]
    for o in range(O):
        L += [f"{Q}if rt + ty + {o * S} < n0:",
              f"{E}Y[uint64(b), uint64(rt + ty + {o * S}), uint64(c)] = "
              f"{_ew.cast_expr(f'a{o}', wk2, out_dt)}"]
    # every thread has read its windows before the next tile's pass 1 overwrites them
    L += [f"{P}cuda.syncthreads()", f"{P}rt += int64(cuda.gridDim.y) * {TH}",
          "        b += int64(cuda.gridDim.z)"]
    # pass 1's weights in registers, loaded once (uniform across the block: cached loads)
    pre = [f"    w0_{k} = W0[{k}]" for k in range(K0)]
    L = L[:1] + pre + L[1:]
    text = _fetch_source(in_dt, wk1) + "\n\n" + "\n".join(L) + "\n"
    name = _ew._kernel_name("ndi_sep2d", text)
    params = [Param("array", in_dt, 3), Param("array", out_dt, 3), Param("array", wk1, 1, "C"),
              Param("array", wk2, 1, "C"), Param("scalar", _I64), Param("scalar", _I64),
              Param("scalar", wk1), Param("scalar", wk2), Param("scalar", _I64),
              Param("scalar", _I64)]
    wide = max(wk1.itemsize, wk2.itemsize) > 4
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params,
                        (T, _MIN_BLOCKS[wide]))


def _view3(a):
    """(shape, strides) of ``a`` as (batch, rows, columns): the leading axes collapsed to one
    (None when they do not collapse)."""
    shp, st = a.shape, a._strides
    lead, lst = _ew._collapse(shp[:-2], [st[:-2]])
    if len(lead) > 1:
        return None
    b, bs = (lead[0], lst[0][0]) if lead else (1, 0)
    return (b, shp[-2], shp[-1]), (bs, st[-2], st[-1])


def applies(ndim, plan):
    """Does the fused route take ``plan`` (two weighted passes as ``_filters`` lists them:
    (axis, weights, origin, mode); a filter of more axes runs its other passes first) of an
    ``ndim``-d array?"""
    if ROUTE != "fused" or len(plan) != 2 or ndim < 2:
        return False
    (a0, w0, _, _), (a1, w1, _, _) = plan
    if a0 != ndim - 2 or a1 != ndim - 1 or max(len(w0), len(w1)) > MAX_TAPS:
        return False
    return True


_plans = {}      # (device, shapes, strides, dtypes, window lengths) -> launch plan or None


def fused_pass(src, dst, plan, cval):
    """One launch: ``dst`` (same shape, not overlapping ``src``) = the two weighted passes of
    ``plan`` (which :func:`applies`) of ``src``.  False (nothing launched) when an array's
    leading axes do not collapse or the tile does not fit the shared memory."""
    return run_launch(fused_launch(src, dst, plan, cval), src)


def fused_launch(src, dst, plan, cval):
    """(kernel, grid, block, values, index of src's pointer in values, index of dst's, the
    weight tables the values point into) of the fused launch of ``plan`` from ``src`` into
    ``dst``, or None when the layout does not fit the template.  A caller that keeps it may
    replay it for other arrays of the same layout: a copy of the values with the two pointers
    replaced (the weight tables kept alive with it)."""
    (_, w0, o0, m0), (_, w1, o1, m1) = plan
    K0, K1 = len(w0), len(w1)
    key = (_rt.get_device_id(), src.shape, src._strides, dst._strides, src.dtype, dst.dtype,
           K0, K1)
    p = replay(_plans, key, lambda: _plan(src, dst, K0, K1))
    if p is None:
        return None
    kern, grid, wk1, wk2, sv, dv = p
    W0 = device_table(np.asarray(w0, wk1))
    W1 = device_table(np.asarray(w1, wk2))
    values = ([0, 0, sv[0], sv[1], src._ptr] + sv[2] + [0, 0, dv[0], dv[1], dst._ptr] + dv[2]
              + _ew._arr_values(W0._ptr, W0.shape, W0._strides, W0.itemsize)
              + _ew._arr_values(W1._ptr, W1.shape, W1._strides, W1.itemsize)
              + [K0 // 2 + int(o0), K1 // 2 + int(o1), wk1.type(cval), wk2.type(cval),
                 _boundary.code(m0), _boundary.code(m1)])
    return kern, grid, (_THREADS, 1, 1), values, 4, 9 + len(sv[2]), (W0, W1)


def _plan(src, dst, K0, K1):
    vs, vd = _view3(src), _view3(dst)
    wk1 = work_dtype("corr", src.dtype, dst.dtype)
    wk2 = work_dtype("corr", dst.dtype, dst.dtype)
    TH = _TH[wk2.itemsize]
    if vs is None or vd is None or TH * (_TW + K1 - 1) * wk2.itemsize > _SHARED_LIMIT:
        return None
    key = ("ndi_sep2d", src.dtype, dst.dtype, K0, K1, _THREADS, _TW, TH, _R1)
    kern = compiler.get_kernel(key, lambda: _render(src.dtype, dst.dtype, K0, K1))
    shape = vs[0]
    grid = (-(-shape[2] // _TW), min(-(-shape[1] // TH), GRID_YZ), min(shape[0], GRID_YZ))
    n = src.size
    return (kern, grid, wk1, wk2, (n, src.itemsize, [*shape, *vs[1]]),
            (n, dst.itemsize, [*shape, *vd[1]]))
