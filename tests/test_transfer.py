"""Host <-> device transfers: asarray/array, asnumpy/get, set, pinned host buffers."""
import numpy as np
import pytest

import npgpu
from conftest import assert_same, full_range_random

GPU = npgpu.backend() == "cuda"

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128]


def rand(shape, dtype, seed=0):
    return full_range_random(shape, dtype, np.random.default_rng(seed))


def same(got, exp):
    """Bit-exact equality of values, dtype and shape (transfers must not change anything)."""
    assert_same(got, exp)


@pytest.mark.parametrize("dtype", DTYPES)
def test_roundtrip_every_dtype(dtype):
    h = rand((5, 7), dtype, seed=1)
    x = npgpu.asarray(h)
    assert isinstance(x, npgpu.ndarray)
    assert x.dtype == h.dtype and x.shape == h.shape and x.flags.c_contiguous
    same(x.get(), h)
    same(npgpu.asnumpy(x), h)


@pytest.mark.parametrize("dtype", DTYPES)
def test_roundtrip_layouts(dtype):
    h = rand((6, 8), dtype, seed=2)
    f = np.asfortranarray(h)
    xf = npgpu.asarray(f)
    assert xf.flags.f_contiguous and not xf.flags.c_contiguous    # order='K' keeps F
    same(xf.get(), h)
    for hv in (h[::2, 1::3], h[::-1, ::-2], h.T[2:5], f[1:, :4]):   # non-contiguous sources
        xv = npgpu.asarray(hv)
        same(xv.get(), hv)
    x = npgpu.asarray(h)
    for sl in ((slice(None, None, 2), slice(1, None, 3)), (slice(None, None, -1), slice(None, None, -2)),
               (Ellipsis, 3), (slice(2, 4),)):
        same(x[sl].get(), h[sl])                                      # device views to host
    same(x.T.get(), h.T)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float16, np.complex128])
def test_roundtrip_0d_and_empty(dtype):
    h0 = rand((), dtype, seed=3)
    x0 = npgpu.asarray(h0)
    assert x0.shape == () and x0.ndim == 0
    same(x0.get(), h0)
    for shape in ((0,), (3, 0), (0, 4, 2)):
        he = np.empty(shape, dtype)
        xe = npgpu.asarray(he)
        same(xe.get(), he)
        same(npgpu.asnumpy(xe, order="F"), he)


def test_asarray_python_objects_follow_numpy():
    for obj in (3, -2.5, 1 + 2j, True, [1, 2, 3], [[1.5, 2], [3, 4]], [True, False], (1, 2.0),
                [], [[1 + 1j]], np.float32(2.5), np.uint16(7)):
        x = npgpu.asarray(obj)
        same(x.get(), np.asarray(obj))
    same(npgpu.asarray([1, 2], dtype=np.int8).get(), np.asarray([1, 2], dtype=np.int8))
    same(npgpu.array(5, dtype=np.complex64).get(), np.array(5, dtype=np.complex64))
    same(npgpu.array([1, 2], ndmin=3).get(), np.array([1, 2], ndmin=3))


def test_asarray_non_native_byte_order():
    h = rand((3, 4), np.float64, seed=4)
    big = h.astype(">f8")
    x = npgpu.asarray(big)
    assert x.dtype == np.float64
    same(x.get(), h)
    same(npgpu.asarray(big[:, ::2]).get(), h[:, ::2])


def test_asarray_unsupported_dtypes():
    for bad in (np.array(["a", "b"]), np.array([1, "x"], dtype=object), np.zeros(2, "M8[s]"),
                np.zeros(2, np.longdouble) if np.dtype(np.longdouble).itemsize > 8 else np.zeros(2, "V4")):
        with pytest.raises(TypeError, match="dtype"):
            npgpu.asarray(bad)


def test_asarray_order_and_copy():
    h = rand((4, 5), np.int32, seed=5)
    xf = npgpu.asarray(h, order="F")
    assert xf.flags.f_contiguous
    same(xf.get(), h)
    xc = npgpu.asarray(np.asfortranarray(h), order="C")
    assert xc.flags.c_contiguous
    same(xc.get(), h)
    x = npgpu.asarray(h)
    assert npgpu.asarray(x) is x                                   # no copy for device arrays
    c = npgpu.array(x)
    assert c.data.ptr != x.data.ptr
    same(c.get(), h)
    with pytest.raises(ValueError, match="copy"):
        npgpu.asarray(h, copy=False)                              # host data must be copied


def test_host_array_is_independent_after_transfer():
    h = rand(10, np.float32, seed=6)
    keep = h.copy()
    x = npgpu.asarray(h)
    h[:] = 0
    same(x.get(), keep)
    out = x.get()
    out[:] = 1
    same(x.get(), keep)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.complex64])
