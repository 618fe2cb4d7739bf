"""Edges checked against NumPy 2.4 from outside the library: power's fast paths for an exponent
that is one value for the whole loop, every index form of ``ufunc.at``, and ``take`` on empty
arrays and empty indices (values, dtype and shape, or NumPy's exception class and message)."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, raises_like, tolerance

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
RNG = numpy.random.default_rng(2024)
INF, NAN = numpy.inf, numpy.nan


def same_values(got, want):
    """dtype and shape equal; NaN, +-inf and the sign of zeros where NumPy has them; other
    values within a few ulp of their modulus (NumPy's and npgpu's pow differ in the last
    bits; a complex result's small part may be a rounding residue in one and zero in the
    other)."""
    got = got.get() if isinstance(got, np.ndarray) else numpy.asarray(got)
    want = numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype,
                                                                 got.shape, want.shape)
    if want.dtype.kind not in "fc":
        numpy.testing.assert_array_equal(got, want)
        return
    for part in (numpy.real, numpy.imag) if want.dtype.kind == "c" else (numpy.real,):
        g, w = part(got), part(want)
        numpy.testing.assert_array_equal(numpy.isnan(g), numpy.isnan(w))
        numpy.testing.assert_array_equal(numpy.isinf(g) * numpy.sign(g),
                                         numpy.isinf(w) * numpy.sign(w))
        zero = (w == 0) & (g == 0)
        numpy.testing.assert_array_equal(numpy.signbit(g[zero]), numpy.signbit(w[zero]))
    ok = numpy.isfinite(want)
    err = numpy.abs(got[ok].astype(complex) - want[ok])
    assert numpy.all(err <= tolerance(want.dtype)[0] * numpy.abs(want[ok])), \
        (got[ok][err > 0], want[ok][err > 0])


# --- power: NumPy's paths for an exponent that is one value ------------------------------------
# NumPy's float32/float64 loop, its exponent read with a zero stride: -1 -> 1/x, 0 -> 1,
# 0.5 -> sqrt (-0.0 -> -0.0, -inf -> NaN), 1 -> x, 2 -> x*x.  ndarray.__pow__ of a float or
# complex array: Python int 2 -> square, -1 -> reciprocal, Python float 0.5 -> sqrt.
SPECIAL = [-0.0, 0.0, -INF, INF, NAN, -2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 3.0, 1e-30, -1e-30,
           5e-324, -5e-324, 1e300, -1e300, 65504.0, 7.25,
           1e-310, -1e-310, 1e-40, -1e-40, 3e-6, -3e-6]      # subnormals of f8, f4, f2
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
EXPONENTS = [0.5, 2, 2.0, -1, -1.0, 1, 1.0, 0, 0.0, -0.0, 3, -2, 1.5, 0.25, True]


def base_values(dt):
    """The special values and random ones, of dtype ``dt`` (complex: every pair of parts)."""
    with numpy.errstate(all="ignore"):
        if numpy.dtype(dt).kind == "c":
            parts = SPECIAL[:8] + list(RNG.standard_normal(4) * 3)
            v = numpy.array([complex(r, i) for r in parts for i in parts])
        else:
            v = numpy.concatenate([SPECIAL, RNG.standard_normal(12) * 3])
        return v.astype(dt)


def _power_forms(e):
    """(name, call(xp, x)) for the ways a program passes one exponent value."""
    forms = [("ufunc", lambda xp, x: xp.power(x, e)), ("operator", lambda xp, x: x ** e)]
    for sdt in ["float16", "float32", "float64", "complex128", "int64"]:
        s = numpy.array(e).astype(sdt if numpy.dtype(sdt).kind == "c" or not
                                  isinstance(e, complex) else "complex128")[()]
        if complex(s) != complex(e) or s.dtype != sdt:
            continue
        forms += [
            (f"np.{sdt}", lambda xp, x, s=s: xp.power(x, s)),
            (f"op np.{sdt}", lambda xp, x, s=s: x ** s),
            (f"0-d {sdt}", lambda xp, x, s=s: xp.power(x, xp.asarray(numpy.array(s)))),
            (f"host 0-d {sdt}", lambda xp, x, s=s: xp.power(x, numpy.array(s))),
            (f"(1,) {sdt}", lambda xp, x, s=s: xp.power(x, xp.asarray(numpy.array([s])))),
            (f"full {sdt}", lambda xp, x, s=s: xp.power(x, xp.full(x.shape, s))),
        ]
    return forms


@pytest.mark.parametrize("dt", FLOATS + COMPLEX)
@pytest.mark.parametrize("e", EXPONENTS, ids=repr)
def test_power_one_exponent(dt, e):
    h = base_values(dt)
    for name, f in _power_forms(e):
        with numpy.errstate(all="ignore"):
            want = f(numpy, h.copy())
        same_values(f(np, np.asarray(h)), want)


@pytest.mark.parametrize("dt", COMPLEX)
@pytest.mark.parametrize("e", [0.5 + 0j, 2 + 0j, -1 + 0j, 1j, 0j])
def test_power_complex_exponent(dt, e):
    h = base_values(dt)
    for name, f in _power_forms(e)[:2] + [("0-d", lambda xp, x: xp.power(x, xp.asarray(
            numpy.array(e, dt))))]:
        with numpy.errstate(all="ignore"):
            want = f(numpy, h.copy())
        same_values(f(np, np.asarray(h)), want)


@pytest.mark.parametrize("dt", FLOATS + COMPLEX)
@pytest.mark.parametrize("e", [0.5, 2, -1, 1.5])
def test_power_in_place_out_where_layouts(dt, e):
    h = base_values(dt)[:20]
    d = np.asarray(h)
    # x **= e
    w, g = h.copy(), d.copy()
    with numpy.errstate(all="ignore"):
        w **= e
    g **= e
    same_values(g, w)
    rdt = numpy.result_type(h, e)
    with numpy.errstate(all="ignore"):
        mask = numpy.arange(h.size) % 3 != 1
        cases = [
            (lambda xp, x: xp.power(x, e, out=xp.zeros(x.shape, rdt))),
            (lambda xp, x: xp.power(x, e, where=xp.asarray(mask), out=xp.ones(x.shape, rdt))),
            (lambda xp, x: xp.power(x.reshape(4, 5)[::-1, ::2], e)),      # negative, strided
            (lambda xp, x: xp.power(x.reshape(4, 5).T, e)),
            (lambda xp, x: xp.power(x[2:3].reshape(()), e)),               # 0-d base
            (lambda xp, x: x[2:3].reshape(()) ** e),
            (lambda xp, x: xp.power(x[:0], e)),                            # empty
            (lambda xp, x: xp.power.outer(x[:4], e)),
            (lambda xp, x: xp.power.outer(x[:4], [e, 3.0])),
        ]
        for f in cases:
            same_values(f(np, d), f(numpy, h))


# an exponent array of one value: NumPy's loop reads it with a zero stride where its iterator
# broadcasts it; elementwise pow where its trivial loop reads it (every other operand 0-d or of
# its shape) and where it is broadcast along some axes only (a column, a row)
LAYOUTS = [
    ("bcast (1,)", (5,), lambda xp: xp.asarray(numpy.array([0.5])), {}),
    ("bcast (1,1)", (3, 4), lambda xp: xp.asarray(numpy.array([[0.5]])), {}),
    ("broadcast_to", (3, 4), lambda xp: xp.broadcast_to(xp.asarray(numpy.array(0.5)), (3, 4)),
     {}),
    ("x (1,) e (1,1)", (1,), lambda xp: xp.asarray(numpy.array([[0.5]])), {}),
    ("x (1,1) e (1,)", (1, 1), lambda xp: xp.asarray(numpy.array([0.5])), {}),
    ("trivial (1,)", (1,), lambda xp: xp.asarray(numpy.array([0.5])), {}),
    ("trivial 0-d x", (), lambda xp: xp.asarray(numpy.array([0.5])), {}),
    ("0-d both", (), lambda xp: xp.asarray(numpy.array(0.5)), {}),
    ("masked (1,)", (1,), lambda xp: xp.asarray(numpy.array([0.5])),
     {"where": lambda xp: xp.asarray(numpy.array([True])), "out": (1,)}),
    ("column", (3, 4), lambda xp: xp.asarray(numpy.full((3, 1), 0.5)), {}),
    ("row", (3, 4), lambda xp: xp.asarray(numpy.full((1, 4), 0.5)), {}),
    ("elementwise", (6,), lambda xp: xp.asarray(numpy.full(6, 0.5)), {}),
]


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("case", LAYOUTS, ids=[c[0] for c in LAYOUTS])
def test_power_exponent_layouts(dt, case):
    _, shape, exp, kw = case
    h = numpy.resize(numpy.array([-0.0, -INF, 4.0, -2.0, 0.0, 9.0], dt), shape)

    def call(xp):
        e = exp(xp)
        e = e.astype(dt) if hasattr(e, "astype") else e
        k = {}
        if "where" in kw:
            k = {"where": kw["where"](xp), "out": xp.zeros(kw["out"], dt)}
        return xp.power(xp.asarray(h) if xp is np else h, e, **k)
    with numpy.errstate(all="ignore"):
        want = call(numpy)
    same_values(call(np), want)


def test_power_out_of_another_dtype_takes_the_one_value_path():
    # an output the loop cannot write directly: NumPy's iterator broadcasts the one-element
    # exponent (one value); an output of the loop's dtype: its trivial loop (elementwise)
    h, e = numpy.array([-0.0], numpy.float32), numpy.array([0.5], numpy.float32)
    for odt in (numpy.float64, numpy.float32):
        want = numpy.power(h, e, out=numpy.zeros(1, odt))
        same_values(np.power(np.asarray(h), np.asarray(e), out=np.zeros(1, odt)), want)
        assert numpy.signbit(want[0]) == (odt == numpy.float64)


@pytest.mark.parametrize("dt", ["int8", "int64", "uint8", "bool"])
def test_power_integer_arrays(dt):
    h = RNG.integers(0 if dt in ("uint8", "bool") else -4, 5, 12).astype(dt)
    h[:2] = 0
    d = np.asarray(h)
    for e in [0.5, 2, 2.0, 0, 1, -0.5, 3, True, numpy.float32(0.5), numpy.float16(0.5)]:
        with numpy.errstate(all="ignore"):
            same_values(np.power(d, e), numpy.power(h, e))
            same_values(d ** e, h ** e)
    if dt in ("int8", "int64"):
        raises_like(lambda: numpy.power(h, -1), lambda: np.power(d, -1))
        raises_like(lambda: h ** -1, lambda: d ** -1)


@pytest.mark.parametrize("dt", FLOATS + COMPLEX)
def test_power_at_calls_its_loop_an_element_at_a_time(dt):
    # NumPy's at runs the loop on one element at a time: every exponent of a float32/float64
    # loop is one value (a Python scalar b becomes a float64 array: float16 runs that loop)
    h = base_values(dt)[:16]
    idx = numpy.array([0, 2, 2, 3, 5, 1, 15, 7])
    bs = [0.5, numpy.array([0.5, -1, 2, 0.5, 0.5, 1, 0.5, 3], dt),
          numpy.array([0.5], dt), numpy.float32(0.5)]
    for b in bs:
        w, g = h.copy(), np.asarray(h)
        with numpy.errstate(all="ignore"):
            numpy.power.at(w, idx, b)
        np.power.at(g, np.asarray(idx), np.asarray(b) if isinstance(b, numpy.ndarray) else b)
        same_values(g, w)


@pytest.mark.parametrize("dt", FLOATS + COMPLEX)
def test_fused_power(dt):
    h = base_values(dt)[:20]
    for f in [lambda x: x ** 0.5, lambda x: x ** -1, lambda x: x ** 2.0, lambda x: x ** -1.0,
              lambda x: x ** numpy.float64(0.5), lambda x: x ** 1.5 + x ** 0.5]:
        with numpy.errstate(all="ignore"):
            want = f(h)
        same_values(np.fuse(f)(np.asarray(h)), want)
    fp = np.fuse(lambda x, e: np.power(x, e))
    with numpy.errstate(all="ignore"):
        same_values(fp(np.asarray(h), 0.5), numpy.power(h, 0.5))
        full = numpy.full(h.shape, 0.5, h.real.dtype)
        same_values(fp(np.asarray(h), np.asarray(full)), numpy.power(h, full))


# --- ufunc.at: every index form NumPy takes ------------------------------------------------------
A1 = numpy.arange(6)
A2 = numpy.arange(12).reshape(3, 4)
A3 = numpy.arange(24).reshape(2, 3, 4)
INDICES = [
    (A1, (None,)), (A1, None), (A1, Ellipsis), (A1, (Ellipsis,)), (A1, ()), (A1, slice(1, None, 2)),
    (A1, slice(None, None, -1)), (A1, -1), (A1, numpy.int64(-2)), (A1, numpy.array(2)),
    (A1, numpy.array(-1)), (A1, [0, 0, 1, -1, -1]), (A1, numpy.array([0, 0, 1, -1])),
    (A1, numpy.array([1, 1], numpy.uint8)), (A1, numpy.array([[0, 1], [1, 0]])), (A1, [[0, 1]]),
    (A1, []), (A1, numpy.array([], numpy.int64)), (A1, True), (A1, False), (A1, numpy.True_),
    (A1, numpy.array(True)), (A1, A1 % 2 == 0), (A1, (None, 1)), (A1, (1, None)),
    (A1, (None, None)), (A1, (Ellipsis, None)), (A1, (None, Ellipsis)), (A1, (None, [0, 0])),
    (A1, ([0, 0], None)), (A1, (slice(None), None)),
    (A2, (None,)), (A2, (None, 1)), (A2, (1, None)), (A2, (None, slice(None), None, [0, 1])),
    (A2, (None, [0, 0], None, [1, 1])), (A2, ([0, 0], slice(None), [1, 1])),
    (A2, ([0, 0], [1, 1])), (A2, (Ellipsis, [0, 0])), (A2, ([0, 2], Ellipsis)),
    (A2, (numpy.array(1), numpy.array(2))), (A2, (-1, -1)), (A2, numpy.array([True, False, True])),
    (A2, A2 % 3 == 0), (A2, (numpy.array([True, False, True]), [0, 1])),
    (A2, (slice(None), numpy.array([True, False, True, True]))), (A2, (0, Ellipsis)),
    (A2, (Ellipsis, 0)), (A2, (None, Ellipsis, None)), (A2, (None, None, 0, 0)),
    (A2, ([[0], [1]], [0, 1])), (A2, (slice(None, None, -2), [3, 0, 3])),
    (A2, ([0], [0, 1, 2])),
    (A3, ([0, 1], slice(None), [0, 1])), (A3, (slice(None), [0, 0], [1, 1])),
    (A3, (None, [1], None, slice(None), [2, 2])), (A3, (Ellipsis, [0, 0], None)),
    (A3, (0, None, [0, 1], slice(None))), (A3, A3 % 5 == 0), (A3, (A3[:, :, 0] % 2 == 0, 1)),
    (A3, (1, A3[0] % 2 == 1)),
]
AT_UFUNCS = ["add", "subtract", "multiply", "maximum", "minimum", "negative"]


def _device(idx):
    if isinstance(idx, numpy.ndarray):
        return np.asarray(idx)
    if isinstance(idx, tuple):
        return tuple(_device(i) for i in idx)
    return idx


def _at_result(xp, name, a, idx, b):
    x = a.copy() if xp is numpy else np.asarray(a)
    f = getattr(xp, name).at
    f(x, idx) if b is None else f(x, idx, b)
    return x


@pytest.mark.parametrize("name", AT_UFUNCS)
@pytest.mark.parametrize("case", range(len(INDICES)))
def test_ufunc_at_index_forms(name, case):
    a, idx = INDICES[case]
    for dt in (["float64", "int32"] if case % 2 else ["float32", "int64"]):
        h = (RNG.standard_normal(a.shape) * 10).astype(dt)
        try:
            want_shape = numpy.shape(h[idx])
        except IndexError:          # (an index NumPy's at rejects too)
            want_shape = ()
        bs = [None] if name == "negative" else [
            3, (RNG.standard_normal(want_shape) * 5).astype(dt), numpy.array([2], dt)]
        for b in bs:
            bb = np.asarray(b) if isinstance(b, numpy.ndarray) else b
            for ix in (idx, _device(idx)):      # host and device index arrays
                same_outcome(lambda: _at_result(numpy, name, h, idx, b),
                             lambda: _at_result(np, name, h, ix, bb))


def same_outcome(np_call, gpu_call):
    """NumPy's result (bit-exact) or its exception class and message."""
    try:
        want = np_call()
    except Exception:       # noqa: BLE001 - the class and message are compared
        raises_like(np_call, gpu_call)
        return
    assert_same(gpu_call(), want)


