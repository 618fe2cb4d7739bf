"""SciPy-style workloads run twice, on numpy + scipy and on npgpu + npgpu.scipy (the same code,
modules passed in), compared at the end: image pipelines, resampling, rank filters and
morphology (ndimage), likelihoods and special functions (special), a sparse Laplacian and its
solvers (sparse, sparse.linalg).  Small sizes: the simulator interprets every kernel."""
import warnings

import numpy
import pytest
import scipy.ndimage
import scipy.sparse
import scipy.sparse.linalg
import scipy.special

import npgpu
import npgpu.scipy.ndimage
import npgpu.scipy.sparse
import npgpu.scipy.sparse.linalg
import npgpu.scipy.special


class Mods:
    """The modules a program uses: NumPy/SciPy's or npgpu's."""

    def __init__(self, gpu):
        self.gpu = gpu
        if gpu:
            self.np, self.ndi, self.sp = npgpu, npgpu.scipy.ndimage, npgpu.scipy.special
            self.sparse, self.spla = npgpu.scipy.sparse, npgpu.scipy.sparse.linalg
        else:
            self.np, self.ndi, self.sp = numpy, scipy.ndimage, scipy.special
            self.sparse, self.spla = scipy.sparse, scipy.sparse.linalg

    def put(self, a):
        return npgpu.asarray(a) if self.gpu else numpy.asarray(a)

    def sparse_from(self, h, fmt="csr"):
        return getattr(self.sparse, fmt + "_matrix")(h)


def _host(v):
    """npgpu results read to the host (the only device-to-host copies, at the end)."""
    if isinstance(v, npgpu.ndarray):
        return v.get()
    if npgpu.scipy.sparse.issparse(v):
        return v.get()
    if isinstance(v, dict):
        return {k: _host(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_host(x) for x in v)
    return v


def _compare(want, got, rtol, atol, path="r"):
    if isinstance(want, dict):
        assert set(want) == set(got), path
        for k in want:
            _compare(want[k], got[k], rtol, atol, f"{path}[{k!r}]")
        return
    if scipy.sparse.issparse(want):
        assert scipy.sparse.issparse(got), (path, type(got))
        assert (want.format, want.shape, want.dtype) == (got.format, got.shape, got.dtype), path
        _compare(want.toarray(), got.toarray(), rtol, atol, path)
        return
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(want) == len(got), (path, got)
        for i, (w, g) in enumerate(zip(want, got)):
            _compare(w, g, rtol, atol, f"{path}[{i}]")
        return
    if want is None or isinstance(want, (slice, str, bool, numpy.dtype)):
        assert want == got, (path, want, got)
        return
    w, g = numpy.asarray(want), numpy.asarray(got)
    assert w.shape == g.shape, (path, w.shape, g.shape)
    if isinstance(want, (numpy.ndarray, numpy.generic)):
        assert w.dtype == g.dtype, (path, w.dtype, g.dtype)
    if w.dtype.kind in "fc":
        assert numpy.array_equal(numpy.isnan(w), numpy.isnan(g)), path
        numpy.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=path)
    else:
        numpy.testing.assert_array_equal(g, w, err_msg=path)


def run_both(prog, *args, rtol=1e-10, atol=0.0):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = prog(Mods(False), *args)
        got = _host(prog(Mods(True), *args))
    _compare(want, got, rtol, atol)
    return want


def _tol(dtype):
    return dict(rtol=2e-5, atol=1e-6) if dtype == numpy.float32 else dict(rtol=1e-9, atol=1e-12)


# ---- 1. image pipeline ---------------------------------------------------------------------
def image_pipeline(m, dtype, mode, strided):
    np, ndi = m.np, m.ndi
    img = m.put(numpy.random.default_rng(3).random((40, 34)).astype(dtype))
    if strided:
        img = img[::2, 1:31].T                       # (30, 20), non-contiguous view
    sm = ndi.gaussian_filter(img, 1.2, mode=mode, cval=0.25)
    gx = ndi.sobel(sm, axis=0, mode=mode, cval=0.25)
    gy = ndi.sobel(sm, axis=1, mode=mode, cval=0.25)
    mag = np.hypot(gx, gy)
    edges = mag > np.mean(mag)
    opened = ndi.binary_opening(edges)
    closed = ndi.binary_closing(opened, structure=np.ones((3, 3), dtype=bool))
    lab, n = ndi.label(closed)
    idx = numpy.arange(1, n + 1)
    ext = ndi.extrema(mag, lab, idx)
    return dict(sm=sm, mag=mag, closed=closed, lab=lab, n=n, objs=ndi.find_objects(lab),
                sums=ndi.sum_labels(mag, lab, idx), com=ndi.center_of_mass(mag, lab, idx),
                ext=ext[:2], pos=ext[2:], mean=ndi.mean(img, lab, idx))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("mode,strided", [("reflect", False), ("nearest", True),
                                          ("wrap", False), ("constant", True)])
