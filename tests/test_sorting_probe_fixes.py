"""Regressions from probing the sorting / searching / set / counting / order-statistics surface
against NumPy: argument errors (class and message), result dtypes and NumPy's NaN-dependent
answers, each compared with NumPy on random data."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import assert_same, raises_like

RNG = numpy.random.default_rng(2718)


def floats(shape, dt="float64", nan=True):
    """Random floats drawn from a small pool (duplicates) holding NaN, +-0 and +-inf."""
    base = (RNG.standard_normal(8) * 10).astype(dt)
    if nan:
        base[:5] = [numpy.nan, -0.0, 0.0, numpy.inf, -numpy.inf]
    return base[RNG.integers(0, 8, size=shape)]


def check(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w)
    else:
        assert_same(got, numpy.asarray(want))


# ---- sort / argsort / partition / lexsort ------------------------------------------------------
@pytest.mark.parametrize("axis", [True, numpy.True_])
def test_arg_functions_refuse_a_bool_axis(axis):
    h = RNG.integers(-5, 5, size=(3, 4))
    a = np.asarray(h)
    raises_like(lambda: numpy.argsort(h, axis=axis), lambda: np.argsort(a, axis=axis))
    raises_like(lambda: numpy.argpartition(h, 1, axis=axis),
                lambda: np.argpartition(a, 1, axis=axis))
    raises_like(lambda: h.argsort(axis=axis), lambda: a.argsort(axis=axis))
    # sort parses the axis as a C int: True is axis 1 (numpy.True_ is refused)
    if isinstance(axis, bool):
        check(np.sort(a, axis=axis), numpy.sort(h, axis=axis))
    else:
        raises_like(lambda: numpy.sort(h, axis=axis), lambda: np.sort(a, axis=axis))


@pytest.mark.parametrize("axis", [5, -2, 1.0, True])
def test_arg_functions_of_0d_check_the_axis(axis):
    h = numpy.array(floats(()))
    a = np.asarray(h)
    raises_like(lambda: numpy.argsort(h, axis=axis), lambda: np.argsort(a, axis=axis))
    raises_like(lambda: numpy.argpartition(h, 0, axis=axis),
                lambda: np.argpartition(a, 0, axis=axis))
    raises_like(lambda: h.argsort(axis=axis), lambda: a.argsort(axis=axis))


@pytest.mark.parametrize("axis", [0, -1, None])
def test_arg_functions_of_0d_valid_axes(axis):
    h = numpy.array(2.5)
    check(np.argsort(np.asarray(h), axis=axis), numpy.argsort(h, axis=axis))
    check(np.argpartition(np.asarray(h), 0, axis=axis), numpy.argpartition(h, 0, axis=axis))


@pytest.mark.parametrize("kind", [None, 3, b"intro", "Introselect"])
def test_partition_kind_errors(kind):
    h = RNG.integers(-5, 5, size=(2, 5))
    a = np.asarray(h)
    raises_like(lambda: numpy.partition(h, 1, kind=kind), lambda: np.partition(a, 1, kind=kind))
    raises_like(lambda: numpy.argpartition(h, 1, kind=kind),
                lambda: np.argpartition(a, 1, kind=kind))
    raises_like(lambda: h.copy().partition(1, kind=kind), lambda: a.copy().partition(1, kind=kind))


def test_partition_kind_as_bytes():
    h = RNG.integers(-5, 5, size=(2, 7))
    got = np.partition(np.asarray(h), 3, kind=b"introselect").get()
    want = numpy.partition(h, 3, kind=b"introselect")
    assert (got[:, 3] == want[:, 3]).all()
    idx = np.argpartition(np.asarray(h), 3, kind=b"introselect").get()
    assert (numpy.take_along_axis(h, idx, 1)[:, 3] == want[:, 3]).all()


@pytest.mark.parametrize("kth", [2 ** 63, numpy.uint64(2 ** 63 + 1), [1, numpy.uint64(2 ** 64 - 1)]])
def test_partition_kth_beyond_int64_wraps(kth):
    h = RNG.integers(-5, 5, size=(5,))
    a = np.asarray(h)
    raises_like(lambda: numpy.partition(h, kth), lambda: np.partition(a, kth))
    raises_like(lambda: numpy.argpartition(h, kth), lambda: np.argpartition(a, kth))


def test_lexsort_axis_none_and_0d_keys():
    h = RNG.integers(-5, 5, size=(2, 6))
    raises_like(lambda: numpy.lexsort(h, axis=None), lambda: np.lexsort(np.asarray(h), axis=None))
    raises_like(lambda: numpy.lexsort(numpy.zeros(0), axis=None),
                lambda: np.lexsort(np.zeros(0), axis=None))
    k0 = (numpy.array(1.5), numpy.array(-2.0))
    d0 = tuple(np.asarray(k) for k in k0)
    for axis in (-3, -2, 1, 2, None):
        raises_like(lambda: numpy.lexsort(k0, axis=axis), lambda: np.lexsort(d0, axis=axis))
    for axis in (-1, 0):
        check(np.lexsort(d0, axis=axis), numpy.lexsort(k0, axis=axis))


# ---- searchsorted ---------------------------------------------------------------------------------
def test_searchsorted_refuses_a_bool_sorter():
    h = floats((7,))
    s = numpy.ones(7, bool)
    v = floats((4,))
    raises_like(lambda: numpy.searchsorted(h, v, sorter=s),
                lambda: np.searchsorted(np.asarray(h), np.asarray(v), sorter=np.asarray(s)))
    raises_like(lambda: numpy.searchsorted(h, v, sorter=list(s)),
                lambda: np.searchsorted(np.asarray(h), np.asarray(v), sorter=list(s)))
    srt = numpy.argsort(h, kind="stable")
    check(np.searchsorted(np.asarray(h), np.asarray(v), sorter=np.asarray(srt)),
          numpy.searchsorted(h, v, sorter=srt))


@pytest.mark.parametrize("v", [2 ** 70, [2 ** 70, 1], -2 ** 65])
def test_searchsorted_complex_against_huge_python_ints(v):
    h = numpy.sort(floats((6,), nan=False).astype(complex) + 1j)
    raises_like(lambda: numpy.searchsorted(h, v), lambda: np.searchsorted(np.asarray(h), v))
    e = numpy.zeros(0, complex)
    check(np.searchsorted(np.asarray(e), v), numpy.searchsorted(e, v))
    f = numpy.sort(floats((6,), nan=False))
    check(np.searchsorted(np.asarray(f), v), numpy.searchsorted(f, v))


# ---- unique / isin --------------------------------------------------------------------------------
@pytest.mark.parametrize("axis", [0, 1])
def test_unique_float16_rows_with_nan(axis):
    """NumPy orders float16 rows (compared as structured fields) with NaN below every
    number; float32 rows put NaN last as usual."""
    for dt in ("float16", "float32"):
        h = floats((7, 3), dt)
        h[RNG.integers(0, 7, 3), RNG.integers(0, 3, 3)] = numpy.nan
        h = h if axis == 0 else h.T.copy()
        kw = dict(return_index=True, return_inverse=True, return_counts=True)
        check(np.unique(np.asarray(h), axis=axis, **kw), numpy.unique(h, axis=axis, **kw))
        check(np.unique(np.asarray(h), axis=axis), numpy.unique(h, axis=axis))


def test_isin_table_too_large_a_range():
    h1 = numpy.array([0, 2 ** 62])
    h2 = numpy.array([-2 ** 62, 1])
    raises_like(lambda: numpy.isin(h1, h2, kind="table"),
                lambda: np.isin(np.asarray(h1), np.asarray(h2), kind="table"))


# ---- bincount -------------------------------------------------------------------------------------
def test_bincount_of_a_list_of_floats():
    vals = [float(v) for v in RNG.integers(0, 9, 12)] + [2.7, 0.2]
    w = RNG.random(len(vals))
    for x, kw in [(vals, {}), (tuple(vals), {}), (vals, dict(weights=w)),
                  (vals, dict(minlength=20)), (["1", "3"], {})]:
        with pytest.warns(DeprecationWarning) as got:
            r = np.bincount(x, **{k: np.asarray(v) if isinstance(v, numpy.ndarray) else v
                                  for k, v in kw.items()})
        with pytest.warns(DeprecationWarning) as want:
            expected = numpy.bincount(x, **kw)
        assert str(got[0].message) == str(want[0].message)
        if "weights" in kw:         # a bin's weights summed in another order: ulps apart
            assert r.dtype == expected.dtype and r.shape == expected.shape
            numpy.testing.assert_allclose(r.get(), expected, rtol=1e-14)
        else:
            check(r, expected)


@pytest.mark.parametrize("x", [[-1.5], [1e20], [float("nan")], [1 + 1j], [2 ** 64], [-0.5]])
def test_bincount_of_bad_list_values(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            want = numpy.bincount(x)
        except Exception:           # noqa: BLE001 - NumPy's error is compared
            raises_like(lambda: numpy.bincount(x), lambda: np.bincount(x))
        else:
            check(np.bincount(x), want)


def test_bincount_argument_order():
    ok = numpy.array([1, 3, 3])
    neg = numpy.array([1, -1])
    cases = [
        (ok, dict(minlength=True)),
        (ok, dict(minlength=numpy.True_)),
        ([[1.5]], dict(minlength=None)),
        ([[1, 2]], {}),
        ([[]], {}),
        (3, dict(minlength=None)),
        (numpy.zeros(0, int), dict(weights=[1.0, 2.0])),
        (numpy.zeros(0, int), dict(weights=numpy.ones((2, 2)))),
        (numpy.zeros(0, int), dict(minlength=-1)),
        (neg, dict(weights=[1.0, 2.0, 3.0])),
        (neg, dict(weights=[[1.0]])),
        (neg, dict(minlength=-1)),
        (ok, dict(weights=[1.0, 2.0])),
        (numpy.array([2 ** 63], numpy.uint64), dict(weights=[1.0, 2.0])),
        (numpy.array([1.0]), dict(minlength=None)),
    ]
    for x, kw in cases:
        dx = np.asarray(x) if isinstance(x, numpy.ndarray) else x
        dkw = {k: np.asarray(v) if isinstance(v, numpy.ndarray) else v for k, v in kw.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                want = numpy.bincount(x, **kw)
            except Exception:       # noqa: BLE001 - NumPy's error is compared
                raises_like(lambda: numpy.bincount(x, **kw), lambda: np.bincount(dx, **dkw))
            else:
                check(np.bincount(dx, **dkw), want)


# ---- quantile / percentile / median ---------------------------------------------------------------
@pytest.mark.parametrize("f", ["percentile", "quantile", "nanpercentile", "nanquantile"])
@pytest.mark.parametrize("q", [None, [None], "a"])
def test_quantile_q_none(f, q):
    h = floats((3, 4))
    raises_like(lambda: getattr(numpy, f)(h, q), lambda: getattr(np, f)(np.asarray(h), q))


@pytest.mark.parametrize("odt", ["int64", "uint8", "bool", "float32"])
def test_median_quantile_nan_into_an_integer_out(odt):
    h = numpy.abs(floats((3, 4), nan=False))
    hn = h.copy()
    hn[1, 1] = numpy.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for data in (hn, h):
            d = np.asarray(data)
            calls = [("median", (), {}), ("quantile", (0.4,), dict(method="lower")),
                     ("quantile", (0.4,), dict(method="nearest")),
                     ("percentile", (40,), dict(method="inverted_cdf")),
                     ("nanmedian", (), {}), ("nanquantile", (0.4,), dict(method="lower"))]
            for f, args, kw in calls:
                def run(mod, arr, out):
                    return getattr(mod, f)(arr, *args, axis=1, out=out, **kw)
                try:
                    want = run(numpy, data, numpy.zeros(3, odt))
                except Exception:   # noqa: BLE001 - NumPy's error is compared
                    raises_like(lambda: run(numpy, data, numpy.zeros(3, odt)),
                                lambda: run(np, d, np.zeros(3, odt)))
                else:
                    got = run(np, d, np.zeros(3, odt))
                    if not numpy.isnan(data).any():
                        check(got, want)


@pytest.mark.parametrize("adt", ["float64", "float32", "int8", "bool"])
@pytest.mark.parametrize("odt", ["complex64", "float64", "int64", "uint8", "int8"])
def test_quantile_take_methods_out_casting(adt, odt):
    """The methods that take elements write them into out= by safe casting from out's
    dtype to the data's: NumPy's error where that cast is not safe."""
    h = RNG.integers(0, 9, size=(3, 4)).astype(adt)
    d = np.asarray(h)
    for f, q in (("quantile", 0.5), ("percentile", 50.0)):
        for method in ("lower", "higher", "nearest", "closest_observation", "inverted_cdf"):
            for shape in ((3,), ()):
                axis = 1 if shape else None
                def run(mod, arr, out):
                    return getattr(mod, f)(arr, q, axis=axis, method=method, out=out)
                try:
                    want = run(numpy, h, numpy.zeros(shape, odt))
                except Exception:   # noqa: BLE001 - NumPy's error is compared
                    raises_like(lambda: run(numpy, h, numpy.zeros(shape, odt)),
                                lambda: run(np, d, np.zeros(shape, odt)))
                else:
                    check(run(np, d, np.zeros(shape, odt)), want)
