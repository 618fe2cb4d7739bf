"""Where a pooled ``numba.cuda.device_array(256, float32)`` spends its time (issue 18's
<= 5 us target): the whole call, then each part Numba runs around npgpu's allocation, each as
the median of 10^4 single calls (``time.perf_counter``) in this one process with npgpu's pool
installed as Numba's memory manager, first with Numba's own context check (``ensure_context``),
then with npgpu's fast path for it (``npgpu/cuda/numba_context.py``, which
``use_npgpu_allocator_in_numba`` installs).

    python3 benchmarks/experiments/numba_alloc_parts.py
"""
import statistics
import time

import numpy as np

import npgpu

npgpu.cuda.use_npgpu_allocator_in_numba()
from numba import cuda  # noqa: E402
from numba.cuda import api  # noqa: E402
from numba.cuda.cudadrv import devicearray, devices, driver, dummyarray  # noqa: E402

F32 = np.dtype(np.float32)


def median_us(fn, n=10000):
    for _ in range(200):
        fn()
    ts = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts) * 1e6


def ensure_only():
    with devices._runtime.ensure_context():
        pass


def active_only():
    with driver.driver.get_active_context():
        pass


def main():
    rt = devices._runtime
    fast = rt.ensure_context                # use_npgpu_allocator_in_numba installed it
    rt.ensure_context = fast.slow           # Numba's own first
    rows = [("cuda.device_array(256 f32)", lambda: cuda.device_array(256, F32)),
            ("ensure_context enter+exit", ensure_only),
            ("driver.get_active_context enter+exit", active_only),
            ("prepare_shape_strides_dtype", lambda: api.prepare_shape_strides_dtype(
                256, None, F32, "C")),
            ("dummyarray.Array.from_desc", lambda: dummyarray.Array.from_desc(
                0, (256,), (4,), 4))]
    with rt.ensure_context():
        ctx = devices.get_context()
        inner = [("DeviceNDArray((256,), (4,)) (context attached)",
                  lambda: devicearray.DeviceNDArray(shape=(256,), strides=(4,), dtype=F32)),
                 ("get_context() (attached)", devices.get_context),
                 ("ctx.memalloc(1024) (npgpu pool)", lambda: ctx.memalloc(1024)),
                 ("driver.memory_size_from_info", lambda: driver.memory_size_from_info(
                     (256,), (4,), 4))]
        for name, fn in inner:
            print(f"{name:48s} {median_us(fn):7.2f} us", flush=True)
    for name, fn in rows:
        print(f"{name:48s} {median_us(fn):7.2f} us", flush=True)
    rt.ensure_context = fast
    for name, fn in rows[:2]:
        print(f"{name + ', npgpu check':48s} {median_us(fn):7.2f} us", flush=True)
    a = cuda.device_array(256, F32)
    a.copy_to_device(np.arange(256, dtype=np.float32))
    assert (a.copy_to_host() == np.arange(256)).all()


if __name__ == "__main__":
    main()
