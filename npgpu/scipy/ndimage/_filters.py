"""scipy.ndimage's filters on npgpu arrays, with SciPy's signatures, dtype rules and errors.

Linear separable filters (gaussian, uniform, sobel, prewitt, laplace and the 1-D ones) run one
``line`` launch per axis (``_filter_kernels.py``), except that the weighted passes of the last
two axes run as one launch of the fused template (``_separable2d.py``); n-D weights,
footprints and rank filters run one ``nd`` launch.  Multi-pass filters write each pass in
the output dtype, as SciPy does (so an integer output truncates between passes there too).
Weights are computed on the host (a few values) and uploaded once per distinct kernel.
"""
import functools
import numbers
import operator
import warnings
from collections.abc import Iterable

import numpy as np

from ..._core import layout as _layout
from ..._core.call_cache import plain_key
from ..._core.copy import may_overlap
from ..._core.ndarray import _new, empty_array, ndarray
from ...cuda import memory as _memory
from ...cuda import runtime as _rt
from . import _boundary
from . import _filter_kernels as _k
from . import _rank_small
from . import _separable2d
from ._image_launch import remember

__all__ = ["correlate1d", "convolve1d", "correlate", "convolve", "gaussian_filter1d",
           "gaussian_filter", "uniform_filter1d", "uniform_filter", "minimum_filter1d",
           "maximum_filter1d", "minimum_filter", "maximum_filter", "median_filter",
           "rank_filter", "percentile_filter", "sobel", "prewitt", "laplace",
           "gaussian_laplace", "gaussian_gradient_magnitude", "generic_laplace",
           "generic_gradient_magnitude"]


# ---- argument handling (SciPy's rules and messages) ----------------------------------------
def _array(x):
    if not isinstance(x, ndarray):
        from ...creation import asarray
        x = asarray(x)
    return x


def _complex_parts(f, input, output, cval):
    """SciPy's rule for a linear filter (real weights) of complex input: the real and the
    imaginary part filtered separately (cval's parts as their cval) into the parts of a complex
    output.  ``f(part, output_part, cval_part)``."""
    output = _complex_output(input, output)
    f(input.real, output.real, float(np.real(cval)))
    f(input.imag, output.imag, float(np.imag(cval)))
    return output


def _complex_weights(f, input, w, output, cval):
    """SciPy's rule for complex weights ``w`` (already conjugated where SciPy does): the output
    (complex) combined from real filters ``f(part, weights_part, output_or_None, cval_part)``
    of the real and imaginary parts."""
    output = _complex_output(input, output)
    if input.dtype.kind == "c":
        cr, ci = np.real(cval), np.imag(cval)
        f(input.real, w.real, output.real, cr)
        output.real[...] = output.real - f(input.imag, w.imag, None, ci)
        f(input.real, w.imag, output.imag, cr)
        output.imag[...] = output.imag + f(input.imag, w.real, None, ci)
    else:
        if np.iscomplexobj(cval):
            raise ValueError("Cannot provide a complex-valued cval when the input is real.")
        f(input, w.real, output.real, cval)
        f(input, w.imag, output.imag, cval)
    return output


def _complex_output(input, output):
    """SciPy's ``_get_output(output, input, complex_output=True)``."""
    if output is None:
        return empty_array(input.shape, np.promote_types(input.dtype, np.complex64))
    if isinstance(output, (type, np.dtype)):
        dt = np.dtype(output)
        if dt.kind != "c":
            warnings.warn("promoting specified output dtype to complex", stacklevel=4)
            dt = np.promote_types(dt, np.complex64)
        return empty_array(input.shape, dt)
    if isinstance(output, str):
        dt = np.dtype(output)
        if dt.kind != "c":
            raise RuntimeError("output must have complex dtype")
        return empty_array(input.shape, dt)
    output = _output(output, input, complex_ok=True)
    if output.dtype.kind != "c":
        raise RuntimeError("output must have complex dtype")
    return output


def _input(x):
    x = _array(x)
    if x.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    if x.dtype.kind not in "biuf":
        raise RuntimeError("array type not supported")
    return x


_SUPPORTED = frozenset("?bBhHiIlLqQfd")      # the dtypes SciPy's C filters read and write


def _check_types(src, dst, line):
    """SciPy's error for an input or output dtype its C filter does not take (float16,
    complex outputs of real filters...), raised where SciPy's C code raises it: at the pass.
    The 1-D line passes name the dtype; the n-D ones do not."""
    for a in (src, dst):
        if a.dtype.char not in _SUPPORTED:
            raise RuntimeError(f"array type {a.dtype!r} not supported" if line else
                               "array type not supported")


