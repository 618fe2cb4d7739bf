"""Device-wide radix sort by CUB's onesweep kernels (NVIDIA CCCL), on the GPU.

Issue 14 lets the sorting primitive be CUB's, taken when it is faster on the H200 (it is:
``docs/sorting.md`` has the measurements).  CUB's device-wide sort is host code that launches
its kernels; npgpu cannot run nvcc, so it compiles the kernels themselves with NVRTC
(:class:`npgpu.RawModule`: the disk cache holds the cubin, a later process loads it in
milliseconds) and does the host part here, as CUB 3.5's ``DispatchRadixSort`` does it for
inputs of one portion (below 2^28 elements):

1. ``init``: zero the digit counts of every pass, the tile counters and (up to
   ``LOOK_AHEAD_BYTES``) every pass's look-back statuses, in one launch;
2. ``histogram``: every pass's digit counts in one read of the keys;
3. ``exclusive_sum``: each pass's digit starts;
4. per pass, ``onesweep``: each tile ranks its keys, finds its digits' offsets by a decoupled
   look-back over the earlier tiles' counts (its own zeroed statuses) and scatters keys and
   values -- one read and one write a pass.

The headers come from the ``nvidia-cuda-cccl`` wheel (numba-cuda's ``cu13`` extra installs
it); the kernels' template signatures are CUB 3.5's, so the source refuses any other version
(``#error``) and :func:`available` is then False: the generated radix sort of
:mod:`.radix` runs instead, with identical results (CI tests that one on the simulator).

Keys are the values themselves: CUB orders signed integers and floats as NumPy does, except
NaN (CUB orders NaNs by their bits: a NaN with its sign bit set comes before -inf), which
:mod:`.nan_tail` puts last in input order afterwards, on the device.  ``-0.0`` and ``+0.0``
are equal to CUB and keep their input order, as in NumPy's stable sort.
"""
import os
import threading

import numpy as np

from .. import _backend
from .._core.ndarray import empty_array
from ..creation import arange

_I32 = np.dtype(np.int32)
_U32 = np.dtype(np.uint32)
# C++ key type of each (kind, itemsize) CUB sorts here
_CTYPE = {("u", 1): "unsigned char", ("u", 2): "unsigned short", ("u", 4): "unsigned int",
          ("u", 8): "unsigned long long", ("i", 1): "signed char", ("i", 2): "short",
          ("i", 4): "int", ("i", 8): "long long", ("f", 4): "float", ("f", 8): "double",
          ("b", 1): "unsigned char"}
# Smallest input sorted here (CUB itself takes other algorithms below ~2^16; npgpu's own
# kernels are measured there); the most: one portion of CUB's look-back
MIN_N = int(os.environ.get("NPGPU_CUB_SORT_MIN", str(1 << 17)))
MAX_N = (1 << 28) - (1 << 16)
# NPGPU_CUB_SORT=0: always npgpu's generated radix sort
ENABLED = os.environ.get("NPGPU_CUB_SORT", "1") != "0" and _backend.IS_CUDA

_HEAD = r"""
// CUB's kernels call these device-runtime functions (programmatic dependent launch); NVRTC
// declares neither, and npgpu launches without PDL, where both do nothing
__device__ __forceinline__ void cudaGridDependencySynchronize()
{ asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void cudaTriggerProgrammaticLaunchCompletion()
{ asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }
#include <cub/version.cuh>
#if CUB_VERSION < 300500 || CUB_VERSION >= 300600
#error "npgpu drives CUB 3.5's radix sort kernels"
#endif
#include <cub/device/dispatch/kernels/kernel_radix_sort.cuh>
#include <cub/device/dispatch/tuning/tuning_radix_sort.cuh>
namespace rs = cub::detail::radix_sort;
"""

