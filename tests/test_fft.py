"""npgpu.fft against numpy.fft: every function, dtype and norm; lengths odd, prime and powers
of two; cropping and padding; any axes and strides; out=; NumPy's errors; the plan cache."""
import threading
import warnings

import numpy as np
import pytest

import npgpu
import npgpu.fft as F
from conftest import ALL_DTYPES, ON_GPU, random_array

NORMS = [None, "backward", "ortho", "forward"]
ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]
REAL_IN = {"rfft", "ihfft", "rfftn", "rfft2"}           # complex input: NumPy's TypeError


def _tol(dt):
    return {"e": 3e-3, "f": 3e-5, "F": 3e-5}.get(dt.char, 1e-11)


def check(got, expected):
    """``got`` (npgpu) equals NumPy's ``expected`` in dtype and shape, values within the
    dtype's tolerance relative to the largest magnitude."""
    assert isinstance(got, npgpu.ndarray)
    host = got.get()
    assert host.dtype == expected.dtype, (host.dtype, expected.dtype)
    assert host.shape == expected.shape, (host.shape, expected.shape)
    if expected.size:
        scale = max(1.0, float(np.abs(expected.astype(np.complex128)).max()))
        tol = _tol(expected.dtype)
        np.testing.assert_allclose(host.astype(np.complex128), expected.astype(np.complex128),
                                   rtol=tol, atol=tol * scale)


def both(name, x, *args, **kw):
    """(npgpu result, NumPy result) of ``fft.<name>`` on host data ``x``."""
    return getattr(F, name)(npgpu.asarray(x), *args, **kw), getattr(np.fft, name)(x, *args, **kw)


def same_error(f_gp, f_np):
    """Both raise the same exception type with the same message (NumPy's private classes,
    such as its ufunc casting error, count as their public base)."""
    with pytest.raises(Exception) as want:
        f_np()
    kind = next(t for t in type(want.value).__mro__
                if t.__module__ in ("builtins", "numpy.exceptions"))
    with pytest.raises(kind) as got:
        f_gp()
    assert str(got.value) == str(want.value)


# ---- every one-axis function x dtype x norm --------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("name", ONE_AXIS)
def test_one_axis_dtypes_norms(name, dtype, norm):
    x = random_array((3, 10), dtype)
    if name in REAL_IN and dtype.kind == "c":
        same_error(lambda: getattr(F, name)(npgpu.asarray(x), norm=norm),
                   lambda: getattr(np.fft, name)(x, norm=norm))
        return
    for n, axis in [(None, -1), (7, -1), (13, -1), (None, 0), (5, 0)]:
        check(*both(name, x, n=n, axis=axis, norm=norm))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13, 16, 17, 31, 32, 61, 64])
@pytest.mark.parametrize("name", ONE_AXIS)
def test_lengths_odd_prime_power_of_two(name, n):
    dt = np.float64 if name in REAL_IN else np.complex128
    x = random_array((2, 64), dt)
    if name in ("irfft", "hfft") and n == 1:
        check(*both(name, x[:, :1], n=n))              # one input term
    check(*both(name, x, n=n))                         # cropped from 64 (or kept)
    check(*both(name, x[:, :5], n=n))                  # padded from 5 (or cropped)


@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64, np.complex128])
@pytest.mark.parametrize("name", ONE_AXIS)
def test_default_lengths_and_single_points(name, dtype):
    x = random_array((4, 9), dtype)
    if name in REAL_IN and np.dtype(dtype).kind == "c":
        return
    check(*both(name, x))
    check(*both(name, x[:, :2]))
    if name not in ("irfft", "hfft"):                  # their default n of one term is 0
        check(*both(name, x[:, :1]))


