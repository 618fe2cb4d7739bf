"""From NumPy's lib/tests/test_io.py: NpzFile's attributes and repr, numpy.lib.npyio's names,
and save/load keeping an F-ordered array's layout."""
import io

import numpy
import pytest

import npgpu as np
from conftest import assert_same

RNG = numpy.random.default_rng(2178)


def _archive(tmp_path, compressed=False, **arrays):
    path = tmp_path / "a.npz"
    (np.savez_compressed if compressed else np.savez)(path, **arrays)
    return path


@pytest.mark.parametrize("compressed", [False, True])
def test_npzfile_attributes_and_repr_are_numpys(tmp_path, compressed):
    h = {"x": RNG.random((3, 4)).astype(numpy.float32), "y": RNG.integers(-9, 9, 7)}
    path = _archive(tmp_path, compressed, **{k: np.asarray(v) for k, v in h.items()})
    with np.load(path) as got, numpy.load(path) as want:
        assert isinstance(got, np.lib.npyio.NpzFile)
        assert repr(got).replace(str(path), "P") == repr(want).replace(str(path), "P")
        assert got.files == want.files and sorted(got.keys()) == sorted(want.keys())
        assert got.zip.namelist() == want.zip.namelist()
        assert got.allow_pickle == want.allow_pickle and got.fid is not None
        for k in h:
            assert_same(getattr(got.f, k), getattr(want.f, k))      # NumPy's BagObj access
        assert sorted(dir(got.f)) == sorted(h)
        with pytest.raises(AttributeError):
            got.f.missing
    assert np.lib.npyio.DataSource is numpy.lib.npyio.DataSource


@pytest.mark.parametrize("dt", [numpy.float64, numpy.int16, numpy.complex64, numpy.bool_],
                         ids=str)
@pytest.mark.parametrize("layout", ["C", "F", "strided", "transposed 3-d"])
def test_save_load_keeps_numpys_layout(dt, layout):
    h = (RNG.random((4, 6, 5)) * 100 - 50).astype(dt)
    h = {"C": h[0], "F": numpy.asfortranarray(h[0]), "strided": h[:, ::2, 1],
         "transposed 3-d": h.transpose(2, 1, 0)}[layout]
    for src in (np.asarray(h), h):
        b = io.BytesIO()
        np.save(b, src)
        b.seek(0)
        want = numpy.load(io.BytesIO(b.getvalue()))
        hb = io.BytesIO()
        numpy.save(hb, h)
        assert b.getvalue() == hb.getvalue()          # the same file NumPy writes
        got = np.load(b)
        assert_same(got, want)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
            (want.flags.c_contiguous, want.flags.f_contiguous)
