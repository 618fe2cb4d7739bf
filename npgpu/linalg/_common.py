"""Shared pieces of npgpu.linalg: the error type and check switch, operand conversion,
small elementwise helpers (conjugate, triangle masks) on the shared generator."""
import os

import numpy as np

from .. import _backend
from .._codegen import elementwise as _ew
from .._core import copy as _copy
from .._core.layout import c_shape_text
from .._core.ndarray import empty_array, ndarray
from ..creation import asarray as _asarray


class LinAlgError(np.linalg.LinAlgError):
    """Raised by npgpu.linalg like NumPy's (it is a ``numpy.linalg.LinAlgError``)."""


_check = os.environ.get("NPGPU_LINALG_CHECK", "1") not in ("0", "")


def set_error_check(enabled):
    """Turn the host check of cuSOLVER's ``info`` flag on (default) or off.

    Raising :class:`LinAlgError` for singular / non-positive-definite /
    non-converged inputs needs the library's info flag on the host, which waits
    for the GPU.  With the check off (also ``NPGPU_LINALG_CHECK=0``), calls stay
    asynchronous and such inputs give NaN/garbage results instead of raising.
    Returns the previous value.
    """
    global _check
    prev = _check
    _check = bool(enabled)
    return prev


def get_error_check():
    return _check


def check_info(info, message, host=None):
    """Raise LinAlgError(message) if any entry of the device int array ``info`` is non-zero
    (``host``: its values already read to the host)."""
    if not _check or info is None or info.size == 0:
        return
    if host is None:
        host = info.get()
    if np.any(host > 0):
        raise LinAlgError(message)
    if np.any(host < 0):   # a bad argument: a bug in npgpu, not in the input
        raise RuntimeError(f"cuSOLVER reported invalid argument {-int(host.min())}")


def asarray(x):
    if isinstance(x, ndarray):
        return x
    return _asarray(x)


LIB_DTYPES = frozenset(np.dtype(c) for c in "fdFD")


def lib_dtype(dt):
    """The float/complex dtype (float32/64, complex64/128) a library routine computes ``dt`` in."""
    if dt.kind in "biu":
        return np.dtype(np.float64)
    if dt == np.float16:
        return np.dtype(np.float32)
    return dt


def assert_stacked_2d(*arrays):
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least "
                              "two-dimensional")


def assert_stacked_square(*arrays):
    for a in arrays:
        m, n = a.shape[-2:]
        if m != n:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def batch_f_array(shape, dtype):
    """An array of ``shape`` whose matrices (last two dims) are column-major, batches C-ordered."""
    m, n = shape[-2], shape[-1]
    isz = dtype.itemsize
    batch = shape[:-2]
    full = empty_array(batch + (n, m), dtype, "C")
    return full._view(0, shape, full._strides[:-2] + (isz, m * isz))


def f_copy(a, dtype=None):
    """Copy ``a`` (..., m, n) into a fresh array with column-major matrices (cast to ``dtype``)."""
    out = batch_f_array(a.shape, dtype or a.dtype)
    _copy.copy_into(out, a)
    return out


def c_copy(a, dtype=None):
    return _copy.copy(a, order="C", dtype=dtype or a.dtype)


def batch_ptrs(a):
    """Device pointers of each matrix of a (..., m, n) array, in C order of the batch dims."""
    batch = a.shape[:-2]
    ptrs = [a._ptr]
    for n, s in zip(batch, a._strides[:-2]):
        ptrs = [p + i * s for p in ptrs for i in range(n)]
    return ptrs


# ---- elementwise helpers --------------------------------------------------------------------
_CONJ = _ew.ScalarOp.from_expr("linalg_conj", 1, "x0.conjugate()")


def conj(a, out=None):
    """Complex conjugate (a new array unless ``out``); non-complex arrays are returned as is."""
    if a.dtype.kind != "c":
        if out is None:
            return a
        _copy.copy_into(out, a)
        return out
    if out is None:
        out = empty_array(a.shape, a.dtype, "C")
    _ew.launch(_CONJ, [a], [a.dtype], [out], [a.dtype], name="conj")
    return out


