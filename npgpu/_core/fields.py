"""``ndarray.getfield`` / ``setfield`` (views of the element bytes at an offset) and
``ndarray.resize`` (NumPy's in-place resize of an owning array).  Reached from
:mod:`.ndarray` through ``_ops``."""
import operator

import numpy as np

from . import copy as _copy
from . import layout as _layout
from .dtypes import check_dtype
from .ndarray import _ops


def getfield(a, dtype, offset=0):
    """A view of ``a`` whose elements are ``dtype`` values read from each element's bytes at
    ``offset`` (NumPy's checks and messages); a subarray dtype adds its axes last.  The offset
    must be aligned for ``dtype`` (device loads need aligned addresses; NumPy's host loads do
    not)."""
    dt = np.dtype(dtype)
    offset = operator.index(offset)
    if offset < 0:
        raise ValueError("offset is negative")
    if dt.itemsize > a.itemsize:
        raise ValueError("new type is larger than original type")
    if dt.itemsize + offset > a.itemsize:
        raise ValueError("new type plus offset is larger than original type")
    shape, strides = a.shape, a._strides
    if dt.subdtype is not None:
        dt, sub = dt.subdtype
        shape = shape + sub
        strides = strides + _layout.c_strides(sub, dt.itemsize)
    dt = check_dtype(dt)
    _layout.check_aligned(a._ptr + offset, shape, strides, dt, f"a field at byte offset {offset}")
    return a._view(offset, shape, strides, dt)


def setfield(a, val, dtype, offset=0):
    """``a.getfield(dtype, offset)[...] = val``."""
    field = getfield(a, dtype, offset)
    field[...] = val


def _new_shape(args):
    if not args:                      # NumPy: a.resize() changes nothing
        return None
    if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
        args = args[0]
        if args is None:
            return None
        if not hasattr(args, "__len__"):
            raise TypeError(f"expected a sequence of integers or a single integer, got '{args}'")
    shape = tuple(operator.index(s) for s in args)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions not allowed")
    return shape


def resize(a, args, refcheck=True):
    """NumPy's ``a.resize(new_shape)``: ``a`` itself takes the new shape; its first elements in
    memory order stay, new ones are zero.  ``refcheck`` is accepted and needs no check: when
    ``a`` grows it gets new device memory, and views or other references to ``a`` keep the old
    memory (they neither dangle, as NumPy's may with ``refcheck=False``, nor see the change), so
    npgpu never refuses a resize because of references."""
    operator.index(refcheck)          # NumPy's int converter: its TypeError for others
    shape = _new_shape(args)
    if shape is None:
        return
    if not (a._c_contig or a._f_contig):
        raise ValueError("resize only works on single-segment arrays")
    size = _layout.prod(shape)
    order = "F" if a._f_contig and not a._c_contig else "C"
    isz = a.itemsize
    if size != a.size:
        if a._base is not None:
            raise ValueError("cannot resize this array: it does not own its data")
        keep = min(size, a.size)
        if size > a.size:
            new = _ops["zeros"]((size,), a.dtype)
            if keep:
                _copy.copy_into(new[:keep], a.reshape(-1, order=order)[:keep])
            a._mem, a._ptr = new._mem, new._ptr
    strides = (_layout.f_strides if order == "F" else _layout.c_strides)(shape, isz)
    a._shape = shape
    a._strides = strides
    a._c_contig = _layout.is_c_contig(shape, strides, isz)
    a._f_contig = _layout.is_f_contig(shape, strides, isz)
