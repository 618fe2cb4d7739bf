"""Launch planning for reductions: axes, layouts, thread mapping, split passes.

:func:`run` reduces an npgpu array over given axes into a given output with a
:class:`~.template.ReduceSpec`.  It

1. views the input as (kept dims..., reduced dims...) without copying
   (strides permuted, size-1 dims dropped, adjacent dims merged where every
   operand allows),
2. picks the thread mapping from the layout: ``inner`` when the reduced dims
   hold the smallest stride (block per output row), ``outer`` when a kept dim
   does or the reduced extent is short (thread per output column, coalesced
   across threads), ``fold`` for non-reorderable specs (in order, parallel across
   outputs),
3. splits long reduced ranges across blocks, writing per-split states to a
   small workspace that a second launch of the same template reduces (two
   launches, deterministic, no host round-trip).

:func:`prepare` does NumPy's argument handling (axis, keepdims, out, where,
dtype) with a dry run of the NumPy function on a one-element stand-in, so
result dtypes and error messages are NumPy's own.
"""
import os
import threading
import warnings

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen.launcher import warnings_lock
from .._core import layout as _layout
from .._core.ndarray import _new as _new_array, empty_array, fail_unless_writeable, ndarray
from .._core.stream_scratch import StreamScratch
from ..cuda import memory as _memory
from . import template as _t

_SIM = _backend.IS_SIM
_BOOL = np.dtype(np.bool_)

if _SIM:
    # each simulated thread is an OS thread: tiny blocks and grids (still several
    # blocks, splits and second passes, so the same logic runs as on the GPU)
    INNER_BLOCK, OUTER_BLOCK, OUTER_BLOCK_SMALL, OUTER_TX, FOLD_BLOCK = 8, 16, 16, 4, 8
    MAX_GRID, RESIDENT_THREADS, MIN_CHUNK, MIN_OUTER_ROWS = 2, 32, 16, 2
else:
    # measured on the H200 (kernel_shapes.py, 2026-11-30): 8 loads in flight, 256-thread
    # blocks on the contiguous axis and 32x32 blocks across columns read at 102-112% of copy
    # bandwidth; 4 loads or 32x8 blocks: 74-104%
    # Columns a block (OUTER_TX): 64.  H200, sum(axis=0) of C-contiguous float32
    # (reduce_outer_tx.py, 2026-12-05; tx 32 / 64 / 128 / 256, % of copy): (2^20, 256) 56 /
    # 98.5 / 97.9 / 96.6 (PyTorch 78.9); (2^18, 256) 51 / 81 / 80 / 78; (2^16, 256) 35 / 49 /
    # 47 / 44; (2^22, 64) 96 / 97 / 65 / 41; (2^14, 2^14) 104 / 105 / 96 / 81; (2^12, 2^16)
    # 101 / 104 / 106 / 104; (2^18, 1024) 68 / 64 / 61 / 97 (PyTorch 96: an open case)
    INNER_BLOCK, OUTER_BLOCK, OUTER_BLOCK_SMALL, OUTER_TX, FOLD_BLOCK = 256, 1024, 256, 64, 128
    MAX_GRID, RESIDENT_THREADS, MIN_CHUNK, MIN_OUTER_ROWS = 1 << 20, 132 * 2048, 8192, 64
