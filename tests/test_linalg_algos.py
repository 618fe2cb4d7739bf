"""The selectable cuSOLVER routes (NPGPU_CHOLESKY_ALGO, NPGPU_SVD_ALGO), on both backends.

The library modules are wrapped by a recorder (test_linalg_libs.Recorder: nvmath's bindings
on the GPU, the host stand-ins of npgpu.linalg._sim on the simulator), so each route's
calls, triangles, dtypes and layouts are checked along with the results; the routes'
numerics at scale are the GPU suite's and the linalg_routes experiment's business."""
import numpy as np
import pytest

import npgpu as gp
from npgpu.linalg import decomp
from npgpu.linalg import _solver

import test_linalg_decomp as base
from test_linalg_decomp import FLOATS, hpd, rand, tol
from test_linalg_libs import record_libs

PRE = {"f": "s", "d": "d", "F": "c", "D": "z"}
_TYPED = {v: np.dtype(k) for k, v in PRE.items()}


def _calls(rec):
    """The computing calls: (name, args)."""
    keep = set(rec.names())
    return [(n, a) for n, a in rec.calls if n in keep]


def _svd_dtype(name, args):
    """The dtype an SVD call computed in (typed name prefix, or the data type argument)."""
    from npgpu.linalg._sim import dtype_of
    return _TYPED[name[0]] if name.endswith("gesvdj") else dtype_of(args[6])


@pytest.fixture
def libs(monkeypatch):
    from npgpu.linalg import products
    for var in ("NPGPU_CHOLESKY_ALGO", "NPGPU_SVD_ALGO", "NPGPU_SVDJ_TOL", "NPGPU_SVDJ_SWEEPS"):
        monkeypatch.delenv(var, raising=False)
    yield record_libs(monkeypatch)
    products.clear_plans()


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("algo", _solver.CHOLESKY_ALGOS)
def test_cholesky_algos(libs, monkeypatch, dt, algo):
    monkeypatch.setattr(_solver, "BLOCKED_MIN_N", 8)
    monkeypatch.setattr(_solver, "BLOCK", 5)
    monkeypatch.setenv("NPGPU_CHOLESKY_ALGO", algo)
    a = hpd((2, 13, 13), dt)
    lower, upper_ = int(libs.FillMode.LOWER), int(libs.FillMode.UPPER)
    for upper in (False, True):
        libs.calls.clear()
        got = gp.linalg.cholesky(gp.asarray(a), upper=upper).get()
        np.testing.assert_allclose(got, np.linalg.cholesky(a, upper=upper), **tol(dt))
        calls = _calls(libs)
        name, args = calls[0]
        # (name, uplo, order): Xpotrf's args are (h, params, uplo, n, ..), <t>potrf's (h, uplo, n, ..)
        first = (name, args[2], args[3]) if name == "xpotrf" else (name, args[1], args[2])
        want = {"blocked": ("xpotrf", lower, 5), "xpotrf_lower": ("xpotrf", lower, 13),
                "xpotrf_upper": ("xpotrf", upper_, 13),
                "dpotrf": (PRE[np.dtype(dt).char] + "potrf", lower, 13)}[algo]
        assert first == want
        assert len(calls) == (14 if algo == "blocked" else 2)
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


def _name(algo, char):
    """The library entry point of an SVD route computing in dtype ``char``."""
    return {"gesvd": "xgesvd", "gesvdp": "xgesvdp", "gesvdj": PRE[char] + "gesvdj"}[algo]


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
        want = WIDE[dt.char] if algo.endswith("64") else dt.char
        for full in (True, False):
            libs.calls.clear()
            u, s, vh = (x.get() for x in gp.linalg.svd(gp.asarray(a), full_matrices=full))
            _check_svd(a, u, s, vh, full, dt)
            base_algo = algo.rstrip("64")
            if base_algo == "gesvdp" and full and not square:
                base_algo = "gesvd"                  # full U/V^H of a non-square matrix
            calls = _calls(libs)
            assert {n for n, _ in calls} == {_name(base_algo, want)}, (calls, algo, shape, full)
            if base_algo == "gesvdp":
                assert all(args[2] == 1 for _, args in calls)    # VECTOR
            # the 64 routes compute float32/complex64 in float64/complex128
            assert {_svd_dtype(n, args).char for n, args in calls} == {want}
        libs.calls.clear()
        sv = gp.linalg.svdvals(gp.asarray(a)).get()
        assert sv.dtype == np.linalg.svd(a)[1].dtype
        np.testing.assert_allclose(sv, np.linalg.svd(a)[1], **tol(dt))
        calls = _calls(libs)
        assert {n for n, _ in calls} == {_name(algo.rstrip("64"), want)}
        if algo == "gesvdp":
            assert all(args[2] == 0 for _, args in calls)        # NOVECTOR


def test_gesvdj_knobs(libs, monkeypatch):
    monkeypatch.setenv("NPGPU_SVD_ALGO", "gesvdj")
    a = gp.asarray(rand((5, 4)))

    def knobs():
        return [(n[len("xgesvdj_set_"):], args[1]) for n, args in libs.calls
                if n.startswith("xgesvdj_set_")]

    gp.linalg.svd(a)
    assert knobs() == []                                # unset: cuSOLVER's defaults
    monkeypatch.setenv("NPGPU_SVDJ_TOL", "1e-7")
    monkeypatch.setenv("NPGPU_SVDJ_SWEEPS", "100")
    gp.linalg.svd(a)
    assert knobs() == [("tolerance", 1e-7), ("max_sweeps", 100)]
    gp.linalg.svd(a)                                    # the same settings: params reused
    assert len(knobs()) == 2
    monkeypatch.setenv("NPGPU_SVDJ_TOL", "0")
    monkeypatch.delenv("NPGPU_SVDJ_SWEEPS")
    gp.linalg.svd(a)
    assert knobs()[2:] == [("tolerance", 0.0)]


@pytest.mark.skipif(not base.SIM, reason="injects a non-converged info flag in host memory "
                                          "(simulator memory)")
def test_gesvdj_nonconverged_falls_back(libs, monkeypatch):
    from npgpu.linalg import _handles
    monkeypatch.setenv("NPGPU_SVD_ALGO", "gesvdj")
    fault = base.NonConverging(_handles.cusolver_module())
    fault.on = True
    monkeypatch.setattr(_handles, "cusolver_module", lambda: fault)
    a = rand((6, 4), np.complex64)
    for full in (True, False):
        libs.calls.clear()
        u, s, vh = (x.get() for x in gp.linalg.svd(gp.asarray(a), full_matrices=full))
        _check_svd(a, u, s, vh, full, np.complex64)
        assert set(libs.names()) == {"cgesvdj", "xgesvd"}
    libs.calls.clear()
    np.testing.assert_allclose(gp.linalg.svdvals(gp.asarray(a)).get(), np.linalg.svd(a)[1],
                               **tol(np.complex64))
    assert set(libs.names()) == {"cgesvdj", "xgesvd"}
