"""Reductions inside ``@npgpu.fuse``: the elementwise work before a reduction is its map step.

``npgpu.sum((a - b) ** 2)`` inside a fused function runs npgpu's own ``sum`` (NumPy's
argument handling, result dtype, spec); when the reduction template is about to read its
input, :meth:`_Trace.reduce_into <npgpu.fusion.trace._Trace.reduce_into>` hands it the
traced value's lines as a :class:`~npgpu.reductions.template.MapStep` over the arrays they
read.  One reduction launch (two for long rows: split states, then the same template) reads
``a`` and ``b`` once; the result is a real array, which later steps read as an input.
"""
import numpy as np

from .._codegen import elementwise as _ew
from .._core.ndarray import empty_array, ndarray
from .._core.transfer import from_host
from ..reductions import reduce as _r
from ..reductions.template import MapStep
from .trace import _NAME, _Var, _Trace, _launch_count


def _broadcast_view(x, shape):
    st = _ew.broadcast_strides(x.shape, x._strides, shape)
    return x._view(0, tuple(shape), tuple(st))


def reduce_into(self, spec, a, axes, out, *, keepdims=False, mask=None, initial=None,
                post_args=(), seed_first=False):
    """Reduce the traced value ``a`` over ``axes`` into ``out`` with ``spec``; ``out`` then
    stands for a traced value (:meth:`_Trace.traced_result`)."""
    if isinstance(a, ndarray):              # an earlier reduction's result
        a = self._lift(a)
    self.pure = False
    self.reductions += 1
    if isinstance(mask, _Var):
        mask = self.array_of(mask)
    m = _NAME.fullmatch(a.expr) if a.expr else None
    direct = m and m.group(1) == "x" and isinstance(self.slots[int(m.group(2))], ndarray)
    if mask is not None or initial is not None:
        self.recordable = False              # (replays record neither)
    if a.dtype is None or direct and self.slots[int(m.group(2))].dtype == a.dtype:
        return _direct(self, spec, a, axes, out, keepdims, mask, initial, post_args, seed_first)
    cd = _ew.compute_dtype(a.dtype)
    op, slots, flagged, neg = self.scalar_op([_ew.cast_expr(a.expr, cd, a.dtype)], [a.dtype],
                                             kind="fuse_map")
    if flagged or neg:
        # NumPy's negative-exponent error needs the elementwise kernel's flag: run it apart
        return _direct(self, spec, a, axes, out, keepdims, mask, initial, post_args, seed_first)
    kin, loop_in = self.kernel_inputs(slots)
    ins = []
    for x, dt in zip(kin, loop_in):
        if not isinstance(x, ndarray):       # a scalar parameter: a 0-d array, broadcast
            x = from_host(np.asarray(x, dtype=dt))
        ins.append(_broadcast_view(x, a.shape))
    # the first input decides the thread mapping: one with no broadcast dims, if any
    order = sorted(range(len(ins)), key=lambda i: 0 in ins[i]._strides and ins[i].size > 1)
    fmap = map_step(op, [x.dtype for x in ins], a.dtype, order)
    ins = [ins[i] for i in order]
    self.record("reduce", [out], Reduction(spec, axes, keepdims, out, post_args, seed_first,
                                           a.shape, a.dtype, op, fmap, order, loop_in), slots)
    before = _launch_count()
    _r.run_array(spec, ins[0], axes, out, keepdims=keepdims, mask=mask, initial=initial,
                 post_args=post_args, seed_first=seed_first, fmap=fmap, extra=ins[1:])
    self.own_launches += _launch_count() - before
    return self.traced_result(out)


class Reduction:
    """A recorded reduction of a traced value: what a replay (and the row form) needs.

    op/fmap/order/loop_in: the map (None: the value is the array of the step's one slot);
    a_shape/a_dtype: the reduced value's shape and dtype."""

    def __init__(self, spec, axes, keepdims, out, post_args, seed_first, a_shape, a_dtype,
                 op=None, fmap=None, order=None, loop_in=None):
        self.spec, self.axes, self.keepdims = spec, axes, keepdims
        self.out_shape, self.out_dtype = out.shape, out.dtype
        self.post_args, self.seed_first = tuple(post_args), seed_first
        self.a_shape, self.a_dtype = a_shape, a_dtype
        self.op, self.fmap, self.order, self.loop_in = op, fmap, order, loop_in

    def run(self, vals):
        """Launch it over the slot values ``vals`` (arrays, scalars) into a new array."""
        out = empty_array(self.out_shape, self.out_dtype)
        if self.fmap is None:
            _r.run_array(self.spec, vals[0], self.axes, out, keepdims=self.keepdims,
                         post_args=self.post_args, seed_first=self.seed_first)
            return out
        ins = []
        for x, dt in zip(vals, self.loop_in):
            if not isinstance(x, ndarray):
                x = from_host(np.asarray(x, dtype=dt))
            ins.append(_broadcast_view(x, self.a_shape))
        ins = [ins[i] for i in self.order]
        _r.run_array(self.spec, ins[0], self.axes, out, keepdims=self.keepdims,
                     post_args=self.post_args, seed_first=self.seed_first, fmap=self.fmap,
                     extra=ins[1:])
        return out


def _direct(tr, spec, a, axes, out, keepdims, mask, initial, post_args, seed_first):
    """The reduction of a stored array (the value itself, or the array it was written to)."""
    arr = tr.array_of(a)
    if isinstance(arr, ndarray) and a.expr and _NAME.fullmatch(a.expr):
        tr.record("reduce", [out], Reduction(spec, axes, keepdims, out, post_args, seed_first,
                                             arr.shape, arr.dtype), [int(a.expr[1:])])
    else:
        tr.recordable = False
    before = _launch_count()
    _r.run_array(spec, arr, axes, out, keepdims=keepdims, mask=mask, initial=initial,
                 post_args=post_args, seed_first=seed_first)
    tr.own_launches += _launch_count() - before
    return tr.traced_result(out)


def map_step(op, dtypes, out_dtype, order):
    """The MapStep calling ScalarOp ``op`` (inputs of ``dtypes``) with the template's inputs
    ``in0..`` being ``op``'s inputs ``order[0], order[1]..``."""
    n = len(dtypes)
    args = ", ".join(f"x{i}" for i in range(n))
    call = ", ".join(f"x{order.index(i)}" for i in range(n))
    # (renamed: a reduction spec's helpers may define an ``op`` of their own)
    head, _, tail = op.device_source().rpartition("def op(")
    src = head + "def fz_map(" + tail
    src += f"\n\n@cuda.jit(device=True)\ndef red_map({args}):\n    return fz_map({call})\n"
    return MapStep(op.key + (tuple(order),), src, [dtypes[i] for i in order], out_dtype)


_Trace.reduce_into = reduce_into
