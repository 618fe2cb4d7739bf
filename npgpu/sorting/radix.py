"""LSD radix sort of unsigned key parts, with or without a payload: the sorting primitive.

Input: key parts (:class:`.keys.KeyPart`, least significant first) over ``n`` elements.  Each
part is sorted in passes of ``digit`` bits, least significant digit first; every pass is a
stable counting sort, so after the last pass of the last part the order is the lexicographic
order of (last part, ..., first part), ties in input order.  One pass is three launches
(reduce-then-scan; the tiles of a pass are independent, no block waits on another):

1. ``count``: each tile of ``TILE`` elements counts its digits into ``counts[digit * ntile +
   tile]`` (digit-major, so one scan orders every (digit, tile) bucket);
2. the scan: ``npgpu.cumsum`` of ``counts`` (the project's look-back scan).  The bucket of
   (digit, tile) starts at the inclusive scan's previous entry;
3. ``scatter``: each tile ranks its elements stably by digit and moves key and payload to
   ``start of bucket + rank within it``.  On the GPU a warp ranks 32 elements at a time with
   peer masks (:func:`peer_lines`: one ballot per digit bit; lanes holding one digit find each
   other; the lowest lane adds their number to
   the warp's counter of that digit), the warps' counters are scanned per digit, the tile is
   reordered by digit in shared memory and written out in order (runs of one digit are stored
   by consecutive threads).  The simulator ranks by counting earlier equal digits (it has no
   warp intrinsics); the order is the same.

Onesweep (``ONESWEEP``, below 2^30 elements): the digits of every pass of a part do not depend
on the order, so one ``histogram`` kernel counts them all in one read of the values (shared
atomics, no ballots), one scan gives each pass's digit starts, and each pass is a single
``scatter``: the tile (the next id of a counter: tiles in the blocks' start order) ranks as
above, then one thread a digit finds the digit's count in earlier tiles by a decoupled look-back
over per-(tile, digit) status words (:func:`lookback_lines`).  No count kernel and no scan of
``ntile * 2^digit`` counts a pass: the keys are read once a pass instead of twice.

Where keys come from, per pass (``src`` modes of the rendering):

* the first pass of the first part reads the values (an unsigned view) and computes keys on the
  fly; its payload is the element's index (``iota``), the values' bits (``values``) or nothing;
* the first pass of a later part reads the values *through the permutation so far*
  (``gather``: key of ``X[P[i]]``, payload ``P[i]``);
* other passes read the key array the previous pass wrote.  The last pass of a part writes no
  keys (the next part recomputes its own), except a key-only sort's, which writes the values
  (an invertible key decodes to the value's bits).

Index payloads are int32 below 2^31 elements; the last pass writes the caller's dtype (int64),
optionally ``index % m`` (the position within a row of the segmented sort).
"""
import hashlib
import os

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core.ndarray import empty_array
from . import cub_sort as _cub
from . import keys as _keys

_SIM = _backend.IS_SIM
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_U32 = np.dtype(np.uint32)
# Digit width of a pass.  GPU: 8 bits (4 passes of a 32-bit key); the simulator takes 4-bit
# digits (its cost is per counter scanned: 16 a tile, not 256; the order is the same).
DIGIT = 4 if _SIM else 8
# Threads a block and elements a thread (a tile is BLOCK * ITEMS elements).  GPU: 256 threads
# (8 warps), 12 or 8 items (:func:`items_for`).  The simulator: 8 x 2 (several tiles in every test).
BLOCK = 8 if _SIM else 256
SIM_ITEMS = 2


# Knobs for benchmarks/experiments/radix_knobs.py (H200 sweeps; unset: the defaults below):
# NPGPU_RADIX_ITEMS (items a thread, every key width), NPGPU_RADIX_MINBLOCKS (NVVM launch
# bounds of the GPU's radix kernels: blocks an SM must fit, which caps registers a thread; -1:
# none).  Default 3 for every key width, H200 2026-12-02 (radix_knobs.py): with 12 items, sort
# float32 2^26 3337 -> 2826 us, argsort int32 2^24 889 -> 835; with 8 items (8-byte keys, one
# run each) sort float64 2^24 2319 -> 1921 us, argsort float64 2^24 2248 -> 2316 (noise).
_ITEMS = int(os.environ.get("NPGPU_RADIX_ITEMS", "0"))
MIN_BLOCKS = int(os.environ.get("NPGPU_RADIX_MINBLOCKS", "0")) or 3
# Pass structure (read at every sort; NPGPU_RADIX_ONESWEEP=1 or set the attribute): False --
# count, scan, scatter per pass; True -- one histogram kernel counts every pass's digits of a
# part up front and each pass is one scatter kernel that finds its tile's bucket starts by a
# decoupled look-back (:func:`render_histogram`, :func:`lookback_lines`).  Below 2^30 elements
# (a status word holds a 30-bit count).
ONESWEEP = os.environ.get("NPGPU_RADIX_ONESWEEP", "0") == "1"
# How the GPU's count kernel counts a tile's digits (read when a kernel is rendered): "atomic"
# (default) -- one shared atomic add of 1 per element, which ptxas emits as ATOMS.POPC.INC (the
# lanes of a warp on one counter add in one step); "ballot" -- warp peers from one ballot per
# digit bit, one atomic per distinct digit of a warp (~2x the instructions).  H200, 2026-12-02
# (radix_pass_split.py, float32 2^26): a count pass 296 -> 175 us, the sort 3.74 -> 3.36 ms.
COUNT = os.environ.get("NPGPU_RADIX_COUNT", "atomic")
# GPU: blocks of the histogram kernel (each loops over tiles; fewer blocks, fewer global
# atomics flushing the block's histograms); nanoseconds a look-back thread sleeps between
# re-reads of a status not yet published
HIST_BLOCKS = 4 if _SIM else 1024
SPIN_NS = 0 if _SIM else 100
# status words of the look-back: flag bits over a 30-bit count
_AGG, _PRE, _CNT = 0x40000000, 0x80000000, 0x3FFFFFFF
# Test hook: tiles publish their inclusive prefix only when ``tile % _PREFIX_EVERY == 0``, so
# that look-backs add the aggregates of several tiles (the simulator runs blocks one after
# another: every tile would find its neighbour's prefix)
_PREFIX_EVERY = 1


