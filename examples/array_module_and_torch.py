"""CPU/GPU-agnostic code with ``get_array_module``, and exchange with NumPy and PyTorch by DLPack.

``softmax`` and ``logsumexp`` below are written once: ``npgpu.get_array_module(x)`` returns
``npgpu`` for npgpu arrays and ``numpy`` for anything else, so the same functions run on the
host and on the GPU.  DLPack moves arrays between libraries: PyTorch takes an npgpu array
without a copy (``torch.from_dlpack``) and npgpu takes PyTorch's result back the same way
(``npgpu.from_dlpack``), each ordered on the other's stream without a synchronisation;
NumPy gets an explicit host copy (``numpy.from_dlpack(x, device="cpu")``).  Without PyTorch the
PyTorch part prints ``skipped: PyTorch not installed`` and the rest still runs.

    python examples/array_module_and_torch.py     # 4096^2 float32 on a GPU, 64^2 on the simulator
    python examples/array_module_and_torch.py --size 2048
"""
import numpy as np
from timing_and_checks import ON_GPU, check, check_true, done, note, size_from_args, skipped, step

import npgpu        # after timing_and_checks, which quiets the simulator's warning


def softmax(x, axis=-1):
    xp = npgpu.get_array_module(x)
    e = xp.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def logsumexp(x, axis=-1):
    xp = npgpu.get_array_module(x)
    top = x.max(axis=axis, keepdims=True)
    return xp.squeeze(top, axis=axis) + xp.log(xp.exp(x - top).sum(axis=axis))


def main():
    n = size_from_args(__doc__, gpu_size=4096, sim_size=64, what="matrix side (float32)")
    x_h = (np.random.default_rng(8).standard_normal((n, n)) * 4).astype(np.float32)
    x = npgpu.asarray(x_h)
    check_true("get_array_module", npgpu.get_array_module(x) is npgpu
               and npgpu.get_array_module(x_h) is np, "npgpu for npgpu arrays, numpy otherwise")

    s, s_h = step("softmax along rows (one function)", lambda: softmax(x), lambda: softmax(x_h))
    check("softmax", s, s_h, rtol=1e-5, atol=1e-7)
    check("softmax rows sum to 1", s.sum(axis=1), np.ones(n, np.float32), rtol=1e-5)
    lse, lse_h = step("logsumexp along columns", lambda: logsumexp(x, axis=0),
                      lambda: logsumexp(x_h, axis=0))
    check("logsumexp", lse, lse_h, rtol=1e-6, atol=1e-5)

    # NumPy <-> npgpu through DLPack: the host always gets a copy, and asks for it
    back, _ = step("DLPack to NumPy (explicit host copy)", lambda: np.from_dlpack(s, device="cpu"))
    check_true("numpy.from_dlpack result", type(back) is np.ndarray, "a numpy.ndarray")
    check("numpy.from_dlpack data", back, s_h, rtol=1e-5, atol=1e-7)
    up, _ = step("DLPack from NumPy (copy to the device)",
                 lambda: npgpu.from_dlpack(x_h, copy=True))
    check("npgpu.from_dlpack of a NumPy array", up, x_h, rtol=0)

    try:
        import torch
    except ImportError:
        skipped("PyTorch exchange", "PyTorch not installed")
        done()
        return
    if ON_GPU and not torch.cuda.is_available():
        skipped("PyTorch exchange", "this PyTorch has no CUDA")
        done()
        return
    t = torch.from_dlpack(x)                     # zero copy: the tensor is npgpu's memory
    ptr = x.__cuda_array_interface__["data"][0]
    check_true("torch.from_dlpack shares memory", t.data_ptr() == ptr,
               f"{t.device}, same address as the npgpu array")
    t_soft, _ = step("torch.softmax on the shared tensor", lambda: torch.softmax(t, dim=1))
    back = npgpu.from_dlpack(t_soft)             # and back, zero copy again
    check_true("npgpu.from_dlpack shares memory",
               back.__cuda_array_interface__["data"][0] == t_soft.data_ptr(), "same address")
    check("torch's softmax vs npgpu's", back, s, rtol=1e-5, atol=1e-7)
    x[0, 0] = 1000.0                             # a write through one is seen by the other
    check_true("writes are shared", float(t[0, 0]) == 1000.0, "npgpu's write seen by torch")
    note(f"PyTorch {torch.__version__}: exchanged both ways without copies")
    done()


if __name__ == "__main__":
    main()
