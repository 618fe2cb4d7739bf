"""The single-pass decoupled look-back scan (npgpu/reductions/scan_lookback.py) against NumPy.

On the simulator tiles are BLOCK * ITEMS = 16 elements and the look-back window is 4 tiles, so
arrays of a few hundred elements span many tiles and windows.  The simulator runs blocks one
after another, so a tile always finds its neighbour's inclusive prefix; the ``_INCLUSIVE_EVERY``
hook withholds most inclusive prefixes, making tiles combine aggregates over several windows.
"""
import sys

import numpy
import pytest

import npgpu as np
from npgpu._codegen import compiler
from npgpu.cuda import runtime
from npgpu.reductions import scan, scan_lookback as lb
from npgpu.reductions.template import ReduceSpec
from npgpu.ufuncs import UFUNCS
from conftest import full_range_random, random_array
from test_reductions import check

sys.setswitchinterval(5e-4)          # cheaper simulator barriers (see test_reductions)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

T = lb.TILE
T4 = lb.BLOCK4 * lb.ITEMS4       # the tile of 4-byte states (float32 cumsum)


@pytest.fixture(autouse=True)
def no_replays(monkeypatch):
    """An empty fast-path cache per test: tests here change the scan's knobs and count its
    launches, which a replay of an earlier test's call would bypass."""
    from npgpu.reductions import reduce as R
    monkeypatch.setattr(R, "FAST", {})


@pytest.fixture
def calls(monkeypatch):
    """Counts look-back launches (so tests know which path ran)."""
    n = [0]
    real = lb.run
    monkeypatch.setattr(scan, "REDUCE_THEN_SCAN", frozenset())     # every state looks back

    def counted(*a, **k):
        n[0] += 1
        return real(*a, **k)
    monkeypatch.setattr(lb, "run", counted)
    return n


@pytest.fixture(params=[1, 3, 10 ** 6], ids=["every", "third", "row_start_only"])
def publish(request, monkeypatch):
    """How often tiles publish their inclusive prefix (row starts always do); on the simulator
    an argument of the kernel, not a kernel of its own per value."""
    monkeypatch.setattr(lb, "_INCLUSIVE_EVERY", request.param)
    return request.param


@pytest.fixture(params=[(1, False), (2, True)], ids=["atomic", "relaxed_x2"])
def reads(request, monkeypatch):
    """4-byte states: statuses per look-back lane a round, relaxed loads/stores or atomics."""
    monkeypatch.setattr(lb, "LANE_READS", request.param[0])
    monkeypatch.setattr(lb, "RELAXED", request.param[1])
    return request.param


def near_one(shape, dt, seed):
    rng = numpy.random.default_rng(seed)
    return (rng.uniform(0.8, 1.25, shape) * rng.choice([-1, 1], shape)).astype(dt)


@pytest.mark.parametrize("dt", ["i4", "i8", "u4", "u8", "f4", "f8", "f2", "i1", "u2", "?"])
def test_cumsum_dtypes_many_tiles(dt, calls):
    # (the publish modes run in the protocol tests below; each mode is a kernel of its own)
    n = 9 * T + 5                                   # not a multiple of the tile
    h = random_array((n,), dt, rng=numpy.random.default_rng(1))
    check(np.cumsum(np.asarray(h)), numpy.cumsum(h), h)
    assert calls[0] == 1


@pytest.mark.parametrize("dt", ["i4", "u4", "i8", "u8", "f4", "f8"])
def test_state_dtypes_by_dtype_argument(dt, calls):
    # dtype= keeps 32-bit integer states (NumPy's own rule), exercising every atomic type
    h = random_array((5 * T + 3,), "i2", rng=numpy.random.default_rng(2), low=0, high=50)
    check(np.cumsum(np.asarray(h), dtype=dt), numpy.cumsum(h, dtype=dt), h)
    assert calls[0] == 1


