"""Repeat calls of vectorize and ElementwiseKernel (issue 18): a call on C-contiguous npgpu
arrays of one shape, with dtypes an earlier such call had, replays that call's launch (the
ufuncs' cached plan, ``ew.ContigPlan``); every other call takes the full path.  Against NumPy."""

import numpy as np
import pytest

import npgpu
from conftest import assert_matches, random_array, raises_like, run_threads
from npgpu._codegen import elementwise as ew
from npgpu._codegen.launcher import _stats
from npgpu.kernels import elementwise as KE
from npgpu.kernels import params as P


def _sq(x):
    if x > 0.5:
        return x * x
    return x - x * x


def _axpy(x, y):
    return x * 2 + y


def _want_sq(h):
    return np.where(h > 0.5, h * h, h - h * h).astype(h.dtype)


def _want_axpy(hx, hy):
    # Numba's typing: float32 * 2 (an int64) is float64 (computed in float32 on the simulator)
    return hx.astype(np.float64) * 2 + hy


def _kernels():
    f = npgpu.vectorize(_sq)
    g = npgpu.vectorize(_axpy)
    k = npgpu.ElementwiseKernel("T x, T y", "T z", "z = x * 2 + y", "axpy_replay")
    return f, g, k


def _boom(*a, **kw):
    raise AssertionError("the full path ran on what should be a replay")


# (3000: the words kernel on the simulator; 5000: past its WORDS_MAX, the element kernel)
@pytest.mark.parametrize("shape", [(3000,), (5000,), (6, 7)])
def test_repeat_calls_replay(rng, monkeypatch, shape):
    f, g, k = _kernels()
    hx, hy = random_array(shape, np.float32, rng, 0, 1), random_array(shape, np.float32, rng)
    x0, y0 = x, y = npgpu.asarray(hx), npgpu.asarray(hy)
    hx0, hy0 = hx, hy
    first = [f(x), g(x, y), k(x, y)]
    assert_matches(first[0], _want_sq(hx), rtol=1e-6)
    with monkeypatch.context() as m:
        # the replay binds nothing, plans nothing and analyses no layout
        m.setattr(ew, "launch", _boom)
        m.setattr(P, "resolve", _boom)
        m.setattr(f, "_plan", _boom)
        m.setattr(g, "_plan", _boom)
        for new_shape in (shape, (4, 5), ()):      # new data, another shape, 0-d
            hx = random_array(new_shape, np.float32, rng, 0, 1)
            hy = random_array(new_shape, np.float32, rng)
            x, y = npgpu.asarray(hx), npgpu.asarray(hy)
            before = _stats["launches"]
            got = [f(x), g(x, y), k(x, y)]
            assert _stats["launches"] - before == 3
            for r, r1 in zip(got, first):
                assert r is not r1 and r._mem is not r1._mem and r.dtype == r1.dtype
            assert_matches(got[0], _want_sq(hx), rtol=1e-6)
            assert_matches(got[1], _want_axpy(hx, hy), rtol=1e-6)
            assert_matches(got[2], hx * np.float32(2) + hy, rtol=1e-6)
        # a contiguous view 4 bytes past an 8-byte boundary: the element kernel, no words
        if len(shape) == 1:
            assert_matches(k(x0[1:], y0[1:]), hx0[1:] * np.float32(2) + hy0[1:], rtol=1e-6)
            assert_matches(f(x0[1:]), _want_sq(hx0[1:]), rtol=1e-6)
        # off: the full path
        m.setattr(KE, "REPLAY", False)
        for call in (lambda: f(x), lambda: g(x, y), lambda: k(x, y)):
            with pytest.raises(AssertionError, match="full path"):
                call()


