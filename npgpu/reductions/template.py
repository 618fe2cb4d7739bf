"""The reduction template: a :class:`ReduceSpec` (pre-map, combine, post-map) rendered into kernels.

A reduction is described by its *state* (one or more scalar components, e.g.
``(sum,)``, ``(value, index)`` for argmax, ``(count, mean, M2)`` for var):

* ``pre(x, i)``  -- one input value (already cast to ``in_dtype``) and its flat
  index along the reduced axes -> a state;
* ``combine(a.., b..)`` -> a state (associative; tree-combined when the spec
  is ``reorderable``, folded in order otherwise);
* ``post(a.., m, q..)`` -> the result (``m``: number of reduced elements,
  ``q``: extra scalar parameters such as ``ddof``).

Every function that uses the reduction machinery (sums, statistics,
``ufunc.reduce``, the block totals of scans, later fused/user reductions) is a
spec; the kernels below never change per function.

Kernel shapes (picked by :mod:`.reduce` from the layout):

* ``inner``: one block per (output row, split of the reduced range); threads
  walk the reduced elements (coalesced when the reduced axis is the
  contiguous one), 4 independent loads in flight, then a block reduction.
* ``outer``: each thread owns one output column (``TX`` adjacent columns per
  block: coalesced reads across threads) and walks the reduced axis; ``TY``
  thread rows split the reduced range and are combined in shared memory.
* ``fold``: ``outer`` with ``TY == 1`` and no reordering: the order NumPy
  folds non-reorderable ufuncs (subtract, power, ...) in.

Either writes the final result, or per-split *states* (2-D workspace) that a
second launch of the same template reduces (``first=False``), or (``inner``,
``tail=True``) the states and, in the row's last block to finish, their fold.

The block reduction has two renderings of one section: warp shuffles
(``shfl_down_sync``) on the GPU, and a shared-memory tree with
``syncthreads`` on Numba's simulator (which has no warp intrinsics).
"""
import hashlib

import numpy as np

from .._codegen.compiler import KernelSource, Param
from .._codegen.elementwise import from_word, cast_expr, compute_dtype, type_name

_I64 = np.dtype(np.int64)
_U64 = np.dtype(np.uint64)
_U16 = np.dtype(np.uint16)
_F64 = np.dtype(np.float64)


class ReduceSpec:
    """What a reduction computes (see the module docstring).

    in_dtype: the dtype ``pre`` receives (loads are cast to it; float16 arrives as float32);
    state: dtypes of the state components (never float16);
    identity: per component, a source expression of the identity;
    pre/combine/post: function bodies (or single expressions) of
        ``red_pre(x, i)``, ``red_comb(a0.., b0..)``, ``red_post(a0.., m, q0..)``;
    out_dtype: dtype of ``post``'s value; post_params: dtypes of the ``q`` scalars;
    helpers: device-function sources (each a ``def``) the bodies call;
    reorderable: tree-combine allowed; uses_index: ``pre`` reads ``i`` (fixes the order of axes);
    accumulate: optional body of ``red_acc(a0.., x, i)`` = combine(state, pre(x, i)) for a
        thread that visits indices in increasing order (lets argmax skip the index tie-break);
    screen: optional body of ``red_may(x, a0..)`` (with ``accumulate``): a bool that is False
        only when ``red_acc(a.., x, i)`` surely returns the state unchanged for the index ``i``
        that comes next (True is always allowed).  The unrolled loop tests a whole trip's
        loads with it and skips the accumulates when none may change the state (argmax on
        random data: the running maximum rarely changes).
    """

    def __init__(self, key, in_dtype, state, identity, pre, combine, post, out_dtype,
                 post_params=(), helpers=(), reorderable=True, uses_index=False,
                 accumulate=None, screen=None):
        self.key = key
        self.in_dtype = compute_dtype(np.dtype(in_dtype))
        self.state = tuple(np.dtype(s) for s in state)
        self.identity = tuple(identity)
        self.pre = pre
        self.combine = combine
        self.post = post
        self.out_dtype = np.dtype(out_dtype)
        self.post_params = tuple(np.dtype(q) for q in post_params)
        self.helpers = tuple(helpers)
        self.reorderable = reorderable
        self.uses_index = uses_index
        self.accumulate = accumulate
        self.screen = screen if accumulate is not None else None

    @property
    def k(self):
        return len(self.state)

    def full_key(self):
        return (self.key, self.in_dtype.str, tuple(s.str for s in self.state), self.identity,
                self.out_dtype.str, self.post_params, self.reorderable, self.uses_index,
                self.accumulate, self.screen)

    # ---- device functions -------------------------------------------------------------------
    def device_source(self):
        k = self.k
        a = [f"a{c}" for c in range(k)]
        b = [f"b{c}" for c in range(k)]
        q = [f"q{c}" for c in range(len(self.post_params))]
        parts = ["@cuda.jit(device=True)\n" + h.strip("\n") + "\n" for h in self.helpers]
        parts.append(_dev("red_pre", ["x", "i"], self.pre))
        parts.append(_dev("red_comb", a + b, self.combine))
        parts.append(_dev("red_post", a + ["m"] + q, self.post))
        # typed wrappers: every state component keeps one type through every loop
        parts.append(_dev("red_pre_t", ["x", "i"], _typed("red_pre(x, i)", self.state)))
        parts.append(_dev("red_comb_t", a + b, _typed(f"red_comb({', '.join(a + b)})", self.state)))
        if self.accumulate is not None:
            parts.append(_dev("red_acc", a + ["x", "i"], self.accumulate))
            parts.append(_dev("red_acc_t", a + ["x", "i"],
                              _typed(f"red_acc({', '.join(a)}, x, i)", self.state)))
        if self.screen is not None:
            parts.append(_dev("red_may", ["x"] + a, self.screen))
        return "\n".join(parts)


