"""Inputs and checks shared by the ufunc test files: every ufunc and loop signature npgpu has."""
import numpy as np

import npgpu
from npgpu.ufuncs import UFUNCS

from conftest import tolerance

# one name per ufunc object (aliases share it)
NAMES = sorted(n for n, u in UFUNCS.items() if u.__name__ == n)

# ufuncs whose float results are only compared by value where both operands are equal zeros
# (NumPy's own SIMD and scalar loops disagree on the sign of max(+0, -0))
ZERO_SIGN_FREE = {"maximum", "minimum", "fmax", "fmin"}


def signatures(name):
    """The distinct loop signatures of ``npgpu.<name>`` ("ff->f"), in NumPy's order."""
    seen = []
    for t in UFUNCS[name].types:
        if t not in seen:
            seen.append(t)
    return seen


def cases():
    """(name, signature) for every ufunc and loop: the parametrisation of the main test."""
    return [(n, t) for n in NAMES for t in signatures(n)]


def _domain(name, i, x, dt):
    """Map random data into the ufunc's interesting domain (in float64, cast after)."""
    kind = dt.kind
    if kind in "fc":
        small = {"exp", "exp2", "expm1", "sinh", "cosh", "tanh", "logaddexp", "logaddexp2",
                 "power", "float_power"}
        if name in small:
            x = x / 8.0
        if name in ("log", "log2", "log10", "sqrt", "cbrt") and kind == "f":
            x = np.abs(x) + 0.01
        if name == "log1p" and kind == "f":
            x = np.abs(x)
        if name in ("arcsin", "arccos", "arctanh") and kind == "f":
            x = np.tanh(x / 10)
        if name == "arccosh" and kind == "f":
            x = np.abs(x) + 1
        if name in ("power", "float_power") and i == 0 and kind == "f":
            x = np.abs(x) + 0.1
        if name in ("divide", "reciprocal") and kind == "c":
            x = x + (3 + 3j)
    return x


def inputs(name, sig, shape, rng):
    """Host inputs for loop ``sig`` of ufunc ``name``, in their loop dtypes."""
    ins = sig.split("->")[0]
    out = []
    for i, ch in enumerate(ins):
        dt = np.dtype(ch)
        if dt.kind == "b":
            out.append(rng.integers(0, 2, shape).astype(bool))
            continue
        if dt.kind in "iu":
            info = np.iinfo(dt)
            if name in ("left_shift", "right_shift") and i == 1:
                x = rng.integers(0, info.bits, shape)
            elif name == "ldexp" and i == 1:
                x = rng.integers(-20, 20, shape)
            elif name == "power" and i == 1:
                x = rng.integers(0, 5, shape)
            elif name in ("gcd", "lcm", "power"):
                x = rng.integers(max(info.min, -40), 41, shape)
            else:
                x = rng.integers(info.min, info.max, shape, endpoint=True, dtype=dt)
            out.append(np.asarray(x).astype(dt))
            continue
        x = rng.standard_normal(shape) * 10
        if dt.kind == "c":
            x = x + 1j * rng.standard_normal(shape) * 10
        with np.errstate(all="ignore"):
            out.append(np.asarray(_domain(name, i, x, dt)).astype(dt))
    return out


def _rtol(dt, name):
    r, a = tolerance(dt)
    if dt.kind in "fc" and name in ("power", "float_power", "cbrt") and dt.itemsize >= 8:
        r = max(r, 1e-11)
    return r, a


def check(name, got, expected):
    """Compare npgpu results with NumPy's: dtype, shape, values (NaN positions, sign of zeros)."""
    got = got if isinstance(got, tuple) else (got,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert isinstance(g, npgpu.ndarray), type(g)
        h = g.get()
        e = np.asarray(e)
        assert h.dtype == e.dtype, f"{name}: dtype {h.dtype} != {e.dtype}"
        assert h.shape == e.shape, f"{name}: shape {h.shape} != {e.shape}"
        if e.dtype.kind not in "fc":
            np.testing.assert_array_equal(h, e, err_msg=name)
            continue
        r, a = _rtol(e.dtype, name)
        np.testing.assert_allclose(h, e, rtol=r, atol=a, equal_nan=True, err_msg=name)
        if e.dtype.kind == "f" and name not in ZERO_SIGN_FREE:
            z = e == 0
            np.testing.assert_array_equal(np.signbit(h[z]), np.signbit(e[z]),
                                          err_msg=f"{name}: sign of zero")
