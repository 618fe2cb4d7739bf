"""sort / argsort / lexsort / partition / sort_complex against NumPy's stable sort, exactly."""
import numpy
import pytest

import npgpu as np
from npgpu.sorting import functions as _f
from npgpu.sorting import keys as _keys
from npgpu.sorting import radix as _radix
from npgpu.sorting import segmented as _seg

from conftest import ALL_DTYPES, ON_GPU

REAL = [d for d in ALL_DTYPES if d.kind != "c"]


def data(shape, dt, seed=0):
    """Random values with duplicates; floats with NaN, +-0, +-inf; complex with NaN parts."""
    rng = numpy.random.default_rng(seed)
    dt = numpy.dtype(dt)
    if dt.kind == "b":
        return rng.random(shape) > 0.5
    if dt.kind in "iu":
        info = numpy.iinfo(dt)
        # few distinct values (ties) and the extremes
        h = rng.integers(max(info.min, -20), min(info.max, 20), size=shape, endpoint=True)
        h = h.astype(dt)
        flat = h.reshape(-1)
        if flat.size > 4:
            flat[:2] = info.min, info.max
            rng.shuffle(flat)
        return h
    if dt.kind == "f":
        h = numpy.round(rng.standard_normal(shape) * 4).astype(dt)
        flat = h.reshape(-1)
        specials = numpy.array([numpy.nan, -0.0, 0.0, numpy.inf, -numpy.inf, -numpy.nan,
                                -0.0], dt)
        k = min(flat.size // 3, specials.size)
        pos = rng.choice(flat.size, k, replace=False) if k else []
        flat[pos] = specials[:k]
        return h
    re = data(shape, numpy.float32 if dt.itemsize == 8 else numpy.float64, seed + 1)
    im = numpy.round(rng.standard_normal(shape) * 2)
    h = (re + 1j * im).astype(dt)
    if h.size > 6:
        f = h.reshape(-1)
        f[1] = complex(numpy.nan, 2)
        f[2] = complex(1, numpy.nan)
        f[3] = complex(numpy.nan, numpy.nan)
        f[4] = complex(numpy.nan, -1)
        f[5] = complex(1, numpy.nan)
    return h


def same(got, want):
    """Exact equality: bits of floats (NaN payloads, signs of zeros), shape and dtype."""
    got = got.get() if isinstance(got, np.ndarray) else got
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape,
                                                                 got.dtype, want.dtype)
    if want.dtype.kind in "fc":
        w = want.dtype.itemsize if want.dtype.kind == "f" else want.dtype.itemsize // 2
        assert numpy.array_equal(got.view(f"u{w}"), want.view(f"u{w}")), (got, want)
    else:
        assert numpy.array_equal(got, want), (got, want)


def ref_argsort(h, axis=-1, descending=False):
    """The Array API's stable descending argsort (array-api-strict's definition)."""
    if not descending:
        return numpy.argsort(h, axis=axis, kind="stable")
    if axis is None:
        h, axis = h.reshape(-1), -1
    r = numpy.flip(numpy.argsort(numpy.flip(h, axis=axis), axis=axis, kind="stable"), axis=axis)
    return h.shape[axis] - 1 - r


def ref_sort(h, axis=-1, descending=False):
    if not descending:
        return numpy.sort(h, axis=axis, kind="stable")
    if axis is None:
        h, axis = h.reshape(-1), -1
    return numpy.take_along_axis(h, ref_argsort(h, axis, True), axis=axis)


# ---- every dtype, 1-d -------------------------------------------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_1d(dt, descending):
    h = data(45, dt, seed=3)
    a = np.asarray(h)
    same(np.sorting.sort(a, descending=descending), ref_sort(h, descending=descending))
    same(np.sorting.argsort(a, descending=descending), ref_argsort(h, descending=descending))


@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_sort_rows(dt):
    # short rows (one block each) and the axis moved last
    h = data((3, 5, 7), dt, seed=4)
    a = np.asarray(h)
    for axis in (-1, 0, 1, None):
        same(np.sorting.sort(a, axis=axis), ref_sort(h, axis))
        same(np.sorting.argsort(a, axis=axis), ref_argsort(h, axis))


