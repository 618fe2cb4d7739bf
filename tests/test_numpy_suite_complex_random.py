"""Defects found by NumPy's own Generator tests (``random/tests/test_generator_mt19937.py`` and
its regressions module), each checked against NumPy's errors or by statistics (npgpu's streams
are its own, ``docs/random.md``): beta with tiny shapes (NaN, too many zeros); the small-alpha
Dirichlet (NaN for zero or tiny alphas); multinomial with N-d ``pvals``; zipf near 1 (a loop
that did not end); and NumPy's checks and messages of ``integers``, ``multinomial``,
``multivariate_normal``, ``multivariate_hypergeometric``, ``standard_gamma(out=)``,
``choice(p=)`` and ``Generator(cls)``."""
import numpy
import pytest

import npgpu as np
import npgpu.linalg
from conftest import raises_like

SEED = 8675309


def _gens(seed=SEED):
    return np.random.default_rng(seed), numpy.random.default_rng(seed)


def _within(count, n, p, sds=6.0):
    """``count`` of ``n`` Bernoulli(p) trials within ``sds`` standard deviations."""
    sd = (n * p * (1 - p)) ** 0.5
    assert abs(count - n * p) <= sds * sd + 1, (count, n * p, sd)


# --- beta: NumPy's tiny-shape shortcut and the log form of Johnk's underflow ----------------
def test_beta_ridiculously_small_parameters_are_zero_or_one():
    g, _ = _gens()
    tiny = numpy.finfo(1.0).tiny
    x = g.beta(tiny / 32, tiny / 40, size=300).get()
    assert x.dtype == numpy.float64 and x.shape == (300,)
    assert not numpy.isnan(x).any()
    assert numpy.isin(x, [0.0, 1.0]).all()
    # P(1) = a / (a + b)
    _within(int((x == 1).sum()), 300, 40 / 72)


def test_beta_small_shapes_zero_frequency():
    # NumPy's gh-24475: P(x == 0) = betainc at half the smallest subnormal, 0.0776...
    g, _ = _gens(121263137)
    n = 20000
    x = g.beta(0.0025, 0.0025, size=n).get()
    assert not numpy.isnan(x).any() and ((x >= 0) & (x <= 1)).all()
    _within(int((x == 0).sum()), n, 0.0776169083131899)
    # the values that round to 1.0: as often as in NumPy's draws
    ones = (numpy.random.default_rng(5).beta(0.0025, 0.0025, size=400000) == 1).mean()
    _within(int((x == 1).sum()), n, ones, sds=7.0)


@pytest.mark.parametrize("a, b", [(0.04, 0.03), (0.02, 0.07), (1e-4, 1e-4)])
def test_beta_small_shapes_mean(a, b):
    g, _ = _gens(7)
    n = 6000
    x = g.beta(a, b, size=n).get()
    assert not numpy.isnan(x).any()
    sd = (a * b / ((a + b) ** 2 * (a + b + 1)) / n) ** 0.5
    assert abs(x.mean() - a / (a + b)) < 6 * sd


# --- dirichlet: stick breaking for alpha.max() < 0.1, as NumPy ------------------------------
@pytest.mark.parametrize("alpha", [
    [5, 9, 0, 8], [0.5, 0, 0, 0], [1, 5, 0, 0, 1.5, 0, 0, 0], [0.01, 0.03, 0, 0.005],
    [1e-5, 0, 0, 0], [0.002, 0.015, 0, 0, 0.04, 0, 0, 0], [0.0], [0, 0, 0]])
@pytest.mark.parametrize("size", [None, 5, (2, 3)])
def test_dirichlet_zeros_in_alpha(alpha, size):
    g, h = _gens()
    alpha = numpy.array(alpha, dtype=float)
    want = h.dirichlet(alpha, size=size)
    y = g.dirichlet(alpha, size=size).get()
    assert y.shape == want.shape and y.dtype == want.dtype
    assert not numpy.isnan(y).any()
    assert (y[..., alpha == 0] == 0).all()
    assert (y >= 0).all()
    # the rows sum to 1, or are all 0 when every alpha is
    numpy.testing.assert_allclose(y.sum(axis=-1), want.sum(axis=-1), rtol=1e-12)


