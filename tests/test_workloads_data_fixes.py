"""Differences from NumPy found by the data-manipulation workloads (tests/test_workloads_data.py),
each reduced to its smallest case and checked against NumPy: values, dtype and shape, or the
exception class and message (and warnings where NumPy gives one)."""
import warnings

import numpy
import pytest

import npgpu as np
from conftest import assert_same, raises_like


# --- reshape: NumPy's message spells the requested shape its own way ---------------------------
@pytest.mark.parametrize("size,shape", [((3, 0), (0, -1)), (6, (4, -1)), (6, (4, 2)), (6, (7,)),
                                        (6, (-1, 4)), (7, (2, -1, 1)), ((2, 0), (-1, 0))])
def test_reshape_size_message(size, shape):
    raises_like(lambda: numpy.zeros(size).reshape(shape), lambda: np.zeros(size).reshape(shape))


def test_reshape_any_negative_is_the_unknown_dimension():
    h = numpy.arange(24)
    assert_same(np.asarray(h).reshape(-2, 12), h.reshape(-2, 12))
    raises_like(lambda: h.reshape(-2, -1), lambda: np.asarray(h).reshape(-2, -1))


@pytest.mark.parametrize("order", ["K", "X", None, "f", "a"])
def test_reshape_order(order):
    h = numpy.arange(6)
    try:
        want = h.reshape(2, 3, order=order)
    except ValueError:
        raises_like(lambda: h.reshape(2, 3, order=order),
                    lambda: np.asarray(h).reshape(2, 3, order=order))
        return
    assert_same(np.asarray(h).reshape(2, 3, order=order), want)


def test_swapaxes_names_the_axis():
    h = numpy.arange(6)
    raises_like(lambda: numpy.swapaxes(h, 1, 0), lambda: np.swapaxes(np.asarray(h), 1, 0))
    raises_like(lambda: h.swapaxes(0, -2), lambda: np.asarray(h).swapaxes(0, -2))


@pytest.mark.parametrize("axis", [0, -1, (0,), 1])
def test_squeeze_0d_int_axis(axis):
    h = numpy.array(3.5)
    try:
        want = numpy.squeeze(h, axis=axis)
    except numpy.exceptions.AxisError:
        raises_like(lambda: numpy.squeeze(h, axis=axis),
                    lambda: np.squeeze(np.asarray(h), axis=axis))
        return
    assert_same(np.squeeze(np.asarray(h), axis=axis), want)


def test_meshgrid_without_copy_is_a_list():
    a, b = numpy.arange(3), numpy.arange(2.0)
    want = numpy.meshgrid(a, b, copy=False)
    got = np.meshgrid(np.asarray(a), np.asarray(b), copy=False)
    assert type(got) is type(want)
    for g, w in zip(got, want):
        assert_same(g, w)
    assert type(np.meshgrid(np.asarray(a), np.asarray(b))) is tuple


# --- a list of bools as an index is a mask: NumPy's boolean-assignment rules ------------------
@pytest.mark.parametrize("value", [[1, 2], [[1, 2, 3]], [[1], [2], [3]], [7, 8, 9]])
def test_list_of_bools_setitem(value):
    idx = [True, False] * 3
    h = numpy.arange(6)
    d = np.asarray(h)
    try:
        h[idx] = value
    except (ValueError, TypeError):
        raises_like(lambda: h.__setitem__(idx, value), lambda: d.__setitem__(idx, value))
        return
    d[idx] = value
    assert_same(d, h)


# --- ufunc.at ----------------------------------------------------------------------------------
def _at(xp, index, value=1.0, uf="add"):
    z = xp.asarray(numpy.arange(24.0).reshape(2, 3, 4))
    getattr(xp, uf).at(z, index(xp), value)
    return z


MASK = numpy.arange(12).reshape(3, 4) % 3 == 0


@pytest.mark.parametrize("index", [
    lambda xp: xp.asarray(numpy.array([True, False])),                  # device 1-d mask
    lambda xp: (slice(None), xp.asarray(numpy.array([True, False, True]))),
    lambda xp: xp.asarray(numpy.arange(24).reshape(2, 3, 4) > 10),      # full-rank mask
    lambda xp: (Ellipsis, xp.asarray(MASK)),                            # 2-d mask after ...
    lambda xp: (0, MASK),                                               # host 2-d mask
    lambda xp: (1, [[True, False, True, False]] * 3),                   # nested list of bools
    lambda xp: (xp.asarray(numpy.array([1, 0, 1])) % 2, Ellipsis),      # device ints, then ...
], ids=["dev1d", "dev_axis1", "full", "ellipsis_2d", "host2d", "list2d", "ellipsis_after_arr"])
def test_ufunc_at_boolean_and_ellipsis_indices(index):
    assert_same(_at(np, index), _at(numpy, index))


def test_ufunc_at_mask_shape_error():
    bad = numpy.array([True, False, True])
    raises_like(lambda: _at(numpy, lambda xp: bad), lambda: _at(np, lambda xp: np.asarray(bad)))


@pytest.mark.parametrize("dt,value", [(numpy.int8, 300), (numpy.uint8, -1), (numpy.int32, 2**40),
                                      (numpy.float32, 3.3), (numpy.uint64, 2**64 - 1)])
