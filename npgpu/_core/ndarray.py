"""``npgpu.ndarray``: a light object over pooled device memory.

Not a wrapper around Numba's ``DeviceNDArray`` (~30 us to build one): an
array is a :class:`~npgpu.cuda.memory.Memory`, a data pointer, shape, byte
strides and dtype.  Kernels see arrays only through the launcher's raw
arguments.  Operators reach the ufuncs through ``_ops``, a registry the
package fills at import (``_core`` never imports ``ufuncs``).
"""
import builtins
import operator
import warnings

import numpy as np

from .. import _backend
from ..cuda import memory as _memory
from ..cuda import numba_interop as _numba_interop
from ..cuda import runtime as _runtime
from . import layout as _layout
from .dtypes import check_dtype
from .exchange_cache import MEMOS as _MEMOS
from .exchange_cache import forget as _forget_memos
from .exchange_cache import memo as _memo

_MEMOS["_numba_type_"] = _numba_interop.numba_type
_MEMOS["_strided_memory_view_shim"] = _numba_interop.memory_view_shim

_ops = {}          # name -> callable, filled by npgpu/__init__ (ufuncs, creation helpers)
_RESHAPES = {}     # (shape, strides, itemsize, requested shape, order) -> a view's (shape, strides)


# ``ndarray._ro``: NumPy's WRITEABLE and WARN_ON_WRITE flags in one small int. Writers test
# ``if a._ro:`` (one attribute load on the host) and call ``fail_unless_writeable`` only then.
WRITEABLE = 0
WARN_ON_WRITE = 1       # broadcast_arrays' views: writeable, but a write warns once (NumPy 2)
READONLY = 2            # broadcast_to, diagonal, views of read-only arrays, flags.writeable=False
READONLY_FOREIGN = 3    # imported read-only (CAI data[1], DLPack flag): can never become writeable

_WRITE_WARNING = ("Numpy has detected that you (may be) writing to an array with\n"
                  "overlapping memory from np.broadcast_arrays. If this is intentional\n"
                  "set the WRITEABLE flag True or make a copy immediately before writing.")


def fail_unless_writeable(a, what):
    """NumPy's check before writing into ``a``: ``ValueError("<what> is read-only")``, or for a
    view from ``broadcast_arrays`` a DeprecationWarning, once, after which the write goes ahead."""
    if a._ro != WARN_ON_WRITE:
        raise ValueError(f"{what} is read-only")
    a._ro = WRITEABLE
    warnings.warn(_WRITE_WARNING, DeprecationWarning, stacklevel=3)


def set_writeable(a, flag):
    """``a.flags.writeable = flag`` with NumPy's rule: a view may become writeable only while
    the array that owns its memory is writeable; an owner always may; an import that the
    producer marked read-only never may."""
    if not flag:
        if a._ro < READONLY:
            a._ro = READONLY
            _forget_memos(a)
        return
    base = a._base
    if a._ro == READONLY_FOREIGN or (base is not None and base._ro >= READONLY):
        raise ValueError("cannot set WRITEABLE flag to True of this array")
    if a._ro != WRITEABLE:
        a._ro = WRITEABLE
        _forget_memos(a)            # Numba's type of ``a`` has the writeable state in it


class Flags:
    """``ndarray.flags``: the layout flags as of the call; ``writeable`` reads and sets the array's."""

    __slots__ = ("_c", "_f", "_own", "_arr")

    def __init__(self, arr):
        self._c = arr._c_contig
        self._f = arr._f_contig
        self._own = arr._base is None
        self._arr = arr

    # read-only as NumPy's (AttributeError on assignment); ``writeable`` alone is set
    c_contiguous = property(lambda self: self._c)
    f_contiguous = property(lambda self: self._f)
    owndata = property(lambda self: self._own)

    @property
    def writeable(self):
        ro = self._arr._ro
        if ro == WARN_ON_WRITE:
            warnings.warn("future versions will not create a writeable array from "
                          "broadcast_array. Set the writable flag explicitly to avoid this "
                          "warning.", FutureWarning, stacklevel=2)
        return ro < READONLY

    @writeable.setter
    def writeable(self, flag):
        set_writeable(self._arr, flag)

    @property
    def aligned(self):
        """The data pointer is a multiple of the dtype's alignment (views at a field offset
        included), unless ``setflags(align=False)`` cleared the flag of this array."""
        a = self._arr
        return a._ptr % a.dtype.alignment == 0 and not getattr(a, "_unaligned", False)

    @aligned.setter
    def aligned(self, flag):
        self._arr.setflags(align=flag)

    @property
    def writebackifcopy(self):
        return False            # npgpu makes no write-back copies

    @writebackifcopy.setter
    def writebackifcopy(self, flag):
        self._arr.setflags(uic=flag)

    # NumPy's derived flags (aliases and combinations of the ones above)
    contiguous = property(lambda self: self.c_contiguous)
    fortran = property(lambda self: self.f_contiguous)
    forc = property(lambda self: self.c_contiguous or self.f_contiguous)
    fnc = property(lambda self: self.f_contiguous and not self.c_contiguous)
    behaved = property(lambda self: self.aligned and self._arr._ro < READONLY)
    carray = property(lambda self: self.c_contiguous and self.behaved)
    # NumPy's test is "any of F_CONTIGUOUS, ALIGNED, WRITEABLE, and not C_CONTIGUOUS"
    farray = property(lambda self: not self.c_contiguous and (
        self.f_contiguous or self.aligned or self._arr._ro < READONLY))

    _names = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
              "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
              "OWNDATA": "owndata", "O": "owndata", "WRITEABLE": "writeable", "W": "writeable",
              "ALIGNED": "aligned", "A": "aligned", "FNC": "fnc", "FORC": "forc",
              "BEHAVED": "behaved", "B": "behaved", "CARRAY": "carray", "CA": "carray",
              "FARRAY": "farray", "FA": "farray", "WRITEBACKIFCOPY": "writebackifcopy",
              "X": "writebackifcopy"}

    def _attr(self, name):
        # NumPy's keys are the upper-case names alone, as str or bytes
        if isinstance(name, bytes):
            name = name.decode("latin-1")
        attr = self._names.get(name) if isinstance(name, str) else None
        if attr is None:
            raise KeyError("Unknown flag")
        return attr

    def __getitem__(self, name):
        return getattr(self, self._attr(name))

    def __setitem__(self, name, value):
        attr = self._attr(name)
        if attr not in ("writeable", "aligned", "writebackifcopy"):
            raise KeyError("Unknown flag")
        setattr(self, attr, value)

    def _state(self):
        # the writeable state read directly: comparing flags must not warn
        return (self.c_contiguous, self.f_contiguous, self.owndata,
                self._arr._ro < READONLY, self.aligned)

    def __eq__(self, other):
        # NumPy's flagsobj compares every flag bit; other types: NotImplemented
        if not isinstance(other, Flags):
            return NotImplemented
        return self._state() == other._state()

    __hash__ = None

    def __repr__(self):
        w = self._arr._ro
        return "\n".join(
            f"  {k.upper()} : {w < READONLY if k == 'writeable' else getattr(self, k)}"
            + ("  (with WARN_ON_WRITE=True)" if k == "writeable" and w == WARN_ON_WRITE else "")
            for k in ("c_contiguous", "f_contiguous", "owndata", "writeable", "aligned",
                      "writebackifcopy")) + "\n"


