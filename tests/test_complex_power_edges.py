"""Complex ``power`` / ``float_power`` against NumPy at special values and on random data.

NumPy's complex power (npy_cpow) takes 1 for a zero exponent, 0 or nan+nanj for a zero base,
repeated naive products for an integral exponent below 100 in modulus, and else glibc's cpow:
cexp(b * clog(a)) with C's complex product (its inf/NaN recovery).  Every base with parts in
{0, -0, 1, -1, 2.5, inf, -inf, nan} meets each exponent below, as complex64 and complex128:
NaN positions, infinities and the sign of zero parts must be NumPy's, other values agree to a
few ulp of the result's modulus (a complex result's small part may be a rounding residue).
"""
import itertools

import numpy
import pytest

import npgpu as np

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
INF, NAN = numpy.inf, numpy.nan
PARTS = [0.0, -0.0, 1.0, -1.0, 2.5, INF, -INF, NAN]
EXPONENTS = [0.5, 1.5, 2, 3, -1, -2, 0, 0j, 1j, 0.5 + 0.5j, -0.5, 1e3]
# beyond the grid: both sides of the integer path's bound, signed imaginary parts, non-finite
MORE = [-1j, 2j, -0.5 - 0.5j, -1.5, 99, -99, 100, -100, -1e3, INF, -INF, NAN,
        complex(0, INF), complex(NAN, 1), complex(1, NAN), complex(-0.0, 2), complex(0.5, -0.0)]
COMPLEX = ["complex64", "complex128"]
RTOL = {"complex64": 2e-5, "complex128": 1e-12}


def bases(dt):
    """Every pair of parts (built by part: ``complex(-0.0, y)`` keeps the sign of a zero)."""
    re, im = zip(*itertools.product(PARTS, PARTS))
    z = numpy.empty(len(re), dt)
    z.real, z.imag = re, im
    return z


def grid(dt, exponents):
    """(base, exponent) arrays: every base against every exponent."""
    a = bases(dt)
    return numpy.repeat(a, len(exponents)), numpy.tile(numpy.array(exponents, dt), len(a))


def assert_same_values(got, want, a=None, b=None):
    """dtype and shape equal; NaN, +-inf and signed zeros where NumPy has them; other values
    within RTOL of the result's modulus.  Mismatches are listed with their operands."""
    got = got.get() if isinstance(got, np.ndarray) else numpy.asarray(got)
    want = numpy.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    g, w = got.ravel(), want.ravel()
    scale = numpy.maximum(abs(w.real), abs(w.imag))
    rtol = RTOL[want.dtype.name]
    bad = numpy.zeros(w.shape, bool)
    for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
        exact = ~numpy.isfinite(wp) | (wp == 0)
        bad |= numpy.isnan(gp) != numpy.isnan(wp)
        with numpy.errstate(invalid="ignore"):
            bad |= exact & ~numpy.isnan(wp) & ((gp != wp) | (numpy.signbit(gp) !=
                                                              numpy.signbit(wp)))
            bad |= ~exact & ~(abs(gp - wp) <= rtol * scale)
    if bad.any():
        k = numpy.flatnonzero(bad)[:20]
        ops = [] if a is None else list(zip(numpy.ravel(a)[k], numpy.ravel(b)[k]))
        raise AssertionError(f"{bad.sum()} of {bad.size} differ: operands {ops}, "
                             f"got {g[k]}, NumPy {w[k]}")


@pytest.mark.parametrize("dt", COMPLEX)
@pytest.mark.parametrize("exps", [EXPONENTS, MORE], ids=["grid", "more"])
@pytest.mark.parametrize("form", ["operator", "power", "float_power"])
def test_array_exponent(dt, exps, form):
    a, b = grid(dt, exps)
    with numpy.errstate(all="ignore"):
        if form == "operator":
            want, got = a ** b, np.asarray(a) ** np.asarray(b)
        else:
            want = getattr(numpy, form)(a, b)
            got = getattr(np, form)(np.asarray(a), np.asarray(b))
    if form == "float_power":
        assert want.dtype == numpy.complex128
    assert_same_values(got, want, a, b)


