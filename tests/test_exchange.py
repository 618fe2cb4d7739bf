"""Exchange without races: the DLPack protocol (``__dlpack__`` with stream, max_version,
dl_device and copy; ``npgpu.from_dlpack`` with device and copy) and the CUDA Array Interface
v3's ``stream`` field, both ways.

On the simulator "device" memory is host memory (kDLCPU): the protocol logic is tested with
NumPy and hand-written producers.  On the GPU: round trips with PyTorch, CuPy and JAX (each
``importorskip``), pointer identity, and stream ordering (a long npgpu kernel on one stream,
the consumer on another, correct without an explicit synchronisation).  The older zero-copy
tests (dtypes, strides, lifetimes) are in ``test_interop.py``.
"""
import gc

import numpy as np
import pytest

import npgpu
from npgpu._core import dlpack as _dl
from conftest import DLPackOnly

GPU = npgpu.backend() == "cuda"
needs_gpu = pytest.mark.skipif(not GPU, reason="needs a real CUDA device and a peer library")
OWN_DEVICE = (_dl.kDLCUDA, 0) if GPU else (_dl.kDLCPU, 0)


def rand(shape, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape).astype(dtype)


def managed(cap):
    """The struct behind an unconsumed capsule (versioned or legacy)."""
    if _dl._capsule_is_valid(cap, _dl._VNAME):
        return _dl.DLManagedTensorVersioned.from_address(_dl._capsule_get(cap, _dl._VNAME))
    return _dl.DLManagedTensor.from_address(_dl._capsule_get(cap, _dl._NAME))


def capsule_name(cap):
    for name in (_dl._VNAME, _dl._NAME):
        if _dl._capsule_is_valid(cap, name):
            return name.decode()
    return None


class Producer:
    """A DLPack producer wrapping an npgpu array, recording what it was asked; ``legacy``: one
    that takes only ``stream`` (older than the Array API 2023.12 signature)."""

    def __init__(self, arr, legacy=False):
        self.arr, self.calls, self.legacy = arr, [], legacy

    def __dlpack_device__(self):
        return self.arr.__dlpack_device__()

    def __dlpack__(self, **kw):
        self.calls.append(kw)
        if self.legacy and set(kw) - {"stream"}:
            raise TypeError("__dlpack__() got an unexpected keyword argument")
        return self.arr.__dlpack__(**kw)


def producer_class(module):
    """Producer as a class of ``module`` (npgpu recognises immutable libraries by module)."""
    return type("Array", (Producer,), {"__module__": module})


# ---- export: capsule names, versions, flags -------------------------------------------------
@pytest.mark.parametrize("max_version, name, version", [
    (None, "dltensor", None), ((0, 8), "dltensor", None), ((1, 0), "dltensor_versioned", (1, 0)),
    ((1, 5), "dltensor_versioned", _dl.VERSION), ((2, 0), "dltensor_versioned", _dl.VERSION)])
def test_capsule_name_and_version(max_version, name, version):
    h = rand((3, 4), seed=1)
    x = npgpu.asarray(h)
    cap = x.__dlpack__(max_version=max_version)
    assert capsule_name(cap) == name
    m = managed(cap)
    if version is not None:
        assert (m.version.major, m.version.minor) == version
        assert m.flags == 0
    t = m.dl_tensor
    assert (t.device.device_type, t.device.device_id) == OWN_DEVICE
    assert t.data == x.data.ptr and t.ndim == 2
    np.testing.assert_array_equal(npgpu.from_dlpack(cap).get(), h)


@pytest.mark.parametrize("bad", [5, (1,), (1, 0, 0), ("1", "0"), (1.0, 0)])
def test_max_version_malformed(bad):
    with pytest.raises(TypeError, match="max_version"):
        npgpu.zeros(3).__dlpack__(max_version=bad)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128, np.bool_])
