"""``scipy.ndimage`` interpolation on npgpu arrays: map_coordinates, affine_transform, shift,
zoom, rotate (and the prefilter of ``_splines``).

One kernel template computes every output point SciPy's way (``NI_GeometricTransform`` /
``NI_ZoomShift``): the input coordinate in float64 (from a coordinate array, an affine matrix,
or per-axis zoom and shift), SciPy's mapping of out-of-range coordinates per mode, the B-spline
weights of the order, the footprint's indices mapped at the edges (``mirror`` for 'constant'
and 'wrap', as SciPy does), the weighted sum in float64 and SciPy's rounding into integer
outputs.  Compile-time choices: the coordinate source, input and output ranks, the order and
the dtypes; the mode is a runtime argument (a few compares a point), so one kernel serves all
eight modes.  Threads: x runs along the output's last axis (coalesced stores), y along the
one before it, z over the rest (so a 2-D image needs no index division).  A leading batch
axis lets ``rotate`` transform every plane in one launch.
"""
import warnings

import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ..._core.ndarray import ndarray
from . import _splines
from ._splines import check_mode, output_of, spline_filter, spline_filter1d

__all__ = ["map_coordinates", "affine_transform", "shift", "zoom", "rotate",
           "spline_filter", "spline_filter1d"]

_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
# SciPy's mode codes (_ni_support._extend_mode_to_code)
_CODE = {"nearest": 0, "wrap": 1, "reflect": 2, "grid-mirror": 2, "mirror": 3, "constant": 4,
         "grid-wrap": 5, "grid-constant": 6}
_SUPPORTED = set("?bBhHiIlLqQfd")       # dtypes SciPy's C loops read and write

_MAP_COORD = '''
@cuda.jit(device=True)
def ndi_map_coord(x, n, mode):
    # SciPy's map_coordinate: an out-of-range coordinate folded back by the mode
    if x < 0.0:
        if n <= 1 and mode != 4:
            x = 0.0
        elif mode == 3:
            s2 = 2 * n - 2
            x = float64(s2 * int64(-x / s2)) + x
            x = x + float64(s2) if x <= float64(1 - n) else -x
        elif mode == 2:
            s2 = 2 * n
            if x < float64(-s2):
                x = float64(s2 * int64(-x / s2)) + x
            if x < float64(-n):
                x = x + float64(s2)
            else:
                x = (1e-15 if x > -1e-15 else -x) - 1.0
        elif mode == 1:
            sz = n - 1
            x += float64(sz * (int64(-x / sz) + 1))
        elif mode == 5:
            x += float64(n * (int64((-1.0 - x) / n) + 1))
        elif mode == 0:
            x = 0.0
        elif mode == 4:
            x = -1.0
    elif x > float64(n - 1):
        if n <= 1 and mode != 4:
            x = 0.0
        elif mode == 3:
            s2 = 2 * n - 2
            x -= float64(s2 * int64(x / s2))
            if x >= float64(n):
                x = float64(s2) - x
        elif mode == 2:
            s2 = 2 * n
            x -= float64(s2 * int64(x / s2))
            if x >= float64(n):
                x = float64(s2) - x - 1.0
        elif mode == 1:
            sz = n - 1
            x -= float64(sz * int64(x / sz))
        elif mode == 5:
            x -= float64(n * int64(x / n))
        elif mode == 0:
            x = float64(n - 1)
        elif mode == 4:
            x = -1.0
    return x
'''

# SciPy's B-spline weights (ni_splines.c), x already the offset from the middle knot
_WEIGHTS = {
    1: ["W[0] = 1.0 - x"],
    2: ["W[1] = 0.75 - x * x", "y = 0.5 - x", "W[0] = 0.5 * y * y"],
    3: ["W[1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0",
        "W[2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0",
        "W[0] = z * z * z / 6.0"],
    4: ["t = x * x",
        "W[2] = t * (t * 0.25 - 0.625) + 115.0 / 192.0",
        "y = 1.0 + x",
        "W[1] = y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0",
        "W[3] = z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0",
        "y = 0.5 - x", "t = y * y", "W[0] = t * t / 24.0"],
    5: ["t = y * y", "W[2] = t * (t * (0.25 - y / 12.0) - 0.5) + 0.55",
        "t = z * z", "W[3] = t * (t * (0.25 - z / 12.0) - 0.5) + 0.55",
        "y += 1.0",
        "W[1] = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425",
        "z += 1.0",
        "W[4] = z * (z * (z * (z * (z / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425",
        "y = 1.0 - x", "t = y * y", "W[0] = y * t * t / 120.0"],
}


