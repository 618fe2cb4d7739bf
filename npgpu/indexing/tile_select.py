"""Mask select in three launches and 1 + 1 + 4 + 4·(selected) bytes an element (float32): the
path of ``a[mask]`` and ``flatnonzero`` when the mask covers C-contiguous data.

The general compaction (``compaction.py``) scans the flags into int32 ranks, writing and then
reading 4 more bytes an element.  Here only per-tile counts are stored:

1. ``count``: one block per tile of :data:`TILE` flags counts its set flags (8 flags a load:
   a bool is one byte, 0 or 1, so ``popc`` of a uint64 word counts eight) into ``C[tile]``;
2. ``R = cumsum(C)`` (the existing scan, over ``m / TILE`` entries) and one read of ``R[-1]``,
   the output's size;
3. ``scatter``: each block re-reads its tile's flags, scans its threads' counts in shared
   memory, and writes the selected elements (or their indices) from ``R[tile] - C[tile]`` on.

A thread owns :data:`GROUPS` runs of 8 consecutive flags, ``GROUP_SPAN`` apart, so every flag
load of a warp is one contiguous 256-byte line; its four run counts are packed into 16-bit
fields of one uint64, and one shared-memory scan of those words ranks all four groups at once.
"""
import numpy as np

from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import transfer as _transfer
from .._core.ndarray import empty_array

BLOCK = 4 if _ew._SIM else 256        # threads a block (the simulator: a few, so scans loop)
GROUPS = 4                            # runs of 8 flags a thread
GROUP_SPAN = BLOCK * 8                # flags between a thread's runs
TILE = GROUPS * GROUP_SPAN            # flags a block
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
        L.append("    c = " + " + ".join(f"cuda.popc(w{k})" for k in range(GROUPS)))
        L += ["    cuda.atomic.add(tot, 0, int64(c))", "    cuda.syncthreads()",
              "    if t == 0:", "        C[cuda.blockIdx.x] = tot[0]"]
    else:
        args += ["R", "Y"]
        params += [Param("array", _I64, 1, "C"), Param("array", dt, 2 if mode == "values" else 1,
                                                       "C")]
        if mode == "values":
            args.append("X")
            params.append(Param("array", dt, 2, "C"))
        L += [f"    sh = cuda.shared.array({BLOCK}, uint64)"]
        L += _words(4)
        L.append("    mine = " + " | ".join(f"(uint64(cuda.popc(w{k})) << uint64({16 * k}))"
                                             for k in range(GROUPS)))
        # inclusive Hillis-Steele scan of the packed counts (no field exceeds TILE / GROUPS)
        L += ["    sh[t] = mine", "    cuda.syncthreads()", "    off = 1",
              f"    while off < {BLOCK}:", "        v = sh[t]", "        if t >= off:",
              "            v += sh[t - off]", "        cuda.syncthreads()", "        sh[t] = v",
              "        cuda.syncthreads()", "        off *= 2",
              "    excl = sh[t] - mine", f"    total = sh[{BLOCK - 1}]",
              "    b = cuda.blockIdx.x", "    pos = R[b] - C[b]"]
        L.append(f"    full = tile + {TILE} <= n")
        for k in range(GROUPS):
            L += [f"    q = pos + int64((excl >> uint64({16 * k})) & uint64(0xffff))",
                  f"    e0 = tile + {k * GROUP_SPAN} + t * 8"]
            if mode == "values" and inner == 1:
                # a full tile loads its 8 elements before the stores that depend on the flags
                # (8 loads in flight, not 8 round trips one after another)
                L.append("    if full:")
                L += [f"        x{j} = X[e0 + {j}, 0]" for j in range(8)]
                for j in range(8):
                    L += [f"        if (w{k} >> uint64({8 * j})) & uint64(1):",
                          f"            Y[q, 0] = x{j}", "            q += 1"]
                L.append("    else:")
                ind = "    "
            else:
                ind = ""
            L += [f"{ind}    for j in range(8):",
                  f"{ind}        if (w{k} >> uint64(8 * j)) & uint64(1):"]
            if mode == "values":
                L += [f"{ind}            for r in range({inner}):" if inner > 1 else
                      f"{ind}            r = 0",
                      ("    " if inner > 1 else "") + f"{ind}            Y[q, r] = X[e0 + j, r]"]
            else:
                L.append(f"{ind}            Y[q] = e0 + j")
            L.append(f"{ind}            q += 1")
            L.append(f"    pos += int64((total >> uint64({16 * k})) & uint64(0xffff))")
    text = f"def KERNEL({', '.join(args)}):\n" + "\n".join(L) + "\n"
    name = _ew._kernel_name(f"tile_{mode}", text)
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


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
    host = np.empty(1, _I64)
    _transfer._d2h(host, r._ptr + (tiles - 1) * 8, 8)
    return c, r, int(host[0])


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
