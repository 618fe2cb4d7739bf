"""Section "exchange" of benchmarks/run.py: issue 19's zero-copy exchange, per call.

Target (issue 19, H200): a zero-copy exchange (npgpu -> PyTorch -> npgpu, DLPack and CAI
each) <= 10 us per conversion.  Every case is host time per call ("call": back-to-back calls
between two synchronisations) of a small float32 array (16 elements; the size does not matter
to a zero-copy exchange).  The column is the library whose array is exported or imported;
CuPy's column shows the same exchange done by CuPy where it has one:

* "DLPack export + import, own array": ``L.from_dlpack`` of a wrapper around L's own array
  (the wrapper defeats the shortcut for a library's own type), so the whole protocol runs:
  ``__dlpack_device__``, ``__dlpack__`` (capsule built), capsule parsed, array made.
* "CAI export + import, own array": ``L.asarray`` of a wrapper that only has L's array's
  ``__cuda_array_interface__`` (a property, as PyTorch's).
* "L -> torch", "torch -> L": one conversion through DLPack or the CUDA Array Interface.
* "npgpu -> torch -> npgpu": the issue's round trip, two conversions.
* "... npgpu on a side stream": the producer's current stream differs from the consumer's,
  so each export records an event and queues a wait (the race-free path's cost).
"""
import importlib.util

import numpy as np

N = 16


class _Wrapped:
    """Exposes only the DLPack protocol of ``a`` (from_dlpack cannot take its shortcut)."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kw):
        return self.a.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def _have(name):
    return importlib.util.find_spec(name) is not None


def _torch():
    import torch
    return torch


def _own_round(lib):
    # L.from_dlpack of a wrapper of L's own array: the full protocol, no peer involved
    x = lib.put(np.arange(N, dtype=np.float32))
    w = _Wrapped(x)
    if lib.name == "torch":
        return lambda: lib.torch.from_dlpack(w)
    return lambda: lib.xp.from_dlpack(w)


class _CAIOnly:
    """Exposes only ``__cuda_array_interface__`` of ``a``, read anew on every access (a
    property, as PyTorch's is)."""

    def __init__(self, a):
        self.a = a

    @property
    def __cuda_array_interface__(self):
        return self.a.__cuda_array_interface__


def _own_round_cai(lib):
    # L.asarray of a wrapper of L's own array: CAI read (dict built) and imported
    x = lib.put(np.arange(N, dtype=np.float32))
    w = _CAIOnly(x)
    return lambda: lib.xp.asarray(w)


def _to_torch(via):
    def make(lib):
        torch = _torch()
        x = lib.put(np.arange(N, dtype=np.float32))
        if via == "dlpack":
            return lambda: torch.from_dlpack(x)
        return lambda: torch.as_tensor(x, device="cuda")
    return make


def _from_torch(via):
    def make(lib):
        torch = _torch()
        t = torch.arange(N, dtype=torch.float32, device="cuda")
        if via == "dlpack":
            return lambda: lib.xp.from_dlpack(t)
        return lambda: lib.xp.asarray(t)
    return make


def _round_trip(via, side_stream=False):
    def make(lib):
        torch = _torch()
        gp = lib.gp
        x = gp.arange(N, dtype=np.float32)
        if via == "dlpack":
            f = lambda: gp.from_dlpack(torch.from_dlpack(x))          # noqa: E731
        else:
            f = lambda: gp.asarray(torch.as_tensor(x, device="cuda"))  # noqa: E731
        if not side_stream:
            return f
        s = gp.cuda.Stream(non_blocking=True)

        def on_side_stream():
            with s:
                return f()
        return on_side_stream
    return make


def _npgpu_to_cupy(lib):
    import cupy
    x = lib.gp.arange(N, dtype=np.float32)
    return lambda: cupy.from_dlpack(x)


def cases(cfg, api):
    Case = api.Case
    n = f"f32 {N}"
    out = [Case(f"DLPack export + import, own array, {n}", _own_round, kind="call"),
           Case(f"CAI export + import, own array, {n}", _own_round_cai, kind="call",
                libs=("npgpu", "cupy"))]
    if not _have("torch"):          # the simulator's CI: only the protocol's own cost
        return out
    peers = ("npgpu", "cupy")
    out += [
        Case(f"DLPack L -> torch {n}", _to_torch("dlpack"), kind="call", libs=peers),
        Case(f"DLPack torch -> L {n}", _from_torch("dlpack"), kind="call", libs=peers),
        Case(f"CAI L -> torch (as_tensor) {n}", _to_torch("cai"), kind="call", libs=peers),
        Case(f"CAI torch -> L (asarray) {n}", _from_torch("cai"), kind="call", libs=peers),
        Case(f"DLPack npgpu -> torch -> npgpu {n} (2 conversions)", _round_trip("dlpack"),
             kind="call", libs=("npgpu",)),
        Case(f"CAI npgpu -> torch -> npgpu {n} (2 conversions)", _round_trip("cai"),
             kind="call", libs=("npgpu",)),
        Case(f"DLPack npgpu -> torch -> npgpu {n}, npgpu on a side stream (2 conversions)",
             _round_trip("dlpack", side_stream=True), kind="call", libs=("npgpu",)),
    ]
    if _have("cupy"):
        out.append(Case(f"DLPack npgpu -> cupy {n}", _npgpu_to_cupy, kind="call",
                        libs=("npgpu",)))
    return out
