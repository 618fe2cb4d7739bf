"""SciPy's Array API support (``SCIPY_ARRAY_API=1``) on npgpu arrays, against NumPy arrays.

The variable must be set before SciPy is first imported, which this pytest process may already
have done: the cases run in one subprocess (this file run as a script) that prints, per case,
"ok" or the failure; each test checks one case.  A case compares every returned array (read
with ``npgpu.asnumpy``) with SciPy's result on NumPy arrays and checks that the arrays came
back as npgpu arrays.

Not here: what SciPy runs for an unknown namespace by converting to NumPy (``numpy.asarray``,
which npgpu refuses by design, docs/differences.md).  That is every scipy.special ufunc without
a generic implementation (erf, gammaln, ndtr, ...: SciPy dispatches natively only to CuPy,
PyTorch and JAX, or to ``xp.special``), the scipy.stats functions built on them (entropy,
chisquare, pearsonr, ttest_*, skewtest, normaltest, jarque_bera, kruskal, bartlett, ...),
the functions SciPy marks CPU-only (cluster.vq.vq, kmeans2, fft.dct/dst, signal, ndimage,
linalg beyond a few, integrate.simpson, stats.linregress, distributions).
"""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("scipy")


def _cases():
    """name -> (function of the data, args as NumPy arrays); run in the script."""
    import numpy
    import scipy.constants as sc
    import scipy.differentiate as sd
    import scipy.fft as sfft
    import scipy.integrate as si
    import scipy.interpolate as sint
    import scipy.linalg as sl
    import scipy.optimize as so
    import scipy.optimize.elementwise as soe
    import scipy.signal as ss
    import scipy.special as sps
    import scipy.stats as st
    from scipy.cluster import vq
    from scipy.spatial.transform import Rotation

    import npgpu
    import npgpu.scipy.special as gsp

    rng = numpy.random.default_rng(0)
    X = rng.standard_normal((30, 4))
    a = X[:, 0]
    pos = numpy.abs(X) + 0.1
    x1 = pos[:, 2]
    nan1 = numpy.where(x1 > 1.5, numpy.nan, x1)

    def on_device(u):
        return isinstance(u, npgpu.ndarray)

    C = {
        "special_logsumexp": (lambda u: [
            sps.logsumexp(u), sps.logsumexp(u, axis=0), sps.logsumexp(u, axis=1, b=u * 0 + 2.0),
            *sps.logsumexp(u, axis=0, return_sign=True), sps.logsumexp(u[:, 0] + 0j)], (X,)),
        "special_softmax": (lambda u: [sps.softmax(u, axis=1), sps.log_softmax(u, axis=0)],
                            (X,)),
        "special_generic_ufuncs": (lambda u, v: [sps.rel_entr(u, v), sps.xlogy(u, v)],
                                   (pos[:, 0], pos[:, 1])),
        "stats_describe_moments": (lambda u: [
            *list(st.describe(u))[1:], st.moment(u, order=3), st.moment(u, order=[1, 2]),
            st.skew(u), st.kurtosis(u), st.skew(u, bias=False),
            st.kurtosis(u, fisher=False, bias=False)], (X,)),
        "stats_zscore_sem_variation": (lambda u: [
            st.zscore(u), st.zmap(u[:5], u), st.sem(u), st.variation(u),
            st.variation(u, ddof=1)], (X,)),
        "stats_means": (lambda u: [
            st.gmean(u), st.hmean(u), st.pmean(u, 2.5), st.pmean(u, -1.5, weights=u),
            st.tmean(u), st.tmean(u, (0.5, 1.5)), st.tvar(u), st.tstd(u), st.tmin(u),
            st.tmax(u), st.tsem(u), st.gstd(u), st.gzscore(u), st.trim_mean(u, 0.1)], (x1,)),
        "stats_means_axes": (lambda u: [st.gmean(u, axis=0), st.hmean(u, axis=1),
                                        st.gmean(u[:, 0], weights=u[:, 1]),
                                        st.trim_mean(u, 0.2, axis=0)], (pos,)),
        "stats_kstat_entropy_mad": (lambda u: [
            st.kstat(u, 2), st.kstat(u, 4), st.kstatvar(u), st.differential_entropy(u),
            st.median_abs_deviation(u), st.iqr(u)], (a,)),
        "stats_quantile_mode_rank": (lambda u: [
            st.quantile(u[:, 0], 0.3), *st.mode(u, axis=0), st.rankdata(u[:, 0]),
            st.rankdata(u, axis=0), st.rankdata(u, method="dense", axis=1)],
            (numpy.round(X),)),
        "stats_sigmaclip_fdc": (lambda u, p: [*st.sigmaclip(u, 1.5, 1.5),
                                              st.false_discovery_control(p)],
                                (a, pos[:, 0] / pos[:, 0].sum())),
        "stats_nan_policy": (lambda u: [st.skew(u, nan_policy="omit"),
                                        st.zscore(u, nan_policy="omit"),
                                        st.variation(u, nan_policy="omit")], (nan1,)),
        "stats_circular": (lambda u: [st.circmean(u), st.circvar(u), st.circstd(u),
                                      st.boxcox_llf(0.5, numpy.abs(u) + 0.1 if not on_device(u)
                                                    else npgpu.abs(u) + 0.1),
                                      st.directional_stats(u[:, None] + u[:3] * 0
                                                           ).mean_direction], (a,)),
        "cluster_vq_whiten": (vq.whiten, (X,)),
        "fft": (lambda u: [
            sfft.fft(u, axis=0), sfft.ifft(u), sfft.rfft(u, axis=0), sfft.irfft(u),
            sfft.fftn(u), sfft.fft2(u), sfft.ifftn(u, norm="ortho"), sfft.rfftn(u),
            sfft.hfft(u), sfft.ihfft(u), sfft.fftshift(u), sfft.ifftshift(u, axes=0),
            sfft.fft(u, n=40, axis=0), sfft.fht(numpy.abs(u[:, 0]) if not on_device(u)
                                                else npgpu.abs(u[:, 0]), 0.1, 0.5)], (X,)),
        "fft_freqs": (lambda u: ([sfft.fftfreq(8, 0.1, xp=npgpu), sfft.rfftfreq(8, xp=npgpu)]
                                 if on_device(u) else [sfft.fftfreq(8, 0.1), sfft.rfftfreq(8)]),
                      (a,)),
        "integrate": (lambda u: [
            si.trapezoid(u), si.trapezoid(u, dx=0.5), si.cumulative_trapezoid(u, initial=0),
            si.cumulative_simpson(u), si.romb(u[:17]),
            si.tanhsinh(lambda t: t ** 2, u[:3] * 0, u[:3]).integral,
            si.cubature(lambda t: t ** 2, u[:1] * 0, u[:1]).estimate], (x1,)),
        "differentiate_optimize": (lambda u: [
            sd.derivative(lambda t: t ** 3, u).df,
            soe.find_root(lambda t, c: t ** 2 - c, (u * 0, u * 0 + 3), args=(u,)).x,
            soe.find_minimum(lambda t, c: (t - c) ** 2, (u * 0 - 1, u * 0 + 0.5, u * 0 + 4),
                             args=(u,)).x,
            so.rosen(u), so.rosen_der(u), so.rosen_hess(u)], (x1[:5],)),
        "linalg_generic": (lambda u: [sl.block_diag(u[:2, :2], u[2:5, :3]), sl.fiedler(u[:4, 0]),
                                      sl.orthogonal_procrustes(u[:6, :3], u[6:12, :3])[0]],
                           (X,)),
        "misc_generic": (lambda u: [
            sc.convert_temperature(u[:, 0], "C", "K"), Rotation.from_quat(u).as_matrix(),
            sint.RBFInterpolator(u[:15, :2], u[:15, 2])(u[15:20, :2]),
            ss.gauss_spline(u[:, 0], 3)], (X,)),
        # npgpu's own scipy.special under SCIPY_ARRAY_API=1 (SciPy's names are then Python
        # wrappers around its ufuncs, which npgpu reads for loops and errors)
        "npgpu_scipy_special": (lambda u, v: [
            f(u) for f in ((gsp.erf, gsp.gammaln, gsp.ndtr, gsp.expit, gsp.i0e, gsp.digamma)
                           if on_device(u) else (sps.erf, sps.gammaln, sps.ndtr, sps.expit,
                                                 sps.i0e, sps.digamma))]
            + [(gsp if on_device(u) else sps).xlogy(u, v),
               (gsp if on_device(u) else sps).betaln(u, v),
               (gsp if on_device(u) else sps).gammainc(u, v)], (pos[:, 0], pos[:, 1])),
    }
    return C