def test_image_pipeline(dtype, mode, strided):
    r = run_both(image_pipeline, dtype, mode, strided, **_tol(dtype))
    assert r["n"] > 2


# ---- 2. resampling -------------------------------------------------------------------------
def resample(m, dtype, order, mode):
    ndi = m.ndi
    rng = numpy.random.default_rng(5)
    img = m.put(rng.standard_normal((14, 17)).astype(dtype))
    grid_mode = {"constant": "grid-constant", "wrap": "grid-wrap"}.get(mode, mode)
    th = 0.3
    mat = numpy.array([[numpy.cos(th), -numpy.sin(th)], [numpy.sin(th), numpy.cos(th)]]) * 0.9
    yy, xx = numpy.mgrid[0:14:0.75, -1:17:1.5]
    coords = m.put(numpy.stack([yy + 0.1, xx * 0.9]))
    r = dict(
        zoom=ndi.zoom(img, (1.5, 0.7), order=order, mode=mode),
        zoomg=ndi.zoom(img, 2.0, order=order, grid_mode=True, mode=grid_mode),
        shift=ndi.shift(img, (1.3, -2.6), order=order, mode=mode, cval=-1.0),
        rot=ndi.rotate(img, 27.0, reshape=True, order=order, mode=mode),
        rot2=ndi.rotate(img, -33.0, reshape=False, order=order, mode=mode),
        aff=ndi.affine_transform(img, mat, offset=(2.0, -1.5), output_shape=(12, 15),
                                 order=order, mode=mode),
        mc=ndi.map_coordinates(img, coords, order=order, mode=mode),
        u8=ndi.zoom(m.put((rng.random((9, 7)) * 200).astype(numpy.uint8)), 1.7, order=order,
                    mode=mode))
    if order > 1:
        pf = ndi.spline_filter(img, order=order, mode=mode)
        r["mcpf"] = ndi.map_coordinates(pf, coords, order=order, mode=mode, prefilter=False)
    return r


@pytest.mark.parametrize("dtype,order,mode", [
    (numpy.float64, 0, "nearest"), (numpy.float32, 1, "constant"), (numpy.float64, 1, "wrap"),
    (numpy.float64, 3, "reflect"), (numpy.float32, 3, "mirror"), (numpy.float64, 3, "nearest")])
def test_resample(dtype, order, mode):
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == numpy.float32 else dict(rtol=1e-9, atol=1e-10)
    run_both(resample, dtype, order, mode, **tol)


# ---- 3. rank filters, grey morphology, distance transform -------------------------------------
def rank_filters(m, dtype, mode):
    ndi = m.ndi
    img = m.put((numpy.random.default_rng(7).random((18, 21)) * 100).astype(dtype))
    fp = numpy.array([[0, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1]], bool)
    return dict(
        med=ndi.median_filter(img, size=3, mode=mode),
        med53=ndi.median_filter(img, size=(5, 3), mode=mode, cval=7),
        medfp=ndi.median_filter(img, footprint=fp, mode=mode),
        min=ndi.minimum_filter(img, footprint=fp, mode=mode, cval=3),
        max=ndi.maximum_filter(img, footprint=fp, mode=mode, origin=(0, -1)),
        pct=ndi.percentile_filter(img, 30, size=(3, 4), mode=mode),
        rank=ndi.rank_filter(img, -2, size=4, mode=mode),
        u1=ndi.uniform_filter1d(img, 5, axis=0, mode=mode),
        u1s=ndi.uniform_filter1d(img[:, ::2], 4, axis=-1, mode=mode, origin=1),
        gop=ndi.grey_opening(img, size=(3, 3), mode=mode),
        wth=ndi.white_tophat(img, size=3, mode=mode),
        bth=ndi.black_tophat(img, footprint=fp, mode=mode))


@pytest.mark.parametrize("dtype,mode", [(numpy.float32, "reflect"), (numpy.float64, "wrap"),
                                        (numpy.int16, "constant"), (numpy.uint8, "nearest")])
def test_rank_filters(dtype, mode):
    run_both(rank_filters, dtype, mode, rtol=1e-5 if dtype == numpy.float32 else 1e-10,
             atol=1e-4)


def distances(m):
    np, ndi = m.np, m.ndi
    mask = m.put(numpy.random.default_rng(8).random((15, 19)) > 0.15)
    d, ind = ndi.distance_transform_edt(mask, sampling=[1.5, 1], return_indices=True)
    grid = np.indices(mask.shape)
    # ties may name different features: compare the distances the indices imply
    implied = np.sqrt(((ind[0] - grid[0]) * 1.5) ** 2 + (ind[1] - grid[1]) ** 2.0)
    return dict(d1=ndi.distance_transform_edt(mask), d2=d, implied=implied,
                d3=ndi.distance_transform_edt(mask[::2, 1:], sampling=(2.0, 0.5)),
                ind=(ind.dtype, ind.shape))


