"""Read-only arrays as NumPy 2 has them: ``flags.writeable`` and its rules, the views NumPy
marks read-only (broadcast_to, diag/diagonal of 2-D, the imaginary part of a real array),
broadcast_arrays' warn-on-write views, NumPy's ValueError for every kind of write, and the
read-only flag through ``__cuda_array_interface__`` and DLPack.

Each case builds the same array with NumPy and npgpu and compares flags, error class and
message, and the data afterwards."""
import operator
import warnings

import numpy as np
import pytest

import npgpu
from conftest import ALL_DTYPES, error_of, random_array

SIM = npgpu.backend() == "simulator"
needs_sim = pytest.mark.skipif(not SIM, reason="simulator only: device memory is host memory there")
N = 6


def _both(h):
    return h, npgpu.asarray(h)


# ---- read-only arrays of every kind, built the same way by NumPy and npgpu ----------------------
def _owner(xp, h):
    a = np.array(h) if xp is np else npgpu.asarray(h)
    a.flags.writeable = False
    return a


def _make(kind, xp, h):
    """A read-only 1-d array of len(h) elements (``kind`` says how it became read-only)."""
    if kind == "owner":
        return _owner(xp, h)
    if kind == "view_of_readonly":
        big = np.repeat(h, 2)[::-1].copy()
        return _owner(xp, big)[::-2]
    if kind == "broadcast_to":
        src = h[:1].copy()
        return xp.broadcast_to(src if xp is np else npgpu.asarray(src), h.shape)
    if kind == "diag":
        m = np.diag(h) + np.ones((h.size, h.size), h.dtype)
        return xp.diag(m if xp is np else npgpu.asarray(m))
    if kind == "diagonal":
        m = np.stack([np.diag(h)] * 2)
        return xp.diagonal(m if xp is np else npgpu.asarray(m), 0, 1, 2)[1]
    if kind == "setflags":
        a = h.copy() if xp is np else npgpu.asarray(h)
        a.setflags(write=False)
        return a
    raise ValueError(kind)


KINDS = ["owner", "view_of_readonly", "broadcast_to", "diag", "diagonal", "setflags"]


@pytest.mark.matrix
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_readonly_kinds_flags_and_values(kind, dtype):
    h = random_array((N,), dtype)
    want, got = _make(kind, np, h), _make(kind, npgpu, h)
    assert want.flags.writeable is False and got.flags.writeable is False
    assert got.flags["W"] is False and got.flags["WRITEABLE"] is False
    np.testing.assert_array_equal(got.get(), want)
    # views of a read-only array stay read-only (ravel and reshape copy where NumPy copies)
    for f in (lambda a: a[::-1], lambda a: a.reshape(2, -1).T, lambda a: a.ravel(),
              lambda a: a[None], lambda a: a.view(), lambda a: a.real, lambda a: a[1:3],
              lambda a: a.reshape(3, 2)):
        assert f(got).flags.writeable is f(want).flags.writeable
    # copies are writeable
    for f in (lambda a: a.copy(), lambda a: a.astype(a.dtype), lambda a: a.flatten()):
        assert f(got).flags.writeable is f(want).flags.writeable is True


def test_flags_repr_and_owndata():
    h = random_array((N,), np.float32)
    g = npgpu.asarray(h)
    assert "WRITEABLE : True" in repr(g.flags)
    g.flags.writeable = False
    assert "WRITEABLE : False" in repr(g.flags)
    assert g.flags.owndata and not g[1:].flags.owndata


