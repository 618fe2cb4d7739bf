"""Small signal-processing and simulation programs run twice, with NumPy and with npgpu (the
module is a parameter): spectrograms, FFT convolution and n-D transforms, filtering, Lorenz RK4,
linear dynamics, polynomial fits, random walks, complex numerics, padding and geometry.  Each
compares every result's dtype, shape and values (NaN positions) with NumPy's; the npgpu run
reads device data only at the end (``to_host``) or where a program asks for a host value."""
import warnings

import numpy
import pytest

import npgpu
from workload_harness import compare, tol, to_host

FLOATS = [numpy.float32, numpy.float64]
COMPLEX = [numpy.complex64, numpy.complex128]


def run_both(program, *args, dtype, loose=1.0):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)    # NumPy's divide-by-zero warnings
        want = program(numpy, *args)
    got = to_host(program(npgpu, *args))
    compare(want, got, *tol(dtype, loose))


# ---- 1. spectrogram ------------------------------------------------------------------------
def spectrogram(xp, dt, win):
    rng = numpy.random.default_rng(1)
    t = numpy.arange(160) / 100.0
    sig = (numpy.sin(2 * numpy.pi * 12 * t) + 0.3 * rng.standard_normal(160)).astype(dt)
    x = xp.asarray(sig)
    frames = xp.lib.stride_tricks.sliding_window_view(x, 32)[::8]      # hop 8 by slicing
    w = xp.kaiser(32, 8.6) if win == "kaiser" else getattr(xp, win)(32)
    spec = xp.fft.rfft(frames * w, axis=-1)
    p = xp.abs(spec) ** 2
    logp = 10 * xp.log10(xp.maximum(p, 1e-10))
    f = xp.fft.rfftfreq(32, d=0.01)
    f2 = xp.fft.fftshift(xp.fft.fftfreq(32, 0.01))
    full = xp.fft.fftshift(xp.fft.fft(frames[:, ::-1] * w), axes=-1)
    return frames.shape, logp, f, f2, full, xp.argmax(p, axis=-1), w, p.mean(axis=0)


@pytest.mark.parametrize("win", ["hanning", "hamming", "blackman", "kaiser"])
@pytest.mark.parametrize("dt", FLOATS)
def test_spectrogram(dt, win):
    run_both(spectrogram, dt, win, dtype=dt, loose=10)


# ---- 2. FFT convolution, correlation, n-D transforms ----------------------------------------
def fft_convolution(xp, dt):
    rng = numpy.random.default_rng(2)
    a = xp.asarray(rng.standard_normal(37).astype(dt))
    b = xp.asarray(rng.standard_normal(11).astype(dt))
    n = a.size + b.size - 1
    conv = xp.fft.irfft(xp.fft.rfft(a, n=n) * xp.fft.rfft(b, n=n), n=n)      # odd n
    corr = xp.fft.irfft(xp.fft.rfft(a, n=n) * xp.conj(xp.fft.rfft(b[::-1], n=n)), n=n)
    return (conv, xp.convolve(a, b), corr, xp.correlate(a, b, mode="full"),
            xp.convolve(a, b, mode="same"), xp.correlate(a, b[::2], "valid"),
            xp.fft.irfft(xp.fft.rfft(a), n=37))


def image_transforms(xp, dt):
    rng = numpy.random.default_rng(3)
    im = xp.asarray(rng.standard_normal((12, 10)).astype(dt))
    F = xp.fft.fft2(im, norm="ortho")
    Ff = xp.fft.fft2(im.T, norm="forward")
    r2 = xp.fft.rfft2(im[::-1, ::2], s=(12, 8))
    vol = xp.asarray(rng.standard_normal((4, 6, 5)).astype(dt))
    rn = xp.fft.rfftn(vol, axes=(2, 0))
    return (F, xp.fft.ifft2(F, norm="ortho").real, Ff, xp.fft.ifft2(Ff, norm="forward"), r2,
            xp.fft.irfft2(r2, s=(12, 9)), xp.fft.fftn(vol, axes=(0, 2)),
            xp.fft.ifftn(vol, s=(5, 8), axes=(1, 2), norm="ortho"), rn,
            xp.fft.irfftn(rn, s=(4, 5), axes=(2, 0)), xp.fft.hfft(xp.fft.ihfft(im[0]), n=10),
            xp.fft.ihfft(im[:, 1]), xp.fft.hfft(im[2, :6]),
            xp.fft.ifftshift(xp.fft.fftshift(F, axes=(0,)), axes=0))


