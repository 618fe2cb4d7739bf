"""Connected components (``label``) and bounding boxes (``find_objects``) on the device.

``label`` is a union-find over the image's linear indices, in one kernel template rendered
per rank (the coordinates are unrolled, 32-bit when the image allows) and launched in phases:

0. ``L[i]`` = the first element of ``i``'s run along the last axis, or of its part within
   an aligned 32-element chunk (a chunk's first element links to the previous chunk's part),
   when the structure connects left neighbours (else ``i``), on the foreground; -1 elsewhere;
1. every foreground element unites with each foreground neighbour *before* it in C order
   (the structure's elements with a negative linear offset, the structure made symmetric,
   the left neighbour left out when phase 0 linked runs):
   roots are linked larger -> smaller by ``atomic.min`` on the root's parent, retried from
   the value found when another thread linked that root first; ``find`` halves paths with
   plain stores (each store writes an ancestor, so a race only loses a shortcut);
2. ``Y[i] = find(i)`` (not into ``L``: another thread's path halving through ``i`` may still
   store an ancestor there, after this thread's root) and the root flags ``F[i] = (Y[i] == i)``;
3. ``cumsum(F)`` (npgpu's look-back scan) ranks the roots; ``Y[i] = R[Y[i]]``.

A root is its component's smallest linear index, so ranking roots in C order numbers the
components in order of first appearance, as SciPy does.  The count is the scan's last
element: one 4-byte read.

``find_objects``: one kernel of atomic min/max per label and axis into a ``(max_label, nd, 2)``
table, then one device-to-host copy of the table.
"""
import operator

import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ..._core.ndarray import empty_array, ndarray
from ...cuda import runtime as _rt
from ._morphology import (arr, check_input, contiguous, device, generate_binary_structure,
                          host_array, read_scalar)

__all__ = ["label", "find_objects"]

_BOOL = np.dtype(np.bool_)
_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)

_DEVICE = """@cuda.jit(device=True)
def find(L, x):
    p = L[x]
    while p != x:
        g = L[p]
        if g != p:
            L[x] = g
        x = p
        p = g
    return x


@cuda.jit(device=True)
def unite(L, a, b):
    while True:
        a = find(L, a)
        b = find(L, b)
        if a == b:
            return
        if a < b:
            t = a
            a = b
            b = t
        old = cuda.atomic.min(L, a, b)
        if old == a:
            return
        a = old
"""


def _render_label(nd, it):
    t = _ew.type_name(it)
    # 32-bit images unravel with uint32 division (several times cheaper than 64-bit)
    u = "uint32" if it == _I32 else ""
    ext = [f"    s{d} = {u}(shp[{d}])" if u else f"    s{d} = shp[{d}]" for d in range(nd)]
    coords = _ew.unravel_lines("i", nd, " " * 16, extent="s{d}", coord="c{d}", cast=u)
    inside = " and ".join(f"0 <= c{d} + offs[k, {d}] < s{d}" for d in range(nd))
    L = ["def KERNEL(phase, n, K, runs, shp, offs, lin, X, L, F, R, Y):"] + ext
    L += ["    i = cuda.grid(1)", "    step = cuda.gridsize(1)", "    while i < n:",
          "        if phase == 0:",
          "            if X[i]:",
          "                j = i",
          "                if runs != 0:",
          f"                    first = i - ({u}(i) % s{nd - 1})",
          # back to the run's start, stopping at a 32-element boundary (an element on one
          # steps over it): a long run is a chain of one link per 32 elements, never an
          # O(run length) scan per element
          "                    while j > first and X[j - 1]:",
          "                        j -= 1",
          "                        if j % 32 == 0:",
          "                            break",
          f"                L[i] = {t}(j)",
          "            else:",
          f"                L[i] = {t}(-1)",
          "        elif phase == 1:",
          "            if X[i]:"]
    L += coords
    L += ["                for k in range(K):",
          f"                    if {inside}:",
          "                        j = i + lin[k]",
          "                        if X[j]:",
          f"                            unite(L, {t}(i), {t}(j))",
          # the root goes to Y, not L: another thread's find may still halve a path through
          # i, and its plain store into L[i] (an ancestor, not always the root) would land
          # after this one
          "        elif phase == 2:",
          "            if X[i]:",
          f"                rt = find(L, {t}(i))",
          "                Y[i] = rt",
          "                F[i] = rt == i",
          "            else:",
          f"                Y[i] = {t}(-1)",
          "                F[i] = False",
          "        else:",
          "            lb = Y[i]",
          "            Y[i] = R[lb] if lb >= 0 else 0",
          "        i += step"]
    text = _DEVICE + "\n\n" + "\n".join(L) + "\n"
    name = _ew._kernel_name(f"ndi_label{nd}", text)
    params = ([Param("scalar", _I64)] * 4 + [Param("array", _I64, 1, "C"),
              Param("array", _I64, 2, "C"), Param("array", _I64, 1, "C"),
              Param("array", _BOOL, 1, "C"), Param("array", it, 1, "C"),
              Param("array", _BOOL, 1, "C"), Param("array", it, 1, "C"),
              Param("array", it, 1, "C")])
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _label_structure(structure, nd):
    s = generate_binary_structure(nd, 1) if structure is None else \
        np.asarray(host_array(structure), dtype=bool)
    if s.ndim != nd:
        raise RuntimeError("structure and input must have equal rank")
    for k in s.shape:
        if k != 3:
            raise ValueError("structure dimensions must be equal to 3")
    if not (s == s[(slice(None, None, -1),) * nd]).all():
        # SciPy's label asserts this (connections must go both ways)
        raise AssertionError("Structuring element is not symmetric")
    return s


