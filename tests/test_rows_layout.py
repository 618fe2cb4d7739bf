"""The elementwise ``rows`` layout: 2-D operands that are unit-stride along the rows or broadcast
there (a row broadcast ``x - m``, a column one beside it, row-sliced and row-reversed views,
``out=`` views), threads along a row and the grid's y over the rows.  Every case against
NumPy on random data, for every dtype kind, with a check that the layout was the one taken
(on by default; the fixture lowers the GPU's 128-column threshold for small arrays)."""
import numpy as np
import pytest

import npgpu
from conftest import assert_same, launched, random_array
from npgpu._codegen import elementwise as ew

DTYPES = [np.float32, np.float64, np.int8, np.int64, np.uint16, np.complex64, np.bool_,
          np.float16]


@pytest.fixture
def rows_on(monkeypatch):
    monkeypatch.setattr(ew, "ROWS", True)
    monkeypatch.setattr(ew, "ROWS_MIN_COLS", 2)     # (the GPU's threshold is 128: small arrays)
    ew._layouts.clear()
    yield
    ew._layouts.clear()


def _rows_launches(fn):
    """``fn()`` and the names of the kernels it launched in the rows layout."""
    out, seen = launched(fn)
    return out, [k.name for k in seen if "rows = uint64(out0.shape[0])" in k.source.source]


@pytest.mark.parametrize("dt", DTYPES)
def test_broadcasts_and_views(dt, rng, rows_on):
    h = random_array((7, 37), dt, rng)
    r, c = random_array((37,), dt, rng), random_array((7, 1), dt, rng)
    x, row, col = npgpu.asarray(h), npgpu.asarray(r), npgpu.asarray(c)
    # (x * col: a column broadcast takes the rows layout too; with NPGPU_EW_TILE_COLUMNS=1 the
    # tiled layout stages it as a transposed operand)
    cases = [(lambda: x + row, lambda: h + r), (lambda: x * col + row, lambda: h * c + r),
             (lambda: x[::-1, 3:] + x[1:2, 3:], lambda: h[::-1, 3:] + h[1:2, 3:]),
             (lambda: x[::2] - row if dt != np.bool_ else x[::2] ^ row,
              lambda: h[::2] - r if dt != np.bool_ else h[::2] ^ r),
             (lambda: x[:, 5:] < row[5:], lambda: h[:, 5:] < r[5:]),
             (lambda: npgpu.where(x[:, :30] != 0, x[:, :30], row[:30]),
              lambda: np.where(h[:, :30] != 0, h[:, :30], r[:30]))]
    for f, ref in cases:
        for _ in range(2):              # the second call replays the stored layout
            got, rows = _rows_launches(f)
            assert rows, "the rows layout was not taken"
            if np.dtype(dt).kind in "fc":
                np.testing.assert_allclose(got.get(), ref(), rtol=2e-3 if dt == np.float16
                                           else 1e-6)
            else:
                assert_same(got, ref())


@pytest.mark.parametrize("dt", [np.float32, np.int32, np.complex128])
def test_out_views_scalars_and_two_outputs(dt, rng, rows_on):
    h = random_array((6, 40), dt, rng)
    r = random_array((40,), dt, rng)
    x, row = npgpu.asarray(h), npgpu.asarray(r)
    big = npgpu.zeros((6, 50), dt)
    want = np.zeros((6, 50), dt)
    _, rows = _rows_launches(lambda: npgpu.add(x, row, out=big[:, 5:45]))
    want[:, 5:45] = h + r
    assert rows
    assert_same(big, want)
    got, rows = _rows_launches(lambda: x[:, ::1] * 3 + row)
    assert rows
    np.testing.assert_allclose(got.get(), h * 3 + r, rtol=1e-6)
    filled = npgpu.zeros((6, 50), dt)
    filled[:, 2:48] = 7                 # a fully broadcast value into a row-sliced view
    want = np.zeros((6, 50), dt)
    want[:, 2:48] = 7
    assert_same(filled, want)
    if np.dtype(dt).kind != "c":
        q, m = npgpu.divmod(x, row[0] if np.dtype(dt).kind == "f" else row + 100)
        wq, wm = np.divmod(h, r[0] if np.dtype(dt).kind == "f" else r + 100)
        np.testing.assert_allclose(q.get(), wq)
        np.testing.assert_allclose(m.get(), wm, rtol=1e-6, atol=1e-5)