def as_input(spec, x, in_storage):
    """Source of the loaded ``in_storage`` value ``x`` as the value ``red_pre`` takes."""
    return x if in_storage == spec.in_dtype else cast_expr(x, in_storage, spec.in_dtype)


class MapStep:
    """A map before the reduction (``@npgpu.fuse``: ``sum((a - b) ** 2)`` reads a and b once).

    source: device functions ending with ``red_map(x0..x{n-1})``, which takes the inputs'
    loaded values (in their compute dtypes) and returns the value to reduce, of ``out_dtype``;
    in_dtypes: storage dtypes of the inputs ``in0..`` (one view shape, strides of their own);
    key: identifies ``source``."""

    def __init__(self, key, source, in_dtypes, out_dtype):
        self.key = key
        self.source = source
        self.in_dtypes = tuple(np.dtype(d) for d in in_dtypes)
        self.out_dtype = np.dtype(out_dtype)


def _value(spec, fmap, srcs, in_storage):
    """Source of the value ``red_pre`` takes: the input loaded from ``srcs[0]``, or the map of
    every input's loaded value (``srcs``: per input its load source)."""
    if fmap is None:
        return as_input(spec, srcs[0], in_storage)
    args = [s if compute_dtype(d) == d else cast_expr(s, d, compute_dtype(d))
            for s, d in zip(srcs, fmap.in_dtypes)]
    return as_input(spec, f"red_map({', '.join(args)})", fmap.out_dtype)


def _dev(name, args, body):
    if "return" not in body:
        body = f"return {body}"
    lines = "\n".join("    " + ln for ln in body.strip("\n").splitlines())
    return f"@cuda.jit(device=True)\ndef {name}({', '.join(args)}):\n{lines}\n"


def _typed(call, state):
    if len(state) == 1:
        return f"return {type_name(state[0])}({call})"
    comps = ", ".join(f"{type_name(s)}(r[{c}])" for c, s in enumerate(state))
    return f"r = {call}\nreturn ({comps})"


