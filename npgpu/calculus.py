"""Differences and integrals: gradient, trapezoid (NumPy's formulas and dtypes).

Each formula over array slices is one fused kernel (:mod:`npgpu.fusion`: the ufuncs NumPy
applies, with NumPy's rounding between them), written into its slice of the result.
"""
import builtins

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from ._core.layout import c_shape_text
from ._core.ndarray import empty_array, ndarray
from .creation import asarray
from .fusion import Fused
from .logic import ndim as _ndim
from .reductions import all as _all
from .reductions import diff
from .ufuncs import UFUNCS

_F64 = np.dtype(np.float64)

_DIFF_QUOTIENT = Fused(lambda f1, f0, h: (f1 - f0) / h, "diff_quotient")
_WEIGHTED3 = Fused(lambda a, f0, b, f1, c, f2: a * f0 + b * f1 + c * f2, "weighted3")
_TRAPEZOID = Fused(lambda d, y1, y0: d * (y1 + y0) / 2.0, "trapezoid")


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """``numpy.trapezoid``: the composite trapezoidal rule along ``axis`` (sample points ``x``
    or spacing ``dx``); one fused kernel and one sum."""
    y = asarray(y)
    if x is None:
        d = dx
    else:
        x = asarray(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * y.ndim
            shape[axis] = d.shape[0]
            d = d.reshape(shape)
        else:
            d = diff(x, axis=axis)
    nd = y.ndim
    slice1 = [slice(None)] * nd
    slice2 = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice2[axis] = slice(None, -1)
    y1 = y[tuple(slice1)]
    dshape = d.shape if isinstance(d, ndarray) else np.shape(d)
    try:
        np.broadcast_shapes(dshape, y1.shape)
    except ValueError:          # NumPy's message of its ``d * (y1 + y0)``
        raise ValueError("operands could not be broadcast together with shapes "
                         f"{c_shape_text(dshape)} {c_shape_text(y1.shape)} ") from None
    return _TRAPEZOID(d, y1, y[tuple(slice2)]).sum(axis)


def _spacings(f, axes, varargs):
    """Per axis a scalar spacing (host or 0-d device) or the 1-d differences of coordinates;
    a constant coordinate step becomes its scalar, as NumPy does (one bool read per array)."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and _ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    dx = list(varargs)
    for i, distances in enumerate(dx):
        distances = asarray(distances)
        if distances.ndim == 0:
            continue
        if distances.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(distances) != f.shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the corresponding "
                             "dimension")
        if distances.dtype.kind in "iu":     # no modular arithmetic in the differences
            distances = distances.astype(_F64)
        diffx = diff(distances)
        if builtins.bool(_all(UFUNCS["equal"](diffx, diffx[0]))):
            diffx = diffx[0]
        dx[i] = diffx
    return dx


def gradient(f, *varargs, axis=None, edge_order=1):
    """``numpy.gradient``: second-order central differences inside, first or second order
    one-sided differences at the edges; spacing by scalars or coordinate arrays per axis."""
    f = asarray(f)
    N = f.ndim
    axes = tuple(range(N)) if axis is None else normalize_axis_tuple(axis, N)
    dx = _spacings(f, axes, varargs)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f.dtype
    if otype.kind not in "fc":
        if otype.kind in "iu":
            f = f.astype(_F64)
        otype = _F64

    def at(pos, ax):
        idx = [slice(None)] * N
        idx[ax] = pos
        return tuple(idx)

    outvals = []
    for ax, ax_dx in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, "
                             "at least (edge_order + 1) elements are required.")
        if f.dtype.kind == "b":     # NumPy's first difference, ``f[2:] - f[:-2]``
            raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the "
                            "bitwise_xor, the `^` operator, or the logical_xor function instead.")
        out = empty_array(f.shape, otype)
        uniform = _ndim(ax_dx) == 0
        f0, f1, f2 = f[at(slice(None, -2), ax)], f[at(slice(1, -1), ax)], f[at(slice(2, None), ax)]
        if uniform:
            out[at(slice(1, -1), ax)] = _DIFF_QUOTIENT(f2, f0, 2. * ax_dx)
        else:
            dx1, dx2 = ax_dx[0:-1], ax_dx[1:]
            a = -(dx2) / (dx1 * (dx1 + dx2))
            b = (dx2 - dx1) / (dx1 * dx2)
            c = dx1 / (dx2 * (dx1 + dx2))
            shape = [1] * N
            shape[ax] = -1
            a, b, c = a.reshape(shape), b.reshape(shape), c.reshape(shape)
            out[at(slice(1, -1), ax)] = _WEIGHTED3(a, f0, b, f1, c, f2)
        if edge_order == 1:
            dx_0 = ax_dx if uniform else ax_dx[0]
            out[at(0, ax)] = _DIFF_QUOTIENT(f[at(1, ax)], f[at(0, ax)], dx_0)
            dx_n = ax_dx if uniform else ax_dx[-1]
            out[at(-1, ax)] = _DIFF_QUOTIENT(f[at(-1, ax)], f[at(-2, ax)], dx_n)
        else:
            if uniform:
                a, b, c = -1.5 / ax_dx, 2. / ax_dx, -0.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[0], ax_dx[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            out[at(0, ax)] = _WEIGHTED3(a, f[at(0, ax)], b, f[at(1, ax)], c, f[at(2, ax)])
            if uniform:
                a, b, c = 0.5 / ax_dx, -2. / ax_dx, 1.5 / ax_dx
            else:
                dx1, dx2 = ax_dx[-2], ax_dx[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[at(-1, ax)] = _WEIGHTED3(a, f[at(-3, ax)], b, f[at(-2, ax)], c, f[at(-1, ax)])
        outvals.append(out)
    return outvals[0] if len(axes) == 1 else tuple(outvals)
