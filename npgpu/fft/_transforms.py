"""numpy.fft's transforms on cuFFT: argument rules, dtypes, layouts, normalisation.

Each public function is: check the arguments in NumPy's order (NumPy's errors and
messages; ``out=`` at each one-axis step NumPy hands it to -- every step of the complex and
forward real transforms, irfft's last -- where a misfit raises the error of NumPy's step run
on data-less stand-ins), pick the dtypes, then one of three engines -- :func:`_c2c`, :func:`_r2c`,
:func:`_c2r` -- which

1. prepare the input (:func:`_prepare`): the array itself when it is C-contiguous, aligned
   and of the compute dtype; otherwise one copy kernel into a C-contiguous buffer that also
   crops, zero-pads (``n``/``s``), casts and, for ``hfft``, conjugates;
2. transform groups of at most 3 consecutive axes with one cuFFT plan each
   (:func:`.._cufft.transform`: batched over the other axes, strided when needed): the first
   group out of place into the result, the others in place on it.  R2C and C2R plans need
   unit strides, so when the real axis is not innermost :func:`_run` works on a view with
   the transformed axes last (the copy of step 1 makes it C-contiguous) and returns the
   result viewed back in NumPy's axis order;
3. finish (:func:`_finish`): the norm's scale factor, ``ihfft``'s conjugate and a cast to
   a float16 result or into ``out=`` in one elementwise kernel (none when nothing is left).

Dtypes are NumPy 2's: float16, float32 and complex64 compute in single precision, every
other input (bool, integers, float64, complex128) in double; complex results are
``result_type(a, 1j)``, real ones (``irfft``, ``hfft``) ``result_type(a.real, 1.0)`` --
float16 input gives a float16 result computed in float32.  Scale factors are rounded in that
real dtype first, as NumPy rounds them.

NumPy applies an n-D transform one axis at a time; transforms along distinct axes commute
(and so do zero-padding and cropping along one axis with transforms along another), so one
buffer and grouped plans give NumPy's result.  Repeated axes are not distinct: those calls run
NumPy's sequence of one-axis transforms.
"""
import operator
import sys
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from .._codegen import elementwise as _ew
from .._core.copy import copy_into, fill, may_overlap
from .._core import layout as _layout
from .._core.ndarray import empty_array, fail_unless_writeable, ndarray
from ..creation import asarray
from ..cuda import runtime as _rt
from . import _cufft
from ._cufft import FORWARD, INVERSE

_F2 = np.dtype(np.float16)
_F4 = np.dtype(np.float32)
_F8 = np.dtype(np.float64)
_C8 = np.dtype(np.complex64)
_C16 = np.dtype(np.complex128)
_SINGLE = (_F2, _F4, _C8)

_CONJ = _ew.ScalarOp.from_expr("fft:conj", 1, "x0.conjugate()")
# the finishing kernel: (scaled?, conjugated?) -> op
_POST = {
    (True, False): _ew.ScalarOp.from_expr("fft:scale", 2, "x0 * x1"),
    (True, True): _ew.ScalarOp.from_expr("fft:scale_conj", 2, "x0.conjugate() * x1"),
    (False, True): _CONJ,
}


# ---- dtypes and normalisation ------------------------------------------------------------------
def _complex_of(dt):
    return _C8 if dt in _SINGLE else _C16


def _real_of(dt):
    return _F4 if dt in _SINGLE else _F8


def _real_result(dt):
    """NumPy's real dtype of a transform of ``dt``: ``result_type(a.real.dtype, 1.0)``."""
    if dt.kind == "c":
        dt = np.dtype(dt.char.lower())
    return np.result_type(dt, 1.0)


def _swap_direction(norm):
    try:
        return {"backward": "forward", None: "forward", "ortho": "ortho",
                "forward": "backward"}[norm]
    except KeyError:                         # (an unhashable norm: NumPy's TypeError)
        raise ValueError(f'Invalid norm value {norm}; should be "backward", '
                         '"ortho" or "forward".') from None