def _as_bool_output(run, output):
    """``run(dst)`` into ``output``; a bool output goes through a uint8 array, as SciPy stores
    a filter's double into an npy_bool (an unsigned char: 0.7 truncates to False, and each
    pass of a multi-pass filter keeps the truncated byte)."""
    if output.dtype != np.bool_:
        return run(output)
    from ...ufuncs import not_equal
    tmp = empty_array(output.shape, np.dtype(np.uint8))
    run(tmp)
    not_equal(tmp, 0, out=output)
    return output


def _output(output, input, shape=None, complex_ok=False):
    shape = input.shape if shape is None else shape
    if output is None:
        return empty_array(shape, input.dtype)
    if isinstance(output, (type, np.dtype)):
        return empty_array(shape, np.dtype(output))
    if isinstance(output, str):
        dt = np.dtype(output)
        if not issubclass(dt.type, np.number):
            raise RuntimeError("output must have numeric dtype")
        return empty_array(shape, dt)
    if not isinstance(output, ndarray):
        raise TypeError("output must be an npgpu array or a dtype")
    if output.shape != shape:
        raise RuntimeError("output shape not correct")
    return output


def _seq(x, rank):
    if not isinstance(x, str) and np.iterable(x):
        x = list(x)
        if len(x) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return x
    return [x] * rank


def _axes(axes, ndim):
    if axes is None:
        return tuple(range(ndim))
    if np.isscalar(axes):
        axes = (operator.index(axes),)
    elif isinstance(axes, Iterable):
        axes = tuple(operator.index(ax) for ax in axes)
        for ax in axes:
            if ax < -ndim or ax > ndim - 1:
                raise ValueError(f"specified axis: {ax} is out of range")
        axes = tuple(ax % ndim for ax in axes)
    else:
        raise ValueError("axes must be an integer, iterable of integers, or None")
    if len(set(axes)) != len(axes):
        raise ValueError("axes must be unique")
    return axes


def _axis(axis, ndim):
    from numpy.exceptions import AxisError
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise AxisError(axis, ndim)
    return axis % ndim


