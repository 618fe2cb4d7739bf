"""npgpu.scipy.sparse: comparisons, argmax/argmin, nanmax/nanmin and the elementwise methods
that keep zero at zero, against SciPy (values, class, format, dtype, SparseEfficiencyWarning,
exceptions) on small random matrices with duplicates, explicit zeros, negative and all-negative
rows, empty rows and NaN."""
import operator
import warnings

import numpy as np
import pytest
import scipy.sparse as ss

import npgpu as xp
from npgpu.scipy import sparse as sp

DTYPES = [np.bool_, np.int64, np.float64, np.complex128]
OPS = [operator.eq, operator.ne, operator.lt, operator.gt, operator.le, operator.ge]
FMTS = ["csr", "csc", "coo", "dia"]


def _dense(rng, m, n, dt, nan=False):
    """Values in -2..2 with an empty row, an all-negative row (if signed) and a NaN."""
    dt = np.dtype(dt)
    v = rng.integers(-2, 3, (m, n)) * (rng.random((m, n)) < 0.5)
    if dt.kind == "c":
        v = v + 1j * rng.integers(-1, 2, (m, n)) * (v != 0)
    v = v.astype(dt) if dt.kind != "b" else v != 0
    if m > 2:
        v[1] = 0
        if dt.kind != "b":
            v[2] = -1 - rng.integers(0, 2, n)
    if nan and dt.kind in "fc" and n > 1:
        v[0, 1] = np.nan
    return v


def _host(rng, D, fmt, kind):
    """A SciPy matrix/array of ``D`` in ``fmt``: for COO/CSR/CSC duplicates (a value split
    in two, a pair of opposite values at (0, 0)), explicit zeros, unsorted."""
    cls = getattr(ss, f"{fmt}_{kind}")
    if fmt == "dia":
        return cls(D)
    r, c = np.nonzero(D)
    d = D[r, c]
    if D.dtype.kind != "b":
        half = (d / 2).astype(D.dtype) if D.dtype.kind in "iu" else d / 2
        d = np.concatenate([half, d - half, np.ones(1, D.dtype), -np.ones(1, D.dtype)])
        r, c = np.concatenate([r, r, [0, 0]]), np.concatenate([c, c, [0, 0]])
    zr, zc = (D == 0).nonzero()
    zr, zc = zr[:2], zc[:2]
    d = np.concatenate([d, np.zeros(zr.shape[0], D.dtype)])     # explicit zeros
    r, c = np.concatenate([r, zr]), np.concatenate([c, zc])
    p = rng.permutation(d.shape[0])
    coo = ss.coo_array((d[p], (r[p], c[p])), shape=D.shape)
    if fmt == "coo":
        return cls(coo)
    major, minor = (coo.row, coo.col) if fmt == "csr" else (coo.col, coo.row)
    o = np.argsort(major, kind="stable")                    # duplicates and disorder stay
    indptr = np.concatenate([[0], np.cumsum(np.bincount(major, minlength=D.shape[fmt == "csc"]))])
    return cls((coo.data[o], minor[o], indptr), shape=D.shape)


def _pair(rng, m, n, dt, fmt, kind, nan=False):
    H = _host(rng, _dense(rng, m, n, dt, nan), fmt, kind)
    return H, getattr(sp, f"{fmt}_{kind}")(H)


