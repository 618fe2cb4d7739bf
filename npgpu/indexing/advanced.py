"""Advanced (integer-array) indexing: ``a[idx]`` and ``a[idx] = v`` with NumPy's full rules.

An index is normalised on the host into a :class:`Plan`: an iteration shape (the result's shape),
the element offset of its first element, an element stride per iteration dim for the basic
(slice / None) dims, and the index arrays, each a view broadcast to the iteration shape, with the
length and stride of the axis it indexes.  One kernel template (:func:`_render`) runs every plan:

* ``gather``  -- ``out[i] = src[base + sum c_d s_d + sum idx_k[c] t_k]`` over the result;
* ``check``   -- bounds only, over the broadcast index shape (assignment runs it first, so
  nothing is written when an index is bad; it also *claims* destinations, below);
* ``scatter`` -- ``dst[...] = value[c]`` (the value cast on load, as NumPy's assignment cast).

It is specialised by dtype, number and dtypes of index arrays, iteration rank and bounds mode
(``raise``: negative indices count from the end, out of range is an error; ``wrap``; ``clip``;
``nonneg``: negative is an error too, for unravel_index / ravel_multi_index), never per index
pattern.

Out of bounds: the kernel records ``k * n + i`` (index array k, iteration position i) with an
atomic min in a per-stream 8-byte device record; the call reads that record back (one 8-byte
device-to-host read, the only one of a call) and, when set, reads the one offending index element
to raise NumPy's ``IndexError: index 10 is out of bounds for axis 0 with size 5``.  The reported
index is the first bad one of the first index array that has one, in C order, as NumPy's.

Repeated indices in an assignment: npgpu guarantees that the value from the **last** source
position (C order over the indexing result) wins, on every run.  The check kernel claims each
destination with ``atomic.max`` of ``epoch << 32 | position + 1`` in a per-stream scratch array
over the indexed axes (the epoch grows per call, so the scratch is never cleared); the scatter
then writes only where its position holds the claim.  A value that is the same for every
repeated index (a scalar, or broadcast over the index dims) skips the claim: any order gives the
same result.
"""
import operator
import threading

import numpy as np

from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._codegen.compiler import KernelSource, Param
from .._core import copy as _copy
from .._core import layout as _layout
from .._core import transfer as _transfer
from .._core.host_signal import read_word, stream_signal
from .._core.ndarray import empty_array, ndarray
from .._remap import REGISTER_RECORDS
from ..cuda import runtime as _runtime

_I64 = np.dtype(np.int64)
EPT = 4     # elements a gather thread handles (the elementwise contiguous layout's choice)
# (Measured and dropped, H200 2026-12-04, a[idx] of 2^26 float32 by int64 indices, two rounds
# alternating: the index read and the output written evict-first (ld.global.cs / st.global.cs,
# L2 left to the randomly read source) 1.764-1.812 ms against 1.776-1.783 ms plain; CuPy and
# PyTorch 1.76-1.83 ms in the same runs: all three bound by the random 32-byte sector reads.)
_NONE = np.iinfo(np.int64).max        # the record's "no bad index"
VALID_MSG = _layout.VALID_INDEX_MSG
INT_MSG = "arrays used as indices must be of integer (or boolean) type"


def shape_text(shape):
    """A shape as NumPy's indexing messages print it: ``(2,6)``, ``(3,)``, ``()``."""
    return "(" + ",".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


# --- the plan ---------------------------------------------------------------------------------
class Plan:
    """What one launch of the template needs (element units, relative to ``a``'s lowest address).

    shape: iteration shape; base: offset of its first element; strides: per iteration dim, the
    element stride of the basic dims (0 on index dims); arrays: index arrays broadcast to
    ``shape``; sizes / steps / axes: per index array, the length, element stride and number of the
    axis it indexes (axis None: a virtual length-1 axis, from a 0-d boolean); adv: (start, ndim)
    of the broadcast index dims inside ``shape``; bshape: the broadcast index shape.
    """

    __slots__ = ("a", "lo", "m", "shape", "base", "strides", "arrays", "sizes", "steps", "axes",
                 "adv", "bshape")

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    def replace(self, **fields):
        return Plan(**{**{n: getattr(self, n) for n in self.__slots__}, **fields})


def _extent(a):
    lo, hi = _copy.extent(a)
    return lo, (hi - lo) // a.itemsize


