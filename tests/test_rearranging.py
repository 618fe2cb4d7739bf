"""Rearranging, joining, adding/removing elements and pad (npgpu/rearranging.py, joining.py,
adding_removing.py, padding.py, _remap.py) against NumPy on random data: every dtype, non-
contiguous / negative-stride / broadcast / 0-d / empty inputs, NumPy's errors and messages."""
import numpy
import pytest

import npgpu as np
from conftest import (ALL_DTYPES, assert_matches, assert_same, make_layout, random_array,
                      raises_like)

RNG = numpy.random.default_rng(13)
LAYOUTS = ("contiguous", "transposed", "strided", "negative", "broadcast")


def rand(shape, dt):
    return random_array(shape, dt, RNG)


def cases(shape=(3, 4), dt="f4"):
    """(device, host) pairs of one random array in every layout."""
    h = rand(shape, dt)
    return [make_layout(h, lay) for lay in LAYOUTS]


def agree(fn_np, fn_gpu):
    """The same result, or the same error."""
    try:
        ref = fn_np()
    except Exception:
        raises_like(fn_np, fn_gpu)
        return
    assert_same(fn_gpu(), ref)


# ---- tile / repeat / roll / rot90 / rollaxis ------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_tile_roll_repeat_dtypes(dt):
    for g, h in cases((2, 3), dt):
        assert_same(np.tile(g, (2, 1, 2)), numpy.tile(h, (2, 1, 2)))
        assert_same(np.roll(g, (1, -4), (0, 1)), numpy.roll(h, (1, -4), (0, 1)))
        assert_same(np.repeat(g, [2, 0, 1], axis=1), numpy.repeat(h, [2, 0, 1], axis=1))
        assert_same(g.repeat(2), h.repeat(2))


def test_tile():
    for g, h in cases((2, 3), "i4"):
        for reps in [2, (2,), (1, 1), (3, 1), (0, 2), (2, 1, 3), (1, 0)]:
            assert_same(np.tile(g, reps), numpy.tile(h, reps))
    for g, h in [make_layout(rand((3,), "f8"), "zero_d"), make_layout(rand((3,), "f8"), "empty")]:
        assert_same(np.tile(g, 3), numpy.tile(h, 3))
        assert_same(np.tile(g, (2, 2)), numpy.tile(h, (2, 2)))
    raises_like(lambda: numpy.tile([1, 2], -1), lambda: np.tile(np.asarray([1, 2]), -1))


def test_repeat():
    for g, h in cases((3, 4), "f4"):
        for axis in (None, 0, 1, -1):
            for reps in (0, 1, 3, numpy.int64(2)):
                assert_same(np.repeat(g, reps, axis), numpy.repeat(h, reps, axis))
        assert_same(np.repeat(g, [3], 0), numpy.repeat(h, [3], 0))
        assert_same(np.repeat(g, [1, 0, 2, 1], 1), numpy.repeat(h, [1, 0, 2, 1], 1))
        # per-element counts on the device: cumsum + one read of the total
        assert_same(np.repeat(g, np.asarray([2, 0, 3]), 0), numpy.repeat(h, [2, 0, 3], 0))
        assert_same(np.repeat(g, np.asarray(numpy.array([1, 2, 0, 1], "i2")), 1),
                    numpy.repeat(h, [1, 2, 0, 1], 1))
        assert_same(np.repeat(g, np.asarray([0, 0, 0]), 0), numpy.repeat(h, [0, 0, 0], 0))
    z, hz = make_layout(rand((3,), "i8"), "zero_d")
    assert_same(np.repeat(z, 4), numpy.repeat(hz, 4))
    e, he = make_layout(rand((3,), "i8"), "empty")
    assert_same(np.repeat(e, 4), numpy.repeat(he, 4))
    assert_same(np.repeat(e, np.asarray(numpy.zeros(0, "i8"))), numpy.repeat(he, []))
    g = np.asarray([1, 2])
    raises_like(lambda: numpy.repeat([1, 2], [1, -1]), lambda: np.repeat(g, [1, -1]))
    raises_like(lambda: numpy.repeat([1, 2], [1, -1]), lambda: np.repeat(g, np.asarray([1, -1])))
    raises_like(lambda: numpy.repeat([1, 2], -1), lambda: np.repeat(g, -1))
    raises_like(lambda: numpy.repeat([1, 2], [1, 2, 3]), lambda: np.repeat(g, [1, 2, 3]))
    raises_like(lambda: numpy.repeat([1, 2], [1, 2, 3]),
                lambda: np.repeat(g, np.asarray([1, 2, 3])))
    raises_like(lambda: numpy.repeat([1, 2], 2, axis=1), lambda: np.repeat(g, 2, axis=1))


