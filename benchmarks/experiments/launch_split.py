"""Where one npgpu call's time goes: each kernel launch of it timed on its own.

    python3 benchmarks/experiments/launch_split.py [EXPR ...]

EXPR is Python over ``np`` (npgpu) and these device arrays: ``a``, ``b`` (2^26 float32),
``m`` (a 50% random bool mask over 2^26), ``idx`` (2^26 int64 uniform over 2^26), ``A``
((8192, 8192) float32); where an EXPR holds a ``k``: ``k`` (2^24 int32 in [0, 2^24)), ``ks``
(``k`` sorted), ``k16`` (2^24 int32 in [0, 2^16)), ``sets`` (``npgpu.sorting.sets``), ``minmax``; default: ``a[m]``, ``np.flatnonzero(m)``, ``np.where(m, a, b)``.
Every launch of one call (after warm-up calls) is bracketed by its own pair of CUDA events
(~2 us each); the table shows each kernel's name and device time, the sum of the launches
and the whole call timed without events (the difference is host time between launches and
synchronising reads).
"""
import sys

from _common import SHIFT, copy_bandwidth, gl, gp, timer

import numpy as np

from npgpu._codegen import launcher as L
from npgpu.cuda import runtime as rt

log = []


def _wrap(cls):
    call = cls.__call__

    def timed(self, *a, **k):
        s = rt.Event().record()
        r = call(self, *a, **k)
        log.append((getattr(self, "name", None) or type(self).__name__, s, rt.Event().record()))
        return r
    cls.__call__ = timed
    return lambda: setattr(cls, "__call__", call)


def main():
    t = timer(20, 4.0)
    copy_bandwidth(t)
    n = (1 << 26) >> SHIFT
    side = 8192 >> (SHIFT // 2)
    rng = np.random.default_rng(0)
    env = {"np": gp,
           "a": gp.asarray(rng.random(n, np.float32)), "b": gp.asarray(rng.random(n, np.float32)),
           "m": gp.asarray(rng.random(n) < 0.5),
           "idx": gp.asarray(rng.integers(0, n, n)),
           "A": gp.asarray(rng.random((side, side), np.float32)),
           "perm": gp.asarray((rng.random(side) * side).astype(np.int64))}
    if any("ndi" in e for e in sys.argv[1:]):
        import npgpu.scipy.ndimage as ndi
        s12, s11 = 4096 >> (SHIFT // 2), 2048 >> (SHIFT // 2)
        env.update(ndi=ndi, I=gp.asarray(rng.random((s12, s12), np.float32)),
                   Z=gp.asarray(rng.random((s11, s11), np.float32)),
                   M=gp.asarray(rng.random((s12, s12)) < 0.3),
                   S=ndi.generate_binary_structure(2, 2))
    if any("P" in e for e in sys.argv[1:]):
        import npgpu.scipy.sparse.linalg as sla
        from sparse_linalg_cases import _poisson_host
        pside = 2048 >> (SHIFT // 2)
        env.update(P=gp.scipy.sparse.csr_matrix(_poisson_host(pside)),
                   pb=gp.asarray(rng.random(pside * pside, np.float32)), sla=sla)
    if any("k" in e for e in sys.argv[1:]):
        from npgpu.sorting import sets
        from npgpu.sorting.counting import minmax
        n24 = (1 << 24) >> SHIFT
        env.update(sets=sets, minmax=minmax, k=gp.asarray(rng.integers(0, n24, n24).astype(np.int32)),
                   k16=gp.asarray(rng.integers(0, 1 << 16, n24).astype(np.int32)))
        env["ks"] = gp.sort(env["k"])
    for expr in sys.argv[1:] or ["a[m]", "np.flatnonzero(m)", "np.where(m, a, b)"]:
        fn = eval("lambda: " + expr, env)
        whole = t(gl, fn)
        undo = [_wrap(c) for c in (L.Launcher, getattr(L, "_WideLauncher", None)) if c]
        try:
            for _ in range(3):
                fn()
            rt.get_current_stream().synchronize()
            log.clear()
            fn()
            rt.get_current_stream().synchronize()
        finally:
            for u in undo:
                u()
        print(f"{expr}: whole call {whole * 1e6:.1f} us", flush=True)
        total = 0.0
        for name, s, e in log:
            ms = rt.get_elapsed_time(s, e)
            total += ms
            print(f"  {name:40s} {ms * 1e3:9.1f} us", flush=True)
        print(f"  sum of launches {total * 1e3:.1f} us", flush=True)


if __name__ == "__main__":
    main()
