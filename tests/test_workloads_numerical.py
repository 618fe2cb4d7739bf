"""Small numerical programs run twice, with NumPy and with npgpu (the module is a parameter):
k-means, PCA, least squares, heat equation, Monte Carlo, Mandelbrot, life, an MLP, quadrature,
statistics.  Each compares every result's dtype, shape and values (NaN positions) with NumPy's.
The npgpu run reads device data only at the end (``to_host``) or where NumPy semantics ask for a
host value (``float(x)``, ``int(x)``, ``bool(x)``)."""

import numpy
import pytest

import npgpu
from workload_harness import compare, tol, to_host

FLOATS = [numpy.float32, numpy.float64]


def run_both(program, *args, rtol, atol):
    want = program(numpy, *args)
    got = to_host(program(npgpu, *args))
    compare(want, got, rtol, atol)
    return want, got


# 1. k-means ---------------------------------------------------------------------------------

def kmeans(xp, host, k, dtype):
    X = xp.asarray(host, dtype=dtype).T             # a transposed (F-ordered) input
    C = X[::7][:k].copy()
    for _ in range(4):
        d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=-1)
        lab = d.argmin(axis=1)
        counts = xp.bincount(lab, minlength=k)
        sums = xp.stack([xp.bincount(lab, weights=X[:, j], minlength=k)
                         for j in range(X.shape[1])], axis=1)
        C_w = (sums / xp.maximum(counts, 1)[:, None]).astype(dtype)
        # the same means by masks, a cluster left empty keeps its centre
        C = xp.stack([X[lab == c].mean(axis=0) if int(counts[c]) else C[c] for c in range(k)])
    inertia = d.min(axis=1).sum()
    sizes = xp.zeros(lab.max() + 1, dtype=xp.int64)      # a 0-d device count as the size
    xp.add.at(sizes, lab, 1)
    return {"sizes": sizes, "ids": xp.arange(lab.max() + 1), "C": C, "C_w": C_w, "lab": lab,
            "counts": counts, "inertia": float(inertia),
            "onehot": (lab[:, None] == xp.arange(k)).sum(axis=0), "d": d}


@pytest.mark.parametrize("dtype", FLOATS)
def test_kmeans(dtype):
    rng = numpy.random.default_rng(1)
    centres = numpy.array([[0, 0, 0], [5, 5, 0], [0, 6, 6]], dtype=float)
    host = numpy.concatenate([c + rng.standard_normal((20, 3)) for c in centres])
    host = host[rng.permutation(len(host))].T.copy()
    run_both(kmeans, host, 3, dtype, rtol=tol(dtype, 5)[0], atol=tol(dtype, 5)[1])


# 2. PCA -------------------------------------------------------------------------------------

def pca(xp, host, dtype):
    X = xp.asarray(host, dtype=dtype)[::-1]          # negative strides
    Xc = X - X.mean(axis=0)
    C = xp.cov(Xc, rowvar=False)
    w, V = xp.linalg.eigh(C)
    order = xp.argsort(w)[::-1]
    w, V = w[order], V[:, order]
    # sign convention: each component's largest entry positive
    big = xp.argmax(xp.abs(V), axis=0)
    V = V * xp.sign(V[big, xp.arange(V.shape[1])])
    U, S, Vt = xp.linalg.svd(Xc, full_matrices=False)
    Vs = Vt.T * xp.sign(Vt.T[xp.argmax(xp.abs(Vt.T), axis=0), xp.arange(Vt.shape[0])])
    proj = Xc @ V[:, :2]
    ratio = w / w.sum()
    return {"C": C, "w": w, "V": V, "S": S, "ev": S ** 2 / (X.shape[0] - 1), "Vs": Vs,
            "proj": proj, "ratio": ratio, "cum": xp.cumsum(ratio),
            "ncomp": int(xp.searchsorted(xp.cumsum(ratio), 0.9)) + 1,
            "recon": (U * S) @ Vt}


