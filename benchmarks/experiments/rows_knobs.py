"""``@npgpu.fuse``'s row form (:mod:`npgpu.fusion.rows`): values a thread
(``VPT_TARGET_GPU``, which sets the block: 2^14 columns at 32 values are 512 threads) and the
launch bounds' blocks an SM (``BLOCKS_PER_SM``), on (2^14, 2^14) float32 rows: SciPy's softmax
and log_softmax (read once, written once), logsumexp (one read) and the row normalisation,
with PyTorch's softmax / logsumexp / log_softmax in the same rounds.  Every variant's result
is checked against the first's.

    python3 benchmarks/experiments/rows_knobs.py [vpt,blocks ...]     (default: a grid)
    ROWS_CASES=softmax,log_softmax: those cases only
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, copy_bandwidth, fresh, gl, gp, pct, rounds, timer, tl  # noqa: E402

from npgpu.fusion import rows  # noqa: E402
_lse_mod = __import__("importlib").import_module("npgpu.scipy.special.logsumexp")

t = timer(20, 2.0)
side = (1 << 14) >> (SHIFT // 2)
bw = copy_bandwidth(t)
x = gp.asarray(np.random.default_rng(0).standard_normal((side, side)).astype(np.float32))
special = gp.scipy.special
variants = [tuple(int(v) for v in a.split(",")) for a in sys.argv[1:]] or \
    [(32, 2), (16, 2), (16, 1), (64, 1), (64, 2), (8, 2), (32, 1)]
cases = {"softmax": (lambda: special.softmax(x, axis=1), 8,
                     lambda tx: __import__("torch").softmax(tx, 1)),
         "logsumexp": (lambda: special.logsumexp(x, axis=1), 4,
                       lambda tx: __import__("torch").logsumexp(tx, 1)),
         "log_softmax": (lambda: special.log_softmax(x, axis=1), 8,
                         lambda tx: __import__("torch").log_softmax(tx, 1)),
         "rownorm": (lambda: gp.fuse(lambda v: (v - v.mean(axis=1, keepdims=True))
                                     / v.std(axis=1, keepdims=True)), 8, None)}
tx = tl.put(x.get()) if tl is not None else None
only = [c for c in os.environ.get("ROWS_CASES", "").split(",") if c]
for name, (fn, per, tfn) in cases.items():
    if only and name not in only:
        continue
    print(f"{name} ({side}, {side}) float32", flush=True)
    ref = {}

    def run(v):
        if v == "torch":
            return t(tl, lambda: tfn(tx)), ""
        rows.VPT_TARGET_GPU = rows.VPT_TARGET = v[0]
        rows.VPT_MAX = max(32, v[0])
        rows.BLOCKS_PER_SM = v[1]
        fresh()
        _lse_mod._FUSED.clear()            # (a fused function keeps its row kernel)
        f = fn if name != "rownorm" else (lambda g=fn(): g(x))
        host = f().get()
        if "first" not in ref:
            ref["first"] = host
        elif not np.allclose(host, ref["first"], rtol=1e-5, atol=1e-6):
            raise AssertionError(f"{v}: result differs from the first variant's")
        return t(gl, f), ""
    rounds(variants + (["torch"] if tfn is not None else []), run,
           lambda s, per=per: pct(bw, per * side * side, s))
