"""mgrid/ogrid/r_/c_ and fromfunction/apply_along_axis/apply_over_axes/piecewise against NumPy:
values, dtypes, shapes, container types, and NumPy's errors."""
import numpy as np
import pytest

import npgpu
from npgpu._core import transfer as _transfer
from conftest import assert_matches, random_array, raises_like

_RNG = np.random.default_rng(2024)
F = random_array((3, 4), np.float64, _RNG)          # floats of both signs
I = random_array((3, 4), np.int64, _RNG, -5, 5)
F32 = random_array((5,), np.float32, _RNG)


def _check_one(got, want):
    if isinstance(want, np.matrix):
        want = np.asarray(want)         # npgpu gives the matrix's 2-D array
    if isinstance(want, np.generic):
        want = np.asarray(want)         # npgpu gives a 0-d device array for NumPy's scalar
    assert isinstance(got, npgpu.ndarray), type(got)
    assert_matches(got, want)


def _compare(call):
    """``call(numpy)`` and ``call(npgpu)`` agree: container type, dtypes, shapes, values."""
    want, got = call(np), call(npgpu)
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            _check_one(g, w)
    else:
        _check_one(got, want)


# ---- mgrid / ogrid -------------------------------------------------------------------------
GRID_KEYS = [
    slice(0, 5),
    (slice(0, 4), slice(1, 3)),
    slice(-1, 1, 5j),
    (slice(0, 1, 0.25), slice(0, 3)),
    (slice(3, -3, -2), slice(None, 2, 0.5), slice(2)),
    (slice(np.float32(0), 1, 0.25), slice(0, 2)),
    (slice(0, 3, 1j),),
]


@pytest.mark.parametrize("grid", ["mgrid", "ogrid"])
@pytest.mark.parametrize("key", GRID_KEYS, ids=lambda k: repr(k).replace(" ", ""))
def test_grid(grid, key):
    _compare(lambda xp: getattr(xp, grid)[key])


def test_grid_errors():
    for key in [(1, 2), 5, slice(0, 3, 0), (slice(5, 0), slice(0, 2))]:
        raises_like(lambda: np.mgrid[key], lambda: npgpu.mgrid[key])


# ---- r_ / c_ -------------------------------------------------------------------------------
CONCAT_CASES = {
    "arrays_and_scalars": lambda xp: xp.r_[xp.asarray(I)[0], 0, 0, xp.asarray(F)[1, ::-1]],
    "slices_lists": lambda xp: xp.r_[-1:1:6j, [0] * 3, 5, 6, 0:7:3],
    "weak_scalar": lambda xp: xp.r_[xp.asarray(F32)[::-2], 3.5, 2, True],
    "numpy_scalar": lambda xp: xp.r_[np.float32(1), 2.0, 3],
    "zero_d": lambda xp: xp.r_[xp.asarray(F)[1, 2], 1],
    "empty": lambda xp: xp.r_[xp.asarray(F)[:0, 0], [], 7],
    "last_axis": lambda xp: xp.r_["-1", xp.asarray(F).T[:3], xp.asarray(I)[:, ::-1][:3]],
    "ndmin2": lambda xp: xp.r_["0,2", [1, 2, 3], xp.asarray(I)[1, 1:]],
    "ndmin2_trans0": lambda xp: xp.r_["0,2,0", [1, 2, 3], xp.asarray(F)[0, ::-2]],
    "axis1_trans0": lambda xp: xp.r_["1,2,0", [1, 2, 3], xp.asarray(F)[:, 0]],
    "ndmin3_trans_neg2": lambda xp: xp.r_["0,3,-2", xp.asarray(I)[0], xp.asarray(I)[::-1]],
    "c_columns": lambda xp: xp.c_[xp.asarray(F)[:, 1], xp.asarray(I)[::-1, 2]],
    "c_slices": lambda xp: xp.c_[0:3, 1:4:3j, xp.asarray(F).T[1:, ::2]],
    "matrix_r": lambda xp: xp.r_["r", [1, 2, 3], xp.asarray(I)[2]],
    "matrix_c": lambda xp: xp.r_["c", xp.asarray(F)[0], 1],
    "matrix_squeezed": lambda xp: xp.r_["r", xp.asarray(F)[:, None, :]],
}


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")     # NumPy's matrix warns
@pytest.mark.parametrize("name", CONCAT_CASES)
def test_concatenators(name):
    _compare(CONCAT_CASES[name])


