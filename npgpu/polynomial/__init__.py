"""``npgpu.polynomial``: NumPy's ``numpy.polynomial`` package with device coefficients.

Six bases, one module each (``polynomial``, ``chebyshev``, ``legendre``, ``hermite``,
``hermite_e``, ``laguerre``) holding that basis's primitives; the functions shared by all of
them are built once (``_series``), evaluation and Vandermonde rows run as one kernel per call
(``_evaluate``), and the convenience classes share ``_polybase.ABCPolyBase``.
``docs/polynomial.md`` says what reads the host and why.
"""
from . import chebyshev, hermite, hermite_e, laguerre, legendre, polynomial, polyutils  # noqa: F401
from ._polybase import ABCPolyBase
from .chebyshev import Chebyshev
from .hermite import Hermite
from .hermite_e import HermiteE
from .laguerre import Laguerre
from .legendre import Legendre
from .polynomial import Polynomial

__all__ = ["set_default_printstyle", "polynomial", "Polynomial", "chebyshev", "Chebyshev",
           "legendre", "Legendre", "hermite", "Hermite", "hermite_e", "HermiteE", "laguerre",
           "Laguerre"]


def set_default_printstyle(style):
    """``'unicode'`` or ``'ascii'``: how ``str`` writes the series of every class."""
    if style not in ("unicode", "ascii"):
        raise ValueError(f"Unsupported format string '{style}'. Valid options are 'ascii' "
                         f"and 'unicode'")
    ABCPolyBase._use_unicode = style == "unicode"
