"""The fast float32 helpers (npgpu/ufuncs/helpers.py: h_sin_f32, h_cos_f32,
h_expit_f32) against NumPy /
SciPy in float64, in float32 ulps, over random data and the range edges; and the simulator's
once-rounded fma that their range reductions rely on."""
from fractions import Fraction

import numpy as np
import pytest
import scipy.special as sp

import npgpu
import npgpu.scipy.special as gs
from npgpu import _backend

F32 = np.float32


def _ulps(got, want):
    want = np.asarray(want, np.float64)
    return np.abs(got.astype(np.float64) - want) / np.spacing(np.abs(want).astype(F32))


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_sin_cos_f32(name, rng):
    # the float32 nearest multiples of pi / 2 (the reductions' cancellations) up to the bound
    k = rng.integers(-67000, 67000, 40)
    x = np.concatenate([rng.uniform(-4, 4, 40), rng.uniform(-105615, 105615, 40),
                        (k * (np.pi / 2)).astype(F32), np.pi / 2 * np.arange(-4, 5),
                        [0.0, -0.0, 1e-45, -1e-30, 105615.0, -105615.0, 105616.0, 1e10, -3e38,
                         np.inf, -np.inf, np.nan]]).astype(F32)
    got = getattr(npgpu, name)(npgpu.asarray(x)).get()
    with np.errstate(invalid="ignore"):
        want = getattr(np, name)(x.astype(np.float64))
    assert got.dtype == F32
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    assert _ulps(got[ok], want[ok]).max() <= 2.0
    zero = x == 0                   # sin keeps the sign of zero, cos(+-0) = +1
    assert np.signbit(got[zero]).tolist() == (np.signbit(x[zero]).tolist() if name == "sin"
                                              else [False] * int(zero.sum()))


def test_expit_f32(rng):
    x = np.concatenate([rng.uniform(-20, 20, 40), rng.uniform(-88, 88, 40),
                        [0.0, -0.0, 16.6, 17.0, -87.4, -88.5, -103.0, -104.0, 110.0,
                         np.inf, -np.inf, np.nan]]).astype(F32)
    got = gs.expit(npgpu.asarray(x)).get()
    want = sp.expit(x.astype(np.float64))
    assert got.dtype == F32
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    normal = np.abs(want) >= np.finfo(F32).tiny
    assert _ulps(got[normal], want[normal]).max() <= 3.0
    # below the normal range: the subnormal nearest exp(x), where SciPy's float32 gives 0 from
    # -88.7 on (1 / (1 + inf)); both within one subnormal step of the exact value
    assert np.all(np.abs(got[~normal & ~np.isnan(want)] - want[~normal & ~np.isnan(want)])
                  <= 2 * 2.0 ** -149)


@pytest.mark.skipif(not _backend.IS_SIM, reason="the simulator's libdevice stand-in")
def test_simulator_fma_rounds_once(rng):
    from npgpu._codegen.simulator_fixes import LIBDEVICE_BITS as L
    a, b, c = (rng.standard_normal(300) * 2.0 ** rng.integers(-30, 30, 300)).astype(F32) \
        .reshape(3, 100)
    for x, y, z in zip(a, b, c):
        g = L.fmaf(x, y, z)
        exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        for nb in (np.nextafter(g, F32(-np.inf)), np.nextafter(g, F32(np.inf))):
            assert abs(Fraction(float(g)) - exact) <= abs(Fraction(float(nb)) - exact)
    assert L.fma(0.1, 0.2, -0.02) == 1.8041124150158794e-18       # exact: 0.1 * 0.2 - 0.02
    assert np.signbit(L.fmaf(F32(-0.0), F32(1.0), F32(-0.0)))


def _erf_inputs(rng, n):
    edges = [0.0, -0.0, 5e-324, -5e-324, 1e-300, 1e-20, -1e-8, 0.5, -0.84375, 1.0, 2.0, 5.9215,
             -5.9216, 6.0, 26.5, 27.3, -28.0, 1e300, np.inf, -np.inf, np.nan]
    x = np.concatenate([rng.uniform(-3, 3, n), rng.uniform(-30, 30, n // 4),
                        rng.standard_normal(n // 4) * 1e-5, edges])
    return rng.permutation(x)


@pytest.mark.parametrize("name", ["erf", "erfc"])
@pytest.mark.parametrize("n", [1, 31, 64, 300])
def test_erf_f64_heavy_layout(name, n, rng):
    """float64 erf/erfc in the elementwise heavy form (8 elements a thread, uint64 indices, the
    tail a loop): every size, the tail and the grid-stride loop included, against SciPy."""
    x = _erf_inputs(rng, 300)[:n]
    got = getattr(gs, name)(npgpu.asarray(x)).get()
    want = getattr(sp, name)(x)
    assert got.dtype == np.float64
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    if name == "erf":
        ulp = np.abs(got[ok] - want[ok]) / np.spacing(np.abs(want[ok]))
        assert ulp.max() <= 2.0                                 # CUDA's documented bound
    else:
        # erfc of x in (10, 30): SciPy's and libdevice's results differed by up to 14 ulp on the
        # H200 (the heavy form runs libdevice's erfc unchanged), and from x ~ 26.55 the result
        # is subnormal, where both keep fewer bits (259 of the smallest subnormals apart): the
        # suite's float64 rtol, and 1024 of the smallest subnormals absolute
        np.testing.assert_allclose(got[ok], want[ok], rtol=1e-12, atol=2.0 ** -1064)
    if name == "erf":
        assert np.signbit(got[x == 0]).tolist() == np.signbit(x[x == 0]).tolist()


def test_erf_f64_heavy_views_and_out(rng):
    """A strided view takes the strided layout, out= a contiguous slice the heavy one."""
    x = _erf_inputs(rng, 200)
    a = npgpu.asarray(x)
    np.testing.assert_allclose(gs.erf(a[::3]).get(), sp.erf(x[::3]), rtol=1e-15, atol=0)
    out = npgpu.zeros(len(x) + 5)
    gs.erf(a, out=out[5:])
    np.testing.assert_allclose(out.get()[5:], sp.erf(x), rtol=1e-15, atol=0)
    assert out.get()[:5].tolist() == [0.0] * 5


def test_erf_heavy_rendering():
    """The table marks float64 erf/erfc heavy (NPGPU_FAST_MATH_HELPERS); the contiguous kernel
    then caps registers by launch bounds and runs HEAVY_EPT elements a thread."""
    from npgpu._codegen import elementwise as ew
    from npgpu.scipy.special.table import HEAVY
    from npgpu.ufuncs.helpers import fast
    f8 = np.dtype(np.float64)
    for name in ("erf", "erfc"):
        assert getattr(gs, name)._loops["float64"].heavy == (name in HEAVY) == fast(name)
        assert not getattr(gs, name)._loops["float32"].heavy
    op = ew.ScalarOp.from_expr(("test", "heavy"), 1, "libdevice.erf(x0)", heavy=True)
    ks = ew.render(op, [("a", f8)], [f8], [f8], [f8], "contig", 1, sim=False)
    assert ks.launch_bounds == (128, 8) and ks.elements_per_thread == ew.HEAVY_EPT
    assert "uint64(cuda.blockIdx.x)" in ks.source
    plain = ew.render(ew.ScalarOp.from_expr(("test", "plain"), 1, "libdevice.erf(x0)"),
                      [("a", f8)], [f8], [f8], [f8], "contig", 1, sim=False)
    assert plain.launch_bounds is None and plain.elements_per_thread == 4
