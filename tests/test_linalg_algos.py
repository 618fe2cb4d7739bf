"""The selectable cuSOLVER routes (NPGPU_CHOLESKY_ALGO, NPGPU_SVD_ALGO) on the simulator.

As in test_linalg_decomp's call-path tests, the library entry points are replaced by NumPy
stand-ins that read and write the raw column-major addresses npgpu passes (simulator memory
is host memory), so the pointer/triangle/layout handling of each route is checked here; the
routes' numerics are the GPU suite's and scripts/exp_linalg.py's business."""
import numpy as np
import pytest

import npgpu as gp
from npgpu.linalg import decomp
from npgpu.linalg import _solver

import test_linalg_decomp as base
from test_linalg_decomp import FLOATS, hpd, rand, tol

pytestmark = pytest.mark.skipif(not base.SIM, reason="replaces cuSOLVER/cuBLAS by host references: "
                                                     "simulator memory only")
_mat, _put_info = base._mat, base._put_info


class AlgoLibs(base.RefLibs):
    """RefLibs plus the upper Xpotrf, the typed <t>potrf, Xgesvdp and the gesvdj knobs."""

    def __init__(self):
        super().__init__()
        for pre, c in zip("sdcz", "fdFD"):
            dt = np.dtype(c)
            setattr(self, pre + "potrf", self._legacy_potrf(dt))
            setattr(self, pre + "potrf_buffer_size", lambda *a: 3)
            setattr(self, pre + "gesvdj", self._typed(dt, getattr(self, pre + "gesvdj")))
        self.knobs = []
        self.dtypes = []            # the dtype each SVD routine was called with

    def _typed(self, dt, fn):
        def wrapped(*args):
            self.dtypes.append(dt)
            return fn(*args)
        return wrapped

    def xgesvd(self, h, params, jobu, jobvt, m, n, t, *rest):
        self.dtypes.append(self.types[t])
        return super().xgesvd(h, params, jobu, jobvt, m, n, t, *rest)

    def _factor(self, x, n, upper, info):
        """Cholesky of the Hermitian matrix given by one triangle of column-major ``x``."""
        tri = np.triu if upper else np.tril
        herm = tri(x) + np.conj(tri(x, 1 if upper else -1)).T
        try:
            f = np.linalg.cholesky(herm, upper=upper)
        except np.linalg.LinAlgError:
            _put_info(info, 1)
            x[...] = np.nan
            return
        idx = np.triu_indices(n) if upper else np.tril_indices(n)
        x[idx] = f[idx]
        _put_info(info, 0)

    def xpotrf(self, h, params, uplo, n, t, a, lda, ct, work, dsz, hw, hsz, info):
        upper = uplo == int(self.FillMode.UPPER)
        assert upper or uplo == int(self.FillMode.LOWER)
        self.calls.append(("potrf", n, "U" if upper else "L"))
        self._factor(_mat(a, self.types[t], n, n, lda), n, upper, info)

    def _legacy_potrf(self, dt):
        def potrf(h, uplo, n, a, lda, work, lwork, info):
            assert uplo == int(self.FillMode.LOWER) and lwork == 3 and work
            self.calls.append(("legacy_potrf", n, dt.char))
            self._factor(_mat(a, dt, n, n, lda), n, False, info)
        return potrf

    def xgesvdj_set_tolerance(self, params, tol):
        self.knobs.append(("tol", params, tol))

    def xgesvdj_set_max_sweeps(self, params, sweeps):
        self.knobs.append(("sweeps", params, sweeps))

    def create_gesvdj_info(self):
        return 11 + len(self.knobs)

    def xgesvdp_buffer_size(self, h, params, jobz, econ, m, n, t, a, lda, ts, s, tu, u, ldu, tv, v,
                            ldv, ct):
        return 16, 8

    def xgesvdp(self, h, params, jobz, econ, m, n, t, a, lda, ts, s, tu, u, ldu, tv, v, ldv, ct,
                work, dsz, hw, hsz, info):
        dt = self.types[t]
        assert m >= n and econ == 1 and lda == m and ldu == m and ldv == n
        assert tu == tv == ct == t and self.types[ts] == np.dtype(dt.char.lower())
        assert u and v and work and hw and (dsz, hsz) == (16, 8)
        self.calls.append(("gesvdp", m, n, jobz, dt.char))
        self.dtypes.append(dt)
        uu, ss, vh = np.linalg.svd(_mat(a, dt, m, n, lda), full_matrices=False)
        _mat(s, np.dtype(dt.char.lower()), n, 1, n)[:, 0] = ss
        if jobz == 1:       # VECTOR; NOVECTOR leaves U and V alone
            _mat(u, dt, m, n, ldu)[...] = uu
            _mat(v, dt, n, n, ldv)[...] = np.conj(vh).T      # V, not V^H
        _put_info(info, 0)
        return 0.0


