"""concatenate's contiguous pieces in one launch (npgpu/_core/pieces.py) against NumPy: every
piece count up to two launches' worth, aligned and unaligned pieces (the driver-copy path),
empty pieces, every dtype size, stack of contiguous arrays, and the launches and copies made."""
import numpy
import pytest

import npgpu as gp
from npgpu._codegen.compiler import stats
from npgpu._core import pieces
from npgpu._core import transfer

RNG = numpy.random.default_rng(7)
DTYPES = ["b1", "i1", "u2", "f2", "i4", "f4", "i8", "f8", "c8", "c16"]


def _host(size, dt):
    x = RNG.standard_normal(size) * 50
    if numpy.dtype(dt).kind == "c":
        x = x + 1j * RNG.standard_normal(size)
    return (x > 0) if dt == "b1" else x.astype(dt)


def _count_d2d(monkeypatch):
    calls = []
    real = transfer.d2d
    monkeypatch.setattr(transfer, "d2d", lambda *a: (calls.append(a), real(*a)))
    return calls


@pytest.mark.parametrize("dt", DTYPES)
def test_whole_units_one_launch(dt, monkeypatch):
    isz = numpy.dtype(dt).itemsize
    sizes = [64 // isz, 16 // isz, 48 // isz]          # whole 16-byte units each
    hs = [_host(s, dt) for s in sizes]
    gs = [gp.asarray(h) for h in hs]
    d2d = _count_d2d(monkeypatch)
    before = stats["launches"]
    got = gp.concatenate(gs)
    assert stats["launches"] - before == 1 and not d2d
    numpy.testing.assert_array_equal(got.get(), numpy.concatenate(hs))


@pytest.mark.parametrize("count", [2, 3, 8, 9, 11, 17])
def test_piece_counts(count, monkeypatch):
    hs = [_host(4 * int(RNG.integers(1, 6)), "f4") for _ in range(count)]
    before = stats["launches"]
    d2d = _count_d2d(monkeypatch)
    got = gp.concatenate([gp.asarray(h) for h in hs])
    numpy.testing.assert_array_equal(got.get(), numpy.concatenate(hs))
    groups = -(-count // pieces.MAX_PIECES)
    singles = 1 if count % pieces.MAX_PIECES == 1 else 0     # a lone last piece: a driver copy
    assert stats["launches"] - before == groups - singles and len(d2d) == singles


@pytest.mark.parametrize("sizes", [(3, 5), (4, 7), (8, 4, 1), (5,)])
def test_partial_units_take_driver_copies(sizes, monkeypatch):
    hs = [_host(s, "f4") for s in sizes]
    d2d = _count_d2d(monkeypatch)
    got = gp.concatenate([gp.asarray(h) for h in hs])
    numpy.testing.assert_array_equal(got.get(), numpy.concatenate(hs))
    assert len(d2d) == len(sizes)


def test_unaligned_views_and_empty_pieces(monkeypatch):
    h = _host(41, "f4")
    g = gp.asarray(h)
    views = [g[1:9], g[9:17], g[17:17], g[20:40]]        # starts 4 bytes past a unit: copies
    d2d = _count_d2d(monkeypatch)
    got = gp.concatenate(views)
    numpy.testing.assert_array_equal(got.get(), numpy.concatenate([h[1:9], h[9:17], h[17:17],
                                                                   h[20:40]]))
    assert len(d2d) == 3                                 # the empty piece is skipped
    aligned = [g[0:8], g[8:8], g[8:16]]                  # whole units, one empty
    got = gp.concatenate(aligned)
    numpy.testing.assert_array_equal(got.get(), h[0:16])


@pytest.mark.parametrize("dt", ["i2", "f8"])
def test_stack_and_2d_rows(dt):
    hs = [_host((4, 8), dt) for _ in range(3)]
    gs = [gp.asarray(h) for h in hs]
    numpy.testing.assert_array_equal(gp.stack(gs).get(), numpy.stack(hs))
    numpy.testing.assert_array_equal(gp.concatenate(gs, axis=0).get(), numpy.concatenate(hs))
    numpy.testing.assert_array_equal(gp.vstack(gs).get(), numpy.vstack(hs))
    # along axis 1 the pieces interleave: not this path, same result
    numpy.testing.assert_array_equal(gp.concatenate(gs, axis=1).get(),
                                     numpy.concatenate(hs, axis=1))


def test_fits():
    assert pieces.fits([0, 16, 4096], [16, 32])
    assert not pieces.fits([0, 8], [16])
    assert not pieces.fits([0, 16], [12])