def _backward_offsets(s, shape):
    """Per-axis and linear offsets of the structure's neighbours before the centre in C order
    (the structure made symmetric: connectivity does not depend on direction)."""
    s = s | s[tuple([slice(None, None, -1)] * s.ndim)]
    pts = np.argwhere(s).astype(np.int64) - 1
    strides = np.ones(len(shape), np.int64)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    lin = (pts * strides).sum(axis=1)
    keep = lin < 0
    # the left neighbour along the last axis: phase 0 links each run to its first element
    left = (pts[:, :-1] == 0).all(axis=1) & (pts[:, -1] == -1)
    runs = bool(left.any())
    keep &= ~left
    return np.ascontiguousarray(pts[keep]), np.ascontiguousarray(lin[keep]), runs


_tables = {}        # (device, shape, structure) -> device offset tables: no uploads on repeat calls


def _label_tables(s, shape):
    key = (_rt.get_device_id(), shape, s.tobytes(), s.shape)
    hit = _tables.get(key)
    if hit is None:
        if len(_tables) > 64:
            _tables.clear()
        pts, lin, runs = _backward_offsets(s, shape)
        hit = (device(pts.reshape(len(pts), len(shape))), device(lin),
               device(np.array(shape, np.int64)), len(pts), runs)
        _tables[key] = hit
    return hit


def label(input, structure=None, output=None):
    """``scipy.ndimage.label``: ``(labels, n)``; ``n`` only when ``output`` is an array
    (written in place).  Labels are numbered in order of first appearance in C order."""
    from ...reductions.functions import cumsum
    x = check_input(input)
    if x.dtype == np.float16:
        raise TypeError("No matching signature found")          # SciPy's Cython label
    nd = x.ndim
    s = _label_structure(structure, nd)
    if isinstance(output, ndarray):
        if output.shape != x.shape:
            raise ValueError("output shape not correct")
        if output.dtype.kind == "c" or output.dtype == np.float16:
            raise TypeError("No matching signature found")
        out_dt = None
    else:
        out_dt = np.dtype(np.int32 if x.size < 2 ** 31 - 2 else np.intp) if output is None \
            else np.dtype(output)
        if out_dt.kind == "c" or out_dt == np.float16:
            raise TypeError("No matching signature found")
    if nd == 0 or x.size == 0:
        n = int(bool(read_scalar(contiguous(x, _BOOL)))) if nd == 0 else 0
        res = output if out_dt is None else empty_array(x.shape, out_dt)
        if res.size:
            res.fill(n)
        return n if out_dt is None else (res, n)
    it = _I32 if x.size < 2 ** 31 - 1 else _I64
    xb = contiguous(x, _BOOL).reshape(-1)
    offs, lind, shp, K, runs = _label_tables(s, x.shape)
    kern = compiler.get_kernel(("ndimage", "label", nd, it), lambda: _render_label(nd, it))
    n = x.size
    L = empty_array((n,), it)
    F = empty_array((n,), _BOOL)
    Y = empty_array((n,), it)
    grid, block = _ew._grid(n, 1)
    common = arr(shp) + arr(offs) + arr(lind) + arr(xb) + arr(L) + arr(F)
    for phase in (0, 1, 2):
        kern(grid, block, [phase, n, K, int(runs)] + common + arr(L) + arr(Y))
    ranks = cumsum(F, dtype=it)
    kern(grid, block, [3, n, K, int(runs)] + common + arr(ranks) + arr(Y))
    count = int(read_scalar(ranks, n - 1))      # after the last launch: the host waits once
    Y = Y.reshape(x.shape)
    if out_dt is None:
        output[...] = Y
        return count
    if out_dt != it:
        if out_dt.kind in "iu" and count > np.iinfo(out_dt).max:
            raise RuntimeError("insufficient bit-depth in requested output type")
        Y = Y.astype(out_dt)
    return Y, count


