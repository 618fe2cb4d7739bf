"""Set routines: ``unique`` (and NumPy 2's ``unique_values/counts/inverse/all``), ``isin``,
``intersect1d``, ``union1d``, ``setdiff1d``, ``setxor1d``.

Everything is built on one sort and one run-length encoding of the sorted keys.

``unique`` of a 1-d key array ``a`` (``axis=None`` flattens):

1. sort: ``S = sort(a)`` -- or, when indices are asked for, ``perm = argsort(a)`` (stable,
   so a run's first element is the first occurrence) and ``S = a[perm]``;
2. :func:`runs` encodes the runs of equal keys in ``S`` in two launches of one template
   (:func:`_render`), reduce-then-scan over tiles of ``ITEMS`` rounds of a warp's 32 adjacent
   elements, each tile a warp's own (no block barrier):

   * ``count``: the tile's flags (``S[j] != S[j-1]``, NaNs one run when ``equal_nan``), summed
     over the warp by shuffles: one int32 per tile;
   * a scan of the tile counts (``cumsum``, one launch), one 8-byte read of the total -- the
     output's length;
   * ``scatter``: the same flags again, each round ranked by a warp ballot and popcount from
     the tile's offset; a run's first element writes its value (``values``), its ``perm``
     entry (``indices``) and its position (``starts``); every element writes its run number
     to ``inverse[perm[j]]``.

   A full tile of 1-d keys issues all its loads before the first flag (unrolled in the
   rendered source): the memory system sees a tile's reads at once.
   So ``S`` is read twice, each output written once; no flag or rank array is stored.
   ``counts`` are ``starts[1:] - starts[:-1]`` (the last run's end, ``n``, is written by the
   thread of element ``n - 1``).
3. ``axis=k`` sorts the rows of ``moveaxis(a, k, 0)`` lexicographically (one ``lexsort`` of
   the columns) and runs the same template on whole rows (a row differs from
   the previous one when any column does: ``!=``, so NaN rows stay apart, as NumPy's structured
   comparison keeps them).

``isin`` sorts ``test_elements`` once and binary-searches every element (``searchsorted``), or
for integers of a small range marks a boolean table (NumPy's ``kind='table'``).  The two-array
functions follow NumPy's definitions on top of ``unique`` / ``isin`` and the compaction primitive.
"""
import os
import threading
from typing import NamedTuple

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import transfer as _transfer
from .._core.host_signal import read_word
from .._core.ndarray import _new, empty_array, ndarray
from ..ufuncs import UFUNCS
from . import functions as _fn
from . import presence
from . import unique_block as _block

_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_BOOL = np.dtype(np.bool_)
# A group of lanes (a warp on the GPU) encodes a tile of ITEMS rounds of its width of adjacent
# elements on its own: ranks by ballot and popcount, no block barrier (the block-wide rounds
# this replaced, one barrier a round, took 215 us for 2^24 int32 on the H200).  The simulator has
# no warp intrinsics: its group is the whole block, ranked through shared memory, and its tiles
# are tiny so that tests span many tiles, full and partial.
if _backend.IS_SIM:
    BLOCK, ITEMS = 4, 3
else:
    BLOCK, ITEMS = 256, 16


# Tiny calls (issues 14, 20).  Real keys the one-block row sort takes (GPU: up to 2048) are
# sorted and run-length encoded by one kernel (unique_block.py), the flat input's values read
# where it lies when C-contiguous; other keys of one tile (GPU: 512) take one scatter kernel and
# no count kernel (:func:`_runs_single`); up to LOCAL_TILES tiles (GPU: 16384 elements) the
# scatter's groups add up the tile counts before their own (a loop of at most LOCAL_TILES - 1
# loads) and the host sums them from one read of the counts, instead of a scan launch and a
# read of its last entry.  Every read goes into page-locked memory (H200 2026-12-03: a
# 16-element gather took 29.3 us a call with a pageable read, 19.8 with a page-locked one).
# Stub driver (sort_host_overhead.py), unique float32 16: 73 -> 17.6 us (sort, scatter, read)
# -> 6.0 us (one launch, one read), with counts 89 -> 22.0 -> 6.7 us; 1024: 74 / 90 -> 18.5 /
# 31.5 -> 6.0 / 6.6 us.  NPGPU_UNIQUE_TINY=0: the count, scan, scatter path everywhere, for
# A/B runs.
TINY = os.environ.get("NPGPU_UNIQUE_TINY", "1") != "0"
LOCAL_TILES = 32


