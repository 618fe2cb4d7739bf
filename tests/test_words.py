"""The ``words`` layout: contiguous 4-byte operands moved as 8-byte words.

On the simulator every aligned contiguous call of float32/int32/uint32 operands up to
``WORDS_MAX`` elements takes it (``WORDS_MIN`` is 1); on the GPU from ``WORDS_MIN`` elements,
which the GPU cases use.
"""
import numpy as np
import pytest

import npgpu
from npgpu._codegen import elementwise
from conftest import assert_same, needs_gpu, random_array

W4 = [np.float32, np.int32, np.uint32]


def _words_sources(prefix):
    return [s for n, s in npgpu.kernel_sources().items()
            if n.startswith(prefix + "_") and "    nw = " in s]


def _sizes():
    m = elementwise.WORDS_MIN
    # odd sizes leave a last element outside the words; one word / one element edge cases
    return [1, 2, 3, m + 1, m + 2, m + 257] if m > 1 else [1, 2, 3, 64, 67, 300]


@pytest.mark.parametrize("dt", W4)
def test_binary_and_unary_words_match_numpy(dt, rng):
    for n in _sizes():
        h1, h2 = random_array(n, dt, rng), random_array(n, dt, rng)
        a, b = npgpu.asarray(h1), npgpu.asarray(h2)
        assert_same(npgpu.add(a, b), h1 + h2)
        assert_same(npgpu.negative(a), np.negative(h1))
        assert_same(npgpu.maximum(a, b), np.maximum(h1, h2))
        assert_same(npgpu.less(a, b), h1 < h2)          # bool output: the element kernel
    assert _words_sources("add") and _words_sources("negative")


def test_float32_special_values_keep_their_bits():
    h = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -3.4e38, 1.5, 2.0, 7.0],
                 np.float32)
    h = np.concatenate([h] * 30)
    a = npgpu.asarray(h)
    # bit-exact except NaN payload/sign, which NumPy leaves to the hardware too
    num = ~np.isnan(h)
    neg = npgpu.negative(a).get()
    assert np.array_equal(neg.view(np.uint32)[num], np.negative(h).view(np.uint32)[num])
    assert np.isnan(neg[~num]).all()
    assert_same(npgpu.positive(a).view(np.uint32), h.view(np.uint32))
    got = npgpu.exp(a).get()
    np.testing.assert_allclose(got, np.exp(h), rtol=2e-6)
    assert np.array_equal(np.isnan(got), np.isnan(np.exp(h)))


def test_unaligned_views_fall_back_and_stay_right(rng):
    n = _sizes()[-1]
    h1, h2 = random_array(n, np.float32, rng), random_array(n, np.float32, rng)
    a, b = npgpu.asarray(h1), npgpu.asarray(h2)
    # a[1:] starts 4 bytes into a word: the element kernel must run
    assert_same(a[1:] * b[:-1], h1[1:] * h2[:-1])
    assert_same(npgpu.sqrt(npgpu.abs(a[1:])), np.sqrt(np.abs(h1[1:])))
    assert_same(a[2:] - b[2:], h1[2:] - h2[2:])      # aligned again: words


def test_scalars_broadcast_and_out(rng):
    n = _sizes()[-1]
    h = random_array(n, np.float32, rng)
    a = npgpu.asarray(h)
    assert_same(a * np.float32(2.5), h * np.float32(2.5))
    assert_same(3 - a, 3 - h)
    z = npgpu.asarray(np.float32(4.0))                 # 0-d operand: broadcast, loaded once
    assert_same(a + z, h + np.float32(4.0))
    o = npgpu.empty(n, np.float32)
    npgpu.subtract(a, a[::-1].copy(), out=o)
    assert_same(o, h - h[::-1])
    npgpu.add(a, a, out=a)                             # in place
    assert_same(a, h + h)


def test_multi_output_and_mixed_4_byte_types(rng):
    n = _sizes()[-1]
    h = random_array(n, np.float32, rng)
    m, e = npgpu.frexp(npgpu.asarray(h))               # float32 and int32 outputs
    M, E = np.frexp(h)
    assert_same(m, M)
    assert_same(e, E)
    hi = random_array(n, np.int32, rng)
    hd = random_array(n, np.int32, rng)
    hd[hd == 0] = 3
    q, r = npgpu.divmod(npgpu.asarray(hi), npgpu.asarray(hd))
    Q, R = np.divmod(hi, hd)
    assert_same(q, Q)
    assert_same(r, R)
    hu = random_array(n, np.uint32, rng)
    assert_same(npgpu.ldexp(npgpu.asarray(h), npgpu.asarray(hi % 5)), np.ldexp(h, hi % 5))
    assert_same(npgpu.asarray(hu) + npgpu.asarray(hu), hu + hu)


@needs_gpu
def test_gpu_words_kernel_runs_from_words_min(rng):
    n = elementwise.WORDS_MIN + 3
    h = (rng.standard_normal(n) * 3).astype(np.float32)
    a = npgpu.asarray(h)
    got = npgpu.exp(a).get()
    np.testing.assert_allclose(got, np.exp(h), rtol=2e-6)
    assert _words_sources("exp")


def test_words_raw_side_effects_once_per_element():
    # the words layout computes a clamped second word past the end for pure ops; an op that
    # touches a raw array (an atomic counter here) must run once per element, every length
    k = npgpu.ElementwiseKernel("float32 x, raw int32 cnt", "float32 y",
                                "y = x\ncuda.atomic.add(cnt, 0, 1)", "count_words")
    for n in (1, 2, 3, 6, 10, 66, 70, 99, 130):
        c = npgpu.zeros(1, np.int32)
        y = k(npgpu.ones(n, np.float32), c)
        assert int(c.get()[0]) == n
        np.testing.assert_array_equal(y.get(), np.ones(n, np.float32))


@pytest.mark.parametrize("wpt", [3, 4])
def test_more_words_a_thread(wpt, rng, monkeypatch):
    # NPGPU_EW_WORDS_WPT (words_wpt.py's A/B): a thread's words past the first each guarded,
    # the clamped ones never stored, raw side effects once per element, every length
    monkeypatch.setattr(elementwise, "WORDS_WPT", wpt)
    k = npgpu.ElementwiseKernel("float32 x, raw int32 cnt", "float32 y",
                                "y = x * 2\ncuda.atomic.add(cnt, 0, 1)", f"count_words_{wpt}")
    for n in _sizes() + [2 * wpt * 64 - 1, 2 * wpt * 64 + 5]:
        x = random_array((n,), np.float32, rng)
        y = random_array((n,), np.float32, rng)
        assert_same(npgpu.asarray(x) * npgpu.asarray(y), x * y)
        assert_same(npgpu.sqrt(npgpu.abs(npgpu.asarray(x))), np.sqrt(np.abs(x)))
        c = npgpu.zeros(1, np.int32)
        np.testing.assert_array_equal(k(npgpu.asarray(x), c).get(), x * 2)
        assert int(c.get()[0]) == n
    # (the ufuncs' plans keep the launcher of their first call; this kernel is new here)
    assert any(f"* (bd * uint64({wpt}))" in s or f"* bd * {wpt}" in s
               for s in _words_sources(f"count_words_{wpt}"))
