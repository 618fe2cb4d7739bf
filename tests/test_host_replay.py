"""Repeat calls that replay a stored launch (host-time fast paths): ndimage's gaussian_filter and
uniform_filter (``_filters._calls``) and take along the last axis (``routines._take_calls``).
Each test calls with one set of arguments first (stored), then again with changed data and
with each argument changed in turn: every result must still be SciPy's / NumPy's, and every
error the full path's."""
import numpy as np
import pytest

import npgpu
from npgpu.scipy import ndimage as gnd
from npgpu.scipy.ndimage import _filters

from test_ndimage_filters import check, data

snd = pytest.importorskip("scipy.ndimage")
rng = np.random.default_rng(7)


def _gauss(x, **kw):
    return gnd.gaussian_filter(npgpu.asarray(x), **kw), snd.gaussian_filter(x, **kw)


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int16])
@pytest.mark.parametrize("shape", [(9, 11), (3, 5, 6), (13,)])
def test_gaussian_repeat_changed_data(dt, shape):
    for sigma in (1, 1.5, 2.5):             # fused (short windows) and line passes (long)
        for _ in range(3):                  # first call stores, the next ones replay
            x = data(shape, dt)
            got, want = _gauss(x, sigma=sigma)
            check(got, want)


def test_gaussian_repeat_changed_arguments():
    x = data((8, 10), np.float32)
    X = npgpu.asarray(x)
    calls = [dict(sigma=1), dict(sigma=1, mode="constant", cval=2.5), dict(sigma=1, mode="wrap"),
             dict(sigma=(1, 0.5)), dict(sigma=1, order=1), dict(sigma=1, order=(0, 2)),
             dict(sigma=1, truncate=2.0), dict(sigma=1, radius=3), dict(sigma=1, axes=(1,)),
             dict(sigma=1, axes=0), dict(sigma=1, mode=("nearest", "mirror"))]
    for _ in range(2):
        for kw in calls:
            check(gnd.gaussian_filter(X, **kw), snd.gaussian_filter(x, **kw))


def test_gaussian_repeat_output_argument_and_in_place():
    x = data((7, 9), np.float64)
    for _ in range(3):
        x = data((7, 9), np.float64)
        out = npgpu.zeros((7, 9), np.float32)
        r = gnd.gaussian_filter(npgpu.asarray(x), 1, output=out)
        assert r is out
        check(out, snd.gaussian_filter(x, 1, output=np.float32))
        check(gnd.gaussian_filter(npgpu.asarray(x), 1, output=np.float32),
              snd.gaussian_filter(x, 1, output=np.float32))
        X = npgpu.asarray(x)                 # output sharing the input's memory: in place
        gnd.gaussian_filter(X, 1, output=X)
        check(X, snd.gaussian_filter(x, 1))


def test_gaussian_repeat_views():
    base = data((10, 14), np.float32)
    for _ in range(2):
        base = data((10, 14), np.float32)
        B = npgpu.asarray(base)
        for sl in [np.s_[::2, 1:], np.s_[:, ::-1], np.s_[1:8, 2:12]]:
            check(gnd.gaussian_filter(B[sl], 1), snd.gaussian_filter(base[sl], 1))
        check(gnd.gaussian_filter(B.T, 1), snd.gaussian_filter(base.T, 1))


def test_gaussian_repeat_keeps_errors():
    X = npgpu.asarray(data((6, 6)))
    gnd.gaussian_filter(X, 1, radius=2)
    with pytest.raises(ValueError, match="Radius must be a nonnegative integer"):
        gnd.gaussian_filter(X, 1, radius=2.0)
    gnd.gaussian_filter(X, 1, mode="reflect")
    with pytest.raises(RuntimeError):
        gnd.gaussian_filter(X, 1, mode="bogus")
    with pytest.raises(RuntimeError, match="output shape not correct"):
        gnd.gaussian_filter(X, 1, output=npgpu.zeros((6, 5)))
    with pytest.raises(RuntimeError, match="sequence argument must have length"):
        gnd.gaussian_filter(X, (1, 1, 1))


def test_gaussian_numpy_scalar_sigma_not_confused():
    x = data((8, 8), np.float64)
    X = npgpu.asarray(x)
    check(gnd.gaussian_filter(X, 1.3), snd.gaussian_filter(x, 1.3))
    s = np.float32(1.3)
    check(gnd.gaussian_filter(X, s), snd.gaussian_filter(x, s))


@pytest.mark.parametrize("dt", [np.float32, np.uint8])
def test_uniform_repeat(dt):
    for _ in range(3):
        x = data((9, 12), dt)
        X = npgpu.asarray(x)
        for kw in [dict(size=3), dict(size=5, mode="constant", cval=1.5), dict(size=(3, 4)),
                   dict(size=3, origin=1), dict(size=4, axes=(0,)), dict(size=1)]:
            check(gnd.uniform_filter(X, **kw), snd.uniform_filter(x, **kw))
        out = npgpu.zeros(x.shape, np.float64)
        assert gnd.uniform_filter(X, 3, output=out) is out
        check(out, snd.uniform_filter(x, 3, output=np.float64))
    with pytest.raises(ValueError, match="invalid origin"):
        gnd.uniform_filter(X, 3, origin=2)


