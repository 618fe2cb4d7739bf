"""The random kernel template: one rendering per (sampler, output dtype, parameter kinds).

A :class:`Sampler` says how a block of four Philox words becomes ``per`` elements:

* ``lanes`` samplers (direct transforms, bounded integers): ``base`` turns the block's words
  ``x0..x3`` into base variates ``v0..v{per-1}`` (uniforms, normal pairs, raw words), and
  ``value`` maps one base variate ``v`` and the parameters ``p0..`` to the element.  A thread
  computes one block and stores its ``per`` consecutive elements (see :mod:`.philox` for the
  layout), as one 16- or 8-byte store where the output's dtype and alignment allow
  (:func:`store_width`): a warp's store then covers 512 consecutive bytes.
* ``stream`` samplers (rejection and compound samplers, ``per`` = 1): ``value`` calls a device
  function drawing words from the element's own sub-stream ``st`` (:data:`.philox.STREAM`);
  the rejection loop runs inside the kernel.

Parameters are host scalars (kernel parameters ``p{k}``, the common case) or device arrays
broadcast to the output's shape (``P{k}``, read through their strides by coordinates of the
element).  One launch per request; the grid covers the blocks with a grid-stride loop.
"""
import hashlib

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core.ndarray import empty_array
from .philox import HELPERS

_U64 = np.dtype(np.uint64)
_I64 = np.dtype(np.int64)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_SIM = _backend.IS_SIM
# the simulator pays per simulated thread and block: one warp a block
_THREADS = 32 if _SIM else 256
# Direct transforms (no rejection loop) in blocks of 1024 where two of them fill an SM (at most
# 32 registers): H200, random f32 2^28 (random_write_parts.py, 2026-12-03): 304 us with 256
# threads a block, 297 with 512, 292 with 1024
_THREADS_LANES = 32 if _SIM else 1024
# (Two blocks a thread a round, their Philox rounds side by side, measured and dropped: H200
# 2026-12-04, alternating processes, random f32 2^28 90.2 / 87.1% of copy with one, 87.5 /
# 87.5% with two; random f64 85.7 / 83.0% against 81.8 / 83.0%; standard_normal no better.)
_SIM_BLOCKS = 2
# blocks a launch at most (the kernels' block index is a uint32; test hook)
_LAUNCH_BLOCKS = 1 << 31

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