@pytest.fixture
def libs(monkeypatch):
    for var in ("NPGPU_CHOLESKY_ALGO", "NPGPU_SVD_ALGO", "NPGPU_SVDJ_TOL", "NPGPU_SVDJ_SWEEPS"):
        monkeypatch.delenv(var, raising=False)
    yield from base.install_fake_libs(monkeypatch, AlgoLibs())


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("algo", _solver.CHOLESKY_ALGOS)
def test_cholesky_algos(libs, monkeypatch, dt, algo):
    monkeypatch.setattr(_solver, "BLOCKED_MIN_N", 8)
    monkeypatch.setattr(_solver, "BLOCK", 5)
    monkeypatch.setenv("NPGPU_CHOLESKY_ALGO", algo)
    a = hpd((2, 13, 13), dt)
    for upper in (False, True):
        libs.calls.clear()
        got = gp.linalg.cholesky(gp.asarray(a), upper=upper).get()
        np.testing.assert_allclose(got, np.linalg.cholesky(a, upper=upper), **tol(dt))
        want = {"blocked": ("potrf", 5, "L"), "xpotrf_lower": ("potrf", 13, "L"),
                "xpotrf_upper": ("potrf", 13, "U"),
                "dpotrf": ("legacy_potrf", 13, np.dtype(dt).char)}[algo]
        assert libs.calls[0] == want
        assert len(libs.calls) == (14 if algo == "blocked" else 2)
    # non-contiguous input, and a single matrix
    b = hpd((13, 13), dt)
    np.testing.assert_allclose(gp.linalg.cholesky(gp.asarray(b.T.copy()).T).get(),
                               np.linalg.cholesky(b), **tol(dt))
    if algo == "xpotrf_upper":
        # reads A's lower triangle only, as NumPy: garbage above the diagonal changes nothing
        junk = np.tril(b) + np.triu(rand(b.shape, dt), 1)
        np.testing.assert_allclose(gp.linalg.cholesky(gp.asarray(junk)).get(),
                                   np.linalg.cholesky(junk), **tol(dt))
    bad = a.copy()
    bad[1, 12, 12] = -100.0
    for upper in (False, True):
        with pytest.raises(np.linalg.LinAlgError, match="positive definite"):
            gp.linalg.cholesky(gp.asarray(bad), upper=upper)
    prev = gp.linalg.set_error_check(False)
    try:
        gp.linalg.cholesky(gp.asarray(bad))          # no check: no raise
    finally:
        gp.linalg.set_error_check(prev)


def test_algo_env_errors(libs, monkeypatch):
    monkeypatch.setenv("NPGPU_CHOLESKY_ALGO", "potrf2")
    with pytest.raises(ValueError, match="NPGPU_CHOLESKY_ALGO"):
        gp.linalg.cholesky(gp.asarray(hpd((3, 3), np.float64)))
    monkeypatch.setenv("NPGPU_SVD_ALGO", "gesdd")
    with pytest.raises(ValueError, match="NPGPU_SVD_ALGO"):
        gp.linalg.svd(gp.asarray(rand((3, 3))))


