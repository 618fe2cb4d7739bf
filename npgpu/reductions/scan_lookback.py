"""Single-pass scan along the contiguous axis: a decoupled look-back scan.

(The idea is Merrill & Garland's "single-pass parallel prefix scan with
decoupled look-back"; this is npgpu's own rendering of it.)  Each row is cut
into tiles of ``TILE = BLOCK * ITEMS`` elements, tiles numbered across rows
(a tile never spans two rows).  Every block:

1. takes tile ``blockIdx.x`` (the GPU dispatches blocks in index order, so a block
   only ever waits on tiles whose blocks already run; ``BLOCK_IDS = False``: the
   next id of an atomic counter ``ws[0]`` instead);
2. loads its tile coalesced (thread ``t`` reads ``t + k * BLOCK``, every load
   issued before any is used), transposes it through shared memory so each
   thread scans ``ITEMS`` consecutive elements, then scans the thread totals
   across the block (warp shuffles on the GPU, a shared-memory Hillis-Steele
   scan on the simulator, which has no warp intrinsics);
3. publishes its tile aggregate (status 1), looks back over the statuses of
   the preceding tiles of its row ``WINDOW`` at a time -- combining
   aggregates, newest last, until it meets an inclusive prefix (status 2) or
   the row start, spinning while a needed status is still 0 -- then publishes
   its own inclusive prefix (status 2);
4. combines the prefix into its values, transposes back and stores coalesced.

Input and output are each touched once: n reads + n writes.  How a status
travels with its value depends on the state's size:

* 4-byte states (float32, int32, uint32): status and value share one uint64
  word per tile, ``(epoch << 34) | (status << 32) | value bits``.  A publish
  is one ``atomic.exch`` of the word, a look-back read one ``atomic.or_`` of
  zero (an L2 read that never sees stale L1 data); as the value arrives with
  its status, neither side needs a fence: one L2 round trip per window.  The
  words live in one buffer per stream, kept across calls; the epoch (the
  call's number on that stream) makes an earlier call's word read as not yet
  published, so a scan is one launch with no memset (:func:`_status_words`).
* 8-byte states: statuses (int32) and values (one array for aggregates, one
  for inclusive prefixes) live apart, in a workspace whose statuses are zeroed
  before the launch; values are written, fenced, then flagged, and read back
  with atomics (``atomic.add`` of a neutral zero: ``-0.0`` for floats, which
  leaves every float unchanged) after a fence.

The combine order is always (earlier, later): correct for associative,
non-commutative combines too.  Nothing is combined with the identity (it only
pads a row's last, partial tile): -0.0 sums and a row's first element stay as
NumPy has them.

Takes single-component, reorderable states of the dtypes atomics support
(``STATES``); :mod:`.scan` keeps its other kernels for everything else.
"""
import hashlib

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen.compiler import KernelSource, Param
from .._codegen.elementwise import cast_expr, compute_dtype, type_name
from .._core.stream_scratch import StreamScratch
from ..cuda import memory as _memory
from . import reduce as _r
from . import template as _t

_SIM = _backend.IS_SIM
# BLOCK threads scan ITEMS elements each; WINDOW tile statuses are read at once by the look-back
# (one warp on the GPU).  The simulator's tiles are tiny so that tests span many of them.
# BLOCK4 x ITEMS4: the tile of 4-byte states.  Measured on the H200 (2026-12-01,
# scan_lookback_knobs.py, unsigned indices): f32 cumsum of 2^26 with the one-word status 128 x 32
# 212 us, 128 x 16 258 us, 256 x 16 264 us (PyTorch 241 us); int64 states (int32 cumsum) run
# best as reduce-then-scan (scan.py) with 256 x 16 tiles: 321 us, against 414 us looking back.
if _SIM:
    BLOCK, ITEMS, BLOCK4, ITEMS4, WINDOW = 8, 2, 8, 2, 4
else:
    BLOCK, ITEMS, BLOCK4, ITEMS4, WINDOW = 256, 16, 128, 32, 32
