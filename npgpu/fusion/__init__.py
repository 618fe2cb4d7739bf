"""``@npgpu.fuse``: a Python function of arrays runs as few kernels as its steps allow.

* elementwise steps (every ufunc and operator, ``where``, ``clip``, ``astype``, Python and
  NumPy scalars as NEP 50 says, broadcasting, ``out=`` and ``x += y``) trace into one
  elementwise ScalarOp (:mod:`.trace`);
* a reduction (``sum``, ``prod``, ``min``, ``max``, ``mean``, ``var``, ``std``, ``any``,
  ``all``, ``argmax``, ``argmin``) takes the elementwise steps before it as the map step of its
  one reduction launch (:mod:`.reduce`);
* non-fusable steps (matmul, indexing, sort, linalg...) run as ordinary calls on materialized
  values, unless ``strict=True`` (:class:`~.trace.NotFusable`);
* called with NumPy arrays only, the function runs on the host with NumPy (:mod:`.host`);
* ``f.launches(*args)``, ``f.kernel_sources(*args)`` and replay of elementwise-only traces
  per signature: :mod:`.fused`.  ``docs/fusion.md`` gives the launch count of each pattern.
"""
from .fused import Fused
from .trace import NotFusable, _literal, _Trace, _Var

__all__ = ["fuse", "Fused", "NotFusable"]


def fuse(*args, kernel_name=None, strict=False):
    """Decorator: ``@npgpu.fuse`` or ``@npgpu.fuse(kernel_name=..., strict=...)``.

    strict: raise :class:`NotFusable` (a TypeError) at a step that cannot be fused instead of
    running it as an ordinary call."""
    if len(args) == 1 and callable(args[0]):
        return Fused(args[0], kernel_name, strict)
    if args:
        raise TypeError("fuse() takes a function, or only keyword arguments")
    return lambda f: Fused(f, kernel_name, strict)