@pytest.mark.parametrize("dtype", FLOATS)
def test_pca(dtype):
    rng = numpy.random.default_rng(2)
    mix = rng.standard_normal((5, 5)) * numpy.array([5, 3, 1, 0.5, 0.1])[:, None]
    host = rng.standard_normal((40, 5)) @ mix + numpy.arange(5)
    rtol, atol = tol(dtype, 50)
    run_both(pca, host, dtype, rtol=rtol, atol=atol)


# 3. least squares -----------------------------------------------------------------------------

def least_squares(xp, a, b, dtype):
    A = xp.asarray(a, dtype=dtype)
    y = xp.asarray(b, dtype=dtype)
    x, res, rank, sv = xp.linalg.lstsq(A, y, rcond=None)
    M = A.T @ A
    rhs = A.T @ y
    x2 = xp.linalg.solve(M, rhs)
    Minv = xp.linalg.inv(M)
    x4 = xp.linalg.pinv(A) @ y
    Y2 = xp.stack([y, 2 * y], axis=1)
    X2 = xp.linalg.lstsq(A, Y2, rcond=None)[0]
    resid = A @ x - y
    sign, logdet = xp.linalg.slogdet(M)
    return {"x": x, "res": res, "rank": int(rank), "sv": sv, "x2": x2, "x3": Minv @ rhs,
            "x4": x4, "X2": X2, "eye": Minv @ M, "r": xp.linalg.norm(resid),
            "r2": float(xp.sqrt(res[0])), "fro": xp.linalg.norm(A, "fro"),
            "n2": xp.linalg.norm(A, 2), "ninf": xp.linalg.norm(A, xp.inf),
            "cols": xp.linalg.norm(A, ord=1, axis=0), "rows": xp.linalg.norm(A, axis=1),
            "cond": xp.linalg.cond(M), "cond_fro": xp.linalg.cond(M, "fro"),
            "det": xp.linalg.det(M), "sign": sign, "logdet": logdet,
            "solve_many": xp.linalg.solve(M, xp.eye(M.shape[0], dtype=dtype)[:, ::2])}


@pytest.mark.parametrize("dtype", FLOATS)
def test_least_squares(dtype):
    rng = numpy.random.default_rng(3)
    a = rng.standard_normal((20, 4))
    b = a @ numpy.array([1.0, -2.0, 0.5, 3.0]) + 0.1 * rng.standard_normal(20)
    rtol, atol = tol(dtype, 100)
    run_both(least_squares, a, b, dtype, rtol=rtol, atol=atol)


# 4. heat equation -----------------------------------------------------------------------------

def heat(xp, u0, v0, dtype):
    u = xp.asarray(u0, dtype=dtype)
    r = 0.25                                          # a Python float: float32 stays float32
    fixed = u.copy()
    for _ in range(5):
        fixed[1:-1] += r * (fixed[2:] - 2 * fixed[1:-1] + fixed[:-2])
    periodic = u.copy()
    for _ in range(5):
        periodic = periodic + r * (xp.roll(periodic, 1) + xp.roll(periodic, -1) - 2 * periodic)
    v = xp.array(v0, dtype=dtype)                   # a copy: updated in place below
    lap = xp.empty_like(v)
    for mode in ("edge", "reflect", "constant"):
        for _ in range(3):
            p = xp.pad(v, 1, mode=mode)
            xp.subtract(p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:], 4 * v, out=lap)
            v += 0.2 * lap
    w = xp.asarray(v0, dtype=dtype).T[::-1]           # a non-contiguous grid
    for _ in range(3):
        w = w + 0.1 * (xp.roll(w, 1, axis=0) + xp.roll(w, -1, axis=0) + xp.roll(w, 1, axis=1)
                       + xp.roll(w, -1, axis=1) - 4 * w)
    aligned = xp.roll(periodic, -xp.argmax(periodic))   # the peak first: a device shift
    return {"fixed": fixed, "periodic": periodic, "v": v, "w": w, "aligned": aligned,
            "energy": float((v ** 2).sum()), "total": periodic.sum(),
            "max": v.max().item(), "where": int(xp.argmax(w))}


