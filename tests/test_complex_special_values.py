"""Complex special values (C99 Annex G, as the Array API 2024.12 lists them) for the elementwise
functions, at every pair of parts in {+-0, +-0.5, +-1, +-2.5, +-inf, NaN}.

The expected values come from an explicit table written from the standard's "Special cases"
lists (``_TABLE``), not from NumPy or cmath: the simulator runs npgpu's loops with CPython's
rules and the GPU with Numba's, and both must give the table.  Pairs the standard does not list
(finite pairs, and a few such as log(+inf + i0)) are compared with NumPy, zero signs included.
``test_numpy_agrees_with_table`` checks NumPy against the same table on the host; NumPy's one
difference is complex ``expm1`` (``_NUMPY_DIFFERS``), where npgpu follows the standard.
"""
import math
import warnings

import numpy as np
import pytest

import npgpu

PI = math.pi
NAN = math.nan
INF = math.inf
ANY = "any sign"     # (value, ANY): the standard leaves this part's sign unspecified


def _sgn(v):
    return -1.0 if math.copysign(1.0, v) < 0 else 1.0


def _fin(v):
    return math.isfinite(v)


def _pz(v):            # +0
    return v == 0 and _sgn(v) > 0


def _z(v):
    return v == 0


def _nzf(v):           # nonzero finite
    return _fin(v) and v != 0


def _pf(v):            # positive finite
    return _fin(v) and v > 0


def _pinf(v):
    return v == INF


def _ninf(v):
    return v == -INF


def _nan(v):
    return math.isnan(v)


def _infinite(v):
    return math.isinf(v)


def _cis(r, b):        # r * cis(b), IEEE products
    return (r * math.cos(b), r * math.sin(b))


# ---- the standard's lists, for imaginary parts with the sign bit clear (or NaN) ---------------
def _exp(a, b):
    if _z(a) and _pz(b): return (1.0, 0.0)
    if _fin(a) and (_pinf(b) or _nan(b)): return (NAN, NAN)
    if _pinf(a) and _pz(b): return (INF, 0.0)
    if _ninf(a) and _fin(b): return _cis(0.0, b)
    if _pinf(a) and _nzf(b): return _cis(INF, b)
    if _ninf(a) and (_pinf(b) or _nan(b)): return ((0.0, ANY), (0.0, ANY))
    if _pinf(a) and (_pinf(b) or _nan(b)): return ((INF, ANY), NAN)
    if _nan(a) and _pz(b): return (NAN, 0.0)
    if _nan(a): return (NAN, NAN)
    return None


def _expm1(a, b):
    if _z(a) and _pz(b): return ((0.0, ANY), (0.0, ANY))
    if _fin(a) and (_pinf(b) or _nan(b)): return (NAN, NAN)
    if _pinf(a) and _pz(b): return (INF, 0.0)
    if _ninf(a) and _fin(b): return (_cis(0.0, b)[0] - 1.0, _cis(0.0, b)[1])
    if _pinf(a) and _nzf(b): return (_cis(INF, b)[0] - 1.0, _cis(INF, b)[1])
    if _ninf(a) and (_pinf(b) or _nan(b)): return (-1.0, (0.0, ANY))
    if _pinf(a) and (_pinf(b) or _nan(b)): return ((INF, ANY), NAN)
    if _nan(a) and _pz(b): return (NAN, 0.0)
    if _nan(a): return (NAN, NAN)
    return None


def _log(a, b, log1p=False):
    if not log1p and _z(a) and _pz(b): return (-INF, PI if _sgn(a) < 0 else 0.0)
    if log1p and a == -1.0 and _pz(b): return (-INF, 0.0)
    if _fin(a) and _pinf(b): return (INF, PI / 2)
    if _fin(a) and _nan(b): return (NAN, NAN)
    if _ninf(a) and _pf(b): return (INF, PI)
    if _pinf(a) and _pf(b): return (INF, 0.0)
    if _ninf(a) and _pinf(b): return (INF, 3 * PI / 4)
    if _pinf(a) and _pinf(b): return (INF, PI / 4)
    if _infinite(a) and _nan(b): return (INF, NAN)
    if _nan(a) and _fin(b): return (NAN, NAN)
    if _nan(a) and _pinf(b): return (INF, NAN)
    if _nan(a) and _nan(b): return (NAN, NAN)
    return None


