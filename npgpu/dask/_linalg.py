"""The triangular solve of ``da.linalg`` for npgpu blocks.

Dask has no dispatch table for it: ``dask.array.utils.solve_triangular_safe`` sends CuPy blocks
to ``cupyx.scipy.linalg`` (by type name) and every other block to ``scipy.linalg``, which
refuses device arrays.  :func:`install` puts a wrapper in its place (in ``dask.array.utils``
and in ``dask.array.linalg``, which imported the name) that solves npgpu blocks with npgpu and
hands anything else to Dask's function unchanged.  ``da.linalg.solve_triangular``,
``cholesky`` (more than one block), ``solve(..., assume_a="pos")`` and ``lstsq`` go through it.
"""
import dask.array.linalg as _dask_linalg
import dask.array.utils as _dask_utils

import npgpu

_dask_solve_triangular = _dask_utils.solve_triangular_safe


def solve_triangular(a, b, lower=False):
    """SciPy's ``solve_triangular(a, b, lower=lower)``: only the named triangle of ``a`` is
    read."""
    if not isinstance(a, npgpu.ndarray):
        return _dask_solve_triangular(a, b, lower=lower)
    return npgpu.linalg.solve(npgpu.tril(a) if lower else npgpu.triu(a), b)


def install():
    for module in (_dask_utils, _dask_linalg):
        module.solve_triangular_safe = solve_triangular
