"""npgpu.scipy.special against scipy.special: ufunc rows (dtypes, edges, layouts, out=, fuse)
and logsumexp/softmax/log_softmax."""
import numpy as np
import pytest

import npgpu
import npgpu.scipy.special as gs

sp = pytest.importorskip("scipy.special")

# libdevice and SciPy differ by a few ulp (more in absolute terms near the zeros of lgamma and
# the Bessel functions)
TOL = {np.float32: dict(rtol=2e-5, atol=2e-6), np.float64: dict(rtol=1e-12, atol=1e-14)}
LOOSE = {"gammaln", "j0", "j1", "y0", "y1"}
TOL_LOOSE = {np.float32: dict(rtol=1e-4, atol=1e-5), np.float64: dict(rtol=1e-11, atol=1e-13)}

rng = np.random.default_rng(25)

# name -> sampler of valid-domain inputs (n values)
DOMAIN = {
    "erf": lambda n: rng.uniform(-4, 4, n), "erfc": lambda n: rng.uniform(-4, 8, n),
    "erfcx": lambda n: rng.uniform(-5, 30, n), "erfinv": lambda n: rng.uniform(-0.999, 0.999, n),
    "erfcinv": lambda n: rng.uniform(0.001, 1.999, n), "ndtr": lambda n: rng.uniform(-8, 8, n),
    "ndtri": lambda n: rng.uniform(0.0001, 0.9999, n), "log_ndtr": lambda n: rng.uniform(-30, 8, n),
    "gamma": lambda n: rng.uniform(-4.5, 30, n), "gammaln": lambda n: rng.uniform(-4.5, 100, n),
    "j0": lambda n: rng.uniform(-20, 20, n), "j1": lambda n: rng.uniform(-20, 20, n),
    "y0": lambda n: rng.uniform(0.1, 20, n), "y1": lambda n: rng.uniform(0.1, 20, n),
    "i0": lambda n: rng.uniform(-30, 30, n), "i1": lambda n: rng.uniform(-30, 30, n),
    "i0e": lambda n: np.concatenate([rng.uniform(-12, 12, n - n // 4),
                                     rng.uniform(8, 1e5, n // 4)]),
    "i1e": lambda n: np.concatenate([rng.uniform(-12, 12, n - n // 4),
                                     -rng.uniform(8, 1e5, n // 4)]),
    "expit": lambda n: rng.uniform(-100, 100, n), "logit": lambda n: rng.uniform(0, 1, n),
    "log_expit": lambda n: rng.uniform(-100, 100, n), "entr": lambda n: rng.uniform(0, 5, n),
}
BINARY_DOMAIN = {
    "xlogy": lambda n: (rng.uniform(-3, 3, n), rng.uniform(0.01, 5, n)),
    "xlog1py": lambda n: (rng.uniform(-3, 3, n), rng.uniform(-0.99, 5, n)),
    "rel_entr": lambda n: (rng.uniform(0, 3, n), rng.uniform(0.01, 3, n)),
    "kl_div": lambda n: (rng.uniform(0, 3, n), rng.uniform(0.01, 3, n)),
    "huber": lambda n: (rng.uniform(0, 2, n), rng.uniform(-4, 4, n)),
    "boxcox": lambda n: (rng.uniform(0.01, 5, n), rng.uniform(-2, 2, n)),
    "inv_boxcox": lambda n: (rng.uniform(-0.4, 2, n), rng.uniform(-2, 2, n)),
}
FLOATS = [np.float32, np.float64]


def check(name, got, want, dt=None):
    got = got.get() if isinstance(got, npgpu.ndarray) else np.asarray(got)
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    dt = dt or want.dtype.type
    tol = (TOL_LOOSE if name in LOOSE else TOL)[dt]
    np.testing.assert_allclose(got, want, equal_nan=True, err_msg=name, **tol)


@pytest.mark.matrix
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("name", sorted(DOMAIN))
def test_unary_random(name, dt):
    x = DOMAIN[name](48).astype(dt)
    check(name, getattr(gs, name)(npgpu.asarray(x)), getattr(sp, name)(x))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("name", sorted(BINARY_DOMAIN))
def test_binary_random(name, dt):
    x, y = (v.astype(dt) for v in BINARY_DOMAIN[name](48))
    x[::7] = 0          # the x == 0 branches of xlogy, rel_entr, kl_div
    check(name, getattr(gs, name)(npgpu.asarray(x), npgpu.asarray(y)), getattr(sp, name)(x, y))


EDGES = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 1e-30,
                  -1e-30, 8.0, -8.0, 40.0, -40.0, 200.0, -200.0, 720.0, 1e30, -1e30])


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("name", sorted(DOMAIN))
def test_unary_edges(name, dt):
    """NaN, +-inf, +-0, poles (gamma at 0 and the negative integers) and out-of-domain values."""
    x = EDGES.astype(dt)
    if name in ("j0", "j1", "y0", "y1"):     # libdevice's huge-argument accuracy is not SciPy's
        x = x[~(np.abs(x) > 1e29)]
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(x)
    if name == "gammaln":       # SciPy 1.18's value at -inf (older releases: +inf)
        want[x == -np.inf] = -np.inf
    check(name, getattr(gs, name)(npgpu.asarray(x)), want)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("name", sorted(BINARY_DOMAIN))
def test_binary_edges(name, dt):
    e = np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, -1.0, 2.5, -0.5])
    x, y = (v.ravel().astype(dt) for v in np.meshgrid(e, e))
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(x, y)
    check(name, getattr(gs, name)(npgpu.asarray(x), npgpu.asarray(y)), want)


@pytest.mark.parametrize("dt", [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64,
                                np.float16, np.float32, np.float64])
@pytest.mark.parametrize("name", ["erf", "erfinv", "gammaln", "boxcox", "xlogy", "huber"])
def test_dtype_rules(name, dt):
    """SciPy's loop choice: exact float32/float64 match, else its first safe loop."""
    f = getattr(gs, name)
    x = (rng.uniform(0, 1, 16) * (2 if dt is np.bool_ else 9)).astype(dt)
    if name == "erfinv":
        x = (x.astype(np.float64) / 10).astype(dt) if dt in (np.float16, np.float32, np.float64) \
            else x
    args = (x,) * f.nin
    with np.errstate(all="ignore"):
        want = getattr(sp, name)(*args)
    got = f(*(npgpu.asarray(a) for a in args)).get()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, equal_nan=True, **TOL_LOOSE[want.dtype.type])


@pytest.mark.parametrize("args", [(np.float32, 2.0), (np.float32, 2), (np.int8, 2.0),
                                  (np.int8, 2), (np.float16, 2.0), (np.float32, np.float64(2.0)),
                                  (2, 3.0)])
@pytest.mark.parametrize("name", ["xlogy", "boxcox"])
def test_dtype_rules_scalars(name, args):
    """Python scalars are weak (NEP 50); all-Python inputs take their default dtypes."""
    a, s = args
    x = np.arange(1, 5).astype(a) if isinstance(a, type) else a
    want = getattr(sp, name)(x, s)
    got = getattr(gs, name)(npgpu.asarray(x) if isinstance(a, type) else x, s)
    got = got.get() if isinstance(got, npgpu.ndarray) else np.asarray(got)
    assert got.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=2e-6)


def test_complex_refused():
    # every complex loop SciPy has for these functions, npgpu has too (zeta's:
    # tests/test_special_complex_zeta.py); a loop a row lacked would raise TypeError saying so
    from npgpu.scipy.special.ufuncs import LoopSpec
    spec = LoopSpec("_riemann_zeta", 1, {"f"})
    with pytest.raises(TypeError, match="zeta does not support complex input"):
        spec.resolve_dtypes((np.dtype(np.complex128), None))


@pytest.mark.parametrize("dt", FLOATS)
def test_layouts(dt):
    """Negative strides, non-contiguous views, broadcasting and 0-d inputs."""
    a = rng.uniform(-3, 3, (6, 8)).astype(dt)
    g = npgpu.asarray(a)
    check("erf", gs.erf(g[::-2, 1::3]), sp.erf(a[::-2, 1::3]))
    check("erfcx", gs.erfcx(g.T), sp.erfcx(a.T))
    y = rng.uniform(0.1, 4, 8).astype(dt)
    check("xlogy", gs.xlogy(g[:, ::-1], npgpu.asarray(y)), sp.xlogy(a[:, ::-1], y))
    z = np.asarray(a[1, 2])
    check("expit", gs.expit(npgpu.asarray(z)), sp.expit(z))
    check("gammaln", gs.gammaln(npgpu.asarray(a[:0])), sp.gammaln(a[:0]))


@pytest.mark.parametrize("dt", FLOATS)
def test_out(dt):
    a = rng.uniform(0.05, 0.95, 20).astype(dt)
    out = npgpu.empty(20, dtype=dt)
    r = gs.logit(npgpu.asarray(a), out=out)
    assert r is out
    check("logit", out, sp.logit(a))
    wide = npgpu.zeros(20, dtype=np.float64)      # a float32 loop into a float64 output
    gs.ndtri(npgpu.asarray(a), out=wide)
    np.testing.assert_allclose(wide.get(), sp.ndtri(a).astype(np.float64), rtol=2e-5)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'ndtri' output"):
        gs.ndtri(npgpu.asarray(a), out=npgpu.empty(20, dtype=np.int32))


def test_fuse():
    @npgpu.fuse
    def f(x, y):
        return gs.log_ndtr(x) + gs.xlogy(y, x * x + 1.0)

    x = rng.uniform(-5, 5, 40)
    y = rng.uniform(-2, 2, 40)
    got = f(npgpu.asarray(x), npgpu.asarray(y))
    check("fused", got, sp.log_ndtr(x) + sp.xlogy(y, x * x + 1.0), np.float64)


def test_ufunc_attributes():
    assert gs.erf.nin == 1 and gs.xlogy.nin == 2 and gs.erf.nout == 1
    assert gs.boxcox.types == ["ff->f", "dd->d"]
    assert repr(gs.gamma) == "<ufunc 'gamma'>"
    assert isinstance(gs.erf, npgpu.ufunc)


# ---- logsumexp / softmax / log_softmax -------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS + [np.int32])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_logsumexp(dt, axis, keepdims):
    a = (rng.uniform(-20, 20, (3, 4, 5)) * (1 if dt != np.int32 else 1)).astype(dt)
    got = gs.logsumexp(npgpu.asarray(a), axis=axis, keepdims=keepdims)
    want = sp.logsumexp(a, axis=axis, keepdims=keepdims)
    check("logsumexp", got, np.asarray(want), np.float64 if dt is np.int32 else dt)


@pytest.mark.parametrize("dt", FLOATS)
def test_logsumexp_b_sign(dt):
    a = rng.uniform(-5, 5, (4, 6)).astype(dt)
    b = rng.uniform(-1, 1, (4, 6)).astype(dt)
    got, sgn = gs.logsumexp(npgpu.asarray(a), axis=1, b=npgpu.asarray(b), return_sign=True)
    want, wsgn = sp.logsumexp(a, axis=1, b=b, return_sign=True)
    check("logsumexp", got, want)
    np.testing.assert_array_equal(sgn.get(), wsgn)
    bp = np.abs(b[0])                  # broadcast b, positive weights
    check("logsumexp", gs.logsumexp(npgpu.asarray(a), axis=1, b=npgpu.asarray(bp)),
          sp.logsumexp(a, axis=1, b=bp))


def test_logsumexp_edges():
    a = np.array([[-np.inf, -np.inf], [np.inf, 1.0], [np.nan, 1.0], [1000.0, 1000.0]])
    with np.errstate(all="ignore"):
        want = sp.logsumexp(a, axis=1)
    check("logsumexp", gs.logsumexp(npgpu.asarray(a), axis=1), want)
    b = np.array([[1.0, 1.0], [0.0, 1.0], [0.0, 1.0], [1.0, 0.0]])   # weight 0 drops inf/NaN
    check("logsumexp", gs.logsumexp(npgpu.asarray(a), axis=1, b=npgpu.asarray(b)),
          sp.logsumexp(a, axis=1, b=b))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64, np.complex128])
