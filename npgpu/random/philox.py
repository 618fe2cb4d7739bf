"""Philox4x32-10 and the variate sources every random kernel builds on, as device-function source.

The stream (what ``docs/random.md`` promises):

* A bit generator is a 64-bit key ``(k0, k1)`` and a 128-bit counter ``C``.  Philox4x32-10 of
  key and counter ``X`` gives a *block* of four 32-bit words.
* A request of ``n`` elements taking ``per`` elements from one block (4 for 32-bit outputs, 2 for
  64-bit ones, 1 for samplers that consume a stream of words) reserves ``ceil(n / per)``
  blocks, ``C`` .. ``C + blocks - 1``, and advances ``C`` past them.
* Element ``i`` is lane ``l = i % per`` of block ``b = i // per``: a thread computes one block
  and writes its ``per`` consecutive elements (one 16-byte store for float32 and float64), and
  the numbers depend neither on the launch shape nor on how a request is split at multiples
  of ``per``.  (Before 2026-12-03 a warp's 32 blocks were interleaved, element ``i`` in block
  ``32 * (i // (32 * per)) + i % 32``, for 4-byte stores; a write-only kernel needs wide
  stores to reach the write rate.)
* Draw ``j`` of block ``b`` is Philox of counter ``C + b + j * 2**64``: ``j = 0`` is the block
  itself; a rejected lane redraws from ``j = 1, 2, ...`` (its own words of those blocks), and
  a per-element sampler (``per = 1``) reads its words from ``j = 0, 1, ...`` in order: its own
  sub-stream, never shared with another element or request.

Each function here is a ``def`` that :data:`HELPERS` renders as a Numba device function.
Integer arithmetic is written for Numba's typing on the GPU (any arithmetic on two integers is at
least 64 bits wide, ``uint64`` mixed with a signed value becomes ``float64``), so every literal
next to a ``uint64`` is wrapped in ``uint64(...)``; the simulator computes the same bits with
NumPy scalars.
"""
import os

from ..ufuncs.helpers import LOGNORMAL_F32, SINPI_F32

# Random123's Philox4x32 constants: round multipliers and the Weyl key increments
M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
ROUNDS = 10


# Each round's two 32x32->64 products: one ``ptx.mul_wide_u32`` each (one IMAD.WIDE.U32:
# 20 multiply instructions a block).  NPGPU_RANDOM_MULWIDE=0 takes the former form, libdevice's
# umulhi plus a 32-bit multiply (IMAD.HI + IMAD: 40), for A/B runs; the words are the same.
MUL_WIDE = os.environ.get("NPGPU_RANDOM_MULWIDE", "1") != "0"


def _philox_source():
    lines = ["def philox(c0, c1, c2, c3, k0, k1):",
             "    # 10 rounds (a 64-bit product split by shifts compiles to IMAD.WIDE.U32 plus a",
             "    # redundant IMAD for the low half: hence the PTX instruction)"]
    for r in range(ROUNDS):
        if r:
            lines += [f"    k0 = uint32(k0 + uint32({W0}))",
                      f"    k1 = uint32(k1 + uint32({W1}))"]
        if MUL_WIDE:
            lines += [f"    l0, h0 = ptx.mul_wide_u32(c0, uint32({M0}))",
                      f"    l1, h1 = ptx.mul_wide_u32(c2, uint32({M1}))"]
        else:
            lines += [f"    h0 = uint32(libdevice.umulhi(c0, uint32({M0})))",
                      f"    h1 = uint32(libdevice.umulhi(c2, uint32({M1})))",
                      f"    l0 = uint32(c0 * uint32({M0}))",
                      f"    l1 = uint32(c2 * uint32({M1}))"]
        lines += ["    c0 = uint32(h1 ^ c1 ^ k0)",
                  "    c1 = l1",
                  "    c2 = uint32(h0 ^ c3 ^ k1)",
                  "    c3 = l0"]
    lines.append("    return c0, c1, c2, c3")
    return "\n".join(lines) + "\n"


PHILOX = _philox_source()

# block b, draw j of a request at counter (clo, chi): counter C + b + j * 2**64 (b, j: uint64)
BLOCK = """
def block(k0, k1, clo, chi, b, j):
    lo = clo + b
    hi = chi + j + (uint64(1) if lo < clo else uint64(0))
    return philox(uint32(lo), uint32(lo >> uint64(32)), uint32(hi), uint32(hi >> uint64(32)),
                  k0, k1)
"""

