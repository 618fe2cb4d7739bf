"""Defects found by NumPy's own einsum, NEP 50 promotion and array coercion tests
(``_core/tests/test_einsum.py``, ``test_nep50_promotions.py``, ``test_array_coercion.py``),
each checked against NumPy: einsum's keyword checks, ``dtype=`` casts with ``casting=``,
``order=``, explicit paths, a 0-d ``out`` of the optimized path and ``einsum_path``'s sublist
form; ``concatenate`` with Python scalars (weak); nested sequences of device arrays (NumPy's
shape discovery, its ragged and maximum-dimension errors)."""
import numpy
import pytest

import npgpu as np
from conftest import assert_matches, assert_same, raises_like, random_array

RNG = numpy.random.default_rng(1212)
OPTS = [False, True, "optimal"]


# --- einsum: keyword checks -------------------------------------------------------------------
@pytest.mark.parametrize("opt", OPTS)
@pytest.mark.parametrize("sub, kw", [
    ("i->i", {"order": "W"}),
    ("i->i", {"order": "d"}),
    ("i", {"casting": "blah"}),
    ("i", {"casting": "same_value"}),
    ("i", {"casting": 3}),
    ("i", {"dtype": "bad_data_type"}),
    ("i", {"dtype": 3.5}),
    ("ij->i", {"order": "W"}),      # a sum: NumPy checks before or after its parse
])
def test_einsum_bad_keywords(opt, sub, kw):
    h = random_array((3, 4) if "j" in sub else (4,), numpy.float32, RNG)
    d = np.asarray(h)
    raises_like(lambda: numpy.einsum(sub, h, optimize=opt, **kw),
                lambda: np.einsum(sub, d, optimize=opt, **kw))


@pytest.mark.parametrize("opt", [False, True])
def test_einsum_keyword_checked_before_parse_without_optimize(opt):
    # NumPy's C einsum checks ``order`` before the subscripts; the optimized path after
    h = numpy.arange(6.0).reshape(-1, 1)
    raises_like(lambda: numpy.einsum("i->i", h, order="d", optimize=opt),
                lambda: np.einsum("i->i", np.asarray(h), order="d", optimize=opt))


@pytest.mark.parametrize("opt", [False, True])
def test_einsum_path_no_operands(opt):
    raises_like(lambda: numpy.einsum_path(optimize=opt), lambda: np.einsum_path(optimize=opt))


# --- einsum: dtype= with casting= (operands cast to the requested type) -----------------------
@pytest.mark.parametrize("dt", ["i1", "u2", "i8", "u8", "f2", "f4", "f8", "c8", "c16"])
@pytest.mark.parametrize("opt", [False, True])
def test_einsum_dtype_bool_unsafe(dt, opt):
    # an elementwise product in bool: every operand tested != 0 first
    hs = [random_array((8,), dt, RNG, low=-2, high=2) for _ in range(2)]
    hc = RNG.random(8) > 0.3
    ds = [np.asarray(h) for h in hs]
    want = numpy.einsum("i,i,i->i", *hs, hc, dtype="?", casting="unsafe", optimize=opt)
    assert_same(np.einsum("i,i,i->i", *ds, np.asarray(hc), dtype="?", casting="unsafe",
                          optimize=opt), want)
    want = numpy.einsum("i,j->ij", hs[0], hs[1], dtype="?", casting="unsafe", optimize=opt)
    assert_same(np.einsum("i,j->ij", ds[0], ds[1], dtype="?", casting="unsafe",
                          optimize=opt), want)


@pytest.mark.parametrize("opt", [False, True])
def test_einsum_dtype_narrower_unsafe_product(opt):
    h1 = random_array((3, 4), numpy.float64, RNG)
    h2 = random_array((4,), numpy.float64, RNG)
    for sub in ("ij,j->ij", "ij,j->i"):
        want = numpy.einsum(sub, h1, h2, dtype="f4", casting="unsafe", optimize=opt)
        got = np.einsum(sub, np.asarray(h1), np.asarray(h2), dtype="f4", casting="unsafe",
                        optimize=opt)
        assert_matches(got, want)
    # and C einsum's default 'safe' rule still refuses
    raises_like(lambda: numpy.einsum("ij,j->ij", h1, h2, dtype="f4"),
                lambda: np.einsum("ij,j->ij", np.asarray(h1), np.asarray(h2), dtype="f4"))


