"""@npgpu.fuse with reductions: the elementwise work before a reduction is its map step (one
reduction launch, two for split rows), work after it one more elementwise launch."""
import numpy as np
import pytest

import npgpu
from npgpu._codegen import compiler
from conftest import assert_matches, make_layout, random_array


def _unfused(f):
    return f.func


@npgpu.fuse
def _sq_dist(a, b, axis, keepdims):
    # axis/keepdims: None and tuples reach the function as they are (bools are traced values)
    return npgpu.sum((a - b) ** 2, axis=axis, keepdims=keepdims == (True,))


def _check(f, hosts, devs, rtol=None, **kw):
    """The fused call matches the unfused one (npgpu) and NumPy's."""
    got = f(*devs, **kw) if kw else f(*devs)
    plain = _unfused(f)(*devs, **kw) if kw else _unfused(f)(*devs)
    with np.errstate(all="ignore"):      # NumPy's values: the host-mode call of the function
        ref = f(*hosts, **kw) if kw else f(*hosts)
    gots, plains, refs = ((x if isinstance(x, tuple) else (x,)) for x in (got, plain, ref))
    for g, p, r in zip(gots, plains, refs):
        assert_matches(g, r, rtol=rtol)
        assert_matches(g, p.get() if isinstance(p, npgpu.ndarray) else p, rtol=rtol)


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.int8, np.float16,
                                np.complex64])
@pytest.mark.parametrize("axis,keepdims", [(None, False), ((0,), True), ((1,), False),
                                           ((0, 1), True)])
def test_sum_of_squared_differences(dt, axis, keepdims, rng):
    a, b = random_array((5, 37), dt, rng), random_array((5, 37), dt, rng)
    f = lambda x, y: _sq_dist(x, y, axis, (keepdims,))
    got = f(npgpu.asarray(a), npgpu.asarray(b))
    with np.errstate(all="ignore"):
        ref = np.sum((a - b) ** 2, axis=axis, keepdims=keepdims)
    assert_matches(got, ref, rtol=2e-2 if dt == np.float16 else None)
    plain = npgpu.sum((npgpu.asarray(a) - npgpu.asarray(b)) ** 2, axis=axis, keepdims=keepdims)
    assert_matches(got, plain.get(), rtol=2e-2 if dt == np.float16 else None)


def test_sum_reads_inputs_once_and_is_deterministic(rng):
    a, b = random_array((3000,), np.float32, rng), random_array((3000,), np.float32, rng)
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    # the same launches as a plain sum of a stored array: the map adds none
    d = (ga - gb) ** 2
    plain = _sq_dist.launches(ga, gb, None, (False,))
    before = compiler.stats["launches"]
    npgpu.sum(d)
    assert plain == compiler.stats["launches"] - before <= 2
    runs = {_sq_dist(ga, gb, None, (False,)).get().tobytes() for _ in range(3)}
    assert len(runs) == 1
    assert_matches(_sq_dist(ga, gb, None, (False,)), np.sum((a - b) ** 2), rtol=1e-4)


@pytest.mark.parametrize("layout", ["transposed", "strided", "negative", "broadcast", "empty"])
def test_reduction_layouts(layout, rng):
    h = random_array((4, 6), np.float32, rng)
    d, hh = make_layout(h, layout)
    other = random_array(hh.shape[-1:], np.float32, rng)

    @npgpu.fuse
    def f(x, y):
        return npgpu.max(x * y + 1.0, axis=-1), (x - y).sum(axis=0), npgpu.mean(x * 2, axis=-1)
    if layout == "empty":
        with pytest.raises(ValueError, match="zero-size array"):
            f(d, npgpu.asarray(other))
        return
    _check(f, (hh, other), (d, npgpu.asarray(other)))


