"""Zero-copy interop: CUDA Array Interface and DLPack, both directions.

On the simulator, device memory is host memory: foreign "device" arrays are
NumPy buffers behind a hand-written ``__cuda_array_interface__``, and DLPack is
exchanged with NumPy (kDLCPU).  On the GPU: CuPy, PyTorch and Numba kernels.
"""
import ctypes
import gc
import weakref

import numpy as np
import pytest

import npgpu
from conftest import DLPackOnly, full_range_random
from npgpu._core import dlpack as _dl

GPU = npgpu.backend() == "cuda"
SIM = npgpu.backend() == "simulator"
needs_gpu = pytest.mark.skipif(not GPU, reason="needs a real CUDA device (CuPy/PyTorch/Numba on the GPU)")
needs_sim = pytest.mark.skipif(not SIM, reason="simulator only: device memory is host memory there")

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def rand(shape, dtype, seed=0):
    return full_range_random(shape, dtype, np.random.default_rng(seed), int_limit=1000)


def base_addr(a):
    return a._mem.ptr


# ---- no silent host transfers ---------------------------------------------------------------------
def test_numpy_asarray_refuses_implicit_transfer():
    x = npgpu.asarray(np.arange(3.0))
    for conv in (np.asarray, np.array, lambda v: np.ascontiguousarray(v)):
        with pytest.raises(TypeError, match=r"\.get\(\)"):
            conv(x)


# ---- CUDA Array Interface: export -------------------------------------------------------------------
def test_cai_export_contiguous():
    h = rand((3, 4), np.float32)
    x = npgpu.asarray(h)
    cai = x.__cuda_array_interface__
    assert cai["version"] == 3
    assert cai["shape"] == (3, 4)
    assert cai["typestr"] == np.dtype(np.float32).str
    assert cai["strides"] is None            # C-contiguous
    assert cai["data"] == (x.data.ptr, False)
    assert cai["stream"] == 1                # the legacy default stream (0 is not allowed)


def test_cai_export_views_and_empty():
    x = npgpu.asarray(rand((4, 6), np.int16))
    v = x[::2, ::-3]
    cai = v.__cuda_array_interface__
    assert cai["shape"] == (2, 2)
    assert cai["strides"] == (24, -6)
    assert cai["data"][0] == x.data.ptr + 5 * 2
    e = npgpu.empty((0, 3))
    assert e.__cuda_array_interface__["data"][0] == 0


def test_cai_export_reports_current_stream():
    s = npgpu.cuda.Stream(non_blocking=True)
    x = npgpu.asarray(np.arange(4))
    with s:
        st = x.__cuda_array_interface__["stream"]
    assert st == (s.ptr if s.ptr else 1)
    assert st != 0


# ---- CUDA Array Interface: import ---------------------------------------------------------------------
class HostCAI:
    """A foreign "device" array (simulator only: its memory is a NumPy buffer)."""

    def __init__(self, arr, stream=1):
        self.arr = arr
        self.stream = stream

    @property
    def __cuda_array_interface__(self):
        a = self.arr
        return {"shape": a.shape, "typestr": a.dtype.str, "version": 3, "stream": self.stream,
                "data": (a.ctypes.data if a.size else 0, False),
                "strides": None if a.flags.c_contiguous else a.strides}


@needs_sim
@pytest.mark.parametrize("dtype", DTYPES)
def test_cai_import_shares_memory(dtype):
    h = rand((5, 7), dtype, seed=3)
    g = npgpu.asarray(HostCAI(h))
    assert g.shape == h.shape and g.dtype == h.dtype
    assert g.data.ptr == h.ctypes.data
    np.testing.assert_array_equal(g.get(), h)
    new = rand((5, 7), dtype, seed=4)
    g.set(new)                      # writes through to the foreign memory
    np.testing.assert_array_equal(h, new)


@needs_sim
def test_cai_import_strided_views():
    base = rand((6, 8), np.float64, seed=5)
    for h in (base[::2, 1::3], base[::-1, ::-2], base.T, base[2], base[1, 2:3]):
        g = npgpu.asarray(HostCAI(h))
        assert g.strides == h.strides
        np.testing.assert_array_equal(g.get(), h)
        np.testing.assert_array_equal((g * 2).get(), h * 2)   # kernels see the foreign memory


@needs_sim
def test_cai_import_0d_and_empty():
    h0 = np.array(2.5)
    g0 = npgpu.asarray(HostCAI(h0))
    assert g0.shape == () and g0.get() == 2.5
    he = np.empty((0, 4), np.int32)
    ge = npgpu.asarray(HostCAI(he))
    assert ge.shape == (0, 4) and ge.get().shape == (0, 4)


