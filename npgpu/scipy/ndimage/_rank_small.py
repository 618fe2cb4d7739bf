"""Rank filters (median, rank_filter, percentile_filter) of small footprints: one kernel per
footprint, origin and rank, with the window in registers.

The footprint's tap offsets, its extent and the rank are render-time constants (the kernel is
keyed by them), so a tap's load is the thread's base address plus a constant times a stride: no
offset table, no per-tap index arithmetic beyond one multiply-add. Threads: x along the last
axis, y along the one before (a 1-D input is a (1, n) image), z along the rest (unravelled once
a row, not a pixel). A thread computes two outputs a row apart: inside the array each distinct
tap position is loaded once for both (a 3x3 window: 6 loads an output, not 9) and NVVM merges
the network operations they share (24 min/max an output for a 3x3 median, not 30). Outputs whose
whole windows lie inside the array load without boundary tests; near the edge each distinct
offset along an axis is mapped once through the runtime mode (``_boundary.any_mode_lines``: one
kernel serves every mode) and a tap reads ``cval`` where its row or column is outside under the
constant mode.

The rank is selected by a sorting network pruned at render time to the comparators (and of
those, the min or max halves) that reach the ranked slot: Batcher's merge exchange for the
window's size (for a 3x3 median the classic median-of-9 network: 30 min/max operations).
SciPy selects with a Hoare quickselect (``NI_Select``) whose result with NaN in the window
depends on the partition order, so a float window whose sum is NaN (a NaN, or infinities of
both signs) is instead selected by the same partition steps from a per-thread array: results
identical to SciPy, and the interior of a NaN-free image never touches local memory.  (A 1-D
input with NaN differs: SciPy >= 1.15 filters 1-D input by a sliding-window algorithm whose
NaN results depend on the window's history.)
"""
import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ...cuda import runtime as _rt
from . import _boundary
from ._image_launch import BLOCK, image_grid, image_layout, replay, rows_per_thread
from ._morphology import offsets as tap_offsets

MAX_TAPS = 27            # windows up to this many taps take this path (3x3, 5x5, 3x3x3)
_I64 = np.dtype(np.int64)
_SIM = _ew._SIM


# ---- selection network ---------------------------------------------------------------------
def _merge_exchange(n):
    """Batcher's merge-exchange sorting network for ``n`` wires (Knuth, TAOCP 5.2.2 M) as a
    list of comparators (i, j), i < j: wire i gets the min, wire j the max."""
    comps = []
    if n < 2:
        return comps
    t = (n - 1).bit_length()
    p = 1 << (t - 1)
    while p > 0:
        q, r, d = 1 << (t - 1), 0, p
        while True:
            comps += [(i, i + d) for i in range(n - d) if i & p == r]
            if q == p:
                break
            d, q, r = q - p, q >> 1, p
        p >>= 1
    return comps


# the 3x3 median: 19 comparators (min wire, max wire) of the classic median-of-9 network
# (sort the rows, then the columns, then the diagonal through the centre); 30 min/max once pruned
_MEDIAN9 = [(1, 2), (4, 5), (7, 8), (0, 1), (3, 4), (6, 7), (1, 2), (4, 5), (7, 8), (0, 3),
            (5, 8), (4, 7), (3, 6), (1, 4), (2, 5), (4, 7), (4, 2), (6, 4), (4, 2)]


def _prune(comps, rank):
    """The comparators of ``comps`` that the value on wire ``rank`` depends on, each with
    whether its min and its max output are read: (i, j, min_needed, max_needed)."""
    need = {rank}
    keep = []
    for i, j in reversed(comps):
        lo, hi = i in need, j in need
        if lo or hi:
            keep.append((i, j, lo, hi))
            need |= {i, j}
    keep.reverse()
    return keep


def selection_ops(n, rank):
    """The operations of a selection network for ``n`` values that the value of rank
    ``rank`` (0: smallest) depends on, in order: (kind, dst, a, b) with kind 'min' or 'max' and
    wire names as versions 'w{i}_{version}'; the result is the last version of wire ``rank``.
    Pruned backwards: a comparator whose min (max) output is never read drops its min (max)."""
    keep = _prune(_MEDIAN9 if (n, rank) == (9, 4) else _merge_exchange(n), rank)
    ver = [0] * n
    ops = []
    for i, j, lo, hi in keep:
        a, b = f"w{i}_{ver[i]}", f"w{j}_{ver[j]}"
        if lo:
            ver[i] += 1
            ops.append(("min", f"w{i}_{ver[i]}", a, b))
        if hi:
            ver[j] += 1
            ops.append(("max", f"w{j}_{ver[j]}", a, b))
    return ops, f"w{rank}_{ver[rank]}"


