"""NEP 35 ``like=``: another library's reference array gets the creation call (as NumPy's
test_overrides checks), npgpu's and NumPy's arrays change nothing, anything else is NumPy's
TypeError."""
import inspect
from io import StringIO

import numpy
import pytest

import npgpu as np


class _MyArray:
    """A foreign array type: its ``__array_function__`` answers the functions it defines."""

    def __array_function__(self, func, types, args, kwargs):
        assert func is getattr(np, func.__name__) and types == (type(self),)
        assert "like" not in kwargs
        impl = getattr(self, func.__name__, None)
        return NotImplemented if impl is None else impl(*args, **kwargs)


def _calls(name):
    def record(*args, **kwargs):
        return (name, args, kwargs)
    return record


_CASES = [
    ("array", (1,), {}), ("asarray", ([1, 2],), {"dtype": numpy.float32}),
    ("asanyarray", (1,), {}), ("ascontiguousarray", ((2, 3),), {}),
    ("asfortranarray", ((2, 3),), {}), ("require", ([1],), {"requirements": ["A", "F"]}),
    ("empty", (1,), {}), ("full", ((2,), 2), {}), ("ones", (3,), {"dtype": numpy.int8}),
    ("zeros", ((2, 2),), {}), ("arange", (3,), {}), ("arange", (1, 7, 2), {"dtype": float}),
    ("eye", (3,), {"k": 1}), ("identity", (2,), {}), ("tri", (3,), {}),
    ("frombuffer", (b"\x00" * 8,), {"dtype": numpy.int64}),
    ("fromiter", (range(3),), {"dtype": numpy.int64}),
    ("fromstring", ("1,2",), {"dtype": numpy.int64, "sep": ","}),
    ("loadtxt", (StringIO("0 1\n2 3"),), {}),
    ("fromfunction", (lambda i, j: i + j, (2, 2)), {}),
]


@pytest.mark.parametrize("name, args, kwargs", _CASES, ids=[c[0] for c in _CASES])
def test_foreign_like_gets_the_call(name, args, kwargs):
    ref = _MyArray()
    setattr(ref, name, _calls(name))
    got = getattr(np, name)(*args, **kwargs, like=ref)
    assert got[0] == name
    # the caller's arguments, without like= (a parameter with no default may come positional)
    sig = inspect.signature(getattr(np, name))
    assert sig.bind(*got[1], **got[2]).arguments == sig.bind(*args, **kwargs).arguments
    assert not (set(got[2]) - set(kwargs))


@pytest.mark.parametrize("name, args, kwargs", _CASES[:12], ids=[c[0] for c in _CASES[:12]])
def test_device_or_host_array_like_changes_nothing(name, args, kwargs):
    want = getattr(np, name)(*args, **kwargs)
    for ref in (np.asarray([1.0]), numpy.ones(2)):
        got = getattr(np, name)(*args, **kwargs, like=ref)
        assert isinstance(got, np.ndarray)
        if name != "empty":
            numpy.testing.assert_array_equal(got.get(), want.get())
        assert got.dtype == want.dtype and got.shape == want.shape


@pytest.mark.parametrize("name", ["asarray", "zeros", "arange", "loadtxt", "tri"])
def test_like_without_array_function_is_numpys_type_error(name):
    args = {"loadtxt": (StringIO("1 2"),)}.get(name, (2,))
    with pytest.raises(TypeError) as want:
        getattr(numpy, name)(*args, like=object())
    with pytest.raises(TypeError) as got:
        getattr(np, name)(*args, like=object())
    assert str(got.value) == str(want.value)


def test_declined_call_is_numpys_no_implementation_error():
    with pytest.raises(TypeError, match="no implementation found for 'numpy.asarray'"):
        np.asarray(1, like=_MyArray())


def test_array_function_checks_its_arguments_as_numpy():
    a, h = np.asarray([1, 2]), numpy.array([1, 2])
    for args, kwargs, msg in [(a, (2, 1), "args must be a tuple"),
                              ((a,), (2, 1), "kwargs must be a dict")]:
        with pytest.raises(TypeError, match=msg):
            h.__array_function__(numpy.reshape, (numpy.ndarray,), args, kwargs)
        with pytest.raises(TypeError, match=msg):
            a.__array_function__(numpy.reshape, (np.ndarray,), args, kwargs)
    assert a.__array_function__(numpy.reshape, (np.ndarray,), (a, (2, 1)), {}).shape == (2, 1)