def test_roll():
    for g, h in cases((3, 4), "c8"):
        for shift, axis in [(1, None), (-7, None), (5, 0), (-1, 1), ((1, 2), (0, 1)),
                            ((1, 2), 1), (3, (0, 0)), (0, 1), (12, -1)]:
            assert_same(np.roll(g, shift, axis), numpy.roll(h, shift, axis))
    for lay in ("zero_d", "empty"):
        g, h = make_layout(rand((3,), "u2"), lay)
        assert_same(np.roll(g, 2), numpy.roll(h, 2))
    g, h = np.asarray(rand((2, 2), "f8")), None
    raises_like(lambda: numpy.roll(numpy.ones((2, 2)), 1, axis=3), lambda: np.roll(g, 1, axis=3))
    raises_like(lambda: numpy.roll(numpy.ones((2, 2)), (1, 2, 3), axis=(0, 1)),
                lambda: np.roll(g, (1, 2, 3), axis=(0, 1)))


@pytest.mark.parametrize("dt", ["?", "i1", "u2", "f4", "c16"])
def test_roll_by_driver_copies(dt):
    """C-contiguous rolls along the flattened order take the driver's two copies (no kernel);
    the rest the gather kernel: both NumPy's result."""
    from npgpu._codegen import stats
    copies = [((17,), 5, None), ((17,), -40, 0), ((4, 5), 7, None), ((4, 5), -1, 0),
              ((1, 1, 9), 4, 2), ((1, 3, 4), 2, 1), ((6,), 0, None), ((6,), 12, 0),
              ((2, 3), 3, -2)]
    for shape, shift, axis in copies:
        h = rand(shape, dt)
        g = np.asarray(h)
        before = stats["launches"]
        assert_same(np.roll(g, shift, axis), numpy.roll(h, shift, axis))
        assert stats["launches"] == before, (shape, shift, axis)   # no kernel: the copies
    h = rand((4, 6), dt)
    g = np.asarray(h)
    for view, hv, shift, axis in [(g[:, ::2], h[:, ::2], 1, 0), (g.T, h.T, 3, None),
                                  (g[::-1], h[::-1], 2, 0), (g, h, 1, 1), (g, h, (1, 1), (0, 1)),
                                  (g[:1], h[:1], (1, 1), (1, 1)), (g, h, 2.0, None)]:
        assert_same(np.roll(view, shift, axis), numpy.roll(hv, shift, axis))


def test_rot90_rollaxis_views():
    h = rand((2, 3, 4), "i2")
    g = np.asarray(h)
    for k in range(-5, 6):
        for axes in [(0, 1), (1, 0), (2, 0), (-1, 1)]:
            r = np.rot90(g, k, axes)
            assert r._mem is g._mem
            assert_same(r, numpy.rot90(h, k, axes))
    for axis, start in [(0, 0), (2, 0), (0, 3), (1, -1), (-1, 1), (1, 2)]:
        r = np.rollaxis(g, axis, start)
        assert r._mem is g._mem
        assert_same(r, numpy.rollaxis(h, axis, start))
    raises_like(lambda: numpy.rot90(h, 1, (0,)), lambda: np.rot90(g, 1, (0,)))
    raises_like(lambda: numpy.rot90(h, 1, (0, 0)), lambda: np.rot90(g, 1, (0, 0)))
    raises_like(lambda: numpy.rot90(h, 1, (0, 3)), lambda: np.rot90(g, 1, (0, 3)))
    raises_like(lambda: numpy.rot90(h, 1, (0, -3)), lambda: np.rot90(g, 1, (0, -3)))
    raises_like(lambda: numpy.rollaxis(h, 0, 5), lambda: np.rollaxis(g, 0, 5))
    raises_like(lambda: numpy.rollaxis(h, 0, -5), lambda: np.rollaxis(g, 0, -5))
    raises_like(lambda: numpy.rollaxis(h, 3), lambda: np.rollaxis(g, 3))


