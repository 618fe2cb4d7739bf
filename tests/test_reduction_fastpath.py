"""The small-call fast path of reductions (a repeat call replays the first call's launch) and
var/std/nanvar/nanstd with ``mean=`` / ``correction=``."""
import warnings

import numpy
import pytest

import npgpu as np
from npgpu._codegen import compiler
from npgpu.reductions import reduce as _r
from conftest import random_array

RNG = numpy.random.default_rng(2024)


def host(x):
    return x.get() if isinstance(x, np.ndarray) else numpy.asarray(x)


def check(got, exp, rtol=None):
    got_h, exp_h = host(got), numpy.asarray(exp)
    assert isinstance(got, np.ndarray)
    assert got_h.shape == exp_h.shape, (got_h.shape, exp_h.shape)
    assert got_h.dtype == exp_h.dtype, (got_h.dtype, exp_h.dtype)
    if rtol is None:
        rtol = {"e": 2e-3, "f": 2e-5, "d": 1e-11, "F": 2e-5, "D": 1e-11}.get(exp_h.dtype.char, 0)
    if rtol:
        numpy.testing.assert_allclose(got_h, exp_h, rtol=rtol, atol=rtol, equal_nan=True)
    else:
        numpy.testing.assert_array_equal(got_h, exp_h)


