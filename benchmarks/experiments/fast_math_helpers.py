"""A/B of the fast helpers (npgpu/ufuncs/helpers.py: ``h_sincos_f32``, ``h_expit_f32``; issues
17 and 25) against the libdevice-based rows, 2^28 float32, as % of the copy bandwidth; and of
float64 erf/erfc, 2^27, in the elementwise template's heavy form (8 elements a thread, <= 64
registers, uint64 indices: npgpu/scipy/special/table.py ``HEAVY``) against the plain one.

The switch ``NPGPU_FAST_MATH_HELPERS`` (0: libdevice rows / plain layout, 1: the fast helpers
and heavy rows) is read when the ufunc tables are built, so each variant runs in its own process;
the parent runs them alternately (0, 1, 0, 1) so the H200's minute-to-minute drift shows as a
spread, not a bias.  Each child times sin, cos, expit, the fusion benchmark's 10-op chain
(``sin(y) * 0.25 + x``), erf/erfc float64 and erf float32, and PyTorch's sin/sigmoid/erf next to
them.

Run: ``python3 benchmarks/experiments/fast_math_helpers.py`` (``EXP_SHIFT=16`` on the simulator).
"""
import os
import subprocess
import sys


def child():
    import numpy as np

    import npgpu.scipy.special as gs
    from _common import SHIFT, copy_bandwidth, gl, gp, pct, timer, tl
    from fusion_cases import _chain

    t = timer(20, 3.0)
    bw = copy_bandwidth(t)
    n = (1 << 28) >> SHIFT
    h = np.random.default_rng(0).uniform(-20.0, 20.0, n).astype(np.float32)
    a = gp.asarray(h)
    chain = gp.fuse(lambda x: _chain(gp, x))
    cases = [("sin f32", gp.sin), ("cos f32", gp.cos), ("expit f32", gs.expit),
             ("fused chain f32", chain)]
    for name, f in cases + [("erf f32", gs.erf)]:
        print(f"  {name:18s} {pct(bw, 8 * n, t(gl, lambda: f(a)))}", flush=True)
    # float64: scipy_special_cases.py's erf case (2^27 uniform on [-3, 3])
    n64 = (1 << 27) >> SHIFT
    h64 = np.random.default_rng(1).uniform(-3.0, 3.0, n64)
    a64 = gp.asarray(h64)
    for name, f in (("erf f64", gs.erf), ("erfc f64", gs.erfc)):
        print(f"  {name:18s} {pct(bw, 16 * n64, t(gl, lambda: f(a64)))}", flush=True)
    if tl is not None:
        ta = tl.torch.from_numpy(h).cuda()
        for name, f in (("torch sin", tl.torch.sin), ("torch sigmoid", tl.torch.sigmoid),
                        ("torch erf f32", tl.torch.special.erf)):
            print(f"  {name:18s} {pct(bw, 8 * n, t(tl, lambda: f(ta)))}", flush=True)
        ta64 = tl.torch.from_numpy(h64).cuda()
        for name, f in (("torch erf f64", tl.torch.special.erf),
                        ("torch erfc f64", tl.torch.special.erfc)):
            print(f"  {name:18s} {pct(bw, 16 * n64, t(tl, lambda: f(ta64)))}", flush=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for v in ("0", "1", "0", "1"):
        print(f"NPGPU_FAST_MATH_HELPERS={v}", flush=True)
        subprocess.run([sys.executable, os.path.join(here, "fast_math_helpers.py"), "--child"],
                       env=dict(os.environ, NPGPU_FAST_MATH_HELPERS=v), check=True)


if __name__ == "__main__":
    child() if "--child" in sys.argv else main()
