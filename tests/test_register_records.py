"""The index checks' bounds records kept in a register (``NPGPU_REGISTER_RECORDS=1``, off by
default until measured on a GPU): take's rows and element forms and advanced indexing's gather,
check and scatter give NumPy's values and NumPy's IndexError (the first bad index, its axis),
and a failed assignment writes nothing.  Runs in a subprocess (the switch is read at import)."""
import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import numpy as np
    import npgpu
    from npgpu import _remap
    assert _remap.REGISTER_RECORDS
    rng = np.random.default_rng(3)

    def raises_like(f_np, f_gp):
        try:
            f_np()
        except IndexError as e:
            want = str(e)
        else:
            raise AssertionError("NumPy did not raise")
        try:
            f_gp()
        except IndexError as e:
            assert str(e) == want, (str(e), want)
        else:
            raise AssertionError("npgpu did not raise: " + want)

    for dt in (np.float32, np.int8, np.complex128):
        h = (rng.standard_normal((5, 40)) * 20).astype(dt)
        g = npgpu.asarray(h)
        for idx in (rng.integers(-40, 40, 33), rng.integers(-40, 40, 3)):   # rows, element form
            assert np.array_equal(npgpu.take(g, npgpu.asarray(idx), axis=1).get(),
                                  np.take(h, idx, axis=1))
            assert np.array_equal(g[:, npgpu.asarray(idx)].get(), h[:, idx])
            assert np.array_equal(g[npgpu.asarray(idx % 5 - 2)].get(), h[idx % 5 - 2])
        for bad in ([1] * 20 + [45, 2, -41], [3, -50, 60]):
            b = np.array(bad)
            raises_like(lambda: np.take(h, b, axis=1), lambda: npgpu.take(g, npgpu.asarray(b), axis=1))
            raises_like(lambda: h[:, b], lambda: g[:, npgpu.asarray(b)])
        for rows in ([0, 2, 5, 1], [-6, 1]):
            r_ = np.array(rows)
            raises_like(lambda: h[r_], lambda: g[npgpu.asarray(r_)])
        i, j = np.array([0, 4, 2]), np.array([1, 39, 40])
        raises_like(lambda: h[i, j], lambda: g[npgpu.asarray(i), npgpu.asarray(j)])
        before = g.get()
        raises_like(lambda: h.copy().__setitem__((i, j), 1),
                    lambda: g.__setitem__((npgpu.asarray(i), npgpu.asarray(j)), 1))
        assert np.array_equal(g.get(), before)          # nothing written
        k = np.array([0, 3, 3, 1])
        g[npgpu.asarray(k), 2] = 7
        hh = before.copy()
        hh[k, 2] = 7
        assert np.array_equal(g.get(), hh)
    print("register records ok")
""")


def test_register_records_match_numpy():
    env = dict(os.environ, NPGPU_REGISTER_RECORDS="1")
    r = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    assert "register records ok" in r.stdout