def _classify(item):
    """(kind, value): kind one of none, ellipsis, slice, int, bool0, arr, mask."""
    if item is None:
        return "none", None
    if item is Ellipsis:
        return "ellipsis", None
    if isinstance(item, slice):
        return "slice", item
    if isinstance(item, (bool, np.bool_)):
        return "bool0", bool(item)
    if isinstance(item, ndarray):
        k = item.dtype.kind
        if k == "b":
            if item.ndim == 0:
                return "bool0", item
            return "mask", item
        if k in "iu":
            return "arr", item
        raise IndexError(INT_MSG)
    if _layout._is_int(item):
        return "int", _layout.index_int(item)
    if isinstance(item, (list, tuple)) and _holds_device(item):
        d = _device_sequence(item)           # NumPy's np.asarray(item), made on the device
        k = d.dtype.kind
        if k not in "biu":
            raise IndexError(VALID_MSG)
        return ("mask" if k == "b" else "arr"), d
    if isinstance(item, (np.ndarray, list, tuple, range)):
        h = np.asarray(item)                 # (a ragged list: NumPy's ValueError)
        if h.dtype == object:
            raise IndexError(VALID_MSG)
        if not isinstance(item, np.ndarray) and h.size == 0:
            h = h.astype(np.intp)            # [] indexes nothing (NumPy: an empty intp array)
        if h.dtype.kind == "b":
            return ("bool0", bool(h)) if h.ndim == 0 else ("mask", h)
        if h.dtype.kind in "iu":
            return ("int", operator.index(h[()])) if h.ndim == 0 else ("arr", h)
        # (NumPy: a non-integer array is "arrays used as indices must be ...", a list of
        # non-integers is not a valid index at all)
        raise IndexError(INT_MSG if isinstance(item, np.ndarray) else VALID_MSG)
    raise IndexError(VALID_MSG)


def _holds_device(item):
    return any(isinstance(x, ndarray) or (isinstance(x, (list, tuple)) and _holds_device(x))
               for x in item)


def _device_sequence(item):
    """A list (or nested lists) holding npgpu arrays as one array, NumPy's ``np.asarray`` of
    it: the parts stacked on the device, in their common dtype."""
    from ..creation import asarray
    from ..manipulation import stack

    def build(x):
        if isinstance(x, ndarray):
            return x
        if isinstance(x, (list, tuple)) and _holds_device(x):
            parts = [build(y) for y in x]
            if len({p.shape for p in parts}) != 1:
                # NumPy's ragged-sequence ValueError, from host stand-ins of the same shapes
                np.asarray(_stand_in(item))
                raise ValueError("setting an array element with a sequence.")
            return stack(parts)
        return asarray(np.asarray(x))
    return build(item)


def _stand_in(x):
    if isinstance(x, ndarray):
        return np.broadcast_to(np.zeros((), x.dtype), x.shape)
    if isinstance(x, (list, tuple)):
        return [_stand_in(y) for y in x]
    return x


def parse(a, index):
    """A :class:`Plan` for a non-basic ``a[index]``, or ``("basic", index)`` when the index turns
    out basic (0-d host integer arrays are integers)."""
    from ..creation import asarray
    if not isinstance(index, tuple):
        index = (index,)
    items = [_classify(it) for it in index]
    consumed = 0
    n_ell = 0
    fancy = False
    for kind, v in items:
        if kind in ("int", "slice", "arr"):
            consumed += 1
        elif kind == "mask":
            consumed += v.ndim
        elif kind == "ellipsis":
            n_ell += 1
        fancy = fancy or kind in ("arr", "mask", "bool0")
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    nd = a.ndim
    if consumed > nd:
        raise IndexError(f"too many indices for array: array is {nd}-dimensional, "
                         f"but {consumed} were indexed")
    if not fancy:
        return "basic", tuple(v if k != "ellipsis" else Ellipsis for k, v in items)
    # expand into entries along the axes: (kind, value, axis)
    entries = []
    d = 0
    for kind, v in items:
        if kind == "ellipsis":
            for _ in range(nd - consumed):
                entries.append(("slice", slice(None), d))
                d += 1
            if nd == consumed:
                # an ellipsis of no axes still separates the advanced indices around it
                entries.append(("sep", None, None))
        elif kind == "mask":
            k = v.ndim
            from . import masks
            masks.check_mask(a.shape, v.shape, d)
            if isinstance(v, ndarray):
                parts = masks.nonzero(v)
            else:
                parts = [asarray(p) for p in np.nonzero(v)]
            for j, p in enumerate(parts):
                entries.append(("arr", p, d + j))
            d += k
        elif kind == "bool0":
            if isinstance(v, ndarray):
                v = bool(v.get())             # its value decides the result's shape
            # an index array [0] or [] on a new length-1 axis (NumPy's 0-d boolean)
            entries.append(("arr", asarray(np.zeros(1 if v else 0, np.intp)), None))
        elif kind == "none":
            entries.append(("none", None, None))
        else:
            if kind == "arr" and not isinstance(v, ndarray):
                v = asarray(v)
            entries.append((kind, v, d))
            d += 1
    while d < nd:
        entries.append(("slice", slice(None), d))
        d += 1
    p = _plan(a, entries)
    _check_count(p)
    if not _layout.prod(p.bshape):
        # NumPy checks a 0-d index array as an integer, even where the broadcast is empty
        for k, ax in enumerate(p.axes):
            if _entries_0d(entries, k):
                check(p.replace(bshape=(), adv=(0, 0), arrays=[p.arrays[k]],
                                sizes=[p.sizes[k]], steps=[p.steps[k]], axes=[ax]))
    return p


