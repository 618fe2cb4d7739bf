"""Where fft2 of (8192, 8192) complex64 spends the time PyTorch does not: the whole call, the
call into a preallocated ``out``, the bare cuFFT execution on the cached plan (no allocation,
no Python around it), and PyTorch's / CuPy's calls, in interleaved rounds.

Run: ``python3 benchmarks/experiments/fft2_gap.py`` (``EXP_SHIFT=8`` on the simulator).
"""
import numpy as np

from _common import cl, gl, gp, rounds, tl, timer, SHIFT

side = 8192 >> (SHIFT // 2)
rng = np.random.default_rng(0)
h = (rng.random((side, side), np.float32) + 1j * rng.random((side, side), np.float32)
     ).astype(np.complex64)
x = gp.asarray(h)
out = gp.empty_like(x)
t = timer(reps=40, budget_s=3)

from npgpu.fft import _cufft  # noqa: E402
lay = _cufft.layout("c2c", x, out, 0, 2, (side, side), _cufft.FORWARD)

variants = {
    "npgpu fft2": (gl, lambda: gp.fft.fft2(x)),
    "npgpu fft2 out=": (gl, lambda: gp.fft.fft2(x, out=out)),
    "npgpu bare exec": (gl, lambda: lay.run(x._ptr, out._ptr)),
    "npgpu empty only": (gl, lambda: gp.empty((side, side), np.complex64)),
}
if tl is not None:
    import torch
    tx = torch.from_dlpack(x)
    tout = torch.empty_like(tx)
    variants["torch fft2"] = (tl, lambda: torch.fft.fft2(tx))
    variants["torch fft2 out="] = (tl, lambda: torch.fft.fft2(tx, out=tout))
if cl is not None:
    import cupy
    cx = cupy.from_dlpack(x)
    variants["cupy fft2"] = (cl, lambda: cupy.fft.fft2(cx))

nbytes = 16 * side * side
rounds(list(variants), lambda v: (t(*variants[v]), ""),
       lambda s: f"{s * 1e6:8.1f} us")
gp.fft.config.get_plan_cache().show_info() if hasattr(gp.fft, "config") else _cufft.plan_cache.get_plan_cache().show_info()