# ---- views NumPy marks read-only --------------------------------------------------------------
def _views():
    m = random_array((4, 5), np.float64)
    c = random_array((3, 4), np.complex64)
    v = random_array((5,), np.int32)
    t = random_array((2, 3, 4), np.float32)
    return [
        ("broadcast_to", lambda xp, a: xp.broadcast_to(a, (3, 5)), v),
        ("broadcast_to same shape", lambda xp, a: xp.broadcast_to(a, (5,)), v),
        ("broadcast_to 0-d", lambda xp, a: xp.broadcast_to(a[0], ()), v),
        ("broadcast_to empty", lambda xp, a: xp.broadcast_to(a[:0], (2, 0)), v),
        ("broadcast_to then T", lambda xp, a: xp.broadcast_to(a, (2, 5)).T, v),
        ("diag 2-d", lambda xp, a: xp.diag(a), m),
        ("diag 2-d k=2", lambda xp, a: xp.diag(a, 2), m),
        ("diag 2-d k=-3", lambda xp, a: xp.diag(a, -3), m),
        ("diag 2-d empty", lambda xp, a: xp.diag(a, 7), m),
        ("diag 1-d", lambda xp, a: xp.diag(a), v),
        ("diagflat", lambda xp, a: xp.diagflat(a), v),
        ("diagonal", lambda xp, a: xp.diagonal(a, 1), m),
        ("diagonal 3-d", lambda xp, a: xp.diagonal(a, -1, 2, 0), t),
        ("linalg.diagonal", lambda xp, a: xp.linalg.diagonal(a), t),
        ("method diagonal", lambda xp, a: a.diagonal(), m),
        ("trace input view", lambda xp, a: a[::-1, 1:], m),
        ("imag of real", lambda xp, a: a.imag, m),
        ("imag of complex", lambda xp, a: a.imag, c),
        ("real of complex", lambda xp, a: a.real, c),
        ("tril of 1-d", lambda xp, a: xp.tril(a), v),
        ("meshgrid sparse", lambda xp, a: xp.meshgrid(a, a, sparse=True, copy=False)[0], v),
        ("broadcast_arrays same shape", lambda xp, a: xp.broadcast_arrays(a, a[:1])[0], v),
    ]


@pytest.mark.parametrize("name,f,h", _views(), ids=[v[0] for v in _views()])
def test_views_writeable_as_numpy(name, f, h):
    want, got = f(np, h), f(npgpu, npgpu.asarray(h))
    assert got.flags.writeable is want.flags.writeable
    np.testing.assert_array_equal(got.get(), want)


# ---- setting the flag: NumPy's rules ----------------------------------------------------------
def test_set_writeable_rules():
    h = random_array((4, 4), np.float64)
    for xp in (np, npgpu):
        a = _owner(xp, h)
        v = a[1:]
        # a view of a read-only owner cannot become writeable
        e = error_of(lambda: setattr(v.flags, "writeable", True))
        assert e == (ValueError, "cannot set WRITEABLE flag to True of this array")
        assert error_of(lambda: a.setflags(write=True)) is None     # an owner may
        assert v.flags.writeable is False                         # views keep their own flag
        v.flags.writeable = True                                  # now its owner is writeable
        a.flags.writeable = False
        assert v.flags.writeable is True                          # ... and v stays so
        v[0, 0] = 42.0
        assert float(a[1, 0]) == 42.0
        a.flags["W"] = True
        # read-only views NumPy makes may become writeable while their owner is
        d = xp.diag(a)
        d.flags.writeable = True
        d[2] = -7.0
        assert float(a[2, 2]) == -7.0
        b = xp.broadcast_to(a[0], (3, 4))
        b.flags.writeable = True
        a.flags.writeable = False
        e = error_of(lambda: setattr(xp.broadcast_to(a[0], (3, 4)).flags, "writeable", True))
        assert e == (ValueError, "cannot set WRITEABLE flag to True of this array")
    assert error_of(lambda: npgpu.zeros(2).setflags(uic=True)) == \
        error_of(lambda: np.zeros(2).setflags(uic=True))
    assert error_of(lambda: npgpu.zeros(2).flags.__setitem__("C", True))[0] is KeyError


def test_imag_of_real_may_become_writeable():
    # NumPy: a new read-only array of zeros that owns its memory
    for xp in (np, npgpu):
        z = xp.arange(3.0).imag
        z.flags.writeable = True
        z[1] = 5.0
        assert float(z[1]) == 5.0


