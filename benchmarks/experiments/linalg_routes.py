"""cuSOLVER route experiments for the H200: which Cholesky / SVD route to make the default.

Times every ``NPGPU_CHOLESKY_ALGO`` and ``NPGPU_SVD_ALGO`` route (the variable is set in
``os.environ`` before each variant; npgpu reads it at each call) next to PyTorch and CuPy,
with CUDA events around each call as a user makes it (npgpu's info-flag check, and its wait
for the GPU, included), warm-up first, then the median.  SVD rows also show the accuracy,
computed on the host in float64/complex128:

  rec   ||A - U S V^H||_F / ||A||_F        ou/ov  ||U^H U - I||_F, ||V^H V - I||_F
  ds    max |s - s_numpy| / max s          test   would tests/test_linalg_decomp.py's
        accuracy bound (max-abs errors within 10x NumPy's + 10 eps) hold: ok / FAIL(which)

Run: ``python3 benchmarks/experiments/linalg_routes.py``  (about a minute; sizes: EXP_CHOL_N,
EXP_SVD_N, EXP_CSVD_N; EXP_BUDGET_S bounds the last, optional section).  Every variant runs in
its own try/except, so one failing route prints its exception and the run goes on.  gesvdp
runs after everything else (a route that broke the CUDA context would take the rest with it).
"""
import contextlib
import os
import sys
import time
import traceback

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)                       # `import npgpu` from a checkout
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

from _timing import CupyLib, NpgpuLib, TorchLib  # noqa: E402

T0 = time.perf_counter()
CHOL_N = int(os.environ.get("EXP_CHOL_N", "4096"))
SVD_N = int(os.environ.get("EXP_SVD_N", "1024"))
CSVD_N = int(os.environ.get("EXP_CSVD_N", "512"))
BUDGET_S = float(os.environ.get("EXP_BUDGET_S", "80"))
ENV_VARS = ("NPGPU_CHOLESKY_ALGO", "NPGPU_SVD_ALGO", "NPGPU_SVDJ_TOL", "NPGPU_SVDJ_SWEEPS")
rng = np.random.default_rng(2024)


def say(*args):
    print(*args, flush=True)


def short_exc(e):
    msg = f"{type(e).__name__}: {e}".replace("\n", " ")
    return msg[:160]


@contextlib.contextmanager
def env(**kw):
    """Set the route variables for one variant (the rest of ENV_VARS unset), restore after."""
    old = {k: os.environ.get(k) for k in ENV_VARS}
    for k in ENV_VARS:
        os.environ.pop(k, None)
    os.environ.update({k: str(v) for k, v in kw.items()})
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def load_libs():
    libs = {}
    for cls in (NpgpuLib, TorchLib, CupyLib):
        try:
            libs[cls.name] = cls()
        except Exception as e:
            say(f"[{cls.name} unavailable: {short_exc(e)}]")
    return libs


def to_host(x):
    if hasattr(x, "get"):                  # npgpu, CuPy
        return np.asarray(x.get())
    if hasattr(x, "cpu"):                  # torch
        return x.detach().cpu().numpy()
    return np.asarray(x)


def fmt_ms(t):
    return f"{t * 1e3:9.2f}" if t is not None else "        -"


# ---- Cholesky ------------------------------------------------------------------------------------
CHOL_VARIANTS = [("blocked", {"NPGPU_CHOLESKY_ALGO": "blocked"}),
                 ("xpotrf_lower", {"NPGPU_CHOLESKY_ALGO": "xpotrf_lower"}),
                 ("xpotrf_upper", {"NPGPU_CHOLESKY_ALGO": "xpotrf_upper"}),
                 ("dpotrf", {"NPGPU_CHOLESKY_ALGO": "dpotrf"})]


