"""How take along axis 1 (the benchmark's (8192, 8192) float32 and 8192 int64 indices, 81-84%
of copy bandwidth against an 85% target; Nsight Compute: the shipped indexed kernel latency
-bound at 56 registers, 2 blocks of 512 threads an SM, 50% occupancy) could stage its source
rows: CUDA C kernels of three staging forms, beside npgpu's shipped take, CuPy's and PyTorch's.

Every kernel holds the block's column map (the indices as uint16, built once a block in shared
memory), runs a resident grid (as many blocks as the occupancy API fits, each taking rows
``blockIdx.x, blockIdx.x + gridDim.x, ...``), stages each source row whole in shared memory and
gathers ``out[r, j] = row[map[j]]`` four columns a thread at a time (one 8-byte map load, one
16-byte streaming store, as the shipped form):

* ``regs.tT.bB[.kK]``: the shipped form -- the row staged with 16-byte loads, the next row's
  ``K`` units a thread (default all of them) loaded into registers before the gather and
  stored after it; 48 KB of static shared memory (row + map); launch bounds (T, B).
* ``cpasync.tT.nN[.bB]``: ``N`` row buffers filled by ``cp.async.cg.shared.global`` 16-byte
  copies (LDGSTS), ``N - 1`` rows in flight during the gather (``commit_group`` /
  ``wait_group N-1`` then ``__syncthreads``); dynamic shared memory.
* ``bulk.tT.nN[.bB]``: ``N`` row buffers, each filled by one thread's Hopper bulk copy
  (``cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes``, the whole 32 KB
  row) completing on the buffer's ``mbarrier`` (``arrive.expect_tx``; the threads wait in a
  ``try_wait.parity`` loop); a ``__syncthreads`` and ``fence.proxy.async`` before a buffer is
  refilled; dynamic shared memory.

Dynamic shared memory over 48 KB is granted through ``cuFuncSetAttribute`` (npgpu's RawKernel
passes ``shared_mem=`` but sets no attributes; the CUfunction comes from its RawModule), and
every kernel prefers the SM's whole shared memory as carveout (more staged blocks an SM).  Each
row prints the kernel's registers, blocks an SM and grid.  Results are checked against npgpu's
own ``take`` (exact; "WRONG RESULT" otherwise; the output is filled with NaN first); 3
interleaved rounds; bytes counted: the input read once, the output written once and the index.

    python3 benchmarks/experiments/take_stage_forms.py [--uniform] [VARIANT ...]
    python3 benchmarks/experiments/take_stage_forms.py --source [VARIANT ...] > k.cu
        (the CUDA source alone, no GPU or npgpu: nvcc -arch=sm_90 -cubin --resource-usage k.cu)

``--uniform``: indices uniform over the axis with repeats, as benchmarks/run.py draws its
``perm`` (default: a permutation).  ``EXP_SHIFT=k`` shrinks the rows by 2**k (the columns
stay 8192: the kernels are compiled for them).
"""
import os
import re
import sys

import numpy as np

C = 8192                    # columns (compile-time in the kernels)
ROW = 4 * C                 # bytes of a staged row
MAP = 2 * C                 # bytes of the uint16 column map
SMEM_SM = 228 * 1024        # H200: shared memory an SM (227 KB a block), 1 KB reserved a block

DEFAULT = ["regs.t512.b2", "regs.t256.b4", "regs.t1024.b2",
           "cpasync.t512.n2", "cpasync.t512.n3", "cpasync.t1024.n2",
           "bulk.t512.n2", "bulk.t512.n3", "bulk.t1024.n4"]
_NAME = re.compile(r"^(regs|cpasync|bulk)\.t(\d+)(?:\.n(\d+))?(?:\.b(\d+))?(?:\.k(\d+))?$")

