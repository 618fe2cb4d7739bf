"""``__array_function__``: NumPy functions called on npgpu arrays run npgpu's implementation.

The dispatch table is generated from the namespace (npgpu/_dispatch.py); these tests check that
every entry is reached through ``numpy.``, that the result equals calling npgpu directly, the common
functions against NumPy's own results, the protocol with host and foreign arrays, and NumPy's
``TypeError`` for functions npgpu does not implement (never a host copy).
"""
import numpy as np
import pytest

import npgpu
from conftest import ALL_DTYPES, assert_matches, assert_same, make_layout, random_array
from npgpu import _api_status as api
from npgpu import _dispatch

TABLE = _dispatch.table()
SECTIONS = {"numpy": np, "numpy.linalg": np.linalg, "numpy.fft": np.fft}


def _qualname(f):
    mod = getattr(f, "__module__", None) or "numpy"
    return ("numpy.linalg." if "linalg" in mod else "numpy.fft." if "fft" in mod
            else "numpy.") + f.__name__


def _no_impl_message(qualname):
    return (f"no implementation found for '{qualname}' on types that implement "
            "__array_function__: [<class 'npgpu.ndarray'>]")


# ---- every table entry is reached through numpy. --------------------------------------------------
def _takes_like(f):
    return not isinstance(f, type(np.concatenate)) and _dispatch._dispatches(f)


def _candidate_calls(f, g):
    # argument lists NumPy's dispatchers accept for one function or another; ``like=`` for the
    # creation functions, whose only array argument it is
    if _takes_like(f):
        for args in ((3,), ([1.0, 2.0],), ((2, 3),), ((2, 3), 1.0), ([1.0, 2.0], float)):
            yield args, {"like": g}
    else:
        for n in range(1, 5):
            yield (g,) * n, {}


@pytest.mark.matrix
@pytest.mark.parametrize("func", sorted(TABLE, key=_qualname), ids=_qualname)
def test_numpy_call_reaches_the_table_entry(func, monkeypatch):
    g = npgpu.asarray(random_array((3, 3), np.float64))
    calls = []

    def recorder(*args, **kwargs):
        calls.append((args, kwargs))
        return "sentinel"

    monkeypatch.setitem(_dispatch._table, func, recorder)
    for args, kwargs in _candidate_calls(func, g):
        try:
            result = func(*args, **kwargs)
        except TypeError:
            continue            # NumPy's dispatcher wants other arguments
        assert result == "sentinel"
        got_args, got_kwargs = calls[-1]
        if "like" in kwargs:    # NumPy hands the call over without like=
            assert got_args[0] == args[0] and "like" not in got_kwargs
        else:
            assert got_args == args
        return
    pytest.fail(f"no argument list made NumPy dispatch {_qualname(func)}")


def test_implemented_rows_are_dispatched():
    # every name the status file lists implemented whose NumPy object dispatches is in the table
    table = api.load()
    missing = [f"{sec}.{name}" for sec, mod in SECTIONS.items()
               for name, e in table.sections.get(sec, {}).items()
               if e.status == "implemented" and callable(getattr(mod, name, None))
               and _dispatch._dispatches(getattr(mod, name)) and getattr(mod, name) not in TABLE]
    assert not missing


def test_table_maps_to_the_namespace():
    # each entry is npgpu's object of the same name (the function's own name before an alias's),
    # or NumPy's own re-exported function behind the stand-in wrapper
    found = set()
    for np_mod, gp_mod in ((np, npgpu), (np.linalg, npgpu.linalg),
                           (np.fft, getattr(npgpu, "fft", None)), (np.emath, npgpu.emath),
                           (np.lib.stride_tricks, npgpu.lib.stride_tricks)):
        for name in dir(np_mod):
            f = getattr(np_mod, name)
            if gp_mod is None or not _dispatch._dispatches(f) or not hasattr(gp_mod, name):
                continue
            impl = TABLE.get(f)
            want = getattr(gp_mod, f.__name__, None) or getattr(gp_mod, name)
            if impl is None:            # only a non-function of that name keeps it out
                assert isinstance(want, type) or not callable(want), name
                continue
            if impl in found and want is not impl:
                continue                # an alias also in another module, mapped there
            assert impl is want or getattr(impl, "__wrapped__", None) is want is f, name
            found.add(impl)
    assert len(found) == len(set(TABLE.values()))


