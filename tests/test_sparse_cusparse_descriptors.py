"""cuSPARSE descriptors and work sizes are cached per thread (a solver's repeated products make
no descriptor calls): checked on any backend with a recording stand-in of the bindings."""
import threading

import numpy as np

import npgpu as gp
from npgpu.scipy.sparse import _cusparse as C


class _Recorder:
    """The binding calls ``spmv`` / ``spmm`` make, counted; handles are fresh integers."""

    class IndexType:
        INDEX_32I, INDEX_64I = 2, 3

    class IndexBase:
        ZERO = 0

    class Operation:
        NON_TRANSPOSE = 0

    class Order:
        ROW = 1

    def __init__(self):
        self.calls, self.live, self._next = [], set(), 100

    def _new(self, name):
        self.calls.append(name)
        self._next += 1
        self.live.add(self._next)
        return self._next

    def _kill(self, name, h):
        self.calls.append(name)
        self.live.remove(h)

    def __getattr__(self, name):
        if name == "create":                       # the handle, not a descriptor
            return lambda: 1
        if name.startswith("create"):
            return lambda *a: self._new(name)
        if name.startswith("destroy"):
            return lambda h: self._kill(name, h)
        if name.endswith("buffer_size"):
            return lambda *a: (self.calls.append(name), 256)[1]
        return lambda *a: self.calls.append(name)


def _setup(monkeypatch):
    rec = _Recorder()
    monkeypatch.setattr(C, "module", lambda: rec)
    monkeypatch.setattr(C, "_h", C._Handles())
    # (index type, value type, host scalars 1 and 0, operation)
    monkeypatch.setattr(C, "_types", lambda indptr, data: (2, 0, 1, 2, 0))
    return rec


def _csr(rng, n=8):
    indptr = gp.asarray(np.arange(0, 2 * n + 1, 2, dtype=np.int32))
    indices = gp.asarray(rng.integers(0, n, 2 * n).astype(np.int32))
    data = gp.asarray(rng.random(2 * n).astype(np.float32))
    return (n, n), indptr, indices, data


def test_repeated_spmv_and_spmm_reuse_descriptors(monkeypatch):
    rec = _setup(monkeypatch)
    rng = np.random.default_rng(7)
    shape, ip, ix, d = _csr(rng)
    x, y = gp.asarray(rng.random(8).astype(np.float32)), gp.empty(8, np.float32)
    for _ in range(3):
        C.spmv(shape, ip, ix, d, x, y)
    assert rec.calls.count("create_csr") == 1 and rec.calls.count("create_dn_vec") == 2
    assert rec.calls.count("sp_mv_buffer_size") == 1 and rec.calls.count("sp_mv") == 3
    b, c = gp.asarray(rng.random((8, 3)).astype(np.float32)), gp.empty((8, 3), np.float32)
    for _ in range(2):
        C.spmm(shape, ip, ix, d, b, c)
    assert rec.calls.count("create_csr") == 1 and rec.calls.count("create_dn_mat") == 2
    assert rec.calls.count("sp_mm_buffer_size") == 1 and rec.calls.count("sp_mm") == 2
    # another vector: one new descriptor and one new work-size query
    x2 = gp.asarray(rng.random(8).astype(np.float32))
    C.spmv(shape, ip, ix, d, x2, y)
    assert rec.calls.count("create_dn_vec") == 3 and rec.calls.count("sp_mv_buffer_size") == 2


def test_cache_is_bounded_and_destroys_what_it_drops(monkeypatch):
    rec = _setup(monkeypatch)
    monkeypatch.setattr(C, "_DESCR_MAX", 5)
    rng = np.random.default_rng(8)
    shape, ip, ix, d = _csr(rng)
    y = gp.empty(8, np.float32)
    xs = [gp.asarray(rng.random(8).astype(np.float32)) for _ in range(6)]
    for x in xs:
        C.spmv(shape, ip, ix, d, x, y)
    assert len(rec.live) == 5 == len(C._h.descr)
    assert rec.calls.count("destroy_dn_vec") + rec.calls.count("destroy_sp_mat") == 3


def test_remembered_calls_never_use_a_destroyed_descriptor(monkeypatch):
    # a repeated SpMV replays its whole argument list; when the descriptor cache drops a
    # descriptor, the remembered calls go too, and the stream is bound again when it changes
    rec = _setup(monkeypatch)
    monkeypatch.setattr(C, "_DESCR_MAX", 4)
    used = []
    monkeypatch.setattr(rec, "sp_mv", lambda *a: used.append(a), raising=False)
    bound = []
    monkeypatch.setattr(rec, "set_stream", lambda h, s: bound.append(s), raising=False)
    rng = np.random.default_rng(10)
    shape, ip, ix, d = _csr(rng)
    y = gp.empty(8, np.float32)
    xs = [gp.asarray(rng.random(8).astype(np.float32)) for _ in range(4)]
    for x in xs + xs[:2] + xs:
        C.spmv(shape, ip, ix, d, x, y)
        a, vx, vy = used[-1][3], used[-1][4], used[-1][6]
        assert {a, vx, vy} <= rec.live, "a destroyed descriptor was used"
    assert len(used) == 10
    n = len(bound)
    for s in (77, 77, 0):                  # another stream (on the simulator every one is 0)
        monkeypatch.setattr(C._rt, "current_stream_handle", lambda s=s: s)
        C.spmv(shape, ip, ix, d, xs[-1], y)
    assert bound[n:] == [77, 0] and len(used) == 13


def test_each_thread_has_its_own_descriptors(monkeypatch):
    rec = _setup(monkeypatch)
    rng = np.random.default_rng(9)
    shape, ip, ix, d = _csr(rng)
    x, y = gp.asarray(rng.random(8).astype(np.float32)), gp.empty(8, np.float32)
    C.spmv(shape, ip, ix, d, x, y)
    t = threading.Thread(target=C.spmv, args=(shape, ip, ix, d, x, y))
    t.start()
    t.join()
    assert rec.calls.count("create_csr") == 2


def test_spmv_route_choice(monkeypatch):
    # "auto": cuSPARSE for float/complex rows of 8+ nonzeros on average, the generated kernel
    # for shorter rows and other dtypes; the environment's choice forces a route
    from npgpu import _backend
    from npgpu.scipy.sparse import _products as P
    monkeypatch.setattr(_backend, "IS_SIM", False)
    monkeypatch.setitem(P._ROUTE, "spmv", "auto")
    f4, i4 = np.dtype(np.float32), np.dtype(np.int32)
    assert P._use_library(f4, "spmv", 16 * 100, 100)
    assert P._use_library(np.dtype(np.complex128), "spmv", 8 * 100, 100)
    assert not P._use_library(f4, "spmv", 5 * 100, 100)          # cg's 5-point rows
    assert not P._use_library(i4, "spmv", 16 * 100, 100)
    monkeypatch.setitem(P._ROUTE, "spmv", "kernel")
    assert not P._use_library(f4, "spmv", 16 * 100, 100)
    monkeypatch.setitem(P._ROUTE, "spmv", "cusparse")
    assert P._use_library(f4, "spmv", 5 * 100, 100)
    assert not P._use_library(f4, "spmm", 16 * 100, 100)          # SpMM: the kernel