def _run(f):
    """(result or exception, SparseEfficiencyWarning messages)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f()
        except Exception as e:           # noqa: BLE001 - compared with SciPy's
            r = e
    return r, [str(x.message) for x in w if "SparseEfficiency" in x.category.__name__]


def _host_value(x):
    if sp.issparse(x):
        return x
    return x.get() if hasattr(x, "get") else x


def _same(fh, fa, exact=True):
    """``fa`` (npgpu) behaves as ``fh`` (SciPy): value, class, format, dtype, nnz, warnings,
    exception class and message (max/min over an axis: SciPy's COO, 1-d for arrays)."""
    h, wh = _run(fh)
    a, wa = _run(fa)
    assert wa == wh
    if isinstance(h, Exception):
        # (SciPy versions word an unexpected keyword differently: 1.17 its own, later Python's)
        assert type(a) is type(h) and (str(a) == str(h) or "unexpected keyword" in str(h)
                                       and "unexpected keyword" in str(a)), (a, h)
        return
    assert not isinstance(a, Exception), a
    a = _host_value(a)
    if ss.issparse(h):
        assert sp.issparse(a) and type(a).__name__ == type(h).__name__
        assert a.dtype == h.dtype and a.nnz == h.nnz and a.shape == h.shape, (a, h)
        a, h = a.toarray().get(), h.toarray()
    elif isinstance(h, (bool, int, np.integer)) and not isinstance(h, np.ndarray):
        assert type(a) in (bool, int) and (type(a) is bool) == (type(h) is bool), (a, h)
        assert a == h
        return
    a, h = np.asarray(a), np.asarray(h)
    assert a.shape == h.shape and a.dtype == h.dtype, (a.shape, h.shape, a.dtype, h.dtype)
    if exact:
        np.testing.assert_array_equal(a, h)
    else:
        np.testing.assert_allclose(a, h, rtol=1e-12, atol=1e-12, equal_nan=True)


# ---- comparisons ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", FMTS)
def test_compare_scalar(fmt, kind):
    rng = np.random.default_rng(1)
    for dt in DTYPES:
        H, A = _pair(rng, 6, 5, dt, fmt, kind, nan=True)
        scalars = [0, 0.5, -1, np.nan] if dt != np.bool_ else [0, True, False]
        for s in scalars:
            for op in OPS:
                _same(lambda: op(H, s), lambda: op(A, s))
    np.testing.assert_array_equal(A.toarray().get(), H.toarray())       # values unchanged


def test_compare_scalar_forms():
    rng = np.random.default_rng(2)
    H, A = _pair(rng, 6, 5, np.float64, "csr", "array")
    _same(lambda: H < 0.5, lambda: A < xp.asarray(0.5))          # a 0-d device array
    _same(lambda: H > np.float32(-1), lambda: A > np.float32(-1))
    _same(lambda: H < 1j, lambda: A < 1j)                       # Python's TypeError
    _same(lambda: H == 1j, lambda: A == 1j)
    assert (A == object()) is False and (A != object()) is True
    with pytest.raises(TypeError):
        A < object()
    with pytest.warns(sp.SparseEfficiencyWarning, match="Try using != instead"):
        r = A == 0
    assert isinstance(r, sp.csr_array) and r.dtype == np.bool_
    with pytest.warns(sp.SparseEfficiencyWarning, match="Try using < instead"):
        A >= 0


@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("pair", [("csr", "csc"), ("csc", "coo"), ("coo", "csr"),
                                  ("dia", "csr"), ("csr", "dia")])
def test_compare_sparse(pair, kind):
    rng = np.random.default_rng(3)
    for dt in (np.int64, np.float64, np.complex128, np.bool_):
        Ha, A = _pair(rng, 6, 5, dt, pair[0], kind, nan=True)
        Hb, B = _pair(rng, 6, 5, dt, pair[1], kind)
        for op in OPS:
            _same(lambda: op(Ha, Hb), lambda: op(A, B))
            _same(lambda: op(Hb, Ha), lambda: op(B, A))
    Hc, C = _pair(rng, 5, 5, np.float64, "csr", kind)
    for op in OPS:                                  # == / != give a bool, others raise
        _same(lambda: op(Ha, Hc), lambda: op(A, C))


@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_compare_mixed_dtypes_and_families(kind):
    rng = np.random.default_rng(4)
    Ha, A = _pair(rng, 6, 5, np.int64, "csr", kind)
    Hb, B = _pair(rng, 6, 5, np.float64, "coo", "array")
    for op in OPS:
        _same(lambda: op(Ha, Hb), lambda: op(A, B))


@pytest.mark.parametrize("fmt", ["csr", "coo"])
def test_compare_dense(fmt):
    rng = np.random.default_rng(5)
    H, A = _pair(rng, 6, 5, np.float64, fmt, "array", nan=True)
    d = rng.integers(-1, 2, (6, 5)).astype(np.float64)
    row = rng.integers(-1, 2, (1, 5)).astype(np.float64)
    for op in OPS:
        _same(lambda: op(H, d), lambda: op(A, xp.asarray(d)))
        _same(lambda: op(H, row), lambda: op(A, xp.asarray(row)))     # broadcast
        _same(lambda: op(H, d.tolist()), lambda: op(A, d.tolist()))
    with pytest.raises(ValueError, match="broadcast"):
        A < xp.ones((4, 4))


# ---- argmax / argmin and the reductions ----------------------------------------------------
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_argmax_argmin(fmt, kind):
    rng = np.random.default_rng(6)
    for dt in DTYPES:
        for shape in ((6, 5), (1, 5), (5, 1)):
            H, A = _pair(rng, *shape, dt, fmt, kind, nan=shape == (6, 5))
            for f in ("argmax", "argmin"):
                for axis in (None, 0, 1, -1, -2):
                    for explicit in (False, True):
                        _same(lambda: getattr(H, f)(axis=axis, explicit=explicit),
                              lambda: getattr(A, f)(axis=axis, explicit=explicit))


@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_argmax_special(kind):
    cls, scls = getattr(sp, f"csr_{kind}"), getattr(ss, f"csr_{kind}")
    cases = [np.zeros((3, 4)), np.full((3, 4), -1.0), np.full((3, 4), 2.0),
             np.array([[0, 0, 5], [1, 0, 0]], float),       # explicit: a stored position
             np.array([[-1, 0, -2], [-3, -1, -1]], float)]
    for D in cases:
        H, A = scls(D), cls(D)
        for f in ("argmax", "argmin"):
            for axis in (None, 0, 1):
                for explicit in (False, True):
                    _same(lambda: getattr(H, f)(axis=axis, explicit=explicit),
                          lambda: getattr(A, f)(axis=axis, explicit=explicit))
    H, A = scls(cases[3]), cls(cases[3])
    bad = [dict(out=np.zeros(2)), dict(axis=2), dict(axis=1.0), dict(axis=()),
           dict(axis=(0, 0)), dict(axis=(0, 1))]
    for kw in bad:
        for f in ("argmax", "argmin", "max", "nanmin"):
            _same(lambda: getattr(H, f)(**kw), lambda: getattr(A, f)(**kw))
    for shape in ((0, 3), (3, 0), (0, 0)):
        H, A = scls(shape), cls(shape)
        for f in ("argmax", "argmin", "max", "min"):
            for axis in (None, 0, 1):
                _same(lambda: getattr(H, f)(axis=axis), lambda: getattr(A, f)(axis=axis))


@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_max_min_nan(fmt, kind):
    rng = np.random.default_rng(7)
    D = _dense(rng, 6, 5, np.float64, nan=True)
    D[3, :] = np.nan                                   # a full all-NaN row
    D[4, 0] = np.nan                                   # a NaN in a row with implicit zeros
    H = _host(rng, D, fmt, kind)
    A = getattr(sp, f"{fmt}_{kind}")(H)
    for f in ("max", "min", "nanmax", "nanmin"):
        for axis in (None, 0, 1):
            for explicit in (False, True):
                _same(lambda: getattr(H, f)(axis=axis, explicit=explicit),
                      lambda: getattr(A, f)(axis=axis, explicit=explicit))


# ---- elementwise methods -------------------------------------------------------------------
UFUNCS = ["sin", "tan", "arcsin", "arctan", "sinh", "tanh", "arcsinh", "arctanh", "rint",
          "sign", "expm1", "log1p", "deg2rad", "rad2deg", "floor", "ceil", "trunc", "sqrt"]


@pytest.mark.parametrize("fmt", FMTS)
def test_ufunc_methods(fmt):
    rng = np.random.default_rng(8)
    kind = "array" if fmt in ("csr", "coo") else "matrix"
    for dt in (np.int64, np.float64, np.complex128):
        D = _dense(rng, 6, 5, dt) * (0.4 if dt != np.int64 else 1)
        for name in UFUNCS:
            H = _host(rng, D, fmt, kind)
            A = getattr(sp, f"{fmt}_{kind}")(H)
            with np.errstate(all="ignore"):
                _same(lambda: getattr(H, name)(), lambda: getattr(A, name)(), exact=False)


@pytest.mark.parametrize("fmt", ["csr", "coo", "dia"])
def test_abs_round_power_deduplicate(fmt):
    rng = np.random.default_rng(9)
    for dt in (np.int64, np.float64, np.complex128):
        D = _dense(rng, 6, 5, dt) * (1.37 if dt != np.int64 else 1)
        for f in (abs, lambda x: round(x, 1), lambda x: x.power(2), lambda x: x.power(3),
                  lambda x: x.power(0.5, dtype=np.complex128)):
            H = _host(rng, D, fmt, "array")
            A = sp.__dict__[f"{fmt}_array"](H)
            _same(lambda: f(H), lambda: f(A), exact=False)
    # |COO| with duplicates of opposite sign: summed first (1 + -1 = 0, not 2)
    A = sp.coo_array((xp.asarray([1.0, -1.0, 2.0]), (xp.asarray([0, 0, 1]),
                                                      xp.asarray([0, 0, 1]))), shape=(2, 2))
    np.testing.assert_array_equal(abs(A).toarray().get(), [[0, 0], [0, 2]])


# ---- reshape / resize ----------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("fmt", FMTS)
def test_reshape_resize(fmt, kind):
    rng = np.random.default_rng(10)
    H, A = _pair(rng, 6, 4, np.float64, fmt, kind)
    for args, kw in [(((4, 6),), {}), ((3, -1), {"order": "F"}), (((24, 1),), {}),
                     (((6, 4),), {"copy": True}), (((2, 12),), {"order": "F"}),
                     (((5, 5),), {}), (((-1, -1),), {}), (((7, -1),), {}),
                     (((4, 6),), {"bad": 1})]:
        _same(lambda: H.reshape(*args, **kw), lambda: A.reshape(*args, **kw))
    assert A.reshape((6, 4)) is A and A.reshape((6, 4), copy=True) is not A
    for shape in ((3, 2), (8, 7), (2, 9), (-1, 3)):
        h, a = H.copy(), A.copy()
        _same(lambda: h.resize(shape), lambda: a.resize(*shape))
        assert a.shape == h.shape and a.format == h.format
        np.testing.assert_array_equal(a.toarray().get(), h.toarray())
