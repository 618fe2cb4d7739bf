"""Host mode: a thread-local switch that ``@npgpu.fuse`` turns on while it runs a function called
with NumPy arrays only.  Meanwhile npgpu's ufuncs, ``where`` and reductions given only host
values (NumPy arrays and scalars, Python scalars) compute with NumPy and return NumPy results,
so one function body serves both devices.  Lowest layer: imports nothing of npgpu."""
import threading

import numpy as np

_tls = threading.local()
_HOST = (np.ndarray, np.generic, int, float, complex, bool, list, tuple)


def active():
    return _tls.__dict__.get("depth", 0) > 0


def on_host(*values):
    """Is host mode on, and every value a host value (None ignored)?"""
    if not _tls.__dict__.get("depth", 0):
        return False
    return all(v is None or isinstance(v, _HOST) for v in values)


class enabled:
    """``with enabled():`` host mode on in this thread (nests)."""

    def __enter__(self):
        _tls.depth = _tls.__dict__.get("depth", 0) + 1

    def __exit__(self, *exc):
        _tls.depth -= 1
