"""``npgpu.testing``: NumPy's assertions for npgpu arrays.  Each ``assert_*`` is NumPy's own,
called with the npgpu arrays among its arguments (also inside lists, tuples and dicts, which
``assert_equal`` compares item by item) read to the host: a comparison in a test is a
deliberate read, made here and not by an implicit conversion (which npgpu refuses).  So values,
tolerances, ``strict=``, ``err_msg`` and the failure reports are NumPy's.  The helpers that take no
arrays (``assert_raises``, ``assert_warns``, ``suppress_warnings``, ``SkipTest`` ...) are NumPy's."""
import functools

import numpy.testing as _npt

from ._core.ndarray import host_values
from .indexing.flatiter import flatiter

# NumPy's assertions on values: their npgpu array arguments are read to the host
_COMPARE = ("assert_allclose", "assert_almost_equal", "assert_approx_equal",
            "assert_array_almost_equal", "assert_array_almost_equal_nulp", "assert_array_equal",
            "assert_array_less", "assert_array_max_ulp", "assert_equal", "assert_",
            "assert_array_compare", "assert_string_equal", "print_assert_equal")
# NumPy's helpers that take no arrays
_AS_IS = ("assert_raises", "assert_raises_regex", "assert_warns", "assert_no_warnings",
          "assert_no_gc_cycles", "suppress_warnings", "clear_and_catch_warnings", "SkipTest",
          "KnownFailureException", "IgnoreException", "temppath", "tempdir", "verbose",
          "build_err_msg", "break_cycles", "measure", "run_threaded", "runstring", "HAS_REFCOUNT",
          "IS_PYPY",
          # the platform flags tests skip on
          "IS_64BIT", "IS_EDITABLE", "IS_INSTALLED", "IS_MUSL", "IS_PYSTON", "IS_WASM",
          "NOGIL_BUILD", "HAS_LAPACK64", "BLAS_SUPPORTS_FPE", "check_support_sve")


def _host(v):
    """``v`` with every npgpu array in it (at any depth of lists, tuples and dicts) read."""
    if v.__class__ in (list, tuple):
        return v.__class__(_host(x) for x in v)
    if isinstance(v, tuple) and hasattr(v, "_fields"):     # a named tuple: SlogdetResult, ...
        return v.__class__(*(_host(x) for x in v))
    if v.__class__ is dict:
        return {k: _host(x) for k, x in v.items()}
    if v.__class__ is flatiter:     # ``a.flat``: NumPy's assertions read it as a 1-d array
        return v.copy().get()
    return host_values(v)


def _reading(func):
    @functools.wraps(func)
    def call(*args, **kwargs):
        __tracebackhide__ = True        # pytest: report the caller's line, as NumPy's would
        return func(*map(_host, args), **{k: _host(v) for k, v in kwargs.items()})
    return call


globals().update({name: _reading(getattr(_npt, name)) for name in _COMPARE})
globals().update({name: getattr(_npt, name) for name in _AS_IS})
__all__ = list(_COMPARE) + list(_AS_IS)