CONCAT_ERRORS = {
    "unknown": lambda xp: xp.r_["a", 1],
    "unknown_pair": lambda xp: xp.r_["0,a", 1],
    "directive_not_first": lambda xp: xp.r_[1, "0"],
    "nothing": lambda xp: xp.r_[()],
    "axis": lambda xp: xp.r_["1", xp.asarray(F)[0], 1],
    "shapes": lambda xp: xp.c_[xp.asarray(F), xp.asarray(F)[:2]],
    "overflow": lambda xp: xp.r_[xp.asarray(I).astype(np.uint8)[0], 300],
    "matrix_3d": lambda xp: xp.r_["r", xp.asarray(F)[None, :, :, None].repeat(2, 0)],
}


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_concatenator_errors():
    for name, call in CONCAT_ERRORS.items():
        raises_like(lambda: call(np), lambda: call(npgpu))


def test_matrix_string_syntax_is_refused():
    # numpy.bmat's string form builds numpy.matrix objects, which npgpu does not have
    with pytest.raises(NotImplementedError, match="matrix"):
        npgpu.r_["1 2; 3 4"]


# ---- fromfunction --------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda xp: xp.fromfunction(lambda i, j: i * 10 - j, (3, 4)),
    lambda xp: xp.fromfunction(lambda i, j, k=1: i * k + j, (2, 3), dtype=int, k=5),
    lambda xp: xp.fromfunction(lambda i, j: (i, j == 1), (2, 0), dtype=np.int32),
], ids=["float", "int_kwargs", "empty_tuple"])
def test_fromfunction(call):
    _compare(call)


# ---- apply_along_axis / apply_over_axes ----------------------------------------------------
AAA_CASES = {
    "sum_axis0": lambda xp: xp.apply_along_axis(xp.sum, 0, xp.asarray(F)),
    "sum_neg_axis_negstride": lambda xp: xp.apply_along_axis(xp.sum, -1, xp.asarray(I)[::-1]),
    "same_shape_transposed": lambda xp: xp.apply_along_axis(lambda v: v[::-1] * 2, 0,
                                                            xp.asarray(F).T),
    "2d_result": lambda xp: xp.apply_along_axis(lambda v: xp.stack([v, -v]), 1,
                                                xp.asarray(I)[:, 1:]),
    "args_kwargs": lambda xp: xp.apply_along_axis(lambda v, s, t=0: v[:2] * s + t, 1,
                                                  xp.asarray(I), 3, t=1),
    "empty_axis": lambda xp: xp.apply_along_axis(xp.sum, 0, xp.asarray(F)[:0]),
    "host_list_1d": lambda xp: xp.apply_along_axis(xp.sum, 0, [1, 2, 3]),
}


@pytest.mark.parametrize("name", AAA_CASES)
def test_apply_along_axis(name):
    _compare(AAA_CASES[name])


def test_apply_along_axis_errors():
    for call in [lambda xp: xp.apply_along_axis(xp.sum, 1, xp.asarray(F)[:0]),
                 lambda xp: xp.apply_along_axis(xp.sum, 2, xp.asarray(F)),
                 lambda xp: xp.apply_along_axis(xp.sum, 0, xp.asarray(F)[0, 0])]:
        raises_like(lambda: call(np), lambda: call(npgpu))


AOA_CASES = {
    "two_axes": lambda xp: xp.apply_over_axes(xp.sum, xp.asarray(F), [0, 1]),
    "negative_axis": lambda xp: xp.apply_over_axes(xp.sum, xp.asarray(I)[:, ::-1], -1),
    "max_3d": lambda xp: xp.apply_over_axes(xp.max, xp.asarray(I).reshape(3, 2, 2), (2, 0)),
}


@pytest.mark.parametrize("name", AOA_CASES)
def test_apply_over_axes(name):
    _compare(AOA_CASES[name])


