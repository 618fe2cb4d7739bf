"""Dask arrays of npgpu chunks (issue 22): the ``"npgpu"`` backend, Dask's dispatch hooks, and
the synchronous, threaded and distributed schedulers, against NumPy and Dask-with-NumPy."""
import subprocess
import sys
import threading

import numpy as np
import pytest

import npgpu
from conftest import assert_matches, random_array

da = pytest.importorskip("dask.array")
import dask  # noqa: E402
from dask.array import dispatch as dd  # noqa: E402

SCHEDULERS = ["sync", "threads"]


def _pair(shape, dtype, chunks, seed=0):
    """(npgpu-chunked dask array, numpy-chunked dask array, host data)."""
    host = random_array(shape, dtype, np.random.default_rng(seed))
    return da.from_array(npgpu.asarray(host), chunks=chunks), da.from_array(host, chunks=chunks), host


def _check(dask_npgpu, dask_numpy, expected, scheduler, rtol=None):
    got = dask_npgpu.compute(scheduler=scheduler)
    assert isinstance(got, npgpu.ndarray)
    assert isinstance(dask_npgpu._meta, npgpu.ndarray)
    assert_matches(got, expected, rtol=rtol)
    assert_matches(got, dask_numpy.compute(scheduler=scheduler), rtol=rtol)


