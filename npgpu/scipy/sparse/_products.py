"""``A @ x``, ``A @ B``: dtype rules and checks, then the route.

* SpMV / SpMM: cuSPARSE's generic API (``_cusparse.py``) on the GPU for float32/float64/
  complex64/complex128; the generated kernels of ``_kernels.py`` on the simulator, for the other
  dtypes (integers; bool is computed in int64 and tested ``!= 0``); on the GPU SpMV takes
  cuSPARSE for rows of 8 or more nonzeros on average and the generated kernel for shorter
  ones, SpMM the generated kernel (see ``_ROUTE``; ``NPGPU_SPARSE_SPMV`` /
  ``NPGPU_SPARSE_SPMM`` = ``kernel`` or ``cusparse`` force a route).
* SpGEMM: expand-sort-compress everywhere: one generated kernel writes every product
  ``A[i, j] * B[j, k]`` as a COO entry, the COO -> CSR conversion (radix sort, scan) sums them.
  (cuSPARSE's SpGEMM needs an in/out buffer-size argument that nvmath's Python-level binding
  does not expose.)
"""
import os

import numpy as np

from ... import _backend
from ._base import spbase, xp, is_dense, asdevice
from . import _cusparse, _kernels
from ..._core.ndarray import empty_array as _empty_array
from ..._core.ndarray import ndarray as _ndarray

# "cusparse", "kernel" or (SpMV) "auto": which runs float/complex SpMV and SpMM on the GPU.
# Measured on the H200 (2026-12-02, CSR f32, 2^22 rows; benchmarks/experiments/spmv_routes.py
# and the sparse_linalg benchmark):
# * 16 random nonzeros a row: cuSPARSE's kernel 504 us a call back to back (PyTorch's, also
#   cuSPARSE, 504), the generated vector-CSR kernel 514-517 (its unroll and load variants
#   514-537);
# * cg on the 5-point Poisson matrix (5 nonzeros a row, 20 iterations) with cuSPARSE: 9.36 ms
#   (CuPy 7.30) in the last run, 6.95 ms (CuPy 6.82) in the first (before the descriptor
#   cache); the cause of the difference is not found yet, and the generated kernel was not
#   timed on that matrix (benchmarks/results/2026-12-02-h200-*).
# So "auto" sends SpMV to cuSPARSE when rows hold 8 or more nonzeros on average, where it was
# measured faster, and keeps shorter rows (cg's) on the generated kernel, the default before
# (the threshold between 5 and 16 is a choice, not a measurement).  SpMM with 8
# dense columns: cuSPARSE 5.9 ms, the generated kernel (a thread per output element, B's rows
# read as whole sectors) 1.5-1.7 ms, so SpMM takes the kernel.
_ROUTE = {"spmv": os.environ.get("NPGPU_SPARSE_SPMV", "auto"),
          "spmm": os.environ.get("NPGPU_SPARSE_SPMM", "kernel")}
_SPMV_LIBRARY_ROW = 8       # "auto": cuSPARSE from this mean row length on


def _use_library(dt, op, nnz=0, m=1):
    """Whether cuSPARSE runs this product (``nnz``, ``m``: the matrix's nonzeros and rows)."""
    if _backend.IS_SIM or dt.char not in "fdFD":
        return False
    route = _ROUTE[op]
    if route == "auto":
        return nnz >= _SPMV_LIBRARY_ROW * m
    return route == "cusparse"


def _compute_dtype(dt):
    return np.dtype(np.int64) if dt == np.bool_ else dt


def _family(a, m):
    """``m`` as the matrix or array class of ``a``'s family, in ``a``'s format when
    compressed."""
    return m if a._is_array == m._is_array else _retype(m, a._is_array)


def _retype(m, is_array):
    from . import _compressed, _coo
    name = m.format + ("_array" if is_array else "_matrix")
    cls = getattr(_compressed, name, None) or getattr(_coo, name)
    if m.format == "coo":
        return cls._from_parts(m.data, m.row, m.col, m.shape, m.has_canonical_format)
    return cls._from_parts(m.data, m.indices, m.indptr, m.shape, m.has_canonical_format)


def spmv_fast(a, x):
    """``a @ x`` for the everyday SpMV -- CSR ``a`` with nonzeros, ``x`` a contiguous npgpu
    vector of the same float or integer dtype -- without :func:`matmul`'s general steps (the
    result dtype is then the operands', nothing is cast or copied); None for anything else.
    Repeated products (an iterative solver's) spend their host time here, and under a
    CUDA-event timer the host time before the launch counts."""
    if x.__class__ is not _ndarray or a.format != "csr":
        return None
    dt = a.data.dtype
    m, k = a.shape
    if x.dtype != dt or x.shape != (k,) or not x._c_contig or dt.kind == "b" or \
            not m or not a.data.shape[0]:
        return None
    out = _empty_array((m,), dt)
    _product(a.shape, a.indptr, a.indices, a.data, x, out)
    return out


