"""``ABCPolyBase``: the convenience classes' shared behaviour (NumPy's ``_polybase``).

The coefficients are a device array; ``domain`` and ``window`` are two-element host arrays
(metadata, as NumPy keeps them).  A call maps the points and evaluates the series in one
kernel.  Printing (``str``, ``repr``, ``format``, LaTeX) reads the coefficients to the host and
lets NumPy's own class lay them out.  Comparisons that NumPy answers with a Python bool
(``==``, ``has_samecoef``) read one flag.
"""
import abc

import numpy as np
import numpy.polynomial as _host_polynomial

from ..ranges import linspace as _linspace
from ..reductions import all as _all
from . import _evaluate
from . import polyutils as pu

__all__ = ["ABCPolyBase"]


class ABCPolyBase(abc.ABC):
    """Base class of ``Polynomial``, ``Chebyshev``, ``Legendre``, ``Hermite``, ``HermiteE`` and
    ``Laguerre``: subclasses set ``_basis`` (a :class:`._series.Basis`), ``domain``, ``window``
    and ``basis_name``."""

    __hash__ = None
    __array_ufunc__ = None          # NumPy's operators leave polynomials to these methods
    _polynomial_object = True       # (evaluation composes series when given one of these)
    maxpower = 100
    _use_unicode = _host_polynomial.Polynomial._use_unicode
    _basis = None
    _host_class = None              # NumPy's class of the same basis (printing)

    @property
    def symbol(self):
        return self._symbol

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        b = cls._basis
        if b is None:
            return
        # the module functions, as NumPy's classes hold them
        for name in ("add", "sub", "mul", "div", "pow", "val", "der", "fit", "line", "roots",
                     "fromroots"):
            setattr(cls, "_" + name, staticmethod(getattr(b, name)))
        cls._int = staticmethod(b.integ)
        cls.domain = np.array(b.domain)
        cls.window = np.array(b.domain)

    # ---- comparisons ----
    def has_samecoef(self, other):
        """Whether the coefficients are equal (one read of the answer)."""
        return len(self.coef) == len(other.coef) and bool(
            _all(self.coef == other.coef).get())

    def has_samedomain(self, other):
        return bool(np.all(self.domain == other.domain))

    def has_samewindow(self, other):
        return bool(np.all(self.window == other.window))

    def has_sametype(self, other):
        return isinstance(other, self.__class__)

    def _get_coefficients(self, other):
        if isinstance(other, ABCPolyBase):
            if not isinstance(other, self.__class__):
                raise TypeError("Polynomial types differ")
            if not np.all(self.domain == other.domain):
                raise TypeError("Domains differ")
            if not np.all(self.window == other.window):
                raise TypeError("Windows differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        [coef] = pu.as_series([coef], trim=False)
        self.coef = coef
        if domain is not None:
            domain = pu._host_interval(domain)
            if len(domain) != 2:
                raise ValueError("Domain has wrong number of elements.")
            self.domain = domain
        if window is not None:
            window = pu._host_interval(window)
            if len(window) != 2:
                raise ValueError("Window has wrong number of elements.")
            self.window = window
        try:
            if not symbol.isidentifier():
                raise ValueError("Symbol string must be a valid Python identifier")
        except AttributeError:
            raise TypeError("Symbol must be a non-empty string") from None
        self._symbol = symbol

    # ---- printing (host side) ----
    def _host(self):
        """NumPy's class of this basis holding a host copy of the coefficients."""
        h = self._host_class(self.coef.get(), self.domain, self.window, self.symbol)
        h._use_unicode = self._use_unicode
        return h

    def __repr__(self):
        coef = repr(self.coef.get())[6:-1]
        domain = repr(self.domain)[6:-1]
        window = repr(self.window)[6:-1]
        return (f"{self.__class__.__name__}({coef}, domain={domain}, window={window}, "
                f"symbol='{self.symbol}')")

    def __format__(self, fmt_str):
        return format(self._host(), fmt_str)

    def __str__(self):
        return str(self._host())

    def _repr_latex_(self):
        return self._host()._repr_latex_()

    def __getstate__(self):
        ret = self.__dict__.copy()
        ret["coef"] = self.coef.copy()
        ret["domain"] = self.domain.copy()
        ret["window"] = self.window.copy()
        ret["symbol"] = self.symbol
        return ret

    def __setstate__(self, state):
        self.__dict__ = state

    # ---- evaluation ----
    def __call__(self, arg):
        # the map onto the window and the series in one kernel
        return _evaluate.evaluate(self._basis.rec, arg, self.coef,
                                  mapping=pu.mapparms(self.domain, self.window))

    def __iter__(self):
        return iter(self.coef)

    def __len__(self):
        return len(self.coef)

    # ---- arithmetic ----
    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self.symbol)

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def _binary(self, op, other, reverse=False):
        """``op`` of the two series (``other`` first when ``reverse``); NotImplemented when
        ``op`` cannot take ``other``."""
        args = (other, self.coef) if reverse else (self.coef, self._get_coefficients(other))
        try:
            coef = op(*args)
        except Exception:
            return NotImplemented
        return self._new(coef)

    def __truediv__(self, other):
        import numbers
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(f"unsupported types for true division: "
                            f"'{type(self)}', '{type(other)}'")
        return self.__floordiv__(other)

    def _divmod(self, other, reverse=False):
        args = (other, self.coef) if reverse else (self.coef, self._get_coefficients(other))
        try:
            quo, rem = self._div(*args)
        except ZeroDivisionError:
            raise
        except Exception:
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __divmod__(self, other):
        return self._divmod(other)

    def __rdivmod__(self, other):
        return self._divmod(other, True)

    def __pow__(self, other):
        return self._new(self._pow(self.coef, other, maxpower=self.maxpower))

    def __rtruediv__(self, other):
        return NotImplemented

    def __eq__(self, other):
        return (isinstance(other, self.__class__)
                and bool(np.all(self.domain == other.domain))
                and bool(np.all(self.window == other.window))
                and self.coef.shape == other.coef.shape
                and bool(_all(self.coef == other.coef).get())    # (one flag read)
                and self.symbol == other.symbol)

    def __ne__(self, other):
        return not self.__eq__(other)

    # ---- methods ----
    def copy(self):
        return self._new(self.coef)

    def degree(self):
        return len(self) - 1

    def cutdeg(self, deg):
        return self.truncate(deg + 1)

    def trim(self, tol=0):
        return self._new(pu.trimcoef(self.coef, tol))

    def truncate(self, size):
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef if isize >= len(self.coef) else self.coef[:isize])

    def convert(self, domain=None, kind=None, window=None):
        if kind is None:
            kind = self.__class__
        if domain is None:
            domain = kind.domain
        if window is None:
            window = kind.window
        return self(kind.identity(domain, window=window, symbol=self.symbol))

    def mapparms(self):
        return pu.mapparms(self.domain, self.window)

    def integ(self, m=1, k=[], lbnd=None):  # noqa: B006 (NumPy's signature)
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(self._int(self.coef, m, k, lbnd, 1. / scl))

    def deriv(self, m=1):
        off, scl = self.mapparms()
        return self._new(self._der(self.coef, m, scl))

    def roots(self):
        return pu.mapdomain(self._roots(self.coef), self.window, self.domain)

    def linspace(self, n=100, domain=None):
        if domain is None:
            domain = self.domain
        x = _linspace(domain[0], domain[1], n)
        return x, self(x)

    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None,
            symbol="x"):
        if domain is None:
            # the domain is host metadata: the points' extent is read (two numbers)
            domain = pu.getdomain(x).get()
            if domain[0] == domain[1]:
                domain[0] -= 1
                domain[1] += 1
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        xnew = pu.mapdomain(x, domain, window)
        res = cls._fit(xnew, y, deg, w=w, rcond=rcond, full=full)
        if full:
            [coef, status] = res
            return cls(coef, domain=domain, window=window, symbol=symbol), status
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots, domain=[], window=None, symbol="x"):  # noqa: B006
        [roots] = pu.as_series([roots], trim=False)
        if domain is None:
            domain = pu.getdomain(roots).get()       # (host metadata: two numbers)
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        if window is None:
            window = cls.window
        deg = len(roots)
        off, scl = pu.mapparms(domain, window)
        rnew = off + scl * roots
        coef = cls._fromroots(rnew) / scl**deg
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain=None, window=None, symbol="x"):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        off, scl = pu.mapparms(window, domain)
        return cls(cls._line(off, scl), domain, window, symbol)

    @classmethod
    def basis(cls, deg, domain=None, window=None, symbol="x"):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def cast(cls, series, domain=None, window=None):
        if domain is None:
            domain = cls.domain
        if window is None:
            window = cls.window
        return series.convert(domain, cls, window)


def _operators():
    """``+ - *`` and both sides of ``// %`` from ``_binary`` and ``_divmod``."""
    def binary(name, reverse):
        return lambda self, other: self._binary(getattr(self, "_" + name), other, reverse)

    def part(k, reverse):
        def f(self, other):
            res = self._divmod(other, reverse)
            return res if res is NotImplemented else res[k]
        return f
    for name in ("add", "sub", "mul"):
        setattr(ABCPolyBase, f"__{name}__", binary(name, False))
        setattr(ABCPolyBase, f"__r{name}__", binary(name, True))
    for k, name in enumerate(("floordiv", "mod")):
        setattr(ABCPolyBase, f"__{name}__", part(k, False))
        setattr(ABCPolyBase, f"__r{name}__", part(k, True))


_operators()
