"""Scans: cumsum, cumprod, nancumsum, nancumprod and ``ufunc.accumulate``.

A scan is a single-component :class:`~.template.ReduceSpec` (pre-map, combine).
Two kernel shapes, chosen from the layout:

* ``block`` (scan axis is the contiguous one, associative combine): the
  three-phase parallel scan.  Phase 1 is the reduction template's first pass
  (one state per tile of ``chunk`` elements); phase 2 scans the tile totals of
  each row with the scan kernel itself (shifted by one: carry-in per tile);
  phase 3 rescans each tile from its carry-in and writes the output.  A row of
  one tile is one launch.  Inside a block, rounds of ``block`` elements are
  scanned with warp shuffles (``shfl_up_sync``) on the GPU, or with a
  shared-memory Hillis-Steele scan on the simulator, which has no warp
  intrinsics; a running prefix carries from round to round.
* ``column`` (scan axis strided, short, or a non-reorderable ufunc such as
  subtract): each thread owns one output column and folds along the axis in
  order; threads of a warp read adjacent columns (coalesced).
"""
import copy
import hashlib

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen.compiler import KernelSource, Param
from .._codegen.elementwise import cast_expr, compute_dtype, type_name
from .._core import copy as _copy
from .._core.dtypes import check_dtype
from . import reduce as _r
from . import scan_lookback as _lb
from . import template as _t
from . import ufunc_methods as _um

_SIM = _backend.IS_SIM
_I64 = np.dtype(np.int64)
if _SIM:
    SCAN_BLOCK, COLUMN_BLOCK, TILE, MAX_GRID = 8, 8, 16, 2
else:
    SCAN_BLOCK, COLUMN_BLOCK, TILE, MAX_GRID = 256, 128, 256 * 32, 132 * 16
SHORT_AXIS = 16
# State sizes whose rows of many tiles run as reduce-then-scan rather than the single-pass
# look-back scan.  H200, 2^26 (2026-12-01): int64 states 321 us against 414 us looking back; a
# float32 state 250 us against 212 us (the look-back's one-word status).  The simulator's tests
# choose per test.
REDUCE_THEN_SCAN = frozenset() if _SIM else frozenset({8})


# ---- rendering -----------------------------------------------------------------------------
def _load(spec, first, in_storage, idx, nk):
    if not first:
        return f"sin0[{idx}]"
    return f"red_pre_t({_t.as_input(spec, f'in0[{idx}]', in_storage)}, int64(0))"


def _store(spec, val, out_storage):
    od = spec.out_dtype
    post = f"red_post({val}, int64(0))"
    return cast_expr(cast_expr(post, compute_dtype(od), od), od, out_storage)


