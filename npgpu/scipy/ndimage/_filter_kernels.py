"""The two filter templates of ``npgpu.scipy.ndimage`` and their launches.

* ``line`` -- one pass along one axis (correlate1d, uniform, minimum/maximum 1-D; the separable
  filters run one launch per axis).  The array is viewed as ``(A, B, C)`` with the filtered
  axis at position 1 (``C`` the collapsed axes after it, more than one element) or 2 (the
  filtered axis is the innermost).  Threads: x along ``C``, y along ``B``, z along ``A``; a
  thread computes ``R`` outputs.  Position 1: ``R`` consecutive outputs from a window of ``R``
  values sliding in registers (a warp's loads are rows of 32 elements: one load and one weight
  a tap for ``R`` outputs).  Position 2: the block stages its row segment and the halo in
  shared memory (windows of at most ``HALO + 1`` taps; longer ones read through L1) and thread
  ``t`` computes outputs ``t + o * blockDim``.  Windows inside the axis run without boundary
  tests; only edge windows (and staged loads outside the row) map indices, through every
  mode's lines under a switch on a runtime mode code (``_boundary.any_mode_lines``: one kernel
  serves all modes, and the interior never pays).  Weights are a small device array (uniform
  across the warp: one cached load a tap).  Indices are unsigned, so Numba adds no
  negative-index wraparound and NVVM turns index times stride into pointer steps.
* ``nd`` -- an n-D footprint (correlate/convolve with n-D weights, minimum/maximum with a
  footprint, rank/median/percentile).  Threads: x along the last axis, y along the one before,
  z along the rest.  Tap offsets are a ``(T, nd)`` device array; an output whose whole
  footprint lies inside the array reads without boundary tests.  Rank filters of at most
  :data:`SMALL_RANK` taps keep the window in registers (the taps unrolled, the offsets loaded
  once a thread, an odd-even transposition network whose unused compare-exchanges NVVM drops:
  a 3x3 median keeps what selects element 4); larger windows select from a local array by
  counting.

Work dtype: float32 for a weighted/mean filter from float32 to float32 (float32 work stays
float32: float64 arithmetic and conversions would halve the speed), float64 for every other
weighted one (as SciPy computes); minimum/maximum/rank work in the
input dtype (exact).  The result is cast to the output dtype by NumPy's cast rules (float to
integer truncates, as SciPy's C cast does).
"""
import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from . import _boundary

_I64 = np.dtype(np.int64)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
SMALL_RANK = 25          # rank windows up to this many taps stay in registers
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
_ND_BLOCK = (32, 8) if not _SIM else (4, 2)
_GRID_YZ = 65535 if not _SIM else 2


def work_dtype(op, in_dt, out_dt):
    """The dtype a filter of kind ``op`` computes in for input dtype ``in_dt`` and output
    dtype ``out_dt``."""
    if op in ("corr", "mean"):
        return _F32 if in_dt == _F32 and out_dt == _F32 else _F64
    return in_dt


# ---- line template --------------------------------------------------------------------------
# op -> (initial accumulator, step with the tap value v and weight w, final expression)
LINE_OPS = {
    "corr": ("zero", "{a} = {a} + w * {v}", "{a}"),
    "mean": ("zero", "{a} = {a} + {v}", "{a} / {tn}(K)"),
    "min": ("first", "{a} = min({a}, {v})", "{a}"),
    "max": ("first", "{a} = max({a}, {v})", "{a}"),
}


