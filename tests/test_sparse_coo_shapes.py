"""npgpu.scipy.sparse against SciPy 1.17: ``nonzero`` (duplicates not summed), 1-d and 0-d input
to every constructor, reshaping 2-d arrays to 1-d, ``sum``/``mean`` ``out=`` checks, and what a
sweep of everyday use found: constructor shape rules, indexing and assignment, arithmetic
result formats and messages, conversions keeping duplicates, the canonical/sorted flags, the
``spmatrix`` methods and the construction functions (``find``, ``block_diag``, ``bmat``...).

Each check runs the same call on npgpu and SciPy and compares the sparse class, format, shape,
dtype and values, dense results' shape, dtype and values, or the exception's class and message.
Allowed differences: npgpu answers a total with a 0-d device array (SciPy a NumPy scalar) and a
matrix's dense result with a 2-d array (no ``np.matrix``); where SciPy gives a 1-d CSR array or
an n-d COO array, npgpu raises NotImplementedError (its 1-d sparse arrays are COO only)."""
import warnings

import numpy as np
import pytest
import scipy
import scipy.sparse as ss

import npgpu as xp
from npgpu.scipy import sparse as sp

_SCIPY_117 = scipy.__version__.startswith("1.17.")

FORMATS = ("csr", "csc", "coo", "dia")
KINDS = ("matrix", "array")


def _run(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return f()
        except Exception as e:                      # noqa: BLE001 (compared below)
            return e


def _values(a):
    if sp.issparse(a):
        a = a.toarray()
    return a.get() if isinstance(a, xp.ndarray) else np.asarray(a)


def _like(a, h):
    """npgpu's ``a`` is SciPy's ``h`` (see the module's allowed differences)."""
    if isinstance(h, tuple):
        assert isinstance(a, tuple) and len(a) == len(h), (a, h)
        for x, y in zip(a, h):
            _like(x, y)
        return
    if ss.issparse(h):
        assert sp.issparse(a) and type(a).__name__ == type(h).__name__, (a, h)
        assert (a.format, a.shape, a.dtype) == (h.format, h.shape, h.dtype), (a, h)
    elif isinstance(h, np.ndarray):
        assert isinstance(a, xp.ndarray), (type(a), h)
        assert a.shape == np.asarray(h).shape and a.dtype == h.dtype, (a.shape, a.dtype, h)
    elif isinstance(h, np.generic):
        assert getattr(a, "dtype", None) == h.dtype and np.ndim(_values(a)) == 0, (a, h)
    else:
        assert a == h, (a, h)
        return
    got, want = _values(a), np.asarray(h.toarray() if ss.issparse(h) else h)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6, equal_nan=True)


def _beyond(h):
    """Whether SciPy's result is one npgpu does not hold: a 1-d CSR or an n-d COO array."""
    return ss.issparse(h) and ((h.ndim == 1 and h.format == "csr") or h.ndim > 2)


def _invalid(h):
    """SciPy's compressed result whose indices pass its (given, narrower) shape: npgpu refuses
    to build it (its kernels would write outside the result)."""
    return ss.issparse(h) and h.format in ("csr", "csc") and h.nnz and \
        h.indices.max() >= h._swap(h.shape)[1]


def _same(fa, fh):
    """``fa()`` (npgpu) gives what ``fh()`` (SciPy) does, or the same exception."""
    a, h = _run(fa), _run(fh)
    if _beyond(h):
        assert isinstance(a, NotImplementedError), a
        return a
    if _invalid(h):
        assert isinstance(a, ValueError) and "indices must be <" in str(a), a
        return a
    if isinstance(h, Exception):
        # the messages are SciPy 1.17's (another SciPy, e.g. the GPU machine's, words some
        # of them differently)
        assert type(a) is type(h) and (str(a) == str(h) or not _SCIPY_117), (a, h)
    else:
        assert not isinstance(a, Exception), (a, h)
        _like(a, h)
    return a


