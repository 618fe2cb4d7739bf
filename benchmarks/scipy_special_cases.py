"""Benchmark cases of npgpu.scipy.special (issue 25): the issue's sizes, cupyx.scipy.special and
torch.special as peers.  Elementwise cases count one read and one write (copy ceiling)."""
import numpy as np


def _special(lib):
    """The library's scipy.special namespace."""
    if lib.name == "npgpu":
        return lib.gp.scipy.special
    if lib.name == "cupy":
        import cupyx.scipy.special
        return cupyx.scipy.special
    import scipy.special
    return scipy.special


def cases(cfg, api):
    Case, p2, H = api.Case, api.p2, api.H
    smoke = cfg["smoke"]
    n32 = 1 << 10 if smoke else 1 << 28
    n64 = 1 << 9 if smoke else 1 << 27
    side = 1 << 5 if smoke else 1 << 14

    def unary(name, torch_name, n, dt, tag, lo=-3.0, hi=3.0):
        def make(lib):
            x = lib.put((lo + (hi - lo) * H.rand(n, dt, tag)).astype(dt))
            t = api.torch_of(lib)
            if t is not None:
                f = getattr(t.special, torch_name)
                return lambda: f(x)
            f = getattr(_special(lib), name)
            return lambda: f(x)
        return Case(f"{name} {np.dtype(dt).name[0]}{np.dtype(dt).itemsize * 8} {p2(n)}", make,
                    nbytes=2 * np.dtype(dt).itemsize * n)

    def binary(name, torch_name, n, dt, lo, hi):
        """Both arguments drawn from [lo, hi) (gammainc: a and x of one scale, where the series
        and the continued fraction both run); one write and two reads."""
        def make(lib):
            a = lib.put((lo + (hi - lo) * H.rand(n, dt, "ba")).astype(dt))
            x = lib.put((lo + (hi - lo) * H.rand(n, dt, "bx")).astype(dt))
            t = api.torch_of(lib)
            if t is not None:
                f = getattr(t.special, torch_name)
                return lambda: f(a, x)
            f = getattr(_special(lib), name)
            return lambda: f(a, x)
        return Case(f"{name} {np.dtype(dt).name[0]}{np.dtype(dt).itemsize * 8} {p2(n)}", make,
                    nbytes=3 * np.dtype(dt).itemsize * n)

    def along_rows(name, torch_call):
        def make(lib):
            x = lib.put(H.rand((side, side), np.float32, "a"))
            t = api.torch_of(lib)
            if t is not None:
                return lambda: torch_call(t, x)
            f = getattr(_special(lib), name)
            return lambda: f(x, axis=1)
        return make

    nzeta = 1 << 8 if smoke else 1 << 20

    def complex_zeta(lib):
        # Borwein's sum (|Im z| <= 50), Euler-Maclaurin (to 200) and the functional equation
        # (Re z < 1/2) in one array: SciPy's loop on the host as the NumPy column (no GPU peer
        # has a complex zeta)
        re = -4.0 + 12.0 * H.rand(nzeta, np.float64, "zr")
        im = -200.0 + 400.0 * H.rand(nzeta, np.float64, "zi")
        z = lib.put(re + 1j * im)
        f = _special(lib).zeta
        return lambda: f(z)

    f32, f64 = np.float32, np.float64
    return [
        Case(f"zeta c128 {p2(nzeta)}", complex_zeta, nbytes=2 * 16 * nzeta,
             libs=("npgpu", "numpy")),
        unary("erf", "erf", n32, f32, "a"),
        unary("erf", "erf", n64, f64, "a"),
        unary("gammaln", "gammaln", n32, f32, "g", 0.1, 50.0),
        unary("gammaln", "gammaln", n64, f64, "g", 0.1, 50.0),
        unary("expit", "expit", n32, f32, "e", -20.0, 20.0),
        unary("ndtri", "ndtri", n32, f32, "p", 0.0, 1.0),
        unary("i0e", "i0e", n32, f32, "i", -20.0, 20.0),
        unary("digamma", "digamma", n32, f32, "d", -10.0, 30.0),
        binary("gammainc", "gammainc", n32, f32, 0.1, 20.0),
        Case(f"logsumexp axis 1 f32 ({p2(side)},{p2(side)})",
             along_rows("logsumexp", lambda t, x: t.logsumexp(x, 1)), nbytes=4 * side * side),
        Case(f"softmax axis 1 f32 ({p2(side)},{p2(side)})",
             along_rows("softmax", lambda t, x: t.softmax(x, 1)), nbytes=2 * 4 * side * side),
        Case(f"log_softmax axis 1 f32 ({p2(side)},{p2(side)})",
             along_rows("log_softmax", lambda t, x: t.log_softmax(x, 1)),
             nbytes=2 * 4 * side * side),
    ]
