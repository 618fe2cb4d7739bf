"""Bad calls of npgpu's ufuncs and their methods raise NumPy 2's exception class and message;
``signature=`` picks NumPy's loop (values compared with NumPy's on random data)."""
import warnings

import numpy as np
import pytest

import npgpu
from conftest import assert_matches, raises_like
from npgpu.ufuncs import UFUNCS

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning", "ignore::UserWarning")

_NAMES = sorted({uf.__name__: name for name, uf in UFUNCS.items()}.values())


def _loop(uf):
    """A loop of the ufunc npgpu runs: float64 if it has one, else its first."""
    types = uf.types
    return next((t for t in types if t.startswith("d")), types[0])


def _operands(uf, rng, shape=(3, 4)):
    ins = _loop(uf).split("->")[0]
    host = []
    for c in ins:
        dt = np.dtype(c)
        if dt.kind == "b":
            h = rng.random(shape) < 0.5
        elif dt.kind in "iu":
            h = rng.integers(1, 20, shape).astype(dt)
        else:
            h = (rng.standard_normal(shape) * 3).astype(dt)
        host.append(h)
    return host, [npgpu.asarray(h) for h in host]


def _same(np_call, gpu_call):
    """NumPy's answer: its values, or its exception class and message."""
    try:
        with np.errstate(all="ignore"):
            want = np_call()
    except Exception:           # noqa: BLE001 - compared below
        raises_like(np_call, gpu_call)
        return
    assert_matches(gpu_call(), want)


def _both(rng, name, call):
    """raises_like for ``call(module, ufunc, operands)`` on NumPy and npgpu."""
    uf = getattr(npgpu, name) if hasattr(npgpu, name) else UFUNCS[name]
    host, dev = _operands(uf, rng)
    npuf = uf._np
    raises_like(lambda: call(np, npuf, host), lambda: call(npgpu, uf, dev))


# ---- every ufunc: argument parsing -----------------------------------------------------------
_GENERIC = {
    "too_few": lambda m, f, x: f(*x[:-1]),
    "none_given": lambda m, f, x: f(),
    "too_many": lambda m, f, x: f(*x, *([m.empty_like(x[0])] * (f.nout + 1))),
    "out_twice": lambda m, f, x: f(*x, m.empty_like(x[0]), out=m.empty_like(x[0])),
    "out_tuple_length": lambda m, f, x: f(*x, out=(m.empty_like(x[0]),) * (f.nout + 1)),
    "out_not_array": lambda m, f, x: f(*x, out=(1,) * f.nout),
    "out_list": lambda m, f, x: f(*x, out=[m.empty_like(x[0])]),
    "unknown_keyword": lambda m, f, x: f(*x, bogus=1),
    "axes": lambda m, f, x: f(*x, axes=[(0,)] * (f.nin + f.nout)),
    "axis": lambda m, f, x: f(*x, axis=0),
    "keepdims": lambda m, f, x: f(*x, keepdims=True),
    "extobj": lambda m, f, x: f(*x, extobj=[8192, 0, None]),
    "casting_bad": lambda m, f, x: f(*x, casting="sometimes"),
    "casting_int": lambda m, f, x: f(*x, casting=1),
    "order_bad": lambda m, f, x: f(*x, order="Z"),
    "order_int": lambda m, f, x: f(*x, order=1),
    "dtype_bad": lambda m, f, x: f(*x, dtype="not_a_dtype"),
    "dtype_and_signature": lambda m, f, x: f(*x, dtype="f8", signature=(None,) * f.nargs),
    "signature_length": lambda m, f, x: f(*x, signature=(None,) * (f.nargs + 1)),
    "signature_int": lambda m, f, x: f(*x, signature=3),
    "signature_string": lambda m, f, x: f(*x, signature="d" * (f.nin + 1) + "->d"),
    "signature_bad_char": lambda m, f, x: f(*x, signature="Z" * f.nin + "->" + "Z" * f.nout),
    "where_int": lambda m, f, x: f(*x, where=m.ones(x[0].shape, "i4")),
    "str_operand": lambda m, f, x: f(*x[:-1], "a"),
    "none_operand": lambda m, f, x: f(*x[:-1], None),
    "object_operand": lambda m, f, x: f(*x[:-1], object()),
}


