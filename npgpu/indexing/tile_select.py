"""Mask select in three launches and 1 + 1 + 4 + 4·(selected) bytes an element (float32): the
path of ``a[mask]`` and ``flatnonzero`` when the mask covers C-contiguous data.

The general compaction (``compaction.py``) scans the flags into int32 ranks, writing and then
reading 4 more bytes an element.  Here only per-tile counts are stored:

1. ``count``: one block per tile of :data:`TILE` flags counts its set flags (8 flags a load:
   a bool is one byte, 0 or 1, so ``popc`` of a uint64 word counts eight) into ``C[tile]``;
2. ``R = cumsum(C)`` (the existing scan, over ``m / TILE`` entries) and one read of ``R[-1]``,
   the output's size (into a page-locked word: ``host_signal.read_word``);
3. ``scatter``: each block re-reads its tile's flags, scans its threads' counts in shared
   memory, and writes the selected elements (or their indices) from ``R[tile] - C[tile]`` on.

A thread owns :data:`GROUPS` runs of 8 consecutive flags, ``GROUP_SPAN`` apart, so every flag
load of a warp is one contiguous 256-byte line; its four run counts are packed into 16-bit
fields of one uint64, and one shared-memory scan of those words ranks all four groups at once.
The scatter then walks the tile in element order (:func:`_ordered_lines`), so both its loads
and its stores are coalesced; rows of more than one element (``a[mask]`` over leading axes)
are written run by run by the thread that owns the run.
"""
import os

import numpy as np

from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core.host_signal import read_word
from .._core.ndarray import empty_array

BLOCK = 4 if _ew._SIM else 256        # threads a block (the simulator: a few, so scans loop)
GROUPS = 4                            # runs of 8 flags a thread
GROUP_SPAN = BLOCK * 8                # flags between a thread's runs
TILE = GROUPS * GROUP_SPAN            # flags a block
# blocks an SM must fit (NVVM launch bounds, capping registers) for the scatter: the H200's
# Nsight Compute run found it at 89 registers, 2 blocks (25% occupancy) without bounds; with 4
# a[mask] of 2^26 float32 took 435 us against 449 (radix_knobs.py, 2026-12-01; knob
# NPGPU_TILE_SELECT_MINBLOCKS)
MIN_BLOCKS = int(os.environ.get("NPGPU_TILE_SELECT_MINBLOCKS", "4"))
_I32, _I64, _U64 = np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.uint64)
_BOOL = np.dtype(np.bool_)


def _words(indent):
    """Lines loading the thread's GROUPS flag words w0.. (8 flags each; partial tiles bytewise)."""
    p = " " * indent
    L = [f"{p}t = cuda.threadIdx.x", f"{p}tile = int64(cuda.blockIdx.x) * {TILE}",
         f"{p}if tile + {TILE} <= n:"]
    L += [f"{p}    w{k} = FW[(tile + {k * GROUP_SPAN}) // 8 + t]" for k in range(GROUPS)]
    L.append(f"{p}else:")
    for k in range(GROUPS):
        L += [f"{p}    w{k} = uint64(0)", f"{p}    for j in range(8):",
              f"{p}        e = tile + {k * GROUP_SPAN} + t * 8 + j",
              f"{p}        if e < n and F[e]:", f"{p}            w{k} |= uint64(1) << uint64(8 * j)"]
    return L


