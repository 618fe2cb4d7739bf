"""``scipy.ndimage`` interpolation on npgpu arrays: map_coordinates, affine_transform, shift,
zoom, rotate (and the prefilter of ``_splines``).

One kernel template computes every output point SciPy's way (``NI_GeometricTransform`` /
``NI_ZoomShift``): the input coordinate in float64 (from a coordinate array, an affine matrix,
or per-axis zoom and shift), SciPy's mapping of out-of-range coordinates for the mode, the
B-spline weights of the order, the footprint's indices mapped at the edges (``mirror`` for
'constant' and 'wrap', as SciPy does), the weighted sum in float64 in SciPy's order and SciPy's
rounding into integer outputs.  Render-time choices (so a point runs only its own branches):
the coordinate source, ranks, order, dtypes, the mode, grid_mode, 32- or 64-bit indices and
the layouts.  Weights and tap indices are unrolled scalars; taps inside the image skip the
edge mapping.  Threads: x runs along the output's last axis (coalesced stores, several outputs
a thread sharing the row's work), y along the one before it, z over the rest (so a 2-D image
needs no index division).  A leading batch axis lets ``rotate`` transform every plane in one
launch.
"""
import itertools
import operator
import re
import warnings

import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ..._core.ndarray import _new, ndarray
from ...cuda import memory as _memory
from . import _boundary as _bd
from . import _splines
from ._image_launch import remember
from ._splines import check_mode, output_of, spline_filter, spline_filter1d

__all__ = ["map_coordinates", "affine_transform", "shift", "zoom", "rotate",
           "spline_filter", "spline_filter1d"]

_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
# SciPy's mode codes (_ni_support._extend_mode_to_code)
_CODE = {"nearest": 0, "wrap": 1, "reflect": 2, "grid-mirror": 2, "mirror": 3, "constant": 4,
         "grid-wrap": 5, "grid-constant": 6}
_SUPPORTED = set("?bBhHiIlLqQfd")       # dtypes SciPy's C loops read and write
# extents below this render the 32-bit index variant (taps may reach -order and n + order)
_NARROW_BELOW = 2 ** 30

# SciPy's map_coordinate (ni_interpolation.c) per mode code: how an out-of-range coordinate is
# folded back.  Rendered for one mode only (the mode is a render-time constant).
_FOLD_LOW = {
    3: ["s2 = 2 * n - 2", "x = float64(s2 * int64(-x / s2)) + x",
        "x = x + float64(s2) if x <= float64(1 - n) else -x"],
    2: ["s2 = 2 * n", "if x < float64(-s2):", "    x = float64(s2 * int64(-x / s2)) + x",
        "if x < float64(-n):", "    x = x + float64(s2)", "else:",
        "    x = (1e-15 if x > -1e-15 else -x) - 1.0"],
    1: ["sz = n - 1", "x += float64(sz * (int64(-x / sz) + 1))"],
    5: ["x += float64(n * (int64((-1.0 - x) / n) + 1))"],
    0: ["x = 0.0"],
    4: ["x = -1.0"],
}
_FOLD_HIGH = {
    3: ["s2 = 2 * n - 2", "x -= float64(s2 * int64(x / s2))", "if x >= float64(n):",
        "    x = float64(s2) - x"],
    2: ["s2 = 2 * n", "x -= float64(s2 * int64(x / s2))", "if x >= float64(n):",
        "    x = float64(s2) - x - 1.0"],
    1: ["sz = n - 1", "x -= float64(sz * int64(x / sz))"],
    5: ["x -= float64(n * int64(x / n))"],
    0: ["x = float64(n - 1)"],
    4: ["x = -1.0"],
}


def _map_coord_source(mode):
    """Device function ``ndi_map_coord(x, n)``: SciPy's folding of coordinate ``x`` (float64)
    on an axis of ``n`` samples under mode code ``mode``."""
    L = ["@cuda.jit(device=True)", "def ndi_map_coord(x, n):", "    if x < 0.0:"]
    for side, fold in ((0, _FOLD_LOW), (1, _FOLD_HIGH)):
        if side:
            L.append("    elif x > float64(n - 1):")
        body = fold[mode]
        if mode != 4:           # SciPy: a 1-sample axis maps everything to 0 (not 'constant')
            L += ["        if n <= 1:", "            x = 0.0", "        else:"]
            L += ["            " + ln for ln in body]
        else:
            L += ["        " + ln for ln in body]
    L.append("    return x")
    return "\n".join(L) + "\n"


