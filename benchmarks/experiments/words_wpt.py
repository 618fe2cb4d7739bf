"""Words a thread of the elementwise ``words`` layout (``NPGPU_EW_WORDS_WPT``, 2 by default: 4
float32 elements) for compute-bound float32 loops (issue 17: the fused 10-op chain at 87% of
copy against a 90% target; issue 25: gammaln float32 at 71% against 95%) and memory-bound ones
(add, exp), 2^28 float32 (gammaln, i0e, digamma over the special-function benchmark's ranges), % of the copy measured in the same process.  A thread's per-launch
work (its index, bounds, word addresses) is shared by more elements with more words a thread.
Run one process per setting, the settings in turn:

    for w in 2 4 8 2 4 8; do NPGPU_EW_WORDS_WPT=$w python3 benchmarks/experiments/words_wpt.py; done
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, copy_bandwidth, gl, gp, pct, timer  # noqa: E402
from fusion_cases import _chain  # noqa: E402

t = timer(20, 2.0)
n = (1 << 28) >> SHIFT
bw = copy_bandwidth(t)
rng = np.random.default_rng(0)
x = gp.asarray(rng.random(n, dtype=np.float32))
g = gp.asarray((0.1 + 49.9 * rng.random(n, dtype=np.float32)).astype(np.float32))
y = gp.asarray(rng.random(n, dtype=np.float32))
# the special-function benchmark's ranges (benchmarks/scipy_special_cases.py)
xi = gp.asarray((-20.0 + 40.0 * rng.random(n, dtype=np.float32)).astype(np.float32))
xd = gp.asarray((-10.0 + 40.0 * rng.random(n, dtype=np.float32)).astype(np.float32))
chain = gp.fuse(lambda v: _chain(gp, v))
special = gp.scipy.special
cases = {"chain": (lambda: chain(x), 8), "gammaln": (lambda: special.gammaln(g), 8),
         "i0e": (lambda: special.i0e(xi), 8),
         "digamma": (lambda: special.digamma(xd), 8), "sin": (lambda: gp.sin(x), 8),
         "exp": (lambda: gp.exp(x), 8), "add": (lambda: x + y, 12)}
want = _chain(np, x.get())
assert np.allclose(chain(x).get(), want, rtol=1e-5, atol=1e-6), "chain: wrong result"
# the special functions against SciPy (float64 on the host) on their first 2^20 elements: the
# largest difference in float32 ulp of the reference, finite values (NaN positions must agree)
try:
    import scipy.special as ss
except ImportError:
    ss = None
k = min(n, 1 << 20)
for name, arr in (("gammaln", g), ("i0e", xi), ("digamma", xd)) if ss else ():
    got = getattr(special, name)(arr)[:k].get().astype(np.float64)
    ref = getattr(ss, name)(arr[:k].get().astype(np.float64))
    fin = np.isfinite(ref)
    assert np.array_equal(np.isnan(got), np.isnan(ref)), f"{name}: NaN positions differ"
    ulp = np.spacing(np.abs(ref[fin]).astype(np.float32)).astype(np.float64)
    print(f"  {name}: {np.max(np.abs(got[fin] - ref[fin]) / ulp):.1f} ulp at most", flush=True)
print(f"NPGPU_EW_WORDS_WPT={os.environ.get('NPGPU_EW_WORDS_WPT', '2')}", flush=True)
for name, (fn, per) in cases.items():
    print(f"  {name:8s} {pct(bw, per * n, t(gl, fn))}", flush=True)