# ---- every write raises NumPy's error ------------------------------------------------------------
def _writes():
    """(name, f(xp, t, x, X, mask)): ``t`` the read-only target (N,), ``x`` a writeable (N,)
    input, ``X`` a writeable (3, N) input, ``mask`` a boolean (N,)."""
    return [
        ("setitem ellipsis", lambda xp, t, x, X, m: t.__setitem__(Ellipsis, 1)),
        ("setitem int", lambda xp, t, x, X, m: t.__setitem__(0, 2)),
        ("setitem out of bounds", lambda xp, t, x, X, m: t.__setitem__(N + 5, 2)),
        ("setitem slice array", lambda xp, t, x, X, m: t.__setitem__(slice(1, 3), x[:2])),
        ("setitem host list", lambda xp, t, x, X, m: t.__setitem__(slice(0, 2), [1, 2])),
        ("setitem int array", lambda xp, t, x, X, m: t.__setitem__([0, 2], 5)),
        ("setitem int array values", lambda xp, t, x, X, m: t.__setitem__([0, 2], x[:2])),
        ("setitem mask", lambda xp, t, x, X, m: t.__setitem__(m, 1)),
        ("setitem bad value", lambda xp, t, x, X, m: t.__setitem__(0, "text")),
        ("fill", lambda xp, t, x, X, m: t.fill(3)),
        ("copyto", lambda xp, t, x, X, m: xp.copyto(t, x)),
        ("copyto scalar", lambda xp, t, x, X, m: xp.copyto(t, 4)),
        ("copyto where", lambda xp, t, x, X, m: xp.copyto(t, x, where=m)),
        ("ufunc out", lambda xp, t, x, X, m: xp.add(x, 1, out=t)),
        ("ufunc out tuple", lambda xp, t, x, X, m: xp.multiply(x, x, out=(t,))),
        ("ufunc out positional", lambda xp, t, x, X, m: xp.subtract(x, x, t)),
        ("ufunc out where", lambda xp, t, x, X, m: xp.negative(x, out=t, where=m)),
        ("ufunc out wrong shape", lambda xp, t, x, X, m: xp.add(X, 1, out=t)),
        ("ufunc second out", lambda xp, t, x, X, m: xp.divmod(x, 3, out=(x.copy(), t))),
        ("iadd", lambda xp, t, x, X, m: operator.iadd(t, 1)),
        ("imul array", lambda xp, t, x, X, m: operator.imul(t, x)),
        ("ipow", lambda xp, t, x, X, m: operator.ipow(t, 2)),
        ("clip out", lambda xp, t, x, X, m: xp.clip(x, -1, 1, out=t)),
        ("round out", lambda xp, t, x, X, m: xp.round(x, 2, out=t)),
        ("round 0 out", lambda xp, t, x, X, m: xp.round(x, out=t)),
        ("sum out", lambda xp, t, x, X, m: xp.sum(X, axis=0, out=t)),
        ("sum out bad axis", lambda xp, t, x, X, m: xp.sum(X, axis=5, out=t)),
        ("max out", lambda xp, t, x, X, m: xp.max(X, axis=0, out=t)),
        ("mean out", lambda xp, t, x, X, m: xp.mean(X, axis=0, out=t)),
        ("var out", lambda xp, t, x, X, m: xp.var(X, axis=0, out=t)),
        ("nansum out", lambda xp, t, x, X, m: xp.nansum(X, axis=0, out=t)),
        ("add.reduce out", lambda xp, t, x, X, m: xp.add.reduce(X, axis=0, out=t)),
        ("cumsum out", lambda xp, t, x, X, m: xp.cumsum(x, out=t)),
        ("add.accumulate out", lambda xp, t, x, X, m: xp.add.accumulate(x, out=t)),
        ("put", lambda xp, t, x, X, m: xp.put(t, [0, 1], 9)),
        ("put empty", lambda xp, t, x, X, m: xp.put(t, [], 9)),
        ("put method", lambda xp, t, x, X, m: t.put([1], x[:1])),
        ("place", lambda xp, t, x, X, m: xp.place(t, m, [1, 2])),
        ("putmask", lambda xp, t, x, X, m: xp.putmask(t, m, x)),
        ("take out", lambda xp, t, x, X, m: xp.take(x, list(range(N))[::-1], out=t)),
        ("choose out", lambda xp, t, x, X, m: xp.choose(m.astype(int), [x, x], out=t)),
        ("compress out", lambda xp, t, x, X, m: xp.compress([True] * N, x, out=t)),
        ("concatenate out", lambda xp, t, x, X, m: xp.concatenate([x[:2], x[2:]], out=t)),
        ("matmul out", lambda xp, t, x, X, m: xp.matmul(X.T, x[:3], out=t)),
        ("vecdot out", lambda xp, t, x, X, m: xp.vecdot(X.T, X.T, out=t)),
        ("dot out", lambda xp, t, x, X, m: xp.dot(X.T, x[:3], out=t)),
        ("einsum out", lambda xp, t, x, X, m: xp.einsum("ij->j", X, out=t)),
        ("outer out", lambda xp, t, x, X, m: xp.outer(x, x, out=t)),
    ]