def complex_transforms(xp, dt):
    rng = numpy.random.default_rng(4)
    z = xp.asarray((rng.standard_normal((5, 9)) + 1j * rng.standard_normal((5, 9))).astype(dt))
    out = xp.empty((5, 9), dtype=dt)
    xp.fft.fft(z.T, axis=0, out=out.T)
    return (xp.fft.fft(z, n=12, axis=0), xp.fft.ifft(z[::-1, ::2], norm="forward"), out,
            xp.fft.fft(z[:, :0], n=4), xp.fft.fft(z[0], n=5), xp.fft.hfft(z[1]),
            xp.fft.irfft(z[2], n=7))


@pytest.mark.parametrize("dt", FLOATS)
def test_fft_convolution_and_images(dt):
    run_both(fft_convolution, dt, dtype=dt, loose=20)
    run_both(image_transforms, dt, dtype=dt, loose=20)


@pytest.mark.parametrize("dt", COMPLEX)
def test_complex_transforms(dt):
    run_both(complex_transforms, dt, dtype=dt, loose=20)


# ---- 3. filtering ----------------------------------------------------------------------------
def filtering(xp, dt):
    rng = numpy.random.default_rng(5)
    x = xp.asarray((numpy.cumsum(rng.standard_normal(60)) + 3).astype(dt))
    c = xp.cumsum(x, dtype=dt)
    k = 5
    c0 = xp.concatenate((xp.zeros(1, dtype=dt), c))
    rows = xp.asarray(rng.standard_normal((8, 6)).astype(dt))
    sm = xp.empty_like(rows)                  # exponential smoothing, in place row by row
    sm[0] = rows[0]
    for i in range(1, rows.shape[0]):
        sm[i] = sm[i - 1]
        sm[i] *= 1 - 0.3
        sm[i] += 0.3 * rows[i]
    tt = xp.asarray(numpy.sort(rng.uniform(0, 5, 60)).astype(dt))
    return (c, (c[k:] - c[:-k]) / k, (c0[k:] - c0[:-k]) / k, sm, xp.diff(x),
            xp.diff(rows, n=2, axis=0), xp.diff(x, prepend=x[0], append=0.0),
            xp.gradient(x, 0.1), xp.gradient(x, 0.1, edge_order=2),
            xp.gradient(x, tt, edge_order=2), xp.gradient(rows, 0.5, 2.0, edge_order=2),
            xp.gradient(rows.T, axis=1))


def phases(xp, dt):
    rng = numpy.random.default_rng(6)
    ph = numpy.cumsum(rng.uniform(0, 1.2, 50)).astype(dt)
    z = xp.exp(1j * xp.asarray(ph))
    ang = xp.angle(z)
    deg = xp.angle(z, deg=True)
    ang2 = xp.asarray(numpy.mod(ph, 2 * numpy.pi).reshape(5, 10).T.copy())
    xi = xp.asarray(rng.uniform(-400, 400, 20).astype(dt))
    xs = xp.asarray(numpy.array([-170., -90, 0, 45, 90, 170, 180]).astype(dt))
    fp = xp.asarray(numpy.arange(1.0, 8.0).astype(dt))
    return (ang, xp.unwrap(ang), xp.unwrap(ang[::-1], discont=4.0), deg,
            xp.unwrap(deg, period=360), xp.unwrap(ang2, axis=0),
            xp.interp(xi, xs, fp, period=360), xp.interp(xi, xs, fp, left=-1, right=-2),
            xp.interp(xi, xs, fp + 1j * fp[::-1]),
            xp.unwrap(xp.asarray([0, 5, 9, 1, 12]), period=7))


@pytest.mark.parametrize("dt", FLOATS)
def test_filtering_and_phase(dt):
    run_both(filtering, dt, dtype=dt, loose=20)
    run_both(phases, dt, dtype=dt, loose=20)


