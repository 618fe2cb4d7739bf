"""One gather kernel for tile, repeat, roll, resize, insert/delete and pad: ``out[c] = a[j]``.

Each output axis ``d`` has an *axis map* ``j_d = f_d(c_d)`` from the output coordinate to the
source coordinate, so a thread unravels its element's linear (C-order) index, maps each
coordinate, and loads the source element through the source's own strides (negative, zero and
non-contiguous strides included).  One kernel, one allocation, no temporary; the map kinds are
the rows of :data:`MAPS`.  A ``const`` map marks coordinates outside the source; the element
then takes a fill value (pad's ``constant`` mode: the last such axis picks the value, as NumPy's
axis-by-axis padding leaves it).
"""
import re

import numpy as np

from ._codegen import compiler
from ._codegen import elementwise as _ew
from ._codegen.compiler import KernelSource, Param
from ._core.ndarray import empty_array

_I64 = np.dtype(np.int64)
EPT = 4     # elements a thread (as the elementwise contiguous layout, whose tests chose 4)

# kind -> (scalar parameter names, source lines computing j from c; W is the index type).
# Every map keeps its intermediate values non-negative, except edge/const (signed int64);
# W(..) is the index type (Numba types uint32 - int64 literal as int64, and a mix as float).
MAPS = {
    "id": ((), "j = c"),
    "zero": ((), "j = 0"),
    "div": (("r",), "j = c // r"),                                  # repeat by a scalar
    "mod": (("o", "m"), "j = (c + o) % m"),                         # tile, wrap, resize
    "rot": (("o", "m"), "j = c + o\nif j >= m:\n    j -= m"),       # roll (o < m)
    "reflect": (("o", "p"), "j = (c + o) % p\nif j >= p - j:\n    j = p - j"),
    "symmetric": (("o", "p"), "j = (c + o) % p\nif j + j >= p:\n    j = p - W(1) - j"),
    "edge": (("b", "m"), "j = int64(c) - b\nif j < 0:\n    j = 0\nelif j >= m:\n    j = m - 1"),
    "const": (("b", "m"), "j = int64(c) - b\nif j < 0:\n    j = 0\n    f = LO\nelif j >= m:\n"
                          "    j = 0\n    f = HI"),
    "table": ((), "j = T[c]"),                                      # delete, insert
    "search": ((), "lo = 0\nhi = T.shape[0]\nwhile lo < hi:\n    mid = (lo + hi) >> 1\n"
                   "    if T[mid] <= c:\n        lo = mid + 1\n    else:\n        hi = mid\nj = lo"),
}
_SIGNED = {"edge", "const", "table", "search"}     # maps whose parameters stay int64


class AxisMap:
    """One output axis: ``size`` coordinates mapped by ``kind`` with ``params`` (ints) and, for
    ``table``/``search``, a device int64 array ``table``; ``fill``: for ``const``, the
    (before, after) values of this axis."""

    __slots__ = ("kind", "size", "params", "table", "fill")

    def __init__(self, kind, size, *params, table=None, fill=None):
        self.kind, self.size, self.params, self.table, self.fill = kind, int(size), params, table, fill


def ident(n):
    return AxisMap("id", n)


