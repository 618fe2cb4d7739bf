"""``reshape`` and ``resize`` as SciPy's, on the device coordinates: a matrix keeps two
dimensions, an array reshapes between one and two (SciPy's n-d ``coo_array`` results are
NotImplementedError)."""
import math
import operator

import numpy as np

from ._base import index_dtype


def _parse(args):
    """SciPy's ``check_shape`` argument forms: ``(m, n)``, ``m, n`` or one integer."""
    if len(args) == 0:
        raise TypeError("function missing 1 required positional argument: 'shape'")
    if len(args) == 1:
        try:
            it = iter(args[0])
        except TypeError:
            return (operator.index(args[0]),)
        return tuple(operator.index(s) for s in it)
    return tuple(operator.index(s) for s in args)


def _two(shape):
    if len(shape) != 2:
        raise ValueError(f"shape must have length in (2,). Got new_shape={shape}")
    return shape


def reshape(a, args, order="C", copy=False):
    shape, size = _parse(args), math.prod(a.shape)
    neg = [i for i, s in enumerate(shape) if s < 0]
    if not neg:
        if int(np.prod(shape)) != size:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
    elif len(neg) == 1:
        rest = int(np.prod(shape[:neg[0]] + shape[neg[0] + 1:]))
        known, rem = divmod(size, rest) if rest else (0, size)
        if rem:
            err = tuple("newshape" if s < 0 else s for s in shape)
            raise ValueError(f"cannot reshape array of size {size} into shape {err}")
        shape = shape[:neg[0]] + (known,) + shape[neg[0] + 1:]
    else:
        raise ValueError("can only specify one unknown dimension")
    if shape == a.shape:
        return a.copy() if copy else a
    if a._is_array and len(shape) != 2:
        return _to_1d(a, shape, order, copy)
    if not shape and a.format != "coo":     # SciPy's first check, before COO's own
        raise ValueError(f"shape must have length in range(1, 65). Got new_shape={shape}")
    m, n = _two(shape)
    c = a.tocoo()
    r, k = c.row.astype(np.int64), c.col.astype(np.int64)
    a_shape = a.shape
    if a.ndim == 1:     # a 1-d COO (index in ``col``) reads as its (n, 1) column in either order
        r, k, a_shape = k, r, (a.shape[0], 1)
    if order == "C":
        row, col = divmod(r * a_shape[1] + k, n)
    else:
        col, row = divmod(k * a_shape[0] + r, m)
    idt = index_dtype(max(shape))
    data = c.data.copy() if copy else c.data
    return type(c)._from_parts(data, row.astype(idt), col.astype(idt), shape)


def _to_1d(a, shape, order, copy):
    """A 2-d array reshaped to the 1-d COO array of its flat indices (SciPy's ``coo_array``
    takes any number of dimensions; npgpu's one or two)."""
    if len(shape) == 0:
        raise ValueError(f"shape must have length in range(1, 65). Got new_shape={shape}")
    if len(shape) != 1:
        raise NotImplementedError(f"npgpu's sparse arrays have one or two dimensions, not "
                                  f"{len(shape)} (SciPy's n-d coo_array)")
    from ._coo1d import make
    c = a.tocoo()
    r, k = c.row.astype(np.int64), c.col.astype(np.int64)
    flat = r * a.shape[1] + k if order == "C" else k * a.shape[0] + r
    return make(c.data.copy() if copy else c.data, flat, shape[0])


def resize(a, args):
    """In place: entries inside the new shape stay where they are, the others go; a COO array
    to or from one dimension keeps the entries whose row-major flat position fits (SciPy's)."""
    shape = _parse(args)
    if len(shape) not in a._allow_nd:
        raise ValueError(f"shape must have length in {a._allow_nd}. Got new_shape={shape}")
    if any(s < 0 for s in shape):
        raise ValueError("'shape' elements cannot be negative")
    if len(shape) > 2:
        raise ValueError("shape argument must be 1-D or 2-D")         # (SciPy's COO's)
    if a.format == "coo" and 1 in (len(shape), len(a.shape)):
        _resize_flat(a, shape)
        return
    if len(shape) == 1:
        raise NotImplementedError(
            "resize to 1-d is not implemented: npgpu's 1-d sparse arrays are COO only")
    if a.format in ("csr", "csc"):
        from ._coo import sorted_indptr
        nm, nn = a._swap(shape)
        major = a._major_index()
        keep = (major < nm) & (a.indices < nn)
        a.data, a.indices = a.data[keep], a.indices[keep]
        a.indptr = sorted_indptr(major[keep], nm, a.indptr.dtype)
    else:
        c = a.tocoo()
        keep = (c.row < shape[0]) & (c.col < shape[1])
        new = type(c)._from_parts(c.data[keep], c.row[keep], c.col[keep], shape)
        if a.format == "coo":
            a.data, a.row, a.col = new.data, new.row, new.col
        else:
            a._assign(new)
    a._shape = shape


def _resize_flat(a, shape):
    """``resize`` of a COO array to or from one dimension, in place: the entries by their
    row-major flat positions, those past the new size dropped (SciPy raises for them going
    from one to two dimensions)."""
    from ._base import xp
    X = xp()
    flat = a.col.astype(np.int64)
    if len(a.shape) == 2:
        flat = a.row.astype(np.int64) * a.shape[1] + flat
    keep = flat < math.prod(shape)
    flat, data = flat[keep], a.data[keep]
    idt = index_dtype(max(shape))
    if len(shape) == 1:
        row, col = X.zeros(flat.shape[0], idt), flat.astype(idt)
    else:
        row, col = (v.astype(idt) for v in X.divmod(flat, max(shape[1], 1)))
    a.data, a.row, a.col, a._shape = data, row, col, tuple(shape)
