"""npgpu.random answers bad input (and NumPy's accepted edge cases) as NumPy 2.x does:
the same exception class and message, or a result of the same shape and dtype."""
import re
import warnings

import numpy as np
import pytest

import npgpu
import npgpu.random as R

A = npgpu.asarray
NAN = float("nan")


def _gen(lib):
    return np.random.default_rng(1) if lib is np else R.default_rng(1)


def _rs(lib):
    return np.random.RandomState(1) if lib is np else R.RandomState(1)


def same_error(call, message=True):
    """``call(lib)`` raises the same exception class (and message) for NumPy and npgpu."""
    with pytest.raises(Exception) as theirs:
        call(np)
    want = theirs.value
    with pytest.raises(type(want), match=re.escape(str(want)) if message else None) as ours:
        call(npgpu)
    assert type(ours.value) is type(want)


def same_result(call):
    """``call(lib)`` returns for both; same shape and dtype."""
    want = np.asarray(call(np))
    got = call(npgpu)
    got = got.get() if hasattr(got, "get") else np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    return want, got


def _arr(lib, x):
    return np.asarray(x) if lib is np else A(np.asarray(x))


# --- sizes --------------------------------------------------------------------------------
NEG_SIZE = [
    lambda L: _gen(L).random(-1), lambda L: _gen(L).standard_normal((2, -1)),
    lambda L: _gen(L).normal(0, 1, -1), lambda L: _gen(L).poisson(1.0, -1),
    lambda L: _gen(L).integers(0, 5, -1), lambda L: _gen(L).choice(5, -1),
    lambda L: _gen(L).normal(_arr(L, [0.0]), 1.0, size=-1),
    lambda L: _gen(L).dirichlet([1.0, 1.0], size=-1),
    lambda L: _gen(L).multivariate_normal([0.0, 0.0], np.eye(2), size=-1),
    lambda L: _rs(L).rand(-1), lambda L: _rs(L).randn(2, -1), lambda L: _rs(L).randint(0, 5, -1),
    lambda L: _rs(L).random_sample(-1), lambda L: _rs(L).standard_cauchy(-1),
    lambda L: _rs(L).choice(5, -1), lambda L: L.random.rand(-2), lambda L: L.random.ranf(-2),
    lambda L: L.random.sample(-2),
]


@pytest.mark.parametrize("call", NEG_SIZE)
def test_negative_size(call):
    same_error(call)


def test_random_raw_negative_size():
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        R.Philox(1).random_raw(-1)
    assert R.Philox(1).random_raw((2, 0)).shape == (2, 0)


@pytest.mark.parametrize("call", [
    lambda L: _gen(L).random(2.0), lambda L: _gen(L).uniform(0, 1, size=2.0),
    lambda L: _gen(L).integers(0, 5, size=2.0), lambda L: _gen(L).choice(5, 2.0),
    lambda L: _rs(L).rand(2.5), lambda L: _rs(L).rand((2, 3)), lambda L: _rs(L).randn("a")])
def test_non_integer_size(call):
    same_error(call)


def test_size_not_broadcasting_message():
    same_error(lambda L: _gen(L).normal(_arr(L, [[0.0], [1.0]]), 1.0, size=(3,)))


# --- integers -----------------------------------------------------------------------------
@pytest.mark.parametrize("args,kw", [
    ((0, 0), {}), ((0, -1), {"endpoint": True}), ((5, 4), {"endpoint": True}),
    ((-5, -10), {"dtype": np.uint8}), ((0, 300), {"dtype": np.uint8}),
    ((0, 256), {"dtype": np.uint8, "endpoint": True}), ((0, 2 ** 64 + 1), {"dtype": np.uint64}),
    ((0, 3), {"dtype": float}), ((5, 4), {"size": -1})])
def test_integers_scalar_bounds(args, kw):
    same_error(lambda L: _gen(L).integers(*args, **kw))


