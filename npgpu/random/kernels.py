"""The random kernel template: one rendering per (sampler, output dtype, parameter kinds).

A :class:`Sampler` says how a block of four Philox words becomes ``per`` elements:

* ``lanes`` samplers (direct transforms, bounded integers): ``base`` turns the block's words
  ``x0..x3`` into base variates ``v0..v{per-1}`` (uniforms, normal pairs, raw words), and
  ``value`` maps one base variate ``v`` and the parameters ``p0..`` to the element.  A thread
  computes one block and stores its ``per`` elements 32 apart (coalesced; see
  :mod:`.philox` for the layout).
* ``stream`` samplers (rejection and compound samplers, ``per`` = 1): ``value`` calls a device
  function drawing words from the element's own sub-stream ``st`` (:data:`.philox.STREAM`);
  the rejection loop runs inside the kernel.

Parameters are host scalars (kernel parameters ``p{k}``, the common case) or device arrays
broadcast to the output's shape (``P{k}``, read through their strides by coordinates of the
element).  One launch per request; the grid covers the blocks with a grid-stride loop.
"""
import collections
import hashlib

import os

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core.ndarray import empty_array
from .philox import GROUP, HELPERS

_U64 = np.dtype(np.uint64)
_I64 = np.dtype(np.int64)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_SIM = _backend.IS_SIM
# the simulator pays per simulated thread and block: one warp a block (staged stores need
# whole warps)
_THREADS = 32 if _SIM else 256
_SIM_BLOCKS = 2

# base variates of a block: (name, compute dtype) -> (per, lines computing v0..v{per-1})
BASES = {
    ("u", "f4"): (4, [f"v{i} = u01_f32(x{i})" for i in range(4)]),
    ("o", "f4"): (4, [f"v{i} = open_f32(x{i})" for i in range(4)]),
    ("n", "f4"): (4, ["v0, v1 = box_muller_f32(x0, x1)", "v2, v3 = box_muller_f32(x2, x3)"]),
    ("u", "f8"): (2, ["v0 = u01_f64(x0, x1)", "v1 = u01_f64(x2, x3)"]),
    ("o", "f8"): (2, ["v0 = open_f64(x0, x1)", "v1 = open_f64(x2, x3)"]),
    ("n", "f8"): (2, ["v0, v1 = box_muller_f64(x0, x1, x2, x3)"]),
    ("w32", ""): (4, [f"v{i} = x{i}" for i in range(4)]),
    ("w64", ""): (2, ["v0 = (x0, x1)", "v1 = (x2, x3)"]),
}


class Sampler:
    """One row of the sampler table (see the module docstring).

    key: unique name; base: a :data:`BASES` name (``None`` for a stream sampler); value: the
    element's expression in ``v`` (lanes) or ``st`` (stream), ``p0..``, ``lane``, ``b``;
    helpers: extra device-function sources it calls."""

    def __init__(self, key, base, value, helpers=()):
        self.key = key
        self.base = base
        self.value = value
        self.helpers = tuple(helpers)

    def per(self, compute):
        if self.base is None:
            return 1
        return BASES[(self.base, _base_dt(self.base, compute))][0]


def _base_dt(base, compute):
    return "" if base.startswith("w") else np.dtype(compute).str[1:]


def device_source(extra=()):
    """Every ``def`` of the Philox helpers and of ``extra`` sources, decorated as a device
    function (the random kernels' shared device part)."""
    defs = []
    for text in HELPERS + tuple(extra):
        for chunk in ("\n" + text.strip("\n")).split("\ndef ")[1:]:
            defs.append("@cuda.jit(device=True)\ndef " + chunk.strip("\n") + "\n")
    return "\n\n".join(defs)