def test_read_only_export(dtype):
    h = rand(6, seed=2).astype(dtype)
    ro = npgpu.broadcast_to(npgpu.asarray(h), (2, 6))
    assert not ro.flags.writeable
    with pytest.raises(BufferError, match="readonly"):
        ro.__dlpack__()                                    # a legacy capsule cannot say so
    cap = ro.__dlpack__(max_version=(1, 0))
    m = managed(cap)
    assert m.flags == _dl.FLAG_READ_ONLY
    back = npgpu.from_dlpack(cap)
    assert not back.flags.writeable and back.data.ptr == ro.data.ptr
    with pytest.raises(ValueError, match="read-only"):
        back[0] = back[1]
    cp = ro.__dlpack__(max_version=(1, 0), copy=True)      # a copy is writeable
    assert managed(cp).flags == _dl.FLAG_IS_COPIED
    w = npgpu.from_dlpack(cp)
    assert w.flags.writeable and w.data.ptr != ro.data.ptr
    np.testing.assert_array_equal(w.get(), np.broadcast_to(h, (2, 6)))


def test_copy_argument():
    h = rand((4, 5), seed=3)
    x = npgpu.asarray(h)[:, ::2]
    same = managed(x.__dlpack__(max_version=(1, 0), copy=False))
    assert same.dl_tensor.data == x.data.ptr and same.flags == 0
    fresh = managed(x.__dlpack__(max_version=(1, 0), copy=True))
    assert fresh.dl_tensor.data != x.data.ptr and fresh.flags == _dl.FLAG_IS_COPIED
    for copy in (None, False, True):
        y = np.from_dlpack(x, copy=copy) if not GPU else npgpu.from_dlpack(x, copy=copy)
        np.testing.assert_array_equal(y if not GPU else y.get(), h[:, ::2])


# ---- export: dl_device ------------------------------------------------------------------------
def test_dl_device_own_is_zero_copy():
    x = npgpu.asarray(rand(5, seed=4))
    m = managed(x.__dlpack__(max_version=(1, 0), dl_device=OWN_DEVICE, copy=False))
    assert m.dl_tensor.data == x.data.ptr and m.flags == 0


@pytest.mark.parametrize("versioned", [False, True])
def test_dl_device_cpu_copy(versioned):
    h = rand((3, 4), np.float64, seed=5)
    x = npgpu.asarray(h)[:, 1::2]
    cap = x.__dlpack__(max_version=(1, 0) if versioned else None, dl_device=(_dl.kDLCPU, 0),
                       copy=None if GPU else True)
    m = managed(cap)
    assert (m.dl_tensor.device.device_type, m.dl_tensor.device.device_id) == (_dl.kDLCPU, 0)
    if versioned:
        assert m.flags == _dl.FLAG_IS_COPIED
    n = np.from_dlpack(x, device="cpu", copy=True)        # NumPy asks for the CPU itself
    np.testing.assert_array_equal(n, h[:, 1::2])
    assert not np.shares_memory(n, h)


@needs_gpu
def test_dl_device_cpu_without_copy_raises():
    x = npgpu.zeros(3)
    with pytest.raises(BufferError, match="copy=False"):
        x.__dlpack__(dl_device=(_dl.kDLCPU, 0), copy=False)


@pytest.mark.parametrize("dev", [(8, 0), (_dl.kDLCUDA, 7), (_dl.kDLCUDAHost, 0)])
def test_dl_device_unsupported(dev):
    with pytest.raises(BufferError, match="cannot export"):
        npgpu.zeros(3).__dlpack__(dl_device=dev)


@pytest.mark.parametrize("bad", [2, (2,), "cuda", (2.0, 0)])
def test_dl_device_malformed(bad):
    with pytest.raises(TypeError, match="dl_device"):
        npgpu.zeros(3).__dlpack__(dl_device=bad)


# ---- export: the stream argument ------------------------------------------------------------
@pytest.mark.parametrize("stream", [None, -1, 1, 2, "handle", np.int64(1)])
def test_stream_values_accepted(stream):
    s = npgpu.cuda.Stream(non_blocking=True)
    h = rand(64, seed=6)
    with s:
        x = npgpu.asarray(h)
        y = x * 2.0                                        # pending work on our stream
        cap = y.__dlpack__(stream=(s.ptr or 3) if stream == "handle" else stream,
                           max_version=(1, 0))
    np.testing.assert_array_equal(npgpu.from_dlpack(cap).get(), h * 2.0)


