"""@npgpu.fuse: replay of traced calls with reductions, and the row form (one kernel, a block a
row) of functions whose reductions run along the last axis and whose result combines them with
the row's elements."""
import re

import numpy as np
import pytest

import npgpu
from npgpu.fusion import rows as _rows
from conftest import assert_matches, make_layout, random_array


def _rownorm_body(x):
    return (x - x.mean(axis=-1, keepdims=True)) / x.std(axis=-1, keepdims=True)


def _kernels(f, *args):
    """Names of the kernels a call with these very arguments launches (``f.kernel_sources``
    runs on contiguous copies)."""
    return [k.name for k in f._recorded(args, copy=False)]


def _row_cols():
    """Longest row the row form takes for one 4-byte input."""
    return _rows.MAX_BLOCK * (_rows.VPT_MAX)


def _check(f, hosts, devs, rtol=None):
    """The fused call (traced, then replayed) matches the unfused one and NumPy's."""
    first = f(*devs)
    again = f(*devs)
    plain = f.func(*devs)
    with np.errstate(all="ignore"):
        ref = f(*hosts)              # NumPy: the host-mode call
    for g in (first, again):
        gs = g if isinstance(g, tuple) else (g,)
        ps = plain if isinstance(plain, tuple) else (plain,)
        rs = ref if isinstance(ref, tuple) else (ref,)
        for a, p, r in zip(gs, ps, rs):
            assert_matches(a, r, rtol=rtol)
            assert_matches(a, p.get(), rtol=rtol)
    return again


def _one_row_kernel(body, h, x, dt):
    """``npgpu.fuse(body)`` checked on ``x`` (host copy ``h``) and found to be one row kernel."""
    f = npgpu.fuse(body)
    with np.errstate(all="ignore"):
        _check(f, (h,), (x,), rtol=2e-2 if dt == np.float16 else 1e-5)
    names = _kernels(f, x)
    assert len(names) == 1 and names[0].startswith("fuse_rows_")
    return f


@pytest.mark.matrix
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16, np.int32, np.complex64])
@pytest.mark.parametrize("shape", [(5, 37), (3, 32), (2, 3, 20), (4, 1)])
def test_row_normalisation_is_one_launch(dt, shape, rng):
    h = random_array(shape, dt, rng)
    if dt == np.int32 and shape[-1] == 1:
        pytest.skip("a zero std: NumPy divides by zero (covered by the float cases)")
    x = npgpu.asarray(h)
    f = _one_row_kernel(_rownorm_body, h, x, dt)
    assert f.launches(x) == 1


def test_row_form_is_deterministic_and_matches_the_unfused_launches(rng):
    h = random_array((6, 45), np.float32, rng)
    x = npgpu.asarray(h)
    f = npgpu.fuse(_rownorm_body)
    f(x)
    runs = {f(x).get().tobytes() for _ in range(3)}
    assert len(runs) == 1
    assert f.launches(x) == 1
    assert npgpu.fuse(_rownorm_body).launches(x) == 3     # the first (traced) call: unfused


def test_reductions_that_read_earlier_ones_and_scalars(rng):
    # a user's two-pass variance, an epsilon argument, two row inputs
    @npgpu.fuse
    def layernorm(x, w, eps):
        m = x.mean(axis=1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=1, keepdims=True)
        return (x - m) / npgpu.sqrt(v + eps) * w + npgpu.max(x * w, axis=1, keepdims=True)
    h, wh = random_array((7, 29), np.float32, rng), random_array((7, 29), np.float32, rng)
    x, w = npgpu.asarray(h), npgpu.asarray(wh)
    _check(layernorm, (h, wh, 1e-3), (x, w, 1e-3), rtol=1e-5)
    assert layernorm.launches(x, w, 1e-3) == 1
    assert _kernels(layernorm, x, w, 1e-3)[0].startswith("fuse_rows_")
    # another epsilon: the same kernel, its value a parameter
    assert_matches(layernorm(x, w, 0.5), layernorm(h, wh, 0.5), rtol=1e-5)


