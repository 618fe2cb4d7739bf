"""NEP 13 for npgpu's ufuncs: an operand whose class defines its own ``__array_ufunc__`` (a
wrapper array, a unit type, a Dask array) gets the call, as NumPy's ufuncs hand it on."""
import numpy as np

from .._core.ndarray import ndarray

# the classes whose __array_ufunc__ is npgpu's or NumPy's own (never an override)
_OWN = (ndarray.__array_ufunc__, np.ndarray.__array_ufunc__)
_PLAIN = frozenset((ndarray, np.ndarray, int, float, complex, bool, str, bytes, type(None),
                    list, tuple))
NONE = object()         # no operand overrides the call


def _overriders(objs):
    """Operands with an override, subclasses before their bases, else left to right (NumPy's
    order); one per class."""
    found = []
    for x in objs:
        t = x.__class__
        if t in _PLAIN or isinstance(x, np.generic):
            continue
        au = getattr(t, "__array_ufunc__", None)
        if au is None or au in _OWN or any(o.__class__ is t for o in found):
            continue
        at = next((i for i, o in enumerate(found) if issubclass(t, o.__class__)), len(found))
        found.insert(at, x)
    return found


def dispatch(uf, method, args, kwargs):
    """The override's answer to ``uf.method(*args, **kwargs)``, or ``NONE`` where no operand
    has one.  The overrides see NumPy's normalised call: the inputs positional, ``out`` a tuple
    of one entry an output, ``sig`` spelled ``signature``."""
    out = kwargs.get("out")
    plain = _PLAIN
    for x in (*args, *out) if out.__class__ is tuple else (*args, out):
        if x.__class__ not in plain:
            break
    else:
        return NONE         # the common call: nothing to look up (~0.2 us, not ~0.5)
    nin = uf.nin if method == "__call__" else 1
    outs = args[nin:] + (out if isinstance(out, tuple) else (out,))
    found = _overriders(args[:nin] + outs)
    if not found:
        return NONE
    kw = dict(kwargs)
    if len(args) > nin:
        if "out" in kw:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        kw["out"] = tuple(args[nin:]) + (None,) * (uf.nout - len(args) + nin)
    elif "out" in kw:
        if not isinstance(out, tuple):
            if uf.nout > 1:
                raise TypeError("'out' must be a tuple of arrays")
            kw["out"] = (out,)
        if method == "__call__" and len(kw["out"]) != uf.nout:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    if "out" in kw and all(o is None for o in kw["out"]):
        del kw["out"]
    if "sig" in kw:
        kw["signature"] = kw.pop("sig")
    inputs = args[:nin]
    for x in found:
        res = x.__array_ufunc__(uf, method, *inputs, **kw)
        if res is not NotImplemented:
            return res
    call = ", ".join([repr(uf), repr(method)] + [repr(x) for x in inputs]
                     + [f"{k}={v!r}" for k, v in kw.items()])
    names = ", ".join(repr(type(x).__name__) for x in inputs + kw.get("out", ()) if x is not None)
    raise TypeError(f"operand type(s) all returned NotImplemented from __array_ufunc__({call}): "
                    f"{names}")