# ---- layouts ----------------------------------------------------------------------------------
def test_layouts():
    h = data((6, 9), numpy.float32, seed=5)
    a = np.asarray(h)
    for view in (lambda x: x[:, ::-2], lambda x: x.T, lambda x: x[1:5, 2:8][::-1],
                 lambda x: x[2], lambda x: x[:, 3]):
        for axis in (-1, 0, None):
            hv, av = view(h), view(a)
            if axis == 0 and hv.ndim < 1:
                continue
            same(np.sorting.sort(av, axis=axis), ref_sort(hv, axis))
            same(np.sorting.argsort(av, axis=axis), ref_argsort(hv, axis))
    # broadcast input (zero strides)
    hb = numpy.broadcast_to(h[0], (4, 9))
    same(np.sorting.sort(np.broadcast_to(a[0], (4, 9)), axis=0), ref_sort(hb, 0))


def test_empty_and_0d():
    for shape in ((0,), (3, 0), (0, 4)):
        h = numpy.zeros(shape, numpy.int32)
        for axis in (-1, 0, None):
            same(np.sorting.sort(np.asarray(h), axis=axis), numpy.sort(h, axis=axis))
            same(np.sorting.argsort(np.asarray(h), axis=axis), numpy.argsort(h, axis=axis))
    z = numpy.array(2.5)
    same(np.sorting.argsort(np.asarray(z)), numpy.argsort(z))
    same(np.sorting.sort(np.asarray(z), axis=None), numpy.sort(z, axis=None))
    with pytest.raises(numpy.exceptions.AxisError, match="axis -1 is out of bounds"):
        np.sorting.sort(np.asarray(z))
    one = numpy.array([7], numpy.int8)
    same(np.sorting.sort(np.asarray(one)), one)
    same(np.sorting.argsort(np.asarray(one)), numpy.argsort(one))


def test_bad_arguments():
    a = np.asarray(numpy.arange(4.0))
    h = numpy.arange(4.0)
    cases = [dict(kind="foo"), dict(kind="stable", stable=True), dict(order="x"), dict(kind=3),
             dict(axis=2), dict(axis=1.5)]
    for kw in cases:
        with pytest.raises(Exception) as want:
            numpy.sort(h, **kw)
        with pytest.raises(type(want.value), match=str(want.value)[:30].replace("(", ".")
                           .replace(")", ".").replace("[", ".").replace("]", ".")):
            np.sorting.sort(a, **kw)
    for kind in ("quicksort", "mergesort", "heapsort", "stable", "Q"):
        same(np.sorting.argsort(a, kind=kind), numpy.argsort(h, kind="stable"))
    same(np.sorting.sort(a, stable=False), h)


def test_stability_on_ties():
    # few distinct keys in many elements: argsort must keep input order within each run
    rng = numpy.random.default_rng(7)
    for dt in (numpy.int16, numpy.float64, numpy.uint64, numpy.bool_):
        h = rng.integers(0, 3, 200).astype(dt)
        same(np.sorting.argsort(np.asarray(h)), numpy.argsort(h, kind="stable"))
        same(np.sorting.argsort(np.asarray(h), descending=True), ref_argsort(h, -1, True))


def test_full_range_integers():
    rng = numpy.random.default_rng(8)
    for dt in (numpy.int64, numpy.uint64, numpy.int32, numpy.uint32):
        info = numpy.iinfo(dt)
        h = rng.integers(info.min, info.max, 120, dtype=dt, endpoint=True)
        same(np.sorting.sort(np.asarray(h)), numpy.sort(h))
        same(np.sorting.argsort(np.asarray(h)), numpy.argsort(h, kind="stable"))


@pytest.mark.parametrize("dt", [numpy.float16, numpy.float32, numpy.float64], ids=str)
def test_float_keys_decode(dt):
    # no -0.0 and no NaN: the values do not travel, the last pass decodes the keys
    rng = numpy.random.default_rng(20)
    h = numpy.round(rng.standard_normal(60) * 8).astype(dt)
    h[h == 0] = 0.5
    h[[4, 9]] = numpy.inf, -numpy.inf
    for descending in (False, True):
        same(np.sorting.sort(np.asarray(h), descending=descending),
             ref_sort(h, descending=descending))
    # one -0.0 far from the start: found by the first pass's count, the values travel
    h[57] = -0.0
    same(np.sorting.sort(np.asarray(h)), numpy.sort(h, kind="stable"))


