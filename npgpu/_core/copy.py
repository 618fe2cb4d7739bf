"""Copy, cast, fill and basic-index get/set: the first users of the elementwise generator."""
import numpy as np

from .._codegen import elementwise as _ew
from .._codegen.stats import stats as _stats
from ..cuda import runtime as _runtime
from . import layout as _layout
from .dtypes import check_dtype
from .ndarray import _ops, empty_array, empty_array_keep, fail_unless_writeable, ndarray
from . import transfer as _transfer

IDENTITY = _ew.ScalarOp.from_expr("identity", 1, "x0")
_F16, _U16 = np.dtype(np.float16), np.dtype(np.uint16)


def extent(a):
    """(lowest, highest+1) byte address an array touches."""
    lo = hi = a._ptr
    for n, s in zip(a.shape, a._strides):
        if n > 1:
            if s < 0:
                lo += s * (n - 1)
            else:
                hi += s * (n - 1)
    return lo, hi + a.itemsize


def may_overlap(a, b):
    if a.size == 0 or b.size == 0:
        return False
    alo, ahi = extent(a)
    blo, bhi = extent(b)
    return alo < bhi and blo < ahi


def same_elements(a, b, shape):
    """True if ``a`` and ``b`` (broadcast to ``shape``) address element i at the same place for
    every i, and ``a`` gives every i a place of its own: then an elementwise loop from ``b`` into
    ``a`` reads each element before it writes it.  (A zero stride over a real axis, as a
    writeable ``broadcast_arrays`` view has, writes one place many times: NumPy reads a copy.)"""
    if a._ptr != b._ptr or a.dtype.itemsize != b.dtype.itemsize:
        return False
    sa = _ew.broadcast_strides(a.shape, a._strides, shape)
    sb = _ew.broadcast_strides(b.shape, b._strides, shape)
    return (all((x == y and x) or n == 1 for x, y, n in zip(sa, sb, shape))
            and (a._c_contig or a._f_contig or distinct_places(a.shape, a._strides, a.itemsize)))


def distinct_places(shape, strides, itemsize):
    """True if no two elements of the layout share a byte (checked by a sufficient rule: with
    the axes sorted by stride, each stride clears the extent of the smaller ones).  False may
    be a layout that does not overlap after all (``as_strided`` ones): callers then copy."""
    reach = itemsize
    for n, s in sorted(((n, abs(s)) for n, s in zip(shape, strides) if n > 1),
                       key=lambda t: t[1]):
        if s < reach:
            return False
        reach = s * (n - 1) + reach
    return True


def copy_into(dst, src):
    """dst[...] = src, with broadcasting and an unsafe cast (the caller checked casting)."""
    if dst._ro:
        fail_unless_writeable(dst, "assignment destination")
    if not isinstance(src, ndarray):
        fill(dst, src)
        return
    k = 0
    while src.ndim - k > dst.ndim and src.shape[k] == 1:    # NumPy drops leading unit dims
        k += 1                                               # (as many as it can: its message)
    if k:
        src = src._view(0, src.shape[k:], src._strides[k:])
    if not _layout.broadcasts_to(src.shape, dst.shape):
        raise ValueError(f"could not broadcast input array from shape "
                         f"{_layout.c_shape_text(src.shape)} into shape "
                         f"{_layout.c_shape_text(dst.shape)}")
    if dst.size == 0:
        return
    if may_overlap(dst, src):
        if same_elements(dst, src, dst.shape) and dst.dtype == src.dtype:
            return                                   # a[...] = a
        if not same_elements(dst, src, dst.shape):
            src = src.copy()
    if _same_block(dst, src):
        _transfer.d2d(dst._ptr, src._ptr, dst.nbytes)
        return
    _copy_launch(src, dst)


def _copy_launch(src, dst):
    """The copy kernel ``dst[...] = src``: the cast happens on load (cast_expr handles
    complex->real), the identity loop runs in dst's dtype.  float16 into float16 moves bits: its
    loop computes in float32, and the GPU's conversion back gives every NaN one pattern (0x7fff),
    not the element's own (NumPy's copies keep it)."""
    if src.dtype == dst.dtype == _F16:
        src, dst = src.view(_U16), dst.view(_U16)
    _ew.launch(IDENTITY, [src], [dst.dtype], [dst], [dst.dtype], name="copy")


def _same_block(dst, src):
    """Same dtype, shape and one contiguous memory order: the driver's memcpy does it at peak."""
    return (dst.dtype == src.dtype and dst.shape == src.shape
            and ((dst._c_contig and src._c_contig) or (dst._f_contig and src._f_contig)))


