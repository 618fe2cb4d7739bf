"""Elementwise f32 on the H200: element kernel vs 8-byte-word kernel variants (session 3).

Run: ``python3 scripts/exp_words.py``.  % of copy bandwidth (bytes read + written), CUDA events.
"""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
from _timing import NpgpuLib, TorchLib  # noqa: E402

from npgpu._codegen import compiler, elementwise as ew  # noqa: E402

gl = NpgpuLib()
gp = gl.gp
tl = TorchLib()


def t(lib, fn):
    return lib.time_events(fn, reps=20, warmup=3, budget_s=2.0)["time_s"]


n = 1 << 28
src, dst = gp.empty(n, np.float32), gp.empty(n, np.float32)
bw = 2 * 4 * n / t(gl, lambda: gp.copyto(dst, src))
print(f"copy bandwidth {bw / 1e9:.0f} GB/s")
rng = np.random.default_rng(1)
h = rng.standard_normal(n, dtype=np.float32)
x, y, o = gp.asarray(h), gp.asarray(h[::-1].copy()), gp.empty(n, np.float32)
xt, yt = tl.put(h), tl.put(h[::-1].copy())
ot = tl.torch.empty_like(xt)
ops = [("negative", 8, lambda: gp.negative(x, out=o), lambda: tl.torch.neg(xt, out=ot)),
       ("exp", 8, lambda: gp.exp(x, out=o), lambda: tl.torch.exp(xt, out=ot)),
       ("add", 12, lambda: gp.add(x, y, out=o), lambda: tl.torch.add(xt, yt, out=ot))]
for name, per, _, tf in ops:
    tt = t(tl, tf)
    print(f"{name:9s} torch {tt * 1e6:8.1f} us {per * n / tt / bw * 100:6.1f}%", flush=True)
orig_tpb = ew.threads_per_block
for variant in ["element", "words"]:
    for threads in (128, 256, 512):
        ew.WORDS_MIN = 1 << 62 if variant == "element" else 1 << 15
        pass
        ew.threads_per_block = lambda specs, th=threads: th
        compiler.clear_memory_cache()
        ew._fast.clear()
        for name, per, fn, _ in ops:
            tg = t(gl, fn)
            ref = {"negative": -h[:4096], "exp": np.exp(h[:4096]),
                   "add": h[:4096] + h[::-1][:4096]}[name]
            ok = np.allclose(o[:4096].get(), ref, rtol=2e-6)
            print(f"{name:9s} {variant:14s} threads={threads:4d} {tg * 1e6:8.1f} us "
                  f"{per * n / tg / bw * 100:6.1f}%  ok={ok}", flush=True)
ew.threads_per_block = orig_tpb