def render_block(spec, *, nk, in_storage, out_storage, first, last, has_carry, shift, block,
                 sim):
    """Phase 2/3 kernel: per (row, tile) block, rounds of ``block`` elements, running prefix."""
    st = spec.state[0]
    tn = type_name(st)
    ident = spec.identity[0]
    kd = [f"k{d}_" for d in range(nk)]
    ins = "in0" if first else "sin0"
    outs = "out0" if last else "sout0"
    args = ["nrow", "m", "nsplit", "chunk", outs, ins] + (["carry"] if has_carry else [])
    L = [f"def KERNEL({', '.join(args)}):"]
    P, P2, P3, P4 = "    ", "        ", "            ", "                "
    L.append(f"{P}tid = int64(cuda.threadIdx.x)")
    if sim:
        L.append(f"{P}sh = cuda.shared.array({block}, {tn})")
        L.append(f"{P}sh2 = cuda.shared.array({block}, {tn})")
    else:
        L.append(f"{P}shw = cuda.shared.array({max(block // 32, 1)}, {tn})")
    L.append(f"{P}b = int64(cuda.blockIdx.x)")
    L.append(f"{P}gd = int64(cuda.gridDim.x)")
    L.append(f"{P}while b < nrow * nsplit:")
    L.append(f"{P2}row = b // nsplit")
    L.append(f"{P2}sp = b - row * nsplit")
    src = "out0" if last else "in0"
    L += _t._decompose("row", kd, src, 0, P2)
    L.append(f"{P2}lo = sp * chunk")
    L.append(f"{P2}hi = min(lo + chunk, m)")
    L.append(f"{P2}run = carry[row, sp]" if has_carry else f"{P2}run = {ident}")
    if shift:
        L.append(f"{P2}if tid == 0 and sp == 0:")
        L.append(f"{P3}sout0[row, 0] = {ident}")
    kidx = "".join(f"{k}, " for k in kd)
    iidx = f"{kidx}j" if first else "row, j"
    oidx = f"{kidx}j" if last else f"row, j + {shift}"
    L.append(f"{P2}base = lo")
    L.append(f"{P2}while base < hi:")
    L.append(f"{P3}j = base + tid")
    L.append(f"{P3}v = {ident}")
    L.append(f"{P3}if j < hi:")
    L.append(f"{P4}v = {_load(spec, first, in_storage, iidx, nk)}")
    if sim:
        # Hillis-Steele inclusive scan, double-buffered in shared memory (one barrier a step)
        L.append(f"{P3}sh[tid] = v")
        L.append(f"{P3}cuda.syncthreads()")
        off, src, dst = 1, "sh", "sh2"
        while off < block:
            L.append(f"{P3}if tid >= {off}:")
            L.append(f"{P4}v = red_comb_t({src}[tid - {off}], v)")
            L.append(f"{P3}{dst}[tid] = v")
            L.append(f"{P3}cuda.syncthreads()")
            off *= 2
            src, dst = dst, src
        L.append(f"{P3}tot = {src}[{block - 1}]")
    else:
        nw = block // 32
        L.append(f"{P3}lane = tid % 32")
        L.append(f"{P3}wid = tid // 32")
        L += _warp_scan("v", st, "lane", P3)
        L.append(f"{P3}if lane == 31:")
        L.append(f"{P4}shw[wid] = v")
        L.append(f"{P3}cuda.syncthreads()")
        L.append(f"{P3}if wid == 0:")
        L.append(f"{P4}w = {ident}")
        L.append(f"{P4}if lane < {nw}:")
        L.append(f"{P4}    w = shw[lane]")
        L += _warp_scan("w", st, "lane", P4)
        L.append(f"{P4}if lane < {nw}:")
        L.append(f"{P4}    shw[lane] = w")
        L.append(f"{P3}cuda.syncthreads()")
        L.append(f"{P3}if wid > 0:")
        L.append(f"{P4}v = red_comb_t(shw[wid - 1], v)")
        L.append(f"{P3}tot = shw[{nw - 1}]")
    L.append(f"{P3}if j < hi:")
    val = "red_comb_t(run, v)"
    if last:
        L.append(f"{P4}out0[{oidx}] = {_store(spec, val, out_storage)}")
    else:
        L.append(f"{P4}sout0[{oidx}] = {val}")
    L.append(f"{P3}run = red_comb_t(run, tot)")
    L.append(f"{P3}cuda.syncthreads()")
    L.append(f"{P3}base += {block}")
    L.append(f"{P2}b += gd")
    return _finish(spec, L, "scan_block", first, last, has_carry, nk, in_storage, out_storage,
                   shift)


def _warp_scan(var, dt, lane, pad):
    L = []
    off = 1
    while off < 32:
        L.append(f"{pad}off = {off}")
        L += [ln.replace("shfl_down_sync", "shfl_up_sync")
              for ln in _t._shfl_lines(var, dt, "o_", pad)]
        L.append(f"{pad}if {lane} >= {off}:")
        L.append(f"{pad}    {var} = red_comb_t(o_, {var})")
        off *= 2
    return L


