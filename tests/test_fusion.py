"""@npgpu.fuse: one kernel per call, NumPy's dtypes and values for the same expression."""
import numpy as np
import pytest

import npgpu
from npgpu._codegen import compiler
from conftest import assert_matches, random_array


@npgpu.fuse
def _poly(x, y, s):
    return npgpu.sin(x) * 2.0 + y * s - 1, x > y


@npgpu.fuse(kernel_name="sq_plus_one")
def _sq1(a):
    return a * a + 1


@pytest.mark.parametrize("dx,dy", [(np.float32, np.float16), (np.float64, np.float32),
                                   (np.int16, np.float32), (np.float32, np.float32)])
def test_fused_matches_numpy(dx, dy, rng):
    x = random_array((3, 5), dx, rng)
    y = random_array((5,), dy, rng)
    gx, gy = npgpu.asarray(x), npgpu.asarray(y)
    before = compiler.stats["launches"]
    r, m = _poly(gx, gy, 3.5)
    assert compiler.stats["launches"] == before + 1          # one kernel for the whole function
    ref = np.sin(x) * 2.0 + y * 3.5 - 1
    assert_matches(r, ref, rtol=1e-3 if np.dtype(dy) == np.float16 else None)
    assert_matches(m, x > y)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int64, np.float16, np.complex64])
def test_fused_integer_wraps_and_dtype_kept(dt, rng):
    a = random_array((7,), dt, rng)
    got = _sq1(npgpu.asarray(a))
    assert_matches(got, a * a + 1)


def test_fused_on_views_and_0d(rng):
    a = random_array((4, 6), np.float32, rng)
    assert_matches(_sq1(npgpu.asarray(a).T[::-1]), (a.T[::-1]) * (a.T[::-1]) + 1)
    assert_matches(_sq1(npgpu.asarray(np.float32(3.0).reshape(()))), np.float32(10.0).reshape(()))
    assert_matches(_sq1(npgpu.asarray(a[:0])), a[:0] * a[:0] + 1)


def test_fused_source_is_inspectable():
    _sq1(npgpu.asarray(np.arange(3.0)))
    names = [n for n in npgpu.kernel_sources() if n.startswith("fused_sq_plus_one")]
    assert names and "def op(x0)" in npgpu.kernel_sources()[names[0]]


def test_fused_rejects_truth_value():
    @npgpu.fuse
    def bad(x):
        return x if x > 0 else -x
    with pytest.raises(TypeError, match="truth value"):
        bad(npgpu.asarray(np.arange(3.0)))


def test_fuse_a_lambda():
    """A lambda's __name__ ("<lambda>") becomes an identifier in the kernel's name."""
    f = npgpu.fuse(lambda x, y: x * 2 + y)
    h = np.arange(5.0)
    np.testing.assert_array_equal(f(npgpu.asarray(h), npgpu.asarray(h[::-1])).get(),
                                  h * 2 + h[::-1])


def test_get_array_module_inside_fuse():
    """Array-module-agnostic code fuses: a traced value answers ``npgpu`` like an npgpu array."""
    h = random_array((40,), np.float32)

    @npgpu.fuse
    def f(x):
        xp = npgpu.get_array_module(x)
        return xp.sin(x) * 2 + 1

    assert npgpu.get_array_module(h) is np
    assert npgpu.get_array_module(h, npgpu.asarray(h)) is npgpu
    assert_matches(f(npgpu.asarray(h)), np.sin(h) * 2 + 1)
    assert f.launches(npgpu.asarray(h)) == 1


def test_fuse_in_place_returning_none():
    """A fused function that only writes its arguments in place returns None, as unfused."""
    @npgpu.fuse
    def acc(x, y):
        x += 2 * y

    a, b = npgpu.arange(5, dtype=np.float32), npgpu.arange(5, dtype=np.float32)
    for k in (1, 2):                  # the second call takes the cached path
        assert acc(a, b) is None
        np.testing.assert_array_equal(a.get(), np.arange(5) * (1 + 2 * k))


def test_ten_op_chain_is_one_launch():
    """The benchmark's 10-op chain (issue 17: one launch at >= 90% of copy bandwidth): one
    kernel, NumPy's values (float32 sin within its ulps, the division correctly rounded)."""
    def chain(xp, x):
        y = x * 1.5 + 2.0
        y = y * x - 0.5
        y = y / (x * x + 3.0)
        return xp.sin(y) * 0.25 + x

    f = npgpu.fuse(lambda x: chain(npgpu, x))
    h = (random_array((300,), np.float32) * 8).astype(np.float32)
    g = npgpu.asarray(h)
    assert f.launches(g) == 1
    got = f(g).get()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, chain(np, h), rtol=2e-6, atol=1e-6)
    np.testing.assert_array_equal(got, chain(npgpu, g).get())


@pytest.mark.parametrize("dt", [np.complex64, np.complex128, np.float32, np.int16])
def test_real_and_imag_of_traced_values(dt, rng):
    """``.real`` / ``.imag`` inside a fused function are part of its kernel (NumPy's: a real
    value's real part is itself, its imaginary part zeros of its dtype)."""
    h = random_array((3, 7), dt, rng)
    x = npgpu.asarray(h)
    f = npgpu.fuse(lambda z: (z * z).real * 2 - z.imag + (z + 1).imag)
    want = (h * h).real * 2 - h.imag + (h + 1).imag
    got = f(x)
    assert got.dtype == want.dtype
    assert_matches(got, want, rtol=1e-5)
    assert f.launches(x) == 1