@pytest.mark.parametrize("case", sorted(_GENERIC))
def test_every_ufunc_bad_call(case, rng):
    call = _GENERIC[case]
    for name in _NAMES:
        uf = UFUNCS[name]
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                want = None
                call(np, uf._np, _operands(uf, rng)[0])
        except Exception as e:      # noqa: BLE001 - the error every ufunc must repeat
            want = e
        if want is None:        # NumPy runs it (object loops): npgpu has its own answer
            continue
        _both(rng, name, call)


def test_few_arguments_message(rng):
    # NumPy says "1 was given" (npgpu said "1 were given")
    raises_like(lambda: np.add(np.ones(3)), lambda: npgpu.add(npgpu.ones(3)))
    raises_like(lambda: np.divmod(np.ones(3)), lambda: npgpu.divmod(npgpu.ones(3)))


# ---- out=, casting=, dtype= -------------------------------------------------------------------
@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind"])
@pytest.mark.parametrize("out_dtype", ["f4", "i4", "i8", "u1", "?", "c8"])
def test_out_dtype_casting(casting, out_dtype, rng):
    h = rng.standard_normal((3, 4))
    d = npgpu.asarray(h)
    ho, do = np.empty((3, 4), out_dtype), npgpu.empty((3, 4), out_dtype)
    if np.can_cast("f8", out_dtype, casting):
        assert_matches(npgpu.add(d, d, out=do, casting=casting), np.add(h, h, out=ho, casting=casting))
    else:
        raises_like(lambda: np.add(h, h, out=ho, casting=casting),
                    lambda: npgpu.add(d, d, out=do, casting=casting))


def test_modf_out_errors(rng):
    h = rng.standard_normal(5)
    d = npgpu.asarray(h)
    raises_like(lambda: np.modf(h, out=np.empty(5)), lambda: npgpu.modf(d, out=npgpu.empty(5)))
    raises_like(lambda: np.modf(h, out=(np.empty(5),)),
                lambda: npgpu.modf(d, out=(npgpu.empty(5),)))
    raises_like(lambda: np.divmod(h, h, out=(np.empty(5), np.empty(5, "i4"))),
                lambda: npgpu.divmod(d, d, out=(npgpu.empty(5), npgpu.empty(5, "i4"))))


def test_non_array_out_messages(rng):
    h = rng.standard_normal(4)
    d = npgpu.asarray(h)
    for bad in (1, [1.0], "x", (None, 1)):
        raises_like(lambda: np.add(h, h, out=bad), lambda: npgpu.add(d, d, out=bad))
    with pytest.raises(TypeError, match="return arrays must be of ArrayType"):
        npgpu.add(d, d, out=np.empty(4))


@pytest.mark.parametrize("dtype", ["i4", "u2", "?", "f2", int, "int64", np.int8])
def test_dtype_casting_errors(dtype, rng):
    h = rng.standard_normal((2, 5))
    d = npgpu.asarray(h)
    for casting in ("no", "equiv", "safe", "same_kind"):
        _same(lambda: np.add(h, h, dtype=dtype, casting=casting),
                    lambda: npgpu.add(d, d, dtype=dtype, casting=casting))


def test_dtype_unsupported(rng):
    d = npgpu.asarray(rng.standard_normal(3))
    for dt in (object, "U"):
        with pytest.raises(TypeError, match="npgpu does not support dtype"):
            npgpu.add(d, d, dtype=dt)


