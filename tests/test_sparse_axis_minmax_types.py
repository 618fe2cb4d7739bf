"""npgpu.scipy.sparse: what the reductions return (class, format, shape, dtype, coordinates,
stored values, exceptions) against SciPy 1.17: max/min/nanmax/nanmin over an axis as a 1-d
``coo_array`` (arrays) or a ``(1, n)``/``(m, 1)`` ``coo_matrix`` (matrices), argmax/argmin,
sum, mean, count_nonzero and getnnz as dense arrays, and the 1-d ``coo_array`` itself.

Data: random values with duplicates, explicit zeros, entries cancelling when summed, all-zero
rows and columns, negative rows, NaN, and the empty shapes (0, 3), (3, 0), (0, 0).

Differences from SciPy that the comparisons allow (docs/sparse.md): reductions over all axes
give 0-d npgpu arrays where SciPy gives NumPy scalars; a ``*_matrix`` dense result is a 2-d
npgpu array (no ``np.matrix``); 1-d ``count_nonzero(axis=0)`` is SciPy's 1-d CSR answer (its 1-d
COO raises IndexError); what SciPy answers with a 1-d CSR array raises NotImplementedError."""
import operator
import warnings

import numpy as np
import pytest
import scipy.sparse as ss

import npgpu as xp
from npgpu.scipy import sparse as sp

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.bool_]
EXTREMA = ("max", "min", "nanmax", "nanmin")
EMPTY = ((0, 3), (3, 0), (0, 0))


def _dense(rng, m, n, dt, nan=True):
    """Values in -3..3 (about half zero), row 1 and column 1 all zero, row 2 all negative,
    column 3 full and positive; floats get fractions and NaNs (one a full row)."""
    dt = np.dtype(dt)
    v = (rng.integers(-3, 4, (m, n)) * (rng.random((m, n)) < 0.6)).astype(np.float64)
    if m > 2:
        v[2] = -1 - rng.integers(0, 3, n)
    if n > 3:
        v[:, 3] = 1 + rng.integers(0, 3, m)
    if m > 1:
        v[1] = 0
    if n > 1:
        v[:, 1] = 0
    if dt.kind == "f":
        v = v * 0.75
        if nan and m > 4 and n > 2:
            v[0, 2] = np.nan
            v[4] = np.nan
    return (v != 0) if dt.kind == "b" else v.astype(dt)


def _host(rng, D, fmt, kind):
    """SciPy ``fmt``/``kind`` of ``D`` with duplicates, a pair cancelling at (0, 0), explicit
    zeros, unsorted entries and int32 indices (npgpu narrows SciPy's int64 ones)."""
    cls = getattr(ss, f"{fmt}_{kind}")
    r, c = np.nonzero(D)
    d = D[r, c]
    if D.dtype.kind != "b" and D.size:
        half = (d / 2).astype(D.dtype) if D.dtype.kind in "iu" else d / 2
        d = np.concatenate([half, d - half, np.ones(1, D.dtype), -np.ones(1, D.dtype)])
        r, c = np.concatenate([r, r, [0, 0]]), np.concatenate([c, c, [0, 0]])
    zr, zc = (D == 0).nonzero()
    d = np.concatenate([d, np.zeros(min(3, zr.shape[0]), D.dtype)])
    r, c = np.concatenate([r, zr[:3]]), np.concatenate([c, zc[:3]])
    p = rng.permutation(d.shape[0])
    coo = ss.coo_array((d[p], (r[p].astype(np.int32), c[p].astype(np.int32))), shape=D.shape)
    return cls(coo) if fmt == "coo" else cls(coo.asformat(fmt))


def _pair(rng, m, n, dt, fmt="csr", kind="array"):
    D = _dense(rng, m, n, dt)
    if fmt == "dia":            # SciPy's DIA has no max/min: its CSR answers for npgpu's DIA
        return ss.csr_array(D) if kind == "array" else ss.csr_matrix(D), \
            getattr(sp, f"dia_{kind}")(xp.asarray(D))
    H = _host(rng, D, fmt, kind)
    return H, getattr(sp, f"{fmt}_{kind}")(H)


