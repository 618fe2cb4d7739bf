"""npgpu.scipy.sparse: formats, conversions and products against SciPy (random sparse data
with duplicates, unsorted indices, empty rows and empty matrices)."""
import re

import numpy as np
import pytest
import scipy.sparse as ss

import npgpu as xp
from npgpu.scipy import sparse as sp

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]


def _tol(dt):
    return dict(rtol=2e-5, atol=1e-5) if np.dtype(dt) in (np.float32, np.complex64) else \
        dict(rtol=1e-12, atol=1e-12)


def _values(rng, n, dt):
    dt = np.dtype(dt)
    v = rng.standard_normal(n)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(n)
    if dt.kind in "iu":
        v = rng.integers(1, 9, n)
    if dt.kind == "b":
        v = rng.integers(0, 2, n)
    return v.astype(dt)


def _coo(rng, m, n, nnz, dt, dup=True):
    """Host COO with duplicates, unsorted entries and (for nnz << m) empty rows."""
    r = rng.integers(0, max(m, 1), nnz)
    c = rng.integers(0, max(n, 1), nnz)
    if dup and nnz > 3:
        r[: nnz // 4] = r[nnz // 4: 2 * (nnz // 4)]
        c[: nnz // 4] = c[nnz // 4: 2 * (nnz // 4)]
    return _values(rng, nnz, dt), r, c


def _pair(rng, m=7, n=5, nnz=14, dt=np.float64, fmt="csr", array=False):
    d, r, c = _coo(rng, m, n, nnz, dt)
    H = (ss.coo_array if array else ss.coo_matrix)((d, (r, c)), shape=(m, n)).asformat(fmt)
    D = getattr(sp, f"{fmt}_{'array' if array else 'matrix'}")(H)
    return H, D


def _close(d, h, dt=np.float64):
    got = d.toarray().get() if sp.issparse(d) else (d.get() if hasattr(d, "get") else d)
    want = h.toarray() if ss.issparse(h) else np.asarray(h)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, **_tol(dt))


# ---- construction and conversion -----------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_coo_tuple_and_conversions(dt, fmt):
    rng = np.random.default_rng(1)
    d, r, c = _coo(rng, 6, 5, 12, dt)
    H = ss.coo_matrix((d, (r, c)), shape=(6, 5))
    cls = getattr(sp, f"{fmt}_matrix")
    A = cls((xp.asarray(d), (xp.asarray(r), xp.asarray(c))), shape=(6, 5))
    assert A.shape == (6, 5) and A.dtype == np.dtype(dt) and A.format == fmt
    _close(A, H, dt)
    for to in ("tocsr", "tocsc", "tocoo"):
        B = getattr(A, to)()
        _close(B, H, dt)
        assert B.format == to[2:]
    csr = A.tocsr()
    assert csr.nnz == H.tocsr().nnz            # duplicates summed on conversion
    g = csr.get()
    assert isinstance(g, ss.csr_matrix)
    np.testing.assert_array_equal(g.indptr, H.tocsr().indptr)
    np.testing.assert_array_equal(g.indices, H.tocsr().indices)


def test_construction_forms():
    rng = np.random.default_rng(2)
    dense = rng.standard_normal((4, 6))
    dense[dense < 0.3] = 0
    dense[2] = 0                                  # an empty row
    for fmt in ("csr", "csc", "coo", "dia"):
        cls = getattr(sp, f"{fmt}_matrix")
        _close(cls(xp.asarray(dense)), dense)
        _close(cls(ss.csr_matrix(dense)), dense)
        _close(cls(sp.csr_matrix(xp.asarray(dense))), dense)
        E = cls((3, 4))
        assert E.shape == (3, 4) and E.nnz == 0 and E.dtype == np.float64
        _close(E, np.zeros((3, 4)))
    H = ss.csr_matrix(dense)
    A = sp.csr_matrix((xp.asarray(H.data), xp.asarray(H.indices), xp.asarray(H.indptr)),
                      shape=H.shape)
    _close(A, dense)
    A2 = sp.csr_matrix((H.data, H.indices, H.indptr))      # shape inferred
    assert A2.shape == (4, int(H.indices.max()) + 1)
    wide = np.zeros(2 * H.data.shape[0])
    wide[::2] = H.data
    A3 = sp.csr_matrix((xp.asarray(wide)[::2], H.indices, H.indptr), shape=H.shape)
    _close(A3 @ xp.ones(6), dense @ np.ones(6))         # strided data is made contiguous
    Hc = ss.csc_matrix(dense)
    _close(sp.csc_matrix((Hc.data, Hc.indices, Hc.indptr), shape=(4, 6)), dense)
    assert sp.csr_matrix(dense, dtype=np.complex64).dtype == np.complex64


def test_empty_matrices():
    for shape in [(0, 0), (0, 3), (4, 0), (3, 3)]:
        A = sp.csr_matrix(shape)
        assert A.nnz == 0
        _close(A.tocsc(), np.zeros(shape))
        _close(A.tocoo(), np.zeros(shape))
        _close(A.T, np.zeros(shape[::-1]))
        x = xp.asarray(np.ones(shape[1]))
        _close(A @ x, np.zeros(shape[0]))
        _close(A @ xp.ones((shape[1], 2)), np.zeros((shape[0], 2)))


def test_sum_duplicates_sort_indices_unsorted():
    rng = np.random.default_rng(3)
    # indices unsorted within rows and a duplicate in row 0
    indptr = np.array([0, 3, 3, 6])
    indices = np.array([4, 1, 4, 2, 0, 3])
    data = rng.standard_normal(6)
    H = ss.csr_matrix((data, indices, indptr), shape=(3, 5))
    A = sp.csr_matrix((data, indices, indptr), shape=(3, 5))
    assert not A.has_canonical_format
    _close(A, H)
    B = A.copy()
    B.sort_indices()
    Hs = H.copy()
    Hs.sort_indices()
    np.testing.assert_array_equal(B.indices.get(), Hs.indices)
    A.sum_duplicates()
    H.sum_duplicates()
    assert A.nnz == H.nnz == 5
    np.testing.assert_array_equal(A.indices.get(), H.indices)
    np.testing.assert_array_equal(A.indptr.get(), H.indptr)
    np.testing.assert_allclose(A.data.get(), H.data)
    C = sp.coo_matrix((data, (np.array([0, 0, 1, 1, 2, 0]), indices)), shape=(3, 5))
    C.sum_duplicates()
    Hc = ss.coo_matrix((data, (np.array([0, 0, 1, 1, 2, 0]), indices)), shape=(3, 5))
    Hc.sum_duplicates()
    np.testing.assert_array_equal(C.row.get(), Hc.row)
    np.testing.assert_array_equal(C.col.get(), Hc.col)
    np.testing.assert_allclose(C.data.get(), Hc.data)


@pytest.mark.parametrize("dt", FLOATS)
def test_transpose_conj_astype_copy(dt):
    rng = np.random.default_rng(4)
    H, A = _pair(rng, dt=dt)
    _close(A.T, H.T, dt)
    _close(A.transpose(), H.transpose(), dt)
    _close(A.conj(), H.conj(), dt)
    _close(A.H, H.conj().T, dt)
    _close(A.astype(np.complex128), H.astype(np.complex128), dt)
    B = A.copy()
    B.data[:] = 0
    _close(A, H, dt)
    assert A.T.format == "csc" and A.tocsc().T.format == "csr"


def test_issparse_and_families():
    A = sp.csr_matrix(xp.eye(3))
    B = sp.csr_array(xp.eye(3))
    assert sp.issparse(A) and sp.issparse(B) and not sp.issparse(xp.eye(3))
    assert sp.isspmatrix(A) and not sp.isspmatrix(B)
    assert sp.isspmatrix_csr(A) and not sp.isspmatrix_csc(A)
    assert sp.isspmatrix_csc(A.tocsc()) and sp.isspmatrix_coo(A.tocoo())
    assert isinstance(B.get(), ss.csr_array) and isinstance(A.get(), ss.csr_matrix)
    assert isinstance(B.tocsc(), sp.csc_array) and isinstance(A.tocoo(), sp.coo_matrix)


# ---- products --------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_spmv_spmm(dt, fmt):
    rng = np.random.default_rng(5)
    H, A = _pair(rng, 9, 7, 20, dt, fmt)
    x = _values(rng, 7, dt)
    _close(A @ xp.asarray(x), H @ x, dt)
    b = _values(rng, 21, dt).reshape(7, 3)
    _close(A @ xp.asarray(b), H @ b, dt)
    # non-contiguous dense operands
    bb = _values(rng, 7 * 6, dt).reshape(7, 6)
    _close(A @ xp.asarray(bb)[:, ::2], H @ bb[:, ::2], dt)
    xx = _values(rng, 14, dt)
    _close(A @ xp.asarray(xx)[::-2], H @ xx[::-2], dt)


@pytest.mark.matrix
@pytest.mark.parametrize("dt", FLOATS)
def test_spgemm(dt):
    rng = np.random.default_rng(6)
    Ha, A = _pair(rng, 8, 6, 16, dt)
    Hb, B = _pair(rng, 6, 5, 12, dt)
    C = A @ B
    assert sp.issparse(C) and C.shape == (8, 5)
    _close(C, Ha @ Hb, dt)
    _close(A.tocsc() @ B, (Ha @ Hb), dt)
    _close(A.T.tocsr() @ A, Ha.T @ Ha, dt)


def test_mixed_dtypes_and_ints():
    rng = np.random.default_rng(7)
    Hi, Ai = _pair(rng, 6, 5, 10, np.int32)
    x = rng.standard_normal(5).astype(np.float32)
    r = Ai @ xp.asarray(x)
    want = Hi @ x
    assert r.dtype == want.dtype
    _close(r, want, np.float32)
    xi = rng.integers(-5, 5, 5).astype(np.int64)
    _close(Ai @ xp.asarray(xi), Hi @ xi)
    Hb = ss.csr_matrix(rng.integers(0, 2, (4, 4)).astype(bool))
    Ab = sp.csr_matrix(Hb)
    vb = np.array([True, False, True, False])
    got = Ab @ xp.asarray(vb)
    assert got.dtype == (Hb @ vb).dtype
    np.testing.assert_array_equal(got.get(), Hb @ vb)


def test_matrix_vs_array_star():
    rng = np.random.default_rng(8)
    H, A = _pair(rng, 5, 5, 10)
    x = rng.standard_normal(5)
    _close(A * xp.asarray(x), H * x)                   # matrix: product
    Ha, Aa = _pair(rng, 5, 5, 10, array=True)
    Hb, Ab = _pair(rng, 5, 5, 10, array=True)
    _close(Aa * Ab, Ha * Hb)                           # array: elementwise
    _close(A * 2.5, H * 2.5)
    _close(3 * Aa, 3 * Ha)
    _close(A ** 2, H ** 2)
    _close(Aa ** 2, Ha ** 2)
    xr = rng.standard_normal((3, 5))
    _close(A.__rmatmul__(xp.asarray(xr)), xr @ H)      # dense @ sparse (ndarray does not defer)
    _close(A.__rmatmul__(xp.asarray(x)), x @ H)


def test_product_errors():
    A = sp.csr_matrix(xp.eye(3))
    with pytest.raises(ValueError, match="dimension mismatch"):
        A @ xp.ones(4)
    with pytest.raises(ValueError, match="dimension mismatch"):
        A @ xp.ones((4, 2))
    with pytest.raises(ValueError, match="dimension mismatch"):
        A @ sp.csr_matrix(xp.eye(4))
    with pytest.raises(ValueError, match="Scalar operands are not allowed"):
        A @ 2
    with pytest.raises(ValueError, match="does not support dtype float16"):
        sp.csr_matrix(np.eye(3, dtype=np.float16))
    with pytest.raises(ValueError, match="does not support dtype float16"):
        A @ xp.ones(3, dtype=np.float16)


def test_malformed_input():
    with pytest.raises(ValueError, match="index pointer size 3 should be 4"):
        sp.csr_matrix((np.ones(2), np.array([0, 1]), np.array([0, 1, 2])), shape=(3, 3))
    with pytest.raises(ValueError, match="index pointer should start with 0"):
        sp.csr_matrix((np.ones(2), np.array([0, 1]), np.array([1, 1, 2, 2])), shape=(3, 3))
    with pytest.raises(ValueError, match="indices and data should have the same size"):
        sp.csr_matrix((np.ones(3), np.array([0, 1]), np.array([0, 1, 2, 2])), shape=(3, 3))
    with pytest.raises(ValueError, match="Last value of index pointer"):
        sp.csr_matrix((np.ones(2), np.array([0, 1]), np.array([0, 1, 2, 5])), shape=(3, 3))
    A = sp.csr_matrix((np.ones(2), np.array([0, 7]), np.array([0, 1, 2, 2])), shape=(3, 3))
    with pytest.raises(ValueError, match="indices must be < 3"):
        A.check_format()
    with pytest.raises(ValueError, match="axis 0 index 5 exceeds matrix dimension 3"):
        sp.coo_matrix((np.ones(2), (np.array([0, 5]), np.array([0, 1]))), shape=(3, 3))
    with pytest.raises(ValueError, match="negative axis 1 index: -1"):
        sp.coo_matrix((np.ones(2), (np.array([0, 1]), np.array([0, -1]))), shape=(3, 3))
    # SciPy's wording changes between versions: the installed SciPy's message is the reference
    args = ((np.ones(3), (np.array([0, 1]), np.array([0, 1]))),)
    with pytest.raises(ValueError) as want:
        ss.coo_matrix(*args, shape=(3, 3))
    with pytest.raises(ValueError, match=re.escape(str(want.value))):
        sp.coo_matrix(*args, shape=(3, 3))


def test_int64_indices():
    rng = np.random.default_rng(9)
    H = ss.random(7, 6, density=0.4, format="csr", random_state=2)
    A = sp.csr_matrix((xp.asarray(H.data), xp.asarray(H.indices.astype(np.int64)),
                       xp.asarray(H.indptr.astype(np.int64))), shape=H.shape)
    assert A.indptr.dtype == np.int64 and A.indices.dtype == np.int64
    x = rng.standard_normal(6)
    _close(A @ xp.asarray(x), H @ x)
    _close(A @ A.T, H @ H.T)
    _close(A.tocsc(), H)
    _close(A.tocoo(), H)