TILE = BLOCK * ITEMS            # the tile of 8-byte states (4-byte: BLOCK4 * ITEMS4)
# GPU only: nanoseconds a look-back lane sleeps between re-reads of a status still 0 (0: none),
# against L2 atomic traffic from spinning warps.  H200, f32 cumsum of 2^26 (scan_lookback_knobs.py,
# 3 interleaved rounds): 0 ns 208.7/212.3/274.5 us (runs of 253 us in other calls), 200 ns
# 209.0/209.4/212.1 us.  (ld.global.cv reads in place of the atomic: 203.7-208.0 us with a
# 100 ns sleep -- and wrong sums without one, LLVM drops a spin loop with no side effect.)
SPIN_NS = 0 if _SIM else 200
# Tile ids: True -- tile = blockIdx.x, as CUB's scans do (the GPU dispatches blocks in index
# order, so every tile a block waits on belongs to a block that already runs); False -- from an
# atomic counter (one more L2 round trip before a block's loads).  H200, f32 cumsum of 2^26
# (scan_lookback_knobs.py, medians of 3 interleaved rounds): blockIdx.x 195.5 us, counter 202.5 us.
BLOCK_IDS = True
# GPU only: launch bounds of the 4-byte tile kernel, (BLOCK4, MIN_BLOCKS4): ptxas fits its
# registers to MIN_BLOCKS4 resident blocks per SM.  H200, f32 cumsum of 2^26 with epoch-tagged
# statuses (scan_lookback_knobs.py, medians of 3 interleaved rounds, whole calls): None (ptxas's
# choice, 80 registers: 6 blocks) 163.8 us, 7 (72 registers) 158.3 us, 8 (64) 168.2 us.
# (Earlier, before epochs: 10 blocks (48 registers) and 12 (40 + spills) measured slower.)
MIN_BLOCKS4 = 7
# Tried on the H200 and left out (scan_lookback_knobs.py, whole calls after the fast path,
# before epochs; this kernel 169-172 us): 2/3/4 statuses per lane a round, all in flight at once
# (LANE_READS) 187/207/216 us; relaxed loads and stores of the status words in place of atomics
# (RELAXED) 213 us; spinning lanes sleeping 100/400 ns 172/173 us.  The trace (``--trace``
# rendering): a tile's life is ~2.6 us load and scan, ~3.3 us look-back (2-3 rounds: the nearest
# inclusive prefix lies 33-96 tiles back), 0.5 us stores; ~760 tiles in flight.
# Earlier (f32 cumsum of 2^26, scan_lookback_knobs.py, medians of 3 interleaved rounds; this
# kernel 195-201 us in the same calls, ~40 us of which was host work and the memset) left out: each lane reading 2/4/8 statuses a round
# (one round trip covers 64-256 tiles) 246/343/476 us; a first round of 16/8/4/2 tiles 195-200
# us (runs of 226-233 us either way); thread scans in place in shared memory (32 registers)
# 244 us; persistent blocks loading the next tile during the look-back 218-277 us.
# 4-byte states: statuses each look-back lane reads a round (all in flight at once), and whether
# status words are read/published with relaxed loads/stores (ptx.py) rather than atomics.
LANE_READS = 1
RELAXED = False
STATES = frozenset(np.dtype(t) for t in (np.int32, np.int64, np.uint32, np.uint64,
                                         np.float32, np.float64))
# Test hook: tiles publish their inclusive prefix only when ``tile % _INCLUSIVE_EVERY == 0``
# (row starts always do), so that later tiles combine aggregates over several windows.  The
# simulator runs blocks one after another and would otherwise always find a prefix next door.
# On the simulator it is the kernels' last argument (``inclusive_every=None``: one kernel for
# every value, one PTX check for all); the GPU renders the constant 1 (no test, no parameter).
_INCLUSIVE_EVERY = 1
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_U64 = np.dtype(np.uint64)


def applies(spec, a, ax, m, seed_first):
    """Does the look-back kernel take this scan? (contiguous axis, more than one tile)."""
    return (spec.reorderable and not seed_first and spec.k == 1 and spec.state[0] in STATES
            and m > tile_size(spec) and abs(a._strides[ax]) == a.itemsize)


def _shape(st):
    """(threads, items per thread) of the tiles of state dtype ``st``."""
    return (BLOCK4, ITEMS4) if st.itemsize == 4 else (BLOCK, ITEMS)


