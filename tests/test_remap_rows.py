"""The rows form of the remap kernel (npgpu/_remap.py): tile, roll, pad and take along the last
axis on rows of at least ROWS_MIN elements (8 on the simulator), the single-wrap/reflection pad
maps and their wide-pad fallbacks, two-element words (stores, and loads where aligned), the
shared-memory stage of take, and concatenate's contiguous-block copies; against NumPy on random
data, every dtype, non-contiguous / negative-stride / broadcast / 0-d / empty sources."""
import numpy
import pytest

import npgpu as np
from npgpu import _remap
from conftest import ALL_DTYPES, assert_same, make_layout, random_array, raises_like

RNG = numpy.random.default_rng(1313)
LAYOUTS = ("contiguous", "transposed", "strided", "negative", "broadcast")


@pytest.fixture
def rows(monkeypatch):
    """Counts launches of the rows form (so a test can assert that it ran); rows from 8
    elements, as on the simulator, so that the GPU runs the rows form on these small arrays."""
    monkeypatch.setattr(_remap, "ROWS_MIN", 8)
    monkeypatch.setattr(_remap, "_PLANS", {})       # plans made under another ROWS_MIN
    calls = []
    launch = _remap._launch_rows

    def counted(*args):
        calls.append(args[5])          # the map kinds
        return launch(*args)

    monkeypatch.setattr(_remap, "_launch_rows", counted)
    return calls


@pytest.fixture(params=[False, True], ids=["stage", "indexed"])
def indexed(request, monkeypatch):
    """Both forms of the staged lookups (``_remap.INDEXED``, NPGPU_REMAP_INDEXED); returns the
    kernels of the indexed launches made (none with the switch off)."""
    from npgpu.indexing import routines
    monkeypatch.setattr(_remap, "INDEXED", request.param)
    monkeypatch.setattr(_remap, "_PLANS", {})
    monkeypatch.setattr(routines, "_take_calls", {})     # launches stored under the other form
    made = []
    launch = _remap._launch_indexed

    def counted(*args):
        got = launch(*args)
        if got is not None:
            made.append(got[0])
        return got

    monkeypatch.setattr(_remap, "_launch_indexed", counted)
    return made


def cases(shape, dt):
    h = random_array(shape, dt, RNG)
    return [make_layout(h, lay) for lay in LAYOUTS]


# one dtype of each itemsize and word class runs every layout; the others (the same template
# paths, each a kernel of its own for CI's PTX check) the contiguous one
LAYOUT_DTYPES = {numpy.dtype(t) for t in ("?", "u2", "f4", "i8", "c16")}


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_rows_dtypes(dt, rows):
    n = _remap.ROWS_MIN
    for g, h in cases((3, n + 2), dt)[:None if dt in LAYOUT_DTYPES else 1]:
        assert_same(np.tile(g, 2), numpy.tile(h, 2))
        assert_same(np.roll(g, 3, axis=1), numpy.roll(h, 3, axis=1))
        assert_same(np.roll(g, (1, -5), (0, 1)), numpy.roll(h, (1, -5), (0, 1)))
        w = ((1, 2), (3, 1))
        assert_same(np.pad(g, w, "reflect"), numpy.pad(h, w, "reflect"))
        assert_same(np.pad(g, 2, constant_values=((1, 0), (0, 1))),
                    numpy.pad(h, 2, constant_values=((1, 0), (0, 1))))
        idx = RNG.integers(-(n + 2), n + 2, n + 1)
        assert_same(np.take(g, np.asarray(idx), axis=1), numpy.take(h, idx, axis=1))
    if dt in LAYOUT_DTYPES:      # (contiguous 8-byte take: not the rows form)
        assert {"take_raise", "reflect1", "rot", "const"} <= {k for kinds in rows for k in kinds}
    assert rows


