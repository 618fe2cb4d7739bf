"""Defects found by NumPy's own arraypad, shape_base, twodim_base, stride_tricks and
item_selection tests, each checked against NumPy: pad keeps an F-ordered input's order and
checks a zero stat_length on every axis; concatenate, stack and block lay their results out in
the inputs' memory order; block reports mismatched depths before empty lists."""
import numpy
import pytest

import npgpu as np
from conftest import assert_matches, assert_same, raises_like, random_array

PAD_MODES = ["constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum",
             "reflect", "symmetric", "wrap", "empty"]


def _layouts(host):
    """(name, device array, host array) of ``host`` C-ordered, F-ordered and strided."""
    f = numpy.asfortranarray(host)
    big = numpy.repeat(host[..., None], 2, axis=-1)
    return [("C", np.asarray(host), host), ("F", np.asfortranarray(np.asarray(host)), f),
            ("strided", np.asarray(big)[..., 1], big[..., 1]),
            ("negative", np.asarray(host)[::-1], host[::-1])]


def _same_layout(got, want):
    assert got.flags.c_contiguous == want.flags.c_contiguous
    assert got.flags.f_contiguous == want.flags.f_contiguous
    if want.size:
        assert got.strides == want.strides, (got.strides, want.strides)


# ---- pad ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", PAD_MODES)
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex128"])
def test_pad_keeps_memory_order(mode, dtype, rng):
    host = random_array((4, 5), dtype, rng)
    kw = {"reflect_type": "odd"} if mode == "reflect" else {}
    for name, d, h in _layouts(host):
        for width in (2, ((1, 0), (0, 3))):
            want = numpy.pad(h, width, mode, **kw)
            for _ in range(2):             # the second call replays the stored launch
                got = np.pad(d, width, mode, **kw)
                if mode == "mean":          # (a reduction: rounding of its own order)
                    assert_matches(got, want)
                elif mode != "empty":
                    assert_same(got, want)
                _same_layout(got, want)


@pytest.mark.parametrize("values", [((1, 2), (3, 4)), ((1, 0), (0, 1)), 7, ((5, 5),),
                                    ((1, 2), (3, 4), (5, 6))])
@pytest.mark.parametrize("dtype", ["uint8", "float64"])
def test_pad_constant_corners_keep_order(values, dtype, rng):
    """The corners take the last padded axis's constant, F-ordered input or not."""
    shape = (3, 4, 2) if len(numpy.shape(values)) == 2 and len(values) == 3 else (3, 4)
    host = random_array(shape, dtype, rng)
    width = ((1, 2),) * len(shape)
    for name, d, h in _layouts(host):
        want = numpy.pad(h, width, constant_values=values)
        got = np.pad(d, width, constant_values=values)
        assert_same(got, want)
        _same_layout(got, want)


def test_pad_order_3d_after_c_call(rng):
    host = random_array((3, 4, 2), "float64", rng)
    c = np.pad(np.asarray(host), 1, "wrap")
    f_host = numpy.asfortranarray(host)
    f = np.pad(np.asfortranarray(np.asarray(host)), 1, "wrap")
    assert_same(c, numpy.pad(host, 1, "wrap"))
    assert_same(f, numpy.pad(f_host, 1, "wrap"))
    assert f.flags.f_contiguous and not f.flags.c_contiguous


@pytest.mark.parametrize("mode", ["minimum", "maximum"])
@pytest.mark.parametrize("width", [0, 1, ((0, 0), (1, 1))])
@pytest.mark.parametrize("stat_length", [0, (1, 0), ((2, 2), (0, 1))])
def test_pad_zero_stat_length_on_any_axis(mode, width, stat_length):
    host = numpy.array([[1.5, -2.0, 3.0], [4.0, 0.5, -6.0]])
    raises_like(lambda: numpy.pad(host, width, mode, stat_length=stat_length),
                lambda: np.pad(np.asarray(host), width, mode, stat_length=stat_length))


@pytest.mark.parametrize("mode", ["minimum", "maximum"])
def test_pad_stat_length_checked_without_padding(mode):
    raises_like(lambda: numpy.pad([1.0, 2.0], 0, mode, stat_length=-1),
                lambda: np.pad(np.asarray([1.0, 2.0]), 0, mode, stat_length=-1))
    host = numpy.array([3.0, -1.0, 2.0])
    assert_same(np.pad(np.asarray(host), 0, mode, stat_length=5),
                numpy.pad(host, 0, mode, stat_length=5))


# ---- concatenate / stack / block memory order --------------------------------------------------
@pytest.mark.parametrize("dtype", ["bool", "int32", "float64", "complex64"])
@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concatenate_memory_order(dtype, axis, rng):
    a = random_array((3, 4), dtype, rng)
    b = random_array((3, 4), dtype, rng)
    for (na, da, ha) in _layouts(a):
        for (nb, db, hb) in _layouts(b):
            want = numpy.concatenate([ha, hb], axis=axis)
            got = np.concatenate([da, db], axis=axis)
            assert_same(got, want)
            _same_layout(got, want)