# --- einsum: order= ---------------------------------------------------------------------------
@pytest.mark.parametrize("opt", [False, True])
@pytest.mark.parametrize("order", ["C", "F", "A", "c", "f", "a"])
@pytest.mark.parametrize("b_order", ["C", "F"])
def test_einsum_output_order(opt, order, b_order):
    ha = numpy.asfortranarray(random_array((2, 3, 5), numpy.float32, RNG))
    hb = numpy.asarray(random_array((4, 3), numpy.float32, RNG), order=b_order)
    want = numpy.einsum("...ft,mf->...mt", ha, hb, order=order, optimize=opt)
    got = np.einsum("...ft,mf->...mt", np.asarray(ha), np.asarray(hb), order=order,
                    optimize=opt)
    assert_matches(got, want)
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous


def test_einsum_order_keeps_single_operand_view():
    # no label summed: NumPy returns a view of the operand whatever ``order`` says
    d = np.asarray(random_array((2, 3), numpy.float64, RNG))
    for order in "CFAK":
        r = np.einsum("ij->ji", d, order=order)
        assert r.strides == (8, 24)
        assert np.shares_memory(r, d)


# --- einsum: explicit paths, 0-d out ----------------------------------------------------------
@pytest.mark.parametrize("sub, path", [
    ("ab,bc,cd,de->ae", ["einsum_path", (2, 3), (0, 1)]),
    ("a,a,a->a", ["einsum_path", (1,), (0, 1)]),
])
def test_einsum_invalid_explicit_path(sub, path):
    shapes = {"ab,bc,cd,de->ae": [(2, 3), (3, 4), (4, 5), (5, 2)],
              "a,a,a->a": [(3,)] * 3}[sub]
    hs = [random_array(s, numpy.float64, RNG) for s in shapes]
    ds = [np.asarray(h) for h in hs]
    raises_like(lambda: numpy.einsum(sub, *hs, optimize=path),
                lambda: np.einsum(sub, *ds, optimize=path))
    raises_like(lambda: numpy.einsum_path(sub, *hs, optimize=path),
                lambda: np.einsum_path(sub, *ds, optimize=path))


def test_einsum_valid_explicit_path():
    hs = [random_array(s, numpy.float64, RNG) for s in [(2, 3), (3, 4), (4, 5), (5, 2)]]
    path = ["einsum_path", (2, 3), (0, 2), (0, 1)]
    want = numpy.einsum("ab,bc,cd,de->ae", *hs, optimize=path)
    assert_matches(np.einsum("ab,bc,cd,de->ae", *map(np.asarray, hs), optimize=path), want)


@pytest.mark.parametrize("opt", [True, "optimal", "greedy"])
@pytest.mark.parametrize("sub", ["i,i->", "i,i,i->"])
def test_einsum_0d_out_optimized(opt, sub):
    # NumPy's optimized path writes a 0-d pairwise result by ``out[...] = result``
    hs = [random_array((7,), numpy.float64, RNG) for _ in range(sub.count(",") + 1)]
    hout, dout = numpy.array(0), np.zeros((), dtype=np.int64)
    numpy.einsum(sub, *hs, out=hout, optimize=opt)
    got = np.einsum(sub, *map(np.asarray, hs), out=dout, optimize=opt)
    assert got is dout
    assert_same(dout, hout)


def test_einsum_0d_out_unoptimized_still_safe():
    h = random_array((7,), numpy.float64, RNG)
    raises_like(lambda: numpy.einsum("i,i->", h, h, out=numpy.array(0)),
                lambda: np.einsum("i,i->", np.asarray(h), np.asarray(h),
                                  out=np.zeros((), np.int64)))
    raises_like(lambda: numpy.einsum("i->", h, out=numpy.array(0), optimize=True),
                lambda: np.einsum("i->", np.asarray(h), out=np.zeros((), np.int64),
                                  optimize=True))


# --- einsum_path: sublist form as NumPy labels it ---------------------------------------------
@pytest.mark.parametrize("n", [3, 26, 30])
def test_einsum_path_sublist_form(n):
    h = random_array((1,) * n, numpy.float64, RNG)
    want = numpy.einsum_path(h, range(n))
    got = np.einsum_path(np.asarray(h), range(n))
    assert got == want
    h2 = random_array((2, 3), numpy.float64, RNG)
    h3 = random_array((3, 4), numpy.float64, RNG)
    assert (np.einsum_path(np.asarray(h2), [0, 1], np.asarray(h3), [1, 2], [0, 2])
            == numpy.einsum_path(h2, [0, 1], h3, [1, 2], [0, 2]))