def _weights_source(order):
    mid = "x" if order & 1 else "x + 0.5"
    body = [f"x = x - float64(math.floor({mid}))", "y = x", "z = 1.0 - x"]
    body += _WEIGHTS[order]
    body.append(f"W[{order}] = 1.0")
    body += [f"W[{order}] -= W[{i}]" for i in range(order)]
    return (f"@cuda.jit(device=True)\ndef ndi_weights{order}(x, W):\n"
            + "".join(f"    {ln}\n" for ln in body))


def _store(t, dt):
    """Lines storing float64 ``t`` into the output element, as SciPy's CASE_INTERP_OUT*."""
    if dt.kind == "f":
        return [f"val = {_ew.type_name(dt)}({t})"]
    if dt.kind == "b":          # SciPy casts to npy_bool, an unsigned char: truncation
        return [f"val = {t} >= 1.0"]
    info = np.iinfo(dt)
    hi = repr(float(info.max))
    if dt.kind == "u":
        lines = [f"rv = {t} + 0.5 if {t} > 0.0 else 0.0"]
        lines.append(f"rv = {hi} if rv > {hi} else rv")
    else:
        lo = repr(float(info.min))
        lines = [f"rv = {t} + 0.5 if {t} > 0.0 else {t} - 0.5",
                 f"rv = {hi} if rv > {hi} else rv", f"rv = {lo} if rv < {lo} else rv"]
    return lines + [f"val = {_ew.type_name(dt)}(rv)"]