@pytest.mark.parametrize("dtype", FLOATS)
def test_heat(dtype):
    rng = numpy.random.default_rng(4)
    x = numpy.linspace(0, 1, 33)
    u0 = numpy.sin(numpy.pi * x) + 0.1 * rng.standard_normal(33)
    v0 = rng.random((10, 12))
    rtol, atol = tol(dtype, 10)
    run_both(heat, u0, v0, dtype, rtol=rtol, atol=atol)


# 5. Monte Carlo ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_monte_carlo(dtype):
    n = 4000
    rng = npgpu.random.default_rng(42)
    x = rng.random(n, dtype=dtype)
    y = rng.random(n, dtype=dtype)
    assert x.dtype == dtype and x.shape == (n,)
    inside = (x * x + y * y <= 1)
    pi = 4 * float(inside.mean())
    assert abs(pi - numpy.pi) < 4 * 4 * numpy.sqrt(numpy.pi / 4 * (1 - numpy.pi / 4) / n)
    s = rng.normal(1.5, 2.0, size=n)
    mean, std = float(s.mean()), float(s.std(ddof=1))
    assert abs(mean - 1.5) < 5 * 2.0 / numpy.sqrt(n) and abs(std - 2.0) < 0.15
    z = rng.standard_normal(n, dtype=dtype)
    assert z.dtype == dtype
    # the histogram of device samples against NumPy's of the same values
    for args in (dict(bins=12, range=(-5.0, 8.0)), dict(bins=7), dict(bins=7, density=True)):
        counts, edges = npgpu.histogram(s, **args)
        want_c, want_e = numpy.histogram(s.get(), **args)
        compare((want_c, want_e), (counts.get(), edges.get()), 1e-12, 1e-12)
    k = rng.integers(0, 6, size=n)
    counts = npgpu.bincount(k, minlength=6)
    compare(numpy.bincount(k.get(), minlength=6), counts.get(), 0, 0)
    assert abs(float(counts.std() / counts.mean())) < 0.1
    u = rng.uniform(-1.0, 3.0, size=(50, 40))
    assert -1 <= float(u.min()) and float(u.max()) < 3
    compare(numpy.percentile(u.get(), [5, 50, 95], axis=0),
            npgpu.percentile(u, [5, 50, 95], axis=0).get(), 1e-12, 1e-12)


# 6. Mandelbrot ----------------------------------------------------------------------------------

def mandelbrot(xp, dtype):
    x = xp.linspace(-2.0, 0.6, 26, dtype=dtype)
    y = xp.linspace(-1.2, 1.2, 15, dtype=dtype)
    c = x[None, :] + 1j * y[:, None]                  # complex64 from float32
    z = xp.zeros_like(c)
    it = xp.zeros(c.shape, dtype=xp.int32)
    z2 = xp.zeros_like(c)
    for _ in range(12):
        mask = xp.abs(z) <= 2
        z[mask] = z[mask] ** 2 + c[mask]
        it[mask] += 1
        z2 = xp.where(xp.abs(z2) <= 2, z2 * z2 + c, z2)
    inside = xp.abs(z) <= 2
    return {"it": it, "z": xp.where(inside, z, 0), "inside": inside,
            "count": int(inside.sum()), "z2": xp.where(inside, z2, xp.nan),
            "angle": xp.where(inside, xp.angle(z), -10), "real": xp.real(c),
            "conj": xp.conj(c[::-1, ::2])}


@pytest.mark.parametrize("dtype", FLOATS)
def test_mandelbrot(dtype):
    rtol, atol = tol(dtype, 100)
    run_both(mandelbrot, dtype, rtol=rtol, atol=atol)


# 7. life and convolution ------------------------------------------------------------------------