# ---- kernel ------------------------------------------------------------------------------------
def _select_source(T, tn, rank):
    """Device function ``nan_select(v0, .., v{T-1})``: SciPy's NI_Select (Hoare partition
    around the first element, then the side holding the rank) on a per-thread array of the
    values.  A device function so that Numba's zero-fill of the array runs only where it is
    called (at the kernel's entry it would cost every thread local stores).  The index guards
    never fire where SciPy's scans stay in range; they keep a GPU thread in bounds."""
    P = "    "
    L = ["@cuda.jit(device=True)",
         f"def nan_select({', '.join(f'v{t}' for t in range(T))}):",
         f"{P}buf = cuda.local.array({T}, {tn})"]
    L += [f"{P}buf[{t}] = v{t}" for t in range(T)] + [
        f"{P}lo = 0", f"{P}hi = {T - 1}", f"{P}rk = RANK_",
        f"{P}while lo < hi:",
        f"{P}    x = buf[uint64(lo)]", f"{P}    ii = lo - 1", f"{P}    jj = hi + 1",
        f"{P}    while True:",
        f"{P}        jj -= 1",
        f"{P}        while jj > lo and buf[uint64(jj)] > x:",
        f"{P}            jj -= 1",
        f"{P}        ii += 1",
        f"{P}        while ii < hi and buf[uint64(ii)] < x:",
        f"{P}            ii += 1",
        f"{P}        if ii < jj:",
        f"{P}            tmp = buf[uint64(ii)]",
        f"{P}            buf[uint64(ii)] = buf[uint64(jj)]",
        f"{P}            buf[uint64(jj)] = tmp",
        f"{P}        else:",
        f"{P}            break",
        f"{P}    m = jj - lo + 1",
        f"{P}    if rk < m:", f"{P}        hi = jj",
        f"{P}    else:", f"{P}        lo = jj + 1", f"{P}        rk -= m",
        f"{P}return buf[uint64(lo)]"]
    return "\n".join(L).replace("RANK_", str(int(rank))) + "\n"


def _network_source(T, rank):
    """Device function ``rank_net(w0_0, .., w{T-1}_0)``: the value of rank ``rank`` by the
    pruned network.  One function called once a window: Numba types and lowers the network
    once a kernel (and CI's PTX check once a worker for all kernels of the network), not once
    a call site (a 3x3x3 or 5x5 window's kernel compiled 2.5x faster).  NVVM inlines it at
    every call and merges the operations the calls of a thread share: the same PTX as the
    network written out at each call (checked at -O3 for float and integer windows, up to
    the order of min/max operands).  Not for bool: Numba passes a bool as a byte, which
    changes the PTX (:func:`_render` writes bool networks out)."""
    ops, res = selection_ops(T, rank)
    L = ["@cuda.jit(device=True)",
         f"def rank_net({', '.join(f'w{t}_0' for t in range(T))}):"]
    L += [f"    {dst} = {kind}({a}, {b})" for kind, dst, a, b in ops]
    return "\n".join(L + [f"    return {res}"]) + "\n"


def _network_lines(names, rank, P, acc, inline=False):
    """Lines leaving in ``acc`` the value of rank ``rank`` among the variables ``names`` by
    the pruned network: a call of :func:`_network_source`'s ``rank_net``, or (``inline``) the
    network written out (``acc`` names its wires: several windows can share a block)."""
    if not inline:
        return [f"{P}{acc} = rank_net({', '.join(names)})"]
    ops, res = selection_ops(len(names), rank)
    sfx = f"_{acc}"
    net = [f"{P}w{t}_0{sfx} = {v}" for t, v in enumerate(names)]
    net += [f"{P}{dst}{sfx} = {kind}({a}{sfx}, {b}{sfx})" for kind, dst, a, b in ops]
    return net + [f"{P}{acc} = {res}{sfx}"]


