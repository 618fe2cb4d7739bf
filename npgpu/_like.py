"""NEP 35 ``like=`` for npgpu's creation functions: a reference array of another library (with
``__array_function__``) gets the call, as NumPy hands it on; an npgpu or NumPy array as
``like`` changes nothing (npgpu makes the array); anything else is NumPy's ``TypeError``.

A function calls :func:`handled` only where ``like is not None`` (the usual call pays nothing),
with ``locals()`` taken first thing, so the parameters are exactly the caller's values."""
import inspect

import numpy as np

from ._core.ndarray import ndarray

_SIGNATURES = {}


def foreign(like):
    """True where ``like`` is another library's array whose ``__array_function__`` gets the
    call; False for npgpu's and NumPy's arrays; NumPy's TypeError for a non-array."""
    if isinstance(like, (ndarray, np.ndarray)):
        return False
    if getattr(type(like), "__array_function__", None) is None:
        raise TypeError("The `like` argument must be an array-like that implements the "
                        "`__array_function__` protocol.")
    return True


def dispatch(func, like, values):
    """``like.__array_function__`` of ``func`` called as the caller called it: the positional
    parameters without defaults as positionals, the others by keyword where not left at their
    default, ``like`` left out (NumPy does not pass it on)."""
    sig = _SIGNATURES.get(func)
    if sig is None:
        sig = _SIGNATURES[func] = inspect.signature(func)
    args, kwargs = [], {}
    for name, p in sig.parameters.items():
        if name == "like" or name not in values:
            continue
        v = values[name]
        if p.kind is p.VAR_POSITIONAL:
            args.extend(v)
        elif p.kind is p.VAR_KEYWORD:
            kwargs.update((k, x) for k, x in v.items() if k != "like")
        elif p.default is p.empty and p.kind is not p.KEYWORD_ONLY and not kwargs:
            args.append(v)
        elif v is not p.default:
            kwargs[name] = v
    res = like.__array_function__(func, (type(like),), tuple(args), kwargs)
    if res is NotImplemented:
        raise TypeError(f"no implementation found for 'numpy.{func.__name__}' on types that "
                        f"implement __array_function__: [{type(like)}]")
    return res