def test_float_bits_exact():
    # every NaN kind (payloads, signs), -0.0/+0.0 in input order, subnormals, infinities
    vals = numpy.array([0.0, -0.0, numpy.nan, 1e-45, -1e-45, numpy.inf, -numpy.inf, 3.0, -0.0,
                        0.0], numpy.float32)
    bits = vals.view(numpy.uint32).copy()
    bits[2] = 0x7FC00001
    extra = numpy.array([0xFFC00000, 0x7F800001, 0xFF800002], numpy.uint32)
    h = numpy.concatenate([bits, extra, bits[::-1]]).view(numpy.float32)
    same(np.sorting.sort(np.asarray(h)), numpy.sort(h, kind="stable"))
    same(np.sorting.argsort(np.asarray(h)), numpy.argsort(h, kind="stable"))


# ---- lexsort, sort_complex, partition, ndarray methods --------------------------------------
@pytest.mark.matrix
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_lexsort_dtypes(dt):
    # a primary key with ties, a secondary key of dtype dt, a third of another dtype
    rng = numpy.random.default_rng(13)
    k0 = data(40, dt, seed=14)
    k1 = rng.integers(0, 3, 40).astype(numpy.int8)
    k2 = (rng.random(40) > 0.5)
    for keys in ((k0,), (k0, k1), (k1, k0, k2)):
        same(np.lexsort([np.asarray(k) for k in keys]), numpy.lexsort(keys))


def test_lexsort_axes_and_errors():
    a = data((3, 6), numpy.int32, seed=15)
    b = data((3, 6), numpy.float64, seed=16)
    for axis in (-1, 0):
        same(np.lexsort((np.asarray(a), np.asarray(b)), axis=axis),
             numpy.lexsort((a, b), axis=axis))
    stacked = numpy.stack([a[0], a[1]])
    same(np.lexsort(np.asarray(stacked)), numpy.lexsort(stacked))
    same(np.lexsort([np.asarray(numpy.array(3)), np.asarray(numpy.array(1))]),
         numpy.asarray(numpy.lexsort([numpy.array(3), numpy.array(1)])))
    with pytest.raises(TypeError, match="need sequence of keys with len > 0"):
        np.lexsort([])
    with pytest.raises(ValueError, match="all keys need to be the same shape"):
        np.lexsort([np.asarray(a), np.asarray(a[:2])])
    with pytest.raises(numpy.exceptions.AxisError):
        np.lexsort([np.asarray(a[0])], axis=1)


@pytest.mark.parametrize("dt", [numpy.int8, numpy.uint16, numpy.int32, numpy.float32,
                                numpy.bool_, numpy.complex64, numpy.complex128], ids=str)
def test_sort_complex(dt):
    h = data((3, 10), dt, seed=17)
    got, want = np.sort_complex(np.asarray(h)).get(), numpy.sort_complex(h)
    assert got.dtype == want.dtype
    if numpy.dtype(dt).kind == "c":
        same(got, want)
    else:
        # NumPy sorts the reals with its unstable sort: -0.0/+0.0 and NaN signs in any order
        numpy.testing.assert_array_equal(got, want)


def check_partition(got, h, kth, axis):
    """NumPy's contract: position k holds the k-th smallest, nothing larger before it, nothing
    smaller after it (NaN as the largest)."""
    s = numpy.sort(h, axis=axis)
    got = numpy.moveaxis(got, axis, -1)
    s = numpy.moveaxis(s, axis, -1)
    for k in numpy.atleast_1d(kth):
        k = int(k) % h.shape[axis]
        assert numpy.array_equal(got[..., k], s[..., k], equal_nan=True)
        for before in range(k):
            assert not numpy.any(got[..., before] > s[..., k])
        for after in range(k + 1, got.shape[-1]):
            assert not numpy.any(got[..., after] < s[..., k])


@pytest.mark.matrix
@pytest.mark.parametrize("dt", REAL, ids=str)
def test_partition_contract(dt):
    h = data((4, 9), dt, seed=18)
    a = np.asarray(h)
    for kth, axis in ((3, -1), ([0, 5, -1], -1), (2, 0), (numpy.array([1, 3]), 0)):
        got = np.partition(a, kth, axis=axis).get()
        assert got.dtype == h.dtype and got.shape == h.shape
        check_partition(got, h, kth, axis)
        idx = np.argpartition(a, kth, axis=axis).get()
        assert idx.dtype == numpy.int64
        check_partition(numpy.take_along_axis(h, idx, axis=axis), h, kth, axis)
    flat = np.partition(a, 7, axis=None).get()
    check_partition(flat, h.reshape(-1), 7, 0)


