"""Array creation: empty/zeros/ones/full (and _like), asarray/array, contiguous copies."""
import operator

import numpy as np

from . import _array_api as _api
from . import _like
from ._core import copy as _copy
from ._core import layout as _layout
from ._core import transfer as _transfer
from ._core.dtypes import check_dtype
from ._core.ndarray import _ops, empty_array, empty_array_keep, ndarray
from .cuda import runtime as _runtime

_F64 = np.dtype(np.float64)


def _order(order):
    if order == "C" or order is None:
        return "C"
    if order == "F":
        return "F"
    return _order(_layout.check_order(order, "CF"))     # lower case, or NumPy's error


def empty(shape, dtype=None, order="C", *, device=None, like=None):
    if like is not None and _like.foreign(like):
        return _like.dispatch(empty, like, locals())
    if device is not None:
        with _api.device_scope(device):
            return empty(shape, dtype, order)
    if shape.__class__ is int and shape >= 0 and order == "C":     # the hot path: empty(n)
        return empty_array((shape,), check_dtype(_F64 if dtype is None else dtype), "C")
    shape = _layout.normalize_shape(shape)
    return empty_array(shape, check_dtype(_F64 if dtype is None else dtype), _order(order))


def _like_args(a, dtype, order, shape):
    """NumPy's layout of a ``*_like`` result: "K" (also None) is C or F for a contiguous
    prototype or a ``shape`` of another length, else "K": the prototype's axis order."""
    dt = a.dtype if dtype is None else check_dtype(dtype)
    if order not in ("C", "F", "A", "K", None):
        order = _layout.check_order(order)
    shape = a.shape if shape is None else _layout.normalize_shape(shape)
    if order == "A":
        order = "F" if a._f_contig and not a._c_contig else "C"
    elif order in ("K", None):
        order = ("C" if a._c_contig or len(shape) != a.ndim else
                 "F" if a._f_contig else "K")
    return shape, dt, order


