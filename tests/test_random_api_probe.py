"""npgpu.random against NumPy's argument handling, probed from outside: errors (class and
message), shapes and dtypes, and finite answers where C's arithmetic overflows to inf (the
simulator's Python math raises there).  Streams differ from NumPy's: values are compared by
their properties, never element by element."""
import inspect

import numpy as np
import pytest

import npgpu
from npgpu import random as R


def _err(fn):
    try:
        fn()
    except Exception as e:          # noqa: BLE001 - the class is what is compared
        return type(e), str(e)
    return None


def _same_error(fn_np, fn_gp):
    want = _err(fn_np)
    assert want is not None
    assert _err(fn_gp) == want


def _h(x):
    return x.get() if isinstance(x, npgpu.ndarray) else np.asarray(x)


# --- errors ---------------------------------------------------------------------------------
@pytest.mark.parametrize("low, high", [(0.0, -0.0), (np.array([0.0, 1.0]), np.array([-0.0, 2.0]))])
def test_uniform_negative_zero_range(low, high):
    # NumPy checks high - low by its sign bit: -0.0 is "< 0"
    _same_error(lambda: np.random.default_rng(0).uniform(low, high),
                lambda: R.default_rng(0).uniform(low, high))
    assert _h(R.default_rng(0).uniform(-0.0, 0.0, size=2)).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("size", ["a", True, (True, 2), 2.0, np.float64(2.0), [[2]], (2, -1)])
@pytest.mark.parametrize("meth", ["normal", "random", "integers"])
def test_size_errors(size, meth):
    args = (5,) if meth == "integers" else ()
    _same_error(lambda: getattr(np.random.default_rng(0), meth)(*args, size=size),
                lambda: getattr(R.default_rng(0), meth)(*args, size=size))


@pytest.mark.parametrize("size, shape", [(np.array([2, 3]), (2, 3)), (np.int8(3), (3,)),
                                         ([2, 0], (2, 0)), ((), ())])
def test_size_forms(size, shape):
    assert R.default_rng(0).normal(size=size).shape == shape
    assert np.random.default_rng(0).normal(size=size).shape == shape


@pytest.mark.parametrize("args", [(None, 0.4), (3.0, None)])
def test_negative_binomial_none_is_nan(args):
    _same_error(lambda: np.random.default_rng(0).negative_binomial(*args),
                lambda: R.default_rng(0).negative_binomial(*args))


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("size", [0, (1, 0)])
def test_choice_negative_population_no_samples(legacy, size):
    n = np.random.RandomState(0) if legacy else np.random.default_rng(0)
    g = R.RandomState(0) if legacy else R.default_rng(0)
    _same_error(lambda: n.choice(-1, size=size, replace=False),
                lambda: g.choice(-1, size=size, replace=False))
    assert g.choice(-1, size=size).shape == n.choice(-1, size=size).shape


@pytest.mark.parametrize("x", [5, 2.5, np.int64(3)])
@pytest.mark.parametrize("axis", [1, -1])
def test_shuffle_scalar_with_axis(x, axis):
    _same_error(lambda: np.random.default_rng(0).shuffle(x, axis=axis),
                lambda: R.default_rng(0).shuffle(x, axis=axis))


def test_permuted_keyword_only():
    # (the interpreter's wording differs from Cython's: the class is compared)
    with pytest.raises(TypeError):
        np.random.default_rng(0).permuted(np.arange(4), 0)
    with pytest.raises(TypeError, match="positional"):
        R.default_rng(0).permuted(np.arange(4), 0)
    assert R.default_rng(0).permuted(np.arange(4), axis=0).shape == (4,)


@pytest.mark.parametrize("name", ["normal", "poisson", "triangular", "bytes", "gamma"])
def test_randomstate_signatures(name):
    assert inspect.signature(getattr(R.RandomState, name)) == \
        inspect.signature(getattr(np.random.RandomState, name))


# --- integers: bounds given as uint64 / Python ints beyond int64 -----------------------------
@pytest.mark.parametrize("legacy", [False, True])
def test_integers_uint64_high_at_int64_bound(legacy):
    lo = np.array([-2 ** 63, 5])
    hi = np.array([2 ** 63, 2 ** 63], np.uint64)
    n = np.random.RandomState(0) if legacy else np.random.default_rng(0)
    g = R.RandomState(0) if legacy else R.default_rng(0)
    f = "randint" if legacy else "integers"
    for args in [(lo, hi), (hi,), (npgpu.asarray(lo), npgpu.asarray(hi))]:
        want = getattr(n, f)(*[_h(a) for a in args])
        got = _h(getattr(g, f)(*args))
        assert got.dtype == want.dtype == np.int64 and got.shape == want.shape
        assert (got >= _h(args[0]) if len(args) == 2 else got >= 0).all()
    # high - 1 is never taken before the check: an empty range stays an error
    for args in [(np.array([0], np.uint64), np.array([0], np.uint64)), ([5], [3])]:
        _same_error(lambda: getattr(n, f)(*args, dtype=np.uint64),
                    lambda: getattr(g, f)(*args, dtype=np.uint64))