def _both(f):
    """``f(module, convert)`` on npgpu and on SciPy: ``convert`` puts host data on npgpu's
    device and leaves it on the host for SciPy."""
    return _same(lambda: f(sp, xp.asarray), lambda: f(ss, np.asarray))


def _dense(rng, m, n, dt=np.float64):
    v = np.round(rng.standard_normal((m, n)), 2) * (rng.random((m, n)) < 0.5)
    if np.dtype(dt).kind == "c":
        v = v + 1j * np.round(rng.standard_normal((m, n)), 2) * (v != 0)
    return (v != 0) if np.dtype(dt) == np.bool_ else v.astype(dt)


def _dups():
    """(data, row, col) with duplicates, a pair cancelling at (2, 1), explicit zeros, unsorted
    entries and int32 indices (SciPy's arrays keep int64 indices, npgpu's narrow them)."""
    d = np.array([1., 2., -1., 0., 3., 5., 4., 1., 0.])
    r = np.array([2, 1, 2, 0, 1, 2, 0, 2, 1], np.int32)
    c = np.array([1, 0, 1, 2, 0, 0, 3, 1, 3], np.int32)
    return d, r, c


# ---- 1. nonzero: the stored values that are not zero, duplicates not summed ---------------
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex64, np.bool_])
def test_nonzero_keeps_duplicates(fmt, kind, dt):
    d, r, c = _dups()
    d = (d != 0) if dt == np.bool_ else d.astype(dt)

    def make(m, conv):
        return getattr(m, f"coo_{kind}")((conv(d), (conv(r), conv(c))), shape=(3, 4)).asformat(fmt)

    h, a = make(ss, np.asarray), make(sp, xp.asarray)
    nnz = a.nnz
    got, want = a.nonzero(), h.nonzero()
    assert a.nnz == nnz                              # nothing summed in place
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g.get(), w)    # the order too


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("kind", KINDS)
def test_nonzero_unsorted_compressed(fmt, kind):
    """Compressed arrays given directly: unsorted, a place stored twice, stored zeros."""
    parts = (np.array([1., -1., 2., 0., 3., 4.]), np.array([2, 2, 0, 1, 0, 1], np.int32),
             np.array([0, 2, 4, 6], np.int32))
    for f in (lambda m, cv: getattr(m, f"{fmt}_{kind}")(tuple(cv(p) for p in parts),
                                                          shape=(3, 3)).nonzero(),):
        got, want = f(sp, xp.asarray), f(ss, np.asarray)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.get(), w)


# ---- 2. 1-d and 0-d input to the constructors ----------------------------------------------
ONE_D = {
    "dense": lambda cv: (cv(np.array([0., 2., 0., -1.5, 3.])),),
    "strided": lambda cv: (cv(np.arange(12.) - 5)[::-3],),
    "list": lambda cv: ([0, 1, 0, 2],),
    "empty": lambda cv: (cv(np.zeros(0)),),
    "0-d": lambda cv: (cv(np.array(3.0)),),
    "scalar": lambda cv: (3,),
    "tuple": lambda cv: ((cv(np.array([2., -1.5])), (cv(np.array([1, 3])),)),),
}
SHAPES = (None, (5,), (1, 5), (5, 1), (1, 6))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("form", sorted(ONE_D))
def test_one_dimensional_input(fmt, kind, form):
    """SciPy's matrices read 1-d (0-d) input as one row; its arrays hold 1-d COO (and CSR)
    arrays or refuse; npgpu's 1-d CSR is NotImplementedError."""
    name = f"{fmt}_{kind}"
    for shape in SHAPES:
        kw = {} if shape is None else {"shape": shape}
        h = _run(lambda: getattr(ss, name)(*ONE_D[form](np.asarray), **kw))
        a = _run(lambda: getattr(sp, name)(*ONE_D[form](xp.asarray), **kw))
        if ss.issparse(h) and h.ndim == 1 and h.format == "csr":
            assert isinstance(a, NotImplementedError), a
            assert f"a 1-d {name} is not implemented" in str(a)
            continue
        if isinstance(h, Exception):
            assert type(a) is type(h) and str(a) == str(h), (form, shape, a, h)
        else:
            _like(a, h)


