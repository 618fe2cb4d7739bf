"""NumPy's own objects that hold no device data, re-exported so that NumPy code finds them under
npgpu: the scalar types and their abstract hierarchy (``np.integer``, ``np.floating``, ``np.intp``
...), dtype helpers (``issubdtype``, ``isscalar``, ``common_type``, ``typename``, ``mintypecode``),
index helpers (``s_``, ``index_exp``, ``ndindex``), ``dtypes``/``exceptions``, and the
floating-point error state (``errstate``, ``seterr`` ...).

They are NumPy's objects themselves (``npgpu.float64 is numpy.float64``), so ``issubdtype(x.dtype,
npgpu.floating)`` and ``isinstance(v, npgpu.integer)`` mean what they mean in NumPy.

The error state is NumPy's: it governs NumPy's host arithmetic (and npgpu's host-side checks), but
GPU kernels raise no floating-point flags, so ``seterr(all="raise")`` makes no npgpu kernel raise
``FloatingPointError`` and ``errstate`` around npgpu calls has nothing to silence
(docs/differences.md)."""
import numpy as _np

_NAMES = (
    # scalar types and the abstract hierarchy
    "byte", "ubyte", "short", "ushort", "intc", "uintc", "int_", "uint", "intp", "uintp", "long",
    "ulong", "longlong", "ulonglong", "half", "single", "double", "csingle", "cdouble",
    "generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
    "complexfloating", "True_", "False_", "ScalarType", "sctypeDict", "typecodes",
    "little_endian",
    # dtype and type helpers
    "issubdtype", "isscalar", "iterable", "common_type", "mintypecode", "typename",
    # index helpers
    "s_", "index_exp", "ndindex",
    # submodules of plain objects
    "dtypes", "exceptions",
    # floating-point error state (NumPy's; see the module docstring)
    "errstate", "seterr", "geterr", "seterrcall", "geterrcall",
)

globals().update({name: getattr(_np, name) for name in _NAMES})
__all__ = list(_NAMES)