def test_partition_errors():
    h = numpy.arange(4.0)
    a = np.asarray(h)
    for kth, kw in ((5, {}), (-5, {}), ([1, 9], {}), (1, dict(kind="foo")), (True, {}),
                    (1.5, {}), ([], {}), (1, dict(order="x")), (numpy.array([[1]]), {})):
        for fn, gfn in ((numpy.partition, np.partition), (numpy.argpartition, np.argpartition)):
            with pytest.raises(Exception) as want:
                fn(h, kth, **kw)
            with pytest.raises(type(want.value)) as got:
                gfn(a, kth, **kw)
            assert str(got.value) == str(want.value)
    same(np.partition(np.asarray(numpy.zeros(0)), 5), numpy.zeros(0))
    with pytest.raises(numpy.exceptions.AxisError):
        np.partition(np.asarray(numpy.array(3.0)), 0)
    same(np.argpartition(np.asarray(numpy.array(3.0)), 0), numpy.argpartition(numpy.array(3.0), 0))


def test_ndarray_methods():
    h = data((5, 6), numpy.float32, seed=19)
    a = np.asarray(h)
    v = a[:, ::2]                     # in place through a strided view
    v.sort(axis=0)
    want = h.copy()
    want[:, ::2].sort(axis=0, kind="stable")
    same(a, want)
    same(a.argsort(), numpy.argsort(want, kind="stable"))
    same(a.argsort(axis=None), numpy.argsort(want, axis=None, kind="stable"))
    b = np.asarray(h)
    b.partition(2)
    check_partition(b.get(), h, 2, -1)
    check_partition(numpy.take_along_axis(want, a.argpartition(3).get(), -1), want, 3, -1)
    r = np.asarray(h)
    r.flags.writeable = False
    with pytest.raises(ValueError, match="sort array is read-only"):
        r.sort()
    with pytest.raises(ValueError, match="partition array is read-only"):
        r.partition(1)
    # numpy's own functions dispatch to npgpu arrays
    same(numpy.sort(np.asarray(h)), numpy.sort(h, kind="stable"))


# ---- the primitive ----------------------------------------------------------------------------
def test_long_rows_take_the_row_key():
    # rows longer than the one-block sort: a radix sort with the row id as top key part
    m = _seg.max_row(4, 8) + 3
    h = data((3, m), numpy.float32, seed=9)
    same(np.sorting.sort(np.asarray(h)), numpy.sort(h, kind="stable"))
    same(np.sorting.argsort(np.asarray(h)), numpy.argsort(h, kind="stable"))
    hi = data((2, m), numpy.int16, seed=10)
    same(np.sorting.argsort(np.asarray(hi), descending=True), ref_argsort(hi, -1, True))


def test_digit_widths():
    # the GPU's 8-bit digits on the simulator (and 3-bit ones: a last digit narrower than the
    # others), same order
    h = data(70, numpy.int32, seed=11)
    for digit in (8, 3):
        parts = _keys.parts_for(np.asarray(h))
        old = _radix.DIGIT
        _radix.DIGIT = digit
        try:
            got = _radix.sort(parts, h.size, payload="index")
        finally:
            _radix.DIGIT = old
        same(got, numpy.argsort(h, kind="stable"))


