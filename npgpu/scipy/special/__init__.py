"""scipy.special on npgpu arrays: special functions as npgpu ufuncs (broadcasting, ``out=``,
``@npgpu.fuse``), and ``logsumexp``/``softmax``/``log_softmax`` from npgpu's reductions."""
from .logsumexp import log_softmax, logsumexp, softmax
from .ufuncs import UFUNCS, ufunc_for  # noqa: F401 (ufunc_for: npgpu._dispatch)
from .zeta_polygamma import polygamma, zeta

# the public ufuncs; _zeta and _riemann_zeta are reached through zeta, as in SciPy
globals().update({k: v for k, v in UFUNCS.items() if not k.startswith("_")})
psi = UFUNCS["digamma"]       # SciPy's psi is its digamma

__all__ = sorted(k for k in UFUNCS if not k.startswith("_")) + [
    "log_softmax", "logsumexp", "polygamma", "psi", "softmax", "zeta"]