# ---- n-D ---------------------------------------------------------------------------------------
ND_CASES = [
    ((6, 5), None, None),
    ((6, 5), None, (4, 7)),            # crop one axis, pad the other
    ((6, 5), (0,), None),
    ((6, 5), (1, 0), None),            # the real axis first in memory
    ((6, 5), (1, 0), (3, 8)),
    ((4, 3, 5), (0, 2), None),         # non-consecutive axes: two plans
    ((4, 3, 5), (-1, -3), (6, 2)),
    ((4, 3, 5), (2, 0, 1), None),
    ((2, 3, 4, 5), None, None),        # four axes: a plan of 3 and a plan of 1
    ((2, 3, 2, 2, 3), (0, 1, 2, 3, 4), None),
    ((5, 4), (0, 0), None),            # a repeated axis: NumPy's axis-by-axis sequence
    ((5, 4), (1, 1), (3, 6)),
    ((3, 4, 5), (1,), (9,)),
]


@pytest.mark.parametrize("shape,axes,s", ND_CASES)
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_nd_axes_and_shapes(name, shape, axes, s):
    dt = np.float64 if name == "rfftn" else np.complex128
    x = random_array(shape, dt)
    kw = {"axes": axes, "s": s} if axes is not None else ({"s": s} if s else {})
    if s is not None and axes is None:
        with pytest.warns(DeprecationWarning):
            check(*both(name, x, **kw))
    else:
        check(*both(name, x, **kw))


@pytest.mark.matrix
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("name", N_D)
def test_nd_dtypes_norms(name, dtype, norm):
    x = random_array((3, 4, 6), dtype)
    if name in REAL_IN and dtype.kind == "c":
        same_error(lambda: getattr(F, name)(npgpu.asarray(x), norm=norm),
                   lambda: getattr(np.fft, name)(x, norm=norm))
        return
    check(*both(name, x, norm=norm))
    check(*both(name, x, s=(5, 3), axes=(0, 2), norm=norm))


# ---- layouts -------------------------------------------------------------------------------------
LAYOUTS = {
    "transposed": lambda x: x.transpose(1, 0, 2),
    "negative stride": lambda x: x[::-1, :, ::-1],
    "sliced": lambda x: x[1:, ::2, 1:],
    "fortran": lambda x: np.asfortranarray(x) if isinstance(x, np.ndarray) else
    npgpu.asfortranarray(x),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name,kw", [("fft", {}), ("fft", {"axis": 0}), ("ifft", {"axis": 1}),
                                     ("rfft", {"axis": 0}), ("irfft", {}), ("hfft", {"axis": 1}),
                                     ("ihfft", {}), ("fftn", {}), ("rfftn", {"axes": (2, 0)}),
                                     ("irfftn", {"axes": (0, 1)}), ("fft2", {})])
def test_non_contiguous_inputs(name, kw, layout):
    dt = np.float32 if name in REAL_IN else np.complex64
    x = random_array((4, 6, 5), dt)
    view = LAYOUTS[layout]
    got = getattr(F, name)(view(npgpu.asarray(x)), **kw)
    check(got, getattr(np.fft, name)(view(x), **kw))


def test_real_axis_not_innermost_out_and_repeats():
    """R2C / C2R along an axis that is not innermost run on a copy with that axis last; the
    result comes back in NumPy's order, into ``out`` when given (straight when ``out`` has
    the axis innermost, e.g. Fortran order), and repeated calls on a view whose axis is
    innermost in memory (no copy) stay right."""
    x = random_array((6, 3, 4), np.float64)
    g = npgpu.asarray(x)
    for order in ("C", "F"):
        o = npgpu.empty((4, 3, 4), np.complex128, order=order)
        assert F.rfft(g, axis=0, norm="ortho", out=o) is o
        check(o, np.fft.rfft(x, axis=0, norm="ortho"))
        r = npgpu.empty((6, 3, 4), np.float64, order=order)
        assert F.irfft(F.rfft(g, axis=0), n=6, axis=0, out=r) is r
        check(r, x)
        h = npgpu.empty((3, 3, 4), np.float32, order=order)
        c = random_array((2, 3, 4), np.complex64)
        assert F.hfft(npgpu.asarray(c), n=3, axis=0, out=h) is h
        check(h, np.fft.hfft(c, n=3, axis=0))
    t = npgpu.asarray(random_array((5, 8), np.float32))
    for _ in range(2):                                    # (the one-axis fast path)
        check(F.rfft(t.T, axis=0), np.fft.rfft(t.get().T, axis=0))
        check(F.irfft(F.rfft(t.T, axis=0), n=8, axis=0), t.get().T)
    check(*both("rfftn", x, axes=(1, 0)))                 # the real axis in the middle
    check(*both("irfftn", random_array((3, 4, 5), np.complex128), axes=(2, 1), s=(5, 6)))