@pytest.mark.parametrize("lo,hi,kw", [
    ([-1, 1], [3, 2], {"dtype": np.uint8}), ([-1], [5], {"dtype": np.uint64}),
    ([0], [256], {"dtype": np.uint8, "endpoint": True}), ([0, 0], [1, 0], {}),
    ([0], [-1], {"endpoint": True}), ([1, 0], [1, 0], {}), ([300], [5], {"dtype": np.uint8})])
def test_integers_array_bounds(lo, hi, kw):
    same_error(lambda L: _gen(L).integers(_arr(L, lo), _arr(L, hi), **kw))
    same_error(lambda L: _gen(L).integers(lo, hi, **kw))


def test_integers_high_array_only_zero():
    same_error(lambda L: _gen(L).integers(_arr(L, [3, 0])))


@pytest.mark.parametrize("args,size", [((5, 5), 0), ((5, 4), (2, 0)), ((0, 300), 0)])
def test_integers_no_elements_skip_bounds(args, size):
    same_result(lambda L: _gen(L).integers(*args, size=size, dtype=np.uint8))
    same_result(lambda L: _gen(L).integers(_arr(L, [args[0]] * 2), args[1], size=(0, 2)))


def test_integers_array_edge_bounds_accepted():
    same_result(lambda L: _gen(L).integers(_arr(L, [0]), _arr(L, [256]), dtype=np.uint8))
    same_result(lambda L: _gen(L).integers([0], [255], dtype=np.uint8, endpoint=True))