def test_one_dimensional_sparse_input():
    v = np.array([0., 2., 0., -1.5, 3.])
    for name in ("coo_array", "coo_matrix", "csc_array", "dia_matrix", "dia_array"):
        for kw in ({}, {"shape": (1, 5)}):
            _same(lambda: getattr(sp, name)(sp.coo_array(xp.asarray(v)), **kw),
                  lambda: getattr(ss, name)(ss.coo_array(v), **kw))
    # SciPy's answer is a 1-d CSR without a shape, a (1, n) one with it
    with pytest.raises(NotImplementedError, match="a 1-d csr_matrix is not implemented"):
        sp.csr_matrix(sp.coo_array(xp.asarray(v)))
    _same(lambda: sp.csr_array(sp.coo_array(xp.asarray(v)), shape=(1, 5)),
          lambda: ss.csr_array(ss.coo_array(v), shape=(1, 5)))


# ---- 3. 2-d arrays reshape to 1-d COO arrays ------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", KINDS)
def test_reshape_to_one_dimension(fmt, kind):
    rng = np.random.default_rng(3)
    D = _dense(rng, 3, 4)
    cls = f"{fmt}_{kind}"
    for args, kw in [((-1,), {}), ((12,), {}), (((12,),), {"order": "F"}), ((12,), {"copy": True}),
                     ((1, 12), {}), ((2, 6), {"order": "F"}), ((5,), {}), (((),), {}),
                     ((2, 2, 3), {}), ((-1, -1), {})]:
        h = _run(lambda: getattr(ss, cls)(D).reshape(*args, **kw))
        a = _run(lambda: getattr(sp, cls)(xp.asarray(D)).reshape(*args, **kw))
        if ss.issparse(h) and h.ndim > 2:
            assert isinstance(a, NotImplementedError), a
            continue
        if isinstance(h, Exception):
            assert type(a) is type(h) and str(a) == str(h), (args, a, h)
        else:
            _like(a, h)
            if a.ndim == 1:                       # and it works as a 1-d array
                np.testing.assert_allclose(a.sum().get(), h.sum())
                _like(a.reshape(3, 4), h.reshape(3, 4))


def test_reshape_one_dimension_duplicates_and_data():
    d, r, c = _dups()
    h = ss.coo_array((d, (r, c)), shape=(3, 4))
    a = sp.coo_array((xp.asarray(d), (xp.asarray(r), xp.asarray(c))), shape=(3, 4))
    for order in "CF":
        _like(a.reshape(12, order=order), h.reshape(12, order=order))
    b = a.reshape(-1, copy=True)
    b.data[0] = 99                                 # a copy: a untouched
    assert float(a.data[0].get()) == d[0]


# ---- 4. sum(out=) and mean(out=) check out's shape --------------------------------------
OUTS = [(), (1,), (3,), (4,), (1, 1), (1, 4), (3, 1), (2, 4)]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("what", ["sum", "mean"])
def test_out_shapes(fmt, kind, what):
    d, r, c = _dups()
    cls = f"coo_{kind}"
    for axis in (None, 0, 1, -1):
        for shape in OUTS:
            def run(m, conv, shape=shape, axis=axis):
                A = getattr(m, cls)((conv(d), (conv(r), conv(c))), shape=(3, 4)).asformat(fmt)
                out = conv(np.full(shape, 7.0))
                res = getattr(A, what)(axis=axis, out=out)
                return res, out
            h, a = _run(lambda: run(ss, np.asarray)), _run(lambda: run(sp, xp.asarray))
            if isinstance(h, AttributeError):
                # SciPy's np.matrix reduction cannot write an ndarray out (its _collapse):
                # npgpu writes the matrix's result where its shape is right
                want = getattr(ss.coo_matrix((d, (r, c)), shape=(3, 4)), what)(axis=axis)
                assert not isinstance(a, Exception), a
                np.testing.assert_allclose(a[1].get(), np.asarray(want).reshape(shape))
                continue
            if isinstance(h, Exception):
                assert type(a) is type(h) and str(a) == str(h), (axis, shape, a, h)
            else:
                _like(a[1], h[1])