def _run_cases():
    """The script's body: every case on NumPy and on npgpu arrays; prints a JSON dict."""
    import warnings

    import numpy
    import scipy
    from scipy._lib import _array_api
    warnings.filterwarnings("ignore")
    import npgpu
    # scipy.differentiate, optimize.elementwise and integrate.cubature are SciPy 1.15's
    if (not getattr(_array_api, "SCIPY_ARRAY_API", False)
            or numpy.lib.NumpyVersion(scipy.__version__) < "1.15.0"):
        print("RESULTS " + json.dumps({"unsupported": True}))
        return

    def leaves(o):
        if isinstance(o, (tuple, list)):
            return [x for i in o for x in leaves(i)]
        return [o]

    res = {}
    for name, (f, args) in _cases().items():
        try:
            want = leaves(f(*args))
            got = leaves(f(*[npgpu.asarray(x) for x in args]))
            assert len(got) == len(want), (len(got), len(want))
            for g, w in zip(got, want):
                if isinstance(w, numpy.ndarray):
                    assert isinstance(g, npgpu.ndarray), f"{type(g).__name__} returned"
                g = npgpu.asnumpy(g) if isinstance(g, npgpu.ndarray) else numpy.asarray(g)
                w = numpy.asarray(w)
                assert g.shape == w.shape, (g.shape, w.shape)
                # libdevice's transcendental functions differ from NumPy's in the last bits
                numpy.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-9)
            res[name] = "ok"
        except Exception as e:      # reported per case by the test
            res[name] = f"{type(e).__name__}: {e}"[:2000]
    print("RESULTS " + json.dumps(res))