class MemoryPointer:
    """``ndarray.data``: the device pointer of element 0 and the memory that owns it."""

    __slots__ = ("mem", "ptr")

    def __init__(self, mem, ptr):
        self.mem = mem
        self.ptr = ptr

    def __int__(self):
        return self.ptr

    def __repr__(self):
        return f"<npgpu MemoryPointer {self.ptr:#x} of {self.mem!r}>"


def _new(mem, ptr, shape, strides, dtype, base=None, contig=None, ro=WRITEABLE):
    """Fast internal constructor (no checks); ``contig``: (C, F) flags when the caller knows
    them (a cached layout), else computed; ``ro``: the writeable state (``_ro``)."""
    a = ndarray.__new__(ndarray)
    a._mem = mem
    a._ptr = ptr
    a._shape = shape
    a._strides = strides
    a._dtype = dtype
    a._base = base
    a._ro = ro
    if contig is None:
        isz = dtype.itemsize
        a._c_contig = _layout.is_c_contig(shape, strides, isz)
        a._f_contig = _layout.is_f_contig(shape, strides, isz)
    else:
        a._c_contig, a._f_contig = contig
    return a


def host_values(a):
    """``a``'s values for a NumPy function: an npgpu array read to the host (a deliberate
    transfer, made by the caller's host-side function: printing, files, assertions, Python
    iteration), anything else as given.  An F-ordered array stays F-ordered (``save`` writes
    NumPy's ``fortran_order`` file, as NumPy does for it)."""
    return a.get(order="K") if isinstance(a, ndarray) else a


_INTP_MAX = 2 ** 63 - 1
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe", "same_value")


def _check_nbytes(shape, isz):
    """NumPy's size check: the itemsize times the nonzero dimensions fits an intp (an empty
    array's other dimensions count too)."""
    n = isz
    for s in shape:
        n *= s or 1
    if n > _INTP_MAX:
        raise ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                         "maximum possible size.")


def empty_array(shape, dtype, order="C"):
    """Allocate an uninitialised array (shape normalised, dtype checked by the caller)."""
    isz = dtype.itemsize
    a = ndarray.__new__(ndarray)
    if len(shape) == 1:                      # the hot path: no layout arithmetic
        if shape[0] * isz > _INTP_MAX:
            _check_nbytes(shape, isz)
        mem = _memory.alloc(shape[0] * isz)
        a._strides = (isz,) if shape[0] else (0,)       # (NumPy 2.4: a new empty array's
        a._c_contig = a._f_contig = True                  # strides are all 0)
    else:
        n = 1
        for s in shape:
            n *= s
        if n == 0 or n * isz > _INTP_MAX:
            _check_nbytes(shape, isz)
        mem = _memory.alloc(n * isz)
        if n == 0:
            a._strides = (0,) * len(shape)
            a._c_contig = a._f_contig = True
        elif order != "F":
            a._strides = strides = _layout.c_strides(shape, isz)
            a._c_contig = True
            a._f_contig = _layout.is_f_contig(shape, strides, isz)
        else:
            a._strides = strides = _layout.f_strides(shape, isz)
            a._f_contig = True
            a._c_contig = _layout.is_c_contig(shape, strides, isz)
    a._mem = mem
    a._ptr = mem.ptr
    a._shape = shape
    a._dtype = dtype
    a._base = None
    a._ro = WRITEABLE
    return a


def empty_array_keep(shape, dtype, like):
    """An uninitialised array of ``shape`` (``like``'s length) owning its memory, its axes laid
    out in the memory order of ``like``'s: NumPy's order 'K' (decreasing |stride|, ties in axis
    order, as NumPy's sorted stride permutation)."""
    perm = like._memory_order()
    t = empty_array(tuple(shape[p] for p in perm), dtype, "C")
    strides = [0] * len(perm)
    for i, p in enumerate(perm):
        strides[p] = t._strides[i]
    return _new(t._mem, t._ptr, tuple(shape), tuple(strides), dtype)