def test_concatenate_memory_order_3d(rng):
    host = random_array((2, 3, 4), "float32", rng)
    for axes in [(2, 0, 1), (1, 2, 0), (0, 2, 1)]:
        h = numpy.ascontiguousarray(host.transpose(axes)).transpose(numpy.argsort(axes))
        d = np.ascontiguousarray(np.asarray(host).transpose(axes)).transpose(
            tuple(numpy.argsort(axes)))
        for axis in range(3):
            for pieces in ([h, h], [h, host]):
                dev = [d if p is h else np.asarray(p) for p in pieces]
                want = numpy.concatenate(pieces, axis=axis)
                got = np.concatenate(dev, axis=axis)
                assert_same(got, want)
                _same_layout(got, want)
                assert got.base is None


@pytest.mark.parametrize("func", ["stack", "vstack", "hstack", "dstack", "column_stack"])
def test_stack_family_memory_order(func, rng):
    host = random_array((3, 4), "int64", rng)
    for name, d, h in _layouts(host):
        want = getattr(numpy, func)([h, h])
        got = getattr(np, func)([d, d])
        assert_same(got, want)
        _same_layout(got, want)
    for axis in (0, 1, 2, -1):
        f = numpy.asfortranarray(host)
        got = np.stack([np.asarray(f), np.asarray(f)], axis=axis)
        _same_layout(got, numpy.stack([f, f], axis=axis))


def test_append_memory_order(rng):
    host = random_array((2, 3), "float64", rng)
    f = numpy.asfortranarray(host)
    df = np.asfortranarray(np.asarray(host))
    for axis in (0, 1):
        want = numpy.append(f, f, axis=axis)
        got = np.append(df, df, axis=axis)
        assert_same(got, want)
        _same_layout(got, want)


def _nest(spec, arrays):
    """``spec`` (nested lists of indices) with the arrays in the indices' places."""
    if isinstance(spec, list):
        return [_nest(s, arrays) for s in spec]
    return arrays[spec]


@pytest.mark.parametrize("spec", [
    [[0, 1], [2, 3]],
    [[[0, 1], [2, 3]], [[1, 0], [3, 2]]],
    [0, 1, 2],
    [[0], [1]],
    0,
])
def test_block_memory_order(spec, rng):
    shapes = {0: (2, 3), 1: (2, 3), 2: (2, 3), 3: (2, 3)}
    if isinstance(spec, list) and isinstance(spec[0], list) and isinstance(spec[0][0], list):
        shapes = {k: (2, 2, 3) for k in shapes}
    hosts = [random_array(shapes[k], "float32", rng) for k in range(4)]
    for orders in ("CCCC", "FFFF", "FCFC", "CFFF"):
        h = [numpy.asfortranarray(x) if o == "F" else x for x, o in zip(hosts, orders)]
        d = [np.asfortranarray(np.asarray(x)) if o == "F" else np.asarray(x)
             for x, o in zip(hosts, orders)]
        want = numpy.block(_nest(spec, h))
        got = np.block(_nest(spec, d))
        assert_same(got, want)
        _same_layout(got, want)


def test_block_1d_pieces_memory_order(rng):
    a = random_array((3, 2), "int8", rng)
    b = random_array((2,), "int8", rng)
    fa = numpy.asfortranarray(a)
    for spec in ([[fa], [b]], [[fa, fa]], [[fa], [fa]]):
        dev = [[np.asfortranarray(np.asarray(x)) if x is fa else np.asarray(x) for x in row]
               for row in spec]
        want = numpy.block(spec)
        got = np.block(dev)
        assert_same(got, want)
        _same_layout(got, want)


# ---- block's nesting errors ----------------------------------------------------------------
@pytest.mark.parametrize("arrays", [
    [1, [2]], [1, []], [[1], 2], [[], 2], [[[1], [2]], [[3, 4]], [5]],
    [], [[]], [[1], []], [[1, 2], [[]]], [[[]], [[1]]], [[], []], [[1], [[]], 2],
])
def test_block_nesting_errors(arrays):
    raises_like(lambda: numpy.block(arrays), lambda: np.block(arrays))


class _Huge:
    """A sequence that claims more arrays than NumPy's concatenate takes (none is read)."""

    def __len__(self):
        return 2**31

    def __getitem__(self, i):
        raise AssertionError("read an element")


def test_concatenate_too_many_arrays():
    """NumPy's limit and message (its test_huge_list_error, a tuple of 2**31 arrays: 16 GiB of
    references); npgpu checks the length before it reads any array."""
    msg = "concatenate() only supports up to 2147483647 arrays but got 2147483648."
    with pytest.raises(ValueError) as e:
        np.concatenate(_Huge())
    assert str(e.value) == msg
