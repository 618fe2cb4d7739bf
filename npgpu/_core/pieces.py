"""Contiguous pieces copied into one contiguous output by one launch (concatenate's pieces).

Each 16-byte unit ``i`` of the output finds its piece by comparing ``i`` with the pieces' end
units, and a thread copies four units ``blockDim.x`` apart over a grid covering the output
(all four loads in flight before the stores).  Two pieces of 2^25 float32 into 2^26 on the
H200 (benchmarks/experiments/copy_pieces.py, 2026-12-04, CUDA C forms of this kernel):
two driver copies 146.2 us (89.9% of the copy bandwidth), one launch with 128 threads a block
138.3 us (95.0%), 256 threads 139.6 us; a resident grid-stride loop 146.8 us; one 2^26 memcpy
136.1 us.  A second driver copy starts only after the first's tail; one launch has no seam.

Pieces must start 16-byte aligned and hold whole units (the caller checks :func:`fits`); up to
:data:`MAX_PIECES` pieces a launch.
"""
import numpy as np

from .._backend import IS_SIM
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param

MAX_PIECES = 8
_UNITS = 4                              # units a thread
_THREADS = 4 if IS_SIM else 128
_U64 = np.dtype(np.uint64)


def fits(ptrs, nbytes):
    """Whether pieces (and the output) at device addresses ``ptrs`` of ``nbytes`` bytes each can
    go as 16-byte units."""
    acc = 0
    for v in ptrs:
        acc |= v
    for v in nbytes:
        acc |= v
    return acc & 15 == 0


def _render(k):
    """Kernel source for ``k`` pieces: ``out`` and ``s0..`` as uint64 arrays (two words a
    unit), ``e1..e{k-1}`` the units before each piece after the first, ``n`` the units."""
    ends = [f"e{j}" for j in range(1, k)]
    srcs = [f"s{j}" for j in range(k)]
    L = [f"def KERNEL(n, out, {', '.join(srcs + ends)}):",
         "    bd = uint64(cuda.blockDim.x)",
         f"    i0 = uint64(cuda.blockIdx.x) * bd * uint64({_UNITS}) + uint64(cuda.threadIdx.x)",
         "    nn = uint64(n)"]
    for u in range(_UNITS):
        L += [f"    i{u} = i0 + uint64({u}) * bd" if u else "",
              f"    a{u} = uint64(0)", f"    b{u} = uint64(0)", f"    if i{u} < nn:"]
        for j in range(k):
            off = f"i{u} - uint64(e{j})" if j else f"i{u}"
            cond = "if" if j == 0 else "elif"
            if j == k - 1:
                L += ["        else:" if k > 1 else "        if True:"]
            else:
                L += [f"        {cond} i{u} < uint64(e{j + 1}):"]
            L += [f"            a{u}, b{u} = ptx.load16({srcs[j]}, {off})"]
    for u in range(_UNITS):
        L += [f"    if i{u} < nn:", f"        ptx.store16(out, i{u}, a{u}, b{u})"]
    text = "\n".join(x for x in L if x) + "\n"
    name = _ew._kernel_name(f"pieces_{k}", text)
    params = ([Param("scalar", np.dtype(np.int64)), Param("array", _U64, 1, "C")]
              + [Param("array", _U64, 1, "C")] * k + [Param("scalar", np.dtype(np.int64))] * (k - 1))
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


_KERNELS = {}      # pieces a launch -> launcher


def copy(dst_ptr, pieces):
    """Copy ``pieces`` ((device address, bytes), each 16-byte aligned and whole units, 2 to
    :data:`MAX_PIECES` of them) one after another into the output at ``dst_ptr``, in one
    launch.  (A call's host time is what an extra launch costs against the driver's copies:
    kept to list building and the launch.)"""
    k = len(pieces)
    kern = _KERNELS.get(k)
    if kern is None:
        kern = _KERNELS[k] = compiler.get_kernel(("pieces", k), lambda: _render(k))
    words = 0
    srcs = []
    ends = []
    for ptr, nbytes in pieces:
        n = nbytes >> 3
        srcs += (0, 0, n, 8, ptr, n, 8)
        words += n
        ends.append(words >> 1)
    units = words >> 1
    kern(-(-units // (_THREADS * _UNITS)), _THREADS,
         [units, 0, 0, words, 8, dst_ptr, words, 8, *srcs, *ends[:-1]])
