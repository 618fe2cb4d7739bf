"""Stand-in for ``nvmath.bindings.cufft`` on the simulator: the entry points npgpu calls.

Plans follow cuFFT's advanced data layout (``cufftMakePlanMany64``): element ``(b, i0 .. ir-1)``
of the input is at ``b * idist + istride * (i0 * inembed[1] * .. + ir-1)`` (elements of the
input type), the output likewise with ``onembed``/``ostride``/``odist``; R2C outputs and C2R
inputs have ``n[-1] // 2 + 1`` elements along the last dimension.  Arguments cuFFT rejects
raise nvmath's ``cuFFTError`` with cuFFT's status; so do R2C/C2R executions (single or
double) whose input or output stride is not 1, as the device's cuFFT does (it plans them, then
fails the execution with ``CUFFT_INVALID_VALUE``).  ``set_auto_allocation(plan, 0)`` makes an
execution without a work area of the planned size an error, as on the device; the planned
work size is the bytes of one complex intermediate for rank >= 2 and 0 for rank 1, so both
kinds of plan run in CI.  A C2R execution overwrites its input with NaN afterwards (cuFFT
documents that out-of-place C2R may overwrite its input), so callers that rely on the input
surviving fail in CI.

Each transformed dimension is one launch of a direct DFT kernel (:func:`_render`, compiled
by ``_codegen.compiler`` like every npgpu kernel): a thread per output element sums its whole
line in float64 with exact twiddle arguments ``2 pi (k j mod n) / n`` (a quarter-turn count
and an angle of at most pi / 4).  Multi-dimensional plans pass through C-contiguous
temporaries from npgpu's pool: R2C transforms the last dimension first, C2R last, as cuFFT
does.  Streams are accepted and ignored (the simulator runs each launch at once).
"""
import itertools

import numpy as np
from nvmath.bindings.cufft import Result, Type, cuFFTError

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ..._core.copy import copy_into, fill, may_overlap
from ..._core.ndarray import _new, empty_array

_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)
_handles = itertools.count(0x5000)

# cufftType -> (input dtype, output dtype)
DTYPES = {
    int(Type.C2C): (np.dtype(np.complex64), np.dtype(np.complex64)),
    int(Type.Z2Z): (np.dtype(np.complex128), np.dtype(np.complex128)),
    int(Type.R2C): (np.dtype(np.float32), np.dtype(np.complex64)),
    int(Type.D2Z): (np.dtype(np.float64), np.dtype(np.complex128)),
    int(Type.C2R): (np.dtype(np.complex64), np.dtype(np.float32)),
    int(Type.Z2D): (np.dtype(np.complex128), np.dtype(np.float64)),
}
_R2C = (int(Type.R2C), int(Type.D2Z))
_C2R = (int(Type.C2R), int(Type.Z2D))


def _require(ok, status=Result.INVALID_VALUE):
    if not ok:
        raise cuFFTError(int(status))