# --- a per-element word stream: st is a local uint64[6] ----------------------------------
# st[0], st[1]: the element's counter (C + b, low and high 64 bits); st[2]: the key (k0 | k1 << 32)
# st[3]: the next draw j; st[4]: words used of the buffered block; st[5], st[6]: its four words
STREAM = """
def st_init(st, key, clo, chi, b):
    lo = clo + b
    st[0] = lo
    st[1] = chi + (uint64(1) if lo < clo else uint64(0))
    st[2] = key
    st[3] = uint64(0)
    st[4] = uint64(4)


def next_u32(st):
    pos = st[4]
    if pos >= uint64(4):
        hi = st[1] + st[3]
        r0, r1, r2, r3 = philox(uint32(st[0]), uint32(st[0] >> uint64(32)), uint32(hi),
                                uint32(hi >> uint64(32)), uint32(st[2]),
                                uint32(st[2] >> uint64(32)))
        st[5] = uint64(r0) | (uint64(r1) << uint64(32))
        st[6] = uint64(r2) | (uint64(r3) << uint64(32))
        st[3] = st[3] + uint64(1)
        pos = uint64(0)
    # constant indices only: the stream can live in registers, not local memory
    w = st[5] if pos < uint64(2) else st[6]
    st[4] = pos + uint64(1)
    return uint32(w >> (uint64(32) * (pos & uint64(1))))


def next_u64(st):
    hi = uint64(next_u32(st))
    return (hi << uint64(32)) | uint64(next_u32(st))


def next_double(st):
    # [0, 1): 53 random bits
    return float64(next_u64(st) >> uint64(11)) * 1.1102230246251565e-16


def next_open(st):
    # (0, 1): the midpoint of one of 2**53 equal cells
    return (float64(next_u64(st) >> uint64(11)) + 0.5) * 1.1102230246251565e-16


def next_normal(st):
    # Box-Muller; one of the pair (a sampler's draws are independent of each other)
    r = math.sqrt(-2.0 * math.log(next_open(st)))
    return r * libdevice.sincospi(2.0 * next_double(st))[1]


def next_exp(st):
    return -math.log(next_open(st))
"""

# --- the lane sources: a block's four words -> per base variates --------------------------
# 32-bit uniform [0, 1): 24 bits; 64-bit: two words, 53 bits.  "open" variants are cell
# midpoints in (0, 1), safe for log on both ends.
LANES = """
def u01_f32(x):
    return float32(x >> uint32(8)) * float32(5.9604644775390625e-08)


def open_f32(x):
    return (float32(x >> uint32(8)) + float32(0.5)) * float32(5.9604644775390625e-08)


def u01_f64(a, b):
    # k * 2**-53 for the top 53 bits k, without a uint64-to-double conversion (a slow-pipe
    # instruction): 1 + (k >> 1) 2**-52 by its bits, less 1 (exact), plus k's low bit's 2**-53
    # (exact: the sum k 2**-53 is a double) -- the same value as float64(k) * 2**-53
    x = (uint64(a) << uint64(32)) | uint64(b)
    h = libdevice.longlong_as_double(int64(uint64(0x3FF0000000000000) | (x >> uint64(12))))
    return (h - 1.0) + (1.1102230246251565e-16 if (x & uint64(2048)) else 0.0)


def open_f64(a, b):
    # (k + 0.5) * 2**-53 rounded once, as (float64(k) + 0.5) * 2**-53: u01_f64's exact
    # k 2**-53 plus 2**-54, one rounding
    return u01_f64(a, b) + 5.551115123125783e-17



"""

# --- unbiased bounded integers (Lemire's multiply-and-reject) -------------------------------
# m: the number of values (1 .. 2**32, or 1 .. 2**64 as uint64 with 0 meaning 2**64).
# A rejected lane redraws from draws j = 1, 2, ... of its block, its own word(s) of each.
BOUNDED = """
def bounded32(x, m, k0, k1, clo, chi, b, lane):
    if m == uint64(4294967296):
        return uint64(x)
    p = uint64(x) * m
    lo = p & uint64(0xffffffff)
    if lo < m:
        t = (uint64(4294967296) - m) % m
        j = uint64(1)
        while lo < t:
            w = block(k0, k1, clo, chi, b, j)
            p = uint64(w[lane]) * m
            lo = p & uint64(0xffffffff)
            j += uint64(1)
    return p >> uint64(32)


def mulhi64(a, b):
    mask = uint64(0xffffffff)
    a0 = a & mask
    a1 = a >> uint64(32)
    b0 = b & mask
    b1 = b >> uint64(32)
    p00 = a0 * b0
    p01 = a0 * b1
    p10 = a1 * b0
    mid = (p00 >> uint64(32)) + (p01 & mask) + (p10 & mask)
    return a1 * b1 + (p01 >> uint64(32)) + (p10 >> uint64(32)) + (mid >> uint64(32))


def bounded64(hi, lo, m, k0, k1, clo, chi, b, lane):
    x = (uint64(hi) << uint64(32)) | uint64(lo)
    if m == uint64(0):
        return x
    low = x * m
    if low < m:
        t = (uint64(0) - m) % m
        j = uint64(1)
        while low < t:
            w = block(k0, k1, clo, chi, b, j)
            x = (uint64(w[2 * lane]) << uint64(32)) | uint64(w[2 * lane + 1])
            low = x * m
            j += uint64(1)
    return mulhi64(x, m)
"""