@pytest.mark.parametrize("dt", COMPLEX)
@pytest.mark.parametrize("e", EXPONENTS + [-1j, -1.5, 99, -1e3], ids=repr)
def test_python_scalar_exponent(dt, e):
    # ndarray.__pow__'s shortcuts (0.5 -> sqrt, -1 -> reciprocal, 2 -> square) on both sides
    a = bases(dt)
    d = np.asarray(a)
    with numpy.errstate(all="ignore"):
        assert_same_values(d ** e, a ** e, a, numpy.full(a.shape, e))
        assert_same_values(np.power(d, e), numpy.power(a, e), a, numpy.full(a.shape, e))
        assert_same_values(np.float_power(d, e), numpy.float_power(a, e))


@pytest.mark.parametrize("dt", COMPLEX)
def test_scalar_base_array_exponent(dt):
    e = numpy.array(EXPONENTS + MORE, dt)
    for s in [complex(-0.0, -2.0), complex(-INF, 0.0), complex(0.0, -INF), 2.5, -1.0, 0j]:
        with numpy.errstate(all="ignore"):
            want = numpy.asarray(s, dt) ** e
            assert_same_values(np.asarray(numpy.asarray(s, dt)) ** np.asarray(e), want)
            assert_same_values(s ** np.asarray(e), s ** e)


@pytest.mark.parametrize("dt", COMPLEX)
def test_named_cases(dt):
    # the cases where a polar formula (|a|**b, atan2 phase) gives other infinities or zeros
    cases = [(complex(-INF, 0), 0.5), (complex(-INF, 0), 1.5), (complex(0, -INF), 0.5),
             (complex(INF, 1), -0.5), (complex(2.5, 0), -INF), (complex(INF, INF), -0.5 - 0.5j),
             (complex(INF, NAN), -0.5), (complex(-1, 0), 0.5), (complex(-0.0, -2.0), 1j)]
    a = numpy.empty(len(cases), dt)
    a.real = [c[0].real for c in cases]
    a.imag = [c[0].imag for c in cases]
    b = numpy.array([c[1] for c in cases], dt)
    with numpy.errstate(all="ignore"):
        want = numpy.power(a, b)
    assert_same_values(np.power(np.asarray(a), np.asarray(b)), want, a, b)


@pytest.mark.parametrize("dt", COMPLEX)
@pytest.mark.parametrize("kind", ["real", "complex", "integer"])
def test_random(dt, kind):
    # |a| from 1e-3 to 1e3 at any phase; exponents real, complex, or integral (the fast path)
    rng = numpy.random.default_rng(["real", "complex", "integer"].index(kind))
    n = 300
    a = (10 ** rng.uniform(-3, 3, n) * numpy.exp(1j * rng.uniform(-numpy.pi, numpy.pi, n)))
    b = {"real": rng.uniform(-3, 3, n),
         "complex": rng.uniform(-3, 3, n) + 1j * rng.uniform(-3, 3, n),
         "integer": rng.integers(-12, 13, n).astype(float)}[kind]
    a, b = a.astype(dt), b.astype(dt)
    with numpy.errstate(all="ignore"):
        want = numpy.power(a, b)
    assert_same_values(np.power(np.asarray(a), np.asarray(b)), want, a, b)
    assert_same_values(np.float_power(np.asarray(a), np.asarray(b)), numpy.float_power(a, b))


@pytest.mark.parametrize("dt", COMPLEX)
def test_layouts(dt):
    a, b = grid(dt, EXPONENTS)
    a, b = a[:96].reshape(8, 12), b[:96].reshape(8, 12)
    d, e = np.asarray(a), np.asarray(b)
    with numpy.errstate(all="ignore"):
        cases = [
            (lambda xp, x, y: xp.power(x[::-1, ::3], y[::-1, ::3])),     # negative, strided
            (lambda xp, x, y: xp.power(x.T, y.T)),
            (lambda xp, x, y: xp.power(x[:, :1], y)),                    # broadcast base
            (lambda xp, x, y: xp.power(x, y[3])),                        # one exponent row
            (lambda xp, x, y: xp.power(x[2, 5].reshape(()), y[2, 5].reshape(()))),    # 0-d
            (lambda xp, x, y: xp.power(x[:0], y[:0])),                   # empty
            (lambda xp, x, y: xp.float_power(x[::2], y[::-2])),
        ]
        for f in cases:
            assert_same_values(f(np, d, e), f(numpy, a, b))
