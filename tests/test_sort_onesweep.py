"""The radix sort's onesweep passes (``radix.ONESWEEP``: one histogram of every pass's digits up
front, each pass one scatter kernel with a decoupled look-back) against NumPy's stable sort."""
import numpy
import pytest

import npgpu as np
from npgpu.sorting import keys as _keys
from npgpu.sorting import radix as _radix
from npgpu.sorting import segmented as _seg

from conftest import ALL_DTYPES, ON_GPU


@pytest.fixture(autouse=True)
def onesweep(monkeypatch):
    monkeypatch.setattr(_radix, "ONESWEEP", True)


def tile(w=4, pw=0):
    """Elements a tile of the global sort (sizes above the one-block row sort take it)."""
    return _radix.BLOCK * _radix.items_for(w, pw)


def big(k=3, extra=5):
    """A 1-d size of ``k`` tiles + ``extra``, above the one-block row sort."""
    n = k * tile() + extra
    return max(n, _seg.max_row(8, 8) + extra)


def data(n, dt, seed=0):
    """Random values with ties; floats with NaN (both signs), +-0, +-inf; complex with NaN
    parts; integers with their extremes."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return rng.random(n) > 0.5
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        h = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dt)
        h[: n // 3] = h[n // 3: 2 * (n // 3)]           # ties
        h[:2] = [info.min, info.max][:n]
        rng.shuffle(h)
        return h
    if dt.kind == "f":
        h = numpy.round(rng.standard_normal(n) * 8, 1).astype(dt)
        sp = numpy.array([numpy.nan, -0.0, 0.0, numpy.inf, -numpy.inf, -numpy.nan, -0.0], dt)
        h[rng.choice(n, sp.size, replace=False)] = sp
        return h
    re = data(n, numpy.float32 if dt.itemsize == 8 else numpy.float64, seed + 1)
    im = numpy.round(rng.standard_normal(n) * 2)
    h = (re + 1j * im).astype(dt)
    h[1], h[2], h[3] = complex(numpy.nan, 2), complex(1, numpy.nan), complex(numpy.nan, 1)
    return h


def same(got, want):
    """Exact equality, floats bit for bit (NaN payloads, signs of zeros)."""
    got = got.get()
    assert got.shape == want.shape and got.dtype == want.dtype
    if want.dtype.kind in "fc":
        w = want.dtype.itemsize if want.dtype.kind == "f" else want.dtype.itemsize // 2
        got, want = got.view(f"u{w}"), want.view(f"u{w}")
    assert numpy.array_equal(got, want), (got, want)


def ref_argsort(h, descending=False):
    """Stable argsort; descending as the Array API's (ties keep input order)."""
    if not descending:
        return numpy.argsort(h, kind="stable")
    return h.size - 1 - numpy.argsort(h[::-1], kind="stable")[::-1]


def check(h, descending=False):
    a = np.asarray(h)
    perm = ref_argsort(h, descending)
    same(np.sorting.argsort(a, descending=descending), perm)
    same(np.sorting.sort(a, descending=descending), h[perm])


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_every_dtype(dt):
    check(data(big(), dt, seed=1))


@pytest.mark.parametrize("dt", [numpy.bool_, numpy.int16, numpy.float32, numpy.complex64],
                         ids=str)
def test_descending(dt):
    # NaN first, ties in input order
    check(data(big(), dt, seed=2), descending=True)


@pytest.mark.parametrize("k,extra", [(1, 1), (2, -1), (2, 0), (2, 1), (4, 0), (5, 7)])
def test_tile_boundaries(k, extra):
    n = k * tile() + extra
    if n <= _seg.max_row(4, 8):
        n += tile()
    check(data(n, numpy.int32, seed=k))
    check(data(n, numpy.float32, seed=k + 10))


def test_keys_differ_in_one_digit():
    # every key equal but for its top (bottom) digit: every other pass sees one digit, all
    # in one bucket; ties keep input order
    rng = numpy.random.default_rng(3)
    n = big(4, 3)
    top = (rng.integers(0, 5, n).astype(numpy.uint32) << numpy.uint32(24)) | numpy.uint32(0x123456)
    bottom = numpy.uint32(0xABCDEF00) | rng.integers(0, 7, n).astype(numpy.uint32)
    for h in (top, bottom, top.view(numpy.int32), bottom.view(numpy.float32),
              numpy.zeros(n, numpy.float32)):
        check(h)
        check(h, descending=True)