def test_gpu_variants_render():
    """The GPU renderings (warp ranking with per-bit ballots, shared-memory staging; the one-block row
    sort) are registered so CI's PTX check compiles them (gpu-variant): one of each load mode,
    payload and output, over the key kinds (float, xor, complex parts, row id)."""
    from npgpu._codegen import compiler
    i32, i64, u8 = numpy.dtype("i4"), numpy.dtype("i8"), numpy.dtype("u1")
    f32 = _keys.parts_for(np.asarray(data(8, numpy.float32)))[0]
    i16 = _keys.parts_for(np.asarray(data(8, numpy.int16)), descending=True)[0]
    b1 = _keys.parts_for(np.asarray(data(8, numpy.bool_)))[0]
    c16 = _keys.parts_for(np.asarray(data(8, numpy.complex128)))
    row = _keys.row_part(3000, 5)
    u32 = numpy.dtype("u4")
    # (part, src, payload, key out, payload out, payload dtype, key-out dtype, payload-out dtype)
    scatters = [(f32, "first", "iota", "key", "cast", i32, f32.dtype, i32),
                (f32, "key", "array", None, "cast", i32, u8, i64),
                (f32, "first", "values", None, "cast", u32, u8, u32),
                (i16, "first", None, "decode", None, u8, i16.src.dtype, u8),
                (i16, "key", "array", "key", "cast", i64, i16.dtype, i64),
                (b1, "first", "iota", None, "mod", i32, u8, i64),
                (c16[2], "gather", "array", None, "cast", i32, u8, i32),
                (c16[0], "gather", "array", "key", "cast", i32, c16[0].dtype, i32),
                (row, "gather", "array", None, "mod", i32, u8, i64),
                (row, "key", "array", None, "mod", i32, u8, i64),
                # float values travelling only when flagged (cond)
                (f32, "first", "values", "key", "cast", u32, f32.dtype, u32, True),
                (f32, "key", "array", "decode", None, u32, f32.src.dtype, u8, True)]
    n = 0
    for part, src, pay, ko, po, pdt, kodt, podt, *cond in scatters:
        bits = min(8, part.bits)
        items = _radix.items_for(part.w, pdt.itemsize if pay else 0, sim=False)
        ks = _radix.render_scatter(part, src, pay, ko, po, bits, i32, pdt, kodt, podt,
                                   block=256, items=items, sim=False, cond=bool(cond))
        assert "ballot_sync" in ks.source and "shfl_up_sync" in ks.source
        compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
        if src != "key" or part is row:
            for mode in ("atomic", "ballot"):      # the GPU's default and the knob's other
                ks = _radix.render_count(part, src, bits, i32 if part is not i16 else i64, pdt,
                                         block=256, items=items, sim=False, detect=bool(cond),
                                         mode=mode)
                assert ("ballot_sync" in ks.source) == (mode == "ballot")
                compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
        n += 1
    for ks in _seg.gpu_variants():
        compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
        n += 1
    assert n == len(scatters) + 7


@pytest.mark.skipif(not ON_GPU, reason="large sorts need a real GPU")
def test_large_on_gpu():
    rng = numpy.random.default_rng(12)
    for dt in (numpy.int32, numpy.float32, numpy.float64):
        h = (rng.standard_normal(1 << 20) * 1000).astype(dt)
        same(np.sorting.sort(np.asarray(h)), numpy.sort(h, kind="stable"))
        same(np.sorting.argsort(np.asarray(h)), numpy.argsort(h, kind="stable"))
    h = rng.standard_normal((300, 1000)).astype(numpy.float32)
    same(np.sorting.sort(np.asarray(h)), numpy.sort(h, kind="stable"))
    same(np.sorting.argsort(np.asarray(h), axis=0), numpy.argsort(h, axis=0, kind="stable"))
    h = rng.integers(0, 50, (4, 70000)).astype(numpy.int32)
    same(np.sorting.argsort(np.asarray(h)), numpy.argsort(h, kind="stable"))
    # one-block row sorts whose blocks are 3, 5 and 7 warps (fewer threads than digits, not a
    # divisor of them: each thread owns ceil(256 / threads) digits)
    for m in (600, 1100, 1700):
        h = rng.standard_normal((37, m)).astype(numpy.float32)
        same(np.sorting.sort(np.asarray(h)), numpy.sort(h, kind="stable"))
        same(np.sorting.argsort(np.asarray(h)), numpy.argsort(h, kind="stable"))


def test_sort_methods_take_an_integer_axis_and_kind_as_bytes():
    # ndarray.sort / partition have no axis=None (NumPy: TypeError); kind= may be bytes
    from conftest import error_of
    for shape in ((5,), (2, 3)):
        h = numpy.arange(numpy.prod(shape), dtype="f4").reshape(shape)[..., ::-1].copy()
        for call in (lambda x: x.sort(axis=None), lambda x: x.partition(1, axis=None)):
            assert error_of(lambda: call(np.asarray(h))) == error_of(lambda: call(h.copy()))
    h = numpy.array([3, 1, 2])
    assert numpy.array_equal(np.sort(np.asarray(h), kind=b"q").get(), numpy.sort(h, kind=b"q"))
    assert numpy.array_equal(np.argsort(np.asarray(h), kind=b"stable").get(),
                             numpy.argsort(h, kind=b"stable"))
    assert error_of(lambda: np.sort(np.asarray(h), kind=b"x")) == \
        error_of(lambda: numpy.sort(h, kind=b"x"))
