"""The two filter templates of ``npgpu.scipy.ndimage`` and their launches.

* ``line`` -- one pass along one axis (correlate1d, uniform, minimum/maximum 1-D; the separable
  filters run one launch per axis).  The array is viewed as ``(A, B, C)`` with the filtered
  axis at position 1 (``C`` the collapsed axes after it, more than one element) or 2 (the
  filtered axis is the innermost).  Threads: x along ``C``, y along ``B``, z along ``A``; a
  thread computes ``R`` outputs.  Position 1: ``R`` consecutive outputs (a warp's loads are
  rows of 32 elements) from a window of ``R - 1`` values carried in registers, the taps
  ``_LINE_CHUNK`` at a time: a chunk's rows are loaded at once (independent loads in flight
  hide DRAM latency), then each weight serves ``R`` FMAs.  Position 2: the block stages its
  row segment and the halo in shared memory, every thread's ``R`` loads at once (windows of
  at most ``HALO + 1`` taps; longer ones read through L1) and thread ``t`` computes outputs
  ``t + o * blockDim``.  Windows inside the axis load without boundary tests; edge windows and
  the staged loads map their indices through ``fetch``, every mode's lines under a switch on a
  runtime mode code (``_boundary.any_mode_lines``: one kernel serves all modes, and inside the
  axis a load costs one two-sided compare).  Weights are a small device array (uniform across
  the warp: one cached load a tap).  Indices are unsigned, so Numba adds no negative-index
  wraparound and NVVM turns index times stride into pointer steps.  Launch bounds fit the
  registers to 4 resident blocks of 256 threads (64; 2 blocks for 8-byte work at position 1),
  without spills.
* ``nd`` -- an n-D footprint (correlate/convolve with n-D weights, minimum/maximum with a
  footprint, rank/median/percentile).  Threads: x along the last axis, y along the one before,
  z along the rest.  Tap offsets are a ``(T, nd)`` device array; an output whose whole
  footprint lies inside the array reads without boundary tests.  Rank windows select
  from a local array by counting (windows of at most 27 taps take ``_rank_small``'s kernels).

Work dtype: float32 for a weighted/mean filter from float32 to float32 (float32 work stays
float32: float64 arithmetic and conversions would halve the speed), float64 for every other
weighted one (as SciPy computes); minimum/maximum/rank work in the
input dtype (exact).  The result is cast to the output dtype by NumPy's cast rules (float to
integer truncates, as SciPy's C cast does).
"""
import numpy as np

from ..._codegen import compiler
from ...cuda import runtime as _rt
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from . import _boundary
from ._image_launch import BLOCK as _ND_BLOCK, GRID_YZ as _GRID_YZ, image_grid, remember, \
    image_layout, replay

_I64 = np.dtype(np.int64)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_SIM = _ew._SIM
# block shapes (x, y): the line pass along an inner axis reads rows of 32 elements and shares
# the window of 8 rows in L1; the pass along the innermost axis reads 128-element runs
_LINE_BLOCK = {1: (32, 8), 2: (256, 1)} if not _SIM else {1: (4, 2), 2: (4, 1)}
# outputs a thread of the line template computes (ax 1: consecutive rows; ax 2: a block width
# apart); the simulator takes 2 so that the tests' small arrays run both paths
_LINE_OUTPUTS = {1: 8, 2: 8} if not _SIM else {1: 2, 2: 2}
# taps beyond the first that the shared-memory row stage holds (ax 2); the simulator keeps it
# small so that the tests run both the staged and the direct lines
HALO = 64 if not _SIM else 6


def work_dtype(op, in_dt, out_dt):
    """The dtype a filter of kind ``op`` computes in for input dtype ``in_dt`` and output
    dtype ``out_dt``."""
    if op in ("corr", "mean"):
        return _F32 if in_dt == _F32 and out_dt == _F32 else _F64
    return in_dt


