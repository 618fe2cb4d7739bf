"""Defects found by NumPy's own tests of printing, index errors, ``NDArrayOperatorsMixin`` and
``errstate`` (``_core/tests/test_arrayprint.py``, ``test_indexerrors.py``, ``test_errstate.py``,
``lib/tests/test_mixins.py``), each checked against NumPy: the ufunc methods (``reduce``,
``accumulate``, ``reduceat``, ``outer``, ``at``) and the gufuncs npgpu runs as functions
(``matmul``, ``matvec``, ``vecmat``, ``vecdot``) hand a call to an operand's own
``__array_ufunc__`` (NEP 13) with NumPy's normalised arguments; ``__array_ufunc__ = None`` is
NumPy's TypeError there; a requested non-native dtype is refused by ``array``/``asarray`` as by
``zeros``."""
import numbers
import operator

import numpy
import pytest
from numpy.lib.mixins import NDArrayOperatorsMixin

import npgpu as np
from conftest import assert_matches, error_of, make_layout, random_array

RNG = numpy.random.default_rng(4711)


class Echo:
    """An override answering with what it was given: (ufunc name, method, inputs, keywords),
    arrays of either library written as their shapes, itself as "self"."""
    def __array_ufunc__(self, ufunc, method, *inputs, **kw):
        return ufunc.__name__, method, _plain(inputs, self), _plain(kw, self)


def _plain(x, me):
    if x is me:
        return "self"
    if isinstance(x, (numpy.ndarray, np.ndarray)):
        return ("array", x.shape)
    if isinstance(x, tuple):
        return tuple(_plain(v, me) for v in x)
    if isinstance(x, list):
        return [_plain(v, me) for v in x]
    if isinstance(x, dict):
        return {k: _plain(v, me) for k, v in x.items()}
    return x


class Decline:
    def __array_ufunc__(self, *args, **kw):
        return NotImplemented

    def __repr__(self):
        return "Decline()"


class NoUfunc:
    __array_ufunc__ = None


METHOD_CALLS = [
    ("add", "reduce", lambda o, x: ((o,), {})),
    ("add", "reduce", lambda o, x: ((o, 0, None, x), {})),
    ("add", "reduce", lambda o, x: ((x, 0, None, o), {})),
    ("add", "reduce", lambda o, x: ((o,), {"axis": 1, "out": x})),
    ("add", "reduce", lambda o, x: ((x,), {"where": o})),
    ("add", "reduce", lambda o, x: ((x,), {"out": (o,)})),
    ("add", "reduce", lambda o, x: ((o,), {"out": None, "keepdims": True, "initial": 3})),
    ("add", "reduce", lambda o, x: ((o, 0, None, None), {})),
    ("maximum", "reduce", lambda o, x: ((o, None, None, None, False, 1, True), {})),
    ("add", "accumulate", lambda o, x: ((o, 0, None, x), {})),
    ("multiply", "accumulate", lambda o, x: ((x,), {"out": o})),
    ("add", "reduceat", lambda o, x: ((o, [0]), {})),
    ("add", "reduceat", lambda o, x: ((x, o), {})),
    ("add", "reduceat", lambda o, x: ((x, [0], 0, None, o), {})),
    ("add", "outer", lambda o, x: ((o, x), {})),
    ("subtract", "outer", lambda o, x: ((x, o), {"out": x})),
    ("add", "outer", lambda o, x: ((x, x), {"out": o})),
    ("add", "at", lambda o, x: ((o, [0], 1), {})),
    ("add", "at", lambda o, x: ((x, o, 1), {})),
    ("add", "at", lambda o, x: ((x, [0], o), {})),
    ("negative", "at", lambda o, x: ((x, o), {})),
]


@pytest.mark.parametrize("name,method,make", METHOD_CALLS)
def test_ufunc_method_override(name, method, make):
    """A ufunc method hands the call to the override: the same operands and NumPy's normalised
    keywords (positional options named, ``out`` a tuple, an all-None ``out`` left out)."""
    o = Echo()
    args, kw = make(o, numpy.arange(3.0))
    want = getattr(getattr(numpy, name), method)(*args, **kw)
    args, kw = make(o, np.arange(3.0))
    got = getattr(getattr(np, name), method)(*args, **kw)
    assert got == (name, *want[1:])