def test_dirichlet_tiny_alpha_gives_the_first_component():
    # NumPy's test_dirichlet_small_alpha: beta(1e-9, 1e-12) is 1 but for a chance of 1e-3
    g, _ = _gens(1234567890)
    y = g.dirichlet(1e-9 * numpy.array([1.0, 1.0e-3]), size=(3, 2)).get()
    assert y.shape == (3, 2, 2)
    numpy.testing.assert_array_equal(y, numpy.broadcast_to([1.0, 0.0], (3, 2, 2)))


def test_dirichlet_moderately_small_alpha_mean():
    g, _ = _gens()
    alpha = numpy.array([0.02, 0.04, 0.03])
    n = 8000
    y = g.dirichlet(np.asarray(alpha), size=n).get()
    m = alpha / alpha.sum()
    sd = (m * (1 - m) / (alpha.sum() + 1) / n) ** 0.5
    assert (abs(y.mean(axis=0) - m) < 6 * sd).all(), (y.mean(axis=0), m)
    numpy.testing.assert_allclose(y.sum(axis=-1), 1.0, rtol=1e-12)


# --- multinomial: N-d pvals broadcast with n -----------------------------------------------
@pytest.mark.parametrize("n", [10, numpy.array([10, 10]), numpy.array([[[10]], [[10]]])])
def test_multinomial_pval_broadcast_shapes(n):
    g, h = _gens()
    nd = n if isinstance(n, int) else np.asarray(n)
    pvals = numpy.full(4, 0.25)
    for p in (pvals, numpy.vstack([pvals, pvals]),
              numpy.vstack([[numpy.vstack([pvals, pvals])]] * 2)):
        want = h.multinomial(n, p)
        got = g.multinomial(nd, np.asarray(p))
        assert got.shape == want.shape and got.dtype == want.dtype
        numpy.testing.assert_array_equal(got.get().sum(axis=-1), want.sum(axis=-1))
        size = (3, 2) + want.shape[:-1]
        assert g.multinomial(nd, p, size=size).shape == h.multinomial(n, p, size=size).shape
        if p.ndim > 1 or not isinstance(n, int):
            raises_like(lambda: h.multinomial(n, p, size=(1,) * 6),
                        lambda: g.multinomial(nd, p, size=(1,) * 6))


def test_multinomial_rows_follow_their_pvals():
    g, _ = _gens()
    p = numpy.array([[0.2, 0.3, 0.5], [0.0, 1.0, 0.0], [0.7, 0.0, 0.3]])
    n = numpy.array([[400], [500]])
    got = g.multinomial(n, p, size=(30, 2, 3)).get()
    assert got.shape == (30, 2, 3, 3) and got.dtype == numpy.int64
    numpy.testing.assert_array_equal(got.sum(axis=-1), numpy.broadcast_to(n, (30, 2, 3)))
    # p = [0, 1, 0]: every draw the middle category
    numpy.testing.assert_array_equal(got[:, :, 1],
                                     numpy.broadcast_to(numpy.array([0, 1, 0]) * n, (30, 2, 3)))
    assert (got[:, :, 2, 1] == 0).all()
    mean = got.mean(axis=0)[:, 0] / n
    sd = (p[0] * (1 - p[0]) / n / 30) ** 0.5
    assert (abs(mean - p[0]) < 6 * sd).all()


def test_multinomial_empty_outputs():
    g, h = _gens()
    for n, p in [(numpy.empty((10, 0, 6), "i8"), [1 / 6] * 6), (12, numpy.empty((10, 0, 10))),
                 (numpy.empty((3, 0, 7), "i8"), numpy.empty((3, 0, 7, 4)))]:
        want = h.multinomial(n, p)
        got = g.multinomial(n, p)
        assert got.shape == want.shape and got.dtype == want.dtype


