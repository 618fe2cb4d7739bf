"""Covariance and correlation: ``cov`` and ``corrcoef``.

NumPy's algorithm step by step with npgpu operations, so dtypes follow NumPy's promotion on
their own: center the rows (``mean``, or the weighted mean for ``fweights``/``aweights``),
one product ``X @ X^H`` (cuBLAS for floats, the generated matmul otherwise), one scaling.
Weights are checked on the device: their value checks (integer and non-negative frequencies,
non-negative analytic weights), their sum and the normalisation come back in one small
device-to-host read, and NumPy's exceptions are raised in NumPy's order before anything is
computed from them.
"""
import warnings

import numpy as np

from . import creation
from ._codegen import elementwise as _ew
from .linalg.products import dot
from .manipulation import concatenate, stack
from .matrices import diag
from .reductions.functions import all as _all, any as _any, mean, sum as _sum
from .ufuncs import UFUNCS

_F64 = np.dtype(np.float64)


def _as_2d(a, dtype):
    """``numpy.array(a, ndmin=2, dtype=dtype)``: always a fresh C-contiguous copy (centred in
    place later)."""
    a = creation.asarray(a)
    if a.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=3)
    x = a.astype(dtype, copy=True)
    if x.ndim < 2:
        x = x.reshape((1,) * (2 - x.ndim) + x.shape)
    return x


def _weights(w, nobs, name):
    """(device float64 weights, shape error or None) -- NumPy checks the shape only after the
    value check of fweights, so the error is returned, not raised."""
    w = creation.asarray(w)
    if w.dtype.kind == "c":
        # NumPy's asarray(..., dtype=float) drops the imaginary part (with a ComplexWarning)
        w = w.real
    w = w.astype(_F64)
    if w.ndim > 1:
        return w, RuntimeError(f"cannot handle multidimensional {name}")
    if w.ndim == 0 or w.shape[0] != nobs:
        if w.ndim == 0:
            return w, TypeError("len() of unsized object")
        return w, RuntimeError(f"incompatible numbers of samples and {name}")
    return w, None


def _weight_checks(fw, aw, nobs, ddof):
    """NumPy's weight checks and the normalisation, with one device-to-host read.

    Returns (device weights w, host float w_sum, host float fact)."""
    f_err = a_err = None
    vals = []
    if fw is not None:
        fw, f_err = _weights(fw, nobs, "fweights")
        vals += [_all(UFUNCS["equal"](fw, UFUNCS["rint"](fw))), _any(UFUNCS["less"](fw, 0))]
    if aw is not None:
        aw, a_err = _weights(aw, nobs, "aweights")
        vals.append(_any(UFUNCS["less"](aw, 0)))
    w = None
    if f_err is None and a_err is None:
        w = fw if aw is None else aw if fw is None else UFUNCS["multiply"](fw, aw)
        vals.append(_sum(w))
        if aw is not None:
            vals.append(_sum(UFUNCS["multiply"](w, aw)))
    host = stack([v.astype(_F64) for v in vals]).get()       # the one read
    i = 0
    if fw is not None:
        if not host[0]:
            raise TypeError("fweights must be integer")
        if f_err is not None:
            raise f_err
        if host[1]:
            raise ValueError("fweights cannot be negative")
        i = 2
    if aw is not None:
        if a_err is not None:
            raise a_err
        if host[i]:
            raise ValueError("aweights cannot be negative")
        i += 1
    w_sum = host[i]
    if w_sum == 0.0:
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    if ddof == 0:
        fact = w_sum
    elif aw is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * host[i + 1] / w_sum
    return w, w_sum, fact


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = creation.asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = creation.asarray(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = np.result_type(m.dtype, _F64) if y is None else \
            np.result_type(m.dtype, y.dtype, _F64)
    X = _as_2d(m, dtype)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return creation.empty((0, 0), _F64)
    if y is not None:
        Y = _as_2d(y, dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = concatenate((X, Y), axis=0)
    elif not X._c_contig:
        X = X.copy()                  # the centring below writes X in place: a copy of our own
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    nobs = X.shape[1]
    if fweights is None and aweights is None:
        w = None
        avg = mean(X, axis=1)
        fact = nobs - ddof
    else:
        w, w_sum, fact = _weight_checks(fweights, aweights, nobs, ddof)
        # NumPy's average: sum(X * w) / sum(w), in result_type(X, float64)
        rdt = np.result_type(X.dtype, _F64)
        avg = UFUNCS["true_divide"](_sum(UFUNCS["multiply"](X, w, dtype=rdt), axis=1),
                                    np.asarray(w_sum, rdt)[()])
    if fact <= 0:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    UFUNCS["subtract"](X, avg[:, None], out=X)
    X_T = X.T if w is None else UFUNCS["multiply"](X, w).T
    c = dot(X, X_T.conj())
    UFUNCS["multiply"](c, np.true_divide(1, fact), out=c)
    return c.squeeze()


# corrcoef's scaling: c / s_i / s_j (two roundings, as NumPy's two in-place divides), both
# parts clipped to [-1, 1] (NaN stays NaN).  A complex c is divided as NumPy divides by
# complex(s, 0): by the reciprocal 1/s (Smith's algorithm with a zero imaginary part; a zero s
# divides each part by |s|).
_CLIP = "if {v} < {lo}:\n    {v} = {lo}\nelif {v} > {hi}:\n    {v} = {hi}\n"
_CDIV = """def cdiv_real(ar, ai, b):
    if b == 0:
        return ar / abs(b), ai / abs(b)
    zero = b - b
    rat = zero / b
    scl = {one} / (b + zero * rat)
    return (ar + ai * rat) * scl, (ai - ar * rat) * scl
"""
_scale_ops = {}


def _scale_op(dt):
    op = _scale_ops.get(dt)
    if op is None:
        ft = np.dtype(dt.char.lower()) if dt.kind == "c" else _ew.compute_dtype(dt)
        lo, hi = (f"{_ew.type_name(ft)}({v})" for v in ("-1.0", "1.0"))
        if dt.kind == "c":
            body = ("re, im = cdiv_real(x0.real, x0.imag, x1)\n"
                    "re, im = cdiv_real(re, im, x2)\n" +
                    _CLIP.format(v="re", lo=lo, hi=hi) + _CLIP.format(v="im", lo=lo, hi=hi) +
                    f"return {_ew.type_name(dt)}(complex(re, im))")
            helpers = (_CDIV.format(one=hi),)
        else:
            body = "v = x0 / x1\nv = v / x2\n" + _CLIP.format(v="v", lo=lo, hi=hi) + "return v"
            helpers = ()
        op = _scale_ops[dt] = _ew.ScalarOp.from_expr(("corrcoef_scale", dt.str), 3, body,
                                                     helpers=helpers)
    return op


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return UFUNCS["true_divide"](c, c)
    stddev = UFUNCS["sqrt"](diag(c).real)
    out = creation.empty(c.shape, c.dtype)
    _ew.launch(_scale_op(c.dtype), [c, stddev[:, None], stddev[None, :]],
               [c.dtype, stddev.dtype, stddev.dtype], [out], [c.dtype], name="corrcoef")
    return out