def _render_line(op, ax, in_dt, out_dt, wk, R, bx=None):
    """A thread computes ``R`` outputs along the filtered axis: consecutive ones for ``ax`` 1
    (rows of a column pass: each weight loaded once for ``R`` outputs, the rows' loads hit L1)
    and ones a block width apart for ``ax`` 2 (so a warp's loads stay coalesced)."""
    tn = _ew.type_name(wk)
    init, step, final = LINE_OPS[op]
    first = init == "first"
    seg = (bx or 0) * R         # outputs of a block's row segment (ax 2: blockDim.x == bx)
    uses_w = "w" in step.replace("{", " ").split()

    def at(j):
        # unsigned indices: Numba adds no negative-index wraparound (4 64-bit operations and
        # a select per load), and NVVM turns the loop's index times stride into a pointer step
        idx = ["c0", "c1", "c2"]
        idx[ax] = j
        return _ew.cast_expr(f"X[{', '.join(f'uint64({i})' for i in idx)}]", in_dt, wk)

    def stp(a, v):
        return step.format(a=a, v=v)

    n = f"n{ax}"
    L = ["def KERNEL(X, Y, W, r, cval, mode):",
         "    n0 = X.shape[0]", "    n1 = X.shape[1]", "    n2 = X.shape[2]",
         "    K = W.shape[0]"]
    if ax == 1:
        L += ["    c2 = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x",
              "    if c2 >= n2:", "        return",
              f"    g1 = (cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y) * {R}",
              f"    gstep = cuda.gridDim.y * cuda.blockDim.y * {R}",
              "    sp = 1"]
        cb, loop_init, loop_step = "c1", "c1 = g1", "c1 += gstep"
    else:
        L += ["    sp = cuda.blockDim.x",
              f"    cb = cuda.blockIdx.x * (sp * {R}) + cuda.threadIdx.x",
              f"    sh = cuda.shared.array({seg + HALO}, {tn})",
              "    g1 = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y",
              "    gstep = cuda.gridDim.y * cuda.blockDim.y"]
        cb, loop_init, loop_step = "cb", "c1 = g1", "c1 += gstep"
    L += ["    c0 = cuda.blockIdx.z", "    while c0 < n0:", f"        {loop_init}",
          "        while c1 < n1:"]
    head = len(L)
    L.append(f"            s = {cb} - r")
    P, Q = "                ", "                    "
    # inside: every output exists and every window lies inside the axis
    L.append(f"            if s >= 0 and s + {R - 1} * sp + K <= {n} and "
             f"{cb} + {R - 1} * sp < {n}:")
    if ax == 1:
        # consecutive outputs: a sliding window of R values in registers, one load a tap
        # (v{o} holds X[s + k + o] at step k)
        L += [f"{P}v{o} = {at(f's + {o}' if o else 's')}" for o in range(R - 1)]
        last = f"v{R - 1} = {at(f's + k + {R - 1}')}"
        shift = [f"v{o} = v{o + 1}" for o in range(R - 1)]
        if first:
            L += [f"{P}k = 0", P + last] + [f"{P}a{o} = v{o}" for o in range(R)]
            L += [P + x for x in shift] + [f"{P}k = 1"]
        else:
            L += [f"{P}a{o} = {tn}(0)" for o in range(R)] + [f"{P}k = 0"]
        L += [f"{P}while k < K:", Q + last]
        if uses_w:
            L.append(f"{Q}w = W[uint64(k)]")
        L += [Q + stp(f"a{o}", f"v{o}") for o in range(R)] + [Q + x for x in shift]
        L.append(f"{Q}k += 1")
    else:
        # outputs a block width apart: each load of a warp stays coalesced
        pos = [f"s + {o} * sp" if o else "s" for o in range(R)]
        if first:
            L += [f"{P}a{o} = {at(pos[o])}" for o in range(R)]
            L.append(f"{P}for k in range(1, K):")
        else:
            L += [f"{P}a{o} = {tn}(0)" for o in range(R)]
            L.append(f"{P}for k in range(K):")
        if uses_w:
            L.append(f"{Q}w = W[uint64(k)]")
        for o in range(R):
            L += [f"{Q}v = {at(pos[o] + ' + k')}", Q + stp(f"a{o}", "v")]
    if ax == 1:
        L += [f"{P}Y[uint64(c0), uint64(c1 + {o}), uint64(c2)] = "
              f"{_ew.cast_expr(final.format(a=f'a{o}', tn=tn), wk, out_dt)}" for o in range(R)]
    else:
        L += [f"{P}Y[uint64(c0), uint64(c1), uint64(cb + {o} * sp)] = "
              f"{_ew.cast_expr(final.format(a=f'a{o}', tn=tn), wk, out_dt)}" for o in range(R)]
    # edge: one output at a time, each tap through the boundary mode
    L += ["            else:", f"{P}for o in range({R}):", f"{Q}c = {cb} + o * sp",
          f"{Q}if c < {n}:"]
    E = Q + "    "
    body = ["oob = False"] + _boundary.any_mode_lines("mode", "c - r + k", n, "j")
    body.append(f"v = cval if oob else {at('j')}")
    if first:
        L += [f"{E}k = 0"] + [E + b for b in body] + [f"{E}acc = v", f"{E}for k in range(1, K):"]
    else:
        L += [f"{E}acc = {tn}(0)", f"{E}for k in range(K):"]
    if uses_w:
        L.append(f"{E}    w = W[uint64(k)]")
    L += [f"{E}    {b}" for b in body] + [f"{E}    {stp('acc', 'v')}"]
    idx = "uint64(c0), uint64(c), uint64(c2)" if ax == 1 else "uint64(c0), uint64(c1), uint64(c)"
    L.append(f"{E}Y[{idx}] = {_ew.cast_expr(final.format(a='acc', tn=tn), wk, out_dt)}")
    if ax == 2:
        # a window of at most HALO + 1 taps: the block stages its segment of the row and the
        # halo in shared memory (coalesced; the mode maps only the loads outside the row), and
        # thread t computes outputs t + o * blockDim from there (no bank conflicts); longer
        # windows take the direct lines
        direct = ["    " + x for x in L[head:]]
        S = ["            if K - 1 <= HALO_:",
             "                base = cb - cuda.threadIdx.x - r",
             "                i = cuda.threadIdx.x",
             f"                while i < {seg} + K - 1:",
             "                    oob = False"]
        S += _boundary.any_mode_lines("mode", "base + i", "n2", "j", " " * 20)
        S += [f"                    sh[uint64(i)] = cval if oob else {at('j')}",
              "                    i += sp",
              "                cuda.syncthreads()",
              "                t0 = cuda.threadIdx.x"]
        if first:
            S += [f"{P}a{o} = sh[uint64(t0 + {o * bx})]" for o in range(R)]
            S.append(f"{P}k = 1")
        else:
            S += [f"{P}a{o} = {tn}(0)" for o in range(R)] + [f"{P}k = 0"]
        S.append(f"{P}while k < K:")
        if uses_w:
            S.append(f"{Q}w = W[uint64(k)]")
        S += [Q + stp(f"a{o}", f"sh[uint64(t0 + k + {o * bx})]") for o in range(R)]
        S.append(f"{Q}k += 1")
        for o in range(R):
            S += [f"{P}if cb + {o * bx} < n2:",
                  f"{Q}Y[uint64(c0), uint64(c1), uint64(cb + {o * bx})] = "
                  f"{_ew.cast_expr(final.format(a=f'a{o}', tn=tn), wk, out_dt)}"]
        S += ["                cuda.syncthreads()", "            else:"]
        L[head:] = S + direct
    L += [f"            {loop_step}", "        c0 += cuda.gridDim.z"]
    text = "\n".join(L).replace("HALO_", str(HALO)) + "\n"
    name = _ew._kernel_name(f"ndi_line_{op}", text)
    params = [Param("array", in_dt, 3), Param("array", out_dt, 3), Param("array", wk, 1, "C"),
              Param("scalar", _I64), Param("scalar", wk), Param("scalar", _I64)]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


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
    key = (op, axis, src.shape, src._strides, dst._strides, src.dtype, dst.dtype)
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
    plan = _line_plan(op, src, dst, axis)
    if plan is None:
        return False
    if src.size == 0:
        return True
    kern, grid, block, wk, sv, sshape, dv, dshape = plan
    w = device_table(weights if weights.dtype == wk else weights.astype(wk))
    values = ([0, 0, sv[0], sv[1], src._ptr] + sshape + [0, 0, dv[0], dv[1], dst._ptr] + dshape
              + [0, 0, w.size, wk.itemsize, w._ptr, w.size, wk.itemsize]
              + [int(r), wk.type(cval), _boundary.code(mode)])
    kern(grid, block, values)
    return True


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


