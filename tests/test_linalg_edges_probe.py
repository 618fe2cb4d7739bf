"""npgpu.linalg and the main namespace's products against NumPy where a side-by-side probe of
edge inputs found them apart: det of a matrix holding NaN, pinv's rtol=None on integers,
float16 norms past float16's range, bool products and traces of non-bool operands, the
product gufuncs' options (dtype=, casting=, out= with more loop dims, NumPy's casting
exception classes, vecdot's keepdims), einsum's out= (its compute dtype and casting checks),
cross's first failing operation on bool vectors, ComplexWarnings of complex-to-real casts.
Each defect's minimal reproduction, on small random matrices, for every dtype it concerns."""
import warnings

import numpy as np
import pytest

import npgpu
from conftest import assert_matches, raises_like, random_array

L = np.linalg
rng = np.random.default_rng(20261215)
FLOATS = ["f4", "f8", "c8", "c16"]
pytestmark = pytest.mark.filterwarnings("ignore:.*encountered:RuntimeWarning")
PRODUCT_DTYPES = ["?", "i1", "u1", "i4", "i8", "f2", "f4", "f8", "c8", "c16"]


def R(shape, dt="f8"):
    return random_array(shape, dt, rng)


def D(x):
    return npgpu.asarray(x)


def warned(fn):
    """(result or exception, the categories of the warnings ``fn()`` issued)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = fn()
        except Exception as e:          # noqa: BLE001 - compared by the caller
            r = e
    return r, sorted({x.category.__name__ for x in w if "simulator" not in str(x.message)})


# ---- det / slogdet of a matrix holding NaN: NaN (the kernel's overflow guard made it inf) ----
@pytest.mark.parametrize("dt", FLOATS)
def test_det_nan_matrix(dt):
    a = R((3, 3, 3), dt) + 20 * np.eye(3, dtype=dt)
    a[1, 2, 0] = np.nan
    with np.errstate(invalid="ignore"):
        want_det, want = L.det(a), L.slogdet(a)
    assert_matches(npgpu.linalg.det(D(a)), want_det, rtol=1e-4)
    got = npgpu.linalg.slogdet(D(a))
    assert_matches(got.sign, want.sign, rtol=1e-4)
    assert_matches(got.logabsdet, want.logabsdet, rtol=1e-4)


def test_det_overflow_stays_inf():
    a = 1e200 * np.eye(3)
    assert_matches(npgpu.linalg.det(D(a)), L.det(a))
    assert_matches(npgpu.linalg.det(D(-a)), L.det(-a))


# ---- pinv(rtol=None): NumPy's tolerance from finfo(a.dtype) --------------------------------
@pytest.mark.parametrize("dt", ["?", "i4", "i8"])
def test_pinv_rtol_none_integers(dt):
    a = R((3, 2), dt)
    raises_like(lambda: L.pinv(a, rtol=None), lambda: npgpu.linalg.pinv(D(a), rtol=None))


@pytest.mark.parametrize("shape", [(0, 3), (2, 0, 0)])
def test_pinv_rtol_none_empty_float16(shape):
    a = R(shape, "f2")
    assert_matches(npgpu.linalg.pinv(D(a), rtol=None), L.pinv(a, rtol=None))


@pytest.mark.parametrize("dt", FLOATS)
def test_pinv_rtol_none(dt):
    a = R((2, 4, 3), dt)
    assert_matches(npgpu.linalg.pinv(D(a), rtol=None), L.pinv(a, rtol=None), rtol=1e-3,
                   atol=1e-4)


# ---- float16 norms: sums stored in float16 (inf past 65504) as NumPy's ---------------------
@pytest.mark.parametrize("ordr", [None, 1, 2, 3, 0])
def test_norm_float16_overflow(ordr):
    x = np.array([[300, 300, 1], [3, 4, 5]], np.float16)
    for axis in (None, 1):
        if axis is None and ordr is not None:
            continue
        assert_matches(npgpu.linalg.norm(D(x), ord=ordr, axis=axis),
                       L.norm(x, ord=ordr, axis=axis))
    assert_matches(npgpu.linalg.vector_norm(D(x), ord=ordr if ordr is not None else 2, axis=-1),
                   L.vector_norm(x, ord=ordr if ordr is not None else 2, axis=-1))


@pytest.mark.parametrize("ordr", ["fro", 1, np.inf])
def test_matrix_norm_float16(ordr):
    x = (R((2, 3, 3), "f2") * 30).astype(np.float16)
    assert_matches(npgpu.linalg.matrix_norm(D(x), ord=ordr), L.matrix_norm(x, ord=ordr))


# ---- bool results of non-bool operands: the operands cast to bool first -------------------
@pytest.mark.parametrize("dt", ["i1", "i4", "u1", "f8", "c16"])
def test_trace_bool_dtype(dt):
    x = np.zeros((2, 3, 3), dt)
    x[0] = np.diag([2, -2, 0]).astype(dt)        # sums to 0, but as bools to True
    x[1] = np.diag([0, 0, 0]).astype(dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        want = np.trace(x, axis1=1, axis2=2, dtype=bool)
        got = npgpu.trace(D(x), axis1=1, axis2=2, dtype=bool)
    assert_matches(got, want)


@pytest.mark.parametrize("dt", ["i1", "i4", "f4"])
def test_matmul_bool_dtype_unsafe(dt):
    a = np.array([[2, -2], [0, 1]], dt)
    b = np.array([[1, 0], [1, 0]], dt)
    assert_matches(npgpu.matmul(D(a), D(b), dtype=bool, casting="unsafe"),
                   np.matmul(a, b, dtype=bool, casting="unsafe"))


# ---- cross of bool vectors: NumPy's first failing operation --------------------------------
@pytest.mark.parametrize("na,nb", [(2, 3), (3, 2), (3, 3), (2, 2)])
def test_cross_bool_error(na, nb):
    a, b = R((na,), "?"), R((nb,), "?")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        raises_like(lambda: np.cross(a, b), lambda: npgpu.cross(D(a), D(b)))


@pytest.mark.parametrize("dt", ["i1", "u1", "f2", "c8"])
@pytest.mark.parametrize("na,nb", [(2, 3), (3, 2), (3, 3)])
def test_cross_values(dt, na, nb):
    a, b = R((4, na), dt), R((nb,), dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_matches(npgpu.cross(D(a), D(b)), np.cross(a, b))


# ---- ComplexWarning of complex values cast to real ----------------------------------------
@pytest.mark.parametrize("dt", ["c8", "c16"])
def test_trace_complex_to_real_warns(dt):
    x = R((3, 3), dt)
    want, wn = warned(lambda: np.trace(x, dtype=np.float64))
    got, wg = warned(lambda: npgpu.trace(D(x), dtype=np.float64))
    assert wg == wn == ["ComplexWarning"]
    assert_matches(got, want)
    got, wg = warned(lambda: npgpu.linalg.trace(D(x), dtype=np.float32))
    assert wg == ["ComplexWarning"]


@pytest.mark.parametrize("fn", ["matmul", "vecdot"])
def test_product_complex_to_real_warns(fn):
    x = R((3, 3), "c16")
    want, wn = warned(lambda: getattr(np, fn)(x, x, dtype=np.float64, casting="unsafe"))
    got, wg = warned(lambda: getattr(npgpu, fn)(D(x), D(x), dtype=np.float64, casting="unsafe"))
    assert wg == wn == ["ComplexWarning"]
    assert_matches(got, want)


# ---- product gufuncs: NumPy's type resolution, its exception classes, then shapes -----------
@pytest.mark.parametrize("fn,sa,sb", [("matmul", (2, 3), (3, 4)), ("vecdot", (2, 3), (2, 3)),
                                      ("matvec", (4, 3), (2, 3)), ("vecmat", (2, 3), (3, 4))])
@pytest.mark.parametrize("kw", [{"dtype": np.int32}, {"out": "i4"}, {"dtype": np.int8,
                                                                     "casting": "safe"}])
def test_product_casting_errors(fn, sa, sb, kw):
    a, b = R(sa, "f4"), R(sb, "f4")
    shape = getattr(np, fn)(a, b).shape

    def call(xp, x, y):
        k = dict(kw)
        if "out" in k:
            k["out"] = xp.zeros(shape, k["out"])
        return getattr(xp, fn)(x, y, **k)
    raises_like(lambda: call(np, a, b), lambda: call(npgpu, D(a), D(b)))
    # the type error comes before a shape error
    bad = R(sb[:-1] + (sb[-1] + 1,), "f4") if fn != "matmul" else R((4, 4), "f4")
    if "out" not in kw:
        raises_like(lambda: call(np, a, bad), lambda: call(npgpu, D(a), D(bad)))


@pytest.mark.parametrize("fn,sa,sb", [("matmul", (2, 3), (3, 4)), ("vecdot", (2, 3), (3,)),
                                      ("matvec", (2, 3), (3,)), ("vecmat", (3,), (3, 4))])
@pytest.mark.parametrize("dt", PRODUCT_DTYPES)
def test_product_dtype_option(fn, sa, sb, dt):
    a, b = R(sa, "i4"), R(sb, "i4")
    for kw in ({"dtype": dt}, {"dtype": dt, "casting": "unsafe"}):
        try:
            want = getattr(np, fn)(a, b, **kw)
        except TypeError:
            raises_like(lambda: getattr(np, fn)(a, b, **kw),
                        lambda: getattr(npgpu, fn)(D(a), D(b), **kw))
            continue
        assert_matches(getattr(npgpu, fn)(D(a), D(b), **kw), want, rtol=1e-3)


@pytest.mark.parametrize("fn,sa,sb", [("matmul", (2, 3), (3, 4)), ("vecdot", (2, 3), (3,)),
                                      ("matvec", (2, 3), (3,)), ("vecmat", (3,), (3, 4))])
@pytest.mark.parametrize("dt", ["i8", "f4", "f8", "c16"])
def test_product_out(fn, sa, sb, dt):
    a, b = R(sa, "f4"), R(sb, "f4")
    shape = getattr(np, fn)(a, b).shape
    for oshape in (shape, (3,) + shape, (1,) + shape):
        o_np, o_g = np.zeros(oshape, dt), npgpu.zeros(oshape, dt)
        try:
            r = getattr(np, fn)(a, b, out=(o_np,))
        except TypeError:
            raises_like(lambda: getattr(np, fn)(a, b, out=o_np),
                        lambda: getattr(npgpu, fn)(D(a), D(b), out=o_g))
            continue
        g = getattr(npgpu, fn)(D(a), D(b), out=(o_g,))
        assert g is o_g and r is o_np
        assert_matches(o_g, o_np, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("fn,sa,sb,oshape", [
    ("matmul", (2, 3), (3, 4), (2, 5)), ("matmul", (2, 3), (3, 4), (3, 4)),
    ("matmul", (2, 3), (3, 4), (4,)), ("matmul", (3, 2, 3), (3, 4), (2, 2, 4)),
    ("matmul", (3, 2, 3), (3, 4), (1, 2, 4)), ("vecdot", (2, 3), (3,), (3,)),
    ("vecdot", (2, 3), (3,), ()), ("matvec", (2, 3), (3,), (4, 3)),
    ("matvec", (5, 2, 3), (3,), (4, 2)), ("vecmat", (3,), (3, 4), (2, 5))])
def test_product_out_shape_errors(fn, sa, sb, oshape):
    a, b = R(sa, "f8"), R(sb, "f8")
    raises_like(lambda: getattr(np, fn)(a, b, out=np.zeros(oshape)),
                lambda: getattr(npgpu, fn)(D(a), D(b), out=npgpu.zeros(oshape)))


def test_matmul_out_more_loop_dims_non_contiguous():
    a, b = R((2, 3), "f8"), R((3, 4), "f8")
    o_np, o_g = np.zeros((3, 4, 4))[:, ::2], npgpu.zeros((3, 4, 4))[:, ::2]
    np.matmul(a, b, out=o_np)
    npgpu.matmul(D(a), D(b), out=o_g)
    assert_matches(o_g, o_np)


def test_product_out_errors():
    a = R((2, 3), "f8")
    for fn in ("matmul", "vecdot"):
        b = a.T if fn == "matmul" else a
        raises_like(lambda: getattr(np, fn)(a, b, out=(np.zeros(2), np.zeros(2))),
                    lambda: getattr(npgpu, fn)(D(a), D(b), out=(npgpu.zeros(2),
                                                               npgpu.zeros(2))))
        with pytest.raises(TypeError, match="return arrays must be of ArrayType"):
            getattr(npgpu, fn)(D(a), D(b), out=[1.0, 2.0])


# ---- vecdot: keepdims, axis -----------------------------------------------------------------
@pytest.mark.parametrize("dt", ["i4", "f4", "c16"])
@pytest.mark.parametrize("sa,sb,axis", [((2, 3), (2, 3), -1), ((2, 3), (2, 3), 0),
                                        ((2, 3, 4), (3, 4), -2), ((2, 3), (3,), -1)])
def test_vecdot_keepdims(dt, sa, sb, axis):
    a, b = R(sa, dt), R(sb, dt)
    want = np.vecdot(a, b, axis=axis, keepdims=True)
    assert_matches(npgpu.vecdot(D(a), D(b), axis=axis, keepdims=True), want)
    o = npgpu.zeros(want.shape, want.dtype)
    assert npgpu.vecdot(D(a), D(b), axis=axis, keepdims=True, out=o) is o
    assert_matches(o, want)


def test_vecdot_argument_errors():
    a = R((2, 3))
    for kw in ({"axis": (0,)}, {"keepdims": 1}, {"axis": 2}):
        raises_like(lambda: np.vecdot(a, a, **kw), lambda: npgpu.vecdot(D(a), D(a), **kw))
    raises_like(lambda: np.vecdot(a, a, keepdims=True, out=np.zeros(2)),
                lambda: npgpu.vecdot(D(a), D(a), keepdims=True, out=npgpu.zeros(2)))


# ---- einsum's out=: the common dtype of the operands and out, NumPy's casting checks --------
@pytest.mark.parametrize("out_dt", ["?", "i1", "i4", "i8", "u8", "f4", "f8", "c16"])
@pytest.mark.parametrize("kw", [{}, {"casting": "unsafe"}, {"casting": "same_kind"},
                                {"dtype": "i8"}, {"dtype": "i8", "casting": "unsafe"}])
def test_einsum_out_dtype(out_dt, kw):
    a, b = R((2, 3), "i4"), R((3, 4), "i4")
    o_np = np.zeros((2, 4), out_dt)
    try:
        want, wn = warned(lambda: np.einsum("ij,jk->ik", a, b, out=o_np, **kw))
        if isinstance(want, Exception):
            raise want
    except TypeError:
        raises_like(lambda: np.einsum("ij,jk->ik", a, b, out=np.zeros((2, 4), out_dt), **kw),
                    lambda: npgpu.einsum("ij,jk->ik", D(a), D(b),
                                         out=npgpu.zeros((2, 4), out_dt), **kw))
        return
    o_g = npgpu.zeros((2, 4), out_dt)
    got, wg = warned(lambda: npgpu.einsum("ij,jk->ik", D(a), D(b), out=o_g, **kw))
    assert got is o_g and wg == wn
    assert_matches(o_g, o_np)


def test_einsum_out_widens_the_sum():
    b = R((4, 5), "?")
    u = np.array([200, 100], np.uint8)
    for sub, ops, odt, oshape in (("ij,kj->ik", (b, b), "f8", (4, 4)), ("ij->", (b,), "i8", ()),
                                  ("i,i->", (u, u), "i8", ()), ("i,i->", (u, u), "u1", ())):
        o_np, o_g = np.zeros(oshape, odt), npgpu.zeros(oshape, odt)
        np.einsum(sub, *ops, out=o_np)
        npgpu.einsum(sub, *[D(x) for x in ops], out=o_g)
        assert_matches(o_g, o_np)


@pytest.mark.parametrize("oshape", [(8,), (2, 5), (2, 1)])
def test_einsum_out_shape_errors(oshape):
    a, b = R((2, 3), "f8"), R((3, 4), "f8")
    raises_like(lambda: np.einsum("ij,jk->ik", a, b, out=np.zeros(oshape)),
                lambda: npgpu.einsum("ij,jk->ik", D(a), D(b), out=npgpu.zeros(oshape)))


def test_einsum_out_broadcast_and_non_array():
    a, b = R((1, 3), "f8"), R((1, 3), "f8")
    o_np, o_g = np.zeros(5), npgpu.zeros(5)
    np.einsum("...i,...i->...", a, b, out=o_np)
    npgpu.einsum("...i,...i->...", D(a), D(b), out=o_g)
    assert_matches(o_g, o_np)
    raises_like(lambda: np.einsum("i,i->", a[0], b[0], out=[1.0]),
                lambda: npgpu.einsum("i,i->", D(a[0]), D(b[0]), out=[1.0]))


@pytest.mark.parametrize("dt", ["i4", "f8", "c8"])
def test_einsum_dtype_casting_message(dt):
    a = R((2, 3), dt)
    raises_like(lambda: np.einsum("ij,jk", a, a.T, dtype=np.int8),
                lambda: npgpu.einsum("ij,jk", D(a), D(a.T), dtype=np.int8))


@pytest.mark.parametrize("sub", ["ij->ji", "ii->i", "ij"])
def test_einsum_single_operand_view_ignores_dtype(sub):
    a = R((3, 3), "i4")
    want = np.einsum(sub, a, dtype=np.int8)
    got = npgpu.einsum(sub, D(a), dtype=np.int8)
    assert_matches(got, want)
    # and a summing one still casts
    assert_matches(npgpu.einsum("ij->i", D(a), dtype=np.float64),
                   np.einsum("ij->i", a, dtype=np.float64))


def test_einsum_complex_to_real_warns():
    x = R((2, 3), "c16")
    want, wn = warned(lambda: np.einsum("ij->i", x, dtype=np.float64, casting="unsafe"))
    got, wg = warned(lambda: npgpu.einsum("ij->i", D(x), dtype=np.float64, casting="unsafe"))
    assert wg == wn == ["ComplexWarning"]
    assert_matches(got, want)
    o_np, o_g = np.zeros(2), npgpu.zeros(2)
    _, wn = warned(lambda: np.einsum("ij->i", x, out=o_np, casting="unsafe"))
    _, wg = warned(lambda: npgpu.einsum("ij->i", D(x), out=o_g, casting="unsafe"))
    assert wg == wn == ["ComplexWarning"]
    assert_matches(o_g, o_np)


# ---- trace's out= of the wrong shape: NumPy's messages --------------------------------------
@pytest.mark.parametrize("shape,oshape", [((3, 3), (1,)), ((3, 3, 2), (3,)), ((3, 3, 2), ())])
def test_trace_out_shape_errors(shape, oshape):
    x = R(shape)
    raises_like(lambda: np.trace(x, out=np.zeros(oshape)),
                lambda: npgpu.trace(D(x), out=npgpu.zeros(oshape)))
