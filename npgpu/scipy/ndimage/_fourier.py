"""scipy.ndimage's Fourier-domain filters (``fourier_gaussian``, ``fourier_uniform``,
``fourier_ellipsoid``, ``fourier_shift``) composed from npgpu's elementwise operations: no
kernels of their own, nothing copied to the host.

The input is a transform.  Along an axis of ``m`` terms the term ``j`` has the frequency index
``j`` for ``j < (m + 1) // 2`` and ``j - m`` after (``fft``'s order), and the filter's scale is
``m``; along ``axis`` with ``n >= 0`` the input is ``rfft`` output of ``n`` samples: the index
is ``j`` and the scale ``n``.  Each filter is a table per axis (a function of the index, a 1-D
device vector from ``arange``), combined over the axes by broadcasting and multiplied into the
input in float64, with SciPy's C formulas in its order of operations:

* gaussian: ``exp(-2 (pi sigma / m)**2 k**2)``, 0 where the exponent is below -50;
* uniform: ``sin(t k) / (t k)``, ``t = pi size / m`` (1 at ``k = 0``, 0 elsewhere if ``t <= 0``);
* ellipsoid (rank 1-3): ``r`` the norm of ``(pi size_d k_d / m_d)``; ``sin(r) / r`` (1-D),
  ``2 J1(r) / r`` (2-D), ``3 (sin r - r cos r) / r**3`` (3-D), 1 at ``r = 0``;
* shift: the phase ``sum_d -2 pi shift_d k_d / m_d``, a complex rotation of the input.

Axes of one term take no gaussian / uniform / shift table (SciPy's factor there is 1).
"""
import operator

import numpy as np
from numpy.exceptions import AxisError

from ..._core.ndarray import empty_array, ndarray
from ._filters import _seq
from ._morphology import device

__all__ = ["fourier_gaussian", "fourier_uniform", "fourier_ellipsoid", "fourier_shift"]

_F64 = np.dtype(np.float64)
_REAL = frozenset("?bBhHiIlLqQfd")      # the real input types SciPy's C loops read
_COMPLEX = frozenset("FD")
_REAL_OUT_TYPES = (np.float32, np.float64)
_COMPLEX_OUT_TYPES = (np.complex64, np.complex128)


# ---- arguments (SciPy's rules, order and messages) ------------------------------------------
def _output(output, x, complex_result):
    """SciPy's ``_get_output_fourier`` (``_complex`` when ``complex_result``): the result's
    dtype, or the caller's npgpu array."""
    if output is None:
        keep = _COMPLEX_OUT_TYPES + (() if complex_result else (np.float32,))
        if x.dtype.type in keep:
            return x.dtype
        return np.dtype(np.complex128 if complex_result else np.float64)
    if type(output) is type:            # a scalar type (np.float32), not a dtype instance
        if output not in _COMPLEX_OUT_TYPES + (() if complex_result else _REAL_OUT_TYPES):
            raise RuntimeError("output type not supported")
        return np.dtype(output)
    if isinstance(output, np.ndarray):
        raise TypeError("output must be an npgpu array or a dtype")
    # SciPy's test for anything else: a np.dtype (shape ()) fails here, a str has no shape
    if output.shape != x.shape:
        raise RuntimeError("output shape not correct")
    return output


def _axis(axis, ndim):
    """SciPy's ``normalize_axis_index`` (comparisons first: ``None`` fails as SciPy's does)."""
    if axis < -ndim or axis >= ndim:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis + ndim if axis < 0 else axis


def _arguments(x, values, n, axis):
    """Checked arguments after the output's: (axis, per-axis float64 values, n)."""
    axis = _axis(axis, x.ndim)
    values = np.asarray(_seq(values, x.ndim), dtype=np.float64)
    # SciPy's C call takes both as C integers
    return operator.index(axis), values, operator.index(n)


def _check_types(x, out, complex_result):
    """SciPy's C loop's errors (raised at its first element: not for an empty input)."""
    if x.size == 0:
        return
    dt = out.dtype if isinstance(out, ndarray) else out
    ok = _COMPLEX if complex_result or x.dtype.char in _COMPLEX else _COMPLEX | frozenset("fd")
    if x.dtype.char not in _REAL | _COMPLEX or dt.char not in ok:
        raise RuntimeError("data type not supported")


