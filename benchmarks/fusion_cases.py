"""Benchmark cases of issue 17 (``@npgpu.fuse``): the issue's sizes against CuPy's ``cupy.fuse``
and ``torch.compile`` (its compile excluded: the harness's warm-up calls run first); NumPy runs
the plain function.  ``nbytes`` counts one read of every input and one write of the result
(the copy ceiling's bytes)."""
import numpy as np


def _fused(lib, api, body, torch_body=None):
    """``body(xp, *arrays)`` as each library fuses it."""
    t = api.torch_of(lib)
    if t is not None:
        tb = torch_body or body
        return t.compile(lambda *a: tb(t, *a))
    xp = lib.xp
    if lib.name == "npgpu":
        return xp.fuse(lambda *a: body(xp, *a))
    if lib.name == "cupy":
        def fused_case(*a):        # cupy.fuse names its kernel after the function: no lambda
            return body(xp, *a)
        return xp.fuse(fused_case)
    return lambda *a: body(xp, *a)                 # numpy: the plain function


def _chain(xp, x):
    # ten elementwise operations
    y = x * 1.5 + 2.0
    y = y * x - 0.5
    y = y / (x * x + 3.0)
    return xp.sin(y) * 0.25 + x


def _rownorm(xp, x):
    return (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)


def _rownorm_torch(t, x):
    return (x - x.mean(dim=1, keepdim=True)) / x.std(dim=1, keepdim=True, correction=0)


def cases(cfg, api):
    Case, p2, H = api.Case, api.p2, api.H
    smoke = cfg["smoke"]
    rows, cols = (4, 64) if smoke else (1024, 1 << 18)
    n = 1 << 10 if smoke else 1 << 28
    side = 32 if smoke else 1 << 14
    f32 = np.float32

    def case(label, shapes, body, nbytes, torch_body=None, kind="bw"):
        hosts = [lambda s=s, k=k: H.rand(s, f32, f"f{k}") for k, s in enumerate(shapes)]

        def make(lib):
            xs = [lib.put(h()) for h in hosts]
            f = _fused(lib, api, body, torch_body)
            return lambda: f(*xs)
        return Case(label, make, kind=kind, nbytes=nbytes)

    saxpy = lambda xp, x, y: 2.0 * x + y  # noqa: E731
    return [
        case(f"fused saxpy f32 ({p2(rows)},{p2(cols)})", [(rows, cols)] * 2, saxpy,
             3 * 4 * rows * cols),
        case(f"fused 10-op chain f32 {p2(n)}", [(n,)], _chain, 2 * 4 * n),
        case(f"fused sum((a - b) ** 2) f32 {p2(n)}", [(n,), (n,)],
             lambda xp, a, b: xp.sum((a - b) ** 2), 2 * 4 * n,
             torch_body=lambda t, a, b: t.sum((a - b) ** 2)),
        case(f"fused row normalisation f32 ({p2(side)},{p2(side)})", [(side, side)], _rownorm,
             2 * 4 * side * side, torch_body=_rownorm_torch),
        case("fused saxpy f32 16 (per call)", [(16,), (16,)], saxpy, None, kind="call"),
    ]
