"""``einsum``: any subscripts NumPy accepts, contracted pairwise as GEMMs.

Plan: subscripts are parsed on the host (ellipses expanded to letters), the
pairwise order comes from ``numpy.einsum_path`` on zero-byte stand-ins of the
operands (``optimize='greedy'`` by default, as ``optimize=True``; ``False``
contracts left to right; an explicit ``['einsum_path', ...]`` list is used as
given).  Each pairwise step is a batched matrix product:

* repeated labels in one operand become a diagonal *view* (strides added);
* labels only one operand has and nobody needs afterwards are summed first
  (a product with a ones vector: the same GEMM);
* shared labels that survive are batch dims, shared labels that do not are
  the K dim, the rest are M (left) and N (right); size-1 dims broadcast.
"""
import operator

import numpy as np

from .._core import copy as _copy
from .._core.dtypes import check_dtype
from .._core import layout as _layout
from .._core.ndarray import empty_array, fail_unless_writeable, ndarray
from . import products
from ..creation import ones
from ..manipulation import _casting_arg
from ..ufuncs import multiply
from ._common import asarray

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _from_sublists(args):
    """einsum(op0, sub0, op1, sub1, ..., [subout]) -> (subscripts, operands)."""
    ops = list(args[0::2])
    subs = list(args[1::2])
    out = None
    if len(args) % 2 == 1:
        out = ops.pop()
    def conv(sl):
        s = ""
        for x in sl:
            if x is Ellipsis:
                s += "..."
            else:
                x = operator.index(x)
                if not 0 <= x < 52:
                    raise ValueError("subscript is not within the valid range [0, 52)")
                s += _LETTERS[x]
        return s
    text = ",".join(conv(s) for s in subs)
    if out is not None:
        text += "->" + conv(out)
    return text, ops


def parse(subscripts, shapes, strict=True):
    """Expand ellipses; return (input label strings, output label string).  Not ``strict``
    (NumPy's ``optimize`` path), an explicit output without '...' sums the ellipsis dims."""
    s = subscripts.replace(" ", "")
    explicit = "->" in s
    if explicit:
        lhs, rhs = s.split("->", 1)
        if "->" in rhs:
            raise ValueError("einstein sum subscript string does not contain proper '->' output specified")
    else:
        lhs, rhs = s, None
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        if len(terms) < len(shapes):
            raise ValueError("more operands provided to einstein sum function than specified in "
                             "the subscripts string")
        raise ValueError("fewer operands provided to einstein sum function than specified in the "
                         "subscripts string")
    for ch in lhs + (rhs or ""):
        if ch not in _LETTERS and ch not in ",.":
            raise ValueError(f"invalid subscript '{ch}' in einstein sum subscripts string, subscripts "
                             "must be letters")
    used = set(c for c in s if c in _LETTERS)
    spare = [c for c in _LETTERS if c not in used]
    nell = 0
    for t, shp in zip(terms, shapes):
        if "..." in t:
            nell = max(nell, len(shp) - (len(t) - 3))
    ell = "".join(spare[:nell])
    ins = []
    for t, shp in zip(terms, shapes):
        if "." in t.replace("...", "", 1) or t.count("...") > 1:
            raise ValueError("einstein sum subscripts string contains a '.' that is not part of an "
                             "ellipsis ('...')")
        if "..." in t:
            k = len(shp) - (len(t) - 3)
            if k < 0:
                raise ValueError("einstein sum subscripts string contains too many subscripts for "
                                 "operand")
            t = t.replace("...", ell[nell - k:] if k else "")
        if len(t) != len(shp):
            raise ValueError(f"operand has more dimensions than subscripts given in einstein sum, "
                             f"but no '...' ellipsis provided to broadcast the extra dimensions.")
        ins.append(t)
    if rhs is None:
        counts = {}
        for t in ins:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    else:
        if "..." in rhs:
            out = rhs.replace("...", ell)
        else:
            if strict and nell and any(len(shp) > len(t.replace("...", ""))
                                       for t, shp in zip(terms, shapes) if "..." in t):
                raise ValueError("output has more dimensions than subscripts given in einstein "
                                 "sum, but no '...' ellipsis provided to broadcast the extra "
                                 "dimensions.")
            out = rhs
        if "." in out:
            raise ValueError("einstein sum subscripts string contains a '.' that is not part of "
                             "an ellipsis ('...') in the output")
        seen = set()
        allin = set("".join(ins))
        for c in out:
            if c in seen:
                raise ValueError(f"einstein sum subscripts string includes output subscript '{c}' "
                                 "multiple times")
            if c not in allin:
                raise ValueError(f"einstein sum subscripts string included output subscript '{c}' "
                                 "which never appeared in an input")
            seen.add(c)
    return ins, out


