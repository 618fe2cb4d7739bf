"""``unique`` of a short 1-d array in one kernel: sort and run-length encoding in one block.

Keys the one-block row sort takes (:mod:`.segmented`: every real dtype, up to 2048 elements on
the GPU) are sorted by its passes in shared memory (:func:`.segmented.sort_lines`: the same
stable sort, the same payloads as ``sort`` / ``argsort`` of the row), and the same block then
encodes the runs of equal keys of the sorted tile:

1. thread ``t`` owns the sorted positions ``[t * items, (t + 1) * items)``: one bit a position
   that starts a run (a key unlike the one before; with ``equal_nan=False`` every NaN key), and
   one for the position after its last;
2. a scan of the threads' counts in shared memory (Hillis-Steele, ``log2(block)`` rounds): each
   thread's first run number, and the number of runs ``K``;
3. each run start writes its value (decoded from its key, its bits carried by the sort, or the
   input at its index), its index and its position; every element its run number to
   ``inverse``; after a barrier, each run's last element turns its run's start into its length.

One launch, no count or scan kernel; the outputs are sized for ``n`` runs in one allocation of
int64 words (``K`` first, then indices, inverse, counts, values) and shortened to ``K`` after
one 8-byte read into a page-locked word.  The results are those of the general path bit for bit
(the sort is the same kernel's, a run starts where the general path's value test says).
"""
import os

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import layout as _layout
from .._core.host_signal import read_word
from .._core.ndarray import _new
from ..cuda import memory as _memory
from . import keys as _keys
from . import radix as _radix
from . import segmented as _seg

_SIM = _backend.IS_SIM
# On by default where it has run: the simulator (CI).  The GPU takes the kernel once a GPU run
# has checked it (its tests switch it on there; NPGPU_UNIQUE_BLOCK=1 switches it on for all).
ENABLED = os.environ.get("NPGPU_UNIQUE_BLOCK", "1" if _SIM else "0") == "1"
_I64 = np.dtype(np.int64)
_CONTIG = (True, True)
_W = (8,)
# int64 outputs in the order of their blocks of ``n`` words after ``K``
SLOTS = ("indices", "inverse", "counts")