_BODY = r"""
using K = {key};
using V = {value};
using O = unsigned int;
// CUB's tuning for these types; npgpu's experiments may replace the onesweep tile's shape
struct Sel
{{
  _CCCL_HOST_DEVICE_API constexpr auto operator()(::cuda::compute_capability cc) const
    -> cub::RadixSortPolicy
  {{
    auto p = rs::policy_selector_from_types<K, V, O>{{}}(cc);
    {tune}
    return p;
  }}
}};
constexpr auto P = Sel{{}}(::cuda::compute_capability{{{major}, {minor}}});
extern "C" __global__ void npgpu_cub_policy(int* out)
{{
    out[0] = P.onesweep.threads_per_block;
    out[1] = P.onesweep.items_per_thread;
    out[2] = P.onesweep.radix_bits;
    out[3] = P.histogram.threads_per_block;
    out[4] = P.exclusive_sum.threads_per_block;
    out[5] = P.histogram.radix_bits;
    out[6] = P.exclusive_sum.radix_bits;
}}
"""

_NAMES = {
    "init": "rs::DeviceRadixSortInitKernel<Sel, int, O>",
    "hist": "rs::DeviceRadixSortHistogramKernel<Sel, cub::SortOrder::Ascending, K, O, "
            "cub::detail::identity_decomposer_t>",
    "exsum": "rs::DeviceRadixSortExclusiveSumKernel<Sel, O>",
    "sweep": "rs::DeviceRadixSortOnesweepKernel<Sel, cub::SortOrder::Ascending, K, V, O, int, "
             "int, cub::detail::identity_decomposer_t>",
}

# (key ctype, value ctype or None) -> (threads, items) of the onesweep tile instead of CUB's
# tuning for the GPU.  H200, 2026-12-04 (benchmarks/experiments/cub_sort_parts.py --tune),
# keys only: float 512 x 20 (CUB's own choice for sm_100; for sm_90 it takes 384 x 19): sort
# float32 2^24 577 -> 525 us, 2^26 1851 -> 1618 us; double 256 x 20 (CUB: 384 x 15): float64
# 2^24 1308 -> 1234 us, 2^26 4582 -> 4249 us (320 x 16, 288 x 18, 256 x 22 slower; larger
# tiles of 8-byte keys need more than a block's 48 KiB of static shared memory); int keys
# gained nothing (440 / 1340 us either way).
TUNE = {("float", None): (512, 20), ("double", None): (256, 20)}
_lock = threading.Lock()
_plans = {}             # (key ctype, value ctype or None, device) -> _Plan or an exception
_NO_DECOMPOSER = np.uint8(0)      # CUB's empty identity_decomposer_t parameter (1 byte)


def _cccl_include():
    """The CCCL headers' directory of the ``nvidia-cuda-cccl`` wheel, or None."""
    try:
        import nvidia
    except ImportError:
        return None
    for base in nvidia.__path__:
        for sub in ("cu13", "cu12"):
            d = os.path.join(base, sub, "include", "cccl")
            if os.path.isfile(os.path.join(d, "cub", "version.cuh")):
                return d
    return None


