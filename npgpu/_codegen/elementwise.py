"""The elementwise kernel template, and the plan that picks its layout.

Everything elementwise (copy/cast, every ufunc loop, fused functions) is one
:class:`ScalarOp` -- a device function ``op(x0, .., xk)`` returning one value or
a tuple -- rendered into a kernel by :func:`render`, and run by
:func:`launch`.  A fused function is just a longer ``op``.

Layouts (chosen per call by :func:`launch`):

* ``contig``: every array operand is contiguous in the same order after
  dimensions are collapsed; 1-D kernel, each thread handles 4 elements
  strided by ``blockDim`` with all loads issued before the stores; ops marked ``heavy``
  (compute-bound float64 loops) take its heavy form (:data:`HEAVY_EPT`).
* ``words``: ``contig`` for 4-byte operands (float32, int32, uint32), 8-byte
  aligned: each thread moves 2 uint64 words per array (4 elements), unpacked
  by bit reinterpretation -- half the memory instructions, which the H200
  needs to reach copy bandwidth on unary float32 ops.
* ``rows``: 2-D (after collapsing) with every operand unit-stride along the rows or
  broadcast there (``x - x.mean(axis=0)``, ``x - c`` of a column ``c``, row-sliced views):
  threads along a row, the grid's y over the rows, no per-element index unravelling
  (:data:`ROWS`).  ``rowsw``: the same moving two elements a word where rows are even and
  word-aligned (:data:`ROWS_WORDS`).
* ``tiled``: 2-D with inputs running down the columns (transposed): staged through a
  shared-memory tile so that their loads and the output's stores are both coalesced.
* ``strided``: N-d kernel over the collapsed shape; each operand keeps its
  own strides (negative and zero strides included).

Operand kinds: ``a`` array, ``z`` array whose one element is broadcast over
the whole shape (e.g. a 0-d array), ``s`` host scalar passed as a kernel
parameter, ``i`` the element's linear (C-order) index as int64 (pass
:data:`INDEX` as the input; the outputs must then be C-contiguous), ``r<ndim>`` a whole array
handed to ``op`` unindexed (pass :class:`Raw`; user kernels' ``raw`` parameters).
"""
import hashlib
import os

import numpy as np

from .. import _backend
from . import compiler
from .compiler import KernelSource, Param

_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)
_TYPE_NAME = {
    "b1": "boolean", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64",
    "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
    "f2": "float16", "f4": "float32", "f8": "float64", "c8": "complex64", "c16": "complex128",
}


def type_name(dt):
    """Name of the numba scalar type of NumPy dtype ``dt`` in generated source."""
    return _TYPE_NAME[dt.kind + str(dt.itemsize)]


def compute_dtype(dt):
    """The dtype a loop computes in: float16 is computed in float32 (as NumPy does)."""
    return _F32 if dt == _F16 else dt


def cast_expr(expr, src, dst):
    """Source converting ``expr`` of dtype ``src`` to dtype ``dst`` (NumPy's cast rules).

    Always explicit: a loop's arithmetic may be wider in Numba than its dtype.
    float16 conversions go through float32 (what the hardware converts from).
    """
    if dst.kind == "b":
        if src.kind == "b":
            return f"boolean({expr})"
        return f"({expr} != 0)"
    if src.kind == "c" and dst.kind != "c":
        expr = f"({expr}).real"
        src = np.dtype(f"f{src.itemsize // 2}")
    if src.kind == "b":
        expr = f"int8({expr})"
    if dst == _F16:
        # float64 converts in one rounding (cvt.rn.f16.f64); integers through float32 are exact
        # up to float16's range
        if src not in (_F32, _F16, _F64):
            expr = f"float32({expr})"
        return f"float16({expr})"
    if src == _F16 and dst != _F32:
        expr = f"float32({expr})"
    if src.kind == "f" and dst.kind in "iu":          # x86's results outside the range
        conv = {1: "f2i32_x86", 2: "f2i32_x86", 4: "f2i32_x86" if dst.kind == "i" else
                "f2i64_x86", 8: "f2i64_x86" if dst.kind == "i" else "f2u64_x86"}[dst.itemsize]
        conv = f"{conv}({expr})"
        return conv if dst in (_I32, _I64, _U64) else f"{type_name(dst)}({conv})"
    return f"{type_name(dst)}({expr})"


class ScalarOp:
    """A device function ``op(x0..x{nin-1})`` returning ``nout`` values; ``key`` identifies it.

    ``helpers``: sources of other device functions ``op`` calls (each a ``def``),
    rendered before it, in order.  ``heavy``: a compute-bound loop (libdevice's float64 erf),
    rendered in the contiguous layout's heavy form (:data:`HEAVY_EPT`).  ``f64_table``: its
    kernels read their float64 constants from a constant table (:class:`KernelSource`'s).
    """

    def __init__(self, key, nin, nout, source, helpers=(), heavy=False, f64_table=False):
        self.key = key
        self.nin = nin
        self.nout = nout
        self.source = source      # "def op(x0, x1):\n    return ...\n"
        self.helpers = tuple(helpers)
        self.heavy = heavy
        self.f64_table = f64_table

    @classmethod
    def from_expr(cls, key, nin, expr, nout=1, helpers=(), heavy=False, f64_table=False):
        """``expr``: one expression, or a function body (lines containing ``return``)."""
        args = ", ".join(f"x{i}" for i in range(nin))
        if "return" in expr:
            body = "\n".join("    " + line for line in expr.strip("\n").splitlines())
        else:
            body = f"    return {expr}"
        return cls(key, nin, nout, f"def op({args}):\n{body}\n", helpers, heavy, f64_table)

    def device_source(self):
        """Helpers and ``op``, each decorated as a Numba device function."""
        parts = ["@cuda.jit(device=True)\n" + h.strip("\n") + "\n" for h in self.helpers]
        parts.append("@cuda.jit(device=True)\n" + self.source)
        return "\n\n".join(parts)


# --- rendering ------------------------------------------------------------------------------
def elements_per_thread(in_specs):
    """Elements a thread of the contiguous layout handles.

    Measured on the H200 (2026-11-30, 2^28 float32, kernel_shapes.py): 4 per thread
    beats 1, 2, 8 and 16 for unary and binary kernels alike (8: 64-80% of copy bandwidth).
    ``NPGPU_EW_EPT`` overrides it (experiments: compute-heavy ops)."""
    return _EPT


