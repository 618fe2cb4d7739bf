"""npgpu.random: the Philox4x32-10 stream against a NumPy reference, API, shapes, errors."""
import pickle
import re

import numpy as np
import pytest

import npgpu
import npgpu.random as R
from npgpu.random import permutations as _shuffle, philox
from npgpu.random.kernels import Sampler, launch

M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
MASK = np.uint64(0xFFFFFFFF)


def philox_ref(ctr, key):
    """Philox4x32-10 in NumPy (Salmon et al. 2011): ctr (..., 4) words, key 2 words."""
    ctr = np.asarray(ctr, np.uint64)
    c0, c1, c2, c3 = (ctr[..., i] for i in range(4))
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    for r in range(10):
        if r:
            k0, k1 = (k0 + np.uint64(W0)) & MASK, (k1 + np.uint64(W1)) & MASK
        p0, p1 = c0 * np.uint64(M0), c2 * np.uint64(M1)
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & MASK,
                          (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & MASK)
    return np.stack([c0, c1, c2, c3], -1).astype(np.uint32)


def stream_ref(counter, key, n, per):
    """The four words of the block of each element and its lane (philox.py's layout: element
    ``i`` is lane ``i % per`` of block ``i // per``)."""
    i = np.arange(n)
    lane = i % per
    blocks = [counter + int(b) for b in i // per]
    ctr = np.array([[(c >> (32 * w)) & 0xFFFFFFFF for w in range(4)] for c in blocks], np.uint64)
    return philox_ref(ctr, [key & 0xFFFFFFFF, key >> 32]), lane


# Random123's known-answer vectors (kat_vectors): counter, key -> output
KAT = [((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
       ((0xFFFFFFFF,) * 4, (0xFFFFFFFF,) * 2, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
       ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1))]


@pytest.mark.parametrize("ctr,key,want", KAT)
def test_reference_known_answers(ctr, key, want):
    assert tuple(int(x) for x in philox_ref(ctr, key)) == want


def _longlong_as_double(x):
    a = np.empty(1, np.int64)
    a[0] = x
    return a.view(np.float64)[0]


def _njit_helpers():
    """The device helpers compiled by Numba for the CPU: the same integer typing rules as the
    GPU target (the simulator computes with NumPy scalars, which type differently)."""
    import math
    import numba
    from numba import types as nt
    import types
    ns = {"math": math, "numba": numba}
    for t in ("uint32", "uint64", "int64", "float32", "float64"):
        ns[t] = getattr(nt, t)
    # the libdevice functions the helpers call, as CPU functions of the same types
    lib = types.ModuleType("libdevice")
    lib.umulhi = numba.njit(lambda a, b: nt.int32((nt.uint64(nt.uint32(a)) * nt.uint64(
        nt.uint32(b))) >> nt.uint64(32)))
    lib.sincospif = numba.njit(lambda x: (nt.float32(math.sin(math.pi * x)),
                                          nt.float32(math.cos(math.pi * x))))
    lib.sincospi = numba.njit(lambda x: (math.sin(math.pi * x), math.cos(math.pi * x)))
    lib.longlong_as_double = numba.njit(_longlong_as_double)
    ns["libdevice"] = lib
    wide = types.ModuleType("ptx")      # npgpu._codegen.ptx.mul_wide_u32 on the CPU
    wide.mul_wide_u32 = numba.njit(lambda a, b: (
        nt.uint32(nt.uint64(a) * nt.uint64(b)),
        nt.uint32((nt.uint64(a) * nt.uint64(b)) >> nt.uint64(32))))
    wide.sqrt_approx = numba.njit(lambda x: nt.float32(math.sqrt(x)))
    ns["ptx"] = wide
    src = "\n".join(philox.HELPERS[i] for i in (0, 1, 3, 4, 5))
    src = "\n".join(("@numba.njit\ndef " + c) for c in ("\n" + src).split("\ndef ")[1:])
    exec(src, ns)
    return ns


@pytest.mark.parametrize("ctr,key,want", KAT)
def test_device_philox_under_numba_typing(ctr, key, want):
    ns = _njit_helpers()
    from numba import types as nt
    got = ns["philox"](*(nt.uint32(c) for c in ctr), nt.uint32(key[0]), nt.uint32(key[1]))
    assert tuple(int(x) for x in got) == want


def test_device_lanes_under_numba_typing():
    ns = _njit_helpers()
    from numba import types as nt
    rng = np.random.default_rng(5)
    words = rng.integers(0, 2 ** 32, 64, dtype=np.uint64)
    for a, b in words.reshape(-1, 2):
        assert ns["u01_f32"](nt.uint32(a)) == np.float32(int(a) >> 8) * np.float32(2 ** -24)
        k = ((int(a) << 32) | int(b)) >> 11
        assert ns["u01_f64"](nt.uint32(a), nt.uint32(b)) == k * 2.0 ** -53
        assert ns["open_f64"](nt.uint32(a), nt.uint32(b)) == (k + 0.5) * 2.0 ** -53
        m = int(b) % 1000 + 1
        # no rejection for these words (the low product >= the threshold) -> the high product
        if (int(a) * m) % 2 ** 32 >= (2 ** 32 - m) % m:
            got = ns["bounded32"](nt.uint32(a), nt.uint64(m), nt.uint32(1), nt.uint32(2),
                                  nt.uint64(0), nt.uint64(0), nt.uint64(0), 0)
            assert got == (int(a) * m) >> 32
        x, y = int(a) << 20 | 12345, int(b) * 977
        assert ns["mulhi64"](nt.uint64(x), nt.uint64(y)) == (x * y) >> 64


@pytest.mark.parametrize("counter", [0, 12345, (1 << 64) - 40, (1 << 128) - 7])
def test_raw_words_match_reference(counter):
    key = 0x0123456789ABCDEF
    bg = R.Philox(counter=counter, key=key)
    got = bg.random_raw(300).get()
    words, lane = stream_ref(counter, key, 300, 4)
    np.testing.assert_array_equal(got, words[np.arange(300), lane])
    blocks = -(-300 // 4)
    assert bg.state["state"]["counter"].tolist() == [
        ((counter + blocks) % 2 ** 128 >> (32 * w)) & 0xFFFFFFFF for w in range(4)]


def test_uniforms_match_reference():
    key = 987654321
    g = R.Generator(R.Philox(key=key))
    f64 = g.random(100).get()
    w, lane = stream_ref(0, key, 100, 2)
    hi = w[np.arange(100), 2 * lane].astype(np.uint64)
    lo = w[np.arange(100), 2 * lane + 1].astype(np.uint64)
    np.testing.assert_array_equal(f64, ((hi << np.uint64(32) | lo) >> np.uint64(11)) * 2.0 ** -53)
    c = -(-100 // 2)
    f32 = g.random(200, dtype=np.float32).get()
    w, lane = stream_ref(c, key, 200, 4)
    ref = (w[np.arange(200), lane] >> 8).astype(np.float32) * np.float32(2 ** -24)
    np.testing.assert_array_equal(f32, ref)


@pytest.fixture(params=[True, False], ids=["block-stores", "element-stores"])
def stage(request, monkeypatch):
    """Both store forms: a block's elements as one 16- or 8-byte store where the output allows
    (the default, ``kernels.store_width``) and element by element."""
    from npgpu.random import kernels
    if not request.param:
        monkeypatch.setattr(kernels, "store_width", lambda out_dt, per: 0)
    monkeypatch.setattr(kernels, "_PLANS", {})
    return request.param


@pytest.mark.parametrize("dtype,n", [(np.int64, 256), (np.int32, 300), (np.uint32, 128),
                                     (np.int16, 77), (np.uint8, 130), (np.int8, 66),
                                     (np.uint64, 31)])
def test_integers_match_reference_without_rejection(dtype, n, stage):
    """Either store form (a block's 4 values as 16-byte stores for int32/uint32, two for
    int64/uint64, one 8-byte store for int16, a 4-byte one for int8/uint8); whole blocks and
    a partial last block."""
    key = 42
    g = R.Generator(R.Philox(key=key))
    # rejection happens for 2**32 mod m of 2**32 words: none here
    m = min(1000, int(np.iinfo(dtype).max) - 7)
    got = g.integers(7, 7 + m, n, dtype=dtype).get()
    w, lane = stream_ref(0, key, n, 4)
    x = w[np.arange(n), lane].astype(np.uint64)
    assert np.all((x * np.uint64(m)) & MASK >= np.uint64((2 ** 32 - m) % m))
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, 7 + ((x * np.uint64(m)) >> np.uint64(32)).astype(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_out_at_any_alignment_same_numbers(dtype):
    """out= views 4 bytes off an 8-byte boundary store element by element, the same numbers."""
    whole = R.default_rng(9).standard_normal(200, dtype=dtype).get()
    buf = npgpu.empty(201, dtype)
    got = R.default_rng(9).standard_normal(dtype=dtype, out=buf[1:])
    np.testing.assert_array_equal(got.get(), whole)
    got = R.default_rng(9).random(200, dtype=dtype).get()
    R.default_rng(9).random(dtype=dtype, out=buf[1:])
    np.testing.assert_array_equal(buf[1:].get(), got)


def test_same_seed_same_numbers_and_split_requests():
    a, b = R.default_rng(2024), R.default_rng(2024)
    for name, per in (("random", 2), ("standard_normal", 2), ("exponential", 2)):
        whole = getattr(a, name)(size=3 * 64).get()
        parts = [getattr(b, name)(size=s).get() for s in (64, 128)]
        np.testing.assert_array_equal(whole, np.concatenate(parts))
    whole = a.integers(0, 2 ** 31, 256).get()
    np.testing.assert_array_equal(whole, np.concatenate([b.integers(0, 2 ** 31, 128).get(),
                                                         b.integers(0, 2 ** 31, 128).get()]))
    whole = a.gamma(0.7, size=50).get()
    np.testing.assert_array_equal(whole, np.concatenate([b.gamma(0.7, size=32).get(),
                                                         b.gamma(0.7, size=18).get()]))
    assert not np.array_equal(R.default_rng(1).random(8).get(), R.default_rng(2).random(8).get())


def test_state_roundtrip_jumped_advance_spawn():
    g = R.default_rng(7)
    st = g.bit_generator.state
    assert st["bit_generator"] == "Philox4x32"
    x = g.random(10).get()
    g.bit_generator.state = st
    np.testing.assert_array_equal(g.random(10).get(), x)
    bg = R.Philox(7)
    j = bg.jumped()
    assert int(j.state["state"]["counter"][3]) == 1 and bg.state["state"]["counter"][3] == 0
    adv = R.Philox(7).advance(32)
    ref = R.Philox(7)
    ref.random_raw(128)
    np.testing.assert_array_equal(adv.random_raw(16).get(), ref.random_raw(16).get())
    kids = g.spawn(2)
    assert not np.array_equal(kids[0].random(8).get(), kids[1].random(8).get())
    g2 = pickle.loads(pickle.dumps(g))
    np.testing.assert_array_equal(g2.random(5).get(), g.random(5).get())
    with pytest.raises(ValueError):
        R.Philox(1, key=2)
    with pytest.raises(ValueError):
        g.bit_generator.state = {"bit_generator": "PCG64", "state": {}}


@pytest.mark.parametrize("seed", [1.5, "a", object()])
def test_bad_seed_type(seed):
    with pytest.raises(TypeError) as ours:
        R.default_rng(seed)
    with pytest.raises(TypeError) as theirs:
        np.random.default_rng(seed)
    assert str(ours.value) == str(theirs.value)


def test_negative_seed():
    with pytest.raises(ValueError, match="expected non-negative integer"):
        R.default_rng(-1)


@pytest.mark.matrix
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.uint32, np.uint64, np.bool_])
def test_integers_dtypes_and_bounds(dtype):
    g = R.default_rng(3)
    info = (0, 1) if dtype is np.bool_ else (np.iinfo(dtype).min, np.iinfo(dtype).max)
    for lo, hi, endpoint in ((info[0], info[1], True), (info[0], info[0] + 1, False),
                             (max(info[0], -3), min(info[1], 5), False)):
        x = g.integers(lo, hi, size=(4, 50), dtype=dtype, endpoint=endpoint).get()
        assert x.dtype == np.dtype(dtype) and x.shape == (4, 50)
        top = hi if endpoint else hi - 1
        assert x.min() >= lo and x.max() <= top
        if top - lo <= 8:
            assert set(np.unique(x).tolist()) == set(range(int(lo), int(top) + 1))


def test_integers_wide_and_array_bounds():
    g = R.default_rng(11)
    x = g.integers(-2 ** 62, 2 ** 62, 300).get()
    assert x.min() < -2 ** 60 and x.max() > 2 ** 60
    lo = np.array([0, 10, 20])
    hi_h = np.array([[30], [50]])
    y = g.integers(lo, npgpu.asarray(hi_h), size=(2, 3)).get()        # broadcast to (2, 3)
    assert np.all(y >= lo) and np.all(y < hi_h) and y.shape == (2, 3)
    z = g.integers(npgpu.asarray(np.array([3, 7, 9])[::-1]), 20, endpoint=True).get()
    assert z.shape == (3,) and np.all(z >= [9, 7, 3]) and np.all(z <= 20)
    u = g.integers(0, 2 ** 64, 200, dtype=np.uint64).get()
    assert u.max() > 2 ** 63


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_dtype_and_out(dtype):
    g = R.default_rng(5)
    for name in ("random", "standard_normal", "standard_exponential"):
        x = getattr(g, name)(size=(3, 70), dtype=dtype)
        assert x.dtype == np.dtype(dtype) and x.shape == (3, 70)
        out = npgpu.empty((2, 33), dtype=dtype)
        assert getattr(g, name)(out=out, dtype=dtype) is out
        h = out.get()
        assert np.isfinite(h).all() and len(np.unique(h)) == h.size
    u = g.random(1000, dtype=dtype).get()
    assert u.min() >= 0 and u.max() < 1
    assert g.random().shape == ()
    assert g.random(0).shape == (0,)


@pytest.mark.parametrize("name,args", [
    ("uniform", (-2.0, 3.0)), ("normal", (1.0, 2.0)), ("lognormal", (0.0, 0.5)),
    ("exponential", (2.0,)), ("laplace", (1.0, 2.0)), ("logistic", (1.0, 2.0)),
    ("gumbel", (1.0, 2.0)), ("weibull", (1.5,)), ("pareto", (3.0,)), ("power", (2.0,)),
    ("rayleigh", (2.0,)), ("standard_cauchy", ()), ("triangular", (0.0, 1.0, 3.0)),
    ("geometric", (0.3,)), ("gamma", (2.0, 3.0)), ("standard_gamma", (0.5,)),
    ("beta", (2.0, 3.0)), ("beta", (0.5, 0.5)), ("chisquare", (3.0,)),
    ("noncentral_chisquare", (3.0, 2.0)), ("noncentral_chisquare", (0.5, 2.0)),
    ("f", (3.0, 5.0)), ("noncentral_f", (3.0, 5.0, 1.0)), ("standard_t", (4.0,)),
    ("wald", (1.0, 2.0)), ("vonmises", (0.5, 2.0)), ("poisson", (3.0,)), ("poisson", (40.0,)),
    ("binomial", (10, 0.3)), ("binomial", (1000, 0.6)), ("negative_binomial", (3.0, 0.4)),
    ("hypergeometric", (10, 20, 7)), ("zipf", (2.5,)), ("logseries", (0.6,)),
])
def test_distribution_shapes_dtypes_and_param_arrays(name, args):
    g = R.default_rng(17)
    ref = getattr(np.random.default_rng(0), name)(*args, size=3)
    x = getattr(g, name)(*args, size=(2, 3))
    assert x.shape == (2, 3) and x.dtype == ref.dtype
    h = x.get()
    assert np.all(np.isfinite(h))
    if args:
        # the first parameter as a host array and as a strided device array, broadcast to size
        host = np.array([args[0], args[0]])[:, None] * np.ones(3, np.asarray(args[0]).dtype)
        dev = npgpu.asarray(np.repeat(host, 2, axis=1))[:, ::-2]
        for p in (host, dev):
            y = getattr(g, name)(p, *args[1:], size=(2, 3))
            assert y.shape == (2, 3) and y.dtype == ref.dtype
        assert getattr(g, name)(*args).shape == ()
        assert getattr(g, name)(np.array([args[0]] * 4), *args[1:]).shape == (4,)
    assert getattr(g, name)(*args, size=0).shape == (0,)


BAD = [("normal", (0, -1)), ("exponential", (-1,)), ("gamma", (-1,)), ("gamma", (1, -1)),
       ("beta", (0, 1)), ("beta", (1, 0)), ("poisson", (-1,)), ("poisson", (1e19,)),
       ("poisson", (np.nan,)), ("binomial", (-1, .5)), ("binomial", (3, 1.1)),
       ("binomial", (3, np.nan)), ("geometric", (0,)), ("geometric", (1.5,)),
       ("uniform", (0, np.inf)), ("lognormal", (0, -1)), ("laplace", (0, -1)),
       ("logistic", (0, -1)), ("gumbel", (0, -1)), ("weibull", (-1,)), ("pareto", (0,)),
       ("power", (0,)), ("rayleigh", (-1,)), ("triangular", (1, 0, 2)),
       ("triangular", (0, 3, 2)), ("triangular", (0, 0, 0)), ("vonmises", (0, -1)),
       ("standard_t", (0,)), ("chisquare", (0,)), ("f", (0, 1)), ("f", (1, 0)),
       ("noncentral_chisquare", (0, 1)), ("noncentral_chisquare", (1, -1)),
       ("noncentral_f", (1, 1, -1)), ("negative_binomial", (0, .5)),
       ("negative_binomial", (1, 0)), ("hypergeometric", (-1, 5, 1)),
       ("hypergeometric", (5, -1, 1)), ("hypergeometric", (5, 5, -1)),
       ("hypergeometric", (1, 1, 3)), ("zipf", (1,)), ("logseries", (1,)), ("wald", (0, 1)),
       ("wald", (1, 0)), ("standard_gamma", (-1,)), ("integers", (5, 5)),
       ("integers", (-1,)), ("integers", (0, 300, None, np.int8)),
       ("integers", (-1, 5, None, np.uint8)), ("integers", (0, 5, None, np.float32)),
       ("integers", (0, 5, None, bool)), ("random", (None, np.int32)),
       ("standard_normal", (None, np.int32)), ("choice", (0,)),
       ("choice", (5, 3, True, [.5, .5, .5, 0, 0])), ("choice", (5, 3, True, [1.5, -.5, 0, 0, 0])),
       ("choice", (5, 3, True, [.5, .5])), ("choice", (5, 6, False)),
       ("choice", (5, 3, False, [.5, .5, 0, 0, 0])), ("choice", ([], 3)),
       ("normal", (np.zeros(3), 1, (2,))), ("normal", (np.zeros((2, 3)), 1, (3,)))]


@pytest.mark.parametrize("name,args", BAD)
def test_errors_match_numpy(name, args):
    with pytest.raises(Exception) as theirs:
        getattr(np.random.default_rng(0), name)(*args)
    with pytest.raises(type(theirs.value)) as ours:
        getattr(R.default_rng(0), name)(*args)
    assert str(ours.value) == str(theirs.value)


def test_errors_on_device_parameters():
    g = R.default_rng(0)
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0, npgpu.asarray(np.array([1.0, -1.0])))
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(npgpu.asarray(np.array([3, 5])), 5)


def _is_perm(p, n):
    return sorted(p.tolist()) == list(range(n))


@pytest.mark.parametrize("small", [True, False])
def test_permutation_shuffle_permuted_choice(small, monkeypatch):
    if not small:
        monkeypatch.setattr(_shuffle, "SMALL", 4)      # the Feistel route on small sizes
    g = R.default_rng(99)
    for n in (1, 2, 5, 16, 37):
        p = g.permutation(n).get()
        assert p.dtype == np.int64 and _is_perm(p, n)
    h = np.arange(24.0).reshape(6, 4)
    x = npgpu.asarray(h)
    y = g.permutation(x).get()
    assert sorted(map(tuple, y.tolist())) == sorted(map(tuple, h.tolist()))
    y = g.permutation(x, axis=1).get()
    assert sorted(y[0].tolist()) == h[0].tolist() and (y[:, :1] % 4 == y[:, :1] % 4).all()
    g.shuffle(x)
    assert sorted(map(tuple, x.get().tolist())) == sorted(map(tuple, h.tolist()))
    z = g.permuted(npgpu.asarray(h), axis=1).get()
    assert all(sorted(z[i].tolist()) == h[i].tolist() for i in range(6))
    z = g.permuted(npgpu.asarray(h)).get()
    assert sorted(z.ravel().tolist()) == h.ravel().tolist()
    c = g.choice(37, 20, replace=False).get()
    assert len(set(c.tolist())) == 20 and c.max() < 37
    c = g.choice(npgpu.asarray(h), 3, replace=False).get()
    assert c.shape == (3, 4)
    first = [g.permutation(5).get()[0] for _ in range(4)]
    assert len(set(first)) > 1


def test_choice_with_p_and_replacement():
    g = R.default_rng(4)
    x = g.choice(4, 400, p=[0.1, 0.0, 0.6, 0.3]).get()
    assert set(np.unique(x).tolist()) <= {0, 2, 3} and (x == 2).sum() > (x == 0).sum()
    y = g.choice(np.arange(5) * 10, (3, 4)).get()
    assert y.shape == (3, 4) and np.all(y % 10 == 0)
    assert g.choice(5).shape == ()


def test_bytes_dirichlet_multinomial_multivariate_normal():
    g = R.default_rng(8)
    b = g.bytes(10)
    assert isinstance(b, bytes) and len(b) == 10
    d = g.dirichlet([1.0, 2.0, 3.0], size=5).get()
    np.testing.assert_allclose(d.sum(axis=1), 1.0)
    m = g.multinomial(20, [0.2, 0.3, 0.5], size=4).get()
    assert m.shape == (4, 3) and np.all(m.sum(axis=1) == 20) and m.min() >= 0
    mv = g.multivariate_normal([1.0, -1.0], [[2.0, 0.5], [0.5, 1.0]], size=6).get()
    assert mv.shape == (6, 2)


def test_legacy_api():
    R.seed(12)
    a = R.rand(3, 4).get()
    R.seed(12)
    np.testing.assert_array_equal(R.rand(3, 4).get(), a)
    assert R.randn(2, 5).shape == (2, 5)
    r = R.randint(3, 9, size=50).get()
    assert r.min() >= 3 and r.max() < 9 and r.dtype == np.int64
    for f in (R.random_sample, R.random, R.ranf, R.sample):
        v = f((4,)).get()
        assert v.shape == (4,) and v.min() >= 0 and v.max() < 1
    assert R.uniform(2, 3, size=5).get().min() >= 2
    assert R.normal(size=(2, 2)).shape == (2, 2)
    assert _is_perm(R.permutation(10).get(), 10)
    assert R.choice(5, 3).shape == (3,)
    rs = R.RandomState(5)
    st = rs.get_state()
    x = rs.poisson(3.0, 6).get()
    rs.set_state(st)
    np.testing.assert_array_equal(rs.poisson(3.0, 6).get(), x)
    with pytest.warns(DeprecationWarning):
        v = rs.random_integers(1, 6, size=20).get()
    assert v.min() >= 1 and v.max() <= 6
    with pytest.raises(ValueError, match="high <= 0"):
        R.randint(0)


@pytest.mark.parametrize("threads,blocks", [(64, 1), (3, 1)])
def test_raw_kernel_sampler_layout_independent_of_launch(threads, blocks, monkeypatch, stage):
    """Two warps a block, and a block size that is no whole warp, in either store form: the
    same words."""
    from npgpu.random import kernels
    a = R.Philox(key=5).random_raw(300).get()
    monkeypatch.setattr(kernels, "_SIM_BLOCKS", blocks)
    monkeypatch.setattr(kernels, "_THREADS", threads)
    b = R.Philox(key=5).random_raw(300).get()
    np.testing.assert_array_equal(a, b)


def test_box_muller_normals_from_the_stream():
    """Both normals of each Box-Muller pair are used: the float32 normals of one block are
    r*cos, r*sin of its words (x0, x1) and (x2, x3); float64 ones of (x0 x1, x2 x3)."""
    key = 77
    g = R.Generator(R.Philox(key=key))
    got = g.standard_normal(256, dtype=np.float32).get().astype(np.float64)
    w, lane = stream_ref(0, key, 256, 4)
    i = np.arange(256)
    a, b = w[i, 2 * (lane // 2)], w[i, 2 * (lane // 2) + 1]
    u = ((a >> 8).astype(np.float64) + 0.5) * 2.0 ** -24
    t = (b >> 8).astype(np.float64) * 2.0 ** -23
    r = np.sqrt(-2.0 * np.log(u))
    ref = np.where(lane % 2 == 0, r * np.cos(np.pi * t), r * np.sin(np.pi * t))
    np.testing.assert_allclose(got, ref, rtol=2e-6, atol=2e-6)
    f64 = R.Generator(R.Philox(key=key)).standard_normal(128).get()
    w, lane = stream_ref(0, key, 128, 2)
    x = [w[np.arange(128), j].astype(np.uint64) for j in range(4)]
    u = (((x[0] << np.uint64(32)) | x[1]) >> np.uint64(11)).astype(np.float64) + 0.5
    t = (((x[2] << np.uint64(32)) | x[3]) >> np.uint64(11)).astype(np.float64) * 2.0 ** -52
    r = np.sqrt(-2.0 * np.log(u * 2.0 ** -53))
    ref = np.where(lane == 0, r * np.cos(np.pi * t), r * np.sin(np.pi * t))
    np.testing.assert_allclose(f64, ref, rtol=1e-12, atol=1e-12)


_PI_LD = np.longdouble("3.14159265358979323846264338327950288")


def _ulps(got, ref, dt):
    """|got - ref| in units of the last place of ``ref`` rounded to ``dt`` (ref in longdouble)."""
    return np.abs(got.astype(np.longdouble) - ref) / np.spacing(np.abs(ref.astype(dt)))


def _sincos_turns(v):
    """(sin, cos) of 2 pi v in long double, v (exact, long double) reduced exactly by quarter
    turns first: pi v rounded near a zero of sin or cos would cost the result its relative
    accuracy (the kernels reduce the same way)."""
    j = np.rint(4 * v)
    a = 2 * _PI_LD * (v - j / 4)
    s, c = np.sin(a), np.cos(a)
    q = j.astype(np.int64) % 4
    return (np.choose(q, [s, c, -s, -c]), np.choose(q, [c, -s, -c, s]))


@pytest.mark.parametrize("n", [512, 2 ** 14])
def test_box_muller_within_ulps_of_exact(n):
    """The Box-Muller pairs (npgpu's own log and sincos, philox.py's BOX_MULLER_F*_FAST) within
    4 ulp of r cos, r sin computed in long double from the same u (as the kernel rounds it) and
    the exact angle: on the simulator and on the GPU, so the two agree within a few ulp.  The
    larger size runs on the GPU only (seconds on the simulator)."""
    if n > 512 and npgpu.backend() != "cuda":
        pytest.skip("GPU size")
    key = 1234
    i = np.arange(n)
    got = R.Generator(R.Philox(key=key)).standard_normal(n, dtype=np.float32).get()
    w, lane = stream_ref(0, key, n, 4)
    a, b = w[i, 2 * (lane // 2)], w[i, 2 * (lane // 2) + 1]
    u = ((a >> 8).astype(np.float32) + np.float32(0.5)) * np.float32(2.0 ** -24)
    s, c = _sincos_turns((b >> 8).astype(np.longdouble) * np.longdouble(2.0) ** -24)
    r = np.sqrt(-2 * np.log(u.astype(np.longdouble)))
    ref = np.where(lane % 2 == 0, r * c, r * s)
    assert _ulps(got, ref, np.float32).max() <= 4
    got = R.Generator(R.Philox(key=key)).standard_normal(n).get()
    w, lane = stream_ref(0, key, n, 2)
    x = [w[i, j].astype(np.uint64) for j in range(4)]
    k = ((x[0] << np.uint64(32)) | x[1]) >> np.uint64(11)
    u = k.astype(np.float64) * 2.0 ** -53 + 2.0 ** -54          # one rounding, as open_f64
    s, c = _sincos_turns((((x[2] << np.uint64(32)) | x[3]) >> np.uint64(11)).astype(np.longdouble)
                         * np.longdouble(2.0) ** -53)
    r = np.sqrt(-2 * np.log(u.astype(np.longdouble)))
    ref = np.where(lane == 0, r * c, r * s)
    assert _ulps(got, ref, np.float64).max() <= 4


@pytest.mark.parametrize("n", [5, 37, 64, 200])
def test_feistel_whole_permutations_and_partial_choice(n, monkeypatch):
    monkeypatch.setattr(_shuffle, "SMALL", 4)      # the Feistel routes on small sizes
    g = R.default_rng(n)
    p = _shuffle.indices(g.bit_generator, n, 3).get()      # whole: domain + compaction
    assert p.shape == (3, n) and all(_is_perm(row, n) for row in p)
    assert len({tuple(row) for row in p.tolist()}) == 3
    q = _shuffle.indices(g.bit_generator, n, 2, 4).get()  # partial: cycle-walking, m entries
    assert q.shape == (2, 4) and all(len(set(row)) == 4 and max(row) < n for row in q.tolist())
    h = np.arange(3 * n).reshape(3, n)
    z = g.permuted(npgpu.asarray(h), axis=1).get()
    assert all(sorted(z[i].tolist()) == h[i].tolist() for i in range(3))


@pytest.mark.parametrize("method", ["marginals", "count"])
@pytest.mark.parametrize("small", [True, False])
def test_multivariate_hypergeometric(method, small, monkeypatch):
    if not small:
        monkeypatch.setattr(_shuffle, "SMALL", 4)
    g = R.default_rng(11)
    colors = np.array([4, 0, 7, 2, 9])
    for size, shape in ((None, (5,)), (6, (6, 5)), ((2, 3), (2, 3, 5)), (0, (0, 5))):
        v = g.multivariate_hypergeometric(colors, 8, size=size, method=method).get()
        assert v.shape == shape and v.dtype == np.int64
        assert (v.sum(-1) == 8).all() and (v >= 0).all() and (v <= colors).all()
    assert (g.multivariate_hypergeometric(colors, 22, size=3, method=method).get()
            == colors).all()
    assert (g.multivariate_hypergeometric(npgpu.asarray(colors), 0, method=method).get()
            == 0).all()
    assert g.multivariate_hypergeometric([], 0, size=2, method=method).get().shape == (2, 0)


@pytest.mark.parametrize("args,kw", [
    (([1, 2], -1), {"method": "x"}), (([1, 2], -1), {}), (([1, 2], 1.0), {}),
    (([[1]], 1), {}), (([1.0, 2.0], 1), {}), (([-1, 2], 1), {}), (([True, False], 1), {}),
    (([1, 2], 4), {}), (([10 ** 9, 1], 1), {}), (([2 ** 62, 2 ** 62], 1), {"method": "count"}),
    (([1, -2], 5), {})])
def test_multivariate_hypergeometric_errors_match_numpy(args, kw):
    with pytest.raises(Exception) as want:
        np.random.default_rng(0).multivariate_hypergeometric(*args, **kw)
    with pytest.raises(type(want.value), match=re.escape(str(want.value))):
        R.default_rng(0).multivariate_hypergeometric(*args, **kw)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unaligned_out_takes_element_stores_same_numbers(dtype):
    # an out= view that is not 16-byte aligned cannot take a block's one 16-byte store
    want = R.Generator(R.Philox(key=9)).random(37, dtype=dtype).get()
    buf = npgpu.zeros(40, dtype)
    R.Generator(R.Philox(key=9)).random(dtype=dtype, out=buf[1:38])
    got = buf.get()
    np.testing.assert_array_equal(got[1:38], want)
    assert got[0] == 0 and (got[38:] == 0).all()


def test_gpu_launch_shape_path_on_any_machine(monkeypatch):
    # the GPU's launch path (kernels._launch_shape: the block size by occupancy, a resident
    # grid) with the simulator's kernels: it runs nowhere else in CI, and a renamed helper there
    # once failed only on the GPU.  Launch shapes do not change the numbers.
    from npgpu._codegen.launcher import Launcher
    from npgpu.cuda import runtime
    from npgpu.random import kernels
    want = R.Philox(key=5).random_raw(300).get()
    want_u = R.Generator(R.Philox(key=5)).random(77, dtype=np.float32).get()
    monkeypatch.setattr(_shuffle, "SMALL", 4)      # the Feistel routes on small sizes
    want_p = _shuffle.indices(R.Philox(key=5), 50, 2).get()
    monkeypatch.setattr(kernels, "_SIM", False)
    monkeypatch.setattr(kernels, "_THREADS_LANES", 64)
    monkeypatch.setattr(kernels, "_RESIDENT", {})
    monkeypatch.setattr(_shuffle, "_SIM", False)
    monkeypatch.setattr(runtime, "sm_count", lambda device=None: 1)
    # occupancy as the GPU reports it for a kernel of few registers: a full SM of any block size
    monkeypatch.setattr(Launcher, "blocks_per_sm", lambda self, block: 2048 // block)
    np.testing.assert_array_equal(R.Philox(key=5).random_raw(300).get(), want)
    np.testing.assert_array_equal(
        R.Generator(R.Philox(key=5)).random(77, dtype=np.float32).get(), want_u)
    np.testing.assert_array_equal(_shuffle.indices(R.Philox(key=5), 50, 2).get(), want_p)
    shapes = set(kernels._RESIDENT.values())
    # direct transforms in blocks of _THREADS_LANES, the permutation's kernel of _THREADS
    assert shapes == {(64, 32), (kernels._THREADS, 2048 // kernels._THREADS)}, shapes


def test_store_width_only_for_bit_exact_dtypes():
    from npgpu.random import kernels
    assert kernels.store_width(np.dtype(np.float32), 4) == 16
    assert kernels.store_width(np.dtype(np.float64), 2) == 16
    assert kernels.store_width(np.dtype(np.int64), 4) == 32
    assert kernels.store_width(np.dtype(np.int8), 4) == 4
    assert kernels.store_width(np.dtype(np.bool_), 4) == 4
    assert kernels.store_width(np.dtype(np.float16), 4) == 0      # no half-precision bits case
    assert kernels.store_width(np.dtype(np.complex64), 2) == 0


@pytest.mark.parametrize("name,dtype", [("random", np.float32), ("random", np.float64),
                                        ("standard_normal", np.float32)])
def test_request_split_into_launches(monkeypatch, name, dtype):
    """A request of more blocks than a launch takes (kernels._LAUNCH_BLOCKS) is several
    launches, each from its first block's counter: the same numbers as one launch, also where
    the counter's low word wraps inside the request."""
    from npgpu.random import kernels
    for counter in (5, (1 << 64) - 6):
        want = getattr(R.Generator(R.Philox(counter=counter, key=7)), name)(
            37, dtype=dtype).get()
        monkeypatch.setattr(kernels, "_LAUNCH_BLOCKS", 3)
        got = getattr(R.Generator(R.Philox(counter=counter, key=7)), name)(
            37, dtype=dtype).get()
        monkeypatch.undo()
        np.testing.assert_array_equal(got, want)


def test_rank_kernel_made_under_another_small_is_not_reused(monkeypatch):
    """The exact-ranking kernel's shared array holds SMALL keys: a kernel made while SMALL
    was smaller must not serve a longer slice later (on the GPU that read and wrote past the
    shared array: an illegal address that ended the worker's context)."""
    g = R.default_rng(5)
    with monkeypatch.context() as m:
        m.setattr(_shuffle, "SMALL", 4)
        p = _shuffle.indices(g.bit_generator, 3).get()
        assert sorted(p[0]) == [0, 1, 2]
    p = _shuffle.indices(g.bit_generator, 22, 2, 8).get()
    assert p.shape == (2, 8)
    for row in p:
        assert len(set(row)) == 8 and row.min() >= 0 and row.max() < 22
