"""Array creation: every value is computed on the device by a generated kernel."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import assert_same, full_range_random
from npgpu._codegen import compiler

DTYPES = [numpy.dtype(t) for t in "? i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8 c8 c16".split()]
NUMERIC = [d for d in DTYPES if d.kind != "b"]
RNG = numpy.random.default_rng(99)


def rand(shape, dt):
    return full_range_random(shape, dt, RNG)


def same(g, h):
    assert isinstance(g, np.ndarray)
    assert_same(g, h)


def close(g, h, rtol=None):
    got = g.get()
    assert got.dtype == h.dtype and got.shape == h.shape
    if rtol is None:
        rtol = {2: 1e-3, 4: 1e-6, 8: 1e-13, 16: 1e-13}[numpy.dtype(h.dtype).itemsize]
    numpy.testing.assert_allclose(got, h, rtol=rtol, atol=0)


class launches:
    """Context asserting at least one kernel ran inside it (values computed on the device)."""

    def __enter__(self):
        self.n = compiler.stats["launches"]

    def __exit__(self, *exc):
        if exc[0] is None:
            assert compiler.stats["launches"] > self.n


# ---- empty / zeros / ones / full and _like ------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_filled_constructors(dt):
    for shape in [(3, 4), 5, (), (0, 2)]:
        same(np.zeros(shape, dt), numpy.zeros(shape, dt))
        same(np.ones(shape, dt), numpy.ones(shape, dt))
        v = rand((), dt)[()]
        same(np.full(shape, v), numpy.full(shape, v))
        same(np.full(shape, 1, dtype=dt), numpy.full(shape, 1, dtype=dt))
        e = np.empty(shape, dt)
        assert e.shape == numpy.empty(shape, dt).shape and e.dtype == dt
    with launches():
        np.zeros(7, dt)


def test_constructor_defaults_and_orders():
    assert np.zeros(3).dtype == numpy.float64 and np.empty(2).dtype == numpy.float64
    assert np.ones((2,)).dtype == numpy.float64
    assert np.full(2, 3).dtype == numpy.int64 and np.full(2, 3.0).dtype == numpy.float64
    assert np.full(2, 1j).dtype == numpy.complex128 and np.full(2, True).dtype == numpy.bool_
    assert np.full(2, numpy.float32(1)).dtype == numpy.float32
    f = np.zeros((3, 4), order="F")
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    assert f.strides == numpy.zeros((3, 4), order="F").strides
    with pytest.raises(ValueError, match="negative dimensions"):
        np.zeros((2, -1))
    with pytest.raises(TypeError):
        np.zeros((2, 1.5))
    with pytest.raises(ValueError):
        np.zeros(3, order="X")
    with pytest.raises(TypeError):
        np.zeros(3, dtype="U2")
    with pytest.raises(OverflowError):
        np.full(3, 300, dtype=numpy.int8)
    same(np.full((2, 3), np.asarray(numpy.arange(3.0))), numpy.full((2, 3), numpy.arange(3.0)))


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_like_constructors(dt):
    h = rand((3, 4), dt)
    for hv in (h, h.T, h[::-1, ::2], h[0, 0, ...], h[:0]):
        g = np.asarray(numpy.array(hv, order="C")) if hv is not h.T else np.asarray(h).T
        same(np.zeros_like(g), numpy.zeros_like(hv))
        same(np.ones_like(g), numpy.ones_like(hv))
        same(np.full_like(g, 1), numpy.full_like(hv, 1))
        same(np.zeros_like(g, dtype=numpy.float32), numpy.zeros_like(hv, dtype=numpy.float32))
        assert np.empty_like(g).shape == hv.shape and np.empty_like(g).dtype == dt
    gt = np.asarray(h).T                           # order 'K' keeps a Fortran layout
    assert np.zeros_like(gt).flags.f_contiguous
    assert np.zeros_like(gt, order="C").flags.c_contiguous
    same(np.ones_like(np.asarray(h), shape=(2, 5)), numpy.ones_like(h, shape=(2, 5)))
    same(np.zeros_like(h), numpy.zeros_like(h))          # host input


# ---- arange -----------------------------------------------------------------------------------------
ARANGE = [
    ((5,), {}), ((0,), {}), ((-3,), {}), ((2, 9), {}), ((9, 2), {}), ((9, 2, -2), {}),
    ((0, 1, 0.1), {}), ((1.5, -2.25, -0.3), {}), ((0.5, 7.3, 0.7), {}), ((1, 2, 0.25), {}),
    ((numpy.int8(3),), {}), ((numpy.float32(0.5), 4), {}), ((numpy.float32(0), numpy.float32(1), numpy.float32(0.1)), {}),
    ((numpy.uint8(2), 7), {}), ((1 + 1j, 5 + 6j, 1 + 0.5j), {}), ((0, 3 + 0j), {}), ((1 + 1j, 5, 1), {}),
    ((3, 1e3, 77.7), {}), ((10, 0, -1), {"dtype": numpy.uint64}), ((2,), {"dtype": bool}),
    ((1, 3), {"dtype": bool}), ((0.5, 7.3, 0.7), {"dtype": numpy.float16}), ((0.5, 7.3, 0.7), {"dtype": numpy.float32}),
    ((1, 5, 0.3), {"dtype": numpy.complex64}), ((1, 20, 3), {"dtype": numpy.int8}), ((-5, 5, 0.5), {"dtype": numpy.int32}),
    ((0, 2000, 1), {"dtype": numpy.float16}), ((100, 300, 1), {"dtype": numpy.uint8}),
]


@pytest.mark.parametrize("case", range(len(ARANGE)))
def test_arange_matches_numpy(case):
    args, kw = ARANGE[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h = numpy.arange(*args, **kw)
    with launches() if h.size else warnings.catch_warnings():
        g = np.arange(*args, **kw)
    same(g, h)


@pytest.mark.parametrize("dt", NUMERIC, ids=str)
def test_arange_every_dtype(dt):
    same(np.arange(7, dtype=dt), numpy.arange(7, dtype=dt))
    same(np.arange(2, 11, 3, dtype=dt), numpy.arange(2, 11, 3, dtype=dt))
    if dt.kind != "u":
        same(np.arange(5, -3, -2, dtype=dt), numpy.arange(5, -3, -2, dtype=dt))


def test_arange_errors():
    with pytest.raises(ZeroDivisionError):
        np.arange(0, 5, 0)
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        np.arange(0, numpy.inf)
    with pytest.raises(ValueError, match="cannot compute length"):
        np.arange(0, numpy.nan)
    with pytest.raises(TypeError, match="booleans"):
        np.arange(3, dtype=bool)
    with pytest.raises(TypeError):
        np.arange(3, dtype="U1")


# ---- linspace / logspace / geomspace -----------------------------------------------------------------
LINSPACE = [
    ((0, 1), {}), ((0, 1, 7), {}), ((2, -3.5, 6), {"endpoint": False}), ((0, 1, 0), {}), ((0, 1, 1), {}),
    ((0, 1, 1), {"endpoint": False}), ((numpy.float16(1), 3, 9), {}), ((numpy.float16(0), 1, 3000), {}),
    ((0, numpy.float32(1), 11), {}), ((numpy.int8(0), numpy.int8(5), 4), {}), ((0, 10, 5), {"dtype": numpy.int32}),
    ((-7.5, 3.2, 9), {"dtype": numpy.int64}), ((0, 255, 7), {"dtype": numpy.uint8}),
    ((1 + 2j, 3 - 1j, 5), {}), ((1, 3, 4), {"dtype": numpy.complex64}), ((0, 1, 5), {"dtype": numpy.float16}),
    ((5.0, 5.0, 4), {}), ((0.0, 1e-320, 5), {}), ((numpy.float32(0), numpy.float32(1e-45), 3), {}),
    (([0, 1], [5, 7], 4), {}), (([0, 1], [5, 7], 4), {"axis": 1}), (([0, 1], [5, 7], 4), {"axis": -1}),
    (([[0.0], [2.0]], [1.0, 4.0, 9.0], 3), {"axis": 1}), (([0.0, 1.0], [0.0, 2.0], 5), {}),
    (([0, 1], 3, 4), {"endpoint": False}), ((numpy.array([1, 2], numpy.float32), 0, 3), {}),
    ((0, [1e-320, 1.0], 3), {}), (([0, 1], [5, 7], 4), {"dtype": numpy.int16}),
]


@pytest.mark.parametrize("case", range(len(LINSPACE)))
def test_linspace_matches_numpy(case):
    args, kw = LINSPACE[case]
    h = numpy.linspace(*args, **kw)
    dev_args = [np.asarray(a) if isinstance(a, (list, numpy.ndarray)) else a for a in args]
    same(np.linspace(*dev_args, **kw), h)
    same(np.linspace(*args, **kw), h)            # host array-likes work too


def test_linspace_retstep():
    for args, kw in [((0, 1, 5), {}), ((2, 3, 4), {"endpoint": False}), ((0, 1, 1), {}),
                     ((numpy.float32(0), 1, 3), {})]:
        g, gs = np.linspace(*args, retstep=True, **kw)
        h, hs = numpy.linspace(*args, retstep=True, **kw)
        same(g, h)
        assert (gs == hs or (numpy.isnan(gs) and numpy.isnan(hs))) and numpy.asarray(gs).dtype == numpy.asarray(hs).dtype
    g, gs = np.linspace(np.asarray([0.0, 1.0]), 3.0, 4, retstep=True)
    h, hs = numpy.linspace([0.0, 1.0], 3.0, 4, retstep=True)
    same(g, h)
    same(gs, hs)


def test_linspace_errors():
    with pytest.raises(ValueError, match="must be non-negative"):
        np.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        np.linspace(0, 1, 2.5)
    with pytest.raises(numpy.exceptions.AxisError):
        np.linspace([0, 1], 2, 3, axis=2)


@pytest.mark.parametrize("dt", [numpy.float16, numpy.float32, numpy.float64, numpy.complex64,
                                numpy.complex128, numpy.int64, numpy.uint16])
def test_linspace_dtypes(dt):
    same(np.linspace(1, 9, 6, dtype=dt), numpy.linspace(1, 9, 6, dtype=dt))
    same(np.linspace(numpy.ones(3), 9, 4, dtype=dt), numpy.linspace(numpy.ones(3), 9, 4, dtype=dt))


LOGSPACE = [
    ((0, 3, 4), {}), ((0, 2, 5), {"base": 2.0}), ((1, -1, 6), {"endpoint": False}), ((0, 1, 0), {}),
    ((0, 3, 4), {"dtype": numpy.float32}), ((numpy.float32(0), numpy.float32(2), 3), {}),
    (([0, 1], [2, 3], 3), {}), (([0, 1], [2, 3], 3), {"axis": 1}), ((0, 2, 3), {"base": [2.0, 10.0], "axis": 1}),
    ((0, 2, 4), {"dtype": numpy.int64}),
]


@pytest.mark.parametrize("case", range(len(LOGSPACE)))
def test_logspace(case):
    args, kw = LOGSPACE[case]
    h = numpy.logspace(*args, **kw)
    close(np.logspace(*args, **kw), h, rtol=1e-6 if h.dtype == numpy.float32 else 1e-13)


GEOMSPACE = [
    ((1, 1000, 4), {}), ((-1, -1000, 4), {}), ((2, 3, 5), {"endpoint": False}), ((1, 256, 9), {"dtype": numpy.float32}),
    ((1j, 1000j, 4), {}), ((1 + 1j, 1000 + 1000j, 3), {}), ((numpy.float32(1), 100, 3), {}), ((1, 1000, 0), {}),
    ((1, 1000, 1), {}), (([1, -1], [1000, -64], 4), {}), (([1, 2], 1000, 3), {"axis": 1}), ((1, 1000, 4), {"dtype": numpy.int64}),
    ((-1, 1000j, 3), {}),
]


@pytest.mark.parametrize("case", range(len(GEOMSPACE)))
def test_geomspace(case):
    args, kw = GEOMSPACE[case]
    h = numpy.geomspace(*args, **kw)
    g = np.geomspace(*args, **kw)
    if h.dtype.kind in "iu":
        same(g, h)
    else:
        close(g, h, rtol=1e-5 if h.dtype in (numpy.float32, numpy.complex64) else 1e-12)
        # the endpoints are exactly start and stop, as NumPy sets them
        if h.size and numpy.ndim(args[0]) == 0 and kw.get("axis", 0) == 0:
            assert g.get()[0] == h[0]
            if kw.get("endpoint", True) and h.shape[0] > 1:
                assert g.get()[-1] == h[-1]


def test_geomspace_zero_raises():
    with pytest.raises(ValueError, match="cannot include zero"):
        np.geomspace(0, 10, 3)
    with pytest.raises(ValueError, match="cannot include zero"):
        np.geomspace(np.asarray([1.0, 2.0]), np.asarray([3.0, 0.0]), 3)


# ---- matrices ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_eye_identity_tri(dt):
    for args in [(3,), (3, 5), (5, 3, 1), (4, 4, -2), (3, 3, 7), (0,), (2, 0)]:
        same(np.eye(*args, dtype=dt), numpy.eye(*args, dtype=dt))
        same(np.tri(*args, dtype=dt), numpy.tri(*args, dtype=dt))
    same(np.identity(4, dtype=dt), numpy.identity(4, dtype=dt))
    f = np.eye(3, 4, 1, dtype=dt, order="F")
    assert f.flags.f_contiguous
    same(f, numpy.eye(3, 4, 1, dtype=dt, order="F"))


def test_matrix_defaults_and_errors():
    same(np.eye(3), numpy.eye(3))
    same(np.identity(2), numpy.identity(2))
    same(np.tri(3), numpy.tri(3))
    same(np.tri(3, k=1), numpy.tri(3, k=1))
    with pytest.raises(ValueError):
        np.eye(-1)
    with pytest.raises(TypeError):
        np.eye(2.5)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_tril_triu(dt):
    h = rand((3, 4, 5), dt)
    g = np.asarray(h)
    for k in (0, 1, -2, 9, -9):
        for hv, gv in [(h, g), (h.transpose(0, 2, 1), g.transpose(0, 2, 1)), (h[::-1, 1:, ::-2], g[::-1, 1:, ::-2]),
                       (h[0], g[0]), (h[0].T, g[0].T), (h[:0], g[:0])]:
            same(np.tril(gv, k), numpy.tril(hv, k))
            same(np.triu(gv, k), numpy.triu(hv, k))
    same(np.tril(g[0, 0]), numpy.tril(h[0, 0]))          # 1-D input: broadcast to a square
    same(np.triu(h[0, 0], 1), numpy.triu(h[0, 0], 1))


@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_diag_diagflat(dt):
    v = rand((4,), dt)
    m = rand((4, 6), dt)
    gv, gm = np.asarray(v), np.asarray(m)
    for k in (0, 2, -3, 10, -10):
        same(np.diag(gv, k), numpy.diag(v, k))
        same(np.diag(gv[::-1], k), numpy.diag(v[::-1], k))
        same(np.diag(gm, k), numpy.diag(m, k))
        same(np.diag(gm.T[::-1], k), numpy.diag(m.T[::-1], k))
        same(np.diagflat(gm[:2, :3], k), numpy.diagflat(m[:2, :3], k))
    d = np.diag(gm, 1)
    assert d._mem is gm._mem                      # NumPy's diag of a matrix is a view
    with pytest.raises(ValueError, match="1- or 2-d"):
        np.diag(np.zeros((2, 2, 2)))
    same(np.diag([1, 2]), numpy.diag([1, 2]))


# ---- grids ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [True, False])
def test_meshgrid(indexing, sparse, copy):
    xs = [rand((3,), "f4"), rand((4,), "i2"), rand((2,), "c8")]
    for n in (1, 2, 3):
        hs = numpy.meshgrid(*xs[:n], indexing=indexing, sparse=sparse, copy=copy)
        gs = np.meshgrid(*[np.asarray(x) for x in xs[:n]], indexing=indexing, sparse=sparse, copy=copy)
        assert len(gs) == len(hs)
        for g, h in zip(gs, hs):
            same(g, numpy.ascontiguousarray(h))
            if copy:
                assert g.base is None
    assert np.meshgrid() == ()
    with pytest.raises(ValueError, match="indexing"):
        np.meshgrid(np.arange(2), indexing="xx")


@pytest.mark.parametrize("dt", [int, numpy.int8, numpy.float32, numpy.uint16])
def test_indices(dt):
    for dims in [(2, 3), (4,), (2, 1, 3), (), (0, 2)]:
        same(np.indices(dims, dtype=dt), numpy.indices(dims, dtype=dt))
        gs = np.indices(dims, dtype=dt, sparse=True)
        hs = numpy.indices(dims, dtype=dt, sparse=True)
        assert len(gs) == len(hs)
        for g, h in zip(gs, hs):
            same(g, h)


# ---- array(ndmax=): NumPy 2.4's cap on the dimensions read from nested sequences -------------
_NDMAX_OBJECTS = {"2d list": [[1.5, -2.0], [3.25, 4.0]], "3d list": [[[1, 2]], [[3, 4]]],
                  "empty": [], "empty row": [[]], "scalar": 7,
                  "list of arrays": [numpy.arange(3.0), numpy.arange(3.0) * 2]}


@pytest.mark.parametrize("ndmax", [0, 1, 2, 3, True, numpy.int64(2)], ids=repr)
@pytest.mark.parametrize("name", list(_NDMAX_OBJECTS))
def test_array_ndmax_matches_numpy(name, ndmax):
    obj = _NDMAX_OBJECTS[name]
    try:
        want = numpy.array(obj, ndmax=ndmax)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            np.array(obj, ndmax=ndmax)
        assert str(got.value) == str(e)
        return
    same(np.array(obj, ndmax=ndmax), want)


def test_array_ndmax_arrays_and_bad_values():
    h = rand((2, 3, 4), numpy.float32)
    # an array passes whole, whatever ndmax says (NumPy 2.4)
    same(np.array(np.asarray(h), ndmax=1), numpy.array(h, ndmax=1))
    same(np.array(h, ndmax=1), numpy.array(h, ndmax=1))
    same(np.array([[1, 2]], ndmin=2, ndmax=2), numpy.array([[1, 2]], ndmin=2, ndmax=2))
    for kw, exc in [(dict(ndmax=65), ValueError), (dict(ndmax=-1), ValueError),
                    (dict(ndmax=1.5), TypeError), (dict(ndmax="a"), TypeError),
                    (dict(ndmin=3, ndmax=2), ValueError)]:
        with pytest.raises(exc) as want:
            numpy.array([[1, 2]], **kw)
        with pytest.raises(exc) as got:
            np.array([[1, 2]], **kw)
        assert str(got.value) == str(want.value), kw


# ---- conversions -------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES, ids=str)
def test_asarray_array(dt):
    h = rand((3, 4), dt)
    same(np.asarray(h), h)
    same(np.asarray(h.T), h.T)
    same(np.asarray(h[::-1, ::2]), h[::-1, ::2])
    same(np.asarray(h.tolist(), dtype=dt), numpy.asarray(h.tolist(), dtype=dt))
    g = np.asarray(h)
    assert np.asarray(g) is g
    assert np.asarray(g, dtype=dt) is g
    a = np.array(g)
    assert a is not g and a._mem is not g._mem
    same(a, h)
    same(np.array(g, ndmin=4), numpy.array(h, ndmin=4))
    same(np.array(h[0, 0], ndmin=2), numpy.array(h[0, 0], ndmin=2))
    same(np.asarray(g, dtype=numpy.complex128), h.astype(numpy.complex128))
    with pytest.raises(ValueError):
        np.asarray(g, dtype=numpy.complex128 if dt != numpy.complex128 else numpy.complex64, copy=False)


def test_asarray_scalars_lists_and_defaults():
    for obj in [3, 2.5, 1j, True, [1, 2, 3], [[1.5], [2]], numpy.float32(2), [], [[]], (1, 2)]:
        same(np.asarray(obj), numpy.asarray(obj))
        same(np.array(obj), numpy.array(obj))
    same(np.asarray([np.arange(3), np.arange(3)]), numpy.asarray([numpy.arange(3), numpy.arange(3)]))
    with pytest.raises(ValueError):
        np.asarray([1, 2], copy=False)


def test_contiguous_conversions():
    h = rand((3, 4), "f8")
    g = np.asarray(h)
    for hv, gv in [(h, g), (h.T, g.T), (h[::-1, ::2], g[::-1, ::2]), (h[1, 1, ...], g[1, 1])]:
        c, f = np.ascontiguousarray(gv), np.asfortranarray(gv)
        hc, hf = numpy.ascontiguousarray(hv), numpy.asfortranarray(hv)
        same(c, hc)
        same(f, hf)
        assert c.flags.c_contiguous and f.flags.f_contiguous
        assert (c._mem is g._mem) == numpy.shares_memory(hc, h)
        assert (f._mem is g._mem) == numpy.shares_memory(hf, h)
    same(np.ascontiguousarray(g, dtype=numpy.float32), numpy.ascontiguousarray(h, dtype=numpy.float32))


@pytest.mark.parametrize("order", ["C", "F", "K", "A"])
def test_copy_function(order):
    h = rand((3, 4), "i4")
    g = np.asarray(h)
    for hv, gv in [(h, g), (h.T, g.T), (h[::-1], g[::-1])]:
        c = np.copy(gv, order=order)
        hc = numpy.copy(hv, order=order)
        same(c, hc)
        assert c._mem is not g._mem and c.strides == hc.strides


@pytest.mark.skipif(numpy.lib.NumpyVersion(numpy.__version__) < "2.4.0",
                    reason="NumPy 2.4 gave new empty arrays zero strides")
def test_new_empty_arrays_have_numpy_strides():
    """A new array with no elements has all-zero strides (NumPy 2.4); views of one keep
    theirs, and reshaping one computes its strides as for any shape."""
    h = numpy.arange(12.0).reshape(3, 4)
    d = np.asarray(h)
    cases = [lambda m, x: m.empty((0, 3)), lambda m, x: m.ones((3, 0), dtype=m.float32),
             lambda m, x: m.zeros(0), lambda m, x: m.empty((2, 0, 3), order="F"),
             lambda m, x: x[:0], lambda m, x: x[:, :0].T, lambda m, x: x[:0].copy(),
             lambda m, x: m.zeros_like(x[:0]), lambda m, x: x[:0] + 1,
             lambda m, x: m.empty(0).reshape(0, 3), lambda m, x: m.concatenate([x[:0], x[:0]]),
             lambda m, x: x[x > 100], lambda m, x: m.full((0, 2), 1)]
    for f in cases:
        want, got = f(numpy, h), f(np, d)
        assert got.strides == want.strides, (got.shape, got.strides, want.strides)
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.flags.f_contiguous == want.flags.f_contiguous
