"""``searchsorted`` and ``digitize``: binary searches, one query per thread.

One kernel template (:func:`_render_search`) serves both.  Each block first copies a sample of
the sorted array into shared memory -- ``S = min(n, TABLE)`` elements at positions
``p_k = k * n // S`` -- so the first ~12 levels of every search run in shared memory and only
the last ``log2(n / S)`` levels read global memory.  With ``n <= TABLE`` (the usual
``digitize``/``histogram`` edges) the whole array is in shared memory and nothing but the
queries is read from global memory.  Blocks stay resident and walk the queries grid-stride,
so the sample is loaded once per block, not once per query tile.

The search itself (:func:`search_lines`) is shared with :mod:`.counting`'s histogram kernels:
``c`` = how many samples satisfy the predicate (``e < v`` for ``side='left'``,
``not v < e`` for ``'right'``; a monotone predicate on sorted input), then the answer lies in
``(p_{c-1}, p_c]`` and a branch-light halving search over that range finds it.

Order is NumPy's sort order (``lt``): NaN after everything, complex lexicographic with NumPy's
NaN rules.  Like NumPy, the input is not checked to be sorted.  ``sorter`` indices are checked
as they are visited (an error flag, one 4-byte read after the kernel; NumPy checks the ones its
own search visits), so a bad sorter raises NumPy's ``ValueError`` and nothing is returned.
"""
import operator
import os

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import transfer as _transfer
from .._core.ndarray import empty_array, ndarray

_SIM = _backend.IS_SIM
_I64 = np.dtype(np.int64)
_I32 = np.dtype(np.int32)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_U8 = np.dtype(np.uint8)
# Threads a block; bytes of the shared sample of the sorted array (16 KiB keeps ~7 blocks of
# 256 threads resident an SM).  The simulator's table is tiny so tests exercise both phases.
BLOCK = 4 if _SIM else 256
TABLE_BYTES = 64 if _SIM else 16384

# NumPy's sort order (npysort's LT): NaN last; complex lexicographic, NaN parts last.
LT_SOURCES = {
    "i": "def lt(a, b):\n    return a < b\n",
    "f": "def lt(a, b):\n    return a < b or (b != b and a == a)\n",
    "c": """def lt(a, b):
    ar = a.real
    ai = a.imag
    br = b.real
    bi = b.imag
    if ar < br:
        return ai == ai or bi != bi
    if ar > br:
        return bi != bi and ai == ai
    if ar == br or (ar != ar and br != br):
        return ai < bi or (bi != bi and ai == ai)
    return br != br
""",
}


def compute_type(dt):
    """The dtype comparisons run in: bool as uint8, float16 as float32 (both exact)."""
    if dt.kind == "b":
        return _U8
    return _ew.compute_dtype(dt)


def lt_device(ct):
    """Source of the ``lt`` device function for compute dtype ``ct``."""
    return "@cuda.jit(device=True)\n" + LT_SOURCES["f" if ct.kind == "f" else
                                                     "c" if ct.kind == "c" else "i"]


