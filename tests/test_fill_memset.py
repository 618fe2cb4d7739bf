"""fill / full / zeros / ones through the driver's memset where the value's bytes repeat every
1, 2 or 4 bytes, through the fill kernel otherwise; both against NumPy on every dtype."""
import numpy as np
import pytest

import npgpu
from npgpu._core import transfer
from npgpu._codegen.stats import stats

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
VALUES = [0, 1, -1, 1.5, 257, 2.0 ** 40, 3 + 4j, True, np.nan]


def _want(shape, v, dt):
    try:
        with np.errstate(all="ignore"):
            return np.full(shape, v, dt)
    except (TypeError, ValueError, OverflowError) as e:
        return e


@pytest.mark.parametrize("dt", DTYPES)
def test_full_and_fill_match_numpy(dt):
    for v in VALUES:
        want = _want((3, 5), v, dt)
        if isinstance(want, Exception):
            with pytest.raises(type(want)):
                npgpu.full((3, 5), v, dt)
            continue
        with np.errstate(all="ignore"):
            got = npgpu.full((3, 5), v, dt)
        np.testing.assert_array_equal(got.get(), want)
        assert got.dtype == want.dtype
        # Fortran order, a reversed view, a strided view (the kernel), an offset view
        base = npgpu.asarray(np.arange(40).astype(dt))
        for view, hview in ((npgpu.empty((5, 3), dt, order="F"), np.empty((5, 3), dt, "F")),
                            (base[::-1], np.arange(40).astype(dt)[::-1]),
                            (base[1::3], np.arange(40).astype(dt)[1::3]),
                            (base[3:17], np.arange(40).astype(dt)[3:17])):
            try:
                with np.errstate(all="ignore"):
                    hview.fill(v)
            except (TypeError, ValueError, OverflowError) as e:
                with pytest.raises(type(e)):        # ndarray.fill's own conversion errors
                    view.fill(v)
                continue
            with np.errstate(all="ignore"):
                view.fill(v)
            np.testing.assert_array_equal(view.get(), hview)


def test_fill_leaves_neighbours_alone():
    h = np.arange(64, dtype=np.int16)
    g = npgpu.asarray(h)
    g[5:21].fill(-1)        # a 2-byte pattern from an odd element
    h[5:21] = -1
    np.testing.assert_array_equal(g.get(), h)
    b = npgpu.asarray(np.arange(64, dtype=np.uint8))
    b[3:10] = 7             # 1-byte memset at an odd address
    hb = np.arange(64, dtype=np.uint8)
    hb[3:10] = 7
    np.testing.assert_array_equal(b.get(), hb)


def test_memset_unit():
    f4 = np.float32(1.5).tobytes()
    assert transfer.memset_unit(f4, 0, 16) == 4
    assert transfer.memset_unit(b"\0" * 8, 0, 16) == 1
    assert transfer.memset_unit(np.float64(1.0).tobytes(), 0, 16) == 0    # no 4-byte period
    assert transfer.memset_unit(np.float64(2.0 ** 40).tobytes(), 0, 16) == 0
    assert transfer.memset_unit(np.complex64(1 + 1j).tobytes(), 0, 16) == 4
    assert transfer.memset_unit(np.int16(-1).tobytes(), 3, 16) == 1      # 0xFFFF: bytes
    assert transfer.memset_unit(np.int16(7).tobytes(), 3, 16) == 0       # unaligned


def test_memset_fill_counts_as_a_launch():
    # as the fill kernel did: @fuse's closed-trace check counts device work by launches
    a = npgpu.empty(100, np.float32)
    before = stats["launches"]
    a.fill(0.0)
    assert stats["launches"] == before + 1
    np.testing.assert_array_equal(a.get(), np.zeros(100, np.float32))


@pytest.mark.parametrize("dt", ["float32", "float64", "int16", "bool"])
def test_fill_zero_d_empty_and_threads(dt):
    z = npgpu.empty((), dt)
    z.fill(1)
    assert z.get() == np.ones((), dt) and z.shape == ()
    e = npgpu.empty((0, 3), dt)
    e.fill(1)                                   # nothing written, no error
    assert e.shape == (0, 3)
    np.testing.assert_array_equal(npgpu.full((), 2, dt).get(), np.full((), 2, dt))
    from conftest import run_threads
    outs = {}

    def work(k):                                # a thread's first allocation and fill
        outs[k] = npgpu.full((5, 4), k, dt).get()
    run_threads(work, range(4))
    for k in range(4):
        np.testing.assert_array_equal(outs[k], np.full((5, 4), k, dt))