@pytest.mark.parametrize("stream, error, match", [
    (0, ValueError, "ambiguous"), (-2, ValueError, "positive"), (-7, ValueError, "positive"),
    (1.0, TypeError, "int"), ("1", TypeError, "int"), (True, TypeError, "int"),
    (npgpu.cuda.Stream.null, TypeError, "int")])
def test_stream_values_refused(stream, error, match):
    x = npgpu.zeros(3)
    with pytest.raises(error, match=match):
        x.__dlpack__(stream=stream)
    with pytest.raises(error, match=match):
        x.__dlpack__(stream=stream, max_version=(1, 0))


def test_consumer_stream_translation():
    # the Array API's integers -> driver handles (None: no synchronisation)
    assert _dl._consumer_stream(None) == 0
    assert _dl._consumer_stream(1) == 0
    assert _dl._consumer_stream(2) == 2
    assert _dl._consumer_stream(-1) is None
    assert _dl._consumer_stream(0x7F00DEAD) == 0x7F00DEAD


# ---- import: from_dlpack's arguments ----------------------------------------------------------
def test_from_dlpack_passes_protocol_arguments():
    x = npgpu.asarray(rand(7, seed=7))
    p = Producer(x)
    y = npgpu.from_dlpack(p)
    (kw,) = p.calls
    assert kw["max_version"] == _dl.VERSION and "copy" not in kw
    if GPU:
        s = npgpu.cuda.get_current_stream().ptr
        assert kw["stream"] == (s if s else 1)            # our stream: 1 for the legacy default
    else:
        assert kw["stream"] is None                        # kDLCPU producers take no stream
    assert y.data.ptr == x.data.ptr
    s = npgpu.cuda.Stream(non_blocking=True)
    with s:
        npgpu.from_dlpack(p)
    assert p.calls[-1]["stream"] == (s.ptr if GPU else None)


@pytest.mark.parametrize("copy", [True, False])
def test_from_dlpack_copy_is_forwarded(copy):
    h = rand((2, 3), seed=8)
    x = npgpu.asarray(h)
    p = Producer(x)
    y = npgpu.from_dlpack(p, copy=copy)
    assert p.calls[-1]["copy"] is copy
    assert (y.data.ptr == x.data.ptr) is (not copy)
    np.testing.assert_array_equal(y.get(), h)
    if copy:        # the producer's copy (FLAG_IS_COPIED) is not copied a second time: the
        gc.collect()  # import of an npgpu capsule is a view of the exported (copied) array
        assert y.base is not None and y.base is not x and y.base.data.ptr == y.data.ptr


def test_from_dlpack_legacy_producer():
    h = rand(4, seed=9)
    p = Producer(npgpu.asarray(h), legacy=True)
    y = npgpu.from_dlpack(p, copy=True)
    assert len(p.calls) == 2 and set(p.calls[-1]) <= {"stream"}
    np.testing.assert_array_equal(y.get(), h)


def test_from_dlpack_device_argument():
    x = npgpu.asarray(rand(3, seed=10))
    for dev in (None, 0, npgpu.cuda.Device(0), x.device):
        assert npgpu.from_dlpack(x, device=dev).data.ptr == x.data.ptr
    for bad in ("cpu", 1.0, True):
        with pytest.raises(ValueError, match="Device not understood"):
            npgpu.from_dlpack(x, device=bad)


def test_from_dlpack_not_a_producer():
    with pytest.raises(TypeError, match="__dlpack__"):
        npgpu.from_dlpack([1, 2, 3])
    cap = npgpu.zeros(2).__dlpack__()
    npgpu.from_dlpack(cap)
    with pytest.raises(ValueError, match="already consumed"):
        npgpu.from_dlpack(cap)