def test_filters_store_replays():
    """The repeat calls above do take the stored path."""
    X = npgpu.asarray(data((6, 7), np.float32))
    _filters._calls.clear()
    gnd.gaussian_filter(X, 1)
    gnd.uniform_filter(X, 3)
    assert len(_filters._calls) == 2
    gnd.gaussian_filter(X, 1)
    gnd.uniform_filter(X, 3)
    assert len(_filters._calls) == 2


# ---- take along the last axis ---------------------------------------------------------------
@pytest.mark.parametrize("idt", [np.int64, np.int32, np.uint16])
@pytest.mark.parametrize("mode", ["raise", "clip", "wrap"])
def test_take_repeat_modes(idt, mode):
    a = rng.standard_normal((5, 12)).astype(np.float32)
    A = npgpu.asarray(a)
    hi = 12 if mode == "raise" else 30
    lo = 0 if idt == np.uint16 else (-12 if mode == "raise" else -30)
    for _ in range(3):
        idx = rng.integers(lo, hi, 16).astype(idt)
        np.testing.assert_array_equal(npgpu.take(A, npgpu.asarray(idx), axis=1, mode=mode).get(),
                                      np.take(a, idx, axis=1, mode=mode))
        np.testing.assert_array_equal(npgpu.take(A, npgpu.asarray(idx), axis=-1, mode=mode).get(),
                                      np.take(a, idx, axis=-1, mode=mode))


@pytest.mark.parametrize("dt", [np.float64, np.int8, np.complex64, np.bool_])
def test_take_repeat_dtypes_and_index_shapes(dt):
    a = (rng.standard_normal((3, 4, 10)) * 10).astype(dt)
    A = npgpu.asarray(a)
    for _ in range(2):
        for idx in [rng.integers(0, 10, 9), rng.integers(-10, 10, (2, 8)),
                    rng.integers(0, 10, 20)[::2]]:
            I = npgpu.asarray(idx) if idx.flags.c_contiguous else npgpu.asarray(
                np.ascontiguousarray(np.repeat(idx, 2)))[::2]
            np.testing.assert_array_equal(npgpu.take(A, I, axis=2).get(), np.take(a, idx, axis=2))
    v = npgpu.asarray(a)[:, ::-1, ::2]       # other source layouts
    idx = rng.integers(0, 5, 8)
    np.testing.assert_array_equal(npgpu.take(v, npgpu.asarray(idx), axis=2).get(),
                                  np.take(a[:, ::-1, ::2], idx, axis=2))


def test_take_repeat_out_and_raise():
    a = rng.standard_normal((4, 10))
    A = npgpu.asarray(a)
    idx = rng.integers(0, 10, 12)
    for _ in range(2):
        out = npgpu.zeros((4, 12))
        assert npgpu.take(A, npgpu.asarray(idx), axis=1, out=out) is out
        np.testing.assert_array_equal(out.get(), np.take(a, idx, axis=1))
    bad = idx.copy()
    bad[7] = 10
    before = out.get()
    with pytest.raises(IndexError, match="index 10 is out of bounds for axis 1 with size 10"):
        npgpu.take(A, npgpu.asarray(bad), axis=1, out=out)
    np.testing.assert_array_equal(out.get(), before)      # nothing written when it raises
    bad[7] = -11
    with pytest.raises(IndexError, match="index -11 is out of bounds for axis 1 with size 10"):
        npgpu.take(A, npgpu.asarray(bad), axis=1)
    # the record is re-armed: the next good call passes
    np.testing.assert_array_equal(npgpu.take(A, npgpu.asarray(idx), axis=1).get(),
                                  np.take(a, idx, axis=1))
    with pytest.raises(ValueError, match="output array does not match"):
        npgpu.take(A, npgpu.asarray(idx), axis=1, out=npgpu.zeros((4, 11)))
    ro = npgpu.zeros((4, 12))
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        npgpu.take(A, npgpu.asarray(idx), axis=1, out=ro)
    with pytest.raises(ValueError, match="clipmode"):
        npgpu.take(A, npgpu.asarray(idx), axis=1, mode="bogus")


def test_take_stores_replay():
    from npgpu import _remap
    from npgpu.indexing import routines
    A = npgpu.asarray(rng.standard_normal((3, 10)))
    # long enough for the staged rows form on either backend (the GPU's ROWS_MIN is 128)
    idx = npgpu.asarray(rng.integers(0, 10, _remap.ROWS_MIN + 1))
    routines._take_calls.clear()
    npgpu.take(A, idx, axis=1)
    assert len(routines._take_calls) == 1
    r = npgpu.take(A, idx, axis=1, mode="raise")
    assert len(routines._take_calls) == 1
    np.testing.assert_array_equal(r.get(), np.take(A.get(), idx.get(), axis=1))


@pytest.mark.parametrize("dt", [np.float32, np.int32])
def test_median_repeat(dt):
    for _ in range(3):
        x = data((8, 9), dt)
        X = npgpu.asarray(x)
        for kw in [dict(size=3), dict(size=(2, 3), mode="constant", cval=4),
                   dict(size=3, origin=(0, 1)), dict(size=3, mode="wrap")]:
            check(gnd.median_filter(X, **kw), snd.median_filter(x, **kw))
        out = npgpu.zeros(x.shape, dt)
        assert gnd.median_filter(X, 3, output=out) is out
        check(out, snd.median_filter(x, 3))
        gnd.median_filter(X, 3, output=X)          # in place: through a temporary
        check(X, snd.median_filter(x, 3))
    with pytest.raises(RuntimeError, match="A sequence of modes is not supported"):
        gnd.median_filter(X, 3, mode=("reflect", "wrap"))