def life(xp, g0, img0, dtype):
    g = xp.asarray(g0)
    for _ in range(4):
        n = sum(xp.roll(xp.roll(g, i, 0), j, 1)
                for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        g = ((n == 3) | ((g == 1) & (n == 2))).astype(xp.uint8)
    img = xp.asarray(img0, dtype=dtype)
    kern = xp.asarray([[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype=dtype) / 16
    win = xp.lib.stride_tricks.sliding_window_view(xp.pad(img, 1, mode="wrap"), (3, 3))
    conv = (win * kern).sum(axis=(-2, -1))
    conv2 = xp.einsum("ijkl,kl->ij", win, kern)
    shifts = xp.zeros_like(img)
    for i in range(3):
        for j in range(3):
            shifts += kern[i, j] * xp.roll(xp.roll(img, 1 - i, 0), 1 - j, 1)
    return {"g": g, "alive": int(g.sum()), "n": n, "nsum": n.sum(axis=(0, 1)),
            "conv": conv, "conv2": conv2, "shifts": shifts, "win": win[::2, ::3]}


@pytest.mark.parametrize("dtype", FLOATS)
def test_life_and_convolution(dtype):
    rng = numpy.random.default_rng(7)
    g0 = (rng.random((12, 14)) < 0.35).astype(numpy.uint8)
    img0 = rng.standard_normal((9, 11))
    rtol, atol = tol(dtype, 10)
    run_both(life, g0, img0, dtype, rtol=rtol, atol=atol)


# 8. a two-layer MLP -----------------------------------------------------------------------------

def mlp(xp, X0, y0, dtype):
    rng = numpy.random.default_rng(8)
    X, y = xp.asarray(X0, dtype=dtype), xp.asarray(y0)
    W1 = xp.asarray(rng.standard_normal((X.shape[1], 6)) * 0.5, dtype=dtype)
    b1 = xp.zeros(6, dtype=dtype)
    W2 = xp.asarray(rng.standard_normal((6, 3)) * 0.5, dtype=dtype)
    b2 = xp.zeros(3, dtype=dtype)
    n, lr, losses = X.shape[0], 0.5, []
    for _ in range(3):
        h = xp.tanh(X @ W1 + b1)
        logits = h @ W2 + b2
        logits -= logits.max(axis=1, keepdims=True)
        p = xp.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        losses.append(float(-xp.log(p[xp.arange(n), y]).mean()))
        dlog = p.copy()
        dlog[xp.arange(n), y] -= 1
        dlog /= n
        dW2, db2 = h.T @ dlog, dlog.sum(axis=0)
        dh = dlog @ W2.T * (1 - h ** 2)
        dW1, db1 = X.T @ dh, xp.mean(dh, axis=0) * n
        g1 = sum(xp.outer(X[i], dh[i]) for i in range(n))   # the same gradient by outer
        W1 -= lr * dW1
        b1 -= lr * db1
        W2 -= lr * dW2
        xp.subtract(b2, lr * db2, out=b2)
    acc = (xp.argmax(p, axis=1) == y).mean()
    return {"W1": W1, "b1": b1, "W2": W2, "b2": b2, "p": p, "g1": g1, "dW1": dW1,
            "losses": losses, "acc": acc, "lse": xp.log(xp.exp(logits).sum(-1, keepdims=True))}


@pytest.mark.parametrize("dtype", FLOATS)
def test_mlp(dtype):
    rng = numpy.random.default_rng(9)
    X0 = rng.standard_normal((16, 4))
    y0 = (X0[:, 0] > 0).astype(numpy.int64) + (X0[:, 1] > 0.5)
    rtol, atol = tol(dtype, 20)
    run_both(mlp, X0, y0, dtype, rtol=rtol, atol=atol)


# 9. quadrature, interpolation, fitting ------------------------------------------------------------

def calculus(xp, dtype):
    x = xp.linspace(0, 3, 41, dtype=dtype)
    y = xp.sin(x) * xp.exp(-x / 2)
    dx = x[1] - x[0]
    cum = xp.concatenate([xp.zeros(1, dtype=dtype), xp.cumsum((y[1:] + y[:-1]) / 2 * xp.diff(x))])
    xi = xp.linspace(0.1, 2.9, 17, dtype=dtype)
    p = xp.polyfit(x, y, 5)
    Z = xp.outer(y, y[::-2])
    return {"I": xp.trapezoid(y, x), "Idx": xp.trapezoid(y, dx=float(dx)), "cum": cum,
            "last": float(cum[-1]), "d2": xp.diff(y, n=2), "g": xp.gradient(y, x),
            "g2": xp.gradient(y, dx, edge_order=2), "gZ": xp.gradient(Z),
            "gZ1": xp.gradient(Z, axis=1), "interp": xp.interp(xi, x, y),
            "interp_lr": xp.interp(xp.asarray([-1.0, 1.5, 9.0]), x, y, left=0, right=-1),
            "p": p, "pv": xp.polyval(p, xi), "p1": xp.polyfit(x, 2.5 * x - 1, 1),
            "trapZ": xp.trapezoid(Z, axis=0)}


@pytest.mark.parametrize("dtype", FLOATS)
def test_calculus(dtype):
    rtol, atol = tol(dtype, 100)
    run_both(calculus, dtype, rtol=rtol, atol=atol)


# 10. statistics -----------------------------------------------------------------------------------

def statistics(xp, host, nan_mask, dtype):
    A = xp.asarray(host, dtype=dtype)
    B = A.copy()
    B[xp.asarray(nan_mask)] = xp.nan
    M = A.reshape(8, -1)[:, ::3]
    x = A[:, 0, 0]
    ranks = xp.argsort(xp.argsort(x))
    Z = (A - A.mean(axis=(0, 2), keepdims=True)) / A.std(axis=(0, 2), ddof=1, keepdims=True)
    C = A.copy()
    xp.clip(C, -1, 1, out=C)
    tens = xp.zeros(5, dtype=xp.int32)                  # summed in float, then truncated
    xp.sum(A * 10, axis=(0, 2), out=tens)
    return {"mean02": A.mean(axis=(0, 2)), "std02": A.std(axis=(0, 2), ddof=1),
            "var0": A.var(axis=0, ddof=1), "var": xp.var(A.T), "Z": Z,
            "nanmean": xp.nanmean(B, axis=0), "nanstd": xp.nanstd(B, axis=1, ddof=1),
            "nanvar": xp.nanvar(B, axis=(1, 2)), "nanmean_all": float(xp.nanmean(B)),
            "mean_nan": B.mean(axis=2), "nanmax": xp.nanmax(B, axis=2),
            "nanmedian": xp.nanmedian(B, axis=0),
            "pct": xp.percentile(A, [10, 50, 90], axis=0), "med": xp.median(A, axis=-1),
            "q": xp.quantile(A[::-1], 0.25, axis=(0, 1)), "corr": xp.corrcoef(M),
            "corr2": xp.corrcoef(x, A[:, 1, 1]), "ranks": ranks, "clip": xp.clip(A, -1, 1),
            "clip_out": C, "tens": tens, "around": xp.around(A, 2), "round1": xp.round(A * 10, -1),
            "average": xp.average(A, axis=0, weights=xp.arange(1, A.shape[0] + 1)),
            "ptp": xp.ptp(A, axis=1), "argmax": int(A.argmax()), "std_item": A.std().item()}


@pytest.mark.parametrize("dtype", FLOATS)
def test_statistics(dtype):
    rng = numpy.random.default_rng(10)
    host = rng.standard_normal((8, 5, 4)) * 3 + 1
    nan_mask = rng.random((8, 5, 4)) < 0.15
    rtol, atol = tol(dtype, 10)
    run_both(statistics, host, nan_mask, dtype, rtol=rtol, atol=atol)
