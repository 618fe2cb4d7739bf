"""GPU diagnostic: in-order folds of non-reorderable ufuncs (arctan2, power, subtract)."""
import numpy as np
import npgpu as gp
from npgpu._codegen import compiler
h = np.random.default_rng(1).standard_normal((3, 5))
for name in ("subtract", "arctan2"):
    g = getattr(gp, name).reduce(gp.asarray(h), axis=1).get()
    print(name, g, getattr(np, name).reduce(h, axis=1))
p = np.abs(h) + 0.5
print("power", gp.power.reduce(gp.asarray(p), axis=1).get(), np.power.reduce(p, axis=1))
src = [v for k, v in compiler.kernel_sources().items() if k.startswith("red_fold")]
print(src[-1] if src else "no fold kernel")
