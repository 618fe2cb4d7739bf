"""Dask arrays of npgpu chunks: one expression over many chunks, on threads or on GPU workers.

``dask.config.set({"array.backend": "npgpu"})`` makes ``da.random`` (and ``da.ones``, ...)
produce npgpu chunks; Dask then runs each chunk's work as npgpu kernels. The data is made on
the device, persisted, and the centred sum of squares and a Gram matrix are computed with
Dask's threaded scheduler, then (on a GPU with dask-cuda installed) with ``LocalCUDACluster``,
one worker per GPU. Each result is checked against NumPy (and Dask with NumPy chunks).

    python examples/dask_arrays.py               # 2**16 rows x 1024 on a GPU, 256 x 16 on the simulator
    python examples/dask_arrays.py --size 8192
"""
import numpy as np
from timing_and_checks import (ON_GPU, check, check_true, done, host, note, size_from_args,
                               skipped, step)

import npgpu        # after timing_and_checks, which quiets the simulator's warning

try:
    import dask
    import dask.array as da
except ImportError:           # Dask is an optional extra: pip install "npgpu[dask]"
    dask = None


def centred_square_sum(x):
    return ((x - x.mean(axis=0)) ** 2).sum()


def main():
    rows = size_from_args(__doc__, gpu_size=2 ** 16, sim_size=256, what="rows")
    cols = 1024 if rows >= 2 ** 14 else 16
    chunks = (max(rows // 8, 1), cols)
    if dask is None:
        for name in ("make and persist", "threads: centred sum of squares", "threads: Gram",
                     "LocalCUDACluster"):
            skipped(name, "needs dask (pip install 'npgpu[dask]')")
        done()
        return
    note(f"x: ({rows}, {cols}) float32 in chunks of {chunks}")
    with dask.config.set({"array.backend": "npgpu"}):
        x = da.random.default_rng(7).standard_normal((rows, cols), chunks=chunks,
                                                     dtype=np.float32)
    x = x.persist(scheduler="threads")
    check_true("chunks are npgpu arrays", isinstance(x._meta, npgpu.ndarray),
               f"{x.npartitions} chunks")
    xh = host(x.compute(scheduler="threads")).astype(np.float64)
    xn = da.from_array(xh.astype(np.float32), chunks=chunks)      # Dask with NumPy chunks

    expected = centred_square_sum(xh)
    got, by_numpy = step("threads: ((x - x.mean(0))**2).sum()",
                         lambda: centred_square_sum(x).compute(scheduler="threads"),
                         lambda: centred_square_sum(xn).compute(scheduler="threads"))
    check_true("result is an npgpu array", isinstance(got, npgpu.ndarray), type(got).__name__)
    check("centred sum of squares", got, expected, rtol=1e-4)
    check("... against Dask with NumPy", got, by_numpy, rtol=1e-4)

    gram, _ = step("threads: x.T @ x", lambda: (x.T @ x).compute(scheduler="threads"),
                   lambda: (xn.T @ xn).compute(scheduler="threads"))
    check("Gram matrix", gram, xh.T @ xh, rtol=1e-3, atol=1e-2 * rows ** 0.5)

    try:
        from dask_cuda import LocalCUDACluster
        from distributed import Client
    except ImportError:
        LocalCUDACluster = None
    if not ON_GPU or LocalCUDACluster is None:
        skipped("LocalCUDACluster", "needs a GPU and dask-cuda")
    else:
        ngpu = npgpu.cuda.get_device_count()
        with LocalCUDACluster(n_workers=ngpu, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            note(f"LocalCUDACluster: {ngpu} worker(s), one per GPU")
            with dask.config.set({"array.backend": "npgpu"}):
                xc = da.random.default_rng(7).standard_normal((rows, cols), chunks=chunks,
                                                              dtype=np.float32)
            xc = client.persist(xc)
            on_workers, _ = step("cluster: ((x - x.mean(0))**2).sum()",
                                 lambda: client.compute(centred_square_sum(xc)).result())
            # same seed, same chunks: the workers made the same data as the threads did
            check("cluster result", on_workers, expected, rtol=1e-4)
    done()


if __name__ == "__main__":
    main()