@pytest.mark.parametrize("name,method,make", METHOD_CALLS)
def test_ufunc_method_override_declined(name, method, make):
    """Every override declining: NumPy's TypeError, the call and operand types named."""
    o = Decline()
    args, kw = make(o, numpy.arange(3.0))
    want = error_of(lambda: getattr(getattr(numpy, name), method)(*args, **kw))
    args, kw = make(o, np.arange(3.0))
    got = error_of(lambda: getattr(getattr(np, name), method)(*args, **kw))
    assert want is not None and got == want


@pytest.mark.parametrize("call", [
    lambda L, o: L.add.reduce(o, 0, None, None, False, 0, True, 1),   # too many arguments
    lambda L, o: L.add.reduce(o, 0, axis=0),                         # axis twice
    lambda L, o: L.add.accumulate(L.arange(3.0), 0, None, None, out=o),
])
def test_ufunc_method_override_bad_call(call):
    """Arguments NumPy cannot parse: its TypeError, with an override among them."""
    want = error_of(lambda: call(numpy, Decline()))
    assert want is not None and error_of(lambda: call(np, Decline())) == want


GUFUNC_CALLS = [
    ("matmul", lambda o, x: ((o, x), {})),
    ("matmul", lambda o, x: ((x, o), {"dtype": numpy.float32})),
    ("matmul", lambda o, x: ((x, x), {"out": o})),
    ("matmul", lambda o, x: ((x, x), {"out": (o,), "casting": "unsafe"})),
    ("matvec", lambda o, x: ((o, x), {})),
    ("vecmat", lambda o, x: ((x, o), {"casting": "unsafe"})),
    ("vecdot", lambda o, x: ((x, o), {"axis": 0})),
    ("vecdot", lambda o, x: ((o, x), {"keepdims": True})),
]


@pytest.mark.parametrize("name,make", GUFUNC_CALLS)
def test_gufunc_function_override(name, make):
    """``matmul`` & co. (functions in npgpu, ufuncs in NumPy) hand the call on with NumPy's ufunc
    and the keywords given."""
    o = Echo()
    args, kw = make(o, numpy.ones((3, 3)))
    want = getattr(numpy, name)(*args, **kw)
    args, kw = make(o, np.ones((3, 3)))
    assert getattr(np, name)(*args, **kw) == want
    o = Decline()
    args, kw = make(o, numpy.ones((3, 3)))
    want = error_of(lambda: getattr(numpy, name)(*args, **kw))
    args, kw = make(o, np.ones((3, 3)))
    assert want is not None and error_of(lambda: getattr(np, name)(*args, **kw)) == want


def test_gufunc_override_operator():
    """``x @ o`` reaches the override through ``matmul``; the override's npgpu answer is
    npgpu's product (NumPy's ``matmul`` called back on npgpu arrays)."""
    o = Echo()
    assert np.ones((2, 3)) @ o == ("matmul", "__call__", (("array", (2, 3)), "self"), {})

    class Unwrap:
        def __init__(self, v):
            self.v = v

        def __array_ufunc__(self, ufunc, method, *inputs, **kw):
            inputs = [x.v if isinstance(x, Unwrap) else x for x in inputs]
            return getattr(ufunc, method)(*inputs, **kw)
    h = RNG.standard_normal((3, 4))
    d = np.asarray(h)
    assert_matches(np.matmul(Unwrap(d), d.T), h @ h.T)
    assert_matches(np.vecdot(d, Unwrap(d)), numpy.vecdot(h, h))


@pytest.mark.parametrize("call", [
    lambda L, z: L.add.reduce(z),
    lambda L, z: L.add.accumulate(L.arange(3.0), out=z),
    lambda L, z: L.negative.at(L.arange(3.0), z),
    lambda L, z: L.multiply.outer(z, L.arange(3.0)),
    lambda L, z: L.add(L.arange(3.0), z),
    lambda L, z: L.matmul(L.ones((2, 2)), z),
    lambda L, z: L.vecdot(z, L.ones(2)),
])
def test_array_ufunc_none(call):
    """An operand with ``__array_ufunc__ = None``: NumPy's TypeError for every ufunc form."""
    want = error_of(lambda: call(numpy, NoUfunc()))
    assert want == (TypeError, "operand 'NoUfunc' does not support ufuncs "
                               "(__array_ufunc__=None)")
    assert error_of(lambda: call(np, NoUfunc())) == want