# BOX_MULLER_F32: float32 Box-Muller for the arguments these words give: u = (k + 0.5) 2**-24 is
# normal, positive and below 1, the angle pi x with x = 2v = k 2**-23 in [0, 2).
# - log: libdevice's logf step for step less its zero, negative, subnormal and inf cases
#   (``h_lognormal_f32``, shared with npgpu.ufuncs.helpers); sqrt.approx.ftz (one MUFU.SQRT,
#   within 1 ulp: the IEEE sqrt's Newton steps and slow-path test were ~7% of the kernel's
#   instructions).
# - sin and cos by half turns: x = j + t, |t| <= 1/2 (t exact), sin(pi x) = (-1)**j sin(pi t),
#   cos(pi x) = (-1)**j sin(pi (1/2 - |t|)): one odd polynomial (``h_sinpi_f32``, shared with
#   npgpu.ufuncs.helpers) for both and the sign on r.  libdevice's sincospif reduces by
#   quarter turns and picks sin or cos and each one's sign by the quadrant: ~11 integer-pipe
#   instructions a pair against 4 here, ~6 fewer float ones.  H200 (2026-12-04, alternating
#   processes, 2^28): 449-451 us against 471-473 us (CuPy 456-462); the kernel issues
#   instructions, its integer (ALU) pipe the busiest (Nsight Compute: 56% against 46% FMA).
# Within 4 ulp of r cos, r sin in long double (tests/test_random.py).
# NPGPU_RANDOM_BOXMULLER=libdevice takes libdevice's calls (both dtypes), for A/B runs.
BOX_MULLER_F32_LIBDEVICE = """
def box_muller_f32(a, b):
    # sincospi of 2u: exact argument, a cheap exact range reduction (no Payne-Hanek path)
    r = float32(math.sqrt(float32(-2.0) * float32(math.log(open_f32(a)))))
    s, c = libdevice.sincospif(float32(2.0) * u01_f32(b))
    return r * float32(c), r * float32(s)
"""

BOX_MULLER_F32_FAST = """
def box_muller_f32(a, b):
    # u = (k + 0.5) 2**-24, one rounding as open_f32's; fma: cuda.fma (one rounding on the GPU)
    u = cuda.fma(float32(a >> uint32(8)), float32(5.9604644775390625e-08),
                 float32(2.9802322387695312e-08))
    lg = h_lognormal_f32(u)
    r = ptx.sqrt_approx(lg * float32(-2.0))
    # x = k 2**-23; j = rint(x) by the 1.5 * 2**23 shift (its low bit: the sign), t = x - j
    k = float32(b >> uint32(8))
    m = cuda.fma(k, float32(1.1920928955078125e-07), float32(12582912.0))
    j = libdevice.float_as_int(m)
    t = cuda.fma(k, float32(1.1920928955078125e-07), float32(12582912.0) - m)
    w = float32(0.5) - abs(t)
    r = libdevice.int_as_float(int32(libdevice.float_as_int(r)
                                     ^ int32(int32(j << int32(31)))))
    return r * h_sinpi_f32(w), r * h_sinpi_f32(t)
""" + SINPI_F32 + LOGNORMAL_F32

BOX_MULLER_F64_LIBDEVICE = """
def box_muller_f64(a, b, c, d):
    r = math.sqrt(-2.0 * math.log(open_f64(a, b)))
    s, co = libdevice.sincospi(2.0 * u01_f64(c, d))
    return r * co, r * s
"""

