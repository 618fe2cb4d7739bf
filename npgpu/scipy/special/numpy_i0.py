"""numpy.i0 on the kernel of npgpu.scipy.special.i0 (NumPy's dtypes: float16 and float32 stay,
everything else real is float64; complex raises)."""
import numpy as np

from .ufuncs import UFUNCS


def i0(x):
    """The modified Bessel function of the first kind, order 0 (numpy.i0)."""
    from ...creation import asarray
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if x.dtype == np.float16:          # float32 loop, rounded to NumPy's float16 result
        return UFUNCS["i0"](x.astype(np.float32)).astype(np.float16)
    if x.dtype not in (np.float32, np.float64):     # not SciPy's loop order: NumPy's rule
        x = x.astype(np.float64)
    return UFUNCS["i0"](x)
