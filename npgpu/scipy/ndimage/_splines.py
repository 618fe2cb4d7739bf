"""B-spline prefilter of ``scipy.ndimage`` (``spline_filter1d``, ``spline_filter``).

The filter of order 2-5 is SciPy's recursive one: a gain, then per pole a causal and an
anti-causal first-order recursion along each line, started from SciPy's exact (not truncated)
boundary sums of the mode.  One kernel per order renders it; one thread filters one line of a
float64 work array in place (lines along an axis of a C-contiguous array: consecutive threads
take neighbouring lines, so loads coalesce unless the axis is the last one).  The boundary
initialisation (mirror / wrap / reflect family) is a runtime argument, so the modes share the
kernel.
"""
import operator

import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ..._core.ndarray import ndarray
from ._filters import _check_types

_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)

# SciPy's poles of the B-spline prefilter per order (ni_splines.c's constants)
POLES = {
    2: (-0.171572875253809902396622551580603843,),
    3: (-0.267949192431122706472553658494127633,),
    4: (-0.361341225900220177092212841325675255, -0.013725429297339121360331226939128204),
    5: (-0.430575347099973791851434783493520110, -0.043096288203264653822712376822550182),
}

# boundary initialisation of the recursions: which family a mode's prefilter uses
INIT_MIRROR, INIT_WRAP, INIT_REFLECT = 0, 1, 2
_INIT_OF_MODE = {"mirror": INIT_MIRROR, "constant": INIT_MIRROR, "wrap": INIT_MIRROR,
                 "grid-constant": INIT_MIRROR, "grid-wrap": INIT_WRAP,
                 "nearest": INIT_REFLECT, "reflect": INIT_REFLECT, "grid-mirror": INIT_REFLECT}

_MODES = ("nearest", "wrap", "reflect", "grid-mirror", "mirror", "constant", "grid-wrap",
          "grid-constant")


def check_mode(mode):
    """SciPy's error for an unknown interpolation mode."""
    if not isinstance(mode, str) or mode not in _MODES:
        raise RuntimeError("boundary mode not supported")
    return mode


def _gain(poles):
    g = 1.0
    for z in poles:
        g *= (1.0 - z) * (1.0 - 1.0 / z)
    return g


def _render(order):
    poles = POLES[order]
    lines = [
        "def KERNEL(A, nlines, n, inner, init):",
        "    t = cuda.grid(1)",
        "    if t >= nlines:",
        "        return",
        "    o = t // inner",
        "    base = o * n * inner + (t - o * inner)",
        "    k = 0",
        "    while k < n:",
        f"        A[base + k * inner] = A[base + k * inner] * {_gain(poles)!r}",
        "        k += 1",
        "    last = base + (n - 1) * inner",
    ]
    for z in poles:
        zr = repr(z)
        lines += [
            f"    z = {zr}",
            "    if init == 0:",          # mirror: c[0] from the whole line, symmetric about 0
            "        zn1 = math.pow(z, float64(n - 1))",
            "        c0 = A[base] + zn1 * A[last]",
            "        zi = z",
            "        k = 1",
            "        while k < n - 1:",
            "            c0 += zi * (A[base + k * inner] + zn1 * A[base + (n - 1 - k) * inner])",
            "            zi *= z",
            "            k += 1",
            "        A[base] = c0 / (1.0 - zn1 * zn1)",
            "    elif init == 1:",        # grid-wrap: periodic sum
            "        c0 = A[base]",
            "        zi = z",
            "        k = 1",
            "        while k < n:",
            "            c0 += zi * A[base + (n - k) * inner]",
            "            zi *= z",
            "            k += 1",
            "        A[base] = c0 / (1.0 - zi)",
            "    else:",                  # reflect (half-sample symmetric)
            "        zn = math.pow(z, float64(n))",
            "        s = A[base] + zn * A[last]",
            "        zi = z",
            "        k = 1",
            # the sum reads the line's first value, not a partial sum (SciPy before 1.18 summed
            # into c[0] in place: wrong on short lines, scipy/scipy#24615)
            "        while k < n:",
            "            s += zi * (A[base + k * inner] + zn * A[base + (n - 1 - k) * inner])",
            "            zi *= z",
            "            k += 1",
            "        A[base] = A[base] + s * (z / (1.0 - zn * zn))",
            "    prev = A[base]",
            "    k = 1",
            "    while k < n:",
            "        prev = A[base + k * inner] + z * prev",
            "        A[base + k * inner] = prev",
            "        k += 1",
            "    if init == 0:",
            "        A[last] = (z * A[last - inner] + A[last]) * z / (z * z - 1.0)",
            "    elif init == 1:",
            "        c1 = A[last]",
            "        zi = z",
            "        k = 0",
            "        while k < n - 1:",
            "            c1 += zi * A[base + k * inner]",
            "            zi *= z",
            "            k += 1",
            "        A[last] = c1 * (z / (zi - 1.0))",
            "    else:",
            "        A[last] = A[last] * (z / (z - 1.0))",
            "    nxt = A[last]",
            "    k = n - 2",
            "    while k >= 0:",
            "        nxt = z * (nxt - A[base + k * inner])",
            "        A[base + k * inner] = nxt",
            "        k -= 1",
        ]
    text = "\n".join(lines) + "\n"
    name = _ew._kernel_name(f"spline_prefilter{order}", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("array", _F64, 1, "C"), Param("scalar", _I64), Param("scalar", _I64),
              Param("scalar", _I64), Param("scalar", _I64)]
    return KernelSource(name, text, params)


