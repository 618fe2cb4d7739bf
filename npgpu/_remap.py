"""One gather kernel for tile, repeat, roll, resize, insert/delete, pad and take along the last
axis: ``out[c] = a[j]``.

Each output axis ``d`` has an *axis map* ``j_d = f_d(c_d)`` from the output coordinate to the
source coordinate, and the element is loaded through the source's own strides (negative, zero
and non-contiguous strides included).  One kernel, one allocation, no temporary; the map kinds
are the rows of :data:`MAPS`.  A ``const`` map marks coordinates outside the source; the element
then takes a fill value (pad's ``constant`` mode: the last such axis picks the value, as NumPy's
axis-by-axis padding leaves it).

Two forms of the template:

* ``rows`` (the output's last axis at least :data:`ROWS_MIN` long): a block row of the grid
  covers a stretch of one output row; each thread maps its row once (unravel the row index over
  the outer axes, their maps, the source row's offset), then does several elements of the row
  with only the last axis's map per element -- coalesced, and with no division for the division
  -free maps (``id``, ``rot``, the single-reflection pad maps).  Rows of 4- and 1-byte elements
  of even length store two elements a word (``_ew._to_word``), and load a word where the two
  elements are neighbours in the source at an even offset (tile's rows, pad's interior).  A
  last-axis lookup (``table`` kinds: take, delete, insert) with a source row of at most
  :data:`STAGE_MAX` bytes stages the row in shared memory (a block a row), so the gather reads
  it from there and the source is read once, coalesced.
* ``indexed`` (:data:`INDEXED`, the default; NPGPU_REMAP_INDEXED=0: the stage above): a block maps its
  chunk of output columns once into a shared uint16 index beside the staged row and keeps it
  for every row it takes (a resident grid, each block every ``gridDim.y``-th row); rows are
  staged with 16-byte loads, the next row's in flight during the gather, and written in
  16-byte units.  Instead of an element's int64 index read from L2 on every row, behind the
  bounds record's atomic.  The block's quantities are uint32 and its array indices unsigned
  (64 bits only for rows' offsets in global memory): 1024 threads fit 32 registers.
* ``linear`` (short rows): a thread unravels each element's linear index over every axis.
"""
import os
import re

import numpy as np

from ._codegen import compiler
from ._codegen import elementwise as _ew
from ._codegen.compiler import KernelSource, Param
from ._core.call_cache import plain_key, store
from ._core.copy import extent
from ._core.ndarray import empty_array

_I64 = np.dtype(np.int64)
EPT = 4     # elements a thread (as the elementwise contiguous layout, whose tests chose 4)
# the rows form from output rows this long (shorter: the linear form); the simulator takes it
# from 8 so that the tests' small arrays run it
ROWS_MIN = 8 if _ew._SIM else 128
STAGE_MAX = 48 * 1024       # bytes of a source row the shared-memory stage takes (static limit)
_ROWS_BLOCK = 4 if _ew._SIM else 128
_ROWS_WORDS = 2             # words (two elements each) a thread of the rows form's word stores
# output rows a block row of the rows form's grid takes in turn (its column maps are computed
# once for all of them).  H200, remap_knobs.py: pad(8192^2, 64, 'reflect') 185 -> 149 us with 4
# (16: 155 us); roll, tile (one row) and take level
_ROWS_PER_BLOCK = 4
_STAGE_EPT = EPT            # source elements a thread loads at once into a shared-memory stage
_STAGE_BLOCK = 4 if _ew._SIM else 256
_GRID_Y = 2 if _ew._SIM else 65535
# The indexed form of the staged lookups (take, delete, insert, repeat's search):
# NPGPU_REMAP_INDEXED=1 maps a block's columns once into a shared uint16 index and stages each
# row with 16-byte loads, the next row's loads in flight during the gather, 16-byte stores
# (_render_indexed); 0: the rows form's stage (each element re-reads its int64 index from L2,
# 4-byte loads).  H200, take(8192^2 f32, perm, axis=1), benchmarks/run.py (2026-12-03): 239 us
# (53.9% of copy) with 0, 176 us (73.5%) with 1; the GPU's remap tests passed with both.
INDEXED = os.environ.get("NPGPU_REMAP_INDEXED", "1") == "1"
# The indexed form's launch shape for an A/B without editing code: NPGPU_REMAP_IDX="block,
# min_blocks,prefetch" sets _IDX_BLOCK, _IDX_MIN_BLOCKS, _IDX_PREFETCH below (fields left
# empty or out keep the shipped values; remap_knobs.py sets the attributes itself).  The
# kernel runs in uint32 for the block's quantities (_render_indexed): sm_90's ptxas fits
# 1024 threads with (1024, 2) launch bounds in 32 registers without spills, prefetch 2 or 1
# ("1024,2,2" / "1024,2,1"), where the int64 kernel spilled its prefetch registers
_IDX_ENV = [int(x) if x.strip() else None
            for x in os.environ.get("NPGPU_REMAP_IDX", "").split(",")] + [None] * 3
# threads a block (a constant of the kernel).  H200 2026-12-04, take(8192^2 f32, 8192 int64,
# axis=1), the uint32 kernel: remap_knobs.py (3 rounds) 512 threads 162.8 us, 1024 threads with
# (1024, 2) bounds 160.5 us (prefetch 1: 160.8); benchmarks/run.py in two processes 158 / 155 us
# (82.1 / 83.8% of copy); the remap tests passed on the GPU at both shapes
_IDX_BLOCK = 4 if _ew._SIM else 1024
# stage units (16 bytes or an element) of the next row a thread holds.  H200, remap_knobs.py
# --only=take with the "st" hint (2026-12-03, 3 rounds): 2 units 155.3 us (83.6% of copy), 4
# units 157.2 us (82.6%)
_IDX_PREFETCH = 2
_IDX_PER = 2            # output units a thread gathers a round
_IDX_MIN = 4 if _ew._SIM else 1024      # least columns of index a block's chunk must hold
# launch bounds' blocks an SM of the indexed form (0: 1024 threads' worth, 64 registers at 512
# threads); more blocks hold more rows in flight, in fewer registers.  H200, take(8192^2 f32,
# perm, axis=1) under Nsight Compute (2026-12-03): 56 registers, 2 blocks an SM (registers and
# the shared-memory carveout both at 2), 50% occupancy, DRAM at 75% of peak: latency-bound
_IDX_MIN_BLOCKS = 0 if _ew._SIM else 2
_IDX_BLOCK, _IDX_MIN_BLOCKS, _IDX_PREFETCH = (
    d if e is None else e for d, e in zip((_IDX_BLOCK, _IDX_MIN_BLOCKS, _IDX_PREFETCH), _IDX_ENV))
# streaming cache hints on the indexed form's 16-byte global accesses: "ld" the source rows'
# stage loads, "st" the output stores (ptx.load16_cs / store16_cs: evict-first lines, read or
# written once); NPGPU_REMAP_CACHE_HINTS ("" none, "ld,st" both).  H200, remap_knobs.py
# --only=take (2026-12-03, 3 rounds): none 160.8 us (80.5% of copy), ld 160.9, st 155.1
# (83.4%), both 158.4: the output's lines evicted first leave L2 to the staged rows
_IDX_CACHE_HINTS = frozenset(os.environ.get("NPGPU_REMAP_CACHE_HINTS", "st").replace(",", " ")
                             .split())