# ---- rendering -----------------------------------------------------------------------------
def render(spec, *, nk, in_storage, out_storage, block, items, window, sim, inclusive_every=1,
           spin_ns=0, in_layout="A", out_layout="A", carry=False, block_ids=True,
           min_blocks=None, lane_reads=1, relaxed=False, trace=False):
    """The look-back kernel.  Parameters: ``nrow, m, tpr`` (tiles per row), ``out0, in0``
    (``nk`` kept dims + the scan axis; layout "C" when the view is C-contiguous: Numba then
    addresses without a stride multiply), then for 4-byte states ``ws`` (int32: the tile
    counter), ``sw`` (uint64 per tile: epoch << 34 | status << 32 | value bits) and ``ep``
    (the call's epoch), else ``ws`` (int32: tile
    counter, then one status per tile), ``agg`` and ``inc`` (per tile: aggregate, inclusive
    prefix).

    ``block_ids``: tile = blockIdx.x (else the next id of the counter ``ws[0]``);
    ``min_blocks``: launch bounds (``block``, ``min_blocks``) for ptxas.

    4-byte states only: ``lane_reads``: statuses each look-back lane reads a round, all issued
    before any is waited on (a round covers ``window * lane_reads`` tiles); ``relaxed``: status
    words are read and published with ``ld``/``st.relaxed.gpu`` (:mod:`.._codegen.ptx`) instead
    of atomics.  ``trace``: one more parameter ``tr`` (int64, 8 per tile) where thread 0 records
    ``%globaltimer`` at the tile's start, aggregate publish, inclusive publish and after its
    stores (slots 0, 1, 2, 4) and the look-back's rounds (slot 3) -- a diagnostic rendering.

    ``inclusive_every``: a tile publishes its inclusive prefix only when ``tile %
    inclusive_every == 0`` (row starts always do; the test hook ``_INCLUSIVE_EVERY``); None: the
    divisor is one more parameter ``ie`` (int64, after ``tr``), as the simulator renders it.

    ``carry``: the same tile scan without the look-back (phase 3 of a reduce-then-scan):
    block ``t`` scans tile ``t`` and starts from ``cin[t - 1]``, the inclusive scan of the
    tile totals of its row; parameters ``nrow, m, tpr, out0, in0, cin``."""
    st = spec.state[0]
    packed = st.itemsize == 4
    tn = type_name(st)
    ident = spec.identity[0]
    tile = block * items
    kr = lane_reads if packed else 1
    assert (packed or not relaxed) and not (carry and trace)
    span = window * kr                   # tiles one look-back round covers
    zero = f"{tn}(-0.0)" if st.kind == "f" else f"{tn}(0)"
    if not sim:
        assert block % 32 == 0 and block <= 1024 and window == 32
    nw = block // 32
    if sim:
        shift, padw = None, None
        nsh, sb = tile, block
    else:
        # one padding slot per 128 bytes: both transposes are free of bank conflicts
        padw = 128 // st.itemsize
        assert padw % items == 0 and block % padw == 0
        shift = padw.bit_length() - 1
        nsh, sb = tile + tile // padw, block + block // padw
    kd = [f"k{d}_" for d in range(nk)]
    # unsigned indices: Numba skips its negative-index fix-up (a compare and a select on
    # every one of the six accesses per element: 20% of the kernel's instructions)
    kidx = "".join(f"uint64({k}), " for k in kd)

    def load(j):
        return _t.as_input(spec, f"in0[{kidx}uint64({j})]", in_storage)

    def pre(x):
        return f"red_pre_t({x}, int64(0))"

    def store(val):
        od = spec.out_dtype
        return cast_expr(cast_expr(f"red_post({val}, int64(0))", compute_dtype(od), od), od,
                         out_storage)

    def comb(a, b):
        return f"red_comb_t({a}, {b})"

    P = ["", "    ", "        ", "            ", "                ", "                    ",
         "                        "]
    L = ["def KERNEL(nrow, m, tpr, out0, in0, cin):" if carry
         else "def KERNEL(nrow, m, tpr, out0, in0, ws, sw, ep%s):" if packed
         else "def KERNEL(nrow, m, tpr, out0, in0, ws, agg, inc%s):"]
    L[0] = L[0].replace("%s", (", tr" if trace else "") + (", ie" if inclusive_every is None
                                                            and not carry else ""))
    A = L.append
    A(f"{P[1]}tid = int64(cuda.threadIdx.x)")
    A(f"{P[1]}sh = cuda.shared.array({nsh}, {tn})")
    A(f"{P[1]}sht = cuda.shared.array(1, int64)")
    A(f"{P[1]}shp = cuda.shared.array(1, {tn})")
    if sim:
        A(f"{P[1]}sa = cuda.shared.array({block}, {tn})")
        A(f"{P[1]}sb = cuda.shared.array({block}, {tn})")
        A(f"{P[1]}lf = cuda.shared.array({span}, int32)")
        A(f"{P[1]}lvs = cuda.shared.array({span}, {tn})")
    else:
        A(f"{P[1]}shw = cuda.shared.array({nw}, {tn})")
    # 1. the tile: blockIdx.x, or the counter's next id (either way a block waits only on
    # tiles of blocks that started before it)
    if carry or block_ids:
        A(f"{P[1]}t = int64(cuda.blockIdx.x)")
    else:
        A(f"{P[1]}if tid == 0:")
        A(f"{P[2]}sht[0] = int64(cuda.atomic.add(ws, 0, int32(1)))")
        A(f"{P[1]}cuda.syncthreads()")
        A(f"{P[1]}t = sht[0]")
    if trace:
        A(f"{P[1]}if tid == 0:")
        A(f"{P[2]}tr[t * 8] = int64(ptx.globaltimer())")
    A(f"{P[1]}row = t // tpr")
    A(f"{P[1]}sp = t - row * tpr")
    L.extend(_t._decompose("row", kd, "out0", 0, P[1]))
    A(f"{P[1]}lo = sp * {tile}")
    A(f"{P[1]}n = min(m - lo, {tile})")
    A(f"{P[1]}q0 = tid" + ("" if sim else f" + (tid >> {shift})"))
    # 2a. coalesced loads, all issued first, into shared memory
    A(f"{P[1]}if n == {tile}:")
    for k in range(items):
        A(f"{P[2]}r{k}_ = {load(f'lo + tid + {k * block}')}")
    for k in range(items):
        A(f"{P[2]}sh[uint64(q0 + {k * sb})] = {pre(f'r{k}_')}")
    # (the partial tile's items, the stores and the warp scans below: loops of constant trip
    # count, which NVVM unrolls: ~40% less source for Numba to compile, 2-3x faster; the
    # same PTX for contiguous rows, strided ones lose ~60% of their stride multiplies)
    A(f"{P[1]}else:")
    A(f"{P[2]}for u_ in range({items}):")
    A(f"{P[3]}x_ = {ident}")
    A(f"{P[3]}if tid + u_ * {block} < n:")
    A(f"{P[4]}x_ = {pre(load(f'lo + tid + u_ * {block}'))}")
    A(f"{P[3]}sh[uint64(q0 + u_ * {sb})] = x_")
    A(f"{P[1]}cuda.syncthreads()")
    # 2b. each thread scans its ITEMS consecutive elements
    A(f"{P[1]}qb = tid * {items}" + ("" if sim else f" + ((tid * {items}) >> {shift})"))
    A(f"{P[1]}y0_ = sh[uint64(qb)]")
    for i in range(1, items):
        A(f"{P[1]}y{i}_ = {comb(f'y{i - 1}_', f'sh[uint64(qb + {i})]')}")
    # 2c. exclusive scan of the thread totals across the block -> e_ (has_: e_ is non-empty)
    A(f"{P[1]}v = y{items - 1}_")
    if sim:
        A(f"{P[1]}sa[tid] = v")
        A(f"{P[1]}cuda.syncthreads()")
        off, src, dst = 1, "sa", "sb"
        while off < block:
            A(f"{P[1]}if tid >= {off}:")
            A(f"{P[2]}v = {comb(f'{src}[tid - {off}]', 'v')}")
            A(f"{P[1]}{dst}[tid] = v")
            A(f"{P[1]}cuda.syncthreads()")
            off *= 2
            src, dst = dst, src
        A(f"{P[1]}tot = {src}[{block - 1}]")
        A(f"{P[1]}has_ = tid > 0")
        A(f"{P[1]}e_ = {ident}")
        A(f"{P[1]}if has_:")
        A(f"{P[2]}e_ = {src}[tid - 1]")
    else:
        A(f"{P[1]}lane = tid & 31")
        A(f"{P[1]}wid = tid >> 5")
        L.extend(_warp_scan("v", st, "lane", "0", P[1]))
        A(f"{P[1]}off = 1")
        L.extend(_shfl("up", "v", st, "e_", P[1]))
        A(f"{P[1]}if lane == 31:")
        A(f"{P[2]}shw[wid] = v")
        A(f"{P[1]}cuda.syncthreads()")
        A(f"{P[1]}if wid == 0:")
        A(f"{P[2]}w = {ident}")
        A(f"{P[2]}if lane < {nw}:")
        A(f"{P[3]}w = shw[lane]")
        L.extend(_warp_scan("w", st, "lane", "0", P[2]))
        A(f"{P[2]}if lane < {nw}:")
        A(f"{P[3]}shw[lane] = w")
        A(f"{P[1]}cuda.syncthreads()")
        A(f"{P[1]}tot = shw[{nw - 1}]")
        A(f"{P[1]}has_ = lane > 0")
        A(f"{P[1]}if wid > 0:")
        A(f"{P[2]}if has_:")
        A(f"{P[3]}e_ = {comb('shw[wid - 1]', 'e_')}")
        A(f"{P[2]}else:")
        A(f"{P[3]}e_ = shw[wid - 1]")
        A(f"{P[2]}has_ = True")

    # 3. publish, look back, publish (dropped again below for ``carry``)
    mark = len(L)

    def read(g):                              # one status word (4-byte states)
        return f"ptx.load_relaxed(sw, {g})" if relaxed else f"cuda.atomic.or_(sw, {g}, uint64(0))"

    def publish(val, flag, pad):
        if packed:                           # one write carries status and value
            # the call's epoch above the status: (ep << 34) | (flag << 32) | value bits
            word = f"(uint64(ep) << uint64(34)) | uint64({flag << 32}) | {_to_bits(st, val)}"
            return [f"{pad}ptx.store_relaxed(sw, t, {word})" if relaxed
                    else f"{pad}cuda.atomic.exch(sw, t, {word})"]
        return [f"{pad}inc[t] = {val}" if flag == 2 else f"{pad}agg[t] = {val}",
                f"{pad}cuda.threadfence()",
                f"{pad}cuda.atomic.exch(ws, 1 + t, int32({flag}))"]

    def stamp(slot, pad, val="int64(ptx.globaltimer())"):
        return [f"{pad}tr[t * 8 + {slot}] = {val}"] if trace else []

    A(f"{P[1]}if sp == 0:")
    A(f"{P[2]}if tid == 0:")
    L.extend(stamp(1, P[3]))
    L.extend(publish("tot", 2, P[3]))
    L.extend(stamp(2, P[3]))
    A(f"{P[1]}else:")
    A(f"{P[2]}if tid == 0:")
    L.extend(publish("tot", 1, P[3]))
    L.extend(stamp(1, P[3]))
    look = P[3] if not sim else P[2]
    if not sim:
        A(f"{P[2]}if tid < 32:")          # warp 0 looks back; the other warps wait below
    A(f"{look}acc = {ident}")
    A(f"{look}first = True")
    A(f"{look}jh = sp")
    A(f"{look}going = True")
    if trace:
        A(f"{look}nround = int64(0)")
    A(f"{look}while going:")
    p1, p2, p3, p4 = (look + "    " * i for i in (1, 2, 3, 4))
    sleep = [f"cuda.nanosleep(uint32({spin_ns}))"] if spin_ns and not sim else []
    if packed:
        # status and value in one read: no fence, no second round trip.  The ``kr`` reads of
        # a lane are all issued before any is waited on (one round trip for the round); a
        # lane before the row start reads the row's first status and ignores it (f = 3).
        def lane_reads_lines(jj, k):
            """(issue, wait): the lines reading lane status ``k`` (tile ``jj`` of the row), and
            those waiting for it to be published and unpacking it into ``f{k}``, ``lv{k}_``."""
            issue = [f"pw{k}_ = {read(f't - sp + max({jj}, int64(0))')}"]
            wait = [f"f{k} = int32(3)",              # 3: before the row start (an empty prefix)
                    f"lv{k}_ = {ident}",
                    f"if {jj} >= 0:",
                    f"    while (pw{k}_ >> uint64(34)) != uint64(ep):"]    # not yet published
            wait += [f"        {x}" for x in sleep]
            wait += [f"        pw{k}_ = {read(f't - sp + {jj}')}",
                     f"    f{k} = int32((pw{k}_ >> uint64(32)) & uint64(3))",
                     f"    lv{k}_ = {_from_bits(st, f'pw{k}_ & uint64(0xffffffff)')}"]
            return issue, wait
    else:
        lane_unpacked = [
            "f0 = int32(3)",                       # 3: before the row start (an empty prefix)
            f"lv0_ = {ident}",
            "if jj0 >= 0:",
            "    g = t - sp + jj0",
            "    f0 = cuda.atomic.add(ws, 1 + g, int32(0))",
            "    while f0 == 0:",
        ] + [f"        {x}" for x in sleep] + [
            "        f0 = cuda.atomic.add(ws, 1 + g, int32(0))",
            "    cuda.threadfence()",
            "    if f0 == 2:",
            f"        lv0_ = cuda.atomic.add(inc, g, {zero})",
            "    else:",
            f"        lv0_ = cuda.atomic.add(agg, g, {zero})",
        ]
    if sim:
        # one lane per status of the round (``span`` lanes)
        assert span <= block
        A(f"{p1}if tid < {span}:")
        A(f"{p2}jj0 = jh - {span} + tid")
        if packed:
            issue, wait = lane_reads_lines("jj0", 0)
            L.extend(p2 + ln for ln in issue + wait)
        else:
            L.extend(p2 + ln for ln in lane_unpacked)
        A(f"{p2}lf[tid] = f0")
        A(f"{p2}lvs[tid] = lv0_")
        A(f"{p1}cuda.syncthreads()")
        # the nearest lane holding an inclusive prefix (the simulator's ballot), then an
        # in-order fold of the round from there
        A(f"{p1}lo_ = int64(-1)")
        A(f"{p1}l_ = int64(0)")
        A(f"{p1}while l_ < {span}:")
        A(f"{p2}if lf[l_] >= 2:")
        A(f"{p3}lo_ = l_")
        A(f"{p2}l_ += 1")
        A(f"{p1}if lo_ >= 0 and jh - {span} + lo_ < 0:")
        A(f"{p2}lo_ += 1")                   # the row start: nothing to combine there
        A(f"{p1}w_ = lvs[{span - 1}]")
        A(f"{p1}l_ = int64({span - 2})")
        A(f"{p1}while l_ >= max(lo_, int64(0)):")
        A(f"{p2}w_ = {comb('lvs[l_]', 'w_')}")
        A(f"{p2}l_ -= 1")
        A(f"{p1}going = lo_ < 0")
    else:
        # lane l's k-th read is tile jh - span + 32 k + l: each read instruction of the warp
        # covers 32 consecutive statuses; the round folds newest group first
        if packed:
            waits = []
            for k in range(kr):
                A(f"{p1}jj{k} = jh - {span - 32 * k} + tid")
            for k in range(kr):
                issue, wait = lane_reads_lines(f"jj{k}", k)
                L.extend(p1 + ln for ln in issue)
                waits += wait
            L.extend(p1 + ln for ln in waits)
        else:
            A(f"{p1}jj0 = jh - {span} + tid")
            L.extend(p1 + ln for ln in lane_unpacked)
        A(f"{p1}more = True")
        A(f"{p1}w_ = {ident}")
        for k in reversed(range(kr)):
            q1, q2, q3 = (p1 + "    " * i for i in (1, 2, 3))
            A(f"{p1}if more:")
            A(f"{q1}bal = cuda.ballot_sync(0xffffffff, f{k} >= 2)")
            A(f"{q1}lo_ = int64(0)")
            A(f"{q1}if bal != 0:")
            A(f"{q2}lo_ = int64(31) - int64(cuda.clz(bal))")
            A(f"{q2}if jh - {span - 32 * k} + lo_ < 0:")
            A(f"{q3}lo_ += 1")                   # the row start: nothing to combine there
            # in-order scan of lanes lo_..31 (lanes below lo_ are older than the prefix)
            L.extend(_warp_scan(f"lv{k}_", st, "tid", "lo_", q1))
            A(f"{q1}off = 31")
            L.extend(_shfl("idx", f"lv{k}_", st, "s_", q1))
            if k == kr - 1:
                A(f"{q1}w_ = s_")
            else:
                A(f"{q1}w_ = {comb('s_', 'w_')}")
            A(f"{q1}more = bal == 0")
        A(f"{p1}going = more")
    A(f"{p1}if first:")
    A(f"{p2}acc = w_")
    A(f"{p1}else:")
    A(f"{p2}acc = {comb('w_', 'acc')}")
    A(f"{p1}first = False")
    A(f"{p1}jh -= {span}")
    if trace:
        A(f"{p1}nround += 1")
    if sim:
        A(f"{p1}cuda.syncthreads()")
    A(f"{look}if tid == 0:")
    if inclusive_every is None:
        A(f"{p1}if sp % ie == 0:")
        L.extend(publish(comb("acc", "tot"), 2, p2))
    elif inclusive_every != 1:
        A(f"{p1}if sp % {inclusive_every} == 0:")
        L.extend(publish(comb("acc", "tot"), 2, p2))
    else:
        L.extend(publish(comb("acc", "tot"), 2, p1))
    L.extend(stamp(2, p1))
    L.extend(stamp(3, p1, "nround"))
    A(f"{p1}shp[0] = acc")
    A(f"{P[1]}cuda.syncthreads()")
    if carry:
        del L[mark:]
    # 4. prefix into the values, transpose back, coalesced stores
    prefix = "cin[t - 1]" if carry else "shp[0]"
    A(f"{P[1]}if sp > 0:")
    A(f"{P[2]}if has_:")
    A(f"{P[3]}e_ = {comb(prefix, 'e_')}")
    A(f"{P[2]}else:")
    A(f"{P[3]}e_ = {prefix}")
    A(f"{P[2]}has_ = True")
    A(f"{P[1]}if has_:")
    for i in range(items):
        A(f"{P[2]}y{i}_ = {comb('e_', f'y{i}_')}")
    for i in range(items):
        A(f"{P[1]}sh[uint64(qb + {i})] = y{i}_")
    A(f"{P[1]}cuda.syncthreads()")
    A(f"{P[1]}if n == {tile}:")
    A(f"{P[2]}for u_ in range({items}):")
    A(f"{P[3]}out0[{kidx}uint64(lo + tid + u_ * {block})] = "
      f"{store(f'sh[uint64(q0 + u_ * {sb})]')}")
    A(f"{P[1]}else:")
    A(f"{P[2]}for u_ in range({items}):")
    A(f"{P[3]}if tid + u_ * {block} < n:")
    A(f"{P[4]}out0[{kidx}uint64(lo + tid + u_ * {block})] = "
      f"{store(f'sh[uint64(q0 + u_ * {sb})]')}")
    if trace:
        A(f"{P[1]}if tid == 0:")
        L.extend(stamp(4, P[2]))

    text = spec.device_source() + "\n\n" + "\n".join(L) + "\n"
    # named as a block scan: it is one (tests and tools group kernels by this prefix)
    name = f"scan_block_lookback_{hashlib.sha1(text.encode()).hexdigest()[:10]}"
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", _I64) for _ in range(3)]
    params += [Param("array", out_storage, nk + 1, out_layout),
               Param("array", in_storage, nk + 1, in_layout)]
    bounds = (block, min_blocks) if min_blocks and not sim else None
    if carry:
        params.append(Param("array", st, 1, "C"))
        return KernelSource(name.replace("lookback", "carry"), text.replace(name, name.replace(
            "lookback", "carry")), params, bounds)
    params.append(Param("array", _I32, 1, "C"))
    if packed:
        params += [Param("array", _U64, 1, "C"), Param("scalar", _I64)]
    else:
        params += [Param("array", st, 1, "C"), Param("array", st, 1, "C")]
    if trace:
        params.append(Param("array", _I64, 1, "C"))
    if inclusive_every is None:
        params.append(Param("scalar", _I64))
    return KernelSource(name, text, params, bounds)


