"""SciPy's functions on npgpu arrays: ``npgpu.scipy.special``, ``.ndimage``, ``.sparse``.

``special`` loads with npgpu (``npgpu.i0`` is one of its kernels); ``ndimage`` and ``sparse``
load on first use (``npgpu.scipy.sparse`` or ``import npgpu.scipy.sparse``): ``sparse`` imports
SciPy's sparse package for its warnings and exceptions, ~0.1-0.2 s that a process using neither
should not pay at ``import npgpu`` (issue 20's warm start-up target).
"""
from .._lazy_modules import lazy_submodules
from . import special

__all__ = ["special", "ndimage", "sparse"]
__getattr__, __dir__ = lazy_submodules(__name__, ("ndimage", "sparse"), globals())