def empty_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    a = asarray(a)
    shape, dt, order = _like_args(a, dtype, order, shape)
    with _api.device_scope(device, a):       # device=None: the device of ``a``
        if order == "K":
            return empty_array_keep(shape, dt, a)
        return empty(shape, dt, order)


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    if like is not None and _like.foreign(like):
        return _like.dispatch(zeros, like, locals())
    return full(shape, 0, _F64 if dtype is None else dtype, order, device=device)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    if like is not None and _like.foreign(like):
        return _like.dispatch(ones, like, locals())
    return full(shape, 1, _F64 if dtype is None else dtype, order, device=device)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """``numpy.full``: without ``dtype``, the dtype of ``asarray(fill_value)``; an array
    ``fill_value`` is broadcast (one copy kernel)."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(full, like, locals())
    if device is not None:
        with _api.device_scope(device):
            return full(shape, fill_value, dtype, order)
    if not isinstance(fill_value, ndarray) and np.ndim(fill_value) != 0:
        fill_value = asarray(fill_value)
    if dtype is None:
        dtype = fill_value.dtype if isinstance(fill_value, ndarray) else np.asarray(fill_value).dtype
    out = empty(shape, dtype, order)
    _copy.fill(out, fill_value)
    return out


def zeros_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    out = empty_like(a, dtype, order, shape=shape, device=device)
    _copy.fill(out, 0)
    return out


def ones_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None):
    out = empty_like(a, dtype, order, shape=shape, device=device)
    _copy.fill(out, 1)
    return out


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None, *, device=None):
    out = empty_like(a, dtype, order, shape=shape, device=device)
    _copy.fill(out, fill_value)
    return out


# NumPy's message for copy=False where a copy is needed
_NO_COPY = ("Unable to avoid copy while creating an array as requested.\nIf using "
            "`np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when "
            "needed (no behavior change in NumPy 1.x).\nFor more details, see "
            "https://numpy.org/devdocs/numpy_2_0_migration_guide.html"
            "#adapting-to-changes-in-the-copy-keyword.")


def asarray(a, dtype=None, order=None, *, device=None, copy=None, blocking=False, like=None):
    """Convert to a device array: device arrays pass through; foreign CUDA arrays are wrapped
    without copying (CUDA Array Interface, DLPack); host data is copied to the device.
    ``device``: host data is copied there; a device array elsewhere is copied over
    (``to_device``) unless ``copy=False``."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(asarray, like, locals())
    if order is not None and order not in ("C", "F", "A", "K"):
        order = _layout.check_order(order)
    if copy is not None and copy.__class__ is not bool:     # (the common calls skip a call)
        copy = _layout.check_copy(copy)
    if device is not None:
        return _asarray_on(a, dtype, order, device, copy)
    if isinstance(a, ndarray):
        if _runtime.multi_device[0] and a._mem.device_id != _runtime._tls.device:
            # an array of another device: copied here (peer-to-peer when the devices allow)
            if copy is False:
                raise ValueError(_NO_COPY)
            a, copy = a.copy(order=order or "K"), None
        out = a
        if dtype is not None and check_dtype(dtype) != a.dtype:
            if copy is False:
                raise ValueError(_NO_COPY)
            return a.astype(dtype, order=order or "K")
        if copy:
            return a.copy(order=order or "K")
        if order == "C" and not a._c_contig or order == "F" and not a._f_contig:
            if copy is False:
                raise ValueError(_NO_COPY)
            return a.copy(order=order)
        return out
    # read once: PyTorch's __cuda_array_interface__ is a property that builds the dict each time
    cai = None if isinstance(a, np.ndarray) else getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        out = _transfer.from_cuda_array_interface(a, cai)
        return asarray(out, dtype=dtype, order=order, copy=copy)
    if hasattr(a, "__dlpack__") and not isinstance(a, (np.ndarray, np.generic)):
        from ._core.dlpack import from_dlpack
        try:
            out = from_dlpack(a)
        except (BufferError, TypeError, ValueError):
            out = None
        if out is not None:
            return asarray(out, dtype=dtype, order=order, copy=copy)
    flat = _ops.get("flatiter")
    if flat is not None and isinstance(a, flat):
        # ``x.flat``: NumPy's 1-d array of it, a view of a C-contiguous ``x``, else a copy
        # (NumPy copies then even under copy=False)
        base = a.base
        view = base._c_contig
        return asarray(base.reshape(-1) if view else base.flatten(), dtype=dtype, order=order,
                       copy=copy if view else None)
    if copy is False:
        raise ValueError("Unable to avoid copy while creating a device array from host data.")
    if isinstance(a, (list, tuple)) and any(isinstance(x, ndarray) for x in _flat_items(a)):
        # a (nested) sequence holding device arrays: stacked on the device, no host round trip
        leaves = []
        shape, ragged = _nested_shape(a, (), leaves)
        if ragged:
            raise ValueError("setting an array element with a sequence. The requested array has "
                             f"an inhomogeneous shape after {len(shape)} dimensions. The detected "
                             f"shape was {shape} + inhomogeneous part.")
        if len(shape) > 64:
            raise ValueError("setting an array element with a sequence. The requested array "
                             "would exceed the maximum number of dimension of 64.")
        dts = [x.dtype for _, x, counts in leaves if counts]
        out = empty_array(shape, np.result_type(*dts) if dts else np.dtype(np.float64))
        for idx, x, _ in leaves:
            _copy.copy_into(out[idx], x)
        return asarray(out, dtype=dtype, order=order)
    host = np.asarray(a, dtype=dtype)
    if dtype is not None and host.dtype.byteorder == ">":
        # a requested non-native dtype is refused as zeros/astype refuse it (host data of one
        # is read into the native dtype below)
        check_dtype(host.dtype)
    if host.dtype == object:
        raise TypeError(f"npgpu does not support dtype object (from {type(a).__name__})")
    return _transfer.from_host(host, order=order or "K")


def _asarray_on(a, dtype, order, device, copy):
    did = _api.device_ordinal(device)
    if isinstance(a, ndarray) and a._mem.device_id != did:
        if copy is False:
            raise ValueError(_NO_COPY)
        a, copy = _api.to_device(a, did), None      # a fresh copy: no second one needed
    with _api.device_scope(did):
        return asarray(a, dtype, order, copy=copy)


