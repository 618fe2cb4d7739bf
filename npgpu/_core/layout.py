"""Shapes and strides: contiguity, reshape-as-view, basic indexing. Pure host arithmetic."""
import operator

import numpy as np


def c_strides(shape, itemsize):
    strides = []
    acc = itemsize
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


def f_strides(shape, itemsize):
    strides = []
    acc = itemsize
    for n in shape:
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(strides)


def is_c_contig(shape, strides, itemsize):
    if 0 in shape:          # an empty array is contiguous whatever its strides (NumPy)
        return True
    acc = itemsize
    for n, s in zip(reversed(shape), reversed(strides)):
        if n != 1:
            if s != acc:
                return False
            acc *= n
    return True


def is_f_contig(shape, strides, itemsize):
    if 0 in shape:
        return True
    acc = itemsize
    for n, s in zip(shape, strides):
        if n != 1:
            if s != acc:
                return False
            acc *= n
    return True


def normalize_shape(shape):
    given = shape
    if isinstance(shape, (int, np.integer)) or getattr(shape, "ndim", None) == 0:
        shape = (shape,)    # a 0-d array (NumPy's or a device count, read by __index__)
    if shape is None:
        raise TypeError("Use () not None as shape arguments")     # NumPy's message
    try:
        items = tuple(shape)
    except TypeError:
        # NumPy's message: the repr quoted
        raise TypeError("expected a sequence of integers or a single integer, "
                        f"got '{given!r}'") from None
    # a sequence: NumPy names the first element that is not an integer (a 0-d array given
    # alone: the "expected a sequence" message, as for any non-sequence)
    try:
        shape = tuple(operator.index(n) for n in items)
    except TypeError:
        if shape is not given and getattr(given, "ndim", None) == 0:
            raise TypeError("expected a sequence of integers or a single integer, "
                            f"got '{given!r}'") from None
        raise
    for n in shape:
        if n < 0:
            raise ValueError("negative dimensions are not allowed")
        if n > 2 ** 63 - 1:         # NumPy's: not an intp
            raise ValueError("Maximum allowed dimension exceeded")
    return shape


def check_order(order, allowed="CFAK"):
    """NumPy's ``order=`` converter: one of C, F, A, K in either case (str or bytes), upper-cased;
    None as given.  NumPy's TypeError / ValueError otherwise, and its "only 'C' or 'F'" where
    ``allowed`` is "CF" (creation functions)."""
    if order is None:
        return None
    if isinstance(order, bytes):
        order = order.decode("latin-1")
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    o = order.upper() if len(order) == 1 else order
    if o not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if o not in allowed:
        raise ValueError("only 'C' or 'F' order is permitted")
    return o


def check_copy(copy):
    """NumPy's ``copy=`` converter: True (always), False (never) or None (if needed), from None,
    a ``numpy._CopyMode`` or any truth value (``numpy.False_`` is never)."""
    if copy is None or copy is True or copy is False:
        return copy
    if isinstance(copy, str):
        raise ValueError("strings are not allowed for 'copy' keyword. Use True/False/None "
                         "instead.")
    if isinstance(copy, np._CopyMode):
        return None if copy is np._CopyMode.IF_NEEDED else copy.value
    return bool(copy)


def prod(shape):
    p = 1
    for n in shape:
        p *= n
    return p


def normalize_axis(axis, ndim, prefix=None):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer") from None
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim, prefix)
    return axis % ndim


