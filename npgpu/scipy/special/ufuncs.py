"""npgpu.scipy.special's ufuncs: npgpu ufuncs built from :mod:`.table` by the ufunc registry.

An npgpu ufunc takes NumPy's ufunc for its name, arity and type resolution.  SciPy is not
imported with npgpu (it is slow to import), so each row gets a :class:`LoopSpec` in its place,
which hands every question to SciPy's own ufunc on first use: the dtypes come from SciPy's
``resolve_dtypes`` (its loops in its order, NEP 50's weak Python scalars: ``boxcox(True, 2)`` is
float64), and a call that is not the fast path is first checked by SciPy's ufunc on 0-d
stand-ins of its operands (:class:`SpecialUfunc`), so that argument counts, ``out=``, ``dtype=``,
``signature=``, ``casting=``, ``order=``, unknown keywords and unsupported input types raise
SciPy's (NumPy's) error class and message.  Broadcasting, read-only outputs and the launch are
npgpu's ufunc's, which give NumPy's errors themselves.

Complex input: SciPy's complex loops exist in npgpu only for the rows with a ``"c"`` key
(``xlogy``, ``xlog1py``, the error-function family, ``wofz``, ``erfi``, ``dawsn``, ``gamma``,
``loggamma``, ``rgamma``, ``digamma``/``psi``); where SciPy computes a complex result and npgpu
has no loop (zeta) npgpu raises a ``TypeError`` saying so; where SciPy raises, so does npgpu,
with SciPy's message.
"""
import inspect

import numpy as np

from ...reductions import ufunc_methods as _reduce_methods
from ...ufuncs.registry import build_ufunc
from ...ufuncs.ufunc import dry_run, ufunc
from .table import BINARY, F64_TABLE, HEAVY, TABLE

_PUBLIC = {"_riemann_zeta": "zeta", "_zeta": "zeta"}
# SciPy's digamma is its psi ufunc, named psi (repr, error messages)
_NAMES = {"digamma": "psi"}


def _scipy_ufunc(name):
    """SciPy's ufunc ``name``; the private ones (``_zeta``, ``_riemann_zeta``, behind SciPy's
    Python ``zeta``) live in scipy.special._ufuncs."""
    import scipy.special
    if name.startswith("_"):
        import scipy.special._ufuncs
        return getattr(scipy.special._ufuncs, name)
    f = getattr(scipy.special, name)
    # SCIPY_ARRAY_API=1 (which scikit-learn's array API mode requires) makes these names
    # Python wrappers (functools.wraps) around the ufuncs whose loops and errors npgpu reads
    return f if isinstance(f, np.ufunc) else inspect.unwrap(f)


class LoopSpec:
    """The part of a NumPy ufunc an npgpu ufunc reads, for SciPy's ufunc ``name`` (read on
    first use), restricted to the loops the table row ``keys`` has."""

    nout = 1

    def __init__(self, name, nin, keys):
        self.__name__ = name
        self.nin = nin
        self.nargs = nin + 1
        self._keys = frozenset(keys)
        self._scipy = None
        self.__doc__ = f"scipy.special.{_PUBLIC.get(name, name)} on npgpu arrays (an npgpu ufunc)."

    @property
    def scipy(self):
        if self._scipy is None:
            self._scipy = _scipy_ufunc(self.__name__)
        return self._scipy

    def _has(self, dt):
        # the table's keys: a dtype name or a kind (as npgpu.ufunc picks a loop)
        return dt.name in self._keys or dt.kind in self._keys

    @property
    def identity(self):
        """SciPy's (0 for boxcox, entr, kl_div & co: their empty reduce gives it)."""
        return self.scipy.identity

    @property
    def types(self):
        """SciPy's loops that npgpu has, in SciPy's order."""
        return [t for t in self.scipy.types if self._has(np.dtype(t[0]))]

    def resolve_dtypes(self, dtypes, *, signature=None, casting="same_kind"):
        """SciPy's loop for these operand dtypes (its errors included); a loop npgpu lacks (a
        complex one) raises TypeError naming the function."""
        kw = {} if signature is None else {"signature": signature}
        dts = self.scipy.resolve_dtypes(dtypes, casting=casting, **kw)
        if not all(self._has(d) for d in dts):
            name = _PUBLIC.get(self.__name__, self.__name__)
            loop = "".join(d.char for d in dts[:self.nin]) + "->" + dts[-1].char
            raise TypeError(f"npgpu.scipy.special.{name} does not support "
                            f"{'complex' if any(d.kind == 'c' for d in dts) else dts[0].name} "
                            f"input: SciPy's {loop} loop has no npgpu implementation")
        return dts

    def __call__(self, *args, **kwargs):
        # host mode (@npgpu.fuse on NumPy inputs): SciPy's own ufunc
        return self.scipy(*args, **kwargs)

    # npgpu's ufunc methods (betaln.outer, xlogy.reduce) dry-run or take errors from these
    outer = property(lambda self: self.scipy.outer)
    reduce = property(lambda self: self.scipy.reduce)
    accumulate = property(lambda self: self.scipy.accumulate)
    reduceat = property(lambda self: self.scipy.reduceat)
    at = property(lambda self: self.scipy.at)


class SpecialUfunc(ufunc):
    """An npgpu ufunc whose calls off the fast path are checked by SciPy's ufunc (the ufunc
    check's :func:`~npgpu.ufuncs.ufunc.dry_run` on SciPy's ufunc in place of NumPy's)."""

    _home = "npgpu.scipy.special"

    def _check(self, args, kwargs):
        """SciPy's errors for this call; a ``signature=`` string or tuple becomes the
        ``dtype=`` of its loop's output (SciPy's loops take one dtype throughout)."""
        sp = self._np.scipy
        # where= stays out (npgpu's call checks it): SciPy 1.17's erf, gammainc, xlogy & co
        # corrupt the heap when given where= with out= (NumPy's own ufuncs do not)
        kw = {k: v for k, v in kwargs.items() if k != "where"}
        dry_run(sp, args, kw)
        sig = kwargs.get("signature")
        if isinstance(sig, (str, tuple)) and kwargs.get("dtype") is None:
            kw.pop("out", None)
            kwargs = {k: v for k, v in kwargs.items() if k != "signature"}
            kwargs["dtype"] = dry_run(sp, args[:self.nin], kw)
        return kwargs


def _special_ufunc(name, row):
    spec = LoopSpec(name, 2 if name in BINARY else 1, row)
    built = build_ufunc(name, spec, row, HEAVY.get(name, ()), F64_TABLE.get(name, ()))
    return SpecialUfunc(_NAMES.get(name, name), spec, built._loops)


UFUNCS = {name: _special_ufunc(name, row) for name, row in TABLE.items()}
# NumPy folds a reduction of SciPy's binary ufuncs in order, from the identity where there is one
# (kl_div.reduce starts at 0), never as a tree (none is associative); NumPy accepting several
# axes (an identity makes it) would otherwise mark them reorderable in npgpu's reductions
_reduce_methods.declare_ordered(BINARY)
_BY_SCIPY = {}          # id(SciPy's ufunc) -> npgpu's, made on the first foreign call


def ufunc_for(f):
    """npgpu's ufunc for SciPy's ufunc ``f`` (``scipy.special.erf`` called on an npgpu array),
    else None."""
    if not _BY_SCIPY:
        _BY_SCIPY.update({id(u._np.scipy): u for u in UFUNCS.values()})
    u = _BY_SCIPY.get(id(f))
    return u if u is not None and u._np.scipy is f else None