def _nested_shape(seq, index, leaves):
    """NumPy's shape discovery of a nested sequence holding device arrays: (shape, ragged),
    ``shape`` cut to the dimensions every element shares when ragged.  Appends (index, array,
    whether its dtype counts) for each leaf; a host sublist without device arrays is one leaf."""
    if len(index) >= 64:
        raise ValueError("setting an array element with a sequence. The requested array "
                         "would exceed the maximum number of dimension of 64.")
    shapes, ragged = [], False
    for i, x in enumerate(seq):
        at = index + (i,)
        if isinstance(x, (list, tuple)):
            if not any(isinstance(y, ndarray) for y in _flat_items(x)):
                try:
                    h = np.asarray(x)
                except ValueError:
                    h = None
                if h is not None and h.dtype != object:
                    # an empty host list adds no dtype (NumPy's discovery finds none in it)
                    leaves.append((at, _transfer.from_host(h), h.size > 0))
                    shapes.append(h.shape)
                    continue
            sub, sub_ragged = _nested_shape(x, at, leaves)
            ragged |= sub_ragged
            shapes.append(sub)
        else:
            x = asarray(x)
            leaves.append((at, x, True))
            shapes.append(x.shape)
    if not shapes:
        return (0,), False
    common = shapes[0]
    for sh in shapes[1:]:
        n = 0
        while n < min(len(common), len(sh)) and common[n] == sh[n]:
            n += 1
        if n < len(common) or n < len(sh):
            ragged = True
        common = common[:n]
    return (len(seq),) + tuple(common), ragged


def _flat_items(seq, depth=1):
    # no deeper than an array can be (a self-containing list ends here: NumPy's error later)
    for x in seq:
        if isinstance(x, (list, tuple)):
            if depth < 64:
                yield from _flat_items(x, depth + 1)
        else:
            yield x


def array(object, dtype=None, copy=True, order="K", subok=False, ndmin=0, blocking=False, *,
          ndmax=None, like=None):
    """NumPy's ``array``.  ``ndmax`` (NumPy 2.4) caps the dimensions read from nested
    sequences; NumPy keeps deeper levels as Python objects (``dtype=object``), a dtype npgpu
    does not have, so a deeper nesting is NumPy's error for it without ``dtype=object``."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(array, like, locals())
    limit = 64 if ndmax is None else _check_ndmax(ndmax)
    if ndmin > limit:
        raise ValueError(f"ndmin must be <= ndmax ({limit})")   # NumPy 2.4's message (checked first)
    copy = _layout.check_copy(copy)
    out = asarray(object, dtype=dtype, order=None if order == "K" else order, copy=copy)
    if out.ndim > limit and not isinstance(object, (ndarray, np.ndarray)):
        # NumPy: an array passes whole; a nested sequence or another array-like is refused
        if isinstance(object, (list, tuple)):
            raise ValueError("setting an array element with a sequence. The requested array "
                             f"would exceed the maximum number of dimension of {limit}.")
        raise ValueError("object too deep for desired array")
    if copy and isinstance(object, ndarray) and out is object:
        out = object.copy(order=order)
    if out.ndim < ndmin:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """NumPy's ``asanyarray``: npgpu has no array subclasses, so :func:`asarray` (Dask's
    ``asanyarray(..., like=meta)`` reaches it, e.g. ``x[mask] = v``)."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(asanyarray, like, locals())
    return asarray(a, dtype=dtype, order=order, device=device, copy=copy)


def _check_ndmax(ndmax):
    if isinstance(ndmax, float):
        raise TypeError("integer argument expected, got float")
    ndmax = operator.index(ndmax)
    if not 0 <= ndmax <= 64:
        raise ValueError("ndmax must be in the range [0, NPY_MAXDIMS (64)] ")
    return ndmax


def ascontiguousarray(a, dtype=None, *, like=None):
    if like is not None and _like.foreign(like):
        return _like.dispatch(ascontiguousarray, like, locals())
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape(1)
    return a if a._c_contig else a.copy(order="C")