@pytest.mark.parametrize("dt", ["f4", "i1", "c8"])
def test_words_alignment(dt, rows):
    """Odd and even rows, source offsets of either parity (word loads where aligned)."""
    for n in (10, 11):
        h = random_array((4, n + 1), dt, RNG)
        g = np.asarray(h)
        for sl in (numpy.s_[:, :n], numpy.s_[:, 1:], numpy.s_[1:, ::-1]):
            assert_same(np.tile(g[sl], (1, 2)), numpy.tile(h[sl], (1, 2)))
            for s in (1, 2, -3):
                assert_same(np.roll(g[sl], s), numpy.roll(h[sl], s))
            for w in (1, 2):
                assert_same(np.pad(g[sl], ((0, 1), (w, w + 1)), "symmetric"),
                            numpy.pad(h[sl], ((0, 1), (w, w + 1)), "symmetric"))
    assert rows


def test_tile_as_zero_stride_axes(rows):
    h = random_array((2, 9), "f4", RNG)
    g = np.asarray(h)
    for reps in [2, (3, 1), (2, 2), (1, 3, 2), (0, 2), (2, 0)]:
        assert_same(np.tile(g, reps), numpy.tile(h, reps))
    for lay in ("zero_d", "empty"):
        gz, hz = make_layout(h, lay)
        assert_same(np.tile(gz, 9), numpy.tile(hz, 9))
        assert_same(np.tile(gz, (2, 10)), numpy.tile(hz, (2, 10)))
    assert all(k == "id" for kinds in rows for k in kinds)


@pytest.mark.parametrize("mode", ["reflect", "symmetric", "wrap", "edge"])
def test_pad_single_and_wide_forms(mode, rows):
    """Widths below, at and above the axis length: the division-free single form and the
    general modulo form both run."""
    h = random_array((3, 9), "f4", RNG)
    for g, hh in [make_layout(h, lay) for lay in LAYOUTS]:
        for w in [(1, 2), (8, 8), (9, 9), (10, 3), (20, 25)]:
            assert_same(np.pad(g, ((1, 1), w), mode), numpy.pad(hh, ((1, 1), w), mode))
    seen = {k for kinds in rows for k in kinds}
    if mode in ("reflect", "symmetric", "wrap"):
        assert {mode + "1", "mod" if mode == "wrap" else mode} <= seen


def test_pad_single_forms_map_choice():
    """The host picks the single form exactly when one wrap/reflection reaches."""
    from npgpu.padding import _index_map
    m = 9
    assert _index_map("reflect", m, 8, m + 8 + 8).kind == "reflect1"
    assert _index_map("reflect", m, 9, m + 9).kind == "reflect"
    assert _index_map("symmetric", m, 9, m + 9 + 9).kind == "symmetric1"
    assert _index_map("symmetric", m, 0, m + 10).kind == "symmetric"
    assert _index_map("wrap", m, 9, m + 18).kind == "wrap1"
    assert _index_map("wrap", m, 10, m + 10).kind == "mod"


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("dt", ["b1", "u2", "f4", "i8", "c16"])
def test_take_staged(mode, dt, rows, indexed):
    n = _remap.ROWS_MIN + 3
    lo = -3 * n if mode != "raise" else -n
    hi = 3 * n if mode != "raise" else n
    # every layout for the (dtype, mode) pairs of one diagonal: each dtype runs every layout in
    # one mode, each mode in one or two dtypes; the contiguous one for the others (each layout
    # x dtype x mode is a kernel for CI's PTX check; layouts, word classes and modes are
    # separate parts of the template)
    diag = ["b1", "u2", "f4", "i8", "c16"].index(dt) % 3 == ["raise", "wrap", "clip"].index(mode)
    diag = diag and not _remap.INDEXED      # (its layouts: test_take_indexed_forms)
    for g, h in cases((2, 3, n), dt)[:None if diag else 1]:
        for idx in (RNG.integers(lo, hi, 2 * n), RNG.integers(lo, hi, (2, 5)).astype(numpy.int32)):
            assert_same(np.take(g, np.asarray(idx), axis=-1, mode=mode),
                        numpy.take(h, idx, axis=-1, mode=mode))
        idx = RNG.integers(0, n, n).astype(numpy.uint8)
        assert_same(np.take(g[0], idx, axis=1, mode=mode), numpy.take(h[0], idx, axis=1, mode=mode))
    flat = random_array((n,), dt, RNG)
    idx = RNG.integers(lo, hi, n)
    assert_same(np.take(np.asarray(flat), np.asarray(idx), mode=mode),
                numpy.take(flat, idx, mode=mode))
    # 'wrap' reduces its indices first (one small launch), then reads them as a plain table
    assert any(kinds[-1] == ("table" if mode == "wrap" else "take_" + mode) for kinds in rows)
    assert bool(indexed) == _remap.INDEXED