def section_cholesky(libs):
    n = CHOL_N
    m = rng.standard_normal((n, n))
    a = m @ m.T + n * np.eye(n)
    t = time.perf_counter()
    l_np = np.linalg.cholesky(a)
    t_np = time.perf_counter() - t
    nrm = np.linalg.norm(l_np)
    bad = -np.eye(4)
    say(f"\n== cholesky float64 {n}x{n} SPD: median of 10, CUDA events, info check included ==")
    say(f"{'variant':28s} {'ms':>9s}  {'relerr L':>9s}  {'relerr U':>9s}  non-PD raises")
    say(f"{'numpy (host)':28s} {fmt_ms(t_np)}")

    def row(label, lib, fn, fn_upper=None, fn_bad=None):
        try:
            x = lib.put(a)
            r = lib.time_events(lambda: fn(x), reps=10, warmup=2, budget_s=3.0, min_reps=5)
            el = np.linalg.norm(to_host(fn(x)) - l_np) / nrm
            eu = "-"
            if fn_upper is not None:
                eu = f"{np.linalg.norm(to_host(fn_upper(x)) - l_np.T) / nrm:9.1e}"
            raises = "-"
            if fn_bad is not None:
                try:
                    fn_bad(lib.put(bad))
                    lib.sync()
                    raises = "NO (returned)"
                except Exception as e:     # NumPy's, torch's (a RuntimeError) LinAlgError
                    raises = "yes" if "LinAlgError" in type(e).__name__ else \
                        "other: " + short_exc(e)[:40]
            say(f"{label:28s} {fmt_ms(r['time_s'])}  {el:9.1e}  {eu:>9s}  {raises}")
        except Exception as e:
            say(f"{label:28s} ERROR {short_exc(e)}")
        finally:
            lib.free()

    gp_lib = libs.get("npgpu")
    if gp_lib is not None:
        gp = gp_lib.gp
        for label, kw in CHOL_VARIANTS:
            with env(**kw):
                row("npgpu " + label, gp_lib, gp.linalg.cholesky,
                    lambda x: gp.linalg.cholesky(x, upper=True), gp.linalg.cholesky)
        with env(NPGPU_CHOLESKY_ALGO="blocked"):     # what the info check's wait costs
            prev = gp.linalg.set_error_check(False)
            try:
                row("npgpu blocked (no check)", gp_lib, gp.linalg.cholesky)
            finally:
                gp.linalg.set_error_check(prev)
    tl = libs.get("torch")
    if tl is not None:
        torch = tl.torch
        row("torch linalg.cholesky", tl, torch.linalg.cholesky,
            lambda x: torch.linalg.cholesky(x, upper=True), torch.linalg.cholesky)
        row("torch cholesky_ex (no check)", tl, lambda x: torch.linalg.cholesky_ex(x)[0])
    cl = libs.get("cupy")
    if cl is not None:
        row("cupy linalg.cholesky", cl, cl.cp.linalg.cholesky, None, cl.cp.linalg.cholesky)


# ---- SVD -----------------------------------------------------------------------------------------
SVD_VARIANTS = [("auto (default)", {}),
                ("gesvdp64", {"NPGPU_SVD_ALGO": "gesvdp64"}),
                ("gesvd", {"NPGPU_SVD_ALGO": "gesvd"}),
                ("gesvdj", {"NPGPU_SVD_ALGO": "gesvdj"}),
                ("gesvdj tol1e-7 sw100", {"NPGPU_SVD_ALGO": "gesvdj", "NPGPU_SVDJ_TOL": "1e-7",
                                          "NPGPU_SVDJ_SWEEPS": "100"}),
                ("gesvdj tol0", {"NPGPU_SVD_ALGO": "gesvdj", "NPGPU_SVDJ_TOL": "0"}),
                ("gesvd64", {"NPGPU_SVD_ALGO": "gesvd64"}),
                ("gesvdj64", {"NPGPU_SVD_ALGO": "gesvdj64"}),
                ("gesvdj64 tol1e-7", {"NPGPU_SVD_ALGO": "gesvdj64", "NPGPU_SVDJ_TOL": "1e-7"})]
GESVDP = [("gesvdp", {"NPGPU_SVD_ALGO": "gesvdp"})]


def rand(shape, dt):
    dt = np.dtype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def svd_errors(a, u, s, vh):
    """Frobenius-relative and max-abs errors, in float64/complex128."""
    hi = np.complex128 if a.dtype.kind == "c" else np.float64
    a, u, vh, s = a.astype(hi), u.astype(hi), vh.astype(hi), s.astype(np.float64)
    k = s.shape[-1]
    r = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :] - a
    eu = np.conj(np.swapaxes(u, -1, -2)) @ u - np.eye(u.shape[-1])
    ev = vh @ np.conj(np.swapaxes(vh, -1, -2)) - np.eye(vh.shape[-2])
    return {"rec": np.linalg.norm(r.ravel()) / np.linalg.norm(a.ravel()),
            "ou": np.linalg.norm(eu.ravel()), "ov": np.linalg.norm(ev.ravel()),
            "max": (np.abs(r).max(), np.abs(eu).max(), np.abs(ev).max())}