# loads in flight per thread in the reduction loops; the simulator's kernels take 2 (every
# unrolled trip and tail still runs, and CI's PTX compile of them is ~30% shorter; the GPU's
# 8-way renderings are compiled by the tests that render the GPU variants)
UNROLL = 2 if _SIM else 8
# inner reductions of 4-byte elements load uint64 words (two elements a load) from this many
# reduced elements; the simulator takes words at every size, so CI runs them
WORDS_MIN = 2 if _SIM else 1 << 15
# ... up to this many on the simulator, where unpacking a word (NumPy scalar bit views) costs
# more than the element load it replaces (elementwise.WORDS_MAX likewise)
WORDS_MAX = 1 << 12 if _SIM else 1 << 62
# GPU launch bounds' blocks per SM for words kernels with a screen (argmin/argmax), or None
# (ptxas's choice).  H200, argmax of 2^28 f32, 8 loads a trip: argmax_screen.py (54 registers
# then) None 268.6 us, 5 blocks 273.3 us, 6 (40 + spills) 375 us; argmax_screen.py (46
# registers, running index) None 273.9 us, 6 blocks 275.7 us.
SCREEN_MIN_BLOCKS = None
# loads in flight per thread of the words kernels with a screen (argmin/argmax).  H200, argmax
# of 2^28 f32 (argmax_screen.py, medians of 3 interleaved rounds; CuPy 271.9 us): 4 loads
# (36 registers, 7 blocks of 256 per SM) 271.9 us, 8 (46 registers) 273.9 us, 16 276.8 us
SCREEN_UNROLL = UNROLL if _SIM else 4
SHORT_REDUCED = 16           # reduced extents up to this run one thread per output
# split inner reductions finish in one launch (the row's last block folds the splits' states:
# ``template._tail``); 0: a second launch folds them (a measurement's baseline)
TAIL = os.environ.get("NPGPU_REDUCE_TAIL", "1") != "0"
_COUNTERS = StreamScratch()  # the tails' arrival counters: each kernel leaves them at zero
# GPU launch bounds' blocks per SM for kernels with a tail (None: ptxas's choice)
TAIL_MIN_BLOCKS = None
# ... for reductions of up to this many elements (above, two launches).  H200, one call
# between events (reduce_tail_ab.py, 2026-12-03): sum f32 of 2^16 / 2^18 / 2^20 / 2^22 17.9 /
# 19.8 / 18.6 / 20.1 us in two launches, 16.7 / 17.6 / 17.2 / 18.7 with the tail; 2^24 32.0
# against 37.8 (the tail kernel's occupancy was not yet the one its splits assumed); 200 calls
# back to back, another machine: 2^16 / 2^18 / 2^22 20.2 / 15.7 / 23.0 us against 16.3 / 12.1 /
# 18.1.  var's three moments are no faster with the tail (k <= 2 below).
TAIL_MAX = 1 << 22
# reduced elements per split of a tail plan (MIN_CHUNK's counterpart; NPGPU_REDUCE_TAIL_CHUNK:
# another value, for reduce_tail_ab.py's measurements and a GPU test run with it)
TAIL_MIN_CHUNK = int(os.environ.get("NPGPU_REDUCE_TAIL_CHUNK") or 0) or MIN_CHUNK
# inner reductions reading at most this many bytes a row run one block a row (no split, tail or
# not).  H200, reduce_tail_ab.py BIG_CHUNKS=1 (2026-12-03), 200 calls back to back: sum f32
# 2^14 split in two with the tail 11.6 us, one block 8.1; 2^15 11.7 against 9.0; 2^16 (256
# KiB) level, 11.7 against 11.4; float64 2^15 (256 KiB) 11.5 against 8.6, 2^16 11.7 against
# 13.0.  The simulator splits from MIN_CHUNK, so its tests run the splits.
SPLIT_MAX_BYTES = -1 if _SIM else 1 << 18


# 'argument not given': NumPy's own marker, so that a caller passing np._NoValue (as NumPy's
# wrappers do) means the same
NoValue = np._NoValue


# ---- argument handling ------------------------------------------------------------------
def as_array(a):
    if isinstance(a, ndarray) or hasattr(a, "_fuse_trace"):
        return a                         # (a value inside @npgpu.fuse: ``run`` hands it back)
    from ..creation import asarray
    return asarray(a)


def normalize_axes(axis, ndim):
    """``axis`` (None, int or tuple) -> sorted tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple) or isinstance(axis, list):
        axes = tuple(_layout.normalize_axis(x, ndim) for x in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(axes))
    return (_layout.normalize_axis(axis, ndim),)


def reduce_axes(axis, ndim):
    """:func:`normalize_axes` for a reduction NumPy accepted (its dry run went first): as
    NumPy's ``ufunc.reduce``, a 0-d array takes axis 0 or -1 as no axis at all."""
    if ndim == 0 and axis is not None:
        ax = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        if len(ax) == 1 and not isinstance(ax[0], bool) and ax[0] in (0, -1):
            return ()
    return normalize_axes(axis, ndim)


def result_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if d in axes else n for d, n in enumerate(shape))
    return tuple(n for d, n in enumerate(shape) if d not in axes)