@pytest.mark.filterwarnings("error")
def test_integers_python_int_list_beyond_int64():
    want = np.random.default_rng(0).integers([0, 2 ** 63], [2 ** 64] * 2, dtype=np.uint64)
    got = _h(R.default_rng(0).integers([0, 2 ** 63], [2 ** 64] * 2, dtype=np.uint64))
    assert got.dtype == want.dtype and got.shape == want.shape and got[1] >= 2 ** 63
    _same_error(lambda: np.random.default_rng(0).integers([0], [2 ** 64 + 1], dtype=np.uint64),
                lambda: R.default_rng(0).integers([0], [2 ** 64 + 1], dtype=np.uint64))


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
                                np.int64, np.uint64, np.bool_])
def test_integers_dtype_limits(dt):
    info = np.iinfo(dt) if dt is not np.bool_ else None
    lo, hi = (0, 1) if info is None else (int(info.min), int(info.max))
    g, n = R.default_rng(3), np.random.default_rng(3)
    x = _h(g.integers(lo, hi, size=40, dtype=dt, endpoint=True))
    assert x.dtype == np.dtype(dt) and x.min() >= lo and x.max() <= hi
    for args, kw in [((lo, hi + 1), {"endpoint": True}), ((lo - 1, hi), {}),
                     ((lo, hi + 2), {})]:
        _same_error(lambda: n.integers(*args, dtype=dt, **kw),
                    lambda: g.integers(*args, dtype=dt, **kw))


# --- C's overflow to inf / NaN where Python's math raised on the simulator --------------------
@pytest.mark.parametrize("name, args, want", [
    ("lognormal", (1e20, 1.0), np.inf), ("lognormal", (0.0, 1e10), None),
    ("pareto", (1e-10,), np.inf), ("weibull", (1e-300,), None),
    ("geometric", (5e-324,), np.iinfo(np.int64).max), ("vonmises", (np.inf, 1.0), np.nan),
    ("vonmises", (-np.inf, 1.0), np.nan)])
def test_overflow_as_c(name, args, want):
    x = _h(getattr(R.default_rng(1), name)(*args, size=8))
    ref = getattr(np.random.default_rng(1), name)(*args, size=8)
    assert x.dtype == ref.dtype and x.shape == (8,)
    if want is None:
        assert np.all((x >= 0) | np.isinf(x)) and not np.isnan(x).any()
    elif np.isnan(want):
        assert np.isnan(x).all() and np.isnan(ref).all()
    else:
        assert (x == want).all() and (ref == want).all()


def test_zipf_near_one_ends():
    x = _h(R.default_rng(2).zipf(1.001, size=6))
    assert x.dtype == np.int64 and (x >= 1).all()


def test_wald_never_negative_huge_mean():
    # NumPy >= 2.3.4's form: mean * (1 - 2 / d), no cancellation
    g = R.default_rng(5)
    assert (_h(g.wald(1e6, 1e-3, size=64)) >= 0).all()
    assert (_h(g.wald(1.0, np.inf, size=4)) == 1.0).all()
    assert (_h(g.wald(1e300, 2.0, size=4)) >= 0).all()
    x = _h(g.wald(1.0, 5e-324, size=4))
    assert not np.isnan(x).any()
    # moments: mean mu, variance mu^3 / scale
    x = _h(R.default_rng(6).wald(2.0, 3.0, size=4000))
    assert abs(x.mean() - 2.0) < 0.1 and abs(x.var() - 8.0 / 3.0) < 0.6


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("dt, lo, hi", [(np.uint64, 0.0, 2.0 ** 64),
                                        (np.int64, -2.0 ** 63, 2.0 ** 63), (np.int64, 1.5, 3.9)])
def test_integers_float_bounds_at_limits(dt, lo, hi):
    args = (np.array([lo, lo]), np.array([hi, hi]))
    want = np.random.default_rng(0).integers(*args, dtype=dt)
    for a in (args, tuple(npgpu.asarray(x) for x in args)):
        got = _h(R.default_rng(0).integers(*a, dtype=dt))
        assert got.dtype == want.dtype and got.shape == want.shape
        assert (got >= int(lo)).all() and (got.astype(float) <= hi).all()


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("meth", ["random", "standard_normal", "standard_exponential"])
def test_out_fortran_order(meth, dt):
    # NumPy accepts a Fortran-contiguous out (C- or F-contiguous)
    for out in (np.zeros((3, 5), dt, order="F"), npgpu.zeros((3, 5), dt, order="F")):
        got = getattr(R.default_rng(0), meth)(dtype=dt, out=out)
        assert got is out
        h = _h(out)
        assert h.dtype == np.dtype(dt) and (h != 0).all() and len(np.unique(h)) == 15
    want = np.zeros((3, 5), dt, order="F")
    assert getattr(np.random.default_rng(0), meth)(dtype=dt, out=want) is want
    _same_error(lambda: getattr(np.random.default_rng(0), meth)(out=np.zeros((4, 6))[::2, ::2]),
                lambda: getattr(R.default_rng(0), meth)(out=npgpu.zeros((4, 6))[::2, ::2]))