# ---- frequency tables -----------------------------------------------------------------------
def _index(m, real):
    """The frequency indices of an axis of ``m`` terms: a float64 device vector."""
    from ...creation import arange
    from ...logic import where
    k = arange(m, dtype=_F64)
    return k if real else where(k < (m + 1) // 2, k, k - m)


def _axes(x, axis, n, every_axis=False):
    """Per axis with a table: (axis, its indices as a broadcastable device array, its scale).
    ``every_axis``: axes of one term too (the ellipsoid's norm includes them)."""
    for d, m in enumerate(x.shape):
        if m > 1 or every_axis:
            real = d == axis and n >= 0
            shape = [1] * x.ndim
            shape[d] = m
            yield d, _index(m, real).reshape(shape), np.float64(n if real else m)


def _product(tables):
    """The tables' product over the axes in axis order (SciPy's), or None without tables."""
    out = None
    for t in tables:
        out = t if out is None else out * t
    return out


def _apply(x, factor, out):
    """``x`` times the real float64 ``factor`` (broadcast; None: 1) into ``out``."""
    if factor is None:
        factor = np.float64(1.0)
    if x.dtype.kind == "c":
        return _store(out, x.shape, x.real * factor, x.imag * factor)
    return _store(out, x.shape, x * factor, None)


def _store(out, shape, re, im):
    """The result (``re``, ``im``: float64, ``im`` None for a real one) in the output."""
    if not isinstance(out, ndarray):
        if im is None and out == _F64 and re.shape == shape:
            return re
        out = empty_array(shape, out)
    if im is None:
        out[...] = re
    else:
        out.real[...] = re
        out.imag[...] = im
    return out


def _empty_result(x, out):
    if isinstance(out, ndarray):
        return out
    from ...creation import zeros
    return zeros(x.shape, out)


def _prepare(input, values, n, axis, output, complex_result):
    """(x, out, axis, per-axis values, n) after SciPy's checks, or (x, out, None, None, None)
    for an empty input (whose result is ready: ``_empty_result``)."""
    x = device(input)
    out = _output(output, x, complex_result)
    axis, vals, n = _arguments(x, values, n, axis)
    _check_types(x, out, complex_result)
    return x, out, axis, vals, n


# ---- public ---------------------------------------------------------------------------------
def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    """``scipy.ndimage.fourier_gaussian``: the transform ``input`` times the transform of a
    gaussian of standard deviation ``sigma`` (one or one per axis)."""
    from ...logic import where
    from ...ufuncs import absolute, exp
    x, out, axis, sigmas, n = _prepare(input, sigma, n, axis, output, False)
    if x.size == 0:
        return _empty_result(x, out)

    def table(d, k, scale):
        with np.errstate(all="ignore"):         # n = 0: SciPy's C division gives inf / nan
            p = sigmas[d] * np.pi / scale
            p = -2.0 * p * p
        t = p * k * k
        return where(absolute(t) > 50.0, 0.0, exp(t))
    return _apply(x, _product(table(*a) for a in _axes(x, axis, n)), out)


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    """``scipy.ndimage.fourier_uniform``: the transform ``input`` times the transform of a
    box of ``size`` (one or one per axis)."""
    from ...logic import where
    from ...ufuncs import sin
    x, out, axis, sizes, n = _prepare(input, size, n, axis, output, False)
    if x.size == 0:
        return _empty_result(x, out)

    def table(d, k, scale):
        with np.errstate(all="ignore"):
            t = np.pi * sizes[d] / scale
        if not t > 0.0:                         # SciPy: 0 off the zero frequency (NaN too)
            return where(k == 0.0, 1.0, 0.0)
        a = t * k
        return where(k == 0.0, 1.0, sin(a) / where(k == 0.0, 1.0, a))
    return _apply(x, _product(table(*a) for a in _axes(x, axis, n)), out)


def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    """``scipy.ndimage.fourier_ellipsoid``: the transform ``input`` times the transform of an
    ellipsoid of semi-axes ``size`` (one or one per axis); inputs of rank 1 to 3."""
    from ...logic import where
    from ...ufuncs import cos, sin, sqrt
    x = device(input)
    if x.ndim > 3:
        raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    out = _output(output, x, False)
    if x.size == 0:                             # SciPy returns before its other checks
        return _empty_result(x, out)
    axis, sizes, n = _arguments(x, size, n, axis)
    _check_types(x, out, False)
    comps = []
    for d, k, scale in _axes(x, axis, n, every_axis=True):
        with np.errstate(all="ignore"):
            t = np.pi * sizes[d] / scale
        comps.append(k * t)
    if x.ndim == 1:
        v = comps[0]
        factor = where(v != 0.0, sin(v) / where(v != 0.0, v, 1.0), 1.0)
    else:
        r2 = None
        for c in comps:                          # SciPy's sum of squares, in axis order
            r2 = c * c if r2 is None else r2 + c * c
        r = sqrt(r2)
        rs = where(r > 0.0, r, 1.0)
        if x.ndim == 2:
            from ..special import j1
            v = 2.0 * j1(rs) / rs
        else:
            v = 3.0 * (sin(rs) - rs * cos(rs)) / (rs * rs * rs)
        factor = where(r > 0.0, v, 1.0)
    return _apply(x, factor, out)


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    """``scipy.ndimage.fourier_shift``: the transform ``input`` times ``exp(-2 pi i k shift /
    m)`` summed over the axes (a shift by ``shift``, one or one per axis); a complex result."""
    from ...creation import zeros
    from ...ufuncs import cos, sin
    x, out, axis, shifts, n = _prepare(input, shift, n, axis, output, True)
    if x.size == 0:
        return _empty_result(x, out)
    phase = zeros((), _F64)                     # SciPy starts its sum at 0.0
    for d, k, scale in _axes(x, axis, n):
        with np.errstate(all="ignore"):
            s = -2.0 * np.pi * shifts[d] / scale
        phase = phase + s * k
    c, s = cos(phase), sin(phase)
    if x.dtype.kind == "c":
        re, im = x.real, x.imag
        return _store(out, x.shape, re * c - im * s, re * s + im * c)
    return _store(out, x.shape, x * c, x * s)
