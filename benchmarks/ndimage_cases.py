"""Benchmark cases of npgpu.scipy.ndimage (issue 25), section "ndimage"; peers:
cupyx.scipy.ndimage and, where PyTorch has the operation, torch.

To add a case: write a function ``case(cfg, api) -> api.Case`` below (``cfg["smoke"]`` is True
for the simulator's tiny sizes; ``_ndimage(lib)`` is the library's ndimage namespace; count
one read and one write of the image per pass in ``nbytes``, so the copy-bandwidth fraction is
printed) and append it to ``CASES``.
"""
import numpy as np


def _ndimage(lib):
    """The library's scipy.ndimage namespace (npgpu's, cupyx's, or SciPy's for NumPy)."""
    if lib.name == "npgpu":
        return lib.gp.scipy.ndimage
    if lib.name == "cupy":
        import cupyx.scipy.ndimage
        return cupyx.scipy.ndimage
    import scipy.ndimage
    return scipy.ndimage


def _side(cfg):
    return 1 << 5 if cfg["smoke"] else 1 << 12


def _image_case(api, cfg, label, call, passes, torch_call=None):
    side = _side(cfg)

    def make(lib):
        x = lib.put(api.H.rand((side, side), np.float32, "a"))
        t = api.torch_of(lib)
        if t is not None:
            return lambda: torch_call(t, x)
        nd = _ndimage(lib)
        return lambda: call(nd, x)
    libs = ("npgpu", "cupy", "torch") if torch_call is not None else ("npgpu", "cupy")
    return api.Case(f"{label} f32 ({api.p2(side)},{api.p2(side)})", make,
                    nbytes=passes * 2 * 4 * side * side, libs=libs)


def gaussian_case(cfg, api):
    """gaussian_filter(sigma=2): two passes (17 taps each)."""
    return _image_case(api, cfg, "gaussian_filter s=2", lambda nd, x: nd.gaussian_filter(x, 2),
                       passes=2)


def _avg_pool(t, x):
    import torch.nn.functional as F
    return F.avg_pool2d(x[None, None], 5, stride=1, padding=2)[0, 0]


def uniform_case(cfg, api):
    """uniform_filter(size=5): two passes; torch's avg_pool2d with zero padding as its peer."""
    return _image_case(api, cfg, "uniform_filter 5", lambda nd, x: nd.uniform_filter(x, 5),
                       passes=2, torch_call=_avg_pool)


def median_case(cfg, api):
    """median_filter(size=3): one pass, the 3x3 window in registers."""
    return _image_case(api, cfg, "median_filter 3", lambda nd, x: nd.median_filter(x, 3),
                       passes=1)


CASES = [gaussian_case, uniform_case, median_case]


def cases(cfg, api):
    return [make(cfg, api) for make in CASES]


# ---- morphology and labels (the morphology helper's cases) ----------------------------------
def _mask_case(api, cfg, label, call, nbytes_per):
    """A case on a 30%-dense random bool mask of the image size."""
    side = _side(cfg)

    def make(lib):
        m = lib.put(api.H.rand((side, side), np.float32, "m") < 0.3)
        nd = _ndimage(lib)
        return lambda: call(nd, m)
    return api.Case(f"{label} ({api.p2(side)},{api.p2(side)})", make,
                    nbytes=nbytes_per * side * side, libs=("npgpu", "cupy"))


def label_case(cfg, api):
    """label of a 30%-dense mask (4-connectivity): one read of the mask, one int32 write."""
    return _mask_case(api, cfg, "label 30% mask", lambda nd, m: nd.label(m)[0], 1 + 4)


def erosion_case(cfg, api):
    """binary_erosion with a 3x3 structure: one read and one write of the bool image."""
    structures = {}      # each library's own 3x3 structure (CuPy refuses a NumPy one)

    def erode(nd, m):
        s = structures.get(id(nd))
        if s is None:
            s = structures[id(nd)] = nd.generate_binary_structure(2, 2)
        return nd.binary_erosion(m, structure=s)
    return _mask_case(api, cfg, "binary_erosion 3x3", erode, 2)


CASES += [label_case, erosion_case]


# ---- interpolation (the interpolation helper's case) -------------------------------------------
def _bilinear_x2(t, x):
    import torch.nn.functional as F
    return F.interpolate(x[None, None], scale_factor=2, mode="bilinear", align_corners=True)[0, 0]


def zoom_case(cfg, api):
    """zoom(x2, order=1) of a 2048^2 image: one read of the input, one write of the 4x larger
    output; torch's bilinear interpolate with align_corners=True samples the same points."""
    side = 1 << 5 if cfg["smoke"] else 1 << 11

    def make(lib):
        x = lib.put(api.H.rand((side, side), np.float32, "a"))
        t = api.torch_of(lib)
        if t is not None:
            return lambda: _bilinear_x2(t, x)
        nd = _ndimage(lib)
        return lambda: nd.zoom(x, 2, order=1)
    return api.Case(f"zoom x2 order=1 f32 ({api.p2(side)},{api.p2(side)})", make,
                    nbytes=4 * side * side * (1 + 4), libs=("npgpu", "cupy", "torch"))


CASES += [zoom_case]


# ---- the separable route (the fused-template helper's case) -----------------------------------
def gaussian_passes_case(cfg, api):
    """gaussian_filter(sigma=2) through its old route, the two line passes (npgpu only;
    ``NPGPU_NDI_SEPARABLE=passes`` chooses it for a whole run), beside the fused kernel's
    "gaussian_filter s=2" case; nbytes as that case's (one read and one write per pass)."""
    side = _side(cfg)

    def make(lib):
        x = lib.put(api.H.rand((side, side), np.float32, "a"))
        nd = _ndimage(lib)
        sep = lib.gp.scipy.ndimage._separable2d

        def run():
            old, sep.ROUTE = sep.ROUTE, "passes"
            try:
                return nd.gaussian_filter(x, 2)
            finally:
                sep.ROUTE = old
        return run
    return api.Case(f"gaussian_filter s=2 f32 ({api.p2(side)},{api.p2(side)}) (two passes)",
                    make, nbytes=2 * 2 * 4 * side * side, libs=("npgpu",))


CASES += [gaussian_passes_case]
