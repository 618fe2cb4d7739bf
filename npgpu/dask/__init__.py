"""Dask arrays of npgpu chunks (issue 22); ``docs/dask.md``.

npgpu never imports Dask itself. Dask finds the ``"npgpu"`` array backend
(``dask.config.set({"array.backend": "npgpu"})``) through the ``dask.array.backends`` entry point
(``pyproject.toml`` -> :class:`npgpu.dask._backend.NpgpuBackendEntrypoint`), and
``npgpu/__init__.py`` installs lazy registrations (:mod:`npgpu.dask._lazy`): the first time Dask
dispatches on an npgpu chunk (concatenate, tensordot, einsum, percentile, numel, sizeof, tokens
...) it imports :mod:`npgpu.dask._dispatch` and registers npgpu's implementations.
:func:`register` does the same eagerly.
"""


def register():
    """Register npgpu with Dask now (imports Dask; idempotent)."""
    from npgpu.dask._dispatch import register_dispatch

    register_dispatch()


__all__ = ["register"]