# ---- literals -----------------------------------------------------------------------------------
def literal(value, dtype):
    """Source of a constant ``value`` of ``dtype`` (valid in Numba CUDA and in the simulator)."""
    dt = np.dtype(dtype)
    tn = type_name(compute_dtype(dt)) if dt.kind != "b" else "boolean"
    v = np.asarray(value).astype(dt)[()] if not isinstance(value, str) else value
    if isinstance(v, str):
        return f"{tn}({v})"
    if dt.kind == "b":
        return "True" if v else "False"
    if dt.kind in "iu":
        return f"{tn}({int(v)})"
    if dt.kind == "f":
        return f"{tn}({_float_src(float(v))})"
    return f"{tn}(complex({_float_src(float(v.real))}, {_float_src(float(v.imag))}))"


def _float_src(f):
    if f != f:
        return "math.nan"
    if f == float("inf"):
        return "math.inf"
    if f == -float("inf"):
        return "-math.inf"
    return repr(f)


# ---- warp transport (GPU shuffles carry only 32/64-bit ints and floats) ---------------------------
_NATIVE = {"i4", "i8", "f4", "f8"}


def _shfl_lines(var, dt, tmp, pad):
    """Lines setting ``tmp`` to ``var`` of lane + off (``off`` in scope), any state dtype."""
    code = dt.kind + str(dt.itemsize)
    sh = "cuda.shfl_down_sync(0xffffffff, {}, off)"
    if code in _NATIVE:
        return [f"{pad}{tmp} = {sh.format(var)}"]
    if dt.kind == "c":
        ft = "float32" if dt.itemsize == 8 else "float64"
        return [f"{pad}{tmp}_re = {sh.format(f'{ft}({var}.real)')}",
                f"{pad}{tmp}_im = {sh.format(f'{ft}({var}.imag)')}",
                f"{pad}{tmp} = {type_name(dt)}(complex({tmp}_re, {tmp}_im))"]
    wide = np.dtype(np.int32) if dt.itemsize < 4 or dt.kind == "b" else _I64
    carried = cast_expr(var, dt, wide)
    back = f"{tmp}_w"
    return [f"{pad}{back} = {sh.format(carried)}", f"{pad}{tmp} = {cast_expr(back, wide, dt)}"]


# ---- kernel rendering -------------------------------------------------------------------------
def _names(prefix, k):
    return [f"{prefix}{c}" for c in range(k)]


def _uindex(names):
    """An index tuple of non-negative int64 variables, as unsigned: Numba then skips its
    negative-index fix-up (3 instructions a dimension on every load).  Used by ``inner``
    kernels (H200: sum(axis=1) 97% -> 104% of copy bandwidth); ``outer`` ones keep signed
    indices, which measured faster there (sum(axis=0) 65% unsigned vs 101%)."""
    return ", ".join(f"uint64({v})" for v in names) if names else "0"


def _index(names):
    return ", ".join(names) if names else "0"


def _decompose(var, dims, shape_src, first_dim, pad):
    """Lines splitting flat C-order index ``var`` into ``{var}_0..`` over ``len(dims)`` dims."""
    n = len(dims)
    if n == 0:
        return []
    if n == 1:
        return [f"{pad}{dims[0]} = {var}"]
    lines = [f"{pad}rem_ = {var}"]
    for d in range(n - 1, 0, -1):
        lines.append(f"{pad}{dims[d]} = rem_ % {shape_src}.shape[{first_dim + d}]")
        lines.append(f"{pad}rem_ = rem_ // {shape_src}.shape[{first_dim + d}]")
    lines.append(f"{pad}{dims[0]} = rem_")
    return lines