AT_ERRORS = [
    (A1, [0, 7], 1.0), (A1, [-7], 1.0), (A1, 7, 1.0), (A1, -7, 1.0), (A1, numpy.array([0, 7]), 1.0),
    (A1, numpy.array(9), 1.0), (A1, [1.0], 1.0), (A1, numpy.array([1.0]), 1.0), (A1, 1.0, 1.0),
    (A1, "a", 1.0), (A1, (0, 0), 1.0), (A1, (Ellipsis, Ellipsis), 1.0),
    (A1, [0, 1], numpy.ones(3)), (A1, [], numpy.ones(3)), (A1, (None,), numpy.ones(4)),
    (A1, numpy.array([True, False]), 1.0), (A2, (0, 4), 1.0), (A2, (0, numpy.array([4])), 1.0),
    (A2, ([0, 1], [0, 1, 2]), 1.0), (A2, ([0, 5], [0, 9]), 1.0), (A2, [0, 1], numpy.ones(3)),
    (A2, ([], [9]), 1.0), (A1, [0, 1], None),
]


@pytest.mark.parametrize("case", range(len(AT_ERRORS)))
def test_ufunc_at_errors(case):
    a, idx, b = AT_ERRORS[case]
    h = (RNG.standard_normal(a.shape) * 10)
    bb = np.asarray(b) if isinstance(b, numpy.ndarray) else b
    for ix in (idx, _device(idx)):
        w, g = h.copy(), np.asarray(h)

        def run(xp, x, ix, b):
            getattr(xp, "add").at(x, ix, b)
            return x
        same_outcome(lambda: run(numpy, w, idx, b), lambda: run(np, g, ix, bb))
        assert_same(g, w)           # nothing written where NumPy raises
    raises_like(lambda: numpy.negative.at(h.copy(), idx, 1.0),
                lambda: np.negative.at(np.asarray(h), _device(idx), 1.0))