def _sqrt(a, b):
    if _z(a) and _pz(b): return (0.0, 0.0)
    if _pinf(b): return (INF, INF)                  # any a, NaN included
    if _fin(a) and _nan(b): return (NAN, NAN)
    if _ninf(a) and _pf(b): return (0.0, INF)
    if _pinf(a) and _pf(b): return (INF, 0.0)
    if _ninf(a) and _nan(b): return (NAN, (INF, ANY))
    if _pinf(a) and _nan(b): return (INF, NAN)
    if _nan(a): return (NAN, NAN)
    return None


def _acos(a, b):
    if _z(a) and _pz(b): return (PI / 2, -0.0)
    if _z(a) and _nan(b): return (PI / 2, NAN)
    if _fin(a) and _pinf(b): return (PI / 2, -INF)
    if _nzf(a) and _nan(b): return (NAN, NAN)
    if _ninf(a) and _pf(b): return (PI, -INF)
    if _pinf(a) and _pf(b): return (0.0, -INF)
    if _ninf(a) and _pinf(b): return (3 * PI / 4, -INF)
    if _pinf(a) and _pinf(b): return (PI / 4, -INF)
    if _infinite(a) and _nan(b): return (NAN, (INF, ANY))
    if _nan(a) and _fin(b): return (NAN, NAN)
    if _nan(a) and _pinf(b): return (NAN, -INF)
    if _nan(a) and _nan(b): return (NAN, NAN)
    return None


def _acosh(a, b):
    if _z(a) and _pz(b): return (0.0, PI / 2)
    if _fin(a) and _pinf(b): return (INF, PI / 2)
    if _nzf(a) and _nan(b): return (NAN, NAN)
    if _pz(a) and _nan(b): return (NAN, (PI / 2, ANY))
    if _ninf(a) and _pf(b): return (INF, PI)
    if _pinf(a) and _pf(b): return (INF, 0.0)
    if _ninf(a) and _pinf(b): return (INF, 3 * PI / 4)
    if _pinf(a) and _pinf(b): return (INF, PI / 4)
    if _infinite(a) and _nan(b): return (INF, NAN)
    if _nan(a) and _fin(b): return (NAN, NAN)
    if _nan(a) and _pinf(b): return (INF, NAN)
    if _nan(a) and _nan(b): return (NAN, NAN)
    return None


# odd functions: both parts with the sign bit clear (or NaN)
def _asinh(a, b):
    if _pz(a) and _pz(b): return (0.0, 0.0)
    if _pf(a) and _pinf(b): return (INF, PI / 2)
    if _fin(a) and _nan(b): return (NAN, NAN)
    if _pinf(a) and _pf(b): return (INF, 0.0)
    if _pinf(a) and _pinf(b): return (INF, PI / 4)
    if _nan(a) and _pz(b): return (NAN, 0.0)
    if _nan(a) and _nzf(b): return (NAN, NAN)
    if _nan(a) and _pinf(b): return ((INF, ANY), NAN)
    if _nan(a) and _nan(b): return (NAN, NAN)
    return None


def _atanh(a, b):
    if _pz(a) and _pz(b): return (0.0, 0.0)
    if _pz(a) and _nan(b): return (0.0, NAN)
    if a == 1.0 and _pz(b): return (INF, 0.0)
    if _pf(a) and _pinf(b): return (0.0, PI / 2)
    if _nzf(a) and _nan(b): return (NAN, NAN)
    if _pinf(a) and (_pf(b) or _pinf(b)): return (0.0, PI / 2)
    if _pinf(a) and _nan(b): return (0.0, NAN)
    if _nan(a) and _fin(b): return (NAN, NAN)
    if _nan(a) and _pinf(b): return ((0.0, ANY), PI / 2)
    if _nan(a) and _nan(b): return (NAN, NAN)
    return None


def _tanh(a, b):
    if _pz(a) and _pz(b): return (0.0, 0.0)
    if _nzf(a) and (_pinf(b) or _nan(b)): return (NAN, NAN)
    if _pz(a) and (_pinf(b) or _nan(b)): return (0.0, NAN)
    if _pinf(a) and (_pf(b) or _pinf(b) or _nan(b)): return (1.0, (0.0, ANY))
    if _nan(a) and _pz(b): return (NAN, 0.0)
    if _nan(a) and not _z(b): return (NAN, NAN)
    return None