# ---- 4. ODE integration ----------------------------------------------------------------------
def lorenz(xp, dt):
    sigma, rho, beta = 10.0, 28.0, 8.0 / 3.0

    def f(s):
        x, y, z = s[..., 0], s[..., 1], s[..., 2]
        return xp.stack([sigma * (y - x), x * (rho - z) - y, x * y - beta * z], axis=-1)

    rng = numpy.random.default_rng(7)
    s = xp.asarray((rng.standard_normal((4, 3)) + [1, 1, 20]).astype(dt))
    h = dt(0.005)
    hist = [s.copy()]
    for _ in range(50):
        k1 = f(s)
        k2 = f(s + h / 2 * k1)
        k3 = f(s + h / 2 * k2)
        k4 = f(s + h * k3)
        s += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        hist.append(s.copy())
    H = xp.stack(hist)
    return (H, xp.vstack([hh[None] for hh in hist[::10]]),
            xp.linalg.norm(H[1:] - H[:-1], axis=-1), H.max(axis=(0, 1)), xp.hstack(hist[:3]),
            xp.dstack(hist[:2]))


def oscillators(xp, dt):
    rng = numpy.random.default_rng(8)
    x = xp.asarray(rng.standard_normal(8).astype(dt))
    v = xp.zeros(8, dtype=dt)
    k = xp.asarray(rng.uniform(1, 4, 8).astype(dt))
    tmp = xp.empty_like(x)
    out = []
    for _ in range(40):
        xp.multiply(k, x, out=tmp)
        tmp += 0.1 * v
        v -= 0.05 * tmp
        xp.add(x, 0.05 * v, out=x)
        out.append(x[::2].copy())
    return xp.array(out), 0.5 * v ** 2 + 0.5 * k * x ** 2, xp.column_stack(out[:4])


@pytest.mark.parametrize("dt", FLOATS)
def test_ode_integration(dt):
    run_both(lorenz, dt, dtype=dt, loose=50)
    run_both(oscillators, dt, dtype=dt, loose=20)


# ---- 5. linear systems and dynamics ----------------------------------------------------------
def matrix_exponentials(xp, dt):
    rng = numpy.random.default_rng(9)
    Q = rng.standard_normal((5, 5))
    A = xp.asarray((Q @ numpy.diag([-1.0, -0.5, 0.3, 0.7, -2.0]) @ numpy.linalg.inv(Q)).astype(dt))
    w, V = xp.linalg.eig(A)
    o = xp.argsort(w.real)
    w, V = w[o], V[:, o]
    E = (V * xp.exp(w * 0.5)) @ xp.linalg.inv(V)
    B = A * 0.5 / 2 ** 4                    # scaling and squaring
    T = xp.eye(5, dtype=dt)
    term = xp.eye(5, dtype=dt)
    for k in range(1, 10):
        term = term @ B / k
        T = T + term
    return (w, E.real, xp.linalg.matrix_power(T, 2 ** 4), xp.linalg.matrix_power(A, 0),
            xp.linalg.matrix_power(A[::-1].T, 3), str(xp.linalg.eigvals(A).dtype))


def implicit_euler(xp, dt):
    n = 12
    L = (numpy.diag(-2.0 * numpy.ones(n)) + numpy.diag(numpy.ones(n - 1), 1)
         + numpy.diag(numpy.ones(n - 1), -1))
    L = xp.asarray(L.astype(dt))
    u = xp.asarray(numpy.exp(-numpy.linspace(-2, 2, n) ** 2).astype(dt))
    M = xp.eye(n, dtype=dt) - 0.3 * L
    hist = []
    for _ in range(10):
        u = xp.linalg.solve(M, u)
        hist.append(u)
    w, v = xp.linalg.eigh(-L)
    x = xp.ones(n, dtype=dt) + xp.arange(n, dtype=dt) / n      # power iteration
    for _ in range(60):
        y = (-L) @ x
        x = y / xp.linalg.norm(y)
    return (xp.stack(hist), w, xp.abs(v[:, -1]), xp.linalg.eigvalsh(-L, UPLO="U"),
            x @ (-L) @ x, xp.linalg.solve(M, xp.stack([u, u[::-1]], axis=1)),
            xp.linalg.det(M), xp.linalg.norm(M, 2), xp.linalg.cond(M))


@pytest.mark.parametrize("dt", FLOATS)
def test_linear_dynamics(dt):
    run_both(matrix_exponentials, dt, dtype=dt, loose=100)
    run_both(implicit_euler, dt, dtype=dt, loose=100)


