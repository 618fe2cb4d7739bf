"""Defects found by NumPy's legacy-random and seeding tests (``random/tests/test_random.py``,
``test_randomstate*.py``, ``test_regression.py``, ``test_smoke.py``, ``test_direct.py``),
checked against NumPy's errors and warnings or by statistics (npgpu's streams are its own,
``docs/random.md``): device-array seeds, NumPy's seed-sequence interfaces, ``str`` of a
Generator/RandomState, ``RandomState(cls)``, ``randint`` with a non-native dtype, the untyped
``shuffle`` warning, ``mtrand`` / ``get_bit_generator`` / ``set_bit_generator``, and
``hypergeometric`` for large samples (NumPy's HRUA: the sequential draws never ended)."""
import warnings

import numpy
import pytest
from scipy import stats

import npgpu as np
from conftest import error_of, raises_like

SEED = 8675309


# --- seeds given as device arrays: read once, NumPy's checks and errors ---------------------
_SEEDS = [[], [[1, 2, 3]], 5, [5], [[5]], 5.0, [1.5], [1, 2], [0, 2**32 - 1], [2**32]]


def _seeders(mod):
    r = mod.random
    return [lambda s: r.RandomState(s), lambda s: r.default_rng(s), lambda s: r.seed(s)]


@pytest.mark.parametrize("seed", _SEEDS, ids=str)
@pytest.mark.parametrize("which", range(3))
def test_device_array_seeds_as_numpy_host_arrays(seed, which):
    dt = numpy.int64 if seed == [] else None
    if seed == 5 and which == 1:
        # a 0-d device integer is npgpu's scalar: it seeds (NumPy's 0-d array has no len())
        assert np.random.default_rng(np.array(5)).bit_generator.state["state"]["key"].tolist() \
            == np.random.default_rng(5).bit_generator.state["state"]["key"].tolist()
        return
    want = error_of(lambda: _seeders(numpy)[which](numpy.array(seed, dtype=dt)))
    got = error_of(lambda: _seeders(np)[which](np.array(seed, dtype=dt)))
    assert got == want


def test_device_array_seed_gives_the_host_seeds_stream():
    for seed in ([1, 2, 3], [7], [0, 2**32 - 1]):
        a = np.random.default_rng(np.array(seed, dtype=numpy.uint32)).random(8).get()
        b = np.random.default_rng(seed).random(8).get()
        numpy.testing.assert_array_equal(a, b)
        a = np.random.RandomState(np.array(seed)).random_sample(8).get()
        b = np.random.RandomState(seed).random_sample(8).get()
        numpy.testing.assert_array_equal(a, b)
    # an element of a device array (npgpu's 0-d array) seeds as NumPy's integer does
    seeds = np.arange(4, dtype=numpy.uint64)
    assert np.random.Philox(seeds[2]).state["state"]["key"].tolist() == \
        np.random.Philox(2).state["state"]["key"].tolist()


def test_philox_key_and_counter_from_device_arrays():
    st = np.random.Philox(SEED).state["state"]
    keyed = np.random.Philox(counter=np.asarray(st["counter"]), key=np.asarray(st["key"]))
    assert keyed.state["state"]["key"].tolist() == st["key"].tolist()
    assert keyed.state["state"]["counter"].tolist() == st["counter"].tolist()


# --- NumPy's seed-sequence interfaces -----------------------------------------------------
def test_seed_sequence_interfaces_are_numpys():
    from npgpu.random.bit_generator import (ISeedSequence, ISpawnableSeedSequence,
                                            SeedlessSeedSequence)
    from numpy.random import bit_generator as nbg
    assert ISeedSequence is nbg.ISeedSequence
    assert ISpawnableSeedSequence is nbg.ISpawnableSeedSequence
    assert SeedlessSeedSequence is nbg.SeedlessSeedSequence
    raises_like(lambda: numpy.random.Philox(nbg.SeedlessSeedSequence()),
                lambda: np.random.Philox(SeedlessSeedSequence()))


def test_registered_seed_sequence_seeds_and_refuses_spawning():
    class FakeSeedSequence:
        def generate_state(self, n_words, dtype=numpy.uint32):
            return numpy.arange(1, n_words + 1, dtype=dtype)

    numpy.random.bit_generator.ISeedSequence.register(FakeSeedSequence)
    ss = FakeSeedSequence()
    rng = np.random.default_rng(ss)
    assert rng.bit_generator.seed_seq is ss
    assert rng.bit_generator.state["state"]["key"].tolist() == [1, 2]
    assert rng.random(4).shape == (4,)
    nrng = numpy.random.default_rng(ss)
    raises_like(lambda: nrng.spawn(2), lambda: rng.spawn(2))
    raises_like(lambda: nrng.bit_generator.spawn(2), lambda: rng.bit_generator.spawn(2))