def items_for(key_w, pay_w, sim=_SIM, rows=False):
    """Items a thread of the count and scatter kernels (``rows``: of the one-block row sort,
    :mod:`.segmented`, which keeps 8: its blocks are sized to the row, and were measured so)."""
    if sim:
        return SIM_ITEMS
    if rows:
        return _ITEMS or 8
    # Keys of <= 4 bytes: 12 items with launch bounds of 3 blocks an SM (MIN_BLOCKS), the
    # H200 sweep of 2026-12-02 (radix_knobs.py, atomic counts): sort float32 2^26 3358 us at
    # (8 items, no bounds) -> 2826, sort int32 2^24 762 -> 670, argsort int32 2^24 967 -> 835.
    # 8-byte keys keep 8 items (the 2026-12-01 sweep against 16: sort float32 2^26 6.30 -> 4.16
    # ms; 16 items took 140 registers and 44 KiB of shared memory, one block an SM; 12 items
    # of an 8-byte key and its payload take 59 KiB of shared memory, over the 48 KiB a block
    # gets without opting in).
    return _ITEMS or (12 if key_w <= 4 else 8)


def pass_plan(parts, digit=None):
    """[(part index, shift, bits)] of every pass, in order."""
    digit = digit or DIGIT
    out = []
    for p, part in enumerate(parts):
        # every pass of a part counts 2^bits digits (a narrower last digit leaves the top
        # counters empty), so the passes of a part share their kernels: the shift is a parameter
        bits = min(digit, part.bits)
        for shift in range(0, part.bits, digit):
            out.append((p, shift, bits))
    return out


# ---- rendering ---------------------------------------------------------------------------------
def _digit(key, kt, shift, bits):
    """Source of the digit of ``key``: ``bits`` bits from ``shift`` (an int, or the name of the
    kernel's shift parameter)."""
    if shift:
        key = f"({key} >> {kt}({shift}))"
    return f"int32({key} & {kt}({(1 << bits) - 1}))"


def _load_lines(part, src, i, pay, pad, ptn="int64", cond=False):
    """Lines setting ``key`` (and ``pv``, the payload) of element ``i``.

    src: "iota"/"values"/"none" (first pass: key from X[i]), "gather" (key of X[P[i]]),
    "key" (K[i]); pay: None, "iota", "array"."""
    kt = _keys.uint_name(part.w)
    L = []
    if src == "gather":
        L.append(f"{pad}pv = P[uint64({i})]")
        L.append(f"{pad}key = {part.expr('X', 'uint64(pv)')}")
        return L
    if src == "key":
        L.append(f"{pad}key = K[uint64({i})]")
    else:
        L.append(f"{pad}key = {part.expr('X', f'uint64({i})')}")
    if pay == "iota":
        L.append(f"{pad}pv = {ptn}({i})")
    elif pay == "array":
        L.append(f"{pad}pv = P[uint64({i})]")
    elif pay == "values":
        L.append(f"{pad}pv = X[uint64({i})]")
    if cond and pay is not None:          # the payload travels only when the flag says so
        L[-1] = f"{pad}if carry:\n{pad}    " + L[-1].strip()
    del kt
    return L


def _signature(part, src, pay, key_out, pay_out, kdt, pdt, odt):
    """(argument names, Params) shared by count and scatter: n, ntile, m, X, P, K (+ outputs)."""
    xdt = part.src.dtype if part.src is not None else _keys.UINT[1]
    names = ["n", "ntile", "m", "sh", "X", "P", "K", "C", "F"]
    params = [Param("scalar", _I64)] * 4 + [
        Param("array", xdt, 1, "C"), Param("array", pdt, 1, "C"),
        Param("array", kdt, 1, "C"), Param("array", _I32 if odt is None else odt, 1, "C"),
        Param("array", _I32, 1, "C")]
    return names, params


