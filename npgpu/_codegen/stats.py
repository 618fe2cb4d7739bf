"""Counters of the code generator, read by tests and ``npgpu._codegen.stats``: results must come
from kernels, and a warm disk cache must compile nothing.  Lowest module of ``_codegen``: the
compiler and the launcher both count here."""
stats = {"compiles": 0, "disk_hits": 0, "shipped": 0, "launches": 0}