# ---- the DFT kernel ----------------------------------------------------------------------------
def _render(kind, nd, axis, in_dt, out_dt):
    """One pass: ``Y = DFT(X)`` along ``axis`` of ``nd``-dim views; ``kind`` is ``c2c`` (sign
    from the ``sign`` parameter), ``r2c`` (real X, the first n // 2 + 1 outputs) or ``c2r``
    (X the first n // 2 + 1 terms of a Hermitian line, real Y: the imaginary parts of the
    zero and Nyquist terms are ignored, as cuFFT and pocketfft do)."""
    L = ["def KERNEL(total, n, sign, X, Y):"]
    L += [f"    s{d} = Y.shape[{d}]" for d in range(1, nd)]
    L += ["    idx = cuda.grid(1)", "    step = cuda.gridsize(1)", "    while idx < total:",
          "        rem = idx"]
    for d in range(nd - 1, 0, -1):
        L += [f"        c{d} = rem % s{d}", f"        rem = rem // s{d}"]
    L.append("        c0 = rem")
    L.append(f"        k = c{axis}")
    src = ", ".join("j" if d == axis else f"c{d}" for d in range(nd))
    dst = ", ".join(f"c{d}" for d in range(nd))
    count = "n // 2 + 1" if kind == "c2r" else "n"
    L += ["        re = 0.0", "        im = 0.0", f"        for j in range({count}):",
          "            m = (k * j) % n",
          # 2 pi m / n as q quarter turns plus |a| <= pi / 4 (q and 4 m - q n exact integers):
          # the angle's rounding costs the twiddle under an ulp, where 2 pi m / n rounded
          # near a full turn cost several (round trips past NumPy's 5-ulp tolerance)
          "            q = (8 * m + n) // (2 * n)",
          "            a = 1.5707963267948966 * float64(4 * m - q * n) / float64(n)",
          "            ca = math.cos(a)", "            sa = math.sin(a)", "            q = q % 4",
          "            if q == 0:", "                wr = ca", "                wi = sa",
          "            elif q == 1:", "                wr = -sa", "                wi = ca",
          "            elif q == 2:", "                wr = -ca", "                wi = -sa",
          "            else:", "                wr = sa", "                wi = -ca",
          "            wi = sign * wi",
          f"            v = X[{src}]"]
    if kind == "r2c":
        L += ["            vr = float64(v)", "            re += vr * wr", "            im += vr * wi"]
    elif kind == "c2c":
        L += ["            vr = float64(v.real)", "            vi = float64(v.imag)",
              "            re += vr * wr - vi * wi", "            im += vr * wi + vi * wr"]
    else:
        L += ["            vr = float64(v.real)", "            if j == 0 or 2 * j == n:",
              "                re += vr * wr", "            else:",
              "                re += 2.0 * (vr * wr - float64(v.imag) * wi)"]
    if out_dt.kind == "c":
        L.append(f"        Y[{dst}] = {_ew.type_name(out_dt)}(complex(re, im))")
    else:
        L.append(f"        Y[{dst}] = {_ew.type_name(out_dt)}(re)")
    L.append("        idx += step")
    text = "\n".join(L) + "\n"
    name = _ew._kernel_name(f"fft_dft_{kind}", text)
    params = [Param("scalar", _I64), Param("scalar", _I64), Param("scalar", _F64),
              Param("array", in_dt, nd, "A"), Param("array", out_dt, nd, "A")]
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _values(a):
    return _ew._arr_values(a._ptr, a.shape, a._strides, a.itemsize)


def dft_pass(kind, axis, n, sign, src, dst):
    """Launch one DFT pass from view ``src`` into view ``dst`` (npgpu arrays, any strides)."""
    nd = src.ndim
    key = ("fft_dft", kind, nd, axis, src.dtype, dst.dtype)
    kern = compiler.get_kernel(key, lambda: _render(kind, nd, axis, src.dtype, dst.dtype))
    total = dst.size
    grid, block = _ew._grid(total, 1)
    kern(grid, block, [total, n, float(sign)] + _values(src) + _values(dst))


# ---- plans -------------------------------------------------------------------------------------
class _Plan:
    __slots__ = ("made", "rank", "n", "inembed", "istride", "idist", "onembed", "ostride",
                 "odist", "type", "batch", "work_size", "work", "auto", "stream")

    def __init__(self):
        self.made = False
        self.work = 0
        self.auto = True
        self.stream = 0


