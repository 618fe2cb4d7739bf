"""SciPy's functions on npgpu arrays: ``npgpu.scipy.special``, ``.ndimage``, ``.sparse``.

``special`` loads with npgpu (``npgpu.i0`` is one of its kernels); ``ndimage`` and ``sparse``
load on first use (``npgpu.scipy.sparse`` or ``import npgpu.scipy.sparse``): ``sparse`` imports
SciPy's sparse package for its warnings and exceptions, ~0.1-0.2 s that a process using neither
should not pay at ``import npgpu`` (issue 20's warm start-up target).
"""
import importlib

from . import special

__all__ = ["special", "ndimage", "sparse"]
_LAZY = ("ndimage", "sparse")


def __getattr__(name):
    if name in _LAZY:
        mod = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = mod
        return mod
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