def test_multiple_outputs_and_ddof(rng):
    @npgpu.fuse
    def f(x):
        c = x - npgpu.sum(x, axis=-1, keepdims=True)
        return c * 2, c / x.std(axis=-1, keepdims=True, ddof=1)
    h = random_array((4, 19), np.float64, rng)
    x = npgpu.asarray(h)
    _check(f, (h,), (x,))
    assert f.launches(x) == 1


def _max_and_shifted_sum(x):
    m = x.max(axis=-1, keepdims=True)
    top = x == m
    xp = npgpu.get_array_module(x)         # (npgpu for traced values too; NumPy on the host)
    e = xp.where(top, 0, xp.exp(x - m))
    return m, (e + top.astype(x.dtype) * 1j).sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("shape", [(5, 37), (3, 32), (2, 3, 20), (4, 1)])
def test_reductions_alone_are_one_launch(dt, shape, rng):
    """A program of reductions alone (logsumexp's maximum and shifted sum) is one row kernel
    storing each row's values; the same program along another axis keeps its launches."""
    h = random_array(shape, dt, rng)
    h.reshape(-1)[1] = h.max()                      # a tie of the maximum
    x = npgpu.asarray(h)
    _one_row_kernel(_max_and_shifted_sum, h, x, dt)
    _one_row_kernel(lambda x: abs(x).sum(axis=-1, keepdims=True), h, x, dt)  # (no cancellation)
    xt, ht = make_layout(h, "transposed") if len(shape) == 2 else (x, h)
    with np.errstate(all="ignore"):
        _check(npgpu.fuse(_max_and_shifted_sum), (ht,), (xt,),
               rtol=2e-2 if dt == np.float16 else 1e-5)


def _layer_norm(x):
    m = npgpu.get_array_module(x)
    return (x - x.mean(axis=-1, keepdims=True)) / m.sqrt(x.var(axis=-1, keepdims=True) + 1e-5)


def _log_softmax(x):
    m = npgpu.get_array_module(x)
    top = m.max(x, axis=-1, keepdims=True)
    t = x - m.where(m.isfinite(top), top, 0)
    return t - m.log(m.sum(m.exp(t), axis=-1, keepdims=True))


def _logsumexp_parts(x):
    m = npgpu.get_array_module(x)
    top = m.max(x, axis=-1, keepdims=True)
    s = m.sum(m.exp(x - top), axis=-1, keepdims=True) * (1 + 0j)
    return (m.log(s.real) + top).astype(x.dtype), m.sqrt(s.imag + 2)


@pytest.mark.parametrize("body", [_layer_norm, _log_softmax, _logsumexp_parts])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5, 37), (2, 3, 20), (4, 1)])
def test_steps_on_per_row_values_are_one_launch(body, dt, shape, rng):
    """Elementwise steps on reductions' results alone (``sqrt(var + eps)``, the finite
    maximum, ``log(s.real)``) are steps of the call: one row kernel, computed per row, and
    per-row results are stored; the results are plain arrays."""
    h = random_array(shape, dt, rng)
    x = npgpu.asarray(h)
    f = _one_row_kernel(body, h, x, dt)
    for r in (f(x) if isinstance(f(x), tuple) else (f(x),)):
        assert type(r) is npgpu.ndarray
    xt, ht = make_layout(h, "transposed") if len(shape) == 2 else (x, h)
    _check(npgpu.fuse(body), (ht,), (xt,), rtol=1e-5)


def test_reduction_results_read_back_inside_a_fused_function(rng):
    """A reduction's result used outside the trace (a Python float, indexing) still works."""
    h = random_array((4, 9), np.float32, rng)
    x = npgpu.asarray(h)
    f = npgpu.fuse(lambda v: v / (float(v.sum()) + v.max(axis=1, keepdims=True)[0, 0]))
    assert_matches(f(x), h / (float(h.sum()) + h.max(axis=1, keepdims=True)[0, 0]), rtol=1e-5)
    g = npgpu.fuse(lambda v: v.sum(axis=1))
    assert type(g(x)) is npgpu.ndarray


@pytest.mark.parametrize("case", ["too_long", "axis0", "no_keepdims", "result_is_reduction",
                                  "strided", "transposed"])