# The triangle masks are a small generated kernel (one thread per element of a
# (batch, m, n) view): the element's row/column come from its position.
def _render_tri(dt, lower, cj):
    from .._codegen.compiler import KernelSource, Param
    tn = _ew.type_name(dt)
    name = f"tri_{'l' if lower else 'u'}{'c' if cj else ''}_{dt.str[1:]}"
    val = "X[b, r, c].conjugate()" if cj else "X[b, r, c]"
    cond = "c - r <= k" if lower else "c - r >= k"
    src = (f"def {name}(out, X, k, total):\n"
           "    t = cuda.grid(1)\n"
           "    if t < total:\n"
           "        n = X.shape[2]\n"
           "        m = X.shape[1]\n"
           "        c = t % n\n"
           "        q = t // n\n"
           "        r = q % m\n"
           "        b = q // m\n"
           f"        if {cond}:\n"
           f"            out[b, r, c] = {val}\n"
           "        else:\n"
           f"            out[b, r, c] = {tn}(0)\n")
    return KernelSource(name, src, [Param("array", dt, 3, "C"), Param("array", dt, 3, "A"),
                                    Param("scalar", np.int64), Param("scalar", np.int64)])


def tri_copy(a, lower, k=0, dtype=None, conjugate=False, out=None):
    """The lower (or upper) triangle of each matrix of ``a``, zeros elsewhere (complex
    conjugated with ``conjugate``), in one pass: a new C-contiguous array, or written into
    the C-contiguous ``out``, which may be ``a`` itself (each element is read and written by
    the same thread)."""
    from .._codegen import compiler
    dt = dtype or a.dtype
    if a.dtype != dt:
        a = a.astype(dt)
    if out is None:
        out = empty_array(a.shape, dt, "C")
    if out.size == 0:
        return out
    m, n = a.shape[-2:]
    nb = out.size // (m * n)
    o3 = out.reshape(nb, m, n)
    x3 = a.reshape(nb, m, n)
    cj = bool(conjugate) and dt.kind == "c"
    kern = compiler.get_kernel(("tri", dt, bool(lower), cj), lambda: _render_tri(dt, bool(lower), cj))
    total = out.size
    vals = [0, 0, total, dt.itemsize, o3._ptr, *o3.shape, *o3._strides,
            0, 0, total, dt.itemsize, x3._ptr, *x3.shape, *x3._strides, int(k), total]
    block = 32 if _backend.IS_SIM else 256
    kern(-(-total // block), block, vals)
    return out


def gufunc_core_error(name, sig, got, want):
    """NumPy's ValueError for a gufunc's second operand whose first core dimension (``got``)
    does not match the first operand's (``want``)."""
    return ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, with "
                      f"gufunc signature {sig} (size {got} is different from {want})")


def check_core_ndim(name, sig, *needs):
    """NumPy's ValueError for the first gufunc operand with fewer dimensions than its core
    needs: ``needs`` is (operand, its core dimension count) per operand, in order."""
    for i, (x, k) in enumerate(needs):
        if x.ndim < k:
            raise ValueError(f"{name}: Input operand {i} does not have enough dimensions (has "
                             f"{x.ndim}, gufunc core with signature {sig} requires {k})")


def gufunc_broadcast_error(shapes, requested, cores=(2, 2)):
    """NumPy's ValueError for gufunc operands (matmul, solve, matvec, ...) whose batch
    dimensions do not broadcast: each shape with its ``cores`` core dimensions dropped and one
    ``newaxis`` per dimension of the requested core shape of the result."""
    parts = " ".join(f"{c_shape_text(s)}->"
                     f"{c_shape_text(tuple(s[:len(s) - c]) + ('newaxis',) * len(requested))}"
                     for s, c in zip(shapes, cores))
    return ValueError("operands could not be broadcast together with remapped shapes "
                      f"[original->remapped]: {parts}  and requested shape "
                      f"({','.join(map(str, requested))})")     # NumPy's: (2), no comma
