"""Stream compaction: keep the elements whose flag is set, in C order -- and its inverse.

Masks, ``nonzero``, ``compress``, ``extract`` and ``place`` are built on this module (sorting
and sets will be too).  A compaction over flags ``F`` (any dtype, any layout) is:

1. flags: ``F`` itself when it is a C-contiguous bool array, else one elementwise kernel writing
   ``F != 0`` into a C-contiguous bool array (NumPy's truth of a number: NaN is true);
2. ranks: ``R = cumsum(flags)``, the existing scan (``npgpu.cumsum``: one look-back launch, a
   replayed plan on repeat calls), in int32 (int64 past 2**31 - 1 flags).  ``R[m] - 1`` is the
   output slot of a set flag ``m``;
3. count: ``R[-1]``, one 4- or 8-byte device-to-host read -- the output's size, the one thing
   the host must know;
4. one kernel, rendered here and compiled by ``_codegen.compiler.get_kernel``, that moves the
   selected elements: thread ``i`` tests ``F[m(i)]`` and, if set, moves element ``i``.

A mask select therefore costs the scan, one scatter kernel and one small read (plus one
elementwise kernel when the flags are not already a C-contiguous bool array).  When the flags
cover C-contiguous data from its first axis (``a[mask]``, ``flatnonzero``), ``tile_select.py``
does the same with per-tile counts instead of a ranks array (4 bytes an element less written
and read).

API (``flags`` may also be a :class:`Ranks` from :func:`rank`, to reuse one scan):

* :func:`rank` -- steps 1-3: a :class:`Ranks` (``flags``, ``ranks``, ``count``);
* :func:`select_values` -- ``src`` compacted along ``axis`` where ``flags`` (of the shape of
  ``src.shape[axis:axis + flags.ndim]``) is set: ``a[mask]``, ``compress``;
* :func:`select_indices` -- the C-order linear indices of the set flags: ``flatnonzero``;
* :func:`select_coords` -- their coordinates as a ``(count, ndim)`` array: ``argwhere``;
* :func:`expand` -- the inverse: ``dst[..mask..] = packed[rank]`` (``a[mask] = values``),
  optionally cycling through the packed values (``place``);
* :func:`masked_fill` / :func:`masked_cycle` -- ``dst[mask] = v`` and ``putmask``'s
  ``dst.flat[i] = values[i % len(values)]``: no scan, one kernel.

Every kernel is one rendering of :func:`_render` (one template, a mode per row of
:data:`MODES`); the data operand keeps its own strides (negative and non-contiguous included),
flags and ranks are read C-contiguous through the mask-linear index ``m(i)``.
"""
import numpy as np

from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import transfer as _transfer
from .._core.ndarray import empty_array, ndarray
from . import tile_select as _tiles

_BOOL = np.dtype(np.bool_)
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_NONZERO = _ew.ScalarOp.from_expr("compaction:nonzero", 1, "x0 != 0")


class Ranks:
    """One scan of a flag array: ``flags`` (C-contiguous bool, the flags' shape), ``ranks``
    (1-d inclusive scan of the flags, int32 or int64) and ``count`` (a host int)."""

    __slots__ = ("flags", "ranks", "count")

    def __init__(self, flags, ranks, count):
        self.flags = flags
        self.ranks = ranks
        self.count = count

    @property
    def shape(self):
        return self.flags.shape


def bool_flags(flags):
    """``flags`` as a C-contiguous bool array (itself if it is one already, else one kernel)."""
    if flags.dtype == _BOOL and flags._c_contig:
        return flags
    out = empty_array(flags.shape, _BOOL)
    if out.size:
        _ew.launch(_NONZERO, [flags], [flags.dtype], [out], [_BOOL], name="flags")
    return out


def rank(flags):
    """Scan ``flags`` (npgpu array, any dtype and layout): a :class:`Ranks`.

    Launches: the scan (plus one kernel when ``flags`` is not a C-contiguous bool array);
    one device-to-host read of the count.  Empty flags cost nothing."""
    if isinstance(flags, Ranks):
        return flags
    from ..reductions.functions import cumsum
    f = bool_flags(flags)
    if f.size == 0:
        return Ranks(f, empty_array((0,), _I32), 0)
    rdt = _I32 if f.size < 2 ** 31 else _I64
    r = cumsum(f.reshape(-1), dtype=rdt)
    host = np.empty(1, rdt)
    _transfer._d2h(host, r._ptr + (r.size - 1) * rdt.itemsize, rdt.itemsize)
    return Ranks(f, r, int(host[0]))


