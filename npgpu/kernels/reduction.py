"""``npgpu.ReductionKernel``: CuPy's reduction kernel, with the expressions in Python.

The user's kernel is a :class:`~npgpu.reductions.template.ReduceSpec` (pre-map: the value,
combine: ``reduce_expr`` over ``a`` and ``b``, post-map: ``post_map_expr``) plus a
:class:`~npgpu.reductions.template.MapStep` (``map_expr`` over the inputs), run by the
reduction template's planner (``reductions/reduce.py``): the same thread mappings, split
passes, word loads and plan cache as ``npgpu.sum``.

A repeat call (no ``out=``/``stream=``, every input an npgpu array of one shape, the same
dtypes, layouts, ``axis`` and ``keepdims`` as an earlier call) replays that call's launches
through ``reduce``'s fast path, as ``npgpu.sum`` does.  Under CUDA-event timing the host work
before the first launch counts: issue 18's sumsq benchmark (2^28 float32) took 278 us against
sum's 259 with the same kernels (GPU renderings compared: the same words loop, unrolling,
grid and two passes, 32 registers each; only the state dtype differs, float32 here, float64
in sum), and its full path (parameter binding, broadcasting, plan lookup, allocations) spent
~12 us before the first launch where sum's replay spends ~2 (CPU machine, launches stubbed).
``REPLAY`` (env ``NPGPU_REDUCTION_KERNEL_REPLAY=0``: off; read at every call) A/Bs it in one
process (benchmarks/experiments/reduction_kernel_ab.py).
"""
import contextlib
import hashlib
import os

import numpy as np

from .. import creation
from .._codegen.elementwise import cast_expr, compute_dtype, type_name
from .._core import copy as _copy
from .._core.ndarray import fail_unless_writeable, ndarray
from ..manipulation import broadcast_to
from ..reductions import reduce as R
from ..reductions.template import MapStep, ReduceSpec, literal
from . import params as P
from . import source as S

# repeat calls replay their first call's launches (see the module docstring)
REPLAY = os.environ.get("NPGPU_REDUCTION_KERNEL_REPLAY", "1") != "0"


