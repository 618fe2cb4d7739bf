"""The ``npgpu.ufunc`` object: NumPy's type resolution, out=/where=/dtype=/casting=, one launch.

Each ufunc is built from one row of :mod:`npgpu.ufuncs.table`; this module is
the only code path from a call to the elementwise generator.
"""
import math
import operator

import numpy as np

from .. import _hostmode
from .._codegen import compiler
from .._codegen import elementwise as _ew
from .._core import copy as _copy
from .._core.dtypes import check_dtype
from .._core.layout import c_shape_text
from .._core.ndarray import _ops, empty_array, fail_unless_writeable, ndarray
from ..cuda import runtime as _runtime

_multi_device = _runtime.multi_device

_PY_WEAK = {int: int, float: float, complex: complex}
_PY_SCALAR = frozenset((int, float, complex, bool))
_prod = math.prod           # an array's size from its shape (the ``size`` property loops in Python)
_grids = _ew.GRIDS          # (elements, launcher) -> (blocks, threads), read before _ew._grid
_BOOL = np.dtype(np.bool_)

# NEP 50: a comparison of an integer array with a Python int outside its dtype's range has one
# answer for every element, so NumPy 2 runs a constant loop instead of raising OverflowError
_COMPARISONS = {"equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
                "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge}
_CONSTANT = {v: _ew.ScalarOp.from_expr(("constant", v), 2, str(v)) for v in (False, True)}


def _arg_key(x):
    """What NumPy's resolver needs to know of an operand (weak Python scalars stay types)."""
    if isinstance(x, ndarray):
        return x.dtype
    t = type(x)
    if t in _PY_WEAK:
        return t
    if t is bool:
        return _BOOL
    if isinstance(x, np.generic):
        return check_dtype(x.dtype)
    return None


def _host_operand(x):
    """Anything that is not an npgpu array or a scalar (lists, NumPy arrays) goes to the device."""
    from ..creation import asarray
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return x[()]
    return asarray(x)


def operands(args):
    """(operands, resolver keys): npgpu arrays and scalars as they are, anything else (lists,
    NumPy arrays) copied to the device; keys as NumPy's resolver wants them."""
    inputs = []
    keys = []
    for x in args:
        k = _arg_key(x)
        if k is None:
            x = _host_operand(x)
            k = _arg_key(x)
        inputs.append(x)
        keys.append(k)
    return inputs, tuple(keys)


class ufunc:
    """A universal function running as generated kernels (NumPy's ``ufunc`` interface)."""

    def __init__(self, name, np_ufunc, loops, doc=None):
        self.__name__ = name
        self._np = np_ufunc
        self._loops = loops          # type-class key -> ScalarOp
        self._resolved = {}          # (arg keys, dtype, casting) -> (loop_in, loop_out, op)
        # input dtypes -> (launcher, out dtype, words args): the fast path (emptied with the
        # kernel cache, so an experiment's changed knob takes effect)
        self._plans = compiler.clears_with_memory_cache({})
        self._splans = {}            # (array dtype, scalar type, its position) -> resolution
        self._nin1 = np_ufunc.nin == 1 and np_ufunc.nout == 1
        self._nin2 = np_ufunc.nin == 2 and np_ufunc.nout == 1
        self._compare = _COMPARISONS.get(name)
        # checks of operand values NumPy's loop makes (raising); True: a cached plan would skip it
        self._value_check = _negative_power_check if name == "power" else None
        self.__doc__ = doc or np_ufunc.__doc__

    # attributes NumPy users read
    nin = property(lambda self: self._np.nin)
    nout = property(lambda self: self._np.nout)
    nargs = property(lambda self: self._np.nargs)
    ntypes = property(lambda self: len(self.types))
    identity = property(lambda self: self._np.identity)
    signature = property(lambda self: None)

    @property
    def types(self):
        """The loops NumPy has and npgpu runs (supported dtypes only)."""
        ok = set("?bBhHiIlLqQefdFD")
        return [t for t in self._np.types if set(t.replace("->", "")) <= ok]

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    # ---- type resolution ------------------------------------------------------------------------
    def _op_for(self, loop_in):
        # most specific first: full input signature, first input dtype, its kind, the default
        loops = self._loops
        op = (loops.get(",".join(d.name for d in loop_in)) or loops.get(loop_in[0].name)
              or loops.get(loop_in[0].kind) or loops.get(""))
        if op is None:
            raise TypeError(f"ufunc '{self.__name__}' not supported for the input types "
                            f"{tuple(str(d) for d in loop_in)} on the GPU")
        return op

    def resolve(self, keys, dtype=None, casting="same_kind"):
        ck = (keys, dtype, casting)
        r = self._resolved.get(ck)
        if r is not None:
            return r
        sig = None
        if dtype is not None:
            dt = check_dtype(dtype)
            sig = (None,) * self.nin + (dt,) * self.nout
        kw = {"signature": sig} if sig is not None else {}
        dts = self._np.resolve_dtypes(tuple(keys) + (None,) * self.nout, casting=casting, **kw)
        loop_in = tuple(dts[:self.nin])
        loop_out = tuple(dts[self.nin:])
        for d in loop_in + loop_out:
            check_dtype(d)
        r = (loop_in, loop_out, self._op_for(loop_in))
        self._resolved[ck] = r
        return r

    # ---- call ------------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        # Fast path: no options, C-contiguous npgpu arrays of one shape, one output.
        # Everything host-side is cached per input dtypes in ``_plans``.
        if not kwargs and not _multi_device[0]:
            if self._nin2 and len(args) == 2:
                a, b = args
                if (a.__class__ is ndarray and b.__class__ is ndarray and a._c_contig
                        and b._c_contig and a.shape == b.shape):
                    plan = self._plans.get((a.dtype, b.dtype))
                    if plan is not None:
                        kern, odt, words = plan
                        out = empty_array(a.shape, odt)
                        n = _prod(a.shape)
                        if words is not None and n >= _ew.WORDS_MIN:
                            _ew.launch_words(words, kern, n, (out, a, b))
                        elif n:
                            iso, isa, isb = odt.itemsize, a.dtype.itemsize, b.dtype.itemsize
                            g, blk = _grids.get((n, kern)) or _ew._grid(n, kern)
                            kern(g, blk, (n, 0, 0, n, iso, out._ptr, n, iso, 0, 0, n, isa, a._ptr,
                                          n, isa, 0, 0, n, isb, b._ptr, n, isb))
                        return out
                # one array and a Python scalar (x * 2, 1.0 - x): the resolution is the
                # scalar's type's (NEP 50), remembered per (array dtype, type, position)
                if a.__class__ is ndarray and b.__class__ in _PY_SCALAR:
                    plan = self._splans.get((a.dtype, b.__class__, 1))
                    if plan is not None:
                        return self._scalar_call(plan, args, a, 1)
                elif b.__class__ is ndarray and a.__class__ in _PY_SCALAR:
                    plan = self._splans.get((b.dtype, a.__class__, 0))
                    if plan is not None:
                        return self._scalar_call(plan, args, b, 0)
            elif self._nin1 and len(args) == 1:
                a = args[0]
                if a.__class__ is ndarray and a._c_contig:
                    plan = self._plans.get(a.dtype)
                    if plan is not None:
                        kern, odt, words = plan
                        out = empty_array(a.shape, odt)
                        n = _prod(a.shape)
                        if words is not None and n >= _ew.WORDS_MIN:
                            _ew.launch_words(words, kern, n, (out, a))
                        elif n:
                            iso, isa = odt.itemsize, a.dtype.itemsize
                            g, blk = _grids.get((n, kern)) or _ew._grid(n, kern)
                            kern(g, blk, (n, 0, 0, n, iso, out._ptr, n, iso, 0, 0, n, isa, a._ptr,
                                          n, isa))
                        return out
        return self._call(*args, **kwargs)

    def _scalar_call(self, plan, args, a, pos):
        """The remembered resolution of (array, Python scalar) applied: the scalar converted to
        its loop dtype (an out-of-range int takes the full path: NumPy's error or constant)."""
        loop_in, loop_out, op = plan
        try:
            sc = _scalar(args[pos], loop_in[pos])
        except OverflowError:
            return self._call(*args)
        out = empty_array(a.shape, loop_out[0],
                          "F" if a._f_contig and not a._c_contig else "C")
        _ew.launch(op, [a, sc] if pos else [sc, a], loop_in, [out], loop_out,
                   name=self.__name__)
        return out

    def _make_plan(self, inputs, loop_in, loop_out, op):
        """Remember the launcher of the all-contiguous-arrays case for these input dtypes."""
        dts = tuple(x.dtype for x in inputs)
        # the words kernel (large 4-byte operands) is compiled on its first use; where words
        # take every size (the simulator), so is the element kernel (misaligned views only)
        words = _ew.words_plan(op, dts, loop_out, loop_in, loop_out, self.__name__)
        kern = (None if words is not None and _ew.WORDS_MIN <= 1 else
                _ew.contig_kernel(op, dts, loop_out, loop_in, loop_out, self.__name__))
        self._plans[dts[0] if len(dts) == 1 else dts] = (kern, loop_out[0], words)

    def _call(self, *args, out=None, where=True, casting="same_kind", order="K", dtype=None,
              subok=True, signature=None, **kwargs):
        for x in args:          # inside @npgpu.fuse: record instead of running
            trace = getattr(x, "_fuse_trace", None)
            if trace is not None:
                return trace.apply(self, args, _options(kwargs, out=out, dtype=dtype,
                                                        casting=casting, where=where))
        if _hostmode.on_host(*args, *(out if isinstance(out, tuple) else (out,))):
            # a host-mode @npgpu.fuse call: NumPy inputs compute with NumPy
            return self._np(*args, **_options(kwargs, out=out, dtype=dtype, casting=casting,
                                              where=where, order=order, subok=subok,
                                              signature=signature))
        if kwargs:
            bad = next(iter(kwargs))
            raise TypeError(f"{self.__name__}() got an unexpected keyword argument '{bad}'")
        nin, nout = self.nin, self.nout
        if len(args) > nin:
            if out is not None:
                raise TypeError("cannot specify 'out' as both a positional and keyword argument")
            out = args[nin:]
            args = args[:nin]
        if len(args) != nin:
            raise TypeError(f"{self.__name__}() takes from {nin} to {nin + nout} positional "
                            f"arguments but {len(args)} were given")
        if signature is not None and dtype is None:
            dtype = signature if not isinstance(signature, (tuple, str)) else None
        outs = self._normalize_out(out)
        inputs, keys = operands(args)
        loop_in, loop_out, op = self.resolve(tuple(keys), dtype, casting)
        if _multi_device[0]:
            _check_devices(inputs, outs)
        # scalars become NumPy scalars of the loop's input dtype (NumPy's overflow errors included)
        op0 = op
        arrays = []
        for i, x in enumerate(inputs):
            if isinstance(x, ndarray):
                arrays.append(x)
            else:
                try:
                    inputs[i] = _scalar(x, loop_in[i])
                except OverflowError:
                    op = self._out_of_range(inputs, i, loop_in)
                    if op is None:
                        raise
                    inputs[i] = loop_in[i].type(0)    # unread by the constant loop
        if len(arrays) == 1:
            shape = arrays[0].shape
        else:
            try:
                shape = np.broadcast_shapes(*(a.shape for a in arrays))
            except ValueError:
                raise _operands_error(inputs, outs) from None
        checked = self._value_check is not None and self._value_check(inputs, loop_in, shape, where)
        if where is not True:
            return self._call_where(inputs, loop_in, loop_out, op, shape, outs, where, casting, order)
        fresh = outs is None
        if (fresh and dtype is None and casting == "same_kind" and nin == 2 and self.nout == 1
                and len(arrays) == 1 and op is op0 and self._value_check is None
                and order == "K" and signature is None):
            pos = 0 if args[1] is arrays[0] else 1
            if args[pos].__class__ in _PY_SCALAR and args[1 - pos].__class__ is ndarray:
                self._splans[(arrays[0].dtype, args[pos].__class__, pos)] = \
                    (loop_in, loop_out, op)
        if (fresh and dtype is None and casting == "same_kind" and self.nout == 1
                and len(arrays) == nin and self.nin <= 2 and not checked
                and (arrays[0].dtype if nin == 1 else tuple(a.dtype for a in arrays))
                not in self._plans):
            self._make_plan(inputs, loop_in, loop_out, op)
        outs = self._prepare_out(outs, shape, loop_out, casting, order, arrays, inputs)
        if not fresh:   # a new output cannot overlap the inputs
            self._guard_overlap(inputs, outs, shape)
        _ew.launch(op, inputs, loop_in, outs, loop_out, name=self.__name__)
        return outs[0] if nout == 1 else tuple(outs)

    def _out_of_range(self, inputs, i, loop_in):
        """The constant loop of a comparison of an integer array (or NumPy integer) with a Python
        int outside its dtype's range (NumPy 2's special case); None where NumPy raises."""
        x, other = inputs[i], inputs[1 - i]
        if (self._compare is None or type(x) is not int or loop_in[i].kind not in "iu"
                or not isinstance(other, (ndarray, np.generic)) or other.dtype.kind not in "iu"):
            return None
        info = np.iinfo(loop_in[i])
        edge = info.max if x > info.max else info.min    # every element compares as the edge does
        return _CONSTANT[bool(self._compare(x, edge) if i == 0 else self._compare(edge, x))]

    def _normalize_out(self, out):
        if out is None:
            return None
        if not isinstance(out, tuple):
            out = (out,)
        if len(out) != self.nout:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        for o in out:
            if o is not None:
                if not isinstance(o, ndarray):
                    raise TypeError("return arrays must be of ArrayType (npgpu.ndarray)")
                if o._ro:
                    fail_unless_writeable(o, "output array")
        return out

    def _prepare_out(self, outs, shape, loop_out, casting, order, arrays, inputs=None,
                     where=None):
        if order in ("K", "A"):
            order = "F" if arrays and all(a._f_contig and not a._c_contig for a in arrays) else "C"
        res = []
        for j in range(self.nout):
            o = None if outs is None else outs[j]
            if o is None:
                o = empty_array(shape, loop_out[j], order)
            else:
                if o.shape != shape:
                    try:
                        full = np.broadcast_shapes(o.shape, shape)
                    except ValueError:
                        raise _operands_error(arrays if inputs is None else inputs,
                                              outs, where) from None
                    if full != o.shape:
                        raise ValueError("non-broadcastable output operand with shape "
                                         f"{c_shape_text(o.shape)} doesn't match the broadcast "
                                         f"shape {c_shape_text(full)}")
                if not np.can_cast(loop_out[j], o.dtype, casting=casting):
                    raise _casting_error(self.__name__, loop_out[j], o.dtype, casting, j)
            res.append(o)
        return res

    @staticmethod
    def _guard_overlap(inputs, outs, shape):
        """Inputs that overlap an output other than element-for-element are copied first."""
        for i, x in enumerate(inputs):
            if isinstance(x, ndarray):
                for o in outs:
                    if _copy.may_overlap(o, x) and not _copy.same_elements(o, x, o.shape):
                        inputs[i] = x.copy()
                        break

    def _call_where(self, inputs, loop_in, loop_out, op, shape, outs, where, casting, order):
        from ..creation import asarray
        mask = asarray(where)
        if mask.dtype != _BOOL:
            mask = mask.astype(_BOOL)
        try:
            shape = np.broadcast_shapes(shape, mask.shape)
        except ValueError:
            raise _operands_error(inputs, outs, mask) from None
        arrays = [x for x in inputs if isinstance(x, ndarray)]
        outs = self._prepare_out(outs, shape, loop_out, casting, order, arrays, inputs, mask)
        tmp = [empty_array(shape, d) for d in loop_out]
        self._guard_overlap(inputs, tmp, shape)
        _ew.launch(op, inputs, loop_in, tmp, loop_out, name=self.__name__)
        for o, t in zip(outs, tmp):
            masked_copy(o, t, mask)
        return outs[0] if self.nout == 1 else tuple(outs)

    # ---- methods ---------------------------------------------------------------------------------
    def outer(self, A, B, **kwargs):
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        from ..creation import asarray
        A = A if np.isscalar(A) else asarray(A)
        B = B if np.isscalar(B) else asarray(B)
        if isinstance(A, ndarray) and isinstance(B, ndarray):
            A = A.reshape(A.shape + (1,) * B.ndim)
        return self(A, B, **kwargs)

    def reduce(self, *args, **kwargs):
        from .. import _core
        return _core.ndarray._ops["ufunc_reduce"](self, *args, **kwargs)

    def accumulate(self, *args, **kwargs):
        from .. import _core
        return _core.ndarray._ops["ufunc_accumulate"](self, *args, **kwargs)

    def reduceat(self, *args, **kwargs):
        from .. import _core
        return _core.ndarray._ops["ufunc_reduceat"](self, *args, **kwargs)

    def at(self, a, indices, b=None):
        from .. import _core
        return _core.ndarray._ops["ufunc_at"](self, a, indices, b)


def _check_devices(inputs, out):
    """Operands must live on the current device (checked once several devices are in use)."""
    cur = _runtime.get_device_id()
    for x in list(inputs) + list(out or ()):
        if isinstance(x, ndarray) and x._mem.device_id != cur:
            raise ValueError(f"array on device {x._mem.device_id} cannot be used in an operation "
                             f"on device {cur}; copy it with npgpu.asarray inside "
                             f"`with npgpu.cuda.Device({cur}):` first")


def _negative_power_check(inputs, loop_in, shape, where):
    """NumPy's integer power loop raises on a negative exponent among the elements it computes.

    A scalar exponent is tested on the host; a signed array exponent on the device (its minimum,
    or with ``where=`` any negative under the mask: one reduction and one scalar read, which
    synchronises). Returns True where the answer depends on array values, so no plan caches
    the call."""
    e = inputs[1]
    scalar = not isinstance(e, ndarray)
    if loop_in[1].kind not in "iu" or not (scalar or e.dtype.kind == "i"):
        return False
    if scalar and not e < 0:
        return False
    if 0 not in shape:      # an empty result computes nothing, so NumPy checks nothing
        ops = _ops
        if where is not True:
            from ..creation import asarray
            mask = asarray(where)
            bad = ops["any"](mask if scalar else ops["logical_and"](ops["less"](e, 0), mask))
            bad = bad.item()
        else:
            bad = scalar or ops["min"](e).item() < 0
        if bad:
            raise ValueError("Integers to negative integer powers are not allowed.")
    return True


_DEFAULTS = {"out": None, "dtype": None, "casting": "same_kind", "where": True, "order": "K",
             "subok": True, "signature": None}


def _options(kwargs, **given):
    """The keyword arguments of a call that differ from the defaults (for @npgpu.fuse)."""
    kw = dict(kwargs)
    for k, v in given.items():
        if v is not _DEFAULTS[k]:
            kw[k] = v
    return kw


def _scalar(x, dt):
    if isinstance(x, np.generic) and x.dtype == dt:
        return x
    if dt.kind in "iu" and isinstance(x, int) and not isinstance(x, bool):
        return dt.type(x)      # OverflowError for out-of-range Python ints, as NumPy
    if x.__class__ is float and dt.kind in "fc" or x.__class__ is complex and dt.kind == "c":
        return dt.type(x)      # what astype gives (rounding, inf, nan), without an array
    if x.__class__ is bool and dt.kind == "b":
        return dt.type(x)
    return np.asarray(x).astype(dt)[()]


def _operands_error(inputs, outs, where=None):
    """NumPy's error for operands (inputs, then any ``out=`` arrays, then ``where``) that do not
    broadcast."""
    shapes = [np.shape(x) if not isinstance(x, ndarray) else x.shape for x in inputs]
    shapes += [o.shape for o in (outs or ()) if o is not None]
    if where is not None:
        shapes.append(where.shape)
    return ValueError("operands could not be broadcast together with shapes "
                      + "".join(c_shape_text(sh) + " " for sh in shapes))


def _casting_error(name, frm, to, casting, j):
    return TypeError(f"Cannot cast ufunc '{name}' output from {frm!r} to {to!r} with casting "
                     f"rule '{casting}'")


_SELECT = _ew.ScalarOp.from_expr("where_select", 3, "x1 if x0 else x2")


def masked_copy(dst, src, mask):
    """dst[mask] = src[mask] elementwise (broadcasting src and mask to dst)."""
    _ew.launch(_SELECT, [mask, src, dst], [_BOOL, dst.dtype, dst.dtype], [dst], [dst.dtype],
               name="where")