def _host_form(v):
    if isinstance(v, npgpu.ndarray):
        return ("npgpu", v.dtype, v.get())
    if isinstance(v, (list, tuple)):
        return type(v), [_host_form(x) for x in v]
    return v


def test_numpy_call_equals_direct_call():
    # one generic argument list per function: the NumPy call must give what npgpu's gives
    h = random_array((3, 3), np.float64)
    compared, mismatched = [], []
    for func, impl in TABLE.items():
        if _takes_like(func):
            continue                    # they dispatch only with like= (test_like_...)
        for make in (lambda: (npgpu.asarray(h),), lambda: (npgpu.asarray(h), npgpu.asarray(h)),
                     lambda: (npgpu.asarray(h), 1), lambda: ([npgpu.asarray(h)] * 2,)):
            try:
                want = impl(*make())
            except Exception:           # noqa: BLE001 - not this argument list
                continue
            try:
                np.testing.assert_equal(_host_form(func(*make())), _host_form(want))
            except Exception as e:      # noqa: BLE001 - collected, reported below
                mismatched.append(f"{_qualname(func)}: {e!r}"[:300])
            compared.append(func)
            break
    assert not mismatched, "\n".join(mismatched)
    assert len(compared) > 140          # the generic argument lists fit most functions


# ---- the common functions against NumPy ---------------------------------------------------------
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_concatenate_stack(dtype):
    a, b = random_array((2, 3), dtype), random_array((4, 3), dtype, np.random.default_rng(1))
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    out = np.concatenate([ga, gb])
    assert isinstance(out, npgpu.ndarray)
    assert_same(out, np.concatenate([a, b]))
    assert_same(np.concatenate([ga, gb], axis=None), np.concatenate([a, b], axis=None))
    assert_same(np.stack([ga, ga[::-1]], axis=1), np.stack([a, a[::-1]], axis=1))
    assert_same(np.concatenate((ga.T, gb.T), axis=1), np.concatenate((a.T, b.T), axis=1))


def test_concatenate_mixed_host_inputs():
    a = random_array((2, 3), np.float32)
    b = random_array((1, 3), np.int64)
    ga = npgpu.asarray(a)
    # a host array and a list travel to npgpu's function, which copies them over explicitly
    assert_same(np.concatenate([ga, b]), np.concatenate([a, b]))
    assert_same(np.concatenate([b, ga, [[1, 2, 3]]]), np.concatenate([b, a, [[1, 2, 3]]]))
    assert_same(np.stack([b[0], ga[0]]), np.stack([b[0], a[0]]))


def test_concatenate_errors_as_numpy():
    a, b = random_array((2, 3), np.float64), random_array((2, 4), np.float64)
    with pytest.raises(ValueError) as want:
        np.concatenate([a, b])
    with pytest.raises(ValueError) as got:
        np.concatenate([npgpu.asarray(a), npgpu.asarray(b)])
    assert str(got.value) == str(want.value)


@pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:invalid value encountered")
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "negative", "broadcast",
                                    "zero_d", "empty"])
def test_reductions_and_shape_functions(layout):
    g, h = make_layout(random_array((4, 5), np.float64), layout)
    assert_matches(np.sum(g), np.sum(h))
    assert_matches(np.mean(g, axis=-1) if h.ndim else np.mean(g),
                   np.mean(h, axis=-1) if h.ndim else np.mean(h))
    assert np.shape(g) == np.shape(h) and np.ndim(g) == np.ndim(h) and np.size(g) == np.size(h)
    assert_same(np.reshape(g, (-1,)), np.reshape(h, (-1,)))
    assert_same(np.transpose(g), np.transpose(h))
    assert_matches(np.linalg.norm(g), np.linalg.norm(h))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_sum_mean_clip_take(dtype):
    h = random_array((3, 4), dtype)
    g = npgpu.asarray(h)
    # float16: partial sums round to float16 at one ulp of the largest partial, in either order
    atol = 1e-2 * np.abs(h).max() if dtype == np.float16 else None
    assert_matches(np.sum(g, axis=0), np.sum(h, axis=0), atol=atol)
    assert_matches(np.sum(g, axis=1, keepdims=True), np.sum(h, axis=1, keepdims=True), atol=atol)
    if dtype.kind != "b":
        assert_matches(np.mean(g, axis=1), np.mean(h, axis=1), atol=atol)
        lo, hi = h.flat[0], h.flat[1]
        if hi < lo:
            lo, hi = hi, lo
        if dtype.kind != "c":
            assert_same(np.clip(g, lo, hi), np.clip(h, lo, hi))
    idx = np.array([2, 0, -1, 1])
    assert_same(np.take(g, idx, axis=1), np.take(h, idx, axis=1))
    assert_same(np.take(g, npgpu.asarray(idx)), np.take(h, idx))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_where(dtype):
    rng = np.random.default_rng(5)
    c = rng.random((3, 4)) > 0.5
    x, y = random_array((3, 4), dtype, rng), random_array((4,), dtype, rng)
    gc, gx, gy = npgpu.asarray(c), npgpu.asarray(x), npgpu.asarray(y)
    assert_same(np.where(gc, gx, gy), np.where(c, x, y))
    assert_same(np.where(gc, gx, 0), np.where(c, x, 0))
    assert_same(np.where(c, gx, y), np.where(c, x, y))          # host condition and y
    for got, want in zip(np.where(gx), np.where(x)):
        assert_same(got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128],
                         ids=str)
