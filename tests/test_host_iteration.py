"""npgpu.ndenumerate and npgpu.broadcast (npgpu/host_iteration.py): NumPy's iteration over a host
copy, its shape attributes and errors without one."""
import numpy
import pytest

import npgpu as np

RNG = numpy.random.default_rng(47)


@pytest.mark.parametrize("dt", ["f4", "i2", "c8", "?"])
def test_ndenumerate_is_numpys(dt):
    h = RNG.uniform(-4, 4, (3, 4))
    h = (h > 0 if dt == "?" else h).astype(dt)
    g = np.asarray(h)
    for gv, hv in ((g, h), (g.T[::-1], h.T[::-1]), (g[1, 2], h[1, 2])):
        got, want = list(np.ndenumerate(gv)), list(numpy.ndenumerate(hv))
        assert got == want
        assert all(type(a[1]) is type(b[1]) for a, b in zip(got, want))


def test_broadcast_is_numpys():
    h1, h2 = RNG.uniform(-4, 4, (3, 1)), RNG.integers(0, 9, 4)
    g1, g2 = np.asarray(h1), np.asarray(h2)
    for args, hargs in (((g1, g2), (h1, h2)), ((g1, 2.5), (h1, 2.5)), ((g2,), (h2,))):
        got, want = np.broadcast(*args), numpy.broadcast(*hargs)
        assert (got.shape, got.ndim, got.nd, got.size, got.numiter, got.index) == \
            (want.shape, want.ndim, want.nd, want.size, want.numiter, want.index)
        assert list(got) == list(want)
        assert got.index == want.index
        got.reset()
        assert next(got) == numpy.broadcast(*hargs).__next__()
    with pytest.raises(ValueError, match="shape mismatch: objects cannot be broadcast"):
        np.broadcast(g1, np.asarray(RNG.uniform(size=(2, 5))))