def test_ufunc_at_duplicates_accumulate_in_order():
    h = RNG.standard_normal(5)
    idx = numpy.array([4, 0, 4, 4, 1, 0, -1])
    b = RNG.standard_normal(7)
    for name in ("subtract", "maximum", "power", "divide"):
        w, g = numpy.abs(h) + 0.5, np.asarray(numpy.abs(h) + 0.5)
        getattr(numpy, name).at(w, (None, idx), b)
        getattr(np, name).at(g, (None, np.asarray(idx)), np.asarray(b))
        same_values(g, w)


# --- take on empty arrays and empty indices ------------------------------------------------------
TAKE_SHAPES = [(0,), (0, 3), (3, 0), (2, 0, 3), (), (4,), (3, 4)]
TAKE_INDICES = [[], numpy.array([], numpy.int64), numpy.zeros((0, 2), numpy.int64),
                numpy.zeros((2, 0), numpy.uint8), numpy.array([], bool), [[]], [0], 0, -1,
                [1, -1], [5], numpy.array(0), numpy.array([], numpy.float64)]


def _take(xp, a, idx, axis, mode, out, method, dev):
    x = a if xp is numpy else np.asarray(a)
    if xp is np and dev and isinstance(idx, numpy.ndarray):
        idx = np.asarray(idx)
    if out is not None and xp is np:
        out = np.asarray(out)
    if method:
        r = x.take(idx, axis=axis, mode=mode, out=out)
    else:
        r = xp.take(x, idx, axis=axis, mode=mode, out=out)
    # (NumPy returns a 0-d out as a scalar; npgpu keeps 0-d arrays)
    assert out is None or r is out or (xp is numpy and out.ndim == 0)
    return out if out is not None else r