@pytest.mark.parametrize("module", ["jax", "jaxlib.xla_extension", "jax._src.array"])
def test_immutable_producer_imports_read_only(module):
    # JAX's arrays never change: npgpu's view of one is read-only, whatever the capsule says
    h = rand(5, seed=11)
    x = npgpu.asarray(h)
    y = npgpu.from_dlpack(producer_class(module)(x))
    assert not y.flags.writeable and y.data.ptr == x.data.ptr
    with pytest.raises(ValueError, match="read-only"):
        y[0] = 1.0
    legacy = npgpu.from_dlpack(producer_class(module)(x, legacy=True))
    assert not legacy.flags.writeable
    assert npgpu.from_dlpack(producer_class("torch")(x)).flags.writeable


# ---- the CUDA Array Interface v3 ----------------------------------------------------------------
class CAI:
    """A foreign device array as the CAI describes it (memory of an npgpu array)."""

    def __init__(self, arr, stream):
        self.arr = arr
        self.__cuda_array_interface__ = dict(arr.__cuda_array_interface__, stream=stream)


def cai_class(module):
    return type("Array", (CAI,), {"__module__": module})


def test_cai_export_stream_and_version():
    x = npgpu.asarray(rand(4, seed=12))
    cai = x.__cuda_array_interface__
    assert cai["version"] == 3 and cai["stream"] == 1      # the legacy default stream
    s = npgpu.cuda.Stream(non_blocking=True)
    with s:
        assert x.__cuda_array_interface__["stream"] == (s.ptr or 1)


@pytest.mark.parametrize("stream", [None, 1, 2, "ours"])
def test_cai_import_stream_values(stream):
    h = rand(6, seed=13)
    x = npgpu.asarray(h)
    s = npgpu.cuda.Stream(non_blocking=True)
    with s:
        y = x + 1.0
        st = (s.ptr or 3) if stream == "ours" else stream
        z = npgpu.asarray(cai_class("torch")(y, st))
        assert z.data.ptr == y.data.ptr and z.flags.writeable
        np.testing.assert_array_equal((z * 2.0).get(), (h + 1.0) * 2.0)


@pytest.mark.parametrize("stream, error", [(0, ValueError), (1.5, TypeError), ("2", TypeError),
                                           (True, TypeError)])
def test_cai_import_bad_stream(stream, error):
    with pytest.raises(error, match="stream"):
        npgpu.asarray(cai_class("torch")(npgpu.zeros(3), stream))


def test_cai_import_immutable_producer_read_only():
    x = npgpu.asarray(rand(3, seed=14))
    y = npgpu.asarray(cai_class("jaxlib.xla_extension")(x, None))
    assert not y.flags.writeable and y.data.ptr == x.data.ptr


# ---- the GPU: PyTorch, CuPy, JAX ------------------------------------------------------------------
def _torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch was built without CUDA")
    return torch


def _long_kernels(x, n):
    """Queue ``n`` full passes over ``x`` on the current stream (ints: exact results)."""
    for _ in range(n):
        npgpu.add(x, 1, out=x)
    return x


N_LONG, PASSES = 1 << 24, 40        # 40 passes over 64 MiB: milliseconds of queued work


def _consumer(peer, via):
    """(a stream of ``peer``, a context making it current, sum of an array imported into
    ``peer`` on that stream)."""
    if peer == "torch":
        torch = _torch()
        ts = torch.cuda.Stream()
        return ts, torch.cuda.stream(ts), lambda x: torch.from_dlpack(x).sum(dtype=torch.int64)
    cp = pytest.importorskip("cupy")
    cs = cp.cuda.Stream(non_blocking=True)
    take = cp.from_dlpack if via == "dlpack" else cp.asarray      # cp.asarray reads the CAI
    return cs, cs, lambda x: take(x).sum(dtype=cp.int64)