def test_distance_transform():
    run_both(distances)


# ---- 4. likelihoods and special functions --------------------------------------------------
def likelihoods(m, dtype):
    np, sp = m.np, m.sp
    rng = numpy.random.default_rng(11)
    x = m.put(rng.gamma(2.5, 1.3, size=60).astype(dtype))
    y = m.put(rng.beta(2.0, 3.0, size=60).astype(dtype))
    k = m.put(rng.poisson(3.0, size=60))
    a, s = dtype(2.5), dtype(1.3)
    logits = m.put(rng.standard_normal((5, 7)).astype(dtype) * 10)
    w = m.put(rng.standard_normal((5, 7)).astype(dtype))
    p = sp.expit(logits)
    lse_w, sign = sp.logsumexp(logits, axis=1, b=w, return_sign=True)
    return dict(
        gamma=np.sum(sp.xlogy(a - 1, x) - x / s - sp.gammaln(a) - a * np.log(s)),
        beta=sp.xlogy(1.0, y) + sp.xlog1py(2.0, -y) - sp.betaln(2.0, 3.0),
        beta32=sp.xlog1py(dtype(2.0), -y) - sp.betaln(dtype(2.0), y + 1),
        poisson=np.sum(sp.xlogy(k, 3.0) - 3.0 - sp.gammaln(k + 1)),
        score=sp.digamma(x) - np.log(s), trigamma=sp.polygamma(1, x),
        lse=sp.logsumexp(logits), lse0=sp.logsumexp(logits, axis=0),
        lsek=sp.logsumexp(logits, axis=1, keepdims=True), lse_w=lse_w, sign=sign,
        lse_b=sp.logsumexp(logits, b=2.0), lse_empty=sp.logsumexp(m.put(numpy.zeros(0, dtype))),
        sm=sp.softmax(logits, axis=1), lsm=sp.log_softmax(logits, axis=0),
        roundtrip=sp.logit(p), log_expit=sp.log_expit(logits))


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_likelihoods(dtype):
    run_both(likelihoods, dtype, **_tol(dtype))


def tails_and_edges(m, dtype):
    sp = m.sp
    tiny = 1e-300 if dtype == numpy.float64 else 1e-38
    v = m.put(numpy.array([-40.0, -38.5, -20.0, -8.0, -1.0, 0.0, 0.5, 5.0, 8.5, 30.0,
                           numpy.inf, -numpy.inf, numpy.nan], dtype))
    p = m.put(numpy.array([0.0, tiny, 1e-10, 0.025, 0.5, 0.975, 1 - 1e-7, 1.0, -0.1, 1.1,
                           numpy.nan], dtype))
    e = m.put(numpy.array([-1.0, -0.999999, -0.5, 0.0, -0.0, 1e-20, 0.5, 1.0, 1.5, 27.0],
                          dtype))
    a = m.put(numpy.array([0.1, 0.5, 1.0, 3.0, 20.0, 150.0], dtype)[:, None])
    x = m.put(numpy.array([0.0, 1e-5, 0.3, 1.0, 5.0, 25.0, 160.0, numpy.inf], dtype))
    q = m.put(numpy.array([0.1, 0.2, 0.3, 0.4], dtype))
    pp = m.put(numpy.array([0.25, 0.25, 0.0, 0.5], dtype))
    xx = m.put(numpy.array([0.5, 1.0, 2.0, 10.0, 0.0, -1.0], dtype))
    r = dict(ndtr=sp.ndtr(v), log_ndtr=sp.log_ndtr(v), ndtri=sp.ndtri(p), erf=sp.erf(v),
             erfc=sp.erfc(v), erfcx=sp.erfcx(v), erfinv=sp.erfinv(e),
             P=sp.gammainc(a, x), Q=sp.gammaincc(a, x),
             zeta=sp.zeta(m.put(numpy.array([1.0, 1.5, 2.0, 3.0, 10.0, 0.5, -1.0], dtype))),
             hurwitz=sp.zeta(m.put(numpy.array([2.0, 3.0, 4.5], dtype)), a[:3]),
             pg=sp.polygamma(m.put(numpy.array([0, 1, 2, 3])), x[1:5]),
             entr=sp.entr(xx), rel=sp.rel_entr(pp, q), kl=sp.kl_div(pp, q),
             huber=sp.huber(a[:3], xx - 3))
    for lam in (0.0, 0.5, -1.0):
        r[f"bc{lam}"] = bc = sp.boxcox(xx, lam)
        r[f"ibc{lam}"] = sp.inv_boxcox(bc, lam)
    return r


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_special_tails(dtype):
    tol = dict(rtol=2e-5, atol=1e-6) if dtype == numpy.float32 else dict(rtol=1e-12,
                                                                          atol=1e-14)
    run_both(tails_and_edges, dtype, **tol)


