"""User kernels: ``ElementwiseKernel``, ``ReductionKernel`` and ``vectorize`` in Python (rendered
by npgpu's generator), ``RawKernel``/``RawModule`` in CUDA C++ (NVRTC).  ``docs/kernels.md``."""
from .elementwise import ElementwiseKernel
from .reduction import ReductionKernel
from .raw import CompileError, RawKernel, RawModule
from .vectorize import vectorize

__all__ = ["ElementwiseKernel", "ReductionKernel", "vectorize", "RawKernel", "RawModule",
           "CompileError"]
