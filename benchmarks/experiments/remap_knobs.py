"""The remap template's launch shape (``npgpu/_remap.py``) on issue 13's cases: threads a block
of the rows form, words a thread of its word stores, elements a thread of its element form,
output rows a block row takes in turn, threads a block and loads a thread in flight of the
staged (take) form, the bytes of a source row that form stages (0: take gathers from global
memory), and the indexed form of the staged lookups (``_remap.INDEXED``, NPGPU_REMAP_INDEXED:
1 on) with its threads a block, 16-byte units of the next row a thread prefetches, and output
units a thread a round.

    python3 benchmarks/experiments/remap_knobs.py [--only=NAME,...] [VARIANT ...]

VARIANT: block,words,ept,rows,stage,stage_ept,stage_max,indexed,idx_block,idx_prefetch,idx_per,
idx_min_blocks (the indexed form's launch bounds, blocks an SM; 0: 1024 threads' worth),
idx_hints (its streaming cache hints: 0 none, 1 the stage loads, 2 the output stores, 3 both).

Default variants: the shipped constants (128,2,4,4,256,4,49152,<env>,1024,2,2), one row a
block, stage blocks of 512 with 16 loads a thread, no shared-memory stage (take gathers from
global memory; 2 or 4 words a thread), and the indexed form (512 threads with 4 units
prefetched, 256 threads with 8, 512 without prefetch, 4 units a round); shorter tuples keep
the shipped values of the fields left out; ``--only=take`` runs only the cases named.  Cases
(the benchmark's sizes): roll(a, 12345) of 2^26 float32, tile(2^25, 2), pad(8192^2, 64,
'reflect'), take(8192^2, perm, axis=1), and concatenate (two driver copies, no remap: the
reference for a call's fixed cost).  Each variant's kernels compile afresh, and take's stored
launches are forgotten (before 2026-12-03 they were not: every take variant replayed the first
variant's launch, so earlier take rows here compared one kernel with itself); the variants take
turns in 3 rounds (CUDA events around each call, as benchmarks/run.py); every result is checked
against NumPy on the host; % of the copy bandwidth measured here.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import SHIFT, copy_bandwidth, fresh, gl, gp, pct, rounds, timer  # noqa: E402
from npgpu import _remap  # noqa: E402
from npgpu._core.transfer import d2d  # noqa: E402
from npgpu.indexing.routines import _take_calls  # noqa: E402

t = timer(20, 2.0)
n = 1 << (26 - SHIFT)
side = 8192 >> (SHIFT // 2)
pw = 64 >> (SHIFT // 2)
bw = copy_bandwidth(t)
rng = np.random.default_rng(0)
ha = rng.random(n, np.float32)
hh, hh2 = ha[: n // 2].copy(), ha[n // 2:].copy()
hm = rng.random((side, side), np.float32)
hp = (rng.random(side) * side).astype(np.int64)
a, half, half2, mat, perm = (gp.asarray(x) for x in (ha, hh, hh2, hm, hp))
CASES = [  # name, call, bytes moved, NumPy's result
    ("roll", lambda: gp.roll(a, 12345), 8 * n, lambda: np.roll(ha, 12345)),
    ("tile", lambda: gp.tile(half, 2), 4 * (n // 2) + 4 * n, lambda: np.tile(hh, 2)),
    ("pad", lambda: gp.pad(mat, pw, mode="reflect"), 4 * side * side + 4 * (side + 2 * pw) ** 2,
     lambda: np.pad(hm, pw, mode="reflect")),
    ("take", lambda: gp.take(mat, perm, axis=1), 8 * side * side + 8 * side,
     lambda: np.take(hm, hp, axis=1)),
    ("concatenate", lambda: gp.concatenate([half, half2]), 8 * n, lambda: ha),
    # roll of a contiguous array as the driver's two copies (the second one 4-byte aligned)
    ("roll as two copies", lambda: _roll_copies(a, 12345), 8 * n, lambda: np.roll(ha, 12345)),
]
KNOBS = ("_ROWS_BLOCK", "_ROWS_WORDS", "EPT", "_ROWS_PER_BLOCK", "_STAGE_BLOCK", "_STAGE_EPT",
         "STAGE_MAX", "INDEXED", "_IDX_BLOCK", "_IDX_PREFETCH", "_IDX_PER", "_IDX_MIN_BLOCKS",
         "_IDX_CACHE_HINTS")
_HINTS = {0: frozenset(), 1: frozenset({"ld"}), 2: frozenset({"st"}), 3: frozenset({"ld", "st"})}
default = tuple(getattr(_remap, k) for k in KNOBS[:-1]) + (
    {h: c for c, h in _HINTS.items()}[_remap._IDX_CACHE_HINTS],)
def _roll_copies(x, s):
    out = gp.empty_like(x)
    isz, m = x.itemsize, x.size
    s %= m
    d2d(out._ptr + s * isz, x._ptr, (m - s) * isz)
    d2d(out._ptr, x._ptr + (m - s) * isz, s * isz)
    return out


only = [a for a in sys.argv[1:] if a.startswith("--only=")]
only = set(only[-1][7:].split(",")) if only else None
CASES = [c for c in CASES if only is None or c[0] in only]
S = default[:7]
args = [s for s in sys.argv[1:] if not s.startswith("--")]
variants = [tuple(int(v) for v in s.split(",")) for s in args] or [
    default, (128, 2, 4, 1), (128, 2, 4, 4, 512, 16), (128, 2, 4, 4, 256, 4, 0),
    (128, 4, 4, 4, 256, 4, 0), S + (1, 512, 4, 2), S + (1, 256, 8, 2), S + (1, 512, 0, 2),
    S + (1, 512, 4, 4)]
variants = [v + default[len(v):] for v in variants]


def use(v):
    for k, x in zip(KNOBS, v):
        setattr(_remap, k, _HINTS[x] if k == "_IDX_CACHE_HINTS" else x)
    _remap._PLANS.clear()
    _remap._CALLS.clear()
    _take_calls.clear()     # take's stored launches (else every variant replays the first's)
    fresh()


for name, fn, nbytes, ref in CASES:
    want = ref()

    def run(v, fn=fn, nbytes=nbytes, want=want):
        use(v)
        got = fn().get()
        ok = got.shape == want.shape and np.array_equal(got, want)
        return t(gl, fn), "ok" if ok else "WRONG RESULT"

    print(f"{name}: {nbytes / 1e6:.0f} MB", flush=True)
    rounds(variants, run, lambda s, nbytes=nbytes: pct(bw, nbytes, s))
use(default)