def test_take_staged_errors_and_out(indexed):
    n = _remap.ROWS_MIN + 1
    h = random_array((3, n), "f4", RNG)
    g = np.asarray(h)
    for bad in (n, -n - 1, 10 * n):
        idx = RNG.integers(0, n, 2 * n)
        idx[5] = bad
        idx[7] = bad + 1 if bad > 0 else bad - 1
        raises_like(lambda: numpy.take(h, idx, axis=1), lambda: np.take(g, np.asarray(idx), axis=1))
    # the record is re-armed: the next call succeeds
    idx = RNG.integers(0, n, n)
    assert_same(np.take(g, np.asarray(idx), axis=1), numpy.take(h, idx, axis=1))
    out = np.zeros((3, n), "f4")
    res = np.take(g, np.asarray(idx), axis=1, out=out)
    assert res is out
    assert_same(out, numpy.take(h, idx, axis=1))
    raises_like(lambda: numpy.take(h, idx, axis=1, mode="bad"),
                lambda: np.take(g, np.asarray(idx), axis=1, mode="bad"))
    e = numpy.zeros((2, 0), "f4")
    raises_like(lambda: numpy.take(e, idx, axis=1, mode="wrap"),
                lambda: np.take(np.asarray(e), np.asarray(idx), axis=1, mode="wrap"))


@pytest.mark.parametrize("dt", ["f4", "b1", "c8"])
def test_concatenate_blocks(dt):
    a = random_array((5, 3), dt, RNG)
    b = random_array((2, 3), dt, RNG)
    ga, gb = np.asarray(a), np.asarray(b)
    assert_same(np.concatenate([ga, gb]), numpy.concatenate([a, b]))
    assert_same(np.concatenate([ga[None], gb[None, :, :]], axis=1),
                numpy.concatenate([a[None], b[None]], axis=1))
    assert_same(np.concatenate([ga.ravel(), gb[:0].ravel(), gb.ravel()]),
                numpy.concatenate([a.ravel(), b[:0].ravel(), b.ravel()]))
    # mixed layouts and dtypes take the general path
    assert_same(np.concatenate([ga[::-1], gb]), numpy.concatenate([a[::-1], b]))
    wide = "c16" if dt == "c8" else "f8"
    assert_same(np.concatenate([ga, gb.astype(wide)]), numpy.concatenate([a, b.astype(wide)]))


@pytest.mark.parametrize("dt", ["f4", "i1", "c16", "b1"])
def test_tile_leading_repeats_load_once(dt, rows):
    """Leading repetitions (tile's outer reps) are one load and Z stores per value: every
    layout, words and scalar rows, odd and even lengths, a partial last block."""
    for shape in [(21,), (4, 10), (3, 2, 9)]:
        h = random_array(shape, dt, RNG)
        # (int8: the contiguous layout; bool runs every layout of the 1-byte rows, each layout
        # x dtype a kernel for CI's PTX check)
        for g, hh in [make_layout(h, lay) for lay in LAYOUTS[:1 if dt == "i1" else None]]:
            for reps in [3, (2,) + (1,) * len(shape), (2, 1, 2, 1)]:
                assert_same(np.tile(g, reps), numpy.tile(hh, reps))
    # the planner sees the repetition axes: zero stride, not const, before the last axis
    A = _remap.AxisMap
    assert _remap._repeats((2, 3, 5), (0, 0, 4), [A("id", 2), A("id", 3), A("id", 5)]) == 2
    assert _remap._repeats((2, 5), (0, 0), [A("id", 2), A("id", 5)]) == 1
    assert _remap._repeats((2, 5), (0, 4), [A("const", 2, 0, 2, fill=(0, 0)), A("id", 5)]) == 0
    assert rows