@pytest.mark.parametrize("shape", TAKE_SHAPES, ids=str)
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take_empty(shape, mode):
    a = numpy.arange(int(numpy.prod(shape)), dtype=numpy.float32).reshape(shape) * 1.5 - 2
    for axis in [None, 0, 1, -1, 2, -3]:
        for k, idx in enumerate(TAKE_INDICES):
            try:
                ref_shape = numpy.take(a, idx, axis=axis, mode=mode).shape
            except (IndexError, ValueError, TypeError, numpy.exceptions.AxisError):
                ref_shape = None
            outs = [None, numpy.zeros((7,), numpy.float32)]     # (a wrong shape)
            if ref_shape is not None:           # (float64: not a safe cast to a's dtype)
                outs += [numpy.full(ref_shape, 9, numpy.float32),
                         numpy.full(ref_shape, 9, numpy.float64)]
            for out in outs:
                method, dev = bool(k % 2), bool(k % 3)
                try:
                    want = _take(numpy, a, idx, axis, mode, None if out is None else out.copy(),
                                 method, dev)
                except Exception:       # noqa: BLE001 - the class and message are compared
                    raises_like(lambda: _take(numpy, a, idx, axis, mode, out, method, dev),
                                lambda: _take(np, a, idx, axis, mode, out, method, dev))
                    continue
                assert_same(_take(np, a, idx, axis, mode, out, method, dev), want)


