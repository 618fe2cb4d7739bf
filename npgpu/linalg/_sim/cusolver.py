"""Stand-in for ``nvmath.bindings.cusolverDn`` on the simulator: the entry points npgpu calls.

Each routine runs the LAPACK routine cuSOLVER implements (SciPy's wrappers, in the
data type) on the column-major matrix at the address given, writes the outputs
cuSOLVER writes (the factor over ``A`` with the other triangle untouched, 1-based
``int64`` pivots, ``W``/``S``/``tau``/``U``/``V``) and the ``info`` value LAPACK
returns: potrf the order of the first minor that is not positive definite, getrf
the first exactly-zero pivot (1-based), syevd/gesvd the count of unconverged
elements; gesvdj reports ``min(m, n) + 1`` where the iteration failed.  The Jacobi
and polar SVDs (gesvdj, gesvdp) give the same factors as gesvd here: only their
output conventions (``V`` itself, economy sizes, gesvdp's returned ``h_err_sigma``)
differ."""
import numpy as np
from scipy.linalg import lapack

from nvmath.bindings.cusolver import EigMode, Status, cuSOLVERError

from . import dtype_of, matrix, new_handle, put_info, vector
from .cublas import FillMode, Operation

_I64 = np.dtype(np.int64)


def _require(ok):
    if not ok:
        raise cuSOLVERError(int(Status.INVALID_VALUE))


def _lapack(name, dt):
    return lapack.get_lapack_funcs((name,), dtype=dt)[0]


def _real(dt):
    return np.dtype(dt.char.lower())


def _size(dt, *dims):
    """The workspace a routine asks for (bytes): one element per entry, at least one."""
    n = 1
    for d in dims:
        n *= max(int(d), 1)
    return n * dt.itemsize


def _check_ws(asked, got, ptr):
    _require(got >= asked and (ptr or not asked))


def _write_triangle(x, f, lower):
    """Write the ``lower`` (else upper) triangle of ``f`` into ``x``; the other stays."""
    n = x.shape[0]
    idx = np.tril_indices(n) if lower else np.triu_indices(n)
    x[idx] = f[idx]


def _vector_mode(jobz):
    _require(jobz in (int(EigMode.NOVECTOR), int(EigMode.VECTOR)))
    return jobz == EigMode.VECTOR