def _factor(norm, n, forward, dt, first):
    """NumPy's scale factor of one axis of ``n`` points of a transform of ``dt``, rounded in
    the real dtype of that step's input: ``dt`` for the ``first`` step, the complex
    intermediate for the others (so float16 input has its first factor rounded to float16)."""
    if not forward:
        norm = _swap_direction(norm)
    if norm is None or norm == "backward":
        return 1.0
    real_dtype = _real_result(dt) if first else _real_of(dt)
    if norm == "ortho":
        return np.reciprocal(np.sqrt(n, dtype=real_dtype))
    if norm == "forward":
        return np.reciprocal(n, dtype=real_dtype)
    raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')


def _rfft_type_error(n):
    name = "rfft_n_even" if n % 2 == 0 else "rfft_n_odd"
    return TypeError(f"ufunc '{name}' not supported for the input types, and the inputs could "
                     "not be safely coerced to any supported types according to the casting "
                     "rule ''safe''")


# ---- argument checks (NumPy's order and messages) ---------------------------------------------
def _steps(a, steps, norm, kind, out=None):
    """Check NumPy's one-axis steps ``(n, axis, forward)`` in NumPy's order, and ``out``
    against each step that NumPy hands it to: a list of ``(n, axis, factor)`` with ``n`` an
    int and ``axis`` in ``[0, a.ndim)``."""
    res = []
    shape, dt = list(a.shape), a.dtype
    for i, (n, axis, forward) in enumerate(steps):
        if n is None:
            # (s's deprecated None) the one-axis default of the array this step gets: after a
            # step along the same axis, that step's length
            n = tuple(shape)[axis]
            if kind == "c2r" and i == len(steps) - 1:
                n = (n - 1) * 2
        if n < 1:
            raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
        f = _factor(norm, n, forward, a.dtype, i == 0)
        axis = normalize_axis_index(axis, a.ndim)
        if isinstance(n, (bool, np.bool_)):
            # NumPy: a bool is a length only where it is halved first (rfft's n // 2 + 1);
            # elsewhere it is the result's length, which its ``empty`` refuses
            if not (i == 0 and kind == "r2c"):
                raise TypeError("an integer is required")
            n = int(n)
        n = operator.index(n)
        f = float(f)                         # (after NumPy's index error for an array ``n``)
        func = _step_func(kind, i, len(steps), forward)
        if out is not None and (kind != "c2r" or i == len(steps) - 1):
            # (hfft / ihfft run irfft / rfft with the swapped norm)
            fnorm = norm if (func in (np.fft.fft, np.fft.rfft)) == forward else \
                _swap_direction(norm)
            _check_out(out, func, shape, dt, n, axis, fnorm)
            dt = out.dtype                   # NumPy's next step reads ``out``
        else:
            dt = np.result_type(dt, 1j)      # (the steps before irfft: ifft)
        if i == 0 and kind == "r2c" and a.dtype.kind == "c":
            raise _rfft_type_error(n)
        shape[axis] = n // 2 + 1 if func is np.fft.rfft else n
        res.append((n, axis, f))
    return res


def _step_func(kind, i, nsteps, forward):
    """NumPy's one-axis function of step ``i`` of ``nsteps``."""
    if kind == "r2c" and i == 0:
        return np.fft.rfft
    if kind == "c2r":
        return np.fft.irfft if i == nsteps - 1 else np.fft.ifft
    return np.fft.fft if forward else np.fft.ifft


def _stacklevel(to_user):
    """The ``stacklevel`` of :func:`_cook`'s warnings: NumPy's own attribution -- the caller of
    ``rfftn`` / ``irfftn`` (``to_user``: the first frame outside npgpu, which the default
    filters show when it is ``__main__``), the public function for the others."""
    if not to_user:
        return 4
    f, level = sys._getframe(1), 1                   # (_cook's frame: level 1)
    while f is not None and f.f_globals.get("__name__", "").startswith("npgpu."):
        f, level = f.f_back, level + 1
    return level