@pytest.mark.parametrize("n, pvals", [
    (1, numpy.array([9.9e-01, 9.9e-01] + [1.0e-09] * 8, dtype=numpy.float32)),
    (1, numpy.array([0.99951171875, 0.0005, 0.0], dtype=numpy.float16)),
    (1, numpy.array([0.5, 0.6, 0.1], dtype=numpy.float16)),
    (1, [0.5, 0.6, 0.1]), (1, [[0.5, 0.6, 0.1], [0.1, 0.2, 0.7]]),
    (1, [[1 / 6] * 6, [1 / 4] * 6]), (6, 0.5), (-1, [0.8, 0.2]), ([2, -1], [[0.8, 0.2]]),
    (5, [0.5, numpy.nan]), (5, [])])
def test_multinomial_errors(n, pvals):
    g, h = _gens()
    if isinstance(pvals, numpy.ndarray) and pvals.dtype == numpy.float32:
        pvals = pvals / pvals.sum()     # NumPy's test: sums to 1 in float32, not in float64
    raises_like(lambda: h.multinomial(n, pvals), lambda: g.multinomial(n, pvals))
    if isinstance(pvals, numpy.ndarray):
        raises_like(lambda: h.multinomial(n, pvals),
                    lambda: g.multinomial(n, np.asarray(pvals)))


# --- zipf near 1: U drawn from (Umin, 1], as NumPy ------------------------------------------
def test_zipf_a_near_one_ends():
    g, _ = _gens()
    x = g.zipf(1.0000000000001, size=500).get()
    assert x.dtype == numpy.int64 and (x >= 1).all()
    assert numpy.count_nonzero(x < 2 ** 62) > 250


def test_zipf_frequency_of_one():
    g, _ = _gens()
    n = 4000
    x = g.zipf(2.0, size=n).get()
    _within(int((x == 1).sum()), n, 6 / numpy.pi ** 2)        # 1 / zeta(2)


# --- NumPy's argument checks and messages -------------------------------------------------
@pytest.mark.parametrize("dtype", [">i4", ">i8", "<u2", ">u2", ">f8"])
def test_integers_non_native_byteorder(dtype):
    g, h = _gens()
    dt = numpy.dtype(dtype)
    if dt.isnative:
        dt = dt.newbyteorder()
    raises_like(lambda: h.integers(0, 200, size=10, dtype=dt),
                lambda: g.integers(0, 200, size=10, dtype=dt))
    raises_like(lambda: h.integers([0, 1], 200, dtype=dt),
                lambda: g.integers([0, 1], 200, dtype=dt))


def test_generator_of_a_bit_generator_class():
    raises_like(lambda: numpy.random.Generator(numpy.random.PCG64),
                lambda: np.random.Generator(np.random.Philox))


@pytest.mark.parametrize("mean, cov", [([0], [[1 + 1j]]), ([0j], [[1]]),
                                       (numpy.zeros(2, complex), numpy.eye(2))])
def test_multivariate_normal_disallows_complex(mean, cov):
    g, h = _gens()
    raises_like(lambda: h.multivariate_normal(mean, cov),
                lambda: g.multivariate_normal(mean, cov))
    raises_like(lambda: h.multivariate_normal(mean, cov),
                lambda: g.multivariate_normal(np.asarray(mean), np.asarray(cov)))
    raises_like(lambda: h.multivariate_normal(mean, cov, method="other"),
                lambda: g.multivariate_normal(mean, cov, method="other"))


@pytest.mark.parametrize("cov", [[[1, 2], [2, 1]], [[1, 1], [1, 1]]])
def test_multivariate_normal_cholesky_error_is_npgpus(cov):
    g, h = _gens()
    raises_like(lambda: h.multivariate_normal([0, 0], cov, method="cholesky"),
                lambda: g.multivariate_normal([0, 0], cov, method="cholesky"))
    with pytest.raises(npgpu.linalg.LinAlgError):
        g.multivariate_normal([0, 0], cov, method="cholesky")


