"""npgpu.cuda.numba_context: the fast path of Numba's context check, with stand-ins for Numba's
runtime and the driver (the logic runs on any machine; the GPU suite runs it for real through
``use_npgpu_allocator_in_numba`` in test_user_kernels.py)."""
import threading
from contextlib import contextmanager

import pytest

from npgpu.cuda.numba_context import ContextCheck


class Device:
    def __init__(self):
        self.primary_context = None


class Context:
    def __init__(self, handle, device):
        self.handle, self.device = handle, device
        device.primary_context = self


class Runtime:
    """Numba's ``_Runtime`` as the check uses it: a thread-local attached context, and an
    ``ensure_context`` that asks the driver (counted) and attaches the primary context."""

    def __init__(self, current):
        self._tls = threading.local()
        self.current = current
        self.devices = {}
        self.slow_calls = 0

    def _get_attached_context(self):
        return getattr(self._tls, "attached_context", None)

    @contextmanager
    def ensure_context(self):
        self.slow_calls += 1
        h = self.current()
        if not h:
            raise RuntimeError("no current context")
        old = self._get_attached_context()
        self._tls.attached_context = self.devices[h].primary_context
        try:
            yield
        finally:
            self._tls.attached_context = old


def setup():
    state = {"h": 0x10}
    rt = Runtime(lambda: state["h"])
    d0, d1 = Device(), Device()
    Context(0x10, d0)
    Context(0x20, d1)
    rt.devices = {0x10: d0, 0x20: d1}
    check = ContextCheck(rt, rt.ensure_context, lambda: state["h"])
    return state, rt, check


def test_known_context_attached_without_numbas_check():
    state, rt, check = setup()
    with check():
        first = rt._get_attached_context()
    assert rt.slow_calls == 1 and first.handle == 0x10
    assert rt._get_attached_context() is None           # restored after the call
    for _ in range(3):
        with check():
            assert rt._get_attached_context() is first
    assert rt.slow_calls == 1 and rt._get_attached_context() is None


def test_nested_calls_restore_the_outer_context():
    state, rt, check = setup()
    with check():
        pass
    with check():
        outer = rt._get_attached_context()
        with check():
            assert rt._get_attached_context() is outer
        assert rt._get_attached_context() is outer
    assert rt._get_attached_context() is None


def test_another_current_context_goes_through_numba_then_is_known():
    state, rt, check = setup()
    with check():
        pass
    state["h"] = 0x20
    with check():
        assert rt._get_attached_context().handle == 0x20
    assert rt.slow_calls == 2
    with check():
        assert rt._get_attached_context().handle == 0x20
    state["h"] = 0x10
    with check():
        assert rt._get_attached_context().handle == 0x10
    assert rt.slow_calls == 2


def test_reset_primary_context_and_no_context_take_numbas_path():
    state, rt, check = setup()
    with check():
        old = rt._get_attached_context()
    fresh = Context(0x10, old.device)       # Numba reset the device: a new primary context
    with check():
        assert rt._get_attached_context() is fresh
    assert rt.slow_calls == 2
    state["h"] = 0
    with pytest.raises(RuntimeError, match="no current context"):   # Numba's own error
        with check():
            pass
    assert rt.slow_calls == 3 and rt._get_attached_context() is None


def test_an_error_in_the_call_restores_the_context():
    state, rt, check = setup()
    for _ in range(2):                      # Numba's path, then the fast one
        with pytest.raises(ValueError):
            with check():
                raise ValueError("inside")
        assert rt._get_attached_context() is None


def test_threads_attach_their_own():
    state, rt, check = setup()
    with check():
        pass
    seen = []

    def work(_):
        with check():
            seen.append(rt._get_attached_context().handle)
        seen.append(rt._get_attached_context())

    from conftest import run_threads
    run_threads(work, range(4))
    assert sorted(seen, key=str) == sorted([0x10] * 4 + [None] * 4, key=str)


