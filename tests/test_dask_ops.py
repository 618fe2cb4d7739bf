"""dask.array operations on npgpu chunks against the same operations on NumPy chunks and plain
NumPy (``docs/dask.md``): each case builds one expression from a dict of Dask arrays, runs it
with the synchronous and the threaded scheduler, and checks the result is an npgpu array."""
import numpy as np
import pytest

import npgpu
from conftest import assert_matches, random_array

da = pytest.importorskip("dask.array")
import dask  # noqa: E402

SCHEDULERS = ["sync", "threads"]

# name -> (shape, chunks); "xn" has NaNs, "spd" is symmetric positive definite
_rng = np.random.default_rng(22)
HOST = {
    "x": random_array((12, 10), np.float64, _rng),
    "y": random_array((12, 10), np.float64, _rng),
    "v": random_array((20,), np.float64, _rng),
    "i": _rng.integers(0, 8, 20),
    "tall": _rng.standard_normal((24, 4)),
    "sq": _rng.standard_normal((6, 6)) + 6 * np.eye(6),
    "b": _rng.standard_normal((6, 2)),
    "f": _rng.standard_normal((8, 16)),
}
HOST["xn"] = HOST["x"].copy()
HOST["xn"][::3, 1::4] = np.nan
HOST["spd"] = HOST["sq"] @ HOST["sq"].T
CHUNKS = {"x": (5, 4), "y": (5, 4), "xn": (5, 4), "v": 7, "i": 7, "tall": (8, 4), "sq": 3,
          "spd": 3, "b": (3, 2), "f": (4, 16)}


def _arrays(device):
    wrap = npgpu.asarray if device else (lambda h: h)
    return {k: da.from_array(wrap(h), chunks=CHUNKS[k]) for k, h in HOST.items()}


def _setitem(d, key, value):
    d = d.copy()
    d[key] = value
    return d


# Dask builds these without passing the chunks' meta on (a NumPy meta over npgpu chunks:
# docs/dask.md); ``to_backend("npgpu")`` puts npgpu's back without touching the chunks.
def _repaired(d):
    return d.to_backend("npgpu")


