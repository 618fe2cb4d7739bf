"""npgpu: NumPy-compatible arrays on NVIDIA GPUs, with kernels generated as Numba CUDA kernels.

``import npgpu as np`` and NumPy code runs on the GPU; without a GPU the same
generated kernels run on Numba's CUDA simulator (see :func:`backend`).
"""
from ._version import __version__
from . import _backend
from ._backend import BackendUnavailableError, backend

import numpy as _np

from . import cuda
from ._core import copy as _copy
from ._core import transfer as _transfer
from ._core.ndarray import _ops, ndarray
from .creation import (arange, array, asanyarray, asarray, asarray_chkfinite,
                       ascontiguousarray, asfortranarray, asnumpy, copy, empty, empty_like, eye,
                       full, full_like, identity, ones, ones_like, require, zeros, zeros_like)
from .array_queries import isfortran, may_share_memory, min_scalar_type, shares_memory
from .ranges import geomspace, indices, linspace, logspace, meshgrid
from .matrices import diag, diagflat, tri, tril, triu
from .manipulation import (array_split, atleast_1d, atleast_2d, atleast_3d, broadcast_arrays,
                           broadcast_shapes, broadcast_to, column_stack, concatenate, copyto, dsplit,
                           dstack, expand_dims, flip, fliplr, flipud, hsplit, hstack,
                           moveaxis, permute_dims, ravel, reshape, row_stack, split, squeeze, stack,
                           swapaxes, transpose, vsplit, vstack)
from .cuda.memory import get_default_memory_pool
from ._codegen.compiler import kernel_sources

# NumPy's dtype names and constants, so `npgpu.float32` etc. work as with NumPy
from numpy import (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
                   float32, float64, complex64, complex128, dtype, e, pi, inf, nan, newaxis,
                   finfo, iinfo, result_type, can_cast, promote_types)
bool = bool_
euler_gamma = _np.euler_gamma

from .ufuncs import ufunc
from .fusion import fuse
from .ufuncs import UFUNCS as _UFUNCS
from .ufuncs import FUNCTIONS as _UFUNC_FUNCTIONS     # clip, around/round, fix, angle, real, imag
globals().update(_UFUNCS)
globals().update(_UFUNC_FUNCTIONS)
_ops.update(clip=_UFUNC_FUNCTIONS["clip"], round=_UFUNC_FUNCTIONS["round"])

# ndarray methods reach the rest of the package through this registry (no import cycle).
_ops.update(
    copy=_copy.copy,
    fill=_copy.fill,
    getitem=_copy.getitem,
    setitem=_copy.setitem,
    asnumpy=_transfer.to_host,
    set_from_host=_copy.set_from_host,
    cuda_array_interface=_transfer.cuda_array_interface,
    asarray=asarray,
    zeros=zeros,
)
_ops.update(_UFUNCS)


def get_array_module(*args):
    """``npgpu`` if any argument is an npgpu array (or a value traced by ``@fuse``), else
    ``numpy`` (CuPy's helper)."""
    import sys
    for a in args:
        if isinstance(a, ndarray) or hasattr(a, "_fuse_trace"):
            return sys.modules[__name__]
    return _np

# --- interop (dlpack) ---
from ._core.dlpack import from_dlpack, to_dlpack, dlpack_device
_ops.update(to_dlpack=to_dlpack, dlpack_device=dlpack_device)

# --- linear algebra ---
from . import linalg
from .linalg import einsum, einsum_path, matrix_transpose
from .linalg.products import (dot, vdot, inner, outer, matmul, tensordot, kron, trace, cross, vecdot,
                              matvec, vecmat, diagonal)
_ops.update(matmul=matmul, copyto=copyto)     # ndarray.conj(out) of a real array
from .byteorder import byteswap as _byteswap   # noqa: E402  (ndarray.byteswap)
_ops.update(byteswap=_byteswap)

# --- reductions ---
from .reductions import *  # noqa: F401,F403  (names listed in npgpu/reductions/__init__.py __all__)
from .reductions import register as _register_reductions
_register_reductions(_ops)

# --- indexing / manipulation / logic (issue 13) ---
from .indexing.masks import (argwhere, compress, extract, flatnonzero, nonzero, place,
                             putmask)
_ops.update(nonzero=nonzero, compress=compress)
from .indexing import advanced as _advanced
from .indexing.routines import (choose, diag_indices, diag_indices_from, fill_diagonal, ix_, put,
                                put_along_axis, ravel_multi_index, take, take_along_axis,
                                mask_indices, tril_indices, tril_indices_from, triu_indices,
                                triu_indices_from, unravel_index)
