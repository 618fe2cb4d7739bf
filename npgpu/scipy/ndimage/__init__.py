"""scipy.ndimage on npgpu arrays: filters, interpolation, morphology and measurements as
generated kernels (``npgpu.scipy.ndimage``)."""
# each module below lists its public names in __all__
from ._filters import *  # noqa: F401,F403  (filters: correlate, gaussian, rank, ...)
from ._morphology import *  # noqa: F401,F403  (morphology: binary/grey, structures)
from ._label import *  # noqa: F401,F403  (label, find_objects)
from ._measurements import *  # noqa: F401,F403  (measurements by labels)
from ._edt import *  # noqa: F401,F403  (distance_transform_edt)
from ._interpolation import *  # noqa: F401,F403  (interpolation: map_coordinates, zoom, ...)
from ._fourier import *  # noqa: F401,F403  (fourier_gaussian, fourier_uniform, ...)