def _tap_lines(t, nd, in_dt, wk, var, P, inside, hoisted):
    """Lines loading tap ``t`` (an index expression) into ``var``."""
    off = (lambda d: f"o{t}_{d}") if hoisted else (lambda d: f"OFF[uint64({t}), {d}]")
    if inside:
        idx = ", ".join(f"uint64(c{d} + {off(d)})" for d in range(nd))
        return [f"{P}{var} = {_ew.cast_expr(f'X[{idx}]', in_dt, wk)}"]
    cs = ", ".join(f"c{d} + {off(d)}" for d in range(nd))
    ns = ", ".join(f"n{d}" for d in range(nd))
    return [f"{P}{var} = fetch(X, {cs}, {ns}, mode, cval)"]


def _render_nd(op, nd, in_dt, out_dt, wk, ntaps, fixed_rank=None):
    """``op``: corr, min, max or rank; ``ntaps``: the tap count of a rank window (compile-time:
    the local array's size), else None; ``fixed_rank``: the rank of a window of at most
    SMALL_RANK taps (compile-time: the network's output slot)."""
    tn = _ew.type_name(wk)
    L = ["def KERNEL(X, Y, OFF, W, LO, HI, cval, rank, mode):"]
    L += [f"    n{d} = X.shape[{d}]" for d in range(nd)]
    L += ["    T = OFF.shape[0]"]
    small = fixed_rank is not None
    if small:
        L += [f"    o{t}_{d} = OFF[{t}, {d}]" for t in range(ntaps) for d in range(nd)]
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
    if small:
        for branch, ins in (("if inside:", True), ("else:", False)):
            L.append(P + branch)
            for t in range(ntaps):
                L += _tap_lines(t, nd, in_dt, wk, f"v{t}", Q, ins, True)
        # odd-even transposition network: after ntaps rounds v0..v{T-1} are sorted; only the
        # exchanges that reach the ranked slot survive NVVM's dead-code elimination
        S = []
        for p in range(ntaps):
            for i in range(p % 2, ntaps - 1, 2):
                S += [f"{P}a_ = min(v{i}, v{i + 1})", f"{P}v{i + 1} = max(v{i}, v{i + 1})",
                      f"{P}v{i} = a_"]
        L += S
        L.append(f"{P}acc = v{fixed_rank}")
    elif op == "rank":
        L += [f"{P}buf = cuda.local.array({ntaps}, {tn})"]
        for branch, ins in (("if inside:", True), ("else:", False)):
            L += [P + branch, f"{Q}for t in range(T):"]
            L += _tap_lines("t", nd, in_dt, wk, "buf[t]", Q + "    ", ins, False)
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
                L += [f"{Q}t = 0"] + _tap_lines("t", nd, in_dt, wk, "acc", Q, ins, False)
                L.append(f"{Q}for t in range(1, T):")
            else:
                L += [f"{Q}acc = {tn}(0)", f"{Q}for t in range(T):"]
            L += _tap_lines("t", nd, in_dt, wk, "v", Q + "    ", ins, False)
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


