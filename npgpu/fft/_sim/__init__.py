"""The simulator's stand-in for cuFFT (:mod:`.cufft`).

On Numba's CUDA simulator :func:`npgpu.fft._cufft.cufft_module` returns
:data:`cufft.CUFFT` instead of ``nvmath.bindings.cufft``: the same entry-point names,
arguments, enumerations and error class (nvmath's own ``cuFFTError``), so every line of
``npgpu.fft`` above the library -- plan keys, the plan cache, work areas from the pool,
streams, batched and strided layouts, the execution calls -- runs in CI as on the GPU.
Its transforms are direct DFTs, one generated kernel launch per transformed dimension
(see :mod:`.cufft`).
"""