def render(sampler, compute, out_dt, pspecs, ndim, threads=0):
    """Kernel source for ``sampler`` computing in ``compute``, storing ``out_dt``.

    pspecs: per parameter ``(kind, dtype)``, kind ``s`` (scalar) or ``a`` (array of ``ndim``
    dims, broadcast to the output).  threads: the block size when the kernel stages its
    stores through shared memory (:func:`staged`), else 0."""
    per = sampler.per(compute)
    names = ["n", "out", "key", "clo", "chi"]
    params = [Param("scalar", _I64), Param("array", out_dt, 1, "C"),
              Param("scalar", _U64), Param("scalar", _U64), Param("scalar", _U64)]
    if threads:
        names.insert(2, "outw")
        params.insert(2, Param("array", _U64, 1, "C"))
    for k, (kind, dt) in enumerate(pspecs):
        if kind == "s":
            names.append(f"p{k}")
            params.append(Param("scalar", dt))
        else:
            names.append(f"P{k}")
            params.append(Param("array", dt, ndim, "A"))
    arrays = [k for k, (kind, _) in enumerate(pspecs) if kind == "a"]
    span = GROUP * per                   # elements of one group (a power of two)
    shift = span.bit_length() - 1
    # Index arithmetic is unsigned and by shifts: no signed-division fix-ups and no negative
    # index wraparound in Numba's array indexing (half of the old loop's instructions).
    L = [f"def KERNEL({', '.join(names)}):",
         "    k0 = uint32(key)",
         "    k1 = uint32(key >> uint64(32))",
         "    nn = uint64(n)",
         f"    nb = ((nn + uint64({span - 1})) >> uint64({shift})) << uint64(5)",
         "    b = uint64(cuda.grid(1))",
         "    step = uint64(cuda.gridsize(1))"]
    if sampler.base is None:
        L.append("    st = cuda.local.array(7, uint64)")
    if arrays:
        L += [f"    s{d} = P{arrays[0]}.shape[{d}]" for d in range(1, ndim)]
    if threads:
        L += _stage_setup(per, threads)
    L.append("    while b < nb:")
    P = "        "
    if sampler.base is None:
        # one element a block: a warp's store is 32 consecutive elements already
        L += [f"{P}if b < nn:", f"{P}    st_init(st, key, clo, chi, b)"]
        L += _param_lines("b", arrays, ndim, P + "    ")
        L.append(f"{P}    out[b] = {_store(sampler.value, out_dt)}")
        L.append("        b += step")
        return _source(sampler, L, params)
    L.append(f"{P}x0, x1, x2, x3 = block(k0, k1, clo, chi, b, uint64(0))")
    L += [P + line for line in BASES[(sampler.base, _base_dt(sampler.base, compute))][1]]
    L.append(f"{P}g0 = (b >> uint64(5)) << uint64({shift})")
    L.append(f"{P}e0 = g0 | (b & uint64(31))")
    # Every lane's value is computed (a lane past the end reads its parameters at n - 1), so
    # a group wholly inside the request stores without per-element checks.
    if arrays:
        L.append(f"{P}ec = e0 if e0 < nn else nn - uint64(1)")
    for lane in range(per):
        if arrays:
            L += _param_lines(f"ec + uint64({GROUP * lane})" if lane else "ec", arrays, ndim, P,
                              clamp=lane > 0)
        value = sampler.value.replace("LANE", str(lane))
        L.append(f"{P}v = v{lane}")
        L.append(f"{P}r{lane} = {_store(value, out_dt)}")
    L.append(f"{P}if g0 + uint64({span}) <= nn:")
    if threads:
        L += _stage_store(per, out_dt, P + "    ")
    else:
        L += [f"{P}    out[e0 + uint64({GROUP * lane})] = r{lane}" if lane else
              f"{P}    out[e0] = r0" for lane in range(per)]
    L.append(f"{P}else:")
    for lane in range(per):
        e = f"e0 + uint64({GROUP * lane})" if lane else "e0"
        L += [f"{P}    if {e} < nn:", f"{P}        out[{e}] = r{lane}"]
    L.append("        b += step")
    return _source(sampler, L, params)


def _param_lines(e, arrays, ndim, pad, clamp=False):
    """Lines reading the array parameters at element ``e`` (``clamp``: at most n - 1)."""
    if not arrays:
        return []
    L = []
    if clamp:
        L.append(f"{pad}ea = {e}")
        L.append(f"{pad}ea = ea if ea < nn else nn - uint64(1)")
        e = "ea"
    L += _ew.unravel_lines(e, ndim, pad, cast="int64")
    idx = ", ".join(f"c{d}_" for d in range(ndim))
    return L + [f"{pad}p{k} = P{k}[{idx}]" for k in arrays]


def _source(sampler, L, params):
    body = "\n".join(L) + "\n"
    text = device_source(sampler.helpers) + "\n\n" + body
    kname = f"rnd_{sampler.key}_{hashlib.sha1(text.encode()).hexdigest()[:10]}"
    text = text.replace("def KERNEL(", f"def {kname}(")
    return KernelSource(kname, text, params)


