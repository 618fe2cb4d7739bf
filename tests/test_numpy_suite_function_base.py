"""Defects found by NumPy's own function_base, type_check and ufunclike tests, each checked
against NumPy: iscomplexobj's duck-typed dtypes, windows of a 0-d device length, vectorize's
assigned otypes and math builtins, delete's Fortran order, an object q of quantile."""
import cmath
import math
from decimal import Decimal
from fractions import Fraction

import numpy
import pytest

import npgpu as np
from conftest import assert_matches, assert_same, make_layout, random_array


# ---- iscomplexobj / isrealobj -----------------------------------------------------------------
class _PdComplex(numpy.complex128):
    pass


class _PdDtype:
    """A dtype look-alike as pandas' extension dtypes: not a numpy.dtype, but has ``type``."""
    name = "category"
    names = None
    type = _PdComplex
    kind = "c"
    str = "<c16"
    base = numpy.dtype("complex128")


class _DuckPd:
    dtype = _PdDtype


class _DtypeIsPythonType(list):
    """``dtype`` without a ``type`` attribute: NumPy falls back to ``asarray(x).dtype``."""
    @property
    def dtype(self):
        return complex


@pytest.mark.parametrize("x", [_DuckPd(), _DtypeIsPythonType([1 + 0j, 2j]),
                               _DtypeIsPythonType([1.0, 2.0])])
def test_iscomplexobj_duck_dtypes(x):
    assert np.iscomplexobj(x) is numpy.iscomplexobj(x)
    assert np.isrealobj(x) is numpy.isrealobj(x)


# ---- window functions: a 0-d device length ----------------------------------------------------
@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("dt", ["int8", "uint64", "bool", "float16", "float32", "float64"])
def test_window_of_0d_device_length(name, dt):
    # NumPy's test_filterwindows passes ``array(M, dtype)[()]``: a 0-d device array in npgpu
    for M in (0, 1, 6):
        got = getattr(np, name)(np.array(M, dtype=dt)[()])
        want = getattr(numpy, name)(numpy.array(M, dtype=dt)[()])
        assert_matches(got, want, rtol=1e-13, atol=1e-15)


def test_kaiser_of_0d_device_arguments():
    for dt in ("int16", "float32", "float64"):
        M, beta = numpy.array(7, dtype=dt), numpy.float32(2.5)
        assert_matches(np.kaiser(np.asarray(M), np.asarray(beta)), numpy.kaiser(M, beta),
                       rtol=1e-13, atol=1e-15)


# ---- vectorize ----------------------------------------------------------------------------------
def test_vectorize_otypes_assigned_after_construction():
    f, fh = np.vectorize(lambda x: x * 2), numpy.vectorize(lambda x: x * 2)
    x = random_array((7,), "int64")
    assert_same(f(np.asarray(x)), fh(x))
    for ot in ("i", "f", "d", [numpy.int16]):
        f.otypes = fh.otypes = ot
        assert_same(f(np.asarray(x)), fh(x))
        assert_same(f(np.asarray(x[::-2])), fh(x[::-2]))
    f.otypes = fh.otypes = "i"
    assert_same(f(np.zeros((0, 5), dtype=int)), fh(numpy.zeros((0, 5), dtype=int)))
    with pytest.raises(ValueError, match="^Invalid otype specified: !$"):
        f.otypes = "?!"
    assert np.vectorize(abs, otypes=[float, "i1"]).otypes == \
        numpy.vectorize(abs, otypes=[float, "i1"]).otypes


@pytest.mark.parametrize("fn, nargs, dt", [(math.cos, 1, "float64"), (math.atan2, 2, "float64"),
                                           (math.exp, 1, "int32"), (cmath.sqrt, 1, "float64"),
                                           (cmath.exp, 1, "complex128")])
def test_vectorize_of_math_builtins(fn, nargs, dt):
    xs = [random_array((6,), dt, rng=numpy.random.default_rng(k)) for k in range(nargs)]
    xs = [x / 10 if x.dtype.kind in "fc" else x % 5 for x in xs]
    got = np.vectorize(fn)(*(np.asarray(x) for x in xs))
    want = numpy.vectorize(fn)(*xs)
    assert_matches(got, want)


# ---- delete keeps a Fortran-ordered array's order -----------------------------------------------
@pytest.mark.parametrize("obj", [slice(60, None), slice(1, 3), slice(None, None, 2),
                                 slice(None, None, -2), slice(3, 1), 1, -2, [2]])
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_delete_fortran_order(obj, axis):
    h = numpy.asfortranarray(random_array((4, 5, 3), "float32"))
    got = np.delete(np.asarray(h, order="F"), obj, axis=axis)
    want = numpy.delete(h, obj, axis=axis)
    assert_same(got, want)
    assert got.flags.f_contiguous == want.flags.f_contiguous
    assert got.flags.c_contiguous == want.flags.c_contiguous


def test_delete_c_and_strided_order():
    h = random_array((4, 6), "int32")
    for d, hh in (make_layout(h, "contiguous"), make_layout(h, "negative"),
                  make_layout(h, "transposed")):
        for obj in (slice(1, 3), 2, slice(None, None, 3)):
            got, want = np.delete(d, obj, axis=1), numpy.delete(hh, obj, axis=1)
            assert_same(got, want)
            assert got.flags.c_contiguous == want.flags.c_contiguous


# ---- quantile/percentile of an object q ---------------------------------------------------------
@pytest.mark.parametrize("q", [Fraction(1), Fraction(1, 2), [Fraction(1, 3)], Decimal("0.5")])
@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile", "nanpercentile"])
def test_order_stat_object_q_is_type_error(q, name):
    # NumPy computes in object dtype (a Fraction result); npgpu has no object dtype: TypeError
    # instead of a KeyError from the kernel renderer
    with pytest.raises(TypeError, match="npgpu does not support dtype object"):
        getattr(np, name)(np.arange(4.0), q)