def _cook(a, s, axes, invreal, to_user=False):
    """``s`` and ``axes`` of an n-D call as NumPy completes them (its warnings and errors)."""
    shapeless = s is None
    if shapeless:
        # (NumPy's lengths as ``take`` gives them: a 2-D ``axes`` fails NumPy's ``None in s``)
        s = list(a.shape) if axes is None else list(np.take(a.shape, axes))
    s = list(s)
    if axes is None:
        if not shapeless:
            warnings.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in "
                          "NumPy 2.0). In a future version of NumPy, this will raise an error "
                          "and `s[i]` will correspond to the size along the transformed axis "
                          "specified by `axes[i]`. To retain current behaviour, pass a sequence "
                          "[0, ..., k-1] to `axes` for an array of dimension k.",
                          DeprecationWarning, stacklevel=_stacklevel(to_user))
        axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if invreal and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    if None in s:
        warnings.warn("Passing an array containing `None` values to `s` is deprecated in NumPy "
                      "2.0 and will raise an error in a future version of NumPy. To use the "
                      "default behaviour of the corresponding 1-D transform, pass the value "
                      "matching the default for its `n` parameter. To use the default behaviour "
                      "for every axis, the `s` argument can be omitted.",
                      DeprecationWarning, stacklevel=_stacklevel(to_user))
    s = [a.shape[ax] if n == -1 else n for n, ax in zip(s, axes)]
    # NumPy's steps index ``axes`` (a set fails as it does there)
    return s, [axes[i] for i in range(len(axes))]


def _check_out(out, func, shape, dt, n, axis, norm):
    """``out`` fits NumPy's step ``func`` (``n`` points along ``axis``) of an input of
    ``shape`` and ``dt``, as it is or by broadcasting the result (NumPy's ufunc takes both);
    else NumPy's error, from that step run on stand-ins (no data)."""
    want = list(shape)
    want[axis] = n // 2 + 1 if func is np.fft.rfft else n
    step_dt = _real_result(dt) if func is np.fft.irfft else np.result_type(dt, 1j)
    if (isinstance(out, ndarray) and out.shape == tuple(want)
            and np.can_cast(step_dt, out.dtype, "same_kind")):
        if out._ro:
            fail_unless_writeable(out, "output array")
        return
    if isinstance(out, np.ndarray):          # NumPy's error, as npgpu's ufuncs word it
        raise TypeError("return arrays must be of ArrayType (npgpu.ndarray, not "
                        f"{type(out).__module__}.{type(out).__name__})")
    stand_out = _layout.host_stand_in(out.shape, out.dtype, True) if isinstance(out, ndarray) \
        else out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        func(_layout.host_stand_in(shape, dt, True), n, axis, norm, out=stand_out)
    if out._ro:                              # (NumPy took it: the result broadcast into it)
        fail_unless_writeable(out, "output array")


# ---- the engines ---------------------------------------------------------------------------------
def _groups(dims):
    """Runs of consecutive dimensions, split into groups of at most 3 (innermost first)."""
    runs = []
    for d in sorted(dims):
        if runs and runs[-1][1] == d:
            runs[-1][1] = d + 1
        else:
            runs.append([d, d + 1])
    groups = []
    for p, q in reversed(runs):
        while q - p > 3:
            groups.append((q - 3, q))
            q -= 3
        groups.append((p, q))
    return groups


def _split(axes, last):
    """(the group of at most 3 consecutive axes ending at ``last``, groups of the others)."""
    p = last
    while p > last - 2 and p - 1 in axes:
        p -= 1
    return (p, last + 1), _groups([d for d in axes if not p <= d <= last])


def _prepare(a, axes, lengths, dtype, conj=False, own=False):
    """(buffer, owned): ``a`` cropped / zero-padded to ``lengths`` along ``axes``, cast to
    ``dtype`` (and conjugated), C-contiguous -- ``a`` itself when nothing changes and
    ``own`` is false."""
    shape = list(a.shape)
    for ax, n in zip(axes, lengths):
        shape[ax] = n
    shape = tuple(shape)
    if (not own and not conj and shape == a.shape and a.dtype == dtype and a._c_contig
            and a._ptr % dtype.itemsize == 0):
        return a, False
    buf = empty_array(shape, dtype)
    if buf.size:
        src, dst = a, buf
        if shape != a.shape:
            idx = tuple(slice(0, min(n, m)) for n, m in zip(shape, a.shape))
            src, dst = a[idx], buf[idx]
            if src.shape != shape:
                fill(buf, 0)                 # zero padding
        if src.size:
            if conj:
                _ew.launch(_CONJ, [src], [dtype], [dst], [dtype], name="fft_conj")
            else:
                copy_into(dst, src)
    return buf, True