# --- npgpu.cuda.numba_device_array: device_array's fast path over the check -------------------
class Manager:
    def __init__(self):
        import itertools
        self.ids = itertools.count(1)       # (next() is atomic under the GIL: threads too)

    def memalloc(self, size):
        return ("block", next(self.ids), size)


class FakeArray:
    """Numba's ``DeviceNDArray`` as ``device_array`` fills it (fields only)."""


def fake_numba_device_array(calls):
    """Numba's ``device_array`` over a manager: NumPy's rules and errors for the layout."""
    import numpy as np

    def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
        calls.append(shape)
        if isinstance(shape, float):
            raise TypeError("shape must be an integer or tuple of integers")
        model = np.empty(shape, dtype, order)
        a = FakeArray()
        a.ndim, a._dummy, a.shape = model.ndim, ("model", model.shape), model.shape
        a.strides = tuple(strides) if strides else model.strides
        a.dtype, a.size, a.alloc_size = model.dtype, model.size, model.nbytes
        a.gpu_data = MANAGER.memalloc(model.nbytes) if model.size else None
        a.stream = stream
        return a
    return device_array


MANAGER = Manager()


def fast_setup():
    from npgpu.cuda.numba_device_array import fast_device_array
    state, rt, check = setup()
    for h in (0x10, 0x20):
        rt.devices[h].primary_context.memory_manager = MANAGER
    calls = []
    fast = fast_device_array(fake_numba_device_array(calls), FakeArray, check)
    with check():                            # Numba's check accepts device 0's context
        pass
    return state, rt, check, fast, calls


def test_device_array_repeat_request_skips_numbas_function():
    import numpy as np
    state, rt, check, fast, calls = fast_setup()
    first = fast((4, 3), np.float32, order="F")
    assert calls == [(4, 3)]
    for stream in (0, 7):
        again = fast((4, 3), np.float32, order="F", stream=stream)
        for f in ("ndim", "_dummy", "shape", "strides", "dtype", "size", "alloc_size"):
            assert getattr(again, f) == getattr(first, f), f
        assert again.stream == stream and again.gpu_data != first.gpu_data
        assert again.gpu_data[2] == 48 and type(again) is FakeArray
    assert calls == [(4, 3)] and rt.slow_calls == 1
    fast(5)
    fast(5)
    assert calls == [(4, 3), 5]


def test_device_array_other_requests_take_numbas_function():
    import numpy as np
    state, rt, check, fast, calls = fast_setup()
    for _ in range(2):
        fast(8, np.int16, strides=(2,))               # strides given
        fast([2, 2], np.float32)                       # not a tuple of ints
        fast((2, np.int64(2)), np.float32)
        fast(0, np.float32)                            # size 0: no template
        fast(3, [("a", "i4")])                         # an unhashable dtype spec
    assert len(calls) == 10
    fast(8, np.float32)
    fast(8, np.float32)                                # (the template's hit)
    with pytest.raises(TypeError, match="shape must be an integer"):
        fast(8.0, np.float32)                          # hashes as 8: must not hit 8's template
    assert len(calls) == 12


def test_device_array_unknown_or_reset_context_takes_numbas_function():
    import numpy as np
    state, rt, check, fast, calls = fast_setup()
    fast(6, np.float32)
    state["h"] = 0x20                                  # not accepted by the check yet
    fast(6, np.float32)
    assert len(calls) == 2
    state["h"] = 0x10
    fast(6, np.float32)
    assert len(calls) == 2
    Context(0x10, rt.devices[0x10])                    # device 0 reset: a new context
    rt.devices[0x10].primary_context.memory_manager = MANAGER
    fast(6, np.float32)
    assert len(calls) == 3