def render(spec, mode, *, nk, nr, in_storage, out_storage, has_mask, has_init, first, last,
           block, tx=1, sim=False, seed_first=False, unroll=4, interleave=True,
           in_layout="A", words=False, min_blocks=None, fmap=None, tail=False):
    """Render one reduction kernel.

    mode 'inner' | 'outer' | 'fold'; nk/nr: kept and reduced dims of the input view
    (first pass); in_storage: the input array's dtype (first) -- state inputs otherwise;
    out_storage: the output array's dtype (last); block: threads per block; tx: columns
    per block (outer/fold); unroll: loads in flight per thread (a power of two);
    in_layout: "C" when the input view is C-contiguous (Numba then knows the strides: no
    multiply per load), else "A";
    interleave: the inner splits of a row interleave block by block (reductions) instead of
    taking contiguous ``chunk``-element tiles (the tile totals of scans);
    words: (inner, first pass, one reduced dim, C layout, 4-byte input, no mask) the loop
    loads uint64 words of the rows -- two elements a load -- from a uint64 view ``inw``
    (kept dims + ``m // 2`` words) of the same memory; an odd last element of a row (one
    row only: longer rows are even for the view to exist) is loaded by thread 0 of split 0.
    min_blocks: GPU launch bounds (``block``, ``min_blocks``) for ptxas (None: its choice).
    fmap: a :class:`MapStep` the first pass applies to its inputs ``in0..`` (None: one input).
    tail: (inner, first and last) the splits of a row finish in the same launch: each block
    stores its state in the workspace ``ws..`` (nrow, nsplit), then counts itself in the row's
    arrival counter ``cnt`` (int32, zero on entry); the row's last block to arrive folds the
    splits' states in split order (the same order as a second pass: the same bits every run),
    writes the result and sets the counter back to zero.
    Parameters, in order: ``nrow, m, nsplit, chunk, mtot,
    q.., [init], outputs.., inputs.., [inw..], [mask], [ws.., cnt]``.
    """
    if tail:
        assert mode == "inner" and first and last
    if not first:
        fmap = None
    nin = len(fmap.in_dtypes) if fmap is not None else 1
    in_st = fmap.in_dtypes if fmap is not None else (in_storage,)
    if words:
        assert mode == "inner" and first and not has_mask and nr == 1 and interleave
    k = spec.k
    st = spec.state
    ty = block // tx if mode != "inner" else 1
    reorder = spec.reorderable and mode != "fold"
    ins = _names("in", nin) if first else _names("sin", k)
    outs = ["out0"] if last else _names("sout", k)
    qs = _names("q", len(spec.post_params))
    scal = ["nrow", "m", "nsplit", "chunk", "mtot"] + qs + (["init"] if has_init else [])
    wins = (["inw"] if fmap is None else _names("inw", nin)) if words else []
    arrays = (outs + ins + wins + (["mk"] if has_mask else [])
              + (_names("ws", spec.k) + ["cnt"] if tail else []))
    L = [f"def KERNEL({', '.join(scal + arrays)}):"]
    P = "    "
    kd = [f"k{d}_" for d in range(nk)]
    rd = [f"r{d}_" for d in range(nr)]
    ident = [f"{spec.identity[c]}" for c in range(k)]
    S = _names("s", k)

    def comb(dst, a, b, pad):
        return [f"{pad}{', '.join(dst)} = red_comb_t({', '.join(list(a) + list(b))})"]

    def load(j, tag, pad):
        """Lines loading element ``j`` (of the current row/column) into state t{c}_{tag}."""
        T = [f"t{c}_{tag}" for c in range(k)]
        lhs = ", ".join(T)
        lines = []
        if first:
            rdt = [f"{r}{tag}" for r in rd]
            lines += _decompose(j, rdt, "in0", nk, pad)
            idx = _uindex(kd + rdt) if mode == "inner" else _index(kd + rdt)
            x = _value(spec, fmap, [f"in{i}[{idx}]" for i in range(nin)], in_storage)
            if has_mask and mode == "fold":
                # a fold skips masked-out elements (non-reorderable ufuncs have no identity)
                lines.append(f"{pad}mk_ = mk[{idx}]")
                lines.append(f"{pad}{lhs} = red_pre_t({x}, {j})")
            elif has_mask:
                lines.append(f"{pad}if mk[{idx}]:")
                lines.append(f"{pad}    {lhs} = red_pre_t({x}, {j})")
                lines.append(f"{pad}else:")
                lines.append(f"{pad}    {lhs} = {', '.join(ident)}")
            else:
                lines.append(f"{pad}{lhs} = red_pre_t({x}, {j})")
        else:
            for c in range(k):
                src = f"sin{c}[row, {j}]" if mode == "inner" else f"sin{c}[{j}, row]"
                lines.append(f"{pad}t{c}_{tag} = {src}")
        return lines, T

    use_acc = spec.accumulate is not None and first and not has_mask

    def unrolled(step, pad):
        """A loop taking ``unroll`` elements (words: ``unroll`` words) ``step`` apart per trip
        (``step``: a number or a variable's name): every load issued before any combine
        (loads in flight), then a pairwise tree of combines into S, or the spec's in-order
        ``red_acc`` when it has one (argmax: cheaper than the general combine), behind one
        test of the whole trip with the spec's ``screen`` when it has one."""
        inner = pad + P

        def at(u):
            return "j" if u == 0 else f"j + {u} * {step}"
        lines = [f"{pad}while {at(unroll - 1)} < hi:"]
        # (input value, its element index), in index order; (None, statement): a step of the
        # running index i_ of the screened accumulate (indices as j + u * step there keep 2 * u
        # * step hoisted out of the loop: 14 more registers live across the loads)
        run = use_acc and spec.screen is not None and unroll > 1
        vals = [(None, f"i_ = {'2 * j' if words else 'j'}")] if run else []
        for u in range(unroll):
            if run and u:
                vals.append((None, f"i_ += {'2 * ' if words else ''}{step}"))
            if words:
                lines += _word_load(at(u), u, inner)
                vals += ([(f"x_{u}a", "i_"), (f"x_{u}b", "i_ + 1")] if run else
                         [(f"x_{u}a", f"2 * ({at(u)})"), (f"x_{u}b", f"2 * ({at(u)}) + 1")])
            elif use_acc:
                lines += _raw_load(at(u), u, inner)
                vals.append((f"x_{u}", "i_" if run else at(u)))
            else:
                ld, T = load(at(u), u, inner)
                lines += ld
                vals.append((T, None))
        lines += _consume(vals, inner)
        lines.append(f"{inner}j += {unroll} * {step}")
        return lines

    def _consume(vals, pad):
        """Lines folding loaded ``vals`` into S: in order through ``red_acc`` (behind the
        screen), or as pre-mapped states by a pairwise tree."""
        lines = []
        if use_acc:
            acc_pad = pad
            if spec.screen is not None and len(vals) > 1:
                # bitwise | of the tests: one branch per trip, none per element
                may = " | ".join(f"red_may({', '.join([x] + S)})" for x, _ in vals if x)
                lines.append(f"{pad}ch_ = {may}")
                lines.append(f"{pad}if ch_:")
                acc_pad = pad + P
            for x, i in vals:
                lines.append(f"{acc_pad}{i}" if x is None else
                             f"{acc_pad}{', '.join(S)} = red_acc_t({', '.join(S)}, {x}, {i})")
            return lines
        Ts = []
        for q, (x, i) in enumerate(vals):
            if i is None:
                Ts.append(x)
                continue
            T = [f"t{c}_v{q}" for c in range(k)]
            lines.append(f"{pad}{', '.join(T)} = red_pre_t({x}, {i})")
            Ts.append(T)
        level = 0
        while len(Ts) > 1:
            nxt = []
            for q in range(0, len(Ts), 2):
                D = [f"p{level}_{q}_{c}" for c in range(k)]
                lines += comb(D, Ts[q], Ts[q + 1], pad)
                nxt.append(D)
            Ts = nxt
            level += 1
        lines += comb(S, S, Ts[0], pad)
        return lines

    def _word_load(w, tag, pad):
        """Lines loading word ``w`` of the row (elements 2w, 2w + 1) as x_{tag}a, x_{tag}b."""
        if fmap is None:
            lines = [f"{pad}w_{tag} = inw[{_uindex(kd + [w])}]"]
        else:
            lines = [f"{pad}w{i}_{tag} = inw{i}[{_uindex(kd + [w])}]" for i in range(nin)]
        for h, s in ((0, "a"), (1, "b")):
            srcs = [from_word(f"w_{tag}" if fmap is None else f"w{i}_{tag}", h, in_st[i])
                    for i in range(nin)]
            lines.append(f"{pad}x_{tag}{s} = {_value(spec, fmap, srcs, in_storage)}")
        return lines

    def _raw_load(j, tag, pad):
        """Lines loading element ``j`` as the pre-map's input value x_{tag} (no mask)."""
        rdt = [f"{r}{tag}" for r in rd]
        lines = _decompose(j, rdt, "in0", nk, pad)
        idx = _uindex(kd + rdt) if mode == "inner" else _index(kd + rdt)
        x = _value(spec, fmap, [f"in{i}[{idx}]" for i in range(nin)], in_storage)
        return lines + [f"{pad}x_{tag} = {x}"]

    def finish(pad):
        """Lines storing the state S of the current row (final value or partial state)."""
        lines = []
        if last:
            if has_init and mode != "fold":       # fold kernels start from init instead
                lines += comb(S, S, [cast_expr("init", st[0], st[0])], pad)
            post = f"red_post({', '.join(S + ['mtot'] + qs)})"
            idx = ", ".join(kd) if kd else "0"
            od = spec.out_dtype
            val = cast_expr(cast_expr(post, compute_dtype(od), od), od, out_storage)
            lines.append(f"{pad}out0[{idx}] = {val}")
        else:
            for c in range(k):
                dst = f"sout{c}[row, sp]" if mode == "inner" else f"sout{c}[sp, row]"
                lines.append(f"{pad}{dst} = {S[c]}")
        return lines

    L.append(f"{P}tid = int64(cuda.threadIdx.x)")
    nsh = block if mode == "inner" else (block if ty > 1 else 0)
    if nsh:
        for c in range(k):
            L.append(f"{P}sh{c} = cuda.shared.array({nsh}, {type_name(st[c])})")
    if tail:
        L.append(f"{P}arrived = cuda.shared.array(1, int32)")
    L.append(f"{P}b = int64(cuda.blockIdx.x)")
    L.append(f"{P}gd = int64(cuda.gridDim.x)")
    kshape = "out0" if last else "in0"
    if mode == "inner":
        L.append(f"{P}while b < nrow * nsplit:")
        P2 = P * 2
        L.append(f"{P2}row = b // nsplit")
        L.append(f"{P2}sp = b - row * nsplit")
        L += _decompose("row", kd, kshape, 0, P2)
        # the splits of a row interleave (split sp takes blocks sp, sp + nsplit, ... of
        # ``block`` elements): all blocks stream through neighbouring memory together, which
        # the H200 reads at full bandwidth (contiguous chunks per split: 85%, measured)
        if words:
            L.append(f"{P2}hi = m >> 1")
            L.append(f"{P2}stp = nsplit * {block}")
            L.append(f"{P2}j = sp * {block} + tid")
        elif interleave:
            L.append(f"{P2}hi = m")
            L.append(f"{P2}stp = nsplit * {block}")
            L.append(f"{P2}j = sp * {block} + tid")
        else:
            L.append(f"{P2}hi = min(sp * chunk + chunk, m)")
            L.append(f"{P2}stp = {block}")
            L.append(f"{P2}j = sp * chunk + tid")
        for c in range(k):
            L.append(f"{P2}{S[c]} = {ident[c]}")
        P3 = P * 3
        L += unrolled("stp", P2)
        L.append(f"{P2}while j < hi:")
        if words:
            L += _word_load("j", "e", P3)
            L += _consume([("x_ea", "2 * j"), ("x_eb", "2 * j + 1")], P3)
        else:
            ld, T = load("j", "e", P3)
            L += ld
            L += comb(S, S, T, P3)
        L.append(f"{P3}j += stp")
        if words:
            # the odd last element: after every other one of split 0's thread 0 (in order)
            L.append(f"{P2}if m & 1 and sp == 0 and tid == 0:")
            ld, T = load("m - 1", "o", P3)
            L += ld
            L += comb(S, S, T, P3)
        L += _block_reduce(spec, S, block, sim, P2, comb)
        if tail:
            L += _tail(S, k, ident, block, sim, P2, comb, finish,
                       lambda pad: _block_reduce(spec, S, block, sim, pad, comb))
        else:
            L.append(f"{P2}if tid == 0:")
            L += finish(P3)
        L.append(f"{P2}b += gd")
    else:
        L.append(f"{P}tx = tid % {tx}")
        L.append(f"{P}ty = tid // {tx}")
        L.append(f"{P}ncb = (nrow + {tx - 1}) // {tx}")
        L.append(f"{P}while b < ncb * nsplit:")
        P2 = P * 2
        P3 = P * 3
        L.append(f"{P2}cb = b // nsplit")
        L.append(f"{P2}sp = b - cb * nsplit")
        L.append(f"{P2}row = cb * {tx} + tx")
        L += _decompose("row", kd, kshape, 0, P2)
        L.append(f"{P2}lo = sp * chunk")
        L.append(f"{P2}hi = min(lo + chunk, m)")
        if seed_first:
            L.append(f"{P2}if row < nrow:")
            ld, T = load("lo", "f", P3)
            L += ld
            L += [f"{P3}{S[c]} = {T[c]}" for c in range(k)]
            L.append(f"{P2}else:")
            L += [f"{P3}{S[c]} = {ident[c]}" for c in range(k)]
            L.append(f"{P2}j = lo + 1")
        else:
            if mode == "fold" and has_init:
                L.append(f"{P2}{S[0]} = {cast_expr('init', st[0], st[0])}")
            else:
                for c in range(k):
                    L.append(f"{P2}{S[c]} = {ident[c]}")
            L.append(f"{P2}j = lo + ty")
        L.append(f"{P2}if row < nrow:")
        if reorder:
            L += unrolled(ty, P3)
        L.append(f"{P3}while j < hi:")
        ld, T = load("j", "e", P * 4)
        L += ld
        if mode == "fold" and has_mask and first:
            L.append(f"{P * 4}if mk_:")
            L += comb(S, S, T, P * 5)
        else:
            L += comb(S, S, T, P * 4)
        L.append(f"{P * 4}j += {ty}")
        if ty > 1:
            L += _shared_tree(S, k, ty, "ty", tx, P2, comb)
        L.append(f"{P2}if ty == 0 and row < nrow:")
        if ty > 1:
            L += [f"{P3}{S[c]} = sh{c}[tid]" for c in range(k)]
        L += finish(P3)
        if ty > 1:
            L.append(f"{P2}cuda.syncthreads()")
        L.append(f"{P2}b += gd")

    body = "\n".join(L) + "\n"
    text = spec.device_source() + "\n\n" + body
    if fmap is not None:
        text = fmap.source.strip("\n") + "\n\n" + text
    name = f"red_{mode}_{hashlib.sha1(text.encode()).hexdigest()[:10]}"
    text = text.replace("def KERNEL(", f"def {name}(")

    params = [Param("scalar", _I64) for _ in range(5)]
    params += [Param("scalar", q) for q in spec.post_params]
    if has_init:
        params.append(Param("scalar", st[0]))
    if last:
        params.append(Param("array", out_storage, max(nk, 1), "A"))
    else:
        params += [Param("array", s, 2, "C") for s in st]
    if first:
        params += [Param("array", d, max(nk + nr, 1), in_layout) for d in in_st]
    else:
        params += [Param("array", s, 2, "C") for s in st]
    if words:
        params += [Param("array", _U64 if d.itemsize == 4 else _U16, nk + 1, "C")
                   for d in in_st]
    if has_mask:
        params.append(Param("array", np.bool_, max(nk + nr, 1), "A"))
    if tail:
        params += [Param("array", s, 2, "C") for s in st]
        params.append(Param("array", np.int32, 1, "C"))
    return KernelSource(name, text, params, (block, min_blocks) if min_blocks and not sim else None)