def test_replayed_plans_match_fresh_ones():
    """A repeated call replays its cached launch with the new arrays' pointers: same results
    as a first call, for every form (rows, linear, words, repetitions, fills), views at
    another alignment included."""
    _remap._PLANS.clear()
    h = random_array((6, 40), "f4", RNG)
    for _ in range(3):
        for g, hh in [make_layout(h, lay) for lay in LAYOUTS]:
            assert_same(np.roll(g, 7), numpy.roll(hh, 7))
            assert_same(np.tile(g, (2, 1)), numpy.tile(hh, (2, 1)))
            assert_same(np.pad(g, 3, "reflect"), numpy.pad(hh, 3, "reflect"))
            assert_same(np.pad(g, ((1, 2), (3, 4)), constant_values=5),
                        numpy.pad(hh, ((1, 2), (3, 4)), constant_values=5))
            assert_same(np.roll(g[:, 1:], 3, axis=1), numpy.roll(hh[:, 1:], 3, axis=1))
            assert_same(np.tile(g[:, :3], 2), numpy.tile(hh[:, :3], 2))
    assert _remap._PLANS


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_replayed_tables_and_record(mode, rows, indexed):
    """Replayed launches with tables (take's index row, repeat's cumulative counts, insert's
    positions) and take's bounds record: each call reads its own table and record, so new index
    values, new counts and a bad index in a later call all come out as on a first call."""
    _remap._PLANS.clear()
    h = random_array((5, 24), "f4", RNG)
    g = np.asarray(h)
    for rep in range(4):
        idx = RNG.integers(-24 if mode == "raise" else -60, 24 if mode == "raise" else 60, 17)
        assert_same(np.take(g, np.asarray(idx), axis=1, mode=mode),
                    numpy.take(h, idx, axis=1, mode=mode))
        counts = RNG.integers(0, 3, 24)
        counts[rep] += 48 - counts.sum() if counts.sum() < 48 else 0        # totals repeat
        counts[counts.argmax()] -= counts.sum() - 48
        assert_same(np.repeat(g, np.asarray(counts), axis=1), numpy.repeat(h, counts, axis=1))
        pos = RNG.integers(0, 24, 3)
        assert_same(np.delete(g, np.asarray(pos), axis=1), numpy.delete(h, pos, axis=1))
    if mode == "raise":
        bad = numpy.array([1, 2, 30, 4] * 4 + [0])
        raises_like(lambda: numpy.take(h, bad, axis=1), lambda: np.take(g, np.asarray(bad), axis=1))
        ok = RNG.integers(0, 24, 17)        # the record re-armed: a good call after a bad one
        assert_same(np.take(g, np.asarray(ok), axis=1), numpy.take(h, ok, axis=1))
    assert any(k[5] for k in _remap._PLANS) == (mode == "raise")
    # each distinct launch planned once, replayed after: the rows form was set up once a plan
    assert len(rows) == len(_remap._PLANS)
    assert any(kinds[-1] == ("table" if mode == "wrap" else "take_" + mode) for kinds in rows)