# ---- the kernel template --------------------------------------------------------------------
# mode -> (ranks read, data operand X read or written, body).  In the bodies: ``p`` the rank
# slot, ``c`` X's coordinates, ``o``/``j`` the outer/inner coordinates around the mask axes.
MODES = {
    "values": (True, "read", "Y[o, p, j] = X[c]"),         # compact X into Y (outer, count, inner)
    "index": (True, None, "Y[p] = idx"),                   # linear indices of set flags
    "coords": (True, "shape", None),                       # Y[p, d] = c_d (X: the flags, N-d)
    "expand": (True, "write", "X[c] = {Y[q, j]}"),          # X[c] = Y[p (mod nv), j]
    "fill": (False, "write", "X[c] = v"),                  # a scalar where the flag is set
    "cycle": (False, "write", "X[c] = {Y[idx % nv]}"),     # putmask: Y[i mod nv]
}


def _render(mode, nd, x_dt, y_dt, r_dt, outer, inner, cyclic):
    use_ranks, xuse, body = MODES[mode]
    args = ["n", "inner", "msize", "nv", "F"]
    params = [Param("scalar", _I64)] * 4 + [Param("array", _BOOL, 1, "C")]
    if use_ranks:
        args.append("R")
        params.append(Param("array", r_dt, 1, "C"))
    if xuse:
        args.append("X")
        params.append(Param("array", x_dt, nd, "A"))
    if mode == "fill":
        args.append("v")
        params.append(Param("scalar", x_dt))
    else:
        ynd = {"values": 3, "index": 1, "coords": 2, "expand": 2, "cycle": 1}[mode]
        args.append("Y")
        params.append(Param("array", y_dt, ynd, "A"))
    L = [f"def KERNEL({', '.join(args)}):"]
    if xuse:
        L += [f"    s{d} = X.shape[{d}]" for d in range(1, nd)]
    L += ["    idx = cuda.grid(1)", "    step = cuda.gridsize(1)", "    while idx < n:"]
    # the mask-linear index of element idx (the data is (outer, mask..., inner) in C order)
    m = "idx" if not inner else "idx // inner"
    if outer:
        m = f"({m}) % msize"
    L.append(f"        m = {m}")
    L.append("        if F[m]:")
    P = "            "
    if use_ranks:
        L.append(f"{P}p = int64(R[m]) - 1")
    if xuse:
        L += _ew.unravel_lines("idx", nd, P)
    c = ", ".join(f"c{d}_" for d in range(nd))
    if mode == "coords":
        L += [f"{P}Y[p, {d}] = c{d}_" for d in range(nd)]
    else:
        o = "idx // (msize * inner)" if outer else "0"
        j = "idx % inner" if inner else "0"
        q = "p % nv" if cyclic else "p"
        ysrc = {"expand": f"Y[{q}, {j}]", "cycle": "Y[idx % nv]"}.get(mode)
        line = body.replace("X[c]", f"X[{c}]").replace("Y[o, p, j]", f"Y[{o}, p, {j}]")
        if ysrc is not None:
            line = line.split(" = ")[0] + " = " + _ew.cast_expr(ysrc, y_dt, x_dt)
        L.append(P + line)
    L.append("        idx += step")
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"compact_{mode}", text)
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _arr(x, shape=None, strides=None):
    shape = x.shape if shape is None else shape
    strides = x._strides if strides is None else strides
    return _ew._arr_values(x._ptr, shape, strides, x.itemsize)


def _launch(mode, n, f, r, x, y, v=None, outer=1, inner=1, msize=1, nv=1, cyclic=False):
    """Run ``mode`` over ``n`` elements: data ``x`` (npgpu array, any strides; collapsed here),
    flags ``f`` and ranks ``r`` (C-contiguous), packed ``y`` (or None), scalar ``v``."""
    if n == 0:
        return
    xshape = xstrides = ()
    if x is not None:
        if mode == "coords":
            xshape, xstrides = x.shape, x._strides
        else:
            # merging dims keeps the C-order linear index (what m, o and j are computed from)
            xshape, (xstrides,) = _ew._collapse(x.shape, [x._strides])
        if not xshape:
            xshape, xstrides = (1,), (0,)
    nd = len(xshape)
    key = ("compaction", mode, nd, x.dtype if x is not None else None,
           y.dtype if y is not None else None, r.dtype if r is not None else None,
           outer > 1, inner > 1, cyclic)
    kern = compiler.get_kernel(key, lambda: _render(mode, nd, key[3], key[4], key[5],
                                                    outer > 1, inner > 1, cyclic))
    values = [n, inner, msize, nv] + _arr(f, (f.size,), (1,))
    if r is not None and MODES[mode][0]:
        values += _arr(r)
    if x is not None:
        values += _arr(x, xshape, xstrides)
    if mode == "fill":
        values += [v.real, v.imag] if v.dtype.kind == "c" else [v]
    else:
        values += _arr(y)
    grid, block = _ew._grid(n, 1)
    kern(grid, block, values)


