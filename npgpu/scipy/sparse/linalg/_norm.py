"""``norm`` of a sparse matrix (SciPy's ``scipy.sparse.linalg.norm``), from the matrix's own
methods (abs, sum, max, min, power): results are npgpu arrays (0-d for matrix norms)."""
import numpy

from . import _xp as xp

from .._compressed import csr_matrix
from ._dsolve import _is_sparse

__all__ = ["norm"]


def _frobenius(x):
    c = x.tocsr(copy=True)
    c.sum_duplicates()                     # duplicates add before they are squared
    return xp.linalg.norm(c.data)


def _nonzero_pattern(x):
    """A matrix with x's structure and 1 where an entry is nonzero."""
    c = x.tocsr(copy=True)
    c.sum_duplicates()
    data = (c.data != 0).astype(numpy.float64)
    return csr_matrix((data, c.indices, c.indptr), shape=c.shape)


def _dense_ravel(m):
    if hasattr(m, "toarray"):
        m = m.toarray()
    return xp.asarray(m).ravel()


def norm(x, ord=None, axis=None):
    """Matrix norms ('fro', 1, -1, inf, -inf; 2 by ``svds``) and, with ``axis=``, vector
    norms of the rows or columns (any ord)."""
    if not _is_sparse(x):
        raise TypeError("input is not sparse. use numpy.linalg.norm")
    if axis is None and ord in (None, "fro", "f"):
        return _frobenius(x)
    x = x.tocsr()
    if axis is None:
        axis = tuple(range(x.ndim))
    elif not isinstance(axis, tuple):
        msg = "'axis' must be None, an integer or a tuple of integers"
        try:
            int_axis = int(axis)
        except TypeError as e:
            raise TypeError(msg) from e
        if axis != int_axis:
            raise TypeError(msg)
        axis = (int_axis,)
    nd = x.ndim
    if len(axis) == 2:
        row_axis, col_axis = axis
        if not (-nd <= row_axis < nd and -nd <= col_axis < nd):
            raise ValueError(f"Invalid axis {axis!r} for an array with shape {x.shape!r}")
        if row_axis % nd == col_axis % nd:
            raise ValueError("Duplicate axes given.")
        if ord == 2:
            from ._eigen import svds
            _, s, _ = svds(x, k=1, return_singular_vectors="vh")
            return s[0]
        if ord == -2:
            raise NotImplementedError
        if ord == 1:
            return xp.max(_dense_ravel(abs(x).sum(axis=row_axis)))
        if ord == numpy.inf:
            return xp.max(_dense_ravel(abs(x).sum(axis=col_axis)))
        if ord == -1:
            return xp.min(_dense_ravel(abs(x).sum(axis=row_axis)))
        if ord == -numpy.inf:
            return xp.min(_dense_ravel(abs(x).sum(axis=col_axis)))
        if ord in (None, "f", "fro"):
            return _frobenius(x)
        raise ValueError("Invalid norm order for matrices.")
    if len(axis) == 1:
        a, = axis
        if not (-nd <= a < nd):
            raise ValueError(f"Invalid axis {axis!r} for an array with shape {x.shape!r}")
        if ord == numpy.inf:
            M = abs(x).max(axis=a)
        elif ord == -numpy.inf:
            M = abs(x).min(axis=a)
        elif ord == 0:
            return _dense_ravel(_nonzero_pattern(x).sum(axis=a)).astype(numpy.int64)
        elif ord == 1:
            M = abs(x).sum(axis=a)
        elif ord in (2, None):
            M = xp.sqrt(_dense_ravel(abs(x).power(2).sum(axis=a)))
        else:
            try:
                ord + 1
            except TypeError as e:
                raise ValueError("Invalid norm order for vectors.") from e
            M = xp.power(_dense_ravel(abs(x).power(ord).sum(axis=a)), 1 / ord)
        return _dense_ravel(M)
    raise ValueError("Improper number of dimensions to norm.")
