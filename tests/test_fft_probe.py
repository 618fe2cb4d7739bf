"""npgpu.fft against numpy.fft, the ``out=`` rules found by probing: NumPy checks ``out`` at
each one-axis step it hands it to (every step of fft/ifft/fftn/rfftn, irfft's last), so its
errors -- class (``UFuncTypeError``), message and order -- are those of that step."""
import numpy as np
import pytest

import npgpu
import npgpu.fft as F
from conftest import assert_matches, raises_like

SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _data(rng, shape, dtype):
    x = rng.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _call(xp, name, x, out_shape, out_dtype, **kw):
    return getattr(xp.fft, name)(xp.asarray(x), out=xp.zeros(out_shape, out_dtype), **kw)


@pytest.mark.parametrize("name, dtype", [
    ("fft", np.float64), ("ifft", np.complex64), ("rfft", np.float16), ("irfft", np.float32),
    ("ihfft", np.float32), ("fftn", np.int16), ("ifftn", np.complex128), ("rfftn", np.float32),
    ("irfftn", np.float16), ("fft2", np.complex64), ("rfft2", np.bool_)])
@pytest.mark.parametrize("out_dtype", [np.int8, np.float16, np.float64])
@pytest.mark.parametrize("norm", [None, "forward"])
def test_out_cast_error_is_numpys(rng, name, dtype, out_dtype, norm):
    """A dtype ``out`` cannot take: NumPy's UFuncTypeError, with the step's loop dtype (which
    NumPy picks from the input and the norm's factor) in the message."""
    x = _data(rng, (3, 4), dtype)
    shape = getattr(np.fft, name)(x).shape
    try:
        want = _call(np, name, x, shape, out_dtype, norm=norm)
    except TypeError:
        raises_like(lambda: _call(np, name, x, shape, out_dtype, norm=norm),
                    lambda: _call(npgpu, name, x, shape, out_dtype, norm=norm))
        return
    # (computed in the input's precision: single for float16 / float32 / complex64)
    got = _call(npgpu, name, x, shape, out_dtype, norm=norm)
    assert_matches(got, want, rtol=2e-3, atol=2e-3 * float(np.abs(want).max()))


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "fftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("change", [(1, 0), (0, 1), "extra"])
def test_out_shape_error_is_numpys(rng, name, change):
    """A wrong ``out`` shape: NumPy's "output array has wrong shape." or its ufunc's
    broadcast error, whichever that step raises."""
    x = _data(rng, (3, 4), np.complex128 if name[0] != "r" else np.float64)
    ref = getattr(np.fft, name)(x)
    shape = (2,) + ref.shape if change == "extra" else tuple(
        m + c for m, c in zip(ref.shape, change))
    raises_like(lambda: _call(np, name, x, shape, ref.dtype),
                lambda: _call(npgpu, name, x, shape, ref.dtype))


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "rfftn", "rfft2"])
@pytest.mark.parametrize("s, axes", [((5, 7), (0, 1)), ((3, 4), (0, 1)), ((4, 8), (1, 1))])
def test_out_checked_at_each_step(rng, name, s, axes):
    """NumPy hands ``out`` (of the final shape) to every step: an ``s`` that resizes an axis
    transformed later, or a repeated axis with two lengths, fails at an earlier step."""
    x = _data(rng, (4, 6), np.float64)
    ref = getattr(np.fft, name)(x, s=s, axes=axes)
    raises_like(lambda: _call(np, name, x, ref.shape, ref.dtype, s=s, axes=axes),
                lambda: _call(npgpu, name, x, ref.shape, ref.dtype, s=s, axes=axes))


@pytest.mark.parametrize("name, kw", [("irfftn", dict(s=(5, 8), axes=(0, 1))),
                                      ("fftn", dict(s=(4, 8), axes=(0, 1))),
                                      ("rfftn", dict(s=(4, 5), axes=(0, 1)))])
def test_out_with_s_where_numpy_takes_it(rng, name, kw):
    """irfftn hands ``out`` to its last step only; fftn / rfftn take an ``s`` that resizes
    only the first axis transformed."""
    x = _data(rng, (4, 6), np.complex128 if name[0] != "r" else np.float64)
    ref = getattr(np.fft, name)(x, **kw)
    out = npgpu.zeros(ref.shape, ref.dtype)
    assert getattr(F, name)(npgpu.asarray(x), out=out, **kw) is out
    assert_matches(out, ref)


@pytest.mark.parametrize("name", ["fft", "ihfft", "rfftn", "irfft"])
@pytest.mark.parametrize("out", [[1], 3, (None,), (None, None)])
def test_out_not_an_array(name, out):
    """NumPy's TypeError / ValueError for an ``out`` that is not an array."""
    x = np.ones((3, 4))
    raises_like(lambda: getattr(np.fft, name)(x, out=out),
                lambda: getattr(F, name)(npgpu.asarray(x), out=out))


def test_out_numpy_array_is_refused_as_ufuncs_do():
    with pytest.raises(TypeError, match=r"ArrayType \(npgpu.ndarray, not numpy.ndarray\)"):
        F.rfft(npgpu.ones(4), out=np.zeros(3, complex))


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "ihfft", "fftn", "rfftn"])
def test_out_one_tuple(rng, name):
    """``out=(arr,)`` as NumPy's ufuncs (and so numpy.fft) take it."""
    x = _data(rng, (3, 4), np.float64 if name in ("rfft", "ihfft", "rfftn") else np.complex128)
    ref = getattr(np.fft, name)(x)
    out = npgpu.zeros(ref.shape, ref.dtype)
    assert getattr(F, name)(npgpu.asarray(x), out=(out,)) is out
    assert_matches(out, ref)