HEADER = r"""
#define C %(C)d
#define NU (C / 4)              // 16-byte units of a row

static_assert(C <= 65536, "uint16 column map");
extern __shared__ __align__(128) unsigned char dsmem[];

// The block's column map: idx (int64, already valid) as uint16 in shared memory, two a word.
__device__ __forceinline__ void load_map(unsigned short* sj, const long long* __restrict__ idx)
{
    const longlong2* i2 = reinterpret_cast<const longlong2*>(idx);
    unsigned* s2 = reinterpret_cast<unsigned*>(sj);
#pragma unroll 4
    for (int c = threadIdx.x; c < C / 2; c += blockDim.x) {
        longlong2 v = i2[c];
        s2[c] = (unsigned)v.x | ((unsigned)v.y << 16);
    }
}

// out[r, :] gathered from the staged row: 4 columns a thread (an 8-byte map load), one
// 16-byte streaming store each.
template <int NT>
__device__ __forceinline__ void gather_row(const float* row, const unsigned short* sj,
                                           float* __restrict__ out, int r)
{
    static_assert(NU %% NT == 0, "whole units a thread");
    const uint2* q2 = reinterpret_cast<const uint2*>(sj);
    float4* o = reinterpret_cast<float4*>(out + (size_t)r * C);
#pragma unroll
    for (int k = 0; k < NU / NT; ++k) {
        const int u = threadIdx.x + k * NT;
        const uint2 q = q2[u];
        const float4 v = make_float4(row[q.x & 0xFFFFu], row[q.x >> 16],
                                     row[q.y & 0xFFFFu], row[q.y >> 16]);
        __stcs(o + u, v);
    }
}

// --- regs: 16-byte loads into 48 KB of static shared memory, the next row's KP units a
// thread held in registers during the gather (the shipped form).
template <int NT, int KP>
__device__ __forceinline__ void regs_body(const float* __restrict__ a,
                                          const long long* __restrict__ idx,
                                          float* __restrict__ out, int R)
{
    constexpr int UPT = NU / NT;
    static_assert(NU %% NT == 0 && KP >= 1 && KP <= UPT, "prefetch units");
    __shared__ __align__(16) float row[C];
    __shared__ __align__(16) unsigned short sj[C];
    float4* srow = reinterpret_cast<float4*>(row);
    const int tid = threadIdx.x;
    float4 p[KP];
    int r = blockIdx.x;
    if (r < R) {
        const float4* s = reinterpret_cast<const float4*>(a + (size_t)r * C);
#pragma unroll
        for (int q = 0; q < KP; ++q)
            p[q] = s[tid + q * NT];
    }
    load_map(sj, idx);
    for (; r < R; r += gridDim.x) {
        const float4* s = reinterpret_cast<const float4*>(a + (size_t)r * C);
#pragma unroll
        for (int q = 0; q < KP; ++q)
            srow[tid + q * NT] = p[q];
        if (KP < UPT) {                 // the rest of the row: all its loads in flight at once
            float4 g[UPT - KP > 0 ? UPT - KP : 1];
#pragma unroll
            for (int q = KP; q < UPT; ++q)
                g[q - KP] = s[tid + q * NT];
#pragma unroll
            for (int q = KP; q < UPT; ++q)
                srow[tid + q * NT] = g[q - KP];
        }
        __syncthreads();
        const int rn = r + gridDim.x;
        if (rn < R) {
            const float4* sn = reinterpret_cast<const float4*>(a + (size_t)rn * C);
#pragma unroll
            for (int q = 0; q < KP; ++q)
                p[q] = sn[tid + q * NT];
        }
        gather_row<NT>(row, sj, out, r);
        __syncthreads();
    }
}

// --- cpasync: NB row buffers filled by cp.async.cg 16-byte copies (LDGSTS), NB - 1 rows in
// flight during the gather.  Dynamic shared memory: NB rows, then the map.
__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

template <int NT>
__device__ __forceinline__ void cp_row(unsigned dst, const float* src)
{
#pragma unroll
    for (int k = 0; k < NU / NT; ++k) {
        const int u = threadIdx.x + k * NT;
        asm volatile("cp.async.cg.shared.global [%%0], [%%1], 16;\n"
                     :: "r"(dst + 16u * u), "l"(src + 4 * u) : "memory");
    }
}

// The buffered forms' dynamic shared memory: NB rows, then the column map (then, for bulk,
// NB mbarriers).
template <int NB>
struct Rows {
    static_assert(NB >= 2 && NB <= 8, "buffers");
    float* buf = reinterpret_cast<float*>(dsmem);
    unsigned short* sj = reinterpret_cast<unsigned short*>(dsmem + NB * C * 4);
    unsigned b0 = smem_addr(dsmem);                     // the rows' shared address
    unsigned bar0 = smem_addr(dsmem + NB * C * 4 + C * 2);
};

template <int NT, int NB>
__device__ __forceinline__ void cpasync_body(const float* __restrict__ a,
                                             const long long* __restrict__ idx,
                                             float* __restrict__ out, int R)
{
    const Rows<NB> m;
    float* buf = m.buf;
    unsigned short* sj = m.sj;
    const unsigned b0 = m.b0;
    const int G = gridDim.x;
    // the first NB - 1 rows in flight while the block maps its columns (one group each)
#pragma unroll
    for (int s = 0; s < NB - 1; ++s) {
        const int r = blockIdx.x + s * G;
        if (r < R)
            cp_row<NT>(b0 + s * (C * 4), a + (size_t)r * C);
        asm volatile("cp.async.commit_group;\n" ::: "memory");
    }
    load_map(sj, idx);
    int b = 0;                          // the buffer of row r
    for (int r = blockIdx.x; r < R; r += G) {
        // row r + (NB - 1) G into the buffer freed by the previous row's gather
        const int rn = r + (NB - 1) * G;
        const int bn = b == 0 ? NB - 1 : b - 1;
        if (rn < R)
            cp_row<NT>(b0 + bn * (C * 4), a + (size_t)rn * C);
        asm volatile("cp.async.commit_group;\n" ::: "memory");
        asm volatile("cp.async.wait_group %%0;\n" :: "n"(NB - 1) : "memory");   // row r's
        __syncthreads();                // every thread's copies of row r landed
        gather_row<NT>(buf + b * C, sj, out, r);
        __syncthreads();                // buffer b read before it is refilled
        b = b == NB - 1 ? 0 : b + 1;
    }
    asm volatile("cp.async.wait_all;\n" ::: "memory");
}

// --- bulk: NB row buffers, each filled by one bulk async copy (TMA, no tensor map) of the
// whole row, completing on the buffer's mbarrier.  Dynamic shared memory: NB rows, the map,
// NB mbarriers.
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%%0], %%1;\n" :: "r"(bar), "r"(count)
                 : "memory");
}

__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity)
{
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%%1], %%2;\n\t"
                     "selp.u32 %%0, 1, 0, p;\n\t}\n"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    } while (!done);
}

// (one thread) the row at src into shared dst, completing on bar
__device__ __forceinline__ void bulk_row(unsigned dst, const float* src, unsigned bar)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%%0], %%1;\n"
                 :: "r"(bar), "r"((unsigned)(C * 4)) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%%0], [%%1], %%2, [%%3];\n"
                 :: "r"(dst), "l"(src), "r"((unsigned)(C * 4)), "r"(bar) : "memory");
}

template <int NT, int NB>
__device__ __forceinline__ void bulk_body(const float* __restrict__ a,
                                          const long long* __restrict__ idx,
                                          float* __restrict__ out, int R)
{
    const Rows<NB> m;
    float* buf = m.buf;
    unsigned short* sj = m.sj;
    const unsigned b0 = m.b0, bar0 = m.bar0;            // bar0: NB x 8 bytes
    const int G = gridDim.x;
    if (threadIdx.x == 0) {
        for (int s = 0; s < NB; ++s)
            mbar_init(bar0 + 8 * s, 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        // the first NB rows in flight while the block maps its columns
        for (int s = 0; s < NB; ++s) {
            const int r = blockIdx.x + s * G;
            if (r < R)
                bulk_row(b0 + s * (C * 4), a + (size_t)r * C, bar0 + 8 * s);
        }
    }
    load_map(sj, idx);
    __syncthreads();                    // the map and the barriers' initialisation
    int b = 0;                          // the buffer of row r
    unsigned phase = 0;                 // its barrier's phase parity (flips each NB rows)
    for (int r = blockIdx.x; r < R; r += G) {
        mbar_wait(bar0 + 8 * b, phase);
        gather_row<NT>(buf + b * C, sj, out, r);
        __syncthreads();                // buffer b read by every thread
        if (threadIdx.x == 0) {
            const int rn = r + NB * G;
            if (rn < R) {
                asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
                bulk_row(b0 + b * (C * 4), a + (size_t)rn * C, bar0 + 8 * b);
            }
        }
        if (++b == NB) {
            b = 0;
            phase ^= 1u;
        }
    }
}
"""

