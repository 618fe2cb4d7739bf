"""Which dtypes npgpu supports, and NumPy's defaults."""
import numpy as np

SUPPORTED = frozenset(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float16, np.float32, np.float64, np.complex64, np.complex128))

_cache = {}


def check_dtype(dtype):
    """Normalise ``dtype`` to a supported ``np.dtype`` or raise TypeError naming it."""
    try:
        return _cache[dtype]
    except (KeyError, TypeError):
        pass
    dt = np.dtype(dtype)
    if dt.byteorder == ">" or dt not in SUPPORTED:
        raise TypeError(f"npgpu does not support dtype {dt!r} ({dt.name}); supported: bool, "
                        "int8-int64, uint8-uint64, float16, float32, float64, complex64, complex128")
    if dt.metadata is not None:
        # arrays do not keep a dtype's metadata (a cached dtype equal to a plain one would
        # hand it on to every later array of that dtype)
        dt = np.dtype(dt.str)
    try:
        _cache[dtype] = dt
    except TypeError:
        pass
    return dt


def default_float():
    return np.dtype(np.float64)
