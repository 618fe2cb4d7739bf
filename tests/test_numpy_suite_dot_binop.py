"""Defects found by NumPy's own product and operator tests (``_core/tests/test_multiarray.py``:
TestMatmulInplace, TestMatmulOperator, TestBinop, TestWhere), each checked against NumPy:
``a @= b`` never broadcasts its result into ``a``; operators defer to an ``__array_priority__``
given as an int, a bool or a NumPy scalar, in place and for ``**`` too; npgpu's ufuncs hand a
call to an operand's own ``__array_ufunc__`` (NEP 13); ``where``/``select`` warn as NumPy when
a Python float overflows the result dtype."""
import operator
import warnings

import numpy
import pytest

import npgpu as np
from conftest import assert_matches, error_of, make_layout

RNG = numpy.random.default_rng(5150)

# NumPy's TestMatmulInplace.SHAPES, small
SHAPES = [((5, 2), (2, 2)), ((4, 2, 2), (1, 2, 2)), ((3,), (3,)), ((3, 3), (3,)),
          ((3,), (3, 3)), ((3, 3), (3, 1)), ((1, 3), (3, 3)), ((3, 3, 3), (1, 3, 1)),
          ((3, 3, 3), (1, 3, 3)), ((3, 3, 3), (3, 3, 1)), ((1, 3, 3), (3, 3, 3)),
          ((3, 1, 3), (3, 3, 3)), ((1, 1, 3), (3, 3, 3)), ((), (3, 3)), ((3,), ()),
          ((2, 3), (3, 2))]


def _random(shape, dtype):
    h = RNG.integers(-9, 9, shape)
    if numpy.dtype(dtype).kind == "c":
        h = h + 1j * RNG.integers(-9, 9, shape)
    return h.astype(dtype)


@pytest.mark.parametrize("a_shape,b_shape", SHAPES)
@pytest.mark.parametrize("dt_a,dt_b", [(numpy.float64, numpy.float64),
                                       (numpy.float32, numpy.int16),
                                       (numpy.complex64, numpy.float32),
                                       (numpy.int64, numpy.int32)])
def test_imatmul_as_numpy(a_shape, b_shape, dt_a, dt_b):
    """``a @= b``: NumPy's value in ``a`` itself (same object, dtype, shape), or its error where
    the result would not have ``a``'s shape (1-d ``b``: NumPy's own message)."""
    ha, hb = _random(a_shape, dt_a), _random(b_shape, dt_b)
    da, db = np.asarray(ha), np.asarray(hb)
    before = id(da)
    want = error_of(lambda: operator.imatmul(ha, hb))
    got = error_of(lambda: operator.imatmul(da, db))
    assert got == want
    if want is None:
        assert id(da) == before
        assert_matches(da, ha)


@pytest.mark.parametrize("layout", ["transposed", "strided", "negative"])
def test_imatmul_views(layout):
    """In place into a view: NumPy's values in the view's elements."""
    ha = _random((4, 4), numpy.float64)
    da, ha = make_layout(ha, layout)
    hb = _random((4, 4), numpy.float64)
    ha = ha.copy() if layout != "transposed" else ha
    da @= np.asarray(hb)
    ha @= hb
    assert_matches(da, ha)


def test_imatmul_list_and_scalar():
    """A list operand is converted; a scalar one is NumPy's error."""
    ha = _random((2, 2), numpy.float64)
    da = np.asarray(ha)
    da @= [[1.0, 2.0], [3.0, 4.0]]
    ha @= [[1.0, 2.0], [3.0, 4.0]]
    assert_matches(da, ha)
    assert error_of(lambda: operator.imatmul(da, 2.0)) == \
        error_of(lambda: operator.imatmul(ha, 2.0))


def _prio_class(prio):
    class Prio:
        __array_priority__ = prio

        def __radd__(self, other):
            return "radd"

        def __rpow__(self, other):
            return "rpow"

        def __rmatmul__(self, other):
            return "rmatmul"
    return Prio


@pytest.mark.parametrize("prio", [1, 10.5, True, numpy.int64(3), numpy.float32(2), 0, -5, "9",
                                  False])
@pytest.mark.parametrize("op", ["__add__", "__iadd__", "__pow__", "__ipow__", "__matmul__",
                                "__imatmul__", "__mul__", "__isub__", "__lshift__"])