def _invalid_origin(origin, lenw):
    return origin < -(lenw // 2) or origin > (lenw - 1) // 2


def _expand_footprint(ndim, axes, fp, name="footprint"):
    if len(axes) < ndim:
        if fp.ndim != len(axes):
            raise RuntimeError(f"{name}.ndim ({fp.ndim}) must match len(axes) ({len(axes)})")
        fp = np.expand_dims(fp, tuple(ax for ax in range(ndim) if ax not in axes))
    return fp


def _expand_origin(ndim, axes, origin):
    origins = _seq(origin, len(axes))
    if len(axes) < ndim:
        full = [0] * ndim
        for o, ax in zip(origins, axes):
            full[ax] = o
        origins = full
    return [operator.index(o) for o in origins]


def _footprint_and_origins(ndim, axes, footprint, origin):
    """A footprint of ``len(axes)`` axes and its origins expanded to ``ndim`` axes, with
    SciPy's checks."""
    footprint = _expand_footprint(ndim, axes, footprint)
    origins = _expand_origin(ndim, axes, origin)
    fshape = [s for s in footprint.shape if s > 0]
    if len(fshape) != ndim:
        raise RuntimeError(f"footprint.ndim ({footprint.ndim}) must match len(axes) "
                           f"({len(axes)})")
    for o, lf in zip(origins, fshape):
        if lf // 2 + o < 0 or lf // 2 + o >= lf:
            raise ValueError("invalid origin")
    return footprint, origins


def _expand_mode(ndim, axes, mode):
    """SciPy's mode sequence of ``len(axes)`` entries expanded to ``ndim`` axes ('constant'
    on the others); a single mode as it is."""
    if not isinstance(mode, str) and isinstance(mode, Iterable):
        modes = _seq(mode, len(axes))
        full = ["constant"] * ndim
        for m, ax in zip(modes, axes):
            full[ax] = m
        return full
    return mode


def _single_mode(mode, what="A sequence of modes is not supported"):
    if not isinstance(mode, str) and isinstance(mode, Iterable):
        raise RuntimeError(what)
    _boundary.canonical(mode)
    return mode


# ---- passes -----------------------------------------------------------------------------------
def _copy_into(dst, src):
    from ..._core.copy import copy_into
    copy_into(dst, src)


def _contiguous(a):
    from ..._core.copy import copy
    return copy(a)


def _may_overlap(a, b):
    # distinct pool allocations never overlap: only views of one allocation (or foreign
    # memory) need the extent test
    if a._mem is not None and b._mem is not None and a._mem is not b._mem:
        return False
    return may_overlap(a, b)


def _line(op, src, dst, axis, weights, origin, mode, cval):
    """One 1-D pass into ``dst`` (through a temporary when ``dst`` overlaps ``src`` or does not
    collapse to the template's three axes)."""
    _check_types(src, dst, True)
    cval = _boundary.real_cval(cval)
    if dst.dtype == np.bool_:
        return _as_bool_output(lambda d: _line(op, src, d, axis, weights, origin, mode, cval),
                               dst)
    r = len(weights) // 2 + origin
    if not _may_overlap(src, dst) and _k.line_pass(op, src, dst, axis, weights, r, mode, cval):
        return dst
    tgt = empty_array(dst.shape, dst.dtype)
    if not _k.line_pass(op, src, tgt, axis, weights, r, mode, cval):
        _k.line_pass(op, _contiguous(src), tgt, axis, weights, r, mode, cval)
    _copy_into(dst, tgt)
    return dst


def _passes(op, input, output, plan, cval):
    """Run ``plan`` (list of (axis, weights, origin, mode)) one pass after the other, each
    written in the output dtype; no pass: ``output[...] = input``."""
    if not plan:
        _copy_into(output, input)
        return output
    _check_types(input, output, True)
    cval = _boundary.real_cval(cval)
    if output.dtype == np.bool_:
        return _as_bool_output(lambda d: _passes(op, input, d, plan, cval), output)
    # weighted passes along the last two axes, when they come last: one fused launch (their
    # intermediate never leaves the chip)
    fuse = op == "corr" and _separable2d.applies(input.ndim, plan[-2:])
    src = input
    for i, (axis, w, origin, mode) in enumerate(plan):
        if fuse and i == len(plan) - 2 and _fused(src, output, plan[i:], cval):
            return output
        dst = output if i == len(plan) - 1 else empty_array(output.shape, output.dtype)
        _line(op, src, dst, axis, w, origin, mode, cval)
        src = dst
    return output


def _fused(src, output, plan, cval):
    """The two passes of ``plan`` in one launch of the fused template into ``output``; False
    (nothing written) when the layout does not fit it."""
    tgt = empty_array(output.shape, output.dtype) if _may_overlap(src, output) else output
    if not _separable2d.fused_pass(src, tgt, plan, cval):
        return False
    if tgt is not output:
        _copy_into(output, tgt)
    return True


def _nd(op, input, output, footprint, weights, origins, mode, cval, rank=0):
    """One n-D pass over the taps where ``footprint`` (host bool, input.ndim axes) is set."""
    _boundary.canonical(mode)
    _check_types(input, output, False)
    cval = _boundary.real_cval(cval)
    if input.ndim == 0:              # the templates index at least one axis
        _nd(op, input.reshape((1,)), output.reshape((1,)), np.reshape(footprint, (1,)),
            None if weights is None else np.reshape(weights, (1,)), [0], mode, cval, rank)
        return output
    if output.dtype == np.bool_:
        return _as_bool_output(lambda d: _nd(op, input, d, footprint, weights, origins, mode,
                                             cval, rank), output)
    tgt = output
    if _may_overlap(input, output):
        tgt = empty_array(output.shape, output.dtype)
    _k.nd_pass(op, input, tgt, np.ascontiguousarray(footprint, dtype=bool), origins, weights,
               mode, cval, rank)
    if tgt is not output:
        _copy_into(output, tgt)
    return output


# ---- repeat calls ------------------------------------------------------------------------------
# A call is keyed by its function, the input's (and an output array's) layout and its arguments
# with their types (radius=2 and radius=2.0 differ: SciPy rejects the float); a repeat call
# replays what the first one worked out -- the passes and their weights, or the fused launch's
# values -- with the new arrays' pointers: one dict lookup, no argument parsing, no weights or
# table lookups.  Only plain Python arguments key a call (a NumPy scalar sigma computes its
# weights in its own precision); an entry is stored only after the first call succeeded, so
# every error still comes from the full path.
_calls = {}      # key -> (output dtype, nbytes, C strides, contiguity, run(src, dst))


def _call_key(fn, input, output, args):
    """The key of this call, or None when it is not replayable (unusual argument types)."""
    if type(input) is not ndarray:
        return None
    tagged = plain_key(tuple(args))
    if tagged is None:
        return None
    if output is None:
        ok = None
    elif type(output) is ndarray:
        ok = (output.shape, output._strides, output.dtype)
    elif isinstance(output, (type, np.dtype, str)):
        ok = ("dtype", output, type(output))
    else:
        return None
    # the route is in the key: tests (and benchmarks) switch it to compare the two
    return (fn, _separable2d.ROUTE, _rt.get_device_id(), input.shape, input._strides,
            input.dtype, ok, tagged)


def _replay_call(key, input, output):
    """The result of the call ``key`` replayed on these arrays, or None (not stored, or an
    output array that shares the input's memory: the full path checks the overlap)."""
    e = _calls.get(key)
    if e is None:
        return None
    dt, nbytes, strides, contig, run = e
    if type(output) is ndarray:
        if output._mem is None or input._mem is None or output._mem is input._mem:
            return None
        dst = output
    else:      # a new output straight from the pool (its layout computed once)
        mem = _memory.alloc(nbytes)
        dst = _new(mem, mem.ptr, input.shape, strides, dt, None, contig)
    run(input, dst)
    return dst


def _store_call(key, op, input, output, plan, cval):
    """Store the replay of a call that ran ``plan`` from ``input`` into ``output`` (a new
    array, or the caller's that does not share the input's memory)."""
    if key is None or (output._mem is input._mem) or input._mem is None or output._mem is None \
            or output.dtype == np.bool_:
        return
    steps = _launches(op, input, output, plan, cval) if input.size and plan else None
    if steps is not None:
        shape, dt = output.shape, output.dtype

        def run(src, dst):
            arrs = [src, dst]
            for kern, grid, block, values, si, di, _, a, b in steps:
                if b == len(arrs):         # a pass's intermediate, new each call (as _passes)
                    arrs.append(empty_array(shape, dt))
                v = list(values)
                v[si] = arrs[a]._ptr
                v[di] = arrs[b]._ptr
                kern(grid, block, v)
    else:
        def run(src, dst):
            _passes(op, src, dst, plan, cval)
    _store_run(key, output, run)


def _store_run(key, output, run):
    """Store ``run(src, dst)`` (the launches of a call that wrote ``output``) under ``key``,
    with the layout of a new output of its shape and dtype."""
    shape, isz = output.shape, output.itemsize
    strides = _layout.c_strides(shape, isz)
    remember(_calls, key, (output.dtype, output.size * isz, strides,
                           (True, _layout.is_f_contig(shape, strides, isz)), run))


def _launches(op, input, output, plan, cval):
    """The launches :func:`_passes` makes for ``plan`` from ``input`` into ``output`` (not
    sharing memory), each (kernel, grid, block, values, src pointer's index, dst pointer's
    index, weight tables, src array, dst array) -- arrays numbered 0 input, 1 output, 2.. the
    intermediates in order -- or None when a pass would go through a copy (a layout the
    templates do not take)."""
    fuse = op == "corr" and _separable2d.applies(input.ndim, plan[-2:])
    steps, src, a = [], input, 0
    for i, (axis, w, origin, mode) in enumerate(plan):
        if fuse and i == len(plan) - 2:
            t = _separable2d.fused_launch(src, output, plan[i:], cval)
            if t is not None:
                steps.append(t[:6] + (t[6], a, 1))
                return steps
        last = i == len(plan) - 1
        dst = output if last else empty_array(output.shape, output.dtype)
        t = _k.line_launch(op, src, dst, axis, w, len(w) // 2 + origin, mode, cval)
        if t is None:
            return None
        b = 1 if last else 2 + i
        steps.append(t[:6] + (t[6], a, b))
        src, a = dst, b
    return steps


# ---- correlate / convolve ------------------------------------------------------------------
def _weights1d(weights):
    w = np.asarray(weights.get() if isinstance(weights, ndarray) else weights)
    if w.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    w = w.astype(np.float64)
    if w.ndim != 1 or w.shape[0] < 1:
        raise RuntimeError("no filter weights given")
    return w


def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.correlate1d."""
    input = _array(input)
    wc = np.asarray(weights.get() if isinstance(weights, ndarray) else weights)
    if wc.dtype.kind == "c":         # as np.correlate: the weights conjugated
        return _complex_weights(lambda i, w, o, c: correlate1d(i, w, axis, o, mode, c, origin),
                                input, wc.conj().astype(np.complex128), output, cval)
    if input.dtype.kind == "c":
        return _complex_parts(lambda i, o, c: correlate1d(i, weights, axis, o, mode, c, origin),
                              input, output, cval)
    input = _input(input)
    w = _weights1d(weights)
    output = _output(output, input)
    axis = _axis(axis, input.ndim)
    if _invalid_origin(origin, len(w)):
        raise ValueError("Invalid origin; origin must satisfy -(len(weights) // 2) <= origin "
                         "<= (len(weights)-1) // 2")
    _boundary.canonical(mode)
    return _line("corr", input, output, axis, w, origin, mode, cval)


def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.convolve1d."""
    w = np.asarray(weights.get() if isinstance(weights, ndarray) else weights)[::-1]
    if w.dtype.kind == "c":          # conjugated here against correlate1d's conjugation
        w = w.conj()
    else:
        w = _weights1d(w)
    origin = -origin
    if not len(w) & 1:
        origin -= 1
    return correlate1d(input, w, axis, output, mode, cval, origin)


def _correlate_or_convolve(input, weights, output, mode, cval, origin, convolution, axes):
    input = _array(input)
    wc = np.asarray(weights.get() if isinstance(weights, ndarray) else weights)
    if wc.dtype.kind == "c":
        if not convolution:          # as np.correlate: the weights conjugated
            wc = wc.conj()
        return _complex_weights(lambda i, w, o, c: _correlate_or_convolve(
            i, w, o, mode, c, origin, convolution, axes), input, wc, output, cval)
    if input.dtype.kind == "c":
        return _complex_parts(lambda i, o, c: _correlate_or_convolve(
            i, weights, o, mode, c, origin, convolution, axes), input, output, cval)
    input = _input(input)
    w = np.asarray(weights.get() if isinstance(weights, ndarray) else weights)
    if w.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    w = w.astype(np.float64)
    axes = _axes(axes, input.ndim)
    w = _expand_footprint(input.ndim, axes, w, "weights")
    origins = _expand_origin(input.ndim, axes, origin)
    wshape = [s for s in w.shape if s > 0]
    if len(wshape) != input.ndim:
        raise RuntimeError(f"weights.ndim ({len(wshape)}) must match len(axes) ({len(axes)})")
    if convolution:
        w = w[(slice(None, None, -1),) * w.ndim]
        for i in range(len(origins)):
            origins[i] = -origins[i]
            if not w.shape[i] & 1:
                origins[i] -= 1
    for o, lw in zip(origins, wshape):
        if _invalid_origin(o, lw):
            raise ValueError("Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= "
                             "origin[k] <= (weights.shape[k]-1) // 2")
    output = _output(output, input)
    _single_mode(mode)
    # SciPy's footprint: the non-zero weights (a zero weight never reads its neighbour)
    if not (w != 0).any():           # no tap at all: SciPy's sums are 0
        _check_types(input, output, False)
        _boundary.real_cval(cval)
        output.fill(0)
        return output
    return _nd("corr", input, output, w != 0, w, origins, mode, cval)


def correlate(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.correlate."""
    return _correlate_or_convolve(input, weights, output, mode, cval, origin, False, axes)


def convolve(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.convolve."""
    return _correlate_or_convolve(input, weights, output, mode, cval, origin, True, axes)


# ---- gaussian ----------------------------------------------------------------------------------
def _gaussian_kernel1d(sigma, order, radius):
    """Weights of the ``order``-th derivative of a Gaussian sampled at -radius..radius: the
    normalised Gaussian times the polynomial q with (q phi)^(order) = q_order phi, built by
    q' + q * (-x / sigma^2) applied ``order`` times."""
    if order < 0:
        raise ValueError("order must be non-negative")
    s2 = sigma * sigma
    x = np.arange(-radius, radius + 1)
    phi = np.exp(-0.5 / s2 * x ** 2)
    phi = phi / phi.sum()
    if order == 0:
        return phi
    np.zeros(order + 1)       # SciPy's TypeError (and its message) for a non-integer order
    q = np.polynomial.Polynomial([1.0])
    for _ in range(order):
        q = q.deriv() + q * np.polynomial.Polynomial([0.0, -1.0 / s2])
    return q(x) * phi


def _gaussian_weights(sigma, order, truncate, radius):
    try:        # repeat calls (the common case) skip the host computation
        return _gaussian_weights_cached(sigma, order, truncate, radius)
    except TypeError as e:
        if "unhashable" not in str(e):
            raise
        return _gaussian_weights_cached.__wrapped__(sigma, order, truncate, radius)


# typed: radius=2.0 must not find radius=2's entry (SciPy rejects it), nor a float32 sigma
# (weights computed in float32) a float's
@functools.lru_cache(maxsize=256, typed=True)
def _gaussian_weights_cached(sigma, order, truncate, radius):
    sd = float(sigma)
    lw = int(truncate * sd + 0.5)
    if radius is not None:
        lw = radius
    if not isinstance(lw, numbers.Integral) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    w = np.ascontiguousarray(_gaussian_kernel1d(sigma, order, lw)[::-1])
    w.flags.writeable = False          # cached: shared by every call with these arguments
    return w


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0,
                      truncate=4.0, *, radius=None):
    """scipy.ndimage.gaussian_filter1d."""
    w = _gaussian_weights(sigma, order, truncate, radius)
    return correlate1d(input, w, axis, output, mode, cval, 0)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0, truncate=4.0,
                    *, radius=None, axes=None):
    """scipy.ndimage.gaussian_filter: one pass per axis whose sigma exceeds 1e-15."""
    key = _call_key("gaussian", input, output, (sigma, order, mode, cval, truncate, radius, axes))
    if key is not None:
        r = _replay_call(key, input, output)
        if r is not None:
            return r
    input = _array(input)
    if input.dtype.kind == "c":
        return _complex_parts(lambda i, o, c: gaussian_filter(
            i, sigma, order, o, mode, c, truncate, radius=radius, axes=axes), input, output, cval)
    input = _input(input)
    output = _output(output, input)
    axes = _axes(axes, input.ndim)
    n = len(axes)
    orders, sigmas, modes, radii = (_seq(order, n), _seq(sigma, n), _seq(mode, n),
                                    _seq(radius, n))
    plan = []
    for ax, s, o, m, r in zip(axes, sigmas, orders, modes, radii):
        if s > 1e-15:
            _boundary.canonical(m)
            plan.append((ax, _gaussian_weights(s, o, truncate, r), 0, m))
    _passes("corr", input, output, plan, cval)
    _store_call(key, "corr", input, output, plan, cval)
    return output


# ---- uniform, minimum, maximum -----------------------------------------------------------------
def _filter1d(op, input, size, axis, output, mode, cval, origin, what):
    input = _input(input)
    axis = _axis(axis, input.ndim)
    if size < 1:
        raise RuntimeError(what)
    output = _output(output, input)
    if size // 2 + origin < 0 or size // 2 + origin >= size:
        raise ValueError("invalid origin")
    _boundary.canonical(mode)
    size, origin = operator.index(size), operator.index(origin)
    return _line(op, input, output, axis, np.zeros(size), origin, mode, cval)


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.uniform_filter1d."""
    input = _array(input)
    if input.dtype.kind == "c":
        return _complex_parts(lambda i, o, c: uniform_filter1d(i, size, axis, o, mode, c, origin),
                              input, output, cval)
    return _filter1d("mean", input, size, axis, output, mode, cval, origin,
                     "incorrect filter size")


def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.minimum_filter1d."""
    return _filter1d("min", input, size, axis, output, mode, cval, origin,
                     "incorrect filter size")


def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    """scipy.ndimage.maximum_filter1d."""
    return _filter1d("max", input, size, axis, output, mode, cval, origin,
                     "incorrect filter size")


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    """scipy.ndimage.uniform_filter: one pass per axis whose size exceeds 1."""
    key = _call_key("uniform", input, output, (size, mode, cval, origin, axes))
    if key is not None:
        r = _replay_call(key, input, output)
        if r is not None:
            return r
    input = _array(input)
    if input.dtype.kind == "c":
        return _complex_parts(lambda i, o, c: uniform_filter(i, size, o, mode, c, origin,
                                                             axes=axes), input, output, cval)
    input = _input(input)
    output = _output(output, input)
    axes = _axes(axes, input.ndim)
    plan = _box_plan(axes, size, origin, mode)
    _passes("mean", input, output, plan, cval)
    _store_call(key, "mean", input, output, plan, cval)
    return output


def _box_plan(axes, size, origin, mode):
    """The passes of a box filter: one per axis whose size exceeds 1 (SciPy's checks)."""
    n = len(axes)
    plan = []
    for ax, s, o, m in zip(axes, _seq(size, n), _seq(origin, n), _seq(mode, n)):
        if s > 1:
            s = int(s)              # SciPy passes int(size) on to the 1-D filter
            if s // 2 + o < 0 or s // 2 + o >= s:
                raise ValueError("invalid origin")
            _boundary.canonical(m)
            o = operator.index(o)
            w = np.zeros(int(s))
            w.flags.writeable = False      # a repeat call's plan keeps it (line_pass's tables)
            plan.append((ax, w, o, m))
    return plan


def _min_or_max_filter(input, size, footprint, output, mode, cval, origin, op, axes):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint provided")
        separable = True
    else:
        footprint = np.asarray(footprint.get() if isinstance(footprint, ndarray) else footprint,
                               dtype=bool)
        if not footprint.any():
            raise ValueError("All-zero footprint is not supported.")
        separable = bool(footprint.all())
        if separable:
            size, footprint = footprint.shape, None
    input = _input(input)
    output = _output(output, input)
    axes = _axes(axes, input.ndim)
    if separable:
        return _passes(op, input, output, _box_plan(axes, size, origin, mode), cval)
    footprint, origins = _footprint_and_origins(input.ndim, axes, footprint, origin)
    _single_mode(mode, "A sequence of modes is not supported for non-separable footprints")
    return _nd(op, input, output, footprint, None, origins, mode, cval)


def minimum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                   origin=0, *, axes=None):
    """scipy.ndimage.minimum_filter (separable passes for a box, one n-D pass otherwise)."""
    return _min_or_max_filter(input, size, footprint, output, mode, cval, origin, "min", axes)


