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
import hashlib

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
_THREADS = 4 if _SIM else 256        # the simulator pays per simulated thread and block
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


def render(sampler, compute, out_dt, pspecs, ndim):
    """Kernel source for ``sampler`` computing in ``compute``, storing ``out_dt``.

    pspecs: per parameter ``(kind, dtype)``, kind ``s`` (scalar) or ``a`` (array of ``ndim``
    dims, broadcast to the output)."""
    per = sampler.per(compute)
    names = ["n", "out", "key", "clo", "chi"]
    params = [Param("scalar", _I64), Param("array", out_dt, 1, "C"),
              Param("scalar", _U64), Param("scalar", _U64), Param("scalar", _U64)]
    for k, (kind, dt) in enumerate(pspecs):
        if kind == "s":
            names.append(f"p{k}")
            params.append(Param("scalar", dt))
        else:
            names.append(f"P{k}")
            params.append(Param("array", dt, ndim, "A"))
    arrays = [k for k, (kind, _) in enumerate(pspecs) if kind == "a"]
    span = GROUP * per                   # elements of one group (a power of two)
    # Index arithmetic is unsigned and by shifts: no signed-division fix-ups and no negative
    # index wraparound in Numba's array indexing (half of the old loop's instructions).
    L = [f"def KERNEL({', '.join(names)}):",
         "    k0 = uint32(key)",
         "    k1 = uint32(key >> uint64(32))",
         "    nn = uint64(n)",
         f"    nb = ((nn + uint64({span - 1})) >> uint64({span.bit_length() - 1})) << uint64(5)",
         "    b = uint64(cuda.grid(1))",
         "    step = uint64(cuda.gridsize(1))"]
    if sampler.base is None:
        L.append("    st = cuda.local.array(7, uint64)")
    if arrays:
        L += [f"    s{d} = P{arrays[0]}.shape[{d}]" for d in range(1, ndim)]
    L.append("    while b < nb:")
    P = "        "
    if sampler.base is not None:
        L.append(f"{P}x0, x1, x2, x3 = block(k0, k1, clo, chi, b, uint64(0))")
        L += [P + line for line in BASES[(sampler.base, _base_dt(sampler.base, compute))][1]]
        L.append(f"{P}e0 = ((b >> uint64(5)) << uint64({span.bit_length() - 1})) | "
                 "(b & uint64(31))")
    for lane in range(per):
        Q = P + "    "
        if sampler.base is not None:
            L.append(f"{P}e = e0 + uint64({GROUP * lane})" if lane else f"{P}e = e0")
        else:
            L.append(f"{P}e = b")
        L.append(f"{P}if e < nn:")
        if sampler.base is None:
            L.append(f"{Q}st_init(st, key, clo, chi, b)")
        if arrays:
            L += _ew.unravel_lines("e", ndim, Q, cast="int64")
            idx = ", ".join(f"c{d}_" for d in range(ndim))
            L += [f"{Q}p{k} = P{k}[{idx}]" for k in arrays]
        if sampler.base is not None:
            L.append(f"{Q}v = v{lane}")
        value = sampler.value.replace("LANE", str(lane))
        L.append(f"{Q}out[e] = {_store(value, out_dt)}")
    L.append("        b += step")
    body = "\n".join(L) + "\n"
    text = device_source(sampler.helpers) + "\n\n" + body
    kname = f"rnd_{sampler.key}_{hashlib.sha1(text.encode()).hexdigest()[:10]}"
    text = text.replace("def KERNEL(", f"def {kname}(")
    return KernelSource(kname, text, params)


def _store(value, out_dt):
    if out_dt.kind == "b":
        return f"({value}) != 0"
    return f"{_ew.type_name(out_dt)}({value})"


def launch(bitgen, sampler, out, params, compute=_F64):
    """Fill ``out`` (a C-contiguous npgpu array) with ``sampler`` draws from ``bitgen``.

    params: per parameter a NumPy scalar (passed as is) or an npgpu array broadcastable to
    ``out.shape``.  The counter is reserved even for an empty request of size 0 (nothing)."""
    n = out.size
    if n == 0:
        return out
    shape = out.shape if out.ndim else (1,)
    ndim = len(shape)
    pspecs, values = [], []
    for p in params:
        if isinstance(p, np.generic):
            pspecs.append(("s", p.dtype))
            values.append(p)
        else:
            pspecs.append(("a", p.dtype))
            strides = _ew.broadcast_strides(p.shape, p._strides, shape)
            values.append(("a", p, strides))
    key = ("random", sampler.key, np.dtype(compute).str, out.dtype.str, tuple(
        (k, d.str) for k, d in pspecs), ndim if any(k == "a" for k, _ in pspecs) else 0)
    kern = compiler.get_kernel(key, lambda: render(sampler, compute, out.dtype, pspecs, ndim))
    per = sampler.per(compute)
    k, clo, chi = bitgen._reserve(n, per)
    flat = [n, 0, 0, n, out.itemsize, out._ptr, n, out.itemsize, k, clo, chi]
    for v in values:
        if isinstance(v, tuple):
            _, p, strides = v
            flat += _ew._arr_values(p._ptr, shape, strides, p.itemsize)
        else:
            flat.append(v)
    nb = GROUP * -(-n // (GROUP * per))
    if _SIM:
        grid = max(1, min(_SIM_BLOCKS, -(-nb // _THREADS)))
    else:
        grid = min(-(-nb // _THREADS), _resident_blocks(kern))
    kern(grid, _THREADS, flat)
    return out


_SMS = {}


def _resident_blocks(kern):
    """Blocks of ``kern`` the whole GPU holds at once: the grid of a large request.  One wave
    with a grid-stride loop pays each thread's setup (key schedule, counter split) once per
    ~100 blocks instead of once per block, and leaves no partial last wave."""
    from ..cuda import runtime
    dev = runtime.Device()
    sms = _SMS.get(dev.id)
    if sms is None:
        sms = _SMS[dev.id] = dev.multiprocessor_count
    return sms * min(kern.blocks_per_sm(_THREADS) or 1, 2048 // _THREADS)


# --- raw words (random_raw, bytes) --------------------------------------------------------
RAW = Sampler("raw32", "w32", "v")


def raw_words(bitgen, size):
    """``size`` raw uint32 words of the stream (a 0-d array when ``size`` is None)."""
    shape = () if size is None else (tuple(size) if np.iterable(size) else (int(size),))
    out = empty_array(shape, np.dtype(np.uint32))
    return launch(bitgen, RAW, out, [])