KERNEL = r"""
extern "C" __global__ void __launch_bounds__(%(T)d, %(B)d)
%(name)s(const float* __restrict__ a, const long long* __restrict__ idx,
         float* __restrict__ out, int R)
{
    %(body)s<%(T)d, %(P)d>(a, idx, out, R);
}
"""


def parse(v):
    """Variant name -> dict(kind, T threads, N buffers, B launch-bound blocks, K prefetched
    units, smem dynamic bytes, name the kernel's)."""
    m = _NAME.match(v)
    if not m:
        raise SystemExit(f"unknown variant {v!r} (regs.tT.bB[.kK], cpasync.tT.nN[.bB], "
                         "bulk.tT.nN[.bB])")
    kind, T = m.group(1), int(m.group(2))
    if T not in (128, 256, 512, 1024):
        raise SystemExit(f"{v}: threads must be 128, 256, 512 or 1024")
    if kind == "regs":
        N, smem = 1, 0
        K = int(m.group(5) or (C // 4) // T)
        fits = SMEM_SM // (ROW + MAP + 1024)
    else:
        N = int(m.group(3) or 2)
        K = 0
        smem = N * ROW + MAP + (8 * N if kind == "bulk" else 0)
        fits = SMEM_SM // (smem + 1024)
    B = int(m.group(4) or max(1, min(fits, 2048 // T)))
    return dict(kind=kind, T=T, N=N, B=B, K=K, smem=smem, name=v.replace(".", "_"))


def source(variants):
    """The CUDA C source of ``variants`` (parsed): the shared bodies, one kernel each."""
    out = [HEADER % {"C": C}]
    for p in variants:
        body = f"{p['kind']}_body"
        out.append(KERNEL % {"T": p["T"], "B": p["B"], "name": p["name"], "body": body,
                             "P": p["K"] if p["kind"] == "regs" else p["N"]})
    return "".join(out)


args = sys.argv[1:]
UNIFORM = "--uniform" in args
names = [s for s in args if not s.startswith("--")] or DEFAULT
PARSED = {v: parse(v) for v in names}
SRC = source(list(PARSED.values()))
if "--source" in args:
    sys.stdout.write(SRC)
    sys.exit(0)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, cl, copy_bandwidth, gl, gp, pct, rounds, timer, tl  # noqa: E402

t = timer(20, 2.0)
bw = copy_bandwidth(t)
R = max(1, 8192 >> SHIFT)
rng = np.random.default_rng(0)
ha = rng.random((R, C), np.float32)
hi = (rng.random(C) * C).astype(np.int64) if UNIFORM else rng.permutation(C).astype(np.int64)
a, idx = gp.asarray(ha), gp.asarray(hi)
out = gp.empty((R, C), np.float32)
copy_dst = gp.empty((R, C), np.float32)
want = gp.take(a, idx, axis=1)
assert np.array_equal(want.get(), np.take(ha, hi, axis=1)), "npgpu's take differs from NumPy's"
NBYTES = 2 * 4 * R * C + 8 * C
print(f"take(({R}, {C}) float32, {'uniform' if UNIFORM else 'permutation'} int64 [{C}], axis=1):"
      f" {NBYTES / 1e6:.0f} MB", flush=True)

_module = None
_ready = {}                 # variant -> (kernel, grid, note)


def prepare(v):
    """(kernel, grid, note) of variant ``v``: compiled (one module for all), its dynamic shared
    memory allowed, the whole shared memory preferred, a resident grid."""
    global _module
    if v in _ready:
        return _ready[v]
    from cuda.bindings import driver as cu
    if _module is None:
        _module = gp.RawModule(code=SRC)
    p = PARSED[v]
    k = _module.get_function(p["name"])
    k.compile()
    f = k._fn.module._function(k._fn.entry)
    A = cu.CUfunction_attribute

    def ok(res, what):
        err = res[0] if isinstance(res, tuple) else res
        if err != cu.CUresult.CUDA_SUCCESS:
            raise RuntimeError(f"{what}: {cu.cuGetErrorName(err)[1].decode()}")
        return res[1] if isinstance(res, tuple) and len(res) > 1 else None

    if p["smem"] > 48 * 1024:
        ok(cu.cuFuncSetAttribute(f, A.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 p["smem"]), "cuFuncSetAttribute(max dynamic shared)")
    ok(cu.cuFuncSetAttribute(f, A.CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100),
       "cuFuncSetAttribute(carveout)")
    per_sm = ok(cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(f, p["T"], p["smem"]),
                "cuOccupancyMaxActiveBlocksPerMultiprocessor")
    regs = ok(cu.cuFuncGetAttribute(A.CU_FUNC_ATTRIBUTE_NUM_REGS, f), "cuFuncGetAttribute")
    sshared = ok(cu.cuFuncGetAttribute(A.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f),
                 "cuFuncGetAttribute")
    if per_sm < 1:
        raise RuntimeError(f"no block of {p['T']} threads fits an SM")
    grid = min(R, gp.cuda.runtime.sm_count() * per_sm)
    note = (f"{regs} regs, {(sshared + p['smem']) // 1024} KB shared, {per_sm} blocks/SM, "
            f"grid {grid}")
    _ready[v] = (k, grid, note)
    return _ready[v]


if cl is not None:
    ca, ci = cl.put(ha), cl.put(hi)
if tl is not None:
    ta, ti = tl.put(ha), tl.put(hi)


def run(v):
    if v == "copy":
        return t(gl, lambda: gp.copyto(copy_dst, a)), "(the same bytes less the index)"
    if v == "npgpu take":
        return t(gl, lambda: gp.take(a, idx, axis=1)), ""
    if v == "npgpu take clip":
        got = gp.take(a, idx, axis=1, mode="clip")
        return (t(gl, lambda: gp.take(a, idx, axis=1, mode="clip")),
                "ok" if bool((got == want).all()) else "WRONG RESULT")
    if v == "cupy":
        cp = cl.cp
        return t(cl, lambda: cp.take(ca, ci, axis=1)), ""
    if v == "torch":
        tt = tl.torch
        return t(tl, lambda: tt.index_select(ta, 1, ti)), ""
    k, grid, note = prepare(v)
    T, smem = PARSED[v]["T"], PARSED[v]["smem"]
    kargs = (a, idx, out, R)
    out.fill(np.nan)
    k((grid,), (T,), kargs, shared_mem=smem)
    good = bool((out == want).all())
    s = t(gl, lambda: k((grid,), (T,), kargs, shared_mem=smem))
    return s, note + ("" if good else "   WRONG RESULT")


rounds(["copy", "npgpu take", "npgpu take clip", *names, "cupy", "torch"], run,
       lambda s: pct(bw, NBYTES, s))
