"""Conjugate gradients for a symmetric positive-definite system A x = b, on the GPU.

Builds A = B B^T / n + 0.1 I from npgpu.random normals (cuBLAS for the product), solves it with
a plain CG loop written once for both libraries (``npgpu.get_array_module``), then with
``npgpu.linalg.solve`` (cuSOLVER), and checks both against NumPy on the same matrix.  The loop
reads the residual back to the host only every 8 iterations, so the GPU is not stalled by a
host round trip per iteration.

    python examples/conjugate_gradient.py         # n = 4096 on a GPU, 48 on the simulator
    python examples/conjugate_gradient.py --size 8192
"""
import numpy as np
from timing_and_checks import check, check_true, done, host, note, size_from_args, step

import npgpu        # after timing_and_checks, which quiets the simulator's warning


def conjugate_gradient(A, b, tol=1e-10, maxiter=1000, check_every=8):
    """Solve A x = b for symmetric positive-definite A; works on NumPy and npgpu arrays."""
    xp = npgpu.get_array_module(A, b)
    x = xp.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = xp.dot(r, r)
    stop = tol * tol * float(xp.dot(b, b))
    for it in range(1, maxiter + 1):
        Ap = A @ p
        alpha = rs / xp.dot(p, Ap)              # 0-d arrays: no host round trip
        x += alpha * p
        r -= alpha * Ap
        rs_new = xp.dot(r, r)
        if it % check_every == 0 and float(rs_new) < stop:    # one scalar read
            return x, it
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, maxiter


def main():
    n = size_from_args(__doc__, gpu_size=4096, sim_size=48, what="matrix order n")
    rng = npgpu.random.default_rng(2024)
    B = rng.standard_normal((n, n))                 # float64, on the device
    b = rng.standard_normal(n)
    B_h, b_h = host(B), host(b)                     # NumPy works on the same numbers

    def build(xp, M):
        return M @ M.T / M.shape[0] + 0.1 * xp.eye(M.shape[0])

    A, A_h = step("A = B B^T / n + 0.1 I", lambda: build(npgpu, B), lambda: build(np, B_h))
    check("A", A, A_h, rtol=1e-12, atol=1e-12)
    A_h = host(A)                # from here on both libraries solve exactly the same system

    (x, its), (x_h, its_h) = step("conjugate gradients", lambda: conjugate_gradient(A, b),
                                  lambda: conjugate_gradient(A_h, b_h), repeat=1)
    note(f"iterations: npgpu {its}, numpy {its_h}")
    x_ref, x_ref_h = step("linalg.solve (cuSOLVER / LAPACK)", lambda: npgpu.linalg.solve(A, b),
                          lambda: np.linalg.solve(A_h, b_h))

    res = float(npgpu.linalg.norm(A @ x - b) / npgpu.linalg.norm(b))
    check_true("relative residual of CG", res < 1e-9, f"{res:.2e} < 1e-9")
    check("CG solution vs numpy.linalg.solve", x, x_ref_h, rtol=1e-7, atol=1e-9)
    check("CG solution vs NumPy's CG", x, x_h, rtol=1e-7, atol=1e-9)
    check("linalg.solve vs numpy.linalg.solve", x_ref, x_ref_h, rtol=1e-9, atol=1e-11)
    check_true("iteration counts", abs(its - its_h) <= 8, f"{its} vs {its_h}")
    done()


if __name__ == "__main__":
    main()
