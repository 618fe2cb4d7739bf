"""npgpu.scipy.special's gamma family past libdevice (loggamma, digamma/psi, beta, betaln,
gammainc, gammaincc, zeta, polygamma) against scipy.special: random data in each domain,
special values, dtype rules, layouts, out= and fuse."""
import math

import numpy as np
import pytest

import npgpu
import npgpu.scipy.special as gs

sp = pytest.importorskip("scipy.special")

# float32 loops compute in float64 and round, as SciPy's: about one float32 ulp apart.
# float64: 1e-12 where the result is a sum of well-conditioned terms (digamma, zeta); 5e-12 for
# the functions through lgamma in log space (beta, gammainc, Riemann zeta of x < -0.5), whose
# log carries an absolute error of a few ulp of |log value| (values up to ~1e3 here), which
# exp turns into a relative error.  atol covers the negative zeros of digamma and the zeros of
# betaln, where the error is absolute (a few ulp of the terms summed).
# loggamma is libdevice's lgamma on the GPU, which differs from SciPy's as gammaln does in
# test_scipy_special.py (more in absolute terms near its zeros at 1 and 2).
TOL32 = dict(rtol=2e-6, atol=1e-30)
# digamma, gammainc and gammaincc compute their float32 loops in float32 (a few to ~100 ulp:
# log space, the negative zeros of digamma): test_scipy_special.py's float32 tolerance
TOL32_OWN = {"digamma": dict(rtol=2e-5, atol=2e-6), "gammainc": dict(rtol=2e-5, atol=2e-6),
             "gammaincc": dict(rtol=2e-5, atol=2e-6)}
ATOL64 = {"loggamma": 1e-13}
TOL64 = {"loggamma": 1e-11, "digamma": 1e-12, "zeta": 1e-12, "beta": 5e-12, "betaln": 5e-12,
         "gammainc": 5e-12, "gammaincc": 5e-12, "riemann_zeta": 5e-12, "polygamma": 1e-12}

rng = np.random.default_rng(2025)

UNARY = {
    "loggamma": lambda n: np.exp(rng.uniform(-6, 6, n)),
    "digamma": lambda n: np.concatenate([rng.uniform(-30, 80, n - 8),
                                         1.4616321449683622 + rng.uniform(-0.2, 0.2, 8)]),
    "riemann_zeta": lambda n: rng.uniform(-60, 60, n),
}
BINARY = {
    "beta": lambda n: (rng.uniform(-20, 150, n), rng.uniform(-20, 150, n)),
    "betaln": lambda n: (rng.uniform(0.01, 300, n), rng.uniform(0.01, 300, n)),
    "gammainc": lambda n: (np.exp(rng.uniform(-4, 6, n)), np.exp(rng.uniform(-5, 6.5, n))),
    "gammaincc": lambda n: (np.exp(rng.uniform(-4, 6, n)), np.exp(rng.uniform(-5, 6.5, n))),
    "zeta": lambda n: (rng.uniform(1.001, 60, n), np.exp(rng.uniform(-4, 6, n))),
}


def _ours(name):
    return (lambda x: gs.zeta(x)) if name == "riemann_zeta" else getattr(gs, name)


def _scipy(name):
    return (lambda x: sp.zeta(x)) if name == "riemann_zeta" else getattr(sp, name)


def check(name, got, want, dt=None):
    got = got.get() if isinstance(got, npgpu.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    tol = TOL32_OWN.get(name, TOL32) if (dt or want.dtype.type) is np.float32 else dict(
        rtol=TOL64[name], atol=ATOL64.get(name, 1e-14))
    np.testing.assert_allclose(got, want, equal_nan=True, err_msg=name, **tol)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_random(name, dt):
    x = UNARY[name](64).astype(dt)
    check(name, _ours(name)(npgpu.asarray(x)), _scipy(name)(x))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_random(name, dt):
    a, b = (v.astype(dt) for v in BINARY[name](64))
    check(name, getattr(gs, name)(npgpu.asarray(a), npgpu.asarray(b)), getattr(sp, name)(a, b))


UNARY_EDGES = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, -0.5, -2.5,
                        1e-30, -1e-30, 1e-10, 0.5, 1.4616321449683622, 30.0, 171.5, 1e30, -1e30,
                        1e300, -20.5, -200.5, -300.5, -1e15 - 0.5])


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_edges(name):
    """Poles (digamma at 0 and the negative integers, zeta(1)), loggamma's NaN for x < 0,
    infinities, tiny and huge arguments (zeta's trivial zeros, overflow past x = -300)."""
    with np.errstate(all="ignore"):
        want = _scipy(name)(UNARY_EDGES)
    got = _ours(name)(npgpu.asarray(UNARY_EDGES)).get()
    np.testing.assert_allclose(got, want, rtol=TOL64[name], atol=ATOL64.get(name, 0),
                               equal_nan=True, err_msg=name)
    np.testing.assert_array_equal(np.signbit(got[np.isinf(want)]),
                                  np.signbit(want[np.isinf(want)]))


