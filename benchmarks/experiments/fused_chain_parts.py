"""Where the fusion benchmark's 10-op chain (``sin`` of a rational function, 2^28 float32;
76% of copy bandwidth on the H200, issue 17's target 90%) loses time: the chain against
itself without ``sin``, without the division, ``sin`` alone (fused and as the ufunc), and a
plain fused ``x * 0.25 + x``.  Each a fused function of one input and one output (8 bytes an
element), CUDA-event timed, as % of the device-to-device copy.

Run: ``python3 benchmarks/experiments/fused_chain_parts.py`` (``EXP_SHIFT=16`` on the simulator).
"""
import numpy as np

from _common import SHIFT, copy_bandwidth, gl, gp, pct, timer
from fusion_cases import _chain


def chain(x):
    return _chain(gp, x)


def no_sin(x):
    y = x * 1.5 + 2.0
    y = y * x - 0.5
    y = y / (x * x + 3.0)
    return y * 0.25 + x


def no_div(x):
    y = x * 1.5 + 2.0
    y = y * x - 0.5
    y = y * (x * x + 3.0)
    return gp.sin(y) * 0.25 + x


def sin_only(x):
    return gp.sin(x)


def axpy(x):
    return x * 0.25 + x


def main():
    t = timer(20, 3.0)
    bw = copy_bandwidth(t)
    n = (1 << 28) >> SHIFT
    a = gp.asarray(np.random.default_rng(0).random(n, np.float32))
    variants = {f.__name__: gp.fuse(f) for f in (chain, no_sin, no_div, sin_only, axpy)}
    variants["ufunc sin"] = gp.sin
    for name, f in variants.items():
        print(f"{name:12s} {pct(bw, 8 * n, t(gl, lambda: f(a)))}", flush=True)


if __name__ == "__main__":
    main()