def test_lookback_adds_aggregates(monkeypatch):
    # tiles publish their inclusive prefix only every third tile: a look-back adds the
    # aggregates of the tiles in between
    monkeypatch.setattr(_radix, "_PREFIX_EVERY", 3)
    n = big(7, 9)
    for dt in (numpy.float32, numpy.uint8, numpy.int64, numpy.complex64):
        check(data(n, dt, seed=4))
    # float values whose keys decode (no NaN, no -0.0): no payload travels
    check(numpy.random.default_rng(5).standard_normal(n).astype(numpy.float32))


@pytest.mark.parametrize("digit", [8, 3])
def test_digit_widths(monkeypatch, digit):
    # the GPU's 8-bit digits on the simulator, and 3-bit ones (11 passes of a 32-bit key, the
    # last 2 bits wide): one histogram counts them all
    monkeypatch.setattr(_radix, "DIGIT", digit)
    h = data(big(2, 3), numpy.int32, seed=11)
    got = _radix.sort(_keys.parts_for(np.asarray(h)), h.size, payload="index")
    same(got, numpy.argsort(h, kind="stable"))


def test_rows_and_axes():
    # rows longer than the one-block sort (the row id is a key part of its own, sorted by a
    # later histogram) and a sort along axis 0
    m = _seg.max_row(4, 8) + 3
    h = data(3 * m, numpy.float32, seed=6).reshape(3, m)
    a = np.asarray(h)
    same(np.sorting.sort(a), numpy.sort(h, kind="stable"))
    same(np.sorting.argsort(a), numpy.argsort(h, kind="stable"))
    same(np.sorting.argsort(a, axis=0), numpy.argsort(h, axis=0, kind="stable"))
    hi = data(2 * m, numpy.int16, seed=7).reshape(2, m)
    same(np.sorting.sort(np.asarray(hi), axis=None), numpy.sort(hi, axis=None, kind="stable"))


def test_gpu_variants_render():
    """The GPU renderings of the onesweep kernels (histogram; scatter with warp ranking and the
    look-back), registered so CI's PTX check compiles them (gpu-variant)."""
    from npgpu._codegen import compiler
    i32, i64, u8, u32 = (numpy.dtype(t) for t in ("i4", "i8", "u1", "u4"))
    f32 = _keys.parts_for(np.asarray(data(8, numpy.float32)))[0]
    i16 = _keys.parts_for(np.asarray(data(8, numpy.int16)), descending=True)[0]
    c8 = _keys.parts_for(np.asarray(data(8, numpy.complex64)))
    row = _keys.row_part(3000, 5)
    # (part, src, payload, key out, payload out, payload dtype, key-out dtype, payload-out
    # dtype, cond)
    scatters = [(f32, "first", "values", "key", "cast", u32, f32.dtype, u32, True),
                (f32, "key", "array", "decode", None, u32, f32.src.dtype, u8, True),
                (f32, "first", "iota", "key", "cast", i32, f32.dtype, i32, False),
                (f32, "key", "array", None, "cast", i32, u8, i64, False),
                (i16, "first", None, "decode", None, u8, i16.src.dtype, u8, False),
                (c8[1], "gather", "array", "key", "cast", i32, c8[1].dtype, i32, False),
                (row, "gather", "array", None, "mod", i32, u8, i64, False)]
    for part, src, pay, ko, po, pdt, kodt, podt, cond in scatters:
        bits = min(8, part.bits)
        items = _radix.items_for(part.w, pdt.itemsize if pay else 0, sim=False)
        ks = _radix.render_scatter(part, src, pay, ko, po, bits, i32, pdt, kodt, podt,
                                   block=256, items=items, sim=False, cond=cond, sweep=True)
        assert "atomic.or_" in ks.source and "ballot_sync" in ks.source
        compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
        if src != "key":
            shifts = list(range(0, part.bits, 8))
            kh = _radix.render_histogram(part, shifts, bits, i32, block=256, items=items,
                                         sim=False, detect=cond)
            compiler.get_kernel(("gpu-variant", kh.digest()), lambda kh=kh: kh)


@pytest.mark.skipif(not ON_GPU, reason="large sorts need a real GPU")
def test_large_on_gpu():
    # thousands of tiles in flight: look-backs that wait on tiles still running
    rng = numpy.random.default_rng(12)
    for dt in (numpy.int32, numpy.float32, numpy.float64):
        h = (rng.standard_normal(1 << 21) * 1000).astype(dt)
        check(h)
    check(rng.integers(0, 3, 1 << 21).astype(numpy.int32))
    check(numpy.zeros(1 << 20, numpy.float32))
    h = rng.standard_normal((300, 4000)).astype(numpy.float32)
    same(np.sorting.argsort(np.asarray(h), axis=0), numpy.argsort(h, axis=0, kind="stable"))
