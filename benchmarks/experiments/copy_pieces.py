"""Contiguous pieces copied by the driver's memcpy or by the elementwise copy kernel (issue 13:
roll, concatenate and tile at >= 85% of copy bandwidth; H200 2026-12-03: 83.6 / 84.2 / 78.4%).

roll and concatenate of C-contiguous arrays are two ``cuMemcpyDtoDAsync`` each today, tile a
remap kernel that reads its source once per repetition.  Here, on 2^26 float32 outputs, beside
CuPy and PyTorch, in 3 interleaved rounds, results checked against NumPy:

* one piece of 2^26 by memcpy and by the copy kernel (the ceiling for this size);
* roll(a, 12345) and concatenate([a, b]) as two memcpys, as two copy-kernel launches, and
  as two memcpys on two streams (the second piece on a side stream, forked and joined by
  events, so it overlaps the first's tail);
* concatenate's two driver copies into a preallocated output, without the call around them;
* concatenate as one launch of a CUDA C kernel copying both pieces in 16-byte units (a
  resident grid-stride loop, or four units a thread over a covering grid).  H200 2026-12-04:
  four units a thread with 128 threads 138.3 / 141.6 us in two runs against the two memcpys'
  ~142 us; npgpu's Numba form of it (dropped) 143.5 us, its whole call slower than two copies;
* tile(a, 2) as the remap kernel, two memcpys, two copy launches, and one launch of a
  two-output identity (one load, two stores: the bytes the benchmark counts).

    python3 benchmarks/experiments/copy_pieces.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, cl, copy_bandwidth, gl, gp, pct, rounds, timer, tl  # noqa: E402
from npgpu._codegen import elementwise as _ew  # noqa: E402
from npgpu._core import transfer as _transfer  # noqa: E402
from npgpu._core.copy import IDENTITY  # noqa: E402

t = timer(20, 2.0)
n = 1 << (26 - SHIFT)
h = n // 2
shift = 12345 % n
bw = copy_bandwidth(t)
rng = np.random.default_rng(0)
ha = rng.random(n, dtype=np.float32)
hb = rng.random(h, dtype=np.float32)
a, ah, b = gp.asarray(ha), gp.asarray(ha[:h]), gp.asarray(hb)
f32 = np.dtype(np.float32)
DUP2 = _ew.ScalarOp.from_expr("dup2", 1, "x0, x0", nout=2)
out = gp.empty(n, f32)


def kcopy(dst, src):
    _ew.launch(IDENTITY, [src], [f32], [dst], [f32], name="copy")


def d2d(dst, src):
    _transfer.d2d(dst._ptr, src._ptr, src.nbytes)


side = gp.cuda.Stream(non_blocking=True)
forked, joined = gp.cuda.Event(disable_timing=True), gp.cuda.Event(disable_timing=True)


def two_streams(first, second):
    """``first()`` on the current stream while ``second()`` runs on a side stream (the second
    piece's copy overlaps the first's tail); the current stream waits for both."""
    cur = gp.cuda.get_current_stream()
    forked.record(cur)
    side.wait_event(forked)
    with side:
        second()
    joined.record(side)
    first()
    cur.wait_event(joined)


def roll_2streams():
    k = n - shift
    two_streams(lambda: d2d(out[shift:], a[:k]), lambda: d2d(out[:shift], a[k:]))
    return out


def concat_2streams():
    two_streams(lambda: d2d(out[:h], ah), lambda: d2d(out[h:], b))
    return out


def roll_with(copy):
    k = n - shift
    copy(out[shift:], a[:k])
    copy(out[:shift], a[k:])
    return out


def concat_with(copy):
    copy(out[:h], ah)
    copy(out[h:], b)
    return out


def tile_with(copy):
    copy(out[:h], ah)
    copy(out[h:], ah)
    return out


def tile_dup2():
    _ew.launch(DUP2, [ah], [f32], [out[:h], out[h:]], [f32, f32], name="tile")
    return out


# One launch for several contiguous pieces (concatenate's case: 16-byte aligned pieces): each
# 16-byte unit of the output finds its piece by one comparison, in a resident grid-stride loop
# or four units a thread over a covering grid.
PIECES = r"""
extern "C" __global__ void pieces_loop(float4* dst, const float4* a, unsigned long long na,
                                       const float4* b, unsigned long long n) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {
        const float4* p = i < na ? a + i : b + (i - na);
        dst[i] = *p;
    }
}
extern "C" __global__ void pieces_x4(float4* dst, const float4* a, unsigned long long na,
                                     const float4* b, unsigned long long n) {
    unsigned long long base = blockIdx.x * 4ull * blockDim.x + threadIdx.x;
    float4 v[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        unsigned long long i = base + (unsigned long long)k * blockDim.x;
        if (i < n) v[k] = i < na ? a[i] : b[i - na];
    }
#pragma unroll
    for (int k = 0; k < 4; k++) {
        unsigned long long i = base + (unsigned long long)k * blockDim.x;
        if (i < n) dst[i] = v[k];
    }
}
"""
SMS = gp.cuda.runtime.sm_count()


def pieces(form, threads, blocks_an_sm=0):
    k = gp.RawKernel(PIECES, f"pieces_{form}")
    units, na = n // 4, h // 4
    grid = SMS * blocks_an_sm if form == "loop" else -(-units // (4 * threads))

    def run():
        k((grid,), (threads,), (out, ah, np.uint64(na), b, np.uint64(units)))
        return out
    return run


WANT = {"roll": np.roll(ha, shift), "concat": np.concatenate([ha[:h], hb]),
        "tile": np.tile(ha[:h], 2), "copy": ha}
CASES = {
    "copy memcpy": ("copy", 8 * n, lambda: (d2d(out, a), out)[1]),
    "copy kernel": ("copy", 8 * n, lambda: (kcopy(out, a), out)[1]),
    "roll npgpu": ("roll", 8 * n, lambda: gp.roll(a, shift)),
    "roll 2 kernels": ("roll", 8 * n, lambda: roll_with(kcopy)),
    "roll 2 streams": ("roll", 8 * n, roll_2streams),
    "concat npgpu": ("concat", 8 * n, lambda: gp.concatenate([ah, b])),
    "concat 2 kernels": ("concat", 8 * n, lambda: concat_with(kcopy)),
    "concat 2 streams": ("concat", 8 * n, concat_2streams),
    "concat 2 memcpys": ("concat", 8 * n, lambda: concat_with(d2d)),
    "concat 1 launch loop 256x8": ("concat", 8 * n, pieces("loop", 256, 8)),
    "concat 1 launch loop 512x4": ("concat", 8 * n, pieces("loop", 512, 4)),
    "concat 1 launch x4 256": ("concat", 8 * n, pieces("x4", 256)),
    "concat 1 launch x4 128": ("concat", 8 * n, pieces("x4", 128)),
    "tile npgpu": ("tile", 6 * n, lambda: gp.tile(ah, 2)),
    "tile 2 memcpys": ("tile", 6 * n, lambda: tile_with(d2d)),
    "tile 2 kernels": ("tile", 6 * n, lambda: tile_with(kcopy)),
    "tile dup2 kernel": ("tile", 6 * n, tile_dup2),
}
if cl is not None:
    cp = cl.cp
    ca, cah, cb = cp.asarray(ha), cp.asarray(ha[:h]), cp.asarray(hb)
    CASES.update({"roll cupy": ("roll", 8 * n, lambda: cp.roll(ca, shift)),
                  "concat cupy": ("concat", 8 * n, lambda: cp.concatenate([cah, cb])),
                  "tile cupy": ("tile", 6 * n, lambda: cp.tile(cah, 2))})
if tl is not None:
    tt = tl.torch
    ta, tah, tb = (tt.as_tensor(x, device="cuda") for x in (ha, ha[:h], hb))
    CASES.update({"roll torch": ("roll", 8 * n, lambda: tt.roll(ta, shift)),
                  "concat torch": ("concat", 8 * n, lambda: tt.cat([tah, tb])),
                  "tile torch": ("tile", 6 * n, lambda: tah.repeat(2))})


def lib_of(v):
    return cl if v.endswith("cupy") else tl if v.endswith("torch") else gl


def host(x):
    return x.get() if hasattr(x, "get") and not hasattr(x, "cpu") else (
        x.cpu().numpy() if hasattr(x, "cpu") else x.get())


def run(v):
    what, nbytes, fn = CASES[v]
    s = t(lib_of(v), fn)
    ok = np.array_equal(host(fn()), WANT[what])
    return s, ("ok" if ok else "WRONG RESULT") + f" [{nbytes}]"


print(f"pieces of 2^{26 - SHIFT} float32 outputs; roll shift {shift}", flush=True)
for group in ("copy", "roll", "concat", "tile"):
    names = [k for k, c in CASES.items() if c[0] == group]
    nbytes = CASES[names[0]][1]
    print(f"{group}:", flush=True)
    rounds(names, run, lambda s, nb=nbytes: pct(bw, nb, s))
