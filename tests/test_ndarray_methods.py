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
