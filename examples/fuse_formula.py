"""``@npgpu.fuse`` on a real formula: great-circle distances, fused against unfused.

The haversine distance between two points on the sphere is about fifteen elementwise
operations.  Called as plain npgpu code, each operation is a kernel that reads and writes a
whole temporary array; ``npgpu.fuse`` traces the same function once into a single kernel that
reads the four inputs and writes the result.  A reduction after it (the mean distance) takes
the fused work as its map step, so the distances are never stored.  NumPy's dtypes and casts
apply at every step, so fused and unfused results agree; both are checked against NumPy.

    python examples/fuse_formula.py               # 2**24 pairs on a GPU, 1000 on the simulator
    python examples/fuse_formula.py --size 1000000
"""
import numpy as np
from timing_and_checks import check, check_true, done, host, note, size_from_args, step

import npgpu        # after timing_and_checks, which quiets the simulator's warning

EARTH_RADIUS_KM = 6371.0


def haversine(xp, lat1, lon1, lat2, lon2):
    """Great-circle distance in km between points given in degrees (atan2 form: accurate for
    antipodal points too), with the array module ``xp`` (numpy or npgpu)."""
    p1, p2 = xp.radians(lat1), xp.radians(lat2)
    dp, dl = p2 - p1, xp.radians(lon2 - lon1)
    a = xp.sin(dp / 2) ** 2 + xp.cos(p1) * xp.cos(p2) * xp.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS_KM * xp.arctan2(xp.sqrt(a), xp.sqrt(1 - a))


def mean_distance(xp, lat1, lon1, lat2, lon2):
    return haversine(xp, lat1, lon1, lat2, lon2).mean()


@npgpu.fuse(kernel_name="haversine")
def haversine_fused(lat1, lon1, lat2, lon2):
    return haversine(npgpu, lat1, lon1, lat2, lon2)


@npgpu.fuse(kernel_name="mean_distance")
def mean_distance_fused(lat1, lon1, lat2, lon2):
    return mean_distance(npgpu, lat1, lon1, lat2, lon2)


def launches(fn, *args):
    """Kernels launched by one call (the code generator's counter, README: "Inspecting")."""
    before = npgpu._codegen.stats["launches"]
    fn(*args)
    return npgpu._codegen.stats["launches"] - before


def main():
    n = size_from_args(__doc__, gpu_size=2 ** 24, sim_size=1000, what="point pairs (float32)")
    gen = npgpu.random.default_rng(5)
    lat1, lat2 = (gen.uniform(-90, 90, n).astype(np.float32) for _ in range(2))
    lon1, lon2 = (gen.uniform(-180, 180, n).astype(np.float32) for _ in range(2))
    args = (lat1, lon1, lat2, lon2)
    args_h = tuple(host(a) for a in args)

    d_plain, d_h = step("haversine, unfused", lambda: haversine(npgpu, *args),
                        lambda: haversine(np, *args_h))
    d_fused, _ = step("haversine, @npgpu.fuse", lambda: haversine_fused(*args))
    m_plain, m_h = step("mean distance, unfused", lambda: mean_distance(npgpu, *args),
                        lambda: mean_distance(np, *args_h))
    m_fused, _ = step("mean distance, @npgpu.fuse", lambda: mean_distance_fused(*args))

    note(f"kernels a call launches: haversine {launches(haversine, npgpu, *args)} unfused, "
         f"{launches(haversine_fused, *args)} fused; mean distance "
         f"{launches(mean_distance, npgpu, *args)} unfused, "
         f"{launches(mean_distance_fused, *args)} fused")
    check_true("dtype", d_fused.dtype == d_plain.dtype == d_h.dtype == np.float32,
               f"{d_fused.dtype} as NumPy's")
    check("fused vs unfused", d_fused, d_plain, rtol=1e-6, atol=1e-3)
    # near-antipodal pairs are ill-conditioned in float32 on any library: ``a`` rounds to within
    # a few ulps of 1 and sqrt(1 - a) turns that into up to 2R sqrt(4 eps) ~ 9 km (NumPy's own
    # float32 result is 1.9 km from the float64 one in a draw of 2^24 pairs); elsewhere 2e-5
    check("fused vs NumPy", d_fused, d_h, rtol=2e-5,
          atol=2 * EARTH_RADIUS_KM * np.sqrt(4 * np.finfo(np.float32).eps))
    check("mean distance, fused vs NumPy", m_fused, host(d_plain).mean(dtype=np.float64), rtol=1e-4)
    check("mean distance, unfused vs NumPy", m_plain, m_h, rtol=1e-4)
    # the distance between uniform random points has mean pi R / 2 and deviation 4707 km
    check_true("mean distance on a sphere", abs(float(m_fused) - 10007.5) < 25000 / np.sqrt(n),
               f"{float(m_fused):.1f} km, about pi R / 2 = 10007.5 km")
    done()


if __name__ == "__main__":
    main()
