"""``npgpu.fft``: all of ``numpy.fft`` on cuFFT.

* Transforms (:mod:`._transforms`): ``fft``, ``ifft``, ``fft2``, ``ifft2``, ``fftn``,
  ``ifftn``, ``rfft``, ``irfft``, ``rfft2``, ``irfft2``, ``rfftn``, ``irfftn``, ``hfft``,
  ``ihfft`` with NumPy 2's ``n``/``s``, ``axis``/``axes``, ``norm``, ``out=`` and dtype rules
  (single precision stays single).  cuFFT is reached through ``nvmath-python``'s low-level
  bindings (:mod:`._cufft`); plans are cached (:mod:`.plan_cache`, ``get_plan_cache()``).
* Helpers (:mod:`._helpers`): ``fftfreq``, ``rfftfreq``, ``fftshift``, ``ifftshift``.
* On the simulator a stand-in with cuFFT's entry points runs a generated DFT kernel
  (:mod:`._sim.cufft`), so every line above the library runs in CI.

``docs/fft.md`` lists the differences from NumPy.
"""
from ._transforms import (fft, fft2, fftn, hfft, ifft, ifft2, ifftn, ihfft, irfft, irfft2,
                          irfftn, rfft, rfft2, rfftn)
from ._helpers import fftfreq, fftshift, ifftshift, rfftfreq
from ._cufft import CuFFTError
from . import plan_cache as config          # CuPy's spelling: npgpu.fft.config.get_plan_cache()
from .plan_cache import PlanCache, get_plan_cache

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "rfftn", "irfftn", "rfft2",
           "irfft2", "fft2", "ifft2", "fftn", "ifftn", "fftfreq", "rfftfreq", "fftshift",
           "ifftshift"]
