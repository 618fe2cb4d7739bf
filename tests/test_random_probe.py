"""Regression tests from a probe of npgpu.random against NumPy 2: argument handling (error
classes and messages, shapes, dtypes, 0-d results) and reproducibility.  Values are npgpu's
own streams (``docs/random.md``), so only their shapes, dtypes and equalities are compared."""
import pickle
import warnings

import numpy as np
import pytest

import npgpu
import npgpu.random as R
from conftest import raises_like

NAN = float("nan")


def _gen(lib):
    return np.random.default_rng(1) if lib is np else R.default_rng(1)


def _rs(lib):
    return np.random.RandomState(1) if lib is np else R.RandomState(1)


def same_error(call):
    """``call(lib)`` raises NumPy's class and message for npgpu too (warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raises_like(lambda: call(np), lambda: call(npgpu))


def _host(x):
    return x.get() if isinstance(x, npgpu.ndarray) else np.asarray(x)


# --- scalar parameters converted as NumPy's scalar path converts them --------------------------
@pytest.mark.parametrize("call", [
    # CONS_NON_NEGATIVE is the sign bit: -0.0 is refused (NaN passes)
    lambda L: _gen(L).normal(0.0, -0.0), lambda L: _gen(L).exponential(-0.0, size=2),
    lambda L: _rs(L).gamma(1.0, -0.0), lambda L: _gen(L).vonmises(0.0, -0.0),
    lambda L: _gen(L).normal(0.0, np.array([1.0, -0.0])),
    lambda L: _gen(L).normal(0.0, L.asarray(np.array([1.0, -0.0]))),
    # integer parameters: a C int64 of the scalar
    lambda L: _gen(L).binomial(NAN, 0.5), lambda L: _gen(L).binomial(np.inf, 0.5),
    lambda L: _gen(L).binomial(2 ** 63, 0.5), lambda L: _gen(L).binomial(2 ** 64, 0.5),
    lambda L: _gen(L).binomial(-2 ** 63 - 1, 0.5), lambda L: _gen(L).binomial(None, 0.5),
    lambda L: _gen(L).binomial("a", 0.5), lambda L: _gen(L).binomial("5", 0.5),
    lambda L: _gen(L).hypergeometric(NAN, 5, 2), lambda L: _gen(L).hypergeometric(5, np.inf, 2),
    lambda L: _gen(L).hypergeometric(5, 2 ** 63, 1), lambda L: _rs(L).binomial(NAN, 0.5),
    lambda L: _gen(L).binomial(np.uint64(2 ** 63), 0.5),
    # float parameters: PyFloat_AsDouble of the scalar
    lambda L: _gen(L).uniform("a", 1.0), lambda L: _gen(L).uniform(None, 1.0),
    lambda L: _gen(L).normal("5"), lambda L: _gen(L).normal(2 ** 1100),
    lambda L: _gen(L).uniform(np.array([0, 1], object), 2.0)])
def test_scalar_parameter_conversion_errors(call):
    same_error(call)


def test_scalar_parameters_numpy_accepts():
    g = R.default_rng(1)
    for got in (g.normal(2 ** 64, 1.0), g.binomial(np.float64(10.5), 0.3),
                g.binomial(True, 0.5), g.normal(0.0, 0.0), g.exponential(NAN)):
        assert isinstance(got, npgpu.ndarray) and got.shape == ()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # NumPy's ComplexWarning
        assert g.normal(np.complex128(1.0)).shape == ()
        assert g.binomial(np.complex128(4.0), 0.5).dtype == np.int64
    assert np.isnan(g.normal(NAN, 1.0).get())


# --- sizes and broadcasting ---------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda L: _gen(L).integers([0, 1], 5, size=3),
    lambda L: _gen(L).integers(0, [[5], [6]], size=(3, 2)),
    lambda L: _gen(L).integers(5, size=(3.0,)), lambda L: _gen(L).random((2, 2.5)),
    lambda L: _gen(L).normal(0.0, 1.0, size=[2, None])])
def test_size_errors(call):
    same_error(call)


@pytest.mark.parametrize("size", [(), [], 3, np.int64(3), [2, 3], np.array([2, 3]),
                                  (np.int64(2), np.int32(3)), (2, 0)])
def test_size_forms(size):
    want = np.random.default_rng(1).uniform(0.0, 1.0, size=size)
    got = R.default_rng(1).uniform(0.0, 1.0, size=size)
    assert got.shape == np.shape(want) and got.dtype == want.dtype
    got = R.default_rng(1).integers(0, 5, size=size)
    assert got.shape == np.shape(want) and got.dtype == np.int64


def test_size_none_is_0d_device_array_everywhere():
    """docs/random.md: ``size=None`` with scalar parameters gives a 0-d device array."""
    g, rs = R.default_rng(1), R.RandomState(1)
    for got, dt in ((g.integers(5), np.int64), (g.random(), np.float64),
                    (g.standard_normal(dtype=np.float32), np.float32), (g.choice(5), np.int64),
                    (g.choice([1, 2, 3]), np.int64), (g.poisson(), np.int64),
                    (rs.rand(), np.float64), (rs.randint(2, dtype=bool), np.bool_),
                    (R.randn(), np.float64), (R.choice(4), np.int64)):
        assert isinstance(got, npgpu.ndarray) and got.shape == () and got.dtype == dt


# --- axes and out= of the permutations and choice ------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda L: _gen(L).choice(np.arange(6).reshape(2, 3), 2, axis=2),
    lambda L: _gen(L).choice(np.arange(6).reshape(2, 3), 2, axis=-3),
    lambda L: _gen(L).choice(np.arange(6).reshape(2, 3), 2, axis=None),
    lambda L: _gen(L).permutation(np.arange(6).reshape(2, 3), axis=1.0),
    lambda L: _gen(L).permutation(np.arange(6).reshape(2, 3), axis="a"),
    lambda L: _gen(L).permuted(np.arange(6).reshape(2, 3), axis=1.0),
    lambda L: _gen(L).shuffle(np.arange(6).reshape(2, 3), axis=None),
    lambda L: _gen(L).shuffle(L.asarray(np.arange(6).reshape(2, 3)), axis=1.0),
    lambda L: _gen(L).permuted(np.arange(6), out=[0] * 6),
    lambda L: _gen(L).permuted(np.arange(6), out=L.zeros(5))])
def test_axis_and_out_errors(call):
    same_error(call)


# --- bit generators, seeds and state --------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda L: L.random.BitGenerator(1),
    lambda L: L.random.Philox(1).advance(1.5), lambda L: L.random.Philox(1).advance("a"),
    lambda L: L.random.Philox(1).jumped(1.5),
    lambda L: L.random.Generator(L.random.Philox(key=5)).spawn(1),
    lambda L: L.random.Philox(key=5).spawn(2),
    lambda L: L.random.set_state(None), lambda L: L.random.set_state(5),
    lambda L: L.random.set_state({}), lambda L: L.random.set_state(("PCG64",)),
    lambda L: _rs(L).set_state({"bit_generator": "PCG64"})])
def test_bit_generator_and_state_errors(call):
    same_error(call)


def test_philox_key_has_no_seed_sequence_and_counts_wrap():
    assert R.Philox(key=5).seed_seq is None
    p = R.Philox(1)
    assert p.jumped(np.int64(2)).state["state"]["counter"][3] == 2
    p.advance(-1)
    assert (p.state["state"]["counter"] == 2 ** 32 - 1).all()
    assert p.advance(True).state["state"]["counter"].sum() == 0


def test_mt19937_tuple_state_refused():
    with pytest.raises(ValueError, match="Philox4x32"):
        R.set_state(("MT19937", np.zeros(624, np.uint32), 0))


def test_reproducibility_and_spawn_independence():
    def h(g):
        return g.random(4).get().tolist()
    assert h(R.default_rng(5)) == h(R.default_rng(5)) == h(R.default_rng(R.SeedSequence(5)))
    assert h(R.default_rng(5)) != h(R.default_rng(6))
    g = R.default_rng(5)
    kids = g.spawn(2) + g.spawn(1)                   # a second spawn gives new children
    draws = [h(k) for k in kids] + [h(R.default_rng(5))]
    assert len({tuple(d) for d in draws}) == 4
    assert h(R.default_rng(5).spawn(2)[1]) == draws[1]
    g = R.default_rng(9)
    g.random(3)
    assert h(pickle.loads(pickle.dumps(g))) == h(g.__class__(g.bit_generator.jumped(0)))
    R.seed(3)
    a = R.rand(4).get().tolist()
    st = R.get_state()
    b = R.rand(4).get().tolist()
    R.set_state(st)
    assert R.rand(4).get().tolist() == b
    R.seed(3)
    assert R.rand(4).get().tolist() == a == R.RandomState(3).rand(4).get().tolist()


def test_dirichlet_negative_zero_alpha_is_zero():
    """NumPy's dirichlet checks ``alpha < 0`` only; its gammas take -0.0 as 0."""
    want = np.random.default_rng(1).dirichlet([1.0, -0.0], size=2)
    got = R.default_rng(1).dirichlet([1.0, -0.0], size=2)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)          # [1, 0] in every row


