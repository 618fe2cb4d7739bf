#!/usr/bin/env python3
"""npgpu benchmark: npgpu vs CuPy vs PyTorch vs NumPy.

    python3 benchmarks/run.py [--smoke] [--only SECTION ...] [--cases REGEX]

Sections: copy, alloc, transfer, elementwise, startup, reduction, sweep, indexing, linalg,
sorting, random, fft, fusion, kernels, exchange, scipy_special (the last seven's cases are in
benchmarks/<section>_cases.py).
Each section prints one table; everything is also written as JSON to
$OUT/bench.json (if OUT is set) or benchmarks/last.json.  See README.md.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)          # so `import npgpu` works from a checkout
sys.path.insert(0, HERE)

from _timing import load_libs, time_interleaved, time_per_call_interleaved  # noqa: E402

LIBS = ("npgpu", "cupy", "torch", "numpy")
GPU_LIBS = ("npgpu", "cupy", "torch")
SECTIONS = ("copy", "alloc", "transfer", "elementwise", "startup",
            "reduction", "sweep", "indexing", "linalg", "sorting", "random", "fft", "fusion",
            "kernels", "exchange", "scipy_special", "ndimage", "sparse", "sparse_linalg", "dask")
# Sections whose cases live in their own module, benchmarks/<name>_cases.py, each with
# ``cases(cfg, api) -> [Case]`` (``api`` below hands them this file's helpers).
CASE_MODULES = ("sorting", "random", "fft", "fusion", "kernels", "exchange", "scipy_special",
                "ndimage", "sparse", "sparse_linalg", "dask")
BW_SECTIONS = {"elementwise", "reduction", "indexing", "sorting", "random", "fft", "fusion",
               "kernels", "scipy_special", "ndimage", "sparse", "dask"}
ALIASES = {"compile": "startup"}   # the start-up section grew out of the compile section
GiB = 2 ** 30
T0 = time.perf_counter()


def log(msg):
    print(f"[{time.perf_counter() - T0:7.1f}s] {msg}", flush=True)


# ---------------------------------------------------------------------------
# Configuration: repetitions and problem sizes, full vs --smoke
# ---------------------------------------------------------------------------

def make_config(smoke):
    if smoke:  # tiny sizes: only proves the code paths (Numba CUDA simulator)
        return dict(
            smoke=True, reps=3, rounds=3, min_reps=1, warmup=1, budget_s=1.0,
            np_budget_s=0.3, percall_n=5, percall_warmup=1, percall_rounds=3,
            child_timeout_s=120,
            copy_n=2**10, xfer_n=2**18, big_n=2**10, big64_n=2**10,
            tpose=(32, 64), seed_sizes=[2**4, 2**6], red2d=2**5,
            cumsum_n=2**6, mm32=16, mm64=8, batch=(4, 8), solve=(32, 4),
            chol=32, svd=16, child_n=2**8, startup_rounds=1,
            sweep_sizes=[2**4, 2**6, 2**8], sweep_call_max=2**4, sweep_percall_n=5,
            idx_n=2**10, idx_side=2**5, pad_width=4)
    return dict(
        smoke=False, reps=20, rounds=5, min_reps=5, warmup=3, budget_s=2.0,
        np_budget_s=0.75,
        percall_n=2000, percall_warmup=50, percall_rounds=5, child_timeout_s=300,
        copy_n=2**28, xfer_n=2**28, big_n=2**28, big64_n=2**27,
        tpose=(32, 2**22), seed_sizes=[2**10, 2**14, 2**18, 2**22],
        red2d=2**14, cumsum_n=2**26, mm32=8192, mm64=4096, batch=(4096, 64),
        solve=(4096, 16), chol=4096, svd=1024, child_n=2**20, startup_rounds=3,
        # every power of 4 from 2^4 to 2^28; per-call timing up to 2^16, where host time rules
        sweep_sizes=[4 ** k for k in range(2, 15)], sweep_call_max=2**16,
        sweep_percall_n=1000,
        # issue 13's cases: 2^26-element float32 inputs, a (8192, 8192) matrix, pad width 64
        idx_n=2**26, idx_side=2**13, pad_width=64)


def fmt_bytes(n):
    for unit, size in (("GiB", GiB), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n} B"


def p2(n):
    """2**k -> '2^k' for labels; anything else as a plain number."""
    k = int(n).bit_length() - 1
    return f"2^{k}" if n > 1 and 2 ** k == n else str(n)


# ---------------------------------------------------------------------------
# Random host data (generated once per section, multithreaded, never zeros)
# ---------------------------------------------------------------------------

class HostData:
    """Cache of random host arrays, keyed by (tag, dtype, shape)."""

    def __init__(self):
        self.cache = {}

    def rand(self, shape, dtype=np.float32, tag="a"):
        key = (tag, np.dtype(dtype).str, tuple(np.atleast_1d(shape)))
        if key not in self.cache:
            out = np.empty(shape, dtype)
            _fill_random(out, seed=zlib.crc32(repr(key).encode()))
            self.cache[key] = out
        return self.cache[key]

    def clear(self):
        self.cache.clear()


def _fill_random(out, seed):
    """Fill ``out`` in parallel: floats uniform in [0, 1), ints in [-100, 100)."""
    flat = out.reshape(-1)
    nthreads = os.cpu_count() or 1
    chunks = np.array_split(flat, 4 * nthreads)
    seeds = np.random.SeedSequence(seed).spawn(len(chunks))

    def work(i):
        g, c = np.random.default_rng(seeds[i]), chunks[i]
        if c.dtype.kind == "f":
            g.random(out=c, dtype=c.dtype)
        else:
            c[...] = g.integers(-100, 100, c.size, dtype=c.dtype)

    with ThreadPoolExecutor(nthreads) as ex:
        list(ex.map(work, range(len(chunks))))


H = HostData()


# ---------------------------------------------------------------------------
# Cases.  ``make(lib)`` does the set-up (device data) and returns the
# zero-argument callable to time, or (callable, note).
#   kind: "bw"   -> GB/s, counted against the copy ceiling (%BW)
#         "xfer" -> GB/s of host<->device transfer (no %BW)
#         "flop" -> TFLOP/s
#         "time" -> time only
#         "call" -> per-call time (perf_counter over many calls), in µs
# ---------------------------------------------------------------------------

class Case:
    def __init__(self, label, make, kind="bw", nbytes=None, flops=None,
                 libs=LIBS):
        self.label, self.make, self.kind = label, make, kind
        self.nbytes, self.flops, self.libs = nbytes, flops, libs


def binop(hx, hy, op):
    """Case maker for op(x, y) on device copies of host arrays hx(), hy()."""
    def make(lib):
        x, y = lib.put(hx()), lib.put(hy())
        return lambda: op(x, y)
    return make


def unop(hx, op):
    """Case maker for op(lib, x) on a device copy of host array hx()."""
    def make(lib):
        x = lib.put(hx())
        return lambda: op(lib, x)
    return make


# -- 1. copy ceiling ----------------------------------------------------------

def make_copy(n):
    def make(lib):
        src = lib.put(H.rand(n))
        if lib.name == "torch":
            return lambda: src.clone()
        if lib.name == "npgpu":
            return _npgpu_copy(lib, src)
        dst = lib.xp.empty_like(src)
        return lambda: lib.xp.copyto(dst, src)
    return make


def _npgpu_copy(lib, src):
    """npgpu's own D2D copy: the first of these spellings that works."""
    gp = lib.gp
    dst = gp.empty(src.shape, src.dtype)
    candidates = [
        ("gp.copyto(dst, src)", lambda: gp.copyto(dst, src)),
        ("dst[...] = src", lambda: dst.__setitem__(Ellipsis, src)),
        ("src.copy()", lambda: src.copy()),
    ]
    errors = []
    for note, fn in candidates:
        try:
            fn()
            lib.sync()
            return fn, note
        except Exception as e:
            errors.append(f"{note}: {type(e).__name__}: {e}")
    raise RuntimeError("no working copy: " + "; ".join(errors))