# SciPy's B-spline weights (ni_splines.c), x already the offset from the middle knot
_WEIGHTS = {
    1: ["W[0] = 1.0 - x"],
    2: ["W[1] = 0.75 - x * x", "y = 0.5 - x", "W[0] = 0.5 * y * y"],
    3: ["W[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0",
        "W[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0",
        "W[0] = z * z * z / 6.0"],
    4: ["t = x * x",
        "W[2] = t * (t * 0.25 - 0.625) + 115.0 / 192.0",
        "y = 1.0 + x",
        "W[1] = y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0",
        "W[3] = z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0",
        "y = 0.5 - x", "t = y * y", "W[0] = t * t / 24.0"],
    5: ["t = y * y", "W[2] = t * (t * (0.25 - y / 12.0) - 0.5) + 0.55",
        "t = z * z", "W[3] = t * (t * (0.25 - z / 12.0) - 0.5) + 0.55",
        "y += 1.0",
        "W[1] = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425",
        "z += 1.0",
        "W[4] = z * (z * (z * (z * (z / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425",
        "y = 1.0 - x", "t = y * y", "W[0] = y * t * t / 120.0"],
}


def _weight_lines(order, k):
    """Lines setting the scalars ``w{k}_0 .. w{k}_{order}`` (SciPy's weights, same float64
    operations and order) from the mapped coordinate ``cc{k}``: unrolled, no local array."""
    mid = f"cc{k}" if order & 1 else f"cc{k} + 0.5"
    body = [f"x = cc{k} - float64(math.floor({mid}))", "y = x", "z = 1.0 - x"]
    body += _WEIGHTS[order]
    body.append(f"W[{order}] = 1.0")
    body += [f"W[{order}] -= W[{i}]" for i in range(order)]
    sub = lambda ln: re.sub(r"\b([xyzt])\b", rf"\g<1>{k}",
                            re.sub(r"W\[(\d)\]", rf"w{k}_\1", ln))
    return [sub(ln) for ln in body]


# footprint mapping at the edges: SciPy maps taps with 'mirror' for 'constant' and 'wrap'; the
# integer form of each fold (the taps are whole samples) is _boundary's filter mode
_TAP_MODE = {0: "nearest", 1: "mirror", 2: "reflect", 3: "mirror", 4: "mirror", 5: "wrap"}


def _axis_lines(k, order, mode, it, padded):
    """Lines for input axis ``k`` from its coordinate ``c{k}``: SciPy's folding, the first tap
    ``s{k}``, the weights and the tap indices ``i{k}_q``.  Sets ``const`` when SciPy takes
    ``cval`` for the whole point.  Interior taps (all inside the axis) need no mapping."""
    n = f"n{k}"
    L = [f"cc{k} = c{k} + nprepad" if padded else f"cc{k} = c{k}"]
    if mode not in (0, 6):
        L += [f"cc{k} = ndi_map_coord(cc{k}, {n})",
              f"if not cc{k} > -1.0:",          # SciPy's test (NaN included) for cval
              "    const = True",
              f"    cc{k} = 0.0"]
    # 'nearest' and 'grid-constant' leave the coordinate unfolded: its first tap may not fit
    # 32 bits (only the mapped taps do)
    st = "int64" if mode in (0, 6) else it
    first = f"{st}(math.floor({f'cc{k}' if order & 1 else f'cc{k} + 0.5'}))"
    L.append(f"s{k} = {first}" + (f" - {order // 2}" if order > 1 else ""))
    if order:
        L += _weight_lines(order, k)
    L += [f"i{k}_{q} = s{k} + {q}" for q in range(order + 1)]
    L.append(f"if s{k} < 0 or s{k} + {order} >= {n}:")
    for q in range(order + 1):
        if mode == 6:       # grid-constant: a tap outside the image reads cval
            L += [f"    if i{k}_{q} < 0 or i{k}_{q} >= {n}:", f"        i{k}_{q} = -1"]
        else:
            L += ["    " + ln for ln in _bd.index_lines(_TAP_MODE[mode], f"i{k}_{q}", n,
                                                          j=f"i{k}_{q}")[1:]]
    return L