def maximum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                   origin=0, *, axes=None):
    """scipy.ndimage.maximum_filter."""
    return _min_or_max_filter(input, size, footprint, output, mode, cval, origin, "max", axes)


# ---- rank filters --------------------------------------------------------------------------
def _rank_filter(input, rank, size, footprint, output, mode, cval, origin, operation, axes,
                 key=None):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    input = _input(input)
    axes = _axes(axes, input.ndim)
    n = len(axes)
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint or filter size provided")
        footprint = np.ones(_seq(size, n), dtype=bool)
    else:
        footprint = np.asarray(footprint.get() if isinstance(footprint, ndarray) else footprint,
                               dtype=bool)
    footprint, origins = _footprint_and_origins(input.ndim, axes, footprint, origin)
    mode = _expand_mode(input.ndim, axes, mode)
    fsize = int(footprint.sum())
    if operation == "median":
        rank = fsize // 2
    elif operation == "percentile":
        pct = rank
        if pct < 0.0:
            pct += 100.0
        if pct < 0 or pct > 100:
            raise RuntimeError("invalid percentile")
        rank = fsize - 1 if pct == 100.0 else int(float(fsize) * pct / 100.0)
    rank = operator.index(rank)
    if rank < 0:
        rank += fsize
    if rank < 0 or rank >= fsize:
        raise RuntimeError("rank not within filter footprint size")
    if rank == 0 or rank == fsize - 1:
        return _min_or_max_filter(input, None, footprint, output, mode, cval, origins,
                                  "min" if rank == 0 else "max", None)
    output = _output(output, input)
    _single_mode(mode, "A sequence of modes is not supported by non-separable rank filters")
    _check_types(input, output, False)
    cval = _boundary.real_cval(cval)
    if output.dtype == np.bool_ and input.dtype != np.bool_:
        # (a bool input's rank kernels take a fractional cval SciPy's way themselves)
        return _as_bool_output(lambda d: _nd("rank", input, d, footprint, None, origins, mode,
                                             cval, rank), output)
    tgt = empty_array(output.shape, output.dtype) if _may_overlap(input, output) else output
    fp = np.ascontiguousarray(footprint, dtype=bool)
    if _rank_small.rank_pass(input, tgt, fp, origins, mode, cval, rank):
        # small windows: one kernel per footprint
        if tgt is not output:
            _copy_into(output, tgt)
        elif key is not None and input._mem is not None and input._mem is not output._mem:
            def run(src, dst):
                if not _rank_small.rank_pass(src, dst, fp, origins, mode, cval, rank):
                    _nd("rank", src, dst, fp, None, origins, mode, cval, rank)
            _store_run(key, output, run)
        return output
    return _nd("rank", input, output, footprint, None, origins, mode, cval, rank)