def render(part, pay, outs, equal_nan, digit, *, block, items, sim):
    """The kernel ``(n, X, W, V)``: ``X`` the keys' source (``part.src``: the unsigned view),
    ``W`` int64 words (``W[0]`` = K, then ``n`` words for each of ``outs`` in :data:`SLOTS`),
    ``V`` the values (``X``'s dtype).  ``pay``: the sort's payload (None: keys decode to the
    values; ``"values"``: the value bits travel; ``"iota"``: the index, for indices and
    inverse)."""
    kt = _keys.uint_name(part.w)
    L = ["def KERNEL(n, X, W, V):",
         "    tid = int64(cuda.threadIdx.x)",
         "    base = int64(0)",
         "    nv = n"]
    A = L.append
    L += _seg.sort_lines(part, pay, digit, block=block, items=items, sim=sim)
    # 1. run starts of this thread's positions, and of the one after them (n: an end)
    nan_key = (1 << (8 * part.w)) - 1
    differ = "sk[jr - 1] != sk[jr]"
    if not equal_nan and part.kind == "float":
        differ = f"({differ} or sk[jr] == {kt}({nan_key:#x}))"
    A(f"    c0 = tid * {items}")
    A("    fm = uint32(0)")
    A("    cn = int32(0)")
    A(f"    for k in range({items + 1}):")
    A("        jr = c0 + k")
    A("        if jr < nv:")
    A(f"            if jr == 0 or {differ}:")
    A("                fm |= uint32(1) << uint32(k)")
    A(f"                if k < {items}:")
    A("                    cn += int32(1)")
    A("        elif jr == nv:")
    A("            fm |= uint32(1) << uint32(k)")
    # 2. the threads' counts scanned: first run number (rq), number of runs (sc[block - 1])
    A(f"    sc0 = cuda.shared.array({block}, int32)")
    A(f"    sc1 = cuda.shared.array({block}, int32)")
    A("    xs = cn")
    A("    sc0[tid] = xs")
    A("    cuda.syncthreads()")
    src, dst, off = "sc0", "sc1", 1
    while off < block:
        A(f"    if tid >= {off}:")
        A(f"        xs += {src}[tid - {off}]")
        A(f"    {dst}[tid] = xs")
        A("    cuda.syncthreads()")
        src, dst, off = dst, src, 2 * off
    A("    if tid == 0:")
    A(f"        W[0] = int64({src}[{block - 1}])")
    # 3. the outputs: run starts write value, index, start; every element its run number
    slot = {o: f"1 + {i} * n + " if i else "1 + " for i, o in
            enumerate(o for o in SLOTS if o in outs)}
    if pay is None:
        value = part.decode("sk[jr]")
    elif pay == "values":
        value = "sp[jr]"
    else:
        value = "X[int64(sp[jr])]"
    A("    rq = int64(xs - cn) - 1")
    A(f"    for k in range({items}):")
    A("        jr = c0 + k")
    A("        if jr < nv:")
    A("            if (fm >> uint32(k)) & uint32(1):")
    A("                rq += 1")
    A(f"                V[rq] = {value}")
    if "indices" in outs:
        A(f"                W[{slot['indices']}rq] = int64(sp[jr])")
    if "counts" in outs:
        A(f"                W[{slot['counts']}rq] = jr")
    if "inverse" in outs:
        A(f"            W[{slot['inverse']}int64(sp[jr])] = rq")
    if "counts" in outs:
        # a run's last element (the next position starts a run or is n): its length from the
        # start stored above, by whichever thread owned it (visible after the barrier)
        A("    cuda.syncthreads()")
        A("    rq = int64(xs - cn) - 1")
        A(f"    for k in range({items}):")
        A("        jr = c0 + k")
        A("        if jr < nv:")
        A("            if (fm >> uint32(k)) & uint32(1):")
        A("                rq += 1")
        A("            if (fm >> uint32(k + 1)) & uint32(1):")
        A(f"                W[{slot['counts']}rq] = jr + 1 - W[{slot['counts']}rq]")
    text = part.device_source() + "\n".join(L) + "\n"
    name = _ew._kernel_name("unique_block", text)
    xdt = part.src.dtype
    params = [Param("scalar", _I64), Param("array", xdt, 1, "C"), Param("array", _I64, 1, "C"),
              Param("array", xdt, 1, "C")]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _plan(x, n, outs, equal_nan):
    """(kernel, block, words of the allocation, the values' word, the int64 outputs' words)
    of ``n`` keys like 1-d ``x``, or False where the one-block sort does not take them."""
    parts = _keys.parts_for(x)
    if len(parts) != 1 or n > _seg.max_row(parts[0].w, 8):
        return False
    part = parts[0]
    pay = ("iota" if "indices" in outs or "inverse" in outs else
           None if part.invertible else "values")
    pw = {None: 0, "values": part.src.dtype.itemsize, "iota": 4}[pay]
    block, items = _seg._shape(n, part.w, pw)
    equal_nan = equal_nan and part.kind == "float"
    key = ("unique_block", part.cache_key(), pay, outs, equal_nan, _radix.DIGIT, block, items,
           _SIM)
    kern = compiler.get_kernel(key, lambda: render(part, pay, outs, equal_nan, _radix.DIGIT,
                                                   block=block, items=items, sim=_SIM))
    slots = {o: 1 + i * n for i, o in enumerate(o for o in SLOTS if o in outs)}
    voff = 1 + len(slots) * n
    total = voff + -(-n * x.dtype.itemsize // 8)
    return (kern, block, total, voff, slots.get("indices"), slots.get("inverse"),
            slots.get("counts"))


_PLANS = compiler.clears_with_memory_cache({})


def unique(x, shape, index, inverse, counts, equal_nan):
    """(values, indices, inverse, counts) of C-contiguous ``x`` of ``shape`` flattened (bools
    ``index``, ``inverse``, ``counts``: which to compute; the others None; ``inverse`` of
    ``shape``), or None where the kernel does not take ``x`` (complex, longer than a block's
    tile, empty)."""
    if not ENABLED:
        return None
    dt = x._dtype
    if len(shape) == 1:
        n = shape[0]
    else:
        n = 1
        for s in shape:
            n *= s
    key = (dt, n, index, inverse, counts, equal_nan)
    p = _PLANS.get(key)
    if p is None:
        if not 0 < n <= _seg.max_row(8, 8) or dt.kind not in "biuf":
            return None
        outs = tuple(o for o, w in zip(SLOTS, (index, inverse, counts)) if w)
        p = _PLANS[key] = _plan(x.reshape(-1), n, outs, equal_nan)
    if p is False:
        return None
    kern, block, total, voff, io, vo, co = p
    w = dt.itemsize
    mem = _memory.alloc(8 * total)
    wp = mem.ptr
    vp = wp + 8 * voff
    kern(1, block, [n, 0, 0, n, w, x._ptr, n, w, 0, 0, total, 8, wp, total, 8,
                    0, 0, n, w, vp, n, w])
    K = read_word(wp)
    return (_new(mem, vp, (K,), (w,), dt, None, _CONTIG),
            None if io is None else _new(mem, wp + 8 * io, (K,), _W, _I64, None, _CONTIG),
            None if vo is None else _new(mem, wp + 8 * vo, shape, _layout.c_strides(shape, 8),
                                         _I64, None, _CONTIG if len(shape) == 1 else None),
            None if co is None else _new(mem, wp + 8 * co, (K,), _W, _I64, None, _CONTIG))


def gpu_variants():
    """GPU renderings (for CI's PTX check): each payload, one warp and eight, equal_nan both
    ways, every output."""
    from ..creation import zeros
    out = []
    every = SLOTS
    # (float64 values alone at 256 threads: the most shared memory, 43 KiB of the 48)
    for dt, outs, equal_nan, block in ((np.float32, (), True, 32),
                                       (np.float64, (), False, 256),
                                       (np.float32, ("counts",), False, 256),
                                       (np.float64, every, True, 256),
                                       (np.int64, ("counts",), True, 64),
                                       (np.uint8, ("indices",), True, 32),
                                       (np.float16, ("inverse", "counts"), False, 96),
                                       (np.int16, (), True, 128)):
        part = _keys.parts_for(zeros(4, dt))[0]
        pay = ("iota" if "indices" in outs or "inverse" in outs else
               None if part.invertible else "values")
        pw = {None: 0, "values": part.src.dtype.itemsize, "iota": 4}[pay]
        items = _radix.items_for(part.w, pw, sim=False, rows=True)
        out.append(render(part, pay, outs, equal_nan and part.kind == "float", 8,
                          block=block, items=items, sim=False))
    return out
