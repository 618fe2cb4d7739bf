"""Elementwise ufuncs and operators at dtype edges, as a NumPy user meets them, against NumPy:
integer division by zero and INT_MIN // -1, shifts by negative amounts and past the width,
INT_MIN's abs/negative, NEP 50 promotion with Python and NumPy scalars, casts, rounding with
decimals, float special values (NaN, +-inf, +-0, subnormals), float16 throughout.  Values are
compared bit for bit (NaN positions and signs of zero included; a few ulp for transcendental
functions, their special values exact), with the result dtype, or NumPy's exception class and
message; every dtype the ufunc takes, on contiguous, strided, reversed and 0-d operands."""
import operator
import warnings

import numpy as np
import pytest

import npgpu
from conftest import make_layout

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
CPLX = ["complex64", "complex128"]
LAYOUTS = ["contiguous", "strided", "negative", "zero_d"]


def _edges(dt, seed=0):
    """The dtype's edge values and a few random ones."""
    dt = np.dtype(dt)
    rng = np.random.default_rng(seed)
    if dt.kind == "b":
        return np.array([False, True, True, False, True, False])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = {info.min, info.max, info.min + 1, info.max - 1, 0, 1, 2, 3, 7}
        if info.min < 0:
            v |= {-1, -2, -3, -7}
        rnd = rng.integers(info.min, info.max, 5, dtype=dt, endpoint=True)
        return np.concatenate([np.array(sorted(v), dt), rnd])
    f = np.finfo(dt if dt.kind == "f" else np.dtype(f"f{dt.itemsize // 2}"))
    v = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 3.0,
                  float(f.max), -float(f.max), float(f.tiny), float(f.smallest_subnormal),
                  -float(f.smallest_subnormal)])
    v = np.concatenate([v, rng.standard_normal(5) * 10])
    if dt.kind == "c":
        return (v[:, None] + 1j * v[None, ::4]).ravel()[::7].astype(dt)
    return v.astype(dt)


def _pairs(x, y):
    X, Y = np.meshgrid(x, y, indexing="ij")
    return X.ravel().copy(), Y.ravel().copy()


