"""Generated kernels of the sparse formats: what runs where cuSPARSE does not (the simulator,
integer and bool products) and the format plumbing cuSPARSE has no generic call for.

One template a job, rendered here and compiled by ``_codegen.compiler.get_kernel``; each is
keyed by its dtypes only (index dtype, value dtype, the dense operand's dimensions), so a test
run renders few kernels:

* ``rows``   -- CSR -> COO rows: thread ``i`` writes ``i`` over ``indptr[i]:indptr[i+1]``;
* ``indptr`` -- sorted major indices -> ``indptr``: thread ``k`` (``0 <= k <= nnz``) writes
  ``k`` into ``indptr[major[k-1]+1 .. major[k]]`` (one coalesced pass, no histogram);
* ``spmv``   -- ``y = A @ x``, a thread a row (CSR);
* ``spmm``   -- ``C = A @ B``, a thread an output element ``(i, j)``, ``j`` fastest so a warp
  reads one row of ``A`` and consecutive columns of ``B``;
* ``expand`` -- the expansion step of an expand-sort-compress SpGEMM: thread ``k`` (a nonzero
  ``A[i, j]``) writes the products ``A[i, j] * B[j, :]`` from slot ``off[k]`` on; the sort and
  the compression are the COO -> CSR conversion (``_coo.py``).

Every kernel runs a grid-stride loop, so any grid covers any size.
"""
import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param

_I64 = np.dtype(np.int64)


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


def _render_spmv(ix, dt):
    text = _grid_loop("m, P, J, V, X, Y", "i", "< m", [
        f"acc = {_zero(dt)}",
        "for k in range(P[i], P[i + 1]):",
        "    acc += V[k] * X[J[k]]",
        f"Y[i] = {_ew.cast_expr('acc', dt, dt)}",
    ])
    name, text = _name("spmv", text)
    return KernelSource(name, text, [Param("scalar", _I64), Param("array", ix, 1, "C"),
                                     Param("array", ix, 1, "C"), Param("array", dt, 1, "C"),
                                     Param("array", dt, 1, "A"), Param("array", dt, 1, "C")])


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


def spmv(indptr, indices, data, x, y):
    """``y = A @ x`` for CSR ``A`` (data, x, y of one dtype; x any stride)."""
    m = y.shape[0]
    ix, dt = indptr.dtype, data.dtype
    _run(("sparse", "spmv", ix, dt), lambda: _render_spmv(ix, dt), m,
         [indptr, indices, data, x, y], [m])


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