def test_asnumpy_order(dtype):
    h = rand((3, 5), dtype, seed=7)
    x = npgpu.asarray(h)
    f = npgpu.asnumpy(x, order="F")
    assert f.flags.f_contiguous
    same(f, h)
    c = x.T.get(order="C")
    assert c.flags.c_contiguous
    same(c, h.T)
    k = npgpu.asnumpy(x.T, order="K")
    assert k.flags.f_contiguous          # keeps the device array's layout
    same(k, h.T)
    a = npgpu.asnumpy(x[:, ::2], order="A")
    same(a, h[:, ::2])
    same(npgpu.asnumpy(h), h)            # host input passes through np.asarray


def test_get_out():
    h = rand((4, 6), np.float64, seed=8)
    x = npgpu.asarray(h)
    out = np.empty_like(h)
    assert x.get(out=out) is out
    same(out, h)
    outf = np.empty((4, 6), np.float64, order="F")
    assert npgpu.asnumpy(x, out=outf) is outf                  # layout differs: still filled
    same(outf, h)
    big = np.zeros((4, 12))
    view = big[:, ::2]                                        # non-contiguous out
    x.get(out=view)
    same(big[:, ::2], h)
    same(big[:, 1::2], np.zeros((4, 6)))
    with pytest.raises(ValueError, match="shape"):
        x.get(out=np.empty((6, 4)))
    with pytest.raises(ValueError, match="dtype"):
        x.get(out=np.empty((4, 6), np.float32))
    with pytest.raises(TypeError):
        x.get(out=[0] * 24)


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128])
def test_get_into_pinned(dtype):
    h = rand((5, 3), dtype, seed=9)
    x = npgpu.asarray(h)
    pin = npgpu.cuda.pinned_empty((5, 3), dtype)
    assert isinstance(pin, np.ndarray) and pin.dtype == np.dtype(dtype) and pin.shape == (5, 3)
    assert npgpu.cuda.is_pinned(pin) == GPU
    s = npgpu.cuda.Stream(non_blocking=True)
    r = x.get(out=pin, stream=s)
    assert r is pin
    same(pin, h)
    pin[:] = rand((5, 3), dtype, seed=10)
    y = npgpu.empty((5, 3), dtype)
    y.set(pin, stream=s)
    s.synchronize()
    same(y.get(), pin)
    same(npgpu.asarray(pin).get(), pin)      # pinned arrays are ordinary NumPy arrays


def test_alloc_pinned_memory():
    mem = npgpu.cuda.alloc_pinned_memory(64 * 8)
    assert mem.size == 512
    a = mem.as_numpy((8, 8), np.float64)
    a[:] = np.arange(64.0).reshape(8, 8)
    v = a[::2]
    del a, mem                              # the view keeps the pinned block alive
    x = npgpu.asarray(v)
    same(x.get(), np.arange(64.0).reshape(8, 8)[::2])
    assert npgpu.cuda.pinned_empty(4).shape == (4,)
    assert npgpu.cuda.pinned_empty(0, np.int8).shape == (0,)


@pytest.mark.parametrize("dtype", DTYPES)
def test_set(dtype):
    h = rand((4, 5), dtype, seed=11)
    x = npgpu.empty((4, 5), dtype)
    x.set(h)
    same(x.get(), h)
    xf = npgpu.empty((4, 5), dtype, order="F")
    xf.set(h)
    same(xf.get(), h)
    base = npgpu.zeros((4, 10), dtype)
    view = base[:, 1::2]                      # non-contiguous destination
    view.set(h)
    exp = np.zeros((4, 10), dtype)
    exp[:, 1::2] = h
    same(base.get(), exp)
    x.set(np.asfortranarray(h[::-1]))         # any host layout
    same(x.get(), h[::-1])


def test_set_errors():
    x = npgpu.zeros((2, 3), np.float32)
    with pytest.raises(ValueError, match="[Ss]hape"):
        x.set(np.zeros((3, 2), np.float32))
    with pytest.raises(TypeError, match="dtype"):
        x.set(np.zeros((2, 3), np.float64))


def test_transfers_on_a_stream():
    s = npgpu.cuda.Stream(non_blocking=True)
    h = rand(4096, np.float32, seed=12)
    with s:
        x = npgpu.asarray(h)
        y = x * 3
        r = npgpu.asnumpy(y)          # the copy waits for the stream's work
    same(r, h * np.float32(3))
    r2 = npgpu.asnumpy(y, stream=s)
    same(r2, h * np.float32(3))


def test_pickle_roundtrip():
    import pickle
    h = rand((3, 4), np.complex64, seed=13)
    x = pickle.loads(pickle.dumps(npgpu.asarray(h)[:, ::-1]))
    assert isinstance(x, npgpu.ndarray)
    same(x.get(), h[:, ::-1])