# ---- signature= picks the loop ----------------------------------------------------------------
_SIGNATURES = [
    ("add", ("d", "d"), "ff->f"), ("add", ("d", "d"), (None, None, "f4")),
    ("add", ("d", "d"), (np.float32, None, None)), ("add", ("i", "i"), "dd->d"),
    ("add", ("i", "l"), (None, None, "i2")), ("multiply", ("d", "d"), "FF->F"),
    ("subtract", ("f", "f"), "dd->d"), ("sin", ("d",), "f->f"), ("sqrt", ("d",), (None, "e")),
    ("exp", ("f",), "d->d"), ("less", ("d", "d"), "ff->?"), ("divmod", ("d", "d"), "ff->ff"),
    ("modf", ("d",), "f->ff"), ("frexp", ("d",), "f->fi"), ("ldexp", ("d", "l"), "fi->f"),
    ("floor_divide", ("l", "l"), "dd->d"), ("arctan2", ("d", "d"), (None, None, "f")),
    ("power", ("l", "l"), "dd->d"), ("maximum", ("d", "d"), "ee->e"),
]


@pytest.mark.parametrize("name,ins,sig", _SIGNATURES, ids=lambda v: str(v))
def test_signature_selects_loop(name, ins, sig, rng):
    host = []
    for c in ins:
        dt = np.dtype(c)
        host.append(rng.integers(1, 9, 7).astype(dt) if dt.kind in "iu"
                    else (rng.standard_normal(7) * 3).astype(dt))
    for casting in ("unsafe", "same_kind"):
        np_call = lambda: getattr(np, name)(*host, signature=sig, casting=casting)  # noqa: E731
        gpu_call = lambda: getattr(npgpu, name)(*map(npgpu.asarray, host),  # noqa: E731
                                                signature=sig, casting=casting)
        try:
            with np.errstate(all="ignore"):
                want = np_call()
        except TypeError:
            raises_like(np_call, gpu_call)
            continue
        got = gpu_call()
        for g, w in zip(got if isinstance(got, tuple) else (got,),
                        want if isinstance(want, tuple) else (want,)):
            assert_matches(g, w)


def test_signature_no_loop(rng):
    hi = rng.integers(-5, 5, 6).astype(np.int32)
    h = rng.standard_normal(6)
    raises_like(lambda: np.sin(hi, signature="i->i"), lambda: npgpu.sin(npgpu.asarray(hi),
                                                                          signature="i->i"))
    raises_like(lambda: np.add(h, h, signature="ii->i"),
                lambda: npgpu.add(npgpu.asarray(h), npgpu.asarray(h), signature="ii->i"))
    raises_like(lambda: np.add(h, h, signature="f->f"),
                lambda: npgpu.add(npgpu.asarray(h), npgpu.asarray(h), signature="f->f"))


def test_signature_not_cached_as_plain_call(rng):
    # a signature call must not leave its loop in the fast path's plan
    h = rng.standard_normal(9)
    d = npgpu.asarray(h)
    assert npgpu.add(d, d, signature="ff->f").dtype == np.float32
    assert_matches(npgpu.add(d, d), h + h)
    assert_matches(npgpu.add(d, 2.5, signature="ff->f"), np.add(h, 2.5, signature="ff->f"))
    assert_matches(npgpu.add(d, 2.5), h + 2.5)


# ---- where=, operands --------------------------------------------------------------------------
def test_where_errors(rng):
    h = rng.standard_normal((3, 4))
    d = npgpu.asarray(h)
    for hw in (np.ones(5, bool), np.ones((3, 4), "i4"), np.ones((3, 4)), rng.random((2, 4)) < .5,
               np.float64(1.0), np.int32(1), rng.random(4) < .5, 1):
        dw = npgpu.asarray(hw) if isinstance(hw, np.ndarray) else hw
        _same(lambda: np.add(h, h, out=np.zeros((3, 4)), where=hw),
                    lambda: npgpu.add(d, d, out=npgpu.zeros((3, 4)), where=dw))


