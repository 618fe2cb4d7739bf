"""Realistic ``@npgpu.fuse`` functions (layer norm, softmax, GELU, an Adam step, Huber loss,
cosine similarity, column statistics, integer mixes) run on npgpu and, as plain functions, on
NumPy: same dtypes, shapes and values; and NEP 50 for Python scalars inside a fused function
(arithmetic among Python scalars stays Python arithmetic, scalars rebind on ``+=``)."""
import numpy
import pytest

import npgpu as np

RNG = numpy.random.default_rng(2026)


def host(v):
    return v.get() if isinstance(v, np.ndarray) else numpy.asarray(v)


def check(got, want, dt):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            check(g, w, dt)
        return
    g, w = host(got), numpy.asarray(want)
    assert g.shape == w.shape and g.dtype == w.dtype, (g.dtype, w.dtype, g.shape, w.shape)
    tol = dict(rtol=2e-4, atol=1e-5) if dt == numpy.float32 else dict(rtol=1e-10, atol=1e-12)
    numpy.testing.assert_allclose(g, w, equal_nan=True, **tol)


def programs(xp):
    def layernorm(x, g, b, eps=1e-5):
        m = x.mean(axis=-1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=-1, keepdims=True)
        return (x - m) / xp.sqrt(v + eps) * g + b

    def softmax(x):
        e = xp.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def gelu(x):
        return 0.5 * x * (1 + xp.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))

    def huber(r, d):
        a = xp.abs(r)
        return xp.where(a <= d, 0.5 * r * r, d * (a - 0.5 * d)).sum()

    def cosine(a, b):
        return (a * b).sum(axis=1) / (xp.sqrt((a * a).sum(axis=1)) *
                                      xp.sqrt((b * b).sum(axis=1)))

    def stats(x):
        return (x.min(axis=0), x.max(axis=0), x.argmax(axis=0), x.std(axis=0, ddof=1),
                xp.any(x > 1, axis=0))

    def adam(p, g, m, v, lr, b1, b2, t):
        m *= b1
        m += (1 - b1) * g
        v *= b2
        v += (1 - b2) * g * g
        mh = m / (1 - b1 ** t)
        vh = v / (1 - b2 ** t)
        p -= lr * mh / (xp.sqrt(vh) + 1e-8)
        return p, m, v

    return dict(layernorm=layernorm, softmax=softmax, gelu=gelu, huber=huber, cosine=cosine,
                stats=stats, adam=adam)


GP, NP = programs(np), programs(numpy)
DTS = [numpy.float32, numpy.float64]


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("view", ["c", "reversed", "strided"])
def test_row_programs(dt, view):
    X = RNG.standard_normal((6, 33)).astype(dt)
    G, B = RNG.standard_normal(33).astype(dt), RNG.standard_normal(33).astype(dt)
    sel = {"c": (slice(None), slice(None)), "reversed": (slice(None), slice(None, None, -1)),
           "strided": (slice(None, None, 2), slice(None))}[view]
    x, h = np.asarray(X)[sel], X[sel]
    for name, args, hargs in [("layernorm", (x, np.asarray(G), np.asarray(B)), (h, G, B)),
                              ("softmax", (x,), (h,)), ("gelu", (x,), (h,)),
                              ("stats", (x,), (h,))]:
        f = np.fuse(GP[name])
        for _ in range(2):                     # the traced call, then the replay
            check(f(*args), NP[name](*hargs), dt)


@pytest.mark.parametrize("dt", DTS)
def test_scalar_parameters_keep_the_array_dtype(dt):
    """Python floats given to a fused function, combined with each other (`0.5 * d`) before
    meeting the array, are weak as in NumPy: the float32 loss stays float32."""
    X, Y = RNG.standard_normal((5, 17)).astype(dt), RNG.standard_normal((5, 17)).astype(dt)
    h = np.fuse(GP["huber"])
    for d in (0.7, 1.5):
        check(h(np.asarray(X), d), NP["huber"](X, d), dt)
    check(np.fuse(GP["cosine"])(np.asarray(X), np.asarray(Y)), NP["cosine"](X, Y), dt)


@pytest.mark.parametrize("dt", DTS)
def test_adam_steps_update_arguments_in_place(dt):
    P, Gr = RNG.standard_normal(40).astype(dt), RNG.standard_normal(40).astype(dt)
    M, V = RNG.random(40).astype(dt), RNG.random(40).astype(dt)
    gp_args = [np.asarray(a) for a in (P, M, V)]
    hp_args = [a.copy() for a in (P, M, V)]
    f = np.fuse(GP["adam"])
    for t in range(1, 4):
        r = f(gp_args[0], np.asarray(Gr), gp_args[1], gp_args[2], 1e-3, 0.9, 0.999, t)
        want = NP["adam"](hp_args[0], Gr, hp_args[1], hp_args[2], 1e-3, 0.9, 0.999, t)
    check(tuple(gp_args), tuple(hp_args), dt)
    check(r, want, dt)


def _weak_cases():
    def rebinds(r, d):
        d *= 2                  # a Python float: a new value, still weak
        s = d
        s += 1
        return r * d + s

    def numpy_scalar(r, s):
        e = s
        s *= 2                  # a NumPy scalar is immutable: e keeps the old value
        return r * e + s

    def powers(r, d):
        d **= 2
        return r * d - d ** 3 + (-d)

    def ints(r, n):
        return r * (n / 2) + (n // 2) + (-n) + abs(n - 7)

    return [(rebinds, 0.7), (numpy_scalar, numpy.float32(0.7)), (powers, 3),
            (powers, 1.25), (ints, 3)]


@pytest.mark.parametrize("case", range(5))
@pytest.mark.parametrize("dt", [numpy.float32, numpy.int16])
def test_python_scalar_arithmetic_inside(case, dt):
    f, s = _weak_cases()[case]
    if dt == numpy.int16 and (isinstance(s, (float, numpy.floating)) or f.__name__ == "ints"):
        pytest.skip("float scalars or true division make floats")
    X = RNG.integers(-20, 20, 12).astype(dt)
    fused = np.fuse(f)
    for _ in range(2):
        check(fused(np.asarray(X), s), f(X, s), numpy.float32)


def test_zero_d_array_argument_updates_in_place():
    def bump(r, z):
        z += 1
        return r + z
    X = RNG.standard_normal(8).astype(numpy.float32)
    z = np.asarray(numpy.float32(2.0))
    hz = numpy.array(numpy.float32(2.0))
    check(np.fuse(bump)(np.asarray(X), z), bump(X, hz), numpy.float32)
    assert z.get() == hz == 3.0


def test_integer_mixes():
    def mixed(i, f):
        return (i * 3 + f) // 2, i % 3 == 0, (i >> 1).astype(numpy.float32) * f
    I = RNG.integers(-50, 50, (5, 7)).astype(numpy.int32)
    F = RNG.standard_normal((5, 7)).astype(numpy.float32)
    g = np.fuse(mixed)
    check(g(np.asarray(I), np.asarray(F)), mixed(I, F), numpy.float32)
    check(g(np.asarray(I), np.asarray(F[0])), mixed(I, F[0]), numpy.float32)
    check(g(np.asarray(I), 2.5), mixed(I, 2.5), numpy.float32)