def test_one_dimensional_sum_out():
    v = np.array([0., 2., 0., -1.5, 3.])
    for shape in [(), (1,), (5,)]:
        _same(lambda: sp.coo_array(xp.asarray(v)).sum(out=xp.zeros(shape)),
              lambda: ss.coo_array(v).sum(out=np.zeros(shape)))


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int16, np.complex64])
def test_mean_scales_first(dt):
    """SciPy's mean: the values times 1/n, summed in the values' type (float64 for
    integers), then cast to ``dtype``; ``sum`` over all sums duplicates in place."""
    rng = np.random.default_rng(4)
    D = (_dense(rng, 5, 7, dt) * 3).astype(dt)
    for fmt in FORMATS:
        h, a = getattr(ss, f"{fmt}_array")(D), getattr(sp, f"{fmt}_array")(xp.asarray(D))
        for axis in (None, 0, 1):
            for kw in ({}, {"dtype": np.float32}, {"dtype": np.complex128}):
                _like(a.mean(axis=axis, **kw), h.mean(axis=axis, **kw))
    d, r, c = _dups()
    h = ss.coo_array((d, (r, c)), shape=(3, 4))
    a = sp.coo_array((xp.asarray(d), (xp.asarray(r), xp.asarray(c))), shape=(3, 4))
    a.mean(), h.mean()
    assert a.nnz == h.nnz == 9
    a.sum(), h.sum()
    assert a.nnz == h.nnz and a.has_canonical_format == h.has_canonical_format


# ---- 5. constructors: SciPy's shape rules and errors -------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", KINDS)
def test_constructor_shapes(fmt, kind):
    rng = np.random.default_rng(5)
    D = _dense(rng, 2, 3)
    name = f"{fmt}_{kind}"
    for shape in [(2, 3), (2, 5), (3, 3), (1, 3), (6,), [2, 3], (2., 3)]:
        _both(lambda m, cv: getattr(m, name)(cv(D), shape=shape))            # dense + shape
        _both(lambda m, cv: getattr(m, name)(m.csr_matrix(cv(D)), shape=shape))   # sparse
    for arg in [(2, 3), (0, 3), (-1, 3), (2., 3), (2, 3, 4), (4,), (1, 2, 3)]:
        _both(lambda m, cv: getattr(m, name)(arg))
        _both(lambda m, cv: getattr(m, name)(arg, dtype=np.int8))
    for dt in (np.float32, np.complex64, np.int64, np.bool_, np.float16):
        _both(lambda m, cv: getattr(m, name)(cv(D), dtype=dt))
    _both(lambda m, cv: getattr(m, name)(cv(D)[:, ::-2]))                   # negative stride
    _both(lambda m, cv: getattr(m, name)(cv(np.ones((2, 2, 2)))))
    _both(lambda m, cv: getattr(m, name)([[1, 0], [0, 2]]))