@needs_gpu
def test_round_trip_torch_npgpu_cupy():
    torch = _torch()
    cp = pytest.importorskip("cupy")
    h = rand((64, 33), seed=20)
    t = torch.from_numpy(h).cuda()[:, 1::2]                # a strided view
    torch.cuda.synchronize()
    g = npgpu.from_dlpack(t)                               # torch -> npgpu
    assert g.data.ptr == t.data_ptr() and g.strides == tuple(4 * s for s in t.stride())
    c = cp.from_dlpack(g)                                  # npgpu -> CuPy
    assert c.data.ptr == g.data.ptr and c.strides == g.strides
    g2 = npgpu.from_dlpack(c)                              # CuPy -> npgpu
    t2 = torch.from_dlpack(g2)                             # npgpu -> torch
    assert g2.data.ptr == t2.data_ptr() == t.data_ptr()
    np.testing.assert_array_equal(t2.cpu().numpy(), h[:, 1::2])
    c2 = cp.asarray(npgpu.asarray(c))                      # both ways through the CAI
    assert c2.data.ptr == c.data.ptr
    t3 = torch.as_tensor(npgpu.asarray(t), device="cuda")
    assert t3.data_ptr() == t.data_ptr()
    g2 *= 2                                                # one buffer throughout
    torch.cuda.synchronize()
    np.testing.assert_array_equal(t.cpu().numpy(), 2 * h[:, 1::2])
    np.testing.assert_array_equal(cp.asnumpy(c), 2 * h[:, 1::2])


@needs_gpu
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.float16, np.float64,
                                   np.complex64, np.bool_])
def test_round_trip_dtypes(dtype):
    torch = _torch()
    h = (rand((5, 7), np.float64, seed=21) * 10).astype(dtype)
    x = npgpu.asarray(h)
    t = torch.from_dlpack(x)
    assert t.data_ptr() == x.data.ptr
    back = npgpu.from_dlpack(t)
    assert back.dtype == dtype and back.data.ptr == x.data.ptr
    np.testing.assert_array_equal(back.get(), h)


@needs_gpu
@pytest.mark.parametrize("peer, via", [("torch", "dlpack"), ("cupy", "dlpack"), ("cupy", "cai")])
def test_stream_order_npgpu_to_peer(peer, via):
    # a long npgpu computation on its own stream, the peer reading it on another: DLPack gives
    # our export the peer's stream (which then waits on an event of ours), the CAI names our
    # stream to the peer; no synchronisation here
    stream, current, total_of = _consumer(peer, via)
    s = npgpu.cuda.Stream(non_blocking=True)
    with s:
        x = _long_kernels(npgpu.zeros(N_LONG, dtype=np.int32), PASSES)
        with current:
            total = total_of(x)
    stream.synchronize()
    assert int(total) == N_LONG * PASSES


@needs_gpu
def test_stream_order_torch_to_npgpu():
    # torch writes on its stream; from_dlpack gives torch our stream, torch orders its work first
    torch = _torch()
    ts = torch.cuda.Stream()
    s = npgpu.cuda.Stream(non_blocking=True)
    with torch.cuda.stream(ts):
        t = torch.zeros(N_LONG, dtype=torch.int32, device="cuda")
        for _ in range(PASSES):
            t.add_(1)
        with s:
            got = int(npgpu.sum(npgpu.from_dlpack(t), dtype=np.int64))   # read on our stream
    assert got == N_LONG * PASSES


@needs_gpu
def test_stream_order_cupy_to_npgpu_cai():
    # CuPy's CAI names its current stream: npgpu's stream waits on an event recorded there
    cp = pytest.importorskip("cupy")
    cs = cp.cuda.Stream(non_blocking=True)
    s = npgpu.cuda.Stream(non_blocking=True)
    with cs:
        c = cp.zeros(N_LONG, dtype=cp.int32)
        for _ in range(PASSES):
            c += 1
        if c.__cuda_array_interface__.get("stream") != cs.ptr:
            pytest.skip("this CuPy exports no CAI stream (CUPY_CUDA_ARRAY_INTERFACE_EXPORT_VERSION)")
        with s:
            got = int(npgpu.sum(npgpu.asarray(c), dtype=np.int64))
    assert got == N_LONG * PASSES


@needs_gpu
def test_host_producer_needs_copy():
    torch = _torch()
    h = rand(9, seed=22)
    t = torch.from_numpy(h)
    with pytest.raises(BufferError, match="copy=True"):
        npgpu.from_dlpack(t)
    with pytest.raises(BufferError, match="kDLCPU"):
        npgpu.from_dlpack(t, copy=False)
    np.testing.assert_array_equal(npgpu.from_dlpack(t, copy=True).get(), h)


