"""The code generator: results come from kernels, sources are inspectable, caches work."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import npgpu
from npgpu._codegen import compiler, elementwise
from conftest import ON_GPU, needs_gpu

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(code, **env):
    full = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), **env)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r


def test_results_come_from_kernel_launches(rng):
    a = npgpu.asarray(rng.standard_normal(50))
    before = dict(compiler.stats)
    b = a + a
    assert compiler.stats["launches"] == before["launches"] + 1
    np.testing.assert_allclose(b.get(), 2 * a.get())


def test_copy_kernel_source_is_inspectable(rng):
    a = npgpu.asarray(rng.standard_normal((4, 6)).astype(np.float32))
    a.T.astype(np.float64)
    srcs = npgpu.kernel_sources()
    copy_srcs = [s for name, s in srcs.items() if name.startswith("copy_")]
    assert copy_srcs and all("def op(x0)" in s for s in copy_srcs)
    assert any("float64(" in s for s in copy_srcs)


def test_contiguous_layout_issues_loads_before_stores(rng):
    a = npgpu.asarray(rng.standard_normal(40))      # float64: 4-byte types take "words"
    a + a
    src = [s for n, s in npgpu.kernel_sources().items() if n.startswith("add_") and
           ("base + 3 * bd" in s or "base + uint64(3) * bd" in s)]
    assert src, "contiguous add kernel not rendered with 4 elements per thread"
    lines = src[0].splitlines()
    first_store = min(i for i, ln in enumerate(lines) if "out0[" in ln)
    last_load = max(i for i, ln in enumerate(lines[:first_store + 1]) if "in0[" in ln or "in1[" in ln)
    assert last_load < first_store


def test_dims_collapse_to_contiguous_for_full_slices(rng):
    h = rng.standard_normal((3, 4, 5))
    a = npgpu.asarray(h)
    b = a[:, :, :] * 2        # still contiguous: must take the 1-D path
    np.testing.assert_allclose(b.get(), h * 2)
    b = a[:, ::2] * 2         # not collapsible: strided path, right answer
    np.testing.assert_allclose(b.get(), h[:, ::2] * 2)


def test_index_operand_gives_linear_index():
    from npgpu._core.ndarray import empty_array
    op = elementwise.ScalarOp.from_expr("test_iota", 1, "x0 * 3")
    out = empty_array((4, 5), np.dtype(np.int32))
    elementwise.launch(op, [elementwise.INDEX], [np.dtype(np.int64)], [out], [np.dtype(np.int32)])
    np.testing.assert_array_equal(out.get(), np.arange(20).reshape(4, 5) * 3)


def test_cast_expr_covers_every_pair():
    from npgpu._core.dtypes import SUPPORTED
    for src in SUPPORTED:
        for dst in SUPPORTED:
            e = elementwise.cast_expr("v", src, dst)
            assert "v" in e


def test_dump_kernels_prints_source():
    r = _run("""
        import numpy as np, npgpu
        a = npgpu.asarray(np.arange(5.0)); (a * 2).get()
    """, NPGPU_DUMP_KERNELS="1", NPGPU_CACHE_DIR=os.path.join(ROOT, ".pytest_cache", "dumpcache"))
    assert "npgpu kernel multiply_" in r.stdout and "def op(x0, x1):" in r.stdout


@needs_gpu
def test_warm_disk_cache_compiles_nothing(tmp_path):
    code = """
        import json, numpy as np, npgpu
        a = npgpu.asarray(np.arange(7, dtype=np.int16))
        b = (a - a[::-1]).get()
        assert (b == np.arange(7) - np.arange(7)[::-1]).all()
        print(json.dumps(npgpu._codegen.stats))
    """
    first = json.loads(_run(code, NPGPU_CACHE_DIR=str(tmp_path)).stdout.strip().splitlines()[-1])
    second = json.loads(_run(code, NPGPU_CACHE_DIR=str(tmp_path)).stdout.strip().splitlines()[-1])
    made = first["compiles"] + first["shipped"]      # compiled, or assembled from shipped PTX
    assert made >= 1
    assert second["compiles"] == second["shipped"] == 0 and second["disk_hits"] == made


@needs_gpu
def test_read_only_cache_dir_warns_once_and_still_runs(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    if os.access(ro, os.W_OK):
        pytest.skip("running as root: a read-only directory is still writable")
    r = _run("""
        import numpy as np, npgpu
        a = npgpu.asarray(np.arange(5.0)); print((a * 3).get().sum(), (a + 1).get().sum())
    """, NPGPU_CACHE_DIR=str(ro))
    assert r.stderr.count("kernel disk cache disabled") == 1


@needs_gpu
def test_gpu_launch_never_enters_numba_dispatch(rng, monkeypatch):
    from numba.cuda import dispatcher

    def boom(*a, **k):
        raise AssertionError("Numba dispatch used on the hot path")
    monkeypatch.setattr(dispatcher.CUDADispatcher, "__call__", boom, raising=False)
    monkeypatch.setattr(dispatcher._Kernel, "launch", boom)
    x = npgpu.asarray(rng.standard_normal(1000).astype(np.float32))
    y = npgpu.sin(x) + x * 2
    np.testing.assert_allclose(y.get(), np.sin(x.get()) + x.get() * 2, rtol=1e-5, atol=1e-6)


def test_zero_d_operand_broadcasts(rng):
    h = rng.standard_normal(5)
    got = npgpu.multiply(npgpu.asarray(np.asarray(2.5)), npgpu.asarray(h))
    np.testing.assert_allclose(got.get(), 2.5 * h)


def test_index_operand_with_strided_inputs():
    from npgpu._core.ndarray import empty_array
    op = elementwise.ScalarOp.from_expr("test_iota_plus", 2, "x0 + x1")
    out = empty_array((3, 4), np.dtype(np.float64))
    other = npgpu.asarray(np.arange(12.0).reshape(4, 3)).T       # forces the strided layout
    elementwise.launch(op, [elementwise.INDEX, other], [np.dtype(np.int64), np.dtype(np.float64)],
                       [out], [np.dtype(np.float64)])
    np.testing.assert_array_equal(out.get(), np.arange(12).reshape(3, 4) + np.arange(12.0).reshape(4, 3).T)


@pytest.mark.parametrize("shape", [(7, 5), (32, 9), (3, 1), (13, 17)])
def test_tiled_layout_for_transposed_operands(shape, rng):
    x = rng.standard_normal(shape[::-1]).astype(np.float32)
    y = rng.standard_normal(shape)
    np.testing.assert_allclose((npgpu.asarray(x).T + npgpu.asarray(y)).get(), x.T + y)
    np.testing.assert_allclose((npgpu.asarray(x).T[::-1] * 2).get(), x.T[::-1] * 2)
    np.testing.assert_array_equal(npgpu.asarray(x).T.copy().get(), x.T.copy())
    h = x.astype(np.float16)
    np.testing.assert_array_equal(npgpu.asarray(h).T.astype(np.complex64).get(),
                                  h.T.astype(np.complex64))
    if min(shape) > 1:     # (3, 1) collapses to 1-D: no tile needed
        assert any("cuda.shared.array" in s for n, s in npgpu.kernel_sources().items()
                   if n.startswith("add_"))


def test_launch_bounds_are_part_of_a_kernels_identity(tmp_path, monkeypatch):
    """Launch bounds change the cubin: they enter the digest, the disk key and the record
    CI's PTX check compiles from."""
    from npgpu._codegen.compiler import KernelSource, Param, _disk_key
    params = [Param("array", np.dtype("f4"), 1, "C")]
    src = "def k_bounds(a):\n    a[0] = float32(1)\n"
    plain, bound = KernelSource("k_bounds", src, params), KernelSource("k_bounds", src, params,
                                                                       (128, 10))
    assert plain.launch_bounds is None and bound.launch_bounds == (128, 10)
    assert plain.digest() != bound.digest()
    assert _disk_key(plain, "90", {}) != _disk_key(bound, "90", {})
    monkeypatch.setattr(compiler, "_RECORD", str(tmp_path))
    compiler._record(bound)
    meta = json.loads((tmp_path / (bound.digest() + ".json")).read_text())
    assert meta["launch_bounds"] == [128, 10]