# Bounds records of the index checks (take's 'raise' map here, advanced indexing's gather /
# check / scatter): NPGPU_REGISTER_RECORDS=1 keeps a thread's first bad position in a register
# and records it with one atomic when the thread ends, instead of an atomic in the element
# path, which the compiler does not move the next element's index loads across (SASS of the
# take rows form: four table loads in flight instead of one).  Off until measured on a GPU.
REGISTER_RECORDS = os.environ.get("NPGPU_REGISTER_RECORDS", "0") == "1"

# kind -> (scalar parameter names, source lines computing j from c; W is the index type).
# Every map keeps its intermediate values non-negative, except the _SIGNED ones (int64);
# W(..) is the index type (Numba types uint32 - int64 literal as int64, and a mix as float).
MAPS = {
    "id": ((), "j = c"),
    "zero": ((), "j = 0"),
    "div": (("r",), "j = c // r"),                                  # repeat by a scalar
    "mod": (("o", "m"), "j = (c + o) % m"),                         # resize, wide wrap pads
    "rot": (("o", "m"), "j = c + o\nif j >= m:\n    j -= m"),       # roll (o < m)
    "reflect": (("o", "p"), "j = (c + o) % p\nif j >= p - j:\n    j = p - j"),
    "symmetric": (("o", "p"), "j = (c + o) % p\nif j + j >= p:\n    j = p - W(1) - j"),
    # pads no wider than the axis: one wrap or one reflection, no division
    "wrap1": (("b", "m"), "j = int64(c) - b\nif j < 0:\n    j += m\nelif j >= m:\n    j -= m"),
    "reflect1": (("b", "m"), "j = int64(c) - b\nif j < 0:\n    j = -j\nelif j >= m:\n"
                             "    j = 2 * (m - 1) - j"),
    "symmetric1": (("b", "m"), "j = int64(c) - b\nif j < 0:\n    j = -1 - j\nelif j >= m:\n"
                               "    j = 2 * m - 1 - j"),
    "edge": (("b", "m"), "j = int64(c) - b\nif j < 0:\n    j = 0\nelif j >= m:\n    j = m - 1"),
    "const": (("b", "m"), "j = int64(c) - b\nif j < 0:\n    j = 0\n    f = LO\nelif j >= m:\n"
                          "    j = 0\n    f = HI"),
    "table": ((), "j = T[c]"),                                      # delete, insert
    # take's modes on a table of user indices (any int64): negative ones count from the end;
    # 'raise' records the first bad position in ERR (one 8-byte read after the launch) --
    # with REGISTER_RECORDS through the thread's ``bad`` register and one atomic at the end;
    # 'wrap' reduces its indices before the launch and reads them as a plain `table`
    "take_raise": (("m",), "j = T[c]\nif j < 0:\n    j += m\nif j < 0 or j >= m:\n"
                           "    RECORD\n    j = 0"),
    "take_clip": (("m",), "j = min(max(T[c], 0), m - 1)"),
    "search": ((), "lo = 0\nhi = T.shape[0]\nwhile lo < hi:\n    mid = (lo + hi) >> 1\n"
                   "    if T[mid] <= c:\n        lo = mid + 1\n    else:\n        hi = mid\nj = lo"),
}
_SIGNED = {"edge", "const", "wrap1", "reflect1", "symmetric1", "table", "search", "take_raise",
           "take_clip"}     # maps whose parameters stay int64
_TABLES = {"table", "search", "take_raise", "take_clip"}   # maps reading T
_LOOKUPS = _TABLES          # last-axis maps whose rows are staged in shared memory


class AxisMap:
    """One output axis: ``size`` coordinates mapped by ``kind`` with ``params`` (ints) and, for
    the table kinds, a device int64 array ``table``; ``fill``: for ``const``, the
    (before, after) values of this axis."""

    __slots__ = ("kind", "size", "params", "table", "fill")

    def __init__(self, kind, size, *params, table=None, fill=None):
        self.kind, self.size, self.params, self.table, self.fill = kind, int(size), params, table, fill


def ident(n):
    return AxisMap("id", n)


# --- rendering ---------------------------------------------------------------------------------
def _map_args(kinds, nfill):
    """(argument names, Params) of the maps' parameters, tables, fill values and record."""
    args, params = [], []
    for d, kind in enumerate(kinds):
        args += [f"{p}{d}" for p in MAPS[kind][0]]
        params += [Param("scalar", _I64)] * len(MAPS[kind][0])
        if kind in _TABLES:
            args.append(f"T{d}")
            params.append(Param("array", _I64, 1, "C"))
    if "take_raise" in kinds:
        args.append("ERR")
        params.append(Param("array", _I64, 1, "C"))
    return args, params


def _cast_params(kinds, w, axes=None):
    """Lines casting the unsigned maps' parameters to the index type ``w``."""
    return [f"    {p}{d} = {w}({p}{d})" for d, kind in enumerate(kinds)
            if kind not in _SIGNED and (axes is None or d in axes) for p in MAPS[kind][0]]


def _map_lines(kind, d, w, fill_sel, c=None, j=None, f="f", reg=None):
    """The map of axis ``d``: its source with c, j (default c<d>, j<d>), the fill selector f,
    the parameters and T suffixed by d; ``reg``: a bad take index goes to the ``bad`` register
    (default :data:`REGISTER_RECORDS`), else straight to the record by an atomic."""
    reg = REGISTER_RECORDS if reg is None else reg
    body = MAPS[kind][1].replace("W(", f"{w}(").replace(
        "RECORD", "bad = min(bad, int64(c))" if reg else "cuda.atomic.min(ERR, 0, int64(c))")
    if kind == "const":
        body = body.replace("LO", str(fill_sel[d][0])).replace("HI", str(fill_sel[d][1]))
    names = {n: f"{n}{d}" for n in MAPS[kind][0]}
    names.update(c=c or f"c{d}", j=j or f"j{d}", T=f"T{d}", f=f)
    return re.sub(r"\b(" + "|".join(sorted(names)) + r")\b", lambda m: names[m.group(1)],
                  body).splitlines()


def _value(tag, load, nfill, f):
    """Lines setting ``v<tag>`` to ``load``, or past a ``const`` edge to the fill value ``f``
    picks (the load stays conditional: an empty source axis has no element 0)."""
    if not nfill:
        return [f"v{tag} = {load}"]
    lines = [f"if {f} < 0:", f"    v{tag} = {load}"]
    for k in range(nfill):
        lines += [f"elif {f} == {k}:" if k < nfill - 1 else "else:", f"    v{tag} = fv{k}"]
    return lines


_NO_BAD = (1 << 63) - 1     # ``bad``'s start: no bad position (the record's own "none")


