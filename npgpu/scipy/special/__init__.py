"""scipy.special on npgpu arrays: special functions as npgpu ufuncs (broadcasting, ``out=``,
``@npgpu.fuse``), and ``logsumexp``/``softmax``/``log_softmax`` from npgpu's reductions."""
from .logsumexp import log_softmax, logsumexp, softmax
from .ufuncs import UFUNCS

globals().update(UFUNCS)

__all__ = sorted(UFUNCS) + ["log_softmax", "logsumexp", "softmax"]