def test_row_form_not_taken(case, rng):
    """Other patterns keep the recorded launches (and still give NumPy's values)."""
    cols = _row_cols() + 3 if case == "too_long" else 24
    h = random_array((3, cols), np.float32, rng)
    x = npgpu.asarray(h)
    body = _rownorm_body
    if case == "axis0":
        body = lambda x: x - x.mean(axis=0, keepdims=True)        # noqa: E731
    elif case == "no_keepdims":
        body = lambda x: x.T - x.max(axis=1)                      # noqa: E731
    elif case == "result_is_reduction":
        body = lambda x: (x - x.mean(axis=1, keepdims=True), x.sum(axis=1, keepdims=True))  # noqa
    elif case in ("strided", "transposed"):
        x, h = make_layout(h, case)
    f = npgpu.fuse(body)
    _check(f, (h,), (x,), rtol=1e-5)
    assert not any(n.startswith("fuse_rows_") for n in _kernels(f, x))


def test_replay_skips_python(rng):
    calls = []

    @npgpu.fuse
    def sq(a, b):
        calls.append(1)
        # (a reduction's result is an array: work on it alone runs unfused, unreplayed)
        return npgpu.sum((a - b) ** 2, axis=0), a - npgpu.mean(b, axis=0)
    h = [random_array((33, 5), np.float32, rng) for _ in range(2)]
    a, b = (npgpu.asarray(v) for v in h)
    _check(sq, h, (a, b), rtol=1e-5)
    n = len(calls)
    for _ in range(3):
        sq(a, b)
    assert len(calls) == n
    # another shape: traced again, then replayed
    h2 = [random_array((8, 3), np.float32, rng) for _ in range(2)]
    got = sq(*(npgpu.asarray(v) for v in h2))
    assert_matches(got[0], np.sum((h2[0] - h2[1]) ** 2, axis=0), rtol=1e-5)
    assert_matches(got[1], h2[0] - np.mean(h2[1], axis=0), rtol=1e-5)
    assert len(calls) == n + 1


def test_calls_that_read_values_back_are_not_replayed(rng):
    """A reduction result used outside the trace (.item(), a plain npgpu call) may steer the
    Python body: such calls run the body every time."""
    @npgpu.fuse
    def scaled(x):
        return x / x.sum().item()

    @npgpu.fuse
    def branch(x):
        m = x.max(axis=-1, keepdims=True)
        if float(npgpu.max(m)) > 0:
            return x - m
        return x + m
    for v in (1.0, -1.0, 2.0):
        h = random_array((4, 9), np.float64, rng) * 0 + v + np.arange(9)
        if v < 0:
            h = -np.abs(h)
        x = npgpu.asarray(h)
        assert_matches(scaled(x), h / h.sum())
        m = h.max(axis=-1, keepdims=True)
        assert_matches(branch(x), h - m if m.max() > 0 else h + m)


def test_in_place_updates_and_non_fusable_steps_are_not_replayed(rng):
    @npgpu.fuse
    def upd(x, y):
        y += x.sum(axis=1, keepdims=True)
        return y

    h, g = random_array((3, 6), np.float32, rng), random_array((3, 6), np.float32, rng)
    x, y = npgpu.asarray(h), npgpu.asarray(g)
    for k in range(3):
        upd(x, y)
        assert_matches(y, g + (k + 1) * h.sum(axis=1, keepdims=True), rtol=1e-5)
    assert not upd._replays


@pytest.mark.parametrize("dt", [np.float32, np.int16, np.float64])
def test_elementwise_fast_path(dt, rng):
    """Repeat calls with C-contiguous arrays of one shape take the prepared launch; other
    layouts, shapes and dtypes the general replay."""
    @npgpu.fuse
    def f(x, y):
        return 2 * x + y, x * y

    for shape, layout in [((40,), "contiguous"), ((40,), "contiguous"), ((3, 7), "contiguous"),
                          ((6, 5), "transposed"), ((4, 6), "negative"), ((0,), "contiguous"),
                          ((), "contiguous")]:
        h, g = random_array(shape, dt, rng), random_array(shape, dt, rng)
        x, hx = make_layout(h, layout)
        y = npgpu.asarray(g)
        with np.errstate(all="ignore"):
            ref = (2 * hx + g, hx * g)
        got = f(x, y)
        assert isinstance(got, tuple)
        for a, r in zip(got, ref):
            assert_matches(a, r)
    # broadcasting and a mix of dtypes
    h, g = random_array((5, 1), dt, rng), random_array((4,), np.float32, rng)
    for _ in range(2):
        got = f(npgpu.asarray(h), npgpu.asarray(g))
        with np.errstate(all="ignore"):
            assert_matches(got[0], 2 * h + g)
    assert f._fast