def _group(block, sim):
    """Lanes of a group: a warp on the GPU, the whole block on the simulator."""
    return block if sim else 32


# ---- the run-length template ----------------------------------------------------------------
def _differ_source(dt, rows, equal_nan):
    """``differ(S, i, j)``: do keys ``i`` and ``j`` of ``S`` start different runs?  For 1-d
    keys also ``dv(a, b)``: the same test of two loaded values."""
    if rows:
        # a row differs when any column does (NaN != NaN: NaN rows stay apart, as in NumPy);
        # float16 compared in float32 (npgpu links no __half operators)
        a, b = "S[i, c]", "S[j, c]"
        if dt == np.float16:
            a, b = f"float32({a})", f"float32({b})"
        return ("def differ(S, i, j):\n"
                "    for c in range(S.shape[1]):\n"
                f"        if {a} != {b}:\n"
                "            return True\n"
                "    return False\n")
    lines = ["def dv(a, b):"]
    if dt == np.float16:
        lines += ["    a = float32(a)", "    b = float32(b)"]
    if equal_nan and dt.kind == "c":
        lines += ["    na = a.real != a.real or a.imag != a.imag",
                  "    nb = b.real != b.real or b.imag != b.imag",
                  "    return a != b and not (na and nb)"]
    elif equal_nan and dt.kind == "f":
        lines.append("    return a != b and not (a != a and b != b)")
    else:
        lines.append("    return a != b")
    return ("\n".join(lines) + "\n\n\n@cuda.jit(device=True)\n"
            "def differ(S, i, j):\n    return dv(S[i], S[j])\n")


# outputs of the scatter mode, in parameter order
OUTPUTS = ("values", "indices", "starts", "inverse")


def _round_rank(P, block, sim):
    """Lines giving, for this round's flags ``f`` (one a lane), ``r`` (the group's set flags
    before this lane's) and ``tot`` (the round's set flags).  GPU: a warp ballot and popcount.
    Simulator (no warp intrinsics; the group is the block): a Hillis-Steele scan over two shared
    buffers."""
    if not sim:
        return [f"{P}m = cuda.ballot_sync(0xFFFFFFFF, f)",
                f"{P}r = int64(cuda.popc(m & lt))",
                f"{P}tot = int64(cuda.popc(m))"]
    L = [f"{P}v = int32(f)", f"{P}sa[t] = v", f"{P}cuda.syncthreads()"]
    off, src, dst = 1, "sa", "sb"
    while off < block:
        L += [f"{P}if t >= {off}:", f"{P}    v += {src}[t - {off}]",
              f"{P}{dst}[t] = v", f"{P}cuda.syncthreads()"]
        off *= 2
        src, dst = dst, src
    return L + [f"{P}tot = int64({src}[{block - 1}])", f"{P}r = int64(v) - int64(f)",
                f"{P}cuda.syncthreads()"]