_EPT = int(os.environ.get("NPGPU_EW_EPT", "4"))
# The heavy form of the contiguous layout, for ops marked ``heavy`` (table rows of compute-bound
# float64 loops): 8 elements a thread with launch bounds of 1024 threads an SM (<= 64 registers),
# uint64 indices, and the partial tail one element at a time.  Why (issue 25, erf float64, ptxas
# 13 for sm_90, SASS of the 4-element part): ptxas builds each float64 constant with two UMOVs;
# the elements of a thread share them only where the registers allow (the launch bounds: 68
# UMOVs serve all 8 elements), Numba's negative-index wrap of int64 indices costs ~14
# instructions an element (unsigned: none), and the 4-times unrolled tail inside the grid-stride
# loop made ptxas hoist constants into 66 registers.  erf float64: 107 -> 67 instructions an
# element, 66 -> 62 registers at 2x the elements a thread.
HEAVY_EPT = 8
HEAVY_THREADS_PER_SM = 1024
# The ``contig`` and ``words`` layouts index with uint64 (``NPGPU_EW_UINT_INDEX=0``: int64, and
# ``contig``'s tail unrolled): a signed index costs Numba's negative-index wrap on every load
# and store.  ptxas 13, sm_90, float32 words kernels: add 448 -> 120 SASS and 40 -> 30
# registers, erf 328 -> 264 and 46 -> 30, gammaln 1688 -> 1624 and 40 -> 29.
UINT_INDEX = os.environ.get("NPGPU_EW_UINT_INDEX", "1") != "0"
# words a thread of the ``words`` layout moves per array (2: 4 elements); NPGPU_EW_WORDS_WPT
# overrides it (experiments: compute-bound float32 chains)
WORDS_WPT = int(os.environ.get("NPGPU_EW_WORDS_WPT", "2"))


def words_per_thread(op):
    """Words a thread of the ``words`` layout moves per array, for ``op``."""
    return WORDS_WPT
_THREADS = int(os.environ.get("NPGPU_EW_THREADS", "0"))     # 0: the measured choice below


def threads_per_block(in_specs):
    """Block size of the contiguous layout: 128 threads when one array is read (negative f32:
    98.9% of copy bandwidth, against 94.9% with 256 and 90.2% with 512), 256 otherwise
    (add: 107% with 256).  ``NPGPU_EW_THREADS`` overrides it (experiments)."""
    if _THREADS:
        return _THREADS
    return 128 if sum(1 for kind, _ in in_specs if kind == "a") <= 1 else 256


def unravel_lines(index, nd, pad="", extent="s{d}", coord="c{d}_", cast=""):
    """Lines unravelling the C-order linear ``index`` (source) into the coordinates ``coord``
    (``{d}``: the axis) over the extents ``extent`` (axis 0's is not needed); ``cast`` wraps
    the index (``uint32``: 32-bit division, several times cheaper on the GPU).  Every template
    that maps a linear index to coordinates renders it here."""
    L = [f"{pad}rem = {cast}({index})" if cast else f"{pad}rem = {index}"]
    for d in range(nd - 1, 0, -1):
        e, c = extent.format(d=d), coord.format(d=d)
        L += [f"{pad}{c} = rem % {e}", f"{pad}rem = rem // {e}"]
    L.append(f"{pad}{coord.format(d=0)} = rem")
    return L


def _kernel_name(prefix, text):
    return f"{prefix}_{hashlib.sha1(text.encode()).hexdigest()[:10]}"


