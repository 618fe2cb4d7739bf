"""argmax/argmin/nanargmax/nanargmin of real dtypes: the screened accumulate path.

The reduction loop loads UNROLL elements per trip, tests them all with the spec's screen
(``red_may``) and runs the in-order accumulates only when one may change the state.  The
arrays here are sized so that every simulated thread takes several full unrolled trips
(the first one always accumulates: the state is still the identity; later ones are
screened) AND runs the tail loop.  Simulator: 8-thread inner blocks, 4 splits of a 1-D
reduction, UNROLL 2 -> 64 elements per round of trips: 808 give 12 trips and a tail for
every thread; a (3, 312) array reduced along axis 1 has 2 splits -> 32 per round, 9 trips
and a tail; (312, 3) along axis 0: outer blocks of 4 x 4 threads, 2 splits of 156 rows ->
19 trips of 8 rows and a tail.  (Contiguous float32 loads words, two elements each: more
elements per trip, still several trips.)
"""
import re
import sys

import numpy
import pytest

import npgpu as np
from npgpu._codegen import compiler
from npgpu.reductions import functions as F
from npgpu.reductions import reduce as R
from npgpu.reductions import template
from conftest import random_array

sys.setswitchinterval(5e-4)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

N1 = 808                 # 1-D length: 3 trips + tail for every thread of the inner kernel
ROWS, COLS = 312, 3      # axis=0 -> outer kernel; .T (C copy) along axis 1 -> inner, 2 splits
# one dtype per loading/comparison class (the CI compiles every kernel a test renders)
REAL = ["?", "i1", "u8", "f2", "f4"]


def check(got, exp):
    g = got.get() if isinstance(got, np.ndarray) else numpy.asarray(got)
    e = numpy.asarray(exp)
    assert g.dtype == e.dtype and g.shape == e.shape, (g.dtype, g.shape, e.dtype, e.shape)
    numpy.testing.assert_array_equal(g, e)


def both(h, fn, **kw):
    check(getattr(np, fn)(np.asarray(h), **kw), getattr(numpy, fn)(h, **kw))