def test_rows_of_every_length_and_many_rows(rng, rows_on):
    # rows shorter than, equal to and longer than a block's elements (the tail loop), more
    # rows than the grid's y (the row loop)
    for cols in (2, 3, 15, 16, 17, 33, 70):
        for nrows in (1, 2, 5, 9):
            h = rng.standard_normal((nrows, cols))
            r = rng.standard_normal(cols)
            got, rows = _rows_launches(lambda: npgpu.asarray(h) - npgpu.asarray(r))
            assert bool(rows) == (nrows > 1)        # one row collapses to 1-D
            np.testing.assert_array_equal(got.get(), h - r)


def test_zero_d_operand_beside_a_row(rng, rows_on):
    h = rng.standard_normal((6, 30)).astype(np.float32)
    r = rng.standard_normal(30).astype(np.float32)
    two = npgpu.asarray(np.float32(2.5))             # a 0-d array: loaded once ("z")
    f = npgpu.fuse(lambda a, b, c: a * c + b)
    got, rows = _rows_launches(lambda: f(npgpu.asarray(h), npgpu.asarray(r), two))
    assert rows
    np.testing.assert_allclose(got.get(), h * np.float32(2.5) + r, rtol=1e-6)


def test_fused_row_broadcast(rng, rows_on):
    h = rng.standard_normal((8, 24)).astype(np.float32)
    x = npgpu.asarray(h)
    f = npgpu.fuse(lambda a, m: (a - m) * (a - m) + 1)
    m = x.mean(axis=0)
    np.testing.assert_allclose(f(x, m).get(), (h - m.get()) ** 2 + 1, rtol=1e-5)


def test_short_rows_keep_the_strided_layout(rng, rows_on, monkeypatch):
    monkeypatch.setattr(ew, "ROWS_MIN_COLS", 64)
    h = rng.standard_normal((5, 40))
    got, rows = _rows_launches(lambda: npgpu.asarray(h) + npgpu.asarray(h[0]))
    assert not rows
    np.testing.assert_array_equal(got.get(), h + h[0])


def test_block_shape_for_short_rows():
    # a block row is the fewest whole warps (threads on the simulator) covering the row; the
    # rest of the block's threads take further rows (blockDim.y), so short rows keep threads busy
    least = 1 if npgpu.backend() != "cuda" else 32
    for threads in ((4, 128) if least == 1 else (128, 256)):
        for cols in (1, 2, 3, 5, 16, 100, 255, 256, 257, 320, 511, 512, 4096):
            bx, by = ew.rows_block(threads, cols)
            assert bx % least == 0 and by >= 1 and bx * by <= threads < bx * (by + 1)
            assert bx == threads or bx * ew.ROWS_EPT >= cols > (bx - least) * ew.ROWS_EPT


@pytest.mark.parametrize("dt", [np.float32, np.int16, np.complex128])
def test_several_rows_a_block(dt, rng, rows_on):
    # rows of 1-8 columns: blocks of several rows, the grid's y looping over the rest
    for cols in (1, 2, 3, 5, 8):
        h = random_array((23, 11, cols), dt, rng)[:, 3]          # row-strided view
        r = random_array((cols,), dt, rng)
        x = npgpu.asarray(random_array((23, 11, cols), dt, rng))
        x[:, 3] = npgpu.asarray(h)
        got, rows = _rows_launches(lambda: x[:, 3] * npgpu.asarray(r))
        assert rows or cols < ew.ROWS_MIN_COLS
        if np.dtype(dt).kind == "c":
            np.testing.assert_allclose(got.get(), h * r, rtol=1e-12)
        else:
            assert_same(got, h * r)


WORD_DTYPES = [np.float32, np.int32, np.uint32, np.int8, np.uint8, np.bool_]


def _word_forms(fn):
    """``fn()`` and, per rows-layout kernel it launched, whether it moved words (``rowsw``)."""
    out, seen = launched(fn)
    return out, ["colsw = " in k.source.source for k in seen
                 if "rows = uint64(out0.shape[0])" in k.source.source]