def test_linalg_norm_dot_einsum(dtype):
    rng = np.random.default_rng(7)
    a, b = random_array((3, 4), dtype, rng), random_array((4, 2), dtype, rng)
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    for kw in ({}, {"ord": 1}, {"ord": "fro"}, {"axis": 1}, {"ord": 3, "axis": 0}):
        assert_matches(np.linalg.norm(ga, **kw), np.linalg.norm(a, **kw))
    assert_matches(np.dot(ga, gb), np.dot(a, b))
    assert_matches(np.dot(ga[0], a[1]), np.dot(a[0], a[1]))
    assert_matches(np.einsum("ij,jk->ik", ga, gb), np.einsum("ij,jk->ik", a, b))
    assert_matches(np.einsum("ij->j", ga.T[::-1]), np.einsum("ij->j", a.T[::-1]))
    assert_matches(np.matmul(ga, gb), a @ b)                     # a ufunc in NumPy 2
    assert_matches(np.vecdot(ga, ga), np.vecdot(a, a))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex128], ids=str)
def test_isclose_allclose(dtype):
    rng = np.random.default_rng(3)
    a = random_array((5,), dtype, rng)
    b = a + (rng.random(5) * 1e-9).astype(dtype)
    b[2] += 1
    a[4] = np.nan
    b[4] = np.nan
    ga, gb = npgpu.asarray(a), npgpu.asarray(b)
    assert_same(np.isclose(ga, gb), np.isclose(a, b))
    assert_same(np.isclose(ga, gb, equal_nan=True), np.isclose(a, b, equal_nan=True))
    got = np.allclose(ga, gb)
    assert bool(got) is bool(np.allclose(a, b)) is False
    assert bool(np.allclose(ga[:2], b[:2])) is bool(np.allclose(a[:2], b[:2]))


# ---- dtype and shape questions: NumPy's answer, no data read -------------------------------------
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_result_type_can_cast(dtype):
    h = random_array((2, 3), dtype)
    g = npgpu.asarray(h)
    z = npgpu.asarray(h[0, 0])
    for other in (1, 1.0, 1j, np.int8, np.float32, np.array([1], np.uint16)):
        assert np.result_type(g, other) == np.result_type(h, other)
        assert np.result_type(z, other) == np.result_type(h[0, 0][()], other)
    i16 = npgpu.asarray(random_array((3,), np.int16))
    assert np.result_type(g, i16) == np.result_type(h, np.int16)
    for to in ALL_DTYPES:
        for casting in ("no", "safe", "same_kind", "unsafe"):
            assert np.can_cast(g, to, casting) == np.can_cast(h, to, casting)


def test_metadata_functions_read_no_device_data(monkeypatch):
    g = npgpu.asarray(random_array((2, 0, 3), np.complex64))

    def refuse(*args, **kwargs):
        raise AssertionError("device data was read")

    monkeypatch.setitem(npgpu._ops, "asnumpy", refuse)
    monkeypatch.setattr(npgpu.ndarray, "get", refuse)
    assert np.result_type(g, 1.0) == np.complex64
    assert np.can_cast(g, np.complex128) and not np.can_cast(g, np.float64)
    assert (np.shape(g), np.ndim(g), np.size(g)) == ((2, 0, 3), 3, 0)
    assert np.iscomplexobj(g) and not np.isrealobj(g)