@pytest.mark.matrix
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name,f", _writes(), ids=[w[0] for w in _writes()])
def test_writes_raise_numpys_error(kind, name, f):
    rng = np.random.default_rng(7)
    h = random_array((N,), np.float64, rng)
    hx = random_array((N,), np.float64, rng)
    hX = random_array((3, N), np.float64, rng)
    hm = rng.random(N) > 0.5
    tn, tg = _make(kind, np, h), _make(kind, npgpu, h)
    want = error_of(lambda: f(np, tn, hx.copy(), hX.copy(), hm))
    got = error_of(lambda: f(npgpu, tg, npgpu.asarray(hx), npgpu.asarray(hX), npgpu.asarray(hm)))
    assert want is not None and want[0] is ValueError, want
    assert got == want
    np.testing.assert_array_equal(tg.get(), tn)           # nothing was written


def test_ndarray_set_and_get_out():
    h = random_array((N,), np.float32)
    g = _owner(npgpu, h)
    assert error_of(lambda: g.set(h[::-1].copy())) == (ValueError,
                                                        "assignment destination is read-only")
    np.testing.assert_array_equal(g.get(), h)
    host = np.empty(N, np.float32)
    host.flags.writeable = False
    assert error_of(lambda: npgpu.asarray(h).get(out=host)) == (ValueError,
                                                                 "output array is read-only")


@pytest.mark.matrix
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_writes_every_dtype(dtype):
    h = random_array((N,), dtype)
    for kind in ("owner", "broadcast_to", "diag"):
        tn, tg = _make(kind, np, h), _make(kind, npgpu, h)
        for f in (lambda xp, t: t.__setitem__(slice(None), t[::-1]),
                  lambda xp, t: t.fill(t[0]),
                  lambda xp, t: operator.iadd(t, t),
                  lambda xp, t: xp.copyto(t, t[0]),
                  lambda xp, t: xp.positive(t, out=t) if t.dtype.kind != "b" else t.fill(0)):
            assert error_of(lambda: f(npgpu, tg)) == error_of(lambda: f(np, tn))
        np.testing.assert_array_equal(tg.get(), tn)


@pytest.mark.parametrize("shape", [(), (0,), (2, 0)], ids=["0d", "empty", "empty2d"])
def test_writes_0d_and_empty(shape):
    h = random_array(shape, np.float64)
    tn, tg = _owner(np, h), _owner(npgpu, h)
    src = random_array(shape, np.float64)
    for f in (lambda xp, t: t.__setitem__(Ellipsis, 1.5), lambda xp, t: t.fill(2),
              lambda xp, t: xp.copyto(t, 1), lambda xp, t: xp.add(t, 1, out=t),
              lambda xp, t: operator.isub(t, 1),
              lambda xp, t: xp.sum(xp.ones((4,) + shape), axis=0, out=t),
              lambda xp, t: xp.copyto(t, src if xp is np else npgpu.asarray(src))):
        want = error_of(lambda: f(np, tn))
        assert want is not None and error_of(lambda: f(npgpu, tg)) == want
    np.testing.assert_array_equal(tg.get(), tn)


