"""Devices, streams and events: current device/stream, ordering of launches and copies."""
import math
import threading

import numpy as np
import pytest

import npgpu
from npgpu.cuda import Device, Event, Stream, get_current_stream

GPU = npgpu.backend() == "cuda"
NDEV = npgpu.cuda.get_device_count()


@pytest.fixture(autouse=True)
def _null_stream_after():
    yield
    Stream.null.use()


# ---- devices ----------------------------------------------------------------------------------------
def test_device_basics():
    assert NDEV >= 1
    d = Device()
    assert d == Device(0) and d.id == 0 and int(d) == 0
    assert hash(d) == hash(Device(0)) and d != Device(1) and d != 0
    assert repr(d) == "<CUDA Device 0>"
    assert isinstance(d.compute_capability, str) and len(d.compute_capability) >= 2
    assert d.multiprocessor_count >= 1
    assert isinstance(d.name, str) and d.name
    attrs = d.attributes
    assert attrs["Name"] == d.name and attrs["MultiProcessorCount"] == d.multiprocessor_count
    free, total = d.mem_info
    assert 0 <= free <= total
    if GPU:
        assert total > 0 and int(d.compute_capability) >= 50


def test_device_context_manager_and_synchronize():
    with Device(0) as d:
        assert d.id == 0
        assert npgpu.cuda.runtime.get_device_id() == 0
        x = npgpu.asarray(np.arange(5.0)) * 2.0
        d.synchronize()
        np.testing.assert_array_equal(x.get(), np.arange(5.0) * 2)
    assert npgpu.cuda.runtime.get_device_id() == 0
    Device(0).use()
    with Device(0):                     # re-entrant and nestable
        with Device(0):
            pass


def test_invalid_device():
    with pytest.raises(ValueError, match="[Ii]nvalid device ordinal"):
        with Device(NDEV + 3):
            pass
    assert npgpu.cuda.runtime.get_device_id() == 0
    npgpu.zeros(2)                      # the current device is still usable


def test_arrays_remember_their_device():
    x = npgpu.zeros(3)
    assert x.device == Device(0)
    assert x[1:].device == Device(0)
    assert x.T.device.id == 0


@pytest.mark.skipif(NDEV < 2, reason="needs at least two CUDA devices to mix them")
def test_mixing_devices_raises():
    a = npgpu.asarray(np.arange(4.0))
    with Device(1):
        b = npgpu.asarray(np.arange(4.0))
        assert b.device == Device(1)
    with pytest.raises(ValueError, match="device"):
        a + b
    with pytest.raises(ValueError, match="device"):
        a[...] = b


# ---- streams ----------------------------------------------------------------------------------------
def test_null_stream_is_current_by_default():
    assert get_current_stream() is Stream.null
    assert Stream.null.ptr == 0 and int(Stream.null) == 0
    Stream.null.synchronize()
    assert Stream.null.done


def test_stream_context_manager_nesting():
    s1, s2 = Stream(), Stream(non_blocking=True)
    with s1 as got:
        assert got is s1 and get_current_stream() is s1
        with s2:
            assert get_current_stream() is s2
        assert get_current_stream() is s1
    assert get_current_stream() is Stream.null
    s2.use()
    assert get_current_stream() is s2
    Stream.null.use()
    assert get_current_stream() is Stream.null
    if GPU:
        assert s1.ptr != 0 and s2.ptr != 0 and s1 != s2
    assert repr(s1).startswith("<npgpu.cuda.Stream")


def test_current_stream_is_per_thread():
    s = Stream(non_blocking=True)
    seen = []
    with s:
        t = threading.Thread(target=lambda: seen.append(get_current_stream()))
        t.start()
        t.join()
        assert get_current_stream() is s
    assert seen == [Stream.null]


def test_work_on_a_stream_is_ordered():
    # upload, several dependent kernels and the download all go on `s`: the result must be exact
    s = Stream(non_blocking=True)
    n = 1 << 16 if GPU else 256
    h = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    with s:
        x = npgpu.asarray(h)
        for _ in range(5):
            x = x * np.float32(1.5) + np.float32(1.0)
        y = x.copy()
        r = y.get()
    exp = h.copy()
    for _ in range(5):
        exp = exp * np.float32(1.5) + np.float32(1.0)
    np.testing.assert_allclose(r, exp, rtol=1e-6)
    s.synchronize()
    assert s.done


def test_allocations_and_cai_follow_current_stream():
    s = Stream(non_blocking=True)
    with s:
        x = npgpu.empty(8)
        assert x._mem.stream == s.ptr
        assert x.__cuda_array_interface__["stream"] == (s.ptr or 1)
    assert npgpu.empty(8)._mem.stream == 0


# ---- events -----------------------------------------------------------------------------------------
def test_events_record_synchronize_elapsed():
    s = Stream(non_blocking=True)
    e0, e1 = Event(), Event()
    with s:
        e0.record()
        x = npgpu.asarray(np.arange(100.0)) * 2.0
        e1.record()
    e1.synchronize()
    assert e0.done and e1.done
    ms = npgpu.cuda.get_elapsed_time(e0, e1)
    assert isinstance(ms, float) and math.isfinite(ms) and ms >= 0
    np.testing.assert_array_equal(x.get(), np.arange(100.0) * 2)


def test_stream_wait_event_orders_two_streams():
    a, b = Stream(non_blocking=True), Stream(non_blocking=True)
    h = np.random.default_rng(1).standard_normal(4096 if GPU else 128)
    with a:
        x = npgpu.asarray(h) * 3.0
        ev = a.record()
    assert isinstance(ev, Event)
    b.wait_event(ev)
    with b:
        y = x + 1.0
        r = y.get()
    np.testing.assert_allclose(r, h * 3 + 1, rtol=1e-15)
    ev2 = Event(disable_timing=True).record(b)
    ev2.synchronize()
    assert ev2.done
