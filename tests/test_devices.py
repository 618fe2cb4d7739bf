"""Several devices in one process (issue 22): placement, copies between devices, the mixing
error, bad ordinals. One device shows the single-device half (the same code paths, source and
target on one device); the rest runs where there are two or more (issue 23's run)."""
import threading

import numpy as np
import pytest

import npgpu
from conftest import assert_matches, assert_same, random_array
from npgpu._codegen import compiler
from npgpu._core import copy as _copy
from npgpu._core import transfer as _transfer
from npgpu.cuda import Device, Stream, get_current_stream, runtime

NDEV = npgpu.cuda.get_device_count()
two_devices = pytest.mark.skipif(NDEV < 2, reason="needs at least two CUDA devices")


@pytest.fixture(autouse=True)
def _null_stream_after():
    yield
    Stream.null.use()


# ---- one device ---------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [NDEV, NDEV + 5])
def test_missing_device_names_the_count(bad):
    count = r"(one device|%d device)" % NDEV
    with pytest.raises(ValueError, match=rf"[Ii]nvalid device ordinal {bad}: .*{count}"):
        with Device(bad):
            pass
    assert runtime.get_device_id() == 0
    x = npgpu.asarray(random_array((5,), np.float32))
    with pytest.raises(ValueError, match=rf"[Ii]nvalid device ordinal {bad}: {NDEV} device"):
        x.to_device(bad)
    with pytest.raises(ValueError, match=rf"[Ii]nvalid device ordinal {bad}: {NDEV} device"):
        npgpu.asarray(x, device=bad)
    assert_matches(x * 2, x.get() * 2)          # the current device still works


@pytest.mark.parametrize("layout", ["contiguous", "fortran", "negative", "strided", "zero_d",
                                    "empty"])
def test_copy_from_device_paths_on_one_device(layout):
    # copy_from_device is what a copy from another device runs; with one device source and
    # target coincide, and its layout, peer-copy and cast steps still run and are checked
    h = random_array((6, 5), np.float64, np.random.default_rng(3))
    x = npgpu.asarray(h)
    x, h = {"contiguous": (x, h), "fortran": (x.T, h.T), "negative": (x[::-1, ::-2], h[::-1, ::-2]),
            "strided": (x[1::2], h[1::2]), "zero_d": (x[2, 3], h[2, 3]),
            "empty": (x[:0], h[:0])}[layout]
    for order in ("C", "F"):
        got = _copy.copy_from_device(x, order)
        assert_same(got, np.asarray(h))
        assert got._c_contig if order == "C" else got._f_contig
    assert_same(_copy.copy_from_device(x, "C", np.float32), np.asarray(h).astype(np.float32))


def test_peer_copy_primitive_on_one_device():
    h = random_array((37,), np.int32)
    src, dst = npgpu.asarray(h), npgpu.empty(37, dtype=np.int32)
    _transfer.peer_copy(dst._ptr, 0, src._ptr, 0, src.nbytes)
    assert_same(dst, h)
    assert runtime.enable_peer_access(0, 0) is False       # a device needs no peer access to itself


def test_device_switch_keeps_a_same_device_stream():
    s = Stream(non_blocking=True)
    with s:
        with Device(0):
            assert get_current_stream() is s
            y = npgpu.asarray(random_array((9,), np.float32)) + 1
        assert get_current_stream() is s
    assert y.device == Device(0)


# ---- two or more devices ------------------------------------------------------------------------
@two_devices
def test_allocation_launches_pools_and_handles_on_device_1():
    h = random_array((16, 16), np.float32, np.random.default_rng(1))
    pool0 = npgpu.get_default_memory_pool()
    with Device(1):
        pool1 = npgpu.get_default_memory_pool()
        assert pool1 is not pool0
        before = pool1.used_bytes()
        x = npgpu.asarray(h)
        assert x.device == Device(1) and pool1.used_bytes() > before
        kernels = len(compiler._memory)
        y = npgpu.sin(x) * 2
        s = npgpu.sum(y, axis=0)
        m = x @ x.T                                        # cuBLAS handle of device 1
        assert y.device == s.device == m.device == Device(1)
        assert_matches(y, np.sin(h) * 2)
        assert_matches(s, (np.sin(h) * 2).sum(axis=0), rtol=1e-5)
        assert_matches(m, h @ h.T, rtol=1e-5, atol=1e-4)
    # the same kernels on device 0: the cache is per kernel, not per device
    assert_matches(npgpu.sin(npgpu.asarray(h)) * 2, np.sin(h) * 2)
    assert len(compiler._memory) <= kernels + 3


@two_devices
def test_streams_per_device():
    s0 = Stream(non_blocking=True)
    with s0:
        with Device(1):
            assert get_current_stream() is Stream.null       # s0 belongs to device 0
            s1 = Stream(non_blocking=True)
            assert s1.device_id == 1
            with s1:
                x = npgpu.arange(100, dtype=np.float64) * 3
            s1.synchronize()
        assert get_current_stream() is s0
    assert_matches(x, np.arange(100, dtype=np.float64) * 3)


@two_devices
@pytest.mark.parametrize("src, dst", [(0, 1), (1, 0)])
def test_copies_between_devices_both_ways(src, dst):
    h = random_array((20, 12), np.float32, np.random.default_rng(src))
    with Device(src):
        x = npgpu.asarray(h)
        y = x * 3                                              # pending work on the source
    with Device(dst):
        a = npgpu.asarray(y)                                   # peer copy
        b = y.copy()
        c = y[::-1, 1::3].copy()                               # laid out on src first
        d = npgpu.asarray(y, dtype=np.float64)
        assert a.device == b.device == c.device == d.device == Device(dst)
        e = a + b                                              # usable here
    f = y.to_device(dst)
    assert f.device == Device(dst)
    assert_same(a, h * 3)
    assert_same(b, h * 3)
    assert_same(c, (h * 3)[::-1, 1::3])
    assert_same(d, (h * 3).astype(np.float64))
    assert_same(e, h * 6)
    assert_same(f, h * 3)
    with Device(dst), pytest.raises(ValueError, match="avoid copy"):
        npgpu.asarray(y, copy=False)


@two_devices
def test_mixing_devices_names_both():
    a = npgpu.asarray(random_array((4,), np.float64))
    with Device(1):
        b = npgpu.asarray(random_array((4,), np.float64))
        with pytest.raises(ValueError, match="device 0.*device 1"):
            a + b
    with pytest.raises(ValueError, match="device 1.*device 0"):
        a * b
    with pytest.raises(ValueError, match="device 1.*device 0"):
        npgpu.add(a, a, out=b)


@two_devices
def test_a_thread_per_device():
    results, errors = {}, []
    hosts = [random_array((64,), np.float64, np.random.default_rng(i)) for i in range(NDEV)]

    def work(i):
        try:
            with Device(i):
                x = npgpu.asarray(hosts[i])
                for _ in range(20):
                    x = npgpu.sqrt(x * x + 1.0)
                results[i] = (x.device, x.get())
        except Exception as e:         # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(NDEV)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i in range(NDEV):
        expected = hosts[i]
        for _ in range(20):
            expected = np.sqrt(expected * expected + 1.0)
        assert results[i][0] == Device(i)
        np.testing.assert_allclose(results[i][1], expected, rtol=1e-12)
