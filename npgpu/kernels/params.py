"""CuPy's parameter grammar for user kernels, and binding arguments to it.

``"T x, raw float32 y, int64 n"``: each parameter is ``[raw] <type> <name>``, where ``<type>``
is a NumPy dtype name (``float32``, ``int64``, ``bool``, ``complex128``...) or a placeholder
(a name starting with a capital letter, ``T``) resolved from the arguments.  ``raw`` hands the
whole array to the operation (indexed by the user, usually with ``i``) instead of one element.
"""
import keyword
import re

import numpy as np

from .._core.dtypes import check_dtype
from .._core.ndarray import ndarray

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_PLACEHOLDER = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")
# names the generated device function uses or the operation may not rebind
RESERVED = {"i", "cuda", "math", "cmath", "np", "ptx", "libdevice"}


class ParamSpec:
    """One parameter: ``name``, ``dtype`` (a NumPy dtype) or ``placeholder`` (a name), ``raw``."""
    __slots__ = ("name", "dtype", "placeholder", "raw")

    def __init__(self, name, dtype, placeholder, raw):
        self.name, self.dtype, self.placeholder, self.raw = name, dtype, placeholder, raw

    def __repr__(self):
        t = self.placeholder or str(self.dtype)
        return f"{'raw ' if self.raw else ''}{t} {self.name}"


def parse(text, what):
    """``text`` (a parameter list) as ParamSpecs; ``what`` ('in_params' / 'out_params') names it
    in errors."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    out = []
    if not text.strip():
        return out
    for part in text.split(","):
        words = part.split()
        raw = bool(words) and words[0] == "raw"
        if raw:
            words = words[1:]
        if len(words) != 2:
            raise ValueError(f"{what}: cannot parse parameter {part.strip()!r} "
                             "(expected '[raw] <type> <name>')")
        tname, name = words
        if not _NAME.match(name) or keyword.iskeyword(name):
            raise ValueError(f"{what}: invalid parameter name {name!r}")
        if name in RESERVED:
            raise ValueError(f"{what}: parameter name {name!r} is reserved")
        if any(p.name == name for p in out):
            raise ValueError(f"{what}: duplicate parameter name {name!r}")
        out.append(_spec(tname, name, raw, what))
    return out


def _spec(tname, name, raw, what):
    if _PLACEHOLDER.match(tname):
        return ParamSpec(name, None, tname, raw)
    try:
        dt = check_dtype(np.dtype(tname))
    except TypeError:
        raise TypeError(f"{what}: unknown type {tname!r} of parameter {name!r}") from None
    return ParamSpec(name, dt, None, raw)


def check_names(ins, outs):
    seen = {p.name for p in ins}
    for p in outs:
        if p.name in seen:
            raise ValueError(f"out_params: parameter name {p.name!r} is also an input")
        if p.raw:
            raise ValueError(f"out_params: output {p.name!r} cannot be raw")


def _scalar_dtype(v):
    """The dtype a Python or NumPy scalar binds a placeholder to (Python int -> int64, float ->
    float64, as CuPy)."""
    if isinstance(v, np.generic):
        return v.dtype
    if isinstance(v, bool):
        return np.dtype(np.bool_)
    if isinstance(v, int):
        return np.dtype(np.int64)
    if isinstance(v, float):
        return np.dtype(np.float64)
    if isinstance(v, complex):
        return np.dtype(np.complex128)
    return None


def classify(specs, args, what="argument"):
    """Check each argument is an npgpu array or a scalar (raw parameters: arrays only)."""
    for p, a in zip(specs, args):
        if isinstance(a, ndarray):
            continue
        if p.raw:
            raise TypeError(f"raw parameter {p.name!r} needs an npgpu array, not "
                            f"{type(a).__name__}")
        if _scalar_dtype(a) is None:
            raise TypeError(f"Unsupported type {type(a).__name__} for {what} {p.name!r}"
                            + (" (host arrays are not copied implicitly: use npgpu.asarray)"
                               if isinstance(a, np.ndarray) else ""))


def resolve(ins, args, outs=(), outputs=None):
    """Placeholder -> dtype from the arguments (arrays first, then scalars, then given
    outputs); the dtypes of every input and output parameter.  A placeholder bound to two
    different array dtypes, or left unbound, is a TypeError naming the parameter."""
    bound = {}
    for p, a in zip(ins, args):
        if p.placeholder and isinstance(a, ndarray):
            prev = bound.get(p.placeholder)
            if prev is not None and prev[0] != a.dtype:
                raise TypeError(f"Type is mismatched: parameter {p.name!r} is {a.dtype}, but "
                                f"{p.placeholder} is {prev[0]} (from {prev[1]!r})")
            bound[p.placeholder] = (a.dtype, p.name)
    for p, a in zip(ins, args):
        if p.placeholder and p.placeholder not in bound and not isinstance(a, ndarray):
            bound[p.placeholder] = (_scalar_dtype(a), p.name)
    if outputs is not None:
        for p, o in zip(outs, outputs):
            if p.placeholder and p.placeholder not in bound and o is not None:
                bound[p.placeholder] = (o.dtype, p.name)

    def dtype_of(p, what):
        if p.dtype is not None:
            return p.dtype
        hit = bound.get(p.placeholder)
        if hit is None:
            raise TypeError(f"Cannot determine the type {p.placeholder} of {what} {p.name!r}")
        return hit[0]

    return ([dtype_of(p, "input") for p in ins], [dtype_of(p, "output") for p in outs], bound)