# BOX_MULLER_F64_FAST: float64 Box-Muller on npgpu's own log and sincos, for the arguments these
# words give: u = (k + 0.5) 2**-53 is normal, positive and below 1, and the angle 2 pi v with
# v = k 2**-53 in [0, 1).  libdevice's log tests for zero, subnormal, inf and NaN input (a
# scaling and a branch), its sincospi rounds, converts to a 64-bit integer (slow pipe) and tests
# for integer arguments: ~30 of the kernel's instructions a pair that never change a result.
# Polynomials: Chebyshev fits (mpmath, 60 digits) to the functions named, each within 5e-16 of
# its relative size on its interval; the result within ~1 ulp of the correctly rounded value.
# H200 (2026-12-04, alternating processes, 2^27): 533-549 us against 650-672 us with libdevice's
# calls (CuPy 625-634); the loop 187 SASS instructions against 253.
BOX_MULLER_F64_FAST = """
def box_muller_f64(a, b, c, d):
    # log u = e ln2 + log1p(f), u = (1 + f) 2**e with 1 + f in [sqrt(1/2), sqrt(2)):
    # log1p(f) = f - (f**2/2 - s (f**2/2 + R(s**2))), s = f / (2 + f), R(z) = 2 atanh(sqrt z)
    # / sqrt z - 2 (the exact f carries the result; s and R only a correction below 1%)
    u = open_f64(a, b)
    ub = libdevice.double_as_longlong(u)
    e = int32(int32(int32(ub >> int64(32)) - int32(0x3FE6A09E)) >> int32(20))
    f = libdevice.longlong_as_double(ub - (int64(e) << int64(52))) - 1.0      # exact
    q = 2.0 + f
    y = ptx.rcp_approx_f64(q)
    h = cuda.fma(-q, y, 1.0)
    y = cuda.fma(y, cuda.fma(h, h, h), y)           # cubic Newton step: 1/q within an ulp
    s = f * y
    z = s * s
    p = cuda.fma(z, 0.14619343453512615, 0.15331487235865734)
    p = cuda.fma(z, p, 0.18182896183483085)
    p = cuda.fma(z, p, 0.2222221103781659)
    p = cuda.fma(z, p, 0.28571428626570206)
    p = cuda.fma(z, p, 0.3999999999989819)
    p = cuda.fma(z, p, 0.666666666666667)
    hf = 0.5 * f * f
    ef = float64(e)
    # ln2 in two parts: e times the first is exact (its low 32 bits are zero)
    lg = cuda.fma(ef, 0.6931471803691238, f - (hf - cuda.fma(s, cuda.fma(z, p, hf),
                                                               ef * 1.9082149292705877e-10)))
    r = math.sqrt(-2.0 * lg)
    # sin and cos of 2 pi v: j = rint(4 v) by the 1.5 * 2**52 shift (4 v exact; its low bits
    # are the quadrant), t = v - j/4 exact in [-1/8, 1/8]; sin(2 pi t) = t P(t**2),
    # cos(2 pi t) = Q(t**2)
    v = u01_f64(c, d)
    m = cuda.fma(v, 4.0, 6755399441055744.0)
    j = int32(libdevice.double_as_longlong(m))
    t = cuda.fma(m - 6755399441055744.0, -0.25, v)
    z = t * t
    ps = cuda.fma(z, 3.7808689593022957, -15.093804209987114)
    ps = cuda.fma(z, ps, 42.058685020160894)
    ps = cuda.fma(z, ps, -76.70585970427454)
    ps = cuda.fma(z, ps, 81.60524927594804)
    ps = cuda.fma(z, ps, -41.341702240399634)
    ps = t * cuda.fma(z, ps, 6.283185307179586)
    pc = cuda.fma(z, -1.6968494702918826, 7.903091687751697)
    pc = cuda.fma(z, pc, -26.426250908622137)
    pc = cuda.fma(z, pc, 60.244641328867296)
    pc = cuda.fma(z, pc, -85.45681720652271)
    pc = cuda.fma(z, pc, 64.93939402266795)
    pc = cuda.fma(z, pc, -19.739208802178716)
    pc = cuda.fma(z, pc, 1.0)
    odd = (j & int32(1)) != int32(0)
    sn = pc if odd else ps
    cs = ps if odd else pc
    # the quadrant's signs as sign bits: sin negative when j & 2, cos when (j + 1) & 2
    sn = libdevice.longlong_as_double(libdevice.double_as_longlong(sn)
                                      ^ ((int64(j) << int64(62)) & int64(-9223372036854775808)))
    cs = libdevice.longlong_as_double(libdevice.double_as_longlong(cs)
                                      ^ ((int64(j + int32(1)) << int64(62))
                                         & int64(-9223372036854775808)))
    return r * cs, r * sn
"""


def _box_muller():
    if os.environ.get("NPGPU_RANDOM_BOXMULLER") == "libdevice":
        return BOX_MULLER_F32_LIBDEVICE + BOX_MULLER_F64_LIBDEVICE
    return BOX_MULLER_F32_FAST + BOX_MULLER_F64_FAST


HELPERS = (PHILOX, BLOCK, STREAM, LANES, _box_muller(), BOUNDED)