def test_broadcast_zero_d_and_empty():
    x = random_array((5,), np.complex128)
    b = npgpu.broadcast_to(npgpu.asarray(x), (3, 5))
    check(F.fft(b), np.fft.fft(np.broadcast_to(x, (3, 5))))
    check(F.fft(b, axis=0), np.fft.fft(np.broadcast_to(x, (3, 5)), axis=0))
    # 0-d: fft has no axis; fftn over no axes returns the input
    z = np.float64(2.5)
    same_error(lambda: F.fft(npgpu.asarray(z)), lambda: np.fft.fft(z))
    g = npgpu.asarray(random_array((2, 3), np.float64))
    assert F.fftn(g, axes=()) is g
    # empty arrays: an empty batch transforms to an empty result; an empty axis padded by n
    for shape, kw in [((0, 4), {}), ((3, 0), {"n": 4}), ((0, 4), {"axis": 0, "n": 3})]:
        e = random_array(shape, np.float32)
        for name in ("fft", "rfft", "ifft"):
            check(*both(name, e, **kw))
    check(*both("irfft", random_array((0, 4), np.complex64)))
    check(*both("fftn", random_array((0, 3, 4), np.complex128), axes=(1, 2)))


def test_host_input_and_dispatch():
    x = random_array((8,), np.float64)
    check(F.fft(x), np.fft.fft(x))                                 # host data: copied up
    check(np.fft.fft(npgpu.asarray(x)), np.fft.fft(x))             # NumPy's call dispatches
    assert npgpu.asarray(x).__array_namespace__().fft is F


# ---- out= ------------------------------------------------------------------------------------------
def test_out_direct_strided_cast_and_aliased():
    x = random_array((4, 6), np.complex128)
    g = npgpu.asarray(x)
    want = np.fft.fft(x, axis=0)
    out = npgpu.empty((4, 6), np.complex128)
    assert F.fft(g, axis=0, out=out) is out                        # cuFFT writes into out
    check(out, want)
    big = npgpu.zeros((4, 12), np.complex128)
    r = F.fft(g, axis=0, norm="ortho", out=big[:, ::2])            # strided out: one copy
    check(r, np.fft.fft(x, axis=0, norm="ortho"))
    check(big[:, ::2], np.fft.fft(x, axis=0, norm="ortho"))
    check(big[:, 1::2], np.zeros((4, 6), np.complex128))
    o64 = npgpu.empty((4, 6), np.complex64)                       # same-kind downcast
    check(F.ifft(g, out=o64), np.fft.ifft(x, out=np.empty((4, 6), np.complex64)))
    g2 = npgpu.asarray(x)
    check(F.fft(g2, out=g2), np.fft.fft(x))                       # in place: out is the input
    check(g2, np.fft.fft(x))
    r = random_array((4, 6), np.float32)
    o = npgpu.empty((4, 4), np.complex64)
    assert F.rfft(npgpu.asarray(r), out=o) is o
    check(o, np.fft.rfft(r))
    c = random_array((4, 4), np.complex64)
    o = npgpu.empty((4, 6), np.float32)
    assert F.irfft(npgpu.asarray(c), out=o) is o
    check(o, np.fft.irfft(c))
    o = npgpu.empty((4, 6), np.float16)
    check(F.irfft(npgpu.asarray(c), out=o), np.fft.irfft(c, out=np.empty((4, 6), np.float16)))
    o = npgpu.empty((4, 4), np.complex64)
    check(F.ihfft(npgpu.asarray(r), out=o), np.fft.ihfft(r))
    o = npgpu.empty((3, 4, 6), np.complex128)
    x3 = random_array((3, 4, 6), np.float64)
    check(F.fftn(npgpu.asarray(x3), out=o), np.fft.fftn(x3))
    check(o, np.fft.fftn(x3))


