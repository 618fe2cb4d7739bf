"""Probe (H200): does the look-back cumsum's time depend on where its input and output lie?
f32 cumsum of 2^26 from views at several element offsets of one buffer, into ``out=`` views at
several offsets of another; prints device time against the two addresses."""
import sys

import numpy as np

sys.path.insert(0, "scripts")
from _exp import gl, gp, timer  # noqa: E402

t = timer(20, 0.5)
n = 1 << 26
rng = np.random.default_rng(0)
src = gp.asarray(rng.random(n + (1 << 22), dtype=np.float32))
dst = gp.empty(n + (1 << 22), np.float32)
for io in (0, 1 << 10, 1 << 18, 1 << 20):
    for oo in (0, 1 << 10, 1 << 18, 1 << 20, 3 << 20):
        x, o = src[io:io + n], dst[oo:oo + n]
        s = t(gl, lambda: gp.cumsum(x, out=o))
        print(f"{s * 1e6:7.1f} us  in {x._ptr:#x}  out {o._ptr:#x}  "
              f"(out - in) mod 64 MiB {(o._ptr - x._ptr) % (1 << 26):#x}", flush=True)