def reshape_strides(shape, strides, itemsize, newshape, order="C"):
    """Strides that view (shape, strides) as ``newshape`` without copying, or None.

    NumPy's rule (``PyArray_Newshape``): an array contiguous in the requested order gets
    contiguous strides; otherwise walk both shapes, grouping dims whose products match, each
    old group contiguous among itself in that order (``_attempt_nocopy_reshape``, whose strides
    for the new shape's leftover 1-dims are observable, so they are NumPy's too).
    """
    if tuple(newshape) == tuple(shape):
        return tuple(strides)                   # NumPy: the same shape is a plain view
    f = order == "F"
    if prod(shape) == 0 or prod(newshape) == 0 or (is_f_contig if f else is_c_contig)(
            shape, strides, itemsize):
        return (f_strides if f else c_strides)(newshape, itemsize)
    old = [(n, s) for n, s in zip(shape, strides) if n != 1]
    new = list(newshape)
    out = [0] * len(new)
    oi = ni = 0
    while oi < len(old) and ni < len(new):
        op, np_ = old[oi][0], new[ni]
        oj, nj = oi + 1, ni + 1
        while op != np_:
            if np_ < op:
                np_ *= new[nj]
                nj += 1
            else:
                op *= old[oj][0]
                oj += 1
        # the old group oi..oj must be contiguous among itself
        for k in range(oi, oj - 1):
            (n0, s0), (n1, s1) = old[k], old[k + 1]
            if (s1 != n0 * s0) if f else (s0 != n1 * s1):
                return None
        # new strides for ni..nj, from the group's fastest old axis
        if f:
            out[ni] = old[oi][1]
            for k in range(ni + 1, nj):
                out[k] = out[k - 1] * new[k - 1]
        else:
            out[nj - 1] = old[oj - 1][1]
            for k in range(nj - 1, ni, -1):
                out[k - 1] = out[k] * new[k]
        oi, ni = oj, nj
    # the remaining new dims are all 1 (ni >= 1: a non-contiguous array has a dim > 1)
    last = out[ni - 1] * (new[ni - 1] if f else 1)
    for k in range(ni, len(new)):
        out[k] = last
    return tuple(out)


def resolve_newshape(newshape, size):
    if isinstance(newshape, (int, np.integer)):
        newshape = (newshape,)
    if any(isinstance(n, (bool, np.bool_)) for n in newshape):
        raise TypeError("an integer is required")      # NumPy refuses bools in a shape
    newshape = [operator.index(n) for n in newshape]
    unknown = [i for i, n in enumerate(newshape) if n < 0]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    if unknown:                 # NumPy takes any negative entry as the unknown one
        known = prod(n for i, n in enumerate(newshape) if i != unknown[0])
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape "
                             f"{_shape_text(newshape)}")
        newshape[unknown[0]] = size // known
    if prod(newshape) != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {_shape_text(newshape)}")
    return tuple(newshape)


def broadcast_shape(*shapes):
    """The broadcast of ``shapes`` (ValueError where they do not broadcast), in pure Python:
    NumPy's ``broadcast_shapes`` stops at 32 dimensions."""
    nd = max(map(len, shapes), default=0)
    out = [1] * nd
    for shape in shapes:
        for i, n in enumerate(shape, nd - len(shape)):
            if n != 1:
                if out[i] not in (1, n):
                    raise ValueError("shapes do not broadcast")
                out[i] = n
    return tuple(out)


def broadcasts_to(shape, target):
    """Whether an array of ``shape`` broadcasts to exactly ``target`` (NumPy's assignment
    rule; no exception for shapes that do not broadcast at all).  Pure Python: NumPy's
    ``broadcast_shapes`` stops at 32 dimensions."""
    return len(shape) <= len(target) and all(
        s in (1, t) for s, t in zip(reversed(shape), reversed(target)))


def c_shape_text(shape):
    """A shape as NumPy's C code prints it in messages: ``(2,3)``, ``(3,)``, ``()`` (entries
    may be text, e.g. ``newaxis``)."""
    shape = tuple(shape)
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _shape_text(shape):
    """A requested shape as NumPy's reshape message prints it (convert_shape_to_string): no
    spaces, a negative entry as ``newaxis``, leading ones dropped: ``(4,newaxis)``, ``(4)``."""
    shape = tuple(shape)
    i = 0
    while i < len(shape) and shape[i] < 0:
        i += 1
    if i == len(shape):
        return "()"
    body = ",".join("newaxis" if d < 0 else str(d) for d in shape[i:])
    return f"({body},)" if len(shape) == 1 else f"({body})"


