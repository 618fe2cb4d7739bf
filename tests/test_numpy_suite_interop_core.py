"""From NumPy's lib/tests/test_format.py and _core/tests/test_deprecations.py: npgpu.lib.format
(the .npy format of device arrays), NumPy 2's deprecation warnings of ``row_stack`` and of a
positional ``out`` of ``maximum``/``minimum``, and dtype metadata not handed on to other
arrays."""
import io
import warnings

import numpy
import pytest

import npgpu as np
from conftest import ALL_DTYPES, LAYOUTS, assert_same, make_layout, random_array, raises_like

RNG = numpy.random.default_rng(4417)


def _npy(write, arr, **kw):
    f = io.BytesIO()
    write(f, arr, **kw)
    return f.getvalue()


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_format_write_array_writes_numpys_bytes(dt, layout):
    d, h = make_layout(random_array((4, 5), dt, RNG), layout)
    assert np.lib.format.header_data_from_array_1_0(d) == \
        numpy.lib.format.header_data_from_array_1_0(h)
    for version in (None, (1, 0), (2, 0), (3, 0)):
        got = _npy(np.lib.format.write_array, d, version=version)
        assert got == _npy(numpy.lib.format.write_array, h, version=version)
        back = np.lib.format.read_array(io.BytesIO(got))
        want = numpy.lib.format.read_array(io.BytesIO(got))
        assert isinstance(back, np.ndarray)
        assert_same(back, want)
        assert (back.flags.c_contiguous, back.flags.f_contiguous) == \
            (want.flags.c_contiguous, want.flags.f_contiguous)      # a fortran_order file: F


def test_format_read_array_errors_are_numpys():
    data = _npy(numpy.lib.format.write_array, random_array((3, 4), numpy.float32, RNG))
    raises_like(lambda: numpy.lib.format.read_array(io.BytesIO(data[:-1])),
                lambda: np.lib.format.read_array(io.BytesIO(data[:-1])))
    raises_like(lambda: numpy.lib.format.read_array(io.BytesIO(data[:20])),
                lambda: np.lib.format.read_array(io.BytesIO(data[:20])))
    raises_like(lambda: numpy.lib.format.read_array(io.BytesIO(data), max_header_size=10),
                lambda: np.lib.format.read_array(io.BytesIO(data), max_header_size=10))
    obj = _npy(numpy.lib.format.write_array, numpy.array([1, None], dtype=object))
    raises_like(lambda: numpy.lib.format.read_array(io.BytesIO(obj)),
                lambda: np.lib.format.read_array(io.BytesIO(obj)))
    # the header functions hold no data: NumPy's own
    assert np.lib.format.read_magic is numpy.lib.format.read_magic
    assert np.lib.format.MAGIC_PREFIX == numpy.lib.format.MAGIC_PREFIX
    assert not hasattr(np.lib.format, "open_memmap")


@pytest.mark.parametrize("name", ["maximum", "minimum"])
@pytest.mark.parametrize("dt", [numpy.int32, numpy.float32, numpy.float64], ids=str)
def test_extremum_positional_out_is_deprecated(name, dt):
    ha, hb = random_array((3, 4), dt, RNG), random_array((3, 4), dt, RNG)[:, ::-1]
    a, b = np.asarray(ha), np.asarray(hb[:, ::-1].copy())[:, ::-1]     # b: negative strides
    want_out = numpy.empty((3, 4), dt)
    with pytest.warns(DeprecationWarning) as want:
        getattr(numpy, name)(ha, hb, want_out)
    out = np.empty((3, 4), dt)
    with pytest.warns(DeprecationWarning) as got:
        res = getattr(np, name)(a, b, out)
    assert [str(w.message) for w in got] == [str(w.message) for w in want]
    assert got[0].filename == __file__          # the warning names the caller
    assert res is out
    assert_same(out, want_out)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        getattr(np, name)(a, b, out=out)        # the keyword form stays quiet
        getattr(np, name)(a, b)


def test_row_stack_is_deprecated():
    parts = [random_array((2, 3), numpy.int16, RNG), random_array((3,), numpy.int16, RNG)]
    with pytest.warns(DeprecationWarning) as want:
        expected = numpy.row_stack(parts)
    with pytest.warns(DeprecationWarning) as got:
        res = np.row_stack([np.asarray(p) for p in parts])
    assert [str(w.message) for w in got] == [str(w.message) for w in want]
    assert got[0].filename == __file__
    assert_same(res, expected)
    with pytest.warns(DeprecationWarning):
        assert_same(np.row_stack([np.asarray(p) for p in parts], dtype=numpy.float32),
                    numpy.vstack(parts, dtype=numpy.float32))


def test_dtype_metadata_is_not_handed_on():
    # a dtype with metadata equals the plain one: it must not become every later array's dtype
    meta = numpy.dtype(numpy.int64, metadata={"some": "stuff"})
    for make in (lambda: np.ones(3, dtype=meta), lambda: np.asarray(numpy.ones(3, meta)),
                 lambda: np.arange(3).astype(meta)):
        x = make()
        assert x.dtype == numpy.int64 and x.dtype.metadata is None
        assert np.arange(3).dtype.metadata is None
        assert np.zeros(2, dtype=int).dtype.metadata is None
        assert_same(x, numpy.ones(3, numpy.int64) if x.get()[0] else numpy.arange(3))
