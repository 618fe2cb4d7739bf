"""The launcher's cuLaunchKernelEx path on any machine: the driver's entry points are stood in
for by Python stubs that decode what they receive, so the launch config built once and reused
(``launcher.launch_config``), the packed arguments and the stream are checked against what
``cuLaunchKernel`` (``NPGPU_LAUNCH_EX=0``) receives for the same launch."""
import ctypes
import struct
import threading
import types

import numpy as np
import pytest

import npgpu
from conftest import run_threads
from npgpu import _backend
from npgpu._codegen import launcher
from npgpu.cuda import runtime


class CUlaunchConfig(ctypes.Structure):
    """cuda.h's ``CUlaunchConfig``, laid out by ctypes' C rules (the launcher packs it by hand)."""
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint),
                ("gridDimZ", ctypes.c_uint), ("blockDimX", ctypes.c_uint),
                ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint), ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.c_void_p), ("numAttrs", ctypes.c_uint)]


def _decode(cfg):
    assert isinstance(cfg, bytes) and len(cfg) == ctypes.sizeof(CUlaunchConfig)
    c = CUlaunchConfig.from_buffer_copy(cfg)
    return ((c.gridDimX, c.gridDimY, c.gridDimZ), (c.blockDimX, c.blockDimY, c.blockDimZ),
            c.sharedMemBytes, c.hStream or 0, c.attrs, c.numAttrs)


def _values(params, n):
    """The 8-byte values a ``void*[]`` (bytes, as the launcher passes it) points at, read while
    the driver would read them (inside the call)."""
    return [ctypes.string_at(p, 8) for p in struct.unpack_from(f"<{n}Q", params)]


class Driver:
    """Stubs of cuLaunchKernel and cuLaunchKernelEx recording what each launch gave the driver
    as (function, grid, block, shared bytes, stream, argument bytes)."""

    def __init__(self, nvalues, rc=0):
        self.calls = []
        self.configs = []
        self.n = nvalues
        self.rc = rc

    def ex(self, cfg, f, params, extra):
        grid, block, shared, stream, attrs, nattrs = _decode(cfg)
        assert attrs is None and nattrs == 0 and extra is None
        self.configs.append(cfg)
        self.calls.append(("ex", f.value, grid, block, shared, stream, _values(params, self.n)))
        return self.rc

    def plain(self, f, gx, gy, gz, bx, by, bz, shared, sv, params, extra):
        assert extra is None
        stream = 0 if sv is None else sv.value
        self.calls.append(("plain", f.value, (gx, gy, gz), (bx, by, bz), shared, stream,
                           _values(params, self.n)))
        return self.rc


@pytest.fixture
def fake_gpu(monkeypatch):
    """A Launcher of a real kernel's source with a (fake) CUfunction, so that it takes the GPU
    path, and the values its add launch was given; ``install(driver)`` puts the stubs in."""
    a = npgpu.asarray(np.arange(16, dtype=np.float32))
    rec = []
    launcher.recorders.append(rec)
    seen = []
    real = launcher.Launcher.__call__

    def spy(self, grid, block, values, stream=None):
        seen.append(list(values))
        return real(self, grid, block, values, stream)
    monkeypatch.setattr(launcher.Launcher, "__call__", spy)
    try:
        npgpu.add(a, a)
    finally:
        launcher.recorders.remove(rec)
        monkeypatch.setattr(launcher.Launcher, "__call__", real)

    def get_attribute(ref, attr, func):
        ref._obj.value = 1024
        return 0

    def check(rc, what):
        if rc:
            raise RuntimeError(f"{what} failed: {rc}")
    monkeypatch.setattr(launcher, "drv", types.SimpleNamespace(
        cuFuncGetAttribute=get_attribute, check=check))
    monkeypatch.setattr(runtime._tls, "launch", None)     # this thread's buffers made afresh
    monkeypatch.setattr(launcher, "_configs", {})
    kern = launcher.Launcher(rec[-1].source, func=0x7F00DEAD0000)
    assert kern._func is not None and kern._nvalues == len(seen[-1])

    def install(driver):
        monkeypatch.setattr(launcher, "_cuLaunchKernelEx", driver.ex)
        monkeypatch.setattr(launcher, "_cuLaunchKernel", driver.plain)
    yield kern, seen[-1], install
    # the buffers of other threads the tests made go with those threads