_DRY = {}


class _Call(threading.local):
    warned = False                  # this thread's call warned (dry_run), since fast_lookup


_CALL = _Call()


def dry_run(np_func, a, kwargs, where=None, out=None):
    """Run ``np_func`` on a stand-in of ``a`` (every dim clipped to 1) and return its result.

    Raises what NumPy raises for these arguments (bad axis, casting, an empty
    reduction without identity, where= without initial, ...).  Successful
    answers are cached per (function, dtype, stand-in shape, arguments).
    The warnings of NumPy's run that do not depend on the values or on the lengths the
    stand-in clips (:func:`_replayable`: ComplexWarning, "Mean of empty slice") are issued
    again on every call, and the call is then not stored for replay (:func:`remember_replay`:
    a replay would not warn).
    """
    dshape = tuple(min(n, 1) for n in a.shape)
    try:
        # values with their types: axis=False equals axis=0 but NumPy rejects it
        args = tuple((k, _typed(v)) for k, v in sorted(kwargs.items(), key=lambda kv: kv[0]))
        key = (np_func, a.dtype, dshape, args, where is not None,
               None if out is None else (out.dtype, out.shape))
        hit = _DRY.get(key)
    except TypeError:                 # unhashable argument (a list axis, an array initial)
        key = hit = None
    if hit is None:
        dummy = np.zeros(dshape, a.dtype)
        kw = dict(kwargs)
        if where is not None:
            kw["where"] = np.ones((1,) * a.ndim, _BOOL)
        with warnings_lock, warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            with np.errstate(all="ignore"):
                r = np_func(dummy, **kw)
                if out is not None:
                    rd = np.asarray(r)
                    kw["out"] = np.zeros(rd.shape, out.dtype)
                    np_func(dummy, **kw)
        hit = (np.asarray(r), tuple(dict.fromkeys(
            (w.category, str(w.message)) for w in seen if _replayable(w))))
        if key is not None:
            if len(_DRY) > 4096:
                _DRY.clear()
            _DRY[key] = hit
    for category, message in hit[1]:
        warnings.warn(message, category, stacklevel=4)
        _CALL.warned = True
    return hit[0]


def _replayable(w):
    """A warning of NumPy's run on the stand-in that the real call gives too: a complex value
    cast to a real dtype (dtype=, out=), a mean over no elements (the stand-in keeps the
    zero lengths)."""
    return issubclass(w.category, np.exceptions.ComplexWarning) or (
        w.category is RuntimeWarning and str(w.message).startswith("Mean of empty slice"))


def _typed(v):
    if v.__class__ is tuple:
        return tuple((e.__class__, e) for e in v)
    return v.__class__, v


def single_out(out):
    """``out`` given as a one-element tuple (NumPy allows it) -> the array, which must be an
    npgpu array NumPy could write. Every reduction and scan checks its ``out=`` here first thing
    (NumPy reports a read-only ``out`` before a bad axis); ``prepare_out`` checks it again."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError(f"output must be an npgpu array, not {type(out).__name__}")
        if out._ro:
            fail_unless_writeable(out, "output array")
    return out


def prepare_out(out, shape, dtype):
    """The output array: ``out`` checked against NumPy's expected shape, or a new one."""
    out = single_out(out)
    if out is None:
        return empty_array(shape, dtype)
    if out.shape != shape:
        raise ValueError(f"output parameter for reduction operation has the wrong shape: "
                         f"expected {shape}, got {out.shape}")
    return out


def where_mask(where, shape):
    """None for ``where=True``; else a bool npgpu array broadcastable to ``shape``."""
    if where is True or (isinstance(where, (bool, np.bool_)) and where):
        return None
    m = as_array(where)
    if m.dtype != _BOOL:
        m = m.astype(_BOOL)
    if np.broadcast_shapes(m.shape, shape) != shape:
        raise ValueError(f"operands could not be broadcast together: where= of shape {m.shape} "
                         f"against the array of shape {shape}")
    return m