# ---- joining ----------------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_block_concat_append_dtypes(dt):
    (g, h), (g2, h2) = cases((2, 3), dt)[:2]
    assert np.concat is np.concatenate
    assert_same(np.concat([g, g2], axis=1), numpy.concat([h, h2], axis=1))
    assert_same(np.block([[g, g2[:, :1]], [g2[:1], g[:1, 2:]]]),
                numpy.block([[h, h2[:, :1]], [h2[:1], h[:1, 2:]]]))
    assert_same(np.append(g, g2, axis=0), numpy.append(h, h2, axis=0))


def test_block():
    a, b, c = (rand(s, "f8") for s in [(2, 2), (2, 3), (3,)])
    ga, gb, gc = (np.asarray(x) for x in (a, b, c))
    assert_same(np.block([ga, gb]), numpy.block([a, b]))
    assert_same(np.block([[ga, gb], [gc[None, :2], gc[None, :]]]),
                numpy.block([[a, b], [c[None, :2], c[None, :]]]))
    assert_same(np.block([[[ga]], [[ga[::-1]]]]), numpy.block([[[a]], [[a[::-1]]]]))
    assert_same(np.block([gc, 1.5, gc]), numpy.block([c, 1.5, c]))
    assert_same(np.block(ga.T), numpy.block(a.T))
    assert_same(np.block(2), numpy.block(2))
    assert_same(np.block([[1, 2], [3, 4]]), numpy.block([[1, 2], [3, 4]]))
    assert_same(np.block([ga.astype(np.int8), gb]), numpy.block([a.astype(numpy.int8), b]))
    raises_like(lambda: numpy.block([[1], 2]), lambda: np.block([[1], 2]))
    raises_like(lambda: numpy.block([1, [2]]), lambda: np.block([1, [2]]))
    raises_like(lambda: numpy.block(([1],)), lambda: np.block(([1],)))
    raises_like(lambda: numpy.block([[1], (2,)]), lambda: np.block([[1], (2,)]))
    raises_like(lambda: numpy.block([[], [1]]), lambda: np.block([[], [1]]))
    raises_like(lambda: numpy.block([]), lambda: np.block([]))
    raises_like(lambda: numpy.block([[a], [c]]), lambda: np.block([[ga], [gc]]))
    raises_like(lambda: numpy.block([a, c]), lambda: np.block([ga, gc]))


def test_unstack_append():
    for g, h in cases((3, 4), "u1"):
        for axis in (0, 1, -1):
            got, ref = np.unstack(g, axis=axis), numpy.unstack(h, axis=axis)
            assert len(got) == len(ref)
            for x, y in zip(got, ref):
                assert x._mem is g._mem
                assert_same(x, y)
        assert_same(np.append(g, g), numpy.append(h, h))
        assert_same(np.append(g, [[1, 2, 3, 4]], axis=0), numpy.append(h, [[1, 2, 3, 4]], axis=0))
    e, he = make_layout(rand((3,), "f4"), "empty")
    assert np.unstack(e) == ()
    assert_same(np.append(e, 2.5), numpy.append(he, 2.5))
    z, hz = make_layout(rand((3,), "f4"), "zero_d")
    assert_same(np.append(z, z), numpy.append(hz, hz))
    raises_like(lambda: numpy.unstack(hz), lambda: np.unstack(z))
    raises_like(lambda: numpy.unstack(numpy.ones(2), axis=1),
                lambda: np.unstack(np.ones(2), axis=1))
    raises_like(lambda: numpy.append(numpy.ones((2, 2)), numpy.ones(3), axis=0),
                lambda: np.append(np.ones((2, 2)), np.ones(3), axis=0))


# ---- pad ----------------------------------------------------------------------------------------------
INDEX_MODES = ("constant", "edge", "wrap", "reflect", "symmetric")
VALUE_MODES = ("linear_ramp", "maximum", "minimum", "mean")


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_pad_index_modes_dtypes(dt):
    # every layout for one dtype of each itemsize and word class, the contiguous one for the
    # others (the same template paths; each layout x dtype is a kernel for CI's PTX check)
    wide = dt in {numpy.dtype(t) for t in ("?", "u2", "f4", "i8", "c16")}
    for g, h in cases((3, 4), dt)[:None if wide else 1]:
        for mode in INDEX_MODES:
            assert_same(np.pad(g, ((2, 5), (7, 1)), mode), numpy.pad(h, ((2, 5), (7, 1)), mode))
        assert_same(np.pad(g, 1, constant_values=((1, 0), (0, 1))),
                    numpy.pad(h, 1, constant_values=((1, 0), (0, 1))))