EDGES2 = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, -1.0, -2.0, -3.0, -1.5, 0.5, 1.0, 2.5,
                   3.0, 1e-30, 50.0, 200.0, 1e7, 1e30])


@pytest.mark.parametrize("name", ["beta", "betaln", "gammainc", "gammaincc", "zeta"])
def test_binary_edges(name):
    """Every pair of special values: beta at the non-positive integers (SciPy's signed infinities
    and finite values such as beta(-1, 1) = -1), gammainc(0, 0) = NaN, a or x infinite, zeta's
    poles at x = 1 and the non-positive integer q."""
    a, b = np.meshgrid(EDGES2, EDGES2, indexing="ij")
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(a, b)
    got = getattr(gs, name)(npgpu.asarray(a), npgpu.asarray(b)).get()
    skip = np.zeros(a.shape, bool)
    if name == "zeta":
        # zeta(x, q > 1) is 0 for x = inf or 1e30 (SciPy 1.17: NaN, 0/0 in its loop)
        skip = (a >= 1e30) & (b > 1)
        np.testing.assert_array_equal(got[skip], 0.0)
    if name in ("beta", "betaln"):
        # SciPy 1.17 loses 5e-11 in log B(1e7, 50) and log B(1e7, 200) (3e-8 in B): against
        # the exact lgamma(b) - sum log(1e7 + k), k < b, instead
        skip = ((a == 1e7) & ((b == 50) | (b == 200))) | ((b == 1e7) & ((a == 50) | (a == 200)))
        small = np.minimum(a, b)[skip]
        exact = np.array([math.lgamma(m) - math.fsum(math.log(1e7 + k) for k in range(int(m)))
                          for m in small])
        # (exp turns the log's few ulp of 661 into ~2e-13)
        np.testing.assert_allclose(got[skip], exact if name == "betaln" else np.exp(exact),
                                   rtol=1e-12)
    np.testing.assert_allclose(got[~skip], want[~skip], rtol=TOL64[name], atol=0, equal_nan=True,
                               err_msg=name)
    inf = np.isinf(want) & ~skip
    np.testing.assert_array_equal(np.signbit(got[inf]), np.signbit(want[inf]))


