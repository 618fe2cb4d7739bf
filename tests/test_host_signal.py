"""take(..., mode='raise') along the last axis answers its bounds check early through a mapped
host word (``npgpu/_core/host_signal.py``): the indexed kernel's block (0, 0) writes the
record's value once it has mapped every index.  Against NumPy on random data: good and bad
indices, repeated (replayed) calls, bad calls between good ones, several threads, and the
launches that cannot signal (several column chunks) falling back to the record read."""
import numpy as np
import pytest

import npgpu
from conftest import ON_GPU, launched, run_threads
from npgpu import _remap
from npgpu._core.host_signal import Signal, stream_signal
from npgpu.cuda import Stream, get_current_stream

# take runs the remap's staged rows (where the signal lives) from this many indices
NIDX = _remap.ROWS_MIN + 3


def _signalled(fn):
    """``fn()`` and whether one of its launches writes the host signal."""
    out, seen = launched(fn)
    return out, any("SIG[0] =" in k.source.source for k in seen)


@pytest.fixture
def answered(monkeypatch):
    """Every armed wait must find its launch's token (on the simulator the kernel has run by
    then): a broken token refill on replays would otherwise pass unseen, the record read
    standing in for the signal."""
    wait = Signal.wait

    def checked(self):
        v = wait(self)
        assert ON_GPU or v is not None, "the launch did not answer with its token"
        return v
    monkeypatch.setattr(Signal, "wait", checked)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int8, np.complex64])
def test_good_and_bad_indices_repeated(dt, rng, answered):
    h = (rng.standard_normal((5, 37)) * 50).astype(dt)
    good = rng.integers(-37, 37, size=NIDX)
    a = npgpu.asarray(h)
    for _ in range(3):                     # the first call plans, the next ones replay
        got, sig = _signalled(lambda: npgpu.take(a, npgpu.asarray(good), axis=1))
        assert sig
        np.testing.assert_array_equal(got.get(), np.take(h, good, axis=1))
    for pos, value in ((3, 37), (NIDX - 1, -38), (0, 1000)):
        bad = good.copy()
        bad[pos] = value
        if pos != NIDX - 1:
            bad[-1] = 99                    # a later bad index too: NumPy names the first
        with pytest.raises(IndexError) as e:
            np.take(h, bad, axis=1)
        with pytest.raises(IndexError, match=str(e.value)):
            npgpu.take(a, npgpu.asarray(bad), axis=1)
        got = npgpu.take(a, npgpu.asarray(good), axis=1)     # the record re-armed
        np.testing.assert_array_equal(got.get(), np.take(h, good, axis=1))


def test_two_d_index_and_three_d_source(rng, answered):
    h = rng.standard_normal((2, 3, 19)).astype(np.float32)
    idx = rng.integers(-19, 19, size=(4, -(-NIDX // 4)))
    got, sig = _signalled(lambda: npgpu.take(npgpu.asarray(h), npgpu.asarray(idx), axis=-1))
    assert sig
    np.testing.assert_array_equal(got.get(), np.take(h, idx, axis=-1))


def test_several_chunks_fall_back_to_the_record(rng, monkeypatch):
    # a row of 40 float32 and 1 KiB of shared memory: the index takes several chunks of
    # columns, no block maps them all, so the launch does not signal; the record is read
    monkeypatch.setattr(_remap, "STAGE_MAX", 1024)
    monkeypatch.setattr(_remap, "_PLANS", {})
    h = rng.standard_normal((3, 40)).astype(np.float32)
    idx = rng.integers(-40, 40, size=700)
    a = npgpu.asarray(h)
    got, sig = _signalled(lambda: npgpu.take(a, npgpu.asarray(idx), mode="raise", axis=1))
    assert not sig
    np.testing.assert_array_equal(got.get(), np.take(h, idx, axis=1))
    bad = idx.copy()
    bad[650] = 40
    with pytest.raises(IndexError, match="index 40 is out of bounds for axis 1 with size 40"):
        npgpu.take(a, npgpu.asarray(bad), axis=1)


def test_wait_takes_only_its_own_token():
    s = Signal().arm()
    s.armed = True
    assert s.wait() is None             # the stream idle, nothing written: read the record
    s.buf[1], s.buf[0] = 7, s.token - 1
    assert s.wait() is None             # an earlier launch's late write is not this one's
    s.buf[1], s.buf[0] = 5, s.token
    assert s.wait() == 5
    assert s.arm().wait() is None       # a new token


def test_threads_have_their_own_signals(rng, answered):
    h = rng.standard_normal((4, 33)).astype(np.float32)
    a = npgpu.asarray(h)
    sigs = []

    def work(seed):
        r = np.random.default_rng(seed)
        for k in range(4):
            idx = r.integers(-33, 33, size=NIDX)
            if k == 2:
                idx[5] = -34
                with pytest.raises(IndexError, match="index -34 is out of bounds"):
                    npgpu.take(a, npgpu.asarray(idx), axis=1)
                continue
            got = npgpu.take(a, npgpu.asarray(idx), axis=1)
            np.testing.assert_array_equal(got.get(), np.take(h, idx, axis=1))
        sigs.append(stream_signal())        # (kept alive: their ids stay distinct)

    run_threads(work, range(3))
    assert len({id(x) for x in sigs}) == 3


@pytest.mark.skipif(not ON_GPU, reason="queued work and a non-blocking stream need a GPU")
def test_behind_queued_work_and_on_a_non_blocking_stream(rng):
    h = rng.standard_normal((64, 1000)).astype(np.float32)
    good = rng.integers(-1000, 1000, size=NIDX)
    bad = good.copy()
    bad[NIDX // 2] = 1000
    big = npgpu.ones(1 << 26, np.float32)
    for stream in (get_current_stream(), Stream(non_blocking=True)):
        with stream:
            a = npgpu.asarray(h)
            for k in range(6):
                for _ in range(4):                      # milliseconds queued before the take
                    big = big * 1.0
                if k % 3 == 1:
                    with pytest.raises(IndexError, match="index 1000 is out of bounds"):
                        npgpu.take(a, npgpu.asarray(bad), axis=1)
                else:
                    got, sig = _signalled(lambda: npgpu.take(a, npgpu.asarray(good), axis=1))
                    assert sig
                    np.testing.assert_array_equal(got.get(), np.take(h, good, axis=1))
