"""Regressions found by the SciPy workloads (tests/test_workloads_scipy.py): each a minimal
reproduction compared with SciPy 1.17 (tiny arrays: the simulator interprets every kernel)."""
import re
import warnings

import numpy
import pytest
import scipy.ndimage
import scipy.sparse
import scipy.special

import npgpu
import npgpu.scipy.ndimage as gnd
import npgpu.scipy.sparse as gsp
import npgpu.scipy.special as gsc


def _same(got, want, rtol=1e-12):
    got = got.get() if isinstance(got, npgpu.ndarray) else got
    want = numpy.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    numpy.testing.assert_allclose(got, want, rtol=rtol, atol=0)


# ---- special: ufunc methods (LoopSpec lacked outer/reduce/accumulate/reduceat/at) ------------
def test_special_ufunc_outer_and_at():
    a, b = numpy.array([2.0, 3.0]), numpy.array([1.0, 0.5, 4.0], numpy.float32)
    _same(gsc.betaln.outer(npgpu.asarray(a), npgpu.asarray(b)), scipy.special.betaln.outer(a, b))
    x = npgpu.asarray(numpy.array([0.2, 0.3, 0.4]))
    gsc.erf.at(x, [0, 2])
    want = numpy.array([0.2, 0.3, 0.4])
    scipy.special.erf.at(want, [0, 2])
    _same(x, want)


def test_special_ufunc_reduce_accumulate():
    a = numpy.array([[2.0, 3.0, 4.0], [1.0, 0.5, 2.0]])
    _same(gsc.xlogy.reduce(npgpu.asarray(a[0])), scipy.special.xlogy.reduce(a[0]))
    _same(gsc.betaln.reduce(npgpu.asarray(a), axis=0), scipy.special.betaln.reduce(a, axis=0))
    _same(gsc.xlogy.accumulate(npgpu.asarray(a[0])), scipy.special.xlogy.accumulate(a[0]))
    with pytest.raises(ValueError):          # a unary ufunc has no outer (NumPy's error)
        gsc.erf.outer(npgpu.asarray(a[0]), npgpu.asarray(a[0]))


# ---- special: logsumexp of empty input and its promotion with b ------------------------------
@pytest.mark.parametrize("shape,kw", [((0,), {}), ((0,), {"return_sign": True}),
                                      ((3, 0), {"axis": 1}),
                                      ((0, 3), {"axis": 0, "keepdims": True}),
                                      ((0, 2), {"axis": 1})])
def test_logsumexp_empty(shape, kw):
    a = numpy.zeros(shape)
    want = scipy.special.logsumexp(a, **kw)
    got = gsc.logsumexp(npgpu.asarray(a), **kw)
    if kw.get("return_sign"):
        for g, w in zip(got, want):
            _same(g, w)
    else:
        _same(got, want)


@pytest.mark.parametrize("a_dt,b", [(numpy.float32, 2.0), (numpy.float32, 2),
                                    (numpy.float32, numpy.float64(2.0)),
                                    (numpy.int32, numpy.ones(3, numpy.float32)),
                                    (numpy.int8, numpy.ones(3, numpy.float32)),
                                    (numpy.float32, numpy.array([1.0, -2.0, 0.5]))])
def test_logsumexp_b_promotion(a_dt, b):
    a = numpy.array([0.5, 1.0, 2.0]).astype(a_dt)
    want = scipy.special.logsumexp(a, b=b, return_sign=True)
    gb = npgpu.asarray(b) if isinstance(b, numpy.ndarray) else b
    got = gsc.logsumexp(npgpu.asarray(a), b=gb, return_sign=True)
    _same(got[0], want[0], rtol=1e-6)
    _same(got[1], want[1])


# ---- sparse: diags' default dtype (SciPy 1.17: np.common_type, FutureWarning) ---------------
@pytest.mark.parametrize("diagonals,offsets", [([1, -2, 1], [-1, 0, 1]),
                                               ([[1, 2, 3], [4, 5]], [0, 1]),
                                               ([numpy.ones(4, numpy.float32)], [0]),
                                               ([numpy.ones(4, numpy.float32), [1, 2, 3]], [0, 1])])
def test_diags_default_dtype(diagonals, offsets):
    shape = (5, 5) if numpy.ndim(diagonals[0]) == 0 else None
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        want = scipy.sparse.diags(diagonals, offsets, shape=shape, format="csr")
    with warnings.catch_warnings(record=True) as wg:
        warnings.simplefilter("always")
        got = gsp.diags(diagonals, offsets, shape=shape, format="csr")
    assert got.dtype == want.dtype
    numpy.testing.assert_array_equal(got.toarray().get(), want.toarray())
    cat = [w.category for w in ws if w.category is FutureWarning]
    assert [w.category for w in wg if w.category is FutureWarning] == cat
    assert all(w.filename == __file__ for w in wg if w.category is FutureWarning)
    # dtype=None asks for the future rule (result_type), without a warning
    assert gsp.diags_array(diagonals, offsets=offsets, shape=shape, dtype=None).dtype == \
        scipy.sparse.diags_array(diagonals, offsets=offsets, shape=shape, dtype=None).dtype