def render(op, in_specs, out_dtypes, loop_in, loop_out, layout, ndim, name="ew", staged=(),
           sim=None):
    """Render the kernel for ``op``.

    in_specs: per input ``(kind, storage dtype)``; loop_in/loop_out: the loop's
    dtypes (what the op computes on, before float16 -> float32);
    out_dtypes: storage dtypes of the outputs; layout 'contig' or 'strided'.
    sim: render the simulator's variant (default: the active backend's).  It differs from the
    GPU's only in launch shape: ``words`` gets a grid-stride loop (a few simulated threads loop
    instead of one thread per 4 elements) and ``tiled`` smaller tiles (:data:`_TILE_SIM`).
    """
    if sim is None:
        sim = _SIM
    nin, nout = len(in_specs), len(out_dtypes)
    ins = [f"in{i}" for i in range(nin) if in_specs[i][0] != "i"]
    outs = [f"out{j}" for j in range(nout)]
    lines = []
    hoisted = []

    def load(i, index, src=None):
        kind, st = in_specs[i]
        if kind == "i":
            return f"int64({index})"
        if kind[0] == "r":
            return f"in{i}"
        if src is None:
            src = f"in{i}[{index}]" if kind in "az" else f"in{i}"
        v = src if st == loop_in[i] else cast_expr(src, st, loop_in[i])
        return cast_expr(v, loop_in[i], compute_dtype(loop_in[i]))

    for i, (kind, st) in enumerate(in_specs):
        if kind == "z":
            hoisted.append(f"    c{i} = {load(i, 0)}")
        elif kind == "s":
            hoisted.append(f"    c{i} = {load(i, None)}")

    def stored(j, value):
        """``value`` (the op's result ``j``) converted to output ``j``'s storage dtype."""
        v = cast_expr(value, compute_dtype(loop_out[j]), loop_out[j])
        return cast_expr(v, loop_out[j], out_dtypes[j])

    def store(j, value, index):
        return f"out{j}[{index}] = {stored(j, value)}"

    def element(index, tag, indent, linear=None, sources=None):
        """Lines computing one element at ``index``: loads into a{i}_{tag}, result r_{tag}."""
        pad = " " * indent
        ld, st = [], []
        args = []
        for i, (kind, _) in enumerate(in_specs):
            if kind in "ai":
                at = linear if (kind == "i" and linear) else index
                src = sources.get(i) if sources else None
                ld.append(f"{pad}a{i}_{tag} = {load(i, at, src)}")
                args.append(f"a{i}_{tag}")
            else:
                args.append(f"in{i}" if kind[0] == "r" else f"c{i}")
        comp = f"{pad}r_{tag} = op({', '.join(args)})"
        for j in range(nout):
            val = f"r_{tag}" if nout == 1 else f"r_{tag}[{j}]"
            st.append(f"{pad}{store(j, val, index)}")
        return ld, comp, st

    def unrolled(indices, start, at, end, var="i"):
        """The body of a round of ``len(indices)`` elements a thread (12 spaces in): all loads,
        then the ops, then the stores; a partial round one element at a time, ``bd`` apart,
        from ``start`` while ``var`` < ``end`` (``at``: the element's index there)."""
        lds, comps, sts = [], [], []
        for u, idx in enumerate(indices):
            ld, comp, st = element(idx, u, 12)
            lds += ld
            comps.append(comp)
            sts += st
        ld, comp, st = element(at, "t", 16)
        return (lds + comps + sts + ["        else:", f"            {start}",
                                     f"            while {var} < {end}:"]
                + ld + [comp] + st + [f"                {var} += bd"])

    def full(h):
        """The flag of a thread's word ``h`` > 0 being in range (``full``: the second word)."""
        return "full" if h == 1 else f"full{h}"

    def words_lines(ats, pad, guard_second=False, row=""):
        """Lines doing the words at ``ats`` (``words``; ``rowsw``: of row ``r``, ``row`` the
        index's first part): loads, unpacking, ops, packed stores (word ``h`` > 0 only when
        its :func:`full` flag is set, if ``guard_second``).  ``staged`` inputs of ``rowsw`` (a column broadcast,
        column stride 0) load the row's one element once a round, used for every element."""
        out, srcs = [], [{} for _ in range(2 * len(ats))]
        for i, (kind, st) in enumerate(in_specs):
            if kind != "a":
                continue
            if i in staged:
                out.append(f"{pad}e{i} = in{i}[r, uint64(0)]")
            for h, at in enumerate(ats):
                if i in staged:
                    srcs[2 * h][i] = srcs[2 * h + 1][i] = f"e{i}"
                else:
                    out.append(f"{pad}w{i}_{h} = in{i}w[{row}{at}]")
                    for half in range(2):
                        srcs[2 * h + half][i] = from_word(f"w{i}_{h}", half, st)
        comps = []
        for u in range(len(srcs)):
            ld, comp, _ = element(None, u, len(pad), sources=srcs[u])
            out += ld
            comps.append(comp)
        out += comps
        for j in range(nout):
            vals = [stored(j, f"r_{u}" if nout == 1 else f"r_{u}[{j}]") for u in range(len(srcs))]
            for h, at in enumerate(ats):
                st = f"out{j}w[{row}{at}] = {_to_word(vals[2 * h], vals[2 * h + 1], out_dtypes[j])}"
                out += ([f"{pad}if {full(h)}:", f"{pad}    {st}"] if h and guard_second
                        else [f"{pad}{st}"])
        return out

    def rows_head(args, name, length, ept):
        """The rows layouts' first lines: the kernel's ``args``, the row length ``name`` (from
        ``length``: elements or words), a thread's first unit ``k0`` (``ept`` a thread, ``bd``
        apart), its first row ``r`` (rows shorter than a block row: blockDim.y rows a block, a
        row each y), and the loop over rows with its test for a round of ``ept`` units."""
        return [f"def KERNEL(n, {', '.join(args)}):", *hoisted,
                "    rows = uint64(out0.shape[0])", f"    {name} = uint64({length})",
                "    bd = uint64(cuda.blockDim.x)",
                f"    k0 = uint64(cuda.blockIdx.x) * (bd * uint64({ept})) "
                "+ uint64(cuda.threadIdx.x)",
                "    r = uint64(cuda.blockIdx.y) * uint64(cuda.blockDim.y) "
                "+ uint64(cuda.threadIdx.y)",
                "    while r < rows:", f"        if k0 + uint64({ept - 1}) * bd < {name}:"]

    heavy = layout == "contig" and getattr(op, "heavy", False)
    ept = (HEAVY_EPT if heavy else elements_per_thread(in_specs)) if layout == "contig" else 1
    if layout == "contig":
        # uint64 indices (heavy rows always): no negative-index wrap; int64 with
        # NPGPU_EW_UINT_INDEX=0; the tail a loop of one element (one copy of the op)
        u64 = heavy or UINT_INDEX
        c = (lambda e: f"uint64({e})") if u64 else (lambda e: str(e))
        lines.append(f"def KERNEL(n, {', '.join(outs + ins)}):")
        lines += hoisted
        lines += [
            f"    bd = {c('cuda.blockDim.x')}",
            f"    un = {c('n')}",
            f"    base = {c('cuda.blockIdx.x')} * (bd * {c(ept)}) + {c('cuda.threadIdx.x')}",
            f"    step = {c('cuda.gridDim.x')} * (bd * {c(ept)})",
            "    while base < un:",
            f"        if base + {c(ept - 1)} * bd < un:",
        ]
        lines += unrolled(["base" if u == 0 else f"base + {c(u)} * bd" for u in range(ept)],
                          "i = base", "i", "un")
        lines += ["        base += step"]
    elif layout == "words":
        W = words_per_thread(op)
        # operands moved two elements a word (half the memory instructions of ``contig``):
        # each thread loads 2 words per array ``bd`` apart, unpacks 4 elements, stores 2 words.
        # ``*w`` parameters are uint64 (4-byte dtypes) or uint16 (1-byte: bool masks and
        # comparisons) views of the same memory; an odd last element is done
        # through the element arrays by thread 0.  No grid-stride loop: the grid covers n
        # (H200, 2^28 f32, 128 threads: negative 101%, exp 101%, add 103.5% of copy bandwidth;
        # with the loop 91%, 92%, 96%).
        wouts = [f"out{j}w" for j in range(nout)]
        wins = [f"in{i}w" for i in range(nin) if in_specs[i][0] == "a"]
        lines.append(f"def KERNEL(n, {', '.join(outs + ins + wouts + wins)}):")
        lines += hoisted
        if UINT_INDEX:
            # unsigned word indices: Numba wraps a negative signed index on every access
            lines += [
                "    bd = uint64(cuda.blockDim.x)",
                "    nw = uint64(n) >> uint64(1)",
                f"    base = uint64(cuda.blockIdx.x) * (bd * uint64({W})) "
                "+ uint64(cuda.threadIdx.x)",
            ]
        else:
            lines += [
                "    bd = cuda.blockDim.x",
                "    nw = n >> 1",
                f"    base = cuda.blockIdx.x * bd * {W} + cuda.threadIdx.x",
            ]
        if sim:
            # the simulator pays per thread: a few threads loop over the words
            lines += [(f"    step = uint64(cuda.gridDim.x) * (bd * uint64({W}))" if UINT_INDEX
                       else f"    step = cuda.gridDim.x * bd * {W}"), "    while base < nw:"]
        else:
            lines.append("    if base < nw:")
        # Both words loaded unconditionally (the second at a clamped index past the end, its
        # values not stored) and stored after: with one branch per word count, ptxas if-converted
        # the two paths and issued the second load only after the first word's arithmetic
        # (light ops such as negative: 90% of copy with uint64 indices, 98.6% with int64 whose
        # branches it kept; index_sign_ab.py, H200 2026-12-03).
        # An op that touches raw arrays (an ElementwiseKernel's atomics, say) must not run on
        # the clamped word, so it keeps a branch per word count.
        raw = any(kind[0] == "r" for kind, _ in in_specs)

        def word(h):        # the thread's h-th word (unsigned: no mixed-sign arithmetic)
            k = "bd" if h == 1 else f"uint64({h}) * bd" if UINT_INDEX else f"{h} * bd"
            return f"base + {k}"
        if raw:
            for h in range(W - 1, 0, -1):
                lines.append(f"        {'if' if h == W - 1 else 'elif'} {word(h)} < nw:")
                lines += words_lines(["base"] + [word(k) for k in range(1, h + 1)], " " * 12)
            lines.append("        else:")
            lines += words_lines(["base"], " " * 12)
        else:
            for h in range(1, W):
                lines += [f"        b{h} = {word(h)}", f"        {full(h)} = b{h} < nw",
                          f"        if not {full(h)}:", f"            b{h} = base"]
            lines += words_lines(["base"] + [f"b{h}" for h in range(1, W)], " " * 8,
                                 guard_second=True)
        if sim:
            lines.append("        base += step")
        lines.append("    if n & 1 and cuda.blockIdx.x == 0 and cuda.threadIdx.x == 0:")
        ld, comp, st = element("n - 1", "t", 8)
        lines += ld + [comp] + st
    elif layout == "rows":
        # 2-D, every operand unit-stride along the rows or broadcast there (any row strides:
        # a row broadcast x - m, a column one, row-sliced views): a block's threads run along
        # a row, ROWS_EPT elements each (bd apart: coalesced), and the grid's y steps the rows,
        # so no element unravels its index (the strided layout divides per element: x - m of
        # (2^14, 2^14) float32 ran at 36.5% of copy bandwidth there, H200).  (c{i} are the
        # hoisted scalars: the columns are k)
        lines += rows_head(outs + ins, "cols", "out0.shape[1]", ROWS_EPT)
        lines += unrolled([f"r, k0 + uint64({u}) * bd" if u else "r, k0" for u in range(ROWS_EPT)],
                          "k = k0", "r, k", "cols", var="k")
        lines += ["        r += uint64(cuda.gridDim.y) * uint64(cuda.blockDim.y)"]
    elif layout == "rowsw":
        # the rows layout moving two elements a word (as ``words``): rows of even length whose
        # operands' rows start 8-byte aligned (4-byte dtypes; 2-byte for 1-byte ones).  Inputs
        # broadcast along the row (a column, ``staged``; any dtype) load the row's one element
        # once a round; the other array operands (unit-stride, or a row broadcast down the
        # columns) and the outputs come twice, as elements and as 2-D word views (``*w``).
        wouts = [f"out{j}w" for j in range(nout)]
        wins = [f"in{i}w" for i in range(nin) if in_specs[i][0] == "a" and i not in staged]
        lines += rows_head(outs + ins + wouts + wins, "colsw", "out0w.shape[1]", ROWS_WORDS_EPT)
        lines += words_lines(["k0" if u == 0 else f"k0 + uint64({u}) * bd"
                              for u in range(ROWS_WORDS_EPT)], " " * 12, row="r, ")
        lines += ["        else:", "            k = k0", "            while k < colsw:"]
        lines += words_lines(["k"], " " * 16, row="r, ")
        lines += ["                k += bd",
                  "        r += uint64(cuda.gridDim.y) * uint64(cuda.blockDim.y)"]
    elif layout == "tiled":
        # 2-D, output rows contiguous, some inputs contiguous down the columns (transposed):
        # those are staged through a shared-memory tile so that both their reads and the
        # output's writes are coalesced.
        T, BY = _TILE_SIM if sim else _TILE_GPU
        lines.append(f"def KERNEL(n, {', '.join(outs + ins)}):")
        lines += hoisted
        for i in staged:
            lines.append(f"    tile{i} = cuda.shared.array(({T}, {T + 1}), "
                         f"{type_name(in_specs[i][1])})")
        lines += ["    rows = out0.shape[0]", "    cols = out0.shape[1]",
                  "    tx = cuda.threadIdx.x", "    ty = cuda.threadIdx.y",
                  f"    r0 = cuda.blockIdx.x * {T}", f"    k0 = cuda.blockIdx.y * {T}"]
        # full tiles (all but the edges): every global load of the thread (tile and direct
        # inputs) is issued before the barrier, so T // BY * inputs loads are in flight
        lines.append(f"    if r0 + {T} <= rows and k0 + {T} <= cols:")
        direct, after, stores = [], [], []
        for j in range(T // BY):
            ld, comp, st = element(f"r0 + ty + {j * BY}, k0 + tx", j, 8,
                                   sources={i: f"tile{i}[ty + {j * BY}, tx]" for i in staged})
            for line in ld:
                is_tile = any(line.lstrip().startswith(f"a{i}_") for i in staged)
                (after if is_tile else direct).append(line)
            after.append(comp)
            stores += st
        lines += [f"        g{i}_{j} = in{i}[r0 + tx, k0 + ty + {j * BY}]"
                  for i in staged for j in range(T // BY)]
        lines += direct
        lines += [f"        tile{i}[tx, ty + {j * BY}] = g{i}_{j}"
                  for i in staged for j in range(T // BY)]
        lines.append("        cuda.syncthreads()")
        lines += after + stores
        lines.append("    else:")
        lines += [f"        for j in range({T // BY}):",
                  "            r = r0 + tx", f"            c = k0 + ty + j * {BY}",
                  "            if r < rows and c < cols:"]
        lines += [f"                tile{i}[tx, ty + j * {BY}] = in{i}[r, c]" for i in staged]
        lines += ["        cuda.syncthreads()",
                  f"        for j in range({T // BY}):",
                  f"            r = r0 + ty + j * {BY}", "            c = k0 + tx",
                  "            if r < rows and c < cols:"]
        ld, comp, st = element("r, c", "t", 16,
                               sources={i: f"tile{i}[ty + j * {BY}, tx]" for i in staged})
        lines += ld + [comp] + st
    else:
        idx = ", ".join(f"c{d}_" for d in range(ndim))
        lines.append(f"def KERNEL(n, {', '.join(outs + ins)}):")
        lines += hoisted
        # strided32: every index fits 32 bits, so unravel with 32-bit division (several
        # times cheaper than 64-bit on the GPU; LLVM narrows the zero-extended operands)
        w = "uint32" if layout == "strided32" else ""
        lines += [f"    s{d} = {w}(out0.shape[{d}])" for d in range(1, ndim)]
        lines += [
            "    idx = cuda.grid(1)",
            "    step = cuda.gridsize(1)",
            "    while idx < n:",
        ]
        lines += unravel_lines("idx", ndim, "        ", cast=w)
        ld, comp, st = element(idx, "t", 8, linear="idx")
        lines += ld + [comp] + st
        lines.append("        idx += step")

    body = "\n".join(lines) + "\n"
    text = op.device_source() + "\n\n" + body
    kname = _kernel_name(name, text)
    text = text.replace("def KERNEL(", f"def {kname}(")

    flat = layout in ("contig", "words")
    nd = 1 if flat else ndim
    lay = "C" if flat else "A"
    params = [Param("scalar", np.int64)]
    params += [Param("array", d, nd, lay) for d in out_dtypes]
    for kind, st in in_specs:
        if kind == "i":
            continue
        if kind == "a":
            params.append(Param("array", st, nd, lay))
        elif kind == "z":
            params.append(Param("array", st, 1, "A"))
        elif kind[0] == "r":
            params.append(Param("array", st, int(kind[1:]), "A"))
        else:
            params.append(Param("scalar", st))
    if layout == "words":
        params += [Param("array", WORD_DTYPE[np.dtype(d).itemsize], 1, "C") for d in out_dtypes]
        params += [Param("array", WORD_DTYPE[st.itemsize], 1, "C")
                   for kind, st in in_specs if kind == "a"]
    elif layout == "rowsw":
        params += [Param("array", WORD_DTYPE[np.dtype(d).itemsize], 2, "A") for d in out_dtypes]
        params += [Param("array", WORD_DTYPE[st.itemsize], 2, "A")
                   for i, (kind, st) in enumerate(in_specs) if kind == "a" and i not in staged]
    rows = layout in ("rows", "rowsw")
    threads = ((_THREADS or 128) if layout == "words" else ROWS_THREADS if rows
               else threads_per_block(in_specs)) \
        if flat or (rows and not sim) else _BLOCK
    # (the simulator ignores launch bounds; recorded kernels keep them for ptxcheck/sass_counts)
    bounds = (threads, max(1, HEAVY_THREADS_PER_SM // threads)) if heavy else None
    ks = KernelSource(kname, text, params, bounds, f64_table=getattr(op, "f64_table", False))
    ks.elements_per_thread = (2 * words_per_thread(op) if layout == "words"
                              else ROWS_EPT if layout == "rows"
                              else 2 * ROWS_WORDS_EPT if layout == "rowsw" else ept)
    ks.threads = threads
    ks.covers = layout == "words" and not sim     # launched with a grid that covers every element
    return ks


_U64 = np.dtype(np.uint64)
# a ``words`` operand moves two elements per load: 1-byte dtypes as uint16, 4-byte as uint64
WORD_DTYPE = {1: np.dtype(np.uint16), 4: _U64}
_BYTE_FROM = {"b": "({} != uint16(0))", "i": "int8({})", "u": "uint8({})"}
# reinterpretation of a 4-byte storage value as the low or high half of a uint64 word
_WORD_FROM = {"f": "libdevice.int_as_float(int32({}))", "i": "int32({})", "u": "uint32({})"}
_WORD_TO = {"f": "uint64(uint32(libdevice.float_as_int({})))", "i": "uint64(uint32({}))",
            "u": "uint64({})"}


def from_word(word, half, dt):
    """Source of the ``dt`` value in the low (``half`` 0) or high half of ``word``: a uint64
    holding two 4-byte values or a uint16 holding two 1-byte values (the elementwise ``words``
    layout and the reductions' word loads)."""
    if dt.itemsize == 1:
        bits = f"({word} & uint16(0xff))" if half == 0 else f"({word} >> uint16(8))"
        return _BYTE_FROM[dt.kind].format(bits)
    bits = f"({word} & uint64(0xffffffff))" if half == 0 else f"({word} >> uint64(32))"
    return _WORD_FROM[dt.kind].format(bits)


def _to_word(lo, hi, dt):
    if dt.itemsize == 1:
        return f"(uint16(uint8({lo})) | (uint16(uint8({hi})) << uint16(8)))"
    return (f"({_WORD_TO[dt.kind].format(lo)} | "
            f"({_WORD_TO[dt.kind].format(hi)} << uint64(32)))")


def words_apply(arrays):
    """Can a contiguous launch over ``arrays`` (inputs and outputs) move words (two elements
    a load)?  Every operand of a :func:`words_dtypes` dtype and 8-byte aligned."""
    return words_dtypes(a.dtype for a in arrays) and not any(a._ptr & 7 for a in arrays)


# --- planning and launch ----------------------------------------------------------------------
def _collapse(shape, stride_lists):
    """Merge adjacent dims that are contiguous for every operand; drop size-1 dims."""
    dims = [d for d in range(len(shape)) if shape[d] != 1]
    if not dims:
        return (), [() for _ in stride_lists]
    new_shape = [shape[dims[0]]]
    new_strides = [[s[dims[0]]] for s in stride_lists]
    for d in dims[1:]:
        n = shape[d]
        if all(ns[-1] == s[d] * n for ns, s in zip(new_strides, stride_lists)):
            new_shape[-1] *= n
            for ns, s in zip(new_strides, stride_lists):
                ns[-1] = s[d]
        else:
            new_shape.append(n)
            for ns, s in zip(new_strides, stride_lists):
                ns.append(s[d])
    return tuple(new_shape), [tuple(ns) for ns in new_strides]


def broadcast_strides(arr_shape, arr_strides, shape):
    """Strides of an array broadcast to ``shape`` (0 on broadcast dims)."""
    off = len(shape) - len(arr_shape)
    out = [0] * off
    for i, n in enumerate(arr_shape):
        out.append(0 if n == 1 and shape[off + i] != 1 else arr_strides[i])
    return out


# (tile edge, block rows) of the tiled layout: the GPU's, and the simulator's (a block and a
# barrier per tile there; small tiles, so that the tests span several)
_TILE_GPU, _TILE_SIM = (32, 8), (4, 2)
_TILE = _TILE_SIM if _backend.IS_SIM else _TILE_GPU


class _Index:
    """Marker input: the kernel passes each element's linear index (int64) in its place."""
    dtype = _I64

    def __repr__(self):
        return "INDEX"


INDEX = _Index()


class Raw:
    """An input handed to ``op`` as the whole array (kind ``r<ndim>``), not one element."""
    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    @property
    def dtype(self):
        return self.array.dtype


_fast = compiler.clears_with_memory_cache({})   # fast-path key -> launcher (all-contiguous)
# layout key (op, dtypes, shapes and strides of every operand) -> (launcher, grid, block,
# argument list, where the addresses and scalars go): :func:`launch`'s other layouts replayed
_layouts = compiler.clears_with_memory_cache({})
_LAYOUTS_MAX = 1024
_SIM = _backend.IS_SIM
# The simulator runs blocks one after another and pays per block, per thread and per barrier
# on top of each element's interpretation.  So there grid-stride kernels get at most SIM_GRID
# blocks of _BLOCK threads (more than one of each, so the block and thread strides of the
# template are exercised), and the tiled layout (a block and a barrier per 4 x 4 tile) is used
# up to TILED_MAX elements; larger transposed operands take the strided layout.  Measured on 2
# cores, x + x.T of 300 x 300 float32: tiled 2.2 s CPU, strided 0.67 s (before the simulator
# fixes, one OS thread per simulated thread: 1000 x 1000 tiled took over 10 minutes).
_BLOCK = 4 if _SIM else 256
SIM_GRID = 2
TILED_MAX = 1 << 12 if _SIM else None
# The ``rows`` layout (2-D operands unit-stride along the rows or broadcast there; render()):
# from rows of ROWS_MIN_COLS elements (shorter rows leave a block's threads idle: the strided
# layout), ROWS_EPT elements a thread (NPGPU_EW_ROWS=0: the strided layout).  H200,
# broadcast_rows_ab.py (2026-12-03), % of copy bandwidth, (2^14, 2^14) float32 strided -> rows:
# x - m (m a row) 36.4 -> 72.3, (x - m) ** 2 53.8 -> 84.7, x[:, 64:-64] * 2 39.0 -> 85.6,
# x[::2] + x[1::2] 52.3 -> 81.6; float64 x - m 68.2 -> 86.2, sum((x - x.mean(0)) ** 2)
# 88.8 -> 99.8.
# Short rows: (n, 512)[:, :w] - m, w = 128 / 192 / 320, % of copy, strided -> rows with several
# rows a block (blockDim.y; call 1, 2026-12-03, power-of-two block rows): float32 32.3 -> 62.2,
# 34.3 -> 39.1, 35.2 -> 39.3; float64 57.6 -> 74.8, 60.9 -> 58.2, 62.8 -> 64.5, hence rows from
# 128 columns (before blockDim.y: float64 57.6 -> 44.5 at 128 columns).  Block rows are whole
# warps now, not powers of two (rows_block).
ROWS = os.environ.get("NPGPU_EW_ROWS", "1") == "1"
ROWS_MIN_COLS = int(os.environ.get("NPGPU_EW_ROWS_MIN_COLS") or (2 if _SIM else 128))
ROWS_EPT = int(os.environ.get("NPGPU_EW_ROWS_EPT", "4"))
# ... and threads a block.  H200, broadcast_rows_ab.py (2026-12-03), (2^14, 2^14) float32, 4
# elements a thread, 256 / 128 / 512 threads: x - m 69.8 / 80.3 / 61.7% of copy bandwidth,
# (x - m) ** 2 83.4 / 88.4 / 79.0%, x[::2] + x[1::2] 80.4 / 90.4 / 80.3%; float64 x - m
# 90.5 / 99.8 / 89.2% (8 or 16 elements a thread: slower at every block size)
ROWS_THREADS = int(os.environ.get("NPGPU_EW_ROWS_THREADS", "128"))
# the ``words`` layout from this many elements (below, the plain kernel's shorter argument list
# launches faster); every size on the simulator (up to WORDS_MAX), so CI runs it.  H200
# (words_min_ab.py, 2026-12-03), add / exp of float32, words from 2^15 against the element
# kernel: 200 calls back to back 12.2 / 11.1 against 8.1 / 7.8 us a call at 2^16, 12.7 / 11.6
# against 9.0 / 7.2 at 2^20; one call between events 16.5 / 15.2 against 14.2 / 11.6 at 2^20
# (its kernel alone: 9.7 / 9.4 against 11.7 / 9.2, from the launch on)
WORDS_MIN = 1 if _SIM else 1 << 21
# ... up to this many: on the simulator a word's unpacking (NumPy scalar bit views) costs 2-3x
# the element kernel's load, and the memory instructions it saves cost nothing there
WORDS_MAX = 1 << 12 if _SIM else 1 << 62


# The rows layout moves two elements a word where the dtypes (those of ``words``) and the rows'
# alignment allow (``rowsw``; NPGPU_EW_ROWS_WORDS=0: never), ROWS_WORDS_EPT words a thread.
ROWS_WORDS = os.environ.get("NPGPU_EW_ROWS_WORDS", "1") == "1"
ROWS_WORDS_EPT = int(os.environ.get("NPGPU_EW_ROWS_WORDS_EPT", "2"))


def rows_block(threads, cols, ept=None):
    """(x, y) block shape of the rows layout: ``threads`` along a row, or for rows shorter than
    that many threads' ``ept`` elements (ROWS_EPT; words of ``rowsw``), the fewest whole warps
    (threads on the simulator) that cover the row along it and as many rows as fit the block
    (a block of 96 threads for 320 columns: 83% of its lanes busy, where a power of two, 128,
    left 37.5% idle)."""
    unit = 1 if _SIM else 32
    bx = min(threads, -(-cols // ((ept or ROWS_EPT) * unit)) * unit)
    return bx, threads // bx


def words_size(n):
    """Does a contiguous launch of ``n`` elements take the ``words`` layout (dtypes allowing)?"""
    return WORDS_MIN <= n <= WORDS_MAX


# (elements, launcher) -> (blocks, threads): hot paths' sizes repeat, and a look-up costs a
# fifth of the computation (CPU: 45 against 240 ns); hot callers read ``GRIDS`` first
GRIDS = {}
_GRIDS_MAX = 1024


def _grid(n, kern):
    """(blocks, threads) of a 1-D launch of ``kern`` (a Launcher, or elements per thread),
    remembered in ``GRIDS`` (bounded: sizes need not repeat)."""
    g = GRIDS.get((n, kern))
    if g is not None:
        return g
    per = getattr(kern, "elements_per_thread", kern)
    if _SIM:
        g = max(1, min(SIM_GRID, -(-n // (_BLOCK * per)))), _BLOCK
    else:
        bd = getattr(kern, "threads", _BLOCK)
        # (a ``covers`` kernel needs every block: 2^31 - 1 blocks of 128 x 4 elements is 2^40)
        g = max(1, min(-(-n // (bd * per)), 2 ** 31 - 1)), bd
    if len(GRIDS) >= _GRIDS_MAX:
        GRIDS.clear()
    GRIDS[(n, kern)] = g
    return g


def _arr_values(ptr, shape, strides, itemsize):
    n = 1
    for s in shape:
        n *= s
    return [0, 0, n, itemsize, ptr, *shape, *strides]


def contig_kernel(op, in_dtypes, out_dtypes, loop_in, loop_out, name="ew"):
    """The launcher :func:`launch` uses when every operand is a C-contiguous array of one shape
    (under :func:`launch`'s own key: one compile serves both)."""
    in_specs = tuple(("a", np.dtype(d)) for d in in_dtypes)
    out_dtypes = tuple(np.dtype(d) for d in out_dtypes)
    key = (op.key, name, in_specs, out_dtypes, tuple(loop_in), tuple(loop_out), "contig", 1, ())
    return compiler.get_kernel(key, lambda: render(op, list(in_specs), list(out_dtypes), loop_in,
                                                   loop_out, "contig", 1, name))


def words_dtypes(dtypes):
    """Do operands of these dtypes qualify for the ``words`` layout?  4-byte numbers and 1-byte
    ones (bool, int8, uint8: masks and comparisons), two elements per load either way."""
    return all(np.dtype(d).itemsize in WORD_DTYPE and np.dtype(d).kind in "fiub"
               for d in dtypes)


def words_kernel(op, in_dtypes, out_dtypes, loop_in, loop_out, name="ew"):
    """The ``words`` launcher for all-contiguous arrays of these (4-byte) dtypes."""
    in_specs = tuple(("a", np.dtype(d)) for d in in_dtypes)
    out_dtypes = tuple(np.dtype(d) for d in out_dtypes)
    key = (op.key, name, in_specs, out_dtypes, tuple(loop_in), tuple(loop_out), "words", 1, (),
           words_per_thread(op))
    return compiler.get_kernel(key, lambda: render(op, list(in_specs), list(out_dtypes), loop_in,
                                                   loop_out, "words", 1, name))


def _word_values(values, n, arrays):
    """Append the ``words`` kernel's word-view arguments of ``arrays`` (``n`` elements each) to
    the launch ``values``: two elements a word, so ``n >> 1`` words of twice the itemsize."""
    nw = n >> 1
    for x in arrays:
        wsz = 2 * x.dtype.itemsize
        values += (0, 0, nw, wsz, x._ptr, nw, wsz)


class Words:
    """The ``words`` launcher of one op over all-contiguous operands of these dtypes
    (``words_kernel(*args)``), looked up on its first use and then kept: a repeat call's
    look-up by key hashes the op's dtypes, several microseconds a call (H200,
    words_min_ab.py: add of 2^16 float32, 200 calls back to back, 18.7 us a call with the
    look-up against 11.9 for the element kernel's launch)."""
    __slots__ = ("args", "kern")

    def __init__(self, *args):
        self.args = args            # words_kernel's arguments
        self.kern = None

    def launcher(self):
        k = self.kern
        if k is None:               # (two threads may both look it up: the same launcher)
            k = self.kern = words_kernel(*self.args)
        return k


def words_plan(op, in_dtypes, out_dtypes, loop_in, loop_out, name):
    """A :class:`Words` for these operand dtypes, or None where they do not qualify."""
    return (Words(op, in_dtypes, out_dtypes, loop_in, loop_out, name)
            if words_dtypes((*in_dtypes, *out_dtypes)) else None)


def launch_words(words, kern, n, arrays):
    """Run the ``words`` kernel of ``words`` (a :class:`Words`) over C-contiguous ``arrays``
    (outputs, then inputs) of ``n`` elements (at least ``WORDS_MIN``), or the ``contig``
    launcher ``kern`` (None: made from the same arguments) when a pointer is not 8-byte aligned
    or ``n`` is past ``WORDS_MAX``."""
    values = [n]
    wvalues = []
    nw = n >> 1
    ptrs = 0
    for x in arrays:
        isz, p = x.dtype.itemsize, x._ptr
        ptrs |= p
        values += (0, 0, n, isz, p, n, isz)
        wvalues += (0, 0, nw, 2 * isz, p, nw, 2 * isz)
    if n > WORDS_MAX or ptrs & 7:
        wkern = kern or contig_kernel(*words.args)
    else:
        wkern = words.kern or words.launcher()
        values += wvalues
    grid, block = GRIDS.get((n, wkern)) or _grid(n, wkern)
    wkern(grid, block, values)


class ContigPlan:
    """The launch of a repeat call whose operands are all C-contiguous arrays of one shape (the
    ufuncs' cached plan): ``plan(n, arrays)`` runs ``op`` over ``arrays`` (outputs, then inputs;
    ``n`` elements each) with no layout analysis.  ``in_dtypes``: the inputs' storage dtypes;
    the outputs are of ``loop_out``.  Words-eligible dtypes (:func:`words_dtypes`) take the
    ``words`` kernel from ``WORDS_MIN`` elements, compiled on first use; the element kernel is
    compiled now unless words take every size (the simulator: misaligned views make it then)."""
    __slots__ = ("out_dtypes", "kern", "words")

    def __init__(self, op, in_dtypes, loop_in, loop_out, name):
        in_dtypes, loop_out = tuple(in_dtypes), tuple(loop_out)
        self.out_dtypes = loop_out
        self.words = words_plan(op, in_dtypes, loop_out, tuple(loop_in), loop_out, name)
        self.kern = (None if self.words is not None and WORDS_MIN <= 1 else
                     contig_kernel(op, in_dtypes, loop_out, loop_in, loop_out, name))

    def __call__(self, n, arrays):
        words = self.words
        if words is not None and n >= WORDS_MIN:
            launch_words(words, self.kern, n, arrays)
        elif n:
            values = [n]
            for x in arrays:
                isz = x.dtype.itemsize
                values += (0, 0, n, isz, x._ptr, n, isz)
            kern = self.kern
            grid, block = GRIDS.get((n, kern)) or _grid(n, kern)
            kern(grid, block, values)


# column broadcasts (an (n, 1) operand: one value a row) count as transposed inputs, staged by
# the tiled layout (NPGPU_EW_TILE_COLUMNS=1), or not (0, the default: from ROWS_MIN_COLS columns
# the rows layout takes them, one load a row and round; shorter rows the strided layout).
# H200, broadcast_rows_ab.py (2026-12-03, (2^14, 2^14) float32, rows in words): x - c 62.4% of
# copy bandwidth tiled, 84.8% in rows; x * c + m 74.2 -> 89.8%
TILE_COLUMNS = os.environ.get("NPGPU_EW_TILE_COLUMNS", "0") == "1"


def _transposed_inputs(inputs, kinds, in_strides):
    """Indices of 2-D array inputs that run down the columns (what the tiled layout stages)."""
    out = []
    ai = 0
    for k, x in enumerate(inputs):
        if kinds[k] == "i":
            return ()                 # the linear index is not rendered in the tiled layout
        if kinds[k] != "a":
            continue
        s = in_strides[ai]
        ai += 1
        if (abs(s[0]) == x.itemsize and s[1] != x.itemsize and x.dtype.kind != "b"
                and (TILE_COLUMNS or s[1])):
            out.append(k)
    return tuple(out)


def _rows_words(outputs, inputs, kinds, cshape, cstrides):
    """The ``rowsw`` form of a ``rows`` launch: None where it does not apply (odd rows, a dtype
    ``words`` does not take, an operand's rows not aligned to its words), else (the inputs
    broadcast along the rows: column stride 0, loaded one element a row, any dtype; the
    operands moved as words: (position among outputs then inputs, row stride in bytes))."""
    if cshape[1] % 2:
        return None
    nout = len(outputs)
    cols_b, words, ai = [], [], 0
    for k, x in enumerate((*outputs, *inputs)):
        kind = "a" if k < nout else kinds[k - nout]
        if kind not in "az":
            continue
        s = cstrides[ai]
        ai += 1
        if kind == "z":
            continue
        if s[1] == 0:
            cols_b.append(k - nout)
        elif (not words_dtypes((x.dtype,)) or x._ptr % (2 * x.itemsize)
              or s[0] % (2 * x.itemsize)):
            return None
        else:
            words.append((k, s[0]))
    return tuple(cols_b), words


def launch(op, inputs, loop_in, outputs, loop_out, name="ew"):
    """Run ``op`` elementwise.

    inputs: per input an npgpu ndarray or a NumPy scalar (already of the loop
    dtype or castable to it); outputs: npgpu ndarrays of the result shape (all
    the same shape; inputs broadcast to it).  loop_in/loop_out: loop dtypes.
    Returns the launcher where the call took the contiguous element kernel with the values
    ``n``, then per operand its view's values or a scalar's (callers may repeat that launch
    themselves); else None.
    """
    out0 = outputs[0]
    shape = out0.shape
    n = out0.size
    if n == 0:
        return
    # Fast path, the common call: arrays all C-contiguous with the result's shape, or scalars.
    sig = []
    for x in inputs:
        if getattr(x, "_c_contig", False) and x.shape == shape:
            sig.append(x.dtype)
        elif isinstance(x, np.generic):
            sig.append(("s", x.dtype))
        else:
            sig = None
            break
    if sig is not None and all(o._c_contig for o in outputs):
        words = words_size(n) and words_apply(
            [*outputs, *(x for x in inputs if not isinstance(x, np.generic))])
        fkey = (op.key, name, tuple(sig), tuple(o.dtype for o in outputs), tuple(loop_in),
                tuple(loop_out), words)
        kern = _fast.get(fkey)
        if kern is not None:
            values = [n]
            for o in outputs:
                isz = o.dtype.itemsize
                values += (0, 0, n, isz, o._ptr, n, isz)
            for x in inputs:
                if isinstance(x, np.generic):
                    values += (x.real, x.imag) if x.dtype.kind == "c" else (x,)
                else:
                    isz = x.dtype.itemsize
                    values += (0, 0, n, isz, x._ptr, n, isz)
            if words:
                _word_values(values, n, [*outputs, *(x for x in inputs
                                                     if not isinstance(x, np.generic))])
            grid, block = _grid(n, kern)
            kern(grid, block, values)
            return None if words else kern
    else:
        fkey = None
    # A repeated call of the same layout (shapes, strides, dtypes: broadcasting, views, a
    # scalar with a view, transposes) replays the launch found for it: the kernel, grid and
    # argument list, with only the operands' addresses and scalars put in (CPU, launch
    # stubbed: a broadcast subtract 26 -> ~6 us of host time).
    mkey = [op.key, name, tuple(loop_in), tuple(loop_out)]
    for x in inputs:
        if x is INDEX:          # (no argument values: arange, linspace, eye and the like)
            mkey.append("i")
            continue
        if x.__class__ is Raw:  # not replayed
            mkey = None
            break
        if isinstance(x, np.generic):
            mkey.append(x.dtype)
        else:   # (the address's low bits: the rowsw form moves aligned words; other layouts
            # may then keep an entry per alignment seen)
            mkey.append((x.dtype, x.shape, x._strides, x._ptr & 7))
    if mkey is not None:
        for o in outputs:
            mkey.append((o.dtype, o.shape, o._strides, o._ptr & 7))
        mkey = tuple(mkey)
        hit = _layouts.get(mkey)
        if hit is not None:
            kern, grid, block, template, slots = hit
            values = list(template)
            ops = (*outputs, *inputs)
            for pos, k, what in slots:
                x = ops[k]
                values[pos] = x._ptr if what == 0 else x if what == 1 else \
                    x.real if what == 2 else x.imag
            kern(grid, block, values)
            return
    arr_in = []
    kinds = []
    for x in inputs:
        if x is INDEX:
            kinds.append("i")
            if not all(o._c_contig for o in outputs):
                raise ValueError("an INDEX operand needs C-contiguous outputs")
        elif x.__class__ is Raw:
            kinds.append(f"r{x.array.ndim}")
        elif isinstance(x, np.generic):
            kinds.append("s")
        else:
            arr_in.append(x)
            kinds.append("a")
    # fast path: all C-contiguous with the result's shape
    if all(a.shape == shape and a._c_contig for a in arr_in) and all(o._c_contig for o in outputs):
        layout, cshape = "contig", (n,)
        cstrides = None
    else:
        strides = [tuple(o._strides) for o in outputs]
        strides += [broadcast_strides(a.shape, a._strides, shape) for a in arr_in]
        cshape, cstrides = _collapse(shape, strides)
        if not cshape:
            cshape = (1,)
            cstrides = [(0,) for _ in cstrides]
        nd = len(cshape)
        layout = "strided"
        if nd == 1:
            # contiguous when every operand is unit-stride (or fully broadcast)
            ok = all(s[0] == o.itemsize for s, o in zip(cstrides, outputs))
            ok = ok and all(s[0] in (0, a.itemsize) for s, a in zip(cstrides[len(outputs):], arr_in))
            if ok:
                layout = "contig"
        staged = ()
        if nd == 2 and layout == "strided" and all(s[1] == o.itemsize
                                                   for s, o in zip(cstrides, outputs)):
            staged = _transposed_inputs(inputs, kinds, cstrides[len(outputs):])
            if staged and -(-cshape[1] // _TILE[0]) <= 65535 and (TILED_MAX is None
                                                                   or n <= TILED_MAX):
                layout = "tiled"
            else:
                staged = ()
        if (ROWS and nd == 2 and layout == "strided" and cshape[1] >= ROWS_MIN_COLS
                and not any(k == "i" or k[0] == "r" for k in kinds)
                and all(s[1] == o.itemsize for s, o in zip(cstrides, outputs))
                and all(s[1] in (0, a.itemsize)
                        for s, a in zip(cstrides[len(outputs):], arr_in))):
            layout = "rows"
        if layout == "strided" and n < 2 ** 31:
            layout = "strided32"
        # operands broadcast over everything become "z" (load once)
        ai = 0
        for k, x in enumerate(inputs):
            if kinds[k] == "a":
                if all(s == 0 for s in cstrides[len(outputs) + ai]):
                    kinds[k] = "z"
                ai += 1
        if layout == "rows" and ROWS_WORDS:
            plan = _rows_words(outputs, inputs, kinds, cshape, cstrides)
            if plan is not None:
                layout, (staged, word_ops) = "rowsw", plan
    in_specs = []
    for k, x in enumerate(inputs):
        in_specs.append((kinds[k], _I64 if x is INDEX else np.dtype(x.dtype)))
    out_dtypes = [o.dtype for o in outputs]
    nd = len(cshape)
    if layout == "contig":
        staged = ()
        if "i" not in kinds and words_size(n) and words_apply(
                [*outputs, *(x for k, x in enumerate(inputs) if kinds[k] == "a")]):
            layout = "words"
    flat = layout in ("contig", "words")
    key = (op.key, name, tuple(in_specs), tuple(out_dtypes), tuple(loop_in), tuple(loop_out),
           layout, 1 if flat else nd, staged)
    kern = compiler.get_kernel(key, lambda: render(op, in_specs, out_dtypes, loop_in, loop_out,
                                                   layout, nd, name, staged))
    values = [n]
    slots = []                  # (position in values, operand: outputs then inputs, what)
    if flat:
        for j, o in enumerate(outputs):
            slots.append((len(values) + 4, j, 0))
            values += [0, 0, n, o.itemsize, o._ptr, n, o.itemsize]
    else:
        for j, (o, s) in enumerate(zip(outputs, cstrides)):
            slots.append((len(values) + 4, j, 0))
            values += _arr_values(o._ptr, cshape, s, o.itemsize)
    ai = 0
    nout = len(outputs)
    for k, x in enumerate(inputs):
        if kinds[k] == "i":
            continue
        if kinds[k] == "s":
            if x.dtype.kind == "c":
                slots += [(len(values), nout + k, 2), (len(values) + 1, nout + k, 3)]
                values += [x.real, x.imag]
            else:
                slots.append((len(values), nout + k, 1))
                values.append(x)
            continue
        if kinds[k][0] == "r":
            a = x.array
            values += _arr_values(a._ptr, a.shape, a._strides, a.itemsize)
            continue
        slots.append((len(values) + 4, nout + k, 0))
        if kinds[k] == "z":
            values += [0, 0, 1, x.itemsize, x._ptr, 1, x.itemsize]
        elif flat:
            values += [0, 0, n, x.itemsize, x._ptr, n, x.itemsize]
        else:
            values += _arr_values(x._ptr, cshape, cstrides[len(outputs) + ai], x.itemsize)
        ai += 1
    if layout == "words":
        _word_values(values, n, [*outputs, *(x for k, x in enumerate(inputs) if kinds[k] == "a")])
    elif layout == "rowsw":
        wshape = (cshape[0], cshape[1] // 2)
        ops = (*outputs, *inputs)
        for k, s0 in word_ops:
            x = ops[k]
            slots.append((len(values) + 4, k, 0))
            values += _arr_values(x._ptr, wshape, (s0, 2 * x.itemsize), 2 * x.itemsize)
    if layout == "tiled":
        T, BY = _TILE
        grid, block = (-(-cshape[0] // T), -(-cshape[1] // T), 1), (T, BY, 1)
    elif layout in ("rows", "rowsw"):
        cols, per = ((cshape[1], ROWS_EPT) if layout == "rows"
                     else (cshape[1] // 2, ROWS_WORDS_EPT))
        bx, by = rows_block(kern.threads, cols, per)
        grid = (-(-cols // (bx * per)), min(-(-cshape[0] // by), SIM_GRID if _SIM else 65535), 1)
        block = (bx, by, 1)
    else:
        grid, block = _grid(n, kern)
    if fkey is not None and flat and "z" not in kinds:
        _fast[fkey] = kern
    elif mkey is not None and layout != "words":   # (words depend on alignment: not keyed)
        if len(_layouts) >= _LAYOUTS_MAX:
            _layouts.clear()
        _layouts[mkey] = (kern, grid, block, tuple(values), tuple(slots))
    kern(grid, block, values)