def copy(a, order="C", dtype=None):
    dt = a.dtype if dtype is None else check_dtype(dtype)
    if order not in ("C", "F", "A", "K"):
        order = "C" if order is None else _layout.check_order(order)   # NumPy's converter
    # 'K' of a non-contiguous array: its axes' memory order (a permuted C layout), as NumPy's
    keep = order == "K" and a.ndim > 1 and not (a._c_contig or a._f_contig)
    if order == "K" or order == "A":
        order = "F" if (a._f_contig and not a._c_contig) else "C"
    if order not in ("C", "F"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if _runtime.multi_device[0] and a._mem.device_id != _runtime._tls.device:
        return copy_from_device(a, order, dt)
    out = empty_array_keep(a.shape, dt, a) if keep else empty_array(a.shape, dt, order)
    if a.size:
        if _same_block(out, a):
            _transfer.d2d(out._ptr, a._ptr, out.nbytes)
        else:
            _copy_launch(a, out)
    return out


def copy_from_device(a, order="C", dtype=None, stream=None):
    """A copy on the current device of ``a``, which lives on another: laid out on its own
    device first when it is not one block already, then one peer copy (on ``stream``, default
    the current one), then the cast here."""
    src_dev, here = a._mem.device_id, _runtime._tls.device
    src = a
    if not ((order == "C" and a._c_contig) or (order == "F" and a._f_contig)):
        with _runtime.Device(src_dev):
            src = copy(a, order)
    out = empty_array(a.shape, a.dtype, order)
    stream = _runtime.current_stream_handle() if stream is None else _transfer._stream_handle(stream)
    with _runtime.Device(src_dev):
        src_stream = _runtime.current_stream_handle()
    _transfer.peer_copy(out._ptr, here, src._ptr, src_dev, out.nbytes, src_stream, stream)
    dt = a.dtype if dtype is None else check_dtype(dtype)
    return out if dt == out.dtype else copy(out, order, dt)


def int_scalar(value, dtype):
    """NumPy's integer (or bool) scalar of a Python int, with NumPy's OverflowError: past 64
    bits its message is stated here (NumPy's conversion words it by the path it took: one CI
    worker got CPython's "int too big to convert")."""
    if not -(1 << 63) <= value < 1 << 64:
        raise OverflowError("Python int too large to convert to C long")
    return dtype.type(value) if dtype.kind != "b" else dtype.type(np.int64(value))


def scalar_of(value, dtype):
    """A NumPy scalar of ``dtype`` from a Python/NumPy scalar (NumPy's assignment cast)."""
    arr = np.asarray(value)
    if arr.ndim != 0:
        raise ValueError("expected a scalar")
    if arr.dtype.kind == "c" and dtype.kind not in "cb":
        warn_complex(dtype)     # (into bool a complex value is tested whole: 1j is True)
        arr = arr.real
    if isinstance(value, int) and not isinstance(value, bool) and dtype.kind in "iub":
        # NumPy 2 raises OverflowError for out-of-range Python ints (into bool: past int64, the
        # integer NumPy converts them to first)
        return int_scalar(value, dtype)
    return arr.astype(dtype)[()]


def fill(a, value):
    if a._ro:
        fail_unless_writeable(a, "assignment destination")
    if isinstance(value, ndarray):
        copy_into(a, value)
        return
    if a.size == 0:
        return
    if _runtime.multi_device[0] and a._mem.device_id != _runtime._tls.device:
        with _runtime.Device(a._mem.device_id):      # the memset or kernel on a's device
            return fill(a, value)
    # ndarray.fill and setitem hand over a NumPy scalar of a's dtype already: no second cast
    v = value if value.__class__ is a.dtype.type else scalar_of(value, a.dtype)
    if a._c_contig or a._f_contig:
        # the driver's memset where the value's bytes repeat every 1, 2 or 4 bytes (zeros,
        # ones of the integer and 4-byte float types, ...): write-only at full bandwidth
        pattern = v.tobytes()
        u = _transfer.memset_unit(pattern, a._ptr, a.nbytes)
        if u:
            _transfer.memset(a._ptr, a.nbytes, pattern[:u])
            # counted as the fill kernel was: @fuse's check that a trace ran nothing but its
            # own steps (npgpu.fusion.program.Watch) counts device work by launches
            _stats["launches"] += 1
            return
    _ew.launch(IDENTITY, [v], [a.dtype], [a], [a.dtype], name="fill")


def getitem(a, index):
    r = _layout.basic_index(a.shape, a._strides, index)
    if r is None:
        return _ops["advanced_getitem"](a, index)
    offset, shape, strides = r
    return a._view(offset, shape, strides)


def warn_complex(dst_dtype):
    """NumPy's ComplexWarning for complex values assigned into an array of ``dst_dtype`` (the
    dtypes decide it: no device work; bool takes them silently, as in NumPy)."""
    if dst_dtype.kind not in "cb":
        import warnings

        from .._backend import _user_stacklevel
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=_user_stacklevel())


