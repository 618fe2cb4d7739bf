"""npgpu.emath against numpy.emath: the complex answer where a real input leaves the real
domain (the whole array turns complex, as NumPy decides), real answers otherwise, NumPy's
complex64/complex128 choice, and numpy.emath's calls on npgpu arrays."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same

RNG = numpy.random.default_rng(31)
INSIDE = RNG.uniform(0.05, 0.95, 12)                 # in every function's real domain
MIXED = RNG.uniform(-3, 3, 12)


def _close(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 2e-6 if want.dtype in (numpy.float32, numpy.complex64) else 1e-13
    numpy.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"])
@pytest.mark.parametrize("data", ["inside", "mixed", "f4_mixed", "i2_mixed", "complex"])
def test_unary(name, data):
    h = {"inside": INSIDE, "mixed": MIXED, "f4_mixed": MIXED.astype("f4"),
         "i2_mixed": (MIXED * 3).astype("i2"),
         "complex": MIXED + 1j * RNG.uniform(-1, 1, 12)}[data]
    with numpy.errstate(all="ignore"):
        want = getattr(numpy.emath, name)(h)
    got = getattr(np.emath, name)(np.asarray(h)[::-1])
    _close(got, want[::-1])
    assert type(getattr(numpy.emath, name)(np.asarray(h))) is np.ndarray   # NumPy dispatches


def test_logn_power_and_layouts():
    x = MIXED.reshape(3, 4)
    d = np.asarray(x)
    with numpy.errstate(all="ignore"):
        _close(np.emath.logn(2, d.T), numpy.emath.logn(2, x.T))
        _close(np.emath.logn(np.asarray(INSIDE[:4]), d), numpy.emath.logn(INSIDE[:4], x))
        _close(np.emath.power(d[:, ::2], 2), numpy.emath.power(x[:, ::2], 2))
        _close(np.emath.power(np.asarray(INSIDE), 0.5), numpy.emath.power(INSIDE, 0.5))
        ints = numpy.arange(-3, 5)
        _close(np.emath.power(np.asarray(ints), np.asarray(numpy.array([2, -1] * 4))),
               numpy.emath.power(ints, numpy.array([2, -1] * 4)))
    empty = numpy.zeros((0, 3))
    assert_same(np.emath.sqrt(np.asarray(empty)), numpy.emath.sqrt(empty))
    _close(np.emath.sqrt(np.asarray(numpy.float64(-4.0))), numpy.asarray(numpy.emath.sqrt(-4.0)))