def render_count(part, src, bits, cdt, pdt, *, block, items, sim, detect=False, mode=None):
    """Per tile: digit counts into ``C[digit * ntile + tile]``.  ``detect``: also set ``F[0]``
    when a value of the tile has no decodable key (float -0.0 or NaN).  ``mode``: how the GPU
    counts (:data:`COUNT`; the simulator always adds one per element)."""
    kdt = part.dtype
    kt = _keys.uint_name(part.w)
    R = 1 << bits
    tile = block * items
    mode = "atomic" if sim else (mode or COUNT)
    ballot = mode == "ballot"
    L = ["def KERNEL(n, ntile, m, sh, X, P, K, C, F):",
         "    tid = int64(cuda.threadIdx.x)",
         "    t = int64(cuda.blockIdx.x)",
         f"    hist = cuda.shared.array({R}, int32)",
         f"    d = tid",
         f"    while d < {R}:",
         "        hist[uint64(d)] = int32(0)",
         f"        d += {block}",
         "    cuda.syncthreads()",
         f"    base = t * {tile}",
         "    spec = False"]
    if not sim:
        L.append(f"    dks = cuda.local.array({items}, int32)")
    if ballot:
        L.append("    ltm = cuda.lanemask_lt()")
    # the items as a loop (typed once; NVVM unrolls the constant trip count).  GPU: every
    # item's load and digit first, then the counting (the loads all in flight at once)
    L.append(f"    for k in range({items}):")
    L.append(f"        i = base + tid + k * {block}")
    if not sim:
        L.append(f"        dk = int32({R})")
    L.append("        if i < n:")
    L += _load_lines(part, src, "i", None if src != "gather" else "array", "            ")
    if sim:
        L.append(f"            cuda.atomic.add(hist, uint64({_digit('key', kt, 'sh', bits)}), "
                 "int32(1))")
    else:
        L.append(f"            dk = {_digit('key', kt, 'sh', bits)}")
    if detect:
        L.append(f"            if {part.special('X', 'i')}:")
        L.append("                spec = True")
    if ballot:
        # lanes with one digit add once (lowest lane: their count): no atomic contention on
        # keys whose digit is (nearly) constant.  Every lane of the warp runs this.
        L += ["        dks[k] = dk", f"    for k in range({items}):", "        dk = dks[k]"]
        L += peer_lines("dk", bits, "        ")
        L.append(f"        if dk < {R} and uint32(peers & ltm) == uint32(0):")
        L.append("            cuda.atomic.add(hist, uint64(dk), int32(cuda.popc(peers)))")
    elif not sim:
        L += ["        dks[k] = dk", f"    for k in range({items}):", "        dk = dks[k]",
              f"        if dk < {R}:",
              "            cuda.atomic.add(hist, uint64(dk), int32(1))"]
    if detect:
        L += ["    if spec:", "        F[0] = int32(1)"]
    L += ["    cuda.syncthreads()",
          "    d = tid",
          f"    while d < {R}:",
          f"        C[uint64(d * ntile + t)] = {_ew.type_name(cdt)}(hist[uint64(d)])",
          f"        d += {block}"]
    return _finish("radix_count", part, L, _signature(part, src, None, False, False, kdt, pdt,
                                                       cdt)[1], block)


def render_histogram(part, shifts, bits, cdt, *, block, items, sim, detect=False):
    """Onesweep's count: the digit counts of every pass of ``part`` (``shifts``) over all ``n``
    elements, ``C[pass * R + digit]`` (zeroed by the caller), in one read of the values.  Each
    block loops over tiles ``blockIdx.x, + gridDim.x, ...`` into shared histograms (plain shared
    atomics: one a digit) and adds them to ``C`` once.  The digits do not depend on the order,
    so a later part counts its values directly (its passes read them through the permutation).
    ``detect``: as in :func:`render_count`."""
    kt = _keys.uint_name(part.w)
    R = 1 << bits
    NH = len(shifts) * R
    tile = block * items
    ct = _ew.type_name(cdt)
    L = ["def KERNEL(n, ntile, m, sh, X, P, K, C, F):",
         "    tid = int64(cuda.threadIdx.x)",
         f"    hist = cuda.shared.array({NH}, int32)",
         "    d = tid",
         f"    while d < {NH}:",
         "        hist[uint64(d)] = int32(0)",
         f"        d += {block}",
         "    cuda.syncthreads()",
         "    spec = False",
         f"    kys = cuda.local.array({items}, {kt})",
         f"    ok = cuda.local.array({items}, int32)",
         "    t = int64(cuda.blockIdx.x)",
         "    while t < ntile:",
         f"        base = t * {tile}",
         # every load of the tile first (in flight together), then the atomics
         f"        for k in range({items}):",
         f"            i = base + tid + k * {block}",
         "            ok[k] = int32(0)",
         "            if i < n:",
         f"                kys[k] = {part.expr('X', 'uint64(i)')}",
         "                ok[k] = int32(1)"]
    if detect:
        L += [f"                if {part.special('X', 'i')}:", "                    spec = True"]
    L += [f"        for k in range({items}):",
          "            if ok[k] != int32(0):",
          "                key = kys[k]"]
    for p, shift in enumerate(shifts):
        L.append(f"                cuda.atomic.add(hist, uint64({p * R} + "
                 f"{_digit('key', kt, shift, bits)}), int32(1))")
    L += ["        t += int64(cuda.gridDim.x)"]
    if detect:
        L += ["    if spec:", "        F[0] = int32(1)"]
    # every thread's atomics land before the flush reads the histograms
    L += ["    cuda.syncthreads()",
          "    d = tid",
          f"    while d < {NH}:",
          "        v = hist[uint64(d)]",
          "        if v != int32(0):",
          f"            cuda.atomic.add(C, d, {ct}(v))",
          f"        d += {block}"]
    return _finish("radix_hist", part, L, _signature(part, "first", None, False, False,
                                                     part.dtype, _keys.UINT[1], cdt)[1], block)


