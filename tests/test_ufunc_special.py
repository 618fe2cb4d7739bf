"""Special values and edge cases, exact against NumPy: NaN/inf/+-0 inputs, integer extremes,
division by zero, INT_MIN // -1, shifts past the bit width, complex ordering, errors."""
import warnings

import numpy as np
import pytest

import npgpu
from ufunc_cases import NAMES, check, signatures

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

_SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 3.5, 1e300,
            -1e300, 1e-310, -7.25, 700.0, 1000.0, -1000.0, 65504.0, 6e-8]


def _np(name, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(np, name)(*args)


def _float_cases():
    out = []
    for n in NAMES:
        for t in signatures(n):
            ins = t.split("->")[0]
            if ins[0] in "efd" and all(c in "efdil" for c in ins):
                out.append((n, t))
    return out


@pytest.mark.matrix
@pytest.mark.parametrize("name,sig", _float_cases(),
                         ids=[f"{n}-{t.replace('->', '_')}" for n, t in _float_cases()])
def test_float_special_values(name, sig):
    ins = sig.split("->")[0]
    x = np.array(_SPECIAL)
    args = []
    for i, ch in enumerate(ins):
        if ch in "il":
            v = np.resize(np.array([0, 1, -1, 5, -30, 200, 2000, -2000]), x.size).astype(ch)
        else:
            with np.errstate(all="ignore"):
                v = (x if i == 0 else np.roll(x[::-1], 3)).astype(ch)
        args.append(v)
    if len(ins) == 2 and ins[1] not in "il":
        # every pair of specials: outer grid, flattened
        a, b = np.meshgrid(args[0], args[1])
        args = [a.ravel(), b.ravel()]
    check(name, getattr(npgpu, name)(*[npgpu.asarray(a) for a in args]), _np(name, *args))


_INTS = "bBhHiIlLqQ"


def _extremes(ch):
    info = np.iinfo(np.dtype(ch))
    v = [0, 1, 2, 3, 7, info.max, info.max - 1, info.min, info.min + 1, 100 % (info.max + 1)]
    if info.min < 0:
        v += [-1, -2, -3, -7]
    return np.array(v, dtype=object).astype(ch)


_INT_BINARY = ["add", "subtract", "multiply", "floor_divide", "remainder", "fmod", "divmod",
               "bitwise_and", "bitwise_or", "bitwise_xor", "maximum", "minimum", "gcd", "lcm",
               "less", "equal", "greater_equal"]


@pytest.mark.matrix
@pytest.mark.parametrize("ch", list(_INTS))
@pytest.mark.parametrize("name", _INT_BINARY)
def test_int_extremes_binary(name, ch):
    x = _extremes(ch)
    a, b = np.meshgrid(x, x)
    a, b = a.ravel(), b.ravel()
    check(name, getattr(npgpu, name)(npgpu.asarray(a), npgpu.asarray(b)), _np(name, a, b))


@pytest.mark.matrix
@pytest.mark.parametrize("ch", list(_INTS))
@pytest.mark.parametrize("name", ["negative", "absolute", "sign", "square", "invert",
                                  "bitwise_count", "reciprocal", "positive", "isnan", "logical_not"])
def test_int_extremes_unary(name, ch):
    x = _extremes(ch)
    check(name, getattr(npgpu, name)(npgpu.asarray(x)), _np(name, x))


def test_int_min_floordiv_minus_one_and_mod_zero():
    for ch in "bhilq":
        info = np.iinfo(np.dtype(ch))
        a = np.array([info.min, info.min, 7, -7, 0, 5], ch)
        b = np.array([-1, 0, 0, 0, 0, -1], ch)
        for n in ("floor_divide", "remainder", "fmod"):
            check(n, getattr(npgpu, n)(npgpu.asarray(a), npgpu.asarray(b)), _np(n, a, b))
    assert (npgpu.asarray(np.array([5, -5], np.int32)) % 0).tolist() == [0, 0]


@pytest.mark.parametrize("ch", list(_INTS))
def test_shifts_past_width(ch):
    bits = np.iinfo(np.dtype(ch)).bits
    a = np.resize(_extremes(ch), 12)
    s = np.array([0, 1, bits - 1, bits, bits + 1, 63, 64, 65, 100, 2, 3, 5])
    if np.dtype(ch).kind == "i":
        s[-2:] = [-1, -64]
    s = s.astype(np.int64).astype(ch)          # wraps for narrow types, like NumPy would see them
    for n in ("left_shift", "right_shift"):
        check(n, getattr(npgpu, n)(npgpu.asarray(a), npgpu.asarray(s)), _np(n, a, s))


def test_int64_uint64_comparison_exact():
    a = np.array([-1, 0, 2**63 - 1, -(2**63), 5], np.int64)
    b = np.array([2**64 - 1, 0, 2**63 - 1, 0, 2**63], np.uint64)
    for n in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"):
        check(n, getattr(npgpu, n)(npgpu.asarray(a), npgpu.asarray(b)), _np(n, a, b))
        check(n, getattr(npgpu, n)(npgpu.asarray(b), npgpu.asarray(a)), _np(n, b, a))


@pytest.mark.parametrize("ch", ["F", "D"])
def test_complex_ordering_and_nan(ch):
    vals = [0, 1, 1 + 1j, 1 - 1j, -1j, complex(np.nan, 0), complex(0, np.nan), complex(1, np.inf)]
    a, b = np.meshgrid(np.array(vals, ch), np.array(vals, ch))
    a, b = a.ravel(), b.ravel()
    for n in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "maximum",
              "minimum", "fmax", "fmin", "isnan", "isinf", "isfinite", "logical_and"):
        args = (a, b) if getattr(np, n).nin == 2 else (a,)
        check(n, getattr(npgpu, n)(*[npgpu.asarray(x) for x in args]), _np(n, *args))