def test_out_errors():
    x = random_array((3, 4), np.float64)
    g = npgpu.asarray(x)
    same_error(lambda: F.fft(g, out=npgpu.empty((3, 5), np.complex128)),
               lambda: np.fft.fft(x, out=np.empty((3, 5), np.complex128)))
    same_error(lambda: F.fft(g, out=npgpu.empty((3, 4), np.float64)),
               lambda: np.fft.fft(x, out=np.empty((3, 4), np.float64)))
    with pytest.raises(TypeError):
        F.fft(g, out=np.empty((3, 4), np.complex128))
    ro = npgpu.empty((3, 4), np.complex128)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        F.fft(g, out=ro)


# ---- errors and warnings ---------------------------------------------------------------------------
def test_errors_match_numpy():
    x = random_array((3, 4), np.complex128)
    g = npgpu.asarray(x)
    cases = [
        ("fft", {"n": 0}), ("fft", {"n": -2}), ("ifft", {"n": 0}), ("rfft", {"n": 0}),
        ("irfft", {"n": 0}), ("hfft", {"n": -1}), ("fft", {"n": 2.5}),
        ("fft", {"axis": 2}), ("fft", {"axis": 2, "n": 3}), ("ifft", {"axis": -3, "n": 2}),
        ("fft", {"norm": "bad"}), ("ifft", {"norm": "bad"}), ("rfft", {"norm": "Ortho"}),
        ("irfft", {"norm": "x"}), ("hfft", {"norm": "x"}), ("ihfft", {"norm": "x"}),
        ("fftn", {"s": (3, 4), "axes": (0,)}), ("fftn", {"axes": (0, 3)}),
        ("fftn", {"s": (0, 4), "axes": (0, 1)}), ("ifftn", {"norm": 1}),
        ("rfftn", {"axes": ()}), ("irfftn", {"axes": ()}), ("fft2", {"s": (2,)}),
        ("irfftn", {"s": (3, 0), "axes": (0, 1)}),
    ]
    for name, kw in cases:
        same_error(lambda: getattr(F, name)(g, **kw), lambda: getattr(np.fft, name)(x, **kw))
    e = np.zeros((3, 0))
    for name in ("fft", "rfft", "irfft", "hfft", "fftn"):
        same_error(lambda: getattr(F, name)(npgpu.asarray(e)), lambda: getattr(np.fft, name)(e))
    one = np.ones(1, np.complex128)                    # irfft's default n of one term is 0
    same_error(lambda: F.irfft(npgpu.asarray(one)), lambda: np.fft.irfft(one))
    v = np.ones(3)
    same_error(lambda: F.fft2(npgpu.asarray(v)), lambda: np.fft.fft2(v))


