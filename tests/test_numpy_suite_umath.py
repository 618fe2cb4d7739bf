"""Defects found by NumPy's own ufunc tests (``_core/tests/test_umath.py``,
``_core/tests/test_ufunc.py``), each checked against NumPy: complex ``log`` near ``|z| = 1``;
sequence ``where=`` and positional ``out`` with ``where=``; ``sig=``; ``out=...``; the
"'where' used without 'out'" warning; ``initial=np._NoValue``; sums of -0.0 onto
``initial=-0.0``."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import assert_matches, assert_same, make_layout, raises_like, tolerance

RNG = numpy.random.default_rng(6061)


# --- complex log near |z| = 1: log|z| without the cancellation of log(hypot) ----------------
def _near_unit_circle(n, dtype):
    """Points at |z| = 1 +- tiny offsets (and some far from it), random angles."""
    eps = numpy.finfo(numpy.dtype(dtype).char.lower()).eps
    theta = RNG.uniform(-numpy.pi, numpy.pi, n)
    r = 1 + RNG.choice([0, 1, -1, 3, -7, 100, -1e4], n) * eps * RNG.uniform(0.5, 2, n)
    r[: n // 8] = RNG.uniform(0.6, 1.4, n // 8)
    return (r * numpy.exp(1j * theta)).astype(dtype)


@pytest.mark.parametrize("dtype", [numpy.complex64, numpy.complex128])
@pytest.mark.parametrize("layout", ["contiguous", "negative", "strided", "zero_d", "empty"])
def test_log_near_unit_circle_matches_numpy(dtype, layout):
    d, h = make_layout(_near_unit_circle(64, dtype), layout)
    want = numpy.log(h)
    got = np.log(d).get()
    assert got.dtype == want.dtype and got.shape == want.shape
    rtol = {numpy.complex64: 1e-5, numpy.complex128: 1e-13}[dtype]
    # the real part is relative to itself (tiny near |z| = 1), not to |log z|
    numpy.testing.assert_allclose(got.real, want.real, rtol=rtol, atol=0)
    numpy.testing.assert_allclose(got.imag, want.imag, *tolerance(dtype))


@pytest.mark.parametrize("z, ref", [
    (1 + 1e-12j, 5e-25 + 1e-12j),
    (0.99995000042 - 0.009999833j, -7.015159763822903e-15 - 0.009999999665816696j),
    (0.9999999999999996 + 2.999999999999999e-08j, 5.9107901499372034e-18 + 3e-08j)])
def test_log_precision_float64(z, ref):
    # mpmath references (NumPy's test_log_precision_float64)
    numpy.testing.assert_allclose(np.log(np.asarray([z])).get()[0], ref, rtol=1e-15)


def test_log_log2_log10_special_and_far_values():
    z = numpy.array([0, -0.0, 1, -1, 1j, -1j, numpy.inf, -numpy.inf, numpy.nan,
                     complex(numpy.inf, numpy.nan), complex(0.5, 0.5), complex(0.7, 0.71),
                     3 + 4j, 1e-300 + 1e-300j, 1e300 - 1e300j, complex(1, numpy.nan)])
    for f in ("log", "log2", "log10"):
        for dt in (numpy.complex64, numpy.complex128):
            with numpy.errstate(all="ignore"):
                zz = z.astype(dt)
                want = getattr(numpy, f)(zz)
            got = getattr(np, f)(np.asarray(zz)).get()
            numpy.testing.assert_allclose(got, want, *tolerance(dt), equal_nan=True,
                                          err_msg=f"{f} {dt}")


# --- keywords: sequence where=, positional out with where=, sig=, out=... ------------------
@pytest.mark.parametrize("where", [[[0, 1], [1, 0]], [True, False], (1, 0), [0.5, 0]])
def test_sequence_where_with_out(where):
    h = RNG.integers(2, 9, (2, 2))
    got, want = np.asarray(h), h.copy()
    np.power(got, [2, 3], out=got, where=where)
    numpy.power(want, [2, 3], out=want, where=where)
    numpy.testing.assert_array_equal(got.get(), want)


def test_positional_out_with_where():
    h = RNG.standard_normal((3, 4)).astype(numpy.float32)
    m = RNG.random((3, 4)) > 0.5
    got, want = np.zeros((3, 4), numpy.float32), numpy.zeros((3, 4), numpy.float32)
    np.add(np.asarray(h), 1, got, where=np.asarray(m))
    numpy.add(h, 1, want, where=m)
    numpy.testing.assert_array_equal(got.get(), want)
    raises_like(lambda: numpy.add(numpy.ones(2), 1, where=[1, 0, 1], out=numpy.zeros(2)),
                lambda: np.add(np.ones(2), 1, where=[1, 0, 1], out=np.zeros(2)))


def test_sig_alias_of_signature():
    h = 0.5 * numpy.arange(5.0)
    for kw in ({"sig": "ii->i"}, {"sig": ("i4", "i4", "i4")}, {"sig": (None, None, None)}):
        got = np.add(np.asarray(h), 0.5, casting="unsafe", **kw)
        want = numpy.add(h, 0.5, casting="unsafe", **kw)
        assert_same(got, want)
    for kw in ({"sig": "i"}, {"sig": ("i4",)}, {"sig": "dd->d", "signature": "dd->d"}):
        raises_like(lambda: numpy.add(h, 0.5, casting="unsafe", **kw),
                    lambda: np.add(np.asarray(h), 0.5, casting="unsafe", **kw))


def test_out_ellipsis():
    h = RNG.integers(-9, 9, 6).astype(numpy.int16)
    assert_same(np.add(np.asarray(h), 2, out=...), numpy.add(h, 2, out=...))
    assert_same(np.add.reduce(np.asarray(h), out=...), numpy.asarray(numpy.add.reduce(h)))
    assert_same(np.add.accumulate(np.asarray(h), out=...), numpy.add.accumulate(h, out=...))
    for g, w in zip(np.divmod(np.asarray(h), 4, out=...), numpy.divmod(h, 4, out=...)):
        assert_same(g, w)
    for call in (lambda xp: xp.add(1, 2, ...), lambda xp: xp.negative(1, out=(...,)),
                 lambda xp: xp.add.reduce(xp.asarray([1]), 0, None, ...),
                 lambda xp: xp.divmod(1, 2, out=(xp.empty(()), ...))):
        raises_like(lambda: call(numpy), lambda: call(np))


def test_where_without_out_warns():
    a = np.arange(7)
    with pytest.warns(UserWarning, match="'where' used without 'out'") as rec:
        r = np.add(a, a, where=a % 2 == 0)
    assert rec[0].filename == __file__
    numpy.testing.assert_array_equal(r.get()[::2], [0, 4, 8, 12])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.add(a, a, where=a > 2, out=None)
        np.add(a, a, where=True)
        np.add(a, a, np.empty(7, a.dtype), where=a > 2)
        np.add.reduce(a, where=a > 2)


# --- reductions: initial=np._NoValue, -0.0 kept by initial=-0.0 ------------------------------
def test_initial_novalue_means_none():
    h = RNG.standard_normal(5)
    assert float(np.add.reduce(np.asarray([]), initial=numpy._NoValue)) == 0.0
    for f in ("sum", "prod", "max", "min", "nansum"):
        got = getattr(np, f)(np.asarray(h), initial=numpy._NoValue)
        assert_matches(got, numpy.asarray(getattr(numpy, f)(h)))     # sums: tree order
    raises_like(lambda: numpy.minimum.reduce(numpy.ones(0), initial=numpy._NoValue),
                lambda: np.minimum.reduce(np.ones(0), initial=numpy._NoValue))


@pytest.mark.parametrize("dtype", ["e", "f", "d", "F", "D"])
def test_sum_negative_zero_initial(dtype):
    dt = numpy.dtype(dtype)
    nz = dt.type(complex(-0.0, -0.0)) if dt.kind == "c" else dt.type(-0.0)
    for n in (0, 1, 3, 37, 150):
        h = numpy.array([nz] * n, dtype=dt)
        for init in (nz, dt.type(0)):
            for f, ours in ((numpy.sum, np.sum), (numpy.add.reduce, np.add.reduce),
                            (numpy.nansum, np.nansum)):
                g = ours(np.asarray(h), initial=init).get()
                w = numpy.asarray(f(h, initial=init))
                assert_same(g, w)
                assert numpy.signbit(g.real) == numpy.signbit(w.real), (n, init, f)
                assert numpy.signbit(g.imag) == numpy.signbit(w.imag), (n, init, f)
    # along an axis, and without initial= NumPy's sum starts from +0.0
    h = numpy.full((4, 5), nz, dtype=dt)
    for ax in (0, 1):
        for kw in ({"initial": nz}, {}):
            g, w = np.sum(np.asarray(h), axis=ax, **kw).get(), numpy.sum(h, axis=ax, **kw)
            for part in ("real", "imag"):
                assert numpy.array_equal(numpy.signbit(getattr(g, part)),
                                         numpy.signbit(getattr(w, part))), (ax, kw, part)
