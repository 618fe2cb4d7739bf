"""npgpu.polynomial against numpy.polynomial: the six bases' module functions and classes on
small random data (values, dtypes, shapes, NaN positions and error messages)."""
import numpy as np
import numpy.polynomial as NP
import pytest

import npgpu
import npgpu.polynomial as GP

MODULES = {"polynomial": "poly", "chebyshev": "cheb", "legendre": "leg", "hermite": "herm",
           "hermite_e": "herme", "laguerre": "lag"}
CLASSES = ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"]
TOL = {np.dtype(np.float32): 2e-5, np.dtype(np.complex64): 2e-5}


def rng(seed=0):
    return np.random.default_rng(seed)


def data(shape, dtype, seed=0):
    r = rng(seed)
    dt = np.dtype(dtype)
    v = r.uniform(-1, 1, shape)
    if dt.kind == "c":
        v = v + 1j * r.uniform(-1, 1, shape)
    return v.astype(dt)


def dev(v):
    return npgpu.asarray(v) if isinstance(v, np.ndarray) else v


def host(r):
    return r.get() if isinstance(r, npgpu.ndarray) else r


def check(got, want, rtol=None, dtype=True):
    """Values (NaN where NumPy has NaN), shape and dtype of a result (or tuple/list of them)."""
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w, rtol, dtype)
        return
    if isinstance(want, (int, float, np.integer)) and not isinstance(want, np.generic):
        assert got == want
        return
    g = np.asarray(host(got))
    w = np.asarray(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    if dtype:
        assert g.dtype == w.dtype, (g.dtype, w.dtype)
    tol = rtol if rtol is not None else TOL.get(w.dtype, 1e-11)
    np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def both(modname, name, *args, **kwargs):
    """(npgpu result, NumPy result) of module function ``<prefix><name>``."""
    p = MODULES[modname]
    g = getattr(getattr(GP, modname), p + name)
    n = getattr(getattr(NP, modname), p + name)
    return g(*[dev(a) for a in args], **kwargs), n(*args, **kwargs)


mods = pytest.mark.parametrize("mod", list(MODULES))


# ---- evaluation ---------------------------------------------------------------------------
@mods
@pytest.mark.parametrize("cdt,xdt", [("f8", "f8"), ("f4", "f4"), ("f4", "f8"), ("f8", "f4"),
                                     ("c16", "f8"), ("f8", "c16"), ("i8", "f4")])
@pytest.mark.parametrize("m", [1, 2, 3, 6])
def test_val_dtypes(mod, cdt, xdt, m):
    c = data(m, cdt, 1) if cdt != "i8" else np.arange(1, m + 1)
    x = data(7, xdt, 2)
    check(*both(mod, "val", x, c))


@mods
def test_val_points(mod):
    c = data(5, "f8", 3)
    for x in (np.float64(0.3), np.array(0.3), np.zeros(0), np.zeros((0, 3)),
              data((3, 4), "f8")[:, ::2], data((2, 3), "f8")):
        check(*both(mod, "val", x, c))
    # Python scalars are weak: float32 coefficients stay float32
    for x in (0.5, 2, 1.5 + 1j):
        g, n = both(mod, "val", x, c.astype(np.float32))
        check(g, n)
    check(*both(mod, "val", [0.1, 0.2], list(c)))


@mods
def test_val_multidim_tensor(mod):
    c = data((4, 2, 3), "f8", 4)
    x = data((2, 3), "f8", 5)
    check(*both(mod, "val", x, c))
    check(*both(mod, "val", x, c, tensor=False))
    check(*both(mod, "val", x[0], c, tensor=False))
    check(*both(mod, "val", 0.25, c))
    with pytest.raises(ValueError, match="could not be broadcast"):
        both(mod, "val", data(4, "f8"), c, tensor=False)[0]


@mods
def test_val_nan(mod):
    c = data(4, "f8", 6)
    x = np.array([0.1, np.nan, 0.3, np.inf])
    check(*both(mod, "val", x, c))
    c[2] = np.nan
    check(*both(mod, "val", x[:1], c))


@mods
def test_valnd_gridnd(mod):
    x, y, z = data(3, "f8", 1), data(3, "f8", 2), data(3, "f8", 3)
    c2, c3 = data((3, 2), "f8", 4), data((2, 3, 2), "f8", 5)
    check(*both(mod, "val2d", x, y, c2))
    check(*both(mod, "val3d", x, y, z, c3))
    check(*both(mod, "grid2d", x, y[:2], c2))
    check(*both(mod, "grid3d", x, y[:2], z[:1], c3))
    with pytest.raises(ValueError, match="x, y are incompatible"):
        both(mod, "val2d", x, y[:2], c2)[0]


@mods
@pytest.mark.parametrize("xdt", ["f8", "f4", "c16", "i8"])
def test_vander(mod, xdt):
    x = data(5, xdt, 7) if xdt != "i8" else np.arange(-2, 3)
    for deg in (0, 1, 4):
        check(*both(mod, "vander", x, deg))
    check(*both(mod, "vander", x.reshape(5, 1)[::2], 2))
    check(*both(mod, "vander", np.float64(0.5), 2))
    check(*both(mod, "vander2d", x, x[::-1], [2, 1]))
    check(*both(mod, "vander3d", x, x, x, [1, 2, 1]))


@mods
def test_vander_errors(mod):
    for deg, err, msg in ((-1, ValueError, "deg must be non-negative"),
                          (1.5, TypeError, "deg must be an integer")):
        with pytest.raises(err, match=msg):
            getattr(getattr(GP, mod), MODULES[mod] + "vander")(npgpu.arange(3.0), deg)
        with pytest.raises(err, match=msg):
            getattr(getattr(NP, mod), MODULES[mod] + "vander")(np.arange(3.0), deg)


# ---- series arithmetic and calculus --------------------------------------------------------
@mods
@pytest.mark.parametrize("dt", ["f8", "f4", "c16"])
def test_arithmetic(mod, dt):
    c1, c2 = data(5, dt, 8), data(3, dt, 9)
    c1z = np.concatenate([c1, np.zeros(2, dt)])
    check(*both(mod, "add", c1z, c2))
    check(*both(mod, "sub", c2, c1))
    check(*both(mod, "sub", c1, c2))
    check(*both(mod, "mul", c1, c2))
    check(*both(mod, "mulx", c1))
    check(*both(mod, "mulx", np.zeros(1, dt)))
    check(*both(mod, "div", c1, c2))
    check(*both(mod, "div", c2, c1))
    check(*both(mod, "div", c1, c2[:1]))
    check(*both(mod, "pow", c2, 3))
    check(*both(mod, "pow", c2, 0))
    check(*both(mod, "trim", c1z))
    check(*both(mod, "trim", c1z, 0.5))
    check(*both(mod, "trim", np.zeros(3)))
    check(*both(mod, "line", 1.5, -2.0))
    check(*both(mod, "line", 3, 0))
    check(*both(mod, "add", [1, 2], [3]))


@mods
def test_arithmetic_errors(mod):
    p = MODULES[mod]
    gm, nm = getattr(GP, mod), getattr(NP, mod)
    for m in (gm, nm):
        with pytest.raises(ZeroDivisionError):
            getattr(m, p + "div")([1.0, 2.0], [0.0])
        with pytest.raises(ValueError, match="Coefficient array is empty"):
            getattr(m, p + "add")([], [1.0])
        with pytest.raises(ValueError, match="Coefficient array is not 1-d"):
            getattr(m, p + "mul")(np.ones((2, 2)), [1.0])
        with pytest.raises(ValueError, match="Power must be a non-negative integer"):
            getattr(m, p + "pow")([1.0, 2.0], -1)
        with pytest.raises(ValueError, match="Power is too large"):
            getattr(m, p + "pow")([1.0, 2.0], 5, maxpower=4)
        with pytest.raises(ValueError, match="tol must be non-negative"):
            getattr(m, p + "trim")([1.0, 2.0], -1)


@mods
@pytest.mark.parametrize("dt", ["f8", "f4", "c16"])
def test_der_int(mod, dt):
    c = data(6, dt, 10)
    for kw in ({}, {"m": 2}, {"m": 3, "scl": 0.5}, {"m": 0}, {"m": 7}):
        check(*both(mod, "der", c, **kw))
    c2 = data((4, 3), dt, 11)
    check(*both(mod, "der", c2, m=2, axis=1))
    check(*both(mod, "der", c2, m=1, axis=0))
    for kw in ({}, {"m": 2, "k": [1, 2]}, {"m": 1, "lbnd": 0.5, "scl": 2.0}, {"m": 0}):
        check(*both(mod, "int", c, **kw))
    check(*both(mod, "int", c2, m=2, k=3, axis=1))
    check(*both(mod, "int", np.zeros(1, dt), m=2, k=[1, 2]))
    check(*both(mod, "int", [1, 2], m=1))


@mods
def test_der_int_errors(mod):
    p = MODULES[mod]
    for m in (getattr(GP, mod), getattr(NP, mod)):
        der, itg = getattr(m, p + "der"), getattr(m, p + "int")
        for f, msg in ((der, "order of derivation"), (itg, "order of integration")):
            with pytest.raises(ValueError, match=f"The {msg} must be non-negative"):
                f([1.0, 2.0], -1)
            with pytest.raises(TypeError, match=f"the {msg} must be an integer"):
                f([1.0, 2.0], 1.5)
            with pytest.raises(TypeError, match="the axis must be an integer"):
                f([1.0, 2.0], 1, axis=0.5)
        with pytest.raises(ValueError, match="Too many integration constants"):
            itg([1.0, 2.0], 1, k=[1, 2])
        with pytest.raises(ValueError, match="lbnd must be a scalar"):
            itg([1.0, 2.0], 1, lbnd=[1, 2])
        with pytest.raises(ValueError, match="scl must be a scalar"):
            itg([1.0, 2.0], 1, scl=[1, 2])


@mods
def test_roots_companion_fromroots(mod):
    c = data(5, "f8", 12)
    check(*both(mod, "companion", c))
    check(*both(mod, "companion", c[:2]))
    g, n = both(mod, "roots", c)
    check(np.sort_complex(host(g)), np.sort_complex(n), rtol=1e-8)
    check(*both(mod, "roots", c[:2]))
    check(*both(mod, "roots", c[:1]))
    r = np.array([0.5, -0.25, 0.75])
    check(*both(mod, "fromroots", r))
    check(*both(mod, "fromroots", r + 0.5j))
    check(*both(mod, "fromroots", []))
    for m in (getattr(GP, mod), getattr(NP, mod)):
        with pytest.raises(ValueError, match="Series must have maximum degree of at least 1"):
            getattr(m, MODULES[mod] + "companion")([1.0])


@mods
def test_fit(mod):
    x = np.linspace(-1, 1, 12)
    y = data(12, "f8", 13)
    w = np.abs(data(12, "f8", 14)) + 0.1
    check(*both(mod, "fit", x, y, 3), rtol=1e-8)
    check(*both(mod, "fit", x, np.stack([y, y * 2], axis=1), 2), rtol=1e-8)
    check(*both(mod, "fit", x, y, [0, 2, 3]), rtol=1e-8)
    check(*both(mod, "fit", x, y, 2, w=w), rtol=1e-8)
    g, n = both(mod, "fit", x, y, 2, full=True)
    check(g[0], n[0], rtol=1e-8)
    check(g[1][0], n[1][0], rtol=1e-8)
    assert int(g[1][1]) == n[1][1]
    p = MODULES[mod]
    for m, xx in ((getattr(GP, mod), npgpu.asarray(x)), (getattr(NP, mod), x)):
        f = getattr(m, p + "fit")
        with pytest.raises(ValueError, match="expected deg >= 0"):
            f(xx, xx, -1)
        with pytest.raises(TypeError, match="deg must be an int"):
            f(xx, xx, 1.5)
        with pytest.raises(TypeError, match="expected 1D vector for x"):
            f(xx.reshape(3, 4), xx, 1)
        with pytest.raises(TypeError, match="expected x and y to have same length"):
            f(xx, xx[:3], 1)


@mods
def test_conversions_and_quadrature(mod):
    p = MODULES[mod]
    if p == "poly":
        r = np.array([0.5, -1.0, 2.0])
        check(GP.polynomial.polyvalfromroots(npgpu.asarray(np.array([0.1, 0.7])), r),
              NP.polynomial.polyvalfromroots(np.array([0.1, 0.7]), r))
        rr = data((3, 2), "f8", 3)
        check(GP.polynomial.polyvalfromroots(npgpu.asarray(np.array([0.1, 0.7])),
                                             npgpu.asarray(rr), tensor=False),
              NP.polynomial.polyvalfromroots(np.array([0.1, 0.7]), rr, tensor=False))
        with pytest.raises(ValueError, match="x.ndim must be < r.ndim when tensor == False"):
            GP.polynomial.polyvalfromroots(npgpu.ones((2, 2)), npgpu.asarray(rr), tensor=False)
        return
    gm, nm = getattr(GP, mod), getattr(NP, mod)
    c = data(5, "f8", 15)
    check(getattr(gm, "poly2" + p)(npgpu.asarray(c)), getattr(nm, "poly2" + p)(c))
    check(getattr(gm, p + "2poly")(npgpu.asarray(c)), getattr(nm, p + "2poly")(c))
    check(getattr(gm, p + "2poly")(npgpu.asarray(c[:2])), getattr(nm, p + "2poly")(c[:2]))
    for deg in (1, 3, 6):
        check(getattr(gm, p + "gauss")(deg), getattr(nm, p + "gauss")(deg), rtol=1e-10)
    x = np.linspace(-0.9, 0.9, 5) if p != "lag" else np.linspace(0.1, 3, 5)
    check(getattr(gm, p + "weight")(npgpu.asarray(x)), getattr(nm, p + "weight")(x))
    for m in (gm, nm):
        with pytest.raises(ValueError, match="deg must be a positive integer"):
            getattr(m, p + "gauss")(0)


@mods
def test_constants(mod):
    p = MODULES[mod]
    for name in ("zero", "one", "x", "domain"):
        check(getattr(getattr(GP, mod), p + name), getattr(getattr(NP, mod), p + name))
    with pytest.raises(AttributeError):
        getattr(getattr(GP, mod), p + "nothing")


def test_chebyshev_extras():
    C, NC = GP.chebyshev, NP.chebyshev
    for n in (1, 2, 5):
        check(C.chebpts1(n), NC.chebpts1(n))
    for n in (2, 5):
        check(C.chebpts2(n), NC.chebpts2(n))
    for f in (C.chebpts1, NC.chebpts1):
        with pytest.raises(ValueError, match="npts must be >= 1"):
            f(0)
        with pytest.raises(ValueError, match="npts must be integer"):
            f(1.5)
    with pytest.raises(ValueError, match="npts must be >= 2"):
        C.chebpts2(1)
    check(C.chebinterpolate(npgpu.cos, 5), NC.chebinterpolate(np.cos, 5))
    with pytest.raises(TypeError, match="deg must be an int"):
        C.chebinterpolate(npgpu.cos, 1.5)
    g = GP.Chebyshev.interpolate(npgpu.exp, 4, domain=[0, 2])
    n = NP.Chebyshev.interpolate(np.exp, 4, domain=[0, 2])
    check(g.coef, n.coef)
    check(g.domain, n.domain)


# ---- classes ------------------------------------------------------------------------------
cls_param = pytest.mark.parametrize("name", CLASSES)


def pair(name, coef, **kw):
    return getattr(GP, name)(npgpu.asarray(coef), **kw), getattr(NP, name)(coef, **kw)


def check_poly(g, n, rtol=None):
    assert type(g).__name__ == type(n).__name__
    check(g.coef, n.coef, rtol)
    check(g.domain, n.domain)
    check(g.window, n.window)
    assert g.symbol == n.symbol


@cls_param
def test_class_arithmetic(name):
    c1, c2 = data(4, "f8", 20), data(3, "f8", 21)
    (g1, n1), (g2, n2) = pair(name, c1, domain=[0, 2]), pair(name, c2, domain=[0, 2])
    check_poly(g1 + g2, n1 + n2)
    check_poly(g1 - g2, n1 - n2)
    check_poly(g1 * g2, n1 * n2)
    check_poly(g1 // g2, n1 // n2)
    check_poly(g1 % g2, n1 % n2)
    check_poly(divmod(g1, g2)[1], divmod(n1, n2)[1])
    check_poly(g1 ** 2, n1 ** 2)
    check_poly(-g1, -n1)
    check_poly(+g1, +n1)
    check_poly(g1 + 2, n1 + 2)
    check_poly(2 - g1, 2 - n1)
    check_poly(g1 * 1.5, n1 * 1.5)
    check_poly(3 * g1, 3 * n1)
    check_poly(g1 / 2, n1 / 2)
    check_poly(g1 + [1, 2], n1 + [1, 2])
    check_poly(np.float64(2.0) * g1, np.float64(2.0) * n1)
    with pytest.raises(TypeError, match="Domains differ"):
        g1 + getattr(GP, name)([1.0])
    with pytest.raises(TypeError, match="unsupported types for true division"):
        g1 / g2
    with pytest.raises(ZeroDivisionError):
        g1 // getattr(GP, name)([0.0], domain=[0, 2])
    other = "Chebyshev" if name != "Chebyshev" else "Legendre"
    with pytest.raises(TypeError, match="Polynomial types differ"):
        g1 + getattr(GP, other)([1.0], domain=[0, 2])
    with pytest.raises(ValueError, match="Polynomial symbols differ"):
        g1 + getattr(GP, name)([1.0], domain=[0, 2], symbol="y")


@cls_param
def test_class_methods(name):
    c = data(5, "f8", 22)
    g, n = pair(name, c, domain=[-2, 3], window=[-1, 1])
    x = data(6, "f8", 23)
    check(g(npgpu.asarray(x)), n(x))
    check(g(npgpu.asarray(x.astype(np.float32))), n(x.astype(np.float32)))
    check(g(0.5), n(0.5))
    check(g([0.1, 0.2]), n([0.1, 0.2]))
    check_poly(g.deriv(), n.deriv())
    check_poly(g.deriv(2), n.deriv(2))
    check_poly(g.integ(), n.integ())
    check_poly(g.integ(2, k=[1, 2], lbnd=0.5), n.integ(2, k=[1, 2], lbnd=0.5))
    check(np.sort_complex(host(g.roots())), np.sort_complex(n.roots()), rtol=1e-8)
    gx, gy = g.linspace(5)
    nx, ny = n.linspace(5)
    check(gx, nx)
    check(gy, ny)
    assert g.degree() == n.degree() == 4
    check_poly(g.cutdeg(2), n.cutdeg(2))
    check_poly(g.truncate(3), n.truncate(3))
    check_poly(g.truncate(9), n.truncate(9))
    z = pair(name, np.array([1.0, 0.001, 0.0, 0.0]))
    check_poly(z[0].trim(), z[1].trim())
    check_poly(z[0].trim(0.01), z[1].trim(0.01))
    check_poly(g.copy(), n.copy())
    assert g.mapparms() == n.mapparms()
    assert len(g) == len(n)
    assert [float(host(v)) for v in g] == list(n)
    with pytest.raises(ValueError, match="size must be a positive integer"):
        g.truncate(0)


@cls_param
def test_class_constructors(name):
    G, N = getattr(GP, name), getattr(NP, name)
    x = np.linspace(0, 3, 10)
    y = data(10, "f8", 24)
    check_poly(G.fit(npgpu.asarray(x), npgpu.asarray(y), 3), N.fit(x, y, 3), rtol=1e-8)
    check_poly(G.fit(x, y, 2, domain=[], window=[0, 1]), N.fit(x, y, 2, domain=[],
                                                                    window=[0, 1]), rtol=1e-8)
    gf, gs = G.fit(x, y, 2, full=True)
    nf, ns = N.fit(x, y, 2, full=True)
    check_poly(gf, nf, rtol=1e-8)
    assert int(gs[1]) == ns[1]
    check_poly(G.fit(np.ones(4), np.arange(4.0), 1), N.fit(np.ones(4), np.arange(4.0), 1),
               rtol=1e-8)
    r = np.array([0.25, 1.5, 2.0])
    check_poly(G.fromroots(r), N.fromroots(r), rtol=1e-10)
    check_poly(G.fromroots(r, domain=None), N.fromroots(r, domain=None), rtol=1e-10)
    check_poly(G.identity(), N.identity())
    check_poly(G.identity([0, 4], window=[-1, 2]), N.identity([0, 4], window=[-1, 2]))
    check_poly(G.basis(3), N.basis(3))
    check_poly(G.basis(2, domain=[1, 2], symbol="t"), N.basis(2, domain=[1, 2], symbol="t"))
    with pytest.raises(ValueError, match="deg must be non-negative integer"):
        G.basis(-1)
    with pytest.raises(ValueError, match="Domain has wrong number of elements"):
        G([1.0], domain=[1, 2, 3])
    with pytest.raises(ValueError, match="Window has wrong number of elements"):
        G([1.0], window=[1])
    with pytest.raises(ValueError, match="Symbol string must be a valid Python identifier"):
        G([1.0], symbol="1x")
    with pytest.raises(TypeError, match="Symbol must be a non-empty string"):
        G([1.0], symbol=1)
    with pytest.raises(ValueError, match="Coefficient array is empty"):
        G([])


@cls_param
def test_class_convert_and_compare(name):
    c = data(4, "f8", 25)
    g, n = pair(name, c, domain=[0, 2])
    for kind in ("Polynomial", "Chebyshev", "Laguerre"):
        check_poly(g.convert(kind=getattr(GP, kind)), n.convert(kind=getattr(NP, kind)))
        check_poly(getattr(GP, kind).cast(g), getattr(NP, kind).cast(n))
    check_poly(g.convert(domain=[-1, 1]), n.convert(domain=[-1, 1]))
    h = getattr(GP, name)(c, domain=[0, 2])
    assert g == h and not (g != h)
    assert g != getattr(GP, name)(c, domain=[0, 3])
    assert g != getattr(GP, name)(c[:3], domain=[0, 2])
    assert g != getattr(GP, name)(c + 1, domain=[0, 2])
    assert g.has_samecoef(h) and not g.has_samecoef(g + 1)
    assert g.has_samedomain(h) and g.has_samewindow(h) and g.has_sametype(h)


@cls_param
def test_class_printing(name):
    g, n = pair(name, np.array([1.0, -2.5, 0.0, 3.25]), domain=[0, 2], symbol="t")
    assert repr(g) == repr(n)
    assert str(g) == str(n)
    assert format(g, "ascii") == format(n, "ascii")
    assert format(g, "unicode") == format(n, "unicode")
    assert g._repr_latex_() == n._repr_latex_()
    with pytest.raises(ValueError, match="Unsupported format string"):
        format(g, "latex")
    try:
        GP.set_default_printstyle("ascii")
        NP.set_default_printstyle("ascii")
        assert str(g) == str(n)
    finally:
        GP.set_default_printstyle("unicode")
        NP.set_default_printstyle("unicode")
    with pytest.raises(ValueError, match="Unsupported format string"):
        GP.set_default_printstyle("latex")


def test_class_device_results():
    p = GP.Polynomial([1.0, 2.0, 3.0])
    assert isinstance(p.coef, npgpu.ndarray)
    assert isinstance(p(npgpu.arange(3.0)), npgpu.ndarray)
    assert isinstance(p.roots(), npgpu.ndarray)
    assert isinstance(p.domain, np.ndarray)


def test_polyutils():
    pu, npu = GP.polyutils, NP.polyutils
    check(pu.trimseq(npgpu.asarray([1.0, 0.0, 2.0, 0.0, 0.0])),
          npu.trimseq(np.array([1.0, 0.0, 2.0, 0.0, 0.0])))
    check(pu.trimseq(npgpu.zeros(3)), npu.trimseq(np.zeros(3)))
    check(pu.as_series([[1, 2, 0], [1.5]]), npu.as_series([[1, 2, 0], [1.5]]))
    check(pu.as_series([np.float32([1, 0])], trim=False),
          npu.as_series([np.float32([1, 0])], trim=False))
    check(pu.trimcoef([1.0, 1e-3, 1e-4], 1e-3), npu.trimcoef([1.0, 1e-3, 1e-4], 1e-3))
    x = data(6, "f8", 30)
    check(pu.getdomain(npgpu.asarray(x)), npu.getdomain(x))
    xc = data(6, "c16", 31)
    check(pu.getdomain(npgpu.asarray(xc)), npu.getdomain(xc))
    check(pu.mapdomain(npgpu.asarray(x), [-1, 1], [0, 4]), npu.mapdomain(x, [-1, 1], [0, 4]))
    assert pu.mapparms([0, 2], [-1, 1]) == npu.mapparms([0, 2], [-1, 1])
    assert pu.format_float(np.float64(0.5)) == npu.format_float(np.float64(0.5))