def test_array_priority_deferral(prio, op):
    """NumPy's ndarray operators return NotImplemented to an object of higher (positive)
    ``__array_priority__`` without ``__array_ufunc__``: any real number counts, a string does
    not; in-place operators defer as well (the reflected ones are left: NumPy computes an
    object array there, npgpu's TypeError comes either way)."""
    obj = _prio_class(prio)()
    results = []
    for x in (numpy.ones((2, 2)), np.ones((2, 2))):
        try:
            results.append(getattr(x, op)(obj))
        except (TypeError, ValueError):     # object arrays, which npgpu does not have
            results.append(None)
    assert (results[1] is NotImplemented) == (results[0] is NotImplemented)


def test_array_priority_operators():
    """The whole expression: the reflected method answers, as with NumPy."""
    for prio in (1, numpy.int64(3), True):
        obj = _prio_class(prio)()
        for xp in (numpy, np):
            x = xp.ones(3)
            assert x + obj == "radd"
            assert x ** obj == "rpow"
            assert x @ obj == "rmatmul"
            y = x
            y += obj
            assert y == "radd"
            y = x
            y **= obj
            assert y == "rpow"


def test_array_priority_lookup_error():
    """A failing ``__array_priority__`` lookup is the default priority (no deferral)."""
    class Bad:
        @property
        def __array_priority__(self):
            raise RuntimeError("no priority")

        def __radd__(self, other):
            return "radd"
    assert numpy.ones(2).__add__(Bad()) is not NotImplemented
    with pytest.raises(TypeError, match="object"):      # no deferral: npgpu has no object dtype
        np.ones(2) + Bad()


@pytest.mark.parametrize("op", ["__iadd__", "__ipow__", "__imul__", "__ior__"])
def test_array_ufunc_none_inplace(op):
    """``__array_ufunc__ = None`` defers binary operators but not in-place ones: NumPy's ufunc
    then raises its TypeError."""
    class NoUfunc:
        __array_ufunc__ = None

        def __radd__(self, other):
            return "radd"
    dt = numpy.int64 if op == "__ior__" else numpy.float64
    h, d = numpy.ones(2, dt), np.ones(2, dt)
    assert getattr(d, op.replace("__i", "__"))(NoUfunc()) is NotImplemented
    want = error_of(lambda: getattr(h, op)(NoUfunc()))
    assert want is not None
    assert error_of(lambda: getattr(d, op)(NoUfunc())) == want


class CheckIndex:
    """NumPy's test_array_ufunc_index: where the override sits among the normalised operands."""
    def __array_ufunc__(self, ufunc, method, *inputs, **kw):
        for i, a in enumerate(inputs):
            if a is self:
                return i
        for j, a in enumerate(kw["out"]):
            if a is self:
                return (j,)


CALLS = [
    ("sin", lambda a, d: ((a,), {})),
    ("sin", lambda a, d: ((d, a), {})),
    ("sin", lambda a, d: ((d,), {"out": a})),
    ("sin", lambda a, d: ((d,), {"out": (a,)})),
    ("sin", lambda a, d: ((a, a), {})),
    ("modf", lambda a, d: ((d, a), {})),
    ("modf", lambda a, d: ((d, None, a), {})),
    ("modf", lambda a, d: ((d, d, a), {})),
    ("modf", lambda a, d: ((d,), {"out": (None, a)})),
    ("modf", lambda a, d: ((a,), {"out": (d, a)})),
    ("modf", lambda a, d: ((d,), {"out": a})),
    ("modf", lambda a, d: ((d,), {"out": (a,)})),
    ("add", lambda a, d: ((a, d), {})),
    ("add", lambda a, d: ((d, a), {})),
    ("add", lambda a, d: ((d, d, a), {})),
    ("add", lambda a, d: ((d, a, a), {})),
    ("add", lambda a, d: ((d, d), {"out": (a,)})),
    ("add", lambda a, d: ((a, d), {"out": a})),
    ("add", lambda a, d: ((d, d, a), {"out": a})),
    ("power", lambda a, d: ((d, a), {})),
    ("power", lambda a, d: ((a, 2), {})),
    ("maximum", lambda a, d: (([1.0, 2.0], a), {})),
]


@pytest.mark.parametrize("name,make", CALLS)
def test_ufunc_override_index(name, make):
    """NEP 13: the override's answer (operands and ``out`` normalised as NumPy's), or NumPy's
    error for a malformed ``out``."""
    a = CheckIndex()
    args, kw = make(a, numpy.arange(2.0))
    want = error_of(lambda: getattr(numpy, name)(*args, **kw)) or \
        getattr(numpy, name)(*args, **kw)
    args, kw = make(a, np.arange(2.0))
    got = error_of(lambda: getattr(np, name)(*args, **kw)) or getattr(np, name)(*args, **kw)
    assert got == want


