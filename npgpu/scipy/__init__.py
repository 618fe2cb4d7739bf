"""SciPy's functions on npgpu arrays (``npgpu.scipy.special``)."""
from . import special

__all__ = ["special"]
