"""The row form of a fused call: a block owns a row, read once, written once.

``(x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)`` records reductions
along the last axis (with keepdims) and one elementwise step that combines the row's elements
with the per-row results.  Unfused that is 3-4 launches reading ``x`` each time; here one
kernel, one block per row:

1. the block loads its row into registers (``vpt`` values a thread, ``block`` threads:
   element ``tid + u * block`` is value ``u``; coalesced);
2. each reduction, in the recorded order, folds its map of the values (which may read the
   earlier reductions' per-row results) with its :class:`ReduceSpec`'s ``pre``/``comb``, then
   the template's block reduction combines the threads (a fixed tree: the same bits every
   run), and ``post`` gives the row's value, rounded to the result dtype as a stored result is;
   variance specs (NumPy's two-pass formula) take the mean first and then the squared
   deviations from the registers instead of the spec's one-pass pairwise update;
3. the elementwise step's ScalarOp computes and stores every element of the row.

Nothing is computed twice (:func:`_split`): what a map or the last step computes from per-row
values alone runs once a row, and a value a reduction's map computed for the element is
passed to the later steps that use it (softmax's ``exp(x - max)``); a reduction's value is
computed just before it is folded, so that a value no later step reads holds no register.
H100, (2^14, 2^14) float32 (rows_knobs.py, 2026-12-05): softmax 865 -> 748 us, log_softmax
879 -> 747 us (PyTorch 843 / 792 us), logsumexp 626 -> 442 us.

Elementwise steps on per-row values alone (``sqrt(x.var(axis=1, keepdims=True) + eps)``, the
finite maximum of log_softmax's shift, logsumexp's finishing step: the fused trace records
them, :meth:`~npgpu.fusion.trace._Trace.traced_result`) are computed by every thread from the
broadcast values, where the recorded order puts them.  A program whose results are all per-row
values (reductions or such steps: logsumexp) leaves step 3 out, and thread 0 stores each
row's results.

The plan is made from the recorded steps (:mod:`.program`); rows longer than a block holds
(:data:`VPT_MAX` values a thread) and any other pattern keep the recorded launches.
"""
import hashlib
import re

import numpy as np

from .. import _backend
from .._codegen.compiler import KernelSource, Param, get_kernel
from .._codegen.elementwise import cast_expr, compute_dtype, type_name
from .._core.ndarray import empty_array, ndarray
from ..reductions import reduce as _r
from ..reductions import template as _t
from . import trace as _trace

_SIM = _backend.IS_SIM
_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)
# values a thread holds (4-byte words over all row inputs): a 1024-thread block then holds
# rows up to 2^15 float32 elements
VPT_MAX = 32
# values a thread takes before the block grows (blocks of 32..MAX_BLOCK threads).  ptxas for
# sm_90, the row normalisation of 2^14 float32 columns (benchmarks/experiments/
# fusion_rows_ptx.py): 1024 x 16 values take 50 registers (one block an SM: its loads stop
# while it reduces); 512 x 32 take 73, and 62 without spills under launch bounds of 2 blocks
# an SM (one block loads while the other reduces)
VPT_TARGET_GPU = 32
VPT_TARGET = 4 if _SIM else VPT_TARGET_GPU
# launch bounds' minimum blocks an SM (benchmarks/experiments/rows_knobs.py sweeps both)
BLOCKS_PER_SM = 2
MAX_BLOCK = 8 if _SIM else 1024
MIN_BLOCK = 4 if _SIM else 32
MAX_GRID = 4 if _SIM else 1 << 20


