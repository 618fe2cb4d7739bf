"""Minimal reproductions of the defects the signal-processing workloads found
(tests/test_workloads_signal.py), each against NumPy 2.

Complex division, reciprocal and power: on the GPU the loops were Numba's complex operators,
which raise ZeroDivisionError for a zero divisor or a zero base (a kernel cannot raise: the
element came back unwritten, 0 or garbage) and take integer powers in polar form (``1j ** 3``
gave ``-1.8e-16 - 1j``).  The simulator computes those operators with NumPy scalars, so the
values agree there either way; the kernels' sources show which code runs on the GPU."""
import warnings

import numpy as np
import pytest

import npgpu
from conftest import launched

COMPLEX = [np.complex64, np.complex128]
_SP = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1, -2.5, 1e30, 1e-30, 0.75])
SPECIAL = np.empty((_SP.size, _SP.size), complex)
SPECIAL.real, SPECIAL.imag = _SP[:, None], _SP[None, :]   # no inf * 1j (NaN parts)
SPECIAL = SPECIAL.ravel()


def _same_bits(got, want):
    """Equal values, NaN where NumPy has NaN, and the signs of zeros NumPy gives."""
    assert got.dtype == want.dtype and got.shape == want.shape
    g, w = got.view(got.real.dtype), want.view(want.real.dtype)
    nan = np.isnan(w)
    np.testing.assert_array_equal(np.isnan(g), nan)
    np.testing.assert_array_equal(g[~nan], w[~nan])
    np.testing.assert_array_equal(np.signbit(g[~nan]), np.signbit(w[~nan]))


def _numpy(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return f(*args)


def test_real_and_imag_setters():
    # NumPy: ``a.real = v`` / ``a.imag = v`` write through the views (were AttributeError)
    rng = np.random.default_rng(0)
    h = (rng.standard_normal(6) + 1j * rng.standard_normal(6)).astype(np.complex64)
    for xp in (np, npgpu):
        z = xp.asarray(h.copy())
        z.real = xp.arange(6, dtype=xp.float32)
        z.imag[::2] = -1.5
        z.imag[1::2] *= 2
        if xp is np:
            want = z
        else:
            got = z.get()
    np.testing.assert_array_equal(got, want)
    a, b = np.arange(3), npgpu.arange(3)
    a.real = [1.7, 2, 3]                     # a real array: ``a[...] = v`` (cast unsafely)
    b.real = npgpu.asarray([1.7, 2, 3])
    np.testing.assert_array_equal(b.get(), a)
    with pytest.raises(TypeError, match="array does not have imaginary part to set"):
        npgpu.arange(3.0).imag = 1
    with pytest.raises(AttributeError):
        del npgpu.zeros(2, complex).real


@pytest.mark.parametrize("dt", COMPLEX)
def test_complex_division_special_values(dt):
    h = SPECIAL.astype(dt)
    rng = np.random.default_rng(1)
    perm = h[rng.permutation(h.size)]
    d, dp = npgpu.asarray(h), npgpu.asarray(perm)
    out, seen = launched(lambda: d / dp)
    assert any("h_cdiv(" in k.source.source for k in seen)      # NumPy's loop, not Numba's /
    _same_bits(out.get(), _numpy(np.divide, h, perm))
    _same_bits((d / npgpu.zeros_like(d)).get(), _numpy(np.divide, h, np.zeros_like(h)))
    _same_bits((d / 0.0).get(), _numpy(np.divide, h, 0.0))
    _same_bits((2.5 / d).get(), _numpy(np.divide, 2.5, h))
    r = (rng.standard_normal(40) + 1j * rng.standard_normal(40)).astype(dt)
    _same_bits((npgpu.asarray(r[:20]) / npgpu.asarray(r[20:])).get(), r[:20] / r[20:])


@pytest.mark.parametrize("dt", COMPLEX)
def test_complex_reciprocal_and_power_minus_one(dt):
    # NumPy's reciprocal is Smith's 1/z (1/0 is nan+nanj, 1/(inf+0j) is 0-0j) and ``z ** -1``
    # (a Python int) is reciprocal: npgpu gave the quotient's inf+nanj and power's NaN
    h = SPECIAL.astype(dt)
    d = npgpu.asarray(h)
    _same_bits(npgpu.reciprocal(d).get(), _numpy(np.reciprocal, h))
    _same_bits((d ** -1).get(), _numpy(lambda v: v ** -1, h))
    e = d.copy()
    e **= -1
    _same_bits(e.get(), _numpy(lambda v: v ** -1, h))
    # a real array's ** -1 stays power's (same values), an integer one still raises NumPy's error
    x = np.array([-np.inf, -0.0, 2.0, 3.0], np.float32)
    _same_bits((npgpu.asarray(x) ** -1).get(), _numpy(lambda v: v ** -1, x))
    with pytest.raises(ValueError, match="Integers to negative integer powers"):
        npgpu.arange(1, 4) ** -1


@pytest.mark.parametrize("dt", COMPLEX)
@pytest.mark.parametrize("e", [0, 1, 2, 3, 5, -1, -2, -3, 7, 99, -99])
def test_complex_integral_power(dt, e):
    # NumPy multiplies out integral exponents below 100 (1j ** 3 is exactly -0-1j); a zero base
    # gives 0 for Re(e) > 0, else nan+nanj
    rng = np.random.default_rng(2)
    h = np.concatenate([SPECIAL, rng.standard_normal(20) + 1j * rng.standard_normal(20),
                        [1j, -1j, 1 + 1j]]).astype(dt)
    out, seen = launched(lambda: npgpu.power(npgpu.asarray(h), npgpu.asarray(np.array(e, dt))))
    assert any("h_cpow(" in k.source.source for k in seen)
    _same_bits(out.get(), _numpy(np.power, h, np.array(e, dt)))


@pytest.mark.parametrize("dt", COMPLEX)
def test_complex_power_zero_base_and_general(dt):
    z = np.zeros(6, dt)
    b = np.array([1 + 1j, 1j, -1 + 1j, 0.5, np.inf, 0], dt)
    _same_bits(npgpu.power(npgpu.asarray(z), npgpu.asarray(b)).get(), _numpy(np.power, z, b))
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(12) + 1j * rng.standard_normal(12)).astype(dt)
    tol = 1e-5 if dt == np.complex64 else 1e-12
    for p in (2.5, 1 + 1j, -0.5j):
        got = npgpu.power(npgpu.asarray(a), p).get()
        want = np.power(a, p)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=tol)


def test_complex_float_power_uses_numpys_power():
    # float_power's complex128 loop is power's (a zero base to a negative or complex exponent:
    # nan+nanj, which Numba's ** raised for on the GPU)
    z = np.array([0j, 1j, 2 + 1j, 0j, -0.0 + 0j], np.complex64)
    e = np.array([-1, 3, 2.5, 1j, 2])
    out, seen = launched(lambda: npgpu.float_power(npgpu.asarray(z), npgpu.asarray(e)))
    assert any("h_cpow(" in k.source.source for k in seen)
    want = _numpy(np.float_power, z, e)
    got = out.get()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=0, equal_nan=True)