# ---- planning -----------------------------------------------------------------------------
def _collapse(dims):
    """Merge adjacent (n, strides...) dims where every operand is contiguous across them."""
    out = []
    for n, *s in dims:
        if out:
            pn, *ps = out[-1]
            if all(p == q * n for p, q in zip(ps, s)):
                out[-1] = (pn * n, *s)
                continue
        out.append((n, *s))
    return out


def _prod(it):
    p = 1
    for n in it:
        p *= n
    return p


def _arr(ptr, shape, strides, itemsize):
    return [0, 0, _prod(shape), itemsize, ptr, *shape, *strides]


def _scalar_values(v, dt):
    v = np.asarray(v).astype(dt)[()]
    return [float(v.real), float(v.imag)] if dt.kind == "c" else [v.item()]


_PLANS = {}


class _Plan:
    """Everything about one reduction call that depends only on shapes, strides and dtypes."""
    __slots__ = ("nrow", "m", "in_shape", "in_str", "mk_str", "o_shape", "o_str", "block",
                 "nsplit", "chunk", "grid", "grid2", "wshape", "kernels", "words", "x_str",
                 "tail")


def run(spec, a, axes, out, *, keepdims=False, mask=None, initial=None, post_args=(),
        seed_first=False, fmap=None, extra=()):
    """Reduce ``a`` over ``axes`` into ``out`` (shaped as the result, with or without keepdims).

    mask: bool npgpu array broadcastable to ``a`` (where=); initial: a NumPy scalar
    of the state dtype (single-component specs); post_args: values of
    ``spec.post_params``; seed_first: the fold starts from the first element
    (non-reorderable ufuncs without identity or initial).
    fmap: a :class:`~.template.MapStep` over ``a`` and the arrays ``extra`` (each of ``a``'s
    shape, broadcast views allowed): the value reduced is the map of their elements.
    ``a`` a value traced by ``@npgpu.fuse``: its trace runs the reduction (with the map).
    """
    if a.__class__ is not ndarray and hasattr(a, "_fuse_trace"):
        return a._fuse_trace.reduce_into(spec, a, axes, out, keepdims=keepdims, mask=mask,
                                         initial=initial, post_args=post_args,
                                         seed_first=seed_first)
    return run_array(spec, a, axes, out, keepdims=keepdims, mask=mask, initial=initial,
                     post_args=post_args, seed_first=seed_first, fmap=fmap, extra=extra)


def run_array(spec, a, axes, out, *, keepdims=False, mask=None, initial=None, post_args=(),
              seed_first=False, fmap=None, extra=()):
    """:func:`run` of an array ``a`` (inside ``@npgpu.fuse``: the trace's own launch)."""
    p = _get_plan(spec, a, axes, out, keepdims, mask, initial is not None, seed_first, fmap,
                  extra)
    if p is False:
        return out                       # empty result
    _execute(p, spec.state, _scalars(p, spec, post_args, initial), a, out, mask, extra)
    return out


def _get_plan(spec, a, axes, out, keepdims, mask, has_init, seed_first, fmap=None, extra=()):
    key = (spec.full_key(), a.shape, a._strides, a.dtype, a._ptr & 7, axes, keepdims, out.shape,
           out._strides, out.dtype, None if mask is None else (mask.shape, mask._strides),
           has_init, seed_first)
    if fmap is not None:
        key += (fmap.key, tuple((x._strides, x.dtype, x._ptr & 7) for x in extra))
    p = _PLANS.get(key)
    if p is None:
        if len(_PLANS) > 4096:           # many distinct shapes: start over rather than grow
            _PLANS.clear()
        p = _PLANS[key] = _plan(spec, a, axes, out, keepdims, mask, has_init, seed_first, fmap,
                                extra)
    return p


def _scalars(p, spec, post_args, initial):
    """The scalar kernel parameters of the first pass: sizes, post parameters, initial."""
    scal = [p.nrow, p.m, p.nsplit, p.chunk, p.m]
    for q, v in zip(spec.post_params, post_args):
        scal += _scalar_values(v, q)
    if initial is not None:
        scal += _scalar_values(initial, spec.state[0])
    return scal