def _render(dt, kinds, fill_sel, nfill, narrow):
    nd = len(kinds)
    w = "uint32" if narrow else "int64"
    args = ["n", "out", "src"] + [f"s{d}" for d in range(1, nd)]
    for d, kind in enumerate(kinds):
        args += [f"{p}{d}" for p in MAPS[kind][0]]
        if kind in ("table", "search"):
            args.append(f"T{d}")
    args += [f"fv{k}" for k in range(nfill)]
    lines = [f"def KERNEL({', '.join(args)}):"]
    for d, kind in enumerate(kinds):
        if d:
            lines.append(f"    s{d} = {w}(s{d})")
        if kind not in _SIGNED:
            lines += [f"    {p}{d} = {w}({p}{d})" for p in MAPS[kind][0]]
    # EPT elements a thread, ``bd`` apart, all loads before any store (one element a thread
    # keeps too few bytes in flight to fill the H200's memory pipe), then a guarded tail
    lines += ["    bd = cuda.blockDim.x", f"    base = cuda.blockIdx.x * bd * {EPT} + cuda.threadIdx.x",
              f"    step = cuda.gridDim.x * bd * {EPT}", "    while base < n:",
              f"        if base + {EPT - 1} * bd < n:"]
    stores = []
    for u in range(EPT):
        lines += _element(f"base + {u} * bd" if u else "base", u, 12, kinds, fill_sel, nfill, w)
        stores.append(f"            out[{f'base + {u} * bd' if u else 'base'}] = v{u}")
    lines += stores
    lines += ["        else:", f"            for u in range({EPT}):",
              "                idx = base + u * bd", "                if idx < n:"]
    lines += _element("idx", "t", 20, kinds, fill_sel, nfill, w)
    lines += ["                    out[idx] = vt", "        base += step"]
    text = "\n".join(lines) + "\n"
    name = _ew._kernel_name("remap", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", _I64), Param("array", dt, 1, "C"), Param("array", dt, nd, "A")]
    params += [Param("scalar", _I64)] * (nd - 1)
    for kind in kinds:
        params += [Param("scalar", _I64)] * len(MAPS[kind][0])
        if kind in ("table", "search"):
            params.append(Param("array", _I64, 1, "C"))
    params += [Param("scalar", dt)] * nfill
    return KernelSource(name, text, params)


def _element(idx, tag, indent, kinds, fill_sel, nfill, w):
    """Lines loading output element ``idx``'s value into ``v<tag>``: unravel, map each axis,
    load through the source's strides (or, past a ``const`` map's edge, take its fill value)."""
    nd = len(kinds)
    lines = ["f = -1"] if nfill else []
    lines += _ew.unravel_lines(idx, nd, coord="c{d}", cast=w)
    for d, kind in enumerate(kinds):
        body = _subst(MAPS[kind][1], d, MAPS[kind][0]).replace("W(", f"{w}(")
        if kind == "const":
            body = body.replace("LO", str(fill_sel[d][0])).replace("HI", str(fill_sel[d][1]))
        lines += body.splitlines()
    load = f"src[{', '.join(f'j{d}' for d in range(nd))}]"
    if not nfill:
        lines.append(f"v{tag} = {load}")
    else:       # the load stays conditional: an empty source axis has no element 0
        lines += ["if f < 0:", f"    v{tag} = {load}"]
        for k in range(nfill):
            lines += [f"elif f == {k}:" if k < nfill - 1 else "else:", f"    v{tag} = fv{k}"]
    return [" " * indent + line for line in lines]


def _subst(body, d, names):
    """The map's source for axis ``d``: its variables c, j, T and parameters suffixed by d."""
    names = set(names) | {"c", "j", "T"}
    return re.sub(r"\b(" + "|".join(sorted(names)) + r")\b", lambda m: m.group(1) + str(d), body)


def _collapse(src, maps):
    """Merge neighbouring ``id`` axes that are contiguous in ``src`` (fewer divisions)."""
    shape, strides, out = [], [], []
    for d, m in enumerate(maps):
        if (out and m.kind == "id" and out[-1].kind == "id"
                and strides[-1] == src._strides[d] * src.shape[d]):
            out[-1] = ident(out[-1].size * m.size)
            shape[-1] *= src.shape[d]
            strides[-1] = src._strides[d]
        else:
            out.append(m)
            shape.append(src.shape[d])
            strides.append(src._strides[d])
    return tuple(shape), tuple(strides), out


def remap(src, maps, out=None):
    """A new C-contiguous array ``out[c] = src[f_0(c_0), ..., f_k(c_k)]`` (``maps``: one
    :class:`AxisMap` per axis of ``src``); ``out`` may be given (C-contiguous, right shape)."""
    assert len(maps) == src.ndim
    oshape = tuple(m.size for m in maps)
    if out is None:
        out = empty_array(oshape, src.dtype)
    n = out.size
    if n == 0:
        return out
    if src.ndim == 0:
        shape, strides, maps = (1,), (0,), [AxisMap("zero", n)]
    else:
        shape, strides, maps = _collapse(src, maps)
    kinds = tuple(m.kind for m in maps)
    fills, fill_sel = [], {}
    for d, m in enumerate(maps):
        if m.kind == "const":
            sel = []
            for v in m.fill:
                v = np.asarray(v, src.dtype)[()]
                key = v.tobytes()
                keys = [f.tobytes() for f in fills]
                if key not in keys:
                    fills.append(v)
                    keys.append(key)
                sel.append(keys.index(key))
            fill_sel[d] = tuple(sel)
    scalars = [v for m in maps for v in m.params]
    narrow = n < 2 ** 31 and all(0 <= v < 2 ** 31 for m in maps if m.kind not in _SIGNED
                                 for v in m.params)
    key = ("remap", src.dtype, kinds, tuple(sorted(fill_sel.items())), len(fills), narrow)
    kern = compiler.get_kernel(key, lambda: _render(src.dtype, kinds, fill_sel, len(fills), narrow))
    values = [n, 0, 0, n, out.itemsize, out._ptr, n, out.itemsize]
    size = 1
    for s in shape:
        size *= s
    values += [0, 0, size, src.itemsize, src._ptr, *shape, *strides]
    values += [m.size for m in maps[1:]]
    for m in maps:
        values += [int(v) for v in m.params]
        if m.table is not None:
            t = m.table
            values += [0, 0, t.size, 8, t._ptr, t.size, 8]
    for v in fills:
        values += [v.real, v.imag] if v.dtype.kind == "c" else [v]
    grid, block = _ew._grid(n, EPT)
    kern(grid, block, values)
    return out