# the states a tail reads were stored by other blocks: loaded through L2 (``ld.global.cg``),
# never from this SM's L1, which is not coherent with the other SMs' stores.  Cache hints take
# integer and float arrays (bool and complex states keep the second pass); the simulator, with
# no caches and no cache hints, indexes.
TAIL_STATES = frozenset("iuf")


def _tail(S, k, ident, block, sim, pad, comb, finish, block_reduce):
    """Lines of an inner kernel after its block reduction (thread 0 holds the split's state S):
    publish S, count the block in, and, in the row's last block, fold every split's state and
    finish the row (see ``render``'s ``tail``)."""
    P1 = pad + "    "
    P2 = P1 + "    "
    L = [f"{pad}if tid == 0:"]
    L += [f"{P1}ws{c}[row, sp] = {S[c]}" for c in range(k)]
    # the stores reach L2 before the count does: the last block then sees every state
    L.append(f"{P1}cuda.threadfence()")
    L.append(f"{P1}arrived[0] = cuda.atomic.add(cnt, row, int32(1))")
    L.append(f"{pad}cuda.syncthreads()")
    L.append(f"{pad}if arrived[0] == nsplit - 1:")
    # (the acquire side: no load of the states below is ordered before the count was seen)
    L.append(f"{P1}cuda.threadfence()")
    L += [f"{P1}{S[c]} = {ident[c]}" for c in range(k)]
    L.append(f"{P1}j = tid")
    L.append(f"{P1}while j < nsplit:")
    T = [f"t{c}_w" for c in range(k)]
    L += [f"{P2}{T[c]} = " + (f"ws{c}[row, j]" if sim else f"cuda.ldcg(ws{c}, (row, j))")
          for c in range(k)]
    L += comb(S, S, T, P2)
    L.append(f"{P2}j += {block}")
    L += block_reduce(P1)
    L.append(f"{P1}if tid == 0:")
    L += finish(P2)
    L.append(f"{P2}cnt[row] = 0")
    return L


