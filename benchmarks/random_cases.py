"""Benchmark cases of npgpu.random (issue 15): the issue's sizes, CuPy's Generator and PyTorch
as peers.  ``random`` cases count the bytes written once (against the copy ceiling)."""
import numpy as np


def cases(cfg, api):
    Case, p2 = api.Case, api.p2
    smoke = cfg["smoke"]
    n32 = 1 << 10 if smoke else 1 << 28       # float32 elements
    n64 = 1 << 9 if smoke else 1 << 27        # float64 / int64 elements
    nperm = 1 << 8 if smoke else 1 << 24

    def gen(lib):
        if lib.name == "npgpu":
            return lib.gp.random.default_rng(1234)
        if lib.name == "cupy":
            return lib.xp.random.default_rng(1234)
        if lib.name == "torch":
            g = lib.torch.Generator(device="cuda")
            g.manual_seed(1234)
            return g
        return np.random.default_rng(1234)

    def make(np_call, torch_call):
        def build(lib):
            g = gen(lib)
            t = api.torch_of(lib)
            if t is not None:
                return lambda: torch_call(t, g)
            return lambda: np_call(g)
        return build

    f32, f64 = np.float32, np.float64
    out = [
        Case(f"random f32 {p2(n32)}",
             make(lambda g: g.random(n32, dtype=f32),
                  lambda t, g: t.rand(n32, device="cuda", dtype=t.float32, generator=g)),
             nbytes=4 * n32),
        Case(f"random f64 {p2(n64)}",
             make(lambda g: g.random(n64, dtype=f64),
                  lambda t, g: t.rand(n64, device="cuda", dtype=t.float64, generator=g)),
             nbytes=8 * n64),
        Case(f"standard_normal f32 {p2(n32)}",
             make(lambda g: g.standard_normal(n32, dtype=f32),
                  lambda t, g: t.randn(n32, device="cuda", dtype=t.float32, generator=g)),
             nbytes=4 * n32),
        Case(f"standard_normal f64 {p2(n64)}",
             make(lambda g: g.standard_normal(n64),
                  lambda t, g: t.randn(n64, device="cuda", dtype=t.float64, generator=g)),
             nbytes=8 * n64),
        Case(f"normal(1, 2) f64 {p2(n64)}",
             make(lambda g: g.normal(1.0, 2.0, n64),
                  lambda t, g: t.empty(n64, device="cuda", dtype=t.float64).normal_(
                      1.0, 2.0, generator=g)),
             nbytes=8 * n64),
        Case(f"integers int64 [0, 2^31) {p2(n64)}",
             make(lambda g: g.integers(0, 2 ** 31, n64, dtype=np.int64),
                  lambda t, g: t.randint(0, 2 ** 31, (n64,), device="cuda", dtype=t.int64,
                                         generator=g)),
             nbytes=8 * n64),
        Case(f"exponential f64 {p2(n64)}",
             make(lambda g: g.exponential(1.0, n64),
                  lambda t, g: t.empty(n64, device="cuda", dtype=t.float64).exponential_(
                      1.0, generator=g)),
             nbytes=8 * n64),
        Case(f"permutation {p2(nperm)}",
             make(lambda g: g.permutation(nperm),
                  lambda t, g: t.randperm(nperm, device="cuda", generator=g)),
             nbytes=8 * nperm, libs=("npgpu", "torch", "numpy")),
        Case("tiny random f64 16",
             make(lambda g: g.random(16),
                  lambda t, g: t.rand(16, device="cuda", dtype=t.float64, generator=g)),
             kind="call"),
        Case("tiny integers int64 16",
             make(lambda g: g.integers(0, 1000, 16),
                  lambda t, g: t.randint(0, 1000, (16,), device="cuda", generator=g)),
             kind="call"),
        Case("tiny standard_normal f32 16",
             make(lambda g: g.standard_normal(16, dtype=f32),
                  lambda t, g: t.randn(16, device="cuda", dtype=t.float32, generator=g)),
             kind="call"),
    ]
    return out
