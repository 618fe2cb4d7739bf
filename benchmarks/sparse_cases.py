"""Benchmark cases of npgpu.scipy.sparse (issue 24): a CSR float32 matrix of 2^22 rows with 16
random nonzeros a row (square), its SpMV, SpMM with 8 dense columns, and COO -> CSR of the same
entries in random order.  Peers: cupyx.scipy.sparse, torch.sparse_csr (products), SciPy on the
host.  Bytes: what each operation must read and write once (values, indices, index pointers,
dense operands), so the copy-bandwidth fraction is printed."""
import numpy as np


def _sparse(lib):
    if lib.name == "npgpu":
        return lib.gp.scipy.sparse
    if lib.name == "cupy":
        import cupyx.scipy.sparse
        return cupyx.scipy.sparse
    import scipy.sparse
    return scipy.sparse


def cases(cfg, api):
    Case, p2, H = api.Case, api.p2, api.H
    m = 1 << 5 if cfg["smoke"] else 1 << 22
    per_row, ncol = 16, 8
    nnz = m * per_row
    f32, i32 = np.float32, np.int32

    indptr = lambda: np.arange(0, nnz + 1, per_row, dtype=i32)  # noqa: E731
    indices = lambda: np.minimum(H.rand(nnz, f32, "c") * m, m - 1).astype(i32)  # noqa: E731
    values = lambda: H.rand(nnz, f32, "v")  # noqa: E731

    def csr(lib):
        p, j, v = lib.put(indptr()), lib.put(indices()), lib.put(values())
        t = api.torch_of(lib)
        if t is not None:
            return t.sparse_csr_tensor(p, j, v, size=(m, m))
        return _sparse(lib).csr_matrix((v, j, p), shape=(m, m))

    def spmv(lib):
        a, x = csr(lib), lib.put(H.rand(m, f32, "x"))
        return lambda: a @ x

    def spmm(lib):
        a, b = csr(lib), lib.put(H.rand((m, ncol), f32, "b"))
        return lambda: a @ b

    def coo_to_csr(lib):
        # the same entries, shuffled: a real sort (a fresh COO each call, so neither library
        # reuses the sorted order of an earlier call)
        perm = np.random.default_rng(0).permutation(nnz)
        rows = np.repeat(np.arange(m, dtype=i32), per_row)[perm]
        r, c, v = lib.put(rows), lib.put(indices()[perm]), lib.put(values()[perm])
        cls = _sparse(lib).coo_matrix
        return lambda: cls((v, (r, c)), shape=(m, m)).tocsr()

    def other_route(make, op, which):
        """npgpu only: the same product through its other route (``which``: "kernel" or
        "cusparse", as ``NPGPU_SPARSE_SPMV/SPMM`` choose), so both routes sit in one table."""
        def build(lib):
            f = make(lib)
            route = lib.gp.scipy.sparse._products._ROUTE

            def run():
                old, route[op] = route[op], which
                try:
                    return f()
                finally:
                    route[op] = old
            return run
        return build

    csr_bytes = 8 * nnz + 4 * (m + 1)
    return [
        Case(f"SpMV csr f32 {p2(m)}x16", spmv, nbytes=csr_bytes + 8 * m),
        Case(f"SpMM csr f32 {p2(m)}x16 @ {ncol} cols", spmm,
             nbytes=csr_bytes + 2 * 4 * m * ncol),
        Case(f"SpMV csr f32 {p2(m)}x16 (generated kernel)", other_route(spmv, "spmv", "kernel"),
             nbytes=csr_bytes + 8 * m, libs=("npgpu",)),
        Case(f"SpMM csr f32 {p2(m)}x16 @ {ncol} cols (cuSPARSE)",
             other_route(spmm, "spmm", "cusparse"),
             nbytes=csr_bytes + 2 * 4 * m * ncol, libs=("npgpu",)),
        Case(f"COO->CSR f32 {p2(m)}x16", coo_to_csr, nbytes=12 * nnz + 8 * nnz + 4 * (m + 1),
             libs=("npgpu", "cupy", "numpy")),
    ]
