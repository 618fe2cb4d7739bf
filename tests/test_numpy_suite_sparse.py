"""From SciPy's own sparse tests (scipy/sparse/tests, run by scripts/numpy_tests.py): the
defects they found, each compared with SciPy."""
import numpy as np
import pytest
import scipy.sparse as ss

import npgpu as xp
from npgpu.scipy import sparse as sp
from conftest import raises_like

FORMATS = ["csr", "csc", "coo", "dia"]


def _dense(rng, m, n, dt):
    d = rng.standard_normal((m, n)) * (rng.random((m, n)) < 0.4)
    if np.dtype(dt).kind == "c":
        d = d + 1j * d[::-1]
    return d.astype(dt)


@pytest.mark.parametrize("shape", [(5, 7), (1, 4), (0, 3)])
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int64])
def test_random_array_random_state(shape, dt):
    # SciPy's legacy ``random_state=`` keyword (test_coo's test_nd_matmul passes it)
    want = ss.random_array(shape, density=0.5, dtype=dt, random_state=3, format="csr")
    got = sp.random_array(shape, density=0.5, dtype=dt, random_state=3, format="csr")
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.toarray().get(), want.toarray())
    # ``rng`` still wins
    got = sp.random_array(shape, density=0.5, dtype=dt, rng=np.random.default_rng(4))
    want = ss.random_array(shape, density=0.5, dtype=dt, rng=np.random.default_rng(4))
    np.testing.assert_array_equal(got.toarray().get(), want.toarray())


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dt", [np.float64, np.complex64])
def test_H_only_on_matrices(fmt, dt):
    # SciPy's sparse arrays have no ``H``/``getH`` (test_array_api's test_no_H_attr); the
    # matrices keep ``getH`` and (SciPy's before 1.14) ``H``
    d = _dense(np.random.default_rng(1), 4, 3, dt)
    A = getattr(sp, f"{fmt}_array")(d)
    for name in ("H", "getH"):
        raises_like(lambda: getattr(getattr(ss, f"{fmt}_array")(d), name),
                    lambda: getattr(A, name))
    m = getattr(sp, f"{fmt}_matrix")(d)
    np.testing.assert_array_equal(m.H.toarray().get(), d.conj().T)
    np.testing.assert_array_equal(m.getH().toarray().get(), d.conj().T)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("other", [None, object(), {1: 2}])
def test_matmul_not_an_operand(fmt, kind, other):
    # SciPy returns NotImplemented: Python's TypeError names both operand types
    d = _dense(np.random.default_rng(2), 3, 3, np.float64)
    theirs = getattr(ss, f"{fmt}_{kind}")(d)
    ours = getattr(sp, f"{fmt}_{kind}")(d)
    raises_like(lambda: theirs @ other, lambda: ours @ other)
    with pytest.raises(TypeError, match="unsupported operand type"):   # (SciPy's: the same
        other @ ours                                                  # class, its own words)
    if fmt != "coo":            # (SciPy's coo_array.dot has a message of its own)
        raises_like(lambda: theirs.dot(other), lambda: ours.dot(other))


@pytest.mark.parametrize("fmt", FORMATS)
def test_matmul_operands_still_taken(fmt):
    # lists and host arrays are still operands (the check above rejects only non-arrays)
    d = _dense(np.random.default_rng(3), 3, 4, np.float64)
    A = getattr(sp, f"{fmt}_array")(d)
    v = [1.0, 2.0, -1.0, 0.5]
    np.testing.assert_allclose((A @ v).get(), d @ v)
    np.testing.assert_allclose((A @ np.array(v)[:, None]).get(), d @ np.array(v)[:, None])
    np.testing.assert_allclose((A @ xp.asarray(v)).get(), d @ v)


@pytest.mark.parametrize("shape", [(2, 2, 2), (3, 0, 2)])
def test_coo_array_of_scipy_nd(shape):
    # an n-d SciPy coo_array: npgpu's documented NotImplementedError (as for n-d dense
    # input), not a ValueError about the shape
    h = ss.coo_array(np.arange(int(np.prod(shape))).reshape(shape))
    with pytest.raises(NotImplementedError, match="one or two dimensions, not 3"):
        sp.coo_array(h)
    raises_like(lambda: ss.coo_matrix(h), lambda: sp.coo_matrix(h))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("new", [(4,), 1, (2, 3, 2)])
