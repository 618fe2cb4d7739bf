"""Complex log, log2, log10, log1p, exp and expm1 against NumPy at the edges of the float range
and at special values.

NumPy's complex log is glibc's clog: both parts subnormal are scaled by 2**53 before hypot, so
log|z| keeps every bit down to the smallest subnormal, and a modulus past the type's largest
value still has a finite log (glibc halves the parts).  Its exp is glibc's cexp, whose exp(-inf + iy), y inf or NaN, is
0 + i copysign(0, y).  log1p is NumPy's own log(hypot(1 + x, y)) in the part type, expm1 its
finite formula (npgpu's expm1 is exp(z) - 1 by parts where a part is not finite, as the Array
API's table, tests/test_complex_special_values.py).  Zeros and infinities must match with their
signs and NaNs by position; other parts agree within a few ulp of the part itself.
"""
import itertools

import numpy
import pytest

import npgpu

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
INF, NAN = numpy.inf, numpy.nan
COMPLEX = [numpy.complex64, numpy.complex128]
RTOL = {numpy.complex64: 4e-7, numpy.complex128: 2e-15}
LOGS = ["log", "log2", "log10"]


def _part(dt):
    return numpy.float32 if dt == numpy.complex64 else numpy.float64


def _by_parts(re, im, dt):
    """A complex array built part by part (complex arithmetic would lose -0 and NaN signs)."""
    z = numpy.empty(len(re), dt)
    z.real, z.imag = re, im
    return z


def _mismatches(got, want, rtol):
    """Indices where the parts differ: NaN by position, zeros and infinities with their sign,
    other values within rtol of the part."""
    got = got.get() if isinstance(got, npgpu.ndarray) else numpy.asarray(got)
    want = numpy.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    g, w = got.ravel(), want.ravel()
    bad = numpy.zeros(w.shape, bool)
    with numpy.errstate(invalid="ignore", over="ignore"):
        for gp, wp in ((g.real, w.real), (g.imag, w.imag)):
            exact = ~numpy.isfinite(wp) | (wp == 0)
            bad |= numpy.isnan(gp) != numpy.isnan(wp)
            bad |= exact & ~numpy.isnan(wp) & ((gp != wp) | (numpy.signbit(gp) !=
                                                              numpy.signbit(wp)))
            bad |= ~exact & ~(abs(gp.astype(float) - wp) <= rtol * abs(wp.astype(float)))
    return numpy.flatnonzero(bad)


def assert_as_numpy(got, want, z, rtol):
    bad = _mismatches(got, want, rtol)
    got = got.get() if isinstance(got, npgpu.ndarray) else got
    rows = [(z.ravel()[k], got.ravel()[k], numpy.asarray(want).ravel()[k]) for k in bad[:20]]
    assert not len(bad), f"{len(bad)} mismatches (z, npgpu, numpy): {rows}"


def _polar(e, rng, dt):
    """Points of moduli 2**e at random angles (a part past the type's range clipped to its
    largest value), and on both axes with both zero signs."""
    ft = _part(dt)
    big = numpy.finfo(ft).max
    th = rng.uniform(-numpy.pi, numpy.pi, len(e))
    with numpy.errstate(divide="ignore", over="ignore"):
        re, im = (numpy.copysign(numpy.minimum(numpy.exp2(e + numpy.log2(abs(t))), big), t)
                  .astype(ft) for t in (numpy.cos(th), numpy.sin(th)))
    m = numpy.minimum(numpy.exp2(e[:4]), big).astype(ft)
    z = numpy.array([0.0, -0.0], ft)
    axes_re = numpy.concatenate([m, -m, numpy.repeat(z, 4)])
    axes_im = numpy.concatenate([numpy.repeat(z, 4), numpy.tile(m[:2], 2), numpy.tile(-m[:2], 2)])
    return _by_parts(numpy.concatenate([re, axes_re]), numpy.concatenate([im, axes_im]), dt)


def _moduli(dt, which, rng, n=48):
    """log2 of n moduli."""
    fi = numpy.finfo(_part(dt))
    tiny, sub = numpy.log2(float(fi.tiny)), numpy.log2(float(fi.smallest_subnormal))
    top = numpy.log2(float(fi.max))
    lo, hi = {"subnormal": (sub + 1, tiny),        # down to twice the smallest subnormal
              "tiny": (tiny, tiny + 40),           # normal, the float32 squares underflow
              "huge": (top - 3, top + 0.5),        # past the type's largest value too
              "all": (sub + 1, top)}[which]
    return rng.uniform(lo, hi, n)


@pytest.mark.parametrize("dt", COMPLEX)
@pytest.mark.parametrize("which", ["subnormal", "tiny", "huge", "all"])
def test_log_extreme_moduli(dt, which):
    rng = numpy.random.default_rng(["subnormal", "tiny", "huge", "all"].index(which))
    z = _polar(_moduli(dt, which, rng), rng, dt)
    g = npgpu.asarray(z)
    for name in LOGS:
        assert_as_numpy(getattr(npgpu, name)(g), getattr(numpy, name)(z), z, RTOL[dt])


@pytest.mark.parametrize("dt", COMPLEX)
def test_log_named_points(dt):
    # the points that showed the defects: subnormal parts, moduli past the largest float
    pts = [(-1.1e-44, 4e-45), (1e-45, 0.0), (-1e-45, -0.0), (3e38, 3e38), (-3.4e38, 3.4e38),
           (1e-310, 1e-311), (-5e-324, 5e-324), (3e-320, -1e-315), (1.7e308, -1.7e308)]
    if dt == numpy.complex64:
        pts = pts[:5]
    z = _by_parts(*zip(*pts), dt)
    assert_as_numpy(npgpu.log(npgpu.asarray(z)), numpy.log(z), z, RTOL[dt])


