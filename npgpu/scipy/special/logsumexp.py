"""logsumexp, softmax and log_softmax from npgpu's reductions and ``@npgpu.fuse``.

Each reads its input as few times as the formula allows (H200, (2^14, 2^14) float32 along
axis 1: the unfused compositions took 1.80 ms (logsumexp) and 2.75 ms (softmax) against
PyTorch's 1.83 / 0.66 ms):

* softmax is SciPy's formula, ``exp(x - max) / sum(exp(x - max))``, as one fused function:
  along the last axis that is npgpu.fuse's row form (one kernel: each row read once, written
  once), along other axes a max, a sum with ``exp(x - max)`` as its map, and one elementwise
  pass;
* logsumexp is SciPy 1.17's formula, one fused function: the maximum ``a_max``, then a
  reduction that sums ``exp(a - a_max)`` over the elements below the maximum as the real part
  and counts the maximum's ties ``m`` as the imaginary part of a complex sum,
  so that ``log1p(s / m) + log(m) + a_max`` keeps the relative accuracy of results near 0
  (``logsumexp([0, -40])`` is 4.2e-18, where ``log(1 + s)`` gives 0), finished on the per-row
  values; along the last axis npgpu.fuse's row form reads each row once (one kernel),
  otherwise the maximum and the sum read ``a`` once each;
* log_softmax is ``(x - shift) - log(sum(exp(x - shift)))``, the shift the maximum where it is
  finite: along the last axis one kernel (each row read once, written once).

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

    if kind == "logsumexp":
        # the maximum, a sum whose real part is exp(a - a_max) of the elements below the
        # maximum and whose imaginary part counts its ties, and SciPy's finishing step (the
        # parts are float32 for float16 input, a's dtype in the end)
        def f(a):
            a_max = xp.max(a, axis=axis, keepdims=True)
            top = a == a_max
            e = xp.where(top, 0, xp.exp(a - a_max))
            sm = xp.sum(e + top.astype(a.dtype) * 1j, axis=axis, keepdims=True)
            s, m = sm.real, sm.imag
            out = xp.log1p(xp.where(s == 0, s, s / m)) + xp.log(m) + a_max
            return out.astype(a.dtype)
    elif kind == "softmax":
        def f(x):
            e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
            return e / xp.sum(e, axis=axis, keepdims=True)
    else:                                   # log_softmax
        def f(x):
            t = x - _shift(xp, xp.max(x, axis=axis, keepdims=True))
            return t - xp.log(xp.sum(xp.exp(t), axis=axis, keepdims=True))
    f = _FUSED[(kind, axis)] = xp.fuse(f, kernel_name=kind)
    return f


def _squeeze(xp, v, axis, ndim):
    return xp.squeeze(v, axis=tuple(range(ndim)) if axis is None else axis)


def _max_and_ties(xp, a, axis):
    """SciPy's maximum and its positions: real input, the maximum and every element equal to
    it; complex input, the element of largest real part (of several, the last in C order)
    and its position alone."""
    if a.dtype.kind != "c":
        a_max = xp.max(a, axis=axis, keepdims=True)
        return a_max, a == a_max
    re = a.real
    top = re == xp.max(re, axis=axis, keepdims=True)
    i = xp.where(top, xp.arange(a.size).reshape(a.shape), -1)
    top = i == xp.max(i, axis=axis, keepdims=True)
    return xp.sum(xp.where(top, a, 0), axis=axis, keepdims=True, dtype=a.dtype), top


def _wrap_radians(xp, x):
    """x wrapped into (-pi, pi], exact where it is already inside (as SciPy)."""
    return xp.where(xp.abs(x) < xp.pi, x, -((-x + xp.pi) % (2 * xp.pi) - xp.pi))


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
        out = _fused("logsumexp", axis)(a)
        return out if keepdims else _squeeze(xp, out, axis, a.ndim)
    if a.size and not return_sign:
        # where the result is not finite SciPy takes log(sum(b * exp(a))) instead
        direct = xp.log(xp.sum(xp.exp(a) if b is None else b * xp.exp(a), axis=axis,
                               keepdims=True))
    elif a.size:
        direct = xp.sum(xp.exp(a) if b is None else b * xp.exp(a), axis=axis, keepdims=True)
        direct_sgn = xp.sign(direct)
        direct = xp.log(xp.abs(direct))
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
        # SciPy's steps: the maximum's terms (weights m) apart from the rest's sum s, so
        # log1p(s / m) + log(m) + a_max; the sign of the sum from s + 1 and m
        a_max, top = _max_and_ties(xp, a, axis)
        t = top.astype(a.dtype)
        m = xp.sum(t if b is None else b * t, axis=axis, keepdims=True, dtype=a.dtype)
        e = xp.exp(xp.where(top, xp.asarray(-xp.inf, dtype=a.dtype), a) - a_max)
        s = xp.sum(e if b is None else b * e, axis=axis, keepdims=True, dtype=a.dtype)
        s = xp.where(s == 0, s, s / m)
        sgn = xp.sign(s + 1) * xp.sign(m)
        if a.dtype.kind == "c":
            sgn = sgn * xp.exp(a_max.imag * 1j)
        else:
            s = xp.where(s < -1, -s - 2, s)
            m = xp.abs(m)
        out = xp.log1p(s) + xp.log(m) + a_max
        if return_sign:
            out = out.real
        elif a.dtype.kind != "c":
            out = xp.where(sgn < 0, xp.asarray(xp.nan, dtype=out.dtype), out)
        finite = xp.isfinite(out)
        out = xp.where(finite, out, direct)
        if return_sign:
            sgn = xp.where(finite, sgn, direct_sgn)
        if out.dtype.kind == "c":
            out = out.real + _wrap_radians(xp, out.imag) * 1j
        if return_sign and sgn.dtype.kind == "c":
            sgn = sgn.real + _wrap_radians(xp, sgn.imag) * 1j
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
    if x.dtype.kind != "f" or x.size == 0:
        t = x - xp.max(x, axis=axis, keepdims=True)
        return t - xp.log(xp.sum(xp.exp(t), axis=axis, keepdims=True))
    return _fused("log_softmax", axis)(x)
