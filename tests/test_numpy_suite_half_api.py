"""Defects found by NumPy's own test_half and test_api tests, each checked against NumPy:
``astype(copy=False)`` copies where the layout does not meet ``order`` and refuses a
``_CopyMode``; ``copyto`` takes a list or scalar ``where=`` as a bool mask; ``ndarray.flags``
keeps its layout flags read-only and its keys to NumPy's names."""
import numpy
import pytest

import npgpu as np
from conftest import assert_same, raises_like, random_array

DTYPES = ["bool", "int8", "uint16", "int64", "float16", "float32", "float64", "complex64"]


def _layouts(host):
    """(name, device array, host array) pairs of equal values and NumPy's layout."""
    big = numpy.repeat(host[..., None], 2, axis=-1)
    return [("C", np.asarray(host), host),
            ("F", np.asarray(numpy.ascontiguousarray(host.T)).T,
             numpy.ascontiguousarray(host.T).T),
            ("strided", np.asarray(big)[..., 1], big[..., 1]),
            ("negative", np.asarray(host)[::-1, ::-1], host[::-1, ::-1]),
            ("zero_d", np.asarray(host[0, 0]), numpy.array(host[0, 0])),
            ("empty", np.asarray(host)[:0], host[:0]),
            ("row", np.asarray(host)[:1], host[:1])]


# ---- astype: copy=False meets ``order`` --------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", ["K", "A", "C", "F", "c", None])
def test_astype_no_copy_only_when_order_met(dtype, order, rng):
    host = random_array((3, 4), dtype, rng)
    for name, d, h in _layouts(host):
        want = h.astype(dtype, order=order, copy=False)
        got = d.astype(dtype, order=order, copy=False)
        assert (got is d) == (want is h), (name, order)
        assert_same(got, want)
        if order not in ("K", None):        # (npgpu's order K: documented in differences.md)
            assert got.flags.c_contiguous == want.flags.c_contiguous, name
            assert got.flags.f_contiguous == want.flags.f_contiguous, name


@pytest.mark.parametrize("dtype", ["int32", "float16", "complex128"])
def test_astype_cast_with_copy_false_still_copies(dtype, rng):
    host = random_array((3, 4), "float32", rng)
    for name, d, h in _layouts(host):
        got, want = d.astype(dtype, order="F", copy=False), h.astype(dtype, order="F", copy=False)
        assert got is not d
        assert_same(got, want)
        assert got.flags.f_contiguous == want.flags.f_contiguous, name


@pytest.mark.parametrize("mode", ["ALWAYS", "IF_NEEDED", "NEVER"])
@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_astype_refuses_copy_mode(mode, dtype):
    h = numpy.arange(10, dtype=numpy.float32)
    d = np.asarray(h)
    m = getattr(numpy._CopyMode, mode)
    raises_like(lambda: h.astype(dtype, copy=m), lambda: d.astype(dtype, copy=m))


def test_astype_checks_order_before_the_cast():
    h = numpy.arange(6.0).reshape(2, 3)
    d = np.asarray(h)
    raises_like(lambda: h.astype("i4", order="X", casting="safe"),
                lambda: d.astype("i4", order="X", casting="safe"))
    raises_like(lambda: h.astype("i4", casting="safe"), lambda: d.astype("i4", casting="safe"))


# ---- copyto: where= as NumPy discovers it ------------------------------------------------------
@pytest.mark.parametrize("where", [
    [[0, 1, 1, 0], [1, 0, 0, 1], [0, 0, 1, 1]], [1, 0, 2, 0], [0.0, 2.5, -1.0, 0.0],
    (1, 0, 0, 1), [numpy.int64(1), 0, 1, 0], 1, 0, 2.5, numpy.int64(1), None,
    [[True], [False], [True]]])
@pytest.mark.parametrize("dtype", ["int32", "float16", "complex64"])
def test_copyto_where_list_or_scalar_is_a_bool_mask(where, dtype, rng):
    dst = random_array((3, 4), dtype, rng)
    src = random_array((3, 4), dtype, rng)
    for name, d, h in _layouts(dst)[:4]:
        h = h.copy() if name == "C" else h
        d_src = np.asarray(src)
        numpy.copyto(h, src, where=where)
        np.copyto(d, d_src, where=where)
        assert_same(d, h)
        numpy.copyto(h, 7, casting="unsafe", where=where)
        np.copyto(d, 7, casting="unsafe", where=where)
        assert_same(d, h)


@pytest.mark.parametrize("mask_dtype", ["int8", "int64", "float32"])
def test_copyto_where_array_needs_a_safe_cast_to_bool(mask_dtype, rng):
    h = random_array((3, 4), "float64", rng)
    mask = random_array((3, 4), mask_dtype, rng)
    d = np.asarray(h)
    raises_like(lambda: numpy.copyto(h, 1.0, where=mask), lambda: np.copyto(d, 1.0, where=mask))
    raises_like(lambda: numpy.copyto(h, 1.0, where=mask),
                lambda: np.copyto(d, 1.0, where=np.asarray(mask)))


def test_copyto_list_where_still_checks_the_cast_and_shape():
    h = numpy.arange(6, dtype="i4").reshape(2, 3)
    d = np.asarray(h)
    raises_like(lambda: numpy.copyto(h, 3.5, where=[True, False, True]),
                lambda: np.copyto(d, 3.5, where=[True, False, True]))
    raises_like(lambda: numpy.copyto(h, 3, where=[[1, 0, 1]] * 3),
                lambda: np.copyto(d, 3, where=[[1, 0, 1]] * 3))


# ---- flags: read-only layout flags, NumPy's keys -----------------------------------------------
@pytest.mark.parametrize("name", ["c_contiguous", "f_contiguous", "owndata", "contiguous",
                                  "fnc", "forc", "carray", "farray", "behaved", "fortran"])
def test_flags_layout_attributes_are_read_only(name):
    h = numpy.zeros((2, 3))
    d = np.asarray(h)
    with pytest.raises(AttributeError):
        setattr(h.flags, name, False)
    with pytest.raises(AttributeError):
        setattr(d.flags, name, False)
    assert getattr(d.flags, name) == getattr(h.flags, name)


@pytest.mark.parametrize("key", ["Z", "q", "c_contiguous", "owndata", "ca", "Fnc", 1, None])
def test_flags_unknown_key(key):
    h = numpy.zeros((2, 3))
    d = np.asarray(h)
    raises_like(lambda: h.flags[key], lambda: d.flags[key])


@pytest.mark.parametrize("key", ["C", "F", "W", "A", "O", "B", "X", "CA", "FA", "FNC", "FORC",
                                 "CONTIGUOUS", "FORTRAN", "OWNDATA", "ALIGNED", "WRITEABLE",
                                 "BEHAVED", "CARRAY", "FARRAY", "C_CONTIGUOUS", "F_CONTIGUOUS",
                                 "WRITEBACKIFCOPY"])
def test_flags_known_keys(key, rng):
    host = random_array((3, 4), "float32", rng)
    for name, d, h in _layouts(host):
        assert d.flags[key] == h.flags[key], (name, key)