def _render(mode, dt, inner):
    """``count``: C[tile] = set flags of the tile.  ``values``/``index``: the scatter (step 3)."""
    args = ["n", "F", "FW", "C"]
    params = [Param("scalar", _I64), Param("array", _BOOL, 1, "C"), Param("array", _U64, 1, "C"),
              Param("array", _I64, 1, "C")]
    L = []
    if mode == "count":
        L += ["    tot = cuda.shared.array(1, int64)", "    if cuda.threadIdx.x == 0:",
              "        tot[0] = 0", "    cuda.syncthreads()"]
        L += _words(4)
        L.append("    c = int32(" + " + ".join(f"cuda.popc(w{k})" for k in range(GROUPS)) + ")")
        if _ew._SIM:
            L.append("    cuda.atomic.add(tot, 0, int64(c))")
        else:
            # a warp's sum first: one shared atomic a warp, not 256 on one address a block
            L += ["    for s in range(5):",
                  "        c += cuda.shfl_down_sync(0xffffffff, c, 16 >> s)",
                  "    if (t & 31) == 0:", "        cuda.atomic.add(tot, 0, int64(c))"]
        L += ["    cuda.syncthreads()",
              "    if t == 0:", "        C[cuda.blockIdx.x] = tot[0]"]
    elif mode == "index" or inner == 1:
        L += _ordered_lines(mode, dt)
        args += ["R", "Y"] + (["X"] if mode == "values" else [])
        params += [Param("array", _I64, 1, "C"), Param("array", dt, 2 if mode == "values" else 1,
                                                       "C")]
        if mode == "values":
            params.append(Param("array", dt, 2, "C"))
    else:
        args += ["R", "Y", "X"]
        params += [Param("array", _I64, 1, "C"), Param("array", dt, 2, "C"),
                   Param("array", dt, 2, "C")]
        L += [f"    sh = cuda.shared.array({BLOCK}, uint64)"]
        L += _words(4)
        L += _scan_lines()
        L += ["    b = cuda.blockIdx.x", "    pos = R[b] - C[b]"]
        # rows of ``inner`` elements: each thread writes its own runs' rows
        for k in range(GROUPS):
            L += [f"    q = pos + int64((excl >> uint64({16 * k})) & uint64(0xffff))",
                  f"    e0 = tile + {k * GROUP_SPAN} + t * 8",
                  "    for j in range(8):",
                  f"        if (w{k} >> uint64(8 * j)) & uint64(1):",
                  f"            for r in range({inner}):",
                  "                Y[q, r] = X[e0 + j, r]",
                  "            q += 1",
                  f"    pos += int64((total >> uint64({16 * k})) & uint64(0xffff))"]
    text = f"def KERNEL({', '.join(args)}):\n" + "\n".join(L) + "\n"
    name = _ew._kernel_name(f"tile_{mode}", text)
    bounds = (BLOCK, MIN_BLOCKS) if MIN_BLOCKS and mode != "count" and not _ew._SIM else None
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params, bounds)


def _scan_lines():
    """Lines scanning the threads' packed run counts ``mine`` (one 16-bit field per group) into
    ``sh`` (inclusive, Hillis-Steele; no field exceeds TILE / GROUPS) and setting ``excl`` (the
    thread's exclusive prefix) and ``total`` (the tile's counts)."""
    return ["    mine = " + " | ".join(f"(uint64(cuda.popc(w{k})) << uint64({16 * k}))"
                                      for k in range(GROUPS)),
            "    sh[t] = mine", "    cuda.syncthreads()", "    off = 1",
            f"    while off < {BLOCK}:", "        v = sh[t]", "        if t >= off:",
            "            v += sh[t - off]", "        cuda.syncthreads()", "        sh[t] = v",
            "        cuda.syncthreads()", "        off *= 2",
            "    excl = sh[t] - mine", f"    total = sh[{BLOCK - 1}]"]


