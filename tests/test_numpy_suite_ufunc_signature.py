"""Found by NumPy's own ufunc tests (``_core/tests/test_ufunc.py``: ``TestLowlevelAPIAccess``,
``TestUFuncInspectSignature``): npgpu's ufuncs have ``resolve_dtypes`` (NumPy's answer and
errors) and NumPy's ``__signature__``, so ``inspect.signature`` shows NumPy's parameters."""
import inspect

import numpy
import pytest

import npgpu as np
from conftest import raises_like

RNG = numpy.random.default_rng(1313)

UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc))

I2, I4, I8 = numpy.dtype("i2"), numpy.dtype("i4"), numpy.dtype("i8")
F4, F8 = numpy.dtype("f4"), numpy.dtype("f8")


def test_every_ufunc_is_checked():
    assert len(UFUNCS) > 90 and "add" in UFUNCS and "divmod" in UFUNCS


@pytest.mark.parametrize("name", UFUNCS)
def test_signature_is_numpys(name):
    uf, want = getattr(np, name), getattr(numpy, name)
    assert isinstance(uf.__signature__, inspect.Signature)
    assert inspect.signature(uf) == uf.__signature__ == inspect.signature(want)
    pos = [p for p in inspect.signature(uf).parameters.values()
           if p.kind is p.POSITIONAL_ONLY]
    assert len(pos) == uf.nin


def test_signature_of_the_class_and_methods():
    # the instance descriptor must not hide the class's own signature from inspect
    assert not hasattr(np.ufunc, "__signature__")
    inspect.signature(np.ufunc)
    for m in ["__call__", "accumulate", "at", "outer", "reduce", "reduceat", "resolve_dtypes"]:
        inspect.signature(getattr(np.ufunc, m))
    assert (inspect.signature(np.add.resolve_dtypes)
            == inspect.signature(numpy.add.resolve_dtypes))


@pytest.mark.parametrize("name", UFUNCS)
def test_resolve_dtypes_every_loop(name):
    uf, want = getattr(np, name), getattr(numpy, name)
    for t in uf.types:
        ins = tuple(numpy.dtype(c) for c in t.split("->")[0])
        args = ins + (None,) * uf.nout
        assert uf.resolve_dtypes(args) == want.resolve_dtypes(args), t


@pytest.mark.parametrize("args, kw", [
    ((I4, F4, None), {}),
    ((I4, I4, None), {"signature": (None, None, "f4")}),
    ((F4, int, None), {}),
    ((I2, float, None), {}),
    ((numpy.dtype("u1"), complex, None), {}),
    ((int, float, None), {}),
    ((I4, I8, None), {"casting": "safe"}),
    ((I4, F8, F4), {"casting": "unsafe"}),
    ((None, I2, None), {"reduction": True}),
    ((None, numpy.dtype("?"), None), {"reduction": True}),
    ((I4, I4, None), {"signature": "ff->f"}),
])
def test_resolve_dtypes_add(args, kw):
    assert np.add.resolve_dtypes(args, **kw) == numpy.add.resolve_dtypes(args, **kw)


@pytest.mark.parametrize("name, args", [
    ("equal", (I4, I8, None)),
    ("less", (numpy.dtype("u8"), I8, None)),
    ("divmod", (I4, F4, None, None)),
    ("frexp", (F4, None, None)),
    ("sqrt", (I2, None)),
    ("true_divide", (I8, I8, None)),
    ("logical_and", (F8, numpy.dtype("c8"), None)),
])
def test_resolve_dtypes_others(name, args):
    assert getattr(np, name).resolve_dtypes(args) == getattr(numpy, name).resolve_dtypes(args)


def test_resolve_dtypes_defaults_given_explicitly():
    # NumPy's documented defaults; NumPy itself rejects them passed explicitly
    got = np.add.resolve_dtypes((I4, F4, None), signature=None, casting=None, reduction=False)
    assert got == numpy.add.resolve_dtypes((I4, F4, None))


@pytest.mark.parametrize("name, args, kw", [
    ("add", (I4, F4, None), {"casting": "no"}),
    ("add", (I4, I4), {}),
    ("add", (None, I4, F4), {}),
    ("add", (I4, None, F4), {}),
    ("add", ("i4", "i4", None), {}),
    ("add", (None, I2, I2), {}),
    ("add", (I4, I4, I4), {"reduction": True}),
    ("add", (I4, I4, None), {"signature": 5}),
    ("add", (I4, I4, None), {"casting": "bogus"}),
    ("add", (F8, F8, I4), {}),
    ("add", [I4, I4, None], {}),
    ("add", (numpy.float16, numpy.int8, None), {}),
    ("sin", (I4, I4, None), {}),
    ("bitwise_and", (F4, F4, None), {}),
    ("invert", (F8, None), {}),
])
def test_resolve_dtypes_errors(name, args, kw):
    raises_like(lambda: getattr(numpy, name).resolve_dtypes(args, **kw),
                lambda: getattr(np, name).resolve_dtypes(args, **kw))


def test_resolve_dtypes_argument_errors():
    with pytest.raises(TypeError):
        np.add.resolve_dtypes()
    with pytest.raises(TypeError):
        np.add.resolve_dtypes((I4, I4, None), foo=1)
    with pytest.raises(TypeError):
        np.add.resolve_dtypes((I4, I4, None), None)


@pytest.mark.parametrize("dt", ["O", "U3", "S2", "M8[s]"])
def test_resolve_dtypes_unsupported(dt):
    # a loop npgpu does not run is npgpu's TypeError, as calling the ufunc is
    dt = numpy.dtype(dt)
    with pytest.raises(TypeError, match="npgpu does not support dtype"):
        np.equal.resolve_dtypes((dt, dt, None))


@pytest.mark.parametrize("name, d1, d2", [
    ("add", numpy.int8, numpy.float32),
    ("multiply", numpy.uint16, numpy.int16),
    ("true_divide", numpy.int32, numpy.int32),
    ("greater", numpy.float16, numpy.int64),
    ("arctan2", numpy.uint8, numpy.float16),
])
def test_resolve_dtypes_is_what_the_call_runs(name, d1, d2):
    uf = getattr(np, name)
    a = RNG.integers(1, 50, (3, 4)).astype(d1)
    b = RNG.integers(1, 50, (4,)).astype(d2)
    want = uf.resolve_dtypes((a.dtype, b.dtype, None))
    got = uf(np.asarray(a), np.asarray(b)[::-1])
    assert got.dtype == want[-1]
    numpy.testing.assert_allclose(got.get(), getattr(numpy, name)(a, b[::-1]), rtol=1e-3)