def test_resize_array_to_other_ndim(fmt, new):
    # SciPy's CSR arrays resize to 1-d: NotImplementedError in npgpu, which holds 1-d sparse
    # arrays as COO only, the array left as it was; the rest as SciPy (a COO array to 1-d,
    # ValueError for a CSC array to 1-d and for 3-d shapes)
    d = _dense(np.random.default_rng(5), 2, 3, np.float64)
    A, H = getattr(sp, f"{fmt}_array")(d), getattr(ss, f"{fmt}_array")(d)
    if fmt == "csr" and np.size(new) == 1:
        with pytest.raises(NotImplementedError):
            A.resize(new)
    else:
        try:
            H.resize(new)
        except ValueError:
            raises_like(lambda: H.resize(new), lambda: A.resize(new))
        else:
            A.resize(new)
            assert A.shape == H.shape
            np.testing.assert_array_equal(A.toarray().get(), H.toarray())
            return
    assert A.shape == (2, 3)
    np.testing.assert_array_equal(A.toarray().get(), d)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_resize_matrix_to_1d(fmt):
    # a matrix stays 2-d: SciPy's ValueError
    d = _dense(np.random.default_rng(6), 2, 3, np.float64)
    raises_like(lambda: getattr(ss, f"{fmt}_matrix")(d).resize(4),
                lambda: getattr(sp, f"{fmt}_matrix")(d).resize(4))


@pytest.mark.parametrize("dt", [np.float64, np.int32, np.complex128])
def test_coo_sum_duplicates_hypersparse(dt):
    # COO's sum_duplicates needs memory of its entries, not of its rows (test_construct's
    # 2**33 x 2**33 random_array counted its nonzeros through a 2**33-entry indptr)
    rng = np.random.default_rng(7)
    n = 2 ** 33
    r, c = rng.integers(0, 5, 20) * (n // 7), rng.integers(0, 4, 20) * (n // 5)
    d = (rng.standard_normal(20) * 4).astype(dt)
    ours, theirs = sp.coo_array((d, (r, c)), shape=(n, n)), ss.coo_array((d, (r, c)),
                                                                          shape=(n, n))
    ours.sum_duplicates()
    theirs.sum_duplicates()
    np.testing.assert_array_equal(ours.row.get(), theirs.row)
    np.testing.assert_array_equal(ours.col.get(), theirs.col)
    np.testing.assert_allclose(ours.data.get(), theirs.data)
    assert ours.row.dtype == ours.col.dtype == np.int64
    assert ours.count_nonzero() == theirs.count_nonzero()


@pytest.mark.parametrize("dt", [np.float32, np.int64])
def test_coo_sum_duplicates_small(dt):
    rng = np.random.default_rng(8)
    r, c = rng.integers(0, 6, 40), rng.integers(0, 3, 40)
    d = (rng.standard_normal(40) * 4).astype(dt)
    for cls in ("coo_array", "coo_matrix"):
        ours, theirs = getattr(sp, cls)((d, (r, c))), getattr(ss, cls)((d, (r, c)))
        ours.sum_duplicates()
        theirs.sum_duplicates()
        np.testing.assert_array_equal(ours.row.get(), theirs.row)
        np.testing.assert_array_equal(ours.col.get(), theirs.col)
        np.testing.assert_allclose(ours.data.get(), theirs.data, rtol=1e-6)
        assert ours.row.dtype == ours.col.dtype == np.int32


def test_block_diag_1d_arrays():
    # a 1-d sparse array is one row of the block diagonal (test_block_diag_scalar_1d_args)
    rng = np.random.default_rng(9)
    a, b = rng.integers(-3, 4, 5).astype(np.float64), rng.integers(-3, 4, 3)
    d = _dense(rng, 2, 2, np.float64)
    want = ss.block_diag([ss.coo_array(a), ss.coo_array(b), ss.csr_array(d), [[2, 3]], 4])
    got = sp.block_diag([sp.coo_array(a), sp.coo_array(b), sp.csr_array(d), [[2, 3]], 4])
    assert type(got).__name__ == type(want).__name__ and got.shape == want.shape
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.toarray().get(), want.toarray())


@pytest.mark.parametrize("args", [((3, 5), [-1, 0, 1]), ((1, 4), 0), ((2, 6), [0, 2]),
                                  ((3, 5), [-1, 1, 2], 4, 6), ((3, 5), [0, 1, 2], (5, 3))])
def test_spdiags_default_shape(args):
    # no m, n: SciPy's square matrix of the diagonals' length
    data = np.random.default_rng(10).standard_normal(args[0])
    want, got = ss.spdiags(data, *args[1:]), sp.spdiags(data, *args[1:])
    assert got.shape == want.shape and got.format == want.format
    np.testing.assert_array_equal(got.toarray().get(), want.toarray())
