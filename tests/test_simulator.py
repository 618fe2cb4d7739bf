"""The simulator's launch path for npgpu's kernels (npgpu/_codegen/simulator_fixes.py): a
block's threads as greenlets of the launching thread, device functions called directly, NumPy
casts -- same results and errors as Numba's own path.

Numba's own kernels (not rendered by npgpu) keep Numba's launch path; both are run here."""
import numpy as np
import pytest
from numba import cuda           # a module global: the simulator swaps globals named cuda

import npgpu
from npgpu._codegen import compiler
from npgpu._codegen.compiler import KernelSource, Param
from conftest import ON_GPU

pytestmark = pytest.mark.skipif(ON_GPU, reason="the simulator's launch path")

_BLOCK_SUM = '''
@cuda.jit(device=True)
def twice(v):
    return float64(v) * float64(2)


def KERNEL(out, x, n):
    buf = cuda.shared.array(8, float64)
    t = cuda.threadIdx.x
    if t >= n:
        return                  # threads that leave no longer count at the barrier
    buf[t] = twice(x[cuda.blockIdx.x * n + t])
    cuda.syncthreads()
    s = 4
    while s > 0:
        if t < s and t + s < n:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]
'''


def _kernel(name, source, params):
    ks = KernelSource(name, source.replace("KERNEL", name), params)
    return compiler.get_kernel(("test-simulator", name), lambda: ks)


def _vals(a):
    return [0, 0, a.size, a.itemsize, a._ptr, *a.shape, *a._strides]


@pytest.mark.parametrize("n", [8, 5, 1])
def test_barriers_device_functions_and_early_exit(n, rng):
    f8 = np.dtype(np.float64)
    k = _kernel(f"sim_block_sum_{n}", _BLOCK_SUM, [Param("array", f8, 1, "C"),
                                                  Param("array", f8, 1, "C"), Param("scalar", np.int64)])
    h = rng.standard_normal(3 * n)
    x = npgpu.asarray(h)
    out = npgpu.zeros(3)
    k(3, 8, _vals(out) + _vals(x) + [n])
    np.testing.assert_allclose(out.get(), (2 * h).reshape(3, n).sum(axis=1), rtol=1e-12)


def test_an_error_in_one_thread_reaches_the_caller():
    f8 = np.dtype(np.float64)
    src = '''
def KERNEL(out):
    t = cuda.threadIdx.x
    if t == 3:
        out[100] = 1.0          # out of bounds: IndexError in this thread only
    cuda.syncthreads()
    out[t] = float64(t)
'''
    k = _kernel("sim_error", src, [Param("array", f8, 1, "C")])
    out = npgpu.zeros(4)
    with pytest.raises(IndexError, match=r"tid=\[3, 0, 0\]"):
        k(1, 4, _vals(out))
    k2 = _kernel("sim_ok_after_error", src.replace("t == 3", "t == 99"),
                 [Param("array", f8, 1, "C")])
    k2(1, 4, _vals(out))                             # the next launch runs normally
    np.testing.assert_array_equal(out.get(), [0.0, 1.0, 2.0, 3.0])


def test_threads_without_barriers_and_errors(rng):
    """Threads that never meet run one after another in the launching thread: same results,
    Numba's error message naming the failing thread, and the launching thread's object left as
    it was."""
    import threading
    f8 = np.dtype(np.float64)
    src = '''
def KERNEL(out, x):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = x[i] * float64(3) + float64(cuda.threadIdx.x)
'''
    k = _kernel("sim_independent", src, [Param("array", f8, 1, "C"), Param("array", f8, 1, "C")])
    h = rng.standard_normal(10)
    x, out = npgpu.asarray(h), npgpu.zeros(10)
    k(3, 4, _vals(out) + _vals(x))
    np.testing.assert_array_equal(out.get(), h * 3 + np.arange(10) % 4)
    assert not hasattr(threading.current_thread(), "threadIdx")
    bad = _kernel("sim_independent_error", src.replace("x[i]", "x[i + 2]"),
                  [Param("array", f8, 1, "C"), Param("array", f8, 1, "C")])
    with pytest.raises(IndexError, match=r"tid=\[0, 0, 0\] ctaid=\[2, 0, 0\]"):
        bad(3, 4, _vals(out) + _vals(x))
    assert not hasattr(threading.current_thread(), "threadIdx")


