"""npgpu.linalg and the products against NumPy 2 where a side-by-side probe found them apart
(tensordot's axes, matvec/vecmat and matmul's gufunc errors, einsum's errors and its optimize
path's ellipsis rule, trace's dtype), plus a result-dtype / error sweep over every input dtype
on empty stacks (dtype resolution only: no kernel per dtype)."""
import numpy as np
import pytest

import npgpu
from conftest import assert_matches, matches_numpy, raises_like, random_array

L = np.linalg
rng = np.random.default_rng(20261204)


def R(shape, dt="f8"):
    return random_array(shape, dt, rng)


# ---- tensordot: NumPy's own axes handling -----------------------------------------------------
@pytest.mark.parametrize("axes", [-1, 0, 3, ([1, 1], [0, 0]), ((0,),), "a", ([0], [0]),
                                  ((0, 1), (1, 0)), ([5], [0]), 2])
@pytest.mark.parametrize("ns", [np, L])
def test_tensordot_axes(axes, ns):
    a, b = R((2, 3)), R((3, 2))
    gns = npgpu if ns is np else npgpu.linalg
    if ns is np:
        call = lambda m, x, y: m.tensordot(x, y, axes)
    else:
        call = lambda m, x, y: m.tensordot(x, y, axes=axes)
    matches_numpy(lambda xp: call(np if xp is np else gns, *(
        (a, b) if xp is np else (npgpu.asarray(a), npgpu.asarray(b)))),
        exc=(ValueError, IndexError, TypeError))


def test_tensordot_vector_mismatch():
    a, b = R((2, 3)), R((3,))
    raises_like(lambda: np.tensordot(a, b), lambda: npgpu.tensordot(npgpu.asarray(a),
                                                                    npgpu.asarray(b)))


# ---- matvec / vecmat / matmul: NumPy's gufunc messages ----------------------------------------
@pytest.mark.parametrize("fn", ["matvec", "vecmat"])
@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((), (3,)), ((2, 3), (3,)), ((2, 3), (4,)),
                                   ((2, 3), (2, 3)), ((2, 2, 3), (3, 3, 2)), ((2, 2, 3), (3, 3)),
                                   ((2, 1, 2, 3), (3, 3, 2)), ((0, 3), (3, 0))])
def test_matvec_vecmat_errors(fn, sa, sb):
    a, b = R(sa), R(sb)
    try:
        getattr(np, fn)(a, b)
    except ValueError:
        raises_like(lambda: getattr(np, fn)(a, b),
                    lambda: getattr(npgpu, fn)(npgpu.asarray(a), npgpu.asarray(b)))
    else:
        assert_matches(getattr(npgpu, fn)(npgpu.asarray(a), npgpu.asarray(b)),
                       getattr(np, fn)(a, b))


def test_matmul_cast_and_out_messages():
    a, b = R((2, 3)), R((3, 2))
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    for dt in ("i4", "?"):
        with pytest.raises(TypeError, match=r"matmul' input 0 from dtype\('float64'\) to "):
            npgpu.matmul(ga, gb, dtype=dt)
    for shape in ((2, 3), (3, 2), (3, 3)):
        raises_like(lambda: np.matmul(a, b, out=np.zeros(shape)),
                    lambda: npgpu.matmul(ga, gb, out=npgpu.zeros(shape)))


# ---- einsum: NumPy's messages (c_einsum's, and einsum_path's with optimize) --------------------
@pytest.mark.parametrize("optimize", [False, True])
@pytest.mark.parametrize("spec,shapes", [
    ("ii", [(2, 3)]), ("ij,jk", [(2, 3), (4, 2)]), ("i->j", [(3,)]), ("ij", [(2, 3), (3,)]),
    ("i", [(2, 3)]), ("...i,i", [(2, 3), (4,)]), ("i..->i", [(3,)]), ("i->ii", [(3,)]),
    ("ij...,jk...->ik", [(2, 3, 4), (3, 2, 5)]), ("i,i,i", [(2,), (2,)])])
