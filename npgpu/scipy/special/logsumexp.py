"""logsumexp, softmax and log_softmax from npgpu's reductions and ``@npgpu.fuse``.

Each reads its input as few times as the formula allows (H200, (2^14, 2^14) float32 along
axis 1: the unfused compositions took 1.80 ms (logsumexp) and 2.75 ms (softmax) against
PyTorch's 1.83 / 0.66 ms):

* softmax is SciPy's formula, ``exp(x - max) / sum(exp(x - max))``, as one fused function:
  along the last axis that is npgpu.fuse's row form (one kernel: each row read once, written
  once), along other axes a max, a sum with ``exp(x - max)`` as its map, and one elementwise
  pass;
* logsumexp takes the maximum (one read), shifts by it where it is finite (SciPy: a
  non-finite maximum shifts by 0, so the sum gives the inf or NaN), and sums
  ``exp(a - shift)`` as the map of one reduction (the second read); the log and the shift
  back touch only the per-row values;
* log_softmax is ``(x - shift) - log(sum(exp(x - shift)))``: the maximum, then the fused sum
  and the elementwise step.

Weights (``b=``), ``return_sign`` and empty input take the plain composition below, as do
softmax and log_softmax of integer, boolean or empty input: SciPy's formula on the input's own
dtype (``x - max`` in it, so bool is NumPy's TypeError, int8 exponentiates to float16) and the
maximum's error on an empty reduction.
"""
import operator

from numpy.exceptions import AxisError


def _np():
    import npgpu        # the public namespace; imported on call (it imports this module)
    return npgpu


def _shift(xp, m):
    """The maximum ``m`` where it is finite, else 0 (SciPy's shift; the Python 0 is a weak
    scalar: ``m``'s dtype, no 0-d array to allocate and fill)."""
    return xp.where(xp.isfinite(m), m, 0)


def _float(xp, a):
    a = xp.asarray(a)
    if a.dtype.kind in "biu":       # SciPy computes integers in float64
        a = a.astype(xp.float64)
    return a


def _axis_key(axis, ndim):
    """``axis`` checked as NumPy's reductions check it (a list or float is a TypeError; its
    AxisError and duplicate-value messages; a 0-d array takes an int axis 0 or -1, not in a
    tuple), non-negative: the fused functions' key."""
    if axis is None:
        return None
    n = ndim if isinstance(axis, tuple) else max(ndim, 1)
    out = []
    for ax in axis if isinstance(axis, tuple) else (axis,):
        ax = operator.index(ax)
        if not -n <= ax < n:
            raise AxisError(ax, ndim)
        out.append(ax % n)
    if len(set(out)) != len(out):
        raise ValueError("duplicate value in 'axis'")
    return tuple(out) if isinstance(axis, tuple) else out[0]


_FUSED = {}


def _fused(kind, axis):
    """The fused function ``kind`` along ``axis`` (made once per kind and axis: its replays
    are kept per argument signature by npgpu.fuse)."""
    f = _FUSED.get((kind, axis))
    if f is not None:
        return f
    xp = _np()

    if kind == "sum_exp":
        def f(a, shift):
            return xp.sum(xp.exp(a - shift), axis=axis, keepdims=True)
    elif kind == "softmax":
        def f(x):
            e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
            return e / xp.sum(e, axis=axis, keepdims=True)
    else:                                   # log_softmax, given the shift
        def f(x, shift):
            t = x - shift
            return t - xp.log(xp.sum(xp.exp(t), axis=axis, keepdims=True))
    f = _FUSED[(kind, axis)] = xp.fuse(f, kernel_name=kind)
    return f