OPS = {
    # elementwise, NumPy scalars and 0-d operands
    "arith": lambda a: (a["x"] * 3 - a["y"] / 2) ** 2 // 7,
    "numpy_scalars": lambda a: a["x"] * np.float32(2) + np.int64(3),
    "numpy_0d": lambda a: np.array(2.5) - a["x"] + np.array(1.0),
    "ufuncs": lambda a: np.hypot(np.sin(a["x"]), a["y"]) + np.exp(a["x"] / 50),
    "compare_logical": lambda a: (a["x"] > a["y"]) | (a["x"] < 0),
    "broadcast_row": lambda a: a["x"] + a["x"][0],
    "astype_clip_round": lambda a: da.round(a["x"].clip(-3, 3).astype(np.float32), 1),
    "nan_to_num": lambda a: da.nan_to_num(a["xn"]),
    # reductions
    "sum_keepdims": lambda a: a["x"].sum(axis=1, keepdims=True),
    "prod_split_every": lambda a: (a["x"] / 10).prod(axis=0, split_every=2),
    "mean_std_var": lambda a: da.stack([a["x"].mean(axis=0), a["x"].std(axis=0),
                                        a["x"].var(axis=0, ddof=1)]),
    "min_max": lambda a: da.stack([a["x"].min(axis=1), a["x"].max(axis=1)]),
    "argmin_argmax": lambda a: da.stack([a["x"].argmin(axis=0), da.argmax(a["x"], axis=0,
                                                                         split_every=2)]),
    "argmax_flat": lambda a: a["x"].argmax(),
    "any_all": lambda a: da.stack([(a["x"] > 15).any(axis=0), (a["x"] > -25).all(axis=0)]),
    "nan_reductions": lambda a: da.stack([da.nansum(a["xn"], axis=0), da.nanmean(a["xn"], axis=0),
                                          da.nanstd(a["xn"], axis=0), da.nanmax(a["xn"], axis=0)]),
    "nanargmin": lambda a: da.nanargmin(a["xn"], axis=0),
    "cumsum_cumprod": lambda a: da.stack([a["x"].cumsum(axis=0), (a["x"] / 10).cumprod(axis=1)]),
    "nancumsum": lambda a: da.nancumsum(a["xn"], axis=0),
    "cumsum_flat": lambda a: a["x"].cumsum(axis=None),
    "count_nonzero": lambda a: da.count_nonzero(a["x"] > 0, axis=0),
    "median": lambda a: da.median(a["x"], axis=1),
    "topk": lambda a: da.topk(a["v"], 3),
    "average": lambda a: da.average(a["x"], axis=0, weights=a["y"] ** 2),
    # linear algebra
    "qr_r": lambda a: abs(da.linalg.qr(a["tall"])[1]),
    "svd_values": lambda a: da.linalg.svd(a["tall"])[1],
    "cholesky": lambda a: da.linalg.cholesky(a["spd"]),
    "cholesky_lower": lambda a: da.linalg.cholesky(a["spd"], lower=True),
    "solve_triangular": lambda a: da.linalg.solve_triangular(da.triu(a["sq"]), a["b"]),
    "solve_triangular_lower": lambda a: da.linalg.solve_triangular(da.tril(a["sq"]), a["b"][:, 0],
                                                                   lower=True),
    "solve_pos": lambda a: da.linalg.solve(a["spd"], a["b"], assume_a="pos"),
    "lstsq": lambda a: da.linalg.lstsq(a["tall"], a["tall"][:, 0] + 1)[0],
    "norms": lambda a: da.stack([da.linalg.norm(a["x"]), da.linalg.norm(a["x"], 1),
                                 da.linalg.norm(a["tall"], 2)]),
    "norm_axis": lambda a: da.linalg.norm(a["x"], np.inf, axis=1),
    # FFT along a one-chunk axis
    "fft": lambda a: _repaired(da.fft.fft(a["f"], axis=1)),
    "ifft_n": lambda a: _repaired(da.fft.ifft(a["f"], n=10, axis=1)),
    "rfft_irfft": lambda a: _repaired(da.fft.irfft(da.fft.rfft(a["f"], axis=1), axis=1)),
    "fftshift": lambda a: da.fft.fftshift(a["f"], axes=1),
    # shapes
    "rechunk_reshape": lambda a: a["x"].rechunk((3, 10)).reshape(3, 4, 10),
    "moveaxis_swapaxes": lambda a: da.swapaxes(da.moveaxis(a["x"][None], 0, 2), 0, 1),
    "squeeze_expand_flip": lambda a: da.flip(da.expand_dims(a["x"][:, 1], 1), 0),
    "broadcast_to": lambda a: da.broadcast_to(a["v"], (3, 20)),
    # indexing
    "slices": lambda a: a["x"][1:9:2, ::-3],
    "int_array_index": lambda a: a["x"][:, np.array([9, 0, 3])],
    "dask_index": lambda a: a["v"][a["i"]],
    "bool_mask_host": lambda a: a["v"][HOST["v"] > 0],
    "bool_mask_dask": lambda a: _repaired(a["v"][a["v"] > 0]),
    "bool_mask_2d_sum": lambda a: _repaired(a["x"][a["x"] > 0]).sum(),
    "vindex": lambda a: a["x"].vindex[[1, 2, 5], [3, 0, 9]],
    "setitem_mask": lambda a: _setitem(a["x"], a["x"] < 0, 0.0),
    "setitem_slice": lambda a: _setitem(a["x"], (slice(0, 3), 1), 5.0),
    "take_compress": lambda a: da.compress(HOST["x"][:, 0] > 0, da.take(a["x"], [1, 5, 2], axis=1),
                                           axis=0),
    "choose_select": lambda a: da.select([a["x"] > 0], [da.choose(a["x"] < 0, [a["x"], a["y"]])], 1),
    "where": lambda a: da.where(a["x"] > 0, a["x"], 0.0),
    # joining
    "stack_concatenate": lambda a: da.concatenate([da.stack([a["x"], a["y"]], axis=1),
                                                   da.stack([a["y"], a["x"]], axis=1)[:3]]),
    "block": lambda a: da.block([[a["x"], a["y"]], [a["y"], a["x"]]]),
    "hstack_dstack": lambda a: da.dstack([da.hstack([a["x"], a["y"]])] * 2),
    "append_insert_delete": lambda a: da.delete(da.insert(da.append(a["v"], a["v"][:3]), 3, 7.0,
                                                          axis=0), [1, 8], axis=0),
    # products
    "einsum": lambda a: da.einsum("ij,kj->ik", a["x"], a["y"]),
    "tensordot": lambda a: da.tensordot(a["x"], a["y"], axes=([0], [0])),
    "matmul_batched": lambda a: (a["x"].reshape(2, 6, 10)
                                 @ da.swapaxes(a["y"].reshape(2, 6, 10), 1, 2)),
    "dot_vdot_outer": lambda a: da.outer(da.dot(a["x"], a["y"][0]), da.vdot(a["v"], a["v"])),
    "trace_diagonal": lambda a: da.concatenate([da.diagonal(a["x"], 1), da.trace(a["sq"])[None]]),
    # sets, counting, histograms
    "unique": lambda a: da.unique(a["i"]),
    "isin": lambda a: da.isin(a["i"], [1, 3, 5], invert=True),
    "histogram": lambda a: _repaired(da.histogram(a["v"], bins=5, range=(-20, 20),
                                                  weights=a["v"] ** 2)[0]),
    "bincount": lambda a: da.bincount(a["i"], weights=a["v"], minlength=8),
    "digitize": lambda a: da.digitize(a["v"], np.array([-5.0, 0.0, 5.0])),
    # differences, padding, rearranging
    "diff": lambda a: da.diff(a["x"], n=2, axis=0),
    "gradient": lambda a: _repaired(da.gradient(a["x"], axis=0)),
    "pad_constant": lambda a: da.pad(a["x"], ((1, 2), (0, 3)), constant_values=7.0),
    "pad_edge_reflect": lambda a: da.pad(da.pad(a["x"], 2, mode="edge"), 1, mode="reflect"),
    "pad_wrap_symmetric": lambda a: da.pad(da.pad(a["x"], 2, mode="wrap"), 1, mode="symmetric"),
    "pad_linear_ramp_mean": lambda a: da.pad(da.pad(a["v"], 2, mode="linear_ramp"), 1,
                                             mode="mean"),
    "tile_repeat": lambda a: da.repeat(da.tile(a["x"], (2, 1)), 2, axis=1),
    "roll": lambda a: da.roll(da.roll(a["x"], 3, axis=1), -4),
    "rot90": lambda a: da.rot90(a["x"]),
    "triu_tril": lambda a: da.triu(a["x"], 1) - da.tril(a["x"], -1),
    "diag": lambda a: da.diag(da.diag(a["sq"])),
    # user functions
    "map_overlap": lambda a: a["x"].map_overlap(lambda b: b * 2, depth=(1, 2), boundary="periodic"),
    "map_overlap_reflect": lambda a: a["v"].map_overlap(lambda b: b - b.mean(), depth=1,
                                                        boundary="reflect"),
    "apply_gufunc": lambda a: da.apply_gufunc(lambda t: (t.mean(axis=-1), t.std(axis=-1)),
                                              "(i)->(),()", a["x"].rechunk((5, 10)))[1],
    "blockwise": lambda a: da.blockwise(np.add, "ij", a["x"], "ij", a["y"], "ij", dtype=float),
    "reduction": lambda a: da.reduction(a["x"], lambda c, axis, keepdims: c.sum(axis, keepdims=keepdims),
                                        lambda c, axis, keepdims: c.max(axis, keepdims=keepdims),
                                        dtype=float, axis=0),
    "corrcoef": lambda a: da.corrcoef(a["x"]),
    "like": lambda a: da.stack([da.ones_like(a["x"]), da.zeros_like(a["x"], dtype=np.int32),
                                da.full_like(a["x"], 3.5), da.empty_like(a["x"]) * 0]),
}
# where float rounding differs between chunked and whole-array evaluation
RTOL = {"mean_std_var": 1e-10, "nan_reductions": 1e-10, "average": 1e-10, "svd_values": 1e-10,
        "cholesky": 1e-10, "cholesky_lower": 1e-10, "solve_triangular": 1e-10,
        "solve_triangular_lower": 1e-10, "solve_pos": 1e-10, "lstsq": 1e-10, "norms": 1e-10,
        "qr_r": 1e-10, "corrcoef": 1e-10, "fft": 1e-10, "ifft_n": 1e-10, "rfft_irfft": 1e-10,
        "einsum": 1e-10, "tensordot": 1e-10, "matmul_batched": 1e-10, "dot_vdot_outer": 1e-10,
        "map_overlap_reflect": 1e-10, "apply_gufunc": 1e-10, "histogram": 1e-10,
        "bool_mask_2d_sum": 1e-10}
