"""``__array_function__``: a NumPy function called on npgpu arrays runs npgpu's function of that name.

The table is generated, never typed: each public callable of ``numpy``, ``numpy.linalg``,
``numpy.fft`` and ``numpy.emath`` maps to the object of the same name in ``npgpu``,
``npgpu.linalg``, ``npgpu.fft`` and ``npgpu.emath`` (when those exist).  Three kinds of entries come out of that one rule:

* npgpu's own function (``numpy.concatenate`` -> ``npgpu.concatenate``): it receives NumPy's
  arguments unchanged, so host arrays and lists mixed in are copied to the device explicitly by
  its ``asarray``, as NumPy's protocol intends;
* NumPy's own object re-exported by npgpu (``result_type``, ``can_cast``): it asks only for dtypes
  and shapes, so it runs on host stand-ins of the npgpu arrays (zero-stride views of one zero
  element: the device data is never read);
* a name npgpu lacks: no entry; ``array_function`` returns ``NotImplemented`` and NumPy raises its
  own ``TypeError`` ("no implementation found for 'numpy.fft.fft' ..."), so nothing is ever copied
  to the host behind the user's back.

NumPy ufuncs do not come here (they call ``__array_ufunc__``); the few NumPy ufuncs that npgpu
implements as plain functions (``matmul``, ``vecdot``, ``matvec``, ``vecmat``) are listed by the
same scan in ``ufunc_functions`` for ``ufuncs/interop.py``.

The table is built on the first dispatch rather than at import, so names that blocks of
``npgpu/__init__.py`` below the registration add (and subpackages imported later) are included.
A hit costs one dict lookup and a check of ``types``.
"""
import inspect

import numpy as np

from ._core.ndarray import ndarray

# (NumPy module, name of the matching npgpu submodule; "" is the namespace itself)
_MODULES = ((np, ""), (np.linalg, "linalg"), (np.fft, "fft"), (np.emath, "emath"),
            (np.lib.stride_tricks, "lib.stride_tricks"))

_namespace = None                  # the npgpu package, given by register()
_table = {}                        # NumPy function -> npgpu callable
_ufunc_functions = {}              # NumPy ufunc name -> npgpu plain function (matmul & co)
_built = False
_accepted_types = {ndarray: True, np.ndarray: True}   # type -> whether npgpu's function takes it

_ZEROS = bytes(64)                 # backs the stand-ins (64 >= any itemsize npgpu supports)
_standins = {}                     # (shape, dtype) -> stand-in; a few shapes recur in practice


def _standin(a):
    """A read-only host array with ``a``'s shape and dtype whose every element is one zero."""
    key = (a.shape, a.dtype)
    s = _standins.get(key)
    if s is None:
        if len(_standins) > 256:
            _standins.clear()
        s = _standins[key] = np.ndarray(a.shape, a.dtype, _ZEROS, 0, (0,) * len(a.shape))
    return s


def _swap(v):
    if isinstance(v, ndarray):
        return _standin(v)
    if type(v) is list or type(v) is tuple:
        return type(v)(map(_swap, v))
    return v


def _on_standins(np_func):
    """Run NumPy's own function with each npgpu array (also inside a list/tuple) as a stand-in."""
    def call(*args, **kwargs):
        if kwargs:
            kwargs = {k: _swap(v) for k, v in kwargs.items()}
        return np_func(*map(_swap, args), **kwargs)
    call.__name__ = call.__qualname__ = np_func.__name__
    call.__wrapped__ = np_func
    return call


_DISPATCHER = type(np.concatenate)     # NumPy's wrapper of a function that dispatches


def _dispatches(obj):
    """Whether NumPy calls ``__array_function__`` for ``obj``: a dispatching function, or a
    creation function with ``like=`` (``numpy.zeros(3, like=g)``)."""
    if isinstance(obj, _DISPATCHER):
        return True
    if not callable(obj) or isinstance(obj, (type, np.ufunc)):
        return False
    try:
        return "like" in inspect.signature(obj).parameters
    except (TypeError, ValueError):   # no signature to read
        return False


def _build():
    global _built
    table, ufunc_functions = {}, {}
    for np_mod, path in _MODULES:
        mod = _namespace
        for part in path.split(".") if path else ():
            mod = getattr(mod, part, None)
        if mod is None:
            continue
        for name in dir(np_mod):
            if name.startswith("_"):
                continue
            np_obj = getattr(np_mod, name, None)
            impl = getattr(mod, name, None)
            if impl is None or not callable(impl) or isinstance(impl, type):
                continue
            if isinstance(np_obj, np.ufunc):
                if not isinstance(impl, (np.ufunc, getattr(_namespace, "ufunc", ()))):
                    ufunc_functions.setdefault(np_obj.__name__, impl)
                continue
            if not _dispatches(np_obj):
                continue
            impl = _on_standins(np_obj) if impl is np_obj else impl
            if name == np_obj.__name__:
                table[np_obj] = impl           # NumPy aliases (concat, permute_dims) map by the
            else:                              # function's own name when npgpu has it
                table.setdefault(np_obj, impl)
    _table.update(table)
    _ufunc_functions.update(ufunc_functions)
    _built = True


def table():
    """The dispatch table (NumPy function -> what runs), built on first use."""
    if not _built:
        _build()
    return _table


def ufunc_functions():
    """NumPy ufunc name -> npgpu function, for NumPy ufuncs npgpu implements as functions."""
    if not _built:
        _build()
    return _ufunc_functions


def _accepts(t):
    # npgpu arrays, and host arrays whose class leaves dispatch to NumPy (npgpu converts them
    # explicitly); a class with its own protocol (CuPy, Dask, astropy...) gets its turn instead
    ok = (issubclass(t, ndarray) or (issubclass(t, np.ndarray)
                                     and t.__array_function__ is np.ndarray.__array_function__))
    _accepted_types[t] = ok
    return ok


def array_function(func, types, args, kwargs):
    if args.__class__ is not tuple and not isinstance(args, tuple):
        raise TypeError("args must be a tuple")         # NumPy's checks of a direct call
    if kwargs.__class__ is not dict and not isinstance(kwargs, dict):
        raise TypeError("kwargs must be a dict")
    impl = _table.get(func)
    if impl is None:
        if _built:
            return NotImplemented
        impl = table().get(func)
        if impl is None:
            return NotImplemented
    for t in types:
        ok = _accepted_types.get(t)
        if not (ok or (ok is None and _accepts(t))):
            return NotImplemented
    return impl(*args, **kwargs)


def register(ops, namespace):
    """Remember the namespace the table is generated from; route ``__array_function__`` here."""
    global _namespace, _built
    _namespace = namespace
    _table.clear()
    _ufunc_functions.clear()
    _built = False
    ops["array_function"] = array_function
    ops["ufunc_function"] = lambda name: ufunc_functions().get(name)
    ops["scipy_ufunc"] = scipy_ufunc


def scipy_ufunc(f):
    """npgpu's ufunc for SciPy's ufunc ``f`` (``scipy.special.erf(x)`` on an npgpu array
    reaches ``__array_ufunc__`` with SciPy's erf), else None.  Only a loaded scipy.special can
    have made ``f``: npgpu.scipy.special loads (it is lazy) only then."""
    import sys
    if "scipy.special" not in sys.modules:
        return None
    return _namespace.scipy.special.ufunc_for(f)