def test_multivariate_hypergeometric_count_bound():
    g, h = _gens()
    big = numpy.iinfo(numpy.int64).max // 8
    for colors in ([big - 100, 101], [big, 1]):
        raises_like(lambda: h.multivariate_hypergeometric(colors, 5, 1, "count"),
                    lambda: g.multivariate_hypergeometric(colors, 5, 1, "count"))
    got = g.multivariate_hypergeometric([big - 101, 101], 5, 2, "count")
    assert got.shape == (2, 2) and (got.get().sum(axis=-1) == 5).all()


@pytest.mark.parametrize("dtype", ["f4", "f8"])
@pytest.mark.parametrize("where", ["host", "device"])
def test_standard_gamma_out_must_be_c_contiguous(dtype, where):
    g, h = _gens()
    xp = numpy if where == "host" else np
    out_f = xp.empty((2, 3), order="F", dtype=dtype)
    for size in (None, (2, 3)):
        raises_like(lambda: h.standard_gamma([1, 2, 3], size=size, dtype=dtype,
                                             out=numpy.empty((2, 3), order="F", dtype=dtype)),
                    lambda: g.standard_gamma([1, 2, 3], size=size, dtype=dtype, out=out_f))
    out_c = xp.empty((2, 3), dtype=dtype)
    res = g.standard_gamma([1, 2, 3], dtype=dtype, out=out_c)
    assert res is out_c
    vals = res if where == "host" else res.get()
    assert (vals > 0).all()
    # a Fortran out stays fine where NumPy takes one (no parameters)
    out = xp.empty((3, 4), order="F", dtype=dtype)
    assert g.standard_normal(dtype=dtype, out=out) is out


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize("where", ["host", "device"])
def test_choice_sum_of_probs_tolerance(dtype, where):
    # NumPy's tolerance is sqrt(eps) of p's own float type
    g, h = _gens()
    legacy_g, legacy_h = np.random.RandomState(3), numpy.random.RandomState(3)
    a = [1, 2, 3]
    probs = numpy.array([4, 4, 2], dtype=dtype) / dtype(10)
    p = probs if where == "host" else np.asarray(probs)
    for ours in (g, legacy_g):
        c = ours.choice(a, p=p)
        assert int(c.get() if hasattr(c, "get") else c) in a
        assert ours.choice(a, size=50, p=p).shape == (50,)
    bad = probs * dtype(0.9)
    p_bad = bad if where == "host" else np.asarray(bad)
    raises_like(lambda: h.choice(a, p=bad), lambda: g.choice(a, p=p_bad))
    raises_like(lambda: legacy_h.choice(a, p=bad), lambda: legacy_g.choice(a, p=p_bad))


@pytest.mark.parametrize("pvals", [[[0.5, 0.5], [0.2, 0.8]], numpy.array([[0.5, 0.5], [0.2, 0.8]]),
                                   numpy.array(0.5), 0.5, [[0.5, 0.5]], numpy.zeros((1, 2)),
                                   numpy.array([0.5, 0.6, 0.1], numpy.float32), [0.7, 0.6, 0.1]])
def test_legacy_multinomial_pvals_stay_one_dimensional(pvals):
    # RandomState keeps NumPy's legacy rules: no N-d pvals
    raises_like(lambda: numpy.random.RandomState(0).multinomial(3, pvals),
                lambda: np.random.RandomState(0).multinomial(3, pvals))


@pytest.mark.parametrize("size", [None, 2, (2, 3)])
def test_legacy_multinomial_empty_pvals(size):
    want = numpy.random.RandomState(0).multinomial(3, [], size=size)
    got = np.random.RandomState(0).multinomial(3, [], size=size)
    assert got.shape == want.shape and got.dtype == want.dtype
    raises_like(lambda: numpy.random.RandomState(0).multinomial(-1, [], size=size),
                lambda: np.random.RandomState(0).multinomial(-1, [], size=size))