@pytest.mark.parametrize("dt", [d for d in ALL_DTYPES if d.kind != "b"], ids=str)
def test_pad_value_modes_dtypes(dt):
    for g, h in cases((3, 4), dt)[:3]:
        for mode in VALUE_MODES:
            assert_matches(np.pad(g, ((2, 1), (3, 2)), mode), numpy.pad(h, ((2, 1), (3, 2)), mode))
        for mode in ("reflect", "symmetric"):
            with numpy.errstate(over="ignore"):
                ref = numpy.pad(h, ((4, 3), (1, 6)), mode, reflect_type="odd")
            assert_matches(np.pad(g, ((4, 3), (1, 6)), mode, reflect_type="odd"), ref)


def test_pad_widths_and_arguments():
    h = rand((3, 5), "f8")
    g = np.asarray(h)
    for width in [0, 3, (1, 2), ((1, 2),), ((0, 2), (3, 0)), [[1], [2]], {0: (3, 0)}, {1: 2},
                  numpy.array([[1, 2], [3, 4]]), 11]:
        for mode in INDEX_MODES + VALUE_MODES:
            assert_matches(np.pad(g, width, mode), numpy.pad(h, width, mode))
    for kw in [dict(constant_values=-1.5), dict(constant_values=(1, 2)),
               dict(constant_values=((1, 2), (3, 4)))]:
        assert_same(np.pad(g, 2, **kw), numpy.pad(h, 2, **kw))
    for kw in [dict(end_values=5), dict(end_values=(1, -2)), dict(end_values=((1, 2), (3, 4)))]:
        assert_matches(np.pad(g, (2, 3), "linear_ramp", **kw),
                       numpy.pad(h, (2, 3), "linear_ramp", **kw))
    for kw in [dict(stat_length=1), dict(stat_length=(1, 2)), dict(stat_length=((2, 1), (4, 9))),
               dict(stat_length=None)]:
        for mode in ("maximum", "minimum", "mean"):
            assert_matches(np.pad(g, (2, 3), mode, **kw), numpy.pad(h, (2, 3), mode, **kw))
    hi = rand((4, 3), "i4")
    assert_same(np.pad(np.asarray(hi), 2, "mean", stat_length=2), numpy.pad(hi, 2, "mean", stat_length=2))
    # singleton axes and long pads (several reflection periods), 0-d and empty inputs
    for shape in [(1, 4), (2, 1), (3, 2)]:
        hs = rand(shape, "i8")
        for mode in INDEX_MODES:
            assert_same(np.pad(np.asarray(hs), 9, mode), numpy.pad(hs, 9, mode))
        for mode in ("reflect", "symmetric"):
            assert_same(np.pad(np.asarray(hs), 9, mode, reflect_type="odd"),
                        numpy.pad(hs, 9, mode, reflect_type="odd"))
    z, hz = make_layout(rand((3,), "f4"), "zero_d")
    for mode in INDEX_MODES + VALUE_MODES + ("empty",):
        assert_same(np.pad(z, 2, mode), numpy.pad(hz, 2, mode))
    he = numpy.zeros((0, 3), "f4")
    assert_same(np.pad(np.asarray(he), 2, constant_values=7), numpy.pad(he, 2, constant_values=7))
    assert_same(np.pad(np.asarray(he), ((0, 0), (1, 1)), "edge"),
                numpy.pad(he, ((0, 0), (1, 1)), "edge"))
    assert np.pad(g, 2, "empty").shape == (7, 9)
    assert_same(np.pad(g, 2, "empty")[2:-2, 2:-2], h)


def test_pad_errors():
    h = numpy.arange(6.0).reshape(2, 3)
    g = np.asarray(h)
    for args, kw in [((-1,), {}), ((1.5,), {}), (((1, 2, 3),), {}), ((((1, 2), (3, 4), (5, 6)),), {}),
                     ((1, "foo"), {}), ((1, "edge"), dict(foo=1)),
                     ((1, "constant"), dict(end_values=1)), ((1, "maximum"), dict(stat_length=0)),
                     ((1, "minimum"), dict(stat_length=(1, 0))), ((1, "mean"), dict(stat_length=-1)),
                     ((1, "reflect"), dict(reflect_type="odd", stat_length=1))]:
        raises_like(lambda: numpy.pad(h, *args, **kw), lambda: np.pad(g, *args, **kw))
    he = numpy.zeros((0, 3))
    raises_like(lambda: numpy.pad(he, 1, "edge"), lambda: np.pad(np.asarray(he), 1, "edge"))
    with pytest.raises(NotImplementedError, match="callable"):
        np.pad(g, 1, lambda v, w, i, k: None)


