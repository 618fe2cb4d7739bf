"""logsumexp, softmax and log_softmax from npgpu's ufuncs and reductions, shifted by the maximum
as SciPy does (no overflow in exp; a non-finite maximum shifts by 0)."""


def _np():
    import npgpu        # the public namespace; imported on call (it imports this module)
    return npgpu


def _shift(xp, a, axis):
    """The maximum along ``axis`` (kept dims), 0 where it is not finite (all -inf, inf, NaN)."""
    m = xp.max(a, axis=axis, keepdims=True)
    return xp.where(xp.isfinite(m), m, xp.zeros((), m.dtype))


def _float(xp, a):
    a = xp.asarray(a)
    if a.dtype.kind in "biu":       # SciPy computes integers in float64
        a = a.astype(xp.float64)
    elif a.dtype.kind == "c":
        raise TypeError("npgpu.scipy.special: complex input is not supported")
    return a


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) along ``axis`` (scipy.special.logsumexp); with ``return_sign`` the
    log of the absolute value and the sign of the sum."""
    xp = _np()
    a = _float(xp, a)
    if b is not None:
        b = xp.asarray(b)
        a, b = xp.broadcast_arrays(a, b)
        # elements with weight 0 add nothing, even where a is inf or NaN (as SciPy)
        a = xp.where(b == 0, xp.asarray(-xp.inf, dtype=a.dtype), a)
    if a.size == 0 and axis is None:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    a_max = _shift(xp, a, axis)
    e = xp.exp(a - a_max)
    if b is not None:
        e = b * e
    s = xp.sum(e, axis=axis, keepdims=True)
    if return_sign:
        sgn = xp.sign(s)
        s = xp.abs(s)
    out = xp.log(s) + a_max
    if not keepdims:
        red = tuple(range(a.ndim)) if axis is None else axis
        out = xp.squeeze(out, axis=red)
        if return_sign:
            sgn = xp.squeeze(sgn, axis=red)
    return (out, sgn) if return_sign else out


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) along ``axis`` (scipy.special.softmax)."""
    xp = _np()
    x = _float(xp, x)
    e = xp.exp(x - _shift(xp, x, axis))
    return e / xp.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """x - logsumexp(x) along ``axis`` (scipy.special.log_softmax)."""
    xp = _np()
    x = _float(xp, x)
    t = x - _shift(xp, x, axis)
    return t - xp.log(xp.sum(xp.exp(t), axis=axis, keepdims=True))
