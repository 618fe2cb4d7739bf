"""cholesky, qr, svd, eigh, eig on cuSOLVER (stacked inputs loop over the batch on one stream).

Layout trick used throughout: a C-ordered copy of a matrix A *is* the
column-major storage of A^T, so no transposing copy is needed:

* cholesky/eigh: for Hermitian A, A^T = conj(A), whose factors are the
  conjugates of A's; reading the library's column-major output back in C order
  transposes it, which turns conj(L)^T into L^H etc. (see each function);
* svd of a wide matrix factors A^T (tall) and swaps/transposes U and V^H.
"""
import os
import warnings

import numpy as np

from .._core import copy as _copy
from .._core.ndarray import empty_array
from ..creation import zeros
from .. import ufuncs as _ufuncs
from . import _solver
from ._common import (LinAlgError, asarray, assert_stacked_2d, assert_stacked_square,
                      batch_f_array, c_copy, check_info, conj, f_copy, get_error_check, tri_copy)
from .solve import _real, linalg_dtype

_R = np.linalg._linalg


def cholesky(a, /, *, upper=False):
    """Cholesky factor L (``a = L L^H``), or U (``a = U^H U``) with ``upper=True``.

    The cuSOLVER route is ``NPGPU_CHOLESKY_ALGO`` (see ``_solver.CHOLESKY_ALGOS``),
    read at each call."""
    a = asarray(a)
    assert_stacked_2d(a)
    assert_stacked_square(a)
    rt = linalg_dtype(a.dtype)
    algo = _solver.cholesky_algo() if a.size else None
    # NumPy reads only A's lower triangle (its upper one with ``upper=True``).  Every route
    # below wants the column-major X = conj(A) and reads one triangle of X: a C-order copy of
    # A (column-major A^T) holds A's lower triangle in X's upper one and A's upper triangle
    # in X's lower one; a C-order copy of A^H (column-major conj(A)) the other way round.
    if algo is None or (algo == "xpotrf_upper") != bool(upper):
        x = c_copy(a, rt)
    else:
        x = c_copy(a.swapaxes(-1, -2), rt)
        if rt.kind == "c":
            conj(x, out=x)
    if x.size:
        info = _solver.potrf(x, algo)
        check_info(info, "Matrix is not positive definite")
        if algo == "xpotrf_upper":
            # upper factor of X: X = U' ^H U', so A = conj(X) = U'^T conj(U'): L = U'^T, which is
            # X's storage read in C order: x's lower triangle is L (its strict upper still A's)
            if upper:   # U = L^H: conj of the lower triangle, transposed view
                return tri_copy(x, lower=True, conjugate=True, out=x).swapaxes(-1, -2)
            return tri_copy(x, lower=True, out=x)
    # lower factor of X: X = L' L'^H, so A = conj(X) = conj(L') L'^T: L = conj(L').
    # X read in C order is L'^T = L^H = U; masking it in place (coalesced, no new array):
    if upper:
        return tri_copy(x, lower=False, out=x)
    # ... and conj(L'^T) = L^T, whose transposed view is L (Fortran-ordered, as cuSOLVER wrote it)
    return tri_copy(x, lower=False, conjugate=True, out=x).swapaxes(-1, -2)


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices (``syevd``)."""
    return _eigh(a, UPLO, True)


def eigvalsh(a, UPLO="L"):
    return _eigh(a, UPLO, False)


def _eigh(a, UPLO, vectors):
    UPLO = UPLO.upper()                 # NumPy's: 'l' and 'u' too (and its AttributeError)
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    a = asarray(a)
    assert_stacked_2d(a)
    assert_stacked_square(a)
    rt = linalg_dtype(a.dtype)
    x = c_copy(a, rt)                  # column-major X = A^T: A's lower triangle is X's upper
    w = empty_array(a.shape[:-1], _real(rt), "C")
    if x.size:
        info = _solver.syevd(x, w, lower=(UPLO == "U"), vectors=vectors)
        check_info(info, "Eigenvalues did not converge")
    if not vectors:
        return w
    # X's column j is conj(v_j); X read in C order is X^T, so v = conj of the swapped view
    v = x.swapaxes(-1, -2)
    if rt.kind == "c":
        conj(v, out=v)
    return _R.EighResult(w, v)


# SVD routes (NPGPU_SVD_ALGO, read at each call so it can be switched while measuring):
#   gesvd    QR iteration (cusolverDnXgesvd): the default, accurate;
#   gesvdj   Jacobi (cusolverDn<t>gesvdj), ~2.5x faster for vectors, but on the H200 its
#            reconstruction error with cuSOLVER's default tolerance was 50-400x NumPy's
#            (measured 2026-11-30); NPGPU_SVDJ_TOL / NPGPU_SVDJ_SWEEPS set its tolerance and
#            maximum sweeps; where the sweeps do not converge (seen only with the error check
#            on, which reads ``info`` anyway) gesvd recomputes;
#   gesvdp   polar decomposition + eigensolver (cusolverDnXgesvdp), economy size only: with
#            full_matrices=True on a non-square matrix (U or V^H needs columns beyond
#            min(m, n), which the polar route does not guarantee to be unitary) gesvd runs;
#   gesvd64, gesvdj64   float32/complex64 input computed in float64/complex128 by gesvd /
#            gesvdj and cast back (float64/complex128 input: the same as gesvd / gesvdj).
#   gesvdp64 gesvdp computed in float64/complex128 for float32/complex64 input;
#   auto     the default: gesvdp64 for float32/complex64 (on the H200, float32 1024 x 1024:
#            gesvdp in float32 27 ms but 50x NumPy's orthogonality error, gesvd 109 ms and
#            also outside 10x NumPy's, gesvd64 130 ms accurate), gesvd for float64/complex128.
# NPGPU_SVD_JACOBI=1 (older switch) means gesvdj when NPGPU_SVD_ALGO is unset.
SVD_ALGOS = ("auto", "gesvd", "gesvdj", "gesvdp", "gesvd64", "gesvdj64", "gesvdp64")
JACOBI_SVD = [os.environ.get("NPGPU_SVD_JACOBI", "0") not in ("", "0")]
_WIDE = {np.dtype(np.float32): np.dtype(np.float64),
         np.dtype(np.complex64): np.dtype(np.complex128)}


def svd_algo():
    algo = os.environ.get("NPGPU_SVD_ALGO", "")
    if not algo:
        return "gesvdj" if JACOBI_SVD[0] else "auto"
    if algo not in SVD_ALGOS:
        raise ValueError(f"NPGPU_SVD_ALGO must be one of {', '.join(SVD_ALGOS)} (got {algo!r})")
    return algo


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """Singular value decomposition; wide matrices are factored as their transpose.

    The cuSOLVER route (also for ``compute_uv=False``) is ``NPGPU_SVD_ALGO``: see
    ``SVD_ALGOS`` above."""
    a = asarray(a)
    if hermitian:
        return _svd_hermitian(a, compute_uv)
    assert_stacked_2d(a)
    rt = linalg_dtype(a.dtype)
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    k = min(m, n)
    if k == 0 or 0 in batch:
        # nothing to decompose (an empty matrix or an empty stack): no library call
        s = empty_array(batch + (k,), _real(rt), "C")
        if not compute_uv:
            return s
        return _R.SVDResult(_eye_stack(batch, m, m if full_matrices else k, rt), s,
                            _eye_stack(batch, n if full_matrices else k, n, rt))
    has_inf = False
    if get_error_check() and not bool(_ufuncs.isfinite(a).all()):
        # LAPACK's SVD does not converge on NaN; an infinity gives NaN values, no error
        if bool(_ufuncs.isnan(a).any()):
            raise LinAlgError("SVD did not converge")
        has_inf = True
    res = _svd_computed(a, rt, full_matrices, compute_uv)
    return _nan_where_inf(a, res, compute_uv) if has_inf else res


def _nan_where_inf(a, res, compute_uv):
    """NaN results for the matrices of ``a`` holding an infinity, as LAPACK's SVD gives them
    (cuSOLVER's gives numbers): on the device, after the one read that found an infinity."""
    from .. import logic as _logic
    bad = _ufuncs.isinf(a).any(axis=(-2, -1))
    parts = (res,) if not compute_uv else tuple(res)
    out = [_logic.where(bad.reshape(bad.shape + (1,) * (p.ndim - bad.ndim)), np.nan, p)
           .astype(p.dtype, copy=False) for p in parts]
    return out[0] if not compute_uv else _R.SVDResult(*out)


def _svd_computed(a, rt, full_matrices, compute_uv):
    """svd of a stack of nonempty matrices by the chosen cuSOLVER route (NPGPU_SVD_ALGO)."""
    algo = svd_algo()
    if algo == "auto":
        algo = "gesvdp64" if rt in _WIDE else "gesvd"
    ct = rt
    if algo.endswith("64"):
        algo = algo[:-2]
        ct = _WIDE.get(rt, rt)
    res = _svd(a, ct, full_matrices, compute_uv, algo)
    if ct == rt:
        return res
    # computed wide: back to the input's precision (one cast per output)
    if not compute_uv:
        return res.astype(_real(rt))
    u, s, vh = res
    return _R.SVDResult(u.astype(rt), s.astype(_real(rt)), vh.astype(rt))


def _svd_hermitian(a, compute_uv):
    """NumPy's ``svd(hermitian=True)``: from ``eigh`` of the lower triangle, the values'
    magnitudes in descending order and their signs moved into V^H."""
    from .. import sorting as _sorting
    from ..indexing.routines import take_along_axis
    if not compute_uv:
        s = _ufuncs.absolute(eigvalsh(a))
        return _sorting.sort(s, axis=-1)[..., ::-1]
    s, u = eigh(a)
    sgn = _ufuncs.copysign(1.0, s)     # NumPy's: a zero eigenvalue keeps its vector in V^H
    s = _ufuncs.absolute(s)
    sidx = _sorting.argsort(s, axis=-1)[..., ::-1]
    sgn = take_along_axis(sgn, sidx, axis=-1)
    s = take_along_axis(s, sidx, axis=-1)
    u = take_along_axis(u, sidx[..., None, :], axis=-1)
    vt = _ufuncs.conjugate(_ufuncs.multiply(u, sgn[..., None, :]).swapaxes(-1, -2))
    return _R.SVDResult(u, s, vt)


def _svd(a, rt, full_matrices, compute_uv, algo):
    """SVD of ``a`` computed in ``rt`` by ``algo`` (gesvd, gesvdj or gesvdp)."""
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    s = empty_array(batch + (min(m, n),), _real(rt), "C")
    if algo == "gesvdp" and (m == n or not full_matrices or not compute_uv):
        return _svd_with_v(a, rt, s, False, compute_uv, "gesvdp")
    if algo == "gesvdj":
        return _svd_with_v(a, rt, s, full_matrices, compute_uv, "gesvdj")
    if not compute_uv:
        info = _solver.gesvd(_svd_input(a, rt), s, None, None, "N", "N")
        check_info(info, "SVD did not converge")
        return s
    return _svd_gesvd(a, rt, s, full_matrices)


def _svd_with_v(a, rt, s, full_matrices, compute_uv, algo):
    """SVD by gesvdj or gesvdp (which return V itself), writing the values into ``s``.

    Without ``compute_uv`` the routine still gets U/V buffers of the sizes it documents
    (scratch), so nothing depends on it leaving them unreferenced."""
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    flip = m < n
    x = _svd_input(a, rt)
    p, q = (n, m) if flip else (m, n)
    full = full_matrices and compute_uv
    u = batch_f_array(batch + (p, p if full else q), rt)
    v = batch_f_array(batch + (q, q), rt)
    if algo == "gesvdp":
        info = _solver.gesvdp(x, s, u, v, vectors=compute_uv)
    else:
        info = _solver.gesvdj(x, s, u, v, econ=not full, vectors=compute_uv)
    if algo == "gesvdj" and get_error_check():
        host = info.get()
        if np.any(host == q + 1):       # Jacobi sweeps did not converge: QR iteration instead
            if not compute_uv:
                info = _solver.gesvd(_svd_input(a, rt), s, None, None, "N", "N")
                check_info(info, "SVD did not converge")
                return s
            return _svd_gesvd(a, rt, s, full_matrices)
        check_info(info, "SVD did not converge", host)
    else:
        check_info(info, "SVD did not converge")
    if not compute_uv:
        return s
    if not flip:
        # A = U S V^H; V is column-major, so its C-order view is V^T and V^H = conj(V^T)
        vt = v.swapaxes(-1, -2)
        return _R.SVDResult(u, s, conj(vt) if rt.kind == "c" else vt)
    # factored A^T = U' S V'^H  =>  A = conj(V') S U'^T
    return _R.SVDResult(conj(v) if rt.kind == "c" else v, s, u.swapaxes(-1, -2))


def _svd_input(a, rt):
    """A fresh column-major p x q (p >= q) copy: A itself, or for wide A, A^T (a C-order copy of
    (m, n) is the column-major (n, m) matrix A^T: viewed with that shape)."""
    return c_copy(a, rt).swapaxes(-1, -2) if a.shape[-2] < a.shape[-1] else f_copy(a, rt)


def _svd_gesvd(a, rt, s, full_matrices):
    """SVD with vectors by ``gesvd`` (QR iteration), writing the values into ``s``."""
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    flip = m < n
    x = _svd_input(a, rt)
    p, q = (n, m) if flip else (m, n)
    u = batch_f_array(batch + (p, p if full_matrices else q), rt)
    vt = batch_f_array(batch + (q, q), rt)
    info = _solver.gesvd(x, s, u, vt, "A" if full_matrices else "S", "A")
    check_info(info, "SVD did not converge")
    if not flip:
        return _R.SVDResult(u, s, vt)
    # A^T = U' S V'^H  =>  A = (V'^H)^T S (U')^T
    return _R.SVDResult(vt.swapaxes(-1, -2), s, u.swapaxes(-1, -2))


def _eye_stack(batch, r, c, dt):
    out = zeros(batch + (r, c), dt)
    if r and c:
        d = out._view(0, batch + (min(r, c),), out._strides[:-2] + (out._strides[-2] + out._strides[-1],))
        _copy.fill(d, 1)
    return out


def svdvals(x, /):
    return svd(x, compute_uv=False)


def qr(a, mode="reduced"):
    """QR decomposition (``geqrf`` + ``orgqr``/``ungqr``); modes reduced, complete, r, raw."""
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full"):
            warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\n"
                          "For backward compatibility let mode default.",
                          DeprecationWarning, stacklevel=2)
            mode = "reduced"
        elif mode in ("e", "economic"):
            warnings.warn("The 'economic' option is deprecated.", DeprecationWarning,
                          stacklevel=2)
            mode = "economic"
        else:
            raise ValueError(f"Unrecognized mode '{mode}'")
    a = asarray(a)
    assert_stacked_2d(a)
    rt = linalg_dtype(a.dtype)
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    k = min(m, n)
    cols = max(m, n) if mode == "complete" else n
    buf = batch_f_array(batch + (m, cols), rt)
    view = buf[..., :, :n]
    _copy.copy_into(view, a)
    tau = empty_array(batch + (k,), rt, "C")
    work = k and 0 not in batch     # an empty stack: no library call, every result empty
    if work:
        _solver.geqrf(view, tau)
    if mode == "raw":
        return view.swapaxes(-1, -2), tau
    if mode == "economic":              # NumPy's deprecated mode: geqrf's packed output
        return view
    r = tri_copy(view if mode == "complete" else view[..., :k, :], lower=False)
    if mode == "r":
        return r
    nq = m if mode == "complete" else k
    if work and m:
        _solver.orgqr(buf[..., :, :nq], tau, nq, m)
    elif m and 0 not in batch:
        # no reflectors: Q is the identity
        _copy.copy_into(buf[..., :, :nq], _eye_stack(batch, m, nq, rt))
    return _R.QRResult(buf[..., :, :nq], r)