def test_scalars_in_the_map(rng):
    a = random_array((4, 9), np.float32, rng)

    @npgpu.fuse
    def f(x, s, t):
        return npgpu.sum(x * s + t, axis=1), npgpu.prod(x * np.float32(0.5), axis=0)
    _check(f, (a, 2.5, np.float32(1.5)), (npgpu.asarray(a), 2.5, np.float32(1.5)), rtol=1e-4)


@pytest.mark.parametrize("dt", [np.float32, np.int16, np.bool_])
def test_any_all_min_argmax(dt, rng):
    a = random_array((6, 10), dt, rng)

    @npgpu.fuse
    def f(x):
        return (npgpu.any(x > 1, axis=0), npgpu.all(x != 3), npgpu.min(x, axis=1, keepdims=True),
                npgpu.argmax(x + x, axis=1), npgpu.argmin(x * 3))
    _check(f, (a,), (npgpu.asarray(a),))


def test_work_after_the_reduction(rng):
    a = random_array((8, 12), np.float32, rng)
    ga = npgpu.asarray(a)

    @npgpu.fuse
    def centre(x):
        return x - x.mean(axis=0)

    @npgpu.fuse
    def rownorm(x):
        return (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)
    _check(centre, (a,), (ga,), rtol=1e-4)
    _check(rownorm, (a,), (ga,), rtol=1e-4)
    # launches: the mean (one pass or two), then one elementwise kernel
    assert centre.launches(ga) <= 3 and rownorm.launches(ga) <= 3
    mean_only = npgpu.fuse(lambda x: x.mean(axis=0)).launches(ga)
    assert centre.launches(ga) == mean_only + 1


def test_var_std_of_traced_values(rng):
    a = random_array((5, 7), np.float64, rng)

    @npgpu.fuse
    def f(x):
        return npgpu.var(x * 2, axis=0, ddof=1), npgpu.std(npgpu.exp(x / 50), axis=1)
    _check(f, (a,), (npgpu.asarray(a),))


def test_reduction_kernels_are_cached(rng):
    a = random_array((4, 16), np.float32, rng)
    ga, gb = npgpu.asarray(a), npgpu.asarray(a[::-1].copy())
    _sq_dist(ga, gb, (1,), (False,))
    before = compiler.stats["compiles"]
    _sq_dist(gb, ga, (1,), (False,))
    assert compiler.stats["compiles"] == before


def test_gpu_variants_of_mapped_reductions():
    """The GPU's renderings (warp shuffles, 8 loads in flight, word loads of every input) of a
    fused map, recorded for CI's PTX compile (the simulator renders its own variant)."""
    from npgpu.fusion.reduce import map_step
    from npgpu.fusion.trace import _Trace
    from npgpu.reductions import template
    from npgpu.reductions import functions as F
    from npgpu.reductions.ufunc_methods import reduce_spec
    f32 = np.dtype(np.float32)
    tr = _Trace("gpu_variant")
    a, b = tr.add_slot(None, f32, shape=(8,)), tr.add_slot(None, f32, shape=(8,))
    d = (a - b) ** 2
    op, _, _, _ = tr.scalar_op([d.expr], [f32])
    fmap = map_step(op, [f32, f32], f32, [1, 0])
    n = 0
    for spec in (reduce_spec(npgpu.add, f32)[0], F._arg_spec(f32, True, False)):
        for mode, block, tx, nk, nr, lay, words in (("inner", 256, 1, 0, 1, "C", True),
                                                    ("inner", 256, 1, 1, 2, "A", False),
                                                    ("outer", 1024, 32, 1, 1, "A", False)):
            ks = template.render(spec, mode, nk=nk, nr=nr, in_storage=f32,
                                 out_storage=spec.out_dtype, has_mask=False, has_init=False,
                                 first=True, last=True, block=block, tx=tx, sim=False,
                                 unroll=8, in_layout=lay, words=words, fmap=fmap)
            assert "red_map(" in ks.source and "in1" in ks.source
            compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
            n += 1
    assert n == 6