@needs_sim
def test_cai_import_keeps_owner_alive():
    h = rand(16, np.float32, seed=6)
    obj = HostCAI(h.copy())
    ref = weakref.ref(obj)
    g = npgpu.asarray(obj)
    del obj
    gc.collect()
    assert ref() is not None                 # the npgpu array keeps the producer alive
    v = g[3:9]
    del g
    gc.collect()
    assert ref() is not None                 # ... and so do its views
    np.testing.assert_array_equal(v.get(), h[3:9])
    del v
    gc.collect()
    assert ref() is None


@needs_sim
def test_cai_import_copy_and_dtype():
    h = rand(10, np.int32, seed=7)
    src = HostCAI(h)
    c = npgpu.array(src)                         # array() copies
    assert c.data.ptr != h.ctypes.data
    np.testing.assert_array_equal(c.get(), h)
    f = npgpu.asarray(src, dtype=np.float64)     # dtype change copies
    np.testing.assert_array_equal(f.get(), h.astype(np.float64))
    same = npgpu.asarray(src, copy=False)
    assert same.data.ptr == h.ctypes.data


@needs_sim
def test_cai_import_rejects_bad_input():
    with pytest.raises(TypeError, match="dtype"):
        npgpu.asarray(HostCAI(np.zeros(3, dtype="U2")))
    bad = HostCAI(np.zeros(3))

    class Masked:
        __cuda_array_interface__ = dict(bad.__cuda_array_interface__, mask=object())

    with pytest.raises(TypeError, match="mask"):
        npgpu.asarray(Masked())


def test_cai_roundtrip_through_npgpu_wrapper():
    # an npgpu array wrapped through its own CAI shares memory
    x = npgpu.asarray(rand((3, 5), np.complex64, seed=8))

    class Wrap:
        __cuda_array_interface__ = x.T.__cuda_array_interface__

    y = npgpu.asarray(Wrap())
    assert y.data.ptr == x.data.ptr and y.strides == x.T.strides
    np.testing.assert_array_equal(y.get(), x.get().T)


# ---- DLPack: export -----------------------------------------------------------------------------------
def test_dlpack_device():
    x = npgpu.zeros(3)
    if GPU:
        assert x.__dlpack_device__() == (2, x.device.id)
    else:
        assert x.__dlpack_device__() == (1, 0)


@needs_sim
@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_from_dlpack_shares_memory(dtype):
    h = rand((4, 5), dtype, seed=9)
    x = npgpu.asarray(h)
    n = np.from_dlpack(x)
    assert n.dtype == h.dtype and n.shape == h.shape
    assert n.ctypes.data == x.data.ptr
    np.testing.assert_array_equal(n, h)
    x.set(rand((4, 5), dtype, seed=10))
    np.testing.assert_array_equal(n, x.get())       # same memory


@needs_sim
def test_numpy_from_dlpack_views_0d_empty():
    h = rand((6, 5), np.float32, seed=11)
    x = npgpu.asarray(h)
    for v, hv in ((x[::2, ::-1], h[::2, ::-1]), (x.T, h.T), (x[1:2, 3], h[1:2, 3]),
                  (x[2, 3], h[2, 3]), (x[:0], h[:0])):
        n = np.from_dlpack(v)
        assert n.shape == hv.shape and n.strides == v.strides
        np.testing.assert_array_equal(n, hv)


@needs_sim
def test_numpy_from_dlpack_copy_and_device():
    x = npgpu.asarray(rand(8, np.int64, seed=12))
    c = np.from_dlpack(x, copy=True)
    assert c.ctypes.data != x.data.ptr
    np.testing.assert_array_equal(c, x.get())
    d = np.from_dlpack(x, device="cpu")
    assert d.ctypes.data == x.data.ptr


def test_dlpack_capsule_names():
    x = npgpu.asarray(np.arange(6))
    assert '"dltensor"' in repr(x.__dlpack__())
    assert '"dltensor"' in repr(x.__dlpack__(max_version=(0, 8)))
    assert '"dltensor_versioned"' in repr(x.__dlpack__(max_version=(1, 0)))
    assert '"dltensor_versioned"' in repr(x.__dlpack__(max_version=(1, 3)))


def _struct(cap, versioned):
    name = _dl._VNAME if versioned else _dl._NAME
    addr = _dl._capsule_get(cap, name)
    cls = _dl.DLManagedTensorVersioned if versioned else _dl.DLManagedTensor
    return cls.from_address(addr)