def render_column(spec, *, nk, in_storage, out_storage, seed_first):
    """Thread per output column, folding in order along the scan axis (last dim of the views)."""
    kd = [f"k{d}_" for d in range(nk)]
    L = ["def KERNEL(nrow, m, nsplit, chunk, out0, in0):"]
    P, P2, P3 = "    ", "        ", "            "
    L.append(f"{P}t = int64(cuda.grid(1))")
    L.append(f"{P}gs = int64(cuda.gridsize(1))")
    L.append(f"{P}while t < nrow:")
    L += _t._decompose("t", kd, "out0", 0, P2)
    kidx = "".join(f"{k}, " for k in kd)
    if seed_first:
        L.append(f"{P2}s = {_load(spec, True, in_storage, kidx + '0', nk)}")
        L.append(f"{P2}out0[{kidx}0] = {_store(spec, 's', out_storage)}")
        L.append(f"{P2}j = 1")
    else:
        L.append(f"{P2}s = {spec.identity[0]}")
        L.append(f"{P2}j = 0")
    L.append(f"{P2}while j < m:")
    L.append(f"{P3}s = red_comb_t(s, {_load(spec, True, in_storage, kidx + 'j', nk)})")
    L.append(f"{P3}out0[{kidx}j] = {_store(spec, 's', out_storage)}")
    L.append(f"{P3}j += 1")
    L.append(f"{P2}t += gs")
    return _finish(spec, L, "scan_col", True, True, False, nk, in_storage, out_storage, 0)


def _finish(spec, L, prefix, first, last, has_carry, nk, in_storage, out_storage, shift):
    text = spec.device_source() + "\n\n" + "\n".join(L) + "\n"
    name = f"{prefix}_{hashlib.sha1(text.encode()).hexdigest()[:10]}"
    text = text.replace("def KERNEL(", f"def {name}(")
    st = spec.state[0]
    params = [Param("scalar", _I64) for _ in range(4)]
    params.append(Param("array", out_storage, nk + 1, "A") if last else Param("array", st, 2, "C"))
    params.append(Param("array", in_storage, nk + 1, "A") if first else Param("array", st, 2, "C"))
    if has_carry:
        params.append(Param("array", st, 2, "C"))
    return KernelSource(name, text, params)


