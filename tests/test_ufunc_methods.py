"""ufunc call options (out=, where=, dtype=, casting=, order=, scalars), outer, at,
__array_ufunc__, and the rounding/clip/complex-part functions."""
import warnings

import numpy as np
import pytest

import npgpu
from npgpu import ufuncs
from ufunc_cases import check

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
RNG = np.random.default_rng(7)


def _r(shape, dt="f8"):
    return (RNG.standard_normal(shape) * 10).astype(dt)


def test_broadcast_and_scalars():
    a, b = _r((3, 1, 4)), _r((5, 1))
    check("add", npgpu.add(npgpu.asarray(a), npgpu.asarray(b)), a + b)
    i8 = np.array([100, -100, 5], np.int8)
    check("add", npgpu.add(npgpu.asarray(i8), 100), np.add(i8, 100))          # weak Python int
    check("add", npgpu.add(npgpu.asarray(i8), np.int16(3)), np.add(i8, np.int16(3)))
    check("multiply", npgpu.multiply(2.5, npgpu.asarray(i8)), np.multiply(2.5, i8))
    check("add", npgpu.add(npgpu.asarray(a), [1.0, 2.0, 3.0, 4.0]), a + [1.0, 2.0, 3.0, 4.0])
    z = npgpu.add(np.float32(1), np.float32(2))
    assert isinstance(z, npgpu.ndarray) and z.shape == () and z.dtype == np.float32


def test_out_where_dtype_order():
    a, b = _r((4, 5)), _r((4, 5))
    out = npgpu.zeros((4, 5))
    r = npgpu.add(npgpu.asarray(a), npgpu.asarray(b), out=out)
    assert r is out
    check("add", out, a + b)
    out2 = npgpu.asarray(np.full((4, 5), -1.0))
    mask = a > 0
    npgpu.subtract(npgpu.asarray(a), npgpu.asarray(b), out=out2, where=npgpu.asarray(mask))
    check("subtract", out2, np.where(mask, a - b, -1.0))
    check("add", npgpu.add(npgpu.asarray(a), npgpu.asarray(b), dtype=np.float32),
          np.add(a, b, dtype=np.float32))
    f = npgpu.multiply(npgpu.asarray(a).T, 2.0, order="F")
    assert f.flags.f_contiguous
    check("multiply", f, a.T * 2.0)
    q, r2 = npgpu.divmod(npgpu.asarray(a), 3.0, out=(npgpu.empty((4, 5)), None))
    check("divmod", (q, r2), np.divmod(a, 3.0))


def test_out_overlapping_inputs():
    h = _r(10)
    d = npgpu.asarray(h)
    npgpu.add(d[:-1], d[1:], out=d[1:])            # shifted overlap: inputs are read first
    e = h.copy()
    np.add(e[:-1], e[1:], out=e[1:])
    check("add", d, e)
    d = npgpu.asarray(h)
    npgpu.negative(d[::-1], out=d)
    check("negative", d, -h[::-1])


def test_casting_errors_like_numpy():
    a = npgpu.asarray(np.arange(4))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from dtype\\('float64'\\) "
                                        "to dtype\\('int64'\\) with casting rule 'same_kind'"):
        npgpu.add(a, 1.5, out=a)
    with pytest.raises(TypeError):
        npgpu.add(a, a, dtype=np.int8, casting="safe")
    npgpu.add(a, 1.5, out=a, casting="unsafe")
    assert a.tolist() == [1, 2, 3, 4]
    with pytest.raises(ValueError):
        npgpu.add(a, a, out=npgpu.empty(3, np.int64))


def test_empty_and_zero_d():
    e = npgpu.empty((0, 3))
    assert npgpu.sin(e).shape == (0, 3)
    z = npgpu.asarray(np.float64(2.0))
    check("sqrt", npgpu.sqrt(z), np.sqrt(np.float64(2.0)))


@pytest.mark.parametrize("name", ["add", "subtract", "less", "arctan2", "maximum", "left_shift",
                                  "divmod"])
def test_outer(name):
    ch = "q" if name == "left_shift" else "d"
    a, b = np.abs(_r((3,), ch)) % 10, np.abs(_r((2, 2), ch)) % 10
    with np.errstate(all="ignore"):
        expected = getattr(np, name).outer(a, b)
    check(name, getattr(npgpu, name).outer(npgpu.asarray(a), npgpu.asarray(b)), expected)
    with pytest.raises(ValueError):
        npgpu.sin.outer(npgpu.asarray(a), npgpu.asarray(a))


_AT = [("add", "f8"), ("add", "i4"), ("add", "u8"), ("subtract", "i8"), ("subtract", "f4"),
       ("maximum", "i4"), ("minimum", "f8"), ("bitwise_or", "u4"), ("bitwise_xor", "i8"),
       ("add", "f2"), ("multiply", "c16"), ("power", "f8"), ("divide", "f4"), ("fmax", "f8"),
       ("add", "i1"), ("arctan2", "f8"), ("logical_and", "?")]


