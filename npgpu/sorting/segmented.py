"""Sort of short rows: one block per row, every radix pass in shared memory.

A row of ``m <= max_row`` elements is one tile: its block loads it once (keys computed from the
values on the fly), runs every digit pass of the key with the radix sort's ranking
(:func:`.radix.rank_lines`: the same stable ranking a tile of the global sort uses) and a
reorder through shared memory, and stores the row once: one read and one write of the data
whatever the number of passes.  Single-part keys only (every real dtype); complex and lexsort
keys, and longer rows, take the global radix sort with the row id as the top key part.

Payloads as in the global sort: none (integers, bool: the keys decode to the values), the
values' bits (floats), or the index within the row (argsort; int64 out).
"""
import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core.ndarray import empty_array
from . import keys as _keys
from . import radix as _radix

_SIM = _backend.IS_SIM
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
# the most threads a row's block has (GPU: 8 warps, as the global sort's tiles)
MAX_BLOCK = _radix.BLOCK


def max_row(key_w, pay_w):
    """Longest row the one-block sort takes for keys of ``key_w`` bytes and payloads of
    ``pay_w``."""
    return MAX_BLOCK * _radix.items_for(key_w, pay_w, rows=True)


def _shape(m, key_w, pay_w):
    """(threads, items) of a row of ``m``: as few warps as cover the row."""
    items = _radix.items_for(key_w, pay_w, rows=True)
    if _SIM:
        return MAX_BLOCK, items
    warps = max(1, -(-m // (32 * items)))
    return 32 * warps, items


def sort_lines(part, pay, digit, *, block, items, sim):
    """Lines sorting the ``nv`` elements of ``X`` from ``base`` (names the kernel defines, with
    ``tid``) in one block: each thread's items loaded, every digit pass ranked and reordered
    through shared memory.  Afterwards ``sk[j]`` holds the ``j``-th smallest key and ``sp[j]``
    its payload (``pay``: ``"values"`` the value's bits, ``"iota"`` its int32 index), ``j <
    nv``; each thread's ``jj[k]`` / ``ky[k]`` / ``pa[k]`` hold tile position, key and payload
    of its items.  Ends with a barrier."""
    kt = _keys.uint_name(part.w)
    tile = block * items
    ptn = {"values": _keys.uint_name(part.src.dtype.itemsize), "iota": "int32",
           None: None}[pay]
    R = 1 << min(digit, part.bits)
    L = _radix.shared_lines(items, R, block, sim, kt, ptn, tile)
    A = L.append
    # the items as loops over the thread's arrays (jj, ky, pa, dg: see radix.shared_lines;
    # typed once, NVVM unrolls the constant trip counts)
    A(f"    for k in range({items}):")
    A(f"        j = {_radix.tile_position('k', block, items, sim)}")
    A("        jj[k] = j")
    A(f"        ky[k] = {kt}(0)")
    if ptn:
        A(f"        pa[k] = {ptn}(0)")
    A("        if j < nv:")
    A(f"            ky[k] = {part.expr('X', 'base + j')}")
    if pay == "values":
        A("            pa[k] = X[base + j]")
    elif pay == "iota":
        A("            pa[k] = int32(j)")
    # the passes as a loop too; every pass counts R digits (a row's keys are whole bytes or
    # bool)
    npass = -(-part.bits // digit)
    A(f"    for pas in range({npass}):")
    A(f"        sh = pas * {digit}")
    body = [f"    for k in range({items}):",
            f"        dg[k] = int32({R})",
            "        if jj[k] < nv:",
            f"            dg[k] = {_radix._digit('ky[k]', kt, 'sh', min(digit, part.bits))}"]
    body += _radix.rank_lines(items, R, block, sim, tile)
    body += _radix.stage_lines(items, R, ptn is not None)
    body += [f"    for k in range({items}):", "        j = jj[k]", "        if j < nv:",
             "            ky[k] = sk[j]"]
    if ptn:
        body.append("            pa[k] = sp[j]")
    body.append("    cuda.syncthreads()")
    return L + ["    " + ln for ln in body]


def render(part, pay, digit, *, block, items, sim, out_dt):
    """The row kernel: ``(nrow, m, X, KO, PO)``; ``pay``: None (decode keys into ``KO``),
    ``"values"`` (the values' bits travel, into ``PO``), ``"iota"`` (index in the row, ``PO`` of
    ``out_dt``)."""
    L = ["def KERNEL(nrow, m, X, KO, PO):",
         "    tid = int64(cuda.threadIdx.x)",
         "    row = int64(cuda.blockIdx.x)",
         "    base = row * m",
         "    nv = m"]
    A = L.append
    L += sort_lines(part, pay, digit, block=block, items=items, sim=sim)
    A(f"    for k in range({items}):")
    A("        j = jj[k]")
    A("        if j < nv:")
    if pay is None:
        A(f"            KO[base + j] = {part.decode('ky[k]')}")
    elif pay == "values":
        A("            PO[base + j] = pa[k]")
    else:
        A(f"            PO[base + j] = {_ew.type_name(out_dt)}(pa[k])")
    text = part.device_source() + "\n".join(L) + "\n"
    name = _ew._kernel_name("radix_rows", text)
    xdt = part.src.dtype
    params = [Param("scalar", _I64), Param("scalar", _I64), Param("array", xdt, 1, "C"),
              Param("array", xdt, 1, "C"), Param("array", out_dt, 1, "C")]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def applies(parts, m):
    """Does the one-block row sort take rows of ``m`` by these key parts?"""
    return len(parts) == 1 and 1 < m <= max_row(parts[0].w, 8)


def plan(part, m, payload):
    """(kernel, block, output dtype, ``payload`` in the kernel's terms, bytes of a value) of rows
    of ``m`` sorted by ``part``; payload as :func:`sort_rows`'s."""
    pay = {"index": "iota"}.get(payload, payload)
    pw = {None: 0, "values": part.src.dtype.itemsize, "iota": 4}[pay]
    block, items = _shape(m, part.w, pw)
    assert m <= block * items
    out_dt = _I64 if pay == "iota" else part.src.dtype
    key = ("radix_rows", part.cache_key(), pay, _radix.DIGIT, block, items, _SIM, out_dt)
    kern = compiler.get_kernel(key, lambda: render(part, pay, _radix.DIGIT, block=block,
                                                   items=items, sim=_SIM, out_dt=out_dt))
    return kern, block, out_dt, pay, part.src.dtype.itemsize


def launch(plan, nrow, m, src_ptr, out):
    """Run ``plan`` (:func:`plan`) on ``nrow`` rows of ``m`` C-contiguous elements at device
    address ``src_ptr`` into ``out`` (``nrow * m`` elements of the plan's output width)."""
    kern, block, out_dt, pay, w = plan
    n = nrow * m
    ow = out_dt.itemsize
    xv = [0, 0, n, w, src_ptr, n, w]
    ov = [0, 0, n, ow, out._ptr, n, ow]
    if pay is None:         # keys decoded into KO; PO unused (any array of its dtype)
        vals = [nrow, m] + xv + ov + [0, 0, 0, ow, out._ptr, 0, ow]
    else:                   # KO unused: the values stand in
        vals = [nrow, m] + xv + xv + ov
    kern(nrow, block, vals)


def sort_rows(part, nrow, m, payload):
    """Sort ``nrow`` rows of ``m`` elements (C-contiguous, ``part.src``) by ``part``.

    payload: None (key-only: the values), ``"values"``, ``"index"`` (int64 indices within the
    row).  Returns a 1-d array of ``nrow * m`` (the values' unsigned view, or int64)."""
    p = plan(part, m, payload)
    n = nrow * m
    out = empty_array((n,), p[2])
    if n:
        launch(p, nrow, m, part.src._ptr, out)
    return out


def gpu_variants():
    """GPU renderings of the row kernel (for CI's PTX check): each payload, a one-warp and an
    eight-warp block (a thread owning several digits, and one digit each)."""
    import npgpu
    out = []
    for dt, pay, block in ((np.float32, "values", 64), (np.float32, "iota", 256),
                           (np.float32, "iota", 96),
                           (np.int64, None, 32), (np.bool_, "iota", 32),
                           (np.float16, "values", 256), (np.uint8, None, 128)):
        part = _keys.parts_for(npgpu.zeros(4, dt))[0]
        pw = {None: 0, "values": part.src.dtype.itemsize, "iota": 4}[pay]
        items = _radix.items_for(part.w, pw, sim=False, rows=True)
        out_dt = _I64 if pay == "iota" else part.src.dtype
        out.append(render(part, pay, 8, block=block, items=items, sim=False, out_dt=out_dt))
    return out