def _both(monkeypatch, kern, install, *launch):
    """Launch once through each entry point; return both records."""
    d = Driver(kern._nvalues)
    install(d)
    for ex in (True, False):
        monkeypatch.setattr(launcher, "LAUNCH_EX", ex)
        kern(*launch)
    assert [c[0] for c in d.calls] == ["ex", "plain"]
    return d


@pytest.mark.parametrize("grid, block", [(3, 256), ((2, 3, 4), (32, 4, 2)), (1, 1)])
def test_config_and_arguments_are_what_cuLaunchKernel_receives(monkeypatch, fake_gpu, grid, block):
    kern, values, install = fake_gpu
    d = _both(monkeypatch, kern, install, grid, block, values)
    ex, plain = d.calls
    assert ex[1:] == plain[1:]
    g3 = grid if isinstance(grid, tuple) else (grid, 1, 1)
    b3 = block if isinstance(block, tuple) else (block, 1, 1)
    assert ex[2:6] == (g3, b3, 0, 0)
    assert ex[1] == 0x7F00DEAD0000
    # the argument bytes are the kernel's values in Numba's ABI, one 8-byte slot each
    fmt, _ = launcher._param_format(kern.params)
    assert b"".join(ex[6]) == struct.pack(fmt, *values)


def test_dynamic_shared_memory(monkeypatch, fake_gpu):
    kern, values, install = fake_gpu
    monkeypatch.setattr(kern, "shared_bytes", 4096)
    d = _both(monkeypatch, kern, install, 7, 128, values)
    assert d.calls[0][1:] == d.calls[1][1:] and d.calls[0][4] == 4096


def test_slots_point_at_each_8_byte_slot():
    buf, params = launcher._slots(5)        # (also what a _WideLauncher packs into)
    base = ctypes.addressof(buf)
    assert struct.unpack("<5Q", params) == tuple(base + 8 * i for i in range(5))
    assert ctypes.sizeof(buf) == 40


def test_stream_current_and_given(monkeypatch, fake_gpu):
    kern, values, install = fake_gpu
    s = runtime.Stream(_handle=0xABC000)
    s._vp = ctypes.c_void_p(s.ptr)          # as on the GPU: the launcher's prebuilt handle
    with s:
        d = _both(monkeypatch, kern, install, 4, 128, values)
    assert d.calls[0][5] == d.calls[1][5] == 0xABC000
    d = _both(monkeypatch, kern, install, 4, 128, values, 0xDEF000)
    assert d.calls[0][5] == d.calls[1][5] == 0xDEF000
    d = _both(monkeypatch, kern, install, 4, 128, values, 0)      # the legacy default stream
    assert d.calls[0][5] == d.calls[1][5] == 0


def test_config_built_once_and_reused(monkeypatch, fake_gpu):
    kern, values, install = fake_gpu
    d = Driver(kern._nvalues)
    install(d)
    monkeypatch.setattr(launcher, "LAUNCH_EX", True)
    for _ in range(3):
        kern(5, 256, values)
    kern(6, 256, values)
    kern(5, 256, values, 0x1000)
    kern(5, 256, values)
    cfgs = d.configs
    assert cfgs[0] is cfgs[1] is cfgs[2] is cfgs[5]       # one bytes object while unchanged
    assert len({id(c) for c in cfgs}) == 3
    assert set(launcher._configs) == {(5, 256, 0, 0), (6, 256, 0, 0), (5, 256, 0, 0x1000)}
    # shared by every launcher: another kernel with the same launch finds the same config
    other = launcher.Launcher(kern.source, func=0x7F00BEEF0000)
    other(5, 256, values)
    assert d.configs[-1] is cfgs[0]
    # bounded: a full cache starts over
    monkeypatch.setattr(launcher, "_CONFIGS_MAX", 4)
    for g in range(10, 20):
        kern(g, 256, values)
    assert len(launcher._configs) <= 4
    assert [c[2][0] for c in d.calls[-10:]] == list(range(10, 20))


def test_config_values_wrap_as_ctypes_passes_them():
    # what cuLaunchKernel's unsigned int parameters got from ctypes: the driver reports errors
    grid, block, shared, stream, _, _ = _decode(launcher.launch_config(-1, np.int64(64), 2, 7))
    assert (grid, block, shared, stream) == ((0xFFFFFFFF, 1, 1), (64, 1, 1), 2, 7)
    with pytest.raises(TypeError):
        launcher.launch_config(2.5, 64, 0, 0)