def _render(kind, nin, nout, order, in_dt, out_dt, coord_dt):
    o1 = order + 1
    half = order // 2
    oidx = [f"o{k}" for k in range(nout)]
    params_p = []
    if kind == "affine":
        params_p = [f"p{i}" for i in range(nin * nout + nin)]
    elif kind == "zoom":
        params_p = [f"p{i}" for i in range(2 * nin)]
    args = ["OUT", "IN"] + (["COORD"] if kind == "map" else []) + \
        ["nz", "mode", "cval", "nprepad"] + (["grid"] if kind == "zoom" else []) + params_p
    L = [f"def KERNEL({', '.join(args)}):",
         "    j = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x",
         f"    olast = OUT.shape[{nout}]",
         "    if j >= olast:",
         "        return"]
    for k in range(nin):
        L.append(f"    I{k} = cuda.local.array({o1}, int64)")
        if order:
            L.append(f"    W{k} = cuda.local.array({o1}, float64)")
    # x: the last output axis; y: the one before it; z: the rest (batch first), flattened
    dims = ["b"] + oidx
    L += ["    spm = 3 if (mode == 4 or mode == 1) else mode",   # footprint mapping of SciPy
          f"    ny = OUT.shape[{nout - 1}]",
          "    z = cuda.blockIdx.z",
          "    while z < nz:",
          "      y = cuda.blockIdx.y",
          "      while y < ny:",
          "        r = z"]
    for d in range(nout - 2, 0, -1):
        L += [f"        {dims[d]} = r % OUT.shape[{d}]", f"        r = r // OUT.shape[{d}]"]
    if nout >= 2:
        L.append("        b = r")
    L += [f"        {dims[nout - 1]} = y", f"        {dims[nout]} = j"]
    for k in range(nin):
        if kind == "map":
            load = f"COORD[{k}, (z * ny + y) * olast + j]"
            L.append(f"        c{k} = {_ew.cast_expr(load, coord_dt, _F64)}")
        elif kind == "affine":
            L.append(f"        c{k} = 0.0")
            for m in range(nout):
                L.append(f"        c{k} += float64(o{m}) * p{k * nout + m}")
            L.append(f"        c{k} += p{nin * nout + k}")
        else:
            L += [f"        c{k} = float64(o{k}) + p{nin + k}",
                  "        if grid:",
                  f"            c{k} = (c{k} + 0.5) * p{k} - 0.5",
                  "        else:",
                  f"            c{k} = c{k} * p{k}"]
    L.append("        const = False")
    for k in range(nin):
        n = f"IN.shape[{k + 1}]"
        ind = "        "
        if k:
            L.append(f"{ind}if not const:")
            ind += "    "
        L += [f"{ind}cc = c{k} + nprepad",
              f"{ind}if mode != 6 and mode != 0:",
              f"{ind}    cc = ndi_map_coord(cc, {n}, mode)",
              f"{ind}if cc > -1.0 or mode == 6 or mode == 0:",
              f"{ind}    start = int64(math.floor({'cc' if order & 1 else 'cc + 0.5'})) - {half}"]
        if order:
            L.append(f"{ind}    ndi_weights{order}(cc, W{k})")
        L += [f"{ind}    edge = start < 0 or start + {order} >= {n}",
              f"{ind}    for q in range({o1}):",
              f"{ind}        idx = start + q",
              f"{ind}        if edge:",
              f"{ind}            if mode == 6:",
              f"{ind}                if idx < 0 or idx >= {n}:",
              f"{ind}                    idx = -1",
              f"{ind}            else:",
              f"{ind}                idx = int64(ndi_map_coord(float64(idx), {n}, spm))",
              f"{ind}        I{k}[q] = idx",
              f"{ind}else:",
              f"{ind}    const = True"]
    L += ["        if const:", "            t = cval", "        else:", "            t = 0.0"]
    ind = "            "
    for k in range(nin):
        L.append(f"{ind}for q{k} in range({o1}):")
        ind += "    "
    neg = " or ".join(f"I{k}[q{k}] < 0" for k in range(nin))
    load = _ew.cast_expr(f"IN[b, {', '.join(f'I{k}[q{k}]' for k in range(nin))}]", in_dt, _F64)
    L += [f"{ind}if {neg}:", f"{ind}    v = cval", f"{ind}else:", f"{ind}    v = {load}"]
    if order:
        L += [f"{ind}v = v * W{k}[q{k}]" for k in range(nin)]
    L.append(f"{ind}t += v")
    L += ["        " + ln for ln in _store("t", out_dt)]
    L += [f"        OUT[b, {', '.join(oidx)}] = val", "        y += cuda.gridDim.y",
          "      z += cuda.gridDim.z"]
    device = _MAP_COORD + ("\n" + _weights_source(order) if order else "")
    text = device + "\n\n" + "\n".join(L) + "\n"
    name = _ew._kernel_name(f"ndimage_{kind}{nin}d_order{order}", text)
    text = text.replace("def KERNEL(", f"def {name}(")
    params = [Param("array", out_dt, nout + 1, "A"), Param("array", in_dt, nin + 1, "A")]
    if kind == "map":
        params.append(Param("array", coord_dt, 2, "A"))
    params += [Param("scalar", _I64), Param("scalar", _I64), Param("scalar", _F64),
               Param("scalar", _F64)]
    if kind == "zoom":
        params.append(Param("scalar", _I64))
    params += [Param("scalar", _F64)] * len(params_p)
    return KernelSource(name, text, params)


def _arr(a):
    return [0, 0, a.size, a.itemsize, a._ptr, *a.shape, *a._strides]