def lookback_lines(R, sim, every=1):
    """Onesweep: lines giving each digit ``dd`` of tile ``t`` its start in the pass's output,
    ``G[gp + dd - 1]`` (the digit's start: inclusive scan of the pass's histogram) + the count
    of ``dd`` in tiles ``0 .. t - 1`` (``ex``), from ``cnt`` (the tile's count of ``dd``).

    One thread a digit: it publishes the tile's count (flag ``_AGG``) in ``S[1 + t * R + dd]``,
    adds the counts of earlier tiles newest first until it meets an inclusive prefix (``_PRE``;
    a status still 0 is re-read: its tile has not counted yet), then publishes its own
    inclusive prefix.  Tile ids follow the blocks' start order (the counter ``S[0]``), so a
    tile only waits on tiles whose blocks already run, which wait on none after them.  Flag
    and count travel in one word (atomic exchange / ``or`` of zero at L2): no fences.  (Names
    apart from :func:`rank_lines`': Numba types a name once per kernel.)"""
    L = ["        ex = uint32(0)",
         "        if t == 0:",
         f"            cuda.atomic.exch(S, 1 + dd, uint32(cnt | uint32({_PRE:#x})))",
         "        else:",
         f"            cuda.atomic.exch(S, 1 + t * {R} + dd, uint32(cnt | uint32({_AGG:#x})))",
         "            jt = t - 1",
         "            going = True",
         "            while going:",
         f"                stw = cuda.atomic.or_(S, 1 + jt * {R} + dd, uint32(0))",
         "                while stw == uint32(0):"]
    if not sim and SPIN_NS:
        L.append(f"                    cuda.nanosleep(uint32({SPIN_NS}))")
    L += [f"                    stw = cuda.atomic.or_(S, 1 + jt * {R} + dd, uint32(0))",
          f"                ex = uint32(ex + (stw & uint32({_CNT:#x})))",
          f"                if (stw & uint32({_PRE:#x})) != uint32(0):",
          "                    going = False",
          "                jt -= 1"]
    pub = (f"cuda.atomic.exch(S, 1 + t * {R} + dd, uint32((ex + cnt) | uint32({_PRE:#x})))")
    if every > 1:                    # the test hook (_PREFIX_EVERY)
        L += [f"            if t % {every} == 0:", "                " + pub]
    else:
        L.append("            " + pub)
    L += ["        gs = int64(0)",
          "        if dd > 0:",
          "            gs = int64(G[gp + dd - 1])"]
    return L


def _store_lines(part, key_out, pay_out, key, pv, g, odt, pad, cond=False):
    L = []
    if key_out == "key":
        L.append(f"{pad}KO[uint64({g})] = {key}")
    elif key_out == "decode" and cond:
        # the values' bits where they travelled, else the decoded keys
        L += [f"{pad}if carry:", f"{pad}    KO[uint64({g})] = {pv}", f"{pad}else:",
              f"{pad}    KO[uint64({g})] = {part.decode(key)}"]
    elif key_out == "decode":
        L.append(f"{pad}KO[uint64({g})] = {part.decode(key)}")
    if pay_out == "mod":
        L.append(f"{pad}PO[uint64({g})] = {_ew.type_name(odt)}(int64({pv}) % m)")
    elif pay_out:
        if cond:
            L.append(f"{pad}if carry:")
            pad += "    "
        L.append(f"{pad}PO[uint64({g})] = {_ew.type_name(odt)}({pv})")
    return L


def peer_lines(dk, bits, pad):
    """Lines setting ``peers``: the mask of the warp's lanes whose ``dk`` equals this lane's
    (``dk`` in [0, 2^bits], 2^bits marking no element), from one ballot per bit of ``dk``.
    ``match.any`` gives the same mask, but on the H200 it made the radix passes
    instruction-bound: the count kernel ran at 10-12% of copy bandwidth on random keys and
    faster on keys with few distinct digits (benchmarks/experiments/radix_pass_split.py)."""
    # all in uint32 (Numba types integer arithmetic as 64-bit: every step is cast back, so the
    # mask stays one register).  bb + 0xffffffff wraps to 0 for a set bit (keep the ballot)
    # and is all ones for a clear one (invert it)
    L = [f"{pad}peers = uint32(0xffffffff)"]
    for b in range(bits + 1):
        L += [f"{pad}bb = uint32(({dk} >> {b}) & 1)",
              f"{pad}peers = uint32(peers & uint32(uint32(cuda.ballot_sync(0xffffffff, "
              f"bb != uint32(0))) ^ uint32(bb + uint32(0xffffffff))))"]
    return L


