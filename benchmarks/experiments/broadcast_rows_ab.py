"""Broadcasting along rows: the elementwise ``rows`` layout (``NPGPU_EW_ROWS=1``; npgpu/_codegen/
elementwise.py) against the strided layout, % of copy bandwidth, (2^14, 2^14) float32 and
float64 / 2 elements.  H200, 2026-12-03 (call 4, strided): ``x - m`` with m a row 36.5% of copy
bandwidth where ``x - y`` ran at 103.9%.

Cases: ``x - m`` (row broadcast), ``x - c`` (a column broadcast), ``x * c`` beside a row
(``x * c + m``: the column operand is "transposed", so the tiled layout takes the first op),
``(x - m) ** 2``, a row-sliced view ``x[:, 64:-64] * 2``, ``x[::2] + x[1::2]`` (row strides of
two rows) and the Dask benchmark's ``sum((x - x.mean(axis=0)) ** 2)``, and short rows:
``(n, 512)[:, :w] - m`` for w = 128, 192, 320; each result checked against NumPy on sampled
rows.  The switches are read at import, so each variant runs in its own process; the parent
alternates them (0, 1, 0, 1).

Run: ``python3 benchmarks/experiments/broadcast_rows_ab.py [VARIANT ...]`` (``EXP_SHIFT=12`` on
the simulator; ``CASES=regex``: the cases whose "dtype name" matches); a variant is
``ROWS[:ROWS_EPT[:ROWS_THREADS[:ROWS_MIN_COLS[:ROWS_WORDS[:ROWS_WORDS_EPT[:TILE_COLUMNS]]]]]]``,
e.g. ``1:4:128:64`` (rows from 64 columns: short rows in blocks of several rows),
``1:4:128:128:0`` (the rows layout one element a load: no ``rowsw``), ``1:4:128:128:1:4`` (4
words a thread), ``1:4:128:128:1:2:0`` (column broadcasts ``x - c`` in the rows layout, not
the tiled one's shared-memory stage).
"""
import os
import re
import subprocess
import sys


def child():
    import numpy as np

    from _common import SHIFT, copy_bandwidth, gl, gp, pct, timer

    t = timer(10, 2.0)
    bw = copy_bandwidth(t)
    rng = np.random.default_rng(0)
    side = 1 << max(14 - SHIFT // 2, 3)
    for dt in (np.float32, np.float64):
        rows = side if dt == np.float32 else side // 2
        h = rng.random((rows, side)).astype(dt)
        hm, hc = h.mean(axis=0), rng.random((rows, 1)).astype(dt)
        x, m, c = gp.asarray(h), gp.asarray(hm), gp.asarray(hc)
        s = x[:, 64 % side:side - 64 % side]
        isz, n = np.dtype(dt).itemsize, h.size
        cases = [("x - m", lambda: x - m, lambda: h - hm, 2 * isz * n),
                 ("x - c", lambda: x - c, lambda: h - hc, 2 * isz * n),
                 ("x * c + m", lambda: x * c + m, lambda: h * hc + hm, 4 * isz * n),
                 ("(x - m) ** 2", lambda: (x - m) ** 2, lambda: (h - hm) ** 2, 4 * isz * n),
                 ("x[:, 64:-64] * 2", lambda: s * 2, lambda: h[:, 64 % side:side - 64 % side] * 2,
                  2 * isz * s.size),
                 ("x[::2] + x[1::2]", lambda: x[::2] + x[1::2], lambda: h[::2] + h[1::2],
                  3 * isz * n // 2),
                 ("sum((x - x.mean(0)) ** 2)", lambda: gp.sum((x - x.mean(axis=0)) ** 2),
                  lambda: ((h - hm) ** 2).sum(), 6 * isz * n)]
        # short rows (the rows layout from ROWS_MIN_COLS = 128: most of a block's threads idle)
        for w in (128, 192, 320):
            hw = h.reshape(-1, 512)
            xw, mw = gp.asarray(hw), gp.asarray(hw[0, :w].copy())
            cases.append((f"(n, 512)[:, :{w}] - m", lambda xw=xw, mw=mw, w=w: xw[:, :w] - mw,
                          lambda hw=hw, w=w: hw[:, :w] - hw[0, :w], 2 * isz * hw.shape[0] * w))
        for name, fn, ref, nbytes in cases:
            if not re.search(os.environ.get("CASES", ""), f"{np.dtype(dt).name} {name}"):
                continue
            got, want = fn().get(), ref()
            if np.ndim(want):
                got, want = got[::97], want[::97]
            np.testing.assert_allclose(got, want, rtol=1e-5 if dt == np.float32 else 1e-12)
            print(f"  {np.dtype(dt).name} {name:28s} {pct(bw, nbytes, t(gl, fn))}", flush=True)


def main():
    here = os.path.abspath(__file__)
    for v in sys.argv[1:] or ("0", "1", "0", "1"):
        # a variant: ROWS[:ROWS_EPT[:ROWS_THREADS[:ROWS_MIN_COLS[:...]]]] (the docstring)
        env = dict(zip(("NPGPU_EW_ROWS", "NPGPU_EW_ROWS_EPT", "NPGPU_EW_ROWS_THREADS",
                        "NPGPU_EW_ROWS_MIN_COLS", "NPGPU_EW_ROWS_WORDS",
                        "NPGPU_EW_ROWS_WORDS_EPT", "NPGPU_EW_TILE_COLUMNS"), v.split(":")))
        print(" ".join(f"{k}={x}" for k, x in env.items()), flush=True)
        subprocess.run([sys.executable, here, "--child"], env=dict(os.environ, **env), check=True)


if __name__ == "__main__":
    child() if "--child" in sys.argv else main()