# --- stores staged through shared memory ----------------------------------------------------
# A thread's ``per`` = 4 values of a 4-byte output lie 32 elements apart (the stream layout);
# a warp puts its group's 128 values in shared memory (conflict-free), then each lane stores
# two uint64 words (four consecutive elements): each warp store covers 256 consecutive bytes
# with 8-byte stores, as the elementwise ``words`` layout.  Shared positions: value j of lane
# l at 32*j + ((l + SKEW*j) & 31) of the warp's span; the skew spreads the lanes' reads of
# each word half over the 32 banks.  Positions are fixed per thread (its lane and warp do not
# change in the grid-stride loop): computed once, before the loop.
_WORDS = 2              # uint64 words a lane stores per group (per = 4 four-byte values)


# Off by default: on the H200 (2026-12-01, benchmarks/run.py) random f32 2^28 took 386 us
# staged against ~357 us with element stores (the staging's shared stores, loads and warp
# syncs cost more issue slots than the wider stores saved).  Tests turn it on to keep the
# path correct; NPGPU_RANDOM_STAGED=1 turns it on for measurements.
STAGE_STORES = os.environ.get("NPGPU_RANDOM_STAGED") == "1"


def staged(sampler, compute, out_dt):
    """Does this kernel stage its stores (4-byte output, 4 values a block)?"""
    return (STAGE_STORES and sampler.base is not None and out_dt.itemsize == 4
            and out_dt.kind in "fiu" and sampler.per(compute) == 4)


def _read_pos(lane, r, k, skew):
    """Shared position of the ``k``-th element of the word ``r`` that ``lane`` stores."""
    o = 64 * r + 2 * lane + k
    j, l = o >> 5, o & 31
    return 32 * j + ((l + skew * j) & 31)


def _skew(per):
    """The skew with the fewest bank conflicts over the writes and the reads (0 if none)."""
    def worst(skew):
        w = 0
        for j in range(per):
            w = max(w, max(collections.Counter(
                (l + skew * j) & 31 for l in range(32)).values()))
        for r in range(_WORDS):
            for k in range(2):
                w = max(w, max(collections.Counter(
                    _read_pos(l, r, k, skew) & 31 for l in range(32)).values()))
        return w
    return min(range(32), key=lambda s: (worst(s), s))


def _stage_setup(per, threads):
    skew = _skew(per)
    L = [f"    sh = cuda.shared.array({threads * per}, uint32)",
         "    lane = uint32(cuda.threadIdx.x) & uint32(31)",
         f"    wb = (uint32(cuda.threadIdx.x) >> uint32(5)) * uint32({GROUP * per})"]
    for j in range(per):
        L.append(f"    sw{j} = wb + uint32({32 * j}) + ((lane + uint32({skew * j})) & uint32(31))")
    for r in range(_WORDS):
        for k in range(2):
            # o = 64 r + 2 lane + k: row j = 2 r + (lane >> 4), column (2 lane + k) & 31
            j = f"(uint32({2 * r}) + (lane >> uint32(4)))"
            L.append(f"    sr{r}{k} = wb + uint32(32) * {j} + ((((uint32(2) * lane + "
                     f"uint32({k})) & uint32(31)) + uint32({skew}) * {j}) & uint32(31))")
    return L


def _stage_store(per, out_dt, pad):
    bits = ("uint32(libdevice.float_as_int({}))" if out_dt.kind == "f" else "uint32({})")
    L = [f"{pad}sh[sw{j}] = {bits.format(f'r{j}')}" for j in range(per)]
    L.append(f"{pad}{_SYNC}")
    L.append(f"{pad}gw = ((b >> uint64(5)) << uint64({5 + _WORDS.bit_length() - 1})) | "
             "uint64(lane)")
    for r in range(_WORDS):
        at = f"gw + uint64({32 * r})" if r else "gw"
        L.append(f"{pad}outw[{at}] = uint64(sh[sr{r}0]) | (uint64(sh[sr{r}1]) << uint64(32))")
    L.append(f"{pad}{_SYNC}")      # the lanes' reads before the next group's writes
    return L


# The simulator has no warp primitives: its block barrier (which a finished thread no longer
# holds up) orders the writes and reads instead.
_SYNC = "cuda.syncthreads()" if _SIM else "cuda.syncwarp()"


def _store(value, out_dt):
    if out_dt.kind == "b":
        return f"({value}) != 0"
    return f"{_ew.type_name(out_dt)}({value})"


