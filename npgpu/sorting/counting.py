"""``bincount``, ``histogram``, ``histogram_bin_edges``, ``histogram2d``, ``histogramdd``.

Every count is one launch of one template (:func:`_render_hist`), a mode per way of finding an
element's bin:

* ``int``: the value is the bin (``bincount``);
* ``uniform`` (``histogram`` with a bin count): where :func:`_reciprocal` proves it gives
  NumPy's bins (float32/float64 edges, all but huge bin counts), ``trunc(fma(x, rr, cc))`` in
  int32, with NumPy's one-step fix-ups against the edges (global memory) only for values within
  a proven distance of an edge; otherwise NumPy's ``(x - first) / (last - first) * nbins`` in
  NumPy's dtypes, fixed up against a shared copy of the edges for every element
  (``NPGPU_HIST_RECIPROCAL=0``: always this form);
* ``edges``: a right-side binary search per dimension (``histogram`` with edges,
  ``histogramdd``, ``histogram2d``), the edges in shared memory when they fit
  (:mod:`.searching`'s search lines), combined into a C-order flat bin.

Counts are privatised: each block keeps its own histogram in shared memory (``uint32`` counts
or ``float64`` weight sums; up to :data:`MAX_REPLICAS` copies, one per group of warps, so
warps that hit the same bin rarely contend) and merges it into the global result with one
atomic add per non-empty bin.  Blocks stay resident and walk the data grid-stride,
``UNROLL`` loads in flight per thread.  Histograms too wide for shared memory add straight into
global memory.  Weighted sums are float64 (NumPy's ``bincount`` accumulates in double), in
atomic order, so they may differ from NumPy's in the last bits.

Value-dependent inputs cost one small read each: the data's min and max (``bincount``'s
length and negative check, ``histogram``'s autodetected range: :func:`minmax`, two launches
and one read of two values), NumPy's monotonic check of device edges.
"""
import math
import operator
import os
import warnings

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import transfer as _transfer
from .._core.ndarray import empty_array, ndarray
from . import searching as _s

_SIM = _backend.IS_SIM
_I64 = np.dtype(np.int64)
_U32 = np.dtype(np.uint32)
_F64 = np.dtype(np.float64)
_C128 = np.dtype(np.complex128)
BLOCK = _s.BLOCK
UNROLL = 2 if _SIM else 4          # loads a thread issues before its atomics
WARP_SHIFT = 1 if _SIM else 5      # thread -> replica group (a warp; pairs on the simulator)
HIST_BYTES = 64 if _SIM else 16384  # shared accumulator of a block
MAX_REPLICAS = 8
# NPGPU_HIST_RECIPROCAL=0: equal-width bins by NumPy's division and both edge fix-ups for every
# element (the kernel before issue 14) instead of :func:`_reciprocal`'s form
RECIPROCAL = os.environ.get("NPGPU_HIST_RECIPROCAL", "1") != "0"


def _acc_cap(acc):
    """Bins a block's shared accumulator holds ("count": uint32, "real": float64, "complex":
    two float64 halves)."""
    return HIST_BYTES // (4 if acc == "count" else 8 if acc == "real" else 16)


# ---- min and max: two launches, one read ------------------------------------------------------
_UNROLL = 4
def _render_minmax(x_dt, x_lay, ct, final):
    ctn = _ew.type_name(ct)
    if ct.kind == "f":
        hi0, lo0 = f"{ctn}(math.inf)", f"{ctn}(-math.inf)"
    else:
        info = np.iinfo(ct)
        hi0, lo0 = f"{ctn}({info.max})", f"{ctn}({info.min})"
    isf = ct.kind == "f"
    L = [f"def KERNEL(n, {'X, X2' if final else 'X'}, LO, HI):",
         f"    slo = cuda.shared.array({BLOCK}, {ctn})",
         f"    shi = cuda.shared.array({BLOCK}, {ctn})",
         "    t = cuda.threadIdx.x",
         f"    lo = {hi0}",
         f"    hi = {lo0}",
         "    nan = 0",
         "    i = int64(cuda.grid(1))",
         "    step = int64(cuda.gridsize(1))"]

    def fold(P, a, b):
        """Lines folding values ``a`` (for the minimum) and ``b`` (the maximum) in."""
        F = [f"{P}a = {_ew.cast_expr(a, x_dt, ct)}", f"{P}b = {_ew.cast_expr(b, x_dt, ct)}"]
        if isf:
            F += [f"{P}if a != a or b != b:", f"{P}    nan = 1"]
        return F + [f"{P}if a < lo:", f"{P}    lo = a", f"{P}if b > hi:", f"{P}    hi = b"]
    if not final:
        # _UNROLL loads in flight a thread: one left a resident grid latency-bound
        L.append(f"    while i + {_UNROLL - 1} * step < n:")
        L += [f"        v{u} = X[i + {u} * step]" for u in range(_UNROLL)]
        for u in range(_UNROLL):
            L += fold("        ", f"v{u}", f"v{u}")
        L.append(f"        i += {_UNROLL} * step")
    L.append("    while i < n:")
    L += fold("        ", "X[i]", "X2[i]" if final else "X[i]")
    L += ["        i += step",
          "    slo[t] = lo",
          "    shi[t] = hi",
          "    nan = cuda.syncthreads_or(nan)",
          "    s = cuda.blockDim.x >> 1",
          "    while s > 0:",
          "        if t < s:",
          "            if slo[t + s] < slo[t]:",
          "                slo[t] = slo[t + s]",
          "            if shi[t + s] > shi[t]:",
          "                shi[t] = shi[t + s]",
          "        cuda.syncthreads()",
          "        s >>= 1",
          "    if t == 0:",
          "        lo = slo[0]",
          "        hi = shi[0]"]
    if isf:      # NaN anywhere: NumPy's min and max are NaN
        L += ["        if nan:",
              f"            lo = {ctn}(math.nan)",
              "            hi = lo"]
    L += ["        LO[cuda.blockIdx.x] = lo",
          "        HI[cuda.blockIdx.x] = hi"]
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name("minmax", text)
    params = [Param("scalar", _I64), Param("array", x_dt, 1, x_lay)]
    if final:
        params.append(Param("array", x_dt, 1, x_lay))
    params += [Param("array", ct, 1, "C"), Param("array", ct, 1, "C")]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _vec(buf, off, n):
    """Kernel values of ``buf[off:off + n]`` (1-d C-contiguous ``buf``) without a view."""
    isz = buf.itemsize
    return _ew._arr_values(buf._ptr + off * isz, (n,), (isz,), isz)