def test_calls_that_do_not_replay(rng, monkeypatch):
    f, g, k = _kernels()
    hx, hy = random_array((5, 6), np.float32, rng, 0, 1), random_array((5, 6), np.float32, rng)
    x, y = npgpu.asarray(hx), npgpu.asarray(hy)
    f(x), g(x, y), k(x, y)
    # another dtype: a plan of its own (Numba's typing: float64 * int -> float64)
    hd = hx.astype(np.float64)
    assert_matches(f(npgpu.asarray(hd)), _want_sq(hd))
    assert_matches(g(npgpu.asarray(hd), npgpu.asarray(hd)), hd * 2 + hd)
    assert_matches(k(npgpu.asarray(hd), npgpu.asarray(hd)), hd * 2 + hd)
    with monkeypatch.context() as m:
        m.setattr(P, "resolve", _boom)
        m.setattr(f, "_plan", _boom)
        assert_matches(f(npgpu.asarray(hd)), _want_sq(hd))      # ... which replays
        with pytest.raises(AssertionError, match="full path"):  # mixed dtypes: not seen yet
            k(x, npgpu.asarray(hd))
    # non-contiguous, broadcast, scalar and host-list inputs take the full path, right
    assert_matches(g(x.T, y.T), _want_axpy(hx.T, hy.T), rtol=1e-6)
    assert_matches(k(x.T, y.T), hx.T * np.float32(2) + hy.T, rtol=1e-6)
    assert_matches(f(x[:, ::2]), _want_sq(hx[:, ::2]), rtol=1e-6)
    assert_matches(g(x, y[0]), _want_axpy(hx, hy[0]), rtol=1e-6)
    assert_matches(k(x, y[:1]), hx * np.float32(2) + hy[:1], rtol=1e-6)
    assert_matches(g(x, 1.5), (hx * 2 + 1.5).astype(np.float64), rtol=1e-6)
    assert_matches(g([1.0, 2.0], [3.0, 4.0]), np.array([5.0, 8.0]))
    # keywords and defaults bind each call (a default is a scalar input)
    h = npgpu.vectorize(lambda x, y=3: x * y)
    xi = npgpu.arange(4, dtype=np.int16)
    for _ in range(2):
        assert_matches(h(xi), np.arange(4) * 3)
        assert_matches(h(xi, y=xi), np.arange(4) ** 2)     # (Numba: int16 * int16 -> int64)
        assert_matches(h(xi, xi), np.arange(4) ** 2)
    # outputs given, out=, stream=: the full path
    out = npgpu.empty((5, 6), np.float32)
    assert k(x, y, out) is out and k(x, y, out=out) is out
    assert_matches(out, hx * np.float32(2) + hy, rtol=1e-6)
    with npgpu.cuda.Stream() as s:
        assert_matches(k(x, y, stream=s), hx * np.float32(2) + hy, rtol=1e-6)
    # errors after a plan exists are NumPy's (vectorize) and the full path's (the kernel)
    e = npgpu.zeros(0, np.float32)
    f(npgpu.zeros(3, np.float32))
    raises_like(lambda: np.vectorize(_sq)(np.zeros(0, np.float32)), lambda: f(e))
    with pytest.raises(TypeError, match="wrong number of arguments"):
        k(x)
    with pytest.raises(ValueError, match="could not be broadcast"):
        k(x, npgpu.zeros(4, np.float32))


def test_replay_multiple_outputs_empty_and_flags(rng):
    two = npgpu.vectorize(lambda v: (v + 1, v > 0), otypes=[np.int64, bool])
    kk = npgpu.ElementwiseKernel("T x", "T lo, bool pos", "lo = x - 1\npos = x > 0", "two_out")
    tup = npgpu.ElementwiseKernel("T x", "T y", "y = -x", "neg_tuple", return_tuple=True)
    none = npgpu.ElementwiseKernel("T x", "T y", "y = -x", "neg_none", no_return=True)
    for n in (7, 9, 0):             # the last: size 0, which otypes allows (and a replay)
        h = random_array(n, np.int64, rng)
        x = npgpu.asarray(h)
        a, b = two(x)
        assert_matches(a, h + 1)
        assert_matches(b, h > 0)
        lo, pos = kk(x)
        assert_matches(lo, h - 1)
        assert_matches(pos, h > 0)
        (y,) = tup(x)
        assert_matches(y, -h)
        assert none(x) is None
    # arrays cast to the parameters' types on load (same_kind), in the replay as in the first
    kc = npgpu.ElementwiseKernel("float32 x, T y", "float64 z", "z = x + y", "cast_in")
    for n in (5, 8):
        ha, hb = random_array(n, np.float64, rng), random_array(n, np.int16, rng)
        got = kc(npgpu.asarray(ha), npgpu.asarray(hb))
        assert_matches(got, ha.astype(np.float32).astype(np.float64) + hb, rtol=1e-6)


def test_replay_from_two_threads(rng):
    f, g, k = _kernels()
    f(npgpu.zeros(8, np.float32)), g(npgpu.zeros(8, np.float32), npgpu.zeros(8, np.float32))

    def work(seed):
        r = np.random.default_rng(seed)
        for i in range(6):
            n = 40 + 16 * i + seed
            hx, hy = random_array(n, np.float32, r, 0, 1), random_array(n, np.float32, r)
            x, y = npgpu.asarray(hx), npgpu.asarray(hy)
            np.testing.assert_allclose(f(x).get(), _want_sq(hx), rtol=1e-6)
            np.testing.assert_allclose(g(x, y).get(), _want_axpy(hx, hy), rtol=1e-6)
            np.testing.assert_allclose(k(x, y).get(), hx * np.float32(2) + hy, rtol=1e-6)

    run_threads(work, range(2))


def test_replays_forgotten_with_the_kernel_cache(rng):
    # compiler.clear_memory_cache (a knob changed in an experiment) drops the kernel objects'
    # replays too: the next call renders its kernel again instead of replaying the old one
    from npgpu._codegen import compiler
    from npgpu._codegen import elementwise as E
    f, _, ewk = _kernels()
    h = random_array(300, np.float32, rng)
    x = npgpu.asarray(h)
    calls = [(f, (x,), _want_sq(h)), (ewk, (x, x), (h * 2 + h).astype(np.float32))]
    for k, args, _ in calls:
        k(*args)
        k(*args)
        assert k._replays
    rendered = []
    real = E.render

    def render(*a, **kw):
        rendered.append(a[5])
        return real(*a, **kw)
    E.render = render
    try:
        compiler.clear_memory_cache()
        assert not f._replays and not ewk._replays
        for k, args, want in calls:
            assert_matches(k(*args), want)
    finally:
        E.render = real
    assert len(rendered) >= 2
