"""``scipy.ndimage.distance_transform_edt``: the exact separable algorithm of Felzenszwalb and
Huttenlocher, one axis a pass, one thread a line.

The squared distance to the nearest background element is ``min_p w^2 (q - p)^2 + f(p)``
along each axis in turn (``f`` = 0 on the background, inf elsewhere, then the previous pass's
result; ``w`` the axis's sampling).  A thread walks its line twice: the lower envelope of the
parabolas of the finite sites (their positions ``V`` and boundaries ``Z`` in per-line scratch
rows of global memory), then the minimum at each position.  With ``return_indices`` each
position copies its nearest site's feature coordinates from the previous pass (the site's own
position on this axis): double-buffered ``(ndim, size)`` int32 tables.  One kernel serves every
rank and axis (line geometry as runtime values).

Ties (two background elements at one distance) may pick a different feature than SciPy's
algorithm does; the distances agree.
"""
import numpy as np

from ..._codegen import compiler
from ..._codegen import elementwise as _ew
from ..._codegen.compiler import KernelSource, Param
from ..._core.ndarray import empty_array, ndarray
from ._morphology import arr, check_input, contiguous, device

__all__ = ["distance_transform_edt"]

_I32 = np.dtype(np.int32)
_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)
_BOOL = np.dtype(np.bool_)


def _render():
    text = """def KERNEL(phase, lines, n, inner, w2, axis, use_idx, shp, S2, X, F, G, V, Z, Iin,
           Iout):
    t = cuda.grid(1)
    step = cuda.gridsize(1)
    inf = math.inf
    while t < lines:
        base = (t // inner) * n * inner + t % inner
        if phase == 0:
            # one element a thread: f, and the element's own coordinates
            F[t] = 0.0 if not X[t] else inf
            if use_idx != 0:
                r = t
                for d in range(shp.shape[0] - 1, -1, -1):
                    # SciPy's feature of an element that is no site: (-1, 0, ..., 0)
                    c = r % shp[d]
                    if X[t]:
                        c = -1 if d == 0 else 0
                    Iin[d, t] = int32(c)
                    r //= shp[d]
        else:
            row = t * n
            zrow = t * (n + 1)
            k = -1
            for q in range(n):
                fq = F[base + q * inner]
                if fq == inf:
                    continue
                sq = fq + w2 * q * q
                s = -inf
                while k >= 0:
                    v = V[row + k]
                    s = (sq - (F[base + v * inner] + w2 * v * v)) / (2.0 * w2 * (q - v))
                    if s <= Z[zrow + k]:
                        k -= 1
                        s = -inf
                    else:
                        break
                k += 1
                V[row + k] = q
                Z[zrow + k] = s
                Z[zrow + k + 1] = inf
            j = 0
            for q in range(n):
                e = base + q * inner
                if k < 0:
                    # no site on the line: SciPy keeps the features; on the last axis that
                    # means no background at all, and SciPy measures to feature (-1, 0, ...)
                    G[e] = inf
                    if axis == shp.shape[0] - 1:
                        r = e
                        acc = 0.0
                        for d in range(shp.shape[0] - 1, -1, -1):
                            c = r % shp[d]
                            if d == 0:
                                c += 1
                            acc += S2[d] * c * c
                            r //= shp[d]
                        G[e] = acc
                    if use_idx != 0:
                        for d in range(Iin.shape[0]):
                            Iout[d, e] = Iin[d, e]
                    continue
                while Z[zrow + j + 1] < q:
                    j += 1
                v = V[row + j]
                G[e] = w2 * (q - v) * (q - v) + F[base + v * inner]
                if use_idx != 0:
                    for d in range(Iin.shape[0]):
                        Iout[d, e] = Iin[d, base + v * inner]
                    Iout[axis, e] = int32(v)
        t += step
"""
    name = _ew._kernel_name("ndi_edt", text)
    params = ([Param("scalar", _I64)] * 4 + [Param("scalar", _F64)]
              + [Param("scalar", _I64)] * 2 + [Param("array", _I64, 1, "C"),
              Param("array", _F64, 1, "C"), Param("array", _BOOL, 1, "C"),
              Param("array", _F64, 1, "C"), Param("array", _F64, 1, "C"),
              Param("array", _I64, 1, "C"), Param("array", _F64, 1, "C"),
              Param("array", _I32, 2, "C"), Param("array", _I32, 2, "C")])
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _out_array(a, name):
    if isinstance(a, np.ndarray):
        raise TypeError(f"{name} must be an npgpu array")
    return a if isinstance(a, ndarray) else None