def test_deprecation_warnings_as_numpy():
    x = random_array((4, 6), np.complex128)
    with pytest.warns(DeprecationWarning, match="`axes` should not be `None`"):
        r = F.fftn(npgpu.asarray(x), s=(3, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        check(r, np.fft.fftn(x, s=(3, 5)))
        with pytest.warns(DeprecationWarning, match="containing `None`"):
            r = F.fftn(npgpu.asarray(x), s=(None, 4), axes=(0, 1))
        check(r, np.fft.fftn(x, s=(None, 4), axes=(0, 1)))
        r = F.irfftn(npgpu.asarray(x), s=(2, None), axes=(0, 1))
        check(r, np.fft.irfftn(x, s=(2, None), axes=(0, 1)))
    check(*both("fftn", x, s=(-1, 3), axes=(0, 1)))                # -1: the input's length


# ---- helpers ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
@pytest.mark.parametrize("d", [1.0, 0.25, np.float32(0.1), 3, 2j])
def test_fftfreq_rfftfreq(n, d):
    for name in ("fftfreq", "rfftfreq"):
        got, want = getattr(F, name)(n, d), getattr(np.fft, name)(n, d)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)          # bit for bit, as NumPy
    np.testing.assert_array_equal(F.fftfreq(np.int64(n)).get(), np.fft.fftfreq(np.int64(n)))


def test_freq_errors_and_devices():
    same_error(lambda: F.fftfreq(2.0), lambda: np.fft.fftfreq(2.0))
    same_error(lambda: F.rfftfreq(4.5), lambda: np.fft.rfftfreq(4.5))
    same_error(lambda: F.fftfreq(-3), lambda: np.fft.fftfreq(-3))
    same_error(lambda: F.fftfreq(0), lambda: np.fft.fftfreq(0))
    np.testing.assert_array_equal(F.rfftfreq(-3).get(), np.fft.rfftfreq(-3))
    assert F.fftfreq(4, device=npgpu.cuda.Device(0)).shape == (4,)
    with pytest.raises(ValueError):
        F.fftfreq(4, device="cpu")
    got = F.fftfreq(6, 0.5, dtype=np.float32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.get(), np.fft.fftfreq(6, 0.5), rtol=1e-7)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.complex128, np.bool_])
def test_fftshift_ifftshift(dtype):
    for shape in [(7,), (8,), (5, 6), (3, 4, 5)]:
        x = random_array(shape, dtype)
        g = npgpu.asarray(x)
        axes_list = [None, 0, -1, (0,), tuple(range(len(shape)))[::-1]]
        for axes in axes_list:
            for name in ("fftshift", "ifftshift"):
                got = getattr(F, name)(g, axes=axes)
                want = getattr(np.fft, name)(x, axes=axes)
                np.testing.assert_array_equal(got.get(), want)
    x = random_array((4, 5), np.float64)
    np.testing.assert_array_equal(F.ifftshift(F.fftshift(npgpu.asarray(x))).get(), x)
    np.testing.assert_array_equal(F.fftshift(npgpu.asarray(x)[::-1, 1:]).get(),
                                  np.fft.fftshift(x[::-1, 1:]))


# ---- plan cache ------------------------------------------------------------------------------------
@pytest.fixture
def cache():
    c = F.get_plan_cache()
    size = c.get_size()
    c.clear()
    yield c
    c.set_size(size)
    c.clear()


def test_plan_cache_reuse(cache):
    x = npgpu.asarray(random_array((4, 16), np.complex64))
    F.fft(x)
    assert (cache.misses, cache.hits, len(cache)) == (1, 0, 1)
    for _ in range(3):
        F.fft(x)
    F.ifft(x)                                   # the direction is an execution argument
    assert (cache.misses, cache.hits, len(cache)) == (1, 4, 1)
    F.fft(npgpu.asarray(random_array((4, 16), np.complex128)))   # another type: another plan
    F.fft(x, axis=0)                                              # another layout
    assert (cache.misses, len(cache)) == (3, 3)
    assert F.config.get_plan_cache() is cache
    assert "3 of" in repr(cache)