# ---- 4-byte states: status and value packed into one uint64 word per tile ----------------------
# (float32 cumsum accumulates in float64, an 8-byte state; the float32-state add below is the
# same scan with a float32 accumulator, run through scan.run_scan.)
def _add32_spec():
    import copy
    from npgpu.reductions import ufunc_methods as um
    s = copy.copy(um.reduce_spec(UFUNCS["add"], numpy.dtype("f4"))[0])
    s.state = (numpy.dtype("f4"),)
    s.identity = ("float32(0.0)",)
    s.key = s.key + ("float32-state",)
    return s


def _scan32(h):
    out = np.empty(h.shape, numpy.float32)
    scan.run_scan(_add32_spec(), np.asarray(h), h.ndim - 1, out)
    return out


@pytest.mark.parametrize("dt", ["i4", "u4"])
def test_packed_integer_states(dt, publish, reads, calls):
    # full-range values: negative int32 and uint32 with the high bit set round-trip through the
    # word's low half (sums wrap as NumPy's do)
    h = full_range_random((3, 5 * T + 3), dt, numpy.random.default_rng(20))
    d = np.asarray(h)
    r = np.cumsum(d, axis=1, dtype=dt)
    assert r.dtype == numpy.dtype(dt)
    check(r, numpy.cumsum(h, axis=1, dtype=dt))
    # negative stride along the scan axis, every other row
    check(np.cumsum(d[::-2, ::-1], axis=1, dtype=dt), numpy.cumsum(h[::-2, ::-1], axis=1, dtype=dt))
    check(UFUNCS["maximum"].accumulate(d[:, ::-1], axis=1),
          numpy.maximum.accumulate(h[:, ::-1], axis=1))
    assert calls[0] == 3


def test_packed_float32_states(publish, reads, calls):
    rng = numpy.random.default_rng(21)
    h = full_range_random((3, 5 * T + 3), "f4", rng)
    h[1, 7] = h[2, 3 * T + 1] = numpy.nan
    src = numpy.nan_to_num(h)
    # a float32 sum (sign bits and NaNs travel in the word), forwards and reversed
    check(_scan32(h), numpy.cumsum(h, axis=1), src)
    rev = h[::-1, ::-1]
    out = np.empty(rev.shape, numpy.float32)
    scan.run_scan(_add32_spec(), np.asarray(h)[::-1, ::-1], 1, out)
    check(out, numpy.cumsum(rev, axis=1), src)
    # NumPy's own float32 states: fmax, cumprod
    check(UFUNCS["fmax"].accumulate(np.asarray(h)[:, ::-1], axis=1),
          numpy.fmax.accumulate(h[:, ::-1], axis=1))
    # factors close to one keep 4 tiles' products finite at the GPU's tile size too; rounding
    # grows with the length (NumPy's serial product and the scan's tree round differently)
    rng = numpy.random.default_rng(22)
    p = (rng.uniform(0.99, 1.01, (2, 4 * T + 5)) * rng.choice([-1, 1], (2, 4 * T + 5)))
    p = p.astype(numpy.float32)
    check(np.cumprod(np.asarray(p), axis=1), numpy.cumprod(p, axis=1),
          rtol=max(1e-5, 2e-7 * p.shape[1]))
    assert calls[0] == 4


def test_packed_float32_keeps_negative_zero(publish):
    r = _scan32(numpy.full((2, 4 * T + 5), -0.0, numpy.float32)).get()
    assert r.dtype == numpy.float32 and numpy.signbit(r).all()