def rank_lines(items, R, block, sim, tile):
    """Lines ranking the tile's elements stably by digit: from ``dg[k]`` (the digit of item
    ``k``, ``R`` for none) at tile position ``jj[k]``, set ``ps[k]``: the item's position in
    the tile ordered by digit, and (GPU) ``sdo[d]``: where digit ``d`` starts in that order;
    the simulator sets ``rk[k]``, the item's rank among the tile's equal digits.  (The
    per-thread arrays: :func:`shared_lines`.)"""
    L = []
    A = L.append
    if sim:
        A("    cuda.syncthreads()")
        A(f"    for k in range({items}):")
        A("        sd[jj[k]] = dg[k]")
        A("    cuda.syncthreads()")
        A(f"    for k in range({items}):")
        A("        dk = dg[k]")
        A("        r = int64(0)")
        A("        p = int64(0)")
        A(f"        if dk < {R}:")
        A("            q = int64(0)")
        A(f"            while q < {tile}:")
        A("                if sd[q] < dk:")
        A("                    p += 1")
        A("                elif sd[q] == dk and q < jj[k]:")
        A("                    r += 1")
        A("                q += 1")
        A("        rk[k] = r")
        A("        ps[k] = p + r")
        return L
    nw = block // 32
    A("    q = tid")
    A(f"    while q < {nw * R}:")
    A("        wh[uint64(q)] = int32(0)")
    A(f"        q += {block}")
    A("    cuda.syncthreads()")
    # item by item, every lane of the warp (the intrinsics outside per-lane conditions)
    A(f"    for k in range({items}):")
    A("        dk = dg[k]")
    L += peer_lines("dk", R.bit_length() - 1, "        ")
    A("        lt = int32(cuda.popc(uint32(peers & ltm)))")
    A("        c = int32(0)")
    A(f"        if dk < {R}:")
    A(f"            c = wh[uint64(wid * {R} + dk)]")
    A("        cuda.syncwarp()")
    A(f"        if dk < {R} and lt == 0:")
    A(f"            wh[uint64(wid * {R} + dk)] = c + int32(cuda.popc(peers))")
    A("        cuda.syncwarp()")
    A("        rk[k] = c + lt")
    A("    cuda.syncthreads()")
    # per digit: exclusive scan over the warps and the tile total; thread t owns digits
    # [t * qd, (t + 1) * qd) (qd > 1 when a row's block has fewer threads than digits); a
    # block scan of the threads' sums gives each digit's start in the tile (sdo)
    qd = -(-R // block)             # ceil: a block of 3, 5, 6 or 7 warps owns every digit too
    A("    tot = int32(0)")
    A(f"    for u in range({qd}):")
    A(f"        dd = tid * {qd} + u")
    A(f"        if dd < {R}:")
    A("            acc = int32(0)")
    A(f"            for w in range({nw}):")
    A(f"                c = wh[uint64(w * {R} + dd)]")
    A(f"                wh[uint64(w * {R} + dd)] = acc")
    A("                acc += c")
    A("            sdo[uint64(dd)] = acc")
    A("            tot += acc")
    A("    x = int32(tot)")
    # inclusive scans of a warp (offsets 1..16; every lane, int32 shuffles)
    A("    for s in range(5):")
    A("        y = cuda.shfl_up_sync(0xffffffff, x, 1 << s)")
    A("        if lane >= (1 << s):")
    A("            x = int32(x + y)")
    A("    if lane == 31:")
    A("        swt[wid] = x")
    A("    cuda.syncthreads()")
    A("    if wid == 0:")
    A("        ws = int32(0)")
    A(f"        if lane < {nw}:")
    A("            ws = swt[lane]")
    A("        for s in range(5):")
    A("            y = cuda.shfl_up_sync(0xffffffff, ws, 1 << s)")
    A("            if lane >= (1 << s):")
    A("                ws = int32(ws + y)")
    A(f"        if lane < {nw}:")
    A("            swt[lane] = ws")
    A("    cuda.syncthreads()")
    A("    e = x - tot")
    A("    if wid > 0:")
    A("        e += swt[wid - 1]")
    A(f"    for u in range({qd}):")
    A(f"        dd = tid * {qd} + u")
    A(f"        if dd < {R}:")
    A("            c = sdo[uint64(dd)]")
    A("            sdo[uint64(dd)] = e")
    A("            e += c")
    A("    cuda.syncthreads()")
    A(f"    for k in range({items}):")
    A("        dk = dg[k]")
    A("        ps[k] = int32(0)")
    A(f"        if dk < {R}:")
    A(f"            ps[k] = sdo[uint64(dk)] + wh[uint64(wid * {R} + dk)] + rk[k]")
    return L


def shared_lines(items, R, block, sim, kt, ptn, tile):
    """Shared arrays of the ranking (and the tile's staging: ``sk`` keys, ``sp`` payloads), and
    a thread's arrays of its items: ``jj`` tile positions, ``dg`` digits, ``ky`` keys, ``pa``
    payloads, ``rk`` ranks, ``ps`` positions in the ordered tile."""
    rt = "int64" if sim else "int32"
    if sim:
        L = [f"    sd = cuda.shared.array({tile}, int32)"]
    else:
        nw = block // 32
        L = ["    lane = int64(cuda.laneid)",
             "    wid = tid >> 5",
             "    ltm = cuda.lanemask_lt()",
             f"    wh = cuda.shared.array({nw * R}, int32)",        # warp x digit counters
             f"    sdo = cuda.shared.array({R}, int32)",             # tile's digit offsets
             f"    swt = cuda.shared.array({nw}, int32)"]
    L.append(f"    sk = cuda.shared.array({tile}, {kt})")
    if ptn:
        L.append(f"    sp = cuda.shared.array({tile}, {ptn})")
    L += [f"    jj = cuda.local.array({items}, int64)",
          f"    dg = cuda.local.array({items}, int32)",
          f"    ky = cuda.local.array({items}, {kt})",
          f"    rk = cuda.local.array({items}, {rt})",
          f"    ps = cuda.local.array({items}, {rt})"]
    if ptn:
        L.append(f"    pa = cuda.local.array({items}, {ptn})")
    return L


def stage_lines(items, R, has_pay, cond=False):
    """Lines moving every ranked item (key, payload) to its position ``ps[k]`` in the shared
    tile, then a barrier."""
    L = [f"    for k in range({items}):", f"        if dg[k] < {R}:",
         "            sk[uint64(ps[k])] = ky[k]"]
    if has_pay and cond:
        L += ["            if carry:", "                sp[uint64(ps[k])] = pa[k]"]
    elif has_pay:
        L.append("            sp[uint64(ps[k])] = pa[k]")
    L.append("    cuda.syncthreads()")
    return L


def tile_position(k, block, items, sim):
    """Tile position of item ``k`` (a variable's name) of a thread.  GPU: warp w holds elements
    [w * 32 * items, (w + 1) * 32 * items), item k of lane l is element w * 32 * items + 32 k
    + l (coalesced, and ranking item by item in a warp keeps tile order).  Simulator: k *
    block + tid."""
    if sim:
        return f"tid + {k} * {block}"
    return f"wid * {32 * items} + 32 * {k} + lane"


def render_scatter(part, src, pay, key_out, pay_out, bits, cdt, pdt, kodt, podt, *,
                   block, items, sim, cond=False, sweep=False, every=1):
    """Per tile: stable ranking by digit, then each element to its bucket.

    Parameters: ``n, ntile, m, X, P, K, C`` (C: the inclusive scan of the counts), ``KO``
    (keys out: key array or decoded values, dtype ``kodt``), ``PO`` (payload out, ``podt``).
    ``cond``: the payload (the values' bits) is loaded, moved and stored only where ``F[0]``
    is set (the first count found a value whose key does not decode to it); else the last
    pass decodes the keys.

    ``sweep`` (onesweep): ``C`` holds the inclusive scans of the part's histograms
    (:func:`render_histogram`), the pass's at ``C[gp:gp + R]``; the tile takes the next id of
    the counter ``S[0]`` and finds its buckets by :func:`lookback_lines` (``S``: zeroed uint32,
    ``1 + ntile * R`` words)."""
    kt = _keys.uint_name(part.w)
    R = 1 << bits
    tile = block * items
    has_pay = pay is not None
    ptn = _ew.type_name(pdt) if has_pay else None
    ct = _ew.type_name(cdt)
    L = ["def KERNEL(n, ntile, m, sh, X, P, K, C, F, KO, PO%s):" % (", S, gp" if sweep else ""),
         "    tid = int64(cuda.threadIdx.x)"]
    if sweep:
        # tile ids in the blocks' start order (the look-back waits only on earlier tiles)
        L += ["    stid = cuda.shared.array(1, int64)",
              "    if tid == 0:",
              "        stid[0] = int64(cuda.atomic.add(S, 0, uint32(1)))",
              "    cuda.syncthreads()",
              "    t = stid[0]",
              "    G = C"]
    else:
        L.append("    t = int64(cuda.blockIdx.x)")
    L += [f"    base = t * {tile}",
         f"    nv = min(n - base, int64({tile}))"]
    A = L.append
    if cond:
        A("    carry = F[0] != 0")
    L += shared_lines(items, R, block, sim, kt, ptn, tile)
    if not sim:
        # bucket start - tile digit offset, in the counts' type (int32 below 2^31 elements)
        A(f"    sgb = cuda.shared.array({R}, {_ew.type_name(cdt)})")
    # the items as loops over per-thread arrays (typed once; NVVM unrolls the constant trip
    # counts and keeps the arrays in registers)
    A(f"    for k in range({items}):")
    A(f"        j = {tile_position('k', block, items, sim)}")
    A("        jj[k] = j")
    A(f"        dg[k] = int32({R})")
    A(f"        ky[k] = {kt}(0)")
    if has_pay:
        A(f"        pa[k] = {ptn}(0)")
    A("        if j < nv:")
    L += _load_lines(part, src, "base + j", pay, "            ", ptn, cond)
    A("            ky[k] = key")
    if has_pay:
        A("            pa[k] = pv" if not cond else "            if carry:\n"
          "                pa[k] = pv")
    A(f"            dg[k] = {_digit('key', kt, 'sh', bits)}")
    L += rank_lines(items, R, block, sim, tile)
    if sim and sweep:
        # each digit's bucket start: the tile's count of it (sd: the tile's digits), then the
        # look-back; the barrier orders sgx's writes before the stores read them
        A(f"    sgx = cuda.shared.array({R}, int64)")
        A("    dd = tid")
        A(f"    while dd < {R}:")
        A("        cnt = uint32(0)")
        A("        q = int64(0)")
        A(f"        while q < {tile}:")
        A("            if sd[q] == dd:")
        A("                cnt = uint32(cnt + uint32(1))")
        A("            q += 1")
        L += lookback_lines(R, sim, every)
        A("        sgx[dd] = gs + int64(ex)")
        A(f"        dd += {block}")
        A("    cuda.syncthreads()")
        A(f"    for k in range({items}):")
        A(f"        if dg[k] < {R}:")
        A("            g = sgx[dg[k]] + rk[k]")
        L += _store_lines(part, key_out, pay_out, "ky[k]", "pa[k]", "g", podt,
                          "            ", cond)
    elif sim:
        # straight to the bucket: its start + the rank among the tile's equal digits
        A(f"    for k in range({items}):")
        A(f"        if dg[k] < {R}:")
        A("            x = int64(dg[k]) * ntile + t")
        A("            g = rk[k]")
        A("            if x > 0:")
        A("                g += int64(C[x - 1])")
        L += _store_lines(part, key_out, pay_out, "ky[k]", "pa[k]", "g", podt,
                          "            ", cond)
    else:
        A("    dd = tid")
        A(f"    while dd < {R}:")
        if sweep:
            # the tile's count of digit dd: the next digit's start (the tile's valid elements
            # after the last digit) minus its own; sdo is final since rank_lines' last barrier
            A("        nx = int32(nv)")
            A(f"        if dd + 1 < {R}:")
            A("            nx = sdo[uint64(dd + 1)]")
            A("        cnt = uint32(nx - sdo[uint64(dd)])")
            L += lookback_lines(R, sim, every)
            A("        gb = gs + int64(ex)")
        else:
            A("        xg = int64(dd) * ntile + t")
            A("        gb = int64(0)")
            A("        if xg > 0:")
            A("            gb = int64(C[uint64(xg - 1)])")
        A(f"        sgb[uint64(dd)] = {ct}(gb - int64(sdo[uint64(dd)]))")
        A(f"        dd += {block}")
        L += stage_lines(items, R, has_pay, cond)
        # the tile in digit order, stored by consecutive threads (runs of a digit coalesce)
        A(f"    for k in range({items}):")
        A(f"        j = tid + k * {block}")
        A("        if j < nv:")
        A("            key = sk[uint64(j)]")
        A(f"            g = sgb[uint64({_digit('key', kt, 'sh', bits)})] + j")
        L += _store_lines(part, key_out, pay_out, "key", "sp[uint64(j)]" if has_pay else None,
                          "g",
                          podt, "            ", cond)
    params = _signature(part, src, pay, key_out, pay_out, part.dtype, pdt, cdt)[1]
    params += [Param("array", kodt, 1, "C"), Param("array", podt, 1, "C")]
    if sweep:
        params += [Param("array", _U32, 1, "C"), Param("scalar", _I64)]
    return _finish("radix_sweep" if sweep else "radix_scatter", part, L, params, block)


def _finish(prefix, part, lines, params, block=None):
    text = part.device_source() + "\n".join(lines) + "\n"
    name = _ew._kernel_name(prefix, text)
    bounds = (block, MIN_BLOCKS) if block and MIN_BLOCKS > 0 and not _SIM else None
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params, bounds)


