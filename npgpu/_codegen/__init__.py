"""The one code generator: templates -> kernel source -> compiled, cached, launched kernels."""
from .compiler import KernelSource, Param, get_kernel, kernel_sources, stats
from .elementwise import ScalarOp

__all__ = ["KernelSource", "Param", "get_kernel", "kernel_sources", "stats", "ScalarOp"]
