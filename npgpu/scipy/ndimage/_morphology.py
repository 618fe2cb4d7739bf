"""Binary and grey morphology (``scipy.ndimage.binary_erosion`` & co) as generated kernels.

Every operation is one neighbourhood kernel over a C-contiguous copy of the image.  A binary
structure of at most :data:`SMALL_STRUCTURE` elements is rendered into its kernel (offsets as
constants, a 2-D launch over rows and columns, boundary tests only near the edge: the common
3x3 / 3x3x3 case); a larger one, and the grey kernel, read the structuring element from a
small device table of offsets (one row per true element: its per-axis offset from the centre
and its C-order linear offset), so one rendering serves every shape and structure.  The
table-driven binary kernel is rendered per rank (its coordinates in registers); the grey
kernel keeps rank, shape and coordinates as runtime values (the coordinates in a local array).

* binary: ``erode`` = all neighbours set, ``dilate`` = any set (SciPy's dilation is the
  erosion of the complement with the reflected structure, which is the same thing); outside
  the image a neighbour reads ``border_value``; where ``mask`` is false the input passes
  through.  A changed flag (one 4-byte read an iteration) ends ``iterations < 1`` loops.
* grey: without a ``structure`` the filters' ``minimum_filter`` / ``maximum_filter`` (SciPy's
  ``_min_or_max_filter``); with one, minimum (erosion) or maximum (dilation) over the
  footprint of ``x - s`` / ``x + s`` (``s`` the structure's values), outside the image by
  the boundary modes of ``_boundary.py`` (a runtime mode code: one kernel per dtype).
"""
import operator
import warnings

import numpy as np

from ..._codegen import compiler
from ...cuda import runtime as _rt
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ..._core import transfer as _transfer
from ..._core.ndarray import empty_array, ndarray
from ._image_launch import BLOCK, image_grid, image_layout, remember, rows_per_thread

__all__ = ["generate_binary_structure", "iterate_structure", "binary_erosion",
           "binary_dilation", "binary_opening", "binary_closing", "binary_fill_holes",
           "binary_hit_or_miss", "binary_propagation", "grey_erosion", "grey_dilation",
           "grey_opening", "grey_closing", "white_tophat", "black_tophat",
           "morphological_gradient", "morphological_laplace"]

MAXDIMS = 32            # NumPy's limit: the coordinates live in a local array of this size
_BOOL = np.dtype(np.bool_)
_I64 = np.dtype(np.int64)
_I32 = np.dtype(np.int32)
_F64 = np.dtype(np.float64)


# ---- host-side helpers shared by the ndimage modules ----------------------------------------
def device(x, dtype=None):
    """``x`` (npgpu array, NumPy array, list, scalar) as an npgpu array (C-contiguous when
    copied), optionally cast."""
    from ...creation import asarray
    if isinstance(x, ndarray):
        return x if dtype is None or x.dtype == dtype else x.astype(dtype)
    return asarray(np.asarray(x, dtype=dtype))


def contiguous(x, dtype):
    """``x`` as a C-contiguous npgpu array of ``dtype`` (itself when it already is one)."""
    x = device(x)
    if x.dtype == dtype and x._c_contig:
        return x
    out = empty_array(x.shape, np.dtype(dtype))
    if out.size:
        out[...] = x
    return out


def arr(x):
    """Launcher values of an npgpu array argument."""
    return _ew._arr_values(x._ptr, x.shape, x._strides, x.itemsize)


def read_scalar(x, index=0):
    """One element of a C-contiguous device array, read to the host (a small scalar read)."""
    host = np.empty(1, x.dtype)
    _transfer._d2h(host, x._ptr + index * x.itemsize, x.itemsize)
    return host[0]


def host_array(x):
    """A small argument (structure, footprint, index) as a NumPy array on the host."""
    return x.get() if isinstance(x, ndarray) else np.asarray(x)


def check_input(input):
    x = device(input)
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    return x


def normalize_origin(origin, nd):
    if np.ndim(origin) == 0:
        return [operator.index(origin)] * nd
    origin = [operator.index(o) for o in origin]
    if len(origin) != nd:
        raise RuntimeError("sequence argument must have length equal to input rank")
    return origin