def _product(shape, indptr, indices, data, x, out):
    """``out = A @ x`` (CSR; data, x, out of one dtype; ``x`` 1-d and contiguous where
    cuSPARSE runs it, or 2-d) by the route :func:`_use_library` chooses."""
    op = "spmv" if x.ndim == 1 else "spmm"
    if _use_library(data.dtype, op, data.shape[0], shape[0]):
        (_cusparse.spmv if op == "spmv" else _cusparse.spmm)(shape, indptr, indices, data, x,
                                                             out)
    elif op == "spmv":
        _kernels.spmv(indptr, indices, data, x, out)
    else:
        _kernels.spmm(indptr, indices, data, x, out)


def matmul(a, other):
    if isinstance(other, spbase):
        return spgemm(a, other)
    if not is_dense(other):
        other = asdevice(other)
    m, k = a.shape
    if other.ndim == 1:
        if other.shape[0] != k:
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={k}),"
                             f"(k={other.shape[0]},1?)->(n,1?)")
    elif other.ndim == 2:
        if other.shape[0] != k:
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={k}),"
                             f"(k={other.shape[0]},m)->(n,m)")
    else:
        raise ValueError("matmul: dimension mismatch: only 1-d and 2-d operands")
    from ._base import check_dtype
    check_dtype(other.dtype)
    rdt = np.result_type(a.dtype, other.dtype)
    c = a.tocsr()
    return csr_dense(c.shape, c.indptr, c.indices, c.data, other, rdt)


def csr_dense(shape, indptr, indices, data, x, rdt):
    """``A @ x`` for CSR arrays, ``x`` an npgpu 1-d or 2-d array; result dtype ``rdt``."""
    X = xp()
    ct = _compute_dtype(rdt)
    m = shape[0]
    out_shape = (m,) if x.ndim == 1 else (m, x.shape[1])
    if data.shape[0] == 0 or x.size == 0 or m == 0:
        return X.zeros(out_shape, dtype=rdt)
    data = data.astype(ct, copy=False)
    x = x.astype(ct, copy=False)
    out = X.empty(out_shape, dtype=ct)
    if _use_library(ct, "spmv" if x.ndim == 1 else "spmm", data.shape[0], m):
        x = X.ascontiguousarray(x)          # (cuSPARSE's dense operands are contiguous)
    _product(shape, indptr, indices, data, x, out)
    return out if ct == rdt else (out != 0) if rdt == np.bool_ else out.astype(rdt)


def spgemm(a, b):
    """Sparse @ sparse, expand-sort-compress: CSR result (CSC when ``a`` is CSC, DIA when
    both are DIA)."""
    X = xp()
    from ._coo import compress
    from ._compressed import csr_array, csr_matrix
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"matmul: dimension mismatch with signature (n,k={a.shape[1]}),"
                         f"(k={b.shape[0]},m)->(n,m)")
    rdt = np.result_type(a.dtype, b.dtype)
    ct = _compute_dtype(rdt)
    A, B = a.tocsr(), b.tocsr()
    m, n = a.shape[0], b.shape[1]
    idt = np.promote_types(A.indptr.dtype, B.indptr.dtype)
    arows = A._major_index().astype(idt, copy=False)
    acols = A.indices.astype(idt, copy=False)
    bptr = B.indptr.astype(idt, copy=False)
    counts = (bptr[acols + 1] - bptr[acols]).astype(np.int64) if acols.size else \
        X.zeros(0, np.int64)
    ends = X.cumsum(counts) if counts.size else counts
    total = int(ends[-1].get()) if ends.size else 0
    cls = csr_array if a._is_array else csr_matrix
    r = X.empty(total, idt)
    c = X.empty(total, idt)
    v = X.empty(total, ct)
    if total:
        _kernels.expand_products(arows, acols, A.data.astype(ct, copy=False), ends - counts,
                                 bptr, B.indices.astype(idt, copy=False),
                                 B.data.astype(ct, copy=False), r, c, v)
    indptr, indices, data = compress(r, c, v, m, n)
    if ct != rdt:
        data = data != 0
    out = cls._from_parts(data, indices, indptr, (m, n), canonical=True)
    if a.format == "dia" and b.format == "dia":
        return out.todia()                      # SciPy 1.17's DIA product
    return out.tocsc() if a.format == "csc" else out