def _check_svd(a, u, s, vh, full, dt):
    nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
    assert u.shape == nu.shape and vh.shape == nvh.shape and s.shape == ns.shape
    assert u.dtype == nu.dtype and s.dtype == ns.dtype and vh.dtype == nvh.dtype
    np.testing.assert_allclose(s, ns, **tol(dt))
    k = s.shape[-1]
    np.testing.assert_allclose((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, **tol(dt))
    for q, eye in ((u, np.conj(np.swapaxes(u, -1, -2)) @ u),
                   (vh, vh @ np.conj(np.swapaxes(vh, -1, -2)))):
        np.testing.assert_allclose(eye, np.broadcast_to(np.eye(eye.shape[-1]), eye.shape),
                                   **tol(dt))


WIDE = {"f": "d", "F": "D", "d": "d", "D": "D"}


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("algo", decomp.SVD_ALGOS)
def test_svd_algos(libs, monkeypatch, dt, algo):
    monkeypatch.setenv("NPGPU_SVD_ALGO", algo)
    dt = np.dtype(dt)
    if algo == "auto":          # the default: polar SVD in double for single precision
        algo = "gesvdp64" if dt.char in "fF" else "gesvd"
    for shape in [(6, 4), (4, 6), (2, 5, 5), (2, 3, 7)]:
        a = rand(shape, dt)
        square = shape[-1] == shape[-2]
        for full in (True, False):
            libs.calls.clear()
            libs.dtypes.clear()
            u, s, vh = (x.get() for x in gp.linalg.svd(gp.asarray(a), full_matrices=full))
            _check_svd(a, u, s, vh, full, dt)
            names = {c[0] for c in libs.calls}
            base_algo = algo.rstrip("64")
            if base_algo == "gesvdp" and full and not square:
                base_algo = "gesvd"                  # full U/V^H of a non-square matrix
            assert names == {base_algo}, (names, algo, shape, full)
            if base_algo == "gesvdp":
                assert all(c[3] == 1 for c in libs.calls)    # VECTOR
            # the 64 routes compute float32/complex64 in float64/complex128
            want = WIDE[dt.char] if algo.endswith("64") else dt.char
            assert libs.dtypes and {d.char for d in libs.dtypes} == {want}
        libs.calls.clear()
        sv = gp.linalg.svdvals(gp.asarray(a)).get()
        assert sv.dtype == np.linalg.svd(a)[1].dtype
        np.testing.assert_allclose(sv, np.linalg.svd(a)[1], **tol(dt))
        names = {c[0] for c in libs.calls}
        assert names == {algo.rstrip("64")}
        if algo == "gesvdp":
            assert all(c[3] == 0 for c in libs.calls)        # NOVECTOR


def test_gesvdj_knobs(libs, monkeypatch):
    monkeypatch.setenv("NPGPU_SVD_ALGO", "gesvdj")
    a = gp.asarray(rand((5, 4)))
    gp.linalg.svd(a)
    assert libs.knobs == []                             # unset: cuSOLVER's defaults
    monkeypatch.setenv("NPGPU_SVDJ_TOL", "1e-7")
    monkeypatch.setenv("NPGPU_SVDJ_SWEEPS", "100")
    gp.linalg.svd(a)
    assert [(k, v) for k, _, v in libs.knobs] == [("tol", 1e-7), ("sweeps", 100)]
    gp.linalg.svd(a)                                    # the same settings: params reused
    assert len(libs.knobs) == 2
    monkeypatch.setenv("NPGPU_SVDJ_TOL", "0")
    monkeypatch.delenv("NPGPU_SVDJ_SWEEPS")
    gp.linalg.svd(a)
    assert [(k, v) for k, _, v in libs.knobs[2:]] == [("tol", 0.0)]


def test_gesvdj_nonconverged_falls_back(libs, monkeypatch):
    monkeypatch.setenv("NPGPU_SVD_ALGO", "gesvdj")
    libs.nonconverge = True
    a = rand((6, 4), np.complex64)
    for full in (True, False):
        libs.calls.clear()
        u, s, vh = (x.get() for x in gp.linalg.svd(gp.asarray(a), full_matrices=full))
        _check_svd(a, u, s, vh, full, np.complex64)
        assert {c[0] for c in libs.calls} == {"gesvdj", "gesvd"}
    libs.calls.clear()
    np.testing.assert_allclose(gp.linalg.svdvals(gp.asarray(a)).get(), np.linalg.svd(a)[1],
                               **tol(np.complex64))
    assert {c[0] for c in libs.calls} == {"gesvdj", "gesvd"}