def _render(mode, dt, rows, equal_nan, outs, block=None, items=None, sim=None, offsets="scan"):
    """Group ``g`` (:func:`_group` lanes ``G``) encodes elements ``g * G * items ..`` in
    ``items`` rounds of ``G`` adjacent elements (coalesced loads).  A full tile of 1-d keys
    loads all its rounds' keys (and the keys before them) first, unrolled, then flags them
    (``dv``); a partial tile, and rows, flag in a loop (``differ``, guarded reads).
    ``count``: ``cnt[g]`` = the runs starting in tile ``g``.
    ``scatter``: the outputs ``outs`` (a subset of :data:`OUTPUTS`, in that order), each
    round's ranks from :func:`_round_rank` added to the tile's offset.  ``offsets``: "scan" --
    ``offs`` is the inclusive scan of the tile counts; "local" -- ``offs`` are the count
    kernel's tile counts, which each group adds up itself; "single" -- one tile (no count
    kernel): the outputs are sized for ``n`` runs, the group writes the number of runs to
    ``offs[0]`` and, with "starts", each run's length to ``counts``."""
    block = BLOCK if block is None else block
    items = ITEMS if items is None else items
    sim = _backend.IS_SIM if sim is None else sim
    G = _group(block, sim)
    nw, wt = block // G, G * items
    sdim = 2 if rows else 1
    args = ["n", "K", "S"]
    params = [Param("scalar", _I64), Param("scalar", _I64), Param("array", dt, sdim, "C")]
    if mode == "count":
        args.append("cnt")
        params.append(Param("array", _I32, 1, "C"))
    else:
        args.append("offs")
        params.append(Param("array", _I32 if offsets == "local" else _I64, 1, "C"))
        if "indices" in outs or "inverse" in outs:
            args.append("perm")
            params.append(Param("array", _I64, 1, "C"))
        for o in outs:
            args.append(o)
            params.append(Param("array", dt if o == "values" else _I64,
                                sdim if o == "values" else 1, "C"))
        if offsets == "single" and "starts" in outs:
            args.append("counts")
            params.append(Param("array", _I64, 1, "C"))
    L = [f"def KERNEL({', '.join(args)}):",
         "    t = int64(cuda.threadIdx.x)"]
    if sim:
        L += ["    lane = t", "    g = int64(cuda.blockIdx.x)",
              f"    sa = cuda.shared.array({block}, int32)",
              f"    sb = cuda.shared.array({block}, int32)"]
    else:
        # a group returns as a whole (no barrier follows)
        L += ["    lane = t & 31", f"    g = int64(cuda.blockIdx.x) * {nw} + (t >> 5)",
              "    lt = (uint32(1) << uint32(lane)) - uint32(1)"]
    L += [f"    base = g * {wt}"]
    if not sim:
        L += ["    if base >= n:", "        return"]
    pm = mode == "scatter" and ("indices" in outs or "inverse" in outs)

    def each(P, k, j, f, a, guarded):
        """Lines for flag ``f`` of element ``j`` (its key ``a``, or None: read ``S``)."""
        if mode == "count":
            if sim:
                return [f"{P}c += int32(cuda.syncthreads_count(int32({f})))"]
            return [f"{P}c += int32({f})"]
        E = ([] if f == "f" else [f"{P}f = {f}"]) + _round_rank(P, block, sim)
        E += [f"{P}q = p + r", f"{P}if f:"]
        Q = P + "    "
        perm_j = f"pm{k}" if a is not None else f"perm[{j}]"
        if "values" in outs:
            if rows:
                E += [f"{Q}for cc in range(S.shape[1]):", f"{Q}    values[q, cc] = S[{j}, cc]"]
            else:
                E.append(f"{Q}values[q] = {a if a is not None else f'S[{j}]'}")
        if "indices" in outs:
            E.append(f"{Q}indices[q] = {perm_j}")
        if "starts" in outs:
            E.append(f"{Q}starts[q] = {j}")
        if "inverse" in outs:
            if guarded:
                E += [f"{P}if {j} < n:", f"{Q}inverse[{perm_j}] = q if f else q - 1"]
            else:
                E.append(f"{P}inverse[{perm_j}] = q if f else q - 1")
        if "starts" in outs:
            # the end of the last run (single: the runs so far are the number of runs)
            E += [f"{P}if {j} == n - 1:",
                  f"{Q}starts[{'p + tot' if offsets == 'single' else 'K'}] = n"]
        return E + [f"{P}p += tot"]

    if mode == "count":
        L.append("    c = int32(0)")
    elif offsets == "local":
        L += ["    p = int64(0)", "    h = int64(0)", "    while h < g:",
              "        p += int64(offs[h])", "        h += 1"]
    elif offsets == "single":
        L.append("    p = int64(0)")
    else:
        L += ["    p = int64(0)", "    if g > 0:", "        p = offs[g - 1]"]
    # a partial tile (and rows): a loop of guarded rounds
    loop = ["    else:" if not rows else "    if base < n:",
            f"        for k in range({items}):",
            f"            j = base + k * {G} + lane",
            "            f = False",
            "            if j < n:",
            "                f = j == 0 or differ(S, j - 1, j)"]
    loop += each("            ", "", "j", "f", None, True)
    if not rows:
        # a full tile: every load first (unrolled), then the flags
        L.append(f"    if base + {wt} <= n:")
        P = "        "
        for k in range(items):
            L.append(f"{P}j{k} = base + {k * G} + lane")
        for k in range(items):
            prev = "j0 - 1 if j0 > 0 else j0" if k == 0 else f"j{k} - 1"
            L += [f"{P}a{k} = S[j{k}]", f"{P}b{k} = S[{prev}]"]
            if pm:
                L.append(f"{P}pm{k} = perm[j{k}]")
        for k in range(items):
            f = f"j{k} == 0 or dv(b{k}, a{k})" if k == 0 else f"dv(b{k}, a{k})"
            L += each(P, k, f"j{k}", f"({f})", f"a{k}", False)
    L += loop
    if mode == "count":
        if not sim:
            L += ["    for o in (16, 8, 4, 2, 1):",
                  "        c += cuda.shfl_xor_sync(0xFFFFFFFF, c, o)"]
        L += ["    if lane == 0:", "        cnt[g] = c"]
    elif offsets == "single":
        # every lane's p is the number of runs; the group's starts are written and visible to
        # it after the barrier (GPU: the warp's; the simulator's group is the block)
        L += ["    if lane == 0:", "        offs[0] = p"]
        if "starts" in outs:
            L += ["    cuda.syncthreads()" if sim else "    cuda.syncwarp(0xFFFFFFFF)",
                  "    q = lane", "    while q < p:",
                  "        counts[q] = starts[q + 1] - starts[q]", f"        q += {G}"]
    text = ("@cuda.jit(device=True)\n" + _differ_source(dt, rows, equal_nan) + "\n\n"
            + "\n".join(L) + "\n")
    name = _ew._kernel_name(f"unique_{mode}", text)
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _arr(x):
    return _ew._arr_values(x._ptr, x.shape, x._strides, x.itemsize)