# ---- insert / delete ------------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_insert_delete_dtypes(dt):
    vals = rand((3,), dt)
    for g, h in cases((3, 4), dt):
        for obj in (1, -1, [0, 2], slice(None, None, 2), numpy.array([True, False, True, False])):
            assert_same(np.delete(g, obj, axis=1), numpy.delete(h, obj, axis=1))
        for obj in (1, 4):
            assert_same(np.insert(g, obj, vals, axis=1), numpy.insert(h, obj, vals, axis=1))
        for obj in ([0, 2], [3, 0]):
            assert_same(np.insert(g, obj, vals[:, None], axis=1),
                        numpy.insert(h, obj, vals[:, None], axis=1))


def test_delete():
    for g, h in cases((4, 5), "i8"):
        for axis in (None, 0, 1, -1):
            n = h.size if axis is None else h.shape[axis]
            for obj in [0, -1, numpy.int32(2), [1], [], [0, 2, 2, -1], numpy.array([3]),
                        slice(1, 3), slice(None, None, -2), slice(3, 1), slice(None),
                        numpy.arange(n) % 3 == 0, numpy.zeros(0, numpy.int64)]:
                assert_same(np.delete(g, obj, axis), numpy.delete(h, obj, axis))
    z, hz = make_layout(rand((3,), "f4"), "zero_d")
    assert_same(np.delete(z, 0), numpy.delete(hz, 0))
    g = np.asarray([1, 2, 3])
    for obj in [5, -4, [0, 5], [True], [0.5], numpy.array([[True, False, True]])]:
        raises_like(lambda: numpy.delete([1, 2, 3], obj), lambda: np.delete(g, obj))
    raises_like(lambda: numpy.delete([1, 2, 3], 0, axis=1), lambda: np.delete(g, 0, axis=1))


def test_delete_device_indices():
    for g, h in cases((4, 5), "f4"):
        keep = numpy.array([True, False, False, True, False])
        assert_same(np.delete(g, np.asarray(keep), axis=1), numpy.delete(h, keep, axis=1))
        assert_same(np.delete(g, np.asarray([0, -1, 0]), axis=0), numpy.delete(h, [0, -1, 0], 0))
        assert_same(np.delete(g, np.asarray([2]), axis=0), numpy.delete(h, [2], 0))
    g = np.asarray([1, 2, 3])
    raises_like(lambda: numpy.delete([1, 2, 3], numpy.array([True, False])),
                lambda: np.delete(g, np.asarray([True, False])))
    with pytest.raises(IndexError):
        np.delete(g, np.asarray([0, 5]))


def test_insert():
    for g, h in cases((3, 4), "f8"):
        for axis in (None, 0, 1):
            n = h.size if axis is None else h.shape[axis]
            for obj in [0, n, -1, [1], numpy.array(2), [1, 1], [0, n, -1], slice(None, None, 2),
                        numpy.array([True] + [False] * (n - 1))]:
                assert_same(np.insert(g, obj, 7.5, axis), numpy.insert(h, obj, 7.5, axis))
        rows = rand((2, 4), "f8")
        assert_same(np.insert(g, 1, rows, axis=0), numpy.insert(h, 1, rows, axis=0))
        assert_same(np.insert(g, [1], rows, axis=0), numpy.insert(h, [1], rows, axis=0))
        assert_same(np.insert(g, [0, 3], np.asarray(rows), axis=0),
                    numpy.insert(h, [0, 3], rows, axis=0))
        assert_same(np.insert(g, 2, [1, 2, 3], axis=1), numpy.insert(h, 2, [1, 2, 3], axis=1))
        assert_same(np.insert(g, [2], [[1], [2], [3]], axis=1),
                    numpy.insert(h, [2], [[1], [2], [3]], axis=1))
    hi = numpy.arange(4)
    assert_same(np.insert(np.asarray(hi), [2, 2], [7.13, False]), numpy.insert(hi, [2, 2], [7.13, False]))
    assert_same(np.insert(np.asarray(hi), [], []), numpy.insert(hi, [], []))
    g = np.asarray([1, 2])
    for obj, vals in [(5, 3), (-3, 3), ([[1]], 3), ([1, 5], 3), ([1, 2], [1, 2, 3])]:
        raises_like(lambda: numpy.insert([1, 2], obj, vals), lambda: np.insert(g, obj, vals))
    raises_like(lambda: numpy.insert([1, 2], numpy.ones((1, 1), bool), 3),
                lambda: np.insert(g, numpy.ones((1, 1), bool), 3))