@pytest.mark.parametrize("name, kw", [("fft", dict(n=0)), ("ifft", dict(norm="bad")),
                                      ("rfft", dict(axis=3)), ("fftn", dict(s=(0, 3), axes=(0, 1))),
                                      ("rfftn", dict(axes=(5,))), ("irfftn", dict(norm="x"))])
def test_argument_errors_come_before_out_errors(name, kw):
    """NumPy checks ``n``, the norm and the axis of a step before its ``out``."""
    x = np.ones((3, 4))
    raises_like(lambda: getattr(np.fft, name)(x, out=np.zeros(1, np.int8), **kw),
                lambda: getattr(F, name)(npgpu.asarray(x), out=npgpu.zeros(1, np.int8), **kw))


def test_rfft_of_complex_with_out(rng):
    x = _data(rng, (3, 4), np.complex128)
    for o in (np.zeros((3, 3), complex), np.zeros((3, 3), np.int8), np.zeros((2, 3), complex)):
        for name in ("rfft", "rfftn", "ihfft"):
            raises_like(lambda: getattr(np.fft, name)(x, out=o),
                        lambda: getattr(F, name)(npgpu.asarray(x), out=npgpu.asarray(o)))


@pytest.mark.parametrize("name, ref", [
    ("hfft", lambda x, norm, out: np.fft.irfft(np.conjugate(x), norm=SWAP[norm], out=out)),
    ("ifft2", lambda x, norm, out: np.fft.ifftn(x, axes=(-2, -1), norm=norm, out=out)),
    ("irfft2", lambda x, norm, out: np.fft.irfftn(x, axes=(-2, -1), norm=norm, out=out))])
@pytest.mark.parametrize("out_dtype, out_shape", [(np.int8, None), (np.float64, (5, 0)),
                                                  (np.float32, (0, 1))])
def test_out_of_functions_numpy_ignores_it_in(rng, name, ref, out_dtype, out_shape):
    """NumPy 2.4's hfft, ifft2, irfft2 drop ``out``; npgpu honours it, with the errors of the
    functions NumPy builds them from (irfft, ifftn, irfftn)."""
    x = _data(rng, (4, 6), np.complex64)
    shape = ref(x, "ortho", None).shape
    if out_shape is not None:
        shape = tuple(m + d for m, d in zip(shape, out_shape))
    raises_like(lambda: ref(x, "ortho", np.zeros(shape, out_dtype)),
                lambda: getattr(F, name)(npgpu.asarray(x), norm="ortho",
                                         out=npgpu.zeros(shape, out_dtype)))


@pytest.mark.parametrize("name, kw", [("fft", dict(axis=0)), ("rfft", dict(axis=0)),
                                      ("irfft", dict(axis=1, n=9)), ("ihfft", dict(norm="ortho")),
                                      ("rfftn", dict(axes=(2, 0))), ("irfftn", dict(axes=(1, 0))),
                                      ("fftn", dict(axes=(0, 0)))])
def test_out_values_any_layout(rng, name, kw):
    """Results written into transposed, negatively strided and single-precision ``out``."""
    x = _data(rng, (4, 5, 6), np.float64 if name in ("rfft", "rfftn", "ihfft") else np.complex128)
    ref = getattr(np.fft, name)(x, **kw)
    single = np.complex64 if ref.dtype.kind == "c" else np.float32
    for mk in (lambda: npgpu.zeros(ref.shape[::-1], ref.dtype).T,
               lambda: npgpu.zeros(ref.shape[:-1] + (2 * ref.shape[-1],), ref.dtype)[..., ::-2],
               lambda: npgpu.zeros(ref.shape, single)):
        out = mk()
        assert getattr(F, name)(npgpu.asarray(x), out=out, **kw) is out
        assert_matches(out, ref.astype(out.dtype))


@pytest.mark.parametrize("name, kw", [("fft", {}), ("rfft", {}), ("irfft", dict(axis=2)),
                                      ("ihfft", dict(norm="ortho")), ("fftn", dict(axes=(1, 2))),
                                      ("irfftn", dict(axes=(2, 1))), ("rfft", dict(axis=1)),
                                      ("fftn", dict(axes=(0, 1)))])
def test_out_takes_the_result_broadcast(rng, name, kw):
    """NumPy's ufunc broadcasts the result over an ``out`` with more rows along axes no step
    transforms; where a step transforms that axis, its "wrong shape" error."""
    x = _data(rng, (1, 4, 6), np.float64)
    ref = getattr(np.fft, name)(x, **kw)
    shape = (3,) + ref.shape[1:]
    try:
        getattr(np.fft, name)(x, out=np.zeros(shape, ref.dtype), **kw)
    except ValueError:
        raises_like(lambda: getattr(np.fft, name)(x, out=np.zeros(shape, ref.dtype), **kw),
                    lambda: getattr(F, name)(npgpu.asarray(x), out=npgpu.zeros(shape, ref.dtype),
                                             **kw))
        return
    out = npgpu.zeros(shape[::-1], ref.dtype).T
    assert getattr(F, name)(npgpu.asarray(x), out=out, **kw) is out
    assert_matches(out, np.broadcast_to(ref, shape))


@pytest.mark.parametrize("name", ["fft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("kw", [dict(n=np.array([5])), dict(n=np.array([5]), norm="ortho"),
                                dict(norm=["ortho"]), dict(norm=["ortho"], n=0)])
def test_array_n_and_unhashable_norm(name, kw):
    """NumPy's errors: an array ``n`` fails as an index (after the norm's factor is computed
    from it), an unhashable norm fails the hfft / ihfft / inverse direction's dict lookup."""
    x = np.ones((3, 6))
    raises_like(lambda: getattr(np.fft, name)(x, **kw),
                lambda: getattr(F, name)(npgpu.asarray(x), **kw))