def test_gammainc_large_and_small_a():
    """a > 1e6 near x = a (Temme's expansion, absolute error ~2e-14), a < 0.2 (Q without the
    cancellation of 1 - P), and x far from a for large a (series/continued fraction)."""
    a = np.array([1e6 + 1, 2e6, 1e7, 1e7, 1e8, 1e12, 1e30, 5e5, 2e6, 2e6, 1e8, 1e7,
                  1e-30, 1e-3, 0.1, 0.15, 1e-8])
    x = np.array([1e6, 2e6 + 1000, 1e7 - 3000, 1e7 + 3000, 1e8 + 1e5, 1e12 - 1e6, 1e30,
                  5e5 + 1000, 1.9e6, 2.2e6, 5e7, 1e8, 1e-30, 0.5, 1e-3, 1.1, 2.0])
    g = npgpu.asarray
    np.testing.assert_allclose(gs.gammainc(g(a), g(x)).get(), sp.gammainc(a, x), rtol=1e-12,
                               atol=1e-13)
    q, want = gs.gammaincc(g(a), g(x)).get(), sp.gammaincc(a, x)
    np.testing.assert_allclose(q, want, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(q[12:], want[12:], rtol=1e-12)      # small a: relative


def test_polygamma():
    n = rng.integers(0, 5, 40)
    x = rng.uniform(0.05, 30, 40)
    check("polygamma", gs.polygamma(npgpu.asarray(n), npgpu.asarray(x)), sp.polygamma(n, x))
    # broadcasting n over x, float32 x: SciPy's result is float64 (gamma(n + 1.0) is), but
    # its n = 0 row is digamma's float32 loop (npgpu's computes in float32: a few ulp from
    # SciPy's rounded float64), so float32 tolerance
    x32 = x[:6].astype(np.float32)
    got = gs.polygamma(npgpu.asarray(np.arange(3))[:, None], npgpu.asarray(x32)[None, :])
    check("polygamma", got, sp.polygamma(np.arange(3)[:, None], x32[None, :]), np.float32)


def test_psi_is_digamma_and_zeta_q():
    assert gs.psi is gs.digamma
    assert "zeta" in gs.__all__ and "polygamma" in gs.__all__ and "_zeta" not in gs.__all__
    # q=1 is Hurwitz (NaN for x < 1), q omitted is Riemann
    x = np.array([-3.5, 0.5, 2.0, 3.5])
    check("zeta", gs.zeta(npgpu.asarray(x), 1.0), sp.zeta(x, 1.0))
    check("riemann_zeta", gs.zeta(npgpu.asarray(x)), sp.zeta(x))


INT_CASES = [("loggamma", (np.int8,)), ("digamma", (np.int16,)), ("beta", (np.int8, np.int8)),
             ("betaln", (np.int32, np.float32)), ("gammainc", (np.uint8, np.float32)),
             ("gammaincc", (np.float32, np.int64)), ("zeta", (np.int8, np.float32)),
             ("zeta", (np.int16, np.int16))]


@pytest.mark.parametrize("name,dts", INT_CASES)
def test_integer_promotion(name, dts):
    """Integer inputs take SciPy's first loop they cast to safely (d->d first for all but
    _zeta, whose ff->f comes first), Python scalars are weak."""
    args = [rng.integers(1, 9, 12).astype(d) for d in dts]
    if name == "zeta":
        args[0] = args[0] + 1                  # x > 1
    check(name, getattr(gs, name)(*map(npgpu.asarray, args)), getattr(sp, name)(*args))
    x32 = rng.uniform(1.5, 4, 12).astype(np.float32)
    if len(dts) == 2:
        check(name, getattr(gs, name)(npgpu.asarray(x32), 2), getattr(sp, name)(x32, 2))
    else:
        check(name, getattr(gs, name)(3), getattr(sp, name)(3))


def test_layouts_broadcast_out():
    """One strided (negative-step, non-contiguous) case per function, broadcasting, out=."""
    a = rng.uniform(0.5, 20, (6, 8))
    b = rng.uniform(0.5, 20, (6, 8))
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    for name in ("loggamma", "digamma"):
        check(name, getattr(gs, name)(ga[::-2, 1::3]), getattr(sp, name)(a[::-2, 1::3]))
    check("riemann_zeta", gs.zeta(ga[::-2, 1::3]), sp.zeta(a[::-2, 1::3]))
    for name in ("beta", "betaln", "gammainc", "gammaincc"):
        # a negative-stride matrix against a negative-stride row (broadcast)
        check(name, getattr(gs, name)(ga[:, ::-1], gb[1, ::-1]),
              getattr(sp, name)(a[:, ::-1], b[1, ::-1]))
    check("zeta", gs.zeta(ga[:, ::-1] + 1.0, gb[::-1]), sp.zeta(a[:, ::-1] + 1.0, b[::-1]))
    # broadcasting (column against row) and 0-d
    col, row = a[:, :1], b[:1, :]
    check("gammainc", gs.gammainc(npgpu.asarray(col), npgpu.asarray(row)), sp.gammainc(col, row))
    check("beta", gs.beta(npgpu.asarray(np.float64(2.5)), 3.5), sp.beta(np.float64(2.5), 3.5))
    # out=
    o = npgpu.empty((6, 8))
    r = gs.digamma(ga, out=o)
    assert r is o
    check("digamma", o, sp.digamma(a))
    o2 = npgpu.empty((6, 8))
    assert gs.zeta(ga + 1.0, gb, out=o2) is o2
    check("zeta", o2, sp.zeta(a + 1.0, b))
    assert gs.zeta(ga + 1.0, out=o2) is o2
    check("riemann_zeta", o2, sp.zeta(a + 1.0))
    # empty
    assert gs.betaln(npgpu.empty(0), npgpu.empty(0)).shape == (0,)


def test_fuse():
    @npgpu.fuse
    def f(a, x):
        return gs.gammainc(a, x) * gs.digamma(x) + gs.zeta(x + 1.0, a)

    a, x = rng.uniform(0.5, 10, 40), rng.uniform(0.5, 10, 40)
    check("gammainc", f(npgpu.asarray(a), npgpu.asarray(x)),
          sp.gammainc(a, x) * sp.digamma(x) + sp.zeta(x + 1.0, a))


def test_complex_refused():
    z = npgpu.asarray(np.array([1 + 1j, 2.0]))
    # zeta has SciPy's complex loop (tests/test_special_complex_zeta.py); beta has none
    np.testing.assert_allclose(gs.zeta(z).get(), sp.zeta(z.get()), rtol=1e-12)
    with pytest.raises(TypeError):
        gs.beta(z, z)           # SciPy has none
