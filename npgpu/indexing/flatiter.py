"""``ndarray.flat``: NumPy's flat iterator over an npgpu array, in C order.

Reading: an integer gives a 0-d device array (a copy: NumPy gives a scalar, which does not
change with the array); a slice, ``...`` or ``()`` a 1-d copy; an integer array (host or device,
any shape) a gather of that shape; a 1-d boolean array of the array's size a mask select; a
Python bool or 0-d boolean array (deprecated in NumPy 2.4) index 0 when True, nothing when False.
Writing (``a.flat[key] = v``, ``a.flat = v``): the selected flat positions, in order, take the
values of ``v`` flattened and repeated as needed (NumPy's rule); one scatter kernel into the
array itself when it is C-contiguous, else into a C-order copy that is copied back.  Indices
are checked on the device before anything is written (NumPy's flat-iterator messages).
Iteration yields 0-d device arrays, one small kernel each: use ``.copy()`` or ``get()`` for
bulk work.
"""
import operator
import warnings

import numpy as np

from .._core import copy as _copy
from .._core.ndarray import fail_unless_writeable, ndarray
from . import advanced as _adv

_BAD_KEY = ("only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays are "
            "valid indices")
_NO_BOOL = ("boolean indices for iterators are not supported because of previous behavior that "
            "was confusing (valid boolean indices are expected to work in the future)")


def _out_of_bounds(value, size, axis):
    return IndexError(f"index {value} is out of bounds for size {size}")


def _deprecated_key(what="Invalid non-array indices for iterator objects are deprecated and "
                    "will be removed in a future version."):
    warnings.warn(what + " (Deprecated NumPy 2.4)", DeprecationWarning, stacklevel=4)


def _bool0(key):
    """Is ``key`` a Python bool or a 0-d boolean array (NumPy 2.4 takes them, deprecated: True
    as index 0, False as no index)?  A NumPy bool scalar is an error."""
    if isinstance(key, np.bool_):
        raise IndexError(_NO_BOOL)
    return isinstance(key, bool) or (isinstance(key, (np.ndarray, ndarray)) and key.ndim == 0
                                     and key.dtype == np.bool_)