def _buffer_memory(buffer, shape, dtype, offset, strides):
    """(memory, pointer, offset) of NumPy's ``ndarray(buffer=, offset=)``."""
    if not isinstance(buffer, ndarray):
        raise TypeError("buffer must be an npgpu array (device memory), not "
                        f"{type(buffer).__name__}")
    if not (buffer._c_contig or buffer._f_contig):
        raise ValueError("ndarray is not contiguous")
    offset = operator.index(offset)
    nbytes = buffer.nbytes
    if offset < 0:          # (NumPy reads before the buffer then)
        raise ValueError("offset must be non-negative")
    if strides is None and offset + dtype.itemsize * _layout.prod(shape) > nbytes:
        raise TypeError("buffer is too small for requested array")
    return buffer._mem, buffer._ptr + offset, offset


def _extent(shape, strides, ptr, itemsize):
    """(lowest byte address, byte count) of the elements a layout reaches (none: ``ptr``, 0)."""
    lo = hi = 0
    for n, s in zip(shape, strides):
        if n == 0:
            return ptr, 0
        if s > 0:
            hi += s * (n - 1)
        else:
            lo += s * (n - 1)
    return ptr + lo, hi - lo + itemsize


def _strides_fit(shape, strides, itemsize, nbytes, offset):
    """NumPy's PyArray_CheckStrides: the bytes the strides reach from byte ``offset`` lie in
    the ``nbytes`` of the memory."""
    start, count = _extent(shape, strides, offset, itemsize)
    return count == 0 or (start >= 0 and start + count <= nbytes)