_REAL_CLASS = r"""
import numpy as np
from numba.cuda import api
from numba.cuda.cudadrv import devicearray, devices
from numba.cuda.cudadrv.devicearray import DeviceNDArray
from npgpu.cuda.numba_device_array import fast_device_array


class Manager:
    def memalloc(self, size):
        if size < 0:
            raise ValueError(size)
        return ("block", size)


class Ctx:
    def __init__(self):
        self.memory_manager = Manager()
        self.device = type("Dev", (), {})()
        self.device.primary_context = self

    def memalloc(self, size):
        return self.memory_manager.memalloc(size)


ctx = Ctx()
devices.get_context = devicearray.devices.get_context = lambda devnum=None: ctx
check = type("Check", (), {})()
check.current, check.known = (lambda: 1), {1: ctx}
slow = api.device_array.__wrapped__          # Numba's, without its context check
fast = fast_device_array(slow, DeviceNDArray, check)


def outcome(f, a, k):
    try:
        r = f(*a, **k)
    except Exception as e:
        return ("raises", type(e).__name__, str(e))
    d = dict(r.__dict__)
    g = d["gpu_data"]           # a new pointer each call: its kind and size
    return ("array", list(d), {n: v for n, v in d.items() if n not in ("_dummy", "gpu_data")},
            (type(g).__name__, getattr(g, "size", None) if not isinstance(g, tuple) else g[1]),
            r.flags, r._numba_type_, r.is_c_contiguous(), r.is_f_contiguous())


# (positional arguments, keywords)
requests = [(((0, 5),), {}), (((),), {}), (((3, 4),), {"order": "F"}), (((3, 4),), {"order": "A"}),
            ((5, "f4"), {}), ((5, np.float32), {}), ((5,), {"dtype": np.dtype("f4")}),
            (((2, 3), np.int8, None, "F", 3), {}), ((-1,), {}), (((2, -3), "f4"), {}),
            ((1.0,), {}), (((2, 3.0),), {}), ((True,), {}), (((True, 2),), {}),
            ((5, "f4"), {"order": "K"}), (((7, 1, 2), "c16"), {}), ((), {"shape": (4, 2)}),
            ((np.int64(6),), {}), ((8, "f4", (4,)), {})]
for a, k in requests:
    want = outcome(slow, a, k)
    for _ in range(2):                        # the first call makes the template, then its hit
        got = outcome(fast, a, k)
        assert got == want, (a, k, got, want)
r = fast((3, 4), "f4")
assert r._dummy is slow((3, 4), "f4")._dummy    # Numba shares its layout models too
print("ok", len(fast.templates))
"""


def test_device_array_fast_path_against_numbas_own_class():
    """The fast path's arrays against Numba's real ``DeviceNDArray`` and ``device_array`` (its
    context stubbed: no GPU needed): the same fields, flags, typing and errors for every kind
    of request, the first call and the template's hit alike."""
    import os
    import subprocess
    import sys
    # (Numba's real classes: neither the simulator nor a request for it, NPGPU_BACKEND)
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_ENABLE_CUDASIM", "NPGPU_BACKEND")}
    r = subprocess.run([sys.executable, "-c", _REAL_CLASS], capture_output=True, text=True,
                       timeout=120, env=env)
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stderr[-3000:]


def test_device_array_from_threads_at_once():
    """Threads asking for the same and for different requests at once (their first calls racing
    to store a template) each get arrays of their own request, every block their own."""
    import numpy as np
    from conftest import run_threads
    state, rt, check, fast, calls = fast_setup()
    got = {}

    def work(i):
        shape = (i % 3 + 1, 4)
        got[i] = [fast(shape, np.float32) for _ in range(50)]
    run_threads(work, range(8))
    for i, arrays in got.items():
        assert all(a.shape == (i % 3 + 1, 4) and a.alloc_size == a.size * 4 for a in arrays)
    blocks = [a.gpu_data for arrays in got.values() for a in arrays]
    assert len(set(blocks)) == len(blocks) and len(fast.templates) == 3
