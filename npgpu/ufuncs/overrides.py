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
        au = getattr(t, "__array_ufunc__", NONE)
        if au is None:
            raise TypeError(f"operand {t.__name__!r} does not support ufuncs "
                            "(__array_ufunc__=None)")
        if au is NONE or au in _OWN or any(o.__class__ is t for o in found):
            continue
        if getattr(x, "_fuse_trace", None) is not None:
            continue        # a value inside @npgpu.fuse: the ufunc records it
        at = next((i for i, o in enumerate(found) if issubclass(t, o.__class__)), len(found))
        found.insert(at, x)
    return found


def _plain(args, out, where=None):
    """True where no operand can override (the common call: ~0.2 us, no lookups)."""
    plain = _PLAIN
    for x in (*args, *out, where) if out.__class__ is tuple else (*args, out, where):
        if x.__class__ not in plain:
            return False
    return True


def dispatch(uf, method, args, kwargs):
    """The override's answer to ``uf.method(*args, **kwargs)``, or ``NONE`` where no operand
    has one.  The overrides see NumPy's normalised call: the inputs positional, ``out`` a tuple
    of one entry an output, ``sig`` spelled ``signature``."""
    out = kwargs.get("out")
    if _plain(args, out):
        return NONE
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
    return _hand_on(uf, method, args[:nin], kw, found)


# a method's operands checked for overrides and the names of its later positional parameters,
# as NumPy normalises them (keywords for the override)
_METHODS = {"reduce": (1, ("axis", "dtype", "out", "keepdims", "initial", "where")),
            "accumulate": (1, ("axis", "dtype", "out")),
            "reduceat": (2, ("axis", "dtype", "out")),
            "outer": (2, ()), "at": (3, ())}


def dispatch_method(uf, method, args, kwargs):
    """:func:`dispatch` for the ufunc methods: the override's answer to ``uf.method(*args,
    **kwargs)``, or ``NONE`` where no operand (inputs, ``out``, reduce's ``where``) has one or
    the call's arguments do not parse (the method then raises NumPy's error)."""
    if _plain(args, kwargs.get("out"), kwargs.get("where")):
        return NONE
    nin, names = _METHODS[method]
    nin = min(nin, len(args))
    if len(args) > nin + len(names) or any(n in kwargs for n in names[:len(args) - nin]):
        return NONE
    kw = dict(zip(names, args[nin:]))
    if "out" in kw:         # NumPy lists a positional out first
        kw = {"out": kw.pop("out"), **kw}
    kw.update(kwargs)
    if "out" in kw:
        out = kw["out"]
        kw["out"] = out if isinstance(out, tuple) else (out,)
        if all(o is None for o in kw["out"]):
            del kw["out"]
    inputs = args[:nin]
    objs = inputs + kw.get("out", ()) + ((kw["where"],) if "where" in kw else ())
    found = _overriders(objs)
    if not found:
        return NONE
    return _hand_on(uf, method, inputs, kw, found)


def _hand_on(uf, method, inputs, kw, found):
    for x in found:
        res = x.__array_ufunc__(uf, method, *inputs, **kw)
        if res is not NotImplemented:
            return res
    call = ", ".join([repr(uf), repr(method)] + [repr(x) for x in inputs]
                     + [f"{k}={v!r}" for k, v in kw.items()])
    names = ", ".join(repr(type(x).__name__) for x in inputs + kw.get("out", ()) if x is not None)
    raise TypeError(f"operand type(s) all returned NotImplemented from __array_ufunc__({call}): "
                    f"{names}")
