"""SciPy's functions on npgpu arrays (``npgpu.scipy.special``, ``npgpu.scipy.ndimage``)."""
from . import special
from . import ndimage

__all__ = ["special", "ndimage"]