# the backend Dask creates arrays with inside the operation (nonzero's and inv's index grids,
# triu's masks ...): npgpu's for these
BACKEND = {"nonzero", "argwhere", "where_nonzero", "triu_tril", "like"}
OPS.update({
    "nonzero": lambda a: da.nonzero(a["v"] > 0)[0],
    "argwhere": lambda a: da.argwhere(a["x"] > 5),
    "where_nonzero": lambda a: da.flatnonzero(a["x"] > 5),
})


def _build(name, device):
    backend = "npgpu" if device and name in BACKEND else "numpy"
    with dask.config.set({"array.backend": backend}):
        return OPS[name](_arrays(device))


@pytest.mark.parametrize("scheduler", SCHEDULERS)
@pytest.mark.parametrize("name", sorted(OPS))
def test_op(name, scheduler):
    d = _build(name, device=True)
    with dask.config.set({"array.backend": "numpy"}):
        expected = _build(name, device=False).compute(scheduler="sync")
    if isinstance(expected, npgpu.ndarray):          # a NumPy reference through _repaired
        expected = expected.get()
    assert isinstance(d._meta, npgpu.ndarray), type(d._meta)
    got = d.compute(scheduler=scheduler)
    assert isinstance(got, npgpu.ndarray), type(got)
    if not np.isnan(d.shape).any():
        assert got.shape == d.shape
    assert_matches(got, expected, rtol=RTOL.get(name))