def _sizes(ins, shapes):
    sizes = {}
    for t, shp in zip(ins, shapes):
        for c, n in zip(t, shp):
            m = sizes.get(c)
            if m is None or m == 1:
                sizes[c] = n
            elif n != 1 and n != m:
                raise ValueError(f"operands could not be broadcast together with remapped shapes: "
                                 f"size of label '{c}' is {m} in one operand and {n} in another")
    return sizes


def _diag(x, labels):
    """Merge repeated labels into one dim (a diagonal view); returns (view, unique labels)."""
    if len(set(labels)) == len(labels):
        return x, labels
    shape, strides, out = [], [], ""
    for c, n, s in zip(labels, x.shape, x._strides):
        if c in out:
            i = out.index(c)
            if shape[i] != n:
                raise ValueError(f"dimensions in operand for collapsing index '{c}' don't match "
                                 f"({shape[i]} != {n})")
            strides[i] += s
        else:
            out += c
            shape.append(n)
            strides.append(s)
    return x._view(0, tuple(shape), tuple(strides)), out


def _expand(x, labels, sizes):
    """Broadcast size-1 dims to the label's size (zero stride)."""
    if all(x.shape[i] == sizes[c] for i, c in enumerate(labels)):
        return x
    shape = tuple(sizes[c] for c in labels)
    strides = tuple(0 if x.shape[i] != sizes[c] else x._strides[i] for i, c in enumerate(labels))
    return x._view(0, shape, strides)


def _sum_out(x, labels, drop, rt):
    """Sum ``x`` over the labels in ``drop`` (a product with a ones vector)."""
    keep = [c for c in labels if c not in drop]
    gone = [c for c in labels if c in drop]
    if not gone:
        return x, labels
    perm = [labels.index(c) for c in keep + gone]
    kshape = tuple(x.shape[labels.index(c)] for c in keep)
    S = 1
    for c in gone:
        S *= x.shape[labels.index(c)]
    R = 1
    for n in kshape:
        R *= n
    xm = x.transpose(perm).reshape(R, S)
    res = empty_array((R, 1), rt, "C")
    products._matmul_nd(xm, ones((S, 1), rt), rt, res)
    return res.reshape(kshape), "".join(keep)


def _contract(x, lx, y, ly, keep, sizes, rt):
    """Contract (x, lx) with (y, ly), keeping labels in ``keep``; returns (array, labels)."""
    x, lx = _sum_out(x, lx, {c for c in lx if c not in ly and c not in keep}, rt)
    y, ly = _sum_out(y, ly, {c for c in ly if c not in lx and c not in keep}, rt)
    x = _expand(x, lx, sizes)
    y = _expand(y, ly, sizes)
    batch = [c for c in lx if c in ly and c in keep]
    ks = [c for c in lx if c in ly and c not in keep]
    ms = [c for c in lx if c not in ly]
    ns = [c for c in ly if c not in lx]
    bshape = tuple(sizes[c] for c in batch)
    M = K = N = 1
    for c in ms:
        M *= sizes[c]
    for c in ks:
        K *= sizes[c]
    for c in ns:
        N *= sizes[c]
    labels = "".join(batch + ms + ns)
    oshape = bshape + tuple(sizes[c] for c in ms) + tuple(sizes[c] for c in ns)
    if not ks:
        # nothing to sum: a broadcast elementwise product
        xv = x.transpose([lx.index(c) for c in batch + ms]).reshape(bshape + (M, 1))
        yv = y.transpose([ly.index(c) for c in batch + ns]).reshape(bshape + (1, N))
        # operands reach ``rt`` as einsum's ``casting`` allowed (checked up front)
        r = multiply(xv, yv, dtype=rt, casting="unsafe")
        return r.reshape(oshape), labels
    xm = x.transpose([lx.index(c) for c in batch + ms + ks]).reshape(bshape + (M, K))
    ym = y.transpose([ly.index(c) for c in batch + ks + ns]).reshape(bshape + (K, N))
    res = empty_array(bshape + (M, N), rt, "C")
    products._matmul_nd(xm, ym, rt, res)
    return res.reshape(oshape), labels