def test_logsumexp_near_zero_ties_and_signs(dt):
    """SciPy 1.17's formula: the maximum's terms apart, log1p(s / m) + log(m) + max, so a
    result near 0 keeps its relative accuracy (log(1 + s) would give 0 for [0, -40]); ties of
    the maximum counted; infinite results from log(sum(b exp(a))), with return_sign too."""
    inf, nan = np.inf, np.nan
    rows = [[0, -40, -45], [-1e-20, -50, -60], [1e-8, -40, -41], [0, 0, -30], [2, 2, 2],
            [-inf, -inf, -inf], [inf, 1, 2], [inf, inf, 0], [-inf, 1, 0], [nan, 1, 0],
            [inf, -inf, 3], [700, 700, 699]]
    a = np.array(rows)
    if np.dtype(dt).kind == "c":
        a = a[:8] + 1j * rng.uniform(-4, 4, a[:8].shape)
    a = a.astype(dt)
    b = rng.uniform(-1, 1, a.shape).astype(dt)
    tol = 1e-13 if np.dtype(dt).itemsize * (2 if np.dtype(dt).kind == "f" else 1) == 16 else 5e-6
    g, gb = npgpu.asarray(a), npgpu.asarray(b)
    with np.errstate(all="ignore"):
        cases = [(gs.logsumexp(g, axis=1), sp.logsumexp(a, axis=1)),
                 (gs.logsumexp(g[:, ::-1], axis=1, b=gb[:, ::-1]),
                  sp.logsumexp(a[:, ::-1], axis=1, b=b[:, ::-1])),
                 (gs.logsumexp(g.T, axis=0, keepdims=True),
                  sp.logsumexp(a.T, axis=0, keepdims=True))]
        if np.dtype(dt).kind == "f":
            cases += [(x, y) for x, y in zip(gs.logsumexp(g, axis=1, b=gb, return_sign=True),
                                             sp.logsumexp(a, axis=1, b=b, return_sign=True))]
    # weights of both signs cancel: log|sum b e^a| moves by eps times the sum of the terms'
    # magnitudes over the sum's own (a row's condition number), in any float32 implementation
    with np.errstate(all="ignore"):
        a64 = a.astype(np.complex128 if np.dtype(dt).kind == "c" else np.float64)
        top = np.nanmax(a64.real, axis=1, keepdims=True)
        w = b * np.exp(a64 - np.where(np.isfinite(top), top, 0))
        cond = np.nan_to_num(np.abs(w).sum(axis=1) / np.abs(w.sum(axis=1)), nan=0, posinf=0)
    atols = [0, tol * cond, 0] + [tol * cond] * (len(cases) - 3)
    for (got, want), atol in zip(cases, atols):
        got = got.get()
        assert got.dtype == want.dtype and got.shape == want.shape
        close = np.isclose(got, want, rtol=tol, atol=atol, equal_nan=True)
        assert close.all(), (got[~close], want[~close])
    near = sp.logsumexp(a[:3].real.astype(np.float64), axis=1)
    np.testing.assert_allclose(gs.logsumexp(npgpu.asarray(a[:3].real.astype(np.float64)),
                                            axis=1).get(), near, rtol=1e-14)


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_softmax(dt, axis):
    a = rng.uniform(-30, 30, (5, 7)).astype(dt)
    g = npgpu.asarray(a)[:, ::-1]
    check("softmax", gs.softmax(g, axis=axis), sp.softmax(a[:, ::-1], axis=axis))
    check("log_softmax", gs.log_softmax(g, axis=axis), sp.log_softmax(a[:, ::-1], axis=axis))