@pytest.mark.parametrize("kind", KINDS)
def test_constructor_tuples(kind):
    d, r, c = (np.array([1., 2.]), np.array([0, 1]), np.array([1, 1]))
    for fmt in ("coo", "csr", "csc"):
        name = f"{fmt}_{kind}"
        for kw in ({}, {"shape": (3, 3)}, {"dtype": np.float32}):
            _both(lambda m, cv: getattr(m, name)((cv(d), (cv(r), cv(c))), **kw))
            _both(lambda m, cv: getattr(m, name)((cv(d), (cv(r.astype(float)), cv(c))), **kw))
            if fmt == "coo" or "shape" in kw:   # (SciPy's CSR of n-d COO: an unpack error)
                _both(lambda m, cv: getattr(m, name)((cv(d), (cv(r), cv(c), cv(c))), **kw))
        _both(lambda m, cv: getattr(m, name)((cv(np.ones(3)), (cv(r), cv(c)))))
        _both(lambda m, cv: getattr(m, name)((cv(d), (cv(np.zeros(0, int)), cv(c)))))
        _both(lambda m, cv: getattr(m, name)((cv(d), cv(c), cv(np.array([0, 1, 2])))))
        _both(lambda m, cv: getattr(m, name)((cv(np.zeros(0)), cv(np.zeros(0, int)),
                                              cv(np.zeros(3, int)))))
        _both(lambda m, cv: getattr(m, name)((1, 2, 3, 4)))
    for offsets in ([0, 1], [[0, 1]], [0, 0]):
        _both(lambda m, cv: getattr(m, f"dia_{kind}")((cv(np.ones((2, 3))), offsets),
                                                      shape=(3, 3)))
    _both(lambda m, cv: getattr(m, f"dia_{kind}")((cv(np.ones((2, 3))), [0, 1])))


def test_compressed_shape_narrower_than_entries():
    """SciPy keeps indices beyond a narrower given shape (an invalid matrix); npgpu, whose
    kernels would write outside the result, refuses them."""
    with pytest.raises(ValueError, match="indices must be < 2"):
        sp.csr_matrix(xp.asarray(np.array([[0., 2., 0.], [-1.5, 0, 3.]])), shape=(2, 2))


# ---- 5. indexing and assignment ---------------------------------------------------------------
KEYS = [(1, 2), (-1, -2), 1, -1, (slice(None), 2), (slice(1, 4), slice(None, None, 2)),
        (slice(None, None, -1), 0), ([0, 2, 2], slice(None)), (slice(None), [5, 0]),
        ([True, False, True, False, True], slice(None)), ([0, 2], [1, 3]), (1, [0, 2]),
        ([1, 3], 2), ((np.array([[0], [2]]), np.array([[1, 3]]))),
        ((np.array([[0, 1], [4, 4]]), np.array([[1, 1], [0, 5]]))), (slice(None),),
        (Ellipsis, 1), (5, 0), (0, 6), (np.int64(2), np.int32(3)), ([], slice(None)),
        ([], []), (None, 1), (1, None), (1, 2, None), ([[0, 1]], slice(None)), (1.0, 2),
        (1.5, 2), (slice(0, 10), 1), (0, 0, 0), ([0, 1], [0, 1, 2]), (Ellipsis, Ellipsis),
        ([True, False], slice(None)), "mask"]


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dt", [np.float64, np.int32, np.bool_])
def test_getitem(fmt, kind, dt):
    """A matrix keeps two dimensions (a pick of elements is one dense row); an array loses
    an integer's axis (a row is a 1-d COO array), picks are dense (COO's sparse)."""
    rng = np.random.default_rng(6)
    D = _dense(rng, 5, 6, dt)
    if kind == "matrix" and fmt == "coo":
        return                                       # SciPy's coo_matrix has no indexing
    for key in KEYS:
        key = D > 0 if key == "mask" else key
        h = _run(lambda: getattr(ss, f"{fmt}_{kind}")(D)[key])
        dev = tuple(xp.asarray(k) if isinstance(k, (list, np.ndarray)) and np.size(k) else k
                    for k in key) if isinstance(key, tuple) else key
        for k in (key, dev):
            a = _run(lambda: getattr(sp, f"{fmt}_{kind}")(xp.asarray(D))[k])
            if ss.issparse(h) and h.ndim > 2:
                assert isinstance(a, NotImplementedError), a
            elif isinstance(h, Exception):
                assert type(a) is type(h) and str(a) == str(h), (key, a, h)
            elif isinstance(h, np.matrix):
                _like(a, np.asarray(h))
            else:
                _like(a, h)


