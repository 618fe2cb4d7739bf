"""Thin per-matrix wrappers over cuSOLVER-Dn (64-bit generic API) with pool workspaces.

Each wrapper takes an array of stacked matrices whose matrices are laid out
for the library (column-major, leading dimension = rows), loops over the
batch (one library call per matrix, all on the current stream, no sync) and
returns the device ``info`` array (one int32 per matrix) for
:func:`._common.check_info`.
"""
import os

import numpy as np

from ..cuda import memory as _memory
from .._core.ndarray import empty_array
from . import _handles as H
from ._common import batch_ptrs

_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_host_ws = [np.empty(1, np.uint8)]   # host workspace, grown as needed, kept alive


def _host_buffer(nbytes):
    if _host_ws[0].nbytes < nbytes:
        _host_ws[0] = np.empty(nbytes, np.uint8)
    return _host_ws[0].ctypes.data


def _workspace(nbytes):
    return _memory.alloc(max(int(nbytes), 1))


def _info(n):
    info = empty_array((max(n, 1),), _I32, "C")
    return info


def _fill(uplo_lower):
    cb = H.cublas_module()
    return int(cb.FillMode.LOWER if uplo_lower else cb.FillMode.UPPER)


# Cholesky of order >= BLOCKED_MIN_N goes by block columns of width BLOCK (0: 256, or
# 512 from n = 4096): cuSOLVER factors each diagonal block, cuBLAS solves the panel below
# it (trsm) and updates the trailing matrix (syrk/herk), so nearly all the flops run in
# GEMM-rate kernels.  Smaller matrices are one cusolverDnXpotrf call each.
BLOCKED_MIN_N = int(os.environ.get("NPGPU_CHOLESKY_BLOCKED_MIN_N", "1024"))
BLOCK = int(os.environ.get("NPGPU_CHOLESKY_BLOCK", "0"))

# Cholesky routes (NPGPU_CHOLESKY_ALGO, read at each call so it can be switched while
# measuring): "blocked" (the above), "xpotrf_lower" / "xpotrf_upper" (one 64-bit-API
# cusolverDnXpotrf per matrix on the lower / upper triangle of the column-major matrix,
# whatever its order) and "dpotrf" (the legacy typed cusolverDn{S,D,C,Z}potrf, lower).
CHOLESKY_ALGOS = ("blocked", "xpotrf_lower", "xpotrf_upper", "dpotrf")


def cholesky_algo():
    # one Xpotrf on the lower triangle: 2.10 ms for float64 4096 on the H200, against 4.07
    # blocked, 5.11 upper, PyTorch 2.17, CuPy 4.99 (linalg_routes.py, 2026-11-30)
    algo = os.environ.get("NPGPU_CHOLESKY_ALGO", "") or "xpotrf_lower"
    if algo not in CHOLESKY_ALGOS:
        raise ValueError(f"NPGPU_CHOLESKY_ALGO must be one of {', '.join(CHOLESKY_ALGOS)} "
                         f"(got {algo!r})")
    return algo


_PRE = {"f": "s", "d": "d", "F": "c", "D": "z"}     # legacy typed entry point prefixes


def potrf(x, algo="blocked"):
    """Cholesky of each column-major n x n matrix of ``x``, in place.

    Lower ``X = L L^H`` for every ``algo`` but "xpotrf_upper", which computes the
    upper ``X = U^H U``: only that triangle is read and the factor overwrites it (the
    other triangle is left as is, or scratch on the blocked path).  Returns the device
    ``info`` array: > 0 somewhere iff some matrix is not positive definite."""
    n = x.shape[-1]
    if algo == "blocked" and n >= BLOCKED_MIN_N:
        nb = BLOCK or (512 if n >= 4096 else 256)
        if nb < n:
            return _potrf_blocked(x, nb)
    if algo == "dpotrf":
        return _potrf_legacy(x)
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    t = H.cuda_data_type(x.dtype)
    ptrs = batch_ptrs(x)
    info = _info(len(ptrs))
    # cuSOLVER's lower potrf (the upper one is the slower variant), unless asked for the upper
    uplo = _fill(algo != "xpotrf_upper")
    dsz, hsz = cs.xpotrf_buffer_size(h, params, uplo, n, t, ptrs[0], n, t)
    work = _workspace(dsz)
    hw = _host_buffer(hsz)
    for i, p in enumerate(ptrs):
        cs.xpotrf(h, params, uplo, n, t, p, n, t, work.ptr, dsz, hw, hsz, info._ptr + 4 * i)
    return info