def basic_index(shape, strides, index):
    """Apply a basic index (ints, slices, None, Ellipsis) -> (offset bytes, shape, strides).

    Returns None if the index is not basic (arrays, lists, booleans).
    """
    if not isinstance(index, tuple):
        index = (index,)
    n_real = 0
    has_ellipsis = False
    for it in index:
        if it is None:
            continue
        if it is Ellipsis:
            if has_ellipsis:
                raise IndexError("an index can only have a single ellipsis ('...')")
            has_ellipsis = True
            continue
        if isinstance(it, slice) or _is_int(it):
            if not isinstance(it, slice):
                index_int(it)           # NumPy converts each integer as it parses the index
            n_real += 1
            continue
        return None
    ndim = len(shape)
    if n_real > ndim:
        raise IndexError(f"too many indices for array: array is {ndim}-dimensional, "
                         f"but {n_real} were indexed")
    offset = 0
    new_shape, new_strides = [], []
    d = 0
    for it in index:
        if it is None:
            new_shape.append(1)
            new_strides.append(0)
        elif it is Ellipsis:
            for _ in range(ndim - n_real):
                new_shape.append(shape[d])
                new_strides.append(strides[d])
                d += 1
        elif isinstance(it, slice):
            start, stop, step = it.indices(shape[d])
            if step == 0:
                raise ValueError("slice step cannot be zero")
            length = len(range(start, stop, step))
            if length:
                offset += start * strides[d]
            new_shape.append(length)
            new_strides.append(strides[d] * step)
            d += 1
        else:
            i = operator.index(it)
            n = shape[d]
            if not -n <= i < n:
                raise index_error(i, d, n)
            offset += (i % n) * strides[d]
            d += 1
    while d < ndim:
        new_shape.append(shape[d])
        new_strides.append(strides[d])
        d += 1
    if len(new_shape) > 64:
        raise too_many_dims(len(new_shape))
    return offset, tuple(new_shape), tuple(new_strides)


VALID_INDEX_MSG = ("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                   "integer or boolean arrays are valid indices")


def index_error(i, axis, n):
    """NumPy's error for an integer index ``i`` outside an axis of length ``n``: OverflowError
    for [2**63, 2**64) (NumPy's conversion to a C long), the invalid-index IndexError beyond
    that, else out of bounds."""
    if 1 << 63 <= i < 1 << 64:
        return OverflowError("Python int too large to convert to C long")
    if not -(1 << 63) <= i < 1 << 64:
        return IndexError(VALID_INDEX_MSG)
    return IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")


def index_int(it):
    """``operator.index(it)``, with NumPy's error where it does not fit an intp."""
    i = operator.index(it)
    if not -(1 << 63) <= i < 1 << 63:
        raise index_error(i, 0, 0)
    return i


def too_many_dims(nd):
    """NumPy's IndexError for an indexing result of more than 64 dimensions."""
    return IndexError(f"number of dimensions must be within [0, 64], indexing result would "
                      f"have {nd}")


def _is_int(x):
    if isinstance(x, (bool, np.bool_)):
        return False
    if isinstance(x, (int, np.integer)):
        return True
    if hasattr(x, "__index__") and not hasattr(x, "shape"):
        return True
    return False


def host_stand_in(shape, dtype, writeable=False):
    """A NumPy array of ``shape`` and ``dtype`` holding no data (one zero, every stride 0): what
    NumPy's own argument checks run on to give NumPy's errors for an npgpu call."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, dtype), tuple(shape), (0,) * len(shape),
                                           writeable=writeable)


def check_aligned(ptr, shape, strides, dtype, what):
    """ValueError unless every element of the layout starts at a multiple of ``dtype``'s
    alignment: NumPy reads misaligned views through buffers, a device load of one faults (and
    the fault poisons the context), so npgpu never makes one."""
    al = dtype.alignment
    acc = ptr
    for s in strides:
        acc |= s
    if acc % al == 0 or 0 in shape:          # (an OR of multiples of a power of 2 is one)
        return
    if ptr % al or any(s % al for s, n in zip(strides, shape) if n > 1):
        raise ValueError(f"npgpu: {what} would not be aligned for {dtype} (device loads need "
                         f"addresses and strides that are multiples of {al} bytes)")