def asfortranarray(a, dtype=None, *, like=None):
    if like is not None and _like.foreign(like):
        return _like.dispatch(asfortranarray, like, locals())
    a = asarray(a, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape(1)
    return a if a._f_contig else a.copy(order="F")


def asarray_chkfinite(a, dtype=None, order=None):
    """NumPy's ``asarray_chkfinite``: ``asarray``, then ValueError if a float or complex result
    holds inf or NaN (one device read of the answer)."""
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.kind in "fc":
        from .ufuncs import UFUNCS
        if not bool(UFUNCS["isfinite"](a).all()):
            raise ValueError("array must not contain infs or NaNs")
    return a


_REQUIRE = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
            "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O",
            "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """NumPy's ``require``: ``a`` as an npgpu array of ``dtype`` meeting the flags in
    ``requirements`` ('C', 'F', 'A', 'W', 'O', 'E' or their long names), copied when it does
    not."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(require, like, locals())
    if not requirements:
        return asanyarray(a, dtype=dtype)
    req = {_REQUIRE[r.upper()] for r in requirements}
    req.discard("E")                    # npgpu has no subclasses: always a base-class array
    if {"C", "F"} <= req:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in req else "F" if "F" in req else "A"
    req.discard(order)
    arr = asarray(a, dtype=dtype, order=order if order != "A" else None)
    if order == "C" and not arr.flags.c_contiguous or order == "F" and not arr.flags.f_contiguous:
        return arr.copy(order=order)
    for flag in req:
        if not arr.flags[flag]:
            return arr.copy(order=order)
    return arr


def copy(a, order="K", subok=False):
    return asarray(a).copy(order=order)


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    """Copy a device array to the host (NumPy); other inputs go through ``numpy.asarray``."""
    return _transfer.to_host(a, stream=stream, order=order, out=out)


# ==== values computed on the device ==========================================================
# Every range / matrix constructor below is one elementwise kernel whose op reads the element's
# C-order linear index (elementwise.INDEX) and scalar parameters; only tiny scalar metadata
# (lengths, first/second value, step) is computed on the host, with NumPy's own scalar rules.
import math as _math
import operator as _operator

from ._codegen import elementwise as _ew

_I64 = np.dtype(np.int64)
_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_BOOL = np.dtype(np.bool_)
_ops_cache = {}


def _op(expr, nin, nout=1):
    """The ScalarOp of ``expr`` (cached: its source is its key)."""
    key = (expr, nin, nout)
    op = _ops_cache.get(key)
    if op is None:
        op = _ops_cache[key] = _ew.ScalarOp.from_expr("creation:" + expr, nin, expr, nout)
    return op


def _run(expr, inputs, loop_in, out, loop_out=None, name="create"):
    """Launch ``expr`` (of x0..) over ``out`` (C-contiguous when an input is INDEX)."""
    _ew.launch(_op(expr, len(inputs)), inputs, list(loop_in), [out],
               [out.dtype if loop_out is None else loop_out], name=name)
    return out


def _rnd(dt):
    """Template rounding a computed value to ``dt`` and back to its compute type: NumPy rounds
    every float16 ufunc result to float16 (we compute float16 in float32)."""
    if dt == _F16:
        return "float32(float16({}))"
    return _ew.type_name(dt) + "({})"


def _from_index(dt, var):
    """``var`` (an int64 index) converted to ``dt`` the way NumPy's arange fill does."""
    if dt == _F16:
        return f"float32(float16(float32({var})))"
    if dt.kind == "c":
        return f"{_ew.type_name(dt)}({_ew.type_name(np.dtype(f'f{dt.itemsize // 2}'))}({var}))"
    return f"{_ew.type_name(dt)}({var})"


# ---- arange -----------------------------------------------------------------------------------
def _arange_dtype(values):
    # NumPy: at least the default integer, promoted with each argument's type
    dts = [_I64]
    for v in values:
        if isinstance(v, ndarray):
            raise TypeError("arange() arguments must be scalars, not npgpu arrays")
        dts.append(np.asarray(v).dtype)
    return np.result_type(*dts)


def _arange_length(start, stop, step, cmplx=True):
    try:
        q = (stop - start) / step
    except ZeroDivisionError:
        raise ZeroDivisionError("division by zero") from None
    if not cmplx and isinstance(q, complex):
        # NumPy reads the quotient as a C double for a real dtype (PyFloat_AsDouble): a Python
        # complex is its TypeError, a NumPy complex scalar its real part and a ComplexWarning
        if not isinstance(q, np.complexfloating):
            raise TypeError("must be real number, not complex")
        import warnings
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=3)
        q = q.real
    # NumPy: min of the ceilings of both parts only when the quotient itself is complex
    parts = (q.real, q.imag) if isinstance(q, (complex, np.complexfloating)) else (q,)
    if len(parts) == 1 and q == 0 and stop != start:
        # NumPy: a quotient that underflowed (or a step of +-inf) gives one value when it is +0.0
        return 0 if _math.copysign(1.0, float(q)) < 0 else 1
    n = None
    for p in parts:
        p = float(p)
        if _math.isnan(p):
            raise ValueError("arange: cannot compute length")
        if _math.isinf(p) or p > 2 ** 63 - 1:
            raise ValueError("Maximum allowed size exceeded")
        c = _math.ceil(p)
        n = c if n is None else min(n, c)
    return max(n, 0)