_PLANS = {}


def launch(bitgen, sampler, out, params, compute=_F64):
    """Fill ``out`` (a C-contiguous npgpu array) with ``sampler`` draws from ``bitgen``.

    params: per parameter a NumPy scalar (passed as is) or an npgpu array broadcastable to
    ``out.shape``.  The counter is reserved even for an empty request of size 0 (nothing).
    The kernel of a (sampler, dtypes, parameter kinds) is found once and replayed: a call
    with scalar parameters is a dict lookup, the counter reservation and one launch."""
    n = out.size
    if n == 0:
        return out
    dt = out.dtype
    threads = _THREADS
    arrays = False
    for p in params:
        if not isinstance(p, np.generic):
            arrays = True
            break
    if arrays:
        plan, values = _array_plan(sampler, out, params, compute, threads)
    else:
        key = (sampler, compute, dt, threads, out._ptr & 7 == 0, *[p.dtype for p in params])
        plan = _PLANS.get(key)
        if plan is None:
            plan = _PLANS[key] = _plan(sampler, compute, dt, threads, out._ptr & 7 == 0,
                                       [("s", p.dtype) for p in params], 0)
        values = params
    kern, per, span, wide = plan
    blocks = GROUP * -(-n // span)
    k, clo, chi = bitgen._reserve(n, per)
    isz = dt.itemsize
    ptr = out._ptr
    flat = [n, 0, 0, n, isz, ptr, n, isz]
    if wide:                    # the same memory as uint64 words (the staged stores)
        nw = n * isz >> 3
        flat += [0, 0, nw, 8, ptr, nw, 8]
    flat += [k, clo, chi]
    for v in values:
        if v.__class__ is tuple:
            _, p, strides = v
            flat += _ew._arr_values(p._ptr, out.shape or (1,), strides, p.itemsize)
        else:
            flat.append(v)
    if _SIM:
        grid = max(1, min(_SIM_BLOCKS, -(-blocks // threads)))
    else:
        grid = min(-(-blocks // threads), _resident_blocks(kern, threads))
    kern(grid, threads, flat)
    return out


def _array_plan(sampler, out, params, compute, threads):
    shape = out.shape if out.ndim else (1,)
    ndim = len(shape)
    pspecs, values = [], []
    for p in params:
        if isinstance(p, np.generic):
            pspecs.append(("s", p.dtype))
            values.append(p)
        else:
            pspecs.append(("a", p.dtype))
            values.append(("a", p, _ew.broadcast_strides(p.shape, p._strides, shape)))
    return _plan(sampler, compute, out.dtype, threads, out._ptr & 7 == 0, pspecs, ndim), values


def _plan(sampler, compute, out_dt, threads, aligned, pspecs, ndim):
    """(launcher, per, span, staged) of a kernel variant."""
    wide = aligned and threads % GROUP == 0 and staged(sampler, compute, out_dt)
    key = ("random", sampler.key, np.dtype(compute).str, out_dt.str, tuple(
        (k, d.str) for k, d in pspecs), ndim, threads if wide else 0)
    kern = compiler.get_kernel(key, lambda: render(sampler, compute, out_dt, pspecs, ndim,
                                                   threads if wide else 0))
    per = sampler.per(compute)
    return kern, per, GROUP * per, wide


_RESIDENT = {}


def _resident_blocks(kern, threads):
    """Blocks of ``kern`` the whole GPU holds at once: the grid of a large request.  One wave
    with a grid-stride loop pays each thread's setup (key schedule, counter split) once per
    ~100 blocks instead of once per block, and leaves no partial last wave."""
    from ..cuda import runtime
    dev = runtime.get_device_id()
    got = _RESIDENT.get((kern, dev))
    if got is None:
        sms = runtime.sm_count(dev)
        got = _RESIDENT[(kern, dev)] = sms * min(kern.blocks_per_sm(threads) or 1,
                                                 2048 // threads)
    return got


# --- raw words (random_raw, bytes) --------------------------------------------------------
RAW = Sampler("raw32", "w32", "v")


def raw_words(bitgen, size):
    """``size`` raw uint32 words of the stream (a 0-d array when ``size`` is None)."""
    shape = () if size is None else (tuple(size) if np.iterable(size) else (int(size),))
    out = empty_array(shape, np.dtype(np.uint32))
    return launch(bitgen, RAW, out, [])