def test_tiled_layout_up_to_tiled_max(rng):
    """The simulator tiles transposed operands up to ``TILED_MAX`` elements (one block and a
    barrier per 4 x 4 tile); past it, the strided layout with a loop.  The GPU always tiles."""
    from npgpu._core.ndarray import empty_array
    limit = elementwise.TILED_MAX
    f4 = np.dtype(np.float32)
    op = elementwise.ScalarOp.from_expr("test_tiled_max", 2, "x0 - x1")
    cols = 9
    for rows in ((limit // cols, limit // cols + 1) if limit else (40,)):
        x = rng.standard_normal((cols, rows)).astype(np.float32)
        y = rng.standard_normal((rows, cols)).astype(np.float32)
        out = empty_array((rows, cols), f4)
        name = f"tiledmax{rows}"
        elementwise.launch(op, [npgpu.asarray(x).T, npgpu.asarray(y)], [f4, f4], [out], [f4],
                           name=name)
        np.testing.assert_array_equal(out.get(), x.T - y)
        src = [s for n, s in npgpu.kernel_sources().items() if n.startswith(name + "_")]
        assert len(src) == 1
        assert ("cuda.shared.array" in src[0]) is (limit is None or rows * cols <= limit)


def test_words_up_to_words_max(rng):
    """Contiguous 4-byte operands take ``words`` from WORDS_MIN to WORDS_MAX elements (on the
    simulator a word's unpacking costs more than it saves); both sides of the edges."""
    lo, hi = elementwise.WORDS_MIN, elementwise.WORDS_MAX
    assert not elementwise.words_size(lo - 1) and elementwise.words_size(lo)
    assert elementwise.words_size(hi) and not elementwise.words_size(hi + 1)
    if hi > 1 << 20:
        return                    # the GPU: no upper edge a test can reach
    for n in (hi, hi + 1):
        h1 = rng.standard_normal(n).astype(np.float32)
        h2 = rng.standard_normal(n).astype(np.float32)
        np.testing.assert_array_equal((npgpu.asarray(h1) + npgpu.asarray(h2)).get(), h1 + h2)
        np.testing.assert_array_equal(npgpu.negative(npgpu.asarray(h1)).get(), -h1)


def test_gpu_variants_are_rendered_for_the_ptx_check():
    """Render (never launch) the GPU's ``words`` (no loop: the grid covers n) and ``tiled``
    (32 x 8) renderings, so that NPGPU_RECORD_KERNELS + ptxcheck compile them too; on the
    simulator the words rendering differs from the GPU's only in its grid-stride loop."""
    op = elementwise.ScalarOp.from_expr("test_gpu_variant_mul", 2, "x0 * x1 + x0")
    f4, i4, u4, b1, u1 = (np.dtype(t) for t in ("f4", "i4", "u4", "?", "u1"))
    # the words layout's operands: 4-byte numbers and 1-byte ones (masks, comparison outputs)
    for a, b, o in ((f4, f4, f4), (i4, i4, i4), (u4, i4, f4), (b1, f4, f4), (u1, u1, b1)):
        dts = [("a", a), ("a", b)]
        words = elementwise.render(op, dts, [o], [o, o], [o], "words", 1, "mul", sim=False)
        assert words.covers and "while" not in words.source
        sim = elementwise.render(op, dts, [o], [o, o], [o], "words", 1, "mul", sim=True)
        assert not sim.covers and "while base < nw:" in sim.source
        stripped = [ln for ln in sim.source.replace(sim.name, "K").splitlines()
                    if "step" not in ln]
        gpu = words.source.replace(words.name, "K").splitlines()
        assert [ln.replace("while base", "if base") for ln in stripped] == gpu
        tiled = elementwise.render(op, dts, [o], [o, o], [o], "tiled", 2, "mul", (1,), sim=False)
        assert "cuda.shared.array((32, 33)" in tiled.source
        for ks in (words, tiled):
            compiler.get_kernel(("gpu-variant", ks.digest()), lambda ks=ks: ks)


def test_disk_entry_is_one_file(tmp_path, monkeypatch):
    # metadata and image in one file written at once: two processes storing one key can never
    # pair one's entry name with the other's image (Numba's mangled names differ by process)
    from npgpu._codegen import compiler
    monkeypatch.setenv("NPGPU_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(compiler, "_disk_ok", None)
    image = bytes(range(256)) * 3                       # newlines and NULs inside
    compiler._disk_write("k1", {"entry": "_Z3fooPf$12", "name": "foo"}, image)
    assert [p.name for p in tmp_path.iterdir()] == ["k1" + compiler._DISK_SUFFIX]
    meta, got = compiler._disk_read("k1")
    assert meta == {"entry": "_Z3fooPf$12", "name": "foo"} and got == image
    compiler._disk_write("k1", {"entry": "_Z3fooPf$99", "name": "foo"}, b"other")
    assert compiler._disk_read("k1") == ({"entry": "_Z3fooPf$99", "name": "foo"}, b"other")
    assert compiler._disk_read("missing") is None