def _record_lines(kinds, where, reg=None):
    """A ``take_raise`` kernel's ``bad`` register (``reg``, default :data:`REGISTER_RECORDS`):
    its start (``where`` "start") or its one atomic into the record at the end ("end"); no
    lines for other kernels."""
    if "take_raise" not in kinds or not (REGISTER_RECORDS if reg is None else reg):
        return []
    if where == "start":
        return [f"    bad = int64({_NO_BAD})"]
    return [f"    if bad != {_NO_BAD}:", "        cuda.atomic.min(ERR, 0, bad)"]


def _render(dt, kinds, fill_sel, nfill, narrow):
    """The linear form: every element unravels its linear index over all axes."""
    nd = len(kinds)
    w = "uint32" if narrow else "int64"
    margs, mparams = _map_args(kinds, nfill)
    args = ["n", "out", "src"] + [f"s{d}" for d in range(1, nd)] + margs
    args += [f"fv{k}" for k in range(nfill)]
    lines = [f"def KERNEL({', '.join(args)}):"] + _record_lines(kinds, "start")
    lines += [f"    s{d} = {w}(s{d})" for d in range(1, nd)] + _cast_params(kinds, w)
    # EPT elements a thread, ``bd`` apart, all loads before any store (one element a thread
    # keeps too few bytes in flight to fill the H200's memory pipe), then a guarded tail
    lines += ["    bd = cuda.blockDim.x", f"    base = cuda.blockIdx.x * bd * {EPT} + cuda.threadIdx.x",
              f"    step = cuda.gridDim.x * bd * {EPT}", "    while base < n:",
              f"        if base + {EPT - 1} * bd < n:"]
    stores = []
    for u in range(EPT):
        lines += _element(f"base + {u} * bd" if u else "base", u, 12, kinds, fill_sel, nfill, w)
        stores.append(f"            out[{f'base + {u} * bd' if u else 'base'}] = v{u}")
    lines += stores
    lines += ["        else:", f"            for u in range({EPT}):",
              "                idx = base + u * bd", "                if idx < n:"]
    lines += _element("idx", "t", 20, kinds, fill_sel, nfill, w)
    lines += ["                    out[idx] = vt", "        base += step"]
    lines += _record_lines(kinds, "end")
    text = "\n".join(lines) + "\n"
    name = _ew._kernel_name("remap", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", _I64), Param("array", dt, 1, "C"), Param("array", dt, nd, "A")]
    params += [Param("scalar", _I64)] * (nd - 1) + mparams + [Param("scalar", dt)] * nfill
    return KernelSource(name, text, params)


def _element(idx, tag, indent, kinds, fill_sel, nfill, w):
    """Lines loading output element ``idx``'s value into ``v<tag>``: unravel, map each axis,
    load through the source's strides (or, past a ``const`` map's edge, take its fill value)."""
    nd = len(kinds)
    lines = ["f = -1"] if nfill else []
    lines += _ew.unravel_lines(idx, nd, coord="c{d}", cast=w)
    for d, kind in enumerate(kinds):
        lines += _map_lines(kind, d, w, fill_sel)
    lines += _value(tag, f"src[{', '.join(f'j{d}' for d in range(nd))}]", nfill, "f")
    return [" " * indent + line for line in lines]


def _row_offset(kinds, w, fill_sel, nfill, r, rb):
    """Lines of output row ``r``'s source offset ``rb`` (elements from ``base``) and, under a
    ``const`` outer axis, its fill selector ``fr``: the row index unravelled over the outer
    axes and mapped (the rows forms map a row once, not once an element)."""
    last = len(kinds) - 1
    row = ["fr = -1"] if nfill else []
    if last:
        row += _ew.unravel_lines(r, last, coord="c{d}", cast=w)
        for d in range(last):
            row += _map_lines(kinds[d], d, w, fill_sel, f="fr")
    return row + [f"{rb} = " + " + ".join(["base"] + [f"int64(j{d}) * e{d}"
                                                      for d in range(last)])]


def _render_rows(dt, kinds, fill_sel, nfill, narrow, words, wload, unit, stage, sim, rep=False):
    """The rows form (module docstring).  ``words``: stores two elements a word (the row length
    even, ``out`` aligned); ``wload``: loads a word where the source allows; ``unit``: the last
    axis's source stride is 1; ``stage``: elements staged per row in shared memory (a power of
    two at least the source row's length; 0: no staging); ``sim``: the simulator's variant
    (grid-stride loops over the columns: its grid is small); ``rep``: the output is ``Z``
    copies of the ``R`` rows (leading output axes the source does not vary along: tile's
    repetitions), each value loaded once and stored ``Z`` times, ``ZS`` store units apart."""
    nd = len(kinds)
    last = nd - 1
    w = "uint32" if narrow else "int64"
    margs, mparams = _map_args(kinds, nfill)
    args = ["R", "L", "out", "src"] + (["outw"] if words else []) + (["srcw"] if wload else [])
    args += ["base"] + [f"e{d}" for d in range(nd)] + [f"s{d}" for d in range(1, last)]
    args += margs + [f"fv{k}" for k in range(nfill)] + (["M"] if stage else [])
    args += ["Z", "ZS"] if rep else []
    L = [f"def KERNEL({', '.join(args)}):"] + _record_lines(kinds, "start")
    L += [f"    s{d} = {w}(s{d})" for d in range(1, last)] + _cast_params(kinds, w)
    # column and row arithmetic in int64 (Numba types a uint64/int64 mix as float64); the
    # maps take their column as the index type ``w`` (32-bit divisions where they divide)
    L += ["    bd = cuda.blockDim.x", "    tid = cuda.threadIdx.x"]
    if stage:
        L.append(f"    sm = cuda.shared.array({stage}, {_ew.type_name(dt)})")
    L += ["    r = cuda.blockIdx.y", "    while r < R:"]
    P = "        "
    row = _row_offset(kinds, w, fill_sel, nfill, "r", "rb")
    row.append("ro = r * (L >> 1)" if words else "ro = r * L")
    L += [P + x for x in row]
    # (source offsets in int64: Numba types int64 + uint64 as float64)
    at = (lambda j: f"rb + int64({j})") if unit else (lambda j: f"rb + int64({j}) * e{last}")

    def mapped(c, u):
        """Lines mapping column ``c`` to ``ja<u>`` (fill selector ``f<u>``)."""
        out = [f"f{u} = fr"] if nfill else []
        return out + _map_lines(kinds[last], last, w, fill_sel, c=f"{w}({c})", j=f"ja{u}",
                                f=f"f{u}")

    def element(c, u):
        """Lines of element ``c``'s value ``v<u>``."""
        load = f"sm[ja{u}]" if stage else f"src[{at(f'ja{u}')}]"
        return mapped(c, u) + _value(u, load, nfill, f"f{u}")

    def word(wc, u):
        """Lines of word ``wc``'s value ``x<u>`` (columns 2 wc, 2 wc + 1)."""
        ca, cb_ = f"2 * {wc}", f"2 * {wc} + 1"
        out = element(ca, f"{u}a") + element(cb_, f"{u}b")
        packed = _ew._to_word(f"v{u}a", f"v{u}b", dt)
        if not wload:
            return out + [f"x{u} = {packed}"]
        # both elements neighbours at an even source offset: one word load instead (the
        # scalar loads above are then dead code, and the compiler moves them into the else)
        cond = f"int64(ja{u}b) == int64(ja{u}a) + 1 and ({at(f'ja{u}a')}) & 1 == 0"
        if nfill:
            cond = f"f{u}a < 0 and f{u}b < 0 and " + cond
        return (mapped(ca, f"{u}a") + mapped(cb_, f"{u}b")
                + [f"if {cond}:", f"    x{u} = srcw[({at(f'ja{u}a')}) >> 1]", "else:"]
                + ["    " + x for x in _value(f"{u}a", f"src[{at(f'ja{u}a')}]", nfill, f"f{u}a")
                   + _value(f"{u}b", f"src[{at(f'ja{u}b')}]", nfill, f"f{u}b")]
                + [f"    x{u} = {packed}"])

    if words:
        units, per, unit_lines, dst = "(L >> 1)", _ROWS_WORDS, word, "outw"
        val = "x"
    else:
        units, per, unit_lines, dst = "L", EPT, element, "out"
        val = "v"
    if stage:
        # the source row into shared memory: SE loads a thread in flight, then the stores
        SE = _STAGE_EPT
        L += [P + "k = tid", P + "while k < M:", P + f"    if k + {SE - 1} * bd < M:"]
        L += [P + f"        g{u} = src[{at(f'(k + {u} * bd)' if u else 'k')}]" for u in range(SE)]
        L += [P + f"        sm[k + {u} * bd] = g{u}" if u else P + "        sm[k] = g0"
              for u in range(SE)]
        L += [P + "    else:", P + f"        for u in range({SE}):",
              P + "            if k + u * bd < M:",
              P + f"                sm[k + u * bd] = src[{at('(k + u * bd)')}]",
              P + f"    k += bd * {SE}", P + "cuda.syncthreads()"]
    loop = stage or sim
    L.append(P + f"cb = cuda.blockIdx.x * bd * {per} + tid")
    L.append(P + (f"while cb < {units}:" if loop else f"if cb < {units}:"))
    Q = P + "    "
    at_u = lambda u: f"cb + {u} * bd" if u else "cb"     # noqa: E731
    L.append(Q + f"if cb + {per - 1} * bd < {units}:")
    for u in range(per):
        L += [Q + "    " + x for x in unit_lines(f"({at_u(u)})", u)]
    if rep:
        L += [Q + "    zo = ro", Q + "    for z in range(Z):"]
        L += [Q + f"        {dst}[zo + {at_u(u)}] = {val}{u}" for u in range(per)]
        L.append(Q + "        zo += ZS")
    else:
        L += [Q + f"    {dst}[ro + {at_u(u)}] = {val}{u}" for u in range(per)]
    L += [Q + "else:", Q + f"    for u in range({per}):", Q + "        ct = cb + u * bd",
          Q + f"        if ct < {units}:"]
    L += [Q + "            " + x for x in unit_lines("ct", "t")]
    if rep:
        L += [Q + "            zo = ro", Q + "            for z in range(Z):",
              Q + f"                {dst}[zo + ct] = {val}t", Q + "                zo += ZS"]
    else:
        L.append(Q + f"            {dst}[ro + ct] = {val}t")
    if loop:
        L.append(Q + f"cb += cuda.gridDim.x * bd * {per}")
    if stage:
        L.append(P + "cuda.syncthreads()")
    L.append(P + "r += cuda.gridDim.y")
    L += _record_lines(kinds, "end")
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name("remap_rows", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", _I64)] * 2 + [Param("array", dt, 1, "C")] * 2
    if words:
        params.append(Param("array", _ew.WORD_DTYPE[dt.itemsize], 1, "C"))
    if wload:
        params.append(Param("array", _ew.WORD_DTYPE[dt.itemsize], 1, "C"))
    params += [Param("scalar", _I64)] * (1 + nd + max(last - 1, 0))
    params += mparams + [Param("scalar", dt)] * nfill + ([Param("scalar", _I64)] if stage else [])
    params += [Param("scalar", _I64)] * 2 if rep else []
    return KernelSource(name, text, params)


_UINT = {1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64"}


def _render_indexed(isz, kinds, narrow, vstage, unit, VEC, U, KP, PER, block, nbytes,
                    signal=False):
    """The indexed form of a staged last-axis lookup (module docstring).  One shared array of
    ``nbytes`` holds the source row (from byte 0) and, from uint16 ``JO`` on, the block's chunk
    of ``CH`` output columns mapped once (uint16 source columns, in column order); each row of
    the block is staged whole and gathered through that index.  Elements move as their bits
    (``E``: unsigned of the element's width, two uint64 halves for 16-byte ones), so the kernel
    depends on the item size, not the dtype, and on no size (CI compiles few variants).
    ``vstage``: the row staged in 16-byte loads (rows 16-byte aligned and whole 16-byte units),
    else element by element through the last axis's stride (``unit``: stride 1); ``KP`` stage
    units of the next row a thread loads into registers before it gathers the current one (in
    flight during the gather); ``U``-byte output units of ``VEC`` elements (16: one 16-byte
    store), their ``VEC`` indices one shared load (2 * VEC bytes), ``PER`` units a thread a
    round.  Launch bounds: ``block`` threads (the launch's block: a constant of the kernel),
    :data:`_IDX_MIN_BLOCKS` blocks an SM (0: 1024 threads' worth).  ``signal``
    (one chunk of columns, a ``take_raise`` map on the last axis only): the threads record
    their bad columns right after mapping them, and block (0, 0), which mapped every column,
    writes the record's value and then the launch's ``TOKEN`` to the host words ``SIG``
    (:mod:`npgpu._core.host_signal`) before it gathers.

    Lean for 32 registers at 1024 threads: a block's quantities are uint32 (threads, columns
    of a chunk, units of a row: the staged row is at most ``nbytes``), each operation wrapped
    in ``uint32()`` (Numba types uint32 arithmetic as 64-bit; the truncation lets LLVM do it
    in 32 bits), array indices unsigned (no negative-index wraparound code); 64-bit only for
    a row's offsets into global memory (``rs``: its first stage unit, ``ro``: its first output
    unit, uint64)."""
    nd = len(kinds)
    last = nd - 1
    w = "uint32" if narrow else "int64"
    esz = min(isz, 8)
    S = isz // esz                      # E words an element
    E = _UINT[esz]
    LV = VEC.bit_length() - 1
    margs, mparams = _map_args(kinds, 0)
    args = ["R", "L", "M", "CH", "JO", "outu", "srcx", "base"] + [f"e{d}" for d in range(nd)]
    args += [f"s{d}" for d in range(1, last)] + margs + (["SIG", "TOKEN"] if signal else [])

    def u32(x):
        return f"uint32({x})"

    def add(a, n):
        """uint32 ``a`` plus ``n`` (an int: n blocks of threads, a constant) as uint32."""
        return u32(f"{a} + uint32({n})") if n else a

    def at(x, a, n=0):
        """An index: uint64 ``x`` (None: 0) plus uint32 ``a`` plus the constant ``n``, in 64
        bits (``(x + a) + n``: the constant folds into the address)."""
        out = f"uint64({a})" if x is None else f"{x} + uint64({a})"
        return f"{out} + uint64({n})" if n else out

    L = [f"def KERNEL({', '.join(args)}):"] + _record_lines(kinds, "start", True)
    L += [f"    s{d} = {w}(s{d})" for d in range(1, last)] + _cast_params(kinds, w)
    L += ["    tid = uint32(cuda.threadIdx.x)",
          f"    sm = cuda.shared.array({nbytes // 8}, uint64, alignment=16)",
          f"    sv = sm.view(np.{E})" if esz < 8 else "    sv = sm",
          "    sj = sm.view(np.uint16)"]
    if VEC == 2:
        L.append("    sj2 = sm.view(np.uint32)")
    L += ["    cs = int64(cuda.blockIdx.x) * CH",            # the chunk's first column
          "    nc = uint32(min(L - cs, CH))",
          f"    nu = uint32(nc >> uint32({LV}))",            # its output units
          "    jo = uint32(JO)",
          # the index's words: uint16, uint32 (VEC 2), uint64 (VEC 4), 16 bytes
          f"    jq = uint64(jo >> uint32({min(LV, 3)}))",
          f"    lu = L >> {LV}",
          # stage units of a row: 16-byte units, or E words
          f"    ns = uint32((M * {isz}) >> 4)" if vstage else f"    ns = uint32(M * {S})"]

    def srow(rb):
        """Lines of the row at element ``rb``'s first stage unit ``rs`` (16-byte stage)."""
        return [f"rs = uint64(({rb} * {isz}) >> 4)"] if vstage else []

    def load(k, n, dst):
        """Stage unit ``k`` (uint32) plus ``n`` of the row at ``rb`` into register(s) ``dst``
        (a unit stride: 64-bit indices, the constant ``n`` in the address)."""
        if vstage:
            ld = "load16_cs" if "ld" in _IDX_CACHE_HINTS else "load16"
            return [f"{dst}a, {dst}b = ptx.{ld}(srcx, {at('rs', k, n)})"]
        if unit:
            return [f"{dst} = srcx[{at(f'uint64({S} * rb)' if S > 1 else 'uint64(rb)', k, n)}]"]
        kn = add(k, n)
        if S == 1:
            return [f"{dst} = srcx[uint64(rb + int64({kn}) * e{last})]"]
        return [f"{dst} = srcx[uint64(2 * (rb + int64({kn} >> uint32(1)) * e{last}))"
                f" + uint64({kn} & uint32(1))]"]

    def store(k, n, src):
        if vstage:
            return [f"ptx.store16(sm, {at(None, k, n)}, {src}a, {src}b)"]
        return [f"sv[{at(None, k, n)}] = {src}"]

    P = "    "

    def prefetch(pad):
        out = []
        for q in range(KP):
            k = add("tid", q * block)
            out += [f"if {k} < ns:"] + ["    " + x for x in load("tid", q * block, f"p{q}")]
        return [pad + x for x in out]

    # the first row's stage units in flight while the block maps its columns
    for q in range(KP):
        L += [P + x for x in ([f"p{q}a = uint64(0)", f"p{q}b = uint64(0)"] if vstage
                              else [f"p{q} = {E}(0)"])]
    L += [P + "r = int64(cuda.blockIdx.y)"]
    if KP:
        L += [P + "if r < R:"] + [P + "    " + x for x in _row_offset(kinds, w, {}, 0, "r", "rb")
                                  + srow("rb")]
        L += prefetch(P + "    ")

    # the chunk's columns mapped once (bad take indices kept in the ``bad`` register), 4
    # columns a thread a round: their table loads in flight together
    search = kinds[last] == "search"

    def mapped(c, n, t):
        """Lines mapping column ``c`` + ``n`` of the chunk to ``jm<t>``: the map's own lines
        with a uint64 column, or repeat's search in uint32 (over the staged row's columns)."""
        if not search:
            return _map_lines(kinds[last], last, w, {}, c=at("csu", c, n), j=f"jm{t}", reg=True)
        T = f"T{last}"
        return [f"cm = cs + int64({add(c, n)})", "lo = uint32(0)", f"hi = uint32({T}.shape[0])",
                "while lo < hi:", "    mid = uint32((lo + hi) >> uint32(1))",
                f"    if {T}[mid] <= cm:", "        lo = uint32(mid + uint32(1))", "    else:",
                "        hi = mid", f"jm{t} = lo"]

    def put(c, n, t):
        return [f"sj[{at('uint64(jo)', c, n)}] = uint16(jm{t})"]

    L += [P + "csu = uint64(cs)", P + "c = tid", P + "while c < nc:",
          P + f"    if {add('c', 3 * block)} < nc:"]
    # (the table loads of 4 columns in flight together, their stores after; a search's
    # loads are a chain: each column stored as it is found, fewer registers)
    for t in range(4):
        L += [P + "        " + x for x in mapped("c", t * block, t)
              + (put("c", t * block, t) if search else [])]
    for t in range(0 if search else 4):
        L += [P + "        " + x for x in put("c", t * block, t)]
    L += [P + "    else:", P + "        for t in range(4):",
          P + f"            ct = uint32(c + uint32(t) * uint32({block}))",
          P + "            if ct < nc:"]
    L += [P + "                " + x for x in mapped("ct", 0, "t") + put("ct", 0, "t")]
    L += [P + f"    c = {add('c', 4 * block)}"]
    if signal:
        L += _record_lines(kinds, "end", True)
        L += [P + "cuda.threadfence()", P + "cuda.syncthreads()",
              P + "if cuda.blockIdx.y == 0 and tid == uint32(0):",
              # (min with "none": the record's value, every thread of the block's included)
              P + f"    SIG[1] = cuda.atomic.min(ERR, 0, int64({_NO_BAD}))",
              P + "    cuda.threadfence_system()",
              P + "    SIG[0] = TOKEN",          # (after the value: the host waits for it)
              P + "    cuda.threadfence_system()"]
    L += [P + "while r < R:"]
    Q = P + "    "
    if not KP:
        L += [Q + x for x in _row_offset(kinds, w, {}, 0, "r", "rb") + srow("rb")]
    # stage row r: the units held in registers, then (rows longer than KP units a thread) the
    # rest, 4 loads a thread in flight
    for q in range(KP):
        k = add("tid", q * block)
        L += [Q + f"if {k} < ns:"] + [Q + "    " + x for x in store("tid", q * block, f"p{q}")]
    L += [Q + f"k = {add('tid', KP * block)}", Q + "while k < ns:",
          Q + f"    if {add('k', 3 * block)} < ns:"]
    for u in range(4):
        L += [Q + "        " + x for x in load("k", u * block, f"g{u}")]
    for u in range(4):
        L += [Q + "        " + x for x in store("k", u * block, f"g{u}")]
    L += [Q + "    else:", Q + "        for u in range(4):",
          Q + f"            kt = uint32(k + uint32(u) * uint32({block}))",
          Q + "            if kt < ns:"]
    L += [Q + "                " + x for x in load("kt", 0, "gt") + store("kt", 0, "gt")]
    L += [Q + f"    k = {add('k', 4 * block)}", Q + "cuda.syncthreads()"]
    L += [Q + f"ro = uint64(r * lu + (cs >> {LV}))", Q + "rn = r + cuda.gridDim.y"]
    if KP:
        L += [Q + "if rn < R:"] + [Q + "    " + x for x in
                                   _row_offset(kinds, w, {}, 0, "rn", "rb") + srow("rb")]
        L += prefetch(Q + "    ")

    def split(word, bits, t, v0, n):
        """Lines of the ``n`` uint16 source columns ``j<t>_<v0>``.. in the unsigned ``word`` of
        ``bits`` bits, as uint32 (32-bit halves: 32-bit shifts and masks)."""
        out = []
        halves = [word] if bits == 32 else [f"h{t}_{v0 // 2}", f"h{t}_{v0 // 2 + 1}"]
        if bits == 64:
            out += [f"{halves[0]} = uint32({word})",
                    f"{halves[1]} = uint32({word} >> uint64(32))"]
        for v in range(n):
            h = halves[v // 2]
            out.append(f"j{t}_{v0 + v} = uint32({h} & uint32(0xFFFF))" if v % 2 == 0
                       else f"j{t}_{v0 + v} = uint32({h} >> uint32(16))")
        return out

    def indices(uq, n, t):
        """Lines of unit ``uq`` + ``n``'s VEC source columns ``j<t>_<v>`` (one shared load of
        2 VEC bytes: a warp's loads are contiguous, no bank conflict)."""
        if VEC == 1:
            return [f"j{t}_0 = uint32(sj[{at('jq', uq, n)}])"]
        if VEC == 2:
            return [f"q{t} = sj2[{at('jq', uq, n)}]"] + split(f"q{t}", 32, t, 0, 2)
        if VEC == 4:
            return [f"q{t}_0 = sm[{at('jq', uq, n)}]"] + split(f"q{t}_0", 64, t, 0, 4)
        out = []
        for i in range(VEC // 8):
            k = f"jq + uint64({VEC // 8}) * uint64({uq})"
            if n * VEC // 8 + i:
                k += f" + uint64({n * VEC // 8 + i})"
            out.append(f"q{t}_{2 * i}, q{t}_{2 * i + 1} = ptx.load16(sm, {k})")
        for i in range(VEC // 4):
            out += split(f"q{t}_{i}", 64, t, 4 * i, 4)
        return out

    def unit_lines(uq, n, t):
        """Output unit ``uq`` + ``n``'s bits gathered and stored."""
        out, vals = indices(uq, n, t), []
        for v in range(VEC):
            # (a 16-byte element: one 16-byte shared load, its two words)
            out.append(f"x{t}_{v}_0 = sv[j{t}_{v}]" if S == 1 else
                       f"x{t}_{v}_0, x{t}_{v}_1 = ptx.load16(sm, j{t}_{v})")
            vals += [f"x{t}_{v}_{s_}" for s_ in range(S)]
        if U < 8:
            return out + [f"outu[{at('ro', uq, n)}] = {vals[0]}"]
        per = 8 // esz
        words = []
        for i in range(U // 8):
            parts = [f"(uint64({x}) << uint64({8 * esz * b}))" if b else f"uint64({x})"
                     for b, x in enumerate(vals[i * per:(i + 1) * per])]
            words.append(" | ".join(parts))
        if U == 16:
            st = "store16_cs" if "st" in _IDX_CACHE_HINTS else "store16"
            return out + [f"ptx.{st}(outu, {at('ro', uq, n)}, {words[0]}, {words[1]})"]
        return out + [f"outu[{at('ro', uq, n)}] = {words[0]}"]

    L += [Q + "u = tid", Q + "while u < nu:", Q + f"    if {add('u', (PER - 1) * block)} < nu:"]
    for q in range(PER):
        L += [Q + "        " + x for x in unit_lines("u", q * block, str(q))]
    L += [Q + "    else:", Q + f"        for q in range({PER}):",
          Q + f"            ut = uint32(u + uint32(q) * uint32({block}))",
          Q + "            if ut < nu:"]
    L += [Q + "                " + x for x in unit_lines("ut", 0, "t")]
    L += [Q + f"    u = {add('u', PER * block)}", Q + "cuda.syncthreads()", Q + "r = rn"]
    if not signal:
        L += _record_lines(kinds, "end", True)
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name("remap_indexed", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    wdt = np.dtype(np.uint64) if U >= 8 else np.dtype(_UINT[esz])
    sdt = np.dtype(np.uint64) if vstage else np.dtype(_UINT[esz])
    params = [Param("scalar", _I64)] * 5 + [Param("array", wdt, 1, "C"),
                                            Param("array", sdt, 1, "C")]
    params += [Param("scalar", _I64)] * (1 + nd + max(last - 1, 0)) + mparams
    if signal:
        params += [Param("array", _I64, 1, "C"), Param("scalar", _I64)]
    return KernelSource(name, text, params,
                        launch_bounds=(block, _IDX_MIN_BLOCKS or max(1, 1024 // block)))


# --- planning and launch -----------------------------------------------------------------------
def _collapse(src, maps):
    """Merge neighbouring ``id`` axes that are contiguous in ``src`` (fewer divisions)."""
    shape, strides, out = [], [], []
    for d, m in enumerate(maps):
        if (out and m.kind == "id" and out[-1].kind == "id"
                and strides[-1] == src._strides[d] * src.shape[d]):
            out[-1] = ident(out[-1].size * m.size)
            shape[-1] *= src.shape[d]
            strides[-1] = src._strides[d]
        else:
            out.append(m)
            shape.append(src.shape[d])
            strides.append(src._strides[d])
    return tuple(shape), tuple(strides), out


def _arr(ptr, n, itemsize):
    return [0, 0, n, itemsize, ptr, n, itemsize]


def _fills(src, maps):
    """(distinct fill values, per const axis its (before, after) value numbers)."""
    fills, fill_sel = [], {}
    for d, m in enumerate(maps):
        if m.kind == "const":
            sel = []
            for v in m.fill:
                v = np.asarray(v, src.dtype)[()]
                key = v.tobytes()
                keys = [f.tobytes() for f in fills]
                if key not in keys:
                    fills.append(v)
                    keys.append(key)
                sel.append(keys.index(key))
            fill_sel[d] = tuple(sel)
    return fills, fill_sel


def _map_values(maps, fills, rec, slots, start):
    """The maps' launch values (to be appended at index ``start`` of the values); ``slots``
    gets the positions of the tables' pointers (the k-th table: ``k``) and the record's
    (``"rec"``), which a replay refills."""
    values = []
    k = 0
    for m in maps:
        values += [int(v) for v in m.params]
        if m.table is not None:
            values += _arr(m.table._ptr, m.table.size, 8)
            slots.append((start + len(values) - 3, k, 0))
            k += 1
    if rec is not None:
        values += _arr(rec._ptr, 1, 8)
        slots.append((start + len(values) - 3, "rec", 0))
    for v in fills:
        values += [v.real, v.imag] if v.dtype.kind == "c" else [v]
    return values


def remap(src, maps, out=None, record=None, signal=None):
    """A new C-contiguous array ``out[c] = src[f_0(c_0), ..., f_k(c_k)]`` (``maps``: one
    :class:`AxisMap` per axis of ``src``); ``out`` may be given (C-contiguous, right shape).
    ``record``: the int64[1] record a ``take_raise`` map writes its first bad column to;
    ``signal``: an armed :class:`~npgpu._core.host_signal.Signal` that a launch able to answer
    early also writes the record's value to (it then sets ``signal.armed``)."""
    assert len(maps) == src.ndim
    oshape = tuple(m.size for m in maps)
    if out is None:
        out = empty_array(oshape, src.dtype)
    n = out.size
    if n == 0:
        return out
    # a repeated call (same dtype, layout, alignment and maps) replays its launch: the
    # planning below costs more host time than the launch itself (take's tables and bounds
    # record included: its planning was ~50 us of host time a call)
    signal = signal if record is not None else None
    pkey = _plan_key(src, maps, out, record, signal)
    plan = _PLANS.get(pkey) if pkey is not None else None
    if plan is not None:
        replay(plan, src, out, [m.table for m in maps if m.table is not None], record, signal)
        return out
    slots = []
    if src.ndim == 0:
        shape, strides, maps = (1,), (0,), [AxisMap("zero", n)]
    else:
        shape, strides, maps = _collapse(src, maps)
    kinds = tuple(m.kind for m in maps)
    fills, fill_sel = _fills(src, maps)
    narrow = n < 2 ** 31 and all(0 <= v < 2 ** 31 for m in maps if m.kind not in _SIGNED
                                 for v in m.params)
    isz = src.itemsize
    if maps[-1].size >= ROWS_MIN and not any(s % isz for s in strides):
        kern, grid, block, values = _launch_rows(src, out, shape, strides, maps, kinds, fills,
                                                 fill_sel, narrow, record, slots, signal)
    else:
        key = ("remap", src.dtype, kinds, tuple(sorted(fill_sel.items())), len(fills), narrow)
        kern = compiler.get_kernel(key, lambda: _render(src.dtype, kinds, fill_sel, len(fills),
                                                        narrow))
        values = [n] + _arr(out._ptr, n, out.itemsize)
        slots.append((len(values) - 3, True, 0))
        size = 1
        for s in shape:
            size *= s
        values += [0, 0, size, isz, src._ptr, *shape, *strides]
        slots.append((len(values) - 1 - 2 * len(shape), False, 0))
        values += [m.size for m in maps[1:]]
        values += _map_values(maps, fills, record, slots, len(values))
        grid, block = _ew._grid(n, EPT)
    kern(grid, block, values)
    if pkey is not None:
        store(_PLANS, pkey, (kern, grid, block, values, slots), 512)
    return out


_PLANS = {}


def stored_plan(src, maps, out, record=None, signal=None):
    """The launch plan :func:`remap` stored for these arguments (after a call with them), or
    None; a caller keeping it replays it with :func:`replay` on arrays of the same layouts and
    alignments (``src._ptr % 16`` and ``out._ptr % 16`` are part of it)."""
    pkey = _plan_key(src, maps, out, record, signal)
    return _PLANS.get(pkey) if pkey is not None else None


def replay(plan, src, out, tables, record, signal=None):
    """One launch of a stored plan: its values with the pointers of ``src``, ``out``, the maps'
    ``tables`` (device arrays, in axis order), ``record`` and ``signal`` (when the plan writes
    one: it is then marked armed) filled in."""
    kern, grid, block, values, slots = plan
    values = list(values)
    for i, which, off in slots:
        if which is True:
            ptr = out._ptr
        elif which is False:
            ptr = src._ptr
        elif which == "rec":
            ptr = record._ptr
        elif which == "sig":
            ptr = signal.ptr
            signal.armed = True
        elif which == "token":          # (a scalar, not a pointer)
            ptr = signal.token
        else:
            ptr = tables[which]._ptr
        values[i] = ptr + off
    kern(grid, block, values)


# --- whole repeat calls of the functions on top (tile, roll, pad) ------------------------------
# A repeat call with the same source layout and arguments goes from its arguments straight to
# the stored launch: the argument handling, axis maps and views in front of ``remap`` cost
# more host time than the launch (tile 8 us, pad 7 us a call on the CPU machine; 13-22 us of
# each call on the H200's host, next to 107-166 us kernels).
_CALLS = {}


def call_key(name, src, *args):
    """The key of a whole call of ``name`` on ``src`` with ``args`` (dtype, shape, strides and
    alignment of ``src`` included), or None where an argument is not a plain Python value."""
    tagged = plain_key(args)
    if tagged is None:
        return None
    return (name, src.dtype, src.shape, src._strides, src._ptr & 15, tagged)


def call_replay(key, src):
    """The result of a repeat call on ``src`` stored under ``key`` by :func:`remember`, or
    None."""
    hit = _CALLS.get(key) if key is not None else None
    if hit is None:
        return None
    plan, oshape = hit
    out = empty_array(oshape, src.dtype)
    replay(plan, src, out, (), None)
    return out


def remember(key, src, maps, out, launched_out=None, launched_src=None):
    """Store the launch ``remap(launched_src or src, maps, out=launched_out or out)`` just made
    for the call ``key``, whose result is ``out``: a later call with the same key replays it
    with its own source pointer (the launched source and output are views at the pointers of
    ``src`` and ``out``).  Maps with tables (take, repeat) are not stored this way."""
    if key is None or any(m.table is not None for m in maps):
        return
    lsrc = src if launched_src is None else launched_src
    lout = out if launched_out is None else launched_out
    if lsrc._ptr != src._ptr or lout._ptr != out._ptr:
        return
    plan = stored_plan(lsrc, maps, lout)
    if plan is None:
        return
    store(_CALLS, key, (plan, out.shape), 512)


def _plan_key(src, maps, out, record, signal=None):
    """The key of a replayable launch, or None.  Alignments are part of it (they choose word
    loads and stores); the tables' and the record's pointers are refilled at each replay (a
    table's length is in the key: the launch values hold it)."""
    parts = []
    for m in maps:
        parts.append((m.kind, m.size, m.params, m.fill,
                      None if m.table is None else m.table.size))
    key = (src.dtype, src.shape, src._strides, src._ptr & 15, out._ptr & 15,
           record is not None, signal is not None, tuple(parts))
    try:
        hash(key)
    except TypeError:             # a fill value that does not hash
        return None
    return key


def _stage_size(m, isz):
    """Elements of the shared stage for source rows of ``m``: the least 2^k or 3 * 2^k that
    holds them (few kernel variants), 0 when that passes :data:`STAGE_MAX` bytes."""
    k = max(m - 1, 0).bit_length()         # 2^k >= m
    size = 3 << (k - 2) if k >= 2 and 3 << (k - 2) >= m else 1 << k
    return size if size * isz <= STAGE_MAX else 0


def _repeats(shape, strides, maps):
    """How many leading output axes the source does not vary along (zero stride, a map that
    is not ``const``: tile's repetitions), short of the last axis."""
    k = 0
    while k < len(maps) - 1 and strides[k] == 0 and maps[k].kind in ("id", "zero"):
        k += 1
    return k


def _launch_rows(src, out, shape, strides, maps, kinds, fills, fill_sel, narrow, rec, slots,
                 signal=None):
    """(kernel, grid, block, values) of the rows form; ``slots`` receives (index in values,
    True for out / False for src, byte offset from that array's pointer) of every pointer."""
    dt, isz = src.dtype, src.itemsize
    if INDEXED and kinds[-1] in _LOOKUPS and not fills:
        got = _launch_indexed(src, out, shape, strides, maps, kinds, narrow, rec, slots, signal)
        if got is not None:
            return got
    L = maps[-1].size
    # leading repetitions: each value is loaded once and stored Z times (the source read once)
    k = _repeats(shape, strides, maps)
    Z = 1
    for mp in maps[:k]:
        Z *= mp.size
    if k:
        shape, strides, maps, kinds = shape[k:], strides[k:], maps[k:], kinds[k:]
        fill_sel = {d - k: v for d, v in fill_sel.items()}
    R = out.size // L // Z
    lo, hi = extent(src) if src.ndim else (src._ptr, src._ptr + isz)
    m = (hi - lo) // isz
    estrides = [s // isz for s in strides]
    wsz = 2 * isz
    words = (_ew.words_dtypes([dt]) and L % 2 == 0 and not out._ptr % wsz)
    stage = 0
    if kinds[-1] in _LOOKUPS and not fills:
        stage = _stage_size(shape[-1], isz)
    wload = words and not stage and estrides[-1] == 1 and not lo % wsz
    # a unit last-axis stride is a constant (no multiply an element).  Keeping it a runtime
    # argument outside the word-load form cut CI's variants by ~20%, but the H200 then ran
    # take(axis=1) of 8192^2 f32 in 350 us against 271 us (pad 189 against 176): reverted
    unit = estrides[-1] == 1
    rep = Z > 1
    key = ("remap_rows", dt, kinds, tuple(sorted(fill_sel.items())), len(fills), narrow, words,
           wload, unit, stage, rep)
    kern = compiler.get_kernel(key, lambda: _render_rows(dt, kinds, fill_sel, len(fills), narrow,
                                                         words, wload, unit, stage, _ew._SIM, rep))
    values = [R, L] + _arr(out._ptr, out.size, isz)
    slots.append((len(values) - 3, True, 0))
    values += _arr(lo, m, isz)
    slots.append((len(values) - 3, False, lo - src._ptr))
    if words:
        values += _arr(out._ptr, out.size // 2, wsz)
        slots.append((len(values) - 3, True, 0))
    if wload:
        values += _arr(lo, m // 2, wsz)
        slots.append((len(values) - 3, False, lo - src._ptr))
    values += [(src._ptr - lo) // isz, *estrides] + [mp.size for mp in maps[1:-1]]
    values += _map_values(maps, fills, rec, slots, len(values))
    if stage:
        values.append(shape[-1])
    if rep:
        values += [Z, R * (L // 2 if words else L)]
    gy = min(-(-R // _ROWS_PER_BLOCK), _GRID_Y)
    if stage:
        grid, block = (1, gy, 1), (_STAGE_BLOCK, 1, 1)
    else:
        per = _ROWS_BLOCK * (_ROWS_WORDS if words else EPT)
        units = L // 2 if words else L
        gx = -(-units // per)
        if _ew._SIM:
            gx = min(gx, _ew.SIM_GRID)
        grid, block = (gx, gy, 1), (_ROWS_BLOCK, 1, 1)
    return kern, grid, block, values


def _sm_count():
    from .cuda import runtime
    return runtime.sm_count()


def _launch_indexed(src, out, shape, strides, maps, kinds, narrow, rec, slots, signal=None):
    """(kernel, grid, block, values) of the indexed form (:func:`_render_indexed`), or None
    where it does not apply: item sizes other than 1-16 bytes, a source row over
    :data:`STAGE_MAX` bytes, or too little shared memory left beside the row for
    :data:`_IDX_MIN` columns of index.  The grid: ``gx`` chunks of columns, and as many rows
    of blocks as stay resident next to them, each taking every ``gridDim.y``-th row (no
    partial last wave; the chunk's index is built once a block)."""
    isz = src.itemsize
    if isz not in (1, 2, 4, 8, 16):
        return None
    M, L = shape[-1], maps[-1].size
    if M * isz > STAGE_MAX:
        return None
    esz = min(isz, 8)
    lo, hi = extent(src)
    m = (hi - lo) // isz
    estrides = [s // isz for s in strides]
    base = (src._ptr - lo) // isz
    vstage = (estrides[-1] == 1 and not (M * isz) % 16 and not lo % 16 and not (base * isz) % 16
              and not any((e * isz) % 16 for e in estrides[:-1]))
    SW = -(-M * isz // 16) * 2                     # the row's words: whole 16-byte units
    for U in (16, 8, esz):
        if U >= isz and not (L * isz) % U and not out._ptr % U:
            break
    else:
        return None
    VEC = U // isz
    # the chunk: as many columns as the shared bytes beside the row hold (whole units)
    CH = min(L, (STAGE_MAX - 8 * SW) // (2 * VEC) * VEC)
    if CH < min(L, _IDX_MIN):
        return None
    block = _IDX_BLOCK
    KP = _IDX_PREFETCH          # (not fitted to the row: one kernel for every row length)
    unit = estrides[-1] == 1
    gx = -(-L // CH)
    # one chunk: each block maps every index, so block (0, 0) knows the record's value early
    sig = signal is not None and rec is not None and gx == 1 and "take_raise" not in kinds[:-1]
    key = ("remap_indexed", isz, kinds, narrow, vstage, unit, VEC, U, KP, _IDX_PER, block,
           STAGE_MAX, _IDX_MIN_BLOCKS, sig, tuple(sorted(_IDX_CACHE_HINTS)))
    kern = compiler.get_kernel(key, lambda: _render_indexed(isz, kinds, narrow, vstage, unit, VEC,
                                                            U, KP, _IDX_PER, block, STAGE_MAX,
                                                            sig))
    wsz = 8 if U >= 8 else esz
    values = [out.size // L, L, M, CH, 4 * SW] + _arr(out._ptr, out.size * isz // wsz, wsz)
    slots.append((len(values) - 3, True, 0))
    ssz = 8 if vstage else esz
    values += _arr(lo, m * isz // ssz, ssz)
    slots.append((len(values) - 3, False, lo - src._ptr))
    values += [base, *estrides] + [mp.size for mp in maps[1:-1]]
    values += _map_values(maps, [], rec, slots, len(values))
    if sig:
        values += _arr(signal.ptr, 2, 8) + [signal.token]
        slots += [(len(values) - 4, "sig", 0), (len(values) - 1, "token", 0)]
        signal.armed = True
    resident = 2 if _ew._SIM else _sm_count() * (kern.blocks_per_sm(block) or 1)
    gy = max(1, min(out.size // L, _GRID_Y, resident // gx))
    return kern, (gx, gy, 1), (block, 1, 1), values