def test_driver_error_names_the_entry_point(monkeypatch, fake_gpu):
    kern, values, install = fake_gpu
    install(Driver(kern._nvalues, rc=1))
    for ex, entry in ((True, "cuLaunchKernelEx"), (False, "cuLaunchKernel")):
        monkeypatch.setattr(launcher, "LAUNCH_EX", ex)
        with pytest.raises(RuntimeError, match=rf"^{entry}\(.*grid=3, block=64\) failed: 1"):
            kern(3, 64, values)


def test_threads_launch_with_their_own_buffers_and_configs(monkeypatch, fake_gpu):
    kern, values, install = fake_gpu
    monkeypatch.setattr(launcher, "LAUNCH_EX", True)
    d = Driver(kern._nvalues)
    install(d)
    lock = threading.Lock()
    bufs = {}
    ex = d.ex

    def stub(cfg, f, params, extra):
        with lock:
            bufs.setdefault(threading.get_ident(), set()).add(struct.unpack_from("<Q", params)[0])
            return ex(cfg, f, params, extra)
    monkeypatch.setattr(launcher, "_cuLaunchKernelEx", stub)
    together = threading.Barrier(4)       # all alive at once: distinct threads and buffers

    def work(k):
        vals = list(values)
        vals[2] = 100 + k                     # a value of this thread's own
        together.wait()
        for i in range(20):
            kern(k + 1, 32 * (i % 2 + 1), vals, 0x100 * k)
        together.wait()

    run_threads(work, range(4))
    assert len(d.calls) == 80
    for _, _, grid, block, shared, stream, vals in d.calls:
        k = grid[0] - 1
        assert stream == 0x100 * k and block[0] in (32, 64)
        assert struct.unpack("<q", vals[2])[0] == 100 + k
    assert len(bufs) == 4 and all(len(b) == 1 for b in bufs.values())
    assert len(set.union(*bufs.values())) == 4          # one packing buffer per thread


# --- RawKernel: the same entry points and configs --------------------------------------------
AXPY = r"""
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


def test_raw_kernel_launches_through_the_launchers_config(monkeypatch):
    k = npgpu.RawKernel(AXPY, "axpy").compile()
    fn = k._fn
    x = npgpu.zeros(8, np.float32)
    runtime.ensure_context()
    fn._funcs = {runtime.get_device_id(): ctypes.c_void_p(0x7F00CAFE0000)}
    monkeypatch.setattr(launcher, "_configs", {})
    d = Driver(4)
    monkeypatch.setattr(launcher, "_cuLaunchKernelEx", d.ex)
    monkeypatch.setattr(launcher, "_cuLaunchKernel", d.plain)
    monkeypatch.setattr(_backend, "IS_CUDA", True)      # past the simulator's refusal (until
    # the test ends: the stubs stand in for the driver)
    for ex in (True, False):
        monkeypatch.setattr(launcher, "LAUNCH_EX", ex)
        k((2, 3), 64, (x, x, np.float32(1.5), np.int32(8)), shared_mem=128, stream=0x5000)
    ex, plain = d.calls
    assert ex[1:] == plain[1:]
    assert ex[1:6] == (0x7F00CAFE0000, (2, 3, 1), (64, 1, 1), 128, 0x5000)
    vals = ex[6]
    assert struct.unpack("<Q", vals[0])[0] == x._ptr
    assert struct.unpack("<f", vals[2][:4])[0] == 1.5 and struct.unpack("<i", vals[3][:4])[0] == 8
    # cached under grid and block as given: a repeat call skips their normalisation
    assert set(launcher._configs) == {((2, 3), 64, 128, 0x5000)}
    monkeypatch.setattr(launcher, "LAUNCH_EX", True)
    k([2, 3], 64, (x, x, np.float32(1.5), np.int32(8)))   # a list: not hashable, still runs
    assert d.calls[-1][2:4] == ((2, 3, 1), (64, 1, 1))
    with pytest.raises(ValueError, match="grid must be an int or a tuple of 1 to 3 ints"):
        k((1, 2, 3, 4), 64, (x, x, np.float32(1.5), np.int32(8)))
    assert len(d.calls) == 3