@pytest.mark.parametrize("dt", WORD_DTYPES)
def test_words_along_rows(dt, rng, rows_on):
    # rows of even length whose operands' rows start on a word boundary move two elements a
    # word (rowsw); odd lengths and rows starting off a word keep one element a load
    h = random_array((10, 38), dt, rng)
    r = random_array((38,), dt, rng)
    x, row = npgpu.asarray(h), npgpu.asarray(r)
    hy = random_array((10, 39), dt, rng)
    hz, hzr = random_array((3, 300), dt, rng), random_array((300,), dt, rng)
    y, z, zr = npgpu.asarray(hy), npgpu.asarray(hz), npgpu.asarray(hzr)
    f = (lambda a, b: a ^ b) if dt == np.bool_ else (lambda a, b: a - b)
    cases = [  # (npgpu, NumPy, words expected)
        (lambda: f(x, row), lambda: f(h, r), True),
        (lambda: f(x[::2], x[1::2]), lambda: f(h[::2], h[1::2]), True),
        (lambda: f(x[::-1], row), lambda: f(h[::-1], r), True),
        (lambda: f(x[:, 2:-2], row[2:-2]), lambda: f(h[:, 2:-2], r[2:-2]), True),
        (lambda: f(x[:, 1:-1], row[1:-1]), lambda: f(h[:, 1:-1], r[1:-1]), False),
        (lambda: f(x[:, :-1], row[:-1]), lambda: f(h[:, :-1], r[:-1]), False),
        (lambda: f(x[:, 1:-1], dt(1)), lambda: f(h[:, 1:-1], dt(1)), False),
        # even rows on an aligned start whose row stride is no whole number of words
        (lambda: f(y[:, :38], row), lambda: f(hy[:, :38], r), False),
        # rows long enough that a GPU thread does whole rounds of words (the main path)
        (lambda: f(z, zr), lambda: f(hz, hzr), True),
    ]
    for got_fn, want_fn, words in cases:
        got, forms = _word_forms(got_fn)
        assert forms == [words], (forms, words)
        assert_same(got, want_fn())
    # out= a row-sliced view of even length on a word boundary
    o = npgpu.asarray(random_array((10, 40), dt, rng))
    ho = o.get()
    got, forms = _word_forms(lambda: npgpu.bitwise_xor(x, row, out=o[:, 2:]) if dt == np.bool_
                             else npgpu.subtract(x, row, out=o[:, 2:]))
    ho[:, 2:] = f(h, r)
    assert forms == [True]
    assert_same(o, ho)


@pytest.mark.parametrize("dt", [np.float32, np.uint8])
def test_words_along_rows_beside_a_column(dt, rng, rows_on, monkeypatch):
    # a column broadcast beside words (its one element a row used for both halves of a word);
    # the tiled layout's limit lowered keeps this on rows with NPGPU_EW_TILE_COLUMNS=1 too
    monkeypatch.setattr(ew, "TILED_MAX", 16)
    h = random_array((11, 46), dt, rng)
    lo, hi = random_array((11, 1), dt, rng), random_array((46,), dt, rng)
    x, glo, ghi = npgpu.asarray(h), npgpu.asarray(lo), npgpu.asarray(hi)
    got, forms = _word_forms(lambda: npgpu.clip(x, glo, ghi))
    assert forms == [True]
    assert_same(got, np.clip(h, lo, hi))
    got, forms = _word_forms(lambda: npgpu.where(x > ghi, glo, x))
    assert forms[-1] is True
    assert_same(got, np.where(h > hi, lo, h))
    # a column of a dtype words do not take (loaded one element a row) beside word operands
    c16 = random_array((11, 1), np.int16, rng)
    got, forms = _word_forms(lambda: npgpu.clip(x, npgpu.asarray(c16).astype(dt), ghi))
    assert forms[-1] is True
    assert_same(got, np.clip(h, c16.astype(dt), hi))
    if dt == np.float32:
        got, forms = _word_forms(lambda: npgpu.add(x, npgpu.asarray(c16), dtype=dt))
        assert forms == [True]
        assert_same(got, np.add(h, c16, dtype=dt))


def test_words_along_rows_off(rng, rows_on, monkeypatch):
    # NPGPU_EW_ROWS_WORDS=0: one element a load on aligned even rows too
    monkeypatch.setattr(ew, "ROWS_WORDS", False)
    h, r = random_array((9, 38), np.float32, rng), random_array((38,), np.float32, rng)
    got, forms = _word_forms(lambda: npgpu.asarray(h) - npgpu.asarray(r))
    assert forms == [False]
    assert_same(got, h - r)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_column_broadcast_untiled(dt, rng, rows_on, monkeypatch):
    # a column broadcast (one value a row) is no transposed operand (the default,
    # NPGPU_EW_TILE_COLUMNS=0), so x - c takes the rows layout (words for 4-byte dtypes);
    # NPGPU_EW_TILE_COLUMNS=1 stages it through the tiled layout
    h, c = random_array((12, 36), dt, rng), random_array((12, 1), dt, rng)
    got, forms = _word_forms(lambda: npgpu.asarray(h) - npgpu.asarray(c))
    assert forms == [dt == np.float32]
    assert_same(got, h - c)
    monkeypatch.setattr(ew, "TILE_COLUMNS", True)
    ew._layouts.clear()
    got, forms = _word_forms(lambda: npgpu.asarray(h) - npgpu.asarray(c))
    assert forms == []
    assert_same(got, h - c)