def test_where_values_and_subok(rng):
    h = rng.standard_normal((3, 4))
    m = rng.random((3, 4)) < 0.5
    d = npgpu.asarray(h)
    o = rng.standard_normal((3, 4))
    assert_matches(npgpu.add(d, d, out=npgpu.asarray(o), where=npgpu.asarray(m), subok=False),
                   np.add(h, h, out=o.copy(), where=m, subok=False))
    assert_matches(npgpu.add(d, d, out=npgpu.asarray(o), where=None), o)


def test_bad_operands(rng):
    h = rng.standard_normal(4)
    d = npgpu.asarray(h)
    for bad in ("a", None, object(), b"x", [None, 1.5, 2, 3]):
        raises_like(lambda: np.multiply(h, bad), lambda: npgpu.multiply(d, bad))
        raises_like(lambda: np.sin(bad), lambda: npgpu.sin(bad))
    raises_like(lambda: np.add(h, [[1, 2], [3]]), lambda: npgpu.add(d, [[1, 2], [3]]))


def test_scalar_overflow_still_checked(rng):
    hi = rng.integers(-50, 50, 6).astype(np.int8)
    di = npgpu.asarray(hi)
    raises_like(lambda: np.add(hi, 1000, casting="same_kind"),
                lambda: npgpu.add(di, 1000, casting="same_kind"))
    assert_matches(npgpu.less(di, 1000, casting="same_kind"), np.less(hi, 1000))


def test_special_ufuncs_share_the_check(rng):
    special = pytest.importorskip("scipy.special")
    from npgpu.scipy import special as gs
    h = rng.random(6) + 0.5
    d = npgpu.asarray(h)
    raises_like(lambda: special.erf(h, h, h), lambda: gs.erf(d, d, d))
    raises_like(lambda: special.erf(h, bogus=1), lambda: gs.erf(d, bogus=1))
    raises_like(lambda: special.erf(h, order="Z"), lambda: gs.erf(d, order="Z"))
    assert_matches(gs.erf(d, signature="f->f"), special.erf(h, signature="f->f"))


