"""Managed (unified) memory: one array that NumPy on the host and kernels on the GPU both touch.

``npgpu.cuda.MemoryPool(npgpu.cuda.malloc_managed)`` set as the allocator makes every npgpu
array CUDA managed memory, addressable from the host too.  Here NumPy writes the input
straight into an npgpu array's memory, a fused kernel reads it on the GPU, and NumPy reads the
result in place: no ``asarray``/``get`` copies.  Pages move on demand (page faults) or ahead
of use with ``cuMemPrefetchAsync`` (``cuda.bindings``); the timings compare the two.  The size
stays a small fraction of the GPU's free memory: over-asking managed memory can hang the GPU.
On the simulator device memory is host memory already: the same code runs and is checked,
prefetching needs a GPU.

    python examples/managed_memory.py             # 2**27 float32 on a GPU, 4096 on the simulator
    python examples/managed_memory.py --size 1000000
"""
import ctypes
import time

import numpy as np
from timing_and_checks import ON_GPU, check, check_true, done, note, size_from_args, skipped, sync

import npgpu        # after timing_and_checks, which quiets the simulator's warning

ARRAYS_LIVE = 4       # input, result, and the temporaries of a step at most
FREE_FRACTION = 16    # use at most 1/16 of the free device memory


@npgpu.fuse(kernel_name="soft_abs")
def soft_abs(x):
    return npgpu.sqrt(x * x + 1.0) - 1.0        # NumPy arrays only: runs with NumPy


def host_view(a):
    """A NumPy array over an npgpu array's memory (host-addressable: managed memory, or the
    simulator's host memory).  Keep ``a`` alive while the view is used."""
    ptr = a.__cuda_array_interface__["data"][0]
    buf = (ctypes.c_char * a.nbytes).from_address(ptr)
    return np.frombuffer(buf, a.dtype).reshape(a.shape)


def prefetch(a, to_device):
    """Move ``a``'s pages to the device (or to the host) ahead of use, on npgpu's stream."""
    from cuda.bindings import driver
    loc = driver.CUmemLocation()
    loc.type = (driver.CUmemLocationType.CU_MEM_LOCATION_TYPE_DEVICE if to_device
                else driver.CUmemLocationType.CU_MEM_LOCATION_TYPE_HOST)
    loc.id = npgpu.cuda.Device().id if to_device else 0
    # cuda.bindings 12.x names the location form cuMemPrefetchAsync_v2; 13.x cuMemPrefetchAsync
    fn = getattr(driver, "cuMemPrefetchAsync_v2", driver.cuMemPrefetchAsync)
    stream = npgpu.cuda.get_current_stream().ptr
    err, = fn(a.__cuda_array_interface__["data"][0], a.nbytes, loc, 0, stream)
    if err != driver.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"cuMemPrefetchAsync failed: {err}")


def prefetch_unavailable():
    """None where prefetching to the device works here, else why not."""
    if not ON_GPU:
        return "needs a GPU"
    try:
        from cuda.bindings import driver
        attr = driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS
        err, value = driver.cuDeviceGetAttribute(attr, npgpu.cuda.Device().id)
    except Exception as e:          # cuda.bindings missing, or newer than the driver
        return f"cuda.bindings unusable ({type(e).__name__}: {e})"
    if err != driver.CUresult.CUDA_SUCCESS or value != 1:
        return "the device has no concurrent managed access"
    return None


def timed(fn):
    t = time.perf_counter()
    out = fn()
    sync()
    return out, time.perf_counter() - t


def touch_from_both_sides(n, src, expected, pool):
    """The host and the device take turns on managed arrays (allocated from ``pool``); they
    are freed when this returns."""
    x = npgpu.empty(n, np.float32)
    hx = host_view(x)
    _, t = timed(lambda: np.copyto(hx, src))            # the host writes the pages
    note(f"{'NumPy writes the npgpu array in place':<44s} host  {t * 1e3:10.2f} ms")
    y, t_fault = timed(lambda: soft_abs(x))             # the GPU reads them: page faults
    _, t_np = timed(lambda: soft_abs(src))
    note(f"{'kernel on host-resident pages':<44s} npgpu {t_fault * 1e3:10.2f} ms   "
         f"numpy {t_np * 1e3:10.2f} ms")
    check("result read in place by NumPy", host_view(y), expected, rtol=1e-6, atol=1e-6)

    why_not = prefetch_unavailable()
    if why_not is None:
        np.copyto(hx, src)                                  # pages back on the host
        del y                                               # its block is reused below
        y, t_pre = timed(lambda: (prefetch(x, True), soft_abs(x))[1])
        note(f"{'prefetch to the GPU + kernel':<44s} npgpu {t_pre * 1e3:10.2f} ms   "
             f"(faulting: {t_fault * 1e3:.2f} ms)")
        _, t_warm = timed(lambda: soft_abs(x))
        note(f"{'kernel on device-resident pages':<44s} npgpu {t_warm * 1e3:10.2f} ms")
        _, t_back = timed(lambda: prefetch(y, False))
        note(f"{'prefetch the result to the host':<44s} npgpu {t_back * 1e3:10.2f} ms")
        check("result after prefetches", host_view(y), expected, rtol=1e-6, atol=1e-6)
    else:
        skipped("prefetching (cuMemPrefetchAsync)", why_not)

    # the host edits the input in place; the next kernel sees the edit without a copy
    hx[::7] = 0.0
    sync()
    total = float(npgpu.sum(x, dtype=np.float64))
    ref = src.astype(np.float64)
    ref[::7] = 0.0
    check("device sum after a host edit", np.float64(total), ref.sum(), rtol=1e-9, atol=1e-6)
    check_true("every array came from the managed pool", pool.used_bytes() >= 2 * 4 * n,
               f"{pool.used_bytes() / 2**20:.2f} MiB in use")


def main():
    n = size_from_args(__doc__, gpu_size=2 ** 27, sim_size=4096, what="float32 elements")
    if ON_GPU:
        free, total = npgpu.cuda.Device().mem_info
        cap = free // FREE_FRACTION // (ARRAYS_LIVE * 4)
        if n > cap:
            note(f"{n} elements would pass 1/{FREE_FRACTION} of the free memory: using {cap}")
            n = cap
        note(f"device memory: {free / 2**30:.1f} GiB free of {total / 2**30:.1f} GiB; "
             f"managed memory asked: at most {ARRAYS_LIVE * 4 * n / 2**30:.2f} GiB")
    src = np.random.default_rng(4).standard_normal(n, dtype=np.float32)
    expected = soft_abs(src)                    # NumPy: the fused function runs on the host
    warm = npgpu.asarray(src)                   # compile the kernels first, in device memory
    soft_abs(warm), npgpu.sum(warm, dtype=np.float64)
    del warm

    pool = npgpu.cuda.MemoryPool(npgpu.cuda.malloc_managed)
    npgpu.cuda.set_allocator(pool.malloc)
    try:
        touch_from_both_sides(n, src, expected, pool)
    finally:
        npgpu.cuda.set_allocator(None)              # back to ordinary device memory
    pool.free_all_blocks()
    check_true("managed memory given back", pool.total_bytes() == 0, "pool empty")
    done()


if __name__ == "__main__":
    main()