def promotion(m):
    sp = m.sp
    i = m.put(numpy.array([1, 2, 3, 4], numpy.int32))
    f32 = m.put(numpy.array([0.5, 1.5, 2.5, 3.5], numpy.float32))
    o = m.np.empty(4, numpy.float64)
    sp.erf(f32, out=o)
    o32 = m.np.empty((3, 4), numpy.float32)
    same = sp.xlog1py(f32, m.put(numpy.array([[0.1], [0.2], [-0.5]], numpy.float32)),
                      out=o32) is o32
    return dict(a=sp.gammaln(i), b=sp.erf(f32), c=sp.xlogy(f32, 2), d=sp.xlogy(f32, i),
                e=sp.betaln(f32, m.put(numpy.float64(2.0))), f=sp.expit(i.astype(numpy.int8)),
                g=sp.boxcox(f32, 0.5), h=sp.erf(m.put(numpy.float32(0.3))),
                empty=sp.gammaln(m.put(numpy.zeros((0, 3), numpy.float32))),
                z=sp.zeta(f32 + 1), zi=sp.zeta(i + 1), pg=sp.polygamma(1, f32),
                lse=sp.logsumexp(f32), lsei=sp.logsumexp(i), sm=sp.softmax(i), out=o,
                same=same, o32=o32, outer=sp.betaln.outer(f32, f32[:2]))


def test_special_promotion_and_out():
    run_both(promotion, rtol=2e-6)


# ---- 5. sparse Laplacian and solvers -------------------------------------------------------
def laplacian(m, dtype, n=6):
    np, sparse, spla = m.np, m.sparse, m.spla
    T = sparse.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), dtype=dtype)
    eye = sparse.eye(n, dtype=dtype)
    A = sparse.kron(T, eye) + sparse.kron(eye, T)
    coo = A.tocoo()
    csr, csc = coo.tocsr(), coo.tocsr().tocsc()
    rng = numpy.random.default_rng(21)
    x = m.put(rng.standard_normal(n * n).astype(dtype))
    X = m.put(rng.standard_normal((n * n, 6)).astype(dtype))
    b = m.put(numpy.ones(n * n, dtype))
    d = m.put(numpy.array([1.0, 0.0, 2.0, 0.0, 3.0], dtype))
    rr = m.put(numpy.array([0, 1, 1, 2, 0]))
    C = sparse.coo_matrix((d, (rr, rr)), shape=(3, 3))
    nnz0 = C.nnz
    C.sum_duplicates()
    Z = sparse.csr_matrix(C)
    Z.eliminate_zeros()
    rtol = 1e-5 if dtype == numpy.float32 else 1e-10     # reachable in the dtype
    xcg, info = spla.cg(csr, b, rtol=rtol, atol=0)
    xgm, info2 = spla.gmres(csr, b, rtol=rtol, atol=0, restart=20)
    return dict(fmt=A.format, dtype=A.dtype, nnz=A.nnz, mv=csr @ x, mvc=csc @ x, mvcoo=coo @ x,
                mm=csr @ X, mm_strided=csr @ X[:, ::2], mm_rev=csc @ X[::-1, 1:4],
                ss=(csr @ csc.T).tocsr(), T=csr.T, sum0=csr.sum(axis=0), sum1=csc.sum(axis=1),
                diag=csr.diagonal(), diag1=csc.diagonal(k=1), rows=csr[3:9], cols=csc[:, 2:7],
                pick=csr[[1, 4, 4]], C=C, nnzs=(nnz0, C.nnz, Z.nnz), Z=Z,
                diff=csc - csr.T * 2, scaled=csr.multiply(X[:, :1]),
                info=(info, info2), cg=xcg, gmres=xgm, spsolve=spla.spsolve(csc, b),
                spsolve_many=spla.spsolve(csr, m.put(numpy.eye(n * n, 3, dtype=dtype))))


@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32])
def test_sparse_laplacian(dtype):
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == numpy.float32 else dict(rtol=1e-8, atol=1e-10)
    run_both(laplacian, dtype, **tol)


def integer_stencil(m):
    """The common ``diags([1, -2, 1], ...)`` with integer diagonals (SciPy 1.17: float64)."""
    sparse, spla = m.sparse, m.spla
    T = sparse.diags([1, -2, 1], [-1, 0, 1], shape=(8, 8), format="csr")
    b = m.put(numpy.linspace(-1.0, 1.0, 8))
    x, info = spla.cg(-T, b, rtol=1e-12, atol=0)
    return dict(T=T, x=x, info=info)


def test_sparse_integer_stencil():
    run_both(integer_stencil, rtol=1e-9, atol=1e-12)