def _words(dts):
    return sum(max(1, d.itemsize // 4) for d in dts)


class RowPlan:
    """A recorded program that runs as one row kernel (see the module docstring)."""

    def __init__(self, steps, results, row_args, scal_args, shape, scal_dtypes, full_last):
        self.steps = steps
        # the stored outputs, (step, output) each: the last step's over the whole rows, or the
        # returned per-row values (reductions, per-row steps)
        last = len(steps) - 1
        self.stored = [(last, o) for o in range(len(steps[-1][1][1]))] if full_last \
            else list(dict.fromkeys((r[1], r[2]) for r in results))
        self.row_args = row_args          # argument indices loaded by rows
        self.scal_args = scal_args        # argument indices passed as scalars
        self.scal_dtypes = scal_dtypes
        self.shape = shape
        self.ncols = shape[-1]
        self.nrow = int(np.prod(shape[:-1], dtype=np.int64))
        self.ew = steps[-1][1] if full_last else None
        self.kern = None
        self.block = None

    def kernel(self, args):
        if self.kern is None:
            m = self.ncols
            dts = [args[i].dtype for i in self.row_args]
            block = MIN_BLOCK
            while block < MAX_BLOCK and block * VPT_TARGET < m:
                block *= 2
            vpt = -(-m // block)
            if vpt * _words(dts) > VPT_MAX:
                return None
            k = get_kernel(("fuse_rows", self.key(dts), block, vpt, m == vpt * block),
                           lambda: render(self, dts, block, vpt, m == vpt * block))
            if k.max_threads < block:
                return None
            self.kern, self.block = k, block
        return self.kern

    def out_types(self):
        """(shape, dtype) of each stored output."""
        res = []
        for j, o in self.stored:
            kind, what, _ = self.steps[j]
            res.append((what.out_shape, what.out_dtype) if kind == "reduce" else
                       (what[2], what[1][o]))
        return res

    def key(self, dts):
        parts = []
        for kind, what, srcs in self.steps:
            if kind == "reduce":
                parts.append((what.spec.full_key(), what.op.key if what.op else None,
                              what.a_dtype.str, what.out_dtype.str, tuple(srcs)))
            else:
                parts.append((what[0].key, tuple(d.str for d in what[1]), tuple(srcs)))
        return (tuple(parts), tuple(d.str for d in dts),
                tuple(d.str for d in self.scal_dtypes), tuple(self.stored))

    def run(self, args):
        """{(step, output): array} of the stored outputs, or None where this call cannot take
        the row form."""
        for i in self.row_args:
            if not args[i]._c_contig or args[i]._ptr % args[i].itemsize:
                return None
        k = self.kernel(args)
        if k is None:
            return None
        outs = [empty_array(shape, d) for shape, d in self.out_types()]
        m, nrow = self.ncols, self.nrow
        vals = [nrow, m]
        for i, d in zip(self.scal_args, self.scal_dtypes):
            vals += _r._scalar_values(args[i], compute_dtype(d))
        for kind, what, _ in self.steps:
            if kind == "reduce":
                for q, v in zip(what.spec.post_params, what.post_args):
                    vals += _r._scalar_values(v, q)
        cols = m if self.ew is not None else 1
        for o in outs:
            vals += _r._arr(o._ptr, (nrow, cols), (cols * o.itemsize, o.itemsize), o.itemsize)
        for i in self.row_args:
            a = args[i]
            vals += _r._arr(a._ptr, (nrow, m), (m * a.itemsize, a.itemsize), a.itemsize)
        k(max(1, min(nrow, MAX_GRID)), self.block, vals)
        return dict(zip(self.stored, outs))


def plan(steps, results, args):
    """The :class:`RowPlan` of recorded ``steps`` (made with ``args``), or None."""
    reds = [what for kind, what, _ in steps if kind == "reduce"]
    if not reds:
        return None
    shape = reds[0].a_shape
    if len(shape) < 1 or 0 in shape:
        return None
    nd = len(shape)
    row_shape = shape[:-1] + (1,)
    last = len(steps) - 1
    # the last step an elementwise one over the whole rows, or every result a per-row value
    # (rows of one column: the last step is the whole rows' where it reads the rows)
    full_last = steps[-1][0] == "ew" and steps[-1][1][2] == shape and (
        shape != row_shape or any(s[0] == "arg" and isinstance(args[s[1]], ndarray)
                                  for s in steps[-1][2]))
    if any(r is None or r[0] != "step" or full_last and r[1] != last for r in results):
        return None
    row_args, scal_args, scal_dtypes = [], [], []
    for j, (kind, what, srcs) in enumerate(steps):
        if kind == "reduce":
            if what.axes != (nd - 1,) or not what.keepdims or \
                    what.a_shape != shape or what.out_shape != row_shape or \
                    not what.spec.reorderable or what.seed_first or \
                    what.out_dtype.kind not in "fiuc" or what.spec.accumulate is not None \
                    and what.spec.uses_index:
                return None
        elif not (full_last and j == last):
            # a per-row step (e.g. sqrt(var + eps)): read from per-row values
            if what[2] != row_shape or any(d.kind not in "fiuc" for d in what[1]) or \
                    any(s[0] == "arg" and isinstance(args[s[1]], ndarray) for s in srcs):
                return None
        for s in srcs:
            if s[0] == "step":
                continue
            a = args[s[1]]
            if isinstance(a, ndarray):
                if a.shape != shape or a.dtype.kind not in "fiuc":
                    return None
                if s[1] not in row_args:
                    row_args.append(s[1])
            elif s[1] not in scal_args:
                scal_args.append(s[1])
    for i in scal_args:
        k = next(k for kind, what, srcs in steps for k, s in enumerate(srcs) if s == ("arg", i))
        d = next(what.loop_in[k] if kind == "reduce" else what[3][k]
                 for kind, what, srcs in steps if ("arg", i) in srcs)
        if d.kind not in "fiuc":
            return None
        scal_dtypes.append(d)
    if not row_args:
        return None
    return RowPlan(steps, results, row_args, scal_args, shape, scal_dtypes, full_last)


# ---- rendering ----------------------------------------------------------------------------------
def _prefixed(text, prefix):
    """``text`` with every function it defines renamed ``prefix + name`` (kept consistent)."""
    for name in sorted(set(re.findall(r"^def (\w+)\(", text, re.M)), key=len, reverse=True):
        text = re.sub(rf"\b{name}\b", prefix + name, text)
    return text


def _op_source(op, name):
    """Device functions of ScalarOp ``op`` (its own named ``name``); helpers kept apart."""
    return op.source.replace("def op(", f"def {name}(", 1), list(op.helpers)


_LINE = re.compile(r"    (t\d+ = .+)")


def _split(op, per_row, given, name):
    """``op`` rendered so that it computes no value twice that the row kernel has.

    * What ``op`` computes from per-row values alone runs once a row: ``log_softmax``'s last
      step is ``t - log(s)``, ``s`` the row's sum, and as one function of the element and the
      row's values the kernel evaluated ``log(s)`` for each of a thread's values (NVVM does not
      merge the unrolled calls' branchy libdevice bodies).
    * A value an earlier reduction's map computed for the same element (``given``: the fused
      trace's names, which mean one value in every op of a trace) is taken from it: softmax's
      ``exp(x - max)`` once, not again for its division.

    For a body of assignments and a ``return`` (the fused trace's form): returns (device
    function sources: ``{name}_row(x...)`` returning the per-row values that ``{name}(x...,
    per-row values, given values)`` takes after its inputs; the per-row value names; the
    given names it takes), or None (nothing to split, or another form of body)."""
    head, *body = op.source.rstrip("\n").split("\n")
    if not body or not body[-1].startswith("    return ") or op.nin != len(per_row):
        return None
    lines = [_LINE.fullmatch(x) for x in body[:-1]]
    if not all(lines):
        return None
    # the lines the result needs, given values as inputs
    live, need = _trace.live_lines([m.group(1) for m in lines], _trace.names(body[-1:]), given)
    took = sorted(need & set(given), key=lambda t: int(t[1:]))
    row = {f"x{i}" for i, r in enumerate(per_row) if r}
    hoist, keep = [], []
    for line in live:
        lhs, rhs = line.split(" = ", 1)
        if _trace.names([rhs]) <= row:
            hoist.append(line)
            row.add(lhs)
        else:
            keep.append(line)
    used = _trace.names([ln.split(" = ", 1)[1] for ln in keep] + body[-1:])
    out = [ln.split(" = ", 1)[0] for ln in hoist if ln.split(" = ", 1)[0] in used]
    if not out and not took:
        return None
    args = head[len("def op("):-len("):")]
    srcs = ["\n".join([f"def {name}({', '.join([args] + out + took)}):"]
                      + ["    " + ln for ln in keep] + [body[-1]]) + "\n"]
    if out:
        srcs.insert(0, "\n".join([f"def {name}_row({args}):"] + ["    " + ln for ln in hoist]
                                 + [f"    return {', '.join(out)}"]) + "\n")
    return srcs, out, took


def _elementwise_op(op, name, srcs, src, per_row, given, funcs, helpers, body):
    """Render ScalarOp ``op`` of sources ``srcs`` as device function ``name`` (:func:`_split`:
    its per-row part computed once in ``body``, ``given``'s values reused: {trace name: the
    per-element value's name with ``{u}`` for the value index}); returns a function of the
    value index giving the text its call appends to its arguments."""
    helpers += [x for x in op.helpers if x not in helpers]
    split = _split(op, [per_row(s) for s in srcs], given, name)
    if split is None:
        funcs.append(_op_source(op, name)[0])
        return lambda u: ""
    fs, out, took = split
    funcs += fs
    vals = [f"{name}_{v}" for v in out]
    if vals:
        body.append(f"{', '.join(vals)} = {name}_row({', '.join(src(s, 0) for s in srcs)})")
    return lambda u: "".join(", " + v for v in vals + [given[t].format(u=u) for t in took])


def _returned_name(op, dt):
    """The trace name ``op`` returns where its body ends ``return tK`` or ``return
    float32(tK)`` (``dt``'s compute type, the map's output dtype: the trace casts a value to its
    own dtype where it leaves a function, as every use of ``tK`` in another of its functions
    does), else None."""
    m = re.search(r"\n    return ((?:[a-z]+\d*\()*)(t\d+)(\)*)\n?$", op.source)
    if m is None or set(re.findall(r"[a-z]+\d*", m.group(1))) - {type_name(compute_dtype(dt))} \
            or m.group(1).count("(") != len(m.group(3)):
        return None
    return m.group(2)


def _var_spec(spec):
    """Is ``spec`` the (count, mean, M2) variance spec (NumPy's var is a two-pass formula)?"""
    return spec.key[0] == "var" and not spec.key[1]


def render(p, dts, block, vpt, exact):
    P, P2 = "    ", "        "
    helpers, funcs = [], []
    nrows = len(p.row_args)
    scal = ["nrow", "m"] + [f"c{n}" for n in range(len(p.scal_args))]
    nq = 0
    for kind, what, _ in p.steps:
        if kind == "reduce":
            scal += [f"q{nq + i}" for i in range(len(what.post_args))]
            nq += len(what.post_args)
    nout = len(p.stored)
    arrays = [f"out{o}" for o in range(nout)] + [f"in{n}" for n in range(nrows)]
    L = [f"def KERNEL({', '.join(scal + arrays)}):"]
    L.append(f"{P}tid = int64(cuda.threadIdx.x)")
    L.append(f"{P}b = int64(cuda.blockIdx.x)")
    L.append(f"{P}gd = int64(cuda.gridDim.x)")
    body = []
    # shared memory: per reduction, its block-reduction slots and the row's value
    shared = []
    # source of slot ``s`` for value u ("{u}" formatted later) / per row
    row_of = {i: n for n, i in enumerate(p.row_args)}
    scal_of = {i: n for n, i in enumerate(p.scal_args)}
    rv = {}                                    # reduction step -> per-row value name
    given = {}              # trace name -> a reduction map's per-element value ("{u}": index)

    def src(s, u):
        if s[0] == "step":
            return rv[s[1], s[2]]
        if s[1] in row_of:
            return f"v{row_of[s[1]]}_{u}"
        return f"c{scal_of[s[1]]}"

    def per_row(s):
        return s[0] == "step" or s[1] not in row_of

    # loads: every row input's values of this thread, in compute dtypes
    for n, d in enumerate(dts):
        cd = compute_dtype(d)
        zero = f"{type_name(cd)}(0)"
        for u in range(vpt):
            x = f"in{n}[row, uint64(j{u})]"
            if cd != d:
                x = cast_expr(x, d, cd)
            body.append(f"v{n}_{u} = {x}" if exact else f"v{n}_{u} = {x} if j{u} < m else {zero}")
    q0 = 0
    stored_at = {jo: o for o, jo in enumerate(p.stored)} if p.ew is None else {}
    for j, (kind, what, srcs) in enumerate(p.steps):
        if kind != "reduce":
            if p.ew is not None and j == len(p.steps) - 1:
                continue                      # the whole rows' step: below
            # a per-row step: every thread computes it from the per-row values
            s, h = _op_source(what[0], f"pr{j}_op")
            funcs.append(s)
            helpers += [x for x in h if x not in helpers]
            body.append(f"pr{j} = pr{j}_op({', '.join(src(s, 0) for s in srcs)})")
            for o, d in enumerate(what[1]):
                y = f"pr{j}" if len(what[1]) == 1 else f"pr{j}[{o}]"
                cd = compute_dtype(d)
                rv[j, o] = f"rv{j}_{o}"
                y = cast_expr(cast_expr(y, cd, d), d, cd) if cd != d else y   # (as stored)
                body.append(f"rv{j}_{o} = {y}")
                if (j, o) in stored_at:
                    body.append(f"if tid == 0:\n{P}out{stored_at[j, o]}[row, uint64(0)] = "
                                f"{cast_expr(rv[j, o], cd, d) if cd != d else rv[j, o]}")
            continue
        spec = what.spec
        pre = f"r{j}_"
        spec_src = _prefixed(spec.device_source(), pre)
        funcs.append(spec_src)
        # value u's lines, emitted just before the fold takes it: a value the later steps do
        # not read is dead once folded (log_softmax's exp(x - shift): computing every value
        # first kept 32 more registers live and spilled)
        vals = []
        if what.op is None:
            for u in range(vpt):
                vals.append([f"x{j}_{u} = "
                             f"{_t.as_input(spec, src(srcs[0], u), compute_dtype(what.a_dtype))}"])
        else:
            extra = _elementwise_op(what.op, f"m{j}_map", srcs, src, per_row, given, funcs,
                                    helpers, body)
            for u in range(vpt):
                vals.append([f"mv{j}_{u} = m{j}_map({', '.join(src(s, u) for s in srcs)}"
                             f"{extra(u)})",
                             f"x{j}_{u} = {_t.as_input(spec, f'mv{j}_{u}', what.a_dtype)}"])
            t = _returned_name(what.op, what.a_dtype)
            if t is not None:
                given[t] = f"mv{j}_{{u}}"
        qs = [f"q{q0 + i}" for i in range(len(what.post_args))]
        q0 += len(what.post_args)
        if _var_spec(spec):
            w = spec.state[1]
            aux_w = _sum_spec(w)
            aux_f = _sum_spec(_F64)
            funcs.append(_prefixed(aux_w.device_source(), f"r{j}a_"))
            funcs.append(_prefixed(aux_f.device_source(), f"r{j}b_"))
            body += [x for v in vals for x in v]         # (read twice: the mean, then M2)
            body += _fold(aux_w, f"r{j}a_", [f"s{j}a"], [f"x{j}_{u}" for u in range(vpt)], exact,
                          vpt)
            body += _reduce_block(aux_w, f"r{j}a_", [f"s{j}a"], f"{j}a", block, shared)
            body.append(f"n{j}_ = float64(m)")
            body += _broadcast(f"mu{j}_", f"s{j}a / n{j}_", w, shared)
            dev = []
            for u in range(vpt):
                body.append(f"d{j}_{u} = x{j}_{u} - mu{j}_")
                sq = (f"d{j}_{u}.real * d{j}_{u}.real + d{j}_{u}.imag * d{j}_{u}.imag"
                      if w.kind == "c" else f"d{j}_{u} * d{j}_{u}")
                body.append(f"e{j}_{u} = float64({sq})")
                dev.append(f"e{j}_{u}")
            body += _fold(aux_f, f"r{j}b_", [f"s{j}b"], dev, exact, vpt)
            body += _reduce_block(aux_f, f"r{j}b_", [f"s{j}b"], f"{j}b", block, shared)
            post = f"{pre}red_post(n{j}_, mu{j}_, s{j}b, m{''.join(', ' + q for q in qs)})"
        else:
            S = [f"s{j}_{c}" for c in range(spec.k)]
            body += _fold(spec, pre, S, [f"x{j}_{u}" for u in range(vpt)], exact, vpt, vals)
            body += _reduce_block(spec, pre, S, str(j), block, shared)
            post = f"{pre}red_post({', '.join(S + ['m'] + qs)})"
        od, st = spec.out_dtype, what.out_dtype
        stored = cast_expr(cast_expr(post, compute_dtype(od), od), od, st)
        cst = compute_dtype(st)
        body += _broadcast(f"rv{j}", cast_expr(stored, st, cst) if cst != st else stored, cst,
                           shared)
        rv[j, 0] = f"rv{j}"
        if (j, 0) in stored_at:                 # a returned reduction: its per-row value
            body.append(f"if tid == 0:\n{P}out{stored_at[j, 0]}[row, uint64(0)] = "
                        f"{cast_expr(rv[j, 0], cst, st) if cst != st else rv[j, 0]}")
    if p.ew is not None:
        # the elementwise step: every element of the row
        op, odts, _, loop_in = p.ew
        srcs = p.steps[-1][2]
        extra = _elementwise_op(op, "ep_op", srcs, src, per_row, given, funcs, helpers, body)
        for u in range(vpt):
            el = [f"y_{u} = ep_op({', '.join(src(s, u) for s in srcs)}{extra(u)})"]
            for o, d in enumerate(odts):
                y = f"y_{u}" if nout == 1 else f"y_{u}[{o}]"
                el.append(f"out{o}[row, uint64(j{u})] = {cast_expr(y, compute_dtype(d), d)}")
            body.append("\n".join(el) if exact else
                        f"if j{u} < m:\n" + "\n".join(P + x for x in el))
    # the row loop
    L += [P + x for x in shared]
    L.append(f"{P}while b < nrow:")
    L.append(f"{P2}row = uint64(b)")
    for u in range(vpt):
        L.append(f"{P2}j{u} = tid + {u * block}")
    for line in body:
        L += [P2 + x for x in line.split("\n")]
    L.append(f"{P2}b += gd")
    text = "\n\n".join(["@cuda.jit(device=True)\n" + h.strip("\n") + "\n" for h in helpers]
                       + ["@cuda.jit(device=True)\n" + f.strip("\n") + "\n" if
                          not f.lstrip().startswith("@") else f for f in funcs]
                       + ["\n".join(L) + "\n"])
    name = f"fuse_rows_{hashlib.sha1(text.encode()).hexdigest()[:10]}"
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("scalar", _I64), Param("scalar", _I64)]
    params += [Param("scalar", compute_dtype(d)) for d in p.scal_dtypes]
    params += [Param("scalar", q) for kind, what, _ in p.steps if kind == "reduce"
               for q in what.spec.post_params]
    odts = [d for _, d in p.out_types()]
    params += [Param("array", d, 2, "C") for d in odts]
    params += [Param("array", d, 2, "C") for d in dts]
    # BLOCKS_PER_SM blocks an SM where they fit in 1024 threads (see VPT_TARGET_GPU)
    return KernelSource(name, text, params,
                        None if _SIM else (block, max(1, min(BLOCKS_PER_SM, 1024 // block))))


def _sum_spec(w):
    return _t.ReduceSpec(("rowsum",), w, (w,), (_t.literal(0, w),), "x", "a0 + b0", "a0", w)


def _fold(spec, pre, S, xs, exact, vpt, before=None):
    """Lines folding this thread's values ``xs`` (value u valid when ``j{u} < m``) into S;
    ``before[u]``: lines computing value u, put just before it is folded."""
    k = spec.k
    lines = [f"{S[c]} = {spec.identity[c]}" for c in range(k)]
    before = before or [[] for _ in xs]
    for u, x in enumerate(xs):
        lines += before[u]
        T = [f"{pre}t{c}" for c in range(k)]
        step = [f"{', '.join(T)} = {pre}red_pre_t({x}, j{u})",
                f"{', '.join(S)} = {pre}red_comb_t({', '.join(S + T)})"]
        if exact:
            lines += step
        else:
            lines.append(f"if j{u} < m:")
            lines += ["    " + s for s in step]
    return lines


def _broadcast(name, value, dt, shared):
    """Lines giving every thread ``name`` = ``value`` as thread 0 computes it."""
    shared.append(f"{name}sh = cuda.shared.array(1, {type_name(dt)})")
    return ["if tid == 0:", f"    {name}sh[0] = {value}", "cuda.syncthreads()",
            f"{name} = {name}sh[0]"]


def _reduce_block(spec, pre, S, tag, block, shared):
    """The template's block reduction of S (thread 0 ends with the row's state)."""
    def comb(dst, a, b, pad):
        return [f"{pad}{', '.join(dst)} = {pre}red_comb_t({', '.join(list(a) + list(b))})"]
    lines = _t._block_reduce(spec, S, block, _SIM, "", comb)
    ren = lambda t: re.sub(r"\bo(\d+)_", rf"o{tag}_\1_", re.sub(r"\bsh(\d+)\b", rf"sh{tag}_\1", t))
    for c, s in enumerate(spec.state):
        n = block if (_SIM or block < 64) else block // 32
        shared.append(f"sh{tag}_{c} = cuda.shared.array({n}, {type_name(s)})")
    return [ren(x) for x in lines]