def test_plan_cache_size_limit_lru(cache):
    cache.set_size(2)
    xs = [npgpu.asarray(random_array((n,), np.complex128)) for n in (5, 6, 7)]
    for x in xs:
        F.fft(x)
    assert len(cache) == 2 and cache.misses == 3
    lengths = [k[2] for k in cache.keys()]
    assert lengths == [(6,), (7,)]              # the least recently used (5) went
    F.fft(xs[1])                                # 6 becomes the most recent
    F.fft(xs[0])                                # 5 again: evicts 7
    assert [k[2] for k in cache.keys()] == [(6,), (5,)]
    cache.set_size(1)
    assert [k[2] for k in cache.keys()] == [(5,)]
    with pytest.raises(ValueError):
        cache.set_size(-1)


def test_plan_cache_off_and_clear(cache):
    cache.set_size(0)
    x = random_array((3, 8), np.complex128)
    for _ in range(2):
        check(F.fft(npgpu.asarray(x)), np.fft.fft(x))
    assert len(cache) == 0 and cache.misses == 2
    cache.set_size(4)
    F.fft(npgpu.asarray(x))
    assert len(cache) == 1
    cache.clear()
    assert len(cache) == 0 and cache.hits == cache.misses == 0


def test_plans_shared_by_threads_and_streams(cache):
    x = random_array((4, 32), np.complex64)
    want = np.fft.fft(x)
    errors = []

    def work():
        try:
            with npgpu.cuda.Stream():
                g = npgpu.asarray(x)
                for _ in range(3):
                    r = F.fft(g)
                npgpu.cuda.get_current_stream().synchronize()
                check(r, want)
        except Exception as e:          # reported below, on the test's thread
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(cache) == 1


def test_cufft_errors_name_the_call_and_shape(cache):
    from npgpu.fft import _cufft
    t = int(_cufft.cufft_module().Type.C2C)
    key = (0, t, (0,), (0,), 1, 0, (0,), 1, 0, 1)
    with pytest.raises(F.CuFFTError, match=r"cufftMakePlanMany64 failed .*shape \[0\]"):
        _cufft.make_plan(key)


@pytest.mark.skipif(ON_GPU, reason="checks the simulator's cuFFT stand-in")
def test_stand_in_rejects_strided_real_layouts(cache):
    """cuFFT fails R2C / C2R executions of strided layouts (the H200's failed these two with
    CUFFT_INVALID_VALUE); the stand-in fails every R2C / C2R / D2Z / Z2D execution whose input
    or output stride is not 1, so CI catches a real transform planned strided.  C2C with the
    same layout runs."""
    from npgpu.fft import _cufft
    from npgpu.fft._sim.cufft import CUFFT, DTYPES
    x = npgpu.asarray(random_array((9, 5), np.float64))
    with pytest.raises(F.CuFFTError, match=r"cufftExecD2Z failed with CUFFT_INVALID_VALUE for "
                       r"a D2Z transform of shape \[9\], batch 5 \(input embed \[9\] stride 5 "
                       r"dist 1, output embed \[5\] stride 5 dist 1\)") as err:
        _cufft.transform("r2c", x, npgpu.empty((5, 5), np.complex128), 0, 1, (9,))
    assert err.value.status == "CUFFT_INVALID_VALUE"
    c = npgpu.asarray(random_array((6, 4, 5), np.complex64))
    with pytest.raises(F.CuFFTError, match=r"cufftExecC2R failed with CUFFT_INVALID_VALUE for "
                       r"a C2R transform of shape \[6\], batch 6 \(input embed \[4\] stride 5 "
                       r"dist 20, output embed \[6\] stride 5 dist 30\)"):
        _cufft.transform("c2r", c, npgpu.empty((6, 6, 5), np.float32), 1, 2, (6,))
    z = random_array((9, 5), np.complex128)
    y = npgpu.empty((9, 5), np.complex128)
    _cufft.transform("c2c", npgpu.asarray(z), y, 0, 1, (9,), _cufft.FORWARD)
    check(y, np.fft.fft(z, axis=0))
    # every real type, a stride on either side: planned, then refused at execution
    for t in (CUFFT.Type.R2C, CUFFT.Type.D2Z, CUFFT.Type.C2R, CUFFT.Type.Z2D):
        in_dt, out_dt = DTYPES[int(t)]
        ilen, olen = (8, 5) if in_dt.kind == "f" else (5, 8)
        for istride, ostride in [(1, 1), (2, 1), (1, 2)]:
            src = npgpu.asarray(random_array((ilen * istride,), in_dt))
            dst = npgpu.empty((olen * ostride,), out_dt)
            h = CUFFT.create()
            try:
                CUFFT.make_plan_many64(h, 1, [8], [ilen], istride, ilen * istride, [olen],
                                       ostride, olen * ostride, int(t), 1)
                run = getattr(CUFFT, "exec_" + t.name.lower())
                if istride == ostride == 1:
                    run(h, src._ptr, dst._ptr)
                    continue
                with pytest.raises(CUFFT.cuFFTError) as err:
                    run(h, src._ptr, dst._ptr)
                assert str(err.value) == "CUFFT_INVALID_VALUE"
            finally:
                CUFFT.destroy(h)