def eig(a):
    """Eigenvalues and right eigenvectors of general matrices (``cusolverDnXgeev``).

    As NumPy: real input gives real results when every eigenvalue is real, else
    complex ones.  That choice depends on the data, so it reads the eigenvalues'
    imaginary parts on the host (one wait for the GPU)."""
    return _eig(a, True)


def eigvals(a):
    return _eig(a, False)


def _eig(a, vectors):
    a = asarray(a)
    assert_stacked_2d(a)
    assert_stacked_square(a)
    rt = linalg_dtype(a.dtype)
    n = a.shape[-1]
    batch = a.shape[:-2]
    if get_error_check() and not bool(_ufuncs.isfinite(a).all()):
        raise LinAlgError("Array must not contain infs or NaNs")
    ct = np.dtype(np.complex64 if rt in (np.float32, np.complex64) else np.complex128)
    w = empty_array(batch + (n,), ct, "C")
    vr = batch_f_array(a.shape, rt) if vectors else None
    if a.size:
        x = f_copy(a, rt)
        info = _solver.geev(x, w, vr)
        check_info(info, "Eigenvalues did not converge")
    if rt.kind == "c":
        return _R.EigResult(w, vr) if vectors else w
    # real input: LAPACK packs a complex pair's vectors as (re, im) columns
    all_real = w.size == 0 or not np.any(w.imag.get() != 0)
    if all_real:
        wr = w.real.copy()
        return _R.EigResult(wr, vr) if vectors else wr
    if not vectors:
        return w
    return _R.EigResult(w, _unpack_pairs(vr, w, ct))