def _path(ins, out, shapes, sizes, optimize, nops):
    if nops == 1:
        return [(0,)]
    if optimize is False or optimize is None:
        return [(0, 1)] * (nops - 1)
    if optimize is True:
        optimize = "greedy"
    # NumPy's planner; an explicit ['einsum_path', ...] list is checked there (RuntimeError)
    dummies = [np.broadcast_to(np.zeros((), np.float64), tuple(sizes[c] for c in t)) for t in ins]
    path, _ = np.einsum_path(",".join(ins) + "->" + out, *dummies, optimize=optimize)
    return [tuple(p) for p in path[1:]]


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """Evaluate the Einstein summation convention on the operands, as GEMMs."""
    if not operands:
        raise ValueError("No input operands")
    if isinstance(operands[0], str):
        subscripts, ops = operands[0], list(operands[1:])
    else:
        subscripts, ops = _from_sublists(operands)
    ops = [asarray(x) for x in ops]
    shapes = [x.shape for x in ops]
    if optimize is False:               # NumPy's C einsum checks its keywords first
        _check_keywords(dtype, order, casting)
    try:
        ins, outl = parse(subscripts, shapes, strict=optimize is False)
        sizes = _sizes(ins, shapes)
    except ValueError:
        _numpy_error(operands, ops, optimize)
        raise
    if optimize is not False:
        _check_keywords(dtype, order, casting)
    if out is not None:
        if not isinstance(out, ndarray):
            raise TypeError("keyword parameter out must be an array for einsum")
        if out.ndim != len(outl):
            raise ValueError("out parameter does not have the correct number of dimensions, "
                             f"has {out.ndim} but should have {len(outl)}")
    if len(ops) == 1 and out is None and set(outl) == set(ins[0]):
        # NumPy returns a view of the operand here (no label summed), whatever ``dtype`` and
        # ``casting`` say
        x, lx = _diag(ops[0], ins[0])
        x = _expand(x, lx, sizes)
        return x.transpose([lx.index(c) for c in outl]) if lx != outl else x
    path = _path(ins, outl, shapes, sizes, optimize, len(ops))
    # NumPy's optimized path ends a pairwise step with a 0-d result by ``out[...] = result``
    # (an unsafe cast); elsewhere the output's cast follows ``casting``
    unsafe_out = (optimize is not False and out is not None and out.ndim == 0
                  and len(path[-1]) == 2)
    rt = _einsum_dtype(ops, out, dtype, casting, unsafe_out)
    # operands and their labels; repeated labels become diagonal views up front
    work = []
    for x, t in zip(ops, ins):
        work.append(_diag(x, t))
    for step in path:
        picked = [work[i] for i in step]
        for i in sorted(step, reverse=True):
            del work[i]
        rest = "".join(t for _, t in work) + outl
        x, lx = picked[0]
        for j, (y, ly) in enumerate(picked[1:]):
            others = rest + "".join(t for _, t in picked[j + 2:])
            x, lx = _contract(x, lx, y, ly, set(others), sizes, rt)
        work.append((x, lx))
    x, lx = work[0] if len(work) == 1 else _fold(work, outl, sizes, rt)
    x, lx = _sum_out(x, lx, {c for c in lx if c not in outl}, rt)
    x = _expand(x, lx, sizes)
    res = x.transpose([lx.index(c) for c in outl]) if lx != outl else x
    if res.dtype != rt:
        res = res.astype(rt)
    if out is not None:
        if out._ro:
            fail_unless_writeable(out, "operand array with iterator write flag set")
        if not _layout.broadcasts_to(res.shape, out.shape):    # NumPy's iterator broadcasts
            _numpy_error(operands, ops, optimize, out, rt, casting)
            raise ValueError(f"out has shape {out.shape}, expected {res.shape}")
        _copy.copy_into(out, res)
        return out
    return _ordered(res, order, ops)