def _shared_tree(S, k, n, lane, stride, pad, comb):
    """Lines combining state S over ``n`` threads through shared memory, halving each round:
    thread ``lane < h`` combines its slot ``sh[tid]`` with ``sh[tid + h * stride]``."""
    P1 = pad + "    "
    L = [f"{pad}sh{c}[tid] = {S[c]}" for c in range(k)]
    L.append(f"{pad}cuda.syncthreads()")
    h = n // 2
    while h >= 1:
        L.append(f"{pad}if {lane} < {h}:")
        A = [f"sh{c}[tid]" for c in range(k)]
        B = [f"sh{c}[tid + {h * stride}]" for c in range(k)]
        L += comb(S, A, B, P1)
        L += [f"{P1}sh{c}[tid] = {S[c]}" for c in range(k)]
        L.append(f"{pad}cuda.syncthreads()")
        h //= 2
    return L


def _block_reduce(spec, S, block, sim, pad, comb):
    """Combine state S over the threads of a block; thread 0 ends with the result.

    GPU: warp shuffles, one shared slot per warp, then warp 0 shuffles again.
    Simulator (no warp intrinsics): the same combine as a shared-memory tree.
    """
    k = spec.k
    L = []
    P1 = pad + "    "
    if sim or block < 64:
        L += _shared_tree(S, k, block, "tid", 1, pad, comb)
        L += [f"{pad}{S[c]} = sh{c}[0]" for c in range(k)]
        L.append(f"{pad}cuda.syncthreads()")
        return L
    nw = block // 32

    def warp(p):
        # the five rounds (offsets 16 .. 1) as a loop of constant trip count, which NVVM
        # unrolls: the same PTX, from a fifth of the source for Numba to type and lower
        q = p + "    "
        out = [f"{p}for rnd_ in range(5):", f"{q}off = 16 >> rnd_"]
        for c in range(k):
            out += _shfl_lines(S[c], spec.state[c], f"o{c}_", q)
        return out + comb(S, S, [f"o{c}_" for c in range(k)], q)

    L += warp(pad)
    L.append(f"{pad}if tid % 32 == 0:")
    L += [f"{P1}sh{c}[tid // 32] = {S[c]}" for c in range(k)]
    L.append(f"{pad}cuda.syncthreads()")
    L.append(f"{pad}if tid < 32:")
    P2 = P1 + "    "
    L.append(f"{P1}if tid < {nw}:")
    L += [f"{P2}{S[c]} = sh{c}[tid]" for c in range(k)]
    L.append(f"{P1}else:")
    L += [f"{P2}{S[c]} = {spec.identity[c]}" for c in range(k)]
    L += warp(P1)
    L.append(f"{pad}cuda.syncthreads()")
    return L