class flatiter:
    """``a.flat``: index, assign and iterate ``a`` as if it were 1-d (C order)."""

    __slots__ = ("_a", "_i")
    __module__ = "npgpu"

    def __init__(self, a):
        self._a = a
        self._i = 0

    @property
    def base(self):
        return self._a

    @property
    def index(self):
        return self._i

    @property
    def coords(self):
        # C-order coordinates of the next element; past the end the first one runs on (NumPy's)
        if not self._a.shape:
            return ()
        r, out = self._i, []
        for s in reversed(self._a.shape[1:]):
            r, c = divmod(r, s) if s else (r, 0)
            out.append(c)
        return (r,) + tuple(reversed(out))

    def __len__(self):
        return self._a.size

    def copy(self, /):
        return self._a.flatten()

    def __iter__(self):
        return self

    def __next__(self):
        if self._i >= self._a.size:
            raise StopIteration
        out = self._element(self._i)
        self._i += 1
        return out

    def __array__(self, dtype=None, /, *, copy=None):
        raise TypeError("Implicit conversion to a NumPy array is not allowed (it would copy device "
                        "memory to the host). Use .copy().get() explicitly.")

    # ---- keys ----------------------------------------------------------------------------------
    def _key(self, key):
        """("int", i) | ("all", None) | ("slice", s) | ("arr", device int array) |
        ("mask", device bool array), with NumPy's errors."""
        n = self._a.size
        if isinstance(key, tuple):
            if len(key) > 1:
                raise IndexError("too many indices for flat iterator: flat iterator is "
                                 f"1-dimensional, but {len(key)} were indexed")
            if not key:
                return "all", None
            key = key[0]
        if key is Ellipsis:
            return "all", None
        if isinstance(key, slice):
            return "slice", key
        if _bool0(key):
            _deprecated_key("Indexing flat iterators with a 0-dimensional boolean index is "
                            "deprecated and may be removed in a future version.")
            if bool(key):
                return "int", self._checked(0, n)
            from ..creation import asarray
            return "arr", asarray(np.zeros(0, np.intp))
        if key is None or isinstance(key, (str, bytes)):
            raise IndexError(_BAD_KEY)
        if isinstance(key, (int, np.integer)) or (isinstance(key, ndarray) and key.ndim == 0
                                                  and key.dtype.kind in "iu"):
            return "int", self._checked(operator.index(key), n)
        if isinstance(key, (float, np.floating)):
            _deprecated_key()
            return "int", self._checked(int(key), n)
        if isinstance(key, flatiter):
            # NumPy reads a flat iterator as the 1-d sequence it yields (cast to intp)
            key = key.copy()
            if key.dtype == np.bool_:
                raise IndexError(_NO_BOOL)
            if key.dtype.kind in "fc":
                if key.size:
                    _deprecated_key()
                key = key.astype(np.intp)
        if isinstance(key, ndarray):
            idx = key
        else:
            host = np.asarray(key)
            if host.dtype == np.bool_ and not isinstance(key, np.ndarray):
                raise IndexError(_NO_BOOL)
            if host.dtype.kind == "f" and not isinstance(key, np.ndarray):
                _deprecated_key()
                host = host.astype(np.intp)
            elif host.size == 0 and host.dtype.kind == "f":
                host = host.astype(np.intp)
            if host.dtype.kind not in "iub":
                raise IndexError("arrays used as indices must be of integer (or boolean) type")
            if host.ndim == 0 and host.dtype.kind in "iu":
                return "int", self._checked(int(host), n)
            from ..creation import asarray
            idx = asarray(host)
        if idx.dtype == np.bool_:
            if idx.ndim != 1:
                raise IndexError("too many indices for flat iterator: flat iterator is "
                                 f"1-dimensional, but {idx.ndim} were indexed")
            if idx.size != n:
                raise IndexError("boolean index did not match indexed flat iterator along axis 0;"
                                 f" size of axis is {n} but size of corresponding boolean axis "
                                 f"is {idx.size}")
            return "mask", idx
        if idx.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        return "arr", idx

    @staticmethod
    def _checked(i, n):
        if not -n <= i < n:
            raise _out_of_bounds(i, n, 0)
        return i + n if i < 0 else i

    def _element(self, i):
        a = self._a
        return a[tuple(int(c) for c in np.unravel_index(i, a.shape))].copy()

    # ---- reading -------------------------------------------------------------------------------
    def __getitem__(self, key):
        kind, k = self._key(key)
        a = self._a
        if kind == "int":
            return self._element(k)
        if kind == "all":
            return a.flatten()
        flat = a.ravel()
        if kind == "slice":
            out = flat[k]
            return out.copy() if out._mem is a._mem else out
        if kind == "mask":
            return flat[k]
        return _adv.gather(_adv._plan(flat, [("arr", k, 0)]), "raise", error=_out_of_bounds)

    # ---- writing -------------------------------------------------------------------------------
    def __setitem__(self, key, value):
        a = self._a
        if a._ro:
            fail_unless_writeable(a, "underlying array")
        if isinstance(key, tuple) and (not key or len(key) == 1 and key[0] is Ellipsis):
            raise IndexError("Assigning to a flat iterator with a 0-D index is not supported")
        kind, k = self._key(key)
        if kind == "int":
            if np.ndim(value) != 0 if not isinstance(value, ndarray) else value.ndim != 0:
                raise ValueError("Error setting single item of array.")
            a[tuple(int(c) for c in np.unravel_index(k, a.shape))] = value
            return
        from ..creation import arange
        if kind == "all":
            idx = arange(a.size, dtype=np.int64)
        elif kind == "slice":
            idx = arange(*k.indices(a.size), dtype=np.int64)
        elif kind == "mask":
            from .masks import nonzero
            idx = nonzero(k)[0]
        else:
            idx = k.reshape(-1)
        self._assign(idx, value)

    def _assign(self, idx, value):
        """``a.ravel()[idx] = v`` cycled to ``idx.size``, written through to ``a``."""
        from .routines import _cycled
        a = self._a
        val = _adv.value_for(a.dtype, value)
        if isinstance(val, ndarray):
            if val.size == 0 or idx.size == 0:
                return
            val = _cycled(val, idx.size)
        if idx.size == 0:
            return
        flat = a.reshape(-1) if a._c_contig else a.copy()
        _adv.scatter(_adv._plan(flat.reshape(-1), [("arr", idx, 0)]), val, "raise",
                     error=_out_of_bounds)
        if not a._c_contig:
            _copy.copy_into(a, flat)


def set_flat(a, value):
    """``a.flat = value``: every element, ``value`` repeated as needed."""
    if a._ro:
        fail_unless_writeable(a, "array")
    flatiter(a)[...] = value