def _squeeze(xp, v, axis, ndim):
    return xp.squeeze(v, axis=tuple(range(ndim)) if axis is None else axis)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) along ``axis`` (scipy.special.logsumexp); with ``return_sign`` the
    log of the absolute value and the sign of the sum."""
    xp = _np()
    a = xp.asarray(a)
    if b is not None:
        # SciPy promotes a with b (Python scalars weak: float32 a, b=2.0 stays float32)
        b = b if isinstance(b, (bool, int, float, complex)) else xp.asarray(b)
        a = a.astype(xp.result_type(a, b), copy=False)
    a = _float(xp, a)
    if b is not None:
        # a and b broadcast first: axis counts in their common shape (as SciPy)
        b = xp.asarray(b, dtype=a.dtype)
        try:
            a, b = xp.broadcast_arrays(a, b)
        except ValueError:
            raise ValueError("Array shapes are incompatible for broadcasting.") from None
    if a.ndim == 0:                 # SciPy's logsumexp works at least 1-d (keepdims: shape (1,))
        a = a.reshape(1)
        b = None if b is None else b.reshape(1)
    axis = _axis_key(axis, a.ndim)
    if b is None and not return_sign and a.size and a.dtype.kind == "f":
        shift = _shift(xp, xp.max(a, axis=axis, keepdims=True))
        out = xp.log(_fused("sum_exp", axis)(a, shift)) + shift
        return out if keepdims else _squeeze(xp, out, axis, a.ndim)
    if b is not None:
        # elements with weight 0 add nothing, even where a is inf or NaN (as SciPy)
        a = xp.where(b == 0, xp.asarray(-xp.inf, dtype=a.dtype), a)
    if a.size == 0:
        # SciPy: an empty sum is 0, so -inf (sign -1) in the reduced shape
        shape = list(a.shape)
        for ax in range(a.ndim) if axis is None else axis if isinstance(axis, tuple) else [axis]:
            shape[ax] = 1
        out = xp.full(tuple(shape), -xp.inf, dtype=a.dtype)
        sgn = xp.sign(out)
    else:
        # complex input: shifted by the largest real part (the log's imaginary part stays
        # SciPy's principal one); with return_sign the sign is the sum's phase, out real
        a_max = _shift(xp, xp.max(a.real if a.dtype.kind == "c" else a, axis=axis,
                                  keepdims=True))
        e = xp.exp(a - a_max)
        if b is not None:
            e = b * e
        s = xp.sum(e, axis=axis, keepdims=True)
        if return_sign:
            sgn = xp.sign(s) if s.dtype.kind != "c" else s / xp.abs(s)
            s = xp.abs(s)
        out = xp.log(s) + a_max
    if not keepdims:
        out = _squeeze(xp, out, axis, a.ndim)
        if return_sign:
            sgn = _squeeze(xp, sgn, axis, a.ndim)
    return (out, sgn) if return_sign else out


def softmax(x, axis=None):
    """exp(x - max) / sum(exp(x - max)) along ``axis`` (scipy.special.softmax, whose maximum
    is not guarded: a row holding +inf comes out NaN, as SciPy's)."""
    xp = _np()
    x = xp.asarray(x)
    axis = _axis_key(axis, x.ndim)
    if x.dtype.kind == "c":
        raise TypeError("npgpu.scipy.special: complex input is not supported")
    if x.dtype.kind != "f" or x.size == 0:
        e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
        return e / xp.sum(e, axis=axis, keepdims=True)
    return _fused("softmax", axis)(x)


def log_softmax(x, axis=None):
    """x - logsumexp(x) along ``axis`` (scipy.special.log_softmax)."""
    xp = _np()
    x = xp.asarray(x)
    axis = _axis_key(axis, x.ndim)
    if x.dtype.kind == "c":
        raise TypeError("npgpu.scipy.special: complex input is not supported")
    shift = xp.max(x, axis=axis, keepdims=True)
    if x.dtype.kind != "f" or x.size == 0:
        t = x - (shift if x.dtype.kind != "f" else _shift(xp, shift))
        return t - xp.log(xp.sum(xp.exp(t), axis=axis, keepdims=True))
    return _fused("log_softmax", axis)(x, _shift(xp, shift))