def section_copy(cfg):
    n = cfg["copy_n"]
    return [Case(f"D2D copy f32 {p2(n)} ({fmt_bytes(4 * n)})", make_copy(n),
                 nbytes=2 * 4 * n)]


# -- 2. allocation ------------------------------------------------------------

def section_alloc(cfg):
    def make(lib):
        empty = lib.xp.empty

        def f():
            x = empty(16, np.float32)
            del x
        return f
    return [Case("empty(16, float32) + del", make, kind="call")]


# -- 3. host <-> device transfers -----------------------------------------------

def _pinned(lib, shape, dtype):
    """A page-locked host buffer in each library's own way."""
    if lib.name == "npgpu":
        return lib.gp.cuda.pinned_empty(shape, dtype)
    if lib.name == "cupy":
        import cupyx
        return cupyx.empty_pinned(shape, dtype)
    t = lib.torch
    return t.empty(shape, dtype=lib.xp.dtype(dtype), pin_memory=True)


def _fill_pinned(lib, p, host):
    if lib.name == "torch":
        p.copy_(lib.torch.from_numpy(host))
    else:
        p[...] = host
    return p


def section_transfer(cfg):
    n = cfg["xfer_n"]
    host = lambda: H.rand(n)  # noqa: E731
    size = fmt_bytes(4 * n)

    def h2d_pageable(lib):
        h = host()
        if lib.name == "torch":
            return lambda: lib.torch.from_numpy(h).cuda()
        return lambda: lib.xp.asarray(h)

    def h2d_pinned(lib):
        p = _fill_pinned(lib, _pinned(lib, n, np.float32), host())
        if lib.name == "torch":
            return lambda: p.cuda()
        return lambda: lib.xp.asarray(p)

    def h2d_set(lib):
        p = _fill_pinned(lib, _pinned(lib, n, np.float32), host())
        d = lib.xp.empty(n, np.float32)
        if lib.name == "torch":
            return lambda: d.copy_(p)
        return lambda: d.set(p)

    def d2h_pageable(lib):
        d = lib.put(host())
        if lib.name == "torch":
            return lambda: d.cpu()
        return lambda: d.get()

    def d2h_pinned(lib):
        p = _pinned(lib, n, np.float32)
        d = lib.put(host())
        if lib.name == "npgpu":
            return lambda: lib.gp.asnumpy(d, out=p)
        if lib.name == "cupy":
            return lambda: d.get(out=p)
        return lambda: p.copy_(d)

    gpu = GPU_LIBS
    return [
        Case(f"H2D pageable {size}: asarray / from_numpy().cuda()",
             h2d_pageable, "xfer", n * 4, libs=gpu),
        Case(f"H2D pinned {size}: asarray / .cuda()", h2d_pinned, "xfer",
             n * 4, libs=gpu),
        Case(f"H2D pinned {size} into existing: set / copy_", h2d_set,
             "xfer", n * 4, libs=gpu),
        Case(f"D2H pageable {size}: get() / cpu()", d2h_pageable, "xfer",
             n * 4, libs=gpu),
        Case(f"D2H pinned {size}: asnumpy(out=) / get(out=) / copy_",
             d2h_pinned, "xfer", n * 4, libs=gpu),
    ]


# -- 4. elementwise -------------------------------------------------------------

