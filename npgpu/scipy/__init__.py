"""SciPy's functions on npgpu arrays: ``npgpu.scipy.special``, ``.ndimage``, ``.sparse``."""
from . import special
from . import ndimage
from . import sparse

__all__ = ["special", "ndimage", "sparse"]