# ---- resize / trim_zeros / ediff1d / astype ------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_resize_ediff1d_astype_dtypes(dt):
    # astype: every layout for one dtype of each itemsize and word class, the contiguous one for
    # the others (the same copy template, each layout x pair a kernel for CI's PTX check; every
    # dtype pair runs in test_ndarray's test_astype_all_pairs)
    wide = dt in {numpy.dtype(t) for t in ("?", "u2", "f4", "i8", "c16")}
    for q, (g, h) in enumerate(cases((2, 3), dt)):
        assert_same(np.resize(g, (4, 5)), numpy.resize(h, (4, 5)))
        agree(lambda: numpy.ediff1d(h, to_begin=[1], to_end=2),
              lambda: np.ediff1d(g, to_begin=[1], to_end=2))
        for to in (numpy.float32, numpy.int16, numpy.complex128, numpy.bool_) if wide or not q else ():
            with numpy.errstate(invalid="ignore"):
                ref = numpy.astype(h, to) if dt.kind != "c" or to is numpy.complex128 else None
            if ref is not None:
                assert_same(np.astype(g, to), ref)


def test_resize():
    h = rand((2, 3), "i4")
    for g, hh in cases((2, 3), "i4"):
        for shape in [7, (3, 3), (1,), (0,), (2, 0, 3), (), (4, 2, 2)]:
            assert_same(np.resize(g, shape), numpy.resize(hh, shape))
    e = numpy.zeros((0, 2), "f4")
    assert_same(np.resize(np.asarray(e), (2, 3)), numpy.resize(e, (2, 3)))
    raises_like(lambda: numpy.resize(h, (-1, 2)), lambda: np.resize(np.asarray(h), (-1, 2)))


def test_trim_zeros():
    z = numpy.zeros((5, 6), "i2")
    z[1:3, 2:5] = rand((2, 3), "i2") | 1
    for g, h in [(np.asarray(z), z), (np.asarray(z.T.copy()).T, z.T.copy().T),
                 (np.asarray(z[::-1].copy())[::-1], z)]:
        for trim in ("fb", "f", "b", "BF"):
            for axis in (None, 0, 1, -1, (0, 1)):
                r = np.trim_zeros(g, trim, axis)
                assert r._mem is g._mem
                assert_same(r, numpy.trim_zeros(h, trim, axis))
    for h in [numpy.array([0, 0, 1.5, 0, 2, 0]), numpy.zeros(4), numpy.zeros(0),
              numpy.array([0j, 1j, 0]), numpy.array([False, True, False]), numpy.zeros((2, 3))]:
        for trim in ("fb", "f", "b"):
            assert_same(np.trim_zeros(np.asarray(h), trim), numpy.trim_zeros(h, trim))
    assert_same(np.trim_zeros(np.asarray(z), axis=()), numpy.trim_zeros(z, axis=()))
    raises_like(lambda: numpy.trim_zeros(z, "x"), lambda: np.trim_zeros(np.asarray(z), "x"))
    raises_like(lambda: numpy.trim_zeros(z, axis=2), lambda: np.trim_zeros(np.asarray(z), axis=2))


def test_ediff1d():
    for g, h in cases((3, 4), "f4"):
        assert_same(np.ediff1d(g), numpy.ediff1d(h))
        assert_same(np.ediff1d(g, to_end=numpy.array([[1, 2]])), numpy.ediff1d(h, to_end=[[1, 2]]))
        assert_same(np.ediff1d(g, to_begin=np.asarray([-1.5])), numpy.ediff1d(h, to_begin=[-1.5]))
    for h in [numpy.zeros(0, "i8"), numpy.array([3], "i8"), numpy.array(4, "i8")]:
        assert_same(np.ediff1d(np.asarray(h), to_end=5), numpy.ediff1d(h, to_end=5))
    g = np.asarray([1, 2])
    raises_like(lambda: numpy.ediff1d([1, 2], to_end=1.5), lambda: np.ediff1d(g, to_end=1.5))
    raises_like(lambda: numpy.ediff1d([1, 2], to_begin=[1j]), lambda: np.ediff1d(g, to_begin=[1j]))
    raises_like(lambda: numpy.ediff1d([True, False]),
                lambda: np.ediff1d(np.asarray([True, False])))


