"""ufunc.reduce / accumulate / reduceat for every binary ufunc of the table, against NumPy."""
import sys
import warnings

import numpy
import pytest

import npgpu as np
from npgpu.ufuncs import UFUNCS
from conftest import random_array
from test_reductions import check

sys.setswitchinterval(5e-4)          # cheaper simulator barriers (see test_reductions)
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

BINARY = sorted(n for n, u in UFUNCS.items() if u.nin == 2 and u.nout == 1 and n == u.__name__)


def reduce_types(name):
    """dtypes whose NumPy reduce loop exists and npgpu has a loop for (loop dtype == input)."""
    npuf = getattr(numpy, name)
    out = []
    for t in ("?", "i1", "i4", "u2", "i8", "f2", "f4", "f8", "c8", "c16"):
        dt = numpy.dtype(t)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                npuf.reduce(numpy.ones(2, dt))
        except (TypeError, ValueError):
            continue
        out.append(dt)
    return out


def data(dt, shape, seed):
    rng = numpy.random.default_rng(seed)
    if dt.kind in "fc":
        x = rng.uniform(0.5, 2.0, shape)
        if dt.kind == "c":
            x = x + 1j * rng.uniform(0.5, 2.0, shape)
        return x.astype(dt)
    return random_array(shape, dt, rng=rng, low=1, high=5)


def _skip_unsupported(fn):
    try:
        return fn()
    except TypeError as e:
        if "no GPU loop" in str(e) or "not supported for the input types" in str(e):
            return None
        raise


@pytest.mark.matrix
@pytest.mark.parametrize("name", BINARY)
def test_reduce_every_binary_ufunc(name):
    uf = UFUNCS[name]
    npuf = getattr(numpy, name)
    ran = 0
    axes = (0, 1, None if _reorderable(npuf) else -1)
    for q, dt in enumerate(reduce_types(name)):
        h = data(dt, (3, 5), 1)
        d = np.asarray(h)
        # every axis for the first dtype, then every dtype's combine once with the axes in turn
        # (each axis is a kernel per dtype; the mapping of axes is the shared planner's, tested
        # on its own elsewhere)
        for axis in (axes[q % 3],) if q else axes:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exp = npuf.reduce(h, axis=axis)
                if not _reorderable(npuf) and exp.ndim:
                    # the in-order fold, spelled with elementwise calls: NumPy's own reduce of
                    # arctan2/power/ldexp differed on the H200 host (SIMD loops), not its fold
                    exp = _left_fold(npuf, h, axis, exp.dtype)
            got = _skip_unsupported(lambda: uf.reduce(d, axis=axis))
            if got is None:
                continue
            ran += 1
            small = numpy.asarray(exp).dtype in (numpy.float16, numpy.complex64, numpy.float32)
            check(got, exp, rtol=2e-2 if small else 1e-9)
    assert ran or not reduce_types(name), f"no dtype of {name}.reduce ran"


def _left_fold(npuf, h, axis, dt):
    """((h0 op h1) op h2) ... along ``axis``, one elementwise ufunc call per step."""
    parts = numpy.moveaxis(h, axis, 0)
    acc = parts[0].astype(dt)
    for p in parts[1:]:
        acc = npuf(acc, p, dtype=dt) if npuf.__name__ != "ldexp" else npuf(acc, p)
    return acc.astype(dt)


def _reorderable(npuf):
    try:
        npuf.reduce(numpy.ones((1, 1), npuf.types[-1][0]), axis=(0, 1))
        return True
    except (ValueError, TypeError):
        return False


def test_reduce_options():
    h = data(numpy.dtype("f8"), (4, 5, 3), 2)
    d = np.asarray(h)
    add = UFUNCS["add"]
    check(add.reduce(d), numpy.add.reduce(h), h)
    check(add.reduce(d, axis=(0, 2), keepdims=True), numpy.add.reduce(h, axis=(0, 2), keepdims=True), h)
    check(add.reduce(d, axis=None, initial=2.0), numpy.add.reduce(h, axis=None, initial=2.0), h)
    m = numpy.random.default_rng(3).random((4, 5, 3)) > 0.5
    check(add.reduce(d, axis=1, where=np.asarray(m)), numpy.add.reduce(h, axis=1, where=m), h)
    check(add.reduce(d, axis=0, dtype=numpy.float32), numpy.add.reduce(h, axis=0, dtype=numpy.float32), h)
    o = np.zeros((5, 3))
    assert add.reduce(d, axis=0, out=o) is o
    check(o, numpy.add.reduce(h, axis=0), h)
    hi = random_array((6,), numpy.int8, rng=numpy.random.default_rng(4))
    check(add.reduce(np.asarray(hi)), numpy.add.reduce(hi))