def test_ufunc_override_keywords():
    """The override gets this npgpu ufunc, the method, and NumPy's keywords: ``sig`` as
    ``signature``, an all-None ``out`` left out, others as given."""
    class Echo:
        def __array_ufunc__(self, ufunc, method, *inputs, **kw):
            return ufunc, method, inputs, kw
    e = Echo()
    uf, method, inputs, kw = np.add(e, [1], sig="ii->i")
    assert uf is np.add and method == "__call__" and inputs == (e, [1])
    assert kw == {"signature": "ii->i"}
    assert np.add(e, 1, out=None)[3] == {}
    assert np.modf(e, None, None)[3] == {}
    assert np.add(e, 1, where=True, dtype=numpy.float32)[3] == \
        {"where": True, "dtype": numpy.float32}
    d = np.ones(2)
    assert np.modf(e, d)[3]["out"] == (d, None)


def test_ufunc_override_not_implemented():
    """Every override declining: NumPy's TypeError naming the operand types."""
    class Decline:
        def __array_ufunc__(self, *args, **kw):
            return NotImplemented
    with pytest.raises(TypeError) as got:
        np.add(np.arange(2), Decline())
    with pytest.raises(TypeError) as want:
        numpy.add(numpy.arange(2), Decline())
    assert str(got.value).startswith("operand type(s) all returned NotImplemented from "
                                     "__array_ufunc__(")
    assert str(got.value).split("): ")[-1] == str(want.value).split("): ")[-1]


def test_ufunc_override_order():
    """Subclasses before their bases, else left to right; the first answer wins."""
    calls = []

    class Base:
        def __array_ufunc__(self, *args, **kw):
            calls.append(type(self).__name__)
            return NotImplemented

    class Sub(Base):
        pass

    class Other:
        def __array_ufunc__(self, *args, **kw):
            calls.append("Other")
            return "other"
    with pytest.raises(TypeError):
        np.add(Base(), Sub())
    assert calls == ["Sub", "Base"]
    calls.clear()
    assert np.multiply(Base(), Other()) == "other"
    assert calls == ["Base", "Other"]


def test_ufunc_override_operators():
    """NumPy's TestBinop.test_ufunc_binop_interaction in short: with ``__array_ufunc__``, the
    array's operators (forward, reflected, in place) call it with the npgpu ufunc and, in
    place, ``out=(array,)``."""
    class Over:
        __array_priority__ = 1

        def __array_ufunc__(self, ufunc, method, *inputs, **kw):
            return ufunc, kw
    x = np.arange(3.0)
    for op, uf in (("add", np.add), ("pow", np.power), ("sub", np.subtract),
                   ("and", np.bitwise_and), ("lshift", np.left_shift)):
        got = getattr(x, f"__{op}__")(Over())
        assert got[0] is uf
        assert getattr(x, f"__r{op}__")(Over())[0] is uf
        got = getattr(x, f"__i{op}__")(Over())
        assert got[0] is uf and got[1]["out"][0] is x


@pytest.mark.parametrize("arr_dt,value", [(numpy.float32, 1e150), (numpy.float16, 1e10),
                                          (numpy.float32, complex(1e150, 0)),
                                          (numpy.complex64, 1e150), (numpy.float32, 1e-50),
                                          (numpy.int8, 1000), (numpy.uint8, -1),
                                          (numpy.float32, float("nan"))])
def test_where_select_scalar_cast_warning(arr_dt, value):
    """A Python scalar converted to the result dtype: NumPy's overflow RuntimeWarning where a
    float overflows it (NumPy's test_exotic), none for integers (they wrap) and in range."""
    h = (RNG.integers(-9, 9, 5)).astype(arr_dt)
    cond = RNG.integers(0, 2, 5).astype(bool)
    calls = [lambda xp, c, a: xp.where(c, a, value),
             lambda xp, c, a: xp.where(True, value, a),
             lambda xp, c, a: xp.select([c], [a], value)]
    for call in calls:
        for xp, c, a in ((numpy, cond, h), (np, np.asarray(cond), np.asarray(h))):
            with warnings.catch_warnings(record=True) as rec:
                warnings.simplefilter("always")
                res = call(xp, c, a)
            seen = [(w.category, str(w.message)) for w in rec]
            if xp is numpy:
                want, want_res = seen, res
            else:
                assert seen == want
                assert_matches(res, want_res)
    with numpy.errstate(over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        np.where(np.asarray(cond), np.asarray(h), value)