class ndarray:
    """An N-dimensional array in GPU memory, with NumPy's semantics."""

    # _xc: exchange_cache.py (unset until used); _numba_type_, _strided_memory_view_shim:
    # Numba's launcher's reads, made on the first (``__getattr__`` below); _unaligned: set by
    # ``setflags(align=False)`` alone
    __slots__ = ("_mem", "_ptr", "_shape", "_strides", "_dtype", "_base", "_c_contig", "_f_contig",
                 "_ro", "_xc", "__weakref__", "_numba_type_", "_strided_memory_view_shim",
                 "_unaligned")
    __array_priority__ = 100
    __module__ = "npgpu"           # the public name, as NumPy's TypeErrors print it: npgpu.ndarray

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order="C", *,
                 buffer=None, offset=0):
        """CuPy's ``memptr`` (raw device memory, unchecked) or NumPy's ``buffer`` (a C- or
        F-contiguous npgpu array, viewed from byte ``offset``; the strides must stay in it)."""
        shape = _layout.normalize_shape(shape)
        dtype = check_dtype(dtype)
        base, given = None, strides is not None
        if buffer is not None:
            mem, ptr, offset = _buffer_memory(buffer, shape, dtype, offset, strides)
            base, nbytes = buffer, buffer.nbytes
        elif memptr is None:
            b = empty_array(shape, dtype, order)
            mem, ptr, nbytes, offset = b._mem, b._ptr, b.nbytes, 0
        else:
            mem, ptr = (memptr.mem, memptr.ptr) if isinstance(memptr, MemoryPointer) else (memptr, memptr.ptr)
        if strides is None:
            strides = (_layout.c_strides if order != "F" else _layout.f_strides)(shape, dtype.itemsize)
        else:
            # NumPy's converter: one integer or a sequence of them
            strides = tuple(operator.index(s) for s in (
                (strides,) if isinstance(strides, (int, np.integer)) else strides))
            if len(strides) != len(shape):
                raise ValueError("strides, if given, must be the same length as shape")
            if memptr is None and not _strides_fit(shape, strides, dtype.itemsize, nbytes,
                                                   offset):
                # NumPy's check: every element within the allocation or the buffer
                raise ValueError("strides is incompatible with shape of requested array and "
                                 "size of buffer")
        if buffer is not None:      # (a fresh allocation checked its size)
            _check_nbytes(shape, dtype.itemsize)
        if given or buffer is not None:
            _layout.check_aligned(ptr, shape, strides, dtype, "an array with these strides")
        self._mem = mem
        self._ptr = ptr
        self._shape = shape
        self._strides = tuple(strides)
        self._dtype = dtype
        self._base = base
        self._ro = WRITEABLE if base is None else base._ro
        self._c_contig = _layout.is_c_contig(shape, self._strides, dtype.itemsize)
        self._f_contig = _layout.is_f_contig(shape, self._strides, dtype.itemsize)

    # ---- attributes --------------------------------------------------------------------------
    def _set_shape(self, shape):
        """``a.shape = s``: NumPy's in-place reshape, a view of the same memory or an error."""
        if shape is None:
            raise TypeError("Use () not None as shape arguments")
        try:
            shape = tuple(operator.index(n) for n in (
                shape if isinstance(shape, (tuple, list)) else (shape,)))
        except TypeError as e:
            raise TypeError(str(e)) from None
        newshape = _layout.resolve_newshape(shape, self.size)
        strides = _layout.reshape_strides(self._shape, self._strides, self.itemsize, newshape,
                                          "C")
        if strides is None:
            raise AttributeError("Incompatible shape for in-place modification. Use "
                                 "`.reshape()` to make a copy with the desired shape.")
        self._shape, self._strides = newshape, strides
        isz = self.itemsize
        self._c_contig = _layout.is_c_contig(newshape, strides, isz)
        self._f_contig = _layout.is_f_contig(newshape, strides, isz)
        _forget_memos(self)                     # Numba's view of the old layout

    def _set_dtype(self, dtype):
        """``a.dtype = t``: NumPy's in-place ``view(t)`` (its checks and errors)."""
        try:
            dtype = np.dtype(dtype)
        except TypeError:
            raise TypeError("invalid data-type for array") from None
        v = self.view(dtype)
        self._shape, self._strides, self._dtype = v._shape, v._strides, v._dtype
        self._c_contig, self._f_contig = v._c_contig, v._f_contig
        _forget_memos(self)

    def _set_strides(self, strides):
        """``a.strides = s``: NumPy 2.4's deprecated in-place restride, with its checks (every
        element within the memory of the array's owner, and aligned)."""
        warnings.warn("Setting the strides on a NumPy array has been deprecated in NumPy 2.4.\n"
                      "As an alternative, you can create a new view using "
                      "np.lib.stride_tricks.as_strided.", DeprecationWarning, stacklevel=2)
        try:
            strides = tuple(operator.index(s) for s in (
                (strides,) if isinstance(strides, (int, np.integer)) else strides))
        except TypeError:
            raise TypeError("invalid strides") from None
        if len(strides) != len(self._shape):
            raise ValueError(f"strides must be  same length as shape ({len(self._shape)})")
        owner = self
        while isinstance(owner._base, ndarray):
            owner = owner._base
        if owner._base is None:         # npgpu's own allocation: its bytes
            start, nbytes = owner._ptr, owner.nbytes
        else:                           # another library's memory: the bytes this array reaches
            start, nbytes = _extent(self._shape, self._strides, self._ptr, self.itemsize)
        if not _strides_fit(self._shape, strides, self.itemsize, nbytes, self._ptr - start):
            raise ValueError("strides is not compatible with available memory")
        _layout.check_aligned(self._ptr, self._shape, strides, self._dtype,
                              "an array with these strides")
        isz = self.itemsize
        self._strides = strides
        self._c_contig = _layout.is_c_contig(self._shape, strides, isz)
        self._f_contig = _layout.is_f_contig(self._shape, strides, isz)
        _forget_memos(self)

    # the slots read by C getters (a Python property would cost every read ~30 ns more; the
    # hot paths read _shape and _dtype)
    shape = property(operator.attrgetter("_shape"), _set_shape)
    dtype = property(operator.attrgetter("_dtype"), _set_dtype)
    strides = property(operator.attrgetter("_strides"), _set_strides)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def base(self):
        return self._base

    @property
    def flags(self):
        return Flags(self)

    def setflags(self, write=None, align=None, uic=None):
        if uic:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
        if align is not None:
            # device memory is always aligned: the flag is NumPy's record of the request (its
            # views and copies are aligned again, as NumPy's)
            if align:
                if hasattr(self, "_unaligned"):
                    del self._unaligned
            else:
                self._unaligned = True
        if write is not None:
            set_writeable(self, write)

    @property
    def data(self):
        return MemoryPointer(self._mem, self._ptr)

    @property
    def device(self):
        return _runtime.Device(self._mem.device_id)

    @property
    def T(self):
        # the axes reversed: the shape and strides reversed, the C and F flags swapped
        return _new(self._mem, self._ptr, self.shape[::-1], self._strides[::-1], self.dtype,
                    self._root(), (self._f_contig, self._c_contig), self._ro)

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        return self.swapaxes(-1, -2)

    @property
    def real(self):
        if self.dtype.kind != "c":
            return self
        ft = np.dtype(f"f{self.itemsize // 2}")
        return _new(self._mem, self._ptr, self.shape, self._strides, ft, self._root(), None, self._ro)

    @real.setter
    def real(self, value):
        # NumPy: ``a.real = v`` assigns through the view (``a[...] = v`` for a real array)
        self.real[...] = value

    @property
    def imag(self):
        if self.dtype.kind != "c":
            out = _ops["zeros"](self.shape, self.dtype)
            out._ro = READONLY          # NumPy: the imaginary part of a real array is read-only
            return out
        ft = np.dtype(f"f{self.itemsize // 2}")
        return _new(self._mem, self._ptr + ft.itemsize, self.shape, self._strides, ft, self._root(),
                    None, self._ro)

    @imag.setter
    def imag(self, value):
        if self.dtype.kind != "c":
            raise TypeError("array does not have imaginary part to set")
        self.imag[...] = value

    def _root(self):
        return self._base if self._base is not None else self

    def _view(self, offset, shape, strides, dtype=None):
        # a view writes no better than its array (read-only stays, broadcast_arrays' warning too)
        return _new(self._mem, self._ptr + offset, shape, strides, dtype or self._dtype, self._root(),
                    None, self._ro)

    # ---- views -----------------------------------------------------------------------------------
    def view(self, dtype=None, type=None):
        if dtype is None:
            return self._view(0, self.shape, self._strides)
        if isinstance(dtype, builtins.type) and issubclass(dtype, ndarray):
            return self._view(0, self.shape, self._strides)
        dt = check_dtype(dtype)
        if dt.itemsize == self.itemsize:
            if dt.alignment > self._dtype.alignment:
                _layout.check_aligned(self._ptr, self.shape, self._strides, dt, "this view")
            return self._view(0, self.shape, self._strides, dt)
        if self.ndim == 0:
            raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
        if self._strides[-1] != self.itemsize and self.shape[-1] != 1:
            raise ValueError("To change to a dtype of a different size, the last axis must be contiguous")
        last = self.shape[-1] * self.itemsize
        if last % dt.itemsize:
            raise ValueError("When changing to a larger dtype, its size must be a divisor of the total "
                             "size in bytes of the last axis of the array.")
        shape = self.shape[:-1] + (last // dt.itemsize,)
        strides = self._strides[:-1] + (dt.itemsize,)
        _layout.check_aligned(self._ptr, shape, strides, dt, "this view")
        return self._view(0, shape, strides, dt)

    def reshape(self, *shape, order="C", copy=None):
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
            shape = shape[0]
        key = None
        if copy is None and (shape.__class__ is int or shape.__class__ is tuple
                             and all(n.__class__ is int for n in shape)):
            # a view's layout depends on the layout, the request and the order alone: repeats
            # (library code reshapes on every call) skip the two layout passes (~2 of 3 us).
            # Python ints only: (6.0,) is the key (6,) but NumPy's TypeError
            key = (self.shape, self._strides, self.itemsize, shape, order)
            try:
                hit = _RESHAPES.get(key)
            except TypeError:       # an unhashable order: the full path gives NumPy's error
                hit = key = None
            if hit is not None:
                return self._view(0, *hit)
        if order not in ("C", "F", "A"):
            # NumPy's order converter: None is C, case-insensitive, K refused for reshape
            order = "C" if order is None else _layout.check_order(order)
            if order == "K":
                raise ValueError("order 'K' is not permitted for reshaping")
        if order == "A":
            order = "F" if self._f_contig and not self._c_contig else "C"
        newshape = _layout.resolve_newshape(shape, self.size)
        copy = _layout.check_copy(copy)
        if copy:
            return self.copy(order=order).reshape(newshape, order=order)
        strides = _layout.reshape_strides(self.shape, self._strides, self.itemsize, newshape, order)
        if strides is not None:
            if key is not None:
                if len(_RESHAPES) > 4096:
                    _RESHAPES.clear()
                _RESHAPES[key] = (newshape, strides)
            return self._view(0, newshape, strides)
        if copy is False:
            raise ValueError("Unable to avoid creating a copy while reshaping.")
        return self.copy(order=order).reshape(newshape, order=order)

    def _memory_order(self):
        """Axes by decreasing |stride| (NumPy's order 'K')."""
        return sorted(range(self.ndim), key=lambda d: -abs(self._strides[d]))

    def ravel(self, order="C"):
        # NumPy's rule: a view only for a contiguous array (in the order asked, or for 'K' in
        # memory order with positive strides); otherwise a copy, even where reshape could view
        if order not in ("C", "F", "A", "K"):
            order = "C" if order is None else _layout.check_order(order)   # NumPy's converter
        if order == "A":
            order = "F" if self._f_contig and not self._c_contig else "C"
        elif order == "K":
            order = "C" if self._c_contig else "F" if self._f_contig else "K"
        if order == "C" and self._c_contig or order == "F" and self._f_contig:
            return self.reshape(-1, order=order)
        if order == "K":
            acc = self.itemsize
            for d in reversed(self._memory_order()):
                if self.shape[d] != 1:
                    if self._strides[d] != acc:
                        break
                    acc *= self.shape[d]
            else:
                return self._view(0, (self.size,), (self.itemsize,))
        elif order not in ("C", "F"):
            raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
        return self.flatten(order)

    def flatten(self, order="C"):
        # a new array that owns its memory (NumPy: flatten always copies, base None)
        if order not in ("C", "F", "A", "K"):
            order = "C" if order is None else _layout.check_order(order)   # NumPy's converter
        if order == "A":
            order = "F" if self._f_contig and not self._c_contig else "C"
        if order == "K":
            return self.transpose(self._memory_order()).flatten("C")
        if order not in ("C", "F"):
            raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
        out = empty_array((self.size,), self.dtype)
        _ops["setitem"](out.reshape(self.shape, order=order), Ellipsis, self)
        return out

    def transpose(self, *axes):
        if not axes or (len(axes) == 1 and axes[0] is None):
            return self.T
        elif len(axes) == 1 and not isinstance(axes[0], (int, np.integer)):
            axes = tuple(axes[0])
        if len(axes) != self.ndim:
            raise ValueError("axes don't match array")
        axes = tuple(_layout.normalize_axis(a, self.ndim) for a in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis in transpose")
        return self._view(0, tuple(self.shape[a] for a in axes), tuple(self._strides[a] for a in axes))

    def swapaxes(self, axis1, axis2):
        a1 = _layout.normalize_axis(axis1, self.ndim, "axis1")
        a2 = _layout.normalize_axis(axis2, self.ndim, "axis2")
        axes = list(range(self.ndim))
        axes[a1], axes[a2] = axes[a2], axes[a1]
        return self.transpose(axes)

    def squeeze(self, axis=None):
        if axis is None:
            keep = [i for i, n in enumerate(self.shape) if n != 1]
        elif self.ndim == 0 and isinstance(axis, (int, np.integer)) and axis in (0, -1):
            keep = []           # NumPy lets an int axis 0 / -1 through for 0-d arrays
        else:
            axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
            axes = [_layout.normalize_axis(a, self.ndim) for a in axes]
            if len(set(axes)) < len(axes):
                raise ValueError("duplicate value in 'axis'")       # NumPy's check
            for a in axes:
                if self.shape[a] != 1:
                    raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
            keep = [i for i in range(self.ndim) if i not in axes]
        return self._view(0, tuple(self.shape[i] for i in keep), tuple(self._strides[i] for i in keep))

    # ---- copies and casts ------------------------------------------------------------------------
    def copy(self, order="C"):
        return _ops["copy"](self, order=order)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        o = _layout.check_order(order)
        if isinstance(copy, np._CopyMode):
            raise ValueError("_CopyMode enum is not allowed for astype function. Use true/false "
                             "instead.")
        dt = check_dtype(dtype)
        # NumPy 2.4's 'same_value': any cast, then a ValueError where a value changed
        same_value = casting == "same_value"
        if type(casting) is str and casting not in _CASTINGS:   # (others: can_cast's errors)
            raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                             f"'unsafe', 'same_value' (got {casting!r})")
        if not same_value and not np.can_cast(self.dtype, dt, casting=casting):
            raise TypeError(f"Cannot cast array data from {self.dtype!r} to {dt!r} according to the "
                            f"rule '{casting}'")
        if not copy and dt == self.dtype and (
                o in (None, "K") or (o == "C" and self._c_contig) or (o == "F" and self._f_contig)
                or (o == "A" and (self._c_contig or self._f_contig))):
            return self     # NumPy's: no copy only where the layout already meets ``order``
        if self.dtype.kind == "c" and dt.kind not in "cb" and _backend._user_stacklevel() == 2:
            # NumPy's ComplexWarning, for a call from the user's code (npgpu's own complex-to-
            # real casts drop the imaginary part on purpose)
            warnings.warn("Casting complex values to real discards the imaginary part",
                          np.exceptions.ComplexWarning, stacklevel=2)
        # (order K as A: a C- or F-contiguous result, which npgpu's own callers of astype take
        # for granted; copy(order='K') keeps a permuted layout as NumPy's)
        out = _ops["copy"](self, order="A" if o in (None, "K") else o, dtype=dt)
        if same_value:
            _ops["check_same_value"](self, out)
        return out

    def fill(self, value):
        if not isinstance(value, ndarray) and not self._ro:
            # NumPy's conversion and errors of ``ndarray.fill`` (e.g. OverflowError for 2.0**40
            # into int8, TypeError for a complex into a real array), which np.full does not make
            tmp = np.empty((), self.dtype)
            tmp.fill(value)
            value = tmp[()]
        _ops["fill"](self, value)

    # ---- flat, fields, in-place resize (npgpu.indexing.flatiter, npgpu._core.fields) --------
    @property
    def flat(self):
        return _ops["flatiter"](self)

    @flat.setter
    def flat(self, value):
        _ops["set_flat"](self, value)

    def getfield(self, dtype, offset=0):
        return _ops["getfield"](self, dtype, offset)

    def setfield(self, val, dtype, offset=0):
        _ops["setfield"](self, val, dtype, offset)

    def resize(self, *new_shape, refcheck=True):
        _ops["resize_inplace"](self, new_shape, refcheck)
        _forget_memos(self)         # new shape and strides, maybe new memory, in place

    # ---- indexing routines (npgpu.indexing) ------------------------------------------------------
    def nonzero(self):
        return _ops["nonzero"](self)

    def compress(self, condition, axis=None, out=None):
        return _ops["compress"](condition, self, axis, out)

    def repeat(self, repeats, axis=None):
        return _ops["repeat"](self, repeats, axis)

    def take(self, indices, axis=None, out=None, mode="raise"):
        return _ops["take"](self, indices, axis=axis, out=out, mode=mode)

    def put(self, indices, values, mode="raise"):
        _ops["put"](self, indices, values, mode=mode)

    def choose(self, *choices, out=None, mode="raise"):
        # NumPy's: several positional arguments are the choices themselves
        if len(choices) != 1:
            if not choices:
                raise TypeError("choose() takes exactly 1 argument (0 given)")
            return _ops["choose"](self, choices, out=out, mode=mode)
        return _ops["choose"](self, choices[0], out=out, mode=mode)

    # ---- sorting (npgpu.sorting, issue 14) ----------------------------------------------------
    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        _ops["sort_inplace"](self, axis, kind, order, stable=stable)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        return _ops["argsort"](self, axis, kind, order, stable=stable)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        _ops["partition_inplace"](self, kth, axis, kind, order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        return _ops["argpartition"](self, kth, axis, kind, order)

    def searchsorted(self, v, side="left", sorter=None):
        return _ops["searchsorted"](self, v, side, sorter)

    # ---- elementwise methods (the ufunc layer, through _ops) ---------------------------------
    def clip(self, min=None, max=None, out=None, **kwargs):
        return _ops["clip"](self, min, max, out=out, **kwargs)

    def conj(self, out=None):
        if self.dtype.kind == "c":
            return _ops["conjugate"](self, out=out)
        # NumPy's: a real array is its own conjugate, self (not a copy) or copied into out
        if out is None:
            return self
        _ops["copyto"](out, self, casting="same_kind")
        return out

    conjugate = conj

    def round(self, decimals=0, out=None):
        return _ops["round"](self, decimals, out)

    def __contains__(self, value):
        # NumPy's rule: (self == value).any(); one bool comes back to the host
        return bool(_ops["any"](self == value))

    def get(self, stream=None, order="C", out=None):
        """Copy to the host as a NumPy array."""
        return _ops["asnumpy"](self, stream=stream, order=order, out=out)

    def set(self, arr, stream=None):
        """Copy a host array of the same shape into this array."""
        _ops["set_from_host"](self, arr, stream)

    # ---- scalars and Python protocol -------------------------------------------------------------
    def item(self, *args):
        if len(args) == 1 and not isinstance(args[0], tuple):
            # one integer: a flat (C-order) index, as NumPy
            i = operator.index(args[0])
            if not -self.size <= i < self.size:
                if self.ndim == 1:       # NumPy's messages: 1-d names the axis
                    raise IndexError(f"index {i} is out of bounds for axis 0 with size {self.size}")
                raise IndexError(f"index {i} is out of bounds for size {self.size}")
            args = tuple(int(x) for x in np.unravel_index(i % self.size, self.shape))
        elif len(args) == 1:
            args = args[0]
        if args and len(args) != self.ndim:
            raise ValueError("incorrect number of indices for array")
        if args:
            return self[tuple(args)].item()
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self.get().item()

    def tofile(self, fid, sep="", format="%s"):
        """``numpy.ndarray.tofile`` of the values (read to the host: files are host-side)."""
        self.get().tofile(fid, sep=sep, format=format)

    def tolist(self):
        return self.get().tolist()

    def tobytes(self, order="C"):
        # bytes are host memory: asking for them is an explicit device-to-host copy
        return self.get().tobytes(order)

    def byteswap(self, inplace=False):
        return _ops["byteswap"](self, inplace)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:      # raised by iter() itself, as NumPy's (not at the first next())
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def _scalar(self, what):
        if what is bool:
            if self.size == 0:
                raise ValueError("The truth value of an empty array is ambiguous. Use "
                                 "`array.size > 0` to check that an array is not empty.")
            if self.size != 1:
                raise ValueError("The truth value of an array with more than one element is "
                                 "ambiguous. Use a.any() or a.all()")
        elif self.ndim != 0:
            # NumPy 2.4 ended the deprecation of int()/float() of 1-element arrays
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return self.get().reshape(()).item()

    def __bool__(self):
        return bool(self._scalar(bool))

    def __int__(self):
        return int(self._scalar(int))

    def __float__(self):
        return float(self._scalar(float))

    def __complex__(self):
        return complex(self._scalar(complex))

    def __index__(self):
        if self.ndim != 0 or self.dtype.kind not in "iu":
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return operator.index(self.get().item())

    def __repr__(self):
        return repr(self.get())

    def __str__(self):
        return str(self.get())

    def __format__(self, spec):
        return format(self.get(), spec)

    def __array__(self, dtype=None, copy=None):
        raise TypeError("Implicit conversion to a NumPy array is not allowed (it would copy device "
                        "memory to the host). Use .get() or npgpu.asnumpy() explicitly.")

    # ---- interoperability ---------------------------------------------------------------------------
    @property
    def __cuda_array_interface__(self):
        return _ops["cuda_array_interface"](self)

    # Numba kernels: typed and passed like Numba's own device arrays (npgpu/cuda/numba_interop.py)
    __cuda_memory__ = True

    # read from C on every launch (the type twice, the view once): slots made on the first
    # read, as Numba caches its own arrays' (exchange_cache.memo); only an unset slot or an
    # unknown name reaches __getattr__
    __getattr__ = _memo
    # an npgpu array is never a @npgpu.fuse trace: the ufuncs' and where's per-argument probe
    # finds this in C (a miss would reach __getattr__ above, ~0.9 us a probe)
    _fuse_trace = None

    @property
    def device_ctypes_pointer(self):
        return _numba_interop.device_ctypes_pointer(self)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return _ops["to_dlpack"](self, stream=stream, max_version=max_version,
                                 dl_device=dl_device, copy=copy)

    def __dlpack_device__(self):
        return _ops["dlpack_device"](self)

    def __array_namespace__(self, /, *, api_version=None):
        """The Array API namespace of npgpu arrays: the ``npgpu`` module itself."""
        return _ops["array_namespace"](api_version)

    def to_device(self, device, /, *, stream=None):
        """This array on ``device`` (an ``npgpu.cuda.Device`` or ordinal): itself when it is
        already there, else a copy."""
        return _ops["to_device"](self, device, stream)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _ops["array_ufunc"](ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        return _ops["array_function"](func, types, args, kwargs)

    # ---- indexing ----------------------------------------------------------------------------------
    def __getitem__(self, index):
        return _ops["getitem"](self, index)

    def __setitem__(self, index, value):
        _ops["setitem"](self, index, value)

    # ---- operators (routed to ufuncs) -------------------------------------------------------------
    def __neg__(self):
        return _ops["negative"](self)

    def __pos__(self):
        return _ops["positive"](self)

    def __abs__(self):
        return _ops["absolute"](self)

    def __invert__(self):
        return _ops["invert"](self)

    def __matmul__(self, other):
        if _defers(other):
            return NotImplemented
        return _ops["matmul"](self, other)

    def __rmatmul__(self, other):
        if _defers(other):
            return NotImplemented
        return _ops["matmul"](other, self)

    def __imatmul__(self, other):
        if _defers(other, True):
            return NotImplemented
        # NumPy passes matmul axes= that keep the result from broadcasting into self: a 1-d
        # second operand is its error (0-d operands: matmul's own)
        other = other if isinstance(other, ndarray) else _ops["asarray"](other)
        if self.ndim and other.ndim == 1:
            raise ValueError("inplace matrix multiplication requires the first operand to have "
                             "at least one and the second at least two dimensions.")
        return _ops["matmul"](self, other, out=self)

    def __divmod__(self, other):
        if _defers(other):
            return NotImplemented
        return _ops["divmod"](self, other)

    def __rdivmod__(self, other):
        if _defers(other):
            return NotImplemented
        return _ops["divmod"](other, self)

    def __copy__(self):
        return self.copy(order="K")             # NumPy keeps the layout (an F array stays F)

    def __deepcopy__(self, memo):
        return self.copy(order="K")

    def __reduce__(self):
        # pickles the values (a host copy); unpickling puts them on the current device
        return (_ops["asarray"], (self.get(),))

    def dumps(self):
        """``numpy.ndarray.dumps``: the pickle of the array (its values read to the host)."""
        import pickle
        return pickle.dumps(self, protocol=2)

    def dump(self, file):
        """``numpy.ndarray.dump``: the pickle written to ``file`` (a path or a binary file)."""
        import os
        import pickle
        if isinstance(file, (str, bytes, os.PathLike)):
            with open(file, "wb") as f:
                pickle.dump(self, f, protocol=2)
        else:
            pickle.dump(self, file, protocol=2)

    __hash__ = None


_PLAIN = frozenset((int, float, complex, bool))


def _defers(other, inplace=False):
    """NumPy's rule for binary operators: the other operand gets the operation (its reflected
    method runs) when its class sets ``__array_ufunc__ = None`` (a LinearOperator; not for
    in-place operators, whose ufunc then raises), or has no ``__array_ufunc__`` and a higher
    ``__array_priority__`` (a sparse matrix)."""
    t = other.__class__
    if t is ndarray or t in _PLAIN:
        return False
    au = getattr(t, "__array_ufunc__", 0)
    if au is None:
        return not inplace
    if au != 0 or isinstance(other, (ndarray, np.generic)):
        return False
    try:
        prio = getattr(other, "__array_priority__", 0.0)
    except Exception:       # NumPy: a failing lookup is the default priority
        return False
    # NumPy reads it as a C double (PyFloat_AsDouble): ints, bools and NumPy scalars count,
    # strings do not
    if type(prio) is float:
        return prio > 0.0
    if not (hasattr(type(prio), "__float__") or hasattr(type(prio), "__index__")):
        return False
    try:
        return float(prio) > 0.0
    except (TypeError, ValueError, OverflowError):
        return False


def _binop(name):
    def fwd(self, other):
        if _defers(other):
            return NotImplemented
        return _ops[name](self, other)

    def rev(self, other):
        if _defers(other):
            return NotImplemented
        return _ops[name](other, self)

    def inplace(self, other):
        if _defers(other, True):
            return NotImplemented
        return _ops[name](self, other, out=self)

    return fwd, rev, inplace


for _py, _uf in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
                 ("floordiv", "floor_divide"), ("mod", "remainder"), ("pow", "power"),
                 ("and", "bitwise_and"), ("or", "bitwise_or"), ("xor", "bitwise_xor"),
                 ("lshift", "left_shift"), ("rshift", "right_shift")):
    _f, _r, _i = _binop(_uf)
    setattr(ndarray, f"__{_py}__", _f)
    setattr(ndarray, f"__r{_py}__", _r)
    setattr(ndarray, f"__i{_py}__", _i)


def _incomparable(other):
    """The shape of ``other`` where ``==``/``!=`` with it compare no element (NumPy: None and
    objects like it meet its object loop, strings and bytes no loop: every element differs);
    None where the error stands."""
    if other is None or isinstance(other, (str, bytes)):
        return ()
    if isinstance(other, (list, tuple)):
        try:
            h = np.asarray(other)
        except (TypeError, ValueError):
            return None
        if h.dtype.kind in "SU" or (h.dtype.kind == "O" and all(
                v is None or isinstance(v, (str, bytes)) for v in h.ravel().tolist())):
            return h.shape
    return None


def _equality(name, fill):
    """``==`` (``fill`` False) / ``!=`` (True): the ufunc, or NumPy's answer for an operand no
    element can equal (an array of ``fill`` of the broadcast shape)."""
    fwd = _binop(name)[0]

    def cmp(self, other):
        try:
            return fwd(self, other)
        except TypeError:
            shape = _incomparable(other)
            if shape is None:
                raise
        try:
            shape = np.broadcast_shapes(self.shape, shape)
        except ValueError:
            raise ValueError("operands could not be broadcast together with shapes "
                             f"{_layout.c_shape_text(self.shape)} "
                             f"{_layout.c_shape_text(shape)} ") from None
        out = empty_array(shape, np.dtype(np.bool_))
        _ops["fill"](out, fill)
        return out
    return cmp


for _py, _uf in (("lt", "less"), ("le", "less_equal"), ("gt", "greater"), ("ge", "greater_equal")):
    setattr(ndarray, f"__{_py}__", _binop(_uf)[0])
ndarray.__eq__ = _equality("equal", False)
ndarray.__ne__ = _equality("not_equal", True)



def _fast_power(name):
    """NumPy's ``ndarray.__pow__``/``__ipow__`` shortcut for a Python scalar exponent: 2 is
    ``square`` (so bool ** 2 is int8), -1 of a float or complex array is ``reciprocal``
    (``(inf+0j) ** -1`` is 0 there, not NaN) and 0.5 of one is ``sqrt`` (``-inf ** 0.5`` is NaN
    there, not inf); anything else is ``power``."""
    def pw(self, other, *out):
        if _defers(other, bool(out)):
            return NotImplemented
        if type(other) is int and other == 2:
            return _ops["square"](self, *out)
        if type(other) is int and other == -1 and self.dtype.kind in "fc":
            return _ops["reciprocal"](self, *out)
        if type(other) is float and other == 0.5 and self.dtype.kind in "fc":
            return _ops["sqrt"](self, *out)
        return _ops["power"](self, other, *out)

    if name == "__pow__":
        return lambda self, other: pw(self, other)
    return lambda self, other: pw(self, other, self)


ndarray.__pow__ = _fast_power("__pow__")
ndarray.__ipow__ = _fast_power("__ipow__")

del _py, _uf, _f, _r, _i