def test_randint_and_random_integers_messages():
    same_error(lambda L: _rs(L).randint(0, 3, dtype=float))
    same_error(lambda L: _rs(L).randint(0))
    same_error(lambda L: L.random.randint(5, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        same_error(lambda L: _rs(L).random_integers(0, -1))
        same_error(lambda L: _rs(L).random_integers(0))


# --- distribution parameters --------------------------------------------------------------
@pytest.mark.parametrize("name,args", [
    ("uniform", (1.0, 0.0)), ("hypergeometric", (2 ** 30, 2 ** 30, 2)),
    ("hypergeometric", (2, 2 ** 31, 1)), ("negative_binomial", (NAN, 0.5)),
    ("negative_binomial", (NAN, 2.0)), ("binomial", (1, 1j)), ("normal", (1j,))])
def test_generator_scalar_parameters(name, args):
    same_error(lambda L: getattr(_gen(L), name)(*args, size=3))


@pytest.mark.parametrize("name,args", [
    ("uniform", ([1.0, 0.0], [0.0, 1.0])), ("uniform", ([0.0], [np.inf])),
    ("poisson", ([-1.0],)), ("poisson", ([NAN],)), ("poisson", ([-1.0, NAN],)),
    ("binomial", ([10], [1.1])), ("binomial", ([10], [NAN])), ("zipf", ([1.0],)),
    ("logseries", ([1.0],)), ("hypergeometric", ([2 ** 31], [2], [1])),
    ("negative_binomial", ([NAN], [0.5]))])
def test_generator_array_parameters(name, args):
    same_error(lambda L: getattr(_gen(L), name)(*[_arr(L, a) for a in args]))
    same_error(lambda L: getattr(_gen(L), name)(*[np.asarray(a) for a in args]))


@pytest.mark.parametrize("name,args", [
    ("binomial", (np.array([1, 2], np.uint64), 0.5)), ("binomial", (np.array(1 + 0j), 0.5)),
    ("hypergeometric", (np.array([2], np.uint64), 1, 1)), ("normal", (np.array([1j]),)),
    ("poisson", (np.array(1j),)), ("binomial", (np.array([10.5, 3.0]), 0.3)),
    ("binomial", (np.array(10.0), 0.3)), ("hypergeometric", (np.array([5.5]), 5, 3)),
    ("hypergeometric", (5, np.array([5.0]), 3))])
def test_array_parameters_cast_safely(name, args):
    """Host and device arrays (float ones for integer parameters too) cast safely, in both
    APIs; scalars and lists convert as numbers (below)."""
    same_error(lambda L: getattr(_gen(L), name)(*args))
    same_error(lambda L: getattr(_rs(L), name)(*args))
    same_error(lambda L: getattr(_gen(L), name)(
        *[_arr(L, a) if isinstance(a, np.ndarray) else a for a in args]))


@pytest.mark.parametrize("name,args", [
    ("binomial", (np.float64(10.5), 0.3)), ("binomial", ([10.5, 3.0], 0.3)),
    ("hypergeometric", ([5.5], 5, 3))])
def test_float_scalars_and_lists_for_integer_parameters(name, args):
    same_result(lambda L: getattr(_gen(L), name)(*args))
    same_result(lambda L: getattr(_rs(L), name)(*args))


def test_legacy_parameter_checks():
    same_result(lambda L: _rs(L).uniform(1.0, 0.0, size=3))
    same_error(lambda L: _rs(L).uniform(0, np.inf))
    same_error(lambda L: _rs(L).uniform([0.0], [np.inf]))
    same_error(lambda L: _rs(L).hypergeometric(2, 2, 0))
    same_error(lambda L: _rs(L).hypergeometric(2, 2, [0]))
    same_error(lambda L: _rs(L).hypergeometric(0, 0, 0))
    same_error(lambda L: _rs(L).hypergeometric(-1, 2, 1))
    same_result(lambda L: _rs(L).hypergeometric(2 ** 30, 2 ** 30, 2, size=3))
    same_result(lambda L: L.random.uniform(2.0, 1.0, size=2))


@pytest.mark.parametrize("gen", [True, False])
def test_noncentral_nan_nonc_gives_nan(gen):
    mk = _gen if gen else _rs
    for call in (lambda L: mk(L).noncentral_chisquare(1.0, NAN, size=3),
                 lambda L: mk(L).noncentral_f(1.0, 2.0, NAN, size=3)):
        want, got = same_result(call)
        assert np.isnan(got).all()
    for nonc in ([NAN, 1.0], A(np.array([NAN, 1.0]))):
        got = mk(npgpu).noncentral_chisquare(2.0, nonc).get()
        assert np.isnan(got[0]) and np.isfinite(got[1])
        got = mk(npgpu).noncentral_f([2.0, 2.0], 3.0, nonc).get()
        assert np.isnan(got[0]) and np.isfinite(got[1])


# --- dtype= and out= ----------------------------------------------------------------------
def test_float_out_checks():
    same_error(lambda L: _gen(L).random(out=[0.0, 0.0]))
    same_error(lambda L: _gen(L).random(out=L.zeros(6)[::2]))
    same_error(lambda L: _gen(L).standard_gamma(1.0, out=L.zeros(3, np.float32)))
    same_error(lambda L: _gen(L).standard_gamma(1.0, size=4, out=L.zeros(3)))
    same_error(lambda L: _gen(L).random(size=4, out=L.zeros(3)))


def test_float_out_host_array_and_any_exponential_method():
    out = np.zeros(4)
    assert R.default_rng(1).random(out=out) is out and ((out >= 0) & (out < 1)).all()
    out32 = np.zeros(3, np.float32)
    assert R.default_rng(1).standard_gamma(2.0, dtype=np.float32, out=out32) is out32
    assert (out32 > 0).all()
    same_result(lambda L: _gen(L).standard_exponential(3, method="foo"))


# --- choice ---------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda L: _gen(L).choice(5.0), lambda L: _gen(L).choice("abc"),
    lambda L: _gen(L).choice(np.array(5.0)), lambda L: _gen(L).choice(3, p=0.5),
    lambda L: _gen(L).choice(3, p=np.array(0.5)), lambda L: _gen(L).choice(3, p=[NAN, 0.5, 0.5]),
    lambda L: _gen(L).choice(3, p=[-0.5, 1.5, NAN]), lambda L: _gen(L).choice(3, p=[[1.0]]),
    lambda L: _gen(L).choice(3, 3, replace=False, p=[1.0, 0.0, 0.0]),
    lambda L: _gen(L).choice(-1), lambda L: _gen(L).choice(_arr(L, np.zeros(0))),
    lambda L: _rs(L).choice(3, p=[0.5, 0.2, 0.2]), lambda L: _rs(L).choice(3, p=[1.2, -0.2, 0]),
    lambda L: _rs(L).choice(3, p=[NAN, 0.5, 0.5]), lambda L: _rs(L).choice(3, p=[0.5, 0.5]),
    lambda L: _rs(L).choice(2, p=[[0.5, 0.5]]), lambda L: _rs(L).choice(0),
    lambda L: _rs(L).choice([]), lambda L: _rs(L).choice(_arr(L, [[1, 2], [3, 4]])),
    lambda L: _rs(L).choice(5.0), lambda L: _rs(L).choice(3, 5, replace=False),
    lambda L: L.random.choice(3, p=[0.5, 0.2, 0.2])])