def _launch(kind, src, out, order, mode, cval, npad, p=(), coords=None, grid=0):
    """Run the kernel: ``src`` (B, input dims...) -> ``out`` (B, output dims...)."""
    if out.size == 0:
        return
    if src.size == 0:           # nothing to sample (SciPy reads out of bounds here)
        out[...] = cval
        return
    nin, nout = src.ndim - 1, out.ndim - 1
    cdt = coords.dtype if coords is not None else None
    key = ("ndimage_interp", kind, nin, nout, order, src.dtype, out.dtype, cdt)
    kern = compiler.get_kernel(key, lambda: _render(kind, nin, nout, order, src.dtype,
                                                    out.dtype, cdt))
    ny = out.shape[-2]
    nz = out.size // (out.shape[-1] * ny)
    block = min(32 if _ew._SIM else 128, out.shape[-1])
    cap = 4 if _ew._SIM else 65535
    blocks = (-(-out.shape[-1] // block), min(ny, cap), min(nz, cap))
    vals = _arr(out) + _arr(src)
    if coords is not None:
        vals += _arr(coords)
    vals += [nz, _CODE[mode], float(cval), float(npad)]
    if kind == "zoom":
        vals.append(int(grid))
    vals += [float(v) for v in p]
    kern(blocks, (block, 1, 1), vals)


def _filtered(x, order, mode, cval, prefilter):
    """(B, ...)-shaped ``x`` -> (array the kernel reads, number of padded samples per side).

    Orders > 1 read SciPy's prefiltered float64 copy; 'nearest' and 'grid-constant' are padded
    by 12 samples first (as SciPy: their prefilter has no exact boundary)."""
    if not (prefilter and order > 1):
        return x, 0
    npad = 0
    if mode in ("nearest", "grid-constant"):
        from ...padding import pad
        npad = 12
        width = ((0, 0),) + ((npad, npad),) * (x.ndim - 1)
        x = pad(x, width, mode="edge") if mode == "nearest" else \
            pad(x, width, mode="constant", constant_values=cval)
    return _splines.prefiltered(x, order, mode, axes=range(1, x.ndim)), npad


def _check_order(order):
    if order < 0 or order > 5:
        raise RuntimeError("spline order not supported")


def _check_dtypes(x, out, order, prefilter):
    # SciPy's prefilter converts the input first and names the dtype; the C loops do not
    if x.dtype.char not in _SUPPORTED and prefilter and order > 1:
        raise RuntimeError(f"array type {x.dtype!r} not supported")
    for a in (x, out):
        if a.dtype.char not in _SUPPORTED:
            raise RuntimeError("data type not supported")


def _as_device(a):
    from ...creation import asarray
    return asarray(a)


def _host(v):
    return np.asarray(v.get() if isinstance(v, ndarray) else v, dtype=np.float64)


def _split_complex(fn, x, out, cval, *args, **kw):
    fn(x.real, *args, output=out.real, cval=np.real(cval), **kw)
    fn(x.imag, *args, output=out.imag, cval=np.imag(cval), **kw)
    return out


def _normalize_sequence(v, rank):
    if not isinstance(v, str) and np.iterable(v):
        v = list(_host(v)) if isinstance(v, ndarray) else list(v)
        if len(v) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return v
    return [v] * rank


def map_coordinates(input, coordinates, output=None, order=3, mode="constant", cval=0.0,
                    prefilter=True):
    """``scipy.ndimage.map_coordinates``: ``output[i] = input[coordinates[:, i]]`` by spline
    interpolation of ``order``."""
    _check_order(order)
    x = _as_device(input)
    c = _as_device(coordinates)
    if c.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    shape = c.shape[1:]
    if x.ndim < 1 or len(shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    if c.shape[0] != x.ndim:
        raise RuntimeError("invalid shape for coordinate array")
    out = output_of(output, x, x.dtype.kind == "c", shape)
    if x.dtype.kind == "c":
        return _split_complex(map_coordinates, x, out, cval, c, order=order, mode=mode,
                              prefilter=prefilter)
    check_mode(mode)
    if c.dtype.char not in _SUPPORTED:
        raise RuntimeError("coordinate array data type not supported")
    _check_dtypes(x, out, order, prefilter)
    src, npad = _filtered(x[None], order, mode, cval, prefilter)
    c2 = c.reshape((c.shape[0], -1))
    _launch("map", src, out[None], order, mode, cval, npad, coords=c2)
    return out


def affine_transform(input, matrix, offset=0.0, output_shape=None, output=None, order=3,
                     mode="constant", cval=0.0, prefilter=True):
    """``scipy.ndimage.affine_transform``: ``output[o] = input[matrix @ o + offset]``; matrix
    (ndim,) diagonal, (ndim, out ndim), or homogeneous (ndim[+1], ndim + 1)."""
    _check_order(order)
    x = _as_device(input)
    if output_shape is None:
        output_shape = output.shape if isinstance(output, ndarray) else x.shape
    output_shape = tuple(output_shape)
    if x.ndim < 1 or len(output_shape) < 1:
        raise RuntimeError("input and output rank must be > 0")
    out = output_of(output, x, x.dtype.kind == "c", output_shape)
    if x.dtype.kind == "c":
        return _split_complex(affine_transform, x, out, cval, matrix, offset=offset,
                              output_shape=output_shape, order=order, mode=mode,
                              prefilter=prefilter)
    check_mode(mode)
    _check_dtypes(x, out, order, prefilter)
    m = _host(matrix)
    if m.ndim not in (1, 2) or m.shape[0] < 1:
        raise RuntimeError("no proper affine matrix provided")
    if m.ndim == 2 and m.shape[1] == x.ndim + 1 and m.shape[0] in (x.ndim, x.ndim + 1):
        if m.shape[0] == x.ndim + 1:
            exptd = [0] * x.ndim + [1]
            if not np.all(m[x.ndim] == exptd):
                raise ValueError(f"Expected homogeneous transformation matrix with shape "
                                 f"{m.shape} for image shape {x.shape}, but bottom row was "
                                 f"not equal to {exptd}")
        offset = m[:x.ndim, x.ndim]
        m = m[:x.ndim, :x.ndim]
    if m.shape[0] != x.ndim:
        raise RuntimeError("affine matrix has wrong number of rows")
    if m.ndim == 2 and m.shape[1] != out.ndim:
        raise RuntimeError("affine matrix has wrong number of columns")
    off = np.asarray(_normalize_sequence(offset if not isinstance(offset, ndarray)
                                         else _host(offset), x.ndim), dtype=np.float64)
    if off.ndim != 1 or off.shape[0] < 1:
        raise RuntimeError("no proper offset provided")
    src, npad = _filtered(x[None], order, mode, cval, prefilter)
    if m.ndim == 1:
        if m.shape[0] != out.ndim:
            raise RuntimeError("affine matrix has wrong number of rows")
        with np.errstate(divide="ignore", invalid="ignore"):
            p = list(m) + list(off / m)
        _launch("zoom", src, out[None], order, mode, cval, npad, p)
    else:
        p = list(m.reshape(-1)) + list(off)
        _launch("affine", src, out[None], order, mode, cval, npad, p)
    return out


def shift(input, shift, output=None, order=3, mode="constant", cval=0.0, prefilter=True):
    """``scipy.ndimage.shift``: ``output[o] = input[o - shift]``."""
    _check_order(order)
    x = _as_device(input)
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    out = output_of(output, x, x.dtype.kind == "c")
    if x.dtype.kind == "c":
        return _split_complex(globals()["shift"], x, out, cval, shift, order=order, mode=mode,
                              prefilter=prefilter)
    check_mode(mode)
    _check_dtypes(x, out, order, prefilter)
    s = [-float(v) for v in _normalize_sequence(shift, x.ndim)]
    src, npad = _filtered(x[None], order, mode, cval, prefilter)
    _launch("zoom", src, out[None], order, mode, cval, npad, [1.0] * x.ndim + s)
    return out


def zoom(input, zoom, output=None, order=3, mode="constant", cval=0.0, prefilter=True, *,
         grid_mode=False):
    """``scipy.ndimage.zoom``: output shape ``round(shape * zoom)``; ``grid_mode`` zooms the
    pixel extents instead of the sample centres."""
    _check_order(order)
    x = _as_device(input)
    if x.ndim < 1:
        raise RuntimeError("input and output rank must be > 0")
    zs = _normalize_sequence(zoom, x.ndim)
    shape = tuple(int(round(i * z)) for i, z in zip(x.shape, zs))
    out = output_of(output, x, x.dtype.kind == "c", shape)
    if all(z == 1 for z in zs) and prefilter:       # SciPy returns the input unchanged
        out[...] = x
        return out
    if x.dtype.kind == "c":
        return _split_complex(globals()["zoom"], x, out, cval, zoom, order=order, mode=mode,
                              prefilter=prefilter, grid_mode=grid_mode)
    check_mode(mode)
    _check_dtypes(x, out, order, prefilter)
    src, npad = _filtered(x[None], order, mode, cval, prefilter)
    if grid_mode:
        suggest = {"constant": "grid-constant", "wrap": "grid-wrap"}.get(mode)
        if suggest is not None:
            warnings.warn(f"It is recommended to use mode = {suggest} instead of {mode} when "
                          f"grid_mode is True.", stacklevel=2)
    div = np.array(shape)
    num = np.array(x.shape)
    if not grid_mode:
        div -= 1
        num -= 1
    z = np.divide(num, div, out=np.ones(x.ndim, dtype=np.float64), where=div != 0)
    _launch("zoom", src, out[None], order, mode, cval, npad, list(z) + [0.0] * x.ndim,
            grid=grid_mode)
    return out


def rotate(input, angle, axes=(1, 0), reshape=True, output=None, order=3, mode="constant",
           cval=0.0, prefilter=True):
    """``scipy.ndimage.rotate``: every plane along ``axes`` rotated by ``angle`` degrees about
    its centre (all planes in one launch)."""
    from scipy import special
    from ...manipulation import moveaxis
    x = _as_device(input)
    ndim = x.ndim
    if ndim < 2:
        raise ValueError("input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("axes should contain exactly two values")
    if not all(float(ax).is_integer() for ax in axes):
        raise ValueError("axes should contain only integer values")
    axes = [int(a) + ndim if a < 0 else int(a) for a in axes]
    if axes[0] < 0 or axes[1] < 0 or axes[0] >= ndim or axes[1] >= ndim:
        raise ValueError("invalid rotation plane specified")
    axes.sort()
    c, s = special.cosdg(angle), special.sindg(angle)
    rot = np.array([[c, s], [-s, c]])
    img_shape = np.asarray(x.shape)
    in_plane = img_shape[axes]
    if reshape:
        iy, ix = in_plane
        bounds = rot @ [[0, 0, iy, iy], [0, ix, 0, ix]]
        out_plane = (np.ptp(bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = img_shape[axes]
    offset = (in_plane - 1) / 2 - rot @ ((out_plane - 1) / 2)
    out_shape = img_shape.copy()
    out_shape[axes] = out_plane
    out_shape = tuple(int(v) for v in out_shape)
    out = output_of(output, x, x.dtype.kind == "c", out_shape)
    if x.dtype.kind == "c":
        return _split_complex(rotate, x, out, cval, angle, axes=axes, reshape=reshape,
                              order=order, mode=mode, prefilter=prefilter)
    _check_order(order)
    check_mode(mode)
    _check_dtypes(x, out, order, prefilter)
    if ndim == 2:
        xb, ob = x[None], out[None]
    else:
        xb = moveaxis(x, axes, (-2, -1))
        xb = xb.reshape((-1,) + xb.shape[-2:])
        ob = moveaxis(out, axes, (-2, -1))
    tmp = ob if ndim == 2 else None
    if tmp is None:
        from ...creation import empty
        tmp = empty((xb.shape[0],) + tuple(int(v) for v in out_plane), out.dtype)
    src, npad = _filtered(xb, order, mode, cval, prefilter)
    _launch("affine", src, tmp, order, mode, cval, npad, list(rot.reshape(-1)) + list(offset))
    if ndim > 2:
        ob[...] = tmp.reshape(ob.shape)
    return out