@needs_gpu
def test_torch_consumes_host_copy():
    # torch asks for the CPU explicitly through dl_device (torch >= 2.6), else NumPy does
    h = rand((3, 3), seed=23)
    x = npgpu.asarray(h)
    n = np.from_dlpack(x, device="cpu", copy=True)
    np.testing.assert_array_equal(n, h)
    with pytest.raises(BufferError):
        np.from_dlpack(x, device="cpu", copy=False)


@needs_gpu
def test_jax_round_trip_read_only():
    jax = pytest.importorskip("jax")
    try:
        gpu = jax.devices("gpu")[0]
    except RuntimeError:
        pytest.skip("JAX has no GPU backend here")
    import jax.numpy as jnp
    h = rand(12, seed=24)
    j = jax.device_put(jnp.asarray(h), gpu)
    g = npgpu.from_dlpack(j)
    assert not g.flags.writeable
    assert g.data.ptr == j.unsafe_buffer_pointer()
    np.testing.assert_array_equal(g.get(), h)
    with pytest.raises(ValueError, match="read-only"):
        g[0] = 0.0
    back = jnp.from_dlpack(npgpu.asarray(h) * 2)
    np.testing.assert_array_equal(np.asarray(back), h * 2)


# ---- per-array caches and fast paths: the same answers as the slow paths -----------------------
def _fresh_cai(x):
    """The CAI dict computed from scratch (what the per-array cache must equal)."""
    s = npgpu.cuda.get_current_stream().ptr
    return {"shape": x.shape, "typestr": x.dtype.str, "descr": [("", x.dtype.str)],
            "data": (x.data.ptr if x.size else 0, not x.flags.writeable),
            "strides": None if x.flags.c_contiguous else x.strides, "version": 3,
            "stream": s or 1}


def _capsule_layout(cap):
    """(shape, element strides, flags) of an unconsumed capsule."""
    m = managed(cap)
    t = m.dl_tensor
    flags = getattr(m, "flags", None)
    return (tuple(t.shape[i] for i in range(t.ndim)), tuple(t.strides[i] for i in range(t.ndim)),
            flags)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128, np.bool_])