_kernels = {}       # order -> the prefilter kernel (a repeat call skips get_kernel's key)
_BLOCK = 32 if _ew._SIM else 128


def filter_axis_inplace(work, order, axis, mode):
    """Prefilter C-contiguous float64 ``work`` along ``axis`` in place (orders 2-5)."""
    n = work.shape[axis]
    size = work.size
    if n <= 1 or size == 0:
        return
    inner = 1
    for s in work.shape[axis + 1:]:
        inner *= s
    nlines = size // n
    kern = _kernels.get(order)
    if kern is None:
        kern = _kernels[order] = compiler.get_kernel(("ndimage_spline_prefilter", order),
                                                     lambda: _render(order))
    kern(-(-nlines // _BLOCK), _BLOCK, [0, 0, size, 8, work._ptr, size, 8, nlines, n, inner,
                                        _INIT_OF_MODE[mode]])


def prefiltered(x, order, mode, axes=None):
    """A new C-contiguous float64 array: ``x`` prefiltered along ``axes`` (default all)."""
    work = x.astype(_F64, order="C", copy=True)
    for ax in (range(x.ndim) if axes is None else axes):
        filter_axis_inplace(work, order, ax, mode)
    return work


def output_of(output, x, complex_output, shape=None, line=False):
    """SciPy's ``_get_output``: None (x's dtype), a dtype, or an npgpu array of ``shape``.
    A dtype npgpu has no arrays of (object...) raises the error of SciPy's C loop: the spline
    filter's line loop names it (``line``), the interpolation's does not."""
    from ...creation import empty       # every caller writes the whole output
    shape = x.shape if shape is None else tuple(shape)
    if output is None:
        dt = x.dtype if not complex_output else np.promote_types(x.dtype, np.complex64)
        return empty(shape, dt)
    if isinstance(output, ndarray):
        if output.shape != shape:
            raise RuntimeError("output shape not correct")
        if complex_output and output.dtype.kind != "c":
            raise RuntimeError("output must have complex dtype")
        return output
    if isinstance(output, np.ndarray):      # npgpu never writes host memory implicitly
        raise TypeError("output must be an npgpu array or a dtype")
    if isinstance(output, str):
        dt = np.dtype(output)
        if complex_output and dt.kind != "c":
            raise RuntimeError("output must have complex dtype")
        if not issubclass(dt.type, np.number):
            raise RuntimeError("output must have numeric dtype")
        return empty(shape, dt)
    dt = np.dtype(output)
    if complex_output and dt.kind != "c":
        import warnings
        warnings.warn("promoting specified output dtype to complex", stacklevel=3)
        dt = np.promote_types(dt, np.complex64)
    if dt.kind not in "biufc":
        raise RuntimeError(f"array type {dt!r} not supported" if line else
                           "data type not supported")
    return empty(shape, dt)


def _filter(input, order, axes_of, output, mode, min_order):
    """The prefilter along ``axes_of(ndim)`` into ``output`` (SciPy's checks and dtypes)."""
    from ...creation import asarray
    if order < min_order or order > 5:
        raise RuntimeError("spline order not supported")
    x = asarray(input)
    cplx = x.dtype.kind == "c"
    out = output_of(output, x, cplx, line=True)
    if cplx:
        _filter(x.real, order, axes_of, out.real, mode, min_order)
        _filter(x.imag, order, axes_of, out.imag, mode, min_order)
        return out
    if order in (0, 1) or (x.ndim == 0 and min_order == 2):     # SciPy copies, unchecked
        out[...] = x
        return out
    check_mode(mode)
    axes = axes_of(x.ndim)
    operator.index(order)                   # SciPy's C argument parsing: an int order
    _check_types(x, out, True)
    work = x.astype(_F64, order="C", copy=True)
    # SciPy's next pass reads the output back; a bool output holds the stored bytes (249, ...)
    mid = work.astype(np.uint8) if out.dtype.kind == "b" else out
    for i, ax in enumerate(axes):
        filter_axis_inplace(work, order, ax, mode)
        if out.dtype != _F64 and i < len(axes) - 1:
            store(mid, work)
            work = mid.astype(_F64, order="C")
    store(out, work)
    return out


def store(out, work):
    """``out[...] = work`` (float64) as SciPy's C casts a double: integers truncated (x86's
    conversion: the low bits of the int64), a bool the truncated low byte (0.7 -> False,
    -7.9 -> True, 256.5 -> False)."""
    if out.dtype.kind in "biu":
        work = work.astype(_I64)
        if out.dtype.kind == "b":
            work = work.astype(np.uint8)
    out[...] = work


def spline_filter1d(input, order=3, axis=-1, output=np.float64, mode="mirror"):
    """``scipy.ndimage.spline_filter1d`` on npgpu arrays."""
    return _filter(input, order, lambda nd: [_normalize_axis(axis, nd)], output, mode, 0)


def spline_filter(input, order=3, output=np.float64, mode="mirror"):
    """``scipy.ndimage.spline_filter`` on npgpu arrays: the 1-D filter along every axis (the
    output's dtype is the intermediate one, as SciPy's axis-by-axis passes through it)."""
    return _filter(input, order, range, output, mode, 2)


def _normalize_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim)
    return axis % ndim