def _out(xp, kind):
    """take's out= of a kind: a list, a shape (zeros), ("complex", shape), ("ro", shape)."""
    if kind == "list":
        return [0]
    shape, dt, ro = kind[-1], complex if kind[0] == "complex" else float, kind[0] == "ro"
    o = numpy.zeros(shape, dt) if xp is numpy else np.zeros(shape, dt)
    if ro:
        o.flags.writeable = False
    return o


A34 = numpy.arange(12.0).reshape(3, 4)
TAKE_ORDER = [  # NumPy's order: out's type, the mode, the axis, the index's type, out's shape,
    # its dtype, whether it is writeable, an empty axis, then the index values
    (A34, [0, 1], 0, "list", "raise"), (A34, [0, 1], 5, "list", "raise"),
    (A34, [0, 1], 0, "list", "bogus"), (A34, [0, 1], 5, ((2, 4),), "bogus"),
    (A34, numpy.array([0.5]), 0, ((5, 4),), "raise"), (A34, [0, 9], 0, ((5, 4),), "raise"),
    (A34, [0, 1], 0, ("complex", (3, 4)), "raise"), (A34, [0, 9], 0, ("complex", (2, 4)), "raise"),
    (A34, [0, 9], 0, ("ro", (1, 4)), "raise"), (A34, [0, 9], 0, ("ro", (2, 4)), "raise"),
    (A34, [], 0, ("ro", (0, 4)), "clip"), (numpy.zeros((0, 4)), [0], 0, ((2, 4),), "wrap"),
    (numpy.zeros((0, 4)), [0], 0, ("complex", (1, 4)), "wrap"),
]