# ---- 6. polynomial fitting -------------------------------------------------------------------
def polyfits(xp, dt, deg):
    rng = numpy.random.default_rng(10 + deg)
    x = numpy.linspace(-1, 2, 30).astype(dt)
    y = (1.5 - 2 * x + 0.7 * x ** 2 + 0.2 * x ** 3 + 0.05 * rng.standard_normal(30)).astype(dt)
    X, Y = xp.asarray(x), xp.asarray(y)
    W = xp.asarray(rng.uniform(0.5, 2, 30).astype(dt))
    p = xp.polyfit(X, Y, deg)
    p2, cov = xp.polyfit(X, Y, deg, cov=True)
    r = xp.sort_complex(xp.roots(p))
    return (p, xp.polyfit(X[::-1], Y[::-1], deg, w=W[::-1]), p2, cov, xp.polyval(p, X[::3]), r,
            xp.poly(r), xp.polyder(p), xp.polyint(p, k=[1.0]), xp.polyint(p, m=2),
            xp.polyfit(X, xp.stack([Y, 2 * Y], axis=1), deg))


def polynomial_classes(xp, dt, deg):
    rng = numpy.random.default_rng(20)
    x = numpy.linspace(0, 3, 25).astype(dt)
    X = xp.asarray(x)
    Y = xp.asarray((numpy.cos(x) + 0.02 * rng.standard_normal(25)).astype(dt))
    P = xp.polynomial.Polynomial.fit(X, Y, deg)
    C = xp.polynomial.Chebyshev.fit(X, Y, deg, w=xp.ones_like(Y) * 2)
    c = xp.polynomial.chebyshev.chebfit(X, Y, deg)
    return (P.coef, P.domain, P(X), C.coef, C(X[::-1]), c,
            xp.polynomial.chebyshev.chebval(X[::2], c), P.convert().coef, P.deriv().coef,
            C.integ().coef)


@pytest.mark.parametrize("deg", [2, 3, 4])
@pytest.mark.parametrize("dt", FLOATS)
def test_polynomial_fitting(dt, deg):
    run_both(polyfits, dt, deg, dtype=dt, loose=1000)
    run_both(polynomial_classes, dt, deg, dtype=dt, loose=1000)


# ---- 7. Monte Carlo random walks (npgpu's streams are its own: statistics only) ---------------
def random_walks(xp, dt):
    rng = xp.random.default_rng(12)
    steps = rng.choice(xp.asarray([-1, 1]), size=(400, 60))
    pos = xp.cumsum(steps, axis=1)
    hit = xp.abs(pos) >= 8
    ever = hit.any(axis=1)
    fpt = xp.where(ever, xp.argmax(hit, axis=1), -1)
    bm = xp.cumsum(rng.standard_normal((400, 60), dtype=dt) * 0.1, axis=1)
    final = bm[:, -1]
    hist, edges = xp.histogram(final, bins=10, range=(-2, 2), density=True)
    pct = xp.percentile(final, [5, 50, 95])
    return dict(shape=pos.shape, dtypes=(str(pos.dtype), str(final.dtype), str(hist.dtype),
                                         str(pct.dtype), str(fpt.dtype)),
                mean=float(final.mean()), std=float(final.std()), ever=float(ever.mean()),
                fpt=float(fpt[ever].mean()), integral=float((hist * xp.diff(edges)).sum()),
                p5=float(pct[0]), p95=float(pct[2]), msd=float((bm ** 2).mean(axis=0)[-1]))


@pytest.mark.parametrize("dt", FLOATS)
def test_random_walk_statistics(dt):
    want, got = random_walks(numpy, dt), random_walks(npgpu, dt)
    assert got["shape"] == want["shape"] and got["dtypes"] == want["dtypes"]
    assert abs(got["integral"] - 1) < 1e-6
    assert abs(got["mean"]) < 0.2 and abs(got["std"] - want["std"]) < 0.15
    assert abs(got["ever"] - want["ever"]) < 0.15 and abs(got["fpt"] - want["fpt"]) < 6
    assert abs(got["p5"] - want["p5"]) < 0.35 and abs(got["p95"] - want["p95"]) < 0.35
    assert abs(got["msd"] - want["msd"]) < 0.2       # 60 steps of variance 0.01: 0.6