def np_ref(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with numpy.errstate(all="ignore"):
            return getattr(numpy, fn)(*args, **kw)


@pytest.fixture
def no_slow_path(monkeypatch):
    """Calls made inside ``with no_slow_path():`` fail if they take the full path (dry run,
    spec construction, planning): they must be cache hits."""
    import contextlib

    @contextlib.contextmanager
    def ctx():
        def boom(*a, **k):
            raise AssertionError("the slow path ran on what should be a cache hit")
        with monkeypatch.context() as m:
            m.setattr(_r, "dry_run", boom)
            m.setattr(_r, "_plan", boom)
            m.setattr(_r, "normalize_axes", boom)
            yield
    return ctx


# (name, kwargs) of the functions with a fast path
CALLS = [("sum", {}), ("prod", {}), ("max", {}), ("min", {}), ("mean", {}), ("argmax", {}),
         ("argmin", {}), ("any", {}), ("all", {}), ("nansum", {}), ("nanmax", {}),
         ("nanmean", {}), ("var", {}), ("std", {"ddof": 1}), ("nanvar", {}), ("ptp", {}),
         ("count_nonzero", {})]


@pytest.mark.parametrize("name,kw", CALLS, ids=[c[0] for c in CALLS])
def test_repeat_calls_follow_the_data(name, kw, no_slow_path):
    x = random_array((16,), numpy.float32, RNG)
    a = np.asarray(x)
    check(getattr(np, name)(a, **kw), np_ref(name, x, **kw))          # the first (slow) call
    launches = compiler.stats["launches"]
    getattr(np, name)(a, **kw)
    per_call = compiler.stats["launches"] - launches
    assert per_call >= 1
    for _ in range(3):
        x = random_array((16,), numpy.float32, RNG)
        a[...] = np.asarray(x)                                       # same array, new data
        with no_slow_path():
            before = compiler.stats["launches"]
            r = getattr(np, name)(a, **kw)
            assert compiler.stats["launches"] - before == per_call  # a replay launches the same
        check(r, np_ref(name, x, **kw))


# a row long enough to be split into a two-pass reduction (simulator: 3000 elements)
LONG = 3000 if np.backend() != "cuda" else 1 << 22


@pytest.mark.parametrize("tail", [True, False])
@pytest.mark.parametrize("name,kw", [("sum", {}), ("argmax", {}), ("var", {"ddof": 1}),
                                     ("nanmean", {}), ("max", {}), ("sum", {"axis": 0})])
def test_long_row_repeats_replay_both_passes(name, kw, tail, no_slow_path, monkeypatch):
    """Rows long enough to be split fold the splits' states through a workspace: in the same
    launch (the row's last block: ``tail``), or in a second one; the replay launches the same
    and follows the data."""
    from npgpu.reductions import reduce as R
    monkeypatch.setattr(R, "TAIL", tail)
    monkeypatch.setattr(R, "TAIL_MAX", 1 << 62)
    monkeypatch.setattr(R, "_PLANS", {})
    monkeypatch.setattr(R, "FAST", {})
    x = random_array((LONG,), numpy.float32, RNG)
    a = np.asarray(x)
    check(getattr(np, name)(a, **kw), np_ref(name, x, **kw), rtol=1e-4)
    for _ in range(2):
        x = random_array((LONG,), numpy.float32, RNG)
        x[17] = numpy.nan if name.startswith("nan") else x[17]
        a[...] = np.asarray(x)
        with no_slow_path():
            before = compiler.stats["launches"]
            r = getattr(np, name)(a, **kw)
            # (var's three moments always take the second pass)
            assert compiler.stats["launches"] - before == (1 if tail and name != "var" else 2)
        check(r, np_ref(name, x, **kw), rtol=1e-4)


@pytest.mark.parametrize("shape,axis", [((LONG,), None), ((3, LONG // 2 + 1), 1),
                                        ((2, 3, LONG // 3), (0, 2))])
@pytest.mark.parametrize("name,dt", [("sum", "f4"), ("sum", "i8"), ("mean", "f8"),
                                     ("argmin", "f4"), ("max", "i4"), ("nansum", "f8")])
def test_tail_rows_match_the_second_pass(name, dt, shape, axis, monkeypatch):
    """One launch per split row (the row's last block folds the states): the result NumPy
    gives, the same bits on every run, and the second pass's bits where both split alike and
    a thread folds at most one split (the same order); the arrival counters are zero again
    afterwards."""
    from npgpu.reductions import reduce as R
    x = random_array(shape, dt, numpy.random.default_rng(41))
    if dt[0] == "f":
        x.flat[5] = numpy.nan if name.startswith("nan") else x.flat[5]
    kw = {} if name.startswith("arg") else {"axis": axis}
    xr = x.reshape(-1) if name.startswith("arg") else x
    a = np.asarray(xr)
    got, splits = {}, {}
    for tail in (True, False):
        monkeypatch.setattr(R, "TAIL", tail)
        monkeypatch.setattr(R, "TAIL_MAX", 1 << 62)
        monkeypatch.setattr(R, "_PLANS", {})
        monkeypatch.setattr(R, "FAST", {})
        runs = [host(getattr(np, name)(a, **kw)) for _ in range(3)]
        assert all(r.tobytes() == runs[0].tobytes() for r in runs)
        got[tail] = runs[0]
        plans = [p for p in R._PLANS.values() if p]
        assert any(p.nsplit > 1 for p in plans)
        assert all(p.tail == tail for p in plans if p.nsplit > 1)
        splits[tail] = sorted((p.nsplit, p.block) for p in plans)
    check(np.asarray(got[True]), np_ref(name, xr, **kw), rtol={"f4": 1e-4}.get(dt))
    # (the tail kernel's occupancy may differ from the first pass's, and so its splits)
    if splits[True] == splits[False] and all(n <= b for n, b in splits[True]):
        assert got[True].tobytes() == got[False].tobytes()
    for mem, cap, _ in R._COUNTERS.buffers.values():
        assert not host(np.ndarray((cap,), numpy.int32, memptr=mem)).any()


def test_a_tail_kernel_that_raises_leaves_no_counts_behind(monkeypatch):
    """A kernel stopped part way (on the simulator a user's map can raise) may leave a row's
    arrival counter counted: the stream's counters are then made afresh, so later split
    reductions still find their last block."""
    from npgpu.reductions import reduce as R
    monkeypatch.setattr(R, "TAIL_MAX", 1 << 62)
    rk = np.ReductionKernel("T x", "T z", "math.log(x)", "a + b", "z = a", "0", "log_sum_raises")
    h = numpy.ones(LONG)
    h[LONG - 17] = -1.0                  # in a late split: earlier splits have counted
    if np.backend() == "cuda":           # the GPU's log gives NaN: nothing raises there
        assert numpy.isnan(host(rk(np.asarray(h))).item())
    else:
        with pytest.raises(ValueError, match="math domain error"):
            rk(np.asarray(h))
    x = random_array((LONG,), numpy.int64, RNG)
    for _ in range(3):
        check(np.sum(np.asarray(x)), x.sum())
    for mem, cap, _ in R._COUNTERS.buffers.values():
        assert not host(np.ndarray((cap,), numpy.int32, memptr=mem)).any()


def test_tiny_repeat_is_one_launch_and_a_fresh_result():
    x = random_array((5,), numpy.float64, RNG)
    a = np.asarray(x)
    r1 = np.sum(a)
    before = compiler.stats["launches"]
    r2 = np.sum(a)
    assert compiler.stats["launches"] - before == 1      # 5 elements: one pass, even here
    assert r1 is not r2 and r1._mem is not r2._mem
    check(r2, x.sum())
    check(r1, x.sum())


def test_replayed_results_are_laid_out_like_fresh_arrays():
    x = random_array((3, 4), numpy.float32, RNG)
    a = np.asarray(x)
    for kw in ({}, {"axis": 0}, {"axis": 1, "keepdims": True}, {"axis": (0, 1), "keepdims": True}):
        first = np.sum(a, **kw)
        again = np.sum(a, **kw)
        ref = np.empty(first.shape, first.dtype)
        for r in (first, again):
            assert (r.shape, r._strides, r._c_contig, r._f_contig, r._base) == \
                (ref.shape, ref._strides, ref._c_contig, ref._f_contig, None)
        check(again, x.sum(**kw))
        again[...] = 7                   # a replayed result is a normal, writable array
        check(again, numpy.full(first.shape, 7, numpy.float32))


def test_method_and_function_agree_and_hit(no_slow_path):
    x = random_array((4, 4), numpy.float32, RNG)
    a = np.asarray(x)
    check(a.sum(axis=0), x.sum(axis=0))
    check(np.sum(a, axis=0), x.sum(axis=0))
    check(a.mean(1, keepdims=True), x.mean(1, keepdims=True))
    with no_slow_path():
        check(a.sum(axis=0), x.sum(axis=0))
        check(np.sum(a, 0), x.sum(axis=0))
        check(a.mean(1, keepdims=True), x.mean(1, keepdims=True))


def test_dtypes_shapes_layouts_and_arguments_do_not_collide(no_slow_path):
    base = random_array((4, 6), numpy.float64, RNG)
    arrays = {
        "f8": base, "f4": base.astype(numpy.float32), "i4": (base * 10).astype(numpy.int32),
        "c8": (base + 1j * base[::-1]).astype(numpy.complex64), "?": base > 0,
        "u1": (numpy.abs(base) * 10).astype(numpy.uint8), "f2": base.astype(numpy.float16),
    }
    devs = {k: np.asarray(v) for k, v in arrays.items()}
    views = {  # same dtype and shape, other strides: each its own entry
        "T": (devs["f8"].T, base.T),
        "rev": (devs["f8"][::-1, ::2], base[::-1, ::2]),
        "flat": (np.asarray(base.ravel()), base.ravel()),
        "sub": (devs["f8"][1:3], base[1:3]),
    }
    calls = []
    for k in arrays:
        calls.append(("sum", k, {}))
        calls.append(("sum", k, {"axis": 0}))
        calls.append(("sum", k, {"axis": 1, "keepdims": True}))
        calls.append(("max", k, {"axis": -1}))
        calls.append(("argmax", k, {"axis": 0}))
        calls.append(("any", k, {"axis": (0, 1)}))
        calls.append(("mean", k, {}))
        if k != "c8":
            calls.append(("mean", k, {"dtype": numpy.float64}))
    calls += [("sum", "f4", {"dtype": "f8"}), ("sum", "f4", {"dtype": None}),
              ("sum", "i4", {"dtype": numpy.int8}), ("prod", "i4", {"axis": 1}),
              ("var", "f8", {"axis": 1}), ("var", "f8", {"axis": 1, "ddof": 1}),
              ("var", "f8", {"axis": 1, "ddof": 2.5}), ("std", "f8", {"axis": 1}),
              ("argmax", "f8", {"axis": 1, "keepdims": True}), ("argmax", "f8", {"axis": 1})]
    for v in views:
        calls += [("sum", v, {}), ("sum", v, {"axis": 0}), ("argmin", v, {"axis": -1}),
                  ("var", v, {"axis": 0})]

    def run_all():
        out = []
        for name, k, kw in calls:
            d, x = (devs[k], arrays[k]) if k in devs else views[k]
            out.append((getattr(np, name)(d, **kw), np_ref(name, x, **kw)))
        return out

    first = run_all()
    for got, exp in first:
        check(got, exp)
    with no_slow_path():                  # every one of them is now a hit, and its own
        again = run_all()
    for got, exp in again:
        check(got, exp)


def _poison(key):
    def boom(a):
        raise AssertionError("a call that must bypass the cache used it")
    _r.FAST[key] = boom


def test_out_where_initial_and_odd_arguments_bypass_the_cache():
    x = random_array((4, 4), numpy.float32, RNG)
    a = np.asarray(x)
    np.sum(a, axis=0)
    np.max(a, axis=0)
    np.var(a, axis=0)
    # poison every entry of this array: bypassing calls must not reach them
    saved = dict(_r.FAST)
    for key in saved:
        if key[1] == a.dtype and key[2] == a.shape and key[3] == a._strides:
            _poison(key)
    try:
        _bypassing_calls(a, x)
    finally:                              # leave no poison for other tests
        _r.FAST.clear()
        _r.FAST.update(saved)


def _bypassing_calls(a, x):
    o = np.empty((4,), numpy.float32)
    assert np.sum(a, axis=0, out=o) is o
    check(o, x.sum(axis=0))
    assert np.sum(a, axis=0, out=(o,)) is o
    m = x > 0
    check(np.sum(a, axis=0, where=np.asarray(m)), x.sum(axis=0, where=m))
    check(np.sum(a, axis=0, where=m), x.sum(axis=0, where=m))
    check(np.sum(a, axis=0, initial=5.0), x.sum(axis=0, initial=5.0))
    check(np.max(a, axis=0, initial=-1.0), x.max(axis=0, initial=-1.0))
    check(np.max(a, axis=0, where=m, initial=-50.0), x.max(axis=0, where=m, initial=-50.0))
    check(np.var(a, axis=0, where=m), np_ref("var", x, axis=0, where=m))
    check(np.var(a, axis=0, out=o), x.var(axis=0))
    check(np.var(a, axis=0, mean=x.mean(0, keepdims=True)), x.var(axis=0))
    check(np.var(a, axis=0, ddof=numpy.array(1)), x.var(axis=0, ddof=1))   # unhashable ddof
    check(np.sum(a, axis=numpy.int64(0)), x.sum(axis=0))     # not an exact int: full path
    check(np.sum(a, axis=(numpy.int64(0),)), x.sum(axis=0))
    check(np.sum(a, axis=0, keepdims=1), x.sum(axis=0, keepdims=1))
    check(np.sum(a.tolist(), axis=0), numpy.sum(x.tolist(), axis=0))       # host input
    # arguments equal to a cached value but rejected by NumPy still raise
    with pytest.raises(TypeError):
        numpy.sum(x, axis=False)
    with pytest.raises(TypeError):
        np.sum(a, axis=False)
    with pytest.raises(TypeError):
        np.sum(a, axis=(False,))
    with pytest.raises(TypeError):
        np.sum(a, axis=0, keepdims=numpy.True_)
    with pytest.raises(TypeError):
        np.sum(a, axis=[0])


def test_errors_are_never_cached():
    a = np.asarray(random_array((0, 3), numpy.float32, RNG))
    for _ in range(2):
        with pytest.raises(ValueError):
            np.max(a, axis=0)
        with pytest.raises(ValueError):
            np.argmax(a, axis=0)
    check(np.max(a, axis=1), numpy.zeros((0,), numpy.float32))        # empty result
    check(np.max(a, axis=1), numpy.zeros((0,), numpy.float32))
    check(np.sum(a, axis=0), numpy.zeros((3,), numpy.float32))
    check(np.sum(a, axis=0), numpy.zeros((3,), numpy.float32))
    b = np.asarray(random_array((4,), numpy.float32, RNG))
    for _ in range(2):
        with pytest.raises(numpy.exceptions.AxisError):
            np.sum(b, axis=1)


def test_nanargmax_still_checks_all_nan_on_a_hit():
    x = numpy.array([[1.0, numpy.nan], [2.0, 3.0]], numpy.float32)
    a = np.asarray(x)
    check(np.nanargmax(a, axis=1), numpy.nanargmax(x, axis=1))
    check(np.nanargmax(a, axis=1), numpy.nanargmax(x, axis=1))
    a[1, 0] = numpy.nan
    a[1, 1] = numpy.nan
    with pytest.raises(ValueError, match="All-NaN"):
        np.nanargmax(a, axis=1)


# ---- var / std with mean= and correction= -------------------------------------------------------
VAR_FUNCS = ["var", "std", "nanvar", "nanstd"]


def _data(shape, dt, nans=False):
    x = random_array(shape, dt, RNG)
    if nans and x.dtype.kind in "fc":
        x.flat[::5] = numpy.nan
    return x


# one real and one complex dtype per function (f8/c8 render the same kernel shapes: CI's PTX
# check compiles every rendered kernel, and its time is bounded)
@pytest.mark.parametrize("dt", ["f4", "c16"])
@pytest.mark.parametrize("fn", VAR_FUNCS)
def test_mean_argument_matches_numpy(fn, dt):
    x = _data((3, 4, 2), dt, nans=fn.startswith("nan"))
    a = np.asarray(x)
    mfun = numpy.nanmean if fn.startswith("nan") else numpy.mean
    for axis in (None, 1, -1, (0, 2)):
        for keepdims in (False, True):
            mu = mfun(x, axis=axis, keepdims=True)
            for ddof in (0, 1):
                exp = np_ref(fn, x, axis=axis, keepdims=keepdims, ddof=ddof, mean=mu)
                got = getattr(np, fn)(a, axis=axis, keepdims=keepdims, ddof=ddof,
                                      mean=np.asarray(mu))
                check(got, exp)
            # a NumPy array as the mean, and the same call through the method (var/std)
            exp = np_ref(fn, x, axis=axis, keepdims=keepdims, mean=mu)
            check(getattr(np, fn)(a, axis=axis, keepdims=keepdims, mean=mu), exp)
            if fn in ("var", "std"):
                check(getattr(a, fn)(axis=axis, keepdims=keepdims, mean=mu), exp)


@pytest.mark.parametrize("fn", VAR_FUNCS)
def test_mean_argument_dtypes_scalars_where_out(fn):
    x = _data((4, 5), "f4", nans=fn.startswith("nan"))
    a = np.asarray(x)
    mu32 = numpy.nanmean(x, axis=1, keepdims=True)
    cases = [
        dict(axis=1, mean=mu32.astype(numpy.float64)),                 # promotes (var) / casts
        dict(axis=1, mean=mu32, dtype=numpy.float64),
        dict(mean=2.5),                                                # weak Python scalar
        dict(mean=numpy.float64(2.5)),                                 # strong NumPy scalar
        dict(axis=0, mean=numpy.zeros((1, 5), numpy.float32), correction=1),
        dict(axis=1, mean=mu32, ddof=7),                               # dof <= 0
        dict(axis=1, mean=mu32, where=x > -5),
        dict(axis=1, mean=mu32, where=numpy.array([True, False, True, True, False])),
        dict(axis=1, mean=mu32.tolist()),
    ]
    for kw in cases:
        exp = np_ref(fn, x, **kw)
        dkw = dict(kw)
        if isinstance(dkw.get("where"), numpy.ndarray):
            dkw["where"] = np.asarray(dkw["where"])
        check(getattr(np, fn)(a, **dkw), exp)
    # out=
    exp = np_ref(fn, x, axis=1, mean=mu32)
    o = np.empty(exp.shape, exp.dtype)
    assert getattr(np, fn)(a, axis=1, mean=mu32, out=o) is o
    check(o, exp)


@pytest.mark.parametrize("dt", ["i2", "u1", "i8", "f2"])
def test_mean_argument_integer_and_half_inputs(dt):
    x = _data((3, 6), dt)
    a = np.asarray(x)
    for fn in VAR_FUNCS:
        for mu in (numpy.mean(x, axis=1, keepdims=True), numpy.mean(x, axis=1, keepdims=True)
                   .astype(numpy.float32), 3.0):
            exp = np_ref(fn, x, axis=1, mean=mu)
            check(getattr(np, fn)(a, axis=1, mean=mu), exp, rtol=2e-3 if dt == "f2" else None)


def test_mean_argument_empty_and_broadcast_edge_cases():
    x = _data((2, 3), "f8")
    a = np.asarray(x)
    # a mean broadcasting the deviations beyond the array (NumPy allows it; count from `a`)
    mu = numpy.array([[0.5], [1.0], [-2.0]])                      # (3, 1) against (2, 3)
    with pytest.raises(ValueError):
        numpy.var(x, axis=1, mean=mu)
    with pytest.raises(ValueError):
        np.var(a, axis=1, mean=mu)
    mu = numpy.ones((2, 1, 1))
    check(np.var(a, mean=mu), np_ref("var", x, mean=mu))
    # empty reductions give NaN like NumPy
    e = numpy.zeros((0, 3))
    check(np.var(np.asarray(e), axis=0, mean=numpy.zeros((1, 3))),
          np_ref("var", e, axis=0, mean=numpy.zeros((1, 3))))
    # mean=None: var computes the mean; nanvar of floats raises like NumPy
    check(np.var(a, mean=None), x.var())
    with pytest.raises(TypeError):
        numpy.nanvar(x, mean=None)
    with pytest.raises(TypeError):
        np.nanvar(a, mean=None)
    check(np.nanvar(np.asarray(numpy.arange(6)), mean=None), numpy.nanvar(numpy.arange(6)))
    with pytest.raises(ValueError):
        np.var(a, axis=1, mean=numpy.ones((4, 1)))
    with pytest.raises(TypeError):
        np.var(np.asarray(x > 0), mean=True)         # NumPy: boolean subtract


@pytest.mark.parametrize("fn", VAR_FUNCS)
def test_correction(fn):
    x = _data((3, 5), "f8", nans=fn.startswith("nan"))
    a = np.asarray(x)
    for corr in (0, 1, 2.5):
        check(getattr(np, fn)(a, axis=1, correction=corr),
              np_ref(fn, x, axis=1, correction=corr))
    check(getattr(np, fn)(a, correction=1, ddof=0), np_ref(fn, x, correction=1, ddof=0))
    with pytest.raises(ValueError, match="ddof and correction"):
        getattr(numpy, fn)(x, ddof=1, correction=1)
    with pytest.raises(ValueError, match="ddof and correction"):
        getattr(np, fn)(a, ddof=1, correction=1)
    if fn in ("var", "std"):
        check(getattr(a, fn)(correction=1), np_ref(fn, x, correction=1))


def test_mean_argument_runs_on_the_device():
    """No host round trip: the mean= path is kernels only (subtract, then one reduction)."""
    x = _data((4, 4), "f4")
    a = np.asarray(x)
    mu = np.asarray(x.mean(axis=0, keepdims=True))
    before = compiler.stats["launches"]
    r = np.var(a, axis=0, mean=mu)
    assert compiler.stats["launches"] - before >= 2
    check(r, x.var(axis=0))


def test_mean_argument_gpu_variants_are_rendered_for_the_ptx_check():
    """Render (never launch) the GPU renderings (warp shuffles, 256-thread blocks) of the
    sum-of-squares specs, so NPGPU_RECORD_KERNELS + ptxcheck compile them too."""
    from npgpu.reductions import functions as F
    from npgpu.reductions import template
    d = numpy.dtype
    n = 0
    for dt, rdt in (("f4", "f4"), ("c16", "f8")):
        for counted in (False, True):
            for nan_bad, root in ((False, False), (counted, True)):
                spec = F._sq_spec(d(dt), d(rdt), counted, nan_bad, root)
                # inner only: outer GPU renderings differ from the simulator's (which CI
                # compiles too) only in their block constants
                for mode, block, tx in (("inner", 256, 1),):
                    for first, last in ((True, True), (True, False), (False, True)):
                        ks = template.render(spec, mode, nk=1, nr=0 if not first else 2,
                                             in_storage=d(dt), out_storage=d(rdt),
                                             has_mask=counted and first, has_init=False,
                                             first=first, last=last, block=block, tx=tx,
                                             sim=False)
                        if mode == "inner":
                            assert "shfl_down_sync" in ks.source
                        compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)
                        n += 1
    assert n == 2 * 2 * 2 * 3


# ---- scans: cumsum & co replay their first call --------------------------------------------
SCANS = [("cumsum", {}), ("cumprod", {}), ("nancumsum", {}), ("nancumprod", {}),
         ("cumsum", {"axis": 0}), ("cumsum", {"axis": -1}), ("cumsum", {"dtype": numpy.float64}),
         ("cumprod", {"axis": 1, "dtype": numpy.float32})]


@pytest.mark.parametrize("name,kw", SCANS, ids=[f"{n}-{k}" for n, k in SCANS])
@pytest.mark.parametrize("view", ["c", "rev", "T"])
def test_scan_repeats_follow_the_data(name, kw, view, no_slow_path):
    """A repeat call (same dtype, shape, strides, axis, dtype=) skips the dry run and the
    layout work, launches what the first call launched, and scans the new data.  Rows of
    2 tiles + 8: axis -1 and axis None take the look-back scan, axis 0 a column scan; the
    reversed and transposed views scan strided memory or copy for axis=None."""
    from npgpu.reductions import scan_lookback as lb
    shape = (4, 2 * lb.BLOCK4 * lb.ITEMS4 + 8)

    def data():
        # positive addends (no partial sum near zero); products of factors near one stay
        # finite over the whole array
        if "prod" in name:
            return (RNG.uniform(0.999, 1.001, shape) * RNG.choice([-1, 1], shape)).astype("f4")
        return RNG.uniform(0.8, 1.25, shape).astype("f4")
    base = data()
    if name.startswith("nan"):
        base[1, 3] = base[2, -10] = numpy.nan
    d = np.asarray(base)
    pick = {"c": lambda z: z, "rev": lambda z: z[:, ::-1], "T": lambda z: z.T}[view]
    if view == "T" and kw.get("axis") == 1:
        kw = dict(kw, axis=0)
    a, x = pick(d), pick(base)
    check(getattr(np, name)(a, **kw), np_ref(name, x, **kw), rtol=1e-4)
    launches = compiler.stats["launches"]
    getattr(np, name)(a, **kw)
    per_call = compiler.stats["launches"] - launches
    for _ in range(2):
        base = data()
        d[...] = np.asarray(base)
        x = pick(base)
        with no_slow_path():
            before = compiler.stats["launches"]
            r = getattr(np, name)(a, **kw)
            assert compiler.stats["launches"] - before == per_call
        check(r, np_ref(name, x, **kw), rtol=1e-4)


SMALL_SCANS = [((16,), None, "f4"), ((16,), 0, "i1"), ((3, 20), None, "f4"),
               ((3, 20), 0, "c8"), ((3, 20), -1, "f8"), ((3, 20), 1, "u2"), ((), None, "f4"),
               ((5, 1), 0, "f4")]


@pytest.mark.parametrize("shape,axis,dt", SMALL_SCANS, ids=[f"{s}-{a}-{d}" for s, a, d in
                                                             SMALL_SCANS])
@pytest.mark.parametrize("view", ["c", "rev"])
def test_small_scan_repeats_are_one_launch(shape, axis, dt, view, no_slow_path, monkeypatch):
    """A small scan (a column scan, or one tile a row) replays as its one launch on the new
    data's pointers, as the look-back scan does: no layout work, and the new values scanned."""
    def data():
        x = RNG.uniform(-3, 3, shape) * (1 + 1j if dt == "c8" else 1)
        return (x if numpy.dtype(dt).kind in "fc" else numpy.abs(x) * 5).astype(dt)
    pick = (lambda z: z[::-1]) if view == "rev" and shape else (lambda z: z)
    d = np.asarray(data())
    a = pick(d)
    tol = 1e-5 if numpy.dtype(dt).itemsize <= 4 or dt == "c8" else 1e-12
    check(np.cumsum(a, axis=axis), numpy.cumsum(pick(d.get()), axis=axis), rtol=tol)
    from npgpu.reductions import scan

    def boom(*args, **kwargs):
        raise AssertionError("the scan was planned again")
    # (a reversed 2-D array flattened for axis=None is copied first: planned, two launches)
    copied = axis is None and view == "rev" and len(shape) > 1
    for _ in range(2):
        base = data()
        d[...] = np.asarray(base)
        with no_slow_path(), monkeypatch.context() as m:
            if not copied:
                m.setattr(scan, "run_scan", boom)
            before = compiler.stats["launches"]
            r = np.cumsum(a, axis=axis)
            assert compiler.stats["launches"] - before == 1 + copied
        check(r, numpy.cumsum(pick(base), axis=axis), rtol=tol)


def test_scan_replay_results_are_fresh_and_out_bypasses():
    x = random_array((50,), numpy.float32, RNG)
    a = np.asarray(x)
    r1 = np.cumsum(a)
    r2 = np.cumsum(a)
    assert r1 is not r2 and r1._mem is not r2._mem
    r2[...] = 0                                  # a replayed result is a normal array
    check(r1, numpy.cumsum(x), rtol=1e-5)
    o = np.empty((50,), numpy.float32)
    for key in [k for k in _r.FAST if k[0] == ("scan", numpy.cumsum)]:
        _poison(key)
    try:
        assert np.cumsum(a, out=o) is o          # out= never replays
        check(o, numpy.cumsum(x), rtol=1e-5)
    finally:
        for key in [k for k in _r.FAST if k[0] == ("scan", numpy.cumsum)]:
            del _r.FAST[key]
