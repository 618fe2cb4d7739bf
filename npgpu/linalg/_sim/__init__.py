"""Host stand-ins for cuBLAS and cuSOLVER-Dn on Numba's CUDA simulator.

On the simulator, :func:`npgpu.linalg._handles.cublas_module` and
``cusolver_module`` return :data:`cublas.CUBLAS` / :data:`cusolver.CUSOLVER_DN`
instead of nvmath-python's bindings.  They have the same entry-point names and
argument lists as the nvmath functions npgpu calls, and compute with NumPy and
SciPy's LAPACK wrappers on the raw addresses they are given (simulator device
memory is host memory): column-major matrices with leading dimensions, strided
batches, host-pointer alpha/beta, workspace-size queries, and ``info`` written
to device memory as cuSOLVER writes it (LAPACK's values).  So every npgpu line
above the library -- argument checks, batching, layouts, dtype routes,
``LinAlgError`` from the info flag -- runs on the simulator as on the GPU.

Handles, streams and math modes are accepted and ignored (calls run at once,
in order, like a stream's).  Arguments the real library rejects
(``CUBLAS_STATUS_INVALID_VALUE`` / ``CUSOLVER_STATUS_INVALID_VALUE``: a leading
dimension below the rows, a workspace smaller than the size query returned)
raise, as nvmath raises on such a status.
"""
import itertools

import numpy as np

from ..._codegen.launcher import _host_view
from .._cuda_types import dtype_of  # noqa: F401  (the stand-ins import it from here)

_INFO = np.dtype(np.int32)
_counter = itertools.count(0x1000)


def new_handle():
    """A distinct non-zero integer standing for a library handle or parameter object."""
    return next(_counter)


def matrix(ptr, dt, rows, cols, ld):
    """The column-major ``rows x cols`` matrix at device address ``ptr`` (leading dim ``ld``)."""
    return _host_view(ptr, (rows, cols), (dt.itemsize, ld * dt.itemsize), dt)


def batch(ptr, dt, rows, cols, ld, stride, count):
    """``count`` column-major matrices ``stride`` elements apart (``stride`` may be 0)."""
    isz = dt.itemsize
    return _host_view(ptr, (count, rows, cols), (stride * isz, isz, ld * isz), dt)


def vector(ptr, dt, n):
    return _host_view(ptr, (n,), (dt.itemsize,), dt)


def host_scalar(ptr, dt):
    """The value of the host scalar at ``ptr`` (alpha/beta in host pointer mode)."""
    return _host_view(ptr, (1,), (dt.itemsize,), dt)[0]


def put_info(ptr, value):
    """Write one int32 ``info`` value at device address ``ptr`` (NULL: nothing)."""
    if ptr:
        vector(ptr, _INFO, 1)[0] = value
