"""The generated CSR SpMV kernel (npgpu/scipy/sparse/_kernels.py, vector CSR: a group of lanes
a row) against SciPy: empty rows, one row far longer than a group, rows shorter and longer than
the group, every dtype the kernel route serves, int32 and int64 indices, strided x."""
import numpy as np
import pytest
import scipy.sparse as ss

import npgpu as xp
from npgpu.scipy import sparse as sp
from npgpu.scipy.sparse import _kernels as K

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float32, np.float64, np.complex64, np.complex128]


def _values(rng, n, dt):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(dt)
    if dt.kind in "iu":
        return rng.integers(1, 9, n).astype(dt)
    v = rng.standard_normal(n)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(n)
    return v.astype(dt)


def _host_csr(rng, dt, ix=np.int32, m=37, n=29, long_row=75):
    """Row lengths 0..11 (some rows empty), row 5 ``long_row`` nonzeros (more than two passes
    of a 32-lane group), unsorted columns with repeats (SciPy sums them too)."""
    lengths = rng.integers(0, 12, m)
    lengths[[0, 9, m - 1]] = 0
    lengths[5] = long_row
    indptr = np.concatenate([[0], np.cumsum(lengths)]).astype(ix)
    nnz = int(indptr[-1])
    indices = rng.integers(0, n, nnz).astype(ix)
    return ss.csr_matrix((_values(rng, nnz, dt), indices, indptr), shape=(m, n))


def _check(got, want):
    got = got.get() if hasattr(got, "get") else got
    assert got.dtype == want.dtype
    dt = want.dtype
    if dt.kind in "biu":
        np.testing.assert_array_equal(got, want)
    else:
        tol = 1e-5 if dt in (np.float32, np.complex64) else 1e-12
        scale = max(1.0, float(np.abs(want).max())) if want.size else 1.0
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale)


def _direct(H, x, group):
    """``_kernels.spmv`` itself, at a given group width (the compute dtype's data)."""
    y = xp.empty(H.shape[0], dtype=H.dtype)
    K.spmv(xp.asarray(H.indptr), xp.asarray(H.indices), xp.asarray(H.data), x, y, group=group)
    return y


@pytest.mark.parametrize("ix", [np.int32, np.int64])
@pytest.mark.parametrize("group", [2, 4, 32])
def test_group_widths(group, ix):
    rng = np.random.default_rng(group)
    H = _host_csr(rng, np.float64, ix)
    x = _values(rng, H.shape[1], np.float64)
    _check(_direct(H, xp.asarray(x), group), H @ x)


@pytest.mark.parametrize("unroll", [1, 3])
def test_nonzeros_a_lane(unroll, monkeypatch):
    # the default is 2; 3 also has passes with two slots past the row (both read nonzero k)
    monkeypatch.setattr(K, "_SPMV_UNROLL", unroll)
    rng = np.random.default_rng(10 + unroll)
    H = _host_csr(rng, np.float32)
    x = _values(rng, H.shape[1], np.float32)
    _check(_direct(H, xp.asarray(x), 4), H @ x)


@pytest.mark.matrix
@pytest.mark.parametrize("dt", DTYPES)
def test_public_route_every_dtype(dt):
    rng = np.random.default_rng(3)
    H = _host_csr(rng, dt)
    x = _values(rng, H.shape[1], dt)
    _check(sp.csr_matrix(H) @ xp.asarray(x), H @ x)


@pytest.mark.parametrize("dt", [np.int16, np.uint64, np.complex64])
def test_int64_indices(dt):
    rng = np.random.default_rng(4)
    H = _host_csr(rng, dt, np.int64)
    x = _values(rng, H.shape[1], dt)
    _check(_direct(H, xp.asarray(x), 8), H @ x)


@pytest.mark.parametrize("dt", [np.int32, np.float32, np.complex128])
def test_strided_x(dt):
    rng = np.random.default_rng(5)
    H = _host_csr(rng, dt)
    n = H.shape[1]
    xx = _values(rng, 3 * n, dt)
    _check(_direct(H, xp.asarray(xx)[::3], 4), H @ xx[::3])
    _check(sp.csr_matrix(H) @ xp.asarray(xx)[::-3], H @ xx[::-3])


def test_mixed_dtypes_and_empty():
    rng = np.random.default_rng(6)
    H = _host_csr(rng, np.int8)
    x = _values(rng, H.shape[1], np.float32)
    _check(sp.csr_matrix(H) @ xp.asarray(x), H @ x)
    # rows but no nonzeros; no rows
    E = ss.csr_matrix((5, 4), dtype=np.float32)
    _check(sp.csr_matrix(E) @ xp.asarray(x[:4]), E @ x[:4])
    Z = ss.csr_matrix((0, 4), dtype=np.float64)
    _check(sp.csr_matrix(Z) @ xp.asarray(x[:4].astype(np.float64)), Z @ x[:4].astype(np.float64))


def test_group_from_mean_row_length():
    # the next power of two of (mean row length / nonzeros a lane), 2..32
    u = K._SPMV_UNROLL
    assert K.spmv_group(1 << 22, 16 << 22) == 16 // u
    assert K.spmv_group(10, 0) == 2 and K.spmv_group(10, 10) == 2
    assert K.spmv_group(10, 10 * 64 * u) == 32
    assert K.spmv_group(3, 3 * 3 * u) == 4


@pytest.mark.parametrize("dt", [np.float32, np.uint64, np.complex128])
def test_gpu_rendering_shuffles(dt):
    """The GPU's rendering (warp shuffles, which the simulator lacks): a butterfly of
    ``log2(group)`` full-mask ``shfl_xor_sync`` steps (two a step for complex: real and
    imaginary parts) and no shared memory.  Recorded for the PTX check when
    ``NPGPU_RECORD_KERNELS`` is set, so CI compiles it for sm_90."""
    from npgpu._codegen import compiler
    dt = np.dtype(dt)
    for group in (2, 16):
        ks = K._render_spmv(np.dtype(np.int32), dt, group, K._SPMV_UNROLL, "C", shuffles=True)
        steps = group.bit_length() - 1
        assert ks.source.count("cuda.shfl_xor_sync(0xffffffff,") == steps * (2 if dt.kind == "c"
                                                                             else 1)
        assert [ln.split("= ")[1] for ln in ks.source.splitlines() if "off = " in ln] == \
            [str(group >> s) for s in range(1, steps + 1)]
        assert "shared" not in ks.source and "syncthreads" not in ks.source
        if compiler._RECORD:
            compiler._record(ks)
