"""Defects found by NumPy's own ndarray tests (``_core/tests/test_multiarray.py``), each checked
against NumPy: ``round`` of integers keeps the layout; ``conj``/``conjugate`` of a real array is
the array itself (or copied into ``out``); ``flags``' derived names (``fortran``, ``forc``...);
``partition`` with device scalars in a ``kth`` list; no floating-point errors from products."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, make_layout, raises_like

RNG = numpy.random.default_rng(4242)

INT_DTYPES = [numpy.uint8, numpy.int16, numpy.int32, numpy.uint64, numpy.int64]
REAL_DTYPES = [numpy.bool_, numpy.int8, numpy.uint16, numpy.int64, numpy.float16,
               numpy.float32, numpy.float64]


def _random(shape, dtype):
    h = RNG.integers(-50, 50, shape)
    return (h > 0 if numpy.dtype(dtype) == numpy.bool_ else h).astype(dtype)


# views made the same way of a host array and of its device copy
VIEWS = {
    "contiguous": lambda x: x,
    "transposed": lambda x: x.T,
    "permuted": lambda x: x.reshape(2, 3, 4).transpose(1, 0, 2),
    "permuted_strided": lambda x: x.reshape(2, 3, 4)[:, ::-1, ::2].transpose(2, 0, 1),
    "strided": lambda x: x[::2, 1::3],
    "negative": lambda x: x[::-1],
    "zero_d": lambda x: x[1, 2, ...],
    "empty": lambda x: x[:0],
}


def _pair(dtype, view):
    h = _random((4, 6), dtype)
    return VIEWS[view](np.asarray(h)), VIEWS[view](h)


# --- round of integers: a copy in the input's layout (NumPy's copy keeps the order) ---------
@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("decimals", [0, 2])
def test_round_integer_copy_keeps_layout(dtype, view, decimals):
    d, h = _pair(dtype, view)
    got, want = np.round(d, decimals), numpy.round(h, decimals)
    assert_same(got, want)
    if want.size:           # (NumPy gives an empty copy zero strides)
        assert got.strides == want.strides
    assert not np.shares_memory(got, d)


@pytest.mark.parametrize("dtype", [numpy.int8, numpy.float32, numpy.complex128])
@pytest.mark.parametrize("view", list(VIEWS))
def test_copy_order_k_keeps_memory_order(dtype, view):
    d, h = _pair(dtype, view)
    for order in ["K", "A", "C", "F"]:
        got, want = d.copy(order=order), h.copy(order=order)
        assert_same(got, want)
        if want.size:
            assert got.strides == want.strides, order


# --- conj/conjugate: a real array is its own conjugate ---------------------------------------
@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_conj_of_real_is_self(dtype, view):
    d, h = _pair(dtype, view)
    assert d.conj() is d and d.conjugate() is d
    assert_same(d.conj(), h.conj())


@pytest.mark.parametrize("dtype, out_dtype", [(numpy.bool_, numpy.float32),
                                              (numpy.int16, numpy.int64),
                                              (numpy.float32, numpy.complex64),
                                              (numpy.int64, numpy.float64)])
def test_conj_of_real_into_out(dtype, out_dtype):
    d, h = make_layout(_random((3, 5), dtype), "strided")
    out, hout = np.empty((3, 5), out_dtype), numpy.empty((3, 5), out_dtype)
    assert d.conj(out) is out and d.conjugate(out=out) is out
    assert_same(out, h.conj(hout))


def test_conj_of_real_into_out_casting_error():
    h = _random(4, numpy.float32)
    raises_like(lambda: h.conj(numpy.empty(4, numpy.int8)),
                lambda: np.asarray(h).conj(np.empty(4, numpy.int8)))


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("layout", ["contiguous", "negative", "zero_d", "empty"])
def test_conj_of_complex_positional_out(dtype, layout):
    h0 = (RNG.standard_normal((3, 4)) + 1j * RNG.standard_normal((3, 4))).astype(dtype)
    d, h = make_layout(h0, layout)
    out = np.empty(d.shape, dtype)
    assert d.conjugate(out) is out
    assert_same(out, h.conjugate())
    assert d.conj() is not d
    assert_same(d.conj(), h.conj())


# --- flags: NumPy's derived names -------------------------------------------------------------
_DERIVED = ["fortran", "contiguous", "forc", "fnc", "behaved", "carray", "farray",
            "writebackifcopy"]


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("readonly", [False, True])
def test_flags_derived_names(view, readonly):
    d, h = _pair(numpy.float32, view)
    if readonly:
        d, h = d.view(), h.view()
        d.flags.writeable = False
        h.flags.writeable = False
    for name in _DERIVED:
        assert getattr(d.flags, name) == getattr(h.flags, name), name
        assert d.flags[name.upper()] == h.flags[name.upper()], name
    for key in ["FNC", "FORC", "B", "CA", "FA", "X"]:
        assert d.flags[key] == h.flags[key], key


def test_flags_fortran_of_copies():
    a = np.empty((2, 2), order="F")
    assert a.flags.fortran and not a.copy().flags.fortran
    assert a.copy("F").flags.fortran and not a.copy("A").flags.contiguous


# --- partition: a kth list holding device scalars ---------------------------------------------
@pytest.mark.parametrize("func", ["partition", "argpartition"])
def test_partition_kth_list_of_device_scalars(func):
    h = RNG.permutation(23) % 7
    kth = [0, 5, 11, 22]
    dkth = [np.asarray(k) if i % 2 else k for i, k in enumerate(kth)]
    got = getattr(np, func)(np.asarray(h), dkth)
    want = getattr(numpy, func)(h, kth)
    if func == "partition":
        assert_same(got[kth], want[kth])
    else:
        assert_same(np.asarray(h)[got][kth], h[want][kth])
    with pytest.raises(ValueError, match=r"kth\(=30\) out of bounds \(23\)"):
        getattr(np, func)(np.asarray(h), [1, np.asarray(30)])


# --- dot/matmul raise no floating-point errors (docs/differences.md), on the simulator too ----
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64,
                                   numpy.complex128])
@pytest.mark.parametrize("ndim", [1, 2])
def test_products_raise_no_floating_point_errors(dtype, ndim):
    a = numpy.ones((2,) * ndim, dtype)
    b = numpy.array([-numpy.inf, numpy.inf] if ndim == 1 else
                    [[-numpy.inf, 1], [numpy.inf, 1]], dtype)
    with numpy.errstate(all="ignore"):
        want = numpy.dot(a, b)
    with np.errstate(all="raise"):
        got = np.dot(np.asarray(a), np.asarray(b))
        got_mm = np.matmul(np.asarray(a), np.asarray(b))
    assert_same(got, numpy.asarray(want))
    assert_same(got_mm, numpy.asarray(want))


# --- ndarray.choose: several positional arguments are the choices ----------------------------
@pytest.mark.parametrize("dtype", [numpy.int32, numpy.float64, numpy.complex64])
def test_choose_method_takes_choices_as_arguments(dtype):
    idx = RNG.integers(0, 3, (4, 5))
    cs = [_random((4, 5), dtype) for _ in range(3)]
    d = np.asarray(idx)
    assert_same(d.choose(*[np.asarray(c) for c in cs]), idx.choose(*cs))
    assert_same(d.choose(np.asarray(cs[0]), np.asarray(cs[1]), mode="clip"),
                idx.choose(cs[0], cs[1], mode="clip"))
    out = np.empty((4, 5), dtype)
    assert d.choose(*[np.asarray(c) for c in cs], out=out) is out
    assert_same(out, idx.choose(*cs))
    raises_like(lambda: idx.choose(), lambda: d.choose())


# --- array/ascontiguousarray/asfortranarray: NumPy's parameter names, copy= strings ------------
def test_creation_signatures():
    import inspect
    np.array(object=3)
    for f in [np.array, np.asarray, np.asanyarray, np.ascontiguousarray, np.asfortranarray]:
        sig = inspect.signature(f)
        first = "object" if f is np.array else "a"
        assert sig.parameters[first].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        assert sig.parameters["dtype"].default is None
        assert sig.parameters["like"].kind is inspect.Parameter.KEYWORD_ONLY
        f(**{first: [1, 2]})


@pytest.mark.parametrize("name", ["array", "asarray"])
def test_copy_string_refused(name):
    raises_like(lambda: getattr(numpy, name)([1, 2], copy="always"),
                lambda: getattr(np, name)([1, 2], copy="always"))


# --- ndarray.resize: refcheck is NumPy's int argument -----------------------------------------
@pytest.mark.parametrize("refcheck", ["hi", None, 2.0, [1]])
def test_resize_refcheck_type(refcheck):
    raises_like(lambda: numpy.eye(3).resize(refcheck=refcheck),
                lambda: np.eye(3).resize(refcheck=refcheck))


@pytest.mark.parametrize("refcheck", [True, False, 0, numpy.int8(1)])
def test_resize_refcheck_accepted(refcheck):
    h, d = numpy.eye(3), np.eye(3)
    h.resize((2, 5), refcheck=refcheck)
    d.resize((2, 5), refcheck=refcheck)
    assert_same(d, h)


# --- random seeds: a range is a sequence of ints -----------------------------------------------
def test_seed_range():
    a = np.random.default_rng(range(3)).random(5)
    b = np.random.default_rng([0, 1, 2]).random(5)
    assert_same(a, b.get())