def section_elementwise(cfg):
    n, n64 = cfg["big_n"], cfg["big64_n"]
    f32, f64 = np.float32, np.float64
    a, b = (lambda: H.rand(n, f32, "a")), (lambda: H.rand(n, f32, "b"))
    add = lambda x, y: x + y  # noqa: E731
    cases = [
        Case(f"add f32 {p2(n)}", binop(a, b, add), nbytes=3 * 4 * n),
        Case(f"add f64 {p2(n64)}",
             binop(lambda: H.rand(n64, f64, "a"), lambda: H.rand(n64, f64, "b"),
                   add), nbytes=3 * 8 * n64),
        Case(f"exp f32 {p2(n)}", unop(a, lambda lib, x: lib.xp.exp(x)),
             nbytes=2 * 4 * n),
        # a float64 transcendental: libdevice's polynomial constants (PTX rewrite, issue 25)
        Case(f"exp f64 {p2(n64)}", unop(lambda: H.rand(n64, f64, "a"),
                                        lambda lib, x: lib.xp.exp(x)), nbytes=2 * 8 * n64),
        Case(f"negative f32 {p2(n)}", unop(a, lambda lib, x: -x),
             nbytes=2 * 4 * n),
        Case(f"add int8 + f32 -> f32 {p2(n)}",
             binop(lambda: H.rand(n, np.int8, "i"), b, add),
             nbytes=(1 + 4 + 4) * n),
    ]
    r, c = cfg["tpose"]   # x: (r, c), y: (c, r); x.T + y
    cases.append(Case(
        f"transposed add ({r},{p2(c)}).T + ({p2(c)},{r}) f32",
        binop(lambda: H.rand((r, c), f32, "a"), lambda: H.rand((c, r), f32, "b"),
              lambda x, y: x.T + y), nbytes=3 * 4 * r * c))
    side = 1 << (n.bit_length() - 1) // 2      # a row broadcast: x - x.mean(axis=0)'s last step
    cases.append(Case(
        f"row broadcast x - m ({p2(side)},{p2(side)}) - ({p2(side)},) f32",
        binop(lambda: H.rand((side, side), f32, "a"), lambda: H.rand(side, f32, "m"),
              lambda x, m: x - m), nbytes=2 * 4 * side * side))
    for s in cfg["seed_sizes"]:
        cases.append(Case(
            f"add f32 ({p2(s)}, 32)",
            binop(lambda s=s: H.rand((s, 32), f32, "a"),
                  lambda s=s: H.rand((s, 32), f32, "b"), add),
            nbytes=3 * 4 * 32 * s))
    cases.append(Case(
        "tiny add f32 16 (result allocated)",
        binop(lambda: H.rand(16, f32, "a"), lambda: H.rand(16, f32, "b"), add),
        kind="call"))
    return cases


# -- 6. reductions (may not exist in npgpu yet) ---------------------------------

def section_reduction(cfg):
    n, m, nc = cfg["big_n"], cfg["red2d"], cfg["cumsum_n"]
    v = lambda: H.rand(n, np.float32, "a")  # noqa: E731
    mat = lambda: H.rand((m, m), np.float32, "a")  # noqa: E731
    return [
        Case(f"sum f32 {p2(n)}", unop(v, lambda lib, x: lib.xp.sum(x)),
             nbytes=4 * n + 4),
        Case(f"sum(axis=0) f32 ({p2(m)},{p2(m)})",
             unop(mat, lambda lib, x: lib.xp.sum(x, axis=0)),
             nbytes=4 * m * m + 4 * m),
        Case(f"sum(axis=1) f32 ({p2(m)},{p2(m)})",
             unop(mat, lambda lib, x: lib.xp.sum(x, axis=1)),
             nbytes=4 * m * m + 4 * m),
        Case(f"argmax f32 {p2(n)}", unop(v, lambda lib, x: lib.xp.argmax(x)),
             nbytes=4 * n + 8),
        Case(f"cumsum f32 {p2(nc)}",
             unop(lambda: H.rand(nc, np.float32, "a"),
                  lambda lib, x: lib.xp.cumsum(x)), nbytes=2 * 4 * nc),
        Case("tiny sum f32 16",
             unop(lambda: H.rand(16, np.float32, "a"),
                  lambda lib, x: lib.xp.sum(x)), kind="call"),
    ]


# -- 7. indexing and array manipulation (issue 13's cases) -----------------------

def _t(lib):
    """torch itself for the torch library, else None (cases with another spelling there)."""
    return lib.torch if lib.name == "torch" else None


def _indexing_case(label, hosts, f_np, f_torch=None, nbytes=None, kind="bw"):
    """A case of ``f(xp, *device arrays)``; torch gets ``f_torch(torch, *tensors)`` when its
    spelling differs from NumPy's."""
    def make(lib):
        xs = [lib.put(h()) for h in hosts]
        t = _t(lib)
        if t is not None and f_torch is not None:
            return lambda: f_torch(t, *xs)
        return lambda: f_np(lib.xp, *xs)
    return Case(label, make, kind=kind, nbytes=nbytes)