# ---- find_objects ---------------------------------------------------------------------------
def _render_boxes(nd):
    coords = (["        r = i"]
              + [f"        c{d} = r % shp[{d}]\n        r = r // shp[{d}]"
                 for d in range(nd - 1, 0, -1)] + ["        c0 = r"])
    L = ["def KERNEL(n, nlab, shp, X, B):", "    i = cuda.grid(1)",
         "    step = cuda.gridsize(1)", "    while i < n:", "        lb = X[i]",
         "        if lb > 0 and lb <= nlab:"]
    L += ["    " + line.replace("\n", "\n    ") for line in coords]
    for d in range(nd):
        L += [f"            cuda.atomic.min(B, (lb - 1, {d}, 0), c{d})",
              f"            cuda.atomic.max(B, (lb - 1, {d}, 1), c{d})"]
    L.append("        i += step")
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"ndi_boxes{nd}", text)
    params = [Param("scalar", _I64)] * 2 + [Param("array", _I64, 1, "C"),
                                           Param("array", _I64, 1, "C"),
                                           Param("array", _I64, 3, "C")]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def find_objects(input, max_label=0):
    """``scipy.ndimage.find_objects``: a host list, item ``k - 1`` the tuple of slices of
    label ``k``'s bounding box (None where ``k`` does not occur).  One kernel and one
    device-to-host copy of the ``(max_label, ndim, 2)`` box table (plus one scalar read of
    the maximum when ``max_label < 1``)."""
    from ...creation import full
    x = check_input(input)
    if max_label < 1:
        if x.dtype.kind not in "iu" and x.size:
            # SciPy passes input.max() on as an integer argument
            raise TypeError(f"'numpy.{x.dtype.type.__name__}' object cannot be interpreted "
                            f"as an integer")
        if x.size == 0:
            raise ValueError("zero-size array to reduction operation maximum which has no "
                             "identity")
        from ...reductions.functions import max as _max
        max_label = int(_max(x).get())
    max_label = operator.index(max_label)
    if max_label < 1:
        return []
    nd = max(x.ndim, 1)
    xl = contiguous(x, _I64).reshape(-1)
    B = full((max_label, nd, 2), 0, _I64)
    B[:, :, 0] = np.iinfo(np.int64).max
    B[:, :, 1] = -1
    if x.size:
        shp = device(np.array(x.shape or (1,), np.int64))
        kern = compiler.get_kernel(("ndimage", "boxes", nd), lambda: _render_boxes(nd))
        grid, block = _ew._grid(x.size, 1)
        kern(grid, block, [x.size, max_label] + arr(shp) + arr(xl) + arr(B))
    host = B.get()
    res = []
    for k in range(max_label):
        if host[k, 0, 1] < 0:
            res.append(None)
        elif x.ndim == 0:
            res.append(())
        else:
            res.append(tuple(slice(int(lo), int(hi) + 1) for lo, hi in host[k]))
    return res
