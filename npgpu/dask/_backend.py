"""The ``"npgpu"`` Dask array backend: ``dask.config.set({"array.backend": "npgpu"})``.

Dask loads :class:`NpgpuBackendEntrypoint` through the ``dask.array.backends`` entry point the
first time that backend is asked for. Creation functions build the same graph as with NumPy but
with an npgpu meta, so every chunk task allocates with npgpu; ``da.random`` seeds npgpu's own
generators (Philox4x32-10 for ``default_rng``, ``npgpu.random.RandomState`` for the legacy API):
their streams are npgpu's, not NumPy's (``docs/random.md``).
"""
import dask.array as da
from dask import config
from dask.array.backends import ArrayBackendEntrypoint

import npgpu
from npgpu.dask._dispatch import register_dispatch, to_npgpu_dispatch


def _meta():
    return npgpu.empty((), dtype=npgpu.float64)


def _with_npgpu_meta(func_name, /, *args, meta=None, **kwargs):
    # the NumPy backend's graph with an npgpu meta: each chunk is made by npgpu (like= dispatch);
    # positional-only, as Dask passes ``name=`` (the ``*_like`` functions, ``triu``/``tril``)
    with config.set({"array.backend": "numpy"}):
        return getattr(da, func_name)(*args, meta=_meta() if meta is None else meta, **kwargs)


class NpgpuBackendEntrypoint(ArrayBackendEntrypoint):
    def __init__(self):
        register_dispatch()

    @classmethod
    def to_backend_dispatch(cls):
        return to_npgpu_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, npgpu.ndarray):
            return data
        return data.map_blocks(cls.to_backend_dispatch(), **kwargs)

    @property
    def RandomState(self):
        return npgpu.random.RandomState

    @property
    def default_bit_generator(self):
        return npgpu.random.Philox

    @staticmethod
    def ones(*args, **kwargs):
        return _with_npgpu_meta("ones", *args, **kwargs)

    @staticmethod
    def zeros(*args, **kwargs):
        return _with_npgpu_meta("zeros", *args, **kwargs)

    @staticmethod
    def empty(*args, **kwargs):
        return _with_npgpu_meta("empty", *args, **kwargs)

    @staticmethod
    def full(*args, **kwargs):
        return _with_npgpu_meta("full", *args, **kwargs)

    @staticmethod
    def arange(*args, like=None, **kwargs):
        with config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=_meta() if like is None else like, **kwargs)