def section_indexing(cfg):
    n, side, pw = cfg["idx_n"], cfg["idx_side"], cfg["pad_width"]
    f32 = np.float32
    a = lambda: H.rand(n, f32, "a")  # noqa: E731
    b = lambda: H.rand(n, f32, "b")  # noqa: E731
    mask = lambda: H.rand(n, f32, "m") < 0.5  # noqa: E731  (50% true at random)
    idx = lambda: (H.rand(n, f32, "i") * n).astype(np.int64)  # noqa: E731  (uniform)
    mat = lambda: H.rand((side, side), f32, "a")  # noqa: E731
    perm = lambda: (H.rand(side, f32, "p") * side).astype(np.int64)  # noqa: E731
    half = lambda: H.rand(n // 2, f32, "h")  # noqa: E731
    half2 = lambda: H.rand(n // 2, f32, "g")  # noqa: E731
    sel = n // 2     # about half the mask is true: bytes of the selected output
    p = pw
    return [
        _indexing_case(f"mask select a[m] f32 {p2(n)}", [a, mask], lambda xp, x, m: x[m],
                       nbytes=4 * n + n + 4 * sel),
        _indexing_case(f"gather a[idx] f32 {p2(n)}, int64 idx", [a, idx],
                       lambda xp, x, i: x[i], nbytes=4 * n + 8 * n + 4 * n),
        _indexing_case(f"where(c, a, b) f32 {p2(n)}", [mask, a, b],
                       lambda xp, c, x, y: xp.where(c, x, y),
                       lambda t, c, x, y: t.where(c, x, y), nbytes=n + 3 * 4 * n),
        _indexing_case(f"take(a, idx, axis=1) f32 ({p2(side)},{p2(side)})", [mat, perm],
                       lambda xp, x, i: xp.take(x, i, axis=1),
                       lambda t, x, i: t.index_select(x, 1, i),
                       nbytes=2 * 4 * side * side + 8 * side),
        _indexing_case(f"roll(a, 12345) f32 {p2(n)}", [a], lambda xp, x: xp.roll(x, 12345),
                       lambda t, x: t.roll(x, 12345), nbytes=2 * 4 * n),
        _indexing_case(f"tile(a, 2) f32 {p2(n // 2)} -> {p2(n)}", [half],
                       lambda xp, x: xp.tile(x, 2), lambda t, x: x.repeat(2),
                       nbytes=4 * (n // 2) + 4 * n),
        _indexing_case(f"concatenate f32 2 x {p2(n // 2)}", [half, half2],
                       lambda xp, x, y: xp.concatenate([x, y]), lambda t, x, y: t.cat([x, y]),
                       nbytes=2 * 4 * n),
        _indexing_case(f"pad(a, {p}, 'reflect') f32 ({p2(side)},{p2(side)})", [mat],
                       lambda xp, x: xp.pad(x, p, mode="reflect"),
                       lambda t, x: t.nn.functional.pad(x[None], (p, p, p, p), mode="reflect")[0],
                       nbytes=4 * side * side + 4 * (side + 2 * p) ** 2),
        _indexing_case("tiny where f32 16", [lambda: H.rand(16, f32, "m") < 0.5,
                                             lambda: H.rand(16, f32, "a"),
                                             lambda: H.rand(16, f32, "b")],
                       lambda xp, c, x, y: xp.where(c, x, y),
                       lambda t, c, x, y: t.where(c, x, y), kind="call"),
        _indexing_case("tiny gather a[idx] f32 16, 4 idx",
                       [lambda: H.rand(16, f32, "a"),
                        lambda: np.array([3, 0, 15, 7], np.int64)],
                       lambda xp, x, i: x[i], kind="call"),
        # the tiny gather's target is CuPy's plus one device-to-host read (npgpu reads its
        # bounds record back; CuPy checks no bounds): the read alone, 8 bytes, each library's
        Case("tiny read: 8 bytes device -> host (get / cpu)", _tiny_read, kind="call",
             libs=GPU_LIBS),
    ]


def _tiny_read(lib):
    d = lib.put(np.arange(2, dtype=np.float32))
    if lib.name == "torch":
        return lambda: d.cpu()
    return lambda: d.get()


# -- 8. sections in their own modules (benchmarks/<name>_cases.py) ---------------

def _module_section(name):
    """Builder for a section whose cases live in benchmarks/<name>_cases.py."""
    import importlib
    import types

    def build(cfg):
        mod = importlib.import_module(f"{name}_cases")
        api = types.SimpleNamespace(H=H, Case=Case, p2=p2, case=_indexing_case, torch_of=_t,
                                    binop=binop, unop=unop, np=np)
        return mod.cases(cfg, api)
    return build


# -- 6b. size sweep: where does each library's per-call cost stop mattering? ----

SWEEP_TARGET = 0.97   # npgpu's speed as a fraction of the faster peer's, at every size


def section_sweep(cfg):
    """add, exp, sum and sum(axis=0) of float32 at every size of ``sweep_sizes``: per-call
    timing (back-to-back calls) up to ``sweep_call_max`` elements, CUDA events above."""
    f32 = np.float32
    cases = []
    for n in cfg["sweep_sizes"]:
        kind = "call" if n <= cfg["sweep_call_max"] else "bw"
        a = lambda n=n: H.rand(n, f32, "a")  # noqa: E731
        b = lambda n=n: H.rand(n, f32, "b")  # noqa: E731
        r, c = max(n // 256, 1), min(n, 256)
        m = lambda r=r, c=c: H.rand((r, c), f32, "a")  # noqa: E731
        cases += [
            Case(f"add f32 {p2(n)}", binop(a, b, lambda x, y: x + y), kind, 12 * n),
            Case(f"exp f32 {p2(n)}", unop(a, lambda lib, x: lib.xp.exp(x)), kind, 8 * n),
            Case(f"sum f32 {p2(n)}", unop(a, lambda lib, x: lib.xp.sum(x)), kind, 4 * n + 4),
            Case(f"sum(axis=0) f32 ({p2(r)},{c})",
                 unop(m, lambda lib, x: lib.xp.sum(x, axis=0)), kind, 4 * n + 4 * c)]
    return cases


def sweep_verdict(rows):
    """Mark the rows where npgpu is below SWEEP_TARGET x the faster peer (GPU backend only)."""
    below = [r for r in rows if r.get("npgpu/best") is not None
             and r["npgpu/best"] < SWEEP_TARGET]
    for r in below:
        r["note"] = f"below {SWEEP_TARGET:.2f}x of the faster peer"
    judged = sum(r.get("npgpu/best") is not None for r in rows)
    if judged:
        log(f"sweep: npgpu >= {SWEEP_TARGET:.2f}x the faster peer in {judged - len(below)} of "
            f"{judged} cases")
    return rows


# -- 7. linear algebra (may not exist in npgpu yet) -----------------------------

def _spd(n):
    """Well-conditioned symmetric positive definite float64 matrix."""
    key = ("spd", n)
    if key not in H.cache:
        m = H.rand((n, n), np.float64, "m")
        H.cache[key] = m @ m.T + n * np.eye(n)
    return H.cache[key]


def section_linalg(cfg):
    m32, m64 = cfg["mm32"], cfg["mm64"]
    nb, k = cfg["batch"]
    ns, nrhs = cfg["solve"]
    nc, nsvd = cfg["chol"], cfg["svd"]
    f32, f64 = np.float32, np.float64
    mm = lambda x, y: x @ y  # noqa: E731
    sq = lambda n, dt, tag: (lambda: H.rand((n, n), dt, tag))  # noqa: E731
    return [
        Case(f"matmul f32 {m32}^3", binop(sq(m32, f32, "a"), sq(m32, f32, "b"), mm),
             kind="flop", flops=2 * m32 ** 3),
        Case(f"matmul f64 {m64}^3", binop(sq(m64, f64, "a"), sq(m64, f64, "b"), mm),
             kind="flop", flops=2 * m64 ** 3),
        Case(f"batched matmul f32 ({nb},{k},{k})@({nb},{k},{k})",
             binop(lambda: H.rand((nb, k, k), f32, "a"),
                   lambda: H.rand((nb, k, k), f32, "b"),
                   lambda x, y: x @ y),
             kind="flop", flops=2 * nb * k ** 3),
        Case(f"solve f64 {ns}x{ns}, {nrhs} rhs",
             _solve_make(ns, nrhs),
             kind="flop", flops=2 * ns ** 3 // 3 + 2 * ns * ns * nrhs),
        Case(f"cholesky f64 {nc}",
             unop(lambda: _spd(nc), lambda lib, x: lib.xp.linalg.cholesky(x)),
             kind="flop", flops=nc ** 3 // 3),
        Case(f"svd f32 {nsvd} (time only)",
             unop(sq(nsvd, f32, "a"), lambda lib, x: lib.xp.linalg.svd(x)),
             kind="time"),
        Case("tiny matmul f32 4x4", binop(sq(4, f32, "a"), sq(4, f32, "b"), mm),
             kind="call"),
    ]


def _solve_make(n, nrhs):
    def make(lib):
        a, b = lib.put(_spd(n)), lib.put(H.rand((n, nrhs), np.float64, "r"))
        return lambda: lib.xp.linalg.solve(a, b)
    return make


# -- 5. start-up: first-call costs in fresh subprocesses ----------------------

# One child script for every library and for the floor.  It times, from its own first line
# (the interpreter's start is the same for all and left out): the import, then the workload
# ``a = asarray(host); r = (a * 2 + 1).sum(); float(r)`` step by step (the first device call
# creates the context); then a kernel the workload did not use (int16 subtract) and a
# steady-state add, which are not part of the total.
CHILD = r"""
import json, sys, time
T = time.perf_counter
t0 = T()
lib, n = sys.argv[1], int(sys.argv[2])
import numpy as np
out = {}
if lib == "floor":              # import numpy + cuInit + primary context: what any library pays
    import ctypes
    cu = ctypes.CDLL("libcuda.so.1")
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    for rc in (cu.cuInit(0), cu.cuDeviceGet(ctypes.byref(dev), 0),
               cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), cu.cuCtxSetCurrent(ctx)):
        if rc:
            raise RuntimeError(f"CUDA driver error {rc}")
    out["total_s"] = T() - t0
    print("BENCHJSON " + json.dumps(out), flush=True)
    sys.exit(0)
t = T()
if lib == "npgpu":
    import npgpu as xp
    sync, put = xp.cuda.Device().synchronize, xp.asarray
    out["backend"] = xp.backend()
elif lib == "cupy":
    import cupy as xp
    sync, put = xp.cuda.Device().synchronize, xp.asarray
else:
    import torch
    sync, put = torch.cuda.synchronize, lambda h: torch.from_numpy(h).cuda()
t1 = T()
h = np.random.default_rng(0).random(n, dtype=np.float32)
t2 = T()
a = put(h)
t3 = T()
r = (a * 2 + 1).sum()
t4 = T()
v = float(r)
t5 = T()
out.update(import_s=t1 - t, asarray_s=t3 - t2, compute_s=t4 - t3, float_s=t5 - t4,
           total_s=(t5 - t0) - (t2 - t1))
assert abs(v - float((h.astype(np.float64) * 2 + 1).sum())) <= 1e-3 * abs(v), v

def timed(f):
    t = T(); f(); sync(); return T() - t

i, j = (put(np.arange(k, k + n, dtype=np.int16)) for k in (3, 1))
sync()
out["second_kernel_s"] = timed(lambda: i - j)
out["steady_s"] = min(timed(lambda: a + a) for _ in range(5))
print("BENCHJSON " + json.dumps(out), flush=True)
"""


def _child(lib, n, cache_dir, timeout):
    """Run CHILD for ``lib`` in a fresh interpreter; return its JSON dict.  Bytecode may be
    written (a user's installed package has its .pyc files; the priming run writes ours)."""
    env = dict(os.environ, NPGPU_CACHE_DIR=cache_dir, CUPY_CACHE_DIR=cache_dir)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # a cold start compiles (a test run's carried PTX store would skip what a user's pays)
    env.pop("NPGPU_PTX_STORE", None)
    env.pop("NPGPU_PTX_STORE_OUT", None)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)
    p = subprocess.run([sys.executable, "-c", CHILD, lib, str(n)], env=env,
                       cwd=ROOT, capture_output=True, text=True,
                       timeout=timeout)
    for line in p.stdout.splitlines():
        if line.startswith("BENCHJSON "):
            return json.loads(line[len("BENCHJSON "):])
    tail = (p.stderr.strip().splitlines() or ["no output"])[-1]
    raise RuntimeError(f"child exited {p.returncode}: {tail}")


def _prime(name, timeout):
    """Import ``name`` once, untimed: its .pyc files and the OS file cache are then warm."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)
    subprocess.run([sys.executable, "-c", f"import numpy, {name}"], env=env, cwd=ROOT,
                   capture_output=True, timeout=timeout)


# (row label, run name, key); a run name is "<lib> cold" / "<lib> warm" (torch has no kernel
# cache: its runs fill both) or "floor" (shown in the numpy column)
STARTUP_ROWS = [
    ("floor: import numpy + cuInit + primary context (numpy column)", "floor", "total_s"),
    ("workload total, empty kernel cache (target: npgpu <= cupy)", "cold", "total_s"),
    ("workload total, warm kernel cache (target: npgpu <= floor + 0.1 s)", "warm", "total_s"),
    ("  import, cold", "cold", "import_s"),
    ("  asarray (context, H2D), cold", "cold", "asarray_s"),
    ("  (a * 2 + 1).sum(), cold", "cold", "compute_s"),
    ("  float(), cold", "cold", "float_s"),
    ("  import, warm", "warm", "import_s"),
    ("  asarray (context, H2D), warm", "warm", "asarray_s"),
    ("  (a * 2 + 1).sum(), warm", "warm", "compute_s"),
    ("  float(), warm", "warm", "float_s"),
    ("new kernel int16 subtract, cold", "cold", "second_kernel_s"),
    ("new kernel int16 subtract, warm", "warm", "second_kernel_s"),
    ("steady-state f32 add (warm process)", "warm", "steady_s"),
]


def run_startup(cfg, libs, load_errors):
    """Fresh processes, in rounds: the floor, then for npgpu and CuPy one with an empty kernel
    cache (a new directory each round) and one with that directory again, and PyTorch.
    Medians over ``startup_rounds`` rounds; interleaving keeps drift out of the comparison."""
    timeout = cfg["child_timeout_s"]
    names = ["npgpu"] + [n for n in ("cupy", "torch") if n in libs]
    for name in names:
        _prime(name, timeout)
    runs = {}          # run name -> list of child dicts (or an error string)

    def record(run, fn):
        if isinstance(runs.get(run), str):
            return
        try:
            runs.setdefault(run, []).append(fn())
        except Exception as e:
            runs[run] = f"{type(e).__name__}: {e}"

    n = cfg["child_n"]
    for _ in range(cfg["startup_rounds"]):
        record("floor", lambda: _child("floor", n, tempfile.gettempdir(), timeout))
        for name in names:
            if name == "torch":
                record("torch", lambda: _child("torch", n, tempfile.gettempdir(), timeout))
                continue
            with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as d:
                record(f"{name} cold", lambda: _child(name, n, d, timeout))
                record(f"{name} warm", lambda: _child(name, n, d, timeout))
    log("startup: " + ", ".join(f"{k} {len(v) if isinstance(v, list) else v}"
                                for k, v in runs.items()))

    def cell(run, key):
        r = runs.get(run)
        if r is None:
            return None
        if isinstance(r, str):
            return {"error": r}
        vals = [x[key] for x in r if key in x]
        return {"time_s": statistics.median(vals), "min_s": min(vals), "max_s": max(vals),
                "reps": len(vals)} if vals else None

    rows = []
    for label, run, key in STARTUP_ROWS:
        res = dict.fromkeys(LIBS)
        if run == "floor":
            res["numpy"] = cell("floor", key)
        else:
            for name in GPU_LIBS:
                if name == "npgpu" or name in libs:
                    res[name] = cell("torch" if name == "torch" else f"{name} {run}", key)
        rows.append({"case": label, "kind": "time", "results": res})
    _startup_verdicts(rows, runs)
    return rows


def _startup_verdicts(rows, runs):
    """Judge the two start-up targets (GPU only): cold <= CuPy cold, warm <= floor + 0.1 s."""
    t = lambda row, name: (row["results"].get(name) or {}).get("time_s")  # noqa: E731
    npg = runs.get("npgpu cold")
    backend = npg[0].get("backend") if isinstance(npg, list) and npg else None
    floor = t(rows[0], "numpy")
    cold, warm = rows[1], rows[2]
    judged = backend == "cuda"
    for row, mine, target, what in (
            (cold, t(cold, "npgpu"), t(cold, "cupy"), "CuPy's"),
            (warm, t(warm, "npgpu"), floor + 0.1 if floor is not None else None, "floor + 0.1 s")):
        if mine is None or target is None:
            continue
        if not judged:
            row["note"] = f"npgpu backend {backend}: target not judged"
            continue
        verdict = "PASS" if mine <= target else "FAIL"
        row["note"] = f"npgpu {verdict}: {mine:.3f} s vs {what} {target:.3f} s"
        log(f"startup: {row['case']}: {row['note']}")


# ---------------------------------------------------------------------------
# Running cases
# ---------------------------------------------------------------------------

# A bandwidth case's %BW is taken against npgpu's copy of the ceiling's size timed in turns with
# the case's libraries (the same minutes: the H200's speed drifts by several % between the copy
# section and a case minutes later); the run's ceiling stays in the report beside it.
_REF = "copy reference"
_COPY_REF = {}


def _copy_reference(libs, cfg):
    """``(lib, fn)``: npgpu's device copy of ``copy_n`` float32 (made once a run), or None."""
    lib = libs.get("npgpu")
    if lib is None:
        return None
    if "entry" not in _COPY_REF:
        try:
            fn, _ = _npgpu_copy(lib, lib.gp.empty(cfg["copy_n"], np.float32))
            _COPY_REF["entry"] = (lib, fn)
        except Exception:
            _COPY_REF["entry"] = None
    return _COPY_REF["entry"]


def run_case(case, libs, load_errors, cfg, copy_ref=True):
    results, notes, gpu_fns, call_fns = {}, {}, {}, {}
    for name in LIBS:
        lib = libs.get(name)
        if name not in case.libs:
            results[name] = None
            continue
        if lib is None:   # npgpu failing to import is worth showing
            results[name] = ({"error": load_errors[name]}
                             if name == "npgpu" else None)
            continue
        try:
            made = case.make(lib)
            fn, note = made if isinstance(made, tuple) else (made, None)
            if note:
                notes[name] = note
            if case.kind == "call" or lib.gpu:
                # timed below: per-call cases with the libraries taking turns, the others'
                # device times interleaved
                (call_fns if case.kind == "call" else gpu_fns)[name] = (lib, fn)
                made = fn = None
                continue
            else:
                results[name] = lib.time_events(
                    fn, cfg["reps"], cfg["warmup"], cfg["np_budget_s"])
        except Exception as e:
            results[name] = {"error": f"{type(e).__name__}: {e}".strip()}
        made = fn = None
        try:
            lib.free()
        except Exception:
            pass
    if call_fns:
        results.update(time_per_call_interleaved(call_fns, cfg["percall_n"],
                                                 cfg["percall_warmup"], cfg["percall_rounds"]))
        _free_all(call_fns)
        call_fns = None
    ref_gbps = None
    if gpu_fns:
        ref = _copy_reference(libs, cfg) if case.kind == "bw" and copy_ref else None
        if ref is not None:
            gpu_fns[_REF] = ref
        results.update(time_interleaved(gpu_fns, cfg["reps"], cfg["rounds"], cfg["warmup"],
                                        cfg["budget_s"], min_reps=cfg["min_reps"]))
        gpu_fns.pop(_REF, None)
        r = results.pop(_REF, None)
        if r and r.get("time_s"):
            ref_gbps = 2 * 4 * cfg["copy_n"] / r["time_s"] / 1e9
        _free_all(gpu_fns)
        gpu_fns = None
    results = {name: results.get(name) for name in LIBS}
    row = {"case": case.label, "kind": case.kind, "bytes": case.nbytes,
           "flops": case.flops, "results": results}
    if ref_gbps:
        row["copy_ref_gbps"] = ref_gbps
    elif case.kind == "bw" and copy_ref:
        row["copy_ref_missing"] = True
    if notes:
        row["note"] = "; ".join(f"{k}: {v}" for k, v in notes.items())
    brief = ", ".join(f"{k} {_fmt_time(v['time_s'], case.kind)}"
                      for k, v in results.items() if v and "time_s" in v)
    log(f"  {case.label}: {brief or 'no results'}")
    return row


def _free_all(entries):
    """Give each library of ``entries`` (``name: (lib, fn)``) its cached memory back, once the
    case's functions (and the arrays they hold) are dropped."""
    libs = [lib for lib, _ in entries.values()]
    entries.clear()
    for lib in libs:
        try:
            lib.free()
        except Exception:
            pass


def derive(row, ceiling):
    """Add throughput, %BW and npgpu/peer ratios to a row (in place)."""
    kind, res = row["kind"], row["results"]
    tput = {}
    for name, r in res.items():
        if r and "time_s" in r and r["time_s"] > 0:
            if kind in ("bw", "xfer") and row.get("bytes"):
                tput[name] = row["bytes"] / r["time_s"] / 1e9      # GB/s
            elif kind == "flop" and row.get("flops"):
                tput[name] = row["flops"] / r["time_s"] / 1e12     # TFLOP/s
    row["throughput"] = tput
    row["unit"] = {"bw": "GB/s", "xfer": "GB/s", "flop": "TFLOP/s"}.get(kind)
    ok = kind == "bw" and "npgpu" in tput
    row["pct_ceiling"] = 100 * tput["npgpu"] / ceiling if ok and ceiling else None
    ref = row.get("copy_ref_gbps")
    row["pct_bw"] = 100 * tput["npgpu"] / ref if ok and ref else row["pct_ceiling"]
    if ok and row.get("copy_ref_missing") and row["pct_bw"] is not None:
        # (the copy timed beside the case failed: %BW is against the run's ceiling, marked so
        # in the table and the JSON)
        row["pct_bw_from"] = "ceiling"
    # Same work for everyone, so throughput ratio == inverse time ratio.
    mine = res.get("npgpu") or {}
    for peer in ("cupy", "torch"):
        theirs = res.get(peer) or {}
        ok = "time_s" in mine and "time_s" in theirs and mine["time_s"] > 0
        row[f"npgpu/{peer}"] = theirs["time_s"] / mine["time_s"] if ok else None
    peers = [row[f"npgpu/{p}"] for p in ("cupy", "torch") if row[f"npgpu/{p}"]]
    row["npgpu/best"] = min(peers) if peers else None     # against the faster peer
    return row


# ---------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------

def _num(x):
    """3-4 significant digits, never scientific notation."""
    return f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def _fmt_time(s, kind=None):
    if s < 1e-7:
        return f"{_num(s * 1e9)} ns"
    if kind == "call" or s < 1e-3:        # per-call cases always in µs
        return f"{_num(s * 1e6)} µs"
    return f"{s * 1e3:.4g} ms" if s < 1 else f"{s:.3g} s"


def _cell(row, name, width=46):
    r = row["results"].get(name)
    if r is None:
        return "-"
    if "error" in r:
        text = f"{name}: {r['error']}".splitlines()[0]
        return text if len(text) <= width else text[:width - 3] + "..."
    text = _fmt_time(r["time_s"], row["kind"])
    t = row.get("throughput", {}).get(name)
    if t is not None:
        digits = 0 if t >= 100 else 1 if t >= 10 else 2 if t >= 0.1 else 4
        text += f"  {t:.{digits}f} {row['unit']}"
    return text


def print_table(title, rows, best=False):
    """One table; ``best``: add the column of npgpu against the faster peer."""
    ratios = ("npgpu/cupy", "npgpu/torch") + (("npgpu/best",) if best else ())
    head = ["case", "npgpu", "cupy", "torch", "numpy", "npgpu %BW", "%ceiling", *ratios]
    body = []
    for row in rows:
        pcts = [f"{row[k]:.1f}%" if row.get(k) is not None else "-"
                for k in ("pct_bw", "pct_ceiling")]
        if row.get("pct_bw_from") == "ceiling":
            pcts[0] += " (c)"
        ratio = [f"{row[k]:.2f}x" if row.get(k) else "-" for k in ratios]
        body.append([row["case"]] + [_cell(row, n) for n in LIBS] + pcts + ratio)
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
    line = lambda cells: " | ".join(  # noqa: E731
        c.ljust(w) if i == 0 else c.rjust(w)
        for i, (c, w) in enumerate(zip(cells, widths)))
    print(f"\n== {title} ==", flush=True)
    print(line(head))
    print("-+-".join("-" * w for w in widths))
    for cells in body:
        print(line(cells))
    if any(row.get("pct_bw_from") == "ceiling" for row in rows):
        print("  (c): %BW against the run's copy ceiling: the copy timed beside the case failed")
    # Full error texts and notes below the table (cells are truncated).
    for row in rows:
        for name, r in row["results"].items():
            if r and "error" in r:
                print(f"  ! {row['case']} | {name}: {r['error']}")
        if row.get("note"):
            print(f"  * {row['case']} | {row['note']}")
    print(flush=True)


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def env_info(libs, load_errors):
    info = {"python": platform.python_version(), "numpy": np.__version__,
            "host": platform.node(), "cpus": os.cpu_count(),
            "load_errors": load_errors}
    if "npgpu" in libs:
        gp = libs["npgpu"].gp
        info["npgpu"] = getattr(gp, "__version__", "?")
        try:
            info["npgpu_backend"] = gp.backend()
        except Exception as e:
            info["npgpu_backend"] = f"{type(e).__name__}: {e}"
    if "cupy" in libs:
        cp = libs["cupy"].cp
        info["cupy"] = cp.__version__
        info["device"] = cp.cuda.runtime.getDeviceProperties(0)["name"].decode()
    if "torch" in libs:
        t = libs["torch"].torch
        info["torch"] = t.__version__
        info.setdefault("device", t.cuda.get_device_name(0))
    return info


def _wanted(case, pattern, section):
    """--cases: the copy ceiling always runs (the %BW columns need it)."""
    import re
    return pattern is None or section == "copy" or re.search(pattern, case.label) is not None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--smoke", action="store_true",
                    help="tiny sizes, 3 reps: only checks the code paths")
    ap.add_argument("--only", nargs="+", choices=SECTIONS + tuple(ALIASES), metavar="SECTION",
                    help=f"run only these sections ({', '.join(SECTIONS)})")
    ap.add_argument("--cases", metavar="REGEX",
                    help="run only the cases whose label matches this regular expression")
    ap.add_argument("--skip", nargs="+", choices=LIBS, default=(), metavar="LIB",
                    help="leave these libraries out (e.g. numpy, whose large cases take seconds "
                         "each when only the GPU columns are wanted)")
    args = ap.parse_args(argv)
    cfg = make_config(args.smoke)
    wanted = [ALIASES.get(s, s) for s in args.only or SECTIONS]
    # %BW needs the copy ceiling from this same run.
    if "copy" not in wanted and BW_SECTIONS & set(wanted):
        wanted.insert(0, "copy")
    wanted = [s for s in SECTIONS if s in wanted]

    libs, load_errors = load_libs()
    for name in args.skip:
        libs.pop(name, None)
        load_errors[name] = "left out (--skip)"
    info = env_info(libs, load_errors)
    log(f"libraries: {', '.join(libs)}"
        + "".join(f"\n           {k} unavailable: {v}"
                  for k, v in load_errors.items()))
    log("environment: " + json.dumps({k: v for k, v in info.items()
                                      if k != "load_errors"}))

    builders = {"copy": section_copy, "alloc": section_alloc,
                "transfer": section_transfer,
                "elementwise": section_elementwise,
                "reduction": section_reduction, "sweep": section_sweep,
                "indexing": section_indexing, "linalg": section_linalg}
    for name in CASE_MODULES:
        builders[name] = _module_section(name)
    report = {"config": cfg, "env": info, "ceiling_gbps": None,
              "sections": {}}
    ceiling = None
    for sec in wanted:
        log(f"section {sec} ...")
        try:
            if sec == "startup":
                rows = run_startup(cfg, libs, load_errors)
            elif sec == "sweep":    # many per-call cases: shorter batches
                scfg = dict(cfg, percall_n=cfg["sweep_percall_n"])
                rows = [run_case(c, libs, load_errors, scfg) for c in builders[sec](cfg)]
            else:
                rows = [run_case(c, libs, load_errors, cfg, copy_ref=sec != "copy")
                        for c in builders[sec](cfg) if _wanted(c, args.cases, sec)]
        except Exception as e:  # a bug in a section must not stop the run
            log(f"section {sec} failed: {type(e).__name__}: {e}")
            rows = []
        finally:
            H.clear()
        if sec == "copy" and rows:
            gbps = {k: v for k, v in derive(rows[0], None)["throughput"].items()
                    if k in GPU_LIBS}
            if gbps:
                src = max(gbps, key=gbps.get)
                ceiling = gbps[src]
                report["ceiling_gbps"] = ceiling
                report["ceiling_from"] = src
                log(f"copy ceiling: {ceiling:.4g} GB/s (from {src})")
        rows = [derive(r, ceiling) for r in rows]
        if sec == "sweep":
            sweep_verdict(rows)
        report["sections"][sec] = rows
        print_table(sec, rows, best=sec == "sweep")

    report["total_s"] = time.perf_counter() - T0
    out_dir = os.environ.get("OUT")
    path = (os.path.join(out_dir, "bench.json") if out_dir
            else os.path.join(HERE, "last.json"))
    with open(path, "w") as f:
        json.dump(report, f, indent=1, default=str)
    log(f"done in {report['total_s']:.1f}s; results written to {path}")


if __name__ == "__main__":
    main()