def test_cached_exchange_values_follow_the_array(dtype):
    from numba.cuda import types
    h = rand(6, seed=30).astype(dtype)
    x = npgpu.asarray(h)
    views = [x, x[::-2], x.reshape(2, 3).T, x[:0], npgpu.asarray(h[2])]
    for v in views:
        for _ in range(2):                       # the first read fills the cache, the second reads it
            assert v.__cuda_array_interface__ == _fresh_cai(v)
            assert _capsule_layout(v.__dlpack__(max_version=(1, 0)))[:2] == (
                v.shape, tuple(s // v.itemsize for s in v.strides))
    t = x._numba_type_
    assert t is x._numba_type_ and t == types.Array(npgpu_dtype_type(dtype), 1, "C")
    x.flags.writeable = False                    # the writeable state changes in place
    assert x.__cuda_array_interface__["data"][1] is True
    assert _capsule_layout(x.__dlpack__(max_version=(1, 0)))[2] == _dl.FLAG_READ_ONLY
    assert not x._numba_type_.mutable
    with pytest.raises(BufferError, match="readonly"):
        x.__dlpack__()
    x.flags.writeable = True
    assert x.__cuda_array_interface__ == _fresh_cai(x) and x._numba_type_.mutable
    assert _capsule_layout(x.__dlpack__(max_version=(1, 0)))[2] == 0
    x.resize((3, 4))                             # new memory, shape and strides in place
    assert x.__cuda_array_interface__ == _fresh_cai(x)
    assert _capsule_layout(x.__dlpack__(max_version=(1, 1)))[:2] == ((3, 4), (4, 1))
    assert x._numba_type_ == types.Array(npgpu_dtype_type(dtype), 2, "C")
    expect = np.concatenate([h, np.zeros(6, dtype)]).reshape(3, 4)
    np.testing.assert_array_equal(npgpu.from_dlpack(DLPackOnly(x)).get(), expect)


def npgpu_dtype_type(dtype):
    from numba.cuda.np.numpy_support import from_dtype
    return from_dtype(np.dtype(dtype))


def test_cai_dict_is_a_fresh_copy():
    x = npgpu.asarray(rand(5, seed=31))
    d = x.__cuda_array_interface__
    d["shape"] = (99,)
    d["descr"].append(("x", "<f4"))
    d.pop("data")
    assert x.__cuda_array_interface__ == _fresh_cai(x)
    s = npgpu.cuda.Stream(non_blocking=True)
    with s:                                       # only the stream is read on every access
        assert x.__cuda_array_interface__ == _fresh_cai(x)


def test_asarray_reads_the_cai_once():
    x = npgpu.asarray(rand(4, seed=32))

    class Counting:                               # PyTorch's CAI is a property too
        reads = 0

        @property
        def __cuda_array_interface__(self):
            Counting.reads += 1
            return x.__cuda_array_interface__
    y = npgpu.asarray(Counting())
    assert Counting.reads == 1 and y.data.ptr == x.data.ptr
    np.testing.assert_array_equal(y.get(), x.get())


def test_repeated_exports_have_their_own_structs():
    x = npgpu.asarray(rand((3, 4), seed=33))[:, ::2]
    caps = [x.__dlpack__(max_version=(1, 0)) for _ in range(3)] + [x.__dlpack__()]
    addrs = {_dl._capsule_get(c, _dl._VNAME if i < 3 else _dl._NAME) for i, c in enumerate(caps)}
    assert len(addrs) == 4                        # one struct (and shape, strides) a capsule
    for c in caps:
        assert _capsule_layout(c)[:2] == ((3, 2), (4, 2))
    ys = [npgpu.from_dlpack(c) for c in caps[1:]]
    del caps
    gc.collect()
    for y in ys:                                  # each import stands alone
        assert y.data.ptr == x.data.ptr and y.strides == x.strides
        np.testing.assert_array_equal(y.get(), x.get())


def test_foreign_deleter_runs_once_per_import():
    """A producer's C deleter (a ctypes callback here) is called once when the import dies."""
    import ctypes
    called = []
    deleter = _dl._Deleter(lambda addr: called.append(addr))
    host = rand((2, 3), seed=34)
    dev = npgpu.asarray(host)
    keep = []
    for _ in range(2):
        shape = (ctypes.c_int64 * 2)(2, 3)
        m = _dl.DLManagedTensorVersioned()
        m.version.major, m.version.minor = 1, 0
        m.deleter = deleter
        t = m.dl_tensor
        t.data, t.ndim, t.shape = dev.data.ptr, 2, shape
        t.device.device_type, t.device.device_id = OWN_DEVICE
        t.dtype.code, t.dtype.bits, t.dtype.lanes = _dl.kDLFloat, 32, 1
        keep.append((m, shape))
        cap = _dl._capsule_new(ctypes.addressof(m), _dl._VNAME, ctypes.cast(None, _dl._Destructor))
        y = npgpu.from_dlpack(cap)
        np.testing.assert_array_equal(y.get(), host)
        assert called == [] or len(called) == len(keep) - 1
        del y
        gc.collect()
        assert called[-1] == ctypes.addressof(m) and len(called) == len(keep)


@needs_gpu
def test_no_wait_between_the_legacy_stream_and_blocking_streams(monkeypatch):
    from npgpu.cuda import runtime
    records = []
    real = runtime.drv.cuEventRecord
    monkeypatch.setattr(runtime.drv, "cuEventRecord", lambda *a: records.append(a) or real(*a))
    x = npgpu.arange(8, dtype=np.float32)
    blocking, non_blocking = npgpu.cuda.Stream(), npgpu.cuda.Stream(non_blocking=True)
    with blocking:           # the legacy default stream (1) orders itself after a blocking one
        x.__dlpack__(stream=1, max_version=(1, 0))
    x.__dlpack__(stream=blocking.ptr, max_version=(1, 0))   # ... and a blocking one after it
    assert records == []
    with blocking:           # the per-thread default stream is ordered only with the legacy one
        x.__dlpack__(stream=2, max_version=(1, 0))
    with non_blocking:
        x.__dlpack__(stream=1, max_version=(1, 0))
    x.__dlpack__(stream=non_blocking.ptr, max_version=(1, 0))
    with blocking:
        x.__dlpack__(stream=non_blocking.ptr, max_version=(1, 0))
    assert len(records) == 4


def test_foreign_negative_strides_modulo_2_64():
    """CuPy's capsule of a negative-stride view holds the element stride as the unsigned
    quotient (2**64 - 24) // 4 for -24 bytes (seen on the H200): read modulo 2**64, it is -24."""
    import ctypes
    host = rand((4, 6), seed=35)
    dev = npgpu.asarray(host)
    shape = (ctypes.c_int64 * 2)(4, 6)
    strides = (ctypes.c_int64 * 2)((2 ** 64 - 24) // 4, 1)
    m = _dl.DLManagedTensorVersioned()
    m.version.major, m.version.minor = 1, 0
    t = m.dl_tensor
    t.data, t.ndim, t.shape, t.strides = dev.data.ptr + 3 * 24, 2, shape, strides
    t.device.device_type, t.device.device_id = OWN_DEVICE
    t.dtype.code, t.dtype.bits, t.dtype.lanes = _dl.kDLFloat, 32, 1
    cap = _dl._capsule_new(ctypes.addressof(m), _dl._VNAME, ctypes.cast(None, _dl._Destructor))
    y = npgpu.from_dlpack(cap)
    assert y.strides == (-24, 4)
    np.testing.assert_array_equal(y.get(), host[::-1])
    del y, cap
    gc.collect()


@needs_gpu
def test_torch_import_shortcut_matches_protocol():
    # a plain CUDA tensor skips PyTorch's Python-level __dlpack__ (npgpu orders the streams
    # itself); checks, values, zero copy and ordering must be what the protocol gives
    from npgpu._core import dlpack as dl
    torch = _torch()
    t = torch.arange(24, dtype=torch.float32, device="cuda").reshape(4, 6)[:, ::2]
    calls = []
    npgpu.from_dlpack(t)                            # fills _torch_fast on first use
    assert dl._torch_fast["tensor"] is torch.Tensor
    real = dl._torch_fast["export"]
    dl._torch_fast["export"] = lambda x: calls.append(1) or real(x)
    try:
        g = npgpu.from_dlpack(t)
        p = npgpu.from_dlpack(torch.nn.Parameter(t.clone(), requires_grad=False))  # subclass
    finally:
        dl._torch_fast["export"] = real
    assert calls == [1]                             # the subclass took the protocol path
    np.testing.assert_array_equal(npgpu.asnumpy(g), t.cpu().numpy())
    np.testing.assert_array_equal(npgpu.asnumpy(p), t.cpu().numpy())
    assert g.__cuda_array_interface__["data"][0] == t.data_ptr()
    assert g.strides == (24, 8) and g.flags.writeable
    with pytest.raises(BufferError, match="require gradient"):
        npgpu.from_dlpack(torch.ones(3, device="cuda", requires_grad=True))
    with pytest.raises(BufferError, match="conjugate bit"):
        npgpu.from_dlpack(torch.ones(3, dtype=torch.complex64, device="cuda").conj())
    # 0-d, empty and non-contiguous tensors, and another thread (its own stream), the same way
    for tt in (torch.tensor(2.5, device="cuda"), torch.empty((0, 3), device="cuda"),
               torch.arange(12, device="cuda").reshape(3, 4).T):
        np.testing.assert_array_equal(npgpu.asnumpy(npgpu.from_dlpack(tt)), tt.cpu().numpy())
    got = []

    def other():
        with npgpu.cuda.Stream(non_blocking=True):
            got.append(npgpu.asnumpy(npgpu.from_dlpack(t)))
    import threading
    th = threading.Thread(target=other)
    th.start()
    th.join()
    np.testing.assert_array_equal(got[0], t.cpu().numpy())
    # a host tensor still goes through the protocol (and needs copy=True)
    np.testing.assert_array_equal(npgpu.asnumpy(npgpu.from_dlpack(t.cpu(), copy=True)),
                                  t.cpu().numpy())