def test_writes_2d_routines():
    h = random_array((4, 4), np.float64)
    tn, tg = _owner(np, h), _owner(npgpu, h)
    idx = np.zeros((4, 1), np.int64)
    for f in (lambda xp, t: xp.fill_diagonal(t, 1.0),
              lambda xp, t: xp.fill_diagonal(t[:, :2].T.T, 1.0, wrap=True),
              lambda xp, t: xp.put_along_axis(t, idx if xp is np else npgpu.asarray(idx), 2.0,
                                              axis=1),
              # (NumPy 2.4's ufunc.at skips the check on its 1-element-subspace fast path and
              # writes; its iterator path, as here, raises: npgpu always raises)
              lambda xp, t: xp.add.at(t, [0], 1.0),
              lambda xp, t: xp.matmul(t, t, out=t),
              lambda xp, t: xp.add.reduceat(t.T, [0, 2], axis=1, out=t[:, :2]),
              lambda xp, t: t.__setitem__((slice(None), [0, 3]), 0.0),
              lambda xp, t: t.T.__setitem__((0, slice(None)), 0.0)):
        want = error_of(lambda: f(np, tn))
        assert want is not None and error_of(lambda: f(npgpu, tg)) == want
    np.testing.assert_array_equal(tg.get(), tn)


def test_writeable_arrays_unaffected(rng):
    # the checks never refuse a writeable array: in-place work still matches NumPy
    h = random_array((3, N), np.int64, rng)
    hn, g = h.copy(), npgpu.asarray(h)
    for xp, a in ((np, hn), (npgpu, g)):
        a += 3
        a[1] = a[0]
        xp.copyto(a[2], 7, where=a[0] > 0)
        xp.multiply(a, 2, out=a)
        xp.sum(a, axis=0, out=a[0])
    np.testing.assert_array_equal(g.get(), hn)


# ---- broadcast_arrays: writeable, but warn on write (NumPy 2) -------------------------------------
def test_broadcast_arrays_warn_on_write():
    h = random_array((N,), np.float64)
    hb = np.empty((3, N))
    results = []
    for xp, x, big in ((np, h.copy(), hb), (npgpu, npgpu.asarray(h), npgpu.asarray(hb))):
        full, y = xp.broadcast_arrays(big, x)
        assert full is big
        with pytest.warns(FutureWarning, match="future versions will not create a writeable"):
            assert y.flags.writeable is True
        assert "WARN_ON_WRITE=True" in repr(y.flags)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            y[0, 1] = 5.0                # writes x[1]: every row sees it
            y[1, 2] = 6.0                # warned once per array
            v = xp.broadcast_arrays(big, x)[1][1:]      # a view keeps the warning
            v += 1.0
        msgs = [(m.category, str(m.message)) for m in w]
        assert len(msgs) == 2 and all(c is DeprecationWarning and "np.broadcast_arrays" in s
                                      for c, s in msgs), msgs
        z = xp.broadcast_arrays(big, x)[1]
        z.flags.writeable = True         # set explicitly: no warning any more
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            z[2, 0] = -1.0
            assert z.flags.writeable is True
        results.append(x if xp is np else x.get())
    np.testing.assert_array_equal(results[1], results[0])


def test_broadcast_arrays_of_readonly():
    h = random_array((N,), np.int16)
    hb = random_array((2, N), np.int16)
    want = np.broadcast_arrays(_owner(np, h), hb)
    got = npgpu.broadcast_arrays(_owner(npgpu, h), npgpu.asarray(hb))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert [g.flags.writeable for g in got] == [w.flags.writeable for w in want] == [False, True]
    assert error_of(lambda: got[0].fill(1)) == error_of(lambda: want[0].fill(1))


