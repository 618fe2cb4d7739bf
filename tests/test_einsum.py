"""einsum against NumPy: subscripts incl. ellipsis, diagonals, sums, broadcasting, optimize=."""
import numpy as np
import pytest

import npgpu as gp

rng = np.random.default_rng(7)


def rand(shape, dt=np.float64):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        return rng.integers(0 if dt.kind == "u" else -20, 20, size=shape).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def check(got, want, dt=np.float64):
    g = got.get()
    want = np.asarray(want)
    assert g.shape == want.shape
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(g, want)
    else:
        r = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-10
        np.testing.assert_allclose(g, want, rtol=r, atol=r)


CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("iij->ij", [(3, 3, 2)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bij,jk->bik", [(2, 3, 4), (4, 5)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("i...->...", [(3, 2, 2)]),
    ("ijk,jil->kl", [(3, 4, 2), (4, 3, 5)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("abc,cd,bd->a", [(2, 3, 4), (4, 5), (3, 5)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,ij,i->j", [(3, 4), (3, 4), (3,)]),
    ("ijk,k->ij", [(2, 3, 4), (4,)]),
    ("ba,ca->bc", [(2, 3), (4, 3)]),
    ("Ab,bC->AC", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 1), (3, 4)]),            # size-1 broadcast of a contracted label
    ("iji,j->i", [(3, 2, 3), (2,)]),
]


@pytest.mark.parametrize("subs,shapes", CASES)
@pytest.mark.parametrize("optimize", [False, True])
def test_einsum_cases(subs, shapes, optimize):
    ops = [rand(s) for s in shapes]
    check(gp.einsum(subs, *[gp.asarray(x) for x in ops], optimize=optimize),
          np.einsum(subs, *ops, optimize=optimize))


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.int32, np.uint16, np.float32, np.complex64])
def test_einsum_dtypes(dt):
    a, b = rand((3, 4), dt), rand((4, 2), dt)
    check(gp.einsum("ij,jk->ik", gp.asarray(a), gp.asarray(b)), np.einsum("ij,jk->ik", a, b))
    check(gp.einsum("ij->i", gp.asarray(a)), np.einsum("ij->i", a))


def test_einsum_mixed_dtype_and_dtype_kw():
    a, b = rand((3, 4), np.int16), rand((4, 2), np.float32)
    check(gp.einsum("ij,jk", gp.asarray(a), gp.asarray(b)), np.einsum("ij,jk", a, b))
    check(gp.einsum("ij,jk", gp.asarray(a), gp.asarray(a.T), dtype=np.float64),
          np.einsum("ij,jk", a, a.T, dtype=np.float64))


def test_einsum_noncontiguous_and_out():
    a = rand((6, 8))[::2, ::-2]
    b = rand((5, 4)).T
    out = gp.empty((3, 5))
    r = gp.einsum("ij,jk->ik", gp.asarray(np.ascontiguousarray(rand((6, 8))))[::2, ::-2],
                  gp.asarray(np.ascontiguousarray(rand((5, 4)))).T, out=out)
    assert r is out
    a2 = gp.asarray(rand((6, 8)))
    b2 = gp.asarray(rand((5, 4)))
    check(gp.einsum("ij,jk->ik", a2[::2, ::-2], b2.T), np.einsum("ij,jk->ik", a2.get()[::2, ::-2], b2.get().T))


def test_einsum_explicit_path_and_sublists():
    a, b, c = rand((2, 3)), rand((3, 4)), rand((4, 5))
    path = ["einsum_path", (1, 2), (0, 1)]
    A, B, C = (gp.asarray(x) for x in (a, b, c))
    check(gp.einsum("ij,jk,kl->il", A, B, C, optimize=path), np.einsum("ij,jk,kl->il", a, b, c))
    check(gp.einsum(A, [0, 1], B, [1, 2], [0, 2]), np.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    p, _ = gp.einsum_path("ij,jk,kl->il", A, B, C, optimize="greedy")
    assert p == np.einsum_path("ij,jk,kl->il", a, b, c, optimize="greedy")[0]


def test_einsum_errors():
    a = gp.asarray(rand((3, 4)))
    with pytest.raises(ValueError):
        gp.einsum("ij,jk", a)
    with pytest.raises(ValueError):
        gp.einsum("ij->k", a)
    with pytest.raises(ValueError):
        gp.einsum("ijk", a)
    with pytest.raises(ValueError):
        gp.einsum("ij,ij", a, gp.asarray(rand((3, 5))))
    with pytest.raises(ValueError):
        gp.einsum("ii", a)
    with pytest.raises(ValueError):
        gp.einsum("ij...->ij", gp.asarray(rand((3, 4, 2))))