# ---- launching ---------------------------------------------------------------------------------
def _vals(a, n=None):
    if a is None:
        return [0, 0, 0, 1, 0, 0, 1]
    n = a.size if n is None else n
    return _ew._arr_values(a._ptr, (n,), (a.itemsize,), a.itemsize)


def _run_histogram(part, shifts, bits, n, m, F, detect, pw):
    """Onesweep: every pass's digit counts of ``part``, scanned: (pass, digit) -> the end of
    the digit's bucket (an int32 array of ``len(shifts) * 2^bits``)."""
    from ..creation import zeros
    from ..reductions.functions import cumsum
    items = items_for(part.w, pw)
    ntile = -(-n // (BLOCK * items))
    R = 1 << bits
    ck = ("radix_hist", part.cache_key(), tuple(shifts), bits, BLOCK, items, _SIM, detect)
    kh = compiler.get_kernel(ck, lambda: render_histogram(part, shifts, bits, _I32, block=BLOCK,
                                                          items=items, sim=_SIM, detect=detect))
    counts = zeros((len(shifts) * R,), _I32)
    xv = _vals(part.src) if part.src is not None else _vals(None)
    kh(min(ntile, HIST_BLOCKS), BLOCK, [n, ntile, m, 0] + xv + _vals(None) + _vals(None)
       + _vals(counts) + _vals(F))
    return cumsum(counts.reshape((len(shifts), R)), axis=1, dtype=_I32).reshape(-1)


def _run_pass(part, src, pay, key_out, pay_out, shift, bits, n, X, P, K, KO, PO, pdt, kodt,
              podt, m, F=None, cond=False, sweep=None):
    """One pass: count, scan, scatter.  ``F``: the int32 flag of a conditional payload
    (``cond``); the first pass's count sets it.  ``sweep``: (G, gp) -- onesweep, one scatter
    kernel with the histograms' scans ``G`` (this pass's from ``gp``)."""
    from ..reductions.functions import cumsum
    items = items_for(part.w, pdt.itemsize if pay is not None else 0)
    tile = BLOCK * items
    ntile = -(-n // tile)
    cdt = _I32 if n < 2 ** 31 else _I64
    R = 1 << bits
    detect = cond and src == "first"
    if sweep is not None:
        from ..creation import zeros
        G, gp = sweep
        every = _PREFIX_EVERY
        sk = ("radix_sweep", part.cache_key(), src, pay, key_out, pay_out, bits, pdt, kodt,
              podt, BLOCK, items, _SIM, cond, every)
        ks = compiler.get_kernel(sk, lambda: render_scatter(
            part, src, pay, key_out, pay_out, bits, _I32, pdt, kodt, podt, block=BLOCK,
            items=items, sim=_SIM, cond=cond, sweep=True, every=every))
        S = zeros((1 + ntile * R,), _U32)
        xv = _vals(X) if X is not None else _vals(None)
        ks(ntile, BLOCK, [n, ntile, m, shift] + xv + _vals(P) + _vals(K) + _vals(G)
           + _vals(F) + _vals(KO, n) + _vals(PO, n) + _vals(S) + [gp])
        return
    ck = ("radix_count", part.cache_key(), src, bits, cdt, pdt, BLOCK, items, _SIM, detect,
          COUNT)
    kc = compiler.get_kernel(ck, lambda: render_count(part, src, bits, cdt, pdt, block=BLOCK,
                                                      items=items, sim=_SIM, detect=detect))
    counts = empty_array((R * ntile,), cdt)
    xv = _vals(X) if X is not None else _vals(None)
    head = [n, ntile, m, shift] + xv + _vals(P) + _vals(K)
    fv = _vals(F)
    kc(ntile, BLOCK, head + _vals(counts) + fv)
    incl = cumsum(counts, dtype=cdt)
    sk = ("radix_scatter", part.cache_key(), src, pay, key_out, pay_out, bits, cdt, pdt,
          kodt, podt, BLOCK, items, _SIM, cond)
    ks = compiler.get_kernel(sk, lambda: render_scatter(
        part, src, pay, key_out, pay_out, bits, cdt, pdt, kodt, podt, block=BLOCK,
        items=items, sim=_SIM, cond=cond))
    ks(ntile, BLOCK, head + _vals(incl) + fv + _vals(KO, n) + _vals(PO, n))


def sort(parts, n, *, payload=None, out=None, index_dtype=_I64, mod=0):
    """Sort ``n`` elements by ``parts`` (least significant first); returns ``out``.

    payload: ``"index"`` -- ``out`` receives the sorting permutation (``index_dtype``;
    ``index % mod`` when ``mod``); ``"values"`` -- ``out`` receives the values of the single
    part's source in sorted order (any part kind; for a float part the values travel only when
    the data holds -0.0 or NaN, which the first pass detects on the device: otherwise the keys
    decode to the values); None -- a key-only sort of one invertible part, ``out`` receives
    the decoded values.  ``out``: a C-contiguous 1-d array (unsigned bits
    view) of ``n`` elements, allocated when None."""
    plan = pass_plan(parts)
    index = payload == "index"
    if payload != "index":
        assert len(parts) == 1 and (payload == "values" or parts[0].invertible)
    if out is None:
        odt = np.dtype(index_dtype) if index else parts[0].src.dtype
        out = empty_array((n,), odt)
    if n == 0:
        return out
    pdt = (_I32 if n < 2 ** 31 else _I64) if index else (
        parts[0].src.dtype if payload == "values" else None)
    if not plan:                  # nothing to sort by (one row of nothing): identity
        assert index
        from ..creation import arange
        r = arange(n, dtype=out.dtype)
        if mod:
            r = r % mod
        out[...] = r
        return out
    if _cub.applies(parts, n, payload, mod) and _cub.sort(parts[0], n, payload, out) is not None:
        return out                # the GPU: CUB's onesweep kernels (cub_sort.py)
    P = K = F = None
    cond = payload == "values" and parts[0].kind == "float"
    if cond:
        from ..creation import zeros
        F = zeros((1,), _I32)
    last = len(plan) - 1
    sweep = ONESWEEP and n < 2 ** 30
    for q, (p, shift, bits) in enumerate(plan):
        part = parts[p]
        first_of_part = q == 0 or plan[q - 1][0] != p
        last_of_part = q == last or plan[q + 1][0] != p
        if sweep and first_of_part:
            shifts = [sh for pp, sh, _ in plan if pp == p]
            G = _run_histogram(part, shifts, bits, n, part.m or mod, F, cond and p == 0,
                               pdt.itemsize if pdt is not None else 0)
        if first_of_part:
            src = "gather" if p > 0 else "first"
        else:
            src = "key"
        if src == "gather":
            pay = "array"
        elif q == 0:
            pay = "iota" if index else ("values" if payload == "values" else None)
        else:
            pay = "array" if payload is not None else None
        # outputs
        if q == last:
            key_out = "decode" if payload is None or cond else None
            pay_out = ("mod" if mod else "cast") if index else (
                "cast" if payload and not cond else None)
            KO = out if key_out else None
            PO = out if pay_out else None
            kodt = out.dtype if key_out else _keys.UINT[1]
            podt = out.dtype if pay_out else _keys.UINT[1]
        else:
            key_out = None if last_of_part else "key"
            pay_out = "cast" if payload is not None else None
            KO = empty_array((n,), part.dtype) if key_out else None
            PO = empty_array((n,), pdt) if pay_out else None
            kodt = part.dtype if key_out else _keys.UINT[1]
            podt = pdt if pay_out else _keys.UINT[1]
        _run_pass(part, src, pay, key_out, pay_out, shift, bits, n, part.src, P, K, KO, PO,
                  pdt if pdt is not None else _keys.UINT[1], kodt, podt, part.m or mod, F,
                  cond, (G, shifts.index(shift) * (1 << bits)) if sweep else None)
        K, P = KO, PO
    return out