def _to_bits(st, val):
    """uint64 holding the 32 bits of the 4-byte state ``val`` in its low half."""
    if st.kind == "f":
        return f"uint64(uint32(libdevice.float_as_int({val})))"
    return f"uint64(uint32({val}))"


def _from_bits(st, low):
    """The 4-byte state whose bits are the uint64 ``low`` (high half zero)."""
    if st.kind == "f":
        return f"libdevice.int_as_float(int32({low}))"
    return f"{type_name(st)}({low})"


def _shfl(kind, var, dt, tmp, pad):
    """Lines setting ``tmp`` to ``var`` of another lane (``off`` in scope): ``up`` = lane - off,
    ``idx`` = lane ``off``."""
    fn = {"up": "shfl_up_sync", "idx": "shfl_sync"}[kind]
    return [ln.replace("shfl_down_sync", fn) for ln in _t._shfl_lines(var, dt, tmp, pad)]


def _warp_scan(var, dt, lane, first_lane, pad):
    """In-order inclusive warp scan (Hillis-Steele, shuffles) of ``var`` over lanes
    ``first_lane``..31; lanes below ``first_lane`` are left out."""
    q = pad + "    "
    L = [f"{pad}for rnd_ in range(5):", f"{q}off = 1 << rnd_"]    # unrolled by NVVM
    L += _shfl("up", var, dt, "o_", q)
    cond = f"{lane} >= off" if first_lane == "0" else f"{lane} - off >= {first_lane}"
    return L + [f"{q}if {cond}:", f"{q}    {var} = red_comb_t(o_, {var})"]