def test_traced_results_in_several_threads(rng):
    """Threads tracing the same fused function at once (each call's reduction results name
    its own trace) get NumPy's values and plain arrays back."""
    import threading
    hs = [random_array((4, 9), np.float32, rng) for _ in range(4)]
    f = npgpu.fuse(_layer_norm)
    got, errors = [None] * 4, []

    def work(i):
        try:
            x = npgpu.asarray(hs[i])
            for _ in range(3):
                got[i] = f(x)
        except Exception as e:          # reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for g, h in zip(got, hs):
        assert type(g) is npgpu.ndarray
        assert_matches(g, _layer_norm(h), rtol=1e-5)


def _softmax(x):
    m = npgpu.get_array_module(x)
    e = m.exp(x - m.max(x, axis=-1, keepdims=True))
    return e / m.sum(e, axis=-1, keepdims=True)


def _scaled_exp(x):
    """A per-row subexpression (log of the sum) and a map value (exp(x)) the last step reuses."""
    m = npgpu.get_array_module(x)
    e = m.exp(x * 0.5)
    s = m.sum(e, axis=-1, keepdims=True)
    return e * m.log(s) + m.sqrt(s + 1)


@pytest.mark.parametrize("body, rowwise", [(_log_softmax, True), (_softmax, False),
                                           (_scaled_exp, True)])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_row_kernel_computes_nothing_twice(body, rowwise, dt, rng):
    """The last step's part on per-row values alone runs once a row (``ep_op_row``), and a value
    the reduction's map computed (softmax's exp(x - max)) is passed to it, not computed again:
    the exponential is evaluated once for each of a thread's values."""
    h = random_array((5, 37), dt, rng)
    x = npgpu.asarray(h)
    f = _one_row_kernel(body, h, x, dt)
    (src,) = f.kernel_sources(x).values()
    exp_fn = re.search(r"def (fz\d+)\(x0\):\n    return h_exp\(x0\)", src).group(1)
    funcs = {m.group(1): m.group(2) for m in re.finditer(r"def (\w+)\(.*?\):\n((?:    .*\n)+)",
                                                         src)}
    assert exp_fn not in funcs["ep_op"]
    assert sum(exp_fn in b for n, b in funcs.items() if re.fullmatch(r"m\d+_map", n)) == 1
    kernel = src[src.rindex("def fuse_rows_"):]
    assert kernel.count("ep_op_row(") == (1 if rowwise else 0)
    if rowwise:
        log_fn = next(n for n, b in funcs.items() if re.fullmatch(r"fz\d+", n) and "log" in b)
        assert log_fn in funcs["ep_op_row"] and log_fn not in funcs["ep_op"]


def _two_sums_two_outputs(x, c):
    m = npgpu.get_array_module(x)
    s = x.sum(axis=-1, keepdims=True)
    t = m.exp(x * 0.25)
    u = t.sum(axis=-1, keepdims=True)
    return x * m.exp(s * c) + t / u, m.abs(x) + m.log1p(m.abs(s)) * c


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64, np.int32])
def test_split_last_step_with_outputs_and_a_scalar(dt, rng):
    """Two outputs, a Python scalar, per-row parts reading it (exp(s * c), log1p(|s|) * c) and a
    map's value (exp(x / 4)) reused: one row kernel, NumPy's dtypes and values."""
    h = random_array((5, 37), dt, rng)
    x = npgpu.asarray(h)
    f = npgpu.fuse(_two_sums_two_outputs)
    with np.errstate(all="ignore"):
        _check(f, (h, 0.1), (x, 0.1), rtol=2e-5 if dt in (np.float32, np.complex64) else None)
    assert f.launches(x, 0.1) == 1
    (src,) = f.kernel_sources(x, 0.1).values()
    assert "ep_op_row(" in src and re.search(r"\bmv1_\d+\b", src[src.rindex("y_0 = ep_op("):])
