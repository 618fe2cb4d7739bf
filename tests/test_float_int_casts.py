"""Float-to-integer casts outside the target's range, as NumPy gives them on x86
(``npgpu/_codegen/casts.py``): the GPU's conversions saturate, NumPy's keep the low bits of a
32- or 64-bit truncation (negative floats to unsigned wrap, NaN to int32 is -2**31)."""
import numpy
import pytest

import npgpu as np

EDGES = [-3.7, 200.5, 300.2, -200.7, 70000.9, -70000.2, 3e9, -3e9, 1e19, 2e19, numpy.nan,
         numpy.inf, -numpy.inf, -1e19, 0.0, -0.0, 127.9, -128.9, 255.5, 65535.9]


@pytest.mark.parametrize("src", ["float16", "float32", "float64"])
@pytest.mark.parametrize("dst", ["int8", "uint8", "int16", "uint16", "int32", "int64",
                                 "uint64", "bool"])
def test_astype_out_of_range(src, dst):
    rng = numpy.random.default_rng(3)
    with numpy.errstate(all="ignore"):
        h = numpy.concatenate([numpy.array(EDGES), rng.uniform(-400, 400, 40)]).astype(src)
        want = h.astype(dst)
        want_rev = h[::-3].astype(dst)
    a = np.asarray(h)
    numpy.testing.assert_array_equal(a.astype(dst).get(), want)
    numpy.testing.assert_array_equal(a[::-3].astype(dst).get(), want_rev)


def test_uint32_in_int64_range():
    """uint32 from floats in (-2**31, 2**63): the low 32 bits of the int64 truncation."""
    h = numpy.array([-3.7, -200.7, -70000.2, 3e9, 4294967295.5, 1e19, numpy.inf])
    with numpy.errstate(all="ignore"):
        want = h.astype(numpy.uint32)
    numpy.testing.assert_array_equal(np.asarray(h).astype(numpy.uint32).get(), want)


def test_ufunc_output_cast_and_filter():
    """The same conversion in a ufunc's unsafe output cast and in ndimage's float sums
    stored as uint8 (SciPy's C loops truncate the same way)."""
    h = numpy.array([-3.7, 2.5, 300.2, -0.5], numpy.float64)
    out = np.empty(4, numpy.uint8)
    np.add(np.asarray(h), 0.25, out=out, casting="unsafe")
    with numpy.errstate(all="ignore"):
        numpy.testing.assert_array_equal(out.get(), (h + 0.25).astype(numpy.uint8))