def _sinh(a, b):
    if _pz(a) and _pz(b): return (0.0, 0.0)
    if _pz(a) and (_pinf(b) or _nan(b)): return ((0.0, ANY), NAN)
    if _pf(a) and (_pinf(b) or _nan(b)): return (NAN, NAN)
    if _pinf(a) and _pz(b): return (INF, 0.0)
    if _pinf(a) and _pf(b): return _cis(INF, b)
    if _pinf(a) and (_pinf(b) or _nan(b)): return ((INF, ANY), NAN)
    if _nan(a) and _pz(b): return (NAN, 0.0)
    if _nan(a) and (_nzf(b) or _nan(b)): return (NAN, NAN)
    return None


def _cosh(a, b):       # even
    if _pz(a) and _pz(b): return (1.0, 0.0)
    if _pz(a) and (_pinf(b) or _nan(b)): return (NAN, (0.0, ANY))
    if _nzf(a) and (_pinf(b) or _nan(b)): return (NAN, NAN)
    if _pinf(a) and _pz(b): return (INF, 0.0)
    if _pinf(a) and _nzf(b): return _cis(INF, b)
    if _pinf(a) and _pinf(b): return ((INF, ANY), NAN)
    if _pinf(a) and _nan(b): return (INF, NAN)
    if _nan(a) and _z(b): return (NAN, (0.0, ANY))
    if _nan(a) and (_nzf(b) or _nan(b)): return (NAN, NAN)
    return None


# ---- the standard's symmetries give the other quadrants ------------------------------------------
def _neg(c):
    return (-c[0], c[1]) if isinstance(c, tuple) else -c


def _conj_sym(q):      # f(conj z) = conj f(z)
    def f(a, b):
        if _nan(b) or _sgn(b) > 0:
            return q(a, b)
        r = q(a, -b)
        return None if r is None else (r[0], _neg(r[1]))
    return f


def _signs(a, b):
    return (1.0 if _nan(a) else _sgn(a)), (1.0 if _nan(b) else _sgn(b))


def _odd(q):           # and conjugate-symmetric: Re takes a's sign, Im b's
    def f(a, b):
        sa, sb = _signs(a, b)
        r = q(abs(a), abs(b))
        if r is None:
            return None
        return (r[0] if sa > 0 else _neg(r[0]), r[1] if sb > 0 else _neg(r[1]))
    return f


def _even(q):          # and conjugate-symmetric: Im takes the product of the signs
    def f(a, b):
        sa, sb = _signs(a, b)
        r = q(abs(a), abs(b))
        return None if r is None else (r[0], r[1] if sa * sb > 0 else _neg(r[1]))
    return f


def _rotated(g, times_minus_i):
    """The standard defines sin, cos, tan, asin, atan's special cases as -1j * g(x * 1j) (cos:
    g(x * 1j)); x * 1j is -b + ia by components."""
    def f(a, b):
        r = g(-b, a)
        if r is None or not times_minus_i:
            return r
        return (r[1], _neg(r[0]))
    return f


_TABLE = {
    "exp": _conj_sym(_exp), "expm1": _conj_sym(_expm1), "log": _conj_sym(_log),
    "log1p": _conj_sym(lambda a, b: _log(a, b, log1p=True)), "sqrt": _conj_sym(_sqrt),
    "arccos": _conj_sym(_acos), "arccosh": _conj_sym(_acosh), "arcsinh": _odd(_asinh),
    "arctanh": _odd(_atanh), "tanh": _odd(_tanh), "sinh": _odd(_sinh), "cosh": _even(_cosh),
}
_TABLE.update(sin=_rotated(_TABLE["sinh"], True), cos=_rotated(_TABLE["cosh"], False),
              tan=_rotated(_TABLE["tanh"], True), arcsin=_rotated(_TABLE["arcsinh"], True),
              arctan=_rotated(_TABLE["arctanh"], True))
NAMES = sorted(_TABLE)

_VALUES = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -2.5, INF, -INF, NAN]
GRID = [(a, b) for a in _VALUES for b in _VALUES]

