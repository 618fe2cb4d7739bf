"""npgpu in one screen: create arrays, compute, copy back, and say which backend ran.

Runs on an NVIDIA GPU, or on Numba's CUDA simulator when there is none.
"""
import numpy as np

import npgpu as gp

print(f"npgpu {gp.__version__} running on: {gp.backend()}")

rng = np.random.default_rng(0)
host = rng.standard_normal((4, 5)).astype(np.float32)

x = gp.asarray(host)                 # host -> device
y = gp.sin(x) * 2.0 + x.T.T          # generated elementwise kernels
z = (y > 0).astype(np.int32)         # comparisons and casts
x[1, ::2] = -1                        # views and setitem run on the device too

back = y.get()                        # device -> host, always explicit
assert np.allclose(back, np.sin(host) * 2.0 + host, rtol=1e-5, atol=1e-6)
print("y =\n", y)
print("positives per row:", z.get().sum(axis=1))
print("x after setitem:\n", x)
print("kernels compiled:", gp._codegen.stats["compiles"], "| launched:", gp._codegen.stats["launches"])
