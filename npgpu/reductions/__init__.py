"""Reductions, statistics and scans as generated kernels (see :mod:`.template`, :mod:`.scan`)."""
from .functions import (all, amax, amin, any, argmax, argmin, average, count_nonzero, cumprod,
                        cumsum, diff, max, mean, min, nanargmax, nanargmin, nancumprod, nancumsum,
                        nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar, prod, ptp, std,
                        sum, var)
from . import ufunc_methods as _um

__all__ = ["all", "amax", "amin", "any", "argmax", "argmin", "average", "count_nonzero", "cumprod",
           "cumsum", "diff", "max", "mean", "min", "nanargmax", "nanargmin", "nancumprod",
           "nancumsum", "nanmax", "nanmean", "nanmin", "nanprod", "nanstd", "nansum", "nanvar",
           "prod", "ptp", "std", "sum", "var"]

_METHODS = ("sum", "prod", "min", "max", "argmin", "argmax", "mean", "var", "std", "any", "all",
            "ptp", "cumsum", "cumprod")


def register(ops):
    """Fill the ndarray registry and add the reduction methods to ``ndarray``."""
    from .._core.ndarray import ndarray
    from . import functions, scan

    for name in _METHODS:
        fn = getattr(functions, name)
        ops[name] = fn
        setattr(ndarray, name, functions.METHODS[name])
    ops["ufunc_reduce"] = _um.ufunc_reduce
    ops["ufunc_accumulate"] = scan.ufunc_accumulate
    ops["ufunc_reduceat"] = _um.ufunc_reduceat
