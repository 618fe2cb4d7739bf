"""The kernels behind the issues' slowest benchmark cases, run once each for Nsight Compute.

    ncu --clock-control none --profile-from-start off --section SpeedOfLight \
        --section Occupancy --section LaunchStats --section WarpStateStats \
        python3 benchmarks/experiments/ncu_targets.py [CASE ...]

``torch_fft2`` needs PyTorch and ``cupy_standard_normal_f32`` CuPy (the GPU machine has both).  Every case runs twice unprofiled (compiles, plans, pool), then once between
``cuProfilerStart``/``cuProfilerStop``, so ncu sees exactly one call's launches.  Without a
GPU (the simulator) the sizes shrink by 2**16 and the profiler calls are skipped, so the
script checks that it runs.
"""
import sys

import numpy as np

import npgpu as gp

SIM = gp.backend() != "cuda"
S = 16 if SIM else 0
rng = np.random.default_rng(0)
n24, n26 = (1 << 24) >> S, (1 << 26) >> S
side = 8192 >> (S // 2)
a26 = gp.asarray(rng.random(n26, np.float32))
b26 = gp.asarray(rng.random(n26, np.float32))
m26 = gp.asarray(rng.random(n26) < 0.5)
mat = gp.asarray(rng.random((side, side), np.float32))
keys = gp.asarray(rng.standard_normal(n24).astype(np.float32))
half = gp.asarray(rng.random(n26 // 2, np.float32))
perm = gp.asarray((rng.random(side) * side).astype(np.int64))
img = mat[: side // 2, : side // 2].copy()          # the ndimage benchmark's 4096^2 image
gen = gp.random.default_rng(1)
c2 = (gp.asarray(rng.random((side, side), np.float32))
      + 1j * gp.asarray(rng.random((side, side), np.float32))).astype(np.complex64)

CASES = {
    "sort_f32": lambda: gp.sort(keys),
    "mask_select": lambda: a26[m26],
    "pad_reflect": lambda: gp.pad(mat, 64, mode="reflect"),
    "roll": lambda: gp.roll(a26, 12345),
    "tile": lambda: gp.tile(half, 2),
    "take_axis1": lambda: gp.take(mat, perm, axis=1),
    "gaussian": lambda: _ndi().gaussian_filter(img, 2),
    "median3": lambda: _ndi().median_filter(img, 3),
    "erosion3": lambda: _ndi().binary_erosion(img < 0.3, structure=_ndi().generate_binary_structure(2, 2)),
    "zoom2": lambda: _ndi().zoom(img[: side // 4, : side // 4], 2, order=1),
    "random_f32": lambda: gen.random(n26, dtype=np.float32),
    "random_f64": lambda: gen.random(n26 // 2),          # the same bytes as random_f32
    "standard_normal_f32": lambda: gen.standard_normal(n26, dtype=np.float32),
    "fused_sum_sq": lambda: _sumsq(a26, b26),
    "chain10": lambda: _chain10(a26),
    "histogram256": lambda: gp.histogram(a26, bins=256),
    "torch_histc256": lambda: _torch_of("histc").histc(_torch_a26(), bins=256),
    "fft2": lambda: gp.fft.fft2(c2),
    "torch_fft2": lambda: _torch_fft2(),
    "cupy_standard_normal_f32": lambda: _cupy_normal(),
    # issue 25's special functions (the benchmark's data ranges) and PyTorch's kernels for them
    "erf_f64": lambda: _special().erf(_sp_data("erf_f64")),
    "torch_erf_f64": lambda: _torch_of("erf_f64").special.erf(_sp_torch("erf_f64")),
    "erf_f32": lambda: _special().erf(_sp_data("erf_f32")),
    "gammaln_f32": lambda: _special().gammaln(_sp_data("gammaln_f32")),
    "torch_gammaln_f32": lambda: _torch_of("gammaln_f32").special.gammaln(_sp_torch("gammaln_f32")),
    "expit_f32": lambda: _special().expit(_sp_data("expit_f32")),
    "torch_expit_f32": lambda: _torch_of("expit_f32").special.expit(_sp_torch("expit_f32")),
}

# name -> (elements, dtype, low, high) of the special-function cases
_SP = {"erf_f64": (n26 * 2, np.float64, -3.0, 3.0), "erf_f32": (n26 * 4, np.float32, -3.0, 3.0),
       "gammaln_f32": (n26 * 4, np.float32, 0.1, 50.0),
       "expit_f32": (n26 * 4, np.float32, -20.0, 20.0)}
_sp_cache = {}


def _torch_a26():
    import torch
    if "torch a26" not in _sp_cache:
        _sp_cache["torch a26"] = torch.as_tensor(a26.get(), device="cuda")
    return _sp_cache["torch a26"]


def _special():
    import npgpu.scipy.special as sp
    return sp


def _sp_data(name):
    if name not in _sp_cache:
        n, dt, lo, hi = _SP[name]
        _sp_cache[name] = gp.asarray((lo + (hi - lo) * rng.random(n)).astype(dt))
    return _sp_cache[name]


def _torch_of(name):
    import torch
    return torch


def _sp_torch(name):
    import torch
    key = "torch " + name
    if key not in _sp_cache:
        _sp_cache[key] = torch.from_dlpack(_sp_data(name))
    return _sp_cache[key]



def _ndi():
    import npgpu.scipy.ndimage as ndi
    return ndi


def _cupy_normal():
    """CuPy's Generator.standard_normal of the same size (the faster peer of that case)."""
    import cupy
    global _cgen
    if "_cgen" not in globals():
        _cgen = cupy.random.default_rng(1)
    return _cgen.standard_normal(n26, dtype=np.float32)


def _torch_fft2():
    """PyTorch's fft2 of the same data (the peer the fft2 case is measured against)."""
    import torch
    global _tc2
    if "_tc2" not in globals():
        _tc2 = torch.from_dlpack(c2)
    return torch.fft.fft2(_tc2)


@gp.fuse
def _sumsq(x, y):
    return gp.sum((x - y) ** 2)


@gp.fuse
def _chain10(x):
    """The fusion benchmark's 10-op chain (benchmarks/fusion_cases.py)."""
    return _fusion_cases()._chain(gp, x)


def _fusion_cases():
    import os
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import fusion_cases
    return fusion_cases


def _profiler(on):
    if SIM:
        return
    from cuda.bindings import driver
    gp.cuda.get_current_stream().synchronize()
    (driver.cuProfilerStart if on else driver.cuProfilerStop)()


def main():
    names = sys.argv[1:] or list(CASES)
    for name in names:
        fn = CASES[name]
        fn()
        fn()
        _profiler(True)
        fn()
        _profiler(False)
        print(f"{name}: profiled", flush=True)


if __name__ == "__main__":
    main()