SETS = [((0, 0), 5.0), ((1, 2), 0.0), ((0, slice(None)), 0.0), ((slice(None), 1), [1., 2, 3, 4]),
        (([0, 0], [2, 2]), [7., 8]), ((1,), 9.0),
        ((slice(1, 3), slice(0, 4, 2)), [[1., 2], [3, 4]]),
        ((np.array([[0], [3]]), np.array([1, 4])), np.array([[1., 2], [3, 4]])),
        ("mask", 1.0), ((0, 0), [1., 2]), ((slice(None), 1), [1., 2, 3]), ((0, 9), 1.0),
        ((Ellipsis, 2), 3.0), ((-1, -1), 2.5), ((slice(None, None, -1), 0), [1., 2, 3, 4]),
        ((0, slice(None)), "row"), ((slice(None), slice(None)), "all"),
        ((slice(None), slice(0, 2)), "bcast"), ((slice(None), slice(0, 2)), "bad"),
        (([], []), 1.0), ((0, [1, 3]), [0, 6.]), ((0, 0), 2.7)]


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dt", [np.float64, np.int64])
def test_setitem(fmt, kind, dt):
    """Every targeted place stored (CSR/CSC, explicit zeros too, the last repeat wins), the
    SparseEfficiencyWarning where places are added; COO arrays keep x's nonzeros;
    coo_matrix and DIA refuse assignment."""
    rng = np.random.default_rng(7)
    D = _dense(rng, 4, 5, dt)
    X = {"row": np.array([[0, 0, 4., 0, 1]]), "all": _dense(rng, 4, 5),
         "bcast": np.array([[0, 7.]]), "bad": np.ones((3, 2))}
    for key, v in SETS:
        key = (D > 0,) if key == "mask" else key

        def run(m, conv, key=key, v=v):
            A = getattr(m, f"{fmt}_{kind}")(conv(D))
            x = getattr(m, f"csr_{kind}")(conv(X[v])) if isinstance(v, str) else v
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                A[key] = x
            return A, A.nnz, sorted({(x.category.__name__, str(x.message)) for x in w})
        h, a = _run(lambda: run(ss, np.asarray)), _run(lambda: run(sp, xp.asarray))
        if isinstance(h, Exception):
            assert type(a) is type(h) and str(a) == str(h), (key, v, a, h)
        else:
            assert not isinstance(a, Exception), (key, v, a)
            _like(a[0], h[0])
            assert a[1:] == h[1:], (key, v, a[1:], h[1:])


def test_setitem_keeps_x_and_flags():
    D = np.array([[0, 1., 0], [2, 0, 3]])
    x = sp.coo_array((xp.asarray([1., 2.]), (xp.asarray([0, 0]), xp.asarray([1, 1]))),
                     shape=(1, 3))
    A = sp.csr_array(xp.asarray(D))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        A[0] = x
    assert x.nnz == 2 and not x.has_canonical_format    # x's duplicates summed on a copy
    np.testing.assert_array_equal(A.toarray().get(), [[0, 3, 0], [2, 0, 3]])
    assert A.has_sorted_indices
    for cls in (sp.coo_matrix, sp.dia_matrix, sp.dia_array):
        with pytest.raises(TypeError, match="does not support item assignment"):
            cls(xp.asarray(D))[0, 0] = 1
    with pytest.raises(NotImplementedError, match="1-d sparse array"):
        sp.coo_array(xp.asarray([1., 0.]))[0] = 2