def _ordered_lines(mode, dt):
    """The scatter with coalesced loads and stores: the flag words and the threads' exclusive
    prefixes go to shared memory, then the block walks its tile in rounds of 8 x BLOCK
    elements (thread t takes elements t, t + BLOCK, ...), so a warp loads 32 consecutive
    elements and its selected ones land at consecutive output positions.  Round ``ib`` covers
    exactly group ``ib`` (GROUP_SPAN = 8 x BLOCK).  An element's position: the group's start
    + the prefix of the thread owning its run of 8 flags + the set flags below it in that run.
    A thread loads its selected elements of a round (up to 8, independent predicated loads, so
    a sparse mask reads only what it selects) before any store."""
    L = [f"    sh = cuda.shared.array({BLOCK}, uint64)",
         f"    ws = cuda.shared.array({GROUPS * BLOCK}, uint64)",
         f"    ex = cuda.shared.array({BLOCK}, uint64)"]
    L += _words(4)
    L += [f"    ws[{k * BLOCK} + t] = w{k}" for k in range(GROUPS)]
    L += _scan_lines()
    L += ["    ex[t] = excl", "    cuda.syncthreads()",
          "    b = cuda.blockIdx.x", "    pos = R[b] - C[b]"]
    L += [f"    for ib in range({GROUPS}):", "        fl = cuda.local.array(8, uint64)"]
    if mode == "values":
        L.append(f"        xs = cuda.local.array(8, {_ew.type_name(dt)})")
    L += ["        for u in range(8):",
          f"            lel = u * {BLOCK} + t",
          f"            w = ws[ib * {BLOCK} + (lel >> 3)]",
          "            fl[u] = (w >> (uint64(lel & 7) * uint64(8))) & uint64(1)"]
    if mode == "values":
        L += ["            if fl[u] != uint64(0):",
              f"                xs[u] = X[tile + ib * {GROUP_SPAN} + lel, 0]"]
    L += ["        for u in range(8):",
          "            if fl[u] != uint64(0):",
          f"                lel = u * {BLOCK} + t",
          f"                w = ws[ib * {BLOCK} + (lel >> 3)]",
          "                below = w & ((uint64(1) << (uint64(lel & 7) * uint64(8))) - uint64(1))",
          "                e = (ex[lel >> 3] >> (uint64(16) * uint64(ib))) & uint64(0xffff)",
          "                q = pos + int64(e) + int64(cuda.popc(below))",
          "                Y[q, 0] = xs[u]" if mode == "values" else
          f"                Y[q] = tile + ib * {GROUP_SPAN} + lel",
          "        pos += int64((total >> (uint64(16) * uint64(ib))) & uint64(0xffff))"]
    return L


def _kernel(mode, dt=None, inner=1):
    key = ("tile_select", mode, dt, inner if mode == "values" else 0, BLOCK, GROUPS)
    return compiler.get_kernel(key, lambda: _render(mode, dt, inner))


def _arr(x, shape=None):
    shape = shape or x.shape
    strides, s = [], x.itemsize
    for d in reversed(shape):
        strides.append(s)
        s *= d
    return [0, 0, x.size, x.itemsize, x._ptr, *shape, *reversed(strides)]


def applies(flags, src=None):
    """Does the tile path take these flags (C-contiguous bool, 8-byte aligned) and data (None
    or C-contiguous, the flags over its leading axes, at most 2^31 - 1 flags)?"""
    return (flags.dtype == _BOOL and flags._c_contig and not flags._ptr & 7
            and 0 < flags.size < 2 ** 31 and (src is None or src._c_contig))


def count(flags):
    """(per-tile counts C, their inclusive scan R, the total) of C-contiguous bool ``flags``."""
    from ..reductions.functions import cumsum
    m = flags.size
    tiles = -(-m // TILE)
    c = empty_array((tiles,), _I64)
    _kernel("count")(tiles, BLOCK, _flag_args(flags) + _arr(c))
    r = cumsum(c)
    return c, r, read_word(r._ptr + (tiles - 1) * 8)


def select(src, flags, post):
    """The rows of ``src`` (C-contiguous, ``flags.size`` rows of shape ``post``) where ``flags``
    is set: a new array of shape ``(count,) + post``."""
    c, r, total = count(flags)
    m = flags.size
    inner = int(np.prod(post, dtype=np.int64))
    out = empty_array((total,) + tuple(post), src.dtype)
    if total and inner:
        args = _flag_args(flags) + _arr(c) + _arr(r) + _arr(out, (total, inner))
        args += _arr(src, (m, inner))
        _kernel("values", src.dtype, inner)(c.size, BLOCK, args)
    return out


def indices(flags):
    """int64 C-order linear indices of the set ``flags`` (``flatnonzero``)."""
    c, r, total = count(flags)
    out = empty_array((total,), _I64)
    if total:
        _kernel("index", _I64)(c.size, BLOCK, _flag_args(flags) + _arr(c) + _arr(r) + _arr(out))
    return out


def _flag_args(flags):
    """n, the flags as bytes and as uint64 words (eight flags each; a partial word is read
    bytewise)."""
    m = flags.size
    return [m] + _arr(flags, (m,)) + [0, 0, m // 8, 8, flags._ptr, m // 8, 8]
