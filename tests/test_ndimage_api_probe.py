"""Argument handling of npgpu.scipy.ndimage against SciPy: EDT without background, in-place
outputs and complex input, label's symmetric structure, binary morphology over ``axes``, 0-d
correlate/convolve and a few error messages (tiny arrays: the simulator runs the kernels)."""
import numpy
import pytest
import scipy.ndimage as snd

import npgpu as gp
import npgpu.scipy.ndimage as gnd
from test_ndimage_probe_fixes import _call, _dev, _same_error  # noqa: F401 (shared helpers)

rng = numpy.random.default_rng(25)
A = rng.standard_normal((4, 5))
B = rng.random((4, 5)) > 0.4
B3 = rng.random((3, 4, 5)) > 0.4
LAB = rng.integers(0, 4, (4, 5))
CROSS = snd.generate_binary_structure(2, 1)


def _check(got, want):
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w)
        return
    got = got.get() if isinstance(got, gp.ndarray) else numpy.asarray(got)
    want = numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def _same_result(name, *args, **kw):
    _check(_call(gnd, name, *args, **kw), _call(snd, name, *args, **kw))


# ---- distance_transform_edt --------------------------------------------------------------------
@pytest.mark.parametrize("x", [numpy.ones((2, 3)), numpy.ones(3), numpy.array(2.5),
                               numpy.ones((2, 3, 2), bool)])
@pytest.mark.parametrize("kw", [{}, {"return_indices": True},
                                {"return_indices": True, "sampling": 2.0}])
def test_edt_without_background(x, kw):
    # SciPy measures to the feature (-1, 0, ...) where no element is background
    _same_result("distance_transform_edt", x, **kw)


def test_edt_complex_input():
    x = numpy.array([[1, 0, 2j], [0, 0, 1], [3, 1j, 1]])
    _same_result("distance_transform_edt", x, return_indices=True)


def test_edt_output_arrays():
    x = rng.random((3, 4)) > 0.3
    d, i = numpy.zeros((3, 4)), numpy.zeros((2, 3, 4), numpy.int32)
    gd, gi = gp.asarray(d), gp.asarray(i)
    assert gnd.distance_transform_edt(gp.asarray(x), return_indices=True, distances=gd,
                                      indices=gi) is None
    snd.distance_transform_edt(x, return_indices=True, distances=d, indices=i)
    _check(gd, d)
    _check(gi, i)


@pytest.mark.parametrize("kw", [
    {"distances": numpy.zeros((2, 2))},
    {"distances": numpy.zeros((2, 3), numpy.float32)},
    {"return_indices": True, "indices": numpy.zeros((2, 2, 2), numpy.int32)},
    {"return_indices": True, "indices": numpy.zeros((2, 2, 3), numpy.int64)},
    {"return_distances": False, "return_indices": True, "distances": numpy.zeros((2, 3))},
    {"return_distances": False, "return_indices": False, "distances": numpy.zeros((2, 3)),
     "indices": numpy.zeros((2, 2, 3), numpy.int32)},
    {"sampling": [1, 2, 3]},
])
def test_edt_argument_errors(kw):
    _same_error("distance_transform_edt", numpy.ones((2, 3)), **kw)


# ---- label ----------------------------------------------------------------------------------
def test_label_asymmetric_structure():
    _same_error("label", LAB, numpy.array([[0, 1, 1], [0, 1, 0], [0, 0, 0]]))


def test_label_symmetric_structure():
    _same_result("label", LAB, numpy.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]]))


# ---- binary morphology: axes ----------------------------------------------------------------
@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening",
                                  "binary_closing", "binary_propagation",
                                  "binary_fill_holes", "binary_hit_or_miss"])
def test_binary_axes(name):
    _same_result(name, B, axes=(1,))
    _same_result(name, B3, CROSS, axes=(0, 2))
    origin = "origin1" if name == "binary_hit_or_miss" else "origin"
    _same_result(name, B, numpy.array([1, 1, 0, 1]), axes=(-2,), **{origin: 1})


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening"])
@pytest.mark.parametrize("kw", [{"axes": (1, 1)}, {"axes": (2,)},
                                {"structure": CROSS, "axes": (1,)},
                                {"structure": numpy.ones(3), "axes": (1,), "origin": [0, 0]}])
def test_binary_axes_errors(name, kw):
    _same_error(name, B, **kw)


def test_binary_structure_rank_error():
    # SciPy's dilation mirrors the origin over the structure's axes first
    _same_error("binary_dilation", B, numpy.ones(3))


# ---- filters ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["correlate", "convolve"])
@pytest.mark.parametrize("x", [numpy.array(3.25), numpy.array(3 + 1j), numpy.array(True),
                               numpy.array(7, numpy.int16)])
def test_correlate_0d(name, x):
    _same_result(name, x, numpy.array(2.0))
    _same_result(name, x, numpy.array(-1.5), mode="constant", cval=1)


def test_correlate_0d_output():
    out = gp.zeros((), numpy.int32)
    gnd.correlate(gp.asarray(numpy.array(3.4)), numpy.array(2.0), output=out)
    assert int(out.get()) == snd.correlate(numpy.array(3.4), numpy.array(2.0), output=numpy.int32)


def test_gaussian_order_not_integer():
    _same_error("gaussian_filter1d", A, 1.0, order=1.0)
    _same_result("gaussian_filter1d", A, 1.0, order=0.0)


# ---- measurements ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["minimum_position", "maximum_position", "extrema"])
def test_position_of_missing_label(name):
    _same_error(name, A, LAB, 9)


# ---- interpolation: order ---------------------------------------------------------------------
@pytest.mark.parametrize("order", [1.0, 1.5, 3.0, True, numpy.int64(2)])
@pytest.mark.parametrize("prefilter", [True, False])
def test_interpolation_order_types(order, prefilter):
    coords = numpy.array([[0.5, 2.25, 3.0], [1.5, 0.0, 4.75]])
    for name, args in (("map_coordinates", (coords,)), ("shift", (0.5,)), ("zoom", (1.5,))):
        try:
            want = _call(snd, name, A, *args, order=order, prefilter=prefilter)
        except Exception:
            _same_error(name, A, *args, order=order, prefilter=prefilter)
            continue
        _check(_call(gnd, name, A, *args, order=order, prefilter=prefilter), want)


@pytest.mark.parametrize("name, args", [("map_coordinates", (numpy.array([[0.5, 2.0]] * 2),)),
                                        ("shift", (0.5,)), ("zoom", (1.5,)), ("rotate", (20,)),
                                        ("affine_transform", (numpy.eye(2) * 1.1,)),
                                        ("spline_filter1d", ()), ("spline_filter", ())])
def test_interpolation_object_output(name, args):
    # npgpu has no object arrays: SciPy's error of its C loop for such an output dtype
    _same_error(name, A, *args, output=object)