def rank_filter(input, rank, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                origin=0, *, axes=None):
    """scipy.ndimage.rank_filter."""
    return _rank_filter(input, rank, size, footprint, output, mode, cval, origin, "rank", axes)


def median_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                  origin=0, *, axes=None):
    """scipy.ndimage.median_filter."""
    key = None
    if footprint is None:
        key = _call_key("median", input, output, (size, mode, cval, origin, axes))
        if key is not None:
            r = _replay_call(key, input, output)
            if r is not None:
                return r
    return _rank_filter(input, 0, size, footprint, output, mode, cval, origin, "median", axes,
                        key)


def percentile_filter(input, percentile, size=None, footprint=None, output=None,
                      mode="reflect", cval=0.0, origin=0, *, axes=None):
    """scipy.ndimage.percentile_filter."""
    return _rank_filter(input, percentile, size, footprint, output, mode, cval, origin,
                        "percentile", axes)


# ---- derivatives ---------------------------------------------------------------------------
def _edge(input, axis, output, mode, cval, diff, smooth):
    input = _array(input)
    if input.dtype.kind == "c":
        return _complex_parts(lambda i, o, c: _edge(i, axis, o, mode, c, diff, smooth), input,
                              output, cval)
    input = _input(input)
    axis = _axis(axis, input.ndim)
    output = _output(output, input)
    modes = _seq(mode, input.ndim)
    plan = [(axis, np.array(diff, np.float64), 0, modes[axis])]
    plan += [(ax, np.array(smooth, np.float64), 0, modes[ax])
             for ax in range(input.ndim) if ax != axis]
    for p in plan:
        _boundary.canonical(p[3])
    return _passes("corr", input, output, plan, cval)


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """scipy.ndimage.sobel."""
    return _edge(input, axis, output, mode, cval, [-1, 0, 1], [1, 2, 1])


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    """scipy.ndimage.prewitt."""
    return _edge(input, axis, output, mode, cval, [-1, 0, 1], [1, 1, 1])