# ---- status words of 4-byte states: one buffer per stream, tagged by epoch -----------------
# A word is (epoch << 34) | (status << 32) | value bits, the epoch being the call's number on its
# stream.  A word left by an earlier call has an older epoch and reads as "not yet published",
# so the words need no zeroing between calls and a scan is one launch, no memset (measured on
# the H200: the memset and its host work were 15 us of a 172 us f32 cumsum of 2^26).  Calls on
# one stream run in order, so one buffer per (device, stream) serves them all; it is zeroed when
# allocated or grown, and again when the epoch would pass EPOCH_BITS.
# Threads: the lock makes each epoch unique to one call of its stream's buffer (two launches on
# one stream may reach the driver in either order: a tile waits for its own epoch, so either
# order is right), and a launch holds the buffer's Memory until cuLaunchKernel has returned,
# so another thread growing the buffer frees the old one after that launch in stream order.
EPOCH_BITS = 30
_SCRATCH = StreamScratch()
_words = _SCRATCH.buffers        # (device, stream handle) -> [Memory, tiles, last epoch]


def _status_words(ntile):
    """(Memory, epoch) of ``ntile`` status words for a scan on the current stream; keep the
    Memory referenced until the kernel is launched."""
    return _SCRATCH.take(ntile, 8, lambda e: e[2] >= (1 << EPOCH_BITS) - 1)


