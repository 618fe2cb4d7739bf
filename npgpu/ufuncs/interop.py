"""``__array_ufunc__``: NumPy ufuncs called on npgpu arrays run as npgpu ufuncs on the GPU."""
from .._core.ndarray import _ops


def array_ufunc(np_ufunc, method, inputs, kwargs):
    from .registry import UFUNCS
    uf = UFUNCS.get(np_ufunc.__name__)
    if uf is None or uf._np is not np_ufunc:
        # another library's ufunc (SciPy's special functions): npgpu's own for it, if any
        uf = _ops["scipy_ufunc"](np_ufunc) or (uf if uf is None else None)
    if "out" in kwargs:
        out = kwargs["out"]
        if isinstance(out, tuple) and len(out) == 1:
            kwargs["out"] = out[0]
    if uf is None:
        # NumPy ufuncs npgpu implements as functions (matmul, vecdot, matvec, vecmat)
        fn = _ops["ufunc_function"](np_ufunc.__name__) if method == "__call__" else None
        if fn is None:
            return NotImplemented      # NumPy then raises its TypeError naming the operand types
        return fn(*inputs, **kwargs)
    if method == "__call__":
        return uf(*inputs, **kwargs)
    if method == "outer":
        return uf.outer(*inputs, **kwargs)
    if method == "at":
        return uf.at(*inputs, **kwargs)
    if method in ("reduce", "accumulate", "reduceat"):
        fn = _ops.get("ufunc_" + method)
        if fn is not None:
            return fn(uf, *inputs, **kwargs)
    raise TypeError(f"npgpu does not support the ufunc method '{method}' of {np_ufunc.__name__!r}")