@pytest.mark.parametrize("dt", COMPLEX)
@pytest.mark.parametrize("which", ["subnormal", "huge"])
def test_log1p_extreme_moduli(dt, which):
    # NumPy's log(hypot(1 + x, y)) in the part type, near -1 too (1 + x cancels to 0 there)
    rng = numpy.random.default_rng(11)
    z = _polar(_moduli(dt, which, rng, 24), rng, dt)
    z = numpy.concatenate([z, z - 1])
    assert_as_numpy(npgpu.log1p(npgpu.asarray(z)), numpy.log1p(z), z, RTOL[dt])


_SPECIAL = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -2.5, INF, -INF, NAN, -NAN]


def _special(dt):
    fi = numpy.finfo(_part(dt))
    parts = _SPECIAL + [float(fi.smallest_subnormal) * 3, -float(fi.tiny) / 5,
                        float(fi.max) / 2, -float(fi.max)]
    re, im = zip(*itertools.product(parts, parts))
    return _by_parts(re, im, dt)


def _expected(name, z):
    if name != "expm1":
        return getattr(numpy, name)(z)
    # NumPy's finite formula where both parts are finite, exp(z) - 1 by parts elsewhere
    w = numpy.expm1(z)
    e = numpy.exp(z)
    off = ~(numpy.isfinite(z.real) & numpy.isfinite(z.imag))
    w.real[off] = e.real[off] - 1
    w.imag[off] = e.imag[off]
    return w


@pytest.mark.parametrize("dt", COMPLEX)
@pytest.mark.parametrize("name", ["exp", "expm1", "log", "log2", "log10", "log1p"])
def test_special_value_grid(name, dt):
    z = _special(dt)
    want = _expected(name, z)
    # exp's scaled overflow path and the finite formulas round a little differently from glibc
    rtol = 1e-5 if dt == numpy.complex64 else 1e-13
    assert_as_numpy(getattr(npgpu, name)(npgpu.asarray(z)), want, z, rtol)


def test_exp_of_minus_inf_copies_the_imaginary_sign():
    # glibc's cexp(-inf + iy), y inf or NaN: 0 + i copysign(0, y); NaN's sign bit counts
    for dt in COMPLEX:
        z = _by_parts([-INF] * 4, [INF, -INF, NAN, -NAN], dt)
        got = npgpu.exp(npgpu.asarray(z)).get()
        want = numpy.exp(z)
        assert (got == 0).all()
        assert numpy.signbit(got.imag).tolist() == [False, True, False, True]
        assert numpy.signbit(got.imag).tolist() == numpy.signbit(want.imag).tolist()
        assert not numpy.signbit(got.real).any()


@pytest.mark.parametrize("dt", COMPLEX)
def test_exp_near_overflow(dt):
    # exp(x) overflows, exp(x) * cis(y) may not: C99's cexp scaling (random x on both sides)
    top = 709.78 if dt == numpy.complex128 else 88.72
    rng = numpy.random.default_rng(3)
    z = _by_parts(rng.uniform(top - 2, top + 1, 40), rng.uniform(-4, 4, 40), dt)
    assert_as_numpy(npgpu.exp(npgpu.asarray(z)), numpy.exp(z), z, 1e-5 if dt == numpy.complex64
                    else 1e-13)


@pytest.mark.parametrize("name", ["exp", "expm1", "log", "log2", "log10", "log1p"])
def test_layouts(name):
    # a reversed strided view of tiny/special values, a 0-d array and empty arrays
    rng = numpy.random.default_rng(5)
    for dt in COMPLEX:
        z = numpy.concatenate([_polar(_moduli(dt, "subnormal", rng, 8), rng, dt),
                               _special(dt)[::37]])
        base = numpy.stack([z, z[::-1]])
        view = npgpu.asarray(base)[1, ::-2]
        assert_as_numpy(getattr(npgpu, name)(view), _expected(name, base[1, ::-2]),
                        base[1, ::-2], 1e-5 if dt == numpy.complex64 else 1e-13)
        s = numpy.asarray(z[3])
        got = getattr(npgpu, name)(npgpu.asarray(s))
        assert got.shape == () and got.dtype == dt
        assert_as_numpy(got, _expected(name, s.reshape(1)).reshape(()), s, RTOL[dt])
        for shape in [(0,), (2, 0)]:
            e = getattr(npgpu, name)(npgpu.asarray(numpy.empty(shape, dt)))
            assert e.shape == shape and e.dtype == dt


@pytest.mark.parametrize("dt", COMPLEX)
def test_power_of_subnormal_base(dt):
    # complex power's generic path is cexp(b * clog(a)): a subnormal base keeps its log's bits
    ft = _part(dt)
    sub = float(numpy.finfo(ft).smallest_subnormal)
    a = _by_parts([sub * 7, -sub * 300, sub * 5, sub * 1e4], [sub * 3, sub * 11, -sub, 0.0], dt)
    b = numpy.array([0.01, 0.02 + 0.01j, -0.003, 0.015j], dt)
    with numpy.errstate(all="ignore"):
        want = numpy.power(a, b)
    assert_as_numpy(npgpu.power(npgpu.asarray(a), npgpu.asarray(b)), want, a,
                    1e-5 if dt == numpy.complex64 else 1e-13)
