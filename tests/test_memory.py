"""The caching memory pool: statistics, reuse, limits, out-of-memory, managed memory."""
import gc

import numpy as np
import pytest

import npgpu
from npgpu.cuda import memory as _memory

GPU = npgpu.backend() == "cuda"
SIM = npgpu.backend() == "simulator"


def rounded(n):
    return max(512, -(-n // 512) * 512)


@pytest.fixture
def pool():
    """The default pool, with no limit, no custom allocator and nothing cached before or after."""
    p = npgpu.get_default_memory_pool()
    gc.collect()
    p.free_all_blocks()
    yield p
    npgpu.cuda.set_allocator(None)
    p.set_limit(0)
    gc.collect()
    p.free_all_blocks()


def test_default_pool_is_the_cuda_pool():
    p = npgpu.get_default_memory_pool()
    assert p is npgpu.cuda.get_default_memory_pool()
    assert isinstance(p, npgpu.cuda.MemoryPool)
    assert npgpu.get_default_memory_pool() is p          # one pool per device


def test_used_and_total_bytes(pool):
    used0 = pool.used_bytes()
    x = npgpu.empty(1000, np.float64)                    # 8000 bytes -> 8192
    assert pool.used_bytes() == used0 + rounded(8000)
    assert pool.total_bytes() >= pool.used_bytes()
    y = npgpu.empty((3, 7), np.int8)                     # 21 bytes -> 512
    assert pool.used_bytes() == used0 + rounded(8000) + 512
    e = npgpu.empty(0)                                   # empty arrays still get a block
    assert pool.used_bytes() == used0 + rounded(8000) + 1024
    del x, y, e
    gc.collect()
    assert pool.used_bytes() == used0
    assert pool.total_bytes() >= used0


def test_views_keep_memory_in_use(pool):
    used0 = pool.used_bytes()
    x = npgpu.asarray(np.arange(600.0))
    v = x[::3].T
    del x
    gc.collect()
    assert pool.used_bytes() == used0 + rounded(4800)
    np.testing.assert_array_equal(v.get(), np.arange(600.0)[::3])
    del v
    gc.collect()
    assert pool.used_bytes() == used0


def test_every_allocation_goes_through_the_pool(pool):
    used0 = pool.used_bytes()
    h = np.random.default_rng(0).standard_normal((8, 8))
    arrays = [npgpu.asarray(h), npgpu.zeros(64), npgpu.ones((4, 4), np.int32),
              npgpu.asarray(h).copy(order="F"), npgpu.asarray(h) + 1.5,
              npgpu.asarray(h).astype(np.float32)]
    expected = sum(a._mem.size for a in arrays)
    assert pool.used_bytes() >= used0 + expected
    for a in arrays:
        assert a._mem.pool is pool


def test_cached_blocks_are_reused_and_freed(pool):
    x = npgpu.empty(4096, np.uint8)
    ptr = x.data.ptr
    used = pool.used_bytes()
    del x
    gc.collect()
    assert pool.used_bytes() == used - 4096
    if SIM:      # the simulator's bin cache: the same block comes back (the driver pool may differ)
        assert pool.total_bytes() == pool.used_bytes() + 4096
        y = npgpu.empty(4096, np.uint8)
        assert y.data.ptr == ptr
        del y
        gc.collect()
    assert pool.free_bytes() == pool.total_bytes() - pool.used_bytes()
    pool.free_all_blocks()
    if SIM:
        assert pool.total_bytes() == pool.used_bytes()


def test_peak_bytes(pool):
    pool.reset_peak()
    p0 = pool.peak_bytes()
    x = npgpu.empty(10000, np.uint8)
    del x
    gc.collect()
    assert pool.peak_bytes() >= p0 + rounded(10000)
    pool.reset_peak()
    assert pool.peak_bytes() == pool.used_bytes()


def test_set_limit_out_of_memory_and_recovery(pool):
    used0 = pool.used_bytes()
    pool.set_limit(used0 + 64 * 1024)
    assert pool.get_limit() == used0 + 64 * 1024
    keep = npgpu.empty(4 * 1024, np.float64)                    # 32 KiB: fits
    with pytest.raises(npgpu.cuda.OutOfMemoryError) as info:
        npgpu.empty(8 * 1024, np.float64)                      # 64 KiB more: over the limit
    err = info.value
    assert isinstance(err, MemoryError)
    assert err.requested == 64 * 1024 and err.pooled == pool.used_bytes()
    msg = str(err)
    assert f"{64 * 1024:,}" in msg and f"{pool.used_bytes():,}" in msg and "limit" in msg
    # the pool stays usable: smaller requests succeed, and freeing makes room again
    small = npgpu.asarray(np.arange(100.0))
    np.testing.assert_array_equal(small.get(), np.arange(100.0))
    del keep
    gc.collect()
    big = npgpu.empty(6 * 1024, np.float64)
    big.fill(2.0)
    assert float(big[5]) == 2.0
    del big, small
    pool.set_limit(0)
    assert pool.get_limit() == 0
    z = npgpu.zeros(16 * 1024)                                  # no limit any more
    assert z.size == 16 * 1024


def test_out_of_memory_in_operations(pool):
    x = npgpu.asarray(np.arange(1000.0))
    pool.set_limit(pool.used_bytes() + 1024)
    with pytest.raises(MemoryError):
        x + 1.0                            # the result cannot be allocated
    pool.set_limit(0)
    np.testing.assert_array_equal((x + 1.0).get(), np.arange(1000.0) + 1)


def test_huge_request_raises_out_of_memory(pool):
    # 2**50 bytes (1 PiB) can be allocated neither on an H200 nor on the host
    used0 = pool.used_bytes()
    with pytest.raises(npgpu.cuda.OutOfMemoryError, match=f"{2 ** 50:,}"):
        npgpu.empty(2 ** 47, np.float64)
    assert pool.used_bytes() == used0
    y = npgpu.asarray(np.arange(10))                   # still usable afterwards
    np.testing.assert_array_equal((y + 1).get(), np.arange(10) + 1)


def test_set_fraction_limit():
    if SIM:
        pytest.skip("the simulator has no device memory size to take a fraction of")
    p = npgpu.get_default_memory_pool()
    try:
        p.set_limit(fraction=0.5)
        total = npgpu.cuda.Device().mem_info[1]
        assert p.get_limit() == int(total * 0.5)
    finally:
        p.set_limit(0)


def test_custom_pool_via_set_allocator(pool):
    mine = npgpu.cuda.MemoryPool()
    npgpu.cuda.set_allocator(mine.malloc)
    try:
        assert npgpu.cuda.get_allocator() == mine.malloc
        d0 = pool.used_bytes()
        x = npgpu.asarray(np.arange(300.0))
        y = x * 2.0
        assert mine.used_bytes() == 2 * rounded(2400)
        assert pool.used_bytes() == d0
        assert x._mem.pool is mine and y._mem.pool is mine
    finally:
        npgpu.cuda.set_allocator(None)
    z = npgpu.empty(10)
    assert z._mem.pool is pool
    del x, y
    gc.collect()
    assert mine.used_bytes() == 0          # blocks return to the pool they came from
    mine.free_all_blocks()


def test_managed_pool_two_lines(pool):
    # the documented two lines; on the simulator this is host memory, on the GPU cuMemAllocManaged
    mpool = npgpu.cuda.MemoryPool(npgpu.cuda.malloc_managed)
    npgpu.cuda.set_allocator(mpool.malloc)
    try:
        h = np.random.default_rng(1).standard_normal(1000)
        x = npgpu.asarray(h)
        y = x * 2.0 + 1.0
        np.testing.assert_allclose(y.get(), h * 2 + 1, rtol=1e-15)
        assert mpool.used_bytes() >= 2 * rounded(8000)
    finally:
        npgpu.cuda.set_allocator(None)
    del x, y
    gc.collect()
    assert mpool.used_bytes() == 0
    mpool.free_all_blocks()
    assert mpool.total_bytes() == 0


@pytest.mark.skipif(not GPU, reason="managed (unified) memory needs a real CUDA device")
def test_managed_memory_moderate_size_on_gpu(pool):
    free, total = npgpu.cuda.Device().mem_info
    n = 64 * 2 ** 20                                          # 512 MiB of float64: moderate
    assert free > 4 * n * 8
    mpool = npgpu.cuda.MemoryPool(npgpu.cuda.malloc_managed)
    npgpu.cuda.set_allocator(mpool.malloc)
    try:
        x = npgpu.ones(n, np.float64)
        y = x + x
        assert mpool.used_bytes() == 2 * n * 8
        assert float(y[n - 1]) == 2.0 and float(y[0]) == 2.0
        np.testing.assert_array_equal(y[::2 ** 20].get(), np.full(64, 2.0))
    finally:
        npgpu.cuda.set_allocator(None)
    del x, y
    gc.collect()
    mpool.free_all_blocks()
    assert mpool.total_bytes() == 0


def test_memory_pool_rejects_unknown_allocator():
    with pytest.raises(ValueError, match="managed"):
        npgpu.cuda.MemoryPool("cuda-malloc")


def test_memory_records_device_and_stream(pool):
    s = npgpu.cuda.Stream(non_blocking=True)
    with s:
        x = npgpu.empty(10)
    assert x._mem.device_id == 0 and x.device == npgpu.cuda.Device(0)
    assert x._mem.stream == s.ptr
    assert repr(x._mem).startswith("<npgpu Memory")


@pytest.mark.skipif(npgpu.backend() != "cuda", reason="needs real CUDA streams")
def test_destroyed_stream_leaves_no_cached_blocks():
    from npgpu.cuda import memory
    pool = npgpu.get_default_memory_pool()
    s = npgpu.cuda.Stream()
    with s:
        a = npgpu.zeros(1000, np.float32)
        b = npgpu.zeros(3000, np.float32)
    handle = s.ptr
    del a                                   # cached under the stream
    assert any(k[1] == handle for k in pool._cache.bins)
    del s                                   # gone: its cached blocks go back to the driver
    gc.collect()
    assert not any(k[1] == handle for k in pool._cache.bins)
    used = pool.used_bytes()
    del b                                   # freed after its stream died: not cached
    assert pool.used_bytes() < used
    assert not any(k[1] == handle for k in pool._cache.bins)
    pool.free_all_blocks()                  # must not touch the dead handle (it segfaulted)
    np.testing.assert_array_equal((npgpu.arange(5) * 2).get(), np.arange(5) * 2)
