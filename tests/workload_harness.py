"""What the workload tests share (tests/test_workloads_*.py): results read back once, NumPy's
result compared with npgpu's (dtype, shape, values within a dtype's tolerance, NaN positions)."""
import numbers

import numpy

import npgpu


def to_host(x):
    """Results of one program, device arrays read back (the only transfer of an npgpu run)."""
    if isinstance(x, npgpu.ndarray):
        return x.get()
    if isinstance(x, dict):
        return {k: to_host(v) for k, v in x.items()}
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*(to_host(v) for v in x))
    if isinstance(x, (tuple, list)):
        return type(x)(to_host(v) for v in x)
    return x


def tol(dtype, loose=1.0):
    dt = numpy.dtype(dtype)
    r, a = {4: (2e-4, 2e-5), 8: (1e-10, 1e-12)}.get(dt.itemsize // (2 if dt.kind == "c" else 1),
                                                    (0, 0))
    return r * loose, a * loose


def compare(ref, got, rtol, atol, path="result"):
    """NumPy's result ``ref`` against npgpu's ``got`` (already on the host)."""
    if isinstance(ref, dict):
        assert got.keys() == ref.keys(), path
        for k in ref:
            compare(ref[k], got[k], rtol, atol, f"{path}[{k!r}]")
        return
    if isinstance(ref, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(ref), path
        for i, (r, g) in enumerate(zip(ref, got)):
            compare(r, g, rtol, atol, f"{path}[{i}]")
        return
    if isinstance(ref, (numpy.ndarray, numpy.generic)):
        # NumPy scalars are 0-d device arrays in npgpu (docs/differences.md)
        assert isinstance(got, (numpy.ndarray, numpy.generic)), (path, type(got))
        r, g = numpy.asarray(ref), numpy.asarray(got)
        assert g.dtype == r.dtype, (path, g.dtype, r.dtype)
        assert g.shape == r.shape, (path, g.shape, r.shape)
        if r.dtype.kind in "fc":
            numpy.testing.assert_allclose(g, r, rtol=rtol, atol=atol, equal_nan=True,
                                          err_msg=path)
        else:
            numpy.testing.assert_array_equal(g, r, err_msg=path)
        return
    assert type(got) is type(ref), (path, type(got), type(ref))
    if isinstance(ref, (numbers.Integral, str)) or ref is None:
        assert got == ref, path
    else:
        assert numpy.isclose(got, ref, rtol=rtol, atol=atol, equal_nan=True), (path, got, ref)