def _execute(p, state, scal, a, out, mask, extra=()):
    """Launch a (non-empty) plan: one pass, or two through a workspace of ``state`` dtypes."""
    in_vals = _arr(a._ptr, p.in_shape, p.in_str, a.itemsize)
    for x, xs in zip(extra, p.x_str):
        in_vals += _arr(x._ptr, p.in_shape, xs, x.itemsize)
    in_vals += _word_vals(p, a._ptr)
    for x in extra:
        in_vals += _word_vals(p, x._ptr)
    mk_vals = _arr(mask._ptr, p.in_shape, p.mk_str, 1) if mask is not None else []
    out_vals = _arr(out._ptr, p.o_shape, p.o_str, out.itemsize)
    if p.wshape is None:
        p.kernels[0](p.grid, p.block, scal + out_vals + in_vals + mk_vals)
        return
    # pass 1: per-split states into a workspace; pass 2: the same template reduces them
    ws = [empty_array(p.wshape, s) for s in state]
    ws_vals = []
    for w in ws:
        ws_vals += _arr(w._ptr, w.shape, w._strides, w.itemsize)
    if p.tail:                           # one launch: a row's last block finishes it
        cnt, _ = _COUNTERS.take(p.nrow, 4)
        _tail_launch(p.kernels[0], p.grid, p.block, scal + out_vals + in_vals + mk_vals
                     + ws_vals + _arr(cnt.ptr, [p.nrow], [4], 4))
        return
    p.kernels[0](p.grid, p.block, scal + ws_vals + in_vals + mk_vals)
    scal2 = [p.nrow, p.nsplit, 1, p.nsplit, p.m] + scal[5:]
    p.kernels[1](p.grid2, p.block, scal2 + out_vals + ws_vals)
    del ws


def _tail_launch(kern, grid, block, values):
    """Launch a tail kernel; one that raises (the simulator runs kernels in Python: a user's
    map that fails, say) may leave arrival counters counted, so the stream's counters go and
    the next tail starts from zeroed ones."""
    try:
        kern(grid, block, values)
    except BaseException:
        _COUNTERS.discard()
        raise