def test_store_into_npgpu_array():
    a = _arrays(True)
    target = npgpu.zeros((12, 10))
    da.store(a["x"] * 2, target, lock=False, scheduler="threads")
    assert_matches(target, HOST["x"] * 2)


def test_random_under_the_npgpu_backend():
    with dask.config.set({"array.backend": "npgpu"}):
        rng = da.random.default_rng(3)
        arrays = [rng.standard_normal((10, 6), chunks=(4, 3), dtype=np.float32),
                  rng.random((9,), chunks=4), rng.integers(0, 5, (9,), chunks=4),
                  rng.exponential(2.0, (6,), chunks=3), rng.poisson(3.0, (6,), chunks=3),
                  da.random.random((8,), chunks=3), da.random.randint(0, 4, (8,), chunks=3),
                  da.random.RandomState(1).standard_normal((5,), chunks=2)]
        again = da.random.default_rng(3).standard_normal((10, 6), chunks=(4, 3), dtype=np.float32)
    for d in arrays:
        got = d.compute(scheduler="threads")
        assert isinstance(d._meta, npgpu.ndarray) and isinstance(got, npgpu.ndarray)
        assert got.shape == d.shape and got.dtype == d.dtype
    np.testing.assert_array_equal(again.compute(scheduler="sync").get(),
                                  arrays[0].compute(scheduler="sync").get())


def test_meta_repair_keeps_the_chunks():
    # to_backend("npgpu") of npgpu chunks under a NumPy meta: a new meta, the same chunk objects
    a = _arrays(True)
    f = da.fft.fft(a["f"], axis=1)
    assert not isinstance(f._meta, npgpu.ndarray)          # Dask's meta inference (docs/dask.md)
    chunk = f.blocks[0].compute(scheduler="sync")
    assert isinstance(chunk, npgpu.ndarray)
    assert isinstance(_repaired(f)._meta, npgpu.ndarray)