# ---- 5. arithmetic, conversions, flags and methods ----------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_arithmetic_formats_and_messages(kind):
    rng = np.random.default_rng(8)
    D, E = _dense(rng, 4, 5), _dense(rng, 4, 5)
    R, C = _dense(rng, 1, 5) + 0.5, _dense(rng, 4, 1) - 0.5
    ops = [lambda a, b, m: a - 1, lambda a, b, m: 1 - a, lambda a, b, m: a + 1,
           lambda a, b, m: a + b, lambda a, b, m: a - b, lambda a, b, m: a.multiply(b),
           lambda a, b, m: a @ b.T, lambda a, b, m: a.maximum(1), lambda a, b, m: a.minimum(-1),
           lambda a, b, m: a.maximum(0), lambda a, b, m: a.astype(np.float32),
           lambda a, b, m: a.multiply(getattr(m, f"csr_{kind}")(R)),
           lambda a, b, m: a.multiply(getattr(m, f"csr_{kind}")(C)),
           lambda a, b, m: getattr(m, f"csr_{kind}")(R).multiply(a),
           lambda a, b, m: a.multiply(getattr(m, f"csr_{kind}")(np.ones((1, 1)) * 2)),
           lambda a, b, m: a.multiply(getattr(m, f"csr_{kind}")(np.ones((3, 5)))),
           lambda a, b, m: a + getattr(m, f"csr_{kind}")(R),
           lambda a, b, m: a.maximum(getattr(m, f"csr_{kind}")(R)),
           lambda a, b, m: a.transpose((0, 1)), lambda a, b, m: a.transpose([1, 0]),
           lambda a, b, m: a.transpose((1, 1))]
    for f1 in FORMATS:
        for f2 in FORMATS:
            for op in ops:
                _both(lambda m, cv: op(getattr(m, f"{f1}_{kind}")(cv(D)),
                                       getattr(m, f"{f2}_{kind}")(cv(E)), m))
    if kind == "matrix":
        for fmt in FORMATS:
            for p in (0, 1, 2, 3, 2.0, 0.5, -1):
                _both(lambda m, cv: getattr(m, f"{fmt}_matrix")(cv(D[:, :4])) ** p)
    with pytest.raises(ValueError, match=r"\(n,k=4\),\(k=5,m\)"):
        xp.ones((3, 5)) @ sp.csr_matrix(xp.asarray(D))


def test_duplicates_in_conversions_and_astype():
    """CSR <-> CSC keep duplicates and stored zeros (sorted); astype sums them, on a copy."""
    parts = (np.array([4., 1., 0., 2., -2., 3.]), np.array([3, 3, 1, 0, 0, 1], np.int32),
             np.array([0, 2, 4, 6], np.int32))
    for kind in KINDS:
        for fmt, other in (("csr", "csc"), ("csc", "csr")):
            shape = (3, 4) if fmt == "csr" else (4, 3)

            def run(m, cv):
                A = getattr(m, f"{fmt}_{kind}")(tuple(cv(p) for p in parts), shape=shape)
                B = getattr(A, "to" + other)()
                f = A.astype(np.float32)
                return (B, B.nnz, B.has_canonical_format, B.has_sorted_indices, f, f.nnz,
                        A.nnz, A.has_canonical_format, A.has_sorted_indices)
            _both(run)


def test_flags_found_from_the_arrays():
    forms = {"sorted": ([1., 2, 3], [0, 2, 1], [0, 2, 3]), "unsorted": ([1., 2, 3], [2, 0, 1],
                                                                            [0, 2, 3]),
             "twice": ([1., 2, 3], [1, 1, 1], [0, 2, 3])}
    for parts in forms.values():
        for name in ("csr_matrix", "csc_array"):
            def run(m, cv, name=name, parts=parts):
                A = getattr(m, name)(tuple(cv(np.asarray(p)) for p in parts), shape=(2, 3))
                flags = (A.has_canonical_format, A.has_sorted_indices)
                B = A.sorted_indices()
                A.sum_duplicates()
                return flags + (B.has_canonical_format, B.has_sorted_indices, B.nnz,
                                A.has_canonical_format, A.nnz)
            _both(run)


