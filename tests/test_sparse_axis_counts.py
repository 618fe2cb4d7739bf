"""``getnnz(axis)`` and ``count_nonzero(axis)`` of sparse arrays and matrices against SciPy:
stored values (explicit zeros and duplicates included) against nonzero values after summing
duplicates, per column (axis 0) or row (axis 1)."""
import numpy
import pytest

import npgpu as np
import npgpu.scipy.sparse as gsp

sp = pytest.importorskip("scipy.sparse")
RNG = numpy.random.default_rng(77)


def _coo(kind):
    """(row, col, data) of a 6 x 5 COO with duplicates, an explicit zero and entries that
    cancel when summed."""
    # int32 indices: SciPy keeps int64 ones, npgpu narrows them (the counts take that dtype)
    row = numpy.array([0, 0, 2, 2, 3, 5, 5, 1, 1], dtype=numpy.int32)
    col = numpy.array([1, 1, 4, 0, 3, 2, 2, 0, 0], dtype=numpy.int32)
    data = RNG.integers(1, 9, row.size).astype(numpy.float64)
    data[2] = 0.0                       # explicit zero
    data[6] = -data[5]                  # (5, 2) sums to zero
    return (data, (row, col))


@pytest.mark.parametrize("fmt", ["coo", "csr", "csc"])
@pytest.mark.parametrize("cls", ["array", "matrix"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, -2])
def test_axis_counts_match_scipy(fmt, cls, axis):
    arg = _coo(fmt)
    want = getattr(sp, f"coo_{cls}")(arg, shape=(6, 5))
    got = getattr(gsp, f"coo_{cls}")((np.asarray(arg[0]), (np.asarray(arg[1][0]),
                                                           np.asarray(arg[1][1]))), shape=(6, 5))
    if fmt != "coo":
        want, got = want.asformat(fmt), got.asformat(fmt)
    for name in ("getnnz", "count_nonzero"):
        if name == "getnnz" and cls == "array":
            w = want._getnnz(axis=axis)          # SciPy keeps getnnz for matrices only
        else:
            w = getattr(want.copy(), name)(axis=axis)
        g = getattr(got.copy(), name)(axis=axis)
        if axis is None:
            assert g == w
        else:
            # SciPy's dtype: int64, or the index dtype along CSR/CSC's compressed axis
            assert isinstance(g, np.ndarray) and g.dtype == w.dtype
            numpy.testing.assert_array_equal(g.get(), w)


@pytest.mark.parametrize("axis", [2, -3])
def test_axis_out_of_bounds(axis):
    m = gsp.csr_matrix(np.asarray(RNG.random((3, 4))))
    for f in (m.getnnz, m.count_nonzero):
        with pytest.raises(ValueError, match="axis out of bounds"):
            f(axis=axis)


def test_dia_has_no_axis_counts_as_scipy():
    h = sp.dia_matrix((RNG.random((2, 4)), [0, 1]), shape=(4, 4))
    g = gsp.dia_matrix(h)
    assert g.count_nonzero() == h.count_nonzero() and g.getnnz() == h.getnnz()
    for f in (g.getnnz, g.count_nonzero):
        with pytest.raises(NotImplementedError, match="DIA format"):
            f(axis=0)


def _pair(dt, cls="array", fmt="csr"):
    h = numpy.array([[1, 0, 3, 0], [0, 5, 0, 2], [7, 0, 0, 4]]).astype(dt)
    want = getattr(sp, f"{fmt}_{cls}")(h)
    return want, getattr(gsp, f"{fmt}_{cls}")(np.asarray(h))


def _same(g, w):
    if sp.issparse(w):
        assert g.format == w.format, (g.format, w.format)
        g, w = g.toarray(), w.toarray()
    g = g.get()
    w = numpy.asarray(w)
    assert g.dtype == w.dtype and g.shape == w.shape
    numpy.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dt", ["i4", "f4", "f8", "c8"])
@pytest.mark.parametrize("s", [2, 3.0, numpy.float32(0.5), -4])
def test_divide_by_scalar(dt, s):
    """SciPy multiplies by 1 / s in float64 (complex keeps its type)."""
    w, g = _pair(dt)
    _same(g / s, w / s)


@pytest.mark.parametrize("cls", ["array", "matrix"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("dense", ["full", "row", "col"])
def test_divide_by_dense(cls, fmt, dense):
    w, g = _pair("f8", cls, fmt)
    d = {"full": RNG.random((3, 4)) + 0.5, "row": RNG.random(4) + 0.5,
         "col": RNG.random((3, 1)) + 0.5}[dense]
    d.ravel()[0] = 0.0                     # a stored value over zero: inf
    with numpy.errstate(divide="ignore"):
        want = w / d
    _same(g / np.asarray(d), want)


@pytest.mark.parametrize("dt", ["f4", "f8", "i8"])
def test_divide_by_sparse(dt):
    w, g = _pair(dt)
    w2, g2 = _pair("f8")
    w2 = w2.T.T.tocsr()
    with numpy.errstate(divide="ignore", invalid="ignore"):
        want = w / w2
    got = g / g2
    numpy.testing.assert_array_equal(got.get(), numpy.asarray(want))
    assert got.get().dtype == numpy.asarray(want).dtype
    with pytest.raises(ValueError, match="inconsistent shapes"):
        g / gsp.csr_array(np.ones((4, 3)))