def minmax(x):
    """``(x.min(), x.max())`` of a non-empty 1-d device array, as NumPy scalars of its dtype
    (both NaN when a NaN is present, as NumPy's).  Two launches, one read."""
    ct = _s.compute_type(x.dtype)
    n = x.shape[0]
    key = ("minmax", x.dtype, _s.layout_of(x), ct, False)
    k1 = compiler.get_kernel(key, lambda: _render_minmax(x.dtype, key[2], ct, False))
    g = _s.resident_grid(k1, n)
    buf = empty_array((2 * g + 2,), ct)     # block minima, block maxima, min, max
    lo, hi = _vec(buf, 0, g), _vec(buf, g, g)
    k1(g, BLOCK, [n] + _s.arr_values(x) + lo + hi)
    k2 = compiler.get_kernel(("minmax", ct, "C", ct, True),
                             lambda: _render_minmax(ct, "C", ct, True))
    k2(1, BLOCK, [g] + lo + hi + _vec(buf, 2 * g, 1) + _vec(buf, 2 * g + 1, 1))
    host = np.empty(2, ct)
    _transfer._d2h(host, buf._ptr + 2 * g * ct.itemsize, 2 * ct.itemsize)
    return x.dtype.type(host[0]), x.dtype.type(host[1])


# ---- the histogram kernel ----------------------------------------------------------------------
def _render_hist(mode, x_dt, x_lay, w_dt, w_lay, acc, shared, u):
    """``u``: the mode's extra facts -- uniform: (kt, bt, dt2, edges in shared); edges:
    (ct, D, edges in shared)."""
    args, params = ["n", "nb", "R"], [Param("scalar", _I64)] * 3
    xnd = 2 if mode == "edges" else 1
    args.append("X")
    params.append(Param("array", x_dt, xnd, x_lay))
    if w_dt is not None:
        args.append("W")
        params.append(Param("array", w_dt, 1, w_lay))
    args.append("OUT")
    params.append(Param("array", _I64 if acc == "count" else _F64, 1, "C"))
    if acc == "complex":
        args.append("OUT2")
        params.append(Param("array", _F64, 1, "C"))
    head = []
    if mode == "uniform":
        kt, bt, dt2, etab, fast = u
        kc, bc, dc = (_ew.compute_dtype(d) for d in (kt, bt, dt2))
        if fast:    # see _reciprocal: bin = trunc(t * rr + cc), the edges read only near one
            args += ["lo_k", "hi_k", "rr", "cc", "wlo", "whi", "ne", "E"]
            params += [Param("scalar", kc)] * 2 + [Param("scalar", bc)] * 4 + \
                [Param("scalar", _I64), Param("array", bt, 1, "C")]
        else:
            args += ["lo_k", "hi_k", "fe", "den", "num", "ne", "E"]
            params += [Param("scalar", kc)] * 2 + [Param("scalar", bc)] + \
                [Param("scalar", dc)] * 2 + [Param("scalar", _I64), Param("array", bt, 1, "C")]
        table_ct = bc
    elif mode == "edges":
        ct, D, etab = u
        for d in range(D):
            args += [f"o{d}", f"l{d}"]
            params += [Param("scalar", _I64)] * 2
        args += ["ne", "E"]
        params += [Param("scalar", _I64), Param("array", ct, 1, "C")]
        table_ct = ct
        head.append(_s.lt_device(ct))
    else:
        etab = False
    L = head + ["", f"def KERNEL({', '.join(args)}):"]
    if etab:
        L.append(f"    ES = cuda.shared.array({_s.table_size(table_ct)}, "
                 f"{_ew.type_name(table_ct)})")
        L += _s.load_table_lines("    ", lambda j: [f"e = E[{j}]"], table="ES", count="ne",
                                 n="ne")
    EE = "ES" if etab else "E"
    # int32 bins where the reciprocal form proves them small (no 64-bit index arithmetic)
    small = mode == "uniform" and u[4]
    bi = "uint32" if small else "int64"
    if small:
        L.append("    nb32 = int32(nb)")
    if shared:
        at = "uint32" if acc == "count" else "float64"
        cap = _acc_cap(acc)
        L += [f"    H = cuda.shared.array({cap}, {at})"]
        if acc == "complex":
            L += [f"    H2 = cuda.shared.array({cap}, float64)"]
        L += ["    k = cuda.threadIdx.x",
              "    while k < R * nb:",
              "        H[k] = 0"]
        if acc == "complex":
            L += ["        H2[k] = 0"]
        L += ["        k += cuda.blockDim.x",
              "    cuda.syncthreads()",
              f"    base = {bi}(((cuda.threadIdx.x >> {WARP_SHIFT}) % R) * nb)"]
    # unsigned element indices: no negative-index wraparound code around each load
    L += ["    nn = uint64(n)",
          "    i = uint64(cuda.grid(1))",
          "    step = uint64(cuda.gridsize(1))",
          f"    stride = step * uint64({UNROLL})",
          "    while i < nn:"]
    P = "        "
    # loads first: UNROLL elements in flight
    u_count = UNROLL
    for q in range(u_count):
        # (from i, not from j{q-1}: a clamped j{q-1} would make j{q} revisit an element)
        L += [f"{P}j{q} = {'i' if q == 0 else f'i + uint64({q}) * step'}",
              f"{P}ok{q} = j{q} < nn",
              f"{P}if not ok{q}:",
              f"{P}    j{q} = i"]
        if mode == "edges":
            L += [f"{P}x{q}_{d} = X[j{q}, {d}]" for d in range(u[1])]
        else:
            L.append(f"{P}x{q} = X[j{q}]")
        if w_dt is not None:
            L.append(f"{P}w{q} = W[j{q}]")
    for q in range(u_count):
        L.append(f"{P}if ok{q}:")
        Q = P + "    "
        if mode == "int":
            L += [f"{Q}b = int64(x{q})", f"{Q}valid = b < nb"]
        elif mode == "uniform" and u[4]:
            kt, bt, _, _, _ = u
            bc = _ew.compute_dtype(bt)
            tb = _ew.cast_expr(_ew.cast_expr(f"x{q}", x_dt, bt), bt, bc)
            eb = lambda j: _ew.cast_expr(f"E[uint32({j})]", bt, bc)  # noqa: E731
            L += [f"{Q}kx = {_ew.cast_expr(f'x{q}', x_dt, _ew.compute_dtype(kt))}",
                  f"{Q}b = int32(-1)",
                  f"{Q}if kx >= lo_k and kx <= hi_k:",
                  f"{Q}    t = {tb}",
                  f"{Q}    f = cuda.fma(t, rr, cc)",
                  f"{Q}    b = int32(f)",
                  f"{Q}    fr = f - {_ew.type_name(bc)}(b)",
                  # near an edge: NumPy's fix-ups against the edges (global, cached: rare)
                  f"{Q}    if fr < wlo or fr > whi:",
                  f"{Q}        if b == nb32:",
                  f"{Q}            b = int32(b - 1)",
                  f"{Q}        if t < {eb('b')}:",
                  f"{Q}            b = int32(b - 1)",
                  f"{Q}        if b != nb32 - 1 and t >= {eb('b + 1')}:",
                  f"{Q}            b = int32(b + 1)",
                  f"{Q}valid = uint32(b) < uint32(nb32)"]
        elif mode == "uniform":
            kt, bt, dt2, _, _ = u
            r16 = (lambda e: f"float32(float16({e}))") if bt.itemsize == 2 else (lambda e: e)
            q16 = (lambda e: f"float32(float16({e}))") if dt2.itemsize == 2 else (lambda e: e)
            tb = _ew.cast_expr(f"x{q}", x_dt, bt)
            tb = f"float32({tb})" if bt.itemsize == 2 else tb
            tq = _ew.cast_expr("s", _ew.compute_dtype(bt), _ew.compute_dtype(dt2))
            L += [f"{Q}kx = {_ew.cast_expr(f'x{q}', x_dt, _ew.compute_dtype(kt))}",
                  f"{Q}valid = False",
                  f"{Q}b = int64(0)",
                  f"{Q}if kx >= lo_k and kx <= hi_k:",
                  f"{Q}    t = {tb}",
                  f"{Q}    s = {r16('t - fe')}",
                  f"{Q}    f = {q16(q16(f'{tq} / den') + ' * num')}",
                  f"{Q}    b = int64(f)",
                  f"{Q}    if b == nb:",
                  f"{Q}        b -= 1",
                  f"{Q}    if t < {EE}[b]:",
                  f"{Q}        b -= 1",
                  f"{Q}    if b != nb - 1 and t >= {EE}[b + 1]:",
                  f"{Q}        b += 1",
                  f"{Q}    valid = b >= 0 and b < nb"]
        else:
            ct, D, _ = u
            L += [f"{Q}b = int64(0)", f"{Q}valid = True"]
            for d in range(D):
                L.append(f"{Q}v = {_ew.cast_expr(f'x{q}_{d}', x_dt, ct)}")
                if etab:
                    L += _s.search_lines(Q, True, None, table="ES", count=f"l{d}", n=f"l{d}",
                                         off=f"o{d}")
                else:
                    L += _s.search_lines(Q, True, lambda j: [f"e = E[o{d} + {j}]"],
                                         count=None, n=f"l{d}")
                L += [f"{Q}if v == {EE}[o{d} + l{d} - 1]:",
                      f"{Q}    lo -= 1",
                      f"{Q}if lo < 1 or lo >= l{d}:",
                      f"{Q}    valid = False",
                      f"{Q}b = b * (l{d} - 1) + lo - 1"]
        L.append(f"{Q}if valid:")
        A = Q + "    "
        tgt, idx = ("H", "base + b") if shared else ("OUT", "b")
        if small:
            idx = "base + uint32(b)" if shared else "uint32(b)"
        if acc == "count":
            L.append(f"{A}cuda.atomic.add({tgt}, {idx}, {'uint32(1)' if shared else 'int64(1)'})")
        elif acc == "real":
            L.append(f"{A}cuda.atomic.add({tgt}, {idx}, {_ew.cast_expr(f'w{q}', w_dt, _F64)})")
        else:
            tgt2 = "H2" if shared else "OUT2"
            L += [f"{A}wc = {_ew.cast_expr(f'w{q}', w_dt, _C128)}",
                  f"{A}cuda.atomic.add({tgt}, {idx}, wc.real)",
                  f"{A}cuda.atomic.add({tgt2}, {idx}, wc.imag)"]
    L.append(f"{P}i += stride")
    if shared:
        L += ["    cuda.syncthreads()",
              "    k = cuda.threadIdx.x",
              "    while k < nb:",
              "        r = 1",
              "        s = H[k]"]
        if acc == "complex":
            L.append("        s2 = H2[k]")
        L += ["        while r < R:",
              "            s += H[r * nb + k]"]
        if acc == "complex":
            L.append("            s2 += H2[r * nb + k]")
        L += ["            r += 1",
              "        if s != 0:",
              f"            cuda.atomic.add(OUT, k, {'int64(s)' if acc == 'count' else 's'})"]
        if acc == "complex":
            L += ["        if s2 != 0:",
                  "            cuda.atomic.add(OUT2, k, s2)"]
        L.append("        k += cuda.blockDim.x")
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"hist_{mode}", text)
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _count(mode, x, w, nb, u=(), extra=()):
    """Run the histogram kernel: ``nb`` bins of ``x`` (1-d, or (N, D) for ``edges``),
    weighted by ``w`` (1-d or None).  Returns the int64 counts or float64 sums (complex
    weights: a complex128 array)."""
    from .._core.transfer import zero
    acc = "count" if w is None else "complex" if w.dtype.kind == "c" else "real"
    out = empty_array((nb,), _I64 if acc == "count" else _F64)
    out2 = empty_array((nb,), _F64) if acc == "complex" else None
    for o in (out, out2):
        if o is not None and o.nbytes:
            zero(o._ptr, o.nbytes)          # a memset, not a fill kernel
    n = x.shape[0]
    if n and nb:
        shared = nb <= _acc_cap(acc)
        w_dt = w.dtype if w is not None else None
        w_lay = _s.layout_of(w) if w is not None else None
        key = ("hist", mode, x.dtype, _s.layout_of(x), w_dt, w_lay, acc, shared, u)
        kern = compiler.get_kernel(key, lambda: _render_hist(mode, x.dtype, key[3], w_dt, w_lay,
                                                             acc, shared, u))
        reps = max(1, min(MAX_REPLICAS, BLOCK >> WARP_SHIFT, _acc_cap(acc) // nb)) \
            if shared else 1
        values = [n, nb, reps] + _s.arr_values(x)
        if w is not None:
            values += _s.arr_values(w)
        values += _s.arr_values(out)
        if out2 is not None:
            values += _s.arr_values(out2)
        values += list(extra)
        kern(_s.resident_grid(kern, -(-n // UNROLL)), BLOCK, values)
    if acc == "complex":
        from ..ufuncs import UFUNCS
        out = UFUNCS["add"](out, UFUNCS["multiply"](out2, np.complex128(1j)))
    return out


# ---- bincount ----------------------------------------------------------------------------------
def _as_device(x):
    return _s._as_device(x)


def _depth_error(nd):
    return ValueError("object too deep for desired array" if nd > 1
                      else "object of too small depth for desired array")


def _cast_error(src, dst):
    return TypeError(f"Cannot cast array data from {src!r} to {dst!r} according to the "
                     "rule 'safe'")


def _bincount_input(x):
    """``bincount``'s ``x`` as a 1-d device array, with NumPy's errors: arrays (device or
    host) of integer dtype only; other input (lists, scalars) converted on the host, where
    non-integer values are taken by ``int()`` under NumPy's DeprecationWarning."""
    if isinstance(x, (ndarray, np.ndarray)):
        if x.ndim != 1:
            raise _depth_error(x.ndim)
        if x.dtype.kind not in "biu":
            raise _cast_error(x.dtype, _I64)
        return _as_device(x)
    h = np.asarray(x)
    if h.ndim == 0:
        raise _depth_error(0)
    if h.ndim > 1:
        raise ValueError("setting an array element with a sequence. The requested array "
                         "would exceed the maximum number of dimension of 1.")
    if h.size and h.dtype.kind not in "biu":
        warnings.warn("Non-integer input passed to bincount. In a future version of NumPy, "
                      "this will be an error. (Deprecated NumPy 2.1)", DeprecationWarning,
                      stacklevel=3)
        vals = [int(v) for v in h.tolist()]
        if any(not -2 ** 63 <= v < 2 ** 63 for v in vals):
            raise OverflowError("Python int too large to convert to C long")
        h = np.array(vals, dtype=_I64)
    elif h.dtype.kind not in "biu":
        h = h.astype(_I64)
    return _as_device(h)


def bincount(x, /, weights=None, minlength=0):
    """``numpy.bincount``: occurrences of each value of the non-negative integer 1-d ``x``
    (int64), or the sums of ``weights`` per value (float64); at least ``minlength`` bins."""
    from ..creation import zeros
    xd = _bincount_input(x)
    if minlength is None:
        raise TypeError("use 0 instead of None for minlength")
    if isinstance(minlength, (bool, np.bool_)):
        raise TypeError("an integer is required")
    minlength = operator.index(minlength)
    if not -2 ** 63 <= minlength < 2 ** 63:        # NumPy takes it as a C long
        raise OverflowError("Python int too large to convert to C long")
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if xd.size == 0:
        return zeros((minlength,), _I64)       # (NumPy looks no further: weights unread)
    if xd.dtype.kind == "b":
        xd = xd.view(np.uint8) if xd._c_contig else xd.astype(np.uint8)
    lo, hi = minmax(xd)
    # (NumPy counts in intp: a uint64 value past int64's range is a negative one to it)
    if lo < 0 or (xd.dtype == np.uint64 and int(hi) >= 2 ** 63):
        raise ValueError("'list' argument must have no negative elements")
    wd = None
    if weights is not None:
        if isinstance(weights, (list, tuple)):
            host = np.asarray(weights)
            if host.dtype.kind == "c":
                raise TypeError("float() argument must be a string or a real number, not "
                                "'complex'")
            if host.ndim > 1:
                raise ValueError("setting an array element with a sequence. The requested "
                                 "array would exceed the maximum number of dimension of 1.")
            weights = host
        wd = _as_device(weights)
        if wd.ndim != 1:
            raise _depth_error(wd.ndim)
        if not np.can_cast(wd.dtype, _F64, "safe"):
            raise _cast_error(wd.dtype, _F64)
        if wd.shape[0] != xd.shape[0]:
            raise ValueError("The weights and list don't have the same length.")
    return _count("int", xd, wd, max(int(hi) + 1, minlength))


# ---- histogram ---------------------------------------------------------------------------------
def _ravel(a, weights):
    a = _as_device(a)
    if a.dtype == np.bool_:
        warnings.warn(f"Converting input from {a.dtype} to {np.uint8} for compatibility.",
                      RuntimeWarning, stacklevel=3)
        a = a.astype(np.uint8)
    if a.dtype.kind == "c":
        raise TypeError("histogram: complex data is not supported by npgpu")
    if weights is not None:
        weights = _as_device(weights)
        if weights.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
        weights = weights if weights.ndim == 1 else weights.reshape(-1)
    return (a if a.ndim == 1 else a.reshape(-1)), weights


def _unsigned_subtract(a, b):
    """NumPy's: ``a - b`` of scalars, signed integers wrapped into their unsigned type."""
    to_unsigned = {np.byte: np.ubyte, np.short: np.ushort, np.intc: np.uintc,
                   np.int_: np.uint, np.longlong: np.ulonglong}
    dt = np.result_type(a, b)
    u = to_unsigned.get(dt.type)
    if u is None:
        return np.subtract(a, b, dtype=dt)
    return np.subtract(np.asarray(a, dtype=dt), np.asarray(b, dtype=dt), casting="unsafe",
                       dtype=u)


def _host_range(range):
    """``range``'s two values on the host: a device array (or device 0-d values, such as
    ``(x.min(), x.max())``) read back as the NumPy scalars NumPy's unpacking would give."""
    if isinstance(range, ndarray):
        range = range.get()
    first, last = range
    return tuple(v.get()[()] if isinstance(v, ndarray) else v for v in (first, last))


def _outer_edges(a, range):
    if range is not None:
        first, last = _host_range(range)
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        first, last = minmax(a)
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first = first - 0.5
        last = last + 0.5
    return first, last


def _ptp(x):
    lo, hi = minmax(x)
    return _unsigned_subtract(hi, lo)


def _std(x):
    from ..reductions.functions import std
    return std(x).get()[()]


def _width_sqrt(x, rng):
    return _ptp(x) / np.sqrt(x.size)


def _width_sturges(x, rng):
    return _ptp(x) / (np.log2(x.size) + 1.0)


def _width_rice(x, rng):
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _width_scott(x, rng):
    return (24.0 * np.pi ** 0.5 / x.size) ** (1.0 / 3.0) * _std(x)


def _width_stone(x, rng):
    from ..linalg.products import dot
    from ..manipulation import stack
    n = x.size
    ptp_x = _ptp(x)
    if n <= 1 or ptp_x == 0:
        return 0
    upper = max(100, int(np.sqrt(n)))
    # every candidate's score on the device, one read for all of them
    scores = []
    for nbins in range(1, upper + 1):
        p = histogram(x, bins=nbins, range=rng)[0] / n
        scores.append((2 - (n + 1) * dot(p, p)) / (ptp_x / nbins))
    host = stack(scores).get()
    nbins = int(np.argmin(host)) + 1
    if nbins == upper:
        warnings.warn("The number of bins estimated may be suboptimal.", RuntimeWarning,
                      stacklevel=4)
    return ptp_x / nbins


def _width_doane(x, rng):
    from ..reductions.functions import mean
    if x.size > 2:
        sg1 = np.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
        sigma = _std(x)
        if sigma > 0.0:
            g1 = mean(((x - mean(x)) / sigma) ** 3).get()[()]
            return _ptp(x) / (1.0 + np.log2(x.size) + np.log2(1.0 + np.absolute(g1) / sg1))
    return 0.0


def _width_fd(x, rng):
    from .order_stats import percentile
    q = percentile(x, [75, 25]).get()
    return 2.0 * np.subtract(*q) * x.size ** (-1.0 / 3.0)


def _width_auto(x, rng):
    fd = _width_fd(x, rng)
    sturges = _width_sturges(x, rng)
    sqrt = _width_sqrt(x, rng)
    return min(max(fd, sqrt / 2), sturges)


_SELECTORS = {"stone": _width_stone, "auto": _width_auto, "doane": _width_doane,
              "fd": _width_fd, "rice": _width_rice, "scott": _width_scott,
              "sqrt": _width_sqrt, "sturges": _width_sturges}


def _ndim(x):
    nd = getattr(x, "ndim", None)
    return nd if nd is not None else np.ndim(x)


def _bin_edges(a, bins, range, weights):
    """NumPy's ``_get_bin_edges``: (edges, uniform) with ``uniform`` = (first, last, count)
    for equal-width bins (edges computed on the host by NumPy's linspace, then copied) or
    None (edges as given, on the device)."""
    from ..creation import asarray
    nbins = None
    if isinstance(bins, str):
        if bins not in _SELECTORS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError("Automated estimation of the number of bins is not supported for "
                            "weighted data")
        first, last = _outer_edges(a, range)
        if range is not None:
            from ..ufuncs import UFUNCS
            keep = UFUNCS["logical_and"](a >= first, a <= last)
            a = a[keep]
        if a.size == 0:
            nbins = 1
        else:
            width = _SELECTORS[bins](a, (first, last))
            if width:
                if np.issubdtype(a.dtype, np.integer) and width < 1:
                    width = 1
                nbins = int(np.ceil(_unsigned_subtract(last, first) / width))
            else:
                nbins = 1
    elif _ndim(bins) == 0:
        try:
            nbins = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if nbins < 1:
            raise ValueError("`bins` must be positive, when an integer")
        first, last = _outer_edges(a, range)
    elif _ndim(bins) == 1:
        edges = _edges_array(bins, "`bins` must increase monotonically, when an array")
        return edges, None
    else:
        raise ValueError("`bins` must be 1d, when an array")
    bin_type = np.result_type(first, last, a.dtype)
    if bin_type.kind in "iu":
        bin_type = np.result_type(bin_type, float)
    host = np.linspace(first, last, nbins + 1, endpoint=True, dtype=bin_type)
    if np.any(host[:-1] >= host[1:]):
        raise ValueError(f"Too many bins for data range. Cannot create {nbins} finite-sized "
                         "bins.")
    return asarray(host), (first, last, nbins)


def _edges_array(bins, message):
    """Bin edges as a device array, checked non-decreasing (host edges on the host; device
    edges by one reduction and one read)."""
    from ..creation import asarray
    if isinstance(bins, ndarray):
        from ..reductions.functions import any as _any
        if bins.size > 1 and bool(_any(bins[:-1] > bins[1:]).get()):
            raise ValueError(message)
        return bins
    host = np.asarray(bins)
    if np.any(host[:-1] > host[1:]):
        raise ValueError(message)
    return asarray(host)


def _reciprocal(precision, first, last, nbins):
    """``(rr, cc, wlo, whi)`` of the reciprocal form of the uniform bins (``precision``: see
    :func:`_uniform_types`), or None where it is not proven to give NumPy's bins
    (:data:`RECIPROCAL` off, float16 precision, huge bin counts, a range far from zero for its
    width, subnormal bin widths).

    NumPy computes ``f = (t - first) / (last - first) * nbins``, truncates it to ``b`` and fixes
    ``b`` up by at most one step each way against the edges (``t < e[b]``: ``b - 1``;
    ``t >= e[b + 1]``: ``b + 1``).  Write ``G(t) = (t - first) * nbins / (last - first)``
    (exact), ``U`` for the largest machine epsilon of the dtypes involved (the edges, NumPy's
    quotient, linspace's, ours: twice their unit roundoff, room for float16's double rounding),
    ``M = max(|first|, |last|)`` and ``D = last - first``.  NumPy's ``f`` is within
    ``nbins U (4.1 + M/D)`` of ``G``; ours (``fma(t, rr, cc)``, ``rr = nbins / D``,
    ``cc = -first rr``) within ``nbins U (1.1 + 4 M/D)``; each linspace edge has
    ``|G(e[k]) - k| <= nbins U (3.1 + 2.1 M/D)``.  With ``delta = nbins U (8 + 8 M/D) <= 1/16``
    both estimates are within one bin of the true one (``e[b] <= t < e[b + 1]``), so both
    fix-ups land on it: the same bins whatever the last bits.  More: where ``frac(f)`` lies in
    ``[2 delta, 1 - 2 delta]``, ``trunc(f)`` is the true bin already and the kernel skips the two
    edge reads (all but a ``4 delta`` fraction of values; 256 float32 bins on [0, 1): 0.15%)."""
    if not RECIPROCAL or nbins >= 2 ** 31 - 1:
        return None
    c, eps, tiny = precision
    lo, hi = float(first), float(last)
    m, d = max(abs(lo), abs(hi)), hi - lo
    # (bins wider than tiny / eps: subnormal edges would break the relative-error model)
    if not (math.isfinite(d) and d / nbins >= tiny / eps):
        return None
    delta = nbins * (eps + 2.0 ** -52) * (8 + 8 * m / d)
    if not delta <= 1 / 16:
        return None
    rr = nbins / d
    return (c.type(rr), c.type(-lo * rr), c.type(2 * delta), c.type(1 - 2 * delta))


_UNIFORM_TYPES = {}


def _uniform_types(bt, first, last):
    """``(dt2, den, precision)``: NumPy's dtype of ``(x - first) / (last - first) * nbins``
    (found by running its expression on a one-element stand-in), its ``last - first`` and, for
    :func:`_reciprocal`, ``(compute dtype, largest epsilon, largest tiny)`` over the edges',
    quotient's, linspace's and our dtypes.  The dtypes follow from the operands' types; cached
    per types (Python ints past int64 are not: NumPy may raise for them)."""
    key = (bt, type(first), type(last))
    hit = _UNIFORM_TYPES.get(key)
    den = _unsigned_subtract(last, first)
    if hit is not None:
        return hit[0], den, hit[1]
    s = _unsigned_subtract(np.zeros(1, bt), first)
    dt2 = (s / den * 1).dtype          # (nbins, a Python int, is weak: any value gives this)
    c = _ew.compute_dtype(bt)
    lin = np.result_type(first, last, 1.0)          # linspace's working dtype
    fl = [np.finfo(d) for d in (bt, dt2, np.dtype(type(den)), c, lin) if d.kind == "f"]
    precision = (c, max(f.eps for f in fl), max(f.tiny for f in fl))
    if all(type(v) is not int or -2 ** 63 <= v < 2 ** 63 for v in (first, last)):
        _UNIFORM_TYPES[key] = (dt2, precision)
    return dt2, den, precision


def _fits(dt, v):
    """Whether integer dtype ``dt`` holds ``v`` (a Python int past its range: no)."""
    try:
        return dt.type(v) == v
    except OverflowError:
        return False


def _uniform_counts(a, w, first, last, nbins, edges):
    bt = edges.dtype
    dt2, den, precision = _uniform_types(bt, first, last)
    # the keep test compares a's values with first/last as NumPy does
    if a.dtype.kind == "f":
        kt = np.result_type(a.dtype, first, last)
    else:
        kt = np.result_type(a.dtype, first, last) if all(
            isinstance(v, (int, np.integer)) for v in (first, last)) else _F64
        if kt.kind not in "iu" or not all(_fits(kt, v) for v in (first, last)):
            kt = _F64
    kc, bc, dc = (_ew.compute_dtype(d) for d in (kt, bt, dt2))
    ev = [edges.size] + _s.arr_values(edges if edges._c_contig else edges.copy())
    x = a if a.ndim == 1 else a.reshape(-1)
    keep = [kc.type(kt.type(first)), kc.type(kt.type(last))]
    fast = _reciprocal(precision, first, last, nbins)
    if fast is not None:
        return _count("uniform", x, w, nbins, (kt, bt, dt2, False, True), keep + list(fast) + ev)
    etab = edges.size <= _s.table_size(bc)
    extra = keep + [bc.type(bt.type(first)), dc.type(dt2.type(den)), dc.type(dt2.type(nbins))] + ev
    return _count("uniform", x, w, nbins, (kt, bt, dt2, etab, False), extra)


def _edge_counts(sample, w, edges):
    """Counts of the (N, D) ``sample`` over the cells of ``edges`` (D device arrays), C order."""
    from ..manipulation import concatenate
    ct = np.result_type(sample.dtype, *[e.dtype for e in edges])
    if ct.kind == "b":
        ct = np.dtype(np.uint8)
    ct = _s.compute_type(ct)
    flat = concatenate([e.reshape(-1).astype(ct) for e in edges])
    etab = flat.size <= _s.table_size(ct)
    extra, off, nb = [], 0, 1
    for e in edges:
        extra += [off, e.size]
        off += e.size
        nb *= max(e.size - 1, 0)
    extra += [flat.size] + _s.arr_values(flat)
    D = len(edges)
    if nb == 0:
        sample = sample[:0]
    return _count("edges", sample, w, nb, (ct, D, etab), extra)


def _finish(n, ntype):
    return n if n.dtype == ntype else n.astype(ntype)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """``numpy.histogram``: (counts or weight sums, bin edges), both device arrays."""
    a, w = _ravel(a, weights)
    edges, uniform = _bin_edges(a, bins, range, w)
    ntype = _I64 if w is None else w.dtype
    if uniform is not None:
        n = _uniform_counts(a, w, *uniform, edges)
    else:
        if edges.dtype.kind == "c":
            raise TypeError("histogram: complex bin edges are not supported by npgpu")
        n = _edge_counts(a.reshape((-1, 1)), w, [edges])
    n = _finish(n, ntype)
    if density:
        from ..reductions.functions import sum as _sum
        db = (edges[1:] - edges[:-1]).astype(_F64)
        return n / db / _sum(n), edges
    return n, edges


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """``numpy.histogram_bin_edges``: the edges :func:`histogram` would use (device array)."""
    a, w = _ravel(a, weights)
    return _bin_edges(a, bins, range, w)[0]


def _sample_2d(sample):
    from ..manipulation import stack
    if isinstance(sample, ndarray) and sample.ndim == 2:
        return sample
    if isinstance(sample, np.ndarray) and sample.ndim == 2:
        return _as_device(sample)
    if isinstance(sample, (ndarray, np.ndarray)):
        s = _as_device(sample)
        return s.reshape((-1, 1)) if s.ndim <= 1 else stack([s[i] for i in builtins_range(
            s.shape[0])], axis=-1)
    cols = [_as_device(c) for c in sample]
    if all(c.ndim == 0 for c in cols):
        return stack(cols).reshape((1, -1))
    return stack(cols, axis=1)


builtins_range = range


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """``numpy.histogramdd``: (float64 histogram of shape ``(len(e) - 1 for e in edges)``,
    list of the D edge arrays)."""
    from ..creation import asarray
    sample = _sample_2d(sample)
    if sample.dtype.kind == "c":
        raise TypeError("histogram: complex data is not supported by npgpu")
    N, D = sample.shape
    w = None
    if weights is not None:
        w = _as_device(weights).reshape(-1)
        if w.dtype.kind == "c" or not np.can_cast(w.dtype, _F64, "safe"):
            raise _cast_error(w.dtype, _F64)
    try:
        M = len(bins)
        if M != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the "
                             "sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = (None,) * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    edges = []
    for i in builtins_range(D):
        if _ndim(bins[i]) == 0:
            if bins[i] < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            smin, smax = _outer_edges(sample[:, i], range[i])
            try:
                nb = operator.index(bins[i])
            except TypeError as e:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from e
            edges.append(asarray(np.linspace(smin, smax, nb + 1)))
        elif _ndim(bins[i]) == 1:
            edges.append(_edges_array(bins[i], f"`bins[{i}]` must be monotonically "
                                               "increasing, when an array"))
        else:
            raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    if w is not None and w.shape[0] != N:
        raise ValueError("The weights and list don't have the same length.")
    hist = _count_dd(sample, w, edges)
    hist = hist.reshape(tuple(e.size - 1 for e in edges))
    if density:
        from ..reductions.functions import sum as _sum
        s = _sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * D
            shape[i] = e.size - 1
            hist = hist / (e[1:] - e[:-1]).reshape(tuple(shape))
        hist = hist / s
    return hist, edges


def _count_dd(sample, w, edges):
    return _edge_counts(sample, w, edges).astype(_F64)


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """``numpy.histogram2d``: (float64 histogram, x edges, y edges)."""
    x, y = _as_device(x), _as_device(y)
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        xedges = yedges = bins if isinstance(bins, ndarray) else np.asarray(bins)
        bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