def table_size(ct):
    return max(1, TABLE_BYTES // ct.itemsize)


def load_table_lines(ind, load, table="T", count="S", n="n", off="0"):
    """Lines copying ``count`` samples ``p_k = k * n // count`` into ``table[off + k]``;
    ``load(j)`` gives lines that set ``e`` to element ``j`` (compute dtype).  Ends with a
    barrier, so every thread of the block must run them."""
    L = ["k = cuda.threadIdx.x",
         f"while k < {count}:",
         f"    j = (k * {n}) // {count}",
         *["    " + s for s in load("j")],
         f"    {table}[{off} + k] = e",
         "    k += cuda.blockDim.x",
         "cuda.syncthreads()"]
    return [ind + s for s in L]


def search_lines(ind, right, load, table="T", count="S", n="n", off="0", out="lo"):
    """Lines setting ``out`` to the insertion point of ``v`` among the ``n`` sorted elements
    (``side='right'`` when ``right``): first the ``count`` shared samples of
    :func:`load_table_lines`, then global elements via ``load(j)`` (lines setting ``e``).
    ``count=None``: no shared samples; ``load=None``: the samples are all ``n`` elements."""
    pred = "not lt(v, e)" if right else "lt(e, v)"
    L = []
    if count is None:
        L += [f"{out} = 0", f"ln = {n}"]
    else:
        L += ["c = 0",
              f"ln = {count}",
              "while ln > 0:",
              "    h = ln >> 1",
              f"    e = {table}[{off} + c + h]",
              f"    if {pred}:",
              "        c += h + 1",
              "        ln -= h + 1",
              "    else:",
              "        ln = h"]
        if load is None:
            return [ind + s for s in L + [f"{out} = c"]]
        L += [f"{out} = 0 if c == 0 else ((c - 1) * {n}) // {count} + 1",
              f"ln = ({n} if c == {count} else (c * {n}) // {count}) - {out}"]
    L += ["while ln > 0:",
          "    h = ln >> 1",
          *["    " + s for s in load(f"{out} + h")],
          f"    if {pred}:",
          f"        {out} += h + 1",
          "        ln -= h + 1",
          "    else:",
          "        ln = h"]
    return [ind + s for s in L]


def resident_grid(kern, n, block=BLOCK):
    """Blocks of a grid-stride launch over ``n`` items: one wave of resident blocks at most
    (each block loads its shared table once), never more than the items need."""
    need = max(1, -(-n // block))
    if _SIM:
        return min(need, 2)
    from ..reductions.reduce import _sm_count
    return max(1, min(need, _sm_count() * (kern.blocks_per_sm(block) or 1)))


def arr_values(x):
    return _ew._arr_values(x._ptr, x.shape, x._strides, x.itemsize)


def layout_of(x):
    return "C" if x._c_contig else "A"


# ---- searchsorted -------------------------------------------------------------------------------
def _render_search(a_dt, a_lay, v_dt, ct, right, s_dt, s_lay):
    ctn = _ew.type_name(ct)
    ts = table_size(ct)

    def load(j):
        if s_dt is None:
            return [f"e = {_ew.cast_expr(f'A[{j}]', a_dt, ct)}"]
        return [f"s = int64(SRT[{j}])",
                "if s < 0 or s >= n:",
                "    ERR[0] = 1",
                "    s = 0",
                f"e = {_ew.cast_expr('A[s]', a_dt, ct)}"]

    args = "n, m, S, rev, A, V, OUT" + (", SRT, ERR" if s_dt is not None else "")
    L = [lt_device(ct), "", f"def KERNEL({args}):",
         f"    T = cuda.shared.array({ts}, {ctn})"]
    L += load_table_lines("    ", load)
    L += ["    i = cuda.grid(1)",
          "    step = cuda.gridsize(1)",
          "    while i < m:",
          f"        v = {_ew.cast_expr('V[i]', v_dt, ct)}"]
    L += search_lines("        ", right, load)
    L += ["        OUT[i] = n - lo if rev else lo",
          "        i += step"]
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name("searchsorted", text)
    params = [Param("scalar", _I64)] * 3 + [Param("scalar", np.bool_),
                                             Param("array", a_dt, 1, a_lay),
                                             Param("array", v_dt, 1, "C"),
                                             Param("array", _I64, 1, "C")]
    if s_dt is not None:
        params += [Param("array", s_dt, 1, s_lay), Param("array", _I32, 1, "C")]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _value_dtype(v):
    """The dtype NumPy's searchsorted gives a query operand (before promotion with ``a``):
    Python ints by value (the legacy rule it still uses), other scalars by their kind."""
    if isinstance(v, (ndarray, np.ndarray, np.generic)):
        return v.dtype
    if isinstance(v, bool):
        return np.dtype(np.bool_)
    if isinstance(v, int):
        return np.min_scalar_type(v)
    if isinstance(v, float):
        return _F64
    if isinstance(v, complex):
        return np.dtype(np.complex128)
    return np.asarray(v).dtype


def _as_device(x, dt=None):
    from ..creation import asarray
    if isinstance(x, ndarray):
        return x if dt is None or x.dtype == dt else x.astype(dt)
    return asarray(x, dtype=dt)


def _check_side(side):
    s = side.decode("latin-1") if isinstance(side, bytes) else side
    if not isinstance(s, str):
        raise TypeError(f"search side must be str, not {type(side).__name__}")
    if s in ("left", "right"):
        return s == "right"
    if s and s[0] in "lLrR":
        raise ValueError("search side must be one of 'left' or 'right'")
    # (NumPy's message shows the argument as given: b'q' for bytes)
    raise ValueError(f"search side must be 'left' or 'right' (got {side!r})")


def _check_sorter(sorter, n):
    s = sorter if isinstance(sorter, ndarray) else np.asarray(sorter)
    if s.ndim != 1:
        raise TypeError("could not parse sorter argument")
    if s.dtype.kind not in "iu":
        raise TypeError("sorter must only contain integers")
    if s.dtype.kind == "u" and s.dtype.itemsize == 8:
        raise ValueError("could not parse sorter argument")
    if s.size != n:
        raise ValueError("sorter.size must equal a.size")
    return _as_device(s)


# Tiny calls (issues 14, 20): a 1-d device ``a``, C-contiguous device queries and no sorter take
# a plan cached per (dtypes, layout of ``a``, side): kernel, shared-table size and the blocks an
# SM holds; a grid of no more blocks than that needs no SM count.  ``searchsorted`` itself
# sends such a call straight here (its side a str; no side parsing, no check for huge Python
# ints).  Stub driver (sort_host_overhead.py), 16 queries into 1024 keys: 21.6 -> 4.9 -> 3.7 us.
# NPGPU_SEARCH_TINY=0: off.
TINY = os.environ.get("NPGPU_SEARCH_TINY", "1") != "0"
_PLANS = compiler.clears_with_memory_cache({})


def _plan(a, vdt, right):
    """(kernel, shared-table size, blocks an SM holds) of queries of ``vdt`` into ``a``, or
    False where the general path must run (its errors)."""
    ct_in = np.promote_types(a.dtype, vdt)
    if ct_in.kind not in "biufc" or vdt.kind not in "biufc":
        return False
    ct = compute_type(ct_in)
    kern = _kernel(a, vdt, ct, right, None, None)
    return kern, table_size(ct), kern.blocks_per_sm(BLOCK) or 1


def _kernel(a, vdt, ct, right, s_dt, s_lay):
    key = ("searchsorted", a.dtype, layout_of(a), vdt, ct, right, s_dt, s_lay)
    return compiler.get_kernel(key, lambda: _render_search(a.dtype, key[2], vdt, ct, right, s_dt,
                                                           s_lay))


def _search_tiny(a, v, right, reverse):
    """:func:`search` of 1-d ``a`` and C-contiguous ``v`` through a cached plan, or None (not
    a call it takes)."""
    key = (a._dtype, a._c_contig, v._dtype, right)
    p = _PLANS.get(key)
    if p is None:
        p = _PLANS[key] = _plan(a, v.dtype, right)
    if p is False:
        return None
    vs = v._shape
    if len(vs) == 1:
        m = vs[0]
    else:
        m = 1
        for s in vs:
            m *= s
    if not m:
        return None
    kern, ts, bps = p
    out = empty_array(vs, _I64)
    n = a._shape[0]
    w = v._dtype.itemsize
    need = -(-m // BLOCK)
    kern(need if need <= bps else resident_grid(kern, m), BLOCK,
         [n, m, n if n < ts else ts, reverse, 0, 0, n, a._dtype.itemsize, a._ptr, n,
          a._strides[0], 0, 0, m, w, v._ptr, m, w, 0, 0, m, 8, out._ptr, m, 8])
    return out


def search(a, v, right=False, sorter=None, reverse=False):
    """int64 insertion points of every element of ``v`` (any shape) in the 1-d ``a``
    (``reverse``: ``len(a) - point``, for decreasing ``digitize`` bins searched reversed)."""
    if (TINY and sorter is None and a.__class__ is ndarray and v.__class__ is ndarray
            and len(a.shape) == 1 and v._c_contig):
        r = _search_tiny(a, v, right, bool(reverse))
        if r is not None:
            return r
    if not isinstance(a, ndarray):
        a = _as_device(a)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array" if a.ndim > 1
                         else "object of too small depth for desired array")
    ct_in = np.promote_types(a.dtype, _value_dtype(v))
    if ct_in.kind not in "biufc":
        raise TypeError(f"searchsorted: dtype {ct_in} is not supported")
    srt = None if sorter is None else _check_sorter(sorter, a.shape[0])
    vd = _as_device(v)
    out = empty_array(vd.shape, _I64)
    m = vd.size
    if m == 0:
        return out
    if vd.dtype.kind not in "biufc":
        raise TypeError(f"searchsorted: dtype {vd.dtype} is not supported")
    vflat = vd.reshape(-1)
    if not vflat._c_contig:
        vflat = vflat.copy()
    n = a.shape[0]
    ct = compute_type(ct_in)
    s_dt = srt.dtype if srt is not None else None
    s_lay = layout_of(srt) if srt is not None else None
    kern = _kernel(a, vflat.dtype, ct, right, s_dt, s_lay)
    values = [n, m, min(n, table_size(ct)), bool(reverse)] + arr_values(a) + \
        arr_values(vflat) + arr_values(out.reshape(-1))
    err = None
    if srt is not None:
        from ..creation import zeros
        err = zeros((1,), _I32)
        values += arr_values(srt) + arr_values(err)
    kern(resident_grid(kern, m), BLOCK, values)
    if err is not None:
        host = np.zeros(1, _I32)
        _transfer._d2h(host, err._ptr, 4)
        if host[0]:
            raise ValueError("Sorter index out of range.")
    return out


def searchsorted(a, v, side="left", sorter=None):
    """``numpy.searchsorted``: int64 indices (of ``v``'s shape) where ``v`` would be inserted
    into the 1-d sorted ``a`` to keep it sorted; ``sorter``: indices that sort ``a``."""
    if (TINY and sorter is None and v.__class__ is ndarray and a.__class__ is ndarray
            and side.__class__ is str and len(a._shape) == 1 and v._c_contig):
        if side == "left" or side == "right":
            r = _search_tiny(a, v, side == "right", False)
            if r is not None:
                return r
    right = _check_side(side)
    big = _beyond_int64(v)
    if big is not None:
        return _search_beyond(a, big, right, sorter)
    return search(a, v, right, sorter)


def _beyond_int64(v):
    """``v`` as a host object array when it is Python ints, some beyond int64 and uint64
    (NumPy compares those as Python objects), else None."""
    if isinstance(v, bool) or not isinstance(v, (int, list, tuple)):
        return None
    try:
        h = np.asarray(v)
    except Exception:           # noqa: BLE001 - (device arrays in a list): the usual path
        return None
    if h.dtype != object or not all(type(x) is int for x in h.flat):
        return None
    return h


def _search_beyond(a, h, right, sorter):
    """searchsorted of the Python ints ``h`` (an object array): in a float or complex ``a``
    as float64 values; in an integer ``a`` clipped to its range, every value beyond it placed
    at the end (above) or the start (below), as NumPy's object comparisons place it."""
    from ..creation import asarray
    from ..logic import where
    if not isinstance(a, ndarray):
        a = _as_device(a)
    if a.dtype.kind == "c" and a.ndim == 1 and a.size and h.size:
        # NumPy compares the complex elements with the Python ints as objects
        raise TypeError("'<' not supported between instances of 'complex' and 'int'")
    if a.dtype.kind not in "biu":
        return search(a, h.astype(_F64), right, sorter)
    lo, hi = (0, 1) if a.dtype.kind == "b" else (int(np.iinfo(a.dtype).min),
                                                  int(np.iinfo(a.dtype).max))
    clipped = np.array([min(max(x, lo), hi) for x in h.flat], a.dtype).reshape(h.shape)
    out = search(a, clipped, right, sorter)
    above, below = (h > hi).astype(bool), (h < lo).astype(bool)
    if a.ndim == 1 and (above.any() or below.any()):
        fixed = np.where(above, a.shape[0], 0).astype(np.int64)
        out = where(asarray(above | below), asarray(fixed), out)
    return out


# ---- digitize ---------------------------------------------------------------------------------
def _render_monotonic(b_dt, b_lay):
    # NumPy's _monotonicity on the bins cast to float64: skip the leading run equal to b[0];
    # the first differing value sets the direction; any pair against it -> 0.  One block.
    x = _ew.cast_expr("B[i]", b_dt, _F64)
    p = _ew.cast_expr("B[i - 1]", b_dt, _F64)
    L = ["def KERNEL(n, B, OUT):",
         "    sh = cuda.shared.array(3, int64)",
         "    t = cuda.threadIdx.x",
         "    if t == 0:",
         "        sh[0] = n",
         "        sh[1] = 0",
         "        sh[2] = 0",
         "    cuda.syncthreads()",
         f"    b0 = {_ew.cast_expr('B[0]', b_dt, _F64)}",
         "    first = n",
         "    gt = False",
         "    lt = False",
         "    i = t + 1",
         "    while i < n:",
         f"        x = {x}",
         f"        p = {p}",
         "        if not (x == b0) and i < first:",
         "            first = i",
         "        if p > x:",
         "            gt = True",
         "        if p < x:",
         "            lt = True",
         "        i += cuda.blockDim.x",
         "    cuda.atomic.min(sh, 0, first)",
         "    if gt:",
         "        sh[1] = 1",
         "    if lt:",
         "        sh[2] = 1",
         "    cuda.syncthreads()",
         "    if t == 0:",
         "        f = sh[0]",
         "        r = 1",
         "        if f < n:",
         "            i = f",
         f"            if b0 < {x}:",
         "                r = 0 if sh[1] else 1",
         "            else:",
         "                r = 0 if sh[2] else -1",
         "        OUT[0] = r"]
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name("monotonic", text)
    params = [Param("scalar", _I64), Param("array", b_dt, 1, b_lay), Param("array", _I64, 1, "C")]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def monotonicity(bins):
    """NumPy's ``_monotonicity``: 1 increasing (or constant, or empty), -1 decreasing, 0 neither.
    One single-block kernel and one 8-byte read."""
    n = bins.shape[0]
    if n < 2:
        return 1
    key = ("monotonic", bins.dtype, layout_of(bins))
    kern = compiler.get_kernel(key, lambda: _render_monotonic(bins.dtype, key[2]))
    out = empty_array((1,), _I64)
    kern(1, 32 if _SIM else 1024, [n] + arr_values(bins) + arr_values(out))
    host = np.zeros(1, _I64)
    _transfer._d2h(host, out._ptr, 8)
    return int(host[0])


def digitize(x, bins, right=False):
    """``numpy.digitize``: int64 indices of the bins (increasing or decreasing) each value of
    ``x`` falls into; ``right``: intervals closed on the right."""
    xd = _as_device(x)
    if xd.dtype.kind == "c":
        raise TypeError("x may not be complex")
    b = _as_device(bins)
    if b.ndim != 1:
        raise ValueError("object too deep for desired array" if b.ndim > 1
                         else "object of too small depth for desired array")
    if not np.can_cast(b.dtype, _F64, "safe"):
        raise TypeError(f"Cannot cast array data from {b.dtype!r} to dtype('float64') "
                        "according to the rule 'safe'")
    mono = monotonicity(b)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    # 'right' closes the interval on the right: the search's left side, and vice versa
    if mono == -1:
        return search(b[::-1], xd, not right, reverse=True)
    return search(b, xd, not right)