def _unpack_pairs(vr, w, ct):
    """Complex eigenvectors from LAPACK's real pair encoding (a generated kernel)."""
    from .._codegen import compiler
    from .._codegen.compiler import KernelSource, Param
    from .._backend import IS_SIM as sim
    rd = vr.dtype
    nm = f"eig_unpack_{rd.str[1:]}"
    ctn = "complex64" if ct == np.complex64 else "complex128"

    def render():
        src = (f"def {nm}(V, VR, W, total):\n"
               "    t = cuda.grid(1)\n"
               "    n = V.shape[1]\n"
               "    if t < total:\n"
               "        j = t % n\n"
               "        r = t // n\n"
               "        i = r % n\n"
               "        b = r // n\n"
               "        im = W[b, j].imag\n"
               "        if im == 0:\n"
               f"            V[b, i, j] = {ctn}(VR[b, i, j])\n"
               "        elif im > 0:\n"
               f"            V[b, i, j] = {ctn}(complex(VR[b, i, j], VR[b, i, j + 1]))\n"
               "        else:\n"
               f"            V[b, i, j] = {ctn}(complex(VR[b, i, j - 1], -VR[b, i, j]))\n")
        return KernelSource(nm, src, [Param("array", ct, 3, "A"), Param("array", rd, 3, "A"),
                                      Param("array", ct, 2, "A"), Param("scalar", np.int64)])

    kern = compiler.get_kernel(("eig_unpack", rd.str), render)
    n = vr.shape[-1]
    nb = 1
    for s in vr.shape[:-2]:
        nb *= s
    v = empty_array(vr.shape, ct, "C")
    v3 = v.reshape(nb, n, n)
    vr3 = vr.reshape(nb, n, n)
    w2 = w.reshape(nb, n)
    total = nb * n * n
    vals = []
    for arr in (v3, vr3, w2):
        vals += [0, 0, arr.size, arr.itemsize, arr._ptr, *arr.shape, *arr._strides]
    vals.append(total)
    block = 32 if sim else 256
    kern(max(1, -(-total // block)), block, vals)
    return v