_consts = {}     # (dtype, shape, bytes) -> device copy of a small host table (weights, taps)


def device_table(host):
    """A device copy of the small host array ``host``, cached by content (filters called
    repeatedly with one kernel upload their weights and taps once)."""
    host = np.ascontiguousarray(host)
    key = (host.dtype.str, host.shape, host.tobytes())
    d = _consts.get(key)
    if d is None:
        from ...creation import asarray
        if len(_consts) >= 256:
            _consts.clear()
        d = _consts[key] = asarray(host)
    return d


_nd_plans = {}       # (op, layout, dtypes, footprint, origins, weights, rank) -> launch plan


def nd_pass(op, src, dst, footprint, origins, weights, mode, cval, rank=0):
    """One launch of the n-D template: ``dst`` (not overlapping ``src``, same shape) = ``op``
    over the taps where ``footprint`` (host bool, src.ndim axes) is set, centred at
    ``shape // 2 + origins``; ``weights`` (host float64 of the footprint's shape: read by corr
    only, else None).  A repeat call replays its plan (kernel, grid, device tables)."""
    if src.size == 0:
        return
    key = (op, src.shape, src._strides, dst._strides, src.dtype, dst.dtype, footprint.shape,
           footprint.tobytes(), tuple(origins), None if weights is None else weights.tobytes(),
           rank)
    plan = _nd_plans.get(key)
    if plan is None:
        plan = _nd_plan(op, src, dst, footprint, origins, weights, rank)
        if len(_nd_plans) >= 256:
            _nd_plans.clear()
        _nd_plans[key] = plan
    kern, grid, block, wk, sv, dv, tables = plan
    values = ([0, 0, sv[0], sv[1], src._ptr] + sv[2] + [0, 0, dv[0], dv[1], dst._ptr] + dv[2]
              + tables + [wk.type(cval), int(rank), _boundary.code(mode)])
    kern(grid, block, values)


def _nd_plan(op, src, dst, footprint, origins, weights, rank):
    wk = work_dtype(op, src.dtype, dst.dtype)
    offsets = np.argwhere(footprint).astype(_I64) - np.array(
        [s // 2 for s in footprint.shape], _I64) - np.asarray(origins, _I64)
    shape, sst, dstt = src.shape, src._strides, dst._strides
    if src.ndim == 1:       # as (1, n): the template's y axis
        shape, sst, dstt = (1,) + shape, (0,) + sst, (0,) + dstt
        offsets = np.concatenate([np.zeros((len(offsets), 1), _I64), offsets], axis=1)
    nd = len(shape)
    T = offsets.shape[0]
    small = op == "rank" and T <= SMALL_RANK
    # the local array of a large rank window: a power of two at least T (fewer kernels)
    ntaps = (T if small else 1 << (T - 1).bit_length()) if op == "rank" else None
    key = ("ndi_nd", op, nd, src.dtype, dst.dtype, wk, ntaps, rank if small else None)
    kern = compiler.get_kernel(key, lambda: _render_nd(op, nd, src.dtype, dst.dtype, wk, ntaps,
                                                       rank if small else None))
    w = np.zeros(T, wk) if weights is None else weights[footprint].astype(wk)
    tables = []
    for h in (offsets, w, offsets.min(axis=0), offsets.max(axis=0)):
        a = device_table(h)
        tables += _ew._arr_values(a._ptr, a.shape, a._strides, a.itemsize)
    bx, by = _ND_BLOCK
    lead = int(np.prod(shape[:-2], dtype=np.int64))
    grid = (-(-shape[-1] // bx), min(-(-shape[-2] // by), _GRID_YZ), min(lead, _GRID_YZ))
    n = src.size
    return (kern, grid, (bx, by, 1), wk, (n, src.itemsize, [*shape, *sst]),
            (n, dst.itemsize, [*shape, *dstt]), tables)
