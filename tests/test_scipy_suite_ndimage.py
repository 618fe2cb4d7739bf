"""Defects found by running SciPy's own ndimage test modules against npgpu
(``scripts/numpy_tests.py scipy/ndimage/tests/...``), each checked against scipy.ndimage on
small random data."""
import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd

from conftest import assert_same, raises_like

snd = pytest.importorskip("scipy.ndimage")

GREY = ["grey_erosion", "grey_dilation", "grey_opening", "grey_closing", "white_tophat",
        "black_tophat"]


def _grey_input(dtype, rng):
    if dtype == np.bool_:
        return rng.random((6, 7)) < 0.5
    return (rng.random((6, 7)) * 40).astype(dtype)


# test_morphology's test_white_tophat03 / test_black_tophat03: SciPy's C loop stores a bool
# erosion's -1 as the byte 255 and a dilation's 2 as 2, and the second pass of an opening or
# closing reads those bytes; an output dtype other than the input's takes the double result
# directly (a bool image dilated into float64 gives 2.0, not 1.0)
@pytest.mark.parametrize("name", GREY)
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int16, np.float32])
def test_grey_structure_output_dtypes(name, dtype, rng):
    x = _grey_input(dtype, rng)
    d = npgpu.asarray(x)
    structures = [np.ones((3, 3), bool), np.array([[0, 1, 0], [2, 1, 3]]),
                  rng.random((3, 3)) * 2]
    outputs = [None, np.float64, np.int8, np.uint8, np.bool_]
    for s in structures:
        for out in outputs:
            kw = dict(structure=s, output=out)
            try:
                want = getattr(snd, name)(x, **kw)
            except TypeError:       # a top-hat's subtraction into an integer output
                raises_like(lambda: getattr(snd, name)(x, **kw),
                            lambda: getattr(gnd, name)(d, **kw))
                continue
            assert_same(getattr(gnd, name)(d, **kw), want)


@pytest.mark.parametrize("name", ["grey_opening", "white_tophat", "black_tophat"])
def test_grey_bool_chain_views(name, rng):
    """The bool bytes between the passes, on strided and reversed views and into an
    ``output`` array."""
    x = rng.random((7, 9)) < 0.6
    s = np.ones((3, 3), bool)
    d = npgpu.asarray(x)
    for h, v in ((x[::2], d[::2]), (x.T[::-1], d.T[::-1])):
        assert_same(getattr(gnd, name)(v, structure=s), getattr(snd, name)(h, structure=s))
    want = np.zeros(x.shape, np.float64)
    getattr(snd, name)(x, structure=s, output=want)
    got = npgpu.zeros(x.shape, np.float64)
    getattr(gnd, name)(d, structure=s, output=got)
    assert_same(got, want)
