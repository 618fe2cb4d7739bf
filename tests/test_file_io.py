"""npgpu's file input and output and arrays from host data (npgpu/file_io.py, ndarray.tofile):
what NumPy writes and reads, with npgpu arrays on the device side, on random data of each dtype."""
import io

import numpy
import pytest

import npgpu as np

RNG = numpy.random.default_rng(41)
DTYPES = ["f4", "f8", "i1", "u2", "i8", "c8", "c16", "?"]


def _data(dt, shape=(3, 5)):
    x = RNG.uniform(-50, 50, shape)
    if numpy.dtype(dt).kind == "c":
        x = x + 1j * RNG.uniform(-50, 50, shape)
    if numpy.dtype(dt).kind == "u":
        x = numpy.abs(x)
    return (x > 0 if dt == "?" else x).astype(dt)


def _same(got, want):
    assert isinstance(got, np.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("dt", DTYPES)
def test_npy_round_trip_is_numpys_file(dt, tmp_path):
    h = _data(dt)
    g = np.asarray(h)
    np.save(tmp_path / "g.npy", g[::-1, 1:])             # a view: its values
    numpy.save(tmp_path / "h.npy", h[::-1, 1:])
    assert (tmp_path / "g.npy").read_bytes() == (tmp_path / "h.npy").read_bytes()
    _same(np.load(tmp_path / "g.npy"), h[::-1, 1:])
    _same(np.load(tmp_path / "g.npy", mmap_mode="r"), h[::-1, 1:])
    numpy.save(tmp_path / "d.npy", g)                     # NumPy's save dispatches to npgpu's
    numpy.testing.assert_array_equal(numpy.load(tmp_path / "d.npy"), h)
    buf = io.BytesIO()
    np.save(buf, np.asarray(h[0, 0]))                     # 0-d, to a file object
    buf.seek(0)
    _same(np.load(buf), numpy.asarray(h[0, 0]))


def test_npz_archives(tmp_path):
    a, b = _data("f4"), _data("i2", (7,))
    for save in (np.savez, np.savez_compressed):
        save(tmp_path / "x.npz", np.asarray(a), b=np.asarray(b), c=b)
        with np.load(tmp_path / "x.npz") as f:
            assert sorted(f.files) == ["arr_0", "b", "c"] and len(f) == 3 and "b" in f
            _same(f["arr_0"], a)
            _same(f["b"], b)
            _same(f.get("c"), b)
            assert f.get("nope") is None
            assert sorted(k for k, _ in f.items()) == sorted(f.keys())
        with numpy.load(tmp_path / "x.npz") as f:                # NumPy reads npgpu's file
            numpy.testing.assert_array_equal(f["b"], b)


def test_text_files(tmp_path):
    h = _data("f8")
    np.savetxt(tmp_path / "x.txt", np.asarray(h), fmt="%.6e", delimiter=",", header="hd")
    numpy.savetxt(tmp_path / "y.txt", h, fmt="%.6e", delimiter=",", header="hd")
    assert (tmp_path / "x.txt").read_text() == (tmp_path / "y.txt").read_text()
    _same(np.loadtxt(tmp_path / "x.txt", delimiter=","),
          numpy.loadtxt(tmp_path / "y.txt", delimiter=","))
    _same(np.loadtxt(tmp_path / "x.txt", delimiter=",", usecols=(1, 3), dtype=numpy.float32),
          numpy.loadtxt(tmp_path / "y.txt", delimiter=",", usecols=(1, 3), dtype=numpy.float32))
    text = "1,2,3\n4,,6\n7,8,9\n"
    _same(np.genfromtxt(io.StringIO(text), delimiter=",", filling_values=-1),
          numpy.genfromtxt(io.StringIO(text), delimiter=",", filling_values=-1))
    with pytest.raises(TypeError, match="npgpu arrays have no mask"):
        np.genfromtxt(io.StringIO(text), delimiter=",", usemask=True)


@pytest.mark.parametrize("dt", ["f4", "i8", "c16"])
def test_tofile_and_fromfile(dt, tmp_path):
    h = _data(dt)
    g = np.asarray(h)
    g.T.tofile(tmp_path / "x.bin")
    h.T.tofile(tmp_path / "y.bin")
    assert (tmp_path / "x.bin").read_bytes() == (tmp_path / "y.bin").read_bytes()
    _same(np.fromfile(tmp_path / "x.bin", dtype=dt, count=7, offset=h.itemsize),
          numpy.fromfile(tmp_path / "y.bin", dtype=dt, count=7, offset=h.itemsize))
    if dt != "c16":
        g.tofile(tmp_path / "t.txt", sep=";", format="%.3f")
        h.tofile(tmp_path / "u.txt", sep=";", format="%.3f")
        assert (tmp_path / "t.txt").read_text() == (tmp_path / "u.txt").read_text()
        _same(np.fromfile(tmp_path / "t.txt", sep=";"), numpy.fromfile(tmp_path / "u.txt", sep=";"))


def test_arrays_from_host_data():
    raw = RNG.integers(0, 255, 64, dtype=numpy.uint8).tobytes()
    _same(np.frombuffer(raw, dtype=numpy.float32, count=5, offset=8),
          numpy.frombuffer(raw, dtype=numpy.float32, count=5, offset=8))
    _same(np.fromiter((i * i for i in range(9)), dtype=numpy.int16),
          numpy.fromiter((i * i for i in range(9)), dtype=numpy.int16))
    _same(np.fromstring("1.5, 2, -3", sep=","), numpy.fromstring("1.5, 2, -3", sep=","))
    with pytest.raises(ValueError):       # NumPy's error: a size not a multiple of the itemsize
        np.frombuffer(b"abc", dtype=numpy.float32)
    with pytest.raises(ValueError, match="binary mode of fromstring is removed"):
        np.fromstring("1 2")              # NumPy 2: fromstring needs a separator


def test_errors_and_host_only_contents(tmp_path):
    with pytest.raises(FileNotFoundError):
        np.load(tmp_path / "missing.npy")
    numpy.save(tmp_path / "o.npy", numpy.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="allow_pickle=False"):
        np.load(tmp_path / "o.npy")
    with pytest.raises(TypeError):        # object arrays cannot live on the device
        np.load(tmp_path / "o.npy", allow_pickle=True)


def test_pickle_dump_and_dumps(tmp_path):
    import pickle
    h = _data("c8")
    g = np.asarray(h)
    _same(pickle.loads(g[::-1].dumps()), h[::-1])
    g.dump(tmp_path / "x.pkl")
    _same(numpy.load(tmp_path / "x.pkl", allow_pickle=True), h)
    with open(tmp_path / "y.pkl", "wb") as f:
        g.T.dump(f)
    with open(tmp_path / "y.pkl", "rb") as f:
        _same(pickle.load(f), h.T)
