"""A fused function called with host values only runs on the host, as plain Python with NumPy.

While it runs, :mod:`npgpu._hostmode` is on in this thread: npgpu's ufuncs, ``where`` and
reductions given only NumPy inputs compute with NumPy, so ``npgpu.sin(x)`` in the body serves
both devices.  Operators on NumPy arrays are NumPy's already."""
import numpy as np

from .. import _hostmode

_HOST = (np.ndarray, np.generic, int, float, complex, bool)


def is_host_call(args):
    """Are all arguments host values, with at least one NumPy array or scalar among them?"""
    return all(isinstance(a, _HOST) for a in args) and \
        any(isinstance(a, (np.ndarray, np.generic)) for a in args)


def run(func, args):
    with _hostmode.enabled():
        return func(*args)