@pytest.mark.parametrize("case", range(len(TAKE_ORDER)))
def test_take_out_checks_come_first(case):
    a, idx, axis, kind, mode = TAKE_ORDER[case]
    raises_like(lambda: numpy.take(a, idx, axis=axis, mode=mode, out=_out(numpy, kind)),
                lambda: np.take(np.asarray(a), idx, axis=axis, mode=mode, out=_out(np, kind)))


@pytest.mark.parametrize("shape,axis", [((0, 3), 1), ((2, 0, 3), 2), ((2, 0, 3), -1)])
def test_take_reads_no_index_without_rows(shape, axis):
    # nothing before the axis to take from: NumPy checks no index value
    a = numpy.zeros(shape, numpy.float32)
    for idx in ([5], numpy.array([-9, 7]), numpy.array([[4]])):
        want = numpy.take(a, idx, axis=axis)
        assert_same(np.take(np.asarray(a), idx, axis=axis), want)
        assert_same(np.take(np.asarray(a), np.asarray(numpy.asarray(idx)), axis=axis), want)
        out = np.zeros(want.shape, numpy.float32)
        assert np.asarray(a).take(idx, axis=axis, out=out) is out


@pytest.mark.parametrize("view", ["reversed", "strided", "transposed"])
def test_ufunc_at_on_views(view):
    base = (RNG.standard_normal((6, 8)) * 10).astype("float32")
    pick = {"reversed": lambda x: x[::-1, ::-2], "strided": lambda x: x[1::2, 2:7:2],
            "transposed": lambda x: x.T[1:6]}[view]
    for idx in [(None, [0, 0, 2], None, slice(None, None, -1)), (Ellipsis, [1, 1]), -1,
                (numpy.array(1), slice(None)), (slice(None), numpy.array([True, False, True]))]:
        for name, b in (("add", 1.5), ("maximum", 0.25), ("negative", None)):
            def run(xp):
                full = base.copy() if xp is numpy else np.asarray(base)
                v = pick(full)
                f = getattr(xp, name).at
                f(v, _device(idx) if xp is np else idx) if b is None else f(
                    v, _device(idx) if xp is np else idx, b)
                return full
            same_outcome(lambda: run(numpy), lambda: run(np))
