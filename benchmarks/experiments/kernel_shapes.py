"""Kernel shapes on the GPU: which variants of npgpu's templates reach copy bandwidth.

Standalone Numba kernels written in the same style as npgpu's templates, each timed with
CUDA events (median of 15 batches of 5 back-to-back launches), printed as % of the measured
device-to-device copy bandwidth.  Run: ``python3 benchmarks/experiments/kernel_shapes.py
[section ...]``.  Sections: unary (elements per thread, block, grid), unary2, regs (8-byte
words), tiled (transposed operands), sum, argmax (loads in flight, block, grid), axis (rows and
columns), tall.  ``EXP_SHIFT=k`` shrinks every size by 2**k (a smoke test on the simulator).
"""
import math
import statistics
import sys
import time

import numpy as np
from numba import cuda, float32, float64, int32, int64, uint32, uint64  # noqa: F401

import os
SIM = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
SM = 1 if SIM else cuda.get_current_device().MULTIPROCESSOR_COUNT
SHIFT = int(os.environ.get("EXP_SHIFT", "0"))      # smoke test: shrink every size by 2**SHIFT
NS = dict(cuda=cuda, math=math, float32=float32, float64=float64, int32=int32, int64=int64,
          uint32=uint32, uint64=uint64)


def jit(src, name):
    ns = dict(NS)
    exec(src, ns)
    return cuda.jit(ns[name])


def timeit(fn, batches=15, per=5):
    if SIM:
        batches, per = 1, 1
    fn()
    cuda.synchronize()
    s, e = cuda.event(), cuda.event()
    ts = []
    for _ in range(batches):
        s.record()
        for _ in range(per):
            fn()
        e.record()
        e.synchronize()
        ts.append((1.0 if SIM else s.elapsed_time(e)) / per * 1e-3)
    return statistics.median(ts)


def copy_bw():
    n = 1 << (28 - SHIFT)
    a = cuda.device_array(n, np.float32)
    b = cuda.device_array(n, np.float32)
    t = timeit(lambda: b.copy_to_device(a))
    return 2 * 4 * n / t


BW = None


def report(name, t, nbytes, check=""):
    print(f"{name:58s} {t * 1e6:9.1f} us  {nbytes / t / 1e9:7.0f} GB/s  "
          f"{100 * nbytes / t / BW:6.1f}%  {check}", flush=True)


# ---------------------------------------------------------------------------------------------
def contig_src(name, nin, ept, op):
    ins = ", ".join(f"in{i}" for i in range(nin))
    L = [f"def {name}(n, out0, {ins}):",
         "    bd = cuda.blockDim.x",
         f"    base = cuda.blockIdx.x * bd * {ept} + cuda.threadIdx.x",
         f"    step = cuda.gridDim.x * bd * {ept}",
         "    while base < n:",
         f"        if base + {ept - 1} * bd < n:"]
    for u in range(ept):
        for i in range(nin):
            L.append(f"            a{i}_{u} = in{i}[base + {u} * bd]")
    for u in range(ept):
        args = ", ".join(f"a{i}_{u}" for i in range(nin))
        L.append(f"            r_{u} = {op.format(*args.split(', '))}")
    for u in range(ept):
        L.append(f"            out0[base + {u} * bd] = float32(r_{u})")
    L += ["        else:",
          f"            for u in range({ept}):",
          "                i = base + u * bd",
          "                if i < n:"]
    args = [f"in{i}[i]" for i in range(nin)]
    L.append(f"                    out0[i] = float32({op.format(*args)})")
    L.append("        base += step")
    return "\n".join(L) + "\n"


def exp_guard_src():
    return ("@cuda.jit(device=True)\n"
            "def h_exp(x):\n"
            "    if x < type(x)(709.0):\n"
            "        return type(x)(math.exp(x))\n"
            "    return x * type(x)(math.inf)\n\n")


