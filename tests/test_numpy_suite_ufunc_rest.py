"""Defects found by NumPy's own _core/tests/test_ufunc.py and test_umath.py, each checked
against NumPy: a ``range`` assigned into an array (``a.flat = range(n)``, ``a[i] = range(n)``,
``a[mask] = range(n)``) is a sequence of values; ufuncs pickle by reference (the same object
comes back, also after calls filled their kernel caches)."""
import copy
import pickle

import numpy
import pytest

import npgpu as np
import npgpu.scipy.special as npgpu_special
from conftest import assert_same, make_layout, raises_like, random_array

_DTYPES = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64"]


def _values(dtype, n):
    # a range of n values, converted as NumPy converts each element of a sequence
    return range(3, 3 + n) if numpy.dtype(dtype).kind != "b" else range(n % 2, n % 2 + n)


@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided", "negative", "empty"])
def test_flat_assign_range(dtype, layout):
    host = random_array((4, 6), dtype)
    d, h = make_layout(host.copy(), layout)
    n = h.size
    h.flat = range(1, n + 1) if dtype != "bool" else range(n)
    d.flat = range(1, n + 1) if dtype != "bool" else range(n)
    assert_same(d, h)


@pytest.mark.parametrize("dtype", _DTYPES)
def test_flat_assign_short_range_cycles(dtype):
    host = random_array((3, 5), dtype)
    h, d = host.copy(), np.asarray(host)
    h.flat = range(4)
    d.flat = range(4)
    assert_same(d, h)
    h.flat[2:9] = range(5, 8)
    d.flat[2:9] = range(5, 8)
    assert_same(d, h)
    h.flat[[0, 7, 14]] = range(2, 5)
    d.flat[[0, 7, 14]] = range(2, 5)
    assert_same(d, h)


@pytest.mark.parametrize("dtype", _DTYPES)
@pytest.mark.parametrize("key", [slice(1, 4), (slice(None), 1), [0, 2, 4], ([1, 0], [3, 2]),
                                 Ellipsis])
def test_setitem_range(dtype, key):
    host = random_array((5, 4), dtype)
    h, d = host.copy(), np.asarray(host)
    target = h[key]
    n = target.shape[-1] if target.ndim else 1
    h[key] = _values(dtype, n)
    d[key] = _values(dtype, n)
    assert_same(d, h)


@pytest.mark.parametrize("dtype", _DTYPES)
def test_mask_setitem_range(dtype):
    host = random_array((6, 5), dtype)
    mask = random_array((6, 5), "bool")
    h, d = host.copy(), np.asarray(host)
    h[mask] = _values(dtype, int(mask.sum()))
    d[np.asarray(mask)] = _values(dtype, int(mask.sum()))
    assert_same(d, h)
    rows = numpy.array([True, False, True, True, False, False])
    h[rows] = _values(dtype, 5)
    d[np.asarray(rows)] = _values(dtype, 5)
    assert_same(d, h)


def test_put_range():
    host = random_array((8,), "float32")
    h, d = host.copy(), np.asarray(host)
    numpy.put(h, [6, 1, 3], range(7, 10))
    np.put(d, [6, 1, 3], range(7, 10))
    assert_same(d, h)


@pytest.mark.parametrize("set_", [
    lambda a: a.__setitem__(slice(0, 2), range(3)),          # does not broadcast
    lambda a: a.__setitem__(slice(0, 2), range(300, 302)),   # out of int8's range
    lambda a: a.__setitem__(0, range(1)),                    # a sequence into one element
    lambda a: a.__setitem__(a > 2, range(5)),                # not one per True
    lambda a: a.flat.__setitem__(2, range(2)),
])
@pytest.mark.parametrize("dtype", ["int8", "uint8"])
def test_setitem_range_errors(set_, dtype):
    host = numpy.arange(6, dtype=dtype)
    raises_like(lambda: set_(host.copy()), lambda: set_(np.asarray(host)))


def test_noncontiguous_ufunc_after_flat_range():
    # NumPy's test_ufunc_noncontiguous: operands filled by ``a.flat = range(1, 37)``
    for dt in ("int16", "float32", "complex128"):
        c = np.empty((6, 6), dt)
        n = np.empty((12, 18), dt)[::2, ::3]
        c.flat = range(1, 37)
        n.flat = range(1, 37)
        want = numpy.arange(1, 37).astype(dt).reshape(6, 6)
        assert_same(np.multiply(c, n), want * want)


# ---- pickling ----------------------------------------------------------------------------------
_UFUNCS = [np.sin, np.add, np.power, np.absolute, np.divmod, np.bitwise_count, np.isnan]


@pytest.mark.parametrize("uf", _UFUNCS, ids=lambda u: u.__name__)
@pytest.mark.parametrize("proto", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_ufunc_pickles_by_reference(uf, proto):
    # after a call (its plan caches then hold compiled kernels) as before
    a = np.asarray(random_array((5,), "float64"))
    uf(*([a] * uf.nin)) if uf is not np.bitwise_count else uf(a.astype("int32"))
    assert pickle.loads(pickle.dumps(uf, protocol=proto)) is uf
    assert copy.copy(uf) is uf
    assert copy.deepcopy(uf) is uf
    want = getattr(numpy, uf.__name__)
    assert pickle.loads(pickle.dumps(want, protocol=proto)) is want


def test_special_ufunc_pickles_by_reference():
    a = np.asarray(random_array((5,), "float64"))
    for uf in (npgpu_special.erf, npgpu_special.psi, npgpu_special.gammaln):
        uf(a)
        assert pickle.loads(pickle.dumps(uf)) is uf
    assert pickle.loads(pickle.dumps(npgpu_special.digamma)) is npgpu_special.digamma


def test_pickled_ufunc_in_a_container_still_runs():
    fns = pickle.loads(pickle.dumps({"f": np.hypot, "g": [np.maximum, np.negative]}))
    x = random_array((7,), "float32")
    y = random_array((7,), "float32")
    # (the GPU's float32 hypot is within 1 ulp, not correctly rounded)
    numpy.testing.assert_allclose(fns["f"](np.asarray(x), np.asarray(y)).get(),
                                  numpy.hypot(x, y), rtol=3e-7)
    assert_same(fns["g"][0](np.asarray(x), np.asarray(y)), numpy.maximum(x, y))