def _check_keywords(dtype, order, casting):
    """NumPy's checks of einsum's ``dtype``, ``order`` and ``casting`` (their errors)."""
    if dtype is not None:
        np.dtype(dtype)
    if not (order is None or isinstance(order, str) and order.upper() in ("C", "F", "A", "K")):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    _casting_arg(casting)


def _ordered(res, order, ops):
    """The result in the memory order ``order`` asks for ('A': Fortran when every operand
    is; 'K' keeps the layout the contraction left)."""
    order = (order or "K").upper()
    if order == "A":
        order = "F" if all(x.flags.f_contiguous for x in ops) else "C"
    if order == "C" and not res.flags.c_contiguous or order == "F" and not res.flags.f_contiguous:
        return res.copy(order=order)
    return res


def _einsum_dtype(ops, out, dtype, casting, unsafe_out=False):
    """The dtype einsum computes in: ``dtype``, else NumPy's common dtype of the operands and
    ``out`` (its iterator's, so a wider ``out`` widens the sums); NumPy's casting errors, the
    operands' before the output's, and its ComplexWarnings."""
    if dtype is not None:
        rt = check_dtype(dtype)
        for i, x in enumerate(ops):
            if not np.can_cast(x.dtype, rt, casting=casting):
                raise TypeError(f"Iterator operand {i} dtype could not be cast from {x.dtype!r} "
                                f"to {rt!r} according to the rule '{casting}'")
    else:
        rt = check_dtype(np.result_type(*[x.dtype for x in ops],
                                        *([out.dtype] if out is not None else [])))
    if out is not None:                 # read and written: both casts are checked
        if not np.can_cast(out.dtype, rt, casting=casting):
            raise TypeError(f"Iterator operand {len(ops)} dtype could not be cast from "
                            f"{out.dtype!r} to {rt!r} according to the rule '{casting}'")
        if not unsafe_out and not np.can_cast(rt, out.dtype, casting=casting):
            raise TypeError(f"Iterator requested dtype could not be cast from {rt!r} to "
                            f"{out.dtype!r}, the operand {len(ops)} dtype, according to the "
                            f"rule '{casting}'")
    for x in ops + ([out] if out is not None else []):
        if x.dtype.kind == "c":
            _copy.warn_complex(rt)
    if out is not None and rt.kind == "c":
        _copy.warn_complex(out.dtype)
    return rt


def _numpy_error(operands, ops, optimize, out=None, dtype=None, casting="safe"):
    """Raise NumPy's error for subscripts and shapes (or an ``out`` shape) npgpu rejected
    (c_einsum's and einsum_path's messages differ): NumPy's einsum on data-free stand-ins of
    the operands (zero-strided views), which fails while parsing or setting up its iterator,
    before any arithmetic."""
    stand = [_layout.host_stand_in(x.shape, x.dtype) for x in ops]
    if isinstance(operands[0], str):
        args = [operands[0], *stand]
    else:                               # sublist form: operands at the even positions
        args = list(operands)
        args[0:2 * len(stand):2] = stand
    kw = {}
    if out is not None:
        kw = {"out": _layout.host_stand_in(out.shape, out.dtype, writeable=True),
              "dtype": dtype, "casting": casting}
    try:
        np.einsum(*args, optimize=optimize, **kw)
    except ValueError as e:
        raise ValueError(str(e)) from None


def _fold(work, outl, sizes, rt):
    x, lx = work[0]
    for j, (y, ly) in enumerate(work[1:]):
        others = outl + "".join(t for _, t in work[j + 2:])
        x, lx = _contract(x, lx, y, ly, set(others), sizes, rt)
    return x, lx


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """NumPy's ``einsum_path`` on the operands' shapes (no data is read)."""
    def stand_in(x):
        return np.broadcast_to(np.zeros((), x.dtype), x.shape) if isinstance(x, ndarray) else x
    if operands and not isinstance(operands[0], str):
        # sublist form as given: NumPy's own labels for the integer subscripts
        args = list(operands)
        args[0::2] = [stand_in(x) for x in args[0::2]]     # (an output sublist stays)
    else:
        args = [*operands[:1], *map(stand_in, operands[1:])]
    return np.einsum_path(*args, optimize=optimize, einsum_call=einsum_call)