def verdict(a, got, ref, s, ns):
    """The bound of test_gpu_svd_accuracy: ok, or the names of the errors that break it."""
    eps = np.finfo(a.dtype).eps
    smax = np.abs(ns).max()
    bad = []
    if s.shape != ns.shape or np.any(np.diff(s, axis=-1) > 0):
        bad.append("order")
    elif np.abs(s - ns).max() > 10 * max(a.shape[-2:]) * eps * smax:
        bad.append("s")
    for name, g, w, f in zip(("rec", "ou", "ov"), got["max"], ref["max"], (smax, 1.0, 1.0)):
        if not g <= 10 * w + 10 * eps * f:
            bad.append(name)
    return "ok" if not bad else "FAIL(" + ",".join(bad) + ")"


class SvdCase:
    def __init__(self, dt, n):
        self.dt, self.n = np.dtype(dt), n
        self.a = rand((n, n), dt)
        t = time.perf_counter()
        nu, ns, nvh = np.linalg.svd(self.a, full_matrices=False)
        self.t_np = time.perf_counter() - t
        self.ns = ns
        self.ref = svd_errors(self.a, nu, ns, nvh)

    def header(self):
        say(f"\n== svd {self.dt.name} {self.n}x{self.n}, full_matrices=False: median of 5, CUDA "
            "events, info check included ==")
        say(f"{'variant':28s} {'ms':>9s}  {'rec':>8s}  {'ou':>8s}  {'ov':>8s}  {'ds':>8s}  test")
        r = self.ref
        say(f"{'numpy (host)':28s} {fmt_ms(self.t_np)}  {r['rec']:8.1e}  {r['ou']:8.1e}  "
            f"{r['ov']:8.1e}  {0:8.1e}  (reference)")

    def row(self, label, lib, fn, extra=""):
        try:
            x = lib.put(self.a)
            r = lib.time_events(lambda: fn(x), reps=5, warmup=1, budget_s=4.0, min_reps=3)
            u, s, vh = (to_host(y) for y in fn(x))
            got = svd_errors(self.a, u, s, vh)
            ds = np.abs(s - self.ns).max() / self.ns.max()
            v = verdict(self.a, got, self.ref, s, self.ns)
            dts = "" if (u.dtype, s.dtype) == (self.dt, np.dtype(self.dt.char.lower())) else \
                f" dtypes {u.dtype}/{s.dtype}!"
            say(f"{label:28s} {fmt_ms(r['time_s'])}  {got['rec']:8.1e}  {got['ou']:8.1e}  "
                f"{got['ov']:8.1e}  {ds:8.1e}  {v}{dts}{extra() if extra else ''}")
        except Exception as e:
            say(f"{label:28s} ERROR {short_exc(e)}")
        finally:
            lib.free()


def npgpu_svd_rows(case, gp_lib, variants):
    gp = gp_lib.gp
    from npgpu.linalg import _solver
    for label, kw in variants:
        extra = None
        if kw.get("NPGPU_SVD_ALGO") == "gesvdp":
            extra = lambda: f"  err_sigma={_solver.gesvdp_err_sigma[0]:.1e}"  # noqa: E731
        with env(**kw):
            case.row("npgpu " + label, gp_lib, lambda x: gp.linalg.svd(x, full_matrices=False),
                     extra)


def section_svd(libs, case):
    case.header()
    tl = libs.get("torch")
    if tl is not None:
        case.row("torch linalg.svd", tl, lambda x: tl.torch.linalg.svd(x, full_matrices=False))
    cl = libs.get("cupy")
    if cl is not None:
        case.row("cupy linalg.svd", cl, lambda x: cl.cp.linalg.svd(x, full_matrices=False))
    if "npgpu" in libs:
        npgpu_svd_rows(case, libs["npgpu"], SVD_VARIANTS)


# ---- the accuracy bound of the GPU tests, per route ----------------------------------------------
SWEEP_SHAPES = [((256, 256), None), ((300, 120), None), ((120, 300), None), ((200, 200), 40),
                ((3, 40, 24), None)]


