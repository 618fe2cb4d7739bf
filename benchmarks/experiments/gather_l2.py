"""Random gather ``a[idx]`` of 2^26 float32 (issue 13: no slower than the faster peer; H200
2026-12-03: 1.773 ms against CuPy 1.760 and PyTorch 1.760) under L2 settings the driver
offers: the context's maximum L2 fetch granularity (``CU_LIMIT_MAX_L2_FETCH_GRANULARITY``:
32, 64 or 128 bytes a miss; a random 4-byte load needs one 32-byte sector), and an access
policy window keeping part of the source in L2 as persisting lines (the index and the output
stream past it).  Every variant runs on one non-blocking stream (a window is a stream's
attribute); the setting is made before the variant's calls and undone after.  CuPy's gather
under the 32-byte granularity too (it shares the primary context).  Results checked against
NumPy; variants take turns in 3 rounds.

    python3 benchmarks/experiments/gather_l2.py [VARIANT ...]

H200, 2026-12-03 (before the hint): default (64-byte granularity) 1.618 ms, 32 bytes 1.676,
128 bytes 1.946, the persisting window 2.098 (CuPy 1.608, PyTorch 1.607): the driver's settings
only lose.  Also measured and dropped: the gather's index loads and output stores with the
streaming hint (``ld/st.global.cs``, evict first, so that L2 would keep more of the source):
1.623 against 1.622 ms plain (CuPy 1.607, PyTorch 1.607).
"""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import (SHIFT, cl, copy_bandwidth, gather_data, gl, gp, pct, rounds,  # noqa: E402
                     timer, tl)
from npgpu._backend import IS_CUDA  # noqa: E402

GRAN, PERSIST = 5, 6                  # CUlimit
WINDOW = 1                            # CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW
MAX_PERSIST, MAX_WINDOW = 108, 109    # CUdevice_attribute


class Window(ctypes.Structure):       # CUaccessPolicyWindow
    _fields_ = [("base_ptr", ctypes.c_void_p), ("num_bytes", ctypes.c_size_t),
                ("hitRatio", ctypes.c_float), ("hitProp", ctypes.c_int),
                ("missProp", ctypes.c_int)]


class AttrValue(ctypes.Union):        # CUlaunchAttributeValue (64 bytes)
    _fields_ = [("window", Window), ("pad", ctypes.c_char * 64)]


if IS_CUDA:
    from npgpu.cuda import _driver as D
    lib = D._lib

    def limit(which, value=None):
        v = ctypes.c_size_t()
        D.check(lib.cuCtxGetLimit(ctypes.byref(v), which), "cuCtxGetLimit")
        if value is not None:
            D.check(lib.cuCtxSetLimit(which, ctypes.c_size_t(value)), "cuCtxSetLimit")
        return v.value

    def attribute(which):
        v = ctypes.c_int()
        D.check(D.cuDeviceGetAttribute(ctypes.byref(v), which, 0), "cuDeviceGetAttribute")
        return v.value

    def window(stream, base, nbytes, ratio):
        v = AttrValue()
        v.window = Window(base, nbytes, ratio, 2 if nbytes else 0, 1 if nbytes else 0)
        D.check(lib.cuStreamSetAttribute(ctypes.c_void_p(stream.ptr), WINDOW, ctypes.byref(v)),
                "cuStreamSetAttribute")
else:                                 # the simulator: the settings are no-ops
    def limit(which, value=None):
        return 0

    def attribute(which):
        return 0

    def window(stream, base, nbytes, ratio):
        pass


t = timer(20, 2.0)
bw = copy_bandwidth(t)
n, ha, hi, a, idx, want = gather_data()
stream = gp.cuda.Stream(non_blocking=True)
gran0 = limit(GRAN)
max_persist, max_window = attribute(MAX_PERSIST), attribute(MAX_WINDOW)
print(f"granularity {gran0} B; persisting L2 up to {max_persist} B, window up to {max_window} B",
      flush=True)


def setting(v):
    """Apply variant ``v``'s settings; returns the function undoing them."""
    g = {"gran32": 32, "gran64": 64, "gran128": 128, "persist+gran32": 32,
         "cupy gran32": 32}.get(v)
    if g is not None:
        limit(GRAN, g)
    if v.startswith("persist") and max_persist:
        limit(PERSIST, max_persist)
        nb = min(a.nbytes, max_window)
        window(stream, a._ptr, nb, min(1.0, max_persist / nb))

    def undo():
        limit(GRAN, gran0)
        if v.startswith("persist") and max_persist:
            window(stream, 0, 0, 0.0)
            limit(PERSIST, 0)
    return undo


def run(v):
    undo = setting(v)
    try:
        if v.startswith("cupy"):
            ca, ci = cl.cp.asarray(ha), cl.cp.asarray(hi)
            return t(cl, lambda: ca[ci]), ""
        if v == "torch":
            tt = tl.torch
            ta, ti = tt.as_tensor(ha, device="cuda"), tt.as_tensor(hi, device="cuda")
            return t(tl, lambda: ta[ti]), ""
        with stream:
            s = t(gl, lambda: a[idx])
            ok = np.array_equal(a[idx].get(), want)
        return s, "ok" if ok else "WRONG RESULT"
    finally:
        undo()


print(f"a[idx]: 2^{26 - SHIFT} float32, int64 indices", flush=True)
rounds(sys.argv[1:] or ["default", "gran32", "gran64", "gran128", "persist", "persist+gran32",
                        "cupy", "cupy gran32", "torch"], run,
       lambda s: pct(bw, 16 * n, s))