def _outcome(fn, args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            try:
                return fn(*args), None
            except Exception as e:      # noqa: BLE001 - the class and message are compared
                return None, e


def _host(r):
    if isinstance(r, tuple):
        return tuple(_host(v) for v in r)
    return r.get() if isinstance(r, npgpu.ndarray) else r


def _same(got, want, ulps=0, atol=0.0):
    """Values bit for bit (NaN positions, signs of zero), dtype and shape; ``ulps``: finite
    nonzero values within that many ulps of the dtype (or ``atol`` of it, in its eps)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w, ulps, atol)
        return
    if isinstance(want, (np.ndarray, np.generic)):
        got = np.asarray(got)
        want = np.asarray(want)
        assert got.dtype == want.dtype and got.shape == want.shape, \
            (got.dtype, want.dtype, got.shape, want.shape)
        if want.dtype.kind == "c":
            _same(got.real, want.real, ulps, atol)
            _same(got.imag, want.imag, ulps, atol)
        elif want.dtype.kind == "f":
            nan = np.isnan(want)
            np.testing.assert_array_equal(np.isnan(got), nan)
            g, w = got[~nan].astype(np.float64), want[~nan].astype(np.float64)
            np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
            close = g == w
            if ulps:
                eps = float(np.finfo(want.dtype).eps)
                tol = np.maximum(ulps * eps * np.abs(w), atol * eps)
                close |= np.isfinite(w) & (w != 0) & (np.abs(g - w) <= tol)
            assert close.all(), (g[~close], w[~close])
        else:
            np.testing.assert_array_equal(got, want)
        return
    assert type(got) is type(want) and got == want, (got, want)


def check(fn, gfn, args, gargs=None, ulps=0, atol=0.0):
    """``fn(*args)`` (NumPy) and ``gfn(*gargs)`` (npgpu) agree: result, or exception."""
    want, werr = _outcome(fn, args)
    got, gerr = _outcome(gfn, args if gargs is None else gargs)
    if werr is not None or gerr is not None:
        assert gerr is not None and werr is not None, (werr, gerr, _host(got), want)
        assert type(gerr) is type(werr) and str(gerr) == str(werr), (werr, gerr)
        return
    _same(_host(got), want, ulps, atol)


def _laid(layout, *hosts):
    """Device operands of ``layout`` and their host references (0-d: one element each)."""
    if layout == "zero_d":
        hosts = [h.reshape(-1)[(3 + 5 * i) % h.size:][:1] for i, h in enumerate(hosts)]
    pairs = [make_layout(h, layout) for h in hosts]
    return [d for d, _ in pairs], [h for _, h in pairs]


def _binary_cases(fn, gfn, x, y, scalars=()):
    for layout in LAYOUTS:
        d, h = _laid(layout, x, y)
        check(fn, gfn, h, d)
    for s in scalars:
        check(fn, gfn, (x, s), (npgpu.asarray(x), s))
        check(fn, gfn, (s, y), (s, npgpu.asarray(y)))


# ---- integer division and remainder: by zero, INT_MIN // -1 -------------------------------------
_DIV = [("floor_divide", operator.floordiv), ("remainder", operator.mod),
        ("fmod", None), ("divmod", divmod), ("true_divide", operator.truediv)]


@pytest.mark.parametrize("dt", ["bool"] + INTS)
def test_integer_division_edges(dt):
    e = _edges(dt)
    x, y = _pairs(e, e)
    signed = np.dtype(dt).kind == "i"
    for name, op in _DIV:
        scal = [0, 1, 3] + ([-1, -3, np.dtype(dt).type(-1)] if signed else [np.dtype(dt).type(0)])
        _binary_cases(getattr(np, name), getattr(npgpu, name), x, y,
                      scal if dt != "bool" else [True, 0])
        if op is not None:
            _binary_cases(op, op, x, y, [0, -1] if signed else [0])
    for other in ("int8", "uint8", "int64", "uint64"):
        x2, y2 = _pairs(e, _edges(other))
        for name in ("floor_divide", "remainder", "divmod"):
            check(getattr(np, name), getattr(npgpu, name), (x2, y2),
                  (npgpu.asarray(x2), npgpu.asarray(y2)))


# ---- shifts and bitwise operations ---------------------------------------------------------------
@pytest.mark.parametrize("dt", ["bool"] + INTS)
def test_shift_and_bitwise_edges(dt):
    e = _edges(dt)
    bits = np.dtype(dt).itemsize * 8
    info = np.iinfo(dt) if dt != "bool" else None
    amounts = [0, 1, 2, bits - 1, bits, bits + 1, 63, 64, 65, 127]
    if info is not None:
        amounts = [a for a in amounts if a <= info.max] + ([-1, -2, -bits, info.min]
                                                           if info.min < 0 else [])
        x, y = _pairs(e, np.array(amounts, dt))
    else:
        x, y = _pairs(e, e)
    py = [0, 1, bits - 1, bits, bits + 3, 64, 70, -1, -65]
    for name, op in (("left_shift", operator.lshift), ("right_shift", operator.rshift)):
        _binary_cases(getattr(np, name), getattr(npgpu, name), x, y, py)
        _binary_cases(op, op, x, y)
        for other in ("int8", "uint8", "int64", "uint64", "bool"):
            x2, y2 = _pairs(e, np.array([0, 1, 3, 7], other))
            check(getattr(np, name), getattr(npgpu, name), (x2, y2),
                  (npgpu.asarray(x2), npgpu.asarray(y2)))
    for name, op in (("bitwise_and", operator.and_), ("bitwise_or", operator.or_),
                     ("bitwise_xor", operator.xor)):
        for other in ("bool", "int8", "uint8", "int64", "uint64"):
            x2, y2 = _pairs(e, _edges(other))
            _binary_cases(op, op, x2, y2)
        _binary_cases(getattr(np, name), getattr(npgpu, name), e, e[::-1].copy(),
                      [True, 1, -1, 255, 2**64])
    for layout in LAYOUTS:
        d, h = _laid(layout, e)
        for fn in (np.invert, operator.invert, np.bitwise_count):
            check(fn, getattr(npgpu, fn.__name__, fn), h, d)


# ---- abs / negative / sign / positive and bool's arithmetic errors -------------------------------
@pytest.mark.parametrize("dt", ["bool"] + INTS + FLOATS + CPLX)
def test_unary_sign_edges(dt):
    e = _edges(dt)
    for layout in LAYOUTS:
        d, h = _laid(layout, e)
        for name in ("absolute", "negative", "positive", "sign", "fabs", "square", "reciprocal",
                     "conjugate", "logical_not"):
            check(getattr(np, name), getattr(npgpu, name), h, d,
                  ulps=(2 if name == "sign" else 1) if dt.startswith("complex")
                  and name in ("absolute", "square", "sign") else 0)
        for op in (operator.neg, operator.pos, abs):
            check(op, op, h, d, ulps=1 if dt.startswith("complex") else 0)
    for op in (operator.sub, np.subtract):
        g = npgpu.subtract if op is np.subtract else op
        _binary_cases(op, g, e, e[::-1].copy(), [True, np.True_])


# ---- NEP 50: Python scalars are weak, NumPy scalars are not --------------------------------------
# one operator of each resolution family (the others share its promotion and checks; each
# (dtype, scalar type) pair renders its own loops, and CI compiles every one to PTX)
_PROMO_OPS = [operator.add, operator.truediv, operator.lt, np.maximum]


@pytest.mark.parametrize("dt", ["bool"] + INTS + FLOATS + CPLX)
def test_scalar_promotion_edges(dt):
    e = _edges(dt)
    d = npgpu.asarray(e)
    for s in (300, -1, -129, 255, 256, 2**31, 2**63, 2**64, -2**63 - 1, 10**40, 1.5, -0.0,
              float("nan"), 1e300, 1j, True, np.int64(3), np.int8(-3), np.uint64(7),
              np.float16(2), np.float32(1.5), np.float64(-0.0), np.complex64(1j), np.True_):
        for op in _PROMO_OPS:
            g = npgpu.maximum if op is np.maximum else op
            check(op, g, (e, s), (d, s))
            check(op, g, (s, e), (s, d))
    zero_d = npgpu.asarray(e[1:2].reshape(()))
    for s in (300, -1, 1.5, 2**64):             # 0-d arrays are not weak
        check(operator.add, operator.add, (e[1:2].reshape(()), s), (zero_d, s))
        check(operator.lt, operator.lt, (s, e[1:2].reshape(())), (s, zero_d))
    # (complex products: NumPy's host loop contracts them with FMA, which changes the last ulp
    # and the sign of an underflowed zero; npgpu compiles without contraction, like NumPy's C)
    ops = (operator.add, operator.lt, operator.eq, operator.truediv) + \
        ((operator.mul,) if dt not in CPLX else ())
    for other in ("bool", "int8", "uint8", "int64", "uint64", "float16", "float32"):
        x, y = _pairs(e, _edges(other))
        for op in ops:
            _binary_cases(op, op, x, y)


@pytest.mark.parametrize("op", ["less", "equal", "not_equal", "greater_equal", "negative",
                                "absolute", "sqrt", "rint", "invert", "isnan"])
def test_python_int_only_calls(op):
    """Ufuncs of Python ints alone: two compare exactly at any size (NumPy's object loop); a lone
    one converts by value (2**63 is uint64); past uint64, NumPy's error where it has one."""
    fn, gfn = getattr(np, op), getattr(npgpu, op)
    vals = [0, -1, 5, 2**63, 2**64, -2**63 - 1]
    if fn.nin == 2:
        for a in vals + [True, np.True_, np.int8(3)]:
            for b in vals:
                check(fn, gfn, (a, b))
                check(fn, gfn, (b, a))
        out = npgpu.zeros(3, bool)
        gfn(2**70, 5, out=out)
        assert out.get().tolist() == [bool(fn(2**70, 5))] * 3
        return
    for v in vals:
        want, werr = _outcome(fn, (v,))
        if werr is None and not isinstance(want, np.generic):
            # an object result (a Python int): npgpu has no object dtype
            with pytest.raises(TypeError, match="does not support dtype"):
                gfn(v)
        else:
            check(fn, gfn, (v,))


# ---- casts ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("src", ["bool"] + INTS + FLOATS + CPLX)
def test_astype_edges(src):
    """Values in the target's range convert as NumPy's; float -> int of NaN, inf and out-of-range
    values is the machine's conversion (docs/differences.md) and not compared."""
    e = _edges(src)
    for dst in ["bool"] + INTS + FLOATS + CPLX:
        x = e
        if np.dtype(src).kind in "fc" and np.dtype(dst).kind in "iu":
            r = e.real
            info = np.iinfo(dst)
            x = e[np.isfinite(r) & (r > info.min - 1) & (r < info.max + 1)
                  & ((r > -1) if info.min == 0 else True)]
        for layout in LAYOUTS:
            d, h = _laid(layout, x)
            check(lambda a: a.astype(dst), lambda a: a.astype(dst), h, d)
        d = npgpu.asarray(x)
        for casting in ("no", "equiv", "safe", "same_kind"):
            check(lambda a: a.astype(dst, casting=casting),
                  lambda a: a.astype(dst, casting=casting), (x,), (d,))
        assert (d.astype(dst, copy=False) is d) == (x.astype(dst, copy=False) is x)


@pytest.mark.parametrize("dt", ["bool"] + INTS + FLOATS + CPLX)
def test_full_and_fill_values(dt):
    """np.full/full_like's assignment of a scalar: complex into bool is tested whole (1j is
    True), a Python int past int64 into bool is NumPy's OverflowError; the ComplexWarning."""
    for v in (1j, 0j, 1.5j, np.complex64(1j), 2**63, 2**64, -2**63 - 1, -1, 300, 1.5, np.nan,
              np.inf, True, np.float64(-0.0)):
        check(lambda v: np.full(3, v, dt), lambda v: npgpu.full(3, v, dt), (v,))
        check(lambda v: np.full_like(np.zeros(2, dt), v),
              lambda v: npgpu.full_like(npgpu.zeros(2, dt), v), (v,))
        a, g = np.zeros(3, dt), npgpu.zeros(3, dt)
        check(lambda v: (a.fill(v), a)[1], lambda v: (g.fill(v), g)[1], (v,))
    if dt not in ("bool",) + tuple(CPLX):
        with pytest.warns(np.exceptions.ComplexWarning):
            npgpu.full(2, 1j, dt)


# ---- rounding ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ["bool"] + INTS + FLOATS + CPLX)
def test_rounding_edges(dt):
    e = _edges(dt)
    if np.dtype(dt).kind in "iu":
        extra = [5, 15, 25, 45, 50, 55, 95, 105, 125, 127] + \
            ([-5, -15, -25, -125, -50] if np.dtype(dt).kind == "i" else [])
        e = np.concatenate([e, np.array(extra, dt)])
    if np.dtype(dt).kind == "f":
        e = np.concatenate([e, np.array([0.25, 0.35, 1.005, 2.675, 0.125, 1234.5, -1234.5,
                                         4503599627370495.5, 1e16, 100.25], dt)])
    for layout in LAYOUTS:
        d, h = _laid(layout, e)
        for name in ("rint", "floor", "ceil", "trunc", "fix", "around"):
            check(getattr(np, name), getattr(npgpu, name), h, d)
    for dec in (-400, -23, -3, -1, 0, 1, 2, 23, 30, 300, 400):
        x = e
        if np.dtype(dt).kind in "iu" and dec < 0:
            # integers round in float64 and cast back: a result past the dtype (127 -> 130 in
            # int8) or NaN (0 * 10**400) casts as the machine does (docs/differences.md)
            r = np.round(e.astype(np.float64), dec)
            x = e[np.isfinite(r) & (r >= np.iinfo(dt).min) & (r <= np.iinfo(dt).max)]
        for layout in LAYOUTS if x.size else ():
            d, h = _laid(layout, x)
            check(lambda a: np.round(a, dec), lambda a: npgpu.round(a, dec), h, d)
            check(lambda a: a.round(dec), lambda a: a.round(dec), h, d)
    for dec in (2**31, -2**31 - 1, 2**63):       # past NumPy's C int argument
        check(lambda a: np.round(a, dec), lambda a: npgpu.round(a, dec), (e,),
              (npgpu.asarray(e),))


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int64", "float16", "float32", "float64",
                                "complex64", "complex128"])