# ---- sparse: has_sorted_indices after sort_indices with duplicates left -----------------------
def test_sort_indices_sets_has_sorted_indices():
    parts = (numpy.array([3.0, 1.0, 2.0]), numpy.array([2, 2, 1]), numpy.array([0, 2, 3]))
    want = scipy.sparse.csr_matrix(parts, shape=(2, 3))
    got = gsp.csr_matrix(tuple(npgpu.asarray(p) for p in parts), shape=(2, 3))
    # (before sorting npgpu says False without reading the indices; SciPy reads them)
    want.sort_indices()
    got.sort_indices()
    assert got.has_sorted_indices == want.has_sorted_indices is True
    assert not got.has_canonical_format            # the duplicate (0, 2) is still there
    numpy.testing.assert_array_equal(got.indices.get(), want.indices)
    assert got.sorted_indices().has_sorted_indices


# ---- sparse: result formats of elementwise operations ----------------------------------------
H = scipy.sparse.random(5, 6, density=0.5, format="csr", random_state=3)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
@pytest.mark.parametrize("op", ["add", "sub", "multiply", "maximum", "min_scalar", "mul_col",
                                "mul_row"])
def test_elementwise_result_format(fmt, op):
    def run(mod, A, B, col, row):
        return {"add": lambda: A + B, "sub": lambda: A - B, "multiply": lambda: A.multiply(B),
                "maximum": lambda: A.maximum(B), "min_scalar": lambda: A.minimum(0.1),
                "mul_col": lambda: A.multiply(col), "mul_row": lambda: A.multiply(row)}[op]()
    col, row = numpy.arange(5.0)[:, None] - 1, numpy.arange(6.0) - 2
    A = getattr(scipy.sparse, fmt + "_matrix")(H)
    B = scipy.sparse.csr_matrix(H * 2 - H.T.T)
    want = run(scipy.sparse, A, B, col, row)
    got = run(gsp, getattr(gsp, fmt + "_matrix")(H), gsp.csr_matrix(B), npgpu.asarray(col),
              npgpu.asarray(row))
    assert got.format == want.format
    numpy.testing.assert_allclose(got.toarray().get(), want.toarray(), rtol=1e-14)


def test_csc_minus_shape_error():
    A, B = gsp.csc_matrix(H), gsp.csr_matrix(H.T)
    with pytest.raises(ValueError) as want:         # (SciPy's wording varies by version)
        scipy.sparse.csc_matrix(H) - scipy.sparse.csr_matrix(H.T)
    with pytest.raises(ValueError, match=re.escape(str(want.value))):
        A - B


# ---- ndimage: warnings name the caller's line, as SciPy's -----------------------------------
def test_zoom_grid_mode_warning_location():
    x = npgpu.asarray(numpy.random.default_rng(0).random((5, 5)))
    for _ in range(2):          # the second call is the planned path
        with pytest.warns(UserWarning, match="grid-wrap instead of wrap") as w:
            gnd.zoom(x, 2, grid_mode=True, mode="wrap", order=1)
        assert w[0].filename == __file__


@pytest.mark.parametrize("name", ["grey_erosion", "grey_dilation", "white_tophat",
                                  "black_tophat"])
def test_grey_size_footprint_warning_location(name):
    h = numpy.random.default_rng(0).random((6, 7))
    fp = numpy.array([[1, 0, 1], [1, 1, 0]], bool)
    with pytest.warns(UserWarning, match="ignoring size") as w:
        got = getattr(gnd, name)(npgpu.asarray(h), size=3, footprint=fp)
    assert w[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(scipy.ndimage, name)(h, size=3, footprint=fp)
    _same(got, want)


# ---- sparse: hstack/vstack keep an all-CSR or all-CSC format along either axis --------------
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("stack", ["hstack", "vstack"])
def test_stack_format(fmt, stack):
    A = getattr(scipy.sparse, fmt + "_matrix")(H[:, :5])
    want = getattr(scipy.sparse, stack)([A, A * 2])
    G = getattr(gsp, fmt + "_matrix")(H[:, :5])
    got = getattr(gsp, stack)([G, G * 2])
    assert got.format == want.format
    numpy.testing.assert_allclose(got.toarray().get(), want.toarray(), rtol=1e-14)