def _array_like(lib):
    """NumPy's ``NDArrayOperatorsMixin`` docstring example over ``lib``'s arrays."""
    class ArrayLike(NDArrayOperatorsMixin):
        _HANDLED_TYPES = (lib.ndarray, numbers.Number)

        def __init__(self, value):
            self.value = lib.asarray(value)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            out = kwargs.get("out", ())
            for x in inputs + out:
                if not isinstance(x, self._HANDLED_TYPES + (ArrayLike,)):
                    return NotImplemented
            inputs = tuple(x.value if isinstance(x, ArrayLike) else x for x in inputs)
            if out:
                kwargs["out"] = tuple(x.value if isinstance(x, ArrayLike) else x for x in out)
            result = getattr(ufunc, method)(*inputs, **kwargs)
            if type(result) is tuple:
                return tuple(type(self)(x) for x in result)
            if method == "at":
                return None
            return type(self)(result)
    return ArrayLike


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex64"])
@pytest.mark.parametrize("layout", ["contiguous", "negative", "strided"])
def test_mixin_methods(dtype, layout):
    """The mixin's wrapper through ``at``, ``reduce``, ``accumulate``, ``outer`` and ``@``: the
    wrapped npgpu results are NumPy's."""
    d, h = make_layout(random_array((4, 3), dtype, RNG, low=-9, high=9), layout)
    d, h = d.copy(), h.copy()
    D, H = _array_like(np), _array_like(numpy)
    idx = [0, 2, 0]
    assert np.negative.at(D(d), np.asarray(idx)) is None      # in place on the wrapped array
    numpy.negative.at(h, idx)
    assert_matches(d, h)
    assert np.add.at(D(d), np.asarray([1, 1]), D(d[0])) is None
    numpy.add.at(h, [1, 1], h[0])
    assert_matches(d, h)
    for f in (lambda L, A, x: L.add.reduce(A(x), axis=0),
              lambda L, A, x: L.multiply.accumulate(A(x), 1),
              lambda L, A, x: L.subtract.outer(A(x[0]), x[1]),
              lambda L, A, x: A(x) @ x.T,
              lambda L, A, x: L.matmul(x, A(x.T))):
        got, want = f(np, D, d), f(numpy, H, h)
        assert type(got) is D and type(want) is H
        assert_matches(got.value, want.value)


@pytest.mark.parametrize("dtype", ["uint16", "int32", "int64", "float16", "float32",
                                   "complex128"])
def test_non_native_dtype_refused(dtype):
    """A non-native dtype asked of ``array``/``asarray`` is npgpu's TypeError (as for ``zeros``,
    ``astype``), not silently native; host data of one is read into the native dtype."""
    swapped = numpy.dtype(dtype).newbyteorder()
    want = error_of(lambda: np.zeros(2, swapped))
    assert want[0] is TypeError and repr(swapped) in want[1]
    h = random_array((3, 4), dtype, RNG)
    assert error_of(lambda: np.array(h.tolist(), swapped)) == want
    assert error_of(lambda: np.asarray(h, dtype=swapped)) == want
    assert error_of(lambda: np.asarray(h.astype(swapped), dtype=swapped)) == want
    got = np.asarray(h.astype(swapped)[::-1, 1:])
    assert got.dtype == numpy.dtype(dtype)
    assert_matches(got, h[::-1, 1:])
    assert_matches(np.array(h.tolist(), numpy.dtype(dtype).newbyteorder("=")), h)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float16", "float32", "complex64"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "negative", "zero_d", "empty"])
def test_printing_matches_numpy(dtype, layout):
    """``repr``/``str``/``array2string`` with options: NumPy's text of the same values."""
    d, h = make_layout(random_array((3, 5), dtype, RNG), layout)
    h = numpy.asarray(h)
    assert repr(d) == repr(h) and str(d) == str(h)
    assert np.array_repr(d, precision=2) == numpy.array_repr(h, precision=2)
    kw = {"precision": 2, "separator": ";", "sign": "+", "floatmode": "fixed",
          "max_line_width": 20, "prefix": "x(", "threshold": 3, "edgeitems": 1}
    assert np.array2string(d, **kw) == numpy.array2string(h, **kw)
    with np.printoptions(formatter={"all": lambda v: "v"}, linewidth=30):
        assert repr(d) == repr(h)
