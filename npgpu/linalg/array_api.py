"""``numpy.linalg``'s Array API functions: positional-only operands, keyword-only options and
the last two axes as the matrix (unlike the NumPy-namespace ``diagonal``/``trace``, which take
axes 0 and 1). Each is a check and a call of the NumPy-namespace function in :mod:`.products`."""
from ._common import asarray
from . import products as _p


def diagonal(x, /, *, offset=0):
    """The diagonals of the matrices in the last two axes (a view)."""
    return _p.diagonal(x, offset, axis1=-2, axis2=-1)


def trace(x, /, *, offset=0, dtype=None):
    """The traces of the matrices in the last two axes."""
    return _p.trace(x, offset, axis1=-2, axis2=-1, dtype=dtype)


def matrix_transpose(x, /):
    """Swap the last two axes (a view)."""
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return x.swapaxes(-1, -2)


def outer(x1, x2, /):
    """Outer product of two vectors (1-D only, unlike ``npgpu.outer``)."""
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("Input arrays must be one-dimensional, but they are "
                         f"x1.ndim={x1.ndim} and x2.ndim={x2.ndim}.")
    return _p.outer(x1, x2)


def cross(x1, x2, /, *, axis=-1):
    """Cross product of 3-component vectors along ``axis`` (no 2-component vectors)."""
    x1, x2 = asarray(x1), asarray(x2)
    n1, n2 = x1.shape[axis], x2.shape[axis]
    if n1 != 3 or n2 != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, "
                         f"but they are {n1} and {n2} dimensional instead.")
    return _p.cross(x1, x2, axis=axis)


def matmul(x1, x2, /):
    """Matrix product (``npgpu.matmul`` without out= and the ufunc options)."""
    return _p.matmul(x1, x2)


def tensordot(x1, x2, /, *, axes=2):
    """Tensor dot product over ``axes``."""
    return _p.tensordot(x1, x2, axes=axes)


def vecdot(x1, x2, /, *, axis=-1):
    """Dot products of vectors along ``axis`` (conjugating ``x1``)."""
    return _p.vecdot(x1, x2, axis=axis)
