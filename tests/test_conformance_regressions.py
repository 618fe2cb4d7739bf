"""Bugs the Array API conformance suite found in its 2026-12-04 run
(benchmarks/results/2026-12-04-cpu-array-api-conformance-fast-paths.md), each checked against
NumPy on random data: the reshape layout cache answering a float shape (NumPy's TypeError), and
det/slogdet of matrices whose |det| passes the float64 range (the simulator's math.exp raised
OverflowError where the GPU and NumPy give inf)."""
import warnings

import numpy
import pytest

import npgpu as np


# ---- reshape: the layout cache takes Python ints only ----------------------------------------
def _layouts(h):
    """(name, NumPy view, npgpu view) of a 3-d array: contiguous, transposed, strided, offset."""
    g = np.asarray(h)
    return [("c", h, g), ("T", h.T, g.T), ("step", h[:, ::2], g[:, ::2]),
            ("off", h[..., 1:], g[..., 1:]), ("perm", h.transpose(1, 0, 2), g.transpose(1, 0, 2))]


@pytest.mark.parametrize("seed", range(3))
def test_reshape_cache_matches_numpy_and_refuses_floats(seed):
    rng = numpy.random.default_rng(seed)
    h = rng.standard_normal((2, 4, 6)).astype(rng.choice(["float32", "int64", "complex64"]))
    for name, hv, gv in _layouts(h):
        n = hv.size
        for req in ((n,), (-1,), (2, -1), (1, n, 1), (n // 2, 2)):
            for order in "CFA":
                want = hv.reshape(req, order=order)
                for _ in range(2):      # the second call is the cache's
                    got = gv.reshape(req, order=order)
                    numpy.testing.assert_array_equal(got.get(), want, err_msg=f"{name} {req}")
                    assert got.shape == want.shape
                    assert np.shares_memory(got, gv) == numpy.shares_memory(want, hv)
                # the same request as floats: hashed like the ints, refused by NumPy
                for bad in (tuple(float(v) for v in req), tuple(numpy.float64(v) for v in req)):
                    with pytest.raises(TypeError):
                        hv.reshape(bad, order=order)
                    with pytest.raises(TypeError):
                        gv.reshape(bad, order=order)


# ---- det / slogdet past the float64 range ---------------------------------------------------
def _big_det_stack(rng, dt, n=10):
    """Three n x n matrices: a plain one, and two diagonally dominant ones with diagonal
    magnitudes 1e37..3e37 (finite in every dtype; pivots stay on the diagonal), so that
    log|det| ~ 855 passes log(DBL_MAX) = 709.78."""
    cplx = numpy.dtype(dt).kind == "c"

    def rnd(shape):
        a = rng.standard_normal(shape)
        return a + 1j * rng.standard_normal(shape) if cplx else a

    out = [rnd((n, n))]
    for _ in range(2):
        mag = rng.uniform(1.0, 3.0, n) * 1e37
        phase = numpy.exp(1j * rng.uniform(0, 2 * numpy.pi, n)) if cplx else \
            rng.choice([-1.0, 1.0], n)
        out.append(numpy.diag(mag * phase) + rnd((n, n)) * 1e30)
    return numpy.stack(out).astype(dt)


def _assert_close_nonfinite(got, want, rtol):
    """Equal inf/nan pattern (each part of a complex number, inf signs included), the finite
    values within ``rtol``."""
    for part in ((numpy.real, numpy.imag) if numpy.iscomplexobj(want) else (lambda v: v,)):
        g, w = part(got), part(want)
        numpy.testing.assert_array_equal(numpy.isnan(g), numpy.isnan(w))
        numpy.testing.assert_array_equal(numpy.isinf(g), numpy.isinf(w))
        numpy.testing.assert_array_equal(g[numpy.isinf(w)], w[numpy.isinf(w)])
        fin = numpy.isfinite(w)
        numpy.testing.assert_allclose(g[fin], w[fin], rtol=rtol, atol=0)


@pytest.mark.parametrize("dt", ["float32", "float64", "complex64", "complex128"])
def test_det_and_slogdet_past_the_float64_range(dt):
    rng = numpy.random.default_rng(sum(map(ord, dt)))
    h = _big_det_stack(rng, dt)
    g = np.asarray(h)
    rtol = 1e-3 if dt in ("float32", "complex64") else 1e-9
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # NumPy's overflow in exp
        want = numpy.linalg.det(h)
        want_s = numpy.linalg.slogdet(h)
    got = np.linalg.det(g).get()
    assert got.dtype == want.dtype
    assert numpy.isinf(numpy.abs(want[1:])).all()       # the case under test: det overflows
    _assert_close_nonfinite(got, want, rtol)
    got_s = np.linalg.slogdet(g)
    numpy.testing.assert_allclose(got_s.sign.get(), want_s.sign, rtol=rtol, atol=rtol)
    numpy.testing.assert_allclose(got_s.logabsdet.get(), want_s.logabsdet, rtol=rtol)


def test_empty_views_are_contiguous_and_bools_are_not_dimensions():
    """NumPy: every empty array is C- and F-contiguous, whatever its strides; a bool is not a
    dimension in reshape."""
    for view in (lambda z: z[:, ::-1], lambda z: z.T[::-1], lambda z: z[::2, ::-2]):
        g = view(np.zeros((0, 4), numpy.float32))
        h = view(numpy.zeros((0, 4), numpy.float32))
        assert g.flags.c_contiguous == h.flags.c_contiguous
        assert g.flags.f_contiguous == h.flags.f_contiguous
        numpy.testing.assert_array_equal(np.ascontiguousarray(g).get(), h)
    x = np.zeros(24)
    for bad in ((True, 24), True, (numpy.bool_(True), 24)):
        with pytest.raises(TypeError, match="an integer is required"):
            x.reshape(bad)
        with pytest.raises(TypeError):
            numpy.zeros(24).reshape(bad)
