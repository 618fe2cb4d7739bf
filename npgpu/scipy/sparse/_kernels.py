"""Generated kernels of the sparse formats: what runs where cuSPARSE does not (the simulator,
integer and bool products) and the format plumbing cuSPARSE has no generic call for.

One template a job, rendered here and compiled by ``_codegen.compiler.get_kernel``; each is
keyed by its dtypes (index dtype, value dtype, the dense operand's dimensions; SpMV also by its
group width and whether x is contiguous), so a test run renders few kernels:

* ``rows``   -- CSR -> COO rows: thread ``i`` writes ``i`` over ``indptr[i]:indptr[i+1]``;
* ``indptr`` -- sorted major indices -> ``indptr``: thread ``k`` (``0 <= k <= nnz``) writes
  ``k`` into ``indptr[major[k-1]+1 .. major[k]]`` (one coalesced pass, no histogram);
* ``spmv``   -- ``y = A @ x`` (CSR), a group of 2..32 lanes a row (vector CSR: coalesced
  loads of the row, a shuffle reduction);
* ``spmm``   -- ``C = A @ B``, a thread an output element ``(i, j)``, ``j`` fastest so a warp
  reads one row of ``A`` and consecutive columns of ``B``;
* ``expand`` -- the expansion step of an expand-sort-compress SpGEMM: thread ``k`` (a nonzero
  ``A[i, j]``) writes the products ``A[i, j] * B[j, :]`` from slot ``off[k]`` on; the sort and
  the compression are the COO -> CSR conversion (``_coo.py``).

Every kernel runs a grid-stride loop, so any grid covers any size (SpMV's grid is one wave of
resident blocks).
"""
import os

import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ..._core import call_cache as _call_cache
from ...reductions import template as _t

_I64 = np.dtype(np.int64)
_SPMV_BLOCK = 256
# nonzeros a lane a pass of the SpMV kernel (its independent loads in flight); the variable
# is for timing 1 against 2 on a GPU
_SPMV_UNROLL = int(os.environ.get("NPGPU_SPARSE_SPMV_UNROLL", "2"))
# how the SpMV kernel loads the matrix's column indices and values (each read once): "plain"
# loads, or "cs" (``ld.global.cs``, evict first: the streamed matrix then leaves the L2 to x,
# which every row gathers from at random); a variable for timing one against the other
_SPMV_LOADS = os.environ.get("NPGPU_SPARSE_SPMV_LOADS", "plain")


def _name(prefix, text):
    name = _ew._kernel_name(f"sparse_{prefix}", text)
    return name, text.replace("def KERNEL(", f"def {name}(")


def _grid_loop(args, var, cond, body):
    """Source of ``KERNEL(args)``: a grid-stride loop of ``var`` while ``var cond`` over the
    lines ``body`` (the shape every template here shares)."""
    lines = [f"def KERNEL({args}):", f"    {var} = cuda.grid(1)", "    step = cuda.gridsize(1)",
             f"    while {var} {cond}:"]
    lines += ["        " + b for b in body] + [f"        {var} += step"]
    return "\n".join(lines) + "\n"


def _render_rows(ix):
    text = _grid_loop("m, P, R", "i", "< m", [
        "for k in range(P[i], P[i + 1]):",
        "    R[k] = i",
    ])
    name, text = _name("rows", text)
    return KernelSource(name, text, [Param("scalar", _I64), Param("array", ix, 1, "C"),
                                     Param("array", ix, 1, "C")])


def _render_indptr(ix, px):
    text = _grid_loop("nnz, nmajor, M, P", "k", "<= nnz", [
        "lo = int64(M[k - 1]) + 1 if k > 0 else int64(0)",
        "hi = int64(M[k]) if k < nnz else nmajor",
        "for r in range(lo, hi + 1):",
        f"    P[r] = {px.name}(k)",
    ])
    name, text = _name("indptr", text)
    return KernelSource(name, text, [Param("scalar", _I64), Param("scalar", _I64),
                                     Param("array", ix, 1, "C"), Param("array", px, 1, "C")])