# --- str / repr, RandomState(cls) ---------------------------------------------------------
def test_str_has_no_address_repr_has():
    for obj, name in ((np.random.default_rng(1), "Generator"),
                      (np.random.RandomState(1), "RandomState")):
        addr = f"{id(obj):#x}".upper().replace("X", "x")
        assert str(obj) == f"{name}(Philox4x32)"
        assert addr not in str(obj)
        assert repr(obj) == f"{name}(Philox4x32) at {addr}"


def test_random_state_of_a_bit_generator_class():
    raises_like(lambda: numpy.random.RandomState(numpy.random.Philox),
                lambda: np.random.RandomState(np.random.Philox))


# --- legacy randint with a non-native byte order: NumPy's warning, the native dtype ---------
@pytest.mark.parametrize("dt", [">i4", ">u2", ">i8", ">u8", "<i4"])
def test_randint_non_native_byteorder_warns(dt):
    native = numpy.dtype(dt).isnative
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        want = numpy.random.RandomState(1).randint(3, 200, size=50, dtype=dt)
    with warnings.catch_warnings(record=True) as got_rec:
        warnings.simplefilter("always")
        got = np.random.RandomState(1).randint(3, 200, size=50, dtype=dt)
        got_mod = np.random.randint(3, 200, size=(2, 3), dtype=dt)
    msgs = [str(w.message) for w in got_rec if w.category is DeprecationWarning]
    assert all(w.filename == __file__ for w in got_rec if w.category is DeprecationWarning)
    want_msgs = [str(w.message) for w in rec if w.category is DeprecationWarning]
    assert msgs == want_msgs * 2
    assert len(msgs) == (0 if native else 2)
    assert got.dtype == want.dtype and got.dtype.isnative
    assert got_mod.dtype == want.dtype and got_mod.shape == (2, 3)
    h = got.get()
    assert h.min() >= 3 and h.max() < 200


# --- shuffle of an object that is not a Sequence: NumPy's warning, at the caller -------------
@pytest.mark.parametrize("which", ["module", "RandomState", "Generator"])
def test_shuffle_untyped_warns_at_caller(which):
    r = {"module": np.random, "RandomState": np.random.RandomState(SEED),
         "Generator": np.random.default_rng(SEED)}[which]
    values = {i: 10 * i for i in range(7)}
    with pytest.warns(UserWarning, match="you are shuffling a 'dict' object which is not a "
                      "subclass of 'Sequence'; `shuffle` is not guaranteed") as rec:
        r.shuffle(values)
    assert rec[0].filename == __file__
    assert sorted(values.values()) == [10 * i for i in range(7)]
    # a Sequence (list) does not warn
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r.shuffle([1, 2, 3])


def test_shuffle_untyped_warns_before_axis_error():
    with pytest.warns(UserWarning, match="you are shuffling a 'dict'"):
        raises_like(lambda: numpy.random.default_rng(1).shuffle({0: 0, 1: 1}, axis=1),
                    lambda: np.random.default_rng(1).shuffle({0: 0, 1: 1}, axis=1))


# --- numpy.random.mtrand, get_bit_generator / set_bit_generator ---------------------------
def test_mtrand_names():
    assert np.random.mtrand.RandomState is np.random.RandomState
    assert isinstance(np.random.mtrand._rand, np.random.RandomState)
    raises_like(lambda: numpy.random.mtrand.dirichlet(numpy.array([5.4e-01, -1.0e-16])),
                lambda: np.random.mtrand.dirichlet(np.array([5.4e-01, -1.0e-16])))
    x = np.random.mtrand.vonmises(0.5, 1e-8, size=5)
    assert x.shape == (5,) and bool(np.isfinite(x).all().get())