# ---- 8. complex numerics ---------------------------------------------------------------------
def complex_numerics(xp, dt):
    rng = numpy.random.default_rng(11)
    rdt = numpy.finfo(dt).dtype
    th = xp.asarray(rng.uniform(-4, 4, 12).astype(rdt))
    z = (xp.exp(1j * th) * xp.asarray(rng.uniform(0.5, 3, 12).astype(rdt))).astype(dt)
    w = z.copy()
    w.real = xp.arange(12, dtype=rdt)
    w.imag[::2] = -1.5
    w.imag[1::2] *= 2
    num = xp.asarray(numpy.array([1 + 1j, 0, 1, -1j, 1j, numpy.nan, numpy.inf, -2], dtype=dt))
    den = xp.asarray(numpy.array([0, 0, 1j, 0, 0, 0, 1, 1e-30j], dtype=dt))
    zz = z.copy()
    zz *= 1j
    zz /= 2
    zz += 1
    return (xp.conj(z), w, xp.abs(z), xp.angle(z, deg=True), xp.sort_complex(xp.round(z * 3, 1)),
            xp.round(z, 2), num / xp.zeros(8, dtype=dt), num / den, num / 0.0, 1 / num,
            z * numpy.float64(2.5), z * 2.5, z ** 3, z ** -2, z ** -1, z ** 0.5,
            xp.power(z, xp.arange(12) % 4), z ** (1 + 1j), zz, xp.mean(z), xp.var(z),
            xp.abs(z[:0]), xp.sort_complex(z[:0]), xp.vdot(z, z[::-1]))


@pytest.mark.parametrize("dt", COMPLEX)
def test_complex_numerics(dt):
    run_both(complex_numerics, dt, dtype=dt, loose=20)


# ---- 9. image-ish numerics -------------------------------------------------------------------
def padding(xp, dt):
    rng = numpy.random.default_rng(13)
    im = xp.asarray((rng.standard_normal((5, 7)) * 10).astype(dt))
    out = []
    for mode in ("reflect", "symmetric", "edge", "wrap", "linear_ramp", "maximum", "mean",
                 "median", "minimum", "constant"):
        out.append(xp.pad(im, ((2, 3), (1, 4)), mode=mode))
        out.append(xp.pad(im.T[::-1], ((0, 2), (3, 0)), mode=mode))
    return out + [xp.pad(im, ((6, 7), (8, 9)), mode="reflect"),
                  xp.pad(im, ((6, 7), (8, 9)), mode="symmetric", reflect_type="odd"),
                  xp.pad(im, ((6, 7), (8, 9)), mode="wrap"),
                  xp.pad(im, 2, mode="linear_ramp", end_values=((1, -1), (2, 0))),
                  xp.pad(im, ((1, 2), (2, 1)), mode="maximum", stat_length=((1, 2), (3, 2))),
                  xp.pad(im, ((1, 2), (2, 1)), mode="mean", stat_length=2),
                  xp.pad(im, ((1, 2), (2, 1)), constant_values=((1, 2), (3, 4))),
                  xp.pad(im[:1, :1], 3, mode="reflect")]


def geometry(xp, dt):
    rng = numpy.random.default_rng(14)
    v = xp.asarray(rng.standard_normal((3, 4, 5)).astype(dt))
    out = [xp.rot90(v, k, axes) for k in (-1, 1, 2, 5) for axes in ((0, 1), (2, 0))]
    im = v[0]
    A = xp.asarray(rng.standard_normal((6, 3, 4)).astype(dt))
    B = xp.asarray(rng.standard_normal((6, 4, 2)).astype(dt))
    return out + [xp.flip(v), xp.flip(v, (0, 2)), xp.fliplr(v), xp.flipud(im),
                  xp.kron(im, xp.ones((2, 2), dtype=dt)), xp.tile(im[::-1], (2, 3)),
                  xp.tile(im, (2, 1, 1)), xp.einsum("bij,bjk->bik", A, B),
                  xp.einsum("bij,bij->b", A, A), xp.einsum("bii->b", A[:, :, :3]),
                  xp.einsum("bij,jk->bik", A, B[0], optimize=True), A @ B]


@pytest.mark.parametrize("dt", FLOATS + [numpy.int32])
def test_padding(dt):
    run_both(padding, dt, dtype=numpy.float64 if dt == numpy.int32 else dt, loose=20)


@pytest.mark.parametrize("dt", FLOATS + [numpy.complex64])
def test_geometry(dt):
    run_both(geometry, dt, dtype=dt, loose=20)