def test_softmax_edges_and_launches():
    """Rows holding +-inf and NaN come out as SciPy's (softmax's maximum is not guarded,
    log_softmax's is); along the last axis softmax is one kernel (the fused row form) and
    logsumexp two reads of the input."""
    from npgpu.fusion.trace import _launch_count
    a = np.array([[1.0, np.inf, 2.0], [1.0, -np.inf, 2.0], [-np.inf] * 3, [np.nan, 1.0, 2.0],
                  [700.0, 710.0, -5.0]])
    g = npgpu.asarray(a)
    with np.errstate(all="ignore"):
        for name in ("softmax", "log_softmax", "logsumexp"):
            check(name, getattr(gs, name)(g, axis=1), getattr(sp, name)(a, axis=1))
    x = npgpu.asarray(rng.uniform(-5, 5, (6, 40)).astype(np.float32))
    gs.softmax(x, axis=-1)
    n = _launch_count()
    check("softmax", gs.softmax(x, axis=-1), sp.softmax(x.get(), axis=-1))
    assert _launch_count() - n == 1


def test_softmax_empty_0d_and_threads():
    """Empty and 0-d input as SciPy; a worker thread gets the main thread's answer (the fused
    functions are shared between threads)."""
    import threading
    for a in (np.zeros((0, 3), np.float32), np.float64(2.5)):
        for name in ("softmax", "log_softmax"):
            got = getattr(gs, name)(npgpu.asarray(a), axis=None if np.ndim(a) == 0 else 1)
            want = getattr(sp, name)(a, axis=None if np.ndim(a) == 0 else 1)
            assert got.shape == np.shape(want)
            check(name, got, np.asarray(want))
    x = rng.uniform(-5, 5, (4, 9)).astype(np.float32)
    out = {}

    def work():
        out["t"] = (gs.softmax(npgpu.asarray(x), axis=1).get(),
                    gs.logsumexp(npgpu.asarray(x), axis=1).get())

    t = threading.Thread(target=work)
    t.start()
    t.join()
    check("softmax", out["t"][0], sp.softmax(x, axis=1))
    check("logsumexp", out["t"][1], sp.logsumexp(x, axis=1))
    check("softmax", gs.softmax(npgpu.asarray(x), axis=1), out["t"][0])