def test_round_into_out(dt):
    """np.round(a, d, out=o): NumPy scales, rounds and scales back in o (each step rounded to
    o's dtype, each ufunc's casting error); integers copy with 'same_kind'; a complex array into
    a real o writes the real parts, then raises."""
    x = np.array([125, 3, 5, 0, 1.26, -2.5, 1234.5678, 3e10, -0.0, 65519.0])
    x = x.astype(dt) if dt != "bool" else np.array([True, False, True])
    for dec in (-2, -1, 0, 1, 3):
        for o in ("bool", "int8", "uint8", "int16", "float16", "float32", "float64", "complex64",
                  "complex128"):
            oh, og = np.zeros(x.shape, o), npgpu.zeros(x.shape, o)
            check(lambda a, out: np.round(a, dec, out=out),
                  lambda a, out: npgpu.round(a, dec, out=out), (x, oh), (npgpu.asarray(x), og))
            _same(og.get(), oh)


# ---- float special values ----------------------------------------------------------------------
_EXACT2 = ["maximum", "minimum", "fmax", "fmin", "copysign", "nextafter", "heaviside", "fmod",
           "remainder", "floor_divide", "divmod"]
_CLOSE2 = ["logaddexp", "logaddexp2", "hypot", "arctan2"]
_EXACT1 = ["sqrt", "spacing", "frexp", "modf", "signbit", "isnan", "isinf", "isfinite", "fabs",
           "sign", "reciprocal", "rint", "floor", "ceil", "trunc"]