def _select_lines(names, in_dt, rank, P, acc):
    """Like :func:`_network_lines`; for a float window whose sum is NaN (a NaN, or infinities
    of both signs) SciPy's quickselect instead."""
    if in_dt.kind != "f":
        return _network_lines(names, rank, P, acc, inline=in_dt.kind == "b")
    return ([f"{P}s_{acc} = " + " + ".join(names), f"{P}if s_{acc} == s_{acc}:"]
            + _network_lines(names, rank, P + "    ", acc)
            + [f"{P}else:", f"{P}    {acc} = nan_select({', '.join(names)})"])


def _render(nd, in_dt, out_dt, offsets, rank, R):
    """``offsets``: (T, nd) int tap offsets (footprint order, origins applied) of an ``nd``-axis
    array (nd >= 2); ``rank``: the rank selected.  A thread computes ``R`` outputs
    consecutive along axis ``nd - 2``: inside the array each distinct tap position is loaded
    once for all of them, and NVVM merges the network operations they share (a 3x3 median's
    network sorts the footprint's rows first: a row sorted for one output serves the next)."""
    T = len(offsets)
    tn = _ew.type_name(in_dt)
    lo = offsets.min(axis=0)
    hi = offsets.max(axis=0)
    last, y = nd - 1, nd - 2
    L = ["def KERNEL(X, Y, cval, mode):"]
    L += [f"    n{d} = X.shape[{d}]" for d in range(nd)]
    L += [f"    c{last} = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x",
          f"    if c{last} >= n{last}:", "        return",
          f"    cys = (cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y) * {R}",
          "    lead = " + " * ".join(["int64(1)"] + [f"n{d}" for d in range(nd - 2)]),
          "    z = int64(cuda.blockIdx.z)",
          # the column test is the same for every row of the thread
          f"    inx = c{last} >= {-lo[last]} and c{last} + {hi[last]} < n{last}",
          "    while z < lead:"]
    if nd > 2:
        L += _ew.unravel_lines("z", nd - 2, "        ", extent="n{d}", coord="c{d}")
    L += [f"        c{y} = cys", f"        while c{y} < n{y}:"]
    P = "            "
    Q = P + "    "
    # inside: every output of the thread exists and every window lies inside the array
    conds = ["inx", f"c{y} >= {-lo[y]}", f"c{y} + {R - 1 + max(int(hi[y]), 0)} < n{y}"]
    conds += [f"c{d} >= {-lo[d]} and c{d} + {hi[d]} < n{d}" for d in range(nd - 2)]
    L.append(f"{P}if {' and '.join(conds)}:")
    pos = {}            # distinct tap position -> its variable
    for o in range(R):
        for off in offsets:
            p = tuple(int(v) + (o if d == y else 0) for d, v in enumerate(off))
            if p not in pos:
                pos[p] = f"u{len(pos)}"
                idx = ", ".join(f"uint64(c{d} + {q})" if q else f"uint64(c{d})"
                                for d, q in enumerate(p))
                L.append(f"{Q}{pos[p]} = X[{idx}]")
    names = [[pos[tuple(int(v) + (o if d == y else 0) for d, v in enumerate(off))]
              for off in offsets] for o in range(R)]
    if in_dt.kind == "f" and R > 1:
        # the outputs' networks in one block, so that NVVM merges their shared operations;
        # a NaN sum over all their taps sends each window to its own test
        L += [f"{Q}s_ = " + " + ".join(pos.values()), f"{Q}if s_ == s_:"]
        for o in range(R):
            L += _network_lines(names[o], rank, Q + "    ", f"a{o}")
        L.append(f"{Q}else:")
        for o in range(R):
            L += _select_lines(names[o], in_dt, rank, Q + "    ", f"a{o}")
    else:
        for o in range(R):
            L += _select_lines(names[o], in_dt, rank, Q, f"a{o}")
    for o in range(R):
        cs = ", ".join(f"uint64(c{d} + {o})" if d == y and o else f"uint64(c{d})"
                       for d in range(nd))
        L.append(f"{Q}Y[{cs}] = {_ew.cast_expr(f'a{o}', in_dt, out_dt)}")
    # edge: one output at a time; each distinct offset of an axis mapped once (j{d}_{k} and
    # its oob flag b{d}_{k}), e the output's coordinates
    E = Q + "        "
    L += [f"{P}else:", f"{Q}for o in range({R}):",
          f"{Q}    if c{y} + o < n{y}:"]
    L += [f"{E}e{d} = c{d} + o" if d == y else f"{E}e{d} = c{d}" for d in range(nd)]
    for d in range(nd):
        for o in sorted(set(int(v) for v in offsets[:, d])):
            k = f"{d}_{o + 64}"
            L.append(f"{E}b{k} = False")
            L += _boundary.any_mode_lines("mode", f"e{d} + {o}" if o else f"e{d}", f"n{d}",
                                          f"j{k}", E, f"b{k}")
    for t, off in enumerate(offsets):
        ks = [f"{d}_{int(o) + 64}" for d, o in enumerate(off)]
        idx = ", ".join(f"uint64(j{k})" for k in ks)
        oob = " or ".join(f"b{k}" for k in ks)
        L.append(f"{E}v{t} = cval if {oob} else X[{idx}]")
    L += _select_lines([f"v{t}" for t in range(T)], in_dt, rank, E, "acc")
    cs = ", ".join(f"uint64(e{d})" for d in range(nd))
    L += [f"{E}Y[{cs}] = {_ew.cast_expr('acc', in_dt, out_dt)}",
          f"{P}c{y} += cuda.gridDim.y * cuda.blockDim.y * {R}",
          "        z += cuda.gridDim.z"]
    text = "\n".join(L) + "\n"
    if in_dt.kind != "b":
        text = _network_source(T, rank) + "\n\n" + text
    if in_dt.kind == "f":
        text = _select_source(T, tn, rank) + "\n\n" + text
    name = _ew._kernel_name("ndi_rank_small", text)
    params = [Param("array", in_dt, nd), Param("array", out_dt, nd), Param("scalar", in_dt),
              Param("scalar", _I64)]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