@pytest.mark.parametrize("versioned", [False, True])
def test_dlpack_struct_contents(versioned):
    h = rand((4, 6), np.complex128, seed=13)
    x = npgpu.asarray(h)[1:, ::-2]
    cap = x.__dlpack__(max_version=(1, 0) if versioned else None)
    m = _struct(cap, versioned)
    t = m.dl_tensor
    assert t.data == x.data.ptr and t.byte_offset == 0
    assert (t.device.device_type, t.device.device_id) == x.__dlpack_device__()
    assert t.ndim == 2 and [t.shape[i] for i in range(2)] == [3, 3]
    assert [t.strides[i] for i in range(2)] == [s // 16 for s in x.strides]
    assert (t.dtype.code, t.dtype.bits, t.dtype.lanes) == (5, 128, 1)
    if versioned:
        assert (m.version.major, m.flags) == (1, 0)


def test_dlpack_dtype_codes():
    codes = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}
    for dt in DTYPES:
        cap = npgpu.zeros(2, dtype=dt).__dlpack__(max_version=(1, 0))
        d = _struct(cap, True).dl_tensor.dtype
        assert (d.code, d.bits, d.lanes) == (codes[np.dtype(dt).kind], np.dtype(dt).itemsize * 8, 1)


def test_dlpack_unconsumed_capsule_releases_array():
    x = npgpu.asarray(np.arange(10.0))
    ref = weakref.ref(x)
    n0 = len(_dl._exports)
    for mv in (None, (1, 0)):
        cap = x.__dlpack__(max_version=mv)
        assert len(_dl._exports) == n0 + 1
        del cap
        gc.collect()
        assert len(_dl._exports) == n0
    cap = x.__dlpack__()
    del x
    gc.collect()
    assert ref() is not None          # the capsule keeps the array alive
    del cap
    gc.collect()
    assert ref() is None


def test_dlpack_copy_flag():
    x = npgpu.asarray(rand(5, np.float32, seed=14))
    cap = x.__dlpack__(max_version=(1, 0), copy=True)
    m = _struct(cap, True)
    assert m.flags & _dl.FLAG_IS_COPIED
    assert m.dl_tensor.data != x.data.ptr
    y = npgpu.from_dlpack(cap)
    np.testing.assert_array_equal(y.get(), x.get())


def test_dlpack_stream_arguments():
    x = npgpu.asarray(np.arange(3.0))
    s = npgpu.cuda.Stream(non_blocking=True)
    # the consumer reads as its stream argument promised: None / 1 (legacy default) and 2 (the
    # per-thread default, which the legacy stream waits for) on the default stream, its own
    # stream's handle on that stream, -1 (no sync by the producer) after waiting itself
    for st in (None, -1, 1, 2, s.ptr or 1):
        with s:
            y = x * 2.0                         # pending work on our stream
            cap = y.__dlpack__(stream=st, max_version=(1, 0))
        if st == -1:
            s.synchronize()
        if st == s.ptr:
            with s:
                got = npgpu.from_dlpack(cap).get()
        else:
            got = npgpu.from_dlpack(cap).get()
        np.testing.assert_array_equal(got, [0.0, 2.0, 4.0])
    with pytest.raises(ValueError, match="stream"):
        x.__dlpack__(stream=-7)


def test_dlpack_bad_arguments():
    x = npgpu.zeros(3)
    with pytest.raises(ValueError, match="stream=0"):
        x.__dlpack__(stream=0)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(8, 0))            # Metal
    if GPU:
        with pytest.raises(BufferError, match="copy=False"):
            x.__dlpack__(dl_device=(1, 0), copy=False)
    else:
        with pytest.raises(BufferError):
            x.__dlpack__(dl_device=(2, 0))         # the simulator has no CUDA memory to give
    # byte stride 24, itemsize 16 (aligned for complex128, but no whole number of elements)
    odd = npgpu.zeros((3, 3), dtype=np.float64)[:, :2].view(np.complex128)
    assert odd.strides == (24, 16)
    with pytest.raises(BufferError, match="itemsize"):
        odd.__dlpack__()
    with pytest.raises(ValueError, match="would not be aligned"):   # a misaligned view: never made
        npgpu.zeros((3, 3), dtype=np.uint8)[:, :2].view(np.int16)


def test_dlpack_host_copy_via_dl_device():
    h = rand((3, 4), np.float64, seed=15)
    x = npgpu.asarray(h)[:, ::2]
    n = np.from_dlpack(x, device="cpu")
    np.testing.assert_array_equal(n, h[:, ::2])
    if GPU:   # the consumer asked for host memory: an explicit copy
        cap = x.__dlpack__(max_version=(1, 0), dl_device=(1, 0))
        assert _struct(cap, True).flags & _dl.FLAG_IS_COPIED