def render(sampler, compute, out_dt, pspecs, ndim, wide=False):
    """Kernel source for ``sampler`` computing in ``compute``, storing ``out_dt``.

    pspecs: per parameter ``(kind, dtype)``, kind ``s`` (scalar) or ``a`` (array of ``ndim``
    dims, broadcast to the output).  wide: a whole block's elements are stored as one or two
    words (:func:`store_width`; the output then comes twice, as itself and as words ``outw``).

    A launch covers blocks ``0 .. ceil(n / per) - 1`` of its own (``out`` starts at its first
    element; ``eg``: that element's index in the request, for array parameters) at counters
    ``clo + b`` whose low word does not wrap (:func:`launch` splits a request where it would),
    so the counter's high word is the launch's ``chi``."""
    per = sampler.per(compute)
    names = ["n", "out", "key", "clo", "chi", "eg"]
    params = [Param("scalar", _I64), Param("array", out_dt, 1, "C"),
              Param("scalar", _U64), Param("scalar", _U64), Param("scalar", _U64),
              Param("scalar", _U64)]
    if wide:
        names.insert(2, "outw")
        params.insert(2, Param("array", _wide_dtype(out_dt, per), 1, "C"))
    for k, (kind, dt) in enumerate(pspecs):
        if kind == "s":
            names.append(f"p{k}")
            params.append(Param("scalar", dt))
        else:
            names.append(f"P{k}")
            params.append(Param("array", dt, ndim, "A"))
    arrays = [k for k, (kind, _) in enumerate(pspecs) if kind == "a"]
    shift = per.bit_length() - 1         # per is 1, 2 or 4
    # Index arithmetic is unsigned and by shifts: no signed-division fix-ups and no negative
    # index wraparound in Numba's array indexing.
    L = [f"def KERNEL({', '.join(names)}):",
         "    k0 = uint32(key)",
         "    k1 = uint32(key >> uint64(32))",
         "    nn = uint64(n)"]
    if arrays:
        L += [f"    s{d} = P{arrays[0]}.shape[{d}]" for d in range(1, ndim)]
    P = "        "
    if sampler.base is None:
        # one element a block; the per-element stream takes its counters through block()
        L += ["    st = cuda.local.array(7, uint64)",
              "    b = uint64(cuda.grid(1))",
              "    step = uint64(cuda.gridsize(1))",
              "    while b < nn:"]
        L += [f"{P}st_init(st, key, clo, chi, b)"]
        L += _param_lines("b", arrays, ndim, P)
        L.append(f"{P}out[b] = {_store(sampler.value, out_dt)}")
        L.append("        b += step")
        return _source(sampler, L, params)
    # One loop over the launch's blocks with a 32-bit index (:func:`launch` keeps a launch
    # under 2^31 blocks); a block's counter is one 64-bit add (a launch keeps one high word);
    # full blocks store unchecked (wide stores), the request's one partial block lane by lane.
    # H200 2026-12-04 (random f32 / f64 2^28 / 2^27, % of copy): the former loop (64-bit
    # index, the counter's carry and a full-block test by element a block) 86-88 / 81-83%;
    # this loop 94.8-95.2 / 95.0-95.5%; with the partial block after the loop (twice the code,
    # the round keys hoisted into 20 vector registers: 36 registers) 93-94 / 90-92%.  The
    # direct transforms are bound by the integer pipe: Philox's 20 LOP3 a block and what the
    # loop adds around them.
    L += ["    c2 = uint32(chi)",
          "    c3 = uint32(chi >> uint64(32))",
          f"    nf = uint32(nn >> uint64({shift}))",
          f"    nb = uint32((nn + uint64({per - 1})) >> uint64({shift}))",
          "    b = uint32(cuda.grid(1))",
          "    step = uint32(cuda.gridsize(1))",
          "    while b < nb:"]
    L += _value_lines(sampler, compute, out_dt, per, shift, arrays, ndim, P)
    L.append(f"{P}if b < nf:")
    L += _store_lines(out_dt, per, wide, P + "    ", True)
    L.append(f"{P}else:")
    L += _store_lines(out_dt, per, wide, P + "    ", False)
    L.append("        b = uint32(b + step)")
    return _source(sampler, L, params)


def _value_lines(sampler, compute, out_dt, per, shift, arrays, ndim, P):
    """Lines computing block ``b``'s ``per`` elements ``r0..`` (``e0``: its first element).
    Every lane's value is computed (a lane past the end reads its parameters at n - 1)."""
    L = [f"{P}lo = clo + uint64(b)",
         f"{P}x0, x1, x2, x3 = philox(uint32(lo), uint32(lo >> uint64(32)), c2, c3, k0, k1)"]
    L += [P + line for line in BASES[(sampler.base, _base_dt(sampler.base, compute))][1]]
    L.append(f"{P}e0 = uint64(b) << uint64({shift})")
    for lane in range(per):
        if arrays:
            L += _param_lines(f"e0 + uint64({lane})" if lane else "e0", arrays, ndim, P,
                              clamp=lane > 0)
        value = sampler.value.replace("LANE", str(lane))
        L.append(f"{P}v = v{lane}")
        L.append(f"{P}r{lane} = {_store(value, out_dt)}")
    return L


def _store_lines(out_dt, per, wide, P, full):
    """Lines storing ``r0..`` of block ``b``: ``full`` -- every lane inside the request (wide
    stores where ``wide``), else lane by lane up to ``nn``."""
    if full and wide:
        return _wide_store(per, out_dt, P)
    if full:
        return [f"{P}out[e0 + uint64({lane})] = r{lane}" if lane else f"{P}out[e0] = r0"
                for lane in range(per)]
    L = [f"{P}out[e0] = r0"]                 # lane 0 is inside (b < nb)
    for lane in range(1, per):
        e = f"e0 + uint64({lane})"
        L += [f"{P}if {e} < nn:", f"{P}    out[{e}] = r{lane}"]
    return L