# ---- planning ------------------------------------------------------------------------------
def run_scan(spec, a, ax, out, seed_first=False, plan=None):
    """Inclusive scan of ``a`` along axis ``ax`` into ``out`` (same shape).  ``plan``: a list
    the look-back path appends its repeatable launch to (:func:`.scan_lookback.run`)."""
    if out.size == 0:
        return out
    nd = a.ndim
    m = a.shape[ax]
    kept = [(a.shape[d], a._strides[d], out._strides[d]) for d in range(nd) if d != ax]
    kept = [d for d in kept if d[0] != 1]
    kept.sort(key=lambda d: -abs(d[1]))
    kept = _r._collapse(kept)
    nk = len(kept)
    nrow = _r._prod(d[0] for d in kept)
    ish = [d[0] for d in kept] + [m]
    ist = [d[1] for d in kept] + [a._strides[ax]]
    ost = [d[2] for d in kept] + [out._strides[ax]]
    in_vals = _r._arr(a._ptr, ish, ist, a.itemsize)
    out_vals = _r._arr(out._ptr, ish, ost, out.itemsize)
    fastest_kept = min((abs(d[1]) for d in kept), default=None)
    column = (not spec.reorderable or m <= SHORT_AXIS or
              (fastest_kept is not None and fastest_kept < abs(a._strides[ax])))
    if column:
        key = ("scan_col", spec.full_key(), nk, a.dtype.str, out.dtype.str, seed_first)
        k = compiler.get_kernel(key, lambda: render_column(
            spec, nk=nk, in_storage=a.dtype, out_storage=out.dtype, seed_first=seed_first))
        grid = max(1, min(-(-nrow // COLUMN_BLOCK), MAX_GRID))
        _launch_repeatable(k, grid, COLUMN_BLOCK, (nrow, m, 1, m), out_vals, in_vals, plan)
        return out

    if _lb.applies(spec, a, ax, m, seed_first):
        if spec.state[0].itemsize in REDUCE_THEN_SCAN:
            return _reduce_then_scan(spec, a, out, nk, nrow, m, in_vals, out_vals)
        return _lb.run(spec, a, out, nk, nrow, m, in_vals, out_vals, plan=plan)

    def kern(first, last, has_carry, shift, nk_):
        key = ("scan_block", spec.full_key(), nk_, a.dtype.str, out.dtype.str, first, last,
               has_carry, shift, SCAN_BLOCK)
        return compiler.get_kernel(key, lambda: render_block(
            spec, nk=nk_, in_storage=a.dtype, out_storage=out.dtype, first=first, last=last,
            has_carry=has_carry, shift=shift, block=SCAN_BLOCK, sim=_SIM))

    nsplit = -(-m // TILE)
    if nsplit == 1:
        grid = max(1, min(nrow, MAX_GRID))
        _launch_repeatable(kern(True, True, False, 0, nk), grid, SCAN_BLOCK, (nrow, m, 1, m),
                           out_vals, in_vals, plan)
        return out
    st = spec.state[0]
    # phase 1: tile totals, by the reduction template's first pass
    tot = _tile_totals(spec, a, nk, nrow, m, TILE, in_vals)
    tot_vals = _r._arr(tot._ptr, tot.shape, tot._strides, tot.itemsize)
    # phase 2: carry-in of every tile = scan of the totals before it (shifted by one)
    carry = _r.empty_array((nrow, nsplit + 1), st)
    c_vals = _r._arr(carry._ptr, carry.shape, carry._strides, carry.itemsize)
    k2 = kern(False, False, False, 1, 0)
    k2(max(1, min(nrow, MAX_GRID)), SCAN_BLOCK, [nrow, nsplit, 1, nsplit] + c_vals + tot_vals)
    # phase 3: rescan every tile from its carry-in
    k3 = kern(True, True, True, 0, nk)
    k3(max(1, min(nrow * nsplit, MAX_GRID)), SCAN_BLOCK,
       [nrow, m, nsplit, TILE] + out_vals + in_vals + c_vals)
    del tot, carry
    return out


def _launch_repeatable(k, grid, block, lead, out_vals, in_vals, plan):
    """Launch ``k`` on ``lead`` + the views' values; with ``plan``, append the same launch as
    ``launch(in_ptr, out_ptr)`` for other arrays of the same layout (a small scan's replay then
    skips the layout work, as the look-back scan's does)."""
    head = (*lead, *out_vals[:4])
    mid = (*out_vals[5:], *in_vals[:4])
    tail = tuple(in_vals[5:])

    def launch(in_ptr, out_ptr):
        k(grid, block, (*head, out_ptr, *mid, in_ptr, *tail))

    launch(in_vals[4], out_vals[4])
    if plan is not None:
        plan.append(launch)


def _tile_totals(spec, a, nk, nrow, m, tile, in_vals):
    """(nrow, tiles per row) array of the states of every ``tile`` elements of each row: the
    reduction template's first pass over contiguous chunks."""
    nsplit = -(-m // tile)
    tot = _r.empty_array((nrow, nsplit), spec.state[0])
    key = ("reduce", spec.full_key(), "inner", nk, 1, a.dtype.str, a.dtype.str, False, False,
           True, False, _r.INNER_BLOCK, 1, False, "chunked tiles")
    k1 = compiler.get_kernel(key, lambda: _t.render(
        spec, "inner", nk=nk, nr=1, in_storage=a.dtype, out_storage=a.dtype, has_mask=False,
        has_init=False, first=True, last=False, block=_r.INNER_BLOCK, sim=_SIM,
        interleave=False, unroll=_r.UNROLL))
    grid = max(1, min(nrow * nsplit, _r.MAX_GRID))
    k1(grid, _r.INNER_BLOCK, [nrow, m, nsplit, tile, m]
       + _r._arr(tot._ptr, tot.shape, tot._strides, tot.itemsize) + in_vals)
    return tot


def _state_spec(spec):
    """``spec`` scanning its own states (the tile totals): no pre- or post-map."""
    s = copy.copy(spec)
    s.in_dtype = spec.state[0]
    s.out_dtype = spec.state[0]
    s.pre, s.post = "x", "a0"
    s.key = ("states of", spec.key)
    return s


def _reduce_then_scan(spec, a, out, nk, nrow, m, in_vals, out_vals):
    """Scan rows of many tiles in three passes: tile totals (reads n), an inclusive scan of the
    totals (tiny, the same machinery), then every tile scanned from its carry (reads and
    writes n): 3n of traffic against the look-back's 2n, but no block waits on another."""
    tot = _tile_totals(spec, a, nk, nrow, m, _lb.tile_size(spec), in_vals)
    run_scan(_state_spec(spec), tot, 1, tot)       # in place: each element is read first
    _lb.run_carry(spec, a, out, nk, nrow, m, in_vals, out_vals, tot)
    del tot
    return out


# ---- public entry points --------------------------------------------------------------------
def _accumulate(uf, a, ax, dt, out, pre=None, plan=None):
    spec, has_ident = _um.reduce_spec(uf, dt, scan=True)
    if pre is not None:
        spec = copy.copy(spec)
        spec.pre = pre(dt)
        spec.key = spec.key + (spec.pre,)
    seed_first = not has_ident
    target = out
    if _copy.may_overlap(out, a) and not _copy.same_elements(out, a, out.shape):
        target = _r.empty_array(out.shape, out.dtype)
    run_scan(spec, a, ax, target, seed_first=seed_first or not spec.reorderable, plan=plan)
    if target is not out:
        _copy.copy_into(out, target)
    return out


def cumulative(name, a, axis, dtype, out, np_func, pre=None):
    """cumsum & co: NumPy's dtype and argument checks by a dry run, then one scan.

    Fast path: a call without ``out=`` whose input dtype, shape, strides, axis and dtype= were
    seen before replays the first call (:func:`_replay`): no dry run, no spec, no layout work;
    a look-back scan only allocates its result and launches."""
    key = None
    if out is None:
        # (keyed by np_func: cumsum and nancumsum share the ufunc name)
        key, f = _r.fast_lookup(("scan", np_func), a, axis, False, dtype)
        if f is not None:
            return f(a)
    a0 = a
    a = _r.as_array(a)
    out = _r.single_out(out)
    kw = {"axis": axis}
    if dtype is not None:
        kw["dtype"] = dtype
    res = _r.dry_run(np_func, a, kw, out=out)
    dt = check_dtype(res.dtype) if out is None else check_dtype(dtype or res.dtype)
    if a.ndim == 0:             # NumPy scans a 0-d array as of shape (1,), axis 0 or -1 too
        a = a.reshape(1)
    if axis is None:
        a = a.reshape(-1)
        ax = 0
    else:
        from .._core import layout as _layout
        # the dry run refused axis=None beyond 1-D (NumPy's "multiple axes" error)
    ax = 0 if axis is None else _layout.normalize_axis(axis, a.ndim)
    r = _r.prepare_out(out, a.shape, dt)
    if r.size == 0:
        return r
    plan = [] if key is not None else None
    _accumulate(_um.ufunc_by_name(name), a, ax, dt, r, pre, plan)
    if key is not None:
        _r.remember_replay(key, _replay(_um.ufunc_by_name(name), a0, a, ax, dt, r, pre, plan))
    return r


def _replay(uf, a0, a, ax, dt, res, pre, plan):
    """Repeat of the call that scanned ``a`` (``a0`` as given, ``a`` reshaped for axis=None)
    into the fresh ``res``, for inputs of ``a0``'s dtype, shape and strides."""
    fresh = _r.result_factory(res)
    if plan and a._ptr == a0._ptr:
        # a one-launch scan (look-back, column or one tile a row) of ``a0``'s own memory: only
        # its launch is repeated
        launch = plan[0]

        def look_back(x):
            out = fresh()
            launch(x._ptr, out._ptr)
            return out
        return look_back
    flat = a is not a0

    def again(x):
        if flat:
            x = x.reshape(-1) if x.ndim else x.reshape(1)
        out = fresh()
        _accumulate(uf, x, ax, dt, out, pre)
        return out
    return again


def ufunc_accumulate(uf, array, axis=0, dtype=None, out=None):
    if uf.nin != 2 or uf.nout != 1:
        raise ValueError("accumulate only supported for binary functions")
    a = _r.as_array(array)
    out = _r.single_out(out)
    kw = {"axis": axis}
    if dtype is not None:
        kw["dtype"] = dtype
    res = _r.dry_run(uf._np.accumulate, a, kw, out=out)
    dt = check_dtype(dtype) if dtype is not None else \
        check_dtype(out.dtype if out is not None else res.dtype)
    from .._core import layout as _layout
    # the dry run refused axis=None beyond 1-D (NumPy's "multiple axes" error)
    ax = 0 if axis is None else _layout.normalize_axis(axis, a.ndim)
    r = _r.prepare_out(out, a.shape, dt)
    if r.size == 0:
        return r
    _um.check_power_exponents(uf, a, dt, ax)
    return _accumulate(uf, a, ax, dt, r)
