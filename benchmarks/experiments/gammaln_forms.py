"""gammaln's loops (issue 25): npgpu's straight-line lgamma (npgpu/scipy/special/lgamma.py)
against libdevice's lgamma, and the float64 loop with its constants in a table
(``NPGPU_PTX_F64_TABLE=1``, npgpu/_codegen/ptx_constants.py), as % of copy bandwidth, on the
benchmark's data (2^28 float32 / 2^27 float64 uniform on [0.1, 50)).

Both switches are read when the ufunc tables are built or kernels compiled, so each variant
runs in its own process; the parent alternates them twice.

Run: ``python3 benchmarks/experiments/gammaln_forms.py [VARIANT ...]`` (``EXP_SHIFT=16`` on
the simulator).
"""
import os
import subprocess
import sys

# variant -> environment
VARIANTS = {
    "npgpu lgamma": {},
    "libdevice lgamma": {"NPGPU_FAST_MATH_HELPERS": "erf,erfc,sin,cos,expit"},
    "npgpu lgamma, f64 table": {"NPGPU_PTX_F64_TABLE": "1"},
}


def child():
    import numpy as np

    import npgpu.scipy.special as gs
    from _common import SHIFT, copy_bandwidth, gl, gp, pct, timer

    t = timer(20, 3.0)
    bw = copy_bandwidth(t)
    rng = np.random.default_rng(0)
    for lg, dt in ((28, np.float32), (27, np.float64)):
        n = (1 << lg) >> SHIFT
        x = gp.asarray(rng.uniform(0.1, 50.0, n).astype(dt))
        isz = np.dtype(dt).itemsize
        print(f"  gammaln {np.dtype(dt).name} 2^{lg - SHIFT} "
              f"{pct(bw, 2 * isz * n, t(gl, lambda: gs.gammaln(x)))}", flush=True)


def main():
    here = os.path.abspath(__file__)
    names = sys.argv[1:] or list(VARIANTS)
    for _ in range(2):
        for name in names:
            env = VARIANTS[name]
            print(name, flush=True)
            subprocess.run([sys.executable, here, "--child"], env=dict(os.environ, **env),
                           check=True)


if __name__ == "__main__":
    child() if "--child" in sys.argv else main()
