"""``npgpu.lib``: the parts of ``numpy.lib`` that NumPy code reaches for beyond the main
namespace.  ``stride_tricks`` views npgpu arrays (``sliding_window_view``, ``as_strided``);
``npyio.NpzFile`` is what ``npgpu.load`` returns for an archive; ``format`` reads and writes
``.npy`` data of npgpu arrays; the modules that hold no arrays
(``array_utils``, ``mixins``, ``NumpyVersion``) are NumPy's own."""
import numpy.lib as _nplib

from . import format, npyio, stride_tricks

array_utils = _nplib.array_utils
mixins = _nplib.mixins
NumpyVersion = _nplib.NumpyVersion

__all__ = ["NumpyVersion", "array_utils", "format", "mixins", "npyio", "stride_tricks"]