def store_width(out_dt, per):
    """Bytes of a block's ``per`` elements when they go out as aligned 4-, 8- or 16-byte stores
    (32: two 16-byte ones), else 0.  A write-only kernel needs wide stores to reach the
    memory's write rate: on the H200 a grid-stride loop of 4-byte stores wrote 1 GiB at 88% of
    the copy rate, of 8- or 16-byte stores at 102-103%; and a block's elements stored one by
    one lie ``itemsize`` apart in each warp store (random f32 at 59%, int64 integers 0.67x
    CuPy; ``benchmarks/experiments/random_write_parts.py``)."""
    w = out_dt.itemsize * per
    ok = out_dt.kind in "biu" or (out_dt.kind == "f" and out_dt.itemsize in (4, 8))
    return w if ok and w in (4, 8, 16, 32) else 0


def _bits(r, out_dt):
    """The unsigned integer of element ``r``'s bits, as wide as the element."""
    if out_dt.kind == "f":
        if out_dt.itemsize == 4:
            return f"uint32(libdevice.float_as_int({r}))"
        return f"uint64(libdevice.double_as_longlong({r}))"
    return f"uint{8 * out_dt.itemsize}({r})"


def _wide_store(per, out_dt, pad):
    """A whole block's elements ``r0..`` as one or two stores into ``outw`` (uint32 words when
    the block is 4 bytes, else uint64)."""
    isz = out_dt.itemsize
    if isz * per == 4:
        parts = [f"(uint32({_bits(f'r{i}', out_dt)}) << uint32({8 * isz * i}))" for i in range(per)]
        return [f"{pad}outw[uint64(b)] = " + " | ".join(parts)]
    epw = 8 // isz                      # elements a uint64 word
    words = []
    for w in range(per // epw):
        parts = [f"uint64({_bits(f'r{w * epw + i}', out_dt)})"
                 + (f" << uint64({8 * isz * i})" if i else "") for i in range(epw)]
        words.append(" | ".join(f"({x})" if len(parts) > 1 else x for x in parts))
    if len(words) == 1:
        return [f"{pad}outw[uint64(b)] = {words[0]}"]
    if len(words) == 2:
        return [f"{pad}ptx.store16(outw, uint64(b), {words[0]}, {words[1]})"]
    return [f"{pad}ptx.store16(outw, uint64(b) << uint64(1), {words[0]}, {words[1]})",
            f"{pad}ptx.store16(outw, (uint64(b) << uint64(1)) | uint64(1), {words[2]}, {words[3]})"]


def _wide_dtype(out_dt, per):
    return np.dtype(np.uint32) if out_dt.itemsize * per == 4 else _U64


def _param_lines(e, arrays, ndim, pad, clamp=False):
    """Lines reading the array parameters at element ``e`` of the launch (``eg + e`` of the
    request; ``clamp``: at most the launch's last element)."""
    if not arrays:
        return []
    L = []
    if clamp:
        L.append(f"{pad}ea = {e}")
        L.append(f"{pad}ea = ea if ea < nn else nn - uint64(1)")
        e = "ea"
    L += _ew.unravel_lines(f"eg + {e}", ndim, pad, cast="int64")
    idx = ", ".join(f"c{d}_" for d in range(ndim))
    return L + [f"{pad}p{k} = P{k}[{idx}]" for k in arrays]


def _source(sampler, L, params):
    body = "\n".join(L) + "\n"
    text = device_source(sampler.helpers) + "\n\n" + body
    kname = f"rnd_{sampler.key}_{hashlib.sha1(text.encode()).hexdigest()[:10]}"
    text = text.replace("def KERNEL(", f"def {kname}(")
    # float64 constants from a table (H200 2026-12-04, 2^27 float64: standard_normal 674 ->
    # 645 us, exponential 658 -> 593 us; their libdevice log, sqrt and sincospi rebuilt every
    # constant with two UMOVs an iteration; float32 samplers unchanged)
    return KernelSource(kname, text, params, f64_table=True)


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
    arrays = False
    for p in params:
        if not isinstance(p, np.generic):
            arrays = True
            break
    aligned = out._ptr & 15 == 0
    if arrays:
        plan, values = _array_plan(sampler, out, params, compute)
    else:
        key = (sampler, compute, dt, aligned, *[p.dtype for p in params])
        plan = _PLANS.get(key)
        if plan is None:
            plan = _PLANS[key] = _plan(sampler, compute, dt, aligned,
                                       [("s", p.dtype) for p in params], 0)
        values = params
    kern, per, wide = plan
    blocks = -(-n // per)
    k, clo, chi = bitgen._reserve(n, per)
    isz = dt.itemsize
    ws = _wide_dtype(dt, per).itemsize
    tail = []
    for v in values:
        if v.__class__ is tuple:
            _, p, strides = v
            tail += _ew._arr_values(p._ptr, out.shape or (1,), strides, p.itemsize)
        else:
            tail.append(v)
    # A launch's counters keep one high word (the kernel adds the block to the low word
    # alone) and its blocks fit 31 bits (the loop's index is 32-bit): a request whose low
    # words wrap past 2^64, or of more blocks, is several launches, each from its first
    # block's counter.
    c0 = (chi << 64) | clo
    b0 = 0
    while b0 < blocks:
        c = (c0 + b0) & 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF
        lo, hi = c & 0xFFFFFFFFFFFFFFFF, c >> 64
        end = min(blocks, b0 + _LAUNCH_BLOCKS, b0 + (1 << 64) - lo)
        e0 = b0 * per
        m = min(n, end * per) - e0
        ptr = out._ptr + e0 * isz
        flat = [m, 0, 0, m, isz, ptr, m, isz]
        if wide:                # the same memory as words (the block stores)
            nw = m * isz // ws
            flat += [0, 0, nw, ws, ptr, nw, ws]
        flat += [k, lo, hi, e0]
        flat += tail
        nbl = -(-m // per)
        if _SIM:
            threads = _THREADS
            grid = max(1, min(_SIM_BLOCKS, -(-nbl // threads)))
        else:
            threads, resident = _launch_shape(kern, sampler.base is not None)
            grid = min(-(-nbl // threads), resident)
        kern(grid, threads, flat)
        b0 = end
    return out


def _array_plan(sampler, out, params, compute):
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
    return _plan(sampler, compute, out.dtype, out._ptr & 15 == 0, pspecs, ndim), values


def _plan(sampler, compute, out_dt, aligned, pspecs, ndim):
    """(launcher, per, wide) of a kernel variant (``aligned``: the output 16-byte aligned)."""
    per = sampler.per(compute)
    wide = aligned and sampler.base is not None and store_width(out_dt, per) > 0
    key = ("random", sampler.key, np.dtype(compute).str, out_dt.str, tuple(
        (k, d.str) for k, d in pspecs), ndim, wide)
    kern = compiler.get_kernel(key, lambda: render(sampler, compute, out_dt, pspecs, ndim, wide))
    return kern, per, wide


_RESIDENT = {}


def _launch_shape(kern, lanes):
    """(threads a block, blocks the whole GPU holds at once) of ``kern``: the grid of a large
    request is one resident wave with a grid-stride loop, which pays each thread's setup (key
    schedule, counter split) once per ~100 blocks instead of once per block, and leaves no
    partial last wave.  ``lanes``: a direct transform, in blocks of :data:`_THREADS_LANES`
    where two of them fill an SM."""
    from ..cuda import runtime
    dev = runtime.get_device_id()
    got = _RESIDENT.get((kern, dev))
    if got is None:
        threads = _THREADS
        if lanes and (kern.blocks_per_sm(_THREADS_LANES) or 0) * _THREADS_LANES >= 2048:
            threads = _THREADS_LANES
        got = _RESIDENT[(kern, dev)] = (threads, runtime.sm_count(dev) * min(
            kern.blocks_per_sm(threads) or 1, 2048 // threads))
    return got


# --- raw words (random_raw, bytes) --------------------------------------------------------
RAW = Sampler("raw32", "w32", "v")


def raw_words(bitgen, size):
    """``size`` raw uint32 words of the stream (a 0-d array when ``size`` is None)."""
    shape = () if size is None else (tuple(size) if np.iterable(size) else (int(size),))
    out = empty_array(shape, np.dtype(np.uint32))
    return launch(bitgen, RAW, out, [])