def test_casts_match_numbas_type_calls():
    """Generated kernels cast with NumPy's scalar types: what Numba's types do when called."""
    from numba.cuda import types as nt
    from npgpu._codegen import simulator_fixes
    ns = {"float32": nt.float32, "int8": nt.int8, "uint64": nt.uint64, "boolean": nt.boolean,
          "complex64": nt.complex64, "other": 3}
    fast = dict(ns)
    simulator_fixes._fast_casts(fast)
    assert fast["other"] == 3
    for v in (np.float64(1e40), np.float64(-2.5), 3, np.int64(-7), 0.0, np.float32(1.5)):
        for name in ("float32", "uint64", "boolean", "complex64", "int8"):
            if name in ("uint64", "int8") and (isinstance(v, float) or float(v) != int(v)
                                               or v < 0 or abs(v) > 100):
                continue
            with np.errstate(over="ignore"):
                want, got = ns[name](v), fast[name](v)
            assert type(got) is type(want) and got == want, (name, v)


def test_numbas_own_kernels_keep_numbas_path(rng):
    """A kernel written with numba.cuda directly (not rendered by npgpu) still runs."""
    @cuda.jit(device=True)
    def sq(v):
        return v * v

    @cuda.jit
    def k(out, x):
        i = cuda.grid(1)
        buf = cuda.shared.array(4, np.float64)
        buf[cuda.threadIdx.x] = sq(x[i])
        cuda.syncthreads()
        if cuda.threadIdx.x == 0:
            out[cuda.blockIdx.x] = buf[0] + buf[1] + buf[2] + buf[3]

    h = rng.standard_normal(8)
    out = np.zeros(2)
    k[2, 4](out, h)
    np.testing.assert_allclose(out, (h * h).reshape(2, 4).sum(axis=1))


_GRID_STRIDE = '''
@cuda.jit(device=True)
def plus_one(v):
    return v + int64(1)


def KERNEL(out, x, n):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    while i < n:
        out[i] = plus_one(x[i])
        i += cuda.gridDim.x * cuda.blockDim.x
'''


def test_kernel_compiled_during_another_threads_launch_has_the_real_cuda():
    """Kernels rendering the same device functions share one namespace, and a launch swaps its
    fake ``cuda`` module into it; a thread compiling a sibling kernel meanwhile (Dask's workers
    compiling layout variants of one ufunc loop) took that launch's module for good: its
    grid-stride loop then used the other launch's gridDim and blockDim and left elements unwritten
    (CI, a Dask cumsum and a later broadcast add in one worker).  Here the swap is made by hand."""
    from numba.cuda.simulator import kernelapi

    i8 = np.dtype(np.int64)
    params = [Param("array", i8, 1, "C"), Param("array", i8, 1, "C"), Param("scalar", i8)]
    first = _kernel("sim_grid_stride_a", _GRID_STRIDE, params)
    shared = next(ns for ns in compiler._device_parts.values() if "plus_one" in ns)
    stale = kernelapi.FakeCUDAModule((8, 1, 1), (8, 1, 1), 0)      # a larger launch
    with kernelapi.swapped_cuda_module(type("F", (), {"__globals__": shared}), stale):
        assert shared["cuda"] is stale
        second = _kernel("sim_grid_stride_b", _GRID_STRIDE, params)
    assert shared["cuda"] is cuda
    h = np.arange(37, dtype=np.int64) * 3 - 50
    x = npgpu.asarray(h)
    for k in (first, second):
        out = npgpu.zeros(37, dtype=np.int64)
        k(2, 4, _vals(out) + _vals(x) + [37])
        np.testing.assert_array_equal(out.get(), h + 1)