def test_astype():
    h = rand((3, 4), "f4")
    g = np.asarray(h)
    assert_same(np.astype(g[::-1, ::2], "i8"), numpy.astype(h[::-1, ::2], "i8"))
    same = np.astype(g, numpy.float32, copy=False)
    assert same is g
    copied = np.astype(g, numpy.float32)
    assert copied is not g and copied._mem is not g._mem
    assert np.astype(g, "f8", device=g.device).dtype == numpy.float64
    with pytest.raises(TypeError, match="Input should be an npgpu array"):
        np.astype([1, 2], "f4")
    with pytest.raises(ValueError, match="Device not understood"):
        np.astype(g, "f4", device="cpu")


# ---- pad mode='median' ----------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_pad_median_dtypes(dt):
    for g, h in cases((4, 5), dt):
        for kw in [{}, dict(stat_length=2), dict(stat_length=((1, 3), (2, 1)))]:
            assert_matches(np.pad(g, ((2, 1), (3, 2)), "median", **kw),
                           numpy.pad(h, ((2, 1), (3, 2)), "median", **kw))


def test_pad_median_arguments():
    h = rand((5, 6), "f8")
    g = np.asarray(h)
    for width in [0, 3, (1, 2), ((0, 2), (3, 0)), {1: 2}, 9]:
        for kw in [{}, dict(stat_length=1), dict(stat_length=(1, 4)), dict(stat_length=None),
                   dict(stat_length=((2, 1), (4, 9))), dict(stat_length=100)]:
            assert_matches(np.pad(g, width, "median", **kw), numpy.pad(h, width, "median", **kw))
    # integers: NumPy rounds the median (half to even) before it goes into the array
    hi = RNG.integers(-50, 50, (4, 6)).astype("i4")
    for kw in [dict(stat_length=2), dict(stat_length=(1, 4)), {}]:
        assert_same(np.pad(np.asarray(hi), 2, "median", **kw), numpy.pad(hi, 2, "median", **kw))
    # NaN in the edge slab, 3-d input, 0-d and empty inputs
    hn = rand((3, 4), "f4")
    hn[0, 1] = numpy.nan
    assert_matches(np.pad(np.asarray(hn), 2, "median"), numpy.pad(hn, 2, "median"))
    h3 = rand((2, 3, 4), "f4")
    assert_matches(np.pad(np.asarray(h3)[:, ::-1], (1, 2), "median", stat_length=2),
                   numpy.pad(h3[:, ::-1], (1, 2), "median", stat_length=2))
    z, hz = make_layout(rand((3,), "f4"), "zero_d")
    assert_same(np.pad(z, 2, "median"), numpy.pad(hz, 2, "median"))
    he = numpy.zeros((0, 3), "f4")
    assert_same(np.pad(np.asarray(he), ((0, 0), (1, 1)), "median"),
                numpy.pad(he, ((0, 0), (1, 1)), "median"))
    # stat_length=0: the median of nothing is NaN, as NumPy's (with its warnings)
    with numpy.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        ref = numpy.pad(h, 1, "median", stat_length=0)
    with pytest.warns(RuntimeWarning):
        got = np.pad(g, 1, "median", stat_length=0)
    assert_matches(got, ref)


def test_pad_median_errors():
    h = numpy.arange(6.0).reshape(2, 3)
    g = np.asarray(h)
    for args, kw in [((1, "median"), dict(stat_length=-1)), ((1, "median"), dict(foo=1)),
                     ((1, "median"), dict(constant_values=1)),
                     ((1, "median"), dict(stat_length=((1, 2), (3, 4), (5, 6))))]:
        raises_like(lambda: numpy.pad(h, *args, **kw), lambda: np.pad(g, *args, **kw))
    he = numpy.zeros((0, 3))
    raises_like(lambda: numpy.pad(he, 1, "median"), lambda: np.pad(np.asarray(he), 1, "median"))


# ---- insert at device positions -------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_insert_device_indices_dtypes(dt):
    vals = rand((4,), dt)
    for g, h in cases((3, 4), dt):
        for axis in (None, 0, 1):
            n = h.size if axis is None else h.shape[axis]
            obj = RNG.integers(-n, n + 1, 4)
            v = vals if axis is None else vals[:, None] if axis == 0 else vals[:3, None] * 0 + vals[0]
            ref = numpy.insert(h, obj, v if axis is None else vals[0], axis)
            assert_same(np.insert(g, np.asarray(obj), np.asarray(v) if axis is None else vals[0],
                                  axis), ref)
        ref = numpy.insert(h, [3, 1, 3, 0], vals, axis=None)
        assert_same(np.insert(g, np.asarray([3, 1, 3, 0]), np.asarray(vals)), ref)


