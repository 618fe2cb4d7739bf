"""Permutations (``permutation``, ``shuffle``, ``permuted``) and ``choice``.

A permutation of ``[0, n)`` for each of ``S`` slices is an int64 ``(S, n)`` index array, made
one of two ways, both one kernel over the output (rendered here, compiled by
``compiler.get_kernel``):

* ``n <= SMALL``: exact ranking of random 64-bit keys: one block per slice holds the slice's
  keys (drawn by the raw-word kernel) in shared memory and each thread counts the keys below
  its own (ties broken by position): a uniformly random permutation.
* larger ``n``: a bijective shuffle: an alternating Feistel network of :data:`ROUNDS` rounds
  over ``k``-bit integers (``2**k >= n``; one bit more when ``n`` is a power of two, since a
  Feistel network alone only makes even permutations), whose round function is Philox4x32-10
  of (half, round, slice) under the call's key, cycle-walked into ``[0, n)``.  Element ``i``
  of the output is computed on its own: one pass writing ``n`` indices (no sort, no
  scratch), and ``choice(n, m, replace=False)`` computes only ``m`` of them.

Arrays are then gathered with ``take`` / ``take_along_axis``.
"""
import hashlib
import operator
from collections.abc import Sequence

import numpy as np

from .. import _backend
from .._codegen import compiler
from .._codegen.compiler import KernelSource, Param
from .._core.ndarray import empty_array, ndarray
from . import kernels

_I64 = np.dtype(np.int64)
_U64 = np.dtype(np.uint64)
_U32 = np.dtype(np.uint32)
SMALL = 2048          # the exact ranking kernel up to this many elements a slice
ROUNDS = 8
_SIM = _backend.IS_SIM

FEISTEL = f"""
def feistel(x, bits, s, k0, k1):
    a = bits >> uint64(1)
    c = bits - a
    for r in range({ROUNDS}):
        lo = x & ((uint64(1) << c) - uint64(1))
        hi = x >> c
        f = philox(uint32(lo), uint32(r), uint32(s), uint32(s >> uint64(32)), k0, k1)
        hi = (hi ^ uint64(f[0])) & ((uint64(1) << a) - uint64(1))
        x = (lo << a) | hi
        t = a
        a = c
        c = t
    return x
"""


def _render_feistel():
    body = """def KERNEL(m, n, out, bits, key):
    k0 = uint32(key)
    k1 = uint32(key >> uint64(32))
    t = cuda.grid(1)
    step = cuda.gridsize(1)
    total = m * out.shape[0]
    while t < total:
        s = t // m
        i = t - s * m
        x = feistel(uint64(i), bits, uint64(s), k0, k1)
        while x >= uint64(n):
            x = feistel(x, bits, uint64(s), k0, k1)
        out[s, i] = int64(x)
        t += step
"""
    return _finish("feistel", kernels.device_source((FEISTEL,)) + "\n\n" + body,
                   [Param("scalar", _I64), Param("scalar", _I64), Param("array", _I64, 2, "C"),
                    Param("scalar", _U64), Param("scalar", _U64)])


def _render_feistel_domain():
    # every point j of the 2**k domain of every slice, no cycle-walking: a warp's lanes never
    # wait for the unluckiest lane's extra walks (the max of 32 walks averages ~3x the mean)
    body = """def KERNEL(k, n, total, ys, flags, key):
    k0 = uint32(key)
    k1 = uint32(key >> uint64(32))
    kk = uint64(k)
    mask = (uint64(1) << kk) - uint64(1)
    nn = uint64(n)
    tt = uint64(total)
    t = uint64(cuda.grid(1))
    step = uint64(cuda.gridsize(1))
    while t < tt:
        y = feistel(t & mask, kk, t >> kk, k0, k1)
        ys[t] = int64(y)
        flags[t] = y < nn
        t += step
"""
    return _finish("feistel_domain", kernels.device_source((FEISTEL,)) + "\n\n" + body,
                   [Param("scalar", _I64), Param("scalar", _I64), Param("scalar", _I64),
                    Param("array", _I64, 1, "C"), Param("array", np.dtype(np.bool_), 1, "C"),
                    Param("scalar", _U64)])