class CusolverDn:
    """The cuSOLVER-Dn entry points npgpu uses (see the module docstring); one instance,
    :data:`CUSOLVER_DN`, serves every handle.  Tests subclass or wrap it to observe calls."""

    cuSOLVERError = cuSOLVERError

    def __init__(self):
        self.gesvdj_params = {}      # gesvdjInfo handle -> {"tolerance": .., "max_sweeps": ..}

    # ---- handles and parameter objects: dummies; streams change nothing here ---------------
    def create(self):
        return new_handle()

    def destroy(self, handle):
        pass

    def create_params(self):
        return new_handle()

    def destroy_params(self, params):
        pass

    def set_stream(self, handle, stream_id):
        pass

    def create_gesvdj_info(self):
        h = new_handle()
        self.gesvdj_params[h] = {}
        return h

    def destroy_gesvdj_info(self, info):
        self.gesvdj_params.pop(info, None)

    def xgesvdj_set_tolerance(self, info, tolerance):
        self.gesvdj_params[info]["tolerance"] = float(tolerance)

    def xgesvdj_set_max_sweeps(self, info, max_sweeps):
        self.gesvdj_params[info]["max_sweeps"] = int(max_sweeps)

    # ---- Cholesky ------------------------------------------------------------------------------
    def xpotrf_buffer_size(self, handle, params, uplo, n, data_type_a, a, lda, compute_type):
        return _size(dtype_of(data_type_a), n), 0

    def xpotrf(self, handle, params, uplo, n, data_type_a, a, lda, compute_type, buffer_on_device,
               workspace_in_bytes_on_device, buffer_on_host, workspace_in_bytes_on_host, info):
        dt = dtype_of(data_type_a)
        _require(dtype_of(compute_type) == dt)
        _check_ws(_size(dt, n), workspace_in_bytes_on_device, buffer_on_device)
        self._potrf(dt, uplo, n, a, lda, info)

    def _potrf(self, dt, uplo, n, a, lda, info):
        _require(uplo in (int(FillMode.LOWER), int(FillMode.UPPER)) and n >= 0 and lda >= max(1, n))
        if n == 0:
            put_info(info, 0)
            return
        lower = uplo == FillMode.LOWER
        x = matrix(a, dt, n, n, lda)
        f, res = _lapack("potrf", dt)(np.asfortranarray(x), lower=lower, clean=0)
        _write_triangle(x, f, lower)
        put_info(info, res)

    # ---- LU --------------------------------------------------------------------------------
    def xgetrf_buffer_size(self, handle, params, m, n, data_type_a, a, lda, compute_type):
        return _size(dtype_of(data_type_a), min(m, n)), 0

    def xgetrf(self, handle, params, m, n, data_type_a, a, lda, ipiv, compute_type, buffer_on_device,
               workspace_in_bytes_on_device, buffer_on_host, workspace_in_bytes_on_host, info):
        dt = dtype_of(data_type_a)
        _require(dtype_of(compute_type) == dt and min(m, n) >= 0 and lda >= max(1, m))
        _require(ipiv != 0)         # npgpu always pivots (cuSOLVER's NULL ipiv: no pivoting)
        _check_ws(_size(dt, min(m, n)), workspace_in_bytes_on_device, buffer_on_device)
        if m == 0 or n == 0:
            put_info(info, 0)
            return
        x = matrix(a, dt, m, n, lda)
        lu, piv, res = _lapack("getrf", dt)(np.asfortranarray(x))
        x[...] = lu
        vector(ipiv, _I64, min(m, n))[...] = piv + 1          # SciPy's are 0-based
        put_info(info, res)

    def xgetrs(self, handle, params, trans, n, nrhs, data_type_a, a, lda, ipiv, data_type_b, b, ldb,
               info):
        dt = dtype_of(data_type_a)
        _require(dtype_of(data_type_b) == dt and trans in (0, 1, 2) and min(n, nrhs) >= 0)
        _require(lda >= max(1, n) and ldb >= max(1, n))
        if n == 0 or nrhs == 0:
            put_info(info, 0)
            return
        lu = np.asfortranarray(matrix(a, dt, n, n, lda))
        piv = vector(ipiv, _I64, n).astype(np.int32) - 1
        bm = matrix(b, dt, n, nrhs, ldb)
        x, res = _lapack("getrs", dt)(lu, piv, np.asfortranarray(bm), trans=int(Operation(trans)))
        bm[...] = x
        put_info(info, res)

    # ---- Hermitian eigensolver ---------------------------------------------------------------
    def xsyevd_buffer_size(self, handle, params, jobz, uplo, n, data_type_a, a, lda, data_type_w, w,
                           compute_type):
        return _size(dtype_of(data_type_a), n, n), 0

    def xsyevd(self, handle, params, jobz, uplo, n, data_type_a, a, lda, data_type_w, w,
               compute_type, buffer_on_device, workspace_in_bytes_on_device, buffer_on_host,
               workspace_in_bytes_on_host, info):
        dt = dtype_of(data_type_a)
        _require(dtype_of(data_type_w) == _real(dt) and dtype_of(compute_type) == dt)
        _require(uplo in (int(FillMode.LOWER), int(FillMode.UPPER)) and n >= 0 and lda >= max(1, n))
        vectors = _vector_mode(jobz)
        _check_ws(_size(dt, n, n), workspace_in_bytes_on_device, buffer_on_device)
        if n == 0:
            put_info(info, 0)
            return
        x = matrix(a, dt, n, n, lda)
        fn = _lapack("heevd" if dt.kind == "c" else "syevd", dt)
        ww, v, res = fn(np.asfortranarray(x), compute_v=int(vectors), lower=int(uplo == FillMode.LOWER))
        vector(w, _real(dt), n)[...] = ww
        if vectors:
            x[...] = v
        put_info(info, res)

    # ---- SVD: QR iteration, Jacobi, polar ------------------------------------------------------
    def xgesvd_buffer_size(self, handle, params, jobu, jobvt, m, n, data_type_a, a, lda, data_type_s,
                           s, data_type_u, u, ldu, data_type_vt, vt, ldvt, compute_type):
        return _size(dtype_of(data_type_a), m, n), 0

    def xgesvd(self, handle, params, jobu, jobvt, m, n, data_type_a, a, lda, data_type_s, s,
               data_type_u, u, ldu, data_type_vt, vt, ldvt, compute_type, buffer_on_device,
               workspace_in_bytes_on_device, buffer_on_host, workspace_in_bytes_on_host, info):
        dt = dtype_of(data_type_a)
        ju, jv = chr(jobu), chr(jobvt)
        _require(dtype_of(data_type_s) == _real(dt) and dtype_of(compute_type) == dt)
        _require(dtype_of(data_type_u) == dt and dtype_of(data_type_vt) == dt)
        # cuSOLVER's gesvd takes tall matrices only; jobs 'O' (overwrite A) npgpu never asks for
        _require(m >= n >= 0 and lda >= max(1, m) and ju in "ASN" and jv in "ASN")
        _require(ju == "N" or (u and ldu >= max(1, m)))
        _require(jv == "N" or (vt and ldvt >= max(1, n)))
        _check_ws(_size(dt, m, n), workspace_in_bytes_on_device, buffer_on_device)
        uu, ss, vh, res = self._svd(dt, matrix(a, dt, m, n, lda), ju != "N" or jv != "N", ju == "A")
        vector(s, _real(dt), n)[...] = ss
        if ju != "N":
            matrix(u, dt, m, uu.shape[1], ldu)[...] = uu
        if jv != "N":
            matrix(vt, dt, n, n, ldvt)[...] = vh
        put_info(info, res)

    @staticmethod
    def _svd(dt, x, vectors, full):
        """LAPACK gesvd of the (tall) matrix ``x``: (u, s, vh, info)."""
        if 0 in x.shape:
            k = min(x.shape)
            return (np.eye(x.shape[0], x.shape[0] if full else k, dtype=dt), np.zeros(k, _real(dt)),
                    np.eye(k, x.shape[1], dtype=dt), 0)
        r = _lapack("gesvd", dt)(np.asfortranarray(x), compute_uv=int(vectors),
                                 full_matrices=int(full))
        return r if vectors else (None, r[1], None, r[-1])

    def _gesvdj(self, dt, handle, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lwork, info,
                params):
        _require(params in self.gesvdj_params and econ in (0, 1) and min(m, n) >= 0)
        k = min(m, n)
        vectors = _vector_mode(jobz)
        _require(lda >= max(1, m) and ldu >= max(1, m) and ldv >= max(1, n))
        _check_ws(_size(dt, m, n) // dt.itemsize, lwork, work)
        uu, ss, vh, res = self._svd(dt, matrix(a, dt, m, n, lda), vectors, not econ)
        vector(s, _real(dt), k)[...] = ss
        if vectors:
            matrix(u, dt, m, uu.shape[1], ldu)[...] = uu
            matrix(v, dt, n, vh.shape[0], ldv)[...] = np.conj(vh).T      # V itself, not V^H
        put_info(info, k + 1 if res else 0)

    def xgesvdp_buffer_size(self, handle, params, jobz, econ, m, n, data_type_a, a, lda, data_type_s,
                            s, data_type_u, u, ldu, data_type_v, v, ldv, compute_type):
        return _size(dtype_of(data_type_a), m, n), 0

    def xgesvdp(self, handle, params, jobz, econ, m, n, data_type_a, a, lda, data_type_s, s,
                data_type_u, u, ldu, data_type_v, v, ldv, compute_type, buffer_on_device,
                workspace_in_bytes_on_device, buffer_on_host, workspace_in_bytes_on_host, info):
        dt = dtype_of(data_type_a)
        _require(dtype_of(data_type_s) == _real(dt) and dtype_of(compute_type) == dt)
        _require(dtype_of(data_type_u) == dt and dtype_of(data_type_v) == dt and econ in (0, 1))
        _require(m >= n >= 0 and lda >= max(1, m) and ldu >= max(1, m) and ldv >= max(1, n))
        vectors = _vector_mode(jobz)
        _check_ws(_size(dt, m, n), workspace_in_bytes_on_device, buffer_on_device)
        uu, ss, vh, res = self._svd(dt, matrix(a, dt, m, n, lda), vectors, not econ)
        vector(s, _real(dt), n)[...] = ss
        if vectors:
            matrix(u, dt, m, uu.shape[1], ldu)[...] = uu
            matrix(v, dt, n, n, ldv)[...] = np.conj(vh).T              # V itself
        put_info(info, res)
        return 0.0                  # h_err_sigma: no perturbation was needed

    # ---- QR ------------------------------------------------------------------------------------
    def xgeqrf_buffer_size(self, handle, params, m, n, data_type_a, a, lda, data_type_tau, tau,
                           compute_type):
        return _size(dtype_of(data_type_a), n), 0

    def xgeqrf(self, handle, params, m, n, data_type_a, a, lda, data_type_tau, tau, compute_type,
               buffer_on_device, workspace_in_bytes_on_device, buffer_on_host,
               workspace_in_bytes_on_host, info):
        dt = dtype_of(data_type_a)
        _require(dtype_of(data_type_tau) == dt and dtype_of(compute_type) == dt)
        _require(min(m, n) >= 0 and lda >= max(1, m))
        _check_ws(_size(dt, n), workspace_in_bytes_on_device, buffer_on_device)
        if m == 0 or n == 0:
            put_info(info, 0)
            return
        x = matrix(a, dt, m, n, lda)
        qr, t, _, res = _lapack("geqrf", dt)(np.asfortranarray(x))
        x[...] = qr
        vector(tau, dt, min(m, n))[...] = t
        put_info(info, res)

    def _orgqr(self, dt, handle, m, n, k, a, lda, tau, work, lwork, info):
        """Q's first n columns from k reflectors (LAPACK's orgqr/ungqr), over A (m x n)."""
        _require(m >= n >= k >= 0 and lda >= max(1, m))
        _check_ws(max(n, 1), lwork, work)
        if n == 0:
            put_info(info, 0)
            return
        x = matrix(a, dt, m, n, lda)
        q, _, res = _lapack("ungqr" if dt.kind == "c" else "orgqr", dt)(
            np.asfortranarray(x), np.array(vector(tau, dt, k)) if k else np.zeros(1, dt)[:0])
        x[...] = q
        put_info(info, res)

    # ---- general eigensolver -------------------------------------------------------------------
    def xgeev_buffer_size(self, handle, params, jobvl, jobvr, n, data_type_a, a, lda, data_type_w, w,
                          data_type_vl, vl, ldvl, data_type_vr, vr, ldvr, compute_type):
        return _size(dtype_of(data_type_a), n, n), 0

    def xgeev(self, handle, params, jobvl, jobvr, n, data_type_a, a, lda, data_type_w, w,
              data_type_vl, vl, ldvl, data_type_vr, vr, ldvr, compute_type, buffer_on_device,
              workspace_in_bytes_on_device, buffer_on_host, workspace_in_bytes_on_host, info):
        dt = dtype_of(data_type_a)
        wdt = dtype_of(data_type_w)
        _require(wdt.kind == "c" and _real(wdt) == _real(dt) and dtype_of(compute_type) == dt)
        left, right = _vector_mode(jobvl), _vector_mode(jobvr)
        _require(n >= 0 and lda >= max(1, n))
        _require(not left or (vl and dtype_of(data_type_vl) == dt and ldvl >= max(1, n)))
        _require(not right or (vr and dtype_of(data_type_vr) == dt and ldvr >= max(1, n)))
        _check_ws(_size(dt, n, n), workspace_in_bytes_on_device, buffer_on_device)
        if n == 0:
            put_info(info, 0)
            return
        x = matrix(a, dt, n, n, lda)
        r = _lapack("geev", dt)(np.asfortranarray(x), compute_vl=int(left), compute_vr=int(right))
        if dt.kind == "c":
            ww, lv, rv, res = r
        else:       # real: conjugate pairs' vectors packed as (re, im) columns, as LAPACK's
            wr, wi, lv, rv, res = r
            ww = wr + 1j * wi
        vector(w, wdt, n)[...] = ww
        if left:
            matrix(vl, dt, n, n, ldvl)[...] = lv
        if right:
            matrix(vr, dt, n, n, ldvr)[...] = rv
        put_info(info, res)


def _install_typed():
    """The typed (legacy) entry points npgpu calls: <t>potrf, <t>gesvdj, <t>orgqr / <t>ungqr,
    each with its ``_buffer_size`` query (an element count)."""
    for pre, ch in zip("sdcz", "fdFD"):
        dt = np.dtype(ch)

        def potrf_bs(self, handle, uplo, n, a, lda):
            return max(int(n), 1)

        def potrf(self, handle, uplo, n, a, lda, workspace, lwork, dev_info, _dt=dt):
            _check_ws(max(n, 1), lwork, workspace)
            self._potrf(_dt, uplo, n, a, lda, dev_info)

        def gesvdj_bs(self, handle, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, params, _dt=dt):
            return _size(_dt, m, n) // _dt.itemsize

        def gesvdj(self, handle, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lwork, info,
                   params, _dt=dt):
            self._gesvdj(_dt, handle, jobz, econ, m, n, a, lda, s, u, ldu, v, ldv, work, lwork,
                         info, params)

        def orgqr_bs(self, handle, m, n, k, a, lda, tau):
            return max(int(n), 1)

        def orgqr(self, handle, m, n, k, a, lda, tau, work, lwork, info, _dt=dt):
            self._orgqr(_dt, handle, m, n, k, a, lda, tau, work, lwork, info)

        qr = pre + ("ungqr" if dt.kind == "c" else "orgqr")
        for name, f in ((pre + "potrf_buffer_size", potrf_bs), (pre + "potrf", potrf),
                        (pre + "gesvdj_buffer_size", gesvdj_bs), (pre + "gesvdj", gesvdj),
                        (qr + "_buffer_size", orgqr_bs), (qr, orgqr)):
            f.__name__ = f.__qualname__ = name
            setattr(CusolverDn, name, f)


_install_typed()
CUSOLVER_DN = CusolverDn()
