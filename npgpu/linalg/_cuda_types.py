"""``cudaDataType`` values of the NumPy dtypes the libraries compute in (nvmath's enum).

Below both the handles (GPU) and the simulator's stand-ins, which map the values back."""
import numpy as np

_CUDA_TYPE = None


def cuda_data_type(dt):
    """``cudaDataType`` of a NumPy dtype (float16/32/64, complex64/128)."""
    global _CUDA_TYPE
    if _CUDA_TYPE is None:
        import nvmath
        T = nvmath.CudaDataType
        _CUDA_TYPE = {"f2": T.CUDA_R_16F, "f4": T.CUDA_R_32F, "f8": T.CUDA_R_64F,
                      "c8": T.CUDA_C_32F, "c16": T.CUDA_C_64F}
    return int(_CUDA_TYPE[dt.kind + str(dt.itemsize)])


def dtype_of(cuda_type):
    """The NumPy dtype of a ``cudaDataType`` value (the inverse of :func:`cuda_data_type`)."""
    if _DTYPES is None:
        _fill()
    return _DTYPES[int(cuda_type)]


_DTYPES = None


def _fill():
    global _DTYPES
    _DTYPES = {cuda_data_type(np.dtype(c)): np.dtype(c) for c in "efdFD"}