def test_choice_errors(call):
    same_error(call)


@pytest.mark.parametrize("call", [
    lambda L: _gen(L).choice(-1, size=0), lambda L: _gen(L).choice(np.array(5), 3),
    lambda L: _gen(L).choice(_arr(L, 5), 3), lambda L: _rs(L).choice(_arr(L, 5), 2),
    lambda L: _rs(L).choice(-1, 0), lambda L: _rs(L).choice(0, 0),
    lambda L: _gen(L).choice(3, 0, p=[1.0, 0.0, 0.0])])
def test_choice_accepted(call):
    same_result(call)


# --- permutations -------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda L: _gen(L).permutation("abc"), lambda L: _gen(L).permutation(np.array(5)),
    lambda L: _rs(L).permutation(5.0), lambda L: _rs(L).permutation(_arr(L, 5)),
    lambda L: L.random.permutation(np.float64(3)),
    lambda L: _gen(L).shuffle(_arr(L, 5)), lambda L: _gen(L).shuffle(np.array(5)),
    lambda L: _gen(L).shuffle(5), lambda L: _gen(L).shuffle((1, 2, 3)),
    lambda L: _gen(L).shuffle([1, 2, 3], axis=1), lambda L: _rs(L).shuffle(_arr(L, 5)),
    lambda L: _gen(L).permuted(_arr(L, 5)), lambda L: _gen(L).permuted(_arr(L, 5), axis=0),
    lambda L: _gen(L).permuted(_arr(L, [1.5, 2.0]), out=L.zeros(2, np.int64))])
def test_permutation_errors(call):
    same_error(call)


def test_permutation_of_negative_int_is_empty():
    same_result(lambda L: _gen(L).permutation(-1))
    same_result(lambda L: _rs(L).permutation(-3))


@pytest.mark.parametrize("gen", [True, False])
def test_shuffle_host_objects_in_place(gen):
    g = R.default_rng(2) if gen else R.RandomState(2)
    x = list(range(7))
    g.shuffle(x)
    assert sorted(x) == list(range(7))
    a = np.arange(12.0).reshape(4, 3)
    g.shuffle(a)
    assert sorted(a[:, 0].tolist()) == [0.0, 3.0, 6.0, 9.0]
    assert (a[:, 1] == a[:, 0] + 1).all()
    if gen:
        b = np.arange(6).reshape(2, 3)
        g.shuffle(b, axis=1)
        assert sorted(b[0].tolist()) == [0, 1, 2] and (b[1] == b[0] + 3).all()


def test_permuted_host_out():
    out = np.zeros(4)
    assert R.default_rng(1).permuted([1, 2, 3, 4], out=out) is out
    assert sorted(out.tolist()) == [1.0, 2.0, 3.0, 4.0]


# --- bytes ------------------------------------------------------------------------------------
@pytest.mark.parametrize("length", [-1, -2, -5, 0, 1.5, 2.7, -0.5])
def test_bytes_lengths(length):
    want = np.random.default_rng(1).bytes(length)
    got = R.default_rng(1).bytes(length)
    assert isinstance(got, bytes) and len(got) == len(want)


def test_bytes_non_number():
    with pytest.raises(TypeError, match="an integer is required"):
        R.default_rng(1).bytes("a")


# --- seeds and bit generators -----------------------------------------------------------------
@pytest.mark.parametrize("seed", [2 ** 32, -1, [], [[1, 2]], [1, -1], 1.5, "a", np.float64(1),
                                  np.random.SeedSequence(1)])
