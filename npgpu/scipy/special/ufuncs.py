"""npgpu.scipy.special's ufuncs: npgpu ufuncs built from :mod:`.table` by the ufunc registry.

An npgpu ufunc takes NumPy's ufunc for its name, arity and type resolution.  SciPy is not
imported with npgpu (it is slow to import), so each row gets a :class:`LoopSpec` in its place:
the same interface, resolving dtypes as NumPy does for SciPy's float32/float64 loops, in the
installed SciPy's loop order (read on a function's first call).
"""
import numpy as np

from ...ufuncs.registry import build_ufunc
from .table import BINARY, F64_TABLE, HEAVY, TABLE

_WEAK = (int, float)        # Python scalars (NEP 50): they take the loop of the arrays


def _scipy_ufunc(name):
    """SciPy's ufunc ``name``; the private ones (``_zeta``, ``_riemann_zeta``, behind SciPy's
    Python ``zeta``) live in scipy.special._ufuncs."""
    import scipy.special
    if name.startswith("_"):
        import scipy.special._ufuncs
        return getattr(scipy.special._ufuncs, name)
    return getattr(scipy.special, name)


class LoopSpec:
    """The part of a NumPy ufunc an npgpu ufunc reads, for a SciPy ufunc with real loops only."""

    nout = 1
    identity = None

    def __init__(self, name, nin, order):
        self.__name__ = name
        self.nin = nin
        self.nargs = nin + 1
        self._order = None          # SciPy's own order, read on first use (_loop_order)
        self._table_order = order
        self.types = [c * nin + "->" + c for c in order]
        self.__doc__ = (f"scipy.special.{name} on npgpu arrays (an npgpu ufunc: loops "
                        f"{', '.join(self.types)}).")

    def resolve_dtypes(self, dtypes, *, signature=None, casting="same_kind"):
        """NumPy's choice for SciPy's loops: an exact match first, else the first loop (in
        SciPy's order) every input casts to safely; all-Python-scalar inputs as their default
        dtypes.  ``signature``'s output (``dtype=``) picks the loop, inputs cast by ``casting``."""
        ins = list(dtypes[:self.nin])
        arrays = [k for k in ins if isinstance(k, np.dtype)]
        if not arrays:
            ins = [np.dtype(k) for k in ins]
        elif float in ins and all(k.kind in "biu" for k in arrays):
            # a Python float with integer arrays promotes as float64 (NumPy's promotion)
            ins = [np.dtype(k) if k is float else k for k in ins]
        want = signature[-1] if signature is not None else None
        rule = "safe" if want is None else casting
        order = self._order or self._loop_order()
        for dt in order:
            if want is None and all(k == dt for k in ins):
                return (dt,) * (self.nin + 1)
        for dt in order:
            if want is not None and dt != want:
                continue
            if all(k in _WEAK if not isinstance(k, np.dtype) else np.can_cast(k, dt, rule)
                   for k in ins):
                return (dt,) * (self.nin + 1)
        raise TypeError(f"ufunc '{self.__name__}' not supported for the input types, and the "
                        f"inputs could not be safely coerced to any supported types according "
                        f"to the casting rule '{rule!r}'")

    def _loop_order(self):
        """The installed SciPy's order of this function's float loops (it changed between
        SciPy releases: ``erf(int8)`` is float32 in some, float64 in others), else the table's."""
        order = self._table_order
        try:
            types = _scipy_ufunc(self.__name__).types
            found = "".join(t[-1] for t in types
                            if t[-1] in "fd" and t[:self.nin] == t[-1] * self.nin)
            if sorted(found) == sorted(order):
                order = found
        except (ImportError, AttributeError):
            pass
        self._order = tuple(np.dtype(c) for c in order)
        self.types = [c * self.nin + "->" + c for c in order]
        return self._order

    def __call__(self, *args, **kwargs):
        # host mode (@npgpu.fuse on NumPy inputs): SciPy's own ufunc
        return _scipy_ufunc(self.__name__)(*args, **kwargs)


UFUNCS = {name: build_ufunc(name, LoopSpec(name, 2 if name in BINARY else 1, order), row,
                           HEAVY.get(name, ()), F64_TABLE.get(name, ()))
          for name, (order, row) in TABLE.items()}