# ---- line template --------------------------------------------------------------------------
# op -> (initial accumulator, step with the tap value v and weight w, final expression).  The
# weighted step is one FMA (one rounding, closer to SciPy's double sum than mul + add)
LINE_OPS = {
    "corr": ("zero", "{a} = cuda.fma({w}, {v}, {a})", "{a}"),
    "mean": ("zero", "{a} = {a} + {v}", "{a} / {tn}(K)"),
    "min": ("first", "{a} = min({a}, {v})", "{a}"),
    "max": ("first", "{a} = max({a}, {v})", "{a}"),
}
# taps a thread of the inner-axis line pass loads at once: independent loads in flight hide
# DRAM latency (one load per tap in a loop leaves a thread waiting on each); the simulator
# takes 3 so that the tests' short windows run whole and partial chunks
_LINE_CHUNK = 8 if not _SIM else 3
# resident blocks of 256 threads an SM keeps of a line pass, by position and work itemsize:
# ptxas fits the registers to it (64 a thread; 128 for 8-byte work at position 1, whose edge
# windows' mapped loads would spill at fewer) so that enough loads are in flight
_LINE_MIN_BLOCKS = {(1, 4): 4, (1, 8): 2, (2, 4): 4, (2, 8): 4}


def _line_fetch_source(ax, in_dt, wk):
    """Device function ``fetch(X, c0, c1, c2, n, mode, cval)``: ``X[c0, c1, c2]`` with the
    coordinate along axis ``ax`` (any integer) mapped into ``[0, n)`` by the boundary mode, in
    the work dtype.  Edge windows and staged rows call it: one body for Numba to type, inlined
    by NVVM; inside the axis it costs one two-sided compare."""
    c = ["c0", "c1", "c2"]
    c[ax] = "j"
    L = ["@cuda.jit(device=True)", "def fetch(X, c0, c1, c2, n, mode, cval):", "    oob = False"]
    L += _boundary.any_mode_lines("mode", f"c{ax}", "n", "j", "    ")
    L += ["    if oob:", "        return cval",
          "    return " + _ew.cast_expr(f"X[{', '.join(f'uint64({i})' for i in c)}]", in_dt, wk)]
    return "\n".join(L) + "\n"