def test_get_and_set_bit_generator():
    old = np.random.get_bit_generator()
    try:
        bg = np.random.Philox(SEED)
        np.random.set_bit_generator(bg)
        assert np.random.get_bit_generator() is bg
        assert np.random.default_rng(np.random.mtrand._rand).bit_generator is bg
        got = np.random.random_sample(6).get()
        numpy.testing.assert_array_equal(
            got, np.random.Generator(np.random.Philox(SEED)).random(6).get())
        raises_like(lambda: numpy.random.set_bit_generator(numpy.random.Philox),
                    lambda: np.random.set_bit_generator(np.random.Philox))
    finally:
        np.random.set_bit_generator(old)
    assert np.random.get_bit_generator() is old


def test_seed_reseeds_the_same_bit_generator():
    # NumPy's legacy seeding changes the bit generator in place: what get_bit_generator() or
    # default_rng(rs) handed out follows the new seed
    old = np.random.get_bit_generator()
    try:
        bg = np.random.Philox(1)
        np.random.set_bit_generator(bg)
        np.random.seed(98765)
        assert np.random.get_bit_generator() is bg
        want = np.random.RandomState(98765).randint(0, 2**30, 10).get()
        numpy.testing.assert_array_equal(np.random.randint(0, 2**30, 10).get(), want)
    finally:
        np.random.set_bit_generator(old)
    rs = np.random.RandomState(3)
    g = np.random.default_rng(rs)
    assert g.bit_generator is rs._bit_generator
    rs.seed(98765)
    assert rs._bit_generator is g.bit_generator
    numpy.testing.assert_array_equal(g.integers(0, 2**30, 10).get(), want)
    assert g.bit_generator.seed_seq.entropy == np.random.RandomState(98765)._bit_generator \
        .seed_seq.entropy


# --- hypergeometric: NumPy's HRUA for large samples -----------------------------------------
def test_hypergeometric_huge_sample_ends():
    # NumPy's ticket 5623: sequential draws would take 2**40 steps an element
    big = 2**40 - 2
    rs = np.random.RandomState(SEED)
    x = rs.hypergeometric(big, big, big, size=3).get()
    assert x.dtype == numpy.int64 and ((x > 0) & (x < big)).all()
    # the mean is big / 2, the standard deviation about 2**19: 16 of them either side
    assert (numpy.abs(x - big / 2) < 16 * 2**19).all()
    x = rs.hypergeometric(2**20 - 2, 2**20 - 2, 2**20 - 2).get()
    assert 0 < x < 2**20 - 2
    # the legacy ranges of NumPy's ticket 921
    assert (rs.hypergeometric(3, 18, 11, size=10).get() < 4).all()
    assert (rs.hypergeometric(18, 3, 11, size=10).get() > 0).all()


@pytest.mark.parametrize("good,bad,sample", [
    (40, 60, 30), (60, 40, 30), (40, 60, 85), (500, 500, 990), (12, 900, 300),
    (2**20, 3 * 2**20, 2**19), (1000, 2000, 500), (20, 30, 15)])
def test_hypergeometric_distribution(good, bad, sample):
    n = 3000
    x = np.random.default_rng(SEED).hypergeometric(good, bad, sample, size=n).get()
    assert x.dtype == numpy.int64 and x.shape == (n,)
    lo, hi = max(0, sample - bad), min(sample, good)
    assert x.min() >= lo and x.max() <= hi
    # chi-square over bins of about equal probability (cells k <= edge)
    dist = stats.hypergeom(good + bad, good, sample)
    edges = numpy.unique(dist.ppf(numpy.linspace(0, 1, 21)[1:-1]))
    cdf = numpy.concatenate([[0.0], dist.cdf(edges), [1.0]])
    obs = numpy.bincount(numpy.searchsorted(edges, x), minlength=edges.size + 1)
    p = stats.chisquare(obs, numpy.diff(cdf) * n).pvalue
    assert p > 1e-4, p


def test_hypergeometric_array_parameters_and_edges():
    g = np.random.default_rng(SEED)
    good = np.array([5, 40, 1000, 0, 7])
    bad = np.array([[10], [2000]])
    x = g.hypergeometric(good, bad, 5, size=(2, 5)).get()
    assert x.shape == (2, 5)
    assert ((x >= 0) & (x <= numpy.minimum(good.get(), 5))).all()
    assert (x[:, 3] == 0).all()
    # sample == total: every good one; sample 0: none
    assert (g.hypergeometric(7, 12, 19, size=4).get() == 7).all()
    assert (g.hypergeometric(7, 12, 0, size=4).get() == 0).all()
    assert (g.hypergeometric(300, 0, 120, size=4).get() == 120).all()