@pytest.mark.parametrize("name,dt", _AT, ids=[f"{n}-{d}" for n, d in _AT])
def test_at_repeated_indices(name, dt):
    a = _r(8, dt) if dt != "?" else RNG.integers(0, 2, 8).astype(bool)
    b = _r(25, dt) if dt != "?" else RNG.integers(0, 2, 25).astype(bool)
    if name == "power":
        a, b = np.abs(a) + 0.5, b / 10
    idx = RNG.integers(-8, 8, 25)
    e = a.copy()
    with np.errstate(all="ignore"):
        getattr(np, name).at(e, idx, b)
    g = npgpu.asarray(a)
    getattr(npgpu, name).at(g, npgpu.asarray(idx), npgpu.asarray(b))   # device indices
    check(name, g, e)
    g = npgpu.asarray(a)
    getattr(npgpu, name).at(g, list(idx), b[0])                        # host list, scalar b
    e = a.copy()
    with np.errstate(all="ignore"):
        getattr(np, name).at(e, list(idx), b[0])
    check(name, g, e)


def test_at_multidim_slices_unary_and_errors():
    a = np.arange(24.0).reshape(4, 6)
    for ind in [(slice(None), [0, 0, 2]), ([0, 0, 3], slice(1, 3)), ([0, 2], slice(None)),
                ([1, 1], [2, 2]), 1, (Ellipsis, [5, 5]), ([0, 1], 2, )]:
        e, g = a.copy(), npgpu.asarray(a)
        np.add.at(e, ind, 1.5)
        npgpu.add.at(g, ind, 1.5)
        check("add", g, e)
    e, g = a.copy(), npgpu.asarray(a)
    np.negative.at(e[::-1, ::2], ([0, 0, 1], [1, 1, 2]))
    npgpu.negative.at(g[::-1, ::2], ([0, 0, 1], [1, 1, 2]))
    check("negative", g, e)
    with pytest.raises(IndexError):
        npgpu.add.at(npgpu.asarray(a), [7], 1.0)
    with pytest.raises(ValueError):
        npgpu.add.at(npgpu.asarray(a), [0])


def test_array_ufunc_interop():
    a, b = _r(5), _r(5)
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    r = np.add(ga, gb)
    assert isinstance(r, npgpu.ndarray)
    check("add", r, a + b)
    check("sin", np.sin(ga), np.sin(a))
    check("divmod", np.divmod(ga, 2.0), np.divmod(a, 2.0))
    check("multiply", np.multiply.outer(ga, gb), np.multiply.outer(a, b))
    out = npgpu.empty(5)
    assert np.subtract(ga, gb, out=out) is out
    from npgpu.ufuncs import interop
    with pytest.raises(TypeError, match="method 'bogus'"):
        interop.array_ufunc(np.add, "bogus", (ga, gb), {})


def test_clip_around_fix_angle_real_imag():
    a = np.array([-2.5, -0.5, 0.5, 1.5, 2.5, np.nan, 7.0, -np.inf])
    g = npgpu.asarray(a)
    check("clip", ufuncs.clip(g, -1.0, 2.0), np.clip(a, -1.0, 2.0))
    check("clip", ufuncs.clip(g, None, 2.0), np.clip(a, None, 2.0))
    check("clip", ufuncs.clip(g, min=0.0), np.clip(a, min=0.0))
    ia = np.array([-7, 3, 12, 100], np.int16)
    check("clip", ufuncs.clip(npgpu.asarray(ia), -5, 10), np.clip(ia, -5, 10))
    for dec in (0, 1, 2, -1):
        for dt in ("f2", "f4", "f8", "c16"):
            x = (_r(12) * 13.37).astype(dt)
            check("around", ufuncs.around(npgpu.asarray(x), dec), np.around(x, dec))
        xi = np.array([15, 25, 35, -15, 123, -7], np.int32)
        check("around", ufuncs.around(npgpu.asarray(xi), dec), np.around(xi, dec))
    check("round", ufuncs.round(g), np.round(a))
    check("fix", ufuncs.fix(g), np.fix(a))
    z = _r(6) + 1j * _r(6)
    gz = npgpu.asarray(z)
    check("angle", ufuncs.angle(gz), np.angle(z))
    check("angle", ufuncs.angle(gz, deg=True), np.angle(z, deg=True))
    check("angle", ufuncs.angle(npgpu.asarray(np.array([-1, 2, 0]))), np.angle(np.array([-1, 2, 0])))
    check("real", ufuncs.real(gz), np.real(z))
    check("imag", ufuncs.imag(gz), np.imag(z))
    check("imag", ufuncs.imag(g), np.imag(a))