# --- concatenate: Python scalars are weak (NEP 50) --------------------------------------------
@pytest.mark.parametrize("dt", [numpy.int8, numpy.uint8, numpy.int32, numpy.float16,
                                numpy.float32, numpy.complex64, numpy.bool_])
@pytest.mark.parametrize("value", [3, 1000, -1, 1.5, 1e10, 2j, True])
@pytest.mark.parametrize("casting", ["no", "safe", "same_kind"])
def test_concatenate_python_scalar_weak(dt, value, casting):
    h = random_array((4,), dt, RNG)
    d = np.asarray(h)
    with numpy.errstate(all="ignore"):
        try:
            want = numpy.concatenate([h, value], axis=None, casting=casting)
        except TypeError:
            raises_like(lambda: numpy.concatenate([h, value], axis=None, casting=casting),
                        lambda: np.concatenate([d, value], axis=None, casting=casting))
            return
        want2 = numpy.concatenate([value, h[::-2]], axis=None, casting=casting)
    assert_same(np.concatenate([d, value], axis=None, casting=casting), want)
    assert_same(np.concatenate([value, d[::-2]], axis=None, casting=casting), want2)


def test_concatenate_scalars_only_and_nep50_choose():
    assert_same(np.concatenate([np.float32(1), 1.0], axis=None),
                numpy.concatenate([numpy.float32(1), 1.0], axis=None))
    assert_same(np.concatenate([1.5, 2], axis=None), numpy.concatenate([1.5, 2], axis=None))
    assert np.choose(1, [np.float32(1), 1.0]).dtype == numpy.float32


def test_concatenate_zero_d_cast_message():
    h = random_array((3,), numpy.int8, RNG)
    for v in (numpy.array(True), numpy.array([True])):
        raises_like(lambda: numpy.concatenate([h, v], axis=None, casting="no"),
                    lambda: np.concatenate([np.asarray(h), np.asarray(v)], axis=None,
                                           casting="no"))


# --- array/asarray of nested sequences holding device arrays ---------------------------------
def _nested_cases():
    a2 = random_array((2,), numpy.float64, RNG)
    a3 = random_array((3,), numpy.float32, RNG)
    i8 = random_array((2,), numpy.int8, RNG)
    m = random_array((2, 3), numpy.int16, RNG)
    return [
        lambda c: [[c(a2), c(a2)], [c(a2)]],
        lambda c: [[c(a2), c(a3)], [c(a2), c(a2)]],
        lambda c: [c(a2), [1, 2, 3]],
        lambda c: [[c(a2), 1.0]],
        lambda c: [[c(a2), c(a2)], [c(a2), [1, [2]]]],
        lambda c: [c(numpy.float32(1.5)), 1.0],
        lambda c: [c(numpy.zeros(0, numpy.int8)), []],
        lambda c: [c(i8), [1, 2]],
        lambda c: [c(i8), [1, 2.5]],
        lambda c: ([c(a2), c(a2[::-1])], (c(a2 + 1), [7, 8])),
        lambda c: [[c(m[:, ::2])], [[[1, 2], [3, 4]]]],
        lambda c: [c(numpy.array(5, numpy.uint8)), 3, c(numpy.array(True))],
        lambda c: [[c(m.T)], [c(m.T[::-1])]],
        lambda c: [[[[[c(numpy.ones((1,) * 60))]]]]],
        lambda c: [[[[c(numpy.ones((1,) * 60))]]]],
    ]


@pytest.mark.parametrize("i", range(15))
def test_array_nested_device_arrays(i):
    build = _nested_cases()[i]
    try:
        want = numpy.array(build(lambda x: x))
    except ValueError:
        raises_like(lambda: numpy.array(build(lambda x: x)),
                    lambda: np.array(build(lambda x: np.asarray(x))))
        return
    assert_same(np.array(build(lambda x: np.asarray(x))), want)


def test_array_nested_device_arrays_dtype():
    h = random_array((2, 3), numpy.float64, RNG)
    want = numpy.array([h, h[::-1]], dtype=numpy.int16)
    assert_same(np.array([np.asarray(h), np.asarray(h)[::-1]], dtype=np.int16), want)


def test_array_nested_too_deep():
    nested_h, nested_d = numpy.ones((1, 1)), np.ones((1, 1))
    for _ in range(63):
        nested_h, nested_d = [nested_h], [nested_d]
    raises_like(lambda: numpy.array(nested_h, dtype="float64"),
                lambda: np.array(nested_d, dtype="float64"))


def test_array_self_containing_list():
    lst = []
    lst.append(lst)
    raises_like(lambda: numpy.array([lst, lst]), lambda: np.array([lst, lst]))