_ops.update(advanced_getitem=_advanced.getitem, advanced_setitem=_advanced.setitem, take=take,
            put=put, choose=choose)
from .joining import append, block, concat, unstack
from .rearranging import astype, repeat, roll, rollaxis, rot90, tile
from .rearranging import check_same_value as _check_same_value
from .adding_removing import delete, ediff1d, insert, resize, trim_zeros
from .padding import pad
_ops.update(repeat=repeat, check_same_value=_check_same_value)
from .logic import (allclose, array_equal, array_equiv, iscomplex, iscomplexobj, isclose, isdtype,
                    isreal, isrealobj, ndim, select, shape, size, where)
from .numerical import convolve, correlate, interp, nan_to_num, real_if_close
from .calculus import gradient, trapezoid
from .polynomials import *  # noqa: F401,F403

# --- sorting (issue 14) ---
from .sorting.functions import (argpartition, argsort, lexsort, partition, sort, sort_complex,
                                partition_inplace as _partition_inplace,
                                sort_inplace as _sort_inplace)
_ops.update(sort_inplace=_sort_inplace, argsort=argsort, partition_inplace=_partition_inplace,
            argpartition=argpartition)

# --- sets (issue 14) ---
from .sorting.sets import (intersect1d, isin, setdiff1d, setxor1d, union1d, unique, unique_all,
                           unique_counts, unique_inverse, unique_values)

# --- searching and counting (issue 14) ---
from .sorting.searching import digitize, searchsorted
from .sorting.counting import (bincount, histogram, histogram2d, histogram_bin_edges,
                               histogramdd)
_ops.update(searchsorted=searchsorted)

# --- order statistics, cov/corrcoef (issue 14) ---
from .sorting.order_stats import (median, nanmedian, nanpercentile, nanquantile, percentile,
                                  quantile)
from .statistics import corrcoef, cov

# --- fft (issue 16) ---
from . import fft

# --- random (issue 15) ---
from . import random

# --- ndarray.flat, getfield/setfield, resize (issue 13) ---
from .indexing import flatiter as _flatiter
flatiter = _flatiter.flatiter           # the type of ``x.flat`` (isinstance checks)
from ._core import fields as _fields
_ops.update(flatiter=_flatiter.flatiter, set_flat=_flatiter.set_flat, getfield=_fields.getfield,
            setfield=_fields.setfield, resize_inplace=_fields.resize)

# --- user kernels (issue 18) ---
from . import kernels
from .kernels import ElementwiseKernel, RawKernel, RawModule, ReductionKernel, vectorize

# --- dispatch / Array API (issue 19) ---
from ._array_api import __array_api_version__, __array_namespace_info__
from . import _array_api
from .reductions.cumulative import cumulative_prod, cumulative_sum
_ops.update(to_device=_array_api.to_device, array_namespace=_array_api.namespace)
# --- NumPy functions composed of npgpu's own operations (issue 13): one import line each ---
# windows, sinc, unwrap, isposinf/isneginf:
from .windows import *  # noqa: F401,F403
from .numerical import sinc, unwrap
from .logic import isneginf, isposinf
# index tricks, fromfunction, apply_along_axis/apply_over_axes, piecewise:
from .index_tricks import *  # noqa: F401,F403
from .functional import *  # noqa: F401,F403
# polynomials beyond polyval/vander, packbits/unpackbits:
from .packing import *  # noqa: F401,F403
# NumPy's own host objects (scalar types, dtype and index helpers, error state), printing:
from .host_objects import *  # noqa: F401,F403
from .printing import *  # noqa: F401,F403
from .file_io import *  # noqa: F401,F403
from . import lib
from .host_iteration import *  # noqa: F401,F403

import sys as _sys
from . import _dispatch
_dispatch.register(_ops, _sys.modules[__name__])   # numpy.f(npgpu array) runs npgpu.f

from . import emath

# --- numpy.polynomial (the six bases, their classes) and npgpu.testing: loaded on first use
# (~50 ms each at import: numpy.testing pulls in unittest; issue 20's start-up budget) ---
from ._lazy_modules import lazy_submodules as _lazy_submodules
__getattr__, __dir__ = _lazy_submodules(__name__, ("polynomial", "testing"), globals())

# --- scipy (issue 25) ---
from . import scipy
from .scipy.special.numpy_i0 import i0
# the Array API's anticipated "special" extension (data-apis/array-api#725): SciPy's
# SCIPY_ARRAY_API mode calls xp.special's functions for namespaces it does not know
special = scipy.special

# --- Dask (issue 22): lazy registration with Dask, which npgpu does not import ---
from .dask import _lazy as _dask_lazy
_dask_lazy.install()