# gesvdp late (see the module docstring); the known-inaccurate default-tolerance Jacobi last,
# as the time budget may cut the end off
SWEEP_VARIANTS = ([SVD_VARIANTS[i] for i in (0, 1, 2, 4, 6, 7, 8)] + GESVDP
                  + [SVD_VARIANTS[i] for i in (3, 5)])
# EXP_SVD_ONLY="auto (default),gesvdp64": time and sweep only these routes (labels as above)
_ONLY = [x for x in os.environ.get("EXP_SVD_ONLY", "").split(",") if x]
if _ONLY:
    SVD_VARIANTS = [v for v in SVD_VARIANTS if v[0] in _ONLY]
    SWEEP_VARIANTS = [v for v in SWEEP_VARIANTS if v[0] in _ONLY]
    GESVDP = [v for v in GESVDP if v[0] in _ONLY]


def section_sweep(libs, variants):
    """test_gpu_svd_accuracy's cases (4 dtypes x 5 shapes x full/reduced) for each route."""
    gp_lib = libs.get("npgpu")
    if gp_lib is None:
        return
    gp = gp_lib.gp
    say("\n== test_gpu_svd_accuracy's cases per route (shape/full that break the bound) ==")
    cases = []
    for dt in (np.float32, np.float64, np.complex64, np.complex128):
        for shape, rank in SWEEP_SHAPES:
            a = rand(shape, dt)
            if rank is not None:
                a = (rand(shape[:-1] + (rank,), dt) @ rand((rank, shape[-1]), dt)).astype(dt)
            for full in (True, False):
                nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
                cases.append((np.dtype(dt), shape, rank, full, a, ns, svd_errors(a, nu, ns, nvh),
                              (nu.shape, nvh.shape)))
    for label, kw in variants:
        if time.perf_counter() - T0 > BUDGET_S:
            say(f"npgpu {label:22s} skipped (time budget)")
            continue
        fails, errors = [], []
        t = time.perf_counter()
        with env(**kw):
            for dt, shape, rank, full, a, ns, ref, shapes in cases:
                tag = (f"{dt.char}{'x'.join(map(str, shape))}{'r' if rank else ''}"
                       f"{'F' if full else 'R'}")
                try:
                    res = gp.linalg.svd(gp.asarray(a), full_matrices=full)
                    u, s, vh = (to_host(y) for y in res)
                    if (u.shape, vh.shape) != shapes:
                        fails.append(tag + ":shape")
                        continue
                    v = verdict(a, svd_errors(a, u, s, vh), ref, s, ns)
                    if v != "ok":
                        fails.append(tag + ":" + v[5:-1])
                except Exception as e:
                    errors.append(tag + ":" + short_exc(e)[:60])
        n = len(cases)
        say(f"npgpu {label:22s} {n - len(fails) - len(errors):2d}/{n} ok  "
            f"({time.perf_counter() - t:4.1f} s)  " + " ".join(fails + errors))


def main():
    libs = load_libs()
    say(f"numpy {np.__version__}" + "".join(
        f", {k} {getattr(v, 'torch', getattr(v, 'cp', None)).__version__}"
        for k, v in libs.items() if k in ("torch", "cupy")))
    steps = [] if os.environ.get("EXP_SKIP_CHOL") else [("cholesky", lambda: section_cholesky(libs))]
    cases = {}

    def svd_step(dt, n):
        def step():
            cases[dt] = SvdCase(dt, n)
            section_svd(libs, cases[dt])
        return step

    steps += [("svd float32", svd_step(np.float32, SVD_N)),
              ("svd complex64", svd_step(np.complex64, CSVD_N))]

    def gesvdp_step():
        if "npgpu" not in libs:
            return
        for dt, case in cases.items():
            say(f"\n-- gesvdp, {np.dtype(dt).name} {case.n}x{case.n} (same columns as above) --")
            npgpu_svd_rows(case, libs["npgpu"], GESVDP)

    steps += [("gesvdp", gesvdp_step),
              ("sweep", lambda: section_sweep(libs, SWEEP_VARIANTS))]
    for name, step in steps:
        try:
            step()
        except Exception:
            say(f"[section {name} failed]")
            traceback.print_exc(limit=4)
            sys.stdout.flush()
    say(f"\n[linalg_routes: {time.perf_counter() - T0:.1f} s]")


if __name__ == "__main__":
    main()
