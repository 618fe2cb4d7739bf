"""Defects found by NumPy's own casting and ``__array_function__`` tests
(``_core/tests/test_casting_unittests.py``, ``_core/tests/test_overrides.py``), each checked
against NumPy: ``astype(casting='same_value')`` (NumPy 2.4: a ValueError where a cast changes
a value) for every dtype pair, its edge values and layouts, and ``astype``'s message for an
unknown ``casting``."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, error_of, make_layout, random_array

RNG = numpy.random.default_rng(4242)
PAIRS = [(f, t) for f in ALL_DTYPES for t in ALL_DTYPES if f != t]


def _same_value(xp, a, to):
    with warnings.catch_warnings():
        # NumPy's cast warnings (ComplexWarning, invalid value): not what is compared here
        warnings.simplefilter("ignore")
        return a.astype(to, casting="same_value")


def _check(h, to, d=None):
    """npgpu's same_value cast of ``h`` (or its layout ``d``) against NumPy's: the values, or
    NumPy's ValueError with its message."""
    d = np.asarray(h) if d is None else d
    want = error_of(lambda: _same_value(numpy, h, to))
    got = error_of(lambda: _same_value(np, d, to))
    assert got == want
    if want is None:
        res = _same_value(np, d, to)
        ref = _same_value(numpy, h, to)
        assert res.dtype == ref.dtype and res.shape == ref.shape
        numpy.testing.assert_array_equal(res.get(), ref)


@pytest.mark.parametrize("f, t", PAIRS, ids=[f"{f.char}-{t.char}" for f, t in PAIRS])
def test_same_value_every_pair(f, t):
    # values every numeric type holds: the cast passes (bool: 0 and 1)
    small = RNG.integers(0, 2 if "b" in (f.kind, t.kind) else 100, size=12).astype(f)
    _check(small, t)
    # random data over the source's range: most narrowing casts fail, widening ones pass
    _check(random_array((3, 4), f, RNG, low=-300, high=300), t)


# edge values: (from, to, values); NumPy decides which pass
EDGES = [
    ("f8", "f4", [0.1]), ("f8", "f4", [1e300]), ("f8", "f4", [1e-50]),
    ("f8", "f4", [numpy.nan, numpy.inf, -numpy.inf, 1.5]), ("f4", "f2", [65520.0]),
    ("f8", "f2", [2049.0]), ("f8", "f2", [2048.0, -6e-8]),
    ("f8", "i4", [numpy.nan]), ("f8", "i8", [numpy.inf]), ("f4", "i8", [-numpy.inf]),
    ("f8", "i4", [1.5]), ("f8", "i4", [-0.0, 2.0**31 - 1]), ("f8", "i4", [2.0**31]),
    ("f8", "i8", [-(2.0**63)]), ("f8", "i8", [2.0**63]), ("f4", "u8", [2.0**64]),
    ("f8", "u8", [2.0**64 - 2048]), ("f8", "u1", [-1.0]), ("f2", "u1", [255.0]),
    ("f2", "u1", [256.0]), ("f2", "i2", [-32768.0]), ("f2", "u4", [numpy.inf]),
    ("i8", "f8", [2**53 + 1]), ("i8", "f8", [2**53, -(2**63)]), ("i8", "f8", [2**63 - 1]),
    ("u8", "f8", [2**64 - 1]), ("u8", "f4", [2**64 - 2**40]), ("i4", "f2", [70000]),
    ("i2", "f2", [32767]), ("i2", "f2", [2048, -2048]), ("i4", "f4", [2**24 + 1]),
    ("i8", "c8", [2**24 + 1]), ("u8", "c16", [2**63 + 1]),
    ("i1", "u1", [-1]), ("u1", "i1", [128]), ("i8", "u8", [-(2**63)]),
    ("u8", "i8", [2**63]), ("u8", "i8", [2**63 - 1]), ("i8", "i1", [127, -128]),
    ("c16", "f8", [1 + 1j]), ("c16", "f8", [1 + 0j, numpy.nan]), ("c16", "i4", [3 + 0j]),
    ("c16", "i4", [3 + 1e-9j]), ("c16", "c8", [numpy.nan + 1j, 0.5 - 2j]),
    ("c16", "c8", [0.1 + 0j]), ("c16", "c8", [1 + 0.1j]), ("c8", "f2", [numpy.inf + 0j]),
    ("f8", "c8", [1e300]), ("f8", "?", [0.5, numpy.nan]), ("i8", "?", [7, -1]),
    ("?", "f2", [True, False]),
]


@pytest.mark.parametrize("f, t, vals", EDGES, ids=[f"{f}-{t}-{i}" for i, (f, t, _) in
                                                   enumerate(EDGES)])
def test_same_value_edges(f, t, vals):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h = numpy.array(vals).astype(f)
    _check(h, numpy.dtype(t))


@pytest.mark.parametrize("layout", ["transposed", "strided", "negative", "broadcast", "zero_d",
                                    "empty"])
@pytest.mark.parametrize("f, t", [("f8", "i2"), ("c8", "f2"), ("i8", "u1")])
def test_same_value_layouts(layout, f, t):
    ok = RNG.integers(0, 100, size=(3, 5)).astype(f)
    bad = ok.copy()
    bad[1, 2] = -1.5 if numpy.dtype(f).kind != "c" else 2 + 1j
    for h in (ok, bad):
        d, hv = make_layout(h, layout)
        _check(hv, numpy.dtype(t), d)


def test_same_value_fails_at_one_element_among_many():
    h = RNG.integers(-100, 100, size=300).astype(numpy.float32)
    h[217] = 0.25
    _check(h, numpy.dtype(numpy.int8))
    _check(h[::-3], numpy.dtype(numpy.int8))


def test_same_value_no_copy():
    # same dtype, copy=False: NumPy returns the array itself, with nothing to check
    d = np.asarray(random_array((4,), numpy.float32, RNG))
    assert d.astype(numpy.float32, casting="same_value", copy=False) is d
    res = d.astype(numpy.float64, casting="same_value", copy=False)
    numpy.testing.assert_array_equal(res.get(), d.get().astype(numpy.float64))


@pytest.mark.parametrize("casting", ["bad", "SAFE", "", "same-value"])
def test_astype_unknown_casting_message(casting):
    h = numpy.arange(3)
    assert error_of(lambda: np.asarray(h).astype("f4", casting=casting)) == \
        error_of(lambda: h.astype("f4", casting=casting))


@pytest.mark.parametrize("vals", [[1.5 + 1j], [1 + 1j, 1.5], [1.5, 1 + 1j], [300 + 0j, 1 + 1j],
                                  [1 + 1j, 300], [2, 1 - 1j, 0.5]])
@pytest.mark.parametrize("t", ["i4", "u1", "f4", "f2"])
def test_same_value_complex_to_real_message(vals, t):
    # NumPy's message is the first failing element's reason: its real part, then "imag is not 0"
    _check(numpy.array(vals, numpy.complex128), numpy.dtype(t))