def _target(out, shape, dtype, avoid):
    """``out`` when cuFFT may write the result straight into it, else None."""
    if (out is not None and out.dtype == dtype and out._c_contig and out.shape == shape
            and out._ptr % dtype.itemsize == 0 and (avoid is None or not may_overlap(out, avoid))):
        return out
    return None


def _post(src, dst, fct, conj):
    op = _POST.get((fct != 1.0, conj))
    if op is None:
        copy_into(dst, src)
        return
    ins, loop = [src], [src.dtype]
    if fct != 1.0:
        real = _real_of(src.dtype)
        ins.append(real.type(fct))
        loop.append(real)
    _ew.launch(op, ins, loop, [dst], [src.dtype], name="fft_post")


def _finish(res, fct, conj, out, dtype):
    """Scale / conjugate ``res`` into ``out`` or a result of ``dtype`` (``res`` itself when
    it can be)."""
    if out is None and res.dtype != dtype:
        out = empty_array(res.shape, dtype)
    if out is not None:
        if out is not res:
            if out.size:
                _post(res, out, fct, conj)
            return out
    if res.size and (fct != 1.0 or conj):
        _post(res, res, fct, conj)
    return res


class _Replay:
    """A repeat of a one-plan call on an input used as it is (:func:`_one`'s fast path):
    allocate the result, execute the recorded layout, scale / conjugate in place."""

    __slots__ = ("shape", "dtype", "layout", "fct", "conj")

    def __init__(self, shape, dtype, layout, fct, conj):
        self.shape, self.dtype, self.layout, self.fct, self.conj = shape, dtype, layout, fct, conj

    def __call__(self, a):
        dst = empty_array(self.shape, self.dtype)
        self.layout.run(a._ptr, dst._ptr)
        if self.fct != 1.0 or self.conj:
            _post(dst, dst, self.fct, self.conj)
        return dst


def _c2c(a, ns, axes, direction, fct, out, record=None):
    cdt = _complex_of(a.dtype)
    buf, owned = _prepare(a, axes, ns, cdt)
    dst = _target(out, buf.shape, cdt, None if owned else a)
    if dst is None:
        dst = buf if owned else empty_array(buf.shape, cdt)
    if dst.size:
        src = buf
        groups = _groups(axes)
        for p, q in groups:
            lay = _cufft.transform("c2c", src, dst, p, q, buf.shape[p:q], direction)
            src = dst
        if record is not None and len(groups) == 1 and not owned and out is None:
            record.append(_Replay(dst.shape, cdt, lay, fct, False))
    return _finish(dst, fct, False, out, cdt)


def _r2c(a, ns, axes, last, fct, out, conj, record=None):
    rdt = _real_of(a.dtype)
    cdt = _complex_of(a.dtype)
    buf, owned = _prepare(a, axes, ns, rdt)
    shape = list(buf.shape)
    shape[last] = buf.shape[last] // 2 + 1
    shape = tuple(shape)
    dst = _target(out, shape, cdt, None if owned else a)
    if dst is None:
        dst = empty_array(shape, cdt)
    if dst.size:
        (p, q), rest = _split(axes, last)
        lay = _cufft.transform("r2c", buf, dst, p, q, buf.shape[p:q])
        for p, q in rest:
            _cufft.transform("c2c", dst, dst, p, q, shape[p:q], FORWARD)
        if record is not None and not rest and not owned and out is None:
            record.append(_Replay(shape, cdt, lay, fct, conj))
    return _finish(dst, fct, conj, out, cdt)


