"""How a small device-to-host read waits for a long kernel: the calls that read a count or a
bounds record back (``a[m]``, ``take`` with mode 'raise', ``flatnonzero``) spent ~90 us more than
their kernels on the H200 (2026-12-02 results: take 201 us of kernel in a 294 us call; a[m]
313 us of kernels in a 411 us call), while calls without a read (roll, pad) spend ~20 us more.

Variants of ``npgpu._core.transfer._d2h`` for reads of at most 64 bytes, each timed on the
calls above (CUDA events around the whole call, as benchmarks/run.py does) in interleaved rounds:

* ``current``: ``cuMemcpyDtoHAsync`` into pageable memory, then ``cuStreamSynchronize``;
* ``sync_first``: ``cuStreamSynchronize`` first (the context's spin wait), then the copy of an
  idle stream;
* ``pinned``: the copy into a page-locked buffer, then ``cuStreamSynchronize``;
* ``poll``: the copy into a page-locked buffer, then ``cuStreamQuery`` in a Python loop.

Run: ``python3 benchmarks/experiments/scalar_read_wait.py`` (``EXP_SHIFT=12`` on the simulator,
where only ``current`` applies).
"""
import ctypes

import numpy as np

from _common import SHIFT, gl, gp, rounds, timer

from npgpu._core import transfer as T
from npgpu.cuda import runtime as rt

n = (1 << 26) >> SHIFT
side = 8192 >> (SHIFT // 2)
rng = np.random.default_rng(0)
a = gp.asarray(rng.random(n, np.float32))
m = gp.asarray(rng.random(n) < 0.5)
A = gp.asarray(rng.random((side, side), np.float32))
perm = gp.asarray((rng.random(side) * side).astype(np.int64))
calls = {"a[m]": lambda: a[m], "take raise": lambda: gp.take(A, perm, axis=1),
         "flatnonzero": lambda: gp.flatnonzero(m), "roll (no read)": lambda: gp.roll(a, 12345)}

current = T._d2h
variants = {"current": current}
if gp.backend() == "cuda":
    from npgpu.cuda import _driver as drv
    stage = gp.cuda.pinned_empty(8, np.int64)

    def _small(f):
        def d2h(host, src_ptr, nbytes, stream=None):
            if nbytes > 64:
                return current(host, src_ptr, nbytes, stream)
            rt.ensure_context()
            return f(host, src_ptr, nbytes, T._stream_handle(stream))
        return d2h

    def sync_first(host, src_ptr, nbytes, s):
        drv.check(drv.cuStreamSynchronize(s), "cuStreamSynchronize")
        drv.check(drv.cuMemcpyDtoHAsync(host.ctypes.data, src_ptr, nbytes, s), "copy")
        drv.check(drv.cuStreamSynchronize(s), "cuStreamSynchronize")

    def pinned(host, src_ptr, nbytes, s):
        drv.check(drv.cuMemcpyDtoHAsync(stage.ctypes.data, src_ptr, nbytes, s), "copy")
        drv.check(drv.cuStreamSynchronize(s), "cuStreamSynchronize")
        ctypes.memmove(host.ctypes.data, stage.ctypes.data, nbytes)

    def poll(host, src_ptr, nbytes, s):
        drv.check(drv.cuMemcpyDtoHAsync(stage.ctypes.data, src_ptr, nbytes, s), "copy")
        while drv.cuStreamQuery(s) != 0:
            pass
        ctypes.memmove(host.ctypes.data, stage.ctypes.data, nbytes)

    variants.update(sync_first=_small(sync_first), pinned=_small(pinned), poll=_small(poll))

t = timer(reps=30, budget_s=2)
for label, fn in calls.items():
    print(f"{label}:", flush=True)

    def run(v, fn=fn):
        T._d2h = variants[v]
        try:
            ref = fn()
            return t(gl, fn), f"{ref.shape}"
        finally:
            T._d2h = current
    rounds(list(variants), run, lambda s: f"{s * 1e6:8.1f} us")
