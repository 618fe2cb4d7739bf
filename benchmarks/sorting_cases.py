"""Benchmark cases of issue 14 (sorting, searching, sets, counting, order statistics): the
issue's sizes, CuPy and PyTorch as peers.  Each library's own spelling (PyTorch: ``sort``,
``argsort``, ``unique``, ``median``, ``searchsorted``, ``bincount``, ``histc``).  ``nbytes``
counts one read of the input and one write of the output (against the copy ceiling); a
function that does not exist yet shows an error cell until it lands."""
import numpy as np


def cases(cfg, api):
    Case, p2, H = api.Case, api.p2, api.H
    smoke = cfg["smoke"]
    big = 1 << 10 if smoke else 1 << 26
    mid = 1 << 8 if smoke else 1 << 24
    rows = (4, 32) if smoke else (1 << 14, 1 << 10)

    def host(n, dt, tag):
        """Random host data of dtype ``dt``: floats in [0, 1), integers over the int32 range."""
        def make():
            x = H.rand(n, np.float32 if dt == np.float32 else np.float64, tag)
            if np.dtype(dt).kind == "i":
                return (x * 2.0 ** 31).astype(dt)
            return x.astype(dt)
        return make

    def case(label, hosts, f_np, f_torch, nbytes):
        return api.case(label, hosts, f_np, f_torch, nbytes=nbytes)

    out = []
    # sort / argsort of 2^24 and 2^26 keys of int32, float32, float64
    for n in (big, mid):
        for dt in (np.float32, np.int32, np.float64):
            w = np.dtype(dt).itemsize
            name = np.dtype(dt).name
            out.append(case(f"sort {name} {p2(n)}", [host(n, dt, "s")],
                            lambda xp, x: xp.sort(x), lambda t, x: t.sort(x).values,
                            2 * w * n))
            out.append(case(f"argsort {name} {p2(n)}", [host(n, dt, "s")],
                            lambda xp, x: xp.argsort(x), lambda t, x: t.argsort(x),
                            w * n + 8 * n))
    # sort along the last axis of (2^14, 2^10) float32: one block per row
    r, m = rows
    out.append(case(f"sort(axis=-1) float32 ({p2(r)},{p2(m)})",
                    [lambda: H.rand((r, m), np.float32, "r")],
                    lambda xp, x: xp.sort(x, axis=-1), lambda t, x: t.sort(x, dim=-1).values,
                    2 * 4 * r * m))
    out.append(case(f"argsort(axis=-1) float32 ({p2(r)},{p2(m)})",
                    [lambda: H.rand((r, m), np.float32, "r")],
                    lambda xp, x: xp.argsort(x, axis=-1), lambda t, x: t.argsort(x, dim=-1),
                    (4 + 8) * r * m))
    # the other helpers' functions on top of the sort (issue 14's table)
    small_ints = lambda: (H.rand(mid, np.float32, "u") * 2 ** 16).astype(np.int32)  # noqa: E731
    out.append(case(f"unique int32 {p2(mid)} (2^16 distinct)", [small_ints],
                    lambda xp, x: xp.unique(x), lambda t, x: t.unique(x), 2 * 4 * mid))
    # values over all of int32's range: no table, the sort path (npgpu's small-range table above)
    wide_ints = lambda: (H.rand(mid, np.float32, "w") * 2 ** 31).astype(np.int32)  # noqa: E731
    out.append(case(f"unique int32 {p2(mid)} (wide range)", [wide_ints],
                    lambda xp, x: xp.unique(x), lambda t, x: t.unique(x), 2 * 4 * mid))
    out.append(case(f"median float32 {p2(mid)}", [lambda: H.rand(mid, np.float32, "q")],
                    lambda xp, x: xp.median(x), lambda t, x: t.median(x), 4 * mid))
    keys = lambda: np.sort(H.rand(mid, np.float32, "k"))  # noqa: E731
    out.append(case(f"searchsorted {p2(mid)} queries into {p2(mid)} keys",
                    [keys, lambda: H.rand(mid, np.float32, "v")],
                    lambda xp, k, v: xp.searchsorted(k, v),
                    lambda t, k, v: t.searchsorted(k, v), 4 * mid + 4 * mid + 8 * mid))
    vals = lambda: (H.rand(big, np.float32, "b") * 1024).astype(np.int64)  # noqa: E731
    out.append(case(f"bincount int64 {p2(big)} in [0, 1024)", [vals],
                    lambda xp, x: xp.bincount(x), lambda t, x: t.bincount(x), 8 * big))
    out.append(case(f"histogram 256 bins float32 {p2(big)}",
                    [lambda: H.rand(big, np.float32, "h")],
                    lambda xp, x: xp.histogram(x, bins=256)[0],
                    lambda t, x: t.histc(x, bins=256), 4 * big))
    # small calls: host overhead (issue 20; npgpu's tiny paths: NPGPU_SORT_TINY,
    # NPGPU_UNIQUE_TINY, NPGPU_SEARCH_TINY=0 turn them off for an A/B run)
    for n in (16, 1024):
        tiny = [(f"tiny sort float32 {n}", lambda xp, x: xp.sort(x),
                 lambda t, x: t.sort(x).values),
                (f"tiny argsort float32 {n}", lambda xp, x: xp.argsort(x),
                 lambda t, x: t.argsort(x)),
                (f"tiny unique float32 {n}", lambda xp, x: xp.unique(x),
                 lambda t, x: t.unique(x)),
                (f"tiny unique counts float32 {n}",
                 lambda xp, x: xp.unique(x, return_counts=True)[1],
                 lambda t, x: t.unique(x, return_counts=True)[1])]
        # unique's input: n / 4 distinct values
        make = (lambda n=n: H.rand(n, np.float32, "t"),
                lambda n=n: np.floor(H.rand(n, np.float32, "t") * (n // 4)))
        for label, f_np, f_torch in tiny:
            out.append(case(label, [make["unique" in label]], f_np, f_torch, None))
            out[-1].kind = "call"
        out.append(case(f"tiny searchsorted {n} queries into 1024 keys",
                        [lambda: np.sort(H.rand(1024, np.float32, "k")),
                         lambda n=n: H.rand(n, np.float32, "v")],
                        lambda xp, k, v: xp.searchsorted(k, v),
                        lambda t, k, v: t.searchsorted(k, v), None))
        out[-1].kind = "call"
    return out