# ---- launching -----------------------------------------------------------------------------
def _zero(ptr, nbytes):
    """Zero the statuses on the current stream (no host round trip)."""
    from .._core.transfer import zero
    zero(ptr, nbytes)


def _layout(vals, nd):
    """'C' when the kernel values of an ``nd``-dim view describe a C-contiguous array."""
    shape, strides, want = vals[5:5 + nd], vals[5 + nd:5 + 2 * nd], vals[3]
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1 and s != want:
            return "A"
        want *= n
    return "C"


def tile_size(spec):
    """Elements of one tile of this spec's scans."""
    block, items = _shape(spec.state[0])
    return block * items


def run_carry(spec, a, out, nk, nrow, m, in_vals, out_vals, cin):
    """Phase 3 of a reduce-then-scan: scan every tile from ``cin`` (ndarray: inclusive scan of
    the tile totals, (nrow, tiles per row), C-contiguous)."""
    st = spec.state[0]
    block, items = _shape(st)
    tpr = -(-m // (block * items))
    il, ol = _layout(in_vals, nk + 1), _layout(out_vals, nk + 1)
    key = ("scan_carry", spec.full_key(), nk, a.dtype.str, out.dtype.str, block, items, il, ol)
    k = compiler.get_kernel(key, lambda: render(
        spec, nk=nk, in_storage=a.dtype, out_storage=out.dtype, block=block, items=items,
        window=WINDOW, sim=_SIM, in_layout=il, out_layout=ol, carry=True))
    k(nrow * tpr, block, [nrow, m, tpr] + out_vals + in_vals
      + _r._arr(cin._ptr, [nrow * tpr], [st.itemsize], st.itemsize))
    return out


def run(spec, a, out, nk, nrow, m, in_vals, out_vals, trace=None, plan=None):
    """One launch scanning every row (``in_vals``/``out_vals``: the views' kernel values).
    ``trace``: an int64 ndarray of 8 per tile: run the tracing rendering into it.  ``plan``: a
    list to append this scan's ``launch(in_ptr, out_ptr)`` to, which repeats it for other
    arrays of the same layout (the fast path of :func:`.scan.cumulative`)."""
    st = spec.state[0]
    block, items = _shape(st)
    tpr = -(-m // (block * items))
    ntile = nrow * tpr
    il, ol = _layout(in_vals, nk + 1), _layout(out_vals, nk + 1)
    packed = st.itemsize == 4
    mb = MIN_BLOCKS4 if packed else None
    kr, rx = (LANE_READS, RELAXED) if packed else (1, False)
    # the simulator passes the test hook as an argument (one kernel for its every value)
    ie, iarg = (None, (int(_INCLUSIVE_EVERY),)) if _SIM else (_INCLUSIVE_EVERY, ())
    key = ("scan_lookback", spec.full_key(), nk, a.dtype.str, out.dtype.str, block, items, WINDOW,
           ie, SPIN_NS, il, ol, BLOCK_IDS, mb, kr, rx, trace is not None)
    k = compiler.get_kernel(key, lambda: render(
        spec, nk=nk, in_storage=a.dtype, out_storage=out.dtype, block=block, items=items,
        window=WINDOW, sim=_SIM, inclusive_every=ie, spin_ns=SPIN_NS,
        in_layout=il, out_layout=ol, block_ids=BLOCK_IDS, min_blocks=mb, lane_reads=kr,
        relaxed=rx, trace=trace is not None))
    if packed:
        # the stream's status words, tagged with this call's epoch (no zeroing), and the
        # int32 tile counter (zeroed; only the counter's tile ids read it: else any int32)
        nws, zoff = (0, 0) if BLOCK_IDS else (4, 0)

        def bufs(p, words, ep):
            sw = words.ptr
            return (_r._arr(p or sw, [1], [4], 4) + _r._arr(sw, [ntile], [8], 8)) + [ep]
    else:
        # one workspace: aggregates, inclusive prefixes (8-byte aligned first), then the int32
        # counter + statuses, which alone need zeroing
        vb = ntile * st.itemsize
        nws, zoff = 2 * vb + 4 * (ntile + 1), 2 * vb

        def bufs(p, words, ep):
            return (_r._arr(p + 2 * vb, [ntile + 1], [4], 4)
                    + _r._arr(p, [ntile], [st.itemsize], st.itemsize)
                    + _r._arr(p + vb, [ntile], [st.itemsize], st.itemsize))
    tr = [] if trace is None else _r._arr(trace._ptr, [trace.size], [8], 8)
    assert trace is None or (trace.dtype == _I64 and trace.size >= 8 * ntile)
    # the argument values around the two data pointers (slot 4 of each view's values)
    head = (nrow, m, tpr, *out_vals[:4])
    mid = (*out_vals[5:], *in_vals[:4])
    tail = tuple(in_vals[5:])

    def launch(in_ptr, out_ptr):
        # ``words`` (the stream's status words) and ``ws`` are referenced until the launch
        # has returned: freed afterwards, they are freed after the kernel in stream order
        words, ep = _status_words(ntile) if packed else (None, None)
        if nws:
            ws = _memory.alloc(nws)
            _zero(ws.ptr + zoff, nws - zoff)
            k(ntile, block, (*head, out_ptr, *mid, in_ptr, *tail, *bufs(ws.ptr, words, ep), *tr,
                             *iarg))
        else:
            k(ntile, block, (*head, out_ptr, *mid, in_ptr, *tail, *bufs(0, words, ep), *tr, *iarg))

    launch(in_vals[4], out_vals[4])
    if plan is not None:
        plan.append(launch)
    return out