@pytest.fixture(scope="module")
def results():
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    r = subprocess.run([sys.executable, __file__], env=env, capture_output=True, text=True,
                       timeout=600)
    line = [s for s in r.stdout.splitlines() if s.startswith("RESULTS ")]
    assert r.returncode == 0 and line, r.stdout[-3000:] + r.stderr[-3000:]
    res = json.loads(line[-1][len("RESULTS "):])
    if res.get("unsupported"):
        pytest.skip("needs SciPy >= 1.15 with SCIPY_ARRAY_API support")
    return res


CASES = ["special_logsumexp", "special_softmax", "special_generic_ufuncs",
         "stats_describe_moments", "stats_zscore_sem_variation", "stats_means",
         "stats_means_axes", "stats_kstat_entropy_mad", "stats_quantile_mode_rank",
         "stats_sigmaclip_fdc", "stats_nan_policy", "stats_circular", "cluster_vq_whiten", "fft",
         "fft_freqs", "integrate", "differentiate_optimize", "linalg_generic", "misc_generic",
         "npgpu_scipy_special"]


def test_cases_listed(results):
    assert sorted(results) == sorted(CASES)


@pytest.mark.parametrize("case", CASES)
def test_scipy_matches_numpy(results, case):
    assert results[case] == "ok", results[case]


if __name__ == "__main__":
    _run_cases()