def _check_count(p):
    """NumPy's limits on the number of index arrays (its iterator's operand count): 64, and 63
    where no subspace of more than one element is left besides them."""
    k = len(p.arrays)
    if k > 64:
        raise IndexError("too many advanced (array) indices. This probably means you are "
                         "indexing with too many booleans. (more than 64 found)")
    start, length = p.adv
    if k > 63 and _layout.prod(p.shape[:start] + p.shape[start + length:]) == 1:
        raise IndexError("when no subspace is given, the number of index arrays cannot be "
                         f"above 63, but {k} index arrays found")


def _entries_0d(entries, k):
    """Is the k-th index array of ``entries`` 0-d (a device array: host ones are integers)?"""
    return [v for kind, v, _ in entries if kind == "arr"][k].ndim == 0


def _plan(a, entries):
    """Plan from entries (kind in slice / none / int / arr / sep, value, axis; ``sep``: an
    empty ellipsis, which only keeps the advanced indices on its two sides apart)."""
    isz = a.itemsize
    if any(s % isz for s in a._strides):
        raise ValueError("npgpu: strides that are not a multiple of the item size")
    lo, m = _extent(a)
    base = (a._ptr - lo) // isz
    arrays = [v for k, v, _ in entries if k == "arr"]
    for kind, v, ax in entries:
        # NumPy checks slice steps and integers, in order, before broadcasting the arrays
        if kind == "slice":
            v.indices(a.shape[ax])
        elif kind == "int" and not -a.shape[ax] <= v < a.shape[ax]:
            raise _layout.index_error(v, ax, a.shape[ax])
    try:
        bshape = _layout.broadcast_shape(*(x.shape for x in arrays))
    except ValueError:
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together with "
                         "shapes " + "".join(shape_text(x.shape) + " " for x in arrays)) from None
    advpos = [j for j, (k, _, _) in enumerate(entries) if k in ("arr", "int")]
    together = advpos == list(range(advpos[0], advpos[-1] + 1))
    shape, strides = [], []
    adv_start = 0 if not together else None
    if not together:
        shape += bshape
        strides += [0] * len(bshape)
    for j, (kind, v, ax) in enumerate(entries):
        if kind == "slice":
            n = a.shape[ax]
            start, stop, step = v.indices(n)
            length = len(range(start, stop, step))
            if length:
                base += start * (a._strides[ax] // isz)
            shape.append(length)
            strides.append(step * a._strides[ax] // isz)
        elif kind == "none":
            shape.append(1)
            strides.append(0)
        elif kind == "int":
            n = a.shape[ax]
            if not -n <= v < n:
                raise _layout.index_error(v, ax, n)
            base += (v % n) * (a._strides[ax] // isz)
        if together and j == advpos[0]:
            adv_start = len(shape)
            shape += bshape
            strides += [0] * len(bshape)
    if len(shape) > 64:
        raise _layout.too_many_dims(len(shape))
    p = Plan()
    p.a, p.lo, p.m = a, lo, m
    p.shape, p.base, p.strides = tuple(shape), base, tuple(strides)
    p.bshape, p.adv = tuple(bshape), (adv_start, len(bshape))
    p.arrays, p.sizes, p.steps, p.axes = [], [], [], []
    for kind, v, ax in entries:
        if kind != "arr":
            continue
        bs = _ew.broadcast_strides(v.shape, v._strides, bshape)
        full = [0] * adv_start + list(bs) + [0] * (len(shape) - adv_start - len(bshape))
        p.arrays.append(v._view(0, p.shape, tuple(full)))
        if ax is None:
            p.sizes.append(1)
            p.steps.append(0)
        else:
            p.sizes.append(a.shape[ax])
            p.steps.append(a._strides[ax] // isz)
        p.axes.append(ax)
    return p


# --- the kernel template ----------------------------------------------------------------------
def _render(mode, emode, dt, idx_dts, r, vkind, vdt, dedupe, adv, narrow=False):
    """Source of one gather / check / scatter kernel (see the module docstring)."""
    k = len(idx_dts)
    coords = ", ".join(f"c{d}" for d in range(r))
    args = ["n"]
    params = [Param("scalar", _I64)]
    if mode == "gather":
        args += ["OUT", "SRC"]
        params += [Param("array", dt, 1, "C"), Param("array", dt, 1, "C")]
    elif mode == "scatter":
        args.append("DST")
        params.append(Param("array", dt, 1, "C"))
        if vkind == "a":
            args.append("VAL")
            params.append(Param("array", vdt, r, "A"))
        else:
            args.append("VALS")
            params.append(Param("scalar", dt))
    args.append("ERR")
    params.append(Param("array", _I64, 1, "C"))
    if dedupe:
        args += ["OWN", "E"] + [f"p{j}" for j in range(k)]
        params += [Param("array", _I64, 1, "C"), Param("scalar", _I64)]
        params += [Param("scalar", _I64)] * k
    args += [f"d{d}" for d in range(1, r)]
    params += [Param("scalar", _I64)] * (r - 1)
    if mode != "check":
        args += ["base"] + [f"s{d}" for d in range(r)]
        params += [Param("scalar", _I64)] * (r + 1)
    for j, idt in enumerate(idx_dts):
        args += [f"I{j}", f"n{j}", f"t{j}"]
        params += [Param("array", idt, r, "A"), Param("scalar", _I64), Param("scalar", _I64)]
    L = [f"def KERNEL({', '.join(args)}):"]
    checks = REGISTER_RECORDS and emode in ("raise", "nonneg")
    if checks:
        L.append(f"    badpos = int64({_NONE})")
    w = "uint32" if narrow else "int64"

    def element(i, tag, pad):
        """Lines of one element ``i``: unravel, index loads and checks, the source offset."""
        E = _ew.unravel_lines(i, r, extent=f"{w}(d{{d}})", coord="c{d}", cast=w)
        if mode != "check":
            E.append("o = base + " + " + ".join(f"c{d} * s{d}" for d in range(r)))
        E.append(f"bad{tag} = False")
        for j in range(k):
            E.append(f"v{j} = int64(I{j}[{coords}])")
            if emode == "wrap":
                E.append(f"v{j} = v{j} % n{j}")
            elif emode == "clip":
                E.append(f"v{j} = min(max(v{j}, 0), n{j} - 1)")
            elif emode == "none":              # checked by an earlier launch
                E += [f"if v{j} < 0:", f"    v{j} += n{j}"]
            elif emode in ("raise", "nonneg"):
                if emode == "raise":
                    E += [f"if v{j} < 0:", f"    v{j} += n{j}"]
                # (_remap.REGISTER_RECORDS: the thread's first bad position in a register)
                rec = (f"    badpos = min(badpos, {j} * n + {i})" if checks
                       else f"    cuda.atomic.min(ERR, 0, {j} * n + {i})")
                E += [f"if v{j} < 0 or v{j} >= n{j}:", rec, f"    bad{tag} = True"]
            if mode != "check":
                E.append(f"o += v{j} * t{j}")
        return [pad + line for line in E]

    if mode == "gather":
        # EPT elements a thread, ``bd`` apart, every load before any store (as the elementwise
        # contiguous layout: one element a thread keeps too few loads in flight).  A bad index
        # loads element 0 instead (the source is not empty: gather() checks that first).
        L += ["    bd = cuda.blockDim.x", f"    base0 = cuda.blockIdx.x * bd * {EPT} + "
              "cuda.threadIdx.x", f"    step = cuda.gridDim.x * bd * {EPT}",
              "    while base0 < n:", f"        if base0 + {EPT - 1} * bd < n:"]
        for u in range(EPT):
            L += element(f"base0 + {u} * bd" if u else "base0", u, "            ")
            L += [f"            if bad{u}:", "                o = 0", f"            x{u} = SRC[o]"]
        for u in range(EPT):
            L += [f"            if not bad{u}:",
                  f"                OUT[{f'base0 + {u} * bd' if u else 'base0'}] = x{u}"]
        L += ["        else:", f"            for u in range({EPT}):",
              "                i = base0 + u * bd", "                if i < n:"]
        L += element("i", "t", "                    ")
        L += ["                    if not badt:", "                        OUT[i] = SRC[o]",
              "        base0 += step"]
    else:
        L += ["    i = cuda.grid(1)", "    step = cuda.gridsize(1)", "    while i < n:"]
        L += element("i", "", "        ")
        if dedupe:
            L.append("        dd = " + " + ".join(f"v{j} * p{j}" for j in range(k)))
            if mode == "check":
                L.append("        if not bad:")
                L.append("            cuda.atomic.max(OWN, dd, E + i + 1)")
            else:
                start, length = adv
                jx = "0"
                for d in range(start, start + length):
                    jx = f"c{d}" if jx == "0" else f"({jx}) * d{d} + c{d}"
                L.append(f"        if OWN[dd] == E + {jx} + 1:")
        pad = "            " if (dedupe and mode == "scatter") else "        "
        if mode == "scatter":
            if vkind == "a":
                L.append(f"{pad}DST[o] = {_ew.cast_expr(f'VAL[{coords}]', vdt, dt)}")
            else:
                L.append(f"{pad}DST[o] = VALS")
        L.append("        i += step")
    if checks:
        L += [f"    if badpos != {_NONE}:", "        cuda.atomic.min(ERR, 0, badpos)"]
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"index_{mode}", text)
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _arr(ptr, n, itemsize):
    return [0, 0, n, itemsize, ptr, n, itemsize]


def _nd(x):
    return [0, 0, x.size, x.itemsize, x._ptr, *x.shape, *x._strides]


# --- per-stream device state: the bad-index record, the claim scratch --------------------------
class _State(threading.local):
    def __init__(self):
        self.records = {}       # (device, stream) -> int64[1] holding _NONE between calls
        self.scratch = {}       # (device, stream) -> [int64 array, epoch]


_state = _State()
_SCRATCH_KEEP = 1 << 22         # claim scratch kept per stream up to this many elements


def _stream_key():
    return (_runtime.get_device_id(), _runtime.current_stream_handle())


def _record(key=None):
    if key is None:
        key = _stream_key()
    rec = _state.records.get(key)
    if rec is None:
        rec = _state.records[key] = empty_array((1,), _I64)
        _copy.fill(rec, _NONE)
    return rec


def _raise_checks():
    """(record, armed signal) of this thread and stream: a 'raise' launch's bounds check."""
    key = _stream_key()
    return _record(key), stream_signal(key)


def _read_record(rec):
    """The record's value after the launch just queued (one 8-byte read into this thread's
    page-locked word); re-armed when it was set."""
    v = read_word(rec._ptr)
    if v != _NONE:
        _copy.fill(rec, _NONE)
    return v


def _scratch(size, positions):
    """(array of >= size int64, E) for one claim pass: keys E + position + 1 beat every earlier
    call's."""
    if size > _SCRATCH_KEEP or positions >= 1 << 32:
        own = empty_array((size,), _I64)
        _copy.fill(own, 0)
        return own, 0
    key = _stream_key()
    ent = _state.scratch.get(key)
    if ent is None or ent[0].size < size or ent[1] >= (1 << 30):
        own = empty_array((max(size, 1024),), _I64)
        _copy.fill(own, 0)
        ent = _state.scratch[key] = [own, 0]
    ent[1] += 1
    return ent[0], ent[1] << 32


def _kernel(mode, emode, p, vkind=None, vdt=None, dedupe=False):
    r = len(p.shape)
    idx_dts = tuple(x.dtype for x in p.arrays)
    dt = p.a.dtype
    # a gather of fewer than 2^31 elements unravels its index in 32 bits (several times
    # cheaper than 64-bit division on the GPU)
    narrow = mode == "gather" and _layout.prod(p.shape) < 2 ** 31
    key = ("index", mode, emode, dt, idx_dts, r, vkind, vdt, dedupe, p.adv if dedupe else None,
           narrow)
    return compiler.get_kernel(key, lambda: _render(mode, emode, dt, idx_dts, r, vkind, vdt,
                                                    dedupe, p.adv, narrow))


def _padded(p):
    """Plans of rank 0 run as rank 1 (one element): kernels keep at least one coordinate."""
    if p.shape:
        return p
    return p.replace(shape=(1,), strides=(0,), arrays=[x._view(0, (1,), (0,)) for x in p.arrays])


def _index_values(p):
    vals = []
    for x, n, t in zip(p.arrays, p.sizes, p.steps):
        vals += _nd(x) + [n, t]
    return vals


def _raise_bad(p, v, n, error):
    """Decode a record ``k * n + i``: read the one offending index element, raise ``error``."""
    k, i = divmod(v, n)
    x = p.arrays[k]
    coords = np.unravel_index(i, p.shape) if p.shape else ()
    ptr = x._ptr + sum(int(c) * s for c, s in zip(coords, x._strides))
    host = np.empty(1, x.dtype)
    _transfer._d2h(host, ptr, x.itemsize)
    raise error(int(host[0].astype(np.int64)), p.sizes[k], p.axes[k])


def out_of_bounds(value, size, axis):
    return IndexError(f"index {value} is out of bounds for axis {axis} with size {size}")


def check(p, emode="raise", error=out_of_bounds, claim=None):
    """Run the check kernel over the broadcast index shape; raise ``error(value, size, axis)`` for
    the first bad index.  claim: (own, E, p_k) to claim destinations for a deduplicated scatter."""
    q = _padded(p.replace(shape=p.bshape, arrays=[
        x._view(0, p.bshape, x._strides[p.adv[0]:p.adv[0] + len(p.bshape)]) for x in p.arrays]))
    n = _layout.prod(q.shape)
    if n == 0 or not q.arrays:
        return
    rec = _record()
    kern = _kernel("check", emode, q, dedupe=claim is not None)
    vals = [n] + _arr(rec._ptr, 1, 8)
    if claim is not None:
        own, E, pk = claim
        vals += _arr(own._ptr, own.size, 8) + [E] + list(pk)
    vals += list(q.shape[1:]) + _index_values(q)
    kern(*_ew._grid(n, 1), vals)
    if emode in ("raise", "nonneg"):
        bad = _read_record(rec)
        if bad != _NONE:
            _raise_bad(q, bad, n, error)


def gather(p, emode="raise", error=out_of_bounds):
    """The result of plan ``p``: a new C-contiguous array of ``p.shape``."""
    a = p.a
    out = empty_array(p.shape, a.dtype)
    n = out.size
    if n == 0:
        if emode in ("raise", "nonneg"):
            check(p, emode, error)
        return out
    if p.m == 0:         # every index is out of bounds of an empty source: check() raises
        check(p, emode, error)
        return out
    q = _padded(p)
    checked = emode in ("raise", "nonneg")
    rec = _record()
    kern = _kernel("gather", emode, q)
    vals = [n] + _arr(out._ptr, n, a.itemsize) + _arr(p.lo, p.m, a.itemsize) + _arr(rec._ptr, 1, 8)
    vals += list(q.shape[1:]) + [q.base, *q.strides] + _index_values(q)
    kern(*_ew._grid(n, EPT), vals)
    if checked:
        bad = _read_record(rec)
        if bad != _NONE:
            _raise_bad(q, bad, n, error)
    return out


def value_for(dst_dtype, value):
    """An assignment's value: an npgpu array, or a NumPy scalar of ``dst_dtype`` (NumPy's
    conversion and errors for Python scalars)."""
    from ..creation import asarray
    if isinstance(value, ndarray):
        return value
    if isinstance(value, (np.ndarray, list, tuple, range)):   # range: a sequence, as NumPy's
        host = np.asarray(value)
        if host.dtype == object:
            raise TypeError(f"could not assign {type(value).__name__} to a device array")
        if isinstance(value, (list, tuple, range)):
            # NumPy converts a sequence's elements to the destination dtype: its OverflowError
            # for out-of-range Python ints, TypeError for complex into real
            host = np.asarray(value, dtype=dst_dtype)
        if host.ndim == 0:
            value = host[()]
        else:
            return asarray(host)
    return host_scalar(dst_dtype, value)


def host_scalar(dst_dtype, value):
    """A host scalar assigned through an index array or a mask, converted as NumPy does: a
    NumPy scalar or 0-d array is cast unsafely (``np.int64(300)`` into int8 is 44, with NumPy's
    cast warnings), a Python scalar must fit (NumPy's OverflowError / TypeError)."""
    if isinstance(value, (np.generic, np.ndarray)):
        return np.asarray(value).astype(dst_dtype)[()]
    tmp = np.empty((), dst_dtype)
    tmp[()] = value
    return tmp[()]


def scatter(p, value, emode="raise", error=out_of_bounds):
    """``a[plan] = value``: checks every index first (nothing written when one is bad), then
    writes; the last source position wins among repeated destinations."""
    a = p.a
    value = value_for(a.dtype, value)
    r = len(p.shape)
    if isinstance(value, ndarray):
        if value.dtype.kind == "c":
            _copy.warn_complex(a.dtype)
        vs = value.shape
        while len(vs) > r and vs[0] == 1:          # NumPy drops leading unit dims of the value
            vs = vs[1:]
        if not _layout.broadcasts_to(vs, p.shape):
            raise ValueError(f"shape mismatch: value array of shape {shape_text(value.shape)} "
                             f"could not be broadcast to indexing result of shape "
                             f"{shape_text(p.shape)}")
        value = value.reshape(vs)
    q = _padded(p)
    n = _layout.prod(q.shape)
    vstr = None
    if isinstance(value, ndarray):
        if _copy.may_overlap(a, value):
            value = value.copy()
        vstr = _ew.broadcast_strides(value.shape, value._strides, p.shape) if p.shape else [0]
    start, length = q.adv
    dedupe = (vstr is not None and _layout.prod(p.bshape) > 1
              and any(vstr[d] for d in range(start, start + length)))
    claim = None
    if dedupe:
        size = _layout.prod(p.sizes)
        own, E = _scratch(size, _layout.prod(p.bshape))
        pk, acc = [], 1
        for s in reversed(p.sizes):
            pk.append(acc)
            acc *= s
        claim = (own, E, tuple(reversed(pk)))
    if emode in ("raise", "nonneg") or claim is not None:
        check(p, emode, error, claim)
    if n == 0 or p.m == 0:
        return
    rec = _record()
    vkind = "a" if vstr is not None else "s"
    kern = _kernel("scatter", emode if emode in ("wrap", "clip") else "none", q,
                   vkind, value.dtype if vkind == "a" else None, dedupe)
    vals = [n] + _arr(p.lo, p.m, a.itemsize)
    if vkind == "a":
        vals += [0, 0, value.size, value.itemsize, value._ptr, *q.shape,
                 *(vstr if p.shape else [0])]
    else:
        vals += [value.real, value.imag] if a.dtype.kind == "c" else [value]
    vals += _arr(rec._ptr, 1, 8)
    if dedupe:
        own, E, pk = claim
        vals += _arr(own._ptr, own.size, 8) + [E] + list(pk)
    vals += list(q.shape[1:]) + [q.base, *q.strides] + _index_values(q)
    kern(*_ew._grid(n, 1), vals)


# --- entry points (``_ops["advanced_getitem"]`` / ``_ops["advanced_setitem"]``) -----------------
def _single_mask(a, index):
    """The mask of ``a[mask]`` (host or device, any rank >= 1), else None: the masks module
    selects or assigns it with one compaction (and checks its shape)."""
    m = index[0] if isinstance(index, tuple) and len(index) == 1 else index
    if type(m) is list and m and isinstance(m[0], (bool, np.bool_, list)):
        # NumPy makes a list index an array: a list of bools is a mask (its assignment rules)
        try:
            m = np.asarray(m)
        except (TypeError, ValueError):
            return None
    if isinstance(m, (ndarray, np.ndarray)) and m.dtype.kind == "b" and m.ndim >= 1:
        return m
    return None


def _scalar_mask(a, index):
    """The boolean of ``a[b]`` / ``a[(b,)]`` for a 0-d ``a`` (Python, NumPy or 0-d array), else
    None."""
    if a.ndim:
        return None
    m = index[0] if isinstance(index, tuple) and len(index) == 1 else index
    if isinstance(m, (bool, np.bool_)) or (isinstance(m, (ndarray, np.ndarray))
                                           and m.dtype.kind == "b" and m.ndim == 0):
        return m
    return None


_fast = {}      # (a's and the index's shape, strides, dtype) -> replay of a one-array gather


def _gather_fast(a, index):
    """``a[idx]`` with one device integer array: the plan of the first call with these shapes,
    strides and dtypes is replayed (allocate, pack pointers, launch, read the record)."""
    key = (a.shape, a._strides, a.dtype, index.shape, index._strides, index.dtype)
    f = _fast.get(key)
    if f is None:
        p = parse(a, index)
        n = _layout.prod(p.shape)
        if n == 0 or p.m == 0:
            return gather(p)
        q = _padded(p)
        x = q.arrays[0]
        f = _fast[key] = (_kernel("gather", "raise", q), p.shape, n, a._ptr - p.lo, p.m, q,
                          list(q.shape[1:]) + [q.base, *q.strides],
                          [x.size, x.itemsize], [*x.shape, *x._strides, q.sizes[0], q.steps[0]])
    kern, shape, n, lo_off, m, q, mid, xhead, xtail = f
    out = empty_array(shape, a.dtype)
    isz = a.itemsize
    rec = _record()
    vals = [n, 0, 0, n, isz, out._ptr, n, isz, 0, 0, m, isz, a._ptr - lo_off, m, isz,
            0, 0, 1, 8, rec._ptr, 1, 8, *mid, 0, 0, *xhead, index._ptr, *xtail]
    kern(*_ew._grid(n, EPT), vals)
    bad = _read_record(rec)
    if bad != _NONE:
        _raise_bad(q.replace(arrays=[index._view(0, q.shape, q.arrays[0]._strides)]), bad, n,
                   out_of_bounds)
    return out


def _f_like(shape, strides):
    """Do ``strides`` run F-ordered over the axes longer than one (at least two of them)?"""
    st = [abs(t) for n, t in zip(shape, strides) if n > 1]
    return len(st) > 1 and 0 not in st and all(x < y for x, y in zip(st, st[1:]))


def _f_ordered(p):
    """NumPy's result order for a plan with no subspace (none left, or of one element): its
    iterator keeps the index arrays' order, F where every one of them runs F-ordered."""
    start, length = p.adv
    if _layout.prod(p.shape[:start] + p.shape[start + length:]) != 1:
        return False
    return all(_f_like(p.shape, x._strides) for x in p.arrays)


def _reversed(p):
    """``p`` with its axes reversed: gathered C-ordered, the result's ``.T`` is F-ordered."""
    start, length = p.adv
    return p.replace(shape=p.shape[::-1], strides=p.strides[::-1], bshape=p.bshape[::-1],
                     adv=(len(p.shape) - start - length, length),
                     arrays=[x.T for x in p.arrays])


def getitem(a, index):
    """``a[index]`` for a non-basic index (NumPy's advanced indexing: a new array)."""
    if type(index) is ndarray and index.dtype.kind in "iu" and not _f_like(index.shape,
                                                                          index._strides):
        return _gather_fast(a, index)
    m = _single_mask(a, index)
    if m is not None:
        from . import masks
        return masks.mask_select(a, m)
    p = parse(a, index)
    if isinstance(p, tuple):
        return _copy.getitem(a, p[1])
    if _f_ordered(p):
        return gather(_reversed(p)).T
    return gather(p)


def _unshared(a, index):
    """``index`` with its device arrays that share memory with ``a`` copied: NumPy reads such an
    index from a copy, so that writes to ``a`` cannot change it (``a[2:][a[:-2]] = 3``)."""
    if isinstance(index, tuple):
        return tuple(_unshared(a, x) for x in index)
    if isinstance(index, ndarray) and _copy.may_overlap(a, index):
        return index.copy()
    return index


def setitem(a, index, value):
    """``a[index] = value`` for a non-basic index."""
    index = _unshared(a, index)
    m = _single_mask(a, index)
    if m is not None:
        from . import masks
        masks.mask_setitem(a, m, value)
        return
    m0 = _scalar_mask(a, index)
    if m0 is not None:
        # a 0-d array's boolean index is a mask of its full shape: NumPy's boolean-assignment
        # rules for the value (at most 1-d, one value or one per True)
        value = value_for(a.dtype, value)
        if isinstance(value, ndarray):
            count = int(bool(m0.get() if isinstance(m0, ndarray) else m0))
            if value.ndim > 1:
                raise TypeError("NumPy boolean array indexing assignment requires a 0 or "
                                f"1-dimensional input, input has {value.ndim} dimensions")
            if value.size not in (1, count):
                raise ValueError(f"NumPy boolean array indexing assignment cannot assign "
                                 f"{value.size} input values to the {count} output values "
                                 "where the mask is true")
    try:
        p = parse(a, index)
    except IndexError as e:
        if str(e).startswith("shape mismatch"):
            value_for(a.dtype, value)   # NumPy converts the value before broadcasting indices
        raise
    if isinstance(p, tuple):
        _copy.setitem(a, p[1], value)
        return
    scatter(p, value)
