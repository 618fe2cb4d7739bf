"""``numpy.lib.npyio``: :class:`NpzFile` (what ``npgpu.load`` returns for an ``.npz`` archive:
its members read to the device) and NumPy's ``DataSource`` (files, not arrays)."""
import numpy as _np

from ..file_io import NpzFile

DataSource = _np.lib.npyio.DataSource

__all__ = ["DataSource", "NpzFile"]