@pytest.mark.parametrize("dt", ["f4", "f8"])
def test_trace_records_each_tiles_timeline(dt, reads):
    """The tracing rendering scans as the plain one and stamps every tile: start <= aggregate
    <= inclusive <= stores, and every tile but a row start looks back at least one round."""
    from npgpu.reductions import reduce as R
    from npgpu.reductions import ufunc_methods as um
    spec = um.reduce_spec(UFUNCS["add"], numpy.dtype(dt), scan=True)[0]
    n = 6 * lb.tile_size(spec) + 3
    h = numpy.random.default_rng(23).uniform(-1, 1, n).astype(dt)
    x, out = np.asarray(h), np.empty(n, dt)
    ntile = -(-n // lb.tile_size(spec))
    tr = np.zeros(8 * ntile, numpy.int64)
    isz = numpy.dtype(dt).itemsize
    lb.run(spec, x, out, 0, 1, n, R._arr(x._ptr, [n], [isz], isz),
           R._arr(out._ptr, [n], [isz], isz), trace=tr)
    check(out, numpy.cumsum(h.astype(numpy.float64)).astype(dt), h)
    a = tr.get().reshape(ntile, 8)
    assert (a[:, 0] > 0).all()
    assert (a[:, 0] <= a[:, 1]).all() and (a[:, 1] <= a[:, 2]).all()
    assert (a[:, 2] <= a[:, 4]).all()
    assert (a[1:, 3] >= 1).all() and a[0, 3] == 0


def test_state_size_picks_the_status_protocol():
    from npgpu.reductions import ufunc_methods as um
    d = numpy.dtype
    for dt, packed in (("f4", True), ("i4", True), ("u4", True), ("f8", False), ("i8", False),
                       ("u8", False)):
        spec = um.reduce_spec(UFUNCS["maximum"], d(dt))[0]
        assert spec.state == (d(dt),)
        for sim in (True, False):
            kw = dict(block=8, items=2, window=4) if sim else dict(block=256, items=16, window=32)
            ks = lb.render(spec, nk=0, in_storage=d(dt), out_storage=d(dt), sim=sim, **kw)
            src = ks.source[ks.source.rfind("def scan_block_lookback"):]
            # packed: one exch publishes, one atomic or_ reads, no fence on either side; the
            # words carry the call's epoch (a scalar parameter after them)
            assert ("atomic.or_(sw" in src) == packed
            assert ("threadfence" in src) == (not packed)
            assert ("!= uint64(ep)" in src) == packed
            assert [(p.kind, p.dtype) for p in ks.params[5:]] == (
                [("array", d("i4")), ("array", d("u8")), ("scalar", d("i8"))] if packed
                else [("array", d("i4")), ("array", d(dt)), ("array", d(dt))])


def test_publish_hook_is_an_argument_on_the_simulator():
    """The simulator renders the inclusive-publish hook as the kernel's last argument (one kernel,
    one PTX check, for every value of the ``publish`` fixture); the GPU renders it as a constant,
    and the default 1 as no test at all."""
    from npgpu.reductions import ufunc_methods as um
    spec = um.reduce_spec(UFUNCS["add"], numpy.dtype("f8"))[0]
    kw = dict(nk=0, in_storage=numpy.dtype("f8"), out_storage=numpy.dtype("f8"))
    sim = lb.render(spec, block=8, items=2, window=4, sim=True, inclusive_every=None, **kw)
    assert "if sp % ie == 0:" in sim.source and sim.params[-1].kind == "scalar"
    gpu = dict(block=256, items=16, window=32, sim=False)
    assert "if sp % 3 == 0:" in lb.render(spec, inclusive_every=3, **gpu, **kw).source
    assert "if sp %" not in lb.render(spec, **gpu, **kw).source


def test_status_words_are_reused_by_epoch(monkeypatch, calls):
    """4-byte states keep one status buffer per stream: later calls find the words of earlier
    ones (a stale epoch reads as unpublished), a longer scan grows the buffer, another stream
    has its own, and an epoch about to overflow its bits re-zeroes the buffer."""
    from npgpu.cuda import Stream
    rng = numpy.random.default_rng(24)
    hs = [rng.integers(-1000, 1000, n).astype(numpy.int32) for n in (3 * T4 + 5, 5 * T4, 2 * T4 + 1)]
    key = (runtime._tls.device, runtime.current_stream_handle())
    for rep in range(2):
        for h in hs:
            check(np.cumsum(np.asarray(h), dtype=numpy.int32), numpy.cumsum(h, dtype=numpy.int32))
    mem, cap, ep = lb._words[key]
    # one buffer, grown to the longest scan's 5 tiles; growing restarts the epochs, and the
    # growth (if any: an earlier test on this worker may have left 5 tiles) is by the first
    # 5-tile call, so at least the 5 calls from it on count
    assert cap >= 5 and ep >= 5
    if np.backend() == "cuda":           # (the simulator's streams are all one: handle 0)
        # a stream of its own: its own buffer and epochs; dropped with the stream
        s = Stream(non_blocking=True)
        with s:
            h = hs[0]
            check(np.cumsum(np.asarray(h), dtype=numpy.int32), numpy.cumsum(h, dtype=numpy.int32))
            skey = (runtime._tls.device, s.ptr)
            assert skey in lb._words and lb._words[skey][2] == 1
        s.synchronize()
        del s
        import gc
        gc.collect()
        assert skey not in lb._words
    # the epoch's last value: the next call starts over on a zeroed buffer
    monkeypatch.setattr(lb, "EPOCH_BITS", 3)
    for _ in range(9):
        check(np.cumsum(np.asarray(hs[1]), dtype=numpy.int32), numpy.cumsum(hs[1], dtype=numpy.int32))
        assert 1 <= lb._words[key][2] <= 7
    assert lb._words[key][0] is not mem


@pytest.mark.parametrize("shape", [(3, 4 * T + 7), (2, 3, 2 * T + 1), (4, 2 * T), (5, T + 1)])
def test_multi_row(shape, calls):
    h = random_array(shape, "f8", rng=numpy.random.default_rng(3))
    check(np.cumsum(np.asarray(h), axis=-1), numpy.cumsum(h, axis=-1), h)
    hi = random_array(shape, "i4", rng=numpy.random.default_rng(4))
    check(np.cumsum(np.asarray(hi), axis=-1), numpy.cumsum(hi, axis=-1))
    assert calls[0] == 2


def test_axis_none_flattens_to_one_row(calls):
    h = random_array((6, T // 2 + 3), "i8", rng=numpy.random.default_rng(5))   # > one tile
    check(np.cumsum(np.asarray(h)), numpy.cumsum(h))
    assert calls[0] == 1


@pytest.mark.parametrize("n", [T4 + 1, 2 * T4, 3 * T4 - 1, 4 * T4])
def test_tile_boundaries(n, calls):
    h = random_array((n,), "f4", rng=numpy.random.default_rng(n))
    check(np.cumsum(np.asarray(h)), numpy.cumsum(h), h)
    assert calls[0] == 1


def test_rows_of_one_tile_keep_the_block_kernel(calls):
    h = random_array((4, T), "f8", rng=numpy.random.default_rng(6))
    check(np.cumsum(np.asarray(h), axis=1), numpy.cumsum(h, axis=1), h)
    assert calls[0] == 0


def test_cumprod_and_reorderable_accumulates(publish, calls):
    n = 7 * T + 9
    p = near_one((2, n), "f8", 7)
    check(np.cumprod(np.asarray(p), axis=1), numpy.cumprod(p, axis=1), rtol=1e-10)
    h = random_array((2, n), "f4", rng=numpy.random.default_rng(8))
    h[0, 20] = h[1, 50] = numpy.nan
    d = np.asarray(h)
    for name in ("maximum", "minimum", "fmax", "fmin"):
        check(UFUNCS[name].accumulate(d, axis=1), getattr(numpy, name).accumulate(h, axis=1))
    check(UFUNCS["logaddexp"].accumulate(d, axis=1), numpy.logaddexp.accumulate(h, axis=1), rtol=1e-5)
    hi = random_array((n,), "u8", rng=numpy.random.default_rng(9), high=10 ** 6)
    for name in ("bitwise_xor", "bitwise_or", "bitwise_and", "maximum"):
        check(UFUNCS[name].accumulate(np.asarray(hi)), getattr(numpy, name).accumulate(hi))
    assert calls[0] == 1 + 4 + 1 + 4


def test_nancumsum_nancumprod(calls):
    h = random_array((3, 5 * T + 2), "f4", rng=numpy.random.default_rng(10))
    h[0, :40] = numpy.nan
    h[1, ::7] = numpy.nan
    h[2, 3 * T:4 * T] = numpy.nan
    d = np.asarray(h)
    check(np.nancumsum(d, axis=1), numpy.nancumsum(h, axis=1), numpy.nan_to_num(h))
    p = near_one((3, 5 * T + 2), "f8", 11)
    p[:, ::5] = numpy.nan
    check(np.nancumprod(np.asarray(p), axis=1), numpy.nancumprod(p, axis=1), rtol=1e-10)
    assert calls[0] == 2


def test_layouts_take_the_path_that_applies(calls):
    base = random_array((4, 6 * T + 3), "f8", rng=numpy.random.default_rng(12))
    d = np.asarray(base)
    # negative stride along the scan axis: still unit-stride, one look-back launch
    check(np.cumsum(d[:, ::-1], axis=1), numpy.cumsum(base[:, ::-1], axis=1), base)
    check(np.cumsum(d[1, ::-1]), numpy.cumsum(base[1, ::-1]), base)
    check(np.cumsum(d[::-2, 5:], axis=1), numpy.cumsum(base[::-2, 5:], axis=1), base)
    check(np.cumsum(d.T, axis=0), numpy.cumsum(base.T, axis=0), base)     # axis 0 is the unit one
    assert calls[0] == 4
    # strided scan axis (three-phase scan) and scan across rows (column kernel)
    check(np.cumsum(d[:, ::2], axis=1), numpy.cumsum(base[:, ::2], axis=1), base)
    check(np.cumsum(d, axis=0), numpy.cumsum(base, axis=0), base)
    assert calls[0] == 4
    # non-reorderable ufuncs fold in order, complex states keep the other kernels
    hs = random_array((2 * T + 3,), "i8", rng=numpy.random.default_rng(13))
    check(UFUNCS["subtract"].accumulate(np.asarray(hs)), numpy.subtract.accumulate(hs))
    hc = random_array((3 * T,), "c16", rng=numpy.random.default_rng(14))
    check(np.cumsum(np.asarray(hc)), numpy.cumsum(hc), hc)
    assert calls[0] == 4


def test_view_layouts():
    assert lb._layout([0, 0, 12, 4, 0, 3, 4, 16, 4], 2) == "C"
    assert lb._layout([0, 0, 12, 4, 0, 3, 4, 32, 4], 2) == "A"
    assert lb._layout([0, 0, 4, 8, 0, 4, -8], 1) == "A"
    assert lb._layout([0, 0, 4, 8, 0, 1, 4, 0, 8], 2) == "C"


def test_out_in_place_and_single_launch(calls):
    h = random_array((3, 4 * T + 1), "i8", rng=numpy.random.default_rng(15))
    x = np.asarray(h)
    np.cumsum(x, axis=1, out=x)                        # in place: every tile reads before it writes
    check(x, numpy.cumsum(h, axis=1))
    o = np.zeros((3, 4 * T + 1), numpy.float64)
    assert np.cumsum(np.asarray(h), axis=1, out=o) is o
    check(o, numpy.cumsum(h, axis=1).astype(numpy.float64))
    hf = random_array((8 * T,), "f8", rng=numpy.random.default_rng(16))
    d = np.asarray(hf)
    np.cumsum(d)
    before = compiler.stats["launches"]
    r = np.cumsum(d)
    assert compiler.stats["launches"] - before == 1    # single pass: one kernel, no helper launches
    check(r, numpy.cumsum(hf), hf)


def test_no_identity_combines(publish):
    # nothing combines with the identity (+0.0 for add, 0 for hypot): NumPy keeps -0.0 sums
    # and a row's first element as they are
    h = numpy.full((3, 5 * T + 3), -0.0)
    r = np.cumsum(np.asarray(h), axis=1).get()
    assert numpy.signbit(r).all()
    hy = random_array((3, 6 * T + 1), "f8", rng=numpy.random.default_rng(19))
    hy[:, 0] = -numpy.abs(hy[:, 0]) - 1
    check(UFUNCS["hypot"].accumulate(np.asarray(hy), axis=1), numpy.hypot.accumulate(hy, axis=1))


# An associative, non-commutative combine: composition of maps x -> s*x + c (s = +-1), encoded as
# 2*c + (s == -1).  A scan is correct only if every combine keeps (earlier, later) order.
_AFFINE = """sa = a0 & 1
sb = b0 & 1
ca = a0 >> 1
cb = b0 >> 1
if sb == 1:
    ca = -ca
return (ca + cb) * 2 + (sa ^ sb)"""


def _affine_spec():
    return ReduceSpec(("test", "affine"), np.int64, (np.int64,), ("int64(0)",), "x", _AFFINE, "a0",
                      np.int64)


def _affine_scan_host(h):
    out = numpy.empty_like(h)
    for r in numpy.ndindex(h.shape[:-1]):
        s, c = 0, 0
        for j, v in enumerate(h[r]):
            sv, cv = int(v) & 1, int(v) >> 1
            c = (-c if sv else c) + cv
            s ^= sv
            out[r + (j,)] = 2 * c + s
    return out


def test_non_commutative_combine_keeps_order(publish, calls):
    rng = numpy.random.default_rng(17)
    h = rng.integers(-40, 40, size=(3, 6 * T + 5)).astype(numpy.int64)
    spec = _affine_spec()
    out = np.empty(h.shape, numpy.int64)
    scan.run_scan(spec, np.asarray(h), 1, out)
    check(out, _affine_scan_host(h))
    assert calls[0] == 1


def _gpu_specs():
    from npgpu.reductions import functions as F
    from npgpu.reductions import ufunc_methods as um
    d = numpy.dtype
    out = []
    for name, dt in (("add", "f4"), ("add", "f8"), ("add", "i8"), ("add", "u4"), ("add", "i4"),
                     ("add", "u8"), ("multiply", "f8"), ("maximum", "i4"), ("fmax", "f4"),
                     ("logaddexp", "f8")):
        out.append((um.reduce_spec(UFUNCS[name], d(dt))[0], d(dt), d(dt)))
    import copy
    s = copy.copy(um.reduce_spec(UFUNCS["add"], d("f4"))[0])
    s.pre = F._nan_to(0)(d("f4"))
    s.key = s.key + (s.pre,)
    out.append((s, d("f4"), d("f4")))
    out.append((um.reduce_spec(UFUNCS["add"], d("f2"))[0], d("f2"), d("f2")))
    out.append((um.reduce_spec(UFUNCS["add"], d("i8"))[0], d("?"), d("i8")))
    out.append((_affine_spec(), d("i8"), d("i8")))
    out.append((_add32_spec(), d("f4"), d("f4")))
    out.append((um.reduce_spec(UFUNCS["multiply"], d("f4"))[0], d("f4"), d("f4")))
    out.append((um.reduce_spec(UFUNCS["maximum"], d("u4"))[0], d("u4"), d("u4")))
    return out


def test_gpu_variants_are_rendered_for_the_ptx_check():
    """Render (never launch) the GPU rendering -- 256 x 16 tiles, warp shuffles, ballot
    look-back -- so that NPGPU_RECORD_KERNELS + ptxcheck compile it with Numba's typing."""
    n = 0
    # every spec once, contiguous rows; the strided layout and the carry (reduce-then-scan)
    # variant for every other spec -- these are big kernels, ~1 s each for CI's PTX compile
    for q, (spec, in_dt, out_dt) in enumerate(_gpu_specs()):
        # the GPU's tile shapes (lb.BLOCK4 x lb.ITEMS4 for 4-byte states, else BLOCK x ITEMS)
        block, items = (128, 32) if spec.state[0].itemsize == 4 else (256, 16)
        for nk, carry in ((0, False), (2, True)) if q % 2 else ((0, False),):
            lay = "A" if nk == 2 else "C"         # C: contiguous rows; A: any strides
            packed = spec.state[0].itemsize == 4    # the GPU spin; the launch-bounds knob
            ks = lb.render(spec, nk=nk, in_storage=in_dt, out_storage=out_dt, block=block,
                           items=items, window=32, sim=False, in_layout=lay, out_layout=lay,
                           carry=carry, spin_ns=200 if packed else 0,
                           min_blocks=10 if packed else None)
            assert ks.launch_bounds == ((block, 10) if packed else None)
            if carry:                             # phase 3 of reduce-then-scan: no look-back
                assert "ballot_sync" not in ks.source and "cin[t - 1]" in ks.source
            else:
                assert "shfl_up_sync" in ks.source and "ballot_sync" in ks.source
            compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
            n += 1
    # the other block shape the GPU constants may take, the spin back-off knob and tile ids
    # from the atomic counter (an 8-byte and a packed 4-byte state)
    for spec in (_gpu_specs()[0][0], _add32_spec()):
        ks = lb.render(spec, nk=0, in_storage=numpy.dtype("f4"), out_storage=numpy.dtype("f4"),
                       block=512, items=8, window=32, sim=False, spin_ns=100, block_ids=False)
        assert "nanosleep" in ks.source and "cuda.atomic.add(ws, 0" in ks.source
        compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
    # relaxed status words, 4 reads a lane a round, and the tracing rendering (ptx intrinsics)
    ks = lb.render(_add32_spec(), nk=0, in_storage=numpy.dtype("f4"),
                   out_storage=numpy.dtype("f4"), block=128, items=32, window=32, sim=False,
                   spin_ns=200, lane_reads=4, relaxed=True, trace=True, min_blocks=8)
    assert "ptx.load_relaxed(sw" in ks.source and "ptx.store_relaxed(sw" in ks.source
    assert "ptx.globaltimer()" in ks.source and "pw3_" in ks.source
    compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
    assert n == len(_gpu_specs()) + len(_gpu_specs()) // 2


@pytest.mark.skipif(np.backend() != "cuda", reason="big single-pass scans need a real GPU")
def test_large_scans_on_gpu():
    rng = numpy.random.default_rng(18)
    h = rng.standard_normal(1 << 22).astype(numpy.float32)
    check(np.cumsum(np.asarray(h)), numpy.cumsum(h.astype(numpy.float64)).astype(numpy.float32), h)
    hi = rng.integers(-1000, 1000, size=(64, 1 << 16)).astype(numpy.int32)
    check(np.cumsum(np.asarray(hi), axis=-1), numpy.cumsum(hi, axis=-1))
    p = rng.uniform(0.999, 1.001, 1 << 20)
    check(np.cumprod(np.asarray(p)), numpy.cumprod(p), rtol=1e-9)


@pytest.mark.parametrize("dt", ["f4", "i4", "f2"])        # 4-byte, 8-byte and float16 loads
def test_reduce_then_scan(dt, monkeypatch):
    """Rows of many tiles as tile totals + a scan of the totals + a carried tile scan."""
    monkeypatch.setattr(scan, "REDUCE_THEN_SCAN", frozenset({2, 4, 8}))
    launched = [0]
    real = lb.run_carry

    def counted(*a, **k):
        launched[0] += 1
        return real(*a, **k)
    monkeypatch.setattr(lb, "run_carry", counted)
    rng = numpy.random.default_rng(31)
    h = random_array((3, 6 * T4 + 5), dt, rng=rng)
    d = np.asarray(h)
    check(np.cumsum(d, axis=1), numpy.cumsum(h, axis=1), h)
    check(np.cumsum(d[::-1, ::-1], axis=1), numpy.cumsum(h[::-1, ::-1], axis=1), h)
    flat = random_array((40 * T4 + 1,), dt, rng=rng)  # totals of more than one tile themselves
    check(np.cumsum(np.asarray(flat)), numpy.cumsum(flat), flat)
    if numpy.dtype(dt).kind == "f":
        z = numpy.full(5 * T4, -0.0, dt)             # a run of -0.0 keeps its sign
        assert numpy.signbit(np.cumsum(np.asarray(z)).get()).all()
        g = h.copy()
        g[1, 2 * T4 + 3] = numpy.nan
        check(np.nancumsum(np.asarray(g), axis=1), numpy.nancumsum(g, axis=1), numpy.nan_to_num(g))
    # rows and the flat case (and on the simulator the totals of the flat case too)
    assert launched[0] >= 3