@pytest.mark.skipif(np.backend() == "cuda", reason="checks the simulator's constants")
def test_sizes_run_the_unrolled_trip_and_the_tail():
    # the docstring's arithmetic, checked against the simulator's constants
    assert R.UNROLL == 2 and R.INNER_BLOCK == 8 and R.OUTER_BLOCK == 16 and R.OUTER_TX == 4
    stp = 4 * R.INNER_BLOCK                      # 4 splits x 8 threads
    assert N1 // (R.UNROLL * stp) == 12
    assert N1 % (R.UNROLL * stp) >= stp          # every thread has a tail element
    stp = 2 * R.INNER_BLOCK                      # rows of (3, 312): 2 splits
    assert ROWS // (R.UNROLL * stp) == 9 and ROWS % (R.UNROLL * stp) >= stp
    ty = R.OUTER_BLOCK // R.OUTER_TX             # columns of (312, 3): 2 splits of 156 rows
    assert (ROWS // 2) // (R.UNROLL * ty) == 19 and (ROWS // 2) % (R.UNROLL * ty) >= ty


@pytest.mark.matrix
@pytest.mark.parametrize("dt", REAL)
def test_random_ties_axes_layouts(dt):
    rng = numpy.random.default_rng(3)
    dt = numpy.dtype(dt)
    # few distinct values: many ties (first occurrence must win)
    ties = rng.integers(0, 4, size=(ROWS, COLS)).astype(dt)
    wide = random_array((ROWS, COLS), dt, rng=rng)
    flat = random_array(N1, dt, rng=rng)
    flat_ties = rng.integers(0, 4, size=N1).astype(dt)
    for fn in ("argmax", "argmin"):
        for h in (flat, flat_ties, flat[::-1], flat_ties[::2]):
            both(h, fn)
        for h in (ties, wide):
            for axis in (None, 0, 1):
                both(h, fn, axis=axis)
            both(numpy.ascontiguousarray(h.T), fn, axis=1)
            both(h.T, fn, axis=1)                 # non-contiguous, reduced axis strided
            both(h[::-2], fn, axis=0)             # negative stride
            both(numpy.asfortranarray(h), fn)     # axis=None over a non-C layout
        both(ties, fn, axis=1, keepdims=True)


@pytest.mark.parametrize("dt", ["f2", "f8"])
def test_nan_first_and_late(dt):
    rng = numpy.random.default_rng(5)
    base = random_array(N1, dt, rng=rng)
    for pos in ((0,), (5, 40), (300,), (600, 700), (790,), (807,), (37, 12, 500)):
        h = base.copy()
        h[list(pos)] = numpy.nan
        for fn in ("argmax", "argmin"):
            both(h, fn)
            both(h[::-1], fn)
    # a NaN after the running max has settled, in a 2-D column and row
    h = random_array((ROWS, COLS), dt, rng=rng)
    h[140, 1] = numpy.nan
    h[7, 2] = numpy.nan
    h[220, 2] = numpy.nan
    h[296, 0] = numpy.nan
    for fn in ("argmax", "argmin"):
        for axis in (None, 0, 1):
            both(h, fn, axis=axis)
        both(numpy.ascontiguousarray(h.T), fn, axis=1)


@pytest.mark.parametrize("dt", ["f4", "f8"])
def test_all_infinite_and_signed_zero(dt):
    neg = numpy.full(N1, -numpy.inf, dt)
    pos = numpy.full(N1, numpy.inf, dt)
    check(np.argmax(np.asarray(neg)), numpy.int64(0))
    check(np.argmin(np.asarray(pos)), numpy.int64(0))
    both(numpy.full((ROWS, COLS), -numpy.inf, dt), "argmax", axis=0)
    both(numpy.full((ROWS, COLS), numpy.inf, dt), "argmin", axis=1)
    h = neg.copy()
    h[660] = -1.0                                 # one finite value late
    both(h, "argmax")
    z = numpy.zeros(N1, dt)
    z[::3] = -0.0                                 # -0.0 == 0.0: a tie, the first wins
    for fn in ("argmax", "argmin", "nanargmax", "nanargmin"):
        both(z, fn)
        both(-z, fn)


@pytest.mark.parametrize("dt", ["i1", "u1", "i8", "u8"])
def test_integer_extremes(dt):
    info = numpy.iinfo(dt)
    lo = numpy.full(N1, info.min, dt)
    hi = numpy.full(N1, info.max, dt)
    check(np.argmax(np.asarray(lo)), numpy.int64(0))   # the identity's sentinel itself
    check(np.argmin(np.asarray(hi)), numpy.int64(0))
    both(lo, "argmin")
    both(hi, "argmax")
    for h, fn in ((lo, "argmax"), (hi, "argmin")):
        g = h.copy()
        g[[533, 570]] = info.max if fn == "argmax" else info.min
        both(g, fn)
        both(g[:ROWS * 2].reshape(ROWS * 2, 1), fn, axis=0)
        both(numpy.full((ROWS, COLS), h[0]), fn, axis=0)
        both(numpy.full((ROWS, COLS), h[0]), fn, axis=1)


def test_bool():
    f = numpy.zeros(N1, bool)
    t = numpy.ones(N1, bool)
    for fn in ("argmax", "argmin"):
        both(f, fn)
        both(t, fn)
    g = f.copy()
    g[680] = True
    both(g, "argmax")
    both(~g, "argmin")


@pytest.mark.parametrize("dt", ["f2", "f8"])
def test_nanarg(dt):
    rng = numpy.random.default_rng(9)
    h = rng.integers(0, 4, size=(ROWS, COLS)).astype(dt)
    h[rng.random((ROWS, COLS)) < 0.2] = numpy.nan
    h[:8, :] = numpy.nan                          # leading NaNs: the identity must survive them
    h[numpy.isnan(h).all(axis=1), 2] = 1          # ... but no all-NaN row
    for fn in ("nanargmax", "nanargmin"):
        for axis in (None, 0, 1):
            both(h, fn, axis=axis)
        both(h.T, fn, axis=0)
        both(numpy.ascontiguousarray(h.T), fn, axis=1)
    flat = numpy.full(N1, -numpy.inf, dt)
    flat[[3, 200]] = numpy.nan
    both(flat, "nanargmax")                       # the identity's sentinel itself, first
    both(-flat, "nanargmin")
    # NaNs, then only sentinel-valued elements: NumPy replaces NaN by -inf / +inf, so the
    # leading NaN ties with them and wins (index 0); a NaN after a real value never does
    flat = numpy.full(N1, numpy.nan, dt)
    flat[[570, 585]] = -numpy.inf
    both(flat, "nanargmax")
    both(-flat, "nanargmin")
    flat[0] = -numpy.inf
    flat[1] = 1.0
    both(flat, "nanargmax")
    both(-flat, "nanargmin")
    flat[:] = numpy.nan
    flat[[120, 696]] = 2.0
    both(flat, "nanargmax")
    both(flat, "nanargmin")
    # all-NaN: a slice of rows, the whole array, and a column in the outer kernel
    for fn in ("nanargmax", "nanargmin"):
        with pytest.raises(ValueError, match="All-NaN"):
            getattr(np, fn)(np.asarray(numpy.full(N1, numpy.nan, dt)))
        g = h.copy()
        g[:, 1] = numpy.nan
        with pytest.raises(ValueError, match="All-NaN"):
            getattr(np, fn)(np.asarray(g), axis=0)
        g = h.T.copy()
        g[2] = numpy.nan
        with pytest.raises(ValueError, match="All-NaN"):
            getattr(np, fn)(np.asarray(g), axis=1)


def test_screen_is_rendered_for_real_dtypes_only():
    d = numpy.dtype
    for dt in ("?", "i1", "u8", "f2", "f8"):
        for largest in (True, False):
            for skip in (True, False):
                assert F._arg_spec(d(dt), largest, skip).screen is not None
    assert F._arg_spec(d("c8"), True, False).screen is None
    h = random_array(N1, "f4", rng=numpy.random.default_rng(1))
    check(np.argmax(np.asarray(h)), numpy.argmax(h))
    # the trip's last value: x_{U-1}, or x_{U-1}b where float32 loads words (the simulator)
    last = re.compile(rf"red_may\(x_{R.UNROLL - 1}b?, s0, s1\)")
    assert any("if ch_:" in s and last.search(s)
               for s in compiler.kernel_sources().values())


def test_gpu_variants_are_rendered_for_the_ptx_check():
    """Render (never launch) the GPU renderings (256-thread blocks, warp shuffles) of the
    screened specs, so NPGPU_RECORD_KERNELS + ptxcheck compile them for the GPU too."""
    d = numpy.dtype
    n = 0
    # every dtype class and every (largest, skip-NaN) pair once; inner kernels (warp shuffles,
    # the GPU-only part) in two layouts, outer ones (which differ from the simulator's only in
    # their block constants) once per pair: the CI compile of each kernel costs ~0.2 s
    pairs = [(True, False), (False, False), (True, True), (False, True)]
    for q, dt in enumerate(("?", "i1", "u8", "f2", "f4", "f8")):
        largest, skip = pairs[q % 4]
        spec = F._arg_spec(d(dt), largest, skip)
        for mode, block, tx, nk, nr, lay in (("inner", 256, 1, 0, 1, "C"),
                                             ("inner", 256, 1, 1, 2, "C"),
                                             ("outer", 1024, 32, 1, 1, "A")):
            if mode == "outer" and q >= 4:
                continue
            ks = template.render(spec, mode, nk=nk, nr=nr, in_storage=d(dt),
                                 out_storage=d("i8"), has_mask=False, has_init=False,
                                 first=True, last=True, block=block, tx=tx, sim=False, unroll=8,
                                 in_layout=lay)
            assert "if ch_:" in ks.source
            compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
            n += 1
    assert n == 16