def _render_line(op, ax, in_dt, out_dt, wk, R, bx=None):
    """A thread computes ``R`` outputs along the filtered axis: consecutive ones for ``ax`` 1
    (a column pass: rows of a warp are coalesced, each weight loaded once for ``R`` outputs,
    the window's rows loaded ``C`` at a time) and ones a block width apart for ``ax`` 2 (the
    block's row segment staged in shared memory)."""
    tn = _ew.type_name(wk)
    init, step, final = LINE_OPS[op]
    first = init == "first"
    seg = (bx or 0) * R         # outputs of a block's row segment (ax 2: blockDim.x == bx)
    uses_w = "{w}" in step
    C = _LINE_CHUNK
    n = f"n{ax}"

    def at(j, edge=False):
        # unsigned indices: Numba adds no negative-index wraparound (4 64-bit operations and
        # a select per load), and NVVM turns the loop's index times stride into a pointer step
        idx = ["c0", "c1", "c2"]
        idx[ax] = j
        if edge:
            return f"fetch(X, {', '.join(idx)}, {n}, mode, cval)"
        return _ew.cast_expr(f"X[{', '.join(f'uint64({i})' for i in idx)}]", in_dt, wk)

    def stp(a, v, w="w"):
        return step.format(a=a, v=v, w=w)

    def res(a):
        return _ew.cast_expr(final.format(a=a, tn=tn), wk, out_dt)

    L = ["def KERNEL(X, Y, W, r, cval, mode):",
         "    n0 = X.shape[0]", "    n1 = X.shape[1]", "    n2 = X.shape[2]",
         "    K = W.shape[0]"]
    P, Q, E = " " * 16, " " * 20, " " * 24
    if ax == 1:
        L += ["    c2 = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x",
              "    if c2 >= n2:", "        return",
              f"    g1 = (cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y) * {R}",
              f"    gstep = cuda.gridDim.y * cuda.blockDim.y * {R}"]
    else:
        L += ["    sp = cuda.blockDim.x",
              f"    cb = cuda.blockIdx.x * (sp * {R}) + cuda.threadIdx.x",
              f"    sh = cuda.shared.array({seg + HALO}, {tn})",
              "    g1 = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y",
              "    gstep = cuda.gridDim.y * cuda.blockDim.y"]
    L += ["    c0 = cuda.blockIdx.z", "    while c0 < n0:", "        c1 = g1",
          "        while c1 < n1:"]
    if ax == 1:
        # R consecutive outputs: a window of R - 1 values carried in registers; each chunk of
        # C taps loads its C new rows at once (independent loads in flight), then runs R * C
        # steps where output o at chunk tap i reads window value i + o.  Taps past K (the
        # last, partial chunk) are skipped by uniform tests.  A window inside the axis loads
        # without boundary tests; an edge one (the first and last rows) maps every load by the
        # mode (and stores only outputs that exist)
        win = [f"v{o}" for o in range(R - 1)] + [f"u{i}" for i in range(C)]

        def body(edge):
            B = [f"{P}v{o} = {at(f's + {o}' if o else 's', edge)}" for o in range(R - 1)]
            if first:
                # tap 0's values; the chunk loop applies tap 0 again (min/max of a value
                # with itself is that value)
                B += [f"{P}a{o} = v{o}" for o in range(R - 1)]
                B.append(f"{P}a{R - 1} = {at(f's + {R - 1}', edge)}")
            else:
                B += [f"{P}a{o} = {tn}(0)" for o in range(R)]
            B += [f"{P}u{i} = {tn}(0)" for i in range(C)]
            def chunk(guarded):
                # C taps from k: loads first, then the steps; a guarded chunk skips taps
                # past K (uniform tests), a whole one has none
                T = []
                for part in ("load", "step"):
                    for i in range(C):
                        g = E if guarded and i else Q
                        if guarded and i:
                            T.append(f"{Q}if k + {i} < K:")
                        if part == "load":
                            T.append(f"{g}u{i} = {at(f's + k + {R - 1 + i}', edge)}")
                        else:
                            if uses_w:
                                T.append(f"{g}w = W[uint64(k + {i})]")
                            T += [g + stp(f"a{o}", win[i + o]) for o in range(R)]
                return T + [f"{Q}v{o} = {win[C + o]}" for o in range(R - 1)] + [f"{Q}k += {C}"]

            B.append(f"{P}k = 0")
            if edge:
                B += [f"{P}while k < K:"] + chunk(True)
            else:
                # whole chunks, then at most one partial chunk
                B += [f"{P}while k + {C} <= K:"] + chunk(False)
                B += [f"{P}if k < K:"] + chunk(True)
            for o in range(R):
                st = f"Y[uint64(c0), uint64(c1 + {o}), uint64(c2)] = {res(f'a{o}')}"
                B += [f"{P}if c1 + {o} < n1:", f"{Q}{st}"] if edge and o else [P + st]
            return B

        L += ["            s = c1 - r",
              f"            if s >= 0 and s + {R - 1} + K <= n1 and c1 + {R - 1} < n1:"]
        L += body(False) + ["            else:"] + body(True)
    else:
        # a window of at most HALO + 1 taps: the block stages its segment of the row and the
        # halo in shared memory, and thread t computes outputs t + o * blockDim from there
        # (no bank conflicts).  A thread loads its R segment values at once (independent
        # coalesced loads in flight; the mode maps those outside the row), all before the
        # first shared store (a generic load may not pass a shared store)
        L += ["            if K - 1 <= HALO_:",
              "                t0 = cuda.threadIdx.x",
              "                base = cb - t0 - r"]
        L += [f"{P}u{o} = {at(f'base + t0 + {o * bx}', True)}" for o in range(R)]
        L += [f"{P}sh[uint64(t0 + {o * bx})] = u{o}" for o in range(R)]
        L += [f"{P}i = t0", f"{P}while i < K - 1:",
              f"{Q}sh[uint64({seg} + i)] = {at(f'base + {seg} + i', True)}",
              f"{Q}i += sp",
              # every staged value is written before any thread reads its windows
              f"{P}cuda.syncthreads()"]
        if first:
            L += [f"{P}a{o} = sh[uint64(t0 + {o * bx})]" for o in range(R)] + [f"{P}k = 1"]
        else:
            L += [f"{P}a{o} = {tn}(0)" for o in range(R)] + [f"{P}k = 0"]
        L.append(f"{P}while k < K:")
        if uses_w:
            L.append(f"{Q}w = W[uint64(k)]")
        L += [Q + stp(f"a{o}", f"sh[uint64(t0 + k + {o * bx})]") for o in range(R)]
        L.append(f"{Q}k += 1")
        for o in range(R):
            L += [f"{P}if cb + {o * bx} < n2:",
                  f"{Q}Y[uint64(c0), uint64(c1), uint64(cb + {o * bx})] = {res(f'a{o}')}"]
        # every thread has read its windows before the next row's stage overwrites them
        L += [f"{P}cuda.syncthreads()", "            else:"]
        # longer windows (rare): one output at a time straight from global memory (each load
        # of a warp coalesced; one accumulator keeps the registers of the staged path), a
        # window inside the row without boundary tests, an edge one through the mode
        L += [f"{P}for o in range({R}):", f"{Q}c = cb + o * sp", f"{Q}if c < n2:",
              f"{E}s = c - r", f"{E}inside = s >= 0 and s + K <= n2"]
        F = E + "    "
        for cond, edge in (("if inside:", False), ("else:", True)):
            L.append(E + cond)
            if first:
                L += [f"{F}acc = {at('s', edge)}", f"{F}for k in range(1, K):"]
            else:
                L += [f"{F}acc = {tn}(0)", f"{F}for k in range(K):"]
            if uses_w:
                L.append(f"{F}    w = W[uint64(k)]")
            L += [f"{F}    v = {at('s + k', edge)}", f"{F}    {stp('acc', 'v')}"]
        L.append(f"{E}Y[uint64(c0), uint64(c1), uint64(c)] = {res('acc')}")
    L += ["            c1 += gstep", "        c0 += cuda.gridDim.z"]
    text = "\n".join(L).replace("HALO_", str(HALO)) + "\n"
    text = _line_fetch_source(ax, in_dt, wk) + "\n\n" + text
    name = _ew._kernel_name(f"ndi_line_{op}", text)
    params = [Param("array", in_dt, 3), Param("array", out_dt, 3), Param("array", wk, 1, "C"),
              Param("scalar", _I64), Param("scalar", wk), Param("scalar", _I64)]
    bxy = _LINE_BLOCK[ax][0] * _LINE_BLOCK[ax][1]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params,
                        (bxy, _LINE_MIN_BLOCKS[ax, 4 if wk.itemsize <= 4 else 8]))