class ReductionKernel:
    """``ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
    name='reduce_kernel', reduce_type=None, preamble='')``.

    ``map_expr``: a Python expression over the input names (the value reduced);
    ``reduce_expr``: an expression over ``a`` and ``b`` (associative and commutative: the
    order of combination is the template's); ``post_map_expr``: statements setting the output
    from ``a`` (the reduced value) and ``n`` (how many elements were reduced into it), e.g.
    ``"y = a / n"``; ``identity``: the identity of ``reduce_expr`` (a number, or its source
    such as ``"0"`` or ``"-math.inf"``); ``reduce_type``: dtype of ``a``/``b`` (default: the
    output's).  Call ``kernel(*inputs, out=None, axis=None, keepdims=False, stream=None)``.
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="",
                 options=()):
        self.in_params = P.parse(in_params, "in_params")
        self.out_params = P.parse(out_params, "out_params")
        if len(self.out_params) != 1:
            raise ValueError("out_params: a reduction kernel has exactly one output")
        if not self.in_params:
            raise ValueError("in_params: a reduction kernel needs at least one input")
        P.check_names(self.in_params, self.out_params)
        for p in self.in_params:
            if p.raw:
                raise ValueError(f"in_params: raw parameter {p.name!r} is not supported by "
                                 "ReductionKernel (the map sees one element of each input)")
        if not isinstance(name, str) or not P._NAME.match(name):
            raise ValueError(f"name must be an identifier, not {name!r}")
        if identity is None:
            raise ValueError("identity: a reduction kernel needs the identity of reduce_expr")
        self.name = name
        self.out_name = self.out_params[0].name
        if self.out_name in ("a", "n"):
            raise ValueError(f"out_params: the output may not be named {self.out_name!r} "
                             "(post_map_expr's a and n)")
        self.reduce_type = None if reduce_type is None else P._spec(reduce_type, "a", False,
                                                                    "reduce_type")
        self._helpers, helper_names = S.split_preamble(preamble)
        known = S._known_names() | helper_names
        self.map_expr = _expr(map_expr, "map_expr")
        self.reduce_expr = _expr(reduce_expr, "reduce_expr")
        self.post_map_expr = S.dedent(post_map_expr, "post_map_expr")
        names = [p.name for p in self.in_params]
        S.check_body(f"_v = {self.map_expr}", names, known, "map_expr")
        S.check_body(f"_v = {self.reduce_expr}", ["a", "b"], known, "reduce_expr")
        post = S.check_body(self.post_map_expr, ["a", "n"], known, "post_map_expr")
        if not any(isinstance(t, S.ast.Name) and t.id == self.out_name and
                   isinstance(t.ctx, S.ast.Store) for t in S.ast.walk(post)):
            raise ValueError(f"post_map_expr must assign the output {self.out_name!r}")
        self.identity = identity if isinstance(identity, str) else repr(identity)
        S.check_body(f"_v = {self.identity}", [], known, "identity")
        self._specs = {}

    def __repr__(self):
        return f"<npgpu.ReductionKernel {self.name}({self.in_params}) -> {self.out_params}>"

    def _spec(self, in_dts, storage, out_dt, red_dt):
        key = (tuple(in_dts), tuple(storage), out_dt, red_dt)
        hit = self._specs.get(key)
        if hit is not None:
            return hit
        helpers = "".join("@cuda.jit(device=True)\n" + h.strip("\n") + "\n\n"
                          for h in self._helpers)
        args = ", ".join(p.name for p in self.in_params)
        rt = type_name(compute_dtype(red_dt))
        casts = "".join(f"    {p.name} = {cast_expr(p.name, compute_dtype(s), compute_dtype(d))}\n"
                        for p, s, d in zip(self.in_params, storage, in_dts)
                        if compute_dtype(s) != compute_dtype(d))
        msrc = (f"{helpers}@cuda.jit(device=True)\ndef red_map({args}):\n{casts}"
                f"    return {rt}({self.map_expr})\n")
        h = hashlib.sha1(msrc.encode()).hexdigest()[:16]
        fmap = MapStep(("rk_map", h), msrc, storage, red_dt)
        zero = f"{self.out_name} = {type_name(compute_dtype(out_dt))}(0)"
        post = "\n".join(["a = a0", "n = m", zero, self.post_map_expr, f"return {self.out_name}"])
        comb = f"a = a0\nb = b0\nreturn {self.reduce_expr}"
        ident = literal(_number(self.identity, red_dt), red_dt)
        spec = ReduceSpec(("rk", h, hashlib.sha1((comb + post).encode()).hexdigest()[:16]),
                          red_dt, (compute_dtype(red_dt),), (ident,), "x", comb, post,
                          compute_dtype(out_dt), helpers=self._helpers)
        self._specs[key] = (spec, fmap)
        return spec, fmap

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        key = None
        if out is None and stream is None and REPLAY and args and \
                len(args) == len(self.in_params):
            key, f = self._fast_key(args, axis, keepdims)
            if f is not None:
                return f(*args)
        if len(args) != len(self.in_params):
            raise TypeError(f"{self.name}: wrong number of arguments: {len(args)} given, "
                            f"{len(self.in_params)} expected")
        P.classify(self.in_params, args, "input")
        if out is not None and not isinstance(out, ndarray):
            raise TypeError(f"out must be an npgpu array, not {type(out).__name__}")
        in_dts, (out_dt,), _ = P.resolve(self.in_params, args, self.out_params, [out])
        if self.reduce_type is None:
            red_dt = out_dt
        elif self.reduce_type.dtype is not None:
            red_dt = self.reduce_type.dtype
        else:
            red_dt = P.resolve(self.in_params, args, [self.reduce_type], [None])[1][0]
        arrays = [a for a in args if isinstance(a, ndarray)]
        if not arrays:
            raise ValueError("a reduction kernel needs at least one array argument")
        try:
            shape = np.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            raise ValueError("operands could not be broadcast together with shapes "
                             + " ".join(str(a.shape) for a in arrays)) from None
        inputs = []
        for p, a, dt in zip(self.in_params, args, in_dts):
            if not isinstance(a, ndarray):
                a = creation.asarray(np.asarray(a, dtype=dt))
            elif not np.can_cast(a.dtype, dt, "same_kind"):
                raise TypeError(f"Cannot cast parameter {p.name!r} from {a.dtype} to {dt} "
                                "according to the rule 'same_kind'")
            inputs.append(a if a.shape == shape else broadcast_to(a, shape))
        axes = R.normalize_axes(axis, len(shape))
        rshape = R.result_shape(shape, axes, keepdims)
        if out is None:
            out = creation.empty(rshape, out_dt)
        else:
            if out.shape not in (rshape, R.result_shape(shape, axes, True),
                                 R.result_shape(shape, axes, False)):
                raise ValueError(f"output {self.out_name!r} has shape {out.shape}, the "
                                 f"reduction gives {rshape}")
            if out._ro:
                fail_unless_writeable(out, f"output array {self.out_name!r}")
        spec, fmap = self._spec(in_dts, [a.dtype for a in inputs], out_dt, red_dt)
        # an ``out`` sharing memory with an input: the reduction writes a temporary (a row's
        # result may be stored while other rows are still being read)
        target = out
        if any(_copy.may_overlap(out, a) for a in inputs):
            target = creation.empty(out.shape, out.dtype)
        with stream if stream is not None else contextlib.nullcontext():
            R.run(spec, inputs[0], axes, target, keepdims=keepdims, fmap=fmap,
                  extra=inputs[1:])
            if target is not out:
                _copy.copy_into(out, target)
        if stream is None and key is not None:
            R.remember(key, spec, inputs[0], axes, keepdims, out, fmap=fmap, extra=inputs[1:])
        return out

    def _fast_key(self, args, axis, keepdims):
        """``reduce.fast_lookup`` of a call whose inputs are npgpu arrays of one shape (no
        broadcasting, no scalars): ``(key, replay)``, key None when the call may not replay."""
        a = args[0]
        if a.__class__ is not ndarray:
            return None, None
        extra = []
        for x in args[1:]:
            if x.__class__ is not ndarray or x.shape != a.shape:
                return None, None
            extra.append((x.dtype, x._strides, x._ptr & 7))
        return R.fast_lookup(self, a, axis, keepdims, tuple(extra))


def _expr(text, what):
    text = S.dedent(text, what)
    if "\n" in text:
        raise ValueError(f"{what} must be one expression, not several lines")
    return text


def _number(text, dt):
    """A numeric identity as a number (exact for integers), other source as it is."""
    try:
        v = complex(text.replace(" ", ""))
    except ValueError:
        return text
    if dt.kind == "c":
        return v
    if dt.kind in "iub":
        try:
            return int(text)
        except ValueError:
            return int(v.real)
    return v.real