_SEQUENCE = "setting an array element with a sequence."


def _element_index(index, ndim):
    """Is ``index`` NumPy's element assignment: ``ndim`` integers, no slice, Ellipsis or None
    (a value with dimensions is then "setting an array element with a sequence")?"""
    items = index if isinstance(index, tuple) else (index,)
    return len(items) == ndim and all(isinstance(i, (int, np.integer))
                                      and not isinstance(i, (bool, np.bool_)) for i in items)


def _array_value_checks(dst, index, ndim, value_ndim, value_dtype, nested):
    """NumPy's errors for an array value of a basic-index assignment (not for scalars: the hot
    path), and its ComplexWarning: a value with dimensions into one element; a list nested
    deeper than the destination (``nested``: arrays drop leading unit dims instead)."""
    if value_ndim > dst.ndim:
        if dst.ndim == 0 and _element_index(index, ndim):
            raise ValueError(_SEQUENCE)
        if nested:
            raise ValueError(f"{_SEQUENCE} The requested array would exceed the maximum number "
                             f"of dimension of {dst.ndim}.")
    elif value_ndim and dst.ndim == 0 and _element_index(index, ndim):
        raise ValueError(_SEQUENCE)
    if value_dtype.kind == "c":
        warn_complex(dst.dtype)


def setitem(a, index, value):
    if a._ro:                      # before the index is looked at, as NumPy
        fail_unless_writeable(a, "assignment destination")
    r = _layout.basic_index(a.shape, a._strides, index)
    if r is None:
        # integer arrays, masks: npgpu.indexing.advanced, registered by npgpu/__init__
        _ops["advanced_setitem"](a, index, value)
        return
    offset, shape, strides = r
    dst = a._view(offset, shape, strides)
    if isinstance(value, ndarray):
        _array_value_checks(dst, index, a.ndim, value.ndim, value.dtype, False)
        copy_into(dst, value)
        return
    if isinstance(value, (np.ndarray, list, tuple, range)):   # range: a sequence, as NumPy's
        if getattr(value, "ndim", 1) and dst.ndim == 0 and _element_index(index, a.ndim):
            # NumPy converts the object with the dtype's own element setitem: its result
            # (bool([1, 0]) is True) or its error (int([1]): TypeError)
            tmp = np.empty(1, dst.dtype)
            tmp[0] = value
            fill(dst, tmp[0])
            return
        host = np.asarray(value)
        if host.dtype == object:
            raise TypeError(f"could not assign {type(value).__name__} to a device array")
        seq = not isinstance(value, np.ndarray)
        _array_value_checks(dst, index, a.ndim, host.ndim, dst.dtype if seq else host.dtype, seq)
        if seq:
            # NumPy converts a sequence's elements to the destination dtype: its OverflowError
            # for out-of-range Python ints, TypeError for complex into real (no ComplexWarning)
            host = np.asarray(value, dtype=dst.dtype)
        copy_into(dst, _transfer.from_host(host))
        return
    # a scalar: NumPy's own assignment into a 0-d host array gives NumPy's conversion and errors
    # (OverflowError for out-of-range Python ints, ValueError for NaN into an integer array)
    tmp = np.empty((), dst.dtype)
    tmp[()] = value
    fill(dst, tmp[()])


def set_from_host(arr, host, stream=None):
    """``arr.set(host)``: one host-to-device copy; a strided ``arr`` gets it through a copy kernel."""
    if arr._ro:
        fail_unless_writeable(arr, "assignment destination")
    host = np.asarray(host)
    if host.shape != arr.shape:
        raise ValueError(f"Shape mismatch. Old shape: {arr.shape}, new shape: {host.shape}")
    if host.dtype != arr.dtype:
        raise TypeError(f"dtype mismatch: array is {arr.dtype}, host data is {host.dtype}")
    if arr._c_contig:
        _transfer._h2d(arr._ptr, np.ascontiguousarray(host), arr.nbytes, stream)
    elif arr._f_contig:
        _transfer._h2d(arr._ptr, np.asfortranarray(host), arr.nbytes, stream)
    else:
        copy_into(arr, _transfer.from_host(host, stream=stream))