def test_complex_sign_numpy2():
    z = np.array([3 + 4j, -2j, 0j, complex(np.inf, 1), complex(1, -np.inf),
                  complex(np.inf, np.inf), complex(np.nan, 1)])
    check("sign", npgpu.sign(npgpu.asarray(z)), np.sign(z))


def test_nan_propagation_maximum_vs_fmax():
    a = np.array([np.nan, 1.0, np.nan, -np.inf], np.float32)
    b = np.array([1.0, np.nan, np.nan, np.inf], np.float32)
    for n in ("maximum", "minimum", "fmax", "fmin"):
        check(n, getattr(npgpu, n)(npgpu.asarray(a), npgpu.asarray(b)), _np(n, a, b))


def test_float16_rounds_like_numpy():
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(64) * 100).astype(np.float16)
    b = (rng.standard_normal(64) * 3).astype(np.float16)
    for n in ("add", "multiply", "divide", "subtract", "true_divide"):
        got = getattr(npgpu, n)(npgpu.asarray(a), npgpu.asarray(b)).get()
        np.testing.assert_array_equal(got, _np(n, a, b))   # exact: f32 compute, one rounding


def test_integer_negative_power():
    a = npgpu.asarray(np.arange(4))
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        npgpu.power(a, -1)
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        a ** np.int64(-2)
    # array exponents are checked on the device (NumPy checks every element its loop computes)
    e = npgpu.asarray(np.array([-1, -2, -3, 2]))
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        npgpu.power(npgpu.asarray(np.array([1, -1, 5, 3])), e)
    assert npgpu.power(npgpu.asarray(np.array([1, -1, 5, 3])), abs(e)).tolist() == [1, 1, 125, 9]
    check("power", npgpu.power(a, 2.5), np.power(np.arange(4), 2.5))


def test_bool_negative_and_unsupported_loops_raise_like_numpy():
    b = npgpu.asarray(np.array([True, False]))
    with pytest.raises(TypeError, match="boolean negative"):
        -b
    with pytest.raises(TypeError):
        npgpu.subtract(b, b)
    with pytest.raises(TypeError):
        npgpu.sin(npgpu.asarray(np.array([1 + 1j])), dtype=np.float32)
    with pytest.raises(TypeError):
        npgpu.bitwise_and(npgpu.asarray(np.array([1.5])), 1)