def _zero(dt):
    return {"c": f"{dt.name}(0)", "f": f"{dt.name}(0)", "i": "int64(0)", "u": "uint64(0)",
            "b": "int64(0)"}[dt.kind]


def spmv_group(m, nnz):
    """Lanes a row of the SpMV kernel: the next power of two of the mean row length over
    ``_SPMV_UNROLL``, 2..32 (a group covers a mean row in one pass of coalesced loads, each lane
    ``_SPMV_UNROLL`` independent ones; longer rows loop)."""
    mean = -(-nnz // (m * _SPMV_UNROLL)) if m else 1
    return min(32, max(2, 1 << (mean - 1).bit_length()))


def _acc_dtype(dt):
    """The accumulator: int64 / uint64 for integers (NumPy's sums wrap alike mod 2^bits), the
    dtype itself for floats and complex."""
    return {"i": _I64, "u": np.dtype(np.uint64), "b": _I64}.get(dt.kind, dt)


def _render_spmv(ix, dt, group, unroll=2, xlay="A", shuffles=not _ew._SIM, block=None,
                 loads="plain"):
    """``y = A @ x`` (CSR), ``group`` lanes a row (vector CSR), ``unroll`` nonzeros a lane a
    pass.

    Group ``g`` (threads ``g*group .. g*group+group-1`` of a warp; ``group`` divides 32) takes
    rows ``g, g + groups, ...``: its lanes stride through the row's nonzeros (consecutive lanes
    read consecutive values and column indices: coalesced), each keeps a partial sum, and a
    butterfly of ``shfl_xor_sync`` over offsets ``group/2 .. 1`` (which never leave the group)
    gives every lane the row's sum; lane 0 writes it.  The next row's pointers are loaded
    before the current row's nonzeros, so that load's latency hides behind them.

    The loop runs while the *block's* first row is in range (every group of a block makes the
    same number of passes), so every lane of a warp meets every full-mask shuffle; groups past
    ``m`` take an empty row.  ``shuffles=False`` (Numba's simulator, which has no warp
    intrinsics) exchanges through shared memory instead: the same values (lane ``^ off``), with
    a ``syncthreads`` between the write and the read of each step and after the read (the next
    step's write must not overwrite a slot another thread has yet to read); the block-uniform
    loop is what lets every thread reach each barrier.  ``xlay``: ``x``'s layout ("C" when
    contiguous: its gathers then index with a shift and load through the global space, where an
    "A" array's multiply by its stride leaves a generic load)."""
    s = group.bit_length() - 1
    at = _acc_dtype(dt)
    an = _ew.type_name(at)
    zero = f"{an}(0)"
    plain = "{0}[{1}]".format
    ld = "cuda.ldcs({0}, {1})".format if loads == "cs" else plain
    # (Numba's cache-hinted loads take integer and float arrays only)
    v, j = (ld if dt.kind in "iuf" else plain)("V", "u{0}"), ld("J", "u{0}")
    if dt.kind in "iub":
        prod = f"{an}({v}) * {an}(X[uint64({j})])"
    else:
        prod = f"{v} * X[uint64({j})]"
    L = ["def KERNEL(m, P, J, V, X, Y):",
         "    t = cuda.grid(1)",
         f"    lane = t & {group - 1}",
         f"    step = cuda.gridsize(1) >> {s}",
         f"    row = t >> {s}",
         f"    first = (t - cuda.threadIdx.x) >> {s}",
         "    ps = int64(0)",
         "    pe = int64(0)",
         "    if row < m:",
         "        ps = int64(P[uint64(row)])",
         "        pe = int64(P[uint64(row + 1)])"]
    if not shuffles:
        L.append(f"    sh = cuda.shared.array({block}, {an})")
    L += ["    while first < m:",
          "        nxt = row + step",
          "        ns = int64(0)",
          "        ne = int64(0)",
          "        if nxt < m:",
          "            ns = int64(P[uint64(nxt)])",
          "            ne = int64(P[uint64(nxt + 1)])",
          f"        acc = {zero}",
          "        k = ps + lane",
          "        while k < pe:",
          "            u0 = uint64(k)"]
    # nonzeros k + j*group (j < unroll) of this lane in one branch-free body: a slot past the
    # row reads nonzero k again (a valid address, a sector already fetched) and adds zero, so
    # every slot's index and value loads, then its x gathers, are in flight together
    for j in range(1, unroll):
        L += [f"            k{j} = k + {j * group}",
              f"            u{j} = uint64(k{j} if k{j} < pe else k)"]
    for j in range(unroll):
        L.append(f"            a{j} = {prod.format(j)}")
    L.append("            acc += a0")
    for j in range(1, unroll):
        L.append(f"            acc += a{j} if k{j} < pe else {zero}")
    L.append(f"            k += {unroll * group}")
    for step in range(s):
        off = group >> (step + 1)
        if shuffles:
            L.append(f"        off = {off}")
            L += [ln.replace("shfl_down_sync", "shfl_xor_sync")
                  for ln in _t._shfl_lines("acc", at, "o", "        ")]
        else:
            L += ["        sh[cuda.threadIdx.x] = acc",
                  "        cuda.syncthreads()",
                  f"        o = sh[cuda.threadIdx.x ^ {off}]",
                  "        cuda.syncthreads()"]
        L.append("        acc += o")
    L += ["        if lane == 0 and row < m:",
          f"            Y[uint64(row)] = {_ew.cast_expr('acc', at, dt)}",
          "        ps = ns",
          "        pe = ne",
          "        row = nxt",
          "        first += step"]
    name, text = _name("spmv", "\n".join(L) + "\n")
    return KernelSource(name, text, [Param("scalar", _I64), Param("array", ix, 1, "C"),
                                     Param("array", ix, 1, "C"), Param("array", dt, 1, "C"),
                                     Param("array", dt, 1, xlay), Param("array", dt, 1, "C")])


def _render_spmm(ix, dt):
    text = _grid_loop("n, ncol, P, J, V, B, C", "t", "< n", [
        "i = t // ncol",
        "j = t - i * ncol",
        f"acc = {_zero(dt)}",
        "for k in range(P[i], P[i + 1]):",
        "    acc += V[k] * B[J[k], j]",
        f"C[i, j] = {_ew.cast_expr('acc', dt, dt)}",
    ])
    name, text = _name("spmm", text)
    return KernelSource(name, text, [Param("scalar", _I64), Param("scalar", _I64),
                                     Param("array", ix, 1, "C"), Param("array", ix, 1, "C"),
                                     Param("array", dt, 1, "C"), Param("array", dt, 2, "A"),
                                     Param("array", dt, 2, "C")])


def _render_expand(ix, dt):
    text = _grid_loop("nnz, AR, AJ, AV, OFF, BP, BJ, BV, R, C, V", "k", "< nnz", [
        "o = OFF[k]",
        "j = AJ[k]",
        "a = AV[k]",
        "r = AR[k]",
        "for t in range(BP[j], BP[j + 1]):",
        "    R[o] = r",
        "    C[o] = BJ[t]",
        "    V[o] = a * BV[t]",
        "    o += 1",
    ])
    name, text = _name("expand", text)
    A1 = lambda d: Param("array", d, 1, "C")   # noqa: E731
    return KernelSource(name, text, [Param("scalar", _I64), A1(ix), A1(ix), A1(dt), A1(_I64),
                                     A1(ix), A1(ix), A1(dt), A1(ix), A1(ix), A1(dt)])


def _vals(x):
    return _ew._arr_values(x._ptr, x.shape, x._strides, x.itemsize)


def _run(key, render, n, arrays, scalars=()):
    if n == 0:
        return
    kern = compiler.get_kernel(key, render)
    values = list(scalars)
    for a in arrays:
        values += _vals(a)
    grid, block = _ew._grid(n, 1)
    kern(grid, block, values)


def csr_rows(indptr, nnz, out):
    """``out[k]`` = the row of nonzero ``k`` (``out``: ``nnz`` elements of indptr's dtype)."""
    m = indptr.shape[0] - 1
    if nnz:
        _run(("sparse", "rows", indptr.dtype), lambda: _render_rows(indptr.dtype), m,
             [indptr, out], [m])
    return out


def indptr_of_sorted(major, nmajor, out):
    """``out`` (``nmajor + 1`` elements): the index pointer of the sorted ``major``."""
    nnz = major.shape[0]
    ix, px = major.dtype, out.dtype
    _run(("sparse", "indptr", ix, px), lambda: _render_indptr(ix, px), nnz + 1,
         [major, out], [nnz, nmajor])
    return out


_spmv_plans = {}     # (m, nnz, dtypes, x's layout, group, knobs) -> (kernel, grid, block)


def spmv(indptr, indices, data, x, y, group=None):
    """``y = A @ x`` for CSR ``A`` (data, x, y of one dtype; x any stride); ``group``: lanes a
    row (a power of two 2..32; by default :func:`spmv_group` of the mean row length)."""
    m = y.shape[0]
    if m == 0:
        return
    ix, dt = indptr.dtype, data.dtype
    xlay = "C" if x._c_contig else "A"
    un, loads = _SPMV_UNROLL, _SPMV_LOADS
    pkey = (m, data.shape[0], ix, dt, xlay, group, un, loads)
    plan = _spmv_plans.get(pkey)
    if plan is None:
        plan = _call_cache.store(_spmv_plans, pkey,
                                 _spmv_plan(m, data.shape[0], ix, dt, xlay, group, un, loads))
    kern, grid, block = plan
    kern(grid, block, (m, *_vals(indptr), *_vals(indices), *_vals(data), *_vals(x),
                       *_vals(y)))


def _spmv_plan(m, nnz, ix, dt, xlay, group, un, loads):
    """The kernel, grid and block of an SpMV (the same for every call of one shape)."""
    group = group or spmv_group(m, nnz)
    # the simulator's block must hold a whole group (its exchange is block-wide)
    block = max(_ew._BLOCK, group) if _ew._SIM else _SPMV_BLOCK
    kern = compiler.get_kernel(("sparse", "spmv", ix, dt, group, un, xlay, block, loads),
                               lambda: _render_spmv(ix, dt, group, un, xlay, block=block,
                                                    loads=loads))
    need = -(-m * group // block)
    if _ew._SIM:
        grid = min(need, _ew.SIM_GRID)
    else:
        # one wave of resident blocks: each group then walks many rows, so the prefetched
        # row pointers are used (a block a few rows long would never reach its second row)
        from ...reductions.reduce import _sm_count
        grid = max(1, min(need, _sm_count() * (kern.blocks_per_sm(block) or 1)))
    return kern, grid, block


def spmm(indptr, indices, data, b, c):
    """``c = A @ b`` for CSR ``A``, dense 2-D ``b`` (any strides), C-contiguous ``c``."""
    n = c.size
    ix, dt = indptr.dtype, data.dtype
    _run(("sparse", "spmm", ix, dt), lambda: _render_spmm(ix, dt), n,
         [indptr, indices, data, b, c], [n, c.shape[1]])


def expand_products(arows, acols, adata, off, bptr, bcols, bdata, r, c, v):
    """The products of every nonzero of ``A`` with its row of ``B`` into ``(r, c, v)``."""
    nnz = adata.shape[0]
    ix, dt = arows.dtype, adata.dtype
    _run(("sparse", "expand", ix, dt), lambda: _render_expand(ix, dt), nnz,
         [arows, acols, adata, off, bptr, bcols, bdata, r, c, v], [nnz])
