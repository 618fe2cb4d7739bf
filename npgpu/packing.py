"""Bit packing: packbits, unpackbits.

Both compose npgpu's elementwise operations and reductions.  ``packbits`` views the elements
along the axis (padded with zeros to a multiple of 8) as rows of 8 truth values and sums them
against the bit weights; ``unpackbits`` shifts each byte right by 7..0 (or 0..7) and keeps the
low bit.  The work is laid out as (before, along, after) so every result comes out
C-contiguous, as NumPy's does.
"""
import math
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .creation import asarray, zeros
from .manipulation import concatenate
from .reductions import sum as _sum

__all__ = ["packbits", "unpackbits"]

_U8 = np.dtype(np.uint8)
_BIG = np.array([7, 6, 5, 4, 3, 2, 1, 0], dtype=np.uint8)        # shift of each bit, MSB first


def _axis_arg(axis):
    """``axis`` as NumPy's bit functions take it: None or an integer (not a bool)."""
    if axis is None:
        return None
    if isinstance(axis, (bool, np.bool_)):
        raise TypeError("an integer is required for the axis")
    return operator.index(axis)


def _order_arg(bitorder, fn, pos):
    """The ``bitorder`` string, with NumPy's TypeError for anything else."""
    if not isinstance(bitorder, str):
        got = "None" if bitorder is None else type(bitorder).__name__
        raise TypeError(f"{fn}() argument {pos} must be str, not {got}")
    return bitorder


def _three_axes(a, axis):
    """``a`` as (before, along, after) about ``axis`` (flattened when None; 0-d as 1-d), and
    the normalized axis."""
    if axis is None or a.ndim == 0:
        a = a.reshape(-1)
    axis = 0 if axis is None else normalize_axis_index(axis, a.ndim)
    before, after = math.prod(a.shape[:axis]), math.prod(a.shape[axis + 1:])
    return a.reshape(before, a.shape[axis], after), a.shape, axis


def packbits(a, axis=None, bitorder="big"):
    """``numpy.packbits``: the truth values of an integer or boolean array packed eight to a
    uint8 along ``axis`` (flattened when None), the last byte padded with zero bits;
    ``bitorder`` 'big' puts the first element in the most significant bit."""
    axis = _axis_arg(axis)
    bitorder = _order_arg(bitorder, "pack", 3)
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    a = asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    a3, shape, axis = _three_axes(a, axis)
    before, n, after = a3.shape
    nbytes = -(-n // 8)
    bits = a3 != 0
    if nbytes * 8 != n:
        pad = zeros((before, nbytes * 8 - n, after), np.bool_)
        bits = concatenate((bits, pad), axis=1)
    weights = np.left_shift(np.uint8(1), _BIG if bitorder == "big" else _BIG[::-1])
    terms = bits.reshape(before, nbytes, 8, after) * asarray(weights.reshape(8, 1))
    out = _sum(terms, axis=2, dtype=_U8)
    return out.reshape(shape[:axis] + (nbytes,) + shape[axis + 1:])


def _count_arg(count):
    """``count`` as NumPy's unpackbits takes it: None or a C long (not a bool)."""
    if count is None:
        return None
    if isinstance(count, (bool, np.bool_)):
        raise TypeError("an integer is required")
    count = operator.index(count)
    if not -2 ** 63 <= count < 2 ** 63:
        raise OverflowError("Python int too large to convert to C long")
    return count


def unpackbits(a, axis=None, count=None, bitorder="big"):
    """``numpy.unpackbits``: each uint8 of ``a`` as 8 bits (0/1 uint8) along ``axis``
    (flattened when None); ``count`` keeps that many bits (padding with zeros past the end),
    a negative one drops that many from the end; ``bitorder`` 'big' gives the most
    significant bit first."""
    axis = _axis_arg(axis)
    bitorder = _order_arg(bitorder, "unpack", 4)
    if bitorder[:1] not in ("b", "l"):
        raise ValueError("'order' must begin with 'l' or 'b'")
    a = asarray(a)
    if a.dtype != _U8:
        raise TypeError("Expected an input array of unsigned byte data type")
    a3, shape, axis = _three_axes(a, axis)
    count = _count_arg(count)
    before, n, after = a3.shape
    total = n * 8
    if count is None:
        keep = total
    elif count >= 0:
        keep = count
    elif -count > total:
        raise ValueError("-count larger than number of elements")
    else:
        keep = total + count
    shifts = asarray((_BIG if bitorder[0] == "b" else _BIG[::-1]).reshape(8, 1))
    bits = ((a3.reshape(before, n, 1, after) >> shifts) & 1).reshape(before, total, after)
    if keep < total:
        bits = bits[:, :keep]
    elif keep > total:
        bits = concatenate((bits, zeros((before, keep - total, after), _U8)), axis=1)
    return bits.reshape(shape[:axis] + (keep,) + shape[axis + 1:])
