"""``npgpu.vectorize``: a scalar Python function as a broadcasting elementwise kernel.

The function is compiled, not traced: its source becomes a Numba device function
(:mod:`.pyfunc`) that the elementwise template's ``op`` calls, so branches and loops are fine.
Without ``otypes`` the outputs' dtypes are what Numba's CPU typing of the function gives for
the inputs' dtypes (the simulator and the GPU agree; NumPy instead calls the function on the
first element, so e.g. ``float32 * 2.0`` is float64 here, float32 in NumPy).

A repeat call whose positional arguments are all C-contiguous npgpu arrays of one shape, with
dtypes an earlier such call had, replays that call's launch (``ew.ContigPlan``, the ufuncs'
cached plan): no binding, broadcasting or layout analysis, one allocation per output and one
launch.  ``NPGPU_ELEMENTWISE_KERNEL_REPLAY=0`` turns it off (see ``kernels/elementwise.py``).
"""
import functools
import hashlib
import inspect

import numpy as np

from .. import creation
from .._codegen import compiler
from .._codegen import elementwise as ew
from .._core.call_cache import store
from .._core.ndarray import empty_array, ndarray
from ..cuda.runtime import multi_device as _multi_device
from . import elementwise as _ewk
from . import pyfunc as _pyfunc

_NOVALUE = object()


def _otypes(otypes):
    """NumPy's normalisation of ``otypes`` (its errors) -> (NumPy's value: the string of type
    codes or a list of dtypes; a tuple of dtypes), or (None, None)."""
    if otypes is None:
        return None, None
    if isinstance(otypes, str):
        for char in otypes:
            if char not in np.typecodes["All"]:
                raise ValueError(f"Invalid otype specified: {char}")
    elif np.iterable(otypes):
        otypes = [np.dtype(x) for x in otypes]
    else:
        raise ValueError("Invalid otype specification")
    out = tuple(np.dtype(c) for c in otypes)
    for dt in out:
        if dt.kind in "OSUVMm":
            raise TypeError(f"npgpu.vectorize: output type {dt} is not supported on the GPU")
    return otypes, out


def _inferred(helpers, name, in_dts):
    """Output dtypes of the rendered function ``name`` (among ``helpers``) for scalar inputs of
    ``in_dts``, by Numba's CPU typing of the same source the kernel compiles."""
    import cmath
    import math

    import numba
    from numba.core import types
    from numba.np.numpy_support import as_dtype, from_dtype

    ns = {"math": math, "cmath": cmath, "np": np}
    for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "float32", "float64", "complex64", "complex128", "boolean"):
        ns[t] = getattr(types, t)
    for src in helpers:                 # callees first: each is jitted before its callers run
        fname = src.split("(", 1)[0].split()[-1]
        exec(compile(src, f"<npgpu-vectorize {fname}>", "exec"), ns)
        ns[fname] = numba.njit(ns[fname])
    disp = ns[name]
    sig = tuple(from_dtype(d) for d in in_dts)
    try:
        disp.compile(sig)
    except Exception as e:
        raise TypeError(f"npgpu.vectorize: {name.rsplit('_', 1)[0]} does not compile for "
                        f"inputs ({', '.join(map(str, in_dts))}): {e}") from None
    rt = disp.overloads[sig].signature.return_type
    items = list(rt) if isinstance(rt, types.BaseTuple) else [rt]
    try:
        return tuple(np.dtype(np.bool_) if isinstance(t, types.Boolean) else as_dtype(t)
                     for t in items)
    except Exception:
        raise TypeError(f"npgpu.vectorize: the function returns {rt}, not numbers") from None


