"""Elementwise launches of a layout seen before (broadcasting, views, scalars, transposes, out=
views) replay the stored kernel and argument list with the new operands' addresses and scalars
(``elementwise._layouts``): every replayed call must compute on its own operands."""
import numpy as np
import pytest

import npgpu
from npgpu._codegen import elementwise as ew

DTYPES = [np.float32, np.float64, np.int32, np.int16, np.complex64, np.bool_]


def _data(rng, shape, dt):
    if np.dtype(dt).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if np.dtype(dt).kind == "b":
        return rng.random(shape) < 0.5
    return (rng.standard_normal(shape) * 10).astype(dt)


@pytest.mark.parametrize("dt", DTYPES)
def test_repeated_layouts_compute_on_their_own_operands(dt, rng):
    for _ in range(3):          # the first call stores the layout, the next two replay it
        h, r, c = _data(rng, (6, 10), dt), _data(rng, (10,), dt), _data(rng, (6, 1), dt)
        a, row, col = npgpu.asarray(h), npgpu.asarray(r), npgpu.asarray(c)
        same = np.testing.assert_array_equal if np.dtype(dt).kind != "c" else \
            (lambda x, y: np.testing.assert_allclose(x, y, rtol=1e-6))
        same((a + row).get(), h + r)                                     # broadcast row
        same((a * col).get(), h * c)                                     # broadcast column
        same((a[:, ::2] + row[::2]).get(), h[:, ::2] + r[::2])
        same((a.T + a.T).get(), h.T + h.T)                               # transposed
        same((a[::-1, 1:] * a[::-1, 1:]).get(), h[::-1, 1:] * h[::-1, 1:])


@pytest.mark.parametrize("dt", [np.float32, np.int64, np.complex128])
def test_replayed_scalars_are_the_new_values(dt, rng):
    h = _data(rng, (5, 8), dt)
    a = npgpu.asarray(h)
    for s in (2, 3, -7):
        v = np.dtype(dt).type(s) if np.dtype(dt).kind != "c" else np.dtype(dt).type(s + 1j * s)
        np.testing.assert_allclose((a[:, ::3] * v).get(), h[:, ::3] * v, rtol=1e-12)
        np.testing.assert_allclose((v - a.T).get(), v - h.T, rtol=1e-12)


def test_replayed_out_views(rng):
    h = rng.standard_normal((4, 6))
    a = npgpu.asarray(h)
    for k in range(3):
        o = npgpu.zeros((4, 12))
        npgpu.add(a, float(k), out=o[:, ::2])
        want = np.zeros((4, 12))
        want[:, ::2] = h + k
        np.testing.assert_array_equal(o.get(), want)


def test_misaligned_views_never_take_a_stored_words_layout(rng):
    # the words layout depends on 8-byte alignment, which the layout key does not hold: a
    # words launch is not stored, so a view one element off computes through its own layout
    h = rng.standard_normal(4099).astype(np.float32)
    a = npgpu.asarray(h)
    for off in (0, 1, 0, 1):
        v = a[off:off + 4096].reshape(64, 64)[:, :]
        np.testing.assert_array_equal((v + 1.0).get(), h[off:off + 4096].reshape(64, 64) + 1)


def test_layout_store_is_bounded(rng, monkeypatch):
    monkeypatch.setattr(ew, "_LAYOUTS_MAX", 4)
    monkeypatch.setattr(ew, "_layouts", {})
    h = rng.standard_normal((8, 9))
    a = npgpu.asarray(h)
    for k in range(1, 9):
        np.testing.assert_array_equal((a[:, ::k] + a[:, ::k]).get(), h[:, ::k] * 2)
    assert len(ew._layouts) <= 4
