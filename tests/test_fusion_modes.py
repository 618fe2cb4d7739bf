"""@npgpu.fuse beyond one kernel: where/clip/astype, in-place updates, multiple outputs,
non-fusable steps, strict mode, host fallback, errors naming the user's line, inspection."""
import numpy as np
import pytest

import npgpu
from npgpu._codegen import compiler
from conftest import assert_matches, random_array


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.uint8, np.float16])
def test_where_clip_astype_and_scalars(dt, rng):
    x, y = random_array((3, 8), dt, rng), random_array((8,), dt, rng)

    @npgpu.fuse
    def f(a, b, s):
        return (npgpu.where(a > b, a, b * 2), npgpu.clip(a, 1, 50), (a + s).astype(np.int16),
                npgpu.where(a > 0, 1.5, a), a * np.float32(2) + 3)
    got = f(npgpu.asarray(x), npgpu.asarray(y), 7)
    with np.errstate(all="ignore"):
        ref = (np.where(x > y, x, y * 2), np.clip(x, 1, 50), (x + 7).astype(np.int16),
               np.where(x > 0, 1.5, x), x * np.float32(2) + 3)
    for g, r in zip(got, ref):
        assert_matches(g, r, rtol=1e-3 if dt == np.float16 else None)


def test_elementwise_replay_is_one_launch_without_tracing(rng):
    x = random_array((5, 6), np.float32, rng)
    gx = npgpu.asarray(x)

    @npgpu.fuse
    def f(a, b):
        return npgpu.sin(a) * b + 1.0, a > 0
    f(gx, 2.0)
    assert f._programs                      # remembered for this signature
    before = compiler.stats["launches"]
    r, m = f(npgpu.asarray(x[:2]), 3.0)    # another shape, same signature: replayed
    assert compiler.stats["launches"] == before + 1
    assert_matches(r, np.sin(x[:2]) * 3.0 + 1.0)
    assert_matches(m, x[:2] > 0)
    assert f.launches(gx, 2.0) == 1


def test_in_place_updates_and_out(rng):
    x, y = random_array((4, 5), np.float32, rng), random_array((5,), np.float32, rng)

    @npgpu.fuse
    def f(a, b):
        a += b * 2
        npgpu.multiply(a, 3, out=a)
        return a, a - 1
    for _ in range(2):                       # traced, then replayed
        gx = npgpu.asarray(x)
        r, s = f(gx, npgpu.asarray(y))
        assert r is gx
        assert_matches(gx, (x + y * 2) * 3)
        assert_matches(s, (x + y * 2) * 3 - 1)


def test_in_place_casting_and_shape_errors():
    @npgpu.fuse
    def f(a, b):
        a += b
        return a
    gi = npgpu.asarray(np.arange(4, dtype=np.int32))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from dtype\\('float64'\\)"
                                        " to dtype\\('int32'\\) with casting rule 'same_kind'") as e:
        f(gi, npgpu.asarray(np.ones(4)))
    assert "a += b" in str(e.value)          # the line of the fused function is named
    with pytest.raises(ValueError, match="non-broadcastable output operand"):
        f(npgpu.asarray(np.ones(4)), npgpu.asarray(np.ones((2, 4))))
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        npgpu.fuse(lambda a, b: a + b)(npgpu.asarray(np.ones(3)), npgpu.asarray(np.ones(4)))


def test_control_flow_raises_with_where_hint():
    @npgpu.fuse
    def f(x):
        if x > 0:
            return x
        return -x
    with pytest.raises(TypeError, match="npgpu.where") as e:
        f(npgpu.asarray(np.arange(3.0)))
    assert "if x > 0" in str(e.value)


def test_mixed_fusable_and_non_fusable(rng):
    a, b = random_array((4, 6), np.float32, rng), random_array((5, 6), np.float32, rng)
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)

    @npgpu.fuse
    def f(x, y):
        z = npgpu.sin(x) @ (y * 2).T           # two elementwise kernels feed a matmul
        s = npgpu.sort(z + 1, axis=1)
        return s[:, ::2] * 3 - 1, z[0] + 1
    got = f(ga, gb)
    ref = (np.sort(np.sin(a) @ (b * 2).T + 1, axis=1)[:, ::2] * 3 - 1,
           (np.sin(a) @ (b * 2).T)[0] + 1)
    for g, r in zip(got, ref):
        assert_matches(g, r, rtol=1e-4)
    with pytest.raises(TypeError, match="strict=True.*matmul"):
        npgpu.fuse(strict=True)(f.func)(ga, gb)


def test_host_fallback(rng):
    a, b = random_array((3, 4), np.float64, rng), random_array((4,), np.float64, rng)

    @npgpu.fuse
    def f(x, y):
        d = npgpu.sin(x) - y
        return npgpu.where(d > 0, d, 0.0), npgpu.sum(d * d, axis=1), npgpu.std(d), d.max()
    before = compiler.stats["launches"]
    got = f(a, b)
    assert compiler.stats["launches"] == before
    d = np.sin(a) - b
    ref = (np.where(d > 0, d, 0.0), np.sum(d * d, axis=1), np.std(d), d.max())
    for g, r in zip(got, ref):
        assert type(g) is type(r)
        np.testing.assert_allclose(g, r)
    dev = f(npgpu.asarray(a), npgpu.asarray(b))
    for g, r in zip(dev, ref):
        assert_matches(g, r)


def test_inspection_and_kernel_name(rng):
    x = npgpu.asarray(random_array((6,), np.float32, rng))

    @npgpu.fuse(kernel_name="my_axpy")
    def f(a, b):
        return a * 2 + b
    srcs = f.kernel_sources(x, x)
    assert len(srcs) == 1 and all(n.startswith("fused_my_axpy") for n in srcs)
    assert "def op(x0, x1)" in next(iter(srcs.values()))
    g = npgpu.fuse(lambda a: npgpu.sum(a * a))
    assert all(n.startswith("red_") for n in g.kernel_sources(x))
    assert "red_map" in next(iter(g.kernel_sources(x).values()))


def test_nested_fused_functions(rng):
    x = random_array((7,), np.float64, rng)
    inner = npgpu.fuse(lambda a: a * a + 1)
    outer = npgpu.fuse(lambda a: inner(a) - inner(a * 2))
    gx = npgpu.asarray(x)
    assert_matches(outer(gx), (x * x + 1) - ((2 * x) ** 2 + 1))
    assert outer.launches(gx) == 1