def _potrf_legacy(x):
    """Lower Cholesky by the typed cusolverDn<t>potrf (32-bit sizes, element-count workspace)."""
    cs = H.cusolver_module()
    h, _ = H.cusolver_handle()
    n = x.shape[-1]
    pre = _PRE[x.dtype.char]
    ptrs = batch_ptrs(x)
    info = _info(len(ptrs))
    uplo = _fill(True)
    lwork = getattr(cs, pre + "potrf_buffer_size")(h, uplo, n, ptrs[0], n)
    work = _workspace(lwork * x.itemsize)
    fn = getattr(cs, pre + "potrf")
    for i, p in enumerate(ptrs):
        fn(h, uplo, n, p, n, work.ptr, lwork, info._ptr + 4 * i)
    return info


def _potrf_blocked(x, nb):
    """Right-looking blocked lower Cholesky; one info entry per diagonal block, checked once."""
    cs = H.cusolver_module()
    cb = H.cublas_module()
    h, params = H.cusolver_handle()
    bh = H.cublas_handle()
    dt = x.dtype
    n = x.shape[-1]
    isz = dt.itemsize
    col = n * isz                                  # bytes per column (ld = n)
    t = H.cuda_data_type(dt)
    lower = _fill(True)
    ptrs = batch_ptrs(x)
    nblk = -(-n // nb)
    info = _info(len(ptrs) * nblk)
    last = n - (nblk - 1) * nb
    sizes = [cs.xpotrf_buffer_size(h, params, lower, m, t, ptrs[0], n, t) for m in {nb, last}]
    dsz = max(z[0] for z in sizes)
    hsz = max(z[1] for z in sizes)
    work = _workspace(dsz)
    hw = _host_buffer(hsz)
    pre = _PRE[dt.char]
    trsm = getattr(cb, pre + "trsm")
    rank_k = getattr(cb, pre + ("herk" if dt.kind == "c" else "syrk"))
    real = np.dtype(dt.char.lower())              # herk's alpha/beta are real
    one = H.host_scalar(1, dt)
    minus_one_r = H.host_scalar(-1, real)
    one_r = H.host_scalar(1, real)
    right = int(cb.SideMode.RIGHT)
    trans_h = int(cb.Operation.C if dt.kind == "c" else cb.Operation.T)
    no_trans = int(cb.Operation.N)
    non_unit = int(cb.DiagType.NON_UNIT)
    i = 0
    for p in ptrs:
        for k in range(0, n, nb):
            kb = min(nb, n - k)
            d = p + k * (isz + col)                # A[k, k]
            cs.xpotrf(h, params, lower, kb, t, d, n, t, work.ptr, dsz, hw, hsz, info._ptr + 4 * i)
            i += 1
            r = n - k - kb
            if r:
                panel = d + kb * isz               # A[k+kb:, k:k+kb] := A21 L11^-H
                trsm(bh, right, lower, trans_h, non_unit, r, kb, one, d, n, panel, n)
                trail = d + kb * (isz + col)       # A22 -= A21 A21^H (lower triangle)
                rank_k(bh, lower, no_trans, r, kb, minus_one_r, panel, n, one_r, trail, n)
    return info


def getrf(x):
    """LU with partial pivoting of each column-major n x n matrix of ``x`` in place.

    Returns (ipiv int64 (batch.., n), info)."""
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    n = x.shape[-1]
    t = H.cuda_data_type(x.dtype)
    ptrs = batch_ptrs(x)
    info = _info(len(ptrs))
    ipiv = empty_array(x.shape[:-2] + (n,), _I64, "C")
    dsz, hsz = cs.xgetrf_buffer_size(h, params, n, n, t, ptrs[0], n, t)
    work = _workspace(dsz)
    hw = _host_buffer(hsz)
    for i, p in enumerate(ptrs):
        cs.xgetrf(h, params, n, n, t, p, n, ipiv._ptr + 8 * n * i, t, work.ptr, dsz, hw, hsz,
                  info._ptr + 4 * i)
    return ipiv, info


def getrs(lu, ipiv, b, trans):
    """Solve with the LU of ``getrf``; ``b`` (batch.., n, k) column-major, overwritten.

    ``trans``: 0 solves A x = b, 1 solves A^T x = b (A the column-major matrix factored)."""
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    n = lu.shape[-1]
    k = b.shape[-1]
    t = H.cuda_data_type(lu.dtype)
    lps = batch_ptrs(lu)
    bps = batch_ptrs(b)
    info = _info(len(lps))
    for i, (p, q) in enumerate(zip(lps, bps)):
        cs.xgetrs(h, params, trans, n, k, t, p, n, ipiv._ptr + 8 * n * i, t, q, n,
                  info._ptr + 4 * i)
    return info


def syevd(x, w, lower, vectors):
    """Eigen-decomposition of each Hermitian column-major matrix of ``x`` (vectors overwrite x)."""
    cs = H.cusolver_module()
    from nvmath.bindings import cusolver as _cso
    h, params = H.cusolver_handle()
    n = x.shape[-1]
    t = H.cuda_data_type(x.dtype)
    tw = H.cuda_data_type(w.dtype)
    ptrs = batch_ptrs(x)
    info = _info(len(ptrs))
    jobz = int(_cso.EigMode.VECTOR if vectors else _cso.EigMode.NOVECTOR)
    uplo = _fill(lower)
    dsz, hsz = cs.xsyevd_buffer_size(h, params, jobz, uplo, n, t, ptrs[0], n, tw, w._ptr, t)
    work = _workspace(dsz)
    hw = _host_buffer(hsz)
    isz = w.itemsize
    for i, p in enumerate(ptrs):
        cs.xsyevd(h, params, jobz, uplo, n, t, p, n, tw, w._ptr + isz * n * i, t, work.ptr, dsz,
                  hw, hsz, info._ptr + 4 * i)
    return info


def gesvd(x, s, u, vt, jobu, jobvt):
    """SVD of each column-major p x q (p >= q) matrix of ``x`` (destroyed).

    ``u`` (p x p or p x q) and ``vt`` (q x q) are column-major stacks or None."""
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    p, q = x.shape[-2:]
    t = H.cuda_data_type(x.dtype)
    ts = H.cuda_data_type(s.dtype)
    xp = batch_ptrs(x)
    up = batch_ptrs(u) if u is not None else [0] * len(xp)
    vp = batch_ptrs(vt) if vt is not None else [0] * len(xp)
    ldu = p
    ldvt = q
    info = _info(len(xp))
    ju, jv = ord(jobu), ord(jobvt)
    dsz, hsz = cs.xgesvd_buffer_size(h, params, ju, jv, p, q, t, xp[0], p, ts, s._ptr, t, up[0],
                                     ldu, t, vp[0], ldvt, t)
    work = _workspace(dsz)
    hw = _host_buffer(hsz)
    k = s.shape[-1]
    for i in range(len(xp)):
        cs.xgesvd(h, params, ju, jv, p, q, t, xp[i], p, ts, s._ptr + s.itemsize * k * i, t, up[i],
                  ldu, t, vp[i], ldvt, t, work.ptr, dsz, hw, hsz, info._ptr + 4 * i)
    return info


# gesvdjInfo_t objects by (tolerance, max sweeps) as set by NPGPU_SVDJ_TOL / NPGPU_SVDJ_SWEEPS
# (read at each call; unset: cuSOLVER's defaults, machine precision and 100 sweeps), made on
# first use and kept.
_gesvdj_params = {}


def _gesvdj_info(cs):
    tol = os.environ.get("NPGPU_SVDJ_TOL", "")
    sweeps = os.environ.get("NPGPU_SVDJ_SWEEPS", "")
    key = (tol, sweeps)
    params = _gesvdj_params.get(key)
    if params is None:
        params = cs.create_gesvdj_info()
        if tol:
            cs.xgesvdj_set_tolerance(params, float(tol))
        if sweeps:
            cs.xgesvdj_set_max_sweeps(params, int(sweeps))
        _gesvdj_params[key] = params
    return params


def gesvdj(x, s, u, v, econ, vectors=True):
    """Jacobi SVD ``X = U S V^H`` of each column-major p x q (p >= q) matrix of ``x`` (destroyed).

    ``u`` (p x p, or p x q with ``econ``) and ``v`` (q x q: V itself, not V^H)
    are column-major stacks (with ``vectors=False`` only the values are computed, but
    ``u``/``v`` must still be real buffers of those sizes).  Singular values come out
    descending.  Returns ``info``: ``q + 1`` where the sweeps did not converge."""
    cs = H.cusolver_module()
    from nvmath.bindings import cusolver as _cso
    h, _ = H.cusolver_handle()
    params = _gesvdj_info(cs)
    p, q = x.shape[-2:]
    pre = _PRE[x.dtype.char]
    fn = getattr(cs, pre + "gesvdj")
    xp, up, vp = batch_ptrs(x), batch_ptrs(u), batch_ptrs(v)
    jobz = int(_cso.EigMode.VECTOR if vectors else _cso.EigMode.NOVECTOR)
    e = 1 if econ else 0
    lwork = getattr(cs, pre + "gesvdj_buffer_size")(h, jobz, e, p, q, xp[0], p, s._ptr, up[0], p,
                                                     vp[0], q, params)
    work = _workspace(lwork * x.itemsize)
    info = _info(len(xp))
    k = s.shape[-1]
    for i in range(len(xp)):
        fn(h, jobz, e, p, q, xp[i], p, s._ptr + s.itemsize * k * i, up[i], p, vp[i], q, work.ptr,
           lwork, info._ptr + 4 * i, params)
    return info


# h_err_sigma of the last gesvdp call (the perturbation cuSOLVER added to reach small
# singular values; 0 when none was close to zero), kept for experiments/diagnostics.
gesvdp_err_sigma = [0.0]


def gesvdp(x, s, u, v, vectors=True):
    """Polar-decomposition SVD (cusolverDnXgesvdp, economy size) ``X = U S V^H`` of each
    column-major p x q (p >= q) matrix of ``x`` (destroyed).

    ``u`` (p x q) and ``v`` (q x q: V itself, not V^H) are column-major stacks; with
    ``vectors=False`` only the values are computed (``u``/``v`` still real buffers).
    Values descending.  cuSOLVER returns a host value (h_err_sigma) per call, so each
    call waits for the GPU."""
    cs = H.cusolver_module()
    from nvmath.bindings import cusolver as _cso
    h, params = H.cusolver_handle()
    p, q = x.shape[-2:]
    t = H.cuda_data_type(x.dtype)
    ts = H.cuda_data_type(s.dtype)
    xp, up, vp = batch_ptrs(x), batch_ptrs(u), batch_ptrs(v)
    jobz = int(_cso.EigMode.VECTOR if vectors else _cso.EigMode.NOVECTOR)
    econ = 1
    dsz, hsz = cs.xgesvdp_buffer_size(h, params, jobz, econ, p, q, t, xp[0], p, ts, s._ptr, t,
                                      up[0], p, t, vp[0], q, t)
    work = _workspace(dsz)
    hw = _host_buffer(hsz)
    info = _info(len(xp))
    k = s.shape[-1]
    err = 0.0
    for i in range(len(xp)):
        e = cs.xgesvdp(h, params, jobz, econ, p, q, t, xp[i], p, ts, s._ptr + s.itemsize * k * i,
                       t, up[i], p, t, vp[i], q, t, work.ptr, dsz, hw, hsz, info._ptr + 4 * i)
        err = max(err, float(e or 0.0))
    gesvdp_err_sigma[0] = err
    return info


def geqrf(x, tau):
    """Householder QR of each column-major m x n matrix of ``x`` in place; ``tau`` (batch.., k)."""
    cs = H.cusolver_module()
    h, params = H.cusolver_handle()
    m, n = x.shape[-2:]
    lda = x._strides[-1] // x.itemsize if n > 1 else max(1, m)
    t = H.cuda_data_type(x.dtype)
    ptrs = batch_ptrs(x)
    info = _info(len(ptrs))
    k = tau.shape[-1]
    dsz, hsz = cs.xgeqrf_buffer_size(h, params, m, n, t, ptrs[0], lda, t, tau._ptr, t)
    work = _workspace(dsz)
    hw = _host_buffer(hsz)
    for i, p in enumerate(ptrs):
        cs.xgeqrf(h, params, m, n, t, p, lda, t, tau._ptr + tau.itemsize * k * i, t, work.ptr, dsz,
                  hw, hsz, info._ptr + 4 * i)
    return info


def orgqr(x, tau, ncols, lda):
    """Form Q (m x ncols) from ``geqrf``'s reflectors in each matrix of ``x`` (column-major, ``lda``)."""
    cs = H.cusolver_module()
    h, _ = H.cusolver_handle()
    m = x.shape[-2]
    k = tau.shape[-1]
    pre = {"f": "sorgqr", "d": "dorgqr", "F": "cungqr", "D": "zungqr"}[x.dtype.char]
    bs = getattr(cs, pre + "_buffer_size")
    fn = getattr(cs, pre)
    ptrs = batch_ptrs(x)
    info = _info(len(ptrs))
    lwork = bs(h, m, ncols, k, ptrs[0], lda, tau._ptr)
    work = _workspace(lwork * x.itemsize)
    for i, p in enumerate(ptrs):
        fn(h, m, ncols, k, p, lda, tau._ptr + tau.itemsize * k * i, work.ptr, lwork,
           info._ptr + 4 * i)
    return info


def geev(x, w, vr):
    """Eigenvalues (complex ``w``) and right eigenvectors (``vr``, column-major, same dtype as x)
    of each general column-major matrix of ``x`` (destroyed)."""
    cs = H.cusolver_module()
    from nvmath.bindings import cusolver as _cso
    h, params = H.cusolver_handle()
    n = x.shape[-1]
    t = H.cuda_data_type(x.dtype)
    tw = H.cuda_data_type(w.dtype)
    ptrs = batch_ptrs(x)
    vps = batch_ptrs(vr) if vr is not None else [0] * len(ptrs)
    info = _info(len(ptrs))
    nov = int(_cso.EigMode.NOVECTOR)
    jobvr = int(_cso.EigMode.VECTOR if vr is not None else _cso.EigMode.NOVECTOR)
    ldv = max(1, n)
    dsz, hsz = cs.xgeev_buffer_size(h, params, nov, jobvr, n, t, ptrs[0], n, tw, w._ptr, t, 0, ldv,
                                    t, vps[0], ldv, t)
    work = _workspace(dsz)
    hw = _host_buffer(hsz)
    for i, p in enumerate(ptrs):
        cs.xgeev(h, params, nov, jobvr, n, t, p, n, tw, w._ptr + w.itemsize * n * i, t, 0, ldv, t,
                 vps[i], ldv, t, work.ptr, dsz, hw, hsz, info._ptr + 4 * i)
    return info