# ---- DLPack: import -----------------------------------------------------------------------------------
@pytest.mark.parametrize("versioned", [False, True])
def test_from_dlpack_own_capsule(versioned):
    h = rand((3, 4), np.int32, seed=16)
    x = npgpu.asarray(h)
    gc.collect()
    before = set(_dl._exports)
    cap = x[:, 1::2].__dlpack__(max_version=(1, 0) if versioned else None)
    mine = set(_dl._exports) - before         # this export (others may die meanwhile)
    assert len(mine) == 1
    y = npgpu.from_dlpack(cap)
    assert y.data.ptr == x.data.ptr + 4 and y.strides == (16, 8)
    np.testing.assert_array_equal(y.get(), h[:, 1::2])
    assert "used_dltensor" in repr(cap)
    with pytest.raises(ValueError, match="consumed"):
        npgpu.from_dlpack(cap)
    # npgpu's own capsule: its struct is released at import, and y is a view of the exported
    # array's memory (no deleter to call back when y dies)
    assert not mine & set(_dl._exports) and y._mem is x._mem
    del x, cap
    gc.collect()
    np.testing.assert_array_equal(y.get(), h[:, 1::2])


def test_from_dlpack_npgpu_array_is_a_view():
    x = npgpu.asarray(np.arange(5.0))
    y = npgpu.from_dlpack(x)
    assert y is not x and y.data.ptr == x.data.ptr
    z = npgpu.from_dlpack(x, copy=True)
    assert z.data.ptr != x.data.ptr
    np.testing.assert_array_equal(z.get(), np.arange(5.0))


@needs_sim
@pytest.mark.parametrize("dtype", DTYPES)
def test_from_dlpack_numpy_zero_copy(dtype):
    h = rand((3, 5), dtype, seed=17)
    for v in (h, h[::-1, 1::2], h.T, h[1, 1, ...]):
        g = npgpu.from_dlpack(v)
        assert g.data.ptr == v.__array_interface__["data"][0]
        assert g.shape == v.shape and g.strides == v.strides and g.dtype == v.dtype
        np.testing.assert_array_equal(g.get(), v)


@needs_sim
def test_from_dlpack_numpy_keeps_alive_and_writes_through():
    h = rand(12, np.float64, seed=18)
    keep = h.copy()
    g = npgpu.from_dlpack(h)
    ref = weakref.ref(h)
    g.set(keep * 3)
    np.testing.assert_array_equal(h, keep * 3)
    del h
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal(g.get(), keep * 3)
    del g
    gc.collect()
    assert ref() is None


@needs_sim
def test_asarray_accepts_dlpack_producers():
    h = rand(7, np.float32, seed=19)
    g = npgpu.asarray(DLPackOnly(h))
    assert g.data.ptr == h.ctypes.data
    np.testing.assert_array_equal(g.get(), h)


def test_from_dlpack_rejects_other_devices():
    class Fake:
        def __init__(self, dev):
            self.dev = dev

        def __dlpack__(self, **kw):
            raise AssertionError("must not be asked for a capsule")

        def __dlpack_device__(self):
            return self.dev

    with pytest.raises(BufferError, match="kDLROCM"):
        npgpu.from_dlpack(Fake((10, 0)))
    if GPU:
        with pytest.raises(BufferError, match="kDLCPU"):
            npgpu.from_dlpack(np.arange(3.0))
        with pytest.raises(BufferError, match="device 7"):
            npgpu.from_dlpack(Fake((2, 7)))
    else:
        with pytest.raises(BufferError, match="simulator.*kDLCUDA"):
            npgpu.from_dlpack(Fake((2, 0)))
    with pytest.raises(TypeError, match="__dlpack__"):
        npgpu.from_dlpack([1, 2, 3])


def test_from_dlpack_rejects_newer_major_version():
    x = npgpu.asarray(np.arange(4.0))
    n0 = len(_dl._exports)
    cap = x.__dlpack__(max_version=(1, 0))
    _struct(cap, True).version.major = 2
    with pytest.raises(BufferError, match="newer"):
        npgpu.from_dlpack(cap)
    assert '"dltensor_versioned"' in repr(cap)       # left to the producer, not consumed
    del cap
    gc.collect()
    assert len(_dl._exports) == n0