def test_non_reorderable_fold_in_order():
    sub = UFUNCS["subtract"]
    div = UFUNCS["true_divide"]
    h = data(numpy.dtype("f8"), (4, 6), 5)
    d = np.asarray(h)
    for axis in (0, 1, -1):
        check(sub.reduce(d, axis=axis), numpy.subtract.reduce(h, axis=axis))
        check(div.reduce(d, axis=axis), numpy.true_divide.reduce(h, axis=axis))
        check(sub.reduce(d.T, axis=axis), numpy.subtract.reduce(h.T, axis=axis))
    check(sub.reduce(d, axis=1, initial=1.5), numpy.subtract.reduce(h, axis=1, initial=1.5))
    m = numpy.random.default_rng(11).random((4, 6)) > 0.5
    for axis in (0, 1):
        check(div.reduce(d, axis=axis, where=np.asarray(m), initial=2.0),
              numpy.true_divide.reduce(h, axis=axis, where=m, initial=2.0))
    with pytest.raises(ValueError):
        div.reduce(d, axis=0, where=np.asarray(m))
    check(sub.reduce(d[0], axis=None), numpy.subtract.reduce(h[0], axis=None))
    with pytest.raises(ValueError, match="not reorderable"):
        sub.reduce(d, axis=(0, 1))
    with pytest.raises(ValueError, match="not reorderable"):
        sub.reduce(d, axis=None)
    with pytest.raises(ValueError, match="identity"):
        sub.reduce(np.asarray(numpy.zeros((0, 3))), axis=0)
    hi = random_array((5, 4), numpy.int32, rng=numpy.random.default_rng(6))
    check(sub.reduce(np.asarray(hi), axis=0), numpy.subtract.reduce(hi, axis=0))


def test_reduce_errors():
    d = np.asarray(numpy.ones((2, 3)))
    with pytest.raises(ValueError, match="binary"):
        UFUNCS["negative"].reduce(d)
    with pytest.raises(numpy.exceptions.AxisError):
        UFUNCS["add"].reduce(d, axis=3)


def test_accumulate():
    h = data(numpy.dtype("f8"), (4, 6), 7)
    d = np.asarray(h)
    for name in ("add", "multiply", "subtract", "true_divide", "maximum", "minimum"):
        if name not in UFUNCS:
            continue
        uf, npuf = UFUNCS[name], getattr(numpy, name)
        for axis in (0, 1):
            check(uf.accumulate(d, axis=axis), npuf.accumulate(h, axis=axis), h)
    hi = random_array((70,), numpy.int8, rng=numpy.random.default_rng(8))
    add = UFUNCS["add"]
    check(add.accumulate(np.asarray(hi)), numpy.add.accumulate(hi))            # int8 stays int8
    check(add.accumulate(np.asarray(hi), dtype=numpy.int64), numpy.add.accumulate(hi, dtype=numpy.int64))
    with pytest.raises(ValueError, match="binary"):
        UFUNCS["negative"].accumulate(d)


def test_reduceat():
    h = data(numpy.dtype("f4"), (5, 8), 9)
    d = np.asarray(h)
    add = UFUNCS["add"]
    for idx in ([0, 4, 1, 5, 7], [0, 3], [2], [6, 6, 0]):
        check(add.reduceat(d, idx, axis=1), numpy.add.reduceat(h, idx, axis=1), h)
    check(add.reduceat(d, [0, 2, 4], axis=0), numpy.add.reduceat(h, [0, 2, 4], axis=0), h)
    check(UFUNCS["subtract"].reduceat(d[0], [0, 3, 5]), numpy.subtract.reduceat(h[0], [0, 3, 5]))
    hi = random_array((9,), numpy.int16, rng=numpy.random.default_rng(10))
    check(add.reduceat(np.asarray(hi), [0, 4, 8]), numpy.add.reduceat(hi, [0, 4, 8]))
    with pytest.raises(IndexError):
        add.reduceat(d, [0, 9], axis=1)