def _sum_over_axes(input, derivative, output, mode, cval, extra_arguments, extra_keywords,
                   axes, square):
    """SciPy's generic_laplace (``square`` False) and generic_gradient_magnitude (True): the
    sum over ``axes`` of ``derivative`` (squared, then the square root of the sum)."""
    from ...ufuncs import add, multiply, sqrt
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = _array(input)
    if input.dtype.kind != "c":
        input = _input(input)
    output = _output(output, input, complex_ok=True)
    axes = _axes(axes, input.ndim)
    if not axes:
        _copy_into(output, input)
        return output
    modes = _seq(mode, len(axes))
    for i, (ax, m) in enumerate(zip(axes, modes)):
        tmp = derivative(input, ax, output if i == 0 else output.dtype, m, cval,
                         *extra_arguments, **extra_keywords)
        if i == 0:
            tmp = output            # SciPy reads the first derivative from output
        if square:
            multiply(tmp, tmp, out=tmp, casting="unsafe")
        if i:
            add(output, tmp, out=output, casting="unsafe")
    if square:
        sqrt(output, out=output, casting="unsafe")
    return output


def generic_laplace(input, derivative2, output=None, mode="reflect", cval=0.0,
                    extra_arguments=(), extra_keywords=None, *, axes=None):
    """scipy.ndimage.generic_laplace: the sum over ``axes`` of ``derivative2``."""
    return _sum_over_axes(input, derivative2, output, mode, cval, extra_arguments,
                          extra_keywords, axes, False)