def test_insert_device_indices():
    for g, h in cases((3, 4), "f8"):
        for axis in (None, 0, 1, -1):
            n = h.size if axis is None else h.shape[axis]
            for obj in [[1, 1], [0, n, -1], [n, 0, n, -n], RNG.integers(-n, n + 1, 7),
                        numpy.arange(n + 1)[::-1], numpy.zeros(0, numpy.int64)]:
                obj = numpy.asarray(obj)
                for idt in ("i8", "i4", "i2"):
                    assert_same(np.insert(g, np.asarray(obj.astype(idt)), 7.5, axis),
                                numpy.insert(h, obj.astype(idt), 7.5, axis))
            m = numpy.arange(n) % 3 == 0
            assert_same(np.insert(g, np.asarray(m), -1.0, axis), numpy.insert(h, m, -1.0, axis))
            one = numpy.arange(n) == 1                  # a single True: NumPy's one-index path
            assert_same(np.insert(g, np.asarray(one), -1.0, axis), numpy.insert(h, one, -1.0, axis))
        rows = rand((2, 4), "f8")
        assert_same(np.insert(g, np.asarray([3, 0]), np.asarray(rows), axis=0),
                    numpy.insert(h, [3, 0], rows, axis=0))
        assert_same(np.insert(g, np.asarray([2, 2, 2]), [[1], [2], [3]], axis=1),
                    numpy.insert(h, [2, 2, 2], [[1], [2], [3]], axis=1))
        assert_same(np.insert(g, np.asarray([1]), rows, axis=0), numpy.insert(h, [1], rows, axis=0))
        assert_same(np.insert(g, np.asarray(2), 5.5, axis=1), numpy.insert(h, 2, 5.5, axis=1))
    # values cast to the array's dtype; unsigned positions; a 0-d array and an empty axis
    hi = numpy.arange(5, dtype=numpy.int16)
    assert_same(np.insert(np.asarray(hi), np.asarray([4, 0]), [7.9, -3.2]),
                numpy.insert(hi, [4, 0], [7.9, -3.2]))
    hu = numpy.array([4, 0], numpy.uint8)          # NumPy's in-place shift refuses unsigned
    raises_like(lambda: numpy.insert(hi, hu, 1), lambda: np.insert(np.asarray(hi), np.asarray(hu), 1))
    raises_like(lambda: numpy.insert(hi, hu, 1), lambda: np.insert(np.asarray(hi), hu, 1))
    assert_same(np.insert(np.asarray(hi), np.asarray(hu[:1]), 1), numpy.insert(hi, hu[:1], 1))
    z, hz = make_layout(rand((3,), "f4"), "zero_d")
    assert_same(np.insert(z, np.asarray([0, 1, 0]), 2.0), numpy.insert(hz, [0, 1, 0], 2.0))
    he = numpy.zeros((0, 3), "f4")
    assert_same(np.insert(np.asarray(he), np.asarray([0, 0]), 1.0, axis=0),
                numpy.insert(he, [0, 0], 1.0, axis=0))
    # NumPy lets a position below -n through when the shifted one still indexes (it wraps twice)
    for obj in ([-5, 0], [-6, -7], [-8, 1, 2]):
        assert_same(np.insert(np.asarray(hi), np.asarray(obj), 9), numpy.insert(hi, obj, 9))


def test_insert_device_errors():
    h = numpy.arange(6.0)
    g = np.asarray(h)
    for obj in ([0, 7], [7, 0], [-30, 1], [1, 2, 9, 3], [[0, 1]], [0.5, 1.5], [-20, -20]):
        d = np.asarray(numpy.array(obj))
        raises_like(lambda: numpy.insert(h, numpy.array(obj), 1.0), lambda: np.insert(g, d, 1.0))
    raises_like(lambda: numpy.insert(h, numpy.array([7]), 1.0),
                lambda: np.insert(g, np.asarray([7]), 1.0))
    raises_like(lambda: numpy.insert(h, numpy.array([0, 1]), [1.0, 2.0, 3.0]),
                lambda: np.insert(g, np.asarray([0, 1]), [1.0, 2.0, 3.0]))
    raises_like(lambda: numpy.insert(h, numpy.ones((2, 2), bool), 1.0),
                lambda: np.insert(g, np.ones((2, 2), bool), 1.0))