def offsets(fp, origin):
    """Offsets (per axis, and C-order linear in an image of ``shape`` set later) of the true
    elements of the host bool footprint ``fp``, centred at ``size // 2 + origin``."""
    for o, s in zip(origin, fp.shape):
        if o < -(s // 2) or o > (s - 1) // 2:
            raise ValueError("invalid origin")
    pts = np.argwhere(fp).astype(np.int64)
    centre = np.array([s // 2 + o for s, o in zip(fp.shape, origin)], np.int64)
    return pts - centre


_table_cache = {}       # (device, offsets, shape) -> device tables: repeat calls upload nothing


def _tables(pts, shape):
    """Device tables: per-axis offsets (K, nd), linear offsets (K,), shape (nd,)."""
    nd = max(len(shape), 1)
    pts = np.ascontiguousarray(pts.reshape(len(pts), len(shape)) if len(shape)
                               else np.zeros((len(pts), 1), np.int64), dtype=np.int64)
    key = (_rt.get_device_id(), pts.tobytes(), pts.shape, tuple(shape))
    hit = _table_cache.get(key)
    if hit is None:
        strides = np.ones(nd, np.int64)
        for d in range(len(shape) - 2, -1, -1):
            strides[d] = strides[d + 1] * shape[d + 1]
        lin = (pts * strides).sum(axis=1).astype(np.int64)
        if len(_table_cache) > 64:
            _table_cache.clear()
        hit = (device(pts), device(lin), device(np.array(list(shape) or [1], np.int64)))
        _table_cache[key] = hit
    return hit


# ---- the binary kernel -------------------------------------------------------------------
def _render_binary(w, nd):
    # w: the unravel's integer type (uint32 below 2**32 elements: cheaper division); nd: the
    # rank, a constant, so the coordinates are registers (a runtime rank kept them in a local
    # array: the H200 ran a 3x3 erosion of 4096^2 in 1.99 ms that way)
    P = " " * 12
    unravel = []
    for d in range(nd - 1, 0, -1):
        unravel += [f"{P}c{d} = int64(r % {w}(s{d}))", f"{P}r //= {w}(s{d})"]
    unravel.append(f"{P}c0 = int64(r)")
    checks = []
    for d in range(nd):
        checks += [f"{P}    q = c{d} + offs[k, {d}]",
                   f"{P}    if q < 0 or q >= s{d}:", f"{P}        inside = False"]
    shapes = "\n".join(f"    s{d} = shp[{d}]" for d in range(nd))
    body = "\n".join(unravel + [f"{P}v = erode != 0", f"{P}for k in range(K):",
                                 f"{P}    inside = True"] + checks)
    text = f"""def KERNEL(n, nd, K, erode, border, use_mask, shp, offs, lin, X, M, Y, changed):
{shapes}
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    moved = False
    while i < n:
        x = X[i]
        v = x
        if use_mask == 0 or M[i]:
            r = {w}(i)
{body}
                nv = X[i + lin[k]] if inside else border != 0
                if nv != v:
                    v = nv
                    break
        Y[i] = v
        moved = moved or v != x
        i += step
    # one store a block at most: a store per changed pixel to the one flag serialises (a 3x3
    # erosion of a 30% mask of 4096^2: 564 us on the H200, every thread storing)
    if cuda.syncthreads_or(int32(moved)) and cuda.threadIdx.x == 0 and changed[0] == 0:
        changed[0] = int32(1)
"""
    name = _ew._kernel_name("ndi_binary", text)
    params = ([Param("scalar", _I64)] * 6 + [Param("array", _I64, 1, "C"),
              Param("array", _I64, 2, "C"), Param("array", _I64, 1, "C")]
              + [Param("array", _BOOL, 1, "C")] * 3 + [Param("array", _I32, 1, "C")])
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


# ---- the binary kernel of a small structure --------------------------------------------------
SMALL_STRUCTURE = 27     # structures of at most this many true elements: offsets as constants


def _render_binary_small(pts, erode, R):
    """The binary pass of one structure (``pts``: (K, nd) offsets, nd >= 2, a 1-D image viewed
    as (1, n)): the offsets are constants of the source, so a tap is one load at the thread's
    index plus a per-thread constant.  Threads: x along the last axis, y along the one before,
    z along the rest (unravelled once a row); a thread computes ``R`` outputs a row apart.
    Where all their taps lie inside the image each distinct tap position is loaded once for
    all of them and a structure row's and / or once for every output that reads it (a 3x3
    structure, R = 2: 12 loads and 2 row combinations for 2 outputs, not 18 and 6), without
    tests and without early exit (independent loads); near the edge one output at a time,
    each distinct offset of an axis tested once."""
    K, nd = pts.shape
    last, y = nd - 1, nd - 2
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    ns = ", ".join(f"n{d}" for d in range(nd))
    comb = " & " if erode else " | "
    L = [f"def KERNEL(X, M, Y, changed, use_mask, border, {ns}):",
         f"    st{last} = int64(1)"]
    L += [f"    st{d} = st{d + 1} * n{d + 1}" for d in range(nd - 2, -1, -1)]
    # the distinct tap positions of the R outputs (axis y shifted by the output) and their
    # linear offsets: per thread, not per pixel
    pos = {}
    for o in range(R):
        for p in pts:
            q = tuple(int(v) + (o if d == y else 0) for d, v in enumerate(p))
            pos.setdefault(q, len(pos))
    for q, k in pos.items():
        L.append(f"    l{k} = " + " + ".join([f"int64({v}) * st{d}" for d, v in enumerate(q) if v]
                                              or ["int64(0)"]))
    L += ["    bb = border != 0",
          f"    c{last} = int64(cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x)",
          f"    cys = int64(cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y) * {R}",
          "    lead = " + " * ".join(["int64(1)"] + [f"n{d}" for d in range(nd - 2)]),
          "    moved = False",
          # no early return: every thread of the block reaches the syncthreads_or below
          f"    if c{last} < n{last}:",
          f"        inx = c{last} >= {-lo[last]} and c{last} + {hi[last]} < n{last}",
          "        z = int64(cuda.blockIdx.z)",
          "        while z < lead:"]
    if nd > 2:
        L += _ew.unravel_lines("z", nd - 2, "            ", extent="n{d}", coord="c{d}")
    L += [f"            c{y} = cys", f"            while c{y} < n{y}:"]
    P = " " * 16
    Q = P + "    "
    lin = " + ".join(f"c{d} * st{d}" for d in range(nd - 1)) + f" + c{last}"
    L.append(f"{P}i = {lin}")
    # inside: every output of the thread exists and all their taps lie inside the image
    conds = ["inx", f"c{y} >= {-lo[y]}", f"c{y} + {R - 1 + max(int(hi[y]), 0)} < n{y}"]
    conds += [f"c{d} >= {-lo[d]} and c{d} + {hi[d]} < n{d}" for d in range(nd - 2)]
    L.append(f"{P}if {' and '.join(conds)}:")
    L += [f"{Q}u{k} = X[uint64(i + l{k})]" for k in pos.values()]
    rows = {}           # (position along y, the row's other offsets) -> its combination
    for o in range(R):
        parts = []
        for dy in sorted(set(int(v) for v in pts[:, y])):
            qs = tuple(sorted(tuple(int(v) + (o if d == y else 0) for d, v in enumerate(p))
                              for p in pts if p[y] == dy))
            if qs not in rows:
                rows[qs] = f"g{len(rows)}"
                L.append(f"{Q}{rows[qs]} = " + comb.join(f"u{pos[q]}" for q in qs))
            parts.append(rows[qs])
        centre = tuple(o if d == y else 0 for d in range(nd))
        L += [f"{Q}i{o} = i + {o} * st{y}" if o else f"{Q}i{o} = i",
              f"{Q}x{o} = u{pos[centre]}" if centre in pos else f"{Q}x{o} = X[uint64(i{o})]",
              f"{Q}v{o} = ({comb.join(parts)}) if use_mask == 0 or M[uint64(i{o})] else x{o}"]
    # the stores after every load (Y may alias X for all Numba knows)
    for o in range(R):
        L += [f"{Q}Y[uint64(i{o})] = v{o}", f"{Q}moved = moved or v{o} != x{o}"]
    # edge: one output at a time
    E = Q + "        "
    L += [f"{P}else:", f"{Q}for o in range({R}):", f"{Q}    e{y} = c{y} + o",
          f"{Q}    if e{y} < n{y}:", f"{E}j = i + o * st{y}", f"{E}x = X[uint64(j)]",
          f"{E}v = x", f"{E}if use_mask == 0 or M[uint64(j)]:"]
    F = E + "    "
    for d in range(nd):
        cd = f"e{d}" if d == y else f"c{d}"
        for o in sorted(set(int(v) for v in pts[:, d])):
            L.append(f"{F}in{d}_{o + 64} = {cd} + {o} >= 0 and {cd} + {o} < n{d}")
    taps = []
    for p in pts:
        ok = " and ".join(f"in{d}_{int(o) + 64}" for d, o in enumerate(p))
        taps.append(f"(X[uint64(j + l{pos[tuple(int(v) for v in p)]})] if {ok} else bb)")
    L.append(f"{F}v = " + comb.join(taps))
    L += [f"{E}Y[uint64(j)] = v", f"{E}moved = moved or v != x",
          f"{P}c{y} += cuda.gridDim.y * cuda.blockDim.y * {R}",
          "            z += cuda.gridDim.z",
          # one store a block at most (a store per changed pixel to one flag serialises)
          "    if cuda.syncthreads_or(int32(moved)) and cuda.threadIdx.x == 0 and "
          "cuda.threadIdx.y == 0 and changed[0] == 0:",
          "        changed[0] = int32(1)"]
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name("ndi_binary_small", text)
    params = ([Param("array", _BOOL, 1, "C")] * 3 + [Param("array", _I32, 1, "C")]
              + [Param("scalar", _I64)] * (2 + nd))
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _binary_pass_small(x, pts, erode, border, mask, y, changed):
    shape, _, _, pts = image_layout(x, y, pts)
    pts = np.ascontiguousarray(pts, dtype=np.int64)
    R = rows_per_thread(shape)
    kern = compiler.get_kernel(("ndimage", "binary_small", pts.tobytes(), pts.shape,
                                bool(erode), R), lambda: _render_binary_small(pts, erode, R))
    return (kern, image_grid(shape, R), (*BLOCK, 1), [],
            [int(mask is not None), int(bool(border))] + list(shape))


def _flat(ptr, n):
    """Launcher values of a C-contiguous bool image of ``n`` elements at ``ptr``, flat."""
    return [0, 0, n, 1, ptr, n, 1]


def _binary_pass(x, tables, K, erode, border, mask, y, changed, pts=None):
    """One pass over the C-contiguous bool image ``x`` into ``y``; ``pts``: the structure's
    offsets (a structure of at most SMALL_STRUCTURE elements takes its own kernel).  Returns
    the pass's launch parts (kernel, grid, block, values before and after the four arrays
    x, mask, y, changed): a replayed call launches them again with new pointers."""
    if pts is not None and 0 < K <= SMALL_STRUCTURE and x.ndim >= 1:
        parts = _binary_pass_small(x, pts, erode, border, mask, y, changed)
    else:
        offs, lin, shp = tables
        w = "uint32" if x.size < 2 ** 32 else "int64"
        nd = max(x.ndim, 1)
        kern = compiler.get_kernel(("ndimage", "binary", w, nd), lambda: _render_binary(w, nd))
        grid, block = _ew._grid(x.size, 1)
        parts = (kern, grid, block, [x.size, nd, K, int(erode), int(bool(border)),
                                     int(mask is not None)] + arr(shp) + arr(offs) + arr(lin),
                 [])
    kern, grid, block, head, tail = parts
    m = mask if mask is not None else x
    kern(grid, block, head + _flat(x._ptr, x.size) + _flat(m._ptr, x.size)
         + _flat(y._ptr, x.size) + arr(changed) + tail)
    return parts


def _structure(structure, nd, axes=None):
    """The bool structure of a binary operation on an ``nd``-dim input (``axes``: the axes it
    names, the others given size 1 as SciPy's ``_expand_footprint`` does)."""
    naxes = nd if axes is None else len(axes)
    if structure is None:
        s = generate_binary_structure(naxes, 1)
    else:
        s = np.asarray(host_array(structure), dtype=bool)
    if naxes < nd:
        if s.ndim != naxes:
            raise RuntimeError(f"structure.ndim ({s.ndim}) must match len(axes) ({naxes})")
        s = np.expand_dims(s, tuple(ax for ax in range(nd) if ax not in axes))
    if s.ndim != nd:
        raise RuntimeError("structure and input must have same dimensionality")
    if s.size < 1:
        raise RuntimeError("structure must not be empty")
    return s


def _write_output(result, output):
    """SciPy's binary morphology output: an array (not complex, of the result's shape, of a
    dtype its C code writes) receives the 0/1 result; anything else, a dtype included, gives
    the bool result (SciPy's ``_binary_erosion`` replaces a non-array output by bool)."""
    if isinstance(output, ndarray):
        from ._filters import _SUPPORTED
        if output.dtype.kind == "c":
            raise TypeError("Complex output type not supported")
        if output.shape != result.shape:
            raise RuntimeError("output shape not correct")
        if output.dtype.char not in _SUPPORTED:
            raise RuntimeError("data type not supported")        # SciPy's C erosion
        output[...] = result
        return output
    return result


# ---- plan replay -----------------------------------------------------------------------------
# A repeat call (same input layout, structure, border_value, origin; iterations == 1, no mask)
# replays the launch of its first call: one dict lookup, the output from the pool, one launch
# with the new pointers.  Iterating, masked and other calls take the full path.
# replay key -> (kernel, grid, block, head, tail, n, input used as is, the device tables whose
# pointers the head holds: referenced here, as _table_cache may drop them)
_plans = {}
_flags = {}             # device -> the changed flag of iterations == 1 passes (never read)


def _scratch_flag():
    dev = _rt.get_device_id()
    flag = _flags.get(dev)
    if flag is None:
        flag = _flags[dev] = empty_array((1,), _I32)
    return flag


def _replay_key(input, structure, iterations, mask, border_value, origin, erode, axes):
    """The plan key of a call that can replay, else None.  Exact classes only: a plain int
    border_value / origin / iterations, a host NumPy structure (keyed by its shape, dtype and
    bytes: a 3x3 structure's are cheap) or None, an npgpu input (keyed by its layout)."""
    if (mask is not None or iterations.__class__ is not int or iterations != 1
            or axes is not None or border_value.__class__ is not int or origin.__class__ is not int
            or input.__class__ is not ndarray):
        return None
    if structure is None:
        skey = None
    elif structure.__class__ is np.ndarray:
        skey = (structure.shape, structure.dtype, structure.tobytes())
    else:
        return None
    return (_rt.get_device_id(), erode, input.shape, input._strides, input.dtype, skey,
            border_value, origin)


def _replay(plan, input, output):
    """A stored pass on a new input (of the plan's layout): its mask operand is the input."""
    kern, grid, block, head, tail, n, direct, _ = plan
    cur = input if direct else contiguous(input, _BOOL)
    y = empty_array(input.shape, _BOOL)
    xv = _flat(cur._ptr, n)
    kern(grid, block, head + xv + xv + _flat(y._ptr, n) + tail)
    return _write_output(y, output)


def _expand_origin(origin, nd, axes):
    """``origin`` (one per axis in ``axes``) for all ``nd`` axes: 0 on the others."""
    full = [0] * nd
    for o, ax in zip(origin, axes):
        full[ax] = o
    return full


def _binary(input, structure, iterations, mask, output, border_value, origin, erode,
            axes=None):
    from ._filters import _axes
    key = _replay_key(input, structure, iterations, mask, border_value, origin, erode, axes)
    plan = _plans.get(key) if key is not None else None
    if plan is not None:
        return _replay(plan, input, output)
    try:
        iterations = operator.index(iterations)
    except TypeError as e:
        raise TypeError("iterations parameter should be an integer") from e
    x = check_input(input)
    axes = _axes(axes, x.ndim)
    if not erode:
        # SciPy's dilation: the reflected structure, origin mirrored (one less on even axes),
        # before the structure is expanded to the input's rank
        origin = normalize_origin(origin, len(axes))
        if structure is None:
            structure = generate_binary_structure(len(axes), 1)
        structure = np.asarray(host_array(structure))
        structure = structure[tuple([slice(None, None, -1)] * structure.ndim)]
        origin = [-o - (1 - structure.shape[d] % 2) for d, o in enumerate(origin)]
    s = _structure(structure, x.ndim, axes)
    border_value = operator.index(border_value)        # SciPy's C call takes an int
    if mask is not None:
        mask = device(mask)
        if mask.shape != x.shape:
            raise RuntimeError("mask and input must have equal sizes")
        mask = contiguous(mask, _BOOL)
    origin = _expand_origin(normalize_origin(origin, len(axes)), x.ndim, axes)
    pts = offsets(s, origin)
    if x.dtype.char not in "?bBhHiIlLqQfd":
        raise RuntimeError("data type not supported")        # SciPy's C erosion
    cur = contiguous(x, _BOOL)
    if cur.size == 0:
        return _write_output(cur.copy(), output)
    tables = _tables(pts, x.shape)
    # written by every pass, read only when iterating
    changed = _scratch_flag() if iterations == 1 else empty_array((1,), _I32)
    direct = cur is x
    nxt = None
    done = 0
    while iterations < 1 or done < iterations:
        if nxt is None:
            nxt = empty_array(cur.shape, _BOOL)
        if iterations != 1:
            changed.fill(0)
        parts = _binary_pass(cur, tables, len(pts), erode, border_value, mask, nxt, changed,
                             pts)
        # the previous input becomes the next output, unless it is the caller's array
        cur, nxt = nxt, (None if cur is x else cur)
        done += 1
        if iterations != 1 and not read_scalar(changed):
            break
    result = _write_output(cur, output)
    if key is not None:
        # stored after a successful call only; the flag's values join the tail
        kern, grid, block, head, tail = parts
        remember(_plans, key,
                 (kern, grid, block, head, arr(changed) + tail, cur.size, direct, tables))
    return result


# ---- public: structures ---------------------------------------------------------------------
def generate_binary_structure(rank, connectivity):
    """``scipy.ndimage.generate_binary_structure``: a host NumPy bool array (structures are
    small arguments; every function here accepts host or device structures)."""
    if connectivity < 1:
        connectivity = 1
    if rank < 1:
        return np.array(True, dtype=bool)
    return np.add.reduce(np.fabs(np.indices([3] * rank) - 1), 0) <= connectivity


def iterate_structure(structure, iterations, origin=None):
    """``scipy.ndimage.iterate_structure``: the structure dilated with itself
    ``iterations - 1`` times (a host NumPy array, like the structure it grows)."""
    s = np.asarray(host_array(structure))
    if iterations < 2:
        return s.copy()                # SciPy: no origin returned here either
    else:
        ni = iterations - 1
        shape = [k + ni * (k - 1) for k in s.shape]
        pos = [ni * (k // 2) for k in s.shape]
        out = np.zeros(shape, bool)
        out[tuple(slice(p, p + k) for p, k in zip(pos, s.shape))] = s != 0
        out = binary_dilation(device(out), s, iterations=ni).get()
    if origin is None:
        return out
    return out, [iterations * o for o in normalize_origin(origin, s.ndim)]


# ---- public: binary morphology ----------------------------------------------------------------
def binary_erosion(input, structure=None, iterations=1, mask=None, output=None,
                   border_value=0, origin=0, brute_force=False, *, axes=None):
    """``scipy.ndimage.binary_erosion`` (``brute_force`` is accepted; every pass visits every
    element)."""
    return _binary(input, structure, iterations, mask, output, border_value, origin, True,
                   axes)


def binary_dilation(input, structure=None, iterations=1, mask=None, output=None,
                    border_value=0, origin=0, brute_force=False, *, axes=None):
    """``scipy.ndimage.binary_dilation``."""
    return _binary(input, structure, iterations, mask, output, border_value, origin, False,
                   axes)


def _sequence(first, second, input, structure, iterations, output, origin, mask,
              border_value, axes):
    x = check_input(input)
    # structure None: both passes use generate_binary_structure(len(axes), 1), as SciPy does
    tmp = first(x, structure, iterations, mask, None, border_value, origin, axes=axes)
    return second(tmp, structure, iterations, mask, output, border_value, origin, axes=axes)


def binary_opening(input, structure=None, iterations=1, output=None, origin=0, mask=None,
                   border_value=0, brute_force=False, *, axes=None):
    """``scipy.ndimage.binary_opening``: erosion then dilation."""
    return _sequence(binary_erosion, binary_dilation, input, structure, iterations, output,
                     origin, mask, border_value, axes)


def binary_closing(input, structure=None, iterations=1, output=None, origin=0, mask=None,
                   border_value=0, brute_force=False, *, axes=None):
    """``scipy.ndimage.binary_closing``: dilation then erosion."""
    return _sequence(binary_dilation, binary_erosion, input, structure, iterations, output,
                     origin, mask, border_value, axes)


def binary_hit_or_miss(input, structure1=None, structure2=None, output=None, origin1=0,
                       origin2=None, *, axes=None):
    """``scipy.ndimage.binary_hit_or_miss``: ``structure1`` fits the foreground and
    ``structure2`` (default: not ``structure1``) the background, whose border counts as
    background (SciPy's inverted erosion flips the border value)."""
    from ...ufuncs import logical_and, logical_not
    from ._filters import _axes
    x = check_input(input)
    naxes = len(_axes(axes, x.ndim))
    s1 = generate_binary_structure(naxes, 1) if structure1 is None else \
        np.asarray(host_array(structure1))
    s2 = np.logical_not(s1) if structure2 is None else structure2
    hit = binary_erosion(x, s1, 1, None, None, 0, origin1, axes=axes)
    miss = binary_erosion(logical_not(x), s2, 1, None, None, 1,
                          origin1 if origin2 is None else origin2, axes=axes)
    res = _write_output(logical_and(hit, miss), output)
    return None if isinstance(output, ndarray) else res     # SciPy fills an output in place


def binary_propagation(input, structure=None, mask=None, output=None, border_value=0,
                       origin=0, *, axes=None):
    """``scipy.ndimage.binary_propagation``: dilation under ``mask`` until unchanged."""
    return binary_dilation(input, structure, -1, mask, output, border_value, origin,
                           axes=axes)


def binary_fill_holes(input, structure=None, output=None, origin=0, *, axes=None):
    """``scipy.ndimage.binary_fill_holes``: the background not reached from the border
    (a dilation from the border, under the background, until unchanged) is filled."""
    from ...ufuncs import logical_not
    x = device(input)           # SciPy erodes logical_not(input) only: complex input works
    mask = logical_not(contiguous(x, _BOOL))
    from ...creation import zeros
    seed = zeros(x.shape, _BOOL)
    reached = binary_dilation(seed, structure, -1, mask, None, 1, origin, axes=axes)
    res = _write_output(logical_not(reached), output)
    return None if isinstance(output, ndarray) else res     # SciPy fills an output in place


# ---- grey morphology ------------------------------------------------------------------------
def _render_grey(dt, out_dt, w):
    from . import _boundary
    t = _ew.type_name(dt)
    modes = "\n".join(_boundary.any_mode_lines("mode", "c[d] + offs[k, d]", "s", j="q",
                                                pad=" " * 16))
    # SciPy's C loop: the first tap's value + structure in double, every later one's in the
    # input's type (the structure value cast to it first: integers truncate and wrap), compared
    # in double; the result stored into the output's type by C's cast (unsigned and bool
    # outputs through SciPy's negation for values below -1: the low bits either way).  Bool
    # images are read and written as their npy_bool bytes (uint8): SciPy stores -1 as 255,
    # which a following pass reads as 255
    if dt.kind == "b":
        cv = "uint8(int64(cval))"
        tap = "uint8(int64(v) + int64(uint8(int64(w))))"
    elif dt.kind == "f":
        cv, tap = f"{t}(cval)", f"{t}(v + {t}(w))"
    else:
        cv = f"{t}(int64(cval))"
        tap = f"{t}(int64(v) + int64({t}(int64(w))))"
    to = _ew.type_name(out_dt)
    store = (f"{to}(acc)" if out_dt.kind == "f" else
             "uint8(int64(acc) & int64(255))" if out_dt.kind == "b" else f"{to}(int64(acc))")
    text = f"""def KERNEL(n, nd, K, dilate, mode, cval, shp, offs, sv, X, Y):
    c = cuda.local.array({MAXDIMS}, int64)
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        r = {w}(i)
        for d in range(nd - 1, -1, -1):
            e = {w}(shp[d])
            c[d] = r % e
            r //= e
        acc = float64(0)
        for k in range(K):
            j = int64(0)
            oob = False
            for d in range(nd):
                s = shp[d]
{modes}
                j = j * s + q
            v = {cv} if oob else X[j]
            w = sv[k] if dilate != 0 else -sv[k]
            if k == 0:
                acc = float64(v) + w
            else:
                u = float64({tap})
                if dilate != 0:
                    if u > acc:
                        acc = u
                elif u < acc:
                    acc = u
        Y[i] = {store}
        i += step
"""
    name = _ew._kernel_name("ndi_grey", text)
    params = ([Param("scalar", _I64)] * 5 + [Param("scalar", _F64),
              Param("array", _I64, 1, "C"), Param("array", _I64, 2, "C"),
              Param("array", _F64, 1, "C"), Param("array", _bytes(dt), 1, "C"),
              Param("array", _bytes(out_dt), 1, "C")])
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _bytes(dt):
    """The dtype the grey kernel reads and writes ``dt`` images as: bool as its bytes."""
    return np.dtype(np.uint8) if dt == _BOOL else dt


def _grey(input, size, footprint, structure, output, mode, cval, origin, dilate, axes=None,
          bytes_in=False, bytes_out=False):
    """SciPy's ``_min_or_max_filter``: without ``structure`` the filters module's minimum /
    maximum filter (separable passes for a box); with it, the grey kernel above.  ``axes``:
    the footprint, structure and origin name those axes only (size 1 along the others).
    ``bytes_in``: ``input`` is a uint8 array of npy_bool bytes (a bool image); ``bytes_out``:
    a bool result (``output`` None) is returned as its bytes, as SciPy's next pass reads it."""
    from . import _boundary, _filters
    x = check_input(input)
    in_dt = _BOOL if bytes_in else x.dtype
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    nd = x.ndim
    axes = _filters._axes(axes, nd)
    fp = None if footprint is None else np.asarray(host_array(footprint), dtype=bool)
    origin = normalize_origin(origin, len(axes))
    if dilate:
        # SciPy's grey_dilation: reflected footprint/structure, origin mirrored
        if fp is not None:
            fp = fp[tuple([slice(None, None, -1)] * fp.ndim)]
        if structure is not None:
            structure = np.asarray(host_array(structure))
            structure = structure[tuple([slice(None, None, -1)] * structure.ndim)]
        for d in range(len(axes)):
            sz = (fp.shape[d] if fp is not None else np.shape(host_array(structure))[d]
                  if structure is not None else size if np.ndim(size) == 0 else size[d])
            origin[d] = -origin[d] - (1 - sz % 2)
    if size is not None and footprint is not None:
        # warned here, not by the filters, so that it names grey_erosion's caller (as SciPy)
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
        size = None
    if structure is None:
        f = _filters.maximum_filter if dilate else _filters.minimum_filter
        return f(x, size, fp, output, mode, cval, origin, axes=axes)
    s = np.asarray(host_array(structure), dtype=np.float64)
    if fp is None:
        fp = np.ones(s.shape, bool)
    if len(axes) < nd:
        fp = _filters._expand_footprint(nd, axes, fp)
        if s.ndim != len(axes):
            raise RuntimeError("structure array has incorrect shape")
        s = np.expand_dims(s, tuple(ax for ax in range(nd) if ax not in axes))
        origin = _filters._expand_origin(nd, axes, origin)
    if fp.ndim != nd:
        raise RuntimeError(f"footprint.ndim ({fp.ndim}) must match len(axes) ({nd})")
    if s.shape != fp.shape:
        raise RuntimeError("structure array has incorrect shape")
    if not fp.any():
        raise ValueError("All-zero footprint is not supported.")
    _filters._single_mode(mode, "A sequence of modes is not supported for non-separable "
                                "footprints")
    code = _boundary.code(mode)
    out_dt = output.dtype if isinstance(output, ndarray) else \
        in_dt if output is None else np.dtype(output)
    if isinstance(output, ndarray) and output.shape != x.shape:
        raise RuntimeError("output shape not correct")
    if in_dt.char not in _filters._SUPPORTED or out_dt.char not in _filters._SUPPORTED:
        raise RuntimeError("array type not supported")          # SciPy's C n-D filter
    cval = _boundary.real_cval(cval)
    pts = offsets(fp, origin)
    sv = device(np.ascontiguousarray(s[fp], dtype=np.float64))
    xc = contiguous(x, x.dtype)
    if in_dt == _BOOL:
        xc = xc.view(np.uint8)
    y = empty_array(x.shape, _bytes(out_dt))
    if y.size:
        offs, _, shp = _tables(pts, x.shape)
        w = "uint32" if y.size < 2 ** 32 else "int64"
        kern = compiler.get_kernel(("ndimage", "grey", in_dt, out_dt, w),
                                   lambda: _render_grey(in_dt, out_dt, w))
        grid, block = _ew._grid(y.size, 1)
        kern(grid, block, [y.size, max(nd, 1), len(pts), int(dilate), code, float(cval)]
             + arr(shp) + arr(offs) + arr(sv) + arr(xc.reshape(-1)) + arr(y.reshape(-1)))
    if out_dt == _BOOL:
        if bytes_out and output is None:
            return y
        from ...ufuncs import not_equal
        y = not_equal(y, 0)
    if isinstance(output, ndarray):
        output[...] = y
        return output
    return y


def grey_erosion(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """``scipy.ndimage.grey_erosion``: minimum over the footprint of ``input - structure``."""
    return _grey(input, size, footprint, structure, output, mode, cval, origin, False, axes)


def grey_dilation(input, size=None, footprint=None, structure=None, output=None,
                  mode="reflect", cval=0.0, origin=0, *, axes=None):
    """``scipy.ndimage.grey_dilation``: maximum over the reflected footprint of
    ``input + structure``."""
    return _grey(input, size, footprint, structure, output, mode, cval, origin, True, axes)


def _grey_pair(input, size, footprint, structure, output, mode, cval, origin, axes, dilate):
    """Two grey passes, the first a dilation when ``dilate``, as SciPy's opening and closing:
    a bool image passes between them as its npy_bool bytes (SciPy's first pass may store 255
    or 2 there, which its second reads as such)."""
    x = device(input)
    raw = structure is not None and x.dtype == _BOOL
    tmp = _grey(x, size, footprint, structure, None, mode, cval, origin, dilate, axes,
                bytes_out=raw)
    return _grey(tmp, size, footprint, structure, output, mode, cval, origin, not dilate,
                 axes, bytes_in=raw)


def _warn_size(size, footprint, stacklevel=3):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning,
                      stacklevel=stacklevel)


def grey_opening(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """``scipy.ndimage.grey_opening``: grey erosion then grey dilation."""
    _warn_size(size, footprint)
    return _grey_pair(input, size, footprint, structure, output, mode, cval, origin, axes,
                      False)


def grey_closing(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """``scipy.ndimage.grey_closing``: grey dilation then grey erosion."""
    _warn_size(size, footprint)
    return _grey_pair(input, size, footprint, structure, output, mode, cval, origin, axes,
                      True)


# ---- composed grey operators (npgpu's arithmetic on the grey results, SciPy's order) --------
def _device_output(output):
    # SciPy writes a NumPy output in place; npgpu never writes host memory implicitly (and
    # morphological_gradient / _laplace would otherwise ignore it silently)
    if isinstance(output, np.ndarray):
        raise TypeError("output must be an npgpu array or a dtype")


def _tophat(input, size, footprint, structure, output, mode, cval, origin, axes, white):
    """``input`` minus its opening (white) or the closing minus ``input`` (black), in the
    array the second grey pass returns (``output``'s dtype: SciPy's casting rules and
    errors); a bool input and a bool result take xor (bool subtraction is an error)."""
    from ...ufuncs import bitwise_xor, subtract
    _device_output(output)
    x = device(input)
    _warn_size(size, footprint, 4)      # white_tophat's caller
    tmp = _grey_pair(x, size, footprint, structure, output, mode, cval, origin, axes,
                     not white)
    a, b = (x, tmp) if white else (tmp, x)
    if x.dtype == _BOOL and tmp.dtype == _BOOL:
        return bitwise_xor(a, b, out=tmp)
    return subtract(a, b, out=tmp)


def white_tophat(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """``scipy.ndimage.white_tophat``: ``input`` minus its grey opening."""
    return _tophat(input, size, footprint, structure, output, mode, cval, origin, axes, True)


def black_tophat(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    """``scipy.ndimage.black_tophat``: the grey closing of ``input`` minus ``input``."""
    return _tophat(input, size, footprint, structure, output, mode, cval, origin, axes, False)


def _dilation_erosion(input, size, footprint, structure, output, mode, cval, origin, axes):
    """(input, its grey dilation, its grey erosion -- into ``output`` when that is an array,
    as SciPy's gradient and Laplace do; a dtype ``output`` is ignored as there)."""
    _device_output(output)
    x = device(input)
    args = (size, footprint, structure)
    dil = grey_dilation(x, *args, None, mode, cval, origin, axes=axes)
    ero = grey_erosion(x, *args, output if isinstance(output, ndarray) else None, mode, cval,
                       origin, axes=axes)
    return x, dil, output if isinstance(output, ndarray) else ero


def morphological_gradient(input, size=None, footprint=None, structure=None, output=None,
                           mode="reflect", cval=0.0, origin=0, *, axes=None):
    """``scipy.ndimage.morphological_gradient``: grey dilation minus grey erosion.  As in
    SciPy, only an output array is used (a dtype ``output`` is ignored: input's dtype)."""
    from ...ufuncs import subtract
    x, dil, ero = _dilation_erosion(input, size, footprint, structure, output, mode, cval,
                                    origin, axes)
    return subtract(dil, ero, out=ero) if ero is output else dil - ero


def morphological_laplace(input, size=None, footprint=None, structure=None, output=None,
                          mode="reflect", cval=0.0, origin=0, *, axes=None):
    """``scipy.ndimage.morphological_laplace``: dilation + erosion - 2 input, summed in the
    result's dtype in SciPy's order (integers wrap as SciPy's do).  Only an output array is
    used, as in SciPy."""
    from ...ufuncs import add, subtract
    x, dil, res = _dilation_erosion(input, size, footprint, structure, output, mode, cval,
                                    origin, axes)
    add(dil, res, out=res)
    subtract(res, x, out=res)
    return subtract(res, x, out=res)
