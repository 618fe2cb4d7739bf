"""Elementwise launches of a layout seen before (broadcasting, views, scalars, transposes, out=
views) replay the stored kernel and argument list with the new operands' addresses and scalars
(``elementwise._layouts``): every replayed call must compute on its own operands."""
import numpy as np
import pytest

import npgpu
from conftest import run_threads
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


@pytest.mark.parametrize("dt", [np.uint8, np.int16, np.int64, np.float16, np.float32,
                                np.complex64, np.bool_])
def test_array_with_python_scalar_repeated(dt, rng):
    # (array, Python scalar) remembers NumPy's resolution per (dtype, scalar type, position):
    # later calls still convert each value (NEP 50's errors) and follow the array's layout
    h = _data(rng, (4, 6), dt)
    a = npgpu.asarray(h)
    kind = np.dtype(dt).kind
    scalars = {"u": [3, 7, 200], "i": [3, -7, 100], "f": [1.5, -2.25, 100.0],
               "c": [1.5, 2 - 1j, 1j], "b": [True, False, True]}[kind]
    for v in scalars:
        for got, want in ((a + v, h + v), (v * a, v * h), (a.T - v if kind != "b" else a.T & v,
                                                          h.T - v if kind != "b" else h.T & v),
                          (a[:, ::2] < v, h[:, ::2] < v) if kind != "c" else (a == v, h == v)):
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got.get(), want, rtol=1e-3 if dt == np.float16 else 1e-6)
    if kind in "iu":
        big = int(np.iinfo(dt).max) + 1
        with pytest.raises(OverflowError):
            a + big                         # NumPy 2: out of range for the array's dtype
        np.testing.assert_array_equal((a < big).get(), h < big)     # comparisons: NumPy's answer
        np.testing.assert_array_equal((a + 1).get(), h + 1)          # the plan still serves


def test_python_scalar_with_fortran_array(rng):
    h = np.asfortranarray(rng.standard_normal((5, 7)))
    a = npgpu.asarray(h)
    for v in (2.0, 3.0):
        r = a * v
        assert r._f_contig and not r._c_contig
        np.testing.assert_array_equal(r.get(), h * v)


def test_replays_from_several_threads(rng):
    # the stored layouts and scalar resolutions are shared; each call fills its own argument
    # list, so threads replaying the same layouts on their own operands never mix them
    hs = [rng.standard_normal((6, 10)).astype(np.float32) for _ in range(4)]
    rows = [rng.standard_normal(10).astype(np.float32) for _ in range(4)]

    def work(k):
        a, r = npgpu.asarray(hs[k]), npgpu.asarray(rows[k])
        for j in range(10):
            np.testing.assert_allclose((a - r).get(), hs[k] - rows[k], rtol=1e-6)
            np.testing.assert_allclose((a[:, ::2] * float(j)).get(), hs[k][:, ::2] * j,
                                       rtol=1e-6)
            np.testing.assert_allclose((2.5 + a.T).get(), 2.5 + hs[k].T, rtol=1e-6)

    run_threads(work, range(4))


def test_index_operands_replay_with_their_own_values(monkeypatch):
    """Launches with an INDEX operand (arange, linspace, eye) replay their layout: each repeat
    computes its own start, step and output."""
    for k in range(3):
        if k == 2:      # the third round must not plan a launch again
            monkeypatch.setattr(ew.compiler, "get_kernel",
                                lambda *a, **kw: pytest.fail("planned again"))
        np.testing.assert_array_equal(npgpu.arange(k, k + 12, 3).get(), np.arange(k, k + 12, 3))
        np.testing.assert_array_equal(npgpu.arange(k + 0.5, k + 9.5).get(),
                                      np.arange(k + 0.5, k + 9.5))
        np.testing.assert_allclose(npgpu.linspace(-k, 2 * k + 1, 7).get(),
                                   np.linspace(-k, 2 * k + 1, 7), rtol=1e-15)
        np.testing.assert_array_equal(npgpu.eye(5, k=k - 1).get(), np.eye(5, k=k - 1))