def _c2r(a, ns, axes, last, fct, out, conj, dtype):
    cdt = _complex_of(a.dtype)
    rdt = _real_of(cdt)
    n = ns[axes.index(last)]
    lengths = [m // 2 + 1 if ax == last else m for m, ax in zip(ns, axes)]
    # cuFFT's C2R overwrites its input: always a buffer of our own
    buf, _ = _prepare(a, axes, lengths, cdt, conj=conj, own=True)
    shape = list(buf.shape)
    shape[last] = n
    shape = tuple(shape)
    dst = _target(out, shape, rdt, None)
    if dst is None:
        dst = empty_array(shape, rdt)
    if dst.size:
        (p, q), rest = _split(axes, last)
        for g, h in rest:
            _cufft.transform("c2c", buf, buf, g, h, buf.shape[g:h], INVERSE)
        _cufft.transform("c2r", buf, dst, p, q, shape[p:q])
    return _finish(dst, fct, False, out, dtype)


# ---- one entry for every transform ---------------------------------------------------------------
def _result_dtype(kind, dt, nsteps):
    """A C2R step's input is ``a`` only when it is the only step (irfftn's earlier steps give
    it their complex result: float16 in, float32 out)."""
    if kind != "c2r":
        return _complex_of(dt)
    return _real_result(dt) if nsteps == 1 else _real_of(dt)


def _run(kind, a, steps, forward, out, herm, record=None):
    """Transform ``a`` by NumPy's checked one-axis ``steps`` (its order: an R2C step first,
    a C2R step last); ``record``: a list that gets a :class:`_Replay` of the call, when one
    can repeat it."""
    dtype = _result_dtype(kind, a.dtype, len(steps))
    ns = [n for n, _, _ in steps]
    axes = [ax for _, ax, _ in steps]
    if len(set(axes)) != len(axes):
        return _sequence(kind, a, steps, forward, out)
    fct = 1.0
    for _, _, f in steps:
        fct *= f
    if kind == "c2c":
        return _c2c(a, ns, axes, FORWARD if forward else INVERSE, fct, out, record)
    last = axes[0] if kind == "r2c" else axes[-1]
    order = _real_last(a, ns, axes, last)
    if order is None:
        return _real(kind, a, ns, axes, last, fct, out, herm, dtype, record)
    # the transform of a view with the real axis innermost (``_prepare`` copies it into a
    # C-contiguous buffer when it is not one), its result viewed back in NumPy's order
    back = [order.index(d) for d in range(a.ndim)]          # new position of axis d
    res = _real(kind, a.transpose(order), ns, [back[d] for d in axes], back[last], fct,
                None if out is None else out.transpose(order), herm, dtype)
    return out if out is not None else res.transpose(back)


def _real_last(a, ns, axes, last):
    """cuFFT's R2C / C2R plans take unit strides only (the device's cuFFT fails strided ones
    that C2C accepts; CuPy also makes the real axis innermost): when elements follow the real
    axis ``last``, an order of ``a``'s axes with the transformed ones last and ``last``
    innermost; None when ``last`` is innermost already."""
    lengths = dict(zip(axes, ns))
    inner = 1
    for d in range(last + 1, a.ndim):
        inner *= lengths.get(d, a.shape[d])
    if inner <= 1:
        return None
    return ([d for d in range(a.ndim) if d not in lengths]
            + sorted(d for d in lengths if d != last) + [last])


def _real(kind, a, ns, axes, last, fct, out, herm, dtype, record=None):
    if kind == "r2c":
        return _r2c(a, ns, axes, last, fct, out, herm, record)
    return _c2r(a, ns, axes, last, fct, out, herm, dtype)


def _sequence(kind, a, steps, forward, out):
    """Repeated axes: NumPy's one-axis transforms in NumPy's order."""
    last = len(steps) - 1
    for i, (n, ax, f) in enumerate(steps):
        k = kind
        if (kind == "r2c" and i > 0) or (kind == "c2r" and i < last):
            k = "c2c"
        a = _run(k, a, [(n, ax, f)], forward, out if i == last else None, False)
    return a


# (kind, forward, Hermitian) of each one-axis function
_ONE = {"fft": ("c2c", True, False), "ifft": ("c2c", False, False),
        "rfft": ("r2c", True, False), "irfft": ("c2r", False, False),
        "hfft": ("c2r", True, True), "ihfft": ("r2c", False, True)}


# fast path of repeated calls: (the input's dtype, shape, strides and alignment, the device,
# the function's arguments and their types) -> _Replay
_FAST = {}
_FAST_MAX = 256


def _fast_key(a, out, *args):
    """The fast-path key of a call on ``a`` with ``args``: None when the call cannot repeat a
    recorded one (``out=``, a subclass, an unhashable argument)."""
    if out is not None or type(a) is not ndarray:
        return None
    fk = (a.dtype, a.shape, a._strides, a._ptr & 15, _rt._tls.device) + args
    try:
        hash(fk)
    except TypeError:
        return None
    return fk


def _remember(fk, record):
    if record:
        if len(_FAST) >= _FAST_MAX:
            _FAST.clear()
        _FAST[fk] = record[0]


def _unwrap(out):
    """``out=(arr,)``, as NumPy's ufuncs take it: ``arr``."""
    return out[0] if type(out) is tuple and len(out) == 1 and out[0] is not None else out


def _one(name, a, n, axis, norm, out):
    out = _unwrap(out)
    fk = _fast_key(a, out, name, type(n), n, type(axis), axis, norm)
    if fk is not None:
        replay = _FAST.get(fk)
        if replay is not None:
            return replay(a)
    record = None if fk is None else []
    kind, forward, herm = _ONE[name]
    a = asarray(a)
    if n is None:
        n = a.shape[axis] if kind != "c2r" else (a.shape[axis] - 1) * 2
    if herm:
        _swap_direction(norm)                # hfft / ihfft check the norm first
    steps = _steps(a, [(n, axis, forward)], norm, kind, out)
    res = _run(kind, a, steps, forward, out, herm, record)
    _remember(fk, record)
    return res


def _nd(kind, forward, a, s, axes, norm, out, to_user=False):
    out = _unwrap(out)
    # the fast path only without ``s`` (its deprecated spellings warn on every call)
    fk = None
    if s is None and (axes is None or type(axes) in (tuple, list)):
        fk = _fast_key(a, out, kind, forward, None if axes is None else tuple(axes),
                       tuple(map(type, axes or ())), norm)
    if fk is not None:
        replay = _FAST.get(fk)
        if replay is not None:
            return replay(a)
    record = None if fk is None else []
    res = _nd_run(kind, forward, a, s, axes, norm, out, record, to_user)
    _remember(fk, record)
    return res


def _nd_run(kind, forward, a, s, axes, norm, out, record, to_user):
    a = asarray(a)
    s, axes = _cook(a, s, axes, kind == "c2r", to_user)
    if kind == "c2c" and not axes:
        return a                             # NumPy returns the input itself
    k = len(axes)
    if kind == "c2c":
        order = list(range(k - 1, -1, -1))
    elif kind == "r2c":
        order = [k - 1] + list(range(k - 2, -1, -1))
    else:
        order = list(range(k - 1)) + [k - 1]
    steps = []
    for i in order:
        steps.append((s[i], axes[i], forward))
    return _run(kind, a, _steps(a, steps, norm, kind, out), forward, out, False, record)


# ---- the public functions -------------------------------------------------------------------------
def fft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional discrete Fourier transform (``numpy.fft.fft``) on cuFFT."""
    return _one("fft", a, n, axis, norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional inverse discrete Fourier transform (``numpy.fft.ifft``)."""
    return _one("ifft", a, n, axis, norm, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional transform of real input, ``n // 2 + 1`` terms (``numpy.fft.rfft``)."""
    return _one("rfft", a, n, axis, norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of :func:`rfft`: a real result of ``n`` points (``numpy.fft.irfft``)."""
    return _one("irfft", a, n, axis, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """Transform of a Hermitian-symmetric signal: a real spectrum (``numpy.fft.hfft``)."""
    return _one("hfft", a, n, axis, norm, out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of :func:`hfft` (``numpy.fft.ihfft``)."""
    return _one("ihfft", a, n, axis, norm, out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional discrete Fourier transform (``numpy.fft.fftn``)."""
    return _nd("c2c", True, a, s, axes, norm, out)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional inverse discrete Fourier transform (``numpy.fft.ifftn``)."""
    return _nd("c2c", False, a, s, axes, norm, out)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional discrete Fourier transform (``numpy.fft.fft2``)."""
    return _nd("c2c", True, a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional inverse discrete Fourier transform (``numpy.fft.ifft2``)."""
    return _nd("c2c", False, a, s, axes, norm, out)


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional transform of real input (``numpy.fft.rfftn``)."""
    return _nd("r2c", True, a, s, axes, norm, out, to_user=True)


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """Inverse of :func:`rfftn` (``numpy.fft.irfftn``)."""
    return _nd("c2r", False, a, s, axes, norm, out, to_user=True)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional transform of real input (``numpy.fft.rfft2``)."""
    return _nd("r2c", True, a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Inverse of :func:`rfft2` (``numpy.fft.irfft2``)."""
    return _nd("c2r", False, a, s, axes, norm, out)