def test_npgpu_imports_without_dask():
    code = ("import sys, warnings; warnings.simplefilter('ignore'); import npgpu; "
            "assert 'dask' not in sys.modules, 'npgpu imported dask'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_dispatch_hooks_registered_for_npgpu_chunks():
    x = npgpu.asarray(random_array((3, 4), np.float32))
    assert dd.concatenate_lookup.dispatch(npgpu.ndarray) is npgpu.concatenate
    assert dd.tensordot_lookup.dispatch(npgpu.ndarray) is npgpu.tensordot
    assert dd.take_lookup.dispatch(npgpu.ndarray) is npgpu.take
    assert dd.empty_lookup.dispatch(npgpu.ndarray) is npgpu.empty
    assert dask.sizeof.sizeof(x) == x.nbytes == 48
    host = dd.to_numpy_dispatch(x)
    assert isinstance(host, np.ndarray)
    np.testing.assert_array_equal(host, x.get())
    # tokens: stable for one array object, distinct for another with equal contents
    assert dask.base.tokenize(x) == dask.base.tokenize(x)
    assert dask.base.tokenize(x) != dask.base.tokenize(x.copy())


@pytest.mark.parametrize("name", ["ones", "zeros", "empty", "full"])
def test_backend_creation(name):
    args = (7.5,) if name == "full" else ()
    with dask.config.set({"array.backend": "npgpu"}):
        d = getattr(da, name)((5, 6), *args, chunks=(2, 4), dtype=np.float32)
    assert isinstance(d._meta, npgpu.ndarray)
    got = d.compute(scheduler="sync")
    assert isinstance(got, npgpu.ndarray) and got.shape == (5, 6) and got.dtype == np.float32
    if name != "empty":
        assert_matches(got, getattr(np, name)((5, 6), *args, dtype=np.float32))


def test_backend_arange_and_to_backend():
    with dask.config.set({"array.backend": "npgpu"}):
        d = da.arange(3, 40, 3, chunks=4)
    assert isinstance(d._meta, npgpu.ndarray)
    assert_matches(d.compute(scheduler="sync"), np.arange(3, 40, 3))
    host = random_array((6, 5), np.float64)
    moved = da.from_array(host, chunks=(4, 2)).to_backend("npgpu")
    assert isinstance(moved._meta, npgpu.ndarray)
    assert_matches(moved.compute(scheduler="sync"), host)
    back = moved.to_backend("numpy").compute(scheduler="sync")
    assert isinstance(back, np.ndarray)
    np.testing.assert_array_equal(back, host)


def test_backend_random_generator_and_legacy():
    with dask.config.set({"array.backend": "npgpu"}):
        a = da.random.default_rng(42).standard_normal((30, 8), chunks=(10, 4), dtype=np.float32)
        b = da.random.default_rng(42).standard_normal((30, 8), chunks=(10, 4), dtype=np.float32)
        c = da.random.default_rng(43).standard_normal((30, 8), chunks=(10, 4), dtype=np.float32)
        u = da.random.RandomState(7).uniform(2.0, 3.0, size=(25,), chunks=10)
        ints = da.random.default_rng(5).integers(0, 10, size=(40,), chunks=15)
    for d in (a, u, ints):
        assert isinstance(d._meta, npgpu.ndarray)
    ha, hb, hc = (v.compute(scheduler="threads").get() for v in (a, b, c))
    assert ha.dtype == np.float32 and ha.shape == (30, 8)
    np.testing.assert_array_equal(ha, hb)                 # a seed reproduces the array
    assert not np.array_equal(ha, hc)
    blocks = [ha[i:i + 10, j:j + 4] for i in (0, 10, 20) for j in (0, 4)]
    assert len({blk.tobytes() for blk in blocks}) == 6    # each chunk its own stream
    hu = u.compute(scheduler="sync").get()
    assert hu.shape == (25,) and hu.min() >= 2.0 and hu.max() < 3.0 and np.unique(hu).size == 25
    hi = ints.compute(scheduler="sync").get()
    assert hi.min() >= 0 and hi.max() < 10 and np.unique(hi).size > 5


# the schedulers run the same chunk kernels: a scheduler x dtype matrix renders no extra ones
@pytest.mark.parametrize("scheduler, dtype", [("sync", np.float32), ("threads", np.int32)])
def test_elementwise_and_reductions(dtype, scheduler):
    d, dn, h = _pair((12, 10), dtype, (6, 5))
    _check((d * 3 - 1) ** 2 + d, (dn * 3 - 1) ** 2 + dn, (h * 3 - 1) ** 2 + h, scheduler)
    for axis in (None, 0):
        _check(d.sum(axis=axis), dn.sum(axis=axis), h.sum(axis=axis), scheduler)
        _check(d.max(axis=axis), dn.max(axis=axis), h.max(axis=axis), scheduler)
        _check(d.argmax(axis=axis), dn.argmax(axis=axis), h.argmax(axis=axis), scheduler)
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    _check(d.mean(), dn.mean(), h.mean(), scheduler, rtol)
    _check(d.std(axis=0), dn.std(axis=0), h.std(axis=0), scheduler, rtol)
    _check(d.var(ddof=1), dn.var(ddof=1), h.var(ddof=1), scheduler, rtol)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_ufuncs_and_nan_reductions(scheduler):
    d, dn, h = _pair((9, 11), np.float64, (4, 5), seed=1)
    _check(np.sin(d) + np.exp(d / 10), np.sin(dn) + np.exp(dn / 10), np.sin(h) + np.exp(h / 10),
           scheduler)
    hn = h.copy()
    hn[::3, 1::4] = np.nan
    dnan = da.from_array(npgpu.asarray(hn), chunks=(4, 5))
    dnan_np = da.from_array(hn, chunks=(4, 5))
    _check(da.nansum(dnan, axis=0), da.nansum(dnan_np, axis=0), np.nansum(hn, axis=0), scheduler)
    _check(da.nanmean(dnan), da.nanmean(dnan_np), np.nanmean(hn), scheduler, 1e-12)
    _check(da.nanmax(dnan, axis=1), da.nanmax(dnan_np, axis=1), np.nanmax(hn, axis=1), scheduler)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_matmul_tensordot_einsum(scheduler):
    a, an, ha = _pair((8, 6), np.float64, (3, 4), seed=2)
    b, bn, hb = _pair((6, 5), np.float64, (4, 2), seed=3)
    _check(a @ b, an @ bn, ha @ hb, scheduler)
    _check(da.tensordot(a, b, axes=1), da.tensordot(an, bn, axes=1), np.tensordot(ha, hb, 1),
           scheduler)
    _check(da.einsum("ij,jk->ik", a, b), da.einsum("ij,jk->ik", an, bn),
           np.einsum("ij,jk->ik", ha, hb), scheduler)
    _check(a.T.dot(a), an.T.dot(an), ha.T @ ha, scheduler)


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_rechunk_transpose_slicing_joining(scheduler):
    d, dn, h = _pair((10, 12), np.float32, (4, 5), seed=4)
    _check(d.rechunk((3, 12)), dn.rechunk((3, 12)), h, scheduler)
    _check(d.T.rechunk(7), dn.T.rechunk(7), h.T, scheduler)
    _check(d[1:9:2, ::-3], dn[1:9:2, ::-3], h[1:9:2, ::-3], scheduler)       # negative strides
    _check(d[3], dn[3], h[3], scheduler)
    _check(d[4, 5], dn[4, 5], h[4, 5], scheduler)                             # 0-d
    _check(d[:0], dn[:0], h[:0], scheduler)                                   # empty
    _check(d[:0].sum(axis=0), dn[:0].sum(axis=0), h[:0].sum(axis=0), scheduler)
    idx = np.array([7, 0, 3, 3])
    _check(d[idx], dn[idx], h[idx], scheduler)                                # take_lookup
    _check(da.concatenate([d, d[:3]], axis=0), da.concatenate([dn, dn[:3]], axis=0),
           np.concatenate([h, h[:3]], axis=0), scheduler)
    _check(da.stack([d, d * 2], axis=1), da.stack([dn, dn * 2], axis=1),
           np.stack([h, h * 2], axis=1), scheduler)
    _check(d.reshape(120), dn.reshape(120), h.reshape(120), scheduler)


def test_map_blocks_from_numpy_chunks():
    host = random_array((9, 7), np.int64)
    dn = da.from_array(host, chunks=(4, 3))
    d = dn.map_blocks(npgpu.asarray, meta=npgpu.empty((0, 0), dtype=np.int64))
    assert isinstance(d._meta, npgpu.ndarray)
    _check(d.cumsum(axis=0), dn.cumsum(axis=0), host.cumsum(axis=0), "threads")


def test_percentile():
    d, dn, h = _pair((120,), np.float64, (120,), seed=5)     # one chunk: Dask's result is exact
    q = [5.0, 50.0, 95.0]
    got = da.percentile(d, q).compute(scheduler="sync")
    assert isinstance(got, npgpu.ndarray)
    assert_matches(got, np.percentile(h, q))
    d3, dn3, _ = _pair((120,), np.float64, (40,), seed=5)    # merged across chunks, as Dask does
    assert_matches(da.percentile(d3, q).compute(scheduler="threads"),
                   da.percentile(dn3, q).compute(scheduler="threads"))


def test_distributed_in_process_client():
    distributed = pytest.importorskip("distributed")
    d, dn, h = _pair((16, 6), np.float32, (4, 6), seed=6)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        expr = ((d - d.mean(axis=0)) ** 2).sum()
        got = client.compute(expr).result()
        assert isinstance(got, npgpu.ndarray)
        assert_matches(got, ((h - h.mean(axis=0)) ** 2).sum(), rtol=1e-4)
        persisted = client.persist(d * 2)
        assert_matches(persisted.sum(axis=1).compute(), (h * 2).sum(axis=1), rtol=1e-5)


def test_threaded_compute_waits_for_nothing(monkeypatch):
    """The benchmark expression (benchmarks/dask_cases.py) under the threaded scheduler: no
    device-to-host read, host-to-device copy, synchronisation or cross-stream wait until the
    result is read, and every worker thread's launch on one stream, so Dask's host work can
    run ahead of the GPU's (issue 22).  On the GPU the driver's synchronising calls are counted
    too."""
    from npgpu._codegen import launcher
    from npgpu._core import transfer
    from npgpu.cuda import runtime
    waits, streams = [], set()

    def counted(owner, name):
        real = getattr(owner, name)

        def wrapper(*args, **kwargs):
            waits.append(name)
            return real(*args, **kwargs)
        monkeypatch.setattr(owner, name, wrapper)

    with dask.config.set({"array.backend": "npgpu"}):
        x = da.random.default_rng(22).standard_normal((64, 16), chunks=(8, 16), dtype="float32")
    x = x.persist(scheduler="threads")
    expr = ((x - x.mean(axis=0)) ** 2).sum()
    expr.compute(scheduler="threads")                   # compiles outside the count
    for owner, name in [(transfer, "_d2h"), (transfer, "_h2d"), (runtime, "stream_wait"),
                        (runtime.Stream, "synchronize"), (runtime.Event, "synchronize"),
                        (runtime.Device, "synchronize"), (runtime.Stream, "wait_event")]:
        counted(owner, name)
    if npgpu.backend() == "cuda":
        from npgpu.cuda import _driver
        for name in ("cuStreamSynchronize", "cuCtxSynchronize", "cuEventSynchronize",
                     "cuStreamWaitEvent"):
            counted(_driver, name)
    real_launch = launcher.Launcher.__call__

    def launch(self, grid, block, values, stream=None):
        streams.add(runtime.current_stream_handle() if stream is None else stream)
        return real_launch(self, grid, block, values, stream)
    monkeypatch.setattr(launcher.Launcher, "__call__", launch)
    got = expr.compute(scheduler="threads")
    assert waits == [] and streams == {0}
    monkeypatch.setattr(launcher.Launcher, "__call__", real_launch)
    host = x.compute(scheduler="sync").get()
    waits.clear()
    assert_matches(got, ((host - host.mean(axis=0)) ** 2).sum(), rtol=1e-4)
    assert waits.count("_d2h") == 1


@pytest.mark.parametrize("scheduler", ["threads", "sync"])
def test_compute_orders_the_callers_stream_with_the_workers(scheduler, monkeypatch):
    # a caller on a non-blocking stream: the workers' default stream waits for it at the start
    # of the compute, and it waits for theirs at the end (npgpu.dask._streams)
    from npgpu.cuda import runtime
    from npgpu.dask._dispatch import register_dispatch
    register_dispatch()
    stream = runtime.Stream(non_blocking=True)
    handle = stream.ptr
    if not handle:
        # the simulator's streams are all 0: a stand-in handle for the caller's thread (its
        # copies are host memmoves there, so the handle never reaches a driver)
        handle, caller, real = 77, threading.get_ident(), runtime.current_stream_handle
        monkeypatch.setattr(runtime, "current_stream_handle",
                            lambda: 77 if threading.get_ident() == caller else real())
    caller = threading.get_ident()
    waits = []
    real_wait = runtime.stream_wait

    def wait(waiter, signaller):
        waits.append((waiter, signaller, threading.get_ident() == caller))
        real_wait(waiter, signaller)
    monkeypatch.setattr(runtime, "stream_wait", wait)
    with stream:
        h = random_array((64, 16), np.float32)
        x = da.from_array(npgpu.asarray(h), chunks=(16, 16))
        got = ((x - x.mean(axis=0)) ** 2).sum().compute(scheduler=scheduler)
        got = float(got)        # read on the caller's stream
    assert [w for w in waits if w[:2] in ((0, handle), (handle, 0))] == [
        (0, handle, True), (handle, 0, True)]
    np.testing.assert_allclose(got, ((h - h.mean(axis=0)) ** 2).sum(), rtol=1e-4)