@pytest.mark.parametrize("a", [1025.0, 2000.0, np.inf, "device"])
def test_zipf_of_huge_a_is_one(a):
    # NumPy returns 1 from a = 1025 on (2^(a - 1) overflows: the rejection loop never ended,
    # a hang on the GPU)
    value = npgpu.asarray(np.array([1025.5, np.inf, 3e4])) if a == "device" else a
    got = R.default_rng(2).zipf(value, size=3).get()
    np.testing.assert_array_equal(got, np.random.default_rng(2).zipf(
        np.array([1025.5, np.inf, 3e4]) if a == "device" else a, size=3))


@pytest.mark.parametrize("n,p", [(1e20, 0.5), (10.0, 1e-18), ("device", 0.5)])
def test_negative_binomial_poisson_limit(n, p):
    host = np.array([5.0, 1e20]) if n == "device" else n
    dev = npgpu.asarray(host) if n == "device" else n
    raises_like(lambda: np.random.default_rng(0).negative_binomial(host, p),
                lambda: R.default_rng(0).negative_binomial(dev, p))


@pytest.mark.parametrize("n,p", [(0, 0.5), (-1.0, 0.5), (5, 1.5), (5, NAN), (5, -0.1),
                                 ("device", [0.5, 1.2]), ("host", [0.5, NAN])])
def test_legacy_negative_binomial_messages(n, p):
    """RandomState's legacy checks: NumPy's messages (``p < 0, p > 1 or p is NaN``, p == 0
    allowed), not Generator's."""
    host = np.array([1.0, 2.0]) if isinstance(n, str) else n
    dev = npgpu.asarray(host) if n == "device" else host
    ph = np.array(p) if isinstance(p, list) else p
    raises_like(lambda: np.random.RandomState(0).negative_binomial(host, ph),
                lambda: R.RandomState(0).negative_binomial(
                    dev, npgpu.asarray(ph) if n == "device" else ph))


@pytest.mark.parametrize("n,p", [(5.0, 0.0), (NAN, 0.5), (1e20, 1e-20)])
def test_legacy_negative_binomial_refuses_what_numpy_casts(n, p):
    """What NumPy's legacy checks let through and answer with x86's cast of inf/NaN to int64:
    refused with Generator's errors (docs/random.md), never a draw that would not end."""
    want = {0.0: "p <= 0, p > 1", 0.5: "n must not be NaN", 1e-20: "n too large"}[p]
    with pytest.raises(ValueError, match=want):
        R.RandomState(0).negative_binomial(n, p, size=3)
