"""Regressions from a probe of npgpu.scipy.ndimage against SciPy on bad or unusual input:
error classes and messages, result dtypes and values (tiny arrays: the simulator is slow)."""
import numpy
import pytest
import scipy.ndimage as snd

import npgpu as gp
import npgpu.scipy.ndimage as gnd

rng = numpy.random.default_rng(1234)
F = rng.random((5, 6))
B = rng.random((5, 6)) > 0.4
C = rng.random((5, 6)) + 1j * rng.random((5, 6))
S = numpy.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)


def _dev(v):
    return gp.asarray(v) if isinstance(v, numpy.ndarray) else v


def _same_error(name, *args, **kw):
    with pytest.raises(Exception) as se:
        getattr(snd, name)(*args, **kw)
    with pytest.raises(Exception) as ge:
        getattr(gnd, name)(*[_dev(a) for a in args], **{k: _dev(v) for k, v in kw.items()})
    assert type(ge.value) is type(se.value)
    assert str(ge.value) == str(se.value)


def _same_result(name, *args, rtol=1e-10, **kw):
    want = getattr(snd, name)(*args, **kw)
    got = getattr(gnd, name)(*[_dev(a) for a in args], **{k: _dev(v) for k, v in kw.items()})
    got = got.get()
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("cval", ["a", None, 1 + 2j])
@pytest.mark.parametrize("name,args", [("uniform_filter", ()), ("median_filter", (3,)),
                                       ("shift", (0.5,)), ("grey_erosion", ())])
def test_cval_not_real(name, args, cval):
    kw = {"structure": S * 0.5} if name == "grey_erosion" else {}
    _same_error(name, F, *args, mode="constant", cval=cval, **kw)


@pytest.mark.parametrize("name,args", [("gaussian_filter", (1,)), ("minimum_filter", (3,)),
                                       ("uniform_filter1d", (3,)), ("correlate", (S * 1.0,)),
                                       ("median_filter", (3,)), ("laplace", ())])
def test_unsupported_dtypes(name, args):
    _same_error(name, F.astype(numpy.float16), *args)
    _same_error(name, F, *args, output=numpy.zeros((5, 6), numpy.complex128))
    _same_error(name, F, *args, output=numpy.complex64)


@pytest.mark.parametrize("name,args,kw", [
    ("gaussian_filter", (B, 1), {}), ("uniform_filter", (B,), {}),
    ("minimum_filter", (F, 3), {"output": bool}), ("median_filter", (F, 3), {"output": bool}),
    ("correlate1d", (F, [0.2, 0.5]), {"output": bool}),
    ("grey_dilation", (F,), {"structure": S * 0.5, "output": bool})])
def test_bool_output_truncates(name, args, kw):
    _same_result(name, *args, **kw)


def test_filter_argument_checks():
    _same_error("median_filter", F, 3, mode=["reflect", "nearest", "wrap"])
    _same_error("uniform_filter1d", F, 2.5)
    _same_error("minimum_filter", F, 3, origin=1.5)


@pytest.mark.parametrize("name", ["correlate", "convolve", "correlate1d", "convolve1d"])
def test_complex_weights(name):
    w = rng.random((3, 3)) + 1j * rng.random((3, 3))
    w = w[0] if name.endswith("1d") else w
    _same_result(name, F, w)
    _same_result(name, C, w, mode="constant", cval=1 + 2j)
    _same_error(name, F, w, mode="constant", cval=1 + 2j)


def test_zero_weights_and_complex_sums():
    _same_result("correlate", F, numpy.zeros((3, 3)))
    _same_result("laplace", C)
    _same_result("gaussian_laplace", C, 1)
    _same_result("gaussian_gradient_magnitude", C, 1)


def test_binary_morphology():
    _same_error("binary_dilation", F.astype(numpy.float16))
    _same_error("binary_erosion", B, border_value=0.5)
    _same_result("binary_fill_holes", C)
    o = gp.zeros((5, 6), bool)
    assert gnd.binary_fill_holes(gp.asarray(B), output=o) is None
    numpy.testing.assert_array_equal(o.get(), snd.binary_fill_holes(B))


def test_grey_structure_checks():
    _same_error("grey_erosion", F, structure=numpy.ones(3))
    _same_error("grey_dilation", F, structure=numpy.ones(3))
    _same_error("grey_erosion", F, structure=S * 0.5, mode=["reflect", "wrap"])


def test_label_and_find_objects():
    _same_error("label", B.astype(numpy.float16))
    _same_error("label", B, output=numpy.complex64)
    lab = snd.label(B)[0]
    _same_error("find_objects", lab.astype(float))
    _same_error("find_objects", lab, max_label=2.5)


def test_measurements():
    lab = (rng.random((5, 6)) * 4).astype(numpy.int32)
    for name in ("variance", "standard_deviation"):
        want = getattr(snd, name)(C, lab)
        got = getattr(gnd, name)(gp.asarray(C), gp.asarray(lab)).get()
        assert got.dtype == numpy.asarray(want).dtype
        numpy.testing.assert_allclose(got, want, rtol=1e-10)
    want = snd.extrema(F, lab, [1, 2])
    got = gnd.extrema(gp.asarray(F), gp.asarray(lab), [1, 2])
    assert [type(v) for v in got[2][0]] == [type(v) for v in want[2][0]]
    assert got[2] == want[2] and got[3] == want[3]
    want = snd.center_of_mass(F, lab, 1)
    got = gnd.center_of_mass(gp.asarray(F), gp.asarray(lab), 1)
    assert [type(v) for v in got] == [type(v) for v in want]
    numpy.testing.assert_allclose(got, want, rtol=1e-10)


def test_interpolation_arguments():
    _same_error("shift", F, 0.5, order=1.5)
    _same_error("shift", F, "1")