def test_ufunc_at_python_scalar_is_not_weak(dt, value):
    # NumPy's at makes the value an array first: int8 + 300 runs the int64 loop and wraps
    h = numpy.array([0.7, 1.3, 2.9]).astype(dt) if dt().dtype.kind == "f" else \
        numpy.arange(3, dtype=dt)
    d = np.asarray(h)
    numpy.add.at(h, [0, 1, 1], value)
    np.add.at(d, [0, 1, 1], value)
    assert_same(d, h)


def test_ufunc_at_complex_value_warns():
    h = numpy.zeros(3)
    d = np.asarray(h)
    with pytest.warns(numpy.exceptions.ComplexWarning):
        numpy.add.at(h, [0, 1], 1 + 1j)
    with pytest.warns(numpy.exceptions.ComplexWarning):
        np.add.at(d, [0, 1], 1 + 1j)
    assert_same(d, h)


# --- convolve / correlate mode message ----------------------------------------------------------
@pytest.mark.parametrize("mode", ["x", "", "abc", "Valid", "vx", 3])
def test_convolve_mode_message(mode):
    a, v = numpy.array([1.0, 2.0, 3.0]), numpy.array([0.5, 1.0])
    raises_like(lambda: numpy.convolve(a, v, mode=mode),
                lambda: np.convolve(np.asarray(a), np.asarray(v), mode=mode))
    raises_like(lambda: numpy.correlate(a, v, mode=mode),
                lambda: np.correlate(np.asarray(a), np.asarray(v), mode=mode))


# --- round of bool: rint's float16, and NumPy's cast error for decimals != 0 ---------------------
@pytest.mark.parametrize("decimals", [0, 2, -1])
def test_round_bool(decimals):
    h = numpy.array([True, False, True])
    try:
        want = numpy.round(h, decimals)
    except TypeError:
        raises_like(lambda: numpy.round(h, decimals), lambda: np.round(np.asarray(h), decimals))
        return
    assert_same(np.round(np.asarray(h), decimals), want)
    assert_same(np.asarray(h).round(decimals), h.round(decimals))


def test_round_bool_into_float_out():
    h = numpy.array([True, False])
    o, od = numpy.zeros(2), np.zeros(2)
    numpy.round(h, 2, out=o)
    np.round(np.asarray(h), 2, out=od)
    assert_same(od, o)


# --- sequences assigned are converted to the destination dtype, as NumPy does -------------------
@pytest.mark.parametrize("dt,value", [(numpy.uint8, [-1, 2]), (numpy.int8, [2.7, -300.5]),
                                      (numpy.int8, [numpy.nan, 1]), (float, [1j, 2]),
                                      (numpy.uint8, (300, 2)), (numpy.uint8, [numpy.int64(-1), 2]),
                                      (float, ["1.5", "2"]), (bool, [1j, 0])])
@pytest.mark.parametrize("where", ["slice", "fancy", "put", "put_along"])
def test_sequence_value_conversion(dt, value, where):
    def run(xp):
        z = xp.asarray(numpy.arange(4).astype(dt))
        if where == "slice":
            z[0:2] = value
        elif where == "fancy":
            z[[0, 1]] = value
        elif where == "put":
            xp.put(z, [0, 1], value)
        else:
            xp.put_along_axis(z, xp.asarray(numpy.array([0, 1])), value, axis=0)
        return z
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = run(numpy)
        except (OverflowError, TypeError, ValueError):
            raises_like(lambda: run(numpy), lambda: run(np))
            return
        assert_same(run(np), want)


# --- ndarray.item: NumPy's messages for a bad flat index or a wrong number of indices -----------
@pytest.mark.parametrize("shape", [(3, 4), (0,), (2, 0), (5,), ()])
@pytest.mark.parametrize("args", [(12,), (-13,), (5,), (1, 5), (3, 0), (1, 2, 3), ((1, 1),)])
def test_item_errors(shape, args):
    h = numpy.arange(int(numpy.prod(shape))).reshape(shape)
    try:
        want = h.item(*args)
    except (IndexError, ValueError):
        raises_like(lambda: h.item(*args), lambda: np.asarray(h).item(*args))
        return
    assert np.asarray(h).item(*args) == want


@pytest.mark.parametrize("decimals", [310, -310, 40, -40])
@pytest.mark.parametrize("dt", ["f8", "f4", "f2", "c8", "i4"])
def test_round_decimals_past_the_float_range(dt, decimals):
    """10 ** 310 is inf for NumPy's pow: the results are NumPy's (NaN, 0, the values, or inf
    scaled back), not a host OverflowError."""
    h = numpy.array([0.3, -1.7, 2.5, 0.0, numpy.inf, numpy.nan])
    x = numpy.array([3, -17, 250], dtype=dt) if dt == "i4" else h.astype(dt)
    with numpy.errstate(all="ignore"):
        want = numpy.round(x, decimals)
    got = np.round(np.asarray(x), decimals).get()
    assert got.dtype == want.dtype
    assert numpy.array_equal(got, want, equal_nan=True)