def _store(t, dt):
    """Lines storing float64 ``t`` into the output element, as SciPy's CASE_INTERP_OUT*."""
    if dt.kind == "f":
        return [f"val = {_ew.type_name(dt)}({t})"]
    if dt.kind == "b":          # SciPy casts to npy_bool, an unsigned char: the truncated low byte
        return [f"val = (int64({t}) & 255) != 0"]
    info = np.iinfo(dt)
    hi = repr(float(info.max))
    if dt.kind == "u":
        lines = [f"rv = {t} + 0.5 if {t} > 0.0 else 0.0"]
        lines.append(f"rv = {hi} if rv > {hi} else rv")
    else:
        lo = repr(float(info.min))
        lines = [f"rv = {t} + 0.5 if {t} > 0.0 else {t} - 0.5",
                 f"rv = {hi} if rv > {hi} else rv", f"rv = {lo} if rv < {lo} else rv"]
    return lines + [f"val = {_ew.type_name(dt)}(rv)"]


def _render(kind, nin, nout, order, in_dt, out_dt, coord_dt, mode, grid, narrow, layouts,
            padded):
    """The kernel for one (coordinate source, ranks, order, dtypes, mode, index width, layouts
    of output and input: "C" lets a tap's address use the known strides).

    Each thread computes ``per`` outputs of one output row, ``blockDim.x`` apart (coalesced
    stores); what depends on the row only (the outer axes' coordinates, weights and taps for
    zoom/shift, the row's part of the affine sum) is computed once per row.  Index arithmetic
    is 32-bit when ``narrow`` (every extent < _NARROW_BELOW)."""
    it, ut = ("int32", "uint32") if narrow else ("int64", "uint64")
    o1 = order + 1
    oidx = [f"o{k}" for k in range(nout)]
    params_p = []
    if kind == "affine":
        params_p = [f"p{i}" for i in range(nin * nout + nin)]
    elif kind == "zoom":
        params_p = [f"p{i}" for i in range(2 * nin)]
    args = ["OUT", "IN"] + (["COORD"] if kind == "map" else []) + \
        ["nz", "cval", "nprepad", "per"] + params_p
    L = [f"def KERNEL({', '.join(args)}):",
         "    bdx = cuda.blockDim.x",
         "    j0 = cuda.blockIdx.x * bdx * per + cuda.threadIdx.x",
         f"    olast = OUT.shape[{nout}]",
         "    if j0 >= olast:",
         "        return"]
    L += [f"    n{k} = {it}(IN.shape[{k + 1}])" for k in range(nin)]
    # x: the last output axis; y: the one before it; z: the rest (batch first), flattened
    dims = ["b"] + oidx
    L += [f"    ny = OUT.shape[{nout - 1}]",
          "    z = cuda.blockIdx.z",
          "    while z < nz:",
          "      y = cuda.blockIdx.y",
          "      while y < ny:",
          "        r = z"]
    for d in range(nout - 2, 0, -1):
        L += [f"        {dims[d]} = r % OUT.shape[{d}]", f"        r = r // OUT.shape[{d}]"]
    if nout >= 2:
        L.append("        b = r")
    L.append(f"        {dims[nout - 1]} = y")
    row, point = [], []
    # the row's part: zoom's outer axes entirely, the affine sum over the outer output axes
    # (SciPy's order of the float64 additions is kept: o0 * p, + o1 * p, ..., + offset)
    row_axes = range(nin - 1) if kind == "zoom" else range(0)
    row.append("rconst = False")
    for k in range(nin):
        if kind == "zoom":
            dst = row if k in row_axes else point
            o = f"o{k}" if k in row_axes else "j"
            if grid:
                dst.append(f"c{k} = ((float64({o}) + p{nin + k}) + 0.5) * p{k} - 0.5")
            else:
                dst.append(f"c{k} = (float64({o}) + p{nin + k}) * p{k}")
        elif kind == "affine":
            row.append(f"a{k} = 0.0")
            row += [f"a{k} += float64(o{m}) * p{k * nout + m}" for m in range(nout - 1)]
            point += [f"c{k} = a{k} + float64(j) * p{k * nout + nout - 1}",
                      f"c{k} += p{nin * nout + k}"]
        else:
            load = f"COORD[{k}, {ut}((z * ny + y) * olast + j)]"
            point.append(f"c{k} = {_ew.cast_expr(load, coord_dt, _F64)}")
    row.append("const = False")
    for k in row_axes:
        row += _axis_lines(k, order, mode, it, padded)
    row.append("rconst = const")
    point.append("const = rconst")
    for k in range(nin):
        if k not in row_axes:
            point += _axis_lines(k, order, mode, it, padded)
    # the weighted sum in SciPy's order: taps nested axis 0 outermost, t += v * w0 * w1 ...
    point += ["if const:", "    t = cval", "else:", "    t = 0.0"]
    for taps in itertools.product(range(o1), repeat=nin):
        idx = ", ".join(f"{ut}(i{k}_{q})" for k, q in enumerate(taps))
        v = _ew.cast_expr(f"IN[ub, {idx}]", in_dt, _F64)
        if order:
            v = f"{v} * " + " * ".join(f"w{k}_{q}" for k, q in enumerate(taps))
        if mode == 6:
            neg = " or ".join(f"i{k}_{q} < 0" for k, q in enumerate(taps))
            point += [f"    if {neg}:", "        v = cval" + (" * " + " * ".join(
                f"w{k}_{q}" for k, q in enumerate(taps)) if order else ""), "    else:",
                f"        v = {v}", "    t += v"]
        else:
            point.append(f"    t += {v}")
    point += _store("t", out_dt)
    point.append(f"OUT[ub, {', '.join(f'{ut}({o})' for o in oidx[:-1])}"
                 f"{', ' if nout > 1 else ''}{ut}(j)] = val")
    L.append(f"        ub = {ut}(b)")
    L += ["        " + ln for ln in row]
    L += ["        j = j0", "        for _ in range(per):", "            if j >= olast:",
          "                break"]
    L += ["            " + ln for ln in point]
    L += ["            j += bdx", "        y += cuda.gridDim.y", "      z += cuda.gridDim.z"]
    device = _map_coord_source(mode) if mode not in (0, 6) else ""
    text = device + "\n\n" + "\n".join(L) + "\n"
    name = _ew._kernel_name(f"ndimage_{kind}{nin}d_order{order}", text + repr(layouts))
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("array", out_dt, nout + 1, layouts[0]),
              Param("array", in_dt, nin + 1, layouts[1])]
    if kind == "map":
        params.append(Param("array", coord_dt, 2, "A"))
    params += [Param("scalar", _I64), Param("scalar", _F64), Param("scalar", _F64),
               Param("scalar", _I64)]
    params += [Param("scalar", _F64)] * len(params_p)
    return KernelSource(name, text, params)