def arange(*args, **kwargs):
    """``numpy.arange([start,] stop[, step,], dtype=None, *, device=None, like=None)``: values
    ``first + i*delta`` computed in the result dtype on the device, where ``first`` and the
    second value are ``start`` and ``start + step`` cast to it and ``delta`` is their difference
    in it (NumPy's fill rule)."""
    like = kwargs.get("like")
    if like is not None and _like.foreign(like):
        return _like.dispatch(arange, like, locals())
    if not args and "stop" not in kwargs:
        # NumPy's rule: a lone keyword ``start`` is no stop (``arange(start=4)``)
        raise TypeError("arange() requires stop to be specified.")
    return _arange(*args, **kwargs)


_NO_START = object()


def _arange(start=_NO_START, stop=None, step=None, dtype=None, *, device=None, like=None):
    if start is _NO_START:
        start, stop = stop, None        # ``arange(stop=3)``: NumPy's ``arange(3)``
    # 0-d device values (np.arange(labels.max() + 1)): the length needs them on the host, read
    # as NumPy scalars (one small read each)
    start, stop, step = (v.get()[()] if isinstance(v, ndarray) and v.ndim == 0 else v
                         for v in (start, stop, step))
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    if dtype is None:
        raw = _arange_dtype([start, stop, step])
        if raw.kind == "O":
            # Python integers past 64 bits: NumPy's size error comes before the dtype's
            _arange_length(start, stop, step, False)
        dt = check_dtype(raw)
    else:
        _arange_dtype([start, stop, step])
        dt = check_dtype(dtype)
    if step == 0:
        raise ZeroDivisionError("division by zero")
    if device is not None:
        with _api.device_scope(device):
            return _arange(start, stop, step, dtype)
    n = _arange_length(start, stop, step, dt.kind == "c")
    if dt.kind == "b" and n > 2:
        raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
    out = empty_array((n,), dt)
    if n == 0:
        return out
    nxt = start + step
    # the first two values are NumPy's setitem of start and start+step into the dtype
    first = np.empty((), dt)
    second = np.empty((), dt)
    with np.errstate(all="ignore"):
        first[()] = start
        second[()] = nxt if n > 1 else start
        first, second = first[()], second[()]
        if dt.kind in "biu":
            # integer fill arithmetic wraps: do it in int64 (same bits modulo 2**n)
            f, s = first.astype(np.int64), second.astype(np.int64)
            d = np.int64(s - f)
            return _run("x1 if x0 == 0 else (x2 if x0 == 1 else x1 + x0 * x3)",
                        [_ew.INDEX, f, s, d], [_I64] * 4, out, _I64, name="arange")
        cdt = _ew.compute_dtype(dt)
        f, s = cdt.type(first), cdt.type(second)
        d = cdt.type(s - f)
    if dt.kind == "c":
        ft = np.dtype(f"f{dt.itemsize // 2}")
        tn = _ew.type_name(ft)
        expr = (f"x1 if x0 == 0 else (x2 if x0 == 1 else complex({tn}(x1.real + {tn}(x0) * x3.real), "
                f"{tn}(x1.imag + {tn}(x0) * x3.imag)))")
    else:
        tn = _ew.type_name(cdt)
        expr = f"x1 if x0 == 0 else (x2 if x0 == 1 else {tn}(x1 + {tn}(x0) * x3))"
    return _run(expr, [_ew.INDEX, f, s, d], [_I64, cdt, cdt, cdt], out, dt, name="arange")


# ---- matrices ----------------------------------------------------------------------------------
def _mn(N, M):
    N = _operator.index(N)
    M = N if M is None else _operator.index(M)
    if N < 0 or M < 0:
        raise ValueError("negative dimensions are not allowed")
    return N, M


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """Zeros, then one fill kernel on the diagonal (a strided view)."""
    if like is not None and _like.foreign(like):
        return _like.dispatch(eye, like, locals())
    if device is not None:
        with _api.device_scope(device):
            return eye(N, M, k, dtype, order)
    N, M = _mn(N, M)
    k = _operator.index(k)
    out = zeros((N, M), dtype, order)
    diagonal = _diagonal_view(out, k)
    if diagonal.size:
        _copy.fill(diagonal, 1)
    return out


def identity(n, dtype=None, *, like=None):
    if like is not None and _like.foreign(like):
        return _like.dispatch(identity, like, locals())
    return eye(n, dtype=float if dtype is None else dtype)


def _diagonal_view(a, k):
    """The k-th diagonal of 2-D ``a`` as a strided view."""
    n, m = a.shape
    s0, s1 = a._strides
    if k >= 0:
        length = max(0, min(n, m - k))
        off = k * s1 if length else 0
    else:
        length = max(0, min(n + k, m))
        off = -k * s0 if length else 0
    return a._view(off, (length,), (s0 + s1,))
