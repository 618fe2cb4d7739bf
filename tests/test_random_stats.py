"""npgpu.random's distributions against NumPy's own draws: two-sample Kolmogorov-Smirnov
(continuous) or chi-square (discrete) tests and a two-sample test of the mean.

Fixed seeds, so each case is deterministic; the threshold (p > 1e-6, mean within 5.5 standard
errors) is one a correct sampler fails in fewer than 1e-6 of seeds.  The simulator draws a few
hundred samples; the GPU suite 2**20 (NumPy's side: 2**20 too).
"""
import numpy as np
import pytest
from scipy import stats

import npgpu.random as R
from conftest import ON_GPU

P_MIN = 1e-6
N = 1 << 20 if ON_GPU else 600

CONTINUOUS = [
    ("random", ()), ("uniform", (-2.0, 3.0)), ("standard_normal", ()), ("normal", (1.0, 2.0)),
    ("lognormal", (0.0, 0.5)), ("standard_exponential", ()), ("exponential", (2.0,)),
    ("laplace", (1.0, 2.0)), ("logistic", (1.0, 2.0)), ("gumbel", (1.0, 2.0)),
    ("weibull", (1.5,)), ("pareto", (3.0,)), ("power", (2.0,)), ("rayleigh", (2.0,)),
    ("standard_cauchy", ()), ("triangular", (0.0, 1.0, 3.0)), ("gamma", (2.0, 3.0)),
    ("standard_gamma", (0.5,)), ("standard_gamma", (7.5,)), ("beta", (2.0, 3.0)),
    ("beta", (0.5, 0.5)), ("chisquare", (3.0,)), ("noncentral_chisquare", (3.0, 2.0)),
    ("noncentral_chisquare", (0.5, 2.0)), ("f", (3.0, 5.0)), ("noncentral_f", (3.0, 5.0, 1.0)),
    ("standard_t", (4.0,)), ("wald", (1.0, 2.0)), ("vonmises", (0.5, 2.0)),
    ("vonmises", (0.0, 0.2)),
]
DISCRETE = [
    ("geometric", (0.3,)), ("poisson", (3.0,)), ("poisson", (40.0,)), ("binomial", (10, 0.3)),
    ("binomial", (1000, 0.6)), ("negative_binomial", (3.0, 0.4)),
    ("hypergeometric", (10, 20, 7)), ("zipf", (2.5,)), ("logseries", (0.6,)),
    ("integers", (0, 7)),
]
FINITE_VARIANCE = {"standard_cauchy", "pareto", "zipf", "f", "noncentral_f"}


def _draws(name, args, seed):
    ours = getattr(R.default_rng(seed), name)(*args, size=N).get()
    theirs = getattr(np.random.default_rng(seed + 1000), name)(*args, size=N)
    return ours, theirs


def _mean_ok(a, b):
    se = np.sqrt(a.var() / a.size + b.var() / b.size)
    return abs(a.mean() - b.mean()) <= 5.5 * se + 1e-12


@pytest.mark.parametrize("name,args", CONTINUOUS)
def test_continuous_against_numpy(name, args):
    ours, theirs = _draws(name, args, 7)
    assert ours.dtype == theirs.dtype and np.isfinite(ours).all()
    assert stats.ks_2samp(ours, theirs).pvalue > P_MIN
    if name not in FINITE_VARIANCE:
        assert _mean_ok(ours, theirs)


@pytest.mark.parametrize("name,args", DISCRETE)
def test_discrete_against_numpy(name, args):
    ours, theirs = _draws(name, args, 11)
    assert ours.dtype == theirs.dtype
    # categories: the values, the rare tail pooled so every expected count is >= 5
    both = np.concatenate([ours, theirs])
    values, counts = np.unique(both, return_counts=True)
    keep = values[counts >= 10]
    edges = np.concatenate([keep, [keep[-1] + 1]]) if keep.size else np.array([0, 1])
    table = np.array([np.histogram(np.clip(x, edges[0], edges[-1] - 1), edges)[0]
                      for x in (ours, theirs)])
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] > 1:
        assert stats.chi2_contingency(table).pvalue > P_MIN
    if name not in FINITE_VARIANCE:
        assert _mean_ok(ours.astype(float), theirs.astype(float))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float32_variants(dtype):
    g = R.default_rng(3)
    for name in ("random", "standard_normal", "standard_exponential"):
        ours = getattr(g, name)(size=N, dtype=dtype).get()
        theirs = getattr(np.random.default_rng(4), name)(size=N, dtype=dtype)
        assert stats.ks_2samp(ours, theirs).pvalue > P_MIN


def test_permutation_positions_uniform():
    """Where element 0 lands, and which element lands first: uniform over positions."""
    g = R.default_rng(21)
    n, reps = 5, (2000 if ON_GPU else 150)
    pos = np.array([np.argmin(g.permutation(n).get()) for _ in range(reps)])
    counts = np.bincount(pos, minlength=n)
    assert stats.chisquare(counts).pvalue > P_MIN


@pytest.mark.skipif(not ON_GPU, reason="large permutations (the Feistel route) on the GPU")
def test_feistel_permutation_positions_uniform():
    g = R.default_rng(22)
    n = 1 << 16
    p = np.stack([g.permutation(n).get()[:64] for _ in range(64)])
    assert stats.chisquare(np.bincount(p.ravel() * 16 // n, minlength=16)).pvalue > P_MIN
    q = g.permutation(n).get()
    assert sorted(q.tolist()) == list(range(n))


@pytest.mark.parametrize("method", ["marginals", "count"])
def test_multivariate_hypergeometric_against_numpy(method):
    """Each color's count: chi-square of the two samples' histograms, and their means."""
    colors, nsample = [6, 10, 3, 11], 9
    n = N if ON_GPU else 200
    ours = R.default_rng(31).multivariate_hypergeometric(colors, nsample, size=n,
                                                          method=method).get()
    theirs = np.random.default_rng(1031).multivariate_hypergeometric(colors, nsample, size=n,
                                                                      method=method)
    for j in range(len(colors)):
        a, b = ours[:, j], theirs[:, j]
        assert _mean_ok(a.astype(float), b.astype(float))
        ca, cb = np.bincount(a, minlength=11), np.bincount(b, minlength=11)
        keep = (ca + cb) > 0
        assert stats.chi2_contingency(np.stack([ca[keep], cb[keep]]))[1] > P_MIN