def _arr(a):
    return [0, 0, a.size, a.itemsize, a._ptr, *a.shape, *a._strides]


def _launch(kind, src, out, order, mode, cval, npad, p=(), coords=None, grid=False, rec=None):
    """Run the kernel: ``src`` (B, input dims...) -> ``out`` (B, output dims...).  ``rec``: a
    list the launch's replay template is appended to (see :func:`_replay`)."""
    cval = _bd.real_cval(cval)          # SciPy's TypeError for a cval that is not real
    if out.size == 0:
        return
    if src.size == 0:           # nothing to sample (SciPy reads out of bounds here)
        out[...] = cval
        return
    nin, nout = src.ndim - 1, out.ndim - 1
    cdt = coords.dtype if coords is not None else None
    code = _CODE[mode]
    # 32-bit taps and indices when every extent (and a coordinate array's size) fits
    narrow = max(src.shape + out.shape + ((coords.size,) if coords is not None else ())) \
        < _NARROW_BELOW
    layouts = tuple("C" if a.flags.c_contiguous else "A" for a in (out, src))
    key = ("ndimage_interp", kind, nin, nout, order, src.dtype, out.dtype, cdt, code,
           bool(grid), narrow, layouts, npad != 0)
    kern = compiler.get_kernel(key, lambda: _render(kind, nin, nout, order, src.dtype,
                                                    out.dtype, cdt, code, bool(grid), narrow,
                                                    layouts, npad != 0))
    ny = out.shape[-2]
    nz = out.size // (out.shape[-1] * ny)
    # outputs a thread along the last axis: they share the row's work (the simulator runs 2 so
    # its tests cover the loop)
    per = 2 if _ew._SIM else 4
    block = min(32 if _ew._SIM else 128, out.shape[-1])
    cap = 4 if _ew._SIM else 65535
    blocks = (-(-out.shape[-1] // (block * per)), min(ny, cap), min(nz, cap))
    vals = _arr(out) + _arr(src)
    if coords is not None:
        vals += _arr(coords)
    vals += [nz, float(cval), float(npad), per]
    vals += [float(v) for v in p]
    if rec is not None:
        # what a replay fills in: the pointers (out's at slot 4, src's 4 after out's 5 + 2 * ndim
        # values, the coordinates' 4 after src's) and cval
        rec.append((kern, blocks, (block, 1, 1), vals, 9 + 2 * out.ndim,
                    None if coords is None else 14 + 2 * (out.ndim + src.ndim),
                    len(vals) - 3 - len(p)))
    kern(blocks, (block, 1, 1), vals)


# ---- plan replay ------------------------------------------------------------------------------
# A repeat call (same input shape, strides and dtype, same output argument, same parameters)
# replays its plan: one dict lookup, an allocation from the pool and one launch with the
# arrays' pointers and cval.  The key holds every argument the launch depends on except cval
# (its float is a launch value, filled in per call, so 0.0 and -0.0 never share a result); a
# call whose arguments are not plain hashable values (host or device arrays as parameters, a
# complex input, a copy or a warning instead of the launch) is never planned.
_plans = {}
# numbers whose equal values (equal keys) compute alike: np.float64 is a Python float
_NUM = frozenset((int, float, np.float64))


def _num_key(v):
    """``v`` as a key part when it is a plain number or a list/tuple of them, else None."""
    c = v.__class__
    if c in _NUM:
        return v
    if c is tuple or c is list:
        for e in v:
            if e.__class__ not in _NUM:
                return None
        return (c is list, *v)
    return None


def _out_key(output):
    """The output argument as a key part: its layout for an npgpu array, the dtype-like value
    itself (None, a type, a dtype, a string) otherwise; None when not plannable."""
    c = output.__class__
    if c is ndarray:
        return ("array", output.shape, output._strides, output.dtype)
    if output is None or c is str or c is type or c is np.dtype or isinstance(output, type) \
            or isinstance(output, np.dtype):
        return ("dtype", output)
    return None


def _replay(plan, x, output, cval, coords):
    """The output of ``plan`` run on ``x`` (and ``output``, ``coords``), or None when ``cval``
    is not a number (the caller takes the full path, which raises SciPy's error)."""
    kern, grid, block, vals, src_slot, coord_slot, cval_slot, alloc, pre = plan
    try:
        cv = _bd.real_cval(cval)
    except Exception:
        return None
    if alloc is None:
        out = output
    else:
        shape, strides, dtype, nbytes, contig = alloc
        mem = _memory.alloc(nbytes)
        out = _new(mem, mem.ptr, shape, strides, dtype, contig=contig)
    if pre is None:
        sptr = x._ptr
    else:
        order, mode = pre
        src = _filtered(x[None], order, mode, cval, True)[0]
        sptr = src._ptr
    v = vals.copy()
    v[4] = out._ptr
    v[src_slot] = sptr
    if coord_slot is not None:
        v[coord_slot] = coords._ptr
    v[cval_slot] = cv
    kern(grid, block, v)
    return out


def _planned(pkey, full, input, output, order, mode, cval, prefilter, *args, coords=None):
    """``full(input, output, order, mode, cval, prefilter, *args, rec)`` (an entry point's full
    path) or the replay of its plan; ``pkey``: the call's other parameters as a key part (None:
    not plannable; with ``coords``, a C-contiguous coordinate array's layout)."""
    key = None
    if input.__class__ is ndarray and pkey is not None:
        ok = _out_key(output)
        if ok is not None:
            key = (pkey, input.shape, input._strides, input.dtype, ok, order, mode, prefilter)
            try:
                plan = _plans.get(key)
            except TypeError:           # an unhashable argument: the full path judges it
                plan = key = None
            if plan is not None:
                out = _replay(plan, input, output, cval, coords)
                if out is not None:
                    return out
    rec = None if key is None else []
    out = full(input, output, order, mode, cval, prefilter, *args, rec)
    _record(key, rec, out, output, (order, mode) if prefilter and order > 1 else None)
    return out


def _record(key, rec, out, output, pre):
    """Store the plan of ``key`` from the one launch recorded in ``rec`` (nothing when the call
    did not end in exactly one replayable launch)."""
    if key is None or len(rec) != 1:
        return
    alloc = None if output.__class__ is ndarray else \
        (out.shape, out._strides, out.dtype, out.nbytes, (out._c_contig, out._f_contig))
    remember(_plans, key, rec[0] + (alloc, pre))


def _filtered(x, order, mode, cval, prefilter):
    """(B, ...)-shaped ``x`` -> (array the kernel reads, number of padded samples per side).

    Orders > 1 read SciPy's prefiltered float64 copy; 'nearest' and 'grid-constant' are padded
    by 12 samples first (as SciPy: their prefilter has no exact boundary)."""
    if not (prefilter and order > 1):
        return x, 0
    npad = 0
    if mode in ("nearest", "grid-constant"):
        from ...padding import pad
        npad = 12
        width = ((0, 0),) + ((npad, npad),) * (x.ndim - 1)
        x = pad(x, width, mode="edge") if mode == "nearest" else \
            pad(x, width, mode="constant", constant_values=cval)
    return _splines.prefiltered(x, order, mode, axes=range(1, x.ndim)), npad


def _check_order(order, prefilter):
    """``order`` as the int SciPy's C code takes (its errors: the range, then a prefilter's
    range 2-5, then the TypeError of a float)."""
    if order < 0 or order > 5 or (prefilter and 1 < order < 2):
        raise RuntimeError("spline order not supported")
    return operator.index(order)


def _check_dtypes(x, out, order, prefilter):
    # SciPy's prefilter converts the input first and names the dtype; the C loops do not
    if x.dtype.char not in _SUPPORTED and prefilter and order > 1:
        raise RuntimeError(f"array type {x.dtype!r} not supported")
    for a in (x, out):
        if a.dtype.char not in _SUPPORTED:
            raise RuntimeError("data type not supported")


def _as_device(a):
    from ...creation import asarray
    return asarray(a)


def _host(v):
    return np.asarray(v.get() if isinstance(v, ndarray) else v, dtype=np.float64)


def _split_complex(fn, x, out, cval, *args, **kw):
    fn(x.real, *args, output=out.real, cval=np.real(cval), **kw)
    fn(x.imag, *args, output=out.imag, cval=np.imag(cval), **kw)
    return out


def _normalize_sequence(v, rank):
    if not isinstance(v, str) and np.iterable(v):
        v = list(_host(v)) if isinstance(v, ndarray) else list(v)
        if len(v) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return v
    return [v] * rank


def map_coordinates(input, coordinates, output=None, order=3, mode="constant", cval=0.0,
                    prefilter=True):
    """``scipy.ndimage.map_coordinates``: ``output[i] = input[coordinates[:, i]]`` by spline
    interpolation of ``order``.  A repeat call with C-contiguous npgpu coordinates (their
    reshape a view: the same pointer) replays its plan."""
    c = coordinates
    pkey = ("map", c.shape, c._strides, c.dtype) if c.__class__ is ndarray and \
        c._c_contig else None
    return _planned(pkey, _map_coordinates, input, output, order, mode, cval, prefilter,
                    coordinates, coords=coordinates)


def _map_coordinates(input, output, order, mode, cval, prefilter, coordinates, rec):
    order = _check_order(order, prefilter)
    x = _as_device(input)
    c = _as_device(coordinates)
    if c.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    shape = c.shape[1:]
    if x.ndim < 1 or len(shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    if c.shape[0] != x.ndim:
        raise RuntimeError("invalid shape for coordinate array")
    out = output_of(output, x, x.dtype.kind == "c", shape)
    if x.dtype.kind == "c":
        return _split_complex(map_coordinates, x, out, cval, c, order=order, mode=mode,
                              prefilter=prefilter)
    check_mode(mode)
    if c.dtype.char not in _SUPPORTED:
        raise RuntimeError("coordinate array data type not supported")
    _check_dtypes(x, out, order, prefilter)
    src, npad = _filtered(x[None], order, mode, cval, prefilter)
    c2 = c.reshape((c.shape[0], -1))
    _launch("map", src, out[None], order, mode, cval, npad, coords=c2,
            rec=rec if c2._ptr == c._ptr else None)
    return out


def affine_transform(input, matrix, offset=0.0, output_shape=None, output=None, order=3,
                     mode="constant", cval=0.0, prefilter=True):
    """``scipy.ndimage.affine_transform``: ``output[o] = input[matrix @ o + offset]``; matrix
    (ndim,) diagonal, (ndim, out ndim), or homogeneous (ndim[+1], ndim + 1).  A repeat call
    with a host matrix replays its plan."""
    mk, ok, sk = _matrix_key(matrix), _num_key(offset), \
        (0 if output_shape is None else _num_key(output_shape))
    pkey = None if mk is None or ok is None or sk is None else ("affine", mk, ok, sk)
    return _planned(pkey, _affine, input, output, order, mode, cval, prefilter, matrix, offset,
                    output_shape)


def _matrix_key(m):
    """A host matrix (NumPy array, numbers, or a list/tuple of rows of them) as a key part:
    its exact bytes or values; None when not plannable (a device array is read per call)."""
    if m.__class__ is np.ndarray:
        return None if m.dtype.hasobject else ("np", m.shape, m.dtype.str, m.tobytes())
    k = _num_key(m)
    if k is None and (m.__class__ is tuple or m.__class__ is list):
        k = tuple(_num_key(r) for r in m)
        if None in k:
            return None
        k = ("rows", m.__class__ is list, k)
    return k


def _affine(input, output, order, mode, cval, prefilter, matrix, offset, output_shape, rec):
    order = _check_order(order, prefilter)
    x = _as_device(input)
    if output_shape is None:
        output_shape = output.shape if isinstance(output, ndarray) else x.shape
    output_shape = tuple(output_shape)
    if x.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    out = output_of(output, x, x.dtype.kind == "c", output_shape)
    if x.dtype.kind == "c":
        return _split_complex(affine_transform, x, out, cval, matrix, offset=offset,
                              output_shape=output_shape, order=order, mode=mode,
                              prefilter=prefilter)
    check_mode(mode)
    _check_dtypes(x, out, order, prefilter)
    m = _host(matrix)
    if m.ndim not in (1, 2) or m.shape[0] < 1:
        raise RuntimeError("no proper affine matrix provided")
    if m.ndim == 2 and m.shape[1] == x.ndim + 1 and m.shape[0] in (x.ndim, x.ndim + 1):
        if m.shape[0] == x.ndim + 1:
            exptd = [0] * x.ndim + [1]
            if not np.all(m[x.ndim] == exptd):
                raise ValueError(f"Expected homogeneous transformation matrix with shape "
                                 f"{m.shape} for image shape {x.shape}, but bottom row was "
                                 f"not equal to {exptd}")
        offset = m[:x.ndim, x.ndim]
        m = m[:x.ndim, :x.ndim]
    if m.shape[0] != x.ndim:
        raise RuntimeError("affine matrix has wrong number of rows")
    if m.ndim == 2 and m.shape[1] != out.ndim:
        raise RuntimeError("affine matrix has wrong number of columns")
    off = np.asarray(_normalize_sequence(offset if not isinstance(offset, ndarray)
                                         else _host(offset), x.ndim), dtype=np.float64)
    if off.ndim != 1 or off.shape[0] < 1:
        raise RuntimeError("no proper offset provided")
    src, npad = _filtered(x[None], order, mode, cval, prefilter)
    if m.ndim == 1:
        if m.shape[0] != out.ndim:
            raise RuntimeError("affine matrix has wrong number of rows")
        with np.errstate(divide="ignore", invalid="ignore"):
            p = list(m) + list(off / m)
        _launch("zoom", src, out[None], order, mode, cval, npad, p, rec=rec)
    else:
        p = list(m.reshape(-1)) + list(off)
        _launch("affine", src, out[None], order, mode, cval, npad, p, rec=rec)
    return out


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """``scipy.ndimage.shift``: ``output[o] = input[o - shift]``.  A repeat call replays its
    plan."""
    sk = _num_key(shift)
    return _planned(None if sk is None else ("shift", sk), _shift, input, output, order, mode,
                    cval, prefilter, shift)


def _shift(input, output, order, mode, cval, prefilter, shift, rec):
    order = _check_order(order, prefilter)
    x = _as_device(input)
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    out = output_of(output, x, x.dtype.kind == "c")
    if x.dtype.kind == "c":
        return _split_complex(globals()["shift"], x, out, cval, shift, order=order, mode=mode,
                              prefilter=prefilter)
    check_mode(mode)
    _check_dtypes(x, out, order, prefilter)
    s = [float(-v) for v in _normalize_sequence(shift, x.ndim)]
    src, npad = _filtered(x[None], order, mode, cval, prefilter)
    _launch("zoom", src, out[None], order, mode, cval, npad, [1.0] * x.ndim + s, rec=rec)
    return out


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0, prefilter=True, *,
         grid_mode=False):
    """``scipy.ndimage.zoom``: output shape ``round(shape * zoom)``; ``grid_mode`` zooms the
    pixel extents instead of the sample centres.  A repeat call replays its plan."""
    zk = _num_key(zoom)
    return _planned(None if zk is None else ("zoom", zk, grid_mode), _zoom, input, output,
                    order, mode, cval, prefilter, zoom, grid_mode)


def _zoom(input, output, order, mode, cval, prefilter, zoom, grid_mode, rec):
    order = _check_order(order, prefilter)
    x = _as_device(input)
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    zs = _normalize_sequence(zoom, x.ndim)
    shape = tuple(int(round(i * z)) for i, z in zip(x.shape, zs))
    out = output_of(output, x, x.dtype.kind == "c", shape)
    if all(z == 1 for z in zs) and prefilter:       # SciPy returns the input unchanged
        out[...] = x
        return out
    if x.dtype.kind == "c":
        return _split_complex(globals()["zoom"], x, out, cval, zoom, order=order, mode=mode,
                              prefilter=prefilter, grid_mode=grid_mode)
    check_mode(mode)
    _check_dtypes(x, out, order, prefilter)
    src, npad = _filtered(x[None], order, mode, cval, prefilter)
    if grid_mode:
        suggest = {"constant": "grid-constant", "wrap": "grid-wrap"}.get(mode)
        if suggest is not None:
            warnings.warn(f"It is recommended to use mode = {suggest} instead of {mode} when "
                          f"grid_mode is True.", stacklevel=4)    # zoom's caller
            rec = None              # the warning is part of every call: never replayed
    # SciPy's zoom per axis: (in - 1) / (out - 1), or in / out in grid mode; 1 for a 0 divisor
    # (Python's int / int is the correctly rounded float64 quotient, as NumPy's)
    g = 0 if grid_mode else 1
    z = [(i - g) / (o - g) if o != g else 1.0 for i, o in zip(x.shape, shape)]
    _launch("zoom", src, out[None], order, mode, cval, npad, z + [0.0] * x.ndim,
            grid=grid_mode, rec=rec)
    return out


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3, mode="constant",
           cval=0.0, prefilter=True):
    """``scipy.ndimage.rotate``: every plane along ``axes`` rotated by ``angle`` degrees about
    its centre (all planes in one launch).  A repeat call on a 2-D image replays its plan."""
    ak, xk = _num_key(angle), _num_key(axes)
    pkey = None if ak is None or xk is None or input.__class__ is not ndarray or \
        input.ndim != 2 else ("rotate", ak, xk, reshape)
    return _planned(pkey, _rotate, input, output, order, mode, cval, prefilter, angle, axes,
                    reshape)


def _rotate(input, output, order, mode, cval, prefilter, angle, axes, reshape, rec):
    from scipy import special
    from ...manipulation import moveaxis
    x = _as_device(input)
    ndim = x.ndim
    if ndim < 2:
        raise ValueError("input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("axes should contain exactly two values")
    if not all(float(ax).is_integer() for ax in axes):
        raise ValueError("axes should contain only integer values")
    axes = [int(a) + ndim if a < 0 else int(a) for a in axes]
    if axes[0] < 0 or axes[1] < 0 or axes[0] >= ndim or axes[1] >= ndim:
        raise ValueError("invalid rotation plane specified")
    axes.sort()
    c, s = special.cosdg(angle), special.sindg(angle)
    rot = np.array([[c, s], [-s, c]])
    img_shape = np.asarray(x.shape)
    in_plane = img_shape[axes]
    if reshape:
        iy, ix = in_plane
        bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (np.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = img_shape[axes]
    offset = (in_plane - 1) / 2 - rot @ ((out_plane - 1) / 2)
    out_shape = img_shape.copy()
    out_shape[axes] = out_plane
    out_shape = tuple(int(v) for v in out_shape)
    out = output_of(output, x, x.dtype.kind == "c", out_shape)
    if x.dtype.kind == "c":
        return _split_complex(rotate, x, out, cval, angle, axes=axes, reshape=reshape,
                              order=order, mode=mode, prefilter=prefilter)
    order = _check_order(order, prefilter)
    check_mode(mode)
    _check_dtypes(x, out, order, prefilter)
    if ndim == 2:
        xb, ob = x[None], out[None]
    else:
        xb = moveaxis(x, axes, (-2, -1))
        xb = xb.reshape((-1,) + xb.shape[-2:])
        ob = moveaxis(out, axes, (-2, -1))
    tmp = ob if ndim == 2 else None
    if tmp is None:
        from ...creation import empty
        tmp = empty((xb.shape[0],) + tuple(int(v) for v in out_plane), out.dtype)
    src, npad = _filtered(xb, order, mode, cval, prefilter)
    _launch("affine", src, tmp, order, mode, cval, npad, list(rot.reshape(-1)) + list(offset),
            rec=rec if ndim == 2 else None)
    if ndim > 2:
        ob[...] = tmp.reshape(ob.shape)
    return out