def _run(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return f()
        except Exception as e:         # noqa: BLE001 - compared with SciPy's
            return e


def _equal(a, h):
    if np.asarray(h).dtype.kind in "fc":
        np.testing.assert_allclose(a, h, rtol=1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(a, h)


def _same(fa, fh):
    """npgpu's ``fa()`` returns what SciPy's ``fh()`` does: the same sparse class, format,
    shape, dtype, coordinates and values; a dense array of the same shape and dtype; a scalar
    as a 0-d array of SciPy's dtype (argmax: an int); or the same exception and message."""
    a, h = _run(fa), _run(fh)
    if isinstance(h, Exception):
        assert type(a) is type(h) and str(a) == str(h), (a, h)
        return
    assert not isinstance(a, Exception), (a, h)
    if ss.issparse(h):
        assert sp.issparse(a) and type(a).__name__ == type(h).__name__, (a, h)
        assert (a.format, a.shape, a.ndim, a.dtype, a.nnz) == \
            (h.format, h.shape, h.ndim, h.dtype, h.nnz), (a, h)
        assert len(a.coords) == len(h.coords)
        for ga, ha in zip(a.coords, h.coords):
            assert isinstance(ga, xp.ndarray) and ga.dtype == ha.dtype, (ga.dtype, ha.dtype)
            np.testing.assert_array_equal(ga.get(), ha)
        assert isinstance(a.data, xp.ndarray)
        _equal(a.data.get(), h.data)
        g = a.get()
        assert type(g) is type(h) and g.shape == h.shape
        return
    if isinstance(h, np.ndarray):
        assert isinstance(a, xp.ndarray), a
        h = np.asarray(h)
        assert a.shape == h.shape and a.dtype == h.dtype, (a.shape, h.shape, a.dtype, h.dtype)
        _equal(a.get(), h)
        return
    if isinstance(h, (int, np.integer)) and not isinstance(h, (bool, np.bool_)) and \
            type(a) is int:
        assert a == h
        return
    assert isinstance(a, xp.ndarray) and a.shape == () and a.dtype == np.asarray(h).dtype, \
        (a, h)
    _equal(a.get(), h)


# ---- 2-d reductions over an axis -----------------------------------------------------------
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_minmax_axis_is_sparse(fmt, kind, dt):
    rng = np.random.default_rng(1)
    for shape in ((6, 5), (1, 4), (4, 1)):
        H, A = _pair(rng, *shape, dt, fmt, kind)
        for f in EXTREMA:
            for axis in (None, 0, 1, -1, -2, (0,), (1, 0)):
                for explicit in (False, True):
                    _same(lambda: getattr(A, f)(axis=axis, explicit=explicit),
                          lambda: getattr(H, f)(axis=axis, explicit=explicit))


@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_minmax_result_coordinates(fmt, kind):
    """Stored zeros never reach the result, NaN does; an all-zero line has no entry."""
    D = np.array([[0, 2.5, -1, 0, np.nan], [0, 0, 0, 0, 0], [-3, 0, 0, 0, 4], [1, 1, 1, 1, 1]])
    r, c = np.nonzero(D)
    # an explicit zero at (1, 3) and a pair cancelling at (1, 0)
    d = np.concatenate([D[r, c], [0.0, 2.0, -2.0]])
    r, c = np.concatenate([r, [1, 1, 1]]), np.concatenate([c, [3, 0, 0]])
    coo = ss.coo_array((d, (r.astype(np.int32), c.astype(np.int32))), shape=D.shape)
    H = getattr(ss, f"{fmt}_{kind}")(coo.asformat(fmt))
    A = getattr(sp, f"{fmt}_{kind}")(H)
    for f in EXTREMA:
        for axis in (0, 1):
            for explicit in (False, True):
                _same(lambda: getattr(A, f)(axis=axis, explicit=explicit),
                      lambda: getattr(H, f)(axis=axis, explicit=explicit))
    assert A.max(axis=0).has_canonical_format      # npgpu: sorted, no sort before a conversion


@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_minmax_errors_and_empty(fmt, kind):
    rng = np.random.default_rng(2)
    H, A = _pair(rng, 4, 3, np.float64, fmt, kind)
    for f in EXTREMA:
        for kw in (dict(out=np.zeros(3)), dict(axis=2), dict(axis=-3), dict(axis=1.0),
                   dict(axis=()), dict(axis=(0, 0)), dict(axis=(0, 1, 0))):
            _same(lambda: getattr(A, f)(**kw), lambda: getattr(H, f)(**kw))
    for shape in EMPTY:
        He, Ae = getattr(ss, f"{fmt}_{kind}")(shape), getattr(sp, f"{fmt}_{kind}")(shape)
        for f in EXTREMA + ("argmax", "argmin"):
            for axis in (None, 0, 1, -1):
                _same(lambda: getattr(Ae, f)(axis=axis), lambda: getattr(He, f)(axis=axis))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_dense_reductions(fmt, kind, dt):
    """argmax/argmin, sum and mean stay dense (int64 positions; SciPy's sum/mean dtypes)."""
    rng = np.random.default_rng(3)
    H, A = _pair(rng, 6, 5, dt, fmt, kind)
    for axis in (None, 0, 1, -1, -2):
        for f in ("argmax", "argmin"):
            _same(lambda: getattr(A, f)(axis=axis), lambda: getattr(H, f)(axis=axis))
        for f in ("sum", "mean"):
            _same(lambda: getattr(A, f)(axis=axis), lambda: getattr(H, f)(axis=axis))
    for f in ("sum", "mean"):
        for axis in (2, -3, (), (0, 0)):
            _same(lambda: getattr(A, f)(axis=axis), lambda: getattr(H, f)(axis=axis))
    # (SciPy's CSR/CSC sum takes axis=1.0 by its own test ``axis in (1, -1)``)
    _same(lambda: A.mean(axis=1.0), lambda: H.mean(axis=1.0))
    for shape in EMPTY:
        He, Ae = getattr(ss, f"{fmt}_{kind}")(shape), getattr(sp, f"{fmt}_{kind}")(shape)
        for f in ("sum", "mean"):
            for axis in (None, 0, 1):
                _same(lambda: getattr(Ae, f)(axis=axis), lambda: getattr(He, f)(axis=axis))


def test_sum_out_over_all():
    H, A = _pair(np.random.default_rng(4), 5, 4, np.float64)
    out = xp.zeros(())
    assert A.sum(out=out) is out
    np.testing.assert_allclose(out.get(), H.sum())


@pytest.mark.parametrize("zeros", [False, True])
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_axis_counts_dtype(fmt, kind, zeros):
    """count_nonzero/getnnz over an axis: int64, but CSR/CSC's compressed axis gives the index
    dtype (SciPy's ``np.diff(indptr)``) unless a stored zero remains after summing."""
    rng = np.random.default_rng(5)
    D = _dense(rng, 6, 5, np.float64, nan=False)
    if zeros:
        H, A = _pair(rng, 6, 5, np.float64, fmt, kind)
    else:
        H = getattr(ss, f"{fmt}_{kind}")(D)
        A = getattr(sp, f"{fmt}_{kind}")(H)
    for axis in (None, 0, 1, -1, -2):
        _same(lambda: A.count_nonzero(axis=axis), lambda: H.count_nonzero(axis=axis))
        _same(lambda: A.getnnz(axis=axis), lambda: H._getnnz(axis=axis))
    for shape in EMPTY:
        He, Ae = getattr(ss, f"{fmt}_{kind}")(shape), getattr(sp, f"{fmt}_{kind}")(shape)
        for axis in (0, 1):
            _same(lambda: Ae.count_nonzero(axis=axis), lambda: He.count_nonzero(axis=axis))
            _same(lambda: Ae.getnnz(axis=axis), lambda: He._getnnz(axis=axis))


# ---- the 1-d coo_array ---------------------------------------------------------------------
def _vector_pair(dt, n=9, seed=6):
    """SciPy's and npgpu's 1-d ``coo_array`` of ``max(axis=0)`` of one random (6, n) array."""
    rng = np.random.default_rng(seed)
    D = _dense(rng, 6, n, dt)
    H = _host(rng, D, "csr", "array")
    A = sp.csr_array(H)
    h, a = H.max(axis=0), A.max(axis=0)
    _same(lambda: a, lambda: h)
    return h, a


@pytest.mark.parametrize("dt", DTYPES)
def test_vector_attributes_and_conversions(dt):
    h, a = _vector_pair(dt)
    assert (a.shape, a.ndim, a.nnz, a.size, a.dtype, a.format) == \
        (h.shape, h.ndim, h.nnz, h.size, h.dtype, h.format)
    assert isinstance(a, sp.coo_array) and sp.issparse(a) and not sp.isspmatrix(a)
    assert a.coords[0] is a.col and isinstance(a.col, xp.ndarray)
    assert "shape (9,)" in repr(a)
    for f in (lambda x: x.toarray(), lambda x: x.todense(), lambda x: x.copy(),
              lambda x: x.tocoo(), lambda x: x.asformat("coo"), lambda x: x.T,
              lambda x: x.transpose(), lambda x: x.transpose(axes=(0,)),
              lambda x: x.astype(np.float32), lambda x: x.astype(np.complex128),
              lambda x: x.conj(), lambda x: x.real, lambda x: x.imag, lambda x: x.nonzero()[0],
              lambda x: x.reshape((1, -1)), lambda x: x.reshape((3, 3)),
              lambda x: x.reshape((3, 3), order="F"), lambda x: x.reshape((-1, 1)),
              lambda x: x.reshape(9), lambda x: x.reshape((3, 4)), lambda x: x.reshape((10,)),
              lambda x: x.tocsc(), lambda x: x.todia(), lambda x: x.asformat("csc"),
              lambda x: x.diagonal(), lambda x: x.trace(), lambda x: x.setdiag(1),
              lambda x: x.transpose(axes=(1, 0)), lambda x: len(x), lambda x: bool(x)):
        _same(lambda: f(a), lambda: f(h))
    assert a.reshape(9) is a
    out = xp.ones(9, dtype=a.dtype)
    assert a.toarray(out=out) is out
    np.testing.assert_array_equal(out.get(), h.toarray())
    with pytest.raises(TypeError):           # as for 2-d arrays: toarray() densifies
        xp.asarray(a)


@pytest.mark.parametrize("dt", DTYPES)
def test_vector_reductions(dt):
    h, a = _vector_pair(dt)
    for axis in (None, 0, -1, (0,), 1, -2, 1.0, (), (0, 0)):
        for f in ("sum", "mean") + EXTREMA + ("argmax", "argmin"):
            _same(lambda: getattr(a, f)(axis=axis), lambda: getattr(h, f)(axis=axis))
    for f in EXTREMA + ("argmax", "argmin"):
        _same(lambda: getattr(a, f)(explicit=True), lambda: getattr(h, f)(explicit=True))
        _same(lambda: getattr(a, f)(out=np.zeros(1)), lambda: getattr(h, f)(out=np.zeros(1)))
    _same(lambda: a.sum(dtype=np.float32), lambda: h.sum(dtype=np.float32))
    _same(lambda: a.mean(dtype=np.float32), lambda: h.mean(dtype=np.float32))
    out = xp.zeros((), dtype=np.float64)
    assert a.sum(out=out) is out
    np.testing.assert_allclose(out.get(), h.sum())
    _same(lambda: a.count_nonzero(), lambda: h.count_nonzero())
    # SciPy's 1-d COO fails on count_nonzero(axis=0) (IndexError); its 1-d CSR counts
    for axis in (0, -1, 1, -2):
        _same(lambda: a.count_nonzero(axis=axis), lambda: h.tocsr().count_nonzero(axis=axis))
        _same(lambda: a.getnnz(axis=axis), lambda: h.tocsr()._getnnz(axis=axis))
    _same(lambda: a.getnnz(), lambda: h._getnnz())


@pytest.mark.parametrize("shape", [(0,), (4,)])
def test_vector_without_values(shape):
    h, a = ss.coo_array(shape), sp.coo_array(shape)
    for f in ("sum", "mean", "count_nonzero") + EXTREMA + ("argmax", "argmin"):
        _same(lambda: getattr(a, f)(), lambda: getattr(h, f)())
    for f in EXTREMA + ("argmax", "argmin"):
        _same(lambda: getattr(a, f)(explicit=True), lambda: getattr(h, f)(explicit=True))
    _same(lambda: a.toarray(), lambda: h.toarray())


# (npgpu operation, SciPy operation) or one operation for both
SCALAR_OPS = [
    lambda x: x * 2, lambda x: 2 * x, lambda x: x * 2.5, lambda x: x * np.float64(2),
    lambda x: x * np.int64(3), lambda x: x.multiply(3), lambda x: x.dot(2), lambda x: x / 2,
    lambda x: x / np.float32(4), lambda x: x / 0, lambda x: x + 0, lambda x: 0 + x,
    lambda x: x - 0, lambda x: 0 - x, lambda x: x + 1, lambda x: 1 + x, lambda x: x - 1,
    lambda x: 1 - x, lambda x: -x, lambda x: abs(x), lambda x: round(x),
    lambda x: x ** 2, lambda x: x.power(3), lambda x: x ** 0, lambda x: x.power(0),
    lambda x: abs(x).sqrt(), lambda x: x.sin(), lambda x: x.floor(), lambda x: x.sign(),
    # a 0-d array stands for a scalar
    (lambda x: x * xp.asarray(2.0), lambda x: x * np.asarray(2.0))]


@pytest.mark.parametrize("dt", DTYPES)
def test_vector_scalar_arithmetic(dt):
    h, a = _vector_pair(dt)
    for op in SCALAR_OPS:
        op_a, op_h = op if isinstance(op, tuple) else (op, op)
        with np.errstate(all="ignore"):
            _same(lambda: op_a(a), lambda: op_h(h))


def test_vector_duplicates_and_zeros():
    idx, d = np.array([5, 0, 5, 2, 7, 0]), np.array([1.5, -2, 2.5, 0, 3, 2])
    h = ss.coo_array((d, (idx.astype(np.int32),)), shape=(9,))
    a = sp.coo_array((xp.asarray(d), (xp.asarray(idx),)), shape=(9,))
    for f in (lambda x: x.toarray(), lambda x: x.sum(), lambda x: x.max(), lambda x: x.min(),
              lambda x: x.argmax(), lambda x: x.argmin(), lambda x: x.nonzero()[0],
              lambda x: x.count_nonzero(), lambda x: x.max(explicit=True),
              lambda x: x.argmin(explicit=True), lambda x: abs(x).toarray()):
        _same(lambda: f(a.copy()), lambda: f(h.copy()))
    a.sum_duplicates()
    h.sum_duplicates()
    _same(lambda: a, lambda: h)
    assert a.has_canonical_format
    a.eliminate_zeros()
    h.eliminate_zeros()
    _same(lambda: a, lambda: h)


def _device(arg):
    """The constructor argument with every NumPy array moved to the device."""
    if isinstance(arg, np.ndarray):
        return xp.asarray(arg)
    if isinstance(arg, tuple):
        return tuple(_device(v) for v in arg)
    return arg


def test_vector_construction():
    d, idx = np.array([1.5, -2.0, 3.0]), np.array([4, 0, 2], dtype=np.int32)
    for arg, kw in [((d, (idx,)), {}), ((d, (idx,)), dict(shape=(7,))),
                    ((d, (idx,)), dict(shape=(7,), dtype=np.float32)),
                    ((7,), {}), ((7,), dict(dtype=np.int8)), ((0,), {}),
                    ((d, (idx,)), dict(shape=(3,))),                     # index too large
                    ((d, (idx - 1,)), dict(shape=(7,))),                 # negative index
                    ((d, (idx,)), dict(shape=(7, 2))),                   # 1 index, 2-d shape
                    ((d, (idx, idx)), dict(shape=(7,))),                 # 2 indices, 1-d shape
                    ((d[:2], (idx,)), dict(shape=(7,))),                 # lengths differ
                    ((d[:0], (idx[:0],)), {})]:                          # nothing to infer from
        _same(lambda: sp.coo_array(_device(arg), **kw), lambda: ss.coo_array(arg, **kw))
    v = np.array([0, 1.5, 0, -2, 0, 0, 3])
    _same(lambda: sp.coo_array(xp.asarray(v)), lambda: ss.coo_array(v))
    _same(lambda: sp.coo_array(xp.asarray(v), dtype=np.float32),
          lambda: ss.coo_array(v, dtype=np.float32))
    _same(lambda: sp.coo_array(xp.asarray(v)[::-2]), lambda: ss.coo_array(v[::-2]))  # strided
    for shape in ((7,), (8,), (7, 1)):
        _same(lambda: sp.coo_array(xp.asarray(v), shape=shape),
              lambda: ss.coo_array(v, shape=shape))
    h = ss.coo_array(v)
    _same(lambda: sp.coo_array(h), lambda: ss.coo_array(h))              # from SciPy's
    _same(lambda: sp.coo_array(h.tocsr()), lambda: ss.coo_array(h.tocsr()))
    a = sp.coo_array(h)
    b = sp.coo_array(a)                                                    # from npgpu's: a copy
    _same(lambda: b, lambda: h)
    b.data[0] = 9
    assert float(a.data[0].get()) == 1.5


def test_vector_unsupported_raise():
    """What SciPy answers with a 1-d CSR array, a dense result of a dense operand, or an
    element: NotImplementedError (npgpu's 1-d sparse arrays are COO only)."""
    h, a = _vector_pair(np.float64)
    vh = np.arange(9.0)
    ops = [lambda x, v: x.tocsr(), lambda x, v: x.asformat("csr"), lambda x, v: x + x,
           lambda x, v: x - x, lambda x, v: x * x, lambda x, v: x.multiply(x),
           lambda x, v: x @ x, lambda x, v: x.dot(x), lambda x, v: x / x,
           lambda x, v: x == x, lambda x, v: x < 1, lambda x, v: x != 0,
           lambda x, v: x.maximum(0), lambda x, v: x.minimum(x), lambda x, v: x[0],
           lambda x, v: x + v, lambda x, v: x.multiply(v),
           lambda x, v: x @ v]
    for op in ops:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            op(h.copy(), vh)                                  # SciPy has an answer
        with pytest.raises(NotImplementedError, match="1-d sparse array"):
            op(a.copy(), xp.asarray(vh))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        sp.csr_array(xp.ones((2, 9))) + a


def test_matrix_results_are_coo_matrix():
    """A matrix's max over an axis keeps two dimensions: a COO ``(1, n)`` or ``(m, 1)`` whose
    own methods (2-d) then work as SciPy's."""
    rng = np.random.default_rng(7)
    H, A = _pair(rng, 6, 5, np.float64, "csr", "matrix")
    for axis in (0, 1):
        h, a = H.max(axis=axis), A.max(axis=axis)
        for f in (lambda x: x.toarray(), lambda x: x.tocsr(), lambda x: x.T, lambda x: x * 2,
                  lambda x: x.sum(), lambda x: x.max(axis=1 - axis), lambda x: x.argmax()):
            r_a, r_h = f(a), f(h)
            if ss.issparse(r_h) and r_h.format != "coo":
                assert r_a.format == r_h.format and r_a.shape == r_h.shape
                np.testing.assert_array_equal(r_a.toarray().get(), r_h.toarray())
            else:
                _same(lambda: r_a, lambda: r_h)


def test_2d_coo_array_unchanged():
    """The 1-d dispatch leaves 2-d COO arrays' methods as they were."""
    rng = np.random.default_rng(8)
    H, A = _pair(rng, 5, 4, np.float64, "coo", "array")
    for op in (operator.add, operator.sub, operator.mul):
        np.testing.assert_allclose(op(A, A).toarray().get(), op(H, H).toarray())
    assert A.tocsr().format == "csr" and A.T.shape == (4, 5)
    assert A.coords[0] is A.row and A.coords[1] is A.col and A.ndim == 2