@pytest.mark.parametrize("dt", ["f4", "b1", "u2", "i8", "c16"])
def test_take_indexed_forms(dt, rows, monkeypatch):
    """The indexed form's variants (NPGPU_REMAP_INDEXED=1): 16-byte, 8-byte and element output
    units (even and odd row lengths), 16-byte and element stages (every layout: strided and
    broadcast rows stage element by element), 16-byte elements as two words, rows longer than a
    block's prefetch, several column chunks a row (a small index budget), outer axes, and the
    first bad index of 'raise' across chunks; delete and repeat's lookups too."""
    monkeypatch.setattr(_remap, "INDEXED", True)
    monkeypatch.setattr(_remap, "_PLANS", {})
    from npgpu.indexing import routines
    monkeypatch.setattr(routines, "_take_calls", {})
    # tails everywhere: 4 threads, 1 unit prefetched (or none), chunks of 4 columns and more
    monkeypatch.setattr(_remap, "_IDX_BLOCK", 4)
    monkeypatch.setattr(_remap, "_IDX_PREFETCH", 0 if dt in ("b1", "i8") else 1)
    monkeypatch.setattr(_remap, "_IDX_MIN", 4)
    made = []
    launch = _remap._launch_indexed
    monkeypatch.setattr(_remap, "_launch_indexed",
                        lambda *a: made.append(launch(*a)) or made[-1])
    isz = numpy.dtype(dt).itemsize
    # every layout in one mode a dtype (each a kernel for CI's PTX check), the contiguous one in
    # the others
    modes = ("raise", "clip", "wrap")
    full = modes[["f4", "b1", "u2", "i8", "c16"].index(dt) % 3]
    for m, cols in [(16, 24), (16, 21), (40, 33)]:
        h = random_array((2, 3, m), dt, RNG)
        for i, (g, hh) in enumerate(cases(h.shape, dt) if (m, cols) == (16, 24)
                                    else [(np.asarray(h), h)]):
            for mode in modes if i == 0 else (full,):
                lo, hi = (-m, m) if mode == "raise" else (-3 * m, 3 * m)
                idx = RNG.integers(lo, hi, cols)
                assert_same(np.take(g, np.asarray(idx), axis=-1, mode=mode),
                            numpy.take(hh, idx, axis=-1, mode=mode))
    assert all(made)
    # a small index budget: several chunks of columns a row, each block building its own
    monkeypatch.setattr(_remap, "STAGE_MAX", 16 * isz + 32)     # the row and 16 columns
    h = random_array((5, 16), dt, RNG)
    g = np.asarray(h)
    made.clear()
    idx = RNG.integers(-16, 16, 56)
    assert_same(np.take(g, np.asarray(idx), axis=1), numpy.take(h, idx, axis=1))
    assert made[-1] is not None and made[-1][1][0] > 1      # grid x: several chunks
    for bad in ([40, 3], [3, -17]):
        idx[[33, 50]] = bad                 # two bad indices in different chunks: the first
        raises_like(lambda: numpy.take(h, idx, axis=1), lambda: np.take(g, np.asarray(idx), axis=1))
    pos = RNG.integers(0, 16, 3)
    assert_same(np.delete(g, np.asarray(pos), axis=1), numpy.delete(h, pos, axis=1))
    counts = RNG.integers(0, 4, 16)
    assert_same(np.repeat(g, np.asarray(counts), axis=1), numpy.repeat(h, counts, axis=1))


@pytest.mark.parametrize("indexed", [True], ids=["indexed"], indirect=True)
@pytest.mark.parametrize("hints", [set(), {"ld"}, {"st"}, {"ld", "st"}])
def test_take_indexed_cache_hints(hints, rows, indexed, monkeypatch):
    # every streaming-hint form of the indexed take's 16-byte accesses (NPGPU_REMAP_CACHE_HINTS;
    # "st" the default) and none, the indexed form only: the same results; their kernels go to
    # CI's PTX check (asm there)
    monkeypatch.setattr(_remap, "_IDX_CACHE_HINTS", frozenset(hints))
    n = _remap.ROWS_MIN + 4
    h = random_array((5, 2 * n), "f4", RNG)              # 16-byte rows: the 16-byte stage
    for mode in ("raise", "clip"):
        idx = RNG.integers(-2 * n if mode == "raise" else -5 * n, 2 * n, 4 * n)
        assert_same(np.take(np.asarray(h), np.asarray(idx), axis=1, mode=mode),
                    numpy.take(h, idx, axis=1, mode=mode))
    assert indexed
    names = " ".join(k.source.source for k in indexed)
    for hint, fn in (("ld", "ptx.load16_cs("), ("st", "ptx.store16_cs(")):
        assert (fn in names) == (hint in hints)
