"""Defects found by NumPy's own fft and polynomial tests (``fft/tests``, ``polynomial/tests``),
each checked against NumPy: ``asarray(x.flat)`` (the polynomial Vandermonde tests'
``dot(van, c.flat)``) stays on the device; FFT round trips within NumPy's 5-ulp tolerance (the
simulator's twiddle angles reduced to a quarter turn); ``divmod`` defers to an operand with
``__array_ufunc__ = None`` (``divmod(array, Chebyshev(...))``); ``polyutils.trimseq`` of a list
or tuple is NumPy's (same type)."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, make_layout, random_array

RNG = numpy.random.default_rng(1111)


# --- asarray of a flat iterator: NumPy's 1-d array, on the device --------------------------
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided", "negative",
                                    "zero_d", "empty"])
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128", "bool"])
def test_asarray_of_flat_matches_numpy(layout, dtype):
    d, h = make_layout(random_array((3, 5), dtype, RNG), layout)
    assert_same(np.asarray(d.flat), numpy.asarray(h.flat))
    assert_same(np.array(d.flat), numpy.array(h.flat))
    assert_same(np.asarray(d.flat, dtype=numpy.complex64), numpy.asarray(h.flat, dtype="c8"))
    # a C-contiguous array's flat array is a view of it (NumPy's), else a copy
    assert np.shares_memory(np.asarray(d.flat), d) == (d.flags.c_contiguous and d.size > 0)
    assert not np.shares_memory(np.array(d.flat), d)


def test_dot_with_flat_operand():
    # NumPy's TestVander: the Vandermonde matrix times the coefficients' flat iterator
    c = random_array((2, 3), "float64", RNG)
    van = random_array((5, 6), "float64", RNG)
    got = np.dot(np.asarray(van), np.asarray(c).flat)
    numpy.testing.assert_allclose(got.get(), numpy.dot(van, c.flat), rtol=1e-13)


# --- FFT round trips to within 5 ulp (NumPy's TestFFT1D.test_identity_long_short) ------------
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fft_round_trip_within_numpy_tolerance(dtype):
    eps = numpy.finfo(dtype).eps
    x = (RNG.random(16) + 1j * RNG.random(16)).astype(numpy.result_type(dtype, 1j))
    xr = RNG.random(16).astype(dtype)
    dx, dxr = np.asarray(x), np.asarray(xr)
    xx, xxr = numpy.concatenate([x, 0 * x]), numpy.concatenate([xr, 0 * xr])
    for n in range(1, 32):
        numpy.testing.assert_allclose(np.fft.ifft(np.fft.fft(dx, n=n), n=n).get(), xx[:n],
                                      atol=5 * eps, rtol=0)
        numpy.testing.assert_allclose(np.fft.fft(np.fft.ifft(dx, n=n), n=n).get(), xx[:n],
                                      atol=6 * eps, rtol=0)
        numpy.testing.assert_allclose(np.fft.irfft(np.fft.rfft(dxr, n=n), n=n).get(),
                                      xxr[:n], atol=5 * eps, rtol=0)
        numpy.testing.assert_allclose(np.fft.fft(dx, n=n).get(), numpy.fft.fft(x, n=n),
                                      atol=4 * eps * numpy.abs(x).sum(), rtol=0)


# --- divmod defers to an operand with __array_ufunc__ = None (NumPy's binop rule) --------------
class _Deferring:
    __array_ufunc__ = None

    def __divmod__(self, other):
        return "divmod"

    def __rdivmod__(self, other):
        return "rdivmod"


@pytest.mark.parametrize("xp", [numpy, np])
def test_divmod_defers_like_other_operators(xp):
    a = xp.asarray(random_array((4,), "float64", RNG))
    assert divmod(a, _Deferring()) == "rdivmod"
    assert divmod(_Deferring(), a) == "divmod"


def test_divmod_array_by_polynomial_class():
    from npgpu.polynomial import Chebyshev
    c1, c2, c3 = RNG.random(4) + .5, RNG.random(3) + .5, RNG.random(2) + .5
    p4 = numpy.polynomial.Chebyshev(c1) * numpy.polynomial.Chebyshev(c2) + c3
    want = divmod(p4.coef, numpy.polynomial.Chebyshev(c2))
    got = divmod(np.asarray(p4.coef), Chebyshev(c2))
    for g, w in zip(got, want):
        assert isinstance(g, Chebyshev)
        numpy.testing.assert_allclose(g.coef.get(), w.coef, rtol=1e-12, atol=1e-13)


# --- polyutils.trimseq of a host sequence: NumPy's, its type kept --------------------------------
@pytest.mark.parametrize("seq", [[1] + [0] * 3, [0, 0], [1], (2.5, 0, 0), [0, 1j, 0], [],
                                 [1, 0, 2, 0]])
def test_trimseq_of_sequences_matches_numpy(seq):
    from npgpu.polynomial import polyutils as pu
    want = numpy.polynomial.polyutils.trimseq(seq)
    got = pu.trimseq(seq)
    assert type(got) is type(want) and got == want


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_trimseq_of_device_arrays_matches_numpy(dtype):
    from npgpu.polynomial import polyutils as pu
    for h in (numpy.array([1, 2, 0, 0], dtype), numpy.zeros(3, dtype),
              numpy.array([0, 3], dtype), numpy.zeros(0, dtype)):
        assert_same(pu.trimseq(np.asarray(h)), numpy.polynomial.polyutils.trimseq(h))
