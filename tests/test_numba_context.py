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