def _view3(a, axis):
    """(shape, strides) of ``a`` as (A, B, C) for a pass along ``axis``, and the position (1 or
    2) of the filtered axis; None when the axes around ``axis`` do not collapse."""
    shp, st = a.shape, a._strides
    outer, ost = _ew._collapse(shp[:axis], [st[:axis]]) if axis else ((), [()])
    inner, ist = _ew._collapse(shp[axis + 1:], [st[axis + 1:]]) if axis + 1 < len(shp) \
        else ((), [()])
    outer, ost, inner, ist = tuple(outer), tuple(ost[0]), tuple(inner), tuple(ist[0])
    inner = tuple(n for n in inner)
    if len(outer) > 1 or len(inner) > 1:
        return None
    o, os_ = (outer[0], ost[0]) if outer else (1, 0)
    i, is_ = (inner[0], ist[0]) if inner else (1, 0)
    if i > 1:
        return (o, shp[axis], i), (os_, st[axis], is_), 1
    return (1, o, shp[axis]), (0, os_, st[axis]), 2


_line_plans = {}     # (op, axis, shapes, strides, dtypes) -> launch plan, or None (no 3-d view)


def _line_plan(op, src, dst, axis):
    key = (_rt.get_device_id(), op, axis, src.shape, src._strides, dst._strides, src.dtype,
           dst.dtype)
    plan = _line_plans.get(key, False)
    if plan is not False:
        return plan
    vs, vd = _view3(src, axis), _view3(dst, axis)
    if vs is None or vd is None or vs[0] != vd[0] or vs[2] != vd[2]:
        plan = None
    else:
        wk = work_dtype(op, src.dtype, dst.dtype)
        shape, sst, ax = vs
        R = _LINE_OUTPUTS[ax]
        bx, by = _LINE_BLOCK[ax]
        kkey = ("ndi_line", op, ax, src.dtype, dst.dtype, wk, R, bx)
        kern = compiler.get_kernel(kkey, lambda: _render_line(op, ax, src.dtype, dst.dtype, wk,
                                                              R, bx))
        if ax == 1:
            grid = (-(-shape[2] // bx), min(-(-shape[1] // (by * R)), _GRID_YZ),
                    min(shape[0], _GRID_YZ))
        else:
            grid = (-(-shape[2] // (bx * R)), min(-(-shape[1] // by), _GRID_YZ),
                    min(shape[0], _GRID_YZ))
        n = shape[0] * shape[1] * shape[2]
        plan = (kern, grid, (bx, by, 1), wk, [n, src.itemsize], [*shape, *sst],
                [n, dst.itemsize], [*shape, *vd[1]])
    if len(_line_plans) >= 1024:
        _line_plans.clear()
    _line_plans[key] = plan
    return plan


def line_pass(op, src, dst, axis, weights, r, mode, cval):
    """One launch: ``dst`` = the ``op`` filter of ``src`` along ``axis`` (same shapes; ``dst``
    does not overlap ``src``).  ``weights``: host values (their count is the window; for
    min/max/mean only the count is read); ``r``: window start offset (``K // 2 + origin``).
    False (nothing launched) when an array's axes around ``axis`` do not collapse to the
    template's three: the caller copies it first.  A repeat call (same shapes, strides and
    dtypes) replays its plan: a dict lookup and one launch."""
    return run_launch(line_launch(op, src, dst, axis, weights, r, mode, cval), src)


def run_launch(t, src):
    """Launch ``t`` (a :func:`line_launch` tuple, or None: False) unless ``src`` is empty."""
    if t is None:
        return False
    if src.size:
        kern, grid, block, values = t[:4]
        kern(grid, block, values)
    return True


def line_launch(op, src, dst, axis, weights, r, mode, cval):
    """(kernel, grid, block, values, index of src's pointer in values, index of dst's, the
    weight table the values point into) of :func:`line_pass`'s launch, or None when the
    layout does not fit.  A caller may keep it and replay it on arrays of the same layouts
    (a copy of the values with the two pointers replaced)."""
    plan = _line_plan(op, src, dst, axis)
    if plan is None:
        return None
    kern, grid, block, wk, sv, sshape, dv, dshape = plan
    w = _weight_table(weights, wk)
    values = ([0, 0, sv[0], sv[1], src._ptr] + sshape + [0, 0, dv[0], dv[1], dst._ptr] + dshape
              + [0, 0, w.size, wk.itemsize, w._ptr, w.size, wk.itemsize]
              + [int(r), wk.type(cval), _boundary.code(mode)])
    return kern, grid, block, values, 4, 9 + len(sshape), w


# ---- n-D template ---------------------------------------------------------------------------
def _fetch_source(nd, in_dt, wk):
    """Device function ``fetch(X, c0.., n0.., mode, cval)``: the value at coordinates ``c``
    (any integers) under the boundary mode, in the work dtype.  Every edge tap of the ``nd``
    template calls it: one body for Numba to type and lower, inlined by NVVM."""
    cs = ", ".join(f"c{d}" for d in range(nd))
    ns = ", ".join(f"n{d}" for d in range(nd))
    L = ["@cuda.jit(device=True)", f"def fetch(X, {cs}, {ns}, mode, cval):", "    oob = False"]
    for d in range(nd):
        L += _boundary.any_mode_lines("mode", f"c{d}", f"n{d}", f"j{d}", "    ")
    L += ["    if oob:", "        return cval",
          "    return " + _ew.cast_expr(f"X[{', '.join(f'uint64(j{d})' for d in range(nd))}]",
                                       in_dt, wk)]
    return "\n".join(L) + "\n"


def _tap_lines(t, nd, in_dt, wk, var, P, inside):
    """Lines loading tap ``t`` (an index expression) into ``var``."""
    if inside:
        idx = ", ".join(f"uint64(c{d} + OFF[uint64({t}), {d}])" for d in range(nd))
        return [f"{P}{var} = {_ew.cast_expr(f'X[{idx}]', in_dt, wk)}"]
    cs = ", ".join(f"c{d} + OFF[uint64({t}), {d}]" for d in range(nd))
    ns = ", ".join(f"n{d}" for d in range(nd))
    return [f"{P}{var} = fetch(X, {cs}, {ns}, mode, cval)"]


def _render_nd(op, nd, in_dt, out_dt, wk, ntaps):
    """``op``: corr, min, max or rank; ``ntaps``: the tap count of a rank window (compile-time:
    the local array's size), else None."""
    tn = _ew.type_name(wk)
    L = ["def KERNEL(X, Y, OFF, W, LO, HI, cval, rank, mode):"]
    L += [f"    n{d} = X.shape[{d}]" for d in range(nd)]
    L += ["    T = OFF.shape[0]"]
    L += [f"    lo{d} = LO[{d}]" for d in range(nd)] + [f"    hi{d} = HI[{d}]" for d in range(nd)]
    last, y = nd - 1, nd - 2
    L += [f"    c{last} = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x",
          f"    if c{last} >= n{last}:", "        return",
          "    cys = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y",
          "    lead = " + " * ".join(["int64(1)"] + [f"n{d}" for d in range(nd - 2)]),
          "    z = int64(cuda.blockIdx.z)",
          "    while z < lead:"]
    if nd > 2:
        L += _ew.unravel_lines("z", nd - 2, "        ", extent="n{d}", coord="c{d}")
    L += [f"        c{y} = cys", f"        while c{y} < n{y}:"]
    P = "            "
    inside = " and ".join(f"c{d} + lo{d} >= 0 and c{d} + hi{d} < n{d}" for d in range(nd))
    L.append(f"{P}inside = {inside}")
    Q = P + "    "
    if op == "rank":
        L += [f"{P}buf = cuda.local.array({ntaps}, {tn})"]
        for branch, ins in (("if inside:", True), ("else:", False)):
            L += [P + branch, f"{Q}for t in range(T):"]
            L += _tap_lines("t", nd, in_dt, wk, "buf[t]", Q + "    ", ins)
        # the value with `rank` smaller elements before it (ties by position)
        L += [f"{P}acc = buf[0]", f"{P}for t in range(T):", f"{P}    vt = buf[t]",
              f"{P}    less = 0", f"{P}    same = 0", f"{P}    for u in range(T):",
              f"{P}        vu = buf[u]", f"{P}        if vu < vt:", f"{P}            less += 1",
              f"{P}        elif vu == vt:", f"{P}            same += 1",
              f"{P}    if less <= rank and rank < less + same:", f"{P}        acc = vt",
              f"{P}        break"]
    else:
        step = {"corr": "acc = acc + W[uint64(t)] * v", "min": "acc = min(acc, v)",
                "max": "acc = max(acc, v)"}[op]
        first = op != "corr"
        for branch, ins in (("if inside:", True), ("else:", False)):
            L.append(P + branch)
            if first:
                L += [f"{Q}t = 0"] + _tap_lines("t", nd, in_dt, wk, "acc", Q, ins)
                L.append(f"{Q}for t in range(1, T):")
            else:
                L += [f"{Q}acc = {tn}(0)", f"{Q}for t in range(T):"]
            L += _tap_lines("t", nd, in_dt, wk, "v", Q + "    ", ins)
            L.append(f"{Q}    {step}")
    cs = ", ".join(f"uint64(c{d})" for d in range(nd))
    L += [f"{P}Y[{cs}] = {_ew.cast_expr('acc', wk, out_dt)}",
          f"{P}c{y} += cuda.gridDim.y * cuda.blockDim.y",
          "        z += cuda.gridDim.z"]
    text = _fetch_source(nd, in_dt, wk) + "\n\n" + "\n".join(L) + "\n"
    name = _ew._kernel_name(f"ndi_nd_{op}", text)
    params = [Param("array", in_dt, nd), Param("array", out_dt, nd),
              Param("array", _I64, 2, "C"), Param("array", wk, 1, "C"),
              Param("array", _I64, 1, "C"), Param("array", _I64, 1, "C"),
              Param("scalar", wk), Param("scalar", _I64), Param("scalar", _I64)]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


_consts = {}     # (device, dtype, shape, bytes) -> device copy of a small host table


def device_table(host):
    """A device copy of the small host array ``host``, cached by content (filters called
    repeatedly with one kernel upload their weights and taps once)."""
    host = np.ascontiguousarray(host)
    key = (_rt.get_device_id(), host.dtype.str, host.shape, host.tobytes())
    d = _consts.get(key)
    if d is None:
        from ...creation import asarray
        d = remember(_consts, key, asarray(host))
    return d


_by_id = {}      # (device, id of a read-only host weights array, dtype) -> (it, device copy)


def _weight_table(weights, wk):
    """:func:`device_table` of ``weights`` in ``wk``; a read-only array (the cached gaussian
    weights, a stored call's box weights) is found by identity: the entry holds the array, so
    its id is not reused while it is there, and read-only arrays of ours that own their data
    are never written (a read-only view could be of memory written through another)."""
    if not weights.flags.writeable and weights.base is None:
        key = (_rt.get_device_id(), id(weights), wk)
        e = _by_id.get(key)
        if e is not None:
            return e[1]
    else:
        key = None
    w = device_table(weights if weights.dtype == wk else weights.astype(wk))
    if key is not None:
        remember(_by_id, key, (weights, w))
    return w


_nd_plans = {}       # (op, layout, dtypes, footprint, origins, weights, rank) -> launch plan


def nd_pass(op, src, dst, footprint, origins, weights, mode, cval, rank=0):
    """One launch of the n-D template: ``dst`` (not overlapping ``src``, same shape) = ``op``
    over the taps where ``footprint`` (host bool, src.ndim axes) is set, centred at
    ``shape // 2 + origins``; ``weights`` (host float64 of the footprint's shape: read by corr
    only, else None).  A repeat call replays its plan (kernel, grid, device tables)."""
    if src.size == 0:
        return
    key = (_rt.get_device_id(), op, src.shape, src._strides, dst._strides, src.dtype,
           dst.dtype, footprint.shape, footprint.tobytes(), tuple(origins),
           None if weights is None else weights.tobytes(), rank)
    kern, grid, block, wk, sv, dv, tables = replay(
        _nd_plans, key, lambda: _nd_plan(op, src, dst, footprint, origins, weights, rank))
    values = ([0, 0, sv[0], sv[1], src._ptr] + sv[2] + [0, 0, dv[0], dv[1], dst._ptr] + dv[2]
              + tables + [wk.type(cval), int(rank), _boundary.code(mode)])
    kern(grid, block, values)


def _nd_plan(op, src, dst, footprint, origins, weights, rank):
    wk = work_dtype(op, src.dtype, dst.dtype)
    offsets = np.argwhere(footprint).astype(_I64) - np.array(
        [s // 2 for s in footprint.shape], _I64) - np.asarray(origins, _I64)
    shape, sst, dstt, offsets = image_layout(src, dst, offsets)
    nd = len(shape)
    T = offsets.shape[0]
    # the local array of a rank window: a power of two at least T (fewer kernels)
    ntaps = 1 << (T - 1).bit_length() if op == "rank" else None
    key = ("ndi_nd", op, nd, src.dtype, dst.dtype, wk, ntaps)
    kern = compiler.get_kernel(key, lambda: _render_nd(op, nd, src.dtype, dst.dtype, wk, ntaps))
    w = np.zeros(T, wk) if weights is None else weights[footprint].astype(wk)
    tables = []
    for h in (offsets, w, offsets.min(axis=0), offsets.max(axis=0)):
        a = device_table(h)
        tables += _ew._arr_values(a._ptr, a.shape, a._strides, a.itemsize)
    n = src.size
    return (kern, image_grid(shape), (*_ND_BLOCK, 1), wk, (n, src.itemsize, [*shape, *sst]),
            (n, dst.itemsize, [*shape, *dstt]), tables)