# ---- methods ----------------------------------------------------------------------------------
_METHODS = {
    "reduce_axis": lambda m, x: m.add.reduce(x, axis=2),
    "reduce_axis_neg": lambda m, x: m.add.reduce(x, axis=-3),
    "reduce_axis_repeat": lambda m, x: m.add.reduce(x, axis=(0, 0)),
    "reduce_axis_float": lambda m, x: m.add.reduce(x, axis=1.0),
    "reduce_dtype_bad": lambda m, x: m.add.reduce(x, dtype="foo"),
    "reduce_out_shape": lambda m, x: m.add.reduce(x, out=m.empty(3)),
    "reduce_out_list": lambda m, x: m.add.reduce(x, out=[1]),
    "reduce_out_tuple": lambda m, x: m.add.reduce(x, out=(m.empty(4), m.empty(4))),
    "reduce_initial_str": lambda m, x: m.add.reduce(x, initial="a"),
    "reduce_empty": lambda m, x: m.minimum.reduce(x[:0]),
    "reduce_where_shape": lambda m, x: m.add.reduce(x, where=m.ones(5, bool)),
    "reduce_where_int": lambda m, x: m.add.reduce(x, where=m.ones((3, 4), "i4")),
    "reduce_where_no_initial": lambda m, x: m.minimum.reduce(x, where=m.ones((3, 4), bool)),
    "reduce_keyword": lambda m, x: m.add.reduce(x, foo=1),
    "reduce_too_many": lambda m, x: m.add.reduce(x, 0, None, None, False, 0, True, 1),
    "reduce_none": lambda m, x: m.add.reduce(),
    "reduce_unary": lambda m, x: m.sin.reduce(x),
    "reduce_two_outputs": lambda m, x: m.divmod.reduce(x),
    "reduce_str": lambda m, x: m.add.reduce("abc"),
    "accumulate_axis": lambda m, x: m.add.accumulate(x, axis=2),
    "accumulate_axis_none": lambda m, x: m.add.accumulate(x, axis=None),
    "accumulate_axis_tuple": lambda m, x: m.add.accumulate(x, axis=(0, 1)),
    "accumulate_out_shape": lambda m, x: m.add.accumulate(x, out=m.empty(3)),
    "accumulate_keyword": lambda m, x: m.add.accumulate(x, foo=1),
    "accumulate_where": lambda m, x: m.add.accumulate(x, where=True),
    "accumulate_unary": lambda m, x: m.sin.accumulate(x),
    "accumulate_0d": lambda m, x: m.add.accumulate(x[0, 0]),
    "reduceat_axis": lambda m, x: m.add.reduceat(x, [0, 1], axis=2),
    "reduceat_index": lambda m, x: m.add.reduceat(x, [0, 7]),
    "reduceat_index_2d": lambda m, x: m.add.reduceat(x, [[0]]),
    "reduceat_out_shape": lambda m, x: m.add.reduceat(x, [0, 1], out=m.empty(3)),
    "reduceat_keyword": lambda m, x: m.add.reduceat(x, [0], foo=1),
    "reduceat_0d": lambda m, x: m.add.reduceat(x[0, 0], [0]),
    "reduceat_unary": lambda m, x: m.sin.reduceat(x, [0]),
    "outer_unary": lambda m, x: m.sin.outer(x, x),
    "outer_casting": lambda m, x: m.add.outer(x, x, dtype="i4", casting="safe"),
    "outer_out_shape": lambda m, x: m.add.outer(x, x, out=m.empty(3)),
    "outer_keyword": lambda m, x: m.add.outer(x, x, foo=1),
    "outer_str": lambda m, x: m.add.outer(x, "a"),
    "outer_one": lambda m, x: m.add.outer(x),
    "outer_three": lambda m, x: m.add.outer(x, x, x),
    "at_no_b": lambda m, x: m.add.at(x.copy(), [0]),
    "at_unary_b": lambda m, x: m.negative.at(x.copy(), [0], x[0]),
    "at_index": lambda m, x: m.add.at(x.copy(), [7], 1.0),
    "at_b_shape": lambda m, x: m.add.at(x.copy(), [0, 1], m.ones(3)),
    "at_str_b": lambda m, x: m.add.at(x.copy(), [0], "a"),
    "at_float_index": lambda m, x: m.add.at(x.copy(), [0.5], 1.0),
    "at_two_outputs": lambda m, x: m.divmod.at(x.copy(), [0], 1.0),
    "at_four": lambda m, x: m.add.at(x.copy(), [0], 1.0, 2),
    "at_list": lambda m, x: m.add.at([1, 2], [0], 1.0),
}


@pytest.mark.parametrize("case", sorted(_METHODS))
def test_method_errors(case, rng):
    h = rng.standard_normal((3, 4))
    d = npgpu.asarray(h)
    raises_like(lambda: _METHODS[case](np, h), lambda: _METHODS[case](npgpu, d))


def test_methods_still_compute(rng):
    h = rng.standard_normal((3, 4))
    w = rng.random((3, 4)) < 0.5
    d = npgpu.asarray(h)
    assert_matches(npgpu.add.reduce(d, axis=1, where=npgpu.asarray(w)),
                   np.add.reduce(h, axis=1, where=w))
    assert_matches(npgpu.multiply.accumulate(d, axis=0), np.multiply.accumulate(h, axis=0))
    assert_matches(npgpu.add.reduceat(d, [0, 2], axis=1), np.add.reduceat(h, [0, 2], axis=1))
    assert_matches(npgpu.subtract.outer(d[0], d[1]), np.subtract.outer(h[0], h[1]))
    assert_matches(npgpu.add.outer(d[0], d[1], signature="ff->f"),
                   np.add.outer(h[0], h[1], signature="ff->f"))
    a, b = d.copy(), h.copy()
    npgpu.add.at(a, ([0, 0, 2], [1, 1, 3]), 2.5)
    np.add.at(b, ([0, 0, 2], [1, 1, 3]), 2.5)
    assert_matches(a, b)
