"""Operations whose simulator and GPU forms could part at special values, against NumPy.

The simulator evaluates a kernel's source with NumPy scalars and CPython's ``math``/``cmath``;
the GPU runs Numba's lowering of the same source (libdevice, Numba's own cmath).  Each loop
here is written so both compute one formula (npgpu/ufuncs/helpers.py), and these inputs are
where the two used to differ or could: complex sqrt of huge and subnormal parts (Numba's GPU
sqrt halved the imaginary part past 7.4e307 and lost bits below 2**-1022), the inverse
trigonometric functions next to their branch points, float_power of an infinite base, signbit
of a NaN, complex products and quotients of special values, float and integer division edges,
wrapping integer arithmetic, shifts past the width, NaN in maximum/minimum, float16 arithmetic
and float-to-integer casts of NaN and infinities.  On the simulator they check the formula
against NumPy; the GPU suite runs the same file.
"""
import itertools

import numpy
import pytest

import npgpu as np
from conftest import ON_GPU, make_layout

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
INF, NAN = numpy.inf, numpy.nan
LAYOUTS = ["contiguous", "strided", "negative", "broadcast", "zero_d"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
# finite powers: libdevice's pow is within 2 ulp (CUDA's documented bound), glibc's rounds right
POW_ULP = 2 if ON_GPU else 0
RTOL = {"complex64": 2e-6, "complex128": 1e-14}


def host(x):
    return x.get() if isinstance(x, np.ndarray) else numpy.asarray(x)


def assert_exact(got, want, nulp=0):
    """dtype, shape, values, NaN positions and the sign of zeros (and infinities) as NumPy's;
    ``nulp``: finite nonzero values may be that many units in the last place off (libdevice's
    ``pow`` is within 2 ulp, glibc's correctly rounded)."""
    got, want = host(got), numpy.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    parts = [(got.real, want.real)] + ([(got.imag, want.imag)] if want.dtype.kind == "c" else [])
    for g, w in parts:
        nan = numpy.isnan(w) if w.dtype.kind == "f" else numpy.zeros(w.shape, bool)
        bad = (numpy.isnan(g) if g.dtype.kind == "f" else False) != nan
        if nulp and w.dtype.kind == "f":
            near = numpy.isfinite(w) & (w != 0) & (numpy.isfinite(g))
            with numpy.errstate(invalid="ignore"):
                near &= abs(g.astype(w.dtype) - w) <= nulp * numpy.spacing(abs(w))
            bad = bad | (~nan & ~near & (g != w))
        else:
            bad = bad | (~nan & (g != w))
        if w.dtype.kind == "f":
            bad = bad | (~nan & (numpy.signbit(g) != numpy.signbit(w)))
        assert not bad.any(), (g[bad][:10], w[bad][:10])


def assert_close(got, want, atol=0.0):
    """NaN and infinity positions and the sign of zero and infinite parts as NumPy's; other
    parts within RTOL of the result's modulus (plus ``atol``: subnormal results)."""
    got, want = host(got), numpy.asarray(want)
    assert (got.dtype, got.shape) == (want.dtype, want.shape)
    scale = numpy.fmax(abs(want.real), abs(want.imag))
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        exact = ~numpy.isfinite(w) | (w == 0)
        bad = numpy.isnan(g) != numpy.isnan(w)
        with numpy.errstate(invalid="ignore"):
            bad |= exact & ~numpy.isnan(w) & ((g != w) | (numpy.signbit(g) != numpy.signbit(w)))
            bad |= ~exact & ~(abs(g - w) <= RTOL[want.dtype.name] * scale + atol)
        assert not bad.any(), (got[bad][:10], want[bad][:10])


def complex_array(values, dt):
    """Built by parts, so ``complex(-0.0, y)`` keeps the sign of a zero."""
    z = numpy.empty(len(values), dt)
    z.real = [complex(v).real for v in values]
    z.imag = [complex(v).imag for v in values]
    return z


# ---- complex sqrt and the inverse trigonometric functions ----------------------------------------
SQRT_VALUES = [1e308 + 1e308j, -1e308 + 1e308j, 8e307 + 1j, -8e307 - 1j, 1j * 1.7e308,
               5e-324 + 5e-324j, -1e-320 + 3e-321j, 1e-310 - 2e-310j, 2e38 + 2e38j,
               -2e38 + 1e38j, 3e38 - 1e-30j, 1.5e-45 + 1.5e-45j, complex(-0.0, -0.0), 0j,
               3 - 4j, -0.25 + 1e-3j, complex(INF, NAN), complex(-INF, 1), complex(NAN, 2),
               complex(1, INF)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dt", COMPLEX)
def test_complex_sqrt_huge_and_subnormal(dt, layout):
    d, h = make_layout(complex_array(SQRT_VALUES, dt).reshape(4, 5), layout)
    assert_close(np.sqrt(d), numpy.sqrt(h))


# next to the branch points +-1, +-i, with parts down to the smallest subnormal
NEAR_BRANCH = [1 + 5e-324j, 1 - 1e-320j, -1 + 5e-324j, 5e-324 - 1j, -5e-324 + 1j, 1 + 1e-300j,
               complex(1, -0.0), 1.0000001 + 1e-200j, 0.9999999 - 1e-200j, 1e308 + 1e308j,
               -3e307 + 2j, 1.5e-45 + 1j, 1 + 1.5e-45j, 3 - 4j]


@pytest.mark.parametrize("name", ["arccos", "arccosh", "arcsinh", "arcsin"])
@pytest.mark.parametrize("dt", COMPLEX)
def test_complex_inverse_trig_near_branch_points(dt, name):
    z = complex_array(NEAR_BRANCH, dt)
    # CPython's algorithms (the simulator's and now the GPU's) and glibc's (NumPy's) part by
    # a subnormal ulp or two where a part of the result is subnormal
    assert_close(getattr(np, name)(np.asarray(z)), getattr(numpy, name)(z), atol=1e-322)


# ---- float powers ------------------------------------------------------------------------------
BASES = [-INF, INF, -0.0, 0.0, -2.0, 2.0, -0.5, NAN, 1.0, -1.0]
EXPONENTS = [1.5, 3.0, -3.0, -1.5, 2.0, 0.5, -0.5, INF, -INF, NAN, 0.0, -0.0, 1.0, -1.0]


def pow_grid(dt):
    b, e = zip(*itertools.product(BASES, EXPONENTS))
    return numpy.array(b, dt), numpy.array(e, dt)


@pytest.mark.parametrize("dt", FLOATS)
def test_float_power_special_values(dt):
    b, e = pow_grid(dt)
    assert_exact(np.float_power(np.asarray(b), np.asarray(e)), numpy.float_power(b, e), POW_ULP)
    assert_exact(np.power(np.asarray(b), np.asarray(e)), numpy.power(b, e), POW_ULP)


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_float_power_scalar_exponent(dt):
    b = numpy.array(BASES, dt)
    for e in (1.5, -1.5, 3.0, 0.5):
        assert_exact(np.float_power(np.asarray(b), e), numpy.float_power(b, e), POW_ULP)
        assert_exact(np.power(np.asarray(b), dt and numpy.dtype(dt).type(e)),
                     numpy.power(b, numpy.dtype(dt).type(e)), POW_ULP)


# ---- signbit, copysign of NaN ------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS)
def test_signbit_and_copysign_of_nan(dt):
    if ON_GPU and dt == "float16":
        # measured on the H100: the float16 -> float32 conversion every float16 loop starts with
        # (cvt.f32.f16) returns a positive NaN for -NaN, so the sign of a float16 NaN is lost
        pytest.xfail("float16 NaN sign is lost in the GPU's half-to-float conversion")
    x = numpy.array([-NAN, NAN, -0.0, 0.0, -INF, INF, -1.5, 2.0], dt)
    d = np.asarray(x)
    assert_exact(np.signbit(d), numpy.signbit(x))
    y = numpy.ones_like(x)
    assert_exact(np.copysign(np.asarray(y), d), numpy.copysign(y, x))


# ---- complex products and quotients ------------------------------------------------------------
PARTS = [0.0, -0.0, 1.0, -2.5, INF, -INF, NAN, 1e300]


def complex_grid(dt):
    zs = [complex(a, b) for a, b in itertools.product(PARTS, PARTS)]
    x, y = zip(*itertools.product(zs[::3], zs))
    return complex_array(x, dt), complex_array(y, dt)


def naive_product(x, y):
    """NumPy's scalar (npymath) complex product, part by part.  Its complex128 SIMD loop on an
    FMA machine (any stride) fuses a*c - b*d (fmaddsub): (1e300+1e300j)**2 is -inf+infj there,
    nan+infj in the scalar loop and in npgpu (kernels: -fma=0)."""
    z = numpy.empty_like(x)
    z.real = x.real * y.real - x.imag * y.imag
    z.imag = x.real * y.imag + x.imag * y.real
    return z


@pytest.mark.parametrize("dt", COMPLEX)
def test_complex_multiply_divide_special_values(dt):
    x, y = complex_grid(dt)
    a, b = np.asarray(x), np.asarray(y)
    assert_close(a * b, naive_product(x, y))
    assert_close(a[::-3] * b[::-3], naive_product(x[::-3], y[::-3]))
    assert_close(a / b, x / y)
    assert_close(np.reciprocal(b), numpy.reciprocal(y))


# ---- float division edges ----------------------------------------------------------------------
FLOAT_OPERANDS = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -7.0, INF, -INF, NAN, 1e-3, 6e4]


def assert_division_family(a, b, x, y):
    """floor_divide, remainder, fmod and divmod of device a, b equal NumPy's of host x, y."""
    for name in ("floor_divide", "remainder", "fmod"):
        assert_exact(getattr(np, name)(a, b), getattr(numpy, name)(x, y))
    for got, want in zip(np.divmod(a, b), numpy.divmod(x, y)):
        assert_exact(got, want)


@pytest.mark.parametrize("layout", ["contiguous", "strided", "negative"])
@pytest.mark.parametrize("dt", FLOATS)
def test_float_floor_divide_remainder_fmod(dt, layout):
    x, y = (numpy.array(v, dt) for v in zip(*itertools.product(FLOAT_OPERANDS, repeat=2)))
    a, x = make_layout(x, layout)
    b, y = make_layout(y, layout)
    assert_division_family(a, b, x, y)


# ---- integer division, wrapping, shifts ------------------------------------------------------
def int_operands(dt):
    info = numpy.iinfo(dt)
    vals = [info.min, info.max, 0, 1, 7, 3, info.max - 1]
    if info.min < 0:
        vals += [-1, -7, -3, info.min + 1]
    return numpy.array(vals, dt)


def int_pairs(dt):
    """Every (x, y) of :func:`int_operands`: host x, y and their device copies."""
    v = int_operands(dt)
    x, y = numpy.repeat(v, len(v)), numpy.tile(v, len(v))
    return v, x, y, np.asarray(x), np.asarray(y)


@pytest.mark.parametrize("dt", INTS)
def test_integer_division_by_zero_and_min_by_minus_one(dt):
    v, x, y, a, b = int_pairs(dt)
    assert_division_family(a, b, x, y)


@pytest.mark.parametrize("dt", INTS)
def test_integer_overflow_wraps(dt):
    v, x, y, a, b = int_pairs(dt)
    for name in ("add", "subtract", "multiply"):
        assert_exact(getattr(np, name)(a, b), getattr(numpy, name)(x, y))
    for name in ("negative", "absolute", "square"):
        assert_exact(getattr(np, name)(np.asarray(v)), getattr(numpy, name)(v))
    e = numpy.array([0, 1, 2, 3, 7, 63, 64, 65], dt)
    xb, ye = numpy.repeat(v, len(e)), numpy.tile(e, len(v))
    assert_exact(np.power(np.asarray(xb), np.asarray(ye)), numpy.power(xb, ye))


@pytest.mark.parametrize("dt", INTS)
def test_shifts_past_the_width(dt):
    bits = numpy.dtype(dt).itemsize * 8
    v = int_operands(dt)
    s = [0, 1, bits - 1, bits, bits + 1, 63, 64, 65, 100]
    if numpy.dtype(dt).kind == "i":
        s += [-1, -64]
    s = numpy.array([k for k in s if numpy.iinfo(dt).min <= k <= numpy.iinfo(dt).max], dt)
    x, y = numpy.repeat(v, len(s)), numpy.tile(s, len(v))
    for name in ("left_shift", "right_shift"):
        assert_exact(getattr(np, name)(np.asarray(x), np.asarray(y)), getattr(numpy, name)(x, y))


# ---- NaN in maximum / minimum ------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS + COMPLEX)
def test_maximum_minimum_nan_either_side(dt):
    vals = [NAN, -NAN, 1.0, -1.0, 0.0, -0.0, INF, -INF]
    if numpy.dtype(dt).kind == "c":
        vals += [complex(1, NAN), complex(NAN, 0), complex(0, -0.0), complex(1, 2)]
        mk = lambda v: complex_array(v, dt)  # noqa: E731
    else:
        mk = lambda v: numpy.array(v, dt)  # noqa: E731
    x, y = (mk(list(v)) for v in zip(*itertools.product(vals, repeat=2)))
    a, b = np.asarray(x), np.asarray(y)
    for name in ("maximum", "minimum", "fmax", "fmin"):
        assert_exact(getattr(np, name)(a, b), getattr(numpy, name)(x, y))


# ---- float16 arithmetic ------------------------------------------------------------------------
@pytest.mark.parametrize("layout", ["contiguous", "negative", "broadcast"])
def test_float16_arithmetic_rounds_each_op(rng, layout):
    x = (rng.standard_normal((6, 10)) * 300).astype("float16")
    y = (rng.standard_normal((6, 10)) * 3).astype("float16")
    y[0, :4] = [0.0, -0.0, INF, NAN]
    x[1, :3] = [65504.0, -65504.0, 6e-8]
    a, x = make_layout(x, layout)
    b, y = make_layout(y, layout)
    for name in ("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
                 "maximum", "hypot", "arctan2"):
        assert_exact(getattr(np, name)(a, b), getattr(numpy, name)(x, y))


# ---- float-to-integer casts of NaN, infinities and out-of-range values ---------------------------
# (uint32 of NaN and of values below -2**31 takes another x86 sequence in NumPy: casts.py)
@pytest.mark.parametrize("src", ["float32", "float64"])
@pytest.mark.parametrize("dst", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint64"])
def test_float_to_int_cast_special_values(src, dst):
    x = numpy.array([NAN, INF, -INF, 1e20, -1e20, 300.7, -3.7, 200.5, 2.0 ** 63, -2.0 ** 63,
                     4e9, -0.0], src)
    assert_exact(np.asarray(x).astype(dst), x.astype(dst))
