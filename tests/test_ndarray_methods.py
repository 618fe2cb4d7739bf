"""ndarray methods that reach the ufunc and reduction layers through ``_ops``: clip, conj /
conjugate, round, ``in``."""
import numpy as np
import pytest

import npgpu
from conftest import ALL_DTYPES, random_array


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=lambda d: d.str)
def test_clip_conj_round_contains_methods(dt):
    rng = np.random.default_rng(7)
    h = random_array((4, 5), dt, rng)[:, ::-2]        # non-contiguous, negative stride
    a = npgpu.asarray(h)
    if dt.kind != "c" and dt.kind != "b":
        lo, hi = (h.min() + h.max()) / 3, h.max()
        lo, hi = h.dtype.type(lo), h.dtype.type(hi)
        np.testing.assert_array_equal(a.clip(lo, hi).get(), h.clip(lo, hi))
        np.testing.assert_array_equal(a.clip(max=hi).get(), h.clip(max=hi))
    np.testing.assert_array_equal(a.conj().get(), h.conj())
    np.testing.assert_array_equal(a.conjugate().get(), h.conjugate())
    if dt.kind in "fc":
        got, want = a.round(1).get(), h.round(1)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-3 if dt == np.float16 else 1e-6)
    assert (h.flat[3] in a) is True
    assert (h.dtype.type(h.max()) in a) is True
    if dt.kind in "iuf":
        assert (h.max() + 1 in a) is (h.max() + 1 in h)
    assert (0 in npgpu.asarray(h[:0])) is False


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_byteswap_and_tobytes(dt):
    """byteswap reverses each element's bytes (each component's, for complex) on the device,
    copy or in place, any layout; tobytes is NumPy's bytes of the same data."""
    h = random_array((5, 6), dt)
    for view in (lambda x: x, lambda x: x[::-2, 1::2], lambda x: x.T, lambda x: x[2, 3],
                 lambda x: x[:0]):
        hv = view(h)
        g = view(npgpu.asarray(h))
        assert g.byteswap().get().tobytes() == hv.byteswap().tobytes()
        assert g.tobytes() == hv.tobytes()
        assert g.tobytes(order="F") == hv.tobytes(order="F")
    hc = h.copy()
    g = npgpu.asarray(hc)
    g[::2].byteswap(inplace=True)
    hc[::2].byteswap(inplace=True)
    assert g.tobytes() == hc.tobytes()
    ro = npgpu.broadcast_to(npgpu.asarray(h[0]), (3, 6))
    with pytest.raises(ValueError, match="read-only"):
        ro.byteswap(inplace=True)


def test_imatmul():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 3))
    g = npgpu.asarray(a)
    g @= npgpu.asarray(b)
    a @= b
    np.testing.assert_allclose(g.get(), a, rtol=1e-12)
    g @= g[:3]                                  # aliasing operands: NumPy's result
    a @= a[:3]
    np.testing.assert_allclose(g.get(), a, rtol=1e-12)
    with pytest.raises(ValueError):
        g @= npgpu.asarray(rng.standard_normal((3, 2)))
    gi = npgpu.asarray(np.ones((2, 2), np.int64))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'matmul' output from dtype"):
        gi @= npgpu.asarray(np.ones((2, 2)))
