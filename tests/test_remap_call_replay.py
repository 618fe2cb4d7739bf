"""Whole repeat calls of tile, roll and pad replay their stored launch (``_remap.call_key``,
``call_replay``, ``remember``).  Each test calls with one set of arguments (stored), then again
with new data of the same layout (replayed) and with each argument, the dtype, the layout and
the alignment changed in turn: every result must still be NumPy's, every error the full path's
(a float where an int was stored must not replay the int's launch)."""
import numpy as np
import pytest

import npgpu
from npgpu import _remap

rng = np.random.default_rng(11)


def _data(shape, dt=np.float32):
    return (rng.standard_normal(shape) * 50).astype(dt)


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.get(), want)


def _hits(fn):
    """Calls answered from the stored launches during ``fn()``."""
    before = len(_remap._CALLS)
    fn()
    return len(_remap._CALLS) - before


@pytest.mark.parametrize("dt", [np.float32, np.int8, np.float64, np.complex64])
def test_tile_repeat_new_data_and_arguments(dt):
    for reps in (2, (2, 1), (1, 3), (2, 2, 2), 1, 0):
        for _ in range(3):            # stored, then replayed on new data
            x = _data((5, 6), dt)
            _same(npgpu.tile(npgpu.asarray(x), reps), np.tile(x, reps))


@pytest.mark.parametrize("dt", [np.float32, np.int16, np.float64])
def test_roll_repeat_new_data_and_arguments(dt):
    calls = [(7, None), (-3, 0), (2, 1), ((1, 2), (0, 1)), (4, -1), (0, None), (13, None),
             (True, 0)]
    for _ in range(3):
        for shift, axis in calls:
            x = _data((6, 8), dt)
            _same(npgpu.roll(npgpu.asarray(x), shift, axis), np.roll(x, shift, axis))


@pytest.mark.parametrize("mode,kw", [("reflect", {}), ("symmetric", {}), ("edge", {}),
                                     ("wrap", {}), ("constant", {}),
                                     ("constant", {"constant_values": 7}),
                                     ("constant", {"constant_values": (1, 2)})])
def test_pad_repeat_new_data_and_arguments(mode, kw):
    for width in (2, (1, 3), ((0, 2), (3, 1)), 5):
        for _ in range(3):
            x = _data((6, 7), np.float32)
            _same(npgpu.pad(npgpu.asarray(x), width, mode=mode, **kw),
                  np.pad(x, width, mode=mode, **kw))


def test_replayed_calls_follow_layout_and_alignment():
    """Views of other strides, offsets (word alignment) and orders are other keys."""
    x = _data((9, 12), np.float32)
    X = npgpu.asarray(x)
    views = [(X, x), (X[1:], x[1:]), (X[:, 1:], x[:, 1:]), (X[::-1], x[::-1]),
             (X[:, ::2], x[:, ::2]), (X.T, x.T), (npgpu.asarray(np.asfortranarray(x)), x)]
    for _ in range(2):
        for V, v in views:
            _same(npgpu.tile(V, 2), np.tile(v, 2))
            _same(npgpu.roll(V, 5, 1), np.roll(v, 5, 1))
            _same(npgpu.pad(V, 3, mode="reflect"), np.pad(v, 3, mode="reflect"))


def test_repeat_calls_are_stored_once_and_replayed():
    x = npgpu.asarray(_data((4, 10), np.float32))
    assert _hits(lambda: npgpu.tile(x, 3)) <= 1
    assert _hits(lambda: npgpu.tile(x, 3)) == 0        # replayed: nothing new stored
    assert _remap.call_key("tile", x, 3) in _remap._CALLS
    assert _remap.call_key("tile", x, 3.0) != _remap.call_key("tile", x, 3)


def test_non_plain_arguments_take_the_full_path():
    """Floats, NumPy scalars and lists are not keys: NumPy's answers and errors."""
    x = _data((5, 6), np.float32)
    X = npgpu.asarray(x)
    npgpu.pad(X, 2)                                  # stores the int call
    with pytest.raises(TypeError):
        npgpu.pad(X, 2.0)
    npgpu.roll(X, 2)
    for shift, axis in ((2.0, None), (2.5, 1), (True, 0), (np.float64(1), 0)):
        _same(npgpu.roll(X, shift, axis), np.roll(x, shift, axis))   # NumPy's int(shift)
    npgpu.tile(X, 2)
    with pytest.raises(TypeError):
        npgpu.tile(X, 2.0)
    assert _remap.call_key("roll", X, np.int64(2), None) is None
    assert _remap.call_key("roll", X, [2], None) is None
    _same(npgpu.roll(X, np.int64(3)), np.roll(x, np.int64(3)))
    _same(npgpu.roll(X, [1, 2], [0, 1]), np.roll(x, [1, 2], [0, 1]))
    _same(npgpu.tile(X, [2, 1]), np.tile(x, [2, 1]))
    _same(npgpu.pad(X, [1, 2]), np.pad(x, [1, 2]))


def test_empty_and_zero_d():
    for _ in range(2):
        e = np.zeros((0, 4), np.float32)
        _same(npgpu.tile(npgpu.asarray(e), 2), np.tile(e, 2))
        _same(npgpu.roll(npgpu.asarray(e), 1, 1), np.roll(e, 1, 1))
        z = np.array(3.5, np.float32)
        _same(npgpu.tile(npgpu.asarray(z), 3), np.tile(z, 3))
        _same(npgpu.roll(npgpu.asarray(z), 1), np.roll(z, 1))
        _same(npgpu.pad(npgpu.asarray(z), 0), np.pad(z, 0))


def test_replayed_calls_from_several_threads():
    """Four threads store and replay the same and different calls at once (the shared caches
    and the per-thread stream): every result NumPy's."""
    from test_threads import _run_threads

    def job(i):
        ok = True
        for k in range(3):
            x = _data((5, 9), np.float32)
            X = npgpu.asarray(x)
            ok &= np.array_equal(npgpu.tile(X, 2).get(), np.tile(x, 2))
            ok &= np.array_equal(npgpu.roll(X, i + k, 1).get(), np.roll(x, i + k, 1))
            ok &= np.array_equal(npgpu.pad(X, 2, mode="reflect").get(), np.pad(x, 2, mode="reflect"))
        return ok
    assert all(_run_threads(job, 4))