# NumPy's complex expm1 evaluates its finite formula at non-finite parts too (NaN where the
# standard has -1, inf or a kept zero); npgpu follows the standard there.
_NUMPY_DIFFERS = {"expm1": {(INF, 0.0), (INF, -0.0), (INF, INF), (INF, -INF), (INF, NAN),
                            (-INF, INF), (-INF, -INF), (-INF, NAN), (NAN, 0.0), (NAN, -0.0)}}


def _grid(dtype):
    z = np.empty(len(GRID), dtype)
    z.real = [a for a, _ in GRID]       # by parts: complex(a, b) arithmetic would lose -0 and NaN
    z.imag = [b for _, b in GRID]
    return z


def _part_ok(got, want, rtol):
    """NaN matches NaN (either sign); (v, ANY) matches +-v; zeros and infinities match exactly,
    with their sign; other values within rtol."""
    if isinstance(want, tuple):
        got, want = abs(got), abs(want[0])      # NaN stays NaN
    if math.isnan(want):
        return math.isnan(got)
    if want == 0 or math.isinf(want):
        return got == want and _sgn(got) == _sgn(want)
    return abs(got - want) <= rtol * abs(want)


def _expected(name, dtype):
    """Per grid point: the table's value, else NumPy's (the standard lists no special value)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = getattr(np, name)(_grid(dtype))
    out = []
    for (a, b), r in zip(GRID, ref):
        e = _TABLE[name](a, b)
        out.append(e if e is not None else (float(r.real), float(r.imag)))
    return out


def _mismatches(got, expected, rtol, points=GRID):
    bad = []
    for (a, b), g, e in zip(points, got, expected):
        if not (_part_ok(float(g.real), e[0], rtol) and _part_ok(float(g.imag), e[1], rtol)):
            bad.append(((a, b), e, (float(g.real), float(g.imag))))
    return bad


_RTOL = {np.complex64: 2e-6, np.complex128: 1e-14}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", NAMES)
def test_numpy_agrees_with_table(name, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = getattr(np, name)(_grid(dtype))
    bad = set()
    for p, g in zip(GRID, got):
        e = _TABLE[name](*p)
        if e is not None and _mismatches([g], [e], _RTOL[dtype], [p]):
            bad.add(p)
    assert bad == _NUMPY_DIFFERS.get(name, set())


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", NAMES)
def test_special_values(name, dtype):
    z = _grid(dtype)
    expected = _expected(name, dtype)
    got = getattr(npgpu, name)(npgpu.asarray(z)).get()
    assert got.dtype == dtype
    assert _mismatches(got, expected, 4 * _RTOL[dtype]) == []


@pytest.mark.parametrize("name", ["tanh", "arccos", "arctanh", "expm1", "sin"])
def test_special_values_strided_view(name):
    # a reversed, strided view: the strided kernel layout calls the same helpers
    z = _grid(np.complex128)
    g = npgpu.asarray(np.stack([z, z]))[1, ::-1]
    got = getattr(npgpu, name)(g).get()[::-1]
    assert _mismatches(got, _expected(name, np.complex128), 4e-14) == []


def test_finite_inputs_far_from_special():
    # the finite path (cmath) with random data: agreement with NumPy to a few ulps
    rng = np.random.default_rng(7)
    z = (rng.uniform(-3, 3, 64) + 1j * rng.uniform(-3, 3, 64)).astype(np.complex128)
    g = npgpu.asarray(z)
    for name in NAMES:
        np.testing.assert_allclose(getattr(npgpu, name)(g).get(), getattr(np, name)(z),
                                   rtol=1e-13, atol=1e-300, err_msg=name)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["log2", "log10"])
def test_log2_log10_special_values_as_numpy(name, dtype):
    # log scaled part by part: log10(0 + 0i) is -inf + 0i (a complex product with (k + 0i) made
    # the imaginary part NaN), and every other grid point as NumPy's
    z = _grid(dtype)
    got = getattr(npgpu, name)(npgpu.asarray(z)).get()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = getattr(np, name)(z)
    expected = [(float(w.real), float(w.imag)) for w in want]
    assert _mismatches(got, expected, 4 * _RTOL[dtype]) == []