_plans = {}      # (layout, dtypes, footprint, origins, rank) -> launch plan


def _cval(dt, cval):
    """``cval`` in the input dtype as SciPy's C cast makes it (to bool: 0.5 truncates to 0)."""
    return dt.type(int(cval)) if dt.kind == "b" else dt.type(cval)


def rank_pass(src, dst, footprint, origins, mode, cval, rank):
    """One launch: ``dst`` (same shape as ``src``, not overlapping it) = the value of rank
    ``rank`` over the taps where ``footprint`` (host bool, src.ndim axes) is set, centred at
    ``shape // 2 + origins``.  False (nothing launched) where the footprint has more than
    :data:`MAX_TAPS` taps: the caller takes the general n-D template."""
    key = (_rt.get_device_id(), src.shape, src._strides, dst._strides, src.dtype, dst.dtype,
           footprint.shape, footprint.tobytes(), tuple(origins), rank)
    plan = _plans.get(key)
    if plan is None:
        # the tap count and the empty cases only on a miss (a plan exists only where launched)
        if src.ndim == 0 or int(np.count_nonzero(footprint)) > MAX_TAPS:
            return False
        if src.size == 0:
            return True
        plan = replay(_plans, key, lambda: _plan(src, dst, footprint, origins, rank))
    kern, grid, block, sv, dv = plan
    code = _mode_codes.get(mode) if mode.__class__ is str else None
    if code is None:
        code = _boundary.code(mode)
        if mode.__class__ is str:
            _mode_codes[mode] = code
    values = ([0, 0, sv[0], sv[1], src._ptr] + sv[2] + [0, 0, dv[0], dv[1], dst._ptr] + dv[2]
              + [_cval(src.dtype, cval), code])
    kern(grid, block, values)
    return True


_mode_codes = {}        # mode name -> its runtime code (known names only: code() raised else)


def _plan(src, dst, footprint, origins, rank):
    shape, sst, dstt, offsets = image_layout(src, dst, tap_offsets(footprint, origins))
    nd = len(shape)
    R = rows_per_thread(shape)
    key = ("ndi_rank_small", nd, src.dtype, dst.dtype, offsets.tobytes(), offsets.shape,
           int(rank), R)
    kern = compiler.get_kernel(key, lambda: _render(nd, src.dtype, dst.dtype, offsets, rank, R))
    n = src.size
    return (kern, image_grid(shape, R), (*BLOCK, 1), (n, src.itemsize, [*shape, *sst]),
            (n, dst.itemsize, [*shape, *dstt]))