def _kernel(mode, S, equal_nan, outs, offsets="scan"):
    rows = S.ndim == 2
    key = ("unique_runs", mode, S.dtype, rows, equal_nan and not rows, outs, BLOCK, ITEMS,
           offsets)
    return compiler.get_kernel(key, lambda: _render(mode, S.dtype, rows, key[4], outs,
                                                    offsets=offsets))


class Runs(NamedTuple):
    """The run-length encoding of sorted keys: ``values`` (one key or row per run, or None),
    ``indices`` (``perm`` at each run's start), ``inverse`` (each element's run number, in the
    order ``perm`` maps back to), ``counts`` (each run's length); the ones not asked for None."""
    values: ndarray
    indices: ndarray
    inverse: ndarray
    counts: ndarray


def runs(S, perm=None, *, equal_nan=False, values=True, indices=False, inverse=False,
         counts=False):
    """Run-length encode ``S`` (C-contiguous, 1-d keys or 2-d rows, sorted so that equal keys
    are adjacent).  ``perm`` (int64, C-contiguous, ``S = a[perm]``) is needed for ``indices``
    and ``inverse``.  Launches: the count kernel, a cumsum of the tile counts, one 8-byte read,
    the scatter kernel (and one subtraction for ``counts``)."""
    n = S.shape[0]
    want = (values, indices, counts, inverse)
    outs = _OUTS.get(want)
    if outs is None:
        outs = _OUTS[want] = tuple(o for o, w in zip(OUTPUTS, want) if w)
    G = _group(BLOCK, _backend.IS_SIM)
    ntile = -(-n // (G * ITEMS))            # one a group
    if TINY and ntile == 1 and S.ndim == 1:
        return _runs_single(S, perm, equal_nan, outs)
    offsets = "scan"
    if n == 0:
        K = 0
    else:
        grid = -(-ntile // (BLOCK // G))
        cnt = empty_array((ntile,), _I32)
        sv = _arr(S)
        _kernel("count", S, equal_nan, ())(grid, BLOCK, [n, 0, *sv, 0, 0, ntile, 4, cnt._ptr,
                                                         ntile, 4])
        if TINY and ntile <= LOCAL_TILES:
            # few tiles: their counts to the host (the total), each group adds up the counts
            # before its own; no scan launch
            offsets = "local"
            host = _pinned_counts()
            _transfer._d2h(host, cnt._ptr, 4 * ntile)
            K = sum(host[:ntile].tolist())
            offs = cnt
        else:
            from ..reductions.functions import cumsum
            offs = cumsum(cnt, dtype=_I64)
            K = read_word(offs._ptr + (ntile - 1) * 8)
    vo = io = so = vi = None
    if values:
        vo = empty_array((K,) + S.shape[1:], S.dtype)
    if indices:
        io = empty_array((K,), _I64)
    if counts:
        so = empty_array((K + 1,), _I64)
    if inverse:
        vi = empty_array((n,), _I64)
    if n:
        vals = [n, K, *sv, *_arr(offs)]
        if indices or inverse:
            vals += _arr(perm)
        for o in (vo, io, so, vi):
            if o is not None:
                vals += _arr(o)
        _kernel("scatter", S, equal_nan, outs, offsets)(grid, BLOCK, vals)
    cts = None
    if counts:
        # starts[1:] - starts[:-1], the views made directly (no index parsing)
        cts = UFUNCS["subtract"](so._view(8, (K,), (8,)), so._view(0, (K,), (8,))) if K \
            else empty_array((0,), _I64)
    return Runs(vo, io, vi, cts)


def _runs_single(S, perm, equal_nan, outs):
    """:func:`runs` of 1-d keys that fill one tile: one scatter kernel into outputs sized for
    ``n`` runs, which writes the number of runs ``K`` (one read) and the run lengths; the
    results are the first ``K`` of each (arrays of their own over the larger allocations)."""
    n = S.shape[0]
    tot = empty_array((1,), _I64)
    res = []
    vals = [n, 0, *_arr(S), *_arr(tot)]
    if "indices" in outs or "inverse" in outs:
        vals += _arr(perm)
    names = outs + (("counts",) if "starts" in outs else ())
    for o in names:
        r = empty_array((n + (o == "starts"),), S.dtype if o == "values" else _I64)
        res.append(r)
        vals += _arr(r)
    _kernel("scatter", S, equal_nan, outs, "single")(1, BLOCK, vals)
    K = read_word(tot._ptr)
    got = dict(zip(names, res))
    return Runs(*[None if o not in got else got[o] if o == "inverse" else _first(got[o], K)
                  for o in ("values", "indices", "inverse", "counts")])


def _first(a, K):
    """The first ``K`` elements of 1-d ``a`` (C-contiguous) as an array of its own."""
    if K == a.shape[0]:
        return a
    return _new(a._mem, a._ptr, (K,), a._strides, a.dtype, None, (True, True))


_OUTS = {}


class _Pinned(threading.local):
    def __init__(self):
        self.counts = None


_pinned = _Pinned()


def _pinned_counts():
    """This thread's page-locked buffer of LOCAL_TILES int32 tile counts."""
    buf = _pinned.counts
    if buf is None:
        from ..cuda.memory import pinned_empty
        buf = _pinned.counts = pinned_empty(LOCAL_TILES, _I32)
    return buf


# ---- the sort this module stands on -----------------------------------------------------------
def _sort(a):
    """``a`` flattened and sorted (NaN last, stable), C-contiguous."""
    from .functions import sort
    return _contig(sort(a, axis=None))


def _argsort(a):
    """Stable argsort of ``a`` flattened: int64, C-contiguous."""
    from .functions import argsort
    return _contig(argsort(a, axis=None))


def _contig(x):
    if x._c_contig:
        return x
    from ..creation import ascontiguousarray
    return ascontiguousarray(x)


def _take(a, perm, axis=None):
    """``a[perm]`` (along ``axis``); ``perm`` is a permutation: no bounds check (no read)."""
    from ..indexing.routines import take
    return _contig(take(a, perm, axis=axis, mode="clip"))


def _device(a):
    from ..creation import asarray
    return a if isinstance(a, ndarray) else asarray(a)


# ---- unique --------------------------------------------------------------------------------------
class UniqueAllResult(NamedTuple):
    values: ndarray
    indices: ndarray
    inverse_indices: ndarray
    counts: ndarray


class UniqueCountsResult(NamedTuple):
    values: ndarray
    counts: ndarray


class UniqueInverseResult(NamedTuple):
    values: ndarray
    inverse_indices: ndarray


# Integer (and bool) keys of at least RANGE_MIN elements, values alone: their range first, from
# the dtype (8 and 16 bits) or one min/max pass; a range of at most presence.MAX_SPAN values
# (or, with NPGPU_UNIQUE_BITMAP_WIDE=1, up to 8 values an element: presence.takes) takes a
# bitmap of it instead of a sort (NPGPU_UNIQUE_BITMAP=0: never).  Measured on the H200
# (2^24 int32): 2^16 distinct values 255-324 us by the bitmap against 645 us by the sort; a wider
# range pays the min/max pass (58 us with its read back) before the sort.  A radix sort of only
# the key bits the range spans was measured too and not kept: three 8-bit CUB passes for keys in
# [0, 2^24) took 509 us against 480 for four (a pass whose keys share one digit is cheap).
UNIQUE_BITMAP = os.environ.get("NPGPU_UNIQUE_BITMAP", "1") == "1"
RANGE_MIN = 16 if _backend.IS_SIM else 1 << 14


def _int_range(x):
    """``(lo, hi)`` bounding the values of 1-d integer or bool ``x`` (bool as uint8), or None
    (other dtypes, too few elements)."""
    dt = x.dtype
    if dt.kind not in "iub" or x.shape[0] < RANGE_MIN:
        return None
    from .counting import minmax
    if dt.itemsize <= 2:
        info = np.iinfo(np.uint8 if dt.kind == "b" else dt)
        return info.min, info.max
    return tuple(int(v) for v in minmax(x))


def _unique_keys(flat, return_index, return_inverse, return_counts, equal_nan):
    """(values, indices, inverse, counts) of a 1-d array; the ones not asked for None."""
    x = _contig(flat)
    if TINY:
        r = _block.unique(x, x._shape, bool(return_index), bool(return_inverse),
                          bool(return_counts), bool(equal_nan))
        if r is not None:
            return Runs(*r)
    dt = x.dtype
    if dt.kind == "b":
        x = x.view(np.uint8)
    rng = None
    if UNIQUE_BITMAP and not (return_index or return_inverse or return_counts):
        rng = _int_range(x)
    if rng is not None and presence.takes(rng[1] - rng[0] + 1, x.shape[0]):
        values = presence.present_values(x, rng[0], rng[1] - rng[0] + 1)
        return Runs(values.view(dt), None, None, None)
    if return_index or return_inverse:
        perm = _contig(_fn.permutation(x))
        S = _take(flat, perm)
    else:
        S = _fn.sorted_values(x)
        perm, S = None, S if S.dtype == dt else S.view(dt)
    return runs(S, perm, equal_nan=equal_nan and S.dtype.kind in "fc", indices=return_index,
                inverse=return_inverse, counts=return_counts)


def _row_order(A):
    """Stable lexicographic argsort of the rows of 2-d ``A``, the first column most
    significant: one ``lexsort`` of the columns (whose last key is the primary one)."""
    from ..ranges import arange
    from .functions import lexsort
    n, m = A.shape
    if m == 0:
        return arange(n, dtype=_I64)
    if A.dtype == np.float16:
        # NumPy compares float16 rows (as structured fields) with NaN below every number:
        # each column is keyed by "not NaN" first, then by its value
        keys = []
        for c in range(m - 1, -1, -1):
            keys += [A[:, c], UFUNCS["logical_not"](UFUNCS["isnan"](A[:, c]))]
        return _contig(lexsort(keys))
    return _contig(lexsort([A[:, c] for c in range(m - 1, -1, -1)]))


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """NumPy's ``unique``.  The values are always sorted (``sorted=False`` allows any order);
    ``indices`` are first occurrences (the argsort is stable)."""
    if (TINY and axis is None and ar.__class__ is ndarray and ar._c_contig
            and return_index.__class__ is bool and return_inverse.__class__ is bool
            and return_counts.__class__ is bool and equal_nan.__class__ is bool):
        # a short array: sorted and encoded by one kernel where it lies
        r = _block.unique(ar, ar._shape, return_index, return_inverse, return_counts,
                          equal_nan)
        if r is not None:
            if not (return_index or return_inverse or return_counts):
                return r[0]
            return tuple([x for x in r if x is not None])
    ar = _device(ar)
    if axis is None or ar.ndim == 1:
        if axis is not None:
            normalize_axis_index(axis, ar.ndim)
        r = _unique_keys(ar if ar.ndim == 1 else ar.reshape(-1), return_index, return_inverse,
                         return_counts, equal_nan)
        values = r.values
        inverse = r.inverse.reshape(ar.shape) if return_inverse else None
    else:
        from ..manipulation import moveaxis
        try:
            # NumPy's errors for the axis: its moveaxis (on a zero-stride host stand-in), then
            # its list indexing by the axis (a tuple or list is refused there)
            np.moveaxis(np.broadcast_to(np.zeros((), np.int8), ar.shape), axis, 0)
            _ = ([0] * ar.ndim)[axis]
            a = moveaxis(ar, axis, 0)
        except np.exceptions.AxisError:
            raise np.exceptions.AxisError(axis, ar.ndim) from None
        axis = normalize_axis_index(axis, ar.ndim)
        rest = a.shape[1:]
        A = _contig(a.reshape(a.shape[0], int(np.prod(rest, dtype=np.int64))))
        perm = _row_order(A)
        r = runs(_take(A, perm, axis=0), perm, indices=return_index, inverse=return_inverse,
                 counts=return_counts)
        values = moveaxis(r.values.reshape((r.values.shape[0],) + rest), 0, axis)
        inverse = r.inverse
    out = (values,)
    if return_index:
        out += (r.indices,)
    if return_inverse:
        out += (inverse,)
    if return_counts:
        out += (r.counts,)
    return out[0] if len(out) == 1 else out


def unique_values(x, /):
    return unique(x, equal_nan=False, sorted=False)


def unique_counts(x, /):
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False, sorted=False))