@pytest.mark.skipif(ON_GPU, reason="counts the simulator stand-in's cuFFT calls")
def test_library_call_sequence(cache):
    from npgpu.fft._sim.cufft import CUFFT
    calls = CUFFT.calls
    before = dict(calls)
    x = npgpu.asarray(random_array((4, 6), np.complex128))
    F.fft2(x)                                    # rank 2: the stand-in asks for a work area
    F.fft2(x)
    diff = {k: calls.get(k, 0) - before.get(k, 0) for k in calls}
    assert diff["make_plan_many64"] == 1 and diff["exec_z2z"] == 2
    assert diff["set_stream"] == 1               # the stream is set again only when it changes
    assert diff["set_work_area"] >= 1
    with npgpu.cuda.Stream(_handle=0x5157):      # (the simulator's streams are all 0)
        F.fft2(x)
    assert calls["set_stream"] - before.get("set_stream", 0) == 2


def test_nd_repeats_replay_with_new_data():
    """Repeated n-D calls (fft2, fftn, rfft2, ifftn) replay their recorded plan: each call reads
    its own input (new data, same layout), and a changed norm, axes, dtype or layout is a call of
    its own; `s` (whose deprecated spellings warn) and empty axes never replay; another thread
    gets the same answers."""
    F._transforms._FAST.clear()
    shapes = [(6, 8), (4, 5, 6)]
    for rep in range(3):
        for shape in shapes:
            x = random_array(shape, np.complex64)
            r = random_array(shape, np.float64)
            for norm in (None, "ortho", "forward"):
                check(F.fft2(npgpu.asarray(x), norm=norm), np.fft.fft2(x, norm=norm))
                check(F.ifftn(npgpu.asarray(x), norm=norm), np.fft.ifftn(x, norm=norm))
            check(F.fftn(npgpu.asarray(x), axes=(0, -1)), np.fft.fftn(x, axes=(0, -1)))
            check(F.rfft2(npgpu.asarray(r)), np.fft.rfft2(r))
            check(F.fft2(npgpu.asarray(x)[::-1]), np.fft.fft2(x[::-1]))
            check(F.fft2(npgpu.asarray(x), s=shape[-2:], axes=(-2, -1)),
                  np.fft.fft2(x, s=shape[-2:], axes=(-2, -1)))
    assert F._transforms._FAST                      # something was recorded and replayed
    g = npgpu.asarray(random_array((2, 3), np.float64))
    assert F.fftn(g, axes=()) is g and F.fftn(g, axes=()) is g
    x = random_array((6, 8), np.complex64)
    out = []
    t = threading.Thread(target=lambda: out.append(F.fft2(npgpu.asarray(x)).get()))
    t.start()
    t.join()
    check(npgpu.asarray(out[0]), np.fft.fft2(x))