def distance_transform_edt(input, sampling=None, return_distances=True, return_indices=False,
                           distances=None, indices=None):
    """``scipy.ndimage.distance_transform_edt``: float64 distances of each element to the
    nearest zero element, and/or the int32 ``(ndim,) + shape`` indices of that element."""
    from ...ufuncs import not_equal, sqrt
    # SciPy's checks, in its order and with its joined messages
    msgs = []
    if not return_distances and not return_indices:
        msgs.append("at least one of return_distances/return_indices must be True")
    if isinstance(distances, (ndarray, np.ndarray)) and not return_distances:
        msgs.append("return_distances must be True if distances is supplied")
    if isinstance(indices, (ndarray, np.ndarray)) and not return_indices:
        msgs.append("return_indices must be True if indices is supplied")
    if msgs:
        raise RuntimeError(", ".join(msgs))
    x = device(input)
    if x.dtype.kind == "c":          # SciPy tests complex input for non-zero too
        x = not_equal(x, 0)
    x = check_input(x)
    if x.ndim == 0:
        x = x.reshape((1,))
    nd = x.ndim
    if sampling is None:
        w = [1.0] * nd
    else:
        w = np.broadcast_to(np.asarray(sampling, dtype=np.float64), (nd,)) \
            if np.ndim(sampling) == 0 else np.asarray(sampling, dtype=np.float64)
        if w.shape != (nd,):
            raise RuntimeError("sequence argument must have length equal to input rank")
        w = [float(v) for v in w]
    # SciPy writes into ``distances``/``indices`` only when they are arrays (else ignored)
    distances, indices = _out_array(distances, "distances"), _out_array(indices, "indices")
    if indices is not None:
        if indices.shape != (nd,) + x.shape:
            raise RuntimeError("indices array has wrong shape")
        if indices.dtype != _I32:
            raise RuntimeError("indices array must be int32")
    if distances is not None:
        if distances.shape != x.shape:
            raise RuntimeError("distances array has wrong shape")
        if distances.dtype != _F64:
            raise RuntimeError("distances array must be float64")
    size = x.size
    xb = contiguous(x, _BOOL).reshape(-1)
    F = empty_array((size,), _F64)
    G = empty_array((size,), _F64)
    ia = ib = empty_array((1, 1), _I32)
    if return_indices:
        ia = empty_array((nd, size), _I32)
        ib = empty_array((nd, size), _I32)
    shp = device(np.array(x.shape, np.int64))
    s2 = device(np.array(w, np.float64) ** 2)
    kern = compiler.get_kernel(("ndimage", "edt"), _render)
    use_idx = int(return_indices)

    def launch(phase, lines, n, inner, w2, axis, F, G, V, Z, Iin, Iout):
        grid, block = _ew._grid(lines, 1)
        kern(grid, block, [phase, lines, n, inner, w2, axis, use_idx] + arr(shp) + arr(s2) + arr(xb)
             + arr(F) + arr(G) + arr(V) + arr(Z) + arr(Iin) + arr(Iout))

    if size:
        launch(0, size, 1, 1, 1.0, 0, F, G, F[:1].view(_I64), G[:1], ia, ib)
        for a in range(nd):
            n = x.shape[a]
            inner = int(np.prod(x.shape[a + 1:], dtype=np.int64))
            lines = size // n
            V = empty_array((lines * n,), _I64)
            Z = empty_array((lines * (n + 1),), _F64)
            launch(1, lines, n, inner, w[a] ** 2, a, F, G, V, Z, ia, ib)
            F, G = G, F
            if return_indices:
                ia, ib = ib, ia
    out = []
    if return_distances:
        d = sqrt(F.reshape(x.shape))
        if distances is not None:
            distances[...] = d
        else:
            out.append(d)
    if return_indices:
        idx = ia.reshape((nd,) + x.shape)
        if indices is not None:
            indices[...] = idx
        else:
            out.append(idx)
    if not out:
        return None
    return out[0] if len(out) == 1 else tuple(out)