@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64, np.int16, np.int64, np.bool_])
def test_numpy_i0(dt):
    """numpy.i0 runs on the same kernel, with NumPy's result dtypes."""
    r = np.random.default_rng(30)      # its own stream: the values do not depend on test order
    x = (r.uniform(-6, 6, 24) if dt not in (np.bool_,) else r.uniform(0, 2, 24)).astype(dt)
    want = np.i0(x)
    got = npgpu.i0(npgpu.asarray(x[::-1])).get()
    assert got.dtype == want.dtype
    if dt == np.float16:
        # NumPy evaluates float16 in float16 (up to 3 ulp off); npgpu gives the correctly
        # rounded float16 of the float64 value here
        want = np.i0(x.astype(np.float64)).astype(np.float16)
    rtol = {np.float16: 1e-3, np.float32: 2e-6}.get(dt, 1e-12)
    np.testing.assert_allclose(got, want[::-1], rtol=rtol)
    with pytest.raises(TypeError, match="i0 not supported for complex values"):
        npgpu.i0(npgpu.asarray(np.ones(2, np.complex64)))


def test_where_dtype_hostmode():
    """where= and dtype= take the ufunc's generic paths; a host-mode fuse call runs SciPy's."""
    x = rng.uniform(-4, 4, 12)
    m = x > 0
    o = npgpu.zeros(12)
    gs.expit(npgpu.asarray(x), out=o, where=npgpu.asarray(m))
    check("expit", o, np.where(m, sp.expit(x), 0.0))
    xi = np.arange(-3, 9)
    check("erf", gs.erf(npgpu.asarray(xi), dtype=np.float32), sp.erf(xi, dtype=np.float32))

    @npgpu.fuse
    def f(v):
        return gs.erfc(v) * 2.0

    check("erfc", f(npgpu.asarray(x)), sp.erfc(x) * 2.0)
    np.testing.assert_allclose(f(x), sp.erfc(x) * 2.0, rtol=1e-15)
