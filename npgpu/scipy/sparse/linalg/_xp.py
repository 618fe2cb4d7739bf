"""The npgpu functions this package uses, taken from the layers below the public namespace
(npgpu imports npgpu.scipy while it starts, so the namespace itself is not imported here)."""
from npgpu import linalg
from npgpu._core.ndarray import ndarray
from npgpu.creation import array, asarray, asfortranarray, empty, full, zeros
from npgpu.fusion import fuse
from npgpu.manipulation import concatenate as concat
from npgpu.linalg.products import diagonal
from npgpu.manipulation import atleast_1d, atleast_2d, hstack, stack
from npgpu.random import default_rng
from npgpu.reductions.functions import any, max, min, sum
from npgpu.ufuncs import FUNCTIONS as _FUNCTIONS
from npgpu.ufuncs import UFUNCS as _UFUNCS

conj = _UFUNCS["conjugate"]
sqrt = _UFUNCS["sqrt"]
power = _UFUNCS["power"]
real = _FUNCTIONS["real"]
imag = _FUNCTIONS["imag"]

__all__ = ["linalg", "ndarray", "array", "asarray", "asfortranarray", "empty", "full", "zeros",
           "fuse", "concat", "diagonal", "atleast_1d", "atleast_2d", "hstack", "stack",
           "default_rng", "any", "max", "min", "sum", "conj", "sqrt", "power", "real", "imag"]
