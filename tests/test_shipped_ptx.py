"""The shipped PTX store (npgpu/_codegen/shipped.py) and its writer (scripts/ship_ptx.py): keys
that follow the kernel source, parameters, launch bounds and options (never the toolchain), the
architecture gate, a missing or empty store, and the writer's files matching the kernels a
process renders (recorded, read back, keyed alike).  The GPU path that assembles shipped PTX
runs in the GPU suite's cold-cache tests once the store holds kernels."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from npgpu._codegen import compiler, shipped
from npgpu._codegen.compiler import KernelSource, Param

ROOT = pathlib.Path(__file__).resolve().parent.parent
OPTS = compiler._OPTIONS


def _ks(src="def k(n, a):\n    a[0] = n\n", bounds=None, dt="f4"):
    return KernelSource("k", src, [Param("scalar", "i8"), Param("array", dt, 1, "C")], bounds)


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(shipped, "STORE", str(tmp_path / "store"))
    monkeypatch.setattr(shipped, "_index", None)
    return tmp_path / "store"


def test_missing_or_empty_store_finds_nothing(store):
    assert shipped.lookup(_ks(), OPTS, (9, 0)) is None          # no folder at all
    store.mkdir()
    shipped._index = None
    assert shipped.lookup(_ks(), OPTS, (9, 0)) is None


def test_round_trip_and_architecture_gate(store):
    ks = _ks()
    shipped.store(ks, OPTS, ".version 8.0\n.entry k_entry(\n", "k_entry", (9, 0))
    assert shipped.lookup(ks, OPTS, (9, 0)) == (b".version 8.0\n.entry k_entry(\n", "k_entry")
    assert shipped.lookup(ks, OPTS, (10, 0)) is not None        # PTX runs on newer GPUs
    assert shipped.lookup(ks, OPTS, (8, 9)) is None             # not on older ones
    meta = json.loads((store / (shipped.key(ks, OPTS) + ".json")).read_text())
    assert meta == {"entry": "k_entry", "name": "k", "arch": [9, 0]}


def test_key_follows_the_kernel_and_options_only(store):
    base = shipped.key(_ks(), OPTS)
    assert shipped.key(_ks(), dict(OPTS)) == base               # the same kernel, the same key
    assert shipped.key(_ks(src="def k(n, a):\n    a[0] = n + 1\n"), OPTS) != base
    assert shipped.key(_ks(dt="f8"), OPTS) != base
    assert shipped.key(_ks(bounds=(128, 4)), OPTS) != base
    assert shipped.key(_ks(), dict(OPTS, fastmath=True)) != base
    shipped.store(_ks(), OPTS, ".entry k(\n", "k", (9, 0))
    assert shipped.lookup(_ks(dt="f8"), OPTS, (9, 0)) is None


def test_record_round_trip_keeps_the_key():
    ks = _ks(bounds=(256, 2))
    back = KernelSource.from_record(json.loads(json.dumps(ks.record())))
    assert back.digest() == ks.digest() and shipped.key(back, OPTS) == shipped.key(ks, OPTS)


def test_writer_files_match_the_rendered_kernels(tmp_path):
    """ship_ptx.py on the simulator (--any-backend --tiny): every kernel the same workload
    renders in a fresh process is found in the written store, with an entry point."""
    out = tmp_path / "out"
    env = dict(os.environ, NPGPU_BACKEND="simulator")
    env.pop("NPGPU_RECORD_KERNELS", None)      # CI records its own kernels: not these
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "ship_ptx.py"), "--any-backend",
                        "--tiny", "--out", str(out)], env=env, capture_output=True, text=True,
                       timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    rec = tmp_path / "rec"
    code = ("import sys; sys.path.insert(0, 'scripts'); import npgpu, ship_ptx; "
            "ship_ptx.workload(npgpu, (16,))")
    r = subprocess.run([sys.executable, "-c", code], env=dict(env, NPGPU_RECORD_KERNELS=str(rec)),
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    rendered = [KernelSource.from_record(json.loads(p.read_text())) for p in rec.glob("*.json")]
    assert len(rendered) >= 10
    have = {p.stem for p in out.glob("*.ptx")}
    assert {shipped.key(ks, OPTS) for ks in rendered} == have
    for p in out.glob("*.json"):
        meta = json.loads(p.read_text())
        assert meta["arch"] == [9, 0] and meta["entry"] in (out / (p.stem + ".ptx")).read_text()


def test_ship_script_refuses_the_simulator_by_default():
    env = dict(os.environ, NPGPU_BACKEND="simulator")
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "ship_ptx.py")], env=env,
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 2 and "needs a GPU" in r.stderr


def test_carried_store_folders(store, tmp_path, monkeypatch):
    """NPGPU_PTX_STORE adds folders (a GPU run's NPGPU_PTX_STORE_OUT, carried to a fresh
    machine); a key in the package's own store is read from there."""
    carried, other = tmp_path / "carried", tmp_path / "other"
    a, b = _ks(), _ks(dt="f8")
    shipped.store(a, OPTS, ".entry from_carried(\n", "from_carried", (9, 0), directory=carried)
    shipped.store(b, OPTS, ".entry from_other(\n", "from_other", (9, 0), directory=other)
    monkeypatch.setenv("NPGPU_PTX_STORE", os.pathsep.join([str(carried), "", str(other)]))
    shipped._index = None
    assert shipped.lookup(a, OPTS, (9, 0)) == (b".entry from_carried(\n", "from_carried")
    assert shipped.lookup(b, OPTS, (9, 0)) == (b".entry from_other(\n", "from_other")
    shipped.store(a, OPTS, ".entry packaged(\n", "packaged", (9, 0))
    assert shipped.lookup(a, OPTS, (9, 0)) == (b".entry packaged(\n", "packaged")
    # whole files only: no temporary file is left beside them
    assert sorted(p.suffix for p in carried.iterdir()) == [".json", ".ptx"]
    monkeypatch.delenv("NPGPU_PTX_STORE")
    shipped._index = None
    assert shipped.lookup(b, OPTS, (9, 0)) is None
