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
* ``mul_wide_u32(a, b)``: ``(lo, hi)`` uint32 halves of the 64-bit product of two uint32, as
  one ``mul.wide.u32`` (pure, not volatile): ptxas makes it one ``IMAD.WIDE.U32``, where
  ``umulhi`` plus a 32-bit multiply is an ``IMAD.HI`` and an ``IMAD``, and a 64-bit product of
  zero-extended words an ``IMAD.WIDE.U32`` plus a redundant ``IMAD`` for the low half.
* ``rcp_approx(x)``: float32 ``1/x`` as ``rcp.approx.ftz.f32`` (pure): one ``MUFU.RCP``, within
  1 ulp for normal ``x`` (subnormal ``x`` flushed).  For divisors known to be normal, refined by
  a Newton step (npgpu/ufuncs/helpers.py's ``h_expit_f32``); libdevice's ``fast_fdividef``
  wraps the same instruction in subnormal-divisor guards (five more instructions).
* ``rcp_approx_f64(x)``: float64 ``1/x`` as ``rcp.approx.ftz.f64`` (pure): one ``MUFU.RCP64H``,
  a seed of about 20 bits that the caller refines (one cubic Newton step, three fmas, gives a
  double within an ulp); ``1.0 / x`` is the correctly rounded division, the same seed with
  more steps and a test and call for a slow path.
* ``rsqrt_approx(x)``: float32 ``1/sqrt(x)`` as ``rsqrt.approx.ftz.f32`` (pure): one
  ``MUFU.RSQ`` (PTX ISA: relative error 2^-22.9), for a caller's Newton step; ``1.0 /
  math.sqrt(x)`` is two correctly rounded operations, ~20 instructions and two slow-path tests.
* ``sqrt_approx(x)``: float32 square root as ``sqrt.approx.ftz.f32`` (pure): one ``MUFU.SQRT``,
  within 1 ulp (PTX ISA: relative error 2^-23) for normal ``x`` (subnormal ``x`` flushed to 0;
  without ``.ftz`` ptxas scales subnormals around it: three more instructions), where
  ``math.sqrt`` is the correctly rounded one: ``MUFU.RSQ``, Newton steps and a call to a slow
  path for subnormals, ~10 instructions.
* ``load16(a, i)``: ``(a[2 i], a[2 i + 1])`` of a 1-D uint64 array (global or shared) as one
  16-byte load; ``store16(a, i, lo, hi)`` the same store.  The caller guarantees 16-byte
  alignment of ``a[2 i]``.  Plain LLVM vector accesses (not asm): NVVM infers the state space
  and schedules them as ordinary loads (``ld.global.v2.u64`` / ``st.shared.v2.u64``); Numba
  emits no access wider than 8 bytes, and LLVM's vectoriser cannot prove the alignment.
* ``load16_cs(a, i)`` / ``store16_cs(a, i, lo, hi)``: the same in global memory with the
  streaming cache hint (``ld.global.cs.v2.u64`` / ``st.global.cs.v2.u64``: evict first, the
  lines read or written once), as asm with the generic address (global memory's generic and
  global addresses coincide, as CUDA's ``__ldcs``/``__stcs`` assume).
"""
from .. import _backend

__all__ = ["load_relaxed", "store_relaxed", "globaltimer", "mul_wide_u32", "rcp_approx",
           "rcp_approx_f64", "rsqrt_approx", "sqrt_approx", "load16", "store16", "load16_cs",
           "store16_cs"]

if _backend.IS_SIM:
    import time

    def load_relaxed(a, i):
        return a[i]

    def store_relaxed(a, i, v):
        a[i] = v

    def globaltimer():
        return time.perf_counter_ns()

    def mul_wide_u32(a, b):
        import numpy as np
        p = (int(a) & 0xFFFFFFFF) * (int(b) & 0xFFFFFFFF)
        return np.uint32(p & 0xFFFFFFFF), np.uint32(p >> 32)

    def rcp_approx(x):
        import numpy as np
        if abs(x) < 1.1754943508222875e-38:        # .ftz: a subnormal is read as (signed) zero
            return np.float32(np.copysign(np.inf, x))
        return np.float32(1.0 / float(x))

    def rcp_approx_f64(x):
        import numpy as np
        return np.float64(1.0 / float(x)) if x != 0 else np.float64(np.copysign(np.inf, x))

    def rsqrt_approx(x):
        import math
        import numpy as np
        if abs(x) < 1.1754943508222875e-38:        # .ftz: a subnormal is read as zero
            return np.float32(np.inf)
        if x == np.inf:
            return np.float32(0.0)
        return np.float32(1.0 / math.sqrt(float(x))) if x >= 0 else np.float32(np.nan)

    def sqrt_approx(x):
        import math
        import numpy as np
        if abs(x) < 1.1754943508222875e-38:        # .ftz: a subnormal is read as zero
            return np.float32(0.0)
        return np.float32(math.sqrt(float(x))) if x >= 0 else np.float32(np.nan)

    def load16(a, i):
        return a[2 * i], a[2 * i + 1]

    def store16(a, i, lo, hi):
        a[2 * i] = lo
        a[2 * i + 1] = hi

    load16_cs, store16_cs = load16, store16

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

    @intrinsic
    def mul_wide_u32(typingctx, a, b):
        if not (a == types.uint32 and b == types.uint32):
            return None
        ret = types.UniTuple(types.uint32, 2)

        def codegen(context, builder, sig, args):
            i32, i64 = ir.IntType(32), ir.IntType(64)
            asm = ir.InlineAsm(ir.FunctionType(i64, [i32, i32]), "mul.wide.u32 $0, $1, $2;",
                               "=l,r,r")
            p = builder.call(asm, list(args))
            lo = builder.trunc(p, i32)
            hi = builder.trunc(builder.lshr(p, ir.Constant(i64, 32)), i32)
            return context.make_tuple(builder, ret, [lo, hi])
        return ret(a, b), codegen

    def _unary(instruction, nbtype, irtype, reg):
        """An intrinsic of one ``nbtype`` in, one out: the PTX ``instruction`` (pure)."""
        @intrinsic
        def op(typingctx, x):
            if x != nbtype:
                return None

            def codegen(context, builder, sig, args):
                asm = ir.InlineAsm(ir.FunctionType(irtype, [irtype]),
                                   f"{instruction} $0, $1;", f"={reg},{reg}")
                return builder.call(asm, list(args))
            return nbtype(x), codegen
        return op

    rcp_approx = _unary("rcp.approx.ftz.f32", types.float32, ir.FloatType(), "f")
    sqrt_approx = _unary("sqrt.approx.ftz.f32", types.float32, ir.FloatType(), "f")
    rcp_approx_f64 = _unary("rcp.approx.ftz.f64", types.float64, ir.DoubleType(), "d")
    rsqrt_approx = _unary("rsqrt.approx.ftz.f32", types.float32, ir.FloatType(), "f")

    def _v2_pointer(context, builder, sig, args):
        """A ``<2 x i64>*`` at element ``2 i`` of the uint64 array ``args[0]``."""
        i = builder.mul(context.cast(builder, args[1], sig.args[1], types.intp),
                        ir.Constant(ir.IntType(64), 2))
        ptr = _item_pointer(context, builder, sig.args[0], types.intp, args[0], i)
        return builder.bitcast(ptr, ir.VectorType(ir.IntType(64), 2).as_pointer())

    def _load16(streaming):
        """16-byte global/shared load intrinsic; ``streaming``: ``ld.global.cs`` asm."""
        def load(typingctx, a, i):
            if not (_u64_vector(a) and isinstance(i, types.Integer)):
                return None
            ret = types.UniTuple(types.uint64, 2)

            def codegen(context, builder, sig, args):
                ptr = _v2_pointer(context, builder, sig, args)
                i32, i64 = ir.IntType(32), ir.IntType(64)
                if streaming:
                    pair = ir.LiteralStructType([i64, i64])
                    asm = ir.InlineAsm(ir.FunctionType(pair, [i64]),
                                       "ld.global.cs.v2.u64 {$0, $1}, [$2];", "=l,=l,l",
                                       side_effect=True)
                    v = builder.call(asm, [builder.ptrtoint(ptr, i64)])
                    parts = [builder.extract_value(v, 0), builder.extract_value(v, 1)]
                else:
                    v = builder.load(ptr, align=16)
                    parts = [builder.extract_element(v, ir.Constant(i32, k)) for k in (0, 1)]
                return context.make_tuple(builder, ret, parts)
            return ret(a, i), codegen
        load.__name__ = load.__qualname__ = "load16_cs" if streaming else "load16"
        return intrinsic(load)

    def _store16(streaming):
        """16-byte global/shared store intrinsic; ``streaming``: ``st.global.cs`` asm."""
        def store(typingctx, a, i, lo, hi):
            if not (_u64_vector(a) and isinstance(i, types.Integer) and lo == types.uint64
                    and hi == types.uint64):
                return None

            def codegen(context, builder, sig, args):
                ptr = _v2_pointer(context, builder, sig, args)
                i32, i64 = ir.IntType(32), ir.IntType(64)
                if streaming:
                    asm = ir.InlineAsm(ir.FunctionType(ir.VoidType(), [i64, i64, i64]),
                                       "st.global.cs.v2.u64 [$0], {$1, $2};", "l,l,l,~{memory}",
                                       side_effect=True)
                    builder.call(asm, [builder.ptrtoint(ptr, i64), args[2], args[3]])
                else:
                    v = ir.Constant(ir.VectorType(i64, 2), ir.Undefined)
                    v = builder.insert_element(v, args[2], ir.Constant(i32, 0))
                    v = builder.insert_element(v, args[3], ir.Constant(i32, 1))
                    builder.store(v, ptr, align=16)
                return context.get_dummy_value()
            return types.none(a, i, lo, hi), codegen
        store.__name__ = store.__qualname__ = "store16_cs" if streaming else "store16"
        return intrinsic(store)

    load16, store16 = _load16(False), _store16(False)
    load16_cs, store16_cs = _load16(True), _store16(True)