def _render_rank(threads):
    body = f"""def KERNEL(n, keys, out):
    sk = cuda.shared.array({SMALL}, uint64)
    s = cuda.blockIdx.x
    t = cuda.threadIdx.x
    i = t
    while i < n:
        sk[i] = keys[s, i]
        i += {threads}
    cuda.syncthreads()
    i = t
    while i < n:
        ki = sk[i]
        r = 0
        for j in range(n):
            kj = sk[j]
            if kj < ki or (kj == ki and j < i):
                r += 1
        out[s, r] = int64(i)
        i += {threads}
"""
    return _finish("rank", body, [Param("scalar", _I64), Param("array", _U64, 2, "C"),
                                  Param("array", _I64, 2, "C")])


def _finish(tag, text, params):
    name = f"rnd_{tag}_{hashlib.sha1(text.encode()).hexdigest()[:10]}"
    return KernelSource(name, text.replace("def KERNEL(", f"def {name}("), params)


def _bits(n):
    k = max(int(n - 1).bit_length(), 2)
    return k + 1 if n == 1 << k else k


def indices(bitgen, n, slices=1, m=None):
    """``(slices, m)`` int64: per slice the first ``m`` (default ``n``) entries of a random
    permutation of ``[0, n)``."""
    m = n if m is None else m
    out = empty_array((slices, m), _I64)
    if m == 0 or slices == 0:
        return out
    if n <= SMALL:
        words = kernels.raw_words(bitgen, (slices, 2 * n)).view(_U64)
        full = out if m == n else empty_array((slices, n), _I64)
        threads = 4 if _SIM else min(1024, 32 * -(-n // 32))
        # (SMALL sizes the kernel's shared array: in the key, so a kernel made under another
        # SMALL is never reused)
        kern = compiler.get_kernel(("random", "rank", threads, SMALL),
                                   lambda: _render_rank(threads))
        kern(slices, threads, [n, 0, 0, words.size, 8, words._ptr, slices, n, 8 * n, 8,
                               0, 0, full.size, 8, full._ptr, slices, n, 8 * n, 8])
        if m != n:
            out[...] = full[:, :m]
        return out
    key, clo, _ = bitgen._reserve(1, 1)
    # the call's own key: the generator's key mixed with the reserved counter
    ck = np.uint64(int(key) ^ ((int(clo) * 0x9E3779B97F4A7C15) & (2 ** 64 - 1)))
    if m == n:
        return _whole(n, slices, ck)
    kern = compiler.get_kernel(("random", "feistel", ROUNDS), _render_feistel)
    threads = 4 if _SIM else 256
    total = m * slices
    grid = max(1, min(2, -(-total // threads))) if _SIM else min(-(-total // threads), 2 ** 31 - 1)
    kern(grid, threads,
         [m, n, 0, 0, out.size, 8, out._ptr, slices, m, 8 * m, 8, np.uint64(_bits(n)), ck])
    return out


def _whole(n, slices, ck):
    """Whole permutations of ``[0, n)``: the Feistel bijection on every point of its
    ``2**k`` domain (one kernel, no divergence), then the points whose image is below ``n``
    compacted in order (:mod:`npgpu.indexing.compaction`; each slice keeps exactly ``n``, so
    one compaction of all slices is every slice's own).  The restriction of a permutation of
    ``[0, 2**k)`` to the images in ``[0, n)``, read in domain order, is a permutation of
    ``[0, n)``, uniformly random when the bijection is."""
    from ..indexing import compaction
    bits = _bits(n)
    total = slices << bits
    ys = empty_array((total,), _I64)
    flags = empty_array((total,), np.dtype(np.bool_))
    kern = compiler.get_kernel(("random", "feistel_domain", ROUNDS), _render_feistel_domain)
    if _SIM:
        threads = 4
        grid = max(1, min(2, -(-total // threads)))
    else:
        threads, resident = kernels._launch_shape(kern, False)
        grid = min(-(-total // threads), resident)
    kern(grid, threads, [bits, n, total, 0, 0, total, 8, ys._ptr, total, 8,
                         0, 0, total, 1, flags._ptr, total, 1, ck])
    return compaction.select_values(ys, flags).reshape((slices, n))


# --- the public operations -----------------------------------------------------------------
def _gp():
    import npgpu
    return npgpu


def permutation(bitgen, x, axis=0, legacy=False):
    gp = _gp()
    if isinstance(x, (int, np.integer)):
        # NumPy: a shuffled arange(x) (empty for x <= 0)
        return indices(bitgen, max(operator.index(x), 0))[0]
    host = None if isinstance(x, ndarray) else np.asarray(x)
    ndim = x.ndim if host is None else host.ndim
    if ndim == 0:
        if legacy:
            raise IndexError("x must be an integer or at least 1-dimensional")
        raise np.exceptions.AxisError(axis, 0)
    arr = x if host is None else gp.asarray(host)
    axis = _axis(axis, arr.ndim)
    idx = indices(bitgen, arr.shape[axis])[0]
    return gp.take(arr, idx, axis=axis)


def shuffle(bitgen, x, axis=0):
    if not isinstance(x, ndarray):
        _shuffle_host(bitgen, x, axis)
        return
    if x.ndim == 0:
        raise TypeError("len() of unsized object")
    axis = _axis(axis, x.ndim)
    idx = indices(bitgen, x.shape[axis])[0]
    x[...] = _gp().take(x, idx, axis=axis)


def _shuffle_host(bitgen, x, axis):
    """NumPy's ``shuffle`` of a host object in place: a NumPy array along ``axis``, or a
    mutable sequence (``axis`` 0 only); the permutation is drawn on the device."""
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            raise TypeError("len() of unsized object")
        axis = _axis(axis, x.ndim)
        n = x.shape[axis]
        if n > 1:
            idx = indices(bitgen, n)[0].get()
            x[...] = np.take(x, idx, axis=axis)
        return
    n = len(x)                     # TypeError for an object without a length, as NumPy (first)
    if not isinstance(x, Sequence):
        import warnings
        warnings.warn(f"you are shuffling a '{type(x).__name__}' object which is not a subclass "
                      "of 'Sequence'; `shuffle` is not guaranteed to behave correctly. E.g., "
                      "non-numpy array/tensor objects with view semantics may contain "
                      "duplicates after shuffling.", UserWarning,
                      stacklevel=_backend._user_stacklevel())
    if axis != 0:
        raise NotImplementedError("Axis argument is only supported on ndarray objects")
    if n <= 1:
        return
    idx = indices(bitgen, n)[0].get()
    items = [x[int(i)] for i in idx]
    for i, v in enumerate(items):
        x[i] = v                   # TypeError for an immutable sequence, as NumPy


def permuted(bitgen, x, axis=None, out=None):
    gp = _gp()
    arr = x if isinstance(x, ndarray) else gp.asarray(np.asarray(x))
    if arr.ndim == 0 and axis is None:
        raise TypeError("len() of unsized object")
    if out is not None:
        if not isinstance(out, (ndarray, np.ndarray)):
            raise TypeError("out must be a numpy array")
        if out.shape != arr.shape:
            raise ValueError("out must have the same shape as x")
        if not np.can_cast(arr.dtype, out.dtype, "safe"):
            raise TypeError(f"Cannot cast array data from {arr.dtype!r} to {out.dtype!r} "
                            "according to the rule 'safe'")
    if axis is None:
        flat = arr.reshape(-1)
        res = gp.take(flat, indices(bitgen, flat.size)[0]).reshape(arr.shape)
    else:
        axis = _axis(axis, arr.ndim)
        moved = gp.moveaxis(arr, axis, -1)
        lead = moved.shape[:-1]
        slices = int(np.prod(lead)) if lead else 1
        idx = indices(bitgen, arr.shape[axis], slices).reshape(lead + (arr.shape[axis],))
        res = gp.moveaxis(gp.take_along_axis(moved, idx, axis=-1), -1, axis)
    if out is None:
        return gp.ascontiguousarray(res) if not res._c_contig else res
    out[...] = res.get() if isinstance(out, np.ndarray) else res
    return out


def _axis(axis, ndim):
    from numpy.lib.array_utils import normalize_axis_index
    return normalize_axis_index(axis, ndim)        # NumPy's own check and messages


_CHOICE_SEARCH = """
def search(cdf, n, u):
    lo = 0
    hi = n - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo
"""


def _render_search():
    body = """def KERNEL(m, n, out, u, cdf):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < m:
        out[i] = int64(search(cdf, n, u[i] * cdf[n - 1]))
        i += step
"""
    return _finish("search", kernels.device_source((_CHOICE_SEARCH,)) + "\n\n" + body,
                   [Param("scalar", _I64), Param("scalar", _I64), Param("array", _I64, 1, "C"),
                    Param("array", np.float64, 1, "C"), Param("array", np.float64, 1, "C")])


def choice(gen, a, size=None, replace=True, p=None, axis=0, shuffle=True, legacy=False):
    """NumPy's ``Generator.choice`` (``legacy``: ``RandomState.choice``'s checks and
    messages)."""
    gp = _gp()
    bitgen = gen.bit_generator
    from .generator import _size_tuple
    shape = () if size is None else _size_tuple(size)
    m = int(np.prod(shape)) if shape else 1
    host = None if isinstance(a, ndarray) else (a if isinstance(a, np.ndarray) else
                                                np.asarray(a))
    ndim = a.ndim if host is None else host.ndim
    if ndim == 0:
        item = a.get().item() if host is None else host.item()
        try:
            pop = operator.index(item)
        except TypeError:
            if legacy:
                raise ValueError("a must be 1-dimensional or an integer") from None
            raise ValueError(f"a must be a sequence or an integer, not {type(a)}") from None
        arr = None
        if pop <= 0 and m != 0:
            if legacy:
                raise ValueError("a must be greater than 0 unless no samples are taken")
            raise ValueError("a must be a positive integer unless no samples are taken")
        # (a negative population stays negative, as NumPy's: choice(-1, 0, replace=False) is
        # its "larger sample than population")
    else:
        if legacy and ndim != 1:
            raise ValueError("a must be 1-dimensional")
        arr = a if host is None else gp.asarray(host)
        pop = tuple(arr.shape)[axis]               # NumPy's IndexError for a bad axis
        axis = _axis(axis, arr.ndim)
        if pop == 0 and m != 0:
            raise ValueError(("'a'" if legacy else "a") +
                             " cannot be empty unless no samples are taken")
    q = (lambda t: f"'{t}'") if legacy else (lambda t: t)
    if p is not None:
        # NumPy's tolerance of the sum: wider for a float16/float32 array of p
        atol = np.sqrt(np.finfo(np.float64).eps)
        if isinstance(p, (ndarray, np.ndarray)) and np.issubdtype(p.dtype, np.floating):
            atol = max(atol, np.sqrt(np.finfo(p.dtype).eps))
        if isinstance(p, ndarray):
            ph = p.get()
        else:
            len(p)                       # TypeError for a scalar, as NumPy
            ph = np.asarray(p, np.float64)
        if ph.ndim == 0:
            raise TypeError("len() of unsized object")
        ph = ph.astype(np.float64)
        if ph.ndim != 1:
            raise ValueError(f"{q('p')} must be 1-dimensional")
        if ph.size != pop:
            raise ValueError(f"{q('a')} and {q('p')} must have same size")
        psum = ph.sum()
        if np.isnan(psum):
            raise ValueError(("p" if legacy else "P") + "robabilities contain NaN")
        if np.any(ph < 0):
            raise ValueError(("p" if legacy else "P") + "robabilities are not non-negative")
        if abs(psum - 1.0) > atol:
            raise ValueError("probabilities do not sum to 1" if legacy else
                             "Probabilities do not sum to 1. See Notes section of docstring "
                             "for more information.")
    if not replace and m > pop:
        raise ValueError("Cannot take a larger sample than population when " +
                         ("'replace=False'" if legacy else "replace is False"))
    if p is not None and not replace and np.count_nonzero(ph) < m:
        raise ValueError("Fewer non-zero entries in p than size")
    if replace:
        if p is None:
            idx = gen.integers(0, pop, size=m) if m else empty_array((0,), _I64)
        else:
            cdf = gp.asarray(np.cumsum(ph, dtype=np.float64))
            u = gen.random(m)
            idx = empty_array((m,), _I64)
            if m:
                kern = compiler.get_kernel(("random", "search"), _render_search)
                threads = 4 if _SIM else 256
                grid = max(1, min(2, -(-m // threads))) if _SIM else -(-m // threads)
                kern(grid, threads, [m, pop, 0, 0, m, 8, idx._ptr, m, 8, 0, 0, m, 8, u._ptr,
                                     m, 8, 0, 0, pop, 8, cdf._ptr, pop, 8])
    elif p is None:
        idx = indices(bitgen, pop, 1, m)[0]
    else:
        # Gumbel-top-m on the host-checked weights: keys log(p) + Gumbel, the m largest
        keys = gp.log(gp.asarray(ph)) + gen.gumbel(size=pop)
        idx = _top(keys, m)
    idx = idx.reshape(shape)
    if arr is None:
        return idx
    return gp.take(arr, idx, axis=axis)


def _top(keys, m):
    """Indices of the ``m`` largest keys, largest first (a stable argsort of the negated keys)."""
    return _gp().argsort(-keys)[:m]