class Cufft:
    """The cuFFT entry points npgpu uses (see the module docstring); one instance,
    :data:`CUFFT`.  ``calls`` counts the calls by entry-point name (tests read it)."""

    Result, Type, cuFFTError = Result, Type, cuFFTError

    def __init__(self):
        self._plans = {}
        self.calls = {}

    def _count(self, name):
        self.calls[name] = self.calls.get(name, 0) + 1

    def _plan(self, plan, made=None):
        p = self._plans.get(plan)
        _require(p is not None, Result.INVALID_PLAN)
        if made is not None:
            _require(p.made == made, Result.INVALID_PLAN)
        return p

    # ---- handles -------------------------------------------------------------------------
    def create(self):
        self._count("create")
        h = next(_handles)
        self._plans[h] = _Plan()
        return h

    def destroy(self, plan):
        self._count("destroy")
        self._plan(plan)
        del self._plans[plan]

    def set_auto_allocation(self, plan, auto_allocate):
        self._plan(plan).auto = bool(auto_allocate)

    def set_stream(self, plan, stream):
        self._count("set_stream")
        self._plan(plan).stream = int(stream)

    def set_work_area(self, plan, work_area):
        self._count("set_work_area")
        self._plan(plan).work = int(work_area)

    def make_plan_many64(self, plan, rank, n, inembed, istride, idist, onembed, ostride, odist,
                         type, batch):
        self._count("make_plan_many64")
        p = self._plan(plan, made=False)
        _require(int(type) in DTYPES, Result.INVALID_TYPE)
        _require(1 <= rank <= 3 and len(n) == rank)
        _require(all(int(x) >= 1 for x in n) and batch >= 1, Result.INVALID_SIZE)
        _require(len(inembed) == rank and len(onembed) == rank)
        _require(istride >= 1 and ostride >= 1 and idist >= 0 and odist >= 0)
        p.rank, p.n, p.type, p.batch = rank, tuple(int(x) for x in n), int(type), int(batch)
        p.inembed, p.istride, p.idist = tuple(int(x) for x in inembed), int(istride), int(idist)
        p.onembed, p.ostride, p.odist = tuple(int(x) for x in onembed), int(ostride), int(odist)
        ishape, oshape = self._shapes(p)
        # inner embedding dimensions hold at least the logical lengths
        _require(all(e >= s for e, s in zip(p.inembed[1:], ishape[2:])))
        _require(all(e >= s for e, s in zip(p.onembed[1:], oshape[2:])))
        cplx = ishape if p.type in _C2R else oshape
        csize = DTYPES[p.type][1 if p.type not in _C2R else 0].itemsize
        p.work_size = 0 if rank == 1 else int(np.prod(cplx, dtype=np.int64)) * csize
        p.made = True
        return p.work_size

    @staticmethod
    def _shapes(p):
        """(batch, dims...) of the input and the output of plan ``p``."""
        half = p.n[:-1] + (p.n[-1] // 2 + 1,)
        ins = half if p.type in _C2R else p.n
        outs = half if p.type in _R2C else p.n
        return (p.batch,) + ins, (p.batch,) + outs

    @staticmethod
    def _view(ptr, shape, embed, stride, dist, dt):
        st = [0] * len(shape)
        st[0] = dist * dt.itemsize
        inner = stride
        for d in range(len(shape) - 1, 0, -1):
            st[d] = inner * dt.itemsize
            inner *= embed[d - 1]
        return _new(None, ptr, shape, tuple(st), dt)

    # ---- execution -----------------------------------------------------------------------
    def _exec(self, plan, types, idata, odata, sign):
        p = self._plan(plan, made=True)
        _require(p.type in types and idata != 0 and odata != 0)
        _require(p.auto or p.work_size == 0 or p.work != 0)
        # cuFFT's real transforms take only unit-stride layouts (seen on the H200)
        _require(p.type not in _R2C + _C2R or (p.istride == 1 and p.ostride == 1))
        in_dt, out_dt = DTYPES[p.type]
        ishape, oshape = self._shapes(p)
        x = self._view(idata, ishape, p.inembed, p.istride, p.idist, in_dt)
        y = self._view(odata, oshape, p.onembed, p.ostride, p.odist, out_dt)
        r = p.rank
        cdt = out_dt if p.type not in _C2R else in_dt
        if p.type in _R2C:
            passes = [("r2c", r)] + [("c2c", d) for d in range(r - 1, 0, -1)]
        elif p.type in _C2R:
            passes = [("c2c", d) for d in range(1, r)] + [("c2r", r)]
        else:
            passes = [("c2c", d) for d in range(r, 0, -1)]
        direct = len(passes) > 1 or not may_overlap(x, y)
        src = x
        for i, (kind, d) in enumerate(passes):
            last = i == len(passes) - 1
            if last and direct:
                dst = y
            else:
                shape = list(src.shape)
                shape[d] = oshape[d] if kind != "c2c" else shape[d]
                dst = empty_array(tuple(shape), out_dt if kind == "c2r" else cdt)
            dft_pass(kind, d, p.n[d - 1], sign, src, dst)
            src = dst
        if not direct:
            copy_into(y, src)
        if p.type in _C2R and not may_overlap(x, y):
            fill(x, np.nan)

    def exec_c2c(self, plan, idata, odata, direction):
        self._count("exec_c2c")
        _require(direction in (-1, 1))
        self._exec(plan, (int(Type.C2C),), idata, odata, direction)

    def exec_z2z(self, plan, idata, odata, direction):
        self._count("exec_z2z")
        _require(direction in (-1, 1))
        self._exec(plan, (int(Type.Z2Z),), idata, odata, direction)

    def exec_r2c(self, plan, idata, odata):
        self._count("exec_r2c")
        self._exec(plan, (int(Type.R2C),), idata, odata, -1)

    def exec_d2z(self, plan, idata, odata):
        self._count("exec_d2z")
        self._exec(plan, (int(Type.D2Z),), idata, odata, -1)

    def exec_c2r(self, plan, idata, odata):
        self._count("exec_c2r")
        self._exec(plan, (int(Type.C2R),), idata, odata, 1)

    def exec_z2d(self, plan, idata, odata):
        self._count("exec_z2d")
        self._exec(plan, (int(Type.Z2D),), idata, odata, 1)


CUFFT = Cufft()