class vectorize:
    """``vectorize(pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None)``:
    NumPy's ``vectorize``, compiled into one elementwise kernel per input dtypes."""

    def __init__(self, pyfunc=_NOVALUE, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        if pyfunc is not _NOVALUE and not callable(pyfunc):
            raise TypeError("vectorize: pyfunc must be callable")
        if signature is not None:
            raise NotImplementedError("npgpu.vectorize does not support signature= "
                                      "(generalized ufuncs)")
        if excluded:
            raise NotImplementedError("npgpu.vectorize does not support excluded=")
        self.pyfunc = pyfunc
        self._plans = {}         # input dtypes -> (op, output dtypes)
        self._replays = {}       # the arrays' dtypes -> ew.ContigPlan (repeat calls)
        self.otypes = otypes
        self.cache = cache
        self.signature = signature
        self.excluded = set()
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)
        compiler.forgets_launchers_with_memory_cache(self)
        self._source = None
        self._sig = None
        if pyfunc is not _NOVALUE:
            functools.update_wrapper(self, pyfunc, assigned=("__module__", "__name__",
                                                             "__qualname__"))

    @property
    def otypes(self):
        """NumPy's ``otypes``: the string of type codes or list of dtypes given, or None."""
        return self._otypes_str

    @otypes.setter
    def otypes(self, otypes):
        # NumPy's tests and users assign ``f.otypes = 'i'`` after construction: the plans made
        # for the old output dtypes no longer hold
        self._otypes_str, self._otypes = _otypes(otypes)
        self._plans.clear()
        self._replays.clear()

    def forget_launchers(self):
        """Drop the repeat-call replays (``compiler.clear_memory_cache``: a changed knob)."""
        self._replays.clear()

    def __call__(self, *args, **kwargs):
        if self.pyfunc is _NOVALUE:         # @vectorize(otypes=...) as a decorator
            if kwargs or len(args) != 1:
                raise TypeError("vectorize: the decorator takes one function")
            return vectorize(args[0], otypes=self.otypes, doc=self.__doc__)
        if not kwargs and args and _ewk.REPLAY and not _multi_device[0]:
            key = _ewk.replay_key(args)
            plan = None if key is None else self._replays.get(key)
            if plan is not None:
                shape = args[0].shape
                outs = [empty_array(shape, d) for d in plan.out_dtypes]
                n = outs[0].size
                if n or self._otypes is not None:    # (size 0 without otypes: the error below)
                    plan(n, (*outs, *args))
                    return outs[0] if len(outs) == 1 else tuple(outs)
        given = args
        sig = self._sig
        if sig is None:
            try:
                sig = self._sig = inspect.signature(self.pyfunc)
            except ValueError:       # no signature (builtins): Numba will say
                sig = self._sig = False
        if sig:
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()       # defaults are scalar inputs of the kernel
            args = bound.args
        inputs = []
        for a in args:
            if isinstance(a, ndarray):
                inputs.append(a)
            elif isinstance(a, (bool, int, float, complex, np.generic)):
                inputs.append(np.asarray(a)[()])
            else:
                inputs.append(creation.asarray(a))
        in_dts = [ew.compute_dtype(x.dtype) for x in inputs]
        shape = np.broadcast_shapes(*(np.shape(x) if isinstance(x, np.generic) else x.shape
                                      for x in inputs)) if inputs else ()
        if self._otypes is None and 0 in shape:
            raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
        op, out_dts = self._plan(tuple(in_dts))
        outs = [creation.empty(shape, dt) for dt in out_dts]
        # every input one of the caller's arrays (no defaults, no keywords): later calls with
        # these dtypes replay this launch, and so does this one
        key = (_ewk.replay_key(args) if _ewk.REPLAY and not kwargs and args
               and len(args) == len(given) else None)
        if key is not None:
            plan = store(self._replays, key, ew.ContigPlan(op, key, in_dts, out_dts, "vectorize"))
            plan(outs[0].size, (*outs, *args))
        else:
            loop = [x.astype(d) if isinstance(x, np.generic) else x
                    for x, d in zip(inputs, in_dts)]
            ew.launch(op, loop, in_dts, outs, out_dts, name="vectorize")
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _plan(self, in_dts):
        hit = self._plans.get(in_dts)
        if hit is not None:
            return hit
        if self._source is None:
            self._source = _pyfunc.device_sources(self.pyfunc)
        helpers, name = self._source
        out_dts = self._otypes if self._otypes is not None else _inferred(helpers, name, in_dts)
        args = ", ".join(f"x{k}" for k in range(len(in_dts)))
        call = f"{name}({args})"
        if len(out_dts) > 1:
            items = ", ".join(f"r[{j}]" for j in range(len(out_dts)))
            body = f"    r = {call}\n    return ({items},)"
        else:
            body = f"    return {call}"
        src = f"def op({args}):\n{body}\n"
        h = hashlib.sha1((src + "\0".join(helpers)).encode()).hexdigest()[:16]
        op = ew.ScalarOp(("vec", h), len(in_dts), len(out_dts), src, helpers)
        self._plans[in_dts] = (op, out_dts)
        return op, out_dts