def test_meshgrid_no_copy_warns_like_numpy():
    h = random_array((4,), np.float32)
    want = np.meshgrid(h, h[:3], copy=False)
    got = npgpu.meshgrid(npgpu.asarray(h), npgpu.asarray(h[:3]), copy=False)
    for w, g in zip(want, got):
        with pytest.warns(FutureWarning):
            assert g.flags.writeable is True
        np.testing.assert_array_equal(g.get(), w)


# ---- export and import ----------------------------------------------------------------------------
def test_cai_export_readonly_flag():
    h = random_array((N,), np.float32)
    g = npgpu.asarray(h)
    assert g.__cuda_array_interface__["data"][1] is False
    assert npgpu.broadcast_to(g, (2, N)).__cuda_array_interface__["data"][1] is True
    assert npgpu.diag(g.reshape(2, 3)).__cuda_array_interface__["data"][1] is True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        y = npgpu.broadcast_arrays(g, npgpu.empty((2, N)))[0]
    assert y.__cuda_array_interface__["data"][1] is False      # still writeable (it warns)
    g.flags.writeable = False
    cai = g[::2].__cuda_array_interface__
    assert cai["data"] == (g.data.ptr, True)


class _CAI:
    def __init__(self, cai, keep):
        self.__cuda_array_interface__ = cai
        self.keep = keep


def test_cai_import_readonly():
    h = random_array((N,), np.int32)
    src = npgpu.asarray(h)
    cai = dict(src.__cuda_array_interface__, data=(src.data.ptr, True))
    g = npgpu.asarray(_CAI(cai, src))
    assert g.data.ptr == src.data.ptr and g.flags.writeable is False
    assert error_of(lambda: g.fill(1)) == (ValueError, "assignment destination is read-only")
    e = error_of(lambda: setattr(g.flags, "writeable", True))
    assert e == (ValueError, "cannot set WRITEABLE flag to True of this array")
    assert error_of(lambda: setattr(g[1:].flags, "writeable", True)) == e
    np.testing.assert_array_equal(g.get(), h)
    w = npgpu.asarray(_CAI(src.__cuda_array_interface__, src))
    assert w.flags.writeable is True


@needs_sim
def test_dlpack_readonly_roundtrip_with_numpy():
    h = random_array((2, N), np.complex64)
    g = npgpu.broadcast_to(npgpu.asarray(h[0]), (3, N))
    # NumPy asks for a versioned capsule: the read-only flag comes through
    n = np.from_dlpack(g)
    assert n.flags.writeable is False
    np.testing.assert_array_equal(n, np.broadcast_to(h[0], (3, N)))
    # a legacy capsule cannot say read-only: NumPy's BufferError
    assert error_of(lambda: g.__dlpack__()) == error_of(lambda: _owner(np, h).__dlpack__())
    assert error_of(lambda: g.__dlpack__()) is not None
    cap = g.__dlpack__(copy=True)                     # a copy is writeable
    assert npgpu.from_dlpack(cap).flags.writeable is True
    # import: NumPy's read-only array stays read-only, for good
    hr = _owner(np, h)
    gi = npgpu.from_dlpack(hr)
    assert gi.flags.writeable is False and gi.data.ptr == hr.ctypes.data
    e = error_of(lambda: setattr(gi.flags, "writeable", True))
    assert e == error_of(lambda: setattr(np.from_dlpack(hr).flags, "writeable", True))
    assert error_of(lambda: gi.__setitem__(0, 1)) == error_of(lambda: hr.__setitem__(0, 1))
    np.testing.assert_array_equal(gi.get(), h)
    assert npgpu.from_dlpack(h.copy()).flags.writeable is True


def test_dlpack_versioned_capsule_flags():
    from npgpu._core import dlpack as _dl
    g = npgpu.asarray(random_array((N,), np.float64))
    for arr, flags in ((g, 0), (npgpu.diag(g.reshape(2, 3)), _dl.FLAG_READ_ONLY)):
        cap = arr.__dlpack__(max_version=(1, 0))
        addr = _dl._capsule_get(cap, _dl._VNAME)
        assert _dl.DLManagedTensorVersioned.from_address(addr).flags == flags