def unique_inverse(x, /):
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False, sorted=False))


def unique_all(x, /):
    return UniqueAllResult(*unique(x, return_index=True, return_inverse=True,
                                   return_counts=True, equal_nan=False, sorted=False))


# ---- isin ----------------------------------------------------------------------------------
def _searchsorted(keys, v):
    from .searching import searchsorted
    return searchsorted(keys, v, side="left")


def _as(x, dt):
    return x if x.dtype == dt else x.astype(dt)


def _isin_sort(x, t, invert):
    """Sort ``t`` (``x``'s dtype), binary-search every ``x``: found where the key at the left
    insertion point equals ``x`` (past the end the last key, smaller than ``x``, is read)."""
    T = _sort(t)
    hit = _take(T, _searchsorted(T, x))
    return UFUNCS["not_equal" if invert else "equal"](hit, x)


def _isin_table(x, t, lo, hi, invert):
    """NumPy's ``kind='table'``: one boolean per value in ``[lo, hi]``, set at ``t - lo``."""
    from ..creation import full
    from ..logic import where
    try:
        table = full((hi - lo + 1,), invert, dtype=_BOOL)
    except MemoryError:         # (too large a range for the device): NumPy's error
        raise _memory_error(hi - lo + 1) from None
    table[UFUNCS["subtract"](_as(t, _I64), lo)] = not invert
    xi = _as(x, _I64)
    inside = UFUNCS["logical_and"](UFUNCS["greater_equal"](xi, lo),
                                   UFUNCS["less_equal"](xi, hi))
    got = _take(table, where(inside, UFUNCS["subtract"](xi, lo), 0))
    return where(inside, got, invert)


