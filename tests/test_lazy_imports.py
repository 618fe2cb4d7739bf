"""``import npgpu`` leaves SciPy's sparse package and npgpu's sparse / ndimage / polynomial /
testing modules unloaded until first use (issue 20: the warm start-up budget), and the lazy
names still resolve."""
import subprocess
import sys

CHECK = """
import sys
import npgpu
assert "scipy.sparse" not in sys.modules, "import npgpu loaded scipy.sparse"
assert "npgpu.scipy.sparse" not in sys.modules
assert "npgpu.scipy.ndimage" not in sys.modules
assert "sparse" in dir(npgpu.scipy) and "ndimage" in dir(npgpu.scipy)
assert "npgpu.polynomial" not in sys.modules and "npgpu.testing" not in sys.modules
assert "polynomial" in dir(npgpu) and "testing" in dir(npgpu)
assert npgpu.polynomial.Polynomial is sys.modules["npgpu.polynomial"].Polynomial
assert npgpu.testing.assert_allclose is sys.modules["npgpu.testing"].assert_allclose
try:
    npgpu.nothing
except AttributeError as e:
    assert "nothing" in str(e)
else:
    raise AssertionError("no AttributeError")
m = npgpu.scipy.sparse
assert m is sys.modules["npgpu.scipy.sparse"] and hasattr(m, "csr_matrix")
assert npgpu.scipy.ndimage.gaussian_filter is sys.modules["npgpu.scipy.ndimage"].gaussian_filter
import npgpu.scipy.sparse.linalg as L
assert L.cg is npgpu.scipy.sparse.linalg.cg
try:
    npgpu.scipy.nothing
except AttributeError as e:
    assert "nothing" in str(e)
else:
    raise AssertionError("no AttributeError")
print("ok")
"""


def test_sparse_and_ndimage_load_on_first_use():
    r = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().endswith("ok")
