"""Float-to-integer conversions as NumPy's loops give them on x86, for generated kernels.

C leaves a float outside the target's range undefined; NumPy's casts (and SciPy's C loops)
compile to x86's truncating conversion to a 32- or 64-bit register, which answers NaN and
anything out of range with the register's minimum, and narrower targets keep the low bits:
``-3.7`` as uint8 is 253, ``200.5`` as int8 is -56, NaN as int32 is -2**31.  The GPU's
conversion instructions saturate instead (uint8: 0; int8: 127) and turn NaN into 0, so a kernel
converts a float to an integer of at most 2 bytes or int32 through :func:`f2i32_x86`, to
uint32 or int64 through :func:`f2i64_x86`, and to uint64 through :func:`f2u64_x86`, keeping the
low bits.  In range each is a compare pair more than the plain conversion.  (uint32 of NaN
and of values below -2**31 still differs: NumPy's loop for it takes another sequence.)
"""
from numba import cuda
from numba.cuda.types import int32, int64, uint64


@cuda.jit(device=True)
def f2i32_x86(x):
    if -2147483648.0 <= x < 2147483648.0:
        return int32(x)
    return int32(-2147483648)


@cuda.jit(device=True)
def f2i64_x86(x):
    if -9223372036854775808.0 <= x < 9223372036854775808.0:
        return int64(x)
    return int64(-9223372036854775808)


@cuda.jit(device=True)
def f2u64_x86(x):
    if x >= 9223372036854775808.0:
        if x < 18446744073709551616.0:
            return uint64(x)
        return uint64(0)
    return uint64(f2i64_x86(x))