@needs_sim
def test_from_dlpack_foreign_capsule_deleter_called():
    # a capsule built by another producer (NumPy): its deleter runs when our array dies
    h = np.arange(6, dtype=np.int16)
    ref = weakref.ref(h)
    cap = h.__dlpack__(max_version=(1, 0))
    del h
    g = npgpu.from_dlpack(cap)
    del cap
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal(g.get(), np.arange(6, dtype=np.int16))
    del g
    gc.collect()
    assert ref() is None


def test_dlpack_unsupported_dtype():
    d = _dl.DLDataType(_dl.kDLBfloat, 16, 1)
    with pytest.raises(BufferError, match="bfloat"):
        _dl._np_dtype(d)
    with pytest.raises(BufferError, match="lanes"):
        _dl._np_dtype(_dl.DLDataType(_dl.kDLFloat, 32, 4))


# ---- the GPU: CuPy, PyTorch, Numba --------------------------------------------------------------------
@needs_gpu
def test_cupy_both_directions():
    cp = pytest.importorskip("cupy")
    h = rand((4, 6), np.float32, seed=20)
    x = npgpu.asarray(h)
    c = cp.asarray(x)                                    # CAI: shares memory
    assert c.data.ptr == x.data.ptr
    c *= 2
    np.testing.assert_array_equal(x.get(), h * 2)
    c2 = cp.from_dlpack(x[:, ::2])
    assert c2.data.ptr == x.data.ptr
    np.testing.assert_array_equal(cp.asnumpy(c2), h[:, ::2] * 2)
    src = cp.asarray(h)[::-1]
    g = npgpu.asarray(src)
    assert g.data.ptr == src.data.ptr and g.strides == src.strides
    np.testing.assert_array_equal(g.get(), h[::-1])
    g2 = npgpu.from_dlpack(src)
    assert g2.data.ptr == src.data.ptr
    assert (g2.shape, g2.strides) == (src.shape, src.strides), (g2.shape, g2.strides, src.strides)
    np.testing.assert_array_equal(g2.get(), h[::-1])


@needs_gpu
def test_torch_both_directions():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch was built without CUDA")
    h = rand((3, 5), np.float64, seed=21)
    x = npgpu.asarray(h)
    t = torch.as_tensor(x, device="cuda")                # CAI
    assert t.data_ptr() == x.data.ptr
    t.mul_(3)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(x.get(), h * 3)
    t2 = torch.from_dlpack(x.T)                          # DLPack
    assert t2.data_ptr() == x.data.ptr and t2.stride() == (1, 5)
    np.testing.assert_array_equal(t2.cpu().numpy(), (h * 3).T)
    src = torch.arange(12, device="cuda", dtype=torch.int32).reshape(3, 4)[:, 1::2]
    g = npgpu.asarray(src)
    assert g.data.ptr == src.data_ptr()
    np.testing.assert_array_equal(g.get(), src.cpu().numpy())
    g2 = npgpu.from_dlpack(src)
    assert g2.data.ptr == src.data_ptr()
    np.testing.assert_array_equal(g2.get(), src.cpu().numpy())
    b = torch.tensor([True, False, True], device="cuda")
    np.testing.assert_array_equal(npgpu.from_dlpack(b).get(), [True, False, True])
    with pytest.raises(BufferError, match="kDLCPU"):
        npgpu.from_dlpack(torch.zeros(3))


@needs_gpu
def test_dlpack_stream_handoff_torch():
    torch = pytest.importorskip("torch")
    s = npgpu.cuda.Stream(non_blocking=True)
    h = rand(1 << 20, np.float32, seed=22)
    with s:
        x = npgpu.asarray(h)
        y = x * 2                                        # queued on s
        ts = torch.cuda.Stream()
        with torch.cuda.stream(ts):
            t = torch.from_dlpack(y)                     # torch passes its stream: we order y before it
            r = (t + 1).cpu().numpy()
    np.testing.assert_array_equal(r, h * 2 + 1)


@needs_gpu
def test_numba_kernel_on_npgpu_array():
    from numba import cuda

    @cuda.jit
    def axpy(a, x, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * x[i] + out[i]

    h = rand(1000, np.float32, seed=23)
    x = npgpu.asarray(h)
    out = npgpu.asarray(np.ones(1000, np.float32))
    axpy[4, 256](np.float32(2.0), cuda.as_cuda_array(x), cuda.as_cuda_array(out))
    np.testing.assert_allclose(out.get(), 2 * h + 1, rtol=1e-6)
    d = cuda.as_cuda_array(x[::3])
    assert d.__cuda_array_interface__["data"][0] == x.data.ptr
