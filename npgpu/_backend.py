"""Choose between real CUDA and Numba's CUDA simulator.

This module must run before ``numba.cuda`` is first imported: Numba reads
``NUMBA_ENABLE_CUDASIM`` once, at that import.  Nothing of npgpu is imported
here.

Rules
-----
* ``NPGPU_BACKEND=simulator`` forces the simulator; ``NPGPU_BACKEND=cuda``
  forces the GPU and raises if no usable device exists.
* Without it, a CUDA driver that reports at least one device selects the GPU;
  otherwise the simulator is chosen with one warning.
* If ``numba.cuda`` was already imported, npgpu follows the mode Numba is in.
  If that mode is real CUDA and there is no device, import still succeeds,
  :func:`backend` returns ``"unavailable"`` and the first device operation
  raises :class:`BackendUnavailableError` naming the fix.
"""
import ctypes
import os
import sys
import warnings

SIMULATOR = "simulator"
CUDA = "cuda"
UNAVAILABLE = "unavailable"


class BackendUnavailableError(RuntimeError):
    """No backend can run device operations in this process."""


def _probe_driver():
    """Return (device_count, reason) without importing numba.cuda."""
    for name in ("libcuda.so.1", "libcuda.so", "nvcuda.dll"):
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    else:
        return 0, "no CUDA driver library (libcuda) was found"
    rc = lib.cuInit(0)
    if rc != 0:
        return 0, f"cuInit failed with CUDA error {rc}"
    count = ctypes.c_int(0)
    rc = lib.cuDeviceGetCount(ctypes.byref(count))
    if rc != 0:
        return 0, f"cuDeviceGetCount failed with CUDA error {rc}"
    if count.value == 0:
        return 0, "the CUDA driver reports no device"
    return count.value, ""


def _check_numpy():
    """numba-cuda 0.30 breaks on numpy 2.5 (np.row_stack removed): say so at import, not at the
    first kernel."""
    import numpy
    major, minor = (int(p) for p in numpy.__version__.split(".")[:2])
    if (major, minor) >= (2, 5):
        raise ImportError(f"npgpu needs numpy < 2.5 (found {numpy.__version__}): numba-cuda 0.30 "
                          "uses np.row_stack, removed in numpy 2.5. Install 'numpy>=2.0,<2.5'.")


def _user_stacklevel():
    """The ``stacklevel`` that makes a warning raised by the caller name the first line outside
    npgpu: the user's ``import npgpu``.  ``warnings`` skips importlib's frames when it counts,
    so they are not counted here either."""
    package = os.path.dirname(os.path.abspath(__file__)) + os.sep
    level = 1
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if not ("importlib" in name and "_bootstrap" in name):
            if not os.path.abspath(name).startswith(package):
                return level
            level += 1
        frame = frame.f_back
    return level


def _choose():
    forced = os.environ.get("NPGPU_BACKEND", "").strip().lower()
    if forced not in ("", CUDA, SIMULATOR, "compile-only"):
        raise ValueError(
            f"NPGPU_BACKEND must be 'cuda' or 'simulator', not {forced!r}")
    if forced == "compile-only":
        # CI's PTX check: Numba in real-CUDA mode, no device work at all
        os.environ["NUMBA_ENABLE_CUDASIM"] = "0"
        return UNAVAILABLE, "NPGPU_BACKEND=compile-only: this process only compiles kernels"

    if "numba.cuda" in sys.modules:
        # Numba already decided; follow it.
        from numba.cuda.core import config
        if config.ENABLE_CUDASIM:
            if forced == CUDA:
                raise BackendUnavailableError(
                    "NPGPU_BACKEND=cuda, but numba.cuda was imported in simulator "
                    "mode (NUMBA_ENABLE_CUDASIM=1) before npgpu")
            return SIMULATOR, ""
        if forced == SIMULATOR:
            raise BackendUnavailableError(
                "NPGPU_BACKEND=simulator, but numba.cuda was imported in real-CUDA mode before "
                "npgpu; set NUMBA_ENABLE_CUDASIM=1 (or import npgpu first) to use the simulator")
        count, why = _probe_driver()
        if count:
            return CUDA, ""
        return UNAVAILABLE, (
            f"numba.cuda was imported in real-CUDA mode before npgpu, but {why}. "
            "Set NPGPU_BACKEND=simulator (or NUMBA_ENABLE_CUDASIM=1) before "
            "importing numba.cuda to run on Numba's CUDA simulator.")

    if forced == SIMULATOR:
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
        return SIMULATOR, ""
    if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0") and forced != CUDA:
        return SIMULATOR, ""
    count, why = _probe_driver()
    if count:
        os.environ["NUMBA_ENABLE_CUDASIM"] = "0"
        return CUDA, ""
    if forced == CUDA:
        raise BackendUnavailableError(
            f"NPGPU_BACKEND=cuda was requested, but {why}. "
            "Unset NPGPU_BACKEND (or set it to 'simulator') to run on Numba's "
            "CUDA simulator.")
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    warnings.warn(
        f"npgpu: no usable CUDA device ({why}); running kernels on Numba's CUDA "
        "simulator (slow, for testing). Set NPGPU_BACKEND=simulator to silence "
        "this warning.", RuntimeWarning, stacklevel=_user_stacklevel())
    return SIMULATOR, ""


_check_numpy()
NAME, UNAVAILABLE_REASON = _choose()
IS_SIM = NAME == SIMULATOR
IS_CUDA = NAME == CUDA


def require():
    """Raise if no backend can run device work (called on first device use)."""
    if NAME == UNAVAILABLE:
        raise BackendUnavailableError(UNAVAILABLE_REASON)


def backend():
    """Return the active backend: ``'cuda'``, ``'simulator'`` or ``'unavailable'``."""
    return NAME