# ---- compaction -------------------------------------------------------------------------------
def _check_axes(src_shape, fshape, axis):
    if src_shape[axis:axis + len(fshape)] != fshape:
        raise ValueError(f"flags of shape {fshape} do not match axes {axis}.. of shape "
                         f"{src_shape}")


def select_values(src, flags, axis=0):
    """``src`` compacted along axes ``axis .. axis + flags.ndim``: the elements (or sub-arrays)
    whose flag is set, in C order, as a new C-contiguous array of shape
    ``src.shape[:axis] + (count,) + src.shape[axis + flags.ndim:]``.

    ``a[mask]`` is ``select_values(a, mask)``; ``compress(c, a, axis)`` uses ``axis``.
    ``axis=None``: the flags (of ``src.size`` elements) cover ``src`` in C order, whatever its
    shape and strides; the result is 1-d."""
    if axis in (0, None) and not isinstance(flags, Ranks) and src._c_contig:
        f = bool_flags(flags)
        if axis is None and f.size != src.size:
            raise ValueError(f"{f.size} flags for {src.size} elements")
        if axis == 0:
            _check_axes(src.shape, f.shape, 0)
        if _tiles.applies(f, src):      # no ranks array: tile counts (tile_select.py)
            return _tiles.select(src, f.reshape(-1), () if axis is None else src.shape[f.ndim:])
        flags = f
    rk = rank(flags)
    k = len(rk.shape)
    if axis is None:
        if rk.flags.size != src.size:
            raise ValueError(f"{rk.flags.size} flags for {src.size} elements")
        pre, post = (), ()
    else:
        _check_axes(src.shape, rk.shape, axis)
        pre, post = src.shape[:axis], src.shape[axis + k:]
    outer, inner = int(np.prod(pre, dtype=np.int64)), int(np.prod(post, dtype=np.int64))
    out = empty_array(pre + (rk.count,) + post, src.dtype)
    if out.size:
        y = out.reshape((outer, rk.count, inner))
        _launch("values", src.size, rk.flags, rk.ranks, src, y, outer=outer, inner=inner,
                msize=rk.flags.size)
    return out


def select_indices(flags):
    """int64 C-order linear indices of the set flags (``flatnonzero``)."""
    if not isinstance(flags, Ranks):
        flags = bool_flags(flags)
        if _tiles.applies(flags):
            return _tiles.indices(flags.reshape(-1))
    rk = rank(flags)
    out = empty_array((rk.count,), _I64)
    if rk.count:
        _launch("index", rk.flags.size, rk.flags, rk.ranks, None, out, msize=rk.flags.size)
    return out


def select_coords(flags):
    """int64 ``(count, ndim)`` array of the coordinates of the set flags, C order
    (``argwhere``; ``nonzero`` returns its columns)."""
    rk = rank(flags)
    nd = len(rk.shape)
    out = empty_array((rk.count, nd), _I64)
    if out.size:
        _launch("coords", rk.flags.size, rk.flags, rk.ranks, rk.flags, out,
                msize=rk.flags.size)
    return out


# ---- the inverse: writes at the set flags -----------------------------------------------------
def expand(dst, flags, packed, cyclic=False):
    """``dst[mask] = packed``: the set flags of ``flags`` (the shape of ``dst``'s leading axes)
    take the rows of ``packed`` (shape ``(count or nv, inner)``, any strides, cast to dst's
    dtype on load) in order; ``cyclic``: row ``rank % nv`` (``place``)."""
    rk = rank(flags)
    _check_axes(dst.shape, rk.shape, 0)
    inner = int(np.prod(dst.shape[len(rk.shape):], dtype=np.int64))
    if rk.count == 0 or inner == 0:
        return rk
    _launch("expand", dst.size, rk.flags, rk.ranks, dst, packed, inner=inner,
            msize=rk.flags.size, nv=packed.shape[0], cyclic=cyclic)
    return rk


def masked_fill(dst, flags, value):
    """``dst[mask] = value`` for a NumPy scalar ``value`` of dst's dtype; ``flags`` of the shape
    of dst's leading axes.  No scan: one kernel (plus the flags' conversion, if needed)."""
    f = bool_flags(flags)
    _check_axes(dst.shape, f.shape, 0)
    inner = int(np.prod(dst.shape[f.ndim:], dtype=np.int64))
    _launch("fill", dst.size, f, None, dst, None, v=value, inner=inner, msize=f.size)


def masked_cycle(dst, flags, values):
    """``putmask``: ``dst.flat[i] = values.flat[i % values.size]`` where ``flags.flat[i]``
    (``flags`` and ``dst`` of one size; ``values`` 1-d, cast to dst's dtype).  No scan."""
    f = bool_flags(flags)
    if values.size == 0:
        return
    _launch("cycle", dst.size, f, None, dst, values, msize=f.size, nv=values.size)
