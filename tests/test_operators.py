"""ndarray operators route to the ufuncs: results, reflected and in-place forms, casting errors."""
import operator

import numpy as np
import pytest

import npgpu
from ufunc_cases import check

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
RNG = np.random.default_rng(11)

_BIN = [("add", operator.add), ("subtract", operator.sub), ("multiply", operator.mul),
        ("divide", operator.truediv), ("floor_divide", operator.floordiv),
        ("remainder", operator.mod), ("power", operator.pow), ("bitwise_and", operator.and_),
        ("bitwise_or", operator.or_), ("bitwise_xor", operator.xor),
        ("left_shift", operator.lshift), ("right_shift", operator.rshift),
        ("less", operator.lt), ("less_equal", operator.le), ("greater", operator.gt),
        ("greater_equal", operator.ge), ("equal", operator.eq), ("not_equal", operator.ne)]


def _ints(n=12):
    a = RNG.integers(-50, 50, n)
    b = RNG.integers(0, 6, n)
    return a, b


@pytest.mark.parametrize("name,op", _BIN, ids=[n for n, _ in _BIN])
def test_binary_operators(name, op):
    a, b = _ints()
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    with np.errstate(all="ignore"):
        check(name, op(ga, gb), op(a, b))
        check(name, op(ga, 3), op(a, 3))           # forward with a Python scalar
        check(name, op(2, gb), op(2, b))           # reflected
        if name not in ("left_shift", "right_shift", "bitwise_and", "bitwise_or", "bitwise_xor"):
            f = a.astype(np.float32) + 0.5
            check(name, op(npgpu.asarray(f), 1.5), op(f, 1.5))


_INPLACE = [("add", operator.iadd), ("subtract", operator.isub), ("multiply", operator.imul),
            ("floor_divide", operator.ifloordiv), ("remainder", operator.imod),
            ("power", operator.ipow), ("bitwise_and", operator.iand), ("bitwise_or", operator.ior),
            ("bitwise_xor", operator.ixor), ("left_shift", operator.ilshift),
            ("right_shift", operator.irshift)]


@pytest.mark.parametrize("name,op", _INPLACE, ids=[n for n, _ in _INPLACE])
def test_inplace_operators(name, op):
    a, b = _ints()
    g = npgpu.asarray(a)
    ident = g
    g = op(g, npgpu.asarray(b))
    assert g is ident
    e = op(a.copy(), b)
    check(name, g, e)


def test_inplace_same_kind_error_and_true_divide():
    g = npgpu.asarray(np.arange(5))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from dtype\\('float64'\\) "
                                        "to dtype\\('int64'\\) with casting rule 'same_kind'"):
        g += 1.5
    with pytest.raises(TypeError, match="divide"):
        g /= 2
    f = npgpu.asarray(np.arange(5.0))
    f /= 2
    check("divide", f, np.arange(5.0) / 2)


def test_unary_operators_and_divmod():
    a, b = _ints()
    a = a.astype(np.int16)
    b = b.astype(np.int16) + 1
    g = npgpu.asarray(a)
    check("negative", -g, -a)
    check("positive", +g, +a)
    check("invert", ~g, ~a)
    check("absolute", abs(g), abs(a))
    check("divmod", divmod(g, npgpu.asarray(b)), divmod(a, b))
    check("divmod", divmod(g, 3), divmod(a, 3))
    check("divmod", divmod(7, npgpu.asarray(b)), divmod(7, b))
    bo = np.array([True, False])
    check("invert", ~npgpu.asarray(bo), ~bo)
    z = np.array([3 + 4j, -1 - 1j])
    check("absolute", abs(npgpu.asarray(z)), abs(z))


def test_every_operator_name_is_registered():
    ops = npgpu._core.ndarray._ops
    for n in ("add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power",
              "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "less",
              "less_equal", "greater", "greater_equal", "equal", "not_equal", "negative",
              "positive", "absolute", "invert", "divmod", "ufunc_at", "array_ufunc"):
        assert callable(ops[n]), n


def test_pow_scalar_shortcuts_as_numpy():
    """ndarray ** 2 is NumPy's square (bool ** 2 is int8) and float ** 0.5 its sqrt (-inf ** 0.5
    is NaN there, not power's inf), for ** and **=."""
    import warnings
    cases = [(np.array([True, False]), 2), (np.array([-np.inf, -0.0, 4.0]), 0.5),
             (np.array([-np.inf, 4.0], np.float32), 0.5),
             (np.array([2, 3], np.int8), 2), (np.array([1 + 1j, -4]), 0.5),
             (np.array([2, 3]), 2.0), (np.array([True]), 0.5), (np.array([2.0]), 3)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for h, e in cases:
            want, got = h ** e, npgpu.asarray(h) ** e
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got.get(), want)
            if want.dtype == h.dtype:
                hh, g = h.copy(), npgpu.asarray(h)
                hh **= e
                g **= e
                np.testing.assert_array_equal(g.get(), hh)


def test_operators_defer_as_numpy():
    """NumPy's deferral: a class with ``__array_ufunc__ = None``, or a higher
    ``__array_priority__`` and no ``__array_ufunc__``, gets the reflected operation."""
    class Opts:
        __array_ufunc__ = None

        def __radd__(self, other):
            return "radd"

        def __rmatmul__(self, other):
            return "rmatmul"

    class Prio:
        __array_priority__ = 10.1

        def __rmul__(self, other):
            return "rmul"

    x = npgpu.arange(3, dtype=np.float32)
    assert x + Opts() == "radd"
    assert x @ Opts() == "rmatmul"
    assert x * Prio() == "rmul"
    assert (x * np.float32(2)).get().tolist() == [0.0, 2.0, 4.0]
    with pytest.raises(TypeError):
        x + object()