def test_legacy_seed_checks(seed):
    same_error(lambda L: L.random.RandomState(seed))
    same_error(lambda L: L.random.RandomState(1).seed(seed))


def test_legacy_seed_accepted():
    for seed in (np.array([[5]]), np.uint32(7), [1, 2], 2 ** 32 - 1):
        assert isinstance(R.RandomState(seed), R.RandomState)
    # the values of an accepted seed are those of before (SeedSequence of the same entropy)
    np.testing.assert_array_equal(R.RandomState(np.array([[5]])).rand(3).get(),
                                  R.RandomState(5).rand(3).get())
    with pytest.raises(ValueError, match=re.escape("Seed must be between 0 and 2**32 - 1")):
        R.seed(2 ** 32)


def test_bit_generator_and_random_state_as_seeds():
    rs = R.RandomState(3)
    g = R.default_rng(rs)
    assert g.bit_generator is rs._gen.bit_generator
    bg = R.Philox(4)
    np.testing.assert_array_equal(R.RandomState(bg).rand(3).get(),
                                  R.Generator(R.Philox(4)).random(3).get())


@pytest.mark.parametrize("kw,msg", [
    ({"key": 2 ** 64}, "key must be positive and less than 2**64."),
    ({"key": -1}, "key must be positive and less than 2**64."),
    ({"counter": 2 ** 128}, "counter must be positive and less than 2**128."),
    ({"key": [1, 2, 3]}, "key must have 2 elements when using array form"),
    ({"counter": [1, 2, 3]}, "counter must have 4 elements when using array form")])
def test_philox_key_counter_range(kw, msg):
    with pytest.raises(ValueError, match=re.escape(msg)):
        R.Philox(**kw)
    assert R.Philox(key=2 ** 64 - 1, counter=2 ** 128 - 1).state["state"]["key"][1] == 2 ** 32 - 1


# --- multivariate -----------------------------------------------------------------------------
def test_dirichlet():
    same_error(lambda L: _gen(L).dirichlet(1.0))
    same_error(lambda L: _gen(L).dirichlet(np.array(1.0)))
    same_error(lambda L: _gen(L).dirichlet([1.0, -1.0]))
    same_error(lambda L: _rs(L).dirichlet([0.0, 1.0]))
    same_error(lambda L: _rs(L).dirichlet([NAN, -1.0]))
    for call in (lambda L: _gen(L).dirichlet([1.0, NAN], size=2),
                 lambda L: _rs(L).dirichlet([1.0, NAN]),
                 lambda L: _gen(L).dirichlet(_arr(L, [NAN, 2.0]))):
        want, got = same_result(call)
        assert np.isnan(got).all() and np.isnan(want).all()


def test_multinomial():
    same_error(lambda L: _gen(L).multinomial(5, []))
    same_error(lambda L: _gen(L).multinomial(5, 0.5))
    same_error(lambda L: _rs(L).multinomial([3, 4], [0.5, 0.5]))
    same_result(lambda L: _rs(L).multinomial(1.5, [0.5, 0.5]))


def test_multivariate_normal_eigh_checks():
    bad = [[1.0, 2.0], [2.0, 1.0]]
    same_error(lambda L: _gen(L).multivariate_normal([0, 0], np.eye(2), check_valid="foo",
                                                      method="eigh"))
    same_error(lambda L: _gen(L).multivariate_normal([0, 0], bad, check_valid="raise",
                                                      method="eigh"))
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        R.default_rng(1).multivariate_normal([0, 0], bad, method="eigh")


def test_shuffle_host_list_with_an_axis():
    """NumPy's Generator.shuffle takes an axis for ndarrays only (NotImplementedError for a
    list), and shuffles a list in place along axis 0."""
    with pytest.raises(NotImplementedError) as want:
        np.random.default_rng(1).shuffle([1, 2, 3], axis=1)
    with pytest.raises(NotImplementedError, match=str(want.value)):
        R.default_rng(1).shuffle([1, 2, 3], axis=1)
    x = [1, 2, 3, 4, 5]
    R.default_rng(1).shuffle(x)
    assert sorted(x) == [1, 2, 3, 4, 5]
