"""From NumPy's _core/tests/test_multiarray.py (TestFlags, TestIO, TestFromBuffer and the other
classes run last): npgpu.testing reads ``a.flat``; ``fromstring`` without a separator is
NumPy's ValueError; ``frombuffer`` of a read-only buffer is read-only; the settable flags
(``aligned``, ``writebackifcopy``), their item keys and the flags' repr are NumPy's."""
import numpy
import pytest

import npgpu as np
import npgpu.testing as npt
from conftest import ALL_DTYPES, assert_same, error_of, make_layout, random_array, raises_like

RNG = numpy.random.default_rng(7351)
FLAGS = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY",
         "FNC", "FORC", "BEHAVED", "CARRAY", "FARRAY")


# ---- npgpu.testing reads flat iterators -------------------------------------------------------
@pytest.mark.parametrize("dt", [numpy.bool_, numpy.int16, numpy.uint32, numpy.float32,
                                numpy.complex128], ids=str)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided", "negative",
                                    "zero_d", "empty"])
def test_assertions_read_flat_iterators(dt, layout):
    d, h = make_layout(random_array((3, 5), dt, RNG), layout)
    npt.assert_array_equal(d.flat, h.flat)
    npt.assert_equal(np.asarray(h.ravel()), d.flat)
    npt.assert_allclose(d.flat, h.ravel())
    if h.size:
        with pytest.raises(AssertionError):
            npt.assert_array_equal(d.flat, h.ravel()[::-1] + 1)


def test_file_round_trip_compared_with_flat(tmp_path):
    # TestIO's check: what tofile wrote, fromfile/frombuffer read back, equals x.flat
    h = RNG.random((2, 4, 3)) + 1j * RNG.random((2, 4, 3))
    h[0, :, 1] = [numpy.nan, numpy.inf, -numpy.inf, numpy.nan]
    x = np.asarray(h)[:, ::-1]
    x.tofile(tmp_path / "x.bin")
    npt.assert_array_equal(np.fromfile(tmp_path / "x.bin", dtype=x.dtype), x.flat)
    npt.assert_array_equal(np.frombuffer(x.tobytes(), dtype=x.dtype), x.flat)


# ---- fromstring / frombuffer ------------------------------------------------------------------
@pytest.mark.parametrize("args, kw", [(("1 2",), {}), ((b"\x01\x00\x00\x00",), {"dtype": "i4"}),
                                      ((b"1234" * 12,), {"dtype": "(3,4)i4"}),
                                      (("1,2",), {"sep": ""})])
def test_fromstring_binary_mode_is_numpys_error(args, kw):
    raises_like(lambda: numpy.fromstring(*args, **kw), lambda: np.fromstring(*args, **kw))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_frombuffer_read_only_buffer_gives_read_only_array(dt):
    raw = random_array((6,), dt, RNG).tobytes()
    for buf in (raw, memoryview(bytearray(raw)).toreadonly()):
        got, want = np.frombuffer(buf, dtype=dt), numpy.frombuffer(buf, dtype=dt)
        assert_same(got, want)
        assert got.flags.writeable is want.flags.writeable is False
        raises_like(lambda: want.__setitem__(0, 1), lambda: got.__setitem__(0, 1))
        raises_like(lambda: want.setflags(write=True), lambda: got.setflags(write=True))
        # its views too: never writeable
        v = got[1:]
        raises_like(lambda: want[1:].setflags(write=True), lambda: v.setflags(write=True))
        # a copy is writeable, as NumPy's
        assert got.copy().flags.writeable is want.copy().flags.writeable is True


def test_frombuffer_writeable_buffer_gives_writeable_array():
    buf = bytearray(RNG.integers(0, 255, 16, dtype=numpy.uint8).tobytes())
    got, want = np.frombuffer(buf, "B", count=8, offset=4), numpy.frombuffer(buf, "B", 8, 4)
    assert got.flags.writeable is want.flags.writeable is True
    got.setflags(write=False)
    assert got.flags.writeable is False
    got.setflags(write=True)
    got[0] = 7
    assert int(got[0]) == 7


# ---- flags: aligned, writebackifcopy, item keys, repr -----------------------------------------
def _views(xp, h):
    a = xp.asarray(h)
    return [a, a.T, a[::2], a[:, ::-1], a[0], a[..., :1], a.reshape(-1), a[None], a.real]


def _flag_state(a):
    return tuple(a.flags[k] for k in FLAGS), repr(a.flags)


@pytest.mark.parametrize("dt", [numpy.int8, numpy.float32, numpy.complex128], ids=str)
def test_setflags_align_and_writeable_match_numpy(dt):
    h = random_array((4, 6), dt, RNG)
    for got, want in zip(_views(np, h), _views(numpy, h.copy())):
        for kw in ({"align": False}, {"write": False}, {"align": True}, {"write": True},
                   {"align": False, "write": False}, {"uic": False}, {"align": True},
                   {"uic": True}):
            assert error_of(lambda: got.setflags(**kw)) == error_of(lambda: want.setflags(**kw))
            assert _flag_state(got) == _flag_state(want), kw
        got.flags.aligned = False
        want.flags.aligned = False
        assert _flag_state(got) == _flag_state(want)
        # views and copies of an array whose flag was cleared are aligned again (NumPy's)
        assert _flag_state(got[...]) == _flag_state(want[...])
        assert _flag_state(got.copy()) == _flag_state(want.copy())
        got.flags.aligned = True
        want.flags.aligned = True
        assert _flag_state(got) == _flag_state(want)


