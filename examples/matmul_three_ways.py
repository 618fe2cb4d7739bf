"""Matrix multiplication three ways: a RawKernel (CUDA C++), a Numba kernel, and ``@``.

The two user kernels are the same shared-memory tiled algorithm (a block computes a TILE x TILE
tile of C, stepping through K one tile at a time): once in CUDA C++ compiled by NVRTC
(``npgpu.RawKernel``), once in Python as a ``numba.cuda.jit`` kernel that takes npgpu arrays
directly and runs on npgpu's current stream.  ``A @ B`` calls cuBLAS.  Each is checked against
NumPy.  The simulator interprets Python only: there the RawKernel is compiled but not launched.

    python examples/matmul_three_ways.py          # 4096^2 float32 on a GPU, 20^2 on the simulator
    python examples/matmul_three_ways.py --size 2048
"""
import math

import numpy as np
from timing_and_checks import ON_GPU, check, done, host, note, size_from_args, skipped, step

import npgpu        # after timing_and_checks (quiets the simulator's warning), before numba.cuda
from numba import cuda, float32  # noqa: E402  (npgpu picks the simulator before numba.cuda loads)

TILE = 16 if ON_GPU else 8     # the simulator starts an OS thread a simulated thread: small blocks

RAW_SOURCE = r"""
#define TILE 16   // launched with 16 x 16 blocks (the GPU only)
extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C,
                                        int n, int k, int m)
{
    __shared__ float sA[TILE][TILE];
    __shared__ float sB[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        sA[ty][tx] = (row < n && t + tx < k) ? A[(size_t)row * k + t + tx] : 0.0f;
        sB[ty][tx] = (t + ty < k && col < m) ? B[(size_t)(t + ty) * m + col] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int j = 0; j < TILE; ++j)
            acc += sA[ty][j] * sB[j][tx];
        __syncthreads();
    }
    if (row < n && col < m)
        C[(size_t)row * m + col] = acc;
}
"""


@cuda.jit
def matmul_tiled(A, B, C):
    sA = cuda.shared.array((TILE, TILE), float32)
    sB = cuda.shared.array((TILE, TILE), float32)
    tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
    row = cuda.blockIdx.y * TILE + ty
    col = cuda.blockIdx.x * TILE + tx
    n, k = A.shape
    m = B.shape[1]
    acc = float32(0.0)
    for t in range(0, k, TILE):
        sA[ty, tx] = A[row, t + tx] if row < n and t + tx < k else float32(0.0)
        sB[ty, tx] = B[t + ty, col] if t + ty < k and col < m else float32(0.0)
        cuda.syncthreads()
        for j in range(TILE):
            acc += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if row < n and col < m:
        C[row, col] = acc


def main():
    n = size_from_args(__doc__, gpu_size=4096, sim_size=20, what="matrix order (n x n float32)")
    gen = npgpu.random.default_rng(3)
    A = gen.standard_normal((n, n), dtype=np.float32)
    B = gen.standard_normal((n, n), dtype=np.float32)
    A_h, B_h = host(A), host(B)
    grid, block = (math.ceil(n / TILE), math.ceil(n / TILE)), (TILE, TILE)
    tol = dict(rtol=1e-4, atol=2e-6 * n)       # float32 sums of n products, any order

    C_ref, C_h = step("A @ B (cuBLAS / NumPy)", lambda: A @ B, lambda: A_h @ B_h)
    check("A @ B", C_ref, C_h, **tol)

    def numba_way():
        C = npgpu.empty((n, n), np.float32)
        matmul_tiled[grid, block, npgpu.cuda.as_numba_stream()](A, B, C)
        return C
    C_numba, _ = step("Numba kernel on npgpu arrays", numba_way)
    check("Numba kernel", C_numba, C_h, **tol)

    raw = npgpu.RawKernel(RAW_SOURCE, "matmul_tiled")
    try:
        raw.compile()
        note(f"RawKernel compiled by NVRTC: {raw.num_params} parameters")
    except Exception as e:          # no NVRTC on this machine: the launch below cannot run
        note(f"RawKernel compile: skipped ({type(e).__name__}: {str(e).splitlines()[0]})")
    if not ON_GPU:
        skipped("RawKernel (CUDA C++) launch")
    else:
        def raw_way():
            C = npgpu.empty((n, n), np.float32)
            raw(grid, block, (A, B, C, np.int32(n), np.int32(n), np.int32(n)))
            return C
        C_raw, _ = step("RawKernel (CUDA C++)", raw_way)
        check("RawKernel", C_raw, C_h, **tol)
    done()


if __name__ == "__main__":
    main()
