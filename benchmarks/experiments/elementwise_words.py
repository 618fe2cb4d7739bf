"""Elementwise 2^28 on the GPU: the element kernel against the word kernel (two elements a
load, ``elementwise.WORDS_MIN``) at 128/256/512 threads per block, next to PyTorch: float32
negative/exp/add, and the 1-byte cases (bool masks and comparisons): where(mask, x, y),
x > y, mask & mask2.

Run: ``python3 benchmarks/experiments/elementwise_words.py``.  % of npgpu's copy bandwidth
(bytes read + written), CUDA events, each result checked against NumPy.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, copy_bandwidth, fresh, gl, gp, pct, timer, tl  # noqa: E402
from npgpu._codegen import elementwise as ew  # noqa: E402

t = timer(20, 2.0)
n = 1 << (28 - SHIFT)
bw = copy_bandwidth(t)
h = np.random.default_rng(1).standard_normal(n, dtype=np.float32)
hr = h[::-1].copy()
hm, hm2 = h > 0, hr > 0.5
x, y, o = gp.asarray(h), gp.asarray(hr), gp.empty(n, np.float32)
m, m2, ob = gp.asarray(hm), gp.asarray(hm2), gp.empty(n, np.bool_)
k = slice(0, 4096)
ops = [("negative", 8, lambda: gp.negative(x, out=o), o, -h[k]),
       ("exp", 8, lambda: gp.exp(x, out=o), o, np.exp(h[k])),
       ("add", 12, lambda: gp.add(x, y, out=o), o, h[k] + hr[k]),
       # the 1-byte cases go through the functions' own fast paths (no out=)
       ("where", 13, lambda: gp.where(m, x, y), None, np.where(hm[k], h[k], hr[k])),
       ("greater", 9, lambda: gp.greater(x, y), None, h[k] > hr[k]),
       ("and", 3, lambda: gp.logical_and(m, m2), None, hm[k] & hm2[k])]
if tl is not None:
    xt, yt = tl.put(h), tl.put(hr)
    ot = tl.torch.empty_like(xt)
    for name, per, tf in [("negative", 8, lambda: tl.torch.neg(xt, out=ot)),
                          ("exp", 8, lambda: tl.torch.exp(xt, out=ot)),
                          ("add", 12, lambda: tl.torch.add(xt, yt, out=ot))]:
        print(f"{name:9s} torch {pct(bw, per * n, t(tl, tf))}", flush=True)
    mt, mt2 = tl.put(hm), tl.put(hm2)
    for name, per, tf in [("where", 13, lambda: tl.torch.where(mt, xt, yt)),
                          ("greater", 9, lambda: xt > yt),
                          ("and", 3, lambda: tl.torch.logical_and(mt, mt2))]:
        print(f"{name:9s} torch {pct(bw, per * n, t(tl, tf))}", flush=True)
    del xt, yt, ot, mt, mt2
words_min, tpb = ew.WORDS_MIN, ew.threads_per_block
try:
    for variant in ["element", "words"]:
        for threads in (128, 256, 512):
            ew.WORDS_MIN = 1 << 62 if variant == "element" else 1 << 15
            ew.threads_per_block = lambda specs, th=threads: th
            fresh()
            ew._fast.clear()
            for name, per, fn, res, ref in ops:
                tg = t(gl, fn)
                got = (res if res is not None else fn())[k].get()
                ok = np.allclose(got, ref, rtol=2e-6)
                print(f"{name:9s} {variant:8s} threads={threads:4d} {pct(bw, per * n, tg)}  "
                      f"ok={ok}", flush=True)
finally:
    ew.WORDS_MIN, ew.threads_per_block = words_min, tpb