_CLOSE1 = ["cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
           "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh",
           "deg2rad", "rad2deg"]


@pytest.mark.parametrize("dt", FLOATS + ["int8", "uint8", "int16", "bool"])
def test_float_special_values(dt):
    """Integers and bool take the float16/float32/float64 loop NumPy picks for them."""
    e = _edges(dt)
    if np.dtype(dt).kind == "f":
        e = np.concatenate([e, np.array([88.8, 710.0, -745.5, 1e-8, -1 + 1e-7, 2.0, -2.0], dt)])
    x, y = _pairs(e, e)
    for layout in LAYOUTS:
        d, h = _laid(layout, e)
        for name in _EXACT1 + _CLOSE1:
            check(getattr(np, name), getattr(npgpu, name), h, d,
                  ulps=0 if name in _EXACT1 else 4)
        d, h = _laid(layout, x, y)
        for name in _EXACT2 + _CLOSE2:
            # (logaddexp(-0.5, -1 + 2**-23) cancels: NumPy's float32 loop is ~10 ulps off there)
            check(getattr(np, name), getattr(npgpu, name), h, d,
                  ulps=0 if name in _EXACT2 else 4, atol=0 if name in _EXACT2 else 16)
    for s in (-0.0, 0.0, float("nan"), float("-inf")):
        for name in _EXACT2:
            if s == 0 and np.dtype(dt).kind != "f" and name in ("maximum", "minimum", "fmax",
                                                                   "fmin"):
                # a tie of +-0 through NumPy's casting loop: its sign varies by element there
                continue
            check(getattr(np, name), getattr(npgpu, name), (e, s), (npgpu.asarray(e), s))
    ints = np.array([0, 1, -1, 15, -14, 1024, -1074, -1075, 2000, -2000, 2**31 - 1, -2**31],
                    np.int32)
    x2, y2 = _pairs(e, ints)
    for idt in ("int32", "int64", "int8", "uint8", "bool"):
        yi = y2.astype(idt)
        check(np.ldexp, npgpu.ldexp, (x2, yi), (npgpu.asarray(x2), npgpu.asarray(yi)))


# ---- == and != with what no element equals; truth values --------------------------------------
@pytest.mark.parametrize("dt", ["bool", "int8", "uint64", "float16", "float64", "complex64"])
def test_equality_with_incomparable(dt):
    """``a == None`` / ``a != "text"``: NumPy answers every element (False for ==, True for !=),
    broadcast against a sequence of them; ``a < None`` stays a TypeError."""
    e = _edges(dt)[:4]
    for layout in LAYOUTS:
        d, h = _laid(layout, e)
        for other in (None, "a", b"x", np.str_("s"), ["a", "b", "c", "d"], [None] * 4,
                      [["a"], ["b"]], ["a", "b"], (None,), [1, 2, 3, 4]):
            for op in (operator.eq, operator.ne):
                check(op, op, (h[0], other), (d[0], other))
                check(op, op, (other, h[0]), (other, d[0]))
        check(operator.lt, operator.lt, (h[0], None), (d[0], None))
    check(bool, bool, (e[:0],), (npgpu.asarray(e[:0]),))
    check(bool, bool, (e[:2],), (npgpu.asarray(e[:2]),))
