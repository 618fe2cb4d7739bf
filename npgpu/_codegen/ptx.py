"""PTX instructions Numba has no name for, callable from generated kernels as ``ptx.<name>``.

On the GPU each is a Numba intrinsic emitting one ``asm volatile`` instruction (volatile, so
LLVM neither merges nor deletes it: a spin loop re-reading a status stays a loop).  On the
simulator each is a plain Python stand-in with the same meaning for one thread.

* ``load_relaxed(a, i)``: ``a[i]`` of a 1-D uint64 array as ``ld.relaxed.gpu`` -- read from
  the GPU's coherence point (L2), never a stale L1 line, without the atomic unit's
  serialisation of an ``atomic.or_(a, i, 0)``.
* ``store_relaxed(a, i, v)``: ``a[i] = v`` as ``st.relaxed.gpu`` (single-copy atomic 8 bytes).
* ``globaltimer()``: the GPU's nanosecond clock (``%globaltimer``, one clock for all SMs), for
  tracing kernels.
"""
from .. import _backend

__all__ = ["load_relaxed", "store_relaxed", "globaltimer"]

if _backend.IS_SIM:
    import time

    def load_relaxed(a, i):
        return a[i]

    def store_relaxed(a, i, v):
        a[i] = v

    def globaltimer():
        return time.perf_counter_ns()

else:
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.cuda.extending import intrinsic

    def _u64_vector(a):
        return isinstance(a, types.Array) and a.ndim == 1 and a.dtype == types.uint64

    def _item_pointer(context, builder, aty, ity, a, i):
        ary = context.make_array(aty)(context, builder, a)
        idx = context.cast(builder, i, ity, types.intp)
        return cgutils.get_item_pointer(context, builder, aty, ary, [idx], wraparound=False)

    @intrinsic
    def load_relaxed(typingctx, a, i):
        if not (_u64_vector(a) and isinstance(i, types.Integer)):
            return None

        def codegen(context, builder, sig, args):
            ptr = _item_pointer(context, builder, sig.args[0], sig.args[1], *args)
            fnty = ir.FunctionType(ir.IntType(64), [ptr.type])
            asm = ir.InlineAsm(fnty, "ld.relaxed.gpu.u64 $0, [$1];", "=l,l,~{memory}",
                               side_effect=True)
            return builder.call(asm, [ptr])
        return types.uint64(a, i), codegen

    @intrinsic
    def store_relaxed(typingctx, a, i, v):
        if not (_u64_vector(a) and isinstance(i, types.Integer) and v == types.uint64):
            return None

        def codegen(context, builder, sig, args):
            ptr = _item_pointer(context, builder, sig.args[0], sig.args[1], args[0], args[1])
            fnty = ir.FunctionType(ir.VoidType(), [ptr.type, ir.IntType(64)])
            asm = ir.InlineAsm(fnty, "st.relaxed.gpu.u64 [$0], $1;", "l,l,~{memory}",
                               side_effect=True)
            builder.call(asm, [ptr, args[2]])
            return context.get_dummy_value()
        return types.none(a, i, v), codegen

    @intrinsic
    def globaltimer(typingctx):
        def codegen(context, builder, sig, args):
            fnty = ir.FunctionType(ir.IntType(64), [])
            asm = ir.InlineAsm(fnty, "mov.u64 $0, %globaltimer;", "=l", side_effect=True)
            return builder.call(asm, [])
        return types.uint64(), codegen