def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None):
    """scipy.ndimage.laplace."""
    def d2(input, axis, output, mode, cval):
        return correlate1d(input, [1, -2, 1], axis, output, mode, cval, 0)
    return generic_laplace(input, d2, output, mode, cval, axes=axes)


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None,
                     **kwargs):
    """scipy.ndimage.gaussian_laplace."""
    input = _array(input)

    def d2(input, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * input.ndim
        order[axis] = 2
        return gaussian_filter(input, sigma, order, output, mode, cval, **kwargs)

    axes = _axes(axes, input.ndim)
    sigma = _seq(sigma, len(axes))
    full = [0.0] * input.ndim
    for ax, s in zip(axes, sigma):
        full[ax] = s
    return generic_laplace(input, d2, output, mode, cval, extra_arguments=(full,),
                           extra_keywords=kwargs, axes=axes)


def generic_gradient_magnitude(input, derivative, output=None, mode="reflect", cval=0.0,
                               extra_arguments=(), extra_keywords=None, *, axes=None):
    """scipy.ndimage.generic_gradient_magnitude: sqrt of the sum over ``axes`` of the squared
    ``derivative``."""
    return _sum_over_axes(input, derivative, output, mode, cval, extra_arguments,
                          extra_keywords, axes, True)


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *,
                                axes=None, **kwargs):
    """scipy.ndimage.gaussian_gradient_magnitude."""
    input = _array(input)

    def d1(input, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * input.ndim
        order[axis] = 1
        return gaussian_filter(input, sigma, order, output, mode, cval, **kwargs)

    return generic_gradient_magnitude(input, d1, output, mode, cval, extra_arguments=(sigma,),
                                      extra_keywords=kwargs, axes=axes)