def _table_fits(n):
    """Allocate (and free) a table of ``n`` booleans as NumPy's kind='table' would:
    ValueError past the largest dimension, MemoryError where the device has too little."""
    if n > np.iinfo(np.intp).max:
        raise ValueError("Maximum allowed dimension exceeded")
    from .._core.ndarray import empty_array
    try:
        empty_array((n,), _BOOL)
    except (ValueError, MemoryError):   # (more than the device holds): NumPy's error
        raise _memory_error(n) from None


def _memory_error(n):
    """NumPy's MemoryError for a table of ``n`` booleans."""
    try:
        from numpy._core._exceptions import _ArrayMemoryError
    except ImportError:
        return MemoryError(f"Unable to allocate {n} bytes for an array with shape ({n},) "
                           "and data type bool")
    return _ArrayMemoryError((n,), np.dtype(bool))


def _isin(ar1, ar2, assume_unique=False, invert=False, *, kind=None):
    """``isin`` of the flattened ``ar1`` (1-d bool); ``assume_unique`` changes nothing here."""
    from ..reductions.functions import max as _max, min as _min
    x, t = _device(ar1).reshape(-1), _device(ar2).reshape(-1)
    if kind not in {None, "sort", "table"}:
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    ints = all(a.dtype.kind in "uib" for a in (x, t))
    if kind == "table" and not ints:
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    if t.size == 0 or x.size == 0:
        from ..creation import full
        return full((x.size,), invert, dtype=_BOOL)
    wide = np.uint64 in (x.dtype, t.dtype)
    if ints and kind != "sort" and (kind == "table" or not wide):
        # NumPy's choice (the result is the same either way): a table no larger than six
        # times both inputs, or any table when asked for (two 8-byte reads: min and max)
        lo, hi = int(_min(t).get()), int(_max(t).get())
        tdt = np.dtype(np.uint8) if t.dtype == _BOOL else t.dtype
        if hi - lo <= np.iinfo(tdt).max:
            if kind == "table" or hi - lo <= 6 * (x.size + t.size):
                if not wide:
                    return _isin_table(x, t, lo, hi, invert)
                # uint64 values (beyond the int64 table arithmetic): NumPy's table allocation
                # and its errors, the result then by sorting (the same)
                _table_fits(hi - lo + 1)
        elif kind == "table":
            raise RuntimeError("You have specified kind='table', but the range of values in "
                               "`ar2` or `ar1` exceed the maximum integer of the datatype. "
                               "Please set `kind` to None or 'sort'.")
    dt = np.result_type(x.dtype, t.dtype)
    return _isin_sort(_as(x, dt), _as(t, dt), invert)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """NumPy's ``isin``: ``element in test_elements``, shaped like ``element``."""
    element = _device(element)
    return _isin(element, test_elements, assume_unique, invert, kind=kind).reshape(
        element.shape)


