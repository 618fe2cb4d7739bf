"""npgpu.linalg where NumPy's own linalg tests found it apart from NumPy: lstsq's rank for an
rcond outside (0, 1) (LAPACK's gelsd takes machine precision there), svd(hermitian=True) of a
singular matrix (a zero eigenvalue keeps its vector in V^H), and npgpu.testing reading the
arrays inside a named tuple (slogdet's result)."""
import numpy as np
import pytest

import npgpu
import npgpu.testing as nt
from conftest import assert_matches, make_layout

rng = np.random.default_rng(20261205)


def _rank_deficient(m, n, r, dt):
    """An m x n matrix of rank ``r`` plus a perturbation whose singular value sits between
    LAPACK's machine precision (eps / 2) and eps times the largest one."""
    x = rng.standard_normal((m, r)) @ rng.standard_normal((r, n))
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    s[r] = 0.7 * np.finfo(np.float64).eps * s[0]
    return ((u * s) @ vh).astype(dt)


# NumPy's test_rcond: a 6x4 matrix with a fourth singular value of 5.4e-16
_RCOND_A = np.array([[0., 1., 0., 1., 2., 0.],
                     [0., 2., 0., 0., 1., 0.],
                     [1., 0., 1., 0., 0., 4.],
                     [0., 0., 0., 2., 3., 0.]]).T


@pytest.mark.parametrize("rcond", [-1, -1.0, 0, 0.0, 1, 2.5, np.float64(-1), 0.5, None])
def test_lstsq_rank_rcond_outside_unit_interval(rcond):
    b = np.array([1., 0, 0, 0, 0, 0])
    want = np.linalg.lstsq(_RCOND_A, b, rcond=rcond)
    got = npgpu.linalg.lstsq(npgpu.asarray(_RCOND_A), npgpu.asarray(b), rcond=rcond)
    assert got[2] == want[2]
    assert_matches(got[3], want[3])
    if want[2] < _RCOND_A.shape[1]:
        # the tiny value dropped: x is well conditioned (kept, it is ~1e15 and not comparable)
        assert_matches(got[0], want[0], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dt", ["f4", "f8", "c16"])
@pytest.mark.parametrize("rcond", [-1, 0.0, 1.0])
def test_lstsq_rank_random_rank_deficient(dt, rcond):
    a = _rank_deficient(7, 5, 3, dt)
    b = rng.standard_normal((7, 2)).astype(dt)
    want = np.linalg.lstsq(a, b, rcond=rcond)
    got = npgpu.linalg.lstsq(npgpu.asarray(a), npgpu.asarray(b), rcond=rcond)
    s = want[3]
    # LAPACK's cut: rcond * s[0], with eps for an rcond outside (0, 1)
    thr = s[0] * (rcond if 0 < rcond < 1 else np.finfo(s.dtype).eps)
    # singular values near the cut may fall on either side of it in another SVD, and those of
    # the null space are rounding noise (up to ~max(m, n) eps s[0], whatever another SVD's
    # noise is): with a cut at or under that level the rank is anything down to the sure count
    noise = max(a.shape) * np.finfo(s.dtype).eps * s[0]
    lo = np.sum(s > 100 * max(thr, noise))
    hi = len(s) if thr < 100 * noise else np.sum(s > thr / 100)
    assert lo <= got[2] <= hi
    if lo == hi:
        assert got[2] == want[2]
    assert got[3].dtype == want[3].dtype


@pytest.mark.parametrize("dt", ["f4", "f8", "c8", "c16"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "negative"])
def test_svd_hermitian_singular(dt, layout):
    # a Hermitian matrix with a zero eigenvalue and negative ones
    q, _ = np.linalg.qr(rng.standard_normal((4, 4)) + (1j if dt[0] == "c" else 0)
                        * rng.standard_normal((4, 4)))
    h = ((q * np.array([3., 0., -2., -0.5])) @ q.conj().T).astype(dt)
    h = (h + h.conj().T) / 2
    d, h = make_layout(h, layout)
    u, s, vh = npgpu.linalg.svd(d, hermitian=True)
    wu, ws, wvh = np.linalg.svd(h, hermitian=True)
    assert (u.dtype, s.dtype, vh.dtype) == (wu.dtype, ws.dtype, wvh.dtype)
    assert_matches(s, ws, atol=1e-5)
    rt = 1e-5 if dt in ("f4", "c8") else 1e-12
    vh_h = vh.get()
    np.testing.assert_allclose(vh_h @ vh_h.conj().T, np.eye(4), atol=rt)
    np.testing.assert_allclose((u.get() * s.get()) @ vh_h, h, atol=10 * rt)


@pytest.mark.parametrize("dt", ["f4", "f8", "c8", "c16"])
def test_svd_hermitian_exact_zero(dt):
    # NumPy's test_singular: V^H stays unitary where an eigenvalue is exactly 0
    x = np.array([[1, 0], [0, 0]], dtype=dt)
    u, s, vh = npgpu.linalg.svd(npgpu.asarray(x), hermitian=True)
    want = np.linalg.svd(x, hermitian=True)
    for g, w in zip((u, s, vh), want):
        assert_matches(g, w)


def test_testing_reads_named_tuples():
    a = np.zeros((0, 0), np.complex64)
    res = npgpu.linalg.slogdet(npgpu.asarray(a))
    nt.assert_equal(res, (1, 0))
    nt.assert_equal(res, np.linalg.slogdet(a))
    m = rng.standard_normal((3, 3))
    nt.assert_allclose(npgpu.linalg.slogdet(npgpu.asarray(m)), np.linalg.slogdet(m))
    with pytest.raises(AssertionError):
        nt.assert_equal(res, (1, 1))