def sec_unary():
    print("\n== unary f32 2^28 (bytes 2*4*n) ==")
    n = 1 << (28 - SHIFT)
    x = cuda.to_device(np.random.rand(n).astype(np.float32) - 0.5)
    o = cuda.device_array(n, np.float32)
    for opname, op, pre in [("negative", "-{0}", ""), ("exp", "h_exp({0})", exp_guard_src()),
                            ("exp_noguard", "math.exp({0})", "")]:
        for ept, bd, grid_mode in [(4, 256, "full"), (8, 256, "full"), (16, 256, "full"),
                                   (4, 128, "full"), (8, 128, "full"), (4, 512, "full"),
                                   (8, 512, "full"), (2, 256, "full"), (1, 256, "full"),
                                   (4, 256, "persist8"), (8, 256, "persist8"),
                                   (4, 256, "persist4")]:
            if opname != "negative" and (ept, bd) in [(16, 256), (4, 128), (8, 512), (2, 256)]:
                continue
            k = jit(pre + contig_src("k", 1, ept, op), "k")
            if grid_mode == "full":
                g = -(-n // (bd * ept))
            else:
                g = SM * int(grid_mode[-1]) * (256 // bd)
            t = timeit(lambda: k[g, bd](n, o, x))
            report(f"{opname} ept={ept} bd={bd} grid={grid_mode}", t, 8 * n)
    y = cuda.to_device(np.random.rand(n).astype(np.float32))
    for ept, bd in [(4, 256), (8, 256), (2, 256)]:
        k = jit(contig_src("k", 2, ept, "{0} + {1}"), "k")
        g = -(-n // (bd * ept))
        t = timeit(lambda: k[g, bd](n, o, x, y))
        report(f"add ept={ept} bd={bd}", t, 12 * n)
    check = np.allclose(o.copy_to_host()[:1000], (x.copy_to_host() + y.copy_to_host())[:1000])
    print("add check", check)


# ---------------------------------------------------------------------------------------------
def tiled_src(T, BY, loads_first, uidx):
    R = T // BY
    L = ["def k(out0, in0, in1):",
         f"    tile = cuda.shared.array(({T}, {T + 1}), float32)",
         "    rows = out0.shape[0]", "    cols = out0.shape[1]",
         "    tx = cuda.threadIdx.x", "    ty = cuda.threadIdx.y",
         f"    r0 = cuda.blockIdx.x * {T}", f"    k0 = cuda.blockIdx.y * {T}"]
    cv = "uint64" if uidx else ""
    if not loads_first:
        L += [f"    for j in range({R}):",
              "        r = r0 + tx", f"        c = k0 + ty + j * {BY}",
              "        if r < rows and c < cols:",
              f"            tile[tx, ty + j * {BY}] = in0[{cv}(r), {cv}(c)]",
              "    cuda.syncthreads()",
              f"    for j in range({R}):",
              f"        r = r0 + ty + j * {BY}", "        c = k0 + tx",
              "        if r < rows and c < cols:",
              f"            out0[{cv}(r), {cv}(c)] = tile[ty + j * {BY}, tx] + in1[{cv}(r), {cv}(c)]"]
        return "\n".join(L) + "\n"
    full = "r0 + {T} <= rows and k0 + {T} <= cols".format(T=T)
    L.append(f"    if {full}:")
    for j in range(R):
        L.append(f"        t_{j} = in0[{cv}(r0 + tx), {cv}(k0 + ty + {j * BY})]")
    for j in range(R):
        L.append(f"        b_{j} = in1[{cv}(r0 + ty + {j * BY}), {cv}(k0 + tx)]")
    for j in range(R):
        L.append(f"        tile[tx, ty + {j * BY}] = t_{j}")
    L.append("        cuda.syncthreads()")
    for j in range(R):
        L.append(f"        out0[{cv}(r0 + ty + {j * BY}), {cv}(k0 + tx)] = "
                 f"tile[ty + {j * BY}, tx] + b_{j}")
    L += ["    else:",
          f"        for j in range({R}):",
          "            r = r0 + tx", f"            c = k0 + ty + j * {BY}",
          "            if r < rows and c < cols:",
          f"                tile[tx, ty + j * {BY}] = in0[r, c]",
          "        cuda.syncthreads()",
          f"        for j in range({R}):",
          f"            r = r0 + ty + j * {BY}", "            c = k0 + tx",
          "            if r < rows and c < cols:",
          "                out0[r, c] = tile[ty + j * {BY}, tx] + in1[r, c]".format(BY=BY)]
    return "\n".join(L) + "\n"


def transposed_operands():
    """(32, 2^22).T and (2^22, 32) float32 operands, an output, and the first rows' sum."""
    R, C = 1 << (22 - SHIFT), 32
    ah = np.random.rand(C, R).astype(np.float32)
    bh = np.random.rand(R, C).astype(np.float32)
    o = cuda.device_array((R, C), np.float32)
    return R, C, R * C, cuda.to_device(ah).T, cuda.to_device(bh), o, ah.T[:4096] + bh[:4096]


def sec_tiled():
    print("\n== transposed add (32,2^22).T + (2^22,32) f32 (bytes 12*n) ==")
    R, C, n, a, b, o, ref = transposed_operands()
    for T, BY, lf, ui in [(32, 8, False, False), (32, 8, True, False), (32, 4, True, False),
                          (32, 8, True, True), (32, 4, True, True), (32, 16, True, False),
                          (32, 2, True, False)]:
        k = jit(tiled_src(T, BY, lf, ui), "k")
        g = (-(-R // T), -(-C // T))
        t = timeit(lambda: k[g, (T, BY)](o, a, b))
        ok = np.array_equal(o.copy_to_host()[:4096], ref)
        report(f"tiled T={T} BY={BY} loads_first={lf} uidx={ui}", t, 12 * n, f"ok={ok}")


# ---------------------------------------------------------------------------------------------
def sum_src(U, acc, mode, multi_acc):
    """Pass 1: per-block partial sums.  mode 'chunk': block owns a contiguous chunk;
    'stride': grid-stride over the whole array."""
    L = ["def k(n, chunk, part, x):",
         "    tid = cuda.threadIdx.x", "    bd = cuda.blockDim.x",
         f"    sh = cuda.shared.array(32, {acc})"]
    if mode == "chunk":
        L += ["    lo = cuda.blockIdx.x * chunk", "    hi = min(lo + chunk, n)",
              "    j = lo + tid", "    stp = bd"]
    else:
        L += ["    hi = n", "    j = cuda.blockIdx.x * bd + tid", "    stp = bd * cuda.gridDim.x"]
    nacc = U if multi_acc else 1
    L += [f"    s{a} = {acc}(0)" for a in range(nacc)]
    L.append(f"    while j + {U - 1} * stp < hi:")
    for u in range(U):
        L.append(f"        t{u} = x[j + {u} * stp]")
    if multi_acc:
        for u in range(U):
            L.append(f"        s{u} += {acc}(t{u})")
    else:
        # pairwise tree of the U loads, then one add into the accumulator
        names = [f"{acc}(t{u})" for u in range(U)]
        lvl = 0
        while len(names) > 1:
            nn = []
            for q in range(0, len(names), 2):
                L.append(f"        p{lvl}_{q} = {names[q]} + {names[q + 1]}")
                nn.append(f"p{lvl}_{q}")
            names = nn
            lvl += 1
        L.append(f"        s0 += {names[0]}")
    L.append(f"        j += {U} * stp")
    L += ["    while j < hi:", f"        s0 += {acc}(x[j])", "        j += stp"]
    for a in range(1, nacc):
        L.append(f"    s0 += s{a}")
    L += ["    m = 16", "    while m > 0:",
          "        s0 += cuda.shfl_down_sync(0xffffffff, s0, m)", "        m //= 2",
          "    if tid % 32 == 0:", "        sh[tid // 32] = s0", "    cuda.syncthreads()",
          "    if tid < 32:",
          f"        s0 = sh[tid] if tid < bd // 32 else {acc}(0)",
          "        m = 16", "        while m > 0:",
          "            s0 += cuda.shfl_down_sync(0xffffffff, s0, m)", "            m //= 2",
          "        if tid == 0:", "            part[cuda.blockIdx.x] = s0"]
    return "\n".join(L) + "\n"


FIN = """
def fin(k, part, out):
    tid = cuda.threadIdx.x
    sh = cuda.shared.array(32, float64)
    s0 = float64(0)
    j = tid
    while j < k:
        s0 += float64(part[j])
        j += cuda.blockDim.x
    m = 16
    while m > 0:
        s0 += cuda.shfl_down_sync(0xffffffff, s0, m)
        m //= 2
    if tid % 32 == 0:
        sh[tid // 32] = s0
    cuda.syncthreads()
    if tid < 32:
        s0 = sh[tid] if tid < cuda.blockDim.x // 32 else float64(0)
        m = 16
        while m > 0:
            s0 += cuda.shfl_down_sync(0xffffffff, s0, m)
            m //= 2
        if tid == 0:
            out[0] = float32(s0)
"""


def sec_sum():
    print("\n== full sum f32 2^28 (bytes 4*n; pass 1 + final pass) ==")
    n = 1 << (28 - SHIFT)
    xh = np.random.rand(n).astype(np.float32)
    x = cuda.to_device(xh)
    truth = xh.astype(np.float64).sum()
    fin = jit(FIN, "fin")
    out = cuda.device_array(1, np.float32)
    for U, acc, mode, bd, per_sm, ma in [
            (4, "float64", "chunk", 256, 8, False),
            (8, "float64", "chunk", 256, 8, False), (16, "float64", "chunk", 256, 8, False),
            (8, "float32", "chunk", 256, 8, False), (16, "float32", "chunk", 256, 8, False),
            (8, "float64", "stride", 256, 8, False), (16, "float64", "stride", 256, 8, False),
            (8, "float32", "stride", 256, 8, False), (16, "float32", "stride", 256, 8, False),
            (8, "float32", "stride", 256, 8, True), (8, "float64", "stride", 256, 8, True),
            (8, "float64", "stride", 512, 4, False), (16, "float64", "stride", 128, 16, False),
            (8, "float64", "stride", 256, 16, False), (8, "float64", "stride", 256, 4, False),
            (16, "float32", "stride", 512, 4, False), (32, "float32", "stride", 256, 8, False)]:
        k = jit(sum_src(U, acc, mode, ma), "k")
        g = SM * per_sm
        chunk = -(-n // g)
        part = cuda.device_array(g, np.float64 if acc == "float64" else np.float32)

        def call():
            k[g, bd](n, chunk, part, x)
            fin[1, 1024](g, part, out)
        t = timeit(call)
        err = abs(float(out.copy_to_host()[0]) - truth) / truth
        report(f"sum U={U} acc={acc} {mode} bd={bd} grid={per_sm}/SM multi={ma}", t, 4 * n,
               f"relerr={err:.1e}")
    print(f"numpy pairwise f32 relerr={abs(float(xh.sum()) - truth) / truth:.1e}")


# ---------------------------------------------------------------------------------------------
def argmax_src(U, bd_const):
    """Per-thread in-order scan (strictly greater wins; first NaN wins), then a block combine."""
    L = ["@cuda.jit(device=True)",
         "def comb(a, ai, b, bi):",
         "    if a != a:",
         "        if b != b and bi < ai:",
         "            return b, bi",
         "        return a, ai",
         "    if b != b:",
         "        return b, bi",
         "    if b > a or (b == a and bi < ai):",
         "        return b, bi",
         "    return a, ai",
         "",
         "def k(n, pv, pi, x):",
         "    tid = cuda.threadIdx.x", "    bd = cuda.blockDim.x",
         f"    shv = cuda.shared.array({bd_const}, float32)",
         f"    shi = cuda.shared.array({bd_const}, int64)",
         "    j = int64(cuda.blockIdx.x) * bd + tid", "    stp = int64(bd) * cuda.gridDim.x",
         "    best = float32(-math.inf)", "    bi = int64(9223372036854775807)",
         f"    while j + {U - 1} * stp < n:"]
    for u in range(U):
        L.append(f"        t{u} = x[j + {u} * stp]")
    for u in range(U):
        L += [f"        if t{u} > best or (t{u} != t{u} and best == best):",
              f"            best = t{u}", f"            bi = j + {u} * stp"]
    L.append(f"        j += {U} * stp")
    L += ["    while j < n:", "        t = x[j]",
          "        if t > best or (t != t and best == best):",
          "            best = t", "            bi = j", "        j += stp",
          "    shv[tid] = best", "    shi[tid] = bi", "    cuda.syncthreads()",
          f"    m = {bd_const // 2}", "    while m > 0:", "        if tid < m:",
          "            v, i = comb(shv[tid], shi[tid], shv[tid + m], shi[tid + m])",
          "            shv[tid] = v", "            shi[tid] = i",
          "        cuda.syncthreads()", "        m //= 2",
          "    if tid == 0:", "        pv[cuda.blockIdx.x] = shv[0]",
          "        pi[cuda.blockIdx.x] = shi[0]"]
    return "\n".join(L) + "\n"


def sec_argmax():
    print("\n== argmax f32 2^28 (bytes 4*n; pass 1 only, partials checked on host) ==")
    n = 1 << (28 - SHIFT)
    xh = np.random.rand(n).astype(np.float32)
    x = cuda.to_device(xh)
    want = int(np.argmax(xh))
    for U, bd, per_sm in [(4, 256, 8), (8, 256, 8), (16, 256, 8), (8, 512, 4), (16, 128, 16)]:
        k = jit(argmax_src(U, bd), "k")
        g = SM * per_sm
        pv = cuda.device_array(g, np.float32)
        pi = cuda.device_array(g, np.int64)
        t = timeit(lambda: k[g, bd](n, pv, pi, x))
        v, i = pv.copy_to_host(), pi.copy_to_host()
        got = int(i[np.argmax(v)])
        report(f"argmax U={U} bd={bd} grid={per_sm}/SM", t, 4 * n, f"ok={got == want}")


# ---------------------------------------------------------------------------------------------
def rows_src(U, bd):
    L = ["def k(nrow, m, out, x):",
         "    tid = cuda.threadIdx.x",
         "    sh = cuda.shared.array(32, float64)",
         "    row = cuda.blockIdx.x",
         "    while row < nrow:",
         "        s0 = float64(0)", "        j = tid",
         f"        while j + {U - 1} * {bd} < m:"]
    for u in range(U):
        L.append(f"            t{u} = x[row, j + {u * bd}]")
    L.append("            s0 += " + " + ".join(f"float64(t{u})" for u in range(U)))
    L += [f"            j += {U * bd}",
          "        while j < m:", "            s0 += float64(x[row, j])", f"            j += {bd}",
          "        k = 16", "        while k > 0:",
          "            s0 += cuda.shfl_down_sync(0xffffffff, s0, k)", "            k //= 2",
          "        if tid % 32 == 0:", "            sh[tid // 32] = s0", "        cuda.syncthreads()",
          "        if tid < 32:",
          f"            s0 = sh[tid] if tid < {bd // 32} else float64(0)",
          "            k = 16", "            while k > 0:",
          "                s0 += cuda.shfl_down_sync(0xffffffff, s0, k)", "                k //= 2",
          "            if tid == 0:", "                out[row] = float32(s0)",
          "        cuda.syncthreads()",
          "        row += cuda.gridDim.x"]
    return "\n".join(L) + "\n"


def cols_src(TX, TY, U, CPT):
    """Each thread owns CPT adjacent columns... (CPT=1: one column) and walks rows ty, ty+TY, ..."""
    L = ["def k(nrow, ncol, out, x):",
         "    tx = cuda.threadIdx.x", "    ty = cuda.threadIdx.y",
         f"    sh = cuda.shared.array(({TY}, {TX * CPT}), float64)",
         f"    c0 = cuda.blockIdx.x * {TX * CPT} + tx"]
    for c in range(CPT):
        L.append(f"    s{c} = float64(0)")
    L += ["    r = ty", f"    while r + {(U - 1) * TY} < nrow:"]
    for u in range(U):
        for c in range(CPT):
            L.append(f"        t{u}_{c} = x[r + {u * TY}, c0 + {c * TX}]")
    for c in range(CPT):
        L.append(f"        s{c} += " + " + ".join(f"float64(t{u}_{c})" for u in range(U)))
    L += [f"        r += {U * TY}", "    while r < nrow:"]
    for c in range(CPT):
        L.append(f"        s{c} += float64(x[r, c0 + {c * TX}])")
    L.append(f"        r += {TY}")
    for c in range(CPT):
        L.append(f"    sh[ty, tx + {c * TX}] = s{c}")
    L += ["    cuda.syncthreads()", "    if ty == 0:"]
    for c in range(CPT):
        L += [f"        a = float64(0)", f"        for q in range({TY}):",
              f"            a += sh[q, tx + {c * TX}]",
              f"        out[c0 + {c * TX}] = float32(a)"]
    return "\n".join(L) + "\n"


def sec_axis():
    print("\n== sum over an axis of (2^14, 2^14) f32 (bytes 4*n) ==")
    R = C = 1 << (14 - SHIFT // 2)
    xh = np.random.rand(R, C).astype(np.float32)
    x = cuda.to_device(xh)
    o = cuda.device_array(R, np.float32)
    r1 = xh[:64].astype(np.float64).sum(axis=1)
    for U, bd, grid in [(4, 256, 2112), (8, 256, 2112), (16, 256, 2112), (8, 256, R),
                        (16, 256, R), (8, 512, R), (16, 512, 1056), (8, 128, R), (16, 128, R)]:
        k = jit(rows_src(U, bd), "k")
        t = timeit(lambda: k[grid, bd](R, C, o, x))
        ok = np.allclose(o.copy_to_host()[:64], r1, rtol=1e-5)
        report(f"axis=1 rows U={U} bd={bd} grid={grid}", t, 4 * R * C, f"ok={ok}")
    c1 = xh[:, :64].astype(np.float64).sum(axis=0)
    for TX, TY, U, CPT in [(32, 8, 4, 1), (32, 8, 8, 1), (32, 16, 8, 1), (32, 32, 4, 1),
                           (32, 16, 4, 2), (32, 8, 8, 2), (64, 8, 8, 1), (32, 16, 16, 1),
                           (32, 32, 8, 1)]:
        k = jit(cols_src(TX, TY, U, CPT), "k")
        g = C // (TX * CPT)
        t = timeit(lambda: k[g, (TX, TY)](R, C, o, x))
        ok = np.allclose(o.copy_to_host()[:64], c1, rtol=1e-5)
        report(f"axis=0 cols TX={TX} TY={TY} U={U} CPT={CPT} (one pass)", t, 4 * R * C,
               f"ok={ok}")


def tall_src(TR, BY):
    """Tiles of TR rows x 32 columns (TR a multiple of 32), block (32, BY), loads first."""
    L = ["def k(out0, in0, in1):",
         f"    tile = cuda.shared.array(({TR}, 33), float32)",
         "    rows = out0.shape[0]", "    cols = out0.shape[1]",
         "    tx = cuda.threadIdx.x", "    ty = cuda.threadIdx.y",
         f"    r0 = cuda.blockIdx.x * {TR}", "    k0 = cuda.blockIdx.y * 32",
         f"    if r0 + {TR} <= rows and k0 + 32 <= cols:"]
    for rr in range(TR // 32):
        for j in range(32 // BY):
            L.append(f"        t_{rr}_{j} = in0[r0 + {rr * 32} + tx, k0 + ty + {j * BY}]")
    for j in range(TR // BY):
        L.append(f"        b_{j} = in1[r0 + ty + {j * BY}, k0 + tx]")
    for rr in range(TR // 32):
        for j in range(32 // BY):
            L.append(f"        tile[{rr * 32} + tx, ty + {j * BY}] = t_{rr}_{j}")
    L.append("        cuda.syncthreads()")
    for j in range(TR // BY):
        L.append(f"        out0[r0 + ty + {j * BY}, k0 + tx] = tile[ty + {j * BY}, tx] + b_{j}")
    return "\n".join(L) + "\n"


def sec_tall():
    print("\n== transposed add, tall tiles (full tiles only) (bytes 12*n) ==")
    R, C, n, a, b, o, ref = transposed_operands()
    for TR, BY in [(32, 8), (64, 8), (64, 16), (128, 16), (128, 32), (256, 32), (128, 8),
                   (64, 32), (256, 16)]:
        k = jit(tall_src(TR, BY), "k")
        g = (-(-R // TR), -(-C // 32))
        t = timeit(lambda: k[g, (32, BY)](o, a, b))
        ok = np.array_equal(o.copy_to_host()[:4096], ref)
        report(f"tall tile TR={TR} BY={BY}", t, 12 * n, f"ok={ok}")


def sec_unary2():
    print("\n== unary/binary block sizes (ept 4) ==")
    n = 1 << (28 - SHIFT)
    x = cuda.to_device(np.random.rand(n).astype(np.float32) - 0.5)
    y = cuda.to_device(np.random.rand(n).astype(np.float32))
    o = cuda.device_array(n, np.float32)
    for opname, op, pre, nin in [("negative", "-{0}", "", 1), ("exp", "h_exp({0})", exp_guard_src(), 1),
                                 ("add", "{0} + {1}", "", 2)]:
        for ept, bd in [(4, 64), (4, 128), (4, 256), (2, 128), (2, 64), (8, 64)]:
            k = jit(pre + contig_src("k", nin, ept, op), "k")
            g = -(-n // (bd * ept))
            args = (n, o, x) if nin == 1 else (n, o, x, y)
            t = timeit(lambda: k[g, bd](*args))
            report(f"{opname} ept={ept} bd={bd}", t, 4 * (nin + 1) * n)


VEC_U64 = """
@cuda.jit(device=True)
def h_exp(x):
    if x < type(x)(709.0):
        return type(x)(math.exp(x))
    return x * type(x)(math.inf)

@cuda.jit(device=True)
def lo32(w):
    return libdevice.int_as_float(int32(w & uint64(0xffffffff)))

@cuda.jit(device=True)
def hi32(w):
    return libdevice.int_as_float(int32(w >> uint64(32)))

@cuda.jit(device=True)
def pack(a, b):
    return uint64(uint32(libdevice.float_as_int(a))) | (uint64(uint32(libdevice.float_as_int(b))) << uint64(32))

def k(n2, out0, in0):
    bd = cuda.blockDim.x
    base = cuda.blockIdx.x * bd * 2 + cuda.threadIdx.x
    if base + bd < n2:
        w0 = in0[base]
        w1 = in0[base + bd]
        out0[base] = pack(OP(lo32(w0)), OP(hi32(w0)))
        out0[base + bd] = pack(OP(lo32(w1)), OP(hi32(w1)))
    else:
        for u in range(2):
            i = base + u * bd
            if i < n2:
                w = in0[i]
                out0[i] = pack(OP(lo32(w)), OP(hi32(w)))
"""


def sec_regs():
    """Registers and occupancy of exp: Numba's default build, capped registers, 64-bit loads."""
    from numba.cuda import libdevice
    NS["libdevice"] = libdevice
    print("\n== exp/negative f32 2^28: registers, 64-bit loads (bytes 8*n) ==")
    n = 1 << (28 - SHIFT)
    x = cuda.to_device(np.random.rand(n).astype(np.float32) - 0.5)
    o = cuda.device_array(n, np.float32)
    for opname, op, pre in [("exp", "h_exp({0})", exp_guard_src()), ("negative", "-{0}", "")]:
        for bd, maxreg in [(128, None), (128, 32), (256, 32), (128, 40), (256, None)]:
            ns = dict(NS)
            exec(pre + contig_src("k", 1, 4, op), ns)
            k = cuda.jit(ns["k"], max_registers=maxreg) if maxreg else cuda.jit(ns["k"])
            g = -(-n // (bd * 4))
            t = timeit(lambda: k[g, bd](n, o, x))
            regs = list(k.get_regs_per_thread().values()) if hasattr(k, "get_regs_per_thread") else "?"
            report(f"{opname} ept=4 bd={bd} maxreg={maxreg} regs={regs}", t, 8 * n)
        src = VEC_U64.replace("OP(", "h_exp(" if opname == "exp" else "neg(")
        if opname != "exp":
            src = "@cuda.jit(device=True)\ndef neg(v):\n    return -v\n" + src
        k = jit(src, "k")
        xu = x.view(np.uint64) if hasattr(x, "view") else None
        xu = cuda.devicearray.DeviceNDArray((n // 2,), (8,), np.dtype(np.uint64), gpu_data=x.gpu_data)
        ou = cuda.devicearray.DeviceNDArray((n // 2,), (8,), np.dtype(np.uint64), gpu_data=o.gpu_data)
        for bd in (128, 256):
            g = -(-(n // 2) // (bd * 2))
            t = timeit(lambda: k[g, bd](n // 2, ou, xu))
            ref = x.copy_to_host()[:1024]
            want = np.exp(ref) if opname == "exp" else -ref
            ok = np.allclose(o.copy_to_host()[:1024], want, rtol=1e-6)
            report(f"{opname} u64 loads bd={bd}", t, 8 * n, f"ok={ok}")
    try:
        import npgpu
        from npgpu._codegen import compiler as C
        from npgpu.cuda import _driver as drv
        import ctypes
        a = npgpu.asarray(np.random.rand(1024).astype(np.float32))
        npgpu.exp(a), npgpu.negative(a), npgpu.add(a, a)
        for key, kern in list(C._memory.items()):
            if getattr(kern, "_func", None):
                v = ctypes.c_int(0)
                drv.cuFuncGetAttribute(ctypes.byref(v), 4, kern._func)
                print(f"npgpu kernel {kern.name}: {v.value} registers, max threads {kern.max_threads}")
    except Exception as e:
        print("npgpu regs failed:", repr(e))


SECTIONS = dict(regs=sec_regs, tall=sec_tall, unary2=sec_unary2, unary=sec_unary, tiled=sec_tiled, sum=sec_sum, argmax=sec_argmax, axis=sec_axis)

if __name__ == "__main__":
    BW = copy_bw()
    print(f"copy bandwidth {BW / 1e9:.0f} GB/s  SMs={SM}")
    t0 = time.time()
    for s in (sys.argv[1:] or list(SECTIONS)):
        try:
            SECTIONS[s]()
        except Exception as e:          # one broken section must not hide the others
            import traceback
            traceback.print_exc()
            print(f"section {s} failed: {e!r}")
    print(f"total {time.time() - t0:.0f} s")
