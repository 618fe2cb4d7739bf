"""Benchmark cases of npgpu.scipy.sparse.linalg (issue 24, section "sparse_linalg"): ``cg`` on
the 2-D Poisson matrix (5-point stencil, CSR float32) of 2^22 unknowns, a fixed number of
iterations (rtol 1e-30 never stops it early), against cupyx.scipy.sparse.linalg.cg.

Iterations per second = ITERS / time.  Bytes: the least traffic of one CG iteration, 96 n
(SpMV: 5 values and 5 column indices a row, the row pointers, x read and y written: 48 n;
p.q and r.r: 12 n; x += a p, r -= a q: 24 n; p = z + b p: 12 n), times ITERS.
"""
import numpy as np

ITERS = 20


def _poisson_host(side):
    """The 5-point Laplacian of a side x side grid (Dirichlet), SciPy CSR float32."""
    import scipy.sparse as sp
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(side, side), format="csr")
    eye = sp.identity(side, format="csr")
    return (sp.kron(eye, t) + sp.kron(t, eye)).tocsr().astype(np.float32)


def cases(cfg, api):
    Case, p2, H = api.Case, api.p2, api.H
    side = 1 << 4 if cfg["smoke"] else 1 << 11           # 2^22 unknowns on the GPU
    n = side * side
    iters = 5 if cfg["smoke"] else ITERS
    cache = {}

    def host():
        if "A" not in cache:
            cache["A"] = _poisson_host(side)
            cache["b"] = H.rand(n, np.float32, "b")
        return cache["A"], cache["b"]

    def make(lib):
        A_h, b_h = host()
        b = lib.put(b_h)
        if lib.name == "npgpu":
            import npgpu.scipy.sparse.linalg as sla
            A = lib.gp.scipy.sparse.csr_matrix(A_h)
            cg = sla.cg
        else:
            import cupyx.scipy.sparse
            import cupyx.scipy.sparse.linalg as sla
            A = cupyx.scipy.sparse.csr_matrix(A_h)
            cg = sla.cg
        try:
            cg(A, b, rtol=1e-30, maxiter=1)
            kw = {"rtol": 1e-30}
        except TypeError:                      # CuPy before its SciPy 1.12 spelling
            kw = {"tol": 1e-30}
        return lambda: cg(A, b, maxiter=iters, **kw)

    return [Case(f"cg Poisson5 f32 {p2(n)}, {iters} it", make, nbytes=96 * n * iters,
                 libs=("npgpu", "cupy"))]