def test_matrix_methods_and_classes():
    rng = np.random.default_rng(9)
    D = _dense(rng, 4, 5)
    for fmt in FORMATS:
        for meth in [lambda a: a.getrow(1), lambda a: a.getrow(-1), lambda a: a.getrow(9),
                     lambda a: a.getcol(2), lambda a: a.getcol(-9), lambda a: a.getformat(),
                     lambda a: a.getmaxprint(), lambda a: a.get_shape(),
                     lambda a: a.astype(np.int8).asfptype(), lambda a: a.asfptype()]:
            _both(lambda m, cv: meth(getattr(m, f"{fmt}_matrix")(cv(D))))
        for kind in KINDS:
            a = getattr(sp, f"{fmt}_{kind}")(xp.asarray(D))
            assert isinstance(a, sp.sparray) == (kind == "array")
            assert isinstance(a, sp.spmatrix) == (kind == "matrix")
        assert not hasattr(getattr(sp, f"{fmt}_array")(xp.asarray(D)), "getrow")


# ---- 5. construction functions ------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_construction_functions(kind):
    rng = np.random.default_rng(10)
    D, E = _dense(rng, 4, 5), _dense(rng, 3, 5)
    for f1 in FORMATS:
        def A(m, cv):
            return getattr(m, f"{f1}_{kind}")(cv(D))

        def B(m, cv):
            return getattr(m, f"{f1}_{kind}")(cv(E))
        calls = [lambda m, cv: m.find(A(m, cv)),
                 lambda m, cv: m.block_diag([A(m, cv), B(m, cv)]),
                 lambda m, cv: m.block_diag((A(m, cv), cv(np.ones((2, 2))), [[1, 2]], 3),
                                            format="csr"),
                 lambda m, cv: m.block_diag([A(m, cv)], dtype=np.float32, format="csc"),
                 lambda m, cv: m.bmat([[A(m, cv), None], [None, B(m, cv)]]),
                 lambda m, cv: m.bmat([[A(m, cv), A(m, cv)], [B(m, cv), B(m, cv)]]),
                 lambda m, cv: m.bmat([[A(m, cv), B(m, cv)]]),
                 lambda m, cv: m.bmat([A(m, cv), B(m, cv)]),
                 lambda m, cv: m.block_array([[A(m, cv)], [B(m, cv)]], format="csr"),
                 lambda m, cv: m.vstack([A(m, cv), B(m, cv)]),
                 lambda m, cv: m.vstack([A(m, cv), B(m, cv)], dtype=np.float32, format="coo"),
                 lambda m, cv: m.vstack([A(m, cv), m.csr_matrix(cv(E))]),
                 lambda m, cv: m.vstack([A(m, cv), B(m, cv).T]),
                 lambda m, cv: m.hstack([A(m, cv).T, B(m, cv).T]),
                 lambda m, cv: m.hstack([A(m, cv), B(m, cv)]),
                 lambda m, cv: m.kron(A(m, cv), B(m, cv)),
                 lambda m, cv: m.kron(A(m, cv), cv(E), format="csr"),
                 lambda m, cv: m.kronsum(A(m, cv)[:4, :4] if f1 in ("csr", "csc") else
                                         m.csr_matrix(cv(D[:, :4])), m.csr_array(cv(E[:, :3]))),
                 lambda m, cv: m.kronsum(A(m, cv), B(m, cv)),
                 lambda m, cv: m.tril(A(m, cv), 1), lambda m, cv: m.triu(A(m, cv), -1, "csc")]
        for call in calls:
            _both(call)
    for args in [(3,), (3, 4), (3, 4, 1), (3, 4, -2), (3, 4, 5), (3, 3, 3), (3, 4, -3)]:
        _both(lambda m, cv: m.eye(*args, format="csr"))
    for diagonals, offsets, shape in [([[1., 2, 3, 4]], [0], (3, 3)), ([[1., 2]], [0], (3, 3)),
                                      ([[1., 2, 3], [4.]], [0, 3], None)]:
        _both(lambda m, cv: m.diags(diagonals, offsets, shape=shape, dtype=None))
    _both(lambda m, cv: m.rand(5, 4, density=0.3, format="csr", random_state=1))