def source(key, value, cc, tune=None):
    """CUDA C++ of the sort kernels for C++ key type ``key`` and value type ``value`` (None:
    keys only) on compute capability ``cc`` (an int such as 90); ``tune``: (threads, items)
    of the onesweep tile instead of CUB's."""
    t = ("p.onesweep.threads_per_block = %d; p.onesweep.items_per_thread = %d;" % tune[:2]
         if tune else "")
    if tune and len(tune) > 2:      # an experiment's digit width (every kernel shares it)
        t += ("p.onesweep.radix_bits = p.histogram.radix_bits = p.exclusive_sum.radix_bits"
              " = %d;" % tune[2])
    return _HEAD + _BODY.format(key=key, value=value or "cub::NullType",
                                major=cc // 10, minor=cc % 10, tune=t)


def module(key, value, cc, tune, inc):
    """The :class:`npgpu.RawModule` of :func:`source` (compiled by NVRTC, or from the disk
    cache) with the CCCL headers of directory ``inc``."""
    from ..kernels.raw import RawModule
    return RawModule(code=source(key, value, cc, tune),
                     options=("-std=c++17", f"-I{inc}", "-DCUB_DISABLE_BF16_SUPPORT"),
                     name_expressions=tuple(_NAMES.values()))


class _Plan:
    """The compiled kernels of one (key, value) type pair and CUB's launch shapes for them."""

    def __init__(self, key, value):
        from ..cuda import runtime as _rt
        inc = _cccl_include()
        if inc is None:
            raise RuntimeError("the CCCL headers (nvidia-cuda-cccl) are not installed")
        dev = _rt.get_device_id()
        cc = int(_rt.Device(dev).compute_capability)
        self.module = module(key, value, cc, TUNE.get((key, value)), inc)
        self.k = {n: self.module.get_function(e) for n, e in _NAMES.items()}
        from ..creation import zeros
        buf = zeros((8,), _I32)
        self.module.get_function("npgpu_cub_policy")((1,), (1,), (buf,))
        (self.threads, self.items, self.bits, self.hist_threads, self.exsum_threads,
         hbits, ebits, _) = (int(v) for v in buf.get())
        assert hbits == ebits == self.bits, (hbits, ebits, self.bits)
        self.tile = self.threads * self.items
        # the histogram kernel loops over the keys with as many blocks as fit on the GPU
        from cuda.bindings import driver
        func = self.module._function(self.k["hist"]._fn.entry)
        err, per_sm = driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(
            func, self.hist_threads, 0)
        if err != driver.CUresult.CUDA_SUCCESS:
            per_sm = 1
        self.hist_blocks = max(1, per_sm) * _rt.sm_count(dev)


def plan(key, value):
    """The :class:`_Plan` of a type pair (compiled once a process; the cubin from the disk
    cache after the first process), or None when CUB cannot be used here."""
    from ..cuda import runtime as _rt
    k = (key, value, _rt.get_device_id(), TUNE.get((key, value)))
    p = _plans.get(k)
    if p is None:
        with _lock:
            p = _plans.get(k)
            if p is None:
                try:
                    p = _Plan(key, value)
                except Exception as e:        # no headers, another CUB, NVRTC failure
                    if os.environ.get("NPGPU_CUB_SORT_DEBUG"):
                        raise
                    p = e
                _plans[k] = p
    return None if isinstance(p, Exception) else p


def key_type(part):
    """The C++ key type CUB sorts ``part``'s values as (NumPy's order, up to NaN), or None."""
    if part.src is None or part.flip:
        return None
    if part.kind == "float":
        return _CTYPE.get(("f", part.w))
    if part.kind != "xor":
        return None
    if part.bits == 1:                             # bool
        return _CTYPE[("b", 1)]
    sign = 1 << (part.bits - 1)
    if part.xor not in (0, sign) or part.bits != 8 * part.w:
        return None
    return _CTYPE[("i" if part.xor == sign else "u", part.w)]


def applies(parts, n, payload, mod):
    """Whether :func:`sort` takes this sort: the GPU, one part of an ascending key CUB orders
    as NumPy does, no row ids, a size CUB's one portion holds."""
    if not ENABLED or mod or len(parts) != 1 or not MIN_N <= n <= MAX_N:
        return False
    return key_type(parts[0]) is not None


# Every pass's look-back statuses are zeroed by the sort's first launch while they take at
# most this many bytes (one launch instead of one a pass); larger sorts zero one pass's
# statuses before each pass in a single region
LOOK_AHEAD_BYTES = 64 << 20
_layouts = {}           # (plan, n, key bits) -> _Layout


class _Layout:
    """One sort's launch shapes and workspace offsets (words of 4 bytes): the digit starts of
    every pass, the passes' tile counters and the NaN repair's two counters, the look-back's
    statuses (every pass's, or one region reused)."""

    def __init__(self, p, n, bits):
        R = 1 << p.bits
        self.npass = npass = -(-bits // p.bits)
        self.R = R
        self.nblocks = nblocks = -(-n // p.tile)
        self.nlook = nlook = nblocks * R
        self.nz = npass + 2
        self.ahead = npass * nlook * 4 <= LOOK_AHEAD_BYTES
        self.ctrs = npass * R                       # offsets in words
        self.look = self.ctrs + self.nz
        self.words = self.look + (npass * nlook if self.ahead else nlook)
        nzero = self.words if self.ahead else self.look
        self.zero = (nzero, (min(-(-nzero // 256), 4096),))
        self.look_grid = (min(-(-nlook // 256), 4096),)


def _layout(p, n, bits):
    k = (p, n, bits)
    lay = _layouts.get(k)
    if lay is None:
        if len(_layouts) > 64:
            _layouts.clear()
        lay = _layouts[k] = _Layout(p, n, bits)
    return lay


def sort(part, n, payload, out):
    """Sort ``n`` values of ``part`` (its ``src``: the values' unsigned bits); ``payload``:
    "index" -- ``out`` receives the permutation (any integer dtype), else the sorted values'
    bits.  Returns ``out``, or None when CUB's kernels are not available (the caller sorts).

    The device waits for the host until the first launch (a timed call includes that wait),
    so the workspace is allocated and the keys' histogram launched first, and the workspace is
    addressed by pointers, not array views."""
    index = payload == "index"
    p = plan(key_type(part), "int" if index else None)
    if p is None:
        return None
    X = part.src
    lay = _layout(p, n, part.bits)
    npass, R = lay.npass, lay.R
    ws = empty_array((lay.words,), _U32)
    w = ws._ptr
    ctrs = w + 4 * lay.ctrs
    nzero, grid = lay.zero
    p.k["init"](grid, (256,), (w, nzero, w, 0))
    p.k["hist"]((p.hist_blocks,), (p.hist_threads,), (w, X, n, 0, part.bits, _NO_DECOMPOSER))
    p.k["exsum"]((npass,), (p.exsum_threads,), (w,))
    kdt = X.dtype
    # two buffers a pass writes alternately; the last pass writes the caller's array
    keys_out = out if not index else empty_array((n,), kdt)
    ktmp = empty_array((n,), kdt)
    if index:
        vin = arange(n, dtype=_I32)
        vres = out if out.dtype == _I32 else empty_array((n,), _I32)
        vtmp = empty_array((n,), _I32)
        vcur = vin._ptr
    else:
        vcur = 0
    kin = X._ptr
    look = w + 4 * lay.look
    step = 4 * lay.nlook if lay.ahead else 0
    for q in range(npass):
        last_parity = (npass - 1 - q) % 2 == 0
        kdst = (keys_out if last_parity else ktmp)._ptr
        vdst = (vres if last_parity else vtmp)._ptr if index else 0
        if not lay.ahead:
            p.k["init"](lay.look_grid, (256,), (look, lay.nlook, look, 0))
        bit = q * p.bits
        p.k["sweep"]((lay.nblocks,), (p.threads,), (
            look + q * step, ctrs + 4 * q, 0, w + 4 * q * R, kdst, kin, vdst, vcur, n, bit,
            min(p.bits, part.bits - bit), _NO_DECOMPOSER))
        kin, vcur = kdst, vdst
    if part.kind == "float":
        from . import nan_tail
        fdt = _float_dtype(part.w)
        S = keys_out.view(fdt)
        nan_tail.place(X.view(fdt), S, vres if index else S, vtmp if index else ktmp.view(fdt),
                       ws[lay.ctrs + npass:lay.ctrs + npass + 2].view(_I32))
    if index and vres is not out:
        out[...] = vres
    return out


def _float_dtype(w):
    return np.dtype(np.float32) if w == 4 else np.dtype(np.float64)