# ---- creation through like= -------------------------------------------------------------------------
def test_like_creates_npgpu_arrays():
    g = npgpu.asarray(random_array((2,), np.float32))
    cases = [(np.zeros, ((2, 3),), {"dtype": np.int16}), (np.arange, (2, 9, 3), {}),
             (np.asarray, ([[1, 2], [3, 4]],), {"dtype": np.float32}),
             (np.array, ([1.5, 2.5],), {}), (np.empty, (0,), {}), (np.ones, (3,), {}),
             (np.full, ((2, 2), 1.5), {"dtype": np.complex64}), (np.eye, (3, 2), {"k": 1}),
             (np.identity, (2,), {}), (np.tri, (3,), {"dtype": np.int32})]
    for f, args, kw in cases:
        got = f(*args, like=g, **kw)
        assert isinstance(got, npgpu.ndarray), f
        want = f(*args, **kw)
        if f is np.empty:
            assert (got.shape, got.dtype) == (want.shape, want.dtype)
        else:
            assert_same(got, want)


# ---- the protocol: host arrays, foreign arrays, unimplemented functions ---------------------------
def _npgpu_has(qualname):
    obj = npgpu
    for part in qualname.split(".")[1:]:
        obj = getattr(obj, part, None)
    return obj is not None


def test_unimplemented_function_raises_numpy_type_error():
    g = npgpu.asarray(random_array((8,), np.float64))
    for qual, call in (("numpy.fft.fft", lambda: np.fft.fft(g)),
                       ("numpy.sort", lambda: np.sort(g)),
                       ("numpy.apply_along_axis", lambda: np.apply_along_axis(len, 0, g))):
        if _npgpu_has(qual):
            continue                    # implemented since, by its issue
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value) == _no_impl_message(qual)


def test_every_unlisted_function_raises_type_error():
    # NumPy functions the status file does not mark implemented: NumPy's TypeError, no fallback
    g = npgpu.asarray(random_array((4, 4), np.float64))
    table, checked = api.load(), 0
    for sec, mod in SECTIONS.items():
        for name, e in table.sections.get(sec, {}).items():
            f = getattr(mod, name, None)
            if e.status == "implemented" or not _dispatch._dispatches(f) or f in TABLE:
                continue
            for args, kwargs in _candidate_calls(f, g):
                try:
                    f(*args, **kwargs)
                except TypeError as err:
                    if "no implementation found" in str(err):
                        assert str(err) == _no_impl_message(f"{sec}.{name}")
                        checked += 1
                        break
                    continue            # the dispatcher wants other arguments
                pytest.fail(f"{sec}.{name} ran on an npgpu array")
    # (the datetime functions and the like: most of NumPy's dispatched names are implemented)
    assert checked >= 3


class _Foreign:
    """Another array library's object with its own protocol."""

    def __array_function__(self, func, types, args, kwargs):
        return "foreign" if func is np.concatenate else NotImplemented


class _HostSubclass(np.ndarray):
    pass


def test_foreign_types_get_their_turn():
    g = npgpu.asarray(random_array((2,), np.float64))
    # npgpu returns NotImplemented for a type it does not know; the other library answers
    assert np.concatenate([g, _Foreign()]) == "foreign"
    with pytest.raises(TypeError, match="no implementation found for 'numpy.stack'"):
        np.stack([g, _Foreign()])


def test_host_subclass_without_own_protocol_is_accepted():
    h = random_array((2,), np.float64)
    g = npgpu.asarray(h)
    out = np.concatenate([g, h.view(_HostSubclass)])
    assert isinstance(out, npgpu.ndarray)
    assert_same(out, np.concatenate([h, h]))


def test_numpy_functions_without_npgpu_arrays_are_untouched():
    h = random_array((3,), np.float64)
    out = np.concatenate([h, h])
    assert type(out) is np.ndarray
    assert np.result_type(h, 1) == np.float64


def test_array_ufunc_still_works():
    h = random_array((3, 2), np.float32)
    g = npgpu.asarray(h)
    assert_same(np.add(g, h), np.add(h, h))
    assert_matches(np.add.reduce(g, axis=0), np.add.reduce(h, axis=0))
    o = npgpu.empty((3, 3), np.float32)
    assert np.matmul(g, g.T, out=o) is o
    assert_matches(o, h @ h.T)
    with pytest.raises(TypeError):
        np.isnat(g)                     # no npgpu implementation: NumPy's TypeError