def test_einsum_errors(spec, shapes, optimize):
    ops = [R(s) for s in shapes]
    raises_like(lambda: np.einsum(spec, *ops, optimize=optimize),
                lambda: npgpu.einsum(spec, *[npgpu.asarray(x) for x in ops],
                                     optimize=optimize))


def test_einsum_sublist_error():
    a, b = R((2, 3)), R((4, 3))
    raises_like(lambda: np.einsum(a, [0, 1], b, [1, 2], [0, 2]),
                lambda: npgpu.einsum(npgpu.asarray(a), [0, 1], npgpu.asarray(b), [1, 2], [0, 2]))


def test_einsum_optimize_sums_unlisted_ellipsis():
    # NumPy's optimize path sums ellipsis dims an explicit output leaves out; c_einsum refuses
    a, b = R((2, 3, 4)), R((3, 2, 1))
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    assert_matches(npgpu.einsum("ij...,jk...->ik", ga, gb, optimize=True),
                   np.einsum("ij...,jk...->ik", a, b, optimize=True))
    raises_like(lambda: np.einsum("ij...,jk...->ik", a, b),
                lambda: npgpu.einsum("ij...,jk...->ik", ga, gb))


# ---- trace with a narrower dtype= (sum's unsafe cast) ------------------------------------------
@pytest.mark.parametrize("dt", ["?", "i1"])
def test_trace_dtype_cast(dt):
    x = R((2, 3, 3), "i4")
    assert_matches(npgpu.trace(npgpu.asarray(x), dtype=dt), np.trace(x, dtype=dt))
    assert_matches(npgpu.asarray(x).trace(dtype=dt), x.trace(dtype=dt))
    assert_matches(npgpu.linalg.trace(npgpu.asarray(x), dtype=dt), L.trace(x, dtype=dt))


# ---- every input dtype on empty stacks: result dtypes, shapes, NumPy's errors ------------------
_DTYPES = ["?", "u1", "i4", "i8", "f2", "f4", "f8", "c8", "c16"]
_ONE = {  # name -> call(linalg module, x)
    **{f: (lambda f: lambda m, x: getattr(m, f)(x))(f) for f in (
        "inv", "det", "slogdet", "cholesky", "eigvalsh", "eigvals", "svdvals", "pinv",
        "matrix_rank", "norm", "matrix_norm")},
    "qr_r": lambda m, x: m.qr(x, "r"),
    "mpow-1": lambda m, x: m.matrix_power(x, -1),
    "mpow0": lambda m, x: m.matrix_power(x, 0),
    "svd_vals": lambda m, x: m.svd(x, compute_uv=False),
}


def _call(fn, xp, x):
    return _ONE[fn](np.linalg if xp is np else npgpu.linalg, x)


@pytest.mark.parametrize("fn", sorted(_ONE))
@pytest.mark.parametrize("dt", _DTYPES)
def test_empty_stack_dtypes(fn, dt):
    for shape in ((2, 0, 0), (0, 3, 3)):
        h = np.zeros(shape, dt)
        g = npgpu.zeros(shape, dt)
        try:
            want = _call(fn, np, h)
        except (TypeError, np.linalg.LinAlgError):
            raises_like(lambda: _call(fn, np, h), lambda: _call(fn, npgpu, g))
            continue
        got = _call(fn, npgpu, g)
        if isinstance(want, tuple):
            assert type(got).__name__ == type(want).__name__
            for x, y in zip(got, want):
                assert_matches(x, y)
        else:
            assert_matches(got, want)


@pytest.mark.parametrize("d1", _DTYPES)
def test_empty_solve_dtypes(d1):
    for d2 in ("i4", "f2", "f4", "c8"):
        a, b = np.zeros((0, 3, 3), d1), np.zeros((0, 3, 2), d2)
        matches_numpy(lambda xp: xp.linalg.solve(
            *((a, b) if xp is np else (npgpu.asarray(a), npgpu.asarray(b)))), exc=TypeError)