# ---- two-array set functions ---------------------------------------------------------------------
def _concat(a, b):
    from ..manipulation import concatenate
    return concatenate((_device(a), _device(b)), axis=None)


def _select(src, flags):
    from ..indexing.compaction import select_values
    return select_values(src, flags)


def _ravel(a):
    return _device(a).reshape(-1)


def union1d(ar1, ar2):
    """NumPy's ``union1d``: the sorted unique values in either array."""
    return unique(_concat(ar1, ar2))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """NumPy's ``intersect1d``: sorted values in both; with ``return_indices`` the first
    occurrences of them in each (of the unique values' positions when ``assume_unique``)."""
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = _ravel(ar1), _ravel(ar2)
    aux = _concat(ar1, ar2)
    if return_indices:
        order = _argsort(aux)
        aux = _take(aux, order)
    else:
        aux = _sort(aux)
    mask = UFUNCS["equal"](aux[1:], aux[:-1])
    int1d = _select(aux[:-1], mask)
    if not return_indices:
        return int1d
    i1 = _select(order[:-1], mask)
    i2 = UFUNCS["subtract"](_select(order[1:], mask), ar1.size)
    if not assume_unique:
        i1, i2 = _take(ind1, i1), _take(ind2, i2)
    return int1d, i1, i2


def setxor1d(ar1, ar2, assume_unique=False):
    """NumPy's ``setxor1d``: sorted unique values in exactly one of the arrays."""
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = _concat(ar1, ar2)
    if aux.size == 0:
        return aux
    aux = _sort(aux)
    # aux[i] is alone when it differs from both neighbours (the ends have one)
    flag = empty_array((aux.size + 1,), _BOOL)
    flag[0] = True
    flag[-1] = True
    UFUNCS["not_equal"](aux[1:], aux[:-1], out=flag[1:-1])
    return _select(aux, UFUNCS["logical_and"](flag[1:], flag[:-1]))


def setdiff1d(ar1, ar2, assume_unique=False):
    """NumPy's ``setdiff1d``: unique values of ``ar1`` not in ``ar2`` (with ``assume_unique``,
    ``ar1``'s values in their order)."""
    if assume_unique:
        ar1 = _ravel(ar1)
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return _select(ar1, _isin(ar1, ar2, assume_unique=True, invert=True))