def test_apply_over_axes_error():
    def call(xp):
        return xp.apply_over_axes(lambda a, ax: a.sum(), xp.asarray(F), 0)
    raises_like(lambda: call(np), lambda: call(npgpu))


# ---- piecewise -----------------------------------------------------------------------------
def _pw(x, cond, funcs, *args, **kw):
    return lambda xp: xp.piecewise(x(xp), cond(x(xp)), funcs, *args, **kw)


def _f(xp):
    return xp.asarray(F)


PW_CASES = {
    "two_funcs": _pw(_f, lambda x: [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2]),
    "otherwise_const": _pw(_f, lambda x: [x < 0], [lambda v: -v, 7.0]),
    "single_cond_consts": _pw(lambda xp: xp.asarray(F)[1, ::-1], lambda x: x < 0, [-1, 1]),
    "ints_later_wins": _pw(lambda xp: xp.asarray(I), lambda x: [x < 0, x > -3],
                           [-1, lambda v: v * 10]),
    # a 2-D condition array is a list of conditions to NumPy: here one, and an otherwise
    "2d_condlist": _pw(lambda xp: xp.asarray(F)[0], lambda x: x[None] > 0, [1, 2]),
    "args_kwargs": _pw(_f, lambda x: [x < 0], [lambda v, a, b=0: v * a + b], 2, b=1),
    "negative_stride": _pw(lambda xp: xp.asarray(F)[:, ::-2],
                           lambda x: [x < 0], [lambda v: -v, lambda v: v + 1]),
    "host_conds": _pw(lambda xp: xp.asarray(I)[0], lambda x: [True, False, True, False],
                      [lambda v: -v]),
    "zero_d": _pw(lambda xp: xp.asarray(F)[0, 0], lambda x: [True, False],
                  [lambda v: v * 2, 1.0]),
    # NumPy's ``x < 0`` of a 0-d x is a scalar, npgpu's a 0-d array: both one condition
    "zero_d_single": _pw(lambda xp: xp.asarray(F)[0, 0], lambda x: x < 0,
                         [lambda v: v * 2, lambda v: v - 1]),
    "empty": _pw(lambda xp: xp.asarray(F)[:0], lambda x: [x > 0], [lambda v: v + 1]),
}


@pytest.mark.parametrize("name", PW_CASES)
def test_piecewise(name):
    _compare(PW_CASES[name])


PW_ERRORS = {
    "too_few_funcs": _pw(_f, lambda x: [x < 0, x > 1], [1]),
    "too_many_funcs": _pw(_f, lambda x: [x < 0, x > 1], [1, 2, 3, 4]),
    "2d_array_is_a_list": _pw(_f, lambda x: x < 0, [1, 2]),
    "mask_shape": _pw(_f, lambda x: [x[:2] < 0], [lambda v: -v]),
}


def test_piecewise_errors():
    for name, call in PW_ERRORS.items():
        raises_like(lambda: call(np), lambda: call(npgpu))


# ---- device residency and dispatch ---------------------------------------------------------
def test_no_device_to_host_copies():
    a = npgpu.asarray(F)
    before = _transfer.d2h_count
    npgpu.mgrid[0:3, 0:1:4j]
    npgpu.ogrid[0:3, 0:1:4j]
    npgpu.r_[a[0], 0:2, 5, [1, 2]]
    npgpu.c_[a, a[:, ::-1]]
    npgpu.fromfunction(lambda i, j: i + j, (2, 3))
    npgpu.apply_along_axis(lambda v: v[::-1], 1, a)
    npgpu.apply_over_axes(npgpu.sum, a, [0, 1])
    npgpu.piecewise(a, [a < 0, a > 1], [1, 2])          # constants: no mask count is read
    assert _transfer.d2h_count == before


def test_numpy_dispatch():
    a = npgpu.asarray(F[0])
    for got in (np.piecewise(a, a < 0, [-1, 1]), np.apply_along_axis(np.sum, 0, a),
                np.apply_over_axes(np.sum, a, 0),
                np.fromfunction(lambda i: i * 2, (3,), like=a)):
        assert isinstance(got, npgpu.ndarray)
