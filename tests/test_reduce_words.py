"""Inner reductions of 4-byte elements read as uint64 words (two elements a load).

The simulator takes words from two elements up to ``reduce.WORDS_MAX``, so every contiguous
float32/int32/uint32 reduction in the suite runs them; these tests aim at the edges: odd
lengths (the last element outside the words), element order inside a word (first occurrence
for argmin/argmax, NaN in either half), rows of even and odd length, misaligned views (no
words), and the fast path replaying a call for a view of other alignment.
"""
import numpy
import pytest

import npgpu as np
from npgpu._codegen import compiler
from npgpu.reductions import functions as F
from npgpu.reductions import reduce as R
from npgpu.reductions import template as T

from conftest import ON_GPU, assert_matches, needs_gpu, random_array

WORD_DTYPES = ["f4", "i4", "u4"]


def _words_used(a, func, **kw):
    """Run ``func`` on ``a`` with a fresh plan and say whether its first pass read words."""
    R._PLANS.clear()
    R.FAST.clear()
    func(a, **kw)
    return any(p is not False and p.words for p in R._PLANS.values())


@pytest.mark.parametrize("dt", WORD_DTYPES)
@pytest.mark.parametrize("n", [17, 33, 64])   # above reduce.SHORT_REDUCED (one thread a row)
def test_lengths_and_functions(dt, n, rng):
    h = random_array((n,), dt, rng=rng)
    d = np.asarray(h)
    assert _words_used(d, np.sum) is (n >= R.WORDS_MIN)      # every size on the simulator
    for name in ("sum", "max", "argmax", "argmin", "mean"):
        assert_matches(getattr(np, name)(d), getattr(numpy, name)(h), rtol=1e-5)


@pytest.mark.parametrize("dt", WORD_DTYPES)
def test_first_occurrence_within_and_across_words(dt):
    """Ties in the two halves of one word, in neighbouring words and the odd last element."""
    n = 41
    for pos in ([4, 5], [5, 6], [9, 30], [39, 40], [40], [0, 1], [1, 40]):
        h = numpy.zeros(n, dt)
        h[pos] = 7
        g = numpy.full(n, 9, dt)
        g[pos] = 2
        assert int(np.argmax(np.asarray(h)).get()) == int(numpy.argmax(h)) == pos[0]
        assert int(np.argmin(np.asarray(g)).get()) == int(numpy.argmin(g)) == pos[0]


@pytest.mark.parametrize("pos", [6, 7, 20, 32])
def test_nan_in_either_half(pos, rng):
    h = random_array((33,), "f4", rng=rng)
    h[pos] = numpy.nan
    h[pos + 1 if pos < 32 else 0] = numpy.nan
    d = np.asarray(h)
    for name in ("argmax", "argmin", "max", "min", "sum"):
        assert_matches(getattr(np, name)(d), getattr(numpy, name)(h))
    for name in ("nanargmax", "nanargmin", "nanmax", "nansum"):
        assert_matches(getattr(np, name)(d), getattr(numpy, name)(h), rtol=1e-5)


@pytest.mark.parametrize("dt", WORD_DTYPES)
def test_rows_even_and_odd(dt, rng):
    """Even rows keep every row 8-byte aligned (words); odd rows cannot (element loads)."""
    for cols, words in ((24, True), (23, False)):
        h = random_array((5, cols), dt, rng=rng)
        d = np.asarray(h)
        assert _words_used(d, np.sum, axis=1) is (words and cols >= R.WORDS_MIN)
        for name in ("sum", "argmax", "min"):
            assert_matches(getattr(np, name)(d, axis=1), getattr(numpy, name)(h, axis=1),
                           rtol=1e-5)
        assert_matches(np.sum(d, axis=(0, 1)), numpy.sum(h, axis=(0, 1)), rtol=1e-5)


def test_misaligned_views_and_the_fast_path(rng):
    """A view starting at an odd element cannot be read as words; a repeat call with the same
    shape and strides but another alignment must not replay the other's launch."""
    h = random_array((65,), "f4", rng=rng)
    d = np.asarray(h)
    assert not _words_used(d[1:], np.sum)
    R._PLANS.clear()
    R.FAST.clear()
    for view, hv in ((d[:64], h[:64]), (d[1:], h[1:]), (d[:64], h[:64]), (d[1:], h[1:])):
        assert_matches(np.sum(view), numpy.sum(hv), rtol=1e-5)
        assert int(np.argmax(view).get()) == int(numpy.argmax(hv))
    assert_matches(np.sum(d[2:]), numpy.sum(h[2:]), rtol=1e-5)   # aligned again: words


def test_gpu_rendering_is_recorded_for_the_ptx_check():
    """The GPU's rendering of a words kernel (warp shuffles, 256 threads, the GPU's unroll of
    screened words kernels), for CI's PTX check."""
    f4 = numpy.dtype("f4")
    ks = T.render(F._arg_spec(f4, True, False), "inner", nk=1, nr=1, in_storage=f4,
                  out_storage=numpy.dtype("i8"), has_mask=False, has_init=False, first=True,
                  last=True, block=256, sim=False, unroll=4, in_layout="C", words=True)
    assert "inw[" in ks.source and "shfl_down_sync" in ks.source
    # the screened accumulate walks a running index (no per-load index held across the loads)
    assert ks.source.count("i_ += 2 * stp") == 3 and "i_ = 2 * j" in ks.source
    compiler.get_kernel(("gpu-variant", ks.digest()), lambda: ks)


@needs_gpu
@pytest.mark.parametrize("dt", WORD_DTYPES)
def test_gpu_sizes_around_words_min(dt, rng):
    for n in (R.WORDS_MIN - 1, R.WORDS_MIN, R.WORDS_MIN + 3):
        h = random_array((n,), dt, rng=rng)
        d = np.asarray(h)
        assert _words_used(d, np.sum) is (n >= R.WORDS_MIN)
        for name in ("sum", "argmax", "argmin", "max"):
            assert_matches(getattr(np, name)(d), getattr(numpy, name)(h), rtol=1e-4)
    assert ON_GPU


@pytest.mark.parametrize("dt", WORD_DTYPES)
def test_sizes_around_words_max(dt, rng):
    """Words up to ``reduce.WORDS_MAX`` reduced elements (the simulator's edge; the GPU has
    none a test can reach)."""
    if R.WORDS_MAX > 1 << 20:
        pytest.skip("no upper edge on the GPU")
    for n in (R.WORDS_MAX, R.WORDS_MAX + 2):
        h = random_array((n,), dt, rng=rng)
        d = np.asarray(h)
        assert _words_used(d, np.sum) is (n <= R.WORDS_MAX)
        for name in ("sum", "argmax", "max"):
            assert_matches(getattr(np, name)(d), getattr(numpy, name)(h), rtol=1e-4)