def test_flags_compare_with_alignment():
    a, b = np.arange(6.0), np.arange(6.0)
    assert a.flags == b.flags
    a.setflags(align=False)
    assert a.flags != b.flags
    a.flags["A"] = True
    assert a.flags == b.flags


@pytest.mark.parametrize("name, value", [("writebackifcopy", True), ("writebackifcopy", False),
                                         ("aligned", True), ("aligned", False),
                                         ("writeable", False), ("c_contiguous", True),
                                         ("owndata", False), ("fnc", True), ("behaved", True)])
def test_flag_attribute_assignment_matches_numpy(name, value):
    got, want = np.arange(6), numpy.arange(6)
    e_got = error_of(lambda: setattr(got.flags, name, value))
    e_want = error_of(lambda: setattr(want.flags, name, value))
    # the class; for a read-only flag Python's own AttributeError text differs in wording
    assert (e_got and e_got[0]) == (e_want and e_want[0])
    if e_want and e_want[0] is ValueError:
        assert e_got == e_want
    assert _flag_state(got) == _flag_state(want)


@pytest.mark.parametrize("key", ["W", "WRITEABLE", "A", "ALIGNED", "X", "WRITEBACKIFCOPY", b"W",
                                 b"A", "writeable", "w", "aligned", "C", "O", "BEHAVED", "FOO",
                                 1, None])
@pytest.mark.parametrize("value", [False, True])
def test_flag_item_assignment_matches_numpy(key, value):
    got, want = np.arange(6), numpy.arange(6)
    assert error_of(lambda: got.flags.__setitem__(key, value)) == \
        error_of(lambda: want.flags.__setitem__(key, value))
    assert _flag_state(got) == _flag_state(want)


@pytest.mark.parametrize("key", ["C", "F", "W", "A", "X", "O", "B", "CA", "FA", "FNC", "FORC",
                                 b"C", b"CONTIGUOUS", b"WRITEABLE", "c", "writeable", "FOO", 0])
def test_flag_item_lookup_matches_numpy(key):
    got, want = np.arange(6.0)[::2], numpy.arange(6.0)[::2]
    assert error_of(lambda: got.flags[key]) == error_of(lambda: want.flags[key])
    if error_of(lambda: want.flags[key]) is None:
        assert got.flags[key] == want.flags[key]


def test_flags_repr_is_numpys():
    h = numpy.zeros((3, 1))
    for got, want in zip(_views(np, h), _views(numpy, h)):
        assert repr(got.flags) == repr(want.flags) and str(got.flags) == str(want.flags)
    got, _ = np.broadcast_arrays(np.arange(3), np.zeros((2, 1), int))
    want, _ = numpy.broadcast_arrays(numpy.arange(3), numpy.zeros((2, 1), int))
    assert repr(got.flags) == repr(want.flags)      # "(with WARN_ON_WRITE=True)"


# ---- the deprecated strides setter (NumPy 2.4: still works, with a DeprecationWarning) --------
def _restride(a, strides):
    with pytest.warns(DeprecationWarning, match="Setting the strides"):
        a.strides = strides
    return a


@pytest.mark.parametrize("dt", [numpy.int16, numpy.float32, numpy.float64, numpy.complex128],
                         ids=str)
@pytest.mark.parametrize("case", ["transpose", "every_other", "reverse_tail", "broadcast_row"])
def test_strides_setter_as_numpy(dt, case):
    h = random_array((24,), dt, RNG)
    d = np.asarray(h)
    isz = h.itemsize
    hv, dv, strides = {
        "transpose": (h.reshape(4, 6), d.reshape(4, 6), (isz, 4 * isz)),
        "every_other": (h[:12], d[:12], (2 * isz,)),
        "reverse_tail": (h[11:23], d[11:23], (-isz,)),  # backwards from index 11, in the owner
        "broadcast_row": (h.reshape(4, 6), d.reshape(4, 6), (0, isz)),
    }[case]
    with pytest.warns(DeprecationWarning):
        hv.strides = strides
    _restride(dv, strides)
    assert dv.strides == hv.strides
    assert dv.flags.c_contiguous == hv.flags.c_contiguous
    assert dv.flags.f_contiguous == hv.flags.f_contiguous
    assert_same(dv, hv)
    assert_same(dv + 1, hv + 1)         # a kernel reads the new layout, not a remembered one


@pytest.mark.parametrize("make, strides", [
    (lambda m: m.arange(12.0), (16,)),                  # past the end of the allocation
    (lambda m: m.arange(12.0)[::2], (24,)),             # a view: its owner's bytes count
    (lambda m: m.arange(12.0)[2:], (-8,)),              # before the start of the allocation
    (lambda m: m.arange(12.0), (8, 8)),                 # wrong length
    (lambda m: m.arange(12.0), ("a",)),                 # not integers
])
def test_strides_setter_errors_as_numpy(make, strides):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        h, d = make(numpy), make(np)
        raises_like(lambda: setattr(h, "strides", strides),
                    lambda: setattr(d, "strides", strides))
    npt.assert_array_equal(d, h)        # unchanged after the error


def test_strides_setter_refuses_misaligned():
    d = np.arange(12.0)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="align"):
        d.strides = (3,)                # NumPy makes an unaligned view; npgpu never does
