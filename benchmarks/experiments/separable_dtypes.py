"""Which (input, output) dtype pairs the fused separable template (ndimage ``_separable2d``)
gets right on this machine: each pair's gaussian_filter through the fused route against the
two line passes and SciPy, 2-D and 3-D (a line pass along axis 0 first), printing the largest
difference.  Written for a GPU-only mismatch (a uint8 output of a 3-D float32 image came back
all zeros on the H200 while the simulator matched SciPy).

Run: ``python3 benchmarks/experiments/separable_dtypes.py``
"""
import numpy as np
import scipy.ndimage as snd

import npgpu as gp
from npgpu.scipy import ndimage as gnd
from npgpu.scipy.ndimage import _separable2d

rng = np.random.default_rng(0)
for shape in [(5, 11, 9), (300, 200)]:
    for dt in (np.float32, np.uint8, np.float64):
        for out in (np.uint8, None, np.int16, np.float32):
            x = (rng.random(shape) * 200).astype(dt)
            kw = dict(output=out, mode="reflect")
            want = snd.gaussian_filter(x, 1.0, **kw)
            got = {}
            for route in ("fused", "passes"):
                _separable2d.ROUTE = route
                got[route] = gnd.gaussian_filter(gp.asarray(x), 1.0, **kw).get()
            _separable2d.ROUTE = "fused"
            d = {r: float(np.abs(g.astype(np.float64) - want).max()) for r, g in got.items()}
            flag = "" if d["fused"] <= max(1.0, 1e-3 * float(np.abs(want).max())) else "  <-- WRONG"
            print(f"{str(shape):12s} {np.dtype(dt).name:8s} -> {np.dtype(out or dt).name:8s} "
                  f"fused {d['fused']:.3g} passes {d['passes']:.3g}{flag}", flush=True)