def _word_vals(p, ptr):
    """Kernel values of the uint64 view of the input a ``words`` plan reads (else none)."""
    if not p.words:
        return []
    shape = p.in_shape[:-1] + [p.in_shape[-1] // 2]
    return _arr(ptr, shape, p.in_str[:-1] + [8], 8)


# ---- the fast path: repeated small calls ------------------------------------------------------
# A call with no out=/where=/initial= whose arguments were seen before (same function, input
# dtype, shape, strides, axis, keepdims and extra arguments) replays the launch its first call
# made: the first call ran NumPy's dry run, built the spec and the plan; a repeat only
# allocates the result, packs the two pointers into prebuilt argument values and launches.
FAST = {}


def fast_lookup(tag, a, axis, keepdims, extra):
    """``(key, entry)`` of a call: key None when the call may not use the cache (not an npgpu
    array, axis or keepdims of a type NumPy treats differently from the equal cached value:
    ``axis=False`` raises where ``axis=0`` does not), entry None on a miss."""
    if a.__class__ is not ndarray:
        return None, None
    if keepdims is not False and keepdims is not True and keepdims is not NoValue:
        return None, None
    if axis is not None and axis.__class__ is not int:
        if axis.__class__ is not tuple:
            return None, None
        for x in axis:
            if x.__class__ is not int:
                return None, None
    key = (tag, a._dtype, a._shape, a._strides, a._ptr & 7, axis, keepdims, extra)
    _CALL.warned = False
    try:
        return key, FAST.get(key)
    except TypeError:                    # unhashable argument (an array dtype=, ddof=)
        return None, None


def remember(key, spec, a, axes, keepdims, res, post_args=(), seed_first=False, fmap=None,
             extra=()):
    """Store the replay of the call that just reduced ``a`` into the fresh array ``res``
    (``fmap``/``extra``: the map and its other inputs, as :func:`run` took them; the replay
    is then called as ``replay(a, *extra)``)."""
    if key is not None:
        remember_replay(key, _replay(spec, a, axes, keepdims, res, post_args, seed_first, fmap,
                                     extra))


def remember_replay(key, replay):
    """Store ``replay`` (``replay(a)`` -> the call's result) under ``key`` of fast_lookup
    (not for a call whose dry run warned since its fast_lookup)."""
    if _CALL.warned:
        return
    if len(FAST) > 4096:                 # many distinct calls: start over rather than grow
        FAST.clear()
    FAST[key] = replay


def result_factory(res):
    """``fresh()``: a new array like the fresh C-ordered result ``res`` -- empty_array's result
    for its shape, without the layout arithmetic (~1 us)."""
    shape, dt = res.shape, res.dtype
    strides, flags = res._strides, (True, res._f_contig)
    nbytes = _prod(shape) * dt.itemsize

    def fresh():
        mem = _memory.alloc(nbytes)
        return _new_array(mem, mem.ptr, shape, strides, dt, None, flags)
    return fresh


def _replay(spec, a, axes, keepdims, res, post_args, seed_first, fmap=None, extra=()):
    dt = res.dtype
    fresh = result_factory(res)
    p = _get_plan(spec, a, axes, res, keepdims, None, False, seed_first, fmap, extra)
    if p is False:
        return lambda a, *extra: fresh()
    scal = _scalars(p, spec, post_args, None)
    kern, grid, block = p.kernels[0], p.grid, p.block
    # every argument value but the data pointers (slot 4 of each ``_arr``), built once
    head = tuple(scal) + (0, 0, _prod(p.o_shape), dt.itemsize)
    mid = (*p.o_shape, *p.o_str)
    in_head = (0, 0, _prod(p.in_shape), a.itemsize)
    tail = (*p.in_shape, *p.in_str)
    wv = _word_vals(p, 0)                # the uint64 view of each input: its pointer again
    w_head, w_tail = tuple(wv[:4]), tuple(wv[5:])
    if not extra:
        if p.words:
            def ins(ptr):
                return in_head + (ptr,) + tail + w_head + (ptr,) + w_tail
        else:
            def ins(ptr):
                return in_head + (ptr,) + tail
    else:                                # the map's other inputs: arrays, then word views
        n_in = _prod(p.in_shape)
        parts = [(in_head, tail)] + [((0, 0, n_in, x.itemsize), (*p.in_shape, *xs))
                                     for x, xs in zip(extra, p.x_str)]
        words = p.words

        def ins(*ptrs):
            v = ()
            for ptr, (h, t) in zip(ptrs, parts):
                v += h + (ptr,) + t
            if words:
                for ptr in ptrs:
                    v += w_head + (ptr,) + w_tail
            return v
    if p.tail:                           # long rows, one launch: a row's last block ends it
        workspace = _workspace(p, spec)
        c_head, c_tail = (0, 0, p.nrow, 4), (p.nrow, 4)
        nrow = p.nrow

        def tail_pass(a, *extra):
            ws, wvals = workspace()
            cnt, _ = _COUNTERS.take(nrow, 4)
            out = fresh()
            _tail_launch(kern, grid, block, head + (out._ptr,) + mid
                         + (ins(a._ptr, *[x._ptr for x in extra]) if extra else ins(a._ptr))
                         + wvals + c_head + (cnt.ptr,) + c_tail)
            return out
        return tail_pass
    if p.wshape is not None:             # long rows: two passes through a workspace
        # pass 1 is launched before the result is allocated: under the device's timer, only
        # the host work before the first launch adds to the call's time
        workspace = _workspace(p, spec)
        kern2, grid2 = p.kernels[1], p.grid2
        head2 = (p.nrow, p.nsplit, 1, p.nsplit, p.m, *scal[5:], 0, 0, _prod(p.o_shape),
                 dt.itemsize)

        def two_pass(a, *extra):
            ws, wvals = workspace()
            kern(grid, block, tuple(scal) + wvals + (ins(a._ptr, *[x._ptr for x in extra])
                                                     if extra else ins(a._ptr)))
            out = fresh()
            kern2(grid2, block, head2 + (out._ptr,) + mid + wvals)
            return out
        return two_pass

    def one_pass(a, *extra):
        out = fresh()
        kern(grid, block, head + (out._ptr,) + mid + (ins(a._ptr, *[x._ptr for x in extra])
                                                      if extra else ins(a._ptr)))
        return out
    return one_pass


def _workspace(p, spec):
    """``make()`` -> (Memory per state component, their kernel values): a replay's workspace of
    ``p.wshape`` split states (kept referenced by the caller until its launches return)."""
    parts = []
    for s in spec.state:
        isz = np.dtype(s).itemsize
        parts.append((_prod(p.wshape) * isz, (0, 0, _prod(p.wshape), isz),
                      (*p.wshape, *_layout.c_strides(p.wshape, isz))))

    def make():
        ws = [_memory.alloc(n) for n, _, _ in parts]
        vals = ()
        for w, (_, h, t) in zip(ws, parts):
            vals += h + (w.ptr,) + t
        return ws, vals
    return make


def _plan(spec, a, axes, out, keepdims, mask, has_init, seed_first, fmap=None, extra=()):
    nd = a.ndim
    ostr = list(out._strides)
    if keepdims:
        ostr = [ostr[d] for d in range(nd) if d not in axes]
    mstr = (_layout_bstrides(mask, a.shape) if mask is not None else [0] * nd)
    # a dim: (extent, input stride, mask stride, the map's other inputs' strides.., [out stride])
    kept = [(a.shape[d], a._strides[d], mstr[d], *(x._strides[d] for x in extra))
            for d in range(nd) if d not in axes]
    kept = [(*k, so) for k, so in zip(kept, ostr)]
    red = [(a.shape[d], a._strides[d], mstr[d], *(x._strides[d] for x in extra)) for d in axes]
    nrow = _prod(n for n, *_ in kept)
    m = _prod(n for n, *_ in red)
    if nrow == 0:
        return False
    kept = [d for d in kept if d[0] != 1]
    red = [d for d in red if d[0] != 1]
    # the output order is free: the fastest input dim goes last
    kept.sort(key=lambda d: -abs(d[1]))
    if spec.reorderable and not spec.uses_index:
        red.sort(key=lambda d: -abs(d[1]))
    kept = _collapse(kept)
    red = _collapse(red)
    nk, nr = len(kept), len(red)

    if not spec.reorderable:
        mode = "fold"
    elif m <= SHORT_REDUCED or nr == 0:
        mode = "outer"
    elif nk == 0:
        mode = "inner"
    else:
        fastest_red = min(abs(d[1]) for d in red)
        fastest_kept = min(abs(d[1]) for d in kept)
        mode = "inner" if fastest_red <= fastest_kept else "outer"
    if nr == 0:
        red = [(1,) + (0,) * (2 + len(extra))]
        nr = 1

    p = _Plan()
    p.nrow, p.m = nrow, m
    p.in_shape = [d[0] for d in kept] + [d[0] for d in red]
    p.in_str = [d[1] for d in kept] + [d[1] for d in red]
    p.mk_str = [d[2] for d in kept] + [d[2] for d in red]
    p.o_shape = [d[0] for d in kept] or [1]
    p.o_str = [d[-1] for d in kept] or [0]
    p.x_str = [[d[3 + i] for d in kept] + [d[3 + i] for d in red] for i in range(len(extra))]
    has_mask = mask is not None

    if mode == "inner":
        blocks, tx = (INNER_BLOCK,), 1
    elif mode == "outer":
        # 32 x 32 blocks read columns fastest; a kernel whose registers do not allow 1024
        # threads (wide states such as complex128 or var's three moments) takes 32 x 8
        blocks, tx = (OUTER_BLOCK, OUTER_BLOCK_SMALL), OUTER_TX
    else:
        blocks, tx = (FOLD_BLOCK,), FOLD_BLOCK
    for block in blocks:
        _shape_plan(p, spec, a, out, mode, block, tx, nk, nr, nrow, m, has_mask, has_init,
                    seed_first, fmap, extra)
        if all(k.max_threads >= block for k in p.kernels):
            break
    return p


def _shape_plan(p, spec, a, out, mode, block, tx, nk, nr, nrow, m, has_mask, has_init,
                seed_first, fmap=None, extra=()):
    """Fill in ``p``'s splits, grids and kernels for blocks of ``block`` threads."""
    ins = (a, *extra)
    in_layout = "C" if all(_c_strides(p.in_shape, s, x.itemsize)
                           for x, s in zip(ins, [p.in_str, *p.x_str])) else "A"
    # 4-byte elements read as uint64 words: needs 8-byte aligned rows (one row, or even rows)
    p.words = (mode == "inner" and not has_mask and nr == 1 and in_layout == "C"
               and all(x.dtype.kind in "fiu" and x.itemsize == 4 and not x._ptr & 7
                       for x in ins)
               and (nk == 0 or m % 2 == 0) and max(2, WORDS_MIN) <= m <= WORDS_MAX)
    if mode == "inner":
        per = MIN_CHUNK
    elif mode == "outer":
        per = MIN_OUTER_ROWS * (block // tx)
    else:
        per = m or 1
    units = nrow if mode == "inner" else -(-nrow // tx)

    def kern(first, last, nk_, nr_, tail=False):
        hm = has_mask and first
        lay = in_layout if first else "A"
        wd = p.words and first
        screened = wd and spec.screen is not None
        mb = SCREEN_MIN_BLOCKS if screened else TAIL_MIN_BLOCKS if tail else None
        unroll = SCREEN_UNROLL if screened else UNROLL
        key = ("reduce", spec.full_key(), mode, nk_, nr_, a.dtype.str if first else None,
               out.dtype.str if last else None, hm, has_init, first, last, block, tx, seed_first,
               unroll, lay, wd, mb, tail)
        fm = fmap if first else None
        if fm is not None:
            key += (fm.key, fm.in_dtypes)
        return compiler.get_kernel(key, lambda: _t.render(
            spec, mode, nk=nk_, nr=nr_, in_storage=a.dtype, out_storage=out.dtype,
            has_mask=hm, has_init=has_init, first=first, last=last, block=block, tx=tx,
            sim=_SIM, seed_first=seed_first, unroll=unroll, in_layout=lay, words=wd,
            min_blocks=mb, fmap=fm, tail=tail))

    nsplit = 1
    # a split inner reduction of up to TAIL_MAX elements finishes in its one launch (the
    # launch saved is most of a small call's time; bigger ones lose more to the tail's
    # registers than the second launch costs, as do states of more than two components)
    tail = (mode == "inner" and TAIL and nrow * m <= TAIL_MAX and spec.k <= 2
            and all(s.kind in _t.TAIL_STATES for s in spec.state))
    if tail:
        per = TAIL_MIN_CHUNK
    one = mode == "inner" and m * sum(x.itemsize for x in ins) <= SPLIT_MAX_BYTES
    if mode != "fold" and not seed_first and not one:
        # split the reduced range only as far as it takes to fill the GPU once: exactly one
        # wave of the split kernel's blocks (a second, partial wave leaves the GPU part idle)
        target = max(1, RESIDENT_THREADS // block)
        nsplit = max(1, min(-(-m // per), -(-target // units)))
        if nsplit > 1 and not _SIM:
            occ = kern(True, tail, nk, nr, tail=tail).blocks_per_sm(block)
            target = _sm_count() * min(occ, 2048 // block)
            nsplit = max(1, min(-(-m // per), -(-target // units)))
    chunk = -(-m // nsplit) if m else 1
    nsplit = -(-m // chunk) if m else 1
    p.block, p.nsplit, p.chunk = block, nsplit, chunk
    p.grid = max(1, min(units * nsplit, MAX_GRID))
    p.grid2 = max(1, min(units, MAX_GRID))
    p.tail = tail and nsplit > 1
    if nsplit == 1:
        p.wshape = None
        p.kernels = (kern(True, True, nk, nr),)
    else:
        p.wshape = (nrow, nsplit) if mode == "inner" else (nsplit, nrow)
        p.kernels = ((kern(True, True, nk, nr, tail=True),) if p.tail else
                     (kern(True, False, nk, nr), kern(False, True, nk, 0)))


def _sm_count():
    """Multiprocessors of the current device (``runtime.sm_count``)."""
    from ..cuda import runtime
    return runtime.sm_count()


def _c_strides(shape, strides, itemsize):
    """Whether ``strides`` are the C-contiguous strides of ``shape`` (size-1 dims ignored)."""
    want = itemsize
    for n, st in zip(reversed(shape), reversed(strides)):
        if n != 1 and st != want:
            return False
        want *= n
    return True


def _layout_bstrides(mask, shape):
    from .._codegen.elementwise import broadcast_strides
    return broadcast_strides(mask.shape, mask._strides, shape)
